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
 *   descriptor of a network namespace is "net", a KEEP nest
 *   "keep=22,51820") and answers it from userspace, over a netlink
 *   socket of its own, to ahctl's port: GET with three canned grants
 *   (the third in map mode), everything else with an ACK, or with the
 *   error $FAKE_SLICE_ERROR ("ERRNO:extack message");
 * - a map grant it ACKed is remembered by the process: a GET of its
 *   interface then answers with it (before the canned ones), mapping
 *   $FAKE_SLICE_ADDR (default 192.0.2.7) to the slice's interface of the
 *   same name and index 99997; the canned map grant's is 99998.  The
 *   tests make interfaces of those indexes in a network namespace of
 *   their own; no host has them, so what is configured on them never
 *   reaches a host's interfaces;
 * - joining a multicast group sends a GRANT, a REVOKE (expired) and the
 *   GRANT of the map grant with a new address;
 * - open("/run/netns/$FAKE_NETNS") opens our own namespace.
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

/* the map grant this process made, answered by GET */
static struct grant made;
static char made_ifname[IFNAMSIZ], made_name[SLICE_NAME_MAX];

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

FAKE_FAMILY("fake_slice", SLICE_GENL_NAME, 0x1f00, "FAKE_SLICE", cmd_names,
	    attrs, log_value);

/* ---- replies ------------------------------------------------------------ */

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

/* An ACKed map grant: what GET of its interface says from now on. */
static void remember_map(const struct nlmsghdr *req)
{
	struct nlattr *tb[SLICE_A_MAX + 1], *p;
	const char *addr = getenv("FAKE_SLICE_ADDR");
	uint8_t mode;
	int rem;

	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, SLICE_A_MAX, NULL) ||
	    !tb[SLICE_A_IFNAME] || !tb[SLICE_A_MODE])
		return;
	mode = nla_get_u8(tb[SLICE_A_MODE]);
	if (mode != SLICE_MODE_MAP)
		return;
	memset(&made, 0, sizeof(made));
	nla_strlcpy(made_ifname, tb[SLICE_A_IFNAME], sizeof(made_ifname));
	made_name[0] = '\0';
	if (tb[SLICE_A_NAME])
		nla_strlcpy(made_name, tb[SLICE_A_NAME], sizeof(made_name));
	made.ifindex = 9;
	made.ifname = made_ifname;
	made.name = made_name;
	made.mode = mode;
	made.addr = addr ? addr : "192.0.2.7";
	made.slice_ifindex = 99997;
	if (tb[SLICE_A_KEEP])
		nla_for_each_nested(p, tb[SLICE_A_KEEP], rem)
			if (made.nkeep < SLICE_KEEP_MAX + 1 &&
			    nla_len(p) == 2)
				made.keep[made.nkeep++] = nla_get_u16(p);
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
		fake_send_done(sk, req->nlmsg_seq);
		return;
	}
	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, SLICE_A_MAX, NULL) ||
	    !tb[SLICE_A_IFNAME]) {
		fake_send_error(sk, req, EINVAL,
				"missing interface (ifindex or ifname)");
		return;
	}
	if (made.ifname && !strcmp(nla_data(tb[SLICE_A_IFNAME]), made.ifname)) {
		send_grant(sk, req->nlmsg_seq, 0, SLICE_CMD_GET, &made, -1);
		fake_send_error(sk, req, 0, NULL);
		return;
	}
	for (i = 0; i < sizeof(grants) / sizeof(grants[0]); i++)
		if (!strcmp(nla_data(tb[SLICE_A_IFNAME]), grants[i].ifname)) {
			send_grant(sk, req->nlmsg_seq, 0, SLICE_CMD_GET,
				   &grants[i], -1);
			fake_send_error(sk, req, 0, NULL);
			return;
		}
	fake_send_error(sk, req, ENOENT, "the interface is not granted");
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
	nlh = fake_request(sk, msg);
	gh = nlmsg_data(nlh);
	if (fake_env_error(sk, nlh))
		return (int)nlh->nlmsg_len;
	if (gh->cmd == SLICE_CMD_GET) {
		answer_get(sk, nlh);
	} else {
		if (gh->cmd == SLICE_CMD_GRANT)
			remember_map(nlh);
		fake_send_error(sk, nlh, 0, NULL);
	}
	return (int)nlh->nlmsg_len;
}

/*
 * "joined": a GRANT and a REVOKE (expired) come in, then the map grant's
 * GRANT with a new address (the node's changed)
 */
int nl_socket_add_membership(struct nl_sock *sk, int group)
{
	struct grant moved = grants[2];

	if (group != FAKE_GROUP)
		return -NLE_INVAL;
	send_grant(sk, 0, 0, SLICE_CMD_GRANT, &grants[1], -1);
	send_grant(sk, 0, 0, SLICE_CMD_REVOKE, &grants[0],
		   SLICE_REASON_EXPIRED);
	moved.addr = "10.1.0.9";
	send_grant(sk, 0, 0, SLICE_CMD_GRANT, &moved, -1);
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
