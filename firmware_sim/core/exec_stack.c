// SPDX-License-Identifier: GPL-2.0
/*
 * exec_stack.c - the thread's dynamic stack: PTX alloca, stacksave and
 * stackrestore (VISA_OP_STACK, enum visa_stack).
 *
 * A thread's local window is local_size bytes (cudaLimitStackSize).  The
 * call frames grow up from 0 (warp.c: a callee's frame starts where its
 * caller's ends); alloca takes memory from the top down, per lane, so
 * that a call made after an alloca cannot overwrite it:
 *
 *    0                                              local_size
 *    +---------+---------+------ free ------+-------+--------+
 *    | kernel  | callee  |                  | alloca| alloca |
 *    | frame   | frame   |  --> frames       <-- sp |        |
 *    +---------+---------+------------------+-------+--------+
 *                        ^ fp + frame_size   ^ dsp[lane]
 *
 * A call saves the pointers and the return restores them (warp.c), which
 * frees what the callee allocated, as the PTX ISA says alloca's memory
 * lives until its function returns.  Running into the frames, or a call
 * whose frame would run into the allocations, is VISA_FAULT_STACK_OVERFLOW
 * (CUDA_ERROR_HARDWARE_STACK_ERROR, as a too-deep recursion on an H100).
 */
#include "core_internal.h"

/* Until the first STACK instruction every lane's pointer is the top. */
static void stack_start(struct warp *w)
{
	if (w->dsp_live)
		return;
	for (int l = 0; l < WARP_SIZE; l++)
		w->dsp[l] = w->blk->g->local_size;
	w->dsp_live = true;
}

/* The lowest stack pointer of @lanes: where the frames must end. */
uint32_t stack_lowest(const struct warp *w, uint32_t lanes)
{
	uint32_t low = w->blk->g->local_size;

	if (!w->dsp_live)
		return low;
	for (int l = 0; l < WARP_SIZE; l++)
		if (((lanes >> l) & 1) && w->dsp[l] < low)
			low = w->dsp[l];
	return low;
}

int exec_stack(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const struct mfunc *f = &w->blk->g->mod->funcs[w->func];
	uint32_t sub = VISA_MOD_SUB(in->mod), pc = pc_of(w, in);
	uint64_t frames_end = (uint64_t)w->fp + f->frame_size;
	uint64_t align = in->imm > 8 ? in->imm : 8;
	uint64_t *D = in->d != VISA_OPND_NONE ? reg_row(w, in->d) : NULL;
	const uint64_t *A = in->a != VISA_OPND_NONE ?
			    src_row(w, in, 0, in->a) : NULL;

	stack_start(w);
	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t sp = w->dsp[l];

		if (!((mask >> l) & 1))
			continue;
		switch (sub) {
		case VISA_STACK_ALLOCA:
			/* an alignment the compiler checked; size as given */
			if (!A || (align & (align - 1)) || A[l] > sp ||
			    ((sp - A[l]) & ~(align - 1)) < frames_end) {
				core_record_fault(w->blk->g, w, l, pc,
						  VISA_FAULT_STACK_OVERFLOW, 0,
						  "alloca exceeds the thread's "
						  "local memory "
						  "(cudaLimitStackSize)");
				return EXEC_FAULT;
			}
			w->dsp[l] = (uint32_t)((sp - A[l]) & ~(align - 1));
			break;
		case VISA_STACK_SAVE:
			break;
		case VISA_STACK_RESTORE:
			/* only a value stacksave gave is defined: check it */
			if (!A || A[l] < frames_end ||
			    A[l] > w->blk->g->local_size) {
				core_record_fault(w->blk->g, w, l, pc,
						  VISA_FAULT_OUT_OF_RANGE,
						  A ? A[l] : 0,
						  "stackrestore to an address "
						  "outside the thread's stack");
				return EXEC_FAULT;
			}
			w->dsp[l] = (uint32_t)A[l];
			break;
		default:
			return exec_bad(w, in, mask);
		}
		if (D)
			D[l] = w->dsp[l];
	}
	return EXEC_OK;
}
