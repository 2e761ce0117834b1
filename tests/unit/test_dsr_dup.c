// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/dup.c: the cache of recently delivered and
 * forwarded packets.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsr_util.h"
#include "dup.h"
#include "ktap.h"

#define LIFE	1000

/* every test frees its cache even when it fails */
#define TEST(name)	TABLE_TEST(name, struct dsr_dup_cache, c, dsr_dup_destroy)

/* packet i of a flow from node 1 to node 3 */
static struct dsr_dup_key key(unsigned int i, enum dsr_dup_kind kind)
{
	struct dsr_dup_key k;
	u8 payload[8] = { 0x45, 0, 0, 0, 0, 0, (u8)(i >> 8), (u8)i };

	memset(&k, 0, sizeof(k));
	k.saddr = node(1);
	k.daddr = node(3);
	k.id = (__be16)(i + 1);
	k.payload = dsr_dup_hash(payload, sizeof(payload));
	k.proto = 17;
	k.kind = (u8)kind;
	return k;
}

TEST(t_seen)
{
	struct dsr_dup_key k = key(1, DSR_DUP_DELIVER);

	CHECK(!dsr_dup_init(c, 64, 1));
	CHECK(!dsr_dup_seen(c, &k, 0, LIFE));
	CHECK(dsr_dup_seen(c, &k, 1, LIFE));
	CHECK(dsr_dup_seen(c, &k, LIFE - 1, LIFE));
	return true;
}

TEST(t_expiry)
{
	struct dsr_dup_key k = key(1, DSR_DUP_DELIVER);

	CHECK(!dsr_dup_init(c, 64, 1));
	CHECK(!dsr_dup_seen(c, &k, 100, LIFE));
	CHECK(!dsr_dup_seen(c, &k, 100 + LIFE, LIFE));	/* expired: new */
	CHECK(dsr_dup_seen(c, &k, 101 + LIFE, LIFE));
	return true;
}

/* each field of the key tells packets apart */
TEST(t_fields)
{
	struct dsr_dup_key k = key(1, DSR_DUP_FORWARD), x;

	CHECK(!dsr_dup_init(c, 256, 7));
	CHECK(!dsr_dup_seen(c, &k, 0, LIFE));
#define DIFFERENT(field, value)					\
	do {							\
		x = k;						\
		x.field = value;				\
		CHECK(!dsr_dup_seen(c, &x, 1, LIFE));		\
		CHECK(dsr_dup_seen(c, &x, 2, LIFE));		\
	} while (0)
	DIFFERENT(saddr, node(2));
	DIFFERENT(daddr, node(4));
	DIFFERENT(id, 99);
	DIFFERENT(frag_off, 8);
	DIFFERENT(payload, k.payload + 1);
	DIFFERENT(proto, 6);
	DIFFERENT(segs, 2);
	DIFFERENT(salvage, 1);
	DIFFERENT(kind, DSR_DUP_DELIVER);
#undef DIFFERENT
	CHECK(dsr_dup_seen(c, &k, 3, LIFE));
	return true;
}

/* a flow far larger than the cache: bounded, and the newest are known */
TEST(t_bounded)
{
	struct dsr_dup_key k;
	unsigned int i, known = 0;

	CHECK(!dsr_dup_init(c, 100, 3));
	CHECK_EQ(c->sets * DSR_DUP_WAYS, 64u);	/* rounded down */
	for (i = 0; i < 10000; i++) {
		k = key(i, DSR_DUP_DELIVER);
		CHECK(!dsr_dup_seen(c, &k, i, 1000000));
	}
	/* the last few are all still there (each set keeps its newest) */
	for (i = 10000 - 8; i < 10000; i++) {
		k = key(i, DSR_DUP_DELIVER);
		known += dsr_dup_seen(c, &k, 10000, 1000000);
	}
	CHECK(known >= 6);
	return true;
}

TEST(t_flush)
{
	struct dsr_dup_key k = key(5, DSR_DUP_DELIVER);

	CHECK(!dsr_dup_init(c, 64, 1));
	CHECK(!dsr_dup_seen(c, &k, 0, LIFE));
	dsr_dup_flush(c);
	CHECK(!dsr_dup_seen(c, &k, 1, LIFE));
	return true;
}

TEST(t_empty)
{
	struct dsr_dup_key k = key(5, DSR_DUP_DELIVER);

	/* an unallocated cache knows nothing and does not crash */
	CHECK(!dsr_dup_seen(c, &k, 0, LIFE));
	CHECK(!dsr_dup_seen(c, &k, 1, LIFE));
	return true;
}

static bool t_hash(void)
{
	const u8 a[] = "abc", b[] = "abd";

	CHECK(dsr_dup_hash(a, 3) != dsr_dup_hash(b, 3));
	CHECK_EQ(dsr_dup_hash(a, 0), 2166136261u);
	CHECK_EQ(dsr_dup_hash(a, 3), dsr_dup_hash(a, 3));
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "a packet seen within its lifetime is a duplicate", t_seen },
	{ "an expired entry is forgotten", t_expiry },
	{ "every field of the key tells packets apart", t_fields },
	{ "bounded; the newest packets are known", t_bounded },
	{ "flush forgets everything", t_flush },
	{ "an unallocated cache knows nothing", t_empty },
	{ "payload hash", t_hash },
};

int main(void)
{
	return ktap_main(fn_cases, ARRAY_SIZE(fn_cases));
}
