// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_exec - compiled code computes the right results: the kernels of
 * cu/exec.cu (nvcc -ptx, sm_75 and sm_90) are compiled by this compiler,
 * run on the execution core (firmware_sim/core, through the native test
 * GPU of tests/lib) and compared with the same computation in C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define N 256

struct S {
	int a[3];
	double d;
};

static int in_host[N];

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void put(uint8_t *buf, uint32_t off, const void *v, size_t n)
{
	memcpy(buf + off, v, n);
}

static bool launch(struct test_gpu *g, struct tg_module *m, const char *name,
		   uint32_t blocks, uint32_t threads, uint32_t dyn,
		   const void *params, uint32_t psize)
{
	const uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { threads, 1, 1 };
	struct vgpu_core_fault f;
	int r = tg_launch(g, m, name, grid, block, dyn, params, psize, &f);

	if (r)
		t_diag("%s: launch %d, fault %s at %s:%u: %s", name, r,
		       vgpu_core_fault_name(f.kind), f.file, f.line, f.message);
	return r == 0;
}

static void check_calls(struct test_gpu *g, struct tg_module *m, uint64_t in,
			const char *arch)
{
	uint64_t o = tg_alloc(g, N * 4);
	struct S s = { { 1, 2, 3 }, 4.25 };
	int n = N, t, i, bad = 0, *out;
	uint8_t p[48] = { 0 };

	/* o at 0, in at 8, s (align 8, 24 bytes) at 16, n at 40: 44 bytes */
	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	put(p, 16, &s, 24);
	put(p, 40, &n, 4);
	if (!t_ok(launch(g, m, "exec_calls", N / 64, 64, 0, p, 44),
		  "%s: exec_calls runs", arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < N; t++) {
		int loc[16], acc;
		struct S r = s;

		for (i = 0; i < 16; i++)
			loc[i] = in_host[(t + i) % N] * i;
		acc = loc[in_host[t] & 15];
		acc += t & 1 ? fib(t % 12) : -3;
		r.a[t % 3] += t;
		r.d *= 2;
		bad += out[t] != acc + r.a[0] + r.a[1] + r.a[2] + (int)r.d;
	}
	t_ok(!bad, "%s: recursion, struct arguments and results, local arrays (%d wrong)",
	     arch, bad);
}

static uint32_t brev32(uint32_t x)
{
	uint32_t r = 0;
	int i;

	for (i = 0; i < 32; i++)
		r |= ((x >> i) & 1u) << (31 - i);
	return r;
}

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
	uint64_t v = (uint64_t)y << 32 | x;
	uint32_t r = 0;
	int i;

	for (i = 0; i < 4; i++)
		r |= (uint32_t)(v >> (8 * ((s >> (4 * i)) & 7)) & 0xff) << (8 * i);
	return r;
}

static void check_bits(struct test_gpu *g, struct tg_module *m, uint64_t in,
		       const char *arch)
{
	uint64_t o = tg_alloc(g, N * 32);
	uint8_t p[16];
	uint32_t *out, w[8];
	int t, k, bad = 0;

	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	if (!t_ok(launch(g, m, "exec_bits", N / 64, 64, 0, p, 16),
		  "%s: exec_bits runs", arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < N; t++) {
		unsigned long long x = (unsigned long long)in_host[t] * 0x9E3779B97F4A7C15ull;
		unsigned long long h = (unsigned long long)
			(((unsigned __int128)x * 0x123456789ABCDEFull) >> 64);
		double d = in_host[t] * 1.5;
		uint64_t db;
		uint32_t u = (uint32_t)in_host[t] * 2654435761u, sh = (uint32_t)t & 31;
		uint64_t fl = ((uint64_t)~u << 32 | u) << sh;
		uint64_t fr = ((uint64_t)(u >> 3) << 32 | u) >> sh;
		_Float16 half = (_Float16)((float)in_host[t] / 7.0f);

		memcpy(&db, &d, 8);
		w[0] = (uint32_t)h ^ (uint32_t)(h >> 32);
		w[1] = (uint32_t)(db >> 32) ^ (uint32_t)db;
		w[2] = brev32(u) + (uint32_t)__builtin_popcount(u) +
		       (uint32_t)(u ? __builtin_clz(u) : 32);
		w[3] = byte_perm(u, ~u, 0x7531);
		w[4] = (uint32_t)(fl >> 32) ^ (uint32_t)fr;
		w[5] = (u >> (t % 7)) & 0x3ff;
		w[6] = (uint32_t)(int)((float)half * 1000.0f);
		w[7] = (uint32_t)((long long)in_host[t] * -3 / 7) + (u % 13u);
		for (k = 0; k < 8; k++) {
			if (out[8 * t + k] != w[k] && bad++ < 4)
				t_diag("exec_bits[%d][%d] = %#x, want %#x", t, k,
				       out[8 * t + k], w[k]);
		}
	}
	t_ok(!bad, "%s: carry chains, register halves, bit intrinsics, f16 (%d wrong)",
	     arch, bad);
}

static void check_diverge(struct test_gpu *g, struct tg_module *m, uint64_t in,
			  const char *arch)
{
	uint64_t o = tg_alloc(g, 64 * 4);
	int n = 40, t, i, w, bad = 0, acc[64], *out;
	uint8_t p[20];

	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	put(p, 16, &n, 4);
	if (!t_ok(launch(g, m, "exec_diverge", 1, 64, 0, p, 20),
		  "%s: exec_diverge runs", arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < 64; t++) {
		acc[t] = 0;
		for (i = 0; i < n; i++) {
			if (in_host[i] % 5 == t % 5)
				break;
			if (in_host[i] & 1)
				continue;
			acc[t] += in_host[i];
		}
		if (t % 3 == 0)
			acc[t] = acc[t] * 7 + 1;
	}
	for (w = 0; w < 2; w++) {
		int v[32], off, l;

		for (l = 0; l < 32; l++)
			v[l] = acc[32 * w + l];
		for (off = 16; off > 0; off /= 2)
			for (l = 0; l + off < 32; l++)	/* in place: l reads l + off, not yet updated */
				v[l] += v[l + off];
		bad += out[w] != v[0];
	}
	for (t = 0; t < 48; t++) {
		uint32_t want = 0;
		int base = t & ~31, lanes = t >= 32 ? 16 : 32, l;

		for (l = 0; l < lanes; l++)
			want |= (uint32_t)(in_host[base + l] > 50) << l;
		bad += (uint32_t)out[8 + t] != want;
	}
	t_ok(!bad, "%s: break/continue, early return, divergent call, shuffles, ballot (%d wrong)",
	     arch, bad);
}

static void check_hist(struct test_gpu *g, struct tg_module *m, uint64_t in,
		       const char *arch)
{
	uint64_t h = tg_alloc(g, 64);
	int n = N, i, bad = 0, cnt[16] = { 0 }, *out;
	uint32_t dropped = 0;
	uint8_t p[20];
	char *text;

	memset(tg_host(g, h), 0, 64);
	put(p, 0, &h, 8);
	put(p, 8, &in, 8);
	put(p, 16, &n, 4);
	free(tg_printf_output(g, &dropped));	/* drain earlier output */
	if (!t_ok(launch(g, m, "exec_hist", 3, 128, 64, p, 20),
		  "%s: exec_hist runs", arch))
		return;
	out = tg_host(g, h);
	for (i = 0; i < N; i++)
		cnt[in_host[i] & 15]++;
	for (i = 0; i < 16; i++)
		bad += out[i] != 3 * cnt[i];
	t_ok(!bad, "%s: dynamic shared memory and atomics (%d wrong)", arch, bad);
	text = tg_printf_output(g, &dropped);
	{
		char want[64];

		snprintf(want, sizeof(want), "block 2: %d 0.50\n", cnt[0]);
		t_ok(text && strstr(text, want) && !dropped,
		     "%s: printf from the kernel reaches the host", arch);
	}
	free(text);
}

static void check_indirect(struct test_gpu *g, struct tg_module *m,
			   uint64_t in, const char *arch)
{
	uint64_t o = tg_alloc(g, 64 * 4);
	int t, bad = 0, *out;
	uint8_t p[16];

	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	if (!t_ok(launch(g, m, "exec_indirect", 1, 64, 0, p, 16),
		  "%s: exec_indirect runs", arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < 64; t++) {
		int x = in_host[t] % 10;
		int want = (in_host[t] & 1 ? t * 3 : t + 3) + (t & 2 ? x * x : x + 1);

		bad += out[t] != want;
	}
	t_ok(!bad, "%s: calls through function pointers and virtual functions (%d wrong)",
	     arch, bad);
}

static uint32_t halves(uint32_t a, uint32_t b, int op)
{
	uint32_t r = 0;
	int h;

	for (h = 0; h < 2; h++) {
		uint16_t x = (uint16_t)(a >> (16 * h)), y = (uint16_t)(b >> (16 * h));
		uint16_t v = op == 0 ? (uint16_t)(x + y) : op == 1 ? (uint16_t)(x - y) :
			     (uint16_t)(((int16_t)x > (int16_t)y ? x : y) ^ (x < y ? x : y));

		r |= (uint32_t)v << (16 * h);
	}
	return r;
}

static void check_simd(struct test_gpu *g, struct tg_module *m, uint64_t in,
		       const char *arch)
{
	uint64_t o = tg_alloc(g, 64 * 12);
	int t, k, bad = 0;
	uint32_t *out;
	uint8_t p[16];

	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	if (!t_ok(launch(g, m, "exec_simd", 1, 64, 0, p, 16),
		  "%s: exec_simd runs", arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < 64; t++) {
		uint32_t a = (uint32_t)in_host[t] * 0x9E3779B9u;
		uint32_t b = (uint32_t)in_host[t + 1] * 0x85EBCA6Bu;

		for (k = 0; k < 3; k++)
			bad += out[3 * t + k] != halves(a, b, k);
	}
	t_ok(!bad, "%s: SIMD on 16-bit halves (%d wrong)", arch, bad);
}

static void check_async(struct test_gpu *g, struct tg_module *m,
			uint64_t in, const char *arch)
{
	uint64_t o = tg_alloc(g, 64 * 4);
	int t, bad = 0, *out;
	uint8_t p[16];

	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	if (!t_ok(launch(g, m, "exec_async", 1, 64, 0, p, 16),
		  "%s: exec_async runs", arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < 64; t++) {
		int u = (t + 1) & 63;
		int want = in_host[4 * (63 - t)] + in_host[4 * t + 3] +
			   ((u & 1) ? in_host[3 * u] : 0);	/* even: 4 bytes zero-filled */

		bad += out[t] != want;
	}
	t_ok(!bad, "%s: asynchronous copies to shared memory, zero fill (%d wrong)",
	     arch, bad);
}

/* bmsk as the PTX ISA defines it. */
static uint32_t bmsk(uint32_t a, uint32_t b, bool clamp)
{
	uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
	uint32_t mask0 = ~0u << a1, mask1 = sum < 32 ? ~0u << sum : 0;

	if (clamp && a >= 32)
		mask0 = 0;
	if (sum >= 32 || (clamp && (a >= 32 || b >= 32)))
		mask1 = 0;
	else if (!b1)
		mask1 = ~0u;
	return mask0 & ~mask1;
}

static void check_bmsk(struct test_gpu *g, struct tg_module *m, const char *arch)
{
	uint64_t o = tg_alloc(g, 400 * 8);
	uint32_t *out, t;
	uint8_t p[8];
	int bad = 0;

	put(p, 0, &o, 8);
	if (!t_ok(launch(g, m, "exec_bmsk", 1, 400, 0, p, 8), "%s: exec_bmsk runs",
		  arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < 400; t++) {
		uint32_t a = t % 40, b = t / 40 * 5;

		bad += out[2 * t] != bmsk(a, b, true);
		bad += out[2 * t + 1] != bmsk(a, b, false);
	}
	t_ok(!bad, "%s: bmsk.clamp and bmsk.wrap at the edges (%d wrong)", arch, bad);
}

static uint32_t f32_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

/* fns: the position of the offset-th set bit from base (PTX ISA). */
static uint32_t fns_ref(uint32_t mask, uint32_t base, int offset)
{
	int pos = (int)base;

	if (offset == 0)
		return 0xffffffffu;
	while (pos >= 0 && pos < 32) {
		if ((mask >> pos) & 1 && --offset == 0)
			return (uint32_t)pos;
		pos++;
	}
	return 0xffffffffu;
}

static void check_misc(struct test_gpu *g, struct tg_module *m, uint64_t in,
		       const char *arch)
{
	uint64_t o = tg_alloc(g, (12 * 64 + 1) * 4);
	uint32_t *out, w[12], any, cnt = 0, all_and = 1, all_or = 0;
	int t, k, bad = 0, u;
	uint8_t p[16];

	memset(tg_host(g, o), 0, (12 * 64 + 1) * 4);
	put(p, 0, &o, 8);
	put(p, 8, &in, 8);
	if (!t_ok(launch(g, m, "exec_misc", 1, 64, 0, p, 16), "%s: exec_misc runs",
		  arch))
		return;
	out = tg_host(g, o);
	for (t = 0; t < 64; t++) {
		cnt += in_host[t] & 1;
		all_and &= in_host[t] < 100;
		all_or |= in_host[t] == 42;
	}
	for (t = 0; t < 64; t++) {
		int v = in_host[t], base = t & ~31;
		float f = (float)(v - 50) / 8.0f, q = f / (float)(v % 3);
		uint64_t x = (uint64_t)(uint32_t)~v << 32 | (uint32_t)(v * 0x01010101);
		uint32_t all_same = 1;

		w[0] = f < 0.0f ? 0xffffffffu : 0;
		w[1] = f32_bits(v > 49 ? 1.0f : 0.0f);
		w[2] = (uint32_t)(v - 50 >= 0 ? v : -v);
		w[3] = q - q == 0.0f ? 7 : 9;	/* finite */
		w[4] = f32_bits(f < 0 ? -3.0f : 3.0f);	/* |3| with the sign of f */
		w[5] = 0;
		for (k = 0; k < 4; k++)
			w[5] |= (uint32_t)(x >> (8 * ((t + k) & 7)) & 0xff) << (8 * k);
		w[6] = (uint32_t)v ^ (uint32_t)t ^ (uint32_t)(v * t);
		any = 0;
		for (u = 0; u < 32; u++) {
			any |= (uint32_t)(in_host[base + u] % 4 == v % 4) << u;
			all_same &= in_host[base + u] / 1000 == v / 1000;
		}
		w[7] = any;
		w[8] = (all_same ? 0xffffffffu : 0) + all_same;
		w[9] = 1 + 2;
		w[10] = cnt + (all_and << 8) + (all_or << 9);
		w[11] = (uint32_t)(abs(v - 37) + 5) + (uint32_t)(v * -3) +
			fns_ref(0xf0f0f0f0u, (uint32_t)t, 3);
		for (k = 0; k < 12; k++) {
			if (out[12 * t + k] != w[k] && bad++ < 6)
				t_diag("exec_misc[%d][%d] = %#x, want %#x", t, k,
				       out[12 * t + k], w[k]);
		}
	}
	bad += out[12 * 64] != 64;
	t_ok(!bad, "%s: set, slct, testp, copysign, prmt.f4e, lop3, match, isspacep, "
	     "bar.red, sad, mul24, fns, red (%d wrong)", arch, bad);
}

static void check_vatomic(struct test_gpu *g, struct tg_module *m, uint64_t in,
			  const char *arch)
{
	uint64_t acc = tg_alloc(g, 16), acc2 = tg_alloc(g, 8);
	float want[6] = { 0 }, *a4, *a2;
	uint8_t p[24];
	int t;

	memset(tg_host(g, acc), 0, 16);
	memset(tg_host(g, acc2), 0, 8);
	put(p, 0, &acc, 8);
	put(p, 8, &acc2, 8);
	put(p, 16, &in, 8);
	if (!t_ok(launch(g, m, "exec_vatomic", 2, 64, 0, p, 24),
		  "%s: exec_vatomic runs", arch))
		return;
	for (t = 0; t < 128; t++) {
		float x = (float)(in_host[t % 64] % 8);

		want[0] += x;
		want[1] += 2.0f * x;
		want[2] += 1.0f;
		want[3] -= x;
		want[4] += 0.5f;
		want[5] += x;
	}
	a4 = tg_host(g, acc);
	a2 = tg_host(g, acc2);
	/* small integers and halves: exact in any order of addition */
	t_ok(a4[0] == want[0] && a4[1] == want[1] && a4[2] == want[2] &&
	     a4[3] == want[3] && a2[0] == want[4] && a2[1] == want[5],
	     "%s: float4/float2 atomicAdd (%g %g %g %g %g %g)", arch, a4[0], a4[1],
	     a4[2], a4[3], a2[0], a2[1]);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* cu/cub_block.cu: CUB's radix sort, reduction and scans in one block. */
static void check_cub(const char *arch)
{
	char path[512], msg[512], err[256];
	int keys[512], want_scan[128], x[128], t, i, bad = 0, sum = 0;
	struct test_gpu g;
	struct tg_module m;
	uint64_t in, sorted, sums, scan;
	uint8_t p[32];
	void *img = NULL;
	size_t size;
	char *text;
	int *hs;

	snprintf(path, sizeof(path), "%s/%s/cub_block.ptx", PTX_TEST_DATA, arch);
	text = t_read_file(path, NULL);
	if (!t_ok(text && !t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "%s: compile cub_block.ptx %s", arch, msg))
		goto out;
	if (tg_init(&g, 2))
		goto out;
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		  "%s: load cub_block %s", arch, err)) {
		tg_fini(&g);
		goto out;
	}
	in = tg_alloc(&g, sizeof(keys));
	sorted = tg_alloc(&g, sizeof(keys));
	sums = tg_alloc(&g, 4);
	scan = tg_alloc(&g, 128 * 4);
	for (i = 0; i < 512; i++)
		keys[i] = (int)((i * 2654435761u) >> 7) % 100000 - 50000;
	memcpy(tg_host(&g, in), keys, sizeof(keys));
	put(p, 0, &in, 8);
	put(p, 8, &sorted, 8);
	put(p, 16, &sums, 8);
	put(p, 24, &scan, 8);
	if (t_ok(launch(&g, &m, "cub_block", 1, 128, 0, p, 32), "%s: cub_block runs",
		 arch)) {
		qsort(keys, 512, sizeof(int), cmp_int);
		hs = tg_host(&g, sorted);
		for (i = 0; i < 512; i++)
			bad += hs[i] != keys[i];
		t_ok(!bad, "%s: cub::BlockRadixSort sorts 512 keys (%d wrong)", arch, bad);
		for (t = 0; t < 128; t++)
			sum += keys[4 * t];
		hs = tg_host(&g, sums);
		t_ok(hs[0] == sum, "%s: cub::BlockReduce sum %d (want %d)", arch, hs[0], sum);
		for (t = 0; t < 128; t++)
			x[t] = t ? x[t - 1] + keys[4 * (t - 1) + 1] : 0;
		for (t = 0; t < 128; t++)
			want_scan[t] = (t % 32 ? want_scan[t - 1] : 0) + x[t];
		hs = tg_host(&g, scan);
		bad = 0;
		for (t = 0; t < 128; t++)
			bad += hs[t] != want_scan[t];
		t_ok(!bad, "%s: cub::BlockScan then cub::WarpScan (%d wrong)", arch, bad);
	}
	tg_unload(&m);
	tg_fini(&g);
out:
	vgpu_ptx_free(img);
	free(text);
}

static void run_arch(const char *arch)
{
	char path[512], msg[512], err[256];
	struct test_gpu g;
	struct tg_module m;
	void *img = NULL;
	size_t size;
	char *text;
	uint64_t in;
	int i;

	snprintf(path, sizeof(path), "%s/%s/exec.ptx", PTX_TEST_DATA, arch);
	text = t_read_file(path, NULL);
	if (!t_ok(text && !t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "%s: compile exec.ptx %s", arch, msg)) {
		free(text);
		return;
	}
	if (!t_ok(!tg_init(&g, 2), "%s: native test GPU", arch))
		goto out;
	if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		 "%s: the core loads the image %s", arch, err)) {
		in = tg_alloc(&g, N * 4);
		for (i = 0; i < N; i++)
			in_host[i] = (i * 37 + 11) % 101;
		memcpy(tg_host(&g, in), in_host, sizeof(in_host));
		check_calls(&g, &m, in, arch);
		check_bits(&g, &m, in, arch);
		check_diverge(&g, &m, in, arch);
		check_hist(&g, &m, in, arch);
		check_indirect(&g, &m, in, arch);
		check_simd(&g, &m, in, arch);
		check_async(&g, &m, in, arch);
		check_bmsk(&g, &m, arch);
		check_misc(&g, &m, in, arch);
		check_vatomic(&g, &m, in, arch);
		tg_unload(&m);
	}
	tg_fini(&g);
out:
	vgpu_ptx_free(img);
	free(text);
}

int main(void)
{
	t_start();
	run_arch("sm_75");
	run_arch("sm_90");
	check_cub("sm_75");
	check_cub("sm_90");
	return t_done();
}
