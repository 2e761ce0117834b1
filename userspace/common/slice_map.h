/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slice's side of a map grant (include/uapi/linux/ah_slice.h): the
 * kernel gives the slice a layer-3 point-to-point interface and leaves
 * its configuration to whoever grants, which ahctl slice grant and dsrd
 * do the same way, over rtnetlink in the slice's network namespace:
 *
 *	ip -n SLICE addr add ADDR/32 dev IF
 *	ip -n SLICE link set IF up
 *	ip -n SLICE route add default dev IF scope link
 *
 * and, when the kernel announces a new ADDR (the node's address changed),
 * the old one replaced by it.  Failures are printed with rtnl_err()
 * (rtnl.h), after the kernel's reason.
 */
#ifndef AH_SLICE_MAP_H
#define AH_SLICE_MAP_H

#include <net/if.h>
#include <stdint.h>

#include "genl.h"

/* What the kernel says of a map grant's slice side */
struct slice_map {
	uint32_t addr;		/* ADDR, network byte order; 0: none now */
	uint32_t ifindex;	/* SLICE_IFINDEX: the interface in the slice */
	char ifname[IFNAMSIZ];	/* SLICE_IFNAME, for messages */
};

/*
 * The attributes of a grant (a GET reply or a GRANT announcement) parsed
 * into @tb: 0, or -1 if it has no ADDR or no SLICE_IFINDEX (it is not a
 * map grant).
 */
int slice_map_parse(struct nlattr **tb, struct slice_map *m);

/*
 * GET the grant of @ifname (the interface as named in the node) on @g, a
 * socket of the slice family in the node's namespace: 0, or -1 (printed).
 */
int slice_map_get(struct genl *g, const char *ifname, struct slice_map *m);

/*
 * Configure the slice's side of @m in the network namespace of @netns_fd:
 * the address (unless 0), the interface up, the default route.  0, or -1
 * (printed); what was done stays (the caller revokes the grant, which
 * removes the interface with it).
 */
int slice_map_setup(int netns_fd, const struct slice_map *m);

/*
 * The kernel announced m->addr (0: the node has none now) in place of
 * @old (0: none): the slice's interface gets the new address instead;
 * its default route, which the kernel removes with its last address, is
 * added again when an address comes back.  0, or -1 (printed).
 */
int slice_map_readdress(int netns_fd, const struct slice_map *m,
			uint32_t old);

#endif /* AH_SLICE_MAP_H */
