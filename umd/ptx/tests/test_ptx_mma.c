// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_mma - WMMA compiled by this compiler and run on the execution
 * core (both tiers, through tests/lib's native test GPU) does what an
 * H100 does, checked against the recording
 * tools/cuda-probe/golden/probe_mma.h100.txt:
 *
 *  - layouts: for every fragment of the recording ("L" lines) a kernel
 *    loads it from a matrix holding row numbers, then column numbers (or,
 *    sub-byte, word numbers), and stores each lane's registers; every
 *    element must be where the H100 put it; six of them again from
 *    shared memory with rows (columns) 8 elements longer than the matrix;
 *  - arithmetic: for every WMMA product of the recording ("D" lines, with
 *    their inputs in the "I" lines before them) a kernel loads A, B and C,
 *    multiplies and stores D, whose bits must be the H100's;
 *  - mma.sync shapes and types the recording lacks (s8/u8 k16, k32 u8,
 *    m8n8k16, s4/u4, b1, tf32 k4, bf16 k8): each lane's registers packed
 *    by the PTX ISA's figures, D checked against exact arithmetic;
 *  - errors: a wmma whose shape does not take its type is refused with a
 *    clear message.
 *
 * The mma.sync, ldmatrix, stmatrix and movmatrix lines of the recording
 * are checked by the guest test test_cu_probe_mma, which runs the probe
 * itself.  Mixed signedness, fp8 and f64 m16n8k*: test_ptx_mma_ext.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mma_test.h"
#include "fp_formats.h"
#include "vgpu_mma.h"

#define GOLDEN PTX_TEST_SRC "/../../../tools/cuda-probe/golden/probe_mma.h100.txt"

static const char *const tnames[VISA_MMA_TYPE_COUNT] = {
	"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "b1",
	"s32", "e4m3", "e5m2",
};

static int type_of(const char *s)
{
	for (int i = 0; i < VISA_MMA_TYPE_COUNT; i++)
		if (!strcmp(s, tnames[i]))
			return i;
	return -1;
}

static int shape_of(const char *s, unsigned int *m, unsigned int *n,
		    unsigned int *k)
{
	static const char *const names[] = {
		"m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4",
		"m8n8k32", "m8n8k128",
	};

	for (int i = 0; i < 7; i++)
		if (!strcmp(s, names[i])) {
			visa_mma_dims((unsigned int)i, m, n, k);
			return i;
		}
	return -1;
}

/* Bytes of one element in memory (sub-byte: handled as words). */
static unsigned int esize(int t)
{
	unsigned int b = visa_mma_type_bits((unsigned int)t);

	return b < 8 ? 4 : b / 8;
}

static const char prologue[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc,"
	" .param .u64 pd)\n{\n"
	".reg .b32 %ra<16>, %rb<16>, %rc<16>, %rd<16>, %r<8>;\n"
	".reg .f64 %fda<4>, %fdb<4>, %fdc<4>, %fdd<4>;\n"
	".reg .b64 %p<8>;\n.reg .pred %q;\n"
	"ld.param.u64 %p0, [pa];\nld.param.u64 %p1, [pb];\n"
	"ld.param.u64 %p2, [pc];\nld.param.u64 %p3, [pd];\n"
	"cvta.to.global.u64 %p0, %p0;\ncvta.to.global.u64 %p1, %p1;\n"
	"cvta.to.global.u64 %p2, %p2;\ncvta.to.global.u64 %p3, %p3;\n";

static struct test_gpu gpu;
static unsigned int failures;
/* four device buffers every kernel gets, big enough for every case */
static uint64_t bufs[4];
#define BUF_SIZE (512 * 8 + 64)

/* ---- layouts ----------------------------------------------------------- */

/*
 * L <shape> <a|b|c> <type> <row|col> lane N: r,c r,c ...   or
 * L <shape> <a|b> <type> <row|col> lane N: wW   (sub-byte words)
 */
/*
 * @pad 0: the matrix is dense in global memory.  Else its rows (columns)
 * are @pad elements longer than the matrix, and the kernel copies it to
 * shared memory and loads it from there: strides and .shared.
 */
static void check_layout(char **lines, unsigned int first, unsigned int pad)
{
	char shape[16], mat[4], type[8], lay[8], what[64], text[4096];
	char list[256];
	unsigned int m = 0, n = 0, k = 0, rows, cols, rp, nel, bad = 0;
	struct visa_mma_frag f;
	int s, t, lane;
	bool col, words;
	uint64_t p[4], ld;
	uint32_t *out[2];

	if (sscanf(lines[first], "L %15s %3s %7s %7s lane %d:", shape, mat,
		   type, lay, &lane) != 5)
		return;
	s = shape_of(shape, &m, &n, &k);
	t = type_of(type);
	snprintf(what, sizeof(what), "%s %s %s %s", shape, mat, type, lay);
	if (s < 0 || t < 0 || visa_mma_fragment((unsigned int)s,
						(unsigned int)t,
						mat[0] - 'a', &f)) {
		t_ok(false, "layout %s: a fragment vGPU knows", what);
		failures++;
		return;
	}
	col = !strcmp(lay, "col");
	words = f.bits < 8;
	if (words && pad)
		return;
	rows = f.rows;
	cols = f.cols;
	ld = (col ? rows : cols) + pad;
	if (pad)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 " from .shared, stride %llu", (unsigned long long)ld);
	nel = f.ntiles * f.e;
	rp = f.bits == 64 ? 2 : 1;	/* 32-bit words per register */
	mma_regs(list, sizeof(list), f.bits == 64 ? "fda" : "ra", f.nregs);
	{
		/* the bytes of the matrix, padded rows included, in words */
		unsigned int bytes = ((col ? cols : rows) * (unsigned int)ld *
				      esize(t) + 3) & ~3u;
		char copy[1024] = "";
		size_t o;

		if (pad)
			snprintf(copy, sizeof(copy),
				 ".shared .align 16 .b8 sm[%u];\n"
				 "mov.u32 %%r1, %%laneid;\nshl.b32 %%r1, %%r1, 2;\n"
				 "LOOP:\nsetp.ge.u32 %%q, %%r1, %u;\n@%%q bra DONE;\n"
				 "cvt.u64.u32 %%p5, %%r1;\nadd.u64 %%p6, %%p0, %%p5;\n"
				 "ld.global.b32 %%r2, [%%p6];\nmov.u64 %%p7, sm;\n"
				 "add.u64 %%p7, %%p7, %%p5;\n"
				 "st.shared.b32 [%%p7], %%r2;\n"
				 "add.u32 %%r1, %%r1, 128;\nbra LOOP;\n"
				 "DONE:\nbar.sync 0;\nmov.u64 %%p0, sm;\n",
				 bytes, bytes);
		o = (size_t)snprintf(text, sizeof(text),
			"%s%s"
			"mov.u32 %%r0, %%laneid;\n"
			"mul.wide.u32 %%p4, %%r0, %u;\n"
			"add.u64 %%p4, %%p4, %%p1;\n"
			"wmma.load.%c.sync.aligned.%s.%s.%s.%s %s, [%%p0], %llu;\n",
			prologue, copy, f.nregs * rp * 4, mat[0], lay, shape,
			pad ? "shared" : "global", type, list,
			(unsigned long long)ld);

		for (unsigned int i = 0; i < f.nregs; i++)
			o += (size_t)snprintf(text + o, sizeof(text) - o,
				f.bits == 64 ? "st.global.f64 [%%p4+%u], %%fda%u;\n" :
					       "st.global.b32 [%%p4+%u], %%ra%u;\n",
				i * rp * 4, i);
		snprintf(text + o, sizeof(text) - o, "ret;\n}\n");
	}
	memcpy(p, bufs, sizeof(p));
	for (int pass = 0; pass < 2; pass++) {
		uint8_t *mem = tg_host(&gpu, p[0]);
		unsigned int es = esize(t);

		for (unsigned int r = 0; r < rows; r++)
			for (unsigned int c = 0; c < cols; c++) {
				uint64_t v = pass ? c : r;
				uint64_t at = col ? (uint64_t)c * ld + r :
						    (uint64_t)r * ld + c;

				if (words) {	/* word numbers */
					if ((at * f.bits) % 32 == 0) {
						uint32_t w = (uint32_t)(at * f.bits / 32);

						memcpy(mem + at * f.bits / 8, &w, 4);
					}
					continue;
				}
				memcpy(mem + at * es, &v, es);
			}
		out[pass] = malloc(32 * f.nregs * rp * 4);
		if (!mma_run(&gpu, what, text, p, NULL, 0)) {
			t_ok(false, "layout %s runs", what);
			failures++;
			free(out[0]);
			if (pass)
				free(out[1]);
			return;
		}
		memcpy(out[pass], tg_host(&gpu, p[1]), 32 * f.nregs * rp * 4);
		if (words)
			break;
	}
	for (unsigned int l = 0; l < 32; l++) {
		const char *q = strchr(lines[first + l], ':');

		for (unsigned int i = 0; q && i < (words ? f.nregs : nel); i++) {
			unsigned int wr, wc;
			int got[2], used;

			if (words) {
				if (sscanf(q + 1, " w%u%n", &wr, &used) != 1)
					break;
				got[0] = (int)out[0][l * f.nregs + i];
				if (got[0] != (int)wr && bad++ < 3)
					t_diag("%s lane %u reg %u: word %d, H100 %u",
					       what, l, i, got[0], wr);
			} else {
				if (sscanf(q + 1, " %u,%u%n", &wr, &wc, &used) != 2)
					break;
				for (int pass = 0; pass < 2; pass++) {
					const uint8_t *b = (const uint8_t *)
						(out[pass] + l * f.nregs * rp);
					uint64_t v = 0;
					unsigned int bit = i * f.bits;

					memcpy(&v, b + bit / 8,
					       f.bits / 8 ? f.bits / 8 : 1);
					got[pass] = (int)v;
				}
				if ((got[0] != (int)wr || got[1] != (int)wc) &&
				    bad++ < 3)
					t_diag("%s lane %u element %u: (%d,%d), H100 (%u,%u)",
					       what, l, i, got[0], got[1], wr, wc);
			}
			q += used;
		}
	}
	free(out[0]);
	if (!words)
		free(out[1]);
	if (!t_ok(!bad, "layout %s: every element where the H100 has it", what))
		failures++;
}

/* ---- arithmetic -------------------------------------------------------- */

/*
 * D wmma <shape> <atype> [<ctype>] [bcol|satf|cvt|xor|and] mode N: bits
 * (and "mma m8n8k4 f64", the same product as WMMA's m8n8k4).
 */
static void check_product(char **lines, unsigned int d)
{
	char w[6][16] = { { 0 } }, what[96], text[8192];
	char la[160], lb[160], lc[160], ld[160], types[64], mod[32] = "";
	unsigned int m = 0, n = 0, k = 0, mode, es_a, es_c, es_d, bad = 0;
	int s, at, ct, dt, nw;
	bool bcol, cvt, satf;
	struct visa_mma_frag fa, fb, fc, fd;
	uint64_t p[4];
	static uint8_t A[BUF_SIZE], B[BUF_SIZE], C[BUF_SIZE], D[BUF_SIZE], T[BUF_SIZE];

	nw = sscanf(lines[d], "D %15s %15s %15s %15s %15s %15s", w[0], w[1],
		    w[2], w[3], w[4], w[5]);
	if (nw < 4 || strstr(lines[d], "copy zeroed") || d < 3)
		return;
	if (!strcmp(w[0], "mma") && strcmp(w[1], "m8n8k4"))
		return;		/* mma.sync: test_cu_probe_mma */
	s = shape_of(w[1], &m, &n, &k);
	at = type_of(w[2]);
	ct = type_of(w[3]);
	bcol = strstr(lines[d], " bcol ") != NULL;
	cvt = strstr(lines[d], " cvt ") != NULL;
	satf = strstr(lines[d], " satf ") != NULL;
	if (at == VISA_MMA_TF32 || at == VISA_MMA_F64)
		ct = at == VISA_MMA_F64 ? VISA_MMA_F64 : VISA_MMA_F32;
	if (at == VISA_MMA_S8 || at == VISA_MMA_U8 || at == VISA_MMA_S4 ||
	    at == VISA_MMA_U4 || at == VISA_MMA_B1)
		ct = VISA_MMA_S32;
	dt = ct;
	if (sscanf(strstr(lines[d], "mode "), "mode %u", &mode) != 1 ||
	    s < 0 || at < 0 || ct < 0 ||
	    visa_mma_fragment((unsigned int)s, (unsigned int)at, VISA_MMA_A, &fa) ||
	    visa_mma_fragment((unsigned int)s, (unsigned int)at, VISA_MMA_B, &fb) ||
	    visa_mma_fragment((unsigned int)s, (unsigned int)ct, VISA_MMA_C, &fc)) {
		t_ok(false, "product '%.40s': a case vGPU knows", lines[d]);
		failures++;
		return;
	}
	fd = fc;
	snprintf(what, sizeof(what), "%.*s", (int)(strchr(lines[d], ':') -
						   lines[d] - 2), lines[d] + 2);
	es_a = esize(at);
	es_c = esize(ct);
	es_d = es_c;
	/* inputs: a (M x K), b (K x N) row major; sub-byte: words */
	if (visa_mma_type_bits((unsigned int)at) < 8) {
		mma_parse_hex(lines[d - 3], A, 4, 512);
		mma_parse_hex(lines[d - 2], B, 4, 512);
	} else {
		mma_parse_hex(lines[d - 3], A, es_a, m * k);
		mma_parse_hex(lines[d - 2], B, es_a, k * n);
		if (bcol) {
			for (unsigned int r = 0; r < k; r++)
				for (unsigned int c = 0; c < n; c++)
					memcpy(T + ((size_t)c * k + r) * es_a,
					       B + ((size_t)r * n + c) * es_a, es_a);
			memcpy(B, T, (size_t)k * n * es_a);
		}
	}
	mma_parse_hex(lines[d - 1], C, es_c, m * n);
	mma_regs(la, sizeof(la), at == VISA_MMA_F64 ? "fda" : "ra",
		 fa.nregs);
	mma_regs(lb, sizeof(lb), at == VISA_MMA_F64 ? "fdb" : "rb",
		 fb.nregs);
	mma_regs(lc, sizeof(lc), ct == VISA_MMA_F64 ? "fdc" : "rc",
		 fc.nregs);
	mma_regs(ld, sizeof(ld), dt == VISA_MMA_F64 ? "fdd" : "rd",
		 fd.nregs);
	if (at == VISA_MMA_F16)
		snprintf(types, sizeof(types), "%s.%s", tnames[dt], tnames[ct]);
	else
		snprintf(types, sizeof(types), "%s.%s.%s.%s", tnames[dt],
			 tnames[at], tnames[at], tnames[ct]);
	if (at == VISA_MMA_B1)
		snprintf(mod, sizeof(mod), ".%s.popc",
			 strstr(lines[d], " xor ") ? "xor" : "and");
	{
		bool sub = visa_mma_type_bits((unsigned int)at) < 8;
		const char *bl = sub || bcol ? "col" : "row";
		size_t o = (size_t)snprintf(text, sizeof(text),
			"%s"
			"wmma.load.a.sync.aligned.row.%s.global.%s %s, [%%p0], %u;\n"
			"wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%p1], %u;\n"
			"wmma.load.c.sync.aligned.row.%s.global.%s %s, [%%p2], %u;\n",
			prologue, w[1], tnames[at], la, k, bl, w[1], tnames[at],
			lb, bcol || sub ? k : n, w[1], tnames[ct], lc, n);

		for (unsigned int i = 0; cvt && i < 4; i++)
			o += (size_t)snprintf(text + o, sizeof(text) - o,
				"cvt.rna.tf32.f32 %%ra%u, %%ra%u;\n"
				"cvt.rna.tf32.f32 %%rb%u, %%rb%u;\n", i, i, i, i);
		snprintf(text + o, sizeof(text) - o,
			 "wmma.mma%s.sync.aligned.row.%s.%s.%s%s %s, %s, %s, %s;\n"
			 "wmma.store.d.sync.aligned.row.%s.global.%s [%%p3], %s, %u;\n"
			 "ret;\n}\n",
			 mod, bl, w[1], types, satf ? ".satfinite" : "", ld, la,
			 lb, lc, w[1], tnames[dt], ld, n);
	}
	memcpy(p, bufs, sizeof(p));
	memcpy(tg_host(&gpu, p[0]), A, sizeof(A));
	memcpy(tg_host(&gpu, p[1]), B, sizeof(B));
	memcpy(tg_host(&gpu, p[2]), C, sizeof(C));
	if (!mma_run(&gpu, what, text, p, NULL, 0)) {
		t_ok(false, "%s runs", what);
		failures++;
		return;
	}
	mma_parse_hex(lines[d], D, es_d, m * n);
	for (unsigned int i = 0; i < m * n; i++) {
		const uint8_t *got = (const uint8_t *)tg_host(&gpu, p[3]) +
				     (size_t)i * es_d;
		uint64_t g = 0, h = 0;

		memcpy(&g, got, es_d);
		memcpy(&h, D + (size_t)i * es_d, es_d);
		if (g != h && bad++ < 3)
			t_diag("%s: D[%u][%u] = %#llx, H100 %#llx", what, i / n,
			       i % n, (unsigned long long)g,
			       (unsigned long long)h);
	}
	if (!t_ok(!bad, "%s: D bit for bit (%u of %u differ)", what, bad,
		  m * n))
		failures++;
}

/* ---- mma.sync shapes the recording does not cover ---------------------- */

/*
 * The PTX ISA's figures for mma.sync, written out here (not taken from
 * vgpu_mma.h): g = lane / 4, t = lane % 4, E elements per 32-bit register.
 *   A (16 rows): register r, element j at (g + 8 (r % 2), E t + j + 4E (r / 2))
 *   A (8 rows):  (g, E t + j + 4E r)
 *   B:           (k, n) = (E t + j + 4E r, g)
 *   C (16 rows): register r at (g + 8 (r / 2), 2 t + r % 2); 8 rows: (g, 2t + r)
 * The host packs each lane's registers, the kernel only loads them, runs
 * the one mma.sync and stores D; the reference is exact integer (or small
 * integer-valued float) arithmetic.
 */
struct sync_case {
	const char *shape, *types, *suffix;
	unsigned int m, n, k, bits;	/* bits of A and B elements */
	bool sgn, flt;			/* signed ints; bf16/tf32 values */
};

static int64_t elem_int(uint32_t reg, unsigned int j, unsigned int bits,
			bool sgn)
{
	uint32_t v = bits == 32 ? reg : (reg >> (j * bits)) & ((1u << bits) - 1);

	if (sgn && bits < 32 && v >> (bits - 1))
		return (int64_t)v - ((int64_t)1 << bits);
	return v;
}

static void check_sync(const struct sync_case *sc)
{
	unsigned int e = 32 / sc->bits, na = sc->m * sc->k / 32 / e;
	unsigned int nb = sc->k * sc->n / 32 / e, nc = sc->m * sc->n / 32;
	static uint32_t ra[32][8], rb[32][8], rc[32][8];
	static double A[16][256], B[256][8], C[16][8];
	char text[4096], what[96], la[160], lb[160], lc[160], ld[160];
	unsigned int bad = 0;
	uint64_t p[4];
	size_t o;

	snprintf(what, sizeof(what), "mma.sync.%s.%s%s", sc->shape, sc->types,
		 sc->suffix);
	for (unsigned int l = 0; l < 32; l++) {
		for (unsigned int r = 0; r < na; r++) {
			ra[l][r] = 0;
			for (unsigned int j = 0; j < e; j++) {
				unsigned int row, col;
				uint32_t v;

				mma_sync_a_pos(sc->m, e, l, r, j, &row, &col);
				v = (row * 7 + col * 3 + 1) % 13;

				if (sc->flt && sc->bits == 16)	/* bf16 of v - 6 */
					v = f32_to_bits((float)v - 6) >> 16;
				else if (sc->flt)
					v = f32_to_bits((float)v - 6) | 0x1000; /* low bits */
				else
					v &= sc->bits == 32 ? ~0u : (1u << sc->bits) - 1;
				ra[l][r] |= sc->bits == 32 ? v : v << (j * sc->bits);
			}
		}
		for (unsigned int r = 0; r < nb; r++) {
			rb[l][r] = 0;
			for (unsigned int j = 0; j < e; j++) {
				unsigned int k, n;
				uint32_t v;

				mma_sync_b_pos(e, l, r, j, &k, &n);
				v = (k * 5 + n * 11 + 2) % 9;

				if (sc->flt && sc->bits == 16)
					v = f32_to_bits((float)v - 4) >> 16;
				else if (sc->flt)
					v = f32_to_bits((float)v - 4) | 0x0fff;
				else
					v &= sc->bits == 32 ? ~0u : (1u << sc->bits) - 1;
				rb[l][r] |= sc->bits == 32 ? v : v << (j * sc->bits);
			}
		}
		for (unsigned int r = 0; r < nc; r++) {
			unsigned int row, col;
			int32_t v;

			mma_sync_c_pos(sc->m, false, l, r, &row, &col);
			v = (int32_t)(row * 8 + col) - 40;

			rc[l][r] = sc->flt ? f32_to_bits((float)v) : (uint32_t)v;
			C[row][col] = v;
		}
	}
	/* the matrices the registers describe */
	for (unsigned int l = 0; l < 32; l++) {
		for (unsigned int r = 0; r < na; r++)
			for (unsigned int j = 0; j < e; j++) {
				unsigned int row, col;

				mma_sync_a_pos(sc->m, e, l, r, j, &row, &col);
				A[row][col] = !sc->flt ?
					(double)elem_int(ra[l][r], j, sc->bits, sc->sgn) :
					sc->bits == 16 ?
					(double)f32_of(((ra[l][r] >> (16 * j)) & 0xffff) << 16) :
					(double)f32_of(ra[l][r] & 0xffffe000u);
			}
		for (unsigned int r = 0; r < nb; r++)
			for (unsigned int j = 0; j < e; j++) {
				unsigned int k, n;

				mma_sync_b_pos(e, l, r, j, &k, &n);
				B[k][n] = !sc->flt ?
					(double)elem_int(rb[l][r], j, sc->bits, sc->sgn) :
					sc->bits == 16 ?
					(double)f32_of(((rb[l][r] >> (16 * j)) & 0xffff) << 16) :
					(double)f32_of(rb[l][r] & 0xffffe000u);
			}
	}
	mma_regs(la, sizeof(la), "ra", na);
	mma_regs(lb, sizeof(lb), "rb", nb);
	mma_regs(lc, sizeof(lc), "rc", nc);
	mma_regs(ld, sizeof(ld), "rd", nc);
	o = (size_t)snprintf(text, sizeof(text),
		"%smov.u32 %%r0, %%laneid;\nmul.wide.u32 %%p4, %%r0, 32;\n"
		"add.u64 %%p5, %%p0, %%p4;\nadd.u64 %%p6, %%p1, %%p4;\n"
		"add.u64 %%p7, %%p2, %%p4;\nadd.u64 %%p4, %%p3, %%p4;\n",
		prologue);
	for (unsigned int r = 0; r < na; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "ld.global.b32 %%ra%u, [%%p5+%u];\n", r, 4 * r);
	for (unsigned int r = 0; r < nb; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "ld.global.b32 %%rb%u, [%%p6+%u];\n", r, 4 * r);
	for (unsigned int r = 0; r < nc; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "ld.global.b32 %%rc%u, [%%p7+%u];\n", r, 4 * r);
	o += (size_t)snprintf(text + o, sizeof(text) - o,
			      "mma.sync.aligned.%s.row.col.%s%s %s, %s, %s, %s;\n",
			      sc->shape, sc->types, sc->suffix, ld, la, lb, lc);
	for (unsigned int r = 0; r < nc; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "st.global.b32 [%%p4+%u], %%rd%u;\n", 4 * r, r);
	snprintf(text + o, sizeof(text) - o, "ret;\n}\n");
	memcpy(p, bufs, sizeof(p));
	memcpy(tg_host(&gpu, p[0]), ra, sizeof(ra));
	memcpy(tg_host(&gpu, p[1]), rb, sizeof(rb));
	memcpy(tg_host(&gpu, p[2]), rc, sizeof(rc));
	if (!mma_run(&gpu, what, text, p, NULL, 0)) {
		t_ok(false, "%s runs", what);
		failures++;
		return;
	}
	for (unsigned int l = 0; l < 32; l++) {
		const uint32_t *out = (const uint32_t *)tg_host(&gpu, p[3]) + 8 * l;

		for (unsigned int r = 0; r < nc; r++) {
			unsigned int row, col;

			mma_sync_c_pos(sc->m, false, l, r, &row, &col);
			double want = C[row][col];
			uint32_t w;

			for (unsigned int k = 0; k < sc->k; k++)
				want += sc->bits == 1 ?
					(double)((int)A[row][k] ^ (int)B[k][col]) :
					A[row][k] * B[k][col];
			w = sc->flt ? f32_to_bits((float)want) : (uint32_t)(int32_t)want;
			if (out[r] != w && bad++ < 3)
				t_diag("%s: D[%u][%u] = %#x, want %#x", what, row,
				       col, out[r], w);
		}
	}
	if (!t_ok(!bad, "%s: D as the PTX ISA's layouts and exact arithmetic say",
		  what))
		failures++;
}

static void check_sync_shapes(void)
{
	static const struct sync_case cases[] = {
		{ "m16n8k16", "s32.s8.s8.s32", "", 16, 8, 16, 8, true, false },
		{ "m16n8k16", "s32.u8.u8.s32", "", 16, 8, 16, 8, false, false },
		{ "m16n8k32", "s32.u8.u8.s32", "", 16, 8, 32, 8, false, false },
		{ "m8n8k16", "s32.s8.s8.s32", "", 8, 8, 16, 8, true, false },
		{ "m16n8k32", "s32.s4.s4.s32", "", 16, 8, 32, 4, true, false },
		{ "m16n8k64", "s32.u4.u4.s32", "", 16, 8, 64, 4, false, false },
		{ "m8n8k32", "s32.s4.s4.s32", "", 8, 8, 32, 4, true, false },
		{ "m16n8k128", "s32.b1.b1.s32", ".xor.popc", 16, 8, 128, 1, false, false },
		{ "m16n8k256", "s32.b1.b1.s32", ".xor.popc", 16, 8, 256, 1, false, false },
		{ "m8n8k128", "s32.b1.b1.s32", ".xor.popc", 8, 8, 128, 1, false, false },
		{ "m16n8k4", "f32.tf32.tf32.f32", "", 16, 8, 4, 32, true, true },
		{ "m16n8k8", "f32.bf16.bf16.f32", "", 16, 8, 8, 16, true, true },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_sync(&cases[i]);
}

/* ---- errors ------------------------------------------------------------ */

static void check_errors(void)
{
	char text[2048], msg[512];
	void *img = NULL;
	size_t size;

	snprintf(text, sizeof(text),
		 "%swmma.load.a.sync.aligned.row.m16n16k8.global.f16 "
		 "{%%ra0, %%ra1, %%ra2, %%ra3, %%ra4, %%ra5, %%ra6, %%ra7}, "
		 "[%%p0], 16;\nret;\n}\n", prologue);
	t_ok(t_compile("e.ptx", text, &img, &size, msg, sizeof(msg)) &&
	     strstr(msg, "'wmma' with this shape and type is not supported"),
	     "m16n16k8 takes tf32 only: %s", msg);
	free(img);
	img = NULL;
	snprintf(text, sizeof(text),
		 "%swmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
		 "{%%ra0, %%ra1, %%ra2, %%ra3}, [%%p0], 16;\nret;\n}\n",
		 prologue);
	t_ok(t_compile("e.ptx", text, &img, &size, msg, sizeof(msg)) &&
	     strstr(msg, "this fragment has 8 registers, not 4"),
	     "a fragment of the wrong size: %s", msg);
	free(img);
}

int main(void)
{
	char *text = tg_read_text(GOLDEN), **lines = NULL, *save = NULL, *l;
	unsigned int n = 0, cap = 0;

	t_start();
	if (!t_ok(text != NULL, "read %s", GOLDEN))
		return t_done();
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				abort();
		}
		lines[n++] = l;
	}
	if (!t_ok(!tg_init(&gpu, 1), "native test GPU"))
		return t_done();
	for (int i = 0; i < 4; i++)
		bufs[i] = tg_alloc(&gpu, BUF_SIZE);
	for (unsigned int i = 0; i < n; i++) {
		if (!strncmp(lines[i], "L ", 2) && strstr(lines[i], " lane 0:") &&
		    i + 32 <= n) {
			static const char *const strided[] = {
				"L m16n16k16 a f16 row", "L m16n16k16 b bf16 col",
				"L m32n8k16 a s8 row", "L m16n16k16 c f32 col",
				"L m8n8k4 a f64 row", "L m8n32k16 b f16 row",
			};

			check_layout(lines, i, 0);
			for (unsigned int j = 0; j < 6; j++)
				if (!strncmp(lines[i], strided[j],
					     strlen(strided[j])))
					check_layout(lines, i, 8);
		} else if (!strncmp(lines[i], "D ", 2)) {
			check_product(lines, i);
		}
	}
	check_sync_shapes();
	check_errors();
	t_diag("%u checks failed", failures);
	tg_fini(&gpu);
	free(lines);
	free(text);
	return t_done();
}
