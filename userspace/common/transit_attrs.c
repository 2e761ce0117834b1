// SPDX-License-Identifier: GPL-2.0
/* The transit family (include/uapi/linux/ah_transit.h). */
#include <linux/ah_transit.h>

#include "attrs.h"
#include "names.h"
#include "util.h"

#define A(id, n, t, ...)	\
	[TRANSIT_A_##id] = { .name = n, .type = t, __VA_ARGS__ }
#define PARAM(id, n, u, lo, hi, r)					\
	[TRANSIT_A_P_##id] = { .name = n, .type = AT_U32, .unit = u,	\
			       .flags = AF_PARAM,			\
			       .def = TRANSIT_DEFAULT_##id, .min = lo,	\
			       .max = hi, .range = r }
#define TOTAL(id, n, u)	A(id, n, AT_U64, .unit = u)

static const struct attr_desc tr_attrs[TRANSIT_A_MAX + 1] = {
	A(IFINDEX, "ifindex", AT_U32),
	A(IFNAME, "ifname", AT_STR),
	A(ENABLE, "enable", AT_BOOL),
	A(FLUSH, "flush", AT_BITS, .names = tr_flush_names,
	  .nnames = ARRAY_SIZE(tr_flush_names)),
	PARAM(N_MISSES, "n_misses", NULL, 1, 64, "1..64"),
	PARAM(MARK_TIMEOUT_MS, "mark_timeout_ms", "ms", 1, 10000, "1..10000"),
	PARAM(PROBE_INTERVAL_MS, "probe_interval_ms", "ms", 100, 3600000,
	      "100..3600000, above mark_timeout_ms"),
	PARAM(PEEK_LEN, "peek_len", "bytes", 34, 128, "34..128"),
	PARAM(TABLE_SIZE, "table_size", NULL, 16, 65536, "16..65536"),
	PARAM(KEY_PORTS, "key_ports", NULL, 0, 1,
	      "0 or 1; 1 needs peek_len >= 38"),
	PARAM(IDLE_TIMEOUT_MS, "idle_timeout_ms", "ms", 2, 86400000,
	      "above mark_timeout_ms, at most 86400000"),
	A(FLOWS, "flows", AT_U32),
	TOTAL(PIO_BYTES_SAVED, "pio_bytes_saved", "bytes"),
	TOTAL(EARLY_DROPS, "early_drops", NULL),
	TOTAL(FALSE_POSITIVES, "false_positives", NULL),
	TOTAL(FALSE_NEGATIVES, "false_negatives", NULL),
	TOTAL(PASSES, "passes", NULL),
	TOTAL(EVICTIONS, "evictions", NULL),
	TOTAL(MARKS, "marks", NULL),
	TOTAL(MISSES, "misses", NULL),
	TOTAL(PROBES, "probes", NULL),
	A(SADDR, "saddr", AT_ADDR),
	A(DADDR, "daddr", AT_ADDR, .label = "to"),
	A(PROTO, "proto", AT_PROTO),
	A(SPORT, "sport", AT_U16),
	A(DPORT, "dport", AT_U16),
	A(STATE, "state", AT_ENUM, .names = tr_state_names,
	  .nnames = ARRAY_SIZE(tr_state_names)),
	TOTAL(PKTS, "pkts", NULL),
	TOTAL(BYTES, "bytes", "bytes"),
	TOTAL(DROPPED, "dropped", NULL),
	A(IDLE_MS, "idle_ms", AT_U32, .label = "idle", .unit = "ms",
	  .flags = AF_TEXT_UNIT),
};

static const char *const tr_groups[] = { TRANSIT_MCGRP_CONFIG, NULL };

const struct family transit_family = {
	.desc = { TRANSIT_GENL_NAME, TRANSIT_GENL_VERSION, "orinoco_transit" },
	.maxattr = TRANSIT_A_MAX,
	.attrs = tr_attrs,
	.params = tr_attrs,
	.param_first = TRANSIT_A_P_FIRST,
	.param_last = TRANSIT_A_P_LAST,
	.cmds = tr_cmd_names,
	.ncmds = ARRAY_SIZE(tr_cmd_names),
	.groups = tr_groups,
};
