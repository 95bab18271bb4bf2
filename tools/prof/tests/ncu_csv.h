/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncu_csv.h - reading the CSV that `ncu --csv` (and `vgpu-prof --csv`)
 * print: one row per launch and metric, every field quoted, numbers with
 * thousands separators.  Lines that are not rows (the program's output,
 * ncu's ==PROF== lines) are skipped.  Shared by the counters tests.
 */
#ifndef VGPU_NCU_CSV_H
#define VGPU_NCU_CSV_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCU_MAX_LAUNCHES 256

/* Fields of a row: ID, Kernel Name, Metric Name, Metric Value. */
enum { NCU_ID = 0, NCU_KERNEL = 4, NCU_METRIC = 12, NCU_VALUE = 14,
       NCU_FIELDS = 15 };

/* Split a row into its quoted fields (in place); how many there are. */
static inline int ncu_fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	while (n < max && (p = strchr(p, '"'))) {
		char *end = strchr(p + 1, '"');

		if (!end)
			break;
		*end = 0;
		f[n++] = p + 1;
		p = end + 1;
	}
	return n;
}

/* "1,024" -> 1024; the integer part of "12.31". */
static inline long long ncu_number(const char *s)
{
	long long v = 0;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			v = v * 10 + (*s - '0');
		else if (*s == '.')
			break;
	}
	return v;
}

/*
 * Call @fn for every row of @text (modified in place) with its launch ID,
 * kernel, metric and value; returns the largest ID + 1.
 */
static inline int ncu_rows(char *text,
			   void (*fn)(void *arg, int id, const char *kernel,
				      const char *metric, long long value),
			   void *arg)
{
	char *save = NULL, *line;
	int n = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[16];
		int id;

		if (line[0] != '"' || ncu_fields(line, f, 16) < NCU_FIELDS ||
		    !strcmp(f[NCU_ID], "ID"))
			continue;
		id = atoi(f[NCU_ID]);
		if (id < 0 || id >= NCU_MAX_LAUNCHES)
			continue;
		fn(arg, id, f[NCU_KERNEL], f[NCU_METRIC],
		   ncu_number(f[NCU_VALUE]));
		if (id + 1 > n)
			n = id + 1;
	}
	return n;
}

/* A whole file, NUL-terminated (malloc), or NULL. */
static inline char *ncu_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = 0;
		}
	}
	fclose(f);
	return buf;
}

#endif /* VGPU_NCU_CSV_H */
