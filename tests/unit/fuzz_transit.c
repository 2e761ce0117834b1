// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the transit engine (kmod/orinoco_transit).
 *
 * The input is a few parameter bytes, then a sequence of operations on a
 * small table: receive a frame (built from a few input bytes, then maybe
 * corrupted; a random prefix of it read, in a buffer of exactly that
 * size so that ASan sees any read past it), transmit one, a drop report,
 * a tick, a kernel drop, a flush, new parameters, a dump.  Addresses and
 * IP ids come from small pools so that flows, marks and fragments meet.
 * After every operation the table's links must agree, memory must stay
 * within its bound, and the counters with each other and with what the
 * target saw: never a drop for a frame tr_peek_droppable() refuses, a
 * drop only for a flow in DROP or a fragment of a dropped datagram, and
 * pio_bytes_saved exactly the bytes left unread in dropped frames.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "fuzzer_input.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_OPS		256
#define FRAME_MAX	160

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static __be32 pool(u8 b)
{
	static const u8 a[8][4] = {
		{ 10, 0, 0, 1 }, { 10, 0, 0, 2 }, { 10, 0, 0, 3 },
		{ 10, 0, 0, 4 }, { 10, 0, 0, 5 }, { 224, 0, 0, 1 },
		{ 255, 255, 255, 255 }, { 192, 168, 0, 1 },
	};

	return ah_get_addr(a[b & 7]);
}

/* DSR options: a bare source route, or one of the others, or junk. */
static u32 put_dsr(u8 *b, struct input *in)
{
	static const u8 opts[][12] = {
		{ 96, 10, 0, 1, 10, 0, 0, 2, 10, 0, 0, 3 },
		{ 224, 96, 6, 0, 1, 10, 0, 0, 2, 0, 0, 0 },
		{ 1, 6, 0, 1, 10, 0, 0, 9, 224, 224, 224, 224 },
		{ 96, 6, 0, 1, 10, 0, 0, 2, 160, 2, 0, 1 },
		{ 96, 2, 0, 0, 32, 6, 0, 0, 0, 0, 0, 0 },
		{ 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	};
	u8 c = next(in);

	b[0] = TR_IPPROTO_UDP;
	b[1] = c & 0x80;
	put16(b + 2, c & 0x40 ? next(in) & 0x1f : 12);
	memcpy(b + 4, opts[c % ARRAY_SIZE(opts)], 12);
	return 16;
}

/*
 * A frame from the input: Ethernet (+ tag), IPv4 (+ options), then ports
 * or a DSR header, then some bytes; then maybe a few bytes overwritten.
 */
static u32 build(u8 *b, struct input *in)
{
	static const u16 frags[8] = { 0, 0, 0, 0x4000, TR_IP_MF,
				      TR_IP_MF | 185, 185, 0x1fff };
	static const u8 protos[4] = { TR_IPPROTO_UDP, TR_IPPROTO_TCP,
				      TR_IPPROTO_DSR, 1 };
	u8 c = next(in), a = next(in), x = next(in);
	u32 o = 12, ip, len, i;
	__be32 s = pool(a), d = pool(a >> 3);

	memset(b, 0, FRAME_MAX);
	b[0] = c & 0x03 ? 0x02 : (c & 0x04 ? 0x01 : 0xff);
	memset(b + 1, b[0] == 0xff ? 0xff : 0, 5);
	b[6] = 0x02;
	if (c & 0x08) {
		put16(b + 12, TR_ETH_P_8021Q);
		o += 4;
	}
	put16(b + o, TR_ETH_P_IP);
	ip = o + 2;
	b[ip] = c & 0x10 ? 0x46 : 0x45;
	put16(b + ip + 4, x & 7);
	put16(b + ip + 6, frags[(x >> 3) & 7]);
	b[ip + 9] = protos[(a >> 6) & 3];
	memcpy(b + ip + 12, &s, 4);
	memcpy(b + ip + 16, &d, 4);
	o = ip + (b[ip] & 0xf) * 4;
	if (b[ip + 9] == TR_IPPROTO_DSR) {
		o += put_dsr(b + o, in);
	} else {
		put16(b + o, 1000 + (x >> 6));
		put16(b + o + 2, 2000);
		o += 4;
	}
	len = o + next(in) % (FRAME_MAX - o + 1);
	put16(b + ip + 2, (u16)(len - ip));
	/* now and then, a few bytes anywhere */
	for (i = 0; (c & 0x20) && i < (c >> 6) + 1u; i++) {
		u8 pos = next(in);

		b[pos % len] = next(in);
	}
	return len;
}

struct model {
	u64 pio;		/* pio_bytes_saved as it must be */
	u64 drops, passes;
};

static void check_table(const struct tr_table *t)
{
	u32 i, n = 0, live = 0, marked = 0, chained = 0, mchained = 0;
	u64 last = 0;

	NEED(t->count <= t->cap);
	for (i = 0; i < t->cap; i++) {
		const struct tr_flow *f = &t->flow[i];

		live += f->state != TR_STATE_FREE;
		marked += f->marked;
		NEED(f->state <= TR_STATE_DROP);
		NEED(!f->marked || f->state != TR_STATE_FREE);
		NEED(f->probes <= f->marks);
		NEED(f->dropped <= f->pkts);
		NEED(f->false_positives <= f->probes);
	}
	NEED(live == t->count);
	for (i = t->free_head; i != TR_NIL; i = t->flow[i].hnext) {
		NEED(i < t->cap && t->flow[i].state == TR_STATE_FREE);
		NEED(++n <= t->cap);
	}
	NEED(n == t->cap - t->count);
	n = 0;
	for (i = t->lru_head; i != TR_NIL; i = t->flow[i].next) {
		NEED(i < t->cap && t->flow[i].state != TR_STATE_FREE);
		NEED(t->flow[i].prev == TR_NIL ? t->lru_head == i :
			t->flow[t->flow[i].prev].next == i);
		NEED(t->flow[i].next != TR_NIL || t->lru_tail == i);
		NEED(++n <= t->cap);
	}
	NEED(n == t->count);
	for (i = 0; i <= t->mask; i++) {
		u32 j;

		for (j = t->bucket[i]; j != TR_NIL; j = t->flow[j].hnext)
			NEED(++chained <= t->cap);
		for (j = t->mbucket[i]; j != TR_NIL; j = t->flow[j].mhnext) {
			NEED(t->flow[j].marked);
			NEED(++mchained <= t->cap);
		}
	}
	NEED(chained == t->count && mchained == marked);
	n = 0;
	for (i = t->mark_head; i != TR_NIL; i = t->flow[i].mnext) {
		NEED(t->flow[i].marked && t->flow[i].mark_deadline >= last);
		last = t->flow[i].mark_deadline;
		NEED(++n <= t->cap);
	}
	NEED(n == marked);
	/* each mark resolves at most once; evicted ones never */
	NEED(t->tot.seen + t->tot.misses + marked <= t->tot.marks);
	NEED(t->tot.probes <= t->tot.marks);
	NEED(t->tot.false_positives <= t->tot.seen);
	NEED(t->tot.rx == t->tot.passes + t->tot.early_drops);
	NEED(t->tot.frag_drops <= t->tot.early_drops);
	NEED(t->tot.never_drop <= t->tot.passes);
	NEED(t->tot.evictions + t->tot.idle_expired + t->count <=
	     t->tot.new_flows);
}

static void op_rx(struct tr_table *t, struct input *in, u64 now,
		  struct model *m)
{
	u8 b[FRAME_MAX], *c, how = next(in);
	u32 len = build(b, in), avail = len < t->p.peek_len ? len :
					t->p.peek_len, n;
	struct tr_flow_info before, after;
	struct tr_peek p;
	struct tr_key k;
	enum tr_verdict v;
	bool had;

	if (how & 1)			/* a driver that read less, or more */
		avail = next(in) % (len + 8);
	/* exactly what may be read: more than the frame is never read */
	n = avail < len ? avail : len;
	c = malloc(n ? n : 1);
	NEED(c);
	memcpy(c, b, n);
	NEED(tr_peek(c, avail, len, &p) < __TR_PEEK_MAX);
	free(c);
	memset(&k, 0, sizeof(k));
	k.saddr = p.saddr;
	k.daddr = p.daddr;
	k.proto = p.protocol;
	if (t->p.key_ports && p.has_ports) {
		k.sport = p.sport;
		k.dport = p.dport;
	}
	had = tr_flow_find(t, &k, &before, now);
	v = tr_flow_rx(t, &p, now, len, avail);
	NEED(v == TR_PASS || v == TR_DROP);
	if (v == TR_PASS) {
		m->passes++;
		return;
	}
	m->drops++;
	m->pio += len > avail ? len - avail : 0;
	NEED(tr_peek_droppable(&p));
	NEED(p.reason == TR_PEEK_OK && !p.l2_mcast && !p.l3_mcast &&
	     !p.l3_bcast);
	NEED(p.protocol != TR_IPPROTO_DSR || p.dsr_srt);
	if (!tr_peek_first_frag(&p))
		return;
	/* a packet or first fragment of a known flow, now in DROP */
	NEED(had);
	NEED(tr_flow_find(t, &k, &after, now));
	NEED(after.state == TR_STATE_DROP);
	NEED(after.dropped == before.dropped + 1);
}

static void op_tx(struct tr_table *t, struct input *in, u64 now)
{
	u8 b[FRAME_MAX], *c;
	u32 len = build(b, in);
	u64 seen = t->tot.seen;
	bool r;

	c = malloc(len);
	NEED(c);
	memcpy(c, b, len);
	r = tr_flow_tx(t, c, len, len, now);
	free(c);
	NEED(t->tot.seen == seen + r);
}

static void op_params(struct tr_table *t, struct input *in)
{
	struct tr_params p = t->p, before = t->p;
	u8 b = next(in);
	int r;

	p.n_misses = b % 5;		/* 0: refused */
	p.key_ports = (b >> 3) & 1;
	p.peek_len = 30 + next(in) % 100;
	/* marks out now end after later ones: the deadline list re-sorts */
	p.mark_timeout_ms = 1 + next(in) % 60;
	if (b & 0x80)
		p.table_size = 32;	/* another size: refused */
	r = tr_flow_set_params(t, &p);
	if (tr_params_check(&p) != TR_PARAM_OK ||
	    p.table_size != before.table_size) {
		NEED(r == -1 && !memcmp(&t->p, &before, sizeof(before)));
	} else {
		NEED(r == 0 && !memcmp(&t->p, &p, sizeof(p)));
	}
}

static void op_dump(const struct tr_table *t, u64 now)
{
	struct tr_flow_info fi, again;
	u32 cursor = 0, n = 0;

	while (tr_flow_iter(t, &cursor, &fi, now)) {
		NEED(fi.state >= TR_STATE_LEARNING &&
		     fi.state <= TR_STATE_DROP);
		NEED(tr_flow_find(t, &fi.key, &again, now));
		NEED(!memcmp(&fi, &again, sizeof(fi)));
		NEED(++n <= t->cap);
	}
	NEED(n == t->count && cursor == t->cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0 };
	struct model m = { 0, 0, 0 };
	struct tr_params p;
	struct tr_table *t;
	unsigned int ops;
	u64 now = 0, kdrops = 0;
	u8 b;

	tr_params_default(&p);
	b = next(&in);
	p.n_misses = 1 + b % 4;
	p.key_ports = (b >> 2) & 1;
	p.peek_len = (p.key_ports ? 38 : 34) + next(&in) % 60;
	p.mark_timeout_ms = 20;
	p.probe_interval_ms = 100;
	p.idle_timeout_ms = 500;
	p.table_size = 16;
	t = tr_flow_create(&p, 0x9e3779b9);
	NEED(t);
	for (ops = 0; ops < MAX_OPS && in.pos < in.n; ops++) {
		b = next(&in);
		now += b >> 6;		/* slowly: marks stay out a while */
		switch (b & 0x1f) {
		default:
			op_rx(t, &in, now, &m);
			break;
		case 16: case 17: case 18: case 19: case 20:
			op_tx(t, &in, now);
			break;
		case 21: case 22: case 23:
			b = next(&in);
			tr_flow_mark_dropped(t, pool(b), pool(b >> 3),
					     next(&in) & 7, now);
			break;
		case 24:
			now += next(&in) * 4u;
			NEED(tr_flow_tick(t, now) <= p.table_size);
			break;
		case 25:
			tr_flow_note_kernel_drop(t);
			kdrops++;
			break;
		case 26:
			if (next(&in) & 1)
				tr_flow_flush(t);
			else
				op_params(t, &in);
			break;
		case 27:
			op_dump(t, now);
			break;
		}
		check_table(t);
		NEED(t->tot.pio_bytes_saved == m.pio);
		NEED(t->tot.early_drops == m.drops);
		NEED(t->tot.passes == m.passes);
		NEED(t->tot.false_negatives == kdrops);
	}
	tr_flow_destroy(t);
	return 0;
}
