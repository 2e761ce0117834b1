/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A multicast group's element chain (issue 19, docs/mcast.md): what each
 * packet of the group goes through on this node, as a list of elements
 * (enum dsr_mc_elem, include/uapi/linux/ah_dsr.h: TAG, DUP, CAP, FILTER,
 * FANOUT) that the user replaces whole (DSR_CMD_MCAST_CHAIN).
 *
 * dsr_mch_build() checks a list as it comes in DSR_A_MC_CHAIN and turns
 * it into what the packet path reads: a flag per element and the
 * arguments.  The order of the elements is the order of the packet path
 * (tag, duplicate check, cap, filter, fan-out); the rules (each kind at
 * most once, TAG first, FANOUT last) keep a list from saying otherwise.
 *
 * No kernel dependencies: also built into tests/unit.
 */
#ifndef _DSR_MCHAIN_H
#define _DSR_MCHAIN_H

#include "ah_proto_env.h"
#include <linux/ah_dsr.h>

struct dsr_mch {
	u8 n;
	struct dsr_mc_elem_cfg e[DSR_MC_CHAIN_MAX];
	bool tag, dup, filter, fanout;
	u8 cap;			/* layers that go on: 0..cap-1; 0: no cap */
	u8 bcast;		/* FANOUT's argument */
};

enum dsr_mch_res {
	DSR_MCH_OK,
	DSR_MCH_EMPTY,		/* no element */
	DSR_MCH_LENGTH,		/* not a whole number of elements, or too many */
	DSR_MCH_KIND,		/* an element of no known kind */
	DSR_MCH_TWICE,		/* a kind twice */
	DSR_MCH_TAG_FIRST,	/* TAG after another element */
	DSR_MCH_FANOUT_LAST,	/* an element after FANOUT */
	DSR_MCH_ARG,		/* CAP not 1..128, or an argument where none is */
	__DSR_MCH_RES_MAX,
};

/* the default chain: TAG DUP FILTER FANOUT(DSR_MC_FANOUT_PARAM) */
void dsr_mch_default(struct dsr_mch *ch);
/* len bytes of DSR_A_MC_CHAIN at data: *ch filled when DSR_MCH_OK */
enum dsr_mch_res dsr_mch_build(const u8 *data, size_t len, struct dsr_mch *ch);
/* what is wrong, for an extack */
const char *dsr_mch_res_msg(enum dsr_mch_res r);

#endif /* _DSR_MCHAIN_H */
