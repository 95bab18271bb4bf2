/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - minimal TAP output (kselftest style) for the native tests.
 */
#ifndef VGPU_TESTS_TAP_H
#define VGPU_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

struct tap {
	int n, failed;
	const char *prefix;	/* put before each description, or NULL */
};

static inline void tap_plan(int n)
{
	printf("TAP version 13\n1..%d\n", n);
}

static inline __attribute__((format(printf, 3, 4)))
int tap_ok(struct tap *t, int ok, const char *fmt, ...)
{
	va_list ap;

	t->n++;
	if (!ok)
		t->failed++;
	printf("%sok %d %s", ok ? "" : "not ", t->n, t->prefix ? t->prefix : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return ok;
}

/*
 * A known failure: "not ok N DESC # TODO REASON", which TAP consumers
 * (tools/check) count apart from failures; t->failed is not raised.
 */
static inline __attribute__((format(printf, 3, 4)))
void tap_todo(struct tap *t, const char *reason, const char *fmt, ...)
{
	va_list ap;

	t->n++;
	printf("not ok %d %s", t->n, t->prefix ? t->prefix : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # TODO %s\n", reason);
	fflush(stdout);
}

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(const struct tap *t)
{
	printf("# Totals: pass:%d fail:%d\n", t->n - t->failed, t->failed);
	return t->failed ? 1 : 0;
}

#endif /* VGPU_TESTS_TAP_H */
