// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_probe_extsem.c - vGPU's external semaphores, their graph nodes
 * and stream capture, and external memory's mipmapped arrays, against
 * the H100's answers.
 *
 * tools/cuda-probe/probe_extsem.c ran on a real H100 with NVIDIA's Vulkan
 * (tools/cuda-probe/golden/probe_extsem.h100.txt: two runs, each case in
 * a child process, some cases crashed or hung partway).  Here the same
 * probe runs against our libcuda in vGPU's convention (a semaphore is a
 * memfd payload: lavapipe exports none), and each line it prints,
 * "name: answer", is checked by name:
 *
 *  - the H100 printed that name: the answer must be one of the H100's
 *    for it (a name printed twice, by both runs, has the same answer);
 *  - it differs on purpose (on_purpose[]): that answer;
 *  - the H100 did not get there (its driver crashed or the probe's own
 *    wait hung): the answer chosen for vGPU (chosen[], each with why);
 *  - anything else fails: a new line needs an expectation.
 *
 * And every name the H100 printed must be printed here too, except the
 * ones only Vulkan can give (a queue submission, vgpu_only_vulkan[]).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "fw_launcher.h"

#define MAX_LINES 512

struct line {
	char name[256];
	char value[256];
};

struct lines {
	struct line v[MAX_LINES];
	size_t n;
	size_t died;		/* "CASE: crashed ..." and "CASE: exit N" */
};

/* Lines vGPU answers otherwise on purpose: { name, vGPU's answer }. */
static const char *const on_purpose[][2] = {
	/* none yet */
	{ NULL, NULL },
};

/* Names the H100 never answered: vGPU's choice. */
static const char *const chosen[][2] = {
	/* The H100's driver crashed on a second destroy and on NULL arrays
	 * in node parameters; vGPU refuses them as the H100 refuses other
	 * bad handles and NULL arrays (INVALID_VALUE). */
	{ "timeline.destroy_twice", "CUDA_ERROR_INVALID_VALUE" },
	{ "graph.add_signal.null_sems", "CUDA_ERROR_INVALID_VALUE" },
	{ "graph.add_signal.null_params", "CUDA_ERROR_INVALID_VALUE" },
	/* The H100's graph case hung in the probe's own wait (fixed since):
	 * what a graph of these nodes does when it runs. */
	{ "graph.sync", "CUDA_SUCCESS" },
	{ "graph.counter", "13" },
	{ "graph.exec_set", "CUDA_SUCCESS" },
	/* CUDA documents a new count as unsupported. */
	{ "graph.exec_set.other_count", "CUDA_ERROR_INVALID_VALUE" },
	{ "graph.exec_set.wrong_type", "CUDA_ERROR_INVALID_VALUE" },
	{ "graph.exec_set_wait", "CUDA_SUCCESS" },
	{ "graph.launch2", "CUDA_SUCCESS" },
	{ "graph.sync2", "CUDA_SUCCESS" },
	{ "graph.counter2", "21" },
	/* An executable graph's change leaves the graph's node as it was. */
	{ "graph.after_exec_set.node_value", "13" },
	{ "graph.add_node_generic", "CUDA_SUCCESS" },
	{ "graph.node_set_generic", "CUDA_SUCCESS" },
	/* One semaphore for a node made with two: a new count. */
	{ "graph.exec_node_set_generic", "CUDA_ERROR_INVALID_VALUE" },
	{ "graph.destroy_sem_in_node", "CUDA_SUCCESS" },
	/* Handles are checked when a node runs, not when instantiated. */
	{ "graph.instantiate_after_destroy", "CUDA_SUCCESS" },
	{ NULL, NULL },
};

/* H100 names that only a Vulkan driver with semaphore fds can give. */
static const char *const only_vulkan[] = {
	"ways.vk_submit", "ways.cuda_signal11", "ways.cuda_wait12",
	"ways.sync_submit", "ways.counter_submit", NULL,
};

static const char *lookup(const char *const t[][2], const char *name)
{
	for (size_t i = 0; t[i][0]; i++)
		if (!strcmp(t[i][0], name))
			return t[i][1];
	return NULL;
}

static bool listed(const char *const *t, const char *name)
{
	for (size_t i = 0; t[i]; i++)
		if (!strcmp(t[i], name))
			return true;
	return false;
}

/*
 * "name: value" lines of @f, without comments, the GPU's name, and the
 * parent's "CASE: crashed ..." / "CASE: exit N" reports (counted, and
 * shown for @ours).
 */
static int read_lines(FILE *f, struct lines *l, bool ours)
{
	char buf[256];

	l->n = 0;
	l->died = 0;
	while (fgets(buf, sizeof(buf), f)) {
		char *colon = strstr(buf, ": ");

		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] == '#' || !colon || !strncmp(buf, "device:", 7))
			continue;
		*colon = 0;
		if (!strncmp(colon + 2, "crashed", 7) ||
		    !strncmp(colon + 2, "exit ", 5)) {
			if (ours)
				ksft_print_msg("%s: %s\n", buf, colon + 2);
			l->died++;
			continue;
		}
		if (l->n == MAX_LINES)
			return -1;
		snprintf(l->v[l->n].name, sizeof(l->v[l->n].name), "%s", buf);
		snprintf(l->v[l->n].value, sizeof(l->v[l->n].value), "%s",
			 colon + 2);
		l->n++;
	}
	return 0;
}

static bool has_name(const struct lines *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return true;
	return false;
}

static bool has_line(const struct lines *l, const char *name,
		     const char *value)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name) &&
		    !strcmp(l->v[i].value, value))
			return true;
	return false;
}

static struct lines h100, ours;

int main(void)
{
	FILE *f;
	size_t i, failed = 0;
	pid_t fw;
	int st;

	ksft_print_header();
	f = fopen(PROBE_EXTSEM_GOLDEN, "r");
	if (!f || read_lines(f, &h100, false))
		ksft_exit_fail_msg("cannot read %s\n", PROBE_EXTSEM_GOLDEN);
	fclose(f);
	fw = fw_launcher_start();
	if (fw < 0)
		ksft_exit_fail_msg("cannot start vgpu-fw: %d\n", (int)fw);
	f = popen("PROBE_EXTSEM_CONVENTION=1 " PROBE_EXTSEM_BIN, "r");
	if (!f || read_lines(f, &ours, true)) {
		fw_launcher_stop(fw);
		ksft_exit_fail_msg("cannot run %s\n", PROBE_EXTSEM_BIN);
	}
	st = pclose(f);
	fw_launcher_stop(fw);
	ksft_set_plan((unsigned int)(ours.n + 1));
	for (i = 0; i < ours.n; i++) {
		const struct line *o = &ours.v[i];
		const char *want = lookup(on_purpose, o->name);
		bool ok;

		if (!want && !has_name(&h100, o->name))
			want = lookup(chosen, o->name);
		if (want)
			ok = !strcmp(want, o->value);
		else
			ok = has_line(&h100, o->name, o->value);
		if (!ok) {
			ksft_print_msg("%s: vGPU %s, expected %s\n", o->name,
				       o->value, want ? want :
				       has_name(&h100, o->name) ?
				       "the H100's answer" : "(no expectation)");
			failed++;
		}
		ksft_test_result(ok, "%s: %s\n", o->name, o->value);
	}
	/* Every answer the H100 gave is answered here. */
	for (i = 0; i < h100.n; i++) {
		if (listed(only_vulkan, h100.v[i].name) ||
		    has_name(&ours, h100.v[i].name))
			continue;
		ksft_print_msg("%s: the H100 answered, vGPU did not\n",
			       h100.v[i].name);
		failed++;
	}
	ksft_test_result(!failed && !ours.died && WIFEXITED(st) &&
			 !WEXITSTATUS(st),
			 "every H100 answer compared, every case ran to its end\n");
	ksft_finished();
}
