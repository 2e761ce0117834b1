// SPDX-License-Identifier: GPL-2.0
/*
 * The retransmission timeout estimator (rtt.h).  Integer arithmetic in
 * microseconds; RTO = SRTT + max(G, 4 * RTTVAR) with G = 1 us, then the
 * clamp.  A timeout is not a sample: the CMU testbed found that treating
 * expirations as samples of twice the RTT pegs the timer at its maximum
 * long after congestion is over (seed 004 section 6.3).
 */
#include "rtt.h"

static u32 dsr_clamp(u64 v, u32 lo, u32 hi)
{
	if (v < lo)
		return lo;
	return v > hi ? hi : (u32)v;
}

static void dsr_rtt_set_rto(struct dsr_rtt *r, u32 lo, u32 hi)
{
	u64 var = 4 * (u64)r->rttvar;

	r->rto = dsr_clamp((u64)r->srtt + (var ? var : 1), lo, hi);
}

void dsr_rtt_init(struct dsr_rtt *r, u32 initial, u32 lo, u32 hi)
{
	r->srtt = 0;
	r->rttvar = 0;
	r->samples = 0;
	r->rto = dsr_clamp(initial, lo, hi);
}

void dsr_rtt_sample(struct dsr_rtt *r, u32 sample, u32 lo, u32 hi)
{
	if (!sample)
		sample = 1;
	if (!r->samples) {
		r->srtt = sample;
		r->rttvar = sample / 2;
	} else {
		u32 err = r->srtt > sample ? r->srtt - sample :
					     sample - r->srtt;

		/* RTTVAR first, with the old SRTT (RFC 6298 2.3) */
		r->rttvar = (u32)((3 * (u64)r->rttvar + err) / 4);
		r->srtt = (u32)((7 * (u64)r->srtt + sample) / 8);
	}
	if (r->samples < U32_MAX)
		r->samples++;
	dsr_rtt_set_rto(r, lo, hi);
}

u32 dsr_rto_queue(u32 rto, unsigned int qlen, unsigned int thresh, u32 incr,
		  u32 hi)
{
	if (qlen <= thresh)
		return rto;
	return dsr_clamp(rto + (u64)incr * qlen, 0, hi > rto ? hi : rto);
}

u32 dsr_rto_backoff(u32 rto, unsigned int tries, u32 hi)
{
	u64 v = rto;

	while (tries-- > 1 && v < hi)
		v *= 2;
	return dsr_clamp(v, 0, hi > rto ? hi : rto);
}
