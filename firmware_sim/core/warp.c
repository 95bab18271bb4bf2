// SPDX-License-Identifier: GPL-2.0
/*
 * warp.c - the interpreter loop of one warp: fetch, guard, dispatch, and
 * the control flow that moves the warp's reconvergence stack (branches,
 * calls, returns, exits).  The rules are those of "Reconvergence" in
 * include/vgpu_visa.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "core_internal.h"
#include "exec_async.h"
#include "exec_handlers.h"
#include "vgpu_mma.h"
#include "exec_cdp.h"
#include "exec_heap.h"
#include "exec_tex.h"

const struct vgpu_module *warp_module(const struct warp *w)
{
	return w->blk->g->mod;
}

void warp_thread_idx(const struct warp *w, int lane, uint32_t tid[3])
{
	for (int i = 0; i < 3; i++)
		tid[i] = w->tid[i][lane];
}

/*
 * threadIdx of every lane, computed once per warp, without divisions per
 * lane: x counts up and carries into y, y into z (lanes past the block's
 * last thread get the indices that would follow; they never run).
 *
 * The warp's first index continues from the previous warp of the block
 * when that one is set up (the scheduler sets warps up in order: no
 * division at all); a product checks that, and otherwise two divisions
 * place the warp.
 */
static void compute_tids(struct warp *w)
{
	const uint32_t *bd = w->blk->g->l->block;
	const uint32_t bx = bd[0], by = bd[1];
	uint32_t flat = w->warp_id * WARP_SIZE, x, y, z;
	const struct warp *prev = w->warp_id && w == &w->blk->warps[w->warp_id] ?
				  w - 1 : NULL;

	if (prev) {
		x = prev->tid[0][WARP_SIZE - 1] + 1;
		y = prev->tid[1][WARP_SIZE - 1];
		z = prev->tid[2][WARP_SIZE - 1];
		if (x == bd[0]) {
			x = 0;
			if (++y == bd[1]) {
				y = 0;
				z++;
			}
		}
	}
	/* stale (another launch's warp) or out of order: place by division */
	if (!prev || x >= bd[0] || y >= bd[1] ||
	    ((uint64_t)z * bd[1] + y) * bd[0] + x != flat) {
		uint32_t row = flat / bd[0];

		x = flat - row * bd[0];
		z = row / bd[1];
		y = row - z * bd[1];
	}
	if (x + WARP_SIZE <= bd[0]) {
		/* the warp lies in one row of x: no carry, a vector fill */
		for (int lane = 0; lane < WARP_SIZE; lane++) {
			w->tid[0][lane] = x + (uint32_t)lane;
			w->tid[1][lane] = y;
			w->tid[2][lane] = z;
		}
		return;
	}
	/* (the block's sizes in locals: the stores could alias them) */
	for (int lane = 0; lane < WARP_SIZE; lane++) {
		w->tid[0][lane] = x;
		w->tid[1][lane] = y;
		w->tid[2][lane] = z;
		if (++x == bx) {
			x = 0;
			if (++y == by) {
				y = 0;
				z++;
			}
		}
	}
}

static void set_window(struct warp *w)
{
	w->regs = w->reg_arena + (size_t)w->reg_base * WARP_SIZE;
	w->preds = w->pred_arena + w->pred_base;
}

/* Make room for @rows more registers and @preds more predicates. */
static int grow_windows(struct warp *w, uint32_t rows, uint32_t preds)
{
	if ((uint64_t)w->reg_top + rows > MAX_REG_ROWS ||
	    (uint64_t)w->pred_top + preds > MAX_REG_ROWS * 4)
		return -ENOSPC;
	if (w->reg_top + rows > w->reg_cap) {
		uint32_t cap = (w->reg_top + rows) * 2;
		uint64_t *p = realloc(w->reg_arena,
				      (size_t)cap * WARP_SIZE * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->reg_arena = p;
		w->reg_cap = cap;
	}
	if (w->pred_top + preds > w->pred_cap) {
		uint32_t cap = (w->pred_top + preds) * 2;
		uint32_t *p = realloc(w->pred_arena, (size_t)cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->pred_arena = p;
		w->pred_cap = cap;
	}
	return 0;
}

static int rs_push(struct warp *w, uint32_t pc, uint32_t rpc, uint32_t mask,
		   uint32_t is_call)
{
	if (w->rs_n == w->rs_cap) {
		uint32_t cap = w->rs_cap ? w->rs_cap * 2 : 16;
		struct rentry *p;

		if (cap > MAX_RSTACK)
			return -ENOSPC;
		p = realloc(w->rs, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		w->rs = p;
		w->rs_cap = cap;
	}
	w->rs[w->rs_n++] = (struct rentry){ pc, rpc, mask, (uint16_t)is_call, 0 };
	return 0;
}

int warp_init(struct warp *w, struct block *b, uint32_t warp_id)
{
	struct grid *g = b->g;
	const struct mfunc *f = &g->mod->funcs[g->k->func];
	uint32_t first = warp_id * WARP_SIZE;
	uint32_t n = b->nthreads - first;

	w->blk = b;
	w->warp_id = warp_id;
	w->live = n >= WARP_SIZE ? FULL_MASK : (1u << n) - 1;
	compute_tids(w);
	w->state = WARP_RUNNABLE;
	w->func = g->k->func;
	w->fp = 0;
	w->reg_top = w->pred_top = 0;
	w->reg_base = w->pred_base = 0;
	w->rs_n = 0;
	w->nframes = 0;
	w->dsp_live = false;
	w->insns = w->lane_insns = 0;
	/* a pooled warp's staging slots must not show the last block's data */
	if (w->mma_stage)
		memset(w->mma_stage, 0,
		       (size_t)VISA_MMA_SLOTS * WARP_SIZE * sizeof(uint64_t));
	async_warp_reset(w);
	w->cl_arrived = w->cl_phase = 0;
	memset(w->cdp_err, 0, sizeof(w->cdp_err));
	if (grow_windows(w, f->num_regs, f->num_preds))
		return -ENOMEM;
	w->reg_top = f->num_regs;
	w->pred_top = f->num_preds;
	set_window(w);
	/* Registers start at zero so that no run depends on stale data:
	 * those a read may find unwritten (reg_init.c). */
	reg_init_zero(f, w->regs);
	if (f->num_preds)
		memset(w->preds, 0, (size_t)f->num_preds * sizeof(uint32_t));
	return rs_push(w, f->code_start, VISA_RECONV_EXIT, w->live, 0);
}

void warp_release(struct warp *w)
{
	free(w->mma_stage);
	free(w->reg_arena);
	free(w->pred_arena);
	free(w->rs);
	free(w->frames);
	async_warp_release(w);
	memset(w, 0, sizeof(*w));
}

/* Return from the current function to its caller (the marker is on top). */
static void pop_call(struct warp *w)
{
	struct frame *fr = &w->frames[--w->nframes];

	w->rs_n--;
	w->reg_top = w->reg_base;
	w->pred_top = w->pred_base;
	w->func = fr->func;
	w->reg_base = fr->reg_base;
	w->pred_base = fr->pred_base;
	w->fp = fr->fp;
	/* what the callee allocated is freed */
	w->dsp_live = fr->dsp_live;
	if (fr->dsp_live)
		memcpy(w->dsp, fr->dsp, sizeof(w->dsp));
	set_window(w);
}

/*
 * Pop entries that are finished: reached their reconvergence point, or
 * lost all their lanes to RET/EXIT; a call marker on top means the callee
 * has returned.  Returns false when the warp has finished.
 */
static bool settle(struct warp *w)
{
	while (w->rs_n) {
		struct rentry *top = &w->rs[w->rs_n - 1];

		if (top->is_call)
			pop_call(w);
		else if (!top->mask || top->pc == top->rpc)
			w->rs_n--;
		else
			return true;
	}
	return false;
}

static uint32_t guard_mask(const struct warp *w, uint16_t guard)
{
	uint32_t p = w->preds[VISA_GUARD_INDEX(guard)];

	return (guard & VISA_GUARD_NEG) ? ~p : p;
}

static int do_branch(struct warp *w, const struct dinsn *in, uint32_t pc)
{
	struct rentry *top = &w->rs[w->rs_n - 1];
	uint32_t target = VISA_BRA_TARGET(in->imm);
	uint32_t reconv = VISA_BRA_RECONV(in->imm);
	uint32_t all = top->mask, taken, rest;

	if (in->guard == VISA_OPND_NONE) {
		top->pc = target;
		return 0;
	}
	taken = all & guard_mask(w, in->guard);
	rest = all & ~taken;
	if (!rest) {
		top->pc = target;
		return 0;
	}
	if (!taken)
		return 0;	/* pc already points past the branch */
	if (reconv == top->rpc) {
		/* Same meeting point: this entry becomes the fall-through. */
		top->mask = rest;
		top->pc = pc + 1;
	} else {
		top->pc = reconv;
		if (rs_push(w, pc + 1, reconv, rest, 0))
			return -1;
	}
	return rs_push(w, target, reconv, taken, 0);
}

/* Lanes @lanes leave the current function (RET) or the kernel (EXIT). */
static void remove_lanes(struct warp *w, uint32_t lanes, bool to_call)
{
	for (uint32_t i = w->rs_n; i-- > 0;) {
		if (w->rs[i].is_call && to_call)
			return;
		w->rs[i].mask &= ~lanes;
	}
}

static int do_call(struct warp *w, const struct dinsn *in, uint32_t pc,
		   uint32_t mask)
{
	struct grid *g = w->blk->g;
	const struct vgpu_module *m = g->mod;
	const struct mfunc *caller = &m->funcs[w->func];
	const struct mfunc *callee;
	uint32_t target, calling = mask, others;

	if (in->mod & VISA_MOD_INDIRECT) {
		/* Lanes may call different functions: one target at a time. */
		const uint64_t *a = src_row(w, in, 0, in->a);
		int first = __builtin_ctz(mask);
		uint64_t fp = a[first];

		if (fp < VISA_FUNCPTR_BASE ||
		    fp - VISA_FUNCPTR_BASE >= m->nfuncs) {
			core_record_fault(g, w, first, pc,
					  VISA_FAULT_INVALID_CALL, fp,
					  "call through an invalid function "
					  "pointer");
			return -1;
		}
		target = (uint32_t)(fp - VISA_FUNCPTR_BASE);
		calling = 0;
		for (int l = 0; l < WARP_SIZE; l++)
			if (((mask >> l) & 1) && a[l] == fp)
				calling |= 1u << l;
	} else {
		target = (uint32_t)in->imm;
	}
	callee = &m->funcs[target];
	others = mask & ~calling;

	/* the frames grow up towards the dynamic stack (exec_stack.c) */
	if (w->nframes >= MAX_CALL_DEPTH ||
	    (uint64_t)w->fp + caller->frame_size + callee->frame_size >
	    stack_lowest(w, calling)) {
		core_record_fault(g, w, __builtin_ctz(calling), pc,
				  VISA_FAULT_STACK_OVERFLOW, 0,
				  "call stack exceeds the thread's local memory"
				  " (cudaLimitStackSize)");
		return -1;
	}
	/* top (pc already = pc + 1) waits for the callee with all its lanes. */
	if (others && rs_push(w, pc, pc + 1, others, 0))
		goto nospace;
	if (w->nframes == w->frames_cap) {
		uint32_t cap = w->frames_cap ? w->frames_cap * 2 : 8;
		struct frame *p = realloc(w->frames, cap * sizeof(*p));

		if (!p)
			goto nospace;
		w->frames = p;
		w->frames_cap = cap;
	}
	if (grow_windows(w, callee->num_regs, callee->num_preds))
		goto nospace;
	{
		/* field by field: dsp[] is copied only when in use */
		struct frame *fr = &w->frames[w->nframes++];

		fr->func = w->func;
		fr->reg_base = w->reg_base;
		fr->pred_base = w->pred_base;
		fr->fp = w->fp;
		fr->dsp_live = w->dsp_live;
		if (w->dsp_live)
			memcpy(fr->dsp, w->dsp, sizeof(w->dsp));
	}
	if (rs_push(w, 0, VISA_RECONV_EXIT, calling, 1) ||
	    rs_push(w, callee->code_start, VISA_RECONV_EXIT, calling, 0))
		goto nospace;
	w->fp += caller->frame_size;
	w->func = target;
	w->reg_base = w->reg_top;
	w->pred_base = w->pred_top;
	w->reg_top += callee->num_regs;
	w->pred_top += callee->num_preds;
	set_window(w);
	reg_init_zero(callee, w->regs);
	if (callee->num_preds)
		memset(w->preds, 0, (size_t)callee->num_preds * 4);
	return 0;
nospace:
	core_record_fault(g, w, __builtin_ctz(calling), pc,
			  VISA_FAULT_STACK_OVERFLOW, 0,
			  "warp call or reconvergence stack exhausted");
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t sreg_value(struct warp *w, uint32_t id, int lane)
{
	const struct block *b = w->blk;
	const struct vgpu_core_launch *l = b->g->l;
	uint32_t bit = 1u << lane;

	switch (id) {
	case VISA_SREG_TID_X:
	case VISA_SREG_TID_Y:
	case VISA_SREG_TID_Z:
		return w->tid[id - VISA_SREG_TID_X][lane];
	case VISA_SREG_NTID_X:
	case VISA_SREG_NTID_Y:
	case VISA_SREG_NTID_Z:
		return l->block[id - VISA_SREG_NTID_X];
	case VISA_SREG_CTAID_X:
	case VISA_SREG_CTAID_Y:
	case VISA_SREG_CTAID_Z:
		return b->idx[id - VISA_SREG_CTAID_X];
	case VISA_SREG_NCTAID_X:
	case VISA_SREG_NCTAID_Y:
	case VISA_SREG_NCTAID_Z:
		return l->grid[id - VISA_SREG_NCTAID_X];
	case VISA_SREG_LANEID:
		return (uint32_t)lane;
	case VISA_SREG_WARPID:
		return w->warp_id;
	case VISA_SREG_NWARPID:
		return b->nwarps;
	case VISA_SREG_SMID:
		return b->sm->id;
	case VISA_SREG_NSMID:
		return b->sm->core->num_sms;
	case VISA_SREG_GRIDID:
		return l->grid_id;
	case VISA_SREG_LANEMASK_EQ:
		return bit;
	case VISA_SREG_LANEMASK_LE:
		return bit | (bit - 1);
	case VISA_SREG_LANEMASK_LT:
		return bit - 1;
	case VISA_SREG_LANEMASK_GE:
		return ~(bit - 1) & FULL_MASK;
	case VISA_SREG_LANEMASK_GT:
		return ~(bit | (bit - 1)) & FULL_MASK;
	case VISA_SREG_CLOCK:
		return (uint32_t)w->insns;
	case VISA_SREG_CLOCK_HI:
		return (uint32_t)(w->insns >> 32);
	case VISA_SREG_CLOCK64:
		return w->insns;
	case VISA_SREG_GLOBALTIMER:
		return now_ns();
	case VISA_SREG_GLOBALTIMER_LO:
		return (uint32_t)now_ns();
	case VISA_SREG_GLOBALTIMER_HI:
		return (uint32_t)(now_ns() >> 32);
	case VISA_SREG_DYNAMIC_SMEM_SIZE:
		return l->dynamic_shared;
	case VISA_SREG_TOTAL_SMEM_SIZE:
		return b->shared_size;
	case VISA_SREG_WARPSZ:
		return WARP_SIZE;
	}
	return cluster_sreg(b, id);	/* exec_cluster.c */
}

static void do_sreg(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint64_t *d = reg_row(w, in->d);
	bool wide = in->type == VISA_T_U64 || in->type == VISA_T_S64 ||
		    in->type == VISA_T_B64;

	if (in->imm <= VISA_SREG_TID_Z) {	/* the common case, vectorized */
		const uint32_t *t = w->tid[in->imm];

		FOR_LANES(mask, d[l] = t[l]);
		return;
	}
	/* %clock and friends read the warp's instruction count. */
	for (int l = 0; l < WARP_SIZE; l++) {
		if ((mask >> l) & 1) {
			uint64_t v = sreg_value(w, (uint32_t)in->imm, l);

			d[l] = wide ? v : (uint32_t)v;
		}
	}
}

/* Without -mpopcnt __builtin_popcount is a library call: SWAR instead. */
static inline uint32_t popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

static bool is_float_type(unsigned int t)
{
	return t == VISA_T_F16 || t == VISA_T_F16X2 || t == VISA_T_BF16 ||
	       t == VISA_T_BF16X2 || t == VISA_T_F32 || t == VISA_T_F64;
}

/*
 * The handlers of the opcode table's classes (include/vgpu_visa_ops.h):
 * each executes one instruction for @mask and returns an enum
 * exec_status.  The instruction semantics live in exec_*.c; these only
 * pick them, or are the control flow of this file.
 */
static int exec_class_nop(struct warp *w, const struct dinsn *in,
			  uint32_t pc, uint32_t mask)
{
	(void)w, (void)in, (void)pc, (void)mask;
	return EXEC_OK;
}

static int exec_class_membar(struct warp *w, const struct dinsn *in,
			     uint32_t pc, uint32_t mask)
{
	(void)w, (void)in, (void)pc, (void)mask;
	/* Each SM thread's accesses are sequentially consistent with
	 * themselves; cross-SM ordering needs a host fence. */
	atomic_thread_fence(memory_order_seq_cst);
	return EXEC_OK;
}

static int exec_class_sreg(struct warp *w, const struct dinsn *in,
			   uint32_t pc, uint32_t mask)
{
	(void)pc;
	do_sreg(w, in, mask);
	return EXEC_OK;
}

static int exec_class_branch(struct warp *w, const struct dinsn *in,
			     uint32_t pc, uint32_t mask)
{
	(void)mask;
	return do_branch(w, in, pc) ? EXEC_FAULT : EXEC_CONTROL;
}

static int exec_class_call(struct warp *w, const struct dinsn *in,
			   uint32_t pc, uint32_t mask)
{
	return do_call(w, in, pc, mask) ? EXEC_FAULT : EXEC_CONTROL;
}

/* Lanes @lanes end their threads (EXIT, a failed assert). */
void warp_exit_lanes(struct warp *w, uint32_t lanes)
{
	cluster_lanes_exit(w, lanes);	/* before they leave w->live */
	w->live &= ~lanes;
	remove_lanes(w, lanes, false);
}

static int exec_class_exit(struct warp *w, const struct dinsn *in,
			   uint32_t pc, uint32_t mask)
{
	(void)in, (void)pc;
	warp_exit_lanes(w, mask);
	return EXEC_CONTROL;
}

static int exec_class_ret(struct warp *w, const struct dinsn *in,
			  uint32_t pc, uint32_t mask)
{
	if (w->nframes) {
		remove_lanes(w, mask, true);
		return EXEC_CONTROL;
	}
	/* ret from a kernel ends the thread, like exit */
	return exec_class_exit(w, in, pc, mask);
}

static int exec_class_trap(struct warp *w, const struct dinsn *in,
			   uint32_t pc, uint32_t mask)
{
	(void)in;
	core_record_fault(w->blk->g, w, __builtin_ctz(mask), pc,
			  VISA_FAULT_TRAP, 0, "trap instruction");
	return EXEC_FAULT;
}

static int exec_class_brkpt(struct warp *w, const struct dinsn *in,
			    uint32_t pc, uint32_t mask)
{
	(void)in;
	core_record_fault(w->blk->g, w, __builtin_ctz(mask), pc,
			  VISA_FAULT_BREAKPOINT, 0, "brkpt instruction");
	return EXEC_FAULT;
}

static int exec_class_yield(struct warp *w, const struct dinsn *in,
			    uint32_t pc, uint32_t mask)
{
	(void)w, (void)in, (void)pc, (void)mask;
	/* Give other warps of the block a chance (spin-wait loops). */
	return EXEC_YIELD;
}

/* The classes whose semantics are in exec_*.c, printf_device.c, sched.c. */
#define EXEC_CLASS(cls, call)						\
static int exec_class_##cls(struct warp *w, const struct dinsn *in,	\
			    uint32_t pc, uint32_t mask)			\
{									\
	(void)pc;							\
	return call;							\
}
EXEC_CLASS(int, exec_int(w, in, mask))
EXEC_CLASS(float, exec_float(w, in, mask))
EXEC_CLASS(typed, is_float_type(in->type) ? exec_float(w, in, mask) :
					    exec_int(w, in, mask))
EXEC_CLASS(typed2, is_float_type(in->type2) ? exec_float(w, in, mask) :
					      exec_int(w, in, mask))
EXEC_CLASS(mem, exec_mem(w, in, mask))
EXEC_CLASS(barrier, block_barrier(w, in, mask))
EXEC_CLASS(warp, exec_warp_op(w, in, mask))
EXEC_CLASS(mma, exec_mma(w, in, mask))
EXEC_CLASS(printf, exec_printf(w, in, mask))
EXEC_CLASS(assert, exec_assert(w, in, mask))
EXEC_CLASS(async, exec_async(w, in, mask))
EXEC_CLASS(heap, exec_heap(w, in, mask))
EXEC_CLASS(tex, exec_tex(w, in, mask))
EXEC_CLASS(stack, exec_stack(w, in, mask))
#undef EXEC_CLASS
#define EXEC_CLASS(cls, call)						\
static int exec_class_##cls(struct warp *w, const struct dinsn *in,	\
			    uint32_t pc, uint32_t mask)			\
{									\
	return call;							\
}
EXEC_CLASS(cluster, exec_cluster(w, in, pc, mask))
EXEC_CLASS(cdp, exec_cdp(w, in, pc, mask))
#undef EXEC_CLASS

/* Every opcode's handler: the class column of the opcode table. */
const exec_handler_fn exec_handlers[VISA_OP_COUNT] = {
#define VISA_OP(op, name, cls, ...) [VISA_OP_##op] = exec_class_##cls,
#include "vgpu_visa_ops.h"
#undef VISA_OP
};

/*
 * Execute one instruction for @mask: a switch generated from the same
 * class column, which the compiler makes the jump table of the old
 * hand-written switch, with the small handlers inlined.  (A call through
 * exec_handlers[] measured the same on vgpu-core-bench; the switch keeps
 * the code the interpreter had.)
 */
static int execute(struct warp *w, const struct dinsn *in, uint32_t pc,
		   uint32_t mask)
{
	switch (in->op) {
#define VISA_OP(op, name, cls, ...)					\
	case VISA_OP_##op:						\
		return exec_class_##cls(w, in, pc, mask);
#include "vgpu_visa_ops.h"
#undef VISA_OP
	}
	return exec_bad(w, in, mask);	/* the validator refused it */
}

int warp_exec_insn(struct warp *w, const struct dinsn *in, uint32_t pc,
		   uint32_t mask)
{
	return execute(w, in, pc, mask);
}

int warp_branch(struct warp *w, const struct dinsn *in, uint32_t pc)
{
	return do_branch(w, in, pc);
}

bool warp_settle(struct warp *w)
{
	return settle(w);
}

int warp_run(struct warp *w, uint32_t quantum)
{
	/* The native tier, when the module has one (firmware_sim/jit/),
	 * unless the grid counts: only the interpreter counts. */
	if (w->blk->g->mod->jit && !w->blk->counting)
		return jit_warp_run(w, quantum);
	return warp_interp(w, quantum);
}

int warp_interp(struct warp *w, uint32_t quantum)
{
	const struct dinsn *code = w->blk->g->mod->code;
	uint64_t lanes = 0;
	int ret = RUN_YIELD;

	while (quantum--) {
		struct rentry *top = &w->rs[w->rs_n - 1];
		uint32_t pc = top->pc;
		const struct dinsn *in = &code[pc];
		uint32_t mask = top->mask;
		int st;

		top->pc = pc + 1;
		if (in->guard != VISA_OPND_NONE && in->op != VISA_OP_BRA) {
			mask &= guard_mask(w, in->guard);
			if (!mask) {
				if (top->pc == top->rpc && !settle(w)) {
					ret = RUN_DONE;
					break;
				}
				continue;
			}
		}
		w->insns++;	/* live: %clock reads it */
		lanes += mask == FULL_MASK ? WARP_SIZE : popcount32(mask);
		st = execute(w, in, pc, mask);
		if (st == EXEC_OK) {
			if (top->pc == top->rpc && !settle(w)) {
				ret = RUN_DONE;
				break;
			}
			continue;
		}
		if (st == EXEC_FAULT) {
			ret = RUN_FAULT;
			break;
		}
		if (st == EXEC_BARRIER) {
			/* Settle first: the warp resumes after the barrier. */
			ret = settle(w) ? RUN_BARRIER : RUN_DONE;
			break;
		}
		if (!settle(w)) {
			ret = RUN_DONE;
			break;
		}
		if (st == EXEC_YIELD)
			break;
	}
	w->lane_insns += lanes;
	return ret;
}
