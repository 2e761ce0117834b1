/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transit flow table and its learner (seed 000 section 4.2): a driver
 * learns which transit flows the kernel drops by watching whether marked
 * packets come back on transmit, and then drops their frames after
 * reading only their first bytes.  No kernel dependencies: also built
 * into tests/unit.
 *
 * No locking inside: the caller serialises every call on one table (the
 * module holds a per-device spinlock around rx, tx, the kfree_skb probe
 * and the tick).  Times are u64 milliseconds passed in as now, monotonic;
 * nothing here reads a clock or sleeps.  Memory is allocated once, by
 * tr_flow_create() in process context: the packet path never allocates,
 * so memory stays flat whatever peers send.
 *
 * Per flow, the learner goes:
 *
 *   new -> LEARNING: every packet while no mark is outstanding is marked
 *          (its IP id remembered, deadline now + mark_timeout_ms).
 *   mark seen on transmit (tr_flow_tx)          -> FORWARD, misses = 0
 *   mark past its deadline, or tr_flow_mark_dropped() -> one miss;
 *          n_misses misses in a row             -> DROP
 *   FORWARD: one packet marked every probe_interval_ms, and the next one
 *          at once after a miss, so a new firewall rule is learned.
 *   DROP:  frames dropped early, but one let through marked every
 *          probe_interval_ms (a probe); probe seen -> FORWARD, and a false
 *          positive is counted; probe missed -> still DROP.
 *
 * A mark is resolved once, by whichever comes first: its sighting on
 * transmit up to the deadline, a drop report, or the deadline passing.  A
 * sighting after the deadline finds no mark (set mark_timeout_ms above
 * the forwarding delay under load).
 *
 * A key is (saddr, daddr, protocol) and, when the table keys on ports,
 * the ports of a first fragment whose transport header lies within the
 * peek_len bytes read; otherwise ports 0.  Transmit parses the same
 * peek_len bytes, so a packet has the same key both ways.  The IP id
 * tells the marked packet apart; a source that sends id 0 (DF from an
 * unconnected socket) still works, as any packet of the flow seen on
 * transmit shows that the flow is forwarded.
 *
 * Non-first fragments carry no ports and are never flows: they follow the
 * verdict of their first fragment.  Each first fragment leaves a record
 * (saddr, daddr, id, protocol) -> verdict, TR_FRAG_SLOTS of them, 4-way
 * set associative by a keyed hash, for TR_FRAG_TTL_MS; a full set loses
 * its oldest record.  A non-first fragment with no record passes, so a
 * datagram is never cut in half on a guess: at worst the kernel reads
 * fragments it will not reassemble.  Passes are recorded too, so that a
 * stale drop record of a reused id cannot cut a datagram that passed,
 * and a duplicate first fragment never turns a pass into a drop.
 */
#ifndef _TR_FLOW_H
#define _TR_FLOW_H

#include "peek.h"

/* Parameters; the defaults, and the ranges tr_params_check() enforces. */
struct tr_params {
	u32 n_misses;		/* misses in a row before DROP: 1..64, 3 */
	u32 mark_timeout_ms;	/* 1..10000, 200 */
	u32 probe_interval_ms;	/* 100..3600000 and > mark timeout, 5000 */
	u32 peek_len;		/* bytes read before deciding: 34..128, 34 */
	u32 table_size;		/* flows: 16..65536, 1024 */
	u32 key_ports;		/* 0/1: ports in the key; needs peek_len >= 38 */
	u32 idle_timeout_ms;	/* forget a silent flow: > mark timeout,
				 * ..86400000, 60000
				 */
};

#define TR_N_MISSES_MAX		64
#define TR_MARK_TIMEOUT_MAX	10000
#define TR_PROBE_INTERVAL_MIN	100
#define TR_PROBE_INTERVAL_MAX	3600000
#define TR_TABLE_SIZE_MIN	16
#define TR_TABLE_SIZE_MAX	65536
#define TR_IDLE_TIMEOUT_MAX	86400000

/* The field tr_params_check() refused first; TR_PARAM_OK: none. */
enum tr_param {
	TR_PARAM_OK,
	TR_PARAM_N_MISSES,
	TR_PARAM_MARK_TIMEOUT,
	TR_PARAM_PROBE_INTERVAL,
	TR_PARAM_PEEK_LEN,
	TR_PARAM_TABLE_SIZE,
	TR_PARAM_KEY_PORTS,
	TR_PARAM_IDLE_TIMEOUT,
	__TR_PARAM_MAX,
};

void tr_params_default(struct tr_params *p);
enum tr_param tr_params_check(const struct tr_params *p);
/* A sentence for the netlink extack: what the refused field must be. */
const char *tr_params_why(enum tr_param f);

/* States; the values of TRANSIT_STATE_* (include/uapi/linux/ah_transit.h) */
enum tr_state {
	TR_STATE_FREE,		/* a slot without a flow */
	TR_STATE_LEARNING,
	TR_STATE_FORWARD,
	TR_STATE_DROP,
};

enum tr_verdict {
	TR_PASS,		/* read the rest of the frame */
	TR_DROP,		/* drop it now, unread */
};

/* ports are 0 unless the table keys on ports and the packet shows them */
struct tr_key {
	__be32 saddr, daddr;
	u16 sport, dport;
	u8 proto;
};

#define TR_NIL			U32_MAX

struct tr_flow {
	struct tr_key key;
	u8 state;		/* enum tr_state */
	u8 misses;		/* in a row, since the last sighting */
	bool marked;		/* a mark is outstanding */
	u16 mark_id;		/* IP id of the marked packet */
	u32 hnext;		/* chain of the key's bucket */
	u32 prev, next;		/* LRU list, most recent first */
	u32 mhnext;		/* chain of the mark's bucket */
	u32 mprev, mnext;	/* outstanding marks by deadline */
	u64 mark_deadline;	/* ms */
	u64 next_mark;		/* ms: FORWARD re-mark, DROP probe */
	u64 created, last;	/* ms */
	u64 pkts, bytes, dropped;
	u32 marks, probes, misses_total, false_positives;
};

/* Totals of one table; the kernel adds false_negatives. */
struct tr_totals {
	u64 rx;			/* frames given to tr_flow_rx() */
	u64 passes;		/* verdict pass (rx = passes + early_drops) */
	u64 early_drops;	/* verdict drop */
	u64 pio_bytes_saved;	/* frame_len - peek_len, over early drops */
	u64 never_drop;		/* passed: not droppable by the peek */
	u64 frag_drops;		/* non-first fragments dropped (early_drops) */
	u64 false_positives;	/* probe of a DROP flow forwarded */
	u64 false_negatives;	/* tr_flow_note_kernel_drop() */
	u64 marks;		/* packets marked, probes included */
	u64 probes;		/* marks of DROP flows */
	u64 misses;		/* marks not seen on transmit */
	u64 seen;		/* marks seen on transmit */
	u64 new_flows;
	u64 evictions;		/* flows forgotten to make room */
	u64 idle_expired;	/* flows forgotten after idle_timeout_ms */
};

/* A record of a fragmented datagram whose first fragment was seen. */
struct tr_frag {
	__be32 saddr, daddr;
	u16 id;
	u8 proto;
	u8 verdict;		/* enum tr_verdict */
	u64 expires;		/* ms; 0: free */
};

#define TR_FRAG_SLOTS		64	/* 16 sets of 4 */
#define TR_FRAG_WAYS		4
#define TR_FRAG_TTL_MS		2000

struct tr_table {
	struct tr_params p;
	u32 seed;		/* hash key: random in the kernel */
	u32 cap;		/* flows */
	u32 mask;		/* buckets - 1; buckets: power of 2 >= cap */
	u32 count;
	u32 lru_head, lru_tail;
	u32 free_head;		/* through hnext */
	u32 mark_head, mark_tail;
	u32 *bucket;		/* by key */
	u32 *mbucket;		/* flows with a mark, by (saddr, daddr, id) */
	struct tr_flow *flow;
	struct tr_frag frag[TR_FRAG_SLOTS];
	struct tr_totals tot;
};

/*
 * A table for valid parameters (tr_params_check()), with this hash seed:
 * the kernel passes get_random_u32(), so that a flood of spoofed sources
 * cannot aim at one bucket.  NULL without memory or with bad parameters.
 */
struct tr_table *tr_flow_create(const struct tr_params *p, u32 seed);
void tr_flow_destroy(struct tr_table *t);
/*
 * Apply parameters of the same table_size (another size needs a new
 * table).  A change of peek_len or key_ports changes what a key means:
 * the flows are forgotten.  Returns -1, changing nothing, if refused.
 */
int tr_flow_set_params(struct tr_table *t, const struct tr_params *p);
/* Forget every flow and fragment record; totals stay. */
void tr_flow_flush(struct tr_table *t);
void tr_flow_clear_totals(struct tr_table *t);

/*
 * The receive hook: p from tr_peek() of the peek_len bytes read of a
 * frame of frame_len bytes.  TR_DROP only for a droppable peek
 * (checked here again) of a flow in DROP; the caller has already passed
 * frames for this host.  Non-first fragments follow their datagram.
 */
enum tr_verdict tr_flow_rx(struct tr_table *t, const struct tr_peek *p,
			   u64 now, u32 frame_len, u32 peek_len);

/*
 * A frame for this host (or a broadcast of its subnets), as the caller
 * found by address: passed and counted with the never-dropped, and never
 * learned, since its marks would never come back on transmit.
 */
void tr_flow_rx_local(struct tr_table *t);

/*
 * The transmit hook: the first avail bytes of a frame of frame_len bytes
 * about to be sent.  Only the first peek_len bytes are parsed, as on
 * receive, so that a key reads the same both ways.  True if it was the
 * marked packet of a flow, now known to be forwarded.
 */
bool tr_flow_tx(struct tr_table *t, const u8 *data, u32 avail,
		u32 frame_len, u64 now);

/*
 * The kfree_skb probe saw a packet of (saddr, daddr, id) dropped by the
 * kernel (id host order): if it is an outstanding mark, a miss at once.
 * Marks are indexed by these three alone; if two flows differing in
 * protocol or ports have one outstanding, the first found takes it.
 */
bool tr_flow_mark_dropped(struct tr_table *t, __be32 saddr, __be32 daddr,
			  u16 id, u64 now);

/* The kernel dropped a frame the engine passed whole: a false negative. */
void tr_flow_note_kernel_drop(struct tr_table *t);

/*
 * Marks past their deadline become misses, flows silent for longer than
 * idle_timeout_ms are forgotten (returned: how many).  The packet path
 * also resolves a few expired marks per call, so the tick may be slow.
 */
unsigned int tr_flow_tick(struct tr_table *t, u64 now);

/* What a dump shows of one flow. */
struct tr_flow_info {
	struct tr_key key;
	u8 state;		/* enum tr_state */
	u8 misses;		/* in a row */
	bool marked;
	u64 pkts, bytes, dropped;
	u32 marks, probes, misses_total, false_positives;
	u64 idle_ms, age_ms;
};

/*
 * Dump: the next flow at slot *cursor or after it, into fi; *cursor moves
 * past it.  Start at 0; false at the end.  Slots are stable, so a dump
 * that drops the lock between calls neither crashes nor loops.
 */
bool tr_flow_iter(const struct tr_table *t, u32 *cursor,
		  struct tr_flow_info *fi, u64 now);
/* The flow of this key (ports 0 unless keyed on ports), if held. */
bool tr_flow_find(const struct tr_table *t, const struct tr_key *k,
		  struct tr_flow_info *fi, u64 now);

#endif /* _TR_FLOW_H */
