/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_compare.h - the whole of a test that compares what a probe of
 * tools/cuda-probe/ prints against our libraries with what it printed on
 * a real GPU (its recording in tools/cuda-probe/golden/).
 *
 * The probe runs as a child process and its output is compared line by
 * line with the recording, whose first line (the GPU) is skipped: one TAP
 * result per line, the expected and the actual line as a diagnostic when
 * they differ.  The including test defines PROBE_BIN and PROBE_GOLDEN,
 * absolute paths that come from the build (umd/cuda/build.mk).
 */
#ifndef VGPU_PROBE_COMPARE_H
#define VGPU_PROBE_COMPARE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fw_launcher.h"

struct lines {
	char **v;
	size_t n;
};

/* Append each line of @f (without its newline) to @l. */
static int read_lines(FILE *f, struct lines *l)
{
	char *line = NULL, **v;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		v = realloc(l->v, (l->n + 1) * sizeof(*v));
		if (!v)
			break;
		l->v = v;
		l->v[l->n] = strdup(line);
		if (!l->v[l->n])
			break;
		l->n++;
	}
	free(line);
	return ferror(f) || !feof(f) ? -1 : 0;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* The recording, without its first line (which names the GPU). */
static int read_golden(struct lines *golden)
{
	FILE *f = fopen(PROBE_GOLDEN, "r");
	int err;

	if (!f)
		return -1;
	err = read_lines(f, golden);
	fclose(f);
	if (err || !golden->n)
		return -1;
	free(golden->v[0]);
	memmove(golden->v, golden->v + 1, (golden->n - 1) * sizeof(char *));
	golden->n--;
	return 0;
}

/* What the probe prints against our libcuda; *@status: its wait status. */
static int run_probe(struct lines *actual, int *status)
{
	FILE *p = popen(PROBE_BIN, "r");
	int err;

	if (!p)
		return -1;
	err = read_lines(p, actual);
	*status = pclose(p);
	return err;
}

int main(void)
{
	struct lines golden = { 0 }, actual = { 0 };
	pid_t fw;
	size_t i, n;
	int status;

	ksft_print_header();
	if (read_golden(&golden))
		ksft_exit_fail_msg("cannot read %s\n", PROBE_GOLDEN);
	fw = fw_launcher_start();
	if (fw < 0)
		ksft_exit_fail_msg("cannot start vgpu-fw: %d\n", (int)fw);
	if (run_probe(&actual, &status)) {
		fw_launcher_stop(fw);
		ksft_exit_fail_msg("cannot run %s\n", PROBE_BIN);
	}
	fw_launcher_stop(fw);

	/* One result per line of the longer of the two, and the exit. */
	n = golden.n > actual.n ? golden.n : actual.n;
	ksft_set_plan(n + 1);
	for (i = 0; i < n; i++) {
		const char *want = i < golden.n ? golden.v[i] : "(no line)";
		const char *got = i < actual.n ? actual.v[i] : "(no line)";

		if (!strcmp(want, got)) {
			ksft_test_result_pass("%s\n", want);
		} else {
			ksft_print_msg("expected: %s\n", want);
			ksft_print_msg("actual:   %s\n", got);
			ksft_test_result_fail("%s\n", want);
		}
	}
	ksft_test_result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			 "the probe exits with status 0\n");
	free_lines(&golden);
	free_lines(&actual);
	ksft_finished();
}

#endif /* VGPU_PROBE_COMPARE_H */
