// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dsr".  Every request names a dsr device; changes
 * run under RTNL (taken in pre_doit with the lookup, as batman-adv does),
 * need CAP_NET_ADMIN over the device's namespace (GENL_UNS_ADMIN_PERM: a
 * slice that runs its own dsr0 in a namespace of its own user namespace
 * configures it; see kmod/slice) and are announced on the "config" group;
 * routing events go to the "events" group, which only CAP_NET_ADMIN may
 * join.
 * Every command is strictly validated; the parameters travel in their own
 * nest (DSR_A_PARAMS), whose policy holds each parameter's range.  Dumps
 * copy out under the device lock, resuming from a cursor.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "ah_genl.h"
#include "ah_compat.h"
#include "dsr.h"

static struct genl_family dsr_genl_family;

#define DSR_DEV_POLICY \
	[DSR_A_IFINDEX] = { .type = NLA_U32 }, \
	[DSR_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 }

static const struct nla_policy dsr_dev_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
};

/*
 * The range of every parameter, as dsr_param_defs (params.c) has it: the
 * policy of the DSR_A_PARAMS nest refuses a value outside it before the
 * request runs, with -ERANGE and an extack that points at the attribute
 * inside the nest, says "integer out of range" and carries the range.
 * NLA_POLICY_RANGE() and NLA_POLICY_MAX() hold s16 bounds; wider ranges
 * need a struct netlink_range_validation (not const: 6.1's policy points
 * to a mutable one).  dsr_params_policy_check() compares the two when the
 * module loads.
 */
#define DSR_P_RANGE(name, lo, hi) \
	[DSR_A_P_##name] = NLA_POLICY_RANGE(NLA_U32, lo, hi)
#define DSR_P_MAX(name, hi) \
	[DSR_A_P_##name] = NLA_POLICY_MAX(NLA_U32, hi)
#define DSR_P_WIDE(name, range) \
	[DSR_A_P_##name] = NLA_POLICY_FULL_RANGE(NLA_U32, &(range))

static struct netlink_range_validation dsr_range_rc_timeout __ro_after_init = {
	.min = 100, .max = 86400000,
};

static struct netlink_range_validation dsr_range_10ms_10min __ro_after_init = {
	.min = 10, .max = 600000,
};

static struct netlink_range_validation dsr_range_0_10min __ro_after_init = {
	.min = 0, .max = 600000,
};

static struct netlink_range_validation dsr_range_sendbuf_bytes __ro_after_init = {
	.min = 1500, .max = 16777216,
};

static struct netlink_range_validation dsr_range_0_1min __ro_after_init = {
	.min = 0, .max = 60000,
};

static struct netlink_range_validation dsr_range_1ms_1min __ro_after_init = {
	.min = 1, .max = 60000,
};

static struct netlink_range_validation dsr_range_queue_thresh __ro_after_init = {
	.min = 0, .max = 100000,
};

static const struct nla_policy dsr_param_policy[DSR_A_P_MAX + 1] = {
	DSR_P_RANGE(DISCOVERY_HOP_LIMIT, 1, 255),
	DSR_P_MAX(BROADCAST_JITTER_MS, 1000),
	DSR_P_WIDE(ROUTE_CACHE_TIMEOUT_MS, dsr_range_rc_timeout),
	DSR_P_WIDE(SEND_BUFFER_TIMEOUT_MS, dsr_range_10ms_10min),
	DSR_P_RANGE(SEND_BUFFER_PACKETS, 1, 4096),
	DSR_P_WIDE(SEND_BUFFER_BYTES, dsr_range_sendbuf_bytes),
	DSR_P_RANGE(REQUEST_TABLE_SIZE, 1, 1024),
	DSR_P_RANGE(REQUEST_TABLE_IDS, 1, DSR_RREQ_IDS_MAX),
	DSR_P_MAX(MAX_REQUEST_REXMT, 64),
	DSR_P_WIDE(MAX_REQUEST_PERIOD_MS, dsr_range_10ms_10min),
	DSR_P_WIDE(REQUEST_PERIOD_MS, dsr_range_10ms_10min),
	DSR_P_MAX(NONPROP_REQUEST_TIMEOUT_MS, 10000),
	DSR_P_RANGE(REXMT_BUFFER_SIZE, 1, 4096),
	DSR_P_MAX(MAINT_HOLDOFF_MS, 10000),
	DSR_P_MAX(MAX_MAINT_REXMT, 16),
	DSR_P_MAX(TRY_PASSIVE_ACKS, 16),
	DSR_P_RANGE(PASSIVE_ACK_TIMEOUT_MS, 1, 10000),
	DSR_P_RANGE(ACK_TIMEOUT_MS, 1, 10000),
	DSR_P_WIDE(GRAT_REPLY_HOLDOFF_MS, dsr_range_0_1min),
	DSR_P_MAX(MAX_SALVAGE_COUNT, 15),
	DSR_P_WIDE(LINK_HOLDDOWN_MS, dsr_range_0_10min),
	DSR_P_RANGE(ROUTE_CACHE_SIZE, 1, 4096),
	DSR_P_MAX(GATEWAY, 1),
	[DSR_A_P_SUBNET] = { .type = NLA_BE32 },
	DSR_P_MAX(SUBNET_PREFIX, 32),
	DSR_P_RANGE(TIMER_MS, 1, 1000),
	DSR_P_MAX(ADAPTIVE_RTO, 1),
	DSR_P_WIDE(RTO_MIN_MS, dsr_range_1ms_1min),
	DSR_P_WIDE(RTO_MAX_MS, dsr_range_1ms_1min),
	DSR_P_MAX(QUEUE_HEURISTIC, 1),
	DSR_P_WIDE(QUEUE_THRESH, dsr_range_queue_thresh),
	DSR_P_MAX(QUEUE_INCR_MS, 10000),
	DSR_P_MAX(SLAVE_QDISC, 1),
	DSR_P_MAX(HOLD_QUEUED, 1),
	DSR_P_MAX(CONGESTION_DROP, 1),
	DSR_P_MAX(ACK_ALL, 1),
	DSR_P_MAX(OVERHEARD_RATE, 10000),
	DSR_P_MAX(MCAST_BCAST_MIN, DSR_MC_CHILDREN),
};

/* SET_PARAMS: the nest is validated with the request, strictly */
static const struct nla_policy dsr_set_params_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_PARAMS] = NLA_POLICY_NESTED(dsr_param_policy),
};

/* The bounds of a u32 attribute's policy; false for a kind not used here. */
static bool dsr_policy_range(const struct nla_policy *pt, u64 *lo, u64 *hi)
{
	*lo = 0;
	*hi = U32_MAX;
	switch (pt->validation_type) {
	case NLA_VALIDATE_NONE:
		return true;
	case NLA_VALIDATE_RANGE:
		*lo = pt->min;
		*hi = pt->max;
		return pt->min >= 0 && pt->max >= 0;
	case NLA_VALIDATE_MIN:
		*lo = pt->min;
		return pt->min >= 0;
	case NLA_VALIDATE_MAX:
		*hi = pt->max;
		return pt->max >= 0;
	case NLA_VALIDATE_RANGE_PTR:
		*lo = pt->range->min;
		*hi = pt->range->max;
		return true;
	default:
		return false;
	}
}

/*
 * The policy must take exactly the values dsr_param_check() takes: each
 * bound inside, the value past it outside.
 */
static int dsr_params_policy_check(void)
{
	int a;

	for (a = DSR_A_P_FIRST; a <= DSR_A_P_LAST; a++) {
		const struct nla_policy *pt = &dsr_param_policy[a];
		u64 lo, hi;

		/* (an address: any value) */
		if (pt->type == NLA_BE32 &&
		    pt->validation_type == NLA_VALIDATE_NONE &&
		    dsr_param_check(a, 0) == DSR_PARAM_OK &&
		    dsr_param_check(a, U32_MAX) == DSR_PARAM_OK)
			continue;
		if (pt->type == NLA_U32 && dsr_policy_range(pt, &lo, &hi) &&
		    lo <= hi && hi <= U32_MAX &&
		    dsr_param_check(a, lo) == DSR_PARAM_OK &&
		    dsr_param_check(a, hi) == DSR_PARAM_OK &&
		    (!lo || dsr_param_check(a, lo - 1) == DSR_PARAM_BELOW) &&
		    (hi == U32_MAX ||
		     dsr_param_check(a, hi + 1) == DSR_PARAM_ABOVE))
			continue;
		pr_err("parameter attribute %d: the netlink policy and dsr_param_defs disagree\n",
		       a);
		return -EINVAL;
	}
	return 0;
}

static const struct nla_policy dsr_route_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_DST] = { .type = NLA_BE32 },
	[DSR_A_HOPS] = { .type = NLA_BINARY, .len = 4 * DSR_MAX_PATH },
};

static const struct nla_policy dsr_flush_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_FLUSH] = NLA_POLICY_MASK(NLA_U32, DSR_FLUSH_ALL),
};

static const struct nla_policy dsr_mcast_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_MC_SOURCE] = { .type = NLA_BE32 },
	[DSR_A_MC_GROUP] = { .type = NLA_BE32 },
	[DSR_A_MC_LAYERS] = NLA_POLICY_RANGE(NLA_U8, 1, DSR_MT_MAX_LAYERS),
	[DSR_A_MC_TAG_MODE] = NLA_POLICY_MAX(NLA_U8, DSR_MC_TAG_RTP),
	[DSR_A_MC_TAG_LAYERS] = NLA_POLICY_RANGE(NLA_U8, 1, DSR_MTAG_MAX_LAYERS),
	[DSR_A_MC_TAG_OFFSET] = { .type = NLA_U16 },
	[DSR_A_MC_TAG_EXT_ID] = NLA_POLICY_MIN(NLA_U8, 1),
	[DSR_A_MC_TAG_TIDS] = NLA_POLICY_MAX(NLA_U8, DSR_MTAG_MAX_TIDS),
};

static const struct nla_policy dsr_mcast_map_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_MC_SOURCE] = { .type = NLA_BE32 },
	[DSR_A_MC_GROUP] = { .type = NLA_BE32 },
};

static const struct nla_policy dsr_mcast_chain_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_MC_SOURCE] = { .type = NLA_BE32 },
	[DSR_A_MC_GROUP] = { .type = NLA_BE32 },
	[DSR_A_MC_CHAIN] = { .type = NLA_BINARY,
			     .len = DSR_MC_CHAIN_MAX *
				    sizeof(struct dsr_mc_elem_cfg) },
};

/* ---- device lookup -------------------------------------------------------- */

static struct net_device *dsr_lookup(struct net *net, struct nlattr **attrs,
				     struct netlink_ext_ack *extack)
{
	struct net_device *dev;

	dev = ah_genl_dev(net, attrs[DSR_A_IFINDEX], attrs[DSR_A_IFNAME],
			  extack);
	if (!IS_ERR(dev) && !dsr_is_dsr(dev)) {
		NL_SET_ERR_MSG(extack, "not a dsr device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return dev;
}

static int dsr_pre_doit(const struct ah_genl_ops_t *ops, struct sk_buff *skb,
			struct genl_info *info)
{
	struct net_device *dev;

	rtnl_lock();
	dev = dsr_lookup(genl_info_net(info), info->attrs, info->extack);
	if (IS_ERR(dev)) {
		rtnl_unlock();
		return PTR_ERR(dev);
	}
	info->user_ptr[0] = netdev_priv(dev);
	return 0;
}

static void dsr_post_doit(const struct ah_genl_ops_t *ops,
			  struct sk_buff *skb, struct genl_info *info)
{
	rtnl_unlock();
}

/* ---- parameters ------------------------------------------------------------- */

static struct sk_buff *dsr_params_msg(struct dsr_priv *priv, u32 portid,
				      u32 seq, u8 cmd)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	struct nlattr *nest;
	void *hdr;
	int a;

	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, portid, seq, &dsr_genl_family, 0, cmd);
	if (!hdr || dsr_put_dev(msg, priv))
		goto fail;
	nest = nla_nest_start(msg, DSR_A_PARAMS);
	if (!nest)
		goto fail;
	for (a = DSR_A_P_FIRST; a <= DSR_A_P_LAST; a++)
		if (nla_put_u32(msg, a, priv->param[a - DSR_A_P_FIRST]))
			goto fail;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

static int dsr_cmd_get_params(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;

	msg = dsr_params_msg(info->user_ptr[0], info->snd_portid,
			     info->snd_seq, DSR_CMD_GET_PARAMS);
	return msg ? genlmsg_reply(msg, info) : -ENOMEM;
}

static void dsr_notify_config(struct dsr_priv *priv)
{
	struct sk_buff *msg;

	msg = dsr_params_msg(priv, 0, 0, DSR_CMD_SET_PARAMS);
	if (msg)
		genlmsg_multicast_netns(&dsr_genl_family, dev_net(priv->dev),
					msg, 0, DSR_MCGRP_CONFIG_ID,
					GFP_KERNEL);
	dsr_event(priv, DSR_EVENT_CONFIG, 0, 0, 0, NULL, 0);
}

/*
 * A table whose size changed is rebuilt empty (allocation cannot sleep
 * under the device lock), then swapped in.
 */
static int dsr_resize_tables(struct dsr_priv *priv, const u32 *np,
			     struct netlink_ext_ack *extack)
{
	u32 rcs = np[DSR_A_P_ROUTE_CACHE_SIZE - DSR_A_P_FIRST];
	u32 rts = np[DSR_A_P_REQUEST_TABLE_SIZE - DSR_A_P_FIRST];
	u32 rti = np[DSR_A_P_REQUEST_TABLE_IDS - DSR_A_P_FIRST];
	struct dsr_rreq_table rt = {}, old_rt = {};
	bool new_rt = rts != priv->rt.size || rti != priv->rt.ids;
	struct dsr_path *paths = NULL, *old_paths;

	if (rcs != priv->rc.cap) {
		paths = kvcalloc(rcs, sizeof(*paths), GFP_KERNEL);
		if (!paths)
			goto nomem;
	}
	if (new_rt && dsr_rreq_init(&rt, rts, rti)) {
		kvfree(paths);
		goto nomem;
	}
	dsr_lock_bh(priv);
	old_paths = paths ? priv->rc.paths : NULL;
	if (paths) {
		priv->rc.paths = paths;
		priv->rc.cap = rcs;
		dsr_rc_invalidate(&priv->rc);
	}
	if (new_rt) {
		old_rt = priv->rt;
		priv->rt = rt;
	}
	dsr_unlock_bh(priv);
	kvfree(old_paths);
	dsr_rreq_destroy(&old_rt);
	return 0;
nomem:
	NL_SET_ERR_MSG(extack, "no memory for the new table size");
	return -ENOMEM;
}

/*
 * The parameters in DSR_A_PARAMS change, the others stay; without the nest
 * (or with an empty one) nothing changes, and the change is announced all
 * the same.
 */
static int dsr_cmd_set_params(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	struct nlattr *tb[DSR_A_P_MAX + 1] = {};
	u32 np[DSR_NPARAMS];
	int a, err;

	/* validated with the request (dsr_set_params_policy): no error */
	if (info->attrs[DSR_A_PARAMS]) {
		err = nla_parse_nested(tb, DSR_A_P_MAX,
				       info->attrs[DSR_A_PARAMS],
				       dsr_param_policy, info->extack);
		if (err)
			return err;
	}
	memcpy(np, priv->param, sizeof(np));
	for (a = DSR_A_P_FIRST; a <= DSR_A_P_LAST; a++) {
		/* in its range: the policy saw to that */
		if (tb[a])
			np[a - DSR_A_P_FIRST] = nla_get_u32(tb[a]);
	}
	if (np[DSR_A_P_RTO_MIN_MS - DSR_A_P_FIRST] >
	    np[DSR_A_P_RTO_MAX_MS - DSR_A_P_FIRST]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[DSR_A_P_RTO_MIN_MS] ? :
				    tb[DSR_A_P_RTO_MAX_MS],
				    "rto_min_ms is above rto_max_ms");
		return -EINVAL;
	}
	err = dsr_resize_tables(priv, np, info->extack);
	if (err)
		return err;
	dsr_lock_bh(priv);
	for (a = 0; a < DSR_NPARAMS; a++)
		WRITE_ONCE(priv->param[a], np[a]);
	priv->rc.timeout = np[DSR_A_P_ROUTE_CACHE_TIMEOUT_MS - DSR_A_P_FIRST];
	dsr_unlock_bh(priv);
	dsr_notify_config(priv);
	return 0;
}

/* ---- routes --------------------------------------------------------------------- */

static int dsr_cmd_add_route(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	struct nlattr *ha = info->attrs[DSR_A_HOPS];
	__be32 hops[DSR_MAX_PATH], dst;
	struct sk_buff_head out;
	unsigned int n = 1;
	int r;

	if (GENL_REQ_ATTR_CHECK(info, DSR_A_DST))
		return -EINVAL;
	dst = nla_get_in_addr(info->attrs[DSR_A_DST]);
	hops[0] = dst;
	if (ha) {
		n = nla_len(ha) / 4;
		if (!n || nla_len(ha) % 4) {
			NL_SET_ERR_MSG_ATTR(info->extack, ha,
					    "hops must be 1 or more IPv4 addresses");
			return -EINVAL;
		}
		memcpy(hops, nla_data(ha), 4 * n);
		if (hops[n - 1] != dst) {
			NL_SET_ERR_MSG_ATTR(info->extack, ha,
					    "the last hop must be the destination");
			return -EINVAL;
		}
	}
	if (!dsr_self(priv)) {
		NL_SET_ERR_MSG(info->extack, "the dsr device has no IPv4 address");
		return -EADDRNOTAVAIL;
	}
	__skb_queue_head_init(&out);
	dsr_lock_bh(priv);
	r = dsr_rc_add(&priv->rc, hops, n, DSR_PATH_STATIC, dsr_now(priv));
	if (r >= 0)
		dsr_disc_drain(priv, &out);
	dsr_out_commit(priv, &out);
	dsr_unlock_bh(priv);
	dsr_out_flush(priv);
	if (r < 0) {
		NL_SET_ERR_MSG(info->extack,
			       "route refused: a loop, our own address, an unroutable address, or the cache is full of static routes");
		return -EINVAL;
	}
	dsr_event(priv, DSR_EVENT_ROUTE_ADDED, 0, 0, dst, hops, n);
	return 0;
}

static int dsr_cmd_del_route(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	unsigned int n;

	if (GENL_REQ_ATTR_CHECK(info, DSR_A_DST))
		return -EINVAL;
	dsr_lock_bh(priv);
	n = dsr_rc_del_dst(&priv->rc, nla_get_in_addr(info->attrs[DSR_A_DST]));
	dsr_unlock_bh(priv);
	if (!n) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DSR_A_DST],
				    "no cached route to this destination");
		return -ENOENT;
	}
	return 0;
}

static int dsr_cmd_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	u32 what = DSR_FLUSH_ALL;

	if (info->attrs[DSR_A_FLUSH])
		what = nla_get_u32(info->attrs[DSR_A_FLUSH]);
	dsr_lock_bh(priv);
	if (what & DSR_FLUSH_ROUTES)
		dsr_rc_flush(&priv->rc);
	if (what & DSR_FLUSH_NEGCACHE) {
		dsr_neg_flush(&priv->rc);
		dsr_bl_flush(&priv->bl);
		/* (and the Route Error our next request would spread) */
		priv->rerr_spread_until = 0;
	}
	if (what & DSR_FLUSH_SENDBUF) {
		skb_queue_purge(&priv->sendbuf);
		priv->sendbuf_bytes = 0;
	}
	if (what & DSR_FLUSH_REQTABLE)
		dsr_rreq_flush(&priv->rt);
	dsr_unlock_bh(priv);
	return 0;
}

/* ---- layered multicast (mcast.c) ------------------------------------------------ */

static u8 dsr_nla_u8(const struct nlattr *a, u8 def)
{
	return a ? nla_get_u8(a) : def;
}

static u16 dsr_nla_u16(const struct nlattr *a, u16 def)
{
	return a ? nla_get_u16(a) : def;
}

static int dsr_cmd_mcast(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	bool join = info->genlhdr->cmd == DSR_CMD_MCAST_JOIN;
	struct nlattr **a = info->attrs;
	struct dsr_mtag_cfg tag = {
		.mode = DSR_MTAG_BYTE, .layers = DSR_MTAG_MAX_LAYERS,
		.ext_id = 1,
	};
	struct sk_buff_head out;
	u8 layers = 0;
	bool tagged;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, DSR_A_MC_SOURCE) ||
	    GENL_REQ_ATTR_CHECK(info, DSR_A_MC_GROUP) ||
	    (join && GENL_REQ_ATTR_CHECK(info, DSR_A_MC_LAYERS))) {
		if (join)
			NL_SET_ERR_MSG(info->extack,
				       "a join needs source, group and layers");
		else
			NL_SET_ERR_MSG(info->extack,
				       "a leave needs source and group");
		return -EINVAL;
	}
	/* any of the tag's attributes replaces the group's whole tag */
	tagged = a[DSR_A_MC_TAG_MODE] || a[DSR_A_MC_TAG_LAYERS] ||
		 a[DSR_A_MC_TAG_OFFSET] || a[DSR_A_MC_TAG_EXT_ID] ||
		 a[DSR_A_MC_TAG_TIDS];
	if (!join && (tagged || a[DSR_A_MC_LAYERS])) {
		NL_SET_ERR_MSG(info->extack, "leave takes only the source and the group");
		return -EINVAL;
	}
	if (join) {
		layers = nla_get_u8(a[DSR_A_MC_LAYERS]);
		tag.mode = dsr_nla_u8(a[DSR_A_MC_TAG_MODE], tag.mode);
		tag.layers = dsr_nla_u8(a[DSR_A_MC_TAG_LAYERS], tag.layers);
		tag.offset = dsr_nla_u16(a[DSR_A_MC_TAG_OFFSET], tag.offset);
		tag.ext_id = dsr_nla_u8(a[DSR_A_MC_TAG_EXT_ID], tag.ext_id);
		tag.tids = dsr_nla_u8(a[DSR_A_MC_TAG_TIDS], tag.tids);
	}
	if (!dsr_self(priv)) {
		NL_SET_ERR_MSG(info->extack, "the dsr device has no IPv4 address");
		return -EADDRNOTAVAIL;
	}
	__skb_queue_head_init(&out);
	dsr_lock_bh(priv);
	err = dsr_mcast_local(priv, nla_get_in_addr(a[DSR_A_MC_SOURCE]),
			      nla_get_in_addr(a[DSR_A_MC_GROUP]), layers,
			      tagged ? &tag : NULL, info->extack, &out);
	dsr_out_commit(priv, &out);
	dsr_unlock_bh(priv);
	dsr_out_flush(priv);
	return err;
}

/*
 * MCAST_CHAIN: the group's element chain replaced whole (without
 * MC_CHAIN: the default), checked and allocated before the device lock.
 */
static int dsr_cmd_mcast_chain(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	struct nlattr **a = info->attrs;
	struct dsr_mc_chain *ch = NULL;
	enum dsr_mch_res r;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, DSR_A_MC_SOURCE) ||
	    GENL_REQ_ATTR_CHECK(info, DSR_A_MC_GROUP)) {
		NL_SET_ERR_MSG(info->extack, "a chain needs source and group");
		return -EINVAL;
	}
	if (a[DSR_A_MC_CHAIN]) {
		ch = kzalloc(sizeof(*ch), GFP_KERNEL);
		if (!ch)
			return -ENOMEM;
		r = dsr_mch_build(nla_data(a[DSR_A_MC_CHAIN]),
				  nla_len(a[DSR_A_MC_CHAIN]), &ch->c);
		if (r != DSR_MCH_OK) {
			kfree(ch);
			if (info->extack)
				info->extack->_msg = dsr_mch_res_msg(r);
			NL_SET_BAD_ATTR(info->extack, a[DSR_A_MC_CHAIN]);
			return -EINVAL;
		}
	}
	dsr_lock_bh(priv);
	err = dsr_mcast_chain(priv, nla_get_in_addr(a[DSR_A_MC_SOURCE]),
			      nla_get_in_addr(a[DSR_A_MC_GROUP]), ch,
			      info->extack);
	dsr_unlock_bh(priv);
	return err;
}

/* MCAST_MAP, MCAST_UNMAP: the source map (mcast.c) */
static int dsr_cmd_mcast_map(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	bool add = info->genlhdr->cmd == DSR_CMD_MCAST_MAP;
	struct nlattr **a = info->attrs;
	struct sk_buff_head out;
	__be32 source = 0;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, DSR_A_MC_GROUP) ||
	    (add && GENL_REQ_ATTR_CHECK(info, DSR_A_MC_SOURCE))) {
		if (add)
			NL_SET_ERR_MSG(info->extack, "a map needs group and source");
		else
			NL_SET_ERR_MSG(info->extack, "an unmap needs the group");
		return -EINVAL;
	}
	if (a[DSR_A_MC_SOURCE]) {
		source = nla_get_in_addr(a[DSR_A_MC_SOURCE]);
		if (!source) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[DSR_A_MC_SOURCE],
					    "source must be a routable unicast address");
			return -EINVAL;
		}
	}
	__skb_queue_head_init(&out);
	dsr_lock_bh(priv);
	err = dsr_mcast_map(priv, nla_get_in_addr(a[DSR_A_MC_GROUP]), source,
			    add, info->extack, &out);
	dsr_out_commit(priv, &out);
	dsr_unlock_bh(priv);
	dsr_out_flush(priv);
	return err;
}

/* ---- dumps ---------------------------------------------------------------------- */

/*
 * One row per message.  A dump walks one or more tables (its parts, in
 * order) and resumes where its last call stopped: cb->args[] hold the
 * cursor, the part and the position in it (the slot of an array, the
 * place in a list), so that rows are never rescanned from the first: an
 * array of n slots costs O(n) over the whole dump; a list, the walk to
 * the position once per call (lists are short: neighbours, discoveries,
 * the bounded buffers).  Each call holds RTNL and the device lock; it
 * ends when the skb is full or, once it has put a row, after
 * DSR_DUMP_BUDGET entries (a call that put nothing would end the dump).
 * Rows come in table order, as they always did; what changes between two
 * calls may or may not be seen, as with any netlink dump.
 */
#define DSR_DUMP_BUDGET		256

enum { DSR_CUR_PART, DSR_CUR_POS };

struct dsr_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	struct dsr_priv *priv;
	u64 now;
	unsigned int seen;	/* entries looked at in this call */
	u8 cmd;
};

/*
 * A part's walker: puts the rows from *pos on, advancing *pos past each
 * row it put; 0 at the end of the part, -EMSGSIZE when the skb is full,
 * -EAGAIN when the call's budget is spent.
 */
typedef int (*dsr_walk_t)(struct dsr_dump *d, long *pos);

/* Whether the call stops before the next entry. */
static bool dsr_dump_spent(struct dsr_dump *d)
{
	return d->seen++ >= DSR_DUMP_BUDGET && d->skb->len;
}

/* The header of one row's message, with the device; NULL if it is full. */
static void *dsr_row_begin(struct dsr_dump *d)
{
	void *hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
				d->cb->nlh->nlmsg_seq, &dsr_genl_family,
				NLM_F_MULTI, d->cmd);

	if (hdr && dsr_put_dev(d->skb, d->priv)) {
		genlmsg_cancel(d->skb, hdr);
		return NULL;
	}
	return hdr;
}

/* The row's attributes went in (err 0) or it is taken out (-EMSGSIZE). */
static int dsr_row_end(struct dsr_dump *d, void *hdr, int err)
{
	if (err) {
		genlmsg_cancel(d->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(d->skb, hdr);
	return 0;
}

static int dsr_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    u8 cmd, const dsr_walk_t *walk, unsigned int nwalk)
{
	struct dsr_dump d = { .skb = skb, .cb = cb, .cmd = cmd };
	long *part = &cb->args[DSR_CUR_PART];
	struct net_device *dev;
	int err = 0;

	if (*part >= nwalk)
		return 0;
	rtnl_lock();
	dev = dsr_lookup(sock_net(skb->sk), ah_dump_attrs(cb), cb->extack);
	if (IS_ERR(dev)) {
		rtnl_unlock();
		return PTR_ERR(dev);
	}
	d.priv = netdev_priv(dev);
	dsr_lock_bh(d.priv);
	d.now = dsr_now(d.priv);
	if (d.priv->dead)
		*part = nwalk;
	while (*part < nwalk) {
		err = walk[*part](&d, &cb->args[DSR_CUR_POS]);
		if (err)
			break;
		(*part)++;
		cb->args[DSR_CUR_POS] = 0;
	}
	dsr_unlock_bh(d.priv);
	rtnl_unlock();
	/* a row larger than a whole message */
	if (err == -EMSGSIZE && !skb->len)
		return err;
	return skb->len;
}

static u32 dsr_ms_since(u64 now, u64 then)
{
	return then && now > then ? (u32)min_t(u64, now - then, U32_MAX) : 0;
}

static u32 dsr_ms_until(u64 now, u64 then)
{
	return then > now ? (u32)min_t(u64, then - now, U32_MAX) : 0;
}

static int dsr_nl_path(struct sk_buff *msg, const struct dsr_path *p,
		       u64 now)
{
	if (nla_put_in_addr(msg, DSR_A_DST, p->hop[p->len - 1]) ||
	    nla_put(msg, DSR_A_HOPS, 4 * p->len, p->hop) ||
	    nla_put_u32(msg, DSR_A_HOPCOUNT, p->len) ||
	    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, p->added)) ||
	    nla_put_u32(msg, DSR_A_EXPIRES_MS,
			(p->flags & DSR_PATH_STATIC) ? 0 :
			dsr_ms_until(now, p->expires)) ||
	    ((p->flags & DSR_PATH_STATIC) && nla_put_flag(msg, DSR_A_STATIC)) ||
	    ((p->flags & DSR_PATH_EXTERNAL) &&
	     nla_put_flag(msg, DSR_A_EXTERNAL)))
		return -EMSGSIZE;
	return 0;
}

/* the route cache: *pos is the slot */
static int dsr_walk_route(struct dsr_dump *d, long *pos)
{
	const struct dsr_rcache *rc = &d->priv->rc;
	void *hdr;

	for (; *pos < rc->cap; (*pos)++) {
		const struct dsr_path *p = &rc->paths[*pos];

		if (dsr_dump_spent(d))
			return -EAGAIN;
		if (!p->len || (!(p->flags & DSR_PATH_STATIC) &&
				p->expires <= d->now))
			continue;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_path(d->skb, p, d->now)))
			return -EMSGSIZE;
	}
	return 0;
}

static int dsr_nl_neigh(struct sk_buff *msg, struct dsr_priv *priv,
			const struct dsr_neigh *n, u64 now)
{
	enum dsr_bl_state bl = dsr_bl_state(&priv->bl, n->addr, now);

	BUILD_BUG_ON((int)DSR_BL_QUESTIONABLE != DSR_BLACKLIST_QUESTIONABLE ||
		     (int)DSR_BL_PROBABLE != DSR_BLACKLIST_PROBABLE);
	if ((bl != DSR_BL_NONE && nla_put_u8(msg, DSR_A_BLACKLIST, bl)) ||
	    (n->no_passive && nla_put_flag(msg, DSR_A_ACK_EXPLICIT)) ||
	    nla_put_in_addr(msg, DSR_A_ADDR, n->addr) ||
	    nla_put(msg, DSR_A_MAC, ETH_ALEN, n->mac) ||
	    nla_put_u32(msg, DSR_A_SLAVE, n->slave->dev->ifindex) ||
	    nla_put_u32(msg, DSR_A_RTO_MS, n->rto_ms) ||
	    nla_put_u32(msg, DSR_A_SRTT_US, n->rtt.srtt) ||
	    nla_put_u32(msg, DSR_A_RTTVAR_US, n->rtt.rttvar) ||
	    nla_put_u32(msg, DSR_A_RTT_SAMPLES, n->rtt.samples) ||
	    nla_put_u64_64bit(msg, DSR_A_TX, atomic64_read(&n->tx),
			      DSR_A_PAD) ||
	    nla_put_u64_64bit(msg, DSR_A_RETX, n->retx, DSR_A_PAD) ||
	    nla_put_u64_64bit(msg, DSR_A_ACKED, n->acked, DSR_A_PAD) ||
	    nla_put_u32(msg, DSR_A_AGE_MS,
			dsr_ms_since(now, READ_ONCE(n->heard))))
		return -EMSGSIZE;
	return 0;
}

/* the neighbours: *pos is the place in the list */
static int dsr_walk_neigh(struct dsr_dump *d, long *pos)
{
	const struct dsr_neigh *n;
	long k = 0;
	void *hdr;

	list_for_each_entry(n, &d->priv->neighs, list) {
		if (k++ < *pos)
			continue;
		if (dsr_dump_spent(d))
			return -EAGAIN;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_neigh(d->skb, d->priv, n, d->now)))
			return -EMSGSIZE;
		(*pos)++;
	}
	return 0;
}

static int dsr_nl_sendbuf(struct sk_buff *msg, const struct sk_buff *skb,
			  u64 now)
{
	if (nla_put_u8(msg, DSR_A_BUFFER, DSR_BUFFER_SEND) ||
	    nla_put_in_addr(msg, DSR_A_DST, ip_hdr(skb)->daddr) ||
	    nla_put_u32(msg, DSR_A_LEN, skb->len) ||
	    nla_put_u32(msg, DSR_A_AGE_MS,
			dsr_ms_since(now, DSR_CB(skb)->time)))
		return -EMSGSIZE;
	return 0;
}

/* the send buffer: *pos is the place in the queue */
static int dsr_walk_sendbuf(struct dsr_dump *d, long *pos)
{
	struct sk_buff *skb;
	long k = 0;
	void *hdr;

	skb_queue_walk(&d->priv->sendbuf, skb) {
		if (k++ < *pos)
			continue;
		if (dsr_dump_spent(d))
			return -EAGAIN;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_sendbuf(d->skb, skb, d->now)))
			return -EMSGSIZE;
		(*pos)++;
	}
	return 0;
}

static int dsr_nl_maint(struct sk_buff *msg, const struct dsr_maint *m,
			u64 now)
{
	if (nla_put_u8(msg, DSR_A_BUFFER, DSR_BUFFER_MAINT) ||
	    nla_put_in_addr(msg, DSR_A_DST, m->daddr) ||
	    nla_put_in_addr(msg, DSR_A_NEXTHOP, m->nexthop) ||
	    nla_put_u32(msg, DSR_A_LEN, m->skb->len) ||
	    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, m->sent)) ||
	    nla_put_u32(msg, DSR_A_TRIES, m->tries))
		return -EMSGSIZE;
	return 0;
}

/* the maintenance buffer: *pos is the place in the list */
static int dsr_walk_maint(struct dsr_dump *d, long *pos)
{
	const struct dsr_maint *m;
	long k = 0;
	void *hdr;

	list_for_each_entry(m, &d->priv->maint, list) {
		if (k++ < *pos)
			continue;
		if (dsr_dump_spent(d))
			return -EAGAIN;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_maint(d->skb, m, d->now)))
			return -EMSGSIZE;
		(*pos)++;
	}
	return 0;
}

static int dsr_nl_rreq(struct sk_buff *msg, const struct dsr_rreq_node *e,
		       u64 now)
{
	if (nla_put_in_addr(msg, DSR_A_ADDR, e->initiator) ||
	    nla_put_u32(msg, DSR_A_IDS, e->n) ||
	    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, e->heard)))
		return -EMSGSIZE;
	return 0;
}

/* the request table's initiators: *pos is the slot */
static int dsr_walk_rreq(struct dsr_dump *d, long *pos)
{
	const struct dsr_rreq_table *rt = &d->priv->rt;
	void *hdr;

	for (; *pos < rt->size; (*pos)++) {
		const struct dsr_rreq_node *e = &rt->node[*pos];

		if (dsr_dump_spent(d))
			return -EAGAIN;
		if (!e->initiator)
			continue;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_rreq(d->skb, e, d->now)))
			return -EMSGSIZE;
	}
	return 0;
}

static int dsr_nl_disc(struct sk_buff *msg, const struct dsr_disc *c,
		       u64 now)
{
	if (nla_put_in_addr(msg, DSR_A_DST, c->target) ||
	    nla_put_u32(msg, DSR_A_TRIES, c->tries) ||
	    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, c->started)))
		return -EMSGSIZE;
	return 0;
}

/* the discoveries in progress: *pos is the place in the list */
static int dsr_walk_disc(struct dsr_dump *d, long *pos)
{
	const struct dsr_disc *c;
	long k = 0;
	void *hdr;

	list_for_each_entry(c, &d->priv->discs, list) {
		if (k++ < *pos)
			continue;
		if (dsr_dump_spent(d))
			return -EAGAIN;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_disc(d->skb, c, d->now)))
			return -EMSGSIZE;
		(*pos)++;
	}
	return 0;
}

static int dsr_nl_neg(struct sk_buff *msg, const struct dsr_neg_link *l,
		      u64 now)
{
	if (nla_put_in_addr(msg, DSR_A_ADDR, l->from) ||
	    nla_put_in_addr(msg, DSR_A_NEXTHOP, l->to) ||
	    nla_put_u32(msg, DSR_A_EXPIRES_MS, dsr_ms_until(now, l->until)))
		return -EMSGSIZE;
	return 0;
}

/* the negative cache: *pos is the slot */
static int dsr_walk_negcache(struct dsr_dump *d, long *pos)
{
	void *hdr;

	for (; *pos < DSR_NEG_MAX; (*pos)++) {
		const struct dsr_neg_link *l = &d->priv->rc.neg[*pos];

		if (dsr_dump_spent(d))
			return -EAGAIN;
		if (l->until <= d->now)
			continue;
		hdr = dsr_row_begin(d);
		if (!hdr || dsr_row_end(d, hdr, dsr_nl_neg(d->skb, l, d->now)))
			return -EMSGSIZE;
	}
	return 0;
}

static int dsr_nl_mc_group(struct sk_buff *msg, const struct dsr_mt_group *g,
			   const struct dsr_mch *ch)
{
	const struct dsr_mtag_cfg *t = &g->tag;

	if (nla_put_u8(msg, DSR_A_MC_ROW, DSR_MC_ROW_GROUP) ||
	    nla_put_in_addr(msg, DSR_A_MC_SOURCE, g->source) ||
	    nla_put_in_addr(msg, DSR_A_MC_GROUP, g->group) ||
	    nla_put_in_addr(msg, DSR_A_MC_UPSTREAM, g->upstream) ||
	    nla_put_u8(msg, DSR_A_MC_LAYERS, g->local) ||
	    nla_put_u8(msg, DSR_A_MC_ASKED, g->asked) ||
	    nla_put_u8(msg, DSR_A_MC_TAG_MODE, t->mode) ||
	    nla_put_u8(msg, DSR_A_MC_TAG_LAYERS, t->layers) ||
	    (g->igmp && nla_put_flag(msg, DSR_A_MC_LOCAL_IGMP)) ||
	    (g->igmp && g->mapped && nla_put_flag(msg, DSR_A_MC_MAPPED)) ||
	    nla_put(msg, DSR_A_MC_CHAIN, ch->n * sizeof(ch->e[0]), ch->e))
		return -EMSGSIZE;
	if (t->mode == DSR_MTAG_BYTE)
		return nla_put_u16(msg, DSR_A_MC_TAG_OFFSET, t->offset);
	if (nla_put_u8(msg, DSR_A_MC_TAG_EXT_ID, t->ext_id) ||
	    nla_put_u8(msg, DSR_A_MC_TAG_TIDS, t->tids))
		return -EMSGSIZE;
	return 0;
}

static int dsr_nl_mc_child(struct sk_buff *msg, const struct dsr_mt_group *g,
			   const struct dsr_mt_child *c, u64 now)
{
	if (nla_put_u8(msg, DSR_A_MC_ROW, DSR_MC_ROW_CHILD) ||
	    nla_put_in_addr(msg, DSR_A_MC_SOURCE, g->source) ||
	    nla_put_in_addr(msg, DSR_A_MC_GROUP, g->group) ||
	    nla_put_in_addr(msg, DSR_A_ADDR, c->addr) ||
	    nla_put_u8(msg, DSR_A_MC_LAYERS, c->layers) ||
	    nla_put_u32(msg, DSR_A_SLAVE, c->slave) ||
	    nla_put_u32(msg, DSR_A_EXPIRES_MS, dsr_ms_until(now, c->expires)))
		return -EMSGSIZE;
	return 0;
}

static int dsr_nl_mc_layer(struct sk_buff *msg, const struct dsr_mt_group *g,
			   const struct dsr_mc_stats *st, unsigned int l)
{
	static const u16 attr[DSR_MC_NSTAT] = {
		DSR_A_MC_FWD_PACKETS, DSR_A_MC_FWD_BYTES,
		DSR_A_MC_FILT_PACKETS, DSR_A_MC_FILT_BYTES,
		DSR_A_MC_LOCAL_PACKETS, DSR_A_MC_LOCAL_BYTES,
		DSR_A_MC_CAPPED_PACKETS, 0,	/* (bytes: not shown) */
	};
	unsigned int i;

	if (nla_put_u8(msg, DSR_A_MC_ROW, DSR_MC_ROW_LAYER) ||
	    nla_put_in_addr(msg, DSR_A_MC_SOURCE, g->source) ||
	    nla_put_in_addr(msg, DSR_A_MC_GROUP, g->group) ||
	    nla_put_u8(msg, DSR_A_MC_LAYER, l))
		return -EMSGSIZE;
	for (i = 0; i < DSR_MC_NSTAT; i++)
		if (attr[i] &&
		    nla_put_u64_64bit(msg, attr[i], st->v[i][l], DSR_A_PAD))
			return -EMSGSIZE;
	return 0;
}

/*
 * The multicast trees: *pos is the group's slot times the rows a group
 * may have (its row, a row a child, a row a layer counted) plus the row.
 */
#define DSR_MC_ROWS	(1 + DSR_MC_CHILDREN + DSR_MC_STAT_LAYERS)

static int dsr_walk_mcast(struct dsr_dump *d, long *pos)
{
	struct dsr_mcast *mc = &d->priv->mc;
	void *hdr;
	int err;

	for (; *pos < (long)mc->t.max_groups * DSR_MC_ROWS; (*pos)++) {
		const struct dsr_mt_group *g = &mc->t.g[*pos / DSR_MC_ROWS];
		unsigned int row = *pos % DSR_MC_ROWS;
		const struct dsr_mc_stats *st = &mc->st[*pos / DSR_MC_ROWS];

		if (!g->group) {
			*pos += DSR_MC_ROWS - 1 - row;
			continue;
		}
		if (dsr_dump_spent(d))
			return -EAGAIN;
		if (!row) {
			hdr = dsr_row_begin(d);
			err = hdr ? dsr_nl_mc_group(d->skb, g,
					dsr_mcast_chain_of(d->priv, g)) : 0;
		} else if (row <= DSR_MC_CHILDREN) {
			const struct dsr_mt_child *c = &g->child[row - 1];

			if (row > g->nchild || c->expires <= d->now)
				continue;
			hdr = dsr_row_begin(d);
			err = hdr ? dsr_nl_mc_child(d->skb, g, c, d->now) : 0;
		} else {
			unsigned int l = row - 1 - DSR_MC_CHILDREN;

			if (st->source != g->source || st->group != g->group ||
			    l >= st->top)
				continue;
			hdr = dsr_row_begin(d);
			err = hdr ? dsr_nl_mc_layer(d->skb, g, st, l) : 0;
		}
		if (!hdr || dsr_row_end(d, hdr, err))
			return -EMSGSIZE;
	}
	return 0;
}

/* the source map, after the trees: *pos is the map slot times its sources */
static int dsr_walk_mcmap(struct dsr_dump *d, long *pos)
{
	const struct dsr_mt_map *map = d->priv->mc.t.map;
	void *hdr;
	int err;

	for (; *pos < DSR_MT_MAP_GROUPS * DSR_MT_MAP_SOURCES; (*pos)++) {
		const struct dsr_mt_map *m = &map[*pos / DSR_MT_MAP_SOURCES];
		unsigned int k = *pos % DSR_MT_MAP_SOURCES;

		if (!m->group || k >= m->n)
			continue;
		if (dsr_dump_spent(d))
			return -EAGAIN;
		hdr = dsr_row_begin(d);
		err = hdr ? (nla_put_u8(d->skb, DSR_A_MC_ROW, DSR_MC_ROW_MAP) ||
			     nla_put_in_addr(d->skb, DSR_A_MC_GROUP, m->group) ||
			     nla_put_in_addr(d->skb, DSR_A_MC_SOURCE, m->src[k]) ?
			     -EMSGSIZE : 0) : 0;
		if (!hdr || dsr_row_end(d, hdr, err))
			return -EMSGSIZE;
	}
	return 0;
}

#define DSR_DUMP_FN(name, cmd, ...)					\
static int dsr_dump_##name(struct sk_buff *skb, struct netlink_callback *cb) \
{									\
	static const dsr_walk_t walk[] = { __VA_ARGS__ };		\
									\
	return dsr_dump(skb, cb, cmd, walk, ARRAY_SIZE(walk));		\
}

DSR_DUMP_FN(route, DSR_CMD_GET_ROUTE, dsr_walk_route)
DSR_DUMP_FN(neigh, DSR_CMD_GET_NEIGH, dsr_walk_neigh)
DSR_DUMP_FN(buffer, DSR_CMD_GET_BUFFER, dsr_walk_sendbuf, dsr_walk_maint)
DSR_DUMP_FN(reqtable, DSR_CMD_GET_REQTABLE, dsr_walk_rreq, dsr_walk_disc)
DSR_DUMP_FN(negcache, DSR_CMD_GET_NEGCACHE, dsr_walk_negcache)
DSR_DUMP_FN(mcast, DSR_CMD_GET_MCAST, dsr_walk_mcast, dsr_walk_mcmap)

/* ---- the family -------------------------------------------------------------------- */

#define DSR_DO(_cmd, _fn, _policy)					\
	{								\
		.cmd = _cmd,						\
		.doit = _fn,						\
		.policy = _policy,					\
		.maxattr = DSR_A_MAX,					\
		.flags = GENL_UNS_ADMIN_PERM,			\
	}

#define DSR_DUMP(_cmd, _fn)						\
	{								\
		.cmd = _cmd,						\
		.dumpit = _fn,						\
		.policy = dsr_dev_policy,				\
		.maxattr = DSR_A_MAX,					\
	}

static const struct genl_ops dsr_genl_ops[] = {
	{
		.cmd = DSR_CMD_GET_PARAMS,
		.doit = dsr_cmd_get_params,
		.policy = dsr_dev_policy,
		.maxattr = DSR_A_MAX,
	},
	DSR_DO(DSR_CMD_SET_PARAMS, dsr_cmd_set_params, dsr_set_params_policy),
	DSR_DO(DSR_CMD_ADD_ROUTE, dsr_cmd_add_route, dsr_route_policy),
	DSR_DO(DSR_CMD_DEL_ROUTE, dsr_cmd_del_route, dsr_route_policy),
	DSR_DO(DSR_CMD_FLUSH, dsr_cmd_flush, dsr_flush_policy),
	DSR_DUMP(DSR_CMD_GET_ROUTE, dsr_dump_route),
	DSR_DUMP(DSR_CMD_GET_NEIGH, dsr_dump_neigh),
	DSR_DUMP(DSR_CMD_GET_BUFFER, dsr_dump_buffer),
	DSR_DUMP(DSR_CMD_GET_REQTABLE, dsr_dump_reqtable),
	DSR_DUMP(DSR_CMD_GET_NEGCACHE, dsr_dump_negcache),
	DSR_DO(DSR_CMD_MCAST_JOIN, dsr_cmd_mcast, dsr_mcast_policy),
	DSR_DO(DSR_CMD_MCAST_LEAVE, dsr_cmd_mcast, dsr_mcast_policy),
	DSR_DO(DSR_CMD_MCAST_CHAIN, dsr_cmd_mcast_chain,
	       dsr_mcast_chain_policy),
	DSR_DO(DSR_CMD_MCAST_MAP, dsr_cmd_mcast_map, dsr_mcast_map_policy),
	DSR_DO(DSR_CMD_MCAST_UNMAP, dsr_cmd_mcast_map, dsr_mcast_map_policy),
	DSR_DUMP(DSR_CMD_GET_MCAST, dsr_dump_mcast),
};

/* events tell who routes through whom: only CAP_NET_ADMIN may listen */
#ifndef AH_MCGRP_ADMIN_ONLY
/* rather than send routing events to anyone, do not build (ah_compat.h) */
#error "dsr needs GENL_MCAST_CAP_NET_ADMIN (6.7, or a 6.1/6.6 stable kernel that has it)"
#endif
static const struct genl_multicast_group dsr_mcgrps[] = {
	[DSR_MCGRP_CONFIG_ID] = { .name = DSR_MCGRP_CONFIG },
	[DSR_MCGRP_EVENTS_ID] = {
		.name = DSR_MCGRP_EVENTS,
		.flags = AH_MCGRP_ADMIN_ONLY,
	},
};

static struct genl_family dsr_genl_family __ro_after_init = {
	.name = DSR_GENL_NAME,
	.version = DSR_GENL_VERSION,
	.maxattr = DSR_A_MAX,
	.netnsok = true,
	.pre_doit = dsr_pre_doit,
	.post_doit = dsr_post_doit,
	.module = THIS_MODULE,
	.ops = dsr_genl_ops,
	.n_ops = ARRAY_SIZE(dsr_genl_ops),
	/*
	 * Every command is validated as a new one: reserved header field
	 * and unknown netlink flags refused, attributes parsed strictly
	 * (unknown or unexpected ones refused).
	 */
	.resv_start_op = 0,
	.mcgrps = dsr_mcgrps,
	.n_mcgrps = ARRAY_SIZE(dsr_mcgrps),
};

int dsr_genl_init(void)
{
	int err;

	/* ahctl's limit on a route (uapi) is the kernel's */
	BUILD_BUG_ON(DSR_MAX_ADDRS != DSR_MAX_PATH);
	/* the DSR_A_PARAMS nest holds the parameters and nothing else */
	BUILD_BUG_ON(DSR_A_P_FIRST != 1 || DSR_A_P_LAST != DSR_A_P_MAX);
	err = dsr_params_policy_check();
	if (err)
		return err;
	dsr_event_init(&dsr_genl_family);
	return genl_register_family(&dsr_genl_family);
}

void dsr_genl_exit(void)
{
	genl_unregister_family(&dsr_genl_family);
}
