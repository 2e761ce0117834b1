// SPDX-License-Identifier: GPL-2.0
/* A multicast group's element chain: its checks (mchain.h). */
#include "mchain.h"
#include "mtree.h"

static const struct dsr_mc_elem_cfg dsr_mch_def[] = {
	{ DSR_MC_EL_TAG, 0 },
	{ DSR_MC_EL_DUP, 0 },
	{ DSR_MC_EL_FILTER, 0 },
	{ DSR_MC_EL_FANOUT, DSR_MC_FANOUT_PARAM },
};

void dsr_mch_default(struct dsr_mch *ch)
{
	dsr_mch_build((const u8 *)dsr_mch_def, sizeof(dsr_mch_def), ch);
}

enum dsr_mch_res dsr_mch_build(const u8 *data, size_t len, struct dsr_mch *ch)
{
	struct dsr_mch v;
	unsigned int i, seen = 0;

	if (!len)
		return DSR_MCH_EMPTY;
	if (len % sizeof(v.e[0]) || len > sizeof(v.e))
		return DSR_MCH_LENGTH;
	memset(&v, 0, sizeof(v));
	v.n = len / sizeof(v.e[0]);
	memcpy(v.e, data, len);
	for (i = 0; i < v.n; i++) {
		const struct dsr_mc_elem_cfg *e = &v.e[i];

		if (!e->kind || e->kind >= __DSR_MC_EL_MAX)
			return DSR_MCH_KIND;
		if (seen & (1u << e->kind))
			return DSR_MCH_TWICE;
		seen |= 1u << e->kind;
		if (v.fanout)
			return DSR_MCH_FANOUT_LAST;
		switch (e->kind) {
		case DSR_MC_EL_TAG:
			if (i)
				return DSR_MCH_TAG_FIRST;
			v.tag = true;
			break;
		case DSR_MC_EL_DUP:
			v.dup = true;
			break;
		case DSR_MC_EL_CAP:
			if (!e->arg || e->arg > DSR_MT_MAX_LAYERS)
				return DSR_MCH_ARG;
			v.cap = e->arg;
			break;
		case DSR_MC_EL_FILTER:
			v.filter = true;
			break;
		case DSR_MC_EL_FANOUT:
			v.fanout = true;
			v.bcast = e->arg;
			break;
		}
		if (e->kind != DSR_MC_EL_CAP && e->kind != DSR_MC_EL_FANOUT &&
		    e->arg)
			return DSR_MCH_ARG;
	}
	*ch = v;
	return DSR_MCH_OK;
}

const char *dsr_mch_res_msg(enum dsr_mch_res r)
{
	static const char *const msg[__DSR_MCH_RES_MAX] = {
		[DSR_MCH_OK] = "ok",
		[DSR_MCH_EMPTY] = "an element chain needs an element",
		[DSR_MCH_LENGTH] = "a chain is 1..8 elements of 2 bytes",
		[DSR_MCH_KIND] = "unknown element",
		[DSR_MCH_TWICE] = "an element twice in the chain",
		[DSR_MCH_TAG_FIRST] = "tag must be the first element",
		[DSR_MCH_FANOUT_LAST] = "fanout must be the last element",
		[DSR_MCH_ARG] = "cap takes 1..128 layers; tag, dup and filter no argument",
	};

	return (unsigned int)r < __DSR_MCH_RES_MAX ? msg[r] : "invalid chain";
}
