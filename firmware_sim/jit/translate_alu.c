// SPDX-License-Identifier: GPL-2.0
/*
 * translate_alu.c - the instructions compiled inline other than loads and
 * stores: integer and f32 arithmetic, comparisons, moves, predicate logic
 * and special registers, each as exec_int.c, exec_float.c and warp.c
 * define it, on whole 32-lane rows.
 */
#include "translate.h"

static bool int_type(unsigned int type)
{
	return type_is_int(type);
}

static bool f32_plain(const struct dinsn *in)
{
	unsigned int rnd = in->mod & VISA_MOD_RND_MASK;

	return in->type == VISA_T_F32 &&
	       (rnd == VISA_RND_NONE || rnd == VISA_RND_RN) &&
	       !(in->mod & (VISA_MOD_FTZ | VISA_MOD_SAT | VISA_MOD_APPROX |
			    VISA_MOD_FULL));
}

/*
 * The integer operations exec_int() computes lane-wise: result bits
 * depend only on the low bits(type) of the sources.
 */
static LLVMValueRef int_op(struct tx *t, const struct dinsn *in,
			   LLVMValueRef A, LLVMValueRef B, LLVMValueRef C)
{
	unsigned int bits = type_bits(in->type);
	bool sgn = type_signed(in->type);
	LLVMValueRef a = narrow(t, A, bits), b = NULL, r = NULL;

	if (B)
		b = narrow(t, B, bits);
	switch (in->op) {
	case VISA_OP_MOV: r = a; break;
	case VISA_OP_ADD: r = LLVMBuildAdd(t->b, a, b, ""); break;
	case VISA_OP_SUB: r = LLVMBuildSub(t->b, a, b, ""); break;
	case VISA_OP_MUL: r = LLVMBuildMul(t->b, a, b, ""); break;
	case VISA_OP_MAD:
		r = LLVMBuildAdd(t->b, LLVMBuildMul(t->b, a, b, ""),
				 narrow(t, C, bits), "");
		break;
	case VISA_OP_AND: r = LLVMBuildAnd(t->b, a, b, ""); break;
	case VISA_OP_OR: r = LLVMBuildOr(t->b, a, b, ""); break;
	case VISA_OP_XOR: r = LLVMBuildXor(t->b, a, b, ""); break;
	case VISA_OP_NOT: r = LLVMBuildNot(t->b, a, ""); break;
	case VISA_OP_NEG: r = LLVMBuildNeg(t->b, a, ""); break;
	case VISA_OP_MIN:
	case VISA_OP_MAX: {
		LLVMIntPredicate p = in->op == VISA_OP_MIN ?
			(sgn ? LLVMIntSLT : LLVMIntULT) :
			(sgn ? LLVMIntSGT : LLVMIntUGT);

		r = LLVMBuildSelect(t->b, LLVMBuildICmp(t->b, p, a, b, ""),
				    a, b, "");
		break;
	}
	case VISA_OP_SHL:
	case VISA_OP_SHR: {
		/* the amount is B's low 32 bits, unsigned; >= width: 0
		 * (or the sign for arithmetic shifts) */
		LLVMValueRef s32 = LLVMBuildTrunc(t->b, B, t->v32i, "");
		LLVMValueRef big = LLVMBuildICmp(t->b, LLVMIntUGE, s32,
						 splat_n(t, 32, bits), "");
		LLVMValueRef s = bits == 32 ? s32 : bits == 64 ?
			LLVMBuildZExt(t->b, s32, t->v64, "") :
			LLVMBuildTrunc(t->b, s32, vec_of(t, bits), "");
		LLVMValueRef sm = LLVMBuildAnd(t->b, s, splat_n(t, bits, bits - 1),
					       "");

		if (in->op == VISA_OP_SHL) {
			r = LLVMBuildSelect(t->b, big, splat_n(t, bits, 0),
					    LLVMBuildShl(t->b, a, sm, ""), "");
		} else if (sgn) {
			r = LLVMBuildAShr(t->b, a, LLVMBuildSelect(t->b, big,
				splat_n(t, bits, bits - 1), sm, ""), "");
		} else {
			r = LLVMBuildSelect(t->b, big, splat_n(t, bits, 0),
					    LLVMBuildLShr(t->b, a, sm, ""), "");
		}
		break;
	}
	default:
		return NULL;
	}
	return widen(t, r, bits, sgn);
}

static bool int_op_ok(const struct dinsn *in)
{
	switch (in->op) {
	case VISA_OP_ADD: case VISA_OP_SUB:
		return !(in->mod & VISA_MOD_SAT);
	case VISA_OP_MUL: case VISA_OP_MAD: case VISA_OP_AND: case VISA_OP_OR:
	case VISA_OP_XOR: case VISA_OP_NOT: case VISA_OP_NEG: case VISA_OP_MIN:
	case VISA_OP_MAX: case VISA_OP_SHL: case VISA_OP_SHR:
		return true;
	}
	return false;
}

/* f32 results as the interpreter stores them: NaN -> canonical NaN. */
static LLVMValueRef f32_result(struct tx *t, LLVMValueRef r)
{
	LLVMValueRef nan = LLVMBuildFCmp(t->b, LLVMRealUNO, r, r, "");
	LLVMValueRef bits = LLVMBuildBitCast(t->b, r, t->v32i, "");

	bits = LLVMBuildSelect(t->b, nan, splat_n(t, 32, 0x7fffffffu), bits,
			       "");
	return LLVMBuildZExt(t->b, bits, t->v64, "");
}

static LLVMValueRef as_f32(struct tx *t, LLVMValueRef row)
{
	return LLVMBuildBitCast(t->b, LLVMBuildTrunc(t->b, row, t->v32i, ""),
				t->vf32, "");
}

static LLVMValueRef f32_op(struct tx *t, const struct dinsn *in,
			   LLVMValueRef A, LLVMValueRef B, LLVMValueRef C)
{
	LLVMValueRef a = as_f32(t, A), b = as_f32(t, B), r;

	switch (in->op) {
	case VISA_OP_ADD: r = LLVMBuildFAdd(t->b, a, b, ""); break;
	case VISA_OP_SUB: r = LLVMBuildFSub(t->b, a, b, ""); break;
	case VISA_OP_MUL: r = LLVMBuildFMul(t->b, a, b, ""); break;
	default: {	/* FMA, MAD: fmaf() in the interpreter */
		LLVMValueRef args[3] = { a, b, as_f32(t, C) };

		r = intrinsic(t, "llvm.fma", &t->vf32, 1, args, 3);
		break;
	}
	}
	return f32_result(t, r);
}

static bool f32_op_ok(const struct dinsn *in)
{
	switch (in->op) {
	case VISA_OP_ADD: case VISA_OP_SUB: case VISA_OP_MUL:
	case VISA_OP_FMA: case VISA_OP_MAD:
		return f32_plain(in);
	}
	return false;
}

/* setp's comparisons, as exec_int.c and exec_float.c define them. */
static bool setp_ok(const struct dinsn *in)
{
	unsigned int op = VISA_MOD_SUB(in->mod);

	if (in->op != VISA_OP_SETP)
		return false;
	if (int_type(in->type))
		return op <= VISA_CMP_GEU;
	if (in->type == VISA_T_F32)
		return !(in->mod & VISA_MOD_FTZ) && op < VISA_CMP_COUNT;
	return in->type == VISA_T_F64 && op < VISA_CMP_COUNT;
}

static LLVMValueRef setp_cmp(struct tx *t, const struct dinsn *in,
			     LLVMValueRef A, LLVMValueRef B)
{
	unsigned int op = VISA_MOD_SUB(in->mod);

	if (int_type(in->type)) {
		static const LLVMIntPredicate s[] = {
			LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE,
			LLVMIntSGT, LLVMIntSGE, LLVMIntEQ, LLVMIntNE,
			LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE,
		};
		static const LLVMIntPredicate u[] = {
			LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE,
			LLVMIntUGT, LLVMIntUGE, LLVMIntEQ, LLVMIntNE,
			LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE,
		};
		unsigned int bits = type_bits(in->type);

		return LLVMBuildICmp(t->b, type_signed(in->type) ? s[op] : u[op],
				     narrow(t, A, bits), narrow(t, B, bits), "");
	} else {
		static const LLVMRealPredicate f[] = {
			LLVMRealOEQ, LLVMRealONE, LLVMRealOLT, LLVMRealOLE,
			LLVMRealOGT, LLVMRealOGE, LLVMRealUEQ, LLVMRealUNE,
			LLVMRealULT, LLVMRealULE, LLVMRealUGT, LLVMRealUGE,
			LLVMRealORD, LLVMRealUNO,
		};
		LLVMValueRef a, b;

		if (in->type == VISA_T_F32) {
			a = as_f32(t, A);
			b = as_f32(t, B);
		} else {
			a = LLVMBuildBitCast(t->b, A, t->vf64, "");
			b = LLVMBuildBitCast(t->b, B, t->vf64, "");
		}
		return LLVMBuildFCmp(t->b, f[op], a, b, "");
	}
}

/* combine_pred(): setp's optional .and/.or/.xor with pa. */
static LLVMValueRef combine(struct tx *t, const struct dinsn *in,
			    LLVMValueRef r)
{
	LLVMValueRef c;

	if (!(in->mod & VISA_MOD_BOOL_MASK))
		return r;
	c = load(t, t->i32, pred_ptr(t, in->pa), 4);
	switch ((in->mod & VISA_MOD_BOOL_MASK) >> VISA_MOD_BOOL_SHIFT) {
	case VISA_BOOL_AND: return LLVMBuildAnd(t->b, r, c, "");
	case VISA_BOOL_OR: return LLVMBuildOr(t->b, r, c, "");
	}
	return LLVMBuildXor(t->b, r, c, "");
}

/* pred_logic() of exec_int.c: MOV AND OR XOR NOT on predicates. */
static bool pred_ok(const struct dinsn *in)
{
	if (in->type != VISA_T_PRED)
		return false;
	switch (in->op) {
	case VISA_OP_MOV:
		return true;
	case VISA_OP_AND: case VISA_OP_OR: case VISA_OP_XOR: case VISA_OP_NOT:
		return !(in->a & VISA_OPND_LIT) &&
		       (in->b == VISA_OPND_NONE || !(in->b & VISA_OPND_LIT));
	}
	return false;
}

static void pred_logic(struct tx *t, const struct dinsn *in, LLVMValueRef em)
{
	LLVMValueRef a, b, r;

	b = in->b != VISA_OPND_NONE ? load(t, t->i32, pred_ptr(t, in->b), 4) :
				      c32(t, 0);
	if (in->op == VISA_OP_MOV && (in->a & VISA_OPND_LIT))
		a = c32(t, in->lit[0][0] ? FULL_MASK : 0);
	else
		a = load(t, t->i32, pred_ptr(t, in->a), 4);
	switch (in->op) {
	case VISA_OP_MOV: r = a; break;
	case VISA_OP_AND: r = LLVMBuildAnd(t->b, a, b, ""); break;
	case VISA_OP_OR: r = LLVMBuildOr(t->b, a, b, ""); break;
	case VISA_OP_XOR: r = LLVMBuildXor(t->b, a, b, ""); break;
	default: r = LLVMBuildNot(t->b, a, ""); break;
	}
	write_pred(t, in->d, em, r);
}

/* Special registers read inline: the per-lane and per-launch ones. */
static bool sreg_ok(uint64_t id)
{
	return id <= VISA_SREG_NCTAID_Z || id == VISA_SREG_LANEID ||
	       id == VISA_SREG_WARPID || id == VISA_SREG_NWARPID ||
	       id == VISA_SREG_WARPSZ;
}

/* sreg_value() of warp.c for the registers sreg_ok() takes. */
static LLVMValueRef gen_sreg(struct tx *t, uint64_t id)
{
	LLVMValueRef blk, g, l, lanes[WARP_SIZE], v;

	if (id <= VISA_SREG_TID_Z) {
		LLVMValueRef p = at(t, t->w, offsetof(struct warp, tid) +
				    id * sizeof(uint32_t) * WARP_SIZE);

		return LLVMBuildZExt(t->b, load(t, t->v32i, p, 4), t->v64, "");
	}
	if (id == VISA_SREG_LANEID) {
		for (int i = 0; i < WARP_SIZE; i++)
			lanes[i] = c64(t, (uint64_t)i);
		return LLVMConstVector(lanes, WARP_SIZE);
	}
	if (id == VISA_SREG_WARPSZ)
		return splat64(t, WARP_SIZE);
	if (id == VISA_SREG_WARPID)
		return splat(t, LLVMBuildZExt(t->b, load(t, t->i32, at(t, t->w,
			offsetof(struct warp, warp_id)), 4), t->i64, ""));
	blk = load(t, t->ptr, at(t, t->w, offsetof(struct warp, blk)), 8);
	if (id == VISA_SREG_NWARPID) {
		v = load(t, t->i32, at(t, blk, offsetof(struct block, nwarps)), 4);
	} else if (id >= VISA_SREG_CTAID_X && id <= VISA_SREG_CTAID_Z) {
		v = load(t, t->i32, at(t, blk, offsetof(struct block, idx) +
				       (id - VISA_SREG_CTAID_X) * 4), 4);
	} else {
		g = load(t, t->ptr, at(t, blk, offsetof(struct block, g)), 8);
		l = load(t, t->ptr, at(t, g, offsetof(struct grid, l)), 8);
		if (id >= VISA_SREG_NTID_X && id <= VISA_SREG_NTID_Z)
			v = load(t, t->i32, at(t, l, offsetof(
				struct vgpu_core_launch, block) +
				(id - VISA_SREG_NTID_X) * 4), 4);
		else
			v = load(t, t->i32, at(t, l, offsetof(
				struct vgpu_core_launch, grid) +
				(id - VISA_SREG_NCTAID_X) * 4), 4);
	}
	return splat(t, LLVMBuildZExt(t->b, v, t->i64, ""));
}

/*
 * Conversions of cvt() in exec_float.c compiled inline: integer to
 * integer without .sat; integer to f32/f64 rounded to nearest; f32 to an
 * integer of at most 32 bits with an integral rounding, without .ftz
 * (NaN gives 0 there, out-of-range values saturate).
 */
static bool cvt_ok(const struct dinsn *in)
{
	unsigned int rnd = in->mod & VISA_MOD_RND_MASK;

	if (in->mod & VISA_MOD_SAT)
		return false;
	if (int_type(in->type) && int_type(in->type2))
		return true;
	if (int_type(in->type2))
		return (in->type == VISA_T_F32 || in->type == VISA_T_F64) &&
		       (rnd == VISA_RND_NONE || rnd == VISA_RND_RN);
	return in->type2 == VISA_T_F32 && int_type(in->type) &&
	       type_bits(in->type) <= 32 && !(in->mod & VISA_MOD_FTZ) &&
	       (rnd == VISA_RND_NONE || rnd == VISA_RND_RZI ||
		rnd == VISA_RND_RNI || rnd == VISA_RND_RMI ||
		rnd == VISA_RND_RPI);
}

static LLVMValueRef gen_cvt(struct tx *t, const struct dinsn *in)
{
	LLVMValueRef a = src(t, in, 0, in->a), r;
	unsigned int bits = type_bits(in->type);
	bool sgn = type_signed(in->type);
	const char *round, *sat;

	if (int_type(in->type) && int_type(in->type2))	/* int_to_int() */
		return extend_row(t, extend_row(t, a, in->type2), in->type);
	if (int_type(in->type2)) {
		/* one rounding from the 64-bit value, as (float)(int64_t)v */
		LLVMTypeRef ft = in->type == VISA_T_F32 ? t->vf32 : t->vf64;

		a = extend_row(t, a, in->type2);
		r = type_signed(in->type2) ? LLVMBuildSIToFP(t->b, a, ft, "") :
					     LLVMBuildUIToFP(t->b, a, ft, "");
		if (in->type == VISA_T_F64)
			return LLVMBuildBitCast(t->b, r, t->v64, "");
		return LLVMBuildZExt(t->b, LLVMBuildBitCast(t->b, r, t->v32i, ""),
				     t->v64, "");
	}
	/* float_to_int(): round as asked, then saturate (NaN: 0) */
	switch (in->mod & VISA_MOD_RND_MASK) {
	case VISA_RND_RNI: round = "llvm.roundeven"; break;
	case VISA_RND_RMI: round = "llvm.floor"; break;
	case VISA_RND_RPI: round = "llvm.ceil"; break;
	default: round = "llvm.trunc"; break;
	}
	r = as_f32(t, a);
	r = intrinsic(t, round, &t->vf32, 1, &r, 1);
	{
		LLVMTypeRef over[2] = { vec_of(t, bits), t->vf32 };

		sat = sgn ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
		r = intrinsic(t, sat, over, 2, &r, 1);
	}
	return widen(t, r, bits, sgn);
}

/*
 * Which instructions are compiled inline.  jit_gen_inline() must emit each of
 * them; the same predicates decide both, so they cannot disagree.
 */
bool jit_inline_ok(const struct dinsn *in)
{
	switch (in->op) {
	case VISA_OP_NOP:
		return true;
	case VISA_OP_MOV:
		return in->type == VISA_T_PRED ? pred_ok(in) : true;
	case VISA_OP_SELP:
		return in->type != VISA_T_PRED;
	case VISA_OP_SREG:
		return sreg_ok(in->imm);
	case VISA_OP_SETP:
		return setp_ok(in);
	case VISA_OP_MULWIDE:
		return in->type == VISA_T_U32 || in->type == VISA_T_S32 ||
		       in->type == VISA_T_U16 || in->type == VISA_T_S16;
	case VISA_OP_CVT:
		return cvt_ok(in);
	case VISA_OP_CVTA:
		return in->type2 == VISA_SPACE_GLOBAL;
	case VISA_OP_LD:
	case VISA_OP_ST:
		return true;	/* fast path inline, exec_mem() otherwise */
	}
	if (in->type == VISA_T_PRED)
		return pred_ok(in);
	if (int_type(in->type))
		return int_op_ok(in);
	return f32_op_ok(in);
}

/* Emit an inline instruction (jit_inline_ok() said yes). */
void jit_gen_inline(struct tx *t, const struct dinsn *in, uint32_t pc)
{
	LLVMValueRef em = exec_mask(t, in), emv, A, B, C, r;
	LLVMBasicBlockRef run = NULL, skip = NULL;

	count(t, in, em);
	if (in->op == VISA_OP_NOP)
		return;
	if (in->op == VISA_OP_LD || in->op == VISA_OP_ST) {
		/* guard false everywhere: nothing happens, no fault */
		flush(t);
		/*
		 * The rows it uses are fetched before its code branches, so
		 * that every path through it leaves them held
		 * (translate_rows.c).
		 */
		if (jit_mem_inline(in)) {
			if (in->a != VISA_OPND_NONE && !in->lit[0])
				row_get(t, in->a);
			if (in->op == VISA_OP_ST && !in->lit[1])
				row_get(t, in->b);
			if (in->op == VISA_OP_LD)
				row_get(t, in->d);
		}
		if (in->guard != VISA_OPND_NONE) {
			run = LLVMAppendBasicBlockInContext(t->cx, t->fn, "ld");
			skip = LLVMAppendBasicBlockInContext(t->cx, t->fn, "noop");
			LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, em,
							    c32(t, 0), ""),
					skip, run);
			LLVMPositionBuilderAtEnd(t->b, run);
		}
		jit_gen_mem(t, in, pc, em);
		if (skip) {
			LLVMBuildBr(t->b, skip);
			LLVMPositionBuilderAtEnd(t->b, skip);
		}
		return;
	}
	if (in->op == VISA_OP_SETP) {
		A = src(t, in, 0, in->a);
		B = src(t, in, 1, in->b);
		r = LLVMBuildBitCast(t->b, setp_cmp(t, in, A, B), t->i32, "");
		write_pred(t, in->pd, em, combine(t, in, r));
		return;
	}
	if (in->type == VISA_T_PRED) {
		pred_logic(t, in, em);
		return;
	}
	emv = mask_vec(t, em);
	switch (in->op) {
	case VISA_OP_SREG:
		r = gen_sreg(t, in->imm);
		break;
	case VISA_OP_MOV:
		r = extend_row(t, src(t, in, 0, in->a), in->type);
		break;
	case VISA_OP_SELP: {
		LLVMValueRef p = load(t, t->i32, pred_ptr(t, in->pa), 4);

		r = LLVMBuildSelect(t->b, mask_vec(t, p), src(t, in, 0, in->a),
				    src(t, in, 1, in->b), "");
		r = extend_row(t, r, in->type);
		break;
	}
	case VISA_OP_CVT:
		r = gen_cvt(t, in);
		break;
	case VISA_OP_CVTA: {
		bool nar = in->type == VISA_T_U32 || in->type == VISA_T_B32 ||
			   in->type == VISA_T_S32;

		/* global addresses are generic addresses: base 0 */
		r = src(t, in, 0, in->a);
		if (nar)
			r = LLVMBuildZExt(t->b, narrow(t, r, 32), t->v64, "");
		break;
	}
	case VISA_OP_MULWIDE: {
		unsigned int bits = type_bits(in->type);
		bool sgn = type_signed(in->type);
		LLVMValueRef a = widen(t, narrow(t, src(t, in, 0, in->a), bits),
				       bits, sgn);
		LLVMValueRef b = widen(t, narrow(t, src(t, in, 1, in->b), bits),
				       bits, sgn);

		r = LLVMBuildMul(t->b, a, b, "");
		if (bits == 16)	/* a 32-bit product, extended as S32/U32 */
			r = widen(t, narrow(t, r, 32), 32, sgn);
		break;
	}
	default:
		A = src(t, in, 0, in->a);
		B = in->b != VISA_OPND_NONE ? src(t, in, 1, in->b) : NULL;
		C = in->c != VISA_OPND_NONE ? src(t, in, 2, in->c) : NULL;
		if (int_type(in->type))
			r = int_op(t, in, A, B, C);
		else
			r = f32_op(t, in, A, B ? B : A, C ? C : A);
		break;
	}
	write_row(t, in->d, r, emv);
}


/*
 * shfl when all 32 lanes execute it: exec_warp_op() then has no lane to
 * wait for (gather() only clears the entry's sync_wait), and shfl() of
 * exec_warp.c is a permutation of the source row.  Every source is read
 * before the destination is written (d may be a).
 */
void jit_gen_shfl_warp(struct tx *t, const struct dinsn *in)
{
	LLVMValueRef lane[WARP_SIZE], l, b, c, clamp, seg, max_lane, min_lane;
	LLVMValueRef j, ok, val, all = splat64(t, FULL_MASK);
	LLVMValueRef m31 = splat64(t, 31);

	for (int i = 0; i < WARP_SIZE; i++)
		lane[i] = c64(t, (uint64_t)i);
	l = LLVMConstVector(lane, WARP_SIZE);
	/* b: signed 32 bits; c: clamp in bits 0-4, segment mask in 8-12 */
	b = LLVMBuildSExt(t->b, narrow(t, src(t, in, 1, in->b), 32), t->v64, "");
	c = LLVMBuildZExt(t->b, narrow(t, src(t, in, 2, in->c), 32), t->v64, "");
	clamp = LLVMBuildAnd(t->b, c, m31, "");
	seg = LLVMBuildAnd(t->b, LLVMBuildLShr(t->b, c, splat64(t, 8), ""), m31,
			   "");
	max_lane = LLVMBuildOr(t->b, LLVMBuildAnd(t->b, l, seg, ""),
			       LLVMBuildAnd(t->b, clamp, LLVMBuildXor(t->b, seg,
								     all, ""),
					    ""), "");
	min_lane = LLVMBuildAnd(t->b, l, seg, "");
	switch (VISA_MOD_SUB(in->mod)) {
	case VISA_SHFL_UP:
		j = LLVMBuildSub(t->b, l, b, "");
		ok = LLVMBuildICmp(t->b, LLVMIntSGE, j, max_lane, "");
		break;
	case VISA_SHFL_DOWN:
		j = LLVMBuildAdd(t->b, l, b, "");
		ok = LLVMBuildICmp(t->b, LLVMIntSLE, j, max_lane, "");
		break;
	case VISA_SHFL_BFLY:
		j = LLVMBuildXor(t->b, l, LLVMBuildAnd(t->b, b, m31, ""), "");
		ok = LLVMBuildICmp(t->b, LLVMIntSLE, j, max_lane, "");
		break;
	default:
		j = LLVMBuildOr(t->b, min_lane, LLVMBuildAnd(t->b,
			LLVMBuildAnd(t->b, b, m31, ""),
			LLVMBuildXor(t->b, seg, all, ""), ""), "");
		ok = LLVMBuildICmp(t->b, LLVMIntSLE, j, max_lane, "");
		break;
	}
	/* out of range or not ok: the lane's own value */
	j = LLVMBuildSelect(t->b, LLVMBuildAnd(t->b, ok, LLVMBuildICmp(t->b,
		LLVMIntULT, j, splat64(t, WARP_SIZE), ""), ""), j, l, "");
	if (in->lit[0]) {
		val = splat64(t, (uint32_t)in->lit[0][0]);
	} else {
		LLVMTypeRef over[2] = { t->v64,
					LLVMVectorType(t->ptr, WARP_SIZE) };
		LLVMValueRef off = LLVMBuildShl(t->b, j, splat64(t, 3), "");
		LLVMValueRef args[4] = {
			LLVMBuildGEP2(t->b, t->i8, row_ptr(t, in->a), &off, 1, ""),
			c32(t, 8), mask_vec(t, c32(t, FULL_MASK)),
			LLVMGetUndef(t->v64),
		};

		val = intrinsic(t, "llvm.masked.gather", over, 2, args, 4);
		val = LLVMBuildZExt(t->b, narrow(t, val, 32), t->v64, "");
	}
	store(t, val, row_ptr(t, in->d), 8);
	if (in->pd != VISA_OPND_NONE)
		store(t, LLVMBuildBitCast(t->b, ok, t->i32, ""),
		      pred_ptr(t, in->pd), 4);
	store(t, LLVMConstInt(LLVMInt16TypeInContext(t->cx), 0, false),
	      at(t, t->top, offsetof(struct rentry, sync_wait)), 2);
}
