// SPDX-License-Identifier: GPL-2.0
/*
 * translate_rows.c - register rows kept in SSA values inside a block, and
 * stored to the warp's register window only when a later instruction may
 * read them.
 *
 * Before, every instruction loaded its source rows from the window
 * (w->regs) and stored its result row there: vectorAdd's body wrote eight
 * 256-byte rows per warp that nothing read after the block.  Now each row
 * a block touches lives in an alloca (LLVM's SROA turns them into SSA
 * values, so they stay in vector registers), and the block's exits store
 * the rows it changed that are *live* there:
 *
 *     block:  r3 = ...; r4 = r0 + r3; r0 = r1 + r3; ld r1, [r0] ...
 *     exit to pc 18 (exit): live = {}  ->  no row stored
 *
 * Liveness is a backward dataflow over the function, per thread (the
 * argument of reg_init.c): a row is live at pc when an instruction that
 * reads it can be reached from pc.  Writes do not kill (a guarded or
 * divergent write leaves the other lanes' values, which those lanes may
 * still read), so "live" is reachability of a read, a superset of true
 * liveness: safe.  Skipping the store of a row that is not live keeps
 * the window's older value in *every* lane; the lanes of the block never
 * read the row again (no read is reachable from the exit), and the other
 * lanes keep exactly what a blended store would have kept for them.
 *
 * Every instruction the interpreter's code runs reads the window, so:
 *   - a helper instruction (calls, exits of the interpreter's loop, warp
 *     operations...) counts as reading every row, and all changed rows
 *     are stored before it runs; afterwards the block is over;
 *   - exec_mem() and the fault paths (a load or store that leaves the
 *     fast path) get every changed row stored first, and the rows the
 *     block holds are loaded again after it (exec_mem() may write some);
 *   - EXIT reads none and ends the thread.
 *
 * Rows are stored at every exit of a block with all changed rows that
 * are live at its successors, so every block starts with the window
 * current for every row a later instruction reads: the quantum exit at
 * a block's start, jit_warp_run()'s hand-overs and the interpreter need
 * nothing else.
 *
 * Inside one instruction's code (the memory fast and slow paths) the
 * translator emits several LLVM blocks; a row's alloca must hold its
 * value on every path that reaches the next instruction.  So the rows a
 * load or store uses are fetched into their allocas before its first
 * branch (jit_gen_inline()), and its slow path re-reads every held row
 * after exec_mem().
 */
#include "translate.h"

struct row_cache {
	uint32_t nregs, nw;		/* rows; 64-bit words of a row set */
	LLVMBuilderRef ab;		/* puts allocas into the entry block */
	LLVMValueRef before;		/* ... before this instruction */
	LLVMValueRef *slot;		/* alloca per row, made at first use */
	uint8_t *held;			/* the alloca holds the row's value */
	uint8_t *dirty;			/* ... newer than the window's */
	uint64_t *live;			/* (end - start + 1) sets: at each pc,
					 * then the set of every row */
};

static LLVMValueRef slot_of(struct tx *t, uint16_t r)
{
	struct row_cache *rc = t->rc;

	if (!rc->slot[r]) {
		LLVMPositionBuilderBefore(rc->ab, rc->before);
		rc->slot[r] = LLVMBuildAlloca(rc->ab, t->v64, "row");
		LLVMSetAlignment(rc->slot[r], 8);
	}
	return rc->slot[r];
}

LLVMValueRef row_get(struct tx *t, uint16_t r)
{
	struct row_cache *rc = t->rc;
	LLVMValueRef v;

	if (r >= rc->nregs)	/* not a row of this function: the window */
		return load(t, t->v64, row_ptr(t, r), 8);
	if (rc->held[r])
		return load(t, t->v64, slot_of(t, r), 8);
	v = load(t, t->v64, row_ptr(t, r), 8);
	store(t, v, slot_of(t, r), 8);
	rc->held[r] = 1;
	return v;
}

void row_set(struct tx *t, uint16_t r, LLVMValueRef v)
{
	struct row_cache *rc = t->rc;

	if (r >= rc->nregs) {
		store(t, v, row_ptr(t, r), 8);
		return;
	}
	store(t, v, slot_of(t, r), 8);
	rc->held[r] = 1;
	rc->dirty[r] = 1;
}

static bool in_set(const uint64_t *s, uint32_t r)
{
	return (s[r / 64] >> (r % 64)) & 1;
}

/* Store the changed rows in @live (NULL: all of them) to the window. */
void rows_writeback(struct tx *t, const uint64_t *live)
{
	struct row_cache *rc = t->rc;

	for (uint32_t r = 0; r < rc->nregs; r++)
		if (rc->dirty[r] && (!live || in_set(live, r)))
			store(t, load(t, t->v64, rc->slot[r], 8),
			      row_ptr(t, r), 8);
}

/* The window is current (a block starts, or all was stored): hold none. */
void rows_forget(struct tx *t)
{
	memset(t->rc->held, 0, t->rc->nregs);
	memset(t->rc->dirty, 0, t->rc->nregs);
}

/* After the interpreter's code ran: the held rows from the window again. */
void rows_reload(struct tx *t)
{
	struct row_cache *rc = t->rc;

	for (uint32_t r = 0; r < rc->nregs; r++)
		if (rc->held[r])
			store(t, load(t, t->v64, row_ptr(t, r), 8),
			      rc->slot[r], 8);
}

/* Rows live at @pc: every row when @pc is not this function's. */
const uint64_t *rows_live_at(struct tx *t, uint32_t pc)
{
	struct row_cache *rc = t->rc;
	uint32_t i = pc >= t->start && pc < t->end ? pc - t->start :
						      t->end - t->start;

	return rc->live + (size_t)i * rc->nw;
}

static void set_union(uint64_t *d, const uint64_t *s, uint32_t nw)
{
	for (uint32_t i = 0; i < nw; i++)
		d[i] |= s[i];
}

/* The successors of BRA at @pc together (the block's exit set). */
const uint64_t *rows_live_after_branch(struct tx *t, uint32_t pc)
{
	struct row_cache *rc = t->rc;
	const struct dinsn *in = &t->m->code[pc];
	/* the all-rows set's slot is free after it: use a scratch set */
	uint64_t *u = rc->live + (size_t)(t->end - t->start + 1) * rc->nw;

	memcpy(u, rows_live_at(t, VISA_BRA_TARGET(in->imm)),
	       rc->nw * sizeof(*u));
	if (in->guard != VISA_OPND_NONE)
		set_union(u, rows_live_at(t, pc + 1), rc->nw);
	return u;
}

/* ---- liveness ----------------------------------------------------------- */

enum { READS_SOME, READS_ALL, READS_NONE };

/* What @in reads of the rows (READS_SOME: the operand slots in @s). */
static int reads_of(const struct dinsn *in, uint64_t *s, uint32_t nregs)
{
	const uint16_t slot[4] = { in->a, in->b, in->c, in->e };

	if (in->op == VISA_OP_EXIT)
		return READS_NONE;
	if (in->op == VISA_OP_BRA)
		return READS_NONE;	/* predicates only */
	if (!jit_inline_ok(in))
		return READS_ALL;	/* the interpreter's code */
	if ((in->op == VISA_OP_LD || in->op == VISA_OP_ST) &&
	    !jit_mem_inline(in))
		return READS_ALL;	/* exec_mem() only */
	for (int i = 0; i < 4; i++) {
		if (slot[i] == VISA_OPND_NONE || in->lit[i])
			continue;
		if (slot[i] >= nregs)
			return READS_ALL;
		s[slot[i] / 64] |= 1ull << (slot[i] % 64);
	}
	return READS_SOME;
}

/*
 * live(pc) = reads(pc) + live(s) for every successor s: a fixed point by
 * backward passes (a few: loop depth + 2).  Successors: the next
 * instruction, and a branch's target (an unguarded branch only that);
 * EXIT has none.
 */
static void compute_live(struct tx *t)
{
	struct row_cache *rc = t->rc;
	uint32_t n = t->end - t->start, nw = rc->nw;
	uint64_t *all = rc->live + (size_t)n * nw;
	bool changed = true;

	for (uint32_t r = 0; r < rc->nregs; r++)
		all[r / 64] |= 1ull << (r % 64);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t *s = rc->live + (size_t)i * nw;

		if (reads_of(&t->m->code[t->start + i], s, rc->nregs) ==
		    READS_ALL)
			memcpy(s, all, nw * sizeof(*s));
	}
	while (changed) {
		changed = false;
		for (uint32_t i = n; i-- > 0;) {
			const struct dinsn *in = &t->m->code[t->start + i];
			uint64_t *s = rc->live + (size_t)i * nw;
			const uint64_t *succ[2] = { NULL, NULL };

			if (in->op == VISA_OP_BRA) {
				succ[0] = rows_live_at(t,
						       VISA_BRA_TARGET(in->imm));
				if (in->guard != VISA_OPND_NONE)
					succ[1] = rows_live_at(t,
						t->start + i + 1);
			} else if (in->op != VISA_OP_EXIT ||
				   in->guard != VISA_OPND_NONE) {
				succ[0] = rows_live_at(t, t->start + i + 1);
			}
			for (int k = 0; k < 2; k++) {
				if (!succ[k])
					continue;
				for (uint32_t w = 0; w < nw; w++) {
					uint64_t v = s[w] | succ[k][w];

					changed |= v != s[w];
					s[w] = v;
				}
			}
		}
	}
}

int rows_init(struct tx *t, LLVMValueRef alloca_before)
{
	struct row_cache *rc = calloc(1, sizeof(*rc));
	uint32_t n = t->end - t->start;

	if (!rc)
		return -1;
	t->rc = rc;
	rc->nregs = t->f->num_regs;
	rc->nw = rc->nregs / 64 + 1;
	rc->slot = calloc(rc->nregs + 1, sizeof(*rc->slot));
	rc->held = calloc(rc->nregs + 1, 1);
	rc->dirty = calloc(rc->nregs + 1, 1);
	/* a set per pc, the all-rows set, a scratch set */
	rc->live = calloc((size_t)(n + 2) * rc->nw, sizeof(*rc->live));
	if (!rc->slot || !rc->held || !rc->dirty || !rc->live)
		return -1;
	rc->ab = LLVMCreateBuilderInContext(t->cx);
	rc->before = alloca_before;
	compute_live(t);
	return 0;
}

void rows_fini(struct tx *t)
{
	struct row_cache *rc = t->rc;

	if (!rc)
		return;
	if (rc->ab)
		LLVMDisposeBuilder(rc->ab);
	free(rc->slot);
	free(rc->held);
	free(rc->dirty);
	free(rc->live);
	free(rc);
	t->rc = NULL;
}
