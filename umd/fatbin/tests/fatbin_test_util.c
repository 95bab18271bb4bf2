// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "fatbin_test_util.h"

uint8_t *test_read_file(const char *path, size_t *size)
{
	uint8_t *buf;
	long len;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		ksft_exit_fail_msg("cannot open %s (run make)\n", path);
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		ksft_exit_fail_msg("cannot size %s\n", path);
	buf = malloc(len ? (size_t)len : 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
		ksft_exit_fail_msg("cannot read %s\n", path);
	fclose(f);
	*size = (size_t)len;
	return buf;
}

uint8_t *test_read_data(const char *name, size_t *size)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", FATBIN_TEST_DATA, name);
	return test_read_file(path, size);
}

char *test_reference_ptx(const char *name)
{
	size_t size;
	uint8_t *buf = test_read_data(name, &size);
	char *text = realloc(buf, size + 1);

	if (!text)
		ksft_exit_fail_msg("out of memory\n");
	text[size] = '\0';
	return text;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

char *test_normalise_ptx(const char *ptx)
{
	char *out = malloc(strlen(ptx) + 1), *o = out;
	const char *line = ptx;

	if (!out)
		ksft_exit_fail_msg("out of memory\n");
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *comment;
		int pending_space = 0;

		if (!end)
			end = line + strlen(line);
		/* a comment runs to the end of the line */
		comment = memmem(line, end - line, "//", 2);
		for (const char *p = line; p < (comment ? comment : end); p++) {
			if (is_blank(*p)) {
				pending_space = o > out && o[-1] != '\n';
				continue;
			}
			if (pending_space)
				*o++ = ' ';
			pending_space = 0;
			*o++ = *p;
		}
		if (!*end)
			break;
		*o++ = '\n';
		line = end + 1;
	}
	*o = '\0';
	return out;
}

int test_same_ptx(const char *a, const char *b)
{
	char *na = test_normalise_ptx(a), *nb = test_normalise_ptx(b);
	int same = !strcmp(na, nb);

	if (!same) {
		/* show where they part, to make a failure easy to read */
		size_t i = 0;

		while (na[i] && na[i] == nb[i])
			i++;
		ksft_print_msg("PTX differs at byte %zu: '%.40s' vs '%.40s'\n",
			       i, na + i, nb + i);
	}
	free(na);
	free(nb);
	return same;
}
