/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A wireless interface granted in move mode (include/uapi/linux/ah_slice.h):
 * it moves with its phy, which only nl80211 moves, so the kernel keeps
 * the grant waiting (PHY_WAIT) and whoever granted moves the phy into the
 * slice; when the grant ends the kernel holds the interface down
 * (RETURNING) until the phy is back in the node, which whoever sees it
 * moves back.  ahctl slice grant and revoke, and dsrd, do both the same
 * way:
 *
 *	iw phy PHY set netns SLICE			slice_phy_grant()
 *	ip netns exec SLICE iw phy PHY set netns NODE	slice_phy_return()
 *
 * as NL80211_CMD_SET_WIPHY_NETNS sent from a socket of the namespace the
 * phy is in (nl80211 finds only the wiphys of the requester's), the phy
 * found by its interface's index there (NL80211_CMD_GET_INTERFACE), or by
 * its name (a NL80211_CMD_GET_WIPHY dump) when the grant has no interface
 * any more (the slice deleted it) or that index is not it.  On return,
 * the phy's namespace is the one the kernel says it is in now
 * (SLICE_A_PHY_NETNS_INO: the slice's, or another one the slice moved it
 * to), else, from a module before that attribute, the slice's.  The node
 * is the namespace of the slice family's socket, the caller's own.
 * Failures are printed with rtnl_err() (rtnl.h: dsrd logs them), with
 * nl80211's errno and extack message.
 */
#ifndef AH_SLICE_PHY_H
#define AH_SLICE_PHY_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include <linux/ah_slice.h>

#include "genl.h"

/* how a grant's state is waited for: a GET every POLL_MS, for WAIT_MS */
#define SLICE_PHY_POLL_MS	20
#define SLICE_PHY_WAIT_MS	3000

/* room for a phy's name (cfg80211 takes up to 64 bytes) */
#define SLICE_PHY_NAME_MAX	65

/* What GET (or an announcement) says of a grant */
struct slice_info {
	uint8_t state;			/* enum slice_state; ACTIVE if unsent */
	uint8_t mode;			/* enum slice_mode */
	uint32_t ifindex;		/* IFINDEX: in the node */
	uint32_t slice_ifindex;		/* SLICE_IFINDEX: where it is now;
					 * 0: none (the slice deleted it)
					 */
	char slice_ifname[IFNAMSIZ];	/* SLICE_IFNAME, "" for none */
	char name[SLICE_NAME_MAX];	/* the slice's label, "" for none */
	char phy[SLICE_PHY_NAME_MAX];	/* "": not a wireless move grant */
	uint32_t netns_ino;		/* 0: the slice's namespace went */
	uint32_t phy_netns_ino;		/* where the phy is; 0: not sent */
};

/* The attributes of a grant parsed into @tb (SLICE_A_MAX of them) */
void slice_info_parse(struct nlattr **tb, struct slice_info *s);

/*
 * GET the grant of @ifname (named as in the node) on @g, a socket of the
 * slice family in the node's namespace: 1 into @s, 0 if there is none,
 * -1 (printed).
 */
int slice_info_get(struct genl *g, const char *ifname, struct slice_info *s);

/*
 * Wait while the grant of @ifname is in state @from (SLICE_INFO_ANY: while
 * there is one), at most SLICE_PHY_WAIT_MS: 1 granted (@s; still @from if
 * the time ran out), 0 gone, -1 (printed).
 */
#define SLICE_INFO_ANY	0xff
int slice_info_wait(struct genl *g, const char *ifname, uint8_t from,
		    struct slice_info *s);

/* ---- nl80211 ------------------------------------------------------------- */

/* nl80211 on a socket of the namespace of @netns_fd (-1: ours); 0 or -1 */
int phy_open(struct genl *nl, int netns_fd);

/*
 * The wiphy of interface @ifindex of @nl's namespace, which must be named
 * @ifname (if not NULL): 0, or -1 with nl80211's refusal in @err (ENODEV
 * for another name), or printed (@err->error 0).
 */
int phy_lookup(struct genl *nl, uint32_t ifindex, const char *ifname,
	       uint32_t *wiphy, struct genl_err *err);

/*
 * The wiphy named @phy in @nl's namespace (a GET_WIPHY dump, split): 0,
 * or -1 as phy_lookup() (ENODEV: there is none of that name).
 */
int phy_lookup_name(struct genl *nl, const char *phy, uint32_t *wiphy,
		    struct genl_err *err);

/*
 * Move @wiphy, of @nl's namespace, to the namespace of @netns_fd: 0, or
 * -1 as phy_lookup().
 */
int phy_move(struct genl *nl, uint32_t wiphy, int netns_fd,
	     struct genl_err *err);

/*
 * A file of the network namespace whose nsfs inode is @ino: /run/netns/
 * @label if it is that one, else the first file of /run/netns, then the
 * first /proc/PID/ns/net, that is.  The file descriptor (O_CLOEXEC), or
 * -1 if there is none (not printed).
 */
int slice_netns_find(const char *label, uint32_t ino);

/* ---- the moves ----------------------------------------------------------- */

enum slice_phy_ret {
	SLICE_PHY_FAILED = -1,	/* printed; see slice_phy.revoked */
	SLICE_PHY_NONE,		/* nothing to move (not a wireless grant) */
	SLICE_PHY_MOVED,	/* grant: it is ACTIVE; return: it is gone */
	SLICE_PHY_ORPHAN,	/* return: the slice's namespace went, and
				 * cfg80211 gave the phy to the initial one
				 */
};

struct slice_phy {
	struct slice_info info;	/* what the kernel said of the grant */
	bool revoked;		/* grant failed: the grant is gone */
	bool init_netns;	/* ORPHAN: the node is the initial namespace */
};

/*
 * A GRANT of @ifname to the namespace of @slice_fd (move mode) was
 * ACKed: if the grant waits for its phy, move the phy there and wait for
 * the grant to be ACTIVE.  If that fails, the grant is revoked and the
 * phy brought back if it moved (@p->revoked: the grant is gone).
 */
enum slice_phy_ret slice_phy_grant(struct genl *g, const char *ifname,
				   int slice_fd, struct slice_phy *p);

/*
 * If the grant of @ifname is RETURNING (after a REVOKE, say), move its
 * phy back from the namespace it is in (SLICE_A_PHY_NETNS_INO, else the
 * slice's), found by its interface there or, if the grant has none, by
 * its name, and wait for the grant to go; if it is back already, wait
 * for that; if the slice's namespace went (and the phy is nowhere else
 * to be found), wait for cfg80211's move (ORPHAN).
 */
enum slice_phy_ret slice_phy_return(struct genl *g, const char *ifname,
				    struct slice_phy *p);

#endif /* AH_SLICE_PHY_H */
