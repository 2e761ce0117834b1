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
 * JOIN in ahctl's words ("source S group G layers N ..."), then, if dsrd
 * holds any, "; mapped by dsrd: group G source S; ..." (its [mcast.map]
 * pairs, in its order).  dsrd's
 * messages go to stderr.  Exit status 1 if a CONF is invalid or the
 * family cannot be opened.  The part it shares with dsrd_slice_run is
 * dsrd_run.c's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdio.h>

#include "dsrd_run.h"

static void apply(struct dsrd *d, const struct conf *c, struct run *r,
		  bool first)
{
	(void)first;	/* the start stops at a failed join: start_stops */
	mc_apply(d, c, r);
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
	if (d->nmm)
		printf("; mapped by dsrd:");
	for (i = 0; i < d->nmm; i++) {
		char g[INET_ADDRSTRLEN], a[INET_ADDRSTRLEN];
		struct in_addr in = { .s_addr = d->mm[i].group };

		inet_ntop(AF_INET, &in, g, sizeof(g));
		in.s_addr = d->mm[i].source;
		inet_ntop(AF_INET, &in, a, sizeof(a));
		printf("%s group %s source %s", i ? ";" : "", g, a);
	}
	putchar('\n');
	fflush(stdout);
}

const struct dsrd_runner runner = {
	.fam = FAM_DSR,
	.log_env = "FAKE_DSR_LOG",
	.device = "dsr0",
	.ifindex = 7,
	.start_stops = true,
	.apply = apply,
	.print_applied = print_applied,
};
