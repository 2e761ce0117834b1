// SPDX-License-Identifier: GPL-2.0
/*
 * dsrd: set up a node of a DSR ad hoc network from a config file (dsr0,
 * its interfaces and address, the DSR parameters, macfilter, transit,
 * the multicast streams its receivers join, the leases of interfaces to
 * slices), log the modules' notifications and
 * counters, apply a changed config on SIGHUP, undo it all on SIGTERM
 * (the leases aside: they run on).  See docs/dsrd.8 and docs/dsrd.conf.5.
 *
 *	dsrd [-c FILE] [-n|--check] [-f] [-N NETNS] [-V] [-h]
 *
 * One thread, one poll() loop: a signalfd, one notification socket per
 * family, and two deadlines (stats, systemd watchdog).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <netlink/socket.h>

#include "daemon.h"
#include "dsrd.h"
#include "genl.h"
#include "log.h"
#include "parse.h"

#define DEFAULT_CONF	"/etc/dsrd/dsrd.conf"
#define ERR_MAX		1024

struct options {
	const char *conf_path;
	const char *netns;
	bool check;
	bool foreground;
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: " DSRD_NAME " [OPTIONS]\n\n"
		"Set up this node's DSR device from a config file and keep it.\n\n"
		"Options:\n"
		"  -c, --config FILE    config file (default " DEFAULT_CONF ")\n"
		"  -n, --check          check the config file and exit\n"
		"  -f, --foreground     do not go to the background\n"
		"  -N, --netns NETNS    run in network namespace NETNS\n"
		"  -V, --version        print the version and exit\n"
		"  -h, --help           print this help and exit\n\n"
		"Exit status: 0 ok, 1 runtime error, 2 invalid config or usage,\n"
		"3 a kernel module is not loaded.\n");
}

/* -1: go on; else the exit status */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'n' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "netns", required_argument, NULL, 'N' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->conf_path = DEFAULT_CONF;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:nfN:Vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->conf_path = optarg;
			break;
		case 'n':
			o->check = true;
			break;
		case 'f':
			o->foreground = true;
			break;
		case 'N':
			o->netns = optarg;
			break;
		case 'V':
			printf(DSRD_NAME " " DSRD_VERSION "\n");
			return DSRD_EXIT_OK;
		case 'h':
			usage(stdout);
			return DSRD_EXIT_OK;
		default:
			getopt_complain(DSRD_NAME, argv, "cN");
			usage(stderr);
			return DSRD_EXIT_CONF;
		}
	}
	if (optind < argc) {
		fprintf(stderr, DSRD_NAME ": unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return DSRD_EXIT_CONF;
	}
	return -1;
}

/* A config from @path, or NULL with the error printed. */
static struct conf *conf_read(const char *path)
{
	struct conf *c = malloc(sizeof(*c));
	char err[ERR_MAX];

	if (!c) {
		log_err("out of memory");
		return NULL;
	}
	conf_init(c);
	if (conf_load(c, path, err, sizeof(err))) {
		log_err("%s", err);
		conf_free(c);
		free(c);
		return NULL;
	}
	return c;
}

static void conf_release(struct conf *c)
{
	if (!c)
		return;
	conf_free(c);
	free(c);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- systemd ------------------------------------------------------------- */

static void notify_status(struct dsrd *d, const char *state)
{
	char a[INET_ADDRSTRLEN];
	struct in_addr in = { .s_addr = d->addr };

	inet_ntop(AF_INET, &in, a, sizeof(a));
	notify_sendf(&d->notify, "%sSTATUS=%s up, %s/%u, %zu interfaces, macfilter on %zu, transit on %zu, %zu leased to slices",
		     state, d->device, a, d->prefix, d->nslaves, d->nmf,
		     d->ntr, d->nsl);
}

/* ---- reload -------------------------------------------------------------- */

static void reload(struct dsrd *d)
{
	struct timespec ts;
	struct conf *c;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	notify_sendf(&d->notify, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=reloading %s",
		     (unsigned long long)ts.tv_sec * 1000000ULL +
		     (unsigned long long)ts.tv_nsec / 1000, d->conf_path);
	log_info("SIGHUP: reading %s", d->conf_path);
	c = conf_read(d->conf_path);
	r = c ? apply_reload(d, c) : -1;
	if (r < 0) {
		log_err("reload rejected; nothing changed");
		conf_release(c);
	} else {
		if (logs_open(d, c))
			log_err("the log files stay as they were");
		conf_release(d->conf);
		d->conf = c;
		if (r)
			log_err("reload: %d of the changes failed (logged above)",
				r);
		else
			log_info("reload: done");
	}
	notify_status(d, "READY=1\n");
}

/* ---- the loop ------------------------------------------------------------ */

struct loop {
	int sfd;
	uint64_t next_stats;	/* 0: no stats */
	unsigned int stats_interval;
	uint64_t wd_ms;		/* 0: no watchdog */
	uint64_t next_wd;
};

static void stats_schedule(struct dsrd *d, struct loop *l, uint64_t now)
{
	unsigned int iv = d->conf->log.stats_interval;

	if (iv == l->stats_interval && (l->next_stats || !iv))
		return;
	l->stats_interval = iv;
	l->next_stats = iv ? now + (uint64_t)iv * 1000 : 0;
}

static int poll_timeout(const struct loop *l, uint64_t now)
{
	uint64_t next = 0;

	if (l->next_stats)
		next = l->next_stats;
	if (l->wd_ms && (!next || l->next_wd < next))
		next = l->next_wd;
	if (!next)
		return -1;
	return next <= now ? 0 : (int)(next - now < 86400000 ? next - now :
				       86400000);
}

static void timers(struct dsrd *d, struct loop *l)
{
	uint64_t now = now_ms();

	if (l->next_stats && now >= l->next_stats) {
		stats_write(d);
		l->next_stats += (uint64_t)l->stats_interval * 1000;
		if (l->next_stats <= now)	/* fell behind: skip */
			l->next_stats = now +
					(uint64_t)l->stats_interval * 1000;
	}
	if (l->wd_ms && now >= l->next_wd) {
		notify_send(&d->notify, "WATCHDOG=1");
		l->next_wd = now + l->wd_ms;
	}
}

/* 1: stop, 0: go on */
static int signals(struct dsrd *d, struct loop *l)
{
	struct signalfd_siginfo si;
	ssize_t n;

	for (;;) {
		n = read(l->sfd, &si, sizeof(si));
		if (n != (ssize_t)sizeof(si))
			return 0;
		if (si.ssi_signo == SIGHUP) {
			reload(d);
			stats_schedule(d, l, now_ms());
			continue;
		}
		log_info("%s: stopping", strsignal((int)si.ssi_signo));
		return 1;
	}
}

static int run(struct dsrd *d, struct loop *l)
{
	struct pollfd pfd[1 + __FAM_MAX];
	struct fam *owner[1 + __FAM_MAX];
	int id, n, i;

	for (;;) {
		memset(pfd, 0, sizeof(pfd));
		n = 0;
		pfd[n].fd = l->sfd;
		pfd[n++].events = POLLIN;
		for (id = 0; id < __FAM_MAX; id++) {
			if (!d->fam[id].ev.sk)
				continue;
			owner[n] = &d->fam[id];
			pfd[n].fd = nl_socket_get_fd(d->fam[id].ev.sk);
			pfd[n++].events = POLLIN;
		}
		if (poll(pfd, (nfds_t)n, poll_timeout(l, now_ms())) < 0 &&
		    errno != EINTR) {
			log_err("poll: %s", strerror(errno));
			return -1;
		}
		if ((pfd[0].revents & POLLIN) && signals(d, l))
			return 0;
		for (i = 1; i < n; i++)
			if (pfd[i].revents)
				events_read(d, owner[i]);
		timers(d, l);
	}
}

/* ---- start and stop ------------------------------------------------------ */

static int signals_block(void)
{
	sigset_t set;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		log_err("signalfd: %s", strerror(errno));
	return fd;
}

/*
 * Not under a service manager and not -f: the parent exits once all is
 * set up (so its exit status says whether it was), the child stays.
 */
static int background(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0) {
		log_err("fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0)
		_exit(DSRD_EXIT_OK);
	setsid();
	if (chdir("/"))
		return -1;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	return log_to_syslog();
}

static int subscribe_all(struct dsrd *d)
{
	int id;

	for (id = 0; id < __FAM_MAX; id++)
		if (d->fam[id].present && events_subscribe(d, &d->fam[id]))
			return -1;
	return 0;
}

static int start(struct dsrd *d, const struct options *o, struct loop *l)
{
	int err, ret;

	err = notify_init(&d->notify);
	if (err)
		log_warn("NOTIFY_SOCKET: %s; not notifying", strerror(-err));
	if (o->netns && genl_enter_netns(o->netns))
		return DSRD_EXIT_ERR;
	ret = apply_open(d, d->conf);
	if (ret != DSRD_EXIT_OK)
		return ret;
	/* files and subscriptions first: the set-up is logged too */
	if (logs_open(d, d->conf) || subscribe_all(d))
		return DSRD_EXIT_ERR;
	if (apply_start(d, d->conf))
		return DSRD_EXIT_ERR;
	if (!o->foreground && d->notify.fd < 0 && background())
		return DSRD_EXIT_ERR;
	l->wd_ms = notify_watchdog_interval(&d->notify) / 1000;
	if (notify_watchdog_interval(&d->notify) && !l->wd_ms)
		l->wd_ms = 1;
	l->next_wd = now_ms() + l->wd_ms;
	stats_schedule(d, l, now_ms());
	notify_status(d, "READY=1\n");
	log_info("ready");
	return DSRD_EXIT_OK;
}

static int stop(struct dsrd *d)
{
	int ret = DSRD_EXIT_OK;

	notify_send(&d->notify, "STOPPING=1\nSTATUS=tearing down");
	if (apply_teardown(d))
		ret = DSRD_EXIT_ERR;
	return ret;
}

static void cleanup(struct dsrd *d, struct loop *l)
{
	events_close(d);
	logs_close(d);
	apply_close(d);
	notify_close(&d->notify);
	conf_release(d->conf);
	if (l->sfd >= 0)
		close(l->sfd);
}

int main(int argc, char **argv)
{
	static char conf_abs[PATH_MAX];
	struct dsrd d = { .sock_fd = -1 };
	struct loop l = { .sfd = -1 };
	struct options o = { 0 };
	int ret;

	d.stats.fd = -1;
	d.events.fd = -1;
	d.notify.fd = -1;
	prog_name = DSRD_NAME;
	ret = parse_options(argc, argv, &o);
	if (ret >= 0)
		return ret;
	log_init();
	d.netns = o.netns;
	d.conf = conf_read(o.conf_path);
	if (!d.conf)
		return DSRD_EXIT_CONF;
	/* read again on SIGHUP, maybe after chdir("/") */
	d.conf_path = realpath(o.conf_path, conf_abs) ? conf_abs : o.conf_path;
	if (o.check) {
		conf_release(d.conf);
		return DSRD_EXIT_OK;
	}
	l.sfd = signals_block();
	if (l.sfd < 0) {
		cleanup(&d, &l);
		return DSRD_EXIT_ERR;
	}
	ret = start(&d, &o, &l);
	if (ret == DSRD_EXIT_OK) {
		if (run(&d, &l))
			ret = DSRD_EXIT_ERR;
		if (stop(&d))
			ret = DSRD_EXIT_ERR;
	} else {
		apply_teardown(&d);	/* what is left (nothing, usually) */
	}
	cleanup(&d, &l);
	return ret;
}
