// SPDX-License-Identifier: GPL-2.0
/*
 * dsr - Dynamic Source Routing (RFC 4728, IPv4 protocol 48) as a dsr0
 * net_device, after the CMU Monarch testbed (Maltz, Broch, Johnson).
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/protocol.h>

#include "dsr.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/*
 * Protocol 48 that reaches local delivery did not come in on a dsr slave
 * (those are taken before routing): drop it quietly, never with an ICMP
 * protocol unreachable.
 */
static int dsr_stray_rcv(struct sk_buff *skb)
{
	kfree_skb(skb);
	return 0;
}

static const struct net_protocol dsr_protocol = {
	.handler = dsr_stray_rcv,
	.no_policy = 1,
};

static int __init dsr_module_init(void)
{
	int err;

	err = inet_add_protocol(&dsr_protocol, DSR_IPPROTO);
	if (err)
		return err;
	err = dsr_genl_init();
	if (err)
		goto err_proto;
	err = dsr_device_init();
	if (err)
		goto err_genl;
	pr_info("dsr: loaded\n");
	return 0;

err_genl:
	dsr_genl_exit();
err_proto:
	inet_del_protocol(&dsr_protocol, DSR_IPPROTO);
	return err;
}

static void __exit dsr_module_exit(void)
{
	dsr_device_exit();
	dsr_genl_exit();
	inet_del_protocol(&dsr_protocol, DSR_IPPROTO);
	synchronize_net();
}

module_init(dsr_module_init);
module_exit(dsr_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Dynamic Source Routing (RFC 4728)");
MODULE_ALIAS_RTNL_LINK("dsr");
/* slave_qdisc: the dsrprio qdisc for every slave (optional: symbol_get) */
MODULE_SOFTDEP("pre: sch_dsrprio");
MODULE_ALIAS_GENL_FAMILY(DSR_GENL_NAME);
