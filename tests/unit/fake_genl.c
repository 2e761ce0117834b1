// SPDX-License-Identifier: GPL-2.0
/*
 * The part the stand-ins for the modules' generic netlink families share
 * (fake_genl.h): built into fake_slice.so and fake_dsr.so, each with its
 * fake_family.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>

#include "fake_genl.h"

int genl_ctrl_resolve(struct nl_sock *sk, const char *name)
{
	const char *s = getenv(fake_family.absent_env);

	(void)sk;
	if (strcmp(name, fake_family.name) || (s && !strcmp(s, "absent")))
		return -NLE_OBJ_NOTFOUND;
	return fake_family.id;
}

/* ---- the log of requests ----------------------------------------------- */

static void log_attr(FILE *f, const struct nlattr *a)
{
	size_t id = nla_type(a);
	int len = nla_len(a);

	if (id >= fake_family.nattrs || !fake_family.attrs[id].name) {
		fprintf(f, " attr%zu", id);
		return;
	}
	fprintf(f, " %s=", fake_family.attrs[id].name);
	if (fake_family.attrs[id].type != 's')
		fake_family.log_value(f, fake_family.attrs[id].type, a);
	else
		fprintf(f, "%.*s%s", len, (const char *)nla_data(a),
			len && !((const char *)nla_data(a))[len - 1] ?
			"" : "(no NUL)");
}

static void log_request(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	const char *path = getenv(fake_family.log_env);
	struct nlattr *a;
	FILE *f;
	int rem;

	f = path ? fopen(path, "a") : stderr;
	if (!f)
		return;
	fprintf(f, "%s flags=%s v%u",
		gh->cmd < fake_family.ncmds && fake_family.cmd_names[gh->cmd] ?
		fake_family.cmd_names[gh->cmd] : "unknown",
		nlh->nlmsg_flags & NLM_F_DUMP ? "dump" : "0", gh->version);
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem)
		log_attr(f, a);
	fputc('\n', f);
	if (f != stderr)
		fclose(f);
}

struct nlmsghdr *fake_request(struct nl_sock *sk, struct nl_msg *msg)
{
	struct nlmsghdr *nlh;

	nl_complete_msg(sk, msg);
	nlh = nlmsg_hdr(msg);
	if (nlh->nlmsg_type != fake_family.id) {
		fprintf(stderr, "%s: a request of family %u\n", fake_family.who,
			nlh->nlmsg_type);
		exit(99);
	}
	log_request(msg);
	return nlh;
}

int fake_env_error(struct nl_sock *sk, const struct nlmsghdr *req)
{
	const char *e = getenv(fake_family.error_env);

	if (!e || !*e)
		return 0;
	fake_send_error(sk, req, atoi(e), strchr(e, ':') ?
			strchr(e, ':') + 1 : NULL);
	return 1;
}

/* ---- replies ------------------------------------------------------------ */

void fake_deliver(struct nl_sock *sk, const void *buf, size_t len)
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
		fprintf(stderr, "%s: send: %s\n", fake_family.who,
			strerror(errno));
		exit(99);
	}
}

void fake_send_msg(struct nl_sock *sk, struct nl_msg *msg)
{
	fake_deliver(sk, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
}

void fake_send_error(struct nl_sock *sk, const struct nlmsghdr *req, int err,
		     const char *text)
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
	fake_deliver(sk, &m, m.nlh.nlmsg_len);
}

void fake_send_done(struct nl_sock *sk, uint32_t seq)
{
	struct {
		struct nlmsghdr nlh;
		int err;
	} m = {
		.nlh = { .nlmsg_len = sizeof(m), .nlmsg_type = NLMSG_DONE,
			 .nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = seq },
	};

	fake_deliver(sk, &m, sizeof(m));
}
