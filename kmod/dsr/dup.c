// SPDX-License-Identifier: GPL-2.0
/*
 * The duplicate cache: recently delivered and forwarded packets (dup.h).
 */
#include "dup.h"

int dsr_dup_init(struct dsr_dup_cache *c, unsigned int entries, u32 seed)
{
	unsigned int sets = ah_pow2_sets(entries, DSR_DUP_WAYS);

	c->e = ah_zalloc(sizeof(*c->e) * (size_t)sets * DSR_DUP_WAYS);
	if (!c->e)
		return -1;
	c->sets = sets;
	c->seed = seed;
	return 0;
}

void dsr_dup_destroy(struct dsr_dup_cache *c)
{
	ah_free(c->e);
	c->e = NULL;
	c->sets = 0;
}

void dsr_dup_flush(struct dsr_dup_cache *c)
{
	memset(c->e, 0, sizeof(*c->e) * (size_t)c->sets * DSR_DUP_WAYS);
}

/* FNV-1a */
u32 dsr_dup_hash(const u8 *data, size_t len)
{
	u32 h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= data[i];
		h *= 16777619u;
	}
	return h;
}

static u32 dsr_dup_mix(u32 h, u32 v)
{
	h ^= v;
	h *= 0x9e3779b1u;
	return h ^ (h >> 16);
}

static unsigned int dsr_dup_set(const struct dsr_dup_cache *c,
				const struct dsr_dup_key *k)
{
	u32 h = c->seed;

	h = dsr_dup_mix(h, (u32)k->saddr);
	h = dsr_dup_mix(h, (u32)k->daddr);
	h = dsr_dup_mix(h, (u32)k->id << 16 | k->frag_off);
	h = dsr_dup_mix(h, k->payload);
	h = dsr_dup_mix(h, (u32)k->proto << 24 | (u32)k->segs << 16 |
			(u32)k->salvage << 8 | k->kind);
	return h & (c->sets - 1);
}

static bool dsr_dup_same(const struct dsr_dup_key *a,
			 const struct dsr_dup_key *b)
{
	return a->saddr == b->saddr && a->daddr == b->daddr &&
	       a->id == b->id && a->frag_off == b->frag_off &&
	       a->payload == b->payload && a->proto == b->proto &&
	       a->segs == b->segs && a->salvage == b->salvage &&
	       a->kind == b->kind;
}

bool dsr_dup_seen(struct dsr_dup_cache *c, const struct dsr_dup_key *k,
		  u64 now, u32 lifetime_ms)
{
	struct dsr_dup_entry *set, *victim;
	unsigned int i;

	if (!c->sets)
		return false;
	set = &c->e[(size_t)dsr_dup_set(c, k) * DSR_DUP_WAYS];
	victim = &set[0];
	for (i = 0; i < DSR_DUP_WAYS; i++) {
		struct dsr_dup_entry *x = &set[i];

		if (x->expires > now && dsr_dup_same(&x->key, k))
			return true;
		if (x->expires < victim->expires)
			victim = x;
	}
	victim->key = *k;
	victim->expires = now + lifetime_ms;
	/* expires 0 means free: a packet at time 0 still counts */
	if (!victim->expires)
		victim->expires = 1;
	return false;
}
