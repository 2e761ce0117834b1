// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the DSR protocol files (kmod/dsr).
 *
 * The input is a DSR Options header for dsr_parse().  When it is accepted,
 * every accessor of opt.h is run on every option it recorded (ASan checks
 * they stay inside the header), the recorded offsets are checked against
 * an independent walk of the options, and dsr_rewrite_unknown() on a copy
 * must give a header that parses again, with only the unknown options
 * changed.  Whatever dsr_parse() said, the same bytes then drive a short
 * sequence of operations on a small route cache and Route Request table,
 * whose results are checked against what rcache.h and rreq.h promise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "rcache.h"
#include "rreq.h"
#include "fuzzer_input.h"

static volatile u32 sink;	/* keeps the accessor reads */

static bool is_known(u8 type)
{
	switch (type) {
	case DSR_OPT_PADN:
	case DSR_OPT_RREQ:
	case DSR_OPT_RREP:
	case DSR_OPT_RERR:
	case DSR_OPT_ACK:
	case DSR_OPT_SRT:
	case DSR_OPT_AREQ:
	case DSR_OPT_PAD1:
		return true;
	}
	return false;
}

/* the option at off is whole, inside the header, and of this type */
static void check_opt(const u8 *h, const struct dsr_parsed *p, u16 off,
		      u8 type)
{
	NEED(off >= DSR_HDR_LEN);
	NEED((size_t)off + 2 <= p->len);
	NEED((size_t)off + 2 + dsr_opt_len(h, off) <= p->len);
	NEED(h[off] == type);
}

static void check_addrs(const __be32 *a, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		sink += a[i];
	/* must not crash, whatever the addresses */
	sink += dsr_route_ok(a, n, 0, DSR_MAX_PATH);
	if (n)
		sink += dsr_route_ok(a, n, a[n - 1], n);
}

static void check_rreq(const u8 *h, const struct dsr_parsed *p)
{
	__be32 a[64];
	unsigned int n, i;

	check_opt(h, p, p->rreq, DSR_OPT_RREQ);
	n = dsr_rreq_naddr(h, p->rreq);
	NEED(6 + 4 * n == dsr_opt_len(h, p->rreq));
	sink += dsr_rreq_id(h, p->rreq) + dsr_rreq_target(h, p->rreq);
	for (i = 0; i < n; i++)
		a[i] = dsr_rreq_addr(h, p->rreq, i);
	check_addrs(a, n);
}

static void check_rrep(const u8 *h, const struct dsr_parsed *p, u16 off)
{
	__be32 a[64];
	unsigned int n, i;

	check_opt(h, p, off, DSR_OPT_RREP);
	n = dsr_rrep_naddr(h, off);
	NEED(n >= 1 && 1 + 4 * n == dsr_opt_len(h, off));
	sink += h[off + 2] & DSR_RREP_L;
	for (i = 0; i < n; i++)
		a[i] = dsr_rrep_addr(h, off, i);
	check_addrs(a, n);
}

static void check_rerr(const u8 *h, const struct dsr_parsed *p, u16 off)
{
	u8 len = dsr_opt_len(h, off);

	check_opt(h, p, off, DSR_OPT_RERR);
	NEED(len >= 10);
	sink += h[off + 2] + (h[off + 3] & 0xf) + ah_get_addr(h + off + 4) +
		ah_get_addr(h + off + 8);
	/*
	 * 8.3.5: whatever follows it, with the address after it as ours;
	 * the run to send again lies inside the header
	 */
	if ((size_t)off + 2 + len + 8 <= p->len) {
		u16 start = 0;
		__be32 dst;
		size_t run;

		run = dsr_rerr_returned(h, p, off,
					ah_get_addr(h + off + 2 + len + 4),
					&dst, &start);
		NEED(!run || (start == off + 2 + len &&
			      (size_t)start + run <= p->len));
		sink += run;
	}
	switch (h[off + 2]) {
	case DSR_RERR_NODE_UNREACHABLE:
		NEED(len >= 14);
		sink += ah_get_addr(h + off + 12);
		break;
	case DSR_RERR_OPTION_NOT_SUPPORTED:
		NEED(len >= 11);
		sink += h[off + 12];
		break;
	}
}

static void check_ack(const u8 *h, const struct dsr_parsed *p, u16 off)
{
	check_opt(h, p, off, DSR_OPT_ACK);
	NEED(dsr_opt_len(h, off) == 10);
	sink += ah_get16(h + off + 2) + ah_get_addr(h + off + 4) +
		ah_get_addr(h + off + 8);
}

static void check_srt(const u8 *h, const struct dsr_parsed *p)
{
	__be32 a[64], src = 0x11111111, dst = 0x22222222;
	unsigned int n, i, segs;
	u8 *copy;
	u16 v;

	check_opt(h, p, p->srt, DSR_OPT_SRT);
	n = dsr_srt_naddr(h, p->srt);
	NEED(2 + 4 * n == dsr_opt_len(h, p->srt));
	v = dsr_srt_bits(h, p->srt);
	segs = DSR_SRT_SEGS(v);
	NEED(segs <= n);
	sink += DSR_SRT_SALVAGE(v) + !!(v & DSR_SRT_F) + !!(v & DSR_SRT_L);
	for (i = 0; i < n; i++)
		a[i] = dsr_srt_addr(h, p->srt, i);
	check_addrs(a, n);
	for (i = 0; i <= n + 1; i++) {
		__be32 x = dsr_srt_node(h, p->srt, src, dst, i);

		NEED(x == (i == 0 ? src : i > n ? dst : a[i - 1]));
	}
	/* the next hop and the one after it, as forwarding reads them */
	sink += dsr_srt_node(h, p->srt, src, dst, n - segs + 1);
	sink += dsr_srt_node(h, p->srt, src, dst, n - segs + 2);

	copy = malloc(p->len);
	NEED(copy);
	memcpy(copy, h, p->len);
	for (i = 0; i <= n; i++) {
		struct dsr_parsed q;

		dsr_srt_set_segs(copy, p->srt, i);
		NEED(DSR_SRT_SEGS(dsr_srt_bits(copy, p->srt)) == i);
		NEED((dsr_srt_bits(copy, p->srt) & ~0x3f) == (v & ~0x3f));
		NEED(dsr_parse(copy, p->len, &q) == DSR_OK);
	}
	free(copy);
}

static bool same_parse(const struct dsr_parsed *a, const struct dsr_parsed *b)
{
	return a->next_header == b->next_header && a->len == b->len &&
	       a->rreq == b->rreq && a->areq == b->areq && a->srt == b->srt &&
	       a->n_rrep == b->n_rrep && a->n_rerr == b->n_rerr &&
	       a->n_ack == b->n_ack && a->n_unknown == b->n_unknown &&
	       !memcmp(a->rrep, b->rrep, sizeof(a->rrep)) &&
	       !memcmp(a->rerr, b->rerr, sizeof(a->rerr)) &&
	       !memcmp(a->ack, b->ack, sizeof(a->ack)) &&
	       !memcmp(a->unknown, b->unknown, sizeof(a->unknown)) &&
	       a->report == b->report && a->report_type == b->report_type;
}

/* An independent walk of the options must find what dsr_parse recorded. */
static void check_walk(const u8 *h, const struct dsr_parsed *p)
{
	unsigned int rrep = 0, rerr = 0, ack = 0, unk = 0, off = DSR_HDR_LEN;
	bool rreq = false, areq = false, srt = false, report = false;

	while (off < p->len) {
		u8 t = h[off];

		if (t == DSR_OPT_PAD1) {
			off++;
			continue;
		}
		NEED(off + 2 <= p->len);
		switch (t) {
		case DSR_OPT_PADN:
			break;
		case DSR_OPT_RREQ:
			NEED(!rreq && p->rreq == off);
			rreq = true;
			break;
		case DSR_OPT_AREQ:
			NEED(!areq && p->areq == off);
			NEED(dsr_opt_len(h, off) == 2);
			sink += ah_get16(h + off + 2);
			areq = true;
			break;
		case DSR_OPT_SRT:
			NEED(!srt && p->srt == off);
			srt = true;
			break;
		case DSR_OPT_RREP:
			NEED(rrep < p->n_rrep && p->rrep[rrep] == off);
			rrep++;
			break;
		case DSR_OPT_RERR:
			NEED(rerr < p->n_rerr && p->rerr[rerr] == off);
			rerr++;
			break;
		case DSR_OPT_ACK:
			NEED(ack < p->n_ack && p->ack[ack] == off);
			ack++;
			break;
		default:
			NEED(DSR_UNK_ACTION(t) != DSR_UNK_DROP);
			if (DSR_UNK_REPORT(t) && !report) {
				NEED(p->report && p->report_type == t);
				report = true;
			}
			if (DSR_UNK_ACTION(t) != DSR_UNK_IGNORE) {
				NEED(unk < p->n_unknown &&
				     p->unknown[unk] == off);
				NEED(!is_known(h[off]));
				unk++;
			}
		}
		off += 2 + dsr_opt_len(h, off);
	}
	NEED(off == p->len);
	NEED(rreq == !!p->rreq && areq == !!p->areq && srt == !!p->srt);
	NEED(rrep == p->n_rrep && rerr == p->n_rerr && ack == p->n_ack);
	NEED(unk == p->n_unknown && report == p->report);
	NEED(p->report || !p->report_type);
}

static void check_rewrite(const u8 *h, const struct dsr_parsed *p)
{
	u8 *c = malloc(p->len), *c2 = malloc(p->len);
	struct dsr_parsed q;
	unsigned int i, marks = 0;
	size_t o;

	NEED(c && c2);
	memcpy(c, h, p->len);
	dsr_rewrite_unknown(c, p);
	for (i = 0; i < p->n_unknown; i++) {
		u16 off = p->unknown[i];
		u8 len = h[off + 1];

		if (DSR_UNK_ACTION(h[off]) == DSR_UNK_REMOVE) {
			NEED(c[off] == DSR_OPT_PADN && c[off + 1] == len);
			for (o = off + 2; o < off + 2u + len; o++)
				NEED(c[o] == 0);
		} else {
			NEED(DSR_UNK_ACTION(h[off]) == DSR_UNK_MARK);
			NEED(c[off] == h[off] && c[off + 1] == len);
			if (len)
				NEED(c[off + 2] == (h[off + 2] | 0x80));
			marks++;
		}
	}
	/* nothing else changed */
	for (o = 0; o < p->len; o++) {
		bool in = false;

		for (i = 0; i < p->n_unknown; i++)
			if (o >= p->unknown[i] &&
			    o < p->unknown[i] + 2u + h[p->unknown[i] + 1])
				in = true;
		NEED(in || c[o] == h[o]);
	}
	NEED(dsr_parse(c, p->len, &q) == DSR_OK);
	NEED(q.n_unknown == marks && q.len == p->len);
	NEED(q.rreq == p->rreq && q.areq == p->areq && q.srt == p->srt);
	NEED(q.n_rrep == p->n_rrep && q.n_rerr == p->n_rerr &&
	     q.n_ack == p->n_ack);
	/* a second rewrite changes nothing more */
	memcpy(c2, c, p->len);
	dsr_rewrite_unknown(c2, &q);
	NEED(!memcmp(c, c2, p->len));
	free(c);
	free(c2);
}

static void fuzz_parse(const u8 *data, size_t size)
{
	struct dsr_parsed p, q;
	enum dsr_bad r;
	unsigned int i;

	r = dsr_parse(data, size, &p);
	NEED(r < __DSR_BAD_MAX && r != DSR_BAD_ROUTE);
	if (r != DSR_OK)
		return;
	NEED(p.len >= DSR_HDR_LEN && p.len <= size);
	NEED(p.len == DSR_HDR_LEN + ah_get16(data + 2));
	NEED(p.next_header == data[0] && !(data[1] & 0x80));
	NEED(p.n_rrep <= DSR_MAX_REPEAT && p.n_rerr <= DSR_MAX_REPEAT &&
	     p.n_ack <= DSR_MAX_REPEAT && p.n_unknown <= DSR_MAX_UNKNOWN);
	/* only the header's own bytes matter */
	NEED(dsr_parse(data, p.len, &q) == DSR_OK && same_parse(&p, &q));

	if (p.rreq)
		check_rreq(data, &p);
	if (p.areq) {
		check_opt(data, &p, p.areq, DSR_OPT_AREQ);
		NEED(dsr_opt_len(data, p.areq) == 2);
	}
	if (p.srt)
		check_srt(data, &p);
	for (i = 0; i < p.n_rrep; i++)
		check_rrep(data, &p, p.rrep[i]);
	for (i = 0; i < p.n_rerr; i++)
		check_rerr(data, &p, p.rerr[i]);
	for (i = 0; i < p.n_ack; i++)
		check_ack(data, &p, p.ack[i]);
	{
		/* 8.3.4: what a Route Error for this packet carries fits */
		u8 carry[96];
		size_t w = dsr_rerr_carry(carry, sizeof(carry), data, &p,
					  (u8)size, 15);

		NEED(w <= sizeof(carry));
		NEED(!w || carry[0] == DSR_OPT_RERR || carry[0] == DSR_OPT_ACK);
		sink += w;
	}
	for (i = 0; i < p.n_unknown; i++) {
		check_opt(data, &p, p.unknown[i], data[p.unknown[i]]);
		NEED(DSR_UNK_ACTION(data[p.unknown[i]]) == DSR_UNK_REMOVE ||
		     DSR_UNK_ACTION(data[p.unknown[i]]) == DSR_UNK_MARK);
	}
	check_walk(data, &p);
	check_rewrite(data, &p);
}

/* ---- route cache and Route Request table ---------------------------- */

#define RC_CAP		4
#define RC_TIMEOUT	100
#define MAX_OPS		64

/* Few addresses, so that paths share nodes; two are unroutable. */
static __be32 pool(u8 b)
{
	static const u8 a[8][4] = {
		{ 10, 0, 0, 1 }, { 10, 0, 0, 2 }, { 10, 0, 0, 3 },
		{ 10, 0, 0, 4 }, { 10, 0, 0, 5 }, { 10, 0, 0, 6 },
		{ 0, 0, 0, 0 }, { 224, 0, 0, 1 },
	};

	return ah_get_addr(a[b & 7]);
}

#define SELF	pool(0)

static bool live(const struct dsr_path *p, u64 now)
{
	return p->len && ((p->flags & DSR_PATH_STATIC) || p->expires > now);
}

static void check_cache(const struct dsr_rcache *rc)
{
	unsigned int i, n = 0;

	for (i = 0; i < rc->cap; i++) {
		const struct dsr_path *p = &rc->paths[i];

		if (!p->len)
			continue;
		n++;
		NEED(p->len <= DSR_MAX_PATH);
		NEED(dsr_route_ok(p->hop, p->len, rc->self, DSR_MAX_PATH));
	}
	NEED(dsr_rc_count(rc) == n && n <= rc->cap);
}

/* What dsr_rc_lookup should find: hop count of the best route, or 0. */
static unsigned int ref_lookup(const struct dsr_rcache *rc, __be32 dst,
			       u64 now)
{
	unsigned int i, j, best = 0;
	int best_ext = 2;

	for (i = 0; i < rc->cap; i++) {
		const struct dsr_path *p = &rc->paths[i];
		__be32 prev = rc->self;
		int ext;

		if (!live(p, now))
			continue;
		for (j = 0; j < p->len; j++) {
			if (dsr_neg_has(rc, prev, p->hop[j], now))
				break;
			if (p->hop[j] == dst)
				break;
			prev = p->hop[j];
		}
		if (j == p->len || p->hop[j] != dst ||
		    dsr_neg_has(rc, prev, p->hop[j], now))
			continue;
		ext = (p->flags & DSR_PATH_EXTERNAL) && j == p->len - 1u;
		if (ext < best_ext || (ext == best_ext && j + 1 < best)) {
			best = j + 1;
			best_ext = ext;
		}
	}
	return best;
}

static void op_add(struct dsr_rcache *rc, struct input *in, u64 now)
{
	__be32 hop[DSR_MAX_PATH + 2];
	u8 b = next(in);
	unsigned int n = b % 8, i, k, statics = 0;
	u8 flags = (b >> 3) & (DSR_PATH_STATIC | DSR_PATH_EXTERNAL);
	bool ok;
	int r;

	if (b >= 0xf0)		/* now and then, the longest there is */
		n = DSR_MAX_PATH + (b & 1);
	for (i = 0; i < n; i++)
		hop[i] = b >= 0xf0 ? ah_get_addr((const u8[]){
				10, 1, 0, (u8)(i + 1) }) : pool(next(in));
	ok = n && dsr_route_ok(hop, n, rc->self, DSR_MAX_PATH);
	for (k = 0; k < rc->cap; k++)
		statics += live(&rc->paths[k], now) &&
			   (rc->paths[k].flags & DSR_PATH_STATIC);
	r = dsr_rc_add(rc, hop, n, flags, now);
	NEED(r >= -1 && r <= 1);
	if (!ok) {
		NEED(r < 0);
		return;
	}
	if (r < 0) {		/* only when full of static paths */
		NEED(statics == rc->cap);
		return;
	}
	/* now held, as such or as a prefix, live */
	for (k = 0; k < rc->cap; k++) {
		const struct dsr_path *p = &rc->paths[k];

		if (live(p, now) && p->len >= n &&
		    !memcmp(p->hop, hop, n * sizeof(*hop)))
			break;
	}
	NEED(k < rc->cap);
}

static void op_lookup(struct dsr_rcache *rc, struct input *in, u64 now)
{
	__be32 out[DSR_MAX_PATH + 1], dst = pool(next(in)), prev = rc->self;
	unsigned int want = ref_lookup(rc, dst, now), n, i;

	out[DSR_MAX_PATH] = 0x5a5a5a5a;
	n = dsr_rc_lookup(rc, dst, out, now);
	NEED(n == want);
	NEED(out[DSR_MAX_PATH] == 0x5a5a5a5a);
	if (!n)
		return;
	NEED(out[n - 1] == dst);
	NEED(dsr_route_ok(out, n, rc->self, DSR_MAX_PATH));
	for (i = 0; i < n; i++) {
		NEED(!dsr_neg_has(rc, prev, out[i], now));
		prev = out[i];
	}
	/* the lookup refreshed it (other routes may free up meanwhile) */
	NEED(ref_lookup(rc, dst, now + RC_TIMEOUT - 1));
}

static void op_del_link(struct dsr_rcache *rc, struct input *in)
{
	struct dsr_path before[RC_CAP + 8];
	u8 b = next(in);
	__be32 from = pool(b), to = pool(b >> 3);
	unsigned int i, j, changed = 0, cut;

	NEED(rc->cap <= RC_CAP + 8);
	memcpy(before, rc->paths, rc->cap * sizeof(*before));
	cut = dsr_rc_del_link(rc, from, to);
	for (i = 0; i < rc->cap; i++) {
		const struct dsr_path *p = &rc->paths[i];
		__be32 prev = rc->self;

		NEED(p->len <= before[i].len);
		NEED(!memcmp(p->hop, before[i].hop, p->len * sizeof(__be32)));
		changed += p->len != before[i].len;
		for (j = 0; j < p->len; j++) {
			NEED(!(prev == from && p->hop[j] == to));
			NEED(!(prev == to && p->hop[j] == from));
			prev = p->hop[j];
		}
	}
	NEED(cut == changed);
}

static void op_del_dst(struct dsr_rcache *rc, struct input *in)
{
	__be32 dst = pool(next(in));
	unsigned int i, before = dsr_rc_count(rc), n;

	n = dsr_rc_del_dst(rc, dst);
	NEED(dsr_rc_count(rc) == before - n);
	for (i = 0; i < rc->cap; i++)
		NEED(!rc->paths[i].len ||
		     rc->paths[i].hop[rc->paths[i].len - 1] != dst);
}

static void op_neg(struct dsr_rcache *rc, struct input *in, u64 now)
{
	u8 b = next(in);
	__be32 from = pool(b), to = pool(b >> 3);
	u64 until = now + 1 + next(in) * 4u;
	unsigned int i, held = 0;

	dsr_neg_add(rc, from, to, until);
	NEED(dsr_neg_has(rc, from, to, now) && dsr_neg_has(rc, to, from, now));
	/* one entry for the link this way round, ending at until */
	for (i = 0; i < DSR_NEG_MAX; i++) {
		const struct dsr_neg_link *l = &rc->neg[i];

		if (l->until && l->from == from && l->to == to) {
			NEED(l->until == until);
			held++;
		}
	}
	NEED(held == 1);
}

static void op_resize(struct dsr_rcache *rc, struct input *in)
{
	unsigned int cap = 1 + next(in) % (RC_CAP + 4);
	unsigned int before = dsr_rc_count(rc);

	if (dsr_rc_resize(rc, cap))
		abort();
	NEED(rc->cap == cap);
	NEED(dsr_rc_count(rc) == (before < cap ? before : cap));
}

static void op_rreq(struct dsr_rreq_table *t, struct input *in, u64 now)
{
	u8 b = next(in);
	__be32 init = pool(b);
	u16 id = b >> 3;
	__be32 target = pool(b >> 5);

	dsr_rreq_seen(t, init, id, target, now);
	NEED(!init || dsr_rreq_seen(t, init, id, target, now));
}

static void fuzz_tables(const u8 *data, size_t size)
{
	struct input in = { data, size, 0 };
	struct dsr_rreq_table t;
	struct dsr_rcache rc;
	unsigned int ops, i;
	u64 now = 0;

	if (dsr_rc_init(&rc, RC_CAP, RC_TIMEOUT) ||
	    dsr_rreq_init(&t, 3, 4))
		abort();
	rc.self = SELF;
	for (ops = 0; ops < MAX_OPS && in.pos < in.n; ops++) {
		u8 b = next(&in);

		now += (b >> 4) * 8u;	/* timeout 100: paths do expire */
		switch (b & 0xf) {
		case 0: case 1: case 2: case 3:
			op_add(&rc, &in, now);
			break;
		case 4: case 5: case 6:
			op_lookup(&rc, &in, now);
			break;
		case 7:
			op_del_link(&rc, &in);
			break;
		case 8:
			op_del_dst(&rc, &in);
			break;
		case 9: case 10:
			op_neg(&rc, &in, now);
			break;
		case 11:
			NEED(dsr_rc_expire(&rc, now) <= RC_CAP + 8);
			for (i = 0; i < rc.cap; i++)
				NEED(!rc.paths[i].len ||
				     live(&rc.paths[i], now));
			break;
		case 12:
			op_resize(&rc, &in);
			break;
		case 13:
			op_rreq(&t, &in, now);
			break;
		case 14:
			if (next(&in) & 1)
				dsr_neg_flush(&rc);
			else
				dsr_rc_flush(&rc);
			break;
		default:
			now += next(&in);
			break;
		}
		check_cache(&rc);
	}
	dsr_rreq_destroy(&t);
	dsr_rc_destroy(&rc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(data, size);
	if (size >= 8)
		fuzz_tables(data, size);
	return 0;
}
