// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the multicast files of DSR (kmod/dsr/mcast_tag.c,
 * mtree.c).
 *
 * The input's first six bytes are a group's tag configuration, the rest a
 * UDP payload, handed to dsr_mtag_get() in a buffer of exactly its length
 * (ASan sees any read past it).  Its answer is checked against an
 * independent reading of RFC 3550, RFC 8285 and RFC 9626 written here,
 * and against what must hold whatever the bytes: an accepted layer is
 * below the group's layers, the bytes after a whole RTP header extension
 * do not change the answer, more layers never turn an accepted packet
 * away.  The same bytes then drive a sequence of operations on a small
 * tree table (joins, leaves, local receivers, expiry, upstream, new
 * routes, fan-out), whose state and answers are checked against what
 * mtree.h promises.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcast_tag.h"
#include "mjoin.h"
#include "mtree.h"
#include "fuzzer_input.h"

#define CFG_LEN		6
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- the tag ------------------------------------------------------- */

static enum dsr_mtag_res get(const struct dsr_mtag_cfg *cfg, const u8 *p,
			     size_t len, u8 *layer)
{
	u8 *copy = malloc(len ? len : 1);
	enum dsr_mtag_res r;

	NEED(copy);
	memcpy(copy, p, len);
	*layer = 0xee;
	r = dsr_mtag_get(cfg, copy, len, layer);
	free(copy);
	NEED((unsigned int)r < __DSR_MTAG_RES_MAX);
	if (r == DSR_MTAG_OK)
		NEED(*layer < cfg->layers);
	else
		NEED(*layer == 0xee);
	return r;
}

/*
 * The reference: where the RTP header ends (*hdr_end, 0 if not RTP or no
 * whole extension), and the result.
 */
static enum dsr_mtag_res ref_rtp(const struct dsr_mtag_cfg *cfg, const u8 *p,
				 size_t len, unsigned int *layer,
				 size_t *hdr_end)
{
	size_t csrcs, ext, words, blk, pos;
	unsigned int prof, form, id, n;
	const u8 *e = NULL;
	unsigned int en = 0;

	*hdr_end = 0;
	if (len < 12)
		return DSR_MTAG_TRUNCATED;
	if ((p[0] & 0xc0) != 0x80)
		return DSR_MTAG_VERSION;
	csrcs = p[0] & 15;
	ext = 12 + csrcs * 4;
	if (len < ext)
		return DSR_MTAG_CSRC;
	if (!(p[0] & 0x10)) {
		*hdr_end = ext;
		*layer = 0;
		return DSR_MTAG_OK;
	}
	if (len < ext + 4)
		return DSR_MTAG_EXT_LEN;
	prof = (unsigned int)p[ext] << 8 | p[ext + 1];
	words = (size_t)p[ext + 2] << 8 | p[ext + 3];
	blk = ext + 4;
	if (len < blk + 4 * words)
		return DSR_MTAG_EXT_LEN;
	*hdr_end = blk + 4 * words;
	form = prof == 0xbede ? 1 : (prof >> 4) == 0x100 ? 2 : 0;
	for (pos = blk; form && pos < *hdr_end && !e; ) {
		if (p[pos] == 0 || (form == 1 && !(p[pos] >> 4))) {
			pos++;
			continue;
		}
		if (form == 1) {
			id = p[pos] >> 4;
			if (id == 15)
				break;
			n = (p[pos] & 15) + 1;
			pos += 1;
		} else {
			if (pos + 1 >= *hdr_end)
				return DSR_MTAG_ELEM;
			id = p[pos];
			n = p[pos + 1];
			pos += 2;
		}
		if (pos + n > *hdr_end)
			return DSR_MTAG_ELEM;
		if (id == cfg->ext_id) {
			e = p + pos;
			en = n;
		}
		pos += n;
	}
	if (!e) {
		*layer = 0;
		return DSR_MTAG_OK;
	}
	switch (en) {
	case 1:
		*layer = 0;
		return DSR_MTAG_OK;
	case 2:
	case 3:
		break;
	default:
		return DSR_MTAG_ELEM;
	}
	if (!cfg->tids) {
		*layer = e[1];
	} else {
		if ((e[0] & 7) >= cfg->tids)
			return DSR_MTAG_TID;
		*layer = e[1] * cfg->tids + (e[0] & 7);
	}
	return DSR_MTAG_OK;
}

static enum dsr_mtag_res ref(const struct dsr_mtag_cfg *cfg, const u8 *p,
			     size_t len, u8 *layer, size_t *hdr_end)
{
	enum dsr_mtag_res r;
	unsigned int l;

	*hdr_end = 0;
	if (!cfg->layers || cfg->layers > 128 || cfg->mode > DSR_MTAG_RTP ||
	    (cfg->mode == DSR_MTAG_RTP && (!cfg->ext_id || cfg->tids > 8)))
		return DSR_MTAG_CFG;
	if (cfg->mode == DSR_MTAG_BYTE) {
		if (len <= cfg->offset)
			return DSR_MTAG_TRUNCATED;
		l = p[cfg->offset] & 127;
		*hdr_end = (size_t)cfg->offset + 1;
	} else {
		r = ref_rtp(cfg, p, len, &l, hdr_end);
		if (r != DSR_MTAG_OK)
			return r;
	}
	if (l >= cfg->layers)
		return DSR_MTAG_ABOVE;
	*layer = (u8)l;
	return DSR_MTAG_OK;
}

static void fuzz_tag(const u8 *data, size_t size)
{
	struct dsr_mtag_cfg cfg;
	enum dsr_mtag_res r, want;
	const u8 *p = data + CFG_LEN;
	size_t len = size - CFG_LEN, end, cut;
	u8 l, wl = 0xee, l2;

	memset(&cfg, 0, sizeof(cfg));
	cfg.mode = data[0] & 1;
	cfg.layers = data[1];
	cfg.offset = (u16)(data[2] << 8 | data[3]);
	cfg.ext_id = data[4];
	cfg.tids = data[5];
	if (!(data[0] & 0x80)) {	/* mostly a valid configuration */
		cfg.layers = 1 + data[1] % DSR_MTAG_MAX_LAYERS;
		cfg.offset %= 64;
		cfg.ext_id = data[4] ? data[4] : 1;
		if (!(data[0] & 0x40))
			cfg.ext_id = 1 + data[4] % 14;
		cfg.tids = data[5] % (DSR_MTAG_MAX_TIDS + 1);
	} else if (data[0] & 0x40) {
		cfg.mode = data[0] & 0x3f;
	}
	NEED(dsr_mtag_cfg_ok(&cfg) == (ref(&cfg, p, 0, &wl, &end) !=
				       DSR_MTAG_CFG));

	r = get(&cfg, p, len, &l);
	want = ref(&cfg, p, len, &wl, &end);
	if (r != want || (r == DSR_MTAG_OK && l != wl)) {
		fprintf(stderr, "dsr_mtag_get %s layer %u, reference %s %u\n",
			dsr_mtag_res_name(r), l, dsr_mtag_res_name(want), wl);
		abort();
	}
	NEED(dsr_mtag_res_name(r)[0] != '?');
	if (r == DSR_MTAG_CFG)
		return;

	/* once the header is whole, what follows it does not matter */
	if (end && r != DSR_MTAG_TRUNCATED && r != DSR_MTAG_CSRC &&
	    r != DSR_MTAG_EXT_LEN) {
		NEED(end <= len);
		for (cut = end; cut <= len; cut += 1 + (len - cut) / 3) {
			NEED(get(&cfg, p, cut, &l2) == r);
			NEED(r != DSR_MTAG_OK || l2 == l);
		}
	}
	/* the most layers: accepted stays accepted, at the same layer */
	if (r == DSR_MTAG_OK || r == DSR_MTAG_ABOVE) {
		struct dsr_mtag_cfg all = cfg;

		all.layers = DSR_MTAG_MAX_LAYERS;
		r = get(&all, p, len, &l2);
		NEED(r == DSR_MTAG_OK || r == DSR_MTAG_ABOVE);
		if (want == DSR_MTAG_OK)
			NEED(r == DSR_MTAG_OK && l2 == l);
		else if (r == DSR_MTAG_OK)
			NEED(l2 >= cfg.layers);
	}
}

/* ---- the tree ------------------------------------------------------ */

#define GROUPS		3
#define CHILDREN	4
#define MAX_OPS		64

/* few addresses, so that operations meet; some not allowed */
static __be32 pool_node(u8 b)
{
	static const u8 a[8][4] = {
		{ 10, 0, 0, 1 }, { 10, 0, 0, 2 }, { 10, 0, 0, 3 },
		{ 10, 0, 0, 4 }, { 10, 0, 0, 5 }, { 10, 0, 0, 6 },
		{ 0, 0, 0, 0 }, { 255, 255, 255, 255 },
	};

	return ah_get_addr(a[b & 7]);
}

static __be32 pool_group(u8 b)
{
	static const u8 a[8][4] = {
		{ 239, 1, 1, 1 }, { 239, 1, 1, 2 }, { 239, 1, 1, 3 },
		{ 232, 0, 0, 9 }, { 239, 1, 1, 1 }, { 224, 0, 0, 1 },
		{ 10, 0, 0, 1 }, { 0, 0, 0, 0 },
	};

	return ah_get_addr(a[b & 7]);
}

struct state {
	struct dsr_mt_table t;
	u64 now, calls;
};

static bool live(const struct dsr_mt_child *c, u64 now)
{
	return c->expires > now;
}

static const struct dsr_mt_child *find_child(const struct dsr_mt_group *g,
					     __be32 a)
{
	unsigned int i;

	for (i = 0; i < g->nchild; i++)
		if (g->child[i].addr == a)
			return &g->child[i];
	return NULL;
}

static void check_table(const struct state *s)
{
	const struct dsr_mt_table *t = &s->t;
	unsigned int i, j, k, used = 0;
	u64 sum = 0;

	for (i = 0; i < __DSR_MT_RES_MAX; i++)
		sum += t->count[i];
	NEED(sum == s->calls);
	for (i = 0; i < t->max_groups; i++) {
		const struct dsr_mt_group *g = &t->g[i];

		NEED(g->child == &t->c[i * t->max_children]);
		if (!g->group) {
			NEED(!g->source && !g->upstream && !g->local &&
			     !g->level && !g->igmp && !g->asked &&
			     !g->nchild);
			for (j = 0; j < t->max_children; j++)
				NEED(!g->child[j].addr);
			continue;
		}
		used++;
		NEED(ah_addr_multicast(g->group) && ah_addr_routable(g->source));
		NEED(g->local <= t->p.max_layers &&
		     g->asked <= t->p.max_layers);
		NEED(g->local == (g->level ? g->level :
				  g->igmp ? t->p.max_layers : 0));
		NEED(g->nchild <= t->max_children);
		for (j = 0; j < t->max_children; j++) {
			const struct dsr_mt_child *c = &g->child[j];

			if (j >= g->nchild) {
				NEED(!c->addr && !c->expires);
				continue;
			}
			NEED(ah_addr_routable(c->addr));
			NEED(c->addr != g->source && c->addr != g->upstream);
			NEED(c->layers >= 1 && c->layers <= t->p.max_layers);
			for (k = 0; k < j; k++)
				NEED(g->child[k].addr != c->addr);
		}
		for (k = 0; k < i; k++)
			NEED(!(t->g[k].group == g->group &&
			       t->g[k].source == g->source));
	}
	NEED(used == t->ngroups && used <= t->max_groups);
}

static void check_fanout(struct state *s, struct dsr_mt_group *g, u8 layer)
{
	struct dsr_mt_copy out[CHILDREN + DSR_MT_SLAVES];
	struct dsr_mt_slave sl[DSR_MT_SLAVES];
	unsigned int n, ns, i, j;
	u8 want = g->local;

	for (i = 0; i < g->nchild; i++)
		if (live(&g->child[i], s->now) && g->child[i].layers > want)
			want = g->child[i].layers;
	NEED(dsr_mt_want(&s->t, g, s->now) == want);
	NEED(dsr_mt_deliver(g, layer) == (layer < g->local));

	ns = dsr_mt_slaves(&s->t, g, s->now, sl, DSR_MT_SLAVES);
	n = dsr_mt_fanout(&s->t, g, layer, s->now, out, ARRAY_SIZE(out));
	NEED(n <= CHILDREN);
	for (i = 0; i < ns; i++) {
		unsigned int cnt = 0;
		u8 most = 0;

		for (j = 0; j < g->nchild; j++) {
			const struct dsr_mt_child *c = &g->child[j];

			if (live(c, s->now) && c->slave == sl[i].slave) {
				cnt++;
				if (c->layers > most)
					most = c->layers;
			}
		}
		NEED(cnt == sl[i].children && most == sl[i].layers);
		NEED(sl[i].bcast == (s->t.p.bcast_min &&
				     cnt >= s->t.p.bcast_min));
	}
	/*
	 * each live child that wants the layer gets one copy: its own, or
	 * its slave's broadcast (which children not wanting it hear too)
	 */
	for (j = 0; j < g->nchild; j++) {
		const struct dsr_mt_child *c = &g->child[j];
		unsigned int uni = 0, bc = 0;
		bool wants = live(c, s->now) && layer < c->layers;

		for (i = 0; i < n; i++) {
			if (out[i].bcast)
				bc += out[i].slave == c->slave;
			else
				uni += out[i].to == c->addr;
		}
		NEED(uni <= 1 && bc <= 1);
		NEED(!wants || uni + bc == 1);
		NEED(wants || !uni);
	}
	for (i = 0; i < n; i++) {
		if (out[i].bcast) {
			NEED(!out[i].to && layer < out[i].layers);
			for (j = 0; j < ns && sl[j].slave != out[i].slave; j++)
				;
			NEED(j < ns && sl[j].bcast &&
			     sl[j].layers == out[i].layers);
		} else {
			const struct dsr_mt_child *c = find_child(g, out[i].to);

			NEED(c && live(c, s->now) && layer < c->layers &&
			     c->slave == out[i].slave &&
			     c->layers == out[i].layers);
		}
	}
}

static void op_join(struct state *s, struct input *in)
{
	u8 a = next(in), b = next(in);
	__be32 src = pool_node(a >> 5), grp = pool_group(a >> 2);
	__be32 ch = pool_node(b);
	u8 layers = b >> 3, slave = (a & 3);
	struct dsr_mt_group *g = dsr_mt_find(&s->t, src, grp);
	unsigned int before = s->t.ngroups;
	enum dsr_mt_res r;

	if (next(in) & 1)
		layers = next(in);
	r = dsr_mt_join(&s->t, src, grp, ch, slave, layers, s->now);
	s->calls++;
	NEED(r < __DSR_MT_RES_MAX);
	if (r == DSR_MT_OK) {
		const struct dsr_mt_child *c;

		g = dsr_mt_find(&s->t, src, grp);
		NEED(g);
		c = find_child(g, ch);
		NEED(c && c->layers == layers && c->slave == slave &&
		     c->expires == s->now + DSR_MT_HOLD * DSR_MT_REFRESH_MS);
		return;
	}
	/* refused: no group appeared */
	NEED(s->t.ngroups == before);
	NEED(g || !dsr_mt_find(&s->t, src, grp));
	if (r == DSR_MT_BAD_LAYERS)
		NEED(!layers || layers > s->t.p.max_layers);
	if (r == DSR_MT_LOOP)
		NEED(g && g->upstream == ch);
	if (r == DSR_MT_CHILDREN_FULL)
		NEED(g && g->nchild == s->t.max_children && !find_child(g, ch));
}

static void op_leave(struct state *s, struct input *in)
{
	u8 a = next(in);
	__be32 src = pool_node(a >> 5), grp = pool_group(a >> 2);
	__be32 ch = pool_node(next(in));
	struct dsr_mt_group *g = dsr_mt_find(&s->t, src, grp);
	bool was = g && find_child(g, ch);
	enum dsr_mt_res r;

	r = dsr_mt_leave(&s->t, src, grp, ch);
	s->calls++;
	NEED((r == DSR_MT_OK) == was);
	if (g)
		NEED(!find_child(g, ch));
}

static void op_local(struct state *s, struct input *in)
{
	u8 a = next(in), layers = next(in) % 40;
	__be32 src = pool_node(a >> 5), grp = pool_group(a >> 2);
	struct dsr_mt_group *g;
	enum dsr_mt_res r;

	r = dsr_mt_local(&s->t, src, grp, layers, s->now);
	s->calls++;
	g = dsr_mt_find(&s->t, src, grp);
	if (r == DSR_MT_OK)
		NEED(layers ? g && g->local == layers : !g || !g->local);
}

static void op_upstream(struct state *s, struct input *in)
{
	u8 a = next(in), l;
	struct dsr_mt_group *g = dsr_mt_find(&s->t, pool_node(a >> 5),
					     pool_group(a >> 2));
	u8 was, want;
	enum dsr_mt_up u;

	if (!g)
		return;
	was = g->asked;
	want = dsr_mt_want(&s->t, g, s->now);
	if (a & 1) {
		u = dsr_mt_refresh(&s->t, g, s->now, &l);
		NEED(g->asked == want);
	} else {
		u = dsr_mt_upstream(&s->t, g, s->now, &l);
		NEED(g->asked == (want > was ? want : was));
	}
	NEED(l == want);
	NEED(u == (want > was ? DSR_MT_UP_RISE :
		   want < was ? DSR_MT_UP_FALL : DSR_MT_UP_SAME));
	if (a & 2) {
		__be32 up = pool_node(next(in));
		bool changed = g->upstream != up;

		NEED(dsr_mt_set_upstream(g, up) == changed);
		NEED(g->upstream == up);
		if (changed)
			NEED(!g->asked);
		if (up)
			NEED(!find_child(g, up));
	}
}

static void fuzz_tree(const u8 *data, size_t size)
{
	struct input in = { data, size, 0 };
	struct dsr_mt_params p;
	struct state s;
	unsigned int ops;

	memset(&s, 0, sizeof(s));
	dsr_mt_params_default(&p);
	p.max_layers = 33;
	p.bcast_min = next(&in) % 4;
	if (dsr_mt_init(&s.t, GROUPS, CHILDREN, &p))
		abort();
	for (ops = 0; ops < MAX_OPS && in.pos < in.n; ops++) {
		u8 b = next(&in);

		s.now += (b >> 4) * 250u;	/* joins do expire */
		switch (b & 7) {
		case 0: case 1: case 2:
			op_join(&s, &in);
			break;
		case 3:
			op_leave(&s, &in);
			break;
		case 4:
			op_local(&s, &in);
			break;
		case 5: {
			unsigned int before = 0, after = 0, gone, k;

			for (k = 0; k < s.t.max_groups; k++)
				before += s.t.g[k].nchild;
			gone = dsr_mt_expire(&s.t, s.now);
			for (k = 0; k < s.t.max_groups; k++)
				after += s.t.g[k].nchild;
			NEED(before - after == gone);
			break;
		}
		case 6:
			op_upstream(&s, &in);
			break;
		default: {
			u8 a = next(&in);
			struct dsr_mt_group *g;

			g = dsr_mt_find(&s.t, pool_node(a >> 5),
					pool_group(a >> 2));
			if (g)
				check_fanout(&s, g, next(&in) % 40);
			break;
		}
		}
		check_table(&s);
	}
	dsr_mt_destroy(&s.t);
}

/*
 * The input read as a join (mjoin.h): a refusal leaves the result alone;
 * an accepted join has a valid tag, and written again gives the first
 * DSR_MJ_LEN bytes back but the reserved ones.
 */
static void fuzz_join(const uint8_t *data, size_t size)
{
	struct dsr_mjoin j, untouched;
	enum dsr_mj_res r;
	u8 b[DSR_MJ_LEN];

	memset(&j, 0x5a, sizeof(j));
	untouched = j;
	r = dsr_mjoin_get(data, size, &j);
	if (r != DSR_MJ_OK) {
		if (r >= __DSR_MJ_RES_MAX || memcmp(&j, &untouched, sizeof(j)))
			abort();
		if ((size < DSR_MJ_LEN) != (r == DSR_MJ_SHORT))
			abort();
		return;
	}
	if (size < DSR_MJ_LEN || !dsr_mtag_cfg_ok(&j.tag))
		abort();
	dsr_mjoin_put(b, &j);
	if (memcmp(b, data, 16) || b[16] || b[17] || b[18] || b[19])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_join(data, size);
	if (size < CFG_LEN)
		return 0;
	fuzz_tag(data, size);
	fuzz_tree(data, size);
	return 0;
}
