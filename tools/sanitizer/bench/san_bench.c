// SPDX-License-Identifier: GPL-2.0
/*
 * san_bench.c - vgpu-sanitizer-bench: what each vgpu-sanitizer tool costs.
 *
 * Runs reference kernels of tools/cuda-probe/probe_counters.cu (global
 * loads at two strides, a float4 copy, shared-memory strides, the three
 * transposes) through the PTX compiler and the execution core: without
 * instrumentation (the native tier when the host has it, and the
 * interpreter), then under memcheck, racecheck and synccheck as a
 * sanitized launch makes them (counted, on the interpreter, with the
 * allocation table of the two buffers).  Prints CPU seconds, each tool's
 * ratio to the uninstrumented runs, and the findings (0: the kernels are
 * clean).  A program, not a test: it never fails on speed.  The kernels
 * and the timed loop are tools/prof/bench/probe_bench.c's, shared with
 * vgpu-prof-bench.
 *
 *   vgpu-sanitizer-bench [-r REPEAT] [-s SMS]
 */
#include <pthread.h>
#include <stdio.h>

#include "probe_bench.h"

#ifndef PROBE_PTX
#define PROBE_PTX "build/tests/prof/probe_counters.ptx"
#endif

static struct probe_bench pb;
static struct vgpu_san_alloc table[2];
static unsigned long findings;

/* A run of @k on the interpreter, sanitized by @tools (VGPU_SAN_*). */
static double run_tool(const struct probe_kernel *k, uint32_t tools)
{
	static struct vgpu_san_report reports[VGPU_SAN_MAX_REPORTS];
	struct vgpu_core_sanitizer san = {
		.tools = tools, .allocs = table, .nallocs = 2,
		.cap = VGPU_SAN_MAX_REPORTS, .reports = reports,
	};
	struct vgpu_core_counters c;
	double t;

	pthread_mutex_init(&san.lock, NULL);
	t = probe_bench_run(&pb, k, VGPU_TIER_INTERP, &c, &san, true);
	findings += san.count + san.dropped;
	pthread_mutex_destroy(&san.lock);
	return t;
}

static void bench_one(const struct probe_kernel *k)
{
	static const uint32_t tools[] = { VGPU_SAN_MEMCHECK,
					  VGPU_SAN_RACECHECK,
					  VGPU_SAN_SYNCCHECK };
	double t_int, t_nat = -1, t;
	unsigned long before = findings;

	t_int = probe_bench_run(&pb, k, VGPU_TIER_INTERP, NULL, NULL, false);
	if (pb.native)
		t_nat = probe_bench_run(&pb, k, VGPU_TIER_NATIVE, NULL, NULL,
					false);
	if (t_int <= 0) {
		printf("%-22s failed\n", k->label);
		return;
	}
	printf("%-22s %8.3f", k->label, t_nat > 0 ? t_nat : t_int);
	for (size_t i = 0; i < 3; i++) {
		t = run_tool(k, tools[i]);
		if (t <= 0)
			printf(" %8s %6s", "failed", "");
		else
			printf(" %8.3f %5.1fx", t,
			       t / (t_nat > 0 ? t_nat : t_int));
	}
	printf(" %6.1fx %8lu\n", t_nat > 0 ? t_int / t_nat : 1.0,
	       findings - before);
}

int main(int argc, char **argv)
{
	int rc = probe_bench_init(&pb, argc, argv, 100, PROBE_PTX);
	uint64_t lo, hi;

	if (rc)
		return rc;
	/* the allocation table: the two buffers, sorted */
	lo = pb.in < pb.out ? pb.in : pb.out;
	hi = pb.in < pb.out ? pb.out : pb.in;
	table[0] = (struct vgpu_san_alloc){ .base = lo,
		.size = PROBE_BENCH_BUF_BYTES, .map_base = lo,
		.map_size = PROBE_BENCH_BUF_BYTES };
	table[1] = (struct vgpu_san_alloc){ .base = hi,
		.size = PROBE_BENCH_BUF_BYTES, .map_base = hi,
		.map_size = PROBE_BENCH_BUF_BYTES };

	printf("vgpu-sanitizer-bench: %u SM worker thread%s, %d launches "
	       "each; CPU seconds\n\n", pb.sms, pb.sms == 1 ? "" : "s",
	       pb.repeat);
	printf("%-22s %8s %8s %6s %8s %6s %8s %6s %7s %8s\n", "kernel",
	       pb.native ? "native" : "interp", "memcheck", "ratio", "racechk",
	       "ratio", "syncchk", "ratio", "interp", "findings");
	for (unsigned int i = 0; i < probe_nkernels; i++)
		bench_one(&probe_kernels[i]);
	printf("\nratio: the tool's run / the uninstrumented run (%s); a "
	       "sanitized launch runs on the interpreter, whose own ratio is "
	       "the column 'interp'\n", pb.native ? "native tier" :
	       "interpreter");
	probe_bench_fini(&pb);
	return 0;
}
