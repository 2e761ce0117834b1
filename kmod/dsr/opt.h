/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DSR Options header (RFC 4728 section 6): parse, validate and build.
 * No kernel dependencies: also built into tests/unit.
 */
#ifndef _DSR_OPT_H
#define _DSR_OPT_H

#include "ah_proto_env.h"

/* Option types: IANA registry (RFC 4728 section 10) */
#define DSR_OPT_PADN		0
#define DSR_OPT_RREQ		1
#define DSR_OPT_RREP		2
#define DSR_OPT_RERR		3
#define DSR_OPT_ACK		32
#define DSR_OPT_SRT		96
#define DSR_OPT_AREQ		160
#define DSR_OPT_PAD1		224

#define DSR_NO_NEXT_HEADER	59
#define DSR_HDR_LEN		4

/* Route Error types */
#define DSR_RERR_NODE_UNREACHABLE	1
#define DSR_RERR_FLOW_STATE_NOT_SUPPORTED 2
#define DSR_RERR_OPTION_NOT_SUPPORTED	3

/* Unknown option handling: Option Type & 0x60 (section 6.1) */
#define DSR_UNK_ACTION(t)	((t) & 0x60)
#define DSR_UNK_IGNORE		0x00
#define DSR_UNK_REMOVE		0x20
#define DSR_UNK_MARK		0x40
#define DSR_UNK_DROP		0x60
#define DSR_UNK_REPORT(t)	((t) & 0x80)

/* Source Route option, 16 bits after Opt Data Len */
#define DSR_SRT_F		0x8000
#define DSR_SRT_L		0x4000
#define DSR_SRT_SALVAGE(v)	(((v) >> 6) & 0xf)
#define DSR_SRT_SEGS(v)		((v) & 0x3f)
#define DSR_RREP_L		0x80

/* Longest route we keep or build, in hops (addresses after the source). */
#define DSR_MAX_PATH		32
/* Repeated options (Route Reply, Route Error, Acknowledgment) per packet */
#define DSR_MAX_REPEAT		8
/* Unknown options whose packet must be rewritten when forwarded */
#define DSR_MAX_UNKNOWN		8

#define DSR_RREQ_SIZE(n)	(2 + 6 + 4 * (n))
#define DSR_RREP_SIZE(n)	(2 + 1 + 4 * (n))
#define DSR_RERR_SIZE		(2 + 10 + 4)	/* NODE_UNREACHABLE */
#define DSR_AREQ_SIZE		4
#define DSR_ACK_SIZE		12
#define DSR_SRT_SIZE(n)		(2 + 2 + 4 * (n))

/* Why a header was refused; one counter each. */
enum dsr_bad {
	DSR_OK,
	DSR_BAD_TRUNCATED,	/* shorter than the fixed part */
	DSR_BAD_PAYLOAD_LEN,	/* Payload Length past the packet */
	DSR_BAD_FLOW_STATE,	/* F bit: flow state header, not supported */
	DSR_BAD_OPT_LEN,	/* an option runs past Payload Length */
	DSR_BAD_OPT_SIZE,	/* a known option with an impossible length */
	DSR_BAD_OPT_REPEAT,	/* once-only option twice, or too many */
	DSR_BAD_SEGS_LEFT,	/* Segments Left > addresses */
	DSR_BAD_UNKNOWN_DROP,	/* unknown option of the "drop" class */
	DSR_BAD_ROUTE,		/* loop, our address, unroutable, too long */
	__DSR_BAD_MAX,
};

/* Offsets are from the start of the DSR Options header. */
struct dsr_parsed {
	u8 next_header;
	u16 len;		/* whole header: 4 + Payload Length */
	u16 rreq, areq, srt;	/* offset of the option, 0 = absent */
	u8 n_rrep, n_rerr, n_ack, n_unknown;
	u16 rrep[DSR_MAX_REPEAT];
	u16 rerr[DSR_MAX_REPEAT];
	u16 ack[DSR_MAX_REPEAT];
	u16 unknown[DSR_MAX_UNKNOWN];	/* of class remove or mark */
	u8 n_ignored;		/* unknown options of the ignore class */
	u8 report_type;		/* first unknown type with 0x80 set, or 0 */
	bool report;
	u16 bad_off;		/* failed: offset of the option at fault */
};

enum dsr_bad dsr_parse(const u8 *hdr, size_t avail, struct dsr_parsed *p);
/* Apply "remove" (as PadN) and "mark" to the unknown options in place. */
void dsr_rewrite_unknown(u8 *hdr, const struct dsr_parsed *p);

/* Option accessors; off from struct dsr_parsed. */
static inline u8 dsr_opt_len(const u8 *hdr, u16 off)
{
	return hdr[off + 1];
}

static inline unsigned int dsr_rreq_naddr(const u8 *hdr, u16 off)
{
	return (dsr_opt_len(hdr, off) - 6) / 4;
}

static inline u16 dsr_rreq_id(const u8 *hdr, u16 off)
{
	return ah_get16(hdr + off + 2);
}

static inline __be32 dsr_rreq_target(const u8 *hdr, u16 off)
{
	return ah_get_addr(hdr + off + 4);
}

static inline __be32 dsr_rreq_addr(const u8 *hdr, u16 off, unsigned int i)
{
	return ah_get_addr(hdr + off + 8 + 4 * i);	/* i from 0 */
}

static inline unsigned int dsr_rrep_naddr(const u8 *hdr, u16 off)
{
	return (dsr_opt_len(hdr, off) - 1) / 4;
}

static inline __be32 dsr_rrep_addr(const u8 *hdr, u16 off, unsigned int i)
{
	return ah_get_addr(hdr + off + 3 + 4 * i);
}

static inline unsigned int dsr_srt_naddr(const u8 *hdr, u16 off)
{
	return (dsr_opt_len(hdr, off) - 2) / 4;
}

static inline u16 dsr_srt_bits(const u8 *hdr, u16 off)
{
	return ah_get16(hdr + off + 2);
}

static inline __be32 dsr_srt_addr(const u8 *hdr, u16 off, unsigned int i)
{
	return ah_get_addr(hdr + off + 4 + 4 * i);
}

static inline void dsr_srt_set_segs(u8 *hdr, u16 off, unsigned int segs)
{
	u16 v = dsr_srt_bits(hdr, off);

	ah_put16(hdr + off + 2, (v & ~0x3f) | (segs & 0x3f));
}

/*
 * Position on a source route.  The route is source (index 0), Address[1..n]
 * and the IP destination (index n + 1).  A packet carrying Segments Left s
 * was sent by node n - s to node n - s + 1.
 */
__be32 dsr_srt_node(const u8 *hdr, u16 off, __be32 src, __be32 dst,
		    unsigned int index);

/* Builders: each writes at b and returns the bytes written. */
size_t dsr_put_hdr(u8 *b, u8 next_header);
size_t dsr_put_rreq(u8 *b, u16 id, __be32 target, const __be32 *a,
		    unsigned int n);
size_t dsr_put_rrep(u8 *b, bool last_external, const __be32 *a,
		    unsigned int n);
size_t dsr_put_rerr(u8 *b, u8 salvage, __be32 src, __be32 dst,
		    __be32 unreachable);
size_t dsr_put_areq(u8 *b, u16 id);
size_t dsr_put_ack(u8 *b, u16 id, __be32 src, __be32 dst);
size_t dsr_put_srt(u8 *b, u8 salvage, unsigned int segs, const __be32 *a,
		   unsigned int n);
/* Route Error piggybacking (sections 8.3.4 and 8.3.5). */
size_t dsr_rerr_carry(u8 *b, size_t room, const u8 *hdr,
		      const struct dsr_parsed *p, u8 salvage, u8 max_salvage);
size_t dsr_rerr_returned(const u8 *hdr, const struct dsr_parsed *p, u16 off,
			 __be32 self, __be32 *dst, u16 *start);
/* Pad to a multiple of 4 and set Payload Length; returns the total. */
size_t dsr_finish(u8 *hdr, size_t len);

/*
 * A route as a list of addresses is acceptable: every address routable,
 * none twice, none equal to self, at most max.  (self may be 0.)
 */
bool dsr_route_ok(const __be32 *a, unsigned int n, __be32 self,
		  unsigned int max);

#endif /* _DSR_OPT_H */
