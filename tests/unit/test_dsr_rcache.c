// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/rcache.c: the path cache and the negative link
 * cache.  This node is 10.0.0.1 (S); the others are B = 10.0.0.2 ... G.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "rcache.h"

#define S	node(1)
#define B	node(2)
#define C	node(3)
#define D	node(4)
#define E	node(5)
#define F	node(6)
#define G	node(7)

#define LONG	1000000ULL	/* a timeout nothing here outlives */

/* hops as an array and its length */
#define R(...)	(const __be32[]){ __VA_ARGS__ },			\
		(unsigned int)(sizeof((const __be32[]){ __VA_ARGS__ }) /	\
			       sizeof(__be32))

static bool rc_new(struct dsr_rcache *rc, unsigned int cap, u64 timeout)
{
	if (dsr_rc_init(rc, cap, timeout))
		return false;
	rc->self = S;
	return true;
}

static const char *addr_str(__be32 a, char *buf)
{
	const u8 *o = (const u8 *)&a;

	sprintf(buf, "%u.%u.%u.%u", o[0], o[1], o[2], o[3]);
	return buf;
}

static void route_diag(const char *what, const __be32 *r, unsigned int n)
{
	char line[DSR_MAX_PATH * 16 + 1] = "";
	char a[16];
	size_t o = 0;
	unsigned int i;

	for (i = 0; i < n && i < DSR_MAX_PATH; i++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %s",
				      addr_str(r[i], a));
	ktap_diag("%s: %u hops:%s", what, n, line);
}

/* dsr_rc_lookup(dst) at now gives exactly want[0..n-1] (n = 0: none). */
static bool route_is(struct dsr_rcache *rc, __be32 dst, u64 now,
		     const __be32 *want, unsigned int n)
{
	__be32 out[DSR_MAX_PATH + 1];
	unsigned int got;
	char a[16];

	memset(out, 0xee, sizeof(out));
	got = dsr_rc_lookup(rc, dst, out, now);
	if (got == n && (!n || !memcmp(out, want, n * sizeof(*out)))) {
		/* nothing written past the route */
		if (out[n] != 0xeeeeeeee) {
			ktap_diag("lookup wrote past the route");
			return false;
		}
		return true;
	}
	ktap_diag("lookup %s at %llu:", addr_str(dst, a),
		  (unsigned long long)now);
	route_diag("  got", out, got);
	route_diag("  expected", want, n);
	return false;
}

#define CHECK_ROUTE(rc, dst, now, ...)					\
	CHECK(route_is(rc, dst, now, R(__VA_ARGS__)))
#define CHECK_NO_ROUTE(rc, dst, now)					\
	CHECK(route_is(rc, dst, now, NULL, 0))

#define ADD(rc, flags, now, ...)					\
	dsr_rc_add(rc, R(__VA_ARGS__), flags, now)

/* every test frees its cache even when it fails */
#define TEST(name)	TABLE_TEST(name, struct dsr_rcache, rc, dsr_rc_destroy)

TEST(t_add_lookup)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(dsr_rc_count(rc), 0);
	CHECK_NO_ROUTE(rc, B, 0);
	CHECK_EQ(ADD(rc, 0, 0, B, C, D), 1);
	CHECK_EQ(dsr_rc_count(rc), 1);
	/* every prefix is a route */
	CHECK_ROUTE(rc, D, 1, B, C, D);
	CHECK_ROUTE(rc, C, 1, B, C);
	CHECK_ROUTE(rc, B, 1, B);
	CHECK_NO_ROUTE(rc, E, 1);
	CHECK_NO_ROUTE(rc, S, 1);
	/* the shortest prefix among the paths holding dst */
	CHECK_EQ(ADD(rc, 0, 2, E, D), 1);
	CHECK_ROUTE(rc, D, 3, E, D);
	CHECK_ROUTE(rc, C, 3, B, C);
	CHECK_EQ(ADD(rc, 0, 4, F, G, E, C), 1);
	CHECK_ROUTE(rc, C, 5, B, C);
	CHECK_ROUTE(rc, E, 5, E);
	CHECK_ROUTE(rc, G, 5, F, G);
	CHECK_EQ(dsr_rc_count(rc), 3);
	return true;
}

TEST(t_add_codes)
{
	__be32 a[DSR_MAX_PATH + 1];
	unsigned int i;

	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, C), 1);		/* new */
	CHECK_EQ(ADD(rc, 0, 1, B, C), 0);		/* as such */
	CHECK_EQ(ADD(rc, 0, 2, B), 0);		/* as a prefix */
	CHECK_EQ(dsr_rc_count(rc), 1);
	/* a longer path replaces its prefix */
	CHECK_EQ(ADD(rc, 0, 3, B, C, D), 1);
	CHECK_EQ(dsr_rc_count(rc), 1);
	CHECK_ROUTE(rc, C, 4, B, C);
	CHECK_ROUTE(rc, D, 4, B, C, D);
	/* a branch is a path of its own */
	CHECK_EQ(ADD(rc, 0, 5, B, C, E), 1);
	CHECK_EQ(dsr_rc_count(rc), 2);
	CHECK_EQ(ADD(rc, 0, 6, B, C, E), 0);

	/* refused */
	CHECK(dsr_rc_add(rc, a, 0, 0, 7) < 0);		/* empty */
	CHECK(ADD(rc, 0, 7, B, C, B) < 0);		/* loop */
	CHECK(ADD(rc, 0, 7, F, F) < 0);
	CHECK(ADD(rc, 0, 7, B, S, C) < 0);		/* self on it */
	CHECK(ADD(rc, 0, 7, S) < 0);
	CHECK(ADD(rc, 0, 7, B, ip4(0, 0, 0, 0)) < 0);
	CHECK(ADD(rc, 0, 7, ip4(127, 0, 0, 1)) < 0);
	CHECK(ADD(rc, 0, 7, B, ip4(224, 0, 0, 5)) < 0);
	CHECK(ADD(rc, 0, 7, ip4(255, 255, 255, 255)) < 0);
	for (i = 0; i <= DSR_MAX_PATH; i++)
		a[i] = ip4(10, 9, 0, (u8)(i + 1));
	CHECK(dsr_rc_add(rc, a, DSR_MAX_PATH + 1, 0, 7) < 0);
	CHECK_EQ(dsr_rc_count(rc), 2);
	CHECK_EQ(dsr_rc_add(rc, a, DSR_MAX_PATH, 0, 7), 1);
	CHECK(route_is(rc, a[DSR_MAX_PATH - 1], 8, a, DSR_MAX_PATH));
	return true;
}

TEST(t_expiry)
{
	CHECK(rc_new(rc, 8, 1000));
	CHECK_EQ(ADD(rc, 0, 0, B, C), 1);
	CHECK_EQ(ADD(rc, 0, 0, D), 1);
	CHECK_EQ(ADD(rc, 0, 0, E), 1);
	/* live until the timeout, then gone */
	CHECK_ROUTE(rc, D, 0, D);	/* refreshes to 1000 only */
	CHECK_ROUTE(rc, C, 999, B, C);	/* refreshes to 1999 */
	CHECK_NO_ROUTE(rc, D, 1000);
	/* a lookup refreshes: the prefix as well as the whole path */
	CHECK_ROUTE(rc, B, 1998, B);	/* to 2998 */
	CHECK_ROUTE(rc, C, 2997, B, C);	/* to 3997 */
	CHECK_NO_ROUTE(rc, C, 3997);
	CHECK_NO_ROUTE(rc, B, 3997);
	/* an expired path is learned anew */
	CHECK_EQ(ADD(rc, 0, 4000, B, C), 1);
	CHECK_ROUTE(rc, C, 4999, B, C);
	CHECK_EQ(dsr_rc_count(rc), 3);	/* D and E expired, not removed */
	CHECK_EQ(dsr_rc_expire(rc, 5000), 2);
	CHECK_EQ(dsr_rc_count(rc), 1);
	CHECK_EQ(dsr_rc_expire(rc, 5000), 0);
	return true;
}

TEST(t_refresh_by_add)
{
	CHECK(rc_new(rc, 8, 1000));
	CHECK_EQ(ADD(rc, 0, 0, B, C), 1);
	CHECK_EQ(ADD(rc, 0, 600, B, C), 0);	/* to 1600 */
	CHECK_ROUTE(rc, C, 1500, B, C);	/* to 2500 */
	CHECK_EQ(ADD(rc, 0, 2000, B), 0);	/* a prefix: to 3000 */
	CHECK_ROUTE(rc, C, 2999, B, C);
	/* a refresh never brings expiry closer */
	CHECK_EQ(ADD(rc, 0, 10, B, C), 0);
	CHECK_ROUTE(rc, C, 3998, B, C);	/* to 4998 */
	CHECK_NO_ROUTE(rc, C, 4998);
	return true;
}

TEST(t_static)
{
	CHECK(rc_new(rc, 8, 1000));
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 0, B, C), 1);
	CHECK_ROUTE(rc, C, 1000000000000ULL, B, C);
	CHECK_EQ(dsr_rc_expire(rc, ~0ULL), 0);
	CHECK_ROUTE(rc, C, ~0ULL, B, C);
	/* a learned path made static by a static add of it */
	CHECK_EQ(ADD(rc, 0, 0, D), 1);
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 10, D), 0);
	CHECK_ROUTE(rc, D, 1000000000ULL, D);
	/* a static path is not replaced by its extension */
	CHECK_EQ(ADD(rc, 0, 20, B, C, E), 1);
	CHECK_EQ(dsr_rc_count(rc), 3);
	CHECK_ROUTE(rc, E, 30, B, C, E);
	CHECK_NO_ROUTE(rc, E, 5000);
	CHECK_ROUTE(rc, C, 5000, B, C);
	CHECK_EQ(dsr_rc_expire(rc, 5000), 1);
	dsr_rc_flush(rc);	/* flush takes static paths too */
	CHECK_EQ(dsr_rc_count(rc), 0);
	CHECK_NO_ROUTE(rc, C, 5000);
	return true;
}

TEST(t_evict_lru)
{
	CHECK(rc_new(rc, 3, LONG));
	CHECK_EQ(ADD(rc, 0, 1, B), 1);
	CHECK_EQ(ADD(rc, 0, 2, C), 1);
	CHECK_EQ(ADD(rc, 0, 3, D), 1);
	CHECK_ROUTE(rc, B, 4, B);
	CHECK_EQ(rc->evictions, 0);
	/* full: C, used least recently, goes */
	CHECK_EQ(ADD(rc, 0, 5, E), 1);
	CHECK_EQ(rc->evictions, 1);
	CHECK_EQ(dsr_rc_count(rc), 3);
	CHECK_NO_ROUTE(rc, C, 6);
	CHECK_ROUTE(rc, B, 7, B);
	CHECK_ROUTE(rc, D, 8, D);
	CHECK_ROUTE(rc, E, 9, E);
	/* now B */
	CHECK_EQ(ADD(rc, 0, 10, F), 1);
	CHECK_EQ(rc->evictions, 2);
	CHECK_NO_ROUTE(rc, B, 11);
	CHECK_ROUTE(rc, D, 11, D);
	CHECK_ROUTE(rc, E, 11, E);
	CHECK_ROUTE(rc, F, 11, F);
	return true;
}

TEST(t_expired_before_lru)
{
	CHECK(rc_new(rc, 2, 100));
	CHECK_EQ(ADD(rc, 0, 0, B), 1);
	CHECK_EQ(ADD(rc, 0, 50, C), 1);
	/* at 120 B has expired: its slot is taken, nothing evicted */
	CHECK_EQ(ADD(rc, 0, 120, D), 1);
	CHECK_EQ(rc->evictions, 0);
	CHECK_ROUTE(rc, C, 121, C);
	CHECK_ROUTE(rc, D, 121, D);
	CHECK_NO_ROUTE(rc, B, 121);
	return true;
}

TEST(t_evict_never_static)
{
	CHECK(rc_new(rc, 2, LONG));
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 1, B), 1);
	CHECK_EQ(ADD(rc, 0, 2, C), 1);
	/* B is older but static: C goes */
	CHECK_EQ(ADD(rc, 0, 3, D), 1);
	CHECK_NO_ROUTE(rc, C, 4);
	CHECK_ROUTE(rc, B, 4, B);
	CHECK_ROUTE(rc, D, 4, D);
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 5, E), 1);	/* evicts D */
	CHECK_NO_ROUTE(rc, D, 6);
	/* full of static paths: refused, nothing lost */
	CHECK(ADD(rc, 0, 7, F) < 0);
	CHECK(ADD(rc, DSR_PATH_STATIC, 7, F) < 0);
	CHECK_EQ(dsr_rc_count(rc), 2);
	CHECK_ROUTE(rc, B, 8, B);
	CHECK_ROUTE(rc, E, 8, E);
	/* still refreshes what it has */
	CHECK_EQ(ADD(rc, 0, 9, E), 0);
	return true;
}

TEST(t_del_link)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, C, D), 1);
	CHECK_EQ(ADD(rc, 0, 0, E, C, B, F), 1);
	CHECK_EQ(ADD(rc, 0, 0, G), 1);
	CHECK_EQ(dsr_rc_del_link(rc, F, G), 0);
	/* B -> C on the first, C -> B on the second */
	CHECK_EQ(dsr_rc_del_link(rc, B, C), 2);
	CHECK_EQ(dsr_rc_count(rc), 3);
	CHECK_ROUTE(rc, B, 1, B);		/* the prefix stays */
	CHECK_ROUTE(rc, C, 1, E, C);
	CHECK_NO_ROUTE(rc, D, 1);
	CHECK_NO_ROUTE(rc, F, 1);
	CHECK_ROUTE(rc, G, 1, G);
	CHECK_EQ(dsr_rc_del_link(rc, B, C), 0);
	/* a link from this node empties the path */
	CHECK_EQ(dsr_rc_del_link(rc, S, B), 1);
	CHECK_EQ(dsr_rc_count(rc), 2);
	CHECK_NO_ROUTE(rc, B, 2);
	CHECK_EQ(dsr_rc_del_link(rc, G, S), 1);
	CHECK_EQ(dsr_rc_count(rc), 1);
	CHECK_ROUTE(rc, C, 3, E, C);
	return true;
}

/* The External flag is about the last hop: a cut path has lost it. */
TEST(t_del_link_external)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, DSR_PATH_EXTERNAL, 0, B, C, D), 1);
	CHECK_EQ(ADD(rc, 0, 0, E, F, C), 1);
	CHECK_ROUTE(rc, C, 1, B, C);
	CHECK_EQ(dsr_rc_del_link(rc, C, D), 1);
	CHECK_ROUTE(rc, C, 2, B, C);
	CHECK_NO_ROUTE(rc, D, 2);
	return true;
}

TEST(t_del_dst)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, D), 1);
	CHECK_EQ(ADD(rc, 0, 0, C, D), 1);
	CHECK_EQ(ADD(rc, 0, 0, B, C, E), 1);
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 0, F, D), 1);
	CHECK_EQ(dsr_rc_del_dst(rc, G), 0);
	CHECK_EQ(dsr_rc_del_dst(rc, D), 3);
	CHECK_EQ(dsr_rc_count(rc), 1);
	CHECK_NO_ROUTE(rc, D, 1);
	CHECK_ROUTE(rc, E, 1, B, C, E);
	CHECK_ROUTE(rc, B, 1, B);
	CHECK_EQ(dsr_rc_del_dst(rc, D), 0);
	/* a path that only passes through dst is kept */
	CHECK_EQ(ADD(rc, 0, 2, G, D, F), 1);
	CHECK_EQ(dsr_rc_del_dst(rc, D), 0);
	CHECK_ROUTE(rc, F, 3, G, D, F);
	return true;
}

TEST(t_neg_blocks)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, C, D), 1);
	dsr_neg_add(rc, B, C, 500);
	CHECK(dsr_neg_has(rc, B, C, 100));
	CHECK(dsr_neg_has(rc, C, B, 100));	/* either direction */
	CHECK(!dsr_neg_has(rc, B, D, 100));
	CHECK(dsr_neg_has(rc, B, C, 499));
	CHECK(!dsr_neg_has(rc, B, C, 500));
	/* routes crossing B-C are not usable, the prefix before it is */
	CHECK_NO_ROUTE(rc, D, 100);
	CHECK_NO_ROUTE(rc, C, 100);
	CHECK_ROUTE(rc, B, 100, B);
	CHECK_EQ(dsr_rc_count(rc), 1);		/* not deleted */
	/* usable again at until */
	CHECK_ROUTE(rc, D, 499 + 1, B, C, D);
	/* the link recorded the other way round */
	dsr_neg_add(rc, D, C, 1000);
	CHECK_NO_ROUTE(rc, D, 600);
	CHECK_ROUTE(rc, C, 600, B, C);
	/* a longer route around it is taken meanwhile */
	CHECK_EQ(ADD(rc, 0, 600, E, F, D), 1);
	CHECK_ROUTE(rc, D, 700, E, F, D);
	CHECK_ROUTE(rc, D, 1000, B, C, D);
	/* the first hop, from this node */
	dsr_neg_add(rc, S, B, 2000);
	CHECK_NO_ROUTE(rc, B, 1500);
	CHECK_NO_ROUTE(rc, C, 1500);
	CHECK_ROUTE(rc, D, 1500, E, F, D);
	dsr_neg_flush(rc);
	CHECK(!dsr_neg_has(rc, S, B, 1500));
	CHECK_ROUTE(rc, C, 1500, B, C);
	return true;
}

TEST(t_neg_full)
{
	unsigned int i;

#define LA(i)	ip4(10, 2, 0, (u8)(i))
#define LB(i)	ip4(10, 3, 0, (u8)(i))
	CHECK(rc_new(rc, 1, LONG));
	for (i = 0; i < DSR_NEG_MAX; i++)
		dsr_neg_add(rc, LA(i), LB(i), 1000 + i);
	for (i = 0; i < DSR_NEG_MAX; i++)
		CHECK(dsr_neg_has(rc, LA(i), LB(i), 0));
	/* full: the one ending first is replaced */
	dsr_neg_add(rc, LA(200), LB(200), 5000);
	CHECK(dsr_neg_has(rc, LA(200), LB(200), 0));
	CHECK(!dsr_neg_has(rc, LA(0), LB(0), 0));
	for (i = 1; i < DSR_NEG_MAX; i++)
		CHECK(dsr_neg_has(rc, LA(i), LB(i), 0));
	/* a link already held is updated in place, taking no slot */
	dsr_neg_add(rc, LA(5), LB(5), 9000);
	dsr_neg_add(rc, LA(201), LB(201), 6000);
	CHECK(!dsr_neg_has(rc, LA(1), LB(1), 0));	/* ended first */
	CHECK(dsr_neg_has(rc, LA(5), LB(5), 8999));
	CHECK(!dsr_neg_has(rc, LA(5), LB(5), 9000));
	CHECK(dsr_neg_has(rc, LA(201), LB(201), 0));
	for (i = 2; i < DSR_NEG_MAX; i++)
		CHECK(dsr_neg_has(rc, LA(i), LB(i), 0));
	/* shortened as well as lengthened */
	dsr_neg_add(rc, LA(5), LB(5), 10);
	CHECK(!dsr_neg_has(rc, LA(5), LB(5), 10));
	/* a link ended long ago is the first to go */
	dsr_neg_add(rc, LA(202), LB(202), 7000);
	CHECK(dsr_neg_has(rc, LA(202), LB(202), 0));
	CHECK(!dsr_neg_has(rc, LA(5), LB(5), 0));
	CHECK(dsr_neg_has(rc, LA(2), LB(2), 0));
#undef LA
#undef LB
	return true;
}

TEST(t_external)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, DSR_PATH_EXTERNAL, 0, B, C), 1);
	CHECK_ROUTE(rc, C, 1, B, C);	/* the only one */
	CHECK_EQ(ADD(rc, 0, 2, D, E, C), 1);
	/* an internal route is preferred, even a longer one */
	CHECK_ROUTE(rc, C, 3, D, E, C);
	/* External is about the last hop only */
	CHECK_ROUTE(rc, B, 3, B);
	/* among external routes, the shortest */
	CHECK_EQ(dsr_rc_del_link(rc, D, E), 1);
	CHECK_EQ(ADD(rc, DSR_PATH_EXTERNAL, 4, F, G, C), 1);
	CHECK_ROUTE(rc, C, 5, B, C);
	CHECK_ROUTE(rc, G, 5, F, G);
	return true;
}

TEST(t_resize)
{
	CHECK(rc_new(rc, 4, LONG));
	CHECK_EQ(ADD(rc, 0, 1, B), 1);
	CHECK_EQ(ADD(rc, 0, 2, C), 1);
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 3, D, G), 1);
	CHECK_EQ(ADD(rc, 0, 4, E), 1);
	CHECK_ROUTE(rc, D, 10, D);
	CHECK_ROUTE(rc, B, 11, B);
	/* smaller: the two used most recently stay, as they were */
	CHECK_EQ(dsr_rc_resize(rc, 2), 0);
	CHECK_EQ(rc->cap, 2);
	CHECK_EQ(dsr_rc_count(rc), 2);
	CHECK_EQ(rc->evictions, 2);
	CHECK_NO_ROUTE(rc, C, 12);
	CHECK_NO_ROUTE(rc, E, 12);
	CHECK_ROUTE(rc, B, 12, B);
	CHECK_ROUTE(rc, G, ~0ULL, D, G);	/* still static */
	/* larger: everything stays, room for more */
	CHECK_EQ(dsr_rc_resize(rc, 8), 0);
	CHECK_EQ(rc->cap, 8);
	CHECK_EQ(dsr_rc_count(rc), 2);
	CHECK_EQ(ADD(rc, 0, 13, C), 1);
	CHECK_EQ(ADD(rc, 0, 13, E), 1);
	CHECK_EQ(ADD(rc, 0, 13, F), 1);
	CHECK_EQ(ADD(rc, 0, 13, ip4(10, 0, 0, 8)), 1);
	CHECK_EQ(ADD(rc, 0, 13, ip4(10, 0, 0, 9)), 1);
	CHECK_EQ(ADD(rc, 0, 13, ip4(10, 0, 0, 10)), 1);
	CHECK_EQ(dsr_rc_count(rc), 8);
	CHECK_EQ(rc->evictions, 2);
	CHECK_ROUTE(rc, B, 14, B);
	return true;
}

TEST(t_lookup_out_len)
{
	__be32 a[DSR_MAX_PATH];
	unsigned int i;

	CHECK(rc_new(rc, 2, LONG));
	for (i = 0; i < DSR_MAX_PATH; i++)
		a[i] = ip4(10, 7, 0, (u8)(i + 1));
	CHECK_EQ(dsr_rc_add(rc, a, DSR_MAX_PATH, 0, 0), 1);
	for (i = 0; i < DSR_MAX_PATH; i++)
		CHECK(route_is(rc, a[i], 1, a, i + 1));
	return true;
}

TEST(t_one_slot)
{
	CHECK(!dsr_rc_init(rc, 1, LONG));
	rc->self = S;
	CHECK_EQ(dsr_rc_resize(rc, 1), 0);
	CHECK_EQ(ADD(rc, 0, 0, B), 1);
	CHECK_EQ(ADD(rc, 0, 0, C), 1);		/* evicts B */
	CHECK_EQ(rc->evictions, 1);
	CHECK_NO_ROUTE(rc, B, 1);
	CHECK_ROUTE(rc, C, 1, C);
	return true;
}

/* ---- the answers remembered: rcache.h (memo) ------------------------------ */

TEST(t_memo_add)
{
	u64 hits;

	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, C, D), 1);
	hits = rc->memo_hits;
	CHECK_EQ(ADD(rc, 0, 1, B, C, D), 0);	/* remembered */
	CHECK_EQ(rc->memo_hits, hits + 1);
	CHECK_EQ(ADD(rc, 0, 2, B, C), 0);	/* a prefix: scanned, then */
	CHECK_EQ(ADD(rc, 0, 3, B, C), 0);	/* remembered too */
	CHECK_EQ(rc->memo_hits, hits + 2);
	/* a path that was cut is learned again, not taken as known */
	CHECK_EQ(dsr_rc_del_link(rc, C, D), 1);
	CHECK_EQ(ADD(rc, 0, 4, B, C, D), 1);
	CHECK_ROUTE(rc, D, 5, B, C, D);
	/* and after a flush, a del_dst, an expiry */
	dsr_rc_flush(rc);
	CHECK_EQ(ADD(rc, 0, 6, B, C, D), 1);
	CHECK_EQ(dsr_rc_del_dst(rc, D), 1);
	CHECK_EQ(ADD(rc, 0, 7, B, C, D), 1);
	/* a path refused stays refused */
	CHECK(ADD(rc, 0, 8, B, S) < 0);
	CHECK(ADD(rc, 0, 9, B, S) < 0);
	/* a static add is never answered from memory: it sets the flag */
	CHECK_EQ(ADD(rc, DSR_PATH_STATIC, 10, B, C, D), 0);
	CHECK_ROUTE(rc, D, LONG * 10, B, C, D);
	return true;
}

TEST(t_memo_add_evicted)
{
	CHECK(rc_new(rc, 1, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B), 1);
	CHECK_EQ(ADD(rc, 0, 1, B), 0);
	CHECK_EQ(ADD(rc, 0, 2, C), 1);		/* evicts B */
	CHECK_EQ(ADD(rc, 0, 3, B), 1);		/* not remembered as known */
	CHECK_ROUTE(rc, B, 4, B);
	CHECK_NO_ROUTE(rc, C, 4);
	return true;
}

/* answered from memory, a path is refreshed as a scan would have */
TEST(t_memo_refresh)
{
	u64 t;

	CHECK(rc_new(rc, 8, 100));
	for (t = 0; t <= 1000; t += 5) {
		CHECK_EQ(ADD(rc, 0, t, B, C), t ? 0 : 1);
		CHECK_EQ(dsr_rc_expire(rc, t), 0);
	}
	CHECK(rc->memo_hits >= 199);
	/* expires a timeout after the last add, not before */
	CHECK_EQ(dsr_rc_expire(rc, 1099), 0);
	CHECK_EQ(dsr_rc_expire(rc, 1100), 1);
	/* lookups likewise */
	CHECK_EQ(ADD(rc, 0, 2000, B, C), 1);
	for (t = 2000; t <= 3000; t += 5)
		CHECK_ROUTE(rc, C, t, B, C);
	CHECK_EQ(dsr_rc_expire(rc, 3099), 0);
	CHECK_EQ(dsr_rc_expire(rc, 3100), 1);
	/* a path left unused expires though remembered (not yet removed) */
	CHECK_EQ(ADD(rc, 0, 4000, B, C), 1);
	CHECK_ROUTE(rc, C, 4001, B, C);
	CHECK_NO_ROUTE(rc, C, 4101);
	CHECK_EQ(ADD(rc, 0, 4102, B, C), 1);
	return true;
}

TEST(t_memo_lookup)
{
	u64 hits;

	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, C, D), 1);
	CHECK_ROUTE(rc, D, 1, B, C, D);
	hits = rc->memo_hits;
	CHECK_ROUTE(rc, D, 2, B, C, D);
	CHECK_EQ(rc->memo_hits, hits + 1);
	/* a shorter route learned is taken at once */
	CHECK_EQ(ADD(rc, 0, 3, E, D), 1);
	CHECK_ROUTE(rc, D, 4, E, D);
	/* a link in hold-down, then usable again when it ends */
	dsr_neg_add(rc, E, D, 100);
	CHECK_ROUTE(rc, D, 5, B, C, D);
	CHECK_ROUTE(rc, D, 99, B, C, D);
	CHECK_ROUTE(rc, D, 100, E, D);
	/* a cut */
	CHECK_EQ(dsr_rc_del_link(rc, S, E), 1);
	CHECK_ROUTE(rc, D, 101, B, C, D);
	dsr_neg_add(rc, S, B, 300);
	CHECK_NO_ROUTE(rc, D, 102);
	dsr_neg_flush(rc);
	CHECK_ROUTE(rc, D, 103, B, C, D);
	/* two destinations in one slot take turns, each right */
	CHECK_ROUTE(rc, C, 104, B, C);
	CHECK_ROUTE(rc, D, 105, B, C, D);
	return true;
}

TEST(t_memo_external)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, DSR_PATH_EXTERNAL, 0, B, C), 1);
	CHECK_ROUTE(rc, C, 1, B, C);
	CHECK(dsr_rc_external(rc, R(B, C)));
	CHECK(!dsr_rc_external(rc, R(B)));
	CHECK_ROUTE(rc, C, 2, B, C);
	CHECK(dsr_rc_external(rc, R(B, C)));
	CHECK_EQ(dsr_rc_del_link(rc, B, C), 1);
	CHECK_EQ(ADD(rc, 0, 3, B, C), 1);
	CHECK(!dsr_rc_external(rc, R(B, C)));
	CHECK_ROUTE(rc, C, 4, B, C);
	CHECK(!dsr_rc_external(rc, R(B, C)));
	return true;
}

/* the caller changed self: what was learned is answered anew */
TEST(t_memo_invalidate)
{
	CHECK(rc_new(rc, 8, LONG));
	CHECK_EQ(ADD(rc, 0, 0, B, C), 1);
	CHECK_ROUTE(rc, C, 1, B, C);
	rc->self = B;
	dsr_rc_invalidate(rc);
	CHECK(ADD(rc, 0, 2, B, C) < 0);
	return true;
}

/* xorshift, for the differential test */
static u32 rnd(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * Differential: random adds, lookups, cuts, deletions, hold-downs, expiry
 * and flushes on a cache with its memory and on one without (the answers
 * must be the same); big enough that nothing is evicted, a timeout nothing
 * outlives, so that refreshing less often changes nothing.
 */
TEST(t_memo_differential)
{
	struct dsr_rcache plain = {}, *r = rc;
	__be32 hop[4], a[DSR_MAX_PATH + 1], b[DSR_MAX_PATH + 1];
	unsigned int i, n, k, na, nb;
	u32 seed = 0x2545f491;
	u64 now = 0;
	bool ok = true;

	CHECK(rc_new(r, 1024, LONG));
	CHECK(rc_new(&plain, 1024, LONG));
	ah_free(plain.added);
	plain.added = plain.looked = NULL;
	for (i = 0; i < 200000 && ok; i++) {
		now += rnd(&seed) % 4;
		n = 1 + rnd(&seed) % 4;
		for (k = 0; k < n; k++)
			hop[k] = node((u8)(2 + rnd(&seed) % 6));
		switch (rnd(&seed) % 64) {
		case 0:
			k = dsr_rc_del_link(r, hop[0], hop[1 % n]);
			ok = k == dsr_rc_del_link(&plain, hop[0], hop[1 % n]);
			break;
		case 1:
			ok = dsr_rc_del_dst(r, hop[0]) ==
			     dsr_rc_del_dst(&plain, hop[0]);
			break;
		case 2:
			dsr_neg_add(r, hop[0], hop[1 % n], now + rnd(&seed) % 200);
			memcpy(plain.neg, r->neg, sizeof(plain.neg));
			break;
		case 3:
			if (rnd(&seed) % 8 == 0) {
				dsr_rc_flush(r);
				dsr_rc_flush(&plain);
			}
			break;
		case 4 ... 31:
			ok = dsr_rc_add(r, hop, n, 0, now) ==
			     dsr_rc_add(&plain, hop, n, 0, now);
			break;
		default:
			na = dsr_rc_lookup(r, hop[0], a, now);
			nb = dsr_rc_lookup(&plain, hop[0], b, now);
			ok = na == nb && !memcmp(a, b, na * sizeof(*a)) &&
			     (!na || dsr_rc_external(r, a, na) ==
				     dsr_rc_external(&plain, b, nb));
			break;
		}
	}
	if (!ok)
		ktap_diag("differs at step %u (now %llu)", i,
			  (unsigned long long)now);
	ktap_diag("%llu of the answers from memory",
		  (unsigned long long)r->memo_hits);
	dsr_rc_destroy(&plain);
	CHECK(ok);
	CHECK(r->memo_hits > 1000);
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "add and lookup: shortest prefix", t_add_lookup },
	{ "add: 1 learned, 0 refreshed, <0 refused", t_add_codes },
	{ "expiry after the timeout, refresh on lookup", t_expiry },
	{ "refresh on add", t_refresh_by_add },
	{ "static paths never expire", t_static },
	{ "full: least recently used evicted", t_evict_lru },
	{ "full: an expired slot before eviction", t_expired_before_lru },
	{ "full: static never evicted", t_evict_never_static },
	{ "del_link cuts both directions, keeps the prefix", t_del_link },
	{ "del_link: a cut path is no longer external",
	  t_del_link_external },
	{ "del_dst drops paths ending at dst", t_del_dst },
	{ "negative cache blocks a link until 'until'", t_neg_blocks },
	{ "negative cache full: the one ending first replaced", t_neg_full },
	{ "external last hop avoided for an internal route", t_external },
	{ "resize keeps the most recently used", t_resize },
	{ "lookup of every prefix of a DSR_MAX_PATH path", t_lookup_out_len },
	{ "cache of one path", t_one_slot },
	{ "memo: a learned path answered from memory, until one goes",
	  t_memo_add },
	{ "memo: an evicted path is learned again", t_memo_add_evicted },
	{ "memo: paths refreshed as without it", t_memo_refresh },
	{ "memo: lookups follow adds, cuts and hold-downs", t_memo_lookup },
	{ "memo: external routes", t_memo_external },
	{ "memo: forgotten when the caller changes the cache",
	  t_memo_invalidate },
	{ "memo: the same answers as without it (random operations)",
	  t_memo_differential },
};

int main(void)
{
	return ktap_main(fn_cases, ARRAY_SIZE(fn_cases));
}
