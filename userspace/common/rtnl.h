/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rtnetlink requests of dsrd and ahctl, built with libnl-3 core only
 * (no libnl-route) and sent through the shared request code, so a refusal
 * is printed with the kernel's extended ACK message:
 *
 *	ip link add NAME type dsr	rtnl_create()
 *	ip link del NAME		rtnl_delete()
 *	ip link set DEV master M	rtnl_set_master() (0: nomaster)
 *	ip link set DEV up|down		rtnl_set_up()
 *	ip addr add|del A/LEN dev DEV	rtnl_addr()
 *	ip route add default dev DEV scope link
 *					rtnl_default_route()
 */
#ifndef AH_RTNL_H
#define AH_RTNL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "genl.h"

/*
 * What the helpers find wrong themselves (out of memory, no socket, no
 * reply; the kernel's refusals are genl_request()'s) goes to
 * rtnl_err(): "PROG: message" on standard error, unless the program
 * hooks it (dsrd: into its log, with the priority of an error).
 */
extern void (*rtnl_err_hook)(const char *fmt, va_list ap);
void rtnl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What RTM_GETLINK says about one device. */
struct rtnl_link {
	unsigned int flags;	/* IFF_* */
	uint32_t master;	/* ifindex, 0: none */
};

/* An rtnetlink socket in @rt (only rt->sk is used); 0 or -1 (printed). */
int rtnl_open(struct genl *rt);

/*
 * The same in the network namespace of @netns_fd, while the process
 * stays in its own (a socket keeps the namespace it was made in).
 */
int rtnl_open_in(struct genl *rt, int netns_fd);

int rtnl_create(struct genl *rt, const char *name, const char *kind);
int rtnl_delete(struct genl *rt, int ifindex);
int rtnl_get_link(struct genl *rt, int ifindex, struct rtnl_link *l);
int rtnl_set_master(struct genl *rt, int ifindex, int master);
int rtnl_set_up(struct genl *rt, int ifindex, bool up);

/* @add: RTM_NEWADDR, else RTM_DELADDR; @addr in network byte order. */
int rtnl_addr(struct genl *rt, bool add, int ifindex, uint32_t addr,
	      unsigned int prefix);

/*
 * A default route of the main table through @ifindex, without a gateway
 * (a layer-3 point-to-point device): RTM_NEWROUTE that fails if there is
 * one already, as "ip route add" does.
 */
int rtnl_default_route(struct genl *rt, int ifindex);

#endif /* AH_RTNL_H */
