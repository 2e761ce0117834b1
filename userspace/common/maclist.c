// SPDX-License-Identifier: GPL-2.0
/*
 * MAC list file parser.
 *
 * The input is fed one byte at a time into a small state machine, so memory
 * use does not depend on line length (comments are skipped, never stored) and
 * a buffer and a stream go through the same code.  Parsing stops at the first
 * error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maclist.h"

/* Longest token kept for checks and messages; longer ones are invalid. */
#define TOK_MAX		32

struct parser {
	struct maclist *list;
	const char *name;
	size_t max_entries;
	char *err;
	size_t errlen;

	unsigned long line;
	bool line_started;	/* bytes seen since the last newline */
	bool in_comment;
	char tok[TOK_MAX + 1];
	size_t toklen;		/* may exceed TOK_MAX: token was cut */
	unsigned int ntok;	/* tokens so far on this line */
	struct maclist_entry cur;
	bool failed;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int mac_parse_n(const char *s, size_t len, unsigned char mac[MAC_LEN])
{
	char sep;
	int i, hi, lo;

	if (len != MAC_STR_LEN - 1)
		return -1;
	sep = s[2];
	if (sep != ':' && sep != '-')
		return -1;
	for (i = 0; i < MAC_LEN; i++) {
		hi = hexval(s[3 * i]);
		lo = hexval(s[3 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		if (i < MAC_LEN - 1 && s[3 * i + 2] != sep)
			return -1;
		mac[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

int mac_parse(const char *s, unsigned char mac[MAC_LEN])
{
	unsigned char tmp[MAC_LEN];

	if (mac_parse_n(s, strlen(s), tmp))
		return -1;
	memcpy(mac, tmp, MAC_LEN);
	return 0;
}

char *mac_format(const unsigned char mac[MAC_LEN], char buf[MAC_STR_LEN])
{
	snprintf(buf, MAC_STR_LEN, "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	return buf;
}

static int loss_parse_n(const char *s, size_t len, unsigned char *loss)
{
	unsigned int v = 0;
	size_t i;

	if (len == 0 || len > 3)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	if (v > MACLIST_LOSS_MAX)
		return -1;
	*loss = (unsigned char)v;
	return 0;
}

int mac_loss_parse(const char *s, unsigned char *loss)
{
	return loss_parse_n(s, strlen(s), loss);
}

void maclist_init(struct maclist *list)
{
	memset(list, 0, sizeof(*list));
}

void maclist_free(struct maclist *list)
{
	free(list->entries);
	free(list->hash);
	maclist_init(list);
}

/* ---- duplicate detection ----------------------------------------------- */

static size_t mac_hash(const unsigned char mac[MAC_LEN])
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < MAC_LEN; i++)
		v = v << 8 | mac[i];
	v *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(v ^ v >> 29);
}

/* Slot holding @mac, or the free slot where it belongs. */
static unsigned int *hash_slot(const struct maclist *list,
			       const unsigned char mac[MAC_LEN])
{
	size_t i = mac_hash(mac) & list->hash_mask;
	unsigned int *slot;

	for (;; i = (i + 1) & list->hash_mask) {
		slot = &list->hash[i];
		if (!*slot ||
		    !memcmp(list->entries[*slot - 1].mac, mac, MAC_LEN))
			return slot;
	}
}

static int hash_grow(struct maclist *list)
{
	size_t size = list->hash ? 2 * (list->hash_mask + 1) : 64;
	size_t i;

	if (size > SIZE_MAX / sizeof(*list->hash) / 2)
		return -1;
	free(list->hash);
	list->hash = calloc(size, sizeof(*list->hash));
	if (!list->hash) {
		list->hash_mask = 0;
		return -1;
	}
	list->hash_mask = size - 1;
	for (i = 0; i < list->count; i++)
		*hash_slot(list, list->entries[i].mac) = (unsigned int)i + 1;
	return 0;
}

static int entries_grow(struct maclist *list)
{
	size_t n = list->alloc ? 2 * list->alloc : 64;
	struct maclist_entry *e;

	if (n > SIZE_MAX / sizeof(*e) || n > UINT32_MAX)
		return -1;
	e = realloc(list->entries, n * sizeof(*e));
	if (!e)
		return -1;
	list->entries = e;
	list->alloc = n;
	return 0;
}

/* ---- errors ------------------------------------------------------------ */

static void __attribute__((format(printf, 2, 3)))
perr(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	p->failed = true;
	if (!p->err || !p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->line)
		snprintf(p->err, p->errlen, "%s:%lu: %s", p->name, p->line,
			 msg);
	else
		snprintf(p->err, p->errlen, "%s: %s", p->name, msg);
}

/* The current token, printable and shortened, for messages. */
static const char *tok_show(const struct parser *p, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0, n = p->toklen < TOK_MAX ? p->toklen : TOK_MAX;
	unsigned char c;

	for (i = 0; i < n && o + 5 < size; i++) {
		c = (unsigned char)p->tok[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			buf[o++] = (char)c;
		} else {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	if (p->toklen > n && o + 4 < size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

/* ---- the state machine ------------------------------------------------- */

static void token_mac(struct parser *p)
{
	char show[4 * TOK_MAX + 4], mac[MAC_STR_LEN];

	memset(&p->cur, 0, sizeof(p->cur));
	p->cur.line = p->line;
	if (p->toklen > TOK_MAX ||
	    mac_parse_n(p->tok, p->toklen, p->cur.mac)) {
		perr(p, "invalid MAC address '%s'",
		     tok_show(p, show, sizeof(show)));
		return;
	}
	if (mac_is_multicast(p->cur.mac))
		perr(p, "multicast MAC %s cannot be a source address",
		     mac_format(p->cur.mac, mac));
}

static void token_end(struct parser *p)
{
	char show[4 * TOK_MAX + 4];

	if (!p->toklen)
		return;
	p->tok[p->toklen < TOK_MAX ? p->toklen : TOK_MAX] = '\0';
	switch (p->ntok++) {
	case 0:
		token_mac(p);
		break;
	case 1:
		if (p->toklen != 4 || memcmp(p->tok, "loss", 4))
			perr(p, "unexpected '%s' (expected 'loss N')",
			     tok_show(p, show, sizeof(show)));
		break;
	case 2:
		if (p->toklen > TOK_MAX ||
		    loss_parse_n(p->tok, p->toklen, &p->cur.loss))
			perr(p, "invalid loss '%s' (integer 0..%d)",
			     tok_show(p, show, sizeof(show)),
			     MACLIST_LOSS_MAX);
		p->cur.has_loss = true;
		break;
	default:
		perr(p, "unexpected '%s' after the entry",
		     tok_show(p, show, sizeof(show)));
		break;
	}
	p->toklen = 0;
}

static void entry_add(struct parser *p)
{
	struct maclist *list = p->list;
	char mac[MAC_STR_LEN];
	unsigned int *slot;

	if (p->max_entries && list->count >= p->max_entries) {
		perr(p, "too many entries (at most %zu)", p->max_entries);
		return;
	}
	if ((list->count + 1) * 2 > list->hash_mask + 1 && hash_grow(list)) {
		perr(p, "out of memory");
		return;
	}
	slot = hash_slot(list, p->cur.mac);
	if (*slot) {
		perr(p, "duplicate MAC %s (first on line %lu)",
		     mac_format(p->cur.mac, mac),
		     list->entries[*slot - 1].line);
		return;
	}
	if (list->count == list->alloc && entries_grow(list)) {
		perr(p, "out of memory");
		return;
	}
	list->entries[list->count++] = p->cur;
	*slot = (unsigned int)list->count;
}

static void line_end(struct parser *p)
{
	token_end(p);
	if (p->failed)
		return;
	if (p->ntok == 2)
		perr(p, "missing value after 'loss'");
	else if (p->ntok)
		entry_add(p);
	p->ntok = 0;
	p->in_comment = false;
	p->line_started = false;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Returns false once parsing has failed. */
static bool feed(struct parser *p, char c)
{
	if (!p->line_started) {
		p->line_started = true;
		p->line++;
	}
	if (c == '\n') {
		line_end(p);
	} else if (c == '\0') {
		perr(p, "NUL byte in line");
	} else if (p->in_comment) {
		/* skipped */
	} else if (c == '#') {
		token_end(p);
		p->in_comment = true;
	} else if (is_blank(c)) {
		token_end(p);
	} else {
		if (p->toklen < TOK_MAX)
			p->tok[p->toklen] = c;
		if (p->toklen <= TOK_MAX)
			p->toklen++;
	}
	return !p->failed;
}

static void parser_init(struct parser *p, struct maclist *list,
			const char *name, size_t max_entries,
			char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->list = list;
	p->name = name;
	p->max_entries = max_entries;
	p->err = err;
	p->errlen = errlen;
	maclist_free(list);
	if (err && errlen)
		err[0] = '\0';
}

static int parser_finish(struct parser *p)
{
	if (!p->failed && p->line_started)
		line_end(p);
	if (p->failed) {
		maclist_free(p->list);
		return -1;
	}
	return 0;
}

int maclist_parse_buf(struct maclist *list, const char *name,
		      const char *buf, size_t len, size_t max_entries,
		      char *err, size_t errlen)
{
	struct parser p;
	size_t i;

	parser_init(&p, list, name, max_entries, err, errlen);
	for (i = 0; i < len; i++)
		if (!feed(&p, buf[i]))
			break;
	return parser_finish(&p);
}

int maclist_parse_file(struct maclist *list, const char *name, FILE *f,
		       size_t max_entries, char *err, size_t errlen)
{
	struct parser p;
	int c;

	parser_init(&p, list, name, max_entries, err, errlen);
	while ((c = getc(f)) != EOF)
		if (!feed(&p, (char)c))
			break;
	if (!p.failed && ferror(f)) {
		p.line = 0;
		perr(&p, "read error: %s", strerror(errno));
	}
	return parser_finish(&p);
}
