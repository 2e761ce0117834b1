/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the generic netlink families of the stack share: a request names
 * its device by ifindex, by name or by both (they must agree), as
 * batman-adv's do.
 */
#ifndef AH_GENL_H
#define AH_GENL_H

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/netlink.h>

/*
 * The device named by the attributes ifindex and ifname (either may be
 * NULL), or an ERR_PTR with the reason in extack.  RTNL held.
 */
static inline struct net_device *ah_genl_dev(struct net *net,
					     const struct nlattr *ifindex,
					     const struct nlattr *ifname,
					     struct netlink_ext_ack *extack)
{
	struct net_device *dev = NULL, *byname;

	ASSERT_RTNL();
	if (ifindex) {
		dev = __dev_get_by_index(net, nla_get_u32(ifindex));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, ifindex,
					    "no device with this ifindex");
			return ERR_PTR(-ENODEV);
		}
	}
	if (ifname) {
		byname = __dev_get_by_name(net, nla_data(ifname));
		if (!byname) {
			NL_SET_ERR_MSG_ATTR(extack, ifname,
					    "no device with this name");
			return ERR_PTR(-ENODEV);
		}
		if (dev && dev != byname) {
			NL_SET_ERR_MSG(extack,
				       "ifindex and ifname name different devices");
			return ERR_PTR(-EINVAL);
		}
		dev = byname;
	}
	if (!dev) {
		NL_SET_ERR_MSG(extack, "missing device (ifindex or ifname)");
		return ERR_PTR(-EINVAL);
	}
	return dev;
}

#endif /* AH_GENL_H */
