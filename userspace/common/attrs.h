/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one description of each generic netlink family: for every
 * attribute its name, its type, its unit and, for a parameter, its
 * default and range.  ahctl prints and parses from it, dsrd reads its
 * config keys and writes its JSON logs from it, and the unit tests check
 * the completion and the man pages against it (tests/unit/attr_table).
 *
 * The ABIs' attributes are flat, so an attribute has one name wherever
 * it appears: the JSON key (the attribute's name without its prefix,
 * lower case, as batctl does), the keyword of a parameter on ahctl's
 * command line and in dsrd's config file.  A family may keep its
 * parameters in a nest of their own (dsr: DSR_A_PARAMS), whose attribute
 * ids start again from 1: they have their own table then, and in JSON
 * they stand beside the other attributes, where the nest is.
 */
#ifndef AH_ATTRS_H
#define AH_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netlink/attr.h>

#include "genl.h"
#include "json.h"

/* How an attribute's payload is read, and how it is written. */
enum attr_type {
	AT_NONE,	/* not printed */
	AT_U8,
	AT_U16,
	AT_U32,
	AT_U64,
	AT_BOOL,	/* u8 0/1: true or false in JSON */
	AT_FLAG,	/* no payload: present is true */
	AT_ADDR,	/* u32 IPv4 address, network byte order: "A.B.C.D" */
	AT_HOPS,	/* an array of those */
	AT_MAC,		/* 6 bytes: "aa:bb:cc:dd:ee:ff" */
	AT_STR,
	AT_ENUM,	/* u8: a name of attr_desc.names */
	AT_IFINDEX,	/* u32 interface index: its name in text */
	AT_PROTO,	/* u8 IP protocol: its name in text */
	AT_BITS,	/* u32 bit mask: a name of .names in text, else hex */
	AT_PORTS,	/* a nest of u16 attributes (ports): a list of numbers */
	__AT_MAX,
};

/* attr_desc.flags */
#define AF_PARAM	(1 << 0)	/* a parameter: def, min, max */
#define AF_TEXT_UNIT	(1 << 1)	/* text: the unit after the value */
#define AF_TEXT_BARE	(1 << 2)	/* text: the value without keyword */
#define AF_TEXT_NONZERO	(1 << 3)	/* text: left out when 0 */

struct attr_desc {
	const char *name;	/* NULL: not an attribute we know */
	const char *label;	/* keyword in text output; NULL: the name */
	enum attr_type type;
	const char *unit;	/* "ms", "us", "bytes"; NULL: a count */
	unsigned int flags;
	const char *const *names;	/* AT_ENUM, AT_BITS: by value */
	size_t nnames;
	/* parameters (AF_PARAM): the default on a new device, the range */
	uint32_t def, min, max;
	const char *range;	/* what help says of it; NULL: min..max */
};

struct family {
	struct genl_family_desc desc;	/* name, version, module */
	int maxattr;
	const struct attr_desc *attrs;	/* [0..maxattr] */
	/*
	 * The parameters: ids param_first..param_last of @params, which is
	 * @attrs if they are top-level attributes, else the table of the
	 * attributes of the nest @params_nest (a top-level attribute).
	 */
	const struct attr_desc *params;
	int param_first, param_last;	/* attribute ids; 0: none */
	int params_nest;		/* 0: the parameters are top-level */
	const char *const *cmds;	/* command names */
	size_t ncmds;
	const char *const *groups;	/* multicast groups; NULL ends */
	int event_attr;			/* u8 event kind, or 0 */
	const char *const *events;
	size_t nevents;
};

extern const struct family dsr_family;
extern const struct family macfilter_family;
extern const struct family transit_family;
extern const struct family slice_family;

/* Room for any family's attributes */
#define ATTRS_MAX	64

/* Room for a string attribute and its NUL: a name longer is cut there */
#define ATTR_STR_MAX	256

/* The description of @id, NULL if @f does not name it. */
const struct attr_desc *attr_of(const struct family *f, int id);

/* The parameters: their number, the id of one by name (-1: none). */
int fam_nparams(const struct family *f);
int fam_param_find(const struct family *f, const char *name);

/* The description of parameter @id (param_first..param_last), or NULL. */
const struct attr_desc *param_of(const struct family *f, int id);

/*
 * The parameters of a message parsed into @tb (indexed by attribute id,
 * up to maxattr): @ptb[param_first..param_last], from the nest or from
 * @tb; -1 if the nest is malformed (@ptb is empty then).  @ptb has room
 * for ATTRS_MAX + 1.
 */
int fam_params_parse(const struct family *f, struct nlattr **tb,
		     struct nlattr **ptb);

/* Whether @a is there, named, and long enough for its type. */
bool attr_valid(const struct attr_desc *d, const struct nlattr *a);

/* The least payload of @type, in bytes */
int attr_type_len(enum attr_type type);

/* The number in @a (a u8..u64 type, BOOL, ADDR, ENUM, ...), valid. */
uint64_t attr_uint(const struct attr_desc *d, const struct nlattr *a);

/* The value of a valid @a, as JSON. */
void attr_json_value(struct json *j, const struct attr_desc *d,
		     const struct nlattr *a);

/*
 * One JSON "key": value per valid attribute in @tb that @f names, in
 * attribute order, the parameters of a nest where the nest is; @skip1 and
 * @skip2 are left out as well (0: none).
 */
void attrs_json(struct json *j, const struct family *f, struct nlattr **tb,
		int skip1, int skip2);

#endif /* AH_ATTRS_H */
