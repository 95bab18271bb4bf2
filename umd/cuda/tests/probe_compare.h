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
 * absolute paths that come from the build (umd/cuda/build.mk), and may
 * define:
 *
 *  - PROBE_PRINTS_GPU: the probe prints the GPU's name as its first line
 *    (as in the recording), which is skipped too;
 *  - PROBE_ON_PURPOSE: pairs { "H100 line", "vGPU line" } where vGPU
 *    answers otherwise on purpose; such a line must be vGPU's answer;
 *  - PROBE_GROUPED: one TAP result per group of consecutive lines that
 *    share a name (the text before ':' without " lane N"), named by it,
 *    for probes of thousands of long lines (probe_mma);
 *  - PROBE_GOLDEN_ENDS_EARLY: the real driver died partway (the recording
 *    says where): only the recording's lines are compared.
 */
#ifndef VGPU_PROBE_COMPARE_H
#define VGPU_PROBE_COMPARE_H

#include <stdbool.h>
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

static const struct {
	const char *h100, *vgpu;
} on_purpose[] = {
#ifdef PROBE_ON_PURPOSE
	PROBE_ON_PURPOSE,
#endif
	{ NULL, NULL }
};

/* vGPU's answer where it differs from @want on purpose, else @want. */
static const char *expected(const char *want)
{
	for (size_t i = 0; on_purpose[i].h100; i++)
		if (!strcmp(on_purpose[i].h100, want))
			return on_purpose[i].vgpu;
	return want;
}

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

/* Drop the first line of @l, which names the GPU; -1 if there is none. */
static int drop_gpu_line(struct lines *l)
{
	if (!l->n)
		return -1;
	free(l->v[0]);
	memmove(l->v, l->v + 1, (l->n - 1) * sizeof(char *));
	l->n--;
	return 0;
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
	return err ? -1 : drop_gpu_line(golden);
}

/*
 * What the probe prints against our libcuda (without the GPU's name if
 * it prints one); *@status: its wait status.
 */
static int run_probe(struct lines *actual, int *status)
{
	FILE *p = popen(PROBE_BIN, "r");
	int err;

	if (!p)
		return -1;
	err = read_lines(p, actual);
	*status = pclose(p);
#ifdef PROBE_PRINTS_GPU
	if (!err)
		err = drop_gpu_line(actual);
#endif
	return err;
}

/* The name of @line's group: the whole line, or (PROBE_GROUPED) its key. */
static void group_name(const char *line, char *buf, size_t len)
{
#ifdef PROBE_GROUPED
	const char *colon = strchr(line, ':'), *lane;
	size_t n = colon ? (size_t)(colon - line) : strlen(line);

	lane = strstr(line, " lane ");
	if (lane && lane < line + n)
		n = (size_t)(lane - line);
	snprintf(buf, len, "%.*s", (int)n, line);
#else
	snprintf(buf, len, "%s", line);
#endif
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

	/*
	 * One result per line (or group of lines) of the longer of the two,
	 * and the exit.
	 */
	n = golden.n > actual.n ? golden.n : actual.n;
#ifdef PROBE_GOLDEN_ENDS_EARLY
	n = golden.n;
#endif
	{
		size_t groups = 0;
		char prev[4096] = "", name[4096];

		for (i = 0; i < n; i++) {
			group_name(i < golden.n ? golden.v[i] : "(no line)",
				   name, sizeof(name));
			if (!i || strcmp(name, prev))
				groups++;
			memcpy(prev, name, sizeof(prev));
		}
		ksft_set_plan(groups + 1);
	}
	for (i = 0; i < n;) {
		char name[4096], next[4096] = "";
		bool same = true;

		group_name(i < golden.n ? golden.v[i] : "(no line)", name,
			   sizeof(name));
		do {
			const char *want = i < golden.n ?
					   expected(golden.v[i]) : "(no line)";
			const char *got = i < actual.n ? actual.v[i] :
					  "(no line)";

			if (strcmp(want, got)) {
				if (same) {
					ksft_print_msg("expected: %s\n", want);
					ksft_print_msg("actual:   %s\n", got);
				}
				same = false;
			}
			if (++i < n)
				group_name(i < golden.n ? golden.v[i] :
					   "(no line)", next, sizeof(next));
		} while (i < n && !strcmp(next, name));
		ksft_test_result(same, "%s\n", name);
	}
	ksft_test_result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			 "the probe exits with status 0\n");
	free_lines(&golden);
	free_lines(&actual);
	ksft_finished();
}

#endif /* VGPU_PROBE_COMPARE_H */
