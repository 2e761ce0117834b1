// SPDX-License-Identifier: GPL-2.0
/* Small parsers of command-line and configuration values (see parse.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int parse_cidr(const char *s, bool need_len, uint32_t *addr,
	       unsigned int *plen)
{
	char buf[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t len = slash ? (size_t)(slash - s) : strlen(s);
	struct in_addr in;
	uint32_t v = 32;

	if (len >= sizeof(buf) || (!slash && need_len))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (inet_pton(AF_INET, buf, &in) != 1)
		return -1;
	if (slash && (parse_u32(slash + 1, &v) || v > 32))
		return -1;
	*addr = in.s_addr;
	*plen = v;
	return 0;
}

void getopt_complain(const char *prog, char **argv, const char *with_value)
{
	if (optopt && strchr(with_value, optopt))
		fprintf(stderr, "%s: option -%c needs a value\n", prog, optopt);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", prog,
			argv[optind - 1]);
}
