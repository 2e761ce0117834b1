// SPDX-License-Identifier: GPL-2.0
/*
 * What a slice sends through its interface: a netfilter egress hook on
 * the device, in the slice's namespace, that drops and counts a frame
 * whose source MAC is not the interface's, or an IPv4 packet whose source
 * is not one of the interface's addresses or of its master's (0.0.0.0
 * passes: DHCP; so does a DSR packet a slave of dsr0 relays).  The
 * hook also sees what packet sockets send with PACKET_QDISC_BYPASS.  The
 * slice cannot remove it: it is no nftables table.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/netfilter.h>
#include <linux/netfilter_netdev.h>
#include <net/rtnetlink.h>

#include "slice.h"

/* RFC 4728's IP protocol number (kmod/dsr's, which this module needs not) */
#define IPPROTO_DSR_SLICE 48

static bool slice_dev_has_ipv4(const struct net_device *dev, __be32 addr)
{
	const struct in_device *in_dev = __in_dev_get_rcu(dev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev)
		if (ifa->ifa_local == addr)
			return true;
	return false;
}

/*
 * The slice's own source: an address of the interface or of the device it
 * is enslaved to (a slave carries none of its own).  A DSR packet sent by
 * a slave of a dsr device keeps the source of whoever originated it, which
 * the route in its header names: the slice's dsr0 may relay.
 */
static bool slice_own_ipv4(const struct net_device *dev,
			   const struct iphdr *iph)
{
	const struct net_device *master;

	if (iph->saddr == htonl(INADDR_ANY) ||
	    slice_dev_has_ipv4(dev, iph->saddr))
		return true;
	master = netdev_master_upper_dev_get_rcu((struct net_device *)dev);
	if (!master)
		return false;
	if (iph->protocol == IPPROTO_DSR_SLICE && master->rtnl_link_ops &&
	    !strcmp(master->rtnl_link_ops->kind, "dsr"))
		return true;
	return slice_dev_has_ipv4(master, iph->saddr);
}

static unsigned int slice_egress(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct slice_grant *g = priv;
	struct net_device *dev = skb->dev;
	struct ethhdr _eth;
	const struct ethhdr *eth;
	struct iphdr _iph;
	const struct iphdr *iph;
	__be16 proto = skb->protocol;
	int nh = skb_network_offset(skb);

	if (dev->type == ARPHRD_ETHER) {
		/* the frame starts at skb->data here */
		eth = skb_header_pointer(skb, 0, sizeof(_eth), &_eth);
		if (!eth || !ether_addr_equal(eth->h_source, dev->dev_addr))
			goto spoofed;
		proto = eth->h_proto;
		nh = ETH_HLEN;
	}
	if (proto == htons(ETH_P_IP)) {
		if (nh < 0)
			goto spoofed;
		iph = skb_header_pointer(skb, nh, sizeof(_iph), &_iph);
		if (!iph || !slice_own_ipv4(dev, iph))
			goto spoofed;
	}
	return NF_ACCEPT;
spoofed:
	atomic64_inc(&g->spoofed);
	return NF_DROP;
}

int slice_egress_start(struct slice_grant *g)
{
	int err;

	g->egress_ops = (struct nf_hook_ops) {
		.hook = slice_egress,
		.pf = NFPROTO_NETDEV,
		.hooknum = NF_NETDEV_EGRESS,
		.priority = INT_MIN,
		.dev = g->dev,
		.priv = g,
	};
	err = nf_register_net_hook(g->slice, &g->egress_ops);
	if (!err)
		g->egress_on = true;
	return err;
}

void slice_egress_stop(struct slice_grant *g)
{
	if (!g->egress_on)
		return;
	nf_unregister_net_hook(dev_net(g->dev), &g->egress_ops);
	g->egress_on = false;
	/* a CPU may still be in the hook, with g: it may be freed after */
	synchronize_net();
}
