// SPDX-License-Identifier: GPL-2.0
/*
 * ahctl slice: lease an interface of the node to a slice (a network
 * namespace) with exclusive access, revoke it, and see who holds what,
 * over generic netlink (see include/uapi/linux/ah_slice.h).
 *
 * The grant lives in the namespace ahctl runs in (-n NETNS, else ours):
 * dev IFACE is looked up there.  The slice is the namespace SLICE as
 * "ip netns" names it (its file is handed to the kernel, its name sent
 * as the slice's label), or the namespace of a process (pid PID).
 *
 * In map mode the kernel gives the slice an interface and leaves its
 * configuration to us: after the grant, ahctl reads it back (GET) and
 * configures the slice's side in the slice's namespace (common/slice_map.c:
 * ADDR/32, up, a default route); if that fails, it revokes the grant.
 *
 * In move mode a wireless interface moves with its phy, which the kernel
 * leaves to us (common/slice_phy.c): after the grant, ahctl reads it back
 * and, if it waits for its phy (PHY_WAIT), moves the phy into the slice
 * with nl80211 and waits for the grant to be ACTIVE, else revokes it;
 * after a revoke, a grant the kernel holds until its phy is back
 * (RETURNING) gets its phy back from the namespace it is in (the slice's,
 * or where the slice moved it).  revoke ... force (SLICE_A_FORCE) ends a
 * RETURNING grant where it is instead: nothing is moved, ahctl waits for
 * the grant to go.
 *
 * Show and monitor print from the family's description
 * (common/slice_attrs.c): one JSON key (the attribute's name) and one
 * text keyword per attribute.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ah_slice.h>

#include "ahctl.h"
#include "attrs.h"
#include "genl.h"
#include "json.h"
#include "names.h"
#include "parse.h"
#include "print.h"
#include "slice_map.h"
#include "slice_phy.h"

/* show: how often to restart a dump the kernel flagged as inconsistent */
#define DUMP_TRIES	5

/* The description of attribute @id (common/slice_attrs.c) */
#define ATTR(id)	(&slice_family.attrs[id])

/* ---- command line -------------------------------------------------------- */

/* Arguments, as bits of sl_args.given and sl_cmd.allowed/required */
enum {
	A_DEV	= 1 << 0,	/* dev IFACE */
	A_NETNS	= 1 << 1,	/* netns SLICE, netns pid PID */
	A_MODE	= 1 << 2,	/* mode move|map */
	A_LEASE	= 1 << 3,	/* lease SECONDS */
	A_JSON	= 1 << 4,	/* -j, -p after the command (output only) */
	A_KEEP	= 1 << 5,	/* keep PORT[,PORT...] (mode map) */
	A_FORCE	= 1 << 6,	/* force (revoke) */
};

struct sl_args {
	unsigned int given;
	const char *dev;
	const char *netns;	/* the slice by name, or NULL: by pid */
	uint32_t pid;
	uint8_t mode;
	uint32_t lease;
	uint16_t keep[SLICE_KEEP_MAX];
	size_t nkeep;
};

struct sl_cmd {
	const char *name;
	int (*run)(const struct sl_cmd *c, const struct sl_args *a);
	uint8_t genl_cmd;
	unsigned int allowed;
	unsigned int required;
	const char *args;
};

static int do_change(const struct sl_cmd *c, const struct sl_args *a);
static int do_show(const struct sl_cmd *c, const struct sl_args *a);
static int do_monitor(const struct sl_cmd *c, const struct sl_args *a);

static const struct sl_cmd sl_cmds[] = {
	{ "grant", do_change, SLICE_CMD_GRANT,
	  A_DEV | A_NETNS | A_MODE | A_KEEP | A_LEASE, A_DEV | A_NETNS,
	  "dev IFACE netns SLICE|pid PID [mode move|map [keep PORT[,PORT...]]] [lease SECONDS]" },
	{ "revoke", do_change, SLICE_CMD_REVOKE, A_DEV | A_FORCE, A_DEV,
	  "dev IFACE [force]" },
	{ "show", do_show, SLICE_CMD_GET, A_DEV | A_JSON, 0,
	  "[dev IFACE] [-j [-p]]" },
	{ "monitor", do_monitor, 0, A_JSON, 0, "[-j]" },
};

AHCTL_CMD_USAGE(struct sl_cmd, "slice")

void slice_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: " PROG_NAME " [-j [-p]] [-n NETNS] slice COMMAND [ARGS]\n\n"
		"Lease an interface of the node to a slice (a network namespace).\n\n"
		"Commands:\n");
	for (i = 0; i < ARRAY_SIZE(sl_cmds); i++)
		fprintf(f, "  slice %s%s%s\n", sl_cmds[i].name,
			*sl_cmds[i].args ? " " : "", sl_cmds[i].args);
	fprintf(f, "  slice help\n\n"
		"IFACE    network interface, by its name in the node's namespace\n"
		"         (ours, or -n NETNS)\n"
		"SLICE    the slice's network namespace, as 'ip netns' names it\n"
		"         (at most %d bytes: its name is the slice's label)\n"
		"PID      a process in the slice's network namespace\n"
		"mode     move: the interface moves into the slice (the default;\n"
		"         a wireless one with its phy, which ahctl moves)\n"
		"         map: it stays the node's; the slice gets an interface with\n"
		"         its IPv4 address, which ahctl configures there\n"
		"PORT     a TCP and UDP port the node keeps (map), 1..65535, at most %d\n"
		"SECONDS  the lease, 1..%d (%d days); none: until revoked\n"
		"force    revoke: end a grant that is returning (held until its\n"
		"         phy is back) where it is, without moving the phy back\n"
		"-j, -p   JSON output, also after the command\n",
		SLICE_NAME_MAX - 1, SLICE_KEEP_MAX, SLICE_LEASE_MAX,
		SLICE_LEASE_MAX / 86400);
}

static int parse_dev(const struct sl_cmd *c, const char *s, struct sl_args *a)
{
	if (!*s)
		return usage_err(c, "empty interface name");
	if (strlen(s) >= IFNAMSIZ)
		return usage_err(c, "interface name '%s' is too long (at most %d bytes)",
				 s, IFNAMSIZ - 1);
	a->dev = s;
	return 0;
}

/* SLICE: the name of a namespace, which becomes the slice's label */
static int parse_netns(const struct sl_cmd *c, const char *s,
		       struct sl_args *a)
{
	if (!*s || strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, ".."))
		return usage_err(c, "invalid network namespace name '%s'", s);
	if (strlen(s) >= SLICE_NAME_MAX)
		return usage_err(c, "network namespace name '%s' is too long for a slice's label (at most %d bytes); name it by 'pid PID'",
				 s, SLICE_NAME_MAX - 1);
	a->netns = s;
	return 0;
}

static int parse_pid(const struct sl_cmd *c, const char *s, struct sl_args *a)
{
	if (parse_u32(s, &a->pid) || !a->pid || a->pid > INT_MAX)
		return usage_err(c, "invalid pid '%s' (a process id, 1..%d)", s,
				 INT_MAX);
	a->netns = NULL;
	return 0;
}

static int parse_mode(const struct sl_cmd *c, const char *s, struct sl_args *a)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(slice_mode_names); i++)
		if (slice_mode_names[i] && !strcmp(s, slice_mode_names[i])) {
			a->mode = (uint8_t)i;
			return 0;
		}
	return usage_err(c, "invalid mode '%s' (move or map)", s);
}

static int parse_keep(const struct sl_cmd *c, const char *s, struct sl_args *a)
{
	char why[64];
	int n = parse_ports(s, a->keep, SLICE_KEEP_MAX, why, sizeof(why));

	if (n < 0)
		return usage_err(c, "invalid keep '%s': %s (PORT[,PORT...], at most %d)",
				 s, why, SLICE_KEEP_MAX);
	a->nkeep = (size_t)n;
	return 0;
}

static int parse_lease(const struct sl_cmd *c, const char *s,
		       struct sl_args *a)
{
	if (parse_u32(s, &a->lease) || !a->lease ||
	    a->lease > SLICE_LEASE_MAX)
		return usage_err(c, "invalid lease '%s' (seconds, 1..%d, at most %d days)",
				 s, SLICE_LEASE_MAX, SLICE_LEASE_MAX / 86400);
	return 0;
}

/* a keyword without @parse takes no value */
static const struct keyword {
	const char *name;
	unsigned int flag;
	int (*parse)(const struct sl_cmd *c, const char *s, struct sl_args *a);
} keywords[] = {
	{ "dev", A_DEV, parse_dev },
	{ "netns", A_NETNS, parse_netns },
	{ "mode", A_MODE, parse_mode },
	{ "keep", A_KEEP, parse_keep },
	{ "lease", A_LEASE, parse_lease },
	{ "force", A_FORCE, NULL },
};

static const struct keyword *keyword_find(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(s, keywords[i].name))
			return &keywords[i];
	return NULL;
}

/*
 * "KEYWORD VALUE" (or "KEYWORD" alone) at @argv[0] (@argc words left):
 * the number of words taken, or -1.  netns takes "pid PID" as well.
 */
static int parse_keyword(const struct sl_cmd *c, const struct keyword *k,
			 int argc, char **argv, struct sl_args *a)
{
	if (!(c->allowed & k->flag))
		return usage_err(c, "'%s' is not an argument of this command",
				 k->name);
	if (a->given & k->flag)
		return usage_err(c, "'%s' given twice", k->name);
	if (!k->parse) {
		a->given |= k->flag;
		return 1;
	}
	if (argc < 2)
		return usage_err(c, "'%s' needs a value", k->name);
	a->given |= k->flag;
	if (k->flag == A_NETNS && !strcmp(argv[1], "pid")) {
		if (argc < 3)
			return usage_err(c, "'netns pid' needs a PID");
		return parse_pid(c, argv[2], a) ? -1 : 3;
	}
	return k->parse(c, argv[1], a) ? -1 : 2;
}

static int parse_args(const struct sl_cmd *c, int argc, char **argv,
		      struct sl_args *a)
{
	const struct keyword *k;
	unsigned int missing;
	bool pretty;
	int i, n;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < argc; i += n) {
		k = keyword_find(argv[i]);
		if (k) {
			n = parse_keyword(c, k, argc - i, argv + i, a);
			if (n < 0)
				return -1;
			continue;
		}
		if (!parse_json_opt(argv[i], &pretty))
			return usage_err(c, "unexpected argument '%s'", argv[i]);
		if (!(c->allowed & A_JSON))
			return usage_err(c, "'%s' is not an argument of this command (only of show and monitor)",
					 argv[i]);
		opts.json = true;
		opts.pretty |= pretty;
		n = 1;
	}
	missing = c->required & ~a->given;
	if (missing & A_DEV)
		return usage_err(c, "missing 'dev IFACE'");
	if (missing & A_NETNS)
		return usage_err(c, "missing 'netns SLICE' or 'netns pid PID'");
	if ((a->given & A_KEEP) &&
	    (!(a->given & A_MODE) || a->mode != SLICE_MODE_MAP))
		return usage_err(c, "'keep' needs 'mode map' (a moved interface keeps nothing for the node)");
	return 0;
}

/* ---- requests ------------------------------------------------------------ */

/*
 * A request with every argument given; the slice's namespace by @netns_fd
 * (if >= 0, with its name as the label) or by pid.
 */
static struct nl_msg *sl_msg(struct genl *g, uint8_t cmd, int flags,
			     const struct sl_args *a, int netns_fd)
{
	struct nl_msg *msg = genl_new(g, cmd, flags, 0);
	struct nlattr *keep;
	size_t i;

	if (!msg)
		return NULL;
	if ((a->dev && nla_put_string(msg, SLICE_A_IFNAME, a->dev)) ||
	    (netns_fd >= 0 &&
	     (nla_put_u32(msg, SLICE_A_NETNS_FD, (uint32_t)netns_fd) ||
	      nla_put_string(msg, SLICE_A_NAME, a->netns))) ||
	    ((a->given & A_NETNS) && !a->netns &&
	     nla_put_u32(msg, SLICE_A_NETNS_PID, a->pid)) ||
	    ((a->given & A_MODE) && nla_put_u8(msg, SLICE_A_MODE, a->mode)) ||
	    ((a->given & A_LEASE) &&
	     nla_put_u32(msg, SLICE_A_LEASE, a->lease)) ||
	    ((a->given & A_FORCE) && nla_put_flag(msg, SLICE_A_FORCE)))
		goto oom;
	/* KEEP: a nest of PORT attributes */
	if (a->given & A_KEEP) {
		keep = nla_nest_start(msg, SLICE_A_KEEP | NLA_F_NESTED);
		for (i = 0; keep && i < a->nkeep; i++)
			if (nla_put_u16(msg, SLICE_A_PORT, a->keep[i]))
				keep = NULL;
		if (!keep)
			goto oom;
		nla_nest_end(msg, keep);
	}
	return msg;
oom:
	fprintf(stderr, PROG_NAME ": out of memory building the request\n");
	nlmsg_free(msg);
	return NULL;
}

/* The network namespace of process @pid (the slice of "netns pid"), or -1 */
static int pid_netns_open(uint32_t pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/ns/net", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, PROG_NAME ": cannot open the network namespace of process %u: %s\n",
			pid, strerror(errno));
	return fd;
}

/*
 * A map grant was made: configure the slice's side in the namespace of
 * @slice_fd from what the kernel says of the grant, else revoke it.
 */
static int map_configure(struct genl *g, const struct sl_args *a,
			 int slice_fd)
{
	struct sl_args r = { .dev = a->dev };
	struct slice_map m;
	struct nl_msg *msg;

	if (!slice_map_get(g, a->dev, &m) && !slice_map_setup(slice_fd, &m))
		return EXIT_OK;
	msg = sl_msg(g, SLICE_CMD_REVOKE, 0, &r, -1);
	if (msg && !genl_request(g, msg, NULL, NULL))
		fprintf(stderr, PROG_NAME ": slice %s: the slice's side of the map grant could not be configured; the grant is revoked\n",
			a->dev);
	else
		fprintf(stderr, PROG_NAME ": slice %s: the slice's side of the map grant could not be configured, nor the grant revoked (ahctl slice revoke dev %s)\n",
			a->dev, a->dev);
	return EXIT_ERR;
}

/*
 * A move grant was made: if the interface is a wireless one whose grant
 * waits for its phy, move the phy into the namespace of @slice_fd; if
 * that fails, the grant is revoked.
 */
static int phy_grant(struct genl *g, const struct sl_args *a, int slice_fd)
{
	struct slice_phy p;

	if (slice_phy_grant(g, a->dev, slice_fd, &p) != SLICE_PHY_FAILED)
		return EXIT_OK;
	/* the reason is printed; without a phy, the grant could not be read */
	if (!p.info.phy[0])
		return EXIT_ERR;
	if (p.revoked)
		fprintf(stderr, PROG_NAME ": slice %s: %s did not move into the slice; the grant is revoked\n",
			a->dev, p.info.phy);
	else
		fprintf(stderr, PROG_NAME ": slice %s: %s did not move into the slice, nor the grant revoked (ahctl slice revoke dev %s)\n",
			a->dev, p.info.phy, a->dev);
	return EXIT_ERR;
}

/*
 * A revoke was made: if the kernel holds the grant of a wireless
 * interface until its phy is back (RETURNING), move the phy back from the
 * slice's namespace.
 */
static int phy_return(struct genl *g, const struct sl_args *a)
{
	struct slice_phy p;

	switch (slice_phy_return(g, a->dev, &p)) {
	case SLICE_PHY_NONE:
	case SLICE_PHY_MOVED:
		return EXIT_OK;
	case SLICE_PHY_ORPHAN:
		fprintf(stderr, PROG_NAME ": slice %s: the slice's network namespace is gone: cfg80211 handed %s to the initial network namespace\n",
			a->dev, p.info.phy);
		if (!p.init_netns)
			fprintf(stderr, PROG_NAME ": slice %s: that is not the node's: from there, iw phy %s set netns name NETNS\n",
				a->dev, p.info.phy);
		return EXIT_OK;
	default:
		break;
	}
	if (p.info.phy[0])
		fprintf(stderr, PROG_NAME ": slice %s: revoked, but %s is not back in the node: the interface stays down until it is (ahctl slice revoke dev %s tries again; with force, ends the grant where it is)\n",
			a->dev, p.info.phy, a->dev);
	return EXIT_ERR;
}

/*
 * A revoke with force was made: a grant the kernel held until its phy is
 * back (RETURNING) ends where it is.  Nothing is moved: wait for the
 * grant to go.  One that was active is revoked as without force, and
 * held: that is said (not forced a second time: its phy can come back).
 */
static int force_wait(struct genl *g, const struct sl_args *a)
{
	struct slice_info s;
	int r;

	r = slice_info_wait(g, a->dev, SLICE_INFO_ANY, &s);
	if (r <= 0)
		return r ? EXIT_ERR : EXIT_OK;
	if (s.state == SLICE_STATE_RETURNING)
		fprintf(stderr, PROG_NAME ": slice %s: revoked with force, but the grant is still returning after %d ms: force ends only a grant that was returning already, not an active one (ahctl slice revoke dev %s moves %s back; with force, ends the grant where it is)\n",
			a->dev, SLICE_PHY_WAIT_MS, a->dev,
			s.phy[0] ? s.phy : "its phy");
	else
		fprintf(stderr, PROG_NAME ": slice %s: revoked with force, but the grant is still %s after %d ms\n",
			a->dev, NAME_OF(slice_state_names, s.state),
			SLICE_PHY_WAIT_MS);
	return EXIT_ERR;
}

/* grant and revoke */
static int do_change(const struct sl_cmd *c, const struct sl_args *a)
{
	bool grant = c->genl_cmd == SLICE_CMD_GRANT;
	bool map = grant && (a->given & A_MODE) && a->mode == SLICE_MODE_MAP;
	int fd = -1, slice_fd = -1, ret = EXIT_ERR;
	struct nl_msg *msg;
	struct genl g;

	if (genl_open(&g, opts.netns, &slice_family.desc))
		return EXIT_ERR;
	/* after -n NETNS is entered: the file is the same from there */
	if (a->netns) {
		fd = genl_netns_open(a->netns);
		if (fd < 0)
			goto out;
	}
	/*
	 * the slice's namespace, where the slice's side of a map grant is
	 * configured, or where a wireless interface's phy goes, after the
	 * grant
	 */
	if (grant) {
		slice_fd = fd >= 0 ? fd : pid_netns_open(a->pid);
		if (slice_fd < 0)
			goto out;
	}
	msg = sl_msg(&g, c->genl_cmd, 0, a, fd);
	if (!msg || genl_request(&g, msg, NULL, NULL))
		goto out;
	if (map)
		ret = map_configure(&g, a, slice_fd);
	else if (grant)
		ret = phy_grant(&g, a, slice_fd);
	else if (a->given & A_FORCE)
		ret = force_wait(&g, a);
	else
		ret = phy_return(&g, a);
out:
	if (slice_fd >= 0 && slice_fd != fd)
		close(slice_fd);
	if (fd >= 0)
		close(fd);
	genl_close(&g);
	return ret;
}

/* ---- show ---------------------------------------------------------------- */

/* One grant: its attributes, valid while @msg is held. */
struct row {
	struct nl_msg *msg;
	struct nlattr *tb[SLICE_A_MAX + 1];
};

/* The replies of one request, kept so that a retry prints once. */
struct rows {
	struct genl *g;
	struct row *r;
	size_t n, cap;
};

static bool row_has(const struct row *r, int id)
{
	return attr_valid(ATTR(id), r->tb[id]);
}

static uint64_t row_val(const struct row *r, int id)
{
	return row_has(r, id) ? attr_uint(ATTR(id), r->tb[id]) : 0;
}

static int rows_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	struct rows *rs = arg;
	struct row *more;
	uint8_t cmd;

	if (genl_parse(rs->g, msg, &cmd, tb, SLICE_A_MAX))
		return 0;
	if (rs->n == rs->cap) {
		more = reallocarray(rs->r, rs->cap + rs->cap / 2 + 16,
				    sizeof(*more));
		if (!more) {
			fprintf(stderr, PROG_NAME ": out of memory\n");
			return -1;
		}
		rs->r = more;
		rs->cap += rs->cap / 2 + 16;
	}
	nlmsg_get(msg);
	rs->r[rs->n].msg = msg;
	memcpy(rs->r[rs->n].tb, tb, sizeof(tb));
	rs->n++;
	return 0;
}

static void rows_reset(struct rows *rs)
{
	while (rs->n)
		nlmsg_free(rs->r[--rs->n].msg);
}

/* Grants in the order of the node's interfaces */
static int row_cmp(const void *x, const void *y)
{
	uint64_t u = row_val(x, SLICE_A_IFINDEX), v = row_val(y, SLICE_A_IFINDEX);

	return u < v ? -1 : u > v;
}

/* What a line of show prints after the interface, in this order. */
static const int row_fields[] = {
	SLICE_A_NAME, SLICE_A_NETNS_PID, SLICE_A_MODE, SLICE_A_STATE,
	SLICE_A_PHY, SLICE_A_ADDR, SLICE_A_KEEP, SLICE_A_SLICE_IFNAME,
	SLICE_A_SLICE_NETNS_INO, SLICE_A_PHY_NETNS_INO, SLICE_A_AGE,
	SLICE_A_LEASE, SLICE_A_LEASE_LEFT, SLICE_A_RX_PACKETS,
	SLICE_A_RX_BYTES, SLICE_A_TX_PACKETS, SLICE_A_TX_BYTES,
	SLICE_A_SPOOFED,
};

/*
 * "IFACE netns SLICE mode move slice_ifname IF slice_netns_ino N age Nms
 * [lease Ns] lease_left Nms rx_packets N rx_bytes N tx_packets N
 * tx_bytes N spoofed N", with "lease none" for a grant without a lease
 * (neither lease nor lease_left); after the mode, "state S" unless it is
 * active, "phy PHY" for a wireless one (and "phy_netns_ino N" after
 * slice_netns_ino), and "addr A.B.C.D [keep PORT,...]" for a map grant.
 */
static void row_text(const struct row *r)
{
	bool first = true;
	size_t i;
	int id;

	if (!attr_text(ATTR(SLICE_A_IFNAME), r->tb[SLICE_A_IFNAME], P_BARE,
		       NULL, &first))
		attr_text(ATTR(SLICE_A_IFINDEX), r->tb[SLICE_A_IFINDEX], 0,
			  NULL, &first);
	for (i = 0; i < ARRAY_SIZE(row_fields); i++) {
		id = row_fields[i];
		if (id == SLICE_A_LEASE && !row_has(r, SLICE_A_LEASE) &&
		    !row_has(r, SLICE_A_LEASE_LEFT)) {
			fputs(first ? "lease none" : " lease none", stdout);
			first = false;
			continue;
		}
		attr_text(ATTR(id), r->tb[id], 0, NULL, &first);
	}
	if (!first)
		putchar('\n');
}

static void rows_print(struct rows *rs)
{
	struct json j;
	size_t i;

	if (rs->n)
		qsort(rs->r, rs->n, sizeof(*rs->r), row_cmp);
	json_init(&j, stdout, opts.pretty);
	if (opts.json)
		json_arr_open(&j);
	for (i = 0; i < rs->n; i++) {
		if (opts.json) {
			/* every attribute sent, in the order of their ids */
			json_obj_open(&j);
			attrs_json(&j, &slice_family, rs->r[i].tb, 0, 0);
			json_obj_close(&j);
		} else {
			row_text(&rs->r[i]);
		}
	}
	if (opts.json)
		json_arr_close(&j);
}

/* GET: of dev IFACE, else a dump of every grant */
static int do_show(const struct sl_cmd *c, const struct sl_args *a)
{
	int flags = a->dev ? 0 : NLM_F_DUMP;
	struct genl g;
	struct rows rs = { .g = &g };
	struct nl_msg *msg;
	int tries, r = -1;

	if (genl_open(&g, opts.netns, &slice_family.desc))
		return EXIT_ERR;
	for (tries = 0; tries < DUMP_TRIES; tries++) {
		rows_reset(&rs);
		msg = sl_msg(&g, c->genl_cmd, flags, a, -1);
		r = msg ? genl_request(&g, msg, rows_cb, &rs) : -1;
		if (r != GENL_DUMP_INTR)
			break;
	}
	if (r == GENL_DUMP_INTR)
		fprintf(stderr, PROG_NAME ": the grants kept changing during the dump; try again\n");
	if (!r)
		rows_print(&rs);
	rows_reset(&rs);
	free(rs.r);
	genl_close(&g);
	return r ? EXIT_ERR : EXIT_OK;
}

/* ---- monitor ------------------------------------------------------------- */

/* GRANT and REVOKE (with its reason) as the kernel announces them */
static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	uint8_t cmd;

	if (genl_parse(arg, msg, &cmd, tb, SLICE_A_MAX))
		return 0;
	return monitor_print(&slice_family, NAME_OF(slice_cmd_names, cmd), tb);
}

static int do_monitor(const struct sl_cmd *c, const struct sl_args *a)
{
	(void)c;
	(void)a;
	return genl_monitor(opts.netns, &slice_family.desc,
			    slice_family.groups, monitor_cb) ?
	       EXIT_ERR : EXIT_OK;
}

/* ---- entry point ------------------------------------------------------- */

static bool help_word(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "-h") || !strcmp(s, "--help");
}

int slice_main(int argc, char **argv)
{
	/* "ahctl slice" alone shows, like "ahctl macfilter". */
	const char *name = argc ? argv[0] : "show";
	const struct sl_cmd *c = NULL;
	struct sl_args a;
	size_t i;

	if (help_word(name)) {
		slice_help(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(sl_cmds) && !c; i++)
		if (!strcmp(name, sl_cmds[i].name))
			c = &sl_cmds[i];
	if (!c) {
		fprintf(stderr, PROG_NAME ": slice: unknown command '%s'\n\n",
			name);
		slice_help(stderr);
		return EXIT_USAGE;
	}
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
