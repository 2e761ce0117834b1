// SPDX-License-Identifier: GPL-2.0
/*
 * ahctl macfilter: configure the macfilter kernel module over generic
 * netlink (see include/uapi/linux/ah_macfilter.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#include <linux/ah_macfilter.h>

#include "ahctl.h"
#include "attrs.h"
#include "genl.h"
#include "json.h"
#include "maclist.h"
#include "mfreq.h"
#include "names.h"
#include "parse.h"
#include "print.h"
#include "trace.h"

/* Show: how often to restart a dump the kernel flagged as inconsistent. */
#define DUMP_TRIES	5

/* ---- command line -------------------------------------------------------- */

/* Arguments, as bits of mf_args.given and mf_cmd.allowed/required */
enum {
	A_DEV	= 1 << 0,
	A_MODE	= 1 << 1,
	A_MAX	= 1 << 2,
	A_LOSS	= 1 << 3,
	A_MAC	= 1 << 4,
	A_FILE	= 1 << 5,
	A_SPEED	= 1 << 6,
	A_START	= 1 << 7,
};

struct mf_args {
	unsigned int given;
	const char *dev;
	uint8_t mode;
	uint32_t max_entries;
	unsigned char loss;
	unsigned char mac[MAC_LEN];
	const char *file;
	double speed;
	int64_t start_ns;	/* CLOCK_REALTIME */
};

struct mf_cmd {
	const char *name;
	int (*run)(const struct mf_cmd *c, const struct mf_args *a);
	uint8_t genl_cmd;
	unsigned int allowed;
	unsigned int required;
	const char *args;
};

static int do_simple(const struct mf_cmd *c, const struct mf_args *a);
static int do_load(const struct mf_cmd *c, const struct mf_args *a);
static int do_show(const struct mf_cmd *c, const struct mf_args *a);
static int do_monitor(const struct mf_cmd *c, const struct mf_args *a);
static int do_replay(const struct mf_cmd *c, const struct mf_args *a);
static int do_replay_all(const struct mf_cmd *c, const struct mf_args *a);

static const struct mf_cmd mf_cmds[] = {
	{ "attach", do_simple, MACFILTER_CMD_ATTACH, A_DEV | A_MODE | A_MAX,
	  A_DEV, "dev DEV [mode deny|allow] [max_entries N]" },
	{ "detach", do_simple, MACFILTER_CMD_DETACH, A_DEV, A_DEV,
	  "dev DEV" },
	{ "set", do_simple, MACFILTER_CMD_SET, A_DEV | A_MODE | A_MAX,
	  A_DEV, "dev DEV [mode deny|allow] [max_entries N]" },
	{ "add", do_simple, MACFILTER_CMD_ADD, A_DEV | A_MAC | A_LOSS,
	  A_DEV | A_MAC, "dev DEV MAC [loss N]" },
	{ "del", do_simple, MACFILTER_CMD_DEL, A_DEV | A_MAC, A_DEV | A_MAC,
	  "dev DEV MAC" },
	{ "flush", do_simple, MACFILTER_CMD_FLUSH, A_DEV, A_DEV, "dev DEV" },
	{ "load", do_load, MACFILTER_CMD_REPLACE, A_DEV | A_FILE | A_MODE,
	  A_DEV | A_FILE, "dev DEV FILE [mode deny|allow]" },
	{ "replay", do_replay, MACFILTER_CMD_REPLACE,
	  A_DEV | A_FILE | A_SPEED | A_START, A_DEV | A_FILE,
	  "dev DEV TRACE [speed X] [start TIME]" },
	{ "replay-all", do_replay_all, MACFILTER_CMD_REPLACE,
	  A_FILE | A_SPEED | A_START, A_FILE, "LIST [speed X] [start TIME]" },
	{ "show", do_show, MACFILTER_CMD_GET_DEV, A_DEV, 0, "[dev DEV]" },
	{ "monitor", do_monitor, 0, 0, 0, "" },
};

static const char *mode_name(uint8_t mode)
{
	return NAME_OF(mf_mode_names, mode);
}

static const char *event_name(uint8_t cmd)
{
	return NAME_OF(mf_cmd_names, cmd);
}

AHCTL_CMD_USAGE(struct mf_cmd, "macfilter")

void macfilter_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: " PROG_NAME " [-j [-p]] [-n NETNS] macfilter COMMAND [ARGS]\n\n");
	fprintf(f, "Drop received frames by source MAC address.\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(mf_cmds); i++)
		fprintf(f, "  macfilter %s%s%s\n", mf_cmds[i].name,
			mf_cmds[i].args[0] ? " " : "", mf_cmds[i].args);
	fprintf(f, "  macfilter help\n\n"
		"DEV    network interface name\n"
		"MAC    source address, aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff\n"
		"N      loss: drop probability in percent, 0..100;\n"
		"       max_entries: 1..%d (default %d)\n"
		"FILE   one 'MAC [loss N]' per line, '#' comments; '-' is stdin\n"
		"TRACE  one step per line: 'SECONDS MAC[/LOSS]...' or 'SECONDS -'\n"
		"       (docs/trace.5); each step replaces the list, mode deny\n"
		"X      replay speed: 2 runs the trace twice as fast (default 1)\n"
		"TIME   the trace's time 0 as Unix time (seconds, e.g.\n"
		"       1795000000.25; default: now), so that replays on\n"
		"       several hosts run against one start\n"
		"LIST   one node a line: 'NETNS DEV TRACE [NAME]' (NETNS '-':\n"
		"       ours); every trace replayed by one process, one clock\n"
		"mode   deny: drop listed sources (the default)\n"
		"       allow: drop all but listed sources\n",
		MACFILTER_LIMIT_MAX_ENTRIES, MACFILTER_DEFAULT_MAX_ENTRIES);
}

static int parse_dev(const struct mf_cmd *c, const char *s, struct mf_args *a)
{
	if (!*s)
		return usage_err(c, "empty device name");
	if (strlen(s) >= IFNAMSIZ)
		return usage_err(c, "device name '%s' is too long (at most %d bytes)",
				 s, IFNAMSIZ - 1);
	a->dev = s;
	return 0;
}

static int parse_mode(const struct mf_cmd *c, const char *s, struct mf_args *a)
{
	if (!strcmp(s, "deny"))
		a->mode = MACFILTER_MODE_DENY;
	else if (!strcmp(s, "allow"))
		a->mode = MACFILTER_MODE_ALLOW;
	else
		return usage_err(c, "invalid mode '%s' (deny or allow)", s);
	return 0;
}

static int parse_max(const struct mf_cmd *c, const char *s, struct mf_args *a)
{
	/* The range is the kernel's to check. */
	if (parse_u32(s, &a->max_entries))
		return usage_err(c, "invalid max_entries '%s' (1..%d)", s,
				 MACFILTER_LIMIT_MAX_ENTRIES);
	return 0;
}

static int parse_loss(const struct mf_cmd *c, const char *s, struct mf_args *a)
{
	if (mac_loss_parse(s, &a->loss))
		return usage_err(c, "invalid loss '%s' (integer 0..%d)", s,
				 MACFILTER_LOSS_MAX);
	return 0;
}

static int parse_mac(const struct mf_cmd *c, const char *s, struct mf_args *a)
{
	if (mac_parse(s, a->mac))
		return usage_err(c, "invalid MAC address '%s'", s);
	if (mac_is_multicast(a->mac))
		return usage_err(c, "multicast MAC %s cannot be a source address",
				 s);
	return 0;
}

static int parse_speed(const struct mf_cmd *c, const char *s,
		       struct mf_args *a)
{
	char *end;

	errno = 0;
	a->speed = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(a->speed) ||
	    a->speed < 0.001 || a->speed > 1000)
		return usage_err(c, "invalid speed '%s' (0.001..1000)", s);
	return 0;
}

/* start TIME: Unix time in seconds, within a day of now */
static int parse_start(const struct mf_cmd *c, const char *s,
		       struct mf_args *a)
{
	struct timespec now;
	double t;
	char *end;

	errno = 0;
	t = strtod(s, &end);
	clock_gettime(CLOCK_REALTIME, &now);
	if (!*s || *end || errno || !isfinite(t) ||
	    fabs(t - (double)now.tv_sec) > 86400)
		return usage_err(c, "invalid start '%s' (Unix time in seconds, within a day of now)",
				 s);
	a->start_ns = llround(t * 1e9);
	return 0;
}

static const struct keyword {
	const char *name;
	unsigned int flag;
	int (*parse)(const struct mf_cmd *c, const char *s, struct mf_args *a);
} keywords[] = {
	{ "dev", A_DEV, parse_dev },
	{ "mode", A_MODE, parse_mode },
	{ "max_entries", A_MAX, parse_max },
	{ "loss", A_LOSS, parse_loss },
	{ "speed", A_SPEED, parse_speed },
	{ "start", A_START, parse_start },
};

static const struct keyword *keyword_find(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(s, keywords[i].name))
			return &keywords[i];
	return NULL;
}

static int parse_keyword(const struct mf_cmd *c, const struct keyword *k,
			 const char *value, struct mf_args *a)
{
	if (!(c->allowed & k->flag))
		return usage_err(c, "'%s' is not an argument of this command",
				 k->name);
	if (a->given & k->flag)
		return usage_err(c, "'%s' given twice", k->name);
	if (!value)
		return usage_err(c, "'%s' needs a value", k->name);
	if (k->parse(c, value, a))
		return -1;
	a->given |= k->flag;
	return 0;
}

static int parse_positional(const struct mf_cmd *c, const char *s,
			    struct mf_args *a)
{
	if ((c->allowed & A_MAC) && !(a->given & A_MAC)) {
		if (parse_mac(c, s, a))
			return -1;
		a->given |= A_MAC;
	} else if ((c->allowed & A_FILE) && !(a->given & A_FILE)) {
		a->file = s;
		a->given |= A_FILE;
	} else {
		return usage_err(c, "unexpected argument '%s'", s);
	}
	return 0;
}

static int check_required(const struct mf_cmd *c, const struct mf_args *a)
{
	unsigned int missing = c->required & ~a->given;

	if (missing & A_DEV)
		return usage_err(c, "missing 'dev DEV'");
	if (missing & A_MAC)
		return usage_err(c, "missing MAC address");
	if (missing & A_FILE)
		return usage_err(c, "missing FILE");
	if (c->genl_cmd == MACFILTER_CMD_SET && !(a->given & (A_MODE | A_MAX)))
		return usage_err(c, "nothing to set (mode, max_entries)");
	return 0;
}

static int parse_args(const struct mf_cmd *c, int argc, char **argv,
		      struct mf_args *a)
{
	const struct keyword *k;
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < argc; i++) {
		k = keyword_find(argv[i]);
		if (k) {
			if (parse_keyword(c, k, i + 1 < argc ? argv[i + 1] :
					  NULL, a))
				return -1;
			i++;
		} else if (parse_positional(c, argv[i], a)) {
			return -1;
		}
	}
	return check_required(c, a);
}

/* ---- changes ------------------------------------------------------------- */

/* A request carrying every argument given (parse_args checked which). */
static struct nl_msg *mf_msg(struct genl *g, uint8_t cmd, int flags,
			     const struct mf_args *a, size_t size)
{
	struct nl_msg *msg = genl_new(g, cmd, flags, size);

	if (!msg)
		return NULL;
	if ((a->dev && nla_put_string(msg, MACFILTER_A_IFNAME, a->dev)) ||
	    ((a->given & A_MODE) &&
	     nla_put_u8(msg, MACFILTER_A_MODE, a->mode)) ||
	    ((a->given & A_MAX) &&
	     nla_put_u32(msg, MACFILTER_A_MAX_ENTRIES, a->max_entries)) ||
	    ((a->given & A_MAC) &&
	     nla_put(msg, MACFILTER_A_MAC, MAC_LEN, a->mac)) ||
	    ((a->given & A_LOSS) &&
	     nla_put_u8(msg, MACFILTER_A_LOSS, a->loss))) {
		fprintf(stderr, PROG_NAME ": out of memory\n");
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int do_simple(const struct mf_cmd *c, const struct mf_args *a)
{
	struct nl_msg *msg;
	struct genl g;
	int ret = EXIT_ERR;

	if (genl_open(&g, opts.netns, &macfilter_family.desc))
		return EXIT_ERR;
	msg = mf_msg(&g, c->genl_cmd, 0, a, 0);
	if (msg && !genl_request(&g, msg, NULL, NULL))
		ret = EXIT_OK;
	genl_close(&g);
	return ret;
}

static int read_list(const char *file, struct maclist *list)
{
	const char *name = file;
	char err[512];
	FILE *f = stdin;
	int ret;

	if (strcmp(file, "-")) {
		f = fopen(file, "r");
		if (!f) {
			fprintf(stderr, PROG_NAME ": %s: %s\n", file,
				strerror(errno));
			return -1;
		}
	} else {
		name = "<stdin>";
	}
	ret = maclist_parse_file(list, name, f, MACFILTER_LIMIT_MAX_ENTRIES,
				 err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (ret)
		fprintf(stderr, "%s\n", err);
	return ret;
}

/* The list as REPLACE entries (see mfreq.h). */
static int put_entries(struct nl_msg *msg, const struct maclist *list)
{
	if (mfreq_put_entries(msg, list->entries, list->count)) {
		fprintf(stderr, PROG_NAME ": out of memory building the request\n");
		return -1;
	}
	return 0;
}

static int do_load(const struct mf_cmd *c, const struct mf_args *a)
{
	struct maclist list;
	struct nl_msg *msg = NULL;
	struct genl g;
	int ret = EXIT_ERR;

	maclist_init(&list);
	/* Nothing goes to the kernel unless the whole file is good. */
	if (read_list(a->file, &list))
		return EXIT_ERR;
	if (genl_open(&g, opts.netns, &macfilter_family.desc))
		goto out_list;
	msg = mf_msg(&g, c->genl_cmd, 0, a, mfreq_msg_size(list.count));
	if (!msg)
		goto out;
	if (put_entries(msg, &list)) {
		nlmsg_free(msg);
		goto out;
	}
	genl_set_sndbuf(&g, nlmsg_hdr(msg)->nlmsg_len + 4096);
	if (!genl_request(&g, msg, NULL, NULL))
		ret = EXIT_OK;
out:
	genl_close(&g);
out_list:
	maclist_free(&list);
	return ret;
}

/* ---- replay ------------------------------------------------------------- */

static int read_trace(const char *file, struct trace *t)
{
	char err[512];
	FILE *f;
	int ret;

	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, PROG_NAME ": %s: %s\n", file, strerror(errno));
		return -1;
	}
	ret = trace_parse_file(t, file, f, MACFILTER_LIMIT_MAX_ENTRIES, err,
			       sizeof(err));
	fclose(f);
	if (ret)
		fprintf(stderr, "%s\n", err);
	return ret;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/*
 * The replay's time 0 on CLOCK_MONOTONIC: now, or the Unix time of
 * "start" (the steps due before now are applied at once, and counted
 * late).
 */
static uint64_t replay_t0(const struct mf_args *a, uint64_t now_delay_ns)
{
	struct timespec rt;
	int64_t real, t0;
	uint64_t mono;

	if (!(a->given & A_START))
		return mono_ns() + now_delay_ns;
	clock_gettime(CLOCK_REALTIME, &rt);
	mono = mono_ns();
	real = (int64_t)rt.tv_sec * 1000000000LL + rt.tv_nsec;
	t0 = (int64_t)mono + (a->start_ns - real);
	if (a->start_ns < real - 1000000000LL)
		fprintf(stderr, PROG_NAME ": start is %.3f s in the past: the steps due by now are applied at once\n",
			(double)(real - a->start_ns) / 1e9);
	return t0 > 0 ? (uint64_t)t0 : 0;
}

/* One step: the whole list replaced in one request, in deny mode. */
static int replay_step(struct genl *g, const struct mf_args *a,
		       const struct trace_step *st)
{
	struct nl_msg *msg;

	msg = mf_msg(g, MACFILTER_CMD_REPLACE, 0, a,
		     mfreq_msg_size(st->list.count));
	if (!msg)
		return -1;
	if (put_entries(msg, &st->list)) {
		nlmsg_free(msg);
		return -1;
	}
	genl_set_sndbuf(g, nlmsg_hdr(msg)->nlmsg_len + 4096);
	if (genl_request(g, msg, NULL, NULL)) {
		fprintf(stderr, PROG_NAME ": %s:%lu: step not applied\n",
			a->file, st->line);
		return -1;
	}
	return 0;
}

static void replay_report(const uint64_t *late_us, size_t n)
{
	uint64_t max = 0, sum = 0;
	struct json j;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += late_us[i];
		if (late_us[i] > max)
			max = late_us[i];
	}
	if (!opts.json) {
		printf("replayed %zu steps: lateness mean %.3f ms, max %.3f ms\n",
		       n, n ? (double)sum / n / 1000 : 0, (double)max / 1000);
		return;
	}
	json_init(&j, stdout, opts.pretty);
	json_obj_open(&j);
	json_kv_u64(&j, "steps", n);
	json_kv_u64(&j, "late_mean_us", n ? sum / n : 0);
	json_kv_u64(&j, "late_max_us", max);
	json_key(&j, "late_us");
	json_arr_open(&j);
	for (i = 0; i < n; i++)
		json_u64(&j, late_us[i]);
	json_arr_close(&j);
	json_obj_close(&j);
}

/*
 * Apply each step of a trace at its time from now (divided by the speed):
 * the whole trace is checked before the first step.  The lateness of a
 * step runs from its time to the kernel's acknowledgment of the new list.
 */
static int do_replay(const struct mf_cmd *c, const struct mf_args *args)
{
	struct mf_args a = *args;
	uint64_t t0, due, *late = NULL;
	double speed = a.given & A_SPEED ? a.speed : 1;
	struct trace t;
	struct genl g;
	int ret = EXIT_ERR;
	size_t i;

	(void)c;
	a.given |= A_MODE;
	a.mode = MACFILTER_MODE_DENY;
	trace_init(&t);
	if (read_trace(a.file, &t))
		return EXIT_ERR;
	late = calloc(t.count, sizeof(*late));
	if (!late) {
		fprintf(stderr, PROG_NAME ": out of memory\n");
		goto out_trace;
	}
	if (genl_open(&g, opts.netns, &macfilter_family.desc))
		goto out_trace;
	t0 = replay_t0(&a, 0);
	for (i = 0; i < t.count; i++) {
		due = t0 + (uint64_t)llround((double)t.steps[i].t_ms * 1e6 /
					     speed);
		sleep_until(due);
		if (replay_step(&g, &a, &t.steps[i]))
			goto out;
		late[i] = (mono_ns() - due) / 1000;
	}
	replay_report(late, t.count);
	ret = EXIT_OK;
out:
	genl_close(&g);
out_trace:
	free(late);
	trace_free(&t);
	return ret;
}

/*
 * replay-all: the traces of many nodes (namespaces) from one process, in
 * one time line.  A process per node costs a wake-up, a scheduler slot and
 * a start-up of its own each; fifty of them under TCG start a second apart
 * and wake late (docs/benchmarks.md, "Fifty nodes").
 */
struct replay_node {
	char *netns;		/* NULL: ours */
	char *dev;
	char *file;
	char *name;
	struct trace t;
	struct genl g;
	uint64_t *late;		/* us, per step */
	size_t next;
};

struct replay_set {
	struct replay_node *nodes;
	size_t count;
};

static void replay_set_free(struct replay_set *s)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		struct replay_node *n = &s->nodes[i];

		genl_close(&n->g);
		trace_free(&n->t);
		free(n->late);
		free(n->netns);
		free(n->dev);
		free(n->file);
		free(n->name);
	}
	free(s->nodes);
	s->nodes = NULL;
	s->count = 0;
}

/* One line of LIST: NETNS DEV TRACE [NAME]; 0, 1 (blank), -1 (printed). */
static int replay_list_line(const char *list, unsigned long ln, char *line,
			    struct replay_node *n)
{
	char *w[5], *save = NULL, *p = strchr(line, '#');
	int k = 0;

	if (p)
		*p = '\0';
	for (p = strtok_r(line, " \t\r\n", &save); p && k < 5;
	     p = strtok_r(NULL, " \t\r\n", &save))
		w[k++] = p;
	if (!k)
		return 1;
	if (k < 3 || k > 4) {
		fprintf(stderr, PROG_NAME ": %s:%lu: need NETNS DEV TRACE [NAME]\n",
			list, ln);
		return -1;
	}
	if (strlen(w[1]) >= IFNAMSIZ) {
		fprintf(stderr, PROG_NAME ": %s:%lu: device name '%s' is too long\n",
			list, ln, w[1]);
		return -1;
	}
	memset(n, 0, sizeof(*n));
	trace_init(&n->t);
	n->netns = strcmp(w[0], "-") ? strdup(w[0]) : NULL;
	n->dev = strdup(w[1]);
	n->file = strdup(w[2]);
	n->name = strdup(k == 4 ? w[3] : w[2]);
	if ((strcmp(w[0], "-") && !n->netns) || !n->dev || !n->file ||
	    !n->name) {
		fprintf(stderr, PROG_NAME ": out of memory\n");
		return -1;
	}
	return 0;
}

/* Every node of LIST, its trace read and checked; nothing sent yet. */
static int replay_list_read(const char *list, struct replay_set *s)
{
	struct replay_node *nodes;
	unsigned long ln = 0;
	size_t alloc = 0;
	char line[4096];
	FILE *f;
	int r, ret = -1;

	f = strcmp(list, "-") ? fopen(list, "r") : stdin;
	if (!f) {
		fprintf(stderr, PROG_NAME ": %s: %s\n", list, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (s->count == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			nodes = realloc(s->nodes, alloc * sizeof(*nodes));
			if (!nodes) {
				fprintf(stderr, PROG_NAME ": out of memory\n");
				goto out;
			}
			s->nodes = nodes;
		}
		r = replay_list_line(list, ln, line, &s->nodes[s->count]);
		if (r > 0)
			continue;
		s->count++;	/* freed with the set, even half made */
		if (r < 0)
			goto out;
	}
	if (ferror(f)) {
		fprintf(stderr, PROG_NAME ": %s: read error\n", list);
		goto out;
	}
	if (!s->count) {
		fprintf(stderr, PROG_NAME ": %s: no node\n", list);
		goto out;
	}
	ret = 0;
out:
	if (f != stdin)
		fclose(f);
	return ret;
}

static void replay_all_report(const struct replay_set *s)
{
	uint64_t max = 0, sum = 0, nmax, nsum;
	size_t i, k, steps = 0;
	struct json j;

	for (i = 0; i < s->count; i++)
		for (k = 0; k < s->nodes[i].t.count; k++) {
			sum += s->nodes[i].late[k];
			if (s->nodes[i].late[k] > max)
				max = s->nodes[i].late[k];
			steps++;
		}
	if (!opts.json) {
		for (i = 0; i < s->count; i++) {
			const struct replay_node *n = &s->nodes[i];

			nmax = nsum = 0;
			for (k = 0; k < n->t.count; k++) {
				nsum += n->late[k];
				if (n->late[k] > nmax)
					nmax = n->late[k];
			}
			printf("%s: replayed %zu steps: lateness mean %.3f ms, max %.3f ms\n",
			       n->name, n->t.count,
			       n->t.count ? (double)nsum / n->t.count / 1000 : 0,
			       (double)nmax / 1000);
		}
		printf("all %zu nodes: replayed %zu steps: lateness mean %.3f ms, max %.3f ms\n",
		       s->count, steps, steps ? (double)sum / steps / 1000 : 0,
		       (double)max / 1000);
		return;
	}
	json_init(&j, stdout, opts.pretty);
	json_obj_open(&j);
	json_kv_u64(&j, "steps", steps);
	json_kv_u64(&j, "late_mean_us", steps ? sum / steps : 0);
	json_kv_u64(&j, "late_max_us", max);
	json_key(&j, "nodes");
	json_arr_open(&j);
	for (i = 0; i < s->count; i++) {
		const struct replay_node *n = &s->nodes[i];

		json_obj_open(&j);
		json_kv_str(&j, "name", n->name);
		json_kv_str(&j, "netns", n->netns ? n->netns : "");
		json_kv_str(&j, "dev", n->dev);
		json_kv_u64(&j, "steps", n->t.count);
		json_key(&j, "late_us");
		json_arr_open(&j);
		for (k = 0; k < n->t.count; k++)
			json_u64(&j, n->late[k]);
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
}

/*
 * One worker: the nodes first, first + stride, ... of the set.  The next
 * step due among them is applied next (ties: in LIST order).
 */
struct replay_worker {
	struct replay_set *s;
	const struct mf_args *args;
	size_t first, stride;
	uint64_t t0;
	double speed;
	int ret;
	pthread_t thread;
};

static void *replay_worker_run(void *arg)
{
	struct replay_worker *w = arg;
	struct replay_node *n;
	uint64_t due, best;
	struct mf_args a;
	size_t i;

	w->ret = -1;
	for (;;) {
		n = NULL;
		best = UINT64_MAX;
		for (i = w->first; i < w->s->count; i += w->stride) {
			struct replay_node *m = &w->s->nodes[i];

			if (m->next < m->t.count &&
			    m->t.steps[m->next].t_ms < best) {
				best = m->t.steps[m->next].t_ms;
				n = m;
			}
		}
		if (!n)
			break;
		due = w->t0 + (uint64_t)llround((double)best * 1e6 / w->speed);
		sleep_until(due);
		a = *w->args;
		a.given |= A_MODE | A_DEV;
		a.mode = MACFILTER_MODE_DENY;
		a.dev = n->dev;
		a.file = n->file;
		if (replay_step(&n->g, &a, &n->t.steps[n->next]))
			return NULL;
		n->late[n->next++] = (mono_ns() - due) / 1000;
	}
	w->ret = 0;
	return NULL;
}

/*
 * Every node's trace from one start time.  Every trace is checked, and
 * every node's socket opened, before the first step.  The nodes are
 * dealt round-robin to a worker thread per online CPU: trace steps of
 * many nodes fall on the same instants (a scenario samples every node at
 * once), and the requests of two workers overlap wherever the kernel does
 * not hold RTNL (parsing, building the message and the reply).
 */
static int do_replay_all(const struct mf_cmd *c, const struct mf_args *args)
{
	double speed = args->given & A_SPEED ? args->speed : 1;
	struct replay_set s = { NULL, 0 };
	struct replay_worker *w = NULL;
	size_t i, nw, started = 0;
	struct replay_node *n;
	int ret = EXIT_ERR;
	long cpus;

	if (opts.netns) {
		usage_err(c, "LIST names each node's namespace: no -n");
		return EXIT_USAGE;
	}
	if (replay_list_read(args->file, &s))
		goto out;
	for (i = 0; i < s.count; i++) {
		n = &s.nodes[i];
		if (read_trace(n->file, &n->t))
			goto out;
		n->late = calloc(n->t.count ? n->t.count : 1, sizeof(*n->late));
		if (!n->late) {
			fprintf(stderr, PROG_NAME ": out of memory\n");
			goto out;
		}
	}
	for (i = 0; i < s.count; i++)
		if (genl_open_in(&s.nodes[i].g, s.nodes[i].netns,
				 &macfilter_family.desc))
			goto out;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	nw = cpus < 1 ? 1 : (size_t)cpus;
	if (nw > s.count)
		nw = s.count;
	w = calloc(nw, sizeof(*w));
	if (!w) {
		fprintf(stderr, PROG_NAME ": out of memory\n");
		goto out;
	}
	for (i = 0; i < nw; i++) {
		w[i] = (struct replay_worker){ .s = &s, .args = args, .first = i,
					       .stride = nw, .speed = speed };
	}
	/* one start for all: a little ahead, so every worker is up by then */
	w[0].t0 = replay_t0(args, 10000000ULL);
	for (i = 0; i < nw; i++) {
		w[i].t0 = w[0].t0;
		if (pthread_create(&w[i].thread, NULL, replay_worker_run, &w[i])) {
			fprintf(stderr, PROG_NAME ": cannot start a thread\n");
			break;
		}
		started++;
	}
	ret = started == nw ? EXIT_OK : EXIT_ERR;
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].ret)
			ret = EXIT_ERR;
	}
	if (ret == EXIT_OK)
		replay_all_report(&s);
out:
	free(w);
	replay_set_free(&s);
	return ret;
}

/* ---- show ---------------------------------------------------------------- */

struct dev_row {
	uint32_t ifindex;
	char ifname[IFNAMSIZ];
	uint8_t mode;
	uint32_t max_entries;
	uint32_t count;
	uint64_t seen;
	uint64_t passed;
	uint64_t dropped;
};

struct entry_row {
	uint32_t ifindex;
	size_t seq;		/* dump order, to keep it when sorting */
	unsigned char mac[MAC_LEN];
	bool has_loss;
	uint8_t loss;
	uint64_t dropped;
};

struct show {
	struct genl *g;
	struct dev_row *devs;
	size_t ndevs, adevs;
	struct entry_row *ents;
	size_t nents, aents;
};

/* Make room for one more element of @size bytes in *@p. */
static int grow(void **p, size_t *alloc, size_t n, size_t size)
{
	size_t want = *alloc ? 2 * *alloc : 16;
	void *q;

	if (n < *alloc)
		return 0;
	if (want > SIZE_MAX / size)
		goto nomem;
	q = realloc(*p, want * size);
	if (!q)
		goto nomem;
	*p = q;
	*alloc = want;
	return 0;

nomem:
	fprintf(stderr, PROG_NAME ": out of memory\n");
	return -1;
}

static int dev_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[MACFILTER_A_MAX + 1];
	struct show *s = arg;
	struct dev_row *d;
	uint8_t cmd;

	if (genl_parse(s->g, msg, &cmd, tb, MACFILTER_A_MAX) ||
	    cmd != MACFILTER_CMD_GET_DEV)
		return 0;
	if (grow((void **)&s->devs, &s->adevs, s->ndevs, sizeof(*d)))
		return -1;
	d = &s->devs[s->ndevs];
	memset(d, 0, sizeof(*d));
	if (!attr_u32(tb[MACFILTER_A_IFINDEX], &d->ifindex))
		return 0;
	attr_str(tb[MACFILTER_A_IFNAME], d->ifname, sizeof(d->ifname));
	attr_u8(tb[MACFILTER_A_MODE], &d->mode);
	attr_u32(tb[MACFILTER_A_MAX_ENTRIES], &d->max_entries);
	attr_u32(tb[MACFILTER_A_COUNT], &d->count);
	attr_u64(tb[MACFILTER_A_SEEN], &d->seen);
	attr_u64(tb[MACFILTER_A_PASSED], &d->passed);
	attr_u64(tb[MACFILTER_A_DROPPED], &d->dropped);
	s->ndevs++;
	return 0;
}

static int entry_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[MACFILTER_A_MAX + 1];
	struct show *s = arg;
	struct entry_row *e;
	uint8_t cmd;

	if (genl_parse(s->g, msg, &cmd, tb, MACFILTER_A_MAX) ||
	    cmd != MACFILTER_CMD_GET_ENTRY)
		return 0;
	if (grow((void **)&s->ents, &s->aents, s->nents, sizeof(*e)))
		return -1;
	e = &s->ents[s->nents];
	memset(e, 0, sizeof(*e));
	if (!attr_u32(tb[MACFILTER_A_IFINDEX], &e->ifindex) ||
	    !attr_bin(tb[MACFILTER_A_MAC], e->mac, MAC_LEN))
		return 0;
	e->has_loss = attr_u8(tb[MACFILTER_A_LOSS], &e->loss);
	attr_u64(tb[MACFILTER_A_DROPPED], &e->dropped);
	e->seq = s->nents++;
	return 0;
}

static void show_reset(struct show *s)
{
	s->ndevs = 0;
	s->nents = 0;
}

static void show_free(struct show *s)
{
	free(s->devs);
	free(s->ents);
}

/* 0, GENL_DUMP_INTR, or -1 */
static int show_query(struct show *s, const struct mf_args *a)
{
	int flags = a->dev ? 0 : NLM_F_DUMP;
	struct nl_msg *msg;
	int r1, r2;

	msg = mf_msg(s->g, MACFILTER_CMD_GET_DEV, flags, a, 0);
	if (!msg)
		return -1;
	r1 = genl_request(s->g, msg, dev_cb, s);
	if (r1 < 0)
		return -1;
	msg = mf_msg(s->g, MACFILTER_CMD_GET_ENTRY, NLM_F_DUMP, a, 0);
	if (!msg)
		return -1;
	r2 = genl_request(s->g, msg, entry_cb, s);
	if (r2 < 0)
		return -1;
	return r1 || r2 ? GENL_DUMP_INTR : 0;
}

static int entry_cmp(const void *x, const void *y)
{
	const struct entry_row *a = x, *b = y;

	if (a->ifindex != b->ifindex)
		return a->ifindex < b->ifindex ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* First entry of @ifindex in the sorted entries, and how many there are. */
static const struct entry_row *dev_entries(const struct show *s,
					   uint32_t ifindex, size_t *n)
{
	size_t lo = 0, hi = s->nents, mid, end;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->ents[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < s->nents && s->ents[end].ifindex == ifindex;)
		end++;
	*n = end - lo;
	return s->ents + lo;
}

static void print_dev_text(const struct dev_row *d,
			   const struct entry_row *e, size_t n)
{
	char mac[MAC_STR_LEN];
	size_t i;

	printf("%s: mode %s entries %" PRIu32 "/%" PRIu32 " seen %" PRIu64
	       " passed %" PRIu64 " dropped %" PRIu64 "\n",
	       d->ifname, mode_name(d->mode), d->count, d->max_entries,
	       d->seen, d->passed, d->dropped);
	for (i = 0; i < n; i++) {
		printf("\t%s", mac_format(e[i].mac, mac));
		if (e[i].has_loss)
			printf(" loss %u", e[i].loss);
		printf(" dropped %" PRIu64 "\n", e[i].dropped);
	}
}

static void print_dev_json(struct json *j, const struct dev_row *d,
			   const struct entry_row *e, size_t n)
{
	char mac[MAC_STR_LEN];
	size_t i;

	json_obj_open(j);
	json_kv_u64(j, "ifindex", d->ifindex);
	json_kv_str(j, "ifname", d->ifname);
	json_kv_str(j, "mode", mode_name(d->mode));
	json_kv_u64(j, "max_entries", d->max_entries);
	json_kv_u64(j, "count", d->count);
	json_kv_u64(j, "dropped", d->dropped);
	json_kv_u64(j, "seen", d->seen);
	json_kv_u64(j, "passed", d->passed);
	json_key(j, "entries");
	json_arr_open(j);
	for (i = 0; i < n; i++) {
		json_obj_open(j);
		json_kv_str(j, "mac", mac_format(e[i].mac, mac));
		if (e[i].has_loss)
			json_kv_u64(j, "loss", e[i].loss);
		json_kv_u64(j, "dropped", e[i].dropped);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_close(j);
}

static void show_print(struct show *s)
{
	const struct entry_row *e;
	struct json j;
	size_t i, n;

	qsort(s->ents, s->nents, sizeof(*s->ents), entry_cmp);
	json_init(&j, stdout, opts.pretty);
	if (opts.json)
		json_arr_open(&j);
	for (i = 0; i < s->ndevs; i++) {
		e = dev_entries(s, s->devs[i].ifindex, &n);
		if (opts.json)
			print_dev_json(&j, &s->devs[i], e, n);
		else
			print_dev_text(&s->devs[i], e, n);
	}
	if (opts.json)
		json_arr_close(&j);
}

static int do_show(const struct mf_cmd *c, const struct mf_args *a)
{
	struct show s = { 0 };
	struct genl g;
	int tries, r = -1;

	(void)c;
	if (genl_open(&g, opts.netns, &macfilter_family.desc))
		return EXIT_ERR;
	s.g = &g;
	for (tries = 0; tries < DUMP_TRIES; tries++) {
		show_reset(&s);
		r = show_query(&s, a);
		if (r != GENL_DUMP_INTR)
			break;
	}
	if (r == GENL_DUMP_INTR)
		fprintf(stderr, PROG_NAME ": the lists kept changing during the dump; try again\n");
	if (!r)
		show_print(&s);
	show_free(&s);
	genl_close(&g);
	return r ? EXIT_ERR : EXIT_OK;
}

/* ---- monitor ------------------------------------------------------------- */

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[MACFILTER_A_MAX + 1];
	struct genl *g = arg;
	uint8_t cmd;

	if (genl_parse(g, msg, &cmd, tb, MACFILTER_A_MAX))
		return 0;
	return monitor_print(&macfilter_family, event_name(cmd), tb);
}

static int do_monitor(const struct mf_cmd *c, const struct mf_args *a)
{
	(void)c;
	(void)a;
	return genl_monitor(opts.netns, &macfilter_family.desc,
			    macfilter_family.groups, monitor_cb) ?
	       EXIT_ERR : EXIT_OK;
}

/* ---- entry point ------------------------------------------------------- */

static const struct mf_cmd *cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mf_cmds); i++)
		if (!strcmp(name, mf_cmds[i].name))
			return &mf_cmds[i];
	return NULL;
}

int macfilter_main(int argc, char **argv)
{
	const struct mf_cmd *c;
	struct mf_args a;

	/* "ahctl macfilter" alone shows, like "ip link". */
	c = cmd_find(argc ? argv[0] : "show");
	if (!c) {
		if (!strcmp(argv[0], "help") || !strcmp(argv[0], "-h") ||
		    !strcmp(argv[0], "--help")) {
			macfilter_help(stdout);
			return EXIT_OK;
		}
		fprintf(stderr, PROG_NAME ": macfilter: unknown command '%s'\n\n",
			argv[0]);
		macfilter_help(stderr);
		return EXIT_USAGE;
	}
	if (argc)
		argc--, argv++;
	if (argc == 1 && (!strcmp(argv[0], "help") ||
			  !strcmp(argv[0], "-h") ||
			  !strcmp(argv[0], "--help"))) {
		cmd_usage(stdout, c);
		return EXIT_OK;
	}
	if (parse_args(c, argc, argv, &a))
		return EXIT_USAGE;
	return c->run(c, &a);
}
