// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "slice".  Every request runs under RTNL (taken
 * in pre_doit, as batman-adv does), a change needs CAP_NET_ADMIN in the
 * initial user namespace (a slice must not grant itself more) and, for a
 * grant, in the slice's namespace too.  Grants and revocations go to the
 * node's namespace on the "config" group, which only CAP_NET_ADMIN may
 * join: who holds which radio is not every local user's business.
 */
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "ah_compat.h"
#include "ah_genl.h"
#include "slice.h"

static struct genl_family slice_genl_family;

#define SLICE_DEV_POLICY \
	[SLICE_A_IFINDEX] = { .type = NLA_U32 }, \
	[SLICE_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 }

static const struct nla_policy slice_dev_policy[SLICE_A_MAX + 1] = {
	SLICE_DEV_POLICY,
};

static const struct nla_policy slice_revoke_policy[SLICE_A_MAX + 1] = {
	SLICE_DEV_POLICY,
	[SLICE_A_FORCE] = { .type = NLA_FLAG },
};

static struct netlink_range_validation slice_lease_range = {
	.min = 1,
	.max = SLICE_LEASE_MAX,
};

static const struct nla_policy slice_keep_policy[SLICE_A_MAX + 1] = {
	[SLICE_A_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
};

static const struct nla_policy slice_grant_policy[SLICE_A_MAX + 1] = {
	SLICE_DEV_POLICY,
	[SLICE_A_NETNS_FD] = { .type = NLA_U32 },
	[SLICE_A_NETNS_PID] = { .type = NLA_U32 },
	[SLICE_A_NAME] = { .type = NLA_NUL_STRING, .len = SLICE_NAME_MAX - 1 },
	[SLICE_A_MODE] = NLA_POLICY_MAX(NLA_U8, SLICE_MODE_MAX),
	[SLICE_A_LEASE] = NLA_POLICY_FULL_RANGE(NLA_U32, &slice_lease_range),
	[SLICE_A_KEEP] = NLA_POLICY_NESTED(slice_keep_policy),
};

/* ---- messages ---------------------------------------------------------- */

static int slice_fill(struct sk_buff *skb, const struct slice_grant *g,
		      u32 portid, u32 seq, int flags, u8 cmd, int reason)
{
	const struct net_device *sdev = g->vdev ?: g->dev;
	const char *phy = slice_phy_name(g);
	struct net *phy_net = slice_phy_net(g);
	struct rtnl_link_stats64 st;
	struct nlattr *keep;
	void *hdr;
	int i;

	hdr = genlmsg_put(skb, portid, seq, &slice_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	slice_grant_stats(g, &st);
	if (nla_put_u32(skb, SLICE_A_IFINDEX, g->ifindex) ||
	    nla_put_string(skb, SLICE_A_IFNAME, g->ifname) ||
	    nla_put_string(skb, SLICE_A_NAME, g->name) ||
	    nla_put_u8(skb, SLICE_A_MODE, g->mode) ||
	    nla_put_u64_64bit(skb, SLICE_A_AGE,
			      jiffies_to_msecs(jiffies - g->since),
			      SLICE_A_PAD) ||
	    (sdev &&
	     (nla_put_u32(skb, SLICE_A_SLICE_IFINDEX, sdev->ifindex) ||
	      nla_put_string(skb, SLICE_A_SLICE_IFNAME, sdev->name))) ||
	    nla_put_u64_64bit(skb, SLICE_A_RX_PACKETS, st.rx_packets,
			      SLICE_A_PAD) ||
	    nla_put_u64_64bit(skb, SLICE_A_RX_BYTES, st.rx_bytes,
			      SLICE_A_PAD) ||
	    nla_put_u64_64bit(skb, SLICE_A_TX_PACKETS, st.tx_packets,
			      SLICE_A_PAD) ||
	    nla_put_u64_64bit(skb, SLICE_A_TX_BYTES, st.tx_bytes,
			      SLICE_A_PAD) ||
	    nla_put_u64_64bit(skb, SLICE_A_SPOOFED,
			      atomic64_read(&g->spoofed), SLICE_A_PAD))
		goto cancel;
	if (g->expires &&
	    nla_put_u32(skb, SLICE_A_LEASE_LEFT,
			time_after(g->expires, jiffies) ?
			jiffies_to_msecs(g->expires - jiffies) : 0))
		goto cancel;
	if (reason >= 0 && nla_put_u8(skb, SLICE_A_REASON, reason))
		goto cancel;
	if (nla_put_u8(skb, SLICE_A_STATE, g->state) ||
	    (phy && nla_put_string(skb, SLICE_A_PHY, phy)) ||
	    (g->slice && nla_put_u32(skb, SLICE_A_SLICE_NETNS_INO,
				     g->slice->ns.inum)) ||
	    (phy_net && nla_put_u32(skb, SLICE_A_PHY_NETNS_INO,
				    phy_net->ns.inum)))
		goto cancel;
	if (g->mode == SLICE_MODE_MAP) {
		if (nla_put_in_addr(skb, SLICE_A_ADDR, g->addr))
			goto cancel;
		keep = nla_nest_start(skb, SLICE_A_KEEP);
		if (!keep)
			goto cancel;
		for (i = 0; i < g->n_keep; i++)
			if (nla_put_u16(skb, SLICE_A_PORT, g->keep[i]))
				goto cancel;
		nla_nest_end(skb, keep);
	}
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* a GRANT, or a REVOKE with its REASON, to the node's namespace */
void slice_notify(const struct slice_grant *g, u8 cmd, int reason)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&slice_genl_family, g->node, 0))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (slice_fill(skb, g, 0, 0, 0, cmd, reason)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast_netns(&slice_genl_family, g->node, skb, 0, 0,
				GFP_KERNEL);
}

/* ---- requests ---------------------------------------------------------- */

static int slice_pre_doit(const struct ah_genl_ops_t *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	rtnl_lock();
	return 0;
}

static void slice_post_doit(const struct ah_genl_ops_t *ops,
			    struct sk_buff *skb, struct genl_info *info)
{
	rtnl_unlock();
}

/* the grant of the interface named as in the node, or NULL and why */
static struct slice_grant *slice_find(struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct slice_grant *g;

	if (!a[SLICE_A_IFINDEX] && !a[SLICE_A_IFNAME]) {
		NL_SET_ERR_MSG(info->extack,
			       "missing interface (ifindex or ifname)");
		return ERR_PTR(-EINVAL);
	}
	g = slice_grant_by_node(genl_info_net(info),
				a[SLICE_A_IFINDEX] ?
				nla_get_u32(a[SLICE_A_IFINDEX]) : 0,
				a[SLICE_A_IFNAME] ?
				nla_data(a[SLICE_A_IFNAME]) : NULL);
	if (!g) {
		NL_SET_ERR_MSG(info->extack, "the interface is not granted");
		return ERR_PTR(-ENOENT);
	}
	return g;
}

static struct net *slice_target_net(struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct net *net;

	if (!!a[SLICE_A_NETNS_FD] == !!a[SLICE_A_NETNS_PID]) {
		NL_SET_ERR_MSG(info->extack,
			       "name the slice by exactly one of netns_fd and netns_pid");
		return ERR_PTR(-EINVAL);
	}
	if (a[SLICE_A_NETNS_FD]) {
		net = get_net_ns_by_fd(nla_get_u32(a[SLICE_A_NETNS_FD]));
		if (IS_ERR(net))
			NL_SET_ERR_MSG_ATTR(info->extack, a[SLICE_A_NETNS_FD],
					    "not a network namespace's file descriptor");
	} else {
		net = get_net_ns_by_pid(nla_get_u32(a[SLICE_A_NETNS_PID]));
		if (IS_ERR(net))
			NL_SET_ERR_MSG_ATTR(info->extack, a[SLICE_A_NETNS_PID],
					    "no such process");
	}
	return net;
}

/* what a grant asks for, checked before anything changes */
static int slice_parse_req(struct genl_info *info, struct slice_req *req)
{
	struct nlattr **a = info->attrs;
	struct nlattr *port;
	int rem;

	memset(req, 0, sizeof(*req));
	req->name = a[SLICE_A_NAME] ? nla_data(a[SLICE_A_NAME]) : NULL;
	req->mode = a[SLICE_A_MODE] ? nla_get_u8(a[SLICE_A_MODE]) :
		    SLICE_MODE_MOVE;
	req->lease = a[SLICE_A_LEASE] ? nla_get_u32(a[SLICE_A_LEASE]) : 0;
	if (!a[SLICE_A_KEEP])
		return 0;
	if (req->mode != SLICE_MODE_MAP) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[SLICE_A_KEEP],
				    "only a map grant keeps ports for the node");
		return -EINVAL;
	}
	nla_for_each_nested(port, a[SLICE_A_KEEP], rem) {
		if (nla_type(port) != SLICE_A_PORT) {
			NL_SET_ERR_MSG_ATTR(info->extack, port,
					    "keep holds ports only");
			return -EINVAL;
		}
		if (req->n_keep == SLICE_KEEP_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, port,
					    "too many ports to keep");
			return -E2BIG;
		}
		req->keep[req->n_keep++] = nla_get_u16(port);
	}
	return 0;
}

static int slice_cmd_grant(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct net *node = genl_info_net(info), *slice;
	struct net_device *dev;
	struct slice_grant *g;
	struct slice_req req;
	int err;

	err = slice_parse_req(info, &req);
	if (err)
		return err;
	dev = ah_genl_dev(node, a[SLICE_A_IFINDEX], a[SLICE_A_IFNAME],
			  info->extack);
	if (IS_ERR(dev)) {
		/* gone into a slice? then say who holds it */
		g = slice_grant_by_node(node, a[SLICE_A_IFINDEX] ?
					nla_get_u32(a[SLICE_A_IFINDEX]) : 0,
					a[SLICE_A_IFNAME] ?
					nla_data(a[SLICE_A_IFNAME]) : NULL);
		if (!g)
			return PTR_ERR(dev);
		AH_ERR_MSG_FMT(info->extack, "the interface is granted already",
			       "%s is granted to slice %s", g->ifname,
			       g->name[0] ? g->name : "(no name)");
		return -EBUSY;
	}
	slice = slice_target_net(info);
	if (IS_ERR(slice))
		return PTR_ERR(slice);
	if (!netlink_ns_capable(skb, slice->user_ns, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "no CAP_NET_ADMIN over the slice's namespace");
		err = -EPERM;
		goto out;
	}
	err = slice_grant(dev, slice, &req, info->extack);
out:
	put_net(slice);
	return err;
}

static int slice_cmd_revoke(struct sk_buff *skb, struct genl_info *info)
{
	struct slice_grant *g = slice_find(info);

	if (IS_ERR(g))
		return PTR_ERR(g);
	/* ended already: it waits for its phy (ah_slice.h), unless forced */
	if (g->state != SLICE_STATE_RETURNING || info->attrs[SLICE_A_FORCE])
		slice_revoke(g, SLICE_REASON_REVOKED);
	return 0;
}

static int slice_cmd_get(struct sk_buff *skb, struct genl_info *info)
{
	struct slice_grant *g = slice_find(info);
	struct sk_buff *msg;
	int err;

	if (IS_ERR(g))
		return PTR_ERR(g);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = slice_fill(msg, g, info->snd_portid, info->snd_seq, 0,
			 SLICE_CMD_GET, -1);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* every grant of the node's namespace; cb->args[0]: how many are sent */
static int slice_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct slice_grant *g;
	long i = 0;

	rtnl_lock();
	list_for_each_entry(g, &slice_grants, list) {
		if (!net_eq(g->node, net))
			continue;
		if (i++ < cb->args[0])
			continue;
		if (slice_fill(skb, g, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI, SLICE_CMD_GET,
			       -1)) {
			i--;
			break;
		}
	}
	rtnl_unlock();
	cb->args[0] = i;
	return skb->len;
}

/* ---- the family -------------------------------------------------------- */

static const struct genl_ops slice_genl_ops[] = {
	{
		.cmd = SLICE_CMD_GRANT,
		.doit = slice_cmd_grant,
		.policy = slice_grant_policy,
		.maxattr = SLICE_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SLICE_CMD_REVOKE,
		.doit = slice_cmd_revoke,
		.policy = slice_revoke_policy,
		.maxattr = SLICE_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SLICE_CMD_GET,
		.doit = slice_cmd_get,
		.dumpit = slice_dump,
		.policy = slice_dev_policy,
		.maxattr = SLICE_A_MAX,
	},
};

#ifndef AH_MCGRP_ADMIN_ONLY
#error "slice needs GENL_MCAST_CAP_NET_ADMIN (6.7, or a 6.1/6.6 stable kernel that has it)"
#endif
static const struct genl_multicast_group slice_mcgrps[] = {
	{ .name = SLICE_MCGRP_CONFIG, .flags = AH_MCGRP_ADMIN_ONLY },
};

static struct genl_family slice_genl_family __ro_after_init = {
	.name = SLICE_GENL_NAME,
	.version = SLICE_GENL_VERSION,
	.maxattr = SLICE_A_MAX,
	.netnsok = true,
	.pre_doit = slice_pre_doit,
	.post_doit = slice_post_doit,
	.module = THIS_MODULE,
	.ops = slice_genl_ops,
	.n_ops = ARRAY_SIZE(slice_genl_ops),
	/* strict validation of every command, reserved fields included */
	.resv_start_op = 0,
	.mcgrps = slice_mcgrps,
	.n_mcgrps = ARRAY_SIZE(slice_mcgrps),
};

int slice_genl_init(void)
{
	return genl_register_family(&slice_genl_family);
}

void slice_genl_exit(void)
{
	genl_unregister_family(&slice_genl_family);
}
