/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels this module is built for (6.1 and 6.12
 * LTS, and anything between).
 */
#ifndef _MF_COMPAT_H
#define _MF_COMPAT_H

#include <linux/version.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define mf_genl_ops_t genl_split_ops
#else
#define mf_genl_ops_t genl_ops
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define mf_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#else
#define mf_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

#endif /* _MF_COMPAT_H */
