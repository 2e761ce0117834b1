// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd: the slice leases of the config (see apply.c and
 * include/uapi/linux/ah_slice.h).
 *
 * What is granted is the kernel's to know: each step starts from a GET
 * dump of the grants of dsrd's namespace.  A lease whose interface is not
 * granted is granted (again, if dsrd's grant ended since: the lease ran
 * out); a grant dsrd made that the config no longer has is revoked.  A
 * grant dsrd did not make is left alone, unless it is exactly what the
 * config says (same interface, same slice's label): then it is taken as
 * dsrd's, so that a restart of dsrd keeps its leases and can still
 * revoke them.  Nothing here waits for a lease's end: the kernel revokes
 * an expired lease itself, with or without dsrd, and the next reload
 * grants it again.  dsrd leaves its grants in place when it stops.
 *
 * A map grant (Mode = map) leaves the slice's side to dsrd: after the
 * grant it configures the slice's interface in the slice's namespace
 * (common/slice_map.c), and revokes the grant if that fails; when the
 * kernel announces a new ADDR for it (the node's address changed), it
 * re-addresses that interface (sl_event()).  A changed Mode or Keep is
 * granted again: no request changes a running grant.
 *
 * A wireless interface in move mode moves with its phy, which the kernel
 * leaves to dsrd (common/slice_phy.c): after the grant, if it waits for
 * its phy, dsrd moves the phy into the slice and waits for the grant to
 * be ACTIVE, else revokes it.  A grant of dsrd's that ended is held by
 * the kernel until its phy is back in the node (RETURNING): dsrd brings
 * it back (slice_phy_return(): from the namespace the phy is in, by its
 * interface or, when the slice deleted that, by its name) after its own
 * revoke, when the kernel announces the end of one (its lease ran out,
 * the slice moved the phy on or deleted the interface) and when a step
 * finds one; then a lease still in the config is granted again on the
 * next reload, as any ended one (one whose interface is gone cannot be:
 * the kernel says so).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ah_slice.h>

#include "apply.h"
#include "dsrd.h"
#include "log.h"
#include "names.h"

/* how often to restart a dump the kernel flagged as inconsistent */
#define DUMP_TRIES	5

/* One grant of the kernel: the interface, as named in the node, the
 * slice's label, the mode and state, a wireless one's phy and, of a map
 * grant, KEEP and the slice's side. */
struct sl_grant {
	char ifname[IFNAMSIZ];
	char name[SLICE_NAME_MAX];
	uint8_t mode;
	uint8_t state;
	char phy[SLICE_PHY_NAME_MAX];
	uint16_t keep[SLICE_KEEP_MAX];
	uint8_t nkeep;
	bool mapped;		/* map: ADDR and SLICE_IFINDEX in @map */
	struct slice_map map;
};

struct sl_grants {
	struct genl *g;
	struct sl_grant *v;
	size_t n, cap;
};

/* The PORTs of a KEEP nest (at most SLICE_KEEP_MAX of them) */
static uint8_t keep_read(const struct nlattr *nest, uint16_t *keep)
{
	const struct nlattr *p;
	uint8_t n = 0;
	int rem;

	if (!nest)
		return 0;
	nla_for_each_nested(p, nest, rem)
		if (nla_type(p) == SLICE_A_PORT && nla_len(p) >= 2 &&
		    n < SLICE_KEEP_MAX)
			keep[n++] = nla_get_u16((struct nlattr *)p);
	return n;
}

static int grants_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	struct sl_grants *k = arg;
	struct sl_grant *more, *g;
	uint8_t cmd;

	if (genl_parse(k->g, msg, &cmd, tb, SLICE_A_MAX) ||
	    cmd != SLICE_CMD_GET || !tb[SLICE_A_IFNAME])
		return 0;
	if (k->n == k->cap) {
		more = reallocarray(k->v, k->cap + 16, sizeof(*more));
		if (!more) {
			log_err("out of memory");
			return -1;
		}
		k->v = more;
		k->cap += 16;
	}
	g = &k->v[k->n++];
	memset(g, 0, sizeof(*g));
	attr_str(tb[SLICE_A_IFNAME], g->ifname, IFNAMSIZ);
	attr_str(tb[SLICE_A_NAME], g->name, SLICE_NAME_MAX);
	attr_u8(tb[SLICE_A_MODE], &g->mode);
	/* a module before SLICE_A_STATE: ACTIVE (0) */
	attr_u8(tb[SLICE_A_STATE], &g->state);
	attr_str(tb[SLICE_A_PHY], g->phy, sizeof(g->phy));
	g->nkeep = keep_read(tb[SLICE_A_KEEP], g->keep);
	g->mapped = g->mode == SLICE_MODE_MAP && !slice_map_parse(tb, &g->map);
	return 0;
}

/* Every grant of the node's namespace into @k; 0 or -1 (logged). */
static int grants_read(struct dsrd *d, struct sl_grants *k)
{
	struct nl_msg *msg;
	int tries, r = -1;

	k->g = &d->fam[FAM_SLICE].req;
	for (tries = 0; tries < DUMP_TRIES; tries++) {
		k->n = 0;
		msg = genl_new(k->g, SLICE_CMD_GET, NLM_F_DUMP, 0);
		if (!msg)
			break;
		r = genl_request(k->g, msg, grants_cb, k);
		if (r != GENL_DUMP_INTR)
			break;
	}
	if (r == GENL_DUMP_INTR)
		log_err("slice: the grants kept changing while being read");
	if (r) {
		log_err("slice: cannot read the grants; no lease changed");
		return -1;
	}
	return 0;
}

static const struct sl_grant *grant_of(const struct sl_grants *k,
				       const char *ifname)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].ifname, ifname))
			return &k->v[i];
	return NULL;
}

static const char *label(const char *name)
{
	return name[0] ? name : "(no name)";
}

/* "3600 s", or "none" */
static const char *lease_str(uint32_t lease, char *buf, size_t size)
{
	if (!lease)
		return "none";
	snprintf(buf, size, "%u s", lease);
	return buf;
}

/* ---- what dsrd granted --------------------------------------------------- */

static struct sl_applied *applied_of(struct dsrd *d, const char *ifname)
{
	size_t i;

	for (i = 0; i < d->nsl; i++)
		if (!strcmp(d->sl[i].ifname, ifname))
			return &d->sl[i];
	return NULL;
}

/*
 * Room for one more: the config's leases, and the grants of earlier ones
 * that could not be revoked yet.  0, or -1 (logged).
 */
static int applied_room(const struct dsrd *d, const char *ifname)
{
	if (d->nsl < ARRAY_SIZE(d->sl))
		return 0;
	log_err("slice %s: dsrd already holds %zu grants it could not revoke; not granted (ahctl slice revoke)",
		ifname, d->nsl);
	return -1;
}

static struct sl_applied *applied_record(struct dsrd *d,
					 const struct conf_slice *l)
{
	struct sl_applied *a = &d->sl[d->nsl++];

	memset(a, 0, sizeof(*a));
	memcpy(a->ifname, l->ifname, IFNAMSIZ);
	memcpy(a->slice, l->slice, SLICE_NAME_MAX);
	a->lease = l->lease;
	a->mode = l->mode;
	memcpy(a->keep, l->keep, sizeof(a->keep));
	a->nkeep = l->nkeep;
	return a;
}

static void applied_forget(struct dsrd *d, struct sl_applied *a)
{
	*a = d->sl[--d->nsl];
}

static const struct conf_slice *lease_of(const struct conf *c,
					 const char *ifname)
{
	size_t i;

	for (i = 0; i < c->nsl; i++)
		if (!strcmp(c->sl[i].ifname, ifname))
			return &c->sl[i];
	return NULL;
}

/* The same mode, and the same ports kept (in any order) */
static bool same_terms(const struct sl_applied *a, const struct conf_slice *l)
{
	size_t i, j;

	if (a->mode != l->mode || a->nkeep != l->nkeep)
		return false;
	for (i = 0; i < l->nkeep; i++) {
		for (j = 0; j < a->nkeep && a->keep[j] != l->keep[i]; j++)
			;
		if (j == a->nkeep)
			return false;
	}
	return true;
}

bool sl_returning(const struct dsrd *d, const struct conf *c,
		  const char *ifname)
{
	size_t i;

	for (i = 0; i < d->nsl; i++)
		if (!strcmp(d->sl[i].ifname, ifname))
			return !lease_of(c, ifname);
	return false;
}

/* ---- requests ------------------------------------------------------------ */

/*
 * The grant of @ifname to @slice (its label), if the kernel holds it
 * until its phy is back (RETURNING): the phy moved back from the slice.
 * 0 (nothing to do, or done), or -1 (logged).
 */
static int sl_phy_home(struct dsrd *d, const char *ifname, const char *slice)
{
	struct slice_phy p;

	switch (slice_phy_return(&d->fam[FAM_SLICE].req, ifname, &p)) {
	case SLICE_PHY_NONE:
		return 0;
	case SLICE_PHY_MOVED:
		log_info("slice %s: %s is back from slice %s", ifname,
			 p.info.phy, label(slice));
		return 0;
	case SLICE_PHY_ORPHAN:
		log_info("slice %s: slice %s's network namespace is gone: cfg80211 handed %s to the initial network namespace%s",
			 ifname, label(slice), p.info.phy,
			 p.init_netns ? "" : ", not dsrd's");
		return 0;
	default:
		break;
	}
	log_err("slice %s: %s is not back from slice %s: the interface stays down there (the next reload tries again)",
		ifname, p.info.phy[0] ? p.info.phy : "its phy", label(slice));
	return -1;
}

static int sl_revoke(struct dsrd *d, const struct sl_applied *a)
{
	struct nl_msg *msg = dev_msg(d, FAM_SLICE, SLICE_CMD_REVOKE,
				     a->ifname, 0);

	if (!msg || fam_send(d, FAM_SLICE, msg)) {
		log_err("slice %s: cannot revoke it from slice %s", a->ifname,
			a->slice);
		return -1;
	}
	log_info("slice %s: revoked from slice %s", a->ifname, a->slice);
	/* a wireless one is held down until its phy is back */
	return a->phy[0] ? sl_phy_home(d, a->ifname, a->slice) : 0;
}

/* The slice's namespace; -1 if there is none (logged). */
static int netns_open(const struct conf_slice *l)
{
	int fd = genl_netns_try_open(l->slice);

	if (fd >= 0)
		return fd;
	if (fd == -ENOENT)
		log_err("slice %s: network namespace \"%s\" does not exist (no /run/netns/%s: ip netns add %s); not granted",
			l->ifname, l->slice, l->slice, l->slice);
	else
		log_err("slice %s: cannot open network namespace \"%s\": %s; not granted",
			l->ifname, l->slice, strerror(-fd));
	return -1;
}

/*
 * The slice's side of dsrd's map grant @a, in the slice's namespace @fd,
 * from what the kernel says of the grant; if it cannot be configured, the
 * grant is revoked.  0, or -1 (logged).
 */
static int sl_map_side(struct dsrd *d, struct sl_applied *a, int fd)
{
	char addr[INET_ADDRSTRLEN];
	struct in_addr in;
	struct slice_map m;

	if (!slice_map_get(&d->fam[FAM_SLICE].req, a->ifname, &m) &&
	    !slice_map_setup(fd, &m)) {
		a->mapped = true;
		a->map = m;
		in.s_addr = m.addr;
		inet_ntop(AF_INET, &in, addr, sizeof(addr));
		log_info("slice %s: slice %s has %s/32 on %s, up, and its default route",
			 a->ifname, a->slice, addr, m.ifname);
		return 0;
	}
	log_err("slice %s: the slice's side of the map grant could not be configured; revoking the grant",
		a->ifname);
	if (!sl_revoke(d, a))
		applied_forget(d, a);
	return -1;
}

/*
 * dsrd's move grant @a, in the namespace @fd: a wireless interface's phy
 * moved there; if it cannot be, the grant is revoked.  0, or -1 (logged).
 */
static int sl_phy_side(struct dsrd *d, struct sl_applied *a, int fd)
{
	struct slice_phy p;

	switch (slice_phy_grant(&d->fam[FAM_SLICE].req, a->ifname, fd, &p)) {
	case SLICE_PHY_NONE:
		return 0;
	case SLICE_PHY_MOVED:
		memcpy(a->phy, p.info.phy, sizeof(a->phy));
		log_info("slice %s: %s moved into slice %s; the grant is active",
			 a->ifname, a->phy, a->slice);
		return 0;
	default:
		break;
	}
	/* without a phy, the grant could not be read (logged): it stays */
	if (!p.info.phy[0])
		return -1;
	if (p.revoked) {
		log_err("slice %s: %s did not move into slice %s; the grant is revoked",
			a->ifname, p.info.phy, a->slice);
		applied_forget(d, a);
	} else {
		memcpy(a->phy, p.info.phy, sizeof(a->phy));
		log_err("slice %s: %s did not move into slice %s, nor the grant revoked (the next reload tries again)",
			a->ifname, p.info.phy, a->slice);
	}
	return -1;
}

/* KEEP: the ports of @l, a nest of PORT attributes */
static int put_keep(struct nl_msg *msg, const struct conf_slice *l)
{
	struct nlattr *nest;
	size_t i;

	if (!l->nkeep)
		return 0;
	nest = nla_nest_start(msg, SLICE_A_KEEP | NLA_F_NESTED);
	if (!nest)
		return -1;
	for (i = 0; i < l->nkeep; i++)
		if (nla_put_u16(msg, SLICE_A_PORT, l->keep[i]))
			return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * GRANT @l to the namespace of @fd, with its name as the label; in map
 * mode, then the slice's side; in move mode, a wireless interface's phy.
 */
static int sl_grant(struct dsrd *d, const struct conf_slice *l, int fd)
{
	struct nl_msg *msg = dev_msg(d, FAM_SLICE, SLICE_CMD_GRANT,
				     l->ifname, 0);
	bool map = l->mode == SLICE_MODE_MAP;
	struct sl_applied *a;

	if (!msg)
		return -1;
	if (applied_room(d, l->ifname)) {
		nlmsg_free(msg);
		return -1;
	}
	if (nla_put_u32(msg, SLICE_A_NETNS_FD, (uint32_t)fd) ||
	    nla_put_string(msg, SLICE_A_NAME, l->slice) ||
	    nla_put_u8(msg, SLICE_A_MODE, l->mode) ||
	    (l->lease && nla_put_u32(msg, SLICE_A_LEASE, l->lease)) ||
	    put_keep(msg, l))
		return put_failed(msg);
	if (fam_send(d, FAM_SLICE, msg)) {
		log_err("slice %s: cannot grant it to slice %s", l->ifname,
			l->slice);
		return -1;
	}
	a = applied_record(d, l);
	if (l->lease)
		log_info("slice %s: granted to slice %s%s for %u s", l->ifname,
			 l->slice, map ? " in map mode" : "", l->lease);
	else
		log_info("slice %s: granted to slice %s%s until revoked",
			 l->ifname, l->slice, map ? " in map mode" : "");
	return map ? sl_map_side(d, a, fd) : sl_phy_side(d, a, fd);
}

/*
 * Grant @l; if @a (dsrd's grant of the interface to another slice) is
 * given, revoke that first, once the new slice's namespace is open.
 */
static int sl_move(struct dsrd *d, const struct conf_slice *l,
		   struct sl_applied *a)
{
	int fd = netns_open(l), ret = -1;

	if (fd < 0) {
		if (a)
			log_info("slice %s: stays granted to slice %s",
				 a->ifname, a->slice);
		return -1;
	}
	if (a) {
		if (sl_revoke(d, a))
			goto out;
		applied_forget(d, a);
	}
	ret = sl_grant(d, l, fd);
out:
	close(fd);
	return ret;
}

/* dsrd's map grant @a whose slice's side is not configured: again */
static int sl_remap(struct dsrd *d, const struct conf_slice *l,
		    struct sl_applied *a)
{
	int fd = netns_open(l), ret;

	if (fd < 0)
		return -1;
	ret = sl_map_side(d, a, fd);
	close(fd);
	return ret;
}

/* ---- the steps ----------------------------------------------------------- */

/*
 * The grants, if there is something to do (@todo): 1 read, 0 nothing to
 * do, -1 (logged, counted).  A dsrd without leases sends nothing.
 */
static int sl_begin(struct dsrd *d, bool todo, struct sl_grants *k,
		    struct run *r)
{
	if (!todo)
		return 0;
	if (!d->fam[FAM_SLICE].present) {
		/* unloaded: rmmod revoked every grant */
		d->nsl = 0;
		return 0;
	}
	if (grants_read(d, k)) {
		r->failed++;
		return -1;
	}
	return 1;
}

void sl_revoke_gone(struct dsrd *d, const struct conf *c, struct run *r)
{
	struct sl_grants k = { 0 };
	const struct sl_grant *g;
	struct sl_applied *a;
	bool todo = false;
	size_t i;

	for (i = 0; i < d->nsl; i++)
		todo |= !lease_of(c, d->sl[i].ifname);
	if (sl_begin(d, todo, &k, r) <= 0)
		goto out;
	for (i = d->nsl; i-- > 0;) {
		a = &d->sl[i];
		if (lease_of(c, a->ifname))
			continue;
		g = grant_of(&k, a->ifname);
		if (!g) {
			log_info("slice %s: the grant to slice %s has ended already",
				 a->ifname, a->slice);
		} else if (strcmp(g->name, a->slice)) {
			log_info("slice %s: granted to slice %s, not by dsrd; left alone",
				 a->ifname, label(g->name));
		} else {
			/* as the kernel has it: a wireless one's phy */
			memcpy(a->phy, g->phy, sizeof(a->phy));
			if (sl_revoke(d, a)) {
				r->failed++;
				continue;
			}
		}
		applied_forget(d, a);
	}
out:
	free(k.v);
}

/* One lease of the config, the grants as the kernel has them @k */
static int sl_lease(struct dsrd *d, const struct conf_slice *l,
		    const struct sl_grants *k)
{
	const struct sl_grant *g = grant_of(k, l->ifname);
	struct sl_applied *a = applied_of(d, l->ifname);
	char x[16], y[16];

	/*
	 * ended (its lease ran out, say), and held until its phy is back:
	 * back, then granted again as any ended grant
	 */
	if (g && g->state == SLICE_STATE_RETURNING &&
	    (!strcmp(g->name, l->slice) || (a && !strcmp(g->name, a->slice)))) {
		if (sl_phy_home(d, l->ifname, g->name))
			return -1;
		g = NULL;
	}
	if (a && (!g || strcmp(g->name, a->slice))) {
		/* dsrd's grant ended: its lease ran out, or it was revoked */
		log_info("slice %s: the grant to slice %s has ended%s",
			 l->ifname, a->slice, g ? "" : "; granting it again");
		applied_forget(d, a);
		a = NULL;
	}
	if (!g)
		return sl_move(d, l, NULL);
	if (!a && !strcmp(g->name, l->slice)) {
		if (applied_room(d, l->ifname))
			return -1;
		/* as the kernel has it: the slice's side is done already */
		a = applied_record(d, l);
		a->mode = g->mode;
		memcpy(a->keep, g->keep, sizeof(a->keep));
		a->nkeep = g->nkeep;
		a->mapped = g->mapped;
		a->map = g->map;
		memcpy(a->phy, g->phy, sizeof(a->phy));
		log_info("slice %s: granted to slice %s already; dsrd's lease from now on",
			 l->ifname, l->slice);
	}
	if (!a) {
		log_err("slice %s: granted to slice %s, not by dsrd; not granted to slice %s (ahctl slice revoke dev %s)",
			l->ifname, label(g->name), l->slice, l->ifname);
		return -1;
	}
	/* as the kernel has it: a wireless one's phy */
	if (g->phy[0])
		memcpy(a->phy, g->phy, sizeof(a->phy));
	if (strcmp(a->slice, l->slice))
		return sl_move(d, l, a);
	if (!same_terms(a, l)) {
		/* nor a running grant's mode or ports: granted anew */
		if (a->mode != l->mode)
			log_info("slice %s: Mode %s -> %s: granting it to slice %s again",
				 l->ifname, NAME_OF(slice_mode_names, a->mode),
				 NAME_OF(slice_mode_names, l->mode), l->slice);
		else
			log_info("slice %s: Keep changed: granting it to slice %s again",
				 l->ifname, l->slice);
		return sl_move(d, l, a);
	}
	if (l->mode == SLICE_MODE_MAP && !a->mapped && sl_remap(d, l, a))
		return -1;
	if (a->lease != l->lease) {
		/* no request changes a running lease: the next grant has it */
		log_info("slice %s: Lease %s -> %s takes effect when the grant to slice %s ends",
			 l->ifname, lease_str(a->lease, x, sizeof(x)),
			 lease_str(l->lease, y, sizeof(y)), l->slice);
		a->lease = l->lease;
	}
	return 0;
}

void sl_grant_all(struct dsrd *d, const struct conf *c, struct run *r)
{
	struct sl_grants k = { 0 };
	size_t i;

	if (sl_begin(d, c->nsl > 0, &k, r) <= 0)
		goto out;
	for (i = 0; i < c->nsl; i++)
		if (sl_lease(d, &c->sl[i], &k))
			r->failed++;
out:
	free(k.v);
}

/*
 * The kernel ended a wireless grant and holds it until its phy is back:
 * if it is dsrd's (or its config's), the phy comes back.  Not after a
 * REVOKE request: whoever sent it brings the phy back (dsrd after its
 * own, ahctl after its).
 */
static void sl_returning_event(struct dsrd *d, const char *ifname,
			       const char *name, struct nlattr **tb)
{
	const struct conf_slice *l = d->conf ? lease_of(d->conf, ifname) : NULL;
	struct sl_applied *a = applied_of(d, ifname);
	uint8_t reason = SLICE_REASON_REVOKED;

	if (!attr_u8(tb[SLICE_A_REASON], &reason) ||
	    reason == SLICE_REASON_REVOKED)
		return;
	if ((a && !strcmp(a->slice, name)) || (l && !strcmp(l->slice, name)))
		sl_phy_home(d, ifname, name);
}

void sl_event(struct dsrd *d, uint8_t cmd, struct nlattr **tb)
{
	char ifname[IFNAMSIZ], name[SLICE_NAME_MAX] = "", addr[INET_ADDRSTRLEN];
	uint8_t state = SLICE_STATE_ACTIVE;
	struct sl_applied *a;
	struct slice_map m;
	struct in_addr in;
	uint32_t old;
	int fd;

	if (!attr_str(tb[SLICE_A_IFNAME], ifname, sizeof(ifname)))
		return;
	attr_str(tb[SLICE_A_NAME], name, sizeof(name));
	if (cmd == SLICE_CMD_REVOKE && attr_u8(tb[SLICE_A_STATE], &state) &&
	    state == SLICE_STATE_RETURNING) {
		sl_returning_event(d, ifname, name, tb);
		return;
	}
	if (cmd != SLICE_CMD_GRANT || slice_map_parse(tb, &m))
		return;
	a = applied_of(d, ifname);
	/* dsrd's own grant, its slice's interface, a new address */
	if (!a || !a->mapped || strcmp(a->slice, name) ||
	    m.ifindex != a->map.ifindex || m.addr == a->map.addr)
		return;
	old = a->map.addr;
	a->map = m;
	in.s_addr = m.addr;
	inet_ntop(AF_INET, &in, addr, sizeof(addr));
	fd = genl_netns_try_open(a->slice);
	if (fd < 0) {
		log_err("slice %s: the mapped address is %s now, but network namespace \"%s\" cannot be opened: %s",
			ifname, addr, a->slice, strerror(-fd));
		return;
	}
	if (slice_map_readdress(fd, &m, old))
		log_err("slice %s: the mapped address is %s now; slice %s's interface %s could not follow (logged above)",
			ifname, addr, a->slice, m.ifname);
	else
		log_info("slice %s: the mapped address is %s now, on %s in slice %s",
			 ifname, m.addr ? addr : "none", m.ifname, a->slice);
	close(fd);
}
