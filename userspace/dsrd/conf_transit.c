// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config: [transit] (docs/dsrd.conf.5).
 */
#include <string.h>

#include "attrs.h"
#include "conf_parse.h"
#include "dsrd.h"

static int tr_interface(struct parser *p, char *v)
{
	struct conf_transit *tr = cur_tr(p);
	size_t i;

	if (parse_ifname(p, "Interface", v, tr->ifname))
		return -1;
	for (i = 0; i + 1 < p->c->ntr; i++)
		if (!strcmp(p->c->tr[i].ifname, tr->ifname))
			return perr(p, "a [transit] for %s already exists (line %u)",
				    tr->ifname, p->c->tr[i].line);
	return 0;
}

static int tr_enable(struct parser *p, char *v)
{
	if (parse_bool(v, &cur_tr(p)->enable))
		return perr(p, "invalid Enable '%s' (yes or no)", v);
	return 0;
}

const struct key tr_keys[] = {
	{ "Interface", false, tr_interface },
	{ "Enable", false, tr_enable },
	{ NULL, false, NULL },
};

int tr_param(struct parser *p, const char *key, const char *v)
{
	int id = fam_param_find(&transit_family, key);

	if (id < 0)
		return perr(p, "unknown key '%s' in [transit] (Interface, Enable or a parameter of 'ahctl transit help')",
			    key);
	return u32_param(p, &cur_tr(p)->params, id - TRANSIT_A_P_FIRST, key,
			 v);
}
