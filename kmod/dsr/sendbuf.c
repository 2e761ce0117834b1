// SPDX-License-Identifier: GPL-2.0
/*
 * The Send Buffer (RFC 4728 section 4.2): a packet of ours without a
 * cached route waits here, bounded in packets and bytes, at most
 * SendBufferTimeout, while a Route Discovery (discovery.c) runs for its
 * destination.
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "dsr.h"

static void dsr_sendbuf_unlink(struct dsr_priv *priv, struct sk_buff *skb)
{
	__skb_unlink(skb, &priv->sendbuf);
	priv->sendbuf_bytes -= skb->len;
}

/* CMU: a packet identical to one already waiting is a duplicate. */
static bool dsr_sendbuf_dup(struct dsr_priv *priv, const struct iphdr *iph)
{
	struct sk_buff *skb;

	skb_queue_walk(&priv->sendbuf, skb) {
		const struct iphdr *h = ip_hdr(skb);

		if (dsr_same_ip(iph, h->saddr, h->daddr, h->id, h->frag_off) &&
		    h->protocol == iph->protocol)
			return true;
	}
	return false;
}

/*
 * Queue skb (ours, plain IP, no route), or drop it: a duplicate of one
 * waiting, or no room.  Consumes skb.
 */
void dsr_sendbuf_add(struct dsr_priv *priv, struct sk_buff *skb)
{
	enum dsr_stat drop = DSR_S_MAX;

	if (dsr_sendbuf_dup(priv, ip_hdr(skb)))
		drop = DSR_S_SENDBUF_DROP_DUP;
	else if (skb_queue_len(&priv->sendbuf) >=
		 DSR_P(priv, SEND_BUFFER_PACKETS) ||
		 priv->sendbuf_bytes + skb->len >
		 DSR_P(priv, SEND_BUFFER_BYTES))
		drop = DSR_S_SENDBUF_DROP_FULL;
	if (drop != DSR_S_MAX) {
		dsr_stat(priv, drop);
		dev_core_stats_tx_dropped_inc(priv->dev);
		kfree_skb(skb);
	} else {
		DSR_CB(skb)->time = dsr_now(priv);
		__skb_queue_tail(&priv->sendbuf, skb);
		priv->sendbuf_bytes += skb->len;
		dsr_stat(priv, DSR_S_SENDBUF_QUEUED);
	}
}

/*
 * Send what now has a route.  A scan of the whole buffer: receivers look
 * only when the route cache learned something (routes_gen), the timer at
 * most every DSR_DRAIN_MS for what became usable otherwise (a refreshed
 * route, an expired hold-down).
 */
void dsr_sendbuf_send(struct dsr_priv *priv, u64 now, struct sk_buff_head *out)
{
	__be32 hops[DSR_MAX_PATH];
	struct sk_buff *skb, *tmp;
	unsigned int n;

	priv->drained_gen = priv->routes_gen;
	priv->drained = now;
	skb_queue_walk_safe(&priv->sendbuf, skb, tmp) {
		n = dsr_rc_lookup(&priv->rc, ip_hdr(skb)->daddr, hops, now);
		if (!n)
			continue;
		dsr_sendbuf_unlink(priv, skb);
		dsr_send_cached(priv, skb, hops, n, out);
	}
}

/* The discovery of target failed: what waits for it is dropped. */
void dsr_sendbuf_drop_dst(struct dsr_priv *priv, __be32 target)
{
	struct sk_buff *skb, *tmp;

	skb_queue_walk_safe(&priv->sendbuf, skb, tmp) {
		if (ip_hdr(skb)->daddr != target)
			continue;
		dsr_sendbuf_unlink(priv, skb);
		dsr_stat(priv, DSR_S_SENDBUF_DROP_DISCOVERY);
		dev_core_stats_tx_dropped_inc(priv->dev);
		kfree_skb(skb);
	}
}

/* Drop what waited SendBufferTimeout. */
void dsr_sendbuf_tick(struct dsr_priv *priv, u64 now)
{
	u64 timeout = DSR_P(priv, SEND_BUFFER_TIMEOUT_MS);
	struct sk_buff *skb, *tmp;

	skb_queue_walk_safe(&priv->sendbuf, skb, tmp) {
		if (now - DSR_CB(skb)->time < timeout)
			continue;
		dsr_sendbuf_unlink(priv, skb);
		dsr_stat(priv, DSR_S_SENDBUF_DROP_TIMEOUT);
		dev_core_stats_tx_dropped_inc(priv->dev);
		kfree_skb(skb);
	}
}
