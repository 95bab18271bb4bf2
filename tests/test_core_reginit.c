// SPDX-License-Identifier: GPL-2.0
/*
 * test_core_reginit.c - registers a warp zeroes when it enters a function
 * (firmware_sim/core/reg_init.c).
 *
 * A warp zeroes only the register rows a read may find unwritten; the
 * others are written on every path before any read.  These tests check
 * the plan the analysis makes for small kernels (the rows it zeroes, and
 * "all" where lanes read each other's registers) and that a kernel which
 * reads a register before writing it reads 0 even when its warp was used
 * by a block that left another value there (one SM: blocks reuse pooled
 * warps), on both tiers (tg_launch() runs each launch on both).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core_internal.h"
#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"

#define NONE VISA_OPND_NONE

static struct test_gpu gpu;
static struct tap t;

/*
 * out[gid] = r2, where only odd blocks write r2 (a guarded mov): even
 * blocks read it unwritten and must see 0, though the odd block before
 * them left 7 in the same warp's row.
 */
static void test_read_before_write(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	const uint32_t blocks = 64, threads = 64;
	uint64_t po = tg_alloc(&gpu, blocks * threads * 4);
	uint32_t *o = tg_host(&gpu, po), bad = 0;
	uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { threads, 1, 1 };
	const struct mfunc *fn;
	struct visa_insn *i;
	uint32_t k;

	k = vb_func(b, "stale", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_CTAID_X);
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 1, 0, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	i->pd = 0;
	i->a = 1;
	i->b = vb_lit(b, 0);
	i = vb_op3(b, VISA_OP_MOV, VISA_T_U32, 2, vb_lit(b, 7), NONE);
	i->guard = 0;
	vb_global_tid(b, 3);
	vb_param_elem(b, 6, 0, 3);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 6, 0, 2);
	vb_exit(b);
	vb_end_func(b, 8, 1, 0);
	vb_kernel(b, "stale", k, 8, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "load the read-before-write kernel");
		tap_ok(&t, 0, "its result");
		return;
	}
	/* every row but r2 is written before any read */
	fn = &m.mod->funcs[0];
	tap_ok(&t, !fn->zero_all && fn->nzero_runs == 1 &&
	       fn->zero_runs[0].start == 2 && fn->zero_runs[0].count == 1,
	       "the plan zeroes exactly the row a guarded write leaves "
	       "unwritten (r2 of 8)");
	memset(o, 0xee, blocks * threads * 4);
	if (tg_launch(&gpu, &m, "stale", grid, block, 0, &po, 8, &f) != 0)
		tap_diag("fault: %s", f.message);
	for (uint32_t g = 0; g < blocks * threads; g++)
		bad += o[g] != ((g / threads) & 1 ? 7u : 0u);
	tap_ok(&t, bad == 0, "a register read before any write reads 0 in "
	       "reused warps, both tiers (%u wrong)", bad);
	tg_unload(&m);
}

/* A loop's body writes r1; the read after the loop may come first. */
static void test_loop(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	const struct mfunc *fn;
	struct visa_insn *i;
	uint32_t k, head;

	k = vb_func(b, "loop", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);			/* 0 */
	head = vb_pc(b);
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);		/* 1: p0 = r0 == 0 */
	i->mod = VISA_MOD_MKSUB(VISA_CMP_EQ);
	i->pd = 0;
	i->a = 0;
	i->b = vb_lit(b, 0);
	i = vb_bra(b, head + 5, head + 5);		/* 2: @p0 leave */
	i->guard = 0;
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 1, 0, vb_lit(b, 3));	/* 3 */
	vb_op3(b, VISA_OP_SUB, VISA_T_U32, 0, 0, vb_lit(b, 1));	/* 4 */
	vb_bra(b, head, head + 5);			/* 5 - 1: again */
	vb_param_elem(b, 2, 0, 1);				/* reads r1 */
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 2, 0, 1);
	vb_exit(b);
	vb_end_func(b, 4, 1, 0);
	vb_kernel(b, "loop", k, 8, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "load the loop kernel");
		return;
	}
	fn = &m.mod->funcs[0];
	tap_ok(&t, !fn->zero_all && fn->nzero_runs == 1 &&
	       fn->zero_runs[0].start == 1 && fn->zero_runs[0].count == 1,
	       "a row written only inside a loop is zeroed (r1), the loop's "
	       "counter is not");
	tg_unload(&m);
}

/* shfl reads other lanes' rows: the function zeroes all of them. */
static void test_cross_lane(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	const struct mfunc *fn;
	struct visa_insn *i;
	uint32_t k;

	k = vb_func(b, "xl", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	i = vb_op(b, VISA_OP_SHFL, VISA_T_B32);
	i->mod = VISA_MOD_MKSUB(VISA_SHFL_BFLY);
	i->d = 1;
	i->a = 0;
	i->b = vb_lit(b, 1);
	i->c = vb_lit(b, 0x1f);
	i->e = vb_lit(b, 0xffffffffu);
	vb_param_elem(b, 2, 0, 0);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 2, 0, 1);
	vb_exit(b);
	vb_end_func(b, 4, 0, 0);
	vb_kernel(b, "xl", k, 8, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "load the shfl kernel");
		return;
	}
	fn = &m.mod->funcs[0];
	tap_ok(&t, fn->zero_all,
	       "a function with shfl zeroes every row (lanes read each "
	       "other's registers)");
	tg_unload(&m);
}

int main(void)
{
	tap_plan(4);
	/* one SM: the blocks reuse its pooled warps */
	if (tg_init(&gpu, 1)) {
		printf("Bail out! cannot create the core\n");
		return 1;
	}
	test_read_before_write();
	test_loop();
	test_cross_lane();
	tg_fini(&gpu);
	return tap_done(&t);
}
