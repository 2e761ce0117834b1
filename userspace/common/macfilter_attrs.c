// SPDX-License-Identifier: GPL-2.0
/* The macfilter family (include/uapi/linux/ah_macfilter.h). */
#include <linux/ah_macfilter.h>

#include "attrs.h"
#include "names.h"
#include "util.h"

#define A(id, n, t, ...)	\
	[MACFILTER_A_##id] = { .name = n, .type = t, __VA_ARGS__ }

static const struct attr_desc mf_attrs[MACFILTER_A_MAX + 1] = {
	A(IFINDEX, "ifindex", AT_U32),
	A(IFNAME, "ifname", AT_STR),
	A(MODE, "mode", AT_ENUM, .names = mf_mode_names,
	  .nnames = ARRAY_SIZE(mf_mode_names)),
	A(MAX_ENTRIES, "max_entries", AT_U32),
	A(COUNT, "count", AT_U32),
	A(MAC, "mac", AT_MAC, .flags = AF_TEXT_BARE),
	A(LOSS, "loss", AT_U8, .unit = "%"),
	A(DROPPED, "dropped", AT_U64),
	A(SEEN, "seen", AT_U64),
	A(PASSED, "passed", AT_U64),
};

static const char *const mf_groups[] = { MACFILTER_MCGRP_CONFIG, NULL };

const struct family macfilter_family = {
	.desc = { MACFILTER_GENL_NAME, MACFILTER_GENL_VERSION, "macfilter" },
	.maxattr = MACFILTER_A_MAX,
	.attrs = mf_attrs,
	.cmds = mf_cmd_names,
	.ncmds = ARRAY_SIZE(mf_cmd_names),
	.groups = mf_groups,
};
