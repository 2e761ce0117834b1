// SPDX-License-Identifier: GPL-2.0
/*
 * slice: lease a node's interfaces to slices (network namespaces), one
 * slice per interface at a time.  This file only sequences init and exit.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "slice.h"

static int __init slice_init(void)
{
	int err;

	err = slice_grants_init();
	if (err)
		return err;
	err = slice_genl_init();
	if (err)
		slice_grants_exit();
	return err;
}

static void __exit slice_exit(void)
{
	/* no request can come once the family is gone; then end the grants */
	slice_genl_exit();
	slice_grants_exit();
}

module_init(slice_init);
module_exit(slice_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Lease network interfaces to slices (network namespaces)");
MODULE_ALIAS_GENL_FAMILY(SLICE_GENL_NAME);
