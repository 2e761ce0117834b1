// SPDX-License-Identifier: GPL-2.0
/*
 * What dsrd writes while it runs: one JSON line per kernel notification
 * (the events log) and one per StatsInterval with every counter of the
 * modules (the stats log).
 *
 * An event line is what "ahctl FAMILY monitor -j" prints, with the time,
 * the family and the command in front:
 *
 *	{"time":"...","family":"dsr","cmd":"event","event":"route_added",
 *	 "ifindex":5,"ifname":"dsr0","dst":"10.0.0.5","hops":[...]}
 *
 * A stats line:
 *
 *	{"time":"...","dsr":{"rreq_sent":3,...},
 *	 "macfilter":{"eth0":{"ifindex":2,"mode":"deny",...}},
 *	 "transit":{"wlan0":{...}},"slice":{"wlan1":{"name":"red",...}}}
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/ah_dsr.h>
#include <linux/ah_macfilter.h>
#include <linux/ah_slice.h>
#include <linux/ah_transit.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "apply.h"
#include "daemon.h"
#include "dsrd.h"
#include "ethtool.h"
#include "log.h"
#include "names.h"

_Static_assert((int)DSR_A_MAX < ATTRS_MAX && (int)DSR_A_P_MAX < ATTRS_MAX &&
	       (int)MACFILTER_A_MAX < ATTRS_MAX &&
	       (int)TRANSIT_A_MAX < ATTRS_MAX && (int)SLICE_A_MAX < ATTRS_MAX,
	       "ATTRS_MAX");

#define EVENTS_RCVBUF	(1 << 20)
#define EVENTS_BATCH	64	/* datagrams read per wakeup */

void time_now_str(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* A line being built: a JSON writer on a memory stream. */
struct line {
	char *buf;
	size_t len;
	FILE *f;
	struct json j;
};

static int line_start(struct line *l)
{
	char ts[64];

	l->buf = NULL;
	l->len = 0;
	l->f = open_memstream(&l->buf, &l->len);
	if (!l->f) {
		log_err("out of memory");
		return -1;
	}
	json_init(&l->j, l->f, false);
	json_obj_open(&l->j);
	time_now_str(ts, sizeof(ts));
	json_kv_str(&l->j, "time", ts);
	return 0;
}

/* Close the object; 0 and l->buf/len, or -1 (nothing to free). */
static int line_end(struct line *l)
{
	json_obj_close(&l->j);
	if (fclose(l->f)) {
		free(l->buf);
		log_err("out of memory");
		return -1;
	}
	return 0;
}

/* ---- events -------------------------------------------------------------- */

int events_subscribe(struct dsrd *d, struct fam *fam)
{
	const char *const *g;
	int fd, v = EVENTS_RCVBUF;

	(void)d;
	if (genl_open(&fam->ev, NULL, &fam->f->desc))
		return -1;
	for (g = fam->f->groups; *g; g++)
		if (genl_subscribe(&fam->ev, *g)) {
			genl_close(&fam->ev);
			return -1;
		}
	nl_socket_set_nonblocking(fam->ev.sk);
	/* bursts of route events; FORCE ignores rmem_max (CAP_NET_ADMIN) */
	fd = nl_socket_get_fd(fam->ev.sk);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	return 0;
}

void events_close(struct dsrd *d)
{
	int id;

	for (id = 0; id < __FAM_MAX; id++)
		genl_close(&d->fam[id].ev);
}

static void log_write(struct dsrd *d, struct statlog *l, bool *warned,
		      const char *what, const char *buf, size_t len)
{
	int err = statlog_write(l, buf, len);

	(void)d;
	if (!err) {
		*warned = false;
		return;
	}
	if (*warned)
		return;
	*warned = true;
	if (err == -EFBIG)
		log_err("%s: a line of %zu bytes is longer than the file may be; dropped",
			l->path, len);
	else
		log_err("%s: cannot write %s: %s", l->path, what,
			strerror(-err));
}

struct ev_ctx {
	struct dsrd *d;
	struct fam *fam;
};

static void event_line(struct json *j, const struct family *f, uint8_t cmd,
		       struct nlattr **tb)
{
	const char *name = name_lookup(f->cmds, f->ncmds, cmd);
	uint8_t ev;

	json_kv_str(j, "family", f->desc.name);
	json_kv_str(j, "cmd", name);
	/* "event" as ahctl monitor -j: the kind, or the command */
	if (f->event_attr && attr_u8(tb[f->event_attr], &ev))
		name = name_lookup(f->events, f->nevents, ev);
	json_kv_str(j, "event", name);
	attrs_json(j, f, tb, f->event_attr, 0);
}

static int event_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[ATTRS_MAX + 1];
	struct ev_ctx *x = arg;
	struct dsrd *d = x->d;
	struct line l;
	uint8_t cmd;

	if (genl_parse(&x->fam->ev, msg, &cmd, tb, x->fam->f->maxattr))
		return NL_OK;
	if (line_start(&l))
		return NL_OK;
	event_line(&l.j, x->fam->f, cmd, tb);
	if (line_end(&l))
		return NL_OK;
	if (d->events.fd >= 0)
		log_write(d, &d->events, &d->events_warned, "an event",
			  l.buf, l.len);
	else
		log_line(LOG_INFO, l.buf, l.len);
	free(l.buf);
	/* after it is logged: what dsrd does about it */
	if (x->fam == &d->fam[FAM_SLICE])
		sl_event(d, cmd, tb);
	return NL_OK;
}

static int seq_ok(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

void events_read(struct dsrd *d, struct fam *fam)
{
	struct ev_ctx x = { .d = d, .fam = fam };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);
	int i, err;

	if (!cb) {
		log_err("out of memory");
		return;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, event_cb, &x);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_ok, NULL);
	for (i = 0; i < EVENTS_BATCH; i++) {
		err = nl_recvmsgs(fam->ev.sk, cb);
		if (err == -NLE_AGAIN)
			break;
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the receive queue overflowed */
			log_warn("%s: notifications were lost (receive buffer overrun)",
				 fam->f->desc.name);
		} else if (err < 0) {
			log_err("%s: notifications: %s", fam->f->desc.name,
				nl_geterror(err));
			break;
		}
	}
	nl_cb_put(cb);
}

/* ---- the log files ------------------------------------------------------- */

static bool same_log(const struct statlog *l, const char *path,
		     uint64_t max, unsigned int keep)
{
	return l->fd >= 0 && !strcmp(l->path, path) && l->max_bytes == max &&
	       l->keep == keep;
}

/* Open @path into @l unless it is open already; the old one stays on error. */
static int log_reopen(struct statlog *l, const char *path, uint64_t max,
		      unsigned int keep)
{
	struct statlog n;
	int err;

	if (!path) {
		statlog_close(l);
		return 0;
	}
	if (same_log(l, path, max, keep))
		return 0;
	err = statlog_open(&n, path, max, keep);
	if (err) {
		log_err("%s: %s", path, strerror(-err));
		return -1;
	}
	statlog_close(l);
	*l = n;
	return 0;
}

int logs_open(struct dsrd *d, const struct conf *c)
{
	const struct conf_log *g = &c->log;
	int ret = 0;

	if (log_reopen(&d->stats, g->stats_interval ? g->stats_file : NULL,
		       g->stats_max_bytes, g->stats_keep))
		ret = -1;
	if (log_reopen(&d->events, g->events_file[0] ? g->events_file : NULL,
		       g->events_max_bytes, g->events_keep))
		ret = -1;
	return ret;
}

void logs_close(struct dsrd *d)
{
	statlog_close(&d->stats);
	statlog_close(&d->events);
}

/* ---- stats --------------------------------------------------------------- */

struct dump {
	struct fam *fam;
	struct json *j;
};

/*
 * One device of a GET_DEV dump (slice: one grant of a GET dump):
 * "ifname": { its attributes }.
 */
static int dev_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[ATTRS_MAX + 1];
	struct dump *x = arg;
	char name[IFNAMSIZ];
	uint8_t cmd;

	_Static_assert((int)MACFILTER_A_IFNAME == (int)TRANSIT_A_IFNAME &&
		       (int)MACFILTER_A_IFINDEX == (int)TRANSIT_A_IFINDEX &&
		       (int)MACFILTER_A_IFNAME == (int)SLICE_A_IFNAME &&
		       (int)MACFILTER_A_IFINDEX == (int)SLICE_A_IFINDEX,
		       "one IFNAME and IFINDEX attribute");
	if (genl_parse(&x->fam->req, msg, &cmd, tb, x->fam->f->maxattr) ||
	    !attr_str(tb[MACFILTER_A_IFNAME], name, sizeof(name)))
		return 0;
	json_key(x->j, name);
	json_obj_open(x->j);
	attrs_json(x->j, x->fam->f, tb, MACFILTER_A_IFNAME, 0);
	json_obj_close(x->j);
	return 0;
}

static void stats_devs(struct dsrd *d, enum fam_id id, uint8_t cmd,
		       struct json *j)
{
	struct fam *fam = &d->fam[id];
	struct dump x = { .fam = fam, .j = j };
	struct nl_msg *msg;

	if (!fam->present)
		return;
	msg = genl_new(&fam->req, cmd, NLM_F_DUMP, 0);
	json_key(j, fam->f->desc.name);
	json_obj_open(j);
	/* an inconsistent dump (GENL_DUMP_INTR) is still a snapshot */
	if (msg && genl_request(&fam->req, msg, dev_cb, &x) < 0)
		log_err("%s: cannot read the counters", fam->f->desc.name);
	json_obj_close(j);
}

static void stats_dsr(struct dsrd *d, struct json *j)
{
	struct ethtool_counters c;
	unsigned int i;
	int err;

	if (!d->dev_ifindex)
		return;
	err = ethtool_counters_read(d->sock_fd, d->device, &c);
	if (err) {
		log_err("%s: cannot read the counters: %s", d->device,
			strerror(-err));
	} else {
		json_key(j, "dsr");
		json_obj_open(j);
		for (i = 0; i < c.n; i++)
			json_kv_u64(j, c.names[i], c.values[i]);
		json_obj_close(j);
	}
	ethtool_counters_free(&c);
}

void stats_write(struct dsrd *d)
{
	struct line l;

	if (d->stats.fd < 0 || line_start(&l))
		return;
	stats_dsr(d, &l.j);
	stats_devs(d, FAM_MACFILTER, MACFILTER_CMD_GET_DEV, &l.j);
	stats_devs(d, FAM_TRANSIT, TRANSIT_CMD_GET_DEV, &l.j);
	/* every grant of the node: the interface, as named there */
	stats_devs(d, FAM_SLICE, SLICE_CMD_GET, &l.j);
	if (line_end(&l))
		return;
	log_write(d, &d->stats, &d->stats_warned, "stats", l.buf, l.len);
	free(l.buf);
}
