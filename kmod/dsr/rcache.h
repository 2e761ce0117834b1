/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Route cache: a path cache (RFC 4728 section 4.1) with expiry, and a
 * negative cache of links that just failed.  No kernel dependencies: also
 * built into tests/unit.  The caller serialises access.
 *
 * A path is the list of hops after this node; every prefix of a path is a
 * route too, so a lookup for D returns the shortest prefix ending at D
 * among the paths that hold D, skipping expired paths and any whose prefix
 * crosses a link in hold-down.  Memory is bounded: cap paths, allocated
 * once; when full, the path used least recently (not a static one) goes.
 */
#ifndef _DSR_RCACHE_H
#define _DSR_RCACHE_H

#include "opt.h"

#define DSR_PATH_STATIC		0x01	/* added by hand: never expires */
#define DSR_PATH_EXTERNAL	0x02	/* last hop leaves the DSR network */

struct dsr_path {
	__be32 hop[DSR_MAX_PATH];
	u8 len;			/* 0: free slot */
	u8 flags;
	u64 added;		/* ms */
	u64 expires;		/* ms, refreshed on use */
	u64 used;		/* ms, for eviction */
};

#define DSR_NEG_MAX		64

struct dsr_neg_link {
	__be32 from, to;
	u64 until;		/* ms; 0: free */
};

/*
 * What the cache answered recently, so that the packet path does not scan
 * it for the same question again: every packet a relay forwards or
 * overhears teaches it the route it carries (dsr_rc_add()), every packet
 * a source sends looks its route up, and both answers stay the same while
 * the cache does.  An answer holds while gen is what it was: any change to
 * the paths or the negative cache (a path learned, cut, deleted, evicted
 * or expired, a link put in or out of hold-down), a resize or a new
 * address changes it.  The answer names the path it came from, which is
 * refreshed as a scan would have, so the cache behaves exactly as without
 * it.  Direct-mapped, DSR_RC_MEMO entries each for adds and for lookups.
 */
#define DSR_RC_MEMO		64

struct dsr_rc_memo {
	__be32 hop[DSR_MAX_PATH];	/* added, or the route looked up */
	u8 len;			/* 0: empty */
	bool ext;		/* lookups: hop is a whole external path */
	u32 gen;
	unsigned int slot;	/* the path in paths[] */
};

struct dsr_rcache {
	struct dsr_path *paths;
	unsigned int cap;
	__be32 self;		/* our address: start of every path */
	u64 timeout;		/* ms */
	struct dsr_neg_link neg[DSR_NEG_MAX];
	u64 neg_next;		/* ms: the earliest end of a negative entry */
	u32 evictions;
	u32 gen;		/* changes with the answers: see above */
	struct dsr_rc_memo *added, *looked;	/* DSR_RC_MEMO each */
	u64 memo_hits;		/* questions answered from them */
};

int dsr_rc_init(struct dsr_rcache *rc, unsigned int cap, u64 timeout);
void dsr_rc_destroy(struct dsr_rcache *rc);
/* A cache of another size holding the most recently used paths. */
int dsr_rc_resize(struct dsr_rcache *rc, unsigned int cap);

/*
 * Add the path hop[0..n-1] from self.  Returns 1 if the cache learned
 * something (a new path, or a longer one replacing its prefix), 0 if it
 * only refreshed what it had, <0 if the path is refused (loop, self on it,
 * unroutable address, too long).
 */
int dsr_rc_add(struct dsr_rcache *rc, const __be32 *hop, unsigned int n,
	       u8 flags, u64 now);
/*
 * Shortest usable route to dst into out (hops after self, the last being
 * dst); returns the hop count, 0 if none.  Refreshes the path's expiry.
 */
unsigned int dsr_rc_lookup(struct dsr_rcache *rc, __be32 dst, __be32 *out,
			   u64 now);
/* Whether hop[0..n-1] is a whole cached path whose last hop is external. */
bool dsr_rc_external(const struct dsr_rcache *rc, const __be32 *hop,
		     unsigned int n);
/* Cut every path at the link from -> to; returns the paths changed. */
unsigned int dsr_rc_del_link(struct dsr_rcache *rc, __be32 from, __be32 to);
/* Drop every path ending at dst; returns how many. */
unsigned int dsr_rc_del_dst(struct dsr_rcache *rc, __be32 dst);
void dsr_rc_flush(struct dsr_rcache *rc);
/* The caller changed paths, cap or self itself: forget what was answered. */
void dsr_rc_invalidate(struct dsr_rcache *rc);
unsigned int dsr_rc_expire(struct dsr_rcache *rc, u64 now);
unsigned int dsr_rc_count(const struct dsr_rcache *rc);

void dsr_neg_add(struct dsr_rcache *rc, __be32 from, __be32 to, u64 until);
bool dsr_neg_has(const struct dsr_rcache *rc, __be32 from, __be32 to,
		 u64 now);
void dsr_neg_flush(struct dsr_rcache *rc);

#endif /* _DSR_RCACHE_H */
