// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving (RFC 4728 section 8.1.4).  Every protocol 48 frame a slave
 * receives comes to one place, dsr_slave_rx(), behind macfilter's
 * rx_handler (macfilter_next.h), as soon as macfilter let it pass and
 * before any protocol handler: frames for us (unicast to our MAC, or
 * broadcast) to be delivered or forwarded, and frames for other nodes that
 * the promiscuous slave overhears, which only teach us (neighbours,
 * routes, passive acknowledgments).  IP never sees them, and nobody else
 * holds a frame for us (unless a packet tap does): it is forwarded in
 * place, not copied.  Every other frame goes on to the protocols untouched.
 */
#include <linux/etherdevice.h>
#include <linux/icmp.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <net/ip.h>
#include <net/route.h>

#include "ah_compat.h"
#include "dsr.h"
#include "trace.h"

struct dsr_rx_ctx {
	struct dsr_priv *priv;
	struct dsr_slave *slave;
	struct sk_buff *skb;
	const struct dsr_parsed *p;
	const u8 *dh;
	__be32 self, src, dst, tx;
	int n, segs;		/* source route: addresses, Segments Left */
	int tx_idx;		/* transmitter's index on the source route */
	/*
	 * Ours on it: from tx_idx + 1 to me_idx (several with several
	 * slaves, section 8.4; n + 1 at the destination), me_addr the
	 * address the transmitter sent to
	 */
	int me_idx;
	__be32 me_addr;
	bool overheard;
	struct sk_buff_head *out;
};

static __be32 dsr_node(const struct dsr_rx_ctx *c, int i)
{
	return dsr_srt_node(c->dh, c->p->srt, c->src, c->dst, i);
}

static void dsr_bad(struct dsr_priv *priv, enum dsr_bad bad)
{
	dsr_stat(priv, DSR_S_BAD_FIRST + bad - 1);
	dev_core_stats_rx_dropped_inc(priv->dev);
}

/* ---- routes we learn from what we hear ------------------------------------- */

/*
 * Learn nodes from..to (either direction) of the source route; nothing
 * from a span that names an address of ours (any of them, section 8.4:
 * the route cache knows only the home address), as a route through us
 * was never learned.
 */
static void dsr_learn_span(struct dsr_rx_ctx *c, int from, int to)
{
	__be32 hops[DSR_MAX_PATH];
	int step = from <= to ? 1 : -1, i;
	unsigned int n = 0;

	for (i = from; n < DSR_MAX_PATH; i += step) {
		hops[n] = dsr_node(c, i);
		if (dsr_is_self(c->priv, hops[n++]))
			return;
		if (i == to)
			break;
	}
	if (i == to)
		dsr_learn(c->priv, hops, n, 0);
}

static void dsr_learn_srt(struct dsr_rx_ctx *c, bool me)
{
	int lo = DSR_SRT_SALVAGE(dsr_srt_bits(c->dh, c->p->srt)) ? 1 : 0;
	int hi = c->n + 1;

	if (me) {
		if (c->me_idx < hi)
			dsr_learn_span(c, c->me_idx + 1, hi);
		if (c->tx_idx >= lo)
			dsr_learn_span(c, c->tx_idx, lo);
	} else {
		dsr_learn_span(c, c->tx_idx, hi);
		if (c->tx_idx > lo)
			dsr_learn_span(c, c->tx_idx, lo);
	}
}

/* ---- Route Request (8.2.2) ------------------------------------------------- */

static unsigned int dsr_next_mtu(struct dsr_priv *priv, __be32 next);

static bool dsr_outside(struct dsr_priv *priv, __be32 a)
{
	u32 plen = DSR_P(priv, SUBNET_PREFIX);
	__be32 net = DSR_P(priv, SUBNET), mask;

	if (!plen || !net)
		return false;
	mask = inet_make_mask(plen);
	return (a & mask) != (net & mask);
}

/*
 * Propagate c's Route Request with the route rec[0..n-1] recorded, and
 * with the packet's payload if it carries one (a copy of the entire
 * packet, section 8.2.2) and that still fits the slave's MTU: on slave
 * only, or (NULL) on every slave.
 */
static void dsr_rreq_forward(struct dsr_rx_ctx *c, const __be32 *rec,
			     unsigned int n, u16 id, __be32 target,
			     struct dsr_slave *only)
{
	struct dsr_priv *priv = c->priv;
	size_t len = DSR_HDR_LEN + DSR_RREQ_SIZE(n);
	u32 jitter = DSR_P(priv, BROADCAST_JITTER_MS);
	unsigned int off = ip_hdrlen(c->skb) + c->p->len, i, o;
	unsigned int plen = ntohs(ip_hdr(c->skb)->tot_len) - off;
	u8 nh = c->p->next_header;
	struct sk_buff *skb;
	u8 *dh;

	if (ip_hdr(c->skb)->ttl <= 1) {
		dsr_stat(priv, DSR_S_RREQ_HOP_LIMIT);
		return;
	}
	if (n > DSR_MAX_PATH - 1 ||
	    skb_queue_len(&priv->fwdq) >= DSR_MAX_FWDQ) {
		dsr_stat(priv, DSR_S_RREQ_QUEUE_FULL);
		return;
	}
	/*
	 * The packet goes on as it came (section 8.2.2: "a copy of this
	 * entire packet"): with the Route Errors it carries (3.4.4), which
	 * every node on the way takes out of its cache before it answers.
	 */
	for (i = 0; i < c->p->n_rerr; i++)
		len += 2 + dsr_opt_len(c->dh, c->p->rerr[i]);
	if (nh == DSR_NO_NEXT_HEADER ||
	    sizeof(struct iphdr) + len + plen >
	    (only ? only->dev->mtu : dsr_next_mtu(priv, 0))) {
		if (nh != DSR_NO_NEXT_HEADER)
			dsr_stat(priv, DSR_S_TX_TOO_BIG);
		nh = DSR_NO_NEXT_HEADER;
		plen = 0;
	}
	skb = dsr_ctrl_alloc(priv, len + plen, c->src, htonl(INADDR_BROADCAST),
			     ip_hdr(c->skb)->ttl - 1);
	if (!skb)
		return;
	ip_hdr(skb)->id = ip_hdr(c->skb)->id;
	ip_send_check(ip_hdr(skb));
	dh = skb_network_header(skb) + sizeof(struct iphdr);
	dsr_put_hdr(dh, nh);
	dsr_put_rreq(dh + DSR_HDR_LEN, id, target, rec, n);
	for (i = 0, o = DSR_HDR_LEN + DSR_RREQ_SIZE(n); i < c->p->n_rerr; i++) {
		size_t olen = 2 + dsr_opt_len(c->dh, c->p->rerr[i]);

		memcpy(dh + o, c->dh + c->p->rerr[i], olen);
		o += olen;
	}
	dsr_finish(dh, len);
	if (skb_copy_bits(c->skb, off, dh + len, plen)) {
		kfree_skb(skb);
		return;
	}
	DSR_CB(skb)->time = dsr_now(priv) + (jitter ? get_random_u32() % jitter : 0);
	DSR_CB(skb)->ifindex = only ? only->dev->ifindex : 0;
	__skb_queue_tail(&priv->fwdq, skb);
	dsr_stat(priv, DSR_S_RREQ_FORWARDED);
	dsr_kick(priv);
}

/*
 * Section 8.4: the request came in on c->slave, recorded rec[0..n-1]; out
 * of each slave it goes with the incoming slave's address appended, and,
 * out of a slave known by another address, that one's too.  Without
 * slave addresses every slave is known by the home address: one copy,
 * one address.  rec has room for two more.
 */
static void dsr_rreq_propagate(struct dsr_rx_ctx *c, __be32 *rec,
			       unsigned int n, u16 id, __be32 target)
{
	struct dsr_priv *priv = c->priv;
	__be32 in = dsr_if_addr(priv, c->slave);
	struct dsr_slave *s;

	rec[n] = in;
	if (!READ_ONCE(priv->n_if_addrs)) {
		dsr_rreq_forward(c, rec, n + 1, id, target, NULL);
		return;
	}
	list_for_each_entry(s, &priv->slaves, list) {
		rec[n + 1] = dsr_if_addr(priv, s);
		dsr_rreq_forward(c, rec, rec[n + 1] == in ? n + 1 : n + 2, id,
				 target, s);
	}
}

/*
 * The address of ours that a source route names before next (section
 * 8.4): that of the slave which reaches it, if not the incoming one's.
 */
static __be32 dsr_out_addr(struct dsr_rx_ctx *c, __be32 next)
{
	struct dsr_neigh *n = dsr_neigh_find(c->priv, next);

	return n ? dsr_if_addr(c->priv, n->slave) :
		   dsr_if_addr(c->priv, c->slave);
}

/*
 * Whether a valid Route Request is taken further (ratelimit.h): its
 * transmitter's MAC, its initiator and all requests together each have
 * tokens left.  A request turned away teaches, answers and forwards
 * nothing.
 */
static bool dsr_rreq_admit(struct dsr_rx_ctx *c)
{
	struct dsr_priv *priv = c->priv;
	u64 now = dsr_now(priv);

	if (dsr_rl_allow(&priv->rl_neigh, eth_hdr(c->skb)->h_source, ETH_ALEN,
			 now) &&
	    dsr_rl_allow(&priv->rl_init, &c->src, sizeof(c->src), now) &&
	    dsr_rl_allow_one(&priv->rl_all, DSR_RREQ_RATE_ALL,
			     DSR_RREQ_RATE_ALL, now))
		return true;
	dsr_stat(priv, DSR_S_RREQ_RATE_LIMITED);
	return false;
}

/*
 * Section 4.6: unicast the previous hop a Route Request for itself, with
 * TTL 1; its Route Reply clears it from the Blacklist (dsr_rx_rrep()).
 */
static void dsr_bl_send_probe(struct dsr_rx_ctx *c)
{
	struct dsr_priv *priv = c->priv;
	size_t len = DSR_HDR_LEN + DSR_RREQ_SIZE(0);
	struct sk_buff *skb;
	u8 *dh;

	skb = dsr_ctrl_alloc(priv, len, c->self, c->tx, 1);
	if (!skb)
		return;
	dh = skb_network_header(skb) + sizeof(struct iphdr);
	dsr_put_hdr(dh, DSR_NO_NEXT_HEADER);
	dsr_put_rreq(dh + DSR_HDR_LEN, ++priv->rreq_id, c->tx, NULL, 0);
	dsr_finish(dh, len);
	if (!dsr_frame(priv, skb, c->tx, c->out))
		dsr_stat(priv, DSR_S_BLACKLIST_PROBES);
}

/*
 * Whether c's Route Request came over a link on the Blacklist: it is
 * discarded, and over a questionable link the previous hop is probed.
 * Unlike section 8.2.2's order, the target looks too: its reply would
 * return over the very link that does not carry unicasts.
 */
static bool dsr_rreq_blacklisted(struct dsr_rx_ctx *c)
{
	struct dsr_priv *priv = c->priv;
	u64 now = dsr_now(priv);

	switch (dsr_bl_state(&priv->bl, c->tx, now)) {
	case DSR_BL_NONE:
		return false;
	case DSR_BL_QUESTIONABLE:
		if (dsr_bl_probe(&priv->bl, c->tx, now, DSR_BL_PROBE_MS))
			dsr_bl_send_probe(c);
		break;
	case DSR_BL_PROBABLE:
		break;
	}
	dsr_stat(priv, DSR_S_RREQ_BLACKLISTED);
	return true;
}

/* True if the request was for us (and answered). */
static bool dsr_rx_rreq(struct dsr_rx_ctx *c)
{
	struct dsr_priv *priv = c->priv;
	u16 off = c->p->rreq, id = dsr_rreq_id(c->dh, off);
	unsigned int n = dsr_rreq_naddr(c->dh, off), i, k, m;
	__be32 target = dsr_rreq_target(c->dh, off), in, out;
	/*
	 * rec: initiator, Address[1..n], then room for our addresses (two:
	 * section 8.4) and a cached route
	 */
	__be32 rec[2 * DSR_MAX_PATH + 3], back[DSR_MAX_PATH + 1];

	dsr_stat(priv, DSR_S_RREQ_RECEIVED);
	if (n > DSR_MAX_PATH) {
		dsr_bad(priv, DSR_BAD_ROUTE);
		return false;
	}
	rec[0] = c->src;
	for (i = 0; i < n; i++)
		rec[i + 1] = dsr_rreq_addr(c->dh, off, i);
	for (i = 0; i <= n && !dsr_is_self(priv, rec[i]); i++)
		;
	if (i <= n) {
		/* its transmitter forwards what we sent: it hears us */
		if (n && dsr_is_self(priv, rec[n - 1]) &&
		    dsr_bl_del(&priv->bl, rec[n]))
			dsr_stat(priv, DSR_S_BLACKLIST_CLEARED);
		dsr_stat(priv, DSR_S_RREQ_OWN);
		return false;
	}
	if (!dsr_route_ok(rec, n + 1, c->self, DSR_MAX_PATH + 1) ||
	    !ah_addr_routable(target)) {
		dsr_bad(priv, DSR_BAD_ROUTE);
		return false;
	}
	if (dsr_rreq_blacklisted(c) || !dsr_rreq_admit(c))
		return false;
	/* the way back: Address[n], ..., Address[1], initiator */
	for (i = 0; i <= n; i++)
		back[i] = rec[n - i];
	dsr_learn(priv, back, n + 1, 0);

	/*
	 * The route a reply returns: Address[1..n], the address it reached
	 * us by, ...; at the target, the target (from it, as the reply: the
	 * previous hop learns the address the route names).
	 */
	in = dsr_if_addr(priv, c->slave);
	rec[n + 1] = in;
	if (dsr_is_self(priv, target)) {
		rec[n + 1] = target;
		dsr_send_rrep(priv, target, c->src, rec + 1, n + 1, false, back,
			      n + 1, c->out);
		return true;
	}
	if (dsr_rreq_seen(&priv->rt, c->src, id, target, dsr_now(priv))) {
		dsr_stat(priv, DSR_S_RREQ_DUPLICATE);
		return false;
	}
	if (DSR_P(priv, GATEWAY) && dsr_outside(priv, target) &&
	    n + 2 <= DSR_MAX_PATH) {
		rec[n + 2] = target;
		dsr_send_rrep(priv, 0, c->src, rec + 1, n + 2, true, back,
			      n + 1, c->out);
		dsr_stat(priv, DSR_S_RREP_GATEWAY_SENT);
		return false;
	}
	k = dsr_rc_lookup(&priv->rc, target, rec + n + 3, dsr_now(priv));
	if (k) {
		/* and the address of the slave the cached route leaves by */
		m = n + 2;
		out = dsr_out_addr(c, rec[n + 3]);
		if (out != in)
			rec[m++] = out;
		memmove(rec + m, rec + n + 3, k * sizeof(*rec));
		k += m - (n + 2);
	}
	if (k && n + 1 + k <= DSR_MAX_PATH &&
	    dsr_route_ok(rec, n + 2 + k, 0, 2 * DSR_MAX_PATH + 3)) {
		dsr_send_rrep(priv, 0, c->src, rec + 1, n + 1 + k, false, back,
			      n + 1, c->out);
		dsr_stat(priv, DSR_S_RREP_CACHED_SENT);
		return false;
	}
	dsr_rreq_propagate(c, rec + 1, n, id, target);
	return false;
}

/* ---- Route Reply (8.2.6), Route Error (8.3.5), acks (8.3.3) --------------- */

static void dsr_rx_rrep(struct dsr_rx_ctx *c, u16 off)
{
	unsigned int n = dsr_rrep_naddr(c->dh, off), i, j, l;
	bool ext = c->dh[off + 2] & DSR_RREP_L;
	__be32 a[DSR_MAX_PATH + 1], hops[DSR_MAX_PATH + 1];

	if (n > DSR_MAX_PATH) {
		dsr_bad(c->priv, DSR_BAD_ROUTE);
		return;
	}
	a[0] = c->dst;		/* the initiator */
	for (i = 0; i < n; i++)
		a[i + 1] = dsr_rrep_addr(c->dh, off, i);
	if (!dsr_route_ok(a, n + 1, 0, DSR_MAX_PATH + 1)) {
		dsr_bad(c->priv, DSR_BAD_ROUTE);
		return;
	}
	for (j = 0; j <= n && !dsr_is_self(c->priv, a[j]); j++)
		;
	if (j > n)
		return;		/* not on it: nothing we can use */
	/* ours from a[j] to a[l] (section 8.4) */
	for (l = j; l < n && dsr_is_self(c->priv, a[l + 1]); l++)
		;
	if (j == 0) {
		dsr_stat(c->priv, DSR_S_RREP_RECEIVED);
		/* (a probe's answer, section 4.6) */
		if (n && a[1] == c->tx && dsr_bl_del(&c->priv->bl, c->tx))
			dsr_stat(c->priv, DSR_S_BLACKLIST_CLEARED);
	}
	if (l < n)
		dsr_learn(c->priv, a + l + 1, n - l,
			  ext ? DSR_PATH_EXTERNAL : 0);
	for (i = 0; i < j; i++)
		hops[i] = a[j - 1 - i];
	dsr_learn(c->priv, hops, j, 0);
}

static void dsr_rx_rerr(struct dsr_rx_ctx *c, u16 off)
{
	struct dsr_priv *priv = c->priv;
	const u8 *o = c->dh + off;
	__be32 from, to;
	u32 hold;

	if (o[2] != DSR_RERR_NODE_UNREACHABLE)
		return;
	from = ah_get_addr(o + 4);
	to = ah_get_addr(o + 12);
	dsr_stat(priv, DSR_S_RERR_RECEIVED);
	hold = DSR_P(priv, LINK_HOLDDOWN_MS);
	/*
	 * ours: it goes out again on our next Route Request (3.4.4), while
	 * we hold the link down ourselves
	 */
	if (!c->overheard && 2 + dsr_opt_len(c->dh, off) == DSR_RERR_SIZE &&
	    dsr_is_self(priv, ah_get_addr(o + 8))) {
		memcpy(priv->rerr_spread, o, DSR_RERR_SIZE);
		priv->rerr_spread_until = dsr_now(priv) +
					  (hold ?: DSR_RERR_SPREAD_MS);
	}
	dsr_rc_del_link(&priv->rc, from, to);
	if (hold)
		dsr_neg_add(&priv->rc, from, to, dsr_now(priv) + hold);
	dsr_event(priv, DSR_EVENT_ROUTE_ERROR, from, to, ah_get_addr(o + 8),
		  NULL, 0);
	trace_dsr_route(priv->dev, DSR_EVENT_ROUTE_ERROR, from, to, 0);
}

/*
 * Section 8.3.5, at the packet's destination: the Route Error at off came
 * back with options of ours after it (a Route Error or Acknowledgment we
 * sent, which the node that could not forward it appended to its own
 * error, 8.3.4): they go out again, to their destination, over what our
 * cache now holds, with the Salvage of the Route Error.  Returns the end
 * of what was sent again (the Route Errors before it are done).
 */
static u16 dsr_rx_rerr_returned(struct dsr_rx_ctx *c, u16 off)
{
	u16 first = off + 2 + dsr_opt_len(c->dh, off), start;
	struct dsr_priv *priv = c->priv;
	__be32 dst, hops[DSR_MAX_PATH];
	__be32 src = 0;
	unsigned int n;
	size_t len;

	/* sent by us: from any address of ours (section 8.4) */
	if (first + 8 <= c->p->len)
		src = ah_get_addr(c->dh + first + 4);
	if (!dsr_is_self(priv, src))
		return 0;
	len = dsr_rerr_returned(c->dh, c->p, off, src, &dst, &start);
	if (!len)
		return 0;
	n = dsr_rc_lookup(&priv->rc, dst, hops, dsr_now(priv));
	if (!n || len > DSR_EXTRA_MAX) {
		dsr_stat(priv, DSR_S_RERR_NO_ROUTE);
		return start + len;
	}
	if (!dsr_send_ctrl_routed(priv, 0, dst, hops, n, c->dh[off + 3] & 0xf,
				  c->dh + start, len, c->out))
		dsr_stat(priv, DSR_S_RERR_RESENT);
	return start + len;
}

/*
 * An Acknowledgment with id to the neighbour to, in one hop, from the
 * address it sent to (the one it waits to hear from).
 */
static void dsr_send_ack(struct dsr_rx_ctx *c, u16 id, __be32 to)
{
	size_t len = DSR_HDR_LEN + DSR_ACK_SIZE;
	struct sk_buff *skb;
	u8 *dh;

	skb = dsr_ctrl_alloc(c->priv, len, c->me_addr, to, 1);
	if (!skb)
		return;
	dh = skb_network_header(skb) + sizeof(struct iphdr);
	dsr_put_hdr(dh, DSR_NO_NEXT_HEADER);
	dsr_put_ack(dh + DSR_HDR_LEN, id, c->me_addr, to);
	dsr_finish(dh, len);
	if (!dsr_frame(c->priv, skb, to, c->out))
		dsr_stat(c->priv, DSR_S_ACK_SENT);
}

/*
 * Section 8.3.3: an Acknowledgment Request is answered to the previous
 * hop; one that came with an Acknowledgment only by that
 * Acknowledgment's destination (the packet's), and to its originator.
 */
static void dsr_rx_areq(struct dsr_rx_ctx *c)
{
	u16 id = dsr_rreq_id(c->dh, c->p->areq);

	if (!c->p->n_ack)
		dsr_send_ack(c, id, c->tx);
	else if (dsr_is_self(c->priv, c->dst))
		dsr_send_ack(c, id, ah_get_addr(c->dh + c->p->ack[0] + 4));
}

static void dsr_rx_acks(struct dsr_rx_ctx *c)
{
	unsigned int i;

	for (i = 0; i < c->p->n_ack; i++) {
		const u8 *o = c->dh + c->p->ack[i];
		__be32 from = ah_get_addr(o + 4);

		if (!dsr_is_self(c->priv, ah_get_addr(o + 8)))
			continue;
		dsr_learn(c->priv, &from, 1, 0);
		/* it answered what we sent it: its MAC is proven */
		if (dsr_maint_ack(c->priv, from, ah_get16(o + 2)) &&
		    from == c->tx)
			dsr_neigh_heard(c->priv, from,
					eth_hdr(c->skb)->h_source, c->slave,
					true);
	}
}

/* ---- each packet delivered and forwarded once ------------------------------ */

/* (dsr_skb_dup(), fastpath.c) */
static bool dsr_rx_dup(struct dsr_rx_ctx *c, enum dsr_dup_kind kind)
{
	u8 segs = 0, salvage = 0;

	if (kind == DSR_DUP_FORWARD && c->p->srt) {
		segs = c->segs;
		salvage = DSR_SRT_SALVAGE(dsr_srt_bits(c->dh, c->p->srt));
	}
	return dsr_skb_dup(c->priv, c->skb, c->p, kind, segs, salvage,
			   dsr_now(c->priv));
}

static enum dsr_rx dsr_deliver_once(struct dsr_rx_ctx *c)
{
	if (dsr_rx_dup(c, DSR_DUP_DELIVER)) {
		dsr_stat(c->priv, DSR_S_RX_DUPLICATE);
		return DSR_RX_DROP;
	}
	return DSR_RX_DELIVER;
}

/*
 * A Route Request that carries a payload, at its target: the IP
 * destination becomes the target (an address of ours), and the payload
 * is delivered.
 */
static enum dsr_rx dsr_rreq_deliver(struct dsr_rx_ctx *c)
{
	__be32 target = dsr_rreq_target(c->dh, c->p->rreq);
	struct iphdr *iph;

	if (skb_ensure_writable(c->skb, ip_hdrlen(c->skb))) {
		dsr_stat(c->priv, DSR_S_NOMEM);
		return DSR_RX_DROP;
	}
	iph = ip_hdr(c->skb);
	iph->daddr = target;
	ip_send_check(iph);
	c->dst = target;
	return dsr_deliver_once(c);
}

/*
 * At the destination: a join of a multicast tree, or a multicast packet
 * from upstream in IP-in-IP (mcast.c), or a packet to deliver.
 */
static enum dsr_rx dsr_deliver_mcast(struct dsr_rx_ctx *c)
{
	unsigned int off = ip_hdrlen(c->skb) + c->p->len;

	if (c->p->next_header == DSR_MC_JOIN_PROTO) {
		if (!dsr_rx_dup(c, DSR_DUP_DELIVER))
			dsr_mcast_rx_join(c->priv, c->skb, off, c->src,
					  c->slave, c->out);
		return DSR_RX_DROP;
	}
	if (c->p->next_header != IPPROTO_IPIP ||
	    !dsr_mcast_inner(c->skb, off))
		return dsr_deliver_once(c);
	if (dsr_rx_dup(c, DSR_DUP_DELIVER)) {
		dsr_stat(c->priv, DSR_S_RX_DUPLICATE);
		return DSR_RX_DROP;
	}
	/* (the DSR header's pointer c->dh is not used after this) */
	return dsr_mcast_rx(c->priv, c->skb, off, c->out) ?
	       DSR_RX_DELIVER_MC : DSR_RX_DROP;
}

/* ---- forwarding along the source route (8.1.5) ---------------------------- */

/* The MTU of the slave that reaches next (dsr_frame()'s choice). */
static unsigned int dsr_next_mtu(struct dsr_priv *priv, __be32 next)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, next);
	struct dsr_slave *s = n ? n->slave : NULL;

	if (!s)
		s = list_first_entry_or_null(&priv->slaves, struct dsr_slave,
					     list);
	return s ? s->dev->mtu : 0;
}

static enum dsr_rx dsr_forward(struct dsr_rx_ctx *c)
{
	struct dsr_priv *priv = c->priv;
	struct sk_buff *skb = c->skb;
	unsigned int ihl = ip_hdrlen(skb), mtu, grow;
	bool track, explicit;
	__be32 next;
	u16 id = 0;
	u8 *dh;
	int segs;

	if (dsr_maint_dup(priv, ip_hdr(skb))) {
		dsr_stat(priv, DSR_S_FWD_DUPLICATE);
		return DSR_RX_DROP;
	}
	if (ip_hdr(skb)->ttl <= 1) {
		dsr_stat(priv, DSR_S_FWD_TTL_EXCEEDED);
		dsr_icmp_send(priv, skb, c->p, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL,
			      0, c->out);
		return DSR_RX_DROP;
	}
	/* past every address of ours (section 8.4) */
	segs = c->n - c->me_idx;
	next = dsr_node(c, c->me_idx + 1);
	explicit = dsr_maint_want_ack(priv, next, segs == 0, &track);
	/* (before the duplicate cache: a retransmission may find room) */
	if (track &&
	    !dsr_maint_room(priv, skb, c->p->n_rrep || c->p->n_rerr))
		return DSR_RX_DROP;
	if (dsr_rx_dup(c, DSR_DUP_FORWARD)) {
		dsr_stat(priv, DSR_S_FWD_DUPLICATE);
		return DSR_RX_DROP;
	}
	if (dsr_must_copy(skb, ihl + c->p->len))
		dsr_stat(priv, DSR_S_FWD_COPIED);
	if (skb_ensure_writable(skb, ihl + c->p->len)) {
		dsr_stat(priv, DSR_S_NOMEM);
		return DSR_RX_DROP;
	}
	dh = skb->data + ihl;
	/* (the addresses, before the header can move) */
	dsr_fp_learned(priv, ip_hdr(skb), dh, c->p, c->n, c->segs);
	dsr_srt_set_segs(dh, c->p->srt, segs);
	dsr_rewrite_unknown(dh, c->p);
	c->dh = dh;
	/* (with the Acknowledgment Request it may have to grow by) */
	grow = explicit && !c->p->areq ? DSR_AREQ_SIZE : 0;
	mtu = dsr_next_mtu(priv, next);
	if (mtu && (skb_is_gso(skb) ?
		    !skb_gso_validate_network_len(skb, mtu - grow) :
		    skb->len + grow > mtu)) {
		/* RFC 1191: what the source's packet must shrink to */
		if (ip_hdr(skb)->frag_off & htons(IP_DF) &&
		    mtu >= c->p->len + grow + IPV4_MIN_MTU)
			dsr_icmp_send(priv, skb, c->p, ICMP_DEST_UNREACH,
				      ICMP_FRAG_NEEDED,
				      htonl(mtu - c->p->len - grow), c->out);
		dsr_stat(priv, DSR_S_TX_TOO_BIG);
		return DSR_RX_DROP;
	}
	if (explicit)
		id = ++priv->ack_id;
	if (dsr_set_areq(skb, c->p, explicit, id)) {
		dsr_stat(priv, DSR_S_NOMEM);
		return DSR_RX_DROP;
	}
	if (explicit)
		dsr_stat(priv, DSR_S_ACK_REQ_SENT);
	dsr_fwd_hop(skb);
	if (dsr_frame(priv, skb, next, c->out))
		return DSR_RX_CONSUMED;
	dsr_stat(priv, DSR_S_FORWARDED);
	if (track)
		dsr_maint_track(priv, skb_peek_tail(c->out), next, explicit,
				id, segs);
	return DSR_RX_CONSUMED;
}

/* ---- automatic route shortening (3.4.3, 8.1.5) --------------------------- */

/*
 * We overheard c's packet and are named later on its unexpended source
 * route, at index at: the nodes between its transmitter and us are not
 * needed.  Tell its source with a gratuitous Route Reply (the route up to
 * the transmitter, then ours on), sent back along the hops the packet
 * took to reach us, so that only a bidirectional path carries it.
 */
static void dsr_grat_reply(struct dsr_rx_ctx *c, int at)
{
	__be32 route[DSR_MAX_PATH + 2], back[DSR_MAX_PATH + 2];
	unsigned int n = 0, nback = 0;
	int i;

	if (!dsr_grat_allowed(c->priv, c->src, c->tx))
		return;
	for (i = 1; i <= c->tx_idx; i++)
		route[n++] = dsr_node(c, i);
	for (i = at; i <= c->n + 1; i++)
		route[n++] = dsr_node(c, i);
	for (i = c->tx_idx; i >= 0; i--)
		back[nback++] = dsr_node(c, i);
	dsr_send_rrep(c->priv, 0, c->src, route, n,
		      dsr_srt_bits(c->dh, c->p->srt) & DSR_SRT_L, back, nback,
		      c->out);
	dsr_stat(c->priv, DSR_S_GRAT_RREP_SENT);
}

static void dsr_shorten(struct dsr_rx_ctx *c)
{
	int i;

	if (!c->p->srt || c->segs < 1 || dsr_is_self(c->priv, c->src) ||
	    DSR_SRT_SALVAGE(dsr_srt_bits(c->dh, c->p->srt)))
		return;
	for (i = c->tx_idx + 2; i <= c->n + 1; i++)
		if (dsr_is_self(c->priv, dsr_node(c, i))) {
			dsr_grat_reply(c, i);
			return;
		}
}

/* ---- one packet ---------------------------------------------------------------- */

static enum dsr_rx dsr_process(struct dsr_rx_ctx *c)
{
	const struct dsr_parsed *p = c->p;
	struct dsr_priv *priv = c->priv;
	bool me;
	int i;

	c->src = ip_hdr(c->skb)->saddr;
	c->dst = ip_hdr(c->skb)->daddr;
	if (p->srt) {
		__be32 a[DSR_MAX_PATH + 2];

		c->n = dsr_srt_naddr(c->dh, p->srt);
		c->segs = DSR_SRT_SEGS(dsr_srt_bits(c->dh, p->srt));
		if (c->n > DSR_MAX_PATH) {
			dsr_bad(priv, DSR_BAD_ROUTE);
			return DSR_RX_DROP;
		}
		for (i = 0; i <= c->n + 1; i++)
			a[i] = dsr_node(c, i);
		if (!dsr_route_ok(a, c->n + 2, 0, DSR_MAX_PATH + 2)) {
			dsr_bad(priv, DSR_BAD_ROUTE);
			return DSR_RX_DROP;
		}
		c->tx_idx = c->n - c->segs;
		c->tx = dsr_node(c, c->tx_idx);
	} else if (p->rreq) {
		unsigned int n = dsr_rreq_naddr(c->dh, p->rreq);

		c->tx = n ? dsr_rreq_addr(c->dh, p->rreq, n - 1) : c->src;
	} else {
		c->tx = c->src;
	}
	if (dsr_is_self(priv, c->tx))
		return DSR_RX_DROP;	/* our own, echoed */
	dsr_neigh_heard(priv, c->tx, eth_hdr(c->skb)->h_source, c->slave,
			false);
	if (p->report || p->n_unknown || p->n_ignored)
		dsr_stat(priv, DSR_S_UNKNOWN_OPT);

	for (i = 0; i < p->n_rerr; i++)
		dsr_rx_rerr(c, p->rerr[i]);
	if (p->rreq) {
		/* section 8.2.2: the target takes what the request carries */
		if (!c->overheard && dsr_rx_rreq(c) &&
		    p->next_header != DSR_NO_NEXT_HEADER)
			return dsr_rreq_deliver(c);
		return DSR_RX_DROP;
	}
	for (i = 0; i < p->n_rrep; i++)
		dsr_rx_rrep(c, p->rrep[i]);
	dsr_maint_passive(priv, ip_hdr(c->skb), p->srt ? c->segs : -1);

	if (p->srt) {
		/* the next address, or with none left the destination */
		c->me_idx = c->tx_idx + 1;
		c->me_addr = dsr_node(c, c->me_idx);
		me = dsr_is_self(priv, c->me_addr);
		/*
		 * Section 8.4: the next address after ours may be another
		 * of ours (the route changes slaves here): skipped over, as
		 * if the packet came in on that slave
		 */
		while (me && c->me_idx <= c->n &&
		       dsr_is_self(priv, dsr_node(c, c->me_idx + 1)))
			c->me_idx++;
	} else {
		c->me_addr = c->dst;
		me = dsr_is_self(priv, c->dst);
	}
	if (p->srt)
		dsr_learn_srt(c, me);
	else if (c->tx == c->src && !p->n_ack)
		dsr_learn(priv, &c->tx, 1, 0);
	/* a group's packet to the slave's broadcast (mcast.c) */
	if (!p->srt && !c->overheard && ipv4_is_multicast(c->dst) &&
	    p->next_header == IPPROTO_IPIP && !p->n_ack && !p->areq)
		return dsr_deliver_mcast(c);
	if (!me && DSR_P(priv, GRAT_REPLY_HOLDOFF_MS))
		dsr_shorten(c);
	if (!me || c->overheard) {
		if (!c->overheard)
			dsr_stat(priv, DSR_S_NOT_FOR_US);
		return DSR_RX_DROP;
	}
	if (!p->srt || c->me_idx > c->n) {
		u16 done = 0;

		for (i = 0; i < p->n_rerr; i++)
			if (p->rerr[i] >= done)
				done = max(done,
					   dsr_rx_rerr_returned(c, p->rerr[i]));
	}
	if (p->areq)
		dsr_rx_areq(c);
	dsr_rx_acks(c);
	if (p->srt && c->me_idx <= c->n) {
		/* a gateway hands packets for outside to its IP stack */
		if (c->me_idx == c->n && DSR_P(priv, GATEWAY) &&
		    ((dsr_srt_bits(c->dh, p->srt) & DSR_SRT_L) ||
		     dsr_outside(priv, c->dst)))
			return dsr_deliver_once(c);
		return dsr_forward(c);
	}
	if (p->next_header == DSR_NO_NEXT_HEADER)
		return DSR_RX_DROP;
	return dsr_deliver_mcast(c);
}

/*
 * After the DSR header is gone: a fragment that dsr_encap_frag() put in
 * IP-in-IP is taken out (same addresses inside and out).  Any other
 * IP-in-IP packet (a tunnel over dsr0) is left for the stack as it is.
 * Bytes after the inner packet go, from a paged skb too (skb_trim() only
 * trims the head, and warns); -ENOMEM if that needed memory.
 */
static int dsr_decap_frag(struct dsr_priv *priv, struct sk_buff *skb,
			  bool mcast)
{
	unsigned int ohl = ip_hdrlen(skb), len;
	const struct iphdr *out, *in;

	if (ip_hdr(skb)->protocol != IPPROTO_IPIP ||
	    !pskb_may_pull(skb, ohl + sizeof(*in)))
		return 0;
	out = ip_hdr(skb);
	in = (const struct iphdr *)(skb->data + ohl);
	len = ntohs(in->tot_len);
	if (in->version != 4 || in->ihl < 5 || len < in->ihl * 4 ||
	    len > skb->len - ohl)
		return 0;
	/* (a multicast packet from upstream: mcast.c checked it) */
	if (!mcast && (!ip_is_fragment(in) || in->saddr != out->saddr ||
		       in->daddr != out->daddr))
		return 0;
	skb_pull(skb, ohl);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ip_hdrlen(skb));
	if (pskb_trim(skb, len))
		return -ENOMEM;
	if (!mcast)
		dsr_stat(priv, DSR_S_FRAG_DECAP);
	return 0;
}

/*
 * A packet for us, its DSR header taken off, handed to IP as dsr0's: the
 * slave's receive goes round again with skb->dev dsr0
 * (RX_HANDLER_ANOTHER, as bonding does), so the packet reaches dsr0's
 * taps and ip_rcv() in this pass, not a second trip through the backlog
 * queue (netif_rx()).  False: dropped and counted.
 */
static bool dsr_deliver(struct dsr_priv *priv, struct sk_buff *skb,
			const struct dsr_parsed *p, bool mcast)
{
	if (dsr_must_copy(skb, ip_hdrlen(skb) + p->len))
		dsr_stat(priv, DSR_S_RX_COPIED);
	if (dsr_strip_hdr(skb, p) || dsr_decap_frag(priv, skb, mcast)) {
		dsr_stat(priv, DSR_S_NOMEM);
		kfree_skb(skb);
		return false;
	}
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	skb->dev = priv->dev;
	skb->protocol = htons(ETH_P_IP);
	skb->pkt_type = mcast ? PACKET_MULTICAST : PACKET_HOST;
	skb_reset_mac_header(skb);
	skb->mac_len = 0;
	dsr_stat(priv, DSR_S_DELIVERED);
	dev_sw_netstats_rx_add(priv->dev, skb->len);
	return true;
}

/* An ICMP Parameter Problem for skb (received on s), pointer ptr. */
static void dsr_param_problem(struct dsr_priv *priv, struct dsr_slave *s,
			      struct sk_buff *skb, unsigned int ptr)
{
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	dsr_lock(priv);
	if (!priv->dead && !s->gone)
		dsr_icmp_send(priv, skb, NULL, ICMP_PARAMETERPROB, 0,
			      htonl(ptr << 24), &out);
	dsr_out_commit(priv, &out);
	dsr_unlock(priv);
	dsr_out_flush(priv);
}

/*
 * Whether an overheard frame (p) is worth the device lock.  A relay
 * overhears about one frame per packet it forwards (the next hop's
 * forwarding of it), and with maint_holdoff_ms only one packet per next
 * hop and hold-off is waiting for that passive acknowledgment.  Taken
 * further: control packets (Route Replies and Errors), a frame that may
 * acknowledge a packet we track (dsr_maint_maybe()), and
 * overheard_rate others a second, which keep routes, neighbours and
 * route shortening learned from what we overhear; the rest cost no lock
 * (overheard_skipped).  The second's count is kept without a lock: two
 * CPUs may both start a new second, admitting a few more.
 */
static bool dsr_overheard_wanted(struct dsr_priv *priv,
				 const struct dsr_parsed *p,
				 const struct iphdr *iph)
{
	u32 rate = DSR_P(priv, OVERHEARD_RATE);
	unsigned long now = jiffies;

	if (!rate || p->n_rrep || p->n_rerr || p->rreq ||
	    dsr_maint_maybe(priv, iph))
		return true;
	if (time_after_eq(now, READ_ONCE(priv->overheard_since) + HZ)) {
		WRITE_ONCE(priv->overheard_since, now);
		atomic_set(&priv->overheard_n, 0);
	}
	if (atomic_inc_return(&priv->overheard_n) <= rate)
		return true;
	dsr_stat(priv, DSR_S_OVERHEARD_SKIPPED);
	return false;
}

/*
 * skb: an IPv4 packet of protocol 48, data at its IP header, its IP and
 * DSR headers linear (the payload need not be: dsr_rx_need()).  An
 * overheard skb may be shared (with a packet tap): it is only read.
 */
static rx_handler_result_t dsr_rcv(struct dsr_priv *priv,
				   struct dsr_slave *s, struct sk_buff *skb,
				   unsigned int tot_len, bool overheard)
{
	unsigned int ihl = ip_hdrlen(skb);
	struct sk_buff_head out;
	struct dsr_rx_ctx c = {
		.priv = priv, .slave = s, .skb = skb, .overheard = overheard,
		.out = &out,
	};
	struct dsr_parsed p;
	enum dsr_rx verdict = DSR_RX_DROP;
	__be32 saddr, daddr;
	enum dsr_bad bad;
	unsigned int len;
	__be16 id;

	if (overheard)
		dsr_stat(priv, DSR_S_OVERHEARD);
	bad = dsr_parse(skb->data + ihl,
			min(tot_len, skb_headlen(skb)) - ihl, &p);
	if (bad != DSR_OK) {
		dsr_bad(priv, bad);
		/* RFC 4728 8.1.4: pointing at the Segments Left field */
		if (bad == DSR_BAD_SEGS_LEFT && !overheard)
			dsr_param_problem(priv, s, skb, ihl + p.bad_off + 3);
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	if (overheard && !dsr_overheard_wanted(priv, &p, ip_hdr(skb))) {
		consume_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	/* a data packet of a route just forwarded (fastpath.c) */
	if (!overheard && dsr_fp_forward(priv, s, skb, &p))
		return RX_HANDLER_CONSUMED;
	c.p = &p;
	c.dh = skb->data + ihl;
	saddr = ip_hdr(skb)->saddr;
	daddr = ip_hdr(skb)->daddr;
	id = ip_hdr(skb)->id;
	len = tot_len;
	__skb_queue_head_init(&out);
	dsr_lock(priv);
	c.self = dsr_self(priv);
	/* s->gone: released while we waited for the lock */
	if (!priv->dead && !s->gone && c.self) {
		verdict = dsr_process(&c);
		/* only if this packet taught the route cache something */
		if (!skb_queue_empty(&priv->sendbuf) &&
		    priv->routes_gen != priv->drained_gen)
			dsr_disc_drain(priv, &out);
	}
	dsr_out_commit(priv, &out);
	dsr_unlock(priv);
	trace_dsr_recv(priv->dev, c.self, saddr, daddr, id, c.tx, len,
		       overheard, verdict);
	dsr_out_flush(priv);
	if ((verdict == DSR_RX_DELIVER || verdict == DSR_RX_DELIVER_MC) &&
	    dsr_deliver(priv, skb, &p, verdict == DSR_RX_DELIVER_MC))
		return RX_HANDLER_ANOTHER;
	if (verdict == DSR_RX_DROP)
		consume_skb(skb);
	return RX_HANDLER_CONSUMED;
}

/*
 * What of a frame (data at its IP header, IP length tot_len) must be
 * linear: the IP header and the DSR header, as far as the packet goes.
 * The DSR header's length is read only when its first bytes are linear;
 * until then, that far.  The payload (a GSO unit's pages) is never read.
 */
static unsigned int dsr_rx_need(const struct sk_buff *skb,
				unsigned int tot_len)
{
	unsigned int ihl = ip_hdrlen(skb), need = ihl + DSR_HDR_LEN;

	if (need > tot_len)
		return tot_len;
	if (skb_headlen(skb) < need)
		return need;
	return min(need + ah_get16(skb->data + ihl + 2), tot_len);
}

/*
 * The slave's frames that macfilter passed, data at the network header.
 * A frame that is not IPv4 protocol 48 goes on to the protocols.  An
 * overheard frame is only read (it may be shared with a packet tap: it is
 * cloned only to pull its headers in); a frame for us is made ours,
 * trimmed to its IP length, its headers linear, and checked as ip_rcv()
 * would have.  Fragments are not ours to reassemble: DSR carries whole
 * packets (xmit.c puts a fragment in IP-in-IP).
 */
rx_handler_result_t dsr_slave_rx(struct sk_buff **pskb,
				 const struct macfilter_next *next)
{
	struct dsr_slave *s = container_of(next, struct dsr_slave, rx);
	struct sk_buff *skb = *pskb;
	const struct iphdr *iph;
	bool overheard;
	unsigned int len;

	if (skb->protocol != htons(ETH_P_IP))
		return RX_HANDLER_PASS;
	switch (skb->pkt_type) {
	case PACKET_OTHERHOST:
		overheard = true;
		break;
	case PACKET_HOST:
	case PACKET_BROADCAST:
	case PACKET_MULTICAST:
		overheard = false;
		break;
	default:
		return RX_HANDLER_PASS;
	}
	if (unlikely(skb_headlen(skb) < sizeof(*iph))) {
		skb = skb_share_check(skb, GFP_ATOMIC);
		*pskb = skb;
		if (!skb) {
			dsr_stat(s->priv, DSR_S_NOMEM);
			return RX_HANDLER_CONSUMED;
		}
		/* too short for IPv4: ip_rcv() drops and counts it */
		if (!pskb_may_pull(skb, sizeof(*iph)))
			return RX_HANDLER_PASS;
	}
	if (ip_hdr(skb)->protocol != DSR_IPPROTO)
		return RX_HANDLER_PASS;
	iph = ip_hdr(skb);
	len = ntohs(iph->tot_len);
	if (iph->version != 4 || iph->ihl < 5 || len > skb->len ||
	    len < iph->ihl * 4)
		goto bad;
	if (!overheard || skb_headlen(skb) < dsr_rx_need(skb, len)) {
		skb = skb_share_check(skb, GFP_ATOMIC);
		if (!skb) {
			dsr_stat(s->priv, DSR_S_NOMEM);
			return RX_HANDLER_CONSUMED;
		}
		/* twice: the DSR header's length is in its first bytes */
		if (!pskb_may_pull(skb, dsr_rx_need(skb, len)) ||
		    !pskb_may_pull(skb, dsr_rx_need(skb, len)))
			goto bad;
		iph = ip_hdr(skb);
	}
	if (ip_fast_csum((const u8 *)iph, iph->ihl) || ip_is_fragment(iph))
		goto bad;
	if (!overheard) {
		if (pskb_trim_rcsum(skb, len))
			goto bad;
		/* what ip_rcv_core() does to a packet it takes */
		skb_set_transport_header(skb, ip_hdrlen(skb));
		memset(skb->cb, 0, sizeof(skb->cb));
		skb_orphan(skb);
	}
	*pskb = skb;
	return dsr_rcv(s->priv, s, skb, len, overheard);
bad:
	dsr_stat(s->priv, DSR_S_MALFORMED_IP);
	kfree_skb(skb);
	return RX_HANDLER_CONSUMED;
}
