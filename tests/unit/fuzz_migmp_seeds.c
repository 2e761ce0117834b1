// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seeds for fuzz_migmp into the directory given: IGMP messages
 * that dsr_migmp_check() accepts, v1/v2 reports, a v2 leave, and v3
 * reports as Linux's igmpv3_send_cr() writes them, with every record
 * type, and records whose joins, leaves and levels meet in the table, so
 * that the fuzzer starts from accepted input.
 *
 *	fuzz_migmp_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migmp.h"
#include "fuzzer_seeds.h"

static const char *dir;

struct seed {
	u8 b[512];
	size_t n;
};

static __be32 ip(u8 a, u8 b, u8 c, u8 d)
{
	const u8 o[4] = { a, b, c, d };

	return ah_get_addr(o);
}

static void v2(struct seed *s, u8 type, __be32 group)
{
	memset(s, 0, sizeof(*s));
	s->b[0] = type;
	ah_put_addr(s->b + 4, group);
	s->n = DSR_MIGMP_V2_LEN;
}

static void v3(struct seed *s)
{
	memset(s, 0, sizeof(*s));
	s->b[0] = DSR_MIGMP_V3_REPORT;
	s->n = DSR_MIGMP_V3_HDR;
}

/* a record of nsrc sources 10.0.0.src[i], and aux words of aux data */
static void rec(struct seed *s, u8 type, u8 aux, __be32 group,
		unsigned int nsrc, const u8 *src)
{
	unsigned int i;

	s->b[s->n] = type;
	s->b[s->n + 1] = aux;
	ah_put16(s->b + s->n + 2, (u16)nsrc);
	ah_put_addr(s->b + s->n + 4, group);
	s->n += DSR_MIGMP_REC_HDR;
	for (i = 0; i < nsrc; i++, s->n += 4)
		ah_put_addr(s->b + s->n, ip(10, 0, 0, src[i]));
	memset(s->b + s->n, 0xa5, 4u * aux);
	s->n += 4u * aux;
	ah_put16(s->b + 6, (u16)(ah_get16(s->b + 6) + 1));
}

/* the Internet checksum over the message, as the stack writes it */
static void csum(struct seed *s)
{
	u32 sum = 0;
	size_t i;

	ah_put16(s->b + 2, 0);
	for (i = 0; i < s->n; i += 2)
		sum += (u32)(s->b[i] << 8 | (i + 1 < s->n ? s->b[i + 1] : 0));
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	ah_put16(s->b + 2, (u16)~sum);
}

static void write_seed(const char *name, struct seed *s)
{
	unsigned int n;

	csum(s);
	if (dsr_migmp_check(s->b, s->n, &n) != DSR_MIGMP_OK) {
		fprintf(stderr, "seed %s: refused\n", name);
		exit(1);
	}
	seed_write(dir, name, s->b, s->n);
}

int main(int argc, char **argv)
{
	const __be32 g = ip(232, 1, 1, 1), g2 = ip(232, 1, 1, 2);
	struct seed s;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];

	v2(&s, DSR_MIGMP_V1_REPORT, ip(239, 1, 2, 3));
	write_seed("v1", &s);
	v2(&s, DSR_MIGMP_V2_REPORT, ip(239, 1, 2, 3));
	write_seed("v2", &s);
	v2(&s, DSR_MIGMP_V2_LEAVE, ip(239, 1, 2, 3));
	write_seed("v2-leave", &s);

	/* a new source-specific join and an any-source one */
	v3(&s);
	rec(&s, 4, 0, ip(239, 2, 2, 2), 0, NULL);
	rec(&s, 3, 0, g, 2, (const u8 *)"\x01\x02");
	write_seed("linux-join", &s);

	/* a source added, one dropped */
	v3(&s);
	rec(&s, 5, 0, g, 1, (const u8 *)"\x03");
	rec(&s, 6, 0, g, 1, (const u8 *)"\x01");
	write_seed("linux-change", &s);

	/* the group left: its last source blocked */
	v3(&s);
	rec(&s, 6, 0, g, 1, (const u8 *)"\x02");
	write_seed("linux-leave", &s);

	/* every type, aux data */
	v3(&s);
	rec(&s, 1, 0, g, 2, (const u8 *)"\x01\x02");
	rec(&s, 2, 1, ip(239, 1, 1, 2), 1, (const u8 *)"\x07");
	rec(&s, 3, 2, g, 3, (const u8 *)"\x01\x03\x09");
	rec(&s, 4, 0, ip(239, 1, 1, 3), 0, NULL);
	rec(&s, 5, 3, g2, 4, (const u8 *)"\x04\x05\x06\x08");
	rec(&s, 6, 0, g, 1, (const u8 *)"\x02");
	rec(&s, 7, 1, g, 2, (const u8 *)"\x09\x0a");
	write_seed("types", &s);

	/*
	 * joins, a level (a type 7 record of three sources: 2), the only
	 * sources of a group, leaves; more groups than the table holds
	 */
	v3(&s);
	rec(&s, 5, 0, g, 3, (const u8 *)"\x01\x02\x03");
	rec(&s, 7, 0, g, 3, (const u8 *)"\x01\x01\x01");
	rec(&s, 3, 0, g, 2, (const u8 *)"\x01\x03");
	rec(&s, 6, 0, g, 1, (const u8 *)"\x03");
	rec(&s, 1, 0, g2, 3, (const u8 *)"\x01\x04\x05");
	rec(&s, 3, 0, g, 0, NULL);
	rec(&s, 6, 0, g, 1, (const u8 *)"\x01");
	rec(&s, 5, 0, ip(224, 0, 0, 251), 1, (const u8 *)"\x01");
	write_seed("table", &s);

	/* no records */
	v3(&s);
	write_seed("empty", &s);
	return 0;
}
