/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine attached to one device: its flow table (flow.c), the lock
 * the driver's hooks take, and the per-namespace list of attached devices.
 */
#ifndef _TR_ENGINE_H
#define _TR_ENGINE_H

#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <linux/ah_transit.h>

#include "flow.h"

struct tr_dev {
	struct net_device *dev;
	/*
	 * The table and everything in it.  The hooks run in whatever context
	 * the driver calls them from, hard IRQ included: irqsave everywhere.
	 */
	spinlock_t lock;
	struct tr_table *t;
	u32 peek_len;			/* t->p.peek_len, read without the lock */
	bool enabled;
	bool dead;			/* detached: the timer stops */
	struct timer_list timer;	/* tr_flow_tick() */
	struct hlist_node hnode;	/* tr_devs by dev pointer: hooks, RCU */
	struct list_head list;		/* tr_net.devs: RTNL writers, RCU */
	struct rcu_head rcu;
};

struct tr_net {
	struct list_head devs;		/* struct tr_dev */
	u32 gen;			/* bumped on every change, for dumps */
	struct nf_hook_ops nf_ops;	/* tr_nf_out() on POST_ROUTING */
	bool hooked;			/* nf_ops registered */
};

extern unsigned int tr_net_id;

static inline struct tr_net *tr_net(const struct net *net)
{
	return net_generic(net, tr_net_id);
}

/* What a GET_DEV shows: a consistent copy taken under the lock. */
struct tr_dev_info {
	struct tr_params p;
	struct tr_totals tot;
	u32 flows;
	bool enabled;
};

u64 tr_now(void);
struct tr_dev *tr_dev_get_rtnl(const struct net_device *dev);
struct tr_dev *tr_dev_find_rcu(const struct net_device *dev);
struct tr_dev *tr_dev_attach(struct net_device *dev, const struct tr_params *p,
			     bool enable, struct netlink_ext_ack *extack);
void tr_dev_detach(struct tr_dev *td);
int tr_dev_set(struct tr_dev *td, const struct tr_params *p, bool enable);
void tr_dev_params(struct tr_dev *td, struct tr_params *p);
void tr_dev_info(struct tr_dev *td, struct tr_dev_info *info);
void tr_dev_flush(struct tr_dev *td, bool flows, bool counters);

int tr_engine_init(void);
void tr_engine_exit(void);

/* drop.c: the exact miss signal from the kfree_skb tracepoint */
int tr_drop_init(void);
void tr_drop_exit(void);

/* netlink.c */
int tr_genl_init(void);
void tr_genl_exit(void);
void tr_nl_notify_dev(struct tr_dev *td, u8 cmd);

#endif /* _TR_ENGINE_H */
