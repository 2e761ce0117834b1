// SPDX-License-Identifier: GPL-2.0
/*
 * The multicast trees of layered video streams (mtree.h).
 */
#include "mtree.h"

static const char * const dsr_mt_names[__DSR_MT_RES_MAX] = {
	[DSR_MT_OK]		= "ok",
	[DSR_MT_BAD_GROUP]	= "bad_group",
	[DSR_MT_BAD_SOURCE]	= "bad_source",
	[DSR_MT_BAD_CHILD]	= "bad_child",
	[DSR_MT_BAD_LAYERS]	= "bad_layers",
	[DSR_MT_LOOP]		= "loop",
	[DSR_MT_GROUPS_FULL]	= "groups_full",
	[DSR_MT_CHILDREN_FULL]	= "children_full",
	[DSR_MT_NO_ENTRY]	= "no_entry",
};

const char *dsr_mt_res_name(enum dsr_mt_res r)
{
	return (unsigned int)r < __DSR_MT_RES_MAX ? dsr_mt_names[r] : "?";
}

bool dsr_mt_params_ok(const struct dsr_mt_params *p)
{
	return p->refresh_ms && p->hold && p->max_layers &&
	       p->max_layers <= DSR_MT_MAX_LAYERS;
}

void dsr_mt_params_default(struct dsr_mt_params *p)
{
	p->refresh_ms = DSR_MT_REFRESH_MS;
	p->hold = DSR_MT_HOLD;
	p->max_layers = DSR_MT_MAX_LAYERS;
	p->bcast_min = 2;
}

int dsr_mt_init(struct dsr_mt_table *t, unsigned int groups,
		unsigned int children, const struct dsr_mt_params *p)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	if (!groups || groups > DSR_MT_MAX_GROUPS || !children ||
	    children > DSR_MT_MAX_CHILDREN || !dsr_mt_params_ok(p))
		return -1;
	t->g = ah_zalloc(sizeof(*t->g) * (size_t)groups);
	t->c = ah_zalloc(sizeof(*t->c) * (size_t)groups * children);
	if (!t->g || !t->c) {
		dsr_mt_destroy(t);
		return -1;
	}
	t->max_groups = groups;
	t->max_children = children;
	t->p = *p;
	for (i = 0; i < groups; i++)
		t->g[i].child = &t->c[(size_t)i * children];
	return 0;
}

void dsr_mt_destroy(struct dsr_mt_table *t)
{
	ah_free(t->g);
	ah_free(t->c);
	t->g = NULL;
	t->c = NULL;
	t->max_groups = 0;
	t->max_children = 0;
	t->ngroups = 0;
}

static void dsr_mt_free_group(struct dsr_mt_table *t, struct dsr_mt_group *g)
{
	struct dsr_mt_child *c = g->child;

	memset(c, 0, sizeof(*c) * t->max_children);
	memset(g, 0, sizeof(*g));
	g->child = c;
	t->ngroups--;
}

void dsr_mt_flush(struct dsr_mt_table *t)
{
	unsigned int i;

	for (i = 0; i < t->max_groups; i++)
		if (t->g[i].group)
			dsr_mt_free_group(t, &t->g[i]);
}

static u64 dsr_mt_lifetime(const struct dsr_mt_table *t)
{
	return (u64)t->p.refresh_ms * t->p.hold;
}

static bool dsr_mt_live(const struct dsr_mt_child *c, u64 now)
{
	return c->expires > now;
}

struct dsr_mt_group *dsr_mt_find(struct dsr_mt_table *t, __be32 source,
				 __be32 group)
{
	unsigned int i, seen = 0;

	if (!group)
		return NULL;
	for (i = 0; i < t->max_groups && seen < t->ngroups; i++) {
		struct dsr_mt_group *g = &t->g[i];

		if (!g->group)
			continue;
		if (g->group == group && g->source == source)
			return g;
		seen++;
	}
	return NULL;
}

/* what a group keeps alive: a live child, local receivers, upstream */
static bool dsr_mt_needed(const struct dsr_mt_group *g, u64 now)
{
	unsigned int i;

	if (g->local || g->asked)
		return true;
	for (i = 0; i < g->nchild; i++)
		if (dsr_mt_live(&g->child[i], now))
			return true;
	return false;
}

/* the group, created if it is not there: NULL if the table is full */
static struct dsr_mt_group *dsr_mt_get(struct dsr_mt_table *t, __be32 source,
				       __be32 group, u64 now)
{
	struct dsr_mt_group *g = dsr_mt_find(t, source, group), *dead = NULL;
	unsigned int i;

	if (g)
		return g;
	for (i = 0; i < t->max_groups; i++) {
		g = &t->g[i];
		if (!g->group)
			break;
		if (!dead && !dsr_mt_needed(g, now))
			dead = g;
	}
	if (i == t->max_groups) {
		if (!dead)
			return NULL;
		/* a group with nothing left that expire() has not freed */
		dsr_mt_free_group(t, dead);
		g = dead;
	}
	g->source = source;
	g->group = group;
	t->ngroups++;
	return g;
}

/* a multicast group that may be routed, from a routable source */
static enum dsr_mt_res dsr_mt_check(__be32 source, __be32 group)
{
	const u8 *o = (const u8 *)&group;

	if (!ah_addr_multicast(group) || (o[0] == 224 && !o[1] && !o[2]))
		return DSR_MT_BAD_GROUP;
	if (!ah_addr_routable(source))
		return DSR_MT_BAD_SOURCE;
	return DSR_MT_OK;
}

static void dsr_mt_del_child(struct dsr_mt_group *g, unsigned int i)
{
	g->child[i] = g->child[--g->nchild];
	memset(&g->child[g->nchild], 0, sizeof(g->child[0]));
}

static enum dsr_mt_res dsr_mt_set_child(struct dsr_mt_table *t,
					struct dsr_mt_group *g, __be32 addr,
					u32 slave, u8 layers, u64 now)
{
	struct dsr_mt_child *c = NULL;
	unsigned int i;

	for (i = 0; i < g->nchild; i++) {
		if (g->child[i].addr == addr) {
			c = &g->child[i];
			break;
		}
		if (!c && !dsr_mt_live(&g->child[i], now))
			c = &g->child[i];	/* reused if addr is new */
	}
	if (i == g->nchild) {
		if (g->nchild < t->max_children)
			c = &g->child[g->nchild++];
		else if (!c)
			return DSR_MT_CHILDREN_FULL;
	}
	c->addr = addr;
	c->slave = slave;
	c->layers = layers;
	c->expires = now + dsr_mt_lifetime(t);
	return DSR_MT_OK;
}

static enum dsr_mt_res dsr_mt_do_join(struct dsr_mt_table *t, __be32 source,
				      __be32 group, __be32 child, u32 slave,
				      u8 layers, u64 now)
{
	enum dsr_mt_res r = dsr_mt_check(source, group);
	struct dsr_mt_group *g;

	if (r != DSR_MT_OK)
		return r;
	if (!ah_addr_routable(child) || child == source)
		return DSR_MT_BAD_CHILD;
	if (!layers || layers > t->p.max_layers)
		return DSR_MT_BAD_LAYERS;
	g = dsr_mt_find(t, source, group);
	if (g && child == g->upstream)
		return DSR_MT_LOOP;
	if (!g)
		g = dsr_mt_get(t, source, group, now);
	if (!g)
		return DSR_MT_GROUPS_FULL;
	return dsr_mt_set_child(t, g, child, slave, layers, now);
}

enum dsr_mt_res dsr_mt_join(struct dsr_mt_table *t, __be32 source,
			    __be32 group, __be32 child, u32 slave, u8 layers,
			    u64 now)
{
	enum dsr_mt_res r = dsr_mt_do_join(t, source, group, child, slave,
					   layers, now);

	t->count[r]++;
	return r;
}

static enum dsr_mt_res dsr_mt_do_leave(struct dsr_mt_table *t, __be32 source,
				       __be32 group, __be32 child)
{
	enum dsr_mt_res r = dsr_mt_check(source, group);
	struct dsr_mt_group *g;
	unsigned int i;

	if (r != DSR_MT_OK)
		return r;
	g = dsr_mt_find(t, source, group);
	if (!g)
		return DSR_MT_NO_ENTRY;
	for (i = 0; i < g->nchild; i++) {
		if (g->child[i].addr == child) {
			dsr_mt_del_child(g, i);
			return DSR_MT_OK;
		}
	}
	return DSR_MT_NO_ENTRY;
}

enum dsr_mt_res dsr_mt_leave(struct dsr_mt_table *t, __be32 source,
			     __be32 group, __be32 child)
{
	enum dsr_mt_res r = dsr_mt_do_leave(t, source, group, child);

	t->count[r]++;
	return r;
}

/* local receivers: ahctl's level, else all layers for a socket's join */
static void dsr_mt_set_local(const struct dsr_mt_table *t,
			     struct dsr_mt_group *g)
{
	g->local = g->level ? g->level : g->igmp ? t->p.max_layers : 0;
}

static enum dsr_mt_res dsr_mt_do_local(struct dsr_mt_table *t, __be32 source,
				       __be32 group, u8 layers, bool igmp,
				       bool join, u64 now)
{
	enum dsr_mt_res r = dsr_mt_check(source, group);
	struct dsr_mt_group *g;

	if (r != DSR_MT_OK)
		return r;
	if (!igmp && layers > t->p.max_layers)
		return DSR_MT_BAD_LAYERS;
	g = dsr_mt_find(t, source, group);
	if (!join) {
		if (!g || !(igmp ? g->igmp : g->level))
			return DSR_MT_NO_ENTRY;
		if (igmp)
			g->igmp = false;
		else
			g->level = 0;
		dsr_mt_set_local(t, g);
		return DSR_MT_OK;
	}
	if (!g)
		g = dsr_mt_get(t, source, group, now);
	if (!g)
		return DSR_MT_GROUPS_FULL;
	if (igmp)
		g->igmp = true;
	else
		g->level = layers;
	dsr_mt_set_local(t, g);
	return DSR_MT_OK;
}

enum dsr_mt_res dsr_mt_local(struct dsr_mt_table *t, __be32 source,
			     __be32 group, u8 layers, u64 now)
{
	enum dsr_mt_res r = dsr_mt_do_local(t, source, group, layers, false,
					    layers, now);

	t->count[r]++;
	return r;
}

enum dsr_mt_res dsr_mt_igmp(struct dsr_mt_table *t, __be32 source,
			    __be32 group, bool join, u64 now)
{
	enum dsr_mt_res r = dsr_mt_do_local(t, source, group, 0, true, join,
					    now);

	t->count[r]++;
	return r;
}

unsigned int dsr_mt_igmp_only(struct dsr_mt_table *t, __be32 group,
			      const u8 *keep, unsigned int n)
{
	unsigned int i, j, left = 0;

	for (i = 0; i < t->max_groups; i++) {
		struct dsr_mt_group *g = &t->g[i];

		if (g->group != group || !group || !g->igmp)
			continue;
		for (j = 0; j < n && ah_get_addr(keep + 4 * j) != g->source; j++)
			;
		if (j < n)
			continue;
		g->igmp = false;
		dsr_mt_set_local(t, g);
		left++;
	}
	return left;
}

static struct dsr_mt_map *dsr_mt_map_slot(struct dsr_mt_table *t, __be32 group)
{
	unsigned int i;

	for (i = 0; i < DSR_MT_MAP_GROUPS; i++)
		if (t->map[i].group == group)
			return &t->map[i];
	return NULL;
}

const struct dsr_mt_map *dsr_mt_map_find(const struct dsr_mt_table *t,
					 __be32 group)
{
	return group ? dsr_mt_map_slot((struct dsr_mt_table *)t, group) : NULL;
}

bool dsr_mt_map_has(const struct dsr_mt_table *t, __be32 group,
		    __be32 source)
{
	const struct dsr_mt_map *m = dsr_mt_map_find(t, group);
	unsigned int i;

	for (i = 0; m && i < m->n; i++)
		if (m->src[i] == source)
			return true;
	return false;
}

enum dsr_mt_map_res dsr_mt_map_add(struct dsr_mt_table *t, __be32 group,
				   __be32 source)
{
	struct dsr_mt_map *m;

	switch (dsr_mt_check(source, group)) {
	case DSR_MT_OK:
		break;
	case DSR_MT_BAD_GROUP:
		return DSR_MT_MAP_BAD_GROUP;
	default:
		return DSR_MT_MAP_BAD_SOURCE;
	}
	if (dsr_mt_map_has(t, group, source))
		return DSR_MT_MAP_EXISTS;
	m = dsr_mt_map_slot(t, group);
	if (!m) {
		m = dsr_mt_map_slot(t, 0);
		if (!m)
			return DSR_MT_MAP_GROUPS_FULL;
		m->group = group;
	}
	if (m->n >= DSR_MT_MAP_SOURCES)
		return DSR_MT_MAP_SOURCES_FULL;
	m->src[m->n++] = source;
	return DSR_MT_MAP_OK;
}

enum dsr_mt_map_res dsr_mt_map_del(struct dsr_mt_table *t, __be32 group,
				   __be32 source)
{
	struct dsr_mt_map *m = group ? dsr_mt_map_slot(t, group) : NULL;
	unsigned int i;

	if (!m)
		return DSR_MT_MAP_NO_ENTRY;
	if (source) {
		for (i = 0; i < m->n && m->src[i] != source; i++)
			;
		if (i == m->n)
			return DSR_MT_MAP_NO_ENTRY;
		m->src[i] = m->src[--m->n];
		m->src[m->n] = 0;
		if (m->n)
			return DSR_MT_MAP_OK;
	}
	memset(m, 0, sizeof(*m));
	return DSR_MT_MAP_OK;
}

unsigned int dsr_mt_expire(struct dsr_mt_table *t, u64 now)
{
	unsigned int i, j, gone = 0;

	for (i = 0; i < t->max_groups; i++) {
		struct dsr_mt_group *g = &t->g[i];

		if (!g->group)
			continue;
		for (j = 0; j < g->nchild; ) {
			if (dsr_mt_live(&g->child[j], now)) {
				j++;
				continue;
			}
			dsr_mt_del_child(g, j);
			gone++;
		}
		if (!g->nchild && !g->local && !g->asked)
			dsr_mt_free_group(t, g);
	}
	return gone;
}

u8 dsr_mt_want(const struct dsr_mt_table *t, const struct dsr_mt_group *g,
	       u64 now)
{
	u8 m = g->local;
	unsigned int i;

	for (i = 0; i < g->nchild && i < t->max_children; i++) {
		const struct dsr_mt_child *c = &g->child[i];

		if (dsr_mt_live(c, now) && c->layers > m)
			m = c->layers;
	}
	return m;
}

static enum dsr_mt_up dsr_mt_move(u8 want, u8 was)
{
	if (want > was)
		return DSR_MT_UP_RISE;
	if (want < was)
		return DSR_MT_UP_FALL;
	return DSR_MT_UP_SAME;
}

enum dsr_mt_up dsr_mt_upstream(const struct dsr_mt_table *t,
			       struct dsr_mt_group *g, u64 now, u8 *layers)
{
	u8 want = dsr_mt_want(t, g, now);
	enum dsr_mt_up r = dsr_mt_move(want, g->asked);

	*layers = want;
	/* a fall waits for the next refresh: upstream still has more */
	if (r == DSR_MT_UP_RISE)
		g->asked = want;
	return r;
}

enum dsr_mt_up dsr_mt_refresh(const struct dsr_mt_table *t,
			      struct dsr_mt_group *g, u64 now, u8 *layers)
{
	u8 want = dsr_mt_want(t, g, now);
	enum dsr_mt_up r = dsr_mt_move(want, g->asked);

	*layers = want;
	g->asked = want;
	return r;
}

bool dsr_mt_set_upstream(struct dsr_mt_group *g, __be32 upstream)
{
	unsigned int i;

	if (g->upstream == upstream)
		return false;
	g->upstream = upstream;
	/* the next dsr_mt_upstream() rises: a join along the new path */
	g->asked = 0;
	/* a child that is now our way to the source would make a loop */
	for (i = 0; upstream && i < g->nchild; i++) {
		if (g->child[i].addr == upstream) {
			dsr_mt_del_child(g, i);
			break;
		}
	}
	return true;
}

unsigned int dsr_mt_slaves(const struct dsr_mt_table *t,
			   const struct dsr_mt_group *g, u64 now,
			   struct dsr_mt_slave *out, unsigned int max)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < g->nchild; i++) {
		const struct dsr_mt_child *c = &g->child[i];

		if (!dsr_mt_live(c, now))
			continue;
		for (j = 0; j < n && out[j].slave != c->slave; j++)
			;
		if (j == n) {
			/* more slaves than max: these children go unicast */
			if (n == max)
				continue;
			out[n].slave = c->slave;
			out[n].children = 0;
			out[n].layers = 0;
			n++;
		}
		out[j].children++;
		if (c->layers > out[j].layers)
			out[j].layers = c->layers;
	}
	for (j = 0; j < n; j++)
		out[j].bcast = t->p.bcast_min &&
			       out[j].children >= t->p.bcast_min;
	return n;
}

unsigned int dsr_mt_fanout(const struct dsr_mt_table *t,
			   const struct dsr_mt_group *g, u8 layer, u64 now,
			   struct dsr_mt_copy *out, unsigned int max)
{
	struct dsr_mt_slave s[DSR_MT_SLAVES];
	unsigned int ns, i, j, n = 0;

	ns = dsr_mt_slaves(t, g, now, s, DSR_MT_SLAVES);
	for (j = 0; j < ns && n < max; j++) {
		if (!s[j].bcast || layer >= s[j].layers)
			continue;
		out[n].to = 0;
		out[n].slave = s[j].slave;
		out[n].layers = s[j].layers;
		out[n].bcast = true;
		n++;
	}
	for (i = 0; i < g->nchild && n < max; i++) {
		const struct dsr_mt_child *c = &g->child[i];

		if (!dsr_mt_live(c, now) || layer >= c->layers)
			continue;
		for (j = 0; j < ns && s[j].slave != c->slave; j++)
			;
		if (j < ns && s[j].bcast)
			continue;	/* the slave's broadcast carries it */
		out[n].to = c->addr;
		out[n].slave = c->slave;
		out[n].layers = c->layers;
		out[n].bcast = false;
		n++;
	}
	return n;
}

void dsr_mt_dup_key(struct dsr_dup_key *k, __be32 source, __be32 group,
		    __be16 id, __be16 frag_off, u8 proto, const u8 *l4,
		    size_t len)
{
	memset(k, 0, sizeof(*k));
	k->saddr = source;
	k->daddr = group;
	k->id = id;
	k->frag_off = frag_off;
	k->proto = proto;
	k->payload = dsr_dup_hash(l4, len < DSR_DUP_PAYLOAD ?
				  len : DSR_DUP_PAYLOAD);
	k->kind = DSR_DUP_MCAST;
}
