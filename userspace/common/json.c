// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "json.h"

#define JSON_INDENT	2

void json_init(struct json *j, FILE *f, bool pretty)
{
	j->f = f;
	j->pretty = pretty;
	j->depth = 0;
	j->need_comma = false;
	j->after_key = false;
}

static void newline(struct json *j)
{
	if (j->pretty)
		fprintf(j->f, "\n%*s", (int)(j->depth * JSON_INDENT), "");
}

/* Separator and indentation before a value or a key. */
static void begin_value(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->depth)		/* a new top-level value */
		return;
	if (j->need_comma)
		fputc(',', j->f);
	newline(j);
}

static void container_open(struct json *j, char c)
{
	begin_value(j);
	fputc(c, j->f);
	j->depth++;
	j->need_comma = false;
}

static void container_close(struct json *j, char c)
{
	j->depth--;
	if (j->need_comma)
		newline(j);
	fputc(c, j->f);
	j->need_comma = true;
	if (!j->depth)
		fputc('\n', j->f);
}

void json_obj_open(struct json *j)
{
	container_open(j, '{');
}

void json_obj_close(struct json *j)
{
	container_close(j, '}');
}

void json_arr_open(struct json *j)
{
	container_open(j, '[');
}

void json_arr_close(struct json *j)
{
	container_close(j, ']');
}

void json_key(struct json *j, const char *key)
{
	begin_value(j);
	json_write_string(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->need_comma = true;
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	begin_value(j);
	json_write_string(j->f, s);
	j->need_comma = true;
}

void json_u64(struct json *j, uint64_t v)
{
	begin_value(j);
	fprintf(j->f, "%" PRIu64, v);
	j->need_comma = true;
}

void json_bool(struct json *j, bool v)
{
	begin_value(j);
	fputs(v ? "true" : "false", j->f);
	j->need_comma = true;
}

/* Length of the valid UTF-8 sequence at @s, or 0. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (c == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (c == 0xf0)
		lo = 0x90;	/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	fputc('"', f);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*s < 0x20) {
				fprintf(f, "\\u%04x", *s);
			} else if (*s < 0x80) {
				fputc(*s, f);
			} else {
				n = utf8_len(s);
				if (!n) {
					fputs("\\ufffd", f);
					break;
				}
				fwrite(s, 1, (size_t)n, f);
				s += n;
				continue;
			}
		}
		s++;
	}
	fputc('"', f);
}
