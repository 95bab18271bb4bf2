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
 * clean).  A program, not a test: it never fails on speed.
 *
 *   vgpu-sanitizer-bench [-r REPEAT] [-s SMS]
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

#define BUF_BYTES	(4u << 20)

static struct test_gpu gpu;
static struct tg_module mod;
static struct vgpu_san_alloc table[2];
static unsigned long findings;

static double process_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* @repeat launches of @k on @tier; with @tools (VGPU_SAN_*) sanitized. */
static double run(const char *k, int tier, const uint32_t grid[3],
		  const uint32_t block[3], const void *params, uint32_t psize,
		  int repeat, uint32_t tools)
{
	static struct vgpu_san_report reports[VGPU_SAN_MAX_REPORTS];
	struct vgpu_core_sanitizer san = {
		.tools = tools, .allocs = table, .nallocs = 2,
		.cap = VGPU_SAN_MAX_REPORTS, .reports = reports,
	};
	struct vgpu_core_counters c;
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;
	double t0, t;

	if (tg_launch_desc(&gpu, &mod, k, grid, block, 0, params, psize, &l))
		return -1;
	if (vgpu_jit_module_select(mod.mod, tier))
		return -1;
	/* untimed: the native tier compiles the function at its first run */
	if (vgpu_core_launch(gpu.core, &l, &f))
		return -1;
	pthread_mutex_init(&san.lock, NULL);
	if (tools) {
		l.counters = &c;
		l.sanitizer = &san;
	}
	t0 = process_now();
	for (int i = 0; i < repeat; i++) {
		memset(&c, 0, sizeof(c));
		if (vgpu_core_launch(gpu.core, &l, &f)) {
			fprintf(stderr, "%s: %s (%s)\n", k,
				vgpu_core_fault_name(f.kind), f.message);
			return -1;
		}
	}
	t = process_now() - t0;
	findings += san.count + san.dropped;
	pthread_mutex_destroy(&san.lock);
	return t;
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
	static const uint32_t tools[] = { VGPU_SAN_MEMCHECK,
					  VGPU_SAN_RACECHECK,
					  VGPU_SAN_SYNCCHECK };
	struct { uint64_t out, in; int32_t s, pad; } p = { out, in, b->stride, 0 };
	struct { uint64_t out; int32_t s, pad; } q = { out, b->stride, 0 };
	const void *params = b->no_in ? (const void *)&q : (const void *)&p;
	uint32_t psize = b->no_in ? 12 : b->stride >= 0 ? 20 : 16;
	double t_int, t_nat = -1, t;
	unsigned long before = findings;

	t_int = run(b->kernel, VGPU_TIER_INTERP, b->grid, b->block, params,
		    psize, repeat, 0);
	if (native)
		t_nat = run(b->kernel, VGPU_TIER_NATIVE, b->grid, b->block,
			    params, psize, repeat, 0);
	if (t_int <= 0) {
		printf("%-22s failed\n", b->label);
		return;
	}
	printf("%-22s %8.3f", b->label, t_nat > 0 ? t_nat : t_int);
	for (size_t i = 0; i < 3; i++) {
		t = run(b->kernel, VGPU_TIER_INTERP, b->grid, b->block, params,
			psize, repeat, tools[i]);
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
	int repeat = 100, opt;
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
	in = tg_alloc(&gpu, BUF_BYTES);
	out = tg_alloc(&gpu, BUF_BYTES);
	/* the allocation table: the two buffers, sorted */
	table[0] = (struct vgpu_san_alloc){ .base = in < out ? in : out,
		.size = BUF_BYTES, .map_base = in < out ? in : out,
		.map_size = BUF_BYTES };
	table[1] = (struct vgpu_san_alloc){ .base = in < out ? out : in,
		.size = BUF_BYTES, .map_base = in < out ? out : in,
		.map_size = BUF_BYTES };

	printf("vgpu-sanitizer-bench: %u SM worker thread%s, %d launches "
	       "each; CPU seconds\n\n", sms, sms == 1 ? "" : "s", repeat);
	printf("%-22s %8s %8s %6s %8s %6s %8s %6s %7s %8s\n", "kernel",
	       native ? "native" : "interp", "memcheck", "ratio", "racechk",
	       "ratio", "syncchk", "ratio", "interp", "findings");
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++)
		bench_one(&benches[i], out, in, repeat, native);
	printf("\nratio: the tool's run / the uninstrumented run (%s); a "
	       "sanitized launch runs on the interpreter, whose own ratio is "
	       "the column 'interp'\n", native ? "native tier" :
	       "interpreter");
	tg_unload(&mod);
	tg_fini(&gpu);
	return 0;
}
