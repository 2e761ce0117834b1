// SPDX-License-Identifier: GPL-2.0
/*
 * Path cache with expiry and a negative link cache; see rcache.h.
 */
#include "rcache.h"

int dsr_rc_init(struct dsr_rcache *rc, unsigned int cap, u64 timeout)
{
	memset(rc, 0, sizeof(*rc));
	rc->paths = ah_zalloc(sizeof(*rc->paths) * (size_t)cap);
	if (!rc->paths)
		return -1;
	rc->cap = cap;
	rc->timeout = timeout;
	return 0;
}

void dsr_rc_destroy(struct dsr_rcache *rc)
{
	ah_free(rc->paths);
	rc->paths = NULL;
	rc->cap = 0;
}

int dsr_rc_resize(struct dsr_rcache *rc, unsigned int cap)
{
	struct dsr_path *np = ah_zalloc(sizeof(*np) * (size_t)cap);
	unsigned int i, j, k = 0;

	if (!np)
		return -1;
	/* keep the most recently used: repeatedly take the newest left */
	while (k < cap) {
		struct dsr_path *best = NULL;

		for (i = 0; i < rc->cap; i++) {
			struct dsr_path *p = &rc->paths[i];

			if (p->len && (!best || p->used > best->used))
				best = p;
		}
		if (!best)
			break;
		np[k++] = *best;
		best->len = 0;
	}
	for (j = 0; j < rc->cap; j++)
		if (rc->paths[j].len)
			rc->evictions++;
	ah_free(rc->paths);
	rc->paths = np;
	rc->cap = cap;
	return 0;
}

static bool dsr_path_live(const struct dsr_path *p, u64 now)
{
	return p->len && ((p->flags & DSR_PATH_STATIC) || p->expires > now);
}

static bool dsr_is_prefix(const __be32 *a, unsigned int na,
			  const __be32 *b, unsigned int nb)
{
	return na <= nb && !memcmp(a, b, na * sizeof(*a));
}

static struct dsr_path *dsr_rc_slot(struct dsr_rcache *rc, u64 now)
{
	struct dsr_path *victim = NULL;
	unsigned int i;

	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];

		if (!dsr_path_live(p, now))
			return p;
		if (!(p->flags & DSR_PATH_STATIC) &&
		    (!victim || p->used < victim->used))
			victim = p;
	}
	if (victim)
		rc->evictions++;
	return victim;
}

int dsr_rc_add(struct dsr_rcache *rc, const __be32 *hop, unsigned int n,
	       u8 flags, u64 now)
{
	struct dsr_path *slot = NULL;
	unsigned int i;

	if (!n || !dsr_route_ok(hop, n, rc->self, DSR_MAX_PATH))
		return -1;
	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];

		if (!dsr_path_live(p, now))
			continue;
		if (dsr_is_prefix(hop, n, p->hop, p->len)) {
			/* known (as such or as a prefix): refresh */
			if (p->expires < now + rc->timeout)
				p->expires = now + rc->timeout;
			p->flags |= flags & DSR_PATH_STATIC;
			return 0;
		}
		if (!slot && dsr_is_prefix(p->hop, p->len, hop, n) &&
		    !(p->flags & DSR_PATH_STATIC))
			slot = p;	/* a longer path replaces its prefix */
	}
	if (!slot)
		slot = dsr_rc_slot(rc, now);
	if (!slot)
		return -1;	/* full of static paths */
	memset(slot, 0, sizeof(*slot));
	memcpy(slot->hop, hop, n * sizeof(*hop));
	slot->len = (u8)n;
	slot->flags = flags;
	slot->added = now;
	slot->used = now;
	slot->expires = now + rc->timeout;
	return 1;
}

/* index of dst on p, usable up to it, or -1 */
static int dsr_path_reach(const struct dsr_rcache *rc,
			  const struct dsr_path *p, __be32 dst, u64 now)
{
	unsigned int at, i;

	/* most paths do not hold dst: look for it before any hold-down */
	for (at = 0; at < p->len && p->hop[at] != dst; at++)
		;
	if (at == p->len)
		return -1;
	for (i = 0; i <= at; i++)
		if (dsr_neg_has(rc, i ? p->hop[i - 1] : rc->self, p->hop[i],
				now))
			return -1;
	return (int)at;
}

unsigned int dsr_rc_lookup(struct dsr_rcache *rc, __be32 dst, __be32 *out,
			   u64 now)
{
	struct dsr_path *best = NULL;
	int best_i = 0, best_ext = 0;
	unsigned int i;

	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];
		int at, ext;

		if (!dsr_path_live(p, now))
			continue;
		at = dsr_path_reach(rc, p, dst, now);
		if (at < 0)
			continue;
		/* an external last hop only counts where the path ends */
		ext = (p->flags & DSR_PATH_EXTERNAL) && at == p->len - 1;
		if (!best || ext < best_ext ||
		    (ext == best_ext && at < best_i)) {
			best = p;
			best_i = at;
			best_ext = ext;
		}
	}
	if (!best)
		return 0;
	memcpy(out, best->hop, (best_i + 1) * sizeof(*out));
	best->used = now;
	if (best->expires < now + rc->timeout)
		best->expires = now + rc->timeout;
	return best_i + 1;
}

bool dsr_rc_external(const struct dsr_rcache *rc, const __be32 *hop,
		     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < rc->cap; i++) {
		const struct dsr_path *p = &rc->paths[i];

		if (p->len == n && (p->flags & DSR_PATH_EXTERNAL) &&
		    !memcmp(p->hop, hop, n * sizeof(*hop)))
			return true;
	}
	return false;
}

unsigned int dsr_rc_del_link(struct dsr_rcache *rc, __be32 from, __be32 to)
{
	unsigned int i, j, changed = 0;

	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];
		__be32 prev = rc->self;

		for (j = 0; j < p->len; j++) {
			if ((prev == from && p->hop[j] == to) ||
			    (prev == to && p->hop[j] == from)) {
				p->len = (u8)j;	/* keep what leads up to it */
				/* the external last hop was cut off */
				p->flags &= ~DSR_PATH_EXTERNAL;
				changed++;
				break;
			}
			prev = p->hop[j];
		}
	}
	return changed;
}

unsigned int dsr_rc_del_dst(struct dsr_rcache *rc, __be32 dst)
{
	unsigned int i, n = 0;

	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];

		if (p->len && p->hop[p->len - 1] == dst) {
			p->len = 0;
			n++;
		}
	}
	return n;
}

void dsr_rc_flush(struct dsr_rcache *rc)
{
	unsigned int i;

	for (i = 0; i < rc->cap; i++)
		rc->paths[i].len = 0;
}

unsigned int dsr_rc_expire(struct dsr_rcache *rc, u64 now)
{
	unsigned int i, n = 0;

	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];

		if (p->len && !dsr_path_live(p, now)) {
			p->len = 0;
			n++;
		}
	}
	return n;
}

unsigned int dsr_rc_count(const struct dsr_rcache *rc)
{
	unsigned int i, n = 0;

	for (i = 0; i < rc->cap; i++)
		n += rc->paths[i].len != 0;
	return n;
}

void dsr_neg_add(struct dsr_rcache *rc, __be32 from, __be32 to, u64 until)
{
	struct dsr_neg_link *slot = &rc->neg[0];
	unsigned int i;

	for (i = 0; i < DSR_NEG_MAX; i++) {
		struct dsr_neg_link *l = &rc->neg[i];

		if (l->until && l->from == from && l->to == to) {
			slot = l;
			break;
		}
		if (l->until < slot->until)
			slot = l;	/* free (0) or ending first */
	}
	slot->from = from;
	slot->to = to;
	slot->until = until;
}

bool dsr_neg_has(const struct dsr_rcache *rc, __be32 from, __be32 to,
		 u64 now)
{
	unsigned int i;

	for (i = 0; i < DSR_NEG_MAX; i++) {
		const struct dsr_neg_link *l = &rc->neg[i];

		if (l->until > now &&
		    ((l->from == from && l->to == to) ||
		     (l->from == to && l->to == from)))
			return true;
	}
	return false;
}

void dsr_neg_flush(struct dsr_rcache *rc)
{
	memset(rc->neg, 0, sizeof(rc->neg));
}
