/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the enum values of the dsr, macfilter, transit and slice
 * generic netlink families, as ahctl prints them and dsrd writes them in JSON.
 * Each table is indexed by value; a hole is NULL.
 */
#ifndef AH_NAMES_H
#define AH_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ah_dsr.h>
#include <linux/ah_macfilter.h>
#include <linux/ah_slice.h>
#include <linux/ah_transit.h>

extern const char *const dsr_cmd_names[__DSR_CMD_MAX];
extern const char *const dsr_event_names[__DSR_EVENT_MAX];
extern const char *const dsr_buffer_names[DSR_BUFFER_MAINT + 1];
extern const char *const dsr_blacklist_names[DSR_BLACKLIST_PROBABLE + 1];
extern const char *const dsr_mc_row_names[DSR_MC_ROW_MAP + 1];
extern const char *const dsr_mc_tag_mode_names[DSR_MC_TAG_RTP + 1];

extern const char *const mf_mode_names[__MACFILTER_MODE_MAX];
extern const char *const mf_cmd_names[__MACFILTER_CMD_MAX];

extern const char *const tr_state_names[__TRANSIT_STATE_MAX];
extern const char *const tr_cmd_names[__TRANSIT_CMD_MAX];
extern const char *const tr_flush_names[TRANSIT_FLUSH_ALL + 1];

extern const char *const slice_cmd_names[__SLICE_CMD_MAX];
extern const char *const slice_mode_names[__SLICE_MODE_MAX];
extern const char *const slice_reason_names[__SLICE_REASON_MAX];
extern const char *const slice_state_names[__SLICE_STATE_MAX];

/* @v's entry in a table of @n names, or "unknown" */
const char *name_lookup(const char *const *names, size_t n, uint64_t v);

/* The same for one of the tables above (or any array of names). */
#define NAME_OF(table, v) \
	name_lookup(table, sizeof(table) / sizeof((table)[0]), v)

#endif /* AH_NAMES_H */
