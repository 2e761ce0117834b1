// SPDX-License-Identifier: GPL-2.0
/*
 * Token buckets per key (ratelimit.h).
 */
#include "ratelimit.h"

int dsr_rl_init(struct dsr_rl *rl, unsigned int buckets, u32 rate, u32 burst,
		u32 seed)
{
	unsigned int sets = ah_pow2_sets(buckets, DSR_RL_WAYS);

	rl->b = ah_zalloc(sizeof(*rl->b) * (size_t)sets * DSR_RL_WAYS);
	if (!rl->b)
		return -1;
	rl->sets = sets;
	rl->rate = rate;
	rl->burst = burst;
	rl->seed = seed;
	return 0;
}

void dsr_rl_destroy(struct dsr_rl *rl)
{
	ah_free(rl->b);
	rl->b = NULL;
	rl->sets = 0;
}

bool dsr_rl_allow_one(struct dsr_rl_bucket *b, u32 rate, u32 burst, u64 now)
{
	u64 cap = (u64)burst * 1000, t;

	if (!b->last) {
		t = cap;
	} else {
		/* rate events a second: rate thousandths a millisecond */
		t = b->tokens + (now > b->last ? (now - b->last) * rate : 0);
		if (t > cap)
			t = cap;
	}
	b->last = now ? now : 1;
	if (t < 1000) {
		b->tokens = (u32)t;
		return false;
	}
	b->tokens = (u32)(t - 1000);
	return true;
}

static unsigned int dsr_rl_set(const struct dsr_rl *rl, const u8 *key)
{
	u32 h = rl->seed;
	unsigned int i;

	for (i = 0; i < DSR_RL_KEY; i++) {
		h ^= key[i];
		h *= 16777619u;
	}
	h ^= h >> 15;
	return h & (rl->sets - 1);
}

bool dsr_rl_allow(struct dsr_rl *rl, const void *key, size_t klen, u64 now)
{
	struct dsr_rl_bucket *set, *b = NULL, *lru;
	u8 k[DSR_RL_KEY] = { 0 };
	unsigned int i;

	if (!rl->sets)
		return true;
	memcpy(k, key, klen < DSR_RL_KEY ? klen : DSR_RL_KEY);
	set = &rl->b[(size_t)dsr_rl_set(rl, k) * DSR_RL_WAYS];
	lru = &set[0];
	for (i = 0; i < DSR_RL_WAYS; i++) {
		if (set[i].last && !memcmp(set[i].key, k, DSR_RL_KEY)) {
			b = &set[i];
			break;
		}
		if (set[i].last < lru->last)
			lru = &set[i];
	}
	if (!b) {
		b = lru;
		memcpy(b->key, k, DSR_RL_KEY);
		b->last = 0;		/* a new bucket starts full */
	}
	return dsr_rl_allow_one(b, rl->rate, rl->burst, now);
}
