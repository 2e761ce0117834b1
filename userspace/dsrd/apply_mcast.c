// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd: the joins of the DSR device's local receivers to layered
 * multicast groups, [mcast] (see apply.c, docs/mcast.md).
 *
 * A join needs the device's address, so this step comes once the device
 * is set up: one MCAST_JOIN a section, built by the common library as
 * "ahctl dsr mcast join" builds it.  dsrd keeps each join the kernel took
 * as its section said it; a reload sends a LEAVE for each of those whose
 * section was taken out and a JOIN for each section that is new or
 * changed (a JOIN of a group the device has changes it in place), and
 * nothing for the others.  A join that fails is not kept, so the next
 * reload tries again; a leave that fails keeps the join, unless the
 * kernel has no such group (left with ahctl meanwhile).  No leave when
 * dsrd stops: the groups go with the device.
 *
 * A section's Chain is one MCAST_CHAIN right after its join, built as
 * "ahctl dsr mcast chain" builds it: sent when the join is, and when only
 * the Chain changed; a Chain taken out from a section that stays sends
 * "default", once.  A chain the kernel refuses keeps the join, and the
 * next reload sends it again; one refused as of no such group (left with
 * ahctl meanwhile) forgets the join as well, for the next reload to join
 * again.
 *
 * The source map, [mcast.map], comes first (a local socket's any-source
 * join may wait for it): one MCAST_MAP for each (group, source) that is
 * new, one MCAST_UNMAP for each that dsrd mapped and the file no longer
 * has, nothing for the others.  A map the kernel has already (made with
 * ahctl) is taken as dsrd's; an unmap of a pair the kernel has not
 * (unmapped with ahctl) forgets it.  A map that fails is not kept and an
 * unmap that fails keeps the pair, so the next reload tries again.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ah_dsr.h>

#include "apply.h"
#include "dsr_mcast.h"
#include "dsrd.h"
#include "log.h"

/* "source S group G layers N tag ..." and more */
#define MC_STR_MAX	192

/* "source S group G ELEMENT..." */
#define MC_CHAIN_STR_MAX \
	(MC_STR_MAX + DSR_MC_CHAIN_MAX * (DSR_MC_ELEM_STR_MAX + 1))

static int mc_send(struct dsrd *d, const struct dsr_mc_req *req, bool join)
{
	struct nl_msg *msg = dsr_dev_msg(d, join ? DSR_CMD_MCAST_JOIN :
					 DSR_CMD_MCAST_LEAVE);

	if (!msg)
		return -1;
	if (dsr_mc_put(msg, req, join))
		return put_failed(msg);
	errno = 0;
	return fam_send(d, FAM_DSR, msg);
}

/* The join of dsrd's of @req's (source, group), or -1 */
static int mc_find(const struct dsrd *d, const struct dsr_mc_req *req)
{
	size_t i;

	for (i = 0; i < d->nmc; i++)
		if (dsr_mc_same_group(&d->mc[i], req))
			return (int)i;
	return -1;
}

static bool mc_in_conf(const struct conf *c, const struct dsr_mc_req *req)
{
	size_t i;

	for (i = 0; i < c->nmc; i++)
		if (dsr_mc_same_group(&c->mc[i].req, req))
			return true;
	return false;
}

static void mc_forget(struct dsrd *d, size_t i)
{
	memmove(&d->mc[i], &d->mc[i + 1], (d->nmc - i - 1) * sizeof(d->mc[0]));
	memmove(&d->mc_chain[i], &d->mc_chain[i + 1],
		(d->nmc - i - 1) * sizeof(d->mc_chain[0]));
	d->nmc--;
}

static int mc_leave(struct dsrd *d, size_t i)
{
	char s[MC_STR_MAX];

	dsr_mc_str(&d->mc[i], false, s, sizeof(s));
	if (mc_send(d, &d->mc[i], false)) {
		if (errno != ENOENT) {
			log_err("%s: mcast %s: cannot leave; the next reload tries again",
				d->device, s);
			return -1;
		}
		log_info("%s: mcast %s: no local receivers in the kernel (left meanwhile); forgotten",
			 d->device, s);
	} else {
		log_info("%s: mcast %s: left", d->device, s);
	}
	mc_forget(d, i);
	return 0;
}

/*
 * The kernel keeps a group's tag unless a join gives one: a section whose
 * tag was taken out sends the tag a new group gets (byte, offset 0, all
 * the layers).
 */
static void mc_untag(struct dsr_mc_req *req)
{
	dsr_mc_set(req, DSR_A_MC_TAG_MODE, DSR_MC_TAG_BYTE);
	dsr_mc_set(req, DSR_A_MC_TAG_LAYERS, DSR_MC_MAX_LAYERS);
	dsr_mc_tag_defaults(req);
}

/* The JOIN of @cm, unless dsrd's of its group is the same: 0, or -1 */
static int mc_join(struct dsrd *d, const struct conf_mcast *cm, int i)
{
	char s[MC_STR_MAX], was[MC_STR_MAX];
	struct dsr_mc_req req = cm->req, old;

	if (i < 0 && d->nmc == ARRAY_SIZE(d->mc)) {
		dsr_mc_str(&req, true, s, sizeof(s));
		log_err("%s: mcast %s: not joined: dsrd holds %zu groups already (leaves failed)",
			d->device, s, d->nmc);
		return -1;
	}
	if (i >= 0 && dsr_mc_tagged(&d->mc[i]) && !dsr_mc_tagged(&req))
		mc_untag(&req);
	dsr_mc_str(&req, true, s, sizeof(s));
	if (mc_send(d, &req, true)) {
		log_err("%s: mcast %s: cannot join%s", d->device, s,
			i >= 0 ? "; the join as it was stays" : "");
		return -1;
	}
	if (i < 0) {
		log_info("%s: mcast %s: joined", d->device, s);
		d->mc_chain[d->nmc].set = false;
		d->mc[d->nmc++] = cm->req;
		return 0;
	}
	/* what it was, after its source and group */
	old = d->mc[i];
	old.has[DSR_A_MC_SOURCE - DSR_MC_FIRST] = false;
	old.has[DSR_A_MC_GROUP - DSR_MC_FIRST] = false;
	dsr_mc_str(&old, true, was, sizeof(was));
	log_info("%s: mcast %s: joined again (was %s)", d->device, s, was);
	d->mc[i] = cm->req;
	return 0;
}

static bool mc_chain_equal(const struct dsr_mc_chain *a,
			   const struct dsr_mc_chain *b)
{
	return a->n == b->n && !memcmp(a->e, b->e, a->n * sizeof(a->e[0]));
}

/* "source S group G ELEMENT..." or "... default": "mcast chain"'s words */
static void mc_chain_str(const struct dsr_mc_req *req,
			 const struct dsr_mc_chain *ch, char *buf, size_t size)
{
	size_t i, len;

	dsr_mc_str(req, false, buf, size);
	len = strlen(buf);
	if (!ch->n)
		snprintf(buf + len, size - len, " %s", DSR_MC_CHAIN_DEFAULT);
	for (i = 0; i < ch->n && len + 1 < size; i++) {
		buf[len++] = ' ';
		buf[len] = '\0';
		dsr_mc_elem_str(&ch->e[i], buf + len, size - len);
		len += strlen(buf + len);
	}
}

static int mc_chain_send(struct dsrd *d, const struct dsr_mc_req *req,
			 const struct dsr_mc_chain *ch)
{
	struct nl_msg *msg = dsr_dev_msg(d, DSR_CMD_MCAST_CHAIN);

	if (!msg)
		return -1;
	/* as ahctl: the group's source and group (a leave's), the chain */
	if (dsr_mc_put(msg, req, false) || dsr_mc_chain_put(msg, ch))
		return put_failed(msg);
	errno = 0;
	return fam_send(d, FAM_DSR, msg);
}

/*
 * After the join of @cm (dsrd's d->mc[@i]; @joined: sent just now): its
 * Chain if the join was sent or the Chain is not the one the kernel took;
 * "default" if it has none and dsrd set one.  0, or -1.
 */
static int mc_set_chain(struct dsrd *d, const struct conf_mcast *cm,
			size_t i, bool joined)
{
	static const struct dsr_mc_chain dflt;	/* n 0 */
	struct mc_chain_applied *a = &d->mc_chain[i];
	const struct dsr_mc_chain *ch = cm->has_chain ? &cm->chain : &dflt;
	char s[MC_CHAIN_STR_MAX];

	if (cm->has_chain ? !joined && a->set && mc_chain_equal(&a->ch, ch) :
			    !a->set)
		return 0;
	mc_chain_str(&d->mc[i], ch, s, sizeof(s));
	if (mc_chain_send(d, &d->mc[i], ch)) {
		if (errno != ENOENT) {
			log_err("%s: mcast chain %s: cannot set", d->device, s);
			return -1;
		}
		log_err("%s: mcast chain %s: the kernel has no such group (left meanwhile); the join is forgotten, the next reload joins again",
			d->device, s);
		mc_forget(d, i);
		return -1;
	}
	log_info("%s: mcast chain %s: set", d->device, s);
	a->set = cm->has_chain;
	a->ch = *ch;
	return 0;
}

/* @cm's join if new or changed, then its chain */
static int mc_section(struct dsrd *d, const struct conf_mcast *cm)
{
	int i = mc_find(d, &cm->req);
	bool joined = false;

	if (i < 0 || !dsr_mc_equal(&d->mc[i], &cm->req)) {
		if (mc_join(d, cm, i))
			return -1;
		if (i < 0)
			i = (int)d->nmc - 1;
		joined = true;
	}
	return mc_set_chain(d, cm, (size_t)i, joined);
}

/* ---- the source map ----------------------------------------------------- */

static int mm_send(struct dsrd *d, uint32_t group, uint32_t source, bool map)
{
	struct nl_msg *msg = dsr_dev_msg(d, map ? DSR_CMD_MCAST_MAP :
					 DSR_CMD_MCAST_UNMAP);
	struct dsr_mc_req req = { 0 };

	if (!msg)
		return -1;
	/* the attributes "ahctl dsr mcast map" sends */
	dsr_mc_set(&req, DSR_A_MC_GROUP, group);
	dsr_mc_set(&req, DSR_A_MC_SOURCE, source);
	if (dsr_mc_put(msg, &req, false))
		return put_failed(msg);
	errno = 0;
	return fam_send(d, FAM_DSR, msg);
}

/* "group G source S" */
static const char *mm_str(uint32_t group, uint32_t source, char *s,
			  size_t len)
{
	char g[INET_ADDRSTRLEN], a[INET_ADDRSTRLEN];
	struct in_addr in = { .s_addr = group };

	inet_ntop(AF_INET, &in, g, sizeof(g));
	in.s_addr = source;
	inet_ntop(AF_INET, &in, a, sizeof(a));
	snprintf(s, len, "group %s source %s", g, a);
	return s;
}

static bool mm_in_conf(const struct conf *c, uint32_t group, uint32_t source)
{
	size_t i, j;

	for (i = 0; i < c->nmm; i++) {
		if (c->mm[i].group != group)
			continue;
		for (j = 0; j < c->mm[i].nsource; j++)
			if (c->mm[i].source[j] == source)
				return true;
	}
	return false;
}

static bool mm_held(const struct dsrd *d, uint32_t group, uint32_t source)
{
	size_t i;

	for (i = 0; i < d->nmm; i++)
		if (d->mm[i].group == group && d->mm[i].source == source)
			return true;
	return false;
}

static int mm_unmap(struct dsrd *d, size_t i)
{
	char s[2 * INET_ADDRSTRLEN + 16];

	mm_str(d->mm[i].group, d->mm[i].source, s, sizeof(s));
	if (mm_send(d, d->mm[i].group, d->mm[i].source, false)) {
		if (errno != ENOENT) {
			log_err("%s: mcast map %s: cannot unmap; the next reload tries again",
				d->device, s);
			return -1;
		}
		log_info("%s: mcast map %s: not in the kernel's map (unmapped meanwhile); forgotten",
			 d->device, s);
	} else {
		log_info("%s: mcast map %s: unmapped", d->device, s);
	}
	memmove(&d->mm[i], &d->mm[i + 1], (d->nmm - i - 1) * sizeof(d->mm[0]));
	d->nmm--;
	return 0;
}

static int mm_map(struct dsrd *d, uint32_t group, uint32_t source)
{
	char s[2 * INET_ADDRSTRLEN + 16];

	mm_str(group, source, s, sizeof(s));
	if (d->nmm == ARRAY_SIZE(d->mm)) {
		log_err("%s: mcast map %s: not mapped: dsrd holds %zu pairs already (unmaps failed)",
			d->device, s, d->nmm);
		return -1;
	}
	if (mm_send(d, group, source, true)) {
		if (errno != EEXIST) {
			log_err("%s: mcast map %s: cannot map%s", d->device, s,
				errno == ENOSPC ? " (the kernel's map is full)" : "");
			return -1;
		}
		log_info("%s: mcast map %s: in the kernel's map already; kept as the file's",
			 d->device, s);
	} else {
		log_info("%s: mcast map %s: mapped", d->device, s);
	}
	d->mm[d->nmm].group = group;
	d->mm[d->nmm++].source = source;
	return 0;
}

static int mm_apply(struct dsrd *d, const struct conf *c, struct run *r)
{
	const struct conf_mcmap *mm;
	size_t i, j;

	for (i = d->nmm; i-- > 0;)
		if (!mm_in_conf(c, d->mm[i].group, d->mm[i].source) &&
		    mm_unmap(d, i) && step_failed(r))
			return -1;
	for (i = 0; i < c->nmm; i++) {
		mm = &c->mm[i];
		for (j = 0; j < mm->nsource; j++)
			if (!mm_held(d, mm->group, mm->source[j]) &&
			    mm_map(d, mm->group, mm->source[j]) &&
			    step_failed(r))
				return -1;
	}
	return 0;
}

/* ---- all of it ----------------------------------------------------------- */

int mc_apply(struct dsrd *d, const struct conf *c, struct run *r)
{
	size_t i;

	if (mm_apply(d, c, r))
		return -1;
	for (i = d->nmc; i-- > 0;)
		if (!mc_in_conf(c, &d->mc[i]) && mc_leave(d, i) &&
		    step_failed(r))
			return -1;
	for (i = 0; i < c->nmc; i++)
		if (mc_section(d, &c->mc[i]) && step_failed(r))
			return -1;
	return 0;
}
