// SPDX-License-Identifier: GPL-2.0
/* Per network namespace state: the devices macfilter is attached to. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rtnetlink.h>

#include "ah_debug.h"
#include "device.h"
#include "netns.h"

unsigned int mf_net_id __read_mostly;

static int __net_init mf_net_init(struct net *net)
{
	struct mf_net *mn = mf_net(net);

	INIT_LIST_HEAD(&mn->devs);
	ah_obj_created("net", mn);
	return 0;
}

/*
 * Devices of a dying namespace are unregistered (or moved back to init_net)
 * before subsystems exit, and NETDEV_UNREGISTER detaches them; whatever is
 * left here would be a bug, but detach it anyway rather than leak.
 */
static void __net_exit mf_net_exit(struct net *net)
{
	struct mf_net *mn = mf_net(net);
	struct mf_dev *mfd, *tmp;

	rtnl_lock();
	list_for_each_entry_safe(mfd, tmp, &mn->devs, list)
		mf_dev_detach(mfd);
	rtnl_unlock();
	ah_obj_destroyed("net", mn);
}

static struct pernet_operations mf_net_ops = {
	.init = mf_net_init,
	.exit = mf_net_exit,
	.id = &mf_net_id,
	.size = sizeof(struct mf_net),
};

int mf_netns_init(void)
{
	return register_pernet_subsys(&mf_net_ops);
}

void mf_netns_exit(void)
{
	unregister_pernet_subsys(&mf_net_ops);
}
