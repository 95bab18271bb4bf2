// SPDX-License-Identifier: GPL-2.0
/*
 * translate_mem.c - loads and stores.  The interpreter's fast path
 * (fast_scalar() in exec_mem.c) inlined on whole rows: one TLB look-up,
 * all lanes checked at once, one vector access; everything else, faults
 * included, through the interpreter's own exec_mem() and mem_resolve().
 */
#include "translate.h"


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
	LLVMValueRef args[3] = { t->w, in_ptr(t, in), em };
	LLVMValueRef r, fault;
	LLVMBasicBlockRef bad, ok;

	set_top_pc(t, pc + 1);
	rows_writeback(t, NULL);	/* exec_mem() reads the window */
	r = LLVMBuildCall2(t->b, t->helper_mem_t, t->helper_mem, args, 3, "");
	fault = LLVMBuildICmp(t->b, LLVMIntNE, r, c32(t, EXEC_OK), "");
	bad = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memfault");
	ok = LLVMAppendBasicBlockInContext(t->cx, t->fn, "memok");
	LLVMBuildCondBr(t->b, fault, bad, ok);
	LLVMPositionBuilderAtEnd(t->b, bad);
	LLVMBuildRet(t->b, r);
	LLVMPositionBuilderAtEnd(t->b, ok);
	rows_reload(t);			/* ... and may have written some */
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

/*
 * Whether the code inlines @in (a load or store) or always calls
 * exec_mem(): the liveness of rows needs to know (translate_rows.c).
 */
bool jit_mem_inline(const struct dinsn *in)
{
	return param_load_ok(in) || mem_fast_ok(in);
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
				  LLVMValueRef addr, LLVMValueRef emv,
				  LLVMValueRef a0)
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
	return c;
}

/*
 * A load or store: the fast path when mem_check() allows it, then one
 * vector access (lanes contiguous, all active) or a gather/scatter.
 * On a TLB miss the first active lane is resolved as the interpreter's
 * lane loop would start (mem_resolve(), which fills the TLB or records
 * the fault) and the check is made again.  Anything else: exec_mem().
 */
void jit_gen_mem(struct tx *t, const struct dinsn *in, uint32_t pc,
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
	c1 = mem_check(t, in, addr, emv, a0);
	from1 = LLVMGetInsertBlock(t->b);
	LLVMBuildCondBr(t->b, c1.ok, fast, notok);
	LLVMPositionBuilderAtEnd(t->b, notok);
	LLVMBuildCondBr(t->b, c1.miss, fill, slow);

	/* the interpreter's first step on this path: resolve the first lane */
	LLVMPositionBuilderAtEnd(t->b, fill);
	/*
	 * No row value lives across the call: the rows go to the window
	 * and come back after it.  (Vectors live across a call are spilled,
	 * and LLVM may spill them where they are made, on the fast path.)
	 */
	rows_writeback(t, NULL);
	{
		LLVMTypeRef at_[7] = { t->ptr, t->i32, t->i32, t->i32, t->i64,
				       t->i32, t->i32 };
		LLVMValueRef args[7] = {
			t->w, c32(t, pc), first, c32(t, in->type2), a0,
			c32(t, es), c32(t, st ? ACC_WRITE : ACC_READ),
		};
		LLVMTypeRef ft = LLVMFunctionType(t->ptr, at_, 7, false);
		LLVMValueRef p = LLVMBuildCall2(t->b, ft,
			t->env[JIT_ENV_MEM_RESOLVE], args, 7, "");
		LLVMBasicBlockRef faulted = LLVMAppendBasicBlockInContext(
			t->cx, t->fn, "tlbfault");

		LLVMBuildCondBr(t->b, LLVMBuildIsNull(t->b, p, ""), faulted,
				again);
		LLVMPositionBuilderAtEnd(t->b, faulted);
		set_top_pc(t, pc + 1);
		LLVMBuildRet(t->b, c32(t, EXEC_FAULT));
	}
	LLVMPositionBuilderAtEnd(t->b, again);
	rows_reload(t);
	addr = LLVMBuildAdd(t->b, src(t, in, 0, in->a), splat64(t, in->imm), "");
	c2 = mem_check(t, in, addr, emv, a0);
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

				/*
				 * Every lane is active here: no blend.  (A
				 * blend lets the back end fold it into
				 * merge-masked loads, which were 3x slower
				 * on reduce's strided loads, AMD EPYC.)
				 */
				row_set(t, in->d, widen(t, v, bits,
					in->type == VISA_T_S32));
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

