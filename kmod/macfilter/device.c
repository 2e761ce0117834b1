// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching to a device: the rx_handler, per-device counters and detaching
 * when the device goes away.  A device's mf_dev exists while a user's
 * filter is attached (mfd->user, on the namespace's list) or another
 * module receives behind macfilter there (mfd->next: macfilter_next.h);
 * with only the latter it has no table and passes every frame.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>

#include "ah_debug.h"
#include "device.h"
#include "macfilter_next.h"
#include "netlink.h"
#include "netns.h"

static bool mf_should_drop(const struct mf_table *t, const u8 *src)
{
	struct mf_entry *e;
	u8 loss;

	if (!t)
		return false;
	loss = mf_effective_loss(t, NULL);
	e = mf_table_lookup(t, src);
	if (e)
		loss = mf_effective_loss(t, e);
	if (loss == 0)
		return false;
	if (loss < 100 && get_random_u32_below(100) >= loss)
		return false;
	if (e)
		atomic64_inc(&e->dropped);
	return true;
}

static rx_handler_result_t mf_rx(struct sk_buff **pskb)
{
	const struct macfilter_next *next;
	struct sk_buff *skb = *pskb;
	struct mf_pcpu_stats *st;
	struct mf_dev *mfd;
	bool drop = false;

	if (unlikely(skb->pkt_type == PACKET_LOOPBACK))
		return RX_HANDLER_PASS;
	mfd = rcu_dereference(skb->dev->rx_handler_data);
	if (likely(skb_mac_header_was_set(skb) &&
		   skb_mac_header_len(skb) >= ETH_HLEN))
		drop = mf_should_drop(rcu_dereference(mfd->table),
				      eth_hdr(skb)->h_source);

	st = this_cpu_ptr(mfd->stats);
	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->seen);
	if (drop)
		u64_stats_inc(&st->dropped);
	else
		u64_stats_inc(&st->passed);
	u64_stats_update_end(&st->syncp);

	if (drop) {
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	next = rcu_dereference(mfd->next);
	if (next)
		return next->rx(pskb, next);
	return RX_HANDLER_PASS;
}

/* dev's mf_dev, a user's filter or only a module behind macfilter */
static struct mf_dev *mf_dev_rtnl(const struct net_device *dev)
{
	if (rcu_access_pointer(dev->rx_handler) != mf_rx)
		return NULL;
	return rtnl_dereference(dev->rx_handler_data);
}

/* dev's mf_dev if a user attached macfilter to it */
struct mf_dev *mf_dev_get_rtnl(const struct net_device *dev)
{
	struct mf_dev *mfd = mf_dev_rtnl(dev);

	return mfd && mfd->user ? mfd : NULL;
}

static void mf_dev_free(struct mf_dev *mfd)
{
	mf_table_free(rcu_dereference_protected(mfd->table, true));
	free_percpu(mfd->stats);
	ah_obj_destroyed("dev", mfd);
	kfree(mfd);
}

/* A new mf_dev on dev, its rx_handler registered; t may be NULL (pass all). */
static struct mf_dev *mf_dev_new(struct net_device *dev, struct mf_table *t,
				 struct netlink_ext_ack *extack)
{
	struct mf_dev *mfd;
	int err;

	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN ||
	    (dev->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG(extack, "device is not an Ethernet-like device");
		mf_table_free(t);
		return ERR_PTR(-EOPNOTSUPP);
	}
	mfd = kzalloc(sizeof(*mfd), GFP_KERNEL_ACCOUNT);
	if (!mfd) {
		mf_table_free(t);
		return ERR_PTR(-ENOMEM);
	}
	ah_obj_created("dev", mfd);
	mfd->dev = dev;
	RCU_INIT_POINTER(mfd->table, t);
	mfd->stats = netdev_alloc_pcpu_stats(struct mf_pcpu_stats);
	if (!mfd->stats) {
		err = -ENOMEM;
		goto err_free;
	}
	err = netdev_rx_handler_register(dev, mf_rx, mfd);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "device rx_handler is already in use (bridge port, bond/team slave, macvlan lower?)");
	if (err)
		goto err_free;
	return mfd;

err_free:
	mf_dev_free(mfd);
	return ERR_PTR(err);
}

/* The rx_handler off dev, then mfd freed.  RTNL held. */
static void mf_dev_release(struct mf_dev *mfd)
{
	/* Waits for receive paths still looking at @mfd. */
	netdev_rx_handler_unregister(mfd->dev);
	/* Old tables still being retired carry their counters into @mfd. */
	if (atomic_read(&mfd->retiring))
		rcu_barrier();
	mf_dev_free(mfd);
}

static void mf_dev_raw_stats(const struct mf_dev *mfd, struct mf_stats *s);

struct mf_dev *mf_dev_attach(struct net_device *dev, u8 mode, u32 max_entries,
			     struct netlink_ext_ack *extack)
{
	struct mf_dev *mfd;
	struct mf_table *t;

	ASSERT_RTNL();
	mfd = mf_dev_rtnl(dev);
	if (mfd && mfd->user) {
		NL_SET_ERR_MSG(extack, "macfilter is already attached to this device");
		return ERR_PTR(-EEXIST);
	}
	t = mf_table_alloc(max_entries, mode);
	if (!t)
		return ERR_PTR(-ENOMEM);
	if (mfd) {
		/* a module receives behind us here: its frames are filtered
		 * from now on, and the user's counters start at 0
		 */
		mf_dev_raw_stats(mfd, &mfd->base);
		mf_dev_swap_table(mfd, t);
	} else {
		mfd = mf_dev_new(dev, t, extack);
		if (IS_ERR(mfd))
			return mfd;
	}
	mfd->user = true;
	list_add_tail_rcu(&mfd->list, &mf_net(dev_net(dev))->devs);
	return mfd;
}

/* The user's filter off mfd's device (the netlink detach, the device's
 * or the namespace's end).  A module behind macfilter keeps receiving,
 * unfiltered.  RTNL held.
 */
void mf_dev_detach(struct mf_dev *mfd)
{
	ASSERT_RTNL();
	list_del_rcu(&mfd->list);
	mfd->user = false;
	if (!rtnl_dereference(mfd->next)) {
		mf_dev_release(mfd);
		return;
	}
	/* dumps that found mfd on the list read its table */
	synchronize_net();
	mf_dev_swap_table(mfd, NULL);
}

int macfilter_next_attach(struct net_device *dev, struct macfilter_next *next,
			  struct netlink_ext_ack *extack)
{
	struct mf_dev *mfd;

	ASSERT_RTNL();
	mfd = mf_dev_rtnl(dev);
	if (!mfd) {
		mfd = mf_dev_new(dev, NULL, extack);
		if (IS_ERR(mfd))
			return PTR_ERR(mfd);
	} else if (rtnl_dereference(mfd->next)) {
		NL_SET_ERR_MSG(extack,
			       "another module already receives behind macfilter on this device");
		return -EBUSY;
	}
	rcu_assign_pointer(mfd->next, next);
	return 0;
}
EXPORT_SYMBOL_GPL(macfilter_next_attach);

void macfilter_next_detach(struct net_device *dev, struct macfilter_next *next)
{
	struct mf_dev *mfd;

	ASSERT_RTNL();
	mfd = mf_dev_rtnl(dev);
	if (WARN_ON_ONCE(!mfd || rtnl_dereference(mfd->next) != next))
		return;
	RCU_INIT_POINTER(mfd->next, NULL);
	if (!mfd->user)
		mf_dev_release(mfd);	/* synchronize_net() */
	else
		synchronize_net();
}
EXPORT_SYMBOL_GPL(macfilter_next_detach);

/*
 * A grace period after the swap: no reader sees @old any more, so its
 * counters are final.  They go to the device's table of now (RCU
 * callbacks run with bottom halves off, a read-side section): if that
 * one is swapped out meanwhile, its own retirement waits for this
 * section and carries them on.
 */
static void mf_table_retire(struct rcu_head *head)
{
	struct mf_table *old = container_of(head, struct mf_table, rcu);
	struct mf_dev *mfd = old->retired_from;

	struct mf_table *now;

	rcu_read_lock();
	now = rcu_dereference(mfd->table);
	if (now)	/* else the user detached: nobody reads them */
		mf_table_carry_counters(now, old);
	rcu_read_unlock();
	mf_table_free(old);
	atomic_dec(&mfd->retiring);
}

/*
 * Publish @t as the device's table; the old one is freed after a grace
 * period.  Not waiting for it here keeps RTNL free: a synchronize_net()
 * under RTNL for every replace made a trace step cost about 10 ms under
 * TCG, and fifty nodes' replays queued behind each other for RTNL
 * (docs/benchmarks.md, "Fifty nodes").
 */
void mf_dev_swap_table(struct mf_dev *mfd, struct mf_table *t)
{
	struct mf_table *old = mf_dev_table_rtnl(mfd);

	rcu_assign_pointer(mfd->table, t);
	if (!old)
		return;
	old->retired_from = mfd;
	atomic_inc(&mfd->retiring);
	call_rcu(&old->rcu, mf_table_retire);
}

static void mf_dev_raw_stats(const struct mf_dev *mfd, struct mf_stats *s)
{
	int cpu;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		const struct mf_pcpu_stats *st = per_cpu_ptr(mfd->stats, cpu);
		u64 seen, passed, dropped;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&st->syncp);
			seen = u64_stats_read(&st->seen);
			passed = u64_stats_read(&st->passed);
			dropped = u64_stats_read(&st->dropped);
		} while (u64_stats_fetch_retry(&st->syncp, start));
		s->seen += seen;
		s->passed += passed;
		s->dropped += dropped;
	}
}

/* Since the user attached: what was seen before passed unfiltered. */
void mf_dev_get_stats(const struct mf_dev *mfd, struct mf_stats *s)
{
	mf_dev_raw_stats(mfd, s);
	s->seen -= mfd->base.seen;
	s->passed -= mfd->base.passed;
	s->dropped -= mfd->base.dropped;
}

static int mf_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mf_dev *mfd;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	mfd = mf_dev_get_rtnl(dev);
	if (!mfd)
		return NOTIFY_DONE;
	mf_nl_notify_dev(mfd, MACFILTER_CMD_DETACH);
	mf_dev_detach(mfd);
	return NOTIFY_OK;
}

static struct notifier_block mf_netdev_notifier = {
	.notifier_call = mf_netdev_event,
};

int mf_device_init(void)
{
	return register_netdevice_notifier(&mf_netdev_notifier);
}

void mf_device_exit(void)
{
	unregister_netdevice_notifier(&mf_netdev_notifier);
}
