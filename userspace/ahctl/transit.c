// SPDX-License-Identifier: GPL-2.0
/*
 * ahctl transit: attach the orinoco_transit engine (learned early drop of
 * transit flows in programmed-I/O Wi-Fi drivers) to a device, tune it, and
 * read its counters and flow table over generic netlink (see
 * include/uapi/linux/ah_transit.h).
 *
 * The ABI's attributes are flat, so each has one JSON key (its name) and
 * one text keyword wherever it appears: both come from the family's
 * description (common/transit_attrs.c), as the parameters' names,
 * defaults and ranges do.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ah_transit.h>

#include "ahctl.h"
#include "attrs.h"
#include "genl.h"
#include "json.h"
#include "names.h"
#include "parse.h"
#include "print.h"

/* show, flows: how often to restart a dump the kernel flagged. */
#define DUMP_TRIES	5

/* The device totals are the attributes from FLOWS to this one. */
#define TOTALS_LAST	TRANSIT_A_PROBES

/* ---- attributes ---------------------------------------------------------- */

/* The description of attribute @id (common/transit_attrs.c) */
#define ATTR(id)	(&transit_family.attrs[id])

/* The flush names, by their bits: "flows", "counters", "all" */
static int flush_find(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tr_flush_names); i++)
		if (tr_flush_names[i] && !strcmp(s, tr_flush_names[i]))
			return (int)i;
	return -1;
}

/* ---- decoding ------------------------------------------------------------ */

/* One reply or notification: its attributes, valid while @msg is held. */
struct row {
	struct nl_msg *msg;
	struct nlattr *tb[TRANSIT_A_MAX + 1];
};

/* Attributes too short for their type, or unknown, are left out. */
static bool row_has(const struct row *r, int id)
{
	return attr_valid(ATTR(id), r->tb[id]);
}

static uint64_t row_val(const struct row *r, int id)
{
	return row_has(r, id) ? attr_uint(ATTR(id), r->tb[id]) : 0;
}

/* ---- output -------------------------------------------------------------- */

/* Where the fields of one row go: a text line, or a JSON object. */
struct out {
	struct json *j;		/* NULL: text */
	bool first;		/* text: nothing on the line yet */
};

/* Field @id of @r, if the kernel sent it; @flags: print.h's P_*. */
static void put(struct out *o, const struct row *r, int id,
		unsigned int flags)
{
	if (!row_has(r, id))
		return;
	if (o->j) {
		json_key(o->j, ATTR(id)->name);
		attr_json_value(o->j, ATTR(id), r->tb[id]);
	} else {
		attr_text(ATTR(id), r->tb[id], flags, NULL, &o->first);
	}
}

static const char *ifname_of(const struct row *r, char buf[IFNAMSIZ])
{
	nla_strlcpy(buf, r->tb[TRANSIT_A_IFNAME], IFNAMSIZ);
	return buf;
}

/* A device: "DEV: enable E flows N", then one "\tNAME VALUE" per line. */
static void dev_text(const struct row *r)
{
	struct out o = { .first = false };
	char ifname[IFNAMSIZ];
	int id;

	if (row_has(r, TRANSIT_A_IFNAME))
		printf("%s:", ifname_of(r, ifname));
	else
		printf("ifindex %" PRIu64 ":", row_val(r, TRANSIT_A_IFINDEX));
	put(&o, r, TRANSIT_A_ENABLE, 0);
	put(&o, r, TRANSIT_A_FLOWS, 0);
	putchar('\n');
	for (id = TRANSIT_A_P_FIRST; id <= TOTALS_LAST; id++) {
		if (id == TRANSIT_A_FLOWS || !row_has(r, id))
			continue;
		putchar('\t');
		o.first = true;
		put(&o, r, id, 0);
		putchar('\n');
	}
}

/* A device in JSON: every attribute, in the order of their numbers. */
static void dev_json(struct json *j, const struct row *r)
{
	struct out o = { .j = j };
	int id;

	json_obj_open(j);
	for (id = 1; id <= TRANSIT_A_MAX; id++)
		put(&o, r, id, 0);
	json_obj_close(j);
}

/* A flow: what a line of "flows" shows, in this order. */
static const struct {
	int id;
	unsigned int flags;
} flow_fields[] = {
	{ TRANSIT_A_SADDR, P_BARE },
	{ TRANSIT_A_DADDR, 0 },
	{ TRANSIT_A_PROTO, 0 },
	{ TRANSIT_A_SPORT, P_NONZERO },
	{ TRANSIT_A_DPORT, P_NONZERO },
	{ TRANSIT_A_STATE, 0 },
	{ TRANSIT_A_PKTS, 0 },
	{ TRANSIT_A_BYTES, 0 },
	{ TRANSIT_A_DROPPED, 0 },
	{ TRANSIT_A_PROBES, 0 },
	{ TRANSIT_A_MISSES, 0 },
	{ TRANSIT_A_IDLE_MS, 0 },
};

static void flow_print(struct json *j, const struct row *r)
{
	struct out o = { .j = opts.json ? j : NULL, .first = true };
	size_t i;

	if (o.j)
		json_obj_open(o.j);
	for (i = 0; i < ARRAY_SIZE(flow_fields); i++)
		put(&o, r, flow_fields[i].id, flow_fields[i].flags);
	if (o.j)
		json_obj_close(o.j);
	else if (!o.first)
		putchar('\n');
}

/* ---- command line -------------------------------------------------------- */

struct tr_args {
	const char *dev;
	bool has[TRANSIT_A_MAX + 1];	/* attributes to send */
	uint32_t val[TRANSIT_A_MAX + 1];
};

/* What a command takes, as bits of tr_cmd.takes */
enum {
	T_DEV	= 1 << 0,	/* dev DEV */
	T_CONF	= 1 << 1,	/* enable 0|1, NAME VALUE */
	T_FLUSH	= 1 << 2,	/* flows|counters|all */
	T_NEED	= 1 << 3,	/* dev DEV is required */
};

struct tr_cmd {
	const char *name;
	int (*run)(const struct tr_cmd *c, const struct tr_args *a);
	uint8_t genl_cmd;
	unsigned int takes;
	const char *args;
};

static int do_change(const struct tr_cmd *c, const struct tr_args *a);
static int do_show(const struct tr_cmd *c, const struct tr_args *a);
static int do_monitor(const struct tr_cmd *c, const struct tr_args *a);

#define CONF_ARGS	"dev DEV [NAME VALUE ...] [enable 0|1]"

static const struct tr_cmd tr_cmds[] = {
	{ "attach", do_change, TRANSIT_CMD_ATTACH, T_DEV | T_NEED | T_CONF,
	  CONF_ARGS },
	{ "detach", do_change, TRANSIT_CMD_DETACH, T_DEV | T_NEED, "dev DEV" },
	{ "set", do_change, TRANSIT_CMD_SET, T_DEV | T_NEED | T_CONF,
	  CONF_ARGS },
	{ "show", do_show, TRANSIT_CMD_GET_DEV, T_DEV, "[dev DEV]" },
	{ "flows", do_show, TRANSIT_CMD_GET_FLOW, T_DEV | T_NEED, "dev DEV" },
	{ "flush", do_change, TRANSIT_CMD_FLUSH, T_DEV | T_NEED | T_FLUSH,
	  "dev DEV [flows|counters|all]" },
	{ "monitor", do_monitor, 0, 0, "" },
};

AHCTL_CMD_USAGE(struct tr_cmd, "transit")

/* The parameters with their defaults and ranges, one per line. */
static void param_table(FILE *f)
{
	int id;

	for (id = TRANSIT_A_P_FIRST; id <= TRANSIT_A_P_LAST; id++)
		fprintf(f, "         %-18s %6" PRIu32 "  %s\n", ATTR(id)->name,
			ATTR(id)->def, ATTR(id)->range);
}

void transit_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: " PROG_NAME " [-j [-p]] [-n NETNS] transit COMMAND [ARGS]\n\n"
		"Learned early drop of transit flows in programmed-I/O Wi-Fi drivers.\n\n"
		"Commands:\n");
	for (i = 0; i < ARRAY_SIZE(tr_cmds); i++)
		fprintf(f, "  transit %s%s%s\n", tr_cmds[i].name,
			*tr_cmds[i].args ? " " : "", tr_cmds[i].args);
	fprintf(f, "  transit help\n\n"
		"DEV      network interface of a driver with the transit hooks\n"
		"NAME     parameter; VALUE is an unsigned decimal integer, its range\n"
		"         checked by the kernel (times in milliseconds):\n"
		"         NAME               DEFAULT  RANGE\n");
	param_table(f);
	fprintf(f, "enable   1: drop the flows learned early; 0: read every frame whole\n"
		"flush    what to forget: flows (the default), counters or all\n");
}

/* The attribute keyword @s sets: dev, enable or a parameter; -1 if none. */
static int keyword_find(const char *s)
{
	if (!strcmp(s, "dev"))
		return TRANSIT_A_IFNAME;
	if (!strcmp(s, "enable"))
		return TRANSIT_A_ENABLE;
	return fam_param_find(&transit_family, s);
}

/* "KEYWORD VALUE": check that this command takes it, then the value. */
static int parse_keyword(const struct tr_cmd *c, int id, const char *kw,
			 const char *s, struct tr_args *a)
{
	unsigned int need = id == TRANSIT_A_IFNAME ? T_DEV : T_CONF;

	if (!(c->takes & need))
		return usage_err(c, "'%s' is not an argument of this command",
				 kw);
	if (id == TRANSIT_A_IFNAME ? !!a->dev : a->has[id])
		return usage_err(c, "'%s' given twice", kw);
	if (!s)
		return usage_err(c, "'%s' needs a value", kw);
	if (id == TRANSIT_A_IFNAME) {
		/* sent as a string by tr_msg(), not from has[] */
		a->dev = s;
		if (strlen(s) >= IFNAMSIZ)
			return usage_err(c, "device name '%s' is too long (at most %d bytes)",
					 s, IFNAMSIZ - 1);
		if (!*s)
			return usage_err(c, "empty device name");
	} else if (id == TRANSIT_A_ENABLE) {
		if (strcmp(s, "0") && strcmp(s, "1"))
			return usage_err(c, "invalid enable '%s' (0 or 1)", s);
		a->val[id] = s[0] == '1';
	} else if (parse_u32(s, &a->val[id])) {
		return usage_err(c, "invalid %s '%s' (unsigned decimal integer, %s)",
				 kw, s, ATTR(id)->range);
	}
	if (id != TRANSIT_A_IFNAME)
		a->has[id] = true;
	return 0;
}

static int parse_word(const struct tr_cmd *c, const char *s,
		      struct tr_args *a)
{
	int k = flush_find(s);

	if ((c->takes & T_FLUSH) && k >= 0) {
		if (a->has[TRANSIT_A_FLUSH])
			return usage_err(c, "unexpected argument '%s' (only one of flows, counters or all)",
					 s);
		a->has[TRANSIT_A_FLUSH] = true;
		a->val[TRANSIT_A_FLUSH] = (uint32_t)k;
		return 0;
	}
	if (c->takes & T_CONF) {
		fprintf(stderr, PROG_NAME ": transit %s: unknown parameter '%s'; one of:\n",
			c->name, s);
		param_table(stderr);
		cmd_usage(stderr, c);
		return -1;
	}
	if (c->takes & T_FLUSH)
		return usage_err(c, "invalid argument '%s' (dev, flows, counters or all)",
				 s);
	return usage_err(c, "unexpected argument '%s'", s);
}

static int parse_args(const struct tr_cmd *c, int argc, char **argv,
		      struct tr_args *a)
{
	bool conf = false;
	int i, id;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < argc; i++) {
		id = keyword_find(argv[i]);
		if (id < 0) {
			if (parse_word(c, argv[i], a))
				return -1;
			continue;
		}
		if (parse_keyword(c, id, argv[i], i + 1 < argc ? argv[i + 1] :
				  NULL, a))
			return -1;
		conf |= id != TRANSIT_A_IFNAME;
		i++;
	}
	if ((c->takes & T_NEED) && !a->dev)
		return usage_err(c, "missing 'dev DEV'");
	if (c->genl_cmd == TRANSIT_CMD_SET && !conf)
		return usage_err(c, "nothing to set (enable 0|1, NAME VALUE)");
	return 0;
}

/* ---- requests ------------------------------------------------------------ */

/* A request naming the device, if any, with every attribute parsed. */
static struct nl_msg *tr_msg(struct genl *g, uint8_t cmd, int flags,
			     const struct tr_args *a)
{
	struct nl_msg *msg = genl_new(g, cmd, flags, 0);
	int id, err;

	if (!msg)
		return NULL;
	err = a->dev ? nla_put_string(msg, TRANSIT_A_IFNAME, a->dev) : 0;
	for (id = 1; id <= TRANSIT_A_MAX && !err; id++)
		if (a->has[id])
			err = ATTR(id)->type == AT_BOOL ?
			      nla_put_u8(msg, id, (uint8_t)a->val[id]) :
			      nla_put_u32(msg, id, a->val[id]);
	if (!err)
		return msg;
	nlmsg_free(msg);
	fprintf(stderr, PROG_NAME ": out of memory building the request\n");
	return NULL;
}

static int do_change(const struct tr_cmd *c, const struct tr_args *a)
{
	struct nl_msg *msg;
	struct genl g;
	int ret;

	if (genl_open(&g, opts.netns, &transit_family.desc))
		return EXIT_ERR;
	msg = tr_msg(&g, c->genl_cmd, 0, a);
	ret = msg && !genl_request(&g, msg, NULL, NULL) ? EXIT_OK : EXIT_ERR;
	genl_close(&g);
	return ret;
}

/* The replies of one request, kept so that a retry prints once. */
struct rows {
	struct genl *g;
	struct row *r;
	size_t n, cap;
};

/* Room for one more row at the end; NULL (reported) without memory. */
static struct row *rows_add(struct rows *rs)
{
	size_t cap = rs->cap + rs->cap / 2 + 32;
	struct row *more;

	if (rs->n < rs->cap)
		return &rs->r[rs->n++];
	more = reallocarray(rs->r, cap, sizeof(*more));
	if (!more) {
		fprintf(stderr, PROG_NAME ": out of memory\n");
		return NULL;
	}
	rs->r = more;
	rs->cap = cap;
	return &rs->r[rs->n++];
}

static int rows_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[TRANSIT_A_MAX + 1];
	struct rows *rs = arg;
	struct row *r;
	uint8_t cmd;

	if (genl_parse(rs->g, msg, &cmd, tb, TRANSIT_A_MAX))
		return 0;
	r = rows_add(rs);
	if (!r)
		return -1;
	nlmsg_get(msg);
	r->msg = msg;
	memcpy(r->tb, tb, sizeof(tb));
	return 0;
}

static void rows_reset(struct rows *rs)
{
	while (rs->n)
		nlmsg_free(rs->r[--rs->n].msg);
}

/* Flows in address order: source, destination, protocol, ports. */
static int flow_cmp(const void *x, const void *y)
{
	static const int key[] = {
		TRANSIT_A_SADDR, TRANSIT_A_DADDR, TRANSIT_A_PROTO,
		TRANSIT_A_SPORT, TRANSIT_A_DPORT,
	};
	const struct row *a = x, *b = y;
	uint64_t u, v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(key); i++) {
		u = row_val(a, key[i]);
		v = row_val(b, key[i]);
		if (ATTR(key[i])->type == AT_ADDR) {
			u = ntohl((uint32_t)u);
			v = ntohl((uint32_t)v);
		}
		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

static void rows_print(const struct tr_cmd *c, struct rows *rs)
{
	bool flows = c->genl_cmd == TRANSIT_CMD_GET_FLOW;
	struct json j;
	size_t i;

	if (flows && rs->n)
		qsort(rs->r, rs->n, sizeof(*rs->r), flow_cmp);
	json_init(&j, stdout, opts.pretty);
	if (opts.json)
		json_arr_open(&j);
	for (i = 0; i < rs->n; i++) {
		if (flows)
			flow_print(&j, &rs->r[i]);
		else if (opts.json)
			dev_json(&j, &rs->r[i]);
		else
			dev_text(&rs->r[i]);
	}
	if (opts.json)
		json_arr_close(&j);
}

/* show (GET_DEV: a dump without dev DEV) and flows (GET_FLOW dump) */
static int do_show(const struct tr_cmd *c, const struct tr_args *a)
{
	int flags = c->genl_cmd == TRANSIT_CMD_GET_DEV && a->dev ? 0 :
		    NLM_F_DUMP;
	struct genl g;
	struct rows rs = { .g = &g };
	struct nl_msg *msg;
	int tries, r = -1;

	if (genl_open(&g, opts.netns, &transit_family.desc))
		return EXIT_ERR;
	for (tries = 0; tries < DUMP_TRIES; tries++) {
		rows_reset(&rs);
		msg = tr_msg(&g, c->genl_cmd, flags, a);
		r = msg ? genl_request(&g, msg, rows_cb, &rs) : -1;
		if (r != GENL_DUMP_INTR)
			break;
	}
	if (r == GENL_DUMP_INTR)
		fprintf(stderr, PROG_NAME ": the %s kept changing during the dump; try again\n",
			c->genl_cmd == TRANSIT_CMD_GET_FLOW ? "flow table" :
			"devices");
	if (!r)
		rows_print(c, &rs);
	rows_reset(&rs);
	free(rs.r);
	genl_close(&g);
	return r ? EXIT_ERR : EXIT_OK;
}

/* ---- monitor ------------------------------------------------------------- */

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[TRANSIT_A_MAX + 1];
	uint8_t cmd;

	if (genl_parse(arg, msg, &cmd, tb, TRANSIT_A_MAX))
		return 0;
	return monitor_print(&transit_family, NAME_OF(tr_cmd_names, cmd), tb);
}

static int do_monitor(const struct tr_cmd *c, const struct tr_args *a)
{
	(void)c;
	(void)a;
	return genl_monitor(opts.netns, &transit_family.desc,
			    transit_family.groups, monitor_cb) ?
	       EXIT_ERR : EXIT_OK;
}

/* ---- entry point ------------------------------------------------------- */

static bool help_word(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "-h") || !strcmp(s, "--help");
}

int transit_main(int argc, char **argv)
{
	/* "ahctl transit" alone shows, like "ahctl macfilter". */
	const char *name = argc ? argv[0] : "show";
	const struct tr_cmd *c = NULL;
	struct tr_args a;
	size_t i;

	if (help_word(name)) {
		transit_help(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(tr_cmds) && !c; i++)
		if (!strcmp(name, tr_cmds[i].name))
			c = &tr_cmds[i];
	if (!c) {
		fprintf(stderr, PROG_NAME ": transit: unknown command '%s'\n\n",
			name);
		transit_help(stderr);
		return EXIT_USAGE;
	}
	/* the command's own arguments */
	if (argc > 0) {
		argc--;
		argv++;
	}
	if (argc == 1 && help_word(*argv)) {
		cmd_usage(stdout, c);
		return EXIT_OK;
	}
	return parse_args(c, argc, argv, &a) ? EXIT_USAGE : c->run(c, &a);
}
