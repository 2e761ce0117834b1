/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building a MACFILTER_CMD_REPLACE request: the whole list, one top-level
 * MACFILTER_A_ENTRY per MAC (an attribute is limited to 64 KiB, the
 * message is not, so a full list of 65536 entries fits).
 */
#ifndef AH_MFREQ_H
#define AH_MFREQ_H

#include <stddef.h>

#include <netlink/msg.h>

#include "maclist.h"

/* Room for a REPLACE with device name, mode and @count entries. */
size_t mfreq_msg_size(size_t count);

/* One nested MACFILTER_A_ENTRY (MAC, LOSS if it has one): 0, else -1. */
int mfreq_put_entry(struct nl_msg *msg, const struct maclist_entry *e);

/* mfreq_put_entry() for each of @n entries: 0, else -1. */
int mfreq_put_entries(struct nl_msg *msg, const struct maclist_entry *e,
		      size_t n);

#endif /* AH_MFREQ_H */
