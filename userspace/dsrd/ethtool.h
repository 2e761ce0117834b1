/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "ethtool -S DEV" through the SIOCETHTOOL ioctl: ETHTOOL_GSSET_INFO for
 * the number of ETH_SS_STATS strings, ETHTOOL_GSTRINGS, ETHTOOL_GSTATS.
 */
#ifndef DSRD_ETHTOOL_H
#define DSRD_ETHTOOL_H

#include <stdint.h>

#include <linux/ethtool.h>

struct ethtool_counters {
	unsigned int n;
	char (*names)[ETH_GSTRING_LEN + 1];
	uint64_t *values;
};

/*
 * Every counter of @ifname; @fd is any socket of the device's namespace.
 * 0 or -errno.  ethtool_counters_free() in either case.
 */
int ethtool_counters_read(int fd, const char *ifname,
			  struct ethtool_counters *c);
void ethtool_counters_free(struct ethtool_counters *c);

#endif /* DSRD_ETHTOOL_H */
