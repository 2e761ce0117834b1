// SPDX-License-Identifier: GPL-2.0
/*
 * ICMP errors where RFC 4728 and IP expect them: Parameter Problem for a
 * Segments Left past the address list (section 8.1.4), Time Exceeded for
 * a packet whose TTL runs out at a relay, Destination Unreachable /
 * Fragmentation Needed for a DF packet that no longer fits the next hop
 * (so that path-MTU discovery works through dsr0, RFC 1191).
 *
 * An error goes to the packet's source as any packet we originate, over
 * DSR, with a source route from the cache; without one it is not sent
 * (icmp_no_route), never after a Route Discovery.  It quotes
 * the packet as its source sent it, without the DSR header that the source
 * added (its own stack must find the socket in the quote), except for a
 * Parameter Problem, whose pointer is into the header as received.  Rate
 * limits as IP's own (icmp_ratelimit, icmp_msgs_per_sec): per destination
 * one a second in bursts of six, a thousand a second in all.
 */
#include <linux/icmp.h>
#include <linux/ip.h>
#include <net/ip.h>

#include "dsr.h"

/* what an error quotes at most: IP's 576-byte datagram (RFC 1812 4.3.2.3) */
#define DSR_ICMP_QUOTE	(576 - sizeof(struct iphdr) - sizeof(struct icmphdr))

/* Whether the packet may be answered with an error at all (RFC 1122). */
static bool dsr_icmp_allowed(struct dsr_priv *priv, const struct iphdr *iph,
			     const u8 *l4, unsigned int l4len, u8 proto)
{
	if (!ah_addr_routable(iph->saddr) || dsr_is_self(priv, iph->saddr) ||
	    ipv4_is_lbcast(iph->daddr) || ipv4_is_multicast(iph->daddr))
		return false;
	/* not about an ICMP error */
	if (proto == IPPROTO_ICMP && l4len >= 1 &&
	    (l4[0] == ICMP_DEST_UNREACH || l4[0] == ICMP_TIME_EXCEEDED ||
	     l4[0] == ICMP_PARAMETERPROB || l4[0] == ICMP_REDIRECT ||
	     l4[0] == ICMP_SOURCE_QUENCH))
		return false;
	return true;
}

static bool dsr_icmp_ratelimit(struct dsr_priv *priv, __be32 dst)
{
	u64 now = dsr_now(priv);

	if (dsr_rl_allow(&priv->rl_icmp, &dst, sizeof(dst), now) &&
	    dsr_rl_allow_one(&priv->rl_icmp_all, DSR_ICMP_RATE_ALL,
			     DSR_ICMP_BURST_ALL, now))
		return true;
	dsr_stat(priv, DSR_S_ICMP_RATE_LIMITED);
	return false;
}

/*
 * skb: the offending packet, data at its IP and DSR headers (linear); p: its
 * DSR header (stripped from the quote), or NULL to quote it as received.
 * info: the ICMP header's second word.  priv->lock held.
 */
void dsr_icmp_send(struct dsr_priv *priv, const struct sk_buff *skb,
		   const struct dsr_parsed *p, u8 type, u8 code, __be32 info,
		   struct sk_buff_head *out)
{
	const struct iphdr *in = ip_hdr(skb);
	unsigned int ihl = in->ihl * 4, tot = ntohs(in->tot_len), skip, qlen;
	unsigned int hroom = LL_MAX_HEADER + DSR_MTU_RESERVE;
	__be32 hops[DSR_MAX_PATH];
	struct iphdr *iph, *q;
	struct icmphdr *icmph;
	struct sk_buff *nskb;
	unsigned int n;
	u8 proto = p ? p->next_header : in->protocol;
	const u8 *l4;
	u8 l4type;

	skip = p ? p->len : 0;
	if (!dsr_self(priv) || tot > skb->len || ihl + skip > tot ||
	    proto == DSR_NO_NEXT_HEADER)
		return;
	/* (the L4 header need not be linear: a GSO unit's payload is not) */
	l4 = skb_header_pointer(skb, ihl + skip, min(tot - ihl - skip, 1U),
				&l4type);
	if (!dsr_icmp_allowed(priv, in, l4, l4 ? tot - ihl - skip : 0, proto) ||
	    !dsr_icmp_ratelimit(priv, in->saddr))
		return;
	qlen = min_t(unsigned int, tot - skip, DSR_ICMP_QUOTE);
	nskb = alloc_skb(hroom + sizeof(*iph) + sizeof(*icmph) + qlen,
			 GFP_ATOMIC);
	if (!nskb) {
		dsr_stat(priv, DSR_S_NOMEM);
		return;
	}
	skb_reserve(nskb, hroom);
	skb_reset_network_header(nskb);
	iph = skb_put(nskb, sizeof(*iph));
	icmph = skb_put(nskb, sizeof(*icmph));
	q = skb_put(nskb, qlen);
	/* the quote: the IP header, then what followed the DSR header */
	memcpy(q, in, ihl);
	if (skb_copy_bits(skb, ihl + skip, (u8 *)q + ihl, qlen - ihl)) {
		kfree_skb(nskb);
		return;
	}
	if (p) {
		q->protocol = p->next_header;
		q->tot_len = htons(tot - skip);
		ip_send_check(q);
	}
	icmph->type = type;
	icmph->code = code;
	icmph->checksum = 0;
	icmph->un.gateway = info;
	icmph->checksum = ip_compute_csum(icmph, sizeof(*icmph) + qlen);

	iph->version = 4;
	iph->ihl = 5;
	iph->tos = (in->tos & IPTOS_TOS_MASK) | IPTOS_PREC_INTERNETCONTROL;
	iph->tot_len = htons(nskb->len);
	iph->id = htons((u16)atomic_inc_return(&priv->ip_id));
	iph->frag_off = 0;
	iph->ttl = DSR_P(priv, DISCOVERY_HOP_LIMIT);
	iph->protocol = IPPROTO_ICMP;
	iph->saddr = dsr_self(priv);
	iph->daddr = in->saddr;
	ip_send_check(iph);
	nskb->protocol = htons(ETH_P_IP);
	/* never a Route Discovery for an error: a forged source would
	 * make each one a flood of requests
	 */
	n = dsr_rc_lookup(&priv->rc, in->saddr, hops, dsr_now(priv));
	if (!n) {
		dsr_stat(priv, DSR_S_ICMP_NO_ROUTE);
		kfree_skb(nskb);
		return;
	}
	dsr_stat(priv, DSR_S_ICMP_SENT);
	dsr_send_cached(priv, nskb, hops, n, out);
}
