/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IGMP reports dsr0's own stack sends (issue 19, docs/mcast.md): a
 * local socket that joins a multicast group on dsr0 makes the kernel's
 * IGMP send a report out of dsr0; dsr0 reads it as a local receiver's
 * join of its trees (mcast.c) instead of sending it.
 *
 * DSR's trees are per (source, group), so only source-specific joins
 * (RFC 4607, IP_ADD_SOURCE_MEMBERSHIP; IGMPv3 INCLUDE mode, RFC 3376
 * section 4.2) map onto them.  A record is read as:
 *
 *	MODE_IS_INCLUDE, ALLOW_NEW_SOURCES	join each source listed
 *	BLOCK_OLD_SOURCES			leave each source listed
 *	CHANGE_TO_INCLUDE_MODE			the sources listed are all
 *						there are: join them, leave
 *						the group's others (none
 *						listed: leave them all)
 *	MODE_IS_EXCLUDE, CHANGE_TO_EXCLUDE_MODE	any-source: no tree to join
 *	an unknown record type			ignored (RFC 3376 4.2.12)
 *
 * IGMPv1 and v2 membership reports are any-source joins, a v2 leave an
 * any-source leave; a query or any other type is not a report.
 *
 * dsr_migmp_check() reads the whole message once and refuses it if a
 * record runs past its end; dsr_migmp_next() then walks the records.
 * The checksum is not checked: the message comes from our own stack.
 * No kernel dependencies: also built into tests/unit and a fuzzer.
 */
#ifndef _DSR_MIGMP_H
#define _DSR_MIGMP_H

#include "ah_proto_env.h"

#define DSR_MIGMP_V1_REPORT	0x12
#define DSR_MIGMP_V2_REPORT	0x16
#define DSR_MIGMP_V2_LEAVE	0x17
#define DSR_MIGMP_V3_REPORT	0x22

/* the fixed parts: a v1/v2 message, a v3 report's header, a v3 record's */
#define DSR_MIGMP_V2_LEN	8
#define DSR_MIGMP_V3_HDR	8
#define DSR_MIGMP_REC_HDR	8

enum dsr_migmp_op {
	DSR_MIGMP_JOIN,		/* join (source[i], group) for each i */
	DSR_MIGMP_LEAVE,	/* leave (source[i], group) for each i */
	DSR_MIGMP_ONLY,		/* join these, leave the group's others */
	DSR_MIGMP_ANY,		/* an any-source join */
	DSR_MIGMP_ANY_LEAVE,	/* an any-source leave */
	DSR_MIGMP_IGNORE,	/* an unknown record type */
};

struct dsr_migmp_rec {
	__be32 group;
	u8 op;			/* enum dsr_migmp_op */
	u16 nsrc;
	const u8 *src;		/* nsrc addresses of 4 bytes, in the message */
};

enum dsr_migmp_res {
	DSR_MIGMP_OK,
	DSR_MIGMP_SHORT,	/* shorter than its fixed part */
	DSR_MIGMP_TYPE,		/* not a membership report or leave */
	DSR_MIGMP_TRUNCATED,	/* a record runs past the end */
	__DSR_MIGMP_RES_MAX,
};

/*
 * len bytes at msg (the IGMP message, after the IP header): DSR_MIGMP_OK
 * and the number of records in *n (1 for v1/v2), or why it is refused.
 */
enum dsr_migmp_res dsr_migmp_check(const u8 *msg, size_t len, unsigned int *n);

/*
 * The record at *off of a message dsr_migmp_check() passed (*off 0 for
 * the first), into *r; *off moves to the next.  Call it *n times.
 */
void dsr_migmp_next(const u8 *msg, size_t len, size_t *off,
		    struct dsr_migmp_rec *r);

/* source i of r */
static inline __be32 dsr_migmp_src(const struct dsr_migmp_rec *r,
				   unsigned int i)
{
	return ah_get_addr(r->src + 4 * i);
}

#endif /* _DSR_MIGMP_H */
