/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sch_dsrprio.ko offers dsr.ko: putting a dsrprio root qdisc on a
 * slave and taking it off again.  dsr.ko reaches these with symbol_get(),
 * so that it loads and runs without sch_dsrprio (no qdisc then).
 */
#ifndef _DSR_SCH_DSRPRIO_H
#define _DSR_SCH_DSRPRIO_H

struct net_device;
struct netlink_ext_ack;

/* Under RTNL: dsrprio becomes @dev's root qdisc (handle 0, as a default). */
int dsrprio_install(struct net_device *dev, struct netlink_ext_ack *extack);
/* Under RTNL: if @dev's root is a dsrprio we installed, back to default. */
void dsrprio_uninstall(struct net_device *dev);

#endif /* _DSR_SCH_DSRPRIO_H */
