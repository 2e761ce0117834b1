// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the element chain of userspace/common/dsr_mcast.c
 * against the module's own checks, kmod/dsr/mchain.c, which
 * dsr_mc_chain_check() calls: each answer of the module as the problem
 * ahctl and dsrd word, at the element it is about; every chain of up to
 * three elements (of the known kinds and then some, with edge arguments)
 * given the module's answer for DSR_A_MC_CHAIN's bytes; the words of the
 * default chain as the module's default.  The messages of the words are
 * test_ahctl_dsr_mcast.sh's and test_dsrd_conf's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dsr_mcast.h"
#include "ktap.h"
#include "mchain.h"

/* The problem of each of the module's answers */
static enum dsr_mc_chain_problem want_problem(enum dsr_mch_res r)
{
	static const enum dsr_mc_chain_problem p[__DSR_MCH_RES_MAX] = {
		[DSR_MCH_OK] = DSR_MC_CHAIN_OK,
		[DSR_MCH_EMPTY] = DSR_MC_CHAIN_EMPTY,
		[DSR_MCH_LENGTH] = DSR_MC_CHAIN_TOO_MANY,
		[DSR_MCH_KIND] = DSR_MC_CHAIN_KIND,
		[DSR_MCH_TWICE] = DSR_MC_CHAIN_TWICE,
		[DSR_MCH_TAG_FIRST] = DSR_MC_CHAIN_TAG_FIRST,
		[DSR_MCH_FANOUT_LAST] = DSR_MC_CHAIN_FANOUT_LAST,
		[DSR_MCH_ARG] = DSR_MC_CHAIN_ARG,
	};

	return p[r];
}

#define E(k, a)	{ DSR_MC_EL_##k, a }

static bool t_answers(void)
{
	static const struct {
		const char *what;
		size_t n;
		struct dsr_mc_elem_cfg e[DSR_MC_CHAIN_MAX];
		enum dsr_mc_chain_problem want;
		size_t at;
	} c[] = {
		{ "the default (no attribute)", 0, { { 0 } },
		  DSR_MC_CHAIN_OK, 0 },
		{ "every kind", 5, { E(TAG, 0), E(DUP, 0), E(CAP, 2),
		  E(FILTER, 0), E(FANOUT, DSR_MC_FANOUT_PARAM) },
		  DSR_MC_CHAIN_OK, 0 },
		{ "kind 0 second", 2, { E(DUP, 0), { 0, 0 } },
		  DSR_MC_CHAIN_KIND, 1 },
		{ "a kind after the last", 1, { { __DSR_MC_EL_MAX, 0 } },
		  DSR_MC_CHAIN_KIND, 0 },
		{ "dup twice", 3, { E(DUP, 0), E(FILTER, 0), E(DUP, 0) },
		  DSR_MC_CHAIN_TWICE, 2 },
		{ "fanout twice: twice before last", 2,
		  { E(FANOUT, 1), E(FANOUT, 1) }, DSR_MC_CHAIN_TWICE, 1 },
		{ "tag second", 2, { E(DUP, 0), E(TAG, 0) },
		  DSR_MC_CHAIN_TAG_FIRST, 1 },
		{ "cap after fanout", 3, { E(TAG, 0), E(FANOUT, 0), E(CAP, 2) },
		  DSR_MC_CHAIN_FANOUT_LAST, 2 },
		{ "cap 0", 1, { E(CAP, 0) }, DSR_MC_CHAIN_ARG, 0 },
		{ "cap 129", 2, { E(DUP, 0), E(CAP, 129) },
		  DSR_MC_CHAIN_ARG, 1 },
		/* the copy of the rules userspace had let this one by */
		{ "tag with an argument", 2, { E(TAG, 1), E(DUP, 0) },
		  DSR_MC_CHAIN_ARG, 0 },
		{ "filter with an argument", 2, { E(TAG, 0), E(FILTER, 3) },
		  DSR_MC_CHAIN_ARG, 1 },
		{ "more than 8", DSR_MC_CHAIN_MAX + 1, { E(DUP, 0) },
		  DSR_MC_CHAIN_TOO_MANY, 0 },
	};
	struct dsr_mc_chain ch;
	size_t i, at;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		enum dsr_mc_chain_problem p;

		memset(&ch, 0, sizeof(ch));
		ch.n = c[i].n;
		memcpy(ch.e, c[i].e, sizeof(ch.e));
		at = 99;
		p = dsr_mc_chain_check(&ch, &at);
		if (p != c[i].want || at != c[i].at) {
			ktap_diag("%s: %d at %zu, want %d at %zu", c[i].what,
				  p, at, c[i].want, c[i].at);
			return false;
		}
	}
	return true;
}

static const u8 kinds[] = { 0, 1, 2, 3, 4, 5, 6, 255 };
static const u8 args[] = { 0, 1, 2, 127, 128, 129, 254, 255 };
#define NE	(ARRAY_SIZE(kinds) * ARRAY_SIZE(args))

/*
 * The module's answer for ch's bytes; refused, at is the element it
 * refuses: those before it a chain it takes, with it the same refusal
 */
static bool agree(const struct dsr_mc_chain *ch)
{
	const u8 *b = (const u8 *)ch->e;
	const size_t el = sizeof(ch->e[0]);
	enum dsr_mc_chain_problem p;
	enum dsr_mch_res r;
	struct dsr_mch m;
	size_t at, i;

	p = dsr_mc_chain_check(ch, &at);
	r = dsr_mch_build(b, ch->n * el, &m);
	if (p == want_problem(r) &&
	    (r == DSR_MCH_OK ||
	     (at < ch->n &&
	      (!at || dsr_mch_build(b, at * el, &m) == DSR_MCH_OK) &&
	      dsr_mch_build(b, (at + 1) * el, &m) == r)))
		return true;
	ktap_diag("module %d, check %d at %zu, of:", r, p, at);
	for (i = 0; i < ch->n; i++)
		ktap_diag("  %u:%u", ch->e[i].kind, ch->e[i].arg);
	return false;
}

static bool t_every_chain(void)
{
	struct dsr_mc_chain ch;
	size_t i, j, k, n, at, ok = 0, total = 0;

	memset(&ch, 0, sizeof(ch));
	for (n = 1; n <= 3; n++) {
		size_t top = n == 1 ? NE : n == 2 ? NE * NE : NE * NE * NE;

		ch.n = n;
		for (i = 0; i < top; i++) {
			for (j = 0, k = i; j < n; j++, k /= NE) {
				ch.e[j].kind = kinds[k % NE / ARRAY_SIZE(args)];
				ch.e[j].arg = args[k % NE % ARRAY_SIZE(args)];
			}
			if (!agree(&ch))
				return false;
			ok += dsr_mc_chain_check(&ch, &at) == DSR_MC_CHAIN_OK;
			total++;
		}
	}
	ktap_diag("%zu chains, %zu taken", total, ok);
	return ok > 0;
}

static bool t_words(void)
{
	char words[] = DSR_MC_CHAIN_DEFAULT_STR;
	char *argv[DSR_MC_CHAIN_MAX], *s, *save = NULL;
	char all0[] = "tag", all1[] = "dup", all2[] = "cap", all3[] = "2",
	     all4[] = "filter", all5[] = "fanout", all6[] = "bcast",
	     all7[] = "0", def[] = DSR_MC_CHAIN_DEFAULT;
	char *all[] = { all0, all1, all2, all3, all4, all5, all6, all7 };
	char *dflt[] = { def };
	struct dsr_mc_chain ch;
	struct dsr_mch m;
	int argc = 0, at;

	/* the words of the default chain are the module's default */
	for (s = strtok_r(words, " ", &save); s; s = strtok_r(NULL, " ", &save))
		argv[argc++] = s;
	CHECK_EQ(dsr_mc_chain_parse(argc, argv, &ch, &at), DSR_MC_CHAIN_OK);
	dsr_mch_default(&m);
	CHECK_EQ(ch.n, m.n);
	CHECK(!memcmp(ch.e, m.e, m.n * sizeof(m.e[0])));
	/* "default": no attribute */
	CHECK_EQ(dsr_mc_chain_parse(1, dflt, &ch, &at), DSR_MC_CHAIN_OK);
	CHECK_EQ(ch.n, 0);
	/* every element, as the module takes them */
	CHECK_EQ(dsr_mc_chain_parse(ARRAY_SIZE(all), all, &ch, &at),
		 DSR_MC_CHAIN_OK);
	CHECK_EQ(dsr_mch_build((const u8 *)ch.e, ch.n * sizeof(ch.e[0]), &m),
		 DSR_MCH_OK);
	CHECK(m.tag && m.dup && m.filter && m.fanout);
	CHECK_EQ(m.cap, 2);
	CHECK_EQ(m.bcast, 0);
	return true;
}

static const struct ktap_case cases[] = {
	{ "each answer of the module as the chain's problem, at its element",
	  t_answers },
	{ "every chain of up to 3 elements: the module's answer, at the element it refuses",
	  t_every_chain },
	{ "the words of the default chain: the module's default; every element's, taken",
	  t_words },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
