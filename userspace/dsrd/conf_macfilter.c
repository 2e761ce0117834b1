// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config: [macfilter] (docs/dsrd.conf.5).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ah_macfilter.h>

#include "conf_parse.h"
#include "dsrd.h"

static int mf_interface(struct parser *p, char *v)
{
	struct conf_macfilter *mf = cur_mf(p);
	size_t i;

	if (parse_ifname(p, "Interface", v, mf->ifname))
		return -1;
	for (i = 0; i + 1 < p->c->nmf; i++)
		if (!strcmp(p->c->mf[i].ifname, mf->ifname))
			return perr(p, "a [macfilter] for %s already exists (line %u)",
				    mf->ifname, p->c->mf[i].line);
	return 0;
}

static int mf_mode(struct parser *p, char *v)
{
	if (!strcmp(v, "deny"))
		cur_mf(p)->mode = MACFILTER_MODE_DENY;
	else if (!strcmp(v, "allow"))
		cur_mf(p)->mode = MACFILTER_MODE_ALLOW;
	else
		return perr(p, "invalid Mode '%s' (deny or allow)", v);
	return 0;
}

static int mf_max(struct parser *p, char *v)
{
	return parse_uint(p, "MaxEntries", v, 1, MACFILTER_LIMIT_MAX_ENTRIES,
			  &cur_mf(p)->max_entries);
}

static int mf_add(struct parser *p, struct conf_macfilter *mf,
		  const struct maclist_entry *e)
{
	size_t want = mf->alloc ? 2 * mf->alloc : 16;
	struct maclist_entry *n;

	if (mf->nentries >= MACFILTER_LIMIT_MAX_ENTRIES)
		return perr(p, "more than %d entries", MACFILTER_LIMIT_MAX_ENTRIES);
	if (mf->nentries == mf->alloc) {
		n = realloc(mf->entries, want * sizeof(*n));
		if (!n)
			return perr(p, "out of memory");
		mf->entries = n;
		mf->alloc = want;
	}
	mf->entries[mf->nentries++] = *e;
	return 0;
}

/* MAC, "MAC N%" or "MAC loss N" */
static int mf_entry(struct parser *p, char *v)
{
	struct maclist_entry e = { .line = p->line };
	char *save, *mac, *t1, *t2, *t3;
	size_t len;

	mac = strtok_r(v, " \t", &save);
	t1 = strtok_r(NULL, " \t", &save);
	t2 = strtok_r(NULL, " \t", &save);
	t3 = strtok_r(NULL, " \t", &save);
	if (mac_parse(mac, e.mac))
		return perr(p, "invalid MAC address '%s'", mac);
	if (mac_is_multicast(e.mac))
		return perr(p, "multicast MAC %s cannot be a source address",
			    mac);
	if (t1 && !strcmp(t1, "loss")) {
		t1 = t2;
		t2 = t3;
		if (!t1)
			return perr(p, "'loss' needs a value (0..%d)",
				    MACLIST_LOSS_MAX);
	} else if (t1) {
		len = strlen(t1);
		if (len < 2 || t1[len - 1] != '%')
			return perr(p, "invalid loss '%s' (N%% or loss N, N 0..%d)",
				    t1, MACLIST_LOSS_MAX);
		t1[len - 1] = '\0';
	}
	if (t2)
		return perr(p, "unexpected '%s' after the entry", t2);
	if (t1) {
		if (mac_loss_parse(t1, &e.loss))
			return perr(p, "invalid loss '%s' (0..%d)", t1,
				    MACLIST_LOSS_MAX);
		e.has_loss = true;
	}
	return mf_add(p, cur_mf(p), &e);
}

static FILE *open_rel(const struct parser *p, const char *file)
{
	char path[CONF_PATH_MAX + 256];

	if (file[0] == '/' || !p->basedir)
		return fopen(file, "re");
	snprintf(path, sizeof(path), "%s/%s", p->basedir, file);
	return fopen(path, "re");
}

/* A list file as "ahctl macfilter load" reads it (MAC [loss N] lines). */
static int mf_entry_file(struct parser *p, char *v)
{
	char err[512];
	struct maclist list;
	size_t i;
	FILE *f;
	int ret;

	if (strlen(v) >= CONF_PATH_MAX)
		return perr(p, "EntryFile is too long");
	f = open_rel(p, v);
	if (!f)
		return perr(p, "EntryFile %s: %s", v, strerror(errno));
	maclist_init(&list);
	ret = maclist_parse_file(&list, v, f, MACFILTER_LIMIT_MAX_ENTRIES,
				 err, sizeof(err));
	fclose(f);
	if (ret)
		perr(p, "EntryFile %s", err);
	for (i = 0; !ret && i < list.count; i++) {
		list.entries[i].line = p->line;
		ret = mf_add(p, cur_mf(p), &list.entries[i]);
	}
	maclist_free(&list);
	return ret;
}

static int entry_cmp(const void *x, const void *y)
{
	const struct maclist_entry *a = x, *b = y;
	int r = memcmp(a->mac, b->mac, MAC_LEN);

	if (r)
		return r;
	return a->line < b->line ? -1 : a->line > b->line;
}

int mf_finish(struct parser *p, struct conf_macfilter *mf)
{
	uint32_t max = mf->max_entries ? mf->max_entries :
		       MACFILTER_DEFAULT_MAX_ENTRIES;
	const struct maclist_entry *a, *b;
	char buf[MAC_STR_LEN];
	size_t i;

	if (!mf->ifname[0])
		return perr_at(p, mf->line, "[macfilter] without Interface");
	if (mf->nentries)
		qsort(mf->entries, mf->nentries, sizeof(*mf->entries),
		      entry_cmp);
	for (i = 1; i < mf->nentries; i++) {
		a = &mf->entries[i - 1];
		b = &mf->entries[i];
		if (!memcmp(a->mac, b->mac, MAC_LEN))
			return perr_at(p, b->line, "MAC %s listed twice (also at line %lu)",
				       mac_format(b->mac, buf), a->line);
	}
	if (mf->nentries > max)
		return perr_at(p, mf->line, "[macfilter] %s: %zu entries, more than MaxEntries (%u)",
			       mf->ifname, mf->nentries, max);
	return 0;
}

const struct key mf_keys[] = {
	{ "Interface", false, mf_interface },
	{ "Mode", false, mf_mode },
	{ "MaxEntries", false, mf_max },
	{ "Entry", true, mf_entry },
	{ "EntryFile", false, mf_entry_file },
	{ NULL, false, NULL },
};
