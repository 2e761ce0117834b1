// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink plumbing of ahctl and dsrd: namespaces, family lookup,
 * request/ACK with extended ACK messages, dumps and notifications.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "genl.h"
#include "util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define EXTACK_MSG_MAX	GENL_EXTACK_MAX

/* State of one request while its replies come in. */
struct request {
	genl_msg_cb cb;
	void *arg;
	bool done;
	bool intr;		/* NLM_F_DUMP_INTR seen */
	bool cb_failed;
	uint32_t seq;		/* of the request */
	int error;		/* errno reported by the kernel */
	char ext[EXTACK_MSG_MAX];
};

const char *prog_name = "ah";

/* "PROG: message" on a line of standard error */
static void __attribute__((format(printf, 1, 2))) pr_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void oom(void)
{
	pr_err("out of memory");
}

/* ---- network namespace ------------------------------------------------- */

/* a name of a file in /run/netns */
static bool netns_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

int genl_netns_try_open(const char *name)
{
	static const char *const dirs[] = { "/run/netns", "/var/run/netns" };
	char path[PATH_MAX];
	int fd = -1, err = 0;
	size_t i;

	if (!netns_name_ok(name))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(dirs) && fd < 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && !err)
			err = errno;
	}
	return fd < 0 ? -err : fd;
}

int genl_netns_open(const char *name)
{
	int fd;

	if (!netns_name_ok(name)) {
		pr_err("invalid network namespace name '%s'", name);
		return -1;
	}
	fd = genl_netns_try_open(name);
	if (fd < 0) {
		pr_err("cannot open network namespace \"%s\": %s",
		       name, strerror(-fd));
		return -1;
	}
	return fd;
}

int genl_enter_netns(const char *name)
{
	int fd = genl_netns_open(name);

	if (fd < 0)
		return -1;
	if (setns(fd, CLONE_NEWNET)) {
		pr_err("cannot enter network namespace \"%s\": %s",
		       name, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* ---- socket and family ------------------------------------------------- */

static void set_flag(struct nl_sock *sk, int opt)
{
	int one = 1;

	/* Older kernels lack some options; errors then just lose detail. */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, opt, &one, sizeof(one));
}

int genl_open(struct genl *g, const char *netns,
	      const struct genl_family_desc *desc)
{
	static bool in_netns;
	int err;

	memset(g, 0, sizeof(*g));
	g->desc = desc;
	if (netns && !in_netns) {
		if (genl_enter_netns(netns))
			return -1;
		in_netns = true;
	}
	g->sk = nl_socket_alloc();
	if (!g->sk) {
		oom();
		return -1;
	}
	err = genl_connect(g->sk);
	if (err < 0) {
		pr_err("cannot open a generic netlink socket: %s",
		       nl_geterror(err));
		goto fail;
	}
	set_flag(g->sk, NETLINK_EXT_ACK);
	set_flag(g->sk, NETLINK_CAP_ACK);
	nl_socket_enable_msg_peek(g->sk);

	g->family = genl_ctrl_resolve(g->sk, desc->name);
	if (g->family == -NLE_OBJ_NOTFOUND) {
		pr_err("%s: kernel module not loaded (modprobe %s)",
		       desc->name, desc->module);
		goto fail;
	}
	if (g->family < 0) {
		pr_err("%s: cannot resolve the generic netlink family: %s",
		       desc->name, nl_geterror(g->family));
		goto fail;
	}
	return 0;

fail:
	genl_close(g);
	return -1;
}

/*
 * Like genl_open, but the socket is made in @netns (NULL: ours) and the
 * process stays in its own namespace: one process may hold sockets of many
 * namespaces (a netlink socket belongs to the namespace it was made in).
 */
int genl_open_in(struct genl *g, const char *netns,
		 const struct genl_family_desc *desc)
{
	int fd, ret;

	if (!netns)
		return genl_open(g, NULL, desc);
	fd = genl_netns_open(netns);
	if (fd < 0)
		return -1;
	ret = genl_open_fd(g, fd, desc);
	close(fd);
	return ret;
}

int genl_open_fd(struct genl *g, int netns_fd,
		 const struct genl_family_desc *desc)
{
	int own, ret = -1;

	if (netns_fd < 0)
		return genl_open(g, NULL, desc);
	memset(g, 0, sizeof(*g));
	own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (own < 0) {
		pr_err("cannot open /proc/self/ns/net: %s", strerror(errno));
		return -1;
	}
	if (setns(netns_fd, CLONE_NEWNET))
		pr_err("cannot enter a network namespace: %s",
		       strerror(errno));
	else
		ret = genl_open(g, NULL, desc);
	if (setns(own, CLONE_NEWNET)) {
		pr_err("cannot return to the first network namespace: %s",
		       strerror(errno));
		if (!ret)
			genl_close(g);
		ret = -1;
	}
	close(own);
	return ret;
}

void genl_close(struct genl *g)
{
	if (g->sk)
		nl_socket_free(g->sk);
	g->sk = NULL;
}

struct nl_msg *genl_new(struct genl *g, uint8_t cmd, int flags, size_t size)
{
	struct nl_msg *msg;

	msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();
	if (!msg) {
		oom();
		return NULL;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, g->family, 0, flags,
			 cmd, g->desc->version)) {
		oom();
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

void genl_set_sndbuf(struct genl *g, size_t bytes)
{
	int fd = nl_socket_get_fd(g->sk);
	int v = bytes > INT_MAX / 2 ? INT_MAX / 2 : (int)bytes;

	/* FORCE ignores net.core.wmem_max but needs CAP_NET_ADMIN. */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
}

/* ---- replies ------------------------------------------------------------ */

/*
 * Extended ACK attributes follow the fixed part of an NLMSG_ERROR or
 * NLMSG_DONE payload, @hlen bytes long; copy out the message, if any.
 */
static void extack_msg(const struct nlmsghdr *nlh, size_t hlen,
		       char *buf, size_t size)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t plen;

	buf[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlh->nlmsg_len < NLMSG_HDRLEN)
		return;
	plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	hlen = NLMSG_ALIGN(hlen);
	if (hlen >= plen)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlmsg_data(nlh) + hlen),
		      (int)(plen - hlen), NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(buf, tb[NLMSGERR_ATTR_MSG], size);
}

/* Size of struct nlmsgerr plus the echoed request, unless capped. */
static size_t nlmsgerr_len(const struct nlmsghdr *nlh,
			   const struct nlmsgerr *e)
{
	size_t hlen = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= NLMSG_HDRLEN)
		hlen += e->msg.nlmsg_len - NLMSG_HDRLEN;
	return hlen;
}

static int err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	/* libnl passes the payload; the header sits right in front of it. */
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct request *r = arg;

	(void)nla;
	r->error = e->error < 0 ? -e->error : e->error;
	extack_msg(nlh, nlmsgerr_len(nlh, e), r->ext, sizeof(r->ext));
	r->done = true;
	return NL_STOP;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const struct nlmsgerr *e = nlmsg_data(nlh);
	struct request *r = arg;

	/* A message on success is a warning. */
	extack_msg(nlh, nlmsgerr_len(nlh, e), r->ext, sizeof(r->ext));
	if (r->ext[0])
		pr_err("warning: %s", r->ext);
	r->done = true;
	return NL_STOP;
}

/* End of a dump: the payload is an int, a negative errno on failure. */
static int finish_cb(struct nl_msg *msg, void *arg)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct request *r = arg;
	int err = 0;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
	if (err < 0) {
		r->error = -err;
		extack_msg(nlh, sizeof(err), r->ext, sizeof(r->ext));
	}
	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		r->intr = true;
	r->done = true;
	return NL_STOP;
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;

	if (nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR)
		r->intr = true;
	if (r->cb && r->cb(msg, r->arg) < 0) {
		r->cb_failed = true;
		return NL_STOP;
	}
	return NL_OK;
}

static int ok_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/* Skip leftovers of an earlier request instead of failing on them. */
static int seq_cb(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == r->seq ? NL_OK : NL_SKIP;
}

static void kernel_error(int err, const char *ext)
{
	if (ext[0])
		pr_err("%s: %s", strerror(err), ext);
	else
		pr_err("%s", strerror(err));
}

static struct nl_cb *request_cb(struct request *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);

	if (!cb) {
		oom();
		return NULL;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, err_cb, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_cb, r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, r);
	/* Seen in valid_cb; keep libnl from failing the whole dump. */
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, ok_cb, r);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_cb, r);
	return cb;
}

static int send_request(struct genl *g, struct nl_msg *msg, uint32_t *seq)
{
	unsigned int len = nlmsg_hdr(msg)->nlmsg_len;
	int err;

	errno = 0;
	err = nl_send_auto(g->sk, msg);
	/* libnl maps EMSGSIZE to an unspecific error; look at errno. */
	if (err < 0 && errno == EMSGSIZE)
		err = -NLE_MSGSIZE;
	*seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (err == -NLE_MSGSIZE) {
		pr_err("request of %u bytes is too large for the netlink socket (%s); raise net.core.wmem_max or run with CAP_NET_ADMIN",
		       len, strerror(EMSGSIZE));
		return -1;
	}
	if (err < 0) {
		pr_err("cannot send request: %s", nl_geterror(err));
		return -1;
	}
	return 0;
}

/* @quiet: the kernel's refusal there, not printed; NULL: printed */
static int request_run(struct genl *g, struct nl_msg *msg, genl_msg_cb cb,
		       void *arg, struct genl_err *quiet)
{
	struct request r = { .cb = cb, .arg = arg };
	struct nl_cb *nlcb;
	int err;

	nlcb = request_cb(&r);
	if (!nlcb) {
		nlmsg_free(msg);
		return -1;
	}
	if (send_request(g, msg, &r.seq)) {
		nl_cb_put(nlcb);
		return -1;
	}
	while (!r.done && !r.cb_failed) {
		err = nl_recvmsgs(g->sk, nlcb);
		if (r.done || r.cb_failed)
			break;
		if (err < 0) {
			pr_err("netlink: %s", nl_geterror(err));
			nl_cb_put(nlcb);
			return -1;
		}
	}
	nl_cb_put(nlcb);
	if (r.error) {
		if (quiet) {
			quiet->error = r.error;
			memcpy(quiet->msg, r.ext, sizeof(quiet->msg));
		} else {
			kernel_error(r.error, r.ext);
		}
		errno = r.error;
		return -1;
	}
	if (r.cb_failed)
		return -1;
	return r.intr ? GENL_DUMP_INTR : 0;
}

int genl_request(struct genl *g, struct nl_msg *msg, genl_msg_cb cb,
		 void *arg)
{
	return request_run(g, msg, cb, arg, NULL);
}

int genl_request_err(struct genl *g, struct nl_msg *msg, genl_msg_cb cb,
		     void *arg, struct genl_err *err)
{
	err->error = 0;
	err->msg[0] = '\0';
	return request_run(g, msg, cb, arg, err);
}

const char *genl_err_str(const struct genl_err *err, char *buf, size_t size)
{
	if (err->msg[0])
		snprintf(buf, size, "%s: %s", strerror(err->error), err->msg);
	else
		snprintf(buf, size, "%s", strerror(err->error));
	return buf;
}

/* ---- notifications ---------------------------------------------------- */

int genl_subscribe(struct genl *g, const char *group)
{
	int grp, err;

	grp = genl_ctrl_resolve_grp(g->sk, g->desc->name, group);
	if (grp < 0) {
		pr_err("%s: no multicast group \"%s\": %s",
		       g->desc->name, group, nl_geterror(grp));
		return -1;
	}
	err = nl_socket_add_membership(g->sk, grp);
	if (err < 0) {
		pr_err("%s: cannot join multicast group \"%s\": %s",
		       g->desc->name, group, nl_geterror(err));
		return -1;
	}
	/* Notifications carry sequence number 0. */
	nl_socket_disable_seq_check(g->sk);
	return 0;
}

static volatile sig_atomic_t stop_listening;

static void on_signal(int sig)
{
	(void)sig;
	stop_listening = 1;
}

/*
 * Handle SIGINT/SIGTERM, blocked except while waiting in ppoll(), so a
 * signal cannot slip in between the check of the flag and the wait.
 */
static void signals_setup(sigset_t *orig, sigset_t *wait_mask)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, orig);
	*wait_mask = *orig;
	sigdelset(wait_mask, SIGINT);
	sigdelset(wait_mask, SIGTERM);
}

static int listen_loop(struct genl *g, struct nl_cb *nlcb, struct request *r,
		       const sigset_t *wait_mask)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(g->sk), .events = POLLIN };
	int err;

	while (!stop_listening) {
		if (ppoll(&pfd, 1, NULL, wait_mask) < 0) {
			if (errno == EINTR)
				continue;
			pr_err("poll: %s", strerror(errno));
			return -1;
		}
		err = nl_recvmsgs(g->sk, nlcb);
		if (r->cb_failed)
			return -1;
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the receive queue overflowed */
			pr_err("warning: notifications were lost (receive buffer overrun)");
		} else if (err < 0 && err != -NLE_AGAIN) {
			pr_err("netlink: %s", nl_geterror(err));
			return -1;
		}
	}
	return 0;
}

int genl_listen(struct genl *g, genl_msg_cb cb, void *arg)
{
	struct request r = { .cb = cb, .arg = arg };
	sigset_t orig, wait_mask;
	struct nl_cb *nlcb;
	int ret;

	nlcb = nl_cb_alloc(NL_CB_CUSTOM);
	if (!nlcb) {
		oom();
		return -1;
	}
	nl_cb_set(nlcb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, &r);
	nl_cb_set(nlcb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, ok_cb, NULL);
	nl_socket_set_nonblocking(g->sk);
	signals_setup(&orig, &wait_mask);
	ret = listen_loop(g, nlcb, &r, &wait_mask);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	nl_cb_put(nlcb);
	return ret;
}

int genl_monitor(const char *netns, const struct genl_family_desc *desc,
		 const char *const *groups, genl_msg_cb cb)
{
	struct genl g;
	int ret = -1;

	if (genl_open(&g, netns, desc))
		return -1;
	for (; *groups; groups++)
		if (genl_subscribe(&g, *groups))
			goto out;
	ret = genl_listen(&g, cb, &g);
out:
	genl_close(&g);
	return ret;
}

int genl_parse(struct genl *g, struct nl_msg *msg, uint8_t *cmd,
	       struct nlattr **tb, int max)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh;

	if (nlh->nlmsg_type != g->family || !genlmsg_valid_hdr(nlh, 0))
		return -1;
	gh = nlmsg_data(nlh);
	*cmd = gh->cmd;
	if (genlmsg_parse(nlh, 0, tb, max, NULL) < 0)
		return -1;
	return 0;
}
