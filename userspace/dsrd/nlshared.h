/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dsrd adds to ahctl's genl.h (see nlshared.c).
 */
#ifndef DSRD_NLSHARED_H
#define DSRD_NLSHARED_H

#include "genl.h"

/* Enter network namespace @name (/run/netns/NAME); 0 or -1 (printed). */
int nl_enter_netns(const char *name);

#endif /* DSRD_NLSHARED_H */
