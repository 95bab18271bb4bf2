// SPDX-License-Identifier: GPL-2.0
/*
 * exec_float.c - floating-point instructions and all conversions.
 *
 * f32 and f64 arithmetic uses the host's IEEE operations: in the default
 * round-to-nearest mode they are exactly PTX's .rn results; the other
 * modes switch the host rounding mode around the lane loop (this file is
 * compiled with -frounding-math so the compiler keeps the operations
 * inside).  NaN results are replaced by the GPU's canonical NaN.  f16 and
 * bf16 are computed in double and rounded once (fp_formats.c).  The
 * .approx functions are mufu.c's model of the H100's MUFU unit.
 */
#include <fenv.h>
#include <math.h>

#include "simd.h"	/* first: renames the functions per level */
#include "core_internal.h"
#include "fp_formats.h"
#include "mufu.h"
#include "visa_types.h"

static int host_mode(unsigned int rnd)
{
	switch (rnd) {
	case VISA_RND_RZ: return FE_TOWARDZERO;
	case VISA_RND_RM: return FE_DOWNWARD;
	case VISA_RND_RP: return FE_UPWARD;
	}
	return FE_TONEAREST;
}

/* The narrowing mode (fp_formats.h) of an instruction. */
static int narrow_mode(unsigned int rnd)
{
	switch (rnd) {
	case VISA_RND_RZ: case VISA_RND_RZI: return RND_Z;
	case VISA_RND_RM: case VISA_RND_RMI: return RND_M;
	case VISA_RND_RP: case VISA_RND_RPI: return RND_P;
	}
	return RND_N;
}

struct fsrc {
	const uint64_t *A, *B, *C;
	uint64_t *D;
};

static void get_srcs(struct warp *w, const struct dinsn *in, struct fsrc *s)
{
	s->A = src_row(w, in, 0, in->a);
	s->B = in->b != VISA_OPND_NONE ? src_row(w, in, 1, in->b) : s->A;
	s->C = in->c != VISA_OPND_NONE ? src_row(w, in, 2, in->c) : s->A;
	s->D = in->d != VISA_OPND_NONE ? reg_row(w, in->d) : NULL;
}

/* One f32 operation on already-flushed inputs. */
static inline float op_f32(unsigned int op, float a, float b, float c)
{
	switch (op) {
	case VISA_OP_ADD: return a + b;
	case VISA_OP_SUB: return a - b;
	case VISA_OP_MUL: return a * b;
	case VISA_OP_MAD:
	case VISA_OP_FMA: return fmaf(a, b, c);
	case VISA_OP_DIV: return a / b;
	case VISA_OP_SQRT: return sqrtf(a);
	case VISA_OP_RCP: return 1.0f / a;
	}
	return 0;
}

static inline double op_f64(unsigned int op, double a, double b, double c)
{
	switch (op) {
	case VISA_OP_ADD: return a + b;
	case VISA_OP_SUB: return a - b;
	case VISA_OP_MUL: return a * b;
	case VISA_OP_MAD:
	case VISA_OP_FMA: return fma(a, b, c);
	case VISA_OP_DIV: return a / b;
	case VISA_OP_SQRT: return sqrt(a);
	case VISA_OP_RCP: return 1.0 / a;
	}
	return 0;
}

/* .sat: clamp to [+0, 1]; NaN and -0 become +0. */
/*
 * f32 fma over the lanes.  Without hardware FMA (the baseline level),
 * fmaf() is a library call per lane; the x86-64-v3 and v4 levels
 * (simd.h) turn it into one instruction with the same result.
 */
static void fma_lanes(uint64_t *D, const uint64_t *A, const uint64_t *B,
		      const uint64_t *C, uint32_t mask)
{
	FOR_LANES(mask, D[l] = res_f32(fmaf(f32_of(A[l]), f32_of(B[l]),
					    f32_of(C[l]))));
}

static inline float sat01(float f)
{
	if (f != f || f <= 0.0f)
		return 0.0f;
	return f > 1.0f ? 1.0f : f;
}

static bool is_basic_arith(unsigned int op)
{
	return op == VISA_OP_ADD || op == VISA_OP_SUB || op == VISA_OP_MUL ||
	       op == VISA_OP_MAD || op == VISA_OP_FMA || op == VISA_OP_DIV ||
	       op == VISA_OP_SQRT || op == VISA_OP_RCP;
}

static int arith_f32(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct fsrc s;
	unsigned int op = in->op;
	unsigned int rnd = in->mod & VISA_MOD_RND_MASK;
	bool ftz = in->mod & VISA_MOD_FTZ, sat = in->mod & VISA_MOD_SAT;
	bool approx = in->mod & (VISA_MOD_APPROX | VISA_MOD_FULL);

	get_srcs(w, in, &s);
	if (op == VISA_OP_DIV && (in->mod & VISA_MOD_APPROX)) {
		/* a * (1/b): the hardware's reciprocal flushes to zero for
		 * |b| > 2^126, so the quotient is 0 there (recorded on an
		 * H100); elsewhere the exact quotient is within the bound */
		FOR_LANES(mask, {
			float a = f32_of(s.A[l]), b = f32_of(s.B[l]), r;
			if (ftz) { a = ftz32(a); b = ftz32(b); }
			r = (fabsf(b) > 0x1p126f && b == b && !isinf(b)) ?
				a * copysignf(0.0f, b) : a / b;
			s.D[l] = res_f32(ftz ? ftz32(r) : r); });
		return EXEC_OK;
	}
	if (is_basic_arith(op) && !(approx && op != VISA_OP_DIV)) {
		int old = 0;
		bool mode = host_mode(rnd) != FE_TONEAREST;

		if (mode) {
			old = fegetround();
			fesetround(host_mode(rnd));
		}
		if (!ftz && !sat && !mode) {
			/* the common case: a loop the compiler vectorizes */
			switch (op) {
			case VISA_OP_ADD:
				FOR_LANES(mask, s.D[l] = res_f32(f32_of(s.A[l]) +
								 f32_of(s.B[l])));
				return EXEC_OK;
			case VISA_OP_MUL:
				FOR_LANES(mask, s.D[l] = res_f32(f32_of(s.A[l]) *
								 f32_of(s.B[l])));
				return EXEC_OK;
			case VISA_OP_SUB:
				FOR_LANES(mask, s.D[l] = res_f32(f32_of(s.A[l]) -
								 f32_of(s.B[l])));
				return EXEC_OK;
			case VISA_OP_FMA:
			case VISA_OP_MAD:
				fma_lanes(s.D, s.A, s.B, s.C, mask);
				return EXEC_OK;
			}
		}
		FOR_LANES(mask, {
			float a = f32_of(s.A[l]), b = f32_of(s.B[l]);
			float c = f32_of(s.C[l]), r;
			if (ftz) {
				a = ftz32(a); b = ftz32(b); c = ftz32(c);
			}
			r = op_f32(op, a, b, c);
			if (ftz)
				r = ftz32(r);
			if (sat)
				r = sat01(r);
			s.D[l] = res_f32(r); });
		if (mode)
			fesetround(old);
		return EXEC_OK;
	}
	switch (op) {
	case VISA_OP_RCP: case VISA_OP_SQRT: case VISA_OP_RSQRT:
	case VISA_OP_SIN: case VISA_OP_COS: case VISA_OP_LG2:
	case VISA_OP_EX2: case VISA_OP_TANH:
		FOR_LANES(mask, s.D[l] = mufu_f32(op, (uint32_t)s.A[l], ftz));
		return EXEC_OK;
	case VISA_OP_ABS:
		FOR_LANES(mask, {
			float a = f32_of(s.A[l]);
			if (ftz) a = ftz32(a);
			s.D[l] = a != a ? CANON_NAN_F32 :
				 f32_to_bits(a) & 0x7fffffffu; });
		return EXEC_OK;
	case VISA_OP_NEG:
		FOR_LANES(mask, {
			float a = f32_of(s.A[l]);
			if (ftz) a = ftz32(a);
			s.D[l] = a != a ? CANON_NAN_F32 :
				 f32_to_bits(a) ^ 0x80000000u; });
		return EXEC_OK;
	case VISA_OP_MIN:
	case VISA_OP_MAX: {
		bool nan = in->mod & VISA_MOD_NAN, mx = op == VISA_OP_MAX;

		FOR_LANES(mask, {
			float a = f32_of(s.A[l]), b = f32_of(s.B[l]), r;
			if (ftz) { a = ftz32(a); b = ftz32(b); }
			if (a != a || b != b)
				r = (nan || (a != a && b != b)) ? NAN :
				    (a != a ? b : a);
			else if (a == b)	/* -0 < +0 for min/max */
				r = mx ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
			else
				r = mx ? (a > b ? a : b) : (a < b ? a : b);
			s.D[l] = res_f32(r); });
		return EXEC_OK;
	}
	case VISA_OP_COPYSIGN:
		FOR_LANES(mask, s.D[l] = ((uint32_t)s.B[l] & 0x7fffffffu) |
					 ((uint32_t)s.A[l] & 0x80000000u));
		return EXEC_OK;
	}
	return exec_bad(w, in, mask);
}

static int arith_f64(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct fsrc s;
	unsigned int op = in->op;
	unsigned int rnd = in->mod & VISA_MOD_RND_MASK;

	get_srcs(w, in, &s);
	if (op == VISA_OP_RCP && (in->mod & VISA_MOD_APPROX)) {
		/* the hardware approximates from the high 32 bits only
		 * (so a signalling NaN with a zero high payload is inf) */
		FOR_LANES(mask, s.D[l] = res_f64(1.0 / f64_of(
			s.A[l] & 0xffffffff00000000ull)));
		return EXEC_OK;
	}
	if (is_basic_arith(op)) {
		bool mode = host_mode(rnd) != FE_TONEAREST;
		int old = 0;

		if (mode) {
			old = fegetround();
			fesetround(host_mode(rnd));
		}
		FOR_LANES(mask, {
			uint64_t x = s.A[l], y = s.B[l], z = s.C[l];
			double a = f64_of(x), b = f64_of(y), c = f64_of(z);
			unsigned int nops = op == VISA_OP_FMA || op == VISA_OP_MAD ?
					    3 : (op == VISA_OP_SQRT ||
						 op == VISA_OP_RCP) ? 1 : 2;
			/* A NaN operand propagates, quieted.  Which one wins
			 * when several are NaN was recorded on an H100: add
			 * and mul prefer b, fma prefers b then c, div
			 * (a software sequence) prefers a. */
			if (op == VISA_OP_DIV && a != a)
				s.D[l] = quiet_f64(x);
			else if (nops > 1 && b != b)
				s.D[l] = quiet_f64(y);
			else if (nops > 2 && c != c)
				s.D[l] = quiet_f64(z);
			else if (a != a)
				s.D[l] = quiet_f64(x);
			else
				s.D[l] = res_f64(op_f64(op, a, b, c)); });
		if (mode)
			fesetround(old);
		return EXEC_OK;
	}
	switch (op) {
	case VISA_OP_RSQRT:
		FOR_LANES(mask, s.D[l] = f64_of(s.A[l]) != f64_of(s.A[l]) ?
			  quiet_f64(s.A[l]) : res_f64(1.0 / sqrt(f64_of(s.A[l]))));
		return EXEC_OK;
	case VISA_OP_SIN:
		FOR_LANES(mask, s.D[l] = res_f64(sin(f64_of(s.A[l]))));
		return EXEC_OK;
	case VISA_OP_COS:
		FOR_LANES(mask, s.D[l] = res_f64(cos(f64_of(s.A[l]))));
		return EXEC_OK;
	case VISA_OP_LG2:
		FOR_LANES(mask, s.D[l] = res_f64(log2(f64_of(s.A[l]))));
		return EXEC_OK;
	case VISA_OP_EX2:
		FOR_LANES(mask, s.D[l] = res_f64(exp2(f64_of(s.A[l]))));
		return EXEC_OK;
	case VISA_OP_ABS:	/* NaNs come back quieted, sign unchanged */
		FOR_LANES(mask, s.D[l] = f64_of(s.A[l]) != f64_of(s.A[l]) ?
			  quiet_f64(s.A[l]) : s.A[l] & 0x7fffffffffffffffull);
		return EXEC_OK;
	case VISA_OP_NEG:
		FOR_LANES(mask, s.D[l] = f64_of(s.A[l]) != f64_of(s.A[l]) ?
			  quiet_f64(s.A[l]) : s.A[l] ^ 0x8000000000000000ull);
		return EXEC_OK;
	case VISA_OP_MIN:
	case VISA_OP_MAX: {
		bool nan = in->mod & VISA_MOD_NAN, mx = op == VISA_OP_MAX;

		FOR_LANES(mask, {
			double a = f64_of(s.A[l]), b = f64_of(s.B[l]), r;
			if (a != a && b != b) {	/* the second, quieted */
				s.D[l] = quiet_f64(s.B[l]);
				continue;
			}
			if (a != a || b != b)
				r = nan ? NAN : (a != a ? b : a);
			else if (a == b)
				r = mx ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
			else
				r = mx ? (a > b ? a : b) : (a < b ? a : b);
			s.D[l] = res_f64(r); });
		return EXEC_OK;
	}
	case VISA_OP_COPYSIGN:
		FOR_LANES(mask, s.D[l] = (s.B[l] & 0x7fffffffffffffffull) |
					 (s.A[l] & 0x8000000000000000ull));
		return EXEC_OK;
	}
	return exec_bad(w, in, mask);
}

/* f16/bf16 (scalar or x2): compute each element in double, round once. */
static int arith_half(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct fsrc s;
	bool bf = in->type == VISA_T_BF16 || in->type == VISA_T_BF16X2;
	int n = (in->type == VISA_T_F16X2 || in->type == VISA_T_BF16X2) ? 2 : 1;
	int rnd = narrow_mode(in->mod & VISA_MOD_RND_MASK);
	unsigned int op = in->op;

	get_srcs(w, in, &s);
	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t out = 0;

		if (!((mask >> l) & 1))
			continue;
		for (int i = 0; i < n; i++) {
			uint16_t ha = (uint16_t)(s.A[l] >> (16 * i));
			uint16_t hb = (uint16_t)(s.B[l] >> (16 * i));
			uint16_t hc = (uint16_t)(s.C[l] >> (16 * i));
			double a = bf ? bf16_to_double(ha) : f16_to_double(ha);
			double b = bf ? bf16_to_double(hb) : f16_to_double(hb);
			double c = bf ? bf16_to_double(hc) : f16_to_double(hc);
			double r;
			uint16_t h;

			switch (op) {
			case VISA_OP_ADD: r = a + b; break;
			case VISA_OP_SUB: r = a - b; break;
			case VISA_OP_MUL: r = a * b; break;
			case VISA_OP_MAD:
			case VISA_OP_FMA: r = fma(a, b, c); break;
			case VISA_OP_DIV: r = a / b; break;
			case VISA_OP_SQRT: r = sqrt(a); break;
			case VISA_OP_RCP: r = 1.0 / a; break;
			case VISA_OP_RSQRT: r = 1.0 / sqrt(a); break;
			case VISA_OP_EX2: r = exp2(a); break;
			case VISA_OP_LG2: r = log2(a); break;
			case VISA_OP_SIN: r = sin(a); break;
			case VISA_OP_COS: r = cos(a); break;
			case VISA_OP_TANH: r = tanh(a); break;
			case VISA_OP_MIN:
				r = a != a ? b : b != b ? a : a < b ? a :
				    (a == b && signbit(a)) ? a : b;
				if ((in->mod & VISA_MOD_NAN) && (a != a || b != b))
					r = NAN;
				break;
			case VISA_OP_MAX:
				r = a != a ? b : b != b ? a : a > b ? a :
				    (a == b && !signbit(a)) ? a : b;
				if ((in->mod & VISA_MOD_NAN) && (a != a || b != b))
					r = NAN;
				break;
			case VISA_OP_ABS:
				out |= (uint64_t)(ha & 0x7fff) << (16 * i);
				continue;
			case VISA_OP_NEG:
				out |= (uint64_t)(ha ^ 0x8000) << (16 * i);
				continue;
			default:
				return exec_bad(w, in, mask);
			}
			if ((in->mod & VISA_MOD_SAT) && r == r)
				r = r < 0 ? 0 : r > 1 ? 1 : r;
			else if (in->mod & VISA_MOD_SAT)
				r = 0;
			h = bf ? bf16_from_double(r, rnd) : f16_from_double(r, rnd);
			out |= (uint64_t)h << (16 * i);
		}
		s.D[l] = out;
	}
	return EXEC_OK;
}

/* A float value of any type, widened to double. */
static double load_float(unsigned int t, uint64_t v)
{
	switch (t) {
	case VISA_T_F16: return f16_to_double((uint16_t)v);
	case VISA_T_BF16: return bf16_to_double((uint16_t)v);
	case VISA_T_F32: return f32_of(v);
	default: return f64_of(v);
	}
}

static bool cmp_float(unsigned int op, double a, double b)
{
	bool un = a != a || b != b;

	switch (op) {
	case VISA_CMP_EQ: return !un && a == b;
	case VISA_CMP_NE: return !un && a != b;
	case VISA_CMP_LT: return !un && a < b;
	case VISA_CMP_LE: return !un && a <= b;
	case VISA_CMP_GT: return !un && a > b;
	case VISA_CMP_GE: return !un && a >= b;
	case VISA_CMP_EQU: return un || a == b;
	case VISA_CMP_NEU: return un || a != b;
	case VISA_CMP_LTU: return un || a < b;
	case VISA_CMP_LEU: return un || a <= b;
	case VISA_CMP_GTU: return un || a > b;
	case VISA_CMP_GEU: return un || a >= b;
	case VISA_CMP_NUM: return !un;
	case VISA_CMP_NAN: return un;
	}
	return false;
}

static int setp_float(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct fsrc s;
	unsigned int t = in->op == VISA_OP_SET ? in->type2 : in->type;
	unsigned int op = VISA_MOD_SUB(in->mod);
	bool ftz = in->mod & VISA_MOD_FTZ;
	uint32_t r = 0;

	get_srcs(w, in, &s);
	if (t == VISA_T_F16X2 || t == VISA_T_BF16X2)
		return exec_bad(w, in, mask);	/* setp.f16x2 has 2 results */
	for (int l = 0; l < WARP_SIZE; l++) {
		double a = load_float(t, s.A[l]), b = load_float(t, s.B[l]);

		if (ftz && t == VISA_T_F32) {
			a = ftz32((float)a);
			b = ftz32((float)b);
		}
		if (cmp_float(op, a, b))
			r |= 1u << l;
	}
	r = combine_pred(w, in, r);
	if (in->op == VISA_OP_SETP) {
		pred_write(&w->preds[in->pd], mask, r);
	} else {
		uint64_t one = in->type == VISA_T_F32 ? 0x3f800000u :
			       in->type == VISA_T_S32 || in->type == VISA_T_U32 ||
			       in->type == VISA_T_B32 ? 0xffffffffu : ~0ull;

		FOR_LANES(mask, s.D[l] = ((r >> l) & 1) ? one : 0);
	}
	return EXEC_OK;
}

static int testp(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct fsrc s;
	uint32_t r = 0;

	get_srcs(w, in, &s);
	for (int l = 0; l < WARP_SIZE; l++) {
		double a = load_float(in->type, s.A[l]);
		int c = fpclassify(a);
		bool sub = in->type == VISA_T_F32 ?
			fpclassify(f32_of(s.A[l])) == FP_SUBNORMAL :
			c == FP_SUBNORMAL;
		bool ok;

		switch (VISA_MOD_SUB(in->mod)) {
		case VISA_TESTP_FINITE: ok = isfinite(a); break;
		case VISA_TESTP_INFINITE: ok = isinf(a); break;
		case VISA_TESTP_NUMBER: ok = !isnan(a); break;
		case VISA_TESTP_NOTANUMBER: ok = isnan(a); break;
		case VISA_TESTP_NORMAL: ok = isfinite(a) && a != 0 && !sub; break;
		default: ok = sub; break;
		}
		if (ok)
			r |= 1u << l;
	}
	pred_write(&w->preds[in->pd], mask, r);
	return EXEC_OK;
}

/* Float to integer: round as asked, saturate, NaN -> 0 (PTX cvt rules). */
static uint64_t float_to_int(double x, unsigned int t, unsigned int rnd,
			     unsigned int src)
{
	unsigned int bits = type_bits(t);
	bool sgn = type_signed(t);
	double lo, hi;

	/* NaN: 0 from f32 into 32 bits, otherwise the sign-bit pattern
	 * (recorded on an H100) */
	if (x != x)
		return src == VISA_T_F64 || bits == 64 ?
			extend_to_reg(t, 1ull << (bits - 1)) : 0;
	switch (rnd) {
	case VISA_RND_RMI: x = floor(x); break;
	case VISA_RND_RPI: x = ceil(x); break;
	case VISA_RND_RNI: x = nearbyint(x); break;
	default: x = trunc(x); break;
	}
	lo = sgn ? -ldexp(1.0, (int)bits - 1) : 0;
	hi = sgn ? ldexp(1.0, (int)bits - 1) : ldexp(1.0, (int)bits);
	if (x < lo)
		return extend_to_reg(t, sgn ? 1ull << (bits - 1) : 0);
	if (x >= hi)
		return extend_to_reg(t, sgn ? (1ull << (bits - 1)) - 1 : ~0ull);
	return extend_to_reg(t, sgn ? (uint64_t)(int64_t)x : (uint64_t)x);
}

/* Integer to integer with optional saturation to the destination range. */
static uint64_t int_to_int(uint64_t v, unsigned int dt, unsigned int st,
			   bool sat)
{
	uint64_t s = extend_to_reg(st, v);
	unsigned int db = type_bits(dt);

	if (sat && db < 64) {
		bool ss = type_signed(st), ds = type_signed(dt);
		int64_t smin = ds ? -(int64_t)(1ull << (db - 1)) : 0;
		int64_t smax = ds ? (int64_t)((1ull << (db - 1)) - 1) :
				    (int64_t)((1ull << db) - 1);

		if (ss) {
			int64_t x = (int64_t)s;

			x = x < smin ? smin : x > smax ? smax : x;
			s = (uint64_t)x;
		} else if (s > (uint64_t)smax) {
			s = (uint64_t)smax;
		}
	} else if (sat && db == 64 && type_signed(st) != type_signed(dt)) {
		/* s64 <-> u64 */
		if (type_signed(st) && (int64_t)s < 0)
			s = 0;
		else if (!type_signed(st) && s > (uint64_t)INT64_MAX)
			s = (uint64_t)INT64_MAX;
	}
	return extend_to_reg(dt, s);
}

static uint64_t store_float(unsigned int t, double x, unsigned int rnd,
			    bool ftz, bool sat)
{
	int mode = narrow_mode(rnd);

	if (sat)
		x = x != x ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
	switch (t) {
	case VISA_T_F16: return f16_from_double(x, mode);
	case VISA_T_BF16: return bf16_from_double(x, mode);
	case VISA_T_F32: {
		float f = f32_from_double(x, mode);

		return res_f32(ftz ? ftz32(f) : f);
	}
	}
	return res_f64(x);
}

static int cvt(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct fsrc s;
	unsigned int dt = in->type, st = in->type2;
	unsigned int rnd = in->mod & VISA_MOD_RND_MASK;
	bool ftz = in->mod & VISA_MOD_FTZ, sat = in->mod & VISA_MOD_SAT;

	get_srcs(w, in, &s);
	if (type_is_int(dt) && type_is_int(st)) {
		FOR_LANES(mask, s.D[l] = int_to_int(s.A[l], dt, st, sat));
		return EXEC_OK;
	}
	if (type_is_int(st) && (dt == VISA_T_F32 || dt == VISA_T_F64) &&
	    host_mode(rnd) == FE_TONEAREST && !sat) {
		/* int -> f32/f64 in the mode the core runs in: no switch of
		 * the host's mode per lane (fesetround costs more than the
		 * conversion), and loops that vectorize */
		if (st == VISA_T_S32 && dt == VISA_T_F32)
			FOR_LANES(mask, s.D[l] = f32_to_bits((float)(int32_t)s.A[l]));
		else if (st == VISA_T_U32 && dt == VISA_T_F32)
			FOR_LANES(mask, s.D[l] = f32_to_bits((float)(uint32_t)s.A[l]));
		else if (dt == VISA_T_F64)
			FOR_LANES(mask, {
				uint64_t v = extend_to_reg(st, s.A[l]);
				s.D[l] = f64_to_bits(type_signed(st) ?
						  (double)(int64_t)v : (double)v); });
		else
			FOR_LANES(mask, {
				uint64_t v = extend_to_reg(st, s.A[l]);
				s.D[l] = f32_to_bits(type_signed(st) ?
						  (float)(int64_t)v : (float)v); });
		return EXEC_OK;
	}
	for (int l = 0; l < WARP_SIZE; l++) {
		double x;

		if (!((mask >> l) & 1))
			continue;
		if (type_is_int(st)) {
			uint64_t v = extend_to_reg(st, s.A[l]);

			/* int -> float: one rounding, in the asked mode */
			if (dt == VISA_T_F64 || dt == VISA_T_F32) {
				int old = fegetround();
				double r;

				fesetround(host_mode(rnd));
				if (dt == VISA_T_F64)
					r = type_signed(st) ? (double)(int64_t)v :
							     (double)v;
				else
					r = type_signed(st) ? (float)(int64_t)v :
							     (float)v;
				fesetround(old);
				s.D[l] = dt == VISA_T_F64 ? f64_to_bits(r) :
					 f32_to_bits((float)r);
				if (sat)
					s.D[l] = store_float(dt, r, 0, ftz, true);
				continue;
			}
			x = type_signed(st) ? (double)(int64_t)v : (double)v;
			s.D[l] = store_float(dt, x, rnd, ftz, sat);
			continue;
		}
		x = load_float(st, s.A[l]);
		if (ftz && st == VISA_T_F32)
			x = ftz32((float)x);
		if (type_is_int(dt)) {
			s.D[l] = float_to_int(x, dt, rnd, st);
			continue;
		}
		/* f64 NaN -> f32 keeps only the sign (H100) */
		if (st == VISA_T_F64 && dt == VISA_T_F32 && x != x) {
			s.D[l] = (s.A[l] >> 32 & 0x80000000u) | 0x7fc00000u;
			continue;
		}
		/* float -> float; integral rounding modes round first */
		switch (rnd) {
		case VISA_RND_RNI: x = nearbyint(x); break;
		case VISA_RND_RZI: x = trunc(x); break;
		case VISA_RND_RMI: x = floor(x); break;
		case VISA_RND_RPI: x = ceil(x); break;
		}
		s.D[l] = store_float(dt, x, rnd, ftz, sat);
	}
	return EXEC_OK;
}

int exec_float(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	switch (in->op) {
	case VISA_OP_CVT:
		return cvt(w, in, mask);
	case VISA_OP_SETP:
	case VISA_OP_SET:
		return setp_float(w, in, mask);
	case VISA_OP_TESTP:
		return testp(w, in, mask);
	}
	switch (in->type) {
	case VISA_T_F32:
		return arith_f32(w, in, mask);
	case VISA_T_F64:
		return arith_f64(w, in, mask);
	case VISA_T_F16: case VISA_T_F16X2: case VISA_T_BF16: case VISA_T_BF16X2:
		return arith_half(w, in, mask);
	}
	return exec_bad(w, in, mask);
}
