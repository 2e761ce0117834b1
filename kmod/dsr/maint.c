// SPDX-License-Identifier: GPL-2.0
/*
 * Route Maintenance (RFC 4728 section 8.3): every packet we originate or
 * forward stays in the Maintenance Buffer until its next hop acknowledges
 * it, passively (we overhear the next hop forward it) or with an explicit
 * Acknowledgment.  The first TryPassiveAcks transmissions on a hop that
 * is not the last rely on passive acknowledgment; later ones, and every
 * transmission over a last hop, carry an Acknowledgment Request.  After
 * MaxMaintRexmt retransmissions the link is broken: it leaves the route
 * cache and enters hold-down, a Route Error goes to each originator, and
 * each packet is salvaged over another cached route if there is one --
 * unless a packet sent later has crossed that link meanwhile: then only
 * the packet is dropped, lost to congestion (congestion_drop).
 * A transmission still in our own interface queue has not tested the link:
 * its expiry never breaks the link and, with hold_queued, is not
 * retransmitted either (dsr_maint_hold()).
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/pkt_sched.h>
#include <net/ip.h>

#include "dsr.h"
#include "trace.h"

static void dsr_maint_free(struct dsr_priv *priv, struct dsr_maint *m)
{
	list_del(&m->list);
	priv->n_maint--;
	kfree_skb(m->skb);
	kfree_skb(m->rtx);
	kfree(m);
}

/*
 * Whether the next transmission to nexthop carries an Acknowledgment
 * Request, and (*track) whether the packet is kept for retransmission: a
 * last hop confirmed within MaintHoldoffTime is trusted without either.
 */
bool dsr_maint_want_ack(struct dsr_priv *priv, __be32 nexthop,
			bool last_hop, bool *track)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	u64 holdoff = DSR_P(priv, MAINT_HOLDOFF_MS);

	*track = true;
	if (!last_hop && DSR_P(priv, TRY_PASSIVE_ACKS))
		return false;
	if (last_hop && n && n->confirmed &&
	    dsr_now() - n->confirmed < holdoff) {
		*track = false;
		return false;
	}
	return true;
}

/*
 * Keep a clone of frame (just queued for sending) until it is acked.  segs:
 * the Segments Left it carries, DSR_NO_SRT without a source route.
 */
void dsr_maint_track(struct dsr_priv *priv, struct sk_buff *frame,
		     __be32 nexthop, bool explicit, u16 ack_id, u8 segs)
{
	const struct iphdr *iph = ip_hdr(frame);
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	struct dsr_maint *m;

	if (priv->n_maint >= DSR_P(priv, REXMT_BUFFER_SIZE)) {
		dsr_stat(priv, DSR_S_MAINT_BUFFER_FULL);
		return;
	}
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
	m->ack_id = ack_id;
	m->sent = dsr_now();
	m->first = m->sent;
	m->sent_us = dsr_now_us();
	m->deadline = m->sent + dsr_neigh_rto(priv, n, m);
	trace_dsr_xmit(priv->dev, dsr_self(priv), m->saddr, m->daddr, m->ip_id,
		       nexthop, frame->len, 1, explicit, m->deadline - m->sent,
		       segs);
	list_add_tail(&m->list, &priv->maint);
	priv->n_maint++;
	dsr_kick(priv);
	return;
nomem:
	dsr_stat(priv, DSR_S_NOMEM);
}

/* CMU: a packet identical to one we still hold is a duplicate. */
bool dsr_maint_dup(struct dsr_priv *priv, const struct iphdr *iph)
{
	struct dsr_maint *m;

	list_for_each_entry(m, &priv->maint, list)
		if (dsr_same_ip(iph, m->saddr, m->daddr, m->ip_id,
				m->frag_off))
			return true;
	return false;
}

/*
 * Whether a packet that must be tracked has room in the Maintenance
 * Buffer; if not, it is not to be sent (section 4.5): counted here.
 */
bool dsr_maint_room(struct dsr_priv *priv)
{
	if (priv->n_maint < DSR_P(priv, REXMT_BUFFER_SIZE))
		return true;
	dsr_stat(priv, DSR_S_MAINT_BUFFER_FULL);
	dev_core_stats_tx_dropped_inc(priv->dev);
	return false;
}

/* m's next hop acknowledged it: the link works both ways (section 4.6) */
static void dsr_confirmed(struct dsr_priv *priv, const struct dsr_maint *m)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, m->nexthop);

	if (dsr_bl_del(&priv->bl, m->nexthop))
		dsr_stat(priv, DSR_S_BLACKLIST_CLEARED);
	if (n) {
		n->confirmed = dsr_now();
		n->crossed = max(n->crossed, m->first);
		n->acked++;
	}
}

/* True if the acknowledgment matched a packet we sent. */
bool dsr_maint_ack(struct dsr_priv *priv, __be32 from, u16 id)
{
	struct dsr_maint *m;

	list_for_each_entry(m, &priv->maint, list) {
		if (m->nexthop == from && m->explicit && m->ack_id == id) {
			trace_dsr_ack(priv->dev, dsr_self(priv), from, false,
				      dsr_now() - m->sent, m->tries,
				      dsr_now() - m->first, m->saddr, m->daddr,
				      m->ip_id);
			dsr_neigh_rtt_sample(priv, m);
			dsr_confirmed(priv, m);
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

	list_for_each_entry(m, &priv->maint, list) {
		if (!dsr_same_ip(iph, m->saddr, m->daddr, m->ip_id,
				 m->frag_off) ||
		    m->segs == DSR_NO_SRT || segs < 0 || segs >= m->segs)
			continue;
		dsr_confirmed(priv, m);
		trace_dsr_ack(priv->dev, dsr_self(priv), m->nexthop, true,
			      dsr_now() - m->sent, m->tries,
			      dsr_now() - m->first, m->saddr, m->daddr,
			      m->ip_id);
		dsr_neigh_rtt_sample(priv, m);
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
			dsr_put16(dh + p.areq + 2, id);
		} else {
			dh[p.areq] = DSR_OPT_PADN;
			dsr_put16(dh + p.areq + 2, 0);
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
	dsr_put16(dh + 2, p.len + DSR_AREQ_SIZE - DSR_HDR_LEN);
	iph = ip_hdr(skb);
	iph->tot_len = htons(ntohs(iph->tot_len) + DSR_AREQ_SIZE);
	ip_send_check(iph);
	return 0;
}

static void dsr_retransmit(struct dsr_priv *priv, struct dsr_maint *m,
			   u64 now, struct sk_buff_head *out)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, m->nexthop);
	struct sk_buff *skb;

	m->tries++;
	m->explicit = m->segs == 0 || m->segs == DSR_NO_SRT ||
		      m->tries > DSR_P(priv, TRY_PASSIVE_ACKS);
	if (m->explicit)
		m->ack_id = ++priv->ack_id;
	m->sent = now;
	m->sent_us = dsr_now_us();
	m->deadline = now + dsr_neigh_rto(priv, n, m);
	trace_dsr_xmit(priv->dev, dsr_self(priv), m->saddr, m->daddr, m->ip_id,
		       m->nexthop, m->skb->len, m->tries, m->explicit,
		       m->deadline - now, m->segs);
	dsr_stat(priv, DSR_S_RETRANSMISSIONS);
	if (n)
		n->retx++;

	skb = skb_copy(m->skb, GFP_ATOMIC);
	if (!skb) {
		dsr_stat(priv, DSR_S_NOMEM);
		return;
	}
	skb_pull(skb, skb_network_offset(skb));
	/* the top band of sch_dsrprio: a retransmission waits behind no data */
	skb->priority = TC_PRIO_CONTROL;
	if (dsr_set_areq(skb, NULL, m->explicit, m->ack_id)) {
		kfree_skb(skb);
		return;
	}
	if (m->explicit)
		dsr_stat(priv, DSR_S_ACK_REQ_SENT);
	if (dsr_frame(priv, skb, m->nexthop, out))
		return;
	/* shares the frame's data while the frame is in this host */
	kfree_skb(m->rtx);
	m->rtx = skb_clone(skb_peek_tail(out), GFP_ATOMIC);
}

/*
 * Whether the last transmission of m is still in this host: in the
 * slave's qdisc or its driver, not yet on the medium.  The clone we keep
 * shares its data with the frame handed to the device until the device
 * (or, on a veth, the receiver) lets go of that frame.  Without a clone of
 * a retransmission (no memory), the first transmission tells.
 */
static bool dsr_maint_queued(const struct dsr_maint *m)
{
	return skb_cloned(m->rtx ?: m->skb);
}

/*
 * The timer of m expired.  If its last transmission is still in our own
 * interface queue (a driver that does not service it, a congested
 * medium), nothing has reached the next hop: the link is not at fault, so
 * a last expiry waits instead of breaking it, and with hold_queued no
 * retransmission joins the queue behind the first copy either (Linux TCP:
 * skb_still_in_host_queue()).  The timer is armed again.  A queue that has
 * not moved for DSR_HOLD_MAX_RTOS times rto_max_ms is no longer waited
 * for.  Returns true if m was held.
 */
static bool dsr_maint_hold(struct dsr_priv *priv, struct dsr_maint *m,
			   u64 now)
{
	bool last = m->tries > DSR_P(priv, MAX_MAINT_REXMT);

	if (!last && !DSR_P(priv, HOLD_QUEUED))
		return false;
	if (now - m->first >= (u64)DSR_HOLD_MAX_RTOS * DSR_P(priv, RTO_MAX_MS) ||
	    !dsr_maint_queued(m))
		return false;
	dsr_stat(priv, last ? DSR_S_BREAK_HELD : DSR_S_REXMT_HELD);
	m->held = true;
	m->deadline = now + dsr_neigh_rto(priv,
					  dsr_neigh_find(priv, m->nexthop), m);
	return true;
}

/* A Route Error to dst: the link from us to unreachable is broken. */
static void dsr_send_rerr(struct dsr_priv *priv, __be32 dst, u8 salvage,
			  __be32 unreachable, struct sk_buff_head *out)
{
	__be32 hops[DSR_MAX_PATH];
	u8 opt[DSR_RERR_SIZE];
	unsigned int n;

	n = dsr_rc_lookup(&priv->rc, dst, hops, dsr_now());
	if (!n) {
		dsr_stat(priv, DSR_S_RERR_NO_ROUTE);
		return;
	}
	dsr_put_rerr(opt, salvage, dsr_self(priv), dst, unreachable);
	if (!dsr_send_ctrl_routed(priv, dst, hops, n, opt, sizeof(opt), out))
		dsr_stat(priv, DSR_S_RERR_SENT);
}

/* What a failed packet tells its Route Error and the Blacklist. */
struct dsr_failed {
	__be32 rerr_dst;	/* the Route Error goes here (0: nowhere) */
	u8 salvage;
	bool rrep;		/* it carried a Route Reply */
};

/*
 * Section 8.3.4: the Route Error for a packet goes to its IP source, or,
 * once the packet was salvaged, to Address[1] of its source route (the
 * node that salvaged it), with the packet's Salvage value.
 */
static void dsr_maint_failed(struct dsr_priv *priv, const struct dsr_maint *m,
			     struct dsr_failed *f)
{
	const struct sk_buff *skb = m->skb;
	unsigned int off = skb_network_offset(skb) + ip_hdrlen(skb);
	struct dsr_parsed p;
	const u8 *dh;

	f->rerr_dst = m->saddr;
	f->salvage = 0;
	f->rrep = false;
	if (skb_headlen(skb) < off)
		return;
	dh = skb->data + off;
	if (dsr_parse(dh, skb_headlen(skb) - off, &p) != DSR_OK)
		return;
	f->rrep = p.n_rrep;
	if (p.srt) {
		f->salvage = DSR_SRT_SALVAGE(dsr_srt_bits(dh, p.srt));
		if (f->salvage && dsr_srt_naddr(dh, p.srt))
			f->rerr_dst = dsr_srt_node(dh, p.srt, m->saddr,
						   m->daddr, 1);
	}
}

/*
 * Section 4.6: nexthop acknowledged nothing for DSR_BL_SILENT_MS, yet its
 * frames reach us (we heard it since the first of its failed packets was
 * sent), or what failed was a Route Reply, sent back over a link a Route
 * Request came across: the link may be unidirectional.  A lossy link
 * that still acknowledges some of what we send is not.
 */
static void dsr_maint_blacklist(struct dsr_priv *priv, __be32 nexthop,
				u64 first, bool rrep)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	u64 now = dsr_now();

	if (n && n->confirmed && now - n->confirmed < DSR_BL_SILENT_MS)
		return;
	if (!rrep && !(n && n->heard > first))
		return;
	dsr_bl_add(&priv->bl, nexthop, now, DSR_BL_PROBABLE_MS,
		   DSR_BL_LIFE_MS);
	dsr_stat(priv, DSR_S_BLACKLIST_ADDED);
}

/*
 * The packet of m could not cross its link.  Ours: route it again (or
 * queue it for discovery).  Forwarded: salvage it over another cached route
 * (section 8.3.6), with a source route starting at us, or drop it.
 */
static void dsr_maint_reroute(struct dsr_priv *priv, struct dsr_maint *m,
			      struct sk_buff_head *out)
{
	struct sk_buff *skb = m->skb;
	__be32 hops[DSR_MAX_PATH];
	struct dsr_parsed p;
	unsigned int n;
	u8 salvage = 0;
	const u8 *dh;

	m->skb = NULL;
	skb_pull(skb, skb_network_offset(skb));
	if (skb_unclone(skb, GFP_ATOMIC))
		goto drop;
	dh = skb->data + ip_hdrlen(skb);
	if (dsr_parse(dh, skb_headlen(skb) - ip_hdrlen(skb), &p) != DSR_OK)
		goto drop;
	if (p.srt)
		salvage = DSR_SRT_SALVAGE(dsr_srt_bits(dh, p.srt));
	if (p.n_rrep || p.n_rerr || p.next_header == DSR_NO_NEXT_HEADER)
		goto drop;	/* control packets are not salvaged */
	if (dsr_strip_hdr(skb, &p))
		goto drop;
	if (m->saddr == dsr_self(priv)) {
		dsr_stat(priv, DSR_S_REROUTED);
		dsr_route_or_queue(priv, skb, out);
		return;
	}
	n = dsr_rc_lookup(&priv->rc, m->daddr, hops, dsr_now());
	if (!n || salvage >= DSR_P(priv, MAX_SALVAGE_COUNT) ||
	    n > DSR_MAX_PATH - 1) {
		dsr_stat(priv, DSR_S_SALVAGE_FAILED);
		goto drop;
	}
	dsr_stat(priv, DSR_S_SALVAGED);
	dsr_send_routed(priv, skb, hops, n, DSR_SEND_SELF_FIRST, salvage + 1,
			NULL, 0, out);
	return;
drop:
	kfree_skb(skb);
}

/* nexthop did not acknowledge: section 8.3.4 to 8.3.6. */
void dsr_link_failed(struct dsr_priv *priv, __be32 nexthop,
		     struct sk_buff_head *out)
{
	__be32 self = dsr_self(priv), told[8];
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	struct dsr_maint *m, *tmp;
	unsigned int ntold = 0, i;
	u64 now = dsr_now(), first = now;
	struct dsr_failed f;
	LIST_HEAD(failed);
	bool rrep = false;

	dsr_stat(priv, DSR_S_LINK_FAILURES);
	/* perhaps it is there with another MAC now (dsr_neigh_heard()) */
	if (n)
		n->mac_stale = true;
	dsr_rc_del_link(&priv->rc, self, nexthop);
	if (DSR_P(priv, LINK_HOLDDOWN_MS))
		dsr_neg_add(&priv->rc, self, nexthop,
			    now + DSR_P(priv, LINK_HOLDDOWN_MS));
	dsr_event(priv, DSR_EVENT_LINK_BROKEN, self, nexthop, 0, NULL, 0);
	trace_dsr_route(priv->dev, DSR_EVENT_LINK_BROKEN, self, nexthop, 0);

	list_for_each_entry_safe(m, tmp, &priv->maint, list)
		if (m->nexthop == nexthop)
			list_move_tail(&m->list, &failed);
	list_for_each_entry_safe(m, tmp, &failed, list) {
		priv->n_maint--;
		list_del(&m->list);
		dsr_maint_failed(priv, m, &f);
		rrep |= f.rrep;
		first = min(first, m->first);
		if (f.rerr_dst != self) {
			for (i = 0; i < ntold && told[i] != f.rerr_dst; i++)
				;
			if (i == ntold && ntold < ARRAY_SIZE(told)) {
				told[ntold++] = f.rerr_dst;
				dsr_send_rerr(priv, f.rerr_dst, f.salvage,
					      nexthop, out);
			}
		}
		dsr_maint_reroute(priv, m, out);
		kfree_skb(m->rtx);
		kfree(m);
	}
	dsr_maint_blacklist(priv, nexthop, first, rrep);
}

/*
 * m ran out of retransmissions, but a packet first sent after it has since
 * been acknowledged by the same next hop: the link carried frames after m
 * was sent, so m was lost to a full queue (congestion), not to the link.
 * With congestion_drop only m is dropped; breaking the link would cost
 * every flow over it a Route Discovery and link_holddown_ms of hold-down.
 * A link that stopped working acknowledges nothing sent later, so its
 * break is still found, at most one packet later.
 */
static bool dsr_maint_congested(struct dsr_priv *priv,
				const struct dsr_maint *m)
{
	const struct dsr_neigh *n;

	if (!DSR_P(priv, CONGESTION_DROP))
		return false;
	n = dsr_neigh_find(priv, m->nexthop);
	return n && n->crossed > m->first;
}

void dsr_maint_tick(struct dsr_priv *priv, u64 now, struct sk_buff_head *out)
{
	struct dsr_maint *m, *tmp;
	__be32 broken = 0;

	list_for_each_entry_safe(m, tmp, &priv->maint, list) {
		if (m->deadline > now || dsr_maint_hold(priv, m, now))
			continue;
		if (m->tries > DSR_P(priv, MAX_MAINT_REXMT)) {
			if (!dsr_maint_congested(priv, m)) {
				broken = m->nexthop;
				break;
			}
			dsr_stat(priv, DSR_S_CONGESTION_DROPS);
			dsr_maint_free(priv, m);
			continue;
		}
		dsr_retransmit(priv, m, now, out);
	}
	if (broken)
		dsr_link_failed(priv, broken, out);
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
