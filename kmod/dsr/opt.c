// SPDX-License-Identifier: GPL-2.0
/*
 * DSR Options header parsing and building (RFC 4728 sections 6 and 8.1).
 *
 * dsr_parse() reads nothing outside [hdr, hdr + avail) and accepts a header
 * only if every option it knows has a length its format allows, so that
 * the accessors in opt.h need no further checks.  It never writes: the
 * rewriting the RFC asks for unknown options is dsr_rewrite_unknown(), done
 * only on a packet being forwarded.
 */
#include "opt.h"

static enum dsr_bad dsr_check_known(const u8 *o, u8 len)
{
	switch (o[0]) {
	case DSR_OPT_RREQ:
		return len >= 6 && (len - 6) % 4 == 0 ? DSR_OK : DSR_BAD_OPT_SIZE;
	case DSR_OPT_RREP:
		return len >= 5 && (len - 1) % 4 == 0 ? DSR_OK : DSR_BAD_OPT_SIZE;
	case DSR_OPT_RERR:
		if (len < 10)
			return DSR_BAD_OPT_SIZE;
		if (o[2] == DSR_RERR_NODE_UNREACHABLE && len < 14)
			return DSR_BAD_OPT_SIZE;
		if (o[2] == DSR_RERR_OPTION_NOT_SUPPORTED && len < 11)
			return DSR_BAD_OPT_SIZE;
		return DSR_OK;
	case DSR_OPT_AREQ:
		return len == 2 ? DSR_OK : DSR_BAD_OPT_SIZE;
	case DSR_OPT_ACK:
		return len == 10 ? DSR_OK : DSR_BAD_OPT_SIZE;
	case DSR_OPT_SRT:
		if (len < 2 || (len - 2) % 4)
			return DSR_BAD_OPT_SIZE;
		if (DSR_SRT_SEGS(ah_get16(o + 2)) > (len - 2) / 4)
			return DSR_BAD_SEGS_LEFT;
		return DSR_OK;
	}
	return DSR_OK;
}

static enum dsr_bad dsr_note_once(u16 *slot, u16 off)
{
	if (*slot)
		return DSR_BAD_OPT_REPEAT;
	*slot = off;
	return DSR_OK;
}

static enum dsr_bad dsr_note_repeat(u16 *arr, u8 *n, unsigned int max,
				    u16 off)
{
	if (*n >= max)
		return DSR_BAD_OPT_REPEAT;
	arr[(*n)++] = off;
	return DSR_OK;
}

static enum dsr_bad dsr_note_unknown(struct dsr_parsed *p, u8 type, u16 off)
{
	if (DSR_UNK_REPORT(type) && !p->report) {
		p->report = true;
		p->report_type = type;
	}
	switch (DSR_UNK_ACTION(type)) {
	case DSR_UNK_DROP:
		return DSR_BAD_UNKNOWN_DROP;
	case DSR_UNK_REMOVE:
	case DSR_UNK_MARK:
		return dsr_note_repeat(p->unknown, &p->n_unknown,
				       DSR_MAX_UNKNOWN, off);
	}
	if (p->n_ignored < 255)
		p->n_ignored++;
	return DSR_OK;
}

static enum dsr_bad dsr_note(struct dsr_parsed *p, u8 type, u16 off)
{
	switch (type) {
	case DSR_OPT_PADN:
		return DSR_OK;
	case DSR_OPT_RREQ:
		return dsr_note_once(&p->rreq, off);
	case DSR_OPT_AREQ:
		return dsr_note_once(&p->areq, off);
	case DSR_OPT_SRT:
		return dsr_note_once(&p->srt, off);
	case DSR_OPT_RREP:
		return dsr_note_repeat(p->rrep, &p->n_rrep, DSR_MAX_REPEAT, off);
	case DSR_OPT_RERR:
		return dsr_note_repeat(p->rerr, &p->n_rerr, DSR_MAX_REPEAT, off);
	case DSR_OPT_ACK:
		return dsr_note_repeat(p->ack, &p->n_ack, DSR_MAX_REPEAT, off);
	}
	return dsr_note_unknown(p, type, off);
}

enum dsr_bad dsr_parse(const u8 *hdr, size_t avail, struct dsr_parsed *p)
{
	enum dsr_bad bad;
	size_t off, end;
	u8 len;

	memset(p, 0, sizeof(*p));
	if (avail < DSR_HDR_LEN)
		return DSR_BAD_TRUNCATED;
	if (hdr[1] & 0x80)
		return DSR_BAD_FLOW_STATE;
	end = DSR_HDR_LEN + (size_t)ah_get16(hdr + 2);
	/*
	 * p->len and the option offsets are u16: a header ending past 64 KiB
	 * (which no IPv4 packet can carry) would wrap them.
	 */
	if (end > avail || end > 0xffff)
		return DSR_BAD_PAYLOAD_LEN;
	p->next_header = hdr[0];
	p->len = (u16)end;

	off = DSR_HDR_LEN;
	while (off < end) {
		if (hdr[off] == DSR_OPT_PAD1) {
			off++;
			continue;
		}
		p->bad_off = (u16)off;
		if (off + 2 > end)
			return DSR_BAD_OPT_LEN;
		len = hdr[off + 1];
		if (off + 2 + len > end)
			return DSR_BAD_OPT_LEN;
		bad = dsr_check_known(hdr + off, len);
		if (bad == DSR_OK)
			bad = dsr_note(p, hdr[off], (u16)off);
		if (bad != DSR_OK)
			return bad;
		off += 2 + len;
	}
	p->bad_off = 0;
	return DSR_OK;
}

void dsr_rewrite_unknown(u8 *hdr, const struct dsr_parsed *p)
{
	unsigned int i;

	for (i = 0; i < p->n_unknown; i++) {
		u8 *o = hdr + p->unknown[i];

		if (DSR_UNK_ACTION(o[0]) == DSR_UNK_REMOVE) {
			/* PadN of the same length: as if it were not there */
			o[0] = DSR_OPT_PADN;
			memset(o + 2, 0, o[1]);
		} else if (o[1]) {
			o[2] |= 0x80;
		}
	}
}

__be32 dsr_srt_node(const u8 *hdr, u16 off, __be32 src, __be32 dst,
		    unsigned int index)
{
	unsigned int n = dsr_srt_naddr(hdr, off);

	if (index == 0)
		return src;
	if (index > n)
		return dst;
	return dsr_srt_addr(hdr, off, index - 1);
}

size_t dsr_put_hdr(u8 *b, u8 next_header)
{
	b[0] = next_header;
	b[1] = 0;
	ah_put16(b + 2, 0);
	return DSR_HDR_LEN;
}

static size_t dsr_put_addrs(u8 *b, const __be32 *a, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ah_put_addr(b + 4 * i, a[i]);
	return 4 * n;
}

size_t dsr_put_rreq(u8 *b, u16 id, __be32 target, const __be32 *a,
		    unsigned int n)
{
	b[0] = DSR_OPT_RREQ;
	b[1] = 6 + 4 * n;
	ah_put16(b + 2, id);
	ah_put_addr(b + 4, target);
	return 8 + dsr_put_addrs(b + 8, a, n);
}

size_t dsr_put_rrep(u8 *b, bool last_external, const __be32 *a,
		    unsigned int n)
{
	b[0] = DSR_OPT_RREP;
	b[1] = 1 + 4 * n;
	b[2] = last_external ? DSR_RREP_L : 0;
	return 3 + dsr_put_addrs(b + 3, a, n);
}

size_t dsr_put_rerr(u8 *b, u8 salvage, __be32 src, __be32 dst,
		    __be32 unreachable)
{
	b[0] = DSR_OPT_RERR;
	b[1] = 14;
	b[2] = DSR_RERR_NODE_UNREACHABLE;
	b[3] = salvage & 0xf;
	ah_put_addr(b + 4, src);
	ah_put_addr(b + 8, dst);
	ah_put_addr(b + 12, unreachable);
	return DSR_RERR_SIZE;
}

size_t dsr_put_areq(u8 *b, u16 id)
{
	b[0] = DSR_OPT_AREQ;
	b[1] = 2;
	ah_put16(b + 2, id);
	return DSR_AREQ_SIZE;
}

size_t dsr_put_ack(u8 *b, u16 id, __be32 src, __be32 dst)
{
	b[0] = DSR_OPT_ACK;
	b[1] = 10;
	ah_put16(b + 2, id);
	ah_put_addr(b + 4, src);
	ah_put_addr(b + 8, dst);
	return DSR_ACK_SIZE;
}

size_t dsr_put_srt(u8 *b, u8 salvage, unsigned int segs, const __be32 *a,
		   unsigned int n)
{
	b[0] = DSR_OPT_SRT;
	b[1] = 2 + 4 * n;
	ah_put16(b + 2, (u16)((salvage & 0xf) << 6 | (segs & 0x3f)));
	return 4 + dsr_put_addrs(b + 4, a, n);
}

size_t dsr_finish(u8 *hdr, size_t len)
{
	size_t pad = (4 - len % 4) % 4;

	if (pad == 1) {
		hdr[len] = DSR_OPT_PAD1;
	} else if (pad > 1) {
		hdr[len] = DSR_OPT_PADN;
		hdr[len + 1] = (u8)(pad - 2);
		memset(hdr + len + 2, 0, pad - 2);
	}
	len += pad;
	ah_put16(hdr + 2, (u16)(len - DSR_HDR_LEN));
	return len;
}

bool dsr_route_ok(const __be32 *a, unsigned int n, __be32 self,
		  unsigned int max)
{
	unsigned int i, j;

	if (n > max)
		return false;
	for (i = 0; i < n; i++) {
		if (!ah_addr_routable(a[i]) || (self && a[i] == self))
			return false;
		for (j = 0; j < i; j++)
			if (a[j] == a[i])
				return false;
	}
	return true;
}

/*
 * Section 8.3.4: the Route Error and Acknowledgment options of hdr (p)
 * that a new Route Error (its Salvage: salvage) carries after itself: in
 * their order, each Route Error only while the total salvage count (6.4:
 * one plus Salvage, summed over the Route Errors up to it) stays within
 * max_salvage, and nothing after one that is left out (nor after one that
 * finds no room in the room bytes at b).  Returns the bytes copied to b.
 */
size_t dsr_rerr_carry(u8 *b, size_t room, const u8 *hdr,
		      const struct dsr_parsed *p, u8 salvage, u8 max_salvage)
{
	unsigned int i = 0, j = 0, total = 1 + (salvage & 0xf);
	size_t len = 0;

	while (i < p->n_rerr || j < p->n_ack) {
		bool rerr = j >= p->n_ack ||
			    (i < p->n_rerr && p->rerr[i] < p->ack[j]);
		u16 off = rerr ? p->rerr[i++] : p->ack[j++];
		size_t olen = 2 + dsr_opt_len(hdr, off);

		if (rerr) {
			total += 1 + (hdr[off + 3] & 0xf);
			if (total > max_salvage)
				break;
		}
		if (len + olen > room)
			break;
		memcpy(b + len, hdr + off, olen);
		len += olen;
	}
	return len;
}

/*
 * Section 8.3.5: when the option after the Route Error at off is a Route
 * Error or an Acknowledgment that self originated, the run of Route Error
 * and Acknowledgment options from there on is to be sent again, to that
 * option's Error or Acknowledgment Destination (*dst).  Returns the run's
 * length (0: nothing to send again) and its offset in *start.
 */
size_t dsr_rerr_returned(const u8 *hdr, const struct dsr_parsed *p, u16 off,
			 __be32 self, __be32 *dst, u16 *start)
{
	u16 first = off + 2 + dsr_opt_len(hdr, off), o = first;

	if (first + 2 > p->len ||
	    (hdr[first] != DSR_OPT_RERR && hdr[first] != DSR_OPT_ACK) ||
	    ah_get_addr(hdr + first + 4) != self)
		return 0;
	/* (dsr_parse() checked every known option's length against p->len) */
	while (o + 2 <= p->len &&
	       (hdr[o] == DSR_OPT_RERR || hdr[o] == DSR_OPT_ACK))
		o += 2 + dsr_opt_len(hdr, o);
	*dst = ah_get_addr(hdr + first + 8);
	*start = first;
	return o - first;
}
