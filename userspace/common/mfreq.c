// SPDX-License-Identifier: GPL-2.0
/* Building a MACFILTER_CMD_REPLACE request (see mfreq.h). */
#include <net/if.h>

#include <linux/genetlink.h>
#include <netlink/attr.h>

#include <linux/ah_macfilter.h>

#include "mfreq.h"

size_t mfreq_msg_size(size_t count)
{
	size_t entry = nla_total_size(0) + nla_total_size(MAC_LEN) +
		       nla_total_size(1);

	return NLMSG_HDRLEN + GENL_HDRLEN + nla_total_size(IFNAMSIZ) +
	       nla_total_size(1) + count * entry + 64;
}

int mfreq_put_entry(struct nl_msg *msg, const struct maclist_entry *e)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, MACFILTER_A_ENTRY | NLA_F_NESTED);
	if (!nest || nla_put(msg, MACFILTER_A_MAC, MAC_LEN, e->mac) ||
	    (e->has_loss && nla_put_u8(msg, MACFILTER_A_LOSS, e->loss)))
		return -1;
	return nla_nest_end(msg, nest) < 0 ? -1 : 0;
}

int mfreq_put_entries(struct nl_msg *msg, const struct maclist_entry *e,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mfreq_put_entry(msg, &e[i]))
			return -1;
	return 0;
}
