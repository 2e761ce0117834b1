// SPDX-License-Identifier: GPL-2.0
/*
 * The dsr net_device: rtnl_link_ops ("ip link add dsr0 type dsr"), slaves
 * ("ip link set eth0 master dsr0"), the per-device timer, ethtool -S.
 *
 * A slave keeps its rx_handler free (macfilter owns it): DSR receives its
 * packets after IP has validated them, from a netfilter PRE_ROUTING hook
 * registered for the device's namespace (rx.c), and overhears neighbours
 * through a packet_type bound to the slave, in promiscuous mode.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/netfilter_ipv4.h>
#include <net/ip.h>
#include <net/rtnetlink.h>

#include "ah_debug.h"
#include "ah_compat.h"
#include "sch_dsrprio.h"
#include "dsr.h"

u64 dsr_now(void)
{
	return ktime_to_ms(ktime_get());
}

/*
 * The device's home address: the first IPv4 address on dsr0, kept in
 * priv->rc.self (where the route cache needs it) by dsr_inetaddr_event().
 */
__be32 dsr_self(const struct dsr_priv *priv)
{
	return READ_ONCE(priv->rc.self);
}

static int dsr_inetaddr_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	const struct in_ifaddr *ifa = ptr;
	struct net_device *dev = ifa->ifa_dev->dev;
	const struct in_ifaddr *first;
	struct dsr_priv *priv;

	if (!dsr_is_dsr(dev) || (event != NETDEV_UP && event != NETDEV_DOWN))
		return NOTIFY_DONE;
	priv = netdev_priv(dev);
	first = rtnl_dereference(ifa->ifa_dev->ifa_list);
	spin_lock_bh(&priv->lock);
	WRITE_ONCE(priv->rc.self, first ? first->ifa_local : 0);
	spin_unlock_bh(&priv->lock);
	return NOTIFY_DONE;
}

static struct notifier_block dsr_inetaddr_notifier = {
	.notifier_call = dsr_inetaddr_event,
};

/* ---- timer -------------------------------------------------------------- */

static bool dsr_has_work(const struct dsr_priv *priv)
{
	return !skb_queue_empty(&priv->sendbuf) || priv->n_maint ||
	       priv->n_discs || !skb_queue_empty(&priv->fwdq);
}

/* Called with priv->lock held. */
void dsr_kick(struct dsr_priv *priv)
{
	if (!priv->dead && !timer_pending(&priv->timer))
		mod_timer(&priv->timer,
			  jiffies + msecs_to_jiffies(DSR_P(priv, TIMER_MS)));
}

/*
 * Every timer_ms while anything waits: Route Discovery, the Send Buffer,
 * Route Maintenance.  timer_runs and timer_ns count its cost (the locked
 * part; the frames it sends are the senders' cost).
 */
static void dsr_timer(struct timer_list *t)
{
	struct dsr_priv *priv = from_timer(priv, t, timer);
	u64 t0 = ktime_get_ns(), now = dsr_now();
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	spin_lock(&priv->lock);
	if (priv->dead) {
		spin_unlock(&priv->lock);
		return;
	}
	dsr_route_tick(priv, now, &out);
	dsr_maint_tick(priv, now, &out);
	if (now - priv->last_expire >= 1000) {
		dsr_rc_expire(&priv->rc, now);
		priv->last_expire = now;
	}
	if (dsr_has_work(priv))
		dsr_kick(priv);
	dsr_out_commit(priv, &out);
	spin_unlock(&priv->lock);
	atomic_long_add(ktime_get_ns() - t0, &priv->stats[DSR_S_TIMER_NS]);
	dsr_stat(priv, DSR_S_TIMER_RUNS);
	dsr_out_flush(priv);
}

/* ---- slaves ------------------------------------------------------------- */

/* Under RTNL or RCU. */
struct dsr_slave *dsr_slave_find(struct dsr_priv *priv,
				 const struct net_device *dev)
{
	struct dsr_slave *s;

	list_for_each_entry_rcu(s, &priv->slaves, list, lockdep_rtnl_is_held())
		if (s->dev == dev)
			return s;
	return NULL;
}

static void dsr_update_mtu(struct dsr_priv *priv)
{
	unsigned int mtu = ETH_DATA_LEN;
	struct dsr_slave *s;

	list_for_each_entry(s, &priv->slaves, list)
		mtu = min(mtu, s->dev->mtu);
	dev_set_mtu(priv->dev, max_t(int, mtu - DSR_MTU_RESERVE, IPV4_MIN_MTU));
}

/*
 * slave_qdisc: dsrprio as the slave's root qdisc, so that route discovery,
 * acknowledgments and retransmissions wait behind no data.  Through
 * symbol_get(): dsr.ko does not need sch_dsrprio.ko to load or run.
 * Neither this nor its absence stops the enslaving; a user's own root
 * qdisc is left alone.
 */
static void dsr_slave_qdisc_install(struct dsr_priv *priv, struct dsr_slave *s)
{
	int (*install)(struct net_device *dev, struct netlink_ext_ack *extack);
	struct netlink_ext_ack extack = {};

	if (!DSR_P(priv, SLAVE_QDISC))
		return;
	install = symbol_get(dsrprio_install);
	if (!install) {
		dsr_stat(priv, DSR_S_SLAVE_QDISC_FAILED);
		netdev_info(priv->dev, "%s: sch_dsrprio not loaded, no dsrprio qdisc\n",
			    s->dev->name);
		return;
	}
	if (install(s->dev, &extack)) {
		dsr_stat(priv, DSR_S_SLAVE_QDISC_FAILED);
		netdev_info(priv->dev, "%s: no dsrprio qdisc: %s\n", s->dev->name,
			    extack._msg ? extack._msg : "error");
	} else {
		s->qdisc = true;
	}
	symbol_put(dsrprio_install);
}

static void dsr_slave_qdisc_uninstall(struct dsr_slave *s)
{
	void (*uninstall)(struct net_device *dev);

	if (!s->qdisc)
		return;
	/* sch_dsrprio cannot be gone: the qdisc holds a reference to it */
	uninstall = symbol_get(dsrprio_uninstall);
	if (uninstall) {
		uninstall(s->dev);
		symbol_put(dsrprio_uninstall);
	}
}

static int dsr_add_slave(struct net_device *dev, struct net_device *sdev,
			 struct netlink_ext_ack *extack)
{
	struct dsr_priv *priv = netdev_priv(dev);
	struct dsr_slave *s;
	int err;

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
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->dev = sdev;
	s->priv = priv;
	s->overhear.type = htons(ETH_P_IP);
	s->overhear.dev = sdev;
	s->overhear.func = dsr_overhear_rcv;
	s->overhear.af_packet_priv = s;

	err = netdev_master_upper_dev_link(sdev, dev, s, NULL, extack);
	if (err)
		goto err_free;
	err = dev_set_promiscuity(sdev, 1);
	if (err)
		goto err_unlink;
	dev_hold(sdev);
	spin_lock_bh(&priv->lock);
	list_add_tail_rcu(&s->list, &priv->slaves);
	spin_unlock_bh(&priv->lock);
	dev_add_pack(&s->overhear);
	dsr_update_mtu(priv);
	dsr_slave_qdisc_install(priv, s);
	ah_obj_created("slave", s);
	return 0;

err_unlink:
	netdev_upper_dev_unlink(sdev, dev);
err_free:
	kfree(s);
	return err;
}

/*
 * A receiver that found s under RCU may still wait for priv->lock while we
 * unlink it: s->gone, set under the lock with the purge, tells it not to
 * use s (a neighbour or Maintenance Buffer entry made through s after the
 * purge would outlive it).  After synchronize_net() nobody holds s.
 */
static void dsr_release(struct dsr_priv *priv, struct dsr_slave *s)
{
	dev_remove_pack(&s->overhear);		/* synchronize_net() */
	spin_lock_bh(&priv->lock);
	s->gone = true;
	list_del_rcu(&s->list);
	dsr_neigh_slave_gone(priv, s);
	dsr_maint_slave_gone(priv, s);
	spin_unlock_bh(&priv->lock);
	/* receivers that saw s, frames built for it (sent under RCU-bh) */
	synchronize_net();
	netdev_upper_dev_unlink(s->dev, priv->dev);
	dsr_slave_qdisc_uninstall(s);
	dev_set_promiscuity(s->dev, -1);
	dev_put(s->dev);
	ah_obj_destroyed("slave", s);
	kfree(s);
}

static int dsr_del_slave(struct net_device *dev, struct net_device *sdev)
{
	struct dsr_priv *priv = netdev_priv(dev);
	struct dsr_slave *s = dsr_slave_find(priv, sdev);

	if (!s)
		return -ENODEV;
	dsr_release(priv, s);
	dsr_update_mtu(priv);
	return 0;
}

static void dsr_release_all(struct dsr_priv *priv)
{
	struct dsr_slave *s, *tmp;

	list_for_each_entry_safe(s, tmp, &priv->slaves, list)
		dsr_release(priv, s);
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
		dsr_release(priv, s);
	dsr_update_mtu(priv);
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
	INIT_LIST_HEAD(&priv->maint);
	INIT_LIST_HEAD(&priv->discs);
	spin_lock_init(&priv->lock);
	skb_queue_head_init(&priv->sendbuf);
	skb_queue_head_init(&priv->fwdq);
	skb_queue_head_init(&priv->txq);
	spin_lock_init(&priv->tx_lock);
	timer_setup(&priv->timer, dsr_timer, 0);
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

	priv->nfho.hook = dsr_nf_hook;
	priv->nfho.pf = NFPROTO_IPV4;
	priv->nfho.hooknum = NF_INET_PRE_ROUTING;
	priv->nfho.priority = NF_IP_PRI_FIRST;
	priv->nfho.priv = priv;
	err = nf_register_net_hook(dev_net(dev), &priv->nfho);
	if (err)
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

	dsr_release_all(priv);
	nf_unregister_net_hook(dev_net(dev), &priv->nfho);
	synchronize_net();	/* no hook runs with priv any more */

	spin_lock_bh(&priv->lock);
	priv->dead = true;
	spin_unlock_bh(&priv->lock);
	del_timer_sync(&priv->timer);

	spin_lock_bh(&priv->lock);
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
	spin_unlock_bh(&priv->lock);
	/* dead, no hook, no timer: nothing else reaches the tables now */
	skb_queue_purge(&priv->txq);
	dsr_rc_destroy(&priv->rc);
	dsr_rreq_destroy(&priv->rt);
	dsr_dup_destroy(&priv->dup);
	dsr_rl_destroy(&priv->rl_neigh);
	dsr_rl_destroy(&priv->rl_init);
	dsr_rl_destroy(&priv->rl_icmp);
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

static const struct net_device_ops dsr_netdev_ops = {
	.ndo_init = dsr_init,
	.ndo_uninit = dsr_uninit,
	.ndo_open = dsr_open,
	.ndo_stop = dsr_stop,
	.ndo_start_xmit = dsr_start_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_add_slave = dsr_add_slave,
	.ndo_del_slave = dsr_del_slave,
};

bool dsr_is_dsr(const struct net_device *dev)
{
	return dev->netdev_ops == &dsr_netdev_ops;
}

/* ---- ethtool ------------------------------------------------------------ */

static void dsr_get_drvinfo(struct net_device *dev,
			    struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "dsr", sizeof(info->driver));
	strscpy(info->version, "1", sizeof(info->version));
}

static int dsr_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? DSR_S_MAX : -EOPNOTSUPP;
}

static void dsr_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < DSR_S_MAX; i++)
		strscpy(data + i * ETH_GSTRING_LEN, dsr_stat_names[i],
			ETH_GSTRING_LEN);
}

static void dsr_get_ethtool_stats(struct net_device *dev,
				  struct ethtool_stats *stats, u64 *data)
{
	struct dsr_priv *priv = netdev_priv(dev);
	int i;

	for (i = 0; i < DSR_S_MAX; i++)
		data[i] = atomic_long_read(&priv->stats[i]);
}

static const struct ethtool_ops dsr_ethtool_ops = {
	.get_drvinfo = dsr_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = dsr_get_sset_count,
	.get_strings = dsr_get_strings,
	.get_ethtool_stats = dsr_get_ethtool_stats,
};

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
	dev->flags = IFF_NOARP;
	dev->priv_flags |= IFF_NO_QUEUE;
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

struct rtnl_link_ops dsr_link_ops __read_mostly = {
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
