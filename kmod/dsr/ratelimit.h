/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Token buckets, as IP rate-limits its ICMP (net/ipv4/icmp.c): one per key
 * (a neighbour's MAC, an initiator's address) in a bounded table, each
 * allowing rate events a second with bursts of burst.  A key that finds
 * no bucket takes the set's least recently used one, full.  No kernel
 * dependencies: also built into tests/unit.  The caller serialises access.
 */
#ifndef _DSR_RATELIMIT_H
#define _DSR_RATELIMIT_H

#include "ah_proto_env.h"

#define DSR_RL_KEY	8	/* bytes of a key */
#define DSR_RL_WAYS	4

struct dsr_rl_bucket {
	u8 key[DSR_RL_KEY];
	u64 last;		/* ms: last refill; 0: free */
	u32 tokens;		/* thousandths of an event */
};

struct dsr_rl {
	struct dsr_rl_bucket *b;
	unsigned int sets;	/* a power of two */
	u32 rate, burst;	/* events a second, events at once */
	u32 seed;
};

/* buckets: rounded down to a power of two sets of DSR_RL_WAYS */
int dsr_rl_init(struct dsr_rl *rl, unsigned int buckets, u32 rate, u32 burst,
		u32 seed);
void dsr_rl_destroy(struct dsr_rl *rl);
/* One event for key (klen <= DSR_RL_KEY bytes) at now: true if allowed. */
bool dsr_rl_allow(struct dsr_rl *rl, const void *key, size_t klen, u64 now);
/* The one bucket of a table with sets 0: a global limit. */
bool dsr_rl_allow_one(struct dsr_rl_bucket *b, u32 rate, u32 burst, u64 now);

#endif /* _DSR_RATELIMIT_H */
