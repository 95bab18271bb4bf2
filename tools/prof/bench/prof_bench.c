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
 * never fails on speed.
 *
 *   vgpu-prof-bench [-r REPEAT] [-s SMS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptx/ptx_compiler.h"
#include "test_gpu.h"
#include "vgpu_jit.h"

#ifndef PROBE_PTX
#define PROBE_PTX "build/tests/prof/probe_counters.ptx"
#endif

static struct test_gpu gpu;
static struct tg_module mod;

static double process_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* @repeat launches of @k on @tier, counted into @c when not NULL. */
static double run(const char *k, int tier, const uint32_t grid[3],
		  const uint32_t block[3], const void *params, uint32_t psize,
		  int repeat, struct vgpu_core_counters *c)
{
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;
	double t0;

	if (tg_launch_desc(&gpu, &mod, k, grid, block, 0, params, psize, &l))
		return -1;
	if (vgpu_jit_module_select(mod.mod, tier))
		return -1;
	/* untimed: the native tier compiles the function at its first run */
	if (vgpu_core_launch(gpu.core, &l, &f))
		return -1;
	l.counters = c;
	t0 = process_now();
	for (int i = 0; i < repeat; i++) {
		if (vgpu_core_launch(gpu.core, &l, &f)) {
			fprintf(stderr, "%s: %s (%s)\n", k,
				vgpu_core_fault_name(f.kind), f.message);
			return -1;
		}
	}
	return process_now() - t0;
}

struct bench {
	const char *label, *kernel;
	uint32_t grid[3], block[3];
	int stride;		/* the kernel's int parameter, or -1 */
	bool no_in;		/* (out, stride): shared-memory kernels */
};

static void bench_one(const struct bench *b, uint64_t out, uint64_t in,
		      int repeat, bool native)
{
	struct { uint64_t out, in; int32_t s, pad; } p = { out, in, b->stride, 0 };
	struct { uint64_t out; int32_t s, pad; } q = { out, b->stride, 0 };
	const void *params = b->no_in ? (const void *)&q : (const void *)&p;
	uint32_t psize = b->no_in ? 12 : b->stride >= 0 ? 20 : 16;
	struct vgpu_core_counters c;
	double t_int, t_cnt, t_nat = 0;

	memset(&c, 0, sizeof(c));
	t_int = run(b->kernel, VGPU_TIER_INTERP, b->grid, b->block, params, psize,
		    repeat, NULL);
	t_cnt = run(b->kernel, VGPU_TIER_INTERP, b->grid, b->block, params, psize,
		    repeat, &c);
	if (native)
		t_nat = run(b->kernel, VGPU_TIER_NATIVE, b->grid, b->block, params,
			    psize, repeat, NULL);
	if (t_int <= 0 || t_cnt <= 0) {
		printf("%-22s failed\n", b->label);
		return;
	}
	printf("%-22s %9.3f %9.3f %7.2fx", b->label, t_int, t_cnt,
	       t_cnt / t_int);
	if (native && t_nat > 0)
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
	static const struct bench benches[] = {
		{ "ld_f32_stride s=1", "ld_f32_stride", { 32, 1, 1 },
		  { 256, 1, 1 }, 1, false },
		{ "ld_f32_stride s=32", "ld_f32_stride", { 32, 1, 1 },
		  { 256, 1, 1 }, 32, false },
		{ "copy_f32x4_stride s=2", "copy_f32x4_stride", { 32, 1, 1 },
		  { 256, 1, 1 }, 2, false },
		{ "smem_f32_stride s=32", "smem_f32_stride", { 4, 1, 1 },
		  { 64, 1, 1 }, 32, true },
		{ "transpose_naive", "transpose_naive", { 8, 8, 1 },
		  { 32, 8, 1 }, -1, false },
		{ "transpose_tiled", "transpose_tiled", { 8, 8, 1 },
		  { 32, 8, 1 }, -1, false },
		{ "transpose_padded", "transpose_padded", { 8, 8, 1 },
		  { 32, 8, 1 }, -1, false },
	};
	struct vgpu_ptx_source src = { 0 };
	struct vgpu_ptx_diag diag;
	unsigned int sms = 1;
	int repeat = 200, opt;
	bool native;
	char err[512];
	void *img;
	size_t size;
	uint64_t in, out;

	while ((opt = getopt(argc, argv, "r:s:")) != -1) {
		if (opt == 'r')
			repeat = atoi(optarg);
		else if (opt == 's')
			sms = (unsigned int)atoi(optarg);
		else {
			fprintf(stderr, "usage: %s [-r REPEAT] [-s SMS]\n",
				argv[0]);
			return 2;
		}
	}
	if (repeat < 1)
		repeat = 1;
	if (!sms)
		sms = 1;
	vgpu_jit_set_tier(VGPU_TIER_NATIVE);
	src.text = tg_read_text(PROBE_PTX);
	if (!src.text) {
		fprintf(stderr, "cannot read %s\n", PROBE_PTX);
		return 1;
	}
	src.len = strlen(src.text);
	if (vgpu_ptx_compile(&src, 1, NULL, &img, &size, &diag)) {
		vgpu_ptx_format_diag(&diag, err, sizeof(err));
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (tg_init(&gpu, sms) ||
	    tg_load(&gpu, img, size, &mod, err, sizeof(err))) {
		fprintf(stderr, "cannot set up the core: %s\n", err);
		return 1;
	}
	vgpu_ptx_free(img);
	free((void *)src.text);
	gpu.both_tiers = false;
	native = !vgpu_jit_module_select(mod.mod, VGPU_TIER_NATIVE);
	/* stride 32 of float4 over 8192 threads: 4 MiB */
	in = tg_alloc(&gpu, 4u << 20);
	out = tg_alloc(&gpu, 4u << 20);

	printf("vgpu-prof-bench: %u SM worker thread%s, %d launches each; "
	       "CPU seconds\n\n", sms, sms == 1 ? "" : "s", repeat);
	printf("%-22s %9s %9s %8s %9s %8s   counters per launch\n", "kernel",
	       "interp", "counted", "ratio", "native", "ratio");
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++)
		bench_one(&benches[i], out, in, repeat, native);
	printf("\nratio: counted / uncounted run (the native tier does not "
	       "count: a counted launch runs on the interpreter)\n");
	tg_unload(&mod);
	tg_fini(&gpu);
	return 0;
}
