/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink helpers on top of libnl-genl-3, for ahctl and dsrd.
 *
 * Every helper that fails prints a message to stderr ("PROG: ...", with
 * prog_name of util.h) and returns a negative value, so callers only map
 * that to their exit status.
 */
#ifndef AH_GENL_H
#define AH_GENL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

/* What a subcommand talks to. */
struct genl_family_desc {
	const char *name;	/* generic netlink family */
	uint8_t version;
	const char *module;	/* kernel module that provides it */
};

struct genl {
	struct nl_sock *sk;
	int family;
	const struct genl_family_desc *desc;
};

/* Called for each reply or notification; return 0, or < 0 to abort. */
typedef int (*genl_msg_cb)(struct nl_msg *msg, void *arg);

/*
 * A file descriptor (O_CLOEXEC) of network namespace @name, as "ip netns"
 * names it (/run/netns/NAME, else /var/run/netns/NAME), to enter or to
 * hand to the kernel; -1 (printed) if there is none.
 */
int genl_netns_open(const char *name);

/*
 * The same without a message: the file descriptor, or -errno (-EINVAL
 * for a name that cannot be one, else open()'s error for /run/netns).
 */
int genl_netns_try_open(const char *name);

/* Enter network namespace @name (/run/netns/NAME); 0 or -1 (printed). */
int genl_enter_netns(const char *name);

/*
 * Enter network namespace @netns (NULL: stay) the first time, connect and
 * resolve the family.  An unknown family is reported as "module not loaded".
 */
int genl_open(struct genl *g, const char *netns,
	      const struct genl_family_desc *desc);
/*
 * A socket of namespace @netns (NULL: ours) while the process stays where
 * it is; 0 or -1 (printed).
 */
int genl_open_in(struct genl *g, const char *netns,
		 const struct genl_family_desc *desc);
/* The same for the namespace of file descriptor @netns_fd (-1: ours). */
int genl_open_fd(struct genl *g, int netns_fd,
		 const struct genl_family_desc *desc);
void genl_close(struct genl *g);

/* A request for @cmd; @size 0 is the libnl default (one page). */
struct nl_msg *genl_new(struct genl *g, uint8_t cmd, int flags, size_t size);

/* Let the socket send a message of @bytes (may need CAP_NET_ADMIN). */
void genl_set_sndbuf(struct genl *g, size_t bytes);

/*
 * Send @msg (always freed) and wait for the ACK, or the end of a dump;
 * @cb sees every reply.  Returns 0, GENL_DUMP_INTR when the kernel flagged
 * the dump as inconsistent (nothing printed; the caller may retry), or -1
 * after printing the error (with the kernel's extack message; when the
 * kernel refused the request, errno is then its error).
 */
#define GENL_DUMP_INTR	1
int genl_request(struct genl *g, struct nl_msg *msg, genl_msg_cb cb,
		 void *arg);

/* What the kernel said when it refused a request */
#define GENL_EXTACK_MAX	512
struct genl_err {
	int error;			/* its errno; 0: not a refusal */
	char msg[GENL_EXTACK_MAX];	/* its extack message, "" for none */
};

/*
 * genl_request(), but a refusal by the kernel is left to the caller: -1
 * with @err->error and @err->msg, nothing printed.  Any other failure is
 * printed, with @err->error 0.
 */
int genl_request_err(struct genl *g, struct nl_msg *msg, genl_msg_cb cb,
		     void *arg, struct genl_err *err);

/* "strerror: extack message" of @err (without a message: strerror) */
const char *genl_err_str(const struct genl_err *err, char *buf, size_t size);

/* Join multicast group @group of the family. */
int genl_subscribe(struct genl *g, const char *group);

/* Pass notifications to @cb until SIGINT or SIGTERM; 0 then. */
int genl_listen(struct genl *g, genl_msg_cb cb, void *arg);

/*
 * Open the family in @netns, join @groups (NULL-terminated) and pass
 * notifications to @cb (whose arg is the struct genl) until SIGINT or
 * SIGTERM: 0 then, or -1.
 */
int genl_monitor(const char *netns, const struct genl_family_desc *desc,
		 const char *const *groups, genl_msg_cb cb);

/*
 * Parse a genl message of our family: command into @cmd, attributes into
 * @tb[0..@max] (unknown ones ignored).  -1 if it is not one of ours.
 */
int genl_parse(struct genl *g, struct nl_msg *msg, uint8_t *cmd,
	       struct nlattr **tb, int max);

/* Attribute getters that refuse attributes with too short a payload. */
static inline bool attr_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	*v = nla_get_u8(a);
	return true;
}

static inline bool attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	*v = nla_get_u32(a);
	return true;
}

static inline bool attr_u64(const struct nlattr *a, uint64_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	memcpy(v, nla_data(a), sizeof(*v));
	return true;
}

static inline bool attr_bin(const struct nlattr *a, void *buf, size_t len)
{
	if (!a || nla_len(a) < (int)len)
		return false;
	memcpy(buf, nla_data(a), len);
	return true;
}

static inline bool attr_str(const struct nlattr *a, char *buf, size_t size)
{
	if (!a)
		return false;
	nla_strlcpy(buf, a, size);
	return true;
}

#endif /* AH_GENL_H */
