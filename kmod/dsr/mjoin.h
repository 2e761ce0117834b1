/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The join of a layered multicast tree (issue 19, docs/mcast.md): what a
 * node sends its upstream neighbour, one hop, as the payload of a DSR
 * packet whose Next Header is DSR_MC_JOIN_PROTO (RFC 3692's experimental
 * number, include/uapi/linux/ah_dsr.h).  Every refresh period a node
 * sends one for each group with an upstream: the layers it wants of
 * (source, group), 0 for a leave, and the group's tag configuration, so
 * that every node on the tree reads the packets' layers as the receivers
 * configured them.
 *
 *	0	version (1)
 *	1	layers (0: leave)
 *	2	tag mode (enum dsr_mtag_mode)
 *	3	the group's layers (1..128)
 *	4..7	source
 *	8..11	group
 *	12..13	tag offset (byte mode), network order
 *	14	frame marking element id (RTP mode)
 *	15	temporal layers a layer id (RTP mode)
 *	16..19	reserved, sent as 0, ignored
 *
 * No kernel dependencies: also built into tests/unit.
 */
#ifndef _DSR_MJOIN_H
#define _DSR_MJOIN_H

#include "ah_proto_env.h"
#include "mcast_tag.h"

#define DSR_MJ_V1		1
#define DSR_MJ_LEN		20

struct dsr_mjoin {
	__be32 source, group;
	u8 layers;			/* 0: leave */
	struct dsr_mtag_cfg tag;
};

enum dsr_mj_res {
	DSR_MJ_OK,
	DSR_MJ_SHORT,		/* fewer than DSR_MJ_LEN bytes */
	DSR_MJ_BAD_VERSION,	/* not DSR_MJ_V1 */
	DSR_MJ_TAG,		/* the tag configuration is not valid */
	__DSR_MJ_RES_MAX,
};

/* DSR_MJ_LEN bytes at buf */
void dsr_mjoin_put(u8 *buf, const struct dsr_mjoin *j);
/* len bytes at buf: *j filled when DSR_MJ_OK */
enum dsr_mj_res dsr_mjoin_get(const u8 *buf, size_t len, struct dsr_mjoin *j);

#endif /* _DSR_MJOIN_H */
