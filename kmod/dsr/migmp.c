// SPDX-License-Identifier: GPL-2.0
/* The IGMP reports of dsr0's own stack, read as joins (migmp.h). */
#include "migmp.h"

/* IGMPv3 group record types (RFC 3376 section 4.2.12) */
enum {
	MIGMP_IS_IN = 1,
	MIGMP_IS_EX,
	MIGMP_TO_IN,
	MIGMP_TO_EX,
	MIGMP_ALLOW,
	MIGMP_BLOCK,
};

enum dsr_migmp_res dsr_migmp_check(const u8 *msg, size_t len, unsigned int *n)
{
	size_t off = DSR_MIGMP_V3_HDR;
	unsigned int i, nrec;

	if (len < 1)
		return DSR_MIGMP_SHORT;
	switch (msg[0]) {
	case DSR_MIGMP_V1_REPORT:
	case DSR_MIGMP_V2_REPORT:
	case DSR_MIGMP_V2_LEAVE:
		if (len < DSR_MIGMP_V2_LEN)
			return DSR_MIGMP_SHORT;
		*n = 1;
		return DSR_MIGMP_OK;
	case DSR_MIGMP_V3_REPORT:
		break;
	default:
		return DSR_MIGMP_TYPE;
	}
	if (len < DSR_MIGMP_V3_HDR)
		return DSR_MIGMP_SHORT;
	nrec = ah_get16(msg + 6);
	for (i = 0; i < nrec; i++) {
		size_t body;

		if (len - off < DSR_MIGMP_REC_HDR)
			return DSR_MIGMP_TRUNCATED;
		/* sources of 4 bytes, then aux data of 4-byte words */
		body = 4 * (size_t)ah_get16(msg + off + 2) + 4 * (size_t)msg[off + 1];
		off += DSR_MIGMP_REC_HDR;
		if (len - off < body)
			return DSR_MIGMP_TRUNCATED;
		off += body;
	}
	*n = nrec;
	return DSR_MIGMP_OK;
}

void dsr_migmp_next(const u8 *msg, size_t len, size_t *off,
		    struct dsr_migmp_rec *r)
{
	size_t o = *off;

	memset(r, 0, sizeof(*r));
	if (msg[0] != DSR_MIGMP_V3_REPORT) {
		r->group = ah_get_addr(msg + 4);
		r->op = msg[0] == DSR_MIGMP_V2_LEAVE ? DSR_MIGMP_ANY_LEAVE :
						       DSR_MIGMP_ANY;
		*off = len;
		return;
	}
	if (!o)
		o = DSR_MIGMP_V3_HDR;
	r->nsrc = ah_get16(msg + o + 2);
	r->group = ah_get_addr(msg + o + 4);
	r->src = msg + o + DSR_MIGMP_REC_HDR;
	switch (msg[o]) {
	case MIGMP_IS_IN:
	case MIGMP_ALLOW:
		r->op = DSR_MIGMP_JOIN;
		break;
	case MIGMP_BLOCK:
		r->op = DSR_MIGMP_LEAVE;
		break;
	case MIGMP_TO_IN:
		r->op = DSR_MIGMP_ONLY;
		break;
	case MIGMP_IS_EX:
	case MIGMP_TO_EX:
		r->op = DSR_MIGMP_ANY;
		break;
	default:
		r->op = DSR_MIGMP_IGNORE;
		break;
	}
	*off = o + DSR_MIGMP_REC_HDR + 4 * (size_t)r->nsrc + 4 * (size_t)msg[o + 1];
}
