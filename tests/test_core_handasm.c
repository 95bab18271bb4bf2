// SPDX-License-Identifier: GPL-2.0
/*
 * test_core_handasm.c - the execution core on vISA assembled by hand.
 *
 * Each test builds a small kernel with the builder, runs it on the core
 * with the test page table, and checks the results against C.  They cover
 * what the core must get right independently of the compiler: addressing,
 * divergence and reconvergence (nested, loops with break/continue),
 * barriers with exited threads, shared memory, recursion through the call
 * convention, shuffles, atomics across SMs, printf, precise faults, barrier
 * deadlock, the stop request, 4 KiB (GART) pages and the validator.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"

#define NONE VISA_OPND_NONE

static struct test_gpu gpu;
static struct tap t;

static struct visa_insn *setp(struct vb *b, uint8_t ty, unsigned int cmp,
			      uint16_t p, uint16_t a, uint16_t bb)
{
	struct visa_insn *i = vb_op(b, VISA_OP_SETP, ty);

	i->mod = VISA_MOD_MKSUB(cmp);
	i->pd = p;
	i->a = a;
	i->b = bb;
	return i;
}

static int run1d(struct tg_module *m, const char *name, uint32_t blocks,
		 uint32_t threads, const void *params, uint32_t psize,
		 struct vgpu_core_fault *f)
{
	uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { threads, 1, 1 };

	return tg_launch(&gpu, m, name, grid, block, 0, params, psize, f);
}

/* out[i] = a[i] + b[i] for i < n, with buffers on @page-sized pages. */
static void test_vadd(uint64_t page)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint32_t n = 10000, bad = 0;
	uint64_t pa = tg_alloc_perm(&gpu, n * 4, page, 3);
	uint64_t pb = tg_alloc_perm(&gpu, n * 4, page, 3);
	uint64_t po = tg_alloc_perm(&gpu, n * 4, page, 3);
	uint32_t *a = tg_host(&gpu, pa), *bb = tg_host(&gpu, pb);
	uint32_t *o = tg_host(&gpu, po);
	uint64_t params[4] = { pa, pb, po, n };
	struct visa_insn *i;
	uint32_t fn;

	fn = vb_func(b, "vadd", VISA_FUNC_KERNEL);
	vb_global_tid(b, 0);
	vb_ld_param(b, VISA_T_U32, 3, 24);
	setp(b, VISA_T_U32, VISA_CMP_GE, 0, 0, 3);
	i = vb_exit(b);
	i->guard = 0;
	vb_param_elem(b, 4, 0, 0);
	vb_param_elem(b, 6, 8, 0);
	vb_param_elem(b, 8, 16, 0);
	vb_ld(b, VISA_SPACE_GLOBAL, VISA_T_U32, 10, 4, 0);
	vb_ld(b, VISA_SPACE_GLOBAL, VISA_T_U32, 11, 6, 0);
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 12, 10, 11);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 8, 0, 12);
	vb_exit(b);
	vb_end_func(b, 13, 1, 0);
	vb_kernel(b, "vadd", fn, 32, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "vadd (%llu-byte pages)", (unsigned long long)page);
		return;
	}
	for (uint32_t k = 0; k < n; k++) {
		a[k] = k * 3;
		bb[k] = 1000000 - k;
	}
	if (run1d(&m, "vadd", (n + 127) / 128, 128, params, 32, &f) != 0)
		tap_diag("fault: %s", f.message);
	for (uint32_t k = 0; k < n; k++)
		bad += o[k] != k * 3 + 1000000 - k;
	tap_ok(&t, bad == 0, "vadd over %u threads (%llu-byte pages)", n,
	       (unsigned long long)page);
	tg_unload(&m);
}

/* Nested if/else: reconvergence points from post-dominators. */
static void test_divergence(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t po = tg_alloc(&gpu, 256 * 4);
	uint32_t *o = tg_host(&gpu, po), bad = 0;
	uint32_t fn, br_else, br_o2, j_o, j_join;
	struct visa_insn *i;

	fn = vb_func(b, "div", VISA_FUNC_KERNEL);
	vb_global_tid(b, 0);
	vb_op3(b, VISA_OP_AND, VISA_T_U32, 3, 0, vb_lit(b, 1));
	setp(b, VISA_T_U32, VISA_CMP_EQ, 0, 3, vb_lit(b, 0));
	br_else = vb_pc(b);
	vb_bra(b, 0, 0)->guard = 0;
	/* odd: nested if (tid & 2) */
	vb_op3(b, VISA_OP_AND, VISA_T_U32, 4, 0, vb_lit(b, 2));
	setp(b, VISA_T_U32, VISA_CMP_EQ, 1, 4, vb_lit(b, 0));
	br_o2 = vb_pc(b);
	vb_bra(b, 0, 0)->guard = 1;
	vb_op3(b, VISA_OP_MUL, VISA_T_U32, 5, 0, vb_lit(b, 2));
	j_o = vb_pc(b);
	vb_bra(b, 0, 0);
	vb_at(b, br_o2)->imm = VISA_BRA_IMM(vb_pc(b), 0);	/* patched below */
	vb_op3(b, VISA_OP_MUL, VISA_T_U32, 5, 0, vb_lit(b, 5));
	{
		uint32_t oj = vb_pc(b);

		vb_at(b, br_o2)->imm = VISA_BRA_IMM(oj - 1, oj);
		vb_at(b, j_o)->imm = VISA_BRA_IMM(oj, 0);
	}
	j_join = vb_pc(b);
	vb_bra(b, 0, 0);
	vb_at(b, br_else)->imm = VISA_BRA_IMM(vb_pc(b), 0);
	vb_op3(b, VISA_OP_MUL, VISA_T_U32, 5, 0, vb_lit(b, 3));
	{
		uint32_t join = vb_pc(b);

		vb_at(b, br_else)->imm = VISA_BRA_IMM(join - 1, join);
		vb_at(b, j_join)->imm = VISA_BRA_IMM(join, 0);
	}
	i = vb_op3(b, VISA_OP_ADD, VISA_T_U32, 6, 5, vb_lit(b, 1));
	vb_param_elem(b, 7, 0, 0);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 7, 0, 6);
	vb_exit(b);
	vb_end_func(b, 9, 2, 0);
	vb_kernel(b, "div", fn, 8, 0);
	(void)i;
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "div", 2, 128, &po, 8, &f)) {
		tap_ok(&t, 0, "nested divergence");
		return;
	}
	for (uint32_t k = 0; k < 256; k++) {
		uint32_t want = (k & 1) ? ((k & 2) ? 2 * k : 5 * k) : 3 * k;

		bad += o[k] != want + 1;
	}
	tap_ok(&t, bad == 0, "nested if/else reconverges (%u wrong)", bad);
	tg_unload(&m);
}

/* for (i = 0;; i++) { if (i == t % 7) break; if (i & 1) continue; s += i; } */
static void test_loop_break_continue(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t po = tg_alloc(&gpu, 64 * 4);
	uint32_t *o = tg_host(&gpu, po), bad = 0;
	uint32_t fn, loop, brk, cont_br, cont, end;
	struct visa_insn *i;

	fn = vb_func(b, "loop", VISA_FUNC_KERNEL);
	vb_global_tid(b, 0);
	vb_op3(b, VISA_OP_REM, VISA_T_U32, 3, 0, vb_lit(b, 7));
	vb_op3(b, VISA_OP_MOV, VISA_T_U32, 4, vb_lit(b, 0), NONE);
	vb_op3(b, VISA_OP_MOV, VISA_T_U32, 5, vb_lit(b, 0), NONE);
	loop = vb_pc(b);
	setp(b, VISA_T_U32, VISA_CMP_EQ, 0, 5, 3);
	brk = vb_pc(b);
	vb_bra(b, 0, 0)->guard = 0;
	vb_op3(b, VISA_OP_AND, VISA_T_U32, 6, 5, vb_lit(b, 1));
	setp(b, VISA_T_U32, VISA_CMP_NE, 1, 6, vb_lit(b, 0));
	cont_br = vb_pc(b);
	vb_bra(b, 0, 0)->guard = 1;
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 4, 4, 5);
	cont = vb_pc(b);
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 5, 5, vb_lit(b, 1));
	vb_bra(b, loop, 0);
	end = vb_pc(b);
	vb_at(b, brk)->imm = VISA_BRA_IMM(end, end);
	vb_at(b, cont_br)->imm = VISA_BRA_IMM(cont, cont);
	i = vb_op3(b, VISA_OP_MAD, VISA_T_U32, 7, 4, vb_lit(b, 100));
	i->c = 5;
	vb_param_elem(b, 8, 0, 0);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 8, 0, 7);
	vb_exit(b);
	vb_end_func(b, 10, 2, 0);
	vb_kernel(b, "loop", fn, 8, 0);
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "loop", 1, 64, &po, 8, &f)) {
		tap_ok(&t, 0, "loop with break and continue");
		return;
	}
	for (uint32_t k = 0; k < 64; k++) {
		uint32_t s = 0, n;

		for (n = 0;; n++) {
			if (n == k % 7)
				break;
			if (n & 1)
				continue;
			s += n;
		}
		bad += o[k] != s * 100 + n;
	}
	tap_ok(&t, bad == 0, "divergent loop with break and continue");
	tg_unload(&m);
}

/* smem[t] = in[t]; bar.sync; out[t] = smem[63 - t]; threads >= @live exit
 * before the barrier and must not hold it up. */
static void test_shared_barrier(uint32_t live)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t pi = tg_alloc(&gpu, 64 * 4), po = tg_alloc(&gpu, 64 * 4);
	uint32_t *in = tg_host(&gpu, pi), *o = tg_host(&gpu, po), bad = 0;
	uint64_t params[2] = { pi, po };
	uint32_t fn;
	struct visa_insn *i;

	fn = vb_func(b, "rev", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	setp(b, VISA_T_U32, VISA_CMP_GE, 0, 0, vb_lit(b, live));
	vb_exit(b)->guard = 0;
	vb_param_elem(b, 1, 0, 0);
	vb_ld(b, VISA_SPACE_GLOBAL, VISA_T_U32, 3, 1, 0);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 4, 0, vb_lit(b, 4));
	vb_st(b, VISA_SPACE_SHARED, VISA_T_U32, 4, 0, 3);
	i = vb_op(b, VISA_OP_BAR, VISA_T_NONE);
	i->a = vb_lit(b, 0);
	vb_op3(b, VISA_OP_SUB, VISA_T_U32, 5, vb_lit(b, 63), 0);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 6, 5, vb_lit(b, 4));
	vb_ld(b, VISA_SPACE_SHARED, VISA_T_U32, 7, 6, 0);
	vb_param_elem(b, 8, 8, 0);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 8, 0, 7);
	vb_exit(b);
	vb_end_func(b, 10, 1, 0);
	vb_kernel(b, "rev", fn, 16, 256);
	for (uint32_t k = 0; k < 64; k++) {
		in[k] = k * 7 + 1;
		o[k] = 0;
	}
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "rev", 1, 64, params, 16, &f)) {
		tap_ok(&t, 0, "shared memory and barrier (%u live): %s", live,
		       f.message);
		return;
	}
	/* thread k read smem[63 - k], written only if thread 63 - k lived */
	for (uint32_t k = 0; k < live; k++)
		if (63 - k < live)
			bad += o[k] != (63 - k) * 7 + 1;
	tap_ok(&t, bad == 0, "shared memory reversal across a barrier, %u of "
	       "64 threads live", live);
	tg_unload(&m);
}

/* fib(n) by recursion through the local-frame call convention. */
static void test_recursion(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t po = tg_alloc(&gpu, 64 * 4);
	uint32_t *o = tg_host(&gpu, po), bad = 0;
	uint32_t kfn, fib, br;
	struct visa_insn *i;
	static const uint32_t fibs[] = { 0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55,
					 89 };

	/* function 0: the kernel; function 1: fib (frame 16: n, result) */
	kfn = vb_func(b, "fibk", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_op3(b, VISA_OP_REM, VISA_T_U32, 1, 0, vb_lit(b, 12));
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U32, NONE, 16, 1);
	vb_op(b, VISA_OP_CALL, VISA_T_NONE)->imm = 1;
	vb_ld(b, VISA_SPACE_LOCAL, VISA_T_U32, 2, NONE, 20);
	vb_param_elem(b, 3, 0, 0);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 3, 0, 2);
	vb_exit(b);
	vb_end_func(b, 5, 0, 16);

	fib = vb_func(b, "fib", VISA_FUNC_RECURSIVE);
	vb_ld(b, VISA_SPACE_LOCAL, VISA_T_U32, 0, NONE, 0);
	setp(b, VISA_T_U32, VISA_CMP_LT, 0, 0, vb_lit(b, 2));
	br = vb_pc(b);
	vb_bra(b, 0, VISA_RECONV_EXIT)->guard = 0;
	vb_op3(b, VISA_OP_SUB, VISA_T_U32, 1, 0, vb_lit(b, 1));
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U32, NONE, 16, 1);
	vb_op(b, VISA_OP_CALL, VISA_T_NONE)->imm = fib;
	vb_ld(b, VISA_SPACE_LOCAL, VISA_T_U32, 2, NONE, 20);
	vb_op3(b, VISA_OP_SUB, VISA_T_U32, 1, 0, vb_lit(b, 2));
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U32, NONE, 16, 1);
	vb_op(b, VISA_OP_CALL, VISA_T_NONE)->imm = fib;
	vb_ld(b, VISA_SPACE_LOCAL, VISA_T_U32, 3, NONE, 20);
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 4, 2, 3);
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U32, NONE, 4, 4);
	vb_op(b, VISA_OP_RET, VISA_T_NONE);
	vb_at(b, br)->imm = VISA_BRA_IMM(vb_pc(b), VISA_RECONV_EXIT);
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U32, NONE, 4, 0);
	i = vb_op(b, VISA_OP_RET, VISA_T_NONE);
	(void)i;
	vb_end_func(b, 5, 1, 16);
	vb_kernel(b, "fibk", kfn, 8, 0)->flags = VISA_KERNEL_RECURSIVE;
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "fibk", 1, 64, &po, 8, &f)) {
		tap_ok(&t, 0, "divergent recursion: %s", f.message);
		return;
	}
	for (uint32_t k = 0; k < 64; k++)
		bad += o[k] != fibs[k % 12];
	tap_ok(&t, bad == 0, "divergent recursion (fib) through local frames");
	tg_unload(&m);
}

/* A butterfly shuffle reduction: every lane ends with its warp's sum. */
static void test_shfl(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t po = tg_alloc(&gpu, 128 * 4);
	uint32_t *o = tg_host(&gpu, po), bad = 0;
	uint32_t fn;

	fn = vb_func(b, "red", VISA_FUNC_KERNEL);
	vb_global_tid(b, 0);
	vb_op3(b, VISA_OP_MOV, VISA_T_U32, 3, 0, NONE);
	for (uint32_t off = 16; off; off /= 2) {
		struct visa_insn *i = vb_op(b, VISA_OP_SHFL, VISA_T_B32);

		i->mod = VISA_MOD_MKSUB(VISA_SHFL_BFLY);
		i->d = 4;
		i->a = 3;
		i->b = vb_lit(b, off);
		i->c = vb_lit(b, 0x1f);
		i->e = vb_lit(b, 0xffffffffu);
		vb_op3(b, VISA_OP_ADD, VISA_T_U32, 3, 3, 4);
	}
	vb_param_elem(b, 5, 0, 0);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 5, 0, 3);
	vb_exit(b);
	vb_end_func(b, 7, 0, 0);
	vb_kernel(b, "red", fn, 8, 0);
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "red", 1, 128, &po, 8, &f)) {
		tap_ok(&t, 0, "shuffle reduction");
		return;
	}
	for (uint32_t k = 0; k < 128; k++) {
		uint32_t w = k / 32, want = 0;

		for (uint32_t j = 0; j < 32; j++)
			want += w * 32 + j;
		bad += o[k] != want;
	}
	tap_ok(&t, bad == 0, "shfl.bfly reduction gives every lane the sum");
	tg_unload(&m);
}

/* 64 blocks x 256 threads increment one counter on 4 SM threads. */
static void test_atomics(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t pc = tg_alloc(&gpu, 16);
	uint32_t *c = tg_host(&gpu, pc);
	uint32_t fn;
	struct visa_insn *i;

	fn = vb_func(b, "cnt", VISA_FUNC_KERNEL);
	vb_ld_param(b, VISA_T_U64, 0, 0);
	i = vb_op(b, VISA_OP_RED, VISA_T_U32);
	i->type2 = VISA_SPACE_GLOBAL;
	i->mod = VISA_MOD_MKSUB(VISA_ATOM_ADD);
	i->a = 0;
	i->b = vb_lit(b, 1);
	i = vb_op(b, VISA_OP_ATOM, VISA_T_U32);
	i->type2 = VISA_SPACE_GLOBAL;
	i->mod = VISA_MOD_MKSUB(VISA_ATOM_MAX);
	i->d = 1;
	i->a = 0;
	i->imm = 4;
	i->b = vb_lit(b, 7);
	vb_exit(b);
	vb_end_func(b, 2, 0, 0);
	vb_kernel(b, "cnt", fn, 8, 0);
	c[0] = c[1] = 0;
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "cnt", 64, 256, &pc, 8, &f)) {
		tap_ok(&t, 0, "atomics");
		return;
	}
	tap_ok(&t, c[0] == 64 * 256 && c[1] == 7,
	       "global atomics are atomic across SM threads (%u)", c[0]);

	/* A page without VGPU_CORE_PERM_ATOMIC (VGPU_MAP_NO_ATOMIC): RED
	 * faults on it, and nothing is written; loads and stores are fine. */
	{
		uint64_t na = tg_alloc_perm(&gpu, 4096, 4096,
					    VGPU_CORE_PERM_READ |
					    VGPU_CORE_PERM_WRITE);
		uint32_t *h = tg_host(&gpu, na);
		int r;

		h[0] = h[1] = 5;
		r = run1d(&m, "cnt", 1, 32, &na, 8, &f);
		tap_ok(&t, r == 1 && f.kind == VISA_FAULT_PERMISSION &&
		       f.address == na && h[0] == 5 && h[1] == 5,
		       "atomics on a page without the atomic permission fault "
		       "(kind %u)", f.kind);
	}
	tg_unload(&m);
}

/* printf("tid=%d s=%s\n", tid, "abc") from two threads. */
static void test_printf(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	static const char fmt[] = "tid=%d s=%s\n", s[] = "abc";
	uint64_t fo, so;
	uint32_t fn, dropped = 0;
	struct visa_insn *i;
	char *out;

	fo = vb_global(b, fmt, sizeof(fmt), 8);
	so = vb_global(b, s, sizeof(s), 8);
	fn = vb_func(b, "pr", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U32, NONE, 0, 0);
	i = vb_op(b, VISA_OP_MOVA, VISA_T_U64);
	i->type2 = VISA_SPACE_GLOBAL;
	i->d = 1;
	i->imm = so;
	vb_st(b, VISA_SPACE_LOCAL, VISA_T_U64, NONE, 8, 1);
	i = vb_op(b, VISA_OP_MOVA, VISA_T_U64);
	i->type2 = VISA_SPACE_GLOBAL;
	i->d = 2;
	i->imm = fo;
	i = vb_op(b, VISA_OP_MOVA, VISA_T_U64);
	i->type2 = VISA_SPACE_LOCAL;
	i->d = 3;
	i = vb_op(b, VISA_OP_CVTA, VISA_T_U64);
	i->type2 = VISA_SPACE_LOCAL;
	i->mod = VISA_MOD_TO_GENERIC;
	i->d = 3;
	i->a = 3;
	i = vb_op(b, VISA_OP_VPRINTF, VISA_T_NONE);
	i->d = 4;
	i->a = 2;
	i->b = 3;
	vb_exit(b);
	vb_end_func(b, 5, 0, 16);
	vb_kernel(b, "pr", fn, 0, 0)->flags = VISA_KERNEL_USES_PRINTF;
	if (tg_load_vb(&gpu, b, &m) || run1d(&m, "pr", 1, 2, NULL, 0, &f)) {
		tap_ok(&t, 0, "printf: %s", f.message);
		return;
	}
	out = tg_printf_output(&gpu, &dropped);
	tap_ok(&t, out && !strcmp(out, "tid=0 s=abc\ntid=1 s=abc\n") &&
	       !dropped, "device printf through the FIFO");
	free(out);

	/* A FIFO with room for 3 records (56 bytes each): the rest are
	 * dropped and counted, nothing is written past its end. */
	{
		struct visa_printf_fifo *fifo = tg_host(&gpu, gpu.printf_fifo);
		uint64_t cap = fifo->capacity;
		uint8_t *after = (uint8_t *)(fifo + 1) + 200;
		int lines = 0;

		fifo->capacity = 200;
		memset(after, 0x5a, 64);
		if (run1d(&m, "pr", 1, 10, NULL, 0, &f))
			tap_diag("fault: %s", f.message);
		out = tg_printf_output(&gpu, &dropped);
		for (char *c = out; c && *c; c++)
			lines += *c == '\n';
		tap_ok(&t, lines == 3 && dropped == 7 && after[0] == 0x5a &&
		       after[63] == 0x5a, "printf respects the FIFO size: %d "
		       "printed, %u dropped", lines, dropped);
		free(out);
		fifo->capacity = cap;
	}
	tg_unload(&m);
}

/* A store to an unmapped address faults precisely. */
static void test_faults(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t ro = tg_alloc_perm(&gpu, 4096, 4096, VGPU_CORE_PERM_READ);
	uint64_t ok = tg_alloc(&gpu, 4096);
	uint64_t params[2];
	uint32_t fn, st_pc;
	int r;

	fn = vb_func(b, "bad", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	setp(b, VISA_T_U32, VISA_CMP_EQ, 0, 0, vb_lit(b, 37));
	vb_ld_param(b, VISA_T_U64, 1, 0);
	vb_ld_param(b, VISA_T_U64, 2, 8);
	vb_op(b, VISA_OP_SELP, VISA_T_U64)->d = 3;
	vb_at(b, vb_pc(b) - 1)->a = 1;
	vb_at(b, vb_pc(b) - 1)->b = 2;
	vb_at(b, vb_pc(b) - 1)->pa = 0;
	st_pc = vb_pc(b);
	vb_line(b, st_pc, "bad.ptx", 42);
	vb_st(b, VISA_SPACE_GLOBAL, VISA_T_U32, 3, 0, 0);
	vb_line(b, st_pc + 1, "bad.ptx", 43);
	vb_exit(b);
	vb_end_func(b, 4, 1, 0);
	vb_kernel(b, "bad", fn, 16, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "faults");
		return;
	}
	/* thread 37 stores to 0x10: unmapped */
	params[0] = 0x10;
	params[1] = ok;
	r = run1d(&m, "bad", 2, 64, params, 16, &f);
	if (r != 1)
		tap_diag("launch returned %d: kind %u %s", r, f.kind, f.message);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_UNMAPPED &&
	       f.address == 0x10 && f.thread[0] == 37 && f.pc == st_pc &&
	       f.line == 42 && !strcmp(f.file, "bad.ptx"),
	       "unmapped store: precise fault (kind %u thread %u line %u)",
	       f.kind, f.thread[0], f.line);
	params[0] = ok + 2;
	r = run1d(&m, "bad", 1, 64, params, 16, &f);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_MISALIGNED &&
	       f.address == ok + 2, "misaligned store faults");
	params[0] = ro;
	r = run1d(&m, "bad", 1, 64, params, 16, &f);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_PERMISSION,
	       "store to a read-only page faults");
	params[0] = ok;
	r = run1d(&m, "bad", 1, 64, params, 16, &f);
	tap_ok(&t, r == 0, "the same kernel runs after faults");
	/* Another context's page table (here: the page unmapped) must not
	 * be served from the TLB filled by the previous launch. */
	{
		unsigned int i = 0;

		while (i < gpu.nmaps && gpu.maps[i].va != ok)
			i++;
		gpu.maps[i].va ^= 1ull << 40;	/* unmap it */
		r = run1d(&m, "bad", 4, 64, params, 16, &f);
		gpu.maps[i].va ^= 1ull << 40;
		tap_ok(&t, r == 1 && f.kind == VISA_FAULT_UNMAPPED &&
		       f.address == ok, "TLBs do not outlive a launch: an "
		       "unmapped page faults (kind %u)", f.kind);
	}
	tg_unload(&m);
}

/* Warp 0 waits on barrier 1, warp 1 on barrier 2: deadlock. */
static void test_deadlock_and_trap(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint32_t fn, fn2, br;
	struct visa_insn *i;
	int r;

	fn = vb_func(b, "dl", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_WARPID);
	setp(b, VISA_T_U32, VISA_CMP_EQ, 0, 0, vb_lit(b, 0));
	br = vb_pc(b);
	vb_bra(b, 0, VISA_RECONV_EXIT)->guard = 0;
	i = vb_op(b, VISA_OP_BAR, VISA_T_NONE);
	i->a = vb_lit(b, 2);
	vb_exit(b);
	vb_at(b, br)->imm = VISA_BRA_IMM(vb_pc(b), VISA_RECONV_EXIT);
	i = vb_op(b, VISA_OP_BAR, VISA_T_NONE);
	i->a = vb_lit(b, 1);
	vb_exit(b);
	vb_end_func(b, 1, 1, 0);
	vb_kernel(b, "dl", fn, 0, 0);
	fn2 = vb_func(b, "tr", VISA_FUNC_KERNEL);
	vb_op(b, VISA_OP_TRAP, VISA_T_NONE);
	vb_end_func(b, 0, 0, 0);
	vb_kernel(b, "tr", fn2, 0, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "deadlock");
		return;
	}
	r = run1d(&m, "dl", 3, 64, NULL, 0, &f);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_BARRIER_DEADLOCK,
	       "barrier deadlock is detected");
	r = run1d(&m, "tr", 3, 64, NULL, 0, &f);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_TRAP, "trap faults the grid");
	tg_unload(&m);
}

static bool stop_other, stop_this;

/* The watchdog: a stop for another grid id misses, one for this hits. */
static void *stopper(void *arg)
{
	usleep(100 * 1000);
	stop_other = vgpu_core_stop_grid(arg, 999);
	stop_this = vgpu_core_stop_grid(arg, 0);
	return NULL;
}

static void test_stop(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	pthread_t th;
	struct timespec t0, t1;
	uint32_t fn;
	int r;

	fn = vb_func(b, "spin", VISA_FUNC_KERNEL);
	vb_bra(b, 0, 0);
	vb_end_func(b, 0, 0, 0);
	vb_kernel(b, "spin", fn, 0, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "stop");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&th, NULL, stopper, gpu.core);
	r = run1d(&m, "spin", 100, 256, NULL, 0, &f);
	pthread_join(th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_ok(&t, r == 1 && f.kind == VISA_FAULT_STOPPED && !stop_other &&
	       stop_this && (t1.tv_sec - t0.tv_sec) < 5,
	       "an endless kernel stops on request for its grid id only");
	tg_unload(&m);
}

/* Images the validator must refuse. */
static void test_validator(void)
{
	struct { const char *what; int kind; } cases[] = {
		{ "register beyond num_regs", 0 },
		{ "branch outside the function", 1 },
		{ "literal destination", 2 },
		{ "missing terminator", 3 },
		{ "unknown opcode", 4 },
		{ "call of a missing function", 5 },
		{ "type pred on arithmetic", 6 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct vb *b = vb_new();
		struct vgpu_module *mod = NULL;
		struct visa_insn *i;
		char err[200] = "";
		size_t size;
		void *img;
		int r;

		vb_func(b, "k", VISA_FUNC_KERNEL);
		i = vb_op3(b, VISA_OP_ADD, VISA_T_U32, 0, 1, 1);
		switch (cases[c].kind) {
		case 0: i->a = 9; break;
		case 1: vb_bra(b, 100, 0); break;
		case 2: i->d = vb_lit(b, 3); break;
		case 4: i->op = 250; break;
		case 5: vb_op(b, VISA_OP_CALL, 0)->imm = 7; break;
		case 6: i->type = VISA_T_PRED; i->a = 1; i->b = 1; break;
		}
		if (cases[c].kind != 3)
			vb_exit(b);
		vb_end_func(b, 2, 0, 0);
		vb_kernel(b, "k", 0, 0, 0);
		img = vb_finish(b, &size);
		r = vgpu_core_module_load(img, size, &mod, err, sizeof(err));
		tap_ok(&t, r == -22 && !mod && err[0], "validator rejects %s "
		       "(%s)", cases[c].what, err);
		free(img);
		vb_free(b);
	}
	{
		uint64_t junk[8] = { 0x1234 };
		struct vgpu_module *mod = NULL;
		char err[100];

		tap_ok(&t, vgpu_core_module_load(junk, sizeof(junk), &mod, err,
						 sizeof(err)) == -22,
		       "validator rejects a bad magic");
	}
}

int main(void)
{
	tap_plan(28);
	if (tg_init(&gpu, 4)) {
		printf("Bail out! cannot create the core\n");
		return 1;
	}
	test_vadd(65536);
	test_vadd(4096);
	test_divergence();
	test_loop_break_continue();
	test_shared_barrier(64);
	test_shared_barrier(40);
	test_shared_barrier(32);
	test_recursion();
	test_shfl();
	test_atomics();
	test_printf();
	test_faults();
	test_deadlock_and_trap();
	test_stop();
	test_validator();
	tg_fini(&gpu);
	return tap_done(&t);
}
