// SPDX-License-Identifier: GPL-2.0
/*
 * Layered multicast over DSR (issue 19, docs/mcast.md): the device's side
 * of the trees of mtree.c, the tags of mcast_tag.c and the joins of
 * mjoin.c.
 *
 * A receiver's join (ahctl dsr mcast join, dsr_mcast_local()) makes a
 * group whose upstream is the first hop of our route to its source; a
 * join goes there at once and every refresh period after
 * (dsr_mcast_tick()), one hop, in a DSR packet of Next Header
 * DSR_MC_JOIN_PROTO.  A node that takes a join (dsr_mcast_rx_join())
 * adds the sender as a child and joins upstream in turn, so joins climb
 * the routes to the source.  Without a route to the source the node asks
 * for one (a Route Discovery) and joins once it has it; a route that
 * changes makes the next refresh join along the new one at once (the
 * old path's child entries expire).
 *
 * A packet the source's stack sends to the group on dsr0
 * (dsr_mcast_xmit()), and one a node takes from upstream
 * (dsr_mcast_rx()), goes to each child that asked for its layer: a copy
 * in IP-in-IP (outer: us to the child), sent as any unicast packet of
 * ours, along its route with Route Maintenance.  The inner packet's TTL
 * falls by one at each relay, as IP multicast routing does (a sender sets
 * IP_MULTICAST_TTL above the tree's depth).  A node whose local
 * receivers asked for the layer delivers the inner packet on dsr0, where
 * sockets that joined the group on dsr0 get it.  Duplicates (the same
 * packet by two paths while a route changes, a retransmitted copy) are
 * dropped by the duplicate cache (kind DSR_DUP_MCAST).
 *
 * Where at least mcast_bcast_min children of a group are reached on one
 * slave, a packet whose layer any of them asked for goes there once, as a
 * link-layer broadcast (outer destination: the group; no Route
 * Maintenance, as a Route Request); the children drop what is above their
 * own levels.  Everything here runs under priv->lock.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/ip.h>

#include "dsr.h"
#include "migmp.h"
#include "mjoin.h"

int dsr_mcast_init(struct dsr_priv *priv)
{
	struct dsr_mcast *mc = &priv->mc;
	struct dsr_mt_params p;

	BUILD_BUG_ON((int)DSR_MC_TAG_BYTE != (int)DSR_MTAG_BYTE ||
		     (int)DSR_MC_TAG_RTP != (int)DSR_MTAG_RTP);
	dsr_mt_params_default(&p);
	p.bcast_min = DSR_P(priv, MCAST_BCAST_MIN);
	if (dsr_mt_init(&mc->t, DSR_MC_GROUPS, DSR_MC_CHILDREN, &p))
		return -ENOMEM;
	mc->st = kvcalloc(DSR_MC_GROUPS, sizeof(*mc->st), GFP_KERNEL);
	if (!mc->st)
		goto err_t;
	mc->chain = kvcalloc(DSR_MC_GROUPS, sizeof(*mc->chain), GFP_KERNEL);
	if (!mc->chain)
		goto err_st;
	dsr_mch_default(&mc->def);
	if (dsr_rl_init(&mc->rl_join, DSR_RL_BUCKETS, DSR_MC_JOIN_RATE,
			DSR_MC_JOIN_RATE, get_random_u32()))
		goto err_chain;
	return 0;
err_chain:
	kvfree(mc->chain);
err_st:
	kvfree(mc->st);
err_t:
	dsr_mt_destroy(&mc->t);
	return -ENOMEM;
}

/* (no packet or request runs any more: the device is gone) */
void dsr_mcast_destroy(struct dsr_priv *priv)
{
	unsigned int i;

	for (i = 0; priv->mc.chain && i < DSR_MC_GROUPS; i++)
		kfree(rcu_dereference_protected(priv->mc.chain[i], 1));
	kvfree(priv->mc.chain);
	priv->mc.chain = NULL;
	dsr_rl_destroy(&priv->mc.rl_join);
	kvfree(priv->mc.st);
	priv->mc.st = NULL;
	dsr_mt_destroy(&priv->mc.t);
}

bool dsr_mcast_has_work(const struct dsr_priv *priv)
{
	return priv->mc.t.ngroups;
}

/* ---- counters ------------------------------------------------------------ */

static struct dsr_mc_stats *dsr_mc_st(struct dsr_mcast *mc,
				      const struct dsr_mt_group *g)
{
	struct dsr_mc_stats *st = &mc->st[g - mc->t.g];

	if (st->source != g->source || st->group != g->group) {
		memset(st, 0, sizeof(*st));
		st->source = g->source;
		st->group = g->group;
	}
	return st;
}

static void dsr_mc_count(struct dsr_mcast *mc, const struct dsr_mt_group *g,
			 u8 layer, enum dsr_mc_stat what, unsigned int n,
			 unsigned int bytes)
{
	struct dsr_mc_stats *st = dsr_mc_st(mc, g);
	unsigned int l = min_t(unsigned int, layer, DSR_MC_STAT_LAYERS - 1);

	if (!n)
		return;
	st->v[what][l] += n;
	st->v[what + 1][l] += (u64)n * bytes;
	st->top = max_t(u8, st->top, l + 1);
}

static void dsr_mc_tree_res(struct dsr_priv *priv, enum dsr_mt_res r)
{
	if (r != DSR_MT_OK)
		dsr_stat(priv, DSR_S_MCAST_TREE_FIRST + r - 1);
}

/* ---- joins between nodes ----------------------------------------------------- */

static void dsr_mc_send_join(struct dsr_priv *priv,
			     const struct dsr_mt_group *g, u8 layers,
			     struct sk_buff_head *out)
{
	struct dsr_mjoin j = {
		.source = g->source, .group = g->group, .layers = layers,
		.tag = g->tag,
	};
	struct sk_buff *skb;
	struct iphdr *iph;

	skb = dsr_ctrl_alloc(priv, DSR_MJ_LEN, dsr_self(priv), g->upstream,
			     IPDEFTTL);
	if (!skb)
		return;
	iph = ip_hdr(skb);
	iph->protocol = DSR_MC_JOIN_PROTO;
	ip_send_check(iph);
	dsr_mjoin_put(skb->data + sizeof(*iph), &j);
	dsr_stat(priv, layers ? DSR_S_MCAST_JOIN_SENT : DSR_S_MCAST_LEAVE_SENT);
	dsr_route_or_queue(priv, skb, out);
}

/*
 * The group's upstream: the first hop of our route to its source (none
 * when we are the source); without a route, a Route Discovery for it.
 */
static void dsr_mc_find_upstream(struct dsr_priv *priv,
				 struct dsr_mt_group *g,
				 struct sk_buff_head *out)
{
	__be32 hops[DSR_MAX_PATH];
	unsigned int n;

	if (dsr_is_self(priv, g->source)) {
		dsr_mt_set_upstream(g, 0);
		return;
	}
	n = dsr_rc_lookup(&priv->rc, g->source, hops, dsr_now(priv));
	dsr_mt_set_upstream(g, n ? hops[0] : 0);
	if (!n && dsr_mt_want(&priv->mc.t, g, dsr_now(priv)))
		dsr_disc_start(priv, g->source, out);
}

/* After a change of g: a rise of what it needs goes upstream at once. */
static void dsr_mc_changed(struct dsr_priv *priv, struct dsr_mt_group *g,
			   struct sk_buff_head *out)
{
	u8 layers;

	dsr_mc_find_upstream(priv, g, out);
	if (dsr_mt_upstream(&priv->mc.t, g, dsr_now(priv), &layers) ==
	    DSR_MT_UP_RISE && g->upstream)
		dsr_mc_send_join(priv, g, layers, out);
	dsr_kick(priv);
}

/* A join (or leave) at off of skb, from the neighbour from on slave s. */
void dsr_mcast_rx_join(struct dsr_priv *priv, struct sk_buff *skb,
		       unsigned int off, __be32 from, struct dsr_slave *s,
		       struct sk_buff_head *out)
{
	struct dsr_mcast *mc = &priv->mc;
	u64 now = dsr_now(priv);
	u8 buf[DSR_MJ_LEN];
	struct dsr_mt_group *g;
	struct dsr_mjoin j;
	enum dsr_mt_res r;
	const u8 *d;

	d = skb->len >= off + DSR_MJ_LEN ?
	    skb_header_pointer(skb, off, DSR_MJ_LEN, buf) : NULL;
	if (!d || dsr_mjoin_get(d, DSR_MJ_LEN, &j) != DSR_MJ_OK) {
		dsr_stat(priv, DSR_S_MCAST_JOIN_BAD);
		return;
	}
	if (!dsr_rl_allow(&mc->rl_join, &from, sizeof(from), now)) {
		dsr_stat(priv, DSR_S_MCAST_JOIN_LIMITED);
		return;
	}
	dsr_stat(priv, DSR_S_MCAST_JOIN_RECEIVED);
	if (!j.layers) {
		dsr_mc_tree_res(priv, dsr_mt_leave(&mc->t, j.source, j.group,
						   from));
		return;
	}
	r = dsr_mt_join(&mc->t, j.source, j.group, from, s->dev->ifindex,
			j.layers, now);
	dsr_mc_tree_res(priv, r);
	if (r != DSR_MT_OK)
		return;
	g = dsr_mt_find(&mc->t, j.source, j.group);
	if (!g)
		return;
	g->tag = j.tag;
	dsr_mc_changed(priv, g, out);
}

/* a group a local receiver made: every layer, by a byte, until told */
static void dsr_mc_default_tag(struct dsr_mt_group *g)
{
	if (!g->tag.layers) {
		g->tag.mode = DSR_MTAG_BYTE;
		g->tag.layers = DSR_MTAG_MAX_LAYERS;
	}
}

/* Local receivers of (source, group) want layers (0: none any more). */
int dsr_mcast_local(struct dsr_priv *priv, __be32 source, __be32 group,
		    u8 layers, const struct dsr_mtag_cfg *tag,
		    struct netlink_ext_ack *extack, struct sk_buff_head *out)
{
	struct dsr_mcast *mc = &priv->mc;
	struct dsr_mt_group *g;
	enum dsr_mt_res r;

	if (tag && !dsr_mtag_cfg_ok(tag)) {
		NL_SET_ERR_MSG(extack, "invalid tag: layers 1..128, rtp: id 1..255, tids 0..8");
		return -EINVAL;
	}
	r = dsr_mt_local(&mc->t, source, group, layers, dsr_now(priv));
	dsr_mc_tree_res(priv, r);
	switch (r) {
	case DSR_MT_OK:
		break;
	case DSR_MT_NO_ENTRY:
		NL_SET_ERR_MSG(extack, "no local receivers of this source and group");
		return -ENOENT;
	case DSR_MT_GROUPS_FULL:
		NL_SET_ERR_MSG(extack, "the multicast table is full");
		return -ENOSPC;
	case DSR_MT_BAD_GROUP:
		NL_SET_ERR_MSG(extack, "group must be multicast, outside 224.0.0.0/24");
		return -EINVAL;
	case DSR_MT_BAD_SOURCE:
		NL_SET_ERR_MSG(extack, "source must be a routable unicast address");
		return -EINVAL;
	case DSR_MT_BAD_LAYERS:
		NL_SET_ERR_MSG(extack, "layers must be 1..128");
		return -EINVAL;
	default:
		NL_SET_ERR_MSG(extack, "join refused");
		return -EINVAL;
	}
	g = dsr_mt_find(&mc->t, source, group);
	if (!g)
		return 0;
	if (tag)
		g->tag = *tag;
	else
		dsr_mc_default_tag(g);
	dsr_mc_changed(priv, g, out);
	return 0;
}

/*
 * A local socket's join (join) or leave of (source, group); mapped: the
 * join of an any-source member, by the source map.  A socket's own
 * source-specific join of the same tree makes it not mapped.
 */
static void dsr_mc_igmp_one(struct dsr_priv *priv, __be32 source,
			    __be32 group, bool join, bool mapped,
			    struct sk_buff_head *out)
{
	struct dsr_mcast *mc = &priv->mc;
	struct dsr_mt_group *g;
	enum dsr_mt_res r;

	/* a report is sent more than once (robustness): count changes */
	g = dsr_mt_find(&mc->t, source, group);
	if (join && g && g->igmp) {
		g->mapped &= mapped;
		return;
	}
	r = dsr_mt_igmp(&mc->t, source, group, join, dsr_now(priv));
	if (r == DSR_MT_NO_ENTRY)	/* a leave repeated */
		return;
	dsr_mc_tree_res(priv, r);
	if (r != DSR_MT_OK)
		return;
	dsr_stat(priv, join ? DSR_S_MCAST_IGMP_JOIN : DSR_S_MCAST_IGMP_LEAVE);
	g = dsr_mt_find(&mc->t, source, group);
	if (!g || !join)
		return;		/* a fall goes upstream at the next refresh */
	g->mapped = mapped;
	dsr_mc_default_tag(g);
	dsr_mc_changed(priv, g, out);
}

/*
 * An any-source join of rec's group (IGMPv1/v2, or IGMPv3 EXCLUDE of
 * rec's sources): the trees of the group's mapped sources, but those it
 * excludes.  Without a map of the group there is no tree to join:
 * counted.
 */
static void dsr_mc_igmp_any(struct dsr_priv *priv,
			    const struct dsr_migmp_rec *rec,
			    struct sk_buff_head *out)
{
	const struct dsr_mt_map *m = dsr_mt_map_find(&priv->mc.t, rec->group);
	unsigned int i, k;

	if (!m) {
		dsr_stat(priv, DSR_S_MCAST_IGMP_ANY);
		return;
	}
	for (i = 0; i < m->n; i++) {
		for (k = 0; k < rec->nsrc; k++)
			if (dsr_migmp_src(rec, k) == m->src[i])
				break;
		if (k == rec->nsrc)
			dsr_mc_igmp_one(priv, m->src[i], rec->group, true,
					true, out);
	}
}

/*
 * An IGMP message our stack sends on dsr0 (migmp.h): a local socket's
 * source-specific joins and leaves of trees.  It is consumed here, never
 * sent on.  An any-source join joins the trees of the group's sources in
 * the source map (dsr_mc_igmp_any()).
 */
void dsr_mcast_igmp(struct dsr_priv *priv, struct sk_buff *skb)
{
	unsigned int ihl, len, n, i, k;
	struct dsr_migmp_rec rec;
	struct sk_buff_head out;
	const u8 *msg;
	size_t off = 0;

	if (skb_linearize(skb))
		goto bad;
	ihl = ip_hdrlen(skb);
	len = ntohs(ip_hdr(skb)->tot_len);
	if (len < ihl || len > skb->len - skb_network_offset(skb) ||
	    (ip_hdr(skb)->frag_off & htons(IP_MF | IP_OFFSET)))
		goto bad;
	msg = skb_network_header(skb) + ihl;
	len -= ihl;
	if (dsr_migmp_check(msg, len, &n) != DSR_MIGMP_OK)
		goto bad;
	__skb_queue_head_init(&out);
	dsr_lock(priv);
	for (i = 0; i < n && !priv->dead; i++) {
		dsr_migmp_next(msg, len, &off, &rec);
		switch (rec.op) {
		case DSR_MIGMP_ONLY:
			/*
			 * Linux sends TO_IN(sources) only on a change from
			 * EXCLUDE (any-source, no join of ours) and splits a
			 * long one over several reports: the sources are
			 * joins; only TO_IN({}) (the group left) ends them.
			 */
			if (!rec.nsrc)
				dsr_stat_add(priv, DSR_S_MCAST_IGMP_LEAVE,
					     dsr_mt_igmp_only(&priv->mc.t,
							      rec.group,
							      NULL, 0));
			fallthrough;
		case DSR_MIGMP_JOIN:
		case DSR_MIGMP_LEAVE:
			for (k = 0; k < rec.nsrc; k++)
				dsr_mc_igmp_one(priv, dsr_migmp_src(&rec, k),
						rec.group,
						rec.op != DSR_MIGMP_LEAVE,
						false, &out);
			break;
		case DSR_MIGMP_ANY:
			dsr_mc_igmp_any(priv, &rec, &out);
			break;
		default:
			break;
		}
	}
	dsr_out_commit(priv, &out);
	dsr_unlock(priv);
	dsr_out_flush(priv);
	consume_skb(skb);
	return;
bad:
	dsr_stat(priv, DSR_S_MCAST_IGMP_BAD);
	kfree_skb(skb);
}

/*
 * Whether a socket on dev is still a member of group (any_source: an any-source
 * member, the group's filter mode EXCLUDE: IGMPv2's join, or IGMPv3's
 * join with no source list).  A socket that leaves while dsr0 is down
 * sends no report (nor does the kernel report it after up), so every
 * refresh ends the sockets' joins of groups that no socket holds any
 * more.  (The group list is RCU; a group's sources are under its lock,
 * which transmit holds before ours: not read here.)
 */
static bool dsr_mc_member(struct net_device *dev, __be32 group,
			  bool any_source)
{
	const struct ip_mc_list *im;
	struct in_device *in_dev;
	bool found = false;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(dev);
	for (im = in_dev ? rcu_dereference(in_dev->mc_list) : NULL; im;
	     im = rcu_dereference(im->next_rcu)) {
		if (im->multiaddr == group) {
			found = !any_source || READ_ONCE(im->sfmode) == MCAST_EXCLUDE;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * The source map's joins of group (every group: 0): each any-source
 * member's (a membership on dsr0 in EXCLUDE mode) of each mapped source,
 * and the end of those whose member or mapping is gone.
 */
static void dsr_mc_map_sync(struct dsr_priv *priv, __be32 group,
			    struct sk_buff_head *out)
{
	struct dsr_mt_table *t = &priv->mc.t;
	unsigned int i, k;

	for (i = 0; i < DSR_MT_MAP_GROUPS; i++) {
		const struct dsr_mt_map *m = &t->map[i];

		if (!m->group || (group && m->group != group) ||
		    !dsr_mc_member(priv->dev, m->group, true))
			continue;
		for (k = 0; k < m->n; k++)
			dsr_mc_igmp_one(priv, m->src[k], m->group, true, true,
					out);
	}
	for (i = 0; i < t->max_groups; i++) {
		struct dsr_mt_group *g = &t->g[i];

		if (!g->group || !g->igmp || !g->mapped ||
		    (group && g->group != group))
			continue;
		if (!dsr_mt_map_has(t, g->group, g->source) ||
		    !dsr_mc_member(priv->dev, g->group, true))
			dsr_mc_igmp_one(priv, g->source, g->group, false,
					true, out);
	}
}

/*
 * MCAST_MAP, MCAST_UNMAP: source added to, or taken from (0: all of
 * them), group's sources in the source map, under the device lock.  An
 * any-source member of the group joins the new tree at once; the trees
 * the map joined for a mapping that went end at once.
 */
int dsr_mcast_map(struct dsr_priv *priv, __be32 group, __be32 source,
		  bool add, struct netlink_ext_ack *extack,
		  struct sk_buff_head *out)
{
	struct dsr_mt_table *t = &priv->mc.t;
	enum dsr_mt_map_res r;

	r = add ? dsr_mt_map_add(t, group, source) :
		  dsr_mt_map_del(t, group, source);
	switch (r) {
	case DSR_MT_MAP_OK:
		dsr_mc_map_sync(priv, group, out);
		return 0;
	case DSR_MT_MAP_BAD_GROUP:
		NL_SET_ERR_MSG(extack, "group must be multicast, not 224.0.0.0/24");
		return -EINVAL;
	case DSR_MT_MAP_BAD_SOURCE:
		NL_SET_ERR_MSG(extack, "source must be a routable unicast address");
		return -EINVAL;
	case DSR_MT_MAP_EXISTS:
		NL_SET_ERR_MSG(extack, "the group has that source already");
		return -EEXIST;
	case DSR_MT_MAP_GROUPS_FULL:
		NL_SET_ERR_MSG(extack, "the source map is full (16 groups)");
		return -ENOSPC;
	case DSR_MT_MAP_SOURCES_FULL:
		NL_SET_ERR_MSG(extack, "the group has 4 sources mapped already");
		return -ENOSPC;
	case DSR_MT_MAP_NO_ENTRY:
	default:
		if (source)
			NL_SET_ERR_MSG(extack, "the group has no such source in the map");
		else
			NL_SET_ERR_MSG(extack, "the group is not in the source map");
		return -ENOENT;
	}
}

/*
 * Every refresh period: children whose joins ended go, each group's
 * upstream is looked up again (a new route: a join along it at once),
 * and each group with an upstream joins it for what it needs now, or
 * leaves it.
 */
void dsr_mcast_tick(struct dsr_priv *priv, u64 now, struct sk_buff_head *out)
{
	struct dsr_mcast *mc = &priv->mc;
	unsigned int i;

	if (!mc->t.ngroups || now < mc->next_refresh)
		return;
	mc->next_refresh = now + mc->t.p.refresh_ms;
	dsr_mc_map_sync(priv, 0, out);
	dsr_mt_expire(&mc->t, now);
	for (i = 0; i < mc->t.max_groups; i++) {
		struct dsr_mt_group *g = &mc->t.g[i];
		struct dsr_mc_chain *old;
		enum dsr_mt_up r;
		u8 layers;

		if (!g->group) {
			/* a chain ends with its group's state */
			if (rcu_access_pointer(mc->chain[i])) {
				old = rcu_replace_pointer(mc->chain[i], NULL,
							  lockdep_is_held(&priv->lock));
				kfree_rcu(old, rcu);
			}
			continue;
		}
		if (g->igmp && !g->mapped && !dsr_mc_member(priv->dev, g->group, false) &&
		    dsr_mt_igmp(&mc->t, g->source, g->group, false, now) ==
		    DSR_MT_OK)
			dsr_stat(priv, DSR_S_MCAST_IGMP_LEAVE);
		dsr_mc_find_upstream(priv, g, out);
		r = dsr_mt_refresh(&mc->t, g, now, &layers);
		if (g->upstream && (layers || r == DSR_MT_UP_FALL))
			dsr_mc_send_join(priv, g, layers, out);
	}
}

/* ---- element chains ------------------------------------------------------------ */

/* g's chain (under the device lock) */
const struct dsr_mch *dsr_mcast_chain_of(struct dsr_priv *priv,
					 const struct dsr_mt_group *g)
{
	struct dsr_mcast *mc = &priv->mc;
	const struct dsr_mc_chain *ch;

	ch = rcu_dereference_protected(mc->chain[g - mc->t.g],
				       lockdep_is_held(&priv->lock));
	if (ch && ch->source == g->source && ch->group == g->group)
		return &ch->c;
	return &mc->def;
}

/*
 * The chain of (source, group) becomes ch (NULL: the default), under the
 * device lock: one pointer store; the old chain is freed after the
 * packets that may run through it.  ch is ours from here on.
 */
int dsr_mcast_chain(struct dsr_priv *priv, __be32 source, __be32 group,
		    struct dsr_mc_chain *ch, struct netlink_ext_ack *extack)
{
	struct dsr_mcast *mc = &priv->mc;
	struct dsr_mc_chain *old;
	struct dsr_mt_group *g;

	g = dsr_mt_find(&mc->t, source, group);
	if (!g) {
		NL_SET_ERR_MSG(extack, "no tree of this source and group here");
		kfree(ch);
		return -ENOENT;
	}
	if (ch) {
		ch->source = source;
		ch->group = group;
	}
	old = rcu_replace_pointer(mc->chain[g - mc->t.g], ch,
				  lockdep_is_held(&priv->lock));
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/* ---- packets ------------------------------------------------------------------ */

/*
 * The inner packet at off of skb (linear to its end, checked): its layer
 * by the group's tag, or false if the tag refuses it (counted).  A packet
 * other than UDP, or a fragment after the first, is the base layer.
 */
static bool dsr_mc_layer(struct dsr_priv *priv, const struct dsr_mt_group *g,
			 const struct sk_buff *skb, unsigned int off,
			 u8 *layer)
{
	const struct iphdr *in = (const struct iphdr *)(skb->data + off);
	unsigned int ihl = in->ihl * 4, len = ntohs(in->tot_len);
	enum dsr_mtag_res r;

	*layer = 0;
	if (in->protocol != IPPROTO_UDP || (in->frag_off & htons(IP_OFFSET)))
		return true;
	if (len < ihl + sizeof(struct udphdr)) {
		r = DSR_MTAG_TRUNCATED;
	} else {
		r = dsr_mtag_get(&g->tag, skb->data + off + ihl +
				 sizeof(struct udphdr),
				 len - ihl - sizeof(struct udphdr), layer);
	}
	if (r == DSR_MTAG_OK)
		return true;
	dsr_stat(priv, DSR_S_MCAST_TAG_FIRST + r - 1);
	return false;
}

/* Whether the inner packet at off was seen already (and now it was). */
static bool dsr_mc_dup(struct dsr_priv *priv, const struct sk_buff *skb,
		       unsigned int off)
{
	const struct iphdr *in = (const struct iphdr *)(skb->data + off);
	unsigned int ihl = in->ihl * 4, len = ntohs(in->tot_len);
	struct dsr_dup_key k;
	bool seen;
	u32 life;

	dsr_mt_dup_key(&k, in->saddr, in->daddr, in->id, in->frag_off,
		       in->protocol, skb->data + off + ihl, len - ihl);
	life = (DSR_HOLD_MAX_RTOS + DSR_P(priv, MAX_MAINT_REXMT) + 1) *
	       DSR_P(priv, RTO_MAX_MS);
	spin_lock(&priv->dup_lock);
	seen = dsr_dup_seen(&priv->dup, &k, dsr_now(priv), life);
	spin_unlock(&priv->dup_lock);
	return seen;
}

/*
 * The inner packet at off of skb, len bytes, in IP-in-IP to a child; or
 * with to 0, to the group's link-layer broadcast: then with its DSR
 * header (Next Header IP-in-IP, no option), ready for dsr_broadcast().
 */
static struct sk_buff *dsr_mc_encap(struct dsr_priv *priv,
				    const struct sk_buff *skb,
				    unsigned int off, unsigned int len,
				    __be32 to, bool relay)
{
	unsigned int hroom = LL_MAX_HEADER + DSR_MTU_RESERVE;
	struct iphdr *in, *outer;
	struct sk_buff *nskb;
	u8 *dh;

	nskb = alloc_skb(hroom + sizeof(*outer) + len, GFP_ATOMIC);
	if (!nskb) {
		dsr_stat(priv, DSR_S_NOMEM);
		return NULL;
	}
	skb_reserve(nskb, hroom + sizeof(*outer));
	in = skb_put(nskb, len);
	skb_copy_from_linear_data_offset(skb, off, in, len);
	if (relay)
		ip_decrease_ttl(in);
	if (!to) {
		dh = skb_push(nskb, DSR_HDR_LEN);
		dh[0] = IPPROTO_IPIP;	/* Next Header */
		dh[1] = 0;		/* F, reserved */
		dh[2] = 0;		/* Payload Length: no option */
		dh[3] = 0;
	}
	outer = skb_push(nskb, sizeof(*outer));
	skb_reset_network_header(nskb);
	skb_set_transport_header(nskb, sizeof(*outer));
	outer->version = 4;
	outer->ihl = 5;
	outer->tos = in->tos;
	outer->tot_len = htons(nskb->len);
	outer->id = htons((u16)atomic_inc_return(&priv->ip_id));
	outer->frag_off = 0;
	outer->ttl = to ? IPDEFTTL : 1;
	outer->protocol = to ? IPPROTO_IPIP : DSR_IPPROTO;
	outer->saddr = dsr_self(priv);
	outer->daddr = to ?: in->daddr;
	ip_send_check(outer);
	nskb->protocol = htons(ETH_P_IP);
	nskb->priority = skb->priority;
	return nskb;
}

/* The slave of this ifindex, or NULL (gone since the child joined). */
static struct dsr_slave *dsr_mc_slave(struct dsr_priv *priv, u32 ifindex)
{
	struct dsr_slave *s;

	list_for_each_entry(s, &priv->slaves, list)
		if (s->dev->ifindex == ifindex && !s->gone)
			return s;
	return NULL;
}

/* whether the chain's cap stops a packet of layer, len bytes (counted) */
static bool dsr_mc_capped(struct dsr_priv *priv, struct dsr_mt_group *g,
			  const struct dsr_mch *ch, u8 layer, unsigned int len)
{
	if (!ch->cap || layer < ch->cap)
		return false;
	dsr_mc_count(&priv->mc, g, layer, DSR_MC_CAP_P, 1, len);
	dsr_stat(priv, DSR_S_MCAST_CAPPED);
	return true;
}

/*
 * A copy of the inner packet at off to each child that asked for layer,
 * or one to a slave's broadcast where enough children share it.
 */
static void dsr_mc_fanout(struct dsr_priv *priv, struct dsr_mt_group *g,
			  const struct dsr_mch *ch, const struct sk_buff *skb,
			  unsigned int off, u8 layer, bool relay,
			  struct sk_buff_head *out)
{
	const struct iphdr *in = (const struct iphdr *)(skb->data + off);
	struct dsr_mt_copy *cp = priv->mc.cp;
	unsigned int len = ntohs(in->tot_len), i, n, live = 0;
	struct dsr_mcast *mc = &priv->mc;
	u64 now = dsr_now(priv);
	struct sk_buff *nskb;

	lockdep_assert_held(&priv->lock);	/* for mc->cp */
	for (i = 0; i < g->nchild; i++)
		if (g->child[i].expires > now)
			live++;
	if (!live)
		return;
	if (relay && in->ttl <= 1) {
		dsr_stat(priv, DSR_S_MCAST_TTL);
		return;
	}
	/*
	 * the children that did not ask for the layer; without the filter,
	 * every child gets every layer (as if it were the base layer)
	 */
	if (ch->filter) {
		for (i = 0, n = 0; i < g->nchild; i++)
			n += g->child[i].expires > now &&
			     g->child[i].layers <= layer;
		dsr_mc_count(mc, g, layer, DSR_MC_FILT_P, n, len);
	}
	mc->t.p.bcast_min = ch->bcast == DSR_MC_FANOUT_PARAM ?
			    DSR_P(priv, MCAST_BCAST_MIN) : ch->bcast;
	n = dsr_mt_fanout(&mc->t, g, ch->filter ? layer : 0, now, cp,
			  ARRAY_SIZE(priv->mc.cp));
	for (i = 0; i < n; i++) {
		struct dsr_slave *s = NULL;

		if (cp[i].bcast) {
			s = dsr_mc_slave(priv, cp[i].slave);
			if (!s)
				continue;
		}
		nskb = dsr_mc_encap(priv, skb, off, len,
				    cp[i].bcast ? 0 : cp[i].to, relay);
		if (!nskb)
			continue;
		dsr_mc_count(mc, g, layer, DSR_MC_FWD_P, 1, len);
		dsr_stat(priv, cp[i].bcast ? DSR_S_MCAST_BCAST :
			 DSR_S_MCAST_COPIES);
		if (cp[i].bcast)
			dsr_broadcast(priv, nskb, s, out);
		else
			dsr_route_or_queue(priv, nskb, out);
	}
}

/*
 * A packet the stack sent to a group on dsr0 (consumed): to the children
 * of the tree whose source we are.
 */
void dsr_mcast_xmit(struct dsr_priv *priv, struct sk_buff *skb,
		    struct sk_buff_head *out)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct dsr_mch *ch;
	struct dsr_mt_group *g;
	u8 layer;

	dsr_stat(priv, DSR_S_MCAST_TX);
	g = dsr_mt_find(&priv->mc.t, iph->saddr, iph->daddr);
	if (!g) {
		dsr_stat(priv, DSR_S_MCAST_NO_TREE);
		goto drop;
	}
	if ((skb->ip_summed == CHECKSUM_PARTIAL && skb_checksum_help(skb)) ||
	    skb_linearize(skb)) {
		dsr_stat(priv, DSR_S_NOMEM);
		goto drop;
	}
	ch = dsr_mcast_chain_of(priv, g);
	layer = 0;
	if (ch->tag && !dsr_mc_layer(priv, g, skb, 0, &layer))
		goto drop;
	if (ch->dup)
		dsr_mc_dup(priv, skb, 0);	/* (an echo of it is a duplicate) */
	if (dsr_mc_capped(priv, g, ch, layer, ntohs(iph->tot_len))) {
		consume_skb(skb);
		return;
	}
	if (ch->fanout)
		dsr_mc_fanout(priv, g, ch, skb, 0, layer, false, out);
	consume_skb(skb);
	return;
drop:
	dev_core_stats_tx_dropped_inc(priv->dev);
	kfree_skb(skb);
}

/*
 * Whether the packet inside an IP-in-IP packet (its inner header at off)
 * is multicast to a group that may be routed.
 */
bool dsr_mcast_inner(const struct sk_buff *skb, unsigned int off)
{
	struct iphdr buf;
	const struct iphdr *in = skb_header_pointer(skb, off, sizeof(buf),
						    &buf);

	return in && in->version == 4 && ipv4_is_multicast(in->daddr) &&
	       !ipv4_is_local_multicast(in->daddr);
}

/*
 * A multicast packet from upstream in IP-in-IP (its inner header at off
 * of skb, which is ours: not shared): copies to the children that asked
 * for its layer; true if local receivers take it (the caller delivers
 * it).
 */
bool dsr_mcast_rx(struct dsr_priv *priv, struct sk_buff *skb,
		  unsigned int off, struct sk_buff_head *out)
{
	struct dsr_mcast *mc = &priv->mc;
	const struct dsr_mch *ch;
	const struct iphdr *in;
	struct dsr_mt_group *g;
	unsigned int len;
	bool local;
	u8 layer;

	dsr_stat(priv, DSR_S_MCAST_RX);
	if (skb_linearize(skb)) {
		dsr_stat(priv, DSR_S_NOMEM);
		return false;
	}
	in = (const struct iphdr *)(skb->data + off);
	if (skb->len < off + sizeof(*in) || in->ihl < 5 ||
	    skb->len < off + in->ihl * 4 || ip_fast_csum(in, in->ihl)) {
		dsr_stat(priv, DSR_S_MCAST_MALFORMED);
		return false;
	}
	len = ntohs(in->tot_len);
	if (len < in->ihl * 4 || len > skb->len - off) {
		dsr_stat(priv, DSR_S_MCAST_MALFORMED);
		return false;
	}
	g = dsr_mt_find(&mc->t, in->saddr, in->daddr);
	if (!g) {
		dsr_stat(priv, DSR_S_MCAST_NO_TREE);
		return false;
	}
	ch = dsr_mcast_chain_of(priv, g);
	if (ch->dup && dsr_mc_dup(priv, skb, off)) {
		dsr_stat(priv, DSR_S_MCAST_DUPLICATE);
		return false;
	}
	layer = 0;
	if (ch->tag && !dsr_mc_layer(priv, g, skb, off, &layer))
		return false;
	if (dsr_mc_capped(priv, g, ch, layer, len))
		return false;
	if (ch->fanout)
		dsr_mc_fanout(priv, g, ch, skb, off, layer, true, out);
	local = dsr_mt_deliver(g, layer);
	if (local) {
		dsr_mc_count(mc, g, layer, DSR_MC_LOCAL_P, 1, len);
		dsr_stat(priv, DSR_S_MCAST_DELIVERED);
	}
	return local;
}
