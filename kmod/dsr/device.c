// SPDX-License-Identifier: GPL-2.0
/*
 * The dsr net_device: rtnl_link_ops ("ip link add dsr0 type dsr"), its
 * net_device_ops (set-up and tear-down of every table), which devices may
 * be its slaves (slave.c holds them), and the notifiers that tell it its
 * home address and when a slave goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/netfilter_ipv4.h>
#include <net/ip.h>
#include <net/rtnetlink.h>

#include "ah_debug.h"
#include "ah_compat.h"
#include "dsr.h"

static int dsr_inetaddr_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	const struct in_ifaddr *ifa = ptr;
	struct net_device *dev = ifa->ifa_dev->dev;
	const struct in_ifaddr *first;
	struct dsr_priv *priv;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	if (!dsr_is_dsr(dev)) {
		struct net_device *master = netdev_master_upper_dev_get(dev);
		struct dsr_slave *s;

		/* a slave's own address (section 8.4) */
		if (!master || !dsr_is_dsr(master))
			return NOTIFY_DONE;
		priv = netdev_priv(master);
		s = dsr_slave_find(priv, dev);
		if (s)
			dsr_slave_update_addr(priv, s);
		return NOTIFY_DONE;
	}
	priv = netdev_priv(dev);
	first = rtnl_dereference(ifa->ifa_dev->ifa_list);
	dsr_lock_bh(priv);
	WRITE_ONCE(priv->rc.self, first ? first->ifa_local : 0);
	dsr_rc_invalidate(&priv->rc);
	dsr_unlock_bh(priv);
	return NOTIFY_DONE;
}

static struct notifier_block dsr_inetaddr_notifier = {
	.notifier_call = dsr_inetaddr_event,
};

/* ---- slaves ------------------------------------------------------------- */

static int dsr_add_slave(struct net_device *dev, struct net_device *sdev,
			 struct netlink_ext_ack *extack)
{
	if (sdev->type != ARPHRD_ETHER || sdev->addr_len != ETH_ALEN ||
	    (sdev->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG(extack, "dsr slaves must be Ethernet-like devices");
		return -EOPNOTSUPP;
	}
	if (dsr_is_dsr(sdev)) {
		NL_SET_ERR_MSG(extack, "a dsr device cannot be a slave");
		return -ELOOP;
	}
	if (sdev->mtu < IPV4_MIN_MTU + DSR_MTU_RESERVE) {
		NL_SET_ERR_MSG(extack, "slave MTU too small for DSR headers");
		return -EINVAL;
	}
	return dsr_slave_add(netdev_priv(dev), sdev, extack);
}

static int dsr_del_slave(struct net_device *dev, struct net_device *sdev)
{
	return dsr_slave_del(netdev_priv(dev), sdev);
}

static int dsr_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct net_device *master;
	struct dsr_priv *priv;
	struct dsr_slave *s;

	if (event != NETDEV_UNREGISTER && event != NETDEV_CHANGEMTU)
		return NOTIFY_DONE;
	master = netdev_master_upper_dev_get(dev);
	if (!master || !dsr_is_dsr(master))
		return NOTIFY_DONE;
	priv = netdev_priv(master);
	s = dsr_slave_find(priv, dev);
	if (!s)
		return NOTIFY_DONE;
	if (event == NETDEV_UNREGISTER)
		dsr_slave_release(priv, s);
	dsr_slave_update_mtu(priv);
	return NOTIFY_DONE;
}

static struct notifier_block dsr_notifier = {
	.notifier_call = dsr_netdev_event,
};

/* ---- net_device ----------------------------------------------------------- */

static int dsr_init(struct net_device *dev)
{
	struct dsr_priv *priv = netdev_priv(dev);
	int err = -ENOMEM;

	priv->dev = dev;
	INIT_LIST_HEAD(&priv->slaves);
	INIT_LIST_HEAD(&priv->neighs);
	hash_init(priv->neigh_hash);
	hash_init(priv->maint_hash);
	priv->hash_seed = get_random_u32();
	/* (jiffies start near their wrap: a second counted from now) */
	priv->overheard_since = jiffies;
	INIT_LIST_HEAD(&priv->maint);
	INIT_LIST_HEAD(&priv->discs);
	spin_lock_init(&priv->lock);
	spin_lock_init(&priv->dup_lock);
	dsr_fp_init(priv);
	skb_queue_head_init(&priv->sendbuf);
	skb_queue_head_init(&priv->fwdq);
	skb_queue_head_init(&priv->txq);
	spin_lock_init(&priv->tx_lock);
	dsr_timer_init(priv);
	dsr_params_default(priv->param);
	get_random_bytes(&priv->rreq_id, sizeof(priv->rreq_id));

	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!dev->tstats)
		return -ENOMEM;
	if (dsr_rc_init(&priv->rc, DSR_P(priv, ROUTE_CACHE_SIZE),
			DSR_P(priv, ROUTE_CACHE_TIMEOUT_MS)))
		goto err_stats;
	if (dsr_rreq_init(&priv->rt, DSR_P(priv, REQUEST_TABLE_SIZE),
			  DSR_P(priv, REQUEST_TABLE_IDS)))
		goto err_rc;
	if (dsr_dup_init(&priv->dup, DSR_DUP_ENTRIES, get_random_u32()))
		goto err_rt;
	if (dsr_rl_init(&priv->rl_neigh, DSR_RL_BUCKETS, DSR_RREQ_RATE_NEIGH,
			DSR_RREQ_RATE_NEIGH, get_random_u32()))
		goto err_dup;
	if (dsr_rl_init(&priv->rl_init, DSR_RL_BUCKETS, DSR_RREQ_RATE_INIT,
			DSR_RREQ_RATE_INIT, get_random_u32()))
		goto err_rl;
	if (dsr_rl_init(&priv->rl_icmp, DSR_RL_BUCKETS, DSR_ICMP_RATE_DEST,
			DSR_ICMP_BURST_DEST, get_random_u32()))
		goto err_rl_init;
	if (dsr_mcast_init(priv))
		goto err_rl_icmp;

	ah_obj_created("dev", priv);
	return 0;

err_rl_icmp:
	dsr_rl_destroy(&priv->rl_icmp);
err_rl_init:
	dsr_rl_destroy(&priv->rl_init);
err_rl:
	dsr_rl_destroy(&priv->rl_neigh);
err_dup:
	dsr_dup_destroy(&priv->dup);
err_rt:
	dsr_rreq_destroy(&priv->rt);
err_rc:
	dsr_rc_destroy(&priv->rc);
err_stats:
	free_percpu(dev->tstats);
	return err;
}

static void dsr_uninit(struct net_device *dev)
{
	struct dsr_priv *priv = netdev_priv(dev);

	dsr_slave_release_all(priv);	/* no receiver runs with priv */

	dsr_lock_bh(priv);
	priv->dead = true;
	dsr_unlock_bh(priv);
	del_timer_sync(&priv->timer);

	dsr_lock_bh(priv);
	skb_queue_purge(&priv->sendbuf);
	skb_queue_purge(&priv->fwdq);
	dsr_maint_flush(priv);
	dsr_neigh_flush(priv);
	while (!list_empty(&priv->discs)) {
		struct dsr_disc *d = list_first_entry(&priv->discs,
						      struct dsr_disc, list);
		list_del(&d->list);
		kfree(d);
	}
	priv->n_discs = 0;
	dsr_unlock_bh(priv);
	/* dead, no hook, no timer: nothing else reaches the tables now */
	skb_queue_purge(&priv->txq);
	dsr_rc_destroy(&priv->rc);
	dsr_rreq_destroy(&priv->rt);
	dsr_dup_destroy(&priv->dup);
	dsr_rl_destroy(&priv->rl_neigh);
	dsr_rl_destroy(&priv->rl_init);
	dsr_rl_destroy(&priv->rl_icmp);
	dsr_mcast_destroy(priv);
	ah_obj_destroyed("dev", priv);
}

/* After the last reference: the stats may be read until then. */
static void dsr_destruct(struct net_device *dev)
{
	free_percpu(dev->tstats);
}

static int dsr_open(struct net_device *dev)
{
	netif_start_queue(dev);
	return 0;
}

static int dsr_stop(struct net_device *dev)
{
	netif_stop_queue(dev);
	return 0;
}

const struct net_device_ops dsr_netdev_ops = {
	.ndo_init = dsr_init,
	.ndo_uninit = dsr_uninit,
	.ndo_open = dsr_open,
	.ndo_stop = dsr_stop,
	.ndo_start_xmit = dsr_start_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_add_slave = dsr_add_slave,
	.ndo_del_slave = dsr_del_slave,
};

#define DSR_FEATURES (NETIF_F_SG | NETIF_F_HIGHDMA | NETIF_F_HW_CSUM | \
		      NETIF_F_GSO_SOFTWARE)

/* ---- rtnl_link_ops ---------------------------------------------------------- */

static void dsr_setup(struct net_device *dev)
{
	dev->netdev_ops = &dsr_netdev_ops;
	dev->ethtool_ops = &dsr_ethtool_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = dsr_destruct;
	dev->type = ARPHRD_NONE;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->mtu = ETH_DATA_LEN - DSR_MTU_RESERVE;
	dev->min_mtu = IPV4_MIN_MTU;
	dev->max_mtu = ETH_DATA_LEN - DSR_MTU_RESERVE;
	dev->needed_headroom = LL_MAX_HEADER + DSR_MTU_RESERVE;
	/* (multicast: a group's packets go down its tree, mcast.c) */
	dev->flags = IFF_NOARP | IFF_MULTICAST;
	dev->priv_flags |= IFF_NO_QUEUE;
	/*
	 * As IP tunnels: the stack hands dsr0 GSO units (which cross the
	 * hops whole where the slaves carry them, offload.c) with the
	 * checksum left to fill in, which travels on to a slave that fills
	 * it in (veth even across the hops) or is filled in before one that
	 * cannot.
	 * "ethtool -K dsr0 gso off tso off tx off" turns them off.
	 */
	dev->features |= DSR_FEATURES;
	dev->hw_features |= DSR_FEATURES;
	/* a unit with the DSR header still fits IP's 64 KB (offload.c) */
	ah_set_gso_max_size(dev, GSO_LEGACY_MAX_SIZE - DSR_GSO_RESERVE);
	ah_set_lltx(dev);
	/*
	 * Its netfilter hook, its slaves and its tables belong to one
	 * namespace, as a bridge's do: dsr0 never moves (a slave may; it is
	 * released).
	 */
	ah_set_netns_local(dev);
}

static int dsr_validate(struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG(extack, "a dsr device has no link-layer address");
		return -EINVAL;
	}
	return 0;
}

static void dsr_dellink(struct net_device *dev, struct list_head *head)
{
	unregister_netdevice_queue(dev, head);
}

static struct rtnl_link_ops dsr_link_ops __read_mostly = {
	.kind = "dsr",
	.priv_size = sizeof(struct dsr_priv),
	.setup = dsr_setup,
	.validate = dsr_validate,
	.dellink = dsr_dellink,
};

int dsr_device_init(void)
{
	int err;

	err = register_netdevice_notifier(&dsr_notifier);
	if (err)
		return err;
	err = register_inetaddr_notifier(&dsr_inetaddr_notifier);
	if (err)
		goto err_netdev;
	err = rtnl_link_register(&dsr_link_ops);
	if (err)
		goto err_inetaddr;
	return 0;

err_inetaddr:
	unregister_inetaddr_notifier(&dsr_inetaddr_notifier);
err_netdev:
	unregister_netdevice_notifier(&dsr_notifier);
	return err;
}

void dsr_device_exit(void)
{
	rtnl_link_unregister(&dsr_link_ops);
	unregister_inetaddr_notifier(&dsr_inetaddr_notifier);
	unregister_netdevice_notifier(&dsr_notifier);
}
