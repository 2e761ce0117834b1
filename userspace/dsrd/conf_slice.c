// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config: [slice] (docs/dsrd.conf.5), a lease of one interface of
 * the node to a slice, the network namespace "ip netns" names NAME
 * (include/uapi/linux/ah_slice.h).  Checked here as far as can be without
 * the kernel: whether the namespace exists is the apply step's to see.
 */
#include <string.h>

#include "conf_parse.h"
#include "dsrd.h"
#include "names.h"
#include "parse.h"

static int sl_interface(struct parser *p, char *v)
{
	struct conf_slice *sl = cur_sl(p);
	size_t i;

	if (parse_ifname(p, "Interface", v, sl->ifname))
		return -1;
	for (i = 0; i + 1 < p->c->nsl; i++)
		if (!strcmp(p->c->sl[i].ifname, sl->ifname))
			return perr(p, "a [slice] for %s already exists (line %u)",
				    sl->ifname, p->c->sl[i].line);
	return 0;
}

/*
 * A name "ip netns" can give (a file of /run/netns) that is also a
 * label the kernel takes (SLICE_NAME_MAX with its NUL).  A blank is a
 * slip, not a name: "Slice = red lease 60".
 */
static int sl_slice(struct parser *p, char *v)
{
	size_t len = strlen(v);

	if (!strcmp(v, ".") || !strcmp(v, "..") || strpbrk(v, "/ \t"))
		return perr(p, "invalid Slice '%s' (the name of a network namespace, as 'ip netns' names it)",
			    v);
	if (len >= SLICE_NAME_MAX)
		return perr(p, "Slice '%s' is too long (at most %d bytes: the name is the slice's label)",
			    v, SLICE_NAME_MAX - 1);
	memcpy(cur_sl(p)->slice, v, len + 1);
	return 0;
}

static int sl_lease(struct parser *p, char *v)
{
	uint32_t *lease = &cur_sl(p)->lease;

	if (parse_uint(p, "Lease", v, 1, SLICE_LEASE_MAX, lease))
		return perr(p, "invalid Lease '%s' (seconds, 1..%d, at most %d days; without Lease: until revoked)",
			    v, SLICE_LEASE_MAX, SLICE_LEASE_MAX / 86400);
	return 0;
}

static int sl_mode(struct parser *p, char *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(slice_mode_names); i++)
		if (slice_mode_names[i] && !strcmp(v, slice_mode_names[i])) {
			cur_sl(p)->mode = (uint8_t)i;
			return 0;
		}
	return perr(p, "invalid Mode '%s' (move or map)", v);
}

static int sl_keep(struct parser *p, char *v)
{
	struct conf_slice *sl = cur_sl(p);
	char why[64];
	int n = parse_ports(v, sl->keep, SLICE_KEEP_MAX, why, sizeof(why));

	if (n < 0)
		return perr(p, "invalid Keep '%s': %s (PORT[,PORT...], at most %d)",
			    v, why, SLICE_KEEP_MAX);
	sl->nkeep = (uint8_t)n;
	return 0;
}

const struct key sl_keys[] = {
	{ "Interface", false, sl_interface },
	{ "Slice", false, sl_slice },
	{ "Lease", false, sl_lease },
	{ "Mode", false, sl_mode },
	{ "Keep", false, sl_keep },
	{ NULL, false, NULL },
};

int sl_finish(struct parser *p, struct conf_slice *sl)
{
	if (!sl->ifname[0])
		return perr_at(p, sl->line, "[slice] without Interface");
	if (!sl->slice[0])
		return perr_at(p, sl->line, "[slice] %s without Slice",
			       sl->ifname);
	if (sl->nkeep && sl->mode != SLICE_MODE_MAP)
		return perr_at(p, sl->line, "[slice] %s: Keep needs Mode = map (a moved interface keeps nothing for the node)",
			       sl->ifname);
	return 0;
}

/*
 * A leased interface leaves the node's namespace: it cannot be the DSR
 * device, one of its interfaces, or have a [macfilter] or [transit] (whose
 * interface must be in the node).  A mapped one (Mode = map) stays, with
 * all of those.
 */
int check_slices(struct parser *p)
{
	const struct conf *c = p->c;
	const struct conf_slice *sl;
	size_t i, j;

	for (i = 0; i < c->nsl; i++) {
		sl = &c->sl[i];
		if (sl->mode == SLICE_MODE_MAP)
			continue;
		if (!strcmp(sl->ifname, c->dsr.device))
			return perr_at(p, sl->line, "[slice] on the DSR device %s",
				       sl->ifname);
		for (j = 0; j < c->dsr.nslaves; j++)
			if (!strcmp(sl->ifname, c->dsr.slaves[j]))
				return perr_at(p, sl->line, "[slice] %s: it is an Interface of [dsr] (line %u); a leased interface leaves the node",
					       sl->ifname, c->dsr.line);
		for (j = 0; j < c->nmf; j++)
			if (!strcmp(sl->ifname, c->mf[j].ifname))
				return perr_at(p, sl->line, "[slice] %s: it has a [macfilter] (line %u); a leased interface leaves the node",
					       sl->ifname, c->mf[j].line);
		for (j = 0; j < c->ntr; j++)
			if (!strcmp(sl->ifname, c->tr[j].ifname))
				return perr_at(p, sl->line, "[slice] %s: it has a [transit] (line %u); a leased interface leaves the node",
					       sl->ifname, c->tr[j].line);
	}
	return 0;
}
