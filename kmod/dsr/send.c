// SPDX-License-Identifier: GPL-2.0
/*
 * Sending along a source route: a packet we originate, salvage or relay
 * from outside gets a DSR Options header with the route (and an
 * Acknowledgment Request when Route Maintenance wants one), becomes a frame
 * to the first hop and, unless its next hop is trusted, enters the
 * Maintenance Buffer (maintbuf.c).
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "dsr.h"

/* Insert the DSR header dh (dlen bytes) after the IP header of skb. */
static int dsr_insert_hdr(struct sk_buff *skb, const u8 *dh, size_t dlen)
{
	unsigned int ihl = ip_hdrlen(skb);
	struct iphdr *iph;

	if (ntohs(ip_hdr(skb)->tot_len) + dlen > IP_MAX_MTU ||
	    skb_cow_head(skb, dlen + LL_MAX_HEADER))
		return -ENOMEM;
	/* (the header, and with it the GSO type, is ours now: not a clone's) */
	if (skb_is_gso(skb))
		skb_shinfo(skb)->gso_type |= DSR_GSO_MARK;
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
	if (track && !dsr_maint_room(priv, skb, flags & DSR_SEND_CTRL)) {
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
	/* the L4 header did not move: an offloaded checksum stays so */
	if (skb->ip_summed != CHECKSUM_PARTIAL)
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

	/* (a packet from a slave's address is ours too: section 8.4) */
	if (!dsr_is_self(priv, ip_hdr(skb)->saddr))
		flags |= DSR_SEND_SELF_FIRST;
	if (n > 1 && dsr_rc_external(&priv->rc, hops, n))
		flags |= DSR_SEND_LAST_EXT;
	if (n >= DSR_MAX_PATH && (flags & DSR_SEND_SELF_FIRST)) {
		kfree_skb(skb);
		return;
	}
	dsr_send_routed(priv, skb, hops, n, flags, 0, NULL, 0, out);
}

/*
 * A Route Reply or Error (opts) from src (0: the home address) to dst
 * along hops, maintained like data; salvage: the Source Route's Salvage
 * (section 8.3.5).
 */
int dsr_send_ctrl_routed(struct dsr_priv *priv, __be32 src, __be32 dst,
			 const __be32 *hops, unsigned int n, u8 salvage,
			 const u8 *opts, size_t optlen,
			 struct sk_buff_head *out)
{
	struct sk_buff *skb;

	skb = dsr_ctrl_alloc(priv, 0, src ?: dsr_self(priv), dst,
			     DSR_P(priv, DISCOVERY_HOP_LIMIT));
	if (!skb)
		return -ENOMEM;
	ip_hdr(skb)->protocol = DSR_NO_NEXT_HEADER;
	return dsr_send_routed(priv, skb, hops, n, DSR_SEND_CTRL, salvage,
			       opts, optlen, out);
}
