// SPDX-License-Identifier: GPL-2.0
/*
 * The slice family (include/uapi/linux/ah_slice.h): an interface of the
 * node leased to a slice (a network namespace).  No parameters.
 *
 * NETNS_FD and NETNS_PID name the slice in a GRANT request only; they
 * are named here so that a kernel that reports them is printed whole.
 * A map grant has ADDR (printed as A.B.C.D) and KEEP, a nest of PORT
 * attributes (printed as a list of numbers).  Every grant has a STATE,
 * which text leaves out while it is "active"; a wireless one in move mode
 * its PHY and PHY_NETNS_INO, the namespace the phy is in now;
 * SLICE_NETNS_INO is the slice's namespace (nsfs inodes both).  FORCE
 * is a flag of a REVOKE request only.
 */
#include <linux/ah_slice.h>

#include "attrs.h"
#include "names.h"
#include "util.h"

#define A(id, n, t, ...)	\
	[SLICE_A_##id] = { .name = n, .type = t, __VA_ARGS__ }
#define ENUM(id, n, table, ...)						\
	[SLICE_A_##id] = { .name = n, .type = AT_ENUM, .names = table,	\
			   .nnames = ARRAY_SIZE(table), __VA_ARGS__ }

static const struct attr_desc slice_attrs[SLICE_A_MAX + 1] = {
	A(IFINDEX, "ifindex", AT_U32),
	A(IFNAME, "ifname", AT_STR),
	A(NETNS_FD, "netns_fd", AT_U32),
	A(NETNS_PID, "netns_pid", AT_U32),
	/* in text as on the command line: "netns NAME" */
	A(NAME, "name", AT_STR, .label = "netns"),
	ENUM(MODE, "mode", slice_mode_names),
	A(LEASE, "lease", AT_U32, .unit = "s", .flags = AF_TEXT_UNIT),
	A(LEASE_LEFT, "lease_left", AT_U32, .unit = "ms",
	  .flags = AF_TEXT_UNIT),
	A(AGE, "age", AT_U64, .unit = "ms", .flags = AF_TEXT_UNIT),
	A(SLICE_IFINDEX, "slice_ifindex", AT_U32),
	A(SLICE_IFNAME, "slice_ifname", AT_STR),
	A(RX_PACKETS, "rx_packets", AT_U64),
	A(RX_BYTES, "rx_bytes", AT_U64, .unit = "bytes"),
	A(TX_PACKETS, "tx_packets", AT_U64),
	A(TX_BYTES, "tx_bytes", AT_U64, .unit = "bytes"),
	ENUM(REASON, "reason", slice_reason_names),
	/* SLICE_A_PAD: alignment of the u64s, not printed */
	A(SPOOFED, "spoofed", AT_U64),
	/* map mode */
	A(ADDR, "addr", AT_ADDR),
	A(KEEP, "keep", AT_PORTS),
	/* what KEEP holds, never a key of its own */
	A(PORT, "port", AT_U16),
	/* in text only when not "active" (0) */
	ENUM(STATE, "state", slice_state_names, .flags = AF_TEXT_NONZERO),
	/* a wireless interface in move mode: its phy, moved by the granter */
	A(PHY, "phy", AT_STR),
	A(SLICE_NETNS_INO, "slice_netns_ino", AT_U32),
	A(PHY_NETNS_INO, "phy_netns_ino", AT_U32),
	/* REVOKE: end a RETURNING grant where it is */
	A(FORCE, "force", AT_FLAG),
};

static const char *const slice_groups[] = { SLICE_MCGRP_CONFIG, NULL };

const struct family slice_family = {
	.desc = { SLICE_GENL_NAME, SLICE_GENL_VERSION, "slice" },
	.maxattr = SLICE_A_MAX,
	.attrs = slice_attrs,
	.cmds = slice_cmd_names,
	.ncmds = ARRAY_SIZE(slice_cmd_names),
	.groups = slice_groups,
};
