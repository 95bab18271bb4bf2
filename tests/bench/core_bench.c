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
 * slowdown compares CPU seconds with the C version's.  Wall seconds are
 * printed next to them.
 *
 * Every measurement is warm: each C loop and each launch runs once
 * untimed first (page faults on first touch of a fresh malloc() would
 * otherwise be charged to whichever runs first - they cost plain C's
 * vectorAdd half its time), then REPS times, and the fastest run counts.
 *
 * Each kernel runs on the interpreter and on the native tier
 * (firmware_sim/jit/, LLVM-compiled) in the same process, one after the
 * other from the same inputs; the native tier's functions are compiled
 * before the timed runs, and the compile time is printed per kernel.
 *
 * When OpenCL with a CPU device is installed (POCL, Debian's
 * pocl-opencl-icd; loaded at run time, pocl_bench.c), the same kernels
 * run on it too, in the same process, timed the same way.
 *
 * Scaling: each kernel also runs on the native tier on a core of one SM
 * and of two SMs (wall time, the fastest of REPS): near 2x on two idle
 * cores; on a shared machine the ratio says how much CPU was free.
 *
 *   vgpu-core-bench [-s SMS] [-q] [-k KERNEL] [-t TIER] [-n]
 *     -q  smaller sizes, for a smoke run
 *     -k  run only KERNEL (vectorAdd, matmul, reduce, divergent, alu)
 *     -t  interp, native or both (default both)
 *     -n  no POCL and no scaling runs
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pocl_bench.h"
#include "ptx/ptx_compiler.h"
#include "simd.h"
#include "test_gpu.h"
#include "vgpu_jit.h"

#ifndef BENCH_PTX
#define BENCH_PTX "build/tests/bench/bench_kernels.ptx"
#endif

static struct test_gpu gpu;
static struct tg_module mod;
static unsigned int sms = 1;
static bool extras = true;		/* POCL and the scaling runs */
static bool have_pocl;
static struct vgpu_core *scale_core[2];	/* 1 and 2 SMs */
static char pocl_device[320];

/* Which tiers run: bit (1 << enum vgpu_tier). */
static unsigned int tiers = 3;
#define NTIERS 2

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

static double wall_now(void)
{
	return cpu_now(CLOCK_MONOTONIC);
}

/* Timed runs after the warm-up; the fastest counts. */
#define REPS 3

/*
 * Time @stmt, plain C on this thread: once to warm the buffers and the
 * caches, then REPS times; the fastest CPU time goes to @t_cpu.
 */
#define TIME_C(t_cpu, stmt) do {					\
		double t0_;						\
									\
		stmt;							\
		(t_cpu) = 1e30;						\
		for (int rep_ = 0; rep_ < REPS; rep_++) {		\
			t0_ = now();					\
			stmt;						\
			t0_ = now() - t0_;				\
			(t_cpu) = t0_ < (t_cpu) ? t0_ : (t_cpu);	\
		}							\
	} while (0)

struct result {
	const char *name;
	uint64_t threads;
	double t_core[NTIERS], t_c;	/* CPU seconds */
	double w_core[NTIERS];		/* wall seconds */
	double jit_ms;			/* compiling the kernel's function */
	bool jit_cached;		/* ... or loading it from the cache */
	double t_pocl, w_pocl;		/* POCL: CPU and wall seconds */
	int ok_pocl;			/* -1: not run */
	double w_scale[2];		/* native tier, 1 and 2 SMs: wall s */
	uint64_t thread_insns;
	int ok[NTIERS];
};

static void print_result(const struct result *r)
{
	for (int t = 0; t < NTIERS; t++) {
		/* t_core is CPU time summed over the SM threads */
		double per_core = r->thread_insns / r->t_core[t];

		if (!((tiers >> t) & 1))
			continue;
		printf("%-12s %-6s %10llu %14llu %9.4f %9.4f %10.3f %9.4f %8.2fx  %s\n",
		       r->name, vgpu_jit_tier_name(t),
		       (unsigned long long)r->threads,
		       (unsigned long long)r->thread_insns, r->t_core[t],
		       r->w_core[t], per_core / 1e9, r->t_c,
		       r->t_core[t] / r->t_c,
		       r->ok[t] ? "ok" : "WRONG");
	}
	if (r->ok_pocl >= 0)
		printf("%-12s %-6s %10llu %14s %9.4f %9.4f %10s %9.4f %8.2fx  "
		       "%s\n", r->name, "pocl",
		       (unsigned long long)r->threads, "-", r->t_pocl,
		       r->w_pocl, "-", r->t_c, r->t_pocl / r->t_c,
		       r->ok_pocl ? "ok" : "WRONG");
}

/*
 * The kernel's function compiled now, outside the timed runs (or loaded
 * from the compute cache, where an earlier run left it): its ms.
 */
static double jit_compile(const char *k, struct result *r)
{
	struct vgpu_jit_stats before, after;

	if (!((tiers >> VGPU_TIER_NATIVE) & 1))
		return 0;
	vgpu_jit_module_stats(mod.mod, &before);
	vgpu_jit_module_compile(mod.mod,
				vgpu_core_module_find_kernel(mod.mod, k));
	vgpu_jit_module_stats(mod.mod, &after);
	r->jit_cached = after.funcs_cached > before.funcs_cached;
	return after.compile_ms - before.compile_ms;
}

/*
 * Launch @k on tier @tier: once untimed, then REPS times, keeping the
 * fastest.  @reset (reset_len bytes) is zeroed before each launch, for
 * kernels that accumulate into their output.
 */
static int run(const char *k, int tier, uint32_t gx, uint32_t gy,
	       uint32_t bx, uint32_t by, const void *params, uint32_t psize,
	       void *reset, size_t reset_len, struct result *r)
{
	struct vgpu_core_fault f;
	struct vgpu_core_stats st;
	double t0, w0;
	int ret = 0;

	vgpu_jit_module_select(mod.mod, tier);
	r->t_core[tier] = r->w_core[tier] = 1e30;
	for (int rep = -1; rep < REPS && !ret; rep++) {
		if (reset)
			memset(reset, 0, reset_len);
		t0 = process_now();
		w0 = wall_now();
		ret = tg_launch(&gpu, &mod, k, (uint32_t[3]){ gx, gy, 1 },
				(uint32_t[3]){ bx, by, 1 }, 0, params, psize,
				&f);
		t0 = process_now() - t0;
		w0 = wall_now() - w0;
		if (rep < 0)
			continue;	/* the warm-up */
		if (t0 < r->t_core[tier])
			r->t_core[tier] = t0;
		if (w0 < r->w_core[tier])
			r->w_core[tier] = w0;
	}
	vgpu_core_get_stats(gpu.core, &st);
	r->thread_insns = st.thread_insns;	/* per launch */
	r->threads = (uint64_t)gx * gy * bx * by;
	if (ret)
		fprintf(stderr, "%s: %s (%s)\n", k, vgpu_core_fault_name(f.kind),
			f.message);
	return ret;
}

/*
 * The native tier's launch of @k on a core of one SM and one of two
 * (wall seconds, the fastest of REPS after a warm-up).
 */
static void scale_run(const char *k, uint32_t gx, uint32_t gy, uint32_t bx,
		      uint32_t by, const void *params, uint32_t psize,
		      void *reset, size_t reset_len, struct result *r)
{
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;

	if (!extras || !scale_core[1] || !((tiers >> VGPU_TIER_NATIVE) & 1))
		return;
	vgpu_jit_module_select(mod.mod, VGPU_TIER_NATIVE);
	tg_launch_desc(&gpu, &mod, k, (uint32_t[3]){ gx, gy, 1 },
		       (uint32_t[3]){ bx, by, 1 }, 0, params, psize, &l);
	for (int c = 0; c < 2; c++) {
		r->w_scale[c] = 1e30;
		for (int rep = -1; rep < REPS; rep++) {
			double w0;

			if (reset)
				memset(reset, 0, reset_len);
			w0 = wall_now();
			if (vgpu_core_launch(scale_core[c], &l, &f))
				fprintf(stderr, "%s: %s\n", k,
					vgpu_core_fault_name(f.kind));
			w0 = wall_now() - w0;
			if (rep >= 0 && w0 < r->w_scale[c])
				r->w_scale[c] = w0;
		}
	}
}

/* POCL's run of @k, when there is POCL. */
static bool pocl_want(struct result *r)
{
	r->ok_pocl = -1;
	return extras && have_pocl;
}

static void pocl_time(const char *k, unsigned int dims, const size_t *global,
		      const size_t *local, struct pocl_arg *args,
		      unsigned int nargs, struct result *r)
{
	if (pocl_run(k, dims, global, local, args, nargs, REPS, &r->t_pocl,
		     &r->w_pocl))
		r->ok_pocl = 0;
	else
		r->ok_pocl = 1;	/* the caller checks the output */
}

#define FOR_TIERS(t) \
	for (int t = 0; t < NTIERS; t++) if ((tiers >> t) & 1)

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

	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = (float)(n - i) * 0.5f;
	}
	r->name = "vectorAdd";
	r->jit_ms = jit_compile("vector_add", r);
	TIME_C(r->t_c, c_vector_add(a, b, ref, n));
	FOR_TIERS(t) {
		memset(c, 0, (size_t)n * 4);
		run("vector_add", t, (n + 255) / 256, 1, 256, 1, p, 28, NULL, 0,
		    r);
		r->ok[t] = !memcmp(ref, c, (size_t)n * 4);
	}
	scale_run("vector_add", (n + 255) / 256, 1, 256, 1, p, 28, NULL, 0, r);
	if (pocl_want(r)) {
		struct pocl_arg a_[4] = {
			{ a, (size_t)n * 4, true, false },
			{ b, (size_t)n * 4, true, false },
			{ c, (size_t)n * 4, true, true },
			{ &n, 4, false, false },
		};
		size_t gl = (size_t)(n + 255) / 256 * 256, lo = 256;

		memset(c, 0, (size_t)n * 4);
		pocl_time("vector_add", 1, &gl, &lo, a_, 4, r);
		r->ok_pocl &= !memcmp(ref, c, (size_t)n * 4);
	}
	free(ref);
}

static void bench_matmul(int n, struct result *r)
{
	size_t sz = (size_t)n * n * 4;
	uint64_t dA = tg_alloc(&gpu, sz), dB = tg_alloc(&gpu, sz), dC = tg_alloc(&gpu, sz);
	float *A = tg_host(&gpu, dA), *B = tg_host(&gpu, dB), *C = tg_host(&gpu, dC);
	float *ref = malloc(sz);
	uint64_t p[4] = { dA, dB, dC, (uint64_t)n };
	double maxerr = 0;

	for (int i = 0; i < n * n; i++) {
		A[i] = (float)(i % 17) * 0.25f;
		B[i] = (float)(i % 13) * 0.5f;
	}
	r->name = "matmul";
	r->jit_ms = jit_compile("matmul", r);
	TIME_C(r->t_c, c_matmul(A, B, ref, n));
	FOR_TIERS(t) {
		run("matmul", t, n / 16, n / 16, 16, 16, p, 28, C, sz, r);
		maxerr = 0;
		for (int i = 0; i < n * n; i++) {
			double e = ref[i] - C[i];

			maxerr = e > maxerr ? e : -e > maxerr ? -e : maxerr;
		}
		r->ok[t] = maxerr <= 1e-3 * n;	/* fma vs mul+add rounding */
	}
	scale_run("matmul", n / 16, n / 16, 16, 16, p, 28, C, sz, r);
	if (pocl_want(r)) {
		struct pocl_arg a_[4] = {
			{ A, sz, true, false }, { B, sz, true, false },
			{ C, sz, true, true }, { &n, 4, false, false },
		};
		size_t gl[2] = { (size_t)n, (size_t)n }, lo[2] = { 16, 16 };

		memset(C, 0, sz);
		pocl_time("matmul", 2, gl, lo, a_, 4, r);
		maxerr = 0;
		for (int i = 0; i < n * n; i++) {
			double e = ref[i] - C[i];

			maxerr = e > maxerr ? e : -e > maxerr ? -e : maxerr;
		}
		r->ok_pocl &= maxerr <= 1e-3 * n;
	}
	free(ref);
}

static void bench_reduce(int n, struct result *r)
{
	uint64_t din = tg_alloc(&gpu, (size_t)n * 4), ds = tg_alloc(&gpu, 8);
	unsigned *in = tg_host(&gpu, din);
	unsigned long long *s = tg_host(&gpu, ds), want;
	uint64_t p[3] = { din, ds, (uint64_t)n };

	for (int i = 0; i < n; i++)
		in[i] = (unsigned)(i * 2654435761u) >> 20;
	r->name = "reduce";
	r->jit_ms = jit_compile("reduce", r);
	TIME_C(r->t_c, want = c_reduce(in, n));
	FOR_TIERS(t) {
		run("reduce", t, 256, 1, 256, 1, p, 20, s, sizeof(*s), r);
		r->ok[t] = *s == want;
	}
	scale_run("reduce", 256, 1, 256, 1, p, 20, s, sizeof(*s), r);
	if (pocl_want(r)) {
		unsigned long long sum = 0;
		struct pocl_arg a_[3] = {
			{ in, (size_t)n * 4, true, false },
			{ &sum, sizeof(sum), true, true },
			{ &n, 4, false, false },
		};
		size_t gl = 256 * 256, lo = 256;

		pocl_time("reduce", 1, &gl, &lo, a_, 3, r);
		r->ok_pocl &= sum == want;
	}
}

static void bench_divergent(int n, struct result *r)
{
	uint64_t din = tg_alloc(&gpu, (size_t)n * 4), dout = tg_alloc(&gpu, (size_t)n * 4);
	int *in = tg_host(&gpu, din), *out = tg_host(&gpu, dout), *ref;
	uint64_t p[3] = { din, dout, (uint64_t)n };

	ref = malloc((size_t)n * 4);
	for (int i = 0; i < n; i++)
		in[i] = (int)((unsigned)(i * 2246822519u) >> 8);
	r->name = "divergent";
	r->jit_ms = jit_compile("divergent", r);
	TIME_C(r->t_c, for (int i = 0; i < n; i++)
			       ref[i] = c_divergent_one(in[i]));
	FOR_TIERS(t) {
		run("divergent", t, (n + 255) / 256, 1, 256, 1, p, 20, out,
		    (size_t)n * 4, r);
		r->ok[t] = !memcmp(ref, out, (size_t)n * 4);
	}
	scale_run("divergent", (n + 255) / 256, 1, 256, 1, p, 20, NULL, 0, r);
	if (pocl_want(r)) {
		struct pocl_arg a_[3] = {
			{ in, (size_t)n * 4, true, false },
			{ out, (size_t)n * 4, true, true },
			{ &n, 4, false, false },
		};
		size_t gl = (size_t)(n + 255) / 256 * 256, lo = 256;

		memset(out, 0, (size_t)n * 4);
		pocl_time("divergent", 1, &gl, &lo, a_, 3, r);
		r->ok_pocl &= !memcmp(ref, out, (size_t)n * 4);
	}
	free(ref);
}

/* -O2 C keeps x*a+b unfused: allow the fma difference */
static int alu_bad(const float *out, const float *ref)
{
	int bad = 0;

	for (int i = 0; i < 64; i++) {
		float v = ref[i], e = v < 0 ? -v : v;

		bad += out[i] != v && !(out[i] - v < 1e-2f * e &&
					v - out[i] < 1e-2f * e);
	}
	return bad;
}

static void bench_alu(int n, int iters, struct result *r)
{
	uint64_t dout = tg_alloc(&gpu, (size_t)n * 4);
	float *out = tg_host(&gpu, dout);
	uint64_t p[2] = { dout, (uint64_t)iters };
	float *ref = malloc(64 * sizeof(*ref));

	r->name = "alu";
	r->jit_ms = jit_compile("alu", r);
	TIME_C(r->t_c, for (int i = 0; i < n; i++) {
			       float v = c_alu_one(i, iters);

			       sink_f = v;
			       if (i < 64)
				       ref[i] = v;
		       });
	FOR_TIERS(t) {
		run("alu", t, (uint32_t)n / 256, 1, 256, 1, p, 12, out,
		    (size_t)n * 4, r);
		r->ok[t] = !alu_bad(out, ref);
	}
	scale_run("alu", (uint32_t)n / 256, 1, 256, 1, p, 12, NULL, 0, r);
	if (pocl_want(r)) {
		struct pocl_arg a_[2] = {
			{ out, (size_t)n * 4, true, true },
			{ &iters, 4, false, false },
		};
		size_t gl = (size_t)n, lo = 256;

		memset(out, 0, (size_t)n * 4);
		pocl_time("alu", 1, &gl, &lo, a_, 2, r);
		r->ok_pocl &= !alu_bad(out, ref);
	}
	free(ref);
}

int main(int argc, char **argv)
{
	struct vgpu_ptx_source src = { .name = BENCH_PTX };
	struct vgpu_ptx_diag diag;
	struct result r[5] = { 0 };
	const char *only = NULL;
	int nr = 0;
	bool quick = false;
	char err[256];
	void *img;
	size_t size;
	int opt, scale;

	while ((opt = getopt(argc, argv, "s:qk:t:n")) != -1) {
		if (opt == 'n') {
			extras = false;
		} else if (opt == 's') {
			sms = (unsigned int)atoi(optarg);
		} else if (opt == 'q') {
			quick = true;
		} else if (opt == 'k') {
			only = optarg;
		} else if (opt == 't' && !strcmp(optarg, "both")) {
			tiers = 3;
		} else if (opt == 't' && vgpu_jit_parse_tier(optarg) >= 0) {
			tiers = 1u << vgpu_jit_parse_tier(optarg);
		} else {
			fprintf(stderr, "usage: %s [-s SMS] [-q] [-k KERNEL] "
				"[-t interp|native|both] [-n]\n", argv[0]);
			return 2;
		}
	}
	/* modules get a native tier; each run selects its tier */
	if ((tiers >> VGPU_TIER_NATIVE) & 1)
		vgpu_jit_set_tier(VGPU_TIER_NATIVE);
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
	if (tg_init(&gpu, sms)) {
		fprintf(stderr, "cannot set up the core\n");
		return 1;
	}
	if (!((tiers >> VGPU_TIER_NATIVE) & 1))
		vgpu_jit_set_tier(VGPU_TIER_INTERP);
	if (tg_load(&gpu, img, size, &mod, err, sizeof(err))) {
		fprintf(stderr, "cannot set up the core: %s\n", err);
		return 1;
	}
	gpu.both_tiers = false;	/* one run per tier, timed */
	if (((tiers >> VGPU_TIER_NATIVE) & 1) &&
	    vgpu_jit_module_select(mod.mod, VGPU_TIER_NATIVE)) {
		fprintf(stderr, "the native tier is not available\n");
		tiers &= ~(1u << VGPU_TIER_NATIVE);
	}
	vgpu_ptx_free(img);
	free((void *)src.text);
	if (extras) {
		char why[256];

		have_pocl = !pocl_open(pocl_device, sizeof(pocl_device), why,
				       sizeof(why));
		if (!have_pocl)
			snprintf(pocl_device, sizeof(pocl_device),
				 "not run: %s", why);
		for (int c = 0; c < 2; c++)
			scale_core[c] = vgpu_core_create(
				&(struct vgpu_core_config){ .num_sms = c + 1 });
	}

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
	printf("%-12s %-6s %10s %14s %9s %9s %10s %9s %9s\n", "kernel", "tier",
	       "threads", "thread-insns", "cpu-s", "wall-s", "Gti/s/core",
	       "C cpu-s", "slowdown");
	for (int i = 0; i < nr; i++)
		print_result(&r[i]);
	if (tiers == 3) {
		printf("\n%-12s %12s %14s\n", "kernel", "native vs", "jit compile");
		printf("%-12s %12s %14s\n", "", "interpreter", "(ms, once)");
		for (int i = 0; i < nr; i++)
			printf("%-12s %11.1fx %14.1f%s\n", r[i].name,
			       r[i].t_core[VGPU_TIER_INTERP] /
			       r[i].t_core[VGPU_TIER_NATIVE], r[i].jit_ms,
			       r[i].jit_cached ? " (from the cache)" : "");
	}
	if (extras) {
		printf("\npocl: %s\n", pocl_device);
		printf("\nscaling, native tier, wall time (%ld CPUs online; "
		       "other load on the machine lowers it):\n",
		       sysconf(_SC_NPROCESSORS_ONLN));
		printf("%-12s %10s %10s %9s\n", "kernel", "1 SM s", "2 SMs s",
		       "speed-up");
		for (int i = 0; i < nr; i++)
			if (r[i].w_scale[1] > 0)
				printf("%-12s %10.4f %10.4f %8.2fx\n", r[i].name,
				       r[i].w_scale[0], r[i].w_scale[1],
				       r[i].w_scale[0] / r[i].w_scale[1]);
	}
	for (int c = 0; c < 2; c++)
		if (scale_core[c])
			vgpu_core_destroy(scale_core[c]);
	if (have_pocl)
		pocl_close();
	tg_unload(&mod);
	tg_fini(&gpu);
	for (int i = 0; i < nr; i++)
		FOR_TIERS(t)
			if (!r[i].ok[t] || !r[i].ok_pocl)
				return 1;
	return 0;
}
