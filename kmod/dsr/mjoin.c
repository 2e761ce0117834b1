// SPDX-License-Identifier: GPL-2.0
/* The join of a layered multicast tree: its wire form (mjoin.h). */
#include "mjoin.h"

void dsr_mjoin_put(u8 *buf, const struct dsr_mjoin *j)
{
	memset(buf, 0, DSR_MJ_LEN);
	buf[0] = DSR_MJ_V1;
	buf[1] = j->layers;
	buf[2] = j->tag.mode;
	buf[3] = j->tag.layers;
	ah_put_addr(buf + 4, j->source);
	ah_put_addr(buf + 8, j->group);
	ah_put16(buf + 12, j->tag.offset);
	buf[14] = j->tag.ext_id;
	buf[15] = j->tag.tids;
}

enum dsr_mj_res dsr_mjoin_get(const u8 *buf, size_t len, struct dsr_mjoin *j)
{
	struct dsr_mjoin v;

	if (len < DSR_MJ_LEN)
		return DSR_MJ_SHORT;
	if (buf[0] != DSR_MJ_V1)
		return DSR_MJ_BAD_VERSION;
	memset(&v, 0, sizeof(v));
	v.layers = buf[1];
	v.tag.mode = buf[2];
	v.tag.layers = buf[3];
	v.source = ah_get_addr(buf + 4);
	v.group = ah_get_addr(buf + 8);
	v.tag.offset = ah_get16(buf + 12);
	v.tag.ext_id = buf[14];
	v.tag.tids = buf[15];
	if (!dsr_mtag_cfg_ok(&v.tag))
		return DSR_MJ_TAG;
	*j = v;
	return DSR_MJ_OK;
}
