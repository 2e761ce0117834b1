// SPDX-License-Identifier: GPL-2.0
/*
 * The per-device list: a hash of source MACs sized once, when the table is
 * built, from the device's entry limit (two entries per bucket at the limit).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "ah_debug.h"
#include "table.h"

static u32 mf_hash(const struct mf_table *t, const u8 *mac)
{
	u32 hi = get_unaligned((const u32 *)mac);
	u32 lo = get_unaligned((const u16 *)(mac + 4));

	return jhash_2words(hi, lo, t->seed) & t->mask;
}

struct mf_table *mf_table_alloc(u32 max_entries, u8 mode)
{
	unsigned long nbuckets;
	struct mf_table *t;

	nbuckets = roundup_pow_of_two(clamp_t(u32, max_entries / 2, 8,
					      MACFILTER_LIMIT_MAX_ENTRIES / 2));
	t = kvzalloc(struct_size(t, buckets, nbuckets), GFP_KERNEL);
	if (!t)
		return NULL;
	t->mask = nbuckets - 1;
	t->max_entries = max_entries;
	t->mode = mode;
	t->seed = get_random_u32();
	ah_obj_created("table", t);
	return t;
}

/* The caller has made sure no reader can see @t any more. */
void mf_table_free(struct mf_table *t)
{
	struct hlist_node *tmp;
	struct mf_entry *e;
	u32 bkt;

	if (!t)
		return;
	for (bkt = 0; bkt <= t->mask; bkt++)
		hlist_for_each_entry_safe(e, tmp, &t->buckets[bkt], node)
			kfree(e);
	ah_obj_destroyed("table", t);
	kvfree(t);
}

struct mf_entry *mf_table_lookup(const struct mf_table *t, const u8 *mac)
{
	struct mf_entry *e;

	hlist_for_each_entry_rcu(e, &t->buckets[mf_hash(t, mac)], node,
				 lockdep_rtnl_is_held())
		if (ether_addr_equal_unaligned(e->mac, mac))
			return e;
	return NULL;
}

/* Returns the new entry, ERR_PTR(-EEXIST), -ENOSPC or -ENOMEM. */
struct mf_entry *mf_table_insert(struct mf_table *t, const u8 *mac, u8 loss)
{
	struct mf_entry *e;

	if (mf_table_lookup(t, mac))
		return ERR_PTR(-EEXIST);
	if (t->count >= t->max_entries)
		return ERR_PTR(-ENOSPC);
	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);
	ether_addr_copy(e->mac, mac);
	e->loss = loss;
	hlist_add_head_rcu(&e->node, &t->buckets[mf_hash(t, mac)]);
	t->count++;
	return e;
}

void mf_table_remove(struct mf_table *t, struct mf_entry *e)
{
	hlist_del_rcu(&e->node);
	t->count--;
	kfree_rcu(e, rcu);
}

void mf_table_flush(struct mf_table *t)
{
	struct hlist_node *tmp;
	struct mf_entry *e;
	u32 bkt;

	for (bkt = 0; bkt <= t->mask; bkt++)
		hlist_for_each_entry_safe(e, tmp, &t->buckets[bkt], node)
			mf_table_remove(t, e);
}

/* Copy the entries (not the counters) of @src into the empty @dst. */
int mf_table_copy(struct mf_table *dst, const struct mf_table *src)
{
	struct mf_entry *e, *n;
	u32 bkt;

	mf_table_for_each(src, bkt, e) {
		n = mf_table_insert(dst, e->mac, e->loss);
		if (IS_ERR(n))
			return PTR_ERR(n);
	}
	return 0;
}

/*
 * Add the drop counts of @src's entries to the entries of @dst with the same
 * MAC.  Called once @src is no longer visible to readers, so its counters are
 * final and no drop is lost across a replace.
 */
void mf_table_carry_counters(struct mf_table *dst, const struct mf_table *src)
{
	struct mf_entry *e, *n;
	u32 bkt;

	mf_table_for_each(src, bkt, e) {
		n = mf_table_lookup(dst, e->mac);
		if (n)
			atomic64_add(atomic64_read(&e->dropped), &n->dropped);
	}
}
