/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels the stack's modules are built for (6.1
 * and 6.12 LTS, and anything between), for all three modules.
 */
#ifndef _AH_COMPAT_H
#define _AH_COMPAT_H

#include <linux/version.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>

/* pre_doit and post_doit take the split ops since 6.2 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ah_genl_ops_t genl_split_ops
#else
#define ah_genl_ops_t genl_ops
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define ah_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#else
#define ah_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/* skb_gso_segment() moved to its own header in 6.5 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>
#endif

/* IPv4 has a GSO size limit of its own since 6.3 (BIG TCP) */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define ah_set_gso_max_size(dev, n)					\
	do {								\
		(dev)->gso_max_size = (n);				\
		(dev)->gso_ipv4_max_size = (n);				\
	} while (0)
#else
#define ah_set_gso_max_size(dev, n) ((dev)->gso_max_size = (n))
#endif

/* each namespace has its UDP socket table since 6.2 (<net/udp.h>) */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ah_udp_table(net) ((net)->ipv4.udp_table)
#else
#define ah_udp_table(net) (&udp_table)
#endif

/* NETIF_F_LLTX became a private flag in 6.11 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define ah_set_lltx(dev) ((dev)->lltx = true)
#else
#define ah_set_lltx(dev) ((dev)->features |= NETIF_F_LLTX)
#endif

/*
 * NETIF_F_NETNS_LOCAL became the private flag netns_local in 6.12, since
 * renamed netns_immutable (kmod/common/Kbuild.flags looks for it in the
 * tree's headers)
 */
#if defined(AH_HAVE_NETNS_IMMUTABLE)
#define ah_netns_local(dev) ((dev)->netns_immutable)
#define ah_set_netns_local(dev) ((dev)->netns_immutable = true)
#define ah_clear_netns_local(dev) ((dev)->netns_immutable = false)
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define ah_netns_local(dev) ((dev)->netns_local)
#define ah_set_netns_local(dev) ((dev)->netns_local = true)
#define ah_clear_netns_local(dev) ((dev)->netns_local = false)
#else
#define ah_netns_local(dev) (!!((dev)->features & NETIF_F_NETNS_LOCAL))
#define ah_set_netns_local(dev) ((dev)->features |= NETIF_F_NETNS_LOCAL)
#define ah_clear_netns_local(dev) ((dev)->features &= ~NETIF_F_NETNS_LOCAL)
#endif

/*
 * An extack message with printf arguments (6.2); before it, the fixed
 * text FALLBACK
 */
#ifdef NL_SET_ERR_MSG_FMT
#define AH_ERR_MSG_FMT(extack, fallback, fmt, ...) \
	NL_SET_ERR_MSG_FMT(extack, fmt, ##__VA_ARGS__)
#else
#define AH_ERR_MSG_FMT(extack, fallback, fmt, ...) \
	NL_SET_ERR_MSG(extack, fallback)
#endif

/*
 * A generic netlink multicast group that only CAP_NET_ADMIN (in the user
 * namespace owning the socket's network namespace) may join: the group
 * flag came with 6.7 and was backported to the 6.1 and 6.6 stable series
 * (Debian's 6.1.0-56 has it).  Before it a family had no say over who
 * joins (6.1's struct genl_family has no bind callback): a family that
 * sends what not everyone may read refuses to build without it.
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define AH_MCGRP_ADMIN_ONLY GENL_MCAST_CAP_NET_ADMIN
#endif

/* the kfree_skb tracepoint gained the receiving socket in 6.11 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define AH_KFREE_SKB_ARGS \
	void *data, struct sk_buff *skb, void *location, \
	enum skb_drop_reason reason, struct sock *rx_sk
#else
#define AH_KFREE_SKB_ARGS \
	void *data, struct sk_buff *skb, void *location, \
	enum skb_drop_reason reason
#endif

#endif /* _AH_COMPAT_H */
