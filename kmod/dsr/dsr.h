/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dsr: Dynamic Source Routing (RFC 4728) on a dsr0 net_device.
 *
 * One struct dsr_priv per dsr device holds every table; one spinlock
 * (priv->lock, taken with BH disabled in process context) protects them
 * all.  Frames are built under the lock into an output list, which joins
 * the device's transmit queue before the lock is dropped (dsr_out_commit())
 * and is sent after (dsr_out_flush()): frames leave in the order they were
 * built, whichever CPU built them.  One timer per device serves every
 * deadline (send buffer, discoveries, maintenance buffer, request jitter).
 */
#ifndef _DSR_H
#define _DSR_H

#include <linux/ah_dsr.h>
#include <linux/hashtable.h>
#include <linux/ip.h>
#include <linux/ktime.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <net/genetlink.h>

#include "blacklist.h"
#include "dup.h"
#include "macfilter_next.h"
#include "mchain.h"
#include "mtree.h"
#include "opt.h"
#include "ratelimit.h"
#include "rcache.h"
#include "rreq.h"
#include "rtt.h"

#define DSR_NPARAMS		(DSR_A_P_LAST - DSR_A_P_FIRST + 1)
#define DSR_P(priv, name)	READ_ONCE((priv)->param[DSR_A_P_##name - DSR_A_P_FIRST])

#define DSR_MTU_RESERVE		64	/* DSR header room under the slave MTU */
#define DSR_MAX_NEIGH		256
#define DSR_NEIGH_HASH_BITS	6	/* neighbours found by address */
#define DSR_MAINT_HASH_BITS	8	/* Maintenance Buffer, by packet */
#define DSR_MAX_DISC		64
#define DSR_MAX_FWDQ		64
/* a queued transmission is waited for at most this many rto_max_ms */
#define DSR_HOLD_MAX_RTOS	8
/*
 * Section 4.5: the Maintenance Buffer proper (rexmt_buffer_size) holds
 * what has left this host unacknowledged; entries whose frame still waits
 * in a slave's queue belong to the Network Interface Queue, and all
 * entries together stay under this many times rexmt_buffer_size.  A
 * Route Reply or Error may use a quarter more than data.
 */
#define DSR_MAINT_CAP_MULT	4
#define DSR_EXTRA_MAX		(DSR_RREP_SIZE(DSR_MAX_PATH) + 4)
/* the timer looks at the send buffer at least this often (ms) */
#define DSR_DRAIN_MS		100
/* recently delivered and forwarded packets (dup.h) */
#define DSR_DUP_ENTRIES		1024
/*
 * Route Requests taken further than their validation (learned from,
 * answered, forwarded), a second and at once: from one neighbour (its
 * MAC), from one initiator, and in all (ratelimit.h).  A flood of forged
 * requests costs at most these; other neighbours' discoveries go on.
 */
#define DSR_RREQ_RATE_NEIGH	50
#define DSR_RREQ_RATE_INIT	20
#define DSR_RREQ_RATE_ALL	200
#define DSR_RL_BUCKETS		256
/*
 * The Blacklist (blacklist.h): a neighbour found unreachable while its
 * frames reach us (maint.c) is "probable" this long, then "questionable" (probed
 * at most once a DSR_BL_PROBE_MS) until DSR_BL_LIFE_MS after it was last
 * found so.
 */
#define DSR_BL_PROBABLE_MS	5000
#define DSR_BL_LIFE_MS		60000
#define DSR_BL_PROBE_MS		1000
/* ... and only one that acknowledged nothing for this long (ms) */
#define DSR_BL_SILENT_MS	2000
/*
 * A Route Error to us goes out on our next Route Request (section 3.4.4)
 * if that request leaves while we hold the link down (link_holddown_ms):
 * news of a broken link is not spread once it may be back.  Without a
 * hold-down, within this many ms.
 */
#define DSR_RERR_SPREAD_MS	2000
/*
 * Layered multicast (mcast.c): the tree table's size, and joins a second
 * (and at once) taken from one neighbour
 */
#define DSR_MC_GROUPS		64
#define DSR_MC_CHILDREN		DSR_MC_MAX_CHILDREN
#define DSR_MC_JOIN_RATE	20
/* ICMP errors a second, and at once: per destination, and in all */
#define DSR_ICMP_RATE_DEST	1
#define DSR_ICMP_BURST_DEST	6
#define DSR_ICMP_RATE_ALL	1000
#define DSR_ICMP_BURST_ALL	50

enum dsr_stat {
	DSR_S_RREQ_SENT,
	DSR_S_RREQ_RECEIVED,
	DSR_S_RREQ_FORWARDED,
	DSR_S_RREQ_DUPLICATE,
	DSR_S_RREQ_OWN,
	DSR_S_RREQ_HOP_LIMIT,
	DSR_S_RREQ_QUEUE_FULL,
	DSR_S_RREQ_RATE_LIMITED,
	DSR_S_RREQ_BLACKLISTED,
	DSR_S_BLACKLIST_ADDED,
	DSR_S_BLACKLIST_PROBES,
	DSR_S_BLACKLIST_CLEARED,
	DSR_S_RREP_SENT,
	DSR_S_RREP_CACHED_SENT,
	DSR_S_RREP_GATEWAY_SENT,
	DSR_S_RREP_RECEIVED,
	DSR_S_GRAT_RREP_SENT,
	DSR_S_GRAT_RREP_HOLDOFF,
	DSR_S_RERR_SENT,
	DSR_S_RERR_RECEIVED,
	DSR_S_RERR_NO_ROUTE,
	DSR_S_ACK_REQ_SENT,
	DSR_S_ACK_SENT,
	DSR_S_ACK_RECEIVED,
	DSR_S_PASSIVE_ACKS,
	DSR_S_RETRANSMISSIONS,
	DSR_S_LINK_FAILURES,
	DSR_S_SALVAGED,
	DSR_S_SALVAGE_FAILED,
	DSR_S_REROUTED,
	DSR_S_MAINT_BUFFER_FULL,
	DSR_S_SENDBUF_QUEUED,
	DSR_S_SENDBUF_DROP_FULL,
	DSR_S_SENDBUF_DROP_DUP,
	DSR_S_SENDBUF_DROP_TIMEOUT,
	DSR_S_SENDBUF_DROP_DISCOVERY,
	DSR_S_DISCOVERY_STARTED,
	DSR_S_DISCOVERY_FAILED,
	DSR_S_FORWARDED,
	DSR_S_FWD_TTL_EXCEEDED,
	DSR_S_FWD_DUPLICATE,
	DSR_S_DELIVERED,
	DSR_S_RX_DUPLICATE,
	DSR_S_NOT_FOR_US,
	DSR_S_OVERHEARD,
	DSR_S_ROUTES_LEARNED,
	DSR_S_NEIGH_MAC_REFUSED,
	DSR_S_TX_NOT_IPV4,
	DSR_S_TX_BROADCAST,
	DSR_S_TX_SLAVE_GONE,
	DSR_S_TX_TOO_BIG,
	DSR_S_NO_ADDRESS,
	DSR_S_NOMEM,
	DSR_S_SLAVE_QDISC_FAILED,
	DSR_S_REXMT_HELD,
	DSR_S_BREAK_HELD,
	DSR_S_LEFT_HOST_WAITED,
	DSR_S_CONGESTION_DROPS,
	DSR_S_MAINT_QUEUE_DROPS,
	DSR_S_ACK_CLEARED_EARLIER,
	DSR_S_FRAG_ENCAP,
	DSR_S_FRAG_DECAP,
	DSR_S_TIMER_RUNS,
	DSR_S_TIMER_NS,
	DSR_S_UNKNOWN_OPT,
	DSR_S_MALFORMED_IP,
	DSR_S_ICMP_SENT,
	DSR_S_ICMP_RATE_LIMITED,
	DSR_S_ICMP_NO_ROUTE,
	DSR_S_MAINT_HELD_OFF,
	DSR_S_TX_GSO,
	DSR_S_TX_GSO_SEGS,
	DSR_S_TX_CSUM_SW,
	DSR_S_RERR_CARRIED,
	DSR_S_RERR_RESENT,
	DSR_S_FWD_COPIED,
	DSR_S_RX_COPIED,
	DSR_S_RERR_SPREAD,
	DSR_S_OVERHEARD_SKIPPED,
	DSR_S_MCAST_TX,
	DSR_S_MCAST_RX,
	DSR_S_MCAST_COPIES,
	DSR_S_MCAST_BCAST,
	DSR_S_MCAST_DELIVERED,
	DSR_S_MCAST_NO_TREE,
	DSR_S_MCAST_DUPLICATE,
	DSR_S_MCAST_TTL,
	DSR_S_MCAST_MALFORMED,
	DSR_S_MCAST_JOIN_SENT,
	DSR_S_MCAST_LEAVE_SENT,
	DSR_S_MCAST_JOIN_RECEIVED,
	DSR_S_MCAST_JOIN_BAD,
	DSR_S_MCAST_JOIN_LIMITED,
	DSR_S_MCAST_IGMP_JOIN,
	DSR_S_MCAST_IGMP_LEAVE,
	DSR_S_MCAST_IGMP_ANY,
	DSR_S_MCAST_IGMP_BAD,
	DSR_S_MCAST_CAPPED,
	DSR_S_FWD_FAST,
	/* one per refusal of enum dsr_mtag_res, in its order */
	DSR_S_MCAST_TAG_FIRST,
	DSR_S_MCAST_TAG_LAST = DSR_S_MCAST_TAG_FIRST + __DSR_MTAG_RES_MAX - 2,
	/* one per refusal of enum dsr_mt_res (joins, leaves), in its order */
	DSR_S_MCAST_TREE_FIRST,
	DSR_S_MCAST_TREE_LAST = DSR_S_MCAST_TREE_FIRST + __DSR_MT_RES_MAX - 2,
	/* one per enum dsr_bad, in its order (DSR_OK excluded) */
	DSR_S_BAD_FIRST,
	DSR_S_BAD_LAST = DSR_S_BAD_FIRST + __DSR_BAD_MAX - 2,
	DSR_S_MAX,
};

struct dsr_slave {
	struct list_head list;		/* priv->slaves, RCU */
	struct net_device *dev;
	struct dsr_priv *priv;
	struct macfilter_next rx;	/* every DSR frame: rx.c */
	__be32 addr;			/* its own first IPv4 address, or 0
					 * (section 8.4; priv->lock, RTNL)
					 */
	bool qdisc;			/* we put dsrprio at its root */
	bool gone;			/* released (priv->lock): not to be used */
};

/* The per-next-hop state, and the home of its retransmission timeout. */
/*
 * Written under priv->lock.  The forwarding fast path (fastpath.c) finds
 * a neighbour under RCU without the lock: it is freed after a grace
 * period, and mac and slave change inside seq, so that a reader copies
 * them whole; heard, confirmed and mac_stale are read with READ_ONCE(),
 * and heard is also written there (WRITE_ONCE()).
 */
struct dsr_neigh {
	struct list_head list;		/* priv->neighs, most recent first */
	struct hlist_node hnode;	/* priv->neigh_hash, by addr */
	struct rcu_head rcu;
	__be32 addr;
	seqcount_spinlock_t seq;	/* mac and slave */
	u8 mac[ETH_ALEN];
	struct dsr_slave *slave;
	u64 heard;			/* ms: last frame from it */
	bool mac_stale;			/* its link broke: any frame may
					 * teach its MAC again
					 */
	u64 confirmed;			/* ms: last ack from it, 0 never */
	bool no_passive;		/* what it forwards is not heard
					 * here: asked for explicit acks
					 * (section 8.3.2's table)
					 */
	u64 crossed;			/* the latest packet it acknowledged,
					 * by its dsr_maint.seq
					 */
	u32 rto_ms;			/* the last used: dsr_neigh_rto() */
	struct dsr_rtt rtt;		/* its estimator (adaptive_rto) */
	u64 timed;			/* ms: the latest packet timed */
	atomic64_t tx;			/* frames sent it (also fastpath.c) */
	u64 retx, acked;
};

/* A packet sent and awaiting its next hop's acknowledgment. */
struct dsr_maint {
	struct list_head list;		/* priv->maint, oldest first */
	struct hlist_node hnode;	/* priv->maint_hash */
	struct sk_buff *skb;		/* the frame as first sent */
	struct sk_buff *rtx;		/* clone of the last retransmission */
	__be32 nexthop;
	__be32 saddr, daddr;		/* passive ack key */
	__be16 ip_id, frag_off;
	u8 segs;			/* Segments Left as sent, or: */
#define DSR_NO_SRT		0xff	/* no source route */
	u8 tries;			/* transmissions so far */
	bool explicit;			/* last transmission asked for an ack */
	bool passive;			/* the first one waited for a passive
					 * ack
					 */
	bool held;			/* timer expired while still queued */
	bool in_host;			/* ... and was queued at its last expiry */
	u16 ack_id;
	u64 seq;			/* order of first sending, from 1 */
	u64 first, sent, deadline;	/* ms */
	u64 sent_us;			/* us, 0: not timed (dsr_maint_track) */
};

/*
 * The CMU duplicate key, also the passive acknowledgment's: iph is the
 * packet with this source, destination, IP id and fragment offset.
 */
static inline bool dsr_same_ip(const struct iphdr *iph, __be32 saddr,
			       __be32 daddr, __be16 id, __be16 frag_off)
{
	return iph->saddr == saddr && iph->daddr == daddr && iph->id == id &&
	       iph->frag_off == frag_off;
}

/* Gratuitous Route Reply Table entry (RFC 4728 section 4.4) */
struct dsr_grat {
	__be32 src, tx;			/* packet's source, its transmitter */
	u64 expires;			/* ms */
};

#define DSR_GRAT_TABLE		32

/* A Route Discovery in progress. */
struct dsr_disc {
	struct list_head list;
	__be32 target;
	u8 tries;			/* propagating requests sent */
	bool propagating;
	u64 started, next;		/* ms */
};

/* a group's per-layer counters (enum dsr_mc_stat), by its table slot */
enum dsr_mc_stat {
	DSR_MC_FWD_P, DSR_MC_FWD_B, DSR_MC_FILT_P, DSR_MC_FILT_B,
	DSR_MC_LOCAL_P, DSR_MC_LOCAL_B, DSR_MC_CAP_P, DSR_MC_CAP_B,
	DSR_MC_NSTAT,
};

struct dsr_mc_stats {
	__be32 source, group;		/* whose they are */
	u8 top;				/* 1 + the highest layer counted */
	u64 v[DSR_MC_NSTAT][DSR_MC_STAT_LAYERS];
};

/* Layered multicast: the trees (mtree.h), their counters, join limits. */
/*
 * A group's element chain (mchain.h), replaced whole by one pointer
 * store: a packet runs through the old one or the new one.  It belongs
 * to the group of its table slot while source and group match; the
 * refresh after the group ends frees it.
 */
struct dsr_mc_chain {
	struct rcu_head rcu;
	__be32 source, group;
	struct dsr_mch c;
};

struct dsr_mcast {
	struct dsr_mt_table t;
	struct dsr_mc_stats *st;	/* t.max_groups of them */
	struct dsr_mc_chain __rcu **chain;	/* t.max_groups; NULL: default */
	struct dsr_mch def;		/* the default chain */
	struct dsr_rl rl_join;		/* by neighbour */
	u64 next_refresh;		/* ms */
	/* dsr_mc_fanout()'s copies of one packet, under the device lock */
	struct dsr_mt_copy cp[DSR_MC_CHILDREN + DSR_MT_SLAVES];
};

/*
 * A source route a relay forwarded by the general receive path, which
 * checked it and learned from it: the forwarding fast path (fastpath.c)
 * forwards the packets of the same route, at the same place in it,
 * without those two for DSR_FP_LEARN_MS (or a quarter of the route cache
 * timeout, if less), while the route cache has not changed (its gen).
 * Direct-mapped by a hash of the route; written under priv->lock, read
 * without it inside seq.
 */
#define DSR_FP_ROUTES		64
#define DSR_FP_LEARN_MS		250

struct dsr_fp_route {
	seqcount_spinlock_t seq;
	__be32 node[DSR_MAX_PATH + 2];	/* source, the route, destination */
	u8 n;				/* addresses in the route */
	u8 segs;			/* Segments Left as received */
	u32 gen;			/* priv->rc.gen when learned */
	unsigned long until;		/* jiffies: learn again from then */
};

struct dsr_skb_cb {
	u64 time;			/* ms: queued at / due at */
	int ifindex;			/* fwdq: the one slave to send on */
	u64 maint_seq;			/* a frame on an output list: the
					 * seq of its Maintenance Buffer
					 * entry, 0 if untracked
					 */
};

#define DSR_CB(skb) ((struct dsr_skb_cb *)(skb)->cb)

struct dsr_priv {
	struct net_device *dev;
	struct list_head slaves;
	unsigned int n_if_addrs;	/* slaves with an address of their own */
	spinlock_t lock;		/* every table below */
	u64 now_ms, now_us;	/* the clock under lock: dsr_lock() */
	bool dead;
	u32 param[DSR_NPARAMS];

	struct dsr_rcache rc;
	struct dsr_rreq_table rt;
	struct dsr_dup_cache dup;
	spinlock_t dup_lock;		/* dup: also taken without lock */
	struct dsr_blacklist bl;
	struct dsr_rl rl_neigh, rl_init;	/* Route Requests admitted */
	struct dsr_rl_bucket rl_all;
	struct dsr_mcast mc;
	struct dsr_rl rl_icmp;			/* ICMP errors sent */
	struct dsr_rl_bucket rl_icmp_all;
	struct list_head neighs;
	unsigned int n_neighs;
	DECLARE_HASHTABLE(neigh_hash, DSR_NEIGH_HASH_BITS);
	u32 hash_seed;			/* of both hash tables */
	struct sk_buff_head sendbuf;
	unsigned int sendbuf_bytes;
	/* routes_gen counts what the cache learned; drained_gen and drained
	 * (ms) are the last drain of the send buffer's
	 */
	unsigned int routes_gen, drained_gen;
	u64 drained;
	struct list_head maint;
	unsigned int n_maint;
	/* the same entries by (source, destination, IP id): passive acks */
	DECLARE_HASHTABLE(maint_hash, DSR_MAINT_HASH_BITS);
	/*
	 * The entries in each bucket of maint_hash: written under the lock,
	 * read without it by a receiver deciding whether an overheard frame
	 * may acknowledge one (dsr_maint_maybe())
	 */
	u16 maint_filter[1 << DSR_MAINT_HASH_BITS];
	/* overheard frames admitted in this second (jiffies), without lock */
	unsigned long overheard_since;
	atomic_t overheard_n;
	struct list_head discs;
	unsigned int n_discs;
	struct sk_buff_head fwdq;	/* Route Requests awaiting jitter */
	struct dsr_grat grat[DSR_GRAT_TABLE];
	/*
	 * The last Route Error to us, for our next Route Request (section
	 * 3.4.4), until rerr_spread_until (ms; 0: none)
	 */
	u8 rerr_spread[DSR_RERR_SIZE];
	u64 rerr_spread_until;

	struct dsr_fp_route fp[DSR_FP_ROUTES];	/* fastpath.c */

	/* frames built under lock, in order; sent by the tx_lock holder */
	struct sk_buff_head txq;
	spinlock_t tx_lock;		/* one CPU at a time sends txq */

	struct timer_list timer;
	u64 last_expire;
	u16 rreq_id, ack_id;
	u64 maint_seq;			/* the last dsr_maint.seq given */
	atomic_t ip_id;
	atomic_long_t stats[DSR_S_MAX];
};

static inline void dsr_stat(struct dsr_priv *priv, enum dsr_stat s)
{
	atomic_long_inc(&priv->stats[s]);
}

/*
 * Whether writing the first len bytes of skb will copy its data: it is
 * shared with a clone (a packet tap, a bridge's other ports) that may
 * still read it.  On a frame that nobody else holds DSR writes in place;
 * fwd_copied and rx_copied count the frames where it could not.
 */
static inline bool dsr_must_copy(const struct sk_buff *skb, unsigned int len)
{
	return skb_cloned(skb) && !skb_clone_writable(skb, len);
}

static inline void dsr_stat_add(struct dsr_priv *priv, enum dsr_stat s,
				long n)
{
	atomic_long_add(n, &priv->stats[s]);
}

/*
 * priv->lock is taken through these, which read the clock for what is done
 * under it: the coarse clock (ms, the tick's resolution: the timer that
 * checks deadlines runs on ticks too), which costs no clock-source read,
 * and zero for the precise one, read on first use (dsr_now_us()).  A
 * forwarded packet then reads no clock source at all unless its round
 * trip is timed (dsr_maint_track()), as IP forwarding reads none: where
 * the clock source is the HPET, one read costs more than forwarding the
 * packet.  Lock sections are serialised, so the readings they see never
 * go backwards.
 */
static inline void dsr_clock(struct dsr_priv *priv)
{
	priv->now_ms = ktime_to_ms(ktime_get_coarse());
	priv->now_us = 0;
}

static inline void dsr_lock(struct dsr_priv *priv)
	__acquires(&priv->lock)
{
	spin_lock(&priv->lock);
	dsr_clock(priv);
}

static inline void dsr_unlock(struct dsr_priv *priv)
	__releases(&priv->lock)
{
	spin_unlock(&priv->lock);
}

static inline void dsr_lock_bh(struct dsr_priv *priv)
	__acquires(&priv->lock)
{
	spin_lock_bh(&priv->lock);
	dsr_clock(priv);
}

static inline void dsr_unlock_bh(struct dsr_priv *priv)
	__releases(&priv->lock)
{
	spin_unlock_bh(&priv->lock);
}

/* The clock of every deadline and age: ms since boot.  priv->lock held. */
static inline u64 dsr_now(const struct dsr_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	return priv->now_ms;
}

/* The precise clock in us, for round-trip samples.  priv->lock held. */
static inline u64 dsr_now_us(struct dsr_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	if (!priv->now_us)
		priv->now_us = ktime_to_us(ktime_get());
	return priv->now_us;
}

/*
 * The device's home address: the first IPv4 address on dsr0, kept in
 * priv->rc.self (where the route cache needs it) by dsr_inetaddr_event().
 */
static inline __be32 dsr_self(const struct dsr_priv *priv)
{
	return READ_ONCE(priv->rc.self);
}

/*
 * Section 8.4: a slave with an IPv4 address of its own is known by it on
 * its link (Route Requests record it, source routes name it); one without
 * is known by the home address.  priv->lock held.
 */
static inline __be32 dsr_if_addr(const struct dsr_priv *priv,
				 const struct dsr_slave *s)
{
	return READ_ONCE(s->addr) ?: dsr_self(priv);
}

/*
 * Whether a is an address of ours: the home address or a slave's.  Under
 * priv->lock (or RTNL): the slaves' list and addresses do not change.
 */
static inline bool dsr_is_self(const struct dsr_priv *priv, __be32 a)
{
	const struct dsr_slave *s;

	if (!a)
		return false;
	if (a == dsr_self(priv))
		return true;
	if (!READ_ONCE(priv->n_if_addrs))
		return false;
	list_for_each_entry_rcu(s, &priv->slaves, list,
				lockdep_is_held(&priv->lock) ||
				lockdep_rtnl_is_held())
		if (READ_ONCE(s->addr) == a)
			return true;
	return false;
}

/* device.c */
extern const struct net_device_ops dsr_netdev_ops;

static inline bool dsr_is_dsr(const struct net_device *dev)
{
	return dev->netdev_ops == &dsr_netdev_ops;
}

/* Under RTNL or RCU. */
static inline struct dsr_slave *dsr_slave_find(struct dsr_priv *priv,
					       const struct net_device *dev)
{
	struct dsr_slave *s;

	list_for_each_entry_rcu(s, &priv->slaves, list, lockdep_rtnl_is_held())
		if (s->dev == dev)
			return s;
	return NULL;
}

/* Start the device's timer if it is not running.  priv->lock held. */
static inline void dsr_kick(struct dsr_priv *priv)
{
	if (!priv->dead && !timer_pending(&priv->timer))
		mod_timer(&priv->timer,
			  jiffies + msecs_to_jiffies(DSR_P(priv, TIMER_MS)));
}

/* params.c */
extern const char *const dsr_stat_names[DSR_S_MAX];
void dsr_params_default(u32 *param);
enum dsr_param_range { DSR_PARAM_OK, DSR_PARAM_BELOW, DSR_PARAM_ABOVE };
enum dsr_param_range dsr_param_check(int attr, u32 val);

/* device.c */
int dsr_device_init(void);
void dsr_device_exit(void);

/* ethtool.c */
extern const struct ethtool_ops dsr_ethtool_ops;

/* slave.c */
int dsr_slave_add(struct dsr_priv *priv, struct net_device *sdev,
		  struct netlink_ext_ack *extack);
int dsr_slave_del(struct dsr_priv *priv, struct net_device *sdev);
void dsr_slave_release(struct dsr_priv *priv, struct dsr_slave *s);
void dsr_slave_release_all(struct dsr_priv *priv);
void dsr_slave_update_mtu(struct dsr_priv *priv);
void dsr_slave_update_addr(struct dsr_priv *priv, struct dsr_slave *s);

/* timer.c */
void dsr_timer_init(struct dsr_priv *priv);

/* stray.c */
int dsr_stray_init(void);
void dsr_stray_exit(void);

/* offload.c: a GSO unit with a DSR header (its mark among its GSO types) */
#define DSR_GSO_MARK		SKB_GSO_SCTP
/* room left in a GSO unit of dsr0's for the largest DSR header */
#define DSR_GSO_RESERVE		512
int dsr_offload_init(void);
void dsr_offload_exit(void);

/* rx.c: what became of a received packet (also the dsr_recv tracepoint's) */
enum dsr_rx {
	DSR_RX_DROP,		/* free it, nothing to count */
	DSR_RX_DELIVER,		/* strip the header, up the stack on dsr0 */
	DSR_RX_CONSUMED,	/* taken (forwarded) */
	DSR_RX_DELIVER_MC,	/* as DELIVER, the multicast packet inside */
};

/* fastpath.c */
bool dsr_skb_dup(struct dsr_priv *priv, const struct sk_buff *skb,
		 const struct dsr_parsed *p, enum dsr_dup_kind kind, u8 segs,
		 u8 salvage, u64 now);
void dsr_fwd_hop(struct sk_buff *skb);
void dsr_fp_init(struct dsr_priv *priv);
bool dsr_fp_forward(struct dsr_priv *priv, struct dsr_slave *s,
		    struct sk_buff *skb, const struct dsr_parsed *p);
void dsr_fp_learned(struct dsr_priv *priv, const struct iphdr *iph,
		    const u8 *dh, const struct dsr_parsed *p, unsigned int n,
		    unsigned int segs);

/* neigh.c */
struct dsr_neigh *dsr_neigh_find(struct dsr_priv *priv, __be32 addr);
void dsr_neigh_heard(struct dsr_priv *priv, __be32 addr, const u8 *mac,
		     struct dsr_slave *slave, bool proven);
void dsr_neigh_slave_gone(struct dsr_priv *priv, struct dsr_slave *slave);
void dsr_neigh_flush(struct dsr_priv *priv);
void dsr_neigh_rtt_sample(struct dsr_priv *priv, const struct dsr_maint *m);
u32 dsr_neigh_rto(struct dsr_priv *priv, struct dsr_neigh *n,
		  const struct dsr_maint *m);

/* frame.c */
void dsr_out_commit(struct dsr_priv *priv, struct sk_buff_head *out);
void dsr_out_flush(struct dsr_priv *priv);
void dsr_out_purge_dev(struct dsr_priv *priv, struct net_device *dev);
int dsr_frame(struct dsr_priv *priv, struct sk_buff *skb, __be32 nexthop,
	      struct sk_buff_head *out);
int dsr_frame_to(struct dsr_priv *priv, struct sk_buff *skb,
		 struct dsr_slave *s, const u8 *dest, struct sk_buff_head *out);
void dsr_broadcast(struct dsr_priv *priv, struct sk_buff *skb,
		   struct dsr_slave *only, struct sk_buff_head *out);
struct sk_buff *dsr_ctrl_alloc(struct dsr_priv *priv, size_t optlen,
			       __be32 saddr, __be32 daddr, u8 ttl);
int dsr_strip_hdr(struct sk_buff *skb, const struct dsr_parsed *p);

/* send.c */
/* dsr_send_routed() flags */
#define DSR_SEND_SELF_FIRST	BIT(0)	/* source route starts with us */
#define DSR_SEND_LAST_EXT	BIT(1)	/* last hop leaves the DSR network */
#define DSR_SEND_CTRL		BIT(2)	/* a Route Reply or Error */
int dsr_send_routed(struct dsr_priv *priv, struct sk_buff *skb,
		    const __be32 *hops, unsigned int n, unsigned int flags,
		    u8 salvage, const u8 *extra, size_t extra_len,
		    struct sk_buff_head *out);
void dsr_send_cached(struct dsr_priv *priv, struct sk_buff *skb,
		     const __be32 *hops, unsigned int n,
		     struct sk_buff_head *out);
int dsr_send_ctrl_routed(struct dsr_priv *priv, __be32 src, __be32 dst,
			 const __be32 *hops, unsigned int n, u8 salvage,
			 const u8 *opts, size_t optlen,
			 struct sk_buff_head *out);

/* xmit.c */
netdev_tx_t dsr_start_xmit(struct sk_buff *skb, struct net_device *dev);

/* sendbuf.c */
void dsr_sendbuf_add(struct dsr_priv *priv, struct sk_buff *skb);
void dsr_sendbuf_send(struct dsr_priv *priv, u64 now,
		      struct sk_buff_head *out);
void dsr_sendbuf_drop_dst(struct dsr_priv *priv, __be32 target);
void dsr_sendbuf_tick(struct dsr_priv *priv, u64 now);

/* discovery.c */
void dsr_learn(struct dsr_priv *priv, const __be32 *hops, unsigned int n,
	       u8 flags);
void dsr_disc_start(struct dsr_priv *priv, __be32 target,
		    struct sk_buff_head *out);
void dsr_route_or_queue(struct dsr_priv *priv, struct sk_buff *skb,
			struct sk_buff_head *out);
void dsr_disc_drain(struct dsr_priv *priv, struct sk_buff_head *out);
void dsr_disc_timer(struct dsr_priv *priv, u64 now, struct sk_buff_head *out);
bool dsr_grat_allowed(struct dsr_priv *priv, __be32 src, __be32 tx);
void dsr_send_rrep(struct dsr_priv *priv, __be32 src, __be32 initiator,
		   const __be32 *route, unsigned int n, bool external,
		   const __be32 *back, unsigned int nback,
		   struct sk_buff_head *out);

/* maintbuf.c */
u32 dsr_maint_bucket(const struct dsr_priv *priv, __be32 saddr, __be32 daddr,
		     __be16 id);
bool dsr_maint_maybe(const struct dsr_priv *priv, const struct iphdr *iph);
void dsr_maint_free(struct dsr_priv *priv, struct dsr_maint *m);

/* A tracked frame that this host's interface queue refused (frame.c) */
struct dsr_tx_drop {
	u64 seq;
	__be32 saddr, daddr;
	__be16 id;
};

void dsr_maint_tx_dropped(struct dsr_priv *priv, const struct dsr_tx_drop *d,
			  unsigned int n);
void dsr_maint_unhash(struct dsr_priv *priv, struct dsr_maint *m);
void dsr_maint_track(struct dsr_priv *priv, struct sk_buff *frame,
		     __be32 nexthop, bool explicit, u16 ack_id, u8 segs);
bool dsr_maint_want_ack(struct dsr_priv *priv, __be32 nexthop,
			bool last_hop, bool *track);
bool dsr_maint_room(struct dsr_priv *priv, const struct sk_buff *skb,
		    bool ctrl);
bool dsr_maint_queued(const struct dsr_maint *m);
bool dsr_maint_dup(struct dsr_priv *priv, const struct iphdr *iph);
bool dsr_maint_ack(struct dsr_priv *priv, __be32 from, u16 id);
void dsr_maint_passive(struct dsr_priv *priv, const struct iphdr *iph,
		       int segs);
int dsr_set_areq(struct sk_buff *skb, const struct dsr_parsed *parsed,
		 bool want, u16 id);
void dsr_maint_slave_gone(struct dsr_priv *priv, struct dsr_slave *slave);
void dsr_maint_flush(struct dsr_priv *priv);

/* maint.c */
void dsr_maint_tick(struct dsr_priv *priv, u64 now, struct sk_buff_head *out);

/* icmp.c */
void dsr_icmp_send(struct dsr_priv *priv, const struct sk_buff *skb,
		   const struct dsr_parsed *p, u8 type, u8 code, __be32 info,
		   struct sk_buff_head *out);

/* rx.c */
rx_handler_result_t dsr_slave_rx(struct sk_buff **pskb,
				 const struct macfilter_next *next);

/* mcast.c */
int dsr_mcast_init(struct dsr_priv *priv);
void dsr_mcast_destroy(struct dsr_priv *priv);
bool dsr_mcast_has_work(const struct dsr_priv *priv);
void dsr_mcast_igmp(struct dsr_priv *priv, struct sk_buff *skb);
int dsr_mcast_chain(struct dsr_priv *priv, __be32 source, __be32 group,
		    struct dsr_mc_chain *ch, struct netlink_ext_ack *extack);
int dsr_mcast_map(struct dsr_priv *priv, __be32 group, __be32 source,
		  bool add, struct netlink_ext_ack *extack,
		  struct sk_buff_head *out);
const struct dsr_mch *dsr_mcast_chain_of(struct dsr_priv *priv,
					 const struct dsr_mt_group *g);
void dsr_mcast_xmit(struct dsr_priv *priv, struct sk_buff *skb,
		    struct sk_buff_head *out);
bool dsr_mcast_inner(const struct sk_buff *skb, unsigned int off);
bool dsr_mcast_rx(struct dsr_priv *priv, struct sk_buff *skb,
		  unsigned int off, struct sk_buff_head *out);
void dsr_mcast_rx_join(struct dsr_priv *priv, struct sk_buff *skb,
		       unsigned int off, __be32 from, struct dsr_slave *s,
		       struct sk_buff_head *out);
void dsr_mcast_tick(struct dsr_priv *priv, u64 now, struct sk_buff_head *out);
int dsr_mcast_local(struct dsr_priv *priv, __be32 source, __be32 group,
		    u8 layers, const struct dsr_mtag_cfg *tag,
		    struct netlink_ext_ack *extack, struct sk_buff_head *out);

/* event.c */
enum { DSR_MCGRP_CONFIG_ID, DSR_MCGRP_EVENTS_ID };	/* the family's groups */
void dsr_event_init(const struct genl_family *family);
int dsr_put_dev(struct sk_buff *msg, const struct dsr_priv *priv);
void dsr_event(struct dsr_priv *priv, u8 event, __be32 addr, __be32 nexthop,
	       __be32 dst, const __be32 *hops, unsigned int n);

/* netlink.c */
int dsr_genl_init(void);
void dsr_genl_exit(void);

#endif /* _DSR_H */
