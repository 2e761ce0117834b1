/* SPDX-License-Identifier: GPL-2.0 */
/* Differences between the kernels dsr is built for (6.1 to 6.12). */
#ifndef _DSR_COMPAT_H
#define _DSR_COMPAT_H

#include <linux/version.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define dsr_genl_ops_t genl_split_ops
#else
#define dsr_genl_ops_t genl_ops
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define dsr_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#else
#define dsr_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/* NETIF_F_LLTX became a private flag in 6.11 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define dsr_set_lltx(dev) ((dev)->lltx = true)
#else
#define dsr_set_lltx(dev) ((dev)->features |= NETIF_F_LLTX)
#endif

/*
 * NETIF_F_NETNS_LOCAL became the private flag netns_local in 6.12, since
 * renamed netns_immutable (Kbuild looks for it in the tree's headers)
 */
#if defined(DSR_HAVE_NETNS_IMMUTABLE)
#define dsr_set_netns_local(dev) ((dev)->netns_immutable = true)
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define dsr_set_netns_local(dev) ((dev)->netns_local = true)
#else
#define dsr_set_netns_local(dev) ((dev)->features |= NETIF_F_NETNS_LOCAL)
#endif

/*
 * A generic netlink multicast group that only CAP_NET_ADMIN (in the user
 * namespace owning the socket's network namespace) may join: the group
 * flag came with 6.7 and was backported to the 6.1 and 6.6 stable series
 * (Debian's 6.1.0-56 has it).  Before it a family had no say over who
 * joins (6.1's struct genl_family has no bind callback): rather than send
 * routing events to anyone, do not build there.
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define DSR_MCGRP_ADMIN_ONLY GENL_MCAST_CAP_NET_ADMIN
#else
#error "dsr needs GENL_MCAST_CAP_NET_ADMIN (6.7, or a 6.1/6.6 stable kernel that has it)"
#endif

#endif /* _DSR_COMPAT_H */
