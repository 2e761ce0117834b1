/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Motion traces: what one node cannot hear, over time.  Parser,
 * independent of the kernel interface (docs/trace.5).
 *
 * One step per line:   TIME [ENTRY ...]
 * TIME is seconds since the start of the run (decimal, at most three
 * fraction digits: ms), not smaller than the previous step's.  An ENTRY is
 * MAC (that node is not heard at all) or MAC/LOSS (heard, LOSS percent of
 * its frames lost, 0..100); "-" alone stands for no entry (hears every
 * node).  Each step replaces the whole list of the one before it.  '#'
 * starts a comment; blank lines are ignored; CR is whitespace.
 */
#ifndef AH_TRACE_H
#define AH_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "maclist.h"

#define TRACE_MAX_STEPS		100000
#define TRACE_MAX_TIME_MS	(7 * 24 * 3600 * 1000ULL)	/* a week */

struct trace_step {
	uint64_t t_ms;		/* since the start of the run */
	unsigned long line;
	struct maclist list;	/* has_loss false: not heard at all */
};

struct trace {
	struct trace_step *steps;
	size_t count;
	size_t alloc;		/* private */
};

void trace_init(struct trace *t);
void trace_free(struct trace *t);

/*
 * Parse a whole trace into @t (initialised by the caller, emptied first).
 * @max_entries: the most entries one step may have (0: no limit).  0 on
 * success; -1 with "NAME:LINE: message" in @err, @t left empty.
 */
int trace_parse_buf(struct trace *t, const char *name, const char *buf,
		    size_t len, size_t max_entries, char *err, size_t errlen);
int trace_parse_file(struct trace *t, const char *name, FILE *f,
		     size_t max_entries, char *err, size_t errlen);

#endif /* AH_TRACE_H */
