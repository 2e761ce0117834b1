/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal streaming JSON writer.  Values are written as they are emitted;
 * the writer only tracks where commas and (with pretty) indentation go.
 */
#ifndef AH_JSON_H
#define AH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	bool pretty;
	unsigned int depth;
	bool need_comma;	/* the current container has a value already */
	bool after_key;		/* the next value belongs to a key */
};

void json_init(struct json *j, FILE *f, bool pretty);

/* Closing the outermost container ends the line. */
void json_obj_open(struct json *j);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j);
void json_arr_close(struct json *j);

void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_bool(struct json *j, bool v);

static inline void json_kv_str(struct json *j, const char *k, const char *s)
{
	json_key(j, k);
	json_str(j, s);
}

static inline void json_kv_u64(struct json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	json_u64(j, v);
}

/*
 * Write @s as a quoted JSON string.  Quote, backslash and control
 * characters are escaped; bytes that are not valid UTF-8 are written as
 * U+FFFD, so the output is always valid JSON.
 */
void json_write_string(FILE *f, const char *s);

#endif /* AH_JSON_H */
