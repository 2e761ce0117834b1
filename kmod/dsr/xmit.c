// SPDX-License-Identifier: GPL-2.0
/*
 * Sending: packets the stack routes to dsr0 (ndo_start_xmit) go along a
 * source route from the route cache, or wait in the Send Buffer for a
 * Route Discovery (dsr_route_or_queue(), discovery.c); a fragment travels
 * IP-in-IP; a packet to a multicast group goes down the group's tree
 * (mcast.c).
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "ah_compat.h"
#include "dsr.h"

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

/*
 * One IP packet of dsr0's (a whole one, or one segment of a GSO unit):
 * checks, then the route or the Send Buffer.  Consumes skb.  priv->lock
 * held.
 */
static void dsr_xmit_one(struct dsr_priv *priv, struct sk_buff *skb,
			 struct sk_buff_head *out)
{
	/*
	 * Only the IP header is read or moved (dsr_start_xmit() pulled it
	 * in): a packet keeps its pages, as IP's own output does, and a
	 * slave without SG gets it linear from the core.
	 */
	if (ip_is_fragment(ip_hdr(skb)) && dsr_encap_frag(priv, skb)) {
		dsr_stat(priv, DSR_S_NOMEM);
		goto drop;
	}
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	dsr_route_or_queue(priv, skb, out);
	return;
drop:
	dev_core_stats_tx_dropped_inc(priv->dev);
	kfree_skb(skb);
}

/*
 * GSO units (dsr0 offers GSO, as IP tunnels do, so that the stack above
 * runs once per unit) of TCP and UDP go on whole, with one DSR header,
 * one Maintenance Buffer entry and one acknowledgment, and are cut into
 * packets where a slave cannot carry them (offload.c).  Any other kind is
 * cut here into MTU-sized IP packets, each of which then gets its own DSR
 * header, IP id and Route Maintenance, exactly as if the stack had sent
 * them one by one; they stay linear and keep CHECKSUM_PARTIAL when dsr0
 * offers checksum offload (dsr_frame() finishes it for a slave that
 * cannot).
 */
static bool dsr_gso_whole(const struct sk_buff *skb)
{
	unsigned int t = skb_shinfo(skb)->gso_type;

	return (t & (SKB_GSO_TCPV4 | SKB_GSO_UDP_L4)) &&
	       !(t & (DSR_GSO_MARK | SKB_GSO_FRAGLIST));
}

static struct sk_buff *dsr_xmit_segment(struct dsr_priv *priv,
					struct sk_buff *skb)
{
	netdev_features_t f = priv->dev->features & NETIF_F_HW_CSUM;
	struct sk_buff *segs;

	segs = skb_gso_segment(skb, f);
	if (IS_ERR_OR_NULL(segs)) {
		dsr_stat(priv, DSR_S_NOMEM);
		kfree_skb(skb);
		return NULL;
	}
	consume_skb(skb);
	return segs;
}

netdev_tx_t dsr_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dsr_priv *priv = netdev_priv(dev);
	unsigned int len = skb->len, n = 1;
	struct sk_buff *segs = NULL, *next;
	struct sk_buff_head out;
	const struct iphdr *iph;
	bool mcast;

	if (skb->protocol != htons(ETH_P_IP) ||
	    !pskb_may_pull(skb, sizeof(*iph)) ||
	    ip_hdr(skb)->ihl < 5 || !pskb_may_pull(skb, ip_hdrlen(skb))) {
		dsr_stat(priv, DSR_S_TX_NOT_IPV4);
		goto drop;
	}
	iph = ip_hdr(skb);
	/* a local socket's multicast joins and leaves (mcast.c) */
	if (iph->protocol == IPPROTO_IGMP && ipv4_is_multicast(iph->daddr)) {
		dsr_mcast_igmp(priv, skb);
		return NETDEV_TX_OK;
	}
	/* a group's packets go down its tree (mcast.c), one by one */
	mcast = ipv4_is_multicast(iph->daddr) &&
		!ipv4_is_local_multicast(iph->daddr);
	if ((ipv4_is_multicast(iph->daddr) && !mcast) ||
	    ipv4_is_lbcast(iph->daddr) || ipv4_is_zeronet(iph->daddr)) {
		dsr_stat(priv, DSR_S_TX_BROADCAST);
		goto drop;
	}
	if (!dsr_self(priv)) {
		dsr_stat(priv, DSR_S_NO_ADDRESS);
		goto drop;
	}
	if (skb_is_gso(skb)) {
		dsr_stat(priv, DSR_S_TX_GSO);
		n = skb_shinfo(skb)->gso_segs;
	}
	if (skb_is_gso(skb) && (mcast || !dsr_gso_whole(skb))) {
		segs = dsr_xmit_segment(priv, skb);
		if (!segs)
			goto dropped;
		n = 0;
		skb_list_walk_safe(segs, skb, next)
			n++;
		dsr_stat_add(priv, DSR_S_TX_GSO_SEGS, n);
	}
	__skb_queue_head_init(&out);
	dsr_lock(priv);
	if (priv->dead) {
		dsr_unlock(priv);
		if (segs)
			kfree_skb_list(segs);
		else
			kfree_skb(skb);
		goto dropped;
	}
	if (segs) {
		skb_list_walk_safe(segs, skb, next) {
			skb_mark_not_on_list(skb);
			if (mcast)
				dsr_mcast_xmit(priv, skb, &out);
			else
				dsr_xmit_one(priv, skb, &out);
		}
	} else if (mcast) {
		dsr_mcast_xmit(priv, skb, &out);
	} else {
		dsr_xmit_one(priv, skb, &out);
	}
	dsr_out_commit(priv, &out);
	dsr_unlock(priv);
	dsr_out_flush(priv);
	dev_sw_netstats_tx_add(dev, n, len);
	return NETDEV_TX_OK;

drop:
	kfree_skb(skb);
dropped:
	dev_core_stats_tx_dropped_inc(dev);
	return NETDEV_TX_OK;
}
