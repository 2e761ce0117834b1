// SPDX-License-Identifier: GPL-2.0
/*
 * sd_notify() without libsystemd (see notify.h).  No netlink: the unit
 * tests build it on the host.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "notify.h"

#define NOTIFY_MSG_MAX	1024

/* A decimal number that fits; -1 for anything else. */
static int parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (*end || errno)
		return -1;
	*v = x;
	return 0;
}

static void watchdog_init(struct notify *n)
{
	const char *pid = getenv("WATCHDOG_PID");
	uint64_t v;

	n->watchdog_usec = 0;
	if (pid && (parse_u64(pid, &v) || v != (uint64_t)getpid()))
		return;		/* meant for another process */
	if (!parse_u64(getenv("WATCHDOG_USEC"), &v))
		n->watchdog_usec = v;
}

/* The address of @name: a path, or '@' for an abstract name. */
static int notify_addr(const char *name, struct sockaddr_un *sa,
		       socklen_t *len)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if ((name[0] != '/' && name[0] != '@') || n < 2 ||
	    n > sizeof(sa->sun_path))
		return -EINVAL;
	if (name[0] == '/' && n == sizeof(sa->sun_path))
		return -EINVAL;		/* no room for the NUL */
	memcpy(sa->sun_path, name, n);
	if (name[0] == '@')
		sa->sun_path[0] = '\0';
	/* abstract: exactly the name's bytes; path: with its NUL */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			   (name[0] == '/'));
	return 0;
}

int notify_init(struct notify *n)
{
	const char *name = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t len;
	int err;

	n->fd = -1;
	watchdog_init(n);
	if (!name)
		return 0;
	err = notify_addr(name, &sa, &len);
	if (err)
		return err;
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (n->fd < 0)
		return -errno;
	if (connect(n->fd, (struct sockaddr *)&sa, len)) {
		err = -errno;
		close(n->fd);
		n->fd = -1;
		return err;
	}
	return 0;
}

int notify_send(const struct notify *n, const char *state)
{
	size_t len = strlen(state);
	ssize_t r;

	if (n->fd < 0)
		return 0;
	do {
		r = send(n->fd, state, len, MSG_NOSIGNAL);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return (size_t)r == len ? 0 : -EMSGSIZE;
}

int notify_sendf(const struct notify *n, const char *fmt, ...)
{
	char buf[NOTIFY_MSG_MAX];
	va_list ap;
	int len;

	if (n->fd < 0)
		return 0;
	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		return -EINVAL;
	return notify_send(n, buf);
}

uint64_t notify_watchdog_interval(const struct notify *n)
{
	return n->watchdog_usec / 2;
}

void notify_close(struct notify *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}
