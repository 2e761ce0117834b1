// SPDX-License-Identifier: GPL-2.0
/*
 * Dump the family descriptions (the _attrs.c files of userspace/common),
 * one attribute a line, for test_attr_table.sh to check the kernel's
 * parameter table, the man pages and the completion against:
 *
 *	FAMILY attr ID NAME TYPE UNIT
 *	FAMILY param ID NAME TYPE UNIT DEFAULT MIN MAX
 *	FAMILY names ID NAME VALUE...
 *
 * UNIT is "-" for a count.  A names line follows an enum attribute: the
 * names of its values, in order.  The parameters of a family that keeps them in
 * a nest (dsr) come after its attributes, with their ids in the nest.
 */
#include <stdio.h>

#include "attrs.h"

static const char *const type_names[__AT_MAX] = {
	[AT_NONE] = "none", [AT_U8] = "u8", [AT_U16] = "u16",
	[AT_U32] = "u32", [AT_U64] = "u64", [AT_BOOL] = "bool",
	[AT_FLAG] = "flag", [AT_ADDR] = "addr", [AT_HOPS] = "hops",
	[AT_MAC] = "mac", [AT_STR] = "string", [AT_ENUM] = "enum",
	[AT_IFINDEX] = "ifindex", [AT_PROTO] = "proto", [AT_BITS] = "bits",
	[AT_PORTS] = "ports",
};

static void row(const struct family *f, int id, const struct attr_desc *d)
{
	size_t i;

	if (!d)
		return;
	printf("%s %s %d %s %s %s", f->desc.name,
	       d->flags & AF_PARAM ? "param" : "attr", id, d->name,
	       type_names[d->type], d->unit ? d->unit : "-");
	if (d->flags & AF_PARAM)
		printf(" %u %u %u", d->def, d->min, d->max);
	putchar('\n');
	if (d->type != AT_ENUM)
		return;
	printf("%s names %d %s", f->desc.name, id, d->name);
	for (i = 0; i < d->nnames; i++)
		if (d->names[i])
			printf(" %s", d->names[i]);
	putchar('\n');
}

static void dump(const struct family *f)
{
	int id;

	for (id = 1; id <= f->maxattr; id++)
		row(f, id, attr_of(f, id));
	for (id = f->param_first; f->params_nest && id <= f->param_last; id++)
		row(f, id, param_of(f, id));
}

int main(void)
{
	dump(&dsr_family);
	dump(&macfilter_family);
	dump(&transit_family);
	dump(&slice_family);
	return 0;
}
