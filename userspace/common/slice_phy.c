// SPDX-License-Identifier: GPL-2.0
/* The phy of a wireless grant in move mode (see slice_phy.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/nl80211.h>

#include "rtnl.h"
#include "slice_phy.h"

#ifndef NSFS_MAGIC
#define NSFS_MAGIC	0x6e736673
#endif

/* room for "strerror: extack message" */
#define WHY_MAX		(GENL_EXTACK_MAX + 64)

/* how often to restart a wiphy dump that was inconsistent */
#define WIPHY_DUMP_TRIES	3

static const struct genl_family_desc nl80211_desc = {
	.name = NL80211_GENL_NAME, .version = 0, .module = "cfg80211",
};

/* ---- the grant ----------------------------------------------------------- */

void slice_info_parse(struct nlattr **tb, struct slice_info *s)
{
	memset(s, 0, sizeof(*s));
	/* a module before SLICE_A_STATE has no other state */
	s->state = SLICE_STATE_ACTIVE;
	attr_u8(tb[SLICE_A_STATE], &s->state);
	attr_u8(tb[SLICE_A_MODE], &s->mode);
	attr_u32(tb[SLICE_A_IFINDEX], &s->ifindex);
	attr_u32(tb[SLICE_A_SLICE_IFINDEX], &s->slice_ifindex);
	attr_str(tb[SLICE_A_SLICE_IFNAME], s->slice_ifname,
		 sizeof(s->slice_ifname));
	attr_str(tb[SLICE_A_NAME], s->name, sizeof(s->name));
	attr_str(tb[SLICE_A_PHY], s->phy, sizeof(s->phy));
	attr_u32(tb[SLICE_A_SLICE_NETNS_INO], &s->netns_ino);
	attr_u32(tb[SLICE_A_PHY_NETNS_INO], &s->phy_netns_ino);
}

struct info_reply {
	struct genl *g;
	struct slice_info *s;
	bool seen;
};

static int info_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	struct info_reply *r = arg;
	uint8_t cmd;

	if (genl_parse(r->g, msg, &cmd, tb, SLICE_A_MAX) ||
	    cmd != SLICE_CMD_GET)
		return 0;
	slice_info_parse(tb, r->s);
	r->seen = true;
	return 0;
}

static struct nl_msg *dev_req(struct genl *g, uint8_t cmd, const char *ifname)
{
	struct nl_msg *msg = genl_new(g, cmd, 0, 0);

	if (msg && nla_put_string(msg, SLICE_A_IFNAME, ifname)) {
		nlmsg_free(msg);
		rtnl_err("out of memory building a request");
		return NULL;
	}
	return msg;
}

int slice_info_get(struct genl *g, const char *ifname, struct slice_info *s)
{
	struct info_reply r = { .g = g, .s = s };
	struct nl_msg *msg = dev_req(g, SLICE_CMD_GET, ifname);
	struct genl_err err;
	char why[WHY_MAX];

	if (!msg)
		return -1;
	if (genl_request_err(g, msg, info_cb, &r, &err)) {
		/* ENOENT: "the interface is not granted" */
		if (err.error == ENOENT)
			return 0;
		if (err.error)
			rtnl_err("slice %s: cannot read the grant: %s", ifname,
				 genl_err_str(&err, why, sizeof(why)));
		return -1;
	}
	if (!r.seen) {
		rtnl_err("slice %s: no reply about the grant", ifname);
		return -1;
	}
	return 1;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int slice_info_wait(struct genl *g, const char *ifname, uint8_t from,
		    struct slice_info *s)
{
	const struct timespec nap = { 0, SLICE_PHY_POLL_MS * 1000000L };
	struct timespec t0;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		r = slice_info_get(g, ifname, s);
		if (r <= 0 || (from != SLICE_INFO_ANY && s->state != from) ||
		    ms_since(&t0) >= SLICE_PHY_WAIT_MS)
			return r;
		nanosleep(&nap, NULL);
	}
}

/* REVOKE @ifname: 0, or -1 (printed) */
static int grant_revoke(struct genl *g, const char *ifname)
{
	struct nl_msg *msg = dev_req(g, SLICE_CMD_REVOKE, ifname);

	return msg && !genl_request(g, msg, NULL, NULL) ? 0 : -1;
}

/* ---- nl80211 ------------------------------------------------------------- */

int phy_open(struct genl *nl, int netns_fd)
{
	return genl_open_fd(nl, netns_fd, &nl80211_desc);
}

struct iface_reply {
	struct genl *nl;
	uint32_t ifindex;
	uint32_t wiphy;
	char ifname[IFNAMSIZ];
	bool seen;
};

static struct nlattr *nl80211_attr(struct nlmsghdr *nlh, int type)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);

	return nla_find(genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0), type);
}

/* whether @nlh is a message @cmd of @nl's family */
static bool nl80211_is(const struct genl *nl, struct nlmsghdr *nlh,
		       uint8_t cmd)
{
	return nlh->nlmsg_type == nl->family && genlmsg_valid_hdr(nlh, 0) &&
	       ((struct genlmsghdr *)nlmsg_data(nlh))->cmd == cmd;
}

/* NL80211_CMD_NEW_INTERFACE, the answer to GET_INTERFACE */
static int iface_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct iface_reply *r = arg;
	uint32_t ifindex;

	if (!nl80211_is(r->nl, nlh, NL80211_CMD_NEW_INTERFACE))
		return 0;
	if (!attr_u32(nl80211_attr(nlh, NL80211_ATTR_IFINDEX), &ifindex) ||
	    ifindex != r->ifindex ||
	    !attr_u32(nl80211_attr(nlh, NL80211_ATTR_WIPHY), &r->wiphy))
		return 0;
	r->ifname[0] = '\0';
	attr_str(nl80211_attr(nlh, NL80211_ATTR_IFNAME), r->ifname,
		 sizeof(r->ifname));
	r->seen = true;
	return 0;
}

static struct nl_msg *nl80211_req(struct genl *nl, uint8_t cmd)
{
	return genl_new(nl, cmd, 0, 0);
}

static int put_failed(struct nl_msg *msg)
{
	nlmsg_free(msg);
	rtnl_err("out of memory building an nl80211 request");
	return -1;
}

int phy_lookup(struct genl *nl, uint32_t ifindex, const char *ifname,
	       uint32_t *wiphy, struct genl_err *err)
{
	struct iface_reply r = { .nl = nl, .ifindex = ifindex };
	struct nl_msg *msg = nl80211_req(nl, NL80211_CMD_GET_INTERFACE);

	err->error = 0;
	err->msg[0] = '\0';
	if (!msg)
		return -1;
	if (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex))
		return put_failed(msg);
	if (genl_request_err(nl, msg, iface_cb, &r, err))
		return -1;
	if (!r.seen) {
		rtnl_err("nl80211: no reply about interface %u", ifindex);
		return -1;
	}
	/* an index of that namespace, which another interface may have now */
	if (ifname && *ifname && strcmp(r.ifname, ifname)) {
		err->error = ENODEV;
		snprintf(err->msg, sizeof(err->msg),
			 "interface %u is %s there, not %s", ifindex,
			 r.ifname[0] ? r.ifname : "unnamed", ifname);
		return -1;
	}
	*wiphy = r.wiphy;
	return 0;
}

struct wiphy_reply {
	struct genl *nl;
	const char *name;
	uint32_t wiphy;
	bool seen;
	bool twice;	/* two wiphys of that name: renamed during the dump */
};

/*
 * NL80211_CMD_NEW_WIPHY, an answer to the GET_WIPHY dump: split, a wiphy
 * comes in several messages, each with its index and name
 */
static int wiphy_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct wiphy_reply *r = arg;
	char name[SLICE_PHY_NAME_MAX];
	uint32_t wiphy;

	if (!nl80211_is(r->nl, nlh, NL80211_CMD_NEW_WIPHY) ||
	    !attr_u32(nl80211_attr(nlh, NL80211_ATTR_WIPHY), &wiphy) ||
	    !attr_str(nl80211_attr(nlh, NL80211_ATTR_WIPHY_NAME), name,
		      sizeof(name)) || strcmp(name, r->name))
		return 0;
	if (r->seen && r->wiphy != wiphy)
		r->twice = true;
	r->wiphy = wiphy;
	r->seen = true;
	return 0;
}

int phy_lookup_name(struct genl *nl, const char *phy, uint32_t *wiphy,
		    struct genl_err *err)
{
	struct wiphy_reply r = { .nl = nl, .name = phy };
	struct nl_msg *msg;
	int tries, ret = -1;

	err->error = 0;
	err->msg[0] = '\0';
	for (tries = 0; tries < WIPHY_DUMP_TRIES; tries++) {
		r.seen = false;
		r.twice = false;
		msg = genl_new(nl, NL80211_CMD_GET_WIPHY, NLM_F_DUMP, 0);
		if (!msg)
			return -1;
		/* the wiphys in parts: one whole may not fit in a message */
		if (nla_put_flag(msg, NL80211_ATTR_SPLIT_WIPHY_DUMP))
			return put_failed(msg);
		ret = genl_request_err(nl, msg, wiphy_cb, &r, err);
		if (ret < 0)
			return -1;
		if (ret != GENL_DUMP_INTR && !r.twice)
			break;
	}
	if (r.twice) {
		rtnl_err("nl80211: the wiphy named %s kept changing during the dump",
			 phy);
		return -1;
	}
	if (!r.seen) {
		err->error = ENODEV;
		snprintf(err->msg, sizeof(err->msg), "no wiphy named %s there",
			 phy);
		return -1;
	}
	*wiphy = r.wiphy;
	return 0;
}

int phy_move(struct genl *nl, uint32_t wiphy, int netns_fd,
	     struct genl_err *err)
{
	struct nl_msg *msg = nl80211_req(nl, NL80211_CMD_SET_WIPHY_NETNS);

	err->error = 0;
	err->msg[0] = '\0';
	if (!msg)
		return -1;
	if (nla_put_u32(msg, NL80211_ATTR_WIPHY, wiphy) ||
	    nla_put_u32(msg, NL80211_ATTR_NETNS_FD, (uint32_t)netns_fd))
		return put_failed(msg);
	return genl_request_err(nl, msg, NULL, NULL, err) ? -1 : 0;
}

/* ---- the slice's namespace ----------------------------------------------- */

/*
 * @path, if it is the nsfs file of inode @ino: its file descriptor, else
 * -1.  Not blocking: a FIFO in /run/netns would not stop the search.
 */
static int ns_open_if(const char *path, uint32_t ino)
{
	struct statfs sfs;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && st.st_ino == ino && !fstatfs(fd, &sfs) &&
	    sfs.f_type == NSFS_MAGIC)
		return fd;
	close(fd);
	return -1;
}

/* the first DIR/NAME[SUFFIX] of inode @ino (@pids: NAME a number only) */
static int ns_scan(const char *dir, const char *suffix, bool pids,
		   uint32_t ino)
{
	char path[PATH_MAX];
	struct dirent *e;
	int fd = -1;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -1;
	while (fd < 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    (pids && !isdigit((unsigned char)e->d_name[0])))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s%s", dir, e->d_name,
			     suffix) >= (int)sizeof(path))
			continue;
		fd = ns_open_if(path, ino);
	}
	closedir(d);
	return fd;
}

int slice_netns_find(const char *label, uint32_t ino)
{
	int fd = -1;

	if (label && *label)
		fd = genl_netns_try_open(label);
	if (fd >= 0) {
		struct statfs sfs;
		struct stat st;

		if (!fstat(fd, &st) && st.st_ino == ino && !fstatfs(fd, &sfs) &&
		    sfs.f_type == NSFS_MAGIC)
			return fd;
		close(fd);
	}
	fd = ns_scan("/run/netns", "", false, ino);
	if (fd < 0)
		fd = ns_scan("/var/run/netns", "", false, ino);
	if (fd < 0)
		fd = ns_scan("/proc", "/ns/net", true, ino);
	return fd;
}

/* whether we are in the initial network namespace (that of process 1) */
static bool netns_is_init(void)
{
	struct stat self, init;

	if (stat("/proc/self/ns/net", &self) || stat("/proc/1/ns/net", &init))
		return true;
	return self.st_ino == init.st_ino && self.st_dev == init.st_dev;
}

/* ---- the moves ----------------------------------------------------------- */

static const char *phy_of(const struct slice_info *s)
{
	return s->phy[0] ? s->phy : "its phy";
}

/* "slice red" or "the slice" */
static const char *slice_of(const struct slice_info *s, char *buf,
			    size_t size)
{
	if (!s->name[0])
		return "the slice";
	snprintf(buf, size, "slice %s", s->name);
	return buf;
}

/*
 * @wiphy, in the namespace of @slice_fd, back to ours (the node's): 0, or
 * -1 with nl80211's refusal in @err, or printed (@err->error 0).
 */
static int phy_back(int slice_fd, uint32_t wiphy, struct genl_err *err)
{
	struct genl nl;
	int node, ret = -1;

	err->error = 0;
	node = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (node < 0) {
		rtnl_err("cannot open /proc/self/ns/net: %s", strerror(errno));
		return -1;
	}
	if (!phy_open(&nl, slice_fd)) {
		ret = phy_move(&nl, wiphy, node, err);
		genl_close(&nl);
	}
	close(node);
	return ret;
}

/*
 * The grant flow failed: revoke the grant (@granted: it was there, in
 * p->info.state) and, if the phy went to the slice (@wiphy), bring it
 * back and wait for the grant to go.
 */
static enum slice_phy_ret grant_undo(struct genl *g, const char *ifname,
				     struct slice_phy *p, bool granted,
				     const uint32_t *wiphy, int slice_fd)
{
	char why[WHY_MAX], sl[SLICE_NAME_MAX + 8];
	struct genl_err err;
	bool held;
	int r;

	/* a REVOKE frees a grant that waits; one that was active is held */
	held = granted && (grant_revoke(g, ifname) ||
			   p->info.state != SLICE_STATE_PHY_WAIT);
	p->revoked = !held;
	if (!wiphy)
		return SLICE_PHY_FAILED;
	if (phy_back(slice_fd, *wiphy, &err)) {
		rtnl_err("slice %s: %s stays in %s: %s", ifname,
			 phy_of(&p->info), slice_of(&p->info, sl, sizeof(sl)),
			 err.error ? genl_err_str(&err, why, sizeof(why)) :
			 "cannot move it back");
		return SLICE_PHY_FAILED;
	}
	if (!held)
		return SLICE_PHY_FAILED;
	/* back in the node: a grant the kernel held goes now */
	r = slice_info_wait(g, ifname, SLICE_INFO_ANY, &p->info);
	p->revoked = r == 0;
	return SLICE_PHY_FAILED;
}

enum slice_phy_ret slice_phy_grant(struct genl *g, const char *ifname,
				   int slice_fd, struct slice_phy *p)
{
	char why[WHY_MAX], sl[SLICE_NAME_MAX + 8];
	struct slice_info *s = &p->info;
	struct genl_err err;
	const char *where;
	struct genl nl;
	uint32_t wiphy;
	int r;

	memset(p, 0, sizeof(*p));
	r = slice_info_get(g, ifname, s);
	if (r < 0) {
		rtnl_err("slice %s: cannot read the grant back", ifname);
		return SLICE_PHY_FAILED;
	}
	if (!r) {
		rtnl_err("slice %s: the grant has ended already", ifname);
		p->revoked = true;
		return SLICE_PHY_FAILED;
	}
	if (s->state != SLICE_STATE_PHY_WAIT)
		return SLICE_PHY_NONE;
	where = slice_of(s, sl, sizeof(sl));
	/* in the node (ours) as long as the grant waits */
	if (phy_open(&nl, -1))
		return grant_undo(g, ifname, p, true, NULL, slice_fd);
	if (phy_lookup(&nl, s->slice_ifindex, s->slice_ifname, &wiphy, &err)) {
		if (err.error)
			rtnl_err("slice %s: cannot find %s in the node's namespace: %s",
				 ifname, phy_of(s),
				 genl_err_str(&err, why, sizeof(why)));
		genl_close(&nl);
		return grant_undo(g, ifname, p, true, NULL, slice_fd);
	}
	r = phy_move(&nl, wiphy, slice_fd, &err);
	genl_close(&nl);
	if (r) {
		if (err.error)
			rtnl_err("slice %s: cannot move %s into %s: %s", ifname,
				 phy_of(s), where,
				 genl_err_str(&err, why, sizeof(why)));
		return grant_undo(g, ifname, p, true, NULL, slice_fd);
	}
	/* the kernel sees the interface arrive there: ACTIVE */
	r = slice_info_wait(g, ifname, SLICE_STATE_PHY_WAIT, s);
	if (r > 0 && s->state == SLICE_STATE_ACTIVE)
		return SLICE_PHY_MOVED;
	if (!r)
		rtnl_err("slice %s: %s moved into %s, but the grant ended",
			 ifname, phy_of(s), where);
	else if (r > 0 && s->state == SLICE_STATE_PHY_WAIT)
		rtnl_err("slice %s: %s moved into %s, but the grant still waits for it after %d ms",
			 ifname, phy_of(s), where, SLICE_PHY_WAIT_MS);
	else if (r > 0)
		rtnl_err("slice %s: %s moved into %s, but the grant ended as it arrived",
			 ifname, phy_of(s), where);
	return grant_undo(g, ifname, p, r > 0, &wiphy, slice_fd);
}

/* "slice red's namespace", or the namespace @ino that the phy is in now */
static const char *ns_of(const struct slice_info *s, uint32_t ino, char *buf,
			 size_t size)
{
	if (ino != s->netns_ino)
		snprintf(buf, size, "the network namespace it is in now (inode %u)",
			 ino);
	else if (s->name[0])
		snprintf(buf, size, "slice %s's namespace", s->name);
	else
		snprintf(buf, size, "the slice's namespace");
	return buf;
}

/*
 * The wiphy of the phy of @s in @nl's namespace: by the interface's index
 * there (and its name), if the grant has one; else, or if that is not it
 * (ENODEV: the slice deleted or renamed it), by the phy's name.  0, or -1
 * as phy_lookup(); @how says how it was looked for.
 */
static int phy_find(struct genl *nl, const struct slice_info *s,
		    uint32_t *wiphy, struct genl_err *err, char *how,
		    size_t size)
{
	if (s->slice_ifindex) {
		snprintf(how, size, "as interface %u, %s", s->slice_ifindex,
			 s->slice_ifname[0] ? s->slice_ifname : "unnamed");
		if (!phy_lookup(nl, s->slice_ifindex, s->slice_ifname, wiphy,
				err))
			return 0;
		if (err->error != ENODEV)
			return -1;
		snprintf(how + strlen(how), size - strlen(how),
			 ", nor by its name");
	} else {
		snprintf(how, size, "by its name: the grant has no interface");
	}
	return phy_lookup_name(nl, s->phy, wiphy, err);
}

/*
 * The phy of RETURNING grant @p->info is back in the node: wait for the
 * grant to go
 */
static enum slice_phy_ret wait_gone(struct genl *g, const char *ifname,
				    struct slice_phy *p)
{
	char phy[SLICE_PHY_NAME_MAX];
	int r;

	memcpy(phy, p->info.phy, sizeof(phy));
	r = slice_info_wait(g, ifname, SLICE_INFO_ANY, &p->info);
	if (!r)
		return SLICE_PHY_MOVED;
	if (r > 0)
		rtnl_err("slice %s: %s is back in the node, but the grant is still %s after %d ms",
			 ifname, phy,
			 p->info.state == SLICE_STATE_RETURNING ? "returning" :
			 "there", SLICE_PHY_WAIT_MS);
	return SLICE_PHY_FAILED;
}

/*
 * The phy of RETURNING grant @p->info, in the namespace of @fd (inode
 * @ino), to the node
 */
static enum slice_phy_ret return_home(struct genl *g, const char *ifname,
				      struct slice_phy *p, int fd, uint32_t ino)
{
	char why[WHY_MAX], where[64 + SLICE_NAME_MAX], how[IFNAMSIZ + 64];
	const struct slice_info s = p->info;	/* as it was asked for */
	struct genl_err err;
	struct genl nl;
	uint32_t wiphy;
	int r;

	if (phy_open(&nl, fd))
		return SLICE_PHY_FAILED;
	r = phy_find(&nl, &s, &wiphy, &err, how, sizeof(how));
	genl_close(&nl);
	if (r) {
		/* brought back by someone else (dsrd, or another ahctl)? */
		if (err.error && !slice_info_get(g, ifname, &p->info))
			return SLICE_PHY_MOVED;
		if (err.error)
			rtnl_err("slice %s: cannot find %s in %s (%s): %s",
				 ifname, phy_of(&s),
				 ns_of(&s, ino, where, sizeof(where)), how,
				 genl_err_str(&err, why, sizeof(why)));
		return SLICE_PHY_FAILED;
	}
	if (phy_back(fd, wiphy, &err)) {
		if (err.error && !slice_info_get(g, ifname, &p->info))
			return SLICE_PHY_MOVED;
		if (err.error)
			rtnl_err("slice %s: cannot move %s back to the node from %s: %s",
				 ifname, phy_of(&s),
				 ns_of(&s, ino, where, sizeof(where)),
				 genl_err_str(&err, why, sizeof(why)));
		return SLICE_PHY_FAILED;
	}
	return wait_gone(g, ifname, p);
}

/* The slice's namespace went: cfg80211 hands its phys to the initial one */
static enum slice_phy_ret wait_orphan(struct genl *g, const char *ifname,
				      struct slice_phy *p)
{
	int r;

	p->init_netns = netns_is_init();
	r = slice_info_wait(g, ifname, SLICE_INFO_ANY, &p->info);
	if (!r)
		return SLICE_PHY_ORPHAN;
	if (r > 0)
		rtnl_err("slice %s: the slice's network namespace is gone, but the grant still waits for %s after %d ms (cfg80211 hands it to the initial namespace)",
			 ifname, phy_of(&p->info), SLICE_PHY_WAIT_MS);
	return SLICE_PHY_FAILED;
}

/* the nsfs inode of our network namespace (the node's), 0 if unknown */
static uint32_t netns_self(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) ? 0 : (uint32_t)st.st_ino;
}

enum slice_phy_ret slice_phy_return(struct genl *g, const char *ifname,
				    struct slice_phy *p)
{
	struct slice_info *s = &p->info;
	enum slice_phy_ret ret;
	uint32_t ino;
	int r, fd;

	memset(p, 0, sizeof(*p));
	r = slice_info_get(g, ifname, s);
	if (r < 0)
		return SLICE_PHY_FAILED;
	if (!r || s->state != SLICE_STATE_RETURNING)
		return SLICE_PHY_NONE;
	if (!s->phy[0]) {
		rtnl_err("slice %s: the grant is returning, but the kernel names no phy for it (no SLICE_A_PHY): nothing to move back",
			 ifname);
		return SLICE_PHY_FAILED;
	}
	/* where the phy is now; a module before PHY_NETNS_INO: the slice */
	ino = s->phy_netns_ino ? s->phy_netns_ino : s->netns_ino;
	if (ino && ino == netns_self())
		return wait_gone(g, ifname, p);
	if (!s->netns_ino) {
		/* unless the slice had moved the phy on, cfg80211 moves it */
		fd = ino ? slice_netns_find(NULL, ino) : -1;
		if (fd < 0)
			return wait_orphan(g, ifname, p);
	} else {
		fd = slice_netns_find(s->name, ino);
	}
	if (fd < 0) {
		if (ino == s->netns_ino)
			rtnl_err("slice %s: the slice's network namespace (inode %u) is in neither /run/netns nor /proc: %s stays there",
				 ifname, ino, phy_of(s));
		else
			rtnl_err("slice %s: the network namespace %s is in now (inode %u, not the slice's) is in neither /run/netns nor /proc: it stays there",
				 ifname, phy_of(s), ino);
		return SLICE_PHY_FAILED;
	}
	ret = return_home(g, ifname, p, fd, ino);
	close(fd);
	return ret;
}
