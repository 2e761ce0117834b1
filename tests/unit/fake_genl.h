/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the stand-ins for the modules' generic netlink families
 * (fake_slice.c, fake_dsr.c) share, in fake_genl.c, built into each:
 * the family's resolution, the log of the requests, and the replies sent
 * to ahctl's port from a netlink socket of their own.
 *
 * Each stand-in describes its family in fake_family (FAKE_FAMILY()).
 * The helpers are hidden: preloaded, they must not stand in for a symbol
 * of the program.
 */
#ifndef FAKE_GENL_H
#define FAKE_GENL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#define FAKE_HIDDEN __attribute__((visibility("hidden")))

/* how a request's attribute is logged: " NAME=VALUE", a flag " NAME" */
struct fake_attr {
	const char *name;
	/* how its VALUE is: 's' a string ("(no NUL)" after it if it has
	 * none), 'F' a flag (no VALUE; "(not empty)" after NAME if it has
	 * a payload), any other the stand-in's log_value() knows */
	char type;
};

struct fake_family {
	const char *who;	/* "fake_dsr": its messages start with it */
	const char *name;	/* the family's, as genl_ctrl_resolve() wants it */
	int id;			/* the id genl_ctrl_resolve() gives it */
	/* $ENV "absent": the family is not there, as without the module */
	const char *absent_env;
	const char *log_env;	/* $ENV: the file the requests are logged to */
	const char *error_env;	/* $ENV "ERRNO:extack message": the answer */
	const char *const *cmd_names;	/* by command, for the log */
	size_t ncmds;
	const struct fake_attr *attrs;	/* by attribute: unnamed, "attrN" */
	size_t nattrs;
	/* logs the value of @a, of @type (not 's') */
	void (*log_value)(FILE *f, char type, const struct nlattr *a);
	/* after a request's attributes, if set: more of it (" sk=node") */
	void (*log_extra)(FILE *f, struct nl_sock *sk);
	/* a second family the stand-in answers too, if set (nl80211) */
	const struct fake_family *also;
};

/* the stand-in's family */
extern const struct fake_family fake_family FAKE_HIDDEN;

/*
 * fake_family, of the stand-in @who ("fake_dsr") for the family @name,
 * resolved to @id; @env is its variables' prefix ("FAKE_DSR": $FAKE_DSR,
 * $FAKE_DSR_LOG, $FAKE_DSR_ERROR), @cmds and @attrs its arrays; then any
 * other member (".also = &other")
 */
#define FAKE_FAMILY(who_, name_, id_, env_, cmds_, attrs_, log_value_, ...) \
	const struct fake_family fake_family = {			\
		.who = who_, .name = name_, .id = id_,			\
		.absent_env = env_, .log_env = env_ "_LOG",		\
		.error_env = env_ "_ERROR", .cmd_names = cmds_,		\
		.ncmds = sizeof(cmds_) / sizeof((cmds_)[0]),		\
		.attrs = attrs_,					\
		.nattrs = sizeof(attrs_) / sizeof((attrs_)[0]),		\
		.log_value = log_value_, __VA_ARGS__			\
	}

/*
 * nl_send_auto()'s first steps: @msg completed, its family checked (exit 99
 * if neither fake_family's nor its second one's), logged; its header.
 * Then, if fake_family's $error_env is set, that error is the answer: true.
 */
FAKE_HIDDEN struct nlmsghdr *fake_request(struct nl_sock *sk,
					  struct nl_msg *msg);
FAKE_HIDDEN int fake_env_error(struct nl_sock *sk,
			       const struct nlmsghdr *req);

/*
 * Send @len bytes at @buf to ahctl's socket @sk (exit 99 if it cannot),
 * from a socket of @sk's network namespace (ports are per namespace: a
 * socket ahctl made in a slice's namespace is not reached from ours).
 */
FAKE_HIDDEN void fake_deliver(struct nl_sock *sk, const void *buf,
			      size_t len);
/* fake_deliver() @msg, then free it */
FAKE_HIDDEN void fake_send_msg(struct nl_sock *sk, struct nl_msg *msg);
/* An NLMSG_ERROR: @err 0 is an ACK; @text, if any, the extack message. */
FAKE_HIDDEN void fake_send_error(struct nl_sock *sk,
				 const struct nlmsghdr *req, int err,
				 const char *text);
/* the NLMSG_DONE that ends a dump */
FAKE_HIDDEN void fake_send_done(struct nl_sock *sk, uint32_t seq);

/*
 * The inode of a network namespace (0 if it cannot be had): that of @sk
 * (SIOCGSKNS, else the thread's), of file descriptor @fd, of file @path
 */
FAKE_HIDDEN ino_t fake_sk_ns(struct nl_sock *sk);
FAKE_HIDDEN ino_t fake_fd_ns(int fd);
FAKE_HIDDEN ino_t fake_path_ns(const char *path);

#endif /* FAKE_GENL_H */
