// SPDX-License-Identifier: GPL-2.0
/*
 * Grants: an interface moved into a slice's namespace, and back.  Every
 * grant is on one list under RTNL.  A grant ends on a REVOKE request, at
 * the end of its lease (one delayed work for all leases), when either
 * namespace goes (their pre_exit, which runs before any device of a dying
 * namespace is moved or deleted), when the device is removed, or at
 * rmmod.
 *
 * A wireless interface moves with its phy, which only nl80211 moves
 * (cfg80211_switch_netns() is not exported): its grant waits for the phy
 * to arrive in the slice (PHY_WAIT), and when it ends the interface is
 * held down (RETURNING) until the phy is back in the node.  The netdev
 * notifier sees the interface leave and arrive; the work (the lease
 * work, which also ends leases) acts on it under RTNL.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/cfg80211.h>

#include "ah_compat.h"
#include "ah_debug.h"
#include "slice.h"

LIST_HEAD(slice_grants);

/* set under RTNL at rmmod: no lease work runs after it */
static bool slice_stopping;

static void slice_lease_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(slice_lease_work, slice_lease_fn);

struct slice_grant *slice_grant_by_dev(const struct net_device *dev)
{
	struct slice_grant *g;

	ASSERT_RTNL();
	list_for_each_entry(g, &slice_grants, list)
		if (g->dev == dev)
			return g;
	return NULL;
}

static struct wiphy *slice_wiphy(const struct net_device *dev)
{
#if IS_ENABLED(CONFIG_CFG80211)
	return dev->ieee80211_ptr ? dev->ieee80211_ptr->wiphy : NULL;
#else
	return NULL;
#endif
}

/* the wireless grant that holds the phy of @dev, if any */
struct slice_grant *slice_grant_by_phy(const struct net_device *dev)
{
	struct wiphy *wiphy = slice_wiphy(dev);
	struct slice_grant *g;

	ASSERT_RTNL();
	if (!wiphy)
		return NULL;
	list_for_each_entry(g, &slice_grants, list)
		if (g->wireless && g->wiphy == wiphy)
			return g;
	return NULL;
}

struct slice_grant *slice_grant_by_node(const struct net *node, int ifindex,
					const char *ifname)
{
	struct slice_grant *g;

	ASSERT_RTNL();
	list_for_each_entry(g, &slice_grants, list) {
		if (!net_eq(g->node, node))
			continue;
		if ((ifindex && g->ifindex == ifindex) ||
		    (ifname && !strcmp(g->ifname, ifname)))
			return g;
	}
	return NULL;
}

static bool slice_earlier(unsigned long t, unsigned long first)
{
	return !first || time_before(t, first);
}

/*
 * The work runs at the earliest end of a lease or of a wait for a phy,
 * or at once when a phy has landed (RTNL held).
 */
static void slice_lease_arm(void)
{
	unsigned long first = 0;
	struct slice_grant *g;

	ASSERT_RTNL();
	if (slice_stopping)
		return;
	list_for_each_entry(g, &slice_grants, list) {
		if (g->landed)
			first = jiffies;
		if (g->expires && slice_earlier(g->expires, first))
			first = g->expires;
		if (g->state == SLICE_STATE_PHY_WAIT &&
		    slice_earlier(g->phy_deadline, first))
			first = g->phy_deadline;
		/* a phy held without its interface: looked at every second */
		if (g->wireless && !g->dev && slice_earlier(jiffies + HZ, first))
			first = jiffies + HZ;
	}
	if (!first) {
		cancel_delayed_work(&slice_lease_work);
		return;
	}
	mod_delayed_work(system_wq, &slice_lease_work,
			 time_after(first, jiffies) ? first - jiffies : 0);
}

static void slice_phy_landed(struct slice_grant *g);
static void slice_phy_orphan_check(struct slice_grant *g);

static void slice_lease_fn(struct work_struct *work)
{
	struct slice_grant *g, *tmp;

	rtnl_lock();
	if (!slice_stopping) {
		list_for_each_entry_safe(g, tmp, &slice_grants, list) {
			if (g->landed)
				slice_phy_landed(g);
			else if (g->wireless && !g->dev)
				slice_phy_orphan_check(g);
			else if (g->expires &&
				 !time_before(jiffies, g->expires))
				slice_revoke(g, SLICE_REASON_EXPIRED);
			else if (g->state == SLICE_STATE_PHY_WAIT &&
				 !time_before(jiffies, g->phy_deadline))
				slice_revoke(g, SLICE_REASON_NO_PHY);
		}
		slice_lease_arm();
	}
	rtnl_unlock();
}

void slice_grant_stats(const struct slice_grant *g,
		       struct rtnl_link_stats64 *now)
{
	if (g->mode == SLICE_MODE_MAP) {
		/* the mapper device's own, from 0 */
		dev_get_stats(g->vdev, now);
		return;
	}
	if (!g->dev) {
		/* a wireless one deleted: its last counts */
		*now = g->base;
		return;
	}
	dev_get_stats(g->dev, now);
	now->rx_packets -= g->base.rx_packets;
	now->rx_bytes -= g->base.rx_bytes;
	now->tx_packets -= g->base.tx_packets;
	now->tx_bytes -= g->base.tx_bytes;
}

/*
 * Move the device into NET (RTNL held).  If its name is taken there, it
 * is PAT (the node's name for it, when it comes back) or else slN.
 */
static int slice_move(struct slice_grant *g, struct net *net, const char *pat)
{
	int err = -EEXIST;

	g->moving = true;
	if (pat)
		err = dev_change_net_namespace(g->dev, net, pat);
	if (err == -EEXIST)
		err = dev_change_net_namespace(g->dev, net, "sl%d");
	g->moving = false;
	return err;
}

const char *slice_phy_name(const struct slice_grant *g)
{
	return g->wiphy ? wiphy_name(g->wiphy) : NULL;
}

/* the namespace the held phy is in now (NULL: none, or unregistered) */
struct net *slice_phy_net(const struct slice_grant *g)
{
	return g->wiphy && g->wiphy->registered ? wiphy_net(g->wiphy) : NULL;
}

/* a grant, off the list, freed (RTNL held) */
static void slice_grant_release(struct slice_grant *g)
{
	if (g->wiphy)
		put_device(&g->wiphy->dev);
	ah_obj_destroyed("grant", g);
	kfree(g);
}

/* a grant off the list and freed (RTNL held); announced already */
static void slice_grant_free(struct slice_grant *g)
{
	list_del(&g->list);
	slice_grant_release(g);
}

/*
 * A wireless interface: the grant waits for its phy, which must carry no
 * other interface (each would move with it, ungranted).
 */
static int slice_phy_wait(struct slice_grant *g, struct wiphy *wiphy,
			  struct netlink_ext_ack *extack)
{
	struct wireless_dev *wdev;

#if IS_ENABLED(CONFIG_CFG80211)
	/*
	 * Besides the check, this makes the module use cfg80211, which then
	 * stays loaded while it is: a held phy is pinned, and the pin's
	 * release is cfg80211's code.
	 */
	if (!ieee80211_get_num_supported_channels(wiphy)) {
		NL_SET_ERR_MSG(extack, "the interface's phy has no channel");
		return -EINVAL;
	}
#endif
	if (!(wiphy->flags & WIPHY_FLAG_NETNS_OK)) {
		AH_ERR_MSG_FMT(extack, "the interface's phy cannot change namespace",
			       "%s cannot change namespace", wiphy_name(wiphy));
		return -EOPNOTSUPP;
	}
	list_for_each_entry(wdev, &wiphy->wdev_list, list) {
		if (!wdev->netdev || wdev->netdev == g->dev)
			continue;
		AH_ERR_MSG_FMT(extack, "the phy carries another interface, which would move too",
			       "%s carries %s too, which would move with it",
			       wiphy_name(wiphy), wdev->netdev->name);
		return -EBUSY;
	}
	g->wireless = true;
	g->wiphy = wiphy;
	get_device(&wiphy->dev);
	g->state = SLICE_STATE_PHY_WAIT;
	g->phy_deadline = jiffies + SLICE_PHY_WAIT_SECS * HZ;
	return 0;
}

/* move mode: the interface itself goes to the slice */
static int slice_move_start(struct slice_grant *g,
			    struct netlink_ext_ack *extack)
{
	struct wiphy *wiphy = slice_wiphy(g->dev);
	int err;

	if (wiphy)
		return slice_phy_wait(g, wiphy, extack);
	if (ah_netns_local(g->dev)) {
		NL_SET_ERR_MSG(extack,
			       "the interface cannot leave its namespace");
		return -EOPNOTSUPP;
	}
	err = slice_move(g, g->slice, NULL);
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "the interface could not move into the slice's namespace");
		return err;
	}
	err = slice_egress_start(g);
	if (err) {
		NL_SET_ERR_MSG(extack, "could not hook the interface's egress");
		if (slice_move(g, g->node, g->ifname))
			netdev_warn(g->dev,
				    "slice: stays in the slice's namespace\n");
		return err;
	}
	/* the slice cannot move it on; our own moves clear this first */
	ah_set_netns_local(g->dev);
	return 0;
}

/*
 * The device goes back to the node unless it is being removed, or the
 * node's namespace is what goes (it is left to the slice's, which hands
 * it on as any namespace does at its exit).
 */
static void slice_move_stop(struct slice_grant *g, u8 reason)
{
	struct net_device *dev = g->dev;
	bool back = reason != SLICE_REASON_DEV_GONE &&
		    reason != SLICE_REASON_NODE_EXIT;

	slice_egress_stop(g);
	ah_clear_netns_local(dev);
	if (!back || net_eq(dev_net(dev), g->node))
		return;
	if (slice_move(g, g->node, g->ifname))
		netdev_warn(dev, "slice: could not return to the node\n");
	else if (g->was_up)
		dev_change_flags(dev, dev->flags | IFF_UP, NULL);
}

/*
 * A wireless grant that ends while the slice holds the interface: the
 * interface goes down at once and stays down (NETDEV_PRE_UP is refused)
 * until its phy is back in the node.  False: the grant goes now.
 */
static bool slice_phy_hold(struct slice_grant *g, u8 reason)
{
	if (g->state != SLICE_STATE_ACTIVE ||
	    reason == SLICE_REASON_DEV_GONE ||
	    reason == SLICE_REASON_NODE_EXIT || reason == SLICE_REASON_UNLOAD)
		return false;
	/* down before the spoof check goes: not one frame unchecked */
	g->state = SLICE_STATE_RETURNING;
	dev_close(g->dev);
	slice_egress_stop(g);
	g->expires = 0;
	if (reason == SLICE_REASON_SLICE_EXIT)
		g->slice = NULL;
	return true;
}

/*
 * The interface of a PHY_WAIT grant arrived with its phy (its
 * NETDEV_REGISTER in the new namespace, RTNL held): in the slice, the
 * grant is ACTIVE from here, its egress hooked before the slice can bring
 * it up; anywhere else, the grant ends.
 */
static void slice_phy_arrived(struct slice_grant *g)
{
	int err;

	if (!net_eq(dev_net(g->dev), g->slice)) {
		slice_revoke(g, SLICE_REASON_PHY_MOVED);
		return;
	}
	dev_get_stats(g->dev, &g->base);
	err = slice_egress_start(g);
	g->state = SLICE_STATE_ACTIVE;
	if (err) {
		netdev_warn(g->dev,
			    "slice: could not hook its egress: the grant ends\n");
		slice_revoke(g, SLICE_REASON_REVOKED);
		return;
	}
	slice_notify(g, SLICE_CMD_GRANT, -1);
}

/*
 * The phy of a RETURNING grant landed (the work, RTNL held): the grant is
 * done when it is back in the node, or when its slice went (cfg80211 gave
 * it to the initial namespace); the interface comes up if it was.
 */
static void slice_phy_landed(struct slice_grant *g)
{
	struct net *net;

	g->landed = false;
	if (g->state != SLICE_STATE_RETURNING || !g->dev)
		return;
	net = dev_net(g->dev);
	if (!net_eq(net, g->node) && (g->slice || !net_eq(net, &init_net)))
		return;
	/* off the list first: its own veto of NETDEV_PRE_UP is gone */
	list_del(&g->list);
	if (g->was_up && net_eq(net, g->node))
		dev_change_flags(g->dev, g->dev->flags | IFF_UP, NULL);
	slice_grant_release(g);
}

/*
 * The slice deleted the interface of a wireless grant (its real
 * NETDEV_UNREGISTER) while the phy is out of the node: the grant holds
 * the phy alone, RETURNING (announced if it was ACTIVE), until the phy is
 * back in the node or unregistered (slice_phy_orphan_check()).  False:
 * the grant ends as any does.
 */
static bool slice_phy_orphan(struct slice_grant *g)
{
	struct rtnl_link_stats64 st;

	if (g->state == SLICE_STATE_PHY_WAIT ||
	    net_eq(dev_net(g->dev), g->node) || !slice_phy_net(g))
		return false;
	if (g->state == SLICE_STATE_ACTIVE) {
		g->state = SLICE_STATE_RETURNING;
		slice_egress_stop(g);
		g->expires = 0;
		slice_notify(g, SLICE_CMD_REVOKE, SLICE_REASON_DEV_GONE);
	}
	slice_grant_stats(g, &st);
	g->base = st;
	g->dev = NULL;
	g->landed = false;
	slice_lease_arm();
	return true;
}

/* a phy held alone (the work, RTNL held): done when back or gone */
static void slice_phy_orphan_check(struct slice_grant *g)
{
	struct net *net = slice_phy_net(g);

	if (net && !net_eq(net, g->node) &&
	    (g->slice || !net_eq(net, &init_net)))
		return;
	slice_grant_free(g);
}

int slice_grant(struct net_device *dev, struct net *slice,
		const struct slice_req *req, struct netlink_ext_ack *extack)
{
	struct slice_grant *g;
	int err;

	ASSERT_RTNL();
	g = slice_grant_by_dev(dev);
	if (g) {
		AH_ERR_MSG_FMT(extack, "the interface is granted already",
			       "%s is granted to slice %s", dev->name,
			       g->name[0] ? g->name : "(no name)");
		return -EBUSY;
	}
	if (net_eq(dev_net(dev), slice)) {
		NL_SET_ERR_MSG(extack,
			       "the slice's namespace is the interface's own");
		return -EINVAL;
	}
	if (dev->flags & IFF_LOOPBACK) {
		NL_SET_ERR_MSG(extack, "the loopback interface is the node's");
		return -EINVAL;
	}
	if (!check_net(slice)) {
		NL_SET_ERR_MSG(extack, "the slice's namespace is going away");
		return -ENOENT;
	}

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	g->dev = dev;
	g->node = dev_net(dev);
	g->slice = slice;
	strscpy(g->ifname, dev->name, sizeof(g->ifname));
	g->ifindex = dev->ifindex;
	strscpy(g->name, req->name ?: "", sizeof(g->name));
	g->mode = req->mode;
	g->was_up = !!(dev->flags & IFF_UP);
	g->since = jiffies;
	if (req->lease)
		g->expires = (jiffies + msecs_to_jiffies(req->lease * 1000U)) ?: 1;
	atomic64_set(&g->spoofed, 0);
	memcpy(g->keep, req->keep, sizeof(g->keep));
	g->n_keep = req->n_keep;

	g->state = SLICE_STATE_ACTIVE;
	if (g->mode == SLICE_MODE_MAP) {
		err = slice_map_start(g, extack);
	} else {
		dev_get_stats(dev, &g->base);
		err = slice_move_start(g, extack);
	}
	if (err) {
		kfree(g);
		return err;
	}
	list_add_tail(&g->list, &slice_grants);
	ah_obj_created("grant", g);
	slice_notify(g, SLICE_CMD_GRANT, -1);
	slice_lease_arm();
	return 0;
}

/*
 * End a grant (RTNL held): announced once, with its REASON.  A wireless
 * grant may stay as RETURNING (slice_phy_hold()); ending one of those
 * frees it, announced already.
 */
void slice_revoke(struct slice_grant *g, u8 reason)
{
	ASSERT_RTNL();
	if (g->state == SLICE_STATE_RETURNING)
		goto free;
	if (g->wireless && slice_phy_hold(g, reason)) {
		slice_notify(g, SLICE_CMD_REVOKE, reason);
		slice_lease_arm();
		return;
	}
	slice_notify(g, SLICE_CMD_REVOKE, reason);
	if (g->mode == SLICE_MODE_MAP)
		slice_map_stop(g);
	else if (g->wireless)
		slice_egress_stop(g);
	else
		slice_move_stop(g, reason);
free:
	slice_grant_free(g);
	slice_lease_arm();
}

/*
 * A wireless grant's interface: it leaves one namespace and arrives in
 * another with its phy (nl80211), and is held down while the grant is not
 * ACTIVE.  A notifier verdict, or -1 to go on as for any grant.
 */
static int slice_phy_event(struct slice_grant *g, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = g->dev;

	switch (event) {
	case NETDEV_UNREGISTER:
		/* still registered: a change of namespace, not a removal */
		if (dev->reg_state != NETREG_REGISTERED)
			return slice_phy_orphan(g) ? NOTIFY_DONE : -1;
		/* out of the slice: its egress hook goes while in there */
		if (g->state == SLICE_STATE_ACTIVE)
			slice_revoke(g, SLICE_REASON_PHY_MOVED);
		return NOTIFY_DONE;
	case NETDEV_REGISTER:
		if (g->state == SLICE_STATE_PHY_WAIT) {
			slice_phy_arrived(g);
			return NOTIFY_DONE;
		}
		/* the work brings it up, not in the middle of the move */
		g->landed = true;
		slice_lease_arm();
		return NOTIFY_DONE;
	}
	return -1;
}

/*
 * An interface comes up: not one on a phy a grant holds, but the granted
 * interface while the grant is ACTIVE (no other interface of the phy can
 * send past the spoof check, or use the radio after the grant).
 */
static int slice_phy_pre_up(struct net_device *dev, void *ptr)
{
	struct slice_grant *g = slice_grant_by_phy(dev);
	struct netlink_ext_ack *extack;

	if (!g || (g->dev == dev && g->state == SLICE_STATE_ACTIVE))
		return NOTIFY_DONE;
	extack = netdev_notifier_info_to_extack(ptr);
	if (g->dev != dev)
		NL_SET_ERR_MSG(extack,
			       "its phy is granted to a slice with another interface: this one stays down");
	else if (g->state == SLICE_STATE_PHY_WAIT)
		NL_SET_ERR_MSG(extack,
			       "granted to a slice: the interface waits for its phy to move there");
	else
		NL_SET_ERR_MSG(extack,
			       "its grant ended: the interface stays down until its phy is back in the node");
	return notifier_from_errno(-EPERM);
}

static int slice_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct slice_grant *g;

	if (event == NETDEV_FEAT_CHANGE || event == NETDEV_CHANGEUPPER) {
		slice_map_lower_changed(dev);
		return NOTIFY_DONE;
	}
	if (event == NETDEV_PRE_UP)
		return slice_phy_pre_up(dev, ptr);
	if (event != NETDEV_UNREGISTER && event != NETDEV_PRE_CHANGEADDR &&
	    event != NETDEV_REGISTER)
		return NOTIFY_DONE;
	g = slice_grant_by_dev(dev);
	if (!g || g->moving)
		return NOTIFY_DONE;
	if (g->wireless) {
		int ret = slice_phy_event(g, event, ptr);

		if (ret >= 0)
			return ret;
	}
	if (event == NETDEV_REGISTER)
		return NOTIFY_DONE;
	if (event == NETDEV_PRE_CHANGEADDR)
		/* the slice keeps the interface's own MAC (map: the node's) */
		return g->mode == SLICE_MODE_MOVE ?
		       notifier_from_errno(-EPERM) : NOTIFY_DONE;
	/* removed (or moved by someone else: then no longer ours either) */
	slice_revoke(g, SLICE_REASON_DEV_GONE);
	return NOTIFY_DONE;
}

static struct notifier_block slice_netdev_nb = {
	.notifier_call = slice_netdev_event,
};

/*
 * A namespace going away: its grants end before any of its devices is
 * moved or deleted (pre_exit runs before the default device exit).
 */
static void __net_exit slice_net_pre_exit(struct net *net)
{
	struct slice_grant *g, *tmp;

	rtnl_lock();
	list_for_each_entry_safe(g, tmp, &slice_grants, list) {
		if (g->state == SLICE_STATE_RETURNING && net_eq(g->slice, net))
			/*
			 * cfg80211 hands its phy to the initial namespace,
			 * where the grant ends; the pointer goes with the
			 * namespace
			 */
			g->slice = NULL;
		else if (net_eq(g->slice, net))
			slice_revoke(g, SLICE_REASON_SLICE_EXIT);
		else if (net_eq(g->node, net))
			slice_revoke(g, SLICE_REASON_NODE_EXIT);
	}
	rtnl_unlock();
}

static struct pernet_operations slice_net_ops = {
	.pre_exit = slice_net_pre_exit,
};

int slice_grants_init(void)
{
	int err;

	err = register_pernet_device(&slice_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&slice_netdev_nb);
	if (err)
		goto out_pernet;
	err = slice_map_init_module();
	if (err)
		goto out_netdev;
	return 0;
out_netdev:
	unregister_netdevice_notifier(&slice_netdev_nb);
out_pernet:
	unregister_pernet_device(&slice_net_ops);
	return err;
}

/* rmmod: after the family is gone, so no new grant can come */
void slice_grants_exit(void)
{
	struct slice_grant *g, *tmp;

	rtnl_lock();
	slice_stopping = true;
	rtnl_unlock();
	cancel_delayed_work_sync(&slice_lease_work);
	rtnl_lock();
	list_for_each_entry_safe(g, tmp, &slice_grants, list)
		slice_revoke(g, SLICE_REASON_UNLOAD);
	rtnl_unlock();
	slice_map_exit_module();
	unregister_netdevice_notifier(&slice_netdev_nb);
	unregister_pernet_device(&slice_net_ops);
}
