// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_tex - texture and surface instructions on the execution core,
 * with nvcc's PTX (cu/tex.cu) and hand-written PTX for what nvcc 13 no
 * longer emits (unified-mode .texref/.surfref variables, txq, suq,
 * istypep, sured).  The descriptors (struct vgpu_tex_desc) are written
 * here as texobj.c writes them; texels of arrays are placed with the
 * block-linear layout of vgpu_array.h.  Every result is checked against
 * a CPU reference:
 *
 *  - tex.2d on pitch-linear memory, point sampling at texel centres, and
 *    linear filtering halfway between texels (weights 1/2: exact);
 *  - tex.1d with .s32 coordinates (tex1Dfetch) on linear memory;
 *  - tex.3d, tex.a1d, tex.a2d on block-linear arrays;
 *  - suld/sust .b32 on a 2D array; .clamp and .zero outside; .trap
 *    faults (VISA_FAULT_OUT_OF_RANGE, CUDA's illegal address);
 *  - suld/sust .v4.b8 (3D) and .v2.b16 (2D layered);
 *  - txq, suq, istypep, sured.add/min/max, unified-mode texref/surfref;
 *  - a handle that is not a descriptor faults; an unmapped one too.
 *
 * Launches run on the native tier and, through tg_launch(), are compared
 * byte for byte with the interpreter.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"
#include "vgpu_array.h"
#include "vgpu_tex.h"
#include "vgpu_visa.h"

static struct test_gpu g;
static struct tg_module m, hm;

static int run(struct tg_module *mod, const char *name, uint32_t gx,
	       uint32_t bx, uint32_t by, const void *p, uint32_t ps,
	       struct vgpu_core_fault *f)
{
	const uint32_t grid[3] = { gx, 1, 1 }, block[3] = { bx, by, 1 };

	memset(f, 0, sizeof(*f));
	return tg_launch(&g, mod, name, grid, block, 0, p, ps, f);
}

/* A descriptor in VRAM; returns its VA (the handle). */
static uint64_t put_desc(const struct vgpu_tex_desc *d)
{
	uint64_t va = tg_alloc(&g, sizeof(*d));

	memcpy(tg_host(&g, va), d, sizeof(*d));
	return va;
}

/* A block-linear array of w x h x depth elements of @elem bytes. */
static uint64_t bl_array(struct vgpu_tex_desc *d, uint32_t w, uint32_t h,
			 uint32_t depth, uint32_t elem, int layered,
			 struct vgpu_bl_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->row_bytes = w * elem;
	l->height = h;
	l->depth = depth;
	vgpu_bl_choose(l, layered);
	d->base = tg_alloc(&g, vgpu_bl_size(l));
	d->width = w;
	d->height = h;
	d->depth = depth;
	d->layout = VGPU_TEX_BLOCK_LINEAR;
	d->block_h_log2 = l->bh;
	d->block_d_log2 = l->bd;
	d->layered = (uint8_t)layered;
	return d->base;
}

static void *bl_at(uint64_t base, const struct vgpu_bl_layout *l,
		   uint32_t xbytes, uint32_t y, uint32_t z)
{
	return (uint8_t *)tg_host(&g, base) + vgpu_bl_offset(l, xbytes, y, z);
}

static void test_tex2d_pitch(void)
{
	enum { W = 16, H = 8, PITCH = 128 };
	uint64_t mem = tg_alloc(&g, PITCH * H), out = tg_alloc(&g, W * H * 4);
	float *o = tg_host(&g, out);
	struct vgpu_tex_desc d = {
		.base = mem, .width = W, .height = H, .depth = 1,
		.pitch = PITCH, .format = VGPU_TEX_F32, .channels = 1,
		.layout = VGPU_TEX_PITCH, .dims = 2, .levels = 1,
		.address = { VGPU_TEX_CLAMP, VGPU_TEX_CLAMP, VGPU_TEX_CLAMP },
	};
	struct __attribute__((packed)) { uint64_t t, out; int w; float dx, dy; } p;
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			((float *)((uint8_t *)tg_host(&g, mem) + y * PITCH))[x] =
				(float)(y * 100 + x);
	p = (__typeof__(p)){ put_desc(&d), out, W, 0.5f, 0.5f };
	r = run(&m, "tex2d", H, W, 1, &p, sizeof(p), &f);
	for (int i = 0; i < W * H; i++)
		bad += o[i] != (float)((i / W) * 100 + i % W);
	t_ok(!r && !bad, "tex.2d point at texel centres of pitch-2D memory (%d %s, %d wrong)",
	     r, f.message, bad);

	/* linear filtering at x + 1.0: halfway between x and x + 1 */
	d.filter = VGPU_TEX_LINEAR_FILTER;
	p = (__typeof__(p)){ put_desc(&d), out, W, 1.0f, 0.5f };
	r = run(&m, "tex2d", H, W, 1, &p, sizeof(p), &f);
	bad = 0;
	for (int i = 0; i < W * H; i++) {
		int x = i % W, y = i / W, x1 = x + 1 < W ? x + 1 : W - 1;

		bad += o[i] != (float)(y * 100) + (float)(x + x1) / 2;
	}
	t_ok(!r && !bad, "tex.2d linear filtering halfway between texels (%d wrong)", bad);
}

static void test_tex2d_rgba(void)
{
	enum { W = 8, H = 4 };
	struct vgpu_bl_layout l;
	struct vgpu_tex_desc d = { .format = VGPU_TEX_U8, .channels = 4,
				   .dims = 2, .levels = 1,
				   .read_mode = VGPU_TEX_NORMALIZED };
	uint64_t base = bl_array(&d, W, H, 1, 4, 0, &l);
	uint64_t out = tg_alloc(&g, W * H * 16);
	float *o = tg_host(&g, out);
	struct __attribute__((packed)) { uint64_t t, out; int w; } p;
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t *t = bl_at(base, &l, x * 4, y, 0);

			t[0] = (uint8_t)(x * 30);
			t[1] = (uint8_t)(y * 60);
			t[2] = 255;
			t[3] = 0;
		}
	p = (__typeof__(p)){ put_desc(&d), out, W };
	r = run(&m, "tex2d4", H, W, 1, &p, sizeof(p), &f);
	for (int i = 0; i < W * H; i++) {
		int x = i % W, y = i / W;

		bad += o[4 * i] != (float)(x * 30) / 255.0f ||
		       o[4 * i + 1] != (float)(y * 60) / 255.0f ||
		       o[4 * i + 2] != 1.0f || o[4 * i + 3] != 0.0f;
	}
	t_ok(!r && !bad, "tex.2d.v4 of a uchar4 array reads normalized floats (%d %s, %d wrong)",
	     r, f.message, bad);
}

static void test_fetch1d(void)
{
	enum { N = 256 };
	uint64_t mem = tg_alloc(&g, N * 4), out = tg_alloc(&g, N * 4);
	int *hm_ = tg_host(&g, mem), *o = tg_host(&g, out);
	struct vgpu_tex_desc d = {
		.base = mem, .width = N, .height = 1, .depth = 1,
		.format = VGPU_TEX_S32, .channels = 1,
		.layout = VGPU_TEX_LINEAR, .dims = 1, .levels = 1,
		/* a fetch ignores filtering and normalized coordinates */
		.filter = VGPU_TEX_LINEAR_FILTER, .normalized = 1,
	};
	struct __attribute__((packed)) { uint64_t t, out; } p;
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int i = 0; i < N; i++)
		hm_[i] = i * 7 - 300;
	p = (__typeof__(p)){ put_desc(&d), out };
	r = run(&m, "fetch1d", N / 64, 64, 1, &p, sizeof(p), &f);
	for (int i = 0; i < N; i++)
		bad += o[i] != i * 7 - 300;
	t_ok(!r && !bad, "tex.1d.s32 (tex1Dfetch) on linear memory (%d %s, %d wrong)",
	     r, f.message, bad);
}

static void test_tex3d_layered(void)
{
	enum { W = 8, H = 4, D = 3 };
	struct vgpu_bl_layout l;
	struct vgpu_tex_desc d = { .format = VGPU_TEX_F32, .channels = 1,
				   .dims = 3, .levels = 1 };
	uint64_t base = bl_array(&d, W, H, D, 4, 0, &l);
	uint64_t out = tg_alloc(&g, W * H * D * 4);
	float *o = tg_host(&g, out);
	struct __attribute__((packed)) { uint64_t t, out; int w, h; } p;
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				*(float *)bl_at(base, &l, x * 4, y, z) =
					(float)(z * 1000 + y * 10 + x);
	p = (__typeof__(p)){ put_desc(&d), out, W, H };
	r = run(&m, "tex3d", D, W, H, &p, sizeof(p), &f);
	for (int i = 0; i < W * H * D; i++)
		bad += o[i] != (float)(i / (W * H) * 1000 + i / W % H * 10 + i % W);
	t_ok(!r && !bad, "tex.3d on a 3D array (%d %s, %d wrong)", r, f.message, bad);

	/* the same memory as a 2D array of D layers */
	d.dims = 2;
	d.layered = 1;
	p.t = put_desc(&d);
	r = run(&m, "tex2dlayered", D, W, H, &p, sizeof(p), &f);
	bad = 0;
	for (int i = 0; i < W * H * D; i++)
		bad += o[i] != (float)(i / (W * H) * 1000 + i / W % H * 10 + i % W);
	t_ok(!r && !bad, "tex.a2d on a layered 2D array (%d %s, %d wrong)", r, f.message, bad);

	/* a geometry that is not the texture's is refused */
	r = run(&m, "tex3d", D, W, H, &p, sizeof(p), &f);
	t_ok(r && f.kind == VISA_FAULT_OUT_OF_RANGE && strstr(f.message, "geometry"),
	     "tex.3d on a layered 2D texture faults: %s", f.message);
}

static void test_tex1d_layered(void)
{
	enum { W = 32, L = 4 };
	struct vgpu_bl_layout l;
	struct vgpu_tex_desc d = { .format = VGPU_TEX_F32, .channels = 1,
				   .dims = 1, .levels = 1 };
	uint64_t base = bl_array(&d, W, 1, L, 4, 1, &l);
	uint64_t out = tg_alloc(&g, W * L * 4);
	float *o = tg_host(&g, out);
	struct __attribute__((packed)) { uint64_t t, out; int w; } p;
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int z = 0; z < L; z++)
		for (int x = 0; x < W; x++)
			*(float *)bl_at(base, &l, x * 4, 0, z) = (float)(z * 100 - x);
	p = (__typeof__(p)){ put_desc(&d), out, W };
	r = run(&m, "tex1dlayered", L, W, 1, &p, sizeof(p), &f);
	for (int i = 0; i < W * L; i++)
		bad += o[i] != (float)(i / W * 100 - i % W);
	t_ok(!r && !bad, "tex.a1d on a layered 1D array (%d %s, %d wrong)", r, f.message, bad);
}

/*
 * tex.level/tex.grad on a texture of one level read level 0; tld4 gathers
 * one component of the footprint and tex.cube samples a face.  The texels
 * of the gathered component and of the cubemap are all equal, so the
 * answers do not depend on the footprint's order or the face chosen (the
 * sampler's own tests, test_tex_fetch_golden, check those against the
 * H100).
 */
static void test_lod_gather_cube(void)
{
	enum { W = 8, H = 4, N = 4 };
	struct vgpu_bl_layout l, lc;
	struct vgpu_tex_desc d = { .format = VGPU_TEX_F32, .channels = 2,
				   .dims = 2, .levels = 1 };
	struct vgpu_tex_desc c = { .format = VGPU_TEX_F32, .channels = 1,
				   .dims = 3, .levels = 1, .cubemap = 1,
				   .normalized = 1 };
	uint64_t base = bl_array(&d, W, H, 1, 8, 0, &l);
	uint64_t cb = bl_array(&c, N, N, 6, 4, 1, &lc);
	c.layered = 0;	/* one cube: its faces are laid out as layers */
	uint64_t out = tg_alloc(&g, W * H * 16);
	float *o = tg_host(&g, out);
	struct __attribute__((packed)) { uint64_t t, out; } p;
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float *t = bl_at(base, &l, x * 8, y, 0);

			t[0] = (float)(y * W + x);
			t[1] = 5.0f;	/* the gathered component: constant */
		}
	for (int z = 0; z < 6; z++)
		for (int y = 0; y < N; y++)
			for (int x = 0; x < N; x++)
				*(float *)bl_at(cb, &lc, x * 4, y, z) = 3.0f;
	p = (__typeof__(p)){ put_desc(&d), out };
	r = run(&m, "texlod", H, W, 1, &p, sizeof(p), &f);
	for (int i = 0; i < W * H; i++)
		bad += o[2 * i] != (float)i || o[2 * i + 1] != (float)i;
	t_ok(!r && !bad, "tex.level and tex.grad on a texture of one level read level 0 (%d %s, %d wrong)",
	     r, f.message, bad);

	r = run(&m, "gather", 1, W - 1, 1, &p, sizeof(p), &f);
	bad = 0;
	for (int i = 0; !r && i < 4 * (W - 1); i++)
		bad += o[i] != 5.0f;
	t_ok(!r && !bad,
	     "tld4.g gathers component 1 (%s)", r ? f.message : bad ? "wrong" : "values match");

	c.depth = 6;
	p = (__typeof__(p)){ put_desc(&c), out };
	r = run(&m, "cube", 1, 8, 1, &p, sizeof(p), &f);
	bad = 0;
	for (int i = 0; !r && i < 8; i++)
		bad += o[i] != 3.0f;
	t_ok(!r && !bad,
	     "tex.cube on a constant cubemap (%s)", r ? f.message : bad ? "wrong" : "values match");
}

static void test_surf2d(void)
{
	enum { W = 16, H = 6 };
	struct vgpu_bl_layout l;
	struct vgpu_tex_desc d = { .format = VGPU_TEX_S32, .channels = 1,
				   .dims = 2, .levels = 1 };
	uint64_t base = bl_array(&d, W, H, 1, 4, 0, &l), s;
	uint64_t out = tg_alloc(&g, 3 * 32 * 4);
	int *o = tg_host(&g, out), bad = 0, r;
	struct __attribute__((packed)) { uint64_t s; int k; } p;
	struct __attribute__((packed)) { uint64_t s, out; int x0, y0; } pm;
	struct __attribute__((packed)) { uint64_t s; int x, y; } pt;
	struct vgpu_core_fault f;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			*(int *)bl_at(base, &l, x * 4, y, 0) = y * W + x;
	s = put_desc(&d);
	p = (__typeof__(p)){ s, 3 };
	r = run(&m, "surf2d_scale", H, W, 1, &p, sizeof(p), &f);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += *(int *)bl_at(base, &l, x * 4, y, 0) != 3 * (y * W + x);
	t_ok(!r && !bad, "suld/sust.b.2d.b32 scale a 2D surface in place (%d %s, %d wrong)",
	     r, f.message, bad);

	/* x from -8 to 23 on row 2: .clamp reads the edge, .zero reads 0
	 * and drops the store outside */
	pm = (__typeof__(pm)){ s, out, -8, 2 };
	r = run(&m, "surf2d_modes", 1, 32, 1, &pm, sizeof(pm), &f);
	bad = 0;
	for (int i = 0; i < 32; i++) {
		int x = i - 8, in = x >= 0 && x < W;
		int cx = x < 0 ? 0 : x >= W ? W - 1 : x;
		int want_clamp = in ? 3 * (2 * W + x) : 3 * (2 * W + cx);

		/* in-range lanes may read their own -1 store or not: the
		 * clamp read comes first in the kernel */
		bad += o[3 * i] != want_clamp;
		bad += o[3 * i + 1] != (in ? 3 * (2 * W + x) : 0);
	}
	for (int x = 0; x < W; x++)
		bad += *(int *)bl_at(base, &l, x * 4, 2, 0) != -1;
	bad += *(int *)bl_at(base, &l, 0, 3, 0) != 3 * (3 * W);
	t_ok(!r && !bad, "suld .clamp/.zero and sust .zero outside the surface (%d %s, %d wrong)",
	     r, f.message, bad);

	pt = (__typeof__(pt)){ s, W, 0 };
	r = run(&m, "surf2d_trap", 1, 1, 1, &pt, sizeof(pt), &f);
	t_ok(r && f.kind == VISA_FAULT_OUT_OF_RANGE && strstr(f.message, ".trap"),
	     "sust.trap at x = width faults: %s", f.message);
	pt = (__typeof__(pt)){ s, 0, -1 };
	r = run(&m, "surf2d_trap", 1, 1, 1, &pt, sizeof(pt), &f);
	t_ok(r && f.kind == VISA_FAULT_OUT_OF_RANGE,
	     "sust.trap at y = -1 faults: %s", f.message);
	pt = (__typeof__(pt)){ s, W - 1, H - 1 };
	r = run(&m, "surf2d_trap", 1, 1, 1, &pt, sizeof(pt), &f);
	t_ok(!r && *(int *)bl_at(base, &l, (W - 1) * 4, H - 1, 0) == 7,
	     "sust.trap at the last element stores (%d)", r);
}

static void test_surf_vectors(void)
{
	enum { W = 8, H = 4, D = 3 };
	struct vgpu_bl_layout l, l2, l3;
	struct vgpu_tex_desc s = { .format = VGPU_TEX_U8, .channels = 4,
				   .dims = 3, .levels = 1 };
	struct vgpu_tex_desc d = s, a = { .format = VGPU_TEX_S16,
					  .channels = 2, .dims = 2,
					  .levels = 1 };
	uint64_t sb = bl_array(&s, W, H, D, 4, 0, &l);
	uint64_t db = bl_array(&d, W, H, D, 4, 0, &l2);
	uint64_t ab = bl_array(&a, W, H, D, 4, 1, &l3);
	struct __attribute__((packed)) { uint64_t s, d; } p = { put_desc(&s), put_desc(&d) };
	struct __attribute__((packed)) { uint64_t s; } pa = { put_desc(&a) };
	struct vgpu_core_fault f;
	int bad = 0, r;

	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint8_t *t = bl_at(sb, &l, x * 4, y, z);
				int16_t *u = bl_at(ab, &l3, x * 4, y, z);

				t[0] = (uint8_t)(x + y * 8 + z * 32);
				t[1] = (uint8_t)x;
				t[2] = (uint8_t)y;
				t[3] = 99;
				u[0] = (int16_t)(x - y * 10 - z * 100);
				u[1] = 0;
			}
	r = run(&m, "surf3d_copy", D, W, H, &p, sizeof(p), &f);
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *t = bl_at(db, &l2, x * 4, y, z);

				bad += t[0] != (uint8_t)(x + y * 8 + z * 32 + 1) ||
				       t[1] != x || t[2] != y || t[3] != z;
			}
	t_ok(!r && !bad, "suld/sust.b.3d.v4.b8 copy a 3D surface (%d %s, %d wrong)",
	     r, f.message, bad);
	r = run(&m, "surf2dlayered_rw", D, W, H, &pa, sizeof(pa), &f);
	bad = 0;
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const int16_t *u = bl_at(ab, &l3, x * 4, y, z);
				int16_t v = (int16_t)(x - y * 10 - z * 100);

				bad += u[0] != v || u[1] != (int16_t)(v * 2 + z);
			}
	t_ok(!r && !bad, "suld/sust.b.a2d.v2.b16 on a layered surface (%d %s, %d wrong)",
	     r, f.message, bad);
}

/*
 * What nvcc 13 no longer writes: texture references (unified mode),
 * queries, istypep, sured.  The host stores a handle in the .texref and
 * .surfref variables.
 */
static const char hand_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".global .texref tr;\n"
	".global .surfref sr;\n"
	".visible .entry unified(.param .u64 out)\n{\n"
	"  .reg .f32 %f<8>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
	"  ld.param.u64 %rd1, [out];\n"
	"  mov.f32 %f1, 0f40200000; mov.f32 %f2, 0f3FC00000;\n" /* 2.5, 1.5 */
	"  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tr, {%f1, %f2}];\n"
	"  st.global.f32 [%rd1], %f3;\n"
	"  suld.b.2d.b32.trap {%r1}, [sr, {8, 1}];\n"
	"  add.s32 %r1, %r1, 1000;\n"
	"  sust.b.2d.b32.trap [sr, {12, 1}], {%r1};\n"
	"  ret;\n}\n"
	".visible .entry queries(.param .u64 t, .param .u64 s, .param .u64 out)\n{\n"
	"  .reg .b32 %r<16>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
	"  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [s]; ld.param.u64 %rd3, [out];\n"
	"  txq.width.b32 %r1, [%rd1];\n"
	"  txq.height.b32 %r2, [%rd1];\n"
	"  txq.depth.b32 %r3, [%rd1];\n"
	"  txq.channel_data_type.b32 %r4, [%rd1];\n"
	"  txq.channel_order.b32 %r5, [%rd1];\n"
	"  txq.normalized_coords.b32 %r6, [%rd1];\n"
	"  txq.num_mipmap_levels.b32 %r7, [%rd1];\n"
	"  txq.array_size.b32 %r8, [%rd1];\n"
	"  txq.level.width.b32 %r9, [%rd1], 2;\n"
	"  suq.width.b32 %r10, [%rd2];\n"
	"  suq.memory_layout.b32 %r11, [%rd2];\n"
	"  istypep.texref %p1, %rd1;\n"
	"  selp.b32 %r12, 1, 0, %p1;\n"
	"  istypep.surfref %p2, sr;\n"
	"  selp.b32 %r13, 1, 0, %p2;\n"
	"  istypep.samplerref %p3, %rd1;\n"
	"  selp.b32 %r14, 1, 0, %p3;\n"
	"  st.global.v4.b32 [%rd3], {%r1, %r2, %r3, %r4};\n"
	"  st.global.v4.b32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
	"  st.global.v4.b32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
	"  st.global.v2.b32 [%rd3+48], {%r13, %r14};\n"
	"  ret;\n}\n"
	".visible .entry offsets(.param .u64 t, .param .u64 out)\n{\n"
	"  .reg .f32 %f<8>; .reg .b64 %rd<3>;\n"
	"  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
	"  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {0f40200000, 0f3FC00000}], {1, -1};\n"
	"  st.global.f32 [%rd2], %f3;\n"
	"  ret;\n}\n"
	".visible .entry formatted(.param .u64 s)\n{\n"
	"  .reg .f32 %f<2>; .reg .b64 %rd<2>;\n"
	"  ld.param.u64 %rd1, [s];\n"
	"  mov.f32 %f1, 0f3FC00000;\n"	/* 1.5 */
	"  sust.p.2d.b32.trap [%rd1, {2, 1}], {%f1};\n"
	"  ret;\n}\n"
	".visible .entry reduce(.param .u64 s)\n{\n"
	"  .reg .b32 %r<6>; .reg .b64 %rd<2>;\n"
	"  ld.param.u64 %rd1, [s];\n"
	"  mov.u32 %r1, %tid.x;\n"
	"  and.b32 %r2, %r1, 3;\n"
	"  shl.b32 %r3, %r2, 2;\n"
	"  sured.b.add.2d.u32.trap [%rd1, {%r3, 0}], %r1;\n"
	"  sured.b.max.2d.s32.trap [%rd1, {%r3, 1}], %r1;\n"
	"  sured.b.min.2d.u32.clamp [%rd1, {%r3, 2}], %r1;\n"
	"  sured.b.or.2d.b32.zero [%rd1, {%r3, 9}], %r1;\n"
	"  ret;\n}\n";

static void test_hand(void)
{
	char msg[512], err[256];
	void *img = NULL;
	size_t size;
	struct vgpu_bl_layout l;
	struct vgpu_tex_desc d = { .format = VGPU_TEX_F32, .channels = 1,
				   .dims = 2, .levels = 1 };
	struct vgpu_tex_desc s = { .format = VGPU_TEX_S32, .channels = 1,
				   .dims = 2, .levels = 1 };
	uint64_t tb, sb, out = tg_alloc(&g, 64), th, sh;
	uint32_t *o = tg_host(&g, out);
	struct vgpu_bl_layout ls;
	struct vgpu_core_fault f;
	int r, bad = 0;

	if (!t_ok(!t_compile("hand.ptx", hand_ptx, &img, &size, msg, sizeof(msg)),
		  "texref/surfref, txq, suq, istypep, sured compile %s", msg))
		return;
	if (!t_ok(!tg_load(&g, img, size, &hm, err, sizeof(err)),
		  "the core loads them %s", err)) {
		free(img);
		return;
	}
	tb = bl_array(&d, 4, 4, 1, 4, 0, &l);
	sb = bl_array(&s, 4, 16, 1, 4, 0, &ls);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			*(float *)bl_at(tb, &l, x * 4, y, 0) = (float)(x + 10 * y);
			*(int *)bl_at(sb, &ls, x * 4, y, 0) = x + 10 * y;
		}
	th = put_desc(&d);
	sh = put_desc(&s);
	memcpy(tg_host(&g, tg_symbol(&g, &hm, "tr")), &th, 8);
	memcpy(tg_host(&g, tg_symbol(&g, &hm, "sr")), &sh, 8);
	r = run(&hm, "unified", 1, 1, 1, &out, 8, &f);
	t_ok(!r && ((float *)o)[0] == 12.0f &&
	     *(int *)bl_at(sb, &ls, 12, 1, 0) == 1012,
	     "unified mode: tex through .texref, suld/sust through .surfref (%d %s, %g)",
	     r, f.message, ((float *)o)[0]);

	{
		struct __attribute__((packed)) { uint64_t t, s, out; } p = { th, sh, out };
		const uint32_t want[14] = {
			/* istypep on object handles in registers: false, as on the H100 */
			4, 4, 1, 0x10DE, 0x10B0, 0, 1, 1, 1, 4, 0, 0, 1, 0,
		};

		r = run(&hm, "queries", 1, 1, 1, &p, sizeof(p), &f);
		for (int i = 0; i < 14; i++)
			if (o[i] != want[i]) {
				bad++;
				t_diag("query %d: %u, want %u", i, o[i], want[i]);
			}
		t_ok(!r && !bad, "txq/suq/istypep answer from the descriptor (%d %s)",
		     r, f.message);
	}

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++)
			*(int *)bl_at(sb, &ls, x * 4, y, 0) = y == 2 ? 1000 : 0;
	*(int *)bl_at(sb, &ls, 0, 9, 0) = 0;
	r = run(&hm, "reduce", 1, 64, 1, &sh, 8, &f);
	bad = 0;
	for (int x = 0; x < 4; x++) {
		int sum = 0, mx = 0, mn = 1000, orv = 0;

		for (int t = x; t < 64; t += 4) {
			sum += t;
			mx = t > mx ? t : mx;
			mn = t < mn ? t : mn;
			orv |= t;
		}
		bad += *(int *)bl_at(sb, &ls, x * 4, 0, 0) != sum;
		bad += *(int *)bl_at(sb, &ls, x * 4, 1, 0) != mx;
		bad += *(int *)bl_at(sb, &ls, x * 4, 2, 0) != mn;
		bad += *(int *)bl_at(sb, &ls, x * 4, 9, 0) != orv;
	}
	t_ok(!r && !bad, "sured add/max/min/or on a surface (%d %s, %d wrong)",
	     r, f.message, bad);

	/* sust.p converts to the format: 1.5 into a half surface */
	{
		struct vgpu_bl_layout lh;
		struct vgpu_tex_desc hd = { .format = VGPU_TEX_F16,
					    .channels = 1, .dims = 2,
					    .levels = 1 };
		uint64_t hb = bl_array(&hd, 4, 2, 1, 2, 0, &lh);
		uint64_t hh = put_desc(&hd);
		uint16_t *h1 = bl_at(hb, &lh, 4, 1, 0);

		r = run(&hm, "formatted", 1, 1, 1, &hh, 8, &f);
		t_ok(!r && *h1 == 0x3e00 && *(uint16_t *)bl_at(hb, &lh, 2, 1, 0) == 0,
		     "sust.p stores f32 1.5 as half 0x3e00 at element x 2 (%d %s, 0x%04x)",
		     r, f.message, *h1);
	}

	/* texel offsets: (2.5, 1.5) + (1, -1) is texel (3, 0) */
	{
		struct __attribute__((packed)) { uint64_t t, out; } p = { th, out };

		r = run(&hm, "offsets", 1, 1, 1, &p, sizeof(p), &f);
		t_ok((!r && ((float *)o)[0] == 3.0f) ||
		     (r && f.kind == VISA_FAULT_INVALID_IMAGE &&
		      strstr(f.message, "cannot answer")),
		     "tex with offsets {1, -1} (%s %g)", r ? f.message : "ran",
		     ((float *)o)[0]);
	}

	/* a handle that is no descriptor, and an unmapped one */
	{
		struct __attribute__((packed)) { uint64_t t, out; int w; float dx, dy; } p = {
			out, out, 1, 0.5f, 0.5f };

		memset(o, 0xff, 64);
		r = run(&m, "tex2d", 1, 1, 1, &p, sizeof(p), &f);
		t_ok(r && f.kind == VISA_FAULT_OUT_OF_RANGE &&
		     strstr(f.message, "descriptor"),
		     "tex on memory that is no descriptor faults: %s", f.message);
		p.t = 0x7f0000000000ull;
		r = run(&m, "tex2d", 1, 1, 1, &p, sizeof(p), &f);
		t_ok(r && f.kind == VISA_FAULT_UNMAPPED,
		     "tex on an unmapped handle faults as a load: %s", f.message);
	}
	tg_unload(&hm);
	free(img);
}

int main(void)
{
	char path[512], msg[512], err[256];
	void *img = NULL;
	size_t size;
	char *text;

	t_start();
	snprintf(path, sizeof(path), "%s/sm_90/tex.ptx", PTX_TEST_DATA);
	text = t_read_file(path, NULL);
	if (!t_ok(text && !t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "nvcc's tex.ptx compiles %s", msg))
		goto out;
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		goto out;
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		  "the core loads tex.ptx %s", err))
		goto fini;
	test_tex2d_pitch();
	test_tex2d_rgba();
	test_fetch1d();
	test_tex3d_layered();
	test_tex1d_layered();
	test_lod_gather_cube();
	test_surf2d();
	test_surf_vectors();
	test_hand();
	tg_unload(&m);
fini:
	tg_fini(&g);
out:
	free(img);
	free(text);
	return t_done();
}
