// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/mtree.c: the soft state of layered multicast
 * trees.  Joins, refreshes, expiry, leaves, what upstream is asked for,
 * the per-child filter and the per-slave broadcast, bounds and every
 * refusal; and a chain source <- relay <- relay <- receivers run in
 * simulated time, for how fast upstream's level follows the receivers.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "mtree.h"

#define REFRESH		DSR_MT_REFRESH_MS
#define LIFE		(DSR_MT_HOLD * DSR_MT_REFRESH_MS)

/* every test frees its table even when it fails */
#define TEST(name)	TABLE_TEST(name, struct dsr_mt_table, t, dsr_mt_destroy)

#define SRC		node(1)
#define GRP		ip4(239, 1, 1, 1)

static int init(struct dsr_mt_table *t, unsigned int groups,
		unsigned int children, u8 bcast_min)
{
	struct dsr_mt_params p;

	dsr_mt_params_default(&p);
	p.max_layers = 33;
	p.bcast_min = bcast_min;
	return dsr_mt_init(t, groups, children, &p);
}

static unsigned int live_children(const struct dsr_mt_group *g, u64 now)
{
	unsigned int i, n = 0;

	for (i = 0; i < g->nchild; i++)
		n += g->child[i].expires > now;
	return n;
}

static const struct dsr_mt_child *child(const struct dsr_mt_group *g,
					__be32 addr)
{
	unsigned int i;

	for (i = 0; i < g->nchild; i++)
		if (g->child[i].addr == addr)
			return &g->child[i];
	return NULL;
}

TEST(t_init)
{
	struct dsr_mt_params p;

	dsr_mt_params_default(&p);
	CHECK(dsr_mt_params_ok(&p));
	CHECK_EQ(p.refresh_ms, 1000);
	CHECK_EQ(p.hold, 3);
	CHECK_EQ(dsr_mt_init(t, 0, 4, &p), -1);
	CHECK_EQ(dsr_mt_init(t, 4, 0, &p), -1);
	CHECK_EQ(dsr_mt_init(t, DSR_MT_MAX_GROUPS + 1, 4, &p), -1);
	CHECK_EQ(dsr_mt_init(t, 4, DSR_MT_MAX_CHILDREN + 1, &p), -1);
	p.max_layers = DSR_MT_MAX_LAYERS + 1;
	CHECK_EQ(dsr_mt_init(t, 4, 4, &p), -1);
	p.max_layers = 0;
	CHECK(!dsr_mt_params_ok(&p));
	dsr_mt_params_default(&p);
	p.hold = 0;
	CHECK(!dsr_mt_params_ok(&p));
	p.hold = 3;
	p.refresh_ms = 0;
	CHECK(!dsr_mt_params_ok(&p));
	p.refresh_ms = 1000;
	CHECK_EQ(dsr_mt_init(t, 4, 4, &p), 0);
	CHECK_EQ(t->ngroups, 0);
	CHECK(!dsr_mt_find(t, SRC, GRP));
	return true;
}

TEST(t_join_refresh)
{
	struct dsr_mt_group *g;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 5, 100), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK(g && t->ngroups == 1 && g->nchild == 1);
	CHECK_EQ(child(g, node(4))->layers, 5);
	CHECK_EQ(child(g, node(4))->slave, 1);
	CHECK_EQ(child(g, node(4))->expires, 100 + LIFE);
	/* a refresh: lower layers, another slave, later expiry */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 2, 3, 1100), DSR_MT_OK);
	CHECK_EQ(g->nchild, 1);
	CHECK_EQ(child(g, node(4))->layers, 3);
	CHECK_EQ(child(g, node(4))->slave, 2);
	CHECK_EQ(child(g, node(4))->expires, 1100 + LIFE);
	/* and higher again */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 2, 33, 1200), DSR_MT_OK);
	CHECK_EQ(child(g, node(4))->layers, 33);
	/* another source of the same group is another tree */
	CHECK_EQ(dsr_mt_join(t, node(2), GRP, node(4), 1, 1, 1200), DSR_MT_OK);
	CHECK_EQ(t->ngroups, 2);
	CHECK(dsr_mt_find(t, node(2), GRP) != g);
	CHECK_EQ(t->count[DSR_MT_OK], 4);
	return true;
}

/* a join lives hold refresh periods; refreshed, it lives on */
TEST(t_expire)
{
	struct dsr_mt_group *g;
	u8 l;
	u64 now;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 5, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 2, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	/* node 5 refreshes every period, node 4 never again */
	for (now = REFRESH; now <= 10 * REFRESH; now += REFRESH)
		CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 2, now),
			 DSR_MT_OK);
	now = 10 * REFRESH;
	CHECK_EQ(dsr_mt_want(t, g, LIFE - 1), 5);
	CHECK_EQ(dsr_mt_want(t, g, LIFE), 2);
	CHECK_EQ(live_children(g, LIFE), 1);
	CHECK_EQ(dsr_mt_expire(t, LIFE - 1), 0);
	CHECK_EQ(g->nchild, 2);
	CHECK_EQ(dsr_mt_expire(t, LIFE), 1);
	CHECK_EQ(g->nchild, 1);
	CHECK(child(g, node(5)) && !child(g, node(4)));
	/* upstream was never told: the group goes with its last child */
	CHECK_EQ(dsr_mt_expire(t, now + LIFE - 1), 0);
	CHECK_EQ(dsr_mt_expire(t, now + LIFE), 1);
	CHECK_EQ(t->ngroups, 0);
	CHECK(!dsr_mt_find(t, SRC, GRP));
	/* told: the group stays until the fall has been taken */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 2, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(dsr_mt_upstream(t, g, 0, &l), DSR_MT_UP_RISE);
	CHECK_EQ(dsr_mt_expire(t, LIFE), 1);
	CHECK(dsr_mt_find(t, SRC, GRP) == g);
	/* a fall seen between refreshes is not yet sent */
	CHECK_EQ(dsr_mt_upstream(t, g, LIFE, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 0);
	CHECK_EQ(dsr_mt_expire(t, LIFE), 0);
	CHECK(dsr_mt_find(t, SRC, GRP) == g);
	/* the refresh sends the leave */
	CHECK_EQ(dsr_mt_refresh(t, g, LIFE, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 0);
	CHECK_EQ(dsr_mt_expire(t, LIFE), 0);
	CHECK(!dsr_mt_find(t, SRC, GRP));
	return true;
}

TEST(t_leave)
{
	struct dsr_mt_group *g;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(4)), DSR_MT_NO_ENTRY);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 5, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 3, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(6), 1, 1, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(7)), DSR_MT_NO_ENTRY);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(4)), DSR_MT_OK);
	CHECK_EQ(g->nchild, 2);
	CHECK(!child(g, node(4)) && child(g, node(5)) && child(g, node(6)));
	CHECK_EQ(dsr_mt_want(t, g, 0), 3);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(4)), DSR_MT_NO_ENTRY);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(6)), DSR_MT_OK);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(5)), DSR_MT_OK);
	CHECK_EQ(g->nchild, 0);
	CHECK_EQ(dsr_mt_want(t, g, 0), 0);
	CHECK_EQ(t->count[DSR_MT_NO_ENTRY], 3);
	CHECK_EQ(dsr_mt_expire(t, 0), 0);
	CHECK_EQ(t->ngroups, 0);
	return true;
}

/* upstream is asked for the most of children and local receivers */
TEST(t_want_local)
{
	struct dsr_mt_group *g;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 0, 0), DSR_MT_NO_ENTRY);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 4, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK(g);
	CHECK_EQ(dsr_mt_want(t, g, 0), 4);
	CHECK(dsr_mt_deliver(g, 3) && !dsr_mt_deliver(g, 4));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 2, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_want(t, g, 0), 4);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 9, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_want(t, g, 0), 9);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 33, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_want(t, g, 0), 33);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 34, 0), DSR_MT_BAD_LAYERS);
	CHECK_EQ(g->local, 33);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 0, 0), DSR_MT_OK);
	CHECK(!dsr_mt_deliver(g, 0));
	CHECK_EQ(dsr_mt_want(t, g, 0), 9);
	/* local receivers never expire */
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 1, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_expire(t, 100 * LIFE), 2);
	CHECK(dsr_mt_find(t, SRC, GRP) == g);
	CHECK_EQ(dsr_mt_want(t, g, 100 * LIFE), 1);
	return true;
}

/* rises are reported once, falls once, nothing in between */
TEST(t_upstream)
{
	struct dsr_mt_group *g;
	u8 l;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 2, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(dsr_mt_upstream(t, g, 0, &l), DSR_MT_UP_RISE);
	CHECK_EQ(l, 2);
	CHECK_EQ(dsr_mt_upstream(t, g, 1, &l), DSR_MT_UP_SAME);
	CHECK_EQ(l, 2);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 7, 1), DSR_MT_OK);
	CHECK_EQ(dsr_mt_upstream(t, g, 1, &l), DSR_MT_UP_RISE);
	CHECK_EQ(l, 7);
	/* a lower child changes nothing */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(6), 1, 3, 1), DSR_MT_OK);
	CHECK_EQ(dsr_mt_upstream(t, g, 1, &l), DSR_MT_UP_SAME);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(5)), DSR_MT_OK);
	/* a fall: upstream keeps 7 until the refresh says 3 */
	CHECK_EQ(dsr_mt_upstream(t, g, 2, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 3);
	CHECK_EQ(g->asked, 7);
	CHECK_EQ(dsr_mt_upstream(t, g, 2, &l), DSR_MT_UP_FALL);
	CHECK_EQ(dsr_mt_refresh(t, g, 2, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 3);
	CHECK_EQ(g->asked, 3);
	CHECK_EQ(dsr_mt_refresh(t, g, 2, &l), DSR_MT_UP_SAME);
	CHECK_EQ(dsr_mt_upstream(t, g, 2, &l), DSR_MT_UP_SAME);
	/* a rise between refreshes, and the refresh after it */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 4, 2), DSR_MT_OK);
	CHECK_EQ(dsr_mt_upstream(t, g, 2, &l), DSR_MT_UP_RISE);
	CHECK_EQ(dsr_mt_refresh(t, g, 2, &l), DSR_MT_UP_SAME);
	CHECK_EQ(l, 4);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(5)), DSR_MT_OK);
	CHECK_EQ(dsr_mt_refresh(t, g, 2, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 3);
	/* a new route: join at once along it, whatever the level */
	CHECK(dsr_mt_set_upstream(g, node(2)));
	CHECK(!dsr_mt_set_upstream(g, node(2)));
	CHECK_EQ(dsr_mt_upstream(t, g, 2, &l), DSR_MT_UP_RISE);
	CHECK_EQ(l, 3);
	CHECK(dsr_mt_set_upstream(g, node(3)));
	CHECK_EQ(dsr_mt_upstream(t, g, 2, &l), DSR_MT_UP_RISE);
	/* everything expires: a fall to 0, upstream gets a leave */
	CHECK_EQ(dsr_mt_refresh(t, g, 2 + LIFE, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 0);
	return true;
}

/* every refusal: its own code, counted, and nothing changes */
TEST(t_refusals)
{
	const struct {
		__be32 src, grp, child;
		u8 layers;
		enum dsr_mt_res res;
	} bad[] = {
		{ node(1), 0, node(4), 1, DSR_MT_BAD_GROUP },
		{ node(1), ip4(10, 0, 0, 9), node(4), 1, DSR_MT_BAD_GROUP },
		{ node(1), ip4(224, 0, 0, 5), node(4), 1, DSR_MT_BAD_GROUP },
		{ node(1), ip4(224, 0, 0, 251), node(4), 1, DSR_MT_BAD_GROUP },
		{ node(1), ip4(240, 0, 0, 1), node(4), 1, DSR_MT_BAD_GROUP },
		{ node(1), ip4(255, 255, 255, 255), node(4), 1,
		  DSR_MT_BAD_GROUP },
		{ 0, ip4(239, 1, 1, 1), node(4), 1, DSR_MT_BAD_SOURCE },
		{ ip4(127, 0, 0, 1), ip4(239, 1, 1, 1), node(4), 1,
		  DSR_MT_BAD_SOURCE },
		{ ip4(232, 1, 1, 1), ip4(239, 1, 1, 1), node(4), 1,
		  DSR_MT_BAD_SOURCE },
		{ node(1), ip4(239, 1, 1, 1), 0, 1, DSR_MT_BAD_CHILD },
		{ node(1), ip4(239, 1, 1, 1), ip4(255, 255, 255, 255), 1,
		  DSR_MT_BAD_CHILD },
		{ node(1), ip4(239, 1, 1, 1), ip4(239, 1, 1, 1), 1,
		  DSR_MT_BAD_CHILD },
		{ node(1), ip4(239, 1, 1, 1), node(1), 1, DSR_MT_BAD_CHILD },
		{ node(1), ip4(239, 1, 1, 1), node(4), 0, DSR_MT_BAD_LAYERS },
		{ node(1), ip4(239, 1, 1, 1), node(4), 34, DSR_MT_BAD_LAYERS },
		{ node(1), ip4(239, 1, 1, 1), node(4), 255, DSR_MT_BAD_LAYERS },
		/* node 2 is the group's upstream */
		{ node(1), ip4(239, 1, 1, 1), node(2), 1, DSR_MT_LOOP },
	};
	u64 want[__DSR_MT_RES_MAX] = { 0 };
	struct dsr_mt_group *g;
	unsigned int i;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 2, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	dsr_mt_set_upstream(g, node(2));
	want[DSR_MT_OK] = 1;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		enum dsr_mt_res r = dsr_mt_join(t, bad[i].src, bad[i].grp,
						bad[i].child, 1,
						bad[i].layers, 10);

		if (r != bad[i].res)
			ktap_diag("case %u", i);
		CHECK_EQ(r, bad[i].res);
		want[r]++;
		CHECK_EQ(t->ngroups, 1);
		CHECK_EQ(g->nchild, 1);
		CHECK_EQ(child(g, node(5))->expires, LIFE);
	}
	/* leave and local check the addresses too */
	CHECK_EQ(dsr_mt_leave(t, SRC, ip4(10, 0, 0, 9), node(5)),
		 DSR_MT_BAD_GROUP);
	CHECK_EQ(dsr_mt_leave(t, 0, GRP, node(5)), DSR_MT_BAD_SOURCE);
	CHECK_EQ(dsr_mt_local(t, SRC, ip4(224, 0, 0, 1), 1, 0),
		 DSR_MT_BAD_GROUP);
	want[DSR_MT_BAD_GROUP] += 2;
	want[DSR_MT_BAD_SOURCE]++;
	CHECK_EQ(g->nchild, 1);
	CHECK_EQ(t->ngroups, 1);
	for (i = 0; i < __DSR_MT_RES_MAX; i++) {
		if (t->count[i] != want[i])
			ktap_diag("count %s", dsr_mt_res_name(i));
		CHECK_EQ(t->count[i], want[i]);
	}
	return true;
}

/* bounded groups: refused when full, a dead group's slot is taken */
TEST(t_groups_full)
{
	unsigned int i;
	u8 l;

	CHECK(!init(t, 4, 2, 2));
	for (i = 0; i < 4; i++)
		CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, (u8)i), node(4),
				     1, 1, i * 1000), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, 9), node(4), 1, 1, 2999),
		 DSR_MT_GROUPS_FULL);
	CHECK_EQ(dsr_mt_local(t, SRC, ip4(239, 0, 0, 9), 1, 2999),
		 DSR_MT_GROUPS_FULL);
	CHECK_EQ(t->count[DSR_MT_GROUPS_FULL], 2);
	CHECK(!dsr_mt_find(t, SRC, ip4(239, 0, 0, 9)));
	/* existing groups still take joins */
	CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, 3), node(5), 1, 1, 2999),
		 DSR_MT_OK);
	/* group 0 has nothing left at LIFE, even before expire() */
	CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, 9), node(4), 1, 1, LIFE),
		 DSR_MT_OK);
	CHECK(!dsr_mt_find(t, SRC, ip4(239, 0, 0, 0)));
	CHECK_EQ(t->ngroups, 4);
	CHECK_EQ(dsr_mt_find(t, SRC, ip4(239, 0, 0, 9))->nchild, 1);
	/* a group whose upstream still has to be told is not taken */
	CHECK_EQ(dsr_mt_upstream(t, dsr_mt_find(t, SRC, ip4(239, 0, 0, 1)),
				 1000, &l), DSR_MT_UP_RISE);
	CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, 10), node(4), 1, 1,
			     2000 + LIFE), DSR_MT_OK);
	CHECK(dsr_mt_find(t, SRC, ip4(239, 0, 0, 1)));
	CHECK(!dsr_mt_find(t, SRC, ip4(239, 0, 0, 2)));
	return true;
}

/* bounded children: refused when full, a dead child's slot is taken */
TEST(t_children_full)
{
	struct dsr_mt_group *g;

	CHECK(!init(t, 2, 3, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 1, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 1, 1000), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(6), 1, 1, 1000), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(7), 1, 1, 1000),
		 DSR_MT_CHILDREN_FULL);
	CHECK_EQ(t->count[DSR_MT_CHILDREN_FULL], 1);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(g->nchild, 3);
	CHECK(!child(g, node(7)));
	/* members still refresh */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(6), 1, 4, 2000), DSR_MT_OK);
	/* node 4's join ended at LIFE: node 7 takes its place */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(7), 1, 2, LIFE), DSR_MT_OK);
	CHECK_EQ(g->nchild, 3);
	CHECK(!child(g, node(4)) && child(g, node(7)));
	CHECK_EQ(child(g, node(7))->layers, 2);
	/* another group has children of its own */
	CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, 2), node(4), 1, 1, LIFE),
		 DSR_MT_OK);
	return true;
}

/* a packet of layer L goes to the children that asked for more than L */
TEST(t_fanout)
{
	struct dsr_mt_copy out[8];
	struct dsr_mt_group *g;
	unsigned int n;

	CHECK(!init(t, 2, 8, 2));
	/* each on a slave of its own: no broadcast */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 1, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 2, 3, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(6), 3, 5, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(7), 4, 33, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 1, out, 8), 4);
	n = dsr_mt_fanout(t, g, 2, 1, out, 8);
	CHECK_EQ(n, 3);
	CHECK(!out[0].bcast && !out[1].bcast && !out[2].bcast);
	CHECK(out[0].to == node(5) && out[0].slave == 2 && out[0].layers == 3);
	CHECK(out[1].to == node(6) && out[2].to == node(7));
	CHECK_EQ(dsr_mt_fanout(t, g, 3, 1, out, 8), 2);
	CHECK_EQ(dsr_mt_fanout(t, g, 4, 1, out, 8), 2);
	CHECK_EQ(dsr_mt_fanout(t, g, 5, 1, out, 8), 1);
	CHECK(out[0].to == node(7));
	CHECK_EQ(dsr_mt_fanout(t, g, 32, 1, out, 8), 1);
	CHECK_EQ(dsr_mt_fanout(t, g, 33, 1, out, 8), 0);
	CHECK_EQ(dsr_mt_fanout(t, g, 127, 1, out, 8), 0);
	/* no more than max */
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 1, out, 2), 2);
	/* an expired child gets nothing */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 2, 3, 100), DSR_MT_OK);
	CHECK_EQ(dsr_mt_fanout(t, g, 0, LIFE, out, 8), 1);
	CHECK(out[0].to == node(5));
	CHECK_EQ(dsr_mt_fanout(t, g, 0, LIFE + 100, out, 8), 0);
	return true;
}

/* K children on one slave: one broadcast at the most they asked for */
TEST(t_broadcast)
{
	struct dsr_mt_slave s[DSR_MT_SLAVES];
	struct dsr_mt_copy out[8];
	struct dsr_mt_group *g;

	CHECK(!init(t, 2, 8, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 2, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 4, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(6), 1, 3, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(7), 2, 5, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(dsr_mt_slaves(t, g, 0, s, DSR_MT_SLAVES), 2);
	CHECK(s[0].slave == 1 && s[0].children == 3 && s[0].layers == 4 &&
	      s[0].bcast);
	CHECK(s[1].slave == 2 && s[1].children == 1 && s[1].layers == 5 &&
	      !s[1].bcast);
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 0, out, 8), 2);
	CHECK(out[0].bcast && !out[0].to && out[0].slave == 1 &&
	      out[0].layers == 4);
	CHECK(!out[1].bcast && out[1].to == node(7));
	CHECK_EQ(dsr_mt_fanout(t, g, 3, 0, out, 8), 2);
	CHECK(out[0].bcast);
	CHECK_EQ(dsr_mt_fanout(t, g, 4, 0, out, 8), 1);
	CHECK(!out[0].bcast && out[0].to == node(7));
	/* K 4: three are not enough */
	t->p.bcast_min = 4;
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 0, out, 8), 4);
	/* K 0: never */
	t->p.bcast_min = 0;
	CHECK_EQ(dsr_mt_slaves(t, g, 0, s, DSR_MT_SLAVES), 2);
	CHECK(!s[0].bcast && !s[1].bcast);
	CHECK_EQ(dsr_mt_fanout(t, g, 2, 0, out, 8), 3);
	/* K 1: every slave broadcasts */
	t->p.bcast_min = 1;
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 0, out, 8), 2);
	CHECK(out[0].bcast && out[1].bcast && out[1].slave == 2);
	/* two leave: slave 1 is down to one child, unicast again */
	t->p.bcast_min = 2;
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(5)), DSR_MT_OK);
	CHECK_EQ(dsr_mt_leave(t, SRC, GRP, node(6)), DSR_MT_OK);
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 0, out, 8), 2);
	CHECK(!out[0].bcast && !out[1].bcast);
	return true;
}

/* more slaves than the summary holds: the rest go unicast */
TEST(t_many_slaves)
{
	struct dsr_mt_copy out[2 * DSR_MT_SLAVES + 4];
	struct dsr_mt_group *g;
	unsigned int i, n, bc = 0;

	CHECK(!init(t, 1, 2 * DSR_MT_SLAVES + 4, 1));
	for (i = 0; i < DSR_MT_SLAVES + 2; i++)
		CHECK_EQ(dsr_mt_join(t, SRC, GRP, node((u8)(10 + i)), i, 3, 0),
			 DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	n = dsr_mt_fanout(t, g, 0, 0, out, ARRAY_SIZE(out));
	CHECK_EQ(n, DSR_MT_SLAVES + 2);
	for (i = 0; i < n; i++)
		bc += out[i].bcast;
	CHECK_EQ(bc, DSR_MT_SLAVES);
	return true;
}

/* the biggest fan-out the benchmark asks for: 64 children */
TEST(t_fanout_64)
{
	struct dsr_mt_copy out[DSR_MT_MAX_CHILDREN];
	struct dsr_mt_group *g;
	unsigned int i;

	CHECK(!init(t, 1, DSR_MT_MAX_CHILDREN, 0));
	for (i = 0; i < 64; i++)
		CHECK_EQ(dsr_mt_join(t, SRC, GRP, ip4(10, 1, 0, (u8)(i + 1)),
				     0, (u8)(1 + i % 33), 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(dsr_mt_fanout(t, g, 0, 0, out, ARRAY_SIZE(out)), 64);
	/* children asking for more than 16 layers: i % 33 >= 16 */
	CHECK_EQ(dsr_mt_fanout(t, g, 16, 0, out, ARRAY_SIZE(out)), 17 + 15);
	for (i = 0; i < 64; i++)
		CHECK_EQ(dsr_mt_join(t, SRC, GRP, ip4(10, 2, 0, (u8)(i + 1)),
				     0, 1, 0), DSR_MT_OK);
	CHECK_EQ(g->nchild, 128);
	return true;
}

/* a new route: a child that is now upstream goes, joins from it loop */
TEST(t_reroute)
{
	struct dsr_mt_group *g;

	CHECK(!init(t, 2, 4, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 3, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(5), 1, 2, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK(dsr_mt_set_upstream(g, node(2)));
	CHECK_EQ(g->nchild, 2);
	CHECK(dsr_mt_set_upstream(g, node(4)));
	CHECK_EQ(g->nchild, 1);
	CHECK(!child(g, node(4)));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 3, 0), DSR_MT_LOOP);
	CHECK_EQ(dsr_mt_want(t, g, 0), 2);
	/* no route */
	CHECK(dsr_mt_set_upstream(g, 0));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 3, 0), DSR_MT_OK);
	return true;
}

TEST(t_flush)
{
	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 3, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_local(t, SRC, ip4(239, 0, 0, 2), 3, 0), DSR_MT_OK);
	dsr_mt_flush(t);
	CHECK_EQ(t->ngroups, 0);
	CHECK(!dsr_mt_find(t, SRC, GRP));
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 3, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_find(t, SRC, GRP)->nchild, 1);
	return true;
}

/* ---- local sockets' joins (their IGMP reports) --------------------- */

/* a socket's join asks for all layers; a level set by the user wins */
TEST(t_igmp_level)
{
	struct dsr_mt_group *g;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK(g && g->igmp && !g->level);
	CHECK_EQ(t->ngroups, 1);
	CHECK_EQ(g->local, 33);
	CHECK_EQ(dsr_mt_want(t, g, 0), 33);
	CHECK(dsr_mt_deliver(g, 32) && !dsr_mt_deliver(g, 33));
	/* the report again (robustness, a second socket): the same */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 10), DSR_MT_OK);
	CHECK_EQ(g->local, 33);
	CHECK_EQ(t->ngroups, 1);
	/* the user's level wins, lower or higher */
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 3, 20), DSR_MT_OK);
	CHECK_EQ(g->level, 3);
	CHECK_EQ(g->local, 3);
	CHECK_EQ(dsr_mt_want(t, g, 20), 3);
	CHECK(dsr_mt_deliver(g, 2) && !dsr_mt_deliver(g, 3));
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 30), DSR_MT_OK);
	CHECK_EQ(g->local, 3);
	/* the level gone: all layers again while the socket is joined */
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 0, 40), DSR_MT_OK);
	CHECK(!g->level && g->igmp);
	CHECK_EQ(g->local, 33);
	/* the socket leaves: nothing local */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 50), DSR_MT_OK);
	CHECK(!g->igmp);
	CHECK_EQ(g->local, 0);
	CHECK_EQ(dsr_mt_want(t, g, 50), 0);
	CHECK(!dsr_mt_deliver(g, 0));
	/* a leave with no socket's join: no entry, nothing changes */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 60), DSR_MT_NO_ENTRY);
	CHECK_EQ(dsr_mt_igmp(t, SRC, ip4(239, 9, 9, 9), false, 60),
		 DSR_MT_NO_ENTRY);
	CHECK(!dsr_mt_find(t, SRC, ip4(239, 9, 9, 9)));

	/* a level, then a socket's join and leave: the level stays */
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 5, 70), DSR_MT_OK);
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 70), DSR_MT_NO_ENTRY);
	CHECK_EQ(g->local, 5);
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 80), DSR_MT_OK);
	CHECK_EQ(g->local, 5);
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 90), DSR_MT_OK);
	CHECK(!g->igmp && g->level == 5);
	CHECK_EQ(g->local, 5);
	/* the level's own leave does not take a socket's join with it */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 100), DSR_MT_OK);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 0, 100), DSR_MT_OK);
	CHECK_EQ(g->local, 33);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 0, 100), DSR_MT_NO_ENTRY);
	CHECK_EQ(g->local, 33);
	/* a child wanting fewer layers does not lower it */
	CHECK_EQ(dsr_mt_join(t, SRC, GRP, node(4), 1, 2, 100), DSR_MT_OK);
	CHECK_EQ(dsr_mt_want(t, g, 100), 33);
	/* dsr_mt_igmp counts its results with join, leave and local */
	CHECK_EQ(t->count[DSR_MT_OK], 12);
	CHECK_EQ(t->count[DSR_MT_NO_ENTRY], 4);
	CHECK_EQ(t->ngroups, 1);
	return true;
}

/* all layers are max_layers of the table, whatever it is */
TEST(t_igmp_max_layers)
{
	struct dsr_mt_params p;
	struct dsr_mt_group *g;

	dsr_mt_params_default(&p);
	CHECK(!dsr_mt_init(t, 2, 2, &p));
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(g->local, DSR_MT_MAX_LAYERS);
	CHECK(dsr_mt_deliver(g, DSR_MT_MAX_LAYERS - 1));
	dsr_mt_destroy(t);
	p.max_layers = 1;
	CHECK(!dsr_mt_init(t, 2, 2, &p));
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK_EQ(g->local, 1);
	CHECK(dsr_mt_deliver(g, 0) && !dsr_mt_deliver(g, 1));
	return true;
}

/* a group of a socket's join only: kept, then freed once upstream knows */
TEST(t_igmp_expire)
{
	struct dsr_mt_group *g;
	u8 l;

	CHECK(!init(t, 4, 4, 2));
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	/* a socket's join never expires */
	CHECK_EQ(dsr_mt_expire(t, 1000 * LIFE), 0);
	CHECK(dsr_mt_find(t, SRC, GRP) == g);
	CHECK_EQ(dsr_mt_upstream(t, g, 0, &l), DSR_MT_UP_RISE);
	CHECK_EQ(l, 33);
	/* no socket left; upstream still asked for 33: the group stays */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 1000 * LIFE), DSR_MT_OK);
	CHECK_EQ(dsr_mt_expire(t, 1000 * LIFE), 0);
	CHECK(dsr_mt_find(t, SRC, GRP) == g);
	CHECK_EQ(dsr_mt_upstream(t, g, 1000 * LIFE, &l), DSR_MT_UP_FALL);
	CHECK_EQ(dsr_mt_expire(t, 1000 * LIFE), 0);
	CHECK(dsr_mt_find(t, SRC, GRP) == g);
	/* the refresh sends the leave: asked is 0, the next expire frees it */
	CHECK_EQ(dsr_mt_refresh(t, g, 1000 * LIFE, &l), DSR_MT_UP_FALL);
	CHECK_EQ(l, 0);
	CHECK_EQ(g->asked, 0);
	CHECK_EQ(dsr_mt_expire(t, 1000 * LIFE), 0);
	CHECK(!dsr_mt_find(t, SRC, GRP));
	CHECK_EQ(t->ngroups, 0);
	/* upstream never asked: freed at the first expire */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 0), DSR_MT_OK);
	g = dsr_mt_find(t, SRC, GRP);
	CHECK(g && !g->level && g->igmp);
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_expire(t, 0), 0);
	CHECK_EQ(t->ngroups, 0);
	/* a freed slot keeps nothing of it */
	CHECK(!g->igmp && !g->level && !g->local && !g->group);
	/* flushed likewise */
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, true, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_local(t, SRC, GRP, 4, 0), DSR_MT_OK);
	dsr_mt_flush(t);
	CHECK(!g->igmp && !g->level && !g->local);
	CHECK_EQ(dsr_mt_igmp(t, SRC, GRP, false, 0), DSR_MT_NO_ENTRY);
	return true;
}

/* a TO_IN record's sources are the group's only ones: the others end */
TEST(t_igmp_only)
{
	/* as in an IGMPv3 record: 10.0.0.1, 10.0.0.3, one not joined */
	static const u8 keep[] = { 10, 0, 0, 1, 10, 0, 0, 3, 10, 0, 0, 99 };
	const __be32 g2 = ip4(232, 1, 1, 2);
	u64 counts[__DSR_MT_RES_MAX];
	struct dsr_mt_group *g;
	unsigned int i;

	CHECK(!init(t, 8, 4, 2));
	for (i = 1; i <= 4; i++)
		CHECK_EQ(dsr_mt_igmp(t, node((u8)i), GRP, true, 0), DSR_MT_OK);
	/* node 4's group also has the user's level; node 5's only that */
	CHECK_EQ(dsr_mt_local(t, node(4), GRP, 6, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_local(t, node(5), GRP, 7, 0), DSR_MT_OK);
	/* another group, of the same sources */
	CHECK_EQ(dsr_mt_igmp(t, node(1), g2, true, 0), DSR_MT_OK);
	CHECK_EQ(dsr_mt_igmp(t, node(2), g2, true, 0), DSR_MT_OK);
	CHECK_EQ(t->ngroups, 7);
	memcpy(counts, t->count, sizeof(counts));

	/* nodes 2 and 4 end; 1 and 3 are kept */
	CHECK_EQ(dsr_mt_igmp_only(t, GRP, keep, 3), 2);
	CHECK(dsr_mt_find(t, node(1), GRP)->igmp);
	CHECK_EQ(dsr_mt_find(t, node(1), GRP)->local, 33);
	CHECK(dsr_mt_find(t, node(3), GRP)->igmp);
	g = dsr_mt_find(t, node(2), GRP);
	CHECK(g && !g->igmp && !g->local);
	/* node 4's level stays, node 5 had no socket's join */
	g = dsr_mt_find(t, node(4), GRP);
	CHECK(g && !g->igmp && g->level == 6 && g->local == 6);
	g = dsr_mt_find(t, node(5), GRP);
	CHECK(g && !g->igmp && g->level == 7 && g->local == 7);
	/* the other group is untouched */
	CHECK(dsr_mt_find(t, node(1), g2)->igmp);
	CHECK(dsr_mt_find(t, node(2), g2)->igmp);
	CHECK_EQ(dsr_mt_find(t, node(2), g2)->local, 33);
	/* the groups stay until expire; the source not joined made none */
	CHECK_EQ(t->ngroups, 7);
	CHECK(!dsr_mt_find(t, node(99), GRP));

	/* the same again: nothing more ends */
	CHECK_EQ(dsr_mt_igmp_only(t, GRP, keep, 3), 0);
	/* only the first source counts of a list of one */
	CHECK_EQ(dsr_mt_igmp_only(t, GRP, keep, 1), 1);
	CHECK(dsr_mt_find(t, node(1), GRP)->igmp);
	CHECK(!dsr_mt_find(t, node(3), GRP)->igmp);
	/* none listed: every socket's join of the group ends */
	CHECK_EQ(dsr_mt_igmp_only(t, GRP, NULL, 0), 1);
	CHECK(!dsr_mt_find(t, node(1), GRP)->igmp);
	CHECK_EQ(dsr_mt_find(t, node(1), GRP)->local, 0);
	/* a group with no socket's join, group 0: nothing */
	CHECK_EQ(dsr_mt_igmp_only(t, ip4(239, 9, 9, 9), NULL, 0), 0);
	CHECK_EQ(dsr_mt_igmp_only(t, 0, NULL, 0), 0);
	CHECK(dsr_mt_find(t, node(1), g2)->igmp);
	CHECK(dsr_mt_find(t, node(2), g2)->igmp);
	/* not counted with join, leave and local */
	CHECK(!memcmp(counts, t->count, sizeof(counts)));

	/* expire frees those left with nothing: nodes 1, 2, 3 of GRP */
	CHECK_EQ(dsr_mt_expire(t, 0), 0);
	CHECK_EQ(t->ngroups, 4);
	CHECK(!dsr_mt_find(t, node(1), GRP) && !dsr_mt_find(t, node(3), GRP));
	CHECK(dsr_mt_find(t, node(4), GRP) && dsr_mt_find(t, node(5), GRP));
	return true;
}

/* a socket's join of a group that is not routed, or from a bad source */
TEST(t_igmp_refused)
{
	const struct {
		__be32 src, grp;
		enum dsr_mt_res res;
	} bad[] = {
		{ SRC, ip4(10, 0, 0, 9), DSR_MT_BAD_GROUP },
		{ SRC, 0, DSR_MT_BAD_GROUP },
		{ SRC, ip4(224, 0, 0, 1), DSR_MT_BAD_GROUP },
		{ SRC, ip4(224, 0, 0, 22), DSR_MT_BAD_GROUP },
		{ SRC, ip4(224, 0, 0, 251), DSR_MT_BAD_GROUP },
		{ SRC, ip4(240, 0, 0, 1), DSR_MT_BAD_GROUP },
		{ SRC, ip4(255, 255, 255, 255), DSR_MT_BAD_GROUP },
		{ 0, GRP, DSR_MT_BAD_SOURCE },
		{ ip4(127, 0, 0, 1), GRP, DSR_MT_BAD_SOURCE },
		{ ip4(232, 1, 1, 1), GRP, DSR_MT_BAD_SOURCE },
	};
	u64 want[__DSR_MT_RES_MAX] = { 0 };
	unsigned int i, k;

	CHECK(!init(t, 2, 2, 2));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		for (k = 0; k < 2; k++) {
			enum dsr_mt_res r = dsr_mt_igmp(t, bad[i].src,
							bad[i].grp, !k, 0);

			if (r != bad[i].res)
				ktap_diag("case %u, %s", i,
					  k ? "leave" : "join");
			CHECK_EQ(r, bad[i].res);
			want[r]++;
			CHECK_EQ(t->ngroups, 0);
		}
	}
	/* 224.0.1.0 on is routed */
	CHECK_EQ(dsr_mt_igmp(t, SRC, ip4(224, 0, 1, 1), true, 0), DSR_MT_OK);
	want[DSR_MT_OK]++;
	/* the table full: refused, counted */
	CHECK_EQ(dsr_mt_igmp(t, SRC, ip4(239, 0, 0, 1), true, 0), DSR_MT_OK);
	want[DSR_MT_OK]++;
	CHECK_EQ(dsr_mt_igmp(t, SRC, ip4(239, 0, 0, 2), true, 0),
		 DSR_MT_GROUPS_FULL);
	want[DSR_MT_GROUPS_FULL]++;
	CHECK(!dsr_mt_find(t, SRC, ip4(239, 0, 0, 2)));
	/* a leave of a group never joined is no entry, full or not */
	CHECK_EQ(dsr_mt_igmp(t, SRC, ip4(239, 0, 0, 2), false, 0),
		 DSR_MT_NO_ENTRY);
	want[DSR_MT_NO_ENTRY]++;
	/* a socket's join is never an expired slot to take */
	CHECK_EQ(dsr_mt_join(t, SRC, ip4(239, 0, 0, 3), node(4), 1, 1,
			     1000 * LIFE), DSR_MT_GROUPS_FULL);
	want[DSR_MT_GROUPS_FULL]++;
	CHECK_EQ(t->ngroups, 2);
	for (i = 0; i < __DSR_MT_RES_MAX; i++) {
		if (t->count[i] != want[i])
			ktap_diag("count %s", dsr_mt_res_name(i));
		CHECK_EQ(t->count[i], want[i]);
	}
	return true;
}

/* duplicates on (source, IP id), in the DSR duplicate cache */
static bool t_dup(void)
{
	struct dsr_dup_cache c;
	struct dsr_dup_key k, x;
	u8 udp[32] = { 0x13, 0x88, 0x13, 0x88, 0, 32, 0, 0, 0x80, 0x60 };
	bool ok = true;

	if (dsr_dup_init(&c, 64, 1))
		return false;
	dsr_mt_dup_key(&k, SRC, GRP, 7, 0, 17, udp, sizeof(udp));
	ok &= k.kind == DSR_DUP_MCAST && k.saddr == SRC && k.daddr == GRP;
	ok &= !dsr_dup_seen(&c, &k, 0, 1000);
	ok &= dsr_dup_seen(&c, &k, 1, 1000);
	/* the same packet over another branch: still a duplicate */
	dsr_mt_dup_key(&x, SRC, GRP, 7, 0, 17, udp, sizeof(udp));
	ok &= dsr_dup_seen(&c, &x, 2, 1000);
	/* another IP id, another payload, another source: new */
	dsr_mt_dup_key(&x, SRC, GRP, 8, 0, 17, udp, sizeof(udp));
	ok &= !dsr_dup_seen(&c, &x, 3, 1000);
	udp[11] = 1;			/* RTP sequence number */
	dsr_mt_dup_key(&x, SRC, GRP, 7, 0, 17, udp, sizeof(udp));
	ok &= !dsr_dup_seen(&c, &x, 3, 1000);
	dsr_mt_dup_key(&x, node(2), GRP, 7, 0, 17, udp, sizeof(udp));
	ok &= !dsr_dup_seen(&c, &x, 3, 1000);
	/* past the hashed bytes the payload does not count */
	udp[DSR_DUP_PAYLOAD] = 9;
	dsr_mt_dup_key(&x, node(2), GRP, 7, 0, 17, udp, sizeof(udp));
	ok &= dsr_dup_seen(&c, &x, 4, 1000);
	/* a unicast packet of the same fields is not one of ours */
	x = k;
	x.kind = DSR_DUP_DELIVER;
	ok &= !dsr_dup_seen(&c, &x, 5, 1000);
	/* a short payload */
	dsr_mt_dup_key(&x, SRC, GRP, 9, 0, 17, udp, 3);
	ok &= !dsr_dup_seen(&c, &x, 5, 1000);
	dsr_dup_destroy(&c);
	return ok;
}

/* ---- a chain in simulated time ------------------------------------ */

/*
 * Node 0 is the source, node 1 a relay under it, node 2 a relay under
 * node 1, nodes 3 (high) and 4 (low) receivers joining node 2.  Each
 * relay sends its periodic joins at a phase of its own in the period,
 * the upper one just before the lower one: the worst case for a fall,
 * which waits a period at each hop.
 */
#define NODES		3
#define STEP		50

struct sim {
	struct dsr_mt_table t[NODES];
	u64 phase[NODES];
	u8 floor;		/* the source's level must not go below */
	bool ok;
};

static __be32 sim_addr(unsigned int i)
{
	return node((u8)(i + 1));
}

static void sim_react(struct sim *s, unsigned int i, u64 now);

static void sim_join(struct sim *s, unsigned int from, u8 layers, u64 now)
{
	unsigned int up = from - 1;

	if (dsr_mt_join(&s->t[up], SRC, GRP, sim_addr(from), 0, layers,
			now) != DSR_MT_OK)
		s->ok = false;
	sim_react(s, up, now);
}

/* after a change at node i: a rise goes upstream at once */
static void sim_react(struct sim *s, unsigned int i, u64 now)
{
	struct dsr_mt_group *g = dsr_mt_find(&s->t[i], SRC, GRP);
	u8 l;

	if (!g)
		return;
	if (i && !g->upstream)
		dsr_mt_set_upstream(g, sim_addr(i - 1));
	if (dsr_mt_upstream(&s->t[i], g, now, &l) == DSR_MT_UP_RISE && i)
		sim_join(s, i, l, now);
}

/* node i's periodic refresh: expire, then tell upstream the level */
static void sim_tick(struct sim *s, unsigned int i, u64 now)
{
	struct dsr_mt_group *g;
	enum dsr_mt_up r;
	u8 l;

	dsr_mt_expire(&s->t[i], now);
	g = dsr_mt_find(&s->t[i], SRC, GRP);
	if (!g)
		return;
	r = dsr_mt_refresh(&s->t[i], g, now, &l);
	if (i && l) {
		sim_join(s, i, l, now);
	} else if (i && r == DSR_MT_UP_FALL) {
		dsr_mt_leave(&s->t[i - 1], SRC, GRP, sim_addr(i));
		sim_react(s, i - 1, now);
	}
	/* a group left with nothing goes now, not at the next refresh */
	dsr_mt_expire(&s->t[i], now);
}

/* what the source sends down: the level node 1 asked it for */
static u8 sim_level(struct sim *s, u64 now)
{
	struct dsr_mt_group *g = dsr_mt_find(&s->t[0], SRC, GRP);

	return g ? dsr_mt_want(&s->t[0], g, now) : 0;
}

static void sim_destroy(struct sim *s)
{
	unsigned int i;

	for (i = 0; i < NODES; i++)
		dsr_mt_destroy(&s->t[i]);
}

/* a receiver joining node 2, refreshing at phase 0 in [from, until) */
struct rx {
	__be32 addr;
	u8 layers;
	u64 from, until;	/* refreshes in [from, until) */
};

#define NEVER		((u64)-1)

/*
 * Runs from *now to end; the first time the source's level was
 * want_after, or NEVER.
 */
static u64 sim_run(struct sim *s, struct rx *rx, unsigned int nrx, u64 *now,
		   u64 end, u8 want_after)
{
	u64 first = NEVER;
	unsigned int i;

	for (; *now < end; *now += STEP) {
		for (i = 0; i < nrx; i++)
			if (*now % REFRESH == 0 && *now >= rx[i].from &&
			    *now < rx[i].until) {
				if (dsr_mt_join(&s->t[2], SRC, GRP,
						rx[i].addr, 0, rx[i].layers,
						*now) != DSR_MT_OK)
					s->ok = false;
				sim_react(s, 2, *now);
			}
		for (i = 0; i < NODES; i++)
			if (*now % REFRESH == s->phase[i])
				sim_tick(s, i, *now);
		if (sim_level(s, *now) < s->floor)
			s->ok = false;
		if (first == NEVER && sim_level(s, *now) == want_after)
			first = *now;
	}
	return first;
}

static bool sim_init(struct sim *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->ok = true;
	for (i = 0; i < NODES; i++)
		if (init(&s->t[i], 4, 8, 2))
			return false;
	s->phase[0] = 0;
	s->phase[1] = 50;	/* node 1 ticks just before node 2 */
	s->phase[2] = 100;
	return true;
}

static bool t_chain_body(struct sim *s)
{
	struct rx rx[2] = {
		{ node(5), 2, 0, 1000000 },		/* low */
		{ node(4), 5, 5000, 10001 },		/* high */
	};
	struct dsr_mt_group *g;
	u64 now = 0, t;

	CHECK(sim_init(s));
	/* the low receiver: the source sees 2 at once */
	t = sim_run(s, rx, 2, &now, 5000, 2);
	CHECK(s->ok);
	CHECK_EQ(t, 0);
	/* from now on the low receiver always gets its two layers */
	s->floor = 2;
	/* the high one joins at 5000: 5 at once, up the whole chain */
	t = sim_run(s, rx, 2, &now, 10150, 5);
	CHECK(s->ok);
	CHECK_EQ(t, 5000);
	/* it leaves, just after node 2's refresh went up */
	CHECK_EQ(dsr_mt_leave(&s->t[2], SRC, GRP, node(4)), DSR_MT_OK);
	rx[1].until = 0;
	g = dsr_mt_find(&s->t[2], SRC, GRP);
	CHECK_EQ(dsr_mt_want(&s->t[2], g, now), 2);
	t = sim_run(s, rx, 2, &now, 20000, 2);
	CHECK(s->ok);
	ktap_diag("explicit leave at 10150: the source at 2 layers at %llu",
		  (unsigned long long)t);
	CHECK(t > 10150 && t <= 10150 + 2 * REFRESH);
	CHECK(t <= 10150 + DSR_MT_HOLD * REFRESH);

	/* again at 20000; then it goes silent after its refresh at 25000 */
	rx[1].from = 20000;
	rx[1].until = 25001;
	t = sim_run(s, rx, 2, &now, 20050, 5);
	CHECK_EQ(t, 20000);
	t = sim_run(s, rx, 2, &now, 40000, 2);
	CHECK(s->ok);
	ktap_diag("silent from 25000: the source at 2 layers at %llu",
		  (unsigned long long)t);
	/* node 2 holds it for its lifetime, then a period a hop */
	CHECK(t >= 25000 + LIFE && t <= 25000 + LIFE + 2 * REFRESH);

	/* everyone goes: the state goes away all up the chain */
	rx[0].until = 0;
	s->floor = 0;
	CHECK_EQ(dsr_mt_leave(&s->t[2], SRC, GRP, node(5)), DSR_MT_OK);
	sim_run(s, rx, 2, &now, 40000 + 3 * REFRESH, 0);
	CHECK(s->ok);
	CHECK_EQ(s->t[0].ngroups + s->t[1].ngroups + s->t[2].ngroups, 0);
	return true;
}

static bool t_chain(void)
{
	struct sim *s = malloc(sizeof(*s));
	bool ok;

	if (!s)
		return false;
	ok = t_chain_body(s);
	sim_destroy(s);
	free(s);
	return ok;
}

/* the source map: bounded, checked, not touched by a flush */
TEST(t_map)
{
	const struct dsr_mt_map *m;
	unsigned int i;

	CHECK_EQ(init(t, 4, 4, 2), 0);
	CHECK(!dsr_mt_map_find(t, GRP));
	CHECK_EQ(dsr_mt_map_add(t, ip4(10, 1, 1, 1), SRC), DSR_MT_MAP_BAD_GROUP);
	CHECK_EQ(dsr_mt_map_add(t, ip4(224, 0, 0, 5), SRC),
		 DSR_MT_MAP_BAD_GROUP);
	CHECK_EQ(dsr_mt_map_add(t, GRP, ip4(127, 0, 0, 1)),
		 DSR_MT_MAP_BAD_SOURCE);
	CHECK_EQ(dsr_mt_map_add(t, GRP, 0), DSR_MT_MAP_BAD_SOURCE);
	CHECK(!dsr_mt_map_find(t, GRP));
	for (i = 1; i <= DSR_MT_MAP_SOURCES; i++)
		CHECK_EQ(dsr_mt_map_add(t, GRP, node(i)), DSR_MT_MAP_OK);
	CHECK_EQ(dsr_mt_map_add(t, GRP, node(1)), DSR_MT_MAP_EXISTS);
	CHECK_EQ(dsr_mt_map_add(t, GRP, node(9)), DSR_MT_MAP_SOURCES_FULL);
	m = dsr_mt_map_find(t, GRP);
	CHECK(m && m->n == DSR_MT_MAP_SOURCES);
	CHECK(dsr_mt_map_has(t, GRP, node(3)));
	CHECK(!dsr_mt_map_has(t, GRP, node(9)));
	CHECK(!dsr_mt_map_has(t, ip4(239, 1, 1, 2), node(3)));
	/* a source out: the others stay */
	CHECK_EQ(dsr_mt_map_del(t, GRP, node(2)), DSR_MT_MAP_OK);
	CHECK_EQ(dsr_mt_map_del(t, GRP, node(2)), DSR_MT_MAP_NO_ENTRY);
	CHECK(!dsr_mt_map_has(t, GRP, node(2)));
	CHECK(dsr_mt_map_has(t, GRP, node(1)) && dsr_mt_map_has(t, GRP, node(3)) &&
	      dsr_mt_map_has(t, GRP, node(4)));
	CHECK_EQ(dsr_mt_map_find(t, GRP)->n, DSR_MT_MAP_SOURCES - 1);
	/* bounded groups */
	for (i = 1; i < DSR_MT_MAP_GROUPS; i++)
		CHECK_EQ(dsr_mt_map_add(t, ip4(239, 2, 0, i), SRC),
			 DSR_MT_MAP_OK);
	CHECK_EQ(dsr_mt_map_add(t, ip4(239, 3, 0, 1), SRC),
		 DSR_MT_MAP_GROUPS_FULL);
	CHECK(!dsr_mt_map_find(t, ip4(239, 3, 0, 1)));
	/* config: a flush of the trees keeps it */
	dsr_mt_flush(t);
	CHECK(dsr_mt_map_has(t, GRP, node(1)));
	/* the last source out frees the group's slot */
	CHECK_EQ(dsr_mt_map_del(t, ip4(239, 2, 0, 1), SRC), DSR_MT_MAP_OK);
	CHECK(!dsr_mt_map_find(t, ip4(239, 2, 0, 1)));
	CHECK_EQ(dsr_mt_map_add(t, ip4(239, 3, 0, 1), SRC), DSR_MT_MAP_OK);
	/* the whole group */
	CHECK_EQ(dsr_mt_map_del(t, GRP, 0), DSR_MT_MAP_OK);
	CHECK(!dsr_mt_map_find(t, GRP));
	CHECK_EQ(dsr_mt_map_del(t, GRP, 0), DSR_MT_MAP_NO_ENTRY);
	CHECK_EQ(dsr_mt_map_del(t, 0, 0), DSR_MT_MAP_NO_ENTRY);
	CHECK(!dsr_mt_map_find(t, 0));
	return true;
}

static bool t_names(void)
{
	unsigned int i, j;

	for (i = 0; i < __DSR_MT_RES_MAX; i++) {
		const char *a = dsr_mt_res_name(i);

		CHECK(a && *a && strcmp(a, "?"));
		for (j = 0; j < i; j++)
			CHECK(strcmp(a, dsr_mt_res_name(j)));
	}
	CHECK(!strcmp(dsr_mt_res_name(__DSR_MT_RES_MAX), "?"));
	return true;
}

static const struct ktap_case cases[] = {
	{ "init: sizes and parameters", t_init },
	{ "join adds a child, a join again refreshes it", t_join_refresh },
	{ "a join lives three refresh periods", t_expire },
	{ "leave", t_leave },
	{ "upstream wants the most of children and local", t_want_local },
	{ "upstream: rise, same, fall; a new route rises", t_upstream },
	{ "every refusal: its code, counted, nothing changes", t_refusals },
	{ "bounded groups", t_groups_full },
	{ "bounded children", t_children_full },
	{ "a layer goes to the children that asked for it", t_fanout },
	{ "K children on a slave: one broadcast", t_broadcast },
	{ "more slaves than the summary: unicast", t_many_slaves },
	{ "64 children", t_fanout_64 },
	{ "a child that becomes upstream", t_reroute },
	{ "flush", t_flush },
	{ "a socket's join: all layers; the user's level wins", t_igmp_level },
	{ "a socket's join: all layers are the table's max_layers",
	  t_igmp_max_layers },
	{ "a socket's join never expires; its leave frees the group",
	  t_igmp_expire },
	{ "a socket's sources of a group: the others end, no other group",
	  t_igmp_only },
	{ "a socket's join: refusals, counted", t_igmp_refused },
	{ "duplicates on (source, IP id) in dup.c", t_dup },
	{ "chain: rises at once, falls within three periods", t_chain },
	{ "the source map: checked, bounded, kept by a flush", t_map },
	{ "every result has a name of its own", t_names },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
