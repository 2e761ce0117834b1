/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dsrd's state: the sockets, and what it has set up in the kernel (so
 * that a reload changes only what differs and a stop undoes exactly it).
 *
 * Everything below "applied" is updated after each kernel request that
 * succeeded and only then, so it is what the kernel has even after a
 * partial failure.  Starting is a reload from nothing; a failure then
 * undoes everything (apply_teardown()).
 */
#ifndef DSRD_DAEMON_H
#define DSRD_DAEMON_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "attrs.h"
#include "conf.h"
#include "dsr_mcast.h"
#include "genl.h"
#include "maclist.h"
#include "notify.h"
#include "slice_map.h"
#include "slice_phy.h"
#include "statlog.h"

/* The families dsrd talks to */
enum fam_id {
	FAM_DSR,
	FAM_MACFILTER,
	FAM_TRANSIT,
	FAM_SLICE,
	__FAM_MAX,
};

extern const struct family *const families[__FAM_MAX];

struct fam {
	const struct family *f;
	bool present;		/* the module is loaded: req is open */
	struct genl req;	/* requests and replies */
	struct genl ev;		/* notifications; ev.sk NULL: none */
};

struct slave {
	char ifname[IFNAMSIZ];
	int ifindex;
	bool upped;		/* was down: dsrd set it up */
};

struct mf_applied {
	char ifname[IFNAMSIZ];
	uint8_t mode;
	uint32_t max_entries;	/* what the kernel has */
	struct maclist_entry *entries;	/* sorted, as in the config */
	size_t nentries;
};

struct tr_applied {
	char ifname[IFNAMSIZ];
	bool enable;
	uint32_t params[CONF_TR_NPARAMS];	/* every value */
};

/*
 * A lease dsrd granted, or found granted as its config says (the same
 * interface to a slice of the same label): dsrd's to revoke when the
 * config drops it.  A grant of an interface the config does not lease,
 * or to another slice, is someone else's and never touched.
 */
struct sl_applied {
	char ifname[IFNAMSIZ];
	char slice[SLICE_NAME_MAX];
	uint32_t lease;		/* as the config said; 0: none */
	uint8_t mode;		/* what the kernel has */
	uint16_t keep[SLICE_KEEP_MAX];
	uint8_t nkeep;
	/* map: the slice's side, as configured (re-addressed on a GRANT) */
	bool mapped;
	struct slice_map map;
	/* move, wireless: its phy, which dsrd moves (common/slice_phy.c) */
	char phy[SLICE_PHY_NAME_MAX];
};

struct dsrd {
	/* command line */
	const char *conf_path;
	const char *netns;

	struct conf *conf;	/* the config in force */
	struct notify notify;
	struct fam fam[__FAM_MAX];
	struct genl rt;		/* rtnetlink */
	int sock_fd;		/* AF_INET datagram socket for ioctls */

	/* applied */
	char device[IFNAMSIZ];
	int dev_ifindex;	/* 0: not created (yet) */
	uint32_t dsr_defaults[CONF_DSR_NPARAMS];	/* the kernel's */
	uint32_t dsr_cur[CONF_DSR_NPARAMS];	/* as dsrd last set them */
	bool has_addr;
	uint32_t addr;
	unsigned int prefix;
	struct slave slaves[CONF_MAX_SLAVES];
	size_t nslaves;
	struct mf_applied mf[CONF_MAX_SECTIONS];
	size_t nmf;
	struct tr_applied tr[CONF_MAX_SECTIONS];
	size_t ntr;
	struct sl_applied sl[2 * CONF_MAX_SECTIONS];	/* see apply_slice.c */
	size_t nsl;
	/* the joins of [mcast] the kernel took, as the config said them */
	struct dsr_mc_req mc[CONF_MAX_MCAST];
	size_t nmc;
	/*
	 * the chain dsrd last had the kernel take for each of mc[], at the
	 * same index: a section's Chain (set; ch.n 0: "default"), or none
	 * (dsrd sent none, or the "default" of a Chain taken out); moved
	 * with mc[] (apply_mcast.c); an entry at nmc or above means nothing
	 */
	struct mc_chain_applied {
		bool set;
		struct dsr_mc_chain ch;
	} mc_chain[CONF_MAX_MCAST];
	/* the (group, source) pairs of [mcast.map] the kernel's map took */
	struct mm_applied {
		uint32_t group, source;		/* network byte order */
	} mm[CONF_MAX_MCMAP * DSR_MC_MAP_SOURCES];
	size_t nmm;

	/* logs */
	struct statlog stats;	/* stats.fd < 0: none */
	struct statlog events;	/* events.fd < 0: standard error */
	bool stats_warned;	/* one message per failure streak */
	bool events_warned;
};

/* apply.c */

/*
 * Open the families @c needs (and the others, if loaded), the rtnetlink
 * and ioctl sockets.  DSRD_EXIT_OK, DSRD_EXIT_NOMOD (printed with the
 * module's name) or DSRD_EXIT_ERR.
 */
int apply_open(struct dsrd *d, const struct conf *c);
void apply_close(struct dsrd *d);

/*
 * Start: check every interface @c names exists and the device does not,
 * create it, apply @c, set it up.  0, or -1 with everything undone.
 */
int apply_start(struct dsrd *d, const struct conf *c);

/*
 * Reload: check @c can be applied (same device, interfaces exist, modules
 * loaded); if not -1 and nothing changed.  Else apply what differs and
 * return the number of changes that failed (each logged; the rest done).
 */
int apply_reload(struct dsrd *d, const struct conf *c);

/* Undo everything dsrd set up; 0 or -1 if some of it failed (logged). */
int apply_teardown(struct dsrd *d);

/* events.c */

/* Subscribe to @fam's groups; 0 or -1 (logged). */
int events_subscribe(struct dsrd *d, struct fam *fam);
void events_close(struct dsrd *d);

/* Read and log the notifications waiting on @fam's socket. */
void events_read(struct dsrd *d, struct fam *fam);

/* Open, or reopen after a reload, the stats and events files of @c. */
int logs_open(struct dsrd *d, const struct conf *c);
void logs_close(struct dsrd *d);

/* One stats line: every counter of the modules. */
void stats_write(struct dsrd *d);

/* "2024-05-01T12:00:00.123Z" */
void time_now_str(char *buf, size_t size);

#endif /* DSRD_DAEMON_H */
