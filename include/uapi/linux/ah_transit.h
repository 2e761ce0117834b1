/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * transit: learned early drop of transit traffic in programmed-I/O Wi-Fi
 * drivers (seed 000 section 4).  Generic netlink ABI shared by
 * kmod/orinoco_transit and userspace.
 *
 * A driver that pays programmed I/O per byte reads the first PEEK_LEN
 * bytes of a received frame and asks the engine attached to its device
 * whether to read the rest.  The engine learns which transit flows the
 * kernel drops (firewall, proxy) by marking packets and watching whether
 * they are transmitted again, and drops those flows' frames unread.
 * Frames for this host, broadcast and multicast, anything not IPv4 or not
 * understood, and DSR control (protocol 48 other than a bare Source
 * Route) are never dropped.
 *
 * Every request names a device by TRANSIT_A_IFINDEX or TRANSIT_A_IFNAME.
 * Attributes are flat, one namespace for every command (as ah_dsr.h), so
 * a JSON key is the attribute name without the "TRANSIT_A_" prefix, lower
 * case; TRANSIT_A_PROBES and TRANSIT_A_MISSES are device totals in a
 * device message and the flow's own counts in a flow message.  Addresses
 * are IPv4 in network byte order (u32 as on the wire); ports host order;
 * times milliseconds.
 *
 * Parameters are u32 attributes TRANSIT_A_P_*.  ATTACH and SET take any
 * subset (ATTACH: the rest default); each value is checked against its
 * range, and against the others, before any is applied; a refusal names
 * the attribute in the extack.  SET with another TABLE_SIZE, PEEK_LEN or
 * KEY_PORTS forgets the flows learned.
 */
#ifndef _UAPI_LINUX_AH_TRANSIT_H
#define _UAPI_LINUX_AH_TRANSIT_H

#define TRANSIT_GENL_NAME		"transit"
#define TRANSIT_GENL_VERSION		1
#define TRANSIT_MCGRP_CONFIG		"config"	/* attach, detach, set, flush */

/* Parameters: defaults and ranges */
#define TRANSIT_DEFAULT_N_MISSES	3	/* 1..64 */
#define TRANSIT_DEFAULT_MARK_TIMEOUT_MS	200	/* 1..10000 */
#define TRANSIT_DEFAULT_PROBE_INTERVAL_MS 5000	/* 100..3600000, > mark */
#define TRANSIT_DEFAULT_PEEK_LEN	34	/* 34..128: Ethernet + IPv4 */
#define TRANSIT_PEEK_LEN_PORTS		38	/* + TCP/UDP ports */
#define TRANSIT_DEFAULT_TABLE_SIZE	1024	/* 16..65536 flows */
#define TRANSIT_DEFAULT_KEY_PORTS	0	/* 0/1; 1 needs PEEK_LEN >= 38 */
#define TRANSIT_DEFAULT_IDLE_TIMEOUT_MS	60000	/* > mark timeout, ..86400000 */

enum transit_cmd {
	TRANSIT_CMD_UNSPEC,
	TRANSIT_CMD_ATTACH,	/* IFINDEX|IFNAME [ENABLE] [P_*] */
	TRANSIT_CMD_DETACH,	/* IFINDEX|IFNAME */
	TRANSIT_CMD_SET,	/* IFINDEX|IFNAME [ENABLE] [P_*] */
	TRANSIT_CMD_GET_DEV,	/* doit: IFINDEX|IFNAME; dump: every device:
				 * ENABLE, P_*, FLOWS and the totals
				 */
	TRANSIT_CMD_GET_FLOW,	/* dump: IFINDEX|IFNAME -> one per flow */
	TRANSIT_CMD_FLUSH,	/* IFINDEX|IFNAME [FLUSH] */
	__TRANSIT_CMD_MAX,
};

#define TRANSIT_CMD_MAX (__TRANSIT_CMD_MAX - 1)

/* What FLUSH forgets; without TRANSIT_A_FLUSH, the flows. */
enum transit_flush {
	TRANSIT_FLUSH_FLOWS	= 1 << 0,	/* flows and fragment records */
	TRANSIT_FLUSH_COUNTERS	= 1 << 1,	/* the device totals */
	TRANSIT_FLUSH_ALL	= 0x3,
};

/* A flow's state (TRANSIT_A_STATE) */
enum transit_state {
	TRANSIT_STATE_UNSPEC,
	TRANSIT_STATE_LEARNING,	/* new: marking packets */
	TRANSIT_STATE_FORWARD,	/* marks come back: passed, re-marked */
	TRANSIT_STATE_DROP,	/* marks lost: dropped unread, probed */
	__TRANSIT_STATE_MAX,
};

#define TRANSIT_STATE_MAX (__TRANSIT_STATE_MAX - 1)

enum transit_attr {
	TRANSIT_A_UNSPEC,
	TRANSIT_A_IFINDEX,		/* u32 */
	TRANSIT_A_IFNAME,		/* string */
	TRANSIT_A_PAD,
	TRANSIT_A_ENABLE,		/* u8: 1 on; 0 every frame read whole */
	TRANSIT_A_FLUSH,		/* u32: enum transit_flush bits */

	/* parameters, u32 each */
	TRANSIT_A_P_N_MISSES,		/* misses in a row before DROP */
	TRANSIT_A_P_MARK_TIMEOUT_MS,	/* a mark not seen by then: a miss */
	TRANSIT_A_P_PROBE_INTERVAL_MS,	/* re-mark FORWARD, probe DROP */
	TRANSIT_A_P_PEEK_LEN,		/* bytes read before the verdict */
	TRANSIT_A_P_TABLE_SIZE,		/* flows held */
	TRANSIT_A_P_KEY_PORTS,		/* 0/1: ports in the flow key */
	TRANSIT_A_P_IDLE_TIMEOUT_MS,	/* a silent flow is forgotten */

	/* device totals */
	TRANSIT_A_FLOWS,		/* u32: flows held now */
	TRANSIT_A_PIO_BYTES_SAVED,	/* u64: frame - peek, dropped frames */
	TRANSIT_A_EARLY_DROPS,		/* u64: frames dropped unread */
	TRANSIT_A_FALSE_POSITIVES,	/* u64: probes of DROP flows forwarded */
	TRANSIT_A_FALSE_NEGATIVES,	/* u64: frames read whole, then
					 * dropped by the kernel
					 */
	TRANSIT_A_PASSES,		/* u64: frames read whole */
	TRANSIT_A_EVICTIONS,		/* u64: flows forgotten for room */
	TRANSIT_A_MARKS,		/* u64: packets marked */
	TRANSIT_A_MISSES,		/* u64: marks lost */
	TRANSIT_A_PROBES,		/* u64: marks of DROP flows */

	/* one flow (GET_FLOW) */
	TRANSIT_A_SADDR,		/* u32 (be) */
	TRANSIT_A_DADDR,		/* u32 (be) */
	TRANSIT_A_PROTO,		/* u8 */
	TRANSIT_A_SPORT,		/* u16; 0 unless keyed on ports */
	TRANSIT_A_DPORT,		/* u16 */
	TRANSIT_A_STATE,		/* u8: enum transit_state */
	TRANSIT_A_PKTS,			/* u64: frames received */
	TRANSIT_A_BYTES,		/* u64: their frame bytes */
	TRANSIT_A_DROPPED,		/* u64: of them dropped unread */
	TRANSIT_A_IDLE_MS,		/* u32: since the last frame */
	__TRANSIT_A_MAX,
};

#define TRANSIT_A_MAX (__TRANSIT_A_MAX - 1)
#define TRANSIT_A_P_FIRST TRANSIT_A_P_N_MISSES
#define TRANSIT_A_P_LAST TRANSIT_A_P_IDLE_TIMEOUT_MS

#endif /* _UAPI_LINUX_AH_TRANSIT_H */
