// SPDX-License-Identifier: GPL-2.0
/* Unit tests for userspace/ahctl/json.c: string escaping and layout. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "ktap.h"

static const struct {
	const char *desc;
	const char *in;
	const char *out;
} esc_cases[] = {
	{ "plain ASCII", "veth0", "\"veth0\"" },
	{ "empty string", "", "\"\"" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "short escapes", "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
	{ "other control characters", "\x01\x1f\x0b",
	  "\"\\u0001\\u001f\\u000b\"" },
	{ "DEL and slash pass", "\x7f/", "\"\x7f/\"" },
	{ "valid UTF-8 passes", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	  "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },
	{ "lone continuation byte", "a\x80z", "\"a\\ufffdz\"" },
	{ "overlong two-byte form", "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
	{ "overlong three-byte form", "\xe0\x80\xaf",
	  "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "UTF-16 surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "above U+10FFFF", "\xf4\x90\x80\x80",
	  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "truncated sequence at the end", "x\xe2\x82",
	  "\"x\\ufffd\\ufffd\"" },
	{ "truncated sequence before ASCII", "\xe2\x82z",
	  "\"\\ufffd\\ufffdz\"" },
	{ "0xff byte", "\xff", "\"\\ufffd\"" },
	{ "highest code point passes", "\xf4\x8f\xbf\xbf",
	  "\"\xf4\x8f\xbf\xbf\"" },
};

/* Output of @fn as a malloc()ed string. */
static char *capture(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fn(f, arg);
	fclose(f);
	return buf;
}

static void write_string(FILE *f, const void *arg)
{
	json_write_string(f, arg);
}

static void write_doc(FILE *f, bool pretty)
{
	struct json j;

	json_init(&j, f, pretty);
	json_arr_open(&j);
	json_obj_open(&j);
	json_kv_u64(&j, "ifindex", 3);
	json_kv_str(&j, "ifname", "ve\"th");
	json_kv_u64(&j, "dropped", UINT64_MAX);
	json_key(&j, "entries");
	json_arr_open(&j);
	json_obj_open(&j);
	json_kv_str(&j, "mac", "02:00:00:00:00:01");
	json_obj_close(&j);
	json_arr_close(&j);
	json_key(&j, "empty");
	json_arr_open(&j);
	json_arr_close(&j);
	json_key(&j, "on");
	json_bool(&j, true);
	json_obj_close(&j);
	json_obj_open(&j);
	json_obj_close(&j);
	json_arr_close(&j);
}

static void write_compact(FILE *f, const void *arg)
{
	(void)arg;
	write_doc(f, false);
}

static void write_pretty(FILE *f, const void *arg)
{
	(void)arg;
	write_doc(f, true);
}

static void write_two_lines(FILE *f, const void *arg)
{
	struct json j;
	int i;

	(void)arg;
	json_init(&j, f, false);
	for (i = 0; i < 2; i++) {
		json_obj_open(&j);
		json_kv_str(&j, "event", "add");
		json_kv_u64(&j, "loss", (uint64_t)i);
		json_obj_close(&j);
	}
}

static bool check(const char *got, const char *want)
{
	bool ok = !strcmp(got, want);

	if (!ok) {
		ktap_diag("got:  %s", got);
		ktap_diag("want: %s", want);
	}
	return ok;
}

static const char compact_want[] =
	"[{\"ifindex\":3,\"ifname\":\"ve\\\"th\","
	"\"dropped\":18446744073709551615,"
	"\"entries\":[{\"mac\":\"02:00:00:00:00:01\"}],\"empty\":[],"
	"\"on\":true},{}]\n";

static const char pretty_want[] =
	"[\n"
	"  {\n"
	"    \"ifindex\": 3,\n"
	"    \"ifname\": \"ve\\\"th\",\n"
	"    \"dropped\": 18446744073709551615,\n"
	"    \"entries\": [\n"
	"      {\n"
	"        \"mac\": \"02:00:00:00:00:01\"\n"
	"      }\n"
	"    ],\n"
	"    \"empty\": [],\n"
	"    \"on\": true\n"
	"  },\n"
	"  {}\n"
	"]\n";

int main(void)
{
	size_t n = ARRAY_SIZE(esc_cases), i;
	char *got;

	ktap_plan((unsigned int)n + 3);
	for (i = 0; i < n; i++) {
		got = capture(write_string, esc_cases[i].in);
		ktap_result(check(got, esc_cases[i].out), "escape: %s",
			    esc_cases[i].desc);
		free(got);
	}
	got = capture(write_compact, NULL);
	ktap_result(check(got, compact_want), "compact document");
	free(got);
	got = capture(write_pretty, NULL);
	ktap_result(check(got, pretty_want), "pretty document");
	free(got);
	got = capture(write_two_lines, NULL);
	ktap_result(check(got, "{\"event\":\"add\",\"loss\":0}\n"
			  "{\"event\":\"add\",\"loss\":1}\n"),
		    "one object per line");
	free(got);
	return ktap_finish();
}
