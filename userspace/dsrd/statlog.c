// SPDX-License-Identifier: GPL-2.0
/*
 * Size-bounded, rotated line log (see statlog.h).  No netlink: the unit
 * tests build it on the host.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "statlog.h"

#define STATLOG_MODE	0640

static int open_fd(struct statlog *l, int trunc)
{
	struct stat st;
	int fd;

	fd = open(l->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | trunc,
		  STATLOG_MODE);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (l->fd >= 0)
		close(l->fd);
	l->fd = fd;
	l->size = (uint64_t)st.st_size;
	return 0;
}

int statlog_open(struct statlog *l, const char *path, uint64_t max_bytes,
		 unsigned int keep)
{
	int err;

	l->fd = -1;
	l->size = 0;
	l->max_bytes = max_bytes;
	l->keep = keep;
	l->path = strdup(path);
	if (!l->path)
		return -ENOMEM;
	err = open_fd(l, 0);
	if (err) {
		free(l->path);
		l->path = NULL;
	}
	return err;
}

/* "@path.@n", or @path itself for 0 */
static char *numbered(const char *path, unsigned int n)
{
	char *s;

	if (!n)
		return strdup(path);
	if (asprintf(&s, "%s.%u", path, n) < 0)
		return NULL;
	return s;
}

/* FILE.@from -> FILE.@from+1; a missing one is skipped */
static int shift(const char *path, unsigned int from)
{
	char *a = numbered(path, from), *b = numbered(path, from + 1);
	int err = 0;

	if (!a || !b)
		err = -ENOMEM;
	else if (rename(a, b) && errno != ENOENT)
		err = -errno;
	free(a);
	free(b);
	return err;
}

int statlog_rotate(struct statlog *l)
{
	char *oldest;
	unsigned int i;
	int err;

	if (!l->keep)
		return open_fd(l, O_TRUNC);
	oldest = numbered(l->path, l->keep);
	if (!oldest)
		return -ENOMEM;
	if (unlink(oldest) && errno != ENOENT) {
		err = -errno;
		free(oldest);
		return err;
	}
	free(oldest);
	for (i = l->keep - 1; i > 0; i--) {
		err = shift(l->path, i);
		if (err)
			return err;
	}
	err = shift(l->path, 0);
	if (err)
		return err;
	/* FILE is gone: the next open creates it (another may have, too). */
	return open_fd(l, O_TRUNC);
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int statlog_write(struct statlog *l, const char *buf, size_t len)
{
	int err;

	if (l->fd < 0)
		return -EBADF;
	if (len > l->max_bytes)
		return -EFBIG;
	if (l->size + len > l->max_bytes) {
		err = statlog_rotate(l);
		if (err)
			return err;
	}
	err = write_all(l->fd, buf, len);
	if (err) {
		/* whatever did get out still counts against the bound */
		struct stat st;

		if (!fstat(l->fd, &st))
			l->size = (uint64_t)st.st_size;
		return err;
	}
	l->size += len;
	return 0;
}

void statlog_close(struct statlog *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->path);
	l->path = NULL;
}
