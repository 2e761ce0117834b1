/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-packet tracepoints (the CMU testbed's /dev/kdsr role):
 *   echo 1 > /sys/kernel/tracing/events/dsr/enable
 *   trace-cmd record -e dsr
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dsr

#if !defined(_DSR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DSR_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>
#include <linux/version.h>

/* __assign_str() lost its source argument in 6.10 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define dsr_assign_dev(d) __assign_str(dev)
#else
#define dsr_assign_dev(d) __assign_str(dev, (d)->name)
#endif

/*
 * Every event names the node (self: its address; in a lab all nodes may
 * share one kernel and one trace buffer) and, where it is about a packet,
 * the packet's IP id: with the addresses, a packet's identity, so its
 * transmissions can be matched to its receptions at the next hop.
 *
 * No two events have the same fields, so none shares a DECLARE_EVENT_CLASS:
 * a class would change an event's record and format, which the demo's
 * tables and the selftests read.
 */

/*
 * a transmission to a next hop; tries > 1 is a retransmission; segs: the
 * Segments Left it carries (255: no source route, the last hop)
 */
TRACE_EVENT(dsr_xmit,
	TP_PROTO(const struct net_device *dev, __be32 self, __be32 saddr,
		 __be32 daddr, __be16 id, __be32 nexthop, unsigned int len,
		 unsigned int tries, bool ack_req, unsigned int rto_ms, u8 segs),
	TP_ARGS(dev, self, saddr, daddr, id, nexthop, len, tries, ack_req,
		rto_ms, segs),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(__be32, self)
		__field(__be32, saddr)
		__field(__be32, daddr)
		__field(__be32, nexthop)
		__field(unsigned int, len)
		__field(unsigned int, tries)
		__field(bool, ack_req)
		__field(unsigned int, rto_ms)
		__field(u16, id)
		__field(u8, segs)
	),
	TP_fast_assign(
		dsr_assign_dev(dev);
		__entry->self = self;
		__entry->saddr = saddr;
		__entry->daddr = daddr;
		__entry->id = ntohs(id);
		__entry->segs = segs;
		__entry->nexthop = nexthop;
		__entry->len = len;
		__entry->tries = tries;
		__entry->ack_req = ack_req;
		__entry->rto_ms = rto_ms;
	),
	TP_printk("%s %pI4 -> %pI4 via %pI4 len %u try %u ack_req %d rto %ums self %pI4 id %u segs %u",
		  __get_str(dev), &__entry->saddr, &__entry->daddr,
		  &__entry->nexthop, __entry->len, __entry->tries,
		  __entry->ack_req, __entry->rto_ms, &__entry->self,
		  __entry->id, __entry->segs)
);

/* a packet received (or overheard) and what became of it */
TRACE_EVENT(dsr_recv,
	TP_PROTO(const struct net_device *dev, __be32 self, __be32 saddr,
		 __be32 daddr, __be16 id, __be32 prev, unsigned int len,
		 bool overheard, int verdict),
	TP_ARGS(dev, self, saddr, daddr, id, prev, len, overheard, verdict),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(__be32, self)
		__field(__be32, saddr)
		__field(__be32, daddr)
		__field(__be32, prev)
		__field(unsigned int, len)
		__field(bool, overheard)
		__field(int, verdict)
		__field(u16, id)
	),
	TP_fast_assign(
		dsr_assign_dev(dev);
		__entry->self = self;
		__entry->id = ntohs(id);
		__entry->saddr = saddr;
		__entry->daddr = daddr;
		__entry->prev = prev;
		__entry->len = len;
		__entry->overheard = overheard;
		__entry->verdict = verdict;
	),
	TP_printk("%s %pI4 -> %pI4 from %pI4 len %u %s%s self %pI4 id %u",
		  __get_str(dev), &__entry->saddr, &__entry->daddr,
		  &__entry->prev, __entry->len,
		  __entry->overheard ? "overheard " : "",
		  __print_symbolic(__entry->verdict, { 0, "done" },
				   { 1, "deliver" }, { 2, "forward" },
				   { 3, "deliver-multicast" }),
		  &__entry->self, __entry->id)
);

/* the next hop acknowledged a packet */
TRACE_EVENT(dsr_ack,
	TP_PROTO(const struct net_device *dev, __be32 self, __be32 from,
		 bool passive, unsigned int rtt_ms, unsigned int tries,
		 unsigned int first_ms, __be32 saddr, __be32 daddr, __be16 id),
	TP_ARGS(dev, self, from, passive, rtt_ms, tries, first_ms, saddr,
		daddr, id),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(__be32, self)
		__field(__be32, saddr)
		__field(__be32, daddr)
		__field(u16, id)
		__field(__be32, from)
		__field(bool, passive)
		__field(unsigned int, rtt_ms)
		__field(unsigned int, tries)
		__field(unsigned int, first_ms)
	),
	TP_fast_assign(
		dsr_assign_dev(dev);
		__entry->self = self;
		__entry->saddr = saddr;
		__entry->daddr = daddr;
		__entry->id = ntohs(id);
		__entry->from = from;
		__entry->passive = passive;
		__entry->rtt_ms = rtt_ms;
		__entry->tries = tries;
		__entry->first_ms = first_ms;
	),
	TP_printk("%s from %pI4 %s rtt %ums tries %u since_first %ums self %pI4 pkt %pI4 -> %pI4 id %u",
		  __get_str(dev), &__entry->from,
		  __entry->passive ? "passive" : "explicit", __entry->rtt_ms,
		  __entry->tries, __entry->first_ms, &__entry->self,
		  &__entry->saddr, &__entry->daddr, __entry->id)
);

/*
 * A packet ran out of retransmissions (maint.c): lost to congestion
 * (a later packet acknowledged, or the next hop heard since and it
 * acknowledged something within DSR_BL_SILENT_MS), held while a later
 * packet to it is still queued here, or the link broken.  Ages in ms
 * since the packet's last transmission, the next hop's last frame and its
 * last acknowledgment (-1: never, or no neighbour entry).
 */
TRACE_EVENT(dsr_maint_verdict,
	TP_PROTO(const struct net_device *dev, __be32 self, __be32 saddr,
		 __be32 daddr, __be16 id, __be32 nexthop, int verdict,
		 unsigned int tries, bool later_acked, int heard_ms,
		 int sent_ms, int confirmed_ms),
	TP_ARGS(dev, self, saddr, daddr, id, nexthop, verdict, tries,
		later_acked, heard_ms, sent_ms, confirmed_ms),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(__be32, self)
		__field(__be32, saddr)
		__field(__be32, daddr)
		__field(__be32, nexthop)
		__field(int, verdict)
		__field(unsigned int, tries)
		__field(int, heard_ms)
		__field(int, sent_ms)
		__field(int, confirmed_ms)
		__field(u16, id)
		__field(bool, later_acked)
	),
	TP_fast_assign(
		dsr_assign_dev(dev);
		__entry->self = self;
		__entry->saddr = saddr;
		__entry->daddr = daddr;
		__entry->id = ntohs(id);
		__entry->nexthop = nexthop;
		__entry->verdict = verdict;
		__entry->tries = tries;
		__entry->later_acked = later_acked;
		__entry->heard_ms = heard_ms;
		__entry->sent_ms = sent_ms;
		__entry->confirmed_ms = confirmed_ms;
	),
	TP_printk("%s %s to %pI4 tries %u later_acked %d sent %dms heard %dms confirmed %dms self %pI4 pkt %pI4 -> %pI4 id %u",
		  __get_str(dev),
		  __print_symbolic(__entry->verdict, { 0, "congested" },
				   { 1, "held" }, { 2, "broken" }),
		  &__entry->nexthop, __entry->tries, __entry->later_acked,
		  __entry->sent_ms, __entry->heard_ms, __entry->confirmed_ms,
		  &__entry->self, &__entry->saddr, &__entry->daddr,
		  __entry->id)
);

/* the route cache changed: a route learned or a link removed */
TRACE_EVENT(dsr_route,
	TP_PROTO(const struct net_device *dev, int event, __be32 a, __be32 b,
		 unsigned int hops),
	TP_ARGS(dev, event, a, b, hops),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(int, event)
		__field(__be32, a)
		__field(__be32, b)
		__field(unsigned int, hops)
	),
	TP_fast_assign(
		dsr_assign_dev(dev);
		__entry->event = event;
		__entry->a = a;
		__entry->b = b;
		__entry->hops = hops;
	),
	TP_printk("%s %s %pI4 %pI4 hops %u", __get_str(dev),
		  __print_symbolic(__entry->event, { 1, "added" },
				   { 2, "error" }, { 3, "link_broken" }),
		  &__entry->a, &__entry->b, __entry->hops)
);

#endif /* _DSR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
