// SPDX-License-Identifier: GPL-2.0
/*
 * exec_mma.c - the tensor cores: warp-collective matrix instructions.
 *
 * Operands travel through the warp's staging slots (include/vgpu_mma.h
 * says what each opcode does with them): MMAPUT/MMAGET move registers in
 * and out, MMALD/MMAST move fragments between slots and memory, MMA
 * multiplies, LDMATRIX/STMATRIX/MOVMATRIX move 8x8 b16 matrices.  Where
 * an element of a matrix lives in which lane is visa_mma_elem()'s
 * business, so the H100's fragment layouts are written down once.
 *
 * The arithmetic is the H100's, bit for bit (fitted to and tested against
 * the recording tools/cuda-probe/golden/probe_mma.h100.txt; see
 * Documentation/tensor-cores.rst):
 *
 *  - f16, bf16, tf32 inputs: each product is exact; the products of a
 *    block of k and the accumulator are aligned to the largest exponent
 *    among them (a product's exponent is the sum of its inputs' exponents,
 *    a subnormal input counting as the smallest normal exponent), every
 *    term is cut toward zero 25 bits below it, the sum is exact, and the
 *    result is rounded toward zero to f32 (overflow: infinity).  The
 *    block is the whole k, except WMMA's m16n16k8 tf32, which the H100
 *    does as two k = 4 steps.  tf32 inputs are f32 bit patterns whose
 *    low 13 bits are ignored.  An f16 accumulator is that f32 result
 *    rounded to nearest.  NaN results are the canonical NaN.
 *  - f64: the products are added to C one by one in k order, each with a
 *    fused multiply-add.
 *  - fp8 (golden/probe_mma_ext.h100.txt, probe_mma_qs.h100.txt): the
 *    products of the whole k through the adder above without C, then C
 *    added with one rounding to nearest (not yet the H100's for every
 *    input: Documentation/tensor-cores.rst).
 *  - integers: exact, wrapped to 32 bits, or clamped with .satfinite;
 *    A and B may differ in signedness.
 *
 * Two shapes are not one product (row_products() says which elements
 * meet): mma.m8n8k4 with f16 is four quad pairs' 8 x 8 x 4 products
 * (golden/probe_mma_qs.h100.txt, part Q), and mma.sp multiplies the two
 * kept elements of every four of k by the rows of B its metadata names
 * (part S).
 */
#include <math.h>
#include <stdlib.h>

#include "core_internal.h"
#include "fp_formats.h"
#include "vgpu_mma.h"

#define MAXD	256	/* the largest matrix side (b1's k) */

static uint64_t *stage(struct warp *w)
{
	if (!w->mma_stage)
		w->mma_stage = calloc((size_t)VISA_MMA_SLOTS * WARP_SIZE,
				      sizeof(uint64_t));
	return w->mma_stage;
}

static uint64_t *slot(uint64_t *st, unsigned int s)
{
	return st + (size_t)s * WARP_SIZE;
}

/* Record a malformed matrix instruction (the validator cannot see imm). */
static int bad(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	return exec_bad(w, in, mask);
}

static const unsigned int slot_base[3] = {
	VISA_MMA_SLOT_A, VISA_MMA_SLOT_B, VISA_MMA_SLOT_C,
};

/* Element @i of a lane's fragment from its slots, as raw bits. */
static uint64_t frag_get(const struct visa_mma_frag *f, uint64_t *st,
			 unsigned int base, unsigned int lane, unsigned int i)
{
	unsigned int bit = i * f->bits;
	uint64_t v;

	if (f->bits == 64)
		return slot(st, base + i)[lane];
	v = slot(st, base + bit / 32)[lane] >> (bit % 32);
	return f->bits == 32 ? (uint32_t)v : v & ((1u << f->bits) - 1);
}

static void frag_set(const struct visa_mma_frag *f, uint64_t *st,
		     unsigned int base, unsigned int lane, unsigned int i,
		     uint64_t v)
{
	unsigned int bit = i * f->bits;
	uint64_t *p;
	uint64_t m;

	if (f->bits == 64) {
		slot(st, base + i)[lane] = v;
		return;
	}
	p = &slot(st, base + bit / 32)[lane];
	m = (f->bits == 32 ? 0xffffffffull : (1ull << f->bits) - 1)
	    << (bit % 32);
	*p = (*p & ~m) | ((v << (bit % 32)) & m);
}

/* ---- moving registers -------------------------------------------------- */

static int put(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint64_t *st = stage(w);
	const uint16_t r[4] = { in->a, in->b, in->c, in->e };

	if (!st)
		return bad(w, in, mask);
	for (int i = 0; i < 4; i++) {
		const uint64_t *src;

		if (r[i] == VISA_OPND_NONE)
			continue;
		if (in->imm + i >= VISA_MMA_SLOTS)
			return bad(w, in, mask);
		src = src_row(w, in, i, r[i]);
		FOR_LANES(mask, slot(st, (unsigned int)in->imm + i)[l] = src[l]);
	}
	return EXEC_OK;
}

static int get(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint64_t *st = stage(w);
	const uint16_t r[4] = { in->d, in->b, in->c, in->e };

	if (!st)
		return bad(w, in, mask);
	for (int i = 0; i < 4; i++) {
		uint64_t *dst;
		const uint64_t *s;

		if (r[i] == VISA_OPND_NONE)
			continue;
		if (in->imm + i >= VISA_MMA_SLOTS)
			return bad(w, in, mask);
		dst = reg_row(w, r[i]);
		s = slot(st, (unsigned int)in->imm + i);
		FOR_LANES(mask, dst[l] = s[l]);
	}
	return EXEC_OK;
}

/* ---- fragments and memory ---------------------------------------------- */

/*
 * Load or store a fragment: every element of every active lane, at
 * base + (row * stride + col) * size (COLMAJOR: col * stride + row).
 * Sub-byte elements move as the 32-bit words that hold them, which
 * lie along the memory's rows (A by rows, B by columns: PTX allows no
 * other layout for them).
 */
static int ldst(struct warp *w, const struct dinsn *in, uint32_t mask,
		bool store)
{
	uint64_t d = in->imm;
	unsigned int mx = store ? VISA_MMA_C : VISA_MMA_MATRIX(d);
	unsigned int type = mx == VISA_MMA_C ?
			    (store ? VISA_MMA_DTYPE(d) : VISA_MMA_CTYPE(d)) :
			    VISA_MMA_ATYPE(d);
	bool colmajor = d & VISA_MMA_COLMAJOR;
	const uint64_t *ra = src_row(w, in, 0, in->a);
	const uint64_t *rb = src_row(w, in, 1, in->b);
	uint32_t pc = pc_of(w, in);
	struct visa_mma_frag f;
	uint64_t *st = stage(w);
	unsigned int per, size, base;

	/* wmma has no m8n8k4 f16: its quad-pair fragments never see memory */
	if (!st || visa_mma_fragment(VISA_MMA_SHAPE(d), type, mx, &f) ||
	    f.quadpair)
		return bad(w, in, mask);
	base = slot_base[mx];	/* mx <= VISA_MMA_C: checked just above */
	/* sub-byte: whole words; else one element per access */
	per = f.bits < 8 ? 32u / f.bits : 1;
	size = f.bits < 8 ? 4 : f.bits / 8;
	if (f.bits < 8 && colmajor != (bool)f.by_cols)
		return bad(w, in, mask);
	for (int l = 0; l < WARP_SIZE; l++) {
		if (!(mask >> l & 1))
			continue;
		for (unsigned int i = 0; i < f.ntiles * f.e; i += per) {
			unsigned int row, col;
			uint64_t off, v = 0;
			void *p;

			visa_mma_elem(&f, l, i, &row, &col);
			off = colmajor ? (uint64_t)col * rb[l] + row :
					 (uint64_t)row * rb[l] + col;
			off = f.bits < 8 ? off * f.bits / 8 : off * size;
			p = mem_resolve(w, pc, l, in->type2, ra[l] + off, size,
					store ? ACC_WRITE : ACC_READ);
			if (!p)
				return EXEC_FAULT;
			if (store) {
				v = frag_get(&f, st, base, l, i);
				memcpy(p, &v, size);
			} else {
				memcpy(&v, p, size);
				if (per > 1)
					slot(st, base + i * f.bits / 32)[l] = v;
				else
					frag_set(&f, st, base, l, i, v);
			}
		}
	}
	return EXEC_OK;
}

/* ---- the multiply ------------------------------------------------------ */

/* Where element @i of @lane's fragment @f of matrix @mx lies. */
static void elem_of(const struct visa_mma_frag *f, unsigned int mx,
		    uint64_t d, unsigned int lane, unsigned int i,
		    unsigned int *row, unsigned int *col)
{
	if (f->quadpair)
		visa_mma_qp_elem(mx, d, f->bits == 32, lane, i, row, col);
	else
		visa_mma_elem(f, lane, i, row, col);
}

/* Gather a matrix from the fragments of all 32 lanes (first copy wins). */
static void gather(const struct visa_mma_frag *f, unsigned int mx,
		   uint64_t d, uint64_t *st, uint64_t *m, unsigned int ld)
{
	for (unsigned int l = 0; l < WARP_SIZE; l++)
		for (unsigned int i = 0; i < f->unique; i++) {
			unsigned int row, col;

			elem_of(f, mx, d, l, i, &row, &col);
			m[row * ld + col] = frag_get(f, st, slot_base[mx], l, i);
		}
}

/*
 * An fp8 value: e4m3 (bias 7, no infinities, S.1111.111 is NaN) or
 * e5m2 (bias 15, IEEE-like: exponent 31 is infinity or NaN).
 */
static double fp8_value(uint8_t v, bool e5m2)
{
	unsigned int mb = e5m2 ? 2 : 3, eb = 7 - mb;
	unsigned int e = (v >> mb) & ((1u << eb) - 1), m = v & ((1u << mb) - 1);
	int bias = e5m2 ? 15 : 7;
	double x;

	if (e5m2 && e == 31)
		x = m ? NAN : INFINITY;
	else if (!e5m2 && e == 15 && m == 7)
		x = NAN;
	else if (!e)
		x = ldexp(m, 1 - bias - (int)mb);
	else
		x = ldexp(1.0 + ldexp(m, -(int)mb), (int)e - bias);
	return v >> 7 ? -x : x;
}

static double decode(unsigned int type, uint64_t v)
{
	switch (type) {
	case VISA_MMA_E4M3:
	case VISA_MMA_E5M2:
		return fp8_value((uint8_t)v, type == VISA_MMA_E5M2);
	case VISA_MMA_F16:
		return f16_to_double((uint16_t)v);
	case VISA_MMA_BF16:
		return bf16_to_double((uint16_t)v);
	case VISA_MMA_TF32:
		return f32_of(v & 0xffffe000u);
	case VISA_MMA_F32:
		return f32_of(v);
	default:
		return f64_of(v);
	}
}

static int64_t decode_int(unsigned int type, uint64_t v)
{
	switch (type) {
	case VISA_MMA_S8:
		return (int8_t)v;
	case VISA_MMA_S4:
		return ((int64_t)(v & 15) ^ 8) - 8;
	case VISA_MMA_S32:
		return (int32_t)v;
	default:
		return (int64_t)v;
	}
}

/* The exponent the adder aligns by: subnormals count as normal's least. */
static int align_exp(double x, unsigned int type)
{
	int e = ilogb(x);
	int emin = type == VISA_MMA_F16 || type == VISA_MMA_E5M2 ? -14 :
		   type == VISA_MMA_E4M3 ? -6 : -126;

	return e < emin ? emin : e;
}

/* Round toward zero to f32; beyond its range: infinity. */
static float f32_rz(double x)
{
	if (fabs(x) >= 0x1p128)
		return x < 0 ? -INFINITY : INFINITY;
	return f32_from_double(x, RND_Z);
}

/*
 * One block of the floating-point adder: acc (f32) + sum of n products
 * a[i] * b[i], as the H100 adds them (see the top of this file).
 */
static float block_add(float acc, const double *a, const double *b,
		       unsigned int n, unsigned int ta, unsigned int tb)
{
	int emax = INT32_MIN, q;
	bool nan = isnan(acc), pinf = acc == INFINITY, ninf = acc == -INFINITY;
	int64_t sum = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (isnan(a[i]) || isnan(b[i]) ||
		    ((isinf(a[i]) || isinf(b[i])) && (a[i] == 0 || b[i] == 0)))
			nan = true;
		else if (isinf(a[i]) || isinf(b[i])) {
			if (signbit(a[i]) != signbit(b[i]))
				ninf = true;
			else
				pinf = true;
		} else if (a[i] != 0 && b[i] != 0) {
			int e = align_exp(a[i], ta) + align_exp(b[i], tb);

			emax = e > emax ? e : emax;
		}
	}
	if (nan || (pinf && ninf))
		return NAN;
	if (pinf || ninf)
		return pinf ? INFINITY : -INFINITY;
	if (acc != 0 && ilogb(acc) > emax)
		emax = ilogb(acc);
	if (emax == INT32_MIN)
		return acc + 0.0f;	/* only zeros: C (a -0 becomes +0) */
	q = emax - 25;
	/* every term is below 2^(emax + 2): at most 2^27 units of 2^q */
	sum = (int64_t)trunc(ldexp(acc, -q));
	for (unsigned int i = 0; i < n; i++)
		sum += (int64_t)trunc(ldexp(a[i] * b[i], -q));
	return f32_rz(ldexp((double)sum, q));
}

/*
 * acc + the n products a[i] * b[i], summed exactly and rounded to
 * nearest f32 once (fp8's last step: C + the adder's sum).  The sum is
 * kept as an integer multiple of 2^q, q 100 below the largest term, with
 * a sticky bit for anything below (so that the one rounding is right).
 */
static float add_exact_rn(float acc, const double *a, const double *b,
			   unsigned int n)
{
	bool nan = isnan(acc), pinf = acc == INFINITY, ninf = acc == -INFINITY;
	int emax = acc != 0 && isfinite(acc) ? ilogb(acc) : INT32_MIN, q;
	__int128 sum = 0;
	bool sticky = false;
	double terms[MAXD + 1];
	unsigned int nt = 0;

	for (unsigned int i = 0; i < n; i++) {
		double p = a[i] * b[i];

		if (isnan(p))
			nan = true;
		else if (isinf(p))
			*(p > 0 ? &pinf : &ninf) = true;
		else if (p != 0) {
			terms[nt++] = p;
			emax = ilogb(p) > emax ? ilogb(p) : emax;
		}
	}
	if (nan || (pinf && ninf))
		return NAN;
	if (pinf || ninf)
		return pinf ? INFINITY : -INFINITY;
	if (emax == INT32_MIN)
		return acc + 0.0f;
	if (acc != 0)
		terms[nt++] = acc;
	q = emax - 100;
	for (unsigned int i = 0; i < nt; i++) {
		double s = ldexp(terms[i], -q), t = trunc(s);

		sticky |= s != t;
		sum += (__int128)t;
	}
	if (sticky)		/* below every kept bit: only breaks ties */
		sum |= 1;
	return (float)ldexp((double)(float)sum, q);
}

/*
 * fp8 with f32 accumulators (fitted to golden/probe_mma_ext.h100.txt and probe_mma_qs.h100.txt,
 * modes 11-15 of which isolate the adder): the products of the whole k
 * go through the f16 adder above without C (aligned to the largest input
 * exponent sum, cut 25 bits below it, summed, rounded toward zero to
 * f32); C is added to that sum afterwards with one rounding to nearest.
 * This matches 9818 of the 10147 finite f32-accumulator results recorded
 * (the old model, 16-product blocks rounded to nearest, 9395); what is
 * left differs in the last bit or two where products far apart in
 * magnitude meet, and is listed in Documentation/tensor-cores.rst.
 * With f16 accumulators: fp8_sum_f16() below.
 */
static float fp8_sum(float acc, const double *a, const double *b,
		     unsigned int k, unsigned int ta, unsigned int tb)
{
	double s = block_add(0.0f, a, b, k, ta, tb), one = 1.0;

	return add_exact_rn(acc, &s, &one, 1);
}

/*
 * fp8 with f16 accumulators: the products' sum (the adder above, without
 * C) rounded to nearest f16, to which multiply() adds C (rounding the
 * exact sum to nearest f16 once more).  3339 of the 3604 finite results
 * recorded, against 3194 for one rounding of the f32 sum plus C.
 */
static double fp8_sum_f16(const double *a, const double *b, unsigned int k,
			  unsigned int ta, unsigned int tb)
{
	return f16_to_double(f16_from_double(block_add(0.0f, a, b, k, ta, tb),
					     RND_N));
}

/*
 * m8n8k4 with f16 (fitted to golden/probe_mma_qs.h100.txt, part Q: all
 * 6912 recorded results): not the adder of the other shapes but a chain,
 * the products added in k order, each sum rounded to nearest f32, then
 * C added and rounded to nearest once more.
 */
static float quadpair_sum(float acc, const double *a, const double *b,
			  unsigned int n)
{
	float s = 0.0f;
	double sd, one = 1.0;

	for (unsigned int i = 0; i < n; i++)
		s = add_exact_rn(s, a + i, b + i, 1);
	sd = s;
	return add_exact_rn(acc, &sd, &one, 1);
}

/*
 * The products of row @r: which elements of A (indices into A) meet
 * which rows of B, in k order; returns how many.  Dense: the k of the
 * shape; a quad pair (m8n8k4 f16): the 4 of its block; mma.sp: the two
 * kept of every four, at the dense k its metadata names.
 */
static unsigned int row_products(uint64_t d, uint64_t *st,
				 unsigned int r, unsigned int k, bool qp,
				 unsigned int *ka, unsigned int *kb)
{
	unsigned int n = 0;

	if (d & VISA_MMA_SPARSE) {
		for (unsigned int j = 0; j < k / 4; j++) {
			unsigned int nib, lane = visa_mma_sp_meta(k,
					visa_mma_type_bits(VISA_MMA_ATYPE(d)),
					VISA_MMA_SP_SEL(d), r, j, &nib);
			unsigned int e = (slot(st, VISA_MMA_SLOT_META)[lane] >>
					  (4 * nib)) & 15;

			for (unsigned int x = 0; x < 2; x++, n++) {
				ka[n] = r * (k / 2) + 2 * j + x;
				kb[n] = 4 * j + ((e >> (2 * x)) & 3);
			}
		}
		return n;
	}
	for (unsigned int i = 0, k0 = qp ? 4 * (r / 8) : 0; i < (qp ? 4 : k);
	     i++, n++) {
		ka[n] = r * k + k0 + i;
		kb[n] = k0 + i;
	}
	return n;
}

static int multiply(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	static const struct visa_mma_frag none;
	uint64_t d = in->imm, *st = stage(w);
	unsigned int shape = VISA_MMA_SHAPE(d), at = VISA_MMA_ATYPE(d);
	unsigned int bt = VISA_MMA_BTYPE(d);
	unsigned int ct = VISA_MMA_CTYPE(d), dt = VISA_MMA_DTYPE(d);
	struct visa_mma_frag fa = none, fb = none, fc = none, fd = none;
	bool sparse = d & VISA_MMA_SPARSE;
	int (*frag)(unsigned int, unsigned int, unsigned int,
		    struct visa_mma_frag *) = sparse ? visa_mma_sp_fragment :
						     visa_mma_fragment;
	unsigned int m, n, k, blk;
	bool fp8, qp;
	uint64_t *A, *B, *C;

	if (!st || shape >= VISA_MMA_SHAPE_COUNT ||
	    frag(shape, at, VISA_MMA_A, &fa) ||
	    frag(shape, bt, VISA_MMA_B, &fb) ||
	    frag(shape, ct, VISA_MMA_C, &fc) ||
	    frag(shape, dt, VISA_MMA_C, &fd))
		return bad(w, in, mask);
	visa_mma_dims(shape, &m, &n, &k);
	/* m8n8k4 f16: four quad pairs, one block-diagonal 32 x 32 x 16 */
	qp = fa.quadpair;
	if (qp != fb.quadpair || qp != fc.quadpair || qp != fd.quadpair)
		return bad(w, in, mask);
	if (qp) {
		m = n = 32;
		k = 16;
	}
	A = calloc((size_t)m * k + (size_t)k * n + (size_t)m * n,
		   sizeof(uint64_t));
	if (!A)
		return bad(w, in, mask);
	B = A + (size_t)m * k;
	C = B + (size_t)k * n;
	gather(&fa, VISA_MMA_A, d, st, A, sparse ? k / 2 : k);
	gather(&fb, VISA_MMA_B, d, st, B, n);
	gather(&fc, VISA_MMA_C, d, st, C, n);
	fp8 = at == VISA_MMA_E4M3 || at == VISA_MMA_E5M2;
	for (unsigned int r = 0; r < m; r++) {
		unsigned int ka[MAXD], kb[MAXD];
		unsigned int kn = row_products(d, st, r, k, qp, ka, kb);

		blk = shape == VISA_MMA_M16N16K8 ? 4 : kn;
		for (unsigned int c = 0; c < n; c++) {
			uint64_t out;

			if (qp && r / 8 != c / 8)	/* not its quad pair */
				continue;
			if (at == VISA_MMA_F64) {
				double acc = f64_of(C[r * n + c]);

				for (unsigned int i = 0; i < kn; i++)
					acc = fma(f64_of(A[ka[i]]),
						  f64_of(B[kb[i] * n + c]), acc);
				out = f64_to_bits(acc);
			} else if (at == VISA_MMA_F16 || at == VISA_MMA_BF16 ||
				   at == VISA_MMA_TF32 || at == VISA_MMA_E4M3 ||
				   at == VISA_MMA_E5M2) {
				double a[MAXD], b[MAXD];
				float acc = (float)decode(ct, C[r * n + c]);
				double sum = NAN; /* fp8 f16 D: C + sum, exact */

				for (unsigned int i = 0; i < kn; i++) {
					a[i] = decode(at, A[ka[i]]);
					b[i] = decode(bt, B[kb[i] * n + c]);
				}
				if (fp8 && dt == VISA_MMA_F16)
					sum = acc + fp8_sum_f16(a, b, kn, at, bt);
				else if (qp)
					acc = quadpair_sum(acc, a, b, kn);
				else if (fp8)
					acc = fp8_sum(acc, a, b, kn, at, bt);
				else
					for (unsigned int i = 0; i < kn; i += blk)
						acc = block_add(acc, a + i, b + i,
								blk, at, bt);
				if (fp8 && dt == VISA_MMA_F16)
					out = isnan(sum) ? CANON_NAN_F16 :
					      f16_from_double(sum, RND_N);
				else if (dt == VISA_MMA_F16)
					out = isnan(acc) ? CANON_NAN_F16 :
					      f16_from_double(acc, RND_N);
				else
					out = isnan(acc) ? CANON_NAN_F32 :
					      f32_to_bits(acc);
			} else {
				int64_t acc = (int32_t)C[r * n + c];

				for (unsigned int i = 0; i < kn; i++) {
					uint64_t x = A[ka[i]];
					uint64_t y = B[kb[i] * n + c];

					if (at == VISA_MMA_B1)
						acc += (VISA_MMA_BOP(d) ==
							VISA_MMA_BOP_AND ?
							(x & y) : (x ^ y)) & 1;
					else
						acc += decode_int(at, x) *
						       decode_int(bt, y);
				}
				if (d & VISA_MMA_SATFINITE)
					acc = acc > INT32_MAX ? INT32_MAX :
					      acc < INT32_MIN ? INT32_MIN : acc;
				out = (uint32_t)acc;
			}
			C[r * n + c] = out;
		}
	}
	/* D into the C slots: every lane gets its elements */
	for (unsigned int l = 0; l < WARP_SIZE; l++)
		for (unsigned int i = 0; i < fd.unique; i++) {
			unsigned int row, col;

			elem_of(&fd, VISA_MMA_C, d, l, i, &row, &col);
			frag_set(&fd, st, VISA_MMA_SLOT_C, l, i,
				 C[row * n + col]);
		}
	free(A);
	return EXEC_OK;
}

/* ---- 8x8 b16 matrices -------------------------------------------------- */

/*
 * Lane l holds, of matrix i (slot i), the two elements of row l / 4 at
 * columns 2 (l % 4) and 2 (l % 4) + 1; row r of matrix i lies at the
 * address lane 8 i + r gives.  .trans: lane l holds column l / 4 at rows
 * 2 (l % 4) and 2 (l % 4) + 1 instead.
 */
static int matrices(struct warp *w, const struct dinsn *in, uint32_t mask,
		    bool store)
{
	unsigned int num = VISA_LDM_NUM(in->imm);
	bool trans = in->imm & VISA_LDM_TRANS;
	const uint64_t *ra = src_row(w, in, 0, in->a);
	uint32_t pc = pc_of(w, in);
	uint64_t *st = stage(w);

	if (!st || (num != 1 && num != 2 && num != 4))
		return bad(w, in, mask);
	for (unsigned int i = 0; i < num; i++) {
		for (int l = 0; l < WARP_SIZE; l++) {
			uint64_t *s = &slot(st, i)[l];

			if (!(mask >> l & 1))
				continue;
			for (unsigned int j = 0; j < (trans ? 2u : 1u); j++) {
				unsigned int row = trans ? 2 * (l & 3) + j :
						   (unsigned int)l / 4;
				uint64_t addr = ra[8 * i + row] +
					(trans ? 2u * (l / 4) : 4u * (l & 3));
				uint32_t size = trans ? 2 : 4;
				void *p = mem_resolve(w, pc, l, in->type2, addr,
						      size, store ? ACC_WRITE :
						      ACC_READ);
				uint32_t v = 0;

				if (!p)
					return EXEC_FAULT;
				if (store) {
					v = (uint32_t)(*s >> (16 * j));
					memcpy(p, &v, size);
				} else {
					memcpy(&v, p, size);
					if (!trans)
						*s = v;
					else if (!j)
						*s = v & 0xffff;
					else
						*s |= (uint64_t)(v & 0xffff) << 16;
				}
			}
		}
	}
	return EXEC_OK;
}

/* movmatrix.trans: out (row l / 4, col 2 (l % 4) + j) = in (col, row). */
static int movmatrix(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint64_t *st = stage(w), old[WARP_SIZE];

	if (!st)
		return bad(w, in, mask);
	memcpy(old, slot(st, 0), sizeof(old));
	for (unsigned int l = 0; l < WARP_SIZE; l++) {
		uint32_t v = 0;

		if (!(mask >> l & 1))
			continue;
		for (unsigned int j = 0; j < 2; j++) {
			unsigned int r = 2 * (l & 3) + j, c = l / 4;
			uint64_t src = old[r * 4 + c / 2];

			v |= (uint32_t)(src >> (16 * (c & 1)) & 0xffff) << (16 * j);
		}
		slot(st, 0)[l] = v;
	}
	return EXEC_OK;
}

int exec_mma(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	switch (in->op) {
	case VISA_OP_MMAPUT:
		return put(w, in, mask);
	case VISA_OP_MMAGET:
		return get(w, in, mask);
	case VISA_OP_MMALD:
		return ldst(w, in, mask, false);
	case VISA_OP_MMAST:
		return ldst(w, in, mask, true);
	case VISA_OP_MMA:
		return multiply(w, in, mask);
	case VISA_OP_LDMATRIX:
		return matrices(w, in, mask, false);
	case VISA_OP_STMATRIX:
		return matrices(w, in, mask, true);
	case VISA_OP_MOVMATRIX:
		return movmatrix(w, in, mask);
	default:
		return bad(w, in, mask);
	}
}
