// SPDX-License-Identifier: GPL-2.0
/*
 * Motion trace parser (trace.h, docs/trace.5).  Bounded: at most
 * TRACE_MAX_STEPS steps, max_entries entries a step, lines of any length.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define TRACE_LINE_MAX	(1 << 20)

void trace_init(struct trace *t)
{
	memset(t, 0, sizeof(*t));
}

void trace_free(struct trace *t)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		maclist_free(&t->steps[i].list);
	free(t->steps);
	trace_init(t);
}

struct tparser {
	const char *name;
	unsigned long line;
	size_t max_entries;
	char *err;
	size_t errlen;
	bool failed;
};

static void __attribute__((format(printf, 2, 3)))
terr(struct tparser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->failed)
		return;
	p->failed = true;
	n = snprintf(p->err, p->errlen, "%s:%lu: ", p->name, p->line);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
}

/* "12", "12.5", "0.001": seconds with at most 3 fraction digits, to ms */
static int time_parse(const char *s, uint64_t *ms)
{
	uint64_t v = 0;
	int frac = -1;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac == 3)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (frac >= 0)
			frac++;
		if (v > TRACE_MAX_TIME_MS)
			return -1;
	}
	if (frac == 0)
		return -1;	/* "12." */
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++)
		v *= 10;
	if (v > TRACE_MAX_TIME_MS)
		return -1;
	*ms = v;
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return memcmp(((const struct maclist_entry *)a)->mac,
		      ((const struct maclist_entry *)b)->mac, MAC_LEN);
}

static int entry_parse(struct tparser *p, char *tok, struct maclist *l)
{
	char *slash = strchr(tok, '/');
	struct maclist_entry *e;

	if (p->max_entries && l->count >= p->max_entries) {
		terr(p, "more than %zu entries in one step", p->max_entries);
		return -1;
	}
	if (l->count == l->alloc) {
		size_t n = l->alloc ? 2 * l->alloc : 8;

		e = realloc(l->entries, n * sizeof(*e));
		if (!e) {
			terr(p, "out of memory");
			return -1;
		}
		l->entries = e;
		l->alloc = n;
	}
	e = &l->entries[l->count];
	memset(e, 0, sizeof(*e));
	e->line = p->line;
	if (slash)
		*slash = '\0';
	if (mac_parse(tok, e->mac)) {
		terr(p, "'%.40s' is not a MAC address", tok);
		return -1;
	}
	if (mac_is_multicast(e->mac)) {
		terr(p, "%s is a multicast address", tok);
		return -1;
	}
	if (slash) {
		if (mac_loss_parse(slash + 1, &e->loss)) {
			terr(p, "loss '%.20s' is not a percentage 0..100",
			     slash + 1);
			return -1;
		}
		e->has_loss = true;
	}
	l->count++;
	return 0;
}

/* No MAC twice in one step (sorted copy: n log n for any step size). */
static int step_check_dups(struct tparser *p, const struct maclist *l)
{
	struct maclist_entry *s;
	char buf[MAC_STR_LEN];
	size_t i;

	if (l->count < 2)
		return 0;
	s = malloc(l->count * sizeof(*s));
	if (!s) {
		terr(p, "out of memory");
		return -1;
	}
	memcpy(s, l->entries, l->count * sizeof(*s));
	qsort(s, l->count, sizeof(*s), entry_cmp);
	for (i = 1; i < l->count; i++)
		if (!entry_cmp(&s[i - 1], &s[i]))
			break;
	if (i < l->count)
		terr(p, "%s appears twice in one step",
		     mac_format(s[i].mac, buf));
	free(s);
	return p->failed ? -1 : 0;
}

static struct trace_step *step_new(struct tparser *p, struct trace *t)
{
	struct trace_step *s;

	if (t->count >= TRACE_MAX_STEPS) {
		terr(p, "more than %d steps", TRACE_MAX_STEPS);
		return NULL;
	}
	if (t->count == t->alloc) {
		size_t n = t->alloc ? 2 * t->alloc : 16;

		s = realloc(t->steps, n * sizeof(*s));
		if (!s) {
			terr(p, "out of memory");
			return NULL;
		}
		t->steps = s;
		t->alloc = n;
	}
	s = &t->steps[t->count++];
	memset(s, 0, sizeof(*s));
	maclist_init(&s->list);
	s->line = p->line;
	return s;
}

/* One line, NUL-terminated and without its '\n' (modified in place). */
static int line_parse(struct tparser *p, struct trace *t, char *s)
{
	struct trace_step *st = NULL;
	bool dash = false;
	char *tok, *hash;

	hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	for (tok = strtok(s, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
		if (!st) {
			uint64_t ms;

			if (time_parse(tok, &ms)) {
				terr(p, "'%.40s' is not a time in seconds (at most ms precision)",
				     tok);
				return -1;
			}
			if (t->count && ms < t->steps[t->count - 1].t_ms) {
				terr(p, "time %s is before the previous step's",
				     tok);
				return -1;
			}
			st = step_new(p, t);
			if (!st)
				return -1;
			st->t_ms = ms;
			continue;
		}
		if (dash || (!strcmp(tok, "-") && st->list.count)) {
			terr(p, "'-' stands alone: a step with no entry");
			return -1;
		}
		if (!strcmp(tok, "-")) {
			dash = true;
			continue;
		}
		if (entry_parse(p, tok, &st->list))
			return -1;
	}
	if (st && !dash && !st->list.count) {
		terr(p, "a step needs entries, or '-' for none");
		return -1;
	}
	return st ? step_check_dups(p, &st->list) : 0;
}

int trace_parse_buf(struct trace *t, const char *name, const char *buf,
		    size_t len, size_t max_entries, char *err, size_t errlen)
{
	struct tparser p = {
		.name = name, .max_entries = max_entries,
		.err = err, .errlen = errlen,
	};
	size_t i = 0;
	char *line;

	trace_free(t);
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;

		p.line++;
		if (n > TRACE_LINE_MAX) {
			terr(&p, "line longer than %d bytes", TRACE_LINE_MAX);
			break;
		}
		if (memchr(buf + i, '\0', n)) {
			terr(&p, "NUL byte in the file");
			break;
		}
		line = strndup(buf + i, n);
		if (!line) {
			terr(&p, "out of memory");
			break;
		}
		line_parse(&p, t, line);
		free(line);
		if (p.failed)
			break;
		i += n + 1;
	}
	if (!p.failed && !t->count) {
		p.line = 0;
		snprintf(err, errlen, "%s: no step", name);
		p.failed = true;
	}
	if (p.failed)
		trace_free(t);
	return p.failed ? -1 : 0;
}

int trace_parse_file(struct trace *t, const char *name, FILE *f,
		     size_t max_entries, char *err, size_t errlen)
{
	size_t len = 0, alloc = 0, n;
	char *buf = NULL, *nb;
	int ret;

	for (;;) {
		if (alloc - len < 65536) {
			if (alloc > (size_t)64 << 20) {
				snprintf(err, errlen, "%s: larger than 64 MiB",
					 name);
				free(buf);
				return -1;
			}
			nb = realloc(buf, alloc + 65536);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory",
					 name);
				free(buf);
				return -1;
			}
			buf = nb;
			alloc += 65536;
		}
		n = fread(buf + len, 1, alloc - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", name);
		free(buf);
		return -1;
	}
	ret = trace_parse_buf(t, name, buf, len, max_entries, err, errlen);
	free(buf);
	return ret;
}
