/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multicast trees of layered video streams (issue 19, docs/mcast.md):
 * per (source, group), the soft state a node keeps of the tree that
 * receivers' joins built toward the source.
 *
 * A group has an upstream, the next hop toward its source (0: none, we
 * are the source or have no route yet), local receivers wanting its first
 * local layers (0: none), and children: neighbours that joined through
 * us, each with the number of layers it asked for (it gets layers
 * 0..layers-1), the slave it is reached on and an expiry.  A join adds a
 * child or refreshes it (with the layers it now asks for, higher or
 * lower); a join lives for hold refresh periods (3 x 1 s); a leave ends it
 * at once.
 *
 * Upstream is asked for the most any live child or local receiver wants.
 * dsr_mt_upstream(), after each change, tells the caller when that rose:
 * the caller sends a join upstream at once.  A fall waits for the
 * caller's periodic refresh (dsr_mt_refresh()), which carries the lower
 * count, or a leave at 0: each hop falls within one refresh period of the
 * hop below it, and within hold periods when a leave is lost or a child
 * goes silent.  dsr_mt_set_upstream() on a new route makes the next check
 * a rise: a join along the new path at once.
 *
 * A packet of layer L goes to each live child that asked for more than L
 * layers, or, when at least bcast_min children share a slave, once on that
 * slave as a link-layer broadcast while L is below the most they asked
 * for (dsr_mt_fanout()).  The choice is per slave, not per packet, so a
 * child gets all its layers the same way; children of a broadcast slave
 * drop, or pass on, what is above their own levels themselves.
 *
 * Duplicates are dropped by the DSR duplicate cache (dup.h), with a key
 * of kind DSR_DUP_MCAST on (source, group, IP id, fragment offset,
 * payload): dsr_mt_dup_key().
 *
 * Bounded: the table holds max_groups groups of max_children children,
 * allocated once by dsr_mt_init(); nothing a peer sends allocates.  Every
 * refusal has a code of its own, counted in the table.  No kernel
 * dependencies: also built into tests/unit.  The caller passes the time
 * and serialises access.
 */
#ifndef _DSR_MTREE_H
#define _DSR_MTREE_H

#include "ah_proto_env.h"
#include "dup.h"
#include "mcast_tag.h"

#define DSR_MT_MAX_GROUPS	4096
#define DSR_MT_MAX_CHILDREN	256
/* the most layers a join can ask for: the 7-bit tag's 128 */
#define DSR_MT_MAX_LAYERS	128
/* distinct slaves of a group's children considered for broadcast */
#define DSR_MT_SLAVES		8

struct dsr_mt_params {
	u32 refresh_ms;		/* a join's period */
	u8 hold;		/* refresh periods a join lives */
	u8 max_layers;		/* the most a join may ask for */
	u8 bcast_min;		/* children on a slave to broadcast; 0: never */
};

#define DSR_MT_REFRESH_MS	1000
#define DSR_MT_HOLD		3

enum dsr_mt_res {
	DSR_MT_OK,
	DSR_MT_BAD_GROUP,	/* not multicast, or link-local 224.0.0.0/24 */
	DSR_MT_BAD_SOURCE,	/* not a routable unicast address */
	DSR_MT_BAD_CHILD,	/* not routable, or the source itself */
	DSR_MT_BAD_LAYERS,	/* 0 or above max_layers */
	DSR_MT_LOOP,		/* the child is our upstream */
	DSR_MT_GROUPS_FULL,	/* a new group, and max_groups live ones */
	DSR_MT_CHILDREN_FULL,	/* a new child, and max_children live ones */
	DSR_MT_NO_ENTRY,	/* leave: no such group or child */
	__DSR_MT_RES_MAX,
};

struct dsr_mt_child {
	__be32 addr;
	u32 slave;		/* the caller's id of the slave it is on */
	u64 expires;		/* ms */
	u8 layers;		/* 1..max_layers */
};

struct dsr_mt_group {
	__be32 source, group;	/* group 0: a free slot */
	__be32 upstream;	/* 0: none */
	u8 local;		/* layers for local receivers; 0: none */
	u8 level;		/* local layers set by the user; 0: none */
	bool igmp;		/* a local socket joined (its IGMP report) */
	bool mapped;		/* that join came by the source map */
	u8 asked;		/* layers upstream was last asked for */
	u16 nchild;		/* child[0..nchild-1] in use */
	struct dsr_mt_child *child;	/* max_children of them */
	/* how its packets carry their layer: the caller's (0s when new) */
	struct dsr_mtag_cfg tag;
};

/*
 * The source map (ahctl dsr mcast map): the sources whose trees a local
 * socket's any-source join of a group joins.  A tree is per (source,
 * group) and grows toward its source, so an any-source join (IGMPv2, or
 * IGMPv3 EXCLUDE) has no tree to join by itself: the map names the
 * sources, as a router's SSM mapping does.  At most DSR_MT_MAP_GROUPS
 * groups of DSR_MT_MAP_SOURCES sources each.
 */
#define DSR_MT_MAP_GROUPS	16	/* ah_dsr.h: DSR_MC_MAP_GROUPS */
#define DSR_MT_MAP_SOURCES	4	/* DSR_MC_MAP_SOURCES */

struct dsr_mt_map {
	__be32 group;		/* 0: a free slot */
	u8 n;			/* src[0..n-1] */
	__be32 src[DSR_MT_MAP_SOURCES];
};

enum dsr_mt_map_res {
	DSR_MT_MAP_OK,
	DSR_MT_MAP_BAD_GROUP,
	DSR_MT_MAP_BAD_SOURCE,
	DSR_MT_MAP_EXISTS,	/* add: the group has that source */
	DSR_MT_MAP_GROUPS_FULL,	/* add: a new group, DSR_MT_MAP_GROUPS mapped */
	DSR_MT_MAP_SOURCES_FULL,	/* add: the group has DSR_MT_MAP_SOURCES */
	DSR_MT_MAP_NO_ENTRY,	/* del: no such group or source */
};

struct dsr_mt_table {
	struct dsr_mt_map map[DSR_MT_MAP_GROUPS];	/* config: not flushed */
	struct dsr_mt_group *g;
	struct dsr_mt_child *c;
	unsigned int max_groups, max_children;
	unsigned int ngroups;
	struct dsr_mt_params p;
	u64 count[__DSR_MT_RES_MAX];	/* results of join, leave, local */
};

/* a slave's share of a group's live children */
struct dsr_mt_slave {
	u32 slave;
	u16 children;
	u8 layers;		/* the most they asked for */
	bool bcast;		/* children >= bcast_min */
};

/* one copy of a packet: to a child, or a broadcast on a slave */
struct dsr_mt_copy {
	__be32 to;		/* 0 when bcast */
	u32 slave;
	u8 layers;		/* the child's, or the slave's most */
	bool bcast;
};

bool dsr_mt_params_ok(const struct dsr_mt_params *p);
void dsr_mt_params_default(struct dsr_mt_params *p);
/* 0, or -1: bad sizes or parameters, or no memory */
int dsr_mt_init(struct dsr_mt_table *t, unsigned int groups,
		unsigned int children, const struct dsr_mt_params *p);
void dsr_mt_destroy(struct dsr_mt_table *t);
void dsr_mt_flush(struct dsr_mt_table *t);
const char *dsr_mt_res_name(enum dsr_mt_res r);

/* the group, or NULL */
struct dsr_mt_group *dsr_mt_find(struct dsr_mt_table *t, __be32 source,
				 __be32 group);
/* a join from child, reached on slave, for layers, at now */
enum dsr_mt_res dsr_mt_join(struct dsr_mt_table *t, __be32 source,
			    __be32 group, __be32 child, u32 slave, u8 layers,
			    u64 now);
enum dsr_mt_res dsr_mt_leave(struct dsr_mt_table *t, __be32 source,
			     __be32 group, __be32 child);
/*
 * Local receivers.  The user sets how many layers they get
 * (dsr_mt_local(), ahctl dsr mcast join; 0: the level is gone); a local
 * socket's join (dsr_mt_igmp(), from its IGMP report) asks for all layers
 * unless the user set a level.  The group's local is the level if set,
 * else max_layers while a socket is joined, else 0.
 */
enum dsr_mt_res dsr_mt_local(struct dsr_mt_table *t, __be32 source,
			     __be32 group, u8 layers, u64 now);
/* a local socket's join (true) or leave of (source, group) */
enum dsr_mt_res dsr_mt_igmp(struct dsr_mt_table *t, __be32 source,
			    __be32 group, bool join, u64 now);
/*
 * The sockets' joins of group are those of the n sources at keep (4
 * bytes each, network order, as in an IGMP record): the others of group
 * end; how many ended.
 */
unsigned int dsr_mt_igmp_only(struct dsr_mt_table *t, __be32 group,
			      const u8 *keep, unsigned int n);
/* the source map: source joins group's sources (checked as a join's) */
enum dsr_mt_map_res dsr_mt_map_add(struct dsr_mt_table *t, __be32 group,
				   __be32 source);
/* source leaves them; source 0: the group leaves the map */
enum dsr_mt_map_res dsr_mt_map_del(struct dsr_mt_table *t, __be32 group,
				   __be32 source);
/* the group's sources, or NULL */
const struct dsr_mt_map *dsr_mt_map_find(const struct dsr_mt_table *t,
					 __be32 group);
bool dsr_mt_map_has(const struct dsr_mt_table *t, __be32 group,
		    __be32 source);

/*
 * Drops the children whose joins ended by now, and the groups left with
 * nothing (no child, no local receiver, upstream told); how many
 * children went.
 */
unsigned int dsr_mt_expire(struct dsr_mt_table *t, u64 now);

/* what to ask upstream for: the most of live children and local */
u8 dsr_mt_want(const struct dsr_mt_table *t, const struct dsr_mt_group *g,
	       u64 now);

enum dsr_mt_up {
	DSR_MT_UP_SAME,
	DSR_MT_UP_RISE,
	DSR_MT_UP_FALL,
};

/*
 * After a change (a join, a leave, local receivers, a new route):
 * dsr_mt_want() in *layers, and how it compares with what upstream was
 * last asked for.  A rise is taken as asked: the caller sends a join
 * upstream now.  A fall is not: upstream keeps the higher level until the
 * next refresh.
 */
enum dsr_mt_up dsr_mt_upstream(const struct dsr_mt_table *t,
			       struct dsr_mt_group *g, u64 now, u8 *layers);
/*
 * At the caller's periodic refresh, after dsr_mt_expire(): the level to
 * send upstream in *layers, taken as asked.  The caller sends a join for
 * *layers, or a leave when it fell to 0 (DSR_MT_UP_FALL and *layers 0);
 * the group is freed by the next dsr_mt_expire() once nothing is left.
 */
enum dsr_mt_up dsr_mt_refresh(const struct dsr_mt_table *t,
			      struct dsr_mt_group *g, u64 now, u8 *layers);
/* a new next hop toward the source; true if it changed */
bool dsr_mt_set_upstream(struct dsr_mt_group *g, __be32 upstream);

/* local receivers take a packet of this layer */
static inline bool dsr_mt_deliver(const struct dsr_mt_group *g, u8 layer)
{
	return layer < g->local;
}

/* the slaves of live children, at most max of them; how many */
unsigned int dsr_mt_slaves(const struct dsr_mt_table *t,
			   const struct dsr_mt_group *g, u64 now,
			   struct dsr_mt_slave *out, unsigned int max);
/* the copies of a packet of layer, at most max; how many */
unsigned int dsr_mt_fanout(const struct dsr_mt_table *t,
			   const struct dsr_mt_group *g, u8 layer, u64 now,
			   struct dsr_mt_copy *out, unsigned int max);

/* the duplicate cache's key of a multicast packet (l4: its payload) */
void dsr_mt_dup_key(struct dsr_dup_key *k, __be32 source, __be32 group,
		    __be16 id, __be16 frag_off, u8 proto, const u8 *l4,
		    size_t len);

#endif /* _DSR_MTREE_H */
