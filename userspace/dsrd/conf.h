/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dsrd's config file (docs/dsrd.conf.5): an INI file with '#' comments.
 *
 *	[dsr]		Device, Interface..., Address, Gateway
 *	[dsr.params]	any parameter "ahctl dsr param set" knows
 *	[macfilter]	Interface, Mode, MaxEntries, Entry..., EntryFile
 *	[transit]	Interface, Enable, any transit parameter
 *	[slice]		Interface, Slice, Lease, Mode, Keep
 *	[mcast]		Source, Group, Layers, Tag, Offset, Id, Tids,
 *			GroupLayers, Chain
 *	[mcast.map]	Group, Source...
 *	[log]		Stats*, Events*
 *
 * [macfilter], [transit] and [slice] may be repeated, one per interface,
 * [mcast] one per (source, group), [mcast.map] one per group.  The
 * parser needs no netlink: everything is checked that can be checked
 * without the kernel, and the first error is reported as "FILE:LINE:
 * message".  Parameter ranges are the kernel's to check.
 */
#ifndef DSRD_CONF_H
#define DSRD_CONF_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ah_dsr.h>
#include <linux/ah_slice.h>
#include <linux/ah_transit.h>

#include "dsr_mcast.h"
#include "maclist.h"

#define CONF_MAX_SLAVES		32
#define CONF_MAX_SECTIONS	32	/* [macfilter], [transit], [slice] each */
#define CONF_MAX_MCAST		DSR_MC_MAX_GROUPS	/* [mcast]: a dsr0's */
#define CONF_MAX_MCMAP		DSR_MC_MAP_GROUPS	/* [mcast.map] */
#define CONF_PATH_MAX		1024
#define CONF_FILE_MAX		(1 << 20)	/* bytes in a file */
#define CONF_LINE_MAX		4096

/* u32 parameters, indexed by attribute id - first id */
#define CONF_PARAMS_MAX		40
#define CONF_DSR_NPARAMS	(DSR_A_P_LAST - DSR_A_P_FIRST + 1)
#define CONF_TR_NPARAMS	(TRANSIT_A_P_LAST - TRANSIT_A_P_FIRST + 1)

/* Defaults of [log] */
#define CONF_STATS_FILE		"/var/log/dsrd/stats.jsonl"
#define CONF_MAX_BYTES		(1024 * 1024)
#define CONF_MAX_BYTES_MIN	16384
#define CONF_KEEP		3
#define CONF_KEEP_MAX		99
#define CONF_INTERVAL_MAX	86400

struct conf_params {
	uint32_t val[CONF_PARAMS_MAX];
	unsigned int line[CONF_PARAMS_MAX];	/* where set; 0: not */
};

static inline bool conf_param_has(const struct conf_params *p, int i)
{
	return p->line[i] != 0;
}

enum conf_gateway {
	CONF_GW_UNSET,		/* no Gateway key: the kernel's default */
	CONF_GW_NO,
	CONF_GW_YES,		/* the subnet of Address */
	CONF_GW_SUBNET,		/* the subnet given */
};

struct conf_dsr {
	unsigned int line;		/* of [dsr]; 0: no such section */
	char device[IFNAMSIZ];
	char slaves[CONF_MAX_SLAVES][IFNAMSIZ];
	size_t nslaves;
	uint32_t addr;			/* network byte order */
	unsigned int prefix;
	enum conf_gateway gateway;
	unsigned int gateway_line;
	uint32_t gw_subnet;		/* network byte order */
	unsigned int gw_prefix;
	struct conf_params params;	/* [dsr.params], by DSR_A_P_* */
};

struct conf_macfilter {
	unsigned int line;		/* of the section */
	char ifname[IFNAMSIZ];
	uint8_t mode;			/* enum macfilter_mode */
	uint32_t max_entries;		/* 0: not given (kernel default) */
	struct maclist_entry *entries;	/* sorted by MAC */
	size_t nentries;
	size_t alloc;
};

struct conf_transit {
	unsigned int line;
	char ifname[IFNAMSIZ];
	bool enable;
	struct conf_params params;	/* by TRANSIT_A_P_* */
};

/* A lease of interface @ifname to the slice whose netns is @slice */
struct conf_slice {
	unsigned int line;
	char ifname[IFNAMSIZ];
	char slice[SLICE_NAME_MAX];	/* /run/netns/NAME; also the label */
	uint32_t lease;			/* seconds; 0: until revoked */
	uint8_t mode;			/* enum slice_mode */
	uint16_t keep[SLICE_KEEP_MAX];	/* map: the node's ports */
	uint8_t nkeep;
};

/*
 * A join of the DSR device's local receivers to (Source, Group), as
 * "ahctl dsr mcast join" takes it: the fields given, with the tag's
 * defaults (dsr_mc_tag_defaults()); checked as it checks them.  Its
 * Chain, if given, as "ahctl dsr mcast chain" takes its elements (chain.n
 * 0: "default"), sent after the join.
 */
struct conf_mcast {
	unsigned int line;
	struct dsr_mc_req req;
	bool has_chain;
	struct dsr_mc_chain chain;
};

/*
 * The sources an any-source join of @group by a local socket joins the
 * trees of, as "ahctl dsr mcast map" maps them one by one: the group and
 * its sources checked as it checks them, each source once.
 */
struct conf_mcmap {
	unsigned int line;
	uint32_t group;				/* network byte order */
	uint32_t source[DSR_MC_MAP_SOURCES];	/* network byte order */
	unsigned int source_line[DSR_MC_MAP_SOURCES];
	size_t nsource;
};

struct conf_log {
	unsigned int stats_interval;	/* seconds; 0: no stats */
	char stats_file[CONF_PATH_MAX];
	uint64_t stats_max_bytes;
	unsigned int stats_keep;
	char events_file[CONF_PATH_MAX];	/* "": standard error */
	uint64_t events_max_bytes;
	unsigned int events_keep;
};

struct conf {
	struct conf_dsr dsr;
	struct conf_macfilter mf[CONF_MAX_SECTIONS];
	size_t nmf;
	struct conf_transit tr[CONF_MAX_SECTIONS];
	size_t ntr;
	struct conf_slice sl[CONF_MAX_SECTIONS];
	size_t nsl;
	struct conf_mcast mc[CONF_MAX_MCAST];
	size_t nmc;
	struct conf_mcmap mm[CONF_MAX_MCMAP];
	size_t nmm;
	struct conf_log log;
};

/* Defaults; conf_free() releases what parsing allocated. */
void conf_init(struct conf *c);
void conf_free(struct conf *c);

/*
 * Parse a whole config file into @c (conf_init()ed; filled in place).
 * Files named by EntryFile are read relative to @basedir ("." if NULL).
 * 0, or -1 with "NAME:LINE: message" (or "NAME: message") in @err; @c
 * must then only be conf_free()d.
 */
int conf_parse_buf(struct conf *c, const char *name, const char *buf,
		   size_t len, const char *basedir, char *err, size_t errlen);
int conf_load(struct conf *c, const char *path, char *err, size_t errlen);

/*
 * The DSR parameters the config asks for, by DSR_A_P_* - DSR_A_P_FIRST:
 * [dsr.params] plus what Gateway implies (gateway, subnet, subnet_prefix).
 */
void conf_dsr_wanted(const struct conf *c, struct conf_params *out);

#endif /* DSRD_CONF_H */
