// SPDX-License-Identifier: GPL-2.0
/* What dsrd_slice_run and dsrd_mcast_run share, main(): see dsrd_run.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsrd.h"
#include "dsrd_run.h"
#include "log.h"

/* "-- CONF" to the stand-in's log, before the requests of CONF */
static void mark(const struct dsrd_runner *run, const char *conf)
{
	const char *path = getenv(run->log_env);
	FILE *f = path ? fopen(path, "a") : NULL;

	if (!f)
		return;
	fprintf(f, "-- %s\n", conf);
	fclose(f);
}

static int run_conf(const struct dsrd_runner *run, struct dsrd *d,
		    const char *path, bool first)
{
	struct run r = { .keep_going = !(first && run->start_stops) };
	char err[1024];
	struct conf *c = malloc(sizeof(*c));

	if (!c)
		return -1;
	conf_init(c);
	if (conf_load(c, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		conf_free(c);
		free(c);
		return -1;
	}
	mark(run, path);
	run->apply(d, c, &r, first);
	printf("%s: failed %d;", path, r.failed);
	run->print_applied(d);
	conf_free(c);
	free(c);
	return 0;
}

/* NAME=VALUE: set (unset if VALUE is empty); false if ARG is not one */
static bool set_env(char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq)
		return false;
	*eq = '\0';
	if (eq[1])
		setenv(arg, eq + 1, 1);
	else
		unsetenv(arg);
	return true;
}

int main(int argc, char **argv)
{
	static struct dsrd d;
	const struct dsrd_runner *run = &runner;
	struct fam *fam = &d.fam[run->fam];
	bool first = true;
	int i, own, ret = 0;

	prog_name = DSRD_NAME;
	log_init();
	if (run->device) {
		snprintf(d.device, sizeof(d.device), "%s", run->device);
		d.dev_ifindex = run->ifindex;
	}
	fam->f = families[run->fam];
	if (genl_open(&fam->req, NULL, &fam->f->desc))
		return 1;
	fam->present = true;
	d.stats.fd = -1;
	d.events.fd = -1;
	for (i = 1; i < argc; i++) {
		own = run->arg ? run->arg(&d, argv[i]) : 1;
		if (own < 0) {
			ret = 1;
			break;
		}
		if (!own || set_env(argv[i]))
			continue;
		if (run_conf(run, &d, argv[i], first)) {
			ret = 1;
			break;
		}
		first = false;
	}
	genl_close(&fam->ev);
	genl_close(&fam->req);
	return ret;
}
