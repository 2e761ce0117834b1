/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiny KTAP producer for the unit tests:
 *
 *	KTAP version 1
 *	1..N
 *	ok 1 description
 *	not ok 2 description
 *
 * Diagnostics go to "# " lines before a result.
 */
#ifndef AH_KTAP_H
#define AH_KTAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int ktap_planned, ktap_run, ktap_failed;

static inline void ktap_plan(unsigned int n)
{
	ktap_planned = n;
	printf("KTAP version 1\n1..%u\n", n);
	fflush(stdout);
}

static inline void __attribute__((format(printf, 1, 2)))
ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline void __attribute__((format(printf, 2, 3)))
ktap_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (!ok)
		ktap_failed++;
	printf("%sok %u ", ok ? "" : "not ", ++ktap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A test function and its description; ktap_cases() runs them in order. */
struct ktap_case {
	const char *desc;
	bool (*fn)(void);
};

static inline void ktap_cases(const struct ktap_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ktap_result(c[i].fn(), "%s", c[i].desc);
}

static inline int ktap_finish(void)
{
	if (ktap_run != ktap_planned) {
		ktap_diag("planned %u tests, ran %u", ktap_planned, ktap_run);
		return EXIT_FAILURE;
	}
	return ktap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* A whole program of ktap_case functions: plan, run, exit status. */
static inline int ktap_main(const struct ktap_case *c, size_t n)
{
	ktap_plan((unsigned int)n);
	ktap_cases(c, n);
	return ktap_finish();
}

/* Fail the current test function (returning bool) with a diagnostic. */
#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			ktap_diag("%s:%d: check failed: %s", __FILE__,	\
				  __LINE__, #cond);			\
			return false;					\
		}							\
	} while (0)

/* Same, with the values the check compared. */
#define CHECK_EQ(a, b)							\
	do {								\
		unsigned long long _a = (unsigned long long)(a);	\
		unsigned long long _b = (unsigned long long)(b);	\
		if (_a != _b) {						\
			ktap_diag("%s:%d: %s == %llu, expected %s == %llu", \
				  __FILE__, __LINE__, #a, _a, #b, _b);	\
			return false;					\
		}							\
	} while (0)

#endif /* AH_KTAP_H */
