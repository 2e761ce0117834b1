/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slice: a node's interface leased to one network namespace (a slice)
 * with exclusive access (seed 003's Mobile PlanetLab node).
 */
#ifndef _SLICE_H
#define _SLICE_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <net/net_namespace.h>
#include <linux/ah_slice.h>

/*
 * One grant.  Every field but the counter is read and written under RTNL
 * only.  Neither namespace is referenced: a namespace's pre_exit ends its
 * grants before it can go (grant.c), so both pointers stay valid while
 * the grant is on the list (a RETURNING grant whose slice went has slice
 * NULL).  The device is not referenced either: its
 * NETDEV_UNREGISTER ends the grant (a wireless one's phy stays held).
 */
struct slice_grant {
	struct list_head list;		/* slice_grants */
	struct net_device *dev;
	struct net *node;		/* whose interface it is */
	struct net *slice;		/* who holds it */
	char ifname[IFNAMSIZ];		/* its name in the node */
	int ifindex;			/* its ifindex in the node */
	char name[SLICE_NAME_MAX];	/* the slice's label */
	u8 mode;			/* enum slice_mode */
	bool was_up;			/* IFF_UP in the node before */
	bool moving;			/* our own move is under way */
	bool egress_on;			/* egress_ops registered */
	/*
	 * Move mode, wireless: it moves with its phy (ah_slice.h), which is
	 * pinned (get_device()) while the grant holds it.  dev is NULL once
	 * the slice deleted the interface: the grant then holds the phy
	 * alone, until it is back in the node or gone.
	 */
	bool wireless;
	struct wiphy *wiphy;
	bool landed;			/* its phy changed namespace */
	u8 state;			/* enum slice_state */
	unsigned long phy_deadline;	/* PHY_WAIT until (jiffies) */
	unsigned long since;		/* jiffies */
	unsigned long expires;		/* jiffies; 0: no lease */
	struct rtnl_link_stats64 base;	/* the device's counters at grant */
	atomic64_t spoofed;
	struct nf_hook_ops egress_ops;	/* move: the spoof check */
	/* map mode */
	struct net_device *vdev;	/* the slice's mapper device */
	__be32 addr;			/* the mapped address */
	u16 keep[SLICE_KEEP_MAX];	/* ports the node keeps */
	u8 n_keep;
	bool rx_on;			/* rx_ops registered */
	struct nf_hook_ops rx_ops;	/* in the node: to the slice */
};

/* what a grant request asks for besides the device and the slice */
struct slice_req {
	const char *name;
	u8 mode;
	u32 lease;
	u16 keep[SLICE_KEEP_MAX];
	u8 n_keep;
};

/* grant.c */
extern struct list_head slice_grants;
struct slice_grant *slice_grant_by_dev(const struct net_device *dev);
struct slice_grant *slice_grant_by_phy(const struct net_device *dev);
struct slice_grant *slice_grant_by_node(const struct net *node, int ifindex,
					const char *ifname);
int slice_grant(struct net_device *dev, struct net *slice,
		const struct slice_req *req, struct netlink_ext_ack *extack);
void slice_revoke(struct slice_grant *g, u8 reason);
void slice_grant_stats(const struct slice_grant *g,
		       struct rtnl_link_stats64 *now);
const char *slice_phy_name(const struct slice_grant *g);
struct net *slice_phy_net(const struct slice_grant *g);
int slice_grants_init(void);
void slice_grants_exit(void);

/* egress.c */
int slice_egress_start(struct slice_grant *g);
void slice_egress_stop(struct slice_grant *g);

/* map.c */
int slice_map_start(struct slice_grant *g, struct netlink_ext_ack *extack);
void slice_map_stop(struct slice_grant *g);
void slice_map_lower_changed(struct net_device *dev);
int slice_map_init_module(void);
void slice_map_exit_module(void);

/* netlink.c */
int slice_genl_init(void);
void slice_genl_exit(void);
void slice_notify(const struct slice_grant *g, u8 cmd, int reason);

#endif /* _SLICE_H */
