// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd config file parser (docs/dsrd.conf.5).  No netlink here: the unit
 * tests build it on the host.
 *
 * The file is read line by line; '#' starts a comment anywhere, so no
 * value can contain one.  Each section has a table of keys; [dsr.params]
 * and [transit] also take the modules' parameter names.  A section is
 * checked as a whole when the next one starts, the file when it ends.
 * Parsing stops at the first error.  This file reads the lines, sections
 * and [log]; the families' sections are conf_dsr.c, conf_macfilter.c,
 * conf_transit.c, conf_slice.c and conf_mcast.c.
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

#include "conf_parse.h"
#include "dsrd.h"
#include "parse.h"

_Static_assert(CONF_DSR_NPARAMS <= CONF_PARAMS_MAX, "CONF_PARAMS_MAX");
_Static_assert(CONF_TR_NPARAMS <= CONF_PARAMS_MAX, "CONF_PARAMS_MAX");

/* ---- parser state -------------------------------------------------------- */

static const char *const section_names[__S_MAX] = {
	[S_DSR] = "dsr",
	[S_DSR_PARAMS] = "dsr.params",
	[S_MACFILTER] = "macfilter",
	[S_TRANSIT] = "transit",
	[S_SLICE] = "slice",
	[S_MCAST] = "mcast",
	[S_MCAST_MAP] = "mcast.map",
	[S_LOG] = "log",
};

int perr_at(struct parser *p, unsigned int line, const char *fmt, ...)
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

/* ---- values -------------------------------------------------------------- */

int parse_uint(struct parser *p, const char *key, const char *s,
		      uint32_t min, uint32_t max, uint32_t *v)
{
	if (parse_u32(s, v) || *v < min || *v > max)
		return perr(p, "invalid %s '%s' (an integer %u..%u)", key, s,
			    min, max);
	return 0;
}

int parse_bool(const char *s, bool *b)
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
int parse_ifname(struct parser *p, const char *key, const char *s,
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

int set_param(struct parser *p, struct conf_params *ps, int i,
		     const char *name, uint32_t v)
{
	if (ps->line[i])
		return perr(p, "%s given twice (first at line %u)", name,
			    ps->line[i]);
	ps->val[i] = v;
	ps->line[i] = p->line;
	return 0;
}

int u32_param(struct parser *p, struct conf_params *ps, int i,
		     const char *name, const char *v)
{
	uint32_t x;

	if (parse_u32(v, &x))
		return perr(p, "invalid %s '%s' (an integer 0..%u)", name, v,
			    UINT32_MAX);
	return set_param(p, ps, i, name, x);
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
	[S_SLICE] = sl_keys,
	[S_MCAST] = mc_keys,
	[S_MCAST_MAP] = mm_keys,
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
	case S_SLICE:
		return sl_finish(p, cur_sl(p));
	case S_MCAST:
		return mc_finish(p, cur_mc(p));
	case S_MCAST_MAP:
		return mm_finish(p, cur_mm(p));
	default:
		return 0;
	}
}

static int section_start(struct parser *p, enum section s)
{
	struct conf *c = p->c;

	if (p->first[s] && s != S_MACFILTER && s != S_TRANSIT &&
	    s != S_SLICE && s != S_MCAST && s != S_MCAST_MAP)
		return perr(p, "section [%s] given twice (first at line %u)",
			    section_names[s], p->first[s]);
	if (!p->first[s])
		p->first[s] = p->line;
	if ((s == S_MACFILTER && c->nmf == CONF_MAX_SECTIONS) ||
	    (s == S_TRANSIT && c->ntr == CONF_MAX_SECTIONS) ||
	    (s == S_SLICE && c->nsl == CONF_MAX_SECTIONS))
		return perr(p, "more than %d [%s] sections", CONF_MAX_SECTIONS,
			    section_names[s]);
	if (s == S_MCAST && c->nmc == CONF_MAX_MCAST)
		return perr(p, "more than %d [mcast] sections (the groups a DSR device has)",
			    CONF_MAX_MCAST);
	if (s == S_MCAST_MAP && c->nmm == CONF_MAX_MCMAP)
		return perr(p, "more than %d [mcast.map] sections (the groups of a DSR device's source map)",
			    CONF_MAX_MCMAP);
	if (s == S_MCAST)
		c->mc[c->nmc++].line = p->line;
	if (s == S_MCAST_MAP)
		c->mm[c->nmm++].line = p->line;
	if (s == S_MACFILTER)
		c->mf[c->nmf++].line = p->line;
	if (s == S_TRANSIT) {
		c->tr[c->ntr].line = p->line;
		c->tr[c->ntr++].enable = true;
	}
	if (s == S_SLICE) {
		c->sl[c->nsl].line = p->line;
		c->sl[c->nsl++].mode = SLICE_MODE_MOVE;
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
		return perr(p, "unknown section [%s] (dsr, dsr.params, macfilter, transit, slice, mcast, mcast.map or log)",
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
	if (check_ifnames(p))
		return -1;
	return check_slices(p);
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
