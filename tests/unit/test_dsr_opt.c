// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/opt.c: the DSR Options header (RFC 4728 section 6).
 *
 * Every parse goes through a heap copy of exactly the bytes available, so
 * that ASan catches any read past them, and checks that dsr_parse() did not
 * write to the packet.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "opt.h"

#define NH		DSR_NO_NEXT_HEADER
#define BUF_SIZE	2048

static const char *const bad_name[] = {
	[DSR_OK] = "OK",
	[DSR_BAD_TRUNCATED] = "TRUNCATED",
	[DSR_BAD_PAYLOAD_LEN] = "PAYLOAD_LEN",
	[DSR_BAD_FLOW_STATE] = "FLOW_STATE",
	[DSR_BAD_OPT_LEN] = "OPT_LEN",
	[DSR_BAD_OPT_SIZE] = "OPT_SIZE",
	[DSR_BAD_OPT_REPEAT] = "OPT_REPEAT",
	[DSR_BAD_SEGS_LEFT] = "SEGS_LEFT",
	[DSR_BAD_UNKNOWN_DROP] = "UNKNOWN_DROP",
	[DSR_BAD_ROUTE] = "ROUTE",
};

static const char *bad_str(enum dsr_bad b)
{
	return (unsigned int)b < __DSR_BAD_MAX ? bad_name[b] : "?";
}

/*
 * dsr_parse() on a heap copy of b[0..avail): nothing outside it may be
 * read (ASan) and nothing may be written.
 */
static enum dsr_bad parse(const u8 *b, size_t avail, struct dsr_parsed *p)
{
	u8 *copy = malloc(avail ? avail : 1);
	enum dsr_bad r;

	if (!copy)
		abort();
	memcpy(copy, b, avail);
	/* stale content must not survive a parse */
	memset(p, 0xa5, sizeof(*p));
	r = dsr_parse(copy, avail, p);
	if (memcmp(copy, b, avail)) {
		ktap_diag("dsr_parse wrote to the packet");
		r = __DSR_BAD_MAX;
	}
	free(copy);
	return r;
}

#define CHECK_PARSE(b, avail, p, want)					\
	do {								\
		enum dsr_bad _r = parse(b, avail, p);			\
		if (_r != (want)) {					\
			ktap_diag("%s:%d: dsr_parse = %s, expected %s",	\
				  __FILE__, __LINE__, bad_str(_r),	\
				  bad_str(want));			\
			hexdump("header", b, avail);			\
			return false;					\
		}							\
	} while (0)

/* Nothing recorded but what the caller expects. */
static bool nothing_else(const struct dsr_parsed *p, bool rreq, bool areq,
			 bool srt, unsigned int rrep, unsigned int rerr,
			 unsigned int ack, unsigned int unknown)
{
	CHECK_EQ(!!p->rreq, rreq);
	CHECK_EQ(!!p->areq, areq);
	CHECK_EQ(!!p->srt, srt);
	CHECK_EQ(p->n_rrep, rrep);
	CHECK_EQ(p->n_rerr, rerr);
	CHECK_EQ(p->n_ack, ack);
	CHECK_EQ(p->n_unknown, unknown);
	CHECK(!p->report && !p->report_type);
	return true;
}

/* ---- malformed (and borderline) headers ---------------------------- */

#define BYTES(...)	(const u8[]){ __VA_ARGS__ },			\
			sizeof((const u8[]){ __VA_ARGS__ })

#define A1		10, 0, 0, 1
#define A2		10, 0, 0, 2
#define A3		10, 0, 0, 3

struct hdr_case {
	const char *desc;
	const u8 *b;
	size_t len;
	enum dsr_bad want;
};

static const struct hdr_case hdr_cases[] = {
	/* fixed part */
	{ "empty packet is truncated", (const u8[]){ 0 }, 0,
	  DSR_BAD_TRUNCATED },
	{ "1 byte is truncated", BYTES(NH), DSR_BAD_TRUNCATED },
	{ "3 bytes are truncated", BYTES(NH, 0, 0), DSR_BAD_TRUNCATED },
	{ "header alone", BYTES(NH, 0, 0, 0), DSR_OK },
	{ "reserved bits are ignored", BYTES(NH, 0x7f, 0, 0), DSR_OK },
	{ "Payload Length past the packet", BYTES(NH, 0, 0, 4),
	  DSR_BAD_PAYLOAD_LEN },
	{ "Payload Length one byte past the packet",
	  BYTES(NH, 0, 0, 4, 0, 1, 0), DSR_BAD_PAYLOAD_LEN },
	{ "Payload Length 0xffff", BYTES(NH, 0, 0xff, 0xff, 0, 0),
	  DSR_BAD_PAYLOAD_LEN },
	{ "Payload Length high byte", BYTES(NH, 0, 1, 0, 0, 0),
	  DSR_BAD_PAYLOAD_LEN },
	{ "F bit: flow state header", BYTES(NH, 0x80, 0, 0),
	  DSR_BAD_FLOW_STATE },
	{ "F bit with reserved bits and options",
	  BYTES(NH, 0xff, 0, 4, 0xe0, 0xe0, 0xe0, 0xe0), DSR_BAD_FLOW_STATE },
	{ "bytes after Payload Length are not parsed",
	  BYTES(NH, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff), DSR_OK },

	/* option framing */
	{ "Pad1 x4", BYTES(NH, 0, 0, 4, 0xe0, 0xe0, 0xe0, 0xe0), DSR_OK },
	{ "PadN of 2", BYTES(NH, 0, 0, 4, 0, 2, 0, 0), DSR_OK },
	{ "PadN with non-zero content", BYTES(NH, 0, 0, 4, 0, 2, 9, 9),
	  DSR_OK },
	{ "PadN length past the end", BYTES(NH, 0, 0, 4, 0, 3, 0, 0),
	  DSR_BAD_OPT_LEN },
	{ "PadN length past the end, packet longer",
	  BYTES(NH, 0, 0, 4, 0, 3, 0, 0, 0, 0, 0, 0), DSR_BAD_OPT_LEN },
	{ "Route Request runs past the end",
	  BYTES(NH, 0, 0, 8, 1, 10, 0, 1, A3), DSR_BAD_OPT_LEN },
	{ "option cut after its type byte", BYTES(NH, 0, 0, 1, 1),
	  DSR_BAD_OPT_LEN },
	{ "option cut after its type byte, packet longer",
	  BYTES(NH, 0, 0, 1, 32, 10, 0, 1, A1, A2), DSR_BAD_OPT_LEN },
	{ "Pad1 then an option cut after its type byte",
	  BYTES(NH, 0, 0, 2, 0xe0, 0x05), DSR_BAD_OPT_LEN },
	{ "unknown option runs past the end",
	  BYTES(NH, 0, 0, 4, 0x05, 3, 0, 0), DSR_BAD_OPT_LEN },
	{ "length checked before size: AREQ len 3 past the end",
	  BYTES(NH, 0, 0, 4, 160, 3, 0, 0), DSR_BAD_OPT_LEN },

	/* known options with impossible lengths */
	{ "AREQ len 3", BYTES(NH, 0, 0, 8, 160, 3, 0, 1, 0, 0, 1, 0),
	  DSR_BAD_OPT_SIZE },
	{ "AREQ len 1", BYTES(NH, 0, 0, 4, 160, 1, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "AREQ len 0", BYTES(NH, 0, 0, 4, 160, 0, 0, 0), DSR_BAD_OPT_SIZE },
	{ "ACK len 8", BYTES(NH, 0, 0, 12, 32, 8, 0, 1, A1, 10, 0, 0, 0),
	  DSR_BAD_OPT_SIZE },
	{ "ACK len 11",
	  BYTES(NH, 0, 0, 16, 32, 11, 0, 1, A1, A2, 0, 0, 1, 0),
	  DSR_BAD_OPT_SIZE },
	{ "RREQ len 7", BYTES(NH, 0, 0, 12, 1, 7, 0, 1, A2, 0, 0, 1, 0),
	  DSR_BAD_OPT_SIZE },
	{ "RREQ len 5", BYTES(NH, 0, 0, 8, 1, 5, 0, 1, 10, 0, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "RREQ len 2", BYTES(NH, 0, 0, 4, 1, 2, 0, 1), DSR_BAD_OPT_SIZE },
	{ "RREQ len 6 (no address)",
	  BYTES(NH, 0, 0, 8, 1, 6, 0, 1, A2), DSR_OK },
	{ "RREP len 1 (no address)", BYTES(NH, 0, 0, 4, 2, 1, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "RREP len 6", BYTES(NH, 0, 0, 8, 2, 6, 0, A1, 0),
	  DSR_BAD_OPT_SIZE },
	{ "RREP len 4", BYTES(NH, 0, 0, 8, 2, 4, 0, 10, 0, 0, 0, 0),
	  DSR_BAD_OPT_SIZE },
	{ "RERR len 9",
	  BYTES(NH, 0, 0, 12, 3, 9, 1, 0, A1, 10, 0, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "RERR NODE_UNREACHABLE without the address",
	  BYTES(NH, 0, 0, 12, 3, 10, 1, 0, A1, A2), DSR_BAD_OPT_SIZE },
	{ "RERR NODE_UNREACHABLE len 13",
	  BYTES(NH, 0, 0, 16, 3, 13, 1, 0, A1, A2, 10, 0, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "RERR OPTION_NOT_SUPPORTED without the option",
	  BYTES(NH, 0, 0, 12, 3, 10, 3, 0, A1, A2), DSR_BAD_OPT_SIZE },
	{ "RERR OPTION_NOT_SUPPORTED len 11",
	  BYTES(NH, 0, 0, 16, 3, 11, 3, 0, A1, A2, 0x85, 0, 1, 0), DSR_OK },
	{ "RERR FLOW_STATE_NOT_SUPPORTED len 10",
	  BYTES(NH, 0, 0, 12, 3, 10, 2, 0, A1, A2), DSR_OK },
	{ "RERR of an unknown type, len 10",
	  BYTES(NH, 0, 0, 12, 3, 10, 77, 0, A1, A2), DSR_OK },
	{ "SRT len 0", BYTES(NH, 0, 0, 4, 96, 0, 0, 0), DSR_BAD_OPT_SIZE },
	{ "SRT len 1", BYTES(NH, 0, 0, 4, 96, 1, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "SRT len 5 ((len - 2) % 4 != 0)",
	  BYTES(NH, 0, 0, 8, 96, 5, 0, 0, 10, 0, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "SRT len 9", BYTES(NH, 0, 0, 12, 96, 9, 0, 0, A1, 10, 0, 0, 0xe0),
	  DSR_BAD_OPT_SIZE },
	{ "SRT len 2, Segs Left 0", BYTES(NH, 0, 0, 4, 96, 2, 0, 0), DSR_OK },
	{ "SRT len 2, Segs Left 1", BYTES(NH, 0, 0, 4, 96, 2, 0, 1),
	  DSR_BAD_SEGS_LEFT },
	{ "SRT 2 addresses, Segs Left 2",
	  BYTES(NH, 0, 0, 12, 96, 10, 0, 2, A1, A2), DSR_OK },
	{ "SRT 2 addresses, Segs Left 3",
	  BYTES(NH, 0, 0, 12, 96, 10, 0, 3, A1, A2), DSR_BAD_SEGS_LEFT },
	{ "SRT 2 addresses, Segs Left 63",
	  BYTES(NH, 0, 0, 12, 96, 10, 0, 0x3f, A1, A2), DSR_BAD_SEGS_LEFT },
	{ "SRT F, L, reserved and Salvage bits do not count as Segs Left",
	  BYTES(NH, 0, 0, 12, 96, 10, 0xff, 0xc2, A1, A2), DSR_OK },

	/* once-only options */
	{ "RREQ twice",
	  BYTES(NH, 0, 0, 16, 1, 6, 0, 1, A2, 1, 6, 0, 2, A2),
	  DSR_BAD_OPT_REPEAT },
	{ "AREQ twice", BYTES(NH, 0, 0, 8, 160, 2, 0, 1, 160, 2, 0, 2),
	  DSR_BAD_OPT_REPEAT },
	{ "SRT twice", BYTES(NH, 0, 0, 8, 96, 2, 0, 0, 96, 2, 0, 0),
	  DSR_BAD_OPT_REPEAT },
	{ "AREQ and RREQ once each",
	  BYTES(NH, 0, 0, 12, 160, 2, 0, 1, 1, 6, 0, 2, A2), DSR_OK },

	/* unknown options */
	{ "unknown 0x7f: drop class", BYTES(NH, 0, 0, 4, 0x7f, 0, 0, 0),
	  DSR_BAD_UNKNOWN_DROP },
	{ "unknown 0x6a: drop class", BYTES(NH, 0, 0, 4, 0x6a, 2, 0, 0),
	  DSR_BAD_UNKNOWN_DROP },
	{ "0x60 is SRT, not an unknown of the drop class",
	  BYTES(NH, 0, 0, 4, 0x60, 2, 0, 0), DSR_OK },
	{ "unknown 0xe1 (not Pad1): drop class",
	  BYTES(NH, 0, 0, 4, 0xe1, 2, 0, 0), DSR_BAD_UNKNOWN_DROP },
	{ "unknown 0xff: drop class", BYTES(NH, 0, 0, 4, 0xff, 0, 0, 0),
	  DSR_BAD_UNKNOWN_DROP },
	{ "drop class after valid options",
	  BYTES(NH, 0, 0, 8, 160, 2, 0, 1, 0x61, 0, 0, 0),
	  DSR_BAD_UNKNOWN_DROP },
	{ "0xe0 is Pad1, not of the drop class",
	  BYTES(NH, 0, 0, 4, 0xe0, 0, 1, 0), DSR_OK },
	{ "unknown 0x05: ignore class", BYTES(NH, 0, 0, 4, 0x05, 2, 1, 2),
	  DSR_OK },
	{ "unknown 0x1f: ignore class", BYTES(NH, 0, 0, 4, 0x1f, 0, 0, 0),
	  DSR_OK },
	{ "0xa0 is AREQ, not an unknown of the remove class",
	  BYTES(NH, 0, 0, 4, 0xa0, 2, 0, 1), DSR_OK },
};

static void run_hdr_case(const struct hdr_case *c)
{
	struct dsr_parsed p;
	enum dsr_bad r = parse(c->b, c->len, &p);
	bool ok = r == c->want;

	if (!ok) {
		ktap_diag("dsr_parse = %s, expected %s", bad_str(r),
			  bad_str(c->want));
		hexdump("header", c->b, c->len);
	}
	if (ok && r == DSR_OK && p.len != DSR_HDR_LEN + ah_get16(c->b + 2)) {
		ktap_diag("len %u", p.len);
		ok = false;
	}
	ktap_result(ok, "parse: %s", c->desc);
}

/* ---- builders through dsr_parse ------------------------------------ */

static void addrs(__be32 *a, unsigned int n, u8 base)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		a[i] = ip4(10, 1, base, (u8)(i + 1));
}

static bool t_hdr_only(void)
{
	u8 b[8];
	struct dsr_parsed p;
	size_t len;

	memset(b, 0xee, sizeof(b));
	len = dsr_put_hdr(b, 17);
	CHECK_EQ(len, DSR_HDR_LEN);
	len = dsr_finish(b, len);
	CHECK_EQ(len, DSR_HDR_LEN);
	CHECK(!memcmp(b, "\x11\x00\x00\x00", 4));
	CHECK_PARSE(b, len, &p, DSR_OK);
	CHECK_EQ(p.next_header, 17);
	CHECK_EQ(p.len, DSR_HDR_LEN);
	return nothing_else(&p, false, false, false, 0, 0, 0, 0);
}

static bool t_rreq_round_trip(void)
{
	__be32 a[DSR_MAX_PATH];
	unsigned int n, i;

	addrs(a, DSR_MAX_PATH, 1);
	for (n = 0; n <= DSR_MAX_PATH; n++) {
		u8 b[BUF_SIZE];
		struct dsr_parsed p;
		size_t len = dsr_put_hdr(b, NH), w;
		u16 id = (u16)(0xfff0 + n);

		w = dsr_put_rreq(b + len, id, node(99), a, n);
		CHECK_EQ(w, DSR_RREQ_SIZE(n));
		len = dsr_finish(b, len + w);
		CHECK_PARSE(b, len, &p, DSR_OK);
		CHECK_EQ(p.rreq, DSR_HDR_LEN);
		CHECK_EQ(dsr_opt_len(b, p.rreq), 6 + 4 * n);
		CHECK_EQ(dsr_rreq_naddr(b, p.rreq), n);
		CHECK_EQ(dsr_rreq_id(b, p.rreq), id);
		CHECK(dsr_rreq_target(b, p.rreq) == node(99));
		for (i = 0; i < n; i++)
			CHECK(dsr_rreq_addr(b, p.rreq, i) == a[i]);
		if (!nothing_else(&p, true, false, false, 0, 0, 0, 0))
			return false;
	}
	return true;
}

static bool t_rrep_round_trip(void)
{
	__be32 a[DSR_MAX_PATH];
	unsigned int n, i, l;

	addrs(a, DSR_MAX_PATH, 2);
	for (l = 0; l < 2; l++) {
		for (n = 1; n <= DSR_MAX_PATH; n++) {
			u8 b[BUF_SIZE];
			struct dsr_parsed p;
			size_t len = dsr_put_hdr(b, NH), w;

			w = dsr_put_rrep(b + len, l, a, n);
			CHECK_EQ(w, DSR_RREP_SIZE(n));
			len = dsr_finish(b, len + w);
			CHECK_PARSE(b, len, &p, DSR_OK);
			CHECK_EQ(p.n_rrep, 1);
			CHECK_EQ(p.rrep[0], DSR_HDR_LEN);
			CHECK_EQ(dsr_rrep_naddr(b, p.rrep[0]), n);
			CHECK_EQ(!!(b[p.rrep[0] + 2] & DSR_RREP_L), l);
			for (i = 0; i < n; i++)
				CHECK(dsr_rrep_addr(b, p.rrep[0], i) == a[i]);
			if (!nothing_else(&p, false, false, false, 1, 0, 0, 0))
				return false;
		}
	}
	return true;
}

static bool t_rerr_round_trip(void)
{
	unsigned int salvage;

	for (salvage = 0; salvage < 0x20; salvage++) {
		u8 b[64];
		struct dsr_parsed p;
		size_t len = dsr_put_hdr(b, NH), w;
		u8 *o;

		w = dsr_put_rerr(b + len, (u8)salvage, node(1), node(2),
				 node(3));
		CHECK_EQ(w, DSR_RERR_SIZE);
		len = dsr_finish(b, len + w);
		CHECK_EQ(len, 20);
		CHECK_PARSE(b, len, &p, DSR_OK);
		CHECK_EQ(p.n_rerr, 1);
		o = b + p.rerr[0];
		CHECK_EQ(o[0], DSR_OPT_RERR);
		CHECK_EQ(dsr_opt_len(b, p.rerr[0]), 14);
		CHECK_EQ(o[2], DSR_RERR_NODE_UNREACHABLE);
		CHECK_EQ(o[3], salvage & 0xf);	/* reserved bits stay 0 */
		CHECK(ah_get_addr(o + 4) == node(1));
		CHECK(ah_get_addr(o + 8) == node(2));
		CHECK(ah_get_addr(o + 12) == node(3));
		if (!nothing_else(&p, false, false, false, 0, 1, 0, 0))
			return false;
	}
	return true;
}

static bool t_areq_round_trip(void)
{
	static const u16 ids[] = { 0, 1, 0x1234, 0xffff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		u8 b[16];
		struct dsr_parsed p;
		size_t len = dsr_put_hdr(b, 6), w;

		w = dsr_put_areq(b + len, ids[i]);
		CHECK_EQ(w, DSR_AREQ_SIZE);
		len = dsr_finish(b, len + w);
		CHECK_EQ(len, 8);
		CHECK_PARSE(b, len, &p, DSR_OK);
		CHECK_EQ(p.next_header, 6);
		CHECK_EQ(p.areq, DSR_HDR_LEN);
		CHECK_EQ(ah_get16(b + p.areq + 2), ids[i]);
		if (!nothing_else(&p, false, true, false, 0, 0, 0, 0))
			return false;
	}
	return true;
}

static bool t_ack_round_trip(void)
{
	u8 b[32];
	struct dsr_parsed p;
	size_t len = dsr_put_hdr(b, NH), w;

	w = dsr_put_ack(b + len, 0xbeef, node(4), node(5));
	CHECK_EQ(w, DSR_ACK_SIZE);
	len = dsr_finish(b, len + w);
	CHECK_EQ(len, 16);
	CHECK_PARSE(b, len, &p, DSR_OK);
	CHECK_EQ(p.n_ack, 1);
	CHECK_EQ(p.ack[0], DSR_HDR_LEN);
	CHECK_EQ(dsr_opt_len(b, p.ack[0]), 10);
	CHECK_EQ(ah_get16(b + p.ack[0] + 2), 0xbeef);
	CHECK(ah_get_addr(b + p.ack[0] + 4) == node(4));
	CHECK(ah_get_addr(b + p.ack[0] + 8) == node(5));
	return nothing_else(&p, false, false, false, 0, 0, 1, 0);
}

static bool t_srt_round_trip(void)
{
	__be32 a[DSR_MAX_PATH];
	unsigned int n, segs, i;

	addrs(a, DSR_MAX_PATH, 3);
	for (n = 0; n <= DSR_MAX_PATH; n++) {
		for (segs = 0; segs <= n; segs++) {
			u8 b[BUF_SIZE];
			struct dsr_parsed p;
			size_t len = dsr_put_hdr(b, NH), w;
			u8 salvage = (u8)(segs % 16);
			u16 v;

			w = dsr_put_srt(b + len, salvage, segs, a, n);
			CHECK_EQ(w, DSR_SRT_SIZE(n));
			len = dsr_finish(b, len + w);
			CHECK_PARSE(b, len, &p, DSR_OK);
			CHECK_EQ(p.srt, DSR_HDR_LEN);
			CHECK_EQ(dsr_srt_naddr(b, p.srt), n);
			v = dsr_srt_bits(b, p.srt);
			CHECK_EQ(DSR_SRT_SEGS(v), segs);
			CHECK_EQ(DSR_SRT_SALVAGE(v), salvage);
			CHECK(!(v & (DSR_SRT_F | DSR_SRT_L)));
			for (i = 0; i < n; i++)
				CHECK(dsr_srt_addr(b, p.srt, i) == a[i]);
			if (!nothing_else(&p, false, false, true, 0, 0, 0, 0))
				return false;
		}
		/* one more segment than addresses */
		{
			u8 b[BUF_SIZE];
			struct dsr_parsed p;
			size_t len = dsr_put_hdr(b, NH);

			len += dsr_put_srt(b + len, 0, n + 1, a, n);
			len = dsr_finish(b, len);
			CHECK_PARSE(b, len, &p, DSR_BAD_SEGS_LEFT);
		}
	}
	return true;
}

/* dsr_finish() pads with Pad1 or PadN whatever the length mod 4 */
static bool t_finish_padding(void)
{
	static const u8 want_pad[4][3] = {
		{ 0 }, { DSR_OPT_PAD1 }, { DSR_OPT_PADN, 0 },
		{ DSR_OPT_PADN, 1, 0 },
	};
	__be32 a[1] = { node(7) };
	unsigned int k;

	/* k Route Replies of 7 bytes each: 4 + 7k covers every residue */
	for (k = 0; k < 4; k++) {
		u8 b[64];
		struct dsr_parsed p;
		size_t len = dsr_put_hdr(b, NH), raw, pad, i;

		for (i = 0; i < k; i++)
			len += dsr_put_rrep(b + len, false, a, 1);
		raw = len;
		pad = (4 - raw % 4) % 4;
		memset(b + raw, 0xee, sizeof(b) - raw);
		len = dsr_finish(b, raw);
		CHECK_EQ(len, raw + pad);
		CHECK_EQ(len % 4, 0);
		CHECK_EQ(ah_get16(b + 2), len - DSR_HDR_LEN);
		CHECK(!memcmp(b + raw, want_pad[pad], pad));
		CHECK_EQ(b[len], 0xee);		/* nothing written past it */
		CHECK_PARSE(b, len, &p, DSR_OK);
		CHECK_EQ(p.len, len);
		CHECK_EQ(p.n_rrep, k);
		for (i = 0; i < k; i++)
			CHECK_EQ(p.rrep[i], DSR_HDR_LEN + 7 * i);
		if (!nothing_else(&p, false, false, false, k, 0, 0, 0))
			return false;
	}
	return true;
}

/* Unknown ignore-class options of every length up to 255, then padding. */
static bool t_finish_any_length(void)
{
	unsigned int l;

	for (l = 0; l < 256; l++) {
		u8 b[512];
		struct dsr_parsed p;
		size_t len = dsr_put_hdr(b, NH);

		b[len] = 0x1e;		/* ignore class */
		b[len + 1] = (u8)l;
		memset(b + len + 2, 0x5a, l);
		len = dsr_finish(b, len + 2 + l);
		CHECK_EQ(len % 4, 0);
		CHECK_PARSE(b, len, &p, DSR_OK);
		if (!nothing_else(&p, false, false, false, 0, 0, 0, 0))
			return false;
	}
	return true;
}

/* Every option kind in one header, repeatable ones as often as allowed. */
static bool t_everything(void)
{
	u8 b[BUF_SIZE];
	struct dsr_parsed p;
	__be32 a[3] = { node(1), node(2), node(3) };
	u16 rrep[DSR_MAX_REPEAT], rerr[DSR_MAX_REPEAT], ack[DSR_MAX_REPEAT];
	u16 srt, areq, rreq;
	size_t len = dsr_put_hdr(b, NH);
	unsigned int i;

	srt = (u16)len;
	len += dsr_put_srt(b + len, 3, 2, a, 3);
	areq = (u16)len;
	len += dsr_put_areq(b + len, 77);
	for (i = 0; i < DSR_MAX_REPEAT; i++) {
		rrep[i] = (u16)len;
		len += dsr_put_rrep(b + len, i & 1, a, 1 + i % 3);
		b[len++] = DSR_OPT_PAD1;
		rerr[i] = (u16)len;
		len += dsr_put_rerr(b + len, (u8)i, node(1), node(2),
				    node((u8)(10 + i)));
		ack[i] = (u16)len;
		len += dsr_put_ack(b + len, (u16)i, node(3), node(4));
	}
	rreq = (u16)len;
	len += dsr_put_rreq(b + len, 5, node(9), a, 2);
	len = dsr_finish(b, len);

	CHECK_PARSE(b, len, &p, DSR_OK);
	CHECK_EQ(p.srt, srt);
	CHECK_EQ(p.areq, areq);
	CHECK_EQ(p.rreq, rreq);
	CHECK_EQ(p.n_rrep, DSR_MAX_REPEAT);
	CHECK_EQ(p.n_rerr, DSR_MAX_REPEAT);
	CHECK_EQ(p.n_ack, DSR_MAX_REPEAT);
	for (i = 0; i < DSR_MAX_REPEAT; i++) {
		CHECK_EQ(p.rrep[i], rrep[i]);
		CHECK_EQ(p.rerr[i], rerr[i]);
		CHECK_EQ(p.ack[i], ack[i]);
		CHECK_EQ(dsr_rrep_naddr(b, p.rrep[i]), 1 + i % 3);
		CHECK(ah_get_addr(b + p.rerr[i] + 12) == node((u8)(10 + i)));
		CHECK_EQ(ah_get16(b + p.ack[i] + 2), i);
	}
	return nothing_else(&p, true, true, true, DSR_MAX_REPEAT,
			    DSR_MAX_REPEAT, DSR_MAX_REPEAT, 0);
}

/* One more than DSR_MAX_REPEAT of a repeatable option (or an unknown). */
static bool too_many(u8 type)
{
	u8 b[BUF_SIZE];
	struct dsr_parsed p;
	__be32 a = node(1);
	size_t len = dsr_put_hdr(b, NH), max;
	unsigned int i;

	max = type == 0x25 ? DSR_MAX_UNKNOWN : DSR_MAX_REPEAT;
	for (i = 0; i < max + 1; i++) {
		switch (type) {
		case DSR_OPT_RREP:
			len += dsr_put_rrep(b + len, false, &a, 1);
			break;
		case DSR_OPT_RERR:
			len += dsr_put_rerr(b + len, 0, a, a, a);
			break;
		case DSR_OPT_ACK:
			len += dsr_put_ack(b + len, 1, a, a);
			break;
		default:
			b[len++] = type;
			b[len++] = 1;
			b[len++] = 0;
		}
		if (i == max - 1) {
			size_t l = dsr_finish(b, len);

			CHECK_PARSE(b, l, &p, DSR_OK);
		}
	}
	len = dsr_finish(b, len);
	CHECK_PARSE(b, len, &p, DSR_BAD_OPT_REPEAT);
	return true;
}

static bool t_too_many_rrep(void)
{
	return too_many(DSR_OPT_RREP);
}

static bool t_too_many_rerr(void)
{
	return too_many(DSR_OPT_RERR);
}

static bool t_too_many_ack(void)
{
	return too_many(DSR_OPT_ACK);
}

static bool t_too_many_unknown(void)
{
	return too_many(0x25);
}

/* ---- byte-exact wire layouts (RFC 4728 section 6) ------------------ */

static bool wire(const u8 *got, size_t len, const u8 *want, size_t wlen)
{
	if (len != wlen || memcmp(got, want, len)) {
		hexdump("built", got, len);
		hexdump("expected", want, wlen);
		return false;
	}
	return true;
}

#define CHECK_WIRE(got, len, ...)					\
	CHECK(wire(got, len, BYTES(__VA_ARGS__)))

static bool t_wire_hdr(void)
{
	u8 b[512];
	size_t len = dsr_put_hdr(b, 17);

	len += dsr_put_areq(b + len, 0x0102);
	len = dsr_finish(b, len);
	/* Next Header | F + Reserved | Payload Length (big endian) */
	CHECK_WIRE(b, len, 17, 0x00, 0x00, 0x04, 160, 2, 0x01, 0x02);
	memset(b, 0, sizeof(b));
	len = dsr_put_hdr(b, NH);
	memset(b + len, 0, 300);
	len = dsr_finish(b, len + 300);
	CHECK_EQ(len, 304);
	CHECK_WIRE(b, 4, NH, 0x00, 0x01, 0x2c);
	return true;
}

static bool t_wire_rreq(void)
{
	__be32 a[2] = { ip4(192, 168, 1, 2), ip4(172, 16, 0, 3) };
	u8 b[64];
	size_t len = dsr_put_rreq(b, 0xa1b2, ip4(10, 20, 30, 40), a, 2);

	/* Type 1 | Opt Data Len 6 + 4n | Identification | Target | Addr */
	CHECK_WIRE(b, len, 1, 14, 0xa1, 0xb2, 10, 20, 30, 40,
		   192, 168, 1, 2, 172, 16, 0, 3);
	len = dsr_put_rreq(b, 7, ip4(1, 2, 3, 4), NULL, 0);
	CHECK_WIRE(b, len, 1, 6, 0x00, 0x07, 1, 2, 3, 4);
	return true;
}

static bool t_wire_rrep(void)
{
	__be32 a[2] = { ip4(192, 168, 1, 2), ip4(172, 16, 0, 3) };
	u8 b[64];
	size_t len = dsr_put_rrep(b, true, a, 2);

	/* Type 2 | Opt Data Len 1 + 4n | L + Reserved | Address[1..n] */
	CHECK_WIRE(b, len, 2, 9, 0x80, 192, 168, 1, 2, 172, 16, 0, 3);
	len = dsr_put_rrep(b, false, a, 1);
	CHECK_WIRE(b, len, 2, 5, 0x00, 192, 168, 1, 2);
	return true;
}

static bool t_wire_rerr(void)
{
	u8 b[64];
	size_t len = dsr_put_rerr(b, 0xff, ip4(1, 2, 3, 4), ip4(5, 6, 7, 8),
				  ip4(9, 10, 11, 12));

	/* Type 3 | Len 14 | Error Type | Reservd + Salvage | src | dst | node */
	CHECK_WIRE(b, len, 3, 14, 1, 0x0f, 1, 2, 3, 4, 5, 6, 7, 8,
		   9, 10, 11, 12);
	return true;
}

static bool t_wire_areq(void)
{
	u8 b[64];
	size_t len = dsr_put_areq(b, 0xfedc);

	CHECK_WIRE(b, len, 160, 2, 0xfe, 0xdc);
	return true;
}

static bool t_wire_ack(void)
{
	u8 b[64];
	size_t len = dsr_put_ack(b, 0x1234, ip4(10, 0, 0, 1),
				 ip4(10, 0, 0, 2));

	/* Type 32 | Len 10 | Identification | ACK Source | ACK Destination */
	CHECK_WIRE(b, len, 32, 10, 0x12, 0x34, 10, 0, 0, 1, 10, 0, 0, 2);
	return true;
}

static bool t_wire_srt(void)
{
	__be32 a[3] = { ip4(10, 0, 0, 1), ip4(10, 0, 0, 2), ip4(10, 0, 0, 3) };
	u8 b[64];
	size_t len;

	/*
	 * Type 96 | Opt Data Len 2 + 4n | F L Reservd(4) Salvage(4) Segs(6)
	 * Salvage 5 = 0101, Segs Left 3 = 000011:
	 * 0 0 0000 0101 000011 = 0000 0001 0100 0011 = 0x01 0x43
	 */
	len = dsr_put_srt(b, 5, 3, a, 3);
	CHECK_WIRE(b, len, 96, 14, 0x01, 0x43, 10, 0, 0, 1, 10, 0, 0, 2,
		   10, 0, 0, 3);
	/* Salvage 15, Segs Left 63: 0 0 0000 1111 111111 */
	len = dsr_put_srt(b, 0xf, 0x3f, a, 1);
	CHECK_WIRE(b, len, 96, 6, 0x03, 0xff, 10, 0, 0, 1);
	/* out of range values are masked, never spill into F, L, Reserved */
	len = dsr_put_srt(b, 0xff, 0xff, NULL, 0);
	CHECK_WIRE(b, len, 96, 2, 0x03, 0xff);
	len = dsr_put_srt(b, 0x10, 0x40, NULL, 0);
	CHECK_WIRE(b, len, 96, 2, 0x00, 0x00);
	return true;
}

/* The accessors read F, L, Salvage and Segs Left at the RFC positions. */
static bool t_srt_bits(void)
{
	__be32 a[3] = { node(1), node(2), node(3) };
	u8 b[64];
	struct dsr_parsed p;
	size_t len = dsr_put_hdr(b, NH);
	u16 v;

	len += dsr_put_srt(b + len, 9, 2, a, 3);
	len = dsr_finish(b, len);
	b[DSR_HDR_LEN + 2] |= 0x80;		/* F: bit 15 */
	CHECK_PARSE(b, len, &p, DSR_OK);
	v = dsr_srt_bits(b, p.srt);
	CHECK((v & DSR_SRT_F) && !(v & DSR_SRT_L));
	CHECK_EQ(DSR_SRT_SALVAGE(v), 9);
	CHECK_EQ(DSR_SRT_SEGS(v), 2);

	b[DSR_HDR_LEN + 2] ^= 0xc0;		/* L: bit 14, F off */
	CHECK_PARSE(b, len, &p, DSR_OK);
	v = dsr_srt_bits(b, p.srt);
	CHECK(!(v & DSR_SRT_F) && (v & DSR_SRT_L));
	CHECK_EQ(DSR_SRT_SALVAGE(v), 9);

	b[DSR_HDR_LEN + 2] |= 0x3c;		/* Reserved: bits 13..10 */
	CHECK_PARSE(b, len, &p, DSR_OK);
	v = dsr_srt_bits(b, p.srt);
	CHECK_EQ(DSR_SRT_SALVAGE(v), 9);
	CHECK_EQ(DSR_SRT_SEGS(v), 2);
	CHECK_EQ(v, 0x4000 | 0x3c00 | 9 << 6 | 2);
	return true;
}

static bool t_srt_set_segs(void)
{
	__be32 a[3] = { node(1), node(2), node(3) };
	u8 b[64], before[64];
	size_t len = dsr_put_hdr(b, NH);
	unsigned int segs;

	len += dsr_put_srt(b + len, 0xf, 3, a, 3);
	len = dsr_finish(b, len);
	b[DSR_HDR_LEN + 2] |= 0xfc;	/* F, L and Reserved all set */
	memcpy(before, b, len);
	for (segs = 0; segs <= 3; segs++) {
		struct dsr_parsed p;

		dsr_srt_set_segs(b, DSR_HDR_LEN, segs);
		CHECK_EQ(DSR_SRT_SEGS(dsr_srt_bits(b, DSR_HDR_LEN)), segs);
		CHECK_EQ(dsr_srt_bits(b, DSR_HDR_LEN) & ~0x3f,
			 dsr_srt_bits(before, DSR_HDR_LEN) & ~0x3f);
		CHECK(!memcmp(b + DSR_HDR_LEN + 4, before + DSR_HDR_LEN + 4,
			      len - DSR_HDR_LEN - 4));
		CHECK_PARSE(b, len, &p, DSR_OK);
	}
	dsr_srt_set_segs(b, DSR_HDR_LEN, 0x41);	/* masked to 6 bits */
	CHECK_EQ(dsr_srt_bits(b, DSR_HDR_LEN), 0xffc1);
	return true;
}

static bool t_srt_node(void)
{
	__be32 a[4] = { node(1), node(2), node(3), node(4) };
	__be32 src = node(100), dst = node(200);
	unsigned int n, i;

	for (n = 0; n <= 4; n++) {
		u8 b[64];
		struct dsr_parsed p;
		size_t len = dsr_put_hdr(b, NH);

		len += dsr_put_srt(b + len, 0, n, a, n);
		len = dsr_finish(b, len);
		CHECK_PARSE(b, len, &p, DSR_OK);
		CHECK(dsr_srt_node(b, p.srt, src, dst, 0) == src);
		for (i = 1; i <= n; i++)
			CHECK(dsr_srt_node(b, p.srt, src, dst, i) == a[i - 1]);
		CHECK(dsr_srt_node(b, p.srt, src, dst, n + 1) == dst);
		CHECK(dsr_srt_node(b, p.srt, src, dst, n + 2) == dst);
		CHECK(dsr_srt_node(b, p.srt, src, dst, ~0u) == dst);
	}
	return true;
}

/* ---- unknown options ----------------------------------------------- */

static bool t_unknown_ignore(void)
{
	static const u8 b[] = { NH, 0, 0, 12, 0x05, 2, 0x11, 0x22,
				160, 2, 0, 9, 0x1f, 0, 0xe0, 0xe0 };
	u8 copy[sizeof(b)];
	struct dsr_parsed p;

	CHECK_PARSE(b, sizeof(b), &p, DSR_OK);
	CHECK_EQ(p.areq, 8);
	if (!nothing_else(&p, false, true, false, 0, 0, 0, 0))
		return false;
	/* nothing to rewrite */
	memcpy(copy, b, sizeof(b));
	dsr_rewrite_unknown(copy, &p);
	CHECK(!memcmp(copy, b, sizeof(b)));
	return true;
}

static bool t_unknown_remove(void)
{
	static const u8 b[] = { NH, 0, 0, 16, 160, 2, 0, 9,
				0x25, 5, 1, 2, 3, 4, 5,
				0x3f, 0, 0xe0, 0xe0, 0xe0 };
	static const u8 want[] = { NH, 0, 0, 16, 160, 2, 0, 9,
				   0, 5, 0, 0, 0, 0, 0,
				   0, 0, 0xe0, 0xe0, 0xe0 };
	u8 copy[sizeof(b)];
	struct dsr_parsed p;

	CHECK_PARSE(b, sizeof(b), &p, DSR_OK);
	CHECK_EQ(p.n_unknown, 2);
	CHECK_EQ(p.unknown[0], 8);
	CHECK_EQ(p.unknown[1], 15);
	CHECK(!p.report);
	memcpy(copy, b, sizeof(b));
	dsr_rewrite_unknown(copy, &p);
	/* PadN of the same length, content zeroed, the rest untouched */
	CHECK(wire(copy, sizeof(copy), want, sizeof(want)));
	CHECK_PARSE(copy, sizeof(copy), &p, DSR_OK);
	CHECK_EQ(p.areq, 4);
	return nothing_else(&p, false, true, false, 0, 0, 0, 0);
}

static bool t_unknown_mark(void)
{
	static const u8 b[] = { NH, 0, 0, 12, 0x45, 3, 0x01, 0x02, 0x03,
				0x5e, 0, 0x45, 1, 0x80, 0xe0, 0xe0 };
	static const u8 want[] = { NH, 0, 0, 12, 0x45, 3, 0x81, 0x02, 0x03,
				   0x5e, 0, 0x45, 1, 0x80, 0xe0, 0xe0 };
	u8 copy[sizeof(b)];
	struct dsr_parsed p;

	CHECK_PARSE(b, sizeof(b), &p, DSR_OK);
	CHECK_EQ(p.n_unknown, 3);
	CHECK_EQ(p.unknown[0], 4);
	CHECK_EQ(p.unknown[1], 9);
	CHECK_EQ(p.unknown[2], 11);
	CHECK(!p.report);
	memcpy(copy, b, sizeof(b));
	dsr_rewrite_unknown(copy, &p);
	/* first data byte marked; an option without data left alone */
	CHECK(wire(copy, sizeof(copy), want, sizeof(want)));
	/* marking is idempotent */
	CHECK_PARSE(copy, sizeof(copy), &p, DSR_OK);
	CHECK_EQ(p.n_unknown, 3);
	dsr_rewrite_unknown(copy, &p);
	CHECK(wire(copy, sizeof(copy), want, sizeof(want)));
	return true;
}

static bool t_unknown_report(void)
{
	/* 0x85 ignore+report, 0xa5 remove+report, 0xc5 mark+report */
	static const u8 b[] = { NH, 0, 0, 12, 0x05, 0, 0x85, 1, 7,
				0xa5, 0, 0xc5, 1, 9, 0xe0, 0xe0 };
	static const u8 drop[] = { NH, 0, 0, 4, 0xe1, 0, 0x85, 0 };
	struct dsr_parsed p;
	u8 copy[sizeof(b)];

	CHECK_PARSE(b, sizeof(b), &p, DSR_OK);
	CHECK(p.report);
	CHECK_EQ(p.report_type, 0x85);	/* the first one */
	CHECK_EQ(p.n_unknown, 2);
	CHECK_EQ(p.unknown[0], 9);
	CHECK_EQ(p.unknown[1], 11);
	memcpy(copy, b, sizeof(b));
	dsr_rewrite_unknown(copy, &p);
	CHECK_EQ(copy[9], DSR_OPT_PADN);
	CHECK_EQ(copy[10], 0);
	CHECK_EQ(copy[13], 0x89);
	CHECK(!memcmp(copy, b, 9));

	CHECK_PARSE(drop, sizeof(drop), &p, DSR_BAD_UNKNOWN_DROP);
	/* known types with the high bit are not reported */
	{
		static const u8 k[] = { NH, 0, 0, 4, 160, 2, 0, 1 };

		CHECK_PARSE(k, sizeof(k), &p, DSR_OK);
		CHECK(!p.report && !p.report_type);
	}
	return true;
}

/* Remove, mark, ignore and known options mixed: only unknowns change. */
static bool t_rewrite_mixed(void)
{
	__be32 a[2] = { node(1), node(2) };
	u8 b[BUF_SIZE], orig[BUF_SIZE];
	struct dsr_parsed p, q;
	size_t len = dsr_put_hdr(b, NH), rm, mk;
	unsigned int i;

	len += dsr_put_srt(b + len, 1, 1, a, 2);
	rm = len;
	b[len++] = 0x3a;	/* remove */
	b[len++] = 4;
	memset(b + len, 0xff, 4);
	len += 4;
	len += dsr_put_rrep(b + len, false, a, 2);
	mk = len;
	b[len++] = 0x5a;	/* mark */
	b[len++] = 2;
	b[len++] = 0x00;
	b[len++] = 0x77;
	len += dsr_put_ack(b + len, 3, a[0], a[1]);
	len = dsr_finish(b, len);
	memcpy(orig, b, len);

	CHECK_PARSE(b, len, &p, DSR_OK);
	CHECK_EQ(p.n_unknown, 2);
	dsr_rewrite_unknown(b, &p);
	for (i = 0; i < len; i++) {
		if (i == rm)
			CHECK_EQ(b[i], DSR_OPT_PADN);
		else if (i > rm + 1 && i < rm + 6)
			CHECK_EQ(b[i], 0);
		else if (i == mk + 2)
			CHECK_EQ(b[i], 0x80);
		else
			CHECK_EQ(b[i], orig[i]);
	}
	CHECK_PARSE(b, len, &q, DSR_OK);
	CHECK_EQ(q.srt, p.srt);
	CHECK_EQ(q.rrep[0], p.rrep[0]);
	CHECK_EQ(q.ack[0], p.ack[0]);
	CHECK_EQ(q.n_unknown, 1);
	CHECK_EQ(q.unknown[0], mk);
	return true;
}

/* ---- dsr_parse robustness ------------------------------------------ */

/* Every prefix of a valid header is refused, reading only what it has. */
static bool t_every_prefix(void)
{
	__be32 a[3] = { node(1), node(2), node(3) };
	u8 b[BUF_SIZE];
	struct dsr_parsed p;
	size_t len = dsr_put_hdr(b, NH), avail;

	len += dsr_put_srt(b + len, 1, 1, a, 3);
	len += dsr_put_rreq(b + len, 1, node(9), a, 2);
	len += dsr_put_ack(b + len, 1, a[0], a[1]);
	len = dsr_finish(b, len);
	CHECK_PARSE(b, len, &p, DSR_OK);
	for (avail = 0; avail < len; avail++)
		CHECK_PARSE(b, avail, &p, avail < DSR_HDR_LEN ?
			    DSR_BAD_TRUNCATED : DSR_BAD_PAYLOAD_LEN);
	/* a shorter Payload Length cutting into the options */
	for (avail = DSR_HDR_LEN + 1; avail < len; avail++) {
		enum dsr_bad r;

		ah_put16(b + 2, (u16)(avail - DSR_HDR_LEN));
		r = parse(b, len, &p);
		CHECK(r == DSR_BAD_OPT_LEN || r == DSR_OK);
		if (r == DSR_OK)	/* only where an option ends */
			CHECK(avail == 8 + 12 || avail == 8 + 12 + 16);
	}
	return true;
}

/* The header may be as long as Payload Length allows (64 KiB). */
static bool t_longest_header(void)
{
	size_t max = DSR_HDR_LEN + 0xffff, len, o;
	u8 *b = malloc(max);
	struct dsr_parsed p;
	bool ok = true;

	if (!b)
		abort();
	/* Payload Length 0xffff would end past 64 KiB: refused */
	dsr_put_hdr(b, NH);
	for (o = DSR_HDR_LEN; o < max; o++)
		b[o] = DSR_OPT_PAD1;
	ah_put16(b + 2, 0xffff);
	if (parse(b, max, &p) != DSR_BAD_PAYLOAD_LEN) {
		ktap_diag("Payload Length 0xffff accepted, len %u", p.len);
		ok = false;
	}
	/* the longest that fits: PadN options, an AREQ at the very end */
	len = 0xffff;
	for (o = DSR_HDR_LEN; o + 257 + 4 <= len - 4; o += 257) {
		b[o] = DSR_OPT_PADN;
		b[o + 1] = 255;
	}
	while (o < len - 4)
		b[o++] = DSR_OPT_PAD1;
	dsr_put_areq(b + o, 0x4242);
	ah_put16(b + 2, (u16)(len - DSR_HDR_LEN));
	if (parse(b, max, &p) != DSR_OK || p.len != len ||
	    p.areq != len - 4) {
		ktap_diag("longest header: len %u areq %u", p.len, p.areq);
		ok = false;
	}
	free(b);
	return ok;
}

/* ---- dsr_route_ok --------------------------------------------------- */

static bool t_route_ok(void)
{
	__be32 a[DSR_MAX_PATH + 1];

	addrs(a, DSR_MAX_PATH + 1, 4);
	CHECK(dsr_route_ok(a, 0, node(1), DSR_MAX_PATH));
	CHECK(dsr_route_ok(a, 1, node(1), DSR_MAX_PATH));
	CHECK(dsr_route_ok(a, DSR_MAX_PATH, node(1), DSR_MAX_PATH));
	CHECK(!dsr_route_ok(a, DSR_MAX_PATH + 1, node(1), DSR_MAX_PATH));
	CHECK(!dsr_route_ok(a, 4, node(1), 3));
	CHECK(dsr_route_ok(a, 3, node(1), 3));
	/* self 0: not checked */
	CHECK(dsr_route_ok(a, 5, 0, 5));
	return true;
}

static bool t_route_loop(void)
{
	__be32 a[5] = { node(1), node(2), node(3), node(4), node(5) };

	CHECK(dsr_route_ok(a, 5, 0, DSR_MAX_PATH));
	a[4] = node(1);			/* first and last */
	CHECK(!dsr_route_ok(a, 5, 0, DSR_MAX_PATH));
	CHECK(dsr_route_ok(a, 4, 0, DSR_MAX_PATH));
	a[4] = node(5);
	a[2] = node(2);			/* adjacent */
	CHECK(!dsr_route_ok(a, 5, 0, DSR_MAX_PATH));
	CHECK(dsr_route_ok(a, 2, 0, DSR_MAX_PATH));
	return true;
}

static bool t_route_self(void)
{
	__be32 a[3] = { node(1), node(2), node(3) };
	unsigned int i;

	for (i = 0; i < 3; i++)
		CHECK(!dsr_route_ok(a, 3, a[i], DSR_MAX_PATH));
	CHECK(dsr_route_ok(a, 3, node(4), DSR_MAX_PATH));
	return true;
}

static bool t_route_unroutable(void)
{
	static const u8 bad[][4] = {
		{ 0, 0, 0, 0 }, { 0, 1, 2, 3 }, { 127, 0, 0, 1 },
		{ 127, 255, 255, 254 }, { 224, 0, 0, 1 }, { 239, 1, 2, 3 },
		{ 240, 0, 0, 1 }, { 255, 255, 255, 255 },
	};
	static const u8 good[][4] = {
		{ 1, 0, 0, 0 }, { 10, 0, 0, 0 }, { 126, 255, 255, 255 },
		{ 128, 0, 0, 1 }, { 192, 168, 0, 255 }, { 223, 255, 255, 255 },
	};
	__be32 a[3] = { node(1), 0, node(3) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		a[1] = ip4(bad[i][0], bad[i][1], bad[i][2], bad[i][3]);
		if (dsr_route_ok(a, 3, 0, DSR_MAX_PATH)) {
			ktap_diag("accepted %u.%u.%u.%u", bad[i][0], bad[i][1],
				  bad[i][2], bad[i][3]);
			return false;
		}
		CHECK(!dsr_route_ok(a + 1, 1, 0, DSR_MAX_PATH));
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		a[1] = ip4(good[i][0], good[i][1], good[i][2], good[i][3]);
		if (!dsr_route_ok(a, 3, 0, DSR_MAX_PATH)) {
			ktap_diag("refused %u.%u.%u.%u", good[i][0],
				  good[i][1], good[i][2], good[i][3]);
			return false;
		}
	}
	return true;
}

/*
 * A header of: a Source Route, then Route Errors with the given Salvage
 * values (-1: an Acknowledgment instead) from node(10 + i) to node(20 + i).
 */
static size_t piggy_hdr(u8 *b, const int *kinds, unsigned int n,
			struct dsr_parsed *p)
{
	__be32 a[2] = { node(1), node(2) };
	size_t len = dsr_put_hdr(b, NH);
	unsigned int i;

	len += dsr_put_srt(b + len, 0, 1, a, 2);
	for (i = 0; i < n; i++)
		len += kinds[i] < 0 ?
			dsr_put_ack(b + len, (u16)i, node(10 + i), node(20 + i)) :
			dsr_put_rerr(b + len, (u8)kinds[i], node(10 + i),
				     node(20 + i), node(30 + i));
	len = dsr_finish(b, len);
	if (parse(b, len, p) != DSR_OK)
		abort();
	return len;
}

/* Section 8.3.4: what a new Route Error carries of the failed packet. */
static bool t_rerr_carry(void)
{
	const int all[] = { 0, -1, 2, -1 }, over[] = { 1, -1, 9, -1, 0 };
	struct dsr_parsed p;
	u8 b[256], c[256];
	size_t w;

	/* everything, in order */
	piggy_hdr(b, all, 4, &p);
	w = dsr_rerr_carry(c, sizeof(c), b, &p, 0, 15);
	CHECK_EQ(w, 2 * DSR_RERR_SIZE + 2 * DSR_ACK_SIZE);
	CHECK_EQ(c[0], DSR_OPT_RERR);
	CHECK(ah_get_addr(c + 4) == node(10));
	CHECK_EQ(c[16], DSR_OPT_ACK);
	CHECK(ah_get_addr(c + 16 + 4) == node(11));
	CHECK_EQ(c[28], DSR_OPT_RERR);
	CHECK(ah_get_addr(c + 28 + 4) == node(12));
	CHECK_EQ(c[44], DSR_OPT_ACK);
	/*
	 * total salvage counts: new (1 + 3) = 4, then 1 + 1 = 6, then 1 + 9
	 * = 16 > 15: the third Route Error and all after it stay out
	 */
	piggy_hdr(b, over, 5, &p);
	w = dsr_rerr_carry(c, sizeof(c), b, &p, 3, 15);
	CHECK_EQ(w, DSR_RERR_SIZE + DSR_ACK_SIZE);
	CHECK_EQ(c[0], DSR_OPT_RERR);
	CHECK_EQ(c[16], DSR_OPT_ACK);
	/* with 17 (16, then 17 for the last) all of them */
	w = dsr_rerr_carry(c, sizeof(c), b, &p, 3, 17);
	CHECK_EQ(w, 3 * DSR_RERR_SIZE + 2 * DSR_ACK_SIZE);
	/* no room for the second: only the first */
	w = dsr_rerr_carry(c, DSR_RERR_SIZE + DSR_ACK_SIZE - 1, b, &p, 0, 15);
	CHECK_EQ(w, DSR_RERR_SIZE);
	/* a packet with neither: nothing */
	piggy_hdr(b, all, 0, &p);
	CHECK_EQ(dsr_rerr_carry(c, sizeof(c), b, &p, 0, 15), 0);
	return true;
}

/* Section 8.3.5: the options of ours after a Route Error go out again. */
static bool t_rerr_returned(void)
{
	const int kinds[] = { 0, 2, -1, 5 };
	struct dsr_parsed p;
	u16 start = 0;
	__be32 dst = 0;
	size_t w;
	u8 b[256];

	piggy_hdr(b, kinds, 4, &p);
	/* after the first: node(11)'s Route Error, and the two after it */
	w = dsr_rerr_returned(b, &p, p.rerr[0], node(11), &dst, &start);
	CHECK_EQ(w, 2 * DSR_RERR_SIZE + DSR_ACK_SIZE);
	CHECK_EQ(start, p.rerr[1]);
	CHECK(dst == node(21));
	/* not ours: nothing */
	CHECK_EQ(dsr_rerr_returned(b, &p, p.rerr[0], node(10), &dst, &start),
		 0);
	/* after the second, the Acknowledgment of node(12) */
	w = dsr_rerr_returned(b, &p, p.rerr[1], node(12), &dst, &start);
	CHECK_EQ(w, DSR_RERR_SIZE + DSR_ACK_SIZE);
	CHECK(dst == node(22));
	/* the last option: nothing follows it (padding at most) */
	CHECK_EQ(dsr_rerr_returned(b, &p, p.rerr[2], node(13), &dst, &start),
		 0);
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "header alone round trip", t_hdr_only },
	{ "RREQ round trip, 0..DSR_MAX_PATH addresses", t_rreq_round_trip },
	{ "RREP round trip, L bit, 1..DSR_MAX_PATH addresses",
	  t_rrep_round_trip },
	{ "RERR round trip, Salvage masked", t_rerr_round_trip },
	{ "RERR carries the failed packet's RERR/ACK (8.3.4)", t_rerr_carry },
	{ "RERR returned with options of ours (8.3.5)", t_rerr_returned },
	{ "AREQ round trip", t_areq_round_trip },
	{ "ACK round trip", t_ack_round_trip },
	{ "SRT round trip, every Segs Left, one too many refused",
	  t_srt_round_trip },
	{ "dsr_finish: Pad1/PadN for every length mod 4", t_finish_padding },
	{ "dsr_finish after options of every length", t_finish_any_length },
	{ "every option, RREP/RERR/ACK DSR_MAX_REPEAT times", t_everything },
	{ "DSR_MAX_REPEAT + 1 RREPs refused", t_too_many_rrep },
	{ "DSR_MAX_REPEAT + 1 RERRs refused", t_too_many_rerr },
	{ "DSR_MAX_REPEAT + 1 ACKs refused", t_too_many_ack },
	{ "DSR_MAX_UNKNOWN + 1 remove-class unknowns refused",
	  t_too_many_unknown },
	{ "wire: fixed header", t_wire_hdr },
	{ "wire: RREQ", t_wire_rreq },
	{ "wire: RREP", t_wire_rrep },
	{ "wire: RERR", t_wire_rerr },
	{ "wire: AREQ", t_wire_areq },
	{ "wire: ACK", t_wire_ack },
	{ "wire: SRT Salvage/Segs Left bit positions", t_wire_srt },
	{ "SRT F/L/Reserved/Salvage/Segs Left accessors", t_srt_bits },
	{ "dsr_srt_set_segs changes only Segs Left", t_srt_set_segs },
	{ "dsr_srt_node: source, Address[1..n], destination", t_srt_node },
	{ "unknown ignore class skipped", t_unknown_ignore },
	{ "unknown remove class rewritten to PadN", t_unknown_remove },
	{ "unknown mark class: 0x80 in first data byte", t_unknown_mark },
	{ "unknown with 0x80: report_type", t_unknown_report },
	{ "rewrite touches only the unknown options", t_rewrite_mixed },
	{ "every prefix of a header refused", t_every_prefix },
	{ "64 KiB header", t_longest_header },
	{ "dsr_route_ok: lengths", t_route_ok },
	{ "dsr_route_ok: loops", t_route_loop },
	{ "dsr_route_ok: self", t_route_self },
	{ "dsr_route_ok: unroutable addresses", t_route_unroutable },
};

int main(void)
{
	size_t nh = ARRAY_SIZE(hdr_cases);
	size_t nf = ARRAY_SIZE(fn_cases);
	size_t i;

	ktap_plan((unsigned int)(nh + nf));
	for (i = 0; i < nh; i++)
		run_hdr_case(&hdr_cases[i]);
	ktap_cases(fn_cases, nf);
	return ktap_finish();
}
