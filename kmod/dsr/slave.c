// SPDX-License-Identifier: GPL-2.0
/*
 * Slaves ("ip link set eth0 master dsr0"): the Ethernet-like devices DSR
 * sends on, receives and overhears on (in promiscuous mode: rx.c) and,
 * with slave_qdisc, puts the dsrprio qdisc on.  Which devices may be
 * slaves, and the notifier that sees one go, are the device's (device.c).
 *
 * macfilter owns a slave's rx_handler: DSR receives behind it
 * (macfilter_next_attach(), which puts macfilter's handler there, passing
 * everything, if no user attached a filter), so it sees the frames
 * macfilter passed before IP does, and IP never sees a DSR frame.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <net/ip.h>

#include "ah_debug.h"
#include "sch_dsrprio.h"
#include "dsr.h"

void dsr_slave_update_mtu(struct dsr_priv *priv)
{
	unsigned int mtu = ETH_DATA_LEN;
	struct dsr_slave *s;

	list_for_each_entry(s, &priv->slaves, list)
		mtu = min(mtu, s->dev->mtu);
	dev_set_mtu(priv->dev, max_t(int, mtu - DSR_MTU_RESERVE, IPV4_MIN_MTU));
}

/*
 * Section 8.4: s's own address is the first IPv4 address on its device (0:
 * none, it is known by the home address), read again whenever one is added
 * or removed (device.c's notifier) and when s is enslaved.  RTNL held.
 */
void dsr_slave_update_addr(struct dsr_priv *priv, struct dsr_slave *s)
{
	const struct in_device *in_dev = __in_dev_get_rtnl(s->dev);
	const struct in_ifaddr *ifa = NULL;
	struct dsr_slave *t;
	unsigned int n = 0;

	if (in_dev)
		ifa = rtnl_dereference(in_dev->ifa_list);
	dsr_lock_bh(priv);
	WRITE_ONCE(s->addr, ifa ? ifa->ifa_local : 0);
	list_for_each_entry(t, &priv->slaves, list)
		n += !!t->addr;
	WRITE_ONCE(priv->n_if_addrs, n);
	dsr_rc_invalidate(&priv->rc);
	dsr_unlock_bh(priv);
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

/* sdev passed the device's checks (dsr_add_slave()).  RTNL held. */
int dsr_slave_add(struct dsr_priv *priv, struct net_device *sdev,
		  struct netlink_ext_ack *extack)
{
	struct net_device *dev = priv->dev;
	struct dsr_slave *s;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->dev = sdev;
	s->priv = priv;
	s->rx.rx = dsr_slave_rx;

	err = netdev_master_upper_dev_link(sdev, dev, s, NULL, extack);
	if (err)
		goto err_free;
	err = dev_set_promiscuity(sdev, 1);
	if (err)
		goto err_unlink;
	/* s receives from here on; nothing after this fails */
	err = macfilter_next_attach(sdev, &s->rx, extack);
	if (err)
		goto err_promisc;
	dev_hold(sdev);
	dsr_lock_bh(priv);
	list_add_tail_rcu(&s->list, &priv->slaves);
	dsr_unlock_bh(priv);
	dsr_slave_update_addr(priv, s);
	dsr_slave_update_mtu(priv);
	dsr_slave_qdisc_install(priv, s);
	ah_obj_created("slave", s);
	return 0;

err_promisc:
	dev_set_promiscuity(sdev, -1);
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
void dsr_slave_release(struct dsr_priv *priv, struct dsr_slave *s)
{
	macfilter_next_detach(s->dev, &s->rx);	/* synchronize_net() */
	dsr_lock_bh(priv);
	s->gone = true;
	list_del_rcu(&s->list);
	if (s->addr)
		WRITE_ONCE(priv->n_if_addrs, priv->n_if_addrs - 1);
	dsr_rc_invalidate(&priv->rc);
	dsr_neigh_slave_gone(priv, s);
	dsr_maint_slave_gone(priv, s);
	dsr_unlock_bh(priv);
	/* receivers that saw s, frames built for it (sent under RCU-bh) */
	synchronize_net();
	/* and those whose builder had not reached its flush */
	dsr_out_purge_dev(priv, s->dev);
	netdev_upper_dev_unlink(s->dev, priv->dev);
	dsr_slave_qdisc_uninstall(s);
	dev_set_promiscuity(s->dev, -1);
	dev_put(s->dev);
	ah_obj_destroyed("slave", s);
	kfree(s);
}

int dsr_slave_del(struct dsr_priv *priv, struct net_device *sdev)
{
	struct dsr_slave *s = dsr_slave_find(priv, sdev);

	if (!s)
		return -ENODEV;
	dsr_slave_release(priv, s);
	dsr_slave_update_mtu(priv);
	return 0;
}

void dsr_slave_release_all(struct dsr_priv *priv)
{
	struct dsr_slave *s, *tmp;

	list_for_each_entry_safe(s, tmp, &priv->slaves, list)
		dsr_slave_release(priv, s);
}
