/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel-free protocol files of the modules need from their
 * environment, so that they build both in the module and in userspace unit
 * tests and fuzz targets (tests/unit): DSR's opt.c, rcache.c, rreq.c,
 * rtt.c, dup.c, ratelimit.c, blacklist.c, mcast_tag.c, mtree.c and the
 * transit engine's peek.c, flow.c.  They take the current time as an
 * argument, never lock (callers hold the device's lock) and allocate only
 * through ah_zalloc(), when a table is created or resized: in process
 * context, never under the device's lock nor on the packet path.
 */
#ifndef _AH_PROTO_ENV_H
#define _AH_PROTO_ENV_H

#ifdef __KERNEL__
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

/* only at set-up and reconfiguration, in process context */
#define ah_zalloc(size)		kvzalloc(size, GFP_KERNEL)
#define ah_free(p)		kvfree(p)
#else
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#ifndef U32_MAX
#define U32_MAX			((u32)~0U)
#endif
#ifndef __force
#define __force
#endif

#define ah_zalloc(size)		calloc(1, size)
#define ah_free(p)		free(p)
#endif

static inline u16 ah_get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline void ah_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* An IPv4 address as it is on the wire, read into host memory unchanged. */
static inline __be32 ah_get_addr(const u8 *p)
{
	__be32 a;

	memcpy(&a, p, sizeof(a));
	return a;
}

static inline void ah_put_addr(u8 *p, __be32 a)
{
	memcpy(p, &a, sizeof(a));
}

/* first octet of a be32 held in memory */
static inline u8 ah_addr_octet0(__be32 a)
{
	return ((const u8 *)&a)[0];
}

/* 0.0.0.0, 127/8, multicast, reserved and broadcast cannot be on a route */
static inline bool ah_addr_routable(__be32 a)
{
	u8 o = ah_addr_octet0(a);

	return o != 0 && o != 127 && o < 224;
}

/* 224.0.0.0/4 */
static inline bool ah_addr_multicast(__be32 a)
{
	return (ah_addr_octet0(a) & 0xf0) == 0xe0;
}

/* 255.255.255.255 */
static inline bool ah_addr_broadcast(__be32 a)
{
	return a == (__force __be32)U32_MAX;
}

/* The most sets of ways entries (a power of two) that entries can fill. */
static inline unsigned int ah_pow2_sets(unsigned int entries,
					unsigned int ways)
{
	unsigned int sets = 1;

	while (sets * 2 * ways <= entries)
		sets *= 2;
	return sets;
}

#endif /* _AH_PROTO_ENV_H */
