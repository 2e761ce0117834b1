// SPDX-License-Identifier: GPL-2.0
/*
 * sch_dsrprio - strict priority queueing for DSR (RFC 4728) nodes.
 *
 * Up to eight bands, band 0 the highest; dequeue always serves the lowest
 * numbered band that is not empty, so route discovery and maintenance are
 * never stuck behind a queue of data.  Each band is a plain FIFO list of
 * its own with a packet limit (no child qdiscs): an arrival over the limit
 * is dropped, nothing queued is ever reordered or dropped.  DSR control
 * packets (a Route Request, Reply, Error or Acknowledgment option) and
 * packets of priority TC_PRIO_CONTROL go to band 0; the rest are mapped
 * through a priomap as sch_prio does, on the IPv4 TOS.  iproute2 cannot
 * pass options to an out-of-tree qdisc, so the configuration is read from
 * module parameters when the qdisc is created.  The bands are classes
 * (1:1 is band 0) for "tc -s class show".
 *
 * dsr.ko puts a dsrprio at the root of each interface it enslaves
 * (dsrprio_install(), with handle 0 as the kernel's default qdiscs have, so
 * that any "tc qdisc replace/add ... root" replaces it) and takes it off on
 * release (dsrprio_uninstall()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/types.h>
#include <net/ip.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/route.h>
#include <net/sch_generic.h>
#include <linux/ah_dsr.h>
#include <linux/rtnetlink.h>

#include "ah_debug.h"
#include "opt.h"
#include "sch_dsrprio.h"

#define DSRPRIO_MAX_BANDS	8
#define DSRPRIO_MAP_LEN		(TC_PRIO_MAX + 1)
/* options looked at in one DSR Options header before giving up */
#define DSRPRIO_MAX_OPTS	64
#define DSRPRIO_DEF_LIMIT	1000

static unsigned int dsrprio_bands = 2;
module_param_named(bands, dsrprio_bands, uint, 0644);
MODULE_PARM_DESC(bands, "Bands of a new dsrprio qdisc, 1 to 8 (default 2)");

static unsigned int dsrprio_limit;
module_param_named(limit, dsrprio_limit, uint, 0644);
MODULE_PARM_DESC(limit, "Packets per band, 0 for the device's txqueuelen");

static char dsrprio_priomap[64];
module_param_string(priomap, dsrprio_priomap, sizeof(dsrprio_priomap), 0644);
MODULE_PARM_DESC(priomap,
		 "Band of priorities 0..15, comma separated (default: per bands)");

struct dsrprio_band {
	struct qdisc_skb_head q;
	struct gnet_stats_basic_sync bstats;
	struct gnet_stats_queue qstats;	/* backlog and drops */
};

struct dsrprio_sched_data {
	u32 bands;
	u32 limit;
	bool limit_from_dev;	/* follow the device's txqueuelen */
	bool live;		/* init succeeded (ah_obj lines) */
	u8 prio2band[DSRPRIO_MAP_LEN];
	struct dsrprio_band band[DSRPRIO_MAX_BANDS];
};

/* pfifo_fast's map, used from three bands up */
static const u8 dsrprio_prio2band3[DSRPRIO_MAP_LEN] = {
	1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1
};

/*
 * Whether the IPv4 datagram at @noff, protocol 48, carries a DSR Options
 * header with a Route Request, Route Reply, Route Error or Acknowledgment
 * option.  Anything malformed is not control: the packet is data.
 */
static bool dsrprio_is_control(const struct sk_buff *skb, int noff,
			       const struct iphdr *iph)
{
	unsigned int ihl = iph->ihl * 4;
	unsigned int tot = ntohs(iph->tot_len);
	unsigned int pos, end, n;
	u8 buf[DSR_HDR_LEN];
	const u8 *p;

	/* a later fragment does not start with the DSR header */
	if (iph->frag_off & htons(IP_OFFSET))
		return false;
	if (tot < ihl + DSR_HDR_LEN || tot > skb->len - noff)
		return false;
	p = skb_header_pointer(skb, noff + ihl, DSR_HDR_LEN, buf);
	if (!p)
		return false;
	pos = ihl + DSR_HDR_LEN;
	end = pos + ah_get16(p + 2);	/* Payload Length: the options */
	if (end > tot)
		return false;

	for (n = 0; pos < end && n < DSRPRIO_MAX_OPTS; n++) {
		unsigned int len = min(end - pos, 2U);

		p = skb_header_pointer(skb, noff + pos, len, buf);
		if (!p)
			return false;
		if (p[0] == DSR_OPT_PAD1) {
			pos++;
			continue;
		}
		/* Option Type, Opt Data Len, then the data within the payload */
		if (len < 2 || p[1] > end - pos - 2)
			return false;
		switch (p[0]) {
		case DSR_OPT_RREQ:
		case DSR_OPT_RREP:
		case DSR_OPT_RERR:
		case DSR_OPT_ACK:
			return true;
		}
		pos += 2 + p[1];
	}
	return false;
}

/* The band of @skb, 0 to @bands - 1; @bands is at least 1. */
static unsigned int dsrprio_band(const struct sk_buff *skb,
				 unsigned int bands, const u8 *priomap)
{
	unsigned int prio = skb->priority;
	const struct iphdr *iph;
	struct iphdr iph_buf;
	int noff;

	if (skb->priority == TC_PRIO_CONTROL)
		return 0;
	if (skb->protocol == htons(ETH_P_IP)) {
		noff = skb_network_offset(skb);
		iph = noff < 0 ? NULL :
		      skb_header_pointer(skb, noff, sizeof(iph_buf), &iph_buf);
		if (iph && iph->version == 4 && iph->ihl >= 5) {
			if (iph->protocol == DSR_IPPROTO &&
			    dsrprio_is_control(skb, noff, iph))
				return 0;
			prio = rt_tos2priority(iph->tos);
		}
	}
	return min_t(unsigned int, priomap[prio & TC_PRIO_MAX], bands - 1);
}

static int dsrprio_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			   struct sk_buff **to_free)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	struct dsrprio_band *b;

	b = &q->band[dsrprio_band(skb, q->bands, q->prio2band)];
	if (unlikely(b->q.qlen >= q->limit)) {
		b->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	__qdisc_enqueue_tail(skb, &b->q);
	b->qstats.backlog += qdisc_pkt_len(skb);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

static struct sk_buff *dsrprio_dequeue(struct Qdisc *sch)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	unsigned int i;

	for (i = 0; i < q->bands; i++) {
		struct dsrprio_band *b = &q->band[i];
		struct sk_buff *skb = __qdisc_dequeue_head(&b->q);

		if (skb) {
			b->qstats.backlog -= qdisc_pkt_len(skb);
			bstats_update(&b->bstats, skb);
			qdisc_bstats_update(sch, skb);
			qdisc_qstats_backlog_dec(sch, skb);
			sch->q.qlen--;
			return skb;
		}
	}
	return NULL;
}

static struct sk_buff *dsrprio_peek(struct Qdisc *sch)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	unsigned int i;

	for (i = 0; i < q->bands; i++) {
		if (q->band[i].q.head)
			return q->band[i].q.head;
	}
	return NULL;
}

static void dsrprio_reset(struct Qdisc *sch)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	unsigned int i;

	for (i = 0; i < DSRPRIO_MAX_BANDS; i++) {
		__qdisc_reset_queue(&q->band[i].q);
		q->band[i].qstats.backlog = 0;
	}
	sch->qstats.backlog = 0;
	sch->q.qlen = 0;
}

static void dsrprio_destroy(struct Qdisc *sch)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);

	/* also after a failed init: the bands are then empty */
	dsrprio_reset(sch);
	if (q->live)
		ah_obj_destroyed("qdisc", sch);
}

static void dsrprio_default_map(u8 *map, unsigned int bands)
{
	unsigned int i;

	for (i = 0; i < DSRPRIO_MAP_LEN; i++) {
		if (bands >= 3)
			map[i] = dsrprio_prio2band3[i];
		else if (bands == 2)
			map[i] = i == TC_PRIO_INTERACTIVE || i == TC_PRIO_CONTROL ?
				 0 : 1;
		else
			map[i] = 0;
	}
}

/* "b0,b1,...": up to 16 bands, priority 0 first; the rest keep @map's. */
static int dsrprio_parse_map(u8 *map, char *s, unsigned int bands,
			     struct netlink_ext_ack *extack)
{
	unsigned int i = 0;
	char *tok;
	u8 band;

	s = strim(s);
	if (!*s)
		return 0;
	while ((tok = strsep(&s, ",")) != NULL) {
		if (i == DSRPRIO_MAP_LEN) {
			NL_SET_ERR_MSG_MOD(extack,
					   "priomap has more than 16 entries");
			return -EINVAL;
		}
		if (kstrtou8(strim(tok), 10, &band)) {
			NL_SET_ERR_MSG_MOD(extack, "priomap entry is not a number");
			return -EINVAL;
		}
		if (band >= bands) {
			NL_SET_ERR_MSG_MOD(extack, "priomap band out of range");
			return -EINVAL;
		}
		map[i++] = band;
	}
	return 0;
}

static u32 dsrprio_dev_limit(struct Qdisc *sch)
{
	u32 len = qdisc_dev(sch)->tx_queue_len;

	return len ? len : DSRPRIO_DEF_LIMIT;
}

static int dsrprio_init(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	char map[sizeof(dsrprio_priomap)];
	unsigned int bands, limit, i;
	int err;

	if (opt && nla_len(opt)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "dsrprio takes no options: set bands/limit/priomap as module parameters");
		return -EINVAL;
	}

	kernel_param_lock(THIS_MODULE);
	bands = dsrprio_bands;
	limit = dsrprio_limit;
	strscpy(map, dsrprio_priomap, sizeof(map));
	kernel_param_unlock(THIS_MODULE);

	if (bands < 1 || bands > DSRPRIO_MAX_BANDS) {
		NL_SET_ERR_MSG_MOD(extack, "bands must be 1 to 8");
		return -EINVAL;
	}
	dsrprio_default_map(q->prio2band, bands);
	err = dsrprio_parse_map(q->prio2band, map, bands, extack);
	if (err)
		return err;

	for (i = 0; i < DSRPRIO_MAX_BANDS; i++)
		gnet_stats_basic_sync_init(&q->band[i].bstats);
	q->bands = bands;
	q->limit_from_dev = !limit;
	q->limit = limit ? limit : dsrprio_dev_limit(sch);
	q->live = true;
	ah_obj_created("qdisc", sch);
	return 0;
}

/* with the device down (dev_qdisc_change_tx_queue_len()) */
static int dsrprio_change_tx_queue_len(struct Qdisc *sch, unsigned int len)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);

	if (q->limit_from_dev)
		q->limit = len ? len : DSRPRIO_DEF_LIMIT;
	return 0;
}

static int dsrprio_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	struct tc_prio_qopt opt;

	memset(&opt, 0, sizeof(opt));
	opt.bands = q->bands;
	memcpy(opt.priomap, q->prio2band, sizeof(opt.priomap));
	if (nla_put(skb, TCA_OPTIONS, sizeof(opt), &opt))
		return -1;
	return skb->len;
}

static int dsrprio_graft(struct Qdisc *sch, unsigned long arg,
			 struct Qdisc *new, struct Qdisc **old,
			 struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG_MOD(extack, "dsrprio bands are FIFOs, not qdiscs");
	return -EOPNOTSUPP;
}

static struct Qdisc *dsrprio_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

/* class 1 is band 0 */
static unsigned long dsrprio_find(struct Qdisc *sch, u32 classid)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	unsigned long band = TC_H_MIN(classid);

	if (band - 1 >= q->bands)
		return 0;
	return band;
}

static void dsrprio_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	unsigned int i;

	if (arg->stop)
		return;
	for (i = 0; i < q->bands; i++) {
		if (!tc_qdisc_stats_dump(sch, i + 1, arg))
			break;
	}
}

static int dsrprio_dump_class(struct Qdisc *sch, unsigned long cl,
			      struct sk_buff *skb, struct tcmsg *tcm)
{
	tcm->tcm_handle |= TC_H_MIN(cl);
	tcm->tcm_info = 0;
	return 0;
}

static int dsrprio_dump_class_stats(struct Qdisc *sch, unsigned long cl,
				    struct gnet_dump *d)
{
	struct dsrprio_sched_data *q = qdisc_priv(sch);
	struct dsrprio_band *b = &q->band[cl - 1];

	if (gnet_stats_copy_basic(d, NULL, &b->bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &b->qstats, b->q.qlen) < 0)
		return -1;
	return 0;
}

static const struct Qdisc_class_ops dsrprio_class_ops = {
	.graft		= dsrprio_graft,
	.leaf		= dsrprio_leaf,
	.find		= dsrprio_find,
	.walk		= dsrprio_walk,
	.dump		= dsrprio_dump_class,
	.dump_stats	= dsrprio_dump_class_stats,
};

static struct Qdisc_ops dsrprio_qdisc_ops __read_mostly = {
	.cl_ops		= &dsrprio_class_ops,
	.id		= "dsrprio",
	.priv_size	= sizeof(struct dsrprio_sched_data),
	.enqueue	= dsrprio_enqueue,
	.dequeue	= dsrprio_dequeue,
	.peek		= dsrprio_peek,
	.init		= dsrprio_init,
	.reset		= dsrprio_reset,
	.destroy	= dsrprio_destroy,
	.change_tx_queue_len = dsrprio_change_tx_queue_len,
	.dump		= dsrprio_dump,
	.owner		= THIS_MODULE,
};

/*
 * Graft @q (NULL: back to the default qdiscs) at the root of @dev, as
 * qdisc_graft() does for "tc qdisc replace/del dev DEV root": every
 * transmit queue and dev->qdisc hold a reference of @q.
 */
static void dsrprio_graft_root(struct net_device *dev, struct Qdisc *q)
{
	bool up = dev->flags & IFF_UP;
	struct Qdisc *old;
	unsigned int i;

	if (up)
		dev_deactivate(dev);
	for (i = 0; i < dev->num_tx_queues; i++) {
		old = dev_graft_qdisc(netdev_get_tx_queue(dev, i), q);
		if (q && i > 0)
			qdisc_refcount_inc(q);
		qdisc_put(old);
	}
	old = rtnl_dereference(dev->qdisc);
	if (q)
		qdisc_refcount_inc(q);
	rcu_assign_pointer(dev->qdisc, q ? : &noop_qdisc);
	qdisc_put(old);
	/* with noop_qdisc at the root this attaches the default ones */
	if (up)
		dev_activate(dev);
}

int dsrprio_install(struct net_device *dev, struct netlink_ext_ack *extack)
{
	struct Qdisc *q, *root;

	ASSERT_RTNL();
	root = rtnl_dereference(dev->qdisc);
	/* a root qdisc the user set (tc gives it a handle) stays */
	if (root && root->handle) {
		NL_SET_ERR_MSG_MOD(extack, "the device has a root qdisc of its own");
		return -EEXIST;
	}
	q = qdisc_create_dflt(netdev_get_tx_queue(dev, 0), &dsrprio_qdisc_ops,
			      TC_H_ROOT, extack);
	if (!q)
		return -ENOMEM;
	dsrprio_graft_root(dev, q);
	return 0;
}
EXPORT_SYMBOL_GPL(dsrprio_install);

void dsrprio_uninstall(struct net_device *dev)
{
	struct Qdisc *root;

	ASSERT_RTNL();
	root = rtnl_dereference(dev->qdisc);
	/* replaced since by the user ("tc qdisc replace"): theirs to keep */
	if (dev->reg_state != NETREG_REGISTERED || !root ||
	    root->ops != &dsrprio_qdisc_ops || root->handle)
		return;
	dsrprio_graft_root(dev, NULL);
}
EXPORT_SYMBOL_GPL(dsrprio_uninstall);

static int __init dsrprio_module_init(void)
{
	return register_qdisc(&dsrprio_qdisc_ops);
}

static void __exit dsrprio_module_exit(void)
{
	unregister_qdisc(&dsrprio_qdisc_ops);
}

module_init(dsrprio_module_init);
module_exit(dsrprio_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Strict priority qdisc for DSR (RFC 4728) nodes");
/* 6.9 and later load a qdisc as "net-sch-<kind>", before as "sch_<kind>" */
#ifdef MODULE_ALIAS_NET_SCH
MODULE_ALIAS_NET_SCH("dsrprio");
#endif
