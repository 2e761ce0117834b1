// SPDX-License-Identifier: GPL-2.0
/*
 * ahctl dsr: configure and inspect a dsr device (Dynamic Source Routing,
 * RFC 4728) over generic netlink (see include/uapi/linux/ah_dsr.h).
 *
 * Every show and monitor command prints from the family's description
 * (common/dsr_attrs.c): the ABI's attributes are flat, so an attribute
 * has one JSON key (its name) and one text keyword wherever it appears;
 * the parameters, in their nest (DSR_A_PARAMS), have their own table.
 *
 * mcast join, leave, chain and show are layered multicast's
 * (docs/mcast.md): a (source, group) stream whose local receivers want its
 * first N layers, and the element chain its packets go through on this
 * node.  A join's fields, a chain's words, their checks and the request's
 * attributes are the common library's (common/dsr_mcast.c), which dsrd's
 * [mcast] uses too.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ah_dsr.h>

#include "ahctl.h"
#include "attrs.h"
#include "dsr_mcast.h"
#include "genl.h"
#include "json.h"
#include "names.h"
#include "parse.h"
#include "print.h"

/* Show: how often to restart a dump the kernel flagged as inconsistent. */
#define DUMP_TRIES	5

/* ---- attributes ---------------------------------------------------------- */

/* The description of attribute @id (common/dsr_attrs.c) */
#define ATTR(id)	(&dsr_family.attrs[id])
/* ... and of parameter @id (DSR_A_P_*, inside DSR_A_PARAMS) */
#define PARAM(id)	(&dsr_family.params[id])

static const struct flush_name {
	const char *name;
	uint32_t bits;
} flush_names[] = {
	{ "routes", DSR_FLUSH_ROUTES },
	{ "negcache", DSR_FLUSH_NEGCACHE },
	{ "sendbuf", DSR_FLUSH_SENDBUF },
	{ "reqtable", DSR_FLUSH_REQTABLE },
	{ "all", DSR_FLUSH_ALL },
};

static const char *event_name(uint8_t ev)
{
	return NAME_OF(dsr_event_names, ev);
}

/* ---- text output --------------------------------------------------------- */

/* One field of a row of a show command. */
struct col {
	int id;
	unsigned int flags;	/* print.h's P_* */
	const char *label;	/* text keyword; NULL: the attribute's */
};

static void text_row(const struct col *cols, struct nlattr **tb)
{
	bool first = true;

	for (; cols->id; cols++)
		attr_text(ATTR(cols->id), tb[cols->id], cols->flags,
			  cols->label, &first);
	if (!first)
		putchar('\n');
}

/* ---- JSON output --------------------------------------------------------- */

static void json_attr(struct json *j, const struct attr_desc *d,
		      const struct nlattr *a)
{
	if (!attr_valid(d, a))
		return;
	json_key(j, d->name);
	attr_json_value(j, d, a);
}

/*
 * A group's element chain (DSR_A_MC_CHAIN, binary: the table has no type
 * for it): its elements, each as "mcast chain" takes it; the number of
 * them (a byte left over is left out).
 */
static size_t mc_chain_elems(const struct nlattr *a,
			     const struct dsr_mc_elem_cfg **e)
{
	if (!a)
		return 0;
	*e = nla_data(a);
	return (size_t)nla_len(a) / sizeof(**e);
}

/* JSON: an array of strings, "cap 2" */
static void mc_chain_json(struct json *j, const struct nlattr *a)
{
	char buf[DSR_MC_ELEM_STR_MAX];
	const struct dsr_mc_elem_cfg *e = NULL;
	size_t i, n = mc_chain_elems(a, &e);

	if (!a)
		return;
	json_key(j, ATTR(DSR_A_MC_CHAIN)->name);
	json_arr_open(j);
	for (i = 0; i < n; i++) {
		dsr_mc_elem_str(&e[i], buf, sizeof(buf));
		json_str(j, buf);
	}
	json_arr_close(j);
}

/* Text: "chain tag dup cap 2 filter fanout"; nothing if it is empty */
static void mc_chain_text(const struct nlattr *a, bool *first)
{
	char buf[DSR_MC_ELEM_STR_MAX];
	const struct dsr_mc_elem_cfg *e = NULL;
	size_t i, n = mc_chain_elems(a, &e);

	if (!n)
		return;
	printf("%s%s", *first ? "" : " ", ATTR(DSR_A_MC_CHAIN)->label);
	*first = false;
	for (i = 0; i < n; i++) {
		dsr_mc_elem_str(&e[i], buf, sizeof(buf));
		printf(" %s", buf);
	}
}

/* A row's flags are always there, false when the kernel left them out. */
static void json_row(struct json *j, const struct col *cols,
		     struct nlattr **tb)
{
	json_obj_open(j);
	for (; cols->id; cols++) {
		if (cols->id == DSR_A_MC_CHAIN) {
			mc_chain_json(j, tb[cols->id]);
		} else if (ATTR(cols->id)->type == AT_FLAG && !tb[cols->id]) {
			json_key(j, ATTR(cols->id)->name);
			json_bool(j, false);
		} else {
			json_attr(j, ATTR(cols->id), tb[cols->id]);
		}
	}
	json_obj_close(j);
}

/* What a row of each show command prints, in this order. */
#define COL(a)		{ .id = DSR_A_##a }
#define BARE(a)		{ .id = DSR_A_##a, .flags = P_BARE }

static const struct col route_cols[] = {
	BARE(DST), COL(HOPCOUNT), COL(HOPS), COL(AGE_MS),
	{ .id = DSR_A_EXPIRES_MS, .flags = P_NEVER },
	COL(STATIC), COL(EXTERNAL), { .id = 0 },
};

static const struct col neigh_cols[] = {
	BARE(ADDR), COL(MAC), COL(SLAVE), COL(SRTT_US), COL(RTTVAR_US),
	COL(RTO_MS), COL(RTT_SAMPLES), COL(TX), COL(RETX), COL(ACKED),
	COL(AGE_MS), COL(BLACKLIST), COL(ACK_EXPLICIT), { .id = 0 },
};

static const struct col buffer_cols[] = {
	BARE(BUFFER), BARE(DST), COL(NEXTHOP), COL(LEN), COL(AGE_MS),
	COL(TRIES), { .id = 0 },
};

static const struct col reqtable_cols[] = {
	BARE(ADDR), COL(IDS), COL(AGE_MS), COL(DST), COL(TRIES), { .id = 0 },
};

static const struct col negcache_cols[] = {
	BARE(ADDR), { .id = DSR_A_NEXTHOP, .label = "to" }, COL(EXPIRES_MS),
	{ .id = 0 },
};

/*
 * mcast show: the rows of each kind (DSR_A_MC_ROW).  JSON prints them
 * all; text leaves out the row's kind, the source and group under their
 * group's line, and the tag's fields of the other mode (mc_text_row()).
 * The chain is last on its line: the rest of the line is the words
 * "mcast chain" takes.
 */
static const struct col mc_group_cols[] = {
	COL(MC_ROW), COL(MC_SOURCE), COL(MC_GROUP),
	{ .id = DSR_A_MC_UPSTREAM, .flags = P_NONE }, COL(MC_LAYERS),
	COL(MC_LOCAL_IGMP), COL(MC_MAPPED), COL(MC_ASKED), COL(MC_TAG_MODE),
	COL(MC_TAG_OFFSET),
	COL(MC_TAG_EXT_ID), COL(MC_TAG_TIDS), COL(MC_TAG_LAYERS),
	COL(MC_CHAIN), { .id = 0 },
};

static const struct col mc_child_cols[] = {
	COL(MC_ROW), COL(MC_SOURCE), COL(MC_GROUP),
	{ .id = DSR_A_ADDR, .label = "child" }, COL(MC_LAYERS), COL(SLAVE),
	COL(EXPIRES_MS), { .id = 0 },
};

static const struct col mc_layer_cols[] = {
	COL(MC_ROW), COL(MC_SOURCE), COL(MC_GROUP), COL(MC_LAYER),
	COL(MC_FWD_PACKETS), COL(MC_FWD_BYTES), COL(MC_FILT_PACKETS),
	COL(MC_FILT_BYTES), COL(MC_LOCAL_PACKETS), COL(MC_LOCAL_BYTES),
	COL(MC_CAPPED_PACKETS), { .id = 0 },
};

/* the source map's rows: "map GROUP source S", a line each */
static const struct col mc_map_cols[] = {
	COL(MC_ROW), COL(MC_GROUP), COL(MC_SOURCE), { .id = 0 },
};

/* ---- command line -------------------------------------------------------- */

struct dsr_args {
	const char *dev;
	bool has[DSR_A_MAX + 1];	/* attributes to send */
	uint32_t val[DSR_A_MAX + 1];	/* u32 ones */
	bool has_p[DSR_A_P_MAX + 1];	/* parameters to send (DSR_A_PARAMS) */
	uint32_t pval[DSR_A_P_MAX + 1];
	uint32_t hops[DSR_MAX_ADDRS];	/* DSR_A_HOPS */
	size_t nhops;
	bool has_mc;			/* mcast join, leave, chain: @mc */
	struct dsr_mc_req mc;
	bool has_chain;			/* mcast chain: @chain */
	struct dsr_mc_chain chain;
};

struct replies;

struct ds_cmd {
	const char *name;	/* one or two words */
	int (*parse)(const struct ds_cmd *c, int argc, char **argv,
		     struct dsr_args *a);
	int (*run)(const struct ds_cmd *c, const struct dsr_args *a);
	uint8_t genl_cmd;
	const struct col *cols;	/* show: a row */
	/* show: prints the replies; NULL: a row each (cols) */
	void (*print)(const struct ds_cmd *c, struct genl *g,
		      struct replies *r);
	const char *what;	/* show: what the dump lists */
	const char *args;
};

static int parse_show(const struct ds_cmd *c, int argc, char **argv,
		      struct dsr_args *a);
static int parse_mc_join(const struct ds_cmd *c, int argc, char **argv,
			 struct dsr_args *a);
static int parse_mc_leave(const struct ds_cmd *c, int argc, char **argv,
			  struct dsr_args *a);
static int parse_mc_chain(const struct ds_cmd *c, int argc, char **argv,
			  struct dsr_args *a);
static int parse_mc_map(const struct ds_cmd *c, int argc, char **argv,
			struct dsr_args *a);
static int parse_param_set(const struct ds_cmd *c, int argc, char **argv,
			   struct dsr_args *a);
static int parse_gateway(const struct ds_cmd *c, int argc, char **argv,
			 struct dsr_args *a);
static int parse_route_add(const struct ds_cmd *c, int argc, char **argv,
			   struct dsr_args *a);
static int parse_route_del(const struct ds_cmd *c, int argc, char **argv,
			   struct dsr_args *a);
static int parse_flush(const struct ds_cmd *c, int argc, char **argv,
		       struct dsr_args *a);
static int parse_none(const struct ds_cmd *c, int argc, char **argv,
		      struct dsr_args *a);
static int do_change(const struct ds_cmd *c, const struct dsr_args *a);
static int do_params(const struct ds_cmd *c, const struct dsr_args *a);
static int do_dump(const struct ds_cmd *c, const struct dsr_args *a);
static int do_monitor(const struct ds_cmd *c, const struct dsr_args *a);
static void mc_print(const struct ds_cmd *c, struct genl *g,
		     struct replies *r);

/* -j and -p after DEV as well, as before the object */
#define SHOW_ARGS	"DEV [-j [-p]]"

#define MC_JOIN_ARGS \
	"DEV source ADDR group GROUP layers N [tag byte [offset O] | tag rtp [id I] [tids T]] [group-layers M]"

#define MC_CHAIN_ARGS \
	"DEV source ADDR group GROUP ELEMENT... | default"

#define SHOW(obj, gcmd, c, w)						\
	{ .name = obj " show", .parse = parse_show, .run = do_dump,	\
	  .genl_cmd = gcmd, .cols = c, .what = w, .args = SHOW_ARGS }

static const struct ds_cmd dsr_cmds[] = {
	{ .name = "param show", .parse = parse_show, .run = do_params,
	  .genl_cmd = DSR_CMD_GET_PARAMS, .args = SHOW_ARGS },
	{ .name = "param set", .parse = parse_param_set, .run = do_change,
	  .genl_cmd = DSR_CMD_SET_PARAMS,
	  .args = "DEV NAME VALUE [NAME VALUE ...]" },
	{ .name = "gateway", .parse = parse_gateway, .run = do_change,
	  .genl_cmd = DSR_CMD_SET_PARAMS, .args = "DEV on|off" },
	SHOW("route", DSR_CMD_GET_ROUTE, route_cols, "route cache"),
	{ .name = "route add", .parse = parse_route_add, .run = do_change,
	  .genl_cmd = DSR_CMD_ADD_ROUTE, .args = "DEV DST [via HOP ...]" },
	{ .name = "route del", .parse = parse_route_del, .run = do_change,
	  .genl_cmd = DSR_CMD_DEL_ROUTE, .args = "DEV DST" },
	{ .name = "flush", .parse = parse_flush, .run = do_change,
	  .genl_cmd = DSR_CMD_FLUSH,
	  .args = "DEV [routes|negcache|sendbuf|reqtable|all ...]" },
	SHOW("neigh", DSR_CMD_GET_NEIGH, neigh_cols, "neighbour table"),
	SHOW("buffer", DSR_CMD_GET_BUFFER, buffer_cols, "buffers"),
	SHOW("reqtable", DSR_CMD_GET_REQTABLE, reqtable_cols,
	     "request table"),
	SHOW("negcache", DSR_CMD_GET_NEGCACHE, negcache_cols,
	     "negative cache"),
	{ .name = "mcast join", .parse = parse_mc_join, .run = do_change,
	  .genl_cmd = DSR_CMD_MCAST_JOIN,
	  .args = MC_JOIN_ARGS },
	{ .name = "mcast leave", .parse = parse_mc_leave, .run = do_change,
	  .genl_cmd = DSR_CMD_MCAST_LEAVE,
	  .args = "DEV source ADDR group GROUP" },
	{ .name = "mcast chain", .parse = parse_mc_chain, .run = do_change,
	  .genl_cmd = DSR_CMD_MCAST_CHAIN, .args = MC_CHAIN_ARGS },
	{ .name = "mcast map", .parse = parse_mc_map, .run = do_change,
	  .genl_cmd = DSR_CMD_MCAST_MAP,
	  .args = "DEV group GROUP source ADDR" },
	{ .name = "mcast unmap", .parse = parse_mc_map, .run = do_change,
	  .genl_cmd = DSR_CMD_MCAST_UNMAP,
	  .args = "DEV group GROUP [source ADDR]" },
	{ .name = "mcast show", .parse = parse_show, .run = do_dump,
	  .genl_cmd = DSR_CMD_GET_MCAST, .print = mc_print,
	  .what = "multicast state", .args = SHOW_ARGS },
	{ .name = "monitor", .parse = parse_none, .run = do_monitor,
	  .args = "" },
};

AHCTL_CMD_USAGE(struct ds_cmd, "dsr")

/* The parameter names, comma-separated, wrapped after @indent. */
static void param_names(FILE *f, const char *indent)
{
	size_t col = 0, len;
	int id;

	for (id = DSR_A_P_FIRST; id <= DSR_A_P_LAST; id++) {
		len = strlen(PARAM(id)->name);
		if (col && col + len + 2 > 78) {
			fputs(",\n", f);
			col = 0;
		} else if (col) {
			fputs(", ", f);
			col += 2;
		}
		if (!col) {
			fputs(indent, f);
			col = strlen(indent);
		}
		fputs(PARAM(id)->name, f);
		col += len;
	}
	fputc('\n', f);
}

void dsr_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: " PROG_NAME " [-j [-p]] [-n NETNS] dsr COMMAND [ARGS]\n\n");
	fprintf(f, "Dynamic Source Routing (RFC 4728) device.\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(dsr_cmds); i++)
		fprintf(f, "  dsr %s%s%s\n", dsr_cmds[i].name,
			dsr_cmds[i].args[0] ? " " : "", dsr_cmds[i].args);
	fprintf(f, "  dsr help\n\n"
		"DEV    dsr device name (or 'dev DEV')\n"
		"DST    destination, an IPv4 address A.B.C.D\n"
		"HOP    node on the way to DST, in order (at most %d with DST)\n"
		"NAME   protocol parameter; VALUE is an unsigned 32-bit integer:\n",
		DSR_MAX_ADDRS);
	param_names(f, "       ");
	fprintf(f, "       subnet takes A.B.C.D[/LEN] (/LEN sets subnet_prefix)\n"
		"flush  what to empty (default all)\n"
		"ADDR   a multicast stream's source, a unicast IPv4 address\n"
		"GROUP  its group, 224.0.1.0 to 239.255.255.255\n"
		"N      layers 0..N-1 wanted by local receivers, 1..%d\n"
		"tag    how the group's packets carry their layer: byte (the low 7\n"
		"       bits of the UDP payload's byte O, default %d) or rtp (RFC 9626\n"
		"       frame marking, header extension id I, 1..255, default %d;\n"
		"       T temporal layers a layer id, 0..%d, default %d)\n"
		"M      the group's layers, 1..%d\n"
		"ELEMENT the group's element chain on this node, in order, each\n"
		"       at most once, at most %d: tag (first), dup, cap C (layers\n"
		"       0..C-1 go on, %d..%d), filter, fanout [bcast B] (last: one\n"
		"       broadcast where B or more children share a slave, 0..%d;\n"
		"       without bcast the device's mcast_bcast_min);\n"
		"       default: %s\n"
		"map    an any-source join of GROUP by a local socket joins the\n"
		"       trees of its mapped sources (at most %d of each of %d groups)\n"
		"-j, -p JSON output, also after a show command's DEV\n",
		DSR_MC_MAX_LAYERS, DSR_MC_DEF_OFFSET, DSR_MC_DEF_EXT_ID,
		DSR_MC_MAX_TIDS, DSR_MC_DEF_TIDS, DSR_MC_MAX_LAYERS,
		DSR_MC_CHAIN_MAX, DSR_MC_CAP_MIN, DSR_MC_CAP_MAX,
		DSR_MC_BCAST_MAX, DSR_MC_CHAIN_DEFAULT_STR,
		DSR_MC_MAP_SOURCES, DSR_MC_MAP_GROUPS);
}

/* DEV, or "dev DEV" (a device named "dev" alone is DEV) */
static int take_dev(const struct ds_cmd *c, int *argc, char ***argv,
		    struct dsr_args *a)
{
	const char *s;

	if (*argc >= 2 && !strcmp((*argv)[0], "dev")) {
		(*argc)--;
		(*argv)++;
	}
	if (*argc < 1)
		return usage_err(c, "missing DEV");
	s = (*argv)[0];
	if (!*s)
		return usage_err(c, "empty device name");
	if (strlen(s) >= IFNAMSIZ)
		return usage_err(c, "device name '%s' is too long (at most %d bytes)",
				 s, IFNAMSIZ - 1);
	a->dev = s;
	(*argc)--;
	(*argv)++;
	return 0;
}

static int no_more(const struct ds_cmd *c, int argc, char **argv)
{
	if (argc)
		return usage_err(c, "unexpected argument '%s'", argv[0]);
	return 0;
}

static int parse_addr(const struct ds_cmd *c, const char *s, uint32_t *be)
{
	struct in_addr in;

	if (inet_pton(AF_INET, s, &in) != 1)
		return usage_err(c, "invalid IPv4 address '%s' (A.B.C.D)", s);
	*be = in.s_addr;
	return 0;
}

static int set_attr(const struct ds_cmd *c, struct dsr_args *a, int id,
		    uint32_t v)
{
	if (a->has[id])
		return usage_err(c, "'%s' given twice", ATTR(id)->name);
	a->has[id] = true;
	a->val[id] = v;
	return 0;
}

static int set_param(const struct ds_cmd *c, struct dsr_args *a, int id,
		     uint32_t v)
{
	if (a->has_p[id])
		return usage_err(c, "'%s' given twice", PARAM(id)->name);
	a->has_p[id] = true;
	a->pval[id] = v;
	return 0;
}

static int parse_none(const struct ds_cmd *c, int argc, char **argv,
		      struct dsr_args *a)
{
	(void)a;
	return no_more(c, argc, argv);
}

/* DEV, and -j or -p after it */
static int parse_show(const struct ds_cmd *c, int argc, char **argv,
		      struct dsr_args *a)
{
	bool pretty;
	int i;

	if (take_dev(c, &argc, &argv, a))
		return -1;
	for (i = 0; i < argc; i++) {
		if (!parse_json_opt(argv[i], &pretty))
			return usage_err(c, "unexpected argument '%s'",
					 argv[i]);
		opts.json = true;
		opts.pretty |= pretty;
	}
	return 0;
}

/* A.B.C.D[/LEN]: the subnet and, with LEN, its prefix length. */
static int parse_subnet(const struct ds_cmd *c, const char *s,
			struct dsr_args *a)
{
	bool slash = strchr(s, '/');
	unsigned int plen;
	uint32_t addr;

	if (parse_cidr(s, false, &addr, &plen))
		goto bad;
	if (set_param(c, a, DSR_A_P_SUBNET, addr))
		return -1;
	if (slash && a->has_p[DSR_A_P_SUBNET_PREFIX])
		return usage_err(c, "'subnet_prefix' given twice (subnet A.B.C.D/LEN sets it)");
	if (slash)
		set_param(c, a, DSR_A_P_SUBNET_PREFIX, plen);
	return 0;

bad:
	return usage_err(c, "invalid subnet '%s' (A.B.C.D[/LEN], LEN 0..32)",
			 s);
}

static int parse_param_set(const struct ds_cmd *c, int argc, char **argv,
			   struct dsr_args *a)
{
	uint32_t v;
	int i, id;

	if (take_dev(c, &argc, &argv, a))
		return -1;
	if (!argc)
		return usage_err(c, "nothing to set (NAME VALUE ...)");
	for (i = 0; i < argc; i += 2) {
		id = fam_param_find(&dsr_family, argv[i]);
		if (id < 0) {
			fprintf(stderr, PROG_NAME ": dsr %s: unknown parameter '%s'; one of:\n",
				c->name, argv[i]);
			param_names(stderr, "  ");
			cmd_usage(stderr, c);
			return -1;
		}
		if (i + 1 >= argc)
			return usage_err(c, "'%s' needs a value", argv[i]);
		if (id == DSR_A_P_SUBNET) {
			if (parse_subnet(c, argv[i + 1], a))
				return -1;
			continue;
		}
		if (parse_u32(argv[i + 1], &v))
			return usage_err(c, "invalid %s '%s' (0..%" PRIu32 ")",
					 argv[i], argv[i + 1], UINT32_MAX);
		if (set_param(c, a, id, v))
			return -1;
	}
	return 0;
}

static int parse_gateway(const struct ds_cmd *c, int argc, char **argv,
			 struct dsr_args *a)
{
	uint32_t v;

	if (take_dev(c, &argc, &argv, a))
		return -1;
	if (!argc)
		return usage_err(c, "missing on|off");
	if (!strcmp(argv[0], "on"))
		v = 1;
	else if (!strcmp(argv[0], "off"))
		v = 0;
	else
		return usage_err(c, "invalid value '%s' (on or off)", argv[0]);
	set_param(c, a, DSR_A_P_GATEWAY, v);
	return no_more(c, argc - 1, argv + 1);
}

static int take_dst(const struct ds_cmd *c, int *argc, char ***argv,
		    struct dsr_args *a)
{
	uint32_t be = 0;

	if (*argc < 1)
		return usage_err(c, "missing DST");
	if (parse_addr(c, (*argv)[0], &be))
		return -1;
	set_attr(c, a, DSR_A_DST, be);
	(*argc)--;
	(*argv)++;
	return 0;
}

/* HOPS is the path after us: the hops given with "via", then DST. */
static int parse_route_add(const struct ds_cmd *c, int argc, char **argv,
			   struct dsr_args *a)
{
	int i;

	if (take_dev(c, &argc, &argv, a) || take_dst(c, &argc, &argv, a))
		return -1;
	if (argc) {
		if (strcmp(argv[0], "via"))
			return usage_err(c, "unexpected argument '%s'",
					 argv[0]);
		if (argc < 2)
			return usage_err(c, "'via' needs at least one HOP");
		if (argc - 1 >= DSR_MAX_ADDRS)
			return usage_err(c, "too many hops (at most %d addresses with DST)",
					 DSR_MAX_ADDRS);
		for (i = 1; i < argc; i++)
			if (parse_addr(c, argv[i], &a->hops[a->nhops++]))
				return -1;
	}
	a->hops[a->nhops++] = a->val[DSR_A_DST];
	a->has[DSR_A_HOPS] = true;
	return 0;
}

static int parse_route_del(const struct ds_cmd *c, int argc, char **argv,
			   struct dsr_args *a)
{
	if (take_dev(c, &argc, &argv, a) || take_dst(c, &argc, &argv, a))
		return -1;
	return no_more(c, argc, argv);
}

static int parse_flush(const struct ds_cmd *c, int argc, char **argv,
		       struct dsr_args *a)
{
	uint32_t bits = 0;
	size_t k;
	int i;

	if (take_dev(c, &argc, &argv, a))
		return -1;
	for (i = 0; i < argc; i++) {
		for (k = 0; k < ARRAY_SIZE(flush_names); k++)
			if (!strcmp(argv[i], flush_names[k].name))
				break;
		if (k == ARRAY_SIZE(flush_names))
			return usage_err(c, "invalid table '%s' (routes, negcache, sendbuf, reqtable or all)",
					 argv[i]);
		bits |= flush_names[k].bits;
	}
	set_attr(c, a, DSR_A_FLUSH, bits ? bits : DSR_FLUSH_ALL);
	return 0;
}

/* ---- mcast join, leave --------------------------------------------------- */

/*
 * Their arguments after DEV: KEYWORD VALUE, in any order, each the text
 * keyword of the attribute it sets (common/dsr_mcast.c, dsr_attrs.c).
 */
static int mc_value(const struct ds_cmd *c, const struct dsr_mc_field *f,
		    const char *s, uint32_t *v)
{
	switch (dsr_mc_value(f, s, v)) {
	case DSR_MC_VALUE_OK:
		return 0;
	case DSR_MC_BAD_ADDR:
		return usage_err(c, "invalid IPv4 address '%s' (A.B.C.D)", s);
	case DSR_MC_BAD_SOURCE:
		return usage_err(c, "invalid source '%s' (" DSR_MC_SOURCE_RULE ")",
				 s);
	case DSR_MC_BAD_GROUP:
		return usage_err(c, "invalid group '%s' (" DSR_MC_GROUP_RULE ")",
				 s);
	case DSR_MC_BAD_NUM:
		return usage_err(c, "invalid %s '%s' (%s, %" PRIu32 "..%" PRIu32 ")",
				 f->kw, s, f->what, f->min, f->max);
	case DSR_MC_BAD_MODE:
		return usage_err(c, "invalid tag '%s' (" DSR_MC_MODE_RULE ")", s);
	}
	return -1;
}

/* The value of keyword @f at argv[i + 1], once, into @r */
static int mc_kw_value(const struct ds_cmd *c, const struct dsr_mc_field *f,
		       int i, int argc, char **argv, struct dsr_mc_req *r)
{
	uint32_t v;

	if (dsr_mc_has(r, f->id))
		return usage_err(c, "'%s' given twice", f->kw);
	if (i + 1 >= argc)
		return usage_err(c, "'%s' needs a value", f->kw);
	if (mc_value(c, f, argv[i + 1], &v))
		return -1;
	dsr_mc_set(r, f->id, v);
	return 0;
}

/*
 * The keywords after DEV, then what is missing or does not go together;
 * with @nkw (mcast chain, whose elements follow source and group; "tag"
 * is one), they end at the first word that is not source or group, none
 * may come after that, and *@nkw is the number of words they took
 */
static int parse_mc_kw(const struct ds_cmd *c, int argc, char **argv,
		       struct dsr_args *a, bool join, int *nkw)
{
	const struct dsr_mc_field *f;
	struct dsr_mc_req *r = &a->mc;
	int i, k;

	for (i = 0; i < argc; i += 2) {
		f = dsr_mc_field_kw(argv[i]);
		if (nkw && (!f || f->join))
			break;
		if (!f)
			return usage_err(c, "unexpected argument '%s'",
					 argv[i]);
		if (f->join && !join)
			return usage_err(c, "'%s' is not an argument of this command",
					 f->kw);
		if (mc_kw_value(c, f, i, argc, argv, r))
			return -1;
	}
	/* mcast chain: source or group after an element */
	for (k = i; nkw && k < argc; k++) {
		f = dsr_mc_field_kw(argv[k]);
		if (f && !f->join)
			return usage_err(c, dsr_mc_has(r, f->id) ?
					 "'%s' given twice" :
					 "'%s' comes before the elements",
					 f->kw);
	}
	if (nkw)
		*nkw = i;
	a->has_mc = true;
	switch (dsr_mc_check(r, join)) {
	case DSR_MC_REQ_OK:
		return 0;
	case DSR_MC_NO_SOURCE:
		return usage_err(c, "missing 'source ADDR'");
	case DSR_MC_NO_GROUP:
		return usage_err(c, "missing 'group GROUP'");
	case DSR_MC_NO_LAYERS:
		return usage_err(c, "missing 'layers N'");
	case DSR_MC_OFFSET_NOT_BYTE:
		return usage_err(c, "'offset' needs 'tag byte'");
	case DSR_MC_ID_NOT_RTP:
		return usage_err(c, "'id' needs 'tag rtp'");
	case DSR_MC_TIDS_NOT_RTP:
		return usage_err(c, "'tids' needs 'tag rtp'");
	case DSR_MC_LAYERS_ABOVE:
		return usage_err(c, "layers %" PRIu32 " is more than group-layers %" PRIu32,
				 dsr_mc_get(r, DSR_A_MC_LAYERS),
				 dsr_mc_get(r, DSR_A_MC_TAG_LAYERS));
	}
	return -1;
}

static int parse_mc(const struct ds_cmd *c, int argc, char **argv,
		    struct dsr_args *a, bool join)
{
	if (take_dev(c, &argc, &argv, a))
		return -1;
	return parse_mc_kw(c, argc, argv, a, join, NULL);
}

static int parse_mc_leave(const struct ds_cmd *c, int argc, char **argv,
			  struct dsr_args *a)
{
	return parse_mc(c, argc, argv, a, false);
}

/*
 * DEV, source and group (as leave takes them, in either order), then the
 * elements in the order of the chain, or "default"; each checked as the
 * module will (common/dsr_mcast.c) before anything is sent.
 */
static int parse_mc_chain(const struct ds_cmd *c, int argc, char **argv,
			  struct dsr_args *a)
{
	struct dsr_mc_chain *ch = &a->chain;
	enum dsr_mc_chain_problem p;
	char msg[256];
	int n, at;

	if (take_dev(c, &argc, &argv, a) ||
	    parse_mc_kw(c, argc, argv, a, false, &n))
		return -1;
	argc -= n;
	argv += n;
	p = dsr_mc_chain_parse(argc, argv, ch, &at);
	if (p == DSR_MC_CHAIN_OK) {
		a->has_chain = true;
		return 0;
	}
	dsr_mc_chain_msg(p, argc, argv, at, msg, sizeof(msg));
	return usage_err(c, "%s", msg);
}

/*
 * mcast map, unmap: DEV, then group and source in either order (unmap:
 * without source, every source of the group), checked as a leave's
 */
static int parse_mc_map(const struct ds_cmd *c, int argc, char **argv,
			struct dsr_args *a)
{
	const struct dsr_mc_field *f;
	struct dsr_mc_req *r = &a->mc;
	int i;

	if (take_dev(c, &argc, &argv, a))
		return -1;
	for (i = 0; i < argc; i += 2) {
		f = dsr_mc_field_kw(argv[i]);
		if (!f || f->join)
			return usage_err(c, "unexpected argument '%s'",
					 argv[i]);
		if (mc_kw_value(c, f, i, argc, argv, r))
			return -1;
	}
	if (!dsr_mc_has(r, DSR_A_MC_GROUP))
		return usage_err(c, "missing 'group GROUP'");
	if (c->genl_cmd == DSR_CMD_MCAST_MAP &&
	    !dsr_mc_has(r, DSR_A_MC_SOURCE))
		return usage_err(c, "missing 'source ADDR'");
	a->has_mc = true;
	return 0;
}

/* "tag MODE" sends the mode's fields, with their defaults where not given */
static int parse_mc_join(const struct ds_cmd *c, int argc, char **argv,
			 struct dsr_args *a)
{
	if (parse_mc(c, argc, argv, a, true))
		return -1;
	dsr_mc_tag_defaults(&a->mc);
	return 0;
}

/* ---- requests ------------------------------------------------------------ */

/* The parameters the parser set, in their nest (if any) */
static int put_params(struct nl_msg *msg, const struct dsr_args *a)
{
	struct nlattr *nest = NULL;
	int id;

	for (id = DSR_A_P_FIRST; id <= DSR_A_P_LAST; id++) {
		if (!a->has_p[id])
			continue;
		/* every command is strictly validated: NLA_F_NESTED */
		if (!nest)
			nest = nla_nest_start(msg, DSR_A_PARAMS | NLA_F_NESTED);
		if (!nest || nla_put_u32(msg, id, a->pval[id]))
			return -1;
	}
	if (nest)
		nla_nest_end(msg, nest);
	return 0;
}

/*
 * A request on the device carrying every attribute the parser set, each
 * of its type's width (u8, u16; u32 and be32 otherwise); a join's, a
 * leave's or a chain's, the common library's.
 */
static struct nl_msg *dsr_msg(struct genl *g, uint8_t cmd, int flags,
			      const struct dsr_args *a)
{
	struct nl_msg *msg = genl_new(g, cmd, flags, 0);
	int id, err = 0;

	if (!msg)
		return NULL;
	err = nla_put_string(msg, DSR_A_IFNAME, a->dev);
	for (id = 1; id <= DSR_A_MAX && !err; id++) {
		if (!a->has[id])
			continue;
		if (id == DSR_A_HOPS)
			err = nla_put(msg, id,
				      (int)(a->nhops * sizeof(a->hops[0])),
				      a->hops);
		else if (attr_type_len(ATTR(id)->type) == 1)
			err = nla_put_u8(msg, id, (uint8_t)a->val[id]);
		else if (attr_type_len(ATTR(id)->type) == 2)
			err = nla_put_u16(msg, id, (uint16_t)a->val[id]);
		else
			err = nla_put_u32(msg, id, a->val[id]);
	}
	if (!err && a->has_mc)
		err = dsr_mc_put(msg, &a->mc, cmd == DSR_CMD_MCAST_JOIN);
	if (!err && a->has_chain)
		err = dsr_mc_chain_put(msg, &a->chain);
	if (!err)
		err = put_params(msg, a);
	if (err) {
		fprintf(stderr, PROG_NAME ": out of memory\n");
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int do_change(const struct ds_cmd *c, const struct dsr_args *a)
{
	struct nl_msg *msg;
	struct genl g;
	int ret = EXIT_ERR;

	if (genl_open(&g, opts.netns, &dsr_family.desc))
		return EXIT_ERR;
	msg = dsr_msg(&g, c->genl_cmd, 0, a);
	if (msg && !genl_request(&g, msg, NULL, NULL))
		ret = EXIT_OK;
	genl_close(&g);
	return ret;
}

/* Replies kept until the request is complete, so a retry prints once. */
struct replies {
	struct genl *g;
	struct nl_msg **msgs;
	size_t n, alloc;
};

static int collect_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[DSR_A_MAX + 1];
	struct replies *r = arg;
	size_t want = r->alloc ? 2 * r->alloc : 64;
	struct nl_msg **p;
	uint8_t cmd;

	if (genl_parse(r->g, msg, &cmd, tb, DSR_A_MAX))
		return 0;
	if (r->n == r->alloc) {
		p = want < SIZE_MAX / sizeof(*p) ?
		    realloc(r->msgs, want * sizeof(*p)) : NULL;
		if (!p) {
			fprintf(stderr, PROG_NAME ": out of memory\n");
			return -1;
		}
		r->msgs = p;
		r->alloc = want;
	}
	nlmsg_get(msg);
	r->msgs[r->n++] = msg;
	return 0;
}

static void replies_reset(struct replies *r)
{
	while (r->n)
		nlmsg_free(r->msgs[--r->n]);
}

static void replies_free(struct replies *r)
{
	replies_reset(r);
	free(r->msgs);
}

/* Send the request, retrying dumps the kernel flagged; 0 or -1. */
static int query(const struct ds_cmd *c, const struct dsr_args *a,
		 int flags, struct replies *r)
{
	struct nl_msg *msg;
	int tries, ret;

	for (tries = 0; tries < DUMP_TRIES; tries++) {
		replies_reset(r);
		msg = dsr_msg(r->g, c->genl_cmd, flags, a);
		if (!msg)
			return -1;
		ret = genl_request(r->g, msg, collect_cb, r);
		if (ret != GENL_DUMP_INTR)
			return ret;
	}
	fprintf(stderr, PROG_NAME ": the %s kept changing during the dump; try again\n",
		c->what ? c->what : "state");
	return -1;
}

/* ---- show ---------------------------------------------------------------- */

static void params_print(struct genl *g, struct replies *r)
{
	struct nlattr *tb[DSR_A_MAX + 1] = { NULL };
	struct nlattr *ptb[ATTRS_MAX + 1];
	struct json j;
	bool first;
	uint8_t cmd;
	int id;

	if (r->n && genl_parse(g, r->msgs[0], &cmd, tb, DSR_A_MAX))
		memset(tb, 0, sizeof(tb));
	/* (a malformed nest: none, as a missing one) */
	fam_params_parse(&dsr_family, tb, ptb);
	json_init(&j, stdout, opts.pretty);
	if (opts.json)
		json_obj_open(&j);
	for (id = DSR_A_P_FIRST; id <= DSR_A_P_LAST; id++) {
		if (opts.json) {
			json_attr(&j, PARAM(id), ptb[id]);
		} else {
			first = true;
			if (attr_text(PARAM(id), ptb[id], 0, NULL, &first))
				putchar('\n');
		}
	}
	if (opts.json)
		json_obj_close(&j);
}

static int do_params(const struct ds_cmd *c, const struct dsr_args *a)
{
	struct genl g;
	struct replies r = { .g = &g };
	int ret = EXIT_ERR;

	if (genl_open(&g, opts.netns, &dsr_family.desc))
		return EXIT_ERR;
	if (!query(c, a, 0, &r)) {
		params_print(&g, &r);
		ret = EXIT_OK;
	}
	replies_free(&r);
	genl_close(&g);
	return ret;
}

static void rows_print(const struct ds_cmd *c, struct genl *g,
		       struct replies *r)
{
	struct nlattr *tb[DSR_A_MAX + 1];
	struct json j;
	uint8_t cmd;
	size_t i;

	json_init(&j, stdout, opts.pretty);
	if (opts.json)
		json_arr_open(&j);
	for (i = 0; i < r->n; i++) {
		if (genl_parse(g, r->msgs[i], &cmd, tb, DSR_A_MAX))
			continue;
		if (opts.json)
			json_row(&j, c->cols, tb);
		else
			text_row(c->cols, tb);
	}
	if (opts.json)
		json_arr_close(&j);
}

static int do_dump(const struct ds_cmd *c, const struct dsr_args *a)
{
	struct genl g;
	struct replies r = { .g = &g };
	int ret = EXIT_ERR;

	if (genl_open(&g, opts.netns, &dsr_family.desc))
		return EXIT_ERR;
	if (!query(c, a, NLM_F_DUMP, &r)) {
		if (c->print)
			c->print(c, &g, &r);
		else
			rows_print(c, &g, &r);
		ret = EXIT_OK;
	}
	replies_free(&r);
	genl_close(&g);
	return ret;
}

/* ---- mcast show ---------------------------------------------------------- */

/* The columns of a row of kind @row, or NULL (a kind we do not know) */
static const struct col *mc_cols(struct nlattr **tb, uint8_t *row)
{
	if (!attr_u8(tb[DSR_A_MC_ROW], row))
		return NULL;
	switch (*row) {
	case DSR_MC_ROW_GROUP:
		return mc_group_cols;
	case DSR_MC_ROW_CHILD:
		return mc_child_cols;
	case DSR_MC_ROW_LAYER:
		return mc_layer_cols;
	case DSR_MC_ROW_MAP:
		return mc_map_cols;
	}
	return NULL;
}

/* Whether text leaves column @id of a row of kind @row out. */
static bool mc_text_skip(int id, uint8_t row, struct nlattr **tb)
{
	uint8_t mode;

	switch (id) {
	case DSR_A_MC_ROW:
		return true;
	case DSR_A_MC_SOURCE:
	case DSR_A_MC_GROUP:
		return row != DSR_MC_ROW_GROUP && row != DSR_MC_ROW_MAP;
	case DSR_A_MC_TAG_OFFSET:
		return attr_u8(tb[DSR_A_MC_TAG_MODE], &mode) &&
		       mode != DSR_MC_TAG_BYTE;
	case DSR_A_MC_TAG_EXT_ID:
	case DSR_A_MC_TAG_TIDS:
		return attr_u8(tb[DSR_A_MC_TAG_MODE], &mode) &&
		       mode != DSR_MC_TAG_RTP;
	}
	return false;
}

static void mc_text_row(const struct col *cols, uint8_t row,
			struct nlattr **tb)
{
	bool first = true;

	if (row == DSR_MC_ROW_MAP)
		fputs("map ", stdout);
	else if (row != DSR_MC_ROW_GROUP)
		putchar('\t');
	for (; cols->id; cols++) {
		if (mc_text_skip(cols->id, row, tb))
			continue;
		if (cols->id == DSR_A_MC_CHAIN)
			mc_chain_text(tb[cols->id], &first);
		else
			attr_text(ATTR(cols->id), tb[cols->id], cols->flags,
				  cols->label, &first);
	}
	putchar('\n');
}

/* The (source, group) of a row, 0 for what it lacks */
static void mc_key(struct nlattr **tb, uint32_t key[2])
{
	key[0] = 0;
	key[1] = 0;
	attr_u32(tb[DSR_A_MC_SOURCE], &key[0]);
	attr_u32(tb[DSR_A_MC_GROUP], &key[1]);
}

/*
 * Text: a line per group, its children's and layers' lines indented under
 * it (a child or layer whose group line did not come first gets a line
 * "source S group G" of its own); JSON: an array of every row, with its
 * kind (mc_row), its source and its group.
 */
static void mc_print(const struct ds_cmd *c, struct genl *g,
		     struct replies *r)
{
	struct nlattr *tb[DSR_A_MAX + 1];
	uint32_t key[2], last[2] = { 0, 0 };
	const struct col *cols;
	bool first, header = false;
	struct json j;
	uint8_t cmd, row;
	size_t i;

	(void)c;
	json_init(&j, stdout, opts.pretty);
	if (opts.json)
		json_arr_open(&j);
	for (i = 0; i < r->n; i++) {
		if (genl_parse(g, r->msgs[i], &cmd, tb, DSR_A_MAX))
			continue;
		cols = mc_cols(tb, &row);
		if (opts.json) {
			if (cols) {
				json_row(&j, cols, tb);
			} else {
				/* a row of a newer kernel: what it has */
				json_obj_open(&j);
				attrs_json(&j, &dsr_family, tb, 0, 0);
				json_obj_close(&j);
			}
			continue;
		}
		if (!cols)
			continue;
		mc_key(tb, key);
		if (row != DSR_MC_ROW_GROUP && row != DSR_MC_ROW_MAP &&
		    (!header || key[0] != last[0] || key[1] != last[1])) {
			first = true;
			fam_text(&dsr_family, DSR_A_MC_SOURCE, tb, 0, &first);
			fam_text(&dsr_family, DSR_A_MC_GROUP, tb, 0, &first);
			putchar('\n');
		}
		header = true;
		last[0] = key[0];
		last[1] = key[1];
		mc_text_row(cols, row, tb);
	}
	if (opts.json)
		json_arr_close(&j);
}

/* ---- monitor ------------------------------------------------------------- */

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[DSR_A_MAX + 1];
	struct genl *g = arg;
	uint8_t cmd, ev = DSR_EVENT_UNSPEC;

	if (genl_parse(g, msg, &cmd, tb, DSR_A_MAX) || cmd != DSR_CMD_EVENT)
		return 0;
	attr_u8(tb[DSR_A_EVENT], &ev);
	return monitor_print(&dsr_family, event_name(ev), tb);
}

static int do_monitor(const struct ds_cmd *c, const struct dsr_args *a)
{
	(void)c;
	(void)a;
	return genl_monitor(opts.netns, &dsr_family.desc, dsr_family.groups,
			    monitor_cb) ? EXIT_ERR : EXIT_OK;
}

/* ---- entry point ------------------------------------------------------- */

static bool is_help(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "-h") || !strcmp(s, "--help");
}

/* Length of the first word of @name if it is @w, else 0. */
static size_t first_word(const char *name, const char *w)
{
	size_t n = strlen(w);

	if (n && !strncmp(name, w, n) && (name[n] == ' ' || !name[n]))
		return n;
	return 0;
}

/* Usage of every command "@word ..." (route show, route add, ...). */
static void group_usage(FILE *f, const char *word)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dsr_cmds); i++)
		if (first_word(dsr_cmds[i].name, word))
			cmd_usage(f, &dsr_cmds[i]);
}

/*
 * The command in @argv; *@words is how many words its name took, *@group
 * whether argv[0] starts a two-word name (for the messages if none fits).
 */
static const struct ds_cmd *cmd_find(int argc, char **argv, int *words,
				      bool *group)
{
	size_t i, n;

	*group = false;
	for (i = 0; i < ARRAY_SIZE(dsr_cmds); i++) {
		n = first_word(dsr_cmds[i].name, argv[0]);
		if (!n)
			continue;
		if (!dsr_cmds[i].name[n]) {
			*words = 1;
			return &dsr_cmds[i];
		}
		*group = true;
		if (argc > 1 && !strcmp(dsr_cmds[i].name + n + 1, argv[1])) {
			*words = 2;
			return &dsr_cmds[i];
		}
	}
	return NULL;
}

int dsr_main(int argc, char **argv)
{
	const struct ds_cmd *c;
	struct dsr_args a;
	bool group;
	int words;

	if (!argc) {
		fprintf(stderr, PROG_NAME ": dsr: missing command\n\n");
		dsr_help(stderr);
		return EXIT_USAGE;
	}
	if (is_help(argv[0])) {
		dsr_help(stdout);
		return EXIT_OK;
	}
	c = cmd_find(argc, argv, &words, &group);
	if (!c && group) {
		/* "route", "route help", "route foo" */
		if (argc > 1 && is_help(argv[1])) {
			group_usage(stdout, argv[0]);
			return EXIT_OK;
		}
		if (argc > 1)
			fprintf(stderr, PROG_NAME ": dsr %s: unknown command '%s'\n",
				argv[0], argv[1]);
		else
			fprintf(stderr, PROG_NAME ": dsr %s: missing command\n",
				argv[0]);
		group_usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (!c) {
		fprintf(stderr, PROG_NAME ": dsr: unknown command '%s'\n\n",
			argv[0]);
		dsr_help(stderr);
		return EXIT_USAGE;
	}
	argc -= words;
	argv += words;
	if (argc == 1 && is_help(argv[0])) {
		cmd_usage(stdout, c);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	if (c->parse(c, argc, argv, &a))
		return EXIT_USAGE;
	return c->run(c, &a);
}
