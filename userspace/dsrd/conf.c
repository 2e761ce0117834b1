// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config file parser (docs/dsrd.conf.5).  No netlink here: the unit
 * tests build it on the host.
 *
 * The file is read line by line; '#' starts a comment anywhere, so no
 * value can contain one.  Each section has a table of keys; [dsr.params]
 * and [transit] also take the modules' parameter names.  A section is
 * checked as a whole when the next one starts, the file when it ends.
 * Parsing stops at the first error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/ah_macfilter.h>

#include "attrs.h"
#include "conf.h"
#include "dsrd.h"
#include "parse.h"

_Static_assert(CONF_DSR_NPARAMS <= CONF_PARAMS_MAX, "CONF_PARAMS_MAX");
_Static_assert(CONF_TR_NPARAMS <= CONF_PARAMS_MAX, "CONF_PARAMS_MAX");

/* ---- parser state -------------------------------------------------------- */

enum section {
	S_NONE,
	S_DSR,
	S_DSR_PARAMS,
	S_MACFILTER,
	S_TRANSIT,
	S_LOG,
	__S_MAX,
};

static const char *const section_names[__S_MAX] = {
	[S_DSR] = "dsr",
	[S_DSR_PARAMS] = "dsr.params",
	[S_MACFILTER] = "macfilter",
	[S_TRANSIT] = "transit",
	[S_LOG] = "log",
};

#define MAX_KEYS	8	/* daemon keys of one section */

struct parser {
	struct conf *c;
	const char *name;
	const char *basedir;
	unsigned int line;
	enum section sect;
	unsigned int sect_line;
	unsigned int first[__S_MAX];	/* line of each section's first */
	unsigned int key_line[MAX_KEYS];	/* current section's keys */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4)))
perr_at(struct parser *p, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line)
		n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, line);
	else
		n = snprintf(p->err, p->errlen, "%s: ", p->name);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

#define perr(p, ...)	perr_at(p, (p)->line, __VA_ARGS__)

static struct conf_macfilter *cur_mf(struct parser *p)
{
	return &p->c->mf[p->c->nmf - 1];
}

static struct conf_transit *cur_tr(struct parser *p)
{
	return &p->c->tr[p->c->ntr - 1];
}

/* ---- values -------------------------------------------------------------- */

static int parse_uint(struct parser *p, const char *key, const char *s,
		      uint32_t min, uint32_t max, uint32_t *v)
{
	if (parse_u32(s, v) || *v < min || *v > max)
		return perr(p, "invalid %s '%s' (an integer %u..%u)", key, s,
			    min, max);
	return 0;
}

static int parse_bool(const char *s, bool *b)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(s, yes[i])) {
			*b = true;
			return 0;
		}
		if (!strcmp(s, no[i])) {
			*b = false;
			return 0;
		}
	}
	return -1;
}

/* N, NK, NM or NG (powers of 1024) */
static int parse_size(const char *s, uint64_t *v)
{
	unsigned long long x;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || errno)
		return -1;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (*end || x > (UINT64_MAX >> 30))
		return -1;
	*v = (uint64_t)x << shift;
	return 0;
}

/* What the kernel's dev_valid_name() accepts. */
static int parse_ifname(struct parser *p, const char *key, const char *s,
			char buf[IFNAMSIZ])
{
	size_t len = strlen(s);

	if (len >= IFNAMSIZ)
		return perr(p, "%s '%s' is too long (at most %d bytes)", key, s,
			    IFNAMSIZ - 1);
	if (!strcmp(s, ".") || !strcmp(s, "..") || strpbrk(s, "/: \t"))
		return perr(p, "invalid %s '%s'", key, s);
	memcpy(buf, s, len + 1);
	return 0;
}

static uint32_t prefix_mask(unsigned int plen)
{
	return plen ? htonl(~0u << (32 - plen)) : 0;
}

static int parse_path(struct parser *p, const char *key, const char *s,
		      char buf[CONF_PATH_MAX])
{
	size_t len = strlen(s);

	if (s[0] != '/')
		return perr(p, "%s '%s' is not an absolute path", key, s);
	if (len >= CONF_PATH_MAX)
		return perr(p, "%s is too long (at most %d bytes)", key,
			    CONF_PATH_MAX - 1);
	memcpy(buf, s, len + 1);
	return 0;
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

/* ---- parameters ([dsr.params], [transit]) -------------------------------- */

static int set_param(struct parser *p, struct conf_params *ps, int i,
		     const char *name, uint32_t v)
{
	if (ps->line[i])
		return perr(p, "%s given twice (first at line %u)", name,
			    ps->line[i]);
	ps->val[i] = v;
	ps->line[i] = p->line;
	return 0;
}

static int u32_param(struct parser *p, struct conf_params *ps, int i,
		     const char *name, const char *v)
{
	uint32_t x;

	if (parse_u32(v, &x))
		return perr(p, "invalid %s '%s' (an integer 0..%u)", name, v,
			    UINT32_MAX);
	return set_param(p, ps, i, name, x);
}

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

static int dsr_param(struct parser *p, const char *key, const char *v)
{
	int id = fam_param_find(&dsr_family, key);

	if (id < 0)
		return perr(p, "unknown DSR parameter '%s' (the names of 'ahctl dsr help')",
			    key);
	if (id == DSR_A_P_SUBNET)
		return dsr_subnet_param(p, v);
	return u32_param(p, &p->c->dsr.params, id - DSR_A_P_FIRST, key, v);
}

static int tr_param(struct parser *p, const char *key, const char *v)
{
	int id = fam_param_find(&transit_family, key);

	if (id < 0)
		return perr(p, "unknown key '%s' in [transit] (Interface, Enable or a parameter of 'ahctl transit help')",
			    key);
	return u32_param(p, &cur_tr(p)->params, id - TRANSIT_A_P_FIRST, key,
			 v);
}

/* ---- [macfilter] --------------------------------------------------------- */

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

static int mf_finish(struct parser *p, struct conf_macfilter *mf)
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

/* ---- [transit] ----------------------------------------------------------- */

static int tr_interface(struct parser *p, char *v)
{
	struct conf_transit *tr = cur_tr(p);
	size_t i;

	if (parse_ifname(p, "Interface", v, tr->ifname))
		return -1;
	for (i = 0; i + 1 < p->c->ntr; i++)
		if (!strcmp(p->c->tr[i].ifname, tr->ifname))
			return perr(p, "a [transit] for %s already exists (line %u)",
				    tr->ifname, p->c->tr[i].line);
	return 0;
}

static int tr_enable(struct parser *p, char *v)
{
	if (parse_bool(v, &cur_tr(p)->enable))
		return perr(p, "invalid Enable '%s' (yes or no)", v);
	return 0;
}

/* ---- [log] --------------------------------------------------------------- */

static int log_interval(struct parser *p, char *v)
{
	return parse_uint(p, "StatsInterval", v, 0, CONF_INTERVAL_MAX,
			  &p->c->log.stats_interval);
}

static int log_stats_file(struct parser *p, char *v)
{
	return parse_path(p, "StatsFile", v, p->c->log.stats_file);
}

static int max_bytes(struct parser *p, const char *key, const char *v,
		     uint64_t *out)
{
	if (parse_size(v, out) || *out < CONF_MAX_BYTES_MIN)
		return perr(p, "invalid %s '%s' (bytes, at least %d; K, M, G: KiB, MiB, GiB)",
			    key, v, CONF_MAX_BYTES_MIN);
	return 0;
}

static int log_stats_max(struct parser *p, char *v)
{
	return max_bytes(p, "StatsMaxBytes", v, &p->c->log.stats_max_bytes);
}

static int log_stats_keep(struct parser *p, char *v)
{
	return parse_uint(p, "StatsKeep", v, 0, CONF_KEEP_MAX,
			  &p->c->log.stats_keep);
}

static int log_events_file(struct parser *p, char *v)
{
	return parse_path(p, "EventsFile", v, p->c->log.events_file);
}

static int log_events_max(struct parser *p, char *v)
{
	return max_bytes(p, "EventsMaxBytes", v,
			 &p->c->log.events_max_bytes);
}

static int log_events_keep(struct parser *p, char *v)
{
	return parse_uint(p, "EventsKeep", v, 0, CONF_KEEP_MAX,
			  &p->c->log.events_keep);
}

/* ---- keys ---------------------------------------------------------------- */

struct key {
	const char *name;
	bool repeat;
	int (*parse)(struct parser *p, char *v);
};

static const struct key dsr_keys[] = {
	{ "Device", false, dsr_device },
	{ "Interface", true, dsr_interface },
	{ "Address", false, dsr_address },
	{ "Gateway", false, dsr_gateway },
	{ NULL, false, NULL },
};

static const struct key mf_keys[] = {
	{ "Interface", false, mf_interface },
	{ "Mode", false, mf_mode },
	{ "MaxEntries", false, mf_max },
	{ "Entry", true, mf_entry },
	{ "EntryFile", false, mf_entry_file },
	{ NULL, false, NULL },
};

static const struct key tr_keys[] = {
	{ "Interface", false, tr_interface },
	{ "Enable", false, tr_enable },
	{ NULL, false, NULL },
};

static const struct key log_keys[] = {
	{ "StatsInterval", false, log_interval },
	{ "StatsFile", false, log_stats_file },
	{ "StatsMaxBytes", false, log_stats_max },
	{ "StatsKeep", false, log_stats_keep },
	{ "EventsFile", false, log_events_file },
	{ "EventsMaxBytes", false, log_events_max },
	{ "EventsKeep", false, log_events_keep },
	{ NULL, false, NULL },
};

static const struct key no_keys[] = {
	{ NULL, false, NULL },
};

static const struct key *const section_keys[__S_MAX] = {
	[S_DSR] = dsr_keys,
	[S_DSR_PARAMS] = no_keys,
	[S_MACFILTER] = mf_keys,
	[S_TRANSIT] = tr_keys,
	[S_LOG] = log_keys,
};

static int unknown_key(struct parser *p, const struct key *keys,
		       const char *key)
{
	size_t i;

	for (i = 0; keys[i].name; i++)
		if (!strcasecmp(keys[i].name, key))
			return perr(p, "unknown key '%s' in [%s]; did you mean '%s'?",
				    key, section_names[p->sect], keys[i].name);
	return perr(p, "unknown key '%s' in [%s]", key,
		    section_names[p->sect]);
}

static int parse_key(struct parser *p, const char *key, char *v)
{
	const struct key *keys = section_keys[p->sect];
	size_t i;

	for (i = 0; keys[i].name; i++)
		if (!strcmp(keys[i].name, key))
			break;
	if (!keys[i].name) {
		if (p->sect == S_DSR_PARAMS)
			return dsr_param(p, key, v);
		if (p->sect == S_TRANSIT)
			return tr_param(p, key, v);
		return unknown_key(p, keys, key);
	}
	if (p->key_line[i] && !keys[i].repeat)
		return perr(p, "%s given twice in this section (first at line %u)",
			    key, p->key_line[i]);
	p->key_line[i] = p->line;
	return keys[i].parse(p, v);
}

/* ---- sections ------------------------------------------------------------ */

/* The section that ends here is complete. */
static int section_finish(struct parser *p)
{
	switch (p->sect) {
	case S_DSR:
		if (!p->c->dsr.addr)
			return perr_at(p, p->sect_line, "[dsr] without Address");
		return 0;
	case S_MACFILTER:
		return mf_finish(p, cur_mf(p));
	case S_TRANSIT:
		if (!cur_tr(p)->ifname[0])
			return perr_at(p, p->sect_line, "[transit] without Interface");
		return 0;
	default:
		return 0;
	}
}

static int section_start(struct parser *p, enum section s)
{
	struct conf *c = p->c;

	if (p->first[s] && s != S_MACFILTER && s != S_TRANSIT)
		return perr(p, "section [%s] given twice (first at line %u)",
			    section_names[s], p->first[s]);
	if (!p->first[s])
		p->first[s] = p->line;
	if ((s == S_MACFILTER && c->nmf == CONF_MAX_SECTIONS) ||
	    (s == S_TRANSIT && c->ntr == CONF_MAX_SECTIONS))
		return perr(p, "more than %d [%s] sections", CONF_MAX_SECTIONS,
			    section_names[s]);
	if (s == S_MACFILTER)
		c->mf[c->nmf++].line = p->line;
	if (s == S_TRANSIT) {
		c->tr[c->ntr].line = p->line;
		c->tr[c->ntr++].enable = true;
	}
	if (s == S_DSR)
		c->dsr.line = p->line;
	p->sect = s;
	p->sect_line = p->line;
	memset(p->key_line, 0, sizeof(p->key_line));
	return 0;
}

static int parse_header(struct parser *p, char *s)
{
	char *end = strchr(s, ']');
	int i;

	if (!end)
		return perr(p, "missing ']' in section header");
	if (end[1])
		return perr(p, "unexpected '%s' after the section header",
			    end + 1);
	*end = '\0';
	s++;
	for (i = S_DSR; i < __S_MAX; i++)
		if (!strcmp(s, section_names[i]))
			break;
	if (i == __S_MAX)
		return perr(p, "unknown section [%s] (dsr, dsr.params, macfilter, transit or log)",
			    s);
	if (section_finish(p))
		return -1;
	return section_start(p, i);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_line(struct parser *p, char *s)
{
	char *hash = strchr(s, '#'), *eq, *key, *val;

	if (hash)
		*hash = '\0';
	s = trim(s);
	if (!*s)
		return 0;
	if (*s == '[')
		return parse_header(p, s);
	eq = strchr(s, '=');
	if (!eq)
		return perr(p, "expected 'Key = value' or '[section]'");
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (!*key)
		return perr(p, "missing key before '='");
	if (p->sect == S_NONE)
		return perr(p, "'%s' before any section", key);
	if (!*val)
		return perr(p, "%s without a value", key);
	return parse_key(p, key, val);
}

/* ---- the whole file ------------------------------------------------------ */

static int check_gateway(struct parser *p)
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
				       dsr_family.attrs[ids[i]].name, l,
				       d->gateway_line);
	}
	return 0;
}

static int check_ifnames(struct parser *p)
{
	const struct conf *c = p->c;
	size_t i;

	for (i = 0; i < c->nmf; i++)
		if (!strcmp(c->mf[i].ifname, c->dsr.device))
			return perr_at(p, c->mf[i].line, "[macfilter] on the DSR device %s",
				       c->dsr.device);
	for (i = 0; i < c->ntr; i++)
		if (!strcmp(c->tr[i].ifname, c->dsr.device))
			return perr_at(p, c->tr[i].line, "[transit] on the DSR device %s",
				       c->dsr.device);
	for (i = 0; i < c->dsr.nslaves; i++)
		if (!strcmp(c->dsr.slaves[i], c->dsr.device))
			return perr_at(p, c->dsr.line, "Interface %s is the DSR device itself",
				       c->dsr.device);
	return 0;
}

static int parse_finish(struct parser *p)
{
	if (section_finish(p))
		return -1;
	if (!p->first[S_DSR])
		return perr_at(p, 0, "no [dsr] section");
	if (p->first[S_DSR_PARAMS] && check_gateway(p))
		return -1;
	return check_ifnames(p);
}

static int parse_lines(struct parser *p, const char *buf, size_t len)
{
	char line[CONF_LINE_MAX + 1];
	const char *s = buf, *end = buf + len, *nl;
	size_t n;

	while (s < end) {
		p->line++;
		nl = memchr(s, '\n', (size_t)(end - s));
		n = (size_t)((nl ? nl : end) - s);
		if (n > CONF_LINE_MAX)
			return perr(p, "line longer than %d bytes", CONF_LINE_MAX);
		if (memchr(s, '\0', n))
			return perr(p, "NUL byte in the line");
		memcpy(line, s, n);
		line[n] = '\0';
		if (parse_line(p, line))
			return -1;
		s += n + 1;
	}
	return parse_finish(p);
}

void conf_init(struct conf *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->dsr.device, "dsr0");
	strcpy(c->log.stats_file, CONF_STATS_FILE);
	c->log.stats_max_bytes = CONF_MAX_BYTES;
	c->log.stats_keep = CONF_KEEP;
	c->log.events_max_bytes = CONF_MAX_BYTES;
	c->log.events_keep = CONF_KEEP;
}

void conf_free(struct conf *c)
{
	size_t i;

	for (i = 0; i < c->nmf; i++) {
		free(c->mf[i].entries);
		c->mf[i].entries = NULL;
		c->mf[i].nentries = 0;
		c->mf[i].alloc = 0;
	}
}

int conf_parse_buf(struct conf *c, const char *name, const char *buf,
		   size_t len, const char *basedir, char *err, size_t errlen)
{
	struct parser p = {
		.c = c, .name = name, .basedir = basedir,
		.err = err, .errlen = errlen,
	};

	if (errlen)
		err[0] = '\0';
	return parse_lines(&p, buf, len);
}

/* The directory part of @path ("." if none) into @buf. */
static void dir_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		snprintf(buf, size, ".");
		return;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= size)
		n = size - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

int conf_load(struct conf *c, const char *path, char *err, size_t errlen)
{
	char dir[CONF_PATH_MAX];
	char *buf;
	size_t len;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(CONF_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	len = fread(buf, 1, CONF_FILE_MAX + 1, f);
	if (ferror(f) || len > CONF_FILE_MAX) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ?
			 "read error" : "larger than 1 MiB");
		ret = -1;
	} else {
		dir_of(path, dir, sizeof(dir));
		ret = conf_parse_buf(c, path, buf, len, dir, err, errlen);
	}
	free(buf);
	fclose(f);
	return ret;
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
