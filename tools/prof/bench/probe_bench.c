// SPDX-License-Identifier: GPL-2.0
/*
 * probe_bench.c - the measurement loop of vgpu-prof-bench and
 * vgpu-sanitizer-bench (probe_bench.h): one list of kernels, one set-up,
 * one timed loop, so that the cost of counting and the cost of each
 * sanitizer tool are measured the same way and can be compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe_bench.h"
#include "ptx/ptx_compiler.h"

const struct probe_kernel probe_kernels[] = {
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
const unsigned int probe_nkernels =
	sizeof(probe_kernels) / sizeof(probe_kernels[0]);

static double process_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int probe_bench_init(struct probe_bench *pb, int argc, char **argv,
		     int repeat, const char *ptx_path)
{
	struct vgpu_ptx_source src = { 0 };
	struct vgpu_ptx_diag diag;
	char err[512];
	size_t size;
	void *img;
	int opt;

	memset(pb, 0, sizeof(*pb));
	pb->repeat = repeat;
	pb->sms = 1;
	while ((opt = getopt(argc, argv, "r:s:")) != -1) {
		if (opt == 'r') {
			pb->repeat = atoi(optarg);
		} else if (opt == 's') {
			pb->sms = (unsigned int)atoi(optarg);
		} else {
			fprintf(stderr, "usage: %s [-r REPEAT] [-s SMS]\n",
				argv[0]);
			return 2;
		}
	}
	if (pb->repeat < 1)
		pb->repeat = 1;
	if (!pb->sms)
		pb->sms = 1;
	vgpu_jit_set_tier(VGPU_TIER_NATIVE);
	src.text = tg_read_text(ptx_path);
	if (!src.text) {
		fprintf(stderr, "cannot read %s\n", ptx_path);
		return 1;
	}
	src.len = strlen(src.text);
	if (vgpu_ptx_compile(&src, 1, NULL, &img, &size, &diag)) {
		vgpu_ptx_format_diag(&diag, err, sizeof(err));
		fprintf(stderr, "%s\n", err);
		free((void *)src.text);
		return 1;
	}
	free((void *)src.text);
	if (tg_init(&pb->gpu, pb->sms) ||
	    tg_load(&pb->gpu, img, size, &pb->mod, err, sizeof(err))) {
		fprintf(stderr, "cannot set up the core: %s\n", err);
		vgpu_ptx_free(img);
		return 1;
	}
	vgpu_ptx_free(img);
	pb->gpu.both_tiers = false;
	pb->native = !vgpu_jit_module_select(pb->mod.mod, VGPU_TIER_NATIVE);
	/* stride 32 of float4 over 8192 threads: 4 MiB */
	pb->in = tg_alloc(&pb->gpu, PROBE_BENCH_BUF_BYTES);
	pb->out = tg_alloc(&pb->gpu, PROBE_BENCH_BUF_BYTES);
	return 0;
}

void probe_bench_fini(struct probe_bench *pb)
{
	tg_unload(&pb->mod);
	tg_fini(&pb->gpu);
}

double probe_bench_run(struct probe_bench *pb, const struct probe_kernel *k,
		       int tier, struct vgpu_core_counters *c,
		       struct vgpu_core_sanitizer *san, bool reset)
{
	struct { uint64_t out, in; int32_t s, pad; } p = {
		pb->out, pb->in, k->stride, 0
	};
	struct { uint64_t out; int32_t s, pad; } q = { pb->out, k->stride, 0 };
	const void *params = k->no_in ? (const void *)&q : (const void *)&p;
	uint32_t psize = k->no_in ? 12 : k->stride >= 0 ? 20 : 16;
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;
	double t0;

	if (tg_launch_desc(&pb->gpu, &pb->mod, k->kernel, k->grid, k->block,
			   0, params, psize, &l))
		return -1;
	if (vgpu_jit_module_select(pb->mod.mod, tier))
		return -1;
	/* untimed: the native tier compiles the function at its first run */
	if (vgpu_core_launch(pb->gpu.core, &l, &f))
		return -1;
	l.counters = c;
	l.sanitizer = san;
	t0 = process_now();
	for (int i = 0; i < pb->repeat; i++) {
		if (reset && c)
			memset(c, 0, sizeof(*c));
		if (vgpu_core_launch(pb->gpu.core, &l, &f)) {
			fprintf(stderr, "%s: %s (%s)\n", k->kernel,
				vgpu_core_fault_name(f.kind), f.message);
			return -1;
		}
	}
	return process_now() - t0;
}
