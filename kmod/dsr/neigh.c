// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbours: the IPv4 address, MAC and slave of each node we hear, learned
 * from the frames themselves (dsr0 is IFF_NOARP), and the per-next-hop
 * state of Route Maintenance, including the retransmission timeout.
 * Bounded: DSR_MAX_NEIGH per device, the one heard least recently goes.
 * Found by address in a hash table (several times per packet), kept in a
 * list by when each was last heard (eviction, dumps).
 */
#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <net/sch_generic.h>

#include "dsr.h"

static u32 dsr_neigh_hash(const struct dsr_priv *priv, __be32 addr)
{
	return jhash_1word((__force u32)addr, priv->hash_seed);
}

/* under priv->lock, or (fastpath.c) under RCU */
struct dsr_neigh *dsr_neigh_find(struct dsr_priv *priv, __be32 addr)
{
	struct dsr_neigh *n;

	hash_for_each_possible_rcu(priv->neigh_hash, n, hnode,
				   dsr_neigh_hash(priv, addr),
				   lockdep_is_held(&priv->lock))
		if (n->addr == addr)
			return n;
	return NULL;
}

static void dsr_neigh_free(struct dsr_priv *priv, struct dsr_neigh *n)
{
	hash_del_rcu(&n->hnode);
	list_del(&n->list);
	priv->n_neighs--;
	kfree_rcu(n, rcu);
}

static struct dsr_neigh *dsr_neigh_new(struct dsr_priv *priv, __be32 addr)
{
	struct dsr_neigh *n = kzalloc(sizeof(*n), GFP_ATOMIC);

	if (!n) {
		dsr_stat(priv, DSR_S_NOMEM);
		return NULL;
	}
	/* the one heard least recently makes room (after the allocation) */
	if (priv->n_neighs >= DSR_MAX_NEIGH)
		dsr_neigh_free(priv, list_last_entry(&priv->neighs,
						     struct dsr_neigh, list));
	n->addr = addr;
	seqcount_spinlock_init(&n->seq, &priv->lock);
	n->rto_ms = DSR_P(priv, ACK_TIMEOUT_MS);
	dsr_rtt_init(&n->rtt, n->rto_ms * USEC_PER_MSEC,
		     DSR_P(priv, RTO_MIN_MS) * USEC_PER_MSEC,
		     DSR_P(priv, RTO_MAX_MS) * USEC_PER_MSEC);
	priv->n_neighs++;
	list_add(&n->list, &priv->neighs);
	return n;
}

/*
 * A frame from addr came from mac on slave.  A known neighbour's MAC (or
 * slave) changes only with proof (proven: an acknowledgment of ours that
 * it sent us), or after its link broke: one forged frame must not
 * redirect what we send it.  A new neighbour is learned from any frame.
 */
void dsr_neigh_heard(struct dsr_priv *priv, __be32 addr, const u8 *mac,
		     struct dsr_slave *slave, bool proven)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, addr);
	bool fresh = !n;

	if (!ah_addr_routable(addr) || !is_valid_ether_addr(mac))
		return;
	if (n && !proven && !n->mac_stale &&
	    (!ether_addr_equal(n->mac, mac) || n->slave != slave)) {
		dsr_stat(priv, DSR_S_NEIGH_MAC_REFUSED);
		return;
	}
	if (!n) {
		n = dsr_neigh_new(priv, addr);
		if (!n)
			return;
	}
	if (fresh || !ether_addr_equal(n->mac, mac) || n->slave != slave) {
		write_seqcount_begin(&n->seq);
		ether_addr_copy(n->mac, mac);
		n->slave = slave;
		write_seqcount_end(&n->seq);
	}
	WRITE_ONCE(n->mac_stale, false);
	WRITE_ONCE(n->heard, dsr_now(priv));
	list_move(&n->list, &priv->neighs);	/* most recent first */
	/* readers without the lock find it whole (fastpath.c) */
	if (fresh)
		hash_add_rcu(priv->neigh_hash, &n->hnode,
			     dsr_neigh_hash(priv, addr));
}

void dsr_neigh_slave_gone(struct dsr_priv *priv, struct dsr_slave *slave)
{
	struct dsr_neigh *n, *tmp;

	list_for_each_entry_safe(n, tmp, &priv->neighs, list)
		if (n->slave == slave)
			dsr_neigh_free(priv, n);
}

void dsr_neigh_flush(struct dsr_priv *priv)
{
	struct dsr_neigh *n, *tmp;

	list_for_each_entry_safe(n, tmp, &priv->neighs, list)
		dsr_neigh_free(priv, n);
}

/*
 * An acknowledgment for m arrived: one RTT sample for its next hop if m
 * was timed (dsr_maint_track()), unless m was sent more than once (Karn:
 * which transmission was acknowledged is unknown) or its timer expired
 * while it was still in our own queue (the sample would measure a stalled
 * queue, which dsr_maint_hold() already waits for, and keep the RTO at its
 * maximum long after).  The
 * sample runs from DSR's transmission to the ack, so it includes the
 * time m waited in our own interface queue.
 */
void dsr_neigh_rtt_sample(struct dsr_priv *priv, const struct dsr_maint *m)
{
	struct dsr_neigh *n;

	if (m->tries != 1 || m->held || !m->sent_us)
		return;
	n = dsr_neigh_find(priv, m->nexthop);
	if (!n)
		return;
	dsr_rtt_sample(&n->rtt, (u32)min_t(u64, dsr_now_us(priv) - m->sent_us,
					   U32_MAX),
		       DSR_P(priv, RTO_MIN_MS) * USEC_PER_MSEC,
		       DSR_P(priv, RTO_MAX_MS) * USEC_PER_MSEC);
}

/*
 * Packets in the transmit queue of the slave that reaches n: the root
 * qdisc's backlog, or with a multiqueue root (mq) the sum over the queues.
 * Qdiscs are freed after an RCU grace period.
 */
static unsigned int dsr_slave_qlen(const struct dsr_slave *s)
{
	struct net_device *dev = s->dev;
	unsigned int i, len = 0;
	struct Qdisc *q;

	rcu_read_lock();
	q = rcu_dereference(dev->qdisc);
	if (q && (q->flags & TCQ_F_MQROOT)) {
		for (i = 0; i < dev->real_num_tx_queues; i++) {
			q = rcu_dereference(netdev_get_tx_queue(dev, i)->qdisc);
			if (q)
				len += qdisc_qlen_sum(q);
		}
	} else if (q) {
		len = qdisc_qlen_sum(q);
	}
	rcu_read_unlock();
	return len;
}

/*
 * The retransmission timeout for the next transmission of m to n: the one
 * place that decides it, in ms.  adaptive_rto: n's estimate (RFC 6298 over
 * acknowledgment round trips, clamped to [rto_min_ms, rto_max_ms]), plus
 * with queue_heuristic queue_incr_ms per packet in the slave's transmit
 * queue when it holds more than queue_thresh (seed 004 section 6.3), then
 * doubled per earlier transmission of m, never above rto_max_ms.  It is
 * the same for a passive and an explicit acknowledgment: both come back
 * over the same link, after the next hop has handled the packet.
 * Otherwise the fixed PassiveAckTimeout or AckTimeout of RFC 4728.
 */
u32 dsr_neigh_rto(struct dsr_priv *priv, struct dsr_neigh *n,
		  const struct dsr_maint *m)
{
	u32 lo = DSR_P(priv, RTO_MIN_MS) * USEC_PER_MSEC;
	u32 hi = max(DSR_P(priv, RTO_MAX_MS) * USEC_PER_MSEC, lo);
	u32 rto;

	if (!DSR_P(priv, ADAPTIVE_RTO) || !n) {
		rto = m->explicit ? DSR_P(priv, ACK_TIMEOUT_MS) :
				    DSR_P(priv, PASSIVE_ACK_TIMEOUT_MS);
		if (n)
			n->rto_ms = rto;
		return rto;
	}
	rto = clamp(n->rtt.rto, lo, hi);
	if (DSR_P(priv, QUEUE_HEURISTIC))
		rto = dsr_rto_queue(rto, dsr_slave_qlen(n->slave),
				    DSR_P(priv, QUEUE_THRESH),
				    DSR_P(priv, QUEUE_INCR_MS) * USEC_PER_MSEC,
				    hi);
	rto = dsr_rto_backoff(rto, m->tries, hi);
	n->rto_ms = DIV_ROUND_UP(rto, USEC_PER_MSEC);
	return n->rto_ms;
}
