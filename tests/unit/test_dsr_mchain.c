// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/mchain.c: a multicast group's element chain
 * (mchain.h) as DSR_A_MC_CHAIN carries it.  The default; every element
 * and what it turns on; each refusal, leaving the result alone; every
 * length read from a buffer of exactly that length (ASan).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "mchain.h"

static enum dsr_mch_res build(const u8 *b, size_t n, struct dsr_mch *ch)
{
	u8 *c = malloc(n ? n : 1);
	enum dsr_mch_res r;

	if (!c)
		abort();
	memcpy(c, b, n);
	r = dsr_mch_build(c, n, ch);
	free(c);
	return r;
}

static bool t_default(void)
{
	struct dsr_mch ch;

	memset(&ch, 0xaa, sizeof(ch));
	dsr_mch_default(&ch);
	CHECK_EQ(ch.n, 4);
	CHECK(ch.tag && ch.dup && ch.filter && ch.fanout);
	CHECK_EQ(ch.cap, 0);
	CHECK_EQ(ch.bcast, DSR_MC_FANOUT_PARAM);
	CHECK_EQ(ch.e[0].kind, DSR_MC_EL_TAG);
	CHECK_EQ(ch.e[3].kind, DSR_MC_EL_FANOUT);
	return true;
}

static bool t_elements(void)
{
	static const u8 all[] = { 1, 0, 2, 0, 3, 2, 4, 0, 5, 0 };
	static const u8 cap_only[] = { 3, 128 };
	static const u8 no_tag[] = { 2, 0, 5, 7 };
	struct dsr_mch ch;

	CHECK_EQ(build(all, sizeof(all), &ch), DSR_MCH_OK);
	CHECK_EQ(ch.n, 5);
	CHECK(ch.tag && ch.dup && ch.filter && ch.fanout);
	CHECK_EQ(ch.cap, 2);
	CHECK_EQ(ch.bcast, 0);
	CHECK(!memcmp(ch.e, all, sizeof(all)));
	/* a leaf: no fan-out, nothing forwarded; cap at the most layers */
	CHECK_EQ(build(cap_only, sizeof(cap_only), &ch), DSR_MCH_OK);
	CHECK(!ch.tag && !ch.dup && !ch.filter && !ch.fanout);
	CHECK_EQ(ch.cap, 128);
	/* no tag (every packet layer 0), a broadcast from 7 children */
	CHECK_EQ(build(no_tag, sizeof(no_tag), &ch), DSR_MCH_OK);
	CHECK(!ch.tag && ch.dup && !ch.filter && ch.fanout);
	CHECK_EQ(ch.bcast, 7);
	return true;
}

static bool t_refused(void)
{
	static const struct {
		u8 b[20];
		size_t n;
		enum dsr_mch_res want;
	} bad[] = {
		{ { 0 }, 0, DSR_MCH_EMPTY },
		{ { 1 }, 1, DSR_MCH_LENGTH },
		{ { 1, 0, 2 }, 3, DSR_MCH_LENGTH },
		{ { 2, 0, 3, 1, 4, 0, 5, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0 }, 18,
		  DSR_MCH_LENGTH },
		{ { 0, 0 }, 2, DSR_MCH_KIND },
		{ { 6, 0 }, 2, DSR_MCH_KIND },
		{ { 255, 0 }, 2, DSR_MCH_KIND },
		{ { 2, 0, 2, 0 }, 4, DSR_MCH_TWICE },
		{ { 5, 0, 5, 0 }, 4, DSR_MCH_TWICE },
		{ { 2, 0, 1, 0 }, 4, DSR_MCH_TAG_FIRST },
		{ { 5, 255, 2, 0 }, 4, DSR_MCH_FANOUT_LAST },
		{ { 1, 0, 5, 0, 3, 2 }, 6, DSR_MCH_FANOUT_LAST },
		{ { 3, 0 }, 2, DSR_MCH_ARG },
		{ { 3, 129 }, 2, DSR_MCH_ARG },
		{ { 1, 1 }, 2, DSR_MCH_ARG },
		{ { 2, 9 }, 2, DSR_MCH_ARG },
		{ { 4, 255 }, 2, DSR_MCH_ARG },
	};
	struct dsr_mch ch, before;
	unsigned int i;

	dsr_mch_default(&ch);
	before = ch;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		enum dsr_mch_res r = build(bad[i].b, bad[i].n, &ch);

		if (r != bad[i].want || memcmp(&ch, &before, sizeof(ch))) {
			ktap_diag("case %u: %d, want %d", i, r, bad[i].want);
			return false;
		}
		CHECK(strlen(dsr_mch_res_msg(r)) > 0);
	}
	CHECK(strstr(dsr_mch_res_msg(DSR_MCH_ARG), "1..128"));
	CHECK(strstr(dsr_mch_res_msg(__DSR_MCH_RES_MAX), "invalid"));
	return true;
}

static bool t_longest(void)
{
	/* 5 kinds: the most a valid chain has is 5 elements (of 8 allowed) */
	static const u8 five[] = { 1, 0, 2, 0, 3, 1, 4, 0, 5, 255 };
	static const u8 six[] = { 1, 0, 2, 0, 3, 1, 4, 0, 5, 255, 2, 0 };
	struct dsr_mch ch;

	CHECK_EQ(build(five, sizeof(five), &ch), DSR_MCH_OK);
	CHECK_EQ(ch.cap, 1);
	CHECK_EQ(build(six, sizeof(six), &ch), DSR_MCH_TWICE);
	return true;
}

static const struct ktap_case cases[] = {
	{ "the default chain: tag, dup, filter, fanout(the parameter)",
	  t_default },
	{ "each element turns on its step; cap and fanout keep their argument",
	  t_elements },
	{ "each refusal, with a message, leaving the chain alone", t_refused },
	{ "the longest valid chain; one more element is a kind twice",
	  t_longest },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
