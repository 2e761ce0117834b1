// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for userspace/dsrd/notify.c: the messages reach a datagram
 * socket named by $NOTIFY_SOCKET, a path or an abstract '@' name, and
 * $WATCHDOG_USEC / $WATCHDOG_PID are read as sd_watchdog_enabled() does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ktap.h"
#include "notify.h"

/* A listener bound to @name ("/path" or "@abstract"); -1 on failure. */
static int listener(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = strlen(name);
	socklen_t len;
	int fd;

	if (n >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, name, n);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	if (name[0] == '@')
		sa.sun_path[0] = '\0';
	else
		len++;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, len)) {
		ktap_diag("bind %s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The next datagram, within a second, must be @want. */
static bool expect(int fd, const char *want)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[1024];
	ssize_t n;

	if (poll(&p, 1, 1000) != 1) {
		ktap_diag("nothing received, expected '%s'", want);
		return false;
	}
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return false;
	buf[n] = '\0';
	if (strcmp(buf, want)) {
		ktap_diag("received '%s', expected '%s'", buf, want);
		return false;
	}
	return true;
}

static bool exchange(const char *name)
{
	struct notify n;
	int fd = listener(name);
	bool ok = false;

	if (fd < 0)
		return false;
	setenv("NOTIFY_SOCKET", name, 1);
	if (notify_init(&n)) {
		ktap_diag("notify_init failed");
		goto out;
	}
	CHECK(n.fd >= 0);
	CHECK(!notify_send(&n, "READY=1"));
	CHECK(expect(fd, "READY=1"));
	CHECK(!notify_sendf(&n, "READY=1\nSTATUS=%s up, %d interfaces",
			    "dsr0", 2));
	CHECK(expect(fd, "READY=1\nSTATUS=dsr0 up, 2 interfaces"));
	CHECK(!notify_send(&n, "WATCHDOG=1"));
	CHECK(expect(fd, "WATCHDOG=1"));
	CHECK(!notify_send(&n, "STOPPING=1"));
	CHECK(expect(fd, "STOPPING=1"));
	ok = true;
out:
	notify_close(&n);
	close(fd);
	unsetenv("NOTIFY_SOCKET");
	return ok;
}

static bool t_path(void)
{
	char dir[] = "/tmp/dsrd-notify-XXXXXX", path[128];
	bool ok;

	if (!mkdtemp(dir))
		return false;
	snprintf(path, sizeof(path), "%s/notify", dir);
	ok = exchange(path);
	unlink(path);
	rmdir(dir);
	return ok;
}

static bool t_abstract(void)
{
	char name[64];

	snprintf(name, sizeof(name), "@dsrd-test-%d-%d", (int)getpid(),
		 rand());
	return exchange(name);
}

static bool t_unset(void)
{
	struct notify n;

	unsetenv("NOTIFY_SOCKET");
	CHECK(!notify_init(&n));
	CHECK_EQ(n.fd, -1);
	CHECK(!notify_send(&n, "READY=1"));
	notify_close(&n);
	return true;
}

static bool t_bad(void)
{
	struct notify n;

	setenv("NOTIFY_SOCKET", "relative/path", 1);
	CHECK_EQ(notify_init(&n), -EINVAL);
	CHECK_EQ(n.fd, -1);
	setenv("NOTIFY_SOCKET", "/nonexistent/notify", 1);
	CHECK_EQ(notify_init(&n), -ENOENT);
	CHECK_EQ(n.fd, -1);
	unsetenv("NOTIFY_SOCKET");
	return true;
}

static uint64_t wd(const char *usec, const char *pid)
{
	struct notify n;

	if (usec)
		setenv("WATCHDOG_USEC", usec, 1);
	else
		unsetenv("WATCHDOG_USEC");
	if (pid)
		setenv("WATCHDOG_PID", pid, 1);
	else
		unsetenv("WATCHDOG_PID");
	unsetenv("NOTIFY_SOCKET");
	notify_init(&n);
	notify_close(&n);
	return notify_watchdog_interval(&n);
}

static bool t_watchdog(void)
{
	char me[32], other[32];

	snprintf(me, sizeof(me), "%d", (int)getpid());
	snprintf(other, sizeof(other), "%d", (int)getpid() + 1);
	CHECK_EQ(wd(NULL, NULL), 0);
	CHECK_EQ(wd("30000000", NULL), 15000000);
	CHECK_EQ(wd("30000000", me), 15000000);
	CHECK_EQ(wd("30000000", other), 0);
	CHECK_EQ(wd("30000000", "x"), 0);
	CHECK_EQ(wd("3s", NULL), 0);
	CHECK_EQ(wd("", NULL), 0);
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	return true;
}

static const struct ktap_case cases[] = {
	{ "a path socket gets READY=1, STATUS=, WATCHDOG=1, STOPPING=1",
	  t_path },
	{ "an abstract '@' socket gets them too", t_abstract },
	{ "no NOTIFY_SOCKET: sending does nothing", t_unset },
	{ "a bad NOTIFY_SOCKET is an error", t_bad },
	{ "WATCHDOG_USEC and WATCHDOG_PID", t_watchdog },
};

int main(void)
{
	srand((unsigned int)getpid());
	return ktap_main(cases, ARRAY_SIZE(cases));
}
