/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pocl_bench.h - the benchmark's kernels on an OpenCL CPU device (POCL,
 * Debian's pocl-opencl-icd), for comparison.  OpenCL is loaded with
 * dlopen(): without it the benchmark runs as before and says so.
 */
#ifndef VGPU_POCL_BENCH_H
#define VGPU_POCL_BENCH_H

#include <stdbool.h>
#include <stddef.h>

/* One kernel argument: a buffer (copied in, and back when @out) or a
 * value of @size bytes. */
struct pocl_arg {
	void *host;
	size_t size;
	bool buffer;
	bool out;
};

/*
 * Load OpenCL, find a CPU device, build the kernels: 0, or -1 with the
 * reason in @why.  @device gets the device's name.
 */
int pocl_open(char *device, size_t dlen, char *why, size_t wlen);

/*
 * Run kernel @name over @global work-items in groups of @local (@dims of
 * each), once untimed, then @reps times: the fastest process CPU time and
 * wall time of one run (enqueue to finish) in @cpu_s and @wall_s.  Before
 * each run the buffers are written from their host copies (for kernels
 * that accumulate), after the last, the @out ones are read back.
 * 0, or -1 (an OpenCL error, printed).
 */
int pocl_run(const char *name, unsigned int dims, const size_t *global,
	     const size_t *local, struct pocl_arg *args, unsigned int nargs,
	     int reps, double *cpu_s, double *wall_s);

void pocl_close(void);

#endif /* VGPU_POCL_BENCH_H */
