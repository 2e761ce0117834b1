/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * slice: lease a node's network interface to one slice (a network
 * namespace) with exclusive access, as the Mobile PlanetLab node of seed
 * 003 leases its radios.  Generic netlink ABI shared by kmod/slice and
 * userspace.
 *
 * A grant lives in the node's namespace (the one the request was sent
 * in) and names the interface by the ifindex and name it has there.  In
 * move mode the interface itself moves into the slice's namespace; it
 * cannot be moved on from there while granted, and comes back to the
 * node on revoke, at the lease's end, when the slice's namespace exits,
 * or when the module is removed.  One slice per interface at a time.
 *
 * A lease is in seconds, 1 to SLICE_LEASE_MAX; no lease means until
 * revoked.  The kernel revokes an expired lease itself.
 *
 * A wireless interface (move mode) cannot change namespace alone: it
 * moves with its phy, which the kernel cannot move (cfg80211 keeps that
 * to nl80211).  Its grant starts in state PHY_WAIT: the interface is the
 * slice's, but stays where it is, and cannot be brought up, until whoever
 * granted it moves its phy into the slice (NL80211_CMD_SET_WIPHY_NETNS;
 * ahctl and dsrd do) within SLICE_PHY_WAIT_SECS; then the grant is ACTIVE
 * (announced as a GRANT again).  A phy that carries other interfaces too
 * is refused (EBUSY): they would move with it.  When such a grant ends
 * (revoke, lease, the slice's namespace exiting, the phy moved on by the
 * slice) the kernel takes the interface down at once and keeps it down:
 * the grant stays, in state RETURNING and answering every GRANT with
 * EBUSY, until the phy is back in the node (moved by ahctl or dsrd, or by
 * cfg80211, which hands the phys of an exiting namespace to the initial
 * one); then the grant is gone and the interface up again if it was.
 * SLICE_A_PHY names the phy and SLICE_A_SLICE_NETNS_INO the slice's
 * namespace (the inode of its nsfs file), SLICE_A_PHY_NETNS_INO the one
 * the phy is in now, for whoever moves the phy.  While a grant holds a
 * phy, no other interface can be created on it (its registration is
 * refused), and if the slice deletes the granted interface the grant
 * keeps holding the phy (RETURNING, without SLICE_A_SLICE_IFINDEX and
 * SLICE_A_SLICE_IFNAME) until the phy is back in the node or the radio
 * is removed.  A REVOKE with SLICE_A_FORCE ends a RETURNING grant where
 * it is, releasing the hold (for a phy nobody can bring back).
 *
 * While granted, a frame the slice sends whose source MAC is not the
 * interface's, or whose IPv4 source is not one of the addresses of the
 * interface or of its master (0.0.0.0 allowed, for DHCP; and a DSR
 * packet relayed by a slave of the slice's own dsr0 keeps its
 * originator's), is dropped and counted (SPOOFED); the interface's MAC
 * cannot be changed.
 *
 * In map mode (seed 003's "virtual mapper") the interface stays the
 * node's, with its addresses, DHCP lease, macfilter list and DSR: the
 * slice gets a virtual layer-3 interface of the same name that carries
 * the interface's IPv4 address (ADDR, the first of the interface, or of
 * its master when it is a slave, at grant time).  IPv4 packets to ADDR
 * that arrive on the interface (or its master) go to the slice, except
 * UDP to 67 and 68 (DHCP) and TCP and UDP to the ports of KEEP, which
 * stay the node's; non-first fragments go to the slice.  In map mode
 * SLICE_IFINDEX and SLICE_IFNAME are the slice's new interface's (named
 * as the node's interface, or slN if that name is taken in the slice);
 * ADDR is 0.0.0.0 while the node has no address there.  What the slice sends from
 * ADDR leaves through the interface (routed in the node's namespace),
 * anything else is dropped and counted (SPOOFED).  The slice configures
 * ADDR on its interface itself (ahctl slice grant does, in map mode).
 * When the node's address changes (a new DHCP lease), the mapping moves
 * to the interface's first address then, announced as a GRANT message
 * with the new ADDR: the slice's side is re-addressed by whoever manages
 * it.
 *
 * Every grant and revocation is announced on the "config" group (joining
 * it needs CAP_NET_ADMIN) as a GRANT or REVOKE message with the grant's
 * attributes; a REVOKE carries the REASON.
 */
#ifndef _UAPI_LINUX_AH_SLICE_H
#define _UAPI_LINUX_AH_SLICE_H

#define SLICE_GENL_NAME		"slice"
#define SLICE_GENL_VERSION	1
#define SLICE_MCGRP_CONFIG	"config"

/* the longest lease: 30 days */
#define SLICE_LEASE_MAX		(30 * 24 * 3600)
/* a slice's label (the name of its namespace, for people) */
#define SLICE_NAME_MAX		32
/* how long a wireless grant waits for its phy to move into the slice */
#define SLICE_PHY_WAIT_SECS	10

enum slice_mode {
	SLICE_MODE_MOVE,	/* the interface moves into the slice */
	SLICE_MODE_MAP,		/* the slice gets a mapper of its address */
	__SLICE_MODE_MAX,
};

/* ports (TCP and UDP) a map grant keeps for the node, besides DHCP's */
#define SLICE_KEEP_MAX		16

#define SLICE_MODE_MAX (__SLICE_MODE_MAX - 1)

/* why a grant ended (SLICE_A_REASON of a REVOKE) */
enum slice_reason {
	SLICE_REASON_REVOKED,	/* a REVOKE request */
	SLICE_REASON_EXPIRED,	/* the lease ran out */
	SLICE_REASON_SLICE_EXIT,	/* the slice's namespace went away */
	SLICE_REASON_DEV_GONE,	/* the interface was removed */
	SLICE_REASON_UNLOAD,	/* the module is being removed */
	SLICE_REASON_NODE_EXIT,	/* the node's namespace went away */
	SLICE_REASON_PHY_MOVED,	/* its phy went elsewhere than the slice */
	SLICE_REASON_NO_PHY,	/* its phy did not come in SLICE_PHY_WAIT_SECS */
	__SLICE_REASON_MAX,
};

/* where a grant is (SLICE_A_STATE) */
enum slice_state {
	SLICE_STATE_ACTIVE,	/* the slice holds the interface */
	SLICE_STATE_PHY_WAIT,	/* wireless: waits for its phy to move in */
	SLICE_STATE_RETURNING,	/* ended; held down until its phy is back */
	__SLICE_STATE_MAX,
};

enum slice_cmd {
	SLICE_CMD_UNSPEC,
	/*
	 * IFINDEX|IFNAME  NETNS_FD|NETNS_PID  [NAME] [MODE] [LEASE] [KEEP]
	 * EBUSY if the interface is granted already; KEEP with MODE map only
	 */
	SLICE_CMD_GRANT,
	SLICE_CMD_REVOKE,	/* IFINDEX|IFNAME (as in the node) [FORCE] */
	SLICE_CMD_GET,		/* doit: IFINDEX|IFNAME; dump: every grant */
	__SLICE_CMD_MAX,
};

#define SLICE_CMD_MAX (__SLICE_CMD_MAX - 1)

enum slice_attr {
	SLICE_A_UNSPEC,
	SLICE_A_IFINDEX,	/* u32, the interface's ifindex in the node */
	SLICE_A_IFNAME,		/* string, its name in the node */
	SLICE_A_NETNS_FD,	/* u32, a file descriptor of the slice's netns */
	SLICE_A_NETNS_PID,	/* u32, a process in the slice's netns */
	SLICE_A_NAME,		/* string, the slice's label */
	SLICE_A_MODE,		/* u8, enum slice_mode (default MOVE) */
	SLICE_A_LEASE,		/* u32, seconds, 1..SLICE_LEASE_MAX */
	SLICE_A_LEASE_LEFT,	/* u32, ms until the lease ends (if any) */
	SLICE_A_AGE,		/* u64, ms since the grant */
	SLICE_A_SLICE_IFINDEX,	/* u32, the interface's ifindex in the slice */
	SLICE_A_SLICE_IFNAME,	/* string, its name in the slice */
	SLICE_A_RX_PACKETS,	/* u64, into the slice since the grant */
	SLICE_A_RX_BYTES,	/* u64 */
	SLICE_A_TX_PACKETS,	/* u64, out of the slice since the grant */
	SLICE_A_TX_BYTES,	/* u64 */
	SLICE_A_REASON,		/* u8, enum slice_reason (REVOKE events) */
	SLICE_A_PAD,
	SLICE_A_SPOOFED,	/* u64, frames the slice sent with a source
				 * MAC or IPv4 address not its own: dropped
				 */
	SLICE_A_ADDR,		/* u32 (network order), the mapped address */
	SLICE_A_KEEP,		/* nest of PORT: what the node keeps (map) */
	SLICE_A_PORT,		/* u16, a TCP and UDP port */
	SLICE_A_STATE,		/* u8, enum slice_state */
	SLICE_A_PHY,		/* string, a wireless interface's phy */
	SLICE_A_SLICE_NETNS_INO, /* u32, the slice's netns (its nsfs inode) */
	SLICE_A_PHY_NETNS_INO,	/* u32, the netns its phy is in now */
	SLICE_A_FORCE,		/* flag (REVOKE): end a RETURNING grant */
	__SLICE_A_MAX,
};

#define SLICE_A_MAX (__SLICE_A_MAX - 1)

#endif /* _UAPI_LINUX_AH_SLICE_H */
