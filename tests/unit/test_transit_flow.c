// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/orinoco_transit/flow.c: parameters, the learner's
 * state machine, fragments, the bounded table and its LRU, the counters.
 * Frames are built, read through tr_peek() as a driver would (the first
 * peek_len bytes), and given to the receive and transmit hooks.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "ktap.h"
#include "transit_util.h"

#define A	ip4(10, 0, 0, 1)
#define E	ip4(10, 0, 0, 5)
#define F	ip4(10, 0, 0, 6)
#define UDP	TR_IPPROTO_UDP
#define TCP	TR_IPPROTO_TCP

/* A packet as the tests describe it. */
struct pkt {
	__be32 s, d;
	u8 proto;
	u16 sport, dport;
	u16 id;
	u16 frag;		/* flags and offset, as on the wire */
	u32 len;		/* frame bytes */
	const u8 *dmac;		/* NULL: ours */
};

static u32 build(u8 *b, const struct pkt *k)
{
	static const u8 us[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	u32 len = k->len < 34 ? 34 : k->len;

	memset(b, 0, len);
	memcpy(b, k->dmac ? k->dmac : us, 6);
	b[6] = 0x02;
	b[11] = 0x01;
	put16(b + 12, TR_ETH_P_IP);
	b[14] = 0x45;
	put16(b + 16, (u16)(len - 14));
	put16(b + 18, k->id);
	put16(b + 20, k->frag);
	b[22] = 64;
	b[23] = k->proto;
	memcpy(b + 26, &k->s, 4);
	memcpy(b + 30, &k->d, 4);
	if (len >= 38) {
		put16(b + 34, k->sport);
		put16(b + 36, k->dport);
	}
	return len;
}

/* The receive hook as a driver calls it: peek_len bytes read. */
static enum tr_verdict rx(struct tr_table *t, const struct pkt *k, u64 now)
{
	static u8 b[2048];
	u32 len = build(b, k), n = len < t->p.peek_len ? len : t->p.peek_len;
	struct tr_peek p;

	tr_peek(b, n, len, &p);
	return tr_flow_rx(t, &p, now, len, n);
}

static bool tx(struct tr_table *t, const struct pkt *k, u64 now)
{
	static u8 b[2048];
	u32 len = build(b, k);

	return tr_flow_tx(t, b, len, len, now);
}

static struct tr_flow_info info(const struct tr_table *t, const struct pkt *k)
{
	struct tr_flow_info fi;
	struct tr_key key = { k->s, k->d, 0, 0, k->proto };

	if (t->p.key_ports) {
		key.sport = k->sport;
		key.dport = k->dport;
	}
	if (!tr_flow_find(t, &key, &fi, 0))
		memset(&fi, 0, sizeof(fi));	/* state TR_STATE_FREE */
	return fi;
}

#define STATE(t, k)	info(t, k).state

/*
 * The table's links agree with each other: free list, LRU list, key
 * chains, mark chains and the deadline list each hold exactly the flows
 * they should.
 */
static bool consistent(const struct tr_table *t)
{
	u32 i, n = 0, live = 0, marked = 0, chained = 0, mchained = 0;
	u64 last_deadline = 0;

	for (i = 0; i < t->cap; i++) {
		live += t->flow[i].state != TR_STATE_FREE;
		marked += t->flow[i].marked;
		CHECK(!t->flow[i].marked ||
		      t->flow[i].state != TR_STATE_FREE);
	}
	CHECK_EQ(live, t->count);
	CHECK(t->count <= t->cap);
	for (i = t->free_head; i != TR_NIL; i = t->flow[i].hnext) {
		CHECK(t->flow[i].state == TR_STATE_FREE);
		CHECK(++n <= t->cap);
	}
	CHECK_EQ(n, t->cap - t->count);
	n = 0;
	for (i = t->lru_head; i != TR_NIL; i = t->flow[i].next) {
		const struct tr_flow *f = &t->flow[i];

		CHECK(f->state != TR_STATE_FREE);
		CHECK(f->prev == TR_NIL ? t->lru_head == i :
					  t->flow[f->prev].next == i);
		CHECK(f->next != TR_NIL || t->lru_tail == i);
		CHECK(++n <= t->cap);
	}
	CHECK_EQ(n, t->count);
	for (i = 0; i <= t->mask; i++) {
		u32 j;

		for (j = t->bucket[i]; j != TR_NIL; j = t->flow[j].hnext) {
			CHECK(t->flow[j].state != TR_STATE_FREE);
			CHECK(++chained <= t->cap);
		}
		for (j = t->mbucket[i]; j != TR_NIL; j = t->flow[j].mhnext) {
			CHECK(t->flow[j].marked);
			CHECK(++mchained <= t->cap);
		}
	}
	CHECK_EQ(chained, t->count);
	CHECK_EQ(mchained, marked);
	n = 0;
	for (i = t->mark_head; i != TR_NIL; i = t->flow[i].mnext) {
		CHECK(t->flow[i].marked);
		CHECK(t->flow[i].mark_deadline >= last_deadline);
		last_deadline = t->flow[i].mark_deadline;
		CHECK(++n <= t->cap);
	}
	CHECK_EQ(n, marked);
	CHECK_EQ(t->tot.rx, t->tot.passes + t->tot.early_drops);
	return true;
}

static struct tr_params params(void)
{
	struct tr_params p;

	tr_params_default(&p);
	p.table_size = 64;
	return p;
}

/* every test frees its table even when it fails */
#define TEST(name, ...)							\
	static bool name##_body(struct tr_table *t);			\
	static bool name(void)						\
	{								\
		struct tr_params p = params();				\
		struct tr_table *t;					\
		bool ok;						\
									\
		__VA_ARGS__;						\
		t = tr_flow_create(&p, 0x12345678);			\
		if (!t)							\
			return false;					\
		ok = name##_body(t) && consistent(t);			\
		tr_flow_destroy(t);					\
		return ok;						\
	}								\
	static bool name##_body(struct tr_table *t)

/* the flow most tests use: 10.0.0.1:5000 -> 10.0.0.5:6000, 1500 bytes */
#define UDP1	((struct pkt){ .s = A, .d = E, .proto = UDP, .sport = 5000, \
			       .dport = 6000, .len = 1500 })

/* ---- parameters ------------------------------------------------------ */

static bool t_params_default(void)
{
	struct tr_params p;
	struct tr_table *t;

	tr_params_default(&p);
	CHECK_EQ(tr_params_check(&p), TR_PARAM_OK);
	CHECK_EQ(p.n_misses, 3);
	CHECK_EQ(p.mark_timeout_ms, 200);
	CHECK_EQ(p.probe_interval_ms, 5000);
	CHECK_EQ(p.peek_len, 34);
	CHECK_EQ(p.table_size, 1024);
	CHECK_EQ(p.key_ports, 0);
	CHECK_EQ(p.idle_timeout_ms, 60000);
	t = tr_flow_create(&p, 1);
	CHECK(t);
	CHECK_EQ(t->cap, 1024);
	CHECK_EQ(t->mask, 1023);
	CHECK_EQ(t->count, 0);
	tr_flow_destroy(t);
	/* the edges of every range */
	p.n_misses = 1;
	p.mark_timeout_ms = 1;
	p.probe_interval_ms = 100;
	p.peek_len = 38;
	p.key_ports = 1;
	p.table_size = 16;
	p.idle_timeout_ms = 2;
	CHECK_EQ(tr_params_check(&p), TR_PARAM_OK);
	p.n_misses = 64;
	p.mark_timeout_ms = 10000;
	p.probe_interval_ms = 3600000;
	p.peek_len = 128;
	p.table_size = 65536;
	p.idle_timeout_ms = 86400000;
	CHECK_EQ(tr_params_check(&p), TR_PARAM_OK);
	t = tr_flow_create(&p, 1);
	CHECK(t);
	CHECK_EQ(t->mask, 65535);
	tr_flow_destroy(t);
	p.table_size = 1000;		/* buckets: the next power of two */
	t = tr_flow_create(&p, 1);
	CHECK(t);
	CHECK_EQ(t->mask, 1023);
	tr_flow_destroy(t);
	return true;
}

static bool t_params_bad(void)
{
	static const struct {
		size_t off;
		u32 val;
		enum tr_param want;
	} bad[] = {
#define BAD(field, v, w) { offsetof(struct tr_params, field), v, w }
		BAD(n_misses, 0, TR_PARAM_N_MISSES),
		BAD(n_misses, 65, TR_PARAM_N_MISSES),
		BAD(mark_timeout_ms, 0, TR_PARAM_MARK_TIMEOUT),
		BAD(mark_timeout_ms, 10001, TR_PARAM_MARK_TIMEOUT),
		BAD(probe_interval_ms, 99, TR_PARAM_PROBE_INTERVAL),
		BAD(probe_interval_ms, 3600001, TR_PARAM_PROBE_INTERVAL),
		BAD(probe_interval_ms, 200, TR_PARAM_PROBE_INTERVAL),
		BAD(peek_len, 33, TR_PARAM_PEEK_LEN),
		BAD(peek_len, 129, TR_PARAM_PEEK_LEN),
		BAD(peek_len, 0, TR_PARAM_PEEK_LEN),
		BAD(table_size, 15, TR_PARAM_TABLE_SIZE),
		BAD(table_size, 65537, TR_PARAM_TABLE_SIZE),
		BAD(table_size, 0, TR_PARAM_TABLE_SIZE),
		BAD(key_ports, 2, TR_PARAM_KEY_PORTS),
		BAD(key_ports, 1, TR_PARAM_KEY_PORTS),	/* peek_len 34 */
		BAD(idle_timeout_ms, 200, TR_PARAM_IDLE_TIMEOUT),
		BAD(idle_timeout_ms, 0, TR_PARAM_IDLE_TIMEOUT),
		BAD(idle_timeout_ms, 86400001, TR_PARAM_IDLE_TIMEOUT),
#undef BAD
	};
	struct tr_params good = params(), p, before;
	struct tr_table *t = tr_flow_create(&good, 7);
	unsigned int i, j;

	CHECK(t);
	CHECK_EQ(rx(t, &UDP1, 0), TR_PASS);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = good;
		memcpy((u8 *)&p + bad[i].off, &bad[i].val, sizeof(u32));
		if (tr_params_check(&p) != bad[i].want) {
			ktap_diag("case %u: %s", i,
				  tr_params_why(tr_params_check(&p)));
			tr_flow_destroy(t);
			return false;
		}
		CHECK(!tr_flow_create(&p, 7));
		before = t->p;
		CHECK_EQ(tr_flow_set_params(t, &p), -1);
		CHECK(!memcmp(&before, &t->p, sizeof(before)));
		CHECK_EQ(t->count, 1);	/* nothing changed */
	}
	/* one sentence per field, each its own */
	for (i = 0; i < __TR_PARAM_MAX; i++) {
		CHECK(strcmp(tr_params_why((enum tr_param)i), "?"));
		for (j = 0; j < i; j++)
			CHECK(strcmp(tr_params_why((enum tr_param)i),
				     tr_params_why((enum tr_param)j)));
	}
	CHECK(!strcmp(tr_params_why(__TR_PARAM_MAX), "?"));
	tr_flow_destroy(t);
	return true;
}

TEST(t_set_params)
{
	struct tr_params p = t->p;

	CHECK_EQ(rx(t, &UDP1, 0), TR_PASS);
	/* timers and thresholds: the flows stay */
	p.n_misses = 5;
	p.probe_interval_ms = 1000;
	p.idle_timeout_ms = 5000;
	CHECK_EQ(tr_flow_set_params(t, &p), 0);
	CHECK_EQ(t->p.n_misses, 5);
	CHECK_EQ(t->count, 1);
	CHECK(info(t, &UDP1).marked);
	/* another size needs another table */
	p.table_size = 128;
	CHECK_EQ(tr_flow_set_params(t, &p), -1);
	p.table_size = 64;
	/* what a key means changes: the flows go, totals stay */
	p.peek_len = 38;
	CHECK_EQ(tr_flow_set_params(t, &p), 0);
	CHECK_EQ(t->count, 0);
	CHECK(consistent(t));
	CHECK_EQ(rx(t, &UDP1, 1), TR_PASS);
	p.key_ports = 1;
	CHECK_EQ(tr_flow_set_params(t, &p), 0);
	CHECK_EQ(t->count, 0);
	CHECK_EQ(t->tot.rx, 2);
	CHECK_EQ(t->tot.new_flows, 2);
	return true;
}

/* ---- the learner ----------------------------------------------------- */

TEST(t_first_packet_marked)
{
	struct pkt k = UDP1;
	struct tr_flow_info fi;

	k.id = 100;
	CHECK_EQ(rx(t, &k, 10), TR_PASS);
	fi = info(t, &k);
	CHECK_EQ(fi.state, TR_STATE_LEARNING);
	CHECK(fi.marked);
	CHECK_EQ(fi.marks, 1);
	CHECK_EQ(t->flow[t->lru_head].mark_id, 100);
	CHECK_EQ(t->flow[t->lru_head].mark_deadline, 210);
	/* one outstanding mark per flow */
	k.id = 101;
	CHECK_EQ(rx(t, &k, 20), TR_PASS);
	fi = info(t, &k);
	CHECK_EQ(fi.marks, 1);
	CHECK_EQ(fi.pkts, 2);
	CHECK_EQ(fi.bytes, 3000);
	CHECK_EQ(t->tot.marks, 1);
	/* only the marked one counts */
	CHECK(!tx(t, &k, 30));
	CHECK_EQ(STATE(t, &k), TR_STATE_LEARNING);
	return true;
}

TEST(t_seen_forward)
{
	struct pkt k = UDP1;
	struct tr_flow_info fi;

	k.id = 7;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK(tx(t, &k, 50));
	fi = info(t, &k);
	CHECK_EQ(fi.state, TR_STATE_FORWARD);
	CHECK(!fi.marked);
	CHECK_EQ(fi.misses, 0);
	CHECK_EQ(t->tot.seen, 1);
	CHECK_EQ(t->tot.misses, 0);
	CHECK(!tx(t, &k, 60));		/* resolved once */
	/* a FORWARD flow passes, and is not marked until the interval */
	k.id = 8;
	CHECK_EQ(rx(t, &k, 1000), TR_PASS);
	CHECK(!info(t, &k).marked);
	CHECK_EQ(t->tot.marks, 1);
	return true;
}

/* n misses in a row, by deadline: DROP exactly at the n-th */
static bool drop_after(u32 n)
{
	struct tr_params p = params();
	struct tr_table *t;
	struct pkt k = UDP1;
	u64 now = 0;
	u32 i;
	bool ok = false;

	p.n_misses = n;
	t = tr_flow_create(&p, 99);
	if (!t)
		return false;
	for (i = 0; i < n; i++) {
		k.id = (u16)i;
		if (rx(t, &k, now) != TR_PASS)
			goto out;
		if (info(t, &k).misses != i || STATE(t, &k) !=
		    TR_STATE_LEARNING || !info(t, &k).marked)
			goto out;
		now += 201;		/* deadline passed */
	}
	/* the n-th miss is found by this packet, which is dropped */
	k.id = (u16)n;
	if (rx(t, &k, now) != TR_DROP)
		goto out;
	if (STATE(t, &k) != TR_STATE_DROP || info(t, &k).misses != n ||
	    info(t, &k).marks != n || t->tot.misses != n ||
	    t->tot.early_drops != 1 || info(t, &k).dropped != 1)
		goto out;
	ok = consistent(t);
out:
	if (!ok)
		ktap_diag("n_misses %u: state %u misses %u", n, STATE(t, &k),
			  info(t, &k).misses);
	tr_flow_destroy(t);
	return ok;
}

static bool t_drop_after_n(void)
{
	CHECK(drop_after(1));
	CHECK(drop_after(2));
	CHECK(drop_after(3));
	CHECK(drop_after(5));
	CHECK(drop_after(64));
	return true;
}

/* A miss is counted once the deadline is passed, not at it. */
TEST(t_deadline)
{
	struct pkt k = UDP1;

	k.id = 1;
	CHECK_EQ(rx(t, &k, 1000), TR_PASS);
	CHECK(tx(t, &k, 1200));		/* at the deadline: in time */
	CHECK_EQ(STATE(t, &k), TR_STATE_FORWARD);

	k.s = F;
	CHECK_EQ(rx(t, &k, 1000), TR_PASS);
	CHECK(!tx(t, &k, 1201));	/* late: a miss */
	CHECK_EQ(info(t, &k).misses, 1);
	CHECK(!info(t, &k).marked);
	CHECK_EQ(t->tot.misses, 1);
	CHECK_EQ(t->tot.seen, 1);
	return true;
}

/* Marks expire without packets: by the tick, and by other flows' packets. */
TEST(t_tick)
{
	struct pkt k = UDP1, other = UDP1;

	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK_EQ(tr_flow_tick(t, 200), 0);
	CHECK(info(t, &k).marked);
	CHECK_EQ(tr_flow_tick(t, 201), 0);
	CHECK(!info(t, &k).marked);
	CHECK_EQ(info(t, &k).misses, 1);
	CHECK_EQ(t->tot.misses, 1);

	/* the packet path resolves expired marks too */
	CHECK_EQ(rx(t, &k, 300), TR_PASS);	/* marked again */
	other.s = F;
	CHECK_EQ(rx(t, &other, 501), TR_PASS);
	CHECK(!info(t, &k).marked);
	CHECK_EQ(info(t, &k).misses, 2);
	return true;
}

TEST(t_mark_dropped)
{
	struct pkt k = UDP1;
	int i;

	k.id = 40;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK(!tr_flow_mark_dropped(t, A, E, 41, 1));	/* not marked */
	CHECK(!tr_flow_mark_dropped(t, E, A, 40, 1));
	CHECK(tr_flow_mark_dropped(t, A, E, 40, 1));
	CHECK_EQ(info(t, &k).misses, 1);		/* at once */
	CHECK(!info(t, &k).marked);
	CHECK(!tr_flow_mark_dropped(t, A, E, 40, 2));	/* once */
	CHECK(!tx(t, &k, 3));
	CHECK_EQ(info(t, &k).misses, 1);
	/* a firewall and the probe: DROP after three packets, no waiting */
	for (i = 0; i < 2; i++) {
		k.id++;
		CHECK_EQ(rx(t, &k, 4 + i), TR_PASS);
		CHECK(tr_flow_mark_dropped(t, A, E, k.id, 4 + i));
	}
	CHECK_EQ(STATE(t, &k), TR_STATE_DROP);
	k.id++;
	CHECK_EQ(rx(t, &k, 10), TR_DROP);
	CHECK_EQ(t->tot.misses, 3);
	return true;
}

/* to DROP by three drop reports, from now; returns the time after */
static u64 to_drop(struct tr_table *t, struct pkt *k, u64 now)
{
	unsigned int i;

	for (i = 0; i < t->p.n_misses; i++) {
		k->id++;
		if (rx(t, k, now) != TR_PASS ||
		    !tr_flow_mark_dropped(t, k->s, k->d, k->id, now))
			return 0;
		now++;
	}
	return STATE(t, k) == TR_STATE_DROP ? now : 0;
}

TEST(t_probe_forwarded)
{
	struct pkt k = UDP1;
	struct tr_flow_info fi;
	u64 now = to_drop(t, &k, 100), probe;

	CHECK(now);
	probe = now - 1 + t->p.probe_interval_ms;
	/* dropped until the probe is due */
	for (; now < probe; now += 100) {
		k.id++;
		CHECK_EQ(rx(t, &k, now), TR_DROP);
	}
	k.id++;
	CHECK_EQ(rx(t, &k, probe), TR_PASS);	/* the probe */
	fi = info(t, &k);
	CHECK(fi.marked);
	CHECK_EQ(fi.probes, 1);
	CHECK_EQ(t->tot.probes, 1);
	/* while it is out, the flow is still dropped */
	k.id++;
	CHECK_EQ(rx(t, &k, probe + 10), TR_DROP);
	/* the probe comes back: the firewall rule is gone */
	k.id--;
	CHECK(tx(t, &k, probe + 20));
	fi = info(t, &k);
	CHECK_EQ(fi.state, TR_STATE_FORWARD);
	CHECK_EQ(fi.false_positives, 1);
	CHECK_EQ(fi.misses, 0);
	CHECK_EQ(t->tot.false_positives, 1);
	k.id += 2;
	CHECK_EQ(rx(t, &k, probe + 30), TR_PASS);
	return true;
}

TEST(t_probe_missed)
{
	struct pkt k = UDP1;
	u64 now = to_drop(t, &k, 0), probe;

	CHECK(now);
	probe = now - 1 + t->p.probe_interval_ms;
	k.id++;
	CHECK_EQ(rx(t, &k, probe), TR_PASS);
	/* probe lost (by deadline): still DROP, next probe an interval on */
	k.id++;
	CHECK_EQ(rx(t, &k, probe + 201), TR_DROP);
	CHECK_EQ(STATE(t, &k), TR_STATE_DROP);
	CHECK_EQ(info(t, &k).misses, 4);
	k.id++;
	CHECK_EQ(rx(t, &k, probe + t->p.probe_interval_ms - 1), TR_DROP);
	k.id++;
	CHECK_EQ(rx(t, &k, probe + t->p.probe_interval_ms), TR_PASS);
	/* and the second probe dropped by the kernel */
	CHECK(tr_flow_mark_dropped(t, A, E, k.id, probe + 5001));
	CHECK_EQ(STATE(t, &k), TR_STATE_DROP);
	CHECK_EQ(info(t, &k).probes, 2);
	CHECK_EQ(t->tot.probes, 2);
	CHECK_EQ(t->tot.false_positives, 0);
	return true;
}

/* A new firewall rule on a forwarded flow is learned by the re-marks. */
TEST(t_forward_remark)
{
	struct pkt k = UDP1;
	u64 iv = t->p.probe_interval_ms;

	k.id = 1;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK(tx(t, &k, 1));
	k.id = 2;
	CHECK_EQ(rx(t, &k, iv), TR_PASS);	/* not due yet */
	CHECK(!info(t, &k).marked);
	k.id = 3;
	CHECK_EQ(rx(t, &k, iv + 1), TR_PASS);	/* due: re-marked */
	CHECK(info(t, &k).marked);
	CHECK(tx(t, &k, iv + 2));
	CHECK_EQ(info(t, &k).marks, 2);
	/* the rule comes: a miss, and the next packet is marked at once */
	k.id = 4;
	CHECK_EQ(rx(t, &k, 2 * iv + 1), TR_PASS);	/* not due yet */
	CHECK(!info(t, &k).marked);
	CHECK_EQ(rx(t, &k, 2 * iv + 2), TR_PASS);
	CHECK(tr_flow_mark_dropped(t, A, E, 4, 2 * iv + 2));
	CHECK_EQ(STATE(t, &k), TR_STATE_FORWARD);
	k.id = 5;
	CHECK_EQ(rx(t, &k, 2 * iv + 3), TR_PASS);
	CHECK(info(t, &k).marked);
	CHECK(tr_flow_mark_dropped(t, A, E, 5, 2 * iv + 3));
	k.id = 6;
	CHECK_EQ(rx(t, &k, 2 * iv + 4), TR_PASS);
	CHECK(tr_flow_mark_dropped(t, A, E, 6, 2 * iv + 4));
	CHECK_EQ(STATE(t, &k), TR_STATE_DROP);
	k.id = 7;
	CHECK_EQ(rx(t, &k, 2 * iv + 5), TR_DROP);
	return true;
}

TEST(t_misses_in_a_row)
{
	struct pkt k = UDP1;

	k.id = 1;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK(tr_flow_mark_dropped(t, A, E, 1, 0));
	k.id = 2;
	CHECK_EQ(rx(t, &k, 1), TR_PASS);
	CHECK(tr_flow_mark_dropped(t, A, E, 2, 1));
	k.id = 3;
	CHECK_EQ(rx(t, &k, 2), TR_PASS);
	CHECK(tx(t, &k, 3));			/* forwarded after all */
	CHECK_EQ(info(t, &k).misses, 0);
	CHECK_EQ(info(t, &k).misses_total, 2);
	CHECK_EQ(STATE(t, &k), TR_STATE_FORWARD);
	return true;
}

/* The transmitted packet must be of the flow: protocol, ports. */
TEST(t_tx_same_flow, p.peek_len = 38; p.key_ports = 1)
{
	struct pkt k = UDP1, o;

	k.id = 9;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	o = k;
	o.proto = TCP;
	CHECK(!tx(t, &o, 1));
	o = k;
	o.dport++;
	CHECK(!tx(t, &o, 1));
	o = k;
	o.d = F;
	CHECK(!tx(t, &o, 1));
	CHECK(info(t, &k).marked);
	/* drop reports know no ports: (saddr, daddr, id) is enough */
	CHECK(tx(t, &k, 2));
	/* ports apart: two flows, one dropped, one forwarded */
	o = k;
	o.dport = 53;
	o.id = 20;
	CHECK_EQ(to_drop(t, &o, 10) != 0, 1);
	k.id = 30;
	CHECK_EQ(rx(t, &k, 20), TR_PASS);
	o.id = 31;
	CHECK_EQ(rx(t, &o, 20), TR_DROP);
	CHECK_EQ(t->count, 2);
	return true;
}

/* Without ports in the key, the ports do not split a flow. */
TEST(t_no_ports_key)
{
	struct pkt k = UDP1, o = UDP1;

	o.dport = 53;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK_EQ(rx(t, &o, 1), TR_PASS);
	CHECK_EQ(t->count, 1);
	CHECK_EQ(info(t, &k).pkts, 2);
	o.proto = TCP;
	CHECK_EQ(rx(t, &o, 2), TR_PASS);
	CHECK_EQ(t->count, 2);
	return true;
}

/* IP id 0 (DF from an unconnected socket): any packet of it is a match. */
TEST(t_id_zero)
{
	struct pkt k = UDP1;

	k.frag = 0x4000;
	CHECK_EQ(rx(t, &k, 0), TR_PASS);
	CHECK_EQ(rx(t, &k, 1), TR_PASS);
	CHECK(tx(t, &k, 2));
	CHECK_EQ(STATE(t, &k), TR_STATE_FORWARD);
	return true;
}

/* ---- never drop ------------------------------------------------------ */

TEST(t_never_drop)
{
	static const u8 bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const u8 mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	struct pkt k = UDP1, o;
	struct tr_peek p;
	u64 now = to_drop(t, &k, 0);
	u64 never;

	CHECK(now);
	CHECK_EQ(rx(t, &k, now), TR_DROP);
	never = t->tot.never_drop;
	/* the same addresses, but a broadcast or multicast frame */
	o = k;
	o.dmac = bcast;
	CHECK_EQ(rx(t, &o, now), TR_PASS);
	o.dmac = mcast;
	CHECK_EQ(rx(t, &o, now), TR_PASS);
	CHECK_EQ(t->tot.never_drop, never + 2);
	/* a multicast group learned as DROP is impossible: never tracked */
	o = k;
	o.d = ip4(224, 0, 0, 1);
	CHECK_EQ(rx(t, &o, now), TR_PASS);
	o.d = ip4(255, 255, 255, 255);
	CHECK_EQ(rx(t, &o, now), TR_PASS);
	CHECK_EQ(t->count, 1);
	/* DSR control: protocol 48 unseen at 34 bytes */
	o = k;
	o.proto = TR_IPPROTO_DSR;
	CHECK_EQ(rx(t, &o, now), TR_PASS);
	CHECK_EQ(t->count, 1);
	/* a peek not from tr_peek, contradicting itself */
	memset(&p, 0, sizeof(p));
	p.reason = TR_PEEK_OK;
	p.ipv4 = true;
	p.saddr = A;
	p.daddr = ip4(239, 1, 1, 1);
	p.protocol = UDP;
	CHECK_EQ(tr_flow_rx(t, &p, now, 1500, 34), TR_PASS);
	p.daddr = E;
	p.reason = TR_PEEK_FRAME_TRUNC;
	CHECK_EQ(tr_flow_rx(t, &p, now, 1500, 34), TR_PASS);
	p.reason = TR_PEEK_OK;
	CHECK_EQ(tr_flow_rx(t, &p, now, 1500, 34), TR_DROP);
	CHECK_EQ(t->tot.never_drop, never + 7);
	return true;
}

/* DSR data (a bare source route) is learned like any flow. */
TEST(t_dsr_data, p.peek_len = 64)
{
	static u8 b[256];
	struct tr_peek pk;
	u32 len = 100, i;
	u16 id;

	memset(b, 0, sizeof(b));
	b[0] = 0x02;
	put16(b + 12, TR_ETH_P_IP);
	b[14] = 0x45;
	put16(b + 16, (u16)(len - 14));
	b[23] = TR_IPPROTO_DSR;
	memcpy(b + 26, &(__be32){ A }, 4);
	memcpy(b + 30, &(__be32){ E }, 4);
	b[34] = UDP;
	put16(b + 36, 12);
	b[38] = TR_DSR_OPT_SRT;
	b[39] = 10;
	b[41] = 1;
	for (id = 1, i = 0; i < 3; i++, id++) {
		put16(b + 18, id);
		CHECK_EQ(tr_peek(b, 64, len, &pk), TR_PEEK_OK);
		CHECK(pk.dsr_srt);
		CHECK_EQ(tr_flow_rx(t, &pk, i, len, 64), TR_PASS);
		CHECK(tr_flow_mark_dropped(t, A, E, id, i));
	}
	put16(b + 18, id);
	CHECK_EQ(tr_peek(b, 64, len, &pk), TR_PEEK_OK);
	CHECK_EQ(tr_flow_rx(t, &pk, 10, len, 64), TR_DROP);
	/* the same flow with a Route Request inside: control, passed */
	b[38] = 1;
	b[39] = 6;
	CHECK_EQ(tr_peek(b, 64, len, &pk), TR_PEEK_OK);
	CHECK(!pk.dsr_srt);
	CHECK_EQ(tr_flow_rx(t, &pk, 11, len, 64), TR_PASS);
	return true;
}

/* ---- fragments ------------------------------------------------------- */

#define MF	TR_IP_MF

TEST(t_fragments_follow)
{
	struct pkt k = UDP1, f;
	u64 now = to_drop(t, &k, 0);

	CHECK(now);
	/* a datagram whose first fragment is dropped: all of it is */
	f = k;
	f.id = 500;
	f.frag = MF;
	CHECK_EQ(rx(t, &f, now), TR_DROP);
	f.frag = MF | 185;
	CHECK_EQ(rx(t, &f, now + 1), TR_DROP);
	f.frag = 370;
	f.len = 200;
	CHECK_EQ(rx(t, &f, now + 2), TR_DROP);
	CHECK_EQ(t->tot.frag_drops, 2);
	CHECK_EQ(info(t, &k).dropped, 1);	/* fragments are no flow */
	/* a fragment whose first was never seen passes */
	f.id = 501;
	f.frag = MF | 185;
	CHECK_EQ(rx(t, &f, now + 3), TR_PASS);
	/* nor does a fragment create a flow */
	f.s = F;
	CHECK_EQ(rx(t, &f, now + 3), TR_PASS);
	CHECK_EQ(t->count, 1);
	/* another protocol, same id: another datagram */
	f = k;
	f.id = 500;
	f.proto = TCP;
	f.frag = 185;
	CHECK_EQ(rx(t, &f, now + 4), TR_PASS);
	/* the verdict is forgotten after TR_FRAG_TTL_MS */
	f.proto = UDP;
	CHECK_EQ(rx(t, &f, now + TR_FRAG_TTL_MS - 1), TR_DROP);
	CHECK_EQ(rx(t, &f, now + TR_FRAG_TTL_MS), TR_PASS);
	return true;
}

/* The probe's datagram passes whole, though the flow stays in DROP. */
TEST(t_fragments_probe)
{
	struct pkt k = UDP1, f;
	u64 now = to_drop(t, &k, 0), probe;

	CHECK(now);
	probe = now - 1 + t->p.probe_interval_ms;
	f = k;
	f.id = 900;
	f.frag = MF;
	CHECK_EQ(rx(t, &f, probe), TR_PASS);		/* the probe */
	/* an unfragmented packet meanwhile: dropped */
	k.id = 901;
	CHECK_EQ(rx(t, &k, probe + 1), TR_DROP);
	f.frag = MF | 185;
	CHECK_EQ(rx(t, &f, probe + 2), TR_PASS);
	/* a duplicate of the first fragment does not cut it */
	f.frag = MF;
	CHECK_EQ(rx(t, &f, probe + 3), TR_DROP);
	f.frag = 370;
	CHECK_EQ(rx(t, &f, probe + 4), TR_PASS);
	return true;
}

/*
 * Passes are recorded too: a datagram that passed is not cut, even when
 * its id had a drop record (ids wrap; the old record is not its own).
 */
TEST(t_fragments_pass, p.probe_interval_ms = 500)
{
	struct pkt k = UDP1, f;
	u64 now = to_drop(t, &k, 0), probe;

	CHECK(now);
	probe = now - 1 + t->p.probe_interval_ms;
	f = k;
	f.id = 77;
	f.frag = MF;
	CHECK_EQ(rx(t, &f, now), TR_DROP);
	f.frag = MF | 185;
	CHECK_EQ(rx(t, &f, now), TR_DROP);
	/* the rule is gone: the probe comes back */
	k.id = 1000;
	CHECK_EQ(rx(t, &k, probe), TR_PASS);
	CHECK(tx(t, &k, probe + 1));
	CHECK_EQ(STATE(t, &k), TR_STATE_FORWARD);
	/* id 77 again, within the record's life: this time it passes */
	f.frag = MF;
	CHECK_EQ(rx(t, &f, probe + 2), TR_PASS);
	f.frag = MF | 185;
	CHECK_EQ(rx(t, &f, probe + 3), TR_PASS);
	f.frag = 370;
	CHECK_EQ(rx(t, &f, probe + 4), TR_PASS);
	return true;
}

/* More fragmented datagrams at once than records: unsure, so pass. */
TEST(t_fragments_bounded)
{
	struct pkt k = UDP1, f;
	u64 now = to_drop(t, &k, 0);
	u32 i, passed = 0;

	CHECK(now);
	f = k;
	f.frag = MF;
	for (i = 0; i < 1000; i++) {
		f.id = (u16)(1000 + i);
		CHECK_EQ(rx(t, &f, now), TR_DROP);
	}
	f.frag = 185;
	for (i = 0; i < 1000; i++) {
		f.id = (u16)(1000 + i);
		passed += rx(t, &f, now) == TR_PASS;
	}
	/* at most TR_FRAG_SLOTS remembered; the rest pass */
	CHECK(passed >= 1000 - TR_FRAG_SLOTS);
	CHECK(passed < 1000);
	return true;
}

/* ---- the table ------------------------------------------------------- */

static u32 rnd_state = 1;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return rnd_state >> 1 ^ rnd_state << 16;
}

/* A flood of spoofed sources: memory flat, flows bounded, LRU holds. */
static bool t_flood(void)
{
	struct tr_params p;
	struct tr_table *t;
	struct pkt k = UDP1, steady = UDP1;
	u32 i, longest = 0;
	bool ok = false;

	tr_params_default(&p);
	t = tr_flow_create(&p, 0xdecafbad);
	CHECK(t);
	steady.s = ip4(192, 168, 1, 1);
	for (i = 0; i < 100000; i++) {
		k.s = (__force __be32)rnd();
		k.id = (u16)i;
		if (rx(t, &k, i / 10) != TR_PASS || t->count > t->cap)
			goto out;
		/* a steady forwarded flow, one packet per 100 spoofed ones */
		steady.id = (u16)i;
		if (i % 100 == 0 && (rx(t, &steady, i / 10) != TR_PASS ||
				     (info(t, &steady).marked &&
				      !tx(t, &steady, i / 10))))
			goto out;
		if (i % 10000 == 0 && !consistent(t))
			goto out;
	}
	ktap_diag("flows %u, new %llu, evictions %llu", t->count,
		  (unsigned long long)t->tot.new_flows,
		  (unsigned long long)t->tot.evictions);
	if (t->count != t->cap ||
	    t->tot.evictions != t->tot.new_flows - t->count)
		goto out;
	/* the steady flow was never evicted: one flow, every packet */
	if (info(t, &steady).pkts != 1000)
		goto out;
	for (i = 0; i <= t->mask; i++) {
		u32 j, n = 0;

		for (j = t->bucket[i]; j != TR_NIL; j = t->flow[j].hnext)
			n++;
		if (n > longest)
			longest = n;
	}
	ktap_diag("longest chain %u", longest);
	ok = longest <= 10 && consistent(t);
out:
	tr_flow_destroy(t);
	return ok;
}

/* When full, the flow heard least recently goes. */
TEST(t_lru, p.table_size = 16)
{
	struct pkt k[17];
	u32 i;

	for (i = 0; i < 17; i++) {
		k[i] = UDP1;
		k[i].s = ip4(10, 1, 0, (u8)i);
	}
	for (i = 0; i < 16; i++)
		CHECK_EQ(rx(t, &k[i], i), TR_PASS);
	CHECK_EQ(t->count, 16);
	CHECK_EQ(rx(t, &k[0], 16), TR_PASS);	/* 0 heard again */
	CHECK_EQ(rx(t, &k[16], 17), TR_PASS);
	CHECK_EQ(t->count, 16);
	CHECK_EQ(t->tot.evictions, 1);
	CHECK_EQ(STATE(t, &k[1]), TR_STATE_FREE);	/* the oldest */
	CHECK_EQ(STATE(t, &k[0]), TR_STATE_LEARNING);
	CHECK_EQ(STATE(t, &k[16]), TR_STATE_LEARNING);
	CHECK(consistent(t));
	/* marks of evicted flows go with them */
	CHECK(!tr_flow_mark_dropped(t, k[1].s, k[1].d, 0, 18));
	CHECK_EQ(rx(t, &k[1], 18), TR_PASS);	/* evicts 2 */
	CHECK_EQ(STATE(t, &k[2]), TR_STATE_FREE);
	CHECK_EQ(info(t, &k[1]).pkts, 1);	/* learned anew */
	CHECK_EQ(t->tot.evictions, 2);
	return true;
}

TEST(t_idle)
{
	struct pkt a = UDP1, b = UDP1;

	b.s = F;
	CHECK_EQ(rx(t, &a, 0), TR_PASS);
	CHECK_EQ(rx(t, &b, 30000), TR_PASS);
	CHECK_EQ(tr_flow_tick(t, 60000), 0);	/* idle 60000: not more */
	CHECK_EQ(tr_flow_tick(t, 60001), 1);
	CHECK_EQ(STATE(t, &a), TR_STATE_FREE);
	CHECK_EQ(STATE(t, &b), TR_STATE_LEARNING);
	CHECK_EQ(tr_flow_tick(t, 90001), 1);
	CHECK_EQ(t->count, 0);
	CHECK_EQ(t->tot.idle_expired, 2);
	CHECK_EQ(t->tot.misses, 2);		/* their marks expired */
	return true;
}

TEST(t_iter)
{
	struct tr_flow_info fi;
	struct pkt k = UDP1;
	u32 cursor = 0, n = 0, i;
	bool seen[10] = { false };

	for (i = 0; i < 10; i++) {
		k.s = ip4(10, 2, 0, (u8)i);
		k.len = 100 + i;
		CHECK_EQ(rx(t, &k, i), TR_PASS);
	}
	while (tr_flow_iter(t, &cursor, &fi, 20)) {
		u8 o = ((const u8 *)&fi.key.saddr)[3];

		CHECK(o < 10 && !seen[o]);
		seen[o] = true;
		CHECK(fi.key.daddr == E && fi.key.proto == UDP);
		CHECK_EQ(fi.key.sport, 0);
		CHECK_EQ(fi.bytes, 100u + o);
		CHECK_EQ(fi.idle_ms, 20u - o);
		CHECK_EQ(fi.state, TR_STATE_LEARNING);
		n++;
	}
	CHECK_EQ(n, 10);
	CHECK_EQ(cursor, t->cap);
	CHECK(!tr_flow_iter(t, &cursor, &fi, 20));
	/* a cursor kept across changes is still safe */
	cursor = 3;
	tr_flow_flush(t);
	CHECK(!tr_flow_iter(t, &cursor, &fi, 20));
	return true;
}

TEST(t_flush)
{
	struct pkt k = UDP1;
	u64 now = to_drop(t, &k, 0);

	CHECK(now);
	CHECK_EQ(rx(t, &k, now), TR_DROP);
	tr_flow_flush(t);
	CHECK_EQ(t->count, 0);
	CHECK(consistent(t));
	CHECK_EQ(rx(t, &k, now), TR_PASS);	/* learned anew */
	CHECK_EQ(t->tot.early_drops, 1);	/* totals stay */
	tr_flow_clear_totals(t);
	CHECK_EQ(t->tot.rx, 0);
	CHECK_EQ(t->tot.early_drops, 0);
	return true;
}

/* pio_bytes_saved: frame minus what was read, over dropped frames only. */
TEST(t_pio_saved, p.peek_len = 40)
{
	static const u32 lens[] = { 1500, 60, 34, 42, 1000, 41, 2000 };
	struct pkt k = UDP1;
	u64 now = to_drop(t, &k, 0), want = 0, early;
	u32 i;

	CHECK(now);
	CHECK_EQ(t->tot.pio_bytes_saved, 0);	/* passes save nothing */
	early = t->tot.early_drops;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		k.len = lens[i];
		k.id++;
		CHECK_EQ(rx(t, &k, now + i), TR_DROP);
		want += lens[i] > 40 ? lens[i] - 40 : 0;
	}
	CHECK_EQ(t->tot.pio_bytes_saved, want);
	CHECK_EQ(want, 1460 + 20 + 0 + 2 + 960 + 1 + 1960);
	CHECK_EQ(t->tot.early_drops, early + ARRAY_SIZE(lens));
	/* a driver that read more than it had to saves less */
	k.id++;
	k.len = 1500;
	{
		static u8 b[2048];
		struct tr_peek p;
		u32 len = build(b, &k);

		tr_peek(b, 100, len, &p);
		CHECK_EQ(tr_flow_rx(t, &p, now + 10, len, 100), TR_DROP);
		CHECK_EQ(t->tot.pio_bytes_saved, want + 1400);
		tr_peek(b, 34, 20, &p);
		CHECK_EQ(tr_flow_rx(t, &p, now + 10, 20, 34), TR_PASS);
		CHECK_EQ(t->tot.pio_bytes_saved, want + 1400);
	}
	return true;
}

TEST(t_counters)
{
	struct pkt k = UDP1;
	u64 now = to_drop(t, &k, 0);

	CHECK(now);
	tr_flow_note_kernel_drop(t);
	tr_flow_note_kernel_drop(t);
	CHECK_EQ(t->tot.false_negatives, 2);
	CHECK_EQ(t->tot.rx, 3);
	CHECK_EQ(t->tot.passes, 3);
	CHECK_EQ(t->tot.marks, 3);
	CHECK_EQ(t->tot.misses, 3);
	CHECK_EQ(t->tot.new_flows, 1);
	CHECK_EQ(rx(t, &k, now), TR_DROP);
	CHECK_EQ(t->tot.rx, 4);
	CHECK_EQ(t->tot.early_drops, 1);
	CHECK_EQ(t->tot.pio_bytes_saved, 1500 - 34);
	return true;
}

/* Two seeds spread the same keys differently. */
static bool t_seed(void)
{
	struct tr_params p = params();
	struct tr_table *a = tr_flow_create(&p, 1), *b = tr_flow_create(&p, 2);
	struct pkt k = UDP1;
	u32 i, same = 0;

	CHECK(a && b);
	for (i = 0; i < 64; i++) {
		k.s = ip4(10, 3, 0, (u8)i);
		rx(a, &k, 0);
		rx(b, &k, 0);
	}
	for (i = 0; i <= a->mask; i++)
		same += a->bucket[i] == b->bucket[i];
	tr_flow_destroy(a);
	tr_flow_destroy(b);
	CHECK(same < 32);
	return true;
}

static const struct ktap_case cases[] = {
	{ "parameters: defaults and the edges of each range", t_params_default },
	{ "parameters: each bad field named, nothing changed", t_params_bad },
	{ "set parameters: flows kept, or forgotten on rekey", t_set_params },
	{ "a new flow: first packet marked, one mark at a time",
	  t_first_packet_marked },
	{ "mark seen on transmit: FORWARD", t_seen_forward },
	{ "DROP after exactly n misses (1, 2, 3, 5, 64)", t_drop_after_n },
	{ "a mark is in time up to its deadline", t_deadline },
	{ "marks expire by tick and on other flows' packets", t_tick },
	{ "drop report: a miss at once, once", t_mark_dropped },
	{ "probe forwarded: FORWARD, false positive", t_probe_forwarded },
	{ "probe missed: still DROP, probed again", t_probe_missed },
	{ "FORWARD re-marked: a new rule is learned", t_forward_remark },
	{ "misses count in a row", t_misses_in_a_row },
	{ "transmit must match the flow key", t_tx_same_flow },
	{ "no ports in the key: one flow per protocol", t_no_ports_key },
	{ "IP id 0 flows are learned", t_id_zero },
	{ "never drop: broadcast, multicast, control, bad peeks",
	  t_never_drop },
	{ "DSR source-routed data learned, control passed", t_dsr_data },
	{ "fragments follow their datagram's first", t_fragments_follow },
	{ "a probe's fragments pass", t_fragments_probe },
	{ "a passed datagram is not cut when the flow turns",
	  t_fragments_pass },
	{ "fragment records bounded: unknown passes", t_fragments_bounded },
	{ "100000 spoofed flows: bounded, evictions counted", t_flood },
	{ "LRU: the flow heard least recently is evicted", t_lru },
	{ "idle flows are forgotten by the tick", t_idle },
	{ "dump iterator", t_iter },
	{ "flush forgets flows, keeps totals", t_flush },
	{ "pio_bytes_saved exact", t_pio_saved },
	{ "counters", t_counters },
	{ "the seed moves the buckets", t_seed },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
