// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd's slice steps (userspace/dsrd/apply_slice.c), built with the rest
 * of dsrd and run against the stand-in for the slice module
 * (fake_slice.so, preloaded by test_dsrd_slice.sh):
 *
 *	dsrd_slice_run [NAME=VALUE | stats:FILE | events | CONF]...
 *
 * The first CONF is applied as dsrd's start does (after the device is
 * up: the grants), each further one as a SIGHUP does (the revocations
 * before the other steps, the grants after them), in one process, so
 * what dsrd granted carries over.  NAME=VALUE sets an environment
 * variable of the stand-in (FAKE_NETNS, FAKE_SLICE_ERROR,
 * FAKE_NL80211_ERROR, FAKE_SLICE_RADIOS; an empty VALUE unsets it) before
 * the next CONF.
 * Before each CONF, "-- CONF" goes to $FAKE_SLICE_LOG, which then holds
 * the requests it made; after it, one line to stdout: "CONF: failed N;
 * granted by dsrd: IFACE=SLICE[/LEASE]...", with "+map[:PORT,...] [ADDR]"
 * after a map grant (its KEEP, and the address of the slice's side once
 * configured), "+PHY" after a wireless one (the phy dsrd moved into the
 * slice).  stats:FILE writes one stats line to FILE, as every
 * StatsInterval does (the slice family's part only: the other modules
 * are not there).  events reads the notifications as dsrd's loop does
 * (subscribing the first time: the stand-in sends its three then, and
 * the ends of its wireless grants), and prints "events: granted by dsrd:
 * ..." after them.  dsrd's messages go to stderr.  Exit status 1 if a
 * CONF is invalid or the family cannot be opened.  The part it shares
 * with dsrd_mcast_run is dsrd_run.c's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "dsrd_run.h"

static void apply(struct dsrd *d, const struct conf *c, struct run *r,
		  bool first)
{
	if (!first)
		sl_revoke_gone(d, c, r);
	sl_grant_all(d, c, r);
}

/* " IFACE=SLICE[/LEASE][+map[:PORT,...] [ADDR]|+PHY]" for each of dsrd's */
static void print_applied(const struct dsrd *d)
{
	char addr[INET_ADDRSTRLEN];
	const struct sl_applied *a;
	struct in_addr in;
	size_t i, j;

	printf(" granted by dsrd:");
	for (i = 0; i < d->nsl; i++) {
		a = &d->sl[i];
		printf(" %s=%s", a->ifname, a->slice);
		if (a->lease)
			printf("/%u", a->lease);
		if (a->phy[0])
			printf("+%s", a->phy);
		if (a->mode != SLICE_MODE_MAP)
			continue;
		printf("+map");
		for (j = 0; j < a->nkeep; j++)
			printf("%c%u", j ? ',' : ':', a->keep[j]);
		if (a->mapped) {
			in.s_addr = a->map.addr;
			printf(" %s", inet_ntop(AF_INET, &in, addr, sizeof(addr)));
		}
	}
	putchar('\n');
	fflush(stdout);
}

/* What dsrd's loop does when the notifications socket is readable */
static int events(struct dsrd *d)
{
	struct fam *fam = &d->fam[FAM_SLICE];

	if (!fam->ev.sk && events_subscribe(d, fam))
		return -1;
	events_read(d, fam);
	printf("events:");
	print_applied(d);
	return 0;
}

static int stats(struct dsrd *d, const char *path)
{
	int err = statlog_open(&d->stats, path, CONF_MAX_BYTES, 0);

	if (err) {
		fprintf(stderr, "%s: %s\n", path, strerror(-err));
		return -1;
	}
	stats_write(d);
	statlog_close(&d->stats);
	return 0;
}

/* stats:FILE and events */
static int arg(struct dsrd *d, const char *arg)
{
	if (!strncmp(arg, "stats:", 6))
		return stats(d, arg + 6);
	if (!strcmp(arg, "events"))
		return events(d);
	return 1;
}

const struct dsrd_runner runner = {
	.fam = FAM_SLICE,
	.log_env = "FAKE_SLICE_LOG",
	.apply = apply,
	.print_applied = print_applied,
	.arg = arg,
};
