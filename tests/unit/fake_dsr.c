// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the dsr module's generic netlink family, preloaded into
 * ahctl (LD_PRELOAD=./fake_dsr.so) by test_ahctl_dsr_mcast.sh, so that
 * the requests "ahctl dsr mcast" builds and the replies it prints can be
 * checked on a host without the module (as fake_slice.c does for slice),
 * and into dsrd's mcast steps (dsrd_mcast_run) by test_dsrd_mcast.sh:
 *
 * - genl_ctrl_resolve() finds family "dsr" (FAKE_DSR=absent: it is not
 *   there, as without the module);
 * - nl_send_auto() writes the request as one line to $FAKE_DSR_LOG
 *   ("mcast_join flags=0 v2 ifname=dsr0 mc_source=10.0.0.1 ..."), each
 *   attribute by the type include/uapi/linux/ah_dsr.h gives it, from a
 *   table of its own here: one of another length is logged as
 *   "NAME=?len=N", so a request with a u32 where the kernel's policy
 *   wants a u8 shows (MC_CHAIN, binary: its elements "KIND:ARG,...", by
 *   number, "?len=N" if not a whole number of them or none); then it
 *   answers from userspace, over a netlink
 *   socket of its own, to ahctl's port: a GET_MCAST dump with the
 *   canned rows below, anything else with an ACK, or with the error
 *   $FAKE_DSR_ERROR ("ERRNO:extack message"); with $FAKE_DSR_ERROR_GROUP
 *   (A.B.C.D) set, only a request of that MC_GROUP gets the error, the
 *   others their ACK.
 *
 * Nothing reaches the kernel's generic netlink families.  What it shares
 * with fake_slice.c is in fake_genl.c.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <linux/ah_dsr.h>

#include "fake_genl.h"

static const char *const cmd_names[] = {
	[DSR_CMD_GET_PARAMS] = "get_params",
	[DSR_CMD_GET_ROUTE] = "get_route",
	[DSR_CMD_MCAST_JOIN] = "mcast_join",
	[DSR_CMD_MCAST_LEAVE] = "mcast_leave",
	[DSR_CMD_GET_MCAST] = "get_mcast",
	[DSR_CMD_MCAST_CHAIN] = "mcast_chain",
	[DSR_CMD_MCAST_MAP] = "mcast_map",
	[DSR_CMD_MCAST_UNMAP] = "mcast_unmap",
};

/*
 * how a request's attributes are logged: the ABI's types (s: string,
 * b: u8, h: u16, w: u32, a: be32 address, c: struct dsr_mc_elem_cfg[])
 */
static const struct fake_attr attrs[DSR_A_MAX + 1] = {
	[DSR_A_IFINDEX] = { "ifindex", 'w' },
	[DSR_A_IFNAME] = { "ifname", 's' },
	[DSR_A_DST] = { "dst", 'a' },
	[DSR_A_MC_ROW] = { "mc_row", 'b' },
	[DSR_A_MC_SOURCE] = { "mc_source", 'a' },
	[DSR_A_MC_GROUP] = { "mc_group", 'a' },
	[DSR_A_MC_LAYERS] = { "mc_layers", 'b' },
	[DSR_A_MC_TAG_MODE] = { "mc_tag_mode", 'b' },
	[DSR_A_MC_TAG_LAYERS] = { "mc_tag_layers", 'b' },
	[DSR_A_MC_TAG_OFFSET] = { "mc_tag_offset", 'h' },
	[DSR_A_MC_TAG_EXT_ID] = { "mc_tag_ext_id", 'b' },
	[DSR_A_MC_TAG_TIDS] = { "mc_tag_tids", 'b' },
	[DSR_A_MC_CHAIN] = { "mc_chain", 'c' },
};

/* ---- the log of requests ----------------------------------------------- */

/* a value of another length than its type's: "?len=N" */
static void log_value(FILE *f, char t, const struct nlattr *a)
{
	static const int width[128] = { ['b'] = 1, ['h'] = 2, ['w'] = 4,
					 ['a'] = 4 };
	char buf[INET_ADDRSTRLEN];
	const struct dsr_mc_elem_cfg *e = nla_data(a);
	size_t i, n = (size_t)nla_len(a) / sizeof(*e);

	if (t == 'c') {
		if (!n || nla_len(a) % (int)sizeof(*e)) {
			fprintf(f, "?len=%d", nla_len(a));
			return;
		}
		for (i = 0; i < n; i++)
			fprintf(f, "%s%u:%u", i ? "," : "", e[i].kind,
				e[i].arg);
		return;
	}
	if (nla_len(a) != width[(int)t]) {
		fprintf(f, "?len=%d", nla_len(a));
		return;
	}
	switch (t) {
	case 'b':
		fprintf(f, "%u", nla_get_u8(a));
		break;
	case 'h':
		fprintf(f, "%u", nla_get_u16(a));
		break;
	case 'w':
		fprintf(f, "%u", nla_get_u32(a));
		break;
	case 'a':
		fputs(inet_ntop(AF_INET, nla_data(a), buf, sizeof(buf)), f);
		break;
	}
}

FAKE_FAMILY("fake_dsr", DSR_GENL_NAME, 0x1f01, "FAKE_DSR", cmd_names, attrs,
	    log_value);

/* ---- replies ------------------------------------------------------------ */

/*
 * The rows of the dump, as the module sends them (ah_dsr.h): per group
 * its GROUP row, its CHILD rows, its LAYER rows.  The second group has no
 * upstream (it is the source's node or has no route) and RTP tags; a
 * CHILD row of a third group comes without its GROUP row (a dump that
 * changed under it), and the last row is of a kind this ahctl does not
 * know (a newer module's).  The first group has the default element
 * chain, the second one with a cap, an element of a kind this ahctl does
 * not know and a fan-out of a copy each; the second's layer 3 was capped.
 */
struct row {
	uint8_t kind;
	const char *source, *group;
	/* GROUP */
	const char *upstream;
	uint8_t layers, asked, mode, tag_layers, ext_id, tids;
	uint16_t offset;
	uint8_t igmp;		/* a local socket joined */
	uint8_t mapped;		/* by the source map */
	const struct dsr_mc_elem_cfg *chain;	/* MC_CHAIN: nchain elements */
	size_t nchain;
	/* CHILD: addr, layers, the slave's ifindex (1: lo), expires_ms */
	const char *addr;
	uint32_t slave, expires;
	/* LAYER */
	uint8_t layer;
	uint64_t fwd_p, fwd_b, filt_p, filt_b, local_p, local_b, capped_p;
};

/* the module's default chain; one of each form */
static const struct dsr_mc_elem_cfg chain_default[] = {
	{ DSR_MC_EL_TAG, 0 }, { DSR_MC_EL_DUP, 0 }, { DSR_MC_EL_FILTER, 0 },
	{ DSR_MC_EL_FANOUT, DSR_MC_FANOUT_PARAM },
};
static const struct dsr_mc_elem_cfg chain_capped[] = {
	{ DSR_MC_EL_DUP, 0 }, { DSR_MC_EL_CAP, 2 }, { 9, 1 },
	{ DSR_MC_EL_FANOUT, 0 },
};

#define CHAIN(c)	.chain = c, .nchain = sizeof(c) / sizeof((c)[0])

static const struct row rows[] = {
	{ .kind = DSR_MC_ROW_GROUP, .source = "10.0.0.1",
	  .group = "239.1.1.1", .upstream = "10.0.0.2", .layers = 3,
	  .asked = 5, .mode = DSR_MC_TAG_BYTE, .tag_layers = 8,
	  CHAIN(chain_default) },
	{ .kind = DSR_MC_ROW_CHILD, .source = "10.0.0.1",
	  .group = "239.1.1.1", .addr = "10.0.0.4", .layers = 2, .slave = 1,
	  .expires = 2310 },
	{ .kind = DSR_MC_ROW_CHILD, .source = "10.0.0.1",
	  .group = "239.1.1.1", .addr = "10.0.0.5", .layers = 5, .slave = 1,
	  .expires = 900 },
	{ .kind = DSR_MC_ROW_LAYER, .source = "10.0.0.1",
	  .group = "239.1.1.1", .layer = 0, .fwd_p = 300, .fwd_b = 390000,
	  .local_p = 300, .local_b = 390000 },
	{ .kind = DSR_MC_ROW_LAYER, .source = "10.0.0.1",
	  .group = "239.1.1.1", .layer = 4, .fwd_p = 150, .fwd_b = 195000,
	  .filt_p = 150, .filt_b = 195000 },
	{ .kind = DSR_MC_ROW_GROUP, .source = "10.0.0.9",
	  .group = "239.2.2.2", .upstream = "0.0.0.0", .layers = 1,
	  .asked = 0, .mode = DSR_MC_TAG_RTP, .tag_layers = 6, .ext_id = 3,
	  .tids = 2, .igmp = 1, .mapped = 1, CHAIN(chain_capped) },
	{ .kind = DSR_MC_ROW_LAYER, .source = "10.0.0.9",
	  .group = "239.2.2.2", .layer = 0, .local_p = 7,
	  .local_b = 9100 },
	{ .kind = DSR_MC_ROW_LAYER, .source = "10.0.0.9",
	  .group = "239.2.2.2", .layer = 3, .capped_p = 40 },
	{ .kind = DSR_MC_ROW_CHILD, .source = "10.0.0.7",
	  .group = "239.3.3.3", .addr = "10.0.0.8", .layers = 1, .slave = 1,
	  .expires = 50 },
	/* the source map, after the streams: source, group, nothing else */
	{ .kind = DSR_MC_ROW_MAP, .source = "10.0.0.9", .group = "239.2.2.2" },
	{ .kind = DSR_MC_ROW_MAP, .source = "10.0.0.1", .group = "239.2.2.2" },
	{ .kind = 9, .source = "10.0.0.7", .group = "239.3.3.3" },
};

static void put_addr(struct nl_msg *msg, int id, const char *s)
{
	struct in_addr in;

	inet_pton(AF_INET, s, &in);
	nla_put(msg, id, sizeof(in.s_addr), &in.s_addr);
}

static void send_row(struct nl_sock *sk, uint32_t seq, const struct row *r)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, seq, fake_family.id, 0, NLM_F_MULTI,
		    DSR_CMD_GET_MCAST, DSR_GENL_VERSION);
	nla_put_u8(msg, DSR_A_MC_ROW, r->kind);
	put_addr(msg, DSR_A_MC_SOURCE, r->source);
	put_addr(msg, DSR_A_MC_GROUP, r->group);
	switch (r->kind) {
	case DSR_MC_ROW_GROUP:
		put_addr(msg, DSR_A_MC_UPSTREAM, r->upstream);
		nla_put_u8(msg, DSR_A_MC_LAYERS, r->layers);
		nla_put_u8(msg, DSR_A_MC_ASKED, r->asked);
		nla_put_u8(msg, DSR_A_MC_TAG_MODE, r->mode);
		nla_put_u8(msg, DSR_A_MC_TAG_LAYERS, r->tag_layers);
		if (r->igmp)
			nla_put_flag(msg, DSR_A_MC_LOCAL_IGMP);
		if (r->mapped)
			nla_put_flag(msg, DSR_A_MC_MAPPED);
		/* as the module: the fields of the mode only */
		if (r->mode == DSR_MC_TAG_BYTE) {
			nla_put_u16(msg, DSR_A_MC_TAG_OFFSET, r->offset);
		} else {
			nla_put_u8(msg, DSR_A_MC_TAG_EXT_ID, r->ext_id);
			nla_put_u8(msg, DSR_A_MC_TAG_TIDS, r->tids);
		}
		nla_put(msg, DSR_A_MC_CHAIN,
			(int)(r->nchain * sizeof(r->chain[0])), r->chain);
		break;
	case DSR_MC_ROW_CHILD:
		put_addr(msg, DSR_A_ADDR, r->addr);
		nla_put_u8(msg, DSR_A_MC_LAYERS, r->layers);
		nla_put_u32(msg, DSR_A_SLAVE, r->slave);
		nla_put_u32(msg, DSR_A_EXPIRES_MS, r->expires);
		break;
	case DSR_MC_ROW_LAYER:
		nla_put_u8(msg, DSR_A_MC_LAYER, r->layer);
		nla_put_u64(msg, DSR_A_MC_FWD_PACKETS, r->fwd_p);
		nla_put_u64(msg, DSR_A_MC_FWD_BYTES, r->fwd_b);
		nla_put_u64(msg, DSR_A_MC_FILT_PACKETS, r->filt_p);
		nla_put_u64(msg, DSR_A_MC_FILT_BYTES, r->filt_b);
		nla_put_u64(msg, DSR_A_MC_LOCAL_PACKETS, r->local_p);
		nla_put_u64(msg, DSR_A_MC_LOCAL_BYTES, r->local_b);
		nla_put_u64(msg, DSR_A_MC_CAPPED_PACKETS, r->capped_p);
		break;
	}
	fake_send_msg(sk, msg);
}

/* $FAKE_DSR_ERROR, for a request of $FAKE_DSR_ERROR_GROUP if set: true */
static int env_error(struct nl_sock *sk, struct nlmsghdr *nlh)
{
	const char *want = getenv("FAKE_DSR_ERROR_GROUP");
	char buf[INET_ADDRSTRLEN];
	struct nlattr *a;

	if (want && *want) {
		a = nlmsg_find_attr(nlh, GENL_HDRLEN, DSR_A_MC_GROUP);
		if (!a || nla_len(a) != 4 ||
		    !inet_ntop(AF_INET, nla_data(a), buf, sizeof(buf)) ||
		    strcmp(buf, want))
			return 0;
	}
	return fake_env_error(sk, nlh);
}

int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	struct nlmsghdr *nlh = fake_request(sk, msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	size_t i;

	if (env_error(sk, nlh))
		return (int)nlh->nlmsg_len;
	if (gh->cmd == DSR_CMD_GET_MCAST && (nlh->nlmsg_flags & NLM_F_DUMP)) {
		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			send_row(sk, nlh->nlmsg_seq, &rows[i]);
		fake_send_done(sk, nlh->nlmsg_seq);
	} else {
		fake_send_error(sk, nlh, 0, NULL);
	}
	return (int)nlh->nlmsg_len;
}
