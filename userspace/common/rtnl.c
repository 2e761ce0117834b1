// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink requests (see rtnl.h).  Each is one message with a fixed
 * header (struct ifinfomsg or ifaddrmsg) and attributes, as iproute2
 * sends them; the reply is the ACK (or the error with its extack text),
 * which genl_request() waits for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "rtnl.h"
#include "util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

void (*rtnl_err_hook)(const char *fmt, va_list ap);

void rtnl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (rtnl_err_hook) {
		rtnl_err_hook(fmt, ap);
	} else {
		fprintf(stderr, "%s: ", prog_name);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

static const struct genl_family_desc rtnl_desc = {
	.name = "rtnetlink", .version = 0, .module = "",
};

int rtnl_open(struct genl *rt)
{
	int one = 1, err;

	memset(rt, 0, sizeof(*rt));
	rt->desc = &rtnl_desc;
	rt->sk = nl_socket_alloc();
	if (!rt->sk) {
		rtnl_err("out of memory");
		return -1;
	}
	err = nl_connect(rt->sk, NETLINK_ROUTE);
	if (err < 0) {
		rtnl_err("cannot open an rtnetlink socket: %s",
			 nl_geterror(err));
		nl_socket_free(rt->sk);
		rt->sk = NULL;
		return -1;
	}
	/* error messages from the kernel; errors without our request */
	setsockopt(nl_socket_get_fd(rt->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(rt->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl_socket_enable_msg_peek(rt->sk);
	return 0;
}

int rtnl_open_in(struct genl *rt, int netns_fd)
{
	int own, ret;

	memset(rt, 0, sizeof(*rt));
	own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (own < 0) {
		rtnl_err("cannot open /proc/self/ns/net: %s", strerror(errno));
		return -1;
	}
	if (setns(netns_fd, CLONE_NEWNET)) {
		rtnl_err("cannot enter the slice's network namespace: %s",
			 strerror(errno));
		close(own);
		return -1;
	}
	ret = rtnl_open(rt);
	if (setns(own, CLONE_NEWNET)) {
		rtnl_err("cannot return to the node's network namespace: %s",
			 strerror(errno));
		if (!ret)
			genl_close(rt);
		ret = -1;
	}
	close(own);
	return ret;
}

/* A link message with its struct ifinfomsg; NULL (printed) on failure. */
static struct nl_msg *link_msg(int type, int flags, int ifindex,
			       unsigned int ifi_flags, unsigned int change)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = ifi_flags,
		.ifi_change = change,
	};
	struct nl_msg *msg = nlmsg_alloc_simple(type, flags);

	if (!msg || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO)) {
		nlmsg_free(msg);
		rtnl_err("out of memory");
		return NULL;
	}
	return msg;
}

static int send_msg(struct genl *rt, struct nl_msg *msg,
		    genl_msg_cb cb, void *arg)
{
	return genl_request(rt, msg, cb, arg) ? -1 : 0;
}

static int put_failed(struct nl_msg *msg)
{
	nlmsg_free(msg);
	rtnl_err("out of memory building an rtnetlink request");
	return -1;
}

int rtnl_create(struct genl *rt, const char *name, const char *kind)
{
	struct nl_msg *msg;
	struct nlattr *info;

	msg = link_msg(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0, 0, 0);
	if (!msg)
		return -1;
	if (nla_put_string(msg, IFLA_IFNAME, name))
		return put_failed(msg);
	info = nla_nest_start(msg, IFLA_LINKINFO);
	if (!info || nla_put_string(msg, IFLA_INFO_KIND, kind))
		return put_failed(msg);
	nla_nest_end(msg, info);
	return send_msg(rt, msg, NULL, NULL);
}

int rtnl_delete(struct genl *rt, int ifindex)
{
	struct nl_msg *msg = link_msg(RTM_DELLINK, 0, ifindex, 0, 0);

	return msg ? send_msg(rt, msg, NULL, NULL) : -1;
}

int rtnl_set_master(struct genl *rt, int ifindex, int master)
{
	struct nl_msg *msg = link_msg(RTM_NEWLINK, 0, ifindex, 0, 0);

	if (!msg)
		return -1;
	if (nla_put_u32(msg, IFLA_MASTER, (uint32_t)master))
		return put_failed(msg);
	return send_msg(rt, msg, NULL, NULL);
}

int rtnl_set_up(struct genl *rt, int ifindex, bool up)
{
	struct nl_msg *msg;

	msg = link_msg(RTM_NEWLINK, 0, ifindex, up ? IFF_UP : 0, IFF_UP);
	return msg ? send_msg(rt, msg, NULL, NULL) : -1;
}

struct link_reply {
	int ifindex;
	struct rtnl_link *l;
	bool seen;
};

static int link_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[IFLA_MAX + 1];
	struct link_reply *r = arg;
	struct ifinfomsg *ifi;

	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    !nlmsg_valid_hdr(nlh, sizeof(*ifi)))
		return 0;
	ifi = nlmsg_data(nlh);
	if (ifi->ifi_index != r->ifindex ||
	    nlmsg_parse(nlh, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0)
		return 0;
	r->l->flags = ifi->ifi_flags;
	r->l->master = 0;
	if (tb[IFLA_MASTER] && nla_len(tb[IFLA_MASTER]) >= 4)
		r->l->master = nla_get_u32(tb[IFLA_MASTER]);
	r->seen = true;
	return 0;
}

int rtnl_get_link(struct genl *rt, int ifindex, struct rtnl_link *l)
{
	struct link_reply r = { .ifindex = ifindex, .l = l };
	struct nl_msg *msg = link_msg(RTM_GETLINK, 0, ifindex, 0, 0);

	if (!msg)
		return -1;
	/* RTEXT_FILTER_SKIP_STATS: a short reply */
	if (nla_put_u32(msg, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS))
		return put_failed(msg);
	if (send_msg(rt, msg, link_cb, &r))
		return -1;
	if (!r.seen) {
		rtnl_err("no reply about interface %d", ifindex);
		return -1;
	}
	return 0;
}

int rtnl_addr(struct genl *rt, bool add, int ifindex, uint32_t addr,
	      unsigned int prefix)
{
	struct ifaddrmsg ifa = {
		.ifa_family = AF_INET,
		.ifa_prefixlen = (unsigned char)prefix,
		.ifa_scope = RT_SCOPE_UNIVERSE,
		.ifa_index = (unsigned int)ifindex,
	};
	struct nl_msg *msg;

	msg = nlmsg_alloc_simple(add ? RTM_NEWADDR : RTM_DELADDR,
				 add ? NLM_F_CREATE | NLM_F_EXCL : 0);
	if (!msg || nlmsg_append(msg, &ifa, sizeof(ifa), NLMSG_ALIGNTO)) {
		nlmsg_free(msg);
		rtnl_err("out of memory");
		return -1;
	}
	/* "ip addr add A/LEN dev DEV": local and address both A */
	if (nla_put(msg, IFA_LOCAL, 4, &addr) ||
	    nla_put(msg, IFA_ADDRESS, 4, &addr))
		return put_failed(msg);
	return send_msg(rt, msg, NULL, NULL);
}

int rtnl_default_route(struct genl *rt, int ifindex)
{
	struct rtmsg rtm = {
		.rtm_family = AF_INET,
		.rtm_table = RT_TABLE_MAIN,
		.rtm_protocol = RTPROT_BOOT,
		.rtm_scope = RT_SCOPE_LINK,
		.rtm_type = RTN_UNICAST,
	};
	struct nl_msg *msg;

	msg = nlmsg_alloc_simple(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
	if (!msg || nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO)) {
		nlmsg_free(msg);
		rtnl_err("out of memory");
		return -1;
	}
	if (nla_put_u32(msg, RTA_OIF, (uint32_t)ifindex))
		return put_failed(msg);
	return send_msg(rt, msg, NULL, NULL);
}
