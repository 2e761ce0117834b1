/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A layered multicast join or leave of a dsr device (DSR_CMD_MCAST_JOIN,
 * DSR_CMD_MCAST_LEAVE; docs/mcast.md), as "ahctl dsr mcast join|leave"
 * takes it from its command line and dsrd from the [mcast] sections of
 * its config: the fields (each an attribute, DSR_A_MC_*), the check of
 * each value and of a join as a whole, the tag's defaults, and the
 * attributes put into the request.  Each tool words its messages from
 * what the checks return.  Also a group's element chain
 * (DSR_CMD_MCAST_CHAIN, "ahctl dsr mcast chain"): its words, the module's
 * rules, its text and its attribute.
 */
#ifndef AH_DSR_MCAST_H
#define AH_DSR_MCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ah_dsr.h>

struct nl_msg;

/*
 * The module's limits: the most layers a group has and a join asks for
 * (DSR_MTAG_MAX_LAYERS), the most temporal layers a layer id in RTP mode
 * (DSR_MTAG_MAX_TIDS), the most groups of a device (DSR_MC_GROUPS)
 */
#define DSR_MC_MAX_LAYERS	128
#define DSR_MC_MAX_TIDS		8
#define DSR_MC_MAX_GROUPS	64

/* A join that gives tag MODE sends its mode's fields, these if not given */
#define DSR_MC_DEF_OFFSET	0
#define DSR_MC_DEF_EXT_ID	1
#define DSR_MC_DEF_TIDS		0

/* The fields: attributes DSR_MC_FIRST..DSR_MC_LAST (a join's and a dump's) */
#define DSR_MC_FIRST	DSR_A_MC_SOURCE
#define DSR_MC_LAST	DSR_A_MC_TAG_TIDS
#define DSR_MC_N	(DSR_MC_LAST - DSR_MC_FIRST + 1)

enum dsr_mc_kind {
	DSR_MC_ADDR,	/* A.B.C.D */
	DSR_MC_NUM,	/* min..max */
	DSR_MC_MODE,	/* byte|rtp */
};

/* A field of a join or leave */
struct dsr_mc_field {
	int id;			/* DSR_A_MC_* */
	const char *kw;		/* ahctl's keyword (the attribute's label) */
	enum dsr_mc_kind kind;
	uint32_t min, max;	/* DSR_MC_NUM */
	const char *what;	/* of a number, for its error */
	bool join;		/* join's only (a leave: source and group) */
};

/* source, group, layers, tag, offset, id, tids, group-layers */
extern const struct dsr_mc_field dsr_mc_fields[];
extern const size_t dsr_mc_nfields;

/* The field of ahctl's keyword @kw, or of attribute @id; NULL if none */
const struct dsr_mc_field *dsr_mc_field_kw(const char *kw);
const struct dsr_mc_field *dsr_mc_field_id(int id);

/* What is wrong with a value */
enum dsr_mc_bad {
	DSR_MC_VALUE_OK,
	DSR_MC_BAD_ADDR,	/* not A.B.C.D */
	DSR_MC_BAD_SOURCE,	/* not a routable unicast address */
	DSR_MC_BAD_GROUP,	/* not a routed multicast group */
	DSR_MC_BAD_NUM,		/* not an integer min..max */
	DSR_MC_BAD_MODE,	/* not byte or rtp */
};

/* ... in the words of the messages, after the value */
#define DSR_MC_SOURCE_RULE \
	"a unicast address: not 0.0.0.0/8, 127.0.0.0/8, nor 224.0.0.0 or above"
#define DSR_MC_GROUP_RULE \
	"a multicast group, 224.0.1.0 to 239.255.255.255: " \
	"224.0.0.0/24 is link-local"
#define DSR_MC_MODE_RULE	"byte or rtp"

/* @s as the value of @f into *@v (an address in network byte order) */
enum dsr_mc_bad dsr_mc_value(const struct dsr_mc_field *f, const char *s,
			     uint32_t *v);

/* A join or a leave: the fields given */
struct dsr_mc_req {
	bool has[DSR_MC_N];
	uint32_t val[DSR_MC_N];
};

static inline bool dsr_mc_has(const struct dsr_mc_req *r, int id)
{
	return r->has[id - DSR_MC_FIRST];
}

static inline uint32_t dsr_mc_get(const struct dsr_mc_req *r, int id)
{
	return r->val[id - DSR_MC_FIRST];
}

static inline void dsr_mc_set(struct dsr_mc_req *r, int id, uint32_t v)
{
	r->has[id - DSR_MC_FIRST] = true;
	r->val[id - DSR_MC_FIRST] = v;
}

/* What a join or leave lacks, or two fields that do not go together */
enum dsr_mc_problem {
	DSR_MC_REQ_OK,
	DSR_MC_NO_SOURCE,
	DSR_MC_NO_GROUP,
	DSR_MC_NO_LAYERS,	/* a join's */
	DSR_MC_OFFSET_NOT_BYTE,	/* offset without tag byte */
	DSR_MC_ID_NOT_RTP,	/* id without tag rtp */
	DSR_MC_TIDS_NOT_RTP,	/* tids without tag rtp */
	DSR_MC_LAYERS_ABOVE,	/* layers above group-layers */
};

/* The first problem of @r (a join if @join), in that order */
enum dsr_mc_problem dsr_mc_check(const struct dsr_mc_req *r, bool join);

/* A join with tag MODE: the mode's fields not given get their defaults */
void dsr_mc_tag_defaults(struct dsr_mc_req *r);

/* Whether @r gives a field of the tag (the group's tag is replaced then) */
bool dsr_mc_tagged(const struct dsr_mc_req *r);

/* The same (source, group); the same fields with the same values */
bool dsr_mc_same_group(const struct dsr_mc_req *a,
		       const struct dsr_mc_req *b);
bool dsr_mc_equal(const struct dsr_mc_req *a, const struct dsr_mc_req *b);

/*
 * "source S group G[ layers N[ tag MODE ...][ group-layers M]]" (ahctl's
 * words; a leave's: the source and group) into @buf
 */
void dsr_mc_str(const struct dsr_mc_req *r, bool join, char *buf,
		size_t size);

/*
 * The request's attributes: those @r gives, in attribute order, each of
 * its type's width in the family's table (common/dsr_attrs.c); a leave
 * (!@join) only the source and group.  The device's attribute is the
 * caller's.  0, or -1 if @msg has no room.
 */
int dsr_mc_put(struct nl_msg *msg, const struct dsr_mc_req *r, bool join);

/* ---- a group's element chain (DSR_CMD_MCAST_CHAIN) ----------------------- */

/*
 * The element chain of a group (enum dsr_mc_elem, ah_dsr.h), as "ahctl dsr
 * mcast chain" takes it: a word per element, in the order of the chain,
 *
 *	tag  dup  cap N  filter  fanout [bcast N]
 *
 * and as "mcast show" prints it (text: those words; JSON: a string per
 * element).  The words are dsr_mc_elem_names[]; fanout without bcast is
 * DSR_MC_FANOUT_PARAM (the device's mcast_bcast_min).
 */
extern const char *const dsr_mc_elem_names[__DSR_MC_EL_MAX];

/* cap N: the layers that go on, 0..N-1; fanout bcast N: 0..254 */
#define DSR_MC_CAP_MIN		1
#define DSR_MC_CAP_MAX		DSR_MC_MAX_LAYERS
#define DSR_MC_BCAST_MAX	(DSR_MC_FANOUT_PARAM - 1)

/* "default": no elements, the request without DSR_A_MC_CHAIN */
#define DSR_MC_CHAIN_DEFAULT	"default"

/* ... and what it stands for (the module's default chain) */
#define DSR_MC_CHAIN_DEFAULT_STR	"tag dup filter fanout"

/* A chain: n elements; n 0 is the default chain (no DSR_A_MC_CHAIN) */
struct dsr_mc_chain {
	size_t n;
	struct dsr_mc_elem_cfg e[DSR_MC_CHAIN_MAX];
};

/* What is wrong with a chain, or with a word of one */
enum dsr_mc_chain_problem {
	DSR_MC_CHAIN_OK,
	DSR_MC_CHAIN_EMPTY,	/* no element (and not "default") */
	DSR_MC_CHAIN_DEFAULT_MIXED,	/* "default" with other words */
	DSR_MC_CHAIN_UNKNOWN,	/* a word that is no element */
	DSR_MC_CHAIN_NO_VALUE,	/* cap, or fanout bcast, without its N */
	DSR_MC_CHAIN_BAD_CAP,	/* cap N not 1..128 */
	DSR_MC_CHAIN_BAD_BCAST,	/* bcast N not 0..254 */
	DSR_MC_CHAIN_TOO_MANY,	/* more than DSR_MC_CHAIN_MAX elements */
	/* the rules the module checks (dsr_mc_chain_check()) */
	DSR_MC_CHAIN_KIND,	/* an element of no known kind */
	DSR_MC_CHAIN_ARG,	/* an argument out of range, or where none is */
	DSR_MC_CHAIN_TWICE,	/* a kind twice */
	DSR_MC_CHAIN_TAG_FIRST,	/* tag after another element */
	DSR_MC_CHAIN_FANOUT_LAST,	/* an element after fanout */
};

/*
 * The @argc words at @argv into *@ch, then dsr_mc_chain_check(): the
 * first problem; *@at is the index of the word it is about (that of the
 * element for the rules; @argc for a missing value or element).  The one
 * word "default" is the default chain (ch->n 0).
 */
enum dsr_mc_chain_problem dsr_mc_chain_parse(int argc, char *const *argv,
					     struct dsr_mc_chain *ch,
					     int *at);

/*
 * What is wrong with the words of dsr_mc_chain_parse() (its problem @p,
 * @at as it set it), into @buf, as ahctl and dsrd say it
 */
void dsr_mc_chain_msg(enum dsr_mc_chain_problem p, int argc,
		      char *const *argv, int at, char *buf, size_t size);

/*
 * The module's rules, by the module's own code: dsr_mch_build()
 * (kmod/dsr/mchain.c) on DSR_A_MC_CHAIN as dsr_mc_chain_put() puts it.
 * Its answer as a problem (the rules: DSR_MC_CHAIN_KIND..FANOUT_LAST),
 * *@at the index of the element at fault (0 otherwise).  The default
 * chain (n 0, no attribute) is fine; more than DSR_MC_CHAIN_MAX elements
 * is DSR_MC_CHAIN_TOO_MANY.
 */
enum dsr_mc_chain_problem dsr_mc_chain_check(const struct dsr_mc_chain *ch,
					     size_t *at);

/*
 * Element @e as its words ("cap 2", "fanout", "fanout bcast 0"; a kind of
 * a newer module "unknown-K", " A" after it if its argument is not 0)
 * into @buf; its length, as snprintf()
 */
int dsr_mc_elem_str(const struct dsr_mc_elem_cfg *e, char *buf, size_t size);

/* Room for the words of any element */
#define DSR_MC_ELEM_STR_MAX	32

/*
 * DSR_A_MC_CHAIN with the elements of @ch, none for the default chain.
 * 0, or -1 if @msg has no room.
 */
int dsr_mc_chain_put(struct nl_msg *msg, const struct dsr_mc_chain *ch);

#endif /* AH_DSR_MCAST_H */
