/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive order on a device: the driver, macfilter's rx_handler, then
 * one module that takes the frames macfilter passed before any protocol
 * sees them (DSR, on its slaves), then the protocols.  macfilter owns the
 * rx_handler; the next module hangs its handler behind it through these
 * two calls, exported by macfilter.ko (docs/macfilter.md, "Behind
 * macfilter").
 */
#ifndef _AH_MACFILTER_NEXT_H
#define _AH_MACFILTER_NEXT_H

#include <linux/netdevice.h>

struct macfilter_next {
	/*
	 * A frame macfilter passed, in its rx_handler (RCU read side, bottom
	 * halves off): RX_HANDLER_PASS hands *pskb on to the protocols,
	 * RX_HANDLER_CONSUMED says the handler took it (or freed it).
	 */
	rx_handler_result_t (*rx)(struct sk_buff **pskb,
				  const struct macfilter_next *next);
};

/*
 * RTNL held.  attach puts macfilter's rx_handler on dev if it is not there
 * (it then passes every frame until a user attaches a filter); -EBUSY if
 * another handler owns the rx_handler or another module is behind
 * macfilter there.  After detach returns, no CPU runs next->rx any more.
 */
int macfilter_next_attach(struct net_device *dev, struct macfilter_next *next,
			  struct netlink_ext_ack *extack);
void macfilter_next_detach(struct net_device *dev,
			   struct macfilter_next *next);

#endif /* _AH_MACFILTER_NEXT_H */
