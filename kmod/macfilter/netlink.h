/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MF_NETLINK_H
#define _MF_NETLINK_H

#include <linux/ah_macfilter.h>

struct mf_dev;

void mf_nl_notify_dev(struct mf_dev *mfd, u8 cmd);
int mf_genl_init(void);
void mf_genl_exit(void);

#endif /* _MF_NETLINK_H */
