/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three generic netlink families dsrd talks to, and how their
 * attributes are written as JSON: the keys and value forms of "ahctl -j"
 * (the attribute name without its prefix, lower case).
 */
#ifndef DSRD_ATTRS_H
#define DSRD_ATTRS_H

#include <stddef.h>
#include <stdint.h>

#include <netlink/attr.h>

#include "genl.h"
#include "json.h"

enum fam_id {
	FAM_DSR,
	FAM_MACFILTER,
	FAM_TRANSIT,
	__FAM_MAX,
};

enum vtype {
	VT_NONE,	/* never written */
	VT_U8,
	VT_U16,
	VT_U32,
	VT_U64,
	VT_BOOL,	/* u8 0/1 */
	VT_FLAG,	/* present: true */
	VT_ADDR,	/* u32 IPv4, network byte order: "A.B.C.D" */
	VT_HOPS,	/* array of those */
	VT_MAC,
	VT_STR,
	VT_ENUM,	/* u8: a name from attr_desc.names */
	__VT_MAX,
};

struct attr_desc {
	const char *name;
	enum vtype type;
	const char *const *names;	/* VT_ENUM */
	size_t nnames;
};

struct family {
	struct genl_family_desc desc;	/* name, version, module */
	int maxattr;
	const struct attr_desc *attrs;	/* [0..maxattr] */
	const char *const *cmds;	/* command names */
	size_t ncmds;
	const char *const *groups;	/* multicast groups; NULL ends */
	int event_attr;			/* u8 event kind, or 0 */
	const char *const *events;
	size_t nevents;
};

extern const struct family families[__FAM_MAX];

/*
 * One JSON "key": value per attribute in @tb that @f knows (too short a
 * payload is left out), in attribute order; @skip1 and @skip2 are left
 * out as well (0: none).
 */
void attrs_json(struct json *j, const struct family *f, struct nlattr **tb,
		int skip1, int skip2);

#endif /* DSRD_ATTRS_H */
