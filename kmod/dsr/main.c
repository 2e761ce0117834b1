// SPDX-License-Identifier: GPL-2.0
/*
 * dsr - Dynamic Source Routing (RFC 4728, IPv4 protocol 48) as a dsr0
 * net_device, after the CMU Monarch testbed (Maltz, Broch, Johnson).
 *
 * This file only sequences the parts: protocol 48 outside dsr devices
 * (stray.c), its GSO (offload.c), the genl family (netlink.c), the device
 * (device.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>

#include "dsr.h"

static int __init dsr_module_init(void)
{
	int err;

	err = dsr_stray_init();
	if (err)
		return err;
	err = dsr_offload_init();
	if (err)
		goto err_stray;
	err = dsr_genl_init();
	if (err)
		goto err_offload;
	err = dsr_device_init();
	if (err)
		goto err_genl;
	pr_info("loaded\n");
	return 0;

err_genl:
	dsr_genl_exit();
err_offload:
	dsr_offload_exit();
err_stray:
	dsr_stray_exit();
	return err;
}

static void __exit dsr_module_exit(void)
{
	dsr_device_exit();
	dsr_genl_exit();
	dsr_offload_exit();
	dsr_stray_exit();
}

module_init(dsr_module_init);
module_exit(dsr_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Dynamic Source Routing (RFC 4728)");
MODULE_ALIAS_RTNL_LINK("dsr");
/* slave_qdisc: the dsrprio qdisc for every slave (optional: symbol_get) */
MODULE_SOFTDEP("pre: sch_dsrprio");
MODULE_ALIAS_GENL_FAMILY(DSR_GENL_NAME);
