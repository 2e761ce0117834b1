// SPDX-License-Identifier: GPL-2.0
/*
 * The Blacklist of RFC 4728 section 4.6 (blacklist.h).
 */
#include "blacklist.h"

static struct dsr_bl_entry *dsr_bl_find(struct dsr_blacklist *bl,
					__be32 addr, u64 now)
{
	unsigned int i;

	if (!bl->n)
		return NULL;
	for (i = 0; i < DSR_BL_ENTRIES; i++) {
		struct dsr_bl_entry *e = &bl->e[i];

		if (!e->addr)
			continue;
		if (e->expires <= now) {
			e->addr = 0;
			bl->n--;
			continue;
		}
		if (e->addr == addr)
			return e;
	}
	return NULL;
}

void dsr_bl_add(struct dsr_blacklist *bl, __be32 addr, u64 now,
		u32 probable_ms, u32 life_ms)
{
	struct dsr_bl_entry *e = dsr_bl_find(bl, addr, now), *first;
	unsigned int i;

	if (!e) {
		first = &bl->e[0];
		for (i = 0; i < DSR_BL_ENTRIES; i++) {
			if (!bl->e[i].addr) {
				first = &bl->e[i];
				break;
			}
			if (bl->e[i].expires < first->expires)
				first = &bl->e[i];
		}
		e = first;
		if (!e->addr)
			bl->n++;
		e->addr = addr;
		e->probed = 0;
	}
	e->probable_until = now + probable_ms;
	if (life_ms < probable_ms)
		life_ms = probable_ms;
	e->expires = now + life_ms;
}

enum dsr_bl_state dsr_bl_state(struct dsr_blacklist *bl, __be32 addr,
			       u64 now)
{
	struct dsr_bl_entry *e = dsr_bl_find(bl, addr, now);

	if (!e)
		return DSR_BL_NONE;
	return now < e->probable_until ? DSR_BL_PROBABLE : DSR_BL_QUESTIONABLE;
}

bool dsr_bl_del(struct dsr_blacklist *bl, __be32 addr)
{
	unsigned int i;

	/* (every acknowledgment asks: nothing listed, nothing to scan) */
	if (!addr || !bl->n)
		return false;
	for (i = 0; i < DSR_BL_ENTRIES; i++)
		if (bl->e[i].addr == addr) {
			bl->e[i].addr = 0;
			bl->n--;
			return true;
		}
	return false;
}

bool dsr_bl_probe(struct dsr_blacklist *bl, __be32 addr, u64 now,
		  u32 interval_ms)
{
	struct dsr_bl_entry *e = dsr_bl_find(bl, addr, now);

	if (!e || (e->probed && now < e->probed + interval_ms))
		return false;
	e->probed = now ? now : 1;
	return true;
}

void dsr_bl_flush(struct dsr_blacklist *bl)
{
	unsigned int i;

	for (i = 0; i < DSR_BL_ENTRIES; i++)
		bl->e[i].addr = 0;
	bl->n = 0;
}
