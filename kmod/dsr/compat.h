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

#endif /* _DSR_COMPAT_H */
