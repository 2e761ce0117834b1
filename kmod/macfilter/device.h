/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MF_DEVICE_H
#define _MF_DEVICE_H

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/u64_stats_sync.h>

#include "table.h"

struct mf_pcpu_stats {
	u64_stats_t seen;
	u64_stats_t passed;
	u64_stats_t dropped;
	struct u64_stats_sync syncp;
};

struct mf_stats {
	u64 seen;
	u64 passed;
	u64 dropped;
};

struct macfilter_next;

/*
 * macfilter on one device; rx_handler_data of that device.  user: a user
 * attached it (it is then on mf_net.devs, and has a table); next: the
 * module that receives behind it (NULL table: every frame passes).
 */
struct mf_dev {
	struct net_device *dev;
	struct mf_table __rcu *table;
	struct macfilter_next __rcu *next;
	struct mf_pcpu_stats __percpu *stats;
	struct mf_stats base;		/* counted before the user attached */
	struct list_head list;		/* mf_net.devs, RCU */
	atomic_t retiring;		/* old tables waiting for readers */
	bool user;
};

struct mf_dev *mf_dev_get_rtnl(const struct net_device *dev);
struct mf_dev *mf_dev_attach(struct net_device *dev, u8 mode, u32 max_entries,
			     struct netlink_ext_ack *extack);
void mf_dev_detach(struct mf_dev *mfd);
void mf_dev_swap_table(struct mf_dev *mfd, struct mf_table *t);
void mf_dev_get_stats(const struct mf_dev *mfd, struct mf_stats *s);

static inline struct mf_table *mf_dev_table_rtnl(const struct mf_dev *mfd)
{
	return rtnl_dereference(mfd->table);
}

int mf_device_init(void);
void mf_device_exit(void);

#endif /* _MF_DEVICE_H */
