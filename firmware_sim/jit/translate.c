// SPDX-License-Identifier: GPL-2.0
/*
 * translate.c - one vISA function into one LLVM IR function that does what
 * the interpreter's warp_interp() does for it, without the dispatch.
 *
 * The warp's 32 lanes are one LLVM vector: a register row is a
 * <32 x i64> loaded from and stored to the warp's register window (the
 * interpreter's memory, so both tiers see one state at every block
 * boundary), and the active-lane mask is a <32 x i1> that guards every
 * register write (llvm.masked.store: lanes outside the mask keep their
 * value, as in the interpreter).  Instructions of a basic block are
 * emitted back to back; operand kinds, types and literal values are
 * constants of the translation.
 *
 * Three kinds of instruction:
 *   inline   integer and f32 arithmetic, comparisons, moves, predicate
 *            logic, threadIdx, and 4/8-byte loads and stores whose lanes
 *            all hit one page already in the SM's TLB (or shared memory)
 *            - the interpreter's fast path, inlined
 *   branch   BRA: uniform outcomes jump straight to the target block;
 *            divergence calls the interpreter's warp_branch()
 *   helper   everything else (calls, returns, exits, barriers, warp
 *            operations, f64, conversions, atomics, printf...) calls
 *            the interpreter's own warp_exec_insn() for one instruction
 * A load or store that misses the fast path calls the interpreter's
 * exec_mem() for the whole instruction, so every fault is recorded by the
 * interpreter's code: same kind, address, lane and pc.
 *
 * Blocks are the runs between leaders (jit_internal.h).  A block first
 * takes its length from the quantum, or leaves to the interpreter when
 * the quantum is shorter, so a warp yields at exactly the instruction the
 * interpreter would.  The counters the interpreter keeps (w->insns for
 * %clock, w->lane_insns) are kept exactly too.
 */
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/Core.h>

#include "jit_internal.h"
#include "visa_types.h"

enum kind { K_INLINE, K_BRANCH, K_HELPER };

struct tx {
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMTypeRef i1, i8, i16, i32, i64, ptr, v64, v32i, vb, vf32, vf64;
	LLVMValueRef fn, w, qptr;
	LLVMValueRef regs, preds, top, mask, maskv, rpc, popmask;
	/* instructions and lanes executed since the last flush */
	LLVMValueRef ins_acc, lane_acc;
	bool acc_dirty;
	const struct vgpu_module *m;
	const struct mfunc *f;
	uint32_t start, end;		/* [start, end) absolute pcs */
	uint8_t *leader;
	LLVMBasicBlockRef *bb;		/* per leader */
	LLVMBasicBlockRef interp_exit;	/* entry switch default */
	LLVMTypeRef helper_exec_t, helper_mem_t, helper_branch_t;
	LLVMValueRef helper_exec, helper_mem, helper_branch;
	uint32_t n_inline, n_helper;
};

/* ---- small IR helpers --------------------------------------------------- */

static LLVMValueRef c32(struct tx *t, uint64_t v)
{
	return LLVMConstInt(t->i32, v, false);
}

static LLVMValueRef c64(struct tx *t, uint64_t v)
{
	return LLVMConstInt(t->i64, v, false);
}

static LLVMTypeRef vec_of(struct tx *t, unsigned int bits)
{
	return LLVMVectorType(LLVMIntTypeInContext(t->cx, bits), WARP_SIZE);
}

static LLVMValueRef splat(struct tx *t, LLVMValueRef scalar)
{
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(scalar), WARP_SIZE);
	LLVMValueRef undef = LLVMGetUndef(vt);
	LLVMValueRef v = LLVMBuildInsertElement(t->b, undef, scalar, c32(t, 0),
						"");
	LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(t->i32, WARP_SIZE));

	return LLVMBuildShuffleVector(t->b, v, undef, zeros, "");
}

static LLVMValueRef splat64(struct tx *t, uint64_t v)
{
	LLVMValueRef e[WARP_SIZE];

	for (int i = 0; i < WARP_SIZE; i++)
		e[i] = c64(t, v);
	return LLVMConstVector(e, WARP_SIZE);
}

static LLVMValueRef splat_n(struct tx *t, unsigned int bits, uint64_t v)
{
	LLVMValueRef e[WARP_SIZE];
	LLVMTypeRef it = LLVMIntTypeInContext(t->cx, bits);

	for (int i = 0; i < WARP_SIZE; i++)
		e[i] = LLVMConstInt(it, v, false);
	return LLVMConstVector(e, WARP_SIZE);
}

/* A pointer @off bytes into the object at @base. */
static LLVMValueRef at(struct tx *t, LLVMValueRef base, size_t off)
{
	LLVMValueRef idx = c64(t, off);

	return LLVMBuildGEP2(t->b, t->i8, base, &idx, 1, "");
}

static LLVMValueRef load(struct tx *t, LLVMTypeRef ty, LLVMValueRef p,
			 unsigned int align)
{
	LLVMValueRef v = LLVMBuildLoad2(t->b, ty, p, "");

	LLVMSetAlignment(v, align);
	return v;
}

static void store(struct tx *t, LLVMValueRef v, LLVMValueRef p,
		  unsigned int align)
{
	LLVMSetAlignment(LLVMBuildStore(t->b, v, p), align);
}

static LLVMValueRef intrinsic(struct tx *t, const char *name,
			      LLVMTypeRef *over, size_t nover,
			      LLVMValueRef *args, unsigned int nargs)
{
	unsigned int id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->mod, id, over, nover);
	LLVMTypeRef ft = LLVMIntrinsicGetType(t->cx, id, over, nover);

	return LLVMBuildCall2(t->b, ft, fn, args, nargs, "");
}

static LLVMValueRef ctpop32(struct tx *t, LLVMValueRef x)
{
	return LLVMBuildZExt(t->b, intrinsic(t, "llvm.ctpop", &t->i32, 1, &x, 1),
			     t->i64, "");
}

static LLVMValueRef mask_vec(struct tx *t, LLVMValueRef m32)
{
	return LLVMBuildBitCast(t->b, m32, t->vb, "");
}

static LLVMValueRef vec_any(struct tx *t, LLVMValueRef vb)
{
	return LLVMBuildICmp(t->b, LLVMIntNE,
			     LLVMBuildBitCast(t->b, vb, t->i32, ""),
			     c32(t, 0), "");
}

/* ---- warp state --------------------------------------------------------- */

static LLVMValueRef row_ptr(struct tx *t, uint16_t r)
{
	return at(t, t->regs, (size_t)r * WARP_SIZE * sizeof(uint64_t));
}

/* Source slot @slot (a, b, c, e) of @in: a literal splat or a row. */
static LLVMValueRef src(struct tx *t, const struct dinsn *in, int slot,
			uint16_t r)
{
	if (in->lit[slot])
		return splat64(t, in->lit[slot][0]);
	return load(t, t->v64, row_ptr(t, r), 8);
}

/*
 * Write @v to the lanes of @emv of row @r: a blend with the row's value
 * and a plain store.  (llvm.masked.store would save the load, but a
 * masked store cannot forward to the next instruction's load of the row,
 * in LLVM's optimiser or in the CPU: the blend is faster.)
 */
static void write_row(struct tx *t, uint16_t r, LLVMValueRef v,
		      LLVMValueRef emv)
{
	LLVMValueRef p = row_ptr(t, r);

	store(t, LLVMBuildSelect(t->b, emv, v, load(t, t->v64, p, 8), ""), p,
	      8);
}

static LLVMValueRef pred_ptr(struct tx *t, uint16_t p)
{
	return at(t, t->preds, (size_t)p * sizeof(uint32_t));
}

/* pred_write(): the lanes of @em take @v. */
static void write_pred(struct tx *t, uint16_t p, LLVMValueRef em,
		       LLVMValueRef v)
{
	LLVMValueRef ptr = pred_ptr(t, p);
	LLVMValueRef old = load(t, t->i32, ptr, 4);
	LLVMValueRef keep = LLVMBuildAnd(t->b, old, LLVMBuildNot(t->b, em, ""),
					 "");

	store(t, LLVMBuildOr(t->b, keep, LLVMBuildAnd(t->b, v, em, ""), ""),
	      ptr, 4);
}

/* The lanes an instruction runs for: the entry's mask and its guard. */
static LLVMValueRef exec_mask(struct tx *t, const struct dinsn *in)
{
	LLVMValueRef p;

	if (in->guard == VISA_OPND_NONE)
		return t->mask;
	p = load(t, t->i32, pred_ptr(t, VISA_GUARD_INDEX(in->guard)), 4);
	if (in->guard & VISA_GUARD_NEG)
		p = LLVMBuildNot(t->b, p, "");
	return LLVMBuildAnd(t->b, t->mask, p, "");
}

/* Count one executed instruction as warp_interp() does. */
static void count(struct tx *t, const struct dinsn *in, LLVMValueRef em)
{
	LLVMValueRef one, lanes;

	if (in->guard == VISA_OPND_NONE || in->op == VISA_OP_BRA) {
		one = c64(t, 1);
		lanes = t->popmask;
	} else {
		one = LLVMBuildZExt(t->b, LLVMBuildICmp(t->b, LLVMIntNE, em,
							c32(t, 0), ""),
				    t->i64, "");
		lanes = ctpop32(t, em);
	}
	t->ins_acc = LLVMBuildAdd(t->b, t->ins_acc, one, "");
	t->lane_acc = LLVMBuildAdd(t->b, t->lane_acc, lanes, "");
	t->acc_dirty = true;
}

/* Add the counts to w->insns and w->lane_insns. */
static void flush(struct tx *t)
{
	static const size_t offs[2] = { offsetof(struct warp, insns),
					offsetof(struct warp, lane_insns) };
	LLVMValueRef acc[2] = { t->ins_acc, t->lane_acc };

	if (!t->acc_dirty)
		return;
	for (int i = 0; i < 2; i++) {
		LLVMValueRef p = at(t, t->w, offs[i]);

		store(t, LLVMBuildAdd(t->b, load(t, t->i64, p, 8), acc[i], ""),
		      p, 8);
	}
	t->ins_acc = c64(t, 0);
	t->lane_acc = c64(t, 0);
	t->acc_dirty = false;
}

static void set_top_pc(struct tx *t, uint32_t pc)
{
	store(t, c32(t, pc), at(t, t->top, offsetof(struct rentry, pc)), 4);
}

static void leave(struct tx *t, int code)
{
	flush(t);
	LLVMBuildRet(t->b, c32(t, (uint64_t)code));
}

/*
 * Go on at @pc as warp_interp() would after an instruction: settle when
 * pc is the entry's reconvergence point (or not ours), else its block.
 */
static void goto_pc(struct tx *t, uint32_t pc)
{
	LLVMBasicBlockRef settle, next;

	flush(t);
	if (pc < t->start || pc >= t->end || !t->leader[pc - t->start]) {
		set_top_pc(t, pc);
		leave(t, JIT_EXIT_SETTLE);
		return;
	}
	settle = LLVMAppendBasicBlockInContext(t->cx, t->fn, "settle");
	next = t->bb[pc - t->start];
	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, t->rpc,
					    c32(t, pc), ""), settle, next);
	LLVMPositionBuilderAtEnd(t->b, settle);
	set_top_pc(t, pc);
	LLVMBuildRet(t->b, c32(t, JIT_EXIT_SETTLE));
}

/* Lanes of @in as a vector of @bits-bit integers, and back to 64 bits. */
static LLVMValueRef narrow(struct tx *t, LLVMValueRef v, unsigned int bits)
{
	return bits == 64 ? v : LLVMBuildTrunc(t->b, v, vec_of(t, bits), "");
}

static LLVMValueRef widen(struct tx *t, LLVMValueRef v, unsigned int bits,
			  bool sgn)
{
	if (bits == 64)
		return v;
	return sgn ? LLVMBuildSExt(t->b, v, t->v64, "") :
		     LLVMBuildZExt(t->b, v, t->v64, "");
}

/* extend(type, v) of visa_types.h on a row. */
static LLVMValueRef extend_row(struct tx *t, LLVMValueRef v, unsigned int type)
{
	unsigned int bits = type_bits(type);

	return widen(t, narrow(t, v, bits), bits, type_signed(type));
}

/* ---- inline instructions ------------------------------------------------ */

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
 * Which instructions are compiled inline.  gen_inline() must emit each of
 * them; the same predicates decide both, so they cannot disagree.
 */
static bool inline_ok(const struct dinsn *in)
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
		return int_type(in->type) && int_type(in->type2) &&
		       !(in->mod & VISA_MOD_SAT);
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

/* ---- loads and stores --------------------------------------------------- */

static LLVMValueRef fn_const(struct tx *t, void *addr);

static bool mem_fast_ok(const struct dinsn *in)
{
	uint32_t es = type_bits(in->type) / 8;

	return !(in->mod & VISA_MOD_VEC_MASK) && in->a != VISA_OPND_NONE &&
	       (es == 4 || es == 8) &&
	       (in->type2 == VISA_SPACE_GLOBAL ||
		in->type2 == VISA_SPACE_GENERIC ||
		in->type2 == VISA_SPACE_SHARED);
}

/* The interpreter's whole LD/ST (faults included) for @em. */
static void mem_slow(struct tx *t, const struct dinsn *in, uint32_t pc,
		     LLVMValueRef em)
{
	LLVMValueRef args[3] = {
		t->w, LLVMConstInt(t->i64, (uintptr_t)in, false), em,
	};
	LLVMValueRef r, fault;
	LLVMBasicBlockRef bad, ok;

	args[1] = LLVMBuildIntToPtr(t->b, args[1], t->ptr, "");
	set_top_pc(t, pc + 1);
	r = LLVMBuildCall2(t->b, t->helper_mem_t, t->helper_mem, args, 3, "");
	fault = LLVMBuildICmp(t->b, LLVMIntNE, r, c32(t, EXEC_OK), "");
	bad = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memfault");
	ok = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memok");
	LLVMBuildCondBr(t->b, fault, bad, ok);
	LLVMPositionBuilderAtEnd(t->b, bad);
	LLVMBuildRet(t->b, r);
	LLVMPositionBuilderAtEnd(t->b, ok);
}

/* ld.param of a kernel parameter: one address for all lanes. */
static bool param_load_ok(const struct dinsn *in)
{
	uint32_t es = type_bits(in->type) / 8;

	return in->op == VISA_OP_LD && in->type2 == VISA_SPACE_PARAM &&
	       in->a == VISA_OPND_NONE && !(in->mod & VISA_MOD_VEC_MASK) &&
	       !(in->imm & (es - 1)) && in->imm < (1ull << 32);
}

/*
 * The interpreter's uniform load (ld_st(): resolve once, broadcast) from
 * the grid's copy of the parameters, when the bytes lie inside the
 * kernel's parameter buffer; exec_mem() otherwise (it faults).
 */
static void gen_param_load(struct tx *t, const struct dinsn *in, uint32_t pc,
			   LLVMValueRef em)
{
	unsigned int bits = type_bits(in->type);
	uint32_t es = bits / 8;
	LLVMBasicBlockRef fast, slow, done;
	LLVMValueRef blk, g, k, size, v;

	fast = LLVMAppendBasicBlockInContext(t->cx, t->fn, "param");
	slow = LLVMAppendBasicBlockInContext(t->cx, t->fn, "paramslow");
	done = LLVMAppendBasicBlockInContext(t->cx, t->fn, "paramdone");
	blk = load(t, t->ptr, at(t, t->w, offsetof(struct warp, blk)), 8);
	g = load(t, t->ptr, at(t, blk, offsetof(struct block, g)), 8);
	k = load(t, t->ptr, at(t, g, offsetof(struct grid, k)), 8);
	size = LLVMBuildZExt(t->b, load(t, t->i32, at(t, k,
		offsetof(struct visa_kernel, param_size)), 4), t->i64, "");
	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntULE,
					    c64(t, in->imm + es), size, ""),
			fast, slow);
	LLVMPositionBuilderAtEnd(t->b, slow);
	mem_slow(t, in, pc, em);
	LLVMBuildBr(t->b, done);
	LLVMPositionBuilderAtEnd(t->b, fast);
	v = load(t, LLVMIntTypeInContext(t->cx, bits),
		 at(t, g, offsetof(struct grid, param_copy) + in->imm), es);
	if (bits < 64)
		v = type_signed(in->type) ? LLVMBuildSExt(t->b, v, t->i64, "") :
					    LLVMBuildZExt(t->b, v, t->i64, "");
	write_row(t, in->d, splat(t, v), mask_vec(t, em));
	LLVMBuildBr(t->b, done);
	LLVMPositionBuilderAtEnd(t->b, done);
}

/* Where a fast access goes: a host base and each lane's offset from it. */
struct mem_check {
	LLVMValueRef ok;	/* i1: the vector access may go ahead */
	LLVMValueRef miss;	/* i1: global, and the TLB has no page */
	LLVMValueRef base, off;
};

/*
 * fast_scalar() of exec_mem.c: every active lane aligned and inside one
 * page the SM's TLB holds with the permission needed (tlb_peek() of the
 * first active lane's address), or inside shared memory.
 */
static struct mem_check mem_check(struct tx *t, const struct dinsn *in,
				  LLVMValueRef addr, LLVMValueRef em,
				  LLVMValueRef emv, LLVMValueRef a0)
{
	bool st = in->op == VISA_OP_ST;
	uint32_t es = type_bits(in->type) / 8;
	struct mem_check c;
	LLVMValueRef blk, limit, lim_es, bad, ok;

	blk = load(t, t->ptr, at(t, t->w, offsetof(struct warp, blk)), 8);
	if (in->type2 == VISA_SPACE_SHARED) {
		c.base = load(t, t->ptr, at(t, blk, offsetof(struct block,
							     shared)), 8);
		limit = LLVMBuildZExt(t->b, load(t, t->i32, at(t, blk,
			offsetof(struct block, shared_size)), 4), t->i64, "");
		c.off = addr;
		ok = LLVMConstInt(t->i1, 1, false);
		c.miss = LLVMConstInt(t->i1, 0, false);
	} else {
		uint32_t need = st ? VGPU_CORE_PERM_WRITE : VGPU_CORE_PERM_READ;
		LLVMValueRef sm, tlb, ent[2], hit[2], e, va, perm;

		sm = load(t, t->ptr, at(t, blk, offsetof(struct block, sm)), 8);
		tlb = at(t, sm, offsetof(struct sm, tlb));
		/* the 64 KiB slot, then the 4 KiB slot */
		for (int i = 0; i < 2; i++) {
			LLVMValueRef slot = LLVMBuildAnd(t->b,
				LLVMBuildLShr(t->b, a0, c64(t, i ? 12 : 16), ""),
				c64(t, TLB_ENTRIES - 1), "");
			LLVMValueRef byte = LLVMBuildMul(t->b, slot,
				c64(t, sizeof(struct tlb_entry)), "");

			ent[i] = LLVMBuildGEP2(t->b, t->i8, tlb, &byte, 1, "");
			hit[i] = LLVMBuildICmp(t->b, LLVMIntULT,
				LLVMBuildSub(t->b, a0, load(t, t->i64, at(t, ent[i],
					offsetof(struct tlb_entry, va)), 8), ""),
				load(t, t->i64, at(t, ent[i],
					offsetof(struct tlb_entry, size)), 8), "");
		}
		e = LLVMBuildSelect(t->b, hit[0], ent[0], ent[1], "");
		va = load(t, t->i64, at(t, e, offsetof(struct tlb_entry, va)), 8);
		limit = load(t, t->i64, at(t, e, offsetof(struct tlb_entry,
							  size)), 8);
		perm = load(t, t->i32, at(t, e, offsetof(struct tlb_entry, perm)),
			    4);
		c.base = load(t, t->ptr, at(t, e, offsetof(struct tlb_entry,
							   host)), 8);
		c.off = LLVMBuildSub(t->b, addr, splat(t, va), "");
		c.miss = LLVMBuildNot(t->b, LLVMBuildOr(t->b, hit[0], hit[1], ""),
				      "");
		ok = LLVMBuildAnd(t->b, LLVMBuildNot(t->b, c.miss, ""),
				  LLVMBuildICmp(t->b, LLVMIntNE,
						LLVMBuildAnd(t->b, perm,
							     c32(t, need), ""),
						c32(t, 0), ""), "");
		if (in->type2 == VISA_SPACE_GENERIC) {
			/* shared/local/param windows: the general path */
			LLVMValueRef win = vec_any(t, LLVMBuildAnd(t->b,
				LLVMBuildICmp(t->b, LLVMIntUGE, addr,
					splat64(t, VISA_GENERIC_SHARED_BASE), ""),
				emv, ""));

			ok = LLVMBuildAnd(t->b, ok, LLVMBuildNot(t->b, win, ""),
					  "");
			c.miss = LLVMBuildAnd(t->b, c.miss,
					      LLVMBuildNot(t->b, win, ""), "");
		}
	}
	/* limit >= es, then every active lane aligned and below limit - es */
	ok = LLVMBuildAnd(t->b, ok, LLVMBuildICmp(t->b, LLVMIntUGE, limit,
						  c64(t, es), ""), "");
	lim_es = splat(t, LLVMBuildSub(t->b, limit, c64(t, es), ""));
	bad = LLVMBuildOr(t->b,
		LLVMBuildICmp(t->b, LLVMIntNE, LLVMBuildAnd(t->b, c.off,
			splat64(t, es - 1), ""), splat64(t, 0), ""),
		LLVMBuildICmp(t->b, LLVMIntUGT, c.off, lim_es, ""), "");
	c.ok = LLVMBuildAnd(t->b, ok, LLVMBuildNot(t->b, vec_any(t,
		LLVMBuildAnd(t->b, bad, emv, "")), ""), "");
	(void)em;
	return c;
}

/*
 * A load or store: the fast path when mem_check() allows it, then one
 * vector access (lanes contiguous, all active) or a gather/scatter.
 * On a TLB miss the first active lane is resolved as the interpreter's
 * lane loop would start (mem_resolve(), which fills the TLB or records
 * the fault) and the check is made again.  Anything else: exec_mem().
 */
static void gen_mem(struct tx *t, const struct dinsn *in, uint32_t pc,
		    LLVMValueRef em)
{
	bool st = in->op == VISA_OP_ST;
	uint32_t es = type_bits(in->type) / 8;
	unsigned int bits = es * 8;
	LLVMTypeRef vt = vec_of(t, bits);
	LLVMBasicBlockRef slow, fast, done, contig, scatter, fill, again;
	LLVMBasicBlockRef from1, from2, notok;
	LLVMValueRef emv, addr, first, a0, ptrs, base, off;
	struct mem_check c1, c2;

	if (param_load_ok(in)) {
		gen_param_load(t, in, pc, em);
		return;
	}
	if (!mem_fast_ok(in)) {
		mem_slow(t, in, pc, em);
		return;
	}
	slow = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memslow");
	fast = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memfast");
	done = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memdone");
	notok = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memnotok");
	fill = LLVMAppendBasicBlockInContext(t->cx, t->fn, "tlbfill");
	again = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memagain");
	emv = mask_vec(t, em);
	addr = LLVMBuildAdd(t->b, src(t, in, 0, in->a), splat64(t, in->imm), "");
	{
		LLVMValueRef targs[2] = { em, LLVMConstInt(t->i1, 0, false) };

		first = intrinsic(t, "llvm.cttz", &t->i32, 1, targs, 2);
	}
	a0 = LLVMBuildExtractElement(t->b, addr, first, "");
	c1 = mem_check(t, in, addr, em, emv, a0);
	from1 = LLVMGetInsertBlock(t->b);
	LLVMBuildCondBr(t->b, c1.ok, fast, notok);
	LLVMPositionBuilderAtEnd(t->b, notok);
	LLVMBuildCondBr(t->b, c1.miss, fill, slow);

	/* the interpreter's first step on this path: resolve the first lane */
	LLVMPositionBuilderAtEnd(t->b, fill);
	{
		LLVMTypeRef at_[7] = { t->ptr, t->i32, t->i32, t->i32, t->i64,
				       t->i32, t->i32 };
		LLVMValueRef args[7] = {
			t->w, c32(t, pc), first, c32(t, in->type2), a0,
			c32(t, es), c32(t, st ? ACC_WRITE : ACC_READ),
		};
		LLVMTypeRef ft = LLVMFunctionType(t->ptr, at_, 7, false);
		LLVMValueRef p = LLVMBuildCall2(t->b, ft,
			fn_const(t, (void *)mem_resolve), args, 7, "");
		LLVMBasicBlockRef faulted = LLVMAppendBasicBlockInContext(
			t->cx, t->fn, "tlbfault");

		LLVMBuildCondBr(t->b, LLVMBuildIsNull(t->b, p, ""), faulted,
				again);
		LLVMPositionBuilderAtEnd(t->b, faulted);
		set_top_pc(t, pc + 1);
		LLVMBuildRet(t->b, c32(t, EXEC_FAULT));
	}
	LLVMPositionBuilderAtEnd(t->b, again);
	c2 = mem_check(t, in, addr, em, emv, a0);
	from2 = LLVMGetInsertBlock(t->b);
	LLVMBuildCondBr(t->b, c2.ok, fast, slow);

	LLVMPositionBuilderAtEnd(t->b, slow);
	mem_slow(t, in, pc, em);
	LLVMBuildBr(t->b, done);

	/* fast: contiguous full warp, or gather/scatter */
	LLVMPositionBuilderAtEnd(t->b, fast);
	{
		LLVMValueRef vals[2] = { c1.base, c2.base };
		LLVMBasicBlockRef from[2] = { from1, from2 };

		base = LLVMBuildPhi(t->b, t->ptr, "");
		LLVMAddIncoming(base, vals, from, 2);
		vals[0] = c1.off;
		vals[1] = c2.off;
		off = LLVMBuildPhi(t->b, t->v64, "");
		LLVMAddIncoming(off, vals, from, 2);
	}
	contig = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memvec");
	scatter = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memgather");
	{
		LLVMValueRef iota[WARP_SIZE], o0, want, same, full;

		for (int i = 0; i < WARP_SIZE; i++)
			iota[i] = c64(t, (uint64_t)i * es);
		o0 = LLVMBuildExtractElement(t->b, off, c32(t, 0), "");
		want = LLVMBuildAdd(t->b, splat(t, o0),
				    LLVMConstVector(iota, WARP_SIZE), "");
		same = LLVMBuildICmp(t->b, LLVMIntEQ, off, want, "");
		full = LLVMBuildICmp(t->b, LLVMIntEQ, em, c32(t, FULL_MASK), "");
		LLVMBuildCondBr(t->b, LLVMBuildAnd(t->b, full, LLVMBuildICmp(
			t->b, LLVMIntEQ, LLVMBuildBitCast(t->b, same, t->i32, ""),
			c32(t, FULL_MASK), ""), ""), contig, scatter);

		LLVMPositionBuilderAtEnd(t->b, contig);
		{
			LLVMValueRef p = LLVMBuildGEP2(t->b, t->i8, base, &o0, 1,
						       "");

			if (st) {
				store(t, narrow(t, src(t, in, 1, in->b), bits), p,
				      es);
			} else {
				LLVMValueRef v = load(t, vt, p, es);

				write_row(t, in->d, widen(t, v, bits,
					in->type == VISA_T_S32), emv);
			}
		}
		LLVMBuildBr(t->b, done);
	}
	LLVMPositionBuilderAtEnd(t->b, scatter);
	ptrs = LLVMBuildGEP2(t->b, t->i8, base, &off, 1, "");
	if (st) {
		LLVMTypeRef over[2] = { vt, LLVMVectorType(t->ptr, WARP_SIZE) };
		LLVMValueRef args[4] = { narrow(t, src(t, in, 1, in->b), bits),
					 ptrs, c32(t, es), emv };

		/* lanes in order: the highest lane's store to one address
		 * wins, as in the interpreter's loop */
		intrinsic(t, "llvm.masked.scatter", over, 2, args, 4);
	} else {
		LLVMTypeRef over[2] = { vt, LLVMVectorType(t->ptr, WARP_SIZE) };
		LLVMValueRef args[4] = { ptrs, c32(t, es), emv,
					 LLVMGetUndef(vt) };
		LLVMValueRef v = intrinsic(t, "llvm.masked.gather", over, 2, args,
					   4);

		write_row(t, in->d, widen(t, v, bits, in->type == VISA_T_S32),
			  emv);
	}
	LLVMBuildBr(t->b, done);
	LLVMPositionBuilderAtEnd(t->b, done);
}

/* Emit an inline instruction (inline_ok() said yes). */
static void gen_inline(struct tx *t, const struct dinsn *in, uint32_t pc)
{
	LLVMValueRef em = exec_mask(t, in), emv, A, B, C, r;
	LLVMBasicBlockRef run = NULL, skip = NULL;

	count(t, in, em);
	if (in->op == VISA_OP_NOP)
		return;
	if (in->op == VISA_OP_LD || in->op == VISA_OP_ST) {
		/* guard false everywhere: nothing happens, no fault */
		flush(t);
		if (in->guard != VISA_OPND_NONE) {
			run = LLVMAppendBasicBlockInContext(t->cx, t->fn, "ld");
			skip = LLVMAppendBasicBlockInContext(t->cx, t->fn, "noop");
			LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, em,
							    c32(t, 0), ""),
					skip, run);
			LLVMPositionBuilderAtEnd(t->b, run);
		}
		gen_mem(t, in, pc, em);
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
		/* int_to_int() without .sat */
		r = extend_row(t, extend_row(t, src(t, in, 0, in->a), in->type2),
			       in->type);
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

/* ---- branches and interpreter helpers ------------------------------------ */

static LLVMValueRef in_ptr(struct tx *t, const struct dinsn *in)
{
	return LLVMBuildIntToPtr(t->b, LLVMConstInt(t->i64, (uintptr_t)in,
						    false), t->ptr, "");
}

/* Return @r unless it is EXEC_OK; go on in a new block otherwise. */
static void ret_unless_ok(struct tx *t, LLVMValueRef r)
{
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(t->cx, t->fn,
							      "exit");
	LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(t->cx, t->fn,
							     "ok");

	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntNE, r,
					    c32(t, EXEC_OK), ""), bad, ok);
	LLVMPositionBuilderAtEnd(t->b, bad);
	LLVMBuildRet(t->b, r);
	LLVMPositionBuilderAtEnd(t->b, ok);
}

/* BRA at @pc (ends its block). */
static void gen_branch(struct tx *t, const struct dinsn *in, uint32_t pc)
{
	uint32_t target = VISA_BRA_TARGET(in->imm);
	LLVMValueRef taken, args[3], r;
	LLVMBasicBlockRef all, none, some, notall;

	count(t, in, t->mask);
	if (in->guard == VISA_OPND_NONE) {
		goto_pc(t, target);
		return;
	}
	taken = exec_mask(t, in);
	all = LLVMAppendBasicBlockInContext(t->cx, t->fn, "taken");
	notall = LLVMAppendBasicBlockInContext(t->cx, t->fn, "notall");
	none = LLVMAppendBasicBlockInContext(t->cx, t->fn, "fallthrough");
	some = LLVMAppendBasicBlockInContext(t->cx, t->fn, "diverge");
	flush(t);
	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, taken, t->mask, ""),
			all, notall);
	LLVMPositionBuilderAtEnd(t->b, notall);
	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, taken, c32(t, 0),
					    ""), none, some);
	LLVMPositionBuilderAtEnd(t->b, all);
	goto_pc(t, target);
	LLVMPositionBuilderAtEnd(t->b, none);
	goto_pc(t, pc + 1);
	/* divergence: the interpreter's do_branch() pushes the paths */
	LLVMPositionBuilderAtEnd(t->b, some);
	set_top_pc(t, pc + 1);
	args[0] = t->w;
	args[1] = in_ptr(t, in);
	args[2] = c32(t, pc);
	r = LLVMBuildCall2(t->b, t->helper_branch_t, t->helper_branch, args, 3,
			   "");
	LLVMBuildRet(t->b, LLVMBuildSelect(t->b, LLVMBuildICmp(t->b, LLVMIntEQ,
		r, c32(t, 0), ""), c32(t, EXEC_CONTROL), c32(t, EXEC_FAULT), ""));
}

/* An instruction the interpreter's execute() runs (ends its block). */
static void gen_helper(struct tx *t, const struct dinsn *in, uint32_t pc)
{
	LLVMValueRef em = exec_mask(t, in), args[4], r;
	LLVMBasicBlockRef run, skip;

	count(t, in, em);
	flush(t);
	run = LLVMAppendBasicBlockInContext(t->cx, t->fn, "helper");
	skip = LLVMAppendBasicBlockInContext(t->cx, t->fn, "skip");
	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, em, c32(t, 0), ""),
			skip, run);
	LLVMPositionBuilderAtEnd(t->b, run);
	set_top_pc(t, pc + 1);
	args[0] = t->w;
	args[1] = in_ptr(t, in);
	args[2] = c32(t, pc);
	args[3] = em;
	r = LLVMBuildCall2(t->b, t->helper_exec_t, t->helper_exec, args, 4, "");
	ret_unless_ok(t, r);
	LLVMBuildBr(t->b, skip);
	LLVMPositionBuilderAtEnd(t->b, skip);
	goto_pc(t, pc + 1);
}

static enum kind kind_of(const struct dinsn *in)
{
	if (in->op == VISA_OP_BRA)
		return K_BRANCH;
	return inline_ok(in) ? K_INLINE : K_HELPER;
}

/* ---- the function ------------------------------------------------------- */

static void find_leaders(struct tx *t)
{
	const struct dinsn *code = t->m->code;

	t->leader[0] = 1;
	for (uint32_t pc = t->start; pc < t->end; pc++) {
		const struct dinsn *in = &code[pc];
		enum kind k = kind_of(in);

		if (k == K_INLINE)
			continue;
		if (k == K_HELPER)
			t->leader[pc - t->start] = 1;
		if (pc + 1 < t->end)
			t->leader[pc + 1 - t->start] = 1;
		if (k == K_BRANCH) {
			uint32_t tg = VISA_BRA_TARGET(in->imm);
			uint32_t rc = VISA_BRA_RECONV(in->imm);

			if (tg >= t->start && tg < t->end)
				t->leader[tg - t->start] = 1;
			if (rc >= t->start && rc < t->end)
				t->leader[rc - t->start] = 1;
		}
	}
}

static void setup_types(struct tx *t)
{
	LLVMTypeRef exec_args[4], mem_args[3], br_args[3];

	t->i1 = LLVMInt1TypeInContext(t->cx);
	t->i8 = LLVMInt8TypeInContext(t->cx);
	t->i16 = LLVMInt16TypeInContext(t->cx);
	t->i32 = LLVMInt32TypeInContext(t->cx);
	t->i64 = LLVMInt64TypeInContext(t->cx);
	t->ptr = LLVMPointerTypeInContext(t->cx, 0);
	t->v64 = LLVMVectorType(t->i64, WARP_SIZE);
	t->v32i = LLVMVectorType(t->i32, WARP_SIZE);
	t->vb = LLVMVectorType(t->i1, WARP_SIZE);
	t->vf32 = LLVMVectorType(LLVMFloatTypeInContext(t->cx), WARP_SIZE);
	t->vf64 = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), WARP_SIZE);

	exec_args[0] = t->ptr;
	exec_args[1] = t->ptr;
	exec_args[2] = t->i32;
	exec_args[3] = t->i32;
	t->helper_exec_t = LLVMFunctionType(t->i32, exec_args, 4, false);
	mem_args[0] = t->ptr;
	mem_args[1] = t->ptr;
	mem_args[2] = t->i32;
	t->helper_mem_t = LLVMFunctionType(t->i32, mem_args, 3, false);
	br_args[0] = t->ptr;
	br_args[1] = t->ptr;
	br_args[2] = t->i32;
	t->helper_branch_t = LLVMFunctionType(t->i32, br_args, 3, false);
}

/* The interpreter's functions, called through their addresses. */
static LLVMValueRef fn_const(struct tx *t, void *addr)
{
	return LLVMConstIntToPtr(LLVMConstInt(t->i64, (uintptr_t)addr, false),
				 t->ptr);
}

static void gen_entry(struct tx *t)
{
	LLVMValueRef rs, n, pc0, sw;
	uint32_t nleaders = 0;

	t->w = LLVMGetParam(t->fn, 0);
	t->qptr = LLVMGetParam(t->fn, 1);
	t->regs = load(t, t->ptr, at(t, t->w, offsetof(struct warp, regs)), 8);
	t->preds = load(t, t->ptr, at(t, t->w, offsetof(struct warp, preds)), 8);
	rs = load(t, t->ptr, at(t, t->w, offsetof(struct warp, rs)), 8);
	n = LLVMBuildZExt(t->b, load(t, t->i32, at(t, t->w,
		offsetof(struct warp, rs_n)), 4), t->i64, "");
	n = LLVMBuildMul(t->b, LLVMBuildSub(t->b, n, c64(t, 1), ""),
			 c64(t, sizeof(struct rentry)), "");
	t->top = LLVMBuildGEP2(t->b, t->i8, rs, &n, 1, "top");
	pc0 = load(t, t->i32, at(t, t->top, offsetof(struct rentry, pc)), 4);
	t->rpc = load(t, t->i32, at(t, t->top, offsetof(struct rentry, rpc)), 4);
	t->mask = load(t, t->i32, at(t, t->top, offsetof(struct rentry, mask)),
		       4);
	t->maskv = mask_vec(t, t->mask);
	t->popmask = ctpop32(t, t->mask);
	for (uint32_t i = 0; i < t->end - t->start; i++)
		nleaders += t->leader[i];
	sw = LLVMBuildSwitch(t->b, pc0, t->interp_exit, nleaders);
	for (uint32_t i = 0; i < t->end - t->start; i++)
		if (t->leader[i])
			LLVMAddCase(sw, c32(t, t->start + i), t->bb[i]);
	LLVMPositionBuilderAtEnd(t->b, t->interp_exit);
	LLVMBuildRet(t->b, c32(t, JIT_EXIT_INTERP));
}

/* One block: [pc, next leader or the end of a branch/helper). */
static void gen_block(struct tx *t, uint32_t pc)
{
	uint32_t len = 1, i;
	LLVMValueRef q, short_q;
	LLVMBasicBlockRef body, out;

	while (pc + len < t->end && !t->leader[pc + len - t->start] &&
	       kind_of(&t->m->code[pc + len - 1]) == K_INLINE)
		len++;
	LLVMPositionBuilderAtEnd(t->b, t->bb[pc - t->start]);
	t->ins_acc = c64(t, 0);
	t->lane_acc = c64(t, 0);
	t->acc_dirty = false;
	/* the quantum: the whole block, or the interpreter counts it out */
	q = load(t, t->i32, t->qptr, 4);
	short_q = LLVMBuildICmp(t->b, LLVMIntULT, q, c32(t, len), "");
	body = LLVMAppendBasicBlockInContext(t->cx, t->fn, "body");
	out = LLVMAppendBasicBlockInContext(t->cx, t->fn, "quantum");
	LLVMBuildCondBr(t->b, short_q, out, body);
	LLVMPositionBuilderAtEnd(t->b, out);
	set_top_pc(t, pc);
	LLVMBuildRet(t->b, c32(t, JIT_EXIT_INTERP));
	LLVMPositionBuilderAtEnd(t->b, body);
	store(t, LLVMBuildSub(t->b, q, c32(t, len), ""), t->qptr, 4);

	for (i = 0; i < len; i++) {
		const struct dinsn *in = &t->m->code[pc + i];

		switch (kind_of(in)) {
		case K_INLINE:
			gen_inline(t, in, pc + i);
			t->n_inline++;
			break;
		case K_BRANCH:
			gen_branch(t, in, pc + i);
			t->n_helper++;
			return;
		case K_HELPER:
			gen_helper(t, in, pc + i);
			t->n_helper++;
			return;
		}
	}
	goto_pc(t, pc + len);
}

int jit_translate(LLVMContextRef ctx, const struct vgpu_module *m,
		  uint32_t fi, struct jit_translation *out, char *why,
		  size_t whylen)
{
	struct tx t = { .cx = ctx, .m = m, .f = &m->funcs[fi] };
	LLVMTypeRef args[2], ft;
	uint32_t n = t.f->code_count;

	t.start = t.f->code_start;
	t.end = t.start + n;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "vgpu_f%u", fi);
	t.leader = calloc(n, 1);
	t.bb = calloc(n, sizeof(*t.bb));
	if (!t.leader || !t.bb) {
		free(t.leader);
		free(t.bb);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	setup_types(&t);
	find_leaders(&t);
	t.mod = LLVMModuleCreateWithNameInContext(out->name, ctx);
	args[0] = t.ptr;
	args[1] = t.ptr;
	ft = LLVMFunctionType(t.i32, args, 2, false);
	t.fn = LLVMAddFunction(t.mod, out->name, ft);
	t.helper_exec = fn_const(&t, (void *)warp_exec_insn);
	t.helper_mem = fn_const(&t, (void *)exec_mem);
	t.helper_branch = fn_const(&t, (void *)warp_branch);
	t.b = LLVMCreateBuilderInContext(ctx);

	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, t.fn,
								"entry");
	t.interp_exit = LLVMAppendBasicBlockInContext(ctx, t.fn, "interp");
	for (uint32_t i = 0; i < n; i++)
		if (t.leader[i]) {
			char name[24];

			snprintf(name, sizeof(name), "pc%u", t.start + i);
			t.bb[i] = LLVMAppendBasicBlockInContext(ctx, t.fn, name);
		}
	LLVMPositionBuilderAtEnd(t.b, entry);
	gen_entry(&t);
	for (uint32_t i = 0; i < n; i++)
		if (t.leader[i])
			gen_block(&t, t.start + i);
	LLVMDisposeBuilder(t.b);
	free(t.bb);
	out->mod = t.mod;
	out->leader = t.leader;
	out->insns_inline = t.n_inline;
	out->insns_helper = t.n_helper;
	return 0;
}
