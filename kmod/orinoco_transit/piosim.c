// SPDX-License-Identifier: GPL-2.0
/*
 * piosim - a pair of Ethernet devices, like veth, whose "card" is read and
 * written by programmed I/O: 16 bits per I/O cycle, every cycle costing
 * word_ns of busy CPU time, as orinoco and hostap pay with inw()/outw() on
 * a PCMCIA Wi-Fi card (seed 000 section 4).  It is a driver hooked to the
 * orinoco_transit engine (ah_transit_hook.h), so that the PIO the engine saves
 * can be counted and timed on any machine.
 *
 * A transmit on one end writes the frame into the other end's card buffer,
 * a ring of frame slots; that end's NAPI poll reads it back out, first the
 * bytes the engine wants to peek, then, unless the engine drops the
 * frame, the rest.  See docs/piosim.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/u64_stats_sync.h>
#include <net/rtnetlink.h>

#include "ah_debug.h"
#include "ah_transit_hook.h"

/*
 * The 802.11 MSDU limit (IEEE80211_MAX_DATA_LEN); orinoco itself allows 8
 * bytes less for its encapsulation header, hostap 14.
 */
#define PIO_MAX_MTU	2304
/* an Ethernet frame of PIO_MAX_MTU, VLAN tag included (packet sockets) */
#define PIO_FRAME_MAX	(VLAN_ETH_HLEN + PIO_MAX_MTU)
#define PIO_SLOTS_MAX	1024
/*
 * Frames per poll.  At the default cost a 1514-byte frame takes 757 us to
 * read; 16 of them keep one poll near 12 ms.  orinoco's interrupt handler
 * takes 10 events (MAX_IRQLOOPS_PER_IRQ) per interrupt.
 */
#define PIO_NAPI_WEIGHT	16
/*
 * 10 us per word: a poll of 16 full frames still takes under 0.2 s, far
 * from the RCU stall and soft lockup detectors.
 */
#define PIO_WORD_NS_MAX	10000

/*
 * ns per 16-bit I/O cycle.  An ISA-timed I/O cycle, which is what a PCMCIA
 * card's registers get, takes about 1 us (the time outb to port 0x80 has
 * long been used to wait).  The paper's 2830 us to forward a 1500-byte
 * packet, 1500 words in and out, is nearer 1.9 us a word: the default is
 * on the cheap side.  0: no cost.
 */
static unsigned int word_ns = 1000;
static unsigned int card_slots = 32;

static int pio_set_word_ns(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, PIO_WORD_NS_MAX);
}

static const struct kernel_param_ops pio_word_ns_ops = {
	.set = pio_set_word_ns,
	.get = param_get_uint,
};

module_param_cb(word_ns, &pio_word_ns_ops, &word_ns, 0644);
MODULE_PARM_DESC(word_ns,
		 "busy ns per 16-bit word moved to or from a card (0: none, max 10000, default 1000)");

/* a power of two: the ring's free-running indices wrap with a mask */
static int pio_set_card_slots(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (!is_power_of_2(n) || n > PIO_SLOTS_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops pio_card_slots_ops = {
	.set = pio_set_card_slots,
	.get = param_get_uint,
};

module_param_cb(card_slots, &pio_card_slots_ops, &card_slots, 0644);
MODULE_PARM_DESC(card_slots,
		 "receive frame slots per card, a power of two up to 1024, for devices created from then on (default 32)");

/*
 * Counters, per CPU: rx written by the NAPI poll, tx by ndo_start_xmit on
 * whichever CPU transmits.  The first PIO_RX_ETHTOOL and PIO_TX_ETHTOOL
 * of each are shown by ethtool -S, the rest by ndo_get_stats64.
 */
enum {
	PIO_RX_FRAMES,		/* taken out of the card, whatever became of them */
	PIO_RX_EARLY_DROPS,	/* dropped by the engine after the peek */
	PIO_RX_PIO_WORDS,	/* read from the card */
	PIO_RX_PIO_WORDS_SAVED,	/* left unread by early drops */
	PIO_RX_POLL_NS,		/* time in the NAPI poll, the stack's work included */
	PIO_RX_ETHTOOL,
	PIO_RX_PACKETS = PIO_RX_ETHTOOL,	/* handed to the stack */
	PIO_RX_BYTES,
	PIO_RX_DROPPED,		/* early drops, no memory, flushed at open */
	PIO_RX_MAX,
};

enum {
	PIO_TX_FRAMES,		/* written to the peer's card */
	PIO_TX_PIO_WORDS,
	PIO_TX_XMIT_NS,		/* time in ndo_start_xmit */
	PIO_TX_CARD_FULL,	/* dropped: no free slot on the peer's card */
	PIO_TX_ETHTOOL,
	PIO_TX_BYTES = PIO_TX_ETHTOOL,
	PIO_TX_DROPPED,		/* card full, peer down or gone, bad length */
	PIO_TX_MAX,
};

#define PIO_CTRS	PIO_RX_MAX
static_assert((int)PIO_TX_MAX <= (int)PIO_CTRS);

static const char pio_rx_names[PIO_RX_ETHTOOL][ETH_GSTRING_LEN] = {
	"rx_frames", "rx_early_drops", "rx_pio_words", "rx_pio_words_saved",
	"rx_poll_ns",
};

static const char pio_tx_names[PIO_TX_ETHTOOL][ETH_GSTRING_LEN] = {
	"tx_frames", "tx_pio_words", "tx_xmit_ns", "card_full",
};

struct pio_pcpu_stats {
	u64_stats_t rx[PIO_CTRS];
	u64_stats_t tx[PIO_CTRS];
	struct u64_stats_sync syncp;
};

/* One frame as the card holds it: its length and its bytes, as words. */
struct pio_slot {
	u16 len;
	u16 data[PIO_FRAME_MAX / 2];
};

/*
 * The receive memory of a card: a single-producer, single-consumer ring.
 * The producer is the peer's transmit (lock serialises its tx queues),
 * the consumer is this device's NAPI poll.  head and tail run freely and
 * are published with release/acquire, so a slot's bytes are complete
 * before the poll sees it, and read before the peer may rewrite it.
 */
struct pio_card {
	struct pio_slot *slot;
	u32 mask;
	spinlock_t lock;	/* the writer side: head and the slots' bytes */
	u32 head;		/* next slot the peer writes */
	u32 tail ____cacheline_aligned_in_smp;	/* next slot the poll reads */
};

struct pio_priv {
	struct net_device __rcu *peer;
	struct net_device *dev;
	struct pio_pcpu_stats __percpu *stats;
	struct napi_struct napi;
	struct pio_card card;
};

/* ---- the cost of programmed I/O ------------------------------------------ */

static unsigned int pio_words(unsigned int len)
{
	return DIV_ROUND_UP(len, 2);
}

/*
 * Spend words I/O cycles of CPU time, spinning.  Not ndelay(): on x86 it
 * becomes __const_udelay(), a count of TSC cycles (delay_tsc()) derived
 * from loops_per_jiffy, i.e. from the TSC calibration made at boot, which
 * is rough in a QEMU guest on a loaded host (TCG's guest TSC follows the
 * host's, so it is still real time, only scaled by that estimate); with
 * WAITPKG or MWAITX it waits in TPAUSE/MWAITX instead of spinning; and
 * it is meant for short waits (a 32-bit multiply).  ktime_get_ns() reads
 * the clocksource timekeeping uses, which follows the host's real time
 * under QEMU whatever it is (tsc, kvm-clock, hpet), and is the clock
 * rx_poll_ns and tx_xmit_ns are taken with.  The loop never sleeps: it is
 * correct in softirq and with BH off.  The cost is paid once per transfer
 * rather than per word: the same CPU time, without a clock read a word.
 */
static void pio_stall(unsigned int words)
{
	u64 ns = (u64)words * READ_ONCE(word_ns);
	u64 end;

	if (!ns)
		return;
	end = ktime_get_ns() + ns;
	while (ktime_get_ns() < end)
		cpu_relax();
}

/*
 * The card's data register: inw() moves one word from card to memory, an
 * odd last byte still takes a whole word (hermes_read_words() and
 * hermes_write_bytes() do the same).  READ_ONCE/WRITE_ONCE on the card
 * side keep the compiler from merging the words into one memcpy; the
 * memory side may be unaligned (an skb's data), hence the 2-byte memcpy,
 * which compiles to one move.
 */
static unsigned int pio_read(void *buf, const u16 *card, unsigned int len)
{
	unsigned int i;
	u8 *d = buf;

	for (i = 0; i < len / 2; i++) {
		u16 w = READ_ONCE(card[i]);

		memcpy(d + 2 * i, &w, 2);
	}
	if (len & 1) {
		u16 w = READ_ONCE(card[i]);

		memcpy(d + 2 * i, &w, 1);
	}
	pio_stall(pio_words(len));
	return pio_words(len);
}

static unsigned int pio_write(u16 *card, const void *buf, unsigned int len)
{
	const u8 *s = buf;
	unsigned int i;

	for (i = 0; i < len / 2; i++) {
		u16 w;

		memcpy(&w, s + 2 * i, 2);
		WRITE_ONCE(card[i], w);
	}
	if (len & 1) {
		u16 w = 0;

		memcpy(&w, s + 2 * i, 1);
		WRITE_ONCE(card[i], w);
	}
	pio_stall(pio_words(len));
	return pio_words(len);
}

/* ---- counters ------------------------------------------------------------ */

/*
 * Every writer runs with BH off (the NAPI poll, ndo_start_xmit, or
 * local_bh_disable()) and netpoll is off (pio_setup()), so the writers of
 * one CPU's counters never nest and one syncp serves rx and tx.
 */
static void pio_stats_add(struct pio_priv *priv, bool tx, const u64 *add)
{
	struct pio_pcpu_stats *s = this_cpu_ptr(priv->stats);
	u64_stats_t *v = tx ? s->tx : s->rx;
	int i;

	u64_stats_update_begin(&s->syncp);
	for (i = 0; i < PIO_CTRS; i++)
		if (add[i])
			u64_stats_add(&v[i], add[i]);
	u64_stats_update_end(&s->syncp);
}

static void pio_sum(const struct pio_priv *priv, u64 *rx, u64 *tx)
{
	u64 r[PIO_CTRS], t[PIO_CTRS];
	unsigned int start;
	int cpu, i;

	memset(rx, 0, sizeof(r));
	memset(tx, 0, sizeof(t));
	for_each_possible_cpu(cpu) {
		const struct pio_pcpu_stats *s = per_cpu_ptr(priv->stats, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < PIO_CTRS; i++) {
				r[i] = u64_stats_read(&s->rx[i]);
				t[i] = u64_stats_read(&s->tx[i]);
			}
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < PIO_CTRS; i++) {
			rx[i] += r[i];
			tx[i] += t[i];
		}
	}
}

/* ---- the card buffer ----------------------------------------------------- */

static int pio_card_alloc(struct pio_card *card)
{
	unsigned int slots = READ_ONCE(card_slots);

	card->slot = kvcalloc(slots, sizeof(*card->slot), GFP_KERNEL_ACCOUNT);
	if (!card->slot)
		return -ENOMEM;
	card->mask = slots - 1;
	spin_lock_init(&card->lock);
	ah_obj_created("card", card->slot);
	return 0;
}

static void pio_card_free(struct pio_card *card)
{
	ah_obj_destroyed("card", card->slot);
	kvfree(card->slot);
	card->slot = NULL;
}

/*
 * The peer transmits into rx's card, with BH off and under RCU (rx stays
 * allocated).  A full card drops the frame, as a card with no free
 * receive memory does.  Called with skb linear and its length checked.
 */
static int pio_card_write(struct pio_priv *rx, const struct sk_buff *skb,
			  u64 *acc)
{
	struct pio_card *card = &rx->card;
	struct pio_slot *slot;
	u32 head;

	spin_lock(&card->lock);
	head = card->head;
	/* acquire: the poll is done reading a slot it has given back */
	if (head - smp_load_acquire(&card->tail) > card->mask) {
		spin_unlock(&card->lock);
		return -ENOSPC;
	}
	slot = &card->slot[head & card->mask];
	slot->len = skb->len;
	acc[PIO_TX_PIO_WORDS] = pio_write(slot->data, skb->data, skb->len);
	/* release: the poll sees the slot's bytes before the new head */
	smp_store_release(&card->head, head + 1);
	spin_unlock(&card->lock);
	/*
	 * The receive interrupt.  napi_schedule_prep()'s cmpxchg orders the
	 * head above before it; a poll already running is marked MISSED
	 * and runs again.
	 */
	napi_schedule(&rx->napi);
	return 0;
}

/*
 * Frames left on the card while the device was down are thrown away, as
 * orinoco_open() resets the card.  NAPI is disabled: nothing else moves
 * tail.
 */
static u32 pio_card_flush(struct pio_card *card)
{
	u32 head = smp_load_acquire(&card->head);	/* pairs with the peer's release */
	u32 n = head - card->tail;

	smp_store_release(&card->tail, head);	/* pairs with the peer's acquire */
	return n;
}

static bool pio_card_empty(struct pio_card *card)
{
	return smp_load_acquire(&card->head) == card->tail;	/* as above */
}

/* ---- receive ------------------------------------------------------------- */

/*
 * What to read before asking the engine: what it wants, at most the
 * buffer, rounded up to whole words (the data register reads no half
 * word, and hermes seeks only to even offsets, so the rest of the frame
 * starts on a word), at most the frame.
 */
static unsigned int pio_head_len(unsigned int want, unsigned int frame_len)
{
	want = round_up(min_t(unsigned int, want, AH_TRANSIT_PEEK_MAX), 2);
	return min(want, frame_len);
}

/* One frame off the card, as a PIO driver's receive handler takes it. */
static void pio_rx_one(struct pio_priv *priv, const struct pio_slot *slot,
		       u64 *acc)
{
	u8 hdr[AH_TRANSIT_PEEK_MAX] __aligned(2);
	struct net_device *dev = priv->dev;
	unsigned int len = slot->len;
	unsigned int got = 0, want;
	struct sk_buff *skb;

	acc[PIO_RX_FRAMES]++;
	want = ah_transit_peek_len(dev);
	if (want) {
		got = pio_head_len(want, len);
		acc[PIO_RX_PIO_WORDS] += pio_read(hdr, slot->data, got);
		if (ah_transit_rx(dev, hdr, got, len) == AH_TRANSIT_DROP) {
			/* the rest stays on the card, released unread */
			acc[PIO_RX_EARLY_DROPS]++;
			acc[PIO_RX_DROPPED]++;
			acc[PIO_RX_PIO_WORDS_SAVED] += pio_words(len) -
						       pio_words(got);
			return;
		}
	}
	skb = napi_alloc_skb(&priv->napi, len);
	if (unlikely(!skb)) {
		acc[PIO_RX_DROPPED]++;
		return;
	}
	/*
	 * The head is not read twice: the driver copies what it peeked and
	 * reads on from where the card's read pointer stopped, as hostap
	 * does after looking at the header.
	 */
	skb_put_data(skb, hdr, got);
	acc[PIO_RX_PIO_WORDS] += pio_read(skb_put(skb, len - got),
					  slot->data + got / 2, len - got);
	skb->protocol = eth_type_trans(skb, dev);
	acc[PIO_RX_PACKETS]++;
	acc[PIO_RX_BYTES] += len;
	/*
	 * Not GRO: netif_receive_skb() runs the stack, forwarding and the
	 * transmit on the next device included, before it returns, so
	 * rx_poll_ns holds the router's whole cost of the frame.
	 */
	netif_receive_skb(skb);
}

static int pio_poll(struct napi_struct *napi, int budget)
{
	struct pio_priv *priv = container_of(napi, struct pio_priv, napi);
	struct pio_card *card = &priv->card;
	u64 t0 = ktime_get_ns(), acc[PIO_CTRS] = {};
	u32 tail = card->tail;
	u32 head;
	int done = 0;

	/* acquire: a slot's bytes are all there once head covers it */
	head = smp_load_acquire(&card->head);
	while (done < budget && tail != head) {
		pio_rx_one(priv, &card->slot[tail & card->mask], acc);
		/* release: the slot is read, the peer may write it again */
		smp_store_release(&card->tail, ++tail);
		done++;
		if (tail == head)	/* acquire, as above */
			head = smp_load_acquire(&card->head);
	}
	if (done < budget)
		napi_complete_done(napi, done);
	acc[PIO_RX_POLL_NS] = ktime_get_ns() - t0;
	pio_stats_add(priv, false, acc);
	return done;
}

/* ---- transmit ------------------------------------------------------------ */

/*
 * Without NETIF_F_SG the core hands us linear skbs (validate_xmit_skb());
 * a nonlinear one (pktgen frags=) is refused rather than linearised, as
 * it may be shared.
 */
static bool pio_tx_ok(const struct sk_buff *skb)
{
	return skb->len >= ETH_HLEN && skb->len <= PIO_FRAME_MAX &&
	       !skb_is_nonlinear(skb);
}

static netdev_tx_t pio_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);
	u64 t0 = ktime_get_ns(), acc[PIO_CTRS] = {};
	unsigned int len = skb->len;
	struct net_device *peer;
	int err = -ENODEV;

	ah_transit_tx(dev, skb);
	rcu_read_lock();
	peer = rcu_dereference(priv->peer);
	if (unlikely(!pio_tx_ok(skb)))
		err = -EINVAL;
	else if (likely(peer && netif_running(peer)))
		err = pio_card_write(netdev_priv(peer), skb, acc);
	rcu_read_unlock();

	if (likely(!err)) {
		acc[PIO_TX_FRAMES] = 1;
		acc[PIO_TX_BYTES] = len;
		dev_consume_skb_any(skb);
	} else {
		acc[PIO_TX_CARD_FULL] = err == -ENOSPC;
		acc[PIO_TX_DROPPED] = 1;
		dev_kfree_skb_any(skb);
	}
	acc[PIO_TX_XMIT_NS] = ktime_get_ns() - t0;
	pio_stats_add(priv, true, acc);
	return NETDEV_TX_OK;
}

/* ---- net_device ---------------------------------------------------------- */

static int pio_init(struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);
	int err;

	priv->dev = dev;
	priv->stats = netdev_alloc_pcpu_stats(struct pio_pcpu_stats);
	if (!priv->stats)
		return -ENOMEM;
	err = pio_card_alloc(&priv->card);
	if (err) {
		free_percpu(priv->stats);
		return err;
	}
	netif_napi_add_weight(dev, &priv->napi, pio_poll, PIO_NAPI_WEIGHT);
	/* the carrier comes on when both ends are up */
	netif_carrier_off(dev);
	ah_obj_created("dev", priv);
	return 0;
}

/*
 * Runs after the device is closed and after the synchronize_net() in
 * unregister_netdevice_many(); pio_dellink() cleared both peer pointers
 * before that, so no transmit of the peer still writes into this card or
 * schedules its NAPI.  (When register_netdevice() fails there is no peer
 * yet.)
 */
static void pio_uninit(struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);

	netif_napi_del(&priv->napi);	/* synchronize_net() */
	pio_card_free(&priv->card);
	free_percpu(priv->stats);
	ah_obj_destroyed("dev", priv);
}

static int pio_open(struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);
	u64 acc[PIO_CTRS] = {};

	if (!peer)
		return -ENOTCONN;
	acc[PIO_RX_DROPPED] = pio_card_flush(&priv->card);
	local_bh_disable();
	pio_stats_add(priv, false, acc);
	local_bh_enable();

	napi_enable(&priv->napi);
	/*
	 * The peer may have written a frame since the flush, while NAPI was
	 * still disabled and its napi_schedule() did nothing.  The cmpxchg
	 * in napi_enable() and the one in the peer's napi_schedule_prep()
	 * order the head: either it sees NAPI enabled or we see the frame.
	 */
	if (!pio_card_empty(&priv->card)) {
		local_bh_disable();
		napi_schedule(&priv->napi);
		local_bh_enable();
	}
	if (peer->flags & IFF_UP) {
		netif_carrier_on(dev);
		netif_carrier_on(peer);
	}
	return 0;
}

static int pio_stop(struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	netif_carrier_off(dev);
	if (peer)
		netif_carrier_off(peer);
	napi_disable(&priv->napi);
	return 0;
}

static void pio_get_stats64(struct net_device *dev,
			    struct rtnl_link_stats64 *st)
{
	u64 rx[PIO_CTRS], tx[PIO_CTRS];

	pio_sum(netdev_priv(dev), rx, tx);
	st->rx_packets = rx[PIO_RX_PACKETS];
	st->rx_bytes = rx[PIO_RX_BYTES];
	st->rx_dropped = rx[PIO_RX_DROPPED];
	st->tx_packets = tx[PIO_TX_FRAMES];
	st->tx_bytes = tx[PIO_TX_BYTES];
	st->tx_dropped = tx[PIO_TX_DROPPED];
}

static int pio_get_iflink(const struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);
	struct net_device *peer;
	int iflink;

	rcu_read_lock();
	peer = rcu_dereference(priv->peer);
	iflink = peer ? READ_ONCE(peer->ifindex) : 0;
	rcu_read_unlock();
	return iflink;
}

static const struct net_device_ops pio_netdev_ops = {
	.ndo_init = pio_init,
	.ndo_uninit = pio_uninit,
	.ndo_open = pio_open,
	.ndo_stop = pio_stop,
	.ndo_start_xmit = pio_xmit,
	.ndo_get_stats64 = pio_get_stats64,
	.ndo_get_iflink = pio_get_iflink,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

/* ---- ethtool ------------------------------------------------------------- */

static void pio_get_drvinfo(struct net_device *dev,
			    struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "piosim", sizeof(info->driver));
	strscpy(info->version, "1", sizeof(info->version));
}

static int pio_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? PIO_RX_ETHTOOL + PIO_TX_ETHTOOL :
				      -EOPNOTSUPP;
}

static void pio_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	if (sset != ETH_SS_STATS)
		return;
	memcpy(data, pio_rx_names, sizeof(pio_rx_names));
	memcpy(data + sizeof(pio_rx_names), pio_tx_names,
	       sizeof(pio_tx_names));
}

static void pio_get_ethtool_stats(struct net_device *dev,
				  struct ethtool_stats *stats, u64 *data)
{
	u64 rx[PIO_CTRS], tx[PIO_CTRS];

	pio_sum(netdev_priv(dev), rx, tx);
	memcpy(data, rx, sizeof(u64) * PIO_RX_ETHTOOL);
	memcpy(data + PIO_RX_ETHTOOL, tx, sizeof(u64) * PIO_TX_ETHTOOL);
}

static const struct ethtool_ops pio_ethtool_ops = {
	.get_drvinfo = pio_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = pio_get_sset_count,
	.get_strings = pio_get_strings,
	.get_ethtool_stats = pio_get_ethtool_stats,
};

/* ---- rtnl_link_ops ------------------------------------------------------- */

static struct rtnl_link_ops pio_link_ops;

static void pio_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &pio_netdev_ops;
	dev->ethtool_ops = &pio_ethtool_ops;
	dev->needs_free_netdev = true;
	/* transmit never returns busy: a qdisc would only add cost */
	dev->priv_flags |= IFF_NO_QUEUE;
	/*
	 * netpoll transmits with IRQs off, possibly in the middle of a
	 * softirq's counter update; netconsole on a simulated card is of no
	 * use.
	 */
	dev->priv_flags |= IFF_DISABLE_NETPOLL;
	dev->max_mtu = PIO_MAX_MTU;
}

static int pio_validate(struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN)
			return -EINVAL;
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS])))
			return -EADDRNOTAVAIL;
	}
	return 0;
}

/* NAME + "p" when it fits, else pio%d */
static unsigned char pio_peer_name(char *name, const char *dev_name)
{
	size_t n = strlen(dev_name);

	if (n + 1 < IFNAMSIZ) {
		memcpy(name, dev_name, n);
		name[n] = 'p';
		name[n + 1] = '\0';
		return NET_NAME_PREDICTABLE;
	}
	strscpy(name, "pio%d", IFNAMSIZ);
	return NET_NAME_ENUM;
}

/*
 * As veth_newlink(), with one difference: dev is registered before its
 * peer, so that the peer's name is made from dev's final one (piosim0
 * and piosim0p when iproute2 sends the template piosim%d).  iproute2
 * passes no options to a link kind it does not know, so the peer takes
 * dev's attributes (namespace, MTU) and always a random MAC.
 */
static int pio_newlink(struct net *src_net, struct net_device *dev,
		       struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	unsigned char name_assign_type;
	char ifname[IFNAMSIZ];
	struct net_device *peer;
	struct pio_priv *priv;
	struct net *net;
	int err;

	if (!tb[IFLA_ADDRESS])
		eth_hw_addr_random(dev);
	err = register_netdevice(dev);
	if (err < 0)
		return err;

	name_assign_type = pio_peer_name(ifname, dev->name);
	net = rtnl_link_get_net(src_net, tb);
	if (IS_ERR(net)) {
		err = PTR_ERR(net);
		goto err_dev;
	}
	peer = rtnl_create_link(net, ifname, name_assign_type, &pio_link_ops,
				tb, extack);
	if (IS_ERR(peer)) {
		put_net(net);
		err = PTR_ERR(peer);
		goto err_dev;
	}
	eth_hw_addr_random(peer);
	err = register_netdevice(peer);
	put_net(net);
	if (err < 0) {
		if (err == -EEXIST)
			NL_SET_ERR_MSG(extack, "the peer's name is taken");
		free_netdev(peer);
		goto err_dev;
	}
	err = rtnl_configure_link(peer, NULL, 0, NULL);
	if (err < 0)
		goto err_peer;

	priv = netdev_priv(dev);
	rcu_assign_pointer(priv->peer, peer);
	priv = netdev_priv(peer);
	rcu_assign_pointer(priv->peer, dev);
	return 0;

err_peer:
	unregister_netdevice(peer);
err_dev:
	/* rtnl_newlink() then calls free_netdev(): netdev_run_todo() frees */
	unregister_netdevice(dev);
	return err;
}

/*
 * Both ends go, as with veth.  dellink() also runs for each device of a
 * namespace being dismantled and at rtnl_link_unregister(): with the peer
 * pointers cleared here the second end's call queues only itself.  A
 * transmit that read the pointer before is over by the synchronize_net()
 * in unregister_netdevice_many(), which comes before either card is freed
 * (pio_uninit()).
 */
static void pio_dellink(struct net_device *dev, struct list_head *head)
{
	struct pio_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	RCU_INIT_POINTER(priv->peer, NULL);
	unregister_netdevice_queue(dev, head);
	if (peer) {
		priv = netdev_priv(peer);
		RCU_INIT_POINTER(priv->peer, NULL);
		unregister_netdevice_queue(peer, head);
	}
}

static struct net *pio_get_link_net(const struct net_device *dev)
{
	struct pio_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	return peer ? dev_net(peer) : dev_net(dev);
}

static struct rtnl_link_ops pio_link_ops = {
	.kind = "piosim",
	.priv_size = sizeof(struct pio_priv),
	.setup = pio_setup,
	.validate = pio_validate,
	.newlink = pio_newlink,
	.dellink = pio_dellink,
	.get_link_net = pio_get_link_net,
};

static int __init pio_module_init(void)
{
	return rtnl_link_register(&pio_link_ops);
}

/* Removes every pair, in every namespace, through pio_dellink(). */
static void __exit pio_module_exit(void)
{
	rtnl_link_unregister(&pio_link_ops);
}

module_init(pio_module_init);
module_exit(pio_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Simulated programmed-I/O Wi-Fi card pair");
MODULE_ALIAS_RTNL_LINK("piosim");
