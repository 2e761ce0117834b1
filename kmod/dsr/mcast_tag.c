// SPDX-License-Identifier: GPL-2.0
/*
 * The layer tag of a multicast video packet (mcast_tag.h).
 */
#include "mcast_tag.h"

#define RTP_FIXED	12	/* V P X CC M PT seq, timestamp, SSRC */
#define RTP_VERSION	2
#define RTP_X		0x10
#define RTP_CC		0x0f
#define EXT_ONE_BYTE	0xbede	/* RFC 8285 4.2 */
#define EXT_TWO_BYTE	0x1000	/* RFC 8285 4.3: 0x100 and 4 app bits */
#define EXT_TWO_MASK	0xfff0
#define EXT_ONE_STOP	15	/* one-byte form: ends the walk */

static const char * const dsr_mtag_names[__DSR_MTAG_RES_MAX] = {
	[DSR_MTAG_OK]		= "ok",
	[DSR_MTAG_ABOVE]	= "above",
	[DSR_MTAG_TRUNCATED]	= "truncated",
	[DSR_MTAG_VERSION]	= "version",
	[DSR_MTAG_CSRC]		= "csrc",
	[DSR_MTAG_EXT_LEN]	= "ext_len",
	[DSR_MTAG_ELEM]		= "elem",
	[DSR_MTAG_TID]		= "tid",
	[DSR_MTAG_CFG]		= "cfg",
};

const char *dsr_mtag_res_name(enum dsr_mtag_res r)
{
	return (unsigned int)r < __DSR_MTAG_RES_MAX ? dsr_mtag_names[r] : "?";
}

bool dsr_mtag_cfg_ok(const struct dsr_mtag_cfg *cfg)
{
	if (!cfg->layers || cfg->layers > DSR_MTAG_MAX_LAYERS)
		return false;
	switch (cfg->mode) {
	case DSR_MTAG_BYTE:
		return true;
	case DSR_MTAG_RTP:
		/* 0 is padding in both forms */
		return cfg->ext_id && cfg->tids <= DSR_MTAG_MAX_TIDS;
	}
	return false;
}

/*
 * The frame marking element's n data bytes d: RFC 9626's short form (one
 * byte) or long form (two; three with TL0PICIDX).
 */
static enum dsr_mtag_res dsr_mtag_fm(const struct dsr_mtag_cfg *cfg,
				     const u8 *d, unsigned int n,
				     unsigned int *layer)
{
	unsigned int tid, lid;

	if (n == 1) {
		*layer = 0;		/* not scalable */
		return DSR_MTAG_OK;
	}
	if (n != 2 && n != 3)
		return DSR_MTAG_ELEM;
	tid = d[0] & 0x07;		/* S E I D B TID */
	lid = d[1];
	if (!cfg->tids) {
		*layer = lid;
		return DSR_MTAG_OK;
	}
	if (tid >= cfg->tids)
		return DSR_MTAG_TID;
	*layer = lid * cfg->tids + tid;
	return DSR_MTAG_OK;
}

/*
 * The elements of an RFC 8285 block, p[i..end), end <= the packet's
 * length: the layer from the first element of id ext_id, or 0 if none.
 */
static enum dsr_mtag_res dsr_mtag_elems(const struct dsr_mtag_cfg *cfg,
					const u8 *p, size_t i, size_t end,
					bool two_byte, unsigned int *layer)
{
	unsigned int id, n;

	while (i < end) {
		id = two_byte ? p[i] : p[i] >> 4;
		if (!id) {		/* a padding byte */
			i++;
			continue;
		}
		if (two_byte) {
			if (end - i < 2)
				return DSR_MTAG_ELEM;
			n = p[i + 1];
			i += 2;
		} else {
			if (id == EXT_ONE_STOP)
				break;
			n = (p[i] & 0x0f) + 1;
			i++;
		}
		if (end - i < n)
			return DSR_MTAG_ELEM;
		if (id == cfg->ext_id)
			return dsr_mtag_fm(cfg, p + i, n, layer);
		i += n;
	}
	*layer = 0;			/* untagged: the base layer */
	return DSR_MTAG_OK;
}

static enum dsr_mtag_res dsr_mtag_rtp(const struct dsr_mtag_cfg *cfg,
				      const u8 *p, size_t len,
				      unsigned int *layer)
{
	size_t off, end;
	u16 profile;

	if (len < RTP_FIXED)
		return DSR_MTAG_TRUNCATED;
	if (p[0] >> 6 != RTP_VERSION)
		return DSR_MTAG_VERSION;
	off = RTP_FIXED + 4 * (size_t)(p[0] & RTP_CC);
	if (off > len)
		return DSR_MTAG_CSRC;
	if (!(p[0] & RTP_X)) {
		*layer = 0;
		return DSR_MTAG_OK;
	}
	if (len - off < 4)
		return DSR_MTAG_EXT_LEN;
	profile = ah_get16(p + off);
	end = off + 4 + 4 * (size_t)ah_get16(p + off + 2);
	if (end > len)
		return DSR_MTAG_EXT_LEN;
	if (profile == EXT_ONE_BYTE)
		return dsr_mtag_elems(cfg, p, off + 4, end, false, layer);
	if ((profile & EXT_TWO_MASK) == EXT_TWO_BYTE)
		return dsr_mtag_elems(cfg, p, off + 4, end, true, layer);
	*layer = 0;			/* another profile: untagged */
	return DSR_MTAG_OK;
}

enum dsr_mtag_res dsr_mtag_get(const struct dsr_mtag_cfg *cfg, const u8 *p,
			       size_t len, u8 *layer)
{
	enum dsr_mtag_res r;
	unsigned int l = 0;

	if (!dsr_mtag_cfg_ok(cfg))
		return DSR_MTAG_CFG;
	if (cfg->mode == DSR_MTAG_BYTE) {
		if (cfg->offset >= len)
			return DSR_MTAG_TRUNCATED;
		l = p[cfg->offset] & 0x7f;
	} else {
		r = dsr_mtag_rtp(cfg, p, len, &l);
		if (r != DSR_MTAG_OK)
			return r;
	}
	if (l >= cfg->layers)
		return DSR_MTAG_ABOVE;
	*layer = (u8)l;
	return DSR_MTAG_OK;
}
