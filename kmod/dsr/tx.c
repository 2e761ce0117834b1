// SPDX-License-Identifier: GPL-2.0
/*
 * Sending: packets the stack routes to dsr0 get a DSR Options header with
 * a source route from the route cache (or wait in the Send Buffer for a
 * Route Discovery); control packets are built here too.  A frame is an IP
 * packet with an Ethernet header for its next hop on one slave.
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "dsr.h"

/*
 * Frames built under priv->lock (out) join priv->txq before the lock is
 * dropped, so txq holds them in the order they were built.  priv->lock held.
 */
void dsr_out_commit(struct dsr_priv *priv, struct sk_buff_head *out)
{
	unsigned long flags;

	if (skb_queue_empty(out))
		return;
	spin_lock_irqsave(&priv->txq.lock, flags);
	skb_queue_splice_tail_init(out, &priv->txq);
	spin_unlock_irqrestore(&priv->txq.lock, flags);
}

/*
 * Send priv->txq, after dsr_out_commit() and priv->lock dropped.  One CPU
 * at a time sends (tx_lock), so two CPUs never reorder one flow's frames;
 * a CPU that finds tx_lock taken leaves its frames to the holder, which
 * looks at the queue again after letting go of the lock.
 */
void dsr_out_flush(struct dsr_priv *priv)
{
	struct sk_buff *skb;

	rcu_read_lock_bh();
	do {
		/* our frames are queued before we look at tx_lock */
		smp_mb();
		if (!spin_trylock(&priv->tx_lock))
			break;
		while ((skb = skb_dequeue(&priv->txq)))
			dev_queue_xmit(skb);
		spin_unlock(&priv->tx_lock);
		/* and tx_lock is free before we look at the queue again */
		smp_mb();
	} while (!skb_queue_empty_lockless(&priv->txq));
	rcu_read_unlock_bh();
}

static int dsr_push_eth(struct sk_buff *skb, struct dsr_slave *s,
			const u8 *dest)
{
	struct ethhdr *eth;

	if (skb_cow_head(skb, ETH_HLEN + LL_RESERVED_SPACE(s->dev)))
		return -ENOMEM;
	skb_reset_network_header(skb);
	eth = skb_push(skb, ETH_HLEN);
	skb_reset_mac_header(skb);
	ether_addr_copy(eth->h_dest, dest);
	ether_addr_copy(eth->h_source, s->dev->dev_addr);
	eth->h_proto = htons(ETH_P_IP);
	skb->protocol = htons(ETH_P_IP);
	skb->dev = s->dev;
	skb->pkt_type = PACKET_OUTGOING;
	return 0;
}

/*
 * Turn the IP packet skb into a frame to nexthop and append it to out.  An
 * unknown neighbour gets a link-layer broadcast: the source route names the
 * node that is to take it.  Consumes skb.  Called with priv->lock held.
 */
int dsr_frame(struct dsr_priv *priv, struct sk_buff *skb, __be32 nexthop,
	      struct sk_buff_head *out)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, nexthop);
	struct dsr_slave *s = n ? n->slave : NULL;
	const u8 *dest = n ? n->mac : priv->dev->broadcast;

	if (!s)
		s = list_first_entry_or_null(&priv->slaves, struct dsr_slave,
					     list);
	if (!s) {
		kfree_skb(skb);
		return -ENODEV;
	}
	if (skb->len > s->dev->mtu) {
		dsr_stat(priv, DSR_S_TX_TOO_BIG);
		kfree_skb(skb);
		return -EMSGSIZE;
	}
	if (dsr_push_eth(skb, s, n ? dest : s->dev->broadcast)) {
		dsr_stat(priv, DSR_S_NOMEM);
		kfree_skb(skb);
		return -ENOMEM;
	}
	if (n)
		n->tx++;
	__skb_queue_tail(out, skb);
	return 0;
}

/* A copy of skb to the link broadcast on every slave (or only one). */
void dsr_broadcast(struct dsr_priv *priv, struct sk_buff *skb,
		   struct dsr_slave *only, struct sk_buff_head *out)
{
	struct dsr_slave *s;

	list_for_each_entry(s, &priv->slaves, list) {
		struct sk_buff *c;

		if (only && s != only)
			continue;
		c = skb_copy(skb, GFP_ATOMIC);
		if (!c || dsr_push_eth(c, s, s->dev->broadcast)) {
			dsr_stat(priv, DSR_S_NOMEM);
			kfree_skb(c);
			continue;
		}
		__skb_queue_tail(out, c);
	}
	kfree_skb(skb);
}

/* A DSR control packet: IP header and optlen bytes of DSR header to fill. */
struct sk_buff *dsr_ctrl_alloc(struct dsr_priv *priv, size_t optlen,
			       __be32 saddr, __be32 daddr, u8 ttl)
{
	unsigned int hroom = LL_MAX_HEADER + DSR_MTU_RESERVE;
	struct sk_buff *skb;
	struct iphdr *iph;

	skb = alloc_skb(hroom + sizeof(*iph) + optlen, GFP_ATOMIC);
	if (!skb) {
		dsr_stat(priv, DSR_S_NOMEM);
		return NULL;
	}
	skb_reserve(skb, hroom);
	skb_reset_network_header(skb);
	iph = skb_put(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = 0;
	iph->tot_len = htons(sizeof(*iph) + optlen);
	iph->id = htons((u16)atomic_inc_return(&priv->ip_id));
	iph->frag_off = 0;
	iph->ttl = ttl;
	iph->protocol = DSR_IPPROTO;
	iph->saddr = saddr;
	iph->daddr = daddr;
	skb_put_zero(skb, optlen);
	ip_send_check(iph);
	skb->protocol = htons(ETH_P_IP);
	return skb;
}

/* Insert the DSR header dh (dlen bytes) after the IP header of skb. */
static int dsr_insert_hdr(struct sk_buff *skb, const u8 *dh, size_t dlen)
{
	unsigned int ihl = ip_hdrlen(skb);
	struct iphdr *iph;

	if (skb_cow_head(skb, dlen + LL_MAX_HEADER))
		return -ENOMEM;
	skb_push(skb, dlen);
	memmove(skb->data, skb->data + dlen, ihl);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ihl);
	memcpy(skb->data + ihl, dh, dlen);
	iph = ip_hdr(skb);
	iph->protocol = DSR_IPPROTO;
	iph->tot_len = htons(ntohs(iph->tot_len) + dlen);
	ip_send_check(iph);
	return 0;
}

/*
 * Remove the DSR header of skb (at its IP header), which p describes; back
 * to a plain packet.
 */
int dsr_strip_hdr(struct sk_buff *skb, const struct dsr_parsed *p)
{
	unsigned int ihl = ip_hdrlen(skb);
	struct iphdr *iph;

	if (skb_ensure_writable(skb, ihl + p->len))
		return -ENOMEM;
	memmove(skb->data + p->len, skb->data, ihl);
	skb_pull(skb, p->len);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ihl);
	iph = ip_hdr(skb);
	iph->protocol = p->next_header;
	iph->tot_len = htons(ntohs(iph->tot_len) - p->len);
	ip_send_check(iph);
	skb->ip_summed = CHECKSUM_NONE;
	return 0;
}

/*
 * Send skb, an IP packet without DSR header that we originate (or salvage),
 * along hops[0..n-1] (the last is its destination).  With salvage_self the
 * source route starts with our own address, as a salvaged packet's does
 * (RFC 4728 section 8.3.6), or, not salvaged, as a gateway's does for a
 * packet from outside (First Hop External).  extra: options to carry after the source
 * route (a Route Reply or Error).  Consumes skb.  priv->lock held.
 */
int dsr_send_routed(struct dsr_priv *priv, struct sk_buff *skb,
		    const __be32 *hops, unsigned int n, unsigned int flags,
		    u8 salvage, const u8 *extra, size_t extra_len,
		    struct sk_buff_head *out)
{
	bool salvage_self = flags & DSR_SEND_SELF_FIRST;
	bool last_ext = flags & DSR_SEND_LAST_EXT;
	u8 dh[DSR_HDR_LEN + DSR_SRT_SIZE(DSR_MAX_PATH + 1) + DSR_AREQ_SIZE +
	      DSR_EXTRA_MAX + 4];
	__be32 addrs[DSR_MAX_PATH + 1];
	bool track, explicit;
	u8 segs = DSR_NO_SRT;
	unsigned int na = 0;
	size_t len;
	u16 id = 0;

	len = dsr_put_hdr(dh, ip_hdr(skb)->protocol);
	if (salvage_self)
		addrs[na++] = dsr_self(priv);
	memcpy(addrs + na, hops, (n - 1) * sizeof(*hops));
	na += n - 1;
	if (na) {
		segs = salvage_self ? na - 1 : na;
		len += dsr_put_srt(dh + len, salvage, segs, addrs, na);
		/* relaying for a node outside: the first hop is external */
		if (salvage_self && !salvage)
			dh[DSR_HDR_LEN + 2] |= DSR_SRT_F >> 8;
		if (last_ext)
			dh[DSR_HDR_LEN + 2] |= DSR_SRT_L >> 8;
	}
	if (extra_len > DSR_EXTRA_MAX) {
		kfree_skb(skb);
		return -EINVAL;
	}
	memcpy(dh + len, extra, extra_len);
	len += extra_len;
	/* the hop to a gateway is the last one on which we could overhear */
	explicit = dsr_maint_want_ack(priv, hops[0],
				      n == 1 || (last_ext && n == 2), &track);
	if (track && !dsr_maint_room(priv)) {
		kfree_skb(skb);
		return -ENOBUFS;
	}
	if (explicit) {
		id = ++priv->ack_id;
		len += dsr_put_areq(dh + len, id);
		dsr_stat(priv, DSR_S_ACK_REQ_SENT);
	}
	len = dsr_finish(dh, len);
	if (dsr_insert_hdr(skb, dh, len)) {
		dsr_stat(priv, DSR_S_NOMEM);
		kfree_skb(skb);
		return -ENOMEM;
	}
	skb->ip_summed = CHECKSUM_NONE;
	if (dsr_frame(priv, skb, hops[0], out))
		return -ENOBUFS;
	if (track)
		dsr_maint_track(priv, skb_peek_tail(out), hops[0], explicit, id,
				segs);
	return 0;
}

/* Send skb (plain IP, ours or relayed from outside) along a cached route. */
void dsr_send_cached(struct dsr_priv *priv, struct sk_buff *skb,
		     const __be32 *hops, unsigned int n,
		     struct sk_buff_head *out)
{
	unsigned int flags = 0;

	if (ip_hdr(skb)->saddr != dsr_self(priv))
		flags |= DSR_SEND_SELF_FIRST;
	if (n > 1 && dsr_rc_external(&priv->rc, hops, n))
		flags |= DSR_SEND_LAST_EXT;
	if (n >= DSR_MAX_PATH && (flags & DSR_SEND_SELF_FIRST)) {
		kfree_skb(skb);
		return;
	}
	dsr_send_routed(priv, skb, hops, n, flags, 0, NULL, 0, out);
}

/* Route skb (plain IP, ours) from the cache, or queue it for discovery. */
void dsr_route_or_queue(struct dsr_priv *priv, struct sk_buff *skb,
			struct sk_buff_head *out)
{
	__be32 hops[DSR_MAX_PATH];
	unsigned int n;

	n = dsr_rc_lookup(&priv->rc, ip_hdr(skb)->daddr, hops, dsr_now());
	if (n)
		dsr_send_cached(priv, skb, hops, n, out);
	else
		dsr_sendbuf_add(priv, skb, out);
}

/*
 * RFC 4728 section 8.5: a fragment travels IP-in-IP, so that every packet
 * with a DSR header is whole (its IP id and offset are the passive ack's
 * key) and the destination takes the fragment out for IP to reassemble
 * (dsr_decap_frag()).  The stack fragmented at dsr0's MTU, whose reserve
 * under the slave's MTU also has room for the outer header.
 */
static int dsr_encap_frag(struct dsr_priv *priv, struct sk_buff *skb)
{
	const struct iphdr *in;
	struct iphdr *out;

	if (skb_cow_head(skb, sizeof(*out) + LL_MAX_HEADER))
		return -ENOMEM;
	in = ip_hdr(skb);
	out = skb_push(skb, sizeof(*out));
	out->version = 4;
	out->ihl = 5;
	out->tos = in->tos;
	out->tot_len = htons(skb->len);
	out->id = htons((u16)atomic_inc_return(&priv->ip_id));
	out->frag_off = 0;
	out->ttl = in->ttl;
	out->protocol = IPPROTO_IPIP;
	out->saddr = in->saddr;
	out->daddr = in->daddr;
	ip_send_check(out);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*out));
	dsr_stat(priv, DSR_S_FRAG_ENCAP);
	return 0;
}

netdev_tx_t dsr_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dsr_priv *priv = netdev_priv(dev);
	unsigned int len = skb->len;
	struct sk_buff_head out;
	const struct iphdr *iph;

	if (skb->protocol != htons(ETH_P_IP) ||
	    !pskb_may_pull(skb, sizeof(*iph)) ||
	    ip_hdr(skb)->ihl < 5 || !pskb_may_pull(skb, ip_hdrlen(skb))) {
		dsr_stat(priv, DSR_S_TX_NOT_IPV4);
		goto drop;
	}
	iph = ip_hdr(skb);
	if (ipv4_is_multicast(iph->daddr) || ipv4_is_lbcast(iph->daddr) ||
	    ipv4_is_zeronet(iph->daddr)) {
		dsr_stat(priv, DSR_S_TX_BROADCAST);
		goto drop;
	}
	if (!dsr_self(priv)) {
		dsr_stat(priv, DSR_S_NO_ADDRESS);
		goto drop;
	}
	if (skb_linearize(skb))
		goto drop;
	if (ip_is_fragment(ip_hdr(skb)) && dsr_encap_frag(priv, skb)) {
		dsr_stat(priv, DSR_S_NOMEM);
		goto drop;
	}
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	__skb_queue_head_init(&out);
	spin_lock(&priv->lock);
	if (priv->dead) {
		spin_unlock(&priv->lock);
		goto drop;
	}
	dsr_route_or_queue(priv, skb, &out);
	dsr_out_commit(priv, &out);
	spin_unlock(&priv->lock);
	dsr_out_flush(priv);
	dev_sw_netstats_tx_add(dev, 1, len);
	return NETDEV_TX_OK;

drop:
	dev_core_stats_tx_dropped_inc(dev);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

/* A Route Reply or Error (opts) to dst along hops, maintained like data. */
int dsr_send_ctrl_routed(struct dsr_priv *priv, __be32 dst,
			 const __be32 *hops, unsigned int n, const u8 *opts,
			 size_t optlen, struct sk_buff_head *out)
{
	struct sk_buff *skb;

	skb = dsr_ctrl_alloc(priv, 0, dsr_self(priv), dst,
			     DSR_P(priv, DISCOVERY_HOP_LIMIT));
	if (!skb)
		return -ENOMEM;
	ip_hdr(skb)->protocol = DSR_NO_NEXT_HEADER;
	return dsr_send_routed(priv, skb, hops, n, 0, 0, opts, optlen, out);
}
