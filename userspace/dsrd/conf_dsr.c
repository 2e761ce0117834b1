// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config: [dsr] and [dsr.params] (docs/dsrd.conf.5), and the DSR
 * parameters they ask for.
 */
#include <arpa/inet.h>
#include <string.h>

#include "attrs.h"
#include "conf_parse.h"
#include "dsrd.h"
#include "parse.h"

static uint32_t prefix_mask(unsigned int plen)
{
	return plen ? htonl(~0u << (32 - plen)) : 0;
}

/* ---- [dsr] --------------------------------------------------------------- */

static int dsr_device(struct parser *p, char *v)
{
	return parse_ifname(p, "Device", v, p->c->dsr.device);
}

static int dsr_interface(struct parser *p, char *v)
{
	struct conf_dsr *d = &p->c->dsr;
	char name[IFNAMSIZ];
	size_t i;

	if (parse_ifname(p, "Interface", v, name))
		return -1;
	for (i = 0; i < d->nslaves; i++)
		if (!strcmp(d->slaves[i], name))
			return perr(p, "Interface %s listed twice", name);
	if (d->nslaves == CONF_MAX_SLAVES)
		return perr(p, "more than %d Interface lines", CONF_MAX_SLAVES);
	memcpy(d->slaves[d->nslaves++], name, IFNAMSIZ);
	return 0;
}

/* A unicast address that is neither the subnet's nor its broadcast. */
static bool host_addr_ok(uint32_t be, unsigned int plen)
{
	uint32_t a = ntohl(be), host = ~ntohl(prefix_mask(plen));

	if (!a || a >> 24 == 127 || a >> 28 >= 14 || !plen)
		return false;
	if (plen <= 30 && ((a & host) == 0 || (a & host) == host))
		return false;
	return true;
}

static int dsr_address(struct parser *p, char *v)
{
	struct conf_dsr *d = &p->c->dsr;

	if (parse_cidr(v, true, &d->addr, &d->prefix))
		return perr(p, "invalid Address '%s' (A.B.C.D/LEN, LEN 1..32)",
			    v);
	if (!host_addr_ok(d->addr, d->prefix))
		return perr(p, "Address %s is not a host address of its subnet",
			    v);
	return 0;
}

static int dsr_gateway(struct parser *p, char *v)
{
	struct conf_dsr *d = &p->c->dsr;
	bool b;

	d->gateway_line = p->line;
	if (!parse_bool(v, &b)) {
		d->gateway = b ? CONF_GW_YES : CONF_GW_NO;
		return 0;
	}
	if (parse_cidr(v, true, &d->gw_subnet, &d->gw_prefix) ||
	    !d->gw_prefix)
		return perr(p, "invalid Gateway '%s' (no, yes or the DSR subnet A.B.C.D/LEN, LEN 1..32)",
			    v);
	d->gateway = CONF_GW_SUBNET;
	return 0;
}

const struct key dsr_keys[] = {
	{ "Device", false, dsr_device },
	{ "Interface", true, dsr_interface },
	{ "Address", false, dsr_address },
	{ "Gateway", false, dsr_gateway },
	{ NULL, false, NULL },
};

/* ---- [dsr.params] -------------------------------------------------------- */

/* subnet takes A.B.C.D[/LEN]; /LEN sets subnet_prefix, as in ahctl. */
static int dsr_subnet_param(struct parser *p, const char *v)
{
	struct conf_params *ps = &p->c->dsr.params;
	int pi = DSR_A_P_SUBNET_PREFIX - DSR_A_P_FIRST;
	unsigned int plen;
	uint32_t addr;

	if (parse_cidr(v, false, &addr, &plen))
		return perr(p, "invalid subnet '%s' (A.B.C.D[/LEN], LEN 0..32)",
			    v);
	if (set_param(p, ps, DSR_A_P_SUBNET - DSR_A_P_FIRST, "subnet", addr))
		return -1;
	if (!strchr(v, '/'))
		return 0;
	if (ps->line[pi])
		return perr(p, "subnet_prefix given twice (first at line %u; subnet A.B.C.D/LEN sets it)",
			    ps->line[pi]);
	return set_param(p, ps, pi, "subnet_prefix", plen);
}

int dsr_param(struct parser *p, const char *key, const char *v)
{
	int id = fam_param_find(&dsr_family, key);

	if (id < 0)
		return perr(p, "unknown DSR parameter '%s' (the names of 'ahctl dsr help')",
			    key);
	if (id == DSR_A_P_SUBNET)
		return dsr_subnet_param(p, v);
	return u32_param(p, &p->c->dsr.params, id - DSR_A_P_FIRST, key, v);
}

int check_gateway(struct parser *p)
{
	static const int ids[] = {
		DSR_A_P_GATEWAY, DSR_A_P_SUBNET, DSR_A_P_SUBNET_PREFIX,
	};
	const struct conf_dsr *d = &p->c->dsr;
	unsigned int l;
	size_t i;

	if (d->gateway == CONF_GW_UNSET)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		l = d->params.line[ids[i] - DSR_A_P_FIRST];
		if (l)
			return perr_at(p, l > d->gateway_line ? l :
				       d->gateway_line,
				       "%s in [dsr.params] and Gateway in [dsr] (lines %u and %u): use one",
				       dsr_family.params[ids[i]].name, l,
				       d->gateway_line);
	}
	return 0;
}

void conf_dsr_wanted(const struct conf *c, struct conf_params *out)
{
	const struct conf_dsr *d = &c->dsr;
	int gi = DSR_A_P_GATEWAY - DSR_A_P_FIRST;
	int si = DSR_A_P_SUBNET - DSR_A_P_FIRST;
	int pi = DSR_A_P_SUBNET_PREFIX - DSR_A_P_FIRST;
	unsigned int l = d->gateway_line;

	*out = d->params;
	switch (d->gateway) {
	case CONF_GW_UNSET:
		return;
	case CONF_GW_NO:
		out->val[gi] = 0;
		out->line[gi] = l;
		return;
	case CONF_GW_YES:
		out->val[si] = d->addr & prefix_mask(d->prefix);
		out->val[pi] = d->prefix;
		break;
	case CONF_GW_SUBNET:
		out->val[si] = d->gw_subnet;
		out->val[pi] = d->gw_prefix;
		break;
	}
	out->val[gi] = 1;
	out->line[gi] = l;
	out->line[si] = l;
	out->line[pi] = l;
}
