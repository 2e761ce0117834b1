/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MF_TABLE_H
#define _MF_TABLE_H

#include <linux/etherdevice.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/atomic.h>
#include <linux/ah_macfilter.h>

struct mf_dev;

/* Entry without an explicit loss: follows the mode (see ah_macfilter.h). */
#define MF_LOSS_UNSET	0xff

struct mf_entry {
	struct hlist_node node;
	struct rcu_head rcu;
	atomic64_t dropped;
	u8 mac[ETH_ALEN];
	u8 loss;
};

/*
 * One list of a device.  Readers (the receive path, dumps) hold
 * rcu_read_lock(); writers hold RTNL.  Entries are added and removed in
 * place; an atomic replace, a mode change or a resize builds a new table and
 * swaps the device's pointer, so a reader sees one table or the other.
 */
struct mf_table {
	struct rcu_head rcu;		/* retired: mf_dev_swap_table() */
	struct mf_dev *retired_from;
	u32 count;
	u32 max_entries;
	u32 mask;
	u32 seed;
	u8 mode;
	struct hlist_head buckets[];
};

struct mf_table *mf_table_alloc(u32 max_entries, u8 mode);
void mf_table_free(struct mf_table *t);
struct mf_entry *mf_table_lookup(const struct mf_table *t, const u8 *mac);
struct mf_entry *mf_table_insert(struct mf_table *t, const u8 *mac, u8 loss);
void mf_table_remove(struct mf_table *t, struct mf_entry *e);
void mf_table_flush(struct mf_table *t);
int mf_table_copy(struct mf_table *dst, const struct mf_table *src);
void mf_table_carry_counters(struct mf_table *dst, const struct mf_table *src);

/* The drop probability, in percent, for a frame from @e (NULL: unlisted). */
static inline u8 mf_effective_loss(const struct mf_table *t,
				   const struct mf_entry *e)
{
	bool allow = t->mode == MACFILTER_MODE_ALLOW;

	if (!e)
		return allow ? 100 : 0;
	if (e->loss != MF_LOSS_UNSET)
		return e->loss;
	return allow ? 0 : 100;
}

#define mf_table_for_each(t, bkt, e) \
	for ((bkt) = 0; (bkt) <= (t)->mask; (bkt)++) \
		hlist_for_each_entry_rcu(e, &(t)->buckets[bkt], node, \
					 lockdep_rtnl_is_held())

#endif /* _MF_TABLE_H */
