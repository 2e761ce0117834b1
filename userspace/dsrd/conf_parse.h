/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the config parser: its state and the helpers the sections share
 * (conf.c), and what each family's sections give it (conf_dsr.c,
 * conf_macfilter.c, conf_transit.c, conf_slice.c, conf_mcast.c).
 */
#ifndef DSRD_CONF_PARSE_H
#define DSRD_CONF_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "conf.h"

enum section {
	S_NONE,
	S_DSR,
	S_DSR_PARAMS,
	S_MACFILTER,
	S_TRANSIT,
	S_SLICE,
	S_MCAST,
	S_MCAST_MAP,
	S_LOG,
	__S_MAX,
};

#define MAX_KEYS	9	/* daemon keys of one section */

struct parser {
	struct conf *c;
	const char *name;
	const char *basedir;
	unsigned int line;
	enum section sect;
	unsigned int sect_line;
	unsigned int first[__S_MAX];	/* line of each section's first */
	unsigned int key_line[MAX_KEYS];	/* current section's keys */
	char *err;
	size_t errlen;
};

/* "NAME:LINE: message" into p->err (no LINE if @line is 0); -1 */
int perr_at(struct parser *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define perr(p, ...)	perr_at(p, (p)->line, __VA_ARGS__)

static inline struct conf_macfilter *cur_mf(struct parser *p)
{
	return &p->c->mf[p->c->nmf - 1];
}

static inline struct conf_transit *cur_tr(struct parser *p)
{
	return &p->c->tr[p->c->ntr - 1];
}

static inline struct conf_slice *cur_sl(struct parser *p)
{
	return &p->c->sl[p->c->nsl - 1];
}

static inline struct conf_mcast *cur_mc(struct parser *p)
{
	return &p->c->mc[p->c->nmc - 1];
}

static inline struct conf_mcmap *cur_mm(struct parser *p)
{
	return &p->c->mm[p->c->nmm - 1];
}

/* Values: 0, or -1 with the error in p->err */
int parse_uint(struct parser *p, const char *key, const char *s,
	       uint32_t min, uint32_t max, uint32_t *v);
int parse_bool(const char *s, bool *b);
int parse_ifname(struct parser *p, const char *key, const char *s,
		 char buf[IFNAMSIZ]);

/* Parameter @i of @ps is @v (u32_param: the text @v), once. */
int set_param(struct parser *p, struct conf_params *ps, int i,
	      const char *name, uint32_t v);
int u32_param(struct parser *p, struct conf_params *ps, int i,
	      const char *name, const char *v);

struct key {
	const char *name;
	bool repeat;
	int (*parse)(struct parser *p, char *v);
};

/* The keys of [dsr], [macfilter], [transit], [slice], [mcast] and
 * [mcast.map]; a NULL name ends each. */
extern const struct key dsr_keys[];
extern const struct key mf_keys[];
extern const struct key tr_keys[];
extern const struct key sl_keys[];
extern const struct key mc_keys[];
extern const struct key mm_keys[];

/* A parameter of [dsr.params], or of [transit] (any other key). */
int dsr_param(struct parser *p, const char *key, const char *v);
int tr_param(struct parser *p, const char *key, const char *v);

/* The checks when a [macfilter], [slice], [mcast] or [mcast.map] ends
 * (mc_finish: what a join lacks, fields that do not go together, the
 * tag's defaults; mm_finish: a group and a source), and when the file
 * does (check_slices: no lease of an interface the node uses itself). */
int mf_finish(struct parser *p, struct conf_macfilter *mf);
int sl_finish(struct parser *p, struct conf_slice *sl);
int mc_finish(struct parser *p, struct conf_mcast *mc);
int mm_finish(struct parser *p, struct conf_mcmap *mm);
int check_gateway(struct parser *p);
int check_slices(struct parser *p);

#endif /* DSRD_CONF_PARSE_H */
