// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching to a device: the rx_handler, per-device counters and detaching
 * when the device goes away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>

#include "ah_debug.h"
#include "device.h"
#include "netlink.h"
#include "netns.h"

static bool mf_should_drop(const struct mf_table *t, const u8 *src)
{
	u8 loss = mf_effective_loss(t, NULL);
	struct mf_entry *e;

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

	if (!drop)
		return RX_HANDLER_PASS;
	kfree_skb(skb);
	return RX_HANDLER_CONSUMED;
}

struct mf_dev *mf_dev_get_rtnl(const struct net_device *dev)
{
	if (rcu_access_pointer(dev->rx_handler) != mf_rx)
		return NULL;
	return rtnl_dereference(dev->rx_handler_data);
}

static void mf_dev_free(struct mf_dev *mfd)
{
	mf_table_free(rcu_dereference_protected(mfd->table, true));
	free_percpu(mfd->stats);
	ah_obj_destroyed("dev", mfd);
	kfree(mfd);
}

struct mf_dev *mf_dev_attach(struct net_device *dev, u8 mode, u32 max_entries,
			     struct netlink_ext_ack *extack)
{
	struct mf_dev *mfd;
	int err;

	ASSERT_RTNL();
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN ||
	    (dev->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG(extack, "device is not an Ethernet-like device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (mf_dev_get_rtnl(dev)) {
		NL_SET_ERR_MSG(extack, "macfilter is already attached to this device");
		return ERR_PTR(-EEXIST);
	}

	mfd = kzalloc(sizeof(*mfd), GFP_KERNEL_ACCOUNT);
	if (!mfd)
		return ERR_PTR(-ENOMEM);
	ah_obj_created("dev", mfd);
	mfd->dev = dev;
	mfd->stats = netdev_alloc_pcpu_stats(struct mf_pcpu_stats);
	RCU_INIT_POINTER(mfd->table, mf_table_alloc(max_entries, mode));
	if (!mfd->stats || !rcu_access_pointer(mfd->table)) {
		err = -ENOMEM;
		goto err_free;
	}

	err = netdev_rx_handler_register(dev, mf_rx, mfd);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(extack,
			       "device rx_handler is already in use (bridge port, bond/team slave, macvlan lower?)");
		goto err_free;
	}
	if (err)
		goto err_free;
	list_add_tail_rcu(&mfd->list, &mf_net(dev_net(dev))->devs);
	return mfd;

err_free:
	mf_dev_free(mfd);
	return ERR_PTR(err);
}

void mf_dev_detach(struct mf_dev *mfd)
{
	ASSERT_RTNL();
	list_del_rcu(&mfd->list);
	/* Waits for receive paths and dumps still looking at @mfd. */
	netdev_rx_handler_unregister(mfd->dev);
	/* Old tables still being retired carry their counters into @mfd. */
	if (atomic_read(&mfd->retiring))
		rcu_barrier();
	mf_dev_free(mfd);
}

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

	rcu_read_lock();
	mf_table_carry_counters(rcu_dereference(mfd->table), old);
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
	old->retired_from = mfd;
	atomic_inc(&mfd->retiring);
	call_rcu(&old->rcu, mf_table_retire);
}

void mf_dev_get_stats(const struct mf_dev *mfd, struct mf_stats *s)
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
