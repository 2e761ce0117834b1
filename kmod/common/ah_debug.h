/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Object lifetime lines for the debug-kernel lane (make check-debug builds
 * the modules with AH_DEBUG=y): every long-lived object a module creates
 * prints one line when it is created and one when it is destroyed,
 *
 *	ah-obj: <module> <kind> <address> created|destroyed
 *
 * and the harness checks after rmmod that the counts match per kind, the
 * way WireGuard's netns.sh counts its peers and keypairs.  Without AH_DEBUG
 * these compile to nothing.
 */
#ifndef AH_DEBUG_H
#define AH_DEBUG_H

#include <linux/printk.h>

#ifdef AH_DEBUG
#define ah_obj_created(kind, obj) \
	pr_info("ah-obj: " KBUILD_MODNAME " " kind " %p created\n", obj)
#define ah_obj_destroyed(kind, obj) \
	pr_info("ah-obj: " KBUILD_MODNAME " " kind " %p destroyed\n", obj)
#else
static inline void ah_obj_created(const char *kind, const void *obj) { }
static inline void ah_obj_destroyed(const char *kind, const void *obj) { }
#endif

#endif /* AH_DEBUG_H */
