// SPDX-License-Identifier: GPL-2.0
/*
 * prof_bench.c - vgpu-prof-bench: what counting costs.
 *
 * Runs reference kernels of tools/cuda-probe/probe_counters.cu through the
 * PTX compiler and the execution core three ways: on the interpreter
 * without counters, on the interpreter with counters (what a launch under
 * vgpu-prof does), and on the native tier without counters (what it does
 * otherwise, when the tier is available).  Prints CPU seconds and the
 * ratios, and the counted run's counters.  A program, not a test: it
 * never fails on speed.  The kernels and the timed loop are
 * probe_bench.c's, shared with vgpu-sanitizer-bench.
 *
 *   vgpu-prof-bench [-r REPEAT] [-s SMS]
 */
#include <stdio.h>
#include <string.h>

#include "probe_bench.h"

#ifndef PROBE_PTX
#define PROBE_PTX "build/tests/prof/probe_counters.ptx"
#endif

static struct probe_bench pb;

static void bench_one(const struct probe_kernel *k)
{
	struct vgpu_core_counters c;
	double t_int, t_cnt, t_nat = 0;
	int repeat = pb.repeat;

	memset(&c, 0, sizeof(c));
	t_int = probe_bench_run(&pb, k, VGPU_TIER_INTERP, NULL, NULL, false);
	t_cnt = probe_bench_run(&pb, k, VGPU_TIER_INTERP, &c, NULL, false);
	if (pb.native)
		t_nat = probe_bench_run(&pb, k, VGPU_TIER_NATIVE, NULL, NULL,
					false);
	if (t_int <= 0 || t_cnt <= 0) {
		printf("%-22s failed\n", k->label);
		return;
	}
	printf("%-22s %9.3f %9.3f %7.2fx", k->label, t_int, t_cnt,
	       t_cnt / t_int);
	if (pb.native && t_nat > 0)
		printf(" %9.3f %7.2fx", t_nat, t_cnt / t_nat);
	else
		printf(" %9s %8s", "-", "-");
	printf("   ld %llu/%llu st %llu/%llu shared wf %llu+%llu conflicts "
	       "%llu+%llu\n",
	       (unsigned long long)(c.gld_requests / repeat),
	       (unsigned long long)(c.gld_sectors / repeat),
	       (unsigned long long)(c.gst_requests / repeat),
	       (unsigned long long)(c.gst_sectors / repeat),
	       (unsigned long long)(c.sld_wavefronts / repeat),
	       (unsigned long long)(c.sst_wavefronts / repeat),
	       (unsigned long long)(c.sld_conflicts / repeat),
	       (unsigned long long)(c.sst_conflicts / repeat));
}

int main(int argc, char **argv)
{
	int rc = probe_bench_init(&pb, argc, argv, 200, PROBE_PTX);

	if (rc)
		return rc;
	printf("vgpu-prof-bench: %u SM worker thread%s, %d launches each; "
	       "CPU seconds\n\n", pb.sms, pb.sms == 1 ? "" : "s", pb.repeat);
	printf("%-22s %9s %9s %8s %9s %8s   counters per launch\n", "kernel",
	       "interp", "counted", "ratio", "native", "ratio");
	for (unsigned int i = 0; i < probe_nkernels; i++)
		bench_one(&probe_kernels[i]);
	printf("\nratio: counted / uncounted run (the native tier does not "
	       "count: a counted launch runs on the interpreter)\n");
	probe_bench_fini(&pb);
	return 0;
}
