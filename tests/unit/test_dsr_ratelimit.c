// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/ratelimit.c: token buckets per key.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "ratelimit.h"

/* every test frees its table even when it fails */
#define TEST(name)	TABLE_TEST(name, struct dsr_rl, rl, dsr_rl_destroy)

static unsigned int allowed(struct dsr_rl *rl, __be32 key, unsigned int n,
			    u64 now)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		k += dsr_rl_allow(rl, &key, sizeof(key), now);
	return k;
}

TEST(t_burst_then_rate)
{
	CHECK(!dsr_rl_init(rl, 64, 10, 5, 1));
	CHECK_EQ(allowed(rl, node(1), 100, 1000), 5u);	/* the burst */
	CHECK_EQ(allowed(rl, node(1), 100, 1100), 1u);	/* 100 ms: one */
	CHECK_EQ(allowed(rl, node(1), 100, 1150), 0u);	/* half a token */
	CHECK_EQ(allowed(rl, node(1), 100, 1200), 1u);
	CHECK_EQ(allowed(rl, node(1), 100, 100000), 5u);	/* refilled, capped */
	return true;
}

TEST(t_keys_apart)
{
	CHECK(!dsr_rl_init(rl, 64, 10, 5, 1));
	CHECK_EQ(allowed(rl, node(1), 100, 10), 5u);
	CHECK_EQ(allowed(rl, node(2), 100, 10), 5u);	/* its own bucket */
	CHECK_EQ(allowed(rl, node(1), 100, 10), 0u);
	return true;
}

/* over a minute at 100 events a second: rate per second, plus the burst */
TEST(t_long_run)
{
	unsigned int k = 0;
	u64 t;

	CHECK(!dsr_rl_init(rl, 64, 20, 20, 9));
	for (t = 1; t <= 60000; t += 10)
		k += allowed(rl, node(7), 1, t);
	CHECK(k >= 20 * 60 && k <= 20 * 60 + 20 + 1);
	return true;
}

/* many keys: the table stays its size; a key that lost its bucket starts full */
TEST(t_bounded)
{
	unsigned int i;

	CHECK(!dsr_rl_init(rl, 40, 1, 1, 3));
	CHECK_EQ(rl->sets * DSR_RL_WAYS, 32u);
	for (i = 0; i < 5000; i++) {
		__be32 k = (__be32)(i + 1);

		CHECK(dsr_rl_allow(rl, &k, sizeof(k), i + 1));
	}
	return true;
}

static bool t_global(void)
{
	struct dsr_rl_bucket b;
	unsigned int i, k = 0;

	memset(&b, 0, sizeof(b));
	for (i = 0; i < 1000; i++)
		k += dsr_rl_allow_one(&b, 100, 50, 5);
	CHECK_EQ(k, 50u);
	CHECK(dsr_rl_allow_one(&b, 100, 50, 15));	/* 10 ms: one more */
	CHECK(!dsr_rl_allow_one(&b, 100, 50, 15));
	return true;
}

static bool t_unallocated(void)
{
	struct dsr_rl rl;
	__be32 k = node(1);

	memset(&rl, 0, sizeof(rl));
	CHECK(dsr_rl_allow(&rl, &k, sizeof(k), 1));	/* no table: no limit */
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "a burst, then the rate", t_burst_then_rate },
	{ "each key has its own bucket", t_keys_apart },
	{ "a long run stays at the rate", t_long_run },
	{ "bounded table; a new key starts full", t_bounded },
	{ "one global bucket", t_global },
	{ "an unallocated table limits nothing", t_unallocated },
};

int main(void)
{
	return ktap_main(fn_cases, ARRAY_SIZE(fn_cases));
}
