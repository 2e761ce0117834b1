// SPDX-License-Identifier: GPL-2.0
/*
 * Path cache with expiry and a negative link cache; see rcache.h.
 */
#include "rcache.h"

int dsr_rc_init(struct dsr_rcache *rc, unsigned int cap, u64 timeout)
{
	memset(rc, 0, sizeof(*rc));
	rc->paths = ah_zalloc(sizeof(*rc->paths) * (size_t)cap);
	rc->added = ah_zalloc(sizeof(*rc->added) * 2 * DSR_RC_MEMO);
	if (!rc->paths || !rc->added) {
		dsr_rc_destroy(rc);
		return -1;
	}
	rc->looked = rc->added + DSR_RC_MEMO;
	rc->cap = cap;
	rc->timeout = timeout;
	return 0;
}

void dsr_rc_destroy(struct dsr_rcache *rc)
{
	ah_free(rc->paths);
	ah_free(rc->added);
	rc->paths = NULL;
	rc->added = NULL;
	rc->looked = NULL;
	rc->cap = 0;
}

void dsr_rc_invalidate(struct dsr_rcache *rc)
{
	rc->gen++;
}

/* ---- the answers remembered (rcache.h) ---------------------------------- */

static unsigned int dsr_rc_hash(const __be32 *hop, unsigned int n)
{
	u32 h = 0x9e3779b9u * (n + 1);
	unsigned int i;

	for (i = 0; i < n; i++) {
		h ^= (__force u32)hop[i];
		h *= 0x85ebca6bu;
		h ^= h >> 15;
	}
	return h % DSR_RC_MEMO;
}

static bool dsr_path_live(const struct dsr_path *p, u64 now);

/* m answers for hop[0..n-1] at now: the path it names, or NULL */
static struct dsr_path *dsr_rc_memo_has(const struct dsr_rcache *rc,
					const struct dsr_rc_memo *m,
					const __be32 *hop, unsigned int n,
					u64 now)
{
	struct dsr_path *p;

	if (m->len != n || m->gen != rc->gen || m->slot >= rc->cap ||
	    memcmp(m->hop, hop, n * sizeof(*hop)))
		return NULL;
	p = &rc->paths[m->slot];
	/* unused for a timeout, it expired (the timer removes it later) */
	return dsr_path_live(p, now) ? p : NULL;
}

static void dsr_rc_memo_set(const struct dsr_rcache *rc,
			    struct dsr_rc_memo *m, const __be32 *hop,
			    unsigned int n, const struct dsr_path *p)
{
	memcpy(m->hop, hop, n * sizeof(*hop));
	m->len = (u8)n;
	m->ext = false;
	m->gen = rc->gen;
	m->slot = (unsigned int)(p - rc->paths);
}

static void dsr_path_refresh(const struct dsr_rcache *rc, struct dsr_path *p,
			     u64 now)
{
	if (p->expires < now + rc->timeout)
		p->expires = now + rc->timeout;
}

/* a negative entry that ended changes what lookups answer */
static void dsr_rc_neg_tick(struct dsr_rcache *rc, u64 now)
{
	unsigned int i;
	u64 next = 0;

	if (!rc->neg_next || now < rc->neg_next)
		return;
	rc->gen++;
	for (i = 0; i < DSR_NEG_MAX; i++) {
		u64 until = rc->neg[i].until;

		if (until > now && (!next || until < next))
			next = until;
	}
	rc->neg_next = next;
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
	rc->gen++;
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
	struct dsr_path *slot = NULL, *known;
	struct dsr_rc_memo *m = NULL;
	unsigned int i;

	if (!n || n > DSR_MAX_PATH)
		return -1;
	/* known a moment ago, and nothing changed since */
	if (!flags && rc->added) {
		m = &rc->added[dsr_rc_hash(hop, n)];
		known = dsr_rc_memo_has(rc, m, hop, n, now);
		if (known) {
			dsr_path_refresh(rc, known, now);
			rc->memo_hits++;
			return 0;
		}
	}
	if (!dsr_route_ok(hop, n, rc->self, DSR_MAX_PATH))
		return -1;
	for (i = 0; i < rc->cap; i++) {
		struct dsr_path *p = &rc->paths[i];

		if (!dsr_path_live(p, now))
			continue;
		if (dsr_is_prefix(hop, n, p->hop, p->len)) {
			/* known (as such or as a prefix): refresh */
			dsr_path_refresh(rc, p, now);
			p->flags |= flags & DSR_PATH_STATIC;
			if (m)
				dsr_rc_memo_set(rc, m, hop, n, p);
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
	rc->gen++;
	if (m)
		dsr_rc_memo_set(rc, m, hop, n, slot);
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
	struct dsr_rc_memo *m = NULL;
	unsigned int i;

	dsr_rc_neg_tick(rc, now);
	if (rc->looked) {
		m = &rc->looked[dsr_rc_hash(&dst, 1)];
		best = m->len && m->hop[m->len - 1] == dst ?
			dsr_rc_memo_has(rc, m, m->hop, m->len, now) : NULL;
		if (best) {
			memcpy(out, m->hop, m->len * sizeof(*out));
			best->used = now;
			dsr_path_refresh(rc, best, now);
			rc->memo_hits++;
			return m->len;
		}
	}
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
	dsr_path_refresh(rc, best, now);
	if (m) {
		bool ext = dsr_rc_external(rc, out, best_i + 1);

		dsr_rc_memo_set(rc, m, out, best_i + 1, best);
		m->ext = ext;
	}
	return best_i + 1;
}

bool dsr_rc_external(const struct dsr_rcache *rc, const __be32 *hop,
		     unsigned int n)
{
	const struct dsr_rc_memo *m;
	unsigned int i;

	if (!n || n > DSR_MAX_PATH)
		return false;
	/* the route a lookup just gave: what it found out then holds */
	if (rc->looked) {
		m = &rc->looked[dsr_rc_hash(&hop[n - 1], 1)];
		if (m->len == n && m->gen == rc->gen &&
		    !memcmp(m->hop, hop, n * sizeof(*hop)))
			return m->ext;
	}

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
	if (changed)
		rc->gen++;
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
	if (n)
		rc->gen++;
	return n;
}

void dsr_rc_flush(struct dsr_rcache *rc)
{
	unsigned int i;

	for (i = 0; i < rc->cap; i++)
		rc->paths[i].len = 0;
	rc->gen++;
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
	if (n)
		rc->gen++;
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
	rc->gen++;
	if (!rc->neg_next || until < rc->neg_next)
		rc->neg_next = until;
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
	rc->neg_next = 0;
	rc->gen++;
}
