// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd: the DSR device, its parameters, interfaces and address (see
 * apply.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ah_dsr.h>

#include "apply.h"
#include "dsrd.h"
#include "log.h"
#include "rtnl.h"

static const char *param_str(int id, uint32_t v, char *buf, size_t size)
{
	struct in_addr in = { .s_addr = v };

	if (id == DSR_A_P_SUBNET)
		return inet_ntop(AF_INET, &in, buf, (socklen_t)size) ? buf :
		       "?";
	snprintf(buf, size, "%u", v);
	return buf;
}

struct nl_msg *dsr_dev_msg(struct dsrd *d, uint8_t cmd)
{
	struct nl_msg *msg = fam_msg(d, FAM_DSR, cmd, 0);

	if (msg && nla_put_u32(msg, DSR_A_IFINDEX, (uint32_t)d->dev_ifindex)) {
		put_failed(msg);
		return NULL;
	}
	return msg;
}

struct defaults {
	struct dsrd *d;
	int n;
};

static int defaults_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[DSR_A_MAX + 1], *ptb[ATTRS_MAX + 1];
	struct defaults *r = arg;
	uint8_t cmd;
	int i;

	if (genl_parse(&r->d->fam[FAM_DSR].req, msg, &cmd, tb, DSR_A_MAX) ||
	    cmd != DSR_CMD_GET_PARAMS)
		return 0;
	/* (a malformed nest: none; the count below says so) */
	fam_params_parse(&dsr_family, tb, ptb);
	for (i = 0; i < CONF_DSR_NPARAMS; i++)
		if (attr_u32(ptb[DSR_A_P_FIRST + i], &r->d->dsr_defaults[i]))
			r->n++;
	return 0;
}

/* The new device's parameters are the kernel's defaults. */
static int dsr_read_defaults(struct dsrd *d)
{
	struct defaults r = { .d = d };
	struct nl_msg *msg = dsr_dev_msg(d, DSR_CMD_GET_PARAMS);

	if (!msg || genl_request(&d->fam[FAM_DSR].req, msg, defaults_cb, &r)) {
		log_err("%s: cannot read its parameters", d->device);
		return -1;
	}
	if (r.n != CONF_DSR_NPARAMS)
		log_warn("%s: the kernel sent %d of %d parameters", d->device,
			 r.n, CONF_DSR_NPARAMS);
	memcpy(d->dsr_cur, d->dsr_defaults, sizeof(d->dsr_cur));
	return 0;
}

static void dsr_log_params(struct dsrd *d, const uint32_t *v,
			   const bool *send)
{
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	int i, id;

	for (i = 0; i < CONF_DSR_NPARAMS; i++) {
		if (!send[i])
			continue;
		id = DSR_A_P_FIRST + i;
		log_info("%s: %s %s -> %s", d->device, dsr_family.params[id].name,
			 param_str(id, d->dsr_cur[i], a, sizeof(a)),
			 param_str(id, v[i], b, sizeof(b)));
	}
}

int dsr_params_apply(struct dsrd *d, const struct conf *c,
			    struct run *r)
{
	bool send[CONF_DSR_NPARAMS], any = false;
	uint32_t v[CONF_DSR_NPARAMS];
	struct conf_params want;
	struct nlattr *nest;
	struct nl_msg *msg;
	int i;

	conf_dsr_wanted(c, &want);
	for (i = 0; i < CONF_DSR_NPARAMS; i++) {
		v[i] = conf_param_has(&want, i) ? want.val[i] :
		       d->dsr_defaults[i];
		send[i] = v[i] != d->dsr_cur[i];
		any |= send[i];
	}
	if (!any)
		return 0;
	msg = dsr_dev_msg(d, DSR_CMD_SET_PARAMS);
	if (!msg)
		return step_failed(r);
	/* every command is strictly validated: NLA_F_NESTED */
	nest = nla_nest_start(msg, DSR_A_PARAMS | NLA_F_NESTED);
	if (!nest)
		goto nomem;
	for (i = 0; i < CONF_DSR_NPARAMS; i++)
		if (send[i] && nla_put_u32(msg, DSR_A_P_FIRST + i, v[i]))
			goto nomem;
	nla_nest_end(msg, nest);
	if (fam_send(d, FAM_DSR, msg)) {
		log_err("%s: cannot set its parameters", d->device);
		return step_failed(r);
	}
	dsr_log_params(d, v, send);
	memcpy(d->dsr_cur, v, sizeof(v));
	return 0;

nomem:
	put_failed(msg);
	return step_failed(r);
}

/* ---- slaves -------------------------------------------------------------- */

static int slave_add(struct dsrd *d, const char *ifname)
{
	struct slave *s = &d->slaves[d->nslaves];
	int ifindex = (int)if_nametoindex(ifname);
	char master[IFNAMSIZ];
	struct rtnl_link l;

	if (!ifindex) {
		log_err("%s: no such interface", ifname);
		return -1;
	}
	if (rtnl_get_link(&d->rt, ifindex, &l))
		return -1;
	if (l.master) {
		log_err("%s: already enslaved to %s", ifname,
			if_indextoname(l.master, master) ? master : "another device");
		return -1;
	}
	if (rtnl_set_master(&d->rt, ifindex, d->dev_ifindex)) {
		log_err("%s: cannot enslave %s", d->device, ifname);
		return -1;
	}
	memset(s, 0, sizeof(*s));
	memcpy(s->ifname, ifname, IFNAMSIZ);
	s->ifindex = ifindex;
	d->nslaves++;
	if (!(l.flags & IFF_UP)) {
		if (rtnl_set_up(&d->rt, ifindex, true)) {
			log_err("%s: cannot set it up", ifname);
			/* enslaved: the caller's undo releases it */
			return -1;
		}
		s->upped = true;
	}
	log_info("%s: enslaved %s%s", d->device, ifname,
		 s->upped ? " (and set it up)" : "");
	return 0;
}

/* Set it down again if dsrd set it up; it may be gone. */
static int slave_restore(struct dsrd *d, const struct slave *s)
{
	char name[IFNAMSIZ];

	if (!s->upped || !if_indextoname((unsigned int)s->ifindex, name))
		return 0;
	if (rtnl_set_up(&d->rt, s->ifindex, false)) {
		log_err("%s: cannot set it down again", s->ifname);
		return -1;
	}
	return 0;
}

static int slave_release(struct dsrd *d, size_t i)
{
	struct slave *s = &d->slaves[i];
	char name[IFNAMSIZ];
	int ret = 0;

	if (!if_indextoname((unsigned int)s->ifindex, name)) {
		log_info("%s: %s is gone", d->device, s->ifname);
	} else if (rtnl_set_master(&d->rt, s->ifindex, 0)) {
		log_err("%s: cannot release %s", d->device, s->ifname);
		return -1;
	} else {
		ret = slave_restore(d, s);
		log_info("%s: released %s", d->device, s->ifname);
	}
	d->slaves[i] = d->slaves[--d->nslaves];
	return ret;
}

static bool slave_in_conf(const struct conf *c, const char *ifname)
{
	size_t i;

	for (i = 0; i < c->dsr.nslaves; i++)
		if (!strcmp(c->dsr.slaves[i], ifname))
			return true;
	return false;
}

static bool slave_applied(const struct dsrd *d, const char *ifname)
{
	size_t i;

	for (i = 0; i < d->nslaves; i++)
		if (!strcmp(d->slaves[i].ifname, ifname))
			return true;
	return false;
}

int slaves_apply(struct dsrd *d, const struct conf *c, struct run *r)
{
	size_t i;

	for (i = d->nslaves; i-- > 0;)
		if (!slave_in_conf(c, d->slaves[i].ifname) &&
		    slave_release(d, i) && step_failed(r))
			return -1;
	for (i = 0; i < c->dsr.nslaves; i++)
		if (!slave_applied(d, c->dsr.slaves[i]) &&
		    slave_add(d, c->dsr.slaves[i]) && step_failed(r))
			return -1;
	return 0;
}

/* ---- address ------------------------------------------------------------- */

int addr_apply(struct dsrd *d, const struct conf *c, struct run *r)
{
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	struct in_addr ia = { .s_addr = d->addr }, ib = { c->dsr.addr };

	if (d->has_addr && d->addr == c->dsr.addr &&
	    d->prefix == c->dsr.prefix)
		return 0;
	inet_ntop(AF_INET, &ia, a, sizeof(a));
	inet_ntop(AF_INET, &ib, b, sizeof(b));
	if (d->has_addr &&
	    rtnl_addr(&d->rt, false, d->dev_ifindex, d->addr, d->prefix)) {
		log_err("%s: cannot remove address %s/%u", d->device, a,
			d->prefix);
		return step_failed(r);
	}
	if (rtnl_addr(&d->rt, true, d->dev_ifindex, c->dsr.addr,
		      c->dsr.prefix)) {
		log_err("%s: cannot add address %s/%u", d->device, b,
			c->dsr.prefix);
		/* put the old one back */
		if (d->has_addr &&
		    rtnl_addr(&d->rt, true, d->dev_ifindex, d->addr, d->prefix))
			d->has_addr = false;
		return step_failed(r);
	}
	if (d->has_addr)
		log_info("%s: address %s/%u -> %s/%u", d->device, a, d->prefix,
			 b, c->dsr.prefix);
	else
		log_info("%s: address %s/%u", d->device, b, c->dsr.prefix);
	d->has_addr = true;
	d->addr = c->dsr.addr;
	d->prefix = c->dsr.prefix;
	return 0;
}

int dsr_create(struct dsrd *d, const struct conf *c)
{
	memcpy(d->device, c->dsr.device, IFNAMSIZ);
	if (rtnl_create(&d->rt, d->device, "dsr")) {
		log_err("%s: cannot create the device", d->device);
		return -1;
	}
	d->dev_ifindex = (int)if_nametoindex(d->device);
	if (!d->dev_ifindex) {
		log_err("%s: created, but gone", d->device);
		return -1;
	}
	log_info("%s: created", d->device);
	return dsr_read_defaults(d);
}

/* The device is gone: its slaves were released by the kernel. */
static int slaves_forget(struct dsrd *d)
{
	int ret = 0;

	while (d->nslaves) {
		d->nslaves--;
		if (slave_restore(d, &d->slaves[d->nslaves]))
			ret = -1;
	}
	return ret;
}

int dsr_delete(struct dsrd *d)
{
	char name[IFNAMSIZ];
	int ret = 0;

	if (!d->dev_ifindex)
		return 0;
	if (!if_indextoname((unsigned int)d->dev_ifindex, name)) {
		log_warn("%s: already gone", d->device);
	} else if (rtnl_delete(&d->rt, d->dev_ifindex)) {
		log_err("%s: cannot delete it; releasing its interfaces",
			d->device);
		while (d->nslaves)
			if (slave_release(d, d->nslaves - 1))
				d->nslaves--;
		return -1;
	} else {
		log_info("%s: deleted", d->device);
	}
	d->dev_ifindex = 0;
	d->has_addr = false;
	if (slaves_forget(d))
		ret = -1;
	return ret;
}
