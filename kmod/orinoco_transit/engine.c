// SPDX-License-Identifier: GPL-2.0
/*
 * The engine side of the hook API (ah_transit_hook.h): which devices are
 * attached, and the three calls a PIO driver makes.  A driver calls
 * ah_transit_rx() after reading the first bytes of a received frame: the
 * frame is parsed (peek.c), frames for this host are passed, and the rest
 * go to the device's flow table (flow.c).  ah_transit_tx() shows every
 * frame a hooked driver transmits to the table of every attached device
 * of the namespace, so that a flow received on one card and forwarded
 * out another is still seen.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/hashtable.h>
#include <linux/if_arp.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/ip.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <net/route.h>

#include "ah_debug.h"
#include "ah_transit_hook.h"
#include "engine.h"

#define TR_TICK_MS	1000

unsigned int tr_net_id __read_mostly;

/* attached devices by net_device pointer, for the hooks */
static DEFINE_HASHTABLE(tr_devs, 6);

u64 tr_now(void)
{
	return div_u64(ktime_get_ns(), NSEC_PER_MSEC);
}

struct tr_dev *tr_dev_find_rcu(const struct net_device *dev)
{
	struct tr_dev *td;

	hash_for_each_possible_rcu(tr_devs, td, hnode, (unsigned long)dev)
		if (td->dev == dev)
			return td;
	return NULL;
}

struct tr_dev *tr_dev_get_rtnl(const struct net_device *dev)
{
	struct tr_dev *td;

	ASSERT_RTNL();
	hash_for_each_possible(tr_devs, td, hnode, (unsigned long)dev)
		if (td->dev == dev)
			return td;
	return NULL;
}

/* ---- the hooks ---------------------------------------------------------- */

unsigned int ah_transit_peek_len(const struct net_device *dev)
{
	struct tr_dev *td;
	unsigned int n = 0;

	rcu_read_lock();
	td = tr_dev_find_rcu(dev);
	if (td && READ_ONCE(td->enabled))
		n = READ_ONCE(td->peek_len);
	rcu_read_unlock();
	return n;
}
EXPORT_SYMBOL_GPL(ah_transit_peek_len);

/*
 * Addressed to this host, or a broadcast of one of its subnets: never
 * learned (its marks would never come back on transmit).  A FIB lookup,
 * under RCU, safe in any context.
 */
static bool tr_for_host(struct net_device *dev, __be32 daddr)
{
	return inet_addr_type_dev_table(dev_net(dev), dev, daddr) !=
	       RTN_UNICAST;
}

enum ah_transit_verdict ah_transit_rx(struct net_device *dev,
				      const void *data, unsigned int len,
				      unsigned int frame_len)
{
	enum tr_verdict v = TR_PASS;
	unsigned long flags;
	struct tr_peek p;
	struct tr_dev *td;
	bool host;

	rcu_read_lock();
	td = tr_dev_find_rcu(dev);
	if (!td || !READ_ONCE(td->enabled))
		goto out;
	tr_peek(data, len, frame_len, &p);
	host = tr_peek_droppable(&p) && tr_for_host(dev, p.daddr);
	spin_lock_irqsave(&td->lock, flags);
	if (host)
		tr_flow_rx_local(td->t);
	else
		v = tr_flow_rx(td->t, &p, tr_now(), frame_len, len);
	spin_unlock_irqrestore(&td->lock, flags);
out:
	rcu_read_unlock();
	return v == TR_DROP ? AH_TRANSIT_DROP : AH_TRANSIT_PASS;
}
EXPORT_SYMBOL_GPL(ah_transit_rx);

void ah_transit_tx(struct net_device *dev, const struct sk_buff *skb)
{
	u8 buf[TR_PEEK_LEN_MAX];
	unsigned int n = min_t(unsigned int, skb->len, sizeof(buf));
	unsigned long flags;
	struct tr_dev *td;
	const u8 *d;
	u64 now;

	d = skb_header_pointer(skb, 0, n, buf);
	if (!d)
		return;
	now = tr_now();
	rcu_read_lock();
	list_for_each_entry_rcu(td, &tr_net(dev_net(dev))->devs, list) {
		if (!READ_ONCE(td->enabled))
			continue;
		spin_lock_irqsave(&td->lock, flags);
		tr_flow_tx(td->t, d, n, skb->len, now);
		spin_unlock_irqrestore(&td->lock, flags);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(ah_transit_tx);

/*
 * Forwarded out of a card whose driver has no hook (an Ethernet uplink, a
 * second radio of another make), a flow's marks would never be seen and
 * the flow would be taken for dropped.  So whatever leaves the namespace
 * is shown to the tables too, last in POST_ROUTING, after every firewall
 * hook there accepted it.  Registered while a device of the namespace is
 * attached.
 */
static unsigned int tr_nf_out(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *state)
{
	struct tr_net *tn = priv;
	const struct iphdr *iph = ip_hdr(skb);
	u8 buf[TR_ETH_HLEN + sizeof(*iph)];
	unsigned long flags;
	struct tr_dev *td;
	u64 now;

	/* tr_flow_tx() reads a frame: an Ethernet header, then IPv4 */
	memset(buf, 0, TR_ETH_HLEN);
	buf[12] = ETH_P_IP >> 8;
	buf[13] = ETH_P_IP & 0xff;
	memcpy(buf + TR_ETH_HLEN, iph, sizeof(*iph));
	now = tr_now();
	rcu_read_lock();
	list_for_each_entry_rcu(td, &tn->devs, list) {
		if (!READ_ONCE(td->enabled))
			continue;
		spin_lock_irqsave(&td->lock, flags);
		tr_flow_tx(td->t, buf, sizeof(buf), TR_ETH_HLEN + skb->len, now);
		spin_unlock_irqrestore(&td->lock, flags);
	}
	rcu_read_unlock();
	return NF_ACCEPT;
}

/* netfilter keeps a pointer to the ops: they live in tr_net */
static int tr_nf_hook(struct net *net, struct tr_net *tn, bool on)
{
	int err = 0;

	if (on == tn->hooked)
		return 0;
	if (on)
		err = nf_register_net_hook(net, &tn->nf_ops);
	else
		nf_unregister_net_hook(net, &tn->nf_ops);
	if (!err)
		tn->hooked = on;
	return err;
}

/* ---- attach, detach, change --------------------------------------------- */

static void tr_dev_tick(struct timer_list *timer)
{
	struct tr_dev *td = from_timer(td, timer, timer);
	unsigned long flags;

	spin_lock_irqsave(&td->lock, flags);
	if (!td->dead) {
		tr_flow_tick(td->t, tr_now());
		mod_timer(&td->timer, jiffies + msecs_to_jiffies(TR_TICK_MS));
	}
	spin_unlock_irqrestore(&td->lock, flags);
}

static struct tr_table *tr_table_new(const struct tr_params *p)
{
	struct tr_table *t = tr_flow_create(p, get_random_u32());

	if (t)
		ah_obj_created("table", t);
	return t;
}

static void tr_table_free(struct tr_table *t)
{
	ah_obj_destroyed("table", t);
	tr_flow_destroy(t);
}

struct tr_dev *tr_dev_attach(struct net_device *dev, const struct tr_params *p,
			     bool enable, struct netlink_ext_ack *extack)
{
	struct tr_dev *td;

	ASSERT_RTNL();
	if (tr_dev_get_rtnl(dev)) {
		NL_SET_ERR_MSG(extack, "transit is already attached to this device");
		return ERR_PTR(-EEXIST);
	}
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG(extack, "not an Ethernet device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	td = kzalloc(sizeof(*td), GFP_KERNEL);
	if (!td)
		return ERR_PTR(-ENOMEM);
	td->t = tr_table_new(p);
	if (!td->t || tr_nf_hook(dev_net(dev), tr_net(dev_net(dev)), true)) {
		if (td->t)
			tr_table_free(td->t);
		kfree(td);
		return ERR_PTR(-ENOMEM);
	}
	td->dev = dev;
	td->peek_len = p->peek_len;
	td->enabled = enable;
	spin_lock_init(&td->lock);
	timer_setup(&td->timer, tr_dev_tick, 0);
	mod_timer(&td->timer, jiffies + msecs_to_jiffies(TR_TICK_MS));
	hash_add_rcu(tr_devs, &td->hnode, (unsigned long)dev);
	list_add_tail_rcu(&td->list, &tr_net(dev_net(dev))->devs);
	tr_net(dev_net(dev))->gen++;
	ah_obj_created("dev", td);
	return td;
}

void tr_dev_detach(struct tr_dev *td)
{
	struct tr_net *tn = tr_net(dev_net(td->dev));
	unsigned long flags;

	ASSERT_RTNL();
	hash_del_rcu(&td->hnode);
	list_del_rcu(&td->list);
	tn->gen++;
	if (list_empty(&tn->devs))
		tr_nf_hook(dev_net(td->dev), tn, false);
	spin_lock_irqsave(&td->lock, flags);
	td->dead = true;
	spin_unlock_irqrestore(&td->lock, flags);
	del_timer_sync(&td->timer);
	/* a hook may still hold td (and its table) under RCU */
	synchronize_net();
	tr_table_free(td->t);
	ah_obj_destroyed("dev", td);
	kfree(td);
}

void tr_dev_params(struct tr_dev *td, struct tr_params *p)
{
	unsigned long flags;

	spin_lock_irqsave(&td->lock, flags);
	*p = td->t->p;
	spin_unlock_irqrestore(&td->lock, flags);
}

/*
 * p was checked (tr_params_check()).  Another table size needs a new
 * table, allocated here, before the lock: its flows start from nothing
 * (the totals are carried over).
 */
int tr_dev_set(struct tr_dev *td, const struct tr_params *p, bool enable)
{
	struct tr_table *t = NULL, *old = NULL;
	unsigned long flags;
	int err = 0;

	ASSERT_RTNL();
	if (p->table_size != td->t->p.table_size) {
		t = tr_table_new(p);
		if (!t)
			return -ENOMEM;
	}
	spin_lock_irqsave(&td->lock, flags);
	if (t) {
		t->tot = td->t->tot;
		old = td->t;
		td->t = t;
	} else {
		err = tr_flow_set_params(td->t, p);
	}
	if (!err) {
		WRITE_ONCE(td->peek_len, p->peek_len);
		WRITE_ONCE(td->enabled, enable);
	}
	spin_unlock_irqrestore(&td->lock, flags);
	if (old)
		tr_table_free(old);
	tr_net(dev_net(td->dev))->gen++;
	return err ? -EINVAL : 0;
}

void tr_dev_info(struct tr_dev *td, struct tr_dev_info *info)
{
	unsigned long flags;

	spin_lock_irqsave(&td->lock, flags);
	info->p = td->t->p;
	info->tot = td->t->tot;
	info->flows = td->t->count;
	info->enabled = td->enabled;
	spin_unlock_irqrestore(&td->lock, flags);
}

void tr_dev_flush(struct tr_dev *td, bool flows, bool counters)
{
	unsigned long flags;

	spin_lock_irqsave(&td->lock, flags);
	if (flows)
		tr_flow_flush(td->t);
	if (counters)
		tr_flow_clear_totals(td->t);
	spin_unlock_irqrestore(&td->lock, flags);
	tr_net(dev_net(td->dev))->gen++;
}

/* ---- device and namespace lifetime -------------------------------------- */

/* Unregistering (which a move to another namespace also is) detaches. */
static int tr_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct tr_dev *td;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	td = tr_dev_get_rtnl(dev);
	if (td) {
		tr_nl_notify_dev(td, TRANSIT_CMD_DETACH);
		tr_dev_detach(td);
	}
	return NOTIFY_DONE;
}

static struct notifier_block tr_netdev_notifier = {
	.notifier_call = tr_netdev_event,
};

static int __net_init tr_net_init(struct net *net)
{
	struct tr_net *tn = tr_net(net);

	INIT_LIST_HEAD(&tn->devs);
	tn->nf_ops = (struct nf_hook_ops){
		.hook = tr_nf_out,
		.priv = tn,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP_PRI_LAST,
	};
	ah_obj_created("net", tn);
	return 0;
}

/* Devices go (NETDEV_UNREGISTER) before a namespace's subsystems exit. */
static void __net_exit tr_net_exit(struct net *net)
{
	struct tr_net *tn = tr_net(net);
	struct tr_dev *td, *tmp;

	rtnl_lock();
	list_for_each_entry_safe(td, tmp, &tn->devs, list)
		tr_dev_detach(td);
	rtnl_unlock();
	ah_obj_destroyed("net", tn);
}

static struct pernet_operations tr_net_ops = {
	.init = tr_net_init,
	.exit = tr_net_exit,
	.id = &tr_net_id,
	.size = sizeof(struct tr_net),
};

int tr_engine_init(void)
{
	int err;

	err = register_pernet_subsys(&tr_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&tr_netdev_notifier);
	if (err)
		unregister_pernet_subsys(&tr_net_ops);
	return err;
}

void tr_engine_exit(void)
{
	unregister_netdevice_notifier(&tr_netdev_notifier);
	unregister_pernet_subsys(&tr_net_ops);
}
