// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dsr".  Every request names a dsr device; changes
 * run under RTNL (taken in pre_doit with the lookup, as batman-adv does),
 * need CAP_NET_ADMIN and are announced on the "config" group; routing
 * events go to the "events" group.  Dumps copy out under the device lock.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "ah_genl.h"
#include "compat.h"
#include "dsr.h"

static struct genl_family dsr_genl_family;

enum { DSR_MCGRP_CONFIG_ID, DSR_MCGRP_EVENTS_ID };

#define DSR_DEV_POLICY \
	[DSR_A_IFINDEX] = { .type = NLA_U32 }, \
	[DSR_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 }

static const struct nla_policy dsr_dev_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
};

static const struct nla_policy dsr_params_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_P_FIRST ... DSR_A_P_LAST] = { .type = NLA_U32 },
};

static const struct nla_policy dsr_route_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_DST] = { .type = NLA_U32 },
	[DSR_A_HOPS] = { .type = NLA_BINARY, .len = 4 * DSR_MAX_PATH },
};

static const struct nla_policy dsr_flush_policy[DSR_A_MAX + 1] = {
	DSR_DEV_POLICY,
	[DSR_A_FLUSH] = NLA_POLICY_MASK(NLA_U32, DSR_FLUSH_ALL),
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

static int dsr_pre_doit(const struct dsr_genl_ops_t *ops, struct sk_buff *skb,
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

static void dsr_post_doit(const struct dsr_genl_ops_t *ops,
			  struct sk_buff *skb, struct genl_info *info)
{
	rtnl_unlock();
}

static int dsr_put_dev(struct sk_buff *msg, const struct dsr_priv *priv)
{
	if (nla_put_u32(msg, DSR_A_IFINDEX, priv->dev->ifindex) ||
	    nla_put_string(msg, DSR_A_IFNAME, priv->dev->name))
		return -EMSGSIZE;
	return 0;
}

/* ---- parameters ------------------------------------------------------------- */

static struct sk_buff *dsr_params_msg(struct dsr_priv *priv, u32 portid,
				      u32 seq, u8 cmd)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	void *hdr;
	int a;

	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, portid, seq, &dsr_genl_family, 0, cmd);
	if (!hdr || dsr_put_dev(msg, priv))
		goto fail;
	for (a = DSR_A_P_FIRST; a <= DSR_A_P_LAST; a++)
		if (nla_put_u32(msg, a, priv->param[a - DSR_A_P_FIRST]))
			goto fail;
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
	spin_lock_bh(&priv->lock);
	old_paths = paths ? priv->rc.paths : NULL;
	if (paths) {
		priv->rc.paths = paths;
		priv->rc.cap = rcs;
	}
	if (new_rt) {
		old_rt = priv->rt;
		priv->rt = rt;
	}
	spin_unlock_bh(&priv->lock);
	kvfree(old_paths);
	dsr_rreq_destroy(&old_rt);
	return 0;
nomem:
	NL_SET_ERR_MSG(extack, "no memory for the new table size");
	return -ENOMEM;
}

static int dsr_cmd_set_params(struct sk_buff *skb, struct genl_info *info)
{
	struct dsr_priv *priv = info->user_ptr[0];
	u32 np[DSR_NPARAMS];
	int a, err;

	memcpy(np, priv->param, sizeof(np));
	for (a = DSR_A_P_FIRST; a <= DSR_A_P_LAST; a++) {
		struct nlattr *attr = info->attrs[a];

		if (!attr)
			continue;
		switch (dsr_param_check(a, nla_get_u32(attr))) {
		case DSR_PARAM_BELOW:
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "value below the parameter's minimum");
			return -ERANGE;
		case DSR_PARAM_ABOVE:
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "value above the parameter's maximum");
			return -ERANGE;
		case DSR_PARAM_OK:
			break;
		}
		np[a - DSR_A_P_FIRST] = nla_get_u32(attr);
	}
	if (np[DSR_A_P_RTO_MIN_MS - DSR_A_P_FIRST] >
	    np[DSR_A_P_RTO_MAX_MS - DSR_A_P_FIRST]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[DSR_A_P_RTO_MIN_MS] ? :
				    info->attrs[DSR_A_P_RTO_MAX_MS],
				    "rto_min_ms is above rto_max_ms");
		return -EINVAL;
	}
	err = dsr_resize_tables(priv, np, info->extack);
	if (err)
		return err;
	spin_lock_bh(&priv->lock);
	for (a = 0; a < DSR_NPARAMS; a++)
		WRITE_ONCE(priv->param[a], np[a]);
	priv->rc.timeout = np[DSR_A_P_ROUTE_CACHE_TIMEOUT_MS - DSR_A_P_FIRST];
	spin_unlock_bh(&priv->lock);
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
	spin_lock_bh(&priv->lock);
	r = dsr_rc_add(&priv->rc, hops, n, DSR_PATH_STATIC, dsr_now());
	if (r >= 0)
		dsr_sendbuf_drain(priv, &out);
	dsr_out_commit(priv, &out);
	spin_unlock_bh(&priv->lock);
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
	spin_lock_bh(&priv->lock);
	n = dsr_rc_del_dst(&priv->rc, nla_get_in_addr(info->attrs[DSR_A_DST]));
	spin_unlock_bh(&priv->lock);
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
	spin_lock_bh(&priv->lock);
	if (what & DSR_FLUSH_ROUTES)
		dsr_rc_flush(&priv->rc);
	if (what & DSR_FLUSH_NEGCACHE)
		dsr_neg_flush(&priv->rc);
	if (what & DSR_FLUSH_SENDBUF) {
		skb_queue_purge(&priv->sendbuf);
		priv->sendbuf_bytes = 0;
	}
	if (what & DSR_FLUSH_REQTABLE)
		dsr_rreq_flush(&priv->rt);
	spin_unlock_bh(&priv->lock);
	return 0;
}

/* ---- dumps ---------------------------------------------------------------------- */

/*
 * One row per message.  fill() puts the attributes of row idx, or returns
 * -ENOENT past the end.  cb->args[0] is the next row.
 */
typedef int (*dsr_fill_t)(struct sk_buff *msg, struct dsr_priv *priv,
			  long idx, u64 now);

static int dsr_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    u8 cmd, dsr_fill_t fill)
{
	struct net_device *dev;
	struct dsr_priv *priv;
	u64 now = dsr_now();
	int err = 0;

	rtnl_lock();
	dev = dsr_lookup(sock_net(skb->sk), dsr_dump_attrs(cb), cb->extack);
	if (IS_ERR(dev)) {
		rtnl_unlock();
		return PTR_ERR(dev);
	}
	priv = netdev_priv(dev);
	spin_lock_bh(&priv->lock);
	while (!priv->dead) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &dsr_genl_family,
					NLM_F_MULTI, cmd);

		if (!hdr)
			break;
		err = dsr_put_dev(skb, priv);
		if (!err)
			err = fill(skb, priv, cb->args[0], now);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0]++;
	}
	spin_unlock_bh(&priv->lock);
	rtnl_unlock();
	if (err && err != -ENOENT && !skb->len)
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

static int dsr_fill_route(struct sk_buff *msg, struct dsr_priv *priv,
			  long idx, u64 now)
{
	const struct dsr_path *p = NULL;
	long i, k = 0;

	for (i = 0; i < priv->rc.cap; i++) {
		const struct dsr_path *x = &priv->rc.paths[i];

		if (!x->len || (!(x->flags & DSR_PATH_STATIC) &&
				x->expires <= now))
			continue;
		if (k++ == idx) {
			p = x;
			break;
		}
	}
	if (!p)
		return -ENOENT;
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

static int dsr_fill_neigh(struct sk_buff *msg, struct dsr_priv *priv,
			  long idx, u64 now)
{
	struct dsr_neigh *n;
	long k = 0;

	list_for_each_entry(n, &priv->neighs, list) {
		if (k++ != idx)
			continue;
		if (nla_put_in_addr(msg, DSR_A_ADDR, n->addr) ||
		    nla_put(msg, DSR_A_MAC, ETH_ALEN, n->mac) ||
		    nla_put_u32(msg, DSR_A_SLAVE, n->slave->dev->ifindex) ||
		    nla_put_u32(msg, DSR_A_RTO_MS, n->rto_ms) ||
		    nla_put_u32(msg, DSR_A_SRTT_US, n->rtt.srtt) ||
		    nla_put_u32(msg, DSR_A_RTTVAR_US, n->rtt.rttvar) ||
		    nla_put_u32(msg, DSR_A_RTT_SAMPLES, n->rtt.samples) ||
		    nla_put_u64_64bit(msg, DSR_A_TX, n->tx, DSR_A_PAD) ||
		    nla_put_u64_64bit(msg, DSR_A_RETX, n->retx, DSR_A_PAD) ||
		    nla_put_u64_64bit(msg, DSR_A_ACKED, n->acked, DSR_A_PAD) ||
		    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, n->heard)))
			return -EMSGSIZE;
		return 0;
	}
	return -ENOENT;
}

static int dsr_fill_buffer(struct sk_buff *msg, struct dsr_priv *priv,
			   long idx, u64 now)
{
	struct dsr_maint *m;
	struct sk_buff *skb;
	long k = 0;

	skb_queue_walk(&priv->sendbuf, skb) {
		if (k++ != idx)
			continue;
		if (nla_put_u8(msg, DSR_A_BUFFER, DSR_BUFFER_SEND) ||
		    nla_put_in_addr(msg, DSR_A_DST, ip_hdr(skb)->daddr) ||
		    nla_put_u32(msg, DSR_A_LEN, skb->len) ||
		    nla_put_u32(msg, DSR_A_AGE_MS,
				dsr_ms_since(now, DSR_CB(skb)->time)))
			return -EMSGSIZE;
		return 0;
	}
	list_for_each_entry(m, &priv->maint, list) {
		if (k++ != idx)
			continue;
		if (nla_put_u8(msg, DSR_A_BUFFER, DSR_BUFFER_MAINT) ||
		    nla_put_in_addr(msg, DSR_A_DST, m->daddr) ||
		    nla_put_in_addr(msg, DSR_A_NEXTHOP, m->nexthop) ||
		    nla_put_u32(msg, DSR_A_LEN, m->skb->len) ||
		    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, m->sent)) ||
		    nla_put_u32(msg, DSR_A_TRIES, m->tries))
			return -EMSGSIZE;
		return 0;
	}
	return -ENOENT;
}

static int dsr_fill_reqtable(struct sk_buff *msg, struct dsr_priv *priv,
			     long idx, u64 now)
{
	struct dsr_disc *d;
	unsigned int i;
	long k = 0;

	for (i = 0; i < priv->rt.size; i++) {
		const struct dsr_rreq_node *e = &priv->rt.node[i];

		if (!e->initiator || k++ != idx)
			continue;
		if (nla_put_in_addr(msg, DSR_A_ADDR, e->initiator) ||
		    nla_put_u32(msg, DSR_A_IDS, e->n) ||
		    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, e->heard)))
			return -EMSGSIZE;
		return 0;
	}
	list_for_each_entry(d, &priv->discs, list) {
		if (k++ != idx)
			continue;
		if (nla_put_in_addr(msg, DSR_A_DST, d->target) ||
		    nla_put_u32(msg, DSR_A_TRIES, d->tries) ||
		    nla_put_u32(msg, DSR_A_AGE_MS, dsr_ms_since(now, d->started)))
			return -EMSGSIZE;
		return 0;
	}
	return -ENOENT;
}

static int dsr_fill_negcache(struct sk_buff *msg, struct dsr_priv *priv,
			     long idx, u64 now)
{
	unsigned int i;
	long k = 0;

	for (i = 0; i < DSR_NEG_MAX; i++) {
		const struct dsr_neg_link *l = &priv->rc.neg[i];

		if (l->until <= now || k++ != idx)
			continue;
		if (nla_put_in_addr(msg, DSR_A_ADDR, l->from) ||
		    nla_put_in_addr(msg, DSR_A_NEXTHOP, l->to) ||
		    nla_put_u32(msg, DSR_A_EXPIRES_MS, dsr_ms_until(now, l->until)))
			return -EMSGSIZE;
		return 0;
	}
	return -ENOENT;
}

#define DSR_DUMP_FN(name, cmd)						\
static int dsr_dump_##name(struct sk_buff *skb, struct netlink_callback *cb) \
{									\
	return dsr_dump(skb, cb, cmd, dsr_fill_##name);			\
}

DSR_DUMP_FN(route, DSR_CMD_GET_ROUTE)
DSR_DUMP_FN(neigh, DSR_CMD_GET_NEIGH)
DSR_DUMP_FN(buffer, DSR_CMD_GET_BUFFER)
DSR_DUMP_FN(reqtable, DSR_CMD_GET_REQTABLE)
DSR_DUMP_FN(negcache, DSR_CMD_GET_NEGCACHE)

/* ---- events ---------------------------------------------------------------------- */

void dsr_event(struct dsr_priv *priv, u8 event, __be32 addr, __be32 nexthop,
	       __be32 dst, const __be32 *hops, unsigned int n)
{
	struct net *net = dev_net(priv->dev);
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&dsr_genl_family, net, DSR_MCGRP_EVENTS_ID))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &dsr_genl_family, 0, DSR_CMD_EVENT);
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
	genlmsg_multicast_netns(&dsr_genl_family, net, msg, 0,
				DSR_MCGRP_EVENTS_ID, GFP_ATOMIC);
}

/* ---- the family -------------------------------------------------------------------- */

#define DSR_DO(_cmd, _fn, _policy)					\
	{								\
		.cmd = _cmd,						\
		.doit = _fn,						\
		.policy = _policy,					\
		.maxattr = DSR_A_MAX,					\
		.flags = GENL_ADMIN_PERM,				\
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
	DSR_DO(DSR_CMD_SET_PARAMS, dsr_cmd_set_params, dsr_params_policy),
	DSR_DO(DSR_CMD_ADD_ROUTE, dsr_cmd_add_route, dsr_route_policy),
	DSR_DO(DSR_CMD_DEL_ROUTE, dsr_cmd_del_route, dsr_route_policy),
	DSR_DO(DSR_CMD_FLUSH, dsr_cmd_flush, dsr_flush_policy),
	DSR_DUMP(DSR_CMD_GET_ROUTE, dsr_dump_route),
	DSR_DUMP(DSR_CMD_GET_NEIGH, dsr_dump_neigh),
	DSR_DUMP(DSR_CMD_GET_BUFFER, dsr_dump_buffer),
	DSR_DUMP(DSR_CMD_GET_REQTABLE, dsr_dump_reqtable),
	DSR_DUMP(DSR_CMD_GET_NEGCACHE, dsr_dump_negcache),
};

static const struct genl_multicast_group dsr_mcgrps[] = {
	[DSR_MCGRP_CONFIG_ID] = { .name = DSR_MCGRP_CONFIG },
	[DSR_MCGRP_EVENTS_ID] = { .name = DSR_MCGRP_EVENTS },
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
	.resv_start_op = DSR_CMD_MAX + 1,
	.mcgrps = dsr_mcgrps,
	.n_mcgrps = ARRAY_SIZE(dsr_mcgrps),
};

int dsr_genl_init(void)
{
	return genl_register_family(&dsr_genl_family);
}

void dsr_genl_exit(void)
{
	genl_unregister_family(&dsr_genl_family);
}
