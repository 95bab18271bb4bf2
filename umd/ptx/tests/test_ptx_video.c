// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_video - the video instructions (vadd, vabsdiff4, vset2, ...)
 * compute what the PTX ISA defines.  Each variant (operation, lanes,
 * operand types, .sat, secondary operation or merge, selectors) becomes
 * one kernel applying it to a few thousand operand triples: edge values
 * (sign boundaries, saturation limits, all-ones) in every combination,
 * then pseudo-random ones.  The kernels run on the execution core and
 * every result is compared with a reference written here in C from the
 * ISA's pseudo-code: wide signed arithmetic per lane or part, clamping,
 * then merge into c or accumulation onto c.  Then nvcc's own PTX for the
 * SIMD intrinsics (cu/video_cg.cu) runs against the same reference, and a
 * cooperative-groups tile of 64 threads, which keeps its scratch in the
 * reserved shared memory, reduces correctly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

enum op { ADD, SUB, AVRG, ABSDIFF, MIN, MAX, SHL, SHR, SET };

static const char *const op_names[] = {
	"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vshl", "vshr",
	"vset",
};

enum cmp { EQ, NE, LT, LE, GT, GE };
static const char *const cmp_names[] = { "eq", "ne", "lt", "le", "gt", "ge" };

struct vcase {
	enum op op;
	unsigned int lanes;	/* 0 scalar, 2 or 4 */
	bool ds, as, bs;	/* .s32 (true) or .u32 */
	bool sat;
	char sec;		/* 0, 'a'dd, 'n' min, 'x' max */
	enum cmp cmp;
	bool wrap;		/* vshl/vshr: .wrap, else .clamp */
	const char *dsel, *asel, *bsel;	/* selector text without '.' */
	bool d_is_c;		/* the destination is c's register */
};

#define MAX_CASES 1024
static struct vcase cases[MAX_CASES];
static unsigned int ncases;

static struct vcase *add_case(struct vcase c)
{
	if (ncases == MAX_CASES)
		abort();
	cases[ncases] = c;
	return &cases[ncases++];
}

/* ---- the reference ------------------------------------------------------ */

/* Bits [pos, pos + len) of v, sign- or zero-extended. */
static int64_t part(uint64_t v, unsigned int pos, unsigned int len, bool sgn)
{
	uint64_t x = (v >> pos) & ((len == 64 ? 0 : (UINT64_C(1) << len)) - 1);

	if (sgn && (x >> (len - 1)) & 1)
		return (int64_t)x - (int64_t)(UINT64_C(1) << len);
	return (int64_t)x;
}

static int64_t clamp(int64_t x, unsigned int bits, bool sgn)
{
	int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
	int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 :
			   ((int64_t)1 << bits) - 1;

	return x < lo ? lo : x > hi ? hi : x;
}

static bool compare(enum cmp c, int64_t x, int64_t y)
{
	switch (c) {
	case EQ: return x == y;
	case NE: return x != y;
	case LT: return x < y;
	case LE: return x <= y;
	case GT: return x > y;
	case GE: return x >= y;
	}
	return false;
}

/* floor(x / 2^n) without relying on >> of negative numbers. */
static int64_t floor_shift(int64_t x, unsigned int n)
{
	return x >= 0 ? x >> n : -(((-x) + ((int64_t)1 << n) - 1) >> n);
}

static int64_t apply(const struct vcase *k, int64_t x, int64_t y)
{
	int64_t s;

	switch (k->op) {
	case ADD: return x + y;
	case SUB: return x - y;
	case ABSDIFF: return x > y ? x - y : y - x;
	case MIN: return x < y ? x : y;
	case MAX: return x > y ? x : y;
	case AVRG:
		s = x + y;
		return s >= 0 ? (s + 1) / 2 : floor_shift(s, 1);
	case SET: return compare(k->cmp, x, y);
	case SHL:
	case SHR:
		if (k->wrap)
			y &= 31;
		else if (y > 32)
			y = 32;
		return k->op == SHL ? (int64_t)((uint64_t)x << y) :
				      floor_shift(x, (unsigned int)y);
	}
	return 0;
}

/* "b2" -> (16, 8); "h1" -> (16, 16); NULL -> the whole word. */
static void sel_part(const char *s, unsigned int *pos, unsigned int *len)
{
	*pos = 0;
	*len = 32;
	if (!s)
		return;
	*len = s[0] == 'b' ? 8 : 16;
	*pos = (unsigned int)(s[1] - '0') * *len;
}

static uint32_t ref_scalar(const struct vcase *k, uint32_t a, uint32_t b,
			   uint32_t c)
{
	unsigned int ap, al, bp, bl, dp, dl;
	int64_t t, cc;
	bool csigned = k->op == SET ? false : k->ds;

	sel_part(k->asel, &ap, &al);
	sel_part(k->bsel, &bp, &bl);
	sel_part(k->dsel, &dp, &dl);
	t = apply(k, part(a, ap, al, k->as), part(b, bp, bl, k->bs));
	if (k->sat)
		t = clamp(t, dl, k->ds);
	cc = part(c, 0, 32, csigned);
	if (k->sec == 'a')	/* a shifted value may be near 2^63: wrap */
		t = (int64_t)((uint64_t)t + (uint64_t)cc);
	else if (k->sec == 'n')
		t = t < cc ? t : cc;
	else if (k->sec == 'x')
		t = t > cc ? t : cc;
	if (k->dsel) {
		uint32_t m = (dl == 32 ? 0xffffffffu : (1u << dl) - 1) << dp;

		return (c & ~m) | (((uint32_t)t << dp) & m);
	}
	return (uint32_t)t;
}

static uint32_t ref_simd(const struct vcase *k, uint32_t a, uint32_t b,
			 uint32_t c)
{
	unsigned int n = k->lanes, w = 32 / n, i, asel[4], bsel[4], mask = 0;
	uint64_t pool = (uint64_t)b << 32 | a;
	uint32_t d = c;

	for (i = 0; i < n; i++) {
		/* The selector text lists the highest lane's source first. */
		asel[i] = k->asel ? (unsigned int)(k->asel[n - i] - '0') : i;
		bsel[i] = k->bsel ? (unsigned int)(k->bsel[n - i] - '0') : n + i;
	}
	if (!k->dsel)
		mask = (1u << n) - 1;
	else
		for (i = 1; k->dsel[i]; i++)
			mask |= 1u << (k->dsel[i] - '0');
	for (i = 0; i < n; i++) {
		int64_t t;

		if (!(mask >> i & 1))
			continue;
		t = apply(k, part(pool, asel[i] * w, w, k->as),
			  part(pool, bsel[i] * w, w, k->bs));
		if (k->sat)
			t = clamp(t, w, k->ds);
		if (k->sec == 'a') {
			d += (uint32_t)t;
		} else {
			uint32_t m = (w == 32 ? 0xffffffffu : (1u << w) - 1) << (i * w);

			d = (d & ~m) | (((uint32_t)t << (i * w)) & m);
		}
	}
	return d;
}

static uint32_t reference(const struct vcase *k, uint32_t a, uint32_t b,
			  uint32_t c)
{
	return k->lanes ? ref_simd(k, a, b, c) : ref_scalar(k, a, b, c);
}

/* ---- the kernels -------------------------------------------------------- */

static int insn_text(const struct vcase *k, char *buf, size_t len)
{
	char name[16], types[32], mods[32], d[16], a[16], b[16];
	bool has_c = k->lanes || k->sec || k->dsel;
	const char *dreg = k->d_is_c ? "%r4" : "%r5";

	snprintf(name, sizeof(name), "%s%s", op_names[k->op],
		 k->lanes == 2 ? "2" : k->lanes == 4 ? "4" : "");
	if (k->op == SET)
		snprintf(types, sizeof(types), ".%s.%s.%s",
			 k->as ? "s32" : "u32", k->bs ? "s32" : "u32",
			 cmp_names[k->cmp]);
	else
		snprintf(types, sizeof(types), ".%s.%s.%s",
			 k->ds ? "s32" : "u32", k->as ? "s32" : "u32",
			 k->bs ? "s32" : "u32");
	snprintf(mods, sizeof(mods), "%s%s%s", k->sat ? ".sat" : "",
		 k->op == SHL || k->op == SHR ? (k->wrap ? ".wrap" : ".clamp") : "",
		 k->sec == 'a' ? ".add" : k->sec == 'n' ? ".min" :
		 k->sec == 'x' ? ".max" : "");
	snprintf(d, sizeof(d), "%s%s%s", dreg, k->dsel ? "." : "",
		 k->dsel ? k->dsel : "");
	snprintf(a, sizeof(a), "%%r2%s%s", k->asel ? "." : "",
		 k->asel ? k->asel : "");
	snprintf(b, sizeof(b), "%%r3%s%s", k->bsel ? "." : "",
		 k->bsel ? k->bsel : "");
	return snprintf(buf, len, "%s%s%s %s, %s, %s%s;", name, types, mods,
			d, a, b, has_c ? ", %r4" : "");
}

static char *module_text(void)
{
	size_t cap = 4096 + (size_t)ncases * 1024, n = 0;
	char *s = malloc(cap), insn[160];
	unsigned int i;

	if (!s)
		abort();
	n += (size_t)snprintf(s + n, cap - n,
			      ".version 8.0\n.target sm_90\n.address_size 64\n");
	for (i = 0; i < ncases; i++) {
		insn_text(&cases[i], insn, sizeof(insn));
		n += (size_t)snprintf(s + n, cap - n,
			".visible .entry v%u(.param .u64 pa, .param .u64 pb,\n"
			"  .param .u64 pc, .param .u64 pd)\n{\n"
			".reg .b32 %%r<8>;\n.reg .b64 %%rd<12>;\n"
			"ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\n"
			"ld.param.u64 %%rd3, [pc];\nld.param.u64 %%rd4, [pd];\n"
			"mov.u32 %%r1, %%tid.x;\nmov.u32 %%r6, %%ctaid.x;\n"
			"mov.u32 %%r7, %%ntid.x;\nmad.lo.u32 %%r1, %%r6, %%r7, %%r1;\n"
			"mul.wide.u32 %%rd5, %%r1, 4;\n"
			"add.u64 %%rd6, %%rd1, %%rd5;\nld.global.u32 %%r2, [%%rd6];\n"
			"add.u64 %%rd7, %%rd2, %%rd5;\nld.global.u32 %%r3, [%%rd7];\n"
			"add.u64 %%rd8, %%rd3, %%rd5;\nld.global.u32 %%r4, [%%rd8];\n"
			"%s\n"
			"add.u64 %%rd9, %%rd4, %%rd5;\nst.global.u32 [%%rd9], %s;\n"
			"ret;\n}\n", i, insn, cases[i].d_is_c ? "%r4" : "%r5");
	}
	return s;
}

/* ---- the variants ------------------------------------------------------- */

static void make_cases(void)
{
	static const bool sign3[][3] = {
		{ false, false, false }, { true, true, true },
		{ true, false, true }, { false, true, false },
	};
	static const char *const mask4[] = { NULL, "b3210", "b20", "b31", "b1" };
	static const char *const sel4[][2] = {
		{ NULL, NULL }, { "b7654", "b3210" }, { "b0123", "b4567" },
		{ "b7250", "b1163" },
	};
	static const char *const mask2[] = { NULL, "h10", "h0", "h1" };
	static const char *const sel2[][2] = {
		{ NULL, NULL }, { "h32", "h10" }, { "h01", "h23" },
		{ "h30", "h12" },
	};
	static const char *const part_sel[] = { NULL, "b0", "b3", "h0", "h1", "b1" };
	unsigned int op, s, i, lanes;
	enum cmp c;

	/* SIMD: every operation, every signedness, sat / merge / add. */
	for (lanes = 2; lanes <= 4; lanes += 2) {
		for (op = ADD; op <= MAX; op++) {
			for (s = 0; s < 4; s++) {
				struct vcase k = { .op = op, .lanes = lanes,
					.ds = sign3[s][0], .as = sign3[s][1],
					.bs = sign3[s][2] };

				add_case(k);
				k.sat = true;
				add_case(k);
				k.sat = false;
				k.sec = 'a';
				add_case(k);
				k.sec = 0;
				/* masks and selectors, with and without .sat */
				k.dsel = lanes == 4 ? mask4[1 + s] : mask2[s];
				k.asel = lanes == 4 ? sel4[s][0] : sel2[s][0];
				k.bsel = lanes == 4 ? sel4[s][1] : sel2[s][1];
				k.sat = s & 1;
				add_case(k);
				k.sec = 'a';
				k.sat = false;
				add_case(k);
			}
		}
		for (c = EQ; c <= GE; c++) {
			for (s = 0; s < 4; s++) {
				struct vcase k = { .op = SET, .lanes = lanes,
					.cmp = c, .as = sign3[s][1],
					.bs = sign3[s][2] };

				add_case(k);
				if (s == 1 || s == 2) {
					k.sec = 'a';
					add_case(k);
					k.sec = 0;
					k.dsel = lanes == 4 ? "b30" : "h1";
					k.asel = lanes == 4 ? "b4321" : "h21";
					add_case(k);
				}
			}
		}
	}
	/* What nvcc writes: d is c's register (vabsdiff4 %r1, %r2, %r3, %r1). */
	add_case((struct vcase){ .op = ABSDIFF, .lanes = 4, .d_is_c = true });
	add_case((struct vcase){ .op = ABSDIFF, .lanes = 2, .sec = 'a',
				 .d_is_c = true });
	add_case((struct vcase){ .op = ABSDIFF, .lanes = 4, .sec = 'a',
				 .d_is_c = true });

	/* Scalar: parts, .sat, secondary operations, merges. */
	for (op = ADD; op <= SET; op++) {
		if (op == AVRG)
			continue;
		for (s = 0; s < 4; s++) {
			struct vcase k = { .op = op, .ds = sign3[s][0],
					   .as = sign3[s][1],
					   .bs = op == SHL || op == SHR ?
						 false : sign3[s][2],
					   .wrap = s & 1, .cmp = (enum cmp)s };

			add_case(k);
			if (op != SET) {
				k.sat = true;
				add_case(k);
			}
			for (i = 0; i < 3; i++) {
				k.sec = "anx"[i];
				k.sat = op != SET && (i & 1);
				add_case(k);
			}
			k.sec = 0;
			for (i = 0; i < 6; i++) {
				k.asel = part_sel[i];
				k.bsel = part_sel[(i + s + 1) % 6];
				k.dsel = NULL;
				k.sat = op != SET && (i & 1);
				add_case(k);
				k.dsel = part_sel[1 + (i + s) % 5];
				k.sat = op != SET && !(i & 1);
				add_case(k);
			}
		}
	}
}

/* ---- running -------------------------------------------------------------- */

#define NVALS 4096
#define THREADS 128

static const uint32_t edges[] = {
	0x00000000, 0xffffffff, 0x7fffffff, 0x80000000, 0x7f7f7f7f,
	0x80808080, 0x01010101, 0xff01ff01, 0x7fff8000, 0x8000ffff,
	0x00ff00ff, 0xff00ff00, 0x00000001, 0x0000001f, 0x00000020,
	0x00000021,
};

static void make_inputs(uint32_t *a, uint32_t *b, uint32_t *c)
{
	const unsigned int ne = sizeof(edges) / sizeof(edges[0]);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int i;

	for (i = 0; i < NVALS; i++) {
		if (i < ne * ne * 4) {
			a[i] = edges[i % ne];
			b[i] = edges[i / ne % ne];
			c[i] = edges[(i / (ne * ne) * 5 + i) % ne];
			continue;
		}
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		a[i] = (uint32_t)x;
		b[i] = (uint32_t)(x >> 32);
		c[i] = (uint32_t)(x >> 16) ^ (uint32_t)(x >> 40);
		/* small shift amounts for half the shifts to be interesting */
		if (i & 1)
			b[i] &= 0x3f3f3f3fu;
	}
}

/* ---- what nvcc makes of the intrinsics ------------------------------------ */

#define NV_OUTPUTS 10

static uint32_t simd(struct vcase k, uint32_t a, uint32_t b, uint32_t c)
{
	return ref_simd(&k, a, b, c);
}

/* The CUDA intrinsic (or inline assembly) behind output j of cu/video_cg.cu. */
static uint32_t nv_reference(unsigned int j, uint32_t a, uint32_t b, uint32_t c)
{
	switch (j) {
	case 0:	/* __vabsdiffu4 */
		return simd((struct vcase){ .op = ABSDIFF, .lanes = 4 }, a, b, 0);
	case 1:	/* __vabsdiffs4 */
		return simd((struct vcase){ .op = ABSDIFF, .lanes = 4,
					    .as = true, .bs = true }, a, b, 0);
	case 2:	/* __vsadu4 */
		return simd((struct vcase){ .op = ABSDIFF, .lanes = 4,
					    .sec = 'a' }, a, b, 0);
	case 3:	/* __vsadu2 */
		return simd((struct vcase){ .op = ABSDIFF, .lanes = 2,
					    .sec = 'a' }, a, b, 0);
	case 4:	/* __vabsdiffu2 */
		return simd((struct vcase){ .op = ABSDIFF, .lanes = 2 }, a, b, 0);
	case 5:	/* __vavgu2 */
		return simd((struct vcase){ .op = AVRG, .lanes = 2 }, a, b, 0);
	case 6:	/* __vcmpgtu4: 0xff per true byte */
		return simd((struct vcase){ .op = SET, .lanes = 4, .cmp = GT },
			    a, b, 0) * 0xffu;
	case 7:	/* __vmaxs4 ^ __vsubss2 */
		return simd((struct vcase){ .op = MAX, .lanes = 4, .ds = true,
					    .as = true, .bs = true }, a, b, 0) ^
		       simd((struct vcase){ .op = SUB, .lanes = 2, .ds = true,
					    .as = true, .bs = true, .sat = true },
			    a, b, 0);
	case 8:	/* vabsdiff4.u32.u32.u32.add (stereoDisparity's __usad4) */
		return simd((struct vcase){ .op = ABSDIFF, .lanes = 4,
					    .sec = 'a' }, a, b, c);
	default: /* vadd2.s32.s32.s32.sat d.h1, a.h10, b.h32, c */
		return simd((struct vcase){ .op = ADD, .lanes = 2, .ds = true,
					    .as = true, .bs = true, .sat = true,
					    .dsel = "h1", .asel = "h10",
					    .bsel = "h32" }, a, b, c);
	}
}

static void check_nvcc(const char *arch, const uint32_t *ha, const uint32_t *hb,
		       const uint32_t *hc)
{
	const uint32_t grid[3] = { NVALS / THREADS, 1, 1 };
	const uint32_t block[3] = { THREADS, 1, 1 }, one[3] = { 1, 1, 1 };
	const uint32_t tile_block[3] = { 256, 1, 1 };
	char path[512], msg[512], err[256];
	struct vgpu_core_fault f = { 0 };
	struct test_gpu g;
	struct tg_module m;
	uint64_t va, vb, vc, vo, p[4];
	const uint32_t *out;
	void *img = NULL;
	unsigned int t, j, bad = 0;
	size_t size;
	char *text;

	snprintf(path, sizeof(path), "%s/%s/video_cg.ptx", PTX_TEST_DATA, arch);
	text = t_read_file(path, NULL);
	if (!t_ok(text && !t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "%s: nvcc's video_cg.ptx compiles %s", arch, msg))
		goto out;
	if (tg_init(&g, 2))
		goto out;
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		  "%s: the core loads video_cg %s", arch, err))
		goto fini;
	va = tg_alloc(&g, NVALS * 4);
	vb = tg_alloc(&g, NVALS * 4);
	vc = tg_alloc(&g, NVALS * 4);
	vo = tg_alloc(&g, NVALS * 4 * NV_OUTPUTS);
	memcpy(tg_host(&g, va), ha, NVALS * 4);
	memcpy(tg_host(&g, vb), hb, NVALS * 4);
	memcpy(tg_host(&g, vc), hc, NVALS * 4);
	p[0] = vo;
	p[1] = va;
	p[2] = vb;
	p[3] = vc;
	if (t_ok(!tg_launch(&g, &m, "video_intrinsics", grid, block, 0, p,
			    sizeof(p), &f),
		 "%s: video_intrinsics runs %s", arch, f.message)) {
		out = tg_host(&g, vo);
		for (t = 0; t < NVALS; t++)
			for (j = 0; j < NV_OUTPUTS; j++) {
				uint32_t want = nv_reference(j, ha[t], hb[t], hc[t]);

				if (out[NV_OUTPUTS * t + j] != want && bad++ < 4)
					t_diag("%s: output %u of a %#x b %#x c %#x: %#x, want %#x",
					       arch, j, ha[t], hb[t], hc[t],
					       out[NV_OUTPUTS * t + j], want);
			}
		t_ok(!bad, "%s: __vabsdiffu4, __vsadu4, __vcmpgtu4, ... and inline vabsdiff4.add match the reference (%u wrong)",
		     arch, bad);
	}
	/* The tile of 64 needs the reserved shared memory: sm_80 and later. */
	if (strcmp(arch, "sm_75") &&
	    t_ok(!tg_launch(&g, &m, "video_cg_tile", one, tile_block, 0, &vo, 8, &f),
		 "%s: video_cg_tile runs %s", arch, f.message)) {
		out = tg_host(&g, vo);
		bad = 0;
		for (t = 0; t < 256; t++) {
			uint32_t base = t / 64 * 64;
			uint32_t want = 64 * base + 63 * 64 / 2 + (255 - t) * 3 + 1;

			bad += out[t] != want;
		}
		t_ok(!bad, "%s: cooperative groups' tile of 64 (scratch in the reserved shared memory) reduces right (%u wrong)",
		     arch, bad);
	}
	tg_unload(&m);
fini:
	tg_fini(&g);
out:
	vgpu_ptx_free(img);
	free(text);
}

int main(void)
{
	static uint32_t ha[NVALS], hb[NVALS], hc[NVALS];
	char msg[512], err[256], insn[160];
	const uint32_t grid[3] = { NVALS / THREADS, 1, 1 };
	const uint32_t block[3] = { THREADS, 1, 1 };
	struct test_gpu g;
	struct tg_module m;
	unsigned int i, j, failed = 0;
	uint64_t va, vb, vc, vd;
	void *img = NULL;
	size_t size;
	char *text;

	t_start();
	make_cases();
	make_inputs(ha, hb, hc);
	text = module_text();
	if (!t_ok(!t_compile("video.ptx", text, &img, &size, msg, sizeof(msg)),
		  "%u video instruction variants compile %s", ncases, msg))
		goto out;
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		goto out;
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		  "the core loads the image %s", err))
		goto fini;
	va = tg_alloc(&g, sizeof(ha));
	vb = tg_alloc(&g, sizeof(hb));
	vc = tg_alloc(&g, sizeof(hc));
	vd = tg_alloc(&g, sizeof(ha));
	memcpy(tg_host(&g, va), ha, sizeof(ha));
	memcpy(tg_host(&g, vb), hb, sizeof(hb));
	memcpy(tg_host(&g, vc), hc, sizeof(hc));
	for (i = 0; i < ncases; i++) {
		const struct vcase *k = &cases[i];
		uint64_t p[4] = { va, vb, vc, vd };
		struct vgpu_core_fault f;
		char name[16];
		const uint32_t *out;
		unsigned int bad = 0;
		int r;

		snprintf(name, sizeof(name), "v%u", i);
		insn_text(k, insn, sizeof(insn));
		memset(tg_host(&g, vd), 0xa5, sizeof(ha));
		r = tg_launch(&g, &m, name, grid, block, 0, p, sizeof(p), &f);
		if (r) {
			t_ok(false, "%s runs (launch %d: %s)", insn, r, f.message);
			failed++;
			continue;
		}
		out = tg_host(&g, vd);
		for (j = 0; j < NVALS; j++) {
			uint32_t want = reference(k, ha[j], hb[j], hc[j]);

			if (out[j] != want && bad++ < 3)
				t_diag("%s: a %#x b %#x c %#x: %#x, want %#x",
				       insn, ha[j], hb[j], hc[j], out[j], want);
		}
		if (bad) {
			t_ok(false, "%s (%u of %u wrong)", insn, bad, NVALS);
			failed++;
		}
	}
	t_ok(!failed, "%u of %u video variants match the reference over %u operand triples",
	     ncases - failed, ncases, NVALS);
	tg_unload(&m);
fini:
	tg_fini(&g);
out:
	vgpu_ptx_free(img);
	free(text);
	check_nvcc("sm_75", ha, hb, hc);
	check_nvcc("sm_90", ha, hb, hc);
	return t_done();
}
