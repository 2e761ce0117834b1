/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dsrd: the node daemon.  Things every part of it shares.
 */
#ifndef DSRD_H
#define DSRD_H

#include "util.h"

#ifndef DSRD_VERSION
#define DSRD_VERSION	"0.1.0"
#endif

#define DSRD_NAME	"dsrd"

/* Exit status (docs/dsrd.8) */
#define DSRD_EXIT_OK		0
#define DSRD_EXIT_ERR		1	/* runtime error */
#define DSRD_EXIT_CONF		2	/* bad config or command line */
#define DSRD_EXIT_NOMOD		3	/* a module is not loaded */

#endif /* DSRD_H */
