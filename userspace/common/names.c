// SPDX-License-Identifier: GPL-2.0
/* Names of the families' enum values (see names.h). */
#include "names.h"

/* ---- dsr ----------------------------------------------------------------- */

const char *const dsr_cmd_names[__DSR_CMD_MAX] = {
	[DSR_CMD_GET_PARAMS] = "get_params",
	[DSR_CMD_SET_PARAMS] = "set_params",
	[DSR_CMD_GET_ROUTE] = "get_route",
	[DSR_CMD_ADD_ROUTE] = "add_route",
	[DSR_CMD_DEL_ROUTE] = "del_route",
	[DSR_CMD_FLUSH] = "flush",
	[DSR_CMD_GET_NEIGH] = "get_neigh",
	[DSR_CMD_GET_BUFFER] = "get_buffer",
	[DSR_CMD_GET_REQTABLE] = "get_reqtable",
	[DSR_CMD_GET_NEGCACHE] = "get_negcache",
	[DSR_CMD_EVENT] = "event",
	[DSR_CMD_MCAST_JOIN] = "mcast_join",
	[DSR_CMD_MCAST_LEAVE] = "mcast_leave",
	[DSR_CMD_GET_MCAST] = "get_mcast",
	[DSR_CMD_MCAST_CHAIN] = "mcast_chain",
};

const char *const dsr_event_names[__DSR_EVENT_MAX] = {
	[DSR_EVENT_ROUTE_ADDED] = "route_added",
	[DSR_EVENT_ROUTE_ERROR] = "route_error",
	[DSR_EVENT_LINK_BROKEN] = "link_broken",
	[DSR_EVENT_DISCOVERY_FAILED] = "discovery_failed",
	[DSR_EVENT_CONFIG] = "config",
};

const char *const dsr_buffer_names[DSR_BUFFER_MAINT + 1] = {
	[DSR_BUFFER_SEND] = "send",
	[DSR_BUFFER_MAINT] = "maint",
};

const char *const dsr_blacklist_names[DSR_BLACKLIST_PROBABLE + 1] = {
	[DSR_BLACKLIST_NONE] = "none",
	[DSR_BLACKLIST_QUESTIONABLE] = "questionable",
	[DSR_BLACKLIST_PROBABLE] = "probable",
};

/* the kinds of rows of a GET_MCAST dump */
const char *const dsr_mc_row_names[DSR_MC_ROW_MAP + 1] = {
	[DSR_MC_ROW_GROUP] = "group",
	[DSR_MC_ROW_CHILD] = "child",
	[DSR_MC_ROW_LAYER] = "layer",
	[DSR_MC_ROW_MAP] = "map",
};

/* also the words of "ahctl dsr mcast join ... tag MODE" */
const char *const dsr_mc_tag_mode_names[DSR_MC_TAG_RTP + 1] = {
	[DSR_MC_TAG_BYTE] = "byte",
	[DSR_MC_TAG_RTP] = "rtp",
};

/* ---- macfilter ----------------------------------------------------------- */

const char *const mf_mode_names[__MACFILTER_MODE_MAX] = {
	[MACFILTER_MODE_DENY] = "deny",
	[MACFILTER_MODE_ALLOW] = "allow",
};

const char *const mf_cmd_names[__MACFILTER_CMD_MAX] = {
	[MACFILTER_CMD_ATTACH] = "attach",
	[MACFILTER_CMD_DETACH] = "detach",
	[MACFILTER_CMD_SET] = "set",
	[MACFILTER_CMD_GET_DEV] = "get_dev",
	[MACFILTER_CMD_ADD] = "add",
	[MACFILTER_CMD_DEL] = "del",
	[MACFILTER_CMD_FLUSH] = "flush",
	[MACFILTER_CMD_REPLACE] = "replace",
	[MACFILTER_CMD_GET_ENTRY] = "get_entry",
};

/* ---- transit ------------------------------------------------------------- */

const char *const tr_state_names[__TRANSIT_STATE_MAX] = {
	[TRANSIT_STATE_LEARNING] = "learning",
	[TRANSIT_STATE_FORWARD] = "forward",
	[TRANSIT_STATE_DROP] = "drop",
};

const char *const tr_cmd_names[__TRANSIT_CMD_MAX] = {
	[TRANSIT_CMD_ATTACH] = "attach",
	[TRANSIT_CMD_DETACH] = "detach",
	[TRANSIT_CMD_SET] = "set",
	[TRANSIT_CMD_GET_DEV] = "get_dev",
	[TRANSIT_CMD_GET_FLOW] = "get_flow",
	[TRANSIT_CMD_FLUSH] = "flush",
};

const char *const tr_flush_names[TRANSIT_FLUSH_ALL + 1] = {
	[TRANSIT_FLUSH_FLOWS] = "flows",
	[TRANSIT_FLUSH_COUNTERS] = "counters",
	[TRANSIT_FLUSH_ALL] = "all",
};

/* ---- slice --------------------------------------------------------------- */

/* also the events of "ahctl slice monitor": GRANT and REVOKE */
const char *const slice_cmd_names[__SLICE_CMD_MAX] = {
	[SLICE_CMD_GRANT] = "grant",
	[SLICE_CMD_REVOKE] = "revoke",
	[SLICE_CMD_GET] = "get",
};

const char *const slice_mode_names[__SLICE_MODE_MAX] = {
	[SLICE_MODE_MOVE] = "move",
	[SLICE_MODE_MAP] = "map",
};

const char *const slice_reason_names[__SLICE_REASON_MAX] = {
	[SLICE_REASON_REVOKED] = "revoked",
	[SLICE_REASON_EXPIRED] = "expired",
	[SLICE_REASON_SLICE_EXIT] = "slice-exit",
	[SLICE_REASON_DEV_GONE] = "dev-gone",
	[SLICE_REASON_UNLOAD] = "unload",
	[SLICE_REASON_NODE_EXIT] = "node-exit",
	[SLICE_REASON_PHY_MOVED] = "phy-moved",
	[SLICE_REASON_NO_PHY] = "no-phy",
};

/* a wireless grant waits for its phy, and holds it down when it ends */
const char *const slice_state_names[__SLICE_STATE_MAX] = {
	[SLICE_STATE_ACTIVE] = "active",
	[SLICE_STATE_PHY_WAIT] = "phy-wait",
	[SLICE_STATE_RETURNING] = "returning",
};

const char *name_lookup(const char *const *names, size_t n, uint64_t v)
{
	return v < n && names[v] ? names[v] : "unknown";
}
