// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd's diagnostics (see log.h).  The shared netlink helpers print their
 * errors to stderr themselves; in the background stderr is a stream that
 * hands each line to syslog, so those are not lost.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dsrd.h"
#include "log.h"
#include "rtnl.h"

#define LINE_MAX_LEN	1024

static bool journal;	/* stderr is the journal: "<N>" prefixes */
static bool use_syslog;

/* $JOURNAL_STREAM is "DEV:INODE" of the journal's stream, if it is ours. */
static bool stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(STDERR_FILENO, &st))
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

static void log_vmsg(int prio, const char *fmt, va_list ap);

/* the shared rtnetlink helpers' own errors, as dsrd's */
static void rtnl_log(const char *fmt, va_list ap)
{
	log_vmsg(LOG_ERR, fmt, ap);
}

void log_init(void)
{
	journal = stderr_is_journal();
	rtnl_err_hook = rtnl_log;
}

/* ---- stderr into syslog -------------------------------------------------- */

static char pending[LINE_MAX_LEN];
static size_t npending;

static void flush_line(void)
{
	if (!npending)
		return;
	pending[npending] = '\0';
	syslog(LOG_ERR, "%s", pending);
	npending = 0;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	size_t i;

	(void)cookie;
	for (i = 0; i < size; i++) {
		if (buf[i] == '\n' || npending == sizeof(pending) - 1)
			flush_line();
		if (buf[i] != '\n')
			pending[npending++] = buf[i];
	}
	return (ssize_t)size;
}

int log_to_syslog(void)
{
	cookie_io_functions_t io = { .write = cookie_write };
	FILE *f;

	openlog(DSRD_NAME, LOG_PID, LOG_DAEMON);
	f = fopencookie(NULL, "w", io);
	if (!f)
		return -1;
	setvbuf(f, NULL, _IONBF, 0);
	stderr = f;
	use_syslog = true;
	journal = false;
	return 0;
}

static void log_vmsg(int prio, const char *fmt, va_list ap)
{
	char buf[LINE_MAX_LEN];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (use_syslog) {
		syslog(prio, "%s", buf);
		return;
	}
	if (journal)
		fprintf(stderr, "<%d>", prio);
	fprintf(stderr, DSRD_NAME ": %s\n", buf);
}

void log_msg(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(prio, fmt, ap);
	va_end(ap);
}

void log_line(int prio, const char *line, size_t len)
{
	while (len && line[len - 1] == '\n')
		len--;
	if (use_syslog) {
		syslog(prio, "%.*s", (int)len, line);
		return;
	}
	if (journal)
		fprintf(stderr, "<%d>", prio);
	fprintf(stderr, "%.*s\n", (int)len, line);
}
