/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics: "dsrd: message" lines on standard error (with a "<N>"
 * priority prefix when it is the journal), or to syslog once dsrd has
 * gone to the background.
 */
#ifndef DSRD_LOG_H
#define DSRD_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

void log_init(void);

/* From now on standard error goes to syslog (background mode). */
int log_to_syslog(void);

void log_msg(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* @line as it is (one JSON object, say), at priority @prio. */
void log_line(int prio, const char *line, size_t len);

#define log_err(...)	log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_WARNING, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_INFO, __VA_ARGS__)

#endif /* DSRD_LOG_H */
