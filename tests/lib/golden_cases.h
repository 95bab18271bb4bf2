/* SPDX-License-Identifier: GPL-2.0 */
/*
 * golden_cases.h - the loop the golden tests of the texture unit share
 * (tests/test_tex_golden.c, test_tex_fetch_golden.c): a file of lines
 * recorded on an H100, read line by line; consecutive lines with the same
 * head (the texture, sampler state and kind of request) form one TAP
 * case, which passes when all its lines match.  A case that a todo()
 * callback gives a reason for, and that does not match, is a TAP TODO
 * (counted in todo_cases); one that matches passes whatever the reason.
 */
#ifndef VGPU_TESTS_GOLDEN_CASES_H
#define VGPU_TESTS_GOLDEN_CASES_H

#include "tap.h"

struct golden_cases {
	struct tap *t;
	/* why a case may not match yet, or NULL: it must */
	const char *(*todo)(const char *head);
	int todo_cases;
	/* the open case */
	char head[256];
	int open, lines, bad;
};

/*
 * One line of case @head, @bad if it does not match: the previous case
 * is closed when @head differs.  Returns 1 when the caller should print
 * the line's differences: a case's first, or every one with the
 * environment variable TEX_GOLDEN_ALL set.
 */
int golden_line(struct golden_cases *g, const char *head, int bad);

/* Close the open case (its TAP verdict), if any. */
void golden_close(struct golden_cases *g);

/*
 * Call @fn(@ctx, line) on each line of @file, then close the last case;
 * a file that cannot be read is a failed TAP case.
 */
void golden_each_line(struct golden_cases *g, const char *file,
		      void (*fn)(void *ctx, const char *line), void *ctx);

#endif
