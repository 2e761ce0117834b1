/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ahctl's text output of attributes, from the family descriptions
 * (common/attrs.h), and the monitor line every object prints; the JSON
 * output is common/attrs_json.c's.
 */
#ifndef AHCTL_PRINT_H
#define AHCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "attrs.h"

/* attr_text() flags */
#define P_BARE		(1 << 0)	/* the value without its keyword */
#define P_NEVER		(1 << 1)	/* a time of 0 is "never" */
#define P_NONZERO	(1 << 2)	/* left out when 0 */
#define P_NONE		(1 << 3)	/* a 0 (an address too) is "none" */

/*
 * "[KEYWORD ]VALUE" of @a, after a space unless *@first; the keyword is
 * @label, or the description's.  false if nothing was printed (@a absent
 * or too short, an empty string or list, or left out by @flags).
 */
bool attr_text(const struct attr_desc *d, const struct nlattr *a,
	       unsigned int flags, const char *label, bool *first);

/* attr_text() of attribute @id of @f, if @f names it. */
bool fam_text(const struct family *f, int id, struct nlattr **tb,
	      unsigned int flags, bool *first);

/*
 * One line of "ahctl OBJECT monitor": @event, then the device, then the
 * other attributes in the order of their numbers (@f's event attribute
 * left out), as text or (-j) one JSON object.  0, or -1 (reported) if
 * stdout failed.
 */
int monitor_print(const struct family *f, const char *event,
		  struct nlattr **tb);

#endif /* AHCTL_PRINT_H */
