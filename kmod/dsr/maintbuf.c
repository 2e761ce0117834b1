// SPDX-License-Identifier: GPL-2.0
/*
 * The Maintenance Buffer (RFC 4728 section 8.3): every packet we originate
 * or forward stays here until its next hop acknowledges it, passively (we
 * overhear the next hop forward it) or with an explicit Acknowledgment.
 * The first TryPassiveAcks transmissions on a hop that is not the last
 * rely on passive acknowledgment; later ones, and every transmission over
 * a last hop, carry an Acknowledgment Request.  What happens when no
 * acknowledgment comes is maint.c's.
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/jhash.h>
#include <linux/pkt_sched.h>
#include <net/ip.h>
#include <net/route.h>

#include "dsr.h"
#include "trace.h"

/*
 * The Maintenance Buffer is a list in the order the packets were sent (the
 * timer, ack_all) and a hash table by the packet's source, destination and
 * IP id, where every frame we receive or overhear looks for the packet it
 * acknowledges passively or duplicates: one bucket, not every entry.
 */
static u32 dsr_maint_hash(const struct dsr_priv *priv, __be32 saddr,
			  __be32 daddr, __be16 id)
{
	return jhash_3words((__force u32)saddr, (__force u32)daddr,
			    (__force u32)id, priv->hash_seed);
}

#define dsr_maint_for_ip(priv, m, iph)					\
	hash_for_each_possible((priv)->maint_hash, m, hnode,		\
			       dsr_maint_hash(priv, (iph)->saddr,		\
					      (iph)->daddr, (iph)->id))

/* The bucket of maint_hash (and of maint_filter) of a packet */
u32 dsr_maint_bucket(const struct dsr_priv *priv, __be32 saddr, __be32 daddr,
		     __be16 id)
{
	return hash_min(dsr_maint_hash(priv, saddr, daddr, id),
			DSR_MAINT_HASH_BITS);
}

/*
 * Whether iph may be the passive acknowledgment (or a duplicate) of a
 * packet in the Maintenance Buffer: its bucket holds one.  Without
 * priv->lock: an entry is counted before its frame leaves this host, so
 * a frame that acknowledges it cannot come before the count.  A "maybe"
 * is settled under the lock.
 */
bool dsr_maint_maybe(const struct dsr_priv *priv, const struct iphdr *iph)
{
	u32 b = dsr_maint_bucket(priv, iph->saddr, iph->daddr, iph->id);

	return READ_ONCE(priv->maint_filter[b]);
}

/* m leaves the hash table (once: it may leave it before the list) */
void dsr_maint_unhash(struct dsr_priv *priv, struct dsr_maint *m)
{
	u32 b;

	if (hlist_unhashed(&m->hnode))
		return;
	hash_del(&m->hnode);
	b = dsr_maint_bucket(priv, m->saddr, m->daddr, m->ip_id);
	WRITE_ONCE(priv->maint_filter[b], priv->maint_filter[b] - 1);
}

void dsr_maint_free(struct dsr_priv *priv, struct dsr_maint *m)
{
	dsr_maint_unhash(priv, m);
	list_del(&m->list);
	priv->n_maint--;
	kfree_skb(m->skb);
	kfree_skb(m->rtx);
	kfree(m);
}

/*
 * Tracked frames (d, n of them) that this host's own interface queue
 * refused, or that a slave which was down did not take: that transmission
 * never reached the medium, so it tested no link.  The packet is lost to
 * congestion here, as a queue's drop loses any packet: it leaves the
 * Maintenance Buffer (maint_queue_drops), with no retransmission into the
 * queue that is full, and no link is judged by it.  Without this, a link
 * whose sender's queue overflows (a rate-limited radio, seed 002's TC
 * limit) would spend each tracked packet's retransmissions in that queue
 * and be declared broken while it carries every frame the queue lets out.
 * With congestion_drop 0 (RFC 4728's rule) nothing is done here.  Called
 * without priv->lock (dsr_out_flush()).
 */
void dsr_maint_tx_dropped(struct dsr_priv *priv, const struct dsr_tx_drop *d,
			  unsigned int n)
{
	struct hlist_node *tmp;
	struct dsr_maint *m;
	unsigned int i;

	dsr_lock(priv);
	/* congestion_drop 0: RFC 4728's rule, every expiry counts */
	for (i = 0; i < n && DSR_P(priv, CONGESTION_DROP); i++) {
		hash_for_each_possible_safe(priv->maint_hash, m, tmp, hnode,
					    dsr_maint_hash(priv, d[i].saddr,
							   d[i].daddr,
							   d[i].id)) {
			if (m->seq != d[i].seq)
				continue;
			dsr_stat(priv, DSR_S_MAINT_QUEUE_DROPS);
			dsr_maint_free(priv, m);
			break;
		}
	}
	dsr_unlock(priv);
}

/*
 * Whether the next transmission to nexthop carries an Acknowledgment
 * Request, and (*track) whether the packet is kept for retransmission.
 * A next hop that confirmed its link within MaintHoldoffTime is trusted
 * without either, on every hop (RFC 4728 section 8.3: a node "MUST attempt
 * to confirm the reachability of the next-hop node, unless such
 * confirmation had been received in the last MaintHoldoffTime"): while a
 * link carries a flow, one packet per hold-off is tracked and confirms it
 * again, the others cost no clone, no entry and no acknowledgment.
 */
bool dsr_maint_want_ack(struct dsr_priv *priv, __be32 nexthop,
			bool last_hop, bool *track)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	u64 holdoff = DSR_P(priv, MAINT_HOLDOFF_MS);

	if (n && n->confirmed && dsr_now(priv) - n->confirmed < holdoff) {
		dsr_stat(priv, DSR_S_MAINT_HELD_OFF);
		*track = false;
		return false;
	}
	*track = true;
	return last_hop || !DSR_P(priv, TRY_PASSIVE_ACKS) ||
	       (n && n->no_passive);
}

/*
 * Keep a clone of frame (just queued for sending) until it is acked; the
 * caller asked dsr_maint_room() first.  segs:
 * the Segments Left it carries, DSR_NO_SRT without a source route.
 */
void dsr_maint_track(struct dsr_priv *priv, struct sk_buff *frame,
		     __be32 nexthop, bool explicit, u16 ack_id, u8 segs)
{
	const struct iphdr *iph = ip_hdr(frame);
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	struct dsr_maint *m;
	u32 b;

	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		goto nomem;
	m->skb = skb_clone(frame, GFP_ATOMIC);
	if (!m->skb) {
		kfree(m);
		goto nomem;
	}
	m->segs = segs;
	m->nexthop = nexthop;
	m->saddr = iph->saddr;
	m->daddr = iph->daddr;
	m->ip_id = iph->id;
	m->frag_off = iph->frag_off;
	m->tries = 1;
	m->explicit = explicit;
	m->passive = !explicit;
	m->ack_id = ack_id;
	m->sent = dsr_now(priv);
	m->first = m->sent;
	m->seq = ++priv->maint_seq;
	DSR_CB(frame)->maint_seq = m->seq;
	/*
	 * One packet per next hop and clock tick is timed (Van Jacobson's
	 * one timed segment at a time, by ticks): the estimator gets a
	 * sample every tick while the link is busy, and a fast flow does not
	 * pay a precise clock read for each packet.
	 */
	if (n && n->timed != m->sent) {
		n->timed = m->sent;
		m->sent_us = dsr_now_us(priv);
	}
	m->deadline = m->sent + dsr_neigh_rto(priv, n, m);
	trace_dsr_xmit(priv->dev, dsr_self(priv), m->saddr, m->daddr, m->ip_id,
		       nexthop, frame->len, 1, explicit, m->deadline - m->sent,
		       segs);
	list_add_tail(&m->list, &priv->maint);
	hash_add(priv->maint_hash, &m->hnode,
		 dsr_maint_hash(priv, m->saddr, m->daddr, m->ip_id));
	b = dsr_maint_bucket(priv, m->saddr, m->daddr, m->ip_id);
	WRITE_ONCE(priv->maint_filter[b], priv->maint_filter[b] + 1);
	priv->n_maint++;
	dsr_kick(priv);
	return;
nomem:
	dsr_stat(priv, DSR_S_NOMEM);
}

/*
 * Whether the last transmission of m is still in this host: in the
 * slave's qdisc or its driver, not yet on the medium.  The clone we keep
 * shares its data with the frame handed to the device until the device
 * (or, on a veth, the receiver) lets go of that frame.  Without a clone of
 * a retransmission (no memory), the first transmission tells.
 */
bool dsr_maint_queued(const struct dsr_maint *m)
{
	return skb_cloned(m->rtx ?: m->skb);
}

/*
 * Whether skb asked for low delay: what sch_dsrprio's default map puts in
 * its first band with DSR's control packets (the CMU testbed's two levels,
 * seed 004 section 6.4): the low-delay TOS, or that priority set on its
 * socket.
 */
static bool dsr_low_delay(const struct sk_buff *skb)
{
	return skb->priority == TC_PRIO_INTERACTIVE ||
	       skb->priority == TC_PRIO_CONTROL ||
	       rt_tos2priority(ip_hdr(skb)->tos) == TC_PRIO_INTERACTIVE;
}

/*
 * Whether skb, a packet that must be tracked, has room (section 4.5); if
 * not, it is not sent: counted here.  Only when rexmt_buffer_size entries
 * are held are those that already left this host counted (the walk costs
 * nothing below that).  As in the interface queue, the priorities have
 * their own room: a packet that asked for low delay may use a quarter more
 * than the size, and ctrl (a Route Reply or Error) half more, so that a
 * bulk flow that fills the buffer delays neither a stream nor routing.
 */
bool dsr_maint_room(struct dsr_priv *priv, const struct sk_buff *skb,
		    bool ctrl)
{
	unsigned int size = DSR_P(priv, REXMT_BUFFER_SIZE), sent = 0;
	const struct dsr_maint *m;

	if (ctrl)
		size += size / 2 + 1;
	else if (dsr_low_delay(skb))
		size += size / 4 + 1;
	if (priv->n_maint < size)
		return true;
	if (priv->n_maint < DSR_MAINT_CAP_MULT * size) {
		list_for_each_entry(m, &priv->maint, list)
			if (!dsr_maint_queued(m) && ++sent >= size)
				break;
		if (sent < size)
			return true;
	}
	dsr_stat(priv, DSR_S_MAINT_BUFFER_FULL);
	dev_core_stats_tx_dropped_inc(priv->dev);
	return false;
}

/* CMU: a packet identical to one we still hold is a duplicate. */
bool dsr_maint_dup(struct dsr_priv *priv, const struct iphdr *iph)
{
	struct dsr_maint *m;

	dsr_maint_for_ip(priv, m, iph)
		if (dsr_same_ip(iph, m->saddr, m->daddr, m->ip_id,
				m->frag_off))
			return true;
	return false;
}

/*
 * m's next hop acknowledged it: the link works both ways (section 4.6).
 * Section 8.3.2's table of next hops: one whose forwarding we overhear
 * (passive) is left to passive acknowledgments; one that answered only
 * the explicit request of a retransmission, after the first transmission
 * waited for a passive ack in vain (it forwards where we cannot hear:
 * by another slave, section 8.4, or out of our range), is asked
 * explicitly from then on, until a passive ack from it is heard again.
 */
static void dsr_confirmed(struct dsr_priv *priv, const struct dsr_maint *m,
			  bool passive)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, m->nexthop);

	if (dsr_bl_del(&priv->bl, m->nexthop))
		dsr_stat(priv, DSR_S_BLACKLIST_CLEARED);
	if (n) {
		WRITE_ONCE(n->confirmed, dsr_now(priv));
		if (passive)
			n->no_passive = false;
		else if (m->passive)
			n->no_passive = true;
		n->crossed = max(n->crossed, m->seq);
		n->acked++;
	}
}

/*
 * With ack_all (RFC 4728 sections 8.3.1-8.3.2), the acknowledgment of m
 * also confirms every packet sent to its next hop before it: they leave
 * the Maintenance Buffer too.  The list is in order of first sending.
 */
static void dsr_maint_ack_earlier(struct dsr_priv *priv,
				  const struct dsr_maint *m)
{
	struct dsr_maint *e, *tmp;

	if (!DSR_P(priv, ACK_ALL))
		return;
	list_for_each_entry_safe(e, tmp, &priv->maint, list) {
		if (e == m)
			break;
		if (e->nexthop != m->nexthop)
			continue;
		dsr_maint_free(priv, e);
		dsr_stat(priv, DSR_S_ACK_CLEARED_EARLIER);
	}
}

/* True if the acknowledgment matched a packet we sent. */
bool dsr_maint_ack(struct dsr_priv *priv, __be32 from, u16 id)
{
	struct dsr_maint *m;

	list_for_each_entry(m, &priv->maint, list) {
		if (m->nexthop == from && m->explicit && m->ack_id == id) {
			trace_dsr_ack(priv->dev, dsr_self(priv), from, false,
				      dsr_now(priv) - m->sent, m->tries,
				      dsr_now(priv) - m->first, m->saddr, m->daddr,
				      m->ip_id);
			dsr_neigh_rtt_sample(priv, m);
			dsr_confirmed(priv, m, false);
			dsr_maint_ack_earlier(priv, m);
			dsr_maint_free(priv, m);
			dsr_stat(priv, DSR_S_ACK_RECEIVED);
			return true;
		}
	}
	return false;
}

/* iph was overheard (or received) with Segments Left segs (-1: no SRT). */
void dsr_maint_passive(struct dsr_priv *priv, const struct iphdr *iph,
		       int segs)
{
	struct dsr_maint *m;

	dsr_maint_for_ip(priv, m, iph) {
		if (!dsr_same_ip(iph, m->saddr, m->daddr, m->ip_id,
				 m->frag_off) ||
		    m->segs == DSR_NO_SRT || segs < 0 || segs >= m->segs)
			continue;
		dsr_confirmed(priv, m, true);
		trace_dsr_ack(priv->dev, dsr_self(priv), m->nexthop, true,
			      dsr_now(priv) - m->sent, m->tries,
			      dsr_now(priv) - m->first, m->saddr, m->daddr,
			      m->ip_id);
		dsr_neigh_rtt_sample(priv, m);
		dsr_maint_ack_earlier(priv, m);
		dsr_maint_free(priv, m);
		dsr_stat(priv, DSR_S_PASSIVE_ACKS);
		return;
	}
}

/*
 * Give the DSR header of skb (IP packet) an Acknowledgment Request with
 * id, or none: an existing one is rewritten in place (or made PadN), a
 * missing one is appended (4 bytes keep the header aligned).  parsed: the
 * header as the caller parsed it, or NULL.
 */
int dsr_set_areq(struct sk_buff *skb, const struct dsr_parsed *parsed,
		 bool want, u16 id)
{
	unsigned int ihl = ip_hdrlen(skb);
	struct dsr_parsed p;
	struct iphdr *iph;
	u8 *dh;

	if (parsed)
		p = *parsed;
	else if (dsr_parse(skb->data + ihl, skb_headlen(skb) - ihl, &p))
		return -EINVAL;
	if (skb_ensure_writable(skb, ihl + p.len))
		return -ENOMEM;
	dh = skb->data + ihl;
	if (p.areq) {
		if (want) {
			ah_put16(dh + p.areq + 2, id);
		} else {
			dh[p.areq] = DSR_OPT_PADN;
			ah_put16(dh + p.areq + 2, 0);
		}
		return 0;
	}
	if (!want)
		return 0;
	if (skb_cow_head(skb, DSR_AREQ_SIZE + LL_MAX_HEADER))
		return -ENOMEM;
	skb_push(skb, DSR_AREQ_SIZE);
	memmove(skb->data, skb->data + DSR_AREQ_SIZE, ihl + p.len);
	skb_reset_network_header(skb);
	dh = skb->data + ihl;
	dsr_put_areq(dh + p.len, id);
	ah_put16(dh + 2, p.len + DSR_AREQ_SIZE - DSR_HDR_LEN);
	iph = ip_hdr(skb);
	iph->tot_len = htons(ntohs(iph->tot_len) + DSR_AREQ_SIZE);
	ip_send_check(iph);
	return 0;
}

void dsr_maint_slave_gone(struct dsr_priv *priv, struct dsr_slave *slave)
{
	struct dsr_maint *m, *tmp;

	list_for_each_entry_safe(m, tmp, &priv->maint, list)
		if (m->skb->dev == slave->dev)
			dsr_maint_free(priv, m);
}

void dsr_maint_flush(struct dsr_priv *priv)
{
	struct dsr_maint *m, *tmp;

	list_for_each_entry_safe(m, tmp, &priv->maint, list)
		dsr_maint_free(priv, m);
}
