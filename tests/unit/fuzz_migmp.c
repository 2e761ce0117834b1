// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the IGMP reports of dsr0's own stack (kmod/dsr/
 * migmp.c) and the sockets' joins they make in the trees (mtree.c).
 *
 * The input is an IGMP message, handed to dsr_migmp_check() in a buffer
 * of exactly its length (ASan sees any read past it).  Its answer is
 * checked against an independent reading of RFC 3376 section 4.2 (and
 * RFC 2236, RFC 1112) written here; an accepted message is walked with
 * dsr_migmp_next(), each record against the reference, every source
 * read; shorter prefixes of an accepted v3 report are refused.  The
 * records are then applied to a small tree table as mcast.c applies
 * them, and the table checked against what mtree.h promises.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migmp.h"
#include "mtree.h"
#include "fuzzer_input.h"

#define GROUPS		4
#define CHILDREN	2
#define MAX_LAYERS	33

/* ---- the reference ------------------------------------------------- */

/* a record as RFC 3376 4.2.4 lays it out, at d + at */
struct ref_rec {
	u8 type, aux;
	u16 nsrc;
	__be32 group;
	size_t src, end;	/* where its sources start, where it ends */
};

static void ref_rec(const u8 *d, size_t at, struct ref_rec *r)
{
	r->type = d[at];
	r->aux = d[at + 1];
	r->nsrc = (u16)(d[at + 2] * 256 + d[at + 3]);
	memcpy(&r->group, d + at + 4, 4);
	r->src = at + 8;
	r->end = r->src + 4u * r->nsrc + 4u * r->aux;
}

static enum dsr_migmp_res ref_check(const u8 *d, size_t len, unsigned int *n)
{
	unsigned int i, nrec;
	struct ref_rec r;
	size_t at = 8;

	if (!len)
		return DSR_MIGMP_SHORT;
	if (d[0] == 0x12 || d[0] == 0x16 || d[0] == 0x17) {
		if (len < 8)
			return DSR_MIGMP_SHORT;
		*n = 1;
		return DSR_MIGMP_OK;
	}
	if (d[0] != 0x22)
		return DSR_MIGMP_TYPE;
	if (len < 8)
		return DSR_MIGMP_SHORT;
	nrec = d[6] * 256u + d[7];
	for (i = 0; i < nrec; i++) {
		if (at + 8 > len)
			return DSR_MIGMP_TRUNCATED;
		ref_rec(d, at, &r);
		if (r.end > len)
			return DSR_MIGMP_TRUNCATED;
		at = r.end;
	}
	*n = nrec;
	return DSR_MIGMP_OK;
}

static u8 ref_op(u8 type)
{
	switch (type) {
	case 1:			/* MODE_IS_INCLUDE */
	case 5:			/* ALLOW_NEW_SOURCES */
		return DSR_MIGMP_JOIN;
	case 6:			/* BLOCK_OLD_SOURCES */
		return DSR_MIGMP_LEAVE;
	case 3:			/* CHANGE_TO_INCLUDE_MODE */
		return DSR_MIGMP_ONLY;
	case 2:			/* MODE_IS_EXCLUDE */
	case 4:			/* CHANGE_TO_EXCLUDE_MODE */
		return DSR_MIGMP_ANY;
	default:
		return DSR_MIGMP_IGNORE;
	}
}

static enum dsr_migmp_res check(const u8 *d, size_t len, unsigned int *n)
{
	u8 *copy = malloc(len ? len : 1);
	enum dsr_migmp_res r;

	NEED(copy);
	memcpy(copy, d, len);
	r = dsr_migmp_check(copy, len, n);
	free(copy);
	NEED((unsigned int)r < __DSR_MIGMP_RES_MAX);
	return r;
}

/* ---- the table ----------------------------------------------------- */

struct state {
	struct dsr_mt_table t;
	u64 now, calls;
};

static void check_table(const struct state *s)
{
	const struct dsr_mt_table *t = &s->t;
	unsigned int i, used = 0;
	u64 sum = 0;

	for (i = 0; i < __DSR_MT_RES_MAX; i++)
		sum += t->count[i];
	NEED(sum == s->calls);
	for (i = 0; i < t->max_groups; i++) {
		const struct dsr_mt_group *g = &t->g[i];

		if (!g->group) {
			NEED(!g->source && !g->local && !g->level &&
			     !g->igmp && !g->asked && !g->nchild);
			continue;
		}
		used++;
		NEED(ah_addr_multicast(g->group) &&
		     ah_addr_routable(g->source));
		NEED(g->level <= t->p.max_layers);
		NEED(g->local == (g->level ? g->level :
				  g->igmp ? t->p.max_layers : 0));
	}
	NEED(used == t->ngroups);
}

static void igmp_one(struct state *s, __be32 src, __be32 grp, bool join)
{
	struct dsr_mt_group *g = dsr_mt_find(&s->t, src, grp);
	bool was = g && g->igmp;
	u8 level = g ? g->level : 0;
	enum dsr_mt_res r;

	r = dsr_mt_igmp(&s->t, src, grp, join, s->now);
	s->calls++;
	NEED(r < __DSR_MT_RES_MAX);
	g = dsr_mt_find(&s->t, src, grp);
	if (r == DSR_MT_OK) {
		NEED(g && g->igmp == join && g->level == level);
		NEED(join || was);
	} else if (r == DSR_MT_NO_ENTRY) {
		NEED(!join && !was);
	} else {
		NEED(r == DSR_MT_BAD_GROUP || r == DSR_MT_BAD_SOURCE ||
		     (join && r == DSR_MT_GROUPS_FULL));
		NEED(!g || g->igmp == was);
	}
}

static void igmp_only(struct state *s, const struct dsr_migmp_rec *rec)
{
	unsigned int i, k, ended = 0;
	bool *kept = calloc(GROUPS, sizeof(*kept));

	NEED(kept);
	for (i = 0; i < s->t.max_groups; i++) {
		const struct dsr_mt_group *g = &s->t.g[i];

		if (!g->group || g->group != rec->group || !g->igmp)
			continue;
		for (k = 0; k < rec->nsrc; k++)
			if (dsr_migmp_src(rec, k) == g->source)
				break;
		kept[i] = k < rec->nsrc;
		ended += !kept[i];
	}
	NEED(dsr_mt_igmp_only(&s->t, rec->group, rec->src, rec->nsrc) ==
	     ended);
	for (i = 0; i < s->t.max_groups; i++) {
		const struct dsr_mt_group *g = &s->t.g[i];

		if (g->group == rec->group && g->igmp)
			NEED(kept[i]);
	}
	free(kept);
}

/*
 * A record applied as mcast.c does; ANY and IGNORE records, which it
 * does not apply, set the user's level here instead (their sources'
 * count, less one) so that levels meet sockets' joins.
 */
static void apply(struct state *s, const struct dsr_migmp_rec *rec)
{
	unsigned int k;

	switch (rec->op) {
	case DSR_MIGMP_ONLY:
		igmp_only(s, rec);
		/* fall through */
	case DSR_MIGMP_JOIN:
	case DSR_MIGMP_LEAVE:
		for (k = 0; k < rec->nsrc; k++)
			igmp_one(s, dsr_migmp_src(rec, k), rec->group,
				 rec->op != DSR_MIGMP_LEAVE);
		break;
	default:
		if (rec->nsrc) {
			dsr_mt_local(&s->t, dsr_migmp_src(rec, 0), rec->group,
				     (u8)((rec->nsrc - 1) % 40), s->now);
			s->calls++;
		}
		break;
	}
	check_table(s);
	/* the periodic refresh: what upstream is told, then expiry */
	s->now += 250;
	for (k = 0; k < s->t.max_groups; k++) {
		struct dsr_mt_group *g = &s->t.g[k];
		u8 l;

		if (g->group && (s->now / 250) % 2)
			dsr_mt_refresh(&s->t, g, s->now, &l);
	}
	dsr_mt_expire(&s->t, s->now);
	check_table(s);
}

/* ---- the message --------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int n = 0, rn = 0, i, k;
	enum dsr_migmp_res r, want;
	struct dsr_mt_params p;
	struct dsr_migmp_rec rec;
	struct state s;
	size_t off = 0, at = 8;
	u8 *m;

	r = check(data, size, &n);
	want = ref_check(data, size, &rn);
	if (r != want || (r == DSR_MIGMP_OK && n != rn)) {
		fprintf(stderr, "dsr_migmp_check %d n %u, reference %d n %u\n",
			r, n, want, rn);
		abort();
	}
	if (r != DSR_MIGMP_OK)
		return 0;

	/* shorter prefixes of a v3 report: refused once a record is cut */
	if (data[0] == DSR_MIGMP_V3_REPORT) {
		size_t end = 8, cut;
		struct ref_rec rr;

		for (i = 0; i < n; i++) {
			ref_rec(data, end, &rr);
			end = rr.end;
		}
		for (cut = 0; cut < end; cut += 1 + (end - cut) / 4)
			NEED(check(data, cut, &rn) == (cut < 8 ?
			     DSR_MIGMP_SHORT : DSR_MIGMP_TRUNCATED));
		for (cut = end; cut <= size; cut += 1 + (size - cut) / 2)
			NEED(check(data, cut, &rn) == DSR_MIGMP_OK && rn == n);
	}

	m = malloc(size);
	NEED(m);
	memcpy(m, data, size);
	memset(&s, 0, sizeof(s));
	dsr_mt_params_default(&p);
	p.max_layers = MAX_LAYERS;
	NEED(!dsr_mt_init(&s.t, GROUPS, CHILDREN, &p));
	for (i = 0; i < n; i++) {
		size_t was = off;

		memset(&rec, 0x5a, sizeof(rec));
		dsr_migmp_next(m, size, &off, &rec);
		NEED(rec.op <= DSR_MIGMP_IGNORE);
		if (m[0] != DSR_MIGMP_V3_REPORT) {
			__be32 grp;

			memcpy(&grp, m + 4, 4);
			NEED(rec.group == grp && !rec.nsrc && !rec.src);
			NEED(rec.op == (m[0] == DSR_MIGMP_V2_LEAVE ?
					DSR_MIGMP_ANY_LEAVE : DSR_MIGMP_ANY));
			NEED(off == size);
		} else {
			struct ref_rec rr;

			ref_rec(data, at, &rr);
			NEED(rec.op == ref_op(rr.type));
			NEED(rec.group == rr.group && rec.nsrc == rr.nsrc);
			NEED(rec.src == m + rr.src);
			NEED(off == rr.end && off > was && off <= size);
			/* every source, in the buffer */
			for (k = 0; k < rec.nsrc; k++) {
				__be32 a;

				memcpy(&a, data + rr.src + 4 * k, 4);
				NEED(dsr_migmp_src(&rec, k) == a);
			}
			at = rr.end;
		}
		apply(&s, &rec);
	}
	dsr_mt_destroy(&s.t);
	free(m);
	return 0;
}
