// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/mcast_tag.c: the layer of a multicast video
 * packet, from a byte of its UDP payload or from RTP's Video Frame Marking
 * header extension (RFC 9626), and every class of refusal.  Each packet is
 * handed over in a buffer of exactly its length, so that ASan sees any
 * read past it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "mcast_tag.h"

/* a packet being built */
struct pkt {
	u8 b[512];
	size_t n;
};

static void put8(struct pkt *k, u8 v)
{
	k->b[k->n++] = v;
}

static void put16(struct pkt *k, u16 v)
{
	put8(k, (u8)(v >> 8));
	put8(k, (u8)v);
}

static void put32(struct pkt *k, u32 v)
{
	put16(k, (u16)(v >> 16));
	put16(k, (u16)v);
}

/* RTP fixed header, version 2, payload type 96, and cc CSRCs */
static void rtp(struct pkt *k, unsigned int cc, bool x)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	put8(k, (u8)(0x80 | (x ? 0x10 : 0) | cc));
	put8(k, 96);
	put16(k, 4711);			/* sequence number */
	put32(k, 90000);		/* timestamp */
	put32(k, 0x11223344);		/* SSRC */
	for (i = 0; i < cc; i++)
		put32(k, 0xc0000000 + i);
}

/* the extension header; returns where its length goes */
static size_t ext_begin(struct pkt *k, u16 profile)
{
	size_t at;

	put16(k, profile);
	at = k->n;
	put16(k, 0);
	return at;
}

/* pads the block to 32 bits and writes its length */
static void ext_end(struct pkt *k, size_t at)
{
	while ((k->n - at - 2) % 4)
		put8(k, 0);
	ah_put16(k->b + at, (u16)((k->n - at - 2) / 4));
}

/* an element of the one-byte form: 1..16 data bytes */
static void elem1(struct pkt *k, u8 id, const u8 *d, unsigned int n)
{
	put8(k, (u8)(id << 4 | (n - 1)));
	memcpy(k->b + k->n, d, n);
	k->n += n;
}

/* an element of the two-byte form: 0..255 data bytes */
static void elem2(struct pkt *k, u8 id, const u8 *d, unsigned int n)
{
	put8(k, id);
	put8(k, (u8)n);
	memcpy(k->b + k->n, d, n);
	k->n += n;
}

static void payload(struct pkt *k, size_t n)
{
	while (n--)
		put8(k, 0xaa);
}

/* RFC 9626 long form: S E I D B, TID; LID; TL0PICIDX if three */
static void fm_long(u8 *d, u8 tid, u8 lid)
{
	d[0] = 0x80 | 0x40 | 0x08 | (tid & 7);	/* S, E, B */
	d[1] = lid;
	d[2] = 0x17;				/* TL0PICIDX */
}

/* the result of dsr_mtag_get() on the first len bytes, exactly */
static enum dsr_mtag_res get(const struct dsr_mtag_cfg *cfg,
			     const struct pkt *k, size_t len, u8 *layer)
{
	enum dsr_mtag_res r;
	u8 *copy = malloc(len ? len : 1);

	if (!copy)
		abort();
	memcpy(copy, k->b, len);
	*layer = 0xee;
	r = dsr_mtag_get(cfg, copy, len, layer);
	free(copy);
	return r;
}

/* OK and this layer */
#define CHECK_LAYER(cfg, k, want)					\
	do {								\
		u8 l_;							\
		CHECK_EQ(get(cfg, k, (k)->n, &l_), DSR_MTAG_OK);	\
		CHECK_EQ(l_, want);					\
	} while (0)

/* refused with this class, layer untouched */
#define CHECK_RES(cfg, k, len, want)					\
	do {								\
		u8 l_;							\
		CHECK_EQ(get(cfg, k, len, &l_), want);			\
		CHECK_EQ(l_, 0xee);					\
	} while (0)

static const struct dsr_mtag_cfg byte0 = {
	.mode = DSR_MTAG_BYTE, .layers = 33, .offset = 0,
};

static const struct dsr_mtag_cfg rtp_lid = {
	.mode = DSR_MTAG_RTP, .layers = 33, .ext_id = 5, .tids = 0,
};

static const struct dsr_mtag_cfg rtp_t3 = {
	.mode = DSR_MTAG_RTP, .layers = 33, .ext_id = 5, .tids = 3,
};

static bool t_byte(void)
{
	struct dsr_mtag_cfg c = byte0;
	struct pkt k = { .n = 0 };

	put8(&k, 0);
	CHECK_LAYER(&c, &k, 0);
	k.b[0] = 32;			/* the seed's 33 layers: 0..32 */
	CHECK_LAYER(&c, &k, 32);
	k.b[0] = 0x80 | 7;		/* the top bit is not the tag's */
	CHECK_LAYER(&c, &k, 7);
	c.offset = 3;
	payload(&k, 3);
	k.b[3] = 0x85;
	CHECK_LAYER(&c, &k, 5);
	return true;
}

static bool t_byte_above(void)
{
	struct dsr_mtag_cfg c = byte0;
	struct pkt k = { .n = 0 };

	put8(&k, 33);
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ABOVE);
	k.b[0] = 0xff;			/* 127 */
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ABOVE);
	c.layers = DSR_MTAG_MAX_LAYERS;
	CHECK_LAYER(&c, &k, 127);
	c.layers = 1;
	k.b[0] = 1;
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ABOVE);
	k.b[0] = 0x80;
	CHECK_LAYER(&c, &k, 0);
	return true;
}

static bool t_byte_truncated(void)
{
	struct dsr_mtag_cfg c = byte0;
	struct pkt k = { .n = 0 };

	payload(&k, 8);
	CHECK_RES(&c, &k, 0, DSR_MTAG_TRUNCATED);
	c.offset = 7;
	CHECK_RES(&c, &k, 7, DSR_MTAG_TRUNCATED);
	k.b[7] = 2;
	CHECK_LAYER(&c, &k, 2);
	c.offset = 0xffff;
	CHECK_RES(&c, &k, k.n, DSR_MTAG_TRUNCATED);
	return true;
}

/* no X bit: untagged, whatever the CSRCs and payload */
static bool t_rtp_plain(void)
{
	struct pkt k;

	rtp(&k, 0, false);
	CHECK_LAYER(&rtp_lid, &k, 0);	/* the fixed header alone */
	payload(&k, 100);
	CHECK_LAYER(&rtp_lid, &k, 0);
	rtp(&k, 15, false);
	CHECK_LAYER(&rtp_lid, &k, 0);
	/* a payload that looks like an extension is still payload */
	rtp(&k, 2, false);
	put16(&k, 0xbede);
	put16(&k, 1);
	put8(&k, 0x51);
	put16(&k, 0x0b07);
	put8(&k, 0);
	CHECK_LAYER(&rtp_lid, &k, 0);
	return true;
}

/* the long form in the one-byte header form */
static bool t_rtp_one_byte_long(void)
{
	struct pkt k;
	size_t at;
	u8 d[3];

	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	fm_long(d, 0, 7);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	payload(&k, 40);
	CHECK_LAYER(&rtp_lid, &k, 7);
	/* tids 3: LID 7, TID 0 is layer 21 */
	CHECK_LAYER(&rtp_t3, &k, 21);
	k.b[at + 3] = 0x80 | 2;		/* S, TID 2 */
	hexdump("one-byte form, LID 7, TID 2", k.b, k.n - 40);
	CHECK_LAYER(&rtp_t3, &k, 23);
	CHECK_LAYER(&rtp_lid, &k, 7);	/* tids 0: TID not used */
	return true;
}

/* the earlier drafts' long form, with TL0PICIDX: three data bytes */
static bool t_rtp_tl0picidx(void)
{
	struct pkt k;
	size_t at;
	u8 d[3];

	rtp(&k, 1, true);
	at = ext_begin(&k, 0xbede);
	fm_long(d, 1, 4);
	elem1(&k, 5, d, 3);
	ext_end(&k, at);
	CHECK_LAYER(&rtp_lid, &k, 4);
	CHECK_LAYER(&rtp_t3, &k, 13);
	return true;
}

/* the short form of a stream that is not scalable: the base layer */
static bool t_rtp_short(void)
{
	struct pkt k;
	size_t at;
	u8 d = 0x80 | 0x40 | 0x20;	/* S E I */

	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	elem1(&k, 5, &d, 1);
	ext_end(&k, at);
	payload(&k, 10);
	CHECK_LAYER(&rtp_lid, &k, 0);
	CHECK_LAYER(&rtp_t3, &k, 0);
	/* two-byte form */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0x1000);
	elem2(&k, 5, &d, 1);
	ext_end(&k, at);
	CHECK_LAYER(&rtp_t3, &k, 0);
	return true;
}

/* the two-byte header form, with its four application bits set */
static bool t_rtp_two_byte(void)
{
	struct dsr_mtag_cfg c = rtp_t3;
	struct pkt k;
	size_t at, id200;
	u8 d[3], other[20] = { 0 };

	rtp(&k, 3, true);
	at = ext_begin(&k, 0x100f);
	elem2(&k, 9, other, 0);		/* empty elements are allowed */
	put8(&k, 0);			/* padding */
	elem2(&k, 200, other, 20);
	fm_long(d, 2, 5);
	elem2(&k, 5, d, 2);
	ext_end(&k, at);
	payload(&k, 3);
	CHECK_LAYER(&c, &k, 17);
	/* an id only the two-byte form has: the first of that id counts */
	c.ext_id = 200;
	id200 = at + 5;			/* after 9, its length and padding */
	CHECK_EQ(k.b[id200], 200);
	k.b[id200 + 1] = 18;		/* no length frame marking has */
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ELEM);
	k.b[id200 + 1] = 2;		/* now the long form, then padding */
	k.b[id200 + 2] = 0;		/* TID 0 */
	k.b[id200 + 3] = 3;		/* LID 3 */
	CHECK_LAYER(&c, &k, 9);
	return true;
}

/* extension present, element not: untagged */
static bool t_rtp_absent(void)
{
	struct dsr_mtag_cfg c = rtp_t3;
	struct pkt k;
	size_t at;
	u8 d[3];

	rtp(&k, 2, true);
	at = ext_begin(&k, 0xbede);
	fm_long(d, 1, 9);
	elem1(&k, 4, d, 2);		/* not our id */
	put8(&k, 0);			/* padding */
	put8(&k, 0);
	elem1(&k, 6, d, 3);
	ext_end(&k, at);
	payload(&k, 20);
	CHECK_LAYER(&c, &k, 0);
	/* an empty block */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	ext_end(&k, at);
	CHECK_LAYER(&c, &k, 0);
	/* another profile (RFC 3550's own): its content is not read */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0x0001);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	CHECK_LAYER(&c, &k, 0);
	/* an id the one-byte form cannot carry */
	c.ext_id = 20;
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	CHECK_LAYER(&c, &k, 0);
	c.ext_id = 5;
	CHECK_LAYER(&c, &k, 28);
	return true;
}

/* one-byte form: ID 15 ends the walk, what follows is not read */
static bool t_rtp_id15(void)
{
	struct pkt k;
	size_t at;
	u8 d[3];

	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	put8(&k, 0xf3);			/* ID 15, "length" 4 */
	fm_long(d, 0, 3);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	CHECK_LAYER(&rtp_lid, &k, 0);
	/* ID 15 as the last byte, its length past the block: still fine */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	elem1(&k, 5 + 1, d, 2);
	put8(&k, 0xff);
	ext_end(&k, at);
	CHECK_LAYER(&rtp_lid, &k, 0);
	return true;
}

/* CSRCs: all fifteen; and a count past the packet */
static bool t_rtp_csrc(void)
{
	struct pkt k;
	size_t at, full;
	u8 d[3];

	rtp(&k, 15, true);
	at = ext_begin(&k, 0xbede);
	fm_long(d, 0, 11);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	CHECK_EQ(at, 12 + 60 + 2);
	CHECK_LAYER(&rtp_lid, &k, 11);
	/* the CSRCs end exactly at the end: no extension header */
	rtp(&k, 4, false);
	CHECK_LAYER(&rtp_lid, &k, 0);
	full = k.n;
	CHECK_RES(&rtp_lid, &k, full - 1, DSR_MTAG_CSRC);
	CHECK_RES(&rtp_lid, &k, 12, DSR_MTAG_CSRC);
	rtp(&k, 15, false);
	CHECK_RES(&rtp_lid, &k, 12 + 56, DSR_MTAG_CSRC);
	return true;
}

static bool t_rtp_version(void)
{
	struct pkt k;
	u8 v;

	rtp(&k, 0, false);
	payload(&k, 8);
	for (v = 0; v < 4; v++) {
		k.b[0] = (u8)(v << 6);
		if (v == 2)
			CHECK_LAYER(&rtp_lid, &k, 0);
		else
			CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_VERSION);
	}
	return true;
}

static bool t_rtp_truncated(void)
{
	struct pkt k;
	size_t n;

	rtp(&k, 0, false);
	for (n = 0; n < 12; n++)
		CHECK_RES(&rtp_lid, &k, n, DSR_MTAG_TRUNCATED);
	CHECK_LAYER(&rtp_lid, &k, 0);
	return true;
}

static bool t_rtp_ext_len(void)
{
	struct pkt k;
	size_t at;
	u8 d[3];

	/* X set, the extension header cut */
	rtp(&k, 1, true);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_EXT_LEN);
	put8(&k, 0xbe);
	put8(&k, 0xde);
	put8(&k, 0);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_EXT_LEN);
	/* the length a word past the packet */
	rtp(&k, 1, true);
	at = ext_begin(&k, 0xbede);
	fm_long(d, 0, 1);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	CHECK_LAYER(&rtp_lid, &k, 1);
	k.b[at + 1] = 2;
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_EXT_LEN);
	/* the largest length there is */
	k.b[at] = 0xff;
	k.b[at + 1] = 0xff;
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_EXT_LEN);
	/* payload after the block does not make it fit */
	k.b[at] = 0;
	k.b[at + 1] = 1;
	payload(&k, 3);
	CHECK_LAYER(&rtp_lid, &k, 1);
	k.b[at + 1] = 2;
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_EXT_LEN);
	return true;
}

/* frame marking elements of a length RFC 9626 does not have */
static bool t_rtp_elem_len(void)
{
	struct pkt k;
	size_t at;
	u8 d[16] = { 0 };

	fm_long(d, 0, 1);
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	elem1(&k, 5, d, 4);
	ext_end(&k, at);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	elem1(&k, 5, d, 16);
	ext_end(&k, at);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	rtp(&k, 0, true);
	at = ext_begin(&k, 0x1000);
	elem2(&k, 5, d, 0);
	ext_end(&k, at);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	rtp(&k, 0, true);
	at = ext_begin(&k, 0x1000);
	elem2(&k, 5, d, 4);
	ext_end(&k, at);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	return true;
}

/* an element running past its block (not past the packet) */
static bool t_rtp_elem_overrun(void)
{
	struct pkt k;
	size_t at;
	u8 d[3];

	fm_long(d, 0, 1);
	/* one-byte form: a block of one word, an element of 16 bytes */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	put8(&k, 0x4f);
	put8(&k, 0);
	put8(&k, 0);
	put8(&k, 0);
	ext_end(&k, at);
	payload(&k, 40);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	/* our element cut by the block's end */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	put8(&k, 0);
	put8(&k, 0);
	put8(&k, 0);
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	k.b[at + 1] = 1;		/* the block ends after the id byte */
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	/* two-byte form: an id in the block's last byte, no length */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0x1000);
	put8(&k, 0);
	put8(&k, 0);
	put8(&k, 0);
	put8(&k, 7);
	ext_end(&k, at);
	payload(&k, 4);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	/* a length past the block */
	rtp(&k, 0, true);
	at = ext_begin(&k, 0x1000);
	elem2(&k, 7, d, 2);
	ext_end(&k, at);
	k.b[at + 2 + 1] = 3;
	payload(&k, 4);
	CHECK_RES(&rtp_lid, &k, k.n, DSR_MTAG_ELEM);
	return true;
}

static bool t_rtp_tid(void)
{
	struct dsr_mtag_cfg c = rtp_t3;
	struct pkt k;
	size_t at;
	u8 d[3], t;

	for (t = 0; t < 8; t++) {
		rtp(&k, 0, true);
		at = ext_begin(&k, 0xbede);
		fm_long(d, t, 2);
		elem1(&k, 5, d, 2);
		ext_end(&k, at);
		if (t < 3)
			CHECK_LAYER(&c, &k, 2 * 3 + t);
		else
			CHECK_RES(&c, &k, k.n, DSR_MTAG_TID);
	}
	/* eight temporal layers: every TID, layer = 8 LID + TID */
	c.tids = 8;
	c.layers = DSR_MTAG_MAX_LAYERS;
	CHECK_LAYER(&c, &k, 23);
	return true;
}

static bool t_rtp_above(void)
{
	struct dsr_mtag_cfg c = rtp_t3;
	struct pkt k;
	size_t at;
	u8 d[3];

	rtp(&k, 0, true);
	at = ext_begin(&k, 0xbede);
	fm_long(d, 2, 10);		/* 10 * 3 + 2 = 32: the last */
	elem1(&k, 5, d, 2);
	ext_end(&k, at);
	CHECK_LAYER(&c, &k, 32);
	k.b[at + 2 + 2] = 11;		/* 35 */
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ABOVE);
	/* the largest the element can say, 255 * 8 + 7 */
	c.tids = 8;
	c.layers = DSR_MTAG_MAX_LAYERS;
	k.b[at + 2 + 1] |= 7;
	k.b[at + 2 + 2] = 255;
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ABOVE);
	c.tids = 0;
	CHECK_RES(&c, &k, k.n, DSR_MTAG_ABOVE);
	k.b[at + 2 + 2] = 127;
	CHECK_LAYER(&c, &k, 127);
	return true;
}

static bool t_cfg(void)
{
	struct dsr_mtag_cfg c = rtp_lid;
	struct pkt k;

	rtp(&k, 0, false);
	CHECK(dsr_mtag_cfg_ok(&c) && dsr_mtag_cfg_ok(&byte0));
#define BAD(field, value)						\
	do {								\
		c = rtp_lid;						\
		c.field = value;					\
		CHECK(!dsr_mtag_cfg_ok(&c));				\
		CHECK_RES(&c, &k, k.n, DSR_MTAG_CFG);			\
	} while (0)
	BAD(layers, 0);
	BAD(layers, DSR_MTAG_MAX_LAYERS + 1);
	BAD(ext_id, 0);
	BAD(tids, DSR_MTAG_MAX_TIDS + 1);
	BAD(mode, __DSR_MTAG_MODE_MAX);
#undef BAD
	/* the byte mode has no use for them */
	c = byte0;
	c.ext_id = 0;
	c.tids = 200;
	CHECK(dsr_mtag_cfg_ok(&c));
	c.ext_id = 255;
	c.mode = DSR_MTAG_RTP;
	c.tids = 8;
	CHECK(dsr_mtag_cfg_ok(&c));
	return true;
}

/* every prefix of a full packet: the right class, nothing read past it */
static bool t_prefixes(void)
{
	struct pkt k;
	size_t at, n, csrc_end, ext_end_at;
	u8 d[3], l;

	rtp(&k, 2, true);
	csrc_end = k.n;
	at = ext_begin(&k, 0xbede);
	put8(&k, 0);
	fm_long(d, 1, 6);
	elem1(&k, 5, d, 3);
	ext_end(&k, at);
	ext_end_at = k.n;
	payload(&k, 9);
	for (n = 0; n <= k.n; n++) {
		enum dsr_mtag_res r = get(&rtp_t3, &k, n, &l), want;

		if (n < 12)
			want = DSR_MTAG_TRUNCATED;
		else if (n < csrc_end)
			want = DSR_MTAG_CSRC;
		else if (n < ext_end_at)
			want = DSR_MTAG_EXT_LEN;
		else
			want = DSR_MTAG_OK;
		if (r != want)
			ktap_diag("prefix of %zu bytes", n);
		CHECK_EQ(r, want);
		if (r == DSR_MTAG_OK)
			CHECK_EQ(l, 19);
	}
	return true;
}

static bool t_names(void)
{
	unsigned int i, j;

	for (i = 0; i < __DSR_MTAG_RES_MAX; i++) {
		const char *a = dsr_mtag_res_name(i);

		CHECK(a && *a && strcmp(a, "?"));
		for (j = 0; j < i; j++)
			CHECK(strcmp(a, dsr_mtag_res_name(j)));
	}
	CHECK(!strcmp(dsr_mtag_res_name(__DSR_MTAG_RES_MAX), "?"));
	return true;
}

static const struct ktap_case cases[] = {
	{ "byte mode: the low 7 bits at the offset", t_byte },
	{ "byte mode: a tag at or above the layers is refused", t_byte_above },
	{ "byte mode: a payload without the byte is truncated",
	  t_byte_truncated },
	{ "rtp: no extension, with and without CSRCs: layer 0", t_rtp_plain },
	{ "rtp: long form, one-byte header: LID, LID * tids + TID",
	  t_rtp_one_byte_long },
	{ "rtp: long form with TL0PICIDX (three bytes)", t_rtp_tl0picidx },
	{ "rtp: short form (not scalable): layer 0", t_rtp_short },
	{ "rtp: two-byte header form, ids above 14", t_rtp_two_byte },
	{ "rtp: element not present: layer 0", t_rtp_absent },
	{ "rtp: one-byte form, ID 15 ends the walk", t_rtp_id15 },
	{ "rtp: 15 CSRCs; a CSRC count past the packet", t_rtp_csrc },
	{ "rtp: a version other than 2", t_rtp_version },
	{ "rtp: shorter than the fixed header", t_rtp_truncated },
	{ "rtp: extension header or length past the packet", t_rtp_ext_len },
	{ "rtp: frame marking element of a wrong length", t_rtp_elem_len },
	{ "rtp: an element past its block", t_rtp_elem_overrun },
	{ "rtp: TID at or above the group's tids", t_rtp_tid },
	{ "rtp: a layer at or above the group's layers", t_rtp_above },
	{ "configuration checks", t_cfg },
	{ "every prefix of a packet: its class, no read past it", t_prefixes },
	{ "every result has a name of its own", t_names },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
