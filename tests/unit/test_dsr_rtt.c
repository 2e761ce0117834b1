// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/rtt.c: the RFC 6298 estimator, its clamp, the
 * CMU queue heuristic and the per-packet back-off.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "rtt.h"

#define LO	50000		/* us: the CMU testbed's 50 ms */
#define HI	2000000		/* us: 2 s */

static bool eq(const char *what, u32 got, u32 want)
{
	if (got == want)
		return true;
	ktap_diag("%s = %u, expected %u", what, got, want);
	return false;
}

static bool t_init(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, LO, HI);
	CHECK(eq("rto", r.rto, 500000) && eq("samples", r.samples, 0));
	dsr_rtt_init(&r, 1, LO, HI);
	CHECK(eq("rto below lo", r.rto, LO));
	dsr_rtt_init(&r, 9000000, LO, HI);
	return eq("rto above hi", r.rto, HI);
}

/* RFC 6298 2.2: SRTT = R, RTTVAR = R / 2, RTO = SRTT + 4 RTTVAR */
static bool t_first(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, 1, HI);
	dsr_rtt_sample(&r, 30000, 1, HI);
	return eq("srtt", r.srtt, 30000) && eq("rttvar", r.rttvar, 15000) &&
	       eq("rto", r.rto, 90000) && eq("samples", r.samples, 1);
}

/* RFC 6298 2.3, by hand: RTTVAR from the old SRTT, then SRTT */
static bool t_second(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, 1, HI);
	dsr_rtt_sample(&r, 30000, 1, HI);
	dsr_rtt_sample(&r, 70000, 1, HI);
	/* rttvar = 3/4 * 15000 + 1/4 * 40000 = 21250; srtt = 35000 */
	return eq("srtt", r.srtt, 35000) && eq("rttvar", r.rttvar, 21250) &&
	       eq("rto", r.rto, 35000 + 85000);
}

/* a steady RTT: variance decays, RTO converges to the floor */
static bool t_converge(void)
{
	struct dsr_rtt r;
	int i;

	dsr_rtt_init(&r, 500000, LO, HI);
	for (i = 0; i < 200; i++)
		dsr_rtt_sample(&r, 10000, LO, HI);
	CHECK(eq("srtt", r.srtt, 10000));
	CHECK(r.rttvar < 100);
	return eq("rto at the floor", r.rto, LO);
}

/* a jump in RTT raises the RTO at once, and it comes back down */
static bool t_adapts(void)
{
	struct dsr_rtt r;
	u32 peak;
	int i;

	dsr_rtt_init(&r, 500000, LO, HI);
	for (i = 0; i < 50; i++)
		dsr_rtt_sample(&r, 10000, LO, HI);
	dsr_rtt_sample(&r, 400000, LO, HI);
	peak = r.rto;
	CHECK(peak > 400000);
	for (i = 0; i < 100; i++)
		dsr_rtt_sample(&r, 10000, LO, HI);
	return eq("rto back at the floor", r.rto, LO);
}

static bool t_clamp_hi(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, LO, HI);
	dsr_rtt_sample(&r, 4000000000u, LO, HI);
	CHECK(eq("rto", r.rto, HI));
	dsr_rtt_sample(&r, 4000000000u, LO, HI);
	return eq("rto", r.rto, HI) && eq("srtt", r.srtt, 4000000000u);
}

static bool t_zero_sample(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, 1, HI);
	dsr_rtt_sample(&r, 0, 1, HI);
	/* SRTT 1, RTTVAR 0: RTO = SRTT + max(G = 1, 0) */
	return eq("srtt", r.srtt, 1) && eq("rttvar", r.rttvar, 0) &&
	       eq("rto", r.rto, 2);
}

/* CMU: above 5 queued packets, 20 ms per queued packet */
static bool t_queue(void)
{
	return eq("5 queued", dsr_rto_queue(LO, 5, 5, 20000, HI), LO) &&
	       eq("6 queued", dsr_rto_queue(LO, 6, 5, 20000, HI),
		  LO + 6 * 20000) &&
	       eq("40 queued", dsr_rto_queue(LO, 40, 5, 20000, HI),
		  LO + 40 * 20000) &&
	       eq("1000 queued: hi", dsr_rto_queue(LO, 1000, 5, 20000, HI),
		  HI) &&
	       eq("empty", dsr_rto_queue(LO, 0, 5, 20000, HI), LO) &&
	       eq("threshold 0", dsr_rto_queue(LO, 1, 0, 20000, HI),
		  LO + 20000);
}

static bool t_backoff(void)
{
	return eq("first", dsr_rto_backoff(100000, 1, HI), 100000) &&
	       eq("second", dsr_rto_backoff(100000, 2, HI), 200000) &&
	       eq("third", dsr_rto_backoff(100000, 3, HI), 400000) &&
	       eq("many", dsr_rto_backoff(100000, 40, HI), HI) &&
	       eq("zero tries", dsr_rto_backoff(100000, 0, HI), 100000) &&
	       eq("already above hi", dsr_rto_backoff(3000000, 2, HI),
		  3000000);
}

static const struct ktap_case cases[] = {
	{ "no sample: the initial RTO, clamped", t_init },
	{ "first sample: SRTT = R, RTTVAR = R/2", t_first },
	{ "second sample: RFC 6298 2.3 by hand", t_second },
	{ "steady RTT converges to the floor", t_converge },
	{ "an RTT jump raises the RTO, then it decays", t_adapts },
	{ "huge samples stay at the ceiling", t_clamp_hi },
	{ "a zero sample counts as 1 us", t_zero_sample },
	{ "queue heuristic: 20 ms per packet above 5", t_queue },
	{ "per-packet back-off doubles up to the ceiling", t_backoff },
};

int main(void)
{
	size_t n = ARRAY_SIZE(cases);

	ktap_plan((unsigned int)n);
	ktap_cases(cases, n);
	return ktap_finish();
}
