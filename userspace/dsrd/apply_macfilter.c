// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd: macfilter on each interface of the config (see apply.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ah_macfilter.h>

#include "apply.h"
#include "dsrd.h"
#include "log.h"
#include "mfreq.h"

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

void mf_forget(struct dsrd *d, size_t i)
{
	free(d->mf[i].entries);
	d->mf[i] = d->mf[--d->nmf];
	d->mf[d->nmf].entries = NULL;
}

int mf_detach(struct dsrd *d, size_t i)
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

int mf_apply(struct dsrd *d, const struct conf *c, struct run *r)
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
