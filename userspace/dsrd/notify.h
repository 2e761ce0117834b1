/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The systemd notification protocol (sd_notify(3)) without libsystemd:
 * datagrams of "VAR=value" lines to the AF_UNIX socket named by
 * $NOTIFY_SOCKET, a path or, with a leading '@', an abstract name.
 */
#ifndef DSRD_NOTIFY_H
#define DSRD_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct notify {
	int fd;			/* -1: not under a service manager */
	uint64_t watchdog_usec;	/* 0: no watchdog */
};

/*
 * Connect to $NOTIFY_SOCKET, if set (before entering another network
 * namespace: abstract names belong to one).  Reads $WATCHDOG_USEC, which
 * counts only if $WATCHDOG_PID is unset or our pid.  0, or -errno if
 * $NOTIFY_SOCKET is set and unusable (n is then disabled).
 */
int notify_init(struct notify *n);

/* Send @state ("READY=1\nSTATUS=..."); 0 (also when disabled) or -errno. */
int notify_send(const struct notify *n, const char *state);

/* printf() into a message, then notify_send(). */
int notify_sendf(const struct notify *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* How often to send WATCHDOG=1, microseconds: half the timeout; 0: never. */
uint64_t notify_watchdog_interval(const struct notify *n);

void notify_close(struct notify *n);

#endif /* DSRD_NOTIFY_H */
