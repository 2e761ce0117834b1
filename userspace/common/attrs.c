// SPDX-License-Identifier: GPL-2.0
/* Looking up the family descriptions (attrs.h); no netlink here. */
#include <string.h>

#include "attrs.h"
#include "maclist.h"

/* The least payload of each type; 0: anything (string, flag, hops, ports). */
static const int type_len[__AT_MAX] = {
	[AT_U8] = 1, [AT_U16] = 2, [AT_U32] = 4, [AT_U64] = 8,
	[AT_BOOL] = 1, [AT_ADDR] = 4, [AT_MAC] = MAC_LEN, [AT_ENUM] = 1,
	[AT_IFINDEX] = 4, [AT_PROTO] = 1, [AT_BITS] = 4,
};

const struct attr_desc *attr_of(const struct family *f, int id)
{
	if (id < 1 || id > f->maxattr || !f->attrs[id].name)
		return NULL;
	return &f->attrs[id];
}

int fam_nparams(const struct family *f)
{
	return f->param_first ? f->param_last - f->param_first + 1 : 0;
}

int fam_param_find(const struct family *f, const char *name)
{
	int id;

	for (id = f->param_first; f->param_first && id <= f->param_last; id++)
		if (f->params[id].name && !strcmp(name, f->params[id].name))
			return id;
	return -1;
}

const struct attr_desc *param_of(const struct family *f, int id)
{
	if (!f->param_first || id < f->param_first || id > f->param_last ||
	    !f->params[id].name)
		return NULL;
	return &f->params[id];
}

int attr_type_len(enum attr_type type)
{
	return type < __AT_MAX ? type_len[type] : 0;
}
