/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MF_NETNS_H
#define _MF_NETNS_H

#include <net/net_namespace.h>
#include <net/netns/generic.h>

struct mf_net {
	struct list_head devs;	/* struct mf_dev, RTNL writers, RCU readers */
	u32 gen;		/* bumped on every change, for dump consistency */
};

extern unsigned int mf_net_id;

static inline struct mf_net *mf_net(const struct net *net)
{
	return net_generic(net, mf_net_id);
}

int mf_netns_init(void);
void mf_netns_exit(void);

#endif /* _MF_NETNS_H */
