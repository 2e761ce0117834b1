// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seeds for fuzz_dsr_opt into the directory given: valid DSR
 * Options headers made with the builders of kmod/dsr/opt.c, one of each
 * option and some mixes, so that the fuzzer starts from accepted input.
 *
 *	fuzz_dsr_opt_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "fuzzer_seeds.h"

static __be32 ip(u8 a, u8 b, u8 c, u8 d)
{
	const u8 o[4] = { a, b, c, d };

	return ah_get_addr(o);
}

static const char *dir;
static unsigned int seeds;

static void put(const char *name, const u8 *b, size_t len)
{
	struct dsr_parsed p;

	if (dsr_parse(b, len, &p) != DSR_OK) {
		fprintf(stderr, "seed %s does not parse\n", name);
		exit(1);
	}
	seed_write(dir, name, b, len);
	seeds++;
}

int main(int argc, char **argv)
{
	__be32 a[DSR_MAX_PATH];
	u8 b[2048];
	size_t len;
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	for (i = 0; i < DSR_MAX_PATH; i++)
		a[i] = ip(10, 0, 0, (u8)(i + 2));

	len = dsr_finish(b, dsr_put_hdr(b, DSR_NO_NEXT_HEADER));
	put("empty", b, len);

	/* Route Discovery: a request being propagated, its reply */
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_rreq(b + len, 1, ip(10, 0, 0, 9), NULL, 0);
	put("rreq0", b, dsr_finish(b, len));
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_rreq(b + len, 0x1234, ip(10, 0, 0, 9), a, 3);
	put("rreq3", b, dsr_finish(b, len));
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_srt(b + len, 0, 2, a, 2);
	len += dsr_put_rrep(b + len, false, a, 4);
	put("srt-rrep", b, dsr_finish(b, len));
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_rrep(b + len, true, a, 1);
	len += dsr_put_rrep(b + len, false, a + 1, 2);
	put("rrep2", b, dsr_finish(b, len));

	/* data along a source route with an acknowledgement request */
	len = dsr_put_hdr(b, 17);
	len += dsr_put_areq(b + len, 7);
	len += dsr_put_srt(b + len, 1, 3, a, 3);
	put("areq-srt", b, dsr_finish(b, len));
	len = dsr_put_hdr(b, 6);
	len += dsr_put_srt(b + len, 0, 0, a, DSR_MAX_PATH);
	put("srt-long", b, dsr_finish(b, len));

	/* maintenance: acknowledgements and route errors */
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_ack(b + len, 7, a[0], a[1]);
	len += dsr_put_ack(b + len, 8, a[1], a[2]);
	put("ack2", b, dsr_finish(b, len));
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_srt(b + len, 2, 1, a, 2);
	len += dsr_put_rerr(b + len, 2, a[0], a[3], a[1]);
	put("srt-rerr", b, dsr_finish(b, len));

	/* unknown options of the ignore, remove and mark classes */
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_srt(b + len, 0, 1, a, 2);
	memcpy(b + len, "\x05\x02\x01\x02\x25\x03\x01\x02\x03\x45\x01\x01"
	       "\x85\x00\xa6\x00\xc7\x01\x00", 19);
	len += 19;
	len += dsr_put_areq(b + len, 9);
	put("unknown", b, dsr_finish(b, len));

	/* padding of every length and every option at once */
	for (i = 0; i < 4; i++) {
		char name[16];
		unsigned int k;

		len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
		for (k = 0; k < i; k++)
			len += dsr_put_rrep(b + len, false, a + k, 1);
		snprintf(name, sizeof(name), "pad%u", i);
		put(name, b, dsr_finish(b, len));
	}
	len = dsr_put_hdr(b, DSR_NO_NEXT_HEADER);
	len += dsr_put_srt(b + len, 3, 2, a, 4);
	len += dsr_put_areq(b + len, 1);
	len += dsr_put_rreq(b + len, 2, a[7], a, 3);
	for (i = 0; i < 3; i++) {
		len += dsr_put_rrep(b + len, i & 1, a + i, 2);
		len += dsr_put_rerr(b + len, (u8)i, a[0], a[1], a[2 + i]);
		len += dsr_put_ack(b + len, (u16)i, a[1], a[0]);
	}
	put("all", b, dsr_finish(b, len));

	printf("%u seeds in %s\n", seeds, dir);
	return 0;
}
