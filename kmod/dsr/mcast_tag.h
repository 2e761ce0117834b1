/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layer of a layered video packet sent to a multicast group (issue 19,
 * docs/mcast.md): what the per-child filter of the group's tree compares
 * with the number of layers each child asked for.  A group reads it in
 * one of two ways, chosen when the group is configured:
 *
 * DSR_MTAG_BYTE: a byte at a fixed offset of the UDP payload, whose low
 * seven bits are the layer (the 7-bit tag of the generalized multicast
 * service this follows); the top bit is the sender's own and ignored.
 *
 * DSR_MTAG_RTP: an RTP packet (RFC 3550) carrying the Video Frame Marking
 * header extension (RFC 9626) as the element of local identifier ext_id,
 * in the one-byte (profile 0xBEDE) or two-byte (profile 0x100x) form of
 * RFC 8285.  Its short form (one data byte: S E I D and four reserved
 * bits) marks a stream that is not scalable: layer 0.  Its long form
 * (S E I D B, then TID, the temporal id, in three bits, and LID, the
 * layer id, in the next byte; two data bytes, or three with the
 * TL0PICIDX byte of the earlier drafts, accepted too) gives
 *
 *	tids == 0:	layer = LID
 *	tids 1..8:	layer = LID * tids + TID, and TID < tids
 *
 * where tids is the group's number of temporal layers.  So the layers of
 * a spatial (or quality) layer come before the next one, its temporal
 * layers in order: a receiver asking for N layers gets a prefix of that
 * order, which decodes (every layer's references are below it).  tids 0
 * keeps all temporal layers of a spatial layer together.
 *
 * An RTP packet without the element (no X bit, another extension
 * profile, the element absent, or an ID its form cannot carry) is
 * untagged: layer 0, the base layer.  The byte mode has no untagged
 * packet: a payload too short for its byte is truncated.  Whatever the
 * mode, a layer at or above the group's layers is refused.  Each refusal
 * has its own code, so that the caller counts drops by class.
 *
 * Reads only the len bytes given: the UDP payload.  No kernel
 * dependencies: also built into tests/unit.  No state.
 */
#ifndef _DSR_MCAST_TAG_H
#define _DSR_MCAST_TAG_H

#include "ah_proto_env.h"

/* the 7-bit tag: layers 0..127 */
#define DSR_MTAG_MAX_LAYERS	128
/* RFC 9626's TID has three bits */
#define DSR_MTAG_MAX_TIDS	8

enum dsr_mtag_mode {
	DSR_MTAG_BYTE,
	DSR_MTAG_RTP,
	__DSR_MTAG_MODE_MAX,
};

struct dsr_mtag_cfg {
	u8 mode;		/* enum dsr_mtag_mode */
	u8 layers;		/* the group's layers, 1..DSR_MTAG_MAX_LAYERS */
	u16 offset;		/* BYTE: of the tag in the UDP payload */
	u8 ext_id;		/* RTP: local id of the frame marking element */
	u8 tids;		/* RTP: temporal layers a layer id, 0..8 */
};

enum dsr_mtag_res {
	DSR_MTAG_OK,
	DSR_MTAG_ABOVE,		/* layer >= the group's layers */
	DSR_MTAG_TRUNCATED,	/* no tag byte, or no RTP fixed header */
	DSR_MTAG_VERSION,	/* RTP version is not 2 */
	DSR_MTAG_CSRC,		/* CSRC count past the packet */
	DSR_MTAG_EXT_LEN,	/* extension header or length past the packet */
	DSR_MTAG_ELEM,		/* an element past its block, or a frame
				 * marking element of a length it cannot have
				 */
	DSR_MTAG_TID,		/* TID >= the group's tids */
	DSR_MTAG_CFG,		/* the configuration is not valid */
	__DSR_MTAG_RES_MAX,
};

/* whether a configuration can be used: mode, layers, tids, ext_id */
bool dsr_mtag_cfg_ok(const struct dsr_mtag_cfg *cfg);

/*
 * The layer of the UDP payload p of len bytes, in *layer, or why the
 * packet is to be dropped (and *layer is left alone).
 */
enum dsr_mtag_res dsr_mtag_get(const struct dsr_mtag_cfg *cfg, const u8 *p,
			       size_t len, u8 *layer);

/* a short name of a result, for counters ("above", "truncated", ...) */
const char *dsr_mtag_res_name(enum dsr_mtag_res r);

#endif /* _DSR_MCAST_TAG_H */
