/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets read their operations from libFuzzer's input one byte
 * at a time; past its end every byte reads as 0.
 */
#ifndef AH_FUZZER_INPUT_H
#define AH_FUZZER_INPUT_H

#include <stddef.h>

struct input {
	const unsigned char *d;
	size_t n, pos;
};

static inline unsigned char next(struct input *in)
{
	return in->pos < in->n ? in->d[in->pos++] : 0;
}

#endif /* AH_FUZZER_INPUT_H */
