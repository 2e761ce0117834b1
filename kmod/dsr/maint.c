// SPDX-License-Identifier: GPL-2.0
/*
 * Route Maintenance (RFC 4728 section 8.3) when an acknowledgment does not
 * come: the timer of a packet in the Maintenance Buffer (maintbuf.c)
 * retransmits it, and after MaxMaintRexmt retransmissions the link is
 * broken: it leaves the route cache and enters hold-down, a Route Error
 * goes to each originator, and each packet is salvaged over another cached route if there is one --
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

static void dsr_retransmit(struct dsr_priv *priv, struct dsr_maint *m,
			   u64 now, struct sk_buff_head *out)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, m->nexthop);
	struct sk_buff *skb;

	m->tries++;
	/*
	 * The first explicit request gets an id, and the retransmissions
	 * after it keep it (section 8.3.3 asks an id unique over the packets
	 * sent to that next hop; a retransmission is the same packet): an
	 * Acknowledgment of an earlier copy that arrives after the next copy
	 * left still shows that the packet crossed.
	 */
	if (!m->explicit) {
		m->explicit = m->segs == 0 || m->segs == DSR_NO_SRT ||
			      m->tries > DSR_P(priv, TRY_PASSIVE_ACKS);
		if (m->explicit)
			m->ack_id = ++priv->ack_id;
	}
	m->sent = now;
	m->sent_us = 0;		/* never a sample (Karn) */
	m->deadline = now + dsr_neigh_rto(priv, n, m);
	trace_dsr_xmit(priv->dev, dsr_self(priv), m->saddr, m->daddr, m->ip_id,
		       m->nexthop, m->skb->len, m->tries, m->explicit,
		       m->deadline - now, m->segs);
	dsr_stat(priv, DSR_S_RETRANSMISSIONS);
	if (n)
		n->retx++;

	/* our own headers to write; a GSO unit's pages stay shared */
	skb = pskb_copy(m->skb, GFP_ATOMIC);
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
	DSR_CB(skb_peek_tail(out))->maint_seq = m->seq;
	/* shares the frame's data while the frame is in this host */
	kfree_skb(m->rtx);
	m->rtx = skb_clone(skb_peek_tail(out), GFP_ATOMIC);
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
	if (now - m->first >= (u64)DSR_HOLD_MAX_RTOS * DSR_P(priv, RTO_MAX_MS))
		return false;
	if (!dsr_maint_queued(m)) {
		if (!m->in_host)
			return false;
		/*
		 * It left the host after the previous expiry found it
		 * queued: perhaps a moment ago.  Its acknowledgment gets a
		 * whole timeout from here, as a copy sent from an empty
		 * queue gets one from its sending; without it a copy that
		 * left just before the timer fired was judged at once.
		 */
		m->in_host = false;
		dsr_stat(priv, DSR_S_LEFT_HOST_WAITED);
	} else {
		m->in_host = true;
		m->held = true;
		dsr_stat(priv, last ? DSR_S_BREAK_HELD : DSR_S_REXMT_HELD);
	}
	m->deadline = now + dsr_neigh_rto(priv,
					  dsr_neigh_find(priv, m->nexthop), m);
	return true;
}

/* What a failed packet tells its Route Error and the Blacklist. */
struct dsr_failed {
	__be32 rerr_dst;	/* the Route Error goes here (0: nowhere) */
	__be32 via;		/* our address its route named (section 8.4) */
	u8 salvage;
	bool rrep;		/* it carried a Route Reply */
	/* its Route Error and Acknowledgment options the Route Error takes */
	u8 carry[DSR_EXTRA_MAX - DSR_RERR_SIZE];
	size_t carry_len;
};

/*
 * A Route Error to f->rerr_dst: the link from us to unreachable is broken;
 * after it the options of the failed packet that it carries (8.3.4).
 */
static void dsr_send_rerr(struct dsr_priv *priv, const struct dsr_failed *f,
			  __be32 unreachable, struct sk_buff_head *out)
{
	u8 opt[DSR_RERR_SIZE + sizeof(f->carry)];
	__be32 hops[DSR_MAX_PATH];
	unsigned int n;

	n = dsr_rc_lookup(&priv->rc, f->rerr_dst, hops, dsr_now(priv));
	if (!n) {
		dsr_stat(priv, DSR_S_RERR_NO_ROUTE);
		return;
	}
	dsr_put_rerr(opt, f->salvage, f->via, f->rerr_dst, unreachable);
	memcpy(opt + DSR_RERR_SIZE, f->carry, f->carry_len);
	if (dsr_send_ctrl_routed(priv, 0, f->rerr_dst, hops, n, 0, opt,
				 DSR_RERR_SIZE + f->carry_len, out))
		return;
	dsr_stat(priv, DSR_S_RERR_SENT);
	if (f->carry_len)
		dsr_stat(priv, DSR_S_RERR_CARRIED);
}

/*
 * Section 8.3.4: the Route Error for a packet goes to its IP source, or,
 * once the packet was salvaged, to Address[1] of its source route (the
 * node that salvaged it), with the packet's Salvage value.  The broken
 * link is the one its route names: from the address of ours before the
 * next hop (a slave's, section 8.4).
 */
static void dsr_maint_failed(struct dsr_priv *priv, const struct dsr_maint *m,
			     struct dsr_failed *f)
{
	const struct sk_buff *skb = m->skb;
	unsigned int off = skb_network_offset(skb) + ip_hdrlen(skb);
	struct dsr_parsed p;
	const u8 *dh;

	f->rerr_dst = m->saddr;
	f->via = dsr_self(priv);
	f->salvage = 0;
	f->rrep = false;
	f->carry_len = 0;
	if (skb_headlen(skb) < off)
		return;
	dh = skb->data + off;
	if (dsr_parse(dh, skb_headlen(skb) - off, &p) != DSR_OK)
		return;
	f->rrep = p.n_rrep;
	if (p.srt) {
		unsigned int na = dsr_srt_naddr(dh, p.srt);
		__be32 via;

		if (m->segs <= na) {
			via = dsr_srt_node(dh, p.srt, m->saddr, m->daddr,
					   na - m->segs);
			if (dsr_is_self(priv, via))
				f->via = via;
		}
		f->salvage = DSR_SRT_SALVAGE(dsr_srt_bits(dh, p.srt));
		if (f->salvage && dsr_srt_naddr(dh, p.srt))
			f->rerr_dst = dsr_srt_node(dh, p.srt, m->saddr,
						   m->daddr, 1);
	}
	f->carry_len = dsr_rerr_carry(f->carry, sizeof(f->carry), dh, &p,
				      f->salvage,
				      DSR_P(priv, MAX_SALVAGE_COUNT));
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
	u64 now = dsr_now(priv);

	if (n && n->confirmed && now - n->confirmed < DSR_BL_SILENT_MS)
		return;
	if (!rrep && !(n && READ_ONCE(n->heard) >= first))
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
	n = dsr_rc_lookup(&priv->rc, m->daddr, hops, dsr_now(priv));
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
static void dsr_link_failed(struct dsr_priv *priv, __be32 nexthop,
			    struct sk_buff_head *out)
{
	__be32 self = dsr_self(priv), told[8];
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	struct dsr_maint *m, *tmp;
	unsigned int ntold = 0, i;
	u64 now = dsr_now(priv), first = now;
	struct dsr_failed f;
	LIST_HEAD(failed);
	bool rrep = false;

	dsr_stat(priv, DSR_S_LINK_FAILURES);
	/* perhaps it is there with another MAC now (dsr_neigh_heard()) */
	if (n)
		WRITE_ONCE(n->mac_stale, true);
	dsr_rc_del_link(&priv->rc, self, nexthop);
	if (DSR_P(priv, LINK_HOLDDOWN_MS))
		dsr_neg_add(&priv->rc, self, nexthop,
			    now + DSR_P(priv, LINK_HOLDDOWN_MS));
	dsr_event(priv, DSR_EVENT_LINK_BROKEN, self, nexthop, 0, NULL, 0);
	trace_dsr_route(priv->dev, DSR_EVENT_LINK_BROKEN, self, nexthop, 0);

	list_for_each_entry_safe(m, tmp, &priv->maint, list)
		if (m->nexthop == nexthop) {
			dsr_maint_unhash(priv, m);
			list_move_tail(&m->list, &failed);
		}
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
				dsr_send_rerr(priv, &f, nexthop, out);
			}
		}
		dsr_maint_reroute(priv, m, out);
		kfree_skb(m->rtx);
		kfree(m);
	}
	dsr_maint_blacklist(priv, nexthop, first, rrep);
}

/*
 * m ran out of retransmissions, yet the link is not what failed: m was
 * lost to a full queue (congestion), its own or the next hop's.  With
 * congestion_drop only m is dropped; breaking the link would cost every
 * flow over it a Route Discovery and link_holddown_ms of hold-down.  The
 * link worked after m was sent if
 * - a packet first sent after m has been acknowledged by the same next
 *   hop.  "After" by the order of first sending (seq), not by the clock:
 *   at the coarse clock's resolution (a tick, 4 ms at HZ=250) a flow sends
 *   several packets with the same time, and a later one's ack must count
 *   too; or
 * - the next hop's own frames kept reaching us after m's last
 *   transmission, and it acknowledged something within DSR_BL_SILENT_MS.
 *   A sparse flow has no later packet to show the link: the Route Errors
 *   and ICMP errors that go back towards a source whose node sends a
 *   stream, whose acknowledgments wait behind that stream in its full
 *   queue (medium.sh's congestion case broke a link that way, 2 in 6 runs
 *   beside another guest).  A link that went one-way (we hear the node, it
 *   no longer hears us) acknowledges nothing: within DSR_BL_SILENT_MS its
 *   packets break it, and the Blacklist takes it, as before.
 * A link that stopped working acknowledges nothing sent later and its node
 * is no longer heard, so its break is still found, at most one packet
 * later.
 */
static bool dsr_maint_congested(struct dsr_priv *priv,
				const struct dsr_maint *m, u64 now)
{
	const struct dsr_neigh *n;

	if (!DSR_P(priv, CONGESTION_DROP))
		return false;
	n = dsr_neigh_find(priv, m->nexthop);
	if (!n)
		return false;
	if (n->crossed > m->seq)
		return true;
	return READ_ONCE(n->heard) > m->sent && n->confirmed &&
	       now - n->confirmed < DSR_BL_SILENT_MS;
}

/*
 * m ran out of retransmissions and nothing sent after it has been
 * acknowledged yet, but a packet sent after it to the same next hop is
 * still in this host's queue: whether the link carries later frames is
 * not known yet.  On a congested medium a copy the full queue drops
 * leaves this host at once, and so do its retransmissions when the queue
 * drops them too: m can use up its retransmissions while the packets the
 * queue took still wait, longer than m's whole retransmission budget, and
 * only they can show that the link works.  m then waits for them, as a
 * queued m waits in dsr_maint_hold() and within the same bound.  *nh and
 * *seq remember the queued packet found on an earlier call in this timer
 * run, so that expiring packets do not each walk the list.
 */
static bool dsr_maint_later_queued(struct dsr_priv *priv, struct dsr_maint *m,
				   u64 now, __be32 *nh, u64 *seq)
{
	struct dsr_maint *l = m;

	if (!DSR_P(priv, CONGESTION_DROP) ||
	    now - m->first >= (u64)DSR_HOLD_MAX_RTOS * DSR_P(priv, RTO_MAX_MS))
		return false;
	if (*nh == m->nexthop && *seq > m->seq)
		return true;
	list_for_each_entry_continue(l, &priv->maint, list) {
		if (l->nexthop == m->nexthop && dsr_maint_queued(l)) {
			*nh = l->nexthop;
			*seq = l->seq;
			return true;
		}
	}
	return false;
}

enum { DSR_V_CONGESTED, DSR_V_HELD, DSR_V_BROKEN };

/* ms from then to now, -1 for never (0) */
static int dsr_ago(u64 now, u64 then)
{
	return then ? (int)min_t(u64, now - then, INT_MAX) : -1;
}

/* the tracepoint of a packet out of retransmissions (trace.h) */
static void dsr_trace_verdict(struct dsr_priv *priv,
			      const struct dsr_maint *m, u64 now, int verdict)
{
	const struct dsr_neigh *n;

	if (!trace_dsr_maint_verdict_enabled())
		return;
	n = dsr_neigh_find(priv, m->nexthop);
	trace_dsr_maint_verdict(priv->dev, dsr_self(priv), m->saddr, m->daddr,
				m->ip_id, m->nexthop, verdict, m->tries,
				n && n->crossed > m->seq,
				n ? dsr_ago(now, READ_ONCE(n->heard)) : -1,
				dsr_ago(now, m->sent),
				n ? dsr_ago(now, n->confirmed) : -1);
}

void dsr_maint_tick(struct dsr_priv *priv, u64 now, struct sk_buff_head *out)
{
	struct dsr_maint *m, *tmp;
	__be32 broken = 0, queued_nh = 0;
	u64 queued_seq = 0;

	list_for_each_entry_safe(m, tmp, &priv->maint, list) {
		if (m->deadline > now || dsr_maint_hold(priv, m, now))
			continue;
		if (m->tries > DSR_P(priv, MAX_MAINT_REXMT)) {
			if (dsr_maint_congested(priv, m, now)) {
				dsr_trace_verdict(priv, m, now,
						  DSR_V_CONGESTED);
				dsr_stat(priv, DSR_S_CONGESTION_DROPS);
				dsr_maint_free(priv, m);
				continue;
			}
			if (dsr_maint_later_queued(priv, m, now, &queued_nh,
						   &queued_seq)) {
				dsr_trace_verdict(priv, m, now, DSR_V_HELD);
				dsr_stat(priv, DSR_S_BREAK_HELD);
				m->held = true;
				m->deadline = now + dsr_neigh_rto(priv,
					dsr_neigh_find(priv, m->nexthop), m);
				continue;
			}
			dsr_trace_verdict(priv, m, now, DSR_V_BROKEN);
			broken = m->nexthop;
			break;
		}
		dsr_retransmit(priv, m, now, out);
	}
	if (broken)
		dsr_link_failed(priv, broken, out);
}
