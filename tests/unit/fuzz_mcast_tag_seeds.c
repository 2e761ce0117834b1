// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seeds for fuzz_mcast_tag into the directory given: a tag
 * configuration (six bytes, as the target reads them) and a payload that
 * dsr_mtag_get() accepts, for the byte tag and for RTP in each form of
 * the frame marking extension, so that the fuzzer starts from accepted
 * input.
 *
 *	fuzz_mcast_tag_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcast_tag.h"
#include "fuzzer_seeds.h"

static const char *dir;

struct seed {
	u8 b[256];
	size_t n;
};

static void put(struct seed *s, const void *d, size_t n)
{
	memcpy(s->b + s->n, d, n);
	s->n += n;
}

/* mode, layers, offset (2), ext_id, tids: valid as the target reads it */
static void cfg(struct seed *s, u8 mode, u8 layers, u8 offset, u8 ext_id,
		u8 tids)
{
	const u8 c[6] = { mode, (u8)(layers - 1), 0, offset,
			  (u8)(ext_id - 1), tids };

	s->n = 0;
	put(s, c, sizeof(c));
}

static void rtp(struct seed *s, unsigned int cc, bool x)
{
	u8 h[12] = { (u8)(0x80 | (x ? 0x10 : 0) | cc), 96, 0x12, 0x34,
		     0, 1, 0x5f, 0x90, 0x11, 0x22, 0x33, 0x44 };
	u8 csrc[4] = { 0xc0, 0, 0, 1 };
	unsigned int i;

	put(s, h, sizeof(h));
	for (i = 0; i < cc; i++)
		put(s, csrc, sizeof(csrc));
}

static void write_seed(const char *name, const struct seed *s, u8 want)
{
	struct dsr_mtag_cfg c;
	u8 layer = 0xee;

	memset(&c, 0, sizeof(c));
	c.mode = s->b[0] & 1;
	c.layers = 1 + s->b[1];
	c.offset = s->b[3];
	c.ext_id = 1 + s->b[4] % 14;
	c.tids = s->b[5];
	if (dsr_mtag_get(&c, s->b + 6, s->n - 6, &layer) != DSR_MTAG_OK ||
	    layer != want) {
		fprintf(stderr, "seed %s: not layer %u\n", name, want);
		exit(1);
	}
	seed_write(dir, name, s->b, s->n);
}

int main(int argc, char **argv)
{
	const u8 pay[8] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0, 1 };
	struct seed s;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];

	cfg(&s, DSR_MTAG_BYTE, 33, 2, 1, 0);
	put(&s, "\x01\x02\x85\x04", 4);
	write_seed("byte", &s, 5);

	cfg(&s, DSR_MTAG_RTP, 33, 0, 5, 0);
	rtp(&s, 2, false);
	put(&s, pay, sizeof(pay));
	write_seed("rtp-plain", &s, 0);

	/* one-byte form: padding, another element, long form LID 3 TID 1 */
	cfg(&s, DSR_MTAG_RTP, 33, 0, 5, 3);
	rtp(&s, 1, true);
	put(&s, "\xbe\xde\x00\x02\x00\x41\x11\x22\x51\xc9\x03\x00", 12);
	put(&s, pay, sizeof(pay));
	write_seed("rtp-one-byte-long", &s, 10);

	/* with TL0PICIDX */
	cfg(&s, DSR_MTAG_RTP, 33, 0, 5, 0);
	rtp(&s, 0, true);
	put(&s, "\xbe\xde\x00\x01\x52\x88\x07\x17", 8);
	write_seed("rtp-tl0picidx", &s, 7);

	/* short form */
	cfg(&s, DSR_MTAG_RTP, 33, 0, 5, 3);
	rtp(&s, 0, true);
	put(&s, "\xbe\xde\x00\x01\x50\xe0\x00\x00", 8);
	put(&s, pay, sizeof(pay));
	write_seed("rtp-short", &s, 0);

	/* two-byte form, application bits set, LID 2 TID 2 */
	cfg(&s, DSR_MTAG_RTP, 33, 0, 9, 4);
	rtp(&s, 3, true);
	put(&s, "\x10\x05\x00\x02\x07\x00\x00\x09\x02\x8a\x02\x00", 12);
	put(&s, pay, sizeof(pay));
	write_seed("rtp-two-byte", &s, 10);

	/* a tree's worth of operations after a short payload */
	cfg(&s, DSR_MTAG_BYTE, 8, 0, 1, 0);
	put(&s, "\x03\x02\x00\x22\x00\x20\x00\x21\x01\x5a\x07\x01\x01"
		"\x45\x01\x0d\x00\x17\x06\x00\x05\x0e\x00", 23);
	write_seed("tree", &s, 3);
	return 0;
}
