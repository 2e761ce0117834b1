/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels the engine is built for (6.1 and 6.12
 * LTS, and anything between).
 */
#ifndef _TR_COMPAT_H
#define _TR_COMPAT_H

#include <linux/version.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define tr_genl_ops_t genl_split_ops
#else
#define tr_genl_ops_t genl_ops
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define tr_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#else
#define tr_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/* the kfree_skb tracepoint gained the receiving socket in 6.11 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define TR_KFREE_SKB_ARGS \
	void *data, struct sk_buff *skb, void *location, \
	enum skb_drop_reason reason, struct sock *rx_sk
#else
#define TR_KFREE_SKB_ARGS \
	void *data, struct sk_buff *skb, void *location, \
	enum skb_drop_reason reason
#endif

#endif /* _TR_COMPAT_H */
