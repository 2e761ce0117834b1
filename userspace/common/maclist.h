/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser for MAC list files, independent of the kernel interface.
 *
 * One entry per line:   MAC [loss N]
 * '#' starts a comment that runs to the end of the line; blank lines are
 * ignored; CR is whitespace, so CRLF files work.  MAC is six groups of two
 * hex digits separated by ':' or '-' (one kind per address, any case).
 * N is a decimal integer 0..100.
 */
#ifndef AH_MACLIST_H
#define AH_MACLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MAC_LEN		6
#define MAC_STR_LEN	18	/* "aa:bb:cc:dd:ee:ff" plus NUL */
#define MACLIST_LOSS_MAX	100

struct maclist_entry {
	unsigned char mac[MAC_LEN];
	bool has_loss;
	unsigned char loss;
	unsigned long line;	/* where it was read */
};

struct maclist {
	struct maclist_entry *entries;
	size_t count;
	/* private */
	size_t alloc;
	unsigned int *hash;	/* open addressing: entry index + 1, 0 = free */
	size_t hash_mask;
};

/* 0 and a filled @mac on success, -1 when @s is not a MAC address. */
int mac_parse(const char *s, unsigned char mac[MAC_LEN]);

/* Writes "aa:bb:cc:dd:ee:ff" into @buf and returns it. */
char *mac_format(const unsigned char mac[MAC_LEN], char buf[MAC_STR_LEN]);

static inline bool mac_is_multicast(const unsigned char mac[MAC_LEN])
{
	return mac[0] & 0x01;
}

/* 0 and @loss on success for "0".."100", -1 otherwise. */
int mac_loss_parse(const char *s, unsigned char *loss);

void maclist_init(struct maclist *list);
void maclist_free(struct maclist *list);

/*
 * Parse a list from a buffer or a stream into @list (initialised by the
 * caller with maclist_init(), emptied first).  @name is used in messages,
 * @max_entries is the largest number of entries accepted (0: no limit).
 * Return 0 on success; -1 with "NAME:LINE: message" (or "NAME: message")
 * in @err on failure, in which case @list is left empty.
 */
int maclist_parse_buf(struct maclist *list, const char *name,
		      const char *buf, size_t len, size_t max_entries,
		      char *err, size_t errlen);
int maclist_parse_file(struct maclist *list, const char *name, FILE *f,
		       size_t max_entries, char *err, size_t errlen);

#endif /* AH_MACLIST_H */
