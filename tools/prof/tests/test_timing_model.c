// SPDX-License-Identifier: GPL-2.0
/*
 * test_timing_model - VGPU_TIMING=model: event times are the cost model's.
 *
 * Runs the coalescing sample (offset copies 0-4, stride copies 1-4 of
 * 131,072 threads) with VGPU_TIMING=model under `vgpu-prof --csv`, and
 * recomputes each launch's modelled time from its counters with the
 * model of umd/cuda/timing_model.c written out again here (the H100
 * figures of Documentation/profiler.rst): the time the sample measured
 * with cudaEventElapsedTime must be it, to the 0.1 microsecond the sample
 * prints.  Also: strided copies take longer as the stride grows (more
 * sectors), and without VGPU_TIMING the times are not the model's.
 *
 * And vgpu-prof's copies and memsets (the same sample, 3 launches): the
 * summary counts its copies by kind with their exact bytes, and the
 * trace has a span for each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ncu_csv.h"
#include "rt_test_util.h"

#ifndef VGPU_PROF_BIN
#error "build with -DVGPU_PROF_BIN and -DSAMPLE_BIN"
#endif

#define LAUNCHES	9	/* offsets 0-4, strides 1-4 */

static char out[1 << 20];

static int run(const char *cmd, char *buf, size_t cap)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int status;

	if (!p)
		return -1;
	while (n < cap - 1 && (r = fread(buf + n, 1, cap - 1 - n, p)) > 0)
		n += r;
	buf[n] = 0;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* the L2 lookups are global and local sectors (counters.c) */
enum { WARP_INSNS, SLD_WF, SST_WF, L2_HITS, L2_MISSES, NC };
static const char *const names[NC] = {
	"smsp__inst_executed.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"lts__t_sectors_lookup_hit.sum",
	"lts__t_sectors_lookup_miss.sum",
};

struct launch {
	double c[NC];
	double blocks;
	double ms;		/* what the sample printed */
};

static struct launch launches[NCU_MAX_LAUNCHES];

static void take(void *arg, int id, const char *kernel, const char *metric,
		 long long value)
{
	(void)arg;
	(void)kernel;
	for (int i = 0; i < NC; i++)
		if (!strcmp(metric, names[i]))
			launches[id].c[i] = (double)value;
	if (!strcmp(metric, "launch__grid_size"))
		launches[id].blocks = (double)value;
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* timing_model.c's model, again: ns */
static double model_ns(const struct launch *l)
{
	double share = l->blocks < 132 ? l->blocks / 132 : 1;
	double issue = l->c[WARP_INSNS] / (132 * 4 * 1.755e9);
	double shared = (l->c[SLD_WF] + l->c[SST_WF]) / (132 * 1.755e9);
	double l2 = (l->c[L2_HITS] + l->c[L2_MISSES]) * 32 / 5.5e12;
	double dram = l->c[L2_MISSES] * 32 / 3.35e12;

	return 2000 + max2(max2(issue, shared), max2(l2, dram)) / share * 1e9;
}

/* the sample's "launch N offset|stride K MS ms ..." lines */
static int sample_lines(const char *text, double *ms)
{
	const char *p = text;
	int n = 0, id;
	double v;

	while ((p = strstr(p, "launch "))) {
		if ((p == text || p[-1] == '\n') &&
		    sscanf(p, "launch %d %*s %*d %lf ms", &id, &v) == 2 &&
		    id >= 0 && id < NCU_MAX_LAUNCHES) {
			ms[id] = v;
			n++;
		}
		p++;
	}
	return n;
}

/*
 * coalescing 131072 1: one cudaMemcpy in, then per launch (offsets 0, 1,
 * stride 1) a cudaMemset of the output and a cudaMemcpy back, each of
 * (131072 * 1 + 1) floats.
 */
static void test_copies(void)
{
	static char trace[1 << 16];
	const char *path = "/tmp/test_timing_model.json";
	unsigned long long bytes = (131072ull + 1) * 4;
	char want[3][96];
	FILE *f;
	size_t n = 0;
	int rc, spans = 0;

	rc = run(VGPU_PROF_BIN " --trace /tmp/test_timing_model.json "
		 SAMPLE_BIN " 131072 1", out, sizeof(out));
	snprintf(want[0], sizeof(want[0]), "    HtoD            1 %16llu ",
		 bytes);
	snprintf(want[1], sizeof(want[1]), "    DtoH            3 %16llu ",
		 3 * bytes);
	snprintf(want[2], sizeof(want[2]), "    memset          3 %16llu ",
		 3 * bytes);
	tap_ok(rc == 0 && strstr(out, "==PROF== vgpu-prof: 7 copies and "
				 "memsets") && strstr(out, want[0]) &&
	       strstr(out, want[1]) && strstr(out, want[2]),
	       "the summary counts 1 HtoD, 3 DtoH, 3 memsets of %llu bytes",
	       bytes);
	f = fopen(path, "r");
	if (f) {
		n = fread(trace, 1, sizeof(trace) - 1, f);
		fclose(f);
	}
	trace[n] = 0;
	unlink(path);
	for (const char *p = trace; (p = strstr(p, "\"cat\":\"copy\"")); p++)
		spans++;
	tap_ok(spans == 7 && strstr(trace, "\"copies and memsets\"") &&
	       strstr(trace, "\"name\":\"memset\""),
	       "the trace has a span for each of them on their track (%d)",
	       spans);
}

int main(void)
{
	static double ms[NCU_MAX_LAUNCHES], host_ms[NCU_MAX_LAUNCHES];
	pid_t fw = fw_launcher_start();
	int rc, n, bad = 0, model_like = 0;

	tap_plan(7);
	if (fw < 0) {
		tap_diag("cannot start the firmware");
		return 1;
	}
	rc = run("VGPU_TIMING=model " VGPU_PROF_BIN " --csv " SAMPLE_BIN
		 " 131072 4", out, sizeof(out));
	n = sample_lines(out, ms);
	tap_ok(rc == 0 && n == LAUNCHES && strstr(out, "PASSED"),
	       "the sample runs with VGPU_TIMING=model under vgpu-prof "
	       "(%d launches)", n);
	tap_ok(ncu_rows(out, take, NULL) == LAUNCHES,
	       "vgpu-prof counted every launch");
	for (int i = 0; i < LAUNCHES; i++) {
		double want = model_ns(&launches[i]) / 1e6;

		tap_diag("launch %d: %.4f ms, model %.6f ms (%.0f L2 hits, "
			 "%.0f misses)", i, ms[i], want, launches[i].c[L2_HITS],
			 launches[i].c[L2_MISSES]);
		if (ms[i] < want - 0.00011 || ms[i] > want + 0.00011)
			bad++;
	}
	tap_ok(!bad, "every elapsed time is the cost model's of the launch's "
	       "counters (%d differ)", bad);
	/* launches 5-8: strides 1-4 */
	tap_ok(ms[5] < ms[6] && ms[6] < ms[7] && ms[7] < ms[8],
	       "a larger stride takes longer: %.4f < %.4f < %.4f < %.4f ms",
	       ms[5], ms[6], ms[7], ms[8]);

	rc = run(SAMPLE_BIN " 131072 4", out, sizeof(out));
	n = sample_lines(out, host_ms);
	for (int i = 0; i < LAUNCHES; i++)
		model_like += host_ms[i] == ms[i];
	tap_ok(rc == 0 && n == LAUNCHES && model_like < LAUNCHES,
	       "without VGPU_TIMING the times are the host's (%d of %d "
	       "equal the model's)", model_like, LAUNCHES);
	test_copies();
	fw_launcher_stop(fw);
	return tap_finish();
}
