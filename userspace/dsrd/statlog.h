/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A size-bounded log of lines with numbered rotation, for the stats and
 * events files: FILE never grows past max_bytes; when a line would make
 * it, FILE.keep is dropped, FILE.N becomes FILE.N+1, FILE becomes FILE.1
 * and a new FILE is started.  So the files never take more than
 * (keep + 1) * max_bytes.  keep 0: FILE is started again, nothing kept.
 */
#ifndef DSRD_STATLOG_H
#define DSRD_STATLOG_H

#include <stddef.h>
#include <stdint.h>

struct statlog {
	char *path;
	int fd;			/* -1: closed */
	uint64_t size;		/* bytes in the current file */
	uint64_t max_bytes;
	unsigned int keep;
};

/*
 * Open (append to) @path, creating it with mode 0640.  0 or -errno.  An
 * existing file larger than @max_bytes is rotated at the first write.
 */
int statlog_open(struct statlog *l, const char *path, uint64_t max_bytes,
		 unsigned int keep);

/*
 * Append @len bytes (one or more whole lines), rotating first if they
 * would not fit.  0, -EFBIG if @len alone is more than max_bytes (nothing
 * written), or -errno.
 */
int statlog_write(struct statlog *l, const char *buf, size_t len);

/* Rotate now; 0 or -errno (the log stays usable if it can). */
int statlog_rotate(struct statlog *l);

void statlog_close(struct statlog *l);

#endif /* DSRD_STATLOG_H */
