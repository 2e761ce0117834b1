// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd's mcast step (userspace/dsrd/apply_mcast.c), built with the rest
 * of dsrd and run against the stand-in for the dsr module's family
 * (fake_dsr.so, preloaded by test_dsrd_mcast.sh):
 *
 *	dsrd_mcast_run [NAME=VALUE | CONF]...
 *
 * The first CONF is applied as dsrd's start does once the device is up
 * (a failed join stops it), each further one as a SIGHUP does (a failed
 * request is counted and the others still go), in one process, so what
 * dsrd joined carries over; the device is dsr0, of ifindex 7.
 * NAME=VALUE sets an environment variable of the stand-in
 * (FAKE_DSR_ERROR, FAKE_DSR_ERROR_GROUP; an empty VALUE unsets it)
 * before the next CONF.  Before each CONF, "-- CONF" goes to
 * $FAKE_DSR_LOG, which then holds the requests it made; after it, one
 * line to stdout: "CONF: failed N; joined by dsrd: [JOIN; ...]", each
 * JOIN in ahctl's words ("source S group G layers N ...").  dsrd's
 * messages go to stderr.  Exit status 1 if a CONF is invalid or the
 * family cannot be opened.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "daemon.h"
#include "dsrd.h"
#include "log.h"

#define FAKE_IFINDEX	7

static void mark(const char *conf)
{
	const char *path = getenv("FAKE_DSR_LOG");
	FILE *f = path ? fopen(path, "a") : NULL;

	if (!f)
		return;
	fprintf(f, "-- %s\n", conf);
	fclose(f);
}

/* " JOIN; JOIN" for each of dsrd's, in its order */
static void print_applied(const struct dsrd *d)
{
	char s[256];
	size_t i;

	printf(" joined by dsrd:");
	for (i = 0; i < d->nmc; i++) {
		dsr_mc_str(&d->mc[i], true, s, sizeof(s));
		printf("%s %s", i ? ";" : "", s);
	}
	putchar('\n');
	fflush(stdout);
}

static int run_conf(struct dsrd *d, const char *path, bool first)
{
	struct run r = { .keep_going = !first };
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
	mark(path);
	mc_apply(d, c, &r);
	printf("%s: failed %d;", path, r.failed);
	print_applied(d);
	conf_free(c);
	free(c);
	return 0;
}

int main(int argc, char **argv)
{
	static struct dsrd d;
	struct fam *fam = &d.fam[FAM_DSR];
	bool first = true;
	char *eq;
	int i;

	prog_name = DSRD_NAME;
	log_init();
	fam->f = &dsr_family;
	if (genl_open(&fam->req, NULL, &dsr_family.desc))
		return 1;
	fam->present = true;
	d.stats.fd = -1;
	d.events.fd = -1;
	strcpy(d.device, "dsr0");
	d.dev_ifindex = FAKE_IFINDEX;
	for (i = 1; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (eq) {
			*eq = '\0';
			if (eq[1])
				setenv(argv[i], eq + 1, 1);
			else
				unsetenv(argv[i]);
			continue;
		}
		if (run_conf(&d, argv[i], first))
			return 1;
		first = false;
	}
	genl_close(&fam->req);
	return 0;
}
