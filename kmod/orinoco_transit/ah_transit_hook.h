/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transit-drop hook API: the calls a programmed-I/O Wi-Fi driver makes
 * into the orinoco_transit engine (seed 000 section 4).  A router pays the
 * PIO cost of a transit packet twice, reading it off the card and writing
 * it back; when the kernel is going to drop the flow anyway, the driver
 * reads the first bytes, asks, and stops reading when told to drop.
 *
 *	n = ah_transit_peek_len(dev);	 0: dev not attached, read as usual
 *	read the first n bytes of the frame (an Ethernet header first) into
 *	a buffer of the driver's
 *	if (ah_transit_rx(dev, buf, n, frame_len) == AH_TRANSIT_DROP)
 *		skip the rest of the frame, count it as dropped, return
 *	read the rest
 *
 * and, on transmit, ah_transit_tx(dev, skb) with the Ethernet frame the
 * stack handed it.  All three may be called in any context (hard IRQ
 * included) and never sleep.  The symbols come from orinoco_transit.ko.
 */
#ifndef _AH_TRANSIT_HOOK_H
#define _AH_TRANSIT_HOOK_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#define AH_TRANSIT_PEEK_MIN	34	/* Ethernet + IPv4 header */
#define AH_TRANSIT_PEEK_MAX	128

enum ah_transit_verdict {
	AH_TRANSIT_PASS,
	AH_TRANSIT_DROP,
};

/* Bytes the engine wants to peek on dev, 0 when dev is not attached. */
unsigned int ah_transit_peek_len(const struct net_device *dev);

/*
 * The first len bytes of a received frame of frame_len bytes, from its
 * Ethernet header on: pass it on, or drop it before the rest is read.
 */
enum ah_transit_verdict ah_transit_rx(struct net_device *dev,
				      const void *data, unsigned int len,
				      unsigned int frame_len);

/* skb (an Ethernet frame) is being transmitted on dev. */
void ah_transit_tx(struct net_device *dev, const struct sk_buff *skb);

#endif /* _AH_TRANSIT_HOOK_H */
