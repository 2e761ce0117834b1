/* SPDX-License-Identifier: GPL-2.0 */
/* Small parsers of command-line and configuration values. */
#ifndef AH_PARSE_H
#define AH_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal integer, no sign, at most UINT32_MAX: 0, else -1. */
int parse_u32(const char *s, uint32_t *v);

/*
 * A.B.C.D[/LEN] into @addr (network byte order) and @plen (0..32; 32
 * without /LEN): 0, else -1, as well when @need_len and there is no /LEN.
 */
int parse_cidr(const char *s, bool need_len, uint32_t *addr,
	       unsigned int *plen);

/*
 * PORT[,PORT...] (TCP and UDP ports, 1..65535, blanks around each
 * allowed) into @ports, at most @max of them and none twice: their
 * number, else -1 with why in @why ("port '0' is not 1..65535").
 */
int parse_ports(const char *s, uint16_t *ports, size_t max, char *why,
		size_t whylen);

/*
 * -j, --json, -p or --pretty, the global options, given after a command
 * (show, monitor): whether @s is one, and *@pretty whether it is -p or
 * --pretty.
 */
bool parse_json_opt(const char *s, bool *pretty);

/*
 * getopt_long() returned '?': say why on stderr ("PROG: option -c needs
 * a value" for an option of @with_value, else "unknown option").
 */
void getopt_complain(const char *prog, char **argv, const char *with_value);

#endif /* AH_PARSE_H */
