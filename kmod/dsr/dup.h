/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recently delivered and forwarded packets.  A retransmitted copy of a
 * packet whose first copy got through, but whose acknowledgment was
 * lost, is acknowledged again by the caller but neither delivered nor
 * forwarded a second time.
 *
 * A packet is known by the fields RFC 4728 (section 8.3.2) matches a
 * passive acknowledgment on: IP source, destination, protocol,
 * identification and fragment offset; and by a hash of the first bytes
 * after the DSR header, because an unconnected socket sends every
 * datagram with DF set and identification 0.  A forwarded copy is also
 * known by its Segments Left and Salvage count: the same packet salvaged
 * over another route, or coming round again on a route through us twice,
 * is not a duplicate.
 *
 * Bounded: DSR_DUP_WAYS entries a set, the oldest of a set is replaced,
 * an entry lives for lifetime ms.  No kernel dependencies: also built
 * into tests/unit.  The caller serialises access.
 */
#ifndef _DSR_DUP_H
#define _DSR_DUP_H

#include "ah_proto_env.h"

#define DSR_DUP_WAYS		4
/* bytes after the DSR header that the key hashes */
#define DSR_DUP_PAYLOAD		24

/* DSR_DUP_MCAST: a multicast packet of a tree (mtree.h), however it came */
enum dsr_dup_kind { DSR_DUP_DELIVER = 1, DSR_DUP_FORWARD, DSR_DUP_MCAST };

struct dsr_dup_key {
	__be32 saddr, daddr;
	__be16 id, frag_off;
	u32 payload;		/* dsr_dup_hash() of the payload's start */
	u8 proto;		/* the DSR header's Next Header */
	u8 segs, salvage;	/* forwarded: as received; delivered: 0 */
	u8 kind;		/* enum dsr_dup_kind */
};

struct dsr_dup_entry {
	struct dsr_dup_key key;
	u64 expires;		/* ms; 0: free */
};

struct dsr_dup_cache {
	struct dsr_dup_entry *e;
	unsigned int sets;	/* a power of two */
	u32 seed;
};

/* entries: rounded down to a power of two sets of DSR_DUP_WAYS */
int dsr_dup_init(struct dsr_dup_cache *c, unsigned int entries, u32 seed);
void dsr_dup_destroy(struct dsr_dup_cache *c);
void dsr_dup_flush(struct dsr_dup_cache *c);
u32 dsr_dup_hash(const u8 *data, size_t len);
/*
 * True if k was seen within lifetime_ms before now (a duplicate);
 * otherwise remember it and return false.
 */
bool dsr_dup_seen(struct dsr_dup_cache *c, const struct dsr_dup_key *k,
		  u64 now, u32 lifetime_ms);

#endif /* _DSR_DUP_H */
