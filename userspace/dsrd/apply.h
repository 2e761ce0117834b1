/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside apply: the requests every family's step sends (apply.c), and the
 * steps of each family (apply_dsr.c, apply_macfilter.c, apply_transit.c,
 * apply_slice.c, apply_mcast.c).
 */
#ifndef DSRD_APPLY_H
#define DSRD_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netlink/msg.h>

#include "daemon.h"

/* What a step does when it fails: stop (start) or go on (reload). */
struct run {
	bool keep_going;
	int failed;
};

/* A failed step: -1 stops a start, a reload counts it and goes on. */
static inline int step_failed(struct run *r)
{
	r->failed++;
	return r->keep_going ? 0 : -1;
}

/* Requests (apply.c): a message for @cmd of family @id, its sending
 * (freed; 0 or -1, printed), a failure to build it (freed, logged; -1),
 * and a request naming interface @ifname. */
struct nl_msg *fam_msg(struct dsrd *d, enum fam_id id, uint8_t cmd,
		       size_t size);
int fam_send(struct dsrd *d, enum fam_id id, struct nl_msg *msg);
int put_failed(struct nl_msg *msg);
struct nl_msg *dev_msg(struct dsrd *d, enum fam_id id, uint8_t cmd,
		       const char *ifname, size_t size);
bool if_exists(const char *name);

/* macfilter: detach what @c has not, change or attach the rest */
int mf_apply(struct dsrd *d, const struct conf *c, struct run *r);
int mf_detach(struct dsrd *d, size_t i);
void mf_forget(struct dsrd *d, size_t i);

/* transit: likewise */
int tr_apply(struct dsrd *d, const struct conf *c, struct run *r);
int tr_detach(struct dsrd *d, size_t i);

/*
 * slice: revoke the grants of dsrd that @c no longer leases (before the
 * other steps, so that their interfaces are back in the node); grant each
 * lease of @c whose interface is not granted (after them).  A lease that
 * fails is logged and counted in @r, and the others still go: neither
 * ever stops a start.
 */
void sl_revoke_gone(struct dsrd *d, const struct conf *c, struct run *r);
void sl_grant_all(struct dsrd *d, const struct conf *c, struct run *r);
/* @ifname is granted by dsrd and @c no longer leases it: it comes back */
bool sl_returning(const struct dsrd *d, const struct conf *c,
		  const char *ifname);
/*
 * A slice notification (@cmd, its attributes @tb): a GRANT of one of
 * dsrd's map grants with a new ADDR re-addresses the slice's side; a
 * REVOKE of one of its wireless grants that the kernel ended and holds
 * until the phy is back (RETURNING) brings the phy back.
 */
void sl_event(struct dsrd *d, uint8_t cmd, struct nlattr **tb);

/* dsr: the device, its parameters, slaves and address; a request on it */
struct nl_msg *dsr_dev_msg(struct dsrd *d, uint8_t cmd);
int dsr_create(struct dsrd *d, const struct conf *c);
int dsr_delete(struct dsrd *d);
int dsr_params_apply(struct dsrd *d, const struct conf *c, struct run *r);
int slaves_apply(struct dsrd *d, const struct conf *c, struct run *r);
int addr_apply(struct dsrd *d, const struct conf *c, struct run *r);

/*
 * mcast: unmap the sources dsrd mapped that @c has not, map those of @c
 * that are new; leave the groups dsrd joined that @c has not, join those
 * of @c that are new or changed (the device is set up, with its address)
 */
int mc_apply(struct dsrd *d, const struct conf *c, struct run *r);

#endif /* DSRD_APPLY_H */
