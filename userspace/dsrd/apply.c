// SPDX-License-Identifier: GPL-2.0
/*
 * Bring the kernel to what the config says, from nothing (start) or from
 * what was applied before (reload), and back to nothing (stop).
 *
 * The steps, in this order:
 *
 *	slice		(reload) REVOKE the grants of leases taken out
 *	macfilter	DETACH gone ones; SET/REPLACE changed ones; ATTACH
 *			(+ REPLACE) new ones
 *	transit		DETACH, SET with the changed parameters, ATTACH
 *	dsr params	one SET_PARAMS with the values that change; a key
 *			taken out of the config gets the kernel's default
 *	slaves		release gone ones, enslave new ones
 *	address		RTM_DELADDR the old one, RTM_NEWADDR the new
 *	(start: the device is set up)
 *	mcast		UNMAP the mapped sources taken out, MAP new ones;
 *			LEAVE the groups taken out; JOIN new and changed ones,
 *			then their CHAIN (a changed Chain alone: only it)
 *	slice		GRANT each lease whose interface is not granted
 *
 * macfilter comes first so that a list is in place before any slave is
 * set up; the DSR parameters before the slaves because slave_qdisc acts
 * when a slave is enslaved; the joins once the device is up with its
 * address, which a join needs (and a failed one stops a start as the
 * other steps do).  A revoked interface is back in the node
 * before the steps that may use it, one leased now is let go by them
 * first; the slice steps never stop a start (a slice's namespace may
 * come later: the next reload grants its lease), and come after
 * everything else there, so a failed start leaves no grant behind.
 * Each family's steps are in apply_dsr.c, apply_macfilter.c,
 * apply_transit.c, apply_mcast.c and apply_slice.c.
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
#include <linux/ah_slice.h>
#include <linux/ah_transit.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "apply.h"
#include "daemon.h"
#include "dsrd.h"
#include "log.h"
#include "mfreq.h"
#include "rtnl.h"

const struct family *const families[__FAM_MAX] = {
	[FAM_DSR] = &dsr_family,
	[FAM_MACFILTER] = &macfilter_family,
	[FAM_TRANSIT] = &transit_family,
	[FAM_SLICE] = &slice_family,
};

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
	       (id == FAM_TRANSIT && c->ntr) || (id == FAM_SLICE && c->nsl);
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

struct nl_msg *fam_msg(struct dsrd *d, enum fam_id id, uint8_t cmd,
			      size_t size)
{
	return genl_new(&d->fam[id].req, cmd, 0, size);
}

/* Send @msg (freed) and wait for the ACK; 0 or -1 (printed). */
int fam_send(struct dsrd *d, enum fam_id id, struct nl_msg *msg)
{
	return genl_request(&d->fam[id].req, msg, NULL, NULL) ? -1 : 0;
}

int put_failed(struct nl_msg *msg)
{
	nlmsg_free(msg);
	log_err("out of memory building a request");
	return -1;
}

/* A request naming interface @ifname; every family's IFNAME is 2. */
struct nl_msg *dev_msg(struct dsrd *d, enum fam_id id, uint8_t cmd,
			      const char *ifname, size_t size)
{
	struct nl_msg *msg = fam_msg(d, id, cmd, size);

	_Static_assert((int)MACFILTER_A_IFNAME == (int)TRANSIT_A_IFNAME &&
		       (int)MACFILTER_A_IFNAME == (int)SLICE_A_IFNAME,
		       "one IFNAME attribute");
	if (msg && nla_put_string(msg, MACFILTER_A_IFNAME, ifname)) {
		put_failed(msg);
		return NULL;
	}
	return msg;
}

bool if_exists(const char *name)
{
	return if_nametoindex(name) != 0;
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

/* It exists, or comes back from a slice when the reload revokes it. */
static int check_ifname(const struct dsrd *d, const struct conf *c,
			const char *ifname, const char *what)
{
	if (if_exists(ifname) || sl_returning(d, c, ifname))
		return 0;
	log_err("%s %s: no such interface", what, ifname);
	return -1;
}

/*
 * Every interface @c names exists (except the device, and those of
 * [slice]: a leased one is in its slice, and a lease failing is no
 * reason to refuse the rest).
 */
static int check_interfaces(const struct dsrd *d, const struct conf *c)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < c->dsr.nslaves; i++)
		ret |= check_ifname(d, c, c->dsr.slaves[i], "[dsr] Interface");
	for (i = 0; i < c->nmf; i++)
		ret |= check_ifname(d, c, c->mf[i].ifname,
				    "[macfilter] Interface");
	for (i = 0; i < c->ntr; i++)
		ret |= check_ifname(d, c, c->tr[i].ifname,
				    "[transit] Interface");
	return ret;
}

int apply_start(struct dsrd *d, const struct conf *c)
{
	struct run r = { .keep_going = false };

	if (if_exists(c->dsr.device)) {
		log_err("%s already exists; dsrd creates its device (ip link del %s)",
			c->dsr.device, c->dsr.device);
		return -1;
	}
	if (check_interfaces(d, c))
		return -1;
	if (dsr_create(d, c) || apply_all(d, c, &r))
		goto undo;
	if (rtnl_set_up(&d->rt, d->dev_ifindex, true)) {
		log_err("%s: cannot set it up", d->device);
		goto undo;
	}
	log_info("%s: up", d->device);
	if (mc_apply(d, c, &r))
		goto undo;
	sl_grant_all(d, c, &r);
	if (r.failed)
		log_err("slice: %d of the leases are not granted (logged above); the next reload tries again",
			r.failed);
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
	if (check_interfaces(d, c) || reload_families(d, c))
		return -1;
	sl_revoke_gone(d, c, &r);
	apply_all(d, c, &r);
	mc_apply(d, c, &r);
	sl_grant_all(d, c, &r);
	return r.failed;
}

/*
 * The slices keep their grants: each ends at its lease, or by ahctl.  The
 * multicast groups and the source map go with the device: no LEAVE, no
 * UNMAP.
 */
int apply_teardown(struct dsrd *d)
{
	int ret = 0;

	if (d->nsl)
		log_info("slice: %zu grants stay (ahctl slice show)", d->nsl);
	d->nsl = 0;
	d->nmc = 0;
	d->nmm = 0;

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
