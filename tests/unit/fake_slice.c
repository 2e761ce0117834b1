// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the slice module, preloaded into ahctl
 * (LD_PRELOAD=./fake_slice.so) by test_ahctl_slice.sh, so that the
 * requests ahctl builds and the replies it prints can be checked on a
 * host that cannot load the module:
 *
 * - genl_ctrl_resolve() finds family "slice" (FAKE_SLICE=absent: it is
 *   not there, as without the module), and "nl80211" (below);
 * - nl_send_auto() writes the request as one line to $FAKE_SLICE_LOG
 *   ("grant flags=0 ifname=eth1 netns_fd=net name=red lease=60"; a file
 *   descriptor of a network namespace is "net", a KEEP nest
 *   "keep=22,51820") and answers it from userspace, over a netlink
 *   socket of its own, to ahctl's port: GET with three canned grants
 *   (the third in map mode; as a module before SLICE_A_STATE sends them:
 *   no STATE, PHY or SLICE_NETNS_INO), everything else with an ACK, or
 *   with the error $FAKE_SLICE_ERROR ("ERRNO:extack message");
 * - a grant it ACKed is remembered by the process, as the module sends
 *   it (STATE active, SLICE_NETNS_INO): a GET of its interface then
 *   answers with it (before the canned ones), a REVOKE (with or without
 *   FORCE, logged as "force") forgets it.  A map
 *   grant maps $FAKE_SLICE_ADDR (default 192.0.2.7) to the slice's
 *   interface of the same name and index 99997; the canned map grant's
 *   is 99998.  The tests make interfaces of those indexes in a network
 *   namespace of their own; no host has them, so what is configured on
 *   them never reaches a host's interfaces;
 * - two wireless interfaces, wlp1s0 (index 11 in the node, 21 in a
 *   slice; wiphy 4, "phy4") and wlp2s0 (12, 22; wiphy 5, "phy5"), whose
 *   grants in move mode go as the module's do: PHY_WAIT until nl80211
 *   moves the phy into the slice (ACTIVE), RETURNING after a REVOKE (a
 *   second one changes nothing, one with FORCE ends it where it is)
 *   until the phy is back in the node, gone after the next GET then (the
 *   module's work frees it a moment later); a GRANT of one granted is
 *   refused (EBUSY), of one whose interface was deleted too (ENODEV).
 *   They are in GET dumps after the canned grants, with PHY and
 *   PHY_NETNS_INO, the namespace the phy is in (not with
 *   $FAKE_SLICE_PHY_INO=absent, as a module before it).
 *   $FAKE_SLICE_RADIOS ("wlp1s0=active,wlp2s0=returning:blue") has them
 *   granted already (and again when it changes, as dsrd_slice_run's
 *   NAME=VALUE does), to slice red (or the label after ':'): phy-wait,
 *   active, dev-gone (active until the events below: then the slice
 *   deletes the interface, the grant is held without it), returning,
 *   moved (returning, the phy in yet another namespace, as when the
 *   slice moved it on: $FAKE_PHY_NETNS_PATH's, or the inode 2), deleted
 *   (returning, the slice deleted the interface: no SLICE_IFINDEX and
 *   SLICE_IFNAME, nl80211 knows the phy only), vanished (the same, but
 *   deleted after the GET: the grant still names it), nophy (returning,
 *   but without PHY, which no module sends), home (returning, the phy
 *   back in the node already: gone after two GETs), or orphan
 *   (returning, the slice's namespace gone: no SLICE_NETNS_INO; gone
 *   after two GETs, as cfg80211 moves the phy); their slice's namespace
 *   is $FAKE_NETNS_PATH's (below), or the inode $FAKE_SLICE_INO;
 * - the stand-in for nl80211 (family "nl80211"; FAKE_NL80211=absent: not
 *   there) knows those two, each in the namespace its phy is in: it
 *   logs to $FAKE_SLICE_LOG too ("set_wiphy_netns flags=0 v0 wiphy=4
 *   netns_fd=slice sk=node": a namespace is "node", ours when the
 *   process started, "slice", $FAKE_NETNS_PATH's, "other",
 *   $FAKE_PHY_NETNS_PATH's, or "ns:INODE"; sk= is the requesting
 *   socket's), answers NL80211_CMD_GET_INTERFACE of an index of the
 *   requester's namespace, a NL80211_CMD_GET_WIPHY dump with the wiphys
 *   there (first phy7, wiphy 7, a radio of that namespace's own; split
 *   in two messages each, both with WIPHY and WIPHY_NAME, when asked with
 *   NL80211_ATTR_SPLIT_WIPHY_DUMP), and NL80211_CMD_SET_WIPHY_NETNS of a
 *   wiphy there (else ENODEV), or that with the error
 *   $FAKE_NL80211_ERROR ("ERRNO:extack message");
 * - joining a multicast group sends a GRANT, a REVOKE (expired) and the
 *   GRANT of the map grant with a new address; then, for each wireless
 *   grant, its end: a REVOKE, RETURNING (expired; dev-gone, without its
 *   interface, of a dev-gone one) of an active one, and of one waiting
 *   for its phy (no-phy), gone;
 * - open("/run/netns/$FAKE_NETNS") opens $FAKE_NETNS_PATH (a namespace
 *   of the test's: a process's /proc/PID/ns/net), or our own namespace.
 *
 * Nothing reaches the kernel's generic netlink families; rtnetlink
 * requests do.  What it shares with fake_dsr.c is in fake_genl.c.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/nsfs.h>

#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <linux/ah_slice.h>

#include "fake_genl.h"

#define FAKE_GROUP	7

static const char *const cmd_names[] = {
	[SLICE_CMD_GRANT] = "grant", [SLICE_CMD_REVOKE] = "revoke",
	[SLICE_CMD_GET] = "get",
};

/*
 * how a request's attributes are logged (s: string, b: u8, w: u32,
 * f: netns fd, k: nest of u16 PORT)
 */
static const struct fake_attr attrs[SLICE_A_MAX + 1] = {
	[SLICE_A_IFINDEX] = { "ifindex", 'w' },
	[SLICE_A_IFNAME] = { "ifname", 's' },
	[SLICE_A_NETNS_FD] = { "netns_fd", 'f' },
	[SLICE_A_NETNS_PID] = { "netns_pid", 'w' },
	[SLICE_A_NAME] = { "name", 's' },
	[SLICE_A_MODE] = { "mode", 'b' },
	[SLICE_A_LEASE] = { "lease", 'w' },
	[SLICE_A_KEEP] = { "keep", 'k' },
	[SLICE_A_FORCE] = { "force", 'F' },
};

struct grant {
	uint32_t ifindex;
	const char *ifname, *name;
	uint8_t mode;
	uint64_t age, rx_packets, rx_bytes, tx_packets, tx_bytes, spoofed;
	uint32_t lease_left;	/* 0: no lease */
	uint32_t slice_ifindex;
	const char *addr;	/* map: ADDR, dotted */
	uint16_t keep[SLICE_KEEP_MAX + 1];
	int nkeep;
	/*
	 * as this module: STATE, PHY if any (with PHY_NETNS_INO),
	 * SLICE_NETNS_INO if not 0
	 */
	bool stateful;
	uint8_t state;
	const char *phy;
	uint32_t netns_ino, phy_netns_ino;
	bool no_iface;		/* no SLICE_IFINDEX nor SLICE_IFNAME */
};

/*
 * the grants GET answers with: the second one has no label, no lease;
 * the third is a map grant
 */
static const struct grant grants[] = {
	{ .ifindex = 5, .ifname = "wlan1", .name = "", .age = 42,
	  .tx_packets = 1, .tx_bytes = 90, .slice_ifindex = 2 },
	{ .ifindex = 3, .ifname = "wlan0", .name = "red", .age = 5012,
	  .rx_packets = 10, .rx_bytes = 1200, .tx_packets = 8, .tx_bytes = 900,
	  .spoofed = 1, .lease_left = 3594988, .slice_ifindex = 2 },
	{ .ifindex = 7, .ifname = "wlan2", .name = "blue",
	  .mode = SLICE_MODE_MAP, .age = 700, .rx_packets = 4,
	  .rx_bytes = 336, .tx_packets = 3, .tx_bytes = 252, .spoofed = 2,
	  .slice_ifindex = 99998, .addr = "10.1.0.5", .keep = { 22, 51820 },
	  .nkeep = 2 },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* the grants this process made (but of the wireless interfaces) */
static struct made {
	bool used;
	struct grant g;
	char ifname[IFNAMSIZ], name[SLICE_NAME_MAX], addr[INET_ADDRSTRLEN];
} made[8];

/* where a radio's interface is */
enum radio_if {
	IFACE_THERE,
	IFACE_DELETED,		/* deleted: the grant says so */
	IFACE_VANISHED,		/* deleted: the grant still names it */
};

/* the wireless interfaces, and their grants */
static struct radio {
	const char *ifname;
	uint32_t ifindex, slice_ifindex, wiphy;
	const char *phy;
	ino_t at;		/* the namespace its phy is in */
	bool out;		/* not in the node: its index is slice_ifindex */
	enum radio_if iface;
	bool no_phy;		/* its grant is sent without PHY */
	bool deletes;		/* the slice deletes its interface (events) */
	bool granted;
	uint8_t state;
	ino_t slice;		/* the grant's slice; 0: its namespace went */
	char name[SLICE_NAME_MAX];
	uint32_t lease;
	int gets;		/* > 0: the grant goes after that many GETs */
} radios[] = {
	{ .ifname = "wlp1s0", .ifindex = 11, .slice_ifindex = 21,
	  .wiphy = 4, .phy = "phy4" },
	{ .ifname = "wlp2s0", .ifindex = 12, .slice_ifindex = 22,
	  .wiphy = 5, .phy = "phy5" },
};

static ino_t node_ns;	/* ours, when the process started */

__attribute__((constructor)) static void fake_init(void)
{
	node_ns = fake_path_ns("/proc/self/ns/net");
}

/* the slice's namespace of the tests: $FAKE_NETNS_PATH's, else ours */
static ino_t slice_ns(void)
{
	ino_t ino = fake_path_ns(getenv("FAKE_NETNS_PATH"));

	return ino ? ino : node_ns;
}

/* where the slice moves a phy on: $FAKE_PHY_NETNS_PATH's, else 2 */
static ino_t other_ns(void)
{
	ino_t ino = fake_path_ns(getenv("FAKE_PHY_NETNS_PATH"));

	return ino ? ino : 2;
}

int genl_ctrl_resolve_grp(struct nl_sock *sk, const char *family,
			  const char *grp)
{
	(void)sk;
	if (strcmp(family, SLICE_GENL_NAME) || strcmp(grp, SLICE_MCGRP_CONFIG))
		return -NLE_OBJ_NOTFOUND;
	return FAKE_GROUP;
}

/* ---- the log of requests ----------------------------------------------- */

/* "22,51820", each PORT; anything else in the nest, or no NLA_F_NESTED, said */
static void log_keep(FILE *f, const struct nlattr *a)
{
	const struct nlattr *p;
	int rem, n = 0;

	nla_for_each_nested(p, a, rem) {
		if (nla_type(p) == SLICE_A_PORT && nla_len(p) == 2)
			fprintf(f, "%s%u", n ? "," : "",
				nla_get_u16((struct nlattr *)p));
		else
			fprintf(f, "%sattr%d", n ? "," : "", nla_type(p));
		n++;
	}
	if (!(a->nla_type & NLA_F_NESTED))
		fputs("(no NLA_F_NESTED)", f);
}

static void log_value(FILE *f, char type, const struct nlattr *a)
{
	switch (type) {
	case 'b':
		fprintf(f, "%u", nla_len(a) == 1 ? nla_get_u8(a) : 999);
		break;
	case 'w':
		fprintf(f, "%u", nla_len(a) == 4 ? nla_get_u32(a) : 999);
		break;
	case 'f':
		/* "net" for a file of a network namespace */
		fputs(ioctl((int)nla_get_u32(a), NS_GET_NSTYPE) == CLONE_NEWNET ?
		      "net" : "other", f);
		break;
	case 'k':
		log_keep(f, a);
		break;
	}
}

/* ---- the stand-in for nl80211 ------------------------------------------ */

static const char *const nl_cmd_names[NL80211_CMD_SET_WIPHY_NETNS + 1] = {
	[NL80211_CMD_GET_WIPHY] = "get_wiphy",
	[NL80211_CMD_GET_INTERFACE] = "get_interface",
	[NL80211_CMD_SET_WIPHY_NETNS] = "set_wiphy_netns",
};

/* w: u32, n: a network namespace's file descriptor, F: a flag */
static const struct fake_attr nl_attrs[NL80211_ATTR_NETNS_FD + 1] = {
	[NL80211_ATTR_WIPHY] = { "wiphy", 'w' },
	[NL80211_ATTR_WIPHY_NAME] = { "wiphy_name", 's' },
	[NL80211_ATTR_IFINDEX] = { "ifindex", 'w' },
	[NL80211_ATTR_NETNS_FD] = { "netns_fd", 'n' },
	[NL80211_ATTR_SPLIT_WIPHY_DUMP] = { "split_wiphy_dump", 'F' },
};

/* "node", "slice", "other" or "ns:INODE" */
static void log_ns(FILE *f, ino_t ino)
{
	if (ino && ino == node_ns)
		fputs("node", f);
	else if (ino && ino == slice_ns())
		fputs("slice", f);
	else if (ino && ino == other_ns())
		fputs("other", f);
	else
		fprintf(f, "ns:%lu", (unsigned long)ino);
}

static void nl_log_value(FILE *f, char type, const struct nlattr *a)
{
	if (type == 'n' && nla_len(a) == 4)
		log_ns(f, fake_fd_ns((int)nla_get_u32(a)));
	else
		log_value(f, type, a);
}

/* the namespace of the socket that sent the request */
static void nl_log_sk(FILE *f, struct nl_sock *sk)
{
	fputs(" sk=", f);
	log_ns(f, fake_sk_ns(sk));
}

static const struct fake_family nl80211 = {
	.who = "fake_slice", .name = NL80211_GENL_NAME, .id = 0x1f02,
	.absent_env = "FAKE_NL80211", .log_env = "FAKE_SLICE_LOG",
	.error_env = "FAKE_NL80211_ERROR", .cmd_names = nl_cmd_names,
	.ncmds = ARRAY_LEN(nl_cmd_names), .attrs = nl_attrs,
	.nattrs = ARRAY_LEN(nl_attrs), .log_value = nl_log_value,
	.log_extra = nl_log_sk,
};

FAKE_FAMILY("fake_slice", SLICE_GENL_NAME, 0x1f00, "FAKE_SLICE", cmd_names,
	    attrs, log_value, .also = &nl80211);

/* ---- the wireless interfaces ------------------------------------------- */

static struct radio *radio_of(const char *ifname)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(radios); i++)
		if (!strcmp(radios[i].ifname, ifname))
			return &radios[i];
	return NULL;
}

/* "IF=STATE[:LABEL]": granted already */
static void radio_preset(const char *spec, ino_t slice)
{
	char buf[64], *state, *label;
	struct radio *r;

	snprintf(buf, sizeof(buf), "%s", spec);
	state = strchr(buf, '=');
	if (!state)
		return;
	*state++ = '\0';
	label = strchr(state, ':');
	if (label)
		*label++ = '\0';
	r = radio_of(buf);
	if (!r)
		return;
	r->iface = IFACE_THERE;
	r->no_phy = false;
	r->deletes = false;
	r->gets = 0;
	r->lease = 0;
	r->granted = true;
	r->slice = slice;
	r->at = slice;
	r->out = true;
	snprintf(r->name, sizeof(r->name), "%s", label ? label : "red");
	if (!strcmp(state, "phy-wait")) {
		r->state = SLICE_STATE_PHY_WAIT;
		r->at = node_ns;
		r->out = false;
	} else if (!strcmp(state, "active") || !strcmp(state, "dev-gone")) {
		r->state = SLICE_STATE_ACTIVE;
		r->deletes = !strcmp(state, "dev-gone");
	} else {
		r->state = SLICE_STATE_RETURNING;
		if (!strcmp(state, "moved"))
			r->at = other_ns();
		if (!strcmp(state, "deleted"))
			r->iface = IFACE_DELETED;
		if (!strcmp(state, "vanished"))
			r->iface = IFACE_VANISHED;
		if (!strcmp(state, "nophy"))
			r->no_phy = true;
		if (!strcmp(state, "home")) {
			r->at = node_ns;
			r->out = false;
			r->gets = 2;
		}
		if (!strcmp(state, "orphan")) {
			r->slice = 0;
			r->at = 1;
			r->gets = 2;
		}
	}
}

/*
 * the first time: every phy in the node, or as $FAKE_SLICE_RADIOS says;
 * later, when $FAKE_SLICE_RADIOS changed (dsrd_slice_run NAME=VALUE), the
 * radios it names as it says now
 */
static void radios_init(void)
{
	const char *spec = getenv("FAKE_SLICE_RADIOS"), *ino;
	static char last[256];
	static bool done;
	char buf[256], *item, *save;
	ino_t slice = slice_ns();
	size_t i;

	if (!done)
		for (i = 0; i < ARRAY_LEN(radios); i++)
			radios[i].at = node_ns;
	else if (!strcmp(spec ? spec : "", last))
		return;
	done = true;
	snprintf(last, sizeof(last), "%s", spec ? spec : "");
	ino = getenv("FAKE_SLICE_INO");
	if (ino && *ino)
		slice = strtoul(ino, NULL, 10);
	if (!spec)
		return;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save))
		radio_preset(item, slice);
}

/* its index where it is now */
static uint32_t radio_ifindex(const struct radio *r)
{
	return r->out ? r->slice_ifindex : r->ifindex;
}

/* as the module says it */
static struct grant radio_grant(const struct radio *r)
{
	struct grant g = {
		.ifindex = r->ifindex, .ifname = r->ifname, .name = r->name,
		.lease_left = r->lease * 1000, .stateful = true,
		.state = r->state, .phy = r->no_phy ? NULL : r->phy,
		.netns_ino = (uint32_t)r->slice,
		.phy_netns_ino = (uint32_t)r->at,
		.slice_ifindex = radio_ifindex(r),
		.no_iface = r->iface == IFACE_DELETED,
	};

	return g;
}

/* its phy landed in namespace @to (nl80211 moved it) */
static void radio_moved(struct radio *r, ino_t to)
{
	r->at = to;
	r->out = to != node_ns;
	if (!r->granted)
		return;
	switch (r->state) {
	case SLICE_STATE_PHY_WAIT:
		/* in the slice: ACTIVE; anywhere else: ended (phy-moved) */
		if (to == r->slice)
			r->state = SLICE_STATE_ACTIVE;
		else
			r->granted = false;
		break;
	case SLICE_STATE_ACTIVE:
		/* moved by the slice: ended (phy-moved), held */
		r->state = SLICE_STATE_RETURNING;
		if (to == node_ns)
			r->gets = 1;
		break;
	default:
		/* back in the node (or its slice went): gone a moment later */
		if (to == node_ns || !r->slice)
			r->gets = 1;
		break;
	}
}

/* ---- replies ------------------------------------------------------------ */

/* $FAKE_SLICE_PHY_INO=absent: as a module before SLICE_A_PHY_NETNS_INO */
static bool phy_ino_absent(void)
{
	const char *s = getenv("FAKE_SLICE_PHY_INO");

	return s && !strcmp(s, "absent");
}

static void send_grant(struct nl_sock *sk, uint32_t seq, int flags,
		       uint8_t cmd, const struct grant *g, int reason)
{
	struct nl_msg *msg = nlmsg_alloc();

	struct in_addr in;
	struct nlattr *keep;
	int i;

	genlmsg_put(msg, 0, seq, fake_family.id, 0, flags, cmd,
		    SLICE_GENL_VERSION);
	nla_put_u32(msg, SLICE_A_IFINDEX, g->ifindex);
	nla_put_string(msg, SLICE_A_IFNAME, g->ifname);
	nla_put_string(msg, SLICE_A_NAME, g->name);
	nla_put_u8(msg, SLICE_A_MODE, g->mode);
	nla_put_u64(msg, SLICE_A_AGE, g->age);
	if (!g->no_iface) {
		nla_put_u32(msg, SLICE_A_SLICE_IFINDEX, g->slice_ifindex);
		nla_put_string(msg, SLICE_A_SLICE_IFNAME, g->ifname);
	}
	nla_put_u64(msg, SLICE_A_RX_PACKETS, g->rx_packets);
	nla_put_u64(msg, SLICE_A_RX_BYTES, g->rx_bytes);
	nla_put_u64(msg, SLICE_A_TX_PACKETS, g->tx_packets);
	nla_put_u64(msg, SLICE_A_TX_BYTES, g->tx_bytes);
	nla_put_u64(msg, SLICE_A_SPOOFED, g->spoofed);
	if (g->lease_left)
		nla_put_u32(msg, SLICE_A_LEASE_LEFT, g->lease_left);
	if (reason >= 0)
		nla_put_u8(msg, SLICE_A_REASON, (uint8_t)reason);
	/*
	 * as the module: STATE, PHY, SLICE_NETNS_INO, PHY_NETNS_INO, then
	 * ADDR and KEEP
	 */
	if (g->stateful) {
		nla_put_u8(msg, SLICE_A_STATE, g->state);
		if (g->phy)
			nla_put_string(msg, SLICE_A_PHY, g->phy);
		if (g->netns_ino)
			nla_put_u32(msg, SLICE_A_SLICE_NETNS_INO,
				    g->netns_ino);
		if (g->phy && !phy_ino_absent())
			nla_put_u32(msg, SLICE_A_PHY_NETNS_INO,
				    g->phy_netns_ino);
	}
	/* as the module: ADDR and KEEP (maybe empty) after the others */
	if (g->mode == SLICE_MODE_MAP) {
		inet_pton(AF_INET, g->addr, &in);
		nla_put(msg, SLICE_A_ADDR, sizeof(in.s_addr), &in.s_addr);
		keep = nla_nest_start(msg, SLICE_A_KEEP | NLA_F_NESTED);
		for (i = 0; i < g->nkeep; i++)
			nla_put_u16(msg, SLICE_A_PORT, g->keep[i]);
		nla_nest_end(msg, keep);
	}
	fake_send_msg(sk, msg);
}

static struct made *made_of(const char *ifname)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(made); i++)
		if (made[i].used && !strcmp(made[i].ifname, ifname))
			return &made[i];
	return NULL;
}

/* the slice's namespace of a GRANT: NETNS_FD's, or NETNS_PID's */
static ino_t grant_ns(struct nlattr **tb)
{
	char path[64];

	if (tb[SLICE_A_NETNS_FD])
		return fake_fd_ns((int)nla_get_u32(tb[SLICE_A_NETNS_FD]));
	if (!tb[SLICE_A_NETNS_PID])
		return 0;
	snprintf(path, sizeof(path), "/proc/%u/ns/net",
		 nla_get_u32(tb[SLICE_A_NETNS_PID]));
	return fake_path_ns(path);
}

/* An ACKed grant: what GET of its interface says from now on. */
static void remember(struct nlattr **tb, uint8_t mode)
{
	const char *addr = getenv("FAKE_SLICE_ADDR");
	struct made *m;
	struct nlattr *p;
	size_t i;
	int rem;

	m = made_of(nla_data(tb[SLICE_A_IFNAME]));
	for (i = 0; !m && i < ARRAY_LEN(made); i++)
		if (!made[i].used)
			m = &made[i];
	if (!m)
		m = &made[0];
	memset(m, 0, sizeof(*m));
	m->used = true;
	nla_strlcpy(m->ifname, tb[SLICE_A_IFNAME], sizeof(m->ifname));
	if (tb[SLICE_A_NAME])
		nla_strlcpy(m->name, tb[SLICE_A_NAME], sizeof(m->name));
	snprintf(m->addr, sizeof(m->addr), "%s", addr ? addr : "192.0.2.7");
	m->g.ifindex = 9;
	m->g.ifname = m->ifname;
	m->g.name = m->name;
	m->g.mode = mode;
	m->g.addr = m->addr;
	m->g.slice_ifindex = mode == SLICE_MODE_MAP ? 99997 : 2;
	m->g.stateful = true;
	m->g.state = SLICE_STATE_ACTIVE;
	m->g.netns_ino = (uint32_t)grant_ns(tb);
	if (tb[SLICE_A_LEASE])
		m->g.lease_left = nla_get_u32(tb[SLICE_A_LEASE]) * 1000;
	if (tb[SLICE_A_KEEP])
		nla_for_each_nested(p, tb[SLICE_A_KEEP], rem)
			if (m->g.nkeep < SLICE_KEEP_MAX + 1 &&
			    nla_len(p) == 2)
				m->g.keep[m->g.nkeep++] = nla_get_u16(p);
}

/* GRANT: a wireless interface in move mode waits for its phy */
static void answer_grant(struct nl_sock *sk, const struct nlmsghdr *req)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	uint8_t mode = SLICE_MODE_MOVE;
	struct radio *r;
	char text[96];

	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, SLICE_A_MAX, NULL) ||
	    !tb[SLICE_A_IFNAME]) {
		fake_send_error(sk, req, 0, NULL);
		return;
	}
	if (tb[SLICE_A_MODE])
		mode = nla_get_u8(tb[SLICE_A_MODE]);
	r = radio_of(nla_data(tb[SLICE_A_IFNAME]));
	if (!r || mode != SLICE_MODE_MOVE) {
		remember(tb, mode);
		fake_send_error(sk, req, 0, NULL);
		return;
	}
	if (r->granted) {
		snprintf(text, sizeof(text), "%s is granted to slice %s",
			 r->ifname, r->name);
		fake_send_error(sk, req, EBUSY, text);
		return;
	}
	if (r->iface != IFACE_THERE) {
		fake_send_error(sk, req, ENODEV, "no device with this name");
		return;
	}
	r->granted = true;
	r->state = SLICE_STATE_PHY_WAIT;
	r->slice = grant_ns(tb);
	r->gets = 0;
	r->name[0] = '\0';
	if (tb[SLICE_A_NAME])
		nla_strlcpy(r->name, tb[SLICE_A_NAME], sizeof(r->name));
	r->lease = tb[SLICE_A_LEASE] ? nla_get_u32(tb[SLICE_A_LEASE]) : 0;
	fake_send_error(sk, req, 0, NULL);
}

/*
 * REVOKE: a wireless one that was active is held until its phy is back;
 * one held already ends where it is with FORCE, else nothing changes
 */
static void answer_revoke(struct nl_sock *sk, const struct nlmsghdr *req)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	struct radio *r = NULL;
	struct made *m = NULL;
	bool force = false;

	if (!genlmsg_parse((struct nlmsghdr *)req, 0, tb, SLICE_A_MAX, NULL) &&
	    tb[SLICE_A_IFNAME]) {
		r = radio_of(nla_data(tb[SLICE_A_IFNAME]));
		m = made_of(nla_data(tb[SLICE_A_IFNAME]));
		force = !!tb[SLICE_A_FORCE];
	}
	if (m)
		m->used = false;
	if (r && r->granted && r->state == SLICE_STATE_PHY_WAIT)
		r->granted = false;
	else if (r && r->granted && r->state == SLICE_STATE_ACTIVE)
		r->state = SLICE_STATE_RETURNING;
	else if (r && r->granted && force)
		r->granted = false;
	fake_send_error(sk, req, 0, NULL);
}

/* a wireless grant, as GET sees it: false once it is gone */
static bool radio_seen(struct radio *r)
{
	if (!r->granted)
		return false;
	if (r->gets > 0 && !--r->gets)
		r->granted = false;
	return true;
}

/* GET: the grant of IFNAME (or ENOENT), or a dump of every one */
static void answer_get(struct nl_sock *sk, const struct nlmsghdr *req)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	struct grant g;
	struct radio *r;
	struct made *m;
	size_t i;

	if (req->nlmsg_flags & NLM_F_DUMP) {
		for (i = 0; i < ARRAY_LEN(grants); i++)
			send_grant(sk, req->nlmsg_seq, NLM_F_MULTI,
				   SLICE_CMD_GET, &grants[i], -1);
		for (i = 0; i < ARRAY_LEN(radios); i++) {
			if (!radios[i].granted)
				continue;
			g = radio_grant(&radios[i]);
			send_grant(sk, req->nlmsg_seq, NLM_F_MULTI,
				   SLICE_CMD_GET, &g, -1);
		}
		fake_send_done(sk, req->nlmsg_seq);
		return;
	}
	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, SLICE_A_MAX, NULL) ||
	    !tb[SLICE_A_IFNAME]) {
		fake_send_error(sk, req, EINVAL,
				"missing interface (ifindex or ifname)");
		return;
	}
	m = made_of(nla_data(tb[SLICE_A_IFNAME]));
	if (m) {
		send_grant(sk, req->nlmsg_seq, 0, SLICE_CMD_GET, &m->g, -1);
		fake_send_error(sk, req, 0, NULL);
		return;
	}
	r = radio_of(nla_data(tb[SLICE_A_IFNAME]));
	if (r && r->granted) {
		g = radio_grant(r);
		radio_seen(r);
		send_grant(sk, req->nlmsg_seq, 0, SLICE_CMD_GET, &g, -1);
		fake_send_error(sk, req, 0, NULL);
		return;
	}
	for (i = 0; i < ARRAY_LEN(grants); i++)
		if (!strcmp(nla_data(tb[SLICE_A_IFNAME]), grants[i].ifname)) {
			send_grant(sk, req->nlmsg_seq, 0, SLICE_CMD_GET,
				   &grants[i], -1);
			fake_send_error(sk, req, 0, NULL);
			return;
		}
	fake_send_error(sk, req, ENOENT, "the interface is not granted");
}

/* one NL80211_CMD_NEW_WIPHY of a dump (@part: a split one's second) */
static void send_wiphy(struct nl_sock *sk, uint32_t seq, uint32_t wiphy,
		       const char *name, bool part)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, seq, nl80211.id, 0, NLM_F_MULTI,
		    NL80211_CMD_NEW_WIPHY, 0);
	nla_put_u32(msg, NL80211_ATTR_WIPHY, wiphy);
	nla_put_string(msg, NL80211_ATTR_WIPHY_NAME, name);
	nla_put_u32(msg, NL80211_ATTR_GENERATION, 1);
	if (part)
		nla_put_u32(msg, NL80211_ATTR_MAX_NUM_SCAN_SSIDS, 4);
	fake_send_msg(sk, msg);
}

/* GET_WIPHY, a dump: phy7, then the radios of namespace @from */
static void answer_wiphy_dump(struct nl_sock *sk, const struct nlmsghdr *req,
			      struct nlattr **tb, ino_t from)
{
	bool split = !!tb[NL80211_ATTR_SPLIT_WIPHY_DUMP];
	size_t i;

	if (!(req->nlmsg_flags & NLM_F_DUMP)) {
		fake_send_error(sk, req, EINVAL, NULL);
		return;
	}
	send_wiphy(sk, req->nlmsg_seq, 7, "phy7", false);
	if (split)
		send_wiphy(sk, req->nlmsg_seq, 7, "phy7", true);
	for (i = 0; i < ARRAY_LEN(radios); i++) {
		if (radios[i].at != from)
			continue;
		send_wiphy(sk, req->nlmsg_seq, radios[i].wiphy, radios[i].phy,
			   false);
		if (split)
			send_wiphy(sk, req->nlmsg_seq, radios[i].wiphy,
				   radios[i].phy, true);
	}
	fake_send_done(sk, req->nlmsg_seq);
}

/*
 * nl80211: the interface of an index, the wiphys, a phy's move, of the
 * requester's namespace
 */
static void answer_nl80211(struct nl_sock *sk, const struct nlmsghdr *req)
{
	struct genlmsghdr *gh = nlmsg_data(req);
	struct nlattr *tb[NL80211_ATTR_MAX + 1], *a;
	ino_t from = fake_sk_ns(sk), to;
	struct radio *r = NULL;
	const char *e;
	struct nl_msg *msg;
	size_t i;

	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, NL80211_ATTR_MAX,
			  NULL)) {
		fake_send_error(sk, req, EINVAL, NULL);
		return;
	}
	if (gh->cmd == NL80211_CMD_GET_WIPHY) {
		answer_wiphy_dump(sk, req, tb, from);
		return;
	}
	for (i = 0; i < ARRAY_LEN(radios); i++) {
		if (radios[i].at != from)
			continue;
		if (gh->cmd == NL80211_CMD_GET_INTERFACE &&
		    radios[i].iface == IFACE_THERE &&
		    tb[NL80211_ATTR_IFINDEX] &&
		    nla_get_u32(tb[NL80211_ATTR_IFINDEX]) ==
		    radio_ifindex(&radios[i]))
			r = &radios[i];
		if (gh->cmd == NL80211_CMD_SET_WIPHY_NETNS &&
		    tb[NL80211_ATTR_WIPHY] &&
		    nla_get_u32(tb[NL80211_ATTR_WIPHY]) == radios[i].wiphy)
			r = &radios[i];
	}
	if (gh->cmd == NL80211_CMD_SET_WIPHY_NETNS) {
		e = getenv(nl80211.error_env);
		if (e && *e) {
			fake_send_error(sk, req, atoi(e), strchr(e, ':') ?
					strchr(e, ':') + 1 : NULL);
			return;
		}
	}
	if (!r) {
		fake_send_error(sk, req, ENODEV, NULL);
		return;
	}
	if (gh->cmd == NL80211_CMD_SET_WIPHY_NETNS) {
		a = tb[NL80211_ATTR_NETNS_FD];
		to = a ? fake_fd_ns((int)nla_get_u32(a)) : 0;
		if (!to) {
			fake_send_error(sk, req, EINVAL, NULL);
			return;
		}
		if (to != r->at)
			radio_moved(r, to);
		fake_send_error(sk, req, 0, NULL);
		return;
	}
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, req->nlmsg_seq, nl80211.id, 0, 0,
		    NL80211_CMD_NEW_INTERFACE, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, radio_ifindex(r));
	nla_put_string(msg, NL80211_ATTR_IFNAME, r->ifname);
	nla_put_u32(msg, NL80211_ATTR_WIPHY, r->wiphy);
	fake_send_msg(sk, msg);
	fake_send_error(sk, req, 0, NULL);
}

int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	int (*real)(struct nl_sock *, struct nl_msg *);
	socklen_t len = sizeof(int);
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;
	int proto = 0;

	/* rtnetlink (the slice's side of a map grant) is the kernel's */
	getsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_PROTOCOL, &proto, &len);
	if (proto != NETLINK_GENERIC) {
		real = (int (*)(struct nl_sock *, struct nl_msg *))
		       dlsym(RTLD_NEXT, "nl_send_auto");
		return real(sk, msg);
	}
	radios_init();
	nlh = fake_request(sk, msg);
	gh = nlmsg_data(nlh);
	if (nlh->nlmsg_type == nl80211.id) {
		answer_nl80211(sk, nlh);
		return (int)nlh->nlmsg_len;
	}
	if (fake_env_error(sk, nlh))
		return (int)nlh->nlmsg_len;
	if (gh->cmd == SLICE_CMD_GET)
		answer_get(sk, nlh);
	else if (gh->cmd == SLICE_CMD_GRANT)
		answer_grant(sk, nlh);
	else if (gh->cmd == SLICE_CMD_REVOKE)
		answer_revoke(sk, nlh);
	else
		fake_send_error(sk, nlh, 0, NULL);
	return (int)nlh->nlmsg_len;
}

/*
 * "joined": a GRANT and a REVOKE (expired) come in, then the map grant's
 * GRANT with a new address (the node's changed); then the end of each
 * wireless grant: an active one's lease (held until its phy is back), the
 * wait of one whose phy did not come
 */
int nl_socket_add_membership(struct nl_sock *sk, int group)
{
	struct grant moved = grants[2], g;
	size_t i;

	if (group != FAKE_GROUP)
		return -NLE_INVAL;
	radios_init();
	send_grant(sk, 0, 0, SLICE_CMD_GRANT, &grants[1], -1);
	send_grant(sk, 0, 0, SLICE_CMD_REVOKE, &grants[0],
		   SLICE_REASON_EXPIRED);
	moved.addr = "10.1.0.9";
	send_grant(sk, 0, 0, SLICE_CMD_GRANT, &moved, -1);
	for (i = 0; i < ARRAY_LEN(radios); i++) {
		if (!radios[i].granted ||
		    radios[i].state == SLICE_STATE_RETURNING)
			continue;
		if (radios[i].state == SLICE_STATE_ACTIVE) {
			radios[i].state = SLICE_STATE_RETURNING;
			if (radios[i].deletes)
				radios[i].iface = IFACE_DELETED;
			g = radio_grant(&radios[i]);
			send_grant(sk, 0, 0, SLICE_CMD_REVOKE, &g,
				   radios[i].deletes ? SLICE_REASON_DEV_GONE :
				   SLICE_REASON_EXPIRED);
			continue;
		}
		g = radio_grant(&radios[i]);
		radios[i].granted = false;
		send_grant(sk, 0, 0, SLICE_CMD_REVOKE, &g, SLICE_REASON_NO_PHY);
	}
	return 0;
}

/* ---- the slice's namespace ----------------------------------------------- */

static const char *netns_path(const char *path)
{
	const char *ns = getenv("FAKE_NETNS"), *to = getenv("FAKE_NETNS_PATH");
	char want[PATH_MAX];

	if (!ns)
		return path;
	snprintf(want, sizeof(want), "/run/netns/%s", ns);
	if (strcmp(path, want))
		return path;
	return to && *to ? to : "/proc/self/ns/net";
}

int open(const char *path, int flags, ...)
{
	int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return real(netns_path(path), flags, mode);
}

int open64(const char *path, int flags, ...)
{
	int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open64");
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return real(netns_path(path), flags, mode);
}
