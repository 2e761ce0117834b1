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

/* one port of a list, @len bytes at @s, blanks around it skipped */
static int parse_port(const char *s, size_t len, uint16_t *port)
{
	char buf[16];
	uint32_t v;

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (parse_u32(buf, &v) || !v || v > UINT16_MAX)
		return -1;
	*port = (uint16_t)v;
	return 0;
}

int parse_ports(const char *s, uint16_t *ports, size_t max, char *why,
		size_t whylen)
{
	const char *p = s, *comma;
	size_t n = 0, len, i;
	uint16_t port;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (parse_port(p, len, &port)) {
			snprintf(why, whylen, "port '%.*s' is not 1..65535",
				 (int)len, p);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (ports[i] == port) {
				snprintf(why, whylen, "port %u is listed twice",
					 port);
				return -1;
			}
		if (n == max) {
			snprintf(why, whylen, "more than %zu ports", max);
			return -1;
		}
		ports[n++] = port;
		if (!comma)
			return (int)n;
		p = comma + 1;
	}
}

bool parse_json_opt(const char *s, bool *pretty)
{
	*pretty = !strcmp(s, "-p") || !strcmp(s, "--pretty");
	return *pretty || !strcmp(s, "-j") || !strcmp(s, "--json");
}

void getopt_complain(const char *prog, char **argv, const char *with_value)
{
	if (optopt && strchr(with_value, optopt))
		fprintf(stderr, "%s: option -%c needs a value\n", prog, optopt);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", prog,
			argv[optind - 1]);
}
