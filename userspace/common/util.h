/* SPDX-License-Identifier: GPL-2.0 */
/* What every userspace file may use: ahctl, dsrd and the common code. */
#ifndef AH_UTIL_H
#define AH_UTIL_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The program's name in front of its messages; main() sets it. */
extern const char *prog_name;

#endif /* AH_UTIL_H */
