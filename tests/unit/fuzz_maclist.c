// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the MAC list parser.  Besides the sanitizers it
 * checks what the parser promises: a parsed list holds only unicast,
 * distinct MACs with valid losses, no more than the limit; a failure
 * leaves the list empty with a "NAME:..." message; and parsing from a
 * stream gives exactly the same result as parsing the buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maclist.h"

#define MAX_ENTRIES	64

static void check_list(const struct maclist *list)
{
	size_t i, k;

	if (list->count > MAX_ENTRIES)
		abort();
	for (i = 0; i < list->count; i++) {
		const struct maclist_entry *e = &list->entries[i];

		if (mac_is_multicast(e->mac) || e->line == 0 ||
		    (e->has_loss && e->loss > MACLIST_LOSS_MAX))
			abort();
		if (i && e->line <= list->entries[i - 1].line)
			abort();
		for (k = 0; k < i; k++)
			if (!memcmp(list->entries[k].mac, e->mac, MAC_LEN))
				abort();
	}
}

static int parse_stream(struct maclist *list, const uint8_t *data,
			size_t size, char *err, size_t errlen)
{
	FILE *f = tmpfile();
	int r;

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	rewind(f);
	r = maclist_parse_file(list, "fuzz", f, MAX_ENTRIES, err, errlen);
	fclose(f);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maclist a, b;
	char ea[256], eb[256];
	int ra, rb;

	maclist_init(&a);
	maclist_init(&b);
	ra = maclist_parse_buf(&a, "fuzz", (const char *)data, size,
			       MAX_ENTRIES, ea, sizeof(ea));
	rb = parse_stream(&b, data, size, eb, sizeof(eb));
	if (ra != rb)
		abort();
	if (ra == 0) {
		check_list(&a);
		if (a.count != b.count ||
		    (a.count && memcmp(a.entries, b.entries,
				       a.count * sizeof(*a.entries))))
			abort();
	} else {
		if (ra != -1 || a.count || a.entries ||
		    strncmp(ea, "fuzz:", 5) || strcmp(ea, eb))
			abort();
	}
	maclist_free(&a);
	maclist_free(&b);
	return 0;
}
