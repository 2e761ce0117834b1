// SPDX-License-Identifier: GPL-2.0
/*
 * macfilter - drop received frames by source MAC between a device and the
 * network layer, to emulate multi-hop topologies of radios in one room
 * (the CMU Monarch testbed's packet killer).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>

#include "device.h"
#include "netlink.h"
#include "netns.h"

static int __init mf_init(void)
{
	int err;

	err = mf_device_init();
	if (err)
		return err;
	err = mf_netns_init();
	if (err)
		goto err_device;
	err = mf_genl_init();
	if (err)
		goto err_netns;
	pr_info("loaded\n");
	return 0;

err_netns:
	mf_netns_exit();
err_device:
	mf_device_exit();
	return err;
}

static void __exit mf_exit(void)
{
	mf_genl_exit();
	mf_netns_exit();
	mf_device_exit();
	rcu_barrier();		/* entries freed with kfree_rcu() */
}

module_init(mf_init);
module_exit(mf_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Drop received frames by source MAC address");
MODULE_ALIAS_GENL_FAMILY(MACFILTER_GENL_NAME);
