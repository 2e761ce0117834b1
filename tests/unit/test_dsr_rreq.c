// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/rreq.c: the Route Request table (duplicate
 * suppression) and the Route Discovery back-off.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "rreq.h"

#define A	node(1)
#define B	node(2)
#define C	node(3)
#define D	node(4)

/* every test frees its table even when it fails */
#define TEST(name)	TABLE_TEST(name, struct dsr_rreq_table, t, dsr_rreq_destroy)

#define T	node(9)
/* most cases: one target; t_target varies it */
#define SEEN(init, id, now)	dsr_rreq_seen(t, init, id, T, now)
#define SEEN_FOR(init, id, target, now) \
	dsr_rreq_seen(t, init, id, target, now)

TEST(t_seen)
{
	CHECK(!dsr_rreq_init(t, 4, 16));
	CHECK(!SEEN(A, 1, 0));
	CHECK(SEEN(A, 1, 1));
	CHECK(SEEN(A, 1, 2));
	CHECK(!SEEN(A, 2, 3));
	CHECK(!SEEN(B, 1, 4));		/* ids are per initiator */
	CHECK(SEEN(A, 2, 5));
	CHECK(SEEN(B, 1, 6));
	CHECK(!SEEN(B, 0xffff, 7));
	CHECK(SEEN(B, 0xffff, 8));
	CHECK(!SEEN(B, 0, 9));
	CHECK(SEEN(B, 0, 10));
	CHECK(SEEN(A, 1, 11));
	return true;
}

TEST(t_ring)
{
	unsigned int i;

	CHECK(!dsr_rreq_init(t, 2, 4));
	CHECK_EQ(t->ids, 4);
	for (i = 1; i <= 4; i++)
		CHECK(!SEEN(A, (u16)i, i));
	for (i = 1; i <= 4; i++)
		CHECK(SEEN(A, (u16)i, 10 + i));
	/* a fifth forgets the oldest */
	CHECK(!SEEN(A, 5, 20));
	for (i = 2; i <= 5; i++)
		CHECK(SEEN(A, (u16)i, 20 + i));
	CHECK(!SEEN(A, 1, 30));		/* forgotten: new, forgets 2 */
	CHECK(!SEEN(A, 2, 31));		/* forgets 3 */
	CHECK(SEEN(A, 4, 32));
	CHECK(SEEN(A, 5, 33));
	CHECK(SEEN(A, 1, 34));
	CHECK(SEEN(A, 2, 35));
	CHECK(!SEEN(A, 3, 36));
	/* around the ring many times: the last four are always held */
	for (i = 100; i < 1000; i++) {
		unsigned int k;

		CHECK(!SEEN(B, (u16)i, i));
		for (k = i >= 103 ? i - 3 : 100; k <= i; k++)
			CHECK(SEEN(B, (u16)k, i));
	}
	CHECK(!SEEN(B, 995, 1000));
	return true;
}

TEST(t_ids_limits)
{
	unsigned int i;

	CHECK(!dsr_rreq_init(t, 1, 0));
	CHECK_EQ(t->ids, 1);		/* at least one */
	CHECK(!SEEN(A, 1, 0));
	CHECK(SEEN(A, 1, 0));
	CHECK(!SEEN(A, 2, 0));
	CHECK(!SEEN(A, 1, 0));
	dsr_rreq_destroy(t);

	CHECK(!dsr_rreq_init(t, 1, 1000));
	CHECK_EQ(t->ids, DSR_RREQ_IDS_MAX);	/* at most the array */
	for (i = 0; i < DSR_RREQ_IDS_MAX; i++)
		CHECK(!SEEN(A, (u16)i, i));
	for (i = 0; i < DSR_RREQ_IDS_MAX; i++)
		CHECK(SEEN(A, (u16)i, i));
	CHECK(!SEEN(A, DSR_RREQ_IDS_MAX, 100));
	CHECK(!SEEN(A, 0, 101));
	return true;
}

TEST(t_lru)
{
	CHECK(!dsr_rreq_init(t, 3, 16));
	CHECK(!SEEN(A, 1, 1));
	CHECK(!SEEN(B, 1, 2));
	CHECK(!SEEN(C, 1, 3));
	CHECK(!SEEN(A, 2, 4));		/* A heard again */
	/* full: B, heard least recently, is forgotten */
	CHECK(!SEEN(D, 1, 5));
	CHECK(SEEN(A, 1, 6));
	CHECK(SEEN(A, 2, 6));
	CHECK(SEEN(C, 1, 6));
	CHECK(SEEN(D, 1, 6));
	CHECK(!SEEN(B, 1, 7));		/* new again: forgets C (3) */
	CHECK(SEEN(B, 1, 8));
	CHECK(!SEEN(C, 1, 9));		/* forgets A (4) */
	CHECK(!SEEN(A, 1, 10));		/* forgets D (5) */
	CHECK(!SEEN(D, 1, 11));		/* forgets B (7) */
	CHECK(SEEN(C, 1, 12));
	CHECK(SEEN(A, 1, 12));
	return true;
}

TEST(t_flush)
{
	CHECK(!dsr_rreq_init(t, 4, 4));
	CHECK(!SEEN(A, 1, 1));
	CHECK(!SEEN(B, 7, 1));
	dsr_rreq_flush(t);
	CHECK(!SEEN(A, 1, 2));
	CHECK(!SEEN(B, 7, 2));
	CHECK(SEEN(A, 1, 3));
	return true;
}

TEST(t_one_initiator)
{
	CHECK(!dsr_rreq_init(t, 1, 4));
	CHECK(!SEEN(A, 1, 1));
	CHECK(!SEEN(B, 1, 2));		/* replaces A */
	CHECK(!SEEN(A, 1, 3));
	CHECK(SEEN(A, 1, 4));
	return true;
}

static bool t_backoff(void)
{
	static const struct {
		u32 period, max;
		unsigned int tries;
		u32 want;
	} c[] = {
		{ 500, 10000, 0, 500 },
		{ 500, 10000, 1, 500 },
		{ 500, 10000, 2, 1000 },
		{ 500, 10000, 3, 2000 },
		{ 500, 10000, 4, 4000 },
		{ 500, 10000, 5, 8000 },
		{ 500, 10000, 6, 10000 },
		{ 500, 10000, 7, 10000 },
		{ 500, 10000, 64, 10000 },
		{ 500, 10000, UINT_MAX, 10000 },
		{ 300, 1000, 3, 1000 },
		{ 300, 1200, 3, 1200 },
		{ 10000, 500, 1, 500 },		/* period above the max */
		{ 500, 500, 3, 500 },
		{ 1, 0xffffffff, 32, 0x80000000 },
		{ 1, 0xffffffff, 33, 0xffffffff },
		{ 0x80000000, 0xffffffff, 5, 0xffffffff },
		{ 0xffffffff, 0xffffffff, UINT_MAX, 0xffffffff },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		u32 got = dsr_rreq_backoff(c[i].period, c[i].max,
					   c[i].tries);

		if (got != c[i].want) {
			ktap_diag("dsr_rreq_backoff(%u, %u, %u) = %u, "
				  "expected %u", c[i].period, c[i].max,
				  c[i].tries, got, c[i].want);
			return false;
		}
	}
	return true;
}

/* section 8.2.2: the same identification for another target is new */
TEST(t_target)
{
	CHECK(!dsr_rreq_init(t, 4, 16));
	CHECK(!SEEN_FOR(A, 7, C, 0));
	CHECK(SEEN_FOR(A, 7, C, 1));
	CHECK(!SEEN_FOR(A, 7, D, 2));
	CHECK(SEEN_FOR(A, 7, D, 3));
	CHECK(SEEN_FOR(A, 7, C, 4));
	CHECK(!SEEN_FOR(B, 7, C, 5));
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "seen and not seen", t_seen },
	{ "ids ring of size ids forgets the oldest", t_ring },
	{ "ids clamped to 1..DSR_RREQ_IDS_MAX", t_ids_limits },
	{ "full: least recently heard initiator replaced", t_lru },
	{ "flush forgets everything", t_flush },
	{ "table of one initiator", t_one_initiator },
	{ "back-off doubles and clamps", t_backoff },
	{ "a duplicate is keyed on initiator, id and target", t_target },
};

int main(void)
{
	return ktap_main(fn_cases, ARRAY_SIZE(fn_cases));
}
