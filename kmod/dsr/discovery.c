// SPDX-License-Identifier: GPL-2.0
/*
 * Route Discovery (RFC 4728 section 8.2): what the route cache learns, the
 * discoveries in progress, the Route Requests we send and the Route
 * Replies we answer with (the Gratuitous Route Reply Table of section 4.4
 * included), and the jitter queue of the Route Requests we forward.
 *
 * A packet without a cached route waits in the Send Buffer (sendbuf.c)
 * while a discovery runs: first a non-propagating Route Request (hop limit
 * 1) that neighbours answer from their caches, then after
 * NonpropRequestTimeout propagating ones, spaced RequestPeriod doubling up
 * to MaxRequestPeriod, at most MaxRequestRexmt.
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "dsr.h"
#include "trace.h"

void dsr_learn(struct dsr_priv *priv, const __be32 *hops, unsigned int n,
	       u8 flags)
{
	int r;

	if (!n)
		return;
	r = dsr_rc_add(&priv->rc, hops, n, flags, dsr_now(priv));
	if (r > 0) {
		priv->routes_gen++;
		dsr_stat(priv, DSR_S_ROUTES_LEARNED);
		trace_dsr_route(priv->dev, DSR_EVENT_ROUTE_ADDED, hops[0],
				hops[n - 1], n);
		dsr_event(priv, DSR_EVENT_ROUTE_ADDED, 0, 0, hops[n - 1], hops,
			  n);
	}
}

static struct dsr_disc *dsr_disc_find(struct dsr_priv *priv, __be32 target)
{
	struct dsr_disc *d;

	list_for_each_entry(d, &priv->discs, list)
		if (d->target == target)
			return d;
	return NULL;
}

static void dsr_send_rreq(struct dsr_priv *priv, struct dsr_disc *d,
			  struct sk_buff_head *out)
{
	size_t len = DSR_HDR_LEN + DSR_RREQ_SIZE(0);
	bool spread = priv->rerr_spread_until > dsr_now(priv);
	struct sk_buff *skb;
	u8 ttl, *dh;

	/*
	 * Section 3.4.4: the last Route Error to us goes out on our next
	 * Route Request, so that no node answers it with a route over the
	 * broken link from its cache: on the next propagating one (and any
	 * non-propagating one before it, which only the neighbours hear)
	 */
	if (spread)
		len += DSR_RERR_SIZE;
	ttl = d->propagating ? DSR_P(priv, DISCOVERY_HOP_LIMIT) : 1;
	skb = dsr_ctrl_alloc(priv, len, dsr_self(priv), htonl(INADDR_BROADCAST),
			     ttl);
	if (!skb)
		return;
	dh = skb_network_header(skb) + sizeof(struct iphdr);
	dsr_put_hdr(dh, DSR_NO_NEXT_HEADER);
	dsr_put_rreq(dh + DSR_HDR_LEN, ++priv->rreq_id, d->target, NULL, 0);
	if (spread) {
		memcpy(dh + DSR_HDR_LEN + DSR_RREQ_SIZE(0), priv->rerr_spread,
		       DSR_RERR_SIZE);
		if (d->propagating)
			priv->rerr_spread_until = 0;
		dsr_stat(priv, DSR_S_RERR_SPREAD);
	}
	dsr_finish(dh, len);
	/* our own id: never forward a copy of it back */
	dsr_rreq_seen(&priv->rt, dsr_self(priv), priv->rreq_id, d->target,
		      dsr_now(priv));
	dsr_stat(priv, DSR_S_RREQ_SENT);
	dsr_broadcast(priv, skb, NULL, out);
}

void dsr_disc_start(struct dsr_priv *priv, __be32 target,
		    struct sk_buff_head *out)
{
	struct dsr_disc *d = dsr_disc_find(priv, target);
	u64 now = dsr_now(priv);

	if (d)
		return;
	if (priv->n_discs >= DSR_MAX_DISC)
		return;		/* the buffered packet times out */
	d = kzalloc(sizeof(*d), GFP_ATOMIC);
	if (!d) {
		dsr_stat(priv, DSR_S_NOMEM);
		return;
	}
	d->target = target;
	d->started = now;
	d->propagating = !DSR_P(priv, NONPROP_REQUEST_TIMEOUT_MS);
	if (d->propagating) {
		d->tries = 1;
		d->next = now + DSR_P(priv, REQUEST_PERIOD_MS);
	} else {
		d->next = now + DSR_P(priv, NONPROP_REQUEST_TIMEOUT_MS);
	}
	list_add_tail(&d->list, &priv->discs);
	priv->n_discs++;
	dsr_stat(priv, DSR_S_DISCOVERY_STARTED);
	dsr_send_rreq(priv, d, out);
	dsr_kick(priv);
}

static void dsr_disc_end(struct dsr_priv *priv, struct dsr_disc *d,
			 bool failed)
{
	if (failed) {
		dsr_stat(priv, DSR_S_DISCOVERY_FAILED);
		dsr_event(priv, DSR_EVENT_DISCOVERY_FAILED, 0, 0, d->target,
			  NULL, 0);
		dsr_sendbuf_drop_dst(priv, d->target);
	}
	list_del(&d->list);
	priv->n_discs--;
	kfree(d);
}

/* Route skb (plain IP, ours) from the cache, or queue it for discovery. */
void dsr_route_or_queue(struct dsr_priv *priv, struct sk_buff *skb,
			struct sk_buff_head *out)
{
	__be32 hops[DSR_MAX_PATH], dst;
	unsigned int n;

	n = dsr_rc_lookup(&priv->rc, ip_hdr(skb)->daddr, hops, dsr_now(priv));
	if (n) {
		dsr_send_cached(priv, skb, hops, n, out);
	} else {
		dst = ip_hdr(skb)->daddr;
		dsr_sendbuf_add(priv, skb);
		dsr_disc_start(priv, dst, out);
	}
}

/*
 * Send what now has a route (the Send Buffer); end the discoveries that
 * found one.  Receivers call it only when the route cache learned
 * something (routes_gen), the timer at most every DSR_DRAIN_MS.
 */
void dsr_disc_drain(struct dsr_priv *priv, struct sk_buff_head *out)
{
	struct dsr_disc *d, *dtmp;
	__be32 hops[DSR_MAX_PATH];
	u64 now = dsr_now(priv);

	dsr_sendbuf_send(priv, now, out);
	list_for_each_entry_safe(d, dtmp, &priv->discs, list)
		if (dsr_rc_lookup(&priv->rc, d->target, hops, now))
			dsr_disc_end(priv, d, false);
}

static void dsr_disc_tick(struct dsr_priv *priv, u64 now,
			  struct sk_buff_head *out)
{
	struct dsr_disc *d, *tmp;

	list_for_each_entry_safe(d, tmp, &priv->discs, list) {
		if (d->next > now)
			continue;
		if (d->propagating &&
		    d->tries > DSR_P(priv, MAX_REQUEST_REXMT)) {
			dsr_disc_end(priv, d, true);
			continue;
		}
		d->propagating = true;
		d->tries++;
		d->next = now + dsr_rreq_backoff(DSR_P(priv, REQUEST_PERIOD_MS),
						 DSR_P(priv, MAX_REQUEST_PERIOD_MS),
						 d->tries);
		dsr_send_rreq(priv, d, out);
	}
}

static void dsr_fwdq_tick(struct dsr_priv *priv, u64 now,
			  struct sk_buff_head *out)
{
	struct sk_buff *skb, *tmp;

	skb_queue_walk_safe(&priv->fwdq, skb, tmp) {
		struct dsr_slave *s = NULL;

		if (DSR_CB(skb)->time > now)
			continue;
		__skb_unlink(skb, &priv->fwdq);
		/* a copy for one slave (section 8.4), if it is still one */
		if (DSR_CB(skb)->ifindex) {
			list_for_each_entry(s, &priv->slaves, list)
				if (s->dev->ifindex == DSR_CB(skb)->ifindex)
					break;
			if (list_entry_is_head(s, &priv->slaves, list)) {
				kfree_skb(skb);
				continue;
			}
		}
		dsr_broadcast(priv, skb, s, out);
	}
}

/* The timer's part: Route Discovery and the Send Buffer. */
void dsr_disc_timer(struct dsr_priv *priv, u64 now, struct sk_buff_head *out)
{
	dsr_fwdq_tick(priv, now, out);
	dsr_sendbuf_tick(priv, now);
	if (!skb_queue_empty(&priv->sendbuf) &&
	    (priv->routes_gen != priv->drained_gen ||
	     now - priv->drained >= DSR_DRAIN_MS))
		dsr_disc_drain(priv, out);
	dsr_disc_tick(priv, now, out);
}

/*
 * Gratuitous Route Reply Table (RFC 4728 sections 4.4, 8.1.5): whether we
 * may send a gratuitous reply for a packet from src that we overheard from
 * tx, recording it for GratReplyHoldoff if so.  The table is bounded: a
 * full one gives up its entry closest to expiry.
 */
bool dsr_grat_allowed(struct dsr_priv *priv, __be32 src, __be32 tx)
{
	struct dsr_grat *g, *slot = &priv->grat[0];
	u64 now = dsr_now(priv);

	for (g = priv->grat; g < priv->grat + DSR_GRAT_TABLE; g++) {
		if (g->expires > now && g->src == src && g->tx == tx) {
			dsr_stat(priv, DSR_S_GRAT_RREP_HOLDOFF);
			return false;
		}
		if (g->expires < slot->expires)
			slot = g;
	}
	slot->src = src;
	slot->tx = tx;
	slot->expires = now + DSR_P(priv, GRAT_REPLY_HOLDOFF_MS);
	return true;
}

/*
 * A Route Reply carrying route[0..n-1] (from the initiator's first hop to
 * the target) back to the initiator along back[0..nback-1].
 */
void dsr_send_rrep(struct dsr_priv *priv, __be32 src, __be32 initiator,
		   const __be32 *route, unsigned int n, bool external,
		   const __be32 *back, unsigned int nback,
		   struct sk_buff_head *out)
{
	u8 opt[DSR_RREP_SIZE(DSR_MAX_PATH) + 4];

	if (n > DSR_MAX_PATH || !nback)
		return;
	dsr_put_rrep(opt, external, route, n);
	if (!dsr_send_ctrl_routed(priv, src, initiator, back, nback, 0, opt,
				  DSR_RREP_SIZE(n), out))
		dsr_stat(priv, DSR_S_RREP_SENT);
}
