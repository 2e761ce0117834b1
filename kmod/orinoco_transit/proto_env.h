/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the protocol files of the transit engine (peek.c, flow.c) need from
 * their environment, so that they build both in the module and in
 * userspace unit tests and fuzz targets (tests/unit).  They take the
 * current time as an argument, never lock (callers hold the per-device
 * lock) and allocate only through tr_zalloc(), when a table is created:
 * in process context, never on the packet path.
 */
#ifndef _TR_PROTO_ENV_H
#define _TR_PROTO_ENV_H

#ifdef __KERNEL__
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

/* only at set-up and reconfiguration, in process context */
#define tr_zalloc(size)		kvzalloc(size, GFP_KERNEL)
#define tr_free(p)		kvfree(p)
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

#define tr_zalloc(size)		calloc(1, size)
#define tr_free(p)		free(p)
#endif

static inline u16 tr_get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

/* An IPv4 address as it is on the wire, read into host memory unchanged. */
static inline __be32 tr_get_addr(const u8 *p)
{
	__be32 a;

	memcpy(&a, p, sizeof(a));
	return a;
}

/* first octet of a be32 held in memory */
static inline u8 tr_addr_octet0(__be32 a)
{
	return ((const u8 *)&a)[0];
}

/* 224.0.0.0/4 */
static inline bool tr_addr_multicast(__be32 a)
{
	return (tr_addr_octet0(a) & 0xf0) == 0xe0;
}

/* 255.255.255.255 */
static inline bool tr_addr_broadcast(__be32 a)
{
	return a == (__force __be32)U32_MAX;
}

#endif /* _TR_PROTO_ENV_H */
