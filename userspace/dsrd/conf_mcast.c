// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config: [mcast] (docs/dsrd.conf.5), a join of the node's local
 * receivers to a layered multicast group (docs/mcast.md): the keys are
 * the words of "ahctl dsr mcast join", whose values, defaults and checks
 * are the common library's (common/dsr_mcast.c), so the file takes what
 * ahctl takes.  Chain is the words of "ahctl dsr mcast chain" after the
 * group's, checked by the same parser, the module's rules with them.
 * Whether the kernel takes the join is the apply step's to see.
 *
 * [mcast.map]: the source map of "ahctl dsr mcast map", a section a
 * group: Group, and a Source line for each of its mapped sources, the
 * values checked as ahctl checks them.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "conf_parse.h"
#include "dsr_mcast.h"

/* The keys, in the order of mc_keys[] (their index in p->key_line[]) */
enum {
	K_SOURCE,
	K_GROUP,
	K_LAYERS,
	K_TAG,
	K_OFFSET,
	K_ID,
	K_TIDS,
	K_GROUP_LAYERS,
	K_CHAIN,	/* not a field of the join: the keys above are */
	__K_MAX,
};

_Static_assert(__K_MAX <= MAX_KEYS, "MAX_KEYS");

/* Each join key's attribute, whose field (ahctl's keyword) says its values */
static const int mc_key_ids[K_CHAIN] = {
	[K_SOURCE] = DSR_A_MC_SOURCE,
	[K_GROUP] = DSR_A_MC_GROUP,
	[K_LAYERS] = DSR_A_MC_LAYERS,
	[K_TAG] = DSR_A_MC_TAG_MODE,
	[K_OFFSET] = DSR_A_MC_TAG_OFFSET,
	[K_ID] = DSR_A_MC_TAG_EXT_ID,
	[K_TIDS] = DSR_A_MC_TAG_TIDS,
	[K_GROUP_LAYERS] = DSR_A_MC_TAG_LAYERS,
};

static const char *addr_str(uint32_t be, char buf[INET_ADDRSTRLEN])
{
	struct in_addr in = { .s_addr = be };

	return inet_ntop(AF_INET, &in, buf, INET_ADDRSTRLEN) ? buf : "?";
}

/* One (Source, Group) a section: the second key of the pair checks it. */
static int mc_unique(struct parser *p)
{
	const struct dsr_mc_req *r = &cur_mc(p)->req;
	char s[INET_ADDRSTRLEN], g[INET_ADDRSTRLEN];
	const struct conf_mcast *o;
	size_t i;

	if (!dsr_mc_has(r, DSR_A_MC_SOURCE) || !dsr_mc_has(r, DSR_A_MC_GROUP))
		return 0;
	for (i = 0; i + 1 < p->c->nmc; i++) {
		o = &p->c->mc[i];
		if (dsr_mc_same_group(&o->req, r))
			return perr(p, "a [mcast] for source %s group %s already exists (line %u)",
				    addr_str(dsr_mc_get(r, DSR_A_MC_SOURCE), s),
				    addr_str(dsr_mc_get(r, DSR_A_MC_GROUP), g),
				    o->line);
	}
	return 0;
}

/* @v, the value of @key, refused by dsr_mc_value() as @r: its message */
static int mc_value_err(struct parser *p, const struct dsr_mc_field *f,
			const char *key, const char *v, enum dsr_mc_bad r)
{
	switch (r) {
	case DSR_MC_BAD_SOURCE:
		return perr(p, "invalid %s '%s' (" DSR_MC_SOURCE_RULE ")", key,
			    v);
	case DSR_MC_BAD_GROUP:
		return perr(p, "invalid %s '%s' (" DSR_MC_GROUP_RULE ")", key,
			    v);
	case DSR_MC_BAD_NUM:
		return perr(p, "invalid %s '%s' (%s, %" PRIu32 "..%" PRIu32 ")",
			    key, v, f->what, f->min, f->max);
	case DSR_MC_BAD_MODE:
		return perr(p, "invalid %s '%s' (" DSR_MC_MODE_RULE ")", key,
			    v);
	default:
		return perr(p, "invalid %s '%s' (an IPv4 address A.B.C.D)",
			    key, v);
	}
}

static int mc_key(struct parser *p, int k, const char *v)
{
	const struct dsr_mc_field *f = dsr_mc_field_id(mc_key_ids[k]);
	const char *key = mc_keys[k].name;
	enum dsr_mc_bad r;
	uint32_t x;

	r = dsr_mc_value(f, v, &x);
	if (r != DSR_MC_VALUE_OK)
		return mc_value_err(p, f, key, v, r);
	dsr_mc_set(&cur_mc(p)->req, f->id, x);
	return k == K_SOURCE || k == K_GROUP ? mc_unique(p) : 0;
}

static int mc_source(struct parser *p, char *v)
{
	return mc_key(p, K_SOURCE, v);
}

static int mc_group(struct parser *p, char *v)
{
	return mc_key(p, K_GROUP, v);
}

static int mc_layers(struct parser *p, char *v)
{
	return mc_key(p, K_LAYERS, v);
}

static int mc_tag(struct parser *p, char *v)
{
	return mc_key(p, K_TAG, v);
}

static int mc_offset(struct parser *p, char *v)
{
	return mc_key(p, K_OFFSET, v);
}

static int mc_id(struct parser *p, char *v)
{
	return mc_key(p, K_ID, v);
}

static int mc_tids(struct parser *p, char *v)
{
	return mc_key(p, K_TIDS, v);
}

static int mc_group_layers(struct parser *p, char *v)
{
	return mc_key(p, K_GROUP_LAYERS, v);
}

/* The words of @v (split at blanks, in place) into *@argv, their number */
static int mc_words(char *v, char ***argv)
{
	char *save = NULL, *w;
	int n = 0;

	/* at most a word each two characters (one and its blank) */
	*argv = malloc((strlen(v) / 2 + 1) * sizeof(**argv));
	if (!*argv)
		return -1;
	w = strtok_r(v, " \t", &save);
	while (w) {
		(*argv)[n++] = w;
		w = strtok_r(NULL, " \t", &save);
	}
	return n;
}

/*
 * Chain = ELEMENT... | default: dsr_mc_chain_parse(), as "ahctl dsr mcast
 * chain" parses the words after the group, its messages after "Chain: "
 */
static int mc_chain_words(struct parser *p, int argc, char **argv)
{
	struct conf_mcast *mc = cur_mc(p);
	enum dsr_mc_chain_problem pr;
	char msg[256];
	int at;

	pr = dsr_mc_chain_parse(argc, argv, &mc->chain, &at);
	if (pr == DSR_MC_CHAIN_OK) {
		mc->has_chain = true;
		return 0;
	}
	dsr_mc_chain_msg(pr, argc, argv, at, msg, sizeof(msg));
	return perr(p, "Chain: %s", msg);
}

static int mc_chain(struct parser *p, char *v)
{
	char **argv;
	int argc = mc_words(v, &argv), ret;

	if (argc < 0)
		return perr(p, "out of memory");
	ret = mc_chain_words(p, argc, argv);
	free(argv);
	return ret;
}

const struct key mc_keys[] = {
	[K_SOURCE] = { "Source", false, mc_source },
	[K_GROUP] = { "Group", false, mc_group },
	[K_LAYERS] = { "Layers", false, mc_layers },
	[K_TAG] = { "Tag", false, mc_tag },
	[K_OFFSET] = { "Offset", false, mc_offset },
	[K_ID] = { "Id", false, mc_id },
	[K_TIDS] = { "Tids", false, mc_tids },
	[K_GROUP_LAYERS] = { "GroupLayers", false, mc_group_layers },
	[K_CHAIN] = { "Chain", false, mc_chain },
	[__K_MAX] = { NULL, false, NULL },
};

/*
 * What is missing is the section's line's; two keys that do not go
 * together, the line of the later one (p->key_line[]: the section's keys
 * are still there when it ends).
 */
int mc_finish(struct parser *p, struct conf_mcast *mc)
{
	const unsigned int *kl = p->key_line;
	unsigned int l;

	switch (dsr_mc_check(&mc->req, true)) {
	case DSR_MC_REQ_OK:
		break;
	case DSR_MC_NO_SOURCE:
		return perr_at(p, mc->line, "[mcast] without Source");
	case DSR_MC_NO_GROUP:
		return perr_at(p, mc->line, "[mcast] without Group");
	case DSR_MC_NO_LAYERS:
		return perr_at(p, mc->line, "[mcast] without Layers");
	case DSR_MC_OFFSET_NOT_BYTE:
		return perr_at(p, kl[K_OFFSET], "Offset needs Tag = byte");
	case DSR_MC_ID_NOT_RTP:
		return perr_at(p, kl[K_ID], "Id needs Tag = rtp");
	case DSR_MC_TIDS_NOT_RTP:
		return perr_at(p, kl[K_TIDS], "Tids needs Tag = rtp");
	case DSR_MC_LAYERS_ABOVE:
		l = kl[K_LAYERS] > kl[K_GROUP_LAYERS] ? kl[K_LAYERS] :
		    kl[K_GROUP_LAYERS];
		return perr_at(p, l, "Layers %" PRIu32 " is more than GroupLayers %" PRIu32 " (lines %u and %u)",
			       dsr_mc_get(&mc->req, DSR_A_MC_LAYERS),
			       dsr_mc_get(&mc->req, DSR_A_MC_TAG_LAYERS),
			       kl[K_LAYERS], kl[K_GROUP_LAYERS]);
	}
	dsr_mc_tag_defaults(&mc->req);
	return 0;
}

/* ---- [mcast.map] --------------------------------------------------------- */

enum {
	M_GROUP,
	M_SOURCE,
	__M_MAX,
};

_Static_assert(__M_MAX <= MAX_KEYS, "MAX_KEYS");

/* @v as the value of ahctl's keyword for @id (group or source) */
static int mm_addr(struct parser *p, int id, const char *key, const char *v,
		   uint32_t *out)
{
	const struct dsr_mc_field *f = dsr_mc_field_id(id);
	enum dsr_mc_bad r = dsr_mc_value(f, v, out);

	return r == DSR_MC_VALUE_OK ? 0 : mc_value_err(p, f, key, v, r);
}

static int mm_group(struct parser *p, char *v)
{
	struct conf_mcmap *mm = cur_mm(p);
	char g[INET_ADDRSTRLEN];
	size_t i;

	if (mm_addr(p, DSR_A_MC_GROUP, "Group", v, &mm->group))
		return -1;
	for (i = 0; i + 1 < p->c->nmm; i++)
		if (p->c->mm[i].group == mm->group)
			return perr(p, "a [mcast.map] for group %s already exists (line %u)",
				    addr_str(mm->group, g), p->c->mm[i].line);
	return 0;
}

static int mm_source(struct parser *p, char *v)
{
	struct conf_mcmap *mm = cur_mm(p);
	char s[INET_ADDRSTRLEN];
	uint32_t a;
	size_t i;

	if (mm_addr(p, DSR_A_MC_SOURCE, "Source", v, &a))
		return -1;
	for (i = 0; i < mm->nsource; i++)
		if (mm->source[i] == a)
			return perr(p, "Source %s given twice in this section (first at line %u)",
				    addr_str(a, s), mm->source_line[i]);
	if (mm->nsource == DSR_MC_MAP_SOURCES)
		return perr(p, "more than %d Source lines (the sources a group of the map takes)",
			    DSR_MC_MAP_SOURCES);
	mm->source_line[mm->nsource] = p->line;
	mm->source[mm->nsource++] = a;
	return 0;
}

const struct key mm_keys[] = {
	[M_GROUP] = { "Group", false, mm_group },
	[M_SOURCE] = { "Source", true, mm_source },
	[__M_MAX] = { NULL, false, NULL },
};

int mm_finish(struct parser *p, struct conf_mcmap *mm)
{
	if (!p->key_line[M_GROUP])
		return perr_at(p, mm->line, "[mcast.map] without Group");
	if (!mm->nsource)
		return perr_at(p, mm->line, "[mcast.map] without Source");
	return 0;
}
