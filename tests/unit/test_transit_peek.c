// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/orinoco_transit/peek.c: the first bytes of a
 * received frame.  Every parse is of a buffer of exactly the bytes said
 * to be read, so that ASan catches a read past them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "transit_util.h"
#include "peek.h"

static const u8 mac_us[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const u8 mac_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const u8 mac_mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

#define SRC	ip4(10, 0, 0, 1)
#define DST	ip4(10, 0, 0, 5)

/* Ethernet header (+ one 802.1Q tag) for IPv4; returns the IP offset. */
static u32 put_eth(u8 *b, const u8 *dmac, bool vlan)
{
	static const u8 smac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	u32 o = 12;

	memcpy(b, dmac, 6);
	memcpy(b + 6, smac, 6);
	if (vlan) {
		put16(b + 12, TR_ETH_P_8021Q);
		put16(b + 14, 7);
		o += 4;
	}
	put16(b + o, TR_ETH_P_IP);
	return o + 2;
}

/* IPv4 header of ihl bytes (options zero), l4len bytes after it */
static u32 put_ip(u8 *b, u32 o, u8 ihl, u8 proto, __be32 s, __be32 d,
		  u16 id, u16 frag, u32 l4len)
{
	memset(b + o, 0, ihl);
	b[o] = 0x40 | ihl / 4;
	put16(b + o + 2, (u16)(ihl + l4len));
	put16(b + o + 4, id);
	put16(b + o + 6, frag);
	b[o + 8] = 64;
	b[o + 9] = proto;
	memcpy(b + o + 12, &s, 4);
	memcpy(b + o + 16, &d, 4);
	return o + ihl;
}

/* A UDP datagram of payload bytes: Ethernet, IPv4, UDP 5000 -> 6000. */
static u32 udp_frame(u8 *b, bool vlan, u32 payload)
{
	u32 o = put_eth(b, mac_us, vlan);

	o = put_ip(b, o, 20, TR_IPPROTO_UDP, SRC, DST, 0x1234, 0,
		   8 + payload);
	put16(b + o, 5000);
	put16(b + o + 2, 6000);
	put16(b + o + 4, (u16)(8 + payload));
	memset(b + o + 8, 0xab, payload);
	return o + 8 + payload;
}

/* tr_peek on a copy holding exactly avail bytes of b */
static enum tr_peek_reason peek(const u8 *b, u32 avail, u32 frame_len,
				struct tr_peek *p)
{
	u8 *c = malloc(avail ? avail : 1);
	enum tr_peek_reason r;

	if (!c)
		abort();
	memcpy(c, b, avail);
	r = tr_peek(c, avail, frame_len, p);
	free(c);
	return r;
}

static bool t_udp(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 100);

	CHECK_EQ(n, 142);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK_EQ(p.reason, TR_PEEK_OK);
	CHECK(p.ipv4 && !p.vlan && !p.mf && p.l4_seen && p.has_ports);
	CHECK(!p.l2_mcast && !p.l2_bcast && !p.l3_mcast && !p.l3_bcast);
	CHECK_EQ(p.ip_off, 14);
	CHECK_EQ(p.ihl, 20);
	CHECK_EQ(p.protocol, TR_IPPROTO_UDP);
	CHECK_EQ(p.tot_len, 128);
	CHECK_EQ(p.id, 0x1234);
	CHECK_EQ(p.frag_off, 0);
	CHECK(p.saddr == SRC && p.daddr == DST);
	CHECK_EQ(p.sport, 5000);
	CHECK_EQ(p.dport, 6000);
	CHECK(!p.dsr_srt);
	CHECK(tr_peek_droppable(&p));
	CHECK(tr_peek_first_frag(&p) && !tr_peek_fragment(&p));

	/* the driver's defaults: 34 bytes, then 38 with ports */
	CHECK_EQ(peek(b, TR_PEEK_LEN_MIN, n, &p), TR_PEEK_OK);
	CHECK(p.l4_seen && !p.has_ports && tr_peek_droppable(&p));
	CHECK_EQ(peek(b, TR_PEEK_LEN_PORTS, n, &p), TR_PEEK_OK);
	CHECK(p.has_ports && p.sport == 5000 && p.dport == 6000);
	return true;
}

/* Every prefix of a full frame, the rest still unread. */
static bool t_prefixes(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30), avail;

	for (avail = 0; avail <= n; avail++) {
		enum tr_peek_reason want = avail < 14 ? TR_PEEK_TOO_SHORT :
					   avail < 34 ? TR_PEEK_IP_TRUNC :
							TR_PEEK_OK;

		if (peek(b, avail, n, &p) != want) {
			ktap_diag("avail %u: %s", avail,
				  tr_peek_reason_str(p.reason));
			return false;
		}
		CHECK_EQ(p.reason, want);
		CHECK_EQ(p.has_ports, avail >= 38);
		CHECK_EQ(p.ipv4, avail >= 14);
		CHECK_EQ(tr_peek_droppable(&p), want == TR_PEEK_OK);
	}
	return true;
}

/* Every frame cut short: the IPv4 total length says it is truncated. */
static bool t_cut_frames(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30), len;

	for (len = 0; len <= n; len++) {
		enum tr_peek_reason want = len < 14 ? TR_PEEK_TOO_SHORT :
					   len < 34 ? TR_PEEK_IP_TRUNC :
					   len < n ? TR_PEEK_FRAME_TRUNC :
						     TR_PEEK_OK;

		CHECK_EQ(peek(b, len, len, &p), want);
		CHECK(want == TR_PEEK_OK || !tr_peek_droppable(&p));
	}
	return true;
}

static bool t_vlan(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, true, 30), avail;

	for (avail = 0; avail <= n; avail++) {
		enum tr_peek_reason want = avail < 14 ? TR_PEEK_TOO_SHORT :
					   avail < 18 ? TR_PEEK_VLAN_TRUNC :
					   avail < 38 ? TR_PEEK_IP_TRUNC :
							TR_PEEK_OK;

		CHECK_EQ(peek(b, avail, n, &p), want);
		CHECK_EQ(p.has_ports, avail >= 42);
	}
	CHECK(p.vlan && p.ipv4);
	CHECK_EQ(p.ip_off, 18);
	CHECK(p.saddr == SRC && p.daddr == DST && p.dport == 6000);
	CHECK(tr_peek_droppable(&p));
	return true;
}

static bool t_not_ipv4(void)
{
	static const u16 types[] = { 0x0806, 0x86dd, 0x88a8, 0x8847, 0x0000,
				     0xffff };
	struct tr_peek p;
	unsigned int i;
	u8 b[256];
	u32 n;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		n = udp_frame(b, false, 30);
		put16(b + 12, types[i]);
		CHECK_EQ(peek(b, n, n, &p), TR_PEEK_NOT_IPV4);
		CHECK(!p.ipv4 && !tr_peek_droppable(&p));
		/* behind a tag too */
		n = udp_frame(b, true, 30);
		put16(b + 16, types[i]);
		CHECK_EQ(peek(b, n, n, &p), TR_PEEK_NOT_IPV4);
		CHECK(p.vlan && !p.ipv4 && !tr_peek_droppable(&p));
	}
	/* two tags: not followed */
	n = udp_frame(b, true, 30);
	put16(b + 16, TR_ETH_P_8021Q);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_NOT_IPV4);
	return true;
}

static bool t_bad_version(void)
{
	static const u8 vers[] = { 0x05, 0x65, 0x35, 0xf5 };
	struct tr_peek p;
	unsigned int i;
	u8 b[256];
	u32 n = udp_frame(b, false, 30);

	for (i = 0; i < ARRAY_SIZE(vers); i++) {
		b[14] = vers[i];
		CHECK_EQ(peek(b, n, n, &p), TR_PEEK_BAD_VERSION);
		CHECK(p.ipv4 && !tr_peek_droppable(&p));
	}
	return true;
}

static bool t_bad_ihl(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30), ihl;

	for (ihl = 0; ihl < 5; ihl++) {
		b[14] = (u8)(0x40 | ihl);
		CHECK_EQ(peek(b, n, n, &p), TR_PEEK_BAD_IHL);
		CHECK(!tr_peek_droppable(&p));
	}
	return true;
}

static bool t_bad_tot_len(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30), tot;

	for (tot = 0; tot < 20; tot++) {
		put16(b + 16, (u16)tot);
		CHECK_EQ(peek(b, n, n, &p), TR_PEEK_BAD_TOT_LEN);
		CHECK(!tr_peek_droppable(&p));
	}
	put16(b + 16, 20);		/* a bare header is a datagram */
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.has_ports);		/* no room for them in it */
	put16(b + 16, 23);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.has_ports);
	put16(b + 16, 24);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.has_ports);
	/* with options: below the header length */
	b[14] = 0x46;
	put16(b + 16, 23);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_BAD_TOT_LEN);
	return true;
}

static bool t_frame_trunc(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30);

	put16(b + 16, (u16)(n - 14 + 1));
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_FRAME_TRUNC);
	CHECK(!tr_peek_droppable(&p));
	put16(b + 16, 0xffff);
	CHECK_EQ(peek(b, 34, n, &p), TR_PEEK_FRAME_TRUNC);
	/* shorter than the frame: Ethernet padding, fine */
	put16(b + 16, 28);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK_EQ(p.tot_len, 28);
	return true;
}

static bool t_bad_frag(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30);	/* 38 bytes of payload */

	/* 8191 * 8 + 38 > 65535: the ping of death */
	put16(b + 20, 0x1fff);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_BAD_FRAG);
	CHECK(!tr_peek_droppable(&p));
	/* 8186 * 8 + 38 = 65526: the last that fits */
	put16(b + 20, 8186);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK_EQ(p.frag_off, 8186);
	put16(b + 20, 8187);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);	/* 65534 */
	put16(b + 20, 8188);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_BAD_FRAG);
	return true;
}

static bool t_ip_options(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 o = put_eth(b, mac_us, false), n, avail;

	o = put_ip(b, o, 24, TR_IPPROTO_TCP, SRC, DST, 9, 0, 20);
	put16(b + o, 80);
	put16(b + o + 2, 8080);
	memset(b + o + 4, 0, 16);
	n = o + 20;
	for (avail = 34; avail <= n; avail++) {
		CHECK_EQ(peek(b, avail, n, &p), TR_PEEK_OK);
		CHECK_EQ(p.ihl, 24);
		CHECK_EQ(p.l4_seen, avail >= 38);
		CHECK_EQ(p.has_ports, avail >= 42);
		CHECK(tr_peek_droppable(&p));
	}
	CHECK(p.sport == 80 && p.dport == 8080);

	/* the longest header: 60 bytes */
	o = put_eth(b, mac_us, false);
	o = put_ip(b, o, 60, TR_IPPROTO_UDP, SRC, DST, 9, 0, 8);
	put16(b + o, 1);
	put16(b + o + 2, 2);
	n = o + 8;
	CHECK_EQ(peek(b, TR_PEEK_LEN_MAX, n, &p), TR_PEEK_OK);
	CHECK(p.ihl == 60 && p.has_ports && p.sport == 1 && p.dport == 2);
	CHECK_EQ(peek(b, 77, n, &p), TR_PEEK_OK);
	CHECK(p.l4_seen && !p.has_ports);
	return true;
}

static bool t_fragments(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30);

	/* first fragment: ports, MF */
	put16(b + 20, TR_IP_MF);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.mf && p.frag_off == 0 && p.has_ports);
	CHECK(tr_peek_first_frag(&p) && tr_peek_fragment(&p));
	CHECK(tr_peek_droppable(&p));
	/* later fragments: what follows the header is data, not ports */
	put16(b + 20, TR_IP_MF | 185);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.mf && p.frag_off == 185 && !p.has_ports);
	CHECK(!tr_peek_first_frag(&p) && tr_peek_fragment(&p));
	CHECK(tr_peek_droppable(&p));	/* following its datagram */
	put16(b + 20, 370);		/* the last */
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.mf && p.frag_off == 370 && !p.has_ports);
	CHECK(tr_peek_fragment(&p));
	/* DF is not a fragment */
	put16(b + 20, 0x4000);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!tr_peek_fragment(&p) && p.has_ports);
	return true;
}

static bool t_l2(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 30);

	memcpy(b, mac_bcast, 6);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.l2_bcast && p.l2_mcast && !tr_peek_droppable(&p));
	memcpy(b, mac_mcast, 6);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.l2_bcast && p.l2_mcast && !tr_peek_droppable(&p));
	b[0] = 0x33;			/* IPv6 multicast MAC: group bit */
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.l2_mcast && !tr_peek_droppable(&p));
	b[0] = 0x02;
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.l2_mcast && tr_peek_droppable(&p));
	/* known from the header alone, whatever follows */
	memcpy(b, mac_bcast, 6);
	put16(b + 12, 0x0806);
	CHECK_EQ(peek(b, 14, n, &p), TR_PEEK_NOT_IPV4);
	CHECK(p.l2_bcast);
	return true;
}

static bool t_l3(void)
{
	static const struct {
		u8 a, b, c, d;
		bool mcast, bcast;
	} dst[] = {
		{ 224, 0, 0, 1, true, false },
		{ 239, 255, 255, 250, true, false },
		{ 230, 1, 2, 3, true, false },
		{ 255, 255, 255, 255, false, true },
		{ 223, 255, 255, 255, false, false },
		{ 10, 0, 0, 255, false, false },	/* not known here */
		{ 240, 0, 0, 1, false, false },
	};
	struct tr_peek p;
	unsigned int i;
	u8 b[256];
	u32 n = udp_frame(b, false, 30);

	for (i = 0; i < ARRAY_SIZE(dst); i++) {
		__be32 d = ip4(dst[i].a, dst[i].b, dst[i].c, dst[i].d);

		memcpy(b + 30, &d, 4);
		CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
		CHECK(p.daddr == d);
		CHECK_EQ(p.l3_mcast, dst[i].mcast);
		CHECK_EQ(p.l3_bcast, dst[i].bcast);
		CHECK_EQ(tr_peek_droppable(&p),
			 !dst[i].mcast && !dst[i].bcast);
	}
	return true;
}

/* ---- DSR (protocol 48) ---------------------------------------------- */

/*
 * An IPv4 frame carrying a DSR Options header: the options given (with
 * their type/length bytes), then 8 bytes of UDP.  Returns the length.
 */
static u32 dsr_frame(u8 *b, const u8 *opts, u32 optlen, u32 *dsr_off)
{
	u32 o = put_eth(b, mac_us, false);

	o = put_ip(b, o, 20, TR_IPPROTO_DSR, SRC, DST, 77, 0,
		   4 + optlen + 8);
	*dsr_off = o;
	b[o] = TR_IPPROTO_UDP;
	b[o + 1] = 0;
	put16(b + o + 2, (u16)optlen);
	memcpy(b + o + 4, opts, optlen);
	memset(b + o + 4 + optlen, 0x11, 8);
	return o + 4 + optlen + 8;
}

/* a Source Route of two addresses, Segments Left 1 */
#define SRT2	96, 10, 0, 1, 10, 0, 0, 2, 10, 0, 0, 3

static bool dsr_srt(const u8 *opts, u32 optlen, u32 avail)
{
	struct tr_peek p;
	u8 b[256];
	u32 off, n = dsr_frame(b, opts, optlen, &off);

	if (peek(b, avail < n ? avail : n, n, &p) != TR_PEEK_OK)
		abort();
	if (p.protocol != TR_IPPROTO_DSR || p.has_ports)
		abort();
	if (tr_peek_droppable(&p) != p.dsr_srt)
		abort();
	return p.dsr_srt;
}

static bool t_dsr_source_route(void)
{
	static const u8 srt[] = { SRT2 };
	static const u8 padded[] = { 224, SRT2, 0, 1, 0, 224, 224 };
	static const u8 empty_route[] = { 96, 2, 0, 0, 0, 0 };
	u32 end = 34 + 4 + sizeof(srt), avail;

	CHECK(dsr_srt(srt, sizeof(srt), 128));
	CHECK(dsr_srt(padded, sizeof(padded), 128));
	CHECK(dsr_srt(empty_route, 4, 128));
	/* the options must be seen whole: every shorter read is control */
	for (avail = 0; avail < end; avail++)
		CHECK(avail < 34 || !dsr_srt(srt, sizeof(srt), avail));
	CHECK(dsr_srt(srt, sizeof(srt), end));
	/* the driver's default 34 bytes never sees DSR options */
	CHECK(!dsr_srt(srt, sizeof(srt), TR_PEEK_LEN_MIN));
	return true;
}

static bool t_dsr_control(void)
{
	static const u8 rreq[] = { 1, 6, 0, 1, 10, 0, 0, 9 };
	static const u8 rrep[] = { 2, 5, 0, 10, 0, 0, 9 };
	static const u8 rerr[] = { 3, 14, 1, 0, 10, 0, 0, 1, 10, 0, 0, 2,
				   10, 0, 0, 3 };
	static const u8 ack[] = { 32, 10, 0, 1, 10, 0, 0, 1, 10, 0, 0, 2 };
	static const u8 areq[] = { 160, 2, 0, 1 };
	static const u8 srt_rreq[] = { SRT2, 1, 6, 0, 1, 10, 0, 0, 9 };
	static const u8 srt_areq[] = { SRT2, 160, 2, 0, 1 };
	static const u8 areq_srt[] = { 160, 2, 0, 1, SRT2 };
	static const u8 srt_rerr[] = { SRT2, 3, 14, 1, 0, 10, 0, 0, 1, 10, 0,
				       0, 2, 10, 0, 0, 3 };
	static const u8 srt_ack[] = { 32, 10, 0, 1, 10, 0, 0, 1, 10, 0, 0, 2,
				      SRT2 };
	static const u8 srt_unknown[] = { SRT2, 0x25, 0 };
	static const u8 two_srt[] = { SRT2, SRT2 };
	static const u8 pads[] = { 224, 0, 2, 0, 0 };
	static const u8 srt_odd[] = { 96, 9, 0, 1, 10, 0, 0, 2, 10, 0, 0 };
	static const u8 srt_segs[] = { 96, 10, 0, 3, 10, 0, 0, 2, 10, 0, 0,
				       3 };
	static const u8 srt_long[] = { 96, 14, 0, 1, 10, 0, 0, 2, 10, 0, 0,
				       3 };
	static const u8 srt_short[] = { 96, 1, 0 };
	static const u8 padn_long[] = { SRT2, 0, 9, 0 };
	static const struct {
		const char *what;
		const u8 *o;
		u32 len;
	} c[] = {
		{ "route request", rreq, sizeof(rreq) },
		{ "route reply", rrep, sizeof(rrep) },
		{ "route error", rerr, sizeof(rerr) },
		{ "acknowledgement", ack, sizeof(ack) },
		{ "ack request", areq, sizeof(areq) },
		{ "srt + rreq", srt_rreq, sizeof(srt_rreq) },
		{ "srt + ack request", srt_areq, sizeof(srt_areq) },
		{ "ack request + srt", areq_srt, sizeof(areq_srt) },
		{ "srt + rerr", srt_rerr, sizeof(srt_rerr) },
		{ "ack + srt", srt_ack, sizeof(srt_ack) },
		{ "srt + unknown", srt_unknown, sizeof(srt_unknown) },
		{ "two source routes", two_srt, sizeof(two_srt) },
		{ "only padding", pads, sizeof(pads) },
		{ "no options", pads, 0 },
		{ "srt of odd length", srt_odd, sizeof(srt_odd) },
		{ "segments left > addresses", srt_segs, sizeof(srt_segs) },
		{ "srt past the header", srt_long, sizeof(srt_long) },
		{ "srt too short", srt_short, sizeof(srt_short) },
		{ "padn past the header", padn_long, sizeof(padn_long) },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (dsr_srt(c[i].o, c[i].len, 128)) {
			ktap_diag("%s taken for a source route", c[i].what);
			return false;
		}
	}
	return true;
}

static bool t_dsr_header(void)
{
	static const u8 srt[] = { SRT2 };
	struct tr_peek p;
	u8 b[256];
	u32 off, n = dsr_frame(b, srt, sizeof(srt), &off);

	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.dsr_srt);
	/* the F bit: a flow state header */
	b[off + 1] = 0x80;
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.dsr_srt && !tr_peek_droppable(&p));
	b[off + 1] = 0;
	/* Payload Length past the datagram (the frame is longer) */
	put16(b + 16, (u16)(20 + 4 + sizeof(srt) - 1));
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.dsr_srt);
	put16(b + 16, (u16)(20 + 4 + sizeof(srt)));	/* exactly */
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.dsr_srt);
	put16(b + 16, (u16)(n - 14));
	/* Payload Length past the frame */
	put16(b + off + 2, (u16)(sizeof(srt) + 9));
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.dsr_srt);
	put16(b + off + 2, sizeof(srt));
	/* a later fragment: the DSR header is in the first one */
	put16(b + 20, 10);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(!p.dsr_srt && !tr_peek_droppable(&p));
	/* the first fragment is judged as any packet */
	put16(b + 20, TR_IP_MF);
	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(p.dsr_srt && tr_peek_droppable(&p));
	return true;
}

/* ---- odds and ends --------------------------------------------------- */

/* More bytes said read than the frame has: only the frame's are read. */
static bool t_avail_past_frame(void)
{
	struct tr_peek p;
	u8 b[256], *c;
	u32 n = udp_frame(b, false, 4);

	c = malloc(n);
	CHECK(c);
	memcpy(c, b, n);
	CHECK_EQ(tr_peek(c, 1000, n, &p), TR_PEEK_OK);
	free(c);
	CHECK(p.has_ports);
	CHECK_EQ(peek(b, 20, 10, &p), TR_PEEK_TOO_SHORT);
	return true;
}

static bool t_reason_str(void)
{
	unsigned int i, j;

	for (i = 0; i < __TR_PEEK_MAX; i++) {
		const char *s = tr_peek_reason_str((enum tr_peek_reason)i);

		CHECK(s && strcmp(s, "?"));
		for (j = 0; j < i; j++)
			CHECK(strcmp(s, tr_peek_reason_str(
					(enum tr_peek_reason)j)));
	}
	CHECK(!strcmp(tr_peek_reason_str(__TR_PEEK_MAX), "?"));
	return true;
}

/* tr_peek_droppable() does not trust the flags alone */
static bool t_droppable_defence(void)
{
	struct tr_peek p;
	u8 b[256];
	u32 n = udp_frame(b, false, 4);

	CHECK_EQ(peek(b, n, n, &p), TR_PEEK_OK);
	CHECK(tr_peek_droppable(&p));
	p.daddr = ip4(224, 0, 0, 251);
	CHECK(!tr_peek_droppable(&p));
	p.daddr = ip4(255, 255, 255, 255);
	CHECK(!tr_peek_droppable(&p));
	p.daddr = DST;
	p.reason = TR_PEEK_BAD_IHL;
	CHECK(!tr_peek_droppable(&p));
	p.reason = TR_PEEK_OK;
	p.ipv4 = false;
	CHECK(!tr_peek_droppable(&p));
	p.ipv4 = true;
	p.l2_bcast = true;
	CHECK(!tr_peek_droppable(&p));
	p.l2_bcast = false;
	p.protocol = TR_IPPROTO_DSR;
	CHECK(!tr_peek_droppable(&p));
	p.dsr_srt = true;
	CHECK(tr_peek_droppable(&p));
	return true;
}

static unsigned int rnd_state = 1;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return rnd_state >> 8;
}

/* Random bytes, mostly shaped as IPv4 so that the later checks run. */
static u32 random_frame(u8 *b, unsigned int i)
{
	static const u8 vihl[] = { 0x45, 0x45, 0x45, 0x46, 0x4f, 0x44, 0x65 };
	u32 n = rnd() % 160, k, ip = 14;

	for (k = 0; k < n; k++)
		b[k] = (u8)rnd();
	if (n < 14 || !(i % 4))
		return n;
	if (i % 8 == 1 && n >= 18) {
		put16(b + 12, TR_ETH_P_8021Q);
		put16(b + 16, TR_ETH_P_IP);
		ip = 18;
	} else {
		put16(b + 12, TR_ETH_P_IP);
	}
	if (n < ip + 20)
		return n;
	b[ip] = vihl[rnd() % ARRAY_SIZE(vihl)];
	if (i % 3)			/* a length that fits, mostly */
		put16(b + ip + 2, (u16)(n - ip - rnd() % 8));
	if (i % 5)
		b[ip + 6] &= 0x20;	/* mostly a first fragment */
	if (i % 7 == 2)
		b[ip + 9] = TR_IPPROTO_DSR;
	return n;
}

/* Random frames and lengths: the reason is in range, fields agree. */
static bool t_random(void)
{
	unsigned int i, ok = 0;
	struct tr_peek p;
	u8 b[256];

	for (i = 0; i < 200000; i++) {
		u32 n = random_frame(b, i), avail = rnd() % (n + 1);
		enum tr_peek_reason r;

		if (i % 2)
			avail = n;
		r = peek(b, avail, n, &p);
		CHECK(r < __TR_PEEK_MAX);
		if (r != TR_PEEK_OK) {
			CHECK(!tr_peek_droppable(&p));
			continue;
		}
		ok++;
		CHECK(p.ipv4 && p.ihl >= 20 && p.tot_len >= p.ihl);
		CHECK(p.ip_off + p.tot_len <= n);
		CHECK(!p.has_ports || (p.frag_off == 0 &&
				       p.ip_off + p.ihl + 4u <= avail));
		CHECK(!p.dsr_srt || p.protocol == TR_IPPROTO_DSR);
	}
	ktap_diag("%u of %u random frames parsed", ok, i);
	CHECK(ok > 10000);
	return true;
}

static const struct ktap_case cases[] = {
	{ "UDP frame: every field", t_udp },
	{ "every prefix of a frame: right reason, never past it", t_prefixes },
	{ "every frame cut short: frame truncated", t_cut_frames },
	{ "one 802.1Q tag, every prefix", t_vlan },
	{ "other ethertypes and a second tag: not IPv4", t_not_ipv4 },
	{ "IP version not 4", t_bad_version },
	{ "IHL below 5", t_bad_ihl },
	{ "total length below the header", t_bad_tot_len },
	{ "total length past the frame; padding is fine", t_frame_trunc },
	{ "fragment past 65535 bytes", t_bad_frag },
	{ "IP options: ports only when read", t_ip_options },
	{ "fragments: ports only in the first", t_fragments },
	{ "L2 broadcast and multicast: never droppable", t_l2 },
	{ "L3 broadcast and multicast: never droppable", t_l3 },
	{ "DSR: a bare source route, seen whole", t_dsr_source_route },
	{ "DSR: every other option set is control", t_dsr_control },
	{ "DSR: F bit, lengths, fragments", t_dsr_header },
	{ "more bytes said read than the frame has", t_avail_past_frame },
	{ "a distinct name per reason", t_reason_str },
	{ "droppable checks the addresses again", t_droppable_defence },
	{ "random frames: reasons in range, fields agree", t_random },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
