// SPDX-License-Identifier: GPL-2.0
/*
 * Parse the first bytes of a received frame; see peek.h.  Every read is
 * checked against the bytes given: a driver calls this with only a
 * prefix of the frame, and the rest is still on the card.
 */
#include "peek.h"

static const char * const tr_peek_reasons[__TR_PEEK_MAX] = {
	[TR_PEEK_OK]		= "ok",
	[TR_PEEK_TOO_SHORT]	= "too_short",
	[TR_PEEK_VLAN_TRUNC]	= "vlan_truncated",
	[TR_PEEK_NOT_IPV4]	= "not_ipv4",
	[TR_PEEK_IP_TRUNC]	= "ip_truncated",
	[TR_PEEK_BAD_VERSION]	= "bad_version",
	[TR_PEEK_BAD_IHL]	= "bad_ihl",
	[TR_PEEK_BAD_TOT_LEN]	= "bad_tot_len",
	[TR_PEEK_FRAME_TRUNC]	= "frame_truncated",
	[TR_PEEK_BAD_FRAG]	= "bad_fragment",
};

const char *tr_peek_reason_str(enum tr_peek_reason r)
{
	return (unsigned int)r < __TR_PEEK_MAX ? tr_peek_reasons[r] : "?";
}

static void tr_peek_l2(const u8 *d, struct tr_peek *p)
{
	static const u8 bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	p->l2_mcast = d[0] & 1;
	p->l2_bcast = !memcmp(d, bcast, sizeof(bcast));
}

/*
 * Whether the DSR Options header at off holds a Source Route and nothing
 * but padding besides.  It must lie whole inside both the bytes read and
 * the datagram; anything odd is left to the DSR module, which counts it.
 */
static bool tr_dsr_srt_only(const u8 *d, u32 off, u32 avail, u32 dgram_end)
{
	u32 end, o;
	bool srt = false;

	if (off + TR_DSR_HLEN > avail || off + TR_DSR_HLEN > dgram_end)
		return false;
	if (d[off + 1] & TR_DSR_F)
		return false;
	end = off + TR_DSR_HLEN + ah_get16(d + off + 2);
	if (end > avail || end > dgram_end)
		return false;
	for (o = off + TR_DSR_HLEN; o < end; ) {
		u8 type = d[o], len;

		if (type == TR_DSR_OPT_PAD1) {
			o++;
			continue;
		}
		if (o + 2 > end)
			return false;
		len = d[o + 1];
		if (o + 2 + len > end)
			return false;
		if (type == TR_DSR_OPT_SRT) {
			/* once, 2 + 4n bytes, Segments Left <= n */
			if (srt || len < 2 || (len - 2) % 4 ||
			    (d[o + 3] & 0x3f) > (len - 2) / 4)
				return false;
			srt = true;
		} else if (type != TR_DSR_OPT_PADN) {
			return false;
		}
		o += 2 + len;
	}
	return srt;
}

/* Ports, DSR: what follows the IPv4 header, when it was read. */
static void tr_peek_l4(const u8 *d, u32 avail, struct tr_peek *p)
{
	u32 l4 = p->ip_off + p->ihl;

	p->l4_seen = l4 <= avail;
	if (!p->l4_seen || !tr_peek_first_frag(p))
		return;
	switch (p->protocol) {
	case TR_IPPROTO_TCP:
	case TR_IPPROTO_UDP:
		if (l4 + 4 > avail || p->ihl + 4u > p->tot_len)
			break;
		p->sport = ah_get16(d + l4);
		p->dport = ah_get16(d + l4 + 2);
		p->has_ports = true;
		break;
	case TR_IPPROTO_DSR:
		p->dsr_srt = tr_dsr_srt_only(d, l4, avail,
					     p->ip_off + p->tot_len);
		break;
	}
}

/* The Ethernet header and an optional tag; sets ip_off. */
static enum tr_peek_reason tr_peek_eth(const u8 *d, u32 avail,
				       struct tr_peek *p)
{
	u16 proto;

	if (avail < TR_ETH_HLEN)
		return TR_PEEK_TOO_SHORT;
	tr_peek_l2(d, p);
	proto = ah_get16(d + 12);
	p->ip_off = TR_ETH_HLEN;
	if (proto == TR_ETH_P_8021Q) {
		if (avail < TR_ETH_HLEN + TR_VLAN_HLEN)
			return TR_PEEK_VLAN_TRUNC;
		p->vlan = true;
		proto = ah_get16(d + 16);
		p->ip_off += TR_VLAN_HLEN;
	}
	if (proto != TR_ETH_P_IP)
		return TR_PEEK_NOT_IPV4;
	p->ipv4 = true;
	return TR_PEEK_OK;
}

/* The fixed IPv4 header, whose 20 bytes are known to have been read. */
static enum tr_peek_reason tr_peek_ip(const u8 *d, u32 frame_len,
				      struct tr_peek *p)
{
	const u8 *ip = d + p->ip_off;
	u16 frag = ah_get16(ip + 6);

	if (ip[0] >> 4 != 4)
		return TR_PEEK_BAD_VERSION;
	p->ihl = (ip[0] & 0xf) * 4;
	if (p->ihl < TR_IP_HLEN)
		return TR_PEEK_BAD_IHL;
	p->tot_len = ah_get16(ip + 2);
	p->id = ah_get16(ip + 4);
	p->frag_off = frag & TR_IP_OFFMASK;
	p->mf = frag & TR_IP_MF;
	p->protocol = ip[9];
	p->saddr = ah_get_addr(ip + 12);
	p->daddr = ah_get_addr(ip + 16);
	p->l3_mcast = ah_addr_multicast(p->daddr);
	p->l3_bcast = ah_addr_broadcast(p->daddr);
	if (p->tot_len < p->ihl)
		return TR_PEEK_BAD_TOT_LEN;
	/* Ethernet may pad a short datagram; it may not cut one */
	if (p->ip_off + (u32)p->tot_len > frame_len)
		return TR_PEEK_FRAME_TRUNC;
	/* the kernel drops these when reassembling (ping of death) */
	if (p->frag_off * 8u + p->tot_len - p->ihl > 0xffff)
		return TR_PEEK_BAD_FRAG;
	return TR_PEEK_OK;
}

static enum tr_peek_reason tr_peek_parse(const u8 *d, u32 avail,
					 u32 frame_len, struct tr_peek *p)
{
	enum tr_peek_reason r;

	/* more bytes than the frame has: only the frame's count */
	if (avail > frame_len)
		avail = frame_len;
	r = tr_peek_eth(d, avail, p);
	if (r != TR_PEEK_OK)
		return r;
	if (avail < p->ip_off + (u32)TR_IP_HLEN)
		return TR_PEEK_IP_TRUNC;
	r = tr_peek_ip(d, frame_len, p);
	if (r != TR_PEEK_OK)
		return r;
	tr_peek_l4(d, avail, p);
	return TR_PEEK_OK;
}

enum tr_peek_reason tr_peek(const u8 *data, u32 avail, u32 frame_len,
			    struct tr_peek *p)
{
	memset(p, 0, sizeof(*p));
	p->reason = tr_peek_parse(data, avail, frame_len, p);
	return p->reason;
}

bool tr_peek_droppable(const struct tr_peek *p)
{
	if (p->reason != TR_PEEK_OK || !p->ipv4 || p->l2_mcast ||
	    p->l2_bcast || p->l3_mcast || p->l3_bcast)
		return false;
	/* the addresses again: the flags might not have come from tr_peek */
	if (ah_addr_multicast(p->daddr) || ah_addr_broadcast(p->daddr))
		return false;
	return p->protocol != TR_IPPROTO_DSR || p->dsr_srt;
}
