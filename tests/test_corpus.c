// SPDX-License-Identifier: GPL-2.0
/*
 * test_corpus.c - the CUDA kernel corpus (tests/corpus (one .cu per topic)), compiled by
 * nvcc to PTX for sm_75 and sm_90 at build time, compiled to vISA by the PTX compiler, run on
 * the execution core, and checked against CPU references computed here.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_compiler.h"
#include "tap.h"
#include "test_gpu.h"

#ifndef CORPUS_PTX_DIR
#define CORPUS_PTX_DIR "build/tests/corpus"
#endif

static struct test_gpu gpu;
static struct tap t;
static const char *arch;	/* PTX target: the subdirectory of PTX files */
static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* Compile and load corpus modules (several are linked together). */
static int load(struct tg_module *m, const char *a, const char *b)
{
	const char *names[2] = { a, b };
	struct vgpu_ptx_source src[2];
	struct vgpu_ptx_diag diag;
	char path[2][512], err[256];
	unsigned int n = b ? 2 : 1;
	void *img = NULL;
	size_t size = 0;
	int ret = -1;

	memset(src, 0, sizeof(src));
	for (unsigned int i = 0; i < n; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/%s/%s.ptx", CORPUS_PTX_DIR,
			 arch, names[i]);
		src[i].name = path[i];
		src[i].text = tg_read_text(path[i]);
		src[i].len = src[i].text ? strlen(src[i].text) : 0;
		if (!src[i].text) {
			tap_ok(&t, 0, "%s: cannot read %s", a, path[i]);
			goto out;
		}
	}
	if (vgpu_ptx_compile(src, n, NULL, &img, &size, &diag)) {
		vgpu_ptx_format_diag(&diag, err, sizeof(err));
		tap_ok(&t, 0, "%s compiles: %s", a, err);
		goto out;
	}
	ret = tg_load(&gpu, img, size, m, err, sizeof(err));
	tap_ok(&t, ret == 0, "%s%s%s compiles and validates%s%s", a,
	       b ? " + " : "", b ? b : "", ret ? ": " : "", ret ? err : "");
out:
	vgpu_ptx_free(img);
	for (unsigned int i = 0; i < n; i++)
		free((void *)src[i].text);
	return ret;
}

static int launch(struct tg_module *m, const char *k, uint32_t gx, uint32_t gy,
		  uint32_t bx, uint32_t by, uint32_t dyn, const void *p,
		  uint32_t psize, struct vgpu_core_fault *f)
{
	uint32_t grid[3] = { gx, gy, 1 }, block[3] = { bx, by, 1 };
	int r = tg_launch(&gpu, m, k, grid, block, dyn, p, psize, f);

	if (r)
		tap_diag("%s: launch returned %d: %s (%s) line %u", k, r,
			 vgpu_core_fault_name(f->kind), f->message, f->line);
	return r;
}

/* Parameter buffers as nvcc lays them out: pointers 8, ints 4. */
struct pbuf {
	uint8_t b[256];
	uint32_t n;
};

static void p_u64(struct pbuf *p, uint64_t v)
{
	p->n = (p->n + 7) & ~7u;
	memcpy(p->b + p->n, &v, 8);
	p->n += 8;
}

static void p_u32(struct pbuf *p, uint32_t v)
{
	p->n = (p->n + 3) & ~3u;
	memcpy(p->b + p->n, &v, 4);
	p->n += 4;
}

/* ---- arith_int ------------------------------------------------------------ */

static void ref_int(int x, int y, long long *o)
{
	unsigned ux = (unsigned)x, uy = (unsigned)y;
	long long lx = (long long)x * 0x10001, ly = y;
	unsigned long long ulx = (unsigned long long)lx, uly = (unsigned long long)ly;
	short sx = (short)x;
	signed char cx = (signed char)y;
	long long d = (long long)x - y;

	o[0] = (int)(ux + uy);
	o[1] = (int)(ux - uy);
	o[2] = (int)(ux * uy);
	o[3] = x / y;
	o[4] = x % y;
	o[5] = ux / uy;
	o[6] = ux % uy;
	o[7] = (int)(ux << (y & 31));
	o[8] = x >> (y & 31);
	o[9] = ux >> (y & 31);
	o[10] = x & y;
	o[11] = x | y;
	o[12] = x ^ ~y;
	o[13] = x < y ? x : y;
	o[14] = ux > uy ? ux : uy;
	o[15] = x < 0 ? -x : x;
	o[16] = __builtin_popcount(ux);
	o[17] = ux ? __builtin_clz(ux) : 32;
	{
		unsigned r = 0;

		for (int k = 0; k < 32; k++)
			r |= ((ux >> k) & 1) << (31 - k);
		o[18] = r;
	}
	o[19] = x ? __builtin_ctz(ux) + 1 : 0;
	o[20] = (int)(((long long)x * y) >> 32);
	o[21] = (unsigned)(((unsigned long long)ux * uy) >> 32);
	o[22] = (long long)(ulx * uly);
	o[23] = lx / ly;
	o[24] = (long long)(ulx % uly);
	o[25] = lx >> (y & 63);
	o[26] = sx * 3 + cx;
	o[27] = (unsigned short)x + (unsigned char)y;
	o[28] = (long long)(((__int128)lx * ly) >> 64);
	o[29] = __builtin_popcountll(ulx) + (ulx ? __builtin_clzll(ulx) : 64);
	o[30] = x > y ? (int)(ux - uy) : (int)(uy * 2);
	o[31] = (unsigned)((d < 0 ? -d : d) + 7);
}

static void test_arith_int(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 2000, nops = 32;
	uint64_t da = tg_alloc(&gpu, n * 4), db = tg_alloc(&gpu, n * 4);
	uint64_t dout = tg_alloc(&gpu, (size_t)n * nops * 8);
	int *a = tg_host(&gpu, da), *b = tg_host(&gpu, db);
	long long *out = tg_host(&gpu, dout), ref[32];
	struct pbuf p = { .n = 0 };
	int bad = 0;

	if (load(&m, "arith_int", NULL))
		return;
	for (int i = 0; i < n; i++) {
		a[i] = (int)rnd() / 2;
		switch (i % 4) {
		case 0: b[i] = (int)(rnd() % 2000) - 1000; break;
		case 1: b[i] = (int)rnd(); break;
		case 2: b[i] = (int)(rnd() % 64); break;
		default: b[i] = -1 - (int)(rnd() % 3); break;
		}
		if (!b[i])
			b[i] = 3;
	}
	p_u64(&p, da);
	p_u64(&p, db);
	p_u64(&p, dout);
	p_u32(&p, n);
	if (launch(&m, "int_ops", (n + 127) / 128, 1, 128, 1, 0, p.b, p.n, &f)) {
		tap_ok(&t, 0, "int_ops runs");
		return;
	}
	for (int i = 0; i < n; i++) {
		ref_int(a[i], b[i], ref);
		for (int k = 0; k < nops; k++)
			if (out[i * nops + k] != ref[k] && bad++ < 5)
				tap_diag("int_ops(%d, %d) op %d: got %lld want %lld",
					 a[i], b[i], k, out[i * nops + k], ref[k]);
	}
	tap_ok(&t, bad == 0, "integer arithmetic of every width (%d x %d "
	       "results, %d wrong)", n, nops, bad);
	tg_unload(&m);
}

/* ---- arith_float ---------------------------------------------------------- */

static uint32_t fb(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static uint16_t hb(_Float16 h)
{
	uint16_t u;

	memcpy(&u, &h, 2);
	return u;
}

/* Directed roundings computed under fesetround(); noinline and volatile
 * keep the compiler from moving the operations out of the mode. */
static __attribute__((noinline)) float in_mode(int mode, int op, float x,
					       float y, float z)
{
	volatile float a = x, b = y, c = z, r;
	int old = fegetround();

	fesetround(mode);
	switch (op) {
	case 0: r = a + b; break;
	case 1: r = a * b; break;
	case 2: r = a / b; break;
	case 3: r = sqrtf(a); break;
	default: r = fmaf(a, b, c); break;
	}
	fesetround(old);
	return r;
}

static void ref_float(float x, float y, uint32_t *o)
{
	double dx = x, dy = y;

	o[0] = fb(x + y);
	o[1] = fb(x - y);
	o[2] = fb(x * y);
	o[3] = fb(x / y);
	o[4] = fb(fmaf(x, y, 1.5f));
	o[5] = fb(sqrtf(fabsf(x)));
	o[6] = fb(fminf(x, y));
	o[7] = fb(fmaxf(x, y));
	o[8] = fb(floorf(x));
	o[9] = fb(ceilf(y));
	o[10] = fb(truncf(x));
	o[11] = fb(rintf(y));
	o[12] = (uint32_t)(int)x;
	o[13] = fb((float)(int)y);
	o[14] = fb(in_mode(FE_TOWARDZERO, 0, x, y, 0));
	o[15] = fb(in_mode(FE_UPWARD, 1, x, y, 0));
	o[16] = fb(in_mode(FE_DOWNWARD, 2, x, y, 0));
	o[17] = fb(in_mode(FE_UPWARD, 3, fabsf(y), 0, 0));
	o[18] = fb(in_mode(FE_TOWARDZERO, 4, x, y, -x));
	o[19] = fb((float)(dx * dy + 0.25));
	o[20] = fb((float)(dx / 3.0));
	o[21] = fb((float)sqrt(fabs(dx * dy)));
	o[22] = (uint32_t)(long long)(dx * 1e6);
	o[23] = hb((_Float16)x);
	{
		_Float16 h = (_Float16)x + (_Float16)y;

		/* the GPU's f16 NaN is 0x7fff (tests/golden/h100.txt) */
		o[24] = h != h ? 0x7fff : hb(h);
	}
	o[25] = fb((float)(_Float16)((_Float16)x * (_Float16)y));
	o[26] = fb(copysignf(x, y));
	o[27] = x < y ? 1u : (x == y ? 2u : (x > y ? 3u : 4u));
}

static float rnd_float(void)
{
	uint32_t r = rnd();
	float mant = 1.0f + (float)(r & 0xfffff) / 1048576.0f;
	int e = (int)((r >> 20) % 30) - 10;

	if ((r >> 28) % 5 == 0)
		return (float)((int)(r % 200) - 100) * 0.5f;	/* ties, ints */
	return ldexpf(mant, e) * ((r >> 31) ? -1.0f : 1.0f);
}

static void test_arith_float(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 2000, nf = 28;
	uint64_t da = tg_alloc(&gpu, n * 4), db = tg_alloc(&gpu, n * 4);
	uint64_t dout = tg_alloc(&gpu, (size_t)n * nf * 4);
	float *a = tg_host(&gpu, da), *b = tg_host(&gpu, db);
	uint32_t *out = tg_host(&gpu, dout), ref[28];
	struct pbuf p = { .n = 0 };
	int bad = 0;

	if (load(&m, "arith_float", NULL))
		return;
	for (int i = 0; i < n; i++) {
		a[i] = rnd_float();
		b[i] = rnd_float();
		if (b[i] == 0)
			b[i] = 1.0f;
	}
	p_u64(&p, da);
	p_u64(&p, db);
	p_u64(&p, dout);
	p_u32(&p, n);
	if (launch(&m, "float_ops", (n + 127) / 128, 1, 128, 1, 0, p.b, p.n,
		   &f)) {
		tap_ok(&t, 0, "float_ops runs");
		return;
	}
	for (int i = 0; i < n; i++) {
		ref_float(a[i], b[i], ref);
		for (int k = 0; k < nf; k++)
			if (out[i * nf + k] != ref[k] && bad++ < 5)
				tap_diag("float_ops(%a, %a) op %d: got %08x want "
					 "%08x", a[i], b[i], k, out[i * nf + k],
					 ref[k]);
	}
	tap_ok(&t, bad == 0, "IEEE float arithmetic bit-exact (%d x %d "
	       "results, %d wrong)", n, nf, bad);
	tg_unload(&m);
}

/* ---- matmul ------------------------------------------------------------------ */

static void test_matmul(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int M = 70, N = 50, K = 40, TILE = 16;
	uint64_t dA = tg_alloc(&gpu, M * K * 4), dB = tg_alloc(&gpu, K * N * 4);
	uint64_t dC = tg_alloc(&gpu, M * N * 4);
	float *A = tg_host(&gpu, dA), *B = tg_host(&gpu, dB);
	float *C = tg_host(&gpu, dC);
	struct pbuf p = { .n = 0 };
	int bad = 0;

	if (load(&m, "matmul_tiled", NULL))
		return;
	for (int i = 0; i < M * K; i++)
		A[i] = (float)((int)(rnd() % 200) - 100) / 16.0f;
	for (int i = 0; i < K * N; i++)
		B[i] = (float)((int)(rnd() % 200) - 100) / 8.0f;
	p_u64(&p, dA);
	p_u64(&p, dB);
	p_u64(&p, dC);
	p_u32(&p, M);
	p_u32(&p, N);
	p_u32(&p, K);
	if (launch(&m, "matmul", (N + TILE - 1) / TILE, (M + TILE - 1) / TILE,
		   TILE, TILE, 0, p.b, p.n, &f)) {
		tap_ok(&t, 0, "matmul runs");
		return;
	}
	for (int r = 0; r < M; r++)
		for (int c = 0; c < N; c++) {
			float acc = 0;

			/* the same fma order as the kernel, zero padding */
			for (int k = 0; k < (K + TILE - 1) / TILE * TILE; k++)
				acc = fmaf(k < K ? A[r * K + k] : 0.0f,
					   k < K ? B[k * N + c] : 0.0f, acc);
			bad += fb(C[r * N + c]) != fb(acc);
		}
	tap_ok(&t, bad == 0, "shared-memory tiled matmul %dx%dx%d (%d wrong)",
	       M, N, K, bad);
	tg_unload(&m);
}

/* ---- reductions, scans, histogram, atomics ---------------------------------------- */

static void test_reduce(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 100000;
	uint64_t din = tg_alloc(&gpu, n * 4), dsum = tg_alloc(&gpu, 8);
	uint64_t dmax = tg_alloc(&gpu, 256 * 4);
	uint32_t *in = tg_host(&gpu, din);
	uint64_t *sum = tg_host(&gpu, dsum), want = 0;
	int *mx = tg_host(&gpu, dmax), bad = 0;
	struct pbuf p = { .n = 0 }, q = { .n = 0 };

	if (load(&m, "reduce_shfl", NULL))
		return;
	for (int i = 0; i < n; i++) {
		in[i] = rnd() % 100000;
		want += in[i];
	}
	*sum = 0;
	p_u64(&p, din);
	p_u64(&p, dsum);
	p_u32(&p, n);
	if (!launch(&m, "reduce", 24, 1, 256, 1, 0, p.b, p.n, &f))
		tap_ok(&t, *sum == want, "shuffle + shared + atomic reduction "
		       "of %d values (%llu, want %llu)", n,
		       (unsigned long long)*sum, (unsigned long long)want);
	else
		tap_ok(&t, 0, "reduce runs");
	p_u64(&q, din);
	p_u64(&q, dmax);
	if (!launch(&m, "warp_max", 2, 1, 128, 1, 0, q.b, q.n, &f)) {
		for (int w = 0; w < 8; w++) {
			int want_max = 0;

			for (int l = 0; l < 32; l++)
				want_max = (int)in[w * 32 + l] > want_max ?
					   (int)in[w * 32 + l] : want_max;
			for (int l = 0; l < 32; l++)
				bad += mx[w * 32 + l] != want_max;
		}
		tap_ok(&t, bad == 0, "xor-shuffle warp maximum in every lane");
	} else {
		tap_ok(&t, 0, "warp_max runs");
	}
	tg_unload(&m);
}

static void test_scan(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 1000, bs = 256;
	uint64_t din = tg_alloc(&gpu, 1024 * 4), dout = tg_alloc(&gpu, 1024 * 4);
	int *in = tg_host(&gpu, din), *out = tg_host(&gpu, dout), bad = 0;
	struct pbuf p = { .n = 0 }, q = { .n = 0 };

	if (load(&m, "scan", NULL))
		return;
	for (int i = 0; i < 1024; i++)
		in[i] = (int)(rnd() % 1000) - 500;
	p_u64(&p, din);
	p_u64(&p, dout);
	p_u32(&p, n);
	if (!launch(&m, "block_scan", (n + bs - 1) / bs, 1, bs, 1, 2 * bs * 4,
		    p.b, p.n, &f)) {
		for (int i = 0, s = 0; i < n; i++) {
			s = (i % bs ? s : 0) + in[i];
			bad += out[i] != s;
		}
		tap_ok(&t, bad == 0, "block-wide Hillis-Steele scan in dynamic "
		       "shared memory (%d wrong)", bad);
	} else {
		tap_ok(&t, 0, "block_scan runs");
	}
	p_u64(&q, din);
	p_u64(&q, dout);
	bad = 0;
	if (!launch(&m, "warp_scan", 4, 1, 256, 1, 0, q.b, q.n, &f)) {
		for (int i = 0, s = 0; i < 1024; i++) {
			s = (i % 32 ? s : 0) + in[i];
			bad += out[i] != s;
		}
		tap_ok(&t, bad == 0, "warp scan with shfl.up (%d wrong)", bad);
	} else {
		tap_ok(&t, 0, "warp_scan runs");
	}
	tg_unload(&m);
}

static void test_histogram(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 50000;
	uint64_t dd = tg_alloc(&gpu, n), dh = tg_alloc(&gpu, 256 * 4);
	uint8_t *d = tg_host(&gpu, dd);
	uint32_t *h = tg_host(&gpu, dh), want[256] = { 0 };
	struct pbuf p = { .n = 0 };
	int bad = 0;

	if (load(&m, "histogram", NULL))
		return;
	for (int i = 0; i < n; i++) {
		d[i] = (uint8_t)(rnd() % 97 + (i % 3) * 50);
		want[d[i]]++;
	}
	p_u64(&p, dd);
	p_u32(&p, n);
	p_u64(&p, dh);
	if (launch(&m, "histogram", 8, 1, 256, 1, 0, p.b, p.n, &f)) {
		tap_ok(&t, 0, "histogram runs");
		return;
	}
	for (int b = 0; b < 256; b++)
		bad += h[b] != want[b];
	tap_ok(&t, bad == 0, "histogram with shared and global atomics");
	tg_unload(&m);
}

static void test_atomics(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t dr = tg_alloc(&gpu, 16 * 4), df = tg_alloc(&gpu, 4);
	uint64_t du = tg_alloc(&gpu, 8);
	int *r = tg_host(&gpu, dr);
	float *fl = tg_host(&gpu, df);
	uint64_t *u = tg_host(&gpu, du);
	struct pbuf p = { .n = 0 };
	int maxv = 0;

	if (load(&m, "atomics", NULL))
		return;
	memset(r, 0, 16 * 4);
	r[1] = -1;
	r[2] = 1 << 30;
	r[4] = -1;
	r[8] = -1;
	*fl = 0;
	*u = 0;
	p_u64(&p, dr);
	p_u64(&p, df);
	p_u64(&p, du);
	if (launch(&m, "atomics", 4, 1, 256, 1, 0, p.b, p.n, &f)) {
		tap_ok(&t, 0, "atomics runs");
		return;
	}
	for (int i = 0; i < 1024; i++)
		maxv = i * 7 % 1009 > maxv ? i * 7 % 1009 : maxv;
	tap_ok(&t, r[0] == 1024 * 1023 / 2 && r[1] == maxv &&
	       r[2] == 5000 - 1023 && r[3] == 0x7fffffff && r[4] == ~0x1ffff &&
	       r[5] == 0 && r[6] == 24 && r[7] == 1024 && *fl == 512.0f &&
	       *u == 1024ull << 33 && r[8] >= 0 && r[8] < 1024,
	       "every atomic operation under contention (add %d max %d min %d "
	       "or %x and %x xor %d inc %d cas %d fadd %g)", r[0], r[1], r[2],
	       r[3], r[4], r[5], r[6], r[7], *fl);
	tg_unload(&m);
}

/* ---- divergence --------------------------------------------------------------- */

static int collatz(unsigned x)
{
	int s = 0;

	while (x != 1 && s < 500) {
		x = (x & 1) ? 3 * x + 1 : x / 2;
		s++;
	}
	return s;
}

static int ref_torture(int v)
{
	int acc = 0;

	for (int k = 0; k < (v & 15); k++) {
		if (k == 11)
			break;
		if ((k ^ v) & 1)
			continue;
		switch ((v + k) % 4) {
		case 0: acc += k; break;
		case 1: acc -= 2 * k; break;
		case 2: acc ^= k << 3; break;
		default:
			if (acc > 10)
				acc /= 2;
			else
				acc += 7;
		}
	}
	if (v % 3 == 0) {
		acc += collatz((unsigned)v % 1000 + 1);
		if (v % 9 == 0)
			return acc;
		acc *= 3;
	} else if (v % 3 == 1) {
		int j = 0;

		do {
			acc += j;
		} while (++j < (v % 7));
	}
	return acc + 1;
}

static void test_divergence(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 1000;
	uint64_t din = tg_alloc(&gpu, 1024 * 4), dout = tg_alloc(&gpu, 4096 * 4);
	int *in = tg_host(&gpu, din), *out = tg_host(&gpu, dout), bad = 0;
	uint32_t *o4 = tg_host(&gpu, dout);
	struct pbuf p = { .n = 0 }, q = { .n = 0 };

	if (load(&m, "divergence", NULL))
		return;
	for (int i = 0; i < 1024; i++)
		in[i] = (int)(rnd() % 100);
	p_u64(&p, din);
	p_u64(&p, dout);
	p_u32(&p, n);
	if (!launch(&m, "torture", 8, 1, 128, 1, 0, p.b, p.n, &f)) {
		for (int i = 0; i < n; i++)
			if (out[i] != ref_torture(in[i]) && bad++ < 5)
				tap_diag("torture(%d): got %d want %d", in[i],
					 out[i], ref_torture(in[i]));
		tap_ok(&t, bad == 0, "divergence torture: nested branches, "
		       "break/continue, switch, goto, calls, early exit");
	} else {
		tap_ok(&t, 0, "torture runs");
	}
	p_u64(&q, din);
	p_u64(&q, dout);
	bad = 0;
	if (!launch(&m, "warp_sync_ops", 2, 1, 128, 1, 0, q.b, q.n, &f)) {
		for (int w = 0; w < 8; w++) {
			uint32_t odd = 0, low = 0;
			const int *v = in + w * 32;

			for (int l = 0; l < 32; l++)
				if (v[l] & 1)
					odd |= 1u << l;
			low = odd & (0xffffu & ~odd ? 0xffffu : 0);
			for (int l = 0; l < 32; l++) {
				uint32_t e[4] = { 0, 0, 0, 0 };

				if (v[l] & 1) {
					int any = 0, all = 1;

					for (int j = 0; j < 32; j++) {
						if (!((odd >> j) & 1))
							continue;
						e[0] |= (uint32_t)(v[j] > 50) << j;
						any |= v[j] > 90;
						all &= v[j] > 0;
					}
					e[1] = (uint32_t)any | ((uint32_t)all << 1);
					e[2] = (uint32_t)v[__builtin_ctz(odd)];
					e[3] = (uint32_t)__builtin_popcount(odd);
				} else {
					uint32_t m2 = ~odd & 0xffffu;

					if (l < 16) {
						for (int j = 0; j < 32; j++)
							if ((m2 >> j) & 1)
								e[0] |= (uint32_t)(v[j] % 4 == 0) << j;
						e[2] = (uint32_t)v[31 - __builtin_clz(m2)];
					}
					e[3] = 100;
				}
				for (int k = 0; k < 4; k++)
					if (o4[(w * 32 + l) * 4 + k] != e[k] && bad++ < 5)
						tap_diag("warp_sync_ops lane %d.%d r%d: "
							 "got %x want %x", w, l, k,
							 o4[(w * 32 + l) * 4 + k], e[k]);
			}
			(void)low;
		}
		tap_ok(&t, bad == 0, "votes, ballots and shuffles with explicit "
		       "masks inside divergent code");
	} else {
		tap_ok(&t, 0, "warp_sync_ops runs");
	}
	bad = 0;
	memset(o4, 0xff, 64 * 4);
	if (!launch(&m, "syncwarp_exchange", 1, 1, 64, 1, 0, &dout, 8, &f)) {
		for (int i = 0; i < 64; i++) {
			int lane = i & 31;
			int want = lane < 16 ? (lane + 16) * 5 + 1 : (lane - 16) * 3;

			bad += out[i] != want;
		}
		tap_ok(&t, bad == 0, "__syncwarp() on both sides of a branch "
		       "exchanges data between the halves (%d wrong)", bad);
	} else {
		tap_ok(&t, 0, "syncwarp_exchange runs");
	}
	bad = 0;
	if (!launch(&m, "shfl_both_sides", 1, 1, 64, 1, 0, q.b, q.n, &f)) {
		for (int i = 0; i < 64; i++) {
			int x = in[i], px = in[i ^ 1], w0 = i & ~31;
			/* the partner lane provides its own side's value */
			int pv = (px & 1) ? px * 2 : px * 3 + 1;
			int v = (x & 1) ? pv : pv + 1000;
			uint32_t b = 0;

			for (int j = 0; j < 32; j++) {
				int y = in[w0 + j];

				b |= (uint32_t)((y & 1) ? y > 50 : y > 20) << j;
			}
			if (!(x & 1))
				b ^= 0xf0f0f0f0u;
			bad += out[i * 2] != v || (uint32_t)out[i * 2 + 1] != b;
		}
		tap_ok(&t, bad == 0, "full-mask shfl and ballot on both sides of "
		       "a branch (%d wrong)", bad);
	} else {
		tap_ok(&t, 0, "shfl_both_sides runs");
	}
	tg_unload(&m);
}

/* ---- recursion, local arrays ------------------------------------------------------ */

static unsigned rfib(unsigned n)
{
	return n < 2 ? n : rfib(n - 1) + rfib(n - 2);
}

static int rack(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return rack(m - 1, 1);
	return rack(m - 1, rack(m, n - 1));
}

static void test_recursion(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t dout = tg_alloc(&gpu, 256 * 4 * 4);
	uint32_t *o = tg_host(&gpu, dout);
	int bad = 0;

	if (load(&m, "recursion", NULL))
		return;
	if (launch(&m, "recurse", 2, 1, 128, 1, 0, &dout, 8, &f)) {
		tap_ok(&t, 0, "recursion runs");
		return;
	}
	for (int i = 0; i < 256; i++) {
		int a = i * 7 + 12, b = i % 13 + 5, depth = 0;

		while (b) {
			int r = a % b;

			a = b;
			b = r;
			depth++;
		}
		bad += o[i * 4] != rfib((unsigned)i % 16) ||
		       o[i * 4 + 1] != (uint32_t)a || o[i * 4 + 2] != (uint32_t)depth ||
		       o[i * 4 + 3] != (uint32_t)((i & 1) ? rack(1 + i % 2, i % 4) : 0);
	}
	tap_ok(&t, bad == 0, "divergent recursion: fib, gcd returning a struct, "
	       "ackermann (%d wrong)", bad);
	tg_unload(&m);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void test_local_arrays(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int nt = 128;
	uint64_t din = tg_alloc(&gpu, nt * 24 * 4), dout = tg_alloc(&gpu, nt * 24 * 4);
	int *in = tg_host(&gpu, din), *out = tg_host(&gpu, dout), bad = 0;
	uint64_t params[2] = { din, dout };

	if (load(&m, "local_arrays", NULL))
		return;
	for (int i = 0; i < nt * 24; i++)
		in[i] = (int)(rnd() % 10000) - 5000;
	if (launch(&m, "sort_local", 2, 1, nt / 2, 1, 0, params, 16, &f)) {
		tap_ok(&t, 0, "sort_local runs");
		return;
	}
	for (int i = 0; i < nt; i++) {
		qsort(in + i * 24, 24, 4, cmp_int);
		bad += memcmp(in + i * 24, out + i * 24, 24 * 4) != 0;
	}
	tap_ok(&t, bad == 0, "per-thread local arrays with dynamic indexing");
	tg_unload(&m);
}

/* ---- printf, assert, constant memory, linking ----------------------------------- */

/*
 * Threads whose assert holds run on to their store after others of the
 * same warp and block failed; the failing ones end at the assert.
 */
static void check_store_runs_on(struct tg_module *m, uint64_t dv)
{
	struct vgpu_core_fault f;
	uint64_t dout = tg_alloc(&gpu, 64 * 4);
	int *o = tg_host(&gpu, dout), ok = 1, r;
	struct pbuf p = { 0 };

	memset(o, 0, 64 * 4);
	p_u64(&p, dv);
	p_u64(&p, dout);
	r = tg_launch(&gpu, m, "check_store", (uint32_t[3]){ 1, 1, 1 },
		      (uint32_t[3]){ 64, 1, 1 }, 0, p.b, p.n, &f);
	for (int i = 0; i < 64; i++)
		ok &= o[i] == (i < 5);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_ASSERT && ok,
	       "threads that pass an assert run on, failing ones stop there");
	free(tg_printf_output(&gpu, NULL));
}

static void test_printf_assert(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const char *want = "thread 0: 100 0 other 0.00 0 a\n"
			   "thread 1: 101 10 one 1.25 1099511627776 b\n"
			   "thread 2: 102 20 other 2.50 2199023255552 c\n";
	uint64_t dv = tg_alloc(&gpu, 64 * 4);
	int *v = tg_host(&gpu, dv), r;
	uint32_t base = 100;
	char *out;

	if (load(&m, "printf_assert", NULL))
		return;
	if (!launch(&m, "hello", 1, 1, 32, 1, 0, &base, 4, &f)) {
		out = tg_printf_output(&gpu, NULL);
		tap_ok(&t, out && !strcmp(out, want), "device printf of ints, "
		       "strings, floats, long long and chars");
		if (out && strcmp(out, want))
			tap_diag("got: %s", out);
		free(out);
	} else {
		tap_ok(&t, 0, "hello runs");
	}
	for (int i = 0; i < 64; i++)
		v[i] = i;
	r = tg_launch(&gpu, &m, "check", (uint32_t[3]){ 1, 1, 1 },
		      (uint32_t[3]){ 64, 1, 1 }, 0, &dv, 8, &f);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_ASSERT && f.thread[0] == 5 &&
	       strstr(f.message, "v[threadIdx.x] < 5") && f.line &&
	       strstr(f.message, ": block: [0,0,0], thread: [5,0,0] "
		      "Assertion `v[threadIdx.x] < 5` failed."),
	       "assert() fails with a fault naming the thread and condition "
	       "(%s)", f.message);
	/* one line per failing thread, threads 5..63 (as the H100 prints) */
	out = tg_printf_output(&gpu, NULL);
	{
		int lines = 0, once = 1;
		char want_line[96];

		for (const char *p = out; p && (p = strstr(p, "Assertion"));
		     p++)
			lines++;
		for (int i = 0; i < 64; i++) {
			const char *at;

			snprintf(want_line, sizeof(want_line),
				 "thread: [%d,0,0] Assertion", i);
			at = out ? strstr(out, want_line) : NULL;
			once &= (i >= 5) == (at != NULL);
			once &= !at || !strstr(at + 1, want_line);
		}
		tap_ok(&t, lines == 59 && once,
		       "a failed assert prints one line per failing thread "
		       "(%d lines)", lines);
	}
	free(out);
	check_store_runs_on(&m, dv);
	tg_unload(&m);
}

static void test_constant(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	const int n = 300;
	uint64_t dx = tg_alloc(&gpu, n * 4), dy = tg_alloc(&gpu, n * 4);
	float *x = tg_host(&gpu, dx), *y = tg_host(&gpu, dy);
	static const float c[4] = { 1.0f, -2.0f, 0.5f, 4.0f };
	struct pbuf p = { .n = 0 };
	int *table, *counters, bad = 0;

	if (load(&m, "constant_mem", NULL))
		return;
	table = tg_host(&gpu, tg_symbol(&gpu, &m, "host_table"));
	counters = tg_host(&gpu, tg_symbol(&gpu, &m, "counters"));
	if (!table || !counters) {
		tap_ok(&t, 0, "module symbols host_table and counters exist");
		return;
	}
	for (int i = 0; i < 8; i++)
		table[i] = i * 100;
	for (int i = 0; i < n; i++)
		x[i] = (float)(i % 37) / 8.0f - 2.0f;
	p_u64(&p, dx);
	p_u64(&p, dy);
	p_u32(&p, n);
	if (launch(&m, "poly", 3, 1, 128, 1, 0, p.b, p.n, &f)) {
		tap_ok(&t, 0, "poly runs");
		return;
	}
	for (int i = 0; i < n; i++) {
		float r = 0;

		for (int k = 3; k >= 0; k--)
			r = fmaf(r, x[i], c[k]);
		bad += fb(y[i]) != fb(r + (float)(i % 8 * 100));
	}
	tap_ok(&t, bad == 0 && counters[0] == 10 && counters[2] == 35,
	       "__constant__ tables (one set through its symbol), initialised "
	       "__device__ data and a relocated pointer (%d wrong, %d)", bad,
	       counters[2]);
	tg_unload(&m);
}

static void test_link(void)
{
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t dout = tg_alloc(&gpu, 64 * 4);
	int *o = tg_host(&gpu, dout), bad = 0;

	if (load(&m, "link_main", "link_lib"))
		return;
	if (launch(&m, "linked", 1, 1, 64, 1, 0, &dout, 8, &f)) {
		tap_ok(&t, 0, "linked runs");
		return;
	}
	for (int i = 0; i < 64; i++)
		bad += o[i] != 3 * i + 1 + 1000;
	tap_ok(&t, bad == 0, "two -rdc modules linked: extern function and "
	       "variable");
	tg_unload(&m);
}

int main(void)
{
	if (tg_init(&gpu, 4)) {
		printf("Bail out! cannot create the core\n");
		return 1;
	}
	printf("TAP version 13\n");
	/* The same kernels as nvcc emits them for two targets. */
	for (int i = 0; i < 2; i++) {
		static const char *const archs[] = { "sm_75", "sm_90" };
		static char prefix[16];

		arch = archs[i];
		snprintf(prefix, sizeof(prefix), "%s: ", arch);
		t.prefix = prefix;
		test_arith_int();
		test_arith_float();
		test_matmul();
		test_reduce();
		test_scan();
		test_histogram();
		test_atomics();
		test_divergence();
		test_recursion();
		test_local_arrays();
		test_printf_assert();
		test_constant();
		test_link();
	}
	printf("1..%d\n", t.n);
	tg_fini(&gpu);
	return tap_done(&t);
}
