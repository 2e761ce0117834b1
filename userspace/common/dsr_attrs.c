// SPDX-License-Identifier: GPL-2.0
/*
 * The dsr family (include/uapi/linux/ah_dsr.h).  The parameters are the
 * attributes of the nest DSR_A_PARAMS, in a table of their own; their
 * defaults and ranges are those of kmod/dsr/params.c (tests/unit checks
 * them).
 */
#include <stdint.h>

#include <linux/ah_dsr.h>

#include "attrs.h"
#include "names.h"
#include "util.h"

#define A(id, n, t, ...)	\
	[DSR_A_##id] = { .name = n, .type = t, __VA_ARGS__ }
#define ENUM(id, n, table, ...)						\
	[DSR_A_##id] = { .name = n, .type = AT_ENUM, .names = table,	\
			 .nnames = ARRAY_SIZE(table), __VA_ARGS__ }
#define PARAM(id, n, u, d, lo, hi)					\
	[DSR_A_P_##id] = { .name = n, .type = AT_U32, .unit = u,	\
			   .flags = AF_PARAM, .def = d, .min = lo,	\
			   .max = hi }

static const struct attr_desc dsr_attrs[DSR_A_MAX + 1] = {
	A(IFINDEX, "ifindex", AT_U32),
	A(IFNAME, "ifname", AT_STR),
	A(DST, "dst", AT_ADDR),
	A(HOPS, "hops", AT_HOPS, .label = "path"),
	A(HOPCOUNT, "hopcount", AT_U32, .label = "hops"),
	A(AGE_MS, "age_ms", AT_U32, .label = "age", .unit = "ms",
	  .flags = AF_TEXT_UNIT),
	A(EXPIRES_MS, "expires_ms", AT_U32, .label = "expires", .unit = "ms",
	  .flags = AF_TEXT_UNIT),
	A(STATIC, "static", AT_FLAG),
	A(EXTERNAL, "external", AT_FLAG),
	A(ADDR, "addr", AT_ADDR),
	A(NEXTHOP, "nexthop", AT_ADDR),
	A(MAC, "mac", AT_MAC, .label = "lladdr"),
	A(SLAVE, "slave", AT_IFINDEX, .label = "dev"),
	A(RTO_MS, "rto_ms", AT_U32, .label = "rto", .unit = "ms",
	  .flags = AF_TEXT_UNIT),
	A(TX, "tx", AT_U64),
	A(RETX, "retx", AT_U64),
	A(ACKED, "acked", AT_U64),
	ENUM(BUFFER, "buffer", dsr_buffer_names),
	A(LEN, "len", AT_U32, .unit = "bytes"),
	A(TRIES, "tries", AT_U32),
	A(IDS, "ids", AT_U32),
	A(FLUSH, "flush", AT_U32),
	ENUM(EVENT, "event", dsr_event_names),
	A(SRTT_US, "srtt_us", AT_U32, .unit = "us"),
	A(RTTVAR_US, "rttvar_us", AT_U32, .unit = "us"),
	A(RTT_SAMPLES, "rtt_samples", AT_U32, .label = "samples"),
	ENUM(BLACKLIST, "blacklist", dsr_blacklist_names),
	/* DSR_A_PARAMS: the nest of dsr_params (attrs_json() expands it) */
	A(ACK_EXPLICIT, "ack_explicit", AT_FLAG),
	/*
	 * layered multicast: the text keywords are those of "ahctl dsr mcast
	 * join" where it takes the attribute (source, group, layers, tag,
	 * offset, id, tids, group-layers), and "mcast chain"'s (chain)
	 */
	ENUM(MC_ROW, "mc_row", dsr_mc_row_names, .label = "row"),
	A(MC_SOURCE, "mc_source", AT_ADDR, .label = "source"),
	A(MC_GROUP, "mc_group", AT_ADDR, .label = "group"),
	A(MC_LAYERS, "mc_layers", AT_U8, .label = "layers"),
	A(MC_UPSTREAM, "mc_upstream", AT_ADDR, .label = "upstream"),
	A(MC_ASKED, "mc_asked", AT_U8, .label = "asked"),
	A(MC_LOCAL_IGMP, "mc_local_igmp", AT_FLAG, .label = "igmp"),
	ENUM(MC_TAG_MODE, "mc_tag_mode", dsr_mc_tag_mode_names,
	     .label = "tag"),
	A(MC_TAG_LAYERS, "mc_tag_layers", AT_U8, .label = "group-layers"),
	A(MC_TAG_OFFSET, "mc_tag_offset", AT_U16, .label = "offset",
	  .unit = "bytes"),
	A(MC_TAG_EXT_ID, "mc_tag_ext_id", AT_U8, .label = "id"),
	A(MC_TAG_TIDS, "mc_tag_tids", AT_U8, .label = "tids"),
	A(MC_LAYER, "mc_layer", AT_U8, .label = "layer"),
	A(MC_FWD_PACKETS, "mc_fwd_packets", AT_U64, .label = "fwd_packets"),
	A(MC_FWD_BYTES, "mc_fwd_bytes", AT_U64, .label = "fwd_bytes",
	  .unit = "bytes"),
	A(MC_FILT_PACKETS, "mc_filt_packets", AT_U64,
	  .label = "filtered_packets"),
	A(MC_FILT_BYTES, "mc_filt_bytes", AT_U64, .label = "filtered_bytes",
	  .unit = "bytes"),
	A(MC_LOCAL_PACKETS, "mc_local_packets", AT_U64,
	  .label = "local_packets"),
	A(MC_LOCAL_BYTES, "mc_local_bytes", AT_U64, .label = "local_bytes",
	  .unit = "bytes"),
	/*
	 * binary, struct dsr_mc_elem_cfg[]: no type of the table's, so
	 * nothing prints it from here; "ahctl dsr mcast show" does, each
	 * element in the words of "mcast chain" (common/dsr_mcast.c:
	 * dsr_mc_elem_str())
	 */
	A(MC_CHAIN, "mc_chain", AT_NONE, .label = "chain"),
	A(MC_CAPPED_PACKETS, "mc_capped_packets", AT_U64,
	  .label = "capped_packets"),
	/* the local socket's join came by the source map (mcast map) */
	A(MC_MAPPED, "mc_mapped", AT_FLAG, .label = "mapped"),
};

/* Inside DSR_A_PARAMS, by DSR_A_P_* */
static const struct attr_desc dsr_params[DSR_A_P_MAX + 1] = {
	PARAM(DISCOVERY_HOP_LIMIT, "discovery_hop_limit", NULL, 255, 1, 255),
	PARAM(BROADCAST_JITTER_MS, "broadcast_jitter_ms", "ms", 10, 0, 1000),
	PARAM(ROUTE_CACHE_TIMEOUT_MS, "route_cache_timeout_ms", "ms", 300000,
	      100, 86400000),
	PARAM(SEND_BUFFER_TIMEOUT_MS, "send_buffer_timeout_ms", "ms", 30000,
	      10, 600000),
	PARAM(SEND_BUFFER_PACKETS, "send_buffer_packets", NULL, 64, 1, 4096),
	PARAM(SEND_BUFFER_BYTES, "send_buffer_bytes", "bytes", 262144, 1500,
	      16777216),
	PARAM(REQUEST_TABLE_SIZE, "request_table_size", NULL, 64, 1, 1024),
	PARAM(REQUEST_TABLE_IDS, "request_table_ids", NULL, 16, 1, 64),
	PARAM(MAX_REQUEST_REXMT, "max_request_rexmt", NULL, 16, 0, 64),
	PARAM(MAX_REQUEST_PERIOD_MS, "max_request_period_ms", "ms", 10000, 10,
	      600000),
	PARAM(REQUEST_PERIOD_MS, "request_period_ms", "ms", 500, 10, 600000),
	PARAM(NONPROP_REQUEST_TIMEOUT_MS, "nonprop_request_timeout_ms", "ms",
	      30, 0, 10000),
	PARAM(REXMT_BUFFER_SIZE, "rexmt_buffer_size", NULL, 256, 1, 4096),
	PARAM(MAINT_HOLDOFF_MS, "maint_holdoff_ms", "ms", 250, 0, 10000),
	PARAM(MAX_MAINT_REXMT, "max_maint_rexmt", NULL, 2, 0, 16),
	PARAM(TRY_PASSIVE_ACKS, "try_passive_acks", NULL, 1, 0, 16),
	PARAM(PASSIVE_ACK_TIMEOUT_MS, "passive_ack_timeout_ms", "ms", 100, 1,
	      10000),
	PARAM(ACK_TIMEOUT_MS, "ack_timeout_ms", "ms", 500, 1, 10000),
	PARAM(GRAT_REPLY_HOLDOFF_MS, "grat_reply_holdoff_ms", "ms", 1000, 0,
	      60000),
	PARAM(MAX_SALVAGE_COUNT, "max_salvage_count", NULL, 15, 0, 15),
	PARAM(LINK_HOLDDOWN_MS, "link_holddown_ms", "ms", 5000, 0, 600000),
	PARAM(ROUTE_CACHE_SIZE, "route_cache_size", NULL, 256, 1, 4096),
	PARAM(GATEWAY, "gateway", NULL, 0, 0, 1),
	/* an address: A.B.C.D[/LEN] on the command line and in the config */
	[DSR_A_P_SUBNET] = { .name = "subnet", .type = AT_ADDR,
			     .flags = AF_PARAM, .def = 0, .min = 0,
			     .max = UINT32_MAX },
	PARAM(SUBNET_PREFIX, "subnet_prefix", NULL, 0, 0, 32),
	PARAM(TIMER_MS, "timer_ms", "ms", 10, 1, 1000),
	PARAM(ADAPTIVE_RTO, "adaptive_rto", NULL, 1, 0, 1),
	PARAM(RTO_MIN_MS, "rto_min_ms", "ms", 50, 1, 60000),
	PARAM(RTO_MAX_MS, "rto_max_ms", "ms", 2000, 1, 60000),
	PARAM(QUEUE_HEURISTIC, "queue_heuristic", NULL, 1, 0, 1),
	PARAM(QUEUE_THRESH, "queue_thresh", NULL, 5, 0, 100000),
	PARAM(QUEUE_INCR_MS, "queue_incr_ms", "ms", 20, 0, 10000),
	PARAM(SLAVE_QDISC, "slave_qdisc", NULL, 1, 0, 1),
	PARAM(HOLD_QUEUED, "hold_queued", NULL, 1, 0, 1),
	PARAM(CONGESTION_DROP, "congestion_drop", NULL, 1, 0, 1),
	PARAM(ACK_ALL, "ack_all", NULL, 0, 0, 1),
	PARAM(OVERHEARD_RATE, "overheard_rate", NULL, 200, 0, 10000),
	PARAM(MCAST_BCAST_MIN, "mcast_bcast_min", NULL, 2, 0, DSR_MC_MAX_CHILDREN),
};

static const char *const dsr_groups[] = {
	DSR_MCGRP_CONFIG, DSR_MCGRP_EVENTS, NULL,
};

const struct family dsr_family = {
	.desc = { DSR_GENL_NAME, DSR_GENL_VERSION, "dsr" },
	.maxattr = DSR_A_MAX,
	.attrs = dsr_attrs,
	.params = dsr_params,
	.param_first = DSR_A_P_FIRST,
	.param_last = DSR_A_P_LAST,
	.params_nest = DSR_A_PARAMS,
	.cmds = dsr_cmd_names,
	.ncmds = ARRAY_SIZE(dsr_cmd_names),
	.groups = dsr_groups,
	.event_attr = DSR_A_EVENT,
	.events = dsr_event_names,
	.nevents = ARRAY_SIZE(dsr_event_names),
};
