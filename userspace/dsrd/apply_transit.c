// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd: the transit engine on each interface of the config (see apply.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ah_transit.h>

#include "apply.h"
#include "dsrd.h"
#include "log.h"

static int tr_put_params(struct nl_msg *msg, const uint32_t *v,
			 const bool *send)
{
	int i;

	for (i = 0; i < CONF_TR_NPARAMS; i++)
		if (send[i] &&
		    nla_put_u32(msg, TRANSIT_A_P_FIRST + i, v[i]))
			return -1;
	return 0;
}

/* The values @t asks for, the defaults for the others. */
static void tr_wanted(const struct conf_transit *t, uint32_t *v)
{
	int i;

	for (i = 0; i < CONF_TR_NPARAMS; i++)
		v[i] = conf_param_has(&t->params, i) ? t->params.val[i] :
		       transit_family.attrs[TRANSIT_A_P_FIRST + i].def;
}

static int tr_send(struct dsrd *d, uint8_t cmd, const char *ifname,
		   int enable, const uint32_t *v, const bool *send)
{
	struct nl_msg *msg = dev_msg(d, FAM_TRANSIT, cmd, ifname, 0);

	if (!msg)
		return -1;
	if ((enable >= 0 &&
	     nla_put_u8(msg, TRANSIT_A_ENABLE, (uint8_t)enable)) ||
	    (v && tr_put_params(msg, v, send)))
		return put_failed(msg);
	return fam_send(d, FAM_TRANSIT, msg);
}

static int tr_attach(struct dsrd *d, const struct conf_transit *t)
{
	struct tr_applied *a = &d->tr[d->ntr];
	bool send[CONF_TR_NPARAMS];
	uint32_t v[CONF_TR_NPARAMS];
	int i;

	tr_wanted(t, v);
	for (i = 0; i < CONF_TR_NPARAMS; i++)
		send[i] = conf_param_has(&t->params, i);
	if (tr_send(d, TRANSIT_CMD_ATTACH, t->ifname, t->enable, v, send)) {
		log_err("transit %s: cannot attach", t->ifname);
		return -1;
	}
	memcpy(a->ifname, t->ifname, IFNAMSIZ);
	a->enable = t->enable;
	memcpy(a->params, v, sizeof(v));
	d->ntr++;
	log_info("transit %s: attached%s", t->ifname,
		 t->enable ? "" : ", disabled");
	return 0;
}

int tr_detach(struct dsrd *d, size_t i)
{
	const char *ifname = d->tr[i].ifname;

	if (!if_exists(ifname)) {
		log_info("transit %s: the interface is gone", ifname);
	} else if (tr_send(d, TRANSIT_CMD_DETACH, ifname, -1, NULL, NULL)) {
		log_err("transit %s: cannot detach", ifname);
		return -1;
	} else {
		log_info("transit %s: detached", ifname);
	}
	d->tr[i] = d->tr[--d->ntr];
	return 0;
}

static int tr_update(struct dsrd *d, struct tr_applied *a,
		     const struct conf_transit *t)
{
	bool send[CONF_TR_NPARAMS], any = false;
	uint32_t v[CONF_TR_NPARAMS];
	int i, en = a->enable != t->enable ? t->enable : -1;

	tr_wanted(t, v);
	for (i = 0; i < CONF_TR_NPARAMS; i++) {
		send[i] = v[i] != a->params[i];
		any |= send[i];
	}
	if (!any && en < 0)
		return 0;
	if (tr_send(d, TRANSIT_CMD_SET, a->ifname, en, v, send)) {
		log_err("transit %s: cannot change its parameters", a->ifname);
		return -1;
	}
	for (i = 0; i < CONF_TR_NPARAMS; i++)
		if (send[i])
			log_info("transit %s: %s %u -> %u", a->ifname,
				 transit_family.attrs[TRANSIT_A_P_FIRST + i].name,
				 a->params[i], v[i]);
	if (en >= 0)
		log_info("transit %s: %s", a->ifname,
			 en ? "enabled" : "disabled");
	memcpy(a->params, v, sizeof(v));
	a->enable = t->enable;
	return 0;
}

static struct tr_applied *tr_applied(struct dsrd *d, const char *ifname)
{
	size_t i;

	for (i = 0; i < d->ntr; i++)
		if (!strcmp(d->tr[i].ifname, ifname))
			return &d->tr[i];
	return NULL;
}

static bool tr_in_conf(const struct conf *c, const char *ifname)
{
	size_t i;

	for (i = 0; i < c->ntr; i++)
		if (!strcmp(c->tr[i].ifname, ifname))
			return true;
	return false;
}

int tr_apply(struct dsrd *d, const struct conf *c, struct run *r)
{
	struct tr_applied *a;
	size_t i;

	for (i = d->ntr; i-- > 0;)
		if (!tr_in_conf(c, d->tr[i].ifname) && tr_detach(d, i) &&
		    step_failed(r))
			return -1;
	for (i = 0; i < c->ntr; i++) {
		a = tr_applied(d, c->tr[i].ifname);
		if ((a ? tr_update(d, a, &c->tr[i]) :
			 tr_attach(d, &c->tr[i])) && step_failed(r))
			return -1;
	}
	return 0;
}
