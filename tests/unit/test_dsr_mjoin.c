// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/mjoin.c: the join of a layered multicast tree
 * on the wire (mjoin.h).  Its layout byte by byte, a round trip of every
 * field, and each refusal; every prefix of a join is read from a buffer of
 * exactly its length, so that ASan sees any read past it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "ktap.h"
#include "mjoin.h"

static const struct dsr_mjoin rtp_join = {
	.source = 0, .group = 0, .layers = 7,
	.tag = { .mode = DSR_MTAG_RTP, .layers = 33, .offset = 0x1234,
		 .ext_id = 200, .tids = 3 },
};

static bool t_layout(void)
{
	static const u8 want[DSR_MJ_LEN] = {
		1, 7, DSR_MTAG_RTP, 33, 10, 0, 0, 1, 239, 1, 2, 3,
		0x12, 0x34, 200, 3, 0, 0, 0, 0,
	};
	struct dsr_mjoin j = rtp_join;
	u8 b[DSR_MJ_LEN];

	j.source = node(1);
	j.group = ip4(239, 1, 2, 3);
	memset(b, 0xee, sizeof(b));
	dsr_mjoin_put(b, &j);
	CHECK(!memcmp(b, want, sizeof(b)));
	return true;
}

static bool t_round_trip(void)
{
	struct dsr_mjoin j = rtp_join, k;
	u8 b[DSR_MJ_LEN + 8];

	j.source = node(9);
	j.group = ip4(232, 0, 0, 1);
	dsr_mjoin_put(b, &j);
	memset(&k, 0xaa, sizeof(k));
	CHECK_EQ(dsr_mjoin_get(b, DSR_MJ_LEN, &k), DSR_MJ_OK);
	CHECK_EQ(k.source, j.source);
	CHECK_EQ(k.group, j.group);
	CHECK_EQ(k.layers, 7);
	CHECK(!memcmp(&k.tag, &j.tag, sizeof(k.tag)));
	/* a leave; the byte mode; a longer payload (the rest ignored) */
	j.layers = 0;
	j.tag.mode = DSR_MTAG_BYTE;
	j.tag.ext_id = 0;
	dsr_mjoin_put(b, &j);
	memset(b + DSR_MJ_LEN, 0xff, 8);
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_OK);
	CHECK_EQ(k.layers, 0);
	CHECK_EQ(k.tag.mode, DSR_MTAG_BYTE);
	CHECK_EQ(k.tag.offset, 0x1234);
	return true;
}

static bool t_refused(void)
{
	struct dsr_mjoin j = rtp_join, k, before;
	u8 b[DSR_MJ_LEN];

	dsr_mjoin_put(b, &j);
	memset(&k, 0x5a, sizeof(k));
	before = k;
	b[0] = 2;
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_BAD_VERSION);
	b[0] = 1;
	b[3] = 0;				/* no layers in the group */
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_TAG);
	b[3] = 129;
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_TAG);
	b[3] = 33;
	b[2] = 2;				/* no such mode */
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_TAG);
	b[2] = DSR_MTAG_RTP;
	b[14] = 0;				/* RTP without an element id */
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_TAG);
	b[14] = 200;
	b[15] = 9;				/* tids above 8 */
	CHECK_EQ(dsr_mjoin_get(b, sizeof(b), &k), DSR_MJ_TAG);
	/* a refusal leaves *j alone */
	CHECK(!memcmp(&k, &before, sizeof(k)));
	return true;
}

static bool t_prefixes(void)
{
	struct dsr_mjoin j = rtp_join, k;
	u8 full[DSR_MJ_LEN];
	size_t n;

	dsr_mjoin_put(full, &j);
	for (n = 0; n <= DSR_MJ_LEN; n++) {
		u8 *b = malloc(n ? n : 1);

		CHECK(b);
		memcpy(b, full, n);
		if (dsr_mjoin_get(b, n, &k) !=
		    (n < DSR_MJ_LEN ? DSR_MJ_SHORT : DSR_MJ_OK)) {
			ktap_diag("prefix of %zu bytes", n);
			free(b);
			return false;
		}
		free(b);
	}
	return true;
}

static const struct ktap_case cases[] = {
	{ "the layout, byte by byte", t_layout },
	{ "every field round trips; a leave; bytes after it ignored",
	  t_round_trip },
	{ "a wrong version or an invalid tag is refused, changing nothing",
	  t_refused },
	{ "every prefix shorter than a join is short, no read past it",
	  t_prefixes },
};

int main(void)
{
	return ktap_main(cases, ARRAY_SIZE(cases));
}
