// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "transit" (include/uapi/linux/ah_transit.h).
 * Every change runs under RTNL, taken in pre_doit with the device lookup
 * (as batman-adv does), needs CAP_NET_ADMIN in the device's namespace and
 * is announced on the "config" multicast group.  Parameters are checked
 * together (tr_params_check()) before any is applied.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "ah_genl.h"
#include "ah_compat.h"
#include "engine.h"

/* internal_flags of an op */
#define TR_NEED_DEV	BIT(0)	/* IFINDEX or IFNAME names a device */
#define TR_NEED_TD	BIT(1)	/* ... that the engine is attached to */

static struct genl_family tr_genl_family;

#define TR_DEV_POLICY \
	[TRANSIT_A_IFINDEX] = { .type = NLA_U32 }, \
	[TRANSIT_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 }

/* the ranges are tr_params_check()'s, which also weighs one against another */
#define TR_PARAM_POLICY \
	[TRANSIT_A_ENABLE] = NLA_POLICY_MAX(NLA_U8, 1), \
	[TRANSIT_A_P_N_MISSES] = { .type = NLA_U32 }, \
	[TRANSIT_A_P_MARK_TIMEOUT_MS] = { .type = NLA_U32 }, \
	[TRANSIT_A_P_PROBE_INTERVAL_MS] = { .type = NLA_U32 }, \
	[TRANSIT_A_P_PEEK_LEN] = { .type = NLA_U32 }, \
	[TRANSIT_A_P_TABLE_SIZE] = { .type = NLA_U32 }, \
	[TRANSIT_A_P_KEY_PORTS] = { .type = NLA_U32 }, \
	[TRANSIT_A_P_IDLE_TIMEOUT_MS] = { .type = NLA_U32 }

static const struct nla_policy tr_dev_policy[TRANSIT_A_MAX + 1] = {
	TR_DEV_POLICY,
};

static const struct nla_policy tr_set_policy[TRANSIT_A_MAX + 1] = {
	TR_DEV_POLICY,
	TR_PARAM_POLICY,
};

static const struct nla_policy tr_flush_policy[TRANSIT_A_MAX + 1] = {
	TR_DEV_POLICY,
	[TRANSIT_A_FLUSH] = NLA_POLICY_MASK(NLA_U32, TRANSIT_FLUSH_ALL),
};

/* ---- parameters --------------------------------------------------------- */

/* the attribute of each field tr_params_check() may refuse */
static const int tr_param_attr[__TR_PARAM_MAX] = {
	[TR_PARAM_N_MISSES] = TRANSIT_A_P_N_MISSES,
	[TR_PARAM_MARK_TIMEOUT] = TRANSIT_A_P_MARK_TIMEOUT_MS,
	[TR_PARAM_PROBE_INTERVAL] = TRANSIT_A_P_PROBE_INTERVAL_MS,
	[TR_PARAM_PEEK_LEN] = TRANSIT_A_P_PEEK_LEN,
	[TR_PARAM_TABLE_SIZE] = TRANSIT_A_P_TABLE_SIZE,
	[TR_PARAM_KEY_PORTS] = TRANSIT_A_P_KEY_PORTS,
	[TR_PARAM_IDLE_TIMEOUT] = TRANSIT_A_P_IDLE_TIMEOUT_MS,
};

static void tr_get_u32(struct nlattr **attrs, int type, u32 *v)
{
	if (attrs[type])
		*v = nla_get_u32(attrs[type]);
}

/*
 * p (current or default values) with the request's parameters applied,
 * checked as a whole.  Nothing changes if it fails.
 */
static int tr_parse_params(struct genl_info *info, struct tr_params *p)
{
	struct nlattr **a = info->attrs;
	enum tr_param bad;

	tr_get_u32(a, TRANSIT_A_P_N_MISSES, &p->n_misses);
	tr_get_u32(a, TRANSIT_A_P_MARK_TIMEOUT_MS, &p->mark_timeout_ms);
	tr_get_u32(a, TRANSIT_A_P_PROBE_INTERVAL_MS, &p->probe_interval_ms);
	tr_get_u32(a, TRANSIT_A_P_PEEK_LEN, &p->peek_len);
	tr_get_u32(a, TRANSIT_A_P_TABLE_SIZE, &p->table_size);
	tr_get_u32(a, TRANSIT_A_P_KEY_PORTS, &p->key_ports);
	tr_get_u32(a, TRANSIT_A_P_IDLE_TIMEOUT_MS, &p->idle_timeout_ms);
	bad = tr_params_check(p);
	if (bad == TR_PARAM_OK)
		return 0;
	/*
	 * The sentence is flow.c's (a static string, as NL_SET_ERR_MSG's are),
	 * pointing at the attribute if the request has it.
	 */
	if (info->extack) {
		info->extack->_msg = tr_params_why(bad);
		info->extack->bad_attr = a[tr_param_attr[bad]];
	}
	return -EINVAL;
}

static bool tr_get_enable(struct genl_info *info, bool dflt)
{
	struct nlattr *a = info->attrs[TRANSIT_A_ENABLE];

	return a ? nla_get_u8(a) : dflt;
}

/* ---- messages ----------------------------------------------------------- */

static int tr_put_dev(struct sk_buff *skb, const struct tr_dev *td)
{
	if (nla_put_u32(skb, TRANSIT_A_IFINDEX, td->dev->ifindex) ||
	    nla_put_string(skb, TRANSIT_A_IFNAME, td->dev->name))
		return -EMSGSIZE;
	return 0;
}

static int tr_put_params(struct sk_buff *skb, const struct tr_params *p)
{
	if (nla_put_u32(skb, TRANSIT_A_P_N_MISSES, p->n_misses) ||
	    nla_put_u32(skb, TRANSIT_A_P_MARK_TIMEOUT_MS, p->mark_timeout_ms) ||
	    nla_put_u32(skb, TRANSIT_A_P_PROBE_INTERVAL_MS,
			p->probe_interval_ms) ||
	    nla_put_u32(skb, TRANSIT_A_P_PEEK_LEN, p->peek_len) ||
	    nla_put_u32(skb, TRANSIT_A_P_TABLE_SIZE, p->table_size) ||
	    nla_put_u32(skb, TRANSIT_A_P_KEY_PORTS, p->key_ports) ||
	    nla_put_u32(skb, TRANSIT_A_P_IDLE_TIMEOUT_MS, p->idle_timeout_ms))
		return -EMSGSIZE;
	return 0;
}

static int tr_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, TRANSIT_A_PAD);
}

static int tr_put_totals(struct sk_buff *skb, const struct tr_totals *t)
{
	if (tr_put_u64(skb, TRANSIT_A_PIO_BYTES_SAVED, t->pio_bytes_saved) ||
	    tr_put_u64(skb, TRANSIT_A_EARLY_DROPS, t->early_drops) ||
	    tr_put_u64(skb, TRANSIT_A_FALSE_POSITIVES, t->false_positives) ||
	    tr_put_u64(skb, TRANSIT_A_FALSE_NEGATIVES, t->false_negatives) ||
	    tr_put_u64(skb, TRANSIT_A_PASSES, t->passes) ||
	    tr_put_u64(skb, TRANSIT_A_EVICTIONS, t->evictions) ||
	    tr_put_u64(skb, TRANSIT_A_MARKS, t->marks) ||
	    tr_put_u64(skb, TRANSIT_A_MISSES, t->misses) ||
	    tr_put_u64(skb, TRANSIT_A_PROBES, t->probes))
		return -EMSGSIZE;
	return 0;
}

static int tr_fill_dev(struct sk_buff *skb, struct tr_dev *td, u32 portid,
		       u32 seq, int flags, u8 cmd)
{
	struct tr_dev_info info;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &tr_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	tr_dev_info(td, &info);
	if (tr_put_dev(skb, td) ||
	    nla_put_u8(skb, TRANSIT_A_ENABLE, info.enabled) ||
	    tr_put_params(skb, &info.p) ||
	    nla_put_u32(skb, TRANSIT_A_FLOWS, info.flows))
		goto cancel;
	if (cmd == TRANSIT_CMD_GET_DEV && tr_put_totals(skb, &info.tot))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Announce a change of the device (attach, detach, set, flush). */
void tr_nl_notify_dev(struct tr_dev *td, u8 cmd)
{
	struct sk_buff *skb;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (tr_fill_dev(skb, td, 0, 0, 0, cmd)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast_netns(&tr_genl_family, dev_net(td->dev), skb, 0, 0,
				GFP_KERNEL);
}

/* ---- device lookup: pre_doit / post_doit -------------------------------- */

static struct net_device *tr_lookup_dev(struct net *net, struct nlattr **attrs,
					struct netlink_ext_ack *extack)
{
	return ah_genl_dev(net, attrs[TRANSIT_A_IFINDEX],
			   attrs[TRANSIT_A_IFNAME], extack);
}

static int tr_pre_doit(const struct ah_genl_ops_t *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	struct net_device *dev;
	struct tr_dev *td;

	rtnl_lock();
	dev = tr_lookup_dev(genl_info_net(info), info->attrs, info->extack);
	if (IS_ERR(dev))
		goto err;
	info->user_ptr[0] = dev;
	td = tr_dev_get_rtnl(dev);
	if ((ops->internal_flags & TR_NEED_TD) && !td) {
		NL_SET_ERR_MSG(info->extack,
			       "transit is not attached to this device");
		dev = ERR_PTR(-ENOENT);
		goto err;
	}
	info->user_ptr[1] = td;
	return 0;

err:
	rtnl_unlock();
	return PTR_ERR(dev);
}

static void tr_post_doit(const struct ah_genl_ops_t *ops, struct sk_buff *skb,
			 struct genl_info *info)
{
	rtnl_unlock();
}

/* ---- changes ------------------------------------------------------------ */

static int tr_cmd_attach(struct sk_buff *skb, struct genl_info *info)
{
	struct tr_params p;
	struct tr_dev *td;
	int err;

	tr_params_default(&p);
	err = tr_parse_params(info, &p);
	if (err)
		return err;
	td = tr_dev_attach(info->user_ptr[0], &p, tr_get_enable(info, true),
			   info->extack);
	if (IS_ERR(td))
		return PTR_ERR(td);
	tr_nl_notify_dev(td, TRANSIT_CMD_ATTACH);
	return 0;
}

static int tr_cmd_detach(struct sk_buff *skb, struct genl_info *info)
{
	struct tr_dev *td = info->user_ptr[1];

	tr_nl_notify_dev(td, TRANSIT_CMD_DETACH);
	tr_dev_detach(td);
	return 0;
}

static int tr_cmd_set(struct sk_buff *skb, struct genl_info *info)
{
	struct tr_dev *td = info->user_ptr[1];
	struct tr_params p;
	int err, i;

	for (i = TRANSIT_A_P_FIRST; i <= TRANSIT_A_P_LAST; i++)
		if (info->attrs[i])
			break;
	if (i > TRANSIT_A_P_LAST && !info->attrs[TRANSIT_A_ENABLE]) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set (a parameter or enable)");
		return -EINVAL;
	}
	tr_dev_params(td, &p);
	err = tr_parse_params(info, &p);
	if (err)
		return err;
	err = tr_dev_set(td, &p, tr_get_enable(info, READ_ONCE(td->enabled)));
	if (err)
		return err;
	tr_nl_notify_dev(td, TRANSIT_CMD_SET);
	return 0;
}

static int tr_cmd_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *a = info->attrs[TRANSIT_A_FLUSH];
	u32 what = a ? nla_get_u32(a) : TRANSIT_FLUSH_FLOWS;
	struct tr_dev *td = info->user_ptr[1];

	if (!what) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "nothing to flush (flows, counters)");
		return -EINVAL;
	}
	tr_dev_flush(td, what & TRANSIT_FLUSH_FLOWS,
		     what & TRANSIT_FLUSH_COUNTERS);
	tr_nl_notify_dev(td, TRANSIT_CMD_FLUSH);
	return 0;
}

/* ---- queries ------------------------------------------------------------ */

static int tr_cmd_get_dev(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = tr_fill_dev(msg, info->user_ptr[1], info->snd_portid,
			  info->snd_seq, 0, TRANSIT_CMD_GET_DEV);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int tr_dump_devs(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tr_net *tn = tr_net(sock_net(skb->sk));
	long idx = 0, start = cb->args[0];
	struct tr_dev *td;

	rcu_read_lock();
	list_for_each_entry_rcu(td, &tn->devs, list) {
		if (idx++ < start)
			continue;
		if (tr_fill_dev(skb, td, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, NLM_F_MULTI,
				TRANSIT_CMD_GET_DEV)) {
			idx--;
			break;
		}
	}
	rcu_read_unlock();
	cb->args[0] = idx;
	return skb->len;
}

static int tr_fill_flow(struct sk_buff *skb, struct netlink_callback *cb,
			const struct tr_dev *td, const struct tr_flow_info *fi)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &tr_genl_family, NLM_F_MULTI, TRANSIT_CMD_GET_FLOW);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (tr_put_dev(skb, td) ||
	    nla_put_in_addr(skb, TRANSIT_A_SADDR, fi->key.saddr) ||
	    nla_put_in_addr(skb, TRANSIT_A_DADDR, fi->key.daddr) ||
	    nla_put_u8(skb, TRANSIT_A_PROTO, fi->key.proto) ||
	    nla_put_u16(skb, TRANSIT_A_SPORT, fi->key.sport) ||
	    nla_put_u16(skb, TRANSIT_A_DPORT, fi->key.dport) ||
	    nla_put_u8(skb, TRANSIT_A_STATE, fi->state) ||
	    tr_put_u64(skb, TRANSIT_A_PKTS, fi->pkts) ||
	    tr_put_u64(skb, TRANSIT_A_BYTES, fi->bytes) ||
	    tr_put_u64(skb, TRANSIT_A_DROPPED, fi->dropped) ||
	    tr_put_u64(skb, TRANSIT_A_PROBES, fi->probes) ||
	    tr_put_u64(skb, TRANSIT_A_MISSES, fi->misses_total) ||
	    nla_put_u32(skb, TRANSIT_A_IDLE_MS,
			min_t(u64, fi->idle_ms, U32_MAX))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * One device's flows: args[0] its ifindex (found again in each part of
 * the dump), args[1] the slot cursor.  A change between parts sets
 * NLM_F_DUMP_INTR.
 */
static int tr_dump_flows(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = ah_dump_attrs(cb);
	struct net *net = sock_net(skb->sk);
	struct tr_flow_info fi;
	struct net_device *dev;
	unsigned long flags;
	struct tr_dev *td;
	u32 cursor, prev;
	bool more;
	int err = 0;

	if (!cb->args[0]) {
		rtnl_lock();
		dev = tr_lookup_dev(net, attrs, cb->extack);
		if (!IS_ERR(dev))
			cb->args[0] = dev->ifindex;
		rtnl_unlock();
		if (IS_ERR(dev))
			return PTR_ERR(dev);
	}
	rcu_read_lock();
	dev = dev_get_by_index_rcu(net, cb->args[0]);
	td = dev ? tr_dev_find_rcu(dev) : NULL;
	if (!td) {
		rcu_read_unlock();
		NL_SET_ERR_MSG(cb->extack, "transit is not attached to this device");
		return skb->len ? skb->len : -ENOENT;
	}
	cb->seq = tr_net(net)->gen;
	cursor = cb->args[1];
	for (;;) {
		prev = cursor;
		spin_lock_irqsave(&td->lock, flags);
		more = tr_flow_iter(td->t, &cursor, &fi, tr_now());
		spin_unlock_irqrestore(&td->lock, flags);
		if (!more)
			break;
		err = tr_fill_flow(skb, cb, td, &fi);
		if (err) {
			cursor = prev;
			break;
		}
	}
	rcu_read_unlock();
	cb->args[1] = cursor;
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ---- the family --------------------------------------------------------- */

#define TR_OP(_cmd, _fn, _policy, _flags)				\
	{								\
		.cmd = _cmd,						\
		.doit = _fn,						\
		.policy = _policy,					\
		.maxattr = TRANSIT_A_MAX,				\
		.flags = GENL_ADMIN_PERM,				\
		.internal_flags = _flags,				\
	}

static const struct genl_ops tr_genl_ops[] = {
	TR_OP(TRANSIT_CMD_ATTACH, tr_cmd_attach, tr_set_policy, TR_NEED_DEV),
	TR_OP(TRANSIT_CMD_DETACH, tr_cmd_detach, tr_dev_policy, TR_NEED_TD),
	TR_OP(TRANSIT_CMD_SET, tr_cmd_set, tr_set_policy, TR_NEED_TD),
	TR_OP(TRANSIT_CMD_FLUSH, tr_cmd_flush, tr_flush_policy, TR_NEED_TD),
	{
		.cmd = TRANSIT_CMD_GET_DEV,
		.doit = tr_cmd_get_dev,
		.dumpit = tr_dump_devs,
		.policy = tr_dev_policy,
		.maxattr = TRANSIT_A_MAX,
		.internal_flags = TR_NEED_TD,
	},
	{
		.cmd = TRANSIT_CMD_GET_FLOW,
		.dumpit = tr_dump_flows,
		.policy = tr_dev_policy,
		.maxattr = TRANSIT_A_MAX,
	},
};

static const struct genl_multicast_group tr_mcgrps[] = {
	{ .name = TRANSIT_MCGRP_CONFIG },
};

static struct genl_family tr_genl_family __ro_after_init = {
	.name = TRANSIT_GENL_NAME,
	.version = TRANSIT_GENL_VERSION,
	.maxattr = TRANSIT_A_MAX,
	.netnsok = true,
	.parallel_ops = false,
	.pre_doit = tr_pre_doit,
	.post_doit = tr_post_doit,
	.module = THIS_MODULE,
	.ops = tr_genl_ops,
	.n_ops = ARRAY_SIZE(tr_genl_ops),
	.resv_start_op = TRANSIT_CMD_MAX + 1,
	.mcgrps = tr_mcgrps,
	.n_mcgrps = ARRAY_SIZE(tr_mcgrps),
};

int tr_genl_init(void)
{
	return genl_register_family(&tr_genl_family);
}

void tr_genl_exit(void)
{
	genl_unregister_family(&tr_genl_family);
}
