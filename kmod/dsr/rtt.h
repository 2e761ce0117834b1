/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-next-hop retransmission timeout (seed 004 sections 6.2-6.3): the TCP
 * estimator of RFC 6298 fed with acknowledgment round trips, clamped to
 * [lo, hi], plus the CMU queue heuristic.  No kernel dependencies: also
 * built into tests/unit.  Times in microseconds; the caller serialises
 * access and applies Karn's rule (no sample from a retransmitted packet).
 */
#ifndef _DSR_RTT_H
#define _DSR_RTT_H

#include "ah_proto_env.h"

struct dsr_rtt {
	u32 srtt;		/* us; 0 with no sample yet */
	u32 rttvar;		/* us */
	u32 rto;		/* us, clamped */
	u32 samples;
};

/* No sample yet: the RTO is initial, clamped. */
void dsr_rtt_init(struct dsr_rtt *r, u32 initial, u32 lo, u32 hi);
/* One round trip of sample us (RFC 6298 section 2, alpha 1/8, beta 1/4). */
void dsr_rtt_sample(struct dsr_rtt *r, u32 sample, u32 lo, u32 hi);

/*
 * CMU queue heuristic: with more than thresh packets in the interface
 * queue, incr us per queued packet on top of rto; never above hi, and
 * gone as soon as the queue drains.
 */
u32 dsr_rto_queue(u32 rto, unsigned int qlen, unsigned int thresh, u32 incr,
		  u32 hi);

/*
 * The timeout of the tries-th transmission (1: first) of one packet: rto
 * doubling per retransmission up to hi (RFC 6298 section 5.5, per packet:
 * the estimate itself is not changed by a timeout).
 */
u32 dsr_rto_backoff(u32 rto, unsigned int tries, u32 hi);

#endif /* _DSR_RTT_H */
