/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz targets share.  They read their operations from
 * libFuzzer's input one byte at a time; past its end every byte reads as
 * 0.  A property that does not hold is reported with its place and ends
 * the run (NEED).
 */
#ifndef AH_FUZZER_INPUT_H
#define AH_FUZZER_INPUT_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define NEED(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, \
				#cond);					\
			abort();					\
		}							\
	} while (0)

struct input {
	const unsigned char *d;
	size_t n, pos;
};

static inline unsigned char next(struct input *in)
{
	return in->pos < in->n ? in->d[in->pos++] : 0;
}

#endif /* AH_FUZZER_INPUT_H */
