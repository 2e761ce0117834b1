/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Route Request table, duplicate half (RFC 4728 section 4.3): for up to
 * RequestTableSize initiators, the last RequestTableIds (identification,
 * target) pairs seen, so that a node forwards each Route Request once
 * (section 8.2.2 keys a duplicate on initiator, identification and target).  The least recently
 * heard initiator is forgotten when the table is full.  No kernel
 * dependencies: also built into tests/unit.  The caller serialises access.
 */
#ifndef _DSR_RREQ_H
#define _DSR_RREQ_H

#include "ah_proto_env.h"

#define DSR_RREQ_IDS_MAX	64

struct dsr_rreq_node {
	__be32 initiator;	/* 0: free */
	u64 heard;		/* ms */
	u8 n, next;		/* ids held, ring position */
	struct {
		__be32 target;
		u16 id;
	} ids[DSR_RREQ_IDS_MAX];
};

struct dsr_rreq_table {
	struct dsr_rreq_node *node;
	unsigned int size, ids;
};

int dsr_rreq_init(struct dsr_rreq_table *t, unsigned int size,
		  unsigned int ids);
void dsr_rreq_destroy(struct dsr_rreq_table *t);
void dsr_rreq_flush(struct dsr_rreq_table *t);
/* True if (initiator, id, target) was seen before; otherwise remember it. */
bool dsr_rreq_seen(struct dsr_rreq_table *t, __be32 initiator, u16 id,
		   __be32 target, u64 now);

/*
 * Route Discovery back-off (section 8.2.1): the wait after the tries-th
 * propagating request, RequestPeriod doubling up to MaxRequestPeriod.
 */
u32 dsr_rreq_backoff(u32 period, u32 max_period, unsigned int tries);

#endif /* _DSR_RREQ_H */
