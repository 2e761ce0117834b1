// SPDX-License-Identifier: GPL-2.0
/*
 * Layered multicast joins and leaves (dsr_mcast.h), for ahctl's "dsr
 * mcast join|leave" and dsrd's [mcast] sections alike; a group's element
 * chain, for "dsr mcast chain" and "dsr mcast show", checked by the
 * module's own code (kmod/dsr/mchain.c, built in with this file).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "attrs.h"
#include "dsr_mcast.h"
#include "mchain.h"
#include "mtree.h"
#include "names.h"
#include "parse.h"
#include "util.h"

const struct dsr_mc_field dsr_mc_fields[] = {
#define F(k, a, kd, ...) \
	{ .kw = k, .id = DSR_A_MC_##a, .kind = kd, __VA_ARGS__ }
	F("source", SOURCE, DSR_MC_ADDR),
	F("group", GROUP, DSR_MC_ADDR),
	F("layers", LAYERS, DSR_MC_NUM, .min = 1, .max = DSR_MC_MAX_LAYERS,
	  .what = "the layers wanted", .join = true),
	F("tag", TAG_MODE, DSR_MC_MODE, .join = true),
	F("offset", TAG_OFFSET, DSR_MC_NUM, .min = 0, .max = UINT16_MAX,
	  .what = "of the tag byte in the UDP payload", .join = true),
	F("id", TAG_EXT_ID, DSR_MC_NUM, .min = 1, .max = UINT8_MAX,
	  .what = "the RTP header extension id of the frame marking element",
	  .join = true),
	F("tids", TAG_TIDS, DSR_MC_NUM, .min = 0, .max = DSR_MC_MAX_TIDS,
	  .what = "temporal layers a layer id", .join = true),
	F("group-layers", TAG_LAYERS, DSR_MC_NUM, .min = 1,
	  .max = DSR_MC_MAX_LAYERS, .what = "the group's layers",
	  .join = true),
#undef F
};

const size_t dsr_mc_nfields = ARRAY_SIZE(dsr_mc_fields);

const struct dsr_mc_field *dsr_mc_field_kw(const char *kw)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dsr_mc_fields); i++)
		if (!strcmp(kw, dsr_mc_fields[i].kw))
			return &dsr_mc_fields[i];
	return NULL;
}

const struct dsr_mc_field *dsr_mc_field_id(int id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dsr_mc_fields); i++)
		if (dsr_mc_fields[i].id == id)
			return &dsr_mc_fields[i];
	return NULL;
}

/* ---- values -------------------------------------------------------------- */

/* As the module takes them (kmod/dsr/mtree.c): a routable unicast source */
static bool source_ok(uint32_t be)
{
	uint8_t o = (uint8_t)(ntohl(be) >> 24);

	return o != 0 && o != 127 && o < 224;
}

/* ... and a routed multicast group: 224/4 but the link-local 224.0.0/24 */
static bool group_ok(uint32_t be)
{
	uint32_t h = ntohl(be);

	return (h >> 28) == 0xe && (h >> 8) != 0xe00000;
}

enum dsr_mc_bad dsr_mc_value(const struct dsr_mc_field *f, const char *s,
			     uint32_t *v)
{
	struct in_addr in;
	size_t i;

	switch (f->kind) {
	case DSR_MC_ADDR:
		if (inet_pton(AF_INET, s, &in) != 1)
			return DSR_MC_BAD_ADDR;
		*v = in.s_addr;
		if (f->id == DSR_A_MC_SOURCE && !source_ok(*v))
			return DSR_MC_BAD_SOURCE;
		if (f->id == DSR_A_MC_GROUP && !group_ok(*v))
			return DSR_MC_BAD_GROUP;
		return DSR_MC_VALUE_OK;
	case DSR_MC_NUM:
		if (parse_u32(s, v) || *v < f->min || *v > f->max)
			return DSR_MC_BAD_NUM;
		return DSR_MC_VALUE_OK;
	case DSR_MC_MODE:
		for (i = 0; i < ARRAY_SIZE(dsr_mc_tag_mode_names); i++)
			if (dsr_mc_tag_mode_names[i] &&
			    !strcmp(s, dsr_mc_tag_mode_names[i])) {
				*v = (uint32_t)i;
				return DSR_MC_VALUE_OK;
			}
		return DSR_MC_BAD_MODE;
	}
	return DSR_MC_BAD_NUM;
}

/* ---- a join as a whole --------------------------------------------------- */

/*
 * The tag's fields need their mode: offset byte's, id and tids rtp's.
 * What is missing first, then what does not go together.
 */
enum dsr_mc_problem dsr_mc_check(const struct dsr_mc_req *r, bool join)
{
	bool tag = dsr_mc_has(r, DSR_A_MC_TAG_MODE);
	uint32_t mode = dsr_mc_get(r, DSR_A_MC_TAG_MODE);

	if (!dsr_mc_has(r, DSR_A_MC_SOURCE))
		return DSR_MC_NO_SOURCE;
	if (!dsr_mc_has(r, DSR_A_MC_GROUP))
		return DSR_MC_NO_GROUP;
	if (!join)
		return DSR_MC_REQ_OK;
	if (!dsr_mc_has(r, DSR_A_MC_LAYERS))
		return DSR_MC_NO_LAYERS;
	if (dsr_mc_has(r, DSR_A_MC_TAG_OFFSET) &&
	    (!tag || mode != DSR_MC_TAG_BYTE))
		return DSR_MC_OFFSET_NOT_BYTE;
	if (dsr_mc_has(r, DSR_A_MC_TAG_EXT_ID) &&
	    (!tag || mode != DSR_MC_TAG_RTP))
		return DSR_MC_ID_NOT_RTP;
	if (dsr_mc_has(r, DSR_A_MC_TAG_TIDS) &&
	    (!tag || mode != DSR_MC_TAG_RTP))
		return DSR_MC_TIDS_NOT_RTP;
	if (dsr_mc_has(r, DSR_A_MC_TAG_LAYERS) &&
	    dsr_mc_get(r, DSR_A_MC_LAYERS) > dsr_mc_get(r, DSR_A_MC_TAG_LAYERS))
		return DSR_MC_LAYERS_ABOVE;
	return DSR_MC_REQ_OK;
}

void dsr_mc_tag_defaults(struct dsr_mc_req *r)
{
	if (!dsr_mc_has(r, DSR_A_MC_TAG_MODE))
		return;
	switch (dsr_mc_get(r, DSR_A_MC_TAG_MODE)) {
	case DSR_MC_TAG_BYTE:
		if (!dsr_mc_has(r, DSR_A_MC_TAG_OFFSET))
			dsr_mc_set(r, DSR_A_MC_TAG_OFFSET, DSR_MC_DEF_OFFSET);
		break;
	case DSR_MC_TAG_RTP:
		if (!dsr_mc_has(r, DSR_A_MC_TAG_EXT_ID))
			dsr_mc_set(r, DSR_A_MC_TAG_EXT_ID, DSR_MC_DEF_EXT_ID);
		if (!dsr_mc_has(r, DSR_A_MC_TAG_TIDS))
			dsr_mc_set(r, DSR_A_MC_TAG_TIDS, DSR_MC_DEF_TIDS);
		break;
	}
}

bool dsr_mc_tagged(const struct dsr_mc_req *r)
{
	return dsr_mc_has(r, DSR_A_MC_TAG_MODE) ||
	       dsr_mc_has(r, DSR_A_MC_TAG_LAYERS) ||
	       dsr_mc_has(r, DSR_A_MC_TAG_OFFSET) ||
	       dsr_mc_has(r, DSR_A_MC_TAG_EXT_ID) ||
	       dsr_mc_has(r, DSR_A_MC_TAG_TIDS);
}

bool dsr_mc_same_group(const struct dsr_mc_req *a,
		       const struct dsr_mc_req *b)
{
	return dsr_mc_get(a, DSR_A_MC_SOURCE) ==
	       dsr_mc_get(b, DSR_A_MC_SOURCE) &&
	       dsr_mc_get(a, DSR_A_MC_GROUP) == dsr_mc_get(b, DSR_A_MC_GROUP);
}

bool dsr_mc_equal(const struct dsr_mc_req *a, const struct dsr_mc_req *b)
{
	size_t i;

	for (i = 0; i < DSR_MC_N; i++)
		if (a->has[i] != b->has[i] ||
		    (a->has[i] && a->val[i] != b->val[i]))
			return false;
	return true;
}

/* ---- text and requests --------------------------------------------------- */

/* The fields in the order of ahctl's usage line */
static const int str_order[] = {
	DSR_A_MC_SOURCE, DSR_A_MC_GROUP, DSR_A_MC_LAYERS, DSR_A_MC_TAG_MODE,
	DSR_A_MC_TAG_OFFSET, DSR_A_MC_TAG_EXT_ID, DSR_A_MC_TAG_TIDS,
	DSR_A_MC_TAG_LAYERS,
};

void dsr_mc_str(const struct dsr_mc_req *r, bool join, char *buf,
		size_t size)
{
	char a[INET_ADDRSTRLEN];
	const struct dsr_mc_field *f;
	struct in_addr in;
	size_t i, n = 0;
	uint32_t v;
	int k;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(str_order) && n < size; i++) {
		f = dsr_mc_field_id(str_order[i]);
		if (!dsr_mc_has(r, f->id) || (f->join && !join))
			continue;
		v = dsr_mc_get(r, f->id);
		if (f->kind == DSR_MC_ADDR) {
			in.s_addr = v;
			inet_ntop(AF_INET, &in, a, sizeof(a));
			k = snprintf(buf + n, size - n, "%s%s %s", n ? " " : "",
				     f->kw, a);
		} else if (f->kind == DSR_MC_MODE) {
			k = snprintf(buf + n, size - n, "%s%s %s", n ? " " : "",
				     f->kw, NAME_OF(dsr_mc_tag_mode_names, v));
		} else {
			k = snprintf(buf + n, size - n, "%s%s %" PRIu32,
				     n ? " " : "", f->kw, v);
		}
		if (k < 0)
			return;
		n += (size_t)k;
	}
}

int dsr_mc_put(struct nl_msg *msg, const struct dsr_mc_req *r, bool join)
{
	int id, len, err = 0;
	uint32_t v;

	for (id = DSR_MC_FIRST; id <= DSR_MC_LAST && !err; id++) {
		if (!dsr_mc_has(r, id))
			continue;
		if (!join && id != DSR_A_MC_SOURCE && id != DSR_A_MC_GROUP)
			continue;
		v = dsr_mc_get(r, id);
		len = attr_type_len(dsr_family.attrs[id].type);
		if (len == 1)
			err = nla_put_u8(msg, id, (uint8_t)v);
		else if (len == 2)
			err = nla_put_u16(msg, id, (uint16_t)v);
		else
			err = nla_put_u32(msg, id, v);
	}
	return err ? -1 : 0;
}

/* ---- element chains ------------------------------------------------------ */

const char *const dsr_mc_elem_names[__DSR_MC_EL_MAX] = {
	[DSR_MC_EL_TAG] = "tag",
	[DSR_MC_EL_DUP] = "dup",
	[DSR_MC_EL_CAP] = "cap",
	[DSR_MC_EL_FILTER] = "filter",
	[DSR_MC_EL_FANOUT] = "fanout",
};

/* The kind named @s, or DSR_MC_EL_UNSPEC */
static uint8_t elem_kind(const char *s)
{
	uint8_t k;

	for (k = DSR_MC_EL_UNSPEC + 1; k < __DSR_MC_EL_MAX; k++)
		if (dsr_mc_elem_names[k] && !strcmp(s, dsr_mc_elem_names[k]))
			return k;
	return DSR_MC_EL_UNSPEC;
}

/* @s as an integer min..max into *@v */
static bool elem_num(const char *s, uint32_t min, uint32_t max, uint8_t *v)
{
	uint32_t n;

	if (parse_u32(s, &n) || n < min || n > max)
		return false;
	*v = (uint8_t)n;
	return true;
}

enum dsr_mc_chain_problem dsr_mc_chain_parse(int argc, char *const *argv,
					     struct dsr_mc_chain *ch,
					     int *at)
{
	int i, w, word[DSR_MC_CHAIN_MAX];	/* each element's word */
	enum dsr_mc_chain_problem p;
	struct dsr_mc_elem_cfg e;
	size_t bad;

	memset(ch, 0, sizeof(*ch));
	*at = argc;
	if (argc < 1)
		return DSR_MC_CHAIN_EMPTY;
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], DSR_MC_CHAIN_DEFAULT))
			continue;
		*at = i;
		return argc > 1 ? DSR_MC_CHAIN_DEFAULT_MIXED : DSR_MC_CHAIN_OK;
	}
	for (i = 0; i < argc; i++) {
		w = i;
		*at = w;
		e.kind = elem_kind(argv[w]);
		e.arg = 0;
		switch (e.kind) {
		case DSR_MC_EL_UNSPEC:
			return DSR_MC_CHAIN_UNKNOWN;
		case DSR_MC_EL_CAP:
			/* cap N */
			if (++i >= argc) {
				*at = argc;
				return DSR_MC_CHAIN_NO_VALUE;
			}
			*at = i;
			if (!elem_num(argv[i], DSR_MC_CAP_MIN, DSR_MC_CAP_MAX,
				      &e.arg))
				return DSR_MC_CHAIN_BAD_CAP;
			break;
		case DSR_MC_EL_FANOUT:
			/* fanout [bcast N] */
			e.arg = DSR_MC_FANOUT_PARAM;
			if (i + 1 >= argc || strcmp(argv[i + 1], "bcast"))
				break;
			i += 2;
			if (i >= argc) {
				*at = argc;
				return DSR_MC_CHAIN_NO_VALUE;
			}
			*at = i;
			if (!elem_num(argv[i], 0, DSR_MC_BCAST_MAX, &e.arg))
				return DSR_MC_CHAIN_BAD_BCAST;
			break;
		}
		if (ch->n == DSR_MC_CHAIN_MAX) {
			*at = w;
			return DSR_MC_CHAIN_TOO_MANY;
		}
		word[ch->n] = w;
		ch->e[ch->n++] = e;
	}
	/* the module's rules: *at the word of the element at fault */
	p = dsr_mc_chain_check(ch, &bad);
	*at = p == DSR_MC_CHAIN_OK ? argc : word[bad];
	return p;
}

#define MC_ELEMENTS	"tag, dup, cap C, filter, fanout [bcast B]"

void dsr_mc_chain_msg(enum dsr_mc_chain_problem p, int argc,
		      char *const *argv, int at, char *buf, size_t size)
{
	const char *w = at >= 0 && at < argc ? argv[at] : "";

	switch (p) {
	case DSR_MC_CHAIN_OK:
		snprintf(buf, size, "ok");
		return;
	case DSR_MC_CHAIN_EMPTY:
		snprintf(buf, size, "missing ELEMENT... (" MC_ELEMENTS "), or 'default'");
		return;
	case DSR_MC_CHAIN_DEFAULT_MIXED:
		snprintf(buf, size, "'default' is a whole chain: no element with it");
		return;
	case DSR_MC_CHAIN_UNKNOWN:
		snprintf(buf, size, "unknown element '%s' (" MC_ELEMENTS ")", w);
		return;
	case DSR_MC_CHAIN_NO_VALUE:
		snprintf(buf, size, "'%s' needs a value",
			 argc > 0 ? argv[argc - 1] : "");
		return;
	case DSR_MC_CHAIN_BAD_CAP:
		snprintf(buf, size, "invalid cap '%s' (layers that go on, %d..%d)",
			 w, DSR_MC_CAP_MIN, DSR_MC_CAP_MAX);
		return;
	case DSR_MC_CHAIN_BAD_BCAST:
		snprintf(buf, size, "invalid bcast '%s' (children on one slave that get a broadcast, 0..%d)",
			 w, DSR_MC_BCAST_MAX);
		return;
	case DSR_MC_CHAIN_TOO_MANY:
		snprintf(buf, size, "too many elements (at most %d)",
			 DSR_MC_CHAIN_MAX);
		return;
	case DSR_MC_CHAIN_TWICE:
		snprintf(buf, size, "'%s' given twice (each element at most once)", w);
		return;
	case DSR_MC_CHAIN_TAG_FIRST:
		snprintf(buf, size, "'tag' must be the first element");
		return;
	case DSR_MC_CHAIN_FANOUT_LAST:
		snprintf(buf, size, "'fanout' must be the last element ('%s' after it)", w);
		return;
	case DSR_MC_CHAIN_KIND:
	case DSR_MC_CHAIN_ARG:
		break;	/* not of words: the parser's checks come first */
	}
	snprintf(buf, size, "invalid element '%s'", w);
}

/* cap N, which the parser checks for its message, as the module has it */
_Static_assert(DSR_MC_CAP_MAX == DSR_MT_MAX_LAYERS,
	       "cap N: 1..DSR_MT_MAX_LAYERS");

/*
 * The module's answers as problems of a chain: a switch without a
 * default, so that an answer added to enum dsr_mch_res is a warning here
 * (-Wswitch), not a refusal taken for OK
 */
static enum dsr_mc_chain_problem mch_problem(enum dsr_mch_res r)
{
	switch (r) {
	case DSR_MCH_OK:
		return DSR_MC_CHAIN_OK;
	case DSR_MCH_EMPTY:
		return DSR_MC_CHAIN_EMPTY;
	case DSR_MCH_LENGTH:
		return DSR_MC_CHAIN_TOO_MANY;
	case DSR_MCH_KIND:
		return DSR_MC_CHAIN_KIND;
	case DSR_MCH_TWICE:
		return DSR_MC_CHAIN_TWICE;
	case DSR_MCH_TAG_FIRST:
		return DSR_MC_CHAIN_TAG_FIRST;
	case DSR_MCH_FANOUT_LAST:
		return DSR_MC_CHAIN_FANOUT_LAST;
	case DSR_MCH_ARG:
		return DSR_MC_CHAIN_ARG;
	case __DSR_MCH_RES_MAX:
		break;
	}
	/* none of them: refused all the same */
	return DSR_MC_CHAIN_KIND;
}

/* The module's own check (kmod/dsr/mchain.c) of the module's bytes */
enum dsr_mc_chain_problem dsr_mc_chain_check(const struct dsr_mc_chain *ch,
					     size_t *at)
{
	/* DSR_A_MC_CHAIN, as dsr_mc_chain_put() puts it */
	const u8 *attr = (const u8 *)ch->e;
	const size_t el = sizeof(ch->e[0]);
	enum dsr_mch_res r;
	struct dsr_mch v;

	*at = 0;
	/* the default chain: no attribute */
	if (!ch->n)
		return DSR_MC_CHAIN_OK;
	r = dsr_mch_build(attr, ch->n * el, &v);
	/*
	 * Which element, which dsr_mch_build() does not say: it stops at the
	 * first element that breaks a rule, and the rules of element i look
	 * at elements 0..i only, so the shortest prefix it refuses ends with
	 * that element.  A length (too many elements) is of the whole chain.
	 */
	if (r != DSR_MCH_OK && r != DSR_MCH_LENGTH)
		while (*at + 1 < ch->n &&
		       dsr_mch_build(attr, (*at + 1) * el, &v) == DSR_MCH_OK)
			(*at)++;
	return mch_problem(r);
}

int dsr_mc_elem_str(const struct dsr_mc_elem_cfg *e, char *buf, size_t size)
{
	const char *name = e->kind < __DSR_MC_EL_MAX ?
			   dsr_mc_elem_names[e->kind] : NULL;

	if (!name)
		return e->arg ? snprintf(buf, size, "unknown-%u %u", e->kind,
					 e->arg) :
				snprintf(buf, size, "unknown-%u", e->kind);
	if (e->kind == DSR_MC_EL_FANOUT)
		return e->arg == DSR_MC_FANOUT_PARAM ?
		       snprintf(buf, size, "%s", name) :
		       snprintf(buf, size, "%s bcast %u", name, e->arg);
	/* cap's; tag, dup and filter have none (0), shown if not */
	if (e->kind == DSR_MC_EL_CAP || e->arg)
		return snprintf(buf, size, "%s %u", name, e->arg);
	return snprintf(buf, size, "%s", name);
}

int dsr_mc_chain_put(struct nl_msg *msg, const struct dsr_mc_chain *ch)
{
	if (!ch->n)
		return 0;
	return nla_put(msg, DSR_A_MC_CHAIN, (int)(ch->n * sizeof(ch->e[0])),
		       ch->e) ? -1 : 0;
}
