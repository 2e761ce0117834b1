/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dsrd_slice_run and dsrd_mcast_run share (dsrd_run.c, their
 * main()): dsrd without its own main(), one module's family open, run
 * against a stand-in for it (fake_slice.so, fake_dsr.so) over its
 * arguments,
 *
 *	RUNNER [NAME=VALUE | CONF | an argument of the runner's own]...
 *
 * The first CONF is applied as dsrd's start does, each further one as a
 * SIGHUP does, in one process, so what dsrd applied carries over.
 * NAME=VALUE sets an environment variable of the stand-in (an empty
 * VALUE unsets it) before the next CONF.  Before each CONF, "-- CONF"
 * goes to the stand-in's log (the file its log_env names), which then
 * holds the requests it made; after it, one line to stdout: "CONF:
 * failed N;" and what dsrd holds then (its print_applied).  dsrd's
 * messages go to stderr.  Exit status 1 if a CONF is invalid, an
 * argument of the runner's own fails or the family cannot be opened.
 */
#ifndef DSRD_RUN_H
#define DSRD_RUN_H

#include <stdbool.h>

#include "apply.h"
#include "daemon.h"

struct dsrd_runner {
	enum fam_id fam;	/* the family opened, the stand-in's */
	const char *log_env;	/* the stand-in's log: "FAKE_DSR_LOG" */
	const char *device;	/* dsrd's device, up; NULL: none */
	int ifindex;		/* the device's */
	/* a failed step stops the start, as in dsrd's own (else counted
	 * there too, as on a reload) */
	bool start_stops;
	/* a CONF's steps: @first as dsrd's start, else as a SIGHUP */
	void (*apply)(struct dsrd *d, const struct conf *c, struct run *r,
		      bool first);
	/* " ..." of what dsrd holds, then a newline */
	void (*print_applied)(const struct dsrd *d);
	/* an argument of the runner's own (before NAME=VALUE and CONF):
	 * 0 done, -1 failed, 1 not one of them; NULL: none */
	int (*arg)(struct dsrd *d, const char *arg);
};

/* Each runner's, which main() runs */
extern const struct dsrd_runner runner;

#endif /* DSRD_RUN_H */
