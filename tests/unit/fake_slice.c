// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the slice module, preloaded into ahctl
 * (LD_PRELOAD=./fake_slice.so) by test_ahctl_slice.sh, so that the
 * requests ahctl builds and the replies it prints can be checked on a
 * host that cannot load the module:
 *
 * - genl_ctrl_resolve() finds family "slice" (FAKE_SLICE=absent: it is
 *   not there, as without the module);
 * - nl_send_auto() writes the request as one line to $FAKE_SLICE_LOG
 *   ("grant flags=0 ifname=eth1 netns_fd=net name=red lease=60"; a file
 *   descriptor of a network namespace is "net") and answers it from
 *   userspace, over a netlink socket of its own, to ahctl's port: GET
 *   with two canned grants, everything else with an ACK, or with the
 *   error $FAKE_SLICE_ERROR ("ERRNO:extack message");
 * - joining a multicast group sends a GRANT and a REVOKE (expired);
 * - open("/run/netns/$FAKE_NETNS") opens our own namespace.
 *
 * Nothing reaches the kernel's generic netlink families.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/nsfs.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <linux/ah_slice.h>

#define FAKE_FAMILY	0x1f00
#define FAKE_GROUP	7

static const char *const cmd_names[] = {
	[SLICE_CMD_GRANT] = "grant", [SLICE_CMD_REVOKE] = "revoke",
	[SLICE_CMD_GET] = "get",
};

/* how a request's attributes are logged */
static const struct {
	const char *name;
	char type;	/* s: string, b: u8, w: u32, q: u64, f: netns fd */
} attrs[SLICE_A_MAX + 1] = {
	[SLICE_A_IFINDEX] = { "ifindex", 'w' },
	[SLICE_A_IFNAME] = { "ifname", 's' },
	[SLICE_A_NETNS_FD] = { "netns_fd", 'f' },
	[SLICE_A_NETNS_PID] = { "netns_pid", 'w' },
	[SLICE_A_NAME] = { "name", 's' },
	[SLICE_A_MODE] = { "mode", 'b' },
	[SLICE_A_LEASE] = { "lease", 'w' },
};

/* the grants GET answers with: the second one has no label, no lease */
static const struct grant {
	uint32_t ifindex;
	const char *ifname, *name;
	uint64_t age, rx_packets, rx_bytes, tx_packets, tx_bytes, spoofed;
	uint32_t lease_left;	/* 0: no lease */
	uint32_t slice_ifindex;
} grants[] = {
	{ .ifindex = 5, .ifname = "wlan1", .name = "", .age = 42,
	  .tx_packets = 1, .tx_bytes = 90, .slice_ifindex = 2 },
	{ .ifindex = 3, .ifname = "wlan0", .name = "red", .age = 5012,
	  .rx_packets = 10, .rx_bytes = 1200, .tx_packets = 8, .tx_bytes = 900,
	  .spoofed = 1, .lease_left = 3594988, .slice_ifindex = 2 },
};

int genl_ctrl_resolve(struct nl_sock *sk, const char *name)
{
	const char *s = getenv("FAKE_SLICE");

	(void)sk;
	if (strcmp(name, SLICE_GENL_NAME) || (s && !strcmp(s, "absent")))
		return -NLE_OBJ_NOTFOUND;
	return FAKE_FAMILY;
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

static void log_attr(FILE *f, const struct nlattr *a)
{
	int id = nla_type(a);

	if (id > SLICE_A_MAX || !attrs[id].name) {
		fprintf(f, " attr%d", id);
		return;
	}
	fprintf(f, " %s=", attrs[id].name);
	switch (attrs[id].type) {
	case 's':
		fprintf(f, "%.*s%s", nla_len(a), (const char *)nla_data(a),
			nla_len(a) && !((const char *)nla_data(a))[nla_len(a) - 1] ?
			"" : "(no NUL)");
		break;
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
	}
}

static void log_request(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	const char *path = getenv("FAKE_SLICE_LOG");
	struct nlattr *a;
	FILE *f;
	int rem;

	f = path ? fopen(path, "a") : stderr;
	if (!f)
		return;
	fprintf(f, "%s flags=%s v%u",
		gh->cmd < sizeof(cmd_names) / sizeof(cmd_names[0]) &&
		cmd_names[gh->cmd] ? cmd_names[gh->cmd] : "unknown",
		nlh->nlmsg_flags & NLM_F_DUMP ? "dump" : "0", gh->version);
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem)
		log_attr(f, a);
	fputc('\n', f);
	if (f != stderr)
		fclose(f);
}

/* ---- replies ------------------------------------------------------------ */

/* Send @nlh to ahctl's socket @sk from a socket of our own. */
static void deliver(struct nl_sock *sk, const void *buf, size_t len)
{
	struct sockaddr_nl to = {
		.nl_family = AF_NETLINK,
		.nl_pid = nl_socket_get_local_port(sk),
	};
	static int fd = -1;

	if (fd < 0)
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0 || sendto(fd, buf, len, 0, (struct sockaddr *)&to,
			     sizeof(to)) < 0) {
		perror("fake_slice: send");
		exit(99);
	}
}

static void send_msg(struct nl_sock *sk, struct nl_msg *msg)
{
	deliver(sk, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
}

static void send_grant(struct nl_sock *sk, uint32_t seq, int flags,
		       uint8_t cmd, const struct grant *g, int reason)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, seq, FAKE_FAMILY, 0, flags, cmd,
		    SLICE_GENL_VERSION);
	nla_put_u32(msg, SLICE_A_IFINDEX, g->ifindex);
	nla_put_string(msg, SLICE_A_IFNAME, g->ifname);
	nla_put_string(msg, SLICE_A_NAME, g->name);
	nla_put_u8(msg, SLICE_A_MODE, SLICE_MODE_MOVE);
	nla_put_u64(msg, SLICE_A_AGE, g->age);
	nla_put_u32(msg, SLICE_A_SLICE_IFINDEX, g->slice_ifindex);
	nla_put_string(msg, SLICE_A_SLICE_IFNAME, g->ifname);
	nla_put_u64(msg, SLICE_A_RX_PACKETS, g->rx_packets);
	nla_put_u64(msg, SLICE_A_RX_BYTES, g->rx_bytes);
	nla_put_u64(msg, SLICE_A_TX_PACKETS, g->tx_packets);
	nla_put_u64(msg, SLICE_A_TX_BYTES, g->tx_bytes);
	nla_put_u64(msg, SLICE_A_SPOOFED, g->spoofed);
	if (g->lease_left)
		nla_put_u32(msg, SLICE_A_LEASE_LEFT, g->lease_left);
	if (reason >= 0)
		nla_put_u8(msg, SLICE_A_REASON, (uint8_t)reason);
	send_msg(sk, msg);
}

/* An NLMSG_ERROR: @err 0 is an ACK; @text, if any, the extack message. */
static void send_error(struct nl_sock *sk, const struct nlmsghdr *req,
		       int err, const char *text)
{
	struct {
		struct nlmsghdr nlh;
		struct nlmsgerr e;
		char attrs[256];
	} m;
	size_t tlen = text ? strlen(text) + 1 : 0;
	struct nlattr *a = (struct nlattr *)m.attrs;

	memset(&m, 0, sizeof(m));
	m.nlh.nlmsg_type = NLMSG_ERROR;
	m.nlh.nlmsg_flags = NLM_F_CAPPED;
	m.nlh.nlmsg_seq = req->nlmsg_seq;
	m.e.error = -err;
	m.e.msg = *req;
	m.nlh.nlmsg_len = NLMSG_HDRLEN + sizeof(m.e);
	if (tlen && tlen <= sizeof(m.attrs) - NLA_HDRLEN) {
		m.nlh.nlmsg_flags |= NLM_F_ACK_TLVS;
		a->nla_type = NLMSGERR_ATTR_MSG;
		a->nla_len = NLA_HDRLEN + tlen;
		memcpy(m.attrs + NLA_HDRLEN, text, tlen);
		m.nlh.nlmsg_len += NLA_ALIGN(a->nla_len);
	}
	deliver(sk, &m, m.nlh.nlmsg_len);
}

static void send_done(struct nl_sock *sk, uint32_t seq)
{
	struct {
		struct nlmsghdr nlh;
		int err;
	} m = {
		.nlh = { .nlmsg_len = sizeof(m), .nlmsg_type = NLMSG_DONE,
			 .nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = seq },
	};

	deliver(sk, &m, sizeof(m));
}

/* GET: the grant of IFNAME (or ENOENT), or a dump of both */
static void answer_get(struct nl_sock *sk, const struct nlmsghdr *req)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	size_t i;

	if (req->nlmsg_flags & NLM_F_DUMP) {
		for (i = 0; i < sizeof(grants) / sizeof(grants[0]); i++)
			send_grant(sk, req->nlmsg_seq, NLM_F_MULTI,
				   SLICE_CMD_GET, &grants[i], -1);
		send_done(sk, req->nlmsg_seq);
		return;
	}
	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, SLICE_A_MAX, NULL) ||
	    !tb[SLICE_A_IFNAME]) {
		send_error(sk, req, EINVAL,
			   "missing interface (ifindex or ifname)");
		return;
	}
	for (i = 0; i < sizeof(grants) / sizeof(grants[0]); i++)
		if (!strcmp(nla_data(tb[SLICE_A_IFNAME]), grants[i].ifname)) {
			send_grant(sk, req->nlmsg_seq, 0, SLICE_CMD_GET,
				   &grants[i], -1);
			send_error(sk, req, 0, NULL);
			return;
		}
	send_error(sk, req, ENOENT, "the interface is not granted");
}

int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	const char *e = getenv("FAKE_SLICE_ERROR");
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;

	nl_complete_msg(sk, msg);
	nlh = nlmsg_hdr(msg);
	if (nlh->nlmsg_type != FAKE_FAMILY) {
		fprintf(stderr, "fake_slice: a request of family %u\n",
			nlh->nlmsg_type);
		exit(99);
	}
	gh = nlmsg_data(nlh);
	log_request(msg);
	if (e && *e)
		send_error(sk, nlh, atoi(e), strchr(e, ':') ?
			   strchr(e, ':') + 1 : NULL);
	else if (gh->cmd == SLICE_CMD_GET)
		answer_get(sk, nlh);
	else
		send_error(sk, nlh, 0, NULL);
	return (int)nlh->nlmsg_len;
}

/* "joined": a GRANT and a REVOKE (expired) come in */
int nl_socket_add_membership(struct nl_sock *sk, int group)
{
	if (group != FAKE_GROUP)
		return -NLE_INVAL;
	send_grant(sk, 0, 0, SLICE_CMD_GRANT, &grants[1], -1);
	send_grant(sk, 0, 0, SLICE_CMD_REVOKE, &grants[0],
		   SLICE_REASON_EXPIRED);
	return 0;
}

/* ---- the slice's namespace ----------------------------------------------- */

static const char *netns_path(const char *path)
{
	const char *ns = getenv("FAKE_NETNS");
	char want[PATH_MAX];

	if (!ns)
		return path;
	snprintf(want, sizeof(want), "/run/netns/%s", ns);
	return strcmp(path, want) ? path : "/proc/self/ns/net";
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
