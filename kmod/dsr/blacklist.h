/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Blacklist (RFC 4728 section 4.6): neighbours whose broadcasts reach
 * us but which our unicasts do not reach.  Each entry is "probable" for a
 * while after the unreachability was last seen, then "questionable" until
 * it expires; a proof that the link works both ways removes it.  A bounded
 * table: a new entry takes the place of the one that expires first.  No
 * kernel dependencies: also built into tests/unit.  The caller serialises
 * access.
 */
#ifndef _DSR_BLACKLIST_H
#define _DSR_BLACKLIST_H

#include "ah_proto_env.h"

#define DSR_BL_ENTRIES	32

enum dsr_bl_state {
	DSR_BL_NONE,
	DSR_BL_QUESTIONABLE,
	DSR_BL_PROBABLE,
};

struct dsr_bl_entry {
	__be32 addr;			/* 0: free */
	u64 probable_until;		/* ms */
	u64 expires;			/* ms */
	u64 probed;			/* ms: our last probe of it, 0 never */
};

struct dsr_blacklist {
	struct dsr_bl_entry e[DSR_BL_ENTRIES];
	unsigned int n;			/* entries in use: 0, nothing to scan */
};

/* The unreachability of addr was seen at now: probable for probable_ms. */
void dsr_bl_add(struct dsr_blacklist *bl, __be32 addr, u64 now,
		u32 probable_ms, u32 life_ms);
/* What the Blacklist says of addr at now (expired entries leave). */
enum dsr_bl_state dsr_bl_state(struct dsr_blacklist *bl, __be32 addr,
			       u64 now);
/* The link to addr works both ways: true if addr was listed. */
bool dsr_bl_del(struct dsr_blacklist *bl, __be32 addr);
/* A questionable addr may be probed at now (at most every interval_ms). */
bool dsr_bl_probe(struct dsr_blacklist *bl, __be32 addr, u64 now,
		  u32 interval_ms);
void dsr_bl_flush(struct dsr_blacklist *bl);

#endif /* _DSR_BLACKLIST_H */
