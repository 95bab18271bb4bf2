/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_bench.h - the measurement loop vgpu-prof-bench and
 * vgpu-sanitizer-bench share: the reference kernels of
 * tools/cuda-probe/probe_counters.cu compiled through the PTX compiler,
 * loaded into an execution core of its own with two 4 MiB buffers, and
 * launched @repeat times on a tier, with counters and a sanitizer
 * attached or not, timed in CPU seconds.  Each benchmark prints its own
 * columns; neither fails on speed.
 */
#ifndef PROBE_BENCH_H
#define PROBE_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "test_gpu.h"
#include "vgpu_jit.h"

#define PROBE_BENCH_BUF_BYTES	(4u << 20)

/* One benchmarked launch of a probe kernel. */
struct probe_kernel {
	const char *label, *kernel;
	uint32_t grid[3], block[3];
	int stride;		/* the kernel's int parameter, or -1 */
	bool no_in;		/* (out, stride): shared-memory kernels */
};

/* The kernels both benchmarks run, in the order they print them. */
extern const struct probe_kernel probe_kernels[];
extern const unsigned int probe_nkernels;

struct probe_bench {
	struct test_gpu gpu;
	struct tg_module mod;
	bool native;		/* the native tier compiled the module */
	uint64_t in, out;	/* the two buffers */
	int repeat;		/* -r, launches per run */
	unsigned int sms;	/* -s, SM worker threads */
};

/*
 * Parse "-r REPEAT -s SMS" (@repeat the default), compile PROBE_PTX and
 * set up the core and the buffers.  0, or 1 after saying why on stderr
 * (2 for a bad option).
 */
int probe_bench_init(struct probe_bench *pb, int argc, char **argv,
		     int repeat, const char *ptx_path);
void probe_bench_fini(struct probe_bench *pb);

/*
 * pb->repeat launches of @k on @tier after an untimed one (the native
 * tier compiles the function at its first run); @c and @san, when not
 * NULL, are attached as a counted or sanitized launch has them, @c zeroed
 * before each launch when @reset.  CPU seconds, or -1 when a launch
 * faulted (said on stderr).
 */
double probe_bench_run(struct probe_bench *pb, const struct probe_kernel *k,
		       int tier, struct vgpu_core_counters *c,
		       struct vgpu_core_sanitizer *san, bool reset);

#endif /* PROBE_BENCH_H */
