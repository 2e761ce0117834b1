// SPDX-License-Identifier: GPL-2.0
/*
 * The exact miss signal: the kfree_skb tracepoint reports every packet the
 * kernel frees as dropped, with a reason since 5.17; both kernels we build
 * for (6.1, 6.12) have SKB_DROP_REASON_NETFILTER_DROP, given by
 * nf_hook_slow() for an NF_DROP verdict (an nftables or iptables drop in
 * any hook).  A packet that came in on an attached device and is dropped
 * by netfilter is either a marked packet (a miss at once, without waiting
 * for the mark's timeout) or a frame the engine let through whole and the
 * kernel dropped anyway: a false negative.  Other drop reasons (no route,
 * TTL, a full queue) are not the kernel's policy and teach nothing.
 *
 * The probe runs for every kfree_skb of the system: the reason is tested
 * first, and nothing else is done for any other.
 */
#include <linux/ip.h>
#include <trace/events/skb.h>

#include "ah_compat.h"
#include "engine.h"

static void tr_kfree_skb(AH_KFREE_SKB_ARGS)
{
	const struct iphdr *iph;
	unsigned long flags;
	struct iphdr hdr;
	struct tr_dev *td;

	if (reason != SKB_DROP_REASON_NETFILTER_DROP ||
	    skb->protocol != htons(ETH_P_IP) || !skb->dev)
		return;
	iph = skb_header_pointer(skb, skb_network_offset(skb), sizeof(hdr),
				 &hdr);
	if (!iph || iph->version != 4)
		return;
	rcu_read_lock();
	/* skb->dev: the device it came in on, until routing sends it out */
	td = tr_dev_find_rcu(skb->dev);
	if (td && skb->skb_iif == td->dev->ifindex &&
	    READ_ONCE(td->enabled)) {
		spin_lock_irqsave(&td->lock, flags);
		if (!tr_flow_mark_dropped(td->t, iph->saddr, iph->daddr,
					  ntohs(iph->id), tr_now()))
			tr_flow_note_kernel_drop(td->t);
		spin_unlock_irqrestore(&td->lock, flags);
	}
	rcu_read_unlock();
}

int tr_drop_init(void)
{
	return register_trace_kfree_skb(tr_kfree_skb, NULL);
}

void tr_drop_exit(void)
{
	unregister_trace_kfree_skb(tr_kfree_skb, NULL);
	tracepoint_synchronize_unregister();
}
