// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarding fast path: a relay forwards a data packet along its
 * source route without the device lock and without the general receive
 * code (rx.c), when nothing about the packet needs either.
 *
 * The general path, for every packet under priv->lock, checks the source
 * route (no address twice), learns from it, refreshes its transmitter as
 * a neighbour, looks for passive acknowledgments, and decides Route
 * Maintenance for the next hop.  For the packets of one flow all but the
 * last give the same answer packet after packet, and the last is "held
 * off" while the next hop confirmed its link within MaintHoldoffTime
 * (maintbuf.c).  So a packet is forwarded here when:
 *
 *  - it carries a Source Route and nothing else (no Route Request, Reply,
 *    Error, Acknowledgment or its Request, no unknown option), with
 *    Segments Left >= 1, a TTL above 1, and the next address ours (one
 *    of them, the one after it not: section 8.4's change of slaves goes
 *    the general way) and not the last one of a gateway's route;
 *  - the general path forwarded the same route at the same place in it
 *    within DSR_FP_LEARN_MS, and the route cache has not changed since
 *    (struct dsr_fp_route): the route was checked and learned from then;
 *  - its transmitter is a neighbour with the frame's MAC and slave (its
 *    time heard is written here too: Route Maintenance compares it; its
 *    place in the list by that time, for eviction, waits for the general
 *    path, at most DSR_FP_LEARN_MS);
 *  - no Maintenance Buffer entry may match it (dsr_maint_maybe(): it is
 *    neither our own packet coming back nor a passive acknowledgment);
 *  - its next hop is a neighbour whose link is confirmed within
 *    maint_holdoff_ms and has not broken since (no acknowledgment to ask,
 *    nothing to keep for retransmission), and it fits that slave's MTU.
 *
 * Anything else, and the first packet of every route every
 * DSR_FP_LEARN_MS, goes the general way, which gives the same result.
 * What both do is the same code: the duplicate cache (its own lock), the
 * header rewrite, dsr_frame_to() and the output queue.  fwd_fast counts
 * the packets forwarded here (also in forwarded).
 */
#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <net/ip.h>

#include "ah_compat.h"
#include "dsr.h"
#include "opt.h"
#include "trace.h"

/*
 * Whether skb's packet (p its DSR header) was delivered (kind
 * DSR_DUP_DELIVER) or forwarded (DSR_DUP_FORWARD, with the same Segments
 * Left and Salvage) recently: a copy its previous hop retransmitted
 * because our acknowledgment was lost.  The caller acknowledged it again.
 * An atomic datagram with identification 0 has no identity to go by (an
 * unconnected socket sends identical ones so, RFC 6864): it is never
 * called a duplicate.  The general path's too (rx.c), with or without
 * priv->lock: the duplicate cache has its own.
 */
bool dsr_skb_dup(struct dsr_priv *priv, const struct sk_buff *skb,
		 const struct dsr_parsed *p, enum dsr_dup_kind kind, u8 segs,
		 u8 salvage, u64 now)
{
	const struct iphdr *iph = ip_hdr(skb);
	unsigned int off = ip_hdrlen(skb) + p->len;
	unsigned int len = ntohs(iph->tot_len), n;
	u8 buf[DSR_DUP_PAYLOAD];
	struct dsr_dup_key k;
	const u8 *payload;
	bool seen;
	u32 life;

	if (!iph->id)
		return false;
	memset(&k, 0, sizeof(k));
	k.saddr = iph->saddr;
	k.daddr = iph->daddr;
	k.id = iph->id;
	k.frag_off = iph->frag_off;
	n = min_t(unsigned int, len - off, DSR_DUP_PAYLOAD);
	payload = skb_header_pointer(skb, off, n, buf);
	k.payload = payload ? dsr_dup_hash(payload, n) : 0;
	k.proto = p->next_header;
	k.kind = kind;
	k.segs = segs;
	k.salvage = salvage;
	/* as long as a previous hop may still retransmit it */
	life = (DSR_HOLD_MAX_RTOS + DSR_P(priv, MAX_MAINT_REXMT) + 1) *
	       DSR_P(priv, RTO_MAX_MS);
	spin_lock(&priv->dup_lock);
	seen = dsr_dup_seen(&priv->dup, &k, now, life);
	spin_unlock(&priv->dup_lock);
	return seen;
}

/*
 * skb (writable, its DSR header rewritten) goes on one hop, from either
 * path: the TTL and the header checksum.  What the previous hop or the
 * receive path left on the packet is not ours to act on: a departure time
 * (fq would hold the packet to it), a mark, a priority (dsrprio's band),
 * conntrack, the route.  Like ip_forward(), the priority follows the TOS;
 * an offloaded checksum (veth) travels on, as IP forwarding's does.
 */
void dsr_fwd_hop(struct sk_buff *skb)
{
	struct iphdr *iph = ip_hdr(skb);

	iph->ttl--;
	ip_send_check(iph);
	skb_scrub_packet(skb, true);
	skb->priority = rt_tos2priority(iph->tos);
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		skb->ip_summed = CHECKSUM_NONE;
}

void dsr_fp_init(struct dsr_priv *priv)
{
	unsigned int i;

	for (i = 0; i < DSR_FP_ROUTES; i++)
		seqcount_spinlock_init(&priv->fp[i].seq, &priv->lock);
}

static unsigned int dsr_fp_slot(const struct dsr_priv *priv,
				const __be32 *node, unsigned int n,
				unsigned int segs)
{
	u32 h = jhash2((const u32 *)node, n + 2, priv->hash_seed ^ segs);

	return h & (DSR_FP_ROUTES - 1);
}

static unsigned int dsr_fp_nodes(const struct iphdr *iph, const u8 *dh,
				 u16 srt, __be32 *node)
{
	unsigned int n = dsr_srt_naddr(dh, srt), i;

	node[0] = iph->saddr;
	for (i = 0; i < n; i++)
		node[i + 1] = dsr_srt_addr(dh, srt, i);
	node[n + 1] = iph->daddr;
	return n;
}

static bool dsr_fp_shape(const struct dsr_parsed *p)
{
	return p->srt && !p->rreq && !p->areq && !p->n_rrep && !p->n_rerr &&
	       !p->n_ack && !p->n_unknown && !p->n_ignored && !p->report &&
	       p->next_header != DSR_NO_NEXT_HEADER;
}

/*
 * The general path forwarded iph's packet (DSR header dh, as received)
 * with n addresses and segs Segments Left, after checking and learning
 * its route.  priv->lock held.
 */
void dsr_fp_learned(struct dsr_priv *priv, const struct iphdr *iph,
		    const u8 *dh, const struct dsr_parsed *p, unsigned int n,
		    unsigned int segs)
{
	u32 ms = min_t(u32, DSR_FP_LEARN_MS,
		       DSR_P(priv, ROUTE_CACHE_TIMEOUT_MS) / 4);
	__be32 node[DSR_MAX_PATH + 2];
	struct dsr_fp_route *r;

	if (!dsr_fp_shape(p) || n > DSR_MAX_PATH)
		return;
	dsr_fp_nodes(iph, dh, p->srt, node);
	r = &priv->fp[dsr_fp_slot(priv, node, n, segs)];
	write_seqcount_begin(&r->seq);
	memcpy(r->node, node, (n + 2) * sizeof(*node));
	r->n = n;
	r->segs = segs;
	r->gen = priv->rc.gen;
	r->until = jiffies + msecs_to_jiffies(ms);
	write_seqcount_end(&r->seq);
}

/* whether the general path forwarded node[] at segs lately */
static bool dsr_fp_known(struct dsr_priv *priv, const __be32 *node,
			 unsigned int n, unsigned int segs)
{
	const struct dsr_fp_route *r;
	unsigned int seq;
	bool ok;

	r = &priv->fp[dsr_fp_slot(priv, node, n, segs)];
	do {
		seq = read_seqcount_begin(&r->seq);
		ok = r->n == n && r->segs == segs &&
		     r->gen == READ_ONCE(priv->rc.gen) &&
		     time_before(jiffies, r->until) &&
		     !memcmp(r->node, node, (n + 2) * sizeof(*node));
	} while (read_seqcount_retry(&r->seq, seq));
	return ok;
}

/* n's MAC and slave, copied whole */
static void dsr_fp_neigh_link(const struct dsr_neigh *n, u8 *mac,
			      struct dsr_slave **slave)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&n->seq);
		ether_addr_copy(mac, n->mac);
		*slave = READ_ONCE(n->slave);
	} while (read_seqcount_retry(&n->seq, seq));
}

/*
 * Forward skb (a frame for us on slave s, data at its IP header, the IP
 * and DSR headers linear and checked, p its parsed DSR header) if it may
 * go the fast way (above).  True: done with skb (forwarded, or dropped
 * and counted).  False: nothing was changed; the caller takes the general
 * path.  Under RCU (the receive handler), without priv->lock.
 */
bool dsr_fp_forward(struct dsr_priv *priv, struct dsr_slave *s,
		    struct sk_buff *skb, const struct dsr_parsed *p)
{
	__be32 node[DSR_MAX_PATH + 2], self, next;
	unsigned int ihl = ip_hdrlen(skb), n, segs, tx_idx, mtu;
	u64 now = ktime_to_ms(ktime_get_coarse()), t;
	struct dsr_neigh *prev, *nh;
	struct dsr_slave *ps, *out;
	struct sk_buff_head q;
	struct iphdr *iph;
	u8 mac[ETH_ALEN];
	u16 bits;
	u8 *dh;

	if (!dsr_fp_shape(p) || READ_ONCE(priv->dead) || READ_ONCE(s->gone))
		return false;
	self = dsr_self(priv);
	iph = ip_hdr(skb);
	dh = skb->data + ihl;
	bits = dsr_srt_bits(dh, p->srt);
	segs = DSR_SRT_SEGS(bits);
	n = dsr_srt_naddr(dh, p->srt);
	if (!self || n > DSR_MAX_PATH || segs < 1 || segs > n ||
	    iph->ttl <= 1)
		return false;
	dsr_fp_nodes(iph, dh, p->srt, node);
	tx_idx = n - segs;
	/* the next address ours, the one after it not: we forward */
	if (dsr_is_self(priv, node[tx_idx]) ||
	    !dsr_is_self(priv, node[tx_idx + 1]) ||
	    dsr_is_self(priv, node[tx_idx + 2]))
		return false;
	if (tx_idx + 1 == n && DSR_P(priv, GATEWAY))
		return false;
	if (!dsr_fp_known(priv, node, n, segs) ||
	    dsr_maint_maybe(priv, iph))
		return false;

	prev = dsr_neigh_find(priv, node[tx_idx]);
	if (!prev || READ_ONCE(prev->mac_stale))
		return false;
	dsr_fp_neigh_link(prev, mac, &ps);
	if (ps != s || !ether_addr_equal(mac, eth_hdr(skb)->h_source))
		return false;
	/* heard now (its place in the list waits for the general path) */
	if (READ_ONCE(prev->heard) < now)
		WRITE_ONCE(prev->heard, now);

	next = node[tx_idx + 2];
	nh = dsr_neigh_find(priv, next);
	if (!nh || READ_ONCE(nh->mac_stale))
		return false;
	t = READ_ONCE(nh->confirmed);
	if (!t || now < t || now - t >= DSR_P(priv, MAINT_HOLDOFF_MS))
		return false;
	dsr_fp_neigh_link(nh, mac, &out);
	if (!out || READ_ONCE(out->gone))
		return false;
	mtu = READ_ONCE(out->dev->mtu);
	if (skb_is_gso(skb) ? !skb_gso_validate_network_len(skb, mtu) :
	    skb->len > mtu)
		return false;

	/* from here on the packet is ours to forward or drop */
	dsr_stat(priv, DSR_S_MAINT_HELD_OFF);
	if (dsr_skb_dup(priv, skb, p, DSR_DUP_FORWARD, segs,
			DSR_SRT_SALVAGE(bits), now)) {
		dsr_stat(priv, DSR_S_FWD_DUPLICATE);
		consume_skb(skb);
		return true;
	}
	if (dsr_must_copy(skb, ihl + p->len))
		dsr_stat(priv, DSR_S_FWD_COPIED);
	if (skb_ensure_writable(skb, ihl + p->len)) {
		dsr_stat(priv, DSR_S_NOMEM);
		kfree_skb(skb);
		return true;
	}
	dh = skb->data + ihl;
	dsr_srt_set_segs(dh, p->srt, segs - 1);
	dsr_fwd_hop(skb);
	iph = ip_hdr(skb);
	__skb_queue_head_init(&q);
	trace_dsr_recv(priv->dev, self, iph->saddr, iph->daddr, iph->id,
		       node[tx_idx], ntohs(iph->tot_len), false,
		       DSR_RX_CONSUMED);
	if (dsr_frame_to(priv, skb, out, mac, &q))
		return true;
	atomic64_inc(&nh->tx);
	dsr_stat(priv, DSR_S_FORWARDED);
	dsr_stat(priv, DSR_S_FWD_FAST);
	dsr_out_commit(priv, &q);
	dsr_out_flush(priv);
	return true;
}
