// SPDX-License-Identifier: GPL-2.0
/*
 * Routing events on the "events" group of the genl family "dsr": a route
 * learned, a link broken, a discovery failed.  The family itself, with its
 * commands, is netlink.c's; it tells this file where it is when it
 * registers (dsr_event_init()), so that the files that raise events
 * (discovery.c, maint.c, rx.c) do not depend on the commands' file.
 */
#include <net/genetlink.h>
#include <net/netlink.h>

#include "dsr.h"

static const struct genl_family *dsr_event_family __ro_after_init;

/* At module init, before the family registers and any device exists. */
void dsr_event_init(const struct genl_family *family)
{
	dsr_event_family = family;
}

int dsr_put_dev(struct sk_buff *msg, const struct dsr_priv *priv)
{
	if (nla_put_u32(msg, DSR_A_IFINDEX, priv->dev->ifindex) ||
	    nla_put_string(msg, DSR_A_IFNAME, priv->dev->name))
		return -EMSGSIZE;
	return 0;
}

void dsr_event(struct dsr_priv *priv, u8 event, __be32 addr, __be32 nexthop,
	       __be32 dst, const __be32 *hops, unsigned int n)
{
	const struct genl_family *family = dsr_event_family;
	struct net *net = dev_net(priv->dev);
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(family, net, DSR_MCGRP_EVENTS_ID))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, family, 0, DSR_CMD_EVENT);
	if (!hdr || dsr_put_dev(msg, priv) ||
	    nla_put_u8(msg, DSR_A_EVENT, event) ||
	    (addr && nla_put_in_addr(msg, DSR_A_ADDR, addr)) ||
	    (nexthop && nla_put_in_addr(msg, DSR_A_NEXTHOP, nexthop)) ||
	    (dst && nla_put_in_addr(msg, DSR_A_DST, dst)) ||
	    (n && nla_put(msg, DSR_A_HOPS, 4 * n, hops))) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(family, net, msg, 0, DSR_MCGRP_EVENTS_ID,
				GFP_ATOMIC);
}
