// SPDX-License-Identifier: GPL-2.0
/*
 * GSO for IP protocol 48, as the kernel has it for IPv6 extension headers:
 * a GSO unit that carries a DSR header (a TCP or UDP unit that dsr0 took
 * from the stack, xmit.c) crosses a hop whole where the slave and the
 * medium carry GSO units (veth, a bridge, ifb: software devices) and is cut
 * into MTU-sized packets, each with the same DSR header, in front of any
 * other device: here, when the core's validate_xmit_skb() (or a qdisc such
 * as tbf) segments it.
 *
 * A unit is marked with SKB_GSO_SCTP (DSR_GSO_MARK), a GSO type that only
 * software devices offer (NETIF_F_GSO_SCTP is in NETIF_F_GSO_SOFTWARE and
 * in no NIC's features: SCTP is only ever segmented in software): a NIC
 * that does TSO would look for TCP right after the IP header and find
 * DSR's, so the mark keeps every unit away from hardware segmentation, and
 * a vlan or bridge in between still hands it on to the NIC's own
 * validate_xmit_skb(), which cuts it here.  Nothing but SCTP's own GSO
 * reads that type, and the mark is taken off before the transport
 * protocol's gso_segment runs, and with the DSR header at the destination
 * (frame.c).  (SKB_GSO_FRAGLIST, software-only too, means a frag_list
 * layout that the core acts on: skb_copy() refuses it.)
 */
#include <linux/skbuff.h>
#include <net/protocol.h>

#include "ah_compat.h"
#include "dsr.h"

static struct sk_buff *dsr_gso_segment(struct sk_buff *skb,
				       netdev_features_t features)
{
	struct sk_buff *segs = ERR_PTR(-EINVAL);
	const struct net_offload *ops;
	unsigned int len;
	u8 nh;

	/* data at the DSR header: inet_gso_segment() pulled the IP header */
	if (!(skb_shinfo(skb)->gso_type & DSR_GSO_MARK) ||
	    !pskb_may_pull(skb, DSR_HDR_LEN))
		return segs;
	nh = skb->data[0];
	len = DSR_HDR_LEN + ah_get16(skb->data + 2);
	if (!pskb_may_pull(skb, len))
		return segs;
	/*
	 * A device that offloads checksums only for TCP and UDP right after
	 * the IP header would compute a wrong one: filled in here then.
	 */
	if (!(features & NETIF_F_HW_CSUM))
		features &= ~NETIF_F_CSUM_MASK;
	__skb_pull(skb, len);
	skb_reset_transport_header(skb);
	skb_shinfo(skb)->gso_type &= ~DSR_GSO_MARK;
	ops = rcu_dereference(inet_offloads[nh]);
	segs = ERR_PTR(-EPROTONOSUPPORT);
	if (ops && ops->callbacks.gso_segment)
		segs = ops->callbacks.gso_segment(skb, features);
	/*
	 * Each segment starts at the MAC header with every header up to the
	 * transport header's end copied, ours among them; the original (if
	 * it is to go whole after all) gets its mark back.
	 */
	skb_shinfo(skb)->gso_type |= DSR_GSO_MARK;
	return segs;
}

static const struct net_offload dsr_offload = {
	.callbacks = {
		.gso_segment = dsr_gso_segment,
	},
};

int __init dsr_offload_init(void)
{
	return inet_add_offload(&dsr_offload, DSR_IPPROTO);
}

void dsr_offload_exit(void)
{
	/* (waits until no CPU is still in dsr_gso_segment()) */
	inet_del_offload(&dsr_offload, DSR_IPPROTO);
}
