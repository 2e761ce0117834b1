/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests of the DSR protocol files (kmod/dsr).
 */
#ifndef AH_DSR_UTIL_H
#define AH_DSR_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ktap.h"
#include "ah_proto_env.h"

/* a.b.c.d as it is on the wire (network order in memory) */
static inline __be32 ip4(u8 a, u8 b, u8 c, u8 d)
{
	const u8 o[4] = { a, b, c, d };

	return ah_get_addr(o);
}

/* 10.0.0.i: the nodes of the test networks */
static inline __be32 node(u8 i)
{
	return ip4(10, 0, 0, i);
}

static inline void hexdump(const char *what, const u8 *b, size_t len)
{
	char line[3 * 16 + 1];
	size_t i, o = 0;

	ktap_diag("%s (%zu bytes):", what, len);
	for (i = 0; i < len; i++) {
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %02x",
				      b[i]);
		if (i % 16 == 15 || i == len - 1) {
			ktap_diag(" %s", line);
			o = 0;
		}
	}
}

/*
 * TABLE_TEST(name, type, var, destroy) { body }: a test case whose body
 * gets var, a pointer to a zeroed type, which destroy() frees after the
 * body returns, also when a CHECK failed.
 */
#define TABLE_TEST(name, type, var, destroy)				\
	static bool name##_body(type *var);				\
	static bool name(void)						\
	{								\
		type table_;						\
		bool ok;						\
									\
		memset(&table_, 0, sizeof(table_));			\
		ok = name##_body(&table_);				\
		destroy(&table_);					\
		return ok;						\
	}								\
	static bool name##_body(type *var)

#endif /* AH_DSR_UTIL_H */
