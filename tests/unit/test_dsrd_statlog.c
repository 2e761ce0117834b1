// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for userspace/dsrd/statlog.c: rotation names, order, and the
 * bound on the space all the files take.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktap.h"
#include "statlog.h"

#define LINE_LEN	100
#define MAX_BYTES	1000	/* ten lines */

static char dir[] = "/tmp/dsrd-statlog-XXXXXX";

static void path_of(char *buf, size_t size, const char *base, int n)
{
	if (n)
		snprintf(buf, size, "%s/%s.%d", dir, base, n);
	else
		snprintf(buf, size, "%s/%s", dir, base);
}

/* Size of FILE[.n], or -1 if missing. */
static long long size_of(const char *base, int n)
{
	char p[256];
	struct stat st;

	path_of(p, sizeof(p), base, n);
	return stat(p, &st) ? -1 : (long long)st.st_size;
}

/* Line number @i, LINE_LEN bytes with its newline. */
static void make_line(char *buf, unsigned int i)
{
	memset(buf, 'x', LINE_LEN - 1);
	snprintf(buf, 12, "%010u", i);
	buf[10] = ' ';
	buf[LINE_LEN - 1] = '\n';
}

/* The number at the start of the first line of FILE[.n]; -1: none. */
static long first_line(const char *base, int n)
{
	char p[256], buf[16];
	long v = -1;
	FILE *f;

	path_of(p, sizeof(p), base, n);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

static void remove_all(const char *base)
{
	char p[256];
	int n;

	for (n = 0; n < 10; n++) {
		path_of(p, sizeof(p), base, n);
		unlink(p);
	}
}

static bool write_lines(struct statlog *l, unsigned int from,
			unsigned int count)
{
	char line[LINE_LEN];
	unsigned int i;

	for (i = from; i < from + count; i++) {
		make_line(line, i);
		if (statlog_write(l, line, LINE_LEN)) {
			ktap_diag("write %u failed", i);
			return false;
		}
	}
	return true;
}

static bool t_rotation(void)
{
	struct statlog l;
	char p[256];
	long long total = 0, s;
	int n;

	path_of(p, sizeof(p), "stats.jsonl", 0);
	CHECK(!statlog_open(&l, p, MAX_BYTES, 3));
	/* 55 lines: 10 each in .3 (oldest kept) .2 .1, 5 in the file */
	CHECK(write_lines(&l, 0, 55));
	statlog_close(&l);
	for (n = 0; n <= 3; n++) {
		s = size_of("stats.jsonl", n);
		CHECK(s >= 0 && s <= MAX_BYTES);
		total += s;
	}
	CHECK_EQ(size_of("stats.jsonl", 4), -1);
	CHECK(total <= 4 * MAX_BYTES);
	CHECK_EQ(size_of("stats.jsonl", 0), 500);
	CHECK_EQ(first_line("stats.jsonl", 0), 50);
	CHECK_EQ(first_line("stats.jsonl", 1), 40);
	CHECK_EQ(first_line("stats.jsonl", 2), 30);
	CHECK_EQ(first_line("stats.jsonl", 3), 20);
	remove_all("stats.jsonl");
	return true;
}

/* However the lines fall, the files never take more than the bound. */
static bool t_bound(void)
{
	char line[700], p[256];
	struct statlog l;
	long long total, s;
	unsigned int i, len;
	int n;

	path_of(p, sizeof(p), "b", 0);
	CHECK(!statlog_open(&l, p, MAX_BYTES, 2));
	srand(7);
	for (i = 0; i < 500; i++) {
		len = 1 + (unsigned int)rand() % (sizeof(line) - 1);
		memset(line, 'y', len - 1);
		line[len - 1] = '\n';
		CHECK(!statlog_write(&l, line, len));
		total = 0;
		for (n = 0; n <= 2; n++) {
			s = size_of("b", n);
			CHECK(s <= MAX_BYTES);
			total += s > 0 ? s : 0;
		}
		CHECK(total <= 3 * MAX_BYTES);
		CHECK_EQ(size_of("b", 3), -1);
	}
	statlog_close(&l);
	remove_all("b");
	return true;
}

static bool t_keep0(void)
{
	struct statlog l;
	char p[256];

	path_of(p, sizeof(p), "k", 0);
	CHECK(!statlog_open(&l, p, MAX_BYTES, 0));
	CHECK(write_lines(&l, 0, 25));
	statlog_close(&l);
	CHECK_EQ(size_of("k", 0), 500);
	CHECK_EQ(first_line("k", 0), 20);
	CHECK_EQ(size_of("k", 1), -1);
	remove_all("k");
	return true;
}

static bool t_too_long(void)
{
	char big[MAX_BYTES + 1];
	struct statlog l;
	char p[256];

	path_of(p, sizeof(p), "t", 0);
	CHECK(!statlog_open(&l, p, MAX_BYTES, 1));
	CHECK(write_lines(&l, 0, 3));
	memset(big, 'z', sizeof(big));
	CHECK_EQ(statlog_write(&l, big, sizeof(big)), -EFBIG);
	CHECK(!statlog_write(&l, big, MAX_BYTES - 300));
	statlog_close(&l);
	CHECK_EQ(size_of("t", 0), MAX_BYTES);
	CHECK_EQ(size_of("t", 1), -1);
	remove_all("t");
	return true;
}

/* An existing file is appended to; one over the bound rotates first. */
static bool t_reopen(void)
{
	struct statlog l;
	char p[256];

	path_of(p, sizeof(p), "r", 0);
	CHECK(!statlog_open(&l, p, MAX_BYTES, 2));
	CHECK(write_lines(&l, 0, 4));
	statlog_close(&l);
	CHECK(!statlog_open(&l, p, MAX_BYTES, 2));
	CHECK_EQ(l.size, 400);
	CHECK(write_lines(&l, 4, 6));
	statlog_close(&l);
	CHECK_EQ(size_of("r", 0), 1000);
	CHECK_EQ(size_of("r", 1), -1);
	/* a smaller bound now: the first write rotates */
	CHECK(!statlog_open(&l, p, 500, 2));
	CHECK(write_lines(&l, 10, 1));
	statlog_close(&l);
	CHECK_EQ(size_of("r", 1), 1000);
	CHECK_EQ(size_of("r", 0), 100);
	CHECK_EQ(first_line("r", 0), 10);
	remove_all("r");
	return true;
}

static bool t_open_fails(void)
{
	struct statlog l;

	CHECK_EQ(statlog_open(&l, "/nonexistent/dir/stats", MAX_BYTES, 1),
		 -ENOENT);
	CHECK(!l.path);
	return true;
}

static const struct ktap_case cases[] = {
	{ "rotation: FILE.1 .. FILE.keep, oldest dropped", t_rotation },
	{ "all files stay within (keep + 1) * max", t_bound },
	{ "keep 0: the file starts again", t_keep0 },
	{ "a line longer than the bound is refused", t_too_long },
	{ "reopening appends; a smaller bound rotates", t_reopen },
	{ "a file that cannot be opened", t_open_fails },
};

int main(void)
{
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	ret = ktap_main(cases, ARRAY_SIZE(cases));
	rmdir(dir);
	return ret;
}
