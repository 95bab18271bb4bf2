/* SPDX-License-Identifier: GPL-2.0 */
/*
 * translate.h - what the parts of the translator share: its state while
 * one function is translated, and small helpers that build LLVM IR for
 * the warp's state (register rows, predicates, the stack's top entry,
 * the instruction counters).
 *
 *  translate.c      leaders, blocks, branches, interpreter helpers
 *  translate_alu.c  arithmetic, comparisons, moves, special registers
 *  translate_mem.c  loads and stores: the TLB fast path inlined
 */
#ifndef VGPU_JIT_TRANSLATE_H
#define VGPU_JIT_TRANSLATE_H

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
	LLVMTypeRef i1, i8, i32, i64, ptr, v64, v32i, vb, vf32, vf64;
	LLVMValueRef fn, w, qptr;
	LLVMValueRef env[JIT_ENV_N];	/* struct jit_env, loaded at entry */
	LLVMValueRef regs, preds, top, mask, rpc, popmask;
	/* instructions and lanes executed since the last flush */
	LLVMValueRef ins_acc, lane_acc;
	bool acc_dirty;
	const struct vgpu_module *m;
	const struct mfunc *f;
	uint32_t start, end;		/* [start, end) absolute pcs */
	uint8_t *leader;
	LLVMBasicBlockRef *bb;		/* per leader */
	LLVMBasicBlockRef interp_exit;	/* entry switch default */
	/* reads the top entry and goes to its pc's block (translate.c) */
	LLVMBasicBlockRef dispatch;
	LLVMValueRef rs_n;		/* w->rs_n, read there */
	LLVMTypeRef helper_exec_t, helper_mem_t, helper_branch_t;
	LLVMValueRef helper_exec, helper_mem, helper_branch;
	uint32_t n_inline, n_branch, n_helper;
	/* register rows kept in SSA inside a block (translate_rows.c) */
	struct row_cache *rc;
};

/* translate_rows.c: the block's register rows, and which are live */
LLVMValueRef row_get(struct tx *t, uint16_t r);
void row_set(struct tx *t, uint16_t r, LLVMValueRef v);
void rows_writeback(struct tx *t, const uint64_t *live);
void rows_forget(struct tx *t);
void rows_reload(struct tx *t);
const uint64_t *rows_live_at(struct tx *t, uint32_t pc);
const uint64_t *rows_live_after_branch(struct tx *t, uint32_t pc);
int rows_init(struct tx *t, LLVMValueRef alloca_before);
void rows_fini(struct tx *t);

/* ---- small IR helpers --------------------------------------------------- */

static inline LLVMValueRef c32(struct tx *t, uint64_t v)
{
	return LLVMConstInt(t->i32, v, false);
}

static inline LLVMValueRef c64(struct tx *t, uint64_t v)
{
	return LLVMConstInt(t->i64, v, false);
}

static inline LLVMTypeRef vec_of(struct tx *t, unsigned int bits)
{
	return LLVMVectorType(LLVMIntTypeInContext(t->cx, bits), WARP_SIZE);
}

static inline LLVMValueRef splat(struct tx *t, LLVMValueRef scalar)
{
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(scalar), WARP_SIZE);
	LLVMValueRef undef = LLVMGetUndef(vt);
	LLVMValueRef v = LLVMBuildInsertElement(t->b, undef, scalar, c32(t, 0),
						"");
	LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(t->i32, WARP_SIZE));

	return LLVMBuildShuffleVector(t->b, v, undef, zeros, "");
}

static inline LLVMValueRef splat64(struct tx *t, uint64_t v)
{
	LLVMValueRef e[WARP_SIZE];

	for (int i = 0; i < WARP_SIZE; i++)
		e[i] = c64(t, v);
	return LLVMConstVector(e, WARP_SIZE);
}

static inline LLVMValueRef splat_n(struct tx *t, unsigned int bits,
				   uint64_t v)
{
	LLVMValueRef e[WARP_SIZE];
	LLVMTypeRef it = LLVMIntTypeInContext(t->cx, bits);

	for (int i = 0; i < WARP_SIZE; i++)
		e[i] = LLVMConstInt(it, v, false);
	return LLVMConstVector(e, WARP_SIZE);
}

/* A pointer @off bytes into the object at @base. */
static inline LLVMValueRef at(struct tx *t, LLVMValueRef base, size_t off)
{
	LLVMValueRef idx = c64(t, off);

	return LLVMBuildGEP2(t->b, t->i8, base, &idx, 1, "");
}

static inline LLVMValueRef load(struct tx *t, LLVMTypeRef ty, LLVMValueRef p,
			 unsigned int align)
{
	LLVMValueRef v = LLVMBuildLoad2(t->b, ty, p, "");

	LLVMSetAlignment(v, align);
	return v;
}

static inline void store(struct tx *t, LLVMValueRef v, LLVMValueRef p,
		  unsigned int align)
{
	LLVMSetAlignment(LLVMBuildStore(t->b, v, p), align);
}

static inline LLVMValueRef intrinsic(struct tx *t, const char *name,
			      LLVMTypeRef *over, size_t nover,
			      LLVMValueRef *args, unsigned int nargs)
{
	unsigned int id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->mod, id, over, nover);
	LLVMTypeRef ft = LLVMIntrinsicGetType(t->cx, id, over, nover);

	return LLVMBuildCall2(t->b, ft, fn, args, nargs, "");
}

static inline LLVMValueRef ctpop32(struct tx *t, LLVMValueRef x)
{
	return LLVMBuildZExt(t->b, intrinsic(t, "llvm.ctpop", &t->i32, 1, &x, 1),
			     t->i64, "");
}

static inline LLVMValueRef mask_vec(struct tx *t, LLVMValueRef m32)
{
	return LLVMBuildBitCast(t->b, m32, t->vb, "");
}

static inline LLVMValueRef vec_any(struct tx *t, LLVMValueRef vb)
{
	return LLVMBuildICmp(t->b, LLVMIntNE,
			     LLVMBuildBitCast(t->b, vb, t->i32, ""),
			     c32(t, 0), "");
}

/* ---- warp state --------------------------------------------------------- */

static inline LLVMValueRef row_ptr(struct tx *t, uint16_t r)
{
	return at(t, t->regs, (size_t)r * WARP_SIZE * sizeof(uint64_t));
}

/* Source slot @slot (a, b, c, e) of @in: a literal splat or a row. */
static inline LLVMValueRef src(struct tx *t, const struct dinsn *in, int slot,
			uint16_t r)
{
	if (in->lit[slot])
		return splat64(t, in->lit[slot][0]);
	return row_get(t, r);
}

/*
 * Write @v to the lanes of @emv of row @r: a blend with the row's value.
 * (llvm.masked.store would save the load, but a masked store cannot
 * forward to the next instruction's load of the row, in LLVM's optimiser
 * or in the CPU: the blend is faster.)  The row goes to the warp's
 * register window at the end of the block, if a later instruction may
 * read it (translate_rows.c).
 */
static inline void write_row(struct tx *t, uint16_t r, LLVMValueRef v,
		      LLVMValueRef emv)
{
	row_set(t, r, LLVMBuildSelect(t->b, emv, v, row_get(t, r), ""));
}

static inline LLVMValueRef pred_ptr(struct tx *t, uint16_t p)
{
	return at(t, t->preds, (size_t)p * sizeof(uint32_t));
}

/* pred_write(): the lanes of @em take @v. */
static inline void write_pred(struct tx *t, uint16_t p, LLVMValueRef em,
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
static inline LLVMValueRef exec_mask(struct tx *t, const struct dinsn *in)
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
static inline void count(struct tx *t, const struct dinsn *in,
			 LLVMValueRef em)
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
static inline void flush(struct tx *t)
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

static inline void set_top_pc(struct tx *t, uint32_t pc)
{
	store(t, c32(t, pc), at(t, t->top, offsetof(struct rentry, pc)), 4);
}

/* Lanes of @in as a vector of @bits-bit integers, and back to 64 bits. */
static inline LLVMValueRef narrow(struct tx *t, LLVMValueRef v,
				  unsigned int bits)
{
	return bits == 64 ? v : LLVMBuildTrunc(t->b, v, vec_of(t, bits), "");
}

static inline LLVMValueRef widen(struct tx *t, LLVMValueRef v,
				 unsigned int bits, bool sgn)
{
	if (bits == 64)
		return v;
	return sgn ? LLVMBuildSExt(t->b, v, t->v64, "") :
		     LLVMBuildZExt(t->b, v, t->v64, "");
}

/* extend_to_reg(type, v) of visa_types.h on a row. */
static inline LLVMValueRef extend_row(struct tx *t, LLVMValueRef v,
				      unsigned int type)
{
	unsigned int bits = type_bits(type);

	return widen(t, narrow(t, v, bits), bits, type_signed(type));
}

/* The interpreter's functions, called through their addresses. */
/*
 * The address of @in in the module's code, at run time (struct jit_env):
 * no address of this process goes into the machine code, which the cache
 * keeps for other processes.
 */
static inline LLVMValueRef in_ptr(struct tx *t, const struct dinsn *in)
{
	LLVMValueRef off = LLVMConstInt(t->i64, (uint64_t)(in - t->m->code) *
					sizeof(struct dinsn), false);

	return LLVMBuildGEP2(t->b, t->i8, t->env[JIT_ENV_CODE], &off, 1, "");
}

/* translate_alu.c */
bool jit_inline_ok(const struct dinsn *in);
void jit_gen_inline(struct tx *t, const struct dinsn *in, uint32_t pc);
void jit_gen_shfl_warp(struct tx *t, const struct dinsn *in);

/* translate_mem.c */
void jit_gen_mem(struct tx *t, const struct dinsn *in, uint32_t pc,
		 LLVMValueRef em);
bool jit_mem_inline(const struct dinsn *in);

#endif /* VGPU_JIT_TRANSLATE_H */
