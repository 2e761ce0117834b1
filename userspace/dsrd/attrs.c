// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute tables of the dsr, macfilter and transit families (see
 * attrs.h).  Names and value forms follow userspace/ahctl: dsr.c attrs[],
 * macfilter.c print_event_json(), transit.c tattrs[].
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/ah_dsr.h>
#include <linux/ah_macfilter.h>
#include <linux/ah_transit.h>

#include "attrs.h"
#include "conf.h"
#include "dsrd.h"
#include "maclist.h"
#include "names.h"

/* Shortest payload of each type; 0: anything (string, flag, hops). */
static const int vtype_len[__VT_MAX] = {
	[VT_U8] = 1, [VT_U16] = 2, [VT_U32] = 4, [VT_U64] = 8, [VT_BOOL] = 1,
	[VT_ADDR] = 4, [VT_MAC] = MAC_LEN, [VT_ENUM] = 1,
};

#define ENUM(n, t)	{ .name = n, .type = VT_ENUM, .names = t,	\
			  .nnames = ARRAY_SIZE(t) }

/* ---- dsr ----------------------------------------------------------------- */

/* The parameters are filled in from conf.c's names (dsr_attrs_init). */
static struct attr_desc dsr_attrs[DSR_A_MAX + 1] = {
	[DSR_A_IFINDEX] = { "ifindex", VT_U32, NULL, 0 },
	[DSR_A_IFNAME] = { "ifname", VT_STR, NULL, 0 },
	[DSR_A_DST] = { "dst", VT_ADDR, NULL, 0 },
	[DSR_A_HOPS] = { "hops", VT_HOPS, NULL, 0 },
	[DSR_A_HOPCOUNT] = { "hopcount", VT_U32, NULL, 0 },
	[DSR_A_AGE_MS] = { "age_ms", VT_U32, NULL, 0 },
	[DSR_A_EXPIRES_MS] = { "expires_ms", VT_U32, NULL, 0 },
	[DSR_A_STATIC] = { "static", VT_FLAG, NULL, 0 },
	[DSR_A_EXTERNAL] = { "external", VT_FLAG, NULL, 0 },
	[DSR_A_ADDR] = { "addr", VT_ADDR, NULL, 0 },
	[DSR_A_NEXTHOP] = { "nexthop", VT_ADDR, NULL, 0 },
	[DSR_A_MAC] = { "mac", VT_MAC, NULL, 0 },
	[DSR_A_SLAVE] = { "slave", VT_U32, NULL, 0 },
	[DSR_A_RTO_MS] = { "rto_ms", VT_U32, NULL, 0 },
	[DSR_A_TX] = { "tx", VT_U64, NULL, 0 },
	[DSR_A_RETX] = { "retx", VT_U64, NULL, 0 },
	[DSR_A_ACKED] = { "acked", VT_U64, NULL, 0 },
	[DSR_A_BUFFER] = ENUM("buffer", dsr_buffer_names),
	[DSR_A_LEN] = { "len", VT_U32, NULL, 0 },
	[DSR_A_TRIES] = { "tries", VT_U32, NULL, 0 },
	[DSR_A_IDS] = { "ids", VT_U32, NULL, 0 },
	[DSR_A_FLUSH] = { "flush", VT_U32, NULL, 0 },
	[DSR_A_EVENT] = ENUM("event", dsr_event_names),
	[DSR_A_SRTT_US] = { "srtt_us", VT_U32, NULL, 0 },
	[DSR_A_RTTVAR_US] = { "rttvar_us", VT_U32, NULL, 0 },
	[DSR_A_RTT_SAMPLES] = { "rtt_samples", VT_U32, NULL, 0 },
	[DSR_A_BLACKLIST] = ENUM("blacklist", dsr_blacklist_names),
};

/* ---- macfilter ----------------------------------------------------------- */

static const struct attr_desc mf_attrs[MACFILTER_A_MAX + 1] = {
	[MACFILTER_A_IFINDEX] = { "ifindex", VT_U32, NULL, 0 },
	[MACFILTER_A_IFNAME] = { "ifname", VT_STR, NULL, 0 },
	[MACFILTER_A_MODE] = ENUM("mode", mf_mode_names),
	[MACFILTER_A_MAX_ENTRIES] = { "max_entries", VT_U32, NULL, 0 },
	[MACFILTER_A_COUNT] = { "count", VT_U32, NULL, 0 },
	[MACFILTER_A_MAC] = { "mac", VT_MAC, NULL, 0 },
	[MACFILTER_A_LOSS] = { "loss", VT_U8, NULL, 0 },
	[MACFILTER_A_DROPPED] = { "dropped", VT_U64, NULL, 0 },
	[MACFILTER_A_SEEN] = { "seen", VT_U64, NULL, 0 },
	[MACFILTER_A_PASSED] = { "passed", VT_U64, NULL, 0 },
};

/* ---- transit ------------------------------------------------------------- */

#define TR(id, n, t)	[TRANSIT_A_##id] = { n, t, NULL, 0 }

static const struct attr_desc tr_attrs[TRANSIT_A_MAX + 1] = {
	TR(IFINDEX, "ifindex", VT_U32),
	TR(IFNAME, "ifname", VT_STR),
	TR(ENABLE, "enable", VT_BOOL),
	TR(FLUSH, "flush", VT_U32),
	TR(P_N_MISSES, "n_misses", VT_U32),
	TR(P_MARK_TIMEOUT_MS, "mark_timeout_ms", VT_U32),
	TR(P_PROBE_INTERVAL_MS, "probe_interval_ms", VT_U32),
	TR(P_PEEK_LEN, "peek_len", VT_U32),
	TR(P_TABLE_SIZE, "table_size", VT_U32),
	TR(P_KEY_PORTS, "key_ports", VT_U32),
	TR(P_IDLE_TIMEOUT_MS, "idle_timeout_ms", VT_U32),
	TR(FLOWS, "flows", VT_U32),
	TR(PIO_BYTES_SAVED, "pio_bytes_saved", VT_U64),
	TR(EARLY_DROPS, "early_drops", VT_U64),
	TR(FALSE_POSITIVES, "false_positives", VT_U64),
	TR(FALSE_NEGATIVES, "false_negatives", VT_U64),
	TR(PASSES, "passes", VT_U64),
	TR(EVICTIONS, "evictions", VT_U64),
	TR(MARKS, "marks", VT_U64),
	TR(MISSES, "misses", VT_U64),
	TR(PROBES, "probes", VT_U64),
	TR(SADDR, "saddr", VT_ADDR),
	TR(DADDR, "daddr", VT_ADDR),
	TR(PROTO, "proto", VT_U8),
	TR(SPORT, "sport", VT_U16),
	TR(DPORT, "dport", VT_U16),
	[TRANSIT_A_STATE] = ENUM("state", tr_state_names),
	TR(PKTS, "pkts", VT_U64),
	TR(BYTES, "bytes", VT_U64),
	TR(DROPPED, "dropped", VT_U64),
	TR(IDLE_MS, "idle_ms", VT_U32),
};

/* ---- families ------------------------------------------------------------ */

static const char *const dsr_groups[] = {
	DSR_MCGRP_CONFIG, DSR_MCGRP_EVENTS, NULL,
};

static const char *const mf_groups[] = { MACFILTER_MCGRP_CONFIG, NULL };
static const char *const tr_groups[] = { TRANSIT_MCGRP_CONFIG, NULL };

const struct family families[__FAM_MAX] = {
	[FAM_DSR] = {
		.desc = { DSR_GENL_NAME, DSR_GENL_VERSION, "dsr" },
		.maxattr = DSR_A_MAX,
		.attrs = dsr_attrs,
		.cmds = dsr_cmd_names,
		.ncmds = ARRAY_SIZE(dsr_cmd_names),
		.groups = dsr_groups,
		.event_attr = DSR_A_EVENT,
		.events = dsr_event_names,
		.nevents = ARRAY_SIZE(dsr_event_names),
	},
	[FAM_MACFILTER] = {
		.desc = { MACFILTER_GENL_NAME, MACFILTER_GENL_VERSION,
			  "macfilter" },
		.maxattr = MACFILTER_A_MAX,
		.attrs = mf_attrs,
		.cmds = mf_cmd_names,
		.ncmds = ARRAY_SIZE(mf_cmd_names),
		.groups = mf_groups,
	},
	[FAM_TRANSIT] = {
		.desc = { TRANSIT_GENL_NAME, TRANSIT_GENL_VERSION,
			  "orinoco_transit" },
		.maxattr = TRANSIT_A_MAX,
		.attrs = tr_attrs,
		.cmds = tr_cmd_names,
		.ncmds = ARRAY_SIZE(tr_cmd_names),
		.groups = tr_groups,
	},
};

static void __attribute__((constructor)) dsr_attrs_init(void)
{
	int id;

	for (id = DSR_A_P_FIRST; id <= DSR_A_P_LAST; id++) {
		dsr_attrs[id].name = conf_dsr_param_name(id);
		dsr_attrs[id].type = id == DSR_A_P_SUBNET ? VT_ADDR : VT_U32;
	}
}

/* ---- JSON ---------------------------------------------------------------- */

static uint32_t get_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void json_addr(struct json *j, uint32_t be)
{
	char buf[INET_ADDRSTRLEN];
	struct in_addr in = { .s_addr = be };

	json_str(j, inet_ntop(AF_INET, &in, buf, sizeof(buf)) ? buf : "?");
}

static void json_hops(struct json *j, const struct nlattr *a)
{
	const char *p = nla_data(a);
	size_t i, n = (size_t)nla_len(a) / 4;

	json_arr_open(j);
	for (i = 0; i < n; i++)
		json_addr(j, get_u32(p + 4 * i));
	json_arr_close(j);
}

static void json_value(struct json *j, const struct attr_desc *d,
		       const struct nlattr *a)
{
	char buf[IFNAMSIZ > MAC_STR_LEN ? IFNAMSIZ : MAC_STR_LEN];
	uint64_t u64;

	switch (d->type) {
	case VT_U8:
		json_u64(j, nla_get_u8(a));
		break;
	case VT_U16:
		json_u64(j, nla_get_u16(a));
		break;
	case VT_U32:
		json_u64(j, get_u32(nla_data(a)));
		break;
	case VT_U64:
		memcpy(&u64, nla_data(a), sizeof(u64));
		json_u64(j, u64);
		break;
	case VT_BOOL:
		json_bool(j, nla_get_u8(a));
		break;
	case VT_FLAG:
		json_bool(j, true);
		break;
	case VT_ADDR:
		json_addr(j, get_u32(nla_data(a)));
		break;
	case VT_HOPS:
		json_hops(j, a);
		break;
	case VT_MAC:
		json_str(j, mac_format(nla_data(a), buf));
		break;
	case VT_STR:
		nla_strlcpy(buf, a, sizeof(buf));
		json_str(j, buf);
		break;
	case VT_ENUM:
		json_str(j, name_lookup(d->names, d->nnames, nla_get_u8(a)));
		break;
	default:
		json_u64(j, 0);
		break;
	}
}

void attrs_json(struct json *j, const struct family *f, struct nlattr **tb,
		int skip1, int skip2)
{
	const struct attr_desc *d;
	int id;

	for (id = 1; id <= f->maxattr; id++) {
		d = &f->attrs[id];
		if (!tb[id] || !d->name || d->type == VT_NONE ||
		    id == skip1 || id == skip2)
			continue;
		if (nla_len(tb[id]) < vtype_len[d->type])
			continue;
		json_key(j, d->name);
		json_value(j, d, tb[id]);
	}
}
