// SPDX-License-Identifier: GPL-2.0
/*
 * golden_cases.c - recorded lines grouped into TAP cases (golden_cases.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_cases.h"

void golden_close(struct golden_cases *g)
{
	const char *todo;

	if (!g->open)
		return;
	g->open = 0;
	todo = g->todo ? g->todo(g->head) : NULL;
	if (!todo || !g->bad) {
		tap_ok(g->t, !g->bad, "%s: %d fetches bit-identical", g->head,
		       g->lines - g->bad);
		return;
	}
	g->todo_cases++;
	tap_todo(g->t, todo, "%s: %d of %d fetches bit-identical", g->head,
		 g->lines - g->bad, g->lines);
}

int golden_line(struct golden_cases *g, const char *head, int bad)
{
	if (!g->open || strcmp(head, g->head)) {
		golden_close(g);
		snprintf(g->head, sizeof(g->head), "%s", head);
		g->open = 1;
		g->lines = g->bad = 0;
	}
	g->lines++;
	if (!bad)
		return 0;
	return !g->bad++ || getenv("TEX_GOLDEN_ALL");
}

void golden_each_line(struct golden_cases *g, const char *file,
		      void (*fn)(void *ctx, const char *line), void *ctx)
{
	FILE *fp = fopen(file, "r");
	char line[512];

	if (!fp) {
		tap_ok(g->t, 0, "open %s", file);
		return;
	}
	while (fgets(line, sizeof(line), fp))
		fn(ctx, line);
	fclose(fp);
	golden_close(g);
}
