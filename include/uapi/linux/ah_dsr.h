/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * dsr: Dynamic Source Routing (RFC 4728) as a "dsr" net_device.  Generic
 * netlink ABI shared by kmod/dsr and userspace.
 *
 * Every request names a dsr device by DSR_A_IFINDEX or DSR_A_IFNAME.
 * Attributes are flat, one namespace for every command (as batman-adv
 * does), but for the parameters' nest below, so a JSON key is the
 * attribute name without the "DSR_A_" prefix, lower case.  Addresses are
 * IPv4 in network byte order (u32 as on the wire); times are
 * milliseconds.
 *
 * Protocol constants (RFC 4728 section 9 and ours) are the attributes
 * DSR_A_P_* of their own nest, DSR_A_PARAMS (enum dsr_param_attr,
 * numbered from 1 inside it), so that a new parameter never renumbers the
 * other attributes.  GET_PARAMS returns them all, SET_PARAMS changes any
 * subset: each value is checked against its range before any is applied.
 * A request's nest needs NLA_F_NESTED (every command is strictly
 * validated).  Their JSON keys are the names without "DSR_A_P_", lower
 * case, beside the other attributes' (the nest is not a level in JSON).
 */
#ifndef _UAPI_LINUX_AH_DSR_H
#define _UAPI_LINUX_AH_DSR_H

#include <linux/types.h>

#define DSR_GENL_NAME		"dsr"
#define DSR_GENL_VERSION	2	/* 2: parameters in DSR_A_PARAMS */
#define DSR_MCGRP_CONFIG	"config"	/* every change of config */
#define DSR_MCGRP_EVENTS	"events"	/* routing events */

#define DSR_IPPROTO		48	/* IANA, RFC 4728 */
/* most addresses in a route (DSR_A_HOPS, DST last): the kernel's DSR_MAX_PATH */
#define DSR_MAX_ADDRS		32
/* most children of a multicast group at one node: the kernel's DSR_MC_CHILDREN */
#define DSR_MC_MAX_CHILDREN	64
/* the source map's size: the kernel's DSR_MT_MAP_GROUPS, _SOURCES */
#define DSR_MC_MAP_GROUPS	16
#define DSR_MC_MAP_SOURCES	4

enum dsr_cmd {
	DSR_CMD_UNSPEC,
	DSR_CMD_GET_PARAMS,	/* doit: dev -> PARAMS, every DSR_A_P_* */
	DSR_CMD_SET_PARAMS,	/* dev, [PARAMS]: any DSR_A_P_* */
	DSR_CMD_GET_ROUTE,	/* dump: dev -> one message per cached path */
	DSR_CMD_ADD_ROUTE,	/* dev, DST, [HOPS]: a static path */
	DSR_CMD_DEL_ROUTE,	/* dev, DST: every path ending at DST */
	DSR_CMD_FLUSH,		/* dev, [FLUSH]: bitmask of enum dsr_flush */
	DSR_CMD_GET_NEIGH,	/* dump: dev -> neighbours */
	DSR_CMD_GET_BUFFER,	/* dump: dev -> send + maintenance buffers */
	DSR_CMD_GET_REQTABLE,	/* dump: dev -> request table */
	DSR_CMD_GET_NEGCACHE,	/* dump: dev -> links in hold-down */
	DSR_CMD_EVENT,		/* multicast: EVENT, dev, ADDR/DST/... */
	/*
	 * Layered multicast (docs/mcast.md): local receivers of (source,
	 * group) want its first MC_LAYERS layers; MC_TAG_* say how the
	 * group's packets are tagged (default: byte mode, offset 0, 128
	 * layers).  A join again changes the level; leave ends it.
	 */
	DSR_CMD_MCAST_JOIN,	/* dev, MC_SOURCE, MC_GROUP, MC_LAYERS, [MC_TAG_*] */
	DSR_CMD_MCAST_LEAVE,	/* dev, MC_SOURCE, MC_GROUP */
	DSR_CMD_GET_MCAST,	/* dump: dev -> rows (MC_ROW) of each group */
	/*
	 * The element chain of a group this node has (struct dsr_mc_elem_cfg
	 * below), replaced whole; without MC_CHAIN, the default chain.
	 */
	DSR_CMD_MCAST_CHAIN,	/* dev, MC_SOURCE, MC_GROUP, [MC_CHAIN] */
	/*
	 * The source map: an any-source join of MC_GROUP by a local socket
	 * (IGMPv2, or IGMPv3 without sources) joins the trees of the
	 * group's mapped sources (at most DSR_MC_MAP_SOURCES of each of
	 * DSR_MC_MAP_GROUPS groups).  UNMAP without MC_SOURCE: all of them.
	 */
	DSR_CMD_MCAST_MAP,	/* dev, MC_GROUP, MC_SOURCE */
	DSR_CMD_MCAST_UNMAP,	/* dev, MC_GROUP, [MC_SOURCE] */
	__DSR_CMD_MAX,
};

#define DSR_CMD_MAX (__DSR_CMD_MAX - 1)

enum dsr_flush {
	DSR_FLUSH_ROUTES	= 1 << 0,	/* route cache (static too) */
	DSR_FLUSH_NEGCACHE	= 1 << 1,
	DSR_FLUSH_SENDBUF	= 1 << 2,
	DSR_FLUSH_REQTABLE	= 1 << 3,
	DSR_FLUSH_ALL		= 0xf,
};

enum dsr_event {
	DSR_EVENT_UNSPEC,
	DSR_EVENT_ROUTE_ADDED,		/* DST HOPS */
	DSR_EVENT_ROUTE_ERROR,		/* ADDR (error source) NEXTHOP DST */
	DSR_EVENT_LINK_BROKEN,		/* ADDR (from) NEXTHOP (to) */
	DSR_EVENT_DISCOVERY_FAILED,	/* DST */
	DSR_EVENT_CONFIG,		/* parameters changed */
	__DSR_EVENT_MAX,
};

#define DSR_EVENT_MAX (__DSR_EVENT_MAX - 1)

enum dsr_buffer_kind {
	DSR_BUFFER_SEND,	/* awaiting a route */
	DSR_BUFFER_MAINT,	/* awaiting an acknowledgment */
};

/*
 * The rows of a GET_MCAST dump, in this order for each group:
 * GROUP:  MC_SOURCE MC_GROUP MC_UPSTREAM MC_LAYERS (local receivers')
 *         [MC_LOCAL_IGMP] MC_ASKED (of upstream) MC_TAG_* MC_CHAIN
 * CHILD:  MC_SOURCE MC_GROUP ADDR MC_LAYERS SLAVE EXPIRES_MS, one a child
 * LAYER:  MC_SOURCE MC_GROUP MC_LAYER MC_FWD_* MC_FILT_* MC_LOCAL_*
 *         MC_CAPPED_PACKETS, one
 *         for each layer that any packet had (the last, DSR_MC_STAT_LAYERS
 *         - 1, also counts every layer above it)
 * and after the groups, the source map:
 * MAP:    MC_GROUP MC_SOURCE, one a mapped source
 * (A GROUP row has MC_MAPPED when its socket's join came by the map.)
 */
enum dsr_mc_row {
	DSR_MC_ROW_GROUP,
	DSR_MC_ROW_CHILD,
	DSR_MC_ROW_LAYER,
	DSR_MC_ROW_MAP,
};

#define DSR_MC_STAT_LAYERS	40

/* how a group's packets carry their layer (kmod/dsr/mcast_tag.h) */
enum dsr_mc_tag_mode {
	DSR_MC_TAG_BYTE,	/* low 7 bits of the UDP payload's byte OFFSET */
	DSR_MC_TAG_RTP,		/* RFC 9626 frame marking, element EXT_ID */
};

/*
 * A group's element chain (docs/mcast.md): what each packet of the group
 * goes through on this node, element by element, in this order:
 *
 *	TAG	its layer, read by the group's tag (without: every packet is
 *		layer 0); first if present
 *	DUP	a packet seen already (by another path, or retransmitted) is
 *		dropped
 *	CAP	arg 1..128: a packet of layer arg or above goes no further, to
 *		no child and no local receiver
 *	FILTER	a child gets only the layers it asked for (without: every
 *		child gets every layer that comes this far)
 *	FANOUT	the copies to the children; arg: a link-layer broadcast on a
 *		slave that at least arg children share (0: a copy each;
 *		DSR_MC_FANOUT_PARAM: the device's mcast_bcast_min); last if
 *		present; without it nothing is forwarded (local receivers
 *		still get their layers)
 *
 * Each kind at most once; an element that takes no argument has arg 0.
 * The default chain: TAG DUP FILTER FANOUT(DSR_MC_FANOUT_PARAM).
 */
enum dsr_mc_elem {
	DSR_MC_EL_UNSPEC,
	DSR_MC_EL_TAG,
	DSR_MC_EL_DUP,
	DSR_MC_EL_CAP,
	DSR_MC_EL_FILTER,
	DSR_MC_EL_FANOUT,
	__DSR_MC_EL_MAX,
};

#define DSR_MC_FANOUT_PARAM	255
#define DSR_MC_CHAIN_MAX	8

/* DSR_A_MC_CHAIN: an array of 1..DSR_MC_CHAIN_MAX of these */
struct dsr_mc_elem_cfg {
	__u8 kind;		/* enum dsr_mc_elem */
	__u8 arg;
};

/*
 * Joins between nodes travel one hop, as the payload of a DSR packet
 * whose Next Header is this (RFC 3692's experimental protocol number):
 * struct dsr_mc_join (kmod/dsr/mjoin.h).
 */
#define DSR_MC_JOIN_PROTO	253

/* RFC 4728 section 4.6: a neighbour unicasts may not reach (NEIGH dumps) */
enum dsr_blacklist_state {
	DSR_BLACKLIST_NONE,
	DSR_BLACKLIST_QUESTIONABLE,
	DSR_BLACKLIST_PROBABLE,
};

enum dsr_attr {
	DSR_A_UNSPEC,
	DSR_A_IFINDEX,		/* u32: the dsr device */
	DSR_A_IFNAME,		/* string */
	DSR_A_PAD,

	/* route cache, events */
	DSR_A_DST,		/* be32 (NLA_BE32) */
	DSR_A_HOPS,		/* binary: u32 (be) addresses after us, last = DST */
	DSR_A_HOPCOUNT,		/* u32 */
	DSR_A_AGE_MS,		/* u32 */
	DSR_A_EXPIRES_MS,	/* u32, 0 = never (static) */
	DSR_A_STATIC,		/* flag */
	DSR_A_EXTERNAL,		/* flag: last hop outside the DSR network */

	/* neighbours, buffers, request table, negative cache */
	DSR_A_ADDR,		/* be32 */
	DSR_A_NEXTHOP,		/* be32 */
	DSR_A_MAC,		/* binary, 6 */
	DSR_A_SLAVE,		/* u32 ifindex of the enslaved device */
	DSR_A_RTO_MS,		/* u32 */
	DSR_A_TX,		/* u64 packets sent to this neighbour */
	DSR_A_RETX,		/* u64 retransmissions to it */
	DSR_A_ACKED,		/* u64 packets it acknowledged */
	DSR_A_BUFFER,		/* u8 enum dsr_buffer_kind */
	DSR_A_LEN,		/* u32 bytes */
	DSR_A_TRIES,		/* u32 */
	DSR_A_IDS,		/* u32 identifiers remembered / requests sent */
	DSR_A_FLUSH,		/* u32 enum dsr_flush bits */
	DSR_A_EVENT,		/* u8 enum dsr_event */

	/* the neighbour's estimator (NEIGH dumps), us */
	DSR_A_SRTT_US,		/* u32 */
	DSR_A_RTTVAR_US,	/* u32 */
	DSR_A_RTT_SAMPLES,	/* u32 */
	DSR_A_BLACKLIST,	/* u8 enum dsr_blacklist_state, if listed */
	DSR_A_PARAMS,		/* nested: enum dsr_param_attr */
	DSR_A_ACK_EXPLICIT,	/* flag (NEIGH dumps): asked for explicit
				 * acks, its forwarding is not overheard
				 */

	/* layered multicast (MCAST_JOIN, LEAVE, GET_MCAST) */
	DSR_A_MC_ROW,		/* u8 enum dsr_mc_row */
	DSR_A_MC_SOURCE,	/* be32 */
	DSR_A_MC_GROUP,		/* be32: 224.0.1.0 - 239.255.255.255 */
	DSR_A_MC_LAYERS,	/* u8: layers 0..N-1 wanted, 1..128 */
	DSR_A_MC_UPSTREAM,	/* be32: next hop toward the source, 0 none */
	DSR_A_MC_ASKED,		/* u8: layers upstream was last asked for */
	DSR_A_MC_TAG_MODE,	/* u8 enum dsr_mc_tag_mode */
	DSR_A_MC_TAG_LAYERS,	/* u8: the group's layers, 1..128 */
	DSR_A_MC_TAG_OFFSET,	/* u16: BYTE: of the tag in the UDP payload */
	DSR_A_MC_TAG_EXT_ID,	/* u8: RTP: 1..255 */
	DSR_A_MC_TAG_TIDS,	/* u8: RTP: temporal layers a layer id, 0..8 */
	DSR_A_MC_LAYER,		/* u8 (LAYER rows) */
	DSR_A_MC_FWD_PACKETS,	/* u64: copies sent to children */
	DSR_A_MC_FWD_BYTES,	/* u64: their IP bytes (inner packet) */
	DSR_A_MC_FILT_PACKETS,	/* u64: copies a child did not ask for */
	DSR_A_MC_FILT_BYTES,	/* u64 */
	DSR_A_MC_LOCAL_PACKETS,	/* u64: delivered to local receivers */
	DSR_A_MC_LOCAL_BYTES,	/* u64 */
	DSR_A_MC_LOCAL_IGMP,	/* flag: a local socket joined (GROUP rows) */
	DSR_A_MC_CHAIN,		/* binary: struct dsr_mc_elem_cfg[] (GROUP rows) */
	DSR_A_MC_CAPPED_PACKETS,	/* u64: stopped by CAP (LAYER rows) */
	DSR_A_MC_MAPPED,	/* flag: MC_LOCAL_IGMP's join came by the map */
	__DSR_A_MAX,
};

#define DSR_A_MAX (__DSR_A_MAX - 1)

/*
 * Inside DSR_A_PARAMS: the protocol constants, u32 each.  A new one goes
 * last (before __DSR_A_P_MAX); it renumbers nothing.
 */
enum dsr_param_attr {
	DSR_A_P_UNSPEC,
	DSR_A_P_DISCOVERY_HOP_LIMIT,
	DSR_A_P_BROADCAST_JITTER_MS,
	DSR_A_P_ROUTE_CACHE_TIMEOUT_MS,
	DSR_A_P_SEND_BUFFER_TIMEOUT_MS,
	DSR_A_P_SEND_BUFFER_PACKETS,
	DSR_A_P_SEND_BUFFER_BYTES,
	DSR_A_P_REQUEST_TABLE_SIZE,
	DSR_A_P_REQUEST_TABLE_IDS,
	DSR_A_P_MAX_REQUEST_REXMT,
	DSR_A_P_MAX_REQUEST_PERIOD_MS,
	DSR_A_P_REQUEST_PERIOD_MS,
	DSR_A_P_NONPROP_REQUEST_TIMEOUT_MS,
	DSR_A_P_REXMT_BUFFER_SIZE,
	DSR_A_P_MAINT_HOLDOFF_MS,
	DSR_A_P_MAX_MAINT_REXMT,
	DSR_A_P_TRY_PASSIVE_ACKS,
	DSR_A_P_PASSIVE_ACK_TIMEOUT_MS,
	DSR_A_P_ACK_TIMEOUT_MS,
	DSR_A_P_GRAT_REPLY_HOLDOFF_MS,
	DSR_A_P_MAX_SALVAGE_COUNT,
	DSR_A_P_LINK_HOLDDOWN_MS,
	DSR_A_P_ROUTE_CACHE_SIZE,
	DSR_A_P_GATEWAY,
	DSR_A_P_SUBNET,		/* be32 (NLA_BE32): the ad hoc subnet ... */
	DSR_A_P_SUBNET_PREFIX,	/* ... and its prefix length (gateway) */
	DSR_A_P_TIMER_MS,
	/* per-next-hop adaptive retransmission timer (RFC 6298 + CMU queue) */
	DSR_A_P_ADAPTIVE_RTO,	/* 0: the fixed timeouts above */
	DSR_A_P_RTO_MIN_MS,
	DSR_A_P_RTO_MAX_MS,
	DSR_A_P_QUEUE_HEURISTIC,	/* 0: off */
	DSR_A_P_QUEUE_THRESH,	/* packets in the slave's queue */
	DSR_A_P_QUEUE_INCR_MS,	/* per queued packet over the threshold */
	DSR_A_P_SLAVE_QDISC,	/* 1: dsrprio on every slave it enslaves */
	DSR_A_P_HOLD_QUEUED,	/* 1: no retransmission while in our queue */
	/* 1: a last expiry drops only the packet if a later one crossed */
	DSR_A_P_CONGESTION_DROP,
	/* 1: an ack also clears what was sent to that next hop before */
	DSR_A_P_ACK_ALL,
	/* overheard data frames a second looked at beside possible passive
	 * acks (0: all)
	 */
	DSR_A_P_OVERHEARD_RATE,
	/*
	 * layered multicast: children of a group on one slave that get one
	 * link-layer broadcast instead of a copy each (0: never)
	 */
	DSR_A_P_MCAST_BCAST_MIN,
	__DSR_A_P_MAX,
};

#define DSR_A_P_MAX (__DSR_A_P_MAX - 1)
#define DSR_A_P_FIRST DSR_A_P_DISCOVERY_HOP_LIMIT
#define DSR_A_P_LAST DSR_A_P_MCAST_BCAST_MIN

#endif /* _UAPI_LINUX_AH_DSR_H */
