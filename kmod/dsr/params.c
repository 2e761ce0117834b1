// SPDX-License-Identifier: GPL-2.0
/*
 * Protocol constants: RFC 4728 section 9 defaults, our additions, and the
 * range each may take.  Counter names for ethtool -S.
 */
#include "dsr.h"

struct dsr_param_def {
	u32 dflt, min, max;
};

#define DEF(name, d, lo, hi) \
	[DSR_A_P_##name - DSR_A_P_FIRST] = { .dflt = d, .min = lo, .max = hi }

/*
 * The generic netlink policy (dsr_param_policy, netlink.c) holds the same
 * ranges, and refuses a value outside them; the module does not load if
 * the two disagree.
 */
static const struct dsr_param_def dsr_param_defs[DSR_NPARAMS] = {
	DEF(DISCOVERY_HOP_LIMIT, 255, 1, 255),
	DEF(BROADCAST_JITTER_MS, 10, 0, 1000),
	DEF(ROUTE_CACHE_TIMEOUT_MS, 300000, 100, 86400000),
	DEF(SEND_BUFFER_TIMEOUT_MS, 30000, 10, 600000),
	DEF(SEND_BUFFER_PACKETS, 64, 1, 4096),
	DEF(SEND_BUFFER_BYTES, 262144, 1500, 16777216),
	DEF(REQUEST_TABLE_SIZE, 64, 1, 1024),
	DEF(REQUEST_TABLE_IDS, 16, 1, DSR_RREQ_IDS_MAX),
	DEF(MAX_REQUEST_REXMT, 16, 0, 64),
	DEF(MAX_REQUEST_PERIOD_MS, 10000, 10, 600000),
	DEF(REQUEST_PERIOD_MS, 500, 10, 600000),
	DEF(NONPROP_REQUEST_TIMEOUT_MS, 30, 0, 10000),
	DEF(REXMT_BUFFER_SIZE, 256, 1, 4096),
	DEF(MAINT_HOLDOFF_MS, 250, 0, 10000),
	DEF(MAX_MAINT_REXMT, 2, 0, 16),
	DEF(TRY_PASSIVE_ACKS, 1, 0, 16),
	DEF(PASSIVE_ACK_TIMEOUT_MS, 100, 1, 10000),
	DEF(ACK_TIMEOUT_MS, 500, 1, 10000),
	DEF(GRAT_REPLY_HOLDOFF_MS, 1000, 0, 60000),
	DEF(MAX_SALVAGE_COUNT, 15, 0, 15),
	DEF(LINK_HOLDDOWN_MS, 5000, 0, 600000),
	DEF(ROUTE_CACHE_SIZE, 256, 1, 4096),
	DEF(GATEWAY, 0, 0, 1),
	DEF(SUBNET, 0, 0, U32_MAX),
	DEF(SUBNET_PREFIX, 0, 0, 32),
	DEF(TIMER_MS, 10, 1, 1000),
	DEF(ADAPTIVE_RTO, 1, 0, 1),
	DEF(RTO_MIN_MS, 50, 1, 60000),
	DEF(RTO_MAX_MS, 2000, 1, 60000),
	DEF(QUEUE_HEURISTIC, 1, 0, 1),
	DEF(QUEUE_THRESH, 5, 0, 100000),
	DEF(QUEUE_INCR_MS, 20, 0, 10000),
	DEF(SLAVE_QDISC, 1, 0, 1),
	DEF(HOLD_QUEUED, 1, 0, 1),
	DEF(CONGESTION_DROP, 1, 0, 1),
	DEF(ACK_ALL, 0, 0, 1),
	DEF(OVERHEARD_RATE, 200, 0, 10000),
	DEF(MCAST_BCAST_MIN, 2, 0, DSR_MC_CHILDREN),
};

void dsr_params_default(u32 *param)
{
	int i;

	for (i = 0; i < DSR_NPARAMS; i++)
		param[i] = dsr_param_defs[i].dflt;
}

/* attr is one of DSR_A_P_FIRST..DSR_A_P_LAST */
enum dsr_param_range dsr_param_check(int attr, u32 val)
{
	const struct dsr_param_def *d = &dsr_param_defs[attr - DSR_A_P_FIRST];

	if (val < d->min)
		return DSR_PARAM_BELOW;
	return val > d->max ? DSR_PARAM_ABOVE : DSR_PARAM_OK;
}

const char *const dsr_stat_names[DSR_S_MAX] = {
	[DSR_S_RREQ_SENT] = "rreq_sent",
	[DSR_S_RREQ_RECEIVED] = "rreq_received",
	[DSR_S_RREQ_FORWARDED] = "rreq_forwarded",
	[DSR_S_RREQ_DUPLICATE] = "rreq_duplicate",
	[DSR_S_RREQ_OWN] = "rreq_own_or_looped",
	[DSR_S_RREQ_HOP_LIMIT] = "rreq_hop_limit",
	[DSR_S_RREQ_QUEUE_FULL] = "rreq_jitter_queue_full",
	[DSR_S_RREQ_RATE_LIMITED] = "rreq_rate_limited",
	[DSR_S_RREQ_BLACKLISTED] = "rreq_blacklisted",
	[DSR_S_BLACKLIST_ADDED] = "blacklist_added",
	[DSR_S_BLACKLIST_PROBES] = "blacklist_probes",
	[DSR_S_BLACKLIST_CLEARED] = "blacklist_cleared",
	[DSR_S_RREP_SENT] = "rrep_sent",
	[DSR_S_RREP_CACHED_SENT] = "rrep_from_cache_sent",
	[DSR_S_RREP_GATEWAY_SENT] = "rrep_gateway_sent",
	[DSR_S_RREP_RECEIVED] = "rrep_received",
	[DSR_S_GRAT_RREP_SENT] = "grat_rrep_sent",
	[DSR_S_GRAT_RREP_HOLDOFF] = "grat_rrep_holdoff",
	[DSR_S_RERR_SENT] = "rerr_sent",
	[DSR_S_RERR_RECEIVED] = "rerr_received",
	[DSR_S_RERR_NO_ROUTE] = "rerr_no_route",
	[DSR_S_ACK_REQ_SENT] = "ack_req_sent",
	[DSR_S_ACK_SENT] = "ack_sent",
	[DSR_S_ACK_RECEIVED] = "ack_received",
	[DSR_S_PASSIVE_ACKS] = "passive_acks",
	[DSR_S_RETRANSMISSIONS] = "retransmissions",
	[DSR_S_LINK_FAILURES] = "link_failures",
	[DSR_S_SALVAGED] = "salvaged",
	[DSR_S_SALVAGE_FAILED] = "salvage_failed",
	[DSR_S_REROUTED] = "rerouted",
	[DSR_S_MAINT_BUFFER_FULL] = "maint_buffer_full",
	[DSR_S_SENDBUF_QUEUED] = "sendbuf_queued",
	[DSR_S_SENDBUF_DROP_FULL] = "sendbuf_drop_full",
	[DSR_S_SENDBUF_DROP_DUP] = "sendbuf_drop_duplicate",
	[DSR_S_SENDBUF_DROP_TIMEOUT] = "sendbuf_drop_timeout",
	[DSR_S_SENDBUF_DROP_DISCOVERY] = "sendbuf_drop_discovery_failed",
	[DSR_S_DISCOVERY_STARTED] = "discovery_started",
	[DSR_S_DISCOVERY_FAILED] = "discovery_failed",
	[DSR_S_FORWARDED] = "forwarded",
	[DSR_S_FWD_TTL_EXCEEDED] = "fwd_ttl_exceeded",
	[DSR_S_FWD_DUPLICATE] = "fwd_duplicate",
	[DSR_S_DELIVERED] = "delivered",
	[DSR_S_RX_DUPLICATE] = "rx_duplicate",
	[DSR_S_NOT_FOR_US] = "not_for_us",
	[DSR_S_OVERHEARD] = "overheard",
	[DSR_S_ROUTES_LEARNED] = "routes_learned",
	[DSR_S_NEIGH_MAC_REFUSED] = "neigh_mac_refused",
	[DSR_S_TX_NOT_IPV4] = "tx_not_ipv4",
	[DSR_S_TX_BROADCAST] = "tx_broadcast_dropped",
	[DSR_S_TX_SLAVE_GONE] = "tx_slave_gone",
	[DSR_S_TX_TOO_BIG] = "tx_too_big",
	[DSR_S_NO_ADDRESS] = "no_address",
	[DSR_S_NOMEM] = "nomem",
	[DSR_S_SLAVE_QDISC_FAILED] = "slave_qdisc_failed",
	[DSR_S_REXMT_HELD] = "rexmt_held_queued",
	[DSR_S_BREAK_HELD] = "link_break_held_queued",
	[DSR_S_LEFT_HOST_WAITED] = "maint_left_host_waited",
	[DSR_S_CONGESTION_DROPS] = "congestion_drops",
	[DSR_S_MAINT_QUEUE_DROPS] = "maint_queue_drops",
	[DSR_S_ACK_CLEARED_EARLIER] = "ack_cleared_earlier",
	[DSR_S_FRAG_ENCAP] = "frag_encapsulated",
	[DSR_S_FRAG_DECAP] = "frag_decapsulated",
	[DSR_S_TIMER_RUNS] = "timer_runs",
	[DSR_S_TIMER_NS] = "timer_ns",
	[DSR_S_UNKNOWN_OPT] = "unknown_option",
	[DSR_S_MALFORMED_IP] = "malformed_ip",
	[DSR_S_ICMP_SENT] = "icmp_sent",
	[DSR_S_ICMP_RATE_LIMITED] = "icmp_rate_limited",
	[DSR_S_ICMP_NO_ROUTE] = "icmp_no_route",
	[DSR_S_MAINT_HELD_OFF] = "maint_held_off",
	[DSR_S_TX_GSO] = "tx_gso",
	[DSR_S_TX_GSO_SEGS] = "tx_gso_segs",
	[DSR_S_TX_CSUM_SW] = "tx_csum_sw",
	[DSR_S_RERR_CARRIED] = "rerr_carried",
	[DSR_S_RERR_RESENT] = "rerr_resent",
	[DSR_S_FWD_COPIED] = "fwd_copied",
	[DSR_S_RX_COPIED] = "rx_copied",
	[DSR_S_RERR_SPREAD] = "rerr_spread",
	[DSR_S_OVERHEARD_SKIPPED] = "overheard_skipped",
	[DSR_S_MCAST_TX] = "mcast_tx",
	[DSR_S_MCAST_RX] = "mcast_rx",
	[DSR_S_MCAST_COPIES] = "mcast_copies",
	[DSR_S_MCAST_BCAST] = "mcast_broadcasts",
	[DSR_S_MCAST_DELIVERED] = "mcast_delivered",
	[DSR_S_MCAST_NO_TREE] = "mcast_no_tree",
	[DSR_S_MCAST_DUPLICATE] = "mcast_duplicate",
	[DSR_S_MCAST_TTL] = "mcast_ttl_exceeded",
	[DSR_S_MCAST_MALFORMED] = "mcast_malformed",
	[DSR_S_MCAST_JOIN_SENT] = "mcast_join_sent",
	[DSR_S_MCAST_LEAVE_SENT] = "mcast_leave_sent",
	[DSR_S_MCAST_JOIN_RECEIVED] = "mcast_join_received",
	[DSR_S_MCAST_JOIN_BAD] = "mcast_join_malformed",
	[DSR_S_MCAST_JOIN_LIMITED] = "mcast_join_rate_limited",
	[DSR_S_MCAST_IGMP_JOIN] = "mcast_igmp_joins",
	[DSR_S_MCAST_IGMP_LEAVE] = "mcast_igmp_leaves",
	[DSR_S_MCAST_IGMP_ANY] = "mcast_igmp_any_source",
	[DSR_S_MCAST_IGMP_BAD] = "mcast_igmp_malformed",
	[DSR_S_MCAST_CAPPED] = "mcast_capped",
	[DSR_S_FWD_FAST] = "fwd_fast",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_ABOVE - 1] = "mcast_tag_above",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_TRUNCATED - 1] = "mcast_tag_truncated",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_VERSION - 1] = "mcast_tag_version",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_CSRC - 1] = "mcast_tag_csrc",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_EXT_LEN - 1] = "mcast_tag_ext_len",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_ELEM - 1] = "mcast_tag_elem",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_TID - 1] = "mcast_tag_tid",
	[DSR_S_MCAST_TAG_FIRST + DSR_MTAG_CFG - 1] = "mcast_tag_cfg",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_BAD_GROUP - 1] = "mcast_join_bad_group",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_BAD_SOURCE - 1] = "mcast_join_bad_source",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_BAD_CHILD - 1] = "mcast_join_bad_child",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_BAD_LAYERS - 1] = "mcast_join_bad_layers",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_LOOP - 1] = "mcast_join_loop",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_GROUPS_FULL - 1] = "mcast_join_groups_full",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_CHILDREN_FULL - 1] = "mcast_join_children_full",
	[DSR_S_MCAST_TREE_FIRST + DSR_MT_NO_ENTRY - 1] = "mcast_join_no_entry",
	[DSR_S_BAD_FIRST + DSR_BAD_TRUNCATED - 1] = "malformed_truncated",
	[DSR_S_BAD_FIRST + DSR_BAD_PAYLOAD_LEN - 1] = "malformed_payload_len",
	[DSR_S_BAD_FIRST + DSR_BAD_FLOW_STATE - 1] = "malformed_flow_state",
	[DSR_S_BAD_FIRST + DSR_BAD_OPT_LEN - 1] = "malformed_opt_len",
	[DSR_S_BAD_FIRST + DSR_BAD_OPT_SIZE - 1] = "malformed_opt_size",
	[DSR_S_BAD_FIRST + DSR_BAD_OPT_REPEAT - 1] = "malformed_opt_repeat",
	[DSR_S_BAD_FIRST + DSR_BAD_SEGS_LEFT - 1] = "malformed_segs_left",
	[DSR_S_BAD_FIRST + DSR_BAD_UNKNOWN_DROP - 1] = "malformed_unknown_drop",
	[DSR_S_BAD_FIRST + DSR_BAD_ROUTE - 1] = "malformed_route",
};
