// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "macfilter".  Every change runs under RTNL, taken
 * in pre_doit together with the device lookup (as batman-adv does), needs
 * CAP_NET_ADMIN in the device's namespace and is announced on the "config"
 * multicast group.  Dumps run under RCU.
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "ah_genl.h"
#include "ah_compat.h"
#include "device.h"
#include "netlink.h"
#include "netns.h"

/* internal_flags of an op */
#define MF_NEED_DEV	BIT(0)	/* IFINDEX or IFNAME names a device */
#define MF_NEED_MFD	BIT(1)	/* ... that macfilter is attached to */

static struct genl_family mf_genl_family;

static const struct nla_policy mf_entry_policy[MACFILTER_A_MAX + 1] = {
	[MACFILTER_A_MAC] = NLA_POLICY_ETH_ADDR,
	[MACFILTER_A_LOSS] = NLA_POLICY_MAX(NLA_U8, MACFILTER_LOSS_MAX),
};

#define MF_DEV_POLICY \
	[MACFILTER_A_IFINDEX] = { .type = NLA_U32 }, \
	[MACFILTER_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 }

static const struct nla_policy mf_dev_policy[MACFILTER_A_MAX + 1] = {
	MF_DEV_POLICY,
};

static struct netlink_range_validation mf_max_entries_range = {
	.min = 1,
	.max = MACFILTER_LIMIT_MAX_ENTRIES,
};

static const struct nla_policy mf_set_policy[MACFILTER_A_MAX + 1] = {
	MF_DEV_POLICY,
	[MACFILTER_A_MODE] = NLA_POLICY_MAX(NLA_U8, MACFILTER_MODE_MAX),
	[MACFILTER_A_MAX_ENTRIES] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &mf_max_entries_range),
};

static const struct nla_policy mf_add_policy[MACFILTER_A_MAX + 1] = {
	MF_DEV_POLICY,
	[MACFILTER_A_MAC] = NLA_POLICY_ETH_ADDR,
	[MACFILTER_A_LOSS] = NLA_POLICY_MAX(NLA_U8, MACFILTER_LOSS_MAX),
};

static const struct nla_policy mf_del_policy[MACFILTER_A_MAX + 1] = {
	MF_DEV_POLICY,
	[MACFILTER_A_MAC] = NLA_POLICY_ETH_ADDR,
};

static const struct nla_policy mf_replace_policy[MACFILTER_A_MAX + 1] = {
	MF_DEV_POLICY,
	[MACFILTER_A_MODE] = NLA_POLICY_MAX(NLA_U8, MACFILTER_MODE_MAX),
	[MACFILTER_A_ENTRY] = NLA_POLICY_NESTED(mf_entry_policy),
};

/* ---- messages ---------------------------------------------------------- */

static int mf_put_dev(struct sk_buff *skb, const struct mf_dev *mfd)
{
	if (nla_put_u32(skb, MACFILTER_A_IFINDEX, mfd->dev->ifindex) ||
	    nla_put_string(skb, MACFILTER_A_IFNAME, mfd->dev->name))
		return -EMSGSIZE;
	return 0;
}

static int mf_put_dev_config(struct sk_buff *skb, const struct mf_table *t)
{
	if (nla_put_u8(skb, MACFILTER_A_MODE, t->mode) ||
	    nla_put_u32(skb, MACFILTER_A_MAX_ENTRIES, t->max_entries) ||
	    nla_put_u32(skb, MACFILTER_A_COUNT, t->count))
		return -EMSGSIZE;
	return 0;
}

static int mf_put_entry(struct sk_buff *skb, const struct mf_entry *e,
			bool counters)
{
	if (nla_put(skb, MACFILTER_A_MAC, ETH_ALEN, e->mac))
		return -EMSGSIZE;
	if (e->loss != MF_LOSS_UNSET &&
	    nla_put_u8(skb, MACFILTER_A_LOSS, e->loss))
		return -EMSGSIZE;
	if (counters &&
	    nla_put_u64_64bit(skb, MACFILTER_A_DROPPED,
			      atomic64_read(&e->dropped), MACFILTER_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int mf_fill_dev(struct sk_buff *skb, const struct mf_dev *mfd,
		       u32 portid, u32 seq, int flags, u8 cmd)
{
	const struct mf_table *t;
	struct mf_stats st;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mf_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	rcu_read_lock();
	t = rcu_dereference(mfd->table);
	if (mf_put_dev(skb, mfd) || mf_put_dev_config(skb, t))
		goto nla_put_failure;
	rcu_read_unlock();
	if (cmd == MACFILTER_CMD_GET_DEV) {
		mf_dev_get_stats(mfd, &st);
		if (nla_put_u64_64bit(skb, MACFILTER_A_SEEN, st.seen,
				      MACFILTER_A_PAD) ||
		    nla_put_u64_64bit(skb, MACFILTER_A_PASSED, st.passed,
				      MACFILTER_A_PAD) ||
		    nla_put_u64_64bit(skb, MACFILTER_A_DROPPED, st.dropped,
				      MACFILTER_A_PAD))
			goto cancel;
	}
	genlmsg_end(skb, hdr);
	return 0;

nla_put_failure:
	rcu_read_unlock();
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void mf_notify(struct net *net, struct sk_buff *skb)
{
	genlmsg_multicast_netns(&mf_genl_family, net, skb, 0, 0, GFP_KERNEL);
}

/*
 * No one listens (the usual case while traces replay): no message to
 * build.  Group 0 is the family's only one, MACFILTER_MCGRP_CONFIG.
 */
static bool mf_no_listeners(struct mf_dev *mfd)
{
	return !genl_has_listeners(&mf_genl_family, dev_net(mfd->dev), 0);
}

/* Announce a change of the device as a whole (attach, set, flush, ...). */
void mf_nl_notify_dev(struct mf_dev *mfd, u8 cmd)
{
	struct sk_buff *skb;

	mf_net(dev_net(mfd->dev))->gen++;
	if (mf_no_listeners(mfd))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (mf_fill_dev(skb, mfd, 0, 0, 0, cmd)) {
		nlmsg_free(skb);
		return;
	}
	mf_notify(dev_net(mfd->dev), skb);
}

static void mf_nl_notify_entry(struct mf_dev *mfd, const struct mf_entry *e,
			       u8 cmd)
{
	struct sk_buff *skb;
	void *hdr;

	mf_net(dev_net(mfd->dev))->gen++;
	if (mf_no_listeners(mfd))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &mf_genl_family, 0, cmd);
	if (!hdr || mf_put_dev(skb, mfd) || mf_put_entry(skb, e, false)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	mf_notify(dev_net(mfd->dev), skb);
}

/* ---- device lookup: pre_doit / post_doit ------------------------------ */

static struct net_device *mf_lookup_dev(struct net *net, struct nlattr **attrs,
					struct netlink_ext_ack *extack)
{
	return ah_genl_dev(net, attrs[MACFILTER_A_IFINDEX],
			   attrs[MACFILTER_A_IFNAME], extack);
}

static int mf_pre_doit(const struct ah_genl_ops_t *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	struct net_device *dev;
	struct mf_dev *mfd;

	rtnl_lock();
	dev = mf_lookup_dev(genl_info_net(info), info->attrs, info->extack);
	if (IS_ERR(dev))
		goto err;
	info->user_ptr[0] = dev;

	mfd = mf_dev_get_rtnl(dev);
	if ((ops->internal_flags & MF_NEED_MFD) && !mfd) {
		NL_SET_ERR_MSG(info->extack,
			       "macfilter is not attached to this device");
		dev = ERR_PTR(-ENOENT);
		goto err;
	}
	info->user_ptr[1] = mfd;
	return 0;

err:
	rtnl_unlock();
	return PTR_ERR(dev);
}

static void mf_post_doit(const struct ah_genl_ops_t *ops, struct sk_buff *skb,
			 struct genl_info *info)
{
	rtnl_unlock();
}

/* ---- changes ------------------------------------------------------------ */

static u8 mf_get_mode(struct genl_info *info, u8 dflt)
{
	struct nlattr *a = info->attrs[MACFILTER_A_MODE];

	return a ? nla_get_u8(a) : dflt;
}

static u32 mf_get_max(struct genl_info *info, u32 dflt)
{
	struct nlattr *a = info->attrs[MACFILTER_A_MAX_ENTRIES];

	return a ? nla_get_u32(a) : dflt;
}

static int mf_cmd_attach(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd;

	mfd = mf_dev_attach(info->user_ptr[0],
			    mf_get_mode(info, MACFILTER_MODE_DENY),
			    mf_get_max(info, MACFILTER_DEFAULT_MAX_ENTRIES),
			    info->extack);
	if (IS_ERR(mfd))
		return PTR_ERR(mfd);
	mf_nl_notify_dev(mfd, MACFILTER_CMD_ATTACH);
	return 0;
}

static int mf_cmd_detach(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];

	mf_nl_notify_dev(mfd, MACFILTER_CMD_DETACH);
	mf_dev_detach(mfd);
	return 0;
}

static int mf_cmd_set(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];
	struct mf_table *old = mf_dev_table_rtnl(mfd), *t;
	int err;

	if (!info->attrs[MACFILTER_A_MODE] &&
	    !info->attrs[MACFILTER_A_MAX_ENTRIES]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set (mode, max_entries)");
		return -EINVAL;
	}
	t = mf_table_alloc(mf_get_max(info, old->max_entries),
			   mf_get_mode(info, old->mode));
	if (!t)
		return -ENOMEM;
	err = mf_table_copy(t, old);
	if (err) {
		if (err == -ENOSPC)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[MACFILTER_A_MAX_ENTRIES],
					    "max_entries is below the number of entries on the list");
		mf_table_free(t);
		return err;
	}
	mf_dev_swap_table(mfd, t);
	mf_nl_notify_dev(mfd, MACFILTER_CMD_SET);
	return 0;
}

static int mf_cmd_add(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];
	struct nlattr *mac = info->attrs[MACFILTER_A_MAC];
	struct nlattr *loss = info->attrs[MACFILTER_A_LOSS];
	struct mf_entry *e;

	if (!mac) {
		NL_SET_ERR_MSG(info->extack, "missing MAC address");
		return -EINVAL;
	}
	if (is_multicast_ether_addr(nla_data(mac))) {
		NL_SET_ERR_MSG_ATTR(info->extack, mac,
				    "multicast MAC cannot be a source address");
		return -EINVAL;
	}
	e = mf_table_insert(mf_dev_table_rtnl(mfd), nla_data(mac),
			    loss ? nla_get_u8(loss) : MF_LOSS_UNSET);
	if (PTR_ERR(e) == -EEXIST)
		NL_SET_ERR_MSG_ATTR(info->extack, mac, "MAC is already on the list");
	if (PTR_ERR(e) == -ENOSPC)
		NL_SET_ERR_MSG(info->extack,
			       "list is full (max_entries reached)");
	if (IS_ERR(e))
		return PTR_ERR(e);
	mf_nl_notify_entry(mfd, e, MACFILTER_CMD_ADD);
	return 0;
}

static int mf_cmd_del(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];
	struct nlattr *mac = info->attrs[MACFILTER_A_MAC];
	struct mf_table *t = mf_dev_table_rtnl(mfd);
	struct mf_entry *e;

	if (!mac) {
		NL_SET_ERR_MSG(info->extack, "missing MAC address");
		return -EINVAL;
	}
	e = mf_table_lookup(t, nla_data(mac));
	if (!e) {
		NL_SET_ERR_MSG_ATTR(info->extack, mac, "MAC is not on the list");
		return -ENOENT;
	}
	mf_nl_notify_entry(mfd, e, MACFILTER_CMD_DEL);
	mf_table_remove(t, e);
	return 0;
}

static int mf_cmd_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];

	mf_table_flush(mf_dev_table_rtnl(mfd));
	mf_nl_notify_dev(mfd, MACFILTER_CMD_FLUSH);
	return 0;
}

/*
 * Build the new list completely before anything changes.  The entries are
 * the top-level MACFILTER_A_ENTRY attributes (already validated against the
 * op's policy, nested ones included).
 */
static int mf_build_list(struct mf_table *t, const struct genl_info *info,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MACFILTER_A_MAX + 1];
	struct nlattr *nest;
	struct mf_entry *e;
	const u8 *mac;
	int rem, err;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) != MACFILTER_A_ENTRY)
			continue;
		err = nla_parse_nested(tb, MACFILTER_A_MAX, nest,
				       mf_entry_policy, extack);
		if (err)
			return err;
		if (!tb[MACFILTER_A_MAC]) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "entry without MAC");
			return -EINVAL;
		}
		mac = nla_data(tb[MACFILTER_A_MAC]);
		if (is_multicast_ether_addr(mac)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MACFILTER_A_MAC],
					    "multicast MAC cannot be a source address");
			return -EINVAL;
		}
		e = mf_table_insert(t, mac, tb[MACFILTER_A_LOSS] ?
				    nla_get_u8(tb[MACFILTER_A_LOSS]) :
				    MF_LOSS_UNSET);
		if (PTR_ERR(e) == -EEXIST) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MACFILTER_A_MAC],
					    "MAC appears twice in the list");
			return -EINVAL;
		}
		if (PTR_ERR(e) == -ENOSPC)
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "list is longer than max_entries");
		if (IS_ERR(e))
			return PTR_ERR(e);
	}
	return 0;
}

static int mf_cmd_replace(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];
	struct mf_table *old = mf_dev_table_rtnl(mfd), *t;
	int err;

	t = mf_table_alloc(old->max_entries, mf_get_mode(info, old->mode));
	if (!t)
		return -ENOMEM;
	err = mf_build_list(t, info, info->extack);
	if (err) {
		mf_table_free(t);
		return err;
	}
	mf_dev_swap_table(mfd, t);
	mf_nl_notify_dev(mfd, MACFILTER_CMD_REPLACE);
	return 0;
}

/* ---- queries -------------------------------------------------------------- */

static int mf_cmd_get_dev(struct sk_buff *skb, struct genl_info *info)
{
	struct mf_dev *mfd = info->user_ptr[1];
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = mf_fill_dev(msg, mfd, info->snd_portid, info->snd_seq, 0,
			  MACFILTER_CMD_GET_DEV);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mf_dump_devs(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mf_net *mn = mf_net(sock_net(skb->sk));
	long idx = 0, start = cb->args[0];
	struct mf_dev *mfd;

	rcu_read_lock();
	list_for_each_entry_rcu(mfd, &mn->devs, list) {
		if (idx++ < start)
			continue;
		if (mf_fill_dev(skb, mfd, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, NLM_F_MULTI,
				MACFILTER_CMD_GET_DEV)) {
			idx--;
			break;
		}
	}
	rcu_read_unlock();
	cb->args[0] = idx;
	return skb->len;
}

static int mf_fill_entry(struct sk_buff *skb, struct netlink_callback *cb,
			 const struct mf_dev *mfd, const struct mf_entry *e)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mf_genl_family, NLM_F_MULTI, MACFILTER_CMD_GET_ENTRY);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (mf_put_dev(skb, mfd) || mf_put_entry(skb, e, true)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Resumable position: args[0] device, args[1] bucket, args[2] entry within
 * the bucket.  A change between two parts of a dump sets NLM_F_DUMP_INTR.
 */
static int mf_dump_dev_entries(struct sk_buff *skb, struct netlink_callback *cb,
			       const struct mf_dev *mfd)
{
	const struct mf_table *t = rcu_dereference(mfd->table);
	const struct mf_entry *e;
	long i;

	for (; cb->args[1] <= t->mask; cb->args[1]++, cb->args[2] = 0) {
		i = 0;
		hlist_for_each_entry_rcu(e, &t->buckets[cb->args[1]], node) {
			if (i++ < cb->args[2])
				continue;
			if (mf_fill_entry(skb, cb, mfd, e))
				return -EMSGSIZE;
			cb->args[2] = i;
		}
	}
	return 0;
}

static int mf_dump_entries(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = ah_dump_attrs(cb);
	struct net *net = sock_net(skb->sk);
	struct mf_net *mn = mf_net(net);
	struct net_device *filter = NULL;
	struct mf_dev *mfd;
	long idx = 0;
	int err = 0;

	if (attrs[MACFILTER_A_IFINDEX] || attrs[MACFILTER_A_IFNAME]) {
		rtnl_lock();
		filter = mf_lookup_dev(net, attrs, cb->extack);
		rtnl_unlock();
		if (IS_ERR(filter))
			return PTR_ERR(filter);
	}

	rcu_read_lock();
	cb->seq = mn->gen;
	list_for_each_entry_rcu(mfd, &mn->devs, list) {
		if (idx++ < cb->args[0])
			continue;
		if (filter && mfd->dev != filter)
			continue;
		err = mf_dump_dev_entries(skb, cb, mfd);
		if (err)
			break;
		cb->args[1] = 0;
		cb->args[2] = 0;
	}
	rcu_read_unlock();
	cb->args[0] = idx - (err ? 1 : 0);
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ---- the family ------------------------------------------------------------ */

#define MF_OP(_cmd, _fn, _policy, _flags)				\
	{								\
		.cmd = _cmd,						\
		.doit = _fn,						\
		.policy = _policy,					\
		.maxattr = MACFILTER_A_MAX,				\
		.flags = GENL_ADMIN_PERM,				\
		.internal_flags = _flags,				\
	}

static const struct genl_ops mf_genl_ops[] = {
	MF_OP(MACFILTER_CMD_ATTACH, mf_cmd_attach, mf_set_policy, MF_NEED_DEV),
	MF_OP(MACFILTER_CMD_DETACH, mf_cmd_detach, mf_dev_policy, MF_NEED_MFD),
	MF_OP(MACFILTER_CMD_SET, mf_cmd_set, mf_set_policy, MF_NEED_MFD),
	MF_OP(MACFILTER_CMD_ADD, mf_cmd_add, mf_add_policy, MF_NEED_MFD),
	MF_OP(MACFILTER_CMD_DEL, mf_cmd_del, mf_del_policy, MF_NEED_MFD),
	MF_OP(MACFILTER_CMD_FLUSH, mf_cmd_flush, mf_dev_policy, MF_NEED_MFD),
	MF_OP(MACFILTER_CMD_REPLACE, mf_cmd_replace, mf_replace_policy,
	      MF_NEED_MFD),
	{
		.cmd = MACFILTER_CMD_GET_DEV,
		.doit = mf_cmd_get_dev,
		.dumpit = mf_dump_devs,
		.policy = mf_dev_policy,
		.maxattr = MACFILTER_A_MAX,
		.internal_flags = MF_NEED_MFD,
	},
	{
		.cmd = MACFILTER_CMD_GET_ENTRY,
		.dumpit = mf_dump_entries,
		.policy = mf_dev_policy,
		.maxattr = MACFILTER_A_MAX,
	},
};

static const struct genl_multicast_group mf_mcgrps[] = {
	{ .name = MACFILTER_MCGRP_CONFIG },
};

static struct genl_family mf_genl_family __ro_after_init = {
	.name = MACFILTER_GENL_NAME,
	.version = MACFILTER_GENL_VERSION,
	.maxattr = MACFILTER_A_MAX,
	.netnsok = true,
	.parallel_ops = false,
	.pre_doit = mf_pre_doit,
	.post_doit = mf_post_doit,
	.module = THIS_MODULE,
	.ops = mf_genl_ops,
	.n_ops = ARRAY_SIZE(mf_genl_ops),
	.resv_start_op = MACFILTER_CMD_MAX + 1,
	.mcgrps = mf_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mf_mcgrps),
};

int mf_genl_init(void)
{
	return genl_register_family(&mf_genl_family);
}

void mf_genl_exit(void)
{
	genl_unregister_family(&mf_genl_family);
}
