// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for userspace/common/trace.c: every table case is parsed from
 * a buffer and from a stream; errors carry the right line.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "trace.h"

#define IN(s)	s, sizeof(s) - 1

struct tcase {
	const char *desc;
	const char *in;
	size_t len;
	size_t max;
	const char *err;	/* NULL: must parse; else a prefix */
	size_t steps;
};

static const struct tcase cases[] = {
	{ "one step, one MAC", IN("0 02:00:00:00:00:01\n"), 0, NULL, 1 },
	{ "fractions and '-'",
	  IN("# course\n0 -\n1.5 02:00:00:00:00:01 02:00:00:00:00:02/30\n"
	     "\n2.25 -   # comment\n2.25 02:00:00:00:00:03"), 0, NULL, 4 },
	{ "CRLF", IN("0 -\r\n0.001 02:00:00:00:00:01/100\r\n"), 0, NULL, 2 },
	{ "empty", IN("# nothing\n\n"), 0, "t: no step", 0 },
	{ "bad time", IN("0 -\nx 02:00:00:00:00:01\n"), 0, "t:2: 'x' is not", 0 },
	{ "four fraction digits", IN("0.0001 -\n"), 0, "t:1: '0.0001'", 0 },
	{ "trailing dot", IN("12. -\n"), 0, "t:1: '12.'", 0 },
	{ "time goes back", IN("1 -\n0.5 -\n"), 0, "t:2: time 0.5 is before", 0 },
	{ "no entries", IN("0 -\n3\n"), 0, "t:2: a step needs", 0 },
	{ "dash with entries", IN("0 02:00:00:00:00:01 -\n"), 0, "t:1: '-' stands", 0 },
	{ "bad MAC", IN("0 -\n\n1 02:00:00:00:00\n"), 0, "t:3: '02:00:00:00:00' is not", 0 },
	{ "multicast", IN("0 03:00:00:00:00:01\n"), 0, "t:1: 03:00:00:00:00:01 is a multicast", 0 },
	{ "bad loss", IN("0 02:00:00:00:00:01/101\n"), 0, "t:1: loss '101'", 0 },
	{ "duplicate in a step",
	  IN("0 02:00:00:00:00:01 02:00:00:00:00:02 02:00:00:00:00:01/5\n"),
	  0, "t:1: 02:00:00:00:00:01 appears twice", 0 },
	{ "too many entries",
	  IN("0 02:00:00:00:00:01 02:00:00:00:00:02 02:00:00:00:00:03\n"),
	  2, "t:1: more than 2 entries", 0 },
	{ "NUL byte", IN("0 -\n1\0 -\n"), 0, "t:2: NUL byte", 0 },
	{ "time beyond a week", IN("604800.001 -\n"), 0, "t:1: '604800.001'", 0 },
};

static bool check_case(const struct tcase *c, bool stream)
{
	struct trace t;
	char err[256] = "";
	int ret;

	trace_init(&t);
	if (stream) {
		FILE *f = fmemopen((void *)c->in, c->len ? c->len : 1, "r");

		if (!f)
			return false;
		if (!c->len)
			fgetc(f);	/* fmemopen needs a size > 0 */
		ret = trace_parse_file(&t, "t", f, c->max, err, sizeof(err));
		fclose(f);
	} else {
		ret = trace_parse_buf(&t, "t", c->in, c->len, c->max, err,
				      sizeof(err));
	}
	if (c->err) {
		if (!ret || strncmp(err, c->err, strlen(c->err))) {
			ktap_diag("%s: got '%s'", c->desc, ret ? err : "success");
			trace_free(&t);
			return false;
		}
		CHECK_EQ(t.count, 0);
		return true;
	}
	if (ret) {
		ktap_diag("%s: %s", c->desc, err);
		return false;
	}
	CHECK_EQ(t.count, c->steps);
	trace_free(&t);
	return true;
}

static bool table(void)
{
	size_t i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!check_case(&cases[i], false) ||
		    !check_case(&cases[i], true)) {
			ktap_diag("case '%s' failed", cases[i].desc);
			ok = false;
		}
	return ok;
}

static bool values(void)
{
	static const char in[] =
		"0 -\n1.5 02:00:00:00:00:01 0A-0b-0c-0d-0e-0f/30\n2.05 -\n";
	struct trace t;
	char err[128];

	trace_init(&t);
	CHECK(!trace_parse_buf(&t, "t", in, sizeof(in) - 1, 0, err,
			       sizeof(err)));
	CHECK_EQ(t.count, 3);
	CHECK_EQ(t.steps[0].t_ms, 0);
	CHECK_EQ(t.steps[0].list.count, 0);
	CHECK_EQ(t.steps[1].t_ms, 1500);
	CHECK_EQ(t.steps[1].line, 2);
	CHECK_EQ(t.steps[1].list.count, 2);
	CHECK(!t.steps[1].list.entries[0].has_loss);
	CHECK_EQ(t.steps[1].list.entries[1].mac[0], 0x0a);
	CHECK_EQ(t.steps[1].list.entries[1].mac[5], 0x0f);
	CHECK(t.steps[1].list.entries[1].has_loss);
	CHECK_EQ(t.steps[1].list.entries[1].loss, 30);
	CHECK_EQ(t.steps[2].t_ms, 2050);
	trace_free(&t);
	CHECK_EQ(t.count, 0);
	return true;
}

/* A long trace: thousands of steps, and one step of many entries. */
static bool big(void)
{
	size_t cap = 3000 * 40 + 2000 * 20 + 64, n = 0, i;
	char *buf = malloc(cap), err[128];
	struct trace t;
	bool ok;

	CHECK(buf);
	for (i = 0; i < 3000; i++)
		n += (size_t)snprintf(buf + n, cap - n,
				      "%zu.%03zu 02:00:00:00:%02zx:%02zx\n",
				      i / 10, (i % 10) * 100, i >> 8, i & 0xff);
	n += (size_t)snprintf(buf + n, cap - n, "400");
	for (i = 0; i < 2000; i++)
		n += (size_t)snprintf(buf + n, cap - n, " 02:00:00:01:%02zx:%02zx",
				      i >> 8, i & 0xff);
	trace_init(&t);
	ok = !trace_parse_buf(&t, "t", buf, n, 0, err, sizeof(err)) &&
	     t.count == 3001 && t.steps[3000].list.count == 2000 &&
	     t.steps[2999].t_ms == 299900;
	if (!ok)
		ktap_diag("big: %s", err);
	trace_free(&t);
	free(buf);
	return ok;
}

static const struct ktap_case fns[] = {
	{ "trace: table of good and bad traces (buffer and stream)", table },
	{ "trace: times, entries and losses as written", values },
	{ "trace: 3000 steps and a step of 2000 entries", big },
};

int main(void)
{
	return ktap_main(fns, ARRAY_SIZE(fns));
}
