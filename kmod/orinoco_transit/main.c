// SPDX-License-Identifier: GPL-2.0
/*
 * orinoco_transit - learned early drop of transit traffic in programmed-I/O
 * Wi-Fi drivers (seed 000 section 4): a hooked driver reads the first
 * bytes of a received frame and drops it unread when the flow is one the
 * kernel drops anyway.  Hooked drivers: piosim (a simulated PIO card, in
 * this directory), and orinoco and hostap patched at build time.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "engine.h"

static int __init tr_init(void)
{
	int err;

	err = tr_engine_init();
	if (err)
		return err;
	err = tr_genl_init();
	if (err)
		goto err_engine;
	err = tr_drop_init();
	if (err)
		goto err_genl;
	return 0;

err_genl:
	tr_genl_exit();
err_engine:
	tr_engine_exit();
	return err;
}

static void __exit tr_exit(void)
{
	tr_drop_exit();
	tr_genl_exit();
	tr_engine_exit();
}

module_init(tr_init);
module_exit(tr_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Learned early drop of transit traffic in PIO Wi-Fi drivers");
MODULE_ALIAS_GENL_FAMILY(TRANSIT_GENL_NAME);
