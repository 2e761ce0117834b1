// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/migmp.c: the IGMP reports dsr0's own stack
 * sends, read as joins of the trees (migmp.h).  IGMPv1 and v2 reports and
 * v2 leaves; messages that are not reports; IGMPv3 reports (RFC 3376
 * section 4.2) as Linux's igmpv3_send_cr() writes them, byte for byte,
 * and with every record type, sources and auxiliary data; every way a
 * report can be cut short.  Every message is read from a buffer of
 * exactly its length, so that ASan sees any read past it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "migmp.h"

/* IGMPv3 group record types (RFC 3376 section 4.2.12) */
#define IS_IN		1
#define IS_EX		2
#define TO_IN		3
#define TO_EX		4
#define ALLOW		5
#define BLOCK		6

#define QUERY		0x11

/* a message being written */
struct msg {
	u8 b[1024];
	size_t n;
};

/* the Internet checksum (RFC 1071) of len bytes */
static u16 csum(const u8 *p, size_t len)
{
	u32 s = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (u32)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		s += (u32)p[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (u16)~s;
}

/* struct igmpv3_report: type, reserved, checksum, reserved, nrec */
static void v3_start(struct msg *m, u16 nrec)
{
	memset(m, 0, sizeof(*m));
	m->b[0] = DSR_MIGMP_V3_REPORT;
	ah_put16(m->b + 6, nrec);
	m->n = DSR_MIGMP_V3_HDR;
}

/*
 * struct igmpv3_grec: type, aux words, nsrc, group, the sources, then aux
 * words of aux data (each 0xa0 + its index, 4 times)
 */
static void v3_rec(struct msg *m, u8 type, u8 aux, __be32 group, u16 nsrc,
		   const __be32 *src)
{
	unsigned int i;

	m->b[m->n] = type;
	m->b[m->n + 1] = aux;
	ah_put16(m->b + m->n + 2, nsrc);
	ah_put_addr(m->b + m->n + 4, group);
	m->n += DSR_MIGMP_REC_HDR;
	for (i = 0; i < nsrc; i++, m->n += 4)
		ah_put_addr(m->b + m->n, src[i]);
	for (i = 0; i < aux; i++, m->n += 4)
		memset(m->b + m->n, 0xa0 + i, 4);
}

/* the checksum over the whole message, as igmpv3_sendpack() does */
static void v3_end(struct msg *m)
{
	ah_put16(m->b + 2, 0);
	ah_put16(m->b + 2, csum(m->b, m->n));
}

/*
 * dsr_migmp_check() on the first len bytes of b, copied into a buffer of
 * exactly that length (*copy, to free, for dsr_migmp_next() to walk).
 */
static enum dsr_migmp_res check_copy(const u8 *b, size_t len, u8 **copy,
				     unsigned int *n)
{
	enum dsr_migmp_res r;

	*copy = malloc(len ? len : 1);
	if (!*copy)
		abort();
	memcpy(*copy, b, len);
	r = dsr_migmp_check(*copy, len, n);
	if ((unsigned int)r >= __DSR_MIGMP_RES_MAX)
		abort();
	return r;
}

static enum dsr_migmp_res check_len(const u8 *b, size_t len, unsigned int *n)
{
	enum dsr_migmp_res r;
	u8 *copy;

	r = check_copy(b, len, &copy, n);
	free(copy);
	return r;
}

/* ---- v1, v2 -------------------------------------------------------- */

/*
 * A v1/v2 message of len bytes (from b, in a buffer of exactly len):
 * accepted as one record, read into *r; where the next would be in *off.
 */
static bool read_one(const u8 *b, size_t len, struct dsr_migmp_rec *r,
		     size_t *off)
{
	unsigned int n = 99;
	bool ok;
	u8 *m;

	ok = check_copy(b, len, &m, &n) == DSR_MIGMP_OK && n == 1;
	*off = 0;
	memset(r, 0x5a, sizeof(*r));
	if (ok)
		dsr_migmp_next(m, len, off, r);
	free(m);
	return ok;
}

static bool t_v2(void)
{
	/* igmp_send_report(): type, max resp 0, checksum, group */
	static const u8 report[DSR_MIGMP_V2_LEN] = {
		0x16, 0, 0xf8, 0xfa, 239, 1, 2, 3,
	};
	static const u8 leave[DSR_MIGMP_V2_LEN] = {
		0x17, 0, 0xf7, 0xfa, 239, 1, 2, 3,
	};
	struct dsr_migmp_rec r;
	size_t off;

	/* the checksums are right: the stack's messages as they are */
	CHECK_EQ(csum(report, sizeof(report)), 0);
	CHECK_EQ(csum(leave, sizeof(leave)), 0);

	CHECK(read_one(report, sizeof(report), &r, &off));
	CHECK_EQ(r.op, DSR_MIGMP_ANY);
	CHECK_EQ(r.group, ip4(239, 1, 2, 3));
	CHECK(!r.nsrc && !r.src);
	CHECK_EQ(off, sizeof(report));

	CHECK(read_one(leave, sizeof(leave), &r, &off));
	CHECK_EQ(r.op, DSR_MIGMP_ANY_LEAVE);
	CHECK_EQ(r.group, ip4(239, 1, 2, 3));
	CHECK(!r.nsrc && !r.src);
	CHECK_EQ(off, sizeof(leave));
	return true;
}

static bool t_v1(void)
{
	/* IGMPv1: version 1 and type 2 in the first byte, unused, group */
	static const u8 report[12] = {
		0x12, 0, 0, 0, 232, 9, 8, 7, 0xff, 0xff, 0xff, 0xff,
	};
	struct dsr_migmp_rec r;
	size_t off;

	CHECK(read_one(report, DSR_MIGMP_V2_LEN, &r, &off));
	CHECK_EQ(r.op, DSR_MIGMP_ANY);
	CHECK_EQ(r.group, ip4(232, 9, 8, 7));
	CHECK(!r.nsrc && !r.src);
	CHECK_EQ(off, DSR_MIGMP_V2_LEN);
	/* bytes after the message (IP padding) do not matter */
	CHECK(read_one(report, sizeof(report), &r, &off));
	CHECK_EQ(r.op, DSR_MIGMP_ANY);
	CHECK_EQ(r.group, ip4(232, 9, 8, 7));
	CHECK_EQ(off, sizeof(report));
	return true;
}

/* queries and any other type are not reports */
static bool t_not_report(void)
{
	/* a v2 query, a v3 query (12 bytes, no sources) */
	static const u8 q2[8] = { QUERY, 100, 0xee, 0x9b, 0, 0, 0, 0 };
	static const u8 q3[12] = { QUERY, 100, 0, 0, 239, 1, 2, 3,
				   0x02, 125, 0, 0 };
	static const u8 types[] = { 0x00, 0x01, 0x10, 0x13, 0x14, 0x15,
				    0x18, 0x1e, 0x1f, 0x21, 0x23, 0x30,
				    0x92, 0xa2, 0xff };
	unsigned int n = 99, i;
	u8 b[16];

	CHECK_EQ(check_len(q2, sizeof(q2), &n), DSR_MIGMP_TYPE);
	CHECK_EQ(check_len(q3, sizeof(q3), &n), DSR_MIGMP_TYPE);
	/* one byte is enough to tell */
	CHECK_EQ(check_len(q2, 1, &n), DSR_MIGMP_TYPE);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		memset(b, 0, sizeof(b));
		b[0] = types[i];
		if (check_len(b, sizeof(b), &n) != DSR_MIGMP_TYPE) {
			ktap_diag("type 0x%02x", types[i]);
			return false;
		}
	}
	return true;
}

/* every prefix shorter than a message's fixed part is short */
static bool t_short(void)
{
	static const u8 types[] = {
		DSR_MIGMP_V1_REPORT, DSR_MIGMP_V2_REPORT, DSR_MIGMP_V2_LEAVE,
		DSR_MIGMP_V3_REPORT,
	};
	unsigned int n = 99, i;
	size_t len;
	u8 b[8] = { 0 };

	CHECK_EQ(check_len(b, 0, &n), DSR_MIGMP_SHORT);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		memset(b, 0, sizeof(b));
		b[0] = types[i];
		for (len = 1; len < 8; len++) {
			if (check_len(b, len, &n) != DSR_MIGMP_SHORT) {
				ktap_diag("type 0x%02x, %zu bytes", types[i],
					  len);
				return false;
			}
		}
		/* whole: one record for v1/v2, none for this v3 */
		CHECK_EQ(check_len(b, 8, &n), DSR_MIGMP_OK);
		CHECK_EQ(n, i < 3 ? 1 : 0);
	}
	return true;
}

/* ---- v3 ------------------------------------------------------------ */

/*
 * Linux (igmpv3_send_cr()) after a socket's IP_ADD_SOURCE_MEMBERSHIP of
 * (10.0.0.1, 232.1.1.1) and (10.0.0.2, 232.1.1.1) and its
 * IP_ADD_MEMBERSHIP of 239.2.2.2: the filter mode changes, the newest
 * group first, and no source list change for a group whose mode changed
 * (RFC 3376 section 5.1); then, after the socket dropped 10.0.0.1 and
 * added 10.0.0.3, a source list change.
 */
static const u8 linux_join[] = {
	0x22, 0, 0xe8, 0xf0, 0, 0, 0, 2,
	TO_EX, 0, 0, 0, 239, 2, 2, 2,
	TO_IN, 0, 0, 2, 232, 1, 1, 1, 10, 0, 0, 1, 10, 0, 0, 2,
};

static const u8 linux_change[] = {
	0x22, 0, 0xec, 0xf1, 0, 0, 0, 2,
	ALLOW, 0, 0, 1, 232, 1, 1, 1, 10, 0, 0, 3,
	BLOCK, 0, 0, 1, 232, 1, 1, 1, 10, 0, 0, 1,
};

static bool t_v3_linux_body(u8 *m)
{
	const size_t len = sizeof(linux_join);
	struct dsr_migmp_rec r;
	struct msg w;
	size_t off = 0;
	unsigned int n = 99;
	const __be32 s12[2] = { node(1), node(2) };

	/* the builder writes the same bytes */
	v3_start(&w, 2);
	v3_rec(&w, TO_EX, 0, ip4(239, 2, 2, 2), 0, NULL);
	v3_rec(&w, TO_IN, 0, ip4(232, 1, 1, 1), 2, s12);
	v3_end(&w);
	CHECK_EQ(w.n, len);
	CHECK(!memcmp(w.b, linux_join, len));
	CHECK_EQ(csum(linux_join, len), 0);

	CHECK_EQ(dsr_migmp_check(m, len, &n), DSR_MIGMP_OK);
	CHECK_EQ(n, 2);
	dsr_migmp_next(m, len, &off, &r);
	CHECK_EQ(r.op, DSR_MIGMP_ANY);
	CHECK_EQ(r.group, ip4(239, 2, 2, 2));
	CHECK_EQ(r.nsrc, 0);
	CHECK_EQ(off, 16);
	dsr_migmp_next(m, len, &off, &r);
	CHECK_EQ(r.op, DSR_MIGMP_ONLY);
	CHECK_EQ(r.group, ip4(232, 1, 1, 1));
	CHECK_EQ(r.nsrc, 2);
	CHECK(r.src == m + 24);
	CHECK_EQ(dsr_migmp_src(&r, 0), node(1));
	CHECK_EQ(dsr_migmp_src(&r, 1), node(2));
	CHECK_EQ(off, len);
	return true;
}

static bool t_v3_change_body(u8 *m)
{
	const size_t len = sizeof(linux_change);
	const __be32 s1 = node(1), s3 = node(3);
	struct dsr_migmp_rec r;
	struct msg w;
	size_t off = 0;
	unsigned int n = 99;

	v3_start(&w, 2);
	v3_rec(&w, ALLOW, 0, ip4(232, 1, 1, 1), 1, &s3);
	v3_rec(&w, BLOCK, 0, ip4(232, 1, 1, 1), 1, &s1);
	v3_end(&w);
	CHECK_EQ(w.n, len);
	CHECK(!memcmp(w.b, linux_change, len));
	CHECK_EQ(csum(linux_change, len), 0);

	CHECK_EQ(dsr_migmp_check(m, len, &n), DSR_MIGMP_OK);
	CHECK_EQ(n, 2);
	dsr_migmp_next(m, len, &off, &r);
	CHECK_EQ(r.op, DSR_MIGMP_JOIN);
	CHECK_EQ(r.group, ip4(232, 1, 1, 1));
	CHECK_EQ(r.nsrc, 1);
	CHECK_EQ(dsr_migmp_src(&r, 0), node(3));
	CHECK_EQ(off, 20);
	dsr_migmp_next(m, len, &off, &r);
	CHECK_EQ(r.op, DSR_MIGMP_LEAVE);
	CHECK_EQ(r.group, ip4(232, 1, 1, 1));
	CHECK_EQ(r.nsrc, 1);
	CHECK_EQ(dsr_migmp_src(&r, 0), node(1));
	CHECK_EQ(off, len);
	return true;
}

static bool t_v3_linux(void)
{
	u8 *m = malloc(sizeof(linux_join));
	bool ok;

	if (!m)
		return false;
	memcpy(m, linux_join, sizeof(linux_join));
	ok = t_v3_linux_body(m);
	free(m);
	if (!ok)
		return false;
	m = malloc(sizeof(linux_change));
	if (!m)
		return false;
	memcpy(m, linux_change, sizeof(linux_change));
	ok = t_v3_change_body(m);
	free(m);
	return ok;
}

/* every record type, with sources and auxiliary data */
struct want_rec {
	u8 type, aux;
	__be32 group;
	u16 nsrc;
	__be32 src[4];
	u8 op;
};

#define NREC	8

static void all_types(struct msg *m, struct want_rec *w)
{
	const struct want_rec recs[NREC] = {
		{ IS_IN, 0, ip4(232, 1, 1, 1), 2, { node(1), node(2) },
		  DSR_MIGMP_JOIN },
		{ IS_EX, 1, ip4(239, 1, 1, 2), 1, { node(7) }, DSR_MIGMP_ANY },
		{ TO_IN, 2, ip4(232, 1, 1, 1), 3,
		  { node(1), node(3), ip4(192, 168, 1, 9) }, DSR_MIGMP_ONLY },
		{ TO_EX, 0, ip4(239, 1, 1, 3), 0, { 0 }, DSR_MIGMP_ANY },
		{ ALLOW, 3, ip4(232, 1, 1, 4), 4,
		  { node(4), node(5), node(6), node(8) }, DSR_MIGMP_JOIN },
		{ BLOCK, 0, ip4(232, 1, 1, 1), 1, { node(2) },
		  DSR_MIGMP_LEAVE },
		{ 7, 1, ip4(232, 1, 1, 7), 2, { node(9), node(10) },
		  DSR_MIGMP_IGNORE },
		{ TO_IN, 0, ip4(232, 1, 1, 4), 0, { 0 }, DSR_MIGMP_ONLY },
	};
	unsigned int i;

	v3_start(m, NREC);
	for (i = 0; i < NREC; i++) {
		w[i] = recs[i];
		v3_rec(m, recs[i].type, recs[i].aux, recs[i].group,
		       recs[i].nsrc, recs[i].src);
	}
	v3_end(m);
}

/* the records of all_types() at m, len bytes; the last ends at end */
static bool walk_all(const u8 *m, size_t len, size_t end,
		     const struct want_rec *w)
{
	struct dsr_migmp_rec r;
	size_t off = 0, at = DSR_MIGMP_V3_HDR;
	unsigned int i, k;

	for (i = 0; i < NREC; i++) {
		memset(&r, 0x5a, sizeof(r));
		dsr_migmp_next(m, len, &off, &r);
		if (r.op != w[i].op || r.group != w[i].group ||
		    r.nsrc != w[i].nsrc ||
		    r.src != m + at + DSR_MIGMP_REC_HDR) {
			ktap_diag("record %u: op %u group %08x nsrc %u", i,
				  r.op, r.group, r.nsrc);
			return false;
		}
		for (k = 0; k < r.nsrc; k++) {
			if (dsr_migmp_src(&r, k) != w[i].src[k]) {
				ktap_diag("record %u source %u", i, k);
				return false;
			}
		}
		at += DSR_MIGMP_REC_HDR + 4 * (size_t)w[i].nsrc +
		      4 * (size_t)w[i].aux;
		if (off != at) {
			ktap_diag("record %u: next at %zu, expected %zu", i,
				  off, at);
			return false;
		}
	}
	CHECK_EQ(off, end);
	return true;
}

/*
 * The first len bytes of b (in a buffer of exactly len): accepted, with
 * NREC records that read as w says and end at end.
 */
static bool reads_all(const u8 *b, size_t len, size_t end,
		      const struct want_rec *w)
{
	enum dsr_migmp_res r;
	unsigned int n = 99;
	bool ok;
	u8 *c;

	r = check_copy(b, len, &c, &n);
	ok = r == DSR_MIGMP_OK && n == NREC && walk_all(c, len, end, w);
	free(c);
	CHECK_EQ(r, DSR_MIGMP_OK);
	CHECK_EQ(n, NREC);
	CHECK(ok);
	return true;
}

static bool t_v3_types(void)
{
	struct want_rec w[NREC];
	struct msg m;

	all_types(&m, w);
	/* the header, 8 record headers, 13 sources, 7 aux words */
	CHECK_EQ(m.n, 8 + NREC * 8 + 13 * 4 + 7 * 4);
	CHECK_EQ(csum(m.b, m.n), 0);
	CHECK(reads_all(m.b, m.n, m.n, w));

	/* bytes after the last record: read as before, never reached */
	memset(m.b + m.n, BLOCK, 12);
	CHECK(reads_all(m.b, m.n + 12, m.n, w));
	return true;
}

/* the checksum and the reserved fields are not looked at */
static bool t_v3_ignored(void)
{
	struct want_rec w[NREC];
	struct msg m;

	all_types(&m, w);
	m.b[1] = 0xff;
	m.b[2] ^= 0x55;
	m.b[4] = 0xff;
	m.b[5] = 0x01;
	CHECK(reads_all(m.b, m.n, m.n, w));
	return true;
}

/* every prefix of a report: short, then truncated, whole only at the end */
static bool t_v3_prefixes(void)
{
	struct want_rec w[NREC];
	unsigned int n;
	struct msg m;
	size_t len;

	all_types(&m, w);
	for (len = 0; len <= m.n; len++) {
		enum dsr_migmp_res want = len < DSR_MIGMP_V3_HDR ?
			DSR_MIGMP_SHORT : len < m.n ? DSR_MIGMP_TRUNCATED :
			DSR_MIGMP_OK;

		if (check_len(m.b, len, &n) != want) {
			ktap_diag("prefix of %zu bytes", len);
			return false;
		}
	}
	return true;
}

/* a record's sources or aux data past the end; more records claimed */
static bool t_v3_truncated(void)
{
	const __be32 s[3] = { node(1), node(2), node(3) };
	unsigned int n = 99;
	struct msg m;

	/* three sources claimed: whole, then the last one cut off */
	v3_start(&m, 1);
	v3_rec(&m, ALLOW, 0, ip4(232, 1, 1, 1), 3, s);
	v3_end(&m);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_OK);
	CHECK_EQ(check_len(m.b, m.n - 4, &n), DSR_MIGMP_TRUNCATED);
	/* four claimed, three there */
	ah_put16(m.b + 8 + 2, 4);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_TRUNCATED);
	/* the most sources a record can claim, with few there */
	ah_put16(m.b + 8 + 2, 0xffff);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_TRUNCATED);

	/* the sources are there, one of two aux words is not */
	v3_start(&m, 1);
	v3_rec(&m, IS_IN, 2, ip4(232, 1, 1, 1), 1, s);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_OK);
	CHECK_EQ(check_len(m.b, m.n - 1, &n), DSR_MIGMP_TRUNCATED);
	CHECK_EQ(check_len(m.b, m.n - 4, &n), DSR_MIGMP_TRUNCATED);
	m.b[8 + 1] = 3;
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_TRUNCATED);
	m.b[8 + 1] = 0xff;
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_TRUNCATED);

	/* a record header cut short: the second record's */
	v3_start(&m, 2);
	v3_rec(&m, BLOCK, 0, ip4(232, 1, 1, 1), 1, s);
	v3_rec(&m, BLOCK, 0, ip4(232, 1, 1, 2), 0, NULL);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_OK);
	CHECK_EQ(n, 2);
	CHECK_EQ(check_len(m.b, m.n - 1, &n), DSR_MIGMP_TRUNCATED);

	/* the header claims three records, two are there */
	ah_put16(m.b + 6, 3);
	n = 99;
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_TRUNCATED);
	/* trailing bytes short of a record header are not one */
	memset(m.b + m.n, 0, 7);
	CHECK_EQ(check_len(m.b, m.n + 7, &n), DSR_MIGMP_TRUNCATED);
	/* a whole one is */
	CHECK_EQ(check_len(m.b, m.n + 8, &n), DSR_MIGMP_OK);
	CHECK_EQ(n, 3);
	/* 65535 claimed */
	ah_put16(m.b + 6, 0xffff);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_TRUNCATED);
	return true;
}

/* a report of no records: nothing to walk */
static bool t_v3_empty(void)
{
	unsigned int n = 99;
	struct msg m;

	v3_start(&m, 0);
	v3_end(&m);
	CHECK_EQ(m.n, 8);
	CHECK_EQ(check_len(m.b, m.n, &n), DSR_MIGMP_OK);
	CHECK_EQ(n, 0);
	/* what follows the header is not read */
	memset(m.b + 8, 0xff, 16);
	n = 99;
	CHECK_EQ(check_len(m.b, 24, &n), DSR_MIGMP_OK);
	CHECK_EQ(n, 0);
	return true;
}

/* the largest record: 65535 sources and 255 aux words */
static bool t_v3_big(void)
{
	const size_t len = 8 + 8 + 4 * 65535 + 4 * 255 + 8;
	struct dsr_migmp_rec r;
	unsigned int n = 99;
	size_t off = 0;
	bool ok;
	u8 *m = calloc(1, len);

	if (!m)
		return false;
	m[0] = DSR_MIGMP_V3_REPORT;
	ah_put16(m + 6, 2);
	m[8] = ALLOW;
	m[9] = 255;
	ah_put16(m + 10, 0xffff);
	ah_put_addr(m + 12, ip4(232, 0, 0, 1));
	ah_put_addr(m + 16 + 4 * 65534, node(77));
	/* the second record, at the end: no sources */
	m[len - 8] = BLOCK;
	ah_put_addr(m + len - 4, ip4(232, 0, 0, 2));
	ok = dsr_migmp_check(m, len, &n) == DSR_MIGMP_OK && n == 2;
	if (ok) {
		dsr_migmp_next(m, len, &off, &r);
		ok = r.op == DSR_MIGMP_JOIN && r.nsrc == 65535 &&
		     dsr_migmp_src(&r, 65534) == node(77) && off == len - 8;
	}
	if (ok) {
		dsr_migmp_next(m, len, &off, &r);
		ok = r.op == DSR_MIGMP_LEAVE && !r.nsrc &&
		     r.group == ip4(232, 0, 0, 2) && off == len;
	}
	if (ok)
		ok = dsr_migmp_check(m, len - 1, &n) == DSR_MIGMP_TRUNCATED;
	free(m);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "v2 report: an any-source join; v2 leave: an any-source leave",
	  t_v2 },
	{ "v1 report: an any-source join; bytes after it ignored", t_v1 },
	{ "queries and other types are not reports", t_not_report },
	{ "shorter than the fixed part: short", t_short },
	{ "Linux's v3 reports byte for byte: TO_EX, TO_IN; ALLOW, BLOCK",
	  t_v3_linux },
	{ "v3: every record type, sources, aux data, offsets", t_v3_types },
	{ "v3: checksum and reserved fields not looked at", t_v3_ignored },
	{ "v3: every prefix is short or truncated", t_v3_prefixes },
	{ "v3: sources, aux data, records past the end: truncated",
	  t_v3_truncated },
	{ "v3: no records", t_v3_empty },
	{ "v3: the largest record", t_v3_big },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
