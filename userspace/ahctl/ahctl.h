/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AHCTL_H
#define AHCTL_H

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

/* fflush(stdout) after one line of monitor output; -1 (reported) on error */
int monitor_flush(void);

#endif /* AHCTL_H */
