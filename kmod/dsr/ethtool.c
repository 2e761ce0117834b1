// SPDX-License-Identifier: GPL-2.0
/* ethtool -i and ethtool -S dsr0: the counters of enum dsr_stat. */
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "dsr.h"

static void dsr_get_drvinfo(struct net_device *dev,
			    struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "dsr", sizeof(info->driver));
	strscpy(info->version, "1", sizeof(info->version));
}

static int dsr_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? DSR_S_MAX : -EOPNOTSUPP;
}

static void dsr_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < DSR_S_MAX; i++)
		strscpy(data + i * ETH_GSTRING_LEN, dsr_stat_names[i],
			ETH_GSTRING_LEN);
}

static void dsr_get_ethtool_stats(struct net_device *dev,
				  struct ethtool_stats *stats, u64 *data)
{
	struct dsr_priv *priv = netdev_priv(dev);
	int i;

	for (i = 0; i < DSR_S_MAX; i++)
		data[i] = atomic_long_read(&priv->stats[i]);
}

const struct ethtool_ops dsr_ethtool_ops = {
	.get_drvinfo = dsr_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = dsr_get_sset_count,
	.get_strings = dsr_get_strings,
	.get_ethtool_stats = dsr_get_ethtool_stats,
};
