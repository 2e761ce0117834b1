/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The first bytes of a received Ethernet frame, as a driver that pays
 * programmed I/O per byte has read them so far (seed 000 section 4): just
 * enough to tell a transit IPv4 flow, whose frames may be dropped before
 * the rest is read, from anything that must reach the kernel whole.  No
 * kernel dependencies: also built into tests/unit.
 *
 * tr_peek() never reads past the bytes it is given and never writes to
 * the frame.  A frame it does not fully understand gets a reason other
 * than TR_PEEK_OK, and tr_peek_droppable() is false for it: when unsure,
 * the frame is read whole and the kernel decides.
 *
 * Layout accepted: an Ethernet II header, optionally one 802.1Q tag
 * (ethertype 0x8100; PIO Wi-Fi hardware has no VLAN offload, so a tag is
 * in the frame), then IPv4.  A second tag (QinQ, 0x88a8 or 0x8100 again)
 * is "not IPv4": rare enough on a radio that it is not worth the bytes.
 * The VLAN id is not part of a flow's identity.
 */
#ifndef _TR_PEEK_H
#define _TR_PEEK_H

#include "ah_proto_env.h"

#define TR_ETH_HLEN		14
#define TR_VLAN_HLEN		4
#define TR_IP_HLEN		20
#define TR_ETH_P_IP		0x0800
#define TR_ETH_P_8021Q		0x8100
#define TR_ETH_P_8021AD		0x88a8

#define TR_IPPROTO_TCP		6
#define TR_IPPROTO_UDP		17
#define TR_IPPROTO_DSR		48	/* RFC 4728 */

#define TR_IP_MF		0x2000
#define TR_IP_OFFMASK		0x1fff

/* DSR option types (IANA; the same as kmod/dsr/opt.h) */
#define TR_DSR_OPT_PADN		0
#define TR_DSR_OPT_SRT		96
#define TR_DSR_OPT_PAD1		224
#define TR_DSR_HLEN		4	/* fixed part of the options header */
#define TR_DSR_F		0x80	/* flow state header bit */

/* Bytes a driver reads before deciding: Ethernet + IPv4, + ports. */
#define TR_PEEK_LEN_MIN		34
#define TR_PEEK_LEN_PORTS	38
#define TR_PEEK_LEN_MAX		128

/* Why a frame is not a plain IPv4 frame that was fully understood. */
enum tr_peek_reason {
	TR_PEEK_OK,
	TR_PEEK_TOO_SHORT,	/* less than an Ethernet header read */
	TR_PEEK_VLAN_TRUNC,	/* 802.1Q tag, inner ethertype not read */
	TR_PEEK_NOT_IPV4,	/* another ethertype, or a second tag */
	TR_PEEK_IP_TRUNC,	/* less than 20 bytes of IPv4 header read */
	TR_PEEK_BAD_VERSION,	/* ethertype IPv4, version not 4 */
	TR_PEEK_BAD_IHL,	/* header length below 20 bytes */
	TR_PEEK_BAD_TOT_LEN,	/* total length below the header length */
	TR_PEEK_FRAME_TRUNC,	/* the frame is shorter than total length */
	TR_PEEK_BAD_FRAG,	/* offset + payload past 65535 bytes */
	__TR_PEEK_MAX,
};

/*
 * Fields are valid as far as parsing got: everything with TR_PEEK_OK;
 * l2_* once the Ethernet header was read.  Numbers are host order except
 * the addresses, which are as on the wire.
 */
struct tr_peek {
	u8 reason;		/* enum tr_peek_reason */
	u8 protocol;
	u8 ihl;			/* IPv4 header length, bytes */
	u16 ip_off;		/* offset of the IPv4 header in the frame */
	u16 tot_len;
	u16 id;
	u16 frag_off;		/* in 8-byte units */
	u16 sport, dport;	/* with has_ports */
	__be32 saddr, daddr;
	bool ipv4;		/* the ethertype says IPv4 */
	bool vlan;		/* behind one 802.1Q tag */
	bool l2_mcast;		/* group bit of the destination MAC */
	bool l2_bcast;		/* ff:ff:ff:ff:ff:ff (l2_mcast too) */
	bool l3_mcast;		/* 224.0.0.0/4 */
	bool l3_bcast;		/* 255.255.255.255 */
	bool mf;		/* more fragments */
	bool l4_seen;		/* the whole IPv4 header was read */
	bool has_ports;		/* first fragment of TCP/UDP, ports read */
	bool dsr_srt;		/* protocol 48: only a Source Route + pads */
};

/* Parse avail bytes (of a frame of frame_len bytes) into p. */
enum tr_peek_reason tr_peek(const u8 *data, u32 avail, u32 frame_len,
			    struct tr_peek *p);

/*
 * Whether the engine may ever drop this frame early: a unicast IPv4
 * frame, fully understood, to a unicast address, and not DSR control
 * (anything under protocol 48 but a bare Source Route seen whole).  The
 * caller still has to exclude frames for this host.
 */
bool tr_peek_droppable(const struct tr_peek *p);

/* First fragment (or not fragmented): it carries the transport header. */
static inline bool tr_peek_first_frag(const struct tr_peek *p)
{
	return p->frag_off == 0;
}

static inline bool tr_peek_fragment(const struct tr_peek *p)
{
	return p->frag_off || p->mf;
}

const char *tr_peek_reason_str(enum tr_peek_reason r);

#endif /* _TR_PEEK_H */
