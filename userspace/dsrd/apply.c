// SPDX-License-Identifier: GPL-2.0
/*
 * Bring the kernel to what the config says, from nothing (start) or from
 * what was applied before (reload), and back to nothing (stop).
 *
 * The steps, in this order:
 *
 *	macfilter	DETACH gone ones; SET/REPLACE changed ones; ATTACH
 *			(+ REPLACE) new ones
 *	transit		DETACH, SET with the changed parameters, ATTACH
 *	dsr params	one SET_PARAMS with the values that change; a key
 *			taken out of the config gets the kernel's default
 *	slaves		release gone ones, enslave new ones
 *	address		RTM_DELADDR the old one, RTM_NEWADDR the new
 *
 * macfilter comes first so that a list is in place before any slave is
 * set up; the DSR parameters before the slaves because slave_qdisc acts
 * when a slave is enslaved.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ah_dsr.h>
#include <linux/ah_macfilter.h>
#include <linux/ah_transit.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "daemon.h"
#include "dsrd.h"
#include "log.h"
#include "mfreq.h"
#include "rtnl.h"

const struct family *const families[__FAM_MAX] = {
	[FAM_DSR] = &dsr_family,
	[FAM_MACFILTER] = &macfilter_family,
	[FAM_TRANSIT] = &transit_family,
};

/* What a step does when it fails: stop (start) or go on (reload). */
struct run {
	bool keep_going;
	int failed;
};

/* A failed step: -1 stops a start, a reload counts it and goes on. */
static int step_failed(struct run *r)
{
	r->failed++;
	return r->keep_going ? 0 : -1;
}

/* ---- families and sockets ------------------------------------------------ */

/* 1: the family exists, 0: it does not, -1: cannot tell (logged). */
static int fam_exists(const char *name)
{
	struct nl_sock *sk = nl_socket_alloc();
	int id, ret = 1;

	if (!sk) {
		log_err("out of memory");
		return -1;
	}
	id = genl_connect(sk);
	if (id >= 0)
		id = genl_ctrl_resolve(sk, name);
	if (id == -NLE_OBJ_NOTFOUND) {
		ret = 0;
	} else if (id < 0) {
		log_err("%s: cannot resolve the generic netlink family: %s",
			name, nl_geterror(id));
		ret = -1;
	}
	nl_socket_free(sk);
	return ret;
}

static bool fam_needed(const struct conf *c, enum fam_id id)
{
	return id == FAM_DSR || (id == FAM_MACFILTER && c->nmf) ||
	       (id == FAM_TRANSIT && c->ntr);
}

/* Open @id if its module is loaded: 1 open, 0 not loaded, -1 error. */
static int fam_try_open(struct dsrd *d, enum fam_id id)
{
	struct fam *fam = &d->fam[id];
	int r;

	fam->f = families[id];
	if (fam->present)
		return 1;
	r = fam_exists(fam->f->desc.name);
	if (r <= 0)
		return r;
	if (genl_open(&fam->req, NULL, &fam->f->desc))
		return -1;
	fam->present = true;
	return 1;
}

static void module_missing(const struct fam *fam)
{
	log_err("%s: kernel module %s is not loaded (modprobe %s)",
		fam->f->desc.name, fam->f->desc.module, fam->f->desc.module);
}

int apply_open(struct dsrd *d, const struct conf *c)
{
	bool missing = false;
	int id, r;

	for (id = 0; id < __FAM_MAX; id++) {
		r = fam_try_open(d, id);
		if (r < 0)
			return DSRD_EXIT_ERR;
		if (!r && fam_needed(c, id)) {
			module_missing(&d->fam[id]);
			missing = true;
		}
	}
	if (missing)
		return DSRD_EXIT_NOMOD;
	if (rtnl_open(&d->rt))
		return DSRD_EXIT_ERR;
	d->sock_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (d->sock_fd < 0) {
		log_err("socket: %s", strerror(errno));
		return DSRD_EXIT_ERR;
	}
	return DSRD_EXIT_OK;
}

void apply_close(struct dsrd *d)
{
	int id;

	for (id = 0; id < __FAM_MAX; id++) {
		genl_close(&d->fam[id].req);
		d->fam[id].present = false;
	}
	genl_close(&d->rt);
	if (d->sock_fd >= 0)
		close(d->sock_fd);
	d->sock_fd = -1;
}

/* ---- requests ------------------------------------------------------------ */

static struct nl_msg *fam_msg(struct dsrd *d, enum fam_id id, uint8_t cmd,
			      size_t size)
{
	return genl_new(&d->fam[id].req, cmd, 0, size);
}

/* Send @msg (freed) and wait for the ACK; 0 or -1 (printed). */
static int fam_send(struct dsrd *d, enum fam_id id, struct nl_msg *msg)
{
	return genl_request(&d->fam[id].req, msg, NULL, NULL) ? -1 : 0;
}

static int put_failed(struct nl_msg *msg)
{
	nlmsg_free(msg);
	log_err("out of memory building a request");
	return -1;
}

/* A request naming interface @ifname; every family's IFNAME is 2. */
static struct nl_msg *dev_msg(struct dsrd *d, enum fam_id id, uint8_t cmd,
			      const char *ifname, size_t size)
{
	struct nl_msg *msg = fam_msg(d, id, cmd, size);

	_Static_assert((int)MACFILTER_A_IFNAME == (int)TRANSIT_A_IFNAME,
		       "one IFNAME attribute");
	if (msg && nla_put_string(msg, MACFILTER_A_IFNAME, ifname)) {
		put_failed(msg);
		return NULL;
	}
	return msg;
}

static bool if_exists(const char *name)
{
	return if_nametoindex(name) != 0;
}

/* ---- macfilter ----------------------------------------------------------- */

static const char *mode_name(uint8_t mode)
{
	return mode == MACFILTER_MODE_ALLOW ? "allow" : "deny";
}

static uint32_t mf_max(const struct conf_macfilter *m)
{
	return m->max_entries ? m->max_entries : MACFILTER_DEFAULT_MAX_ENTRIES;
}

static int mf_simple(struct dsrd *d, uint8_t cmd, const char *ifname,
		     int mode, uint32_t max)
{
	struct nl_msg *msg = dev_msg(d, FAM_MACFILTER, cmd, ifname, 0);

	if (!msg)
		return -1;
	if ((mode >= 0 && nla_put_u8(msg, MACFILTER_A_MODE, (uint8_t)mode)) ||
	    (max && nla_put_u32(msg, MACFILTER_A_MAX_ENTRIES, max)))
		return put_failed(msg);
	return fam_send(d, FAM_MACFILTER, msg);
}

/* The whole list in one REPLACE: the kernel swaps it in atomically. */
static int mf_replace(struct dsrd *d, const struct conf_macfilter *m)
{
	struct nl_msg *msg;

	msg = dev_msg(d, FAM_MACFILTER, MACFILTER_CMD_REPLACE, m->ifname,
		      mfreq_msg_size(m->nentries));
	if (!msg)
		return -1;
	if (nla_put_u8(msg, MACFILTER_A_MODE, m->mode) ||
	    mfreq_put_entries(msg, m->entries, m->nentries))
		return put_failed(msg);
	genl_set_sndbuf(&d->fam[FAM_MACFILTER].req,
			nlmsg_hdr(msg)->nlmsg_len + 4096);
	return fam_send(d, FAM_MACFILTER, msg);
}

static int mf_record(struct mf_applied *a, const struct conf_macfilter *m)
{
	struct maclist_entry *e = NULL;

	if (m->nentries) {
		e = malloc(m->nentries * sizeof(*e));
		if (!e) {
			log_err("out of memory");
			return -1;
		}
		memcpy(e, m->entries, m->nentries * sizeof(*e));
	}
	free(a->entries);
	a->entries = e;
	a->nentries = m->nentries;
	a->mode = m->mode;
	return 0;
}

static bool mf_same_list(const struct mf_applied *a,
			 const struct conf_macfilter *m)
{
	const struct maclist_entry *x, *y;
	size_t i;

	if (a->mode != m->mode || a->nentries != m->nentries)
		return false;
	for (i = 0; i < m->nentries; i++) {
		x = &a->entries[i];
		y = &m->entries[i];
		if (memcmp(x->mac, y->mac, MAC_LEN) ||
		    x->has_loss != y->has_loss ||
		    (x->has_loss && x->loss != y->loss))
			return false;
	}
	return true;
}

static int mf_attach(struct dsrd *d, const struct conf_macfilter *m)
{
	struct mf_applied *a = &d->mf[d->nmf];

	if (mf_simple(d, MACFILTER_CMD_ATTACH, m->ifname, m->mode,
		      m->max_entries)) {
		log_err("macfilter %s: cannot attach", m->ifname);
		return -1;
	}
	memset(a, 0, sizeof(*a));
	memcpy(a->ifname, m->ifname, IFNAMSIZ);
	a->mode = m->mode;
	a->max_entries = mf_max(m);
	d->nmf++;
	if (m->nentries && mf_replace(d, m)) {
		log_err("macfilter %s: cannot load the list", m->ifname);
		return -1;	/* attached: the caller's undo detaches */
	}
	if (mf_record(a, m))
		return -1;
	log_info("macfilter %s: attached, mode %s, %zu entries", m->ifname,
		 mode_name(m->mode), m->nentries);
	return 0;
}

static void mf_forget(struct dsrd *d, size_t i)
{
	free(d->mf[i].entries);
	d->mf[i] = d->mf[--d->nmf];
	d->mf[d->nmf].entries = NULL;
}

static int mf_detach(struct dsrd *d, size_t i)
{
	const char *ifname = d->mf[i].ifname;

	if (!if_exists(ifname)) {
		log_info("macfilter %s: the interface is gone", ifname);
	} else if (mf_simple(d, MACFILTER_CMD_DETACH, ifname, -1, 0)) {
		log_err("macfilter %s: cannot detach", ifname);
		return -1;
	} else {
		log_info("macfilter %s: detached", ifname);
	}
	mf_forget(d, i);
	return 0;
}

static int mf_set_max(struct dsrd *d, struct mf_applied *a, uint32_t max)
{
	if (mf_simple(d, MACFILTER_CMD_SET, a->ifname, -1, max)) {
		log_err("macfilter %s: cannot set max_entries %u", a->ifname,
			max);
		return -1;
	}
	log_info("macfilter %s: max_entries %u -> %u", a->ifname,
		 a->max_entries, max);
	a->max_entries = max;
	return 0;
}

/* Room first when the list grows, the new list, then the smaller room. */
static int mf_update(struct dsrd *d, struct mf_applied *a,
		     const struct conf_macfilter *m)
{
	uint32_t max = mf_max(m);

	if (max > a->max_entries && mf_set_max(d, a, max))
		return -1;
	if (!mf_same_list(a, m)) {
		if (mf_replace(d, m)) {
			log_err("macfilter %s: cannot replace the list",
				a->ifname);
			return -1;
		}
		log_info("macfilter %s: list replaced: mode %s -> %s, %zu -> %zu entries",
			 a->ifname, mode_name(a->mode), mode_name(m->mode),
			 a->nentries, m->nentries);
		if (mf_record(a, m))
			return -1;
	}
	if (max < a->max_entries && mf_set_max(d, a, max))
		return -1;
	return 0;
}

static const struct conf_macfilter *mf_conf(const struct conf *c,
					    const char *ifname)
{
	size_t i;

	for (i = 0; i < c->nmf; i++)
		if (!strcmp(c->mf[i].ifname, ifname))
			return &c->mf[i];
	return NULL;
}

static struct mf_applied *mf_applied(struct dsrd *d, const char *ifname)
{
	size_t i;

	for (i = 0; i < d->nmf; i++)
		if (!strcmp(d->mf[i].ifname, ifname))
			return &d->mf[i];
	return NULL;
}

static int mf_apply(struct dsrd *d, const struct conf *c, struct run *r)
{
	struct mf_applied *a;
	size_t i;

	for (i = d->nmf; i-- > 0;)
		if (!mf_conf(c, d->mf[i].ifname) && mf_detach(d, i) &&
		    step_failed(r))
			return -1;
	for (i = 0; i < c->nmf; i++) {
		a = mf_applied(d, c->mf[i].ifname);
		if ((a ? mf_update(d, a, &c->mf[i]) :
			 mf_attach(d, &c->mf[i])) && step_failed(r))
			return -1;
	}
	return 0;
}

/* ---- transit ------------------------------------------------------------- */

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

static int tr_detach(struct dsrd *d, size_t i)
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

static int tr_apply(struct dsrd *d, const struct conf *c, struct run *r)
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

/* ---- DSR parameters ------------------------------------------------------ */

static const char *param_str(int id, uint32_t v, char *buf, size_t size)
{
	struct in_addr in = { .s_addr = v };

	if (id == DSR_A_P_SUBNET)
		return inet_ntop(AF_INET, &in, buf, (socklen_t)size) ? buf :
		       "?";
	snprintf(buf, size, "%u", v);
	return buf;
}

static struct nl_msg *dsr_msg(struct dsrd *d, uint8_t cmd)
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
	struct nlattr *tb[DSR_A_MAX + 1];
	struct defaults *r = arg;
	uint8_t cmd;
	int i;

	if (genl_parse(&r->d->fam[FAM_DSR].req, msg, &cmd, tb, DSR_A_MAX) ||
	    cmd != DSR_CMD_GET_PARAMS)
		return 0;
	for (i = 0; i < CONF_DSR_NPARAMS; i++)
		if (attr_u32(tb[DSR_A_P_FIRST + i], &r->d->dsr_defaults[i]))
			r->n++;
	return 0;
}

/* The new device's parameters are the kernel's defaults. */
static int dsr_read_defaults(struct dsrd *d)
{
	struct defaults r = { .d = d };
	struct nl_msg *msg = dsr_msg(d, DSR_CMD_GET_PARAMS);

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
		log_info("%s: %s %s -> %s", d->device, dsr_family.attrs[id].name,
			 param_str(id, d->dsr_cur[i], a, sizeof(a)),
			 param_str(id, v[i], b, sizeof(b)));
	}
}

static int dsr_params_apply(struct dsrd *d, const struct conf *c,
			    struct run *r)
{
	bool send[CONF_DSR_NPARAMS], any = false;
	uint32_t v[CONF_DSR_NPARAMS];
	struct conf_params want;
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
	msg = dsr_msg(d, DSR_CMD_SET_PARAMS);
	if (!msg)
		return step_failed(r);
	for (i = 0; i < CONF_DSR_NPARAMS; i++)
		if (send[i] && nla_put_u32(msg, DSR_A_P_FIRST + i, v[i])) {
			put_failed(msg);
			return step_failed(r);
		}
	if (fam_send(d, FAM_DSR, msg)) {
		log_err("%s: cannot set its parameters", d->device);
		return step_failed(r);
	}
	dsr_log_params(d, v, send);
	memcpy(d->dsr_cur, v, sizeof(v));
	return 0;
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

static int slaves_apply(struct dsrd *d, const struct conf *c, struct run *r)
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

static int addr_apply(struct dsrd *d, const struct conf *c, struct run *r)
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

/* ---- start, reload, stop ------------------------------------------------- */

static int apply_all(struct dsrd *d, const struct conf *c, struct run *r)
{
	if (mf_apply(d, c, r) || tr_apply(d, c, r) ||
	    dsr_params_apply(d, c, r) || slaves_apply(d, c, r) ||
	    addr_apply(d, c, r))
		return -1;
	return 0;
}

static int check_ifname(const char *ifname, const char *what)
{
	if (if_exists(ifname))
		return 0;
	log_err("%s %s: no such interface", what, ifname);
	return -1;
}

/* Every interface @c names exists (except the device). */
static int check_interfaces(const struct conf *c)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < c->dsr.nslaves; i++)
		ret |= check_ifname(c->dsr.slaves[i], "[dsr] Interface");
	for (i = 0; i < c->nmf; i++)
		ret |= check_ifname(c->mf[i].ifname, "[macfilter] Interface");
	for (i = 0; i < c->ntr; i++)
		ret |= check_ifname(c->tr[i].ifname, "[transit] Interface");
	return ret;
}

static int dsr_create(struct dsrd *d, const struct conf *c)
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

int apply_start(struct dsrd *d, const struct conf *c)
{
	struct run r = { .keep_going = false };

	if (if_exists(c->dsr.device)) {
		log_err("%s already exists; dsrd creates its device (ip link del %s)",
			c->dsr.device, c->dsr.device);
		return -1;
	}
	if (check_interfaces(c))
		return -1;
	if (dsr_create(d, c) || apply_all(d, c, &r))
		goto undo;
	if (rtnl_set_up(&d->rt, d->dev_ifindex, true)) {
		log_err("%s: cannot set it up", d->device);
		goto undo;
	}
	log_info("%s: up", d->device);
	return 0;

undo:
	apply_teardown(d);
	return -1;
}

/* The families @c needs are there: modules may have been loaded since. */
static int reload_families(struct dsrd *d, const struct conf *c)
{
	int id, r, ret = 0;

	for (id = 0; id < __FAM_MAX; id++) {
		if (!fam_needed(c, id) || d->fam[id].present)
			continue;
		r = fam_try_open(d, id);
		if (r == 1)
			events_subscribe(d, &d->fam[id]);
		if (r == 0)
			module_missing(&d->fam[id]);
		if (r != 1)
			ret = -1;
	}
	return ret;
}

int apply_reload(struct dsrd *d, const struct conf *c)
{
	struct run r = { .keep_going = true };

	if (strcmp(c->dsr.device, d->device)) {
		log_err("Device cannot change (%s to %s) on reload; restart dsrd",
			d->device, c->dsr.device);
		return -1;
	}
	if (check_interfaces(c) || reload_families(d, c))
		return -1;
	apply_all(d, c, &r);
	return r.failed;
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

static int dsr_delete(struct dsrd *d)
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

int apply_teardown(struct dsrd *d)
{
	int ret = 0;

	while (d->ntr)
		if (tr_detach(d, d->ntr - 1)) {
			ret = -1;
			d->ntr--;
		}
	while (d->nmf)
		if (mf_detach(d, d->nmf - 1)) {
			ret = -1;
			mf_forget(d, d->nmf - 1);
		}
	if (dsr_delete(d))
		ret = -1;
	return ret;
}
