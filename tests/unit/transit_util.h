/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests of the transit engine's protocol files
 * (kmod/orinoco_transit).
 */
#ifndef AH_TRANSIT_UTIL_H
#define AH_TRANSIT_UTIL_H

#include "ktap.h"
#include "ah_proto_env.h"

/* a.b.c.d as it is on the wire (network order in memory) */
static inline __be32 ip4(u8 a, u8 b, u8 c, u8 d)
{
	const u8 o[4] = { a, b, c, d };

	return ah_get_addr(o);
}

static inline void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

#endif /* AH_TRANSIT_UTIL_H */
