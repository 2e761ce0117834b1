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

static bool t_init(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, LO, HI);
	CHECK_EQ(r.rto, 500000);
	CHECK_EQ(r.samples, 0);
	dsr_rtt_init(&r, 1, LO, HI);
	CHECK_EQ(r.rto, LO);
	dsr_rtt_init(&r, 9000000, LO, HI);
	CHECK_EQ(r.rto, HI);
	return true;
}

/* RFC 6298 2.2: SRTT = R, RTTVAR = R / 2, RTO = SRTT + 4 RTTVAR */
static bool t_first(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, 1, HI);
	dsr_rtt_sample(&r, 30000, 1, HI);
	CHECK_EQ(r.srtt, 30000);
	CHECK_EQ(r.rttvar, 15000);
	CHECK_EQ(r.rto, 90000);
	CHECK_EQ(r.samples, 1);
	return true;
}

/* RFC 6298 2.3, by hand: RTTVAR from the old SRTT, then SRTT */
static bool t_second(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, 1, HI);
	dsr_rtt_sample(&r, 30000, 1, HI);
	dsr_rtt_sample(&r, 70000, 1, HI);
	/* rttvar = 3/4 * 15000 + 1/4 * 40000 = 21250; srtt = 35000 */
	CHECK_EQ(r.srtt, 35000);
	CHECK_EQ(r.rttvar, 21250);
	CHECK_EQ(r.rto, 35000 + 85000);
	return true;
}

/* a steady RTT: variance decays, RTO converges to the floor */
static bool t_converge(void)
{
	struct dsr_rtt r;
	int i;

	dsr_rtt_init(&r, 500000, LO, HI);
	for (i = 0; i < 200; i++)
		dsr_rtt_sample(&r, 10000, LO, HI);
	CHECK_EQ(r.srtt, 10000);
	CHECK(r.rttvar < 100);
	CHECK_EQ(r.rto, LO);
	return true;
}

/* a jump in RTT raises the RTO at once, and it comes back down */
static bool t_adapts(void)
{
	struct dsr_rtt r;
	int i;

	dsr_rtt_init(&r, 500000, LO, HI);
	for (i = 0; i < 50; i++)
		dsr_rtt_sample(&r, 10000, LO, HI);
	dsr_rtt_sample(&r, 400000, LO, HI);
	CHECK(r.rto > 400000);
	for (i = 0; i < 100; i++)
		dsr_rtt_sample(&r, 10000, LO, HI);
	CHECK_EQ(r.rto, LO);
	return true;
}

static bool t_clamp_hi(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, LO, HI);
	dsr_rtt_sample(&r, 4000000000u, LO, HI);
	CHECK_EQ(r.rto, HI);
	dsr_rtt_sample(&r, 4000000000u, LO, HI);
	CHECK_EQ(r.rto, HI);
	CHECK_EQ(r.srtt, 4000000000u);
	return true;
}

static bool t_zero_sample(void)
{
	struct dsr_rtt r;

	dsr_rtt_init(&r, 500000, 1, HI);
	dsr_rtt_sample(&r, 0, 1, HI);
	/* SRTT 1, RTTVAR 0: RTO = SRTT + max(G = 1, 0) */
	CHECK_EQ(r.srtt, 1);
	CHECK_EQ(r.rttvar, 0);
	CHECK_EQ(r.rto, 2);
	return true;
}

/* CMU: above 5 queued packets, 20 ms per queued packet */
static bool t_queue(void)
{
	CHECK_EQ(dsr_rto_queue(LO, 5, 5, 20000, HI), LO);
	CHECK_EQ(dsr_rto_queue(LO, 6, 5, 20000, HI), LO + 6 * 20000);
	CHECK_EQ(dsr_rto_queue(LO, 40, 5, 20000, HI), LO + 40 * 20000);
	CHECK_EQ(dsr_rto_queue(LO, 1000, 5, 20000, HI), HI);
	CHECK_EQ(dsr_rto_queue(LO, 0, 5, 20000, HI), LO);
	CHECK_EQ(dsr_rto_queue(LO, 1, 0, 20000, HI), LO + 20000);
	return true;
}

static bool t_backoff(void)
{
	CHECK_EQ(dsr_rto_backoff(100000, 1, HI), 100000);
	CHECK_EQ(dsr_rto_backoff(100000, 2, HI), 200000);
	CHECK_EQ(dsr_rto_backoff(100000, 3, HI), 400000);
	CHECK_EQ(dsr_rto_backoff(100000, 40, HI), HI);
	CHECK_EQ(dsr_rto_backoff(100000, 0, HI), 100000);
	CHECK_EQ(dsr_rto_backoff(3000000, 2, HI), 3000000);
	return true;
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
	return ktap_main(cases, ARRAY_SIZE(cases));
}
