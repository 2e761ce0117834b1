/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * macfilter: drop received frames by source MAC between a device and the
 * network layer.  Generic netlink ABI shared by kmod/macfilter and userspace.
 *
 * Every device carries a list of entries.  An entry is a source MAC and an
 * optional loss (drop probability, 0..100 percent).  What happens to a
 * received frame depends on the device's mode:
 *
 *   deny  (default)  listed source: dropped with the entry's loss
 *                    (no loss given: always dropped); unlisted: passed
 *   allow            listed source: dropped with the entry's loss
 *                    (no loss given: never dropped); unlisted: dropped
 *
 * So a plain list of MACs means "these are the nodes I cannot hear" in deny
 * mode and "these are the only nodes I can hear" in allow mode, and a loss
 * turns a cut or a perfect link into a lossy one.
 *
 * REPLACE carries the new list as MACFILTER_A_ENTRY nests (NLA_F_NESTED) at
 * the top level of the message, one per entry, not inside one nest: an
 * attribute is limited to 64 KiB, a message is not.  No ENTRY at all
 * replaces with an empty list.
 */
#ifndef _UAPI_LINUX_AH_MACFILTER_H
#define _UAPI_LINUX_AH_MACFILTER_H

#define MACFILTER_GENL_NAME		"macfilter"
#define MACFILTER_GENL_VERSION		1
#define MACFILTER_MCGRP_CONFIG		"config"

/* Limits on entries per device. */
#define MACFILTER_DEFAULT_MAX_ENTRIES	1024
#define MACFILTER_LIMIT_MAX_ENTRIES	65536
#define MACFILTER_LOSS_MAX		100

enum macfilter_mode {
	MACFILTER_MODE_DENY,
	MACFILTER_MODE_ALLOW,
	__MACFILTER_MODE_MAX,
};

#define MACFILTER_MODE_MAX (__MACFILTER_MODE_MAX - 1)

enum macfilter_cmd {
	MACFILTER_CMD_UNSPEC,
	MACFILTER_CMD_ATTACH,		/* IFINDEX|IFNAME [MODE] [MAX_ENTRIES] */
	MACFILTER_CMD_DETACH,		/* IFINDEX|IFNAME */
	MACFILTER_CMD_SET,		/* IFINDEX|IFNAME [MODE] [MAX_ENTRIES] */
	MACFILTER_CMD_GET_DEV,		/* doit: IFINDEX|IFNAME; dump: all */
	MACFILTER_CMD_ADD,		/* IFINDEX|IFNAME MAC [LOSS] */
	MACFILTER_CMD_DEL,		/* IFINDEX|IFNAME MAC */
	MACFILTER_CMD_FLUSH,		/* IFINDEX|IFNAME */
	MACFILTER_CMD_REPLACE,		/* IFINDEX|IFNAME [MODE] ENTRY... */
	MACFILTER_CMD_GET_ENTRY,	/* dump: [IFINDEX|IFNAME] */
	__MACFILTER_CMD_MAX,
};

#define MACFILTER_CMD_MAX (__MACFILTER_CMD_MAX - 1)

enum macfilter_attr {
	MACFILTER_A_UNSPEC,
	MACFILTER_A_IFINDEX,		/* u32 */
	MACFILTER_A_IFNAME,		/* string */
	MACFILTER_A_MODE,		/* u8, enum macfilter_mode */
	MACFILTER_A_MAX_ENTRIES,	/* u32, 1..MACFILTER_LIMIT_MAX_ENTRIES */
	MACFILTER_A_COUNT,		/* u32, entries on the list */
	MACFILTER_A_MAC,		/* binary, ETH_ALEN */
	MACFILTER_A_LOSS,		/* u8, percent; absent: mode default */
	MACFILTER_A_ENTRY,		/* nest: MAC [LOSS]; repeated */
	MACFILTER_A_DROPPED,		/* u64, frames dropped (entry/device) */
	MACFILTER_A_SEEN,		/* u64, frames seen (device) */
	MACFILTER_A_PASSED,		/* u64, frames passed (device) */
	MACFILTER_A_PAD,
	__MACFILTER_A_MAX,
};

#define MACFILTER_A_MAX (__MACFILTER_A_MAX - 1)

#endif /* _UAPI_LINUX_AH_MACFILTER_H */
