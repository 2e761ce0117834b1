// SPDX-License-Identifier: GPL-2.0
/*
 * The part the stand-ins for the modules' generic netlink families share
 * (fake_genl.h): built into fake_slice.so and fake_dsr.so, each with its
 * fake_family.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/sockios.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>

#include "fake_genl.h"

static int resolve(const struct fake_family *fam, const char *name)
{
	const char *s = getenv(fam->absent_env);

	if (strcmp(name, fam->name) || (s && !strcmp(s, "absent")))
		return -NLE_OBJ_NOTFOUND;
	return fam->id;
}

int genl_ctrl_resolve(struct nl_sock *sk, const char *name)
{
	int id = resolve(&fake_family, name);

	(void)sk;
	if (id < 0 && fake_family.also)
		id = resolve(fake_family.also, name);
	return id;
}

/* ---- the log of requests ----------------------------------------------- */

static void log_attr(const struct fake_family *fam, FILE *f,
		     const struct nlattr *a)
{
	size_t id = nla_type(a);
	int len = nla_len(a);

	if (id >= fam->nattrs || !fam->attrs[id].name) {
		fprintf(f, " attr%zu", id);
		return;
	}
	if (fam->attrs[id].type == 'F') {
		fprintf(f, " %s%s", fam->attrs[id].name,
			len ? "(not empty)" : "");
		return;
	}
	fprintf(f, " %s=", fam->attrs[id].name);
	if (fam->attrs[id].type != 's')
		fam->log_value(f, fam->attrs[id].type, a);
	else
		fprintf(f, "%.*s%s", len, (const char *)nla_data(a),
			len && !((const char *)nla_data(a))[len - 1] ?
			"" : "(no NUL)");
}

static void log_request(const struct fake_family *fam, struct nl_sock *sk,
			struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	const char *path = getenv(fam->log_env);
	struct nlattr *a;
	FILE *f;
	int rem;

	f = path ? fopen(path, "a") : stderr;
	if (!f)
		return;
	fprintf(f, "%s flags=%s v%u",
		gh->cmd < fam->ncmds && fam->cmd_names[gh->cmd] ?
		fam->cmd_names[gh->cmd] : "unknown",
		nlh->nlmsg_flags & NLM_F_DUMP ? "dump" : "0", gh->version);
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem)
		log_attr(fam, f, a);
	if (fam->log_extra)
		fam->log_extra(f, sk);
	fputc('\n', f);
	if (f != stderr)
		fclose(f);
}

struct nlmsghdr *fake_request(struct nl_sock *sk, struct nl_msg *msg)
{
	const struct fake_family *fam = &fake_family;
	struct nlmsghdr *nlh;

	nl_complete_msg(sk, msg);
	nlh = nlmsg_hdr(msg);
	if (nlh->nlmsg_type != fam->id && fam->also &&
	    nlh->nlmsg_type == fam->also->id)
		fam = fam->also;
	if (nlh->nlmsg_type != fam->id) {
		fprintf(stderr, "%s: a request of family %u\n", fake_family.who,
			nlh->nlmsg_type);
		exit(99);
	}
	log_request(fam, sk, msg);
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

/* ---- network namespaces ------------------------------------------------ */

ino_t fake_fd_ns(int fd)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) ? st.st_ino : 0;
}

ino_t fake_path_ns(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) ? st.st_ino : 0;
}

/* a file descriptor of @sk's namespace (needs CAP_NET_ADMIN there), or -1 */
static int sk_ns_fd(struct nl_sock *sk)
{
	return ioctl(nl_socket_get_fd(sk), SIOCGSKNS);
}

ino_t fake_sk_ns(struct nl_sock *sk)
{
	int fd = sk_ns_fd(sk);
	ino_t ino;

	if (fd < 0)
		return fake_path_ns("/proc/thread-self/ns/net");
	ino = fake_fd_ns(fd);
	close(fd);
	return ino;
}

/* ---- replies ------------------------------------------------------------ */

/*
 * A socket to send from, in @sk's namespace: made there once (entering
 * it for a moment), kept for the next reply.  Where the namespace cannot
 * be had (not root), one of ours, as before.
 */
#define SENDERS_MAX	8

static int sender(struct nl_sock *sk)
{
	static struct {
		ino_t ino;
		int fd;
	} made[SENDERS_MAX];
	static size_t n;
	int ns = sk_ns_fd(sk), own = -1, fd;
	ino_t ino = fake_fd_ns(ns);
	size_t i;

	for (i = 0; i < n; i++)
		if (made[i].ino == ino) {
			if (ns >= 0)
				close(ns);
			return made[i].fd;
		}
	if (ns >= 0) {
		own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (own < 0 || setns(ns, CLONE_NEWNET)) {
			if (own >= 0)
				close(own);
			own = -1;
		}
		close(ns);
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (own >= 0) {
		if (setns(own, CLONE_NEWNET)) {
			fprintf(stderr, "%s: cannot return to our namespace\n",
				fake_family.who);
			exit(99);
		}
		close(own);
	}
	if (fd >= 0 && n < SENDERS_MAX) {
		made[n].ino = ino;
		made[n++].fd = fd;
	}
	return fd;
}

void fake_deliver(struct nl_sock *sk, const void *buf, size_t len)
{
	struct sockaddr_nl to = {
		.nl_family = AF_NETLINK,
		.nl_pid = nl_socket_get_local_port(sk),
	};
	int fd = sender(sk);

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
