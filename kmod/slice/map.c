// SPDX-License-Identifier: GPL-2.0
/*
 * Map mode (seed 003's "virtual mapper"): the interface stays the node's;
 * the slice gets a layer-3 device of the same name that carries the
 * interface's IPv4 address.  A netfilter hook in the node's namespace
 * (PRE_ROUTING, just after defragmentation) hands the packets for that
 * address that arrive on the interface, or on its master when it is a
 * slave of dsr0, to the slice's device, except TCP and UDP to the ports
 * the node keeps (DHCP's 67 and 68, and the grant's own) and those of the
 * node's own connections (TCP it opened, UDP it connected).  What the slice
 * sends from that address is routed in the node's namespace and leaves
 * as the node's own packets do (ip_local_out, as ipvlan's layer-3 mode
 * does); anything else it sends is dropped and counted.
 */
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/netfilter_ipv4.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <net/inet_hashtables.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/udp.h>

#include "ah_compat.h"
#include "slice.h"

struct slice_map_priv {
	struct slice_grant *g;	/* outlives the device (grant.c) */
};

static struct slice_grant *slice_map_grant(const struct net_device *vdev)
{
	return ((struct slice_map_priv *)netdev_priv(vdev))->g;
}

/* where the interface's IPv4 traffic is: the interface, or its master */
static struct net_device *slice_map_l3dev(struct slice_grant *g)
{
	return netdev_master_upper_dev_get_rcu(g->dev) ?: g->dev;
}

/*
 * A connection of the node's own from the address (one it opened, or
 * accepted on a port it keeps): TCP established or opening, UDP connected.
 * Its packets are the node's, not the slice's.  RCU held (a netfilter
 * hook).
 */
static bool slice_map_node_conn(struct net *net, const struct iphdr *iph,
				const __be16 *ports, int dif)
{
	struct sock *sk;

	if (iph->protocol == IPPROTO_TCP) {
		sk = __inet_lookup_established(net,
					       net->ipv4.tcp_death_row.hashinfo,
					       iph->saddr, ports[0], iph->daddr,
					       ntohs(ports[1]), dif, 0);
		if (!sk)
			return false;
		sock_gen_put(sk);
		return true;
	}
	sk = __udp4_lib_lookup(net, iph->saddr, ports[0], iph->daddr, ports[1],
			       dif, 0, ah_udp_table(net), NULL);
	return !IS_ERR_OR_NULL(sk) && sk->sk_state == TCP_ESTABLISHED;
}

/*
 * The node keeps the packets for the address that are TCP or UDP to a port
 * it keeps (DHCP's, the grant's) or of a connection of its own.
 */
static bool slice_map_kept(const struct slice_grant *g,
			   const struct sk_buff *skb, const struct iphdr *iph,
			   const struct nf_hook_state *state)
{
	__be16 _ports[2];
	const __be16 *ports;
	u16 dport;
	int i;

	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP)
		return false;
	/* a later fragment has no ports: the slice's */
	if (iph->frag_off & htons(IP_OFFSET))
		return false;
	ports = skb_header_pointer(skb, skb_network_offset(skb) + iph->ihl * 4,
				   sizeof(_ports), _ports);
	if (!ports)
		return false;
	dport = ntohs(ports[1]);
	if (iph->protocol == IPPROTO_UDP && (dport == 67 || dport == 68))
		return true;
	for (i = 0; i < g->n_keep; i++)
		if (g->keep[i] == dport)
			return true;
	return slice_map_node_conn(state->net, iph, ports, state->in->ifindex);
}

static unsigned int slice_map_rx(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct slice_grant *g = priv;
	struct net_device *vdev = g->vdev;
	const struct iphdr *iph = ip_hdr(skb);
	unsigned int len;

	if (iph->daddr != READ_ONCE(g->addr) ||
	    (state->in != g->dev && state->in != slice_map_l3dev(g)) ||
	    slice_map_kept(g, skb, iph, state))
		return NF_ACCEPT;
	if (!(vdev->flags & IFF_UP)) {
		dev_core_stats_rx_dropped_inc(vdev);
		kfree_skb(skb);
		return NF_STOLEN;
	}
	skb_scrub_packet(skb, true);
	skb->dev = vdev;
	skb->protocol = htons(ETH_P_IP);
	skb->pkt_type = PACKET_HOST;
	skb_reset_mac_header(skb);
	skb->mac_len = 0;
	len = skb->len;
	if (netif_rx(skb) == NET_RX_SUCCESS)
		dev_sw_netstats_rx_add(vdev, len);
	else
		dev_core_stats_rx_dropped_inc(vdev);
	return NF_STOLEN;
}

static netdev_tx_t slice_map_xmit(struct sk_buff *skb, struct net_device *vdev)
{
	struct slice_grant *g = slice_map_grant(vdev);
	unsigned int len = skb->len;
	const struct iphdr *iph;
	struct flowi4 fl4 = {};
	struct rtable *rt;
	int err;

	if (skb->protocol != htons(ETH_P_IP) ||
	    !pskb_network_may_pull(skb, sizeof(*iph)))
		goto drop;
	iph = ip_hdr(skb);
	if (iph->saddr != READ_ONCE(g->addr)) {
		atomic64_inc(&g->spoofed);
		goto drop;
	}
	fl4.daddr = iph->daddr;
	fl4.saddr = iph->saddr;
	fl4.flowi4_oif = slice_map_l3dev(g)->ifindex;
	fl4.flowi4_proto = iph->protocol;
	fl4.flowi4_tos = iph->tos & (IPTOS_TOS_MASK & ~3);
	rt = ip_route_output_key(g->node, &fl4);
	if (IS_ERR(rt))
		goto drop;
	/* from here on the node's packet */
	skb_scrub_packet(skb, true);
	skb_dst_set(skb, &rt->dst);
	skb->dev = rt->dst.dev;
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
	err = ip_local_out(g->node, NULL, skb);
	if (net_xmit_eval(err))
		dev_core_stats_tx_dropped_inc(vdev);
	else
		dev_sw_netstats_tx_add(vdev, 1, len);
	return NETDEV_TX_OK;
drop:
	dev_core_stats_tx_dropped_inc(vdev);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

static int slice_map_init(struct net_device *vdev)
{
	vdev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	return vdev->tstats ? 0 : -ENOMEM;
}

static void slice_map_uninit(struct net_device *vdev)
{
	free_percpu(vdev->tstats);
}

/*
 * Offloads: what the slice's packets leave through (the interface, or its
 * master) offers, the slice's device offers too, as ipvlan does for its
 * lower device.  The packets leave by ip_local_out(), so the interface's
 * own transmit segments them and completes their checksums where it
 * cannot; the slice's stack then never does it for a device that would.
 */
#define SLICE_MAP_FEATURES (NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
			    NETIF_F_FRAGLIST | NETIF_F_GSO | \
			    NETIF_F_GSO_SOFTWARE | NETIF_F_RXCSUM)

static netdev_features_t slice_map_fix_features(struct net_device *vdev,
						netdev_features_t features)
{
	struct slice_grant *g = slice_map_grant(vdev);
	struct net_device *lower;
	netdev_features_t allow;

	ASSERT_RTNL();
	lower = netdev_master_upper_dev_get(g->dev) ?: g->dev;
	allow = lower->features;
	if (allow & NETIF_F_CSUM_MASK)
		allow |= NETIF_F_HW_CSUM;
	return features & (allow | ~SLICE_MAP_FEATURES);
}

static const struct net_device_ops slice_map_ops = {
	.ndo_init = slice_map_init,
	.ndo_uninit = slice_map_uninit,
	.ndo_start_xmit = slice_map_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_fix_features = slice_map_fix_features,
};

static void slice_map_setup(struct net_device *vdev)
{
	vdev->netdev_ops = &slice_map_ops;
	vdev->type = ARPHRD_NONE;
	vdev->hard_header_len = 0;
	vdev->addr_len = 0;
	vdev->mtu = ETH_DATA_LEN;
	vdev->min_mtu = IPV4_MIN_MTU;
	vdev->max_mtu = ETH_MAX_MTU;
	vdev->flags = IFF_POINTOPOINT | IFF_NOARP;
	vdev->hw_features = SLICE_MAP_FEATURES;
	vdev->features = SLICE_MAP_FEATURES;
	vdev->priv_flags |= IFF_NO_QUEUE;
	ah_set_lltx(vdev);
	/* the slice cannot take it elsewhere */
	ah_set_netns_local(vdev);
	vdev->needs_free_netdev = true;
}

/* the interface's first IPv4 address, or its master's (RTNL held) */
static __be32 slice_map_addr(struct net_device *dev)
{
	struct net_device *l3 = netdev_master_upper_dev_get(dev) ?: dev;
	struct in_device *in_dev = __in_dev_get_rtnl(l3);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return 0;
	in_dev_for_each_ifa_rtnl(ifa, in_dev)
		return ifa->ifa_local;
	return 0;
}

int slice_map_start(struct slice_grant *g, struct netlink_ext_ack *extack)
{
	struct net_device *vdev;
	int err;

	g->addr = slice_map_addr(g->dev);
	if (!g->addr) {
		NL_SET_ERR_MSG(extack,
			       "the interface (or its master) has no IPv4 address to map");
		return -EADDRNOTAVAIL;
	}
	/* the slice knows it by the node's name, if that is free there */
	vdev = alloc_netdev(sizeof(struct slice_map_priv),
			    __dev_get_by_name(g->slice, g->ifname) ?
			    "sl%d" : g->ifname, NET_NAME_USER, slice_map_setup);
	if (!vdev)
		return -ENOMEM;
	((struct slice_map_priv *)netdev_priv(vdev))->g = g;
	vdev->mtu = READ_ONCE(g->dev->mtu);
	netif_inherit_tso_max(vdev, netdev_master_upper_dev_get(g->dev) ?: g->dev);
	dev_net_set(vdev, g->slice);
	err = register_netdevice(vdev);
	if (err) {
		NL_SET_ERR_MSG(extack, "could not create the slice's interface");
		free_netdev(vdev);
		return err;
	}
	g->vdev = vdev;

	g->rx_ops = (struct nf_hook_ops) {
		.hook = slice_map_rx,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_PRE_ROUTING,
		/* after defragmentation (if loaded), before conntrack */
		.priority = NF_IP_PRI_CONNTRACK_DEFRAG + 1,
		.priv = g,
	};
	err = nf_register_net_hook(g->node, &g->rx_ops);
	if (err) {
		NL_SET_ERR_MSG(extack, "could not hook the node's receive");
		unregister_netdevice(vdev);
		g->vdev = NULL;
		return err;
	}
	g->rx_on = true;
	return 0;
}

void slice_map_stop(struct slice_grant *g)
{
	if (g->rx_on) {
		nf_unregister_net_hook(g->node, &g->rx_ops);
		g->rx_on = false;
	}
	if (g->vdev) {
		unregister_netdevice(g->vdev);
		g->vdev = NULL;
	}
}

/*
 * DEV's offloads changed, or it joined or left a master: the slice devices
 * of the map grants whose packets leave through it follow (RTNL held).
 */
void slice_map_lower_changed(struct net_device *dev)
{
	struct slice_grant *g;

	list_for_each_entry(g, &slice_grants, list) {
		struct net_device *lower;

		if (g->mode != SLICE_MODE_MAP || !g->vdev)
			continue;
		lower = netdev_master_upper_dev_get(g->dev) ?: g->dev;
		if (dev != g->dev && dev != lower)
			continue;
		netif_inherit_tso_max(g->vdev, lower);
		netdev_update_features(g->vdev);
	}
}

/*
 * The node's address changes (a new DHCP lease): the mapping follows it,
 * to the interface's first address then, and the change is announced as
 * a GRANT with the new ADDR (the slice re-addresses its side).  RTNL held:
 * inetaddr notifiers run under it.
 */
static int slice_map_inetaddr(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	const struct in_ifaddr *ifa = ptr;
	struct net_device *dev = ifa->ifa_dev->dev;
	struct slice_grant *g;
	__be32 addr;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	list_for_each_entry(g, &slice_grants, list) {
		if (g->mode != SLICE_MODE_MAP ||
		    (netdev_master_upper_dev_get(g->dev) ?: g->dev) != dev)
			continue;
		if (event == NETDEV_DOWN && ifa->ifa_local != g->addr)
			continue;
		if (event == NETDEV_UP && g->addr)
			continue;
		addr = slice_map_addr(g->dev);
		if (addr == g->addr)
			continue;
		WRITE_ONCE(g->addr, addr);
		slice_notify(g, SLICE_CMD_GRANT, -1);
	}
	return NOTIFY_DONE;
}

static struct notifier_block slice_map_inetaddr_nb = {
	.notifier_call = slice_map_inetaddr,
};

int slice_map_init_module(void)
{
	return register_inetaddr_notifier(&slice_map_inetaddr_nb);
}

void slice_map_exit_module(void)
{
	unregister_inetaddr_notifier(&slice_map_inetaddr_nb);
}
