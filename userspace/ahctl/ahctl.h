/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AHCTL_H
#define AHCTL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "util.h"

#ifndef AHCTL_VERSION
#define AHCTL_VERSION	"0.1.0"
#endif

#define PROG_NAME	"ahctl"

/* Exit status */
#define EXIT_OK		0
#define EXIT_ERR	1	/* failed, or the kernel said no */
#define EXIT_USAGE	2	/* bad command line */

struct ahctl_opts {
	bool json;
	bool pretty;
	const char *netns;
};

extern struct ahctl_opts opts;

/* One object ("ahctl OBJECT ..."): argv[0] is the command, if any. */
int macfilter_main(int argc, char **argv);
void macfilter_help(FILE *f);
int dsr_main(int argc, char **argv);
void dsr_help(FILE *f);
int transit_main(int argc, char **argv);
void transit_help(FILE *f);
int slice_main(int argc, char **argv);
void slice_help(FILE *f);

/*
 * "Usage: ahctl [-j [-p]] [-n NETNS] OBJECT CMD ARGS" of one command, and
 * "ahctl: OBJECT CMD: message" followed by it (on stderr).
 */
void object_cmd_usage(FILE *f, const char *object, const char *cmd,
		      const char *args);
void object_cmd_verr(const char *object, const char *cmd, const char *args,
		     const char *fmt, va_list ap);

/*
 * cmd_usage(f, c) and usage_err(c, fmt, ...) (-1) for the command table
 * of OBJECT, whose entries (TYPE) have a name and args.
 */
#define AHCTL_CMD_USAGE(type, object)					\
static void cmd_usage(FILE *f, const type *c)				\
{									\
	object_cmd_usage(f, object, c->name, c->args);			\
}									\
									\
static int __attribute__((format(printf, 2, 3)))			\
usage_err(const type *c, const char *fmt, ...)				\
{									\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	object_cmd_verr(object, c->name, c->args, fmt, ap);		\
	va_end(ap);							\
	return -1;							\
}

/* fflush(stdout) after one line of monitor output; -1 (reported) on error */
int monitor_flush(void);

#endif /* AHCTL_H */
