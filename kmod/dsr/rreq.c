// SPDX-License-Identifier: GPL-2.0
/*
 * Route Request table (duplicate suppression) and discovery back-off.
 */
#include "rreq.h"

int dsr_rreq_init(struct dsr_rreq_table *t, unsigned int size,
		  unsigned int ids)
{
	t->node = ah_zalloc(sizeof(*t->node) * (size_t)size);
	if (!t->node)
		return -1;
	t->size = size;
	t->ids = ids > DSR_RREQ_IDS_MAX ? DSR_RREQ_IDS_MAX : ids;
	if (!t->ids)
		t->ids = 1;
	return 0;
}

void dsr_rreq_destroy(struct dsr_rreq_table *t)
{
	ah_free(t->node);
	t->node = NULL;
	t->size = 0;
}

void dsr_rreq_flush(struct dsr_rreq_table *t)
{
	memset(t->node, 0, sizeof(*t->node) * (size_t)t->size);
}

bool dsr_rreq_seen(struct dsr_rreq_table *t, __be32 initiator, u16 id,
		   __be32 target, u64 now)
{
	struct dsr_rreq_node *e = NULL, *victim = NULL;
	unsigned int i;

	for (i = 0; i < t->size; i++) {
		struct dsr_rreq_node *x = &t->node[i];

		if (x->initiator == initiator && initiator) {
			e = x;
			break;
		}
		if (!victim || !x->initiator ||
		    (victim->initiator && x->heard < victim->heard))
			victim = x;
	}
	if (e) {
		for (i = 0; i < e->n; i++)
			if (e->ids[i].id == id && e->ids[i].target == target)
				return true;
	} else {
		if (!victim)
			return false;
		e = victim;
		memset(e, 0, sizeof(*e));
		e->initiator = initiator;
	}
	e->heard = now;
	e->ids[e->next].id = id;
	e->ids[e->next].target = target;
	e->next = (u8)((e->next + 1) % t->ids);
	if (e->n < t->ids)
		e->n++;
	return false;
}

u32 dsr_rreq_backoff(u32 period, u32 max_period, unsigned int tries)
{
	u64 p = period;

	while (tries-- > 1 && p < max_period)
		p *= 2;
	return p > max_period ? max_period : (u32)p;
}
