// SPDX-License-Identifier: GPL-2.0
/*
 * ahctl's generic netlink helpers (userspace/ahctl/genl.c), built again
 * for dsrd: the same code, with "dsrd:" in front of its messages, and the
 * namespace switch available on its own.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "../ahctl/ahctl.h"

#undef PROG_NAME
#define PROG_NAME	"dsrd"

#include "../ahctl/genl.c"

#include "nlshared.h"

int nl_enter_netns(const char *name)
{
	return netns_enter(name);
}
