// SPDX-License-Identifier: GPL-2.0
/*
 * exec_int.c - integer, bit-manipulation, predicate and data-movement
 * instructions.
 *
 * Every operation is computed in an unsigned type of at least 32 bits
 * (wrap-around is the defined behaviour of the hardware and of unsigned C
 * arithmetic) and then narrowed to the instruction type, whose signedness
 * decides how the result is extended to the 64-bit register.
 * Hardware-defined results (division by zero) follow values recorded on an
 * NVIDIA H100 (tests/golden/).
 */
#include "simd.h"	/* first: renames the functions per level */
#include "core_internal.h"
#include "visa_types.h"

/*
 * Lane loops over one, two or three sources of type T, computing in CT.
 * Integer operations have no side effects and are defined for any input
 * (division by zero included), so a partial mask computes every lane and
 * blends: D[l] keeps its value where the lane is inactive.  Both forms
 * vectorize.
 */
#define BLEND_LANES(RESULT) do {					\
	if (mask == FULL_MASK) {					\
		for (int l = 0; l < WARP_SIZE; l++)			\
			D[l] = RESULT;					\
	} else {							\
		for (int l = 0; l < WARP_SIZE; l++) {			\
			uint64_t r_ = RESULT;				\
			D[l] = ((mask >> l) & 1) ? r_ : D[l];		\
		}							\
	}								\
} while (0)
/*
 * BLEND_LANES of extend_to_reg(in->type, V), with the width and signedness of
 * the extension chosen once outside the lane loop (inside it, extend_to_reg()'s
 * switch on the type keeps the loop from vectorizing).
 */
#define BLEND_EXTENDED(V) do {						\
	switch (type_bits(in->type) | (type_signed(in->type) ? 1u : 0u)) { \
	case 8: BLEND_LANES((uint64_t)(uint8_t)(V)); break;		\
	case 9: BLEND_LANES((uint64_t)(int64_t)(int8_t)(V)); break;	\
	case 16: BLEND_LANES((uint64_t)(uint16_t)(V)); break;		\
	case 17: BLEND_LANES((uint64_t)(int64_t)(int16_t)(V)); break;	\
	case 32: BLEND_LANES((uint64_t)(uint32_t)(V)); break;		\
	case 33: BLEND_LANES((uint64_t)(int64_t)(int32_t)(V)); break;	\
	default: BLEND_LANES((uint64_t)(V)); break;			\
	}								\
} while (0)
#define L1(T, CT, EXPR) BLEND_LANES(({					\
	T a = (T)A[l]; CT ua = (CT)a; (void)ua;				\
	(uint64_t)(T)(EXPR); }))
#define L2(T, CT, EXPR) BLEND_LANES(({					\
	T a = (T)A[l]; T b = (T)B[l];					\
	CT ua = (CT)a, ub = (CT)b; (void)ua; (void)ub;			\
	(uint64_t)(T)(EXPR); }))
#define L3(T, CT, EXPR) BLEND_LANES(({					\
	T a = (T)A[l]; T b = (T)B[l]; T c = (T)C[l];			\
	CT ua = (CT)a, ub = (CT)b, uc = (CT)c;				\
	(void)ua; (void)ub; (void)uc;					\
	(uint64_t)(T)(EXPR); }))

/* Expand a lane loop for every integer type. */
#define INT_TYPES(LOOP, EXPR)						\
	switch (in->type) {						\
	case VISA_T_U8: case VISA_T_B8: LOOP(uint8_t, uint32_t, EXPR); break; \
	case VISA_T_S8: LOOP(int8_t, uint32_t, EXPR); break;		\
	case VISA_T_U16: case VISA_T_B16: LOOP(uint16_t, uint32_t, EXPR); break; \
	case VISA_T_S16: LOOP(int16_t, uint32_t, EXPR); break;		\
	case VISA_T_U32: case VISA_T_B32: LOOP(uint32_t, uint32_t, EXPR); break; \
	case VISA_T_S32: LOOP(int32_t, uint32_t, EXPR); break;		\
	case VISA_T_U64: case VISA_T_B64: LOOP(uint64_t, uint64_t, EXPR); break; \
	case VISA_T_S64: LOOP(int64_t, uint64_t, EXPR); break;		\
	default: return exec_bad(w, in, mask);				\
	}

/* Only the 32- and 64-bit types (most bit instructions). */
#define INT_TYPES_32_64(LOOP, EXPR)					\
	switch (in->type) {						\
	case VISA_T_U32: case VISA_T_B32: LOOP(uint32_t, uint32_t, EXPR); break; \
	case VISA_T_S32: LOOP(int32_t, uint32_t, EXPR); break;		\
	case VISA_T_U64: case VISA_T_B64: LOOP(uint64_t, uint64_t, EXPR); break; \
	case VISA_T_S64: LOOP(int64_t, uint64_t, EXPR); break;		\
	default: return exec_bad(w, in, mask);				\
	}

#define BITS(T)		((int)(sizeof(T) * 8))
#define IS_SIGNED(T)	_Generic((T)0, int8_t: 1, int16_t: 1, int32_t: 1, \
				 int64_t: 1, default: 0)
/* "a < 0" that compiles without warnings for unsigned types too. */
#define NEGATIVE(a)	(IS_SIGNED(__typeof__(a)) && \
			 ((uint64_t)(int64_t)(a) >> 63))

/* Division (and remainder) by zero give all ones on an H100, whatever
 * the signs; INT_MIN / -1 wraps. */
#define DIV(T, CT, a, b)						\
	((b) == 0 ? (T)-1 :						\
	 (IS_SIGNED(T) && (b) == (T)-1) ? (T)(0 - (CT)(a)) : (T)((a) / (b)))
#define REM(T, CT, a, b)						\
	((b) == 0 ? (T)-1 :						\
	 (IS_SIGNED(T) && (b) == (T)-1) ? (T)0 : (T)((a) % (b)))

static inline uint32_t brev32(uint32_t x)
{
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(x);
}

static inline uint64_t brev64(uint64_t x)
{
	return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32));
}

/* High half of a full product. */
static inline uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static inline uint64_t mulhi_s64(int64_t a, int64_t b)
{
	return (uint64_t)(((__int128)a * b) >> 64);
}

static int mulhi_wide(struct warp *w, const struct dinsn *in, uint32_t mask,
		      bool wide, const uint64_t *C)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	uint64_t *D = reg_row(w, in->d);

#define ADDC_(x, l) ((x) + (C ? C[l] : 0))
	switch (in->type) {
	case VISA_T_U16:
		FOR_LANES(mask, {
			uint32_t p = (uint32_t)(uint16_t)A[l] * (uint16_t)B[l];
			D[l] = wide ? (uint32_t)ADDC_(p, l) :
			       (uint16_t)ADDC_(p >> 16, l); });
		break;
	case VISA_T_S16:
		FOR_LANES(mask, {
			int32_t p = (int32_t)(int16_t)A[l] * (int16_t)B[l];
			D[l] = wide ? extend_to_reg(VISA_T_S32, ADDC_((uint32_t)p, l)) :
			       extend_to_reg(VISA_T_S16, ADDC_((uint32_t)(p >> 16), l)); });
		break;
	case VISA_T_U32:
		FOR_LANES(mask, {
			uint64_t p = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l];
			D[l] = wide ? ADDC_(p, l) :
			       (uint32_t)ADDC_(p >> 32, l); });
		break;
	case VISA_T_S32:
		FOR_LANES(mask, {
			int64_t p = (int64_t)(int32_t)A[l] * (int32_t)B[l];
			D[l] = wide ? ADDC_((uint64_t)p, l) :
			       extend_to_reg(VISA_T_S32, ADDC_((uint64_t)p >> 32, l)); });
		break;
	case VISA_T_U64: case VISA_T_B64:
		if (wide)
			return exec_bad(w, in, mask);
		FOR_LANES(mask, D[l] = ADDC_(mulhi_u64(A[l], B[l]), l));
		break;
	case VISA_T_S64:
		if (wide)
			return exec_bad(w, in, mask);
		FOR_LANES(mask, D[l] = ADDC_(mulhi_s64((int64_t)A[l],
						       (int64_t)B[l]), l));
		break;
	default:
		return exec_bad(w, in, mask);
	}
#undef ADDC_
	return EXEC_OK;
}

/* add.sat.s32 / sub.sat.s32 clamp instead of wrapping. */
static int add_sat(struct warp *w, const struct dinsn *in, uint32_t mask,
		   bool sub)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	uint64_t *D = reg_row(w, in->d);

	if (in->type != VISA_T_S32)
		return exec_bad(w, in, mask);
	FOR_LANES(mask, {
		int64_t r = sub ? (int64_t)(int32_t)A[l] - (int32_t)B[l] :
				  (int64_t)(int32_t)A[l] + (int32_t)B[l];
		r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
		D[l] = (uint64_t)r; });
	return EXEC_OK;
}

static int add_carry(struct warp *w, const struct dinsn *in, uint32_t mask,
		     bool sub)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	uint64_t *D = reg_row(w, in->d);
	uint32_t cin = (in->mod & VISA_MOD_CC_IN) ? w->preds[in->pa] : 0;
	uint32_t cout = 0;
	bool wide = type_bits(in->type) == 64;

	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t a, b, c, r;
		bool carry;

		if (!((mask >> l) & 1))
			continue;
		a = A[l];
		b = B[l];
		c = (cin >> l) & 1;
		if (!wide) {
			a = (uint32_t)a;
			b = (uint32_t)b;
		}
		if (!sub) {
			r = a + b + c;
			carry = wide ? (r < a || (c && r == a)) : (r >> 32) & 1;
		} else {
			/* PTX sub.cc sets CC.CF to the borrow */
			r = a - b - c;
			carry = wide ? (a < b || (c && a == b)) :
				(uint64_t)b + c > a;
		}
		D[l] = wide ? r : (uint32_t)r;
		cout |= (uint32_t)carry << l;
	}
	if (in->mod & VISA_MOD_CC_OUT)
		pred_write(&w->preds[in->pd], mask, cout);
	return EXEC_OK;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned int mode)
{
	uint64_t x = ((uint64_t)b << 32) | a;
	uint32_t r = 0;
	unsigned int sel[4];

	switch (mode) {
	case 1: /* f4e: forward 4 extract */
		for (int i = 0; i < 4; i++)
			sel[i] = (c + i) & 7;
		break;
	case 2: /* b4e: backward 4 extract */
		for (int i = 0; i < 4; i++)
			sel[i] = (c - i) & 7;
		break;
	case 3: /* rc8: replicate byte */
		for (int i = 0; i < 4; i++)
			sel[i] = c & 3;
		break;
	case 4: /* ecl: edge clamp left */
		for (int i = 0; i < 4; i++)
			sel[i] = (unsigned int)i > (c & 3) ? (c & 3) : (unsigned int)i;
		break;
	case 5: /* ecr: edge clamp right */
		for (int i = 0; i < 4; i++)
			sel[i] = (unsigned int)i < (c & 3) ? (c & 3) : (unsigned int)i;
		break;
	case 6: /* rc16: replicate half */
		sel[0] = (c & 1) * 2;
		sel[1] = sel[0] + 1;
		sel[2] = sel[0];
		sel[3] = sel[1];
		break;
	default: /* generic: a nibble per result byte, bit 3 = sign fill */
		for (int i = 0; i < 4; i++) {
			unsigned int s = (c >> (4 * i)) & 0xf;
			uint32_t byte = (uint32_t)(x >> ((s & 7) * 8)) & 0xff;

			if (s & 8)
				byte = (byte & 0x80) ? 0xff : 0;
			r |= byte << (8 * i);
		}
		return r;
	}
	for (int i = 0; i < 4; i++)
		r |= ((uint32_t)(x >> (sel[i] * 8)) & 0xff) << (8 * i);
	return r;
}

static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, uint32_t lut)
{
	uint64_t r = 0;

	for (int i = 0; i < 8; i++) {
		if ((lut >> i) & 1)
			r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) &
			     ((i & 1) ? c : ~c);
	}
	return r;
}

/* bfe exactly as the PTX ISA defines it, bit by bit. */
static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned int bits,
		    bool sgn)
{
	unsigned int msb = bits - 1;
	uint64_t r = 0, sbit = 0;

	pos &= 0xff;
	len &= 0xff;
	if (sgn && len)
		sbit = pos + len - 1 >= msb ? (a >> msb) & 1 :
					      (a >> (pos + len - 1)) & 1;
	for (unsigned int i = 0; i < bits; i++) {
		uint64_t bit = (i < len && pos + i <= msb) ?
			       (a >> (pos + i)) & 1 : sbit;

		r |= bit << i;
	}
	return r;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len,
		    unsigned int bits)
{
	uint64_t m;

	pos &= 0xff;
	len &= 0xff;
	if (!len || pos >= bits)
		return b;
	if (pos + len > bits)
		len = bits - pos;
	m = (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
	return (b & ~m) | ((a << pos) & m);
}

static uint32_t bfind(uint64_t a, unsigned int bits, bool sgn, bool shiftamt)
{
	int idx = -1;

	if (bits == 32)
		a = sgn && ((a >> 31) & 1) ? ~a & 0xffffffffull : a & 0xffffffffull;
	else if (sgn && (a >> 63))
		a = ~a;
	if (a)
		idx = 63 - __builtin_clzll(a);
	if (idx < 0)
		return 0xffffffffu;
	return shiftamt ? (uint32_t)(bits - 1 - idx) : (uint32_t)idx;
}

static uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
	if (offset == 0)
		return (base < 32 && ((mask >> base) & 1)) ? base : 0xffffffffu;
	if (offset > 0) {
		for (int i = (int)base; i < 32; i++)
			if (((mask >> i) & 1) && --offset == 0)
				return (uint32_t)i;
	} else {
		for (int i = (int)base; i >= 0; i--)
			if (((mask >> i) & 1) && ++offset == 0)
				return (uint32_t)i;
	}
	return 0xffffffffu;
}

static int32_t dp(uint32_t a, uint32_t b, uint32_t mod, bool two)
{
	bool sa = mod & VISA_MOD_SIGNED_A, sb = mod & VISA_MOD_SIGNED_B;
	int32_t s = 0;

	for (int i = 0; i < (two ? 2 : 4); i++) {
		int32_t x, y;
		unsigned int bi = two ? (unsigned int)i +
			((mod & VISA_MOD_HI) ? 2 : 0) : (unsigned int)i;

		if (two) {
			uint32_t h = (a >> (16 * i)) & 0xffff;

			x = sa ? (int16_t)h : (int32_t)h;
		} else {
			uint32_t h = (a >> (8 * i)) & 0xff;

			x = sa ? (int8_t)h : (int32_t)h;
		}
		y = sb ? (int8_t)((b >> (8 * bi)) & 0xff) :
			 (int32_t)((b >> (8 * bi)) & 0xff);
		s = (int32_t)((uint32_t)s + (uint32_t)(x * y));
	}
	return s;
}

uint32_t combine_pred(const struct warp *w, const struct dinsn *in, uint32_t r)
{
	uint32_t c;

	if (!(in->mod & VISA_MOD_BOOL_MASK))
		return r;
	c = w->preds[in->pa];
	switch ((in->mod & VISA_MOD_BOOL_MASK) >> VISA_MOD_BOOL_SHIFT) {
	case VISA_BOOL_AND: return r & c;
	case VISA_BOOL_OR: return r | c;
	default: return r ^ c;
	}
}

/* Lane loop producing a lane mask from a comparison of type T. */
#define CMP_LOOP(T, EXPR) do {						\
	for (int l = 0; l < WARP_SIZE; l++) {				\
		T a = (T)A[l], b = (T)B[l];				\
		r |= (uint32_t)(EXPR) << l;				\
	}								\
} while (0)
#define CMP_OPS(T, UT) do {						\
	switch (op) {							\
	case VISA_CMP_EQ: case VISA_CMP_EQU: CMP_LOOP(T, a == b); break; \
	case VISA_CMP_NE: case VISA_CMP_NEU: CMP_LOOP(T, a != b); break; \
	case VISA_CMP_LT: CMP_LOOP(T, a < b); break;			\
	case VISA_CMP_LE: CMP_LOOP(T, a <= b); break;			\
	case VISA_CMP_GT: CMP_LOOP(T, a > b); break;			\
	case VISA_CMP_GE: CMP_LOOP(T, a >= b); break;			\
	case VISA_CMP_LTU: CMP_LOOP(UT, a < b); break;			\
	case VISA_CMP_LEU: CMP_LOOP(UT, a <= b); break;			\
	case VISA_CMP_GTU: CMP_LOOP(UT, a > b); break;			\
	case VISA_CMP_GEU: CMP_LOOP(UT, a >= b); break;			\
	}								\
} while (0)

static int setp_int(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	unsigned int t = in->op == VISA_OP_SET ? in->type2 : in->type;
	unsigned int op = VISA_MOD_SUB(in->mod);
	uint32_t r = 0;

	switch (t) {
	case VISA_T_U8: case VISA_T_B8: CMP_OPS(uint8_t, uint8_t); break;
	case VISA_T_S8: CMP_OPS(int8_t, uint8_t); break;
	case VISA_T_U16: case VISA_T_B16: CMP_OPS(uint16_t, uint16_t); break;
	case VISA_T_S16: CMP_OPS(int16_t, uint16_t); break;
	case VISA_T_U32: case VISA_T_B32: CMP_OPS(uint32_t, uint32_t); break;
	case VISA_T_S32: CMP_OPS(int32_t, uint32_t); break;
	case VISA_T_U64: case VISA_T_B64: CMP_OPS(uint64_t, uint64_t); break;
	case VISA_T_S64: CMP_OPS(int64_t, uint64_t); break;
	default:
		return exec_bad(w, in, mask);
	}
	r = combine_pred(w, in, r);
	if (in->op == VISA_OP_SETP) {
		pred_write(&w->preds[in->pd], mask, r);
	} else {
		uint64_t *D = reg_row(w, in->d);
		uint64_t one = in->type == VISA_T_F32 ? 0x3f800000u :
			       extend_to_reg(in->type, ~0ull);

		FOR_LANES(mask, D[l] = ((r >> l) & 1) ? one : 0);
	}
	return EXEC_OK;
}

static int pred_logic(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint32_t *p = w->preds;
	uint32_t a, b, r;

	/* Only these name predicates (the validator checked them as such). */
	if (in->op != VISA_OP_MOV && in->op != VISA_OP_AND &&
	    in->op != VISA_OP_OR && in->op != VISA_OP_XOR &&
	    in->op != VISA_OP_NOT)
		return exec_bad(w, in, mask);

	b = in->b != VISA_OPND_NONE ? p[in->b] : 0;
	if (in->op == VISA_OP_MOV && (in->a & VISA_OPND_LIT))
		a = in->lit[0][0] ? FULL_MASK : 0;
	else
		a = p[in->a];
	switch (in->op) {
	case VISA_OP_MOV: r = a; break;
	case VISA_OP_AND: r = a & b; break;
	case VISA_OP_OR: r = a | b; break;
	case VISA_OP_XOR: r = a ^ b; break;
	case VISA_OP_NOT: r = ~a; break;
	default: return exec_bad(w, in, mask);
	}
	pred_write(&p[in->d], mask, r);
	return EXEC_OK;
}

/*
 * Built once per host vector level (simd.h): the lane loops of 64-bit
 * registers vectorize much better with AVX2's wider registers and sign
 * extensions.
 */
int exec_int(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *A, *B = NULL, *C = NULL, *E = NULL;
	uint64_t *D;
	unsigned int bits = type_bits(in->type);

	if (in->type == VISA_T_PRED)
		return pred_logic(w, in, mask);
	if (in->op == VISA_OP_SETP || in->op == VISA_OP_SET)
		return setp_int(w, in, mask);

	A = src_row(w, in, 0, in->a);
	if (in->b != VISA_OPND_NONE)
		B = src_row(w, in, 1, in->b);
	if (in->c != VISA_OPND_NONE)
		C = src_row(w, in, 2, in->c);
	if (in->e != VISA_OPND_NONE)
		E = src_row(w, in, 3, in->e);
	D = reg_row(w, in->d);

	switch (in->op) {
	case VISA_OP_MOV:
		BLEND_EXTENDED(A[l]);
		return EXEC_OK;
	case VISA_OP_SELP: {
		uint32_t p = w->preds[in->pa];

		BLEND_EXTENDED(((p >> l) & 1) ? A[l] : B[l]);
		return EXEC_OK;
	}
	case VISA_OP_SLCT:
		FOR_LANES(mask, {
			bool ge;
			uint32_t cv = (uint32_t)C[l];
			if (in->type2 == VISA_T_F32) {
				float f;
				memcpy(&f, &cv, 4);
				ge = f >= 0.0f;
			} else {
				ge = (int32_t)cv >= 0;
			}
			D[l] = extend_to_reg(in->type, ge ? A[l] : B[l]); });
		return EXEC_OK;
	case VISA_OP_PACK:
		if (bits != 16 && bits != 32)
			return exec_bad(w, in, mask);
		FOR_LANES(mask, D[l] = (A[l] & ((1ull << bits) - 1)) |
					(B[l] << bits));
		if (bits == 16)
			FOR_LANES(mask, D[l] &= 0xffffffffull);
		return EXEC_OK;
	case VISA_OP_ADD:
		if (in->mod & VISA_MOD_SAT)
			return add_sat(w, in, mask, false);
		INT_TYPES(L2, ua + ub);
		return EXEC_OK;
	case VISA_OP_SUB:
		if (in->mod & VISA_MOD_SAT)
			return add_sat(w, in, mask, true);
		INT_TYPES(L2, ua - ub);
		return EXEC_OK;
	case VISA_OP_MUL:
		INT_TYPES(L2, ua * ub);
		return EXEC_OK;
	case VISA_OP_MAD:
		INT_TYPES(L3, ua * ub + uc);
		return EXEC_OK;
	case VISA_OP_MULHI:
		return mulhi_wide(w, in, mask, false, NULL);
	case VISA_OP_MULWIDE:
		return mulhi_wide(w, in, mask, true, NULL);
	case VISA_OP_MADHI:
		return mulhi_wide(w, in, mask, false, C);
	case VISA_OP_MADWIDE:
		return mulhi_wide(w, in, mask, true, C);
	case VISA_OP_ADDC:
		return add_carry(w, in, mask, false);
	case VISA_OP_SUBC:
		return add_carry(w, in, mask, true);
	case VISA_OP_DIV:
		INT_TYPES(L2, DIV(__typeof__(a), __typeof__(ua), a, b));
		return EXEC_OK;
	case VISA_OP_REM:
		INT_TYPES(L2, REM(__typeof__(a), __typeof__(ua), a, b));
		return EXEC_OK;
	case VISA_OP_ABS:
		INT_TYPES(L1, NEGATIVE(a) ? 0 - ua : ua);
		return EXEC_OK;
	case VISA_OP_NEG:
		INT_TYPES(L1, 0 - ua);
		return EXEC_OK;
	case VISA_OP_MIN:
		INT_TYPES(L2, a < b ? a : b);
		return EXEC_OK;
	case VISA_OP_MAX:
		INT_TYPES(L2, a > b ? a : b);
		return EXEC_OK;
	case VISA_OP_SAD:
		INT_TYPES(L3, (a > b ? ua - ub : ub - ua) + uc);
		return EXEC_OK;
	case VISA_OP_AND:
		INT_TYPES(L2, ua & ub);
		return EXEC_OK;
	case VISA_OP_OR:
		INT_TYPES(L2, ua | ub);
		return EXEC_OK;
	case VISA_OP_XOR:
		INT_TYPES(L2, ua ^ ub);
		return EXEC_OK;
	case VISA_OP_NOT:
		INT_TYPES(L1, ~ua);
		return EXEC_OK;
	case VISA_OP_CNOT:
		INT_TYPES(L1, ua == 0);
		return EXEC_OK;
	case VISA_OP_SHL:
		/* Shift amounts are unsigned 32-bit; >= width gives 0. */
		INT_TYPES(L2, (uint32_t)B[l] >= (uint32_t)BITS(a) ? 0 :
			  ua << (uint32_t)B[l]);
		return EXEC_OK;
	case VISA_OP_SHR:
		INT_TYPES(L2, IS_SIGNED(__typeof__(a)) ?
			  (__typeof__(ua))(a >> ((uint32_t)B[l] >= (uint32_t)BITS(a) ?
					 BITS(a) - 1 : (int)(uint32_t)B[l])) :
			  ((uint32_t)B[l] >= (uint32_t)BITS(a) ? 0 :
			   ua >> (uint32_t)B[l]));
		return EXEC_OK;
	case VISA_OP_BFE:
		if (bits < 32)
			return exec_bad(w, in, mask);
		FOR_LANES(mask, D[l] = extend_to_reg(in->type,
			bfe(A[l], (uint32_t)B[l], (uint32_t)C[l], bits,
			    type_signed(in->type))));
		return EXEC_OK;
	case VISA_OP_BFI:
		if (bits < 32)
			return exec_bad(w, in, mask);
		FOR_LANES(mask, D[l] = extend_to_reg(in->type,
			bfi(A[l], B[l], (uint32_t)C[l], (uint32_t)E[l], bits)));
		return EXEC_OK;
	case VISA_OP_BREV:
		INT_TYPES_32_64(L1, bits == 32 ?
			(__typeof__(ua))brev32((uint32_t)ua) :
			(__typeof__(ua))brev64((uint64_t)ua));
		return EXEC_OK;
	case VISA_OP_POPC:
		FOR_LANES(mask, D[l] = (uint32_t)__builtin_popcountll(
				bits == 64 ? A[l] : (uint32_t)A[l]));
		return EXEC_OK;
	case VISA_OP_CLZ:
		FOR_LANES(mask, D[l] = bits == 64 ?
			(A[l] ? (uint32_t)__builtin_clzll(A[l]) : 64u) :
			((uint32_t)A[l] ? (uint32_t)__builtin_clz((uint32_t)A[l]) :
					  32u));
		return EXEC_OK;
	case VISA_OP_BFIND:
		FOR_LANES(mask, D[l] = bfind(A[l], bits, type_signed(in->type),
					     VISA_MOD_SUB(in->mod) == 1));
		return EXEC_OK;
	case VISA_OP_FNS:
		FOR_LANES(mask, D[l] = fns((uint32_t)A[l], (uint32_t)B[l],
					   (int32_t)C[l]));
		return EXEC_OK;
	case VISA_OP_PRMT:
		FOR_LANES(mask, D[l] = prmt((uint32_t)A[l], (uint32_t)B[l],
					    (uint32_t)C[l],
					    VISA_MOD_SUB(in->mod)));
		return EXEC_OK;
	case VISA_OP_SHF: {
		unsigned int mode = VISA_MOD_SUB(in->mod);

		FOR_LANES(mask, {
			uint64_t x = ((uint64_t)(uint32_t)B[l] << 32) |
				     (uint32_t)A[l];
			uint32_t n = (uint32_t)C[l];
			n = (mode == VISA_SHF_L_CLAMP || mode == VISA_SHF_R_CLAMP) ?
				(n > 32 ? 32 : n) : (n & 31);
			D[l] = mode <= VISA_SHF_L_CLAMP ?
				(uint32_t)((x << n) >> 32) : (uint32_t)(x >> n); });
		return EXEC_OK;
	}
	case VISA_OP_LOP3:
		FOR_LANES(mask, D[l] = extend_to_reg(in->type,
			lop3(A[l], B[l], C[l], (uint32_t)in->imm & 0xff)));
		return EXEC_OK;
	case VISA_OP_DP4A:
	case VISA_OP_DP2A:
		FOR_LANES(mask, D[l] = (uint32_t)((uint32_t)C[l] +
			(uint32_t)dp((uint32_t)A[l], (uint32_t)B[l], in->mod,
				     in->op == VISA_OP_DP2A)));
		return EXEC_OK;
	}
	return exec_bad(w, in, mask);
}
