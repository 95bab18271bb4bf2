// SPDX-License-Identifier: GPL-2.0
/*
 * core_bench.c - vgpu-core-bench: throughput of the execution core.
 *
 * Runs vectorAdd (16M elements), a tiled matrix multiply (512^2), a
 * shuffle reduction (16M), a divergent kernel and a straight-line
 * arithmetic kernel through the PTX compiler and the core, and the same
 * algorithms as plain C (compiled -O2) in the same process.  Prints, per
 * kernel, the thread-instructions executed, thread-instructions per second
 * per core (SM worker thread) and how many times slower than plain C the
 * core is.  Results are checked against the C versions.
 *
 * The core runs at the best host vector level of the CPU (simd.h);
 * VGPU_CORE_SIMD=base|x86-64-v3|x86-64-v4 compares another.
 *
 * Times are CPU seconds (the machine may be shared): "per core" is
 * thread-instructions per CPU-second of the SM worker threads, and the
 * slowdown compares CPU seconds with the C version's.
 *
 *   vgpu-core-bench [-s SMS] [-q] [-k KERNEL]
 *     -q  smaller sizes, for a smoke run
 *     -k  run only KERNEL (vectorAdd, matmul, reduce, divergent, alu)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptx/ptx_compiler.h"
#include "simd.h"
#include "test_gpu.h"

#ifndef BENCH_PTX
#define BENCH_PTX "build/tests/bench/bench_kernels.ptx"
#endif

static struct test_gpu gpu;
static struct tg_module mod;
static unsigned int sms = 1;

/*
 * CPU time, not wall time: the machine may be shared, and what we want is
 * how much work one core does per second of its time.  For the core this
 * is the CPU time of the whole process during the launch (the SM threads;
 * the launching thread sleeps), for the C versions that of this thread.
 */
static double cpu_now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return cpu_now(CLOCK_THREAD_CPUTIME_ID);
}

static double process_now(void)
{
	return cpu_now(CLOCK_PROCESS_CPUTIME_ID);
}

struct result {
	const char *name;
	uint64_t threads;
	double t_core, t_c;
	uint64_t thread_insns;
	int ok;
};

static void print_result(const struct result *r)
{
	/* t_core is CPU time summed over the SM threads */
	double per_core = r->thread_insns / r->t_core;

	printf("%-12s %10llu %14llu %9.3f %10.3f %9.4f %8.1fx  %s\n", r->name,
	       (unsigned long long)r->threads,
	       (unsigned long long)r->thread_insns, r->t_core, per_core / 1e9,
	       r->t_c, r->t_core / r->t_c, r->ok ? "ok" : "WRONG");
}

static int run(const char *k, uint32_t gx, uint32_t gy, uint32_t bx,
	       uint32_t by, const void *params, uint32_t psize,
	       struct result *r)
{
	struct vgpu_core_fault f;
	struct vgpu_core_stats st;
	double t0 = process_now();
	int ret = tg_launch(&gpu, &mod, k, (uint32_t[3]){ gx, gy, 1 },
			    (uint32_t[3]){ bx, by, 1 }, 0, params, psize, &f);

	r->t_core = process_now() - t0;
	vgpu_core_get_stats(gpu.core, &st);
	r->thread_insns = st.thread_insns;
	r->threads = (uint64_t)gx * gy * bx * by;
	if (ret)
		fprintf(stderr, "%s: %s (%s)\n", k, vgpu_core_fault_name(f.kind),
			f.message);
	return ret;
}

/* ---- the plain C versions ------------------------------------------------ */

static void c_vector_add(const float *a, const float *b, float *c, int n)
{
	for (int i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

static void c_matmul(const float *A, const float *B, float *C, int n)
{
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++) {
			float acc = 0;

			for (int k = 0; k < n; k++)
				acc += A[r * n + k] * B[k * n + c];
			C[r * n + c] = acc;
		}
}

static unsigned long long c_reduce(const unsigned *in, int n)
{
	unsigned long long s = 0;

	for (int i = 0; i < n; i++)
		s += in[i];
	return s;
}

static int c_divergent_one(int v)
{
	int acc = 0;

	for (int k = 0; k < (v & 31); k++) {
		if ((v + k) & 1)
			acc += k * v;
		else if ((v ^ k) & 2)
			acc ^= k << 2;
		else
			acc -= v >> 3;
	}
	return acc;
}

static float c_alu_one(int i, int iters)
{
	float x = (float)i, y = 1.0f, z = 0.5f;
	unsigned u = (unsigned)i;

	for (int k = 0; k < iters; k++)
		for (int j = 0; j < 8; j++) {
			x = x * 0.999f + y;
			y = y * z - x;
			u = (u ^ (u << 3)) + 0x9e3779b9u;
			z = z + 1e-7f;
		}
	return x + y + (float)u;
}

/* Keep results alive so -O2 cannot drop the C loops. */
static volatile float sink_f;
static volatile int sink_i;

/* ---- benchmarks ------------------------------------------------------------- */

static void bench_vector_add(int n, struct result *r)
{
	uint64_t da = tg_alloc(&gpu, (size_t)n * 4), db = tg_alloc(&gpu, (size_t)n * 4);
	uint64_t dc = tg_alloc(&gpu, (size_t)n * 4);
	float *a = tg_host(&gpu, da), *b = tg_host(&gpu, db), *c = tg_host(&gpu, dc);
	float *ref = malloc((size_t)n * 4);
	uint64_t p[4] = { da, db, dc, (uint64_t)n };
	double t0;

	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = (float)(n - i) * 0.5f;
	}
	r->name = "vectorAdd";
	run("vector_add", (n + 255) / 256, 1, 256, 1, p, 28, r);
	t0 = now();
	c_vector_add(a, b, ref, n);
	r->t_c = now() - t0;
	r->ok = !memcmp(ref, c, (size_t)n * 4);
	free(ref);
}

static void bench_matmul(int n, struct result *r)
{
	size_t sz = (size_t)n * n * 4;
	uint64_t dA = tg_alloc(&gpu, sz), dB = tg_alloc(&gpu, sz), dC = tg_alloc(&gpu, sz);
	float *A = tg_host(&gpu, dA), *B = tg_host(&gpu, dB), *C = tg_host(&gpu, dC);
	float *ref = malloc(sz);
	uint64_t p[4] = { dA, dB, dC, (uint64_t)n };
	double t0, maxerr = 0;

	for (int i = 0; i < n * n; i++) {
		A[i] = (float)(i % 17) * 0.25f;
		B[i] = (float)(i % 13) * 0.5f;
	}
	r->name = "matmul";
	run("matmul", n / 16, n / 16, 16, 16, p, 28, r);
	t0 = now();
	c_matmul(A, B, ref, n);
	r->t_c = now() - t0;
	for (int i = 0; i < n * n; i++) {
		double e = ref[i] - C[i];

		maxerr = e > maxerr ? e : -e > maxerr ? -e : maxerr;
	}
	r->ok = maxerr <= 1e-3 * n;	/* fma vs mul+add rounding */
	free(ref);
}

static void bench_reduce(int n, struct result *r)
{
	uint64_t din = tg_alloc(&gpu, (size_t)n * 4), ds = tg_alloc(&gpu, 8);
	unsigned *in = tg_host(&gpu, din);
	unsigned long long *s = tg_host(&gpu, ds), want;
	uint64_t p[3] = { din, ds, (uint64_t)n };
	double t0;

	for (int i = 0; i < n; i++)
		in[i] = (unsigned)(i * 2654435761u) >> 20;
	*s = 0;
	r->name = "reduce";
	run("reduce", 256, 1, 256, 1, p, 20, r);
	t0 = now();
	want = c_reduce(in, n);
	r->t_c = now() - t0;
	r->ok = *s == want;
}

static void bench_divergent(int n, struct result *r)
{
	uint64_t din = tg_alloc(&gpu, (size_t)n * 4), dout = tg_alloc(&gpu, (size_t)n * 4);
	int *in = tg_host(&gpu, din), *out = tg_host(&gpu, dout), *ref;
	uint64_t p[3] = { din, dout, (uint64_t)n };
	double t0;

	ref = malloc((size_t)n * 4);
	for (int i = 0; i < n; i++)
		in[i] = (int)((unsigned)(i * 2246822519u) >> 8);
	r->name = "divergent";
	run("divergent", (n + 255) / 256, 1, 256, 1, p, 20, r);
	t0 = now();
	for (int i = 0; i < n; i++)
		ref[i] = c_divergent_one(in[i]);
	r->t_c = now() - t0;
	r->ok = !memcmp(ref, out, (size_t)n * 4);
	free(ref);
}

static void bench_alu(int n, int iters, struct result *r)
{
	uint64_t dout = tg_alloc(&gpu, (size_t)n * 4);
	float *out = tg_host(&gpu, dout);
	uint64_t p[2] = { dout, (uint64_t)iters };
	double t0;
	int bad = 0;

	r->name = "alu";
	run("alu", (uint32_t)n / 256, 1, 256, 1, p, 12, r);
	t0 = now();
	for (int i = 0; i < n; i++) {
		float v = c_alu_one(i, iters);

		sink_f = v;
		/* -O2 C keeps x*a+b unfused: allow the fma difference */
		bad += i < 64 && out[i] != v && !(out[i] - v < 1e-2f * (v < 0 ? -v : v) &&
					     v - out[i] < 1e-2f * (v < 0 ? -v : v));
	}
	r->t_c = now() - t0;
	r->ok = !bad;
}

int main(int argc, char **argv)
{
	struct vgpu_ptx_source src = { .name = BENCH_PTX };
	struct vgpu_ptx_diag diag;
	struct result r[5];
	const char *only = NULL;
	int nr = 0;
	bool quick = false;
	char err[256];
	void *img;
	size_t size;
	int opt, scale;

	while ((opt = getopt(argc, argv, "s:qk:")) != -1) {
		if (opt == 's')
			sms = (unsigned int)atoi(optarg);
		else if (opt == 'q')
			quick = true;
		else if (opt == 'k')
			only = optarg;
		else {
			fprintf(stderr, "usage: %s [-s SMS] [-q] [-k KERNEL]\n",
				argv[0]);
			return 2;
		}
	}
	if (!sms)
		sms = 1;
	scale = quick ? 16 : 1;
	src.text = tg_read_text(BENCH_PTX);
	if (!src.text) {
		fprintf(stderr, "cannot read %s\n", BENCH_PTX);
		return 1;
	}
	src.len = strlen(src.text);
	if (vgpu_ptx_compile(&src, 1, NULL, &img, &size, &diag)) {
		vgpu_ptx_format_diag(&diag, err, sizeof(err));
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (tg_init(&gpu, sms) || tg_load(&gpu, img, size, &mod, err, sizeof(err))) {
		fprintf(stderr, "cannot set up the core: %s\n", err);
		return 1;
	}
	vgpu_ptx_free(img);
	free((void *)src.text);

#define WANT(name) (!only || !strcmp(only, name))
	if (WANT("vectorAdd"))
		bench_vector_add((16 << 20) / scale, &r[nr++]);
	if (WANT("matmul"))
		bench_matmul(quick ? 128 : 512, &r[nr++]);
	if (WANT("reduce"))
		bench_reduce((16 << 20) / scale, &r[nr++]);
	if (WANT("divergent"))
		bench_divergent((1 << 20) / scale, &r[nr++]);
	if (WANT("alu"))
		bench_alu((1 << 18) / scale, 16, &r[nr++]);
	sink_i = 0;

	printf("vgpu-core-bench: %u SM worker thread%s (per-core = per SM thread), "
	       "host vector level %s\n", sms, sms == 1 ? "" : "s",
	       core_simd_name());
	printf("(VGPU_CORE_SIMD=");
	for (const char *const *lv = core_simd_levels(); *lv; lv++)
		printf("%s%s", *lv, lv[1] ? "|" : "");
	printf(" chooses another)\n\n");
	printf("%-12s %10s %14s %9s %10s %9s %9s\n", "kernel", "threads",
	       "thread-insns", "core cpu-s", "Gti/s/core", "C cpu-s", "slowdown");
	for (int i = 0; i < nr; i++)
		print_result(&r[i]);
	tg_unload(&mod);
	tg_fini(&gpu);
	for (int i = 0; i < nr; i++)
		if (!r[i].ok)
			return 1;
	return 0;
}
