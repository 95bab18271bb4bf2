// SPDX-License-Identifier: GPL-2.0
/*
 * translate.c - one vISA function into one LLVM IR function that does what
 * the interpreter's warp_interp() does for it, without the dispatch.
 *
 * The warp's 32 lanes are one LLVM vector: a register row is a
 * <32 x i64> loaded from and stored to the warp's register window (the
 * interpreter's memory, so both tiers see one state at every block
 * boundary), and the active-lane mask is a <32 x i1> that guards every
 * register write (a blend: lanes outside the mask keep their value, as in
 * the interpreter).  Instructions of a basic block are
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
#include "translate.h"

/* ---- branches and interpreter helpers ------------------------------------ */

static void leave(struct tx *t, int code)
{
	flush(t);
	LLVMBuildRet(t->b, c32(t, (uint64_t)code));
}

/*
 * The top entry reached its reconvergence point @pc: settle() would pop
 * it.  Pop it here and go on with the entry below, without returning to
 * jit_warp_run(), unless it is the last one (the warp ends: the
 * interpreter's settle() says so); dispatch hands entries that need
 * more than this pop (call markers, emptied masks) to settle().
 */
static void pop_and_dispatch(struct tx *t, uint32_t pc)
{
	LLVMBasicBlockRef pop = LLVMAppendBasicBlockInContext(t->cx, t->fn,
							      "pop");
	LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(t->cx, t->fn,
							       "lastentry");

	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntUGE, t->rs_n,
					    c32(t, 2), ""), pop, last);
	LLVMPositionBuilderAtEnd(t->b, pop);
	store(t, LLVMBuildSub(t->b, t->rs_n, c32(t, 1), ""),
	      at(t, t->w, offsetof(struct warp, rs_n)), 4);
	LLVMBuildBr(t->b, t->dispatch);
	LLVMPositionBuilderAtEnd(t->b, last);
	set_top_pc(t, pc);
	LLVMBuildRet(t->b, c32(t, JIT_EXIT_SETTLE));
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
	pop_and_dispatch(t, pc);
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
		rows_writeback(t, rows_live_after_branch(t, pc));
		rows_forget(t);
		goto_pc(t, target);
		return;
	}
	taken = exec_mask(t, in);
	rows_writeback(t, rows_live_after_branch(t, pc));
	rows_forget(t);
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
	/* the new top entry's block, here (jit_warp_run() did it) */
	{
		LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(t->cx,
							t->fn, "rsfull");

		LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, r,
						    c32(t, 0), ""),
				t->dispatch, bad);
		LLVMPositionBuilderAtEnd(t->b, bad);
		LLVMBuildRet(t->b, c32(t, EXEC_FAULT));
	}
}

/* An instruction the interpreter's execute() runs (ends its block). */
static void gen_helper(struct tx *t, const struct dinsn *in, uint32_t pc)
{
	LLVMValueRef em = exec_mask(t, in), args[4], r;
	LLVMBasicBlockRef run, skip;

	count(t, in, em);
	flush(t);
	/* the interpreter's code reads and writes the window */
	rows_writeback(t, NULL);
	rows_forget(t);
	run = LLVMAppendBasicBlockInContext(t->cx, t->fn, "helper");
	skip = LLVMAppendBasicBlockInContext(t->cx, t->fn, "skip");
	LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, em, c32(t, 0), ""),
			skip, run);
	LLVMPositionBuilderAtEnd(t->b, run);
	if (in->op == VISA_OP_SHFL) {
		/* the whole warp takes part: nothing to wait for, inline */
		LLVMBasicBlockRef whole, some;

		whole = LLVMAppendBasicBlockInContext(t->cx, t->fn, "shfl");
		some = LLVMAppendBasicBlockInContext(t->cx, t->fn, "shflsome");
		LLVMBuildCondBr(t->b, LLVMBuildICmp(t->b, LLVMIntEQ, em,
						    c32(t, FULL_MASK), ""),
				whole, some);
		LLVMPositionBuilderAtEnd(t->b, whole);
		jit_gen_shfl_warp(t, in);
		rows_forget(t);
		LLVMBuildBr(t->b, skip);
		LLVMPositionBuilderAtEnd(t->b, some);
	}
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
	return jit_inline_ok(in) ? K_INLINE : K_HELPER;
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

static void gen_entry(struct tx *t)
{
	LLVMValueRef rs, n, pc0, sw;
	uint32_t nleaders = 0;

	t->w = LLVMGetParam(t->fn, 0);
	t->qptr = LLVMGetParam(t->fn, 1);
	for (int i = 0; i < JIT_ENV_N; i++)
		t->env[i] = load(t, t->ptr, at(t, LLVMGetParam(t->fn, 2),
					       (uint64_t)i * sizeof(void *)),
				 8);
	t->helper_exec = t->env[JIT_ENV_EXEC_INSN];
	t->helper_mem = t->env[JIT_ENV_EXEC_MEM];
	t->helper_branch = t->env[JIT_ENV_BRANCH];
	t->regs = load(t, t->ptr, at(t, t->w, offsetof(struct warp, regs)), 8);
	t->preds = load(t, t->ptr, at(t, t->w, offsetof(struct warp, preds)), 8);
	LLVMBuildBr(t->b, t->dispatch);

	/*
	 * dispatch: the top entry of the stack, read again after every
	 * change of the stack inside the code (a divergent branch, a pop at
	 * a reconvergence point) so that those need not return to
	 * jit_warp_run().  An entry settle() would pop (a call marker, no
	 * lanes left, its reconvergence point reached) goes back to it.
	 */
	LLVMPositionBuilderAtEnd(t->b, t->dispatch);
	rs = load(t, t->ptr, at(t, t->w, offsetof(struct warp, rs)), 8);
	t->rs_n = load(t, t->i32, at(t, t->w, offsetof(struct warp, rs_n)), 4);
	n = LLVMBuildZExt(t->b, t->rs_n, t->i64, "");
	n = LLVMBuildMul(t->b, LLVMBuildSub(t->b, n, c64(t, 1), ""),
			 c64(t, sizeof(struct rentry)), "");
	t->top = LLVMBuildGEP2(t->b, t->i8, rs, &n, 1, "top");
	pc0 = load(t, t->i32, at(t, t->top, offsetof(struct rentry, pc)), 4);
	t->rpc = load(t, t->i32, at(t, t->top, offsetof(struct rentry, rpc)), 4);
	t->mask = load(t, t->i32, at(t, t->top, offsetof(struct rentry, mask)),
		       4);
	t->popmask = ctpop32(t, t->mask);
	{
		LLVMValueRef call = load(t, LLVMInt16TypeInContext(t->cx),
			at(t, t->top, offsetof(struct rentry, is_call)), 2);
		LLVMValueRef unsettled = LLVMBuildOr(t->b,
			LLVMBuildOr(t->b, LLVMBuildICmp(t->b, LLVMIntNE, call,
				LLVMConstInt(LLVMTypeOf(call), 0, false), ""),
				LLVMBuildICmp(t->b, LLVMIntEQ, t->mask,
					      c32(t, 0), ""), ""),
			LLVMBuildICmp(t->b, LLVMIntEQ, pc0, t->rpc, ""), "");
		LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(t->cx,
							t->fn, "settled");
		LLVMBasicBlockRef back = LLVMAppendBasicBlockInContext(t->cx,
							t->fn, "unsettled");

		LLVMBuildCondBr(t->b, unsettled, back, go);
		LLVMPositionBuilderAtEnd(t->b, back);
		LLVMBuildRet(t->b, c32(t, JIT_EXIT_SETTLE));
		LLVMPositionBuilderAtEnd(t->b, go);
	}
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
	rows_forget(t);
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
			jit_gen_inline(t, in, pc + i);
			t->n_inline++;
			break;
		case K_BRANCH:
			gen_branch(t, in, pc + i);
			t->n_branch++;
			return;
		case K_HELPER:
			gen_helper(t, in, pc + i);
			t->n_helper++;
			return;
		}
	}
	rows_writeback(t, rows_live_at(t, pc + len));
	goto_pc(t, pc + len);
}

int jit_translate(LLVMContextRef ctx, const struct vgpu_module *m,
		  uint32_t fi, struct jit_translation *out, char *why,
		  size_t whylen)
{
	struct tx t = { .cx = ctx, .m = m, .f = &m->funcs[fi] };
	LLVMTypeRef args[3], ft;
	uint32_t n = t.f->code_count;

	t.start = t.f->code_start;
	t.end = t.start + n;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "vgpu_f%u", fi);
	if (n > VGPU_JIT_MAX_INSNS) {
		snprintf(why, whylen, "%u instructions, more than %u", n,
			 VGPU_JIT_MAX_INSNS);
		return -1;
	}
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
	args[2] = t.ptr;
	ft = LLVMFunctionType(t.i32, args, 3, false);
	t.fn = LLVMAddFunction(t.mod, out->name, ft);
	t.b = LLVMCreateBuilderInContext(ctx);

	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, t.fn,
								"entry");
	t.dispatch = LLVMAppendBasicBlockInContext(ctx, t.fn, "dispatch");
	t.interp_exit = LLVMAppendBasicBlockInContext(ctx, t.fn, "interp");
	for (uint32_t i = 0; i < n; i++)
		if (t.leader[i]) {
			char name[24];

			snprintf(name, sizeof(name), "pc%u", t.start + i);
			t.bb[i] = LLVMAppendBasicBlockInContext(ctx, t.fn, name);
		}
	LLVMPositionBuilderAtEnd(t.b, entry);
	gen_entry(&t);
	if (rows_init(&t, LLVMGetFirstInstruction(entry))) {
		rows_fini(&t);
		LLVMDisposeBuilder(t.b);
		LLVMDisposeModule(t.mod);
		free(t.leader);
		free(t.bb);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (t.leader[i])
			gen_block(&t, t.start + i);
	rows_fini(&t);
	LLVMDisposeBuilder(t.b);
	free(t.bb);
	out->mod = t.mod;
	out->leader = t.leader;
	out->insns_inline = t.n_inline;
	out->insns_branch = t.n_branch;
	out->insns_helper = t.n_helper;
	return 0;
}
