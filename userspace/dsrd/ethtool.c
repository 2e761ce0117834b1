// SPDX-License-Identifier: GPL-2.0
/*
 * Device counters by the ethtool ioctl (see ethtool.h), as ethtool -S
 * reads them: the count, the names, then the values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>

#include "ethtool.h"

/* No device has this many; guards the allocations. */
#define ETHTOOL_STATS_MAX	4096

static int ethtool_ioctl(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static int stats_count(int fd, const char *ifname, unsigned int *n)
{
	struct ethtool_sset_info *si;
	int err;

	si = calloc(1, sizeof(*si) + sizeof(__u32));
	if (!si)
		return -ENOMEM;
	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ULL << ETH_SS_STATS;
	err = ethtool_ioctl(fd, ifname, si);
	/* the mask keeps the bits of the sets the device has */
	if (!err)
		*n = si->sset_mask & (1ULL << ETH_SS_STATS) ? si->data[0] : 0;
	free(si);
	if (err)
		return err;
	return *n > ETHTOOL_STATS_MAX ? -E2BIG : 0;
}

static void copy_names(struct ethtool_counters *c,
		       const struct ethtool_gstrings *gs)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		memcpy(c->names[i], gs->data + i * ETH_GSTRING_LEN,
		       ETH_GSTRING_LEN);
		c->names[i][ETH_GSTRING_LEN] = '\0';
	}
}

void ethtool_counters_free(struct ethtool_counters *c)
{
	free(c->names);
	free(c->values);
	c->names = NULL;
	c->values = NULL;
	c->n = 0;
}

int ethtool_counters_read(int fd, const char *ifname,
			  struct ethtool_counters *c)
{
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	unsigned int n;
	int err;

	memset(c, 0, sizeof(*c));
	err = stats_count(fd, ifname, &n);
	if (err || !n)
		return err;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(__u64));
	c->names = calloc(n, sizeof(*c->names));
	c->values = calloc(n, sizeof(*c->values));
	if (!gs || !st || !c->names || !c->values) {
		err = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	err = ethtool_ioctl(fd, ifname, gs);
	if (err)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	err = ethtool_ioctl(fd, ifname, st);
	if (err)
		goto out;
	/* the kernel says how many it filled; never more than asked */
	c->n = n;
	if (gs->len < c->n)
		c->n = gs->len;
	if (st->n_stats < c->n)
		c->n = st->n_stats;
	copy_names(c, gs);
	memcpy(c->values, st->data, c->n * sizeof(*c->values));
out:
	free(gs);
	free(st);
	return err;
}
