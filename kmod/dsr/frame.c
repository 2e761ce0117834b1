// SPDX-License-Identifier: GPL-2.0
/*
 * Frames: an IP packet with an Ethernet header for its next hop on one
 * slave (or a copy per slave to the link broadcast), DSR control packets
 * allocated, a DSR header taken off, and the output lists that send the
 * frames in the order they were built (dsr_out_commit(), dsr_out_flush()).
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "ah_compat.h"
#include "dsr.h"

/*
 * Frames built under priv->lock (out) join priv->txq before the lock is
 * dropped, so txq holds them in the order they were built.  priv->lock
 * held, or a frame of the fast path (fastpath.c), built without it.
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

/* tracked frames refused by the queue, handled per dsr_out_flush() round */
#define DSR_TX_DROP_BATCH	8

/*
 * Send priv->txq, after dsr_out_commit() and priv->lock dropped.  One CPU
 * at a time sends (tx_lock), so two CPUs never reorder one flow's frames;
 * a CPU that finds tx_lock taken leaves its frames to the holder, which
 * looks at the queue again after letting go of the lock.  A tracked frame
 * that the slave's queue refused (or a slave that is down) never reached
 * the medium: the Maintenance Buffer hears of it (dsr_maint_tx_dropped()),
 * after tx_lock is let go, a batch of them at a time.
 */
void dsr_out_flush(struct dsr_priv *priv)
{
	struct dsr_tx_drop drop[DSR_TX_DROP_BATCH];
	struct sk_buff *skb;
	unsigned int n;

	rcu_read_lock_bh();
	do {
		/* our frames are queued before we look at tx_lock */
		smp_mb();
		if (!spin_trylock(&priv->tx_lock))
			break;
		n = 0;
		while (n < DSR_TX_DROP_BATCH &&
		       (skb = skb_dequeue(&priv->txq))) {
			u64 seq = DSR_CB(skb)->maint_seq;
			int rc;

			if (seq) {
				const struct iphdr *iph = ip_hdr(skb);

				drop[n].seq = seq;
				drop[n].saddr = iph->saddr;
				drop[n].daddr = iph->daddr;
				drop[n].id = iph->id;
			}
			rc = dev_queue_xmit(skb);
			if (seq && (rc == NET_XMIT_DROP || rc < 0))
				n++;
		}
		spin_unlock(&priv->tx_lock);
		if (n)
			dsr_maint_tx_dropped(priv, drop, n);
		/* and tx_lock is free before we look at the queue again */
		smp_mb();
	} while (!skb_queue_empty_lockless(&priv->txq));
	rcu_read_unlock_bh();
}

/*
 * The frames for a slave being released that still wait in txq (a frame
 * holds no reference on its device).  The CPU that built one may not yet
 * be in dsr_out_flush()'s RCU-bh section when the release's
 * synchronize_net() returns: between dsr_unlock_bh() and
 * rcu_read_lock_bh() it is in no read-side section, and another CPU's
 * flush, whose section began after the grace period did, may send the
 * frame after it.  Taking tx_lock waits for a flush that is between
 * dequeuing a frame and sending it; the rest are dropped and counted
 * (tx_slave_gone).  Process context, before the slave's dev_put().
 */
void dsr_out_purge_dev(struct dsr_priv *priv, struct net_device *dev)
{
	struct sk_buff_head gone;
	struct sk_buff *skb, *tmp;
	unsigned long flags;
	unsigned int n;

	__skb_queue_head_init(&gone);
	spin_lock_bh(&priv->tx_lock);
	spin_lock_irqsave(&priv->txq.lock, flags);
	skb_queue_walk_safe(&priv->txq, skb, tmp) {
		if (skb->dev != dev)
			continue;
		__skb_unlink(skb, &priv->txq);
		__skb_queue_tail(&gone, skb);
	}
	spin_unlock_irqrestore(&priv->txq.lock, flags);
	spin_unlock_bh(&priv->tx_lock);
	n = skb_queue_len(&gone);
	__skb_queue_purge(&gone);
	if (n)
		dsr_stat_add(priv, DSR_S_TX_SLAVE_GONE, n);
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
 * Turn the IP packet skb into a frame to the MAC dest on slave s and append
 * it to out.  Consumes skb.  Under priv->lock, or in the fast path under
 * RCU (fastpath.c: a slave released meanwhile has its frames purged from
 * txq after a grace period, dsr_out_purge_dev()).
 */
int dsr_frame_to(struct dsr_priv *priv, struct sk_buff *skb,
		 struct dsr_slave *s, const u8 *dest, struct sk_buff_head *out)
{
	if (skb_is_gso(skb) ? !skb_gso_validate_network_len(skb, s->dev->mtu) :
	    skb->len > s->dev->mtu) {
		dsr_stat(priv, DSR_S_TX_TOO_BIG);
		kfree_skb(skb);
		return -EMSGSIZE;
	}
	/*
	 * An offloaded checksum is filled in here unless the slave fills in
	 * any (NETIF_F_HW_CSUM): one that offloads only TCP and UDP over IPv4
	 * would look for them after the IP header and find ours.  (A GSO
	 * unit's are filled in where it is cut, offload.c.)
	 */
	if (skb->ip_summed == CHECKSUM_PARTIAL && !skb_is_gso(skb) &&
	    !(s->dev->features & NETIF_F_HW_CSUM)) {
		if (skb_checksum_help(skb)) {
			dsr_stat(priv, DSR_S_NOMEM);
			kfree_skb(skb);
			return -ENOMEM;
		}
		dsr_stat(priv, DSR_S_TX_CSUM_SW);
	}
	/*
	 * A GSO unit's transport header is its L4 header, after ours: the
	 * core reads it there (qdisc_pkt_len_segs_init() drops a unit whose
	 * TCP header is not where the transport header points, since 2026's
	 * stable kernels), and so do the segmenting and TSO paths.
	 */
	if (skb_is_gso(skb)) {
		unsigned int off = ip_hdrlen(skb);

		skb_set_transport_header(skb, off + DSR_HDR_LEN +
					 ah_get16(skb->data + off + 2));
	}
	if (dsr_push_eth(skb, s, dest)) {
		dsr_stat(priv, DSR_S_NOMEM);
		kfree_skb(skb);
		return -ENOMEM;
	}
	DSR_CB(skb)->maint_seq = 0;
	__skb_queue_tail(out, skb);
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
	int err;

	if (!s)
		s = list_first_entry_or_null(&priv->slaves, struct dsr_slave,
					     list);
	if (!s) {
		kfree_skb(skb);
		return -ENODEV;
	}
	err = dsr_frame_to(priv, skb, s, n ? n->mac : s->dev->broadcast, out);
	if (!err && n)
		atomic64_inc(&n->tx);
	return err;
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
		DSR_CB(c)->maint_seq = 0;
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
	/*
	 * The L4 header did not move: a checksum still to be filled in
	 * (CHECKSUM_PARTIAL, offloaded by the source over veth) or one the
	 * device verified stays so; a sum over the frame no longer covers
	 * the packet.
	 */
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	/* a plain TCP or UDP unit again, for the stack (offload.c) */
	if (skb_is_gso(skb))
		skb_shinfo(skb)->gso_type &= ~DSR_GSO_MARK;
	return 0;
}
