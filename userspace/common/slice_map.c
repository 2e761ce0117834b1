// SPDX-License-Identifier: GPL-2.0
/* The slice's side of a map grant (see slice_map.h). */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include <linux/ah_slice.h>

#include "rtnl.h"
#include "slice_map.h"

int slice_map_parse(struct nlattr **tb, struct slice_map *m)
{
	memset(m, 0, sizeof(*m));
	if (!tb[SLICE_A_ADDR] || nla_len(tb[SLICE_A_ADDR]) < 4 ||
	    !attr_u32(tb[SLICE_A_SLICE_IFINDEX], &m->ifindex))
		return -1;
	memcpy(&m->addr, nla_data(tb[SLICE_A_ADDR]), sizeof(m->addr));
	if (!attr_str(tb[SLICE_A_SLICE_IFNAME], m->ifname, sizeof(m->ifname)))
		snprintf(m->ifname, sizeof(m->ifname), "%u", m->ifindex);
	return 0;
}

struct get_reply {
	struct genl *g;
	struct slice_map *m;
	bool seen;		/* a reply of the slice family */
	bool map;		/* with ADDR and SLICE_IFINDEX */
};

static int get_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SLICE_A_MAX + 1];
	struct get_reply *r = arg;
	uint8_t cmd;

	if (genl_parse(r->g, msg, &cmd, tb, SLICE_A_MAX) ||
	    cmd != SLICE_CMD_GET)
		return 0;
	r->seen = true;
	r->map = !slice_map_parse(tb, r->m);
	return 0;
}

int slice_map_get(struct genl *g, const char *ifname, struct slice_map *m)
{
	struct get_reply r = { .g = g, .m = m };
	struct nl_msg *msg = genl_new(g, SLICE_CMD_GET, 0, 0);

	if (!msg)
		return -1;
	if (nla_put_string(msg, SLICE_A_IFNAME, ifname)) {
		nlmsg_free(msg);
		rtnl_err("out of memory building a request");
		return -1;
	}
	if (genl_request(g, msg, get_cb, &r)) {
		rtnl_err("slice %s: cannot read the grant back", ifname);
		return -1;
	}
	if (!r.seen || !r.map) {
		rtnl_err("slice %s: the kernel's grant has no %s", ifname,
			 r.seen ? "mapped address (not a map grant?)" : "reply");
		return -1;
	}
	return 0;
}

static const char *addr_str(uint32_t be, char *buf, size_t size)
{
	struct in_addr in = { .s_addr = be };

	return inet_ntop(AF_INET, &in, buf, (socklen_t)size) ? buf : "?";
}

int slice_map_setup(int netns_fd, const struct slice_map *m)
{
	char a[INET_ADDRSTRLEN];
	struct genl rt;
	int ret = -1;

	if (rtnl_open_in(&rt, netns_fd))
		return -1;
	if (m->addr && rtnl_addr(&rt, true, (int)m->ifindex, m->addr, 32)) {
		rtnl_err("cannot add %s/32 to %s in the slice's namespace",
			 addr_str(m->addr, a, sizeof(a)), m->ifname);
		goto out;
	}
	if (rtnl_set_up(&rt, (int)m->ifindex, true)) {
		rtnl_err("cannot set %s up in the slice's namespace",
			 m->ifname);
		goto out;
	}
	if (rtnl_default_route(&rt, (int)m->ifindex)) {
		rtnl_err("cannot add a default route through %s in the slice's namespace",
			 m->ifname);
		goto out;
	}
	ret = 0;
out:
	genl_close(&rt);
	return ret;
}

int slice_map_readdress(int netns_fd, const struct slice_map *m,
			uint32_t old)
{
	char a[INET_ADDRSTRLEN];
	struct genl rt;
	int ret = 0;

	if (old == m->addr)
		return 0;
	if (rtnl_open_in(&rt, netns_fd))
		return -1;
	/*
	 * The new one first: the last address leaving an interface takes
	 * its routes with it.  The old one goes even if the new one could
	 * not be added (the kernel maps only the new one), and may have
	 * been taken away by the slice itself.
	 */
	if (m->addr && rtnl_addr(&rt, true, (int)m->ifindex, m->addr, 32)) {
		rtnl_err("cannot add %s/32 to %s in the slice's namespace",
			 addr_str(m->addr, a, sizeof(a)), m->ifname);
		ret = -1;
	}
	if (old && rtnl_addr(&rt, false, (int)m->ifindex, old, 32)) {
		rtnl_err("cannot remove %s/32 from %s in the slice's namespace",
			 addr_str(old, a, sizeof(a)), m->ifname);
		ret = -1;
	}
	/* an address again after none: the route went with the last one */
	if (!old && !ret && rtnl_default_route(&rt, (int)m->ifindex)) {
		rtnl_err("cannot add a default route through %s in the slice's namespace",
			 m->ifname);
		ret = -1;
	}
	genl_close(&rt);
	return ret;
}
