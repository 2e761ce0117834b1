/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the seed generators (fuzz_*_seeds) share: each seed is written as
 * DIR/seed-NAME, and one that cannot be written ends the program.
 */
#ifndef AH_FUZZER_SEEDS_H
#define AH_FUZZER_SEEDS_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static inline void seed_write(const char *dir, const char *name,
			      const void *b, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

#endif /* AH_FUZZER_SEEDS_H */
