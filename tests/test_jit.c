// SPDX-License-Identifier: GPL-2.0
/*
 * test_jit.c - the native tier (firmware_sim/jit/) itself: the tier
 * setting, quantum boundaries that must fall on the same instruction as
 * in the interpreter, partial masks and guards in straight-line code,
 * the background compiler of the firmware, unloading a module whose
 * functions are still queued for it or being translated, the size
 * limit, instructions it leaves to the interpreter (every opcode it was
 * not written for), and the cache of native code between runs.
 *
 * Every launch also runs on both tiers and is compared to the byte by
 * test_gpu.c; the checks here are against C.
 */
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core_internal.h"
#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"
#include "vgpu_jit.h"

#define NONE	VISA_OPND_NONE
#define ITERS	600	/* loop iterations of a lane: > one quantum */

static struct test_gpu gpu;
static struct tap t;

static void test_tier_names(void)
{
	tap_ok(&t, vgpu_jit_parse_tier("interp") == VGPU_TIER_INTERP &&
	       vgpu_jit_parse_tier("native") == VGPU_TIER_NATIVE &&
	       vgpu_jit_parse_tier("jit") < 0 && vgpu_jit_parse_tier("") < 0 &&
	       vgpu_jit_parse_tier(NULL) < 0 &&
	       !strcmp(vgpu_jit_tier_name(VGPU_TIER_NATIVE), "native"),
	       "tier names: interp and native, nothing else");
}

/*
 * Two warps of one block take tickets from one global counter, ITERS
 * each per lane, and write down which ticket each iteration got:
 *
 *	out[1 + tid * ITERS + k] = atomicAdd(&out[0], 1)
 *
 * Which tickets a warp gets depends on where the scheduler switched
 * warps, i.e. on the quantum boundaries: the comparison of the tiers in
 * test_gpu.c fails unless the native code yields at exactly the
 * interpreter's instruction.
 */
static struct vb *ticket_kernel(void)
{
	struct vb *b = vb_new();
	struct visa_insn *i;
	uint32_t loop;

	vb_func(b, "tickets", VISA_FUNC_KERNEL);
	vb_ld_param(b, VISA_T_U64, 0, 0);		/* r0 = out */
	vb_sreg(b, 1, VISA_SREG_TID_X);			/* r1 = tid */
	vb_op3(b, VISA_OP_MUL, VISA_T_U32, 2, 1, vb_lit(b, ITERS));
	vb_op3(b, VISA_OP_MOV, VISA_T_U32, 3, vb_lit(b, 0), NONE);	/* k */
	loop = vb_pc(b);
	i = vb_op(b, VISA_OP_ATOM, VISA_T_U32);		/* r4 = ticket */
	i->type2 = VISA_SPACE_GLOBAL;
	i->mod = VISA_MOD_MKSUB(VISA_ATOM_ADD);
	i->d = 4;
	i->a = 0;
	i->b = vb_lit(b, 1);
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 5, 2, 3);	/* tid * ITERS + k */
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 6, 5, vb_lit(b, 4));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 6, 0, 6);
	i = vb_op(b, VISA_OP_ST, VISA_T_U32);
	i->type2 = VISA_SPACE_GLOBAL;
	i->a = 6;
	i->imm = 4;
	i->b = 4;
	vb_op3(b, VISA_OP_ADD, VISA_T_U32, 3, 3, vb_lit(b, 1));
	i = vb_op3(b, VISA_OP_SETP, VISA_T_U32, NONE, 3, vb_lit(b, ITERS));
	i->mod = VISA_MOD_MKSUB(VISA_CMP_LT);
	i->pd = 0;
	i = vb_bra(b, loop, vb_pc(b) + 1);
	i->guard = 0;
	vb_exit(b);
	vb_end_func(b, 7, 1, 0);
	vb_kernel(b, "tickets", 0, 8, 0);
	return b;
}

static void test_quantum(void)
{
	const uint32_t threads = 64;
	size_t n = 1 + (size_t)threads * ITERS;
	uint64_t out = tg_alloc(&gpu, n * 4);
	uint32_t *o = tg_host(&gpu, out);
	struct vgpu_core_fault f;
	struct tg_module m;
	bool unique = true, interleaved = false;
	uint8_t *seen;
	int r;

	if (!o || tg_load_vb(&gpu, ticket_kernel(), &m)) {
		tap_ok(&t, 0, "quantum boundaries");
		return;
	}
	r = tg_launch(&gpu, &m, "tickets", (uint32_t[3]){ 1, 1, 1 },
		      (uint32_t[3]){ threads, 1, 1 }, 0, &out, 8, &f);
	seen = calloc(n, 1);
	for (size_t i = 1; seen && i < n; i++) {
		if (o[i] >= n - 1 || seen[o[i]])
			unique = false;
		else
			seen[o[i]] = 1;
	}
	/* warp 1 got tickets before warp 0 was done: the warps switched */
	for (uint32_t k = 0; k < ITERS; k++)
		if (o[1 + 32 * ITERS + k] < o[1 + 31 * ITERS + ITERS - 1])
			interleaved = true;
	tap_ok(&t, r == 0 && seen && unique && o[0] == n - 1 && interleaved,
	       "two warps taking tickets switch at quantum boundaries (the "
	       "same on both tiers)");
	free(seen);
	tg_unload(&m);
}

/*
 * Guards and partial masks in one straight-line block: odd lanes exit,
 * then lanes compute under guards; inactive lanes' registers must keep
 * their values (out gets r2 of every lane that reaches the store).
 */
static void test_masks(void)
{
	struct vb *b = vb_new();
	struct visa_insn *i;
	uint64_t out = tg_alloc(&gpu, 32 * 4);
	uint32_t *o = tg_host(&gpu, out);
	struct vgpu_core_fault f;
	struct tg_module m;
	bool ok = true;
	int r;

	vb_func(b, "masks", VISA_FUNC_KERNEL);
	vb_ld_param(b, VISA_T_U64, 0, 0);
	vb_sreg(b, 1, VISA_SREG_TID_X);
	vb_op3(b, VISA_OP_AND, VISA_T_U32, 3, 1, vb_lit(b, 1));
	i = vb_op3(b, VISA_OP_SETP, VISA_T_U32, NONE, 3, vb_lit(b, 0));
	i->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	i->pd = 0;				/* p0: odd lane */
	i = vb_exit(b);
	i->guard = 0;				/* odd lanes leave */
	vb_op3(b, VISA_OP_MOV, VISA_T_U32, 2, vb_lit(b, 100), NONE);
	i = vb_op3(b, VISA_OP_SETP, VISA_T_U32, NONE, 1, vb_lit(b, 8));
	i->mod = VISA_MOD_MKSUB(VISA_CMP_LT);
	i->pd = 1;				/* p1: tid < 8 */
	i = vb_op3(b, VISA_OP_ADD, VISA_T_U32, 2, 2, 1);
	i->guard = 1;				/* r2 = 100 + tid if tid < 8 */
	i = vb_op3(b, VISA_OP_MUL, VISA_T_U32, 2, 2, vb_lit(b, 3));
	i->guard = 1 | VISA_GUARD_NEG;		/* r2 = 300 otherwise */
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 4, 1, vb_lit(b, 4));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 4, 0, 4);
	i = vb_op(b, VISA_OP_ST, VISA_T_U32);
	i->type2 = VISA_SPACE_GLOBAL;
	i->a = 4;
	i->b = 2;
	vb_exit(b);
	vb_end_func(b, 5, 2, 0);
	vb_kernel(b, "masks", 0, 8, 0);
	if (!o || tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "masks");
		return;
	}
	memset(o, 0xee, 32 * 4);
	r = tg_launch(&gpu, &m, "masks", (uint32_t[3]){ 1, 1, 1 },
		      (uint32_t[3]){ 32, 1, 1 }, 0, &out, 8, &f);
	for (uint32_t l = 0; l < 32; l++) {
		uint32_t want = (l & 1) ? 0xeeeeeeeeu : l < 8 ? 100 + l : 300;

		ok &= o[l] == want;
	}
	tap_ok(&t, r == 0 && ok, "guards, exited lanes and partial masks in "
	       "straight-line code");
	tg_unload(&m);
}

/*
 * The firmware's way: functions compile in a background thread while
 * launches run on the interpreter; every launch is right, and the
 * function becomes native.  Then a module is unloaded while its function
 * may still be queued (ASan in the -san twin).
 */
static void test_async(void)
{
	struct vgpu_jit_stats st = { 0 };
	const uint32_t threads = 64;
	size_t n = 1 + (size_t)threads * ITERS;
	uint64_t out = tg_alloc(&gpu, n * 4);
	uint32_t *o = tg_host(&gpu, out);
	struct vgpu_core_fault f;
	struct tg_module m;
	bool all_ok = true;
	int launches = 0;

	vgpu_jit_set_async(true);
	if (!o || tg_load_vb(&gpu, ticket_kernel(), &m)) {
		vgpu_jit_set_async(false);
		tap_ok(&t, 0, "background compilation");
		return;
	}
	/* up to about 60 s on a loaded machine */
	for (int i = 0; i < 6000 && !st.funcs_native; i++) {
		memset(o, 0, n * 4);
		all_ok &= tg_launch(&gpu, &m, "tickets",
				    (uint32_t[3]){ 1, 1, 1 },
				    (uint32_t[3]){ threads, 1, 1 }, 0, &out, 8,
				    &f) == 0 && o[0] == n - 1;
		launches++;
		vgpu_jit_module_stats(m.mod, &st);
		if (!st.funcs_native)
			usleep(10000);
	}
	tg_unload(&m);
	tap_ok(&t, all_ok && st.funcs_native == 1,
	       "the background compiler: %d launch(es) right, then native",
	       launches);

	for (int i = 0; i < 3; i++) {
		if (tg_load_vb(&gpu, ticket_kernel(), &m))
			break;
		memset(o, 0, n * 4);
		all_ok &= tg_launch(&gpu, &m, "tickets",
				    (uint32_t[3]){ 1, 1, 1 },
				    (uint32_t[3]){ threads, 1, 1 }, 0, &out, 8,
				    &f) == 0;
		tg_unload(&m);		/* its function may still be queued */
	}
	vgpu_jit_set_async(false);
	tap_ok(&t, all_ok, "modules unloaded while queued for the compiler");
}

/*
 * vISA of kernel "sum": out[tid] = tid * @adds, by @adds additions, so
 * that translating it takes the compile thread a while.
 */
static struct vb *sum_kernel(int adds)
{
	struct vb *b = vb_new();
	struct visa_insn *i;

	vb_func(b, "sum", VISA_FUNC_KERNEL);
	vb_ld_param(b, VISA_T_U64, 0, 0);
	vb_sreg(b, 1, VISA_SREG_TID_X);
	vb_op3(b, VISA_OP_MOV, VISA_T_U64, 2, vb_lit(b, 0), NONE);
	for (int k = 0; k < adds; k++)
		vb_op3(b, VISA_OP_ADD, VISA_T_U64, 2, 2, 1);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 3, 1, vb_lit(b, 8));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 3, 0, 3);
	i = vb_op(b, VISA_OP_ST, VISA_T_U64);
	i->type2 = VISA_SPACE_GLOBAL;
	i->a = 3;
	i->b = 2;
	vb_exit(b);
	vb_end_func(b, 4, 0, 0);
	vb_kernel(b, "sum", 0, 8, 0);
	return b;
}

/*
 * The firmware's TLB flush frees a module whose function the compile
 * thread may be translating right then: unloading does not wait, the
 * thread frees the module when its translation ends (ASan in the -san
 * twin sees a use after free).  Long functions, unloaded at once after
 * their first launch queued them, make that window wide; each launch is
 * right, and a last module becomes native once the thread is through.
 */
static void test_unload_translating(void)
{
	const int adds = VGPU_JIT_MAX_INSNS - 1000;
	struct vgpu_jit_stats st = { 0 };
	struct vgpu_core_fault f;
	struct tg_module m;
	uint64_t out = tg_alloc(&gpu, 32 * 8);
	uint64_t *o = tg_host(&gpu, out);
	bool ok = o != NULL;

	vgpu_jit_set_async(true);
	/* one run per launch: unloaded while the translation has begun */
	gpu.both_tiers = false;
	/* the unload comes 1 to 32 ms after the launch: some fall into the
	 * translation (the thread runs when a CPU is idle) */
	for (int n = 0; ok && n < 6; n++) {
		if (tg_load_vb(&gpu, sum_kernel(adds), &m)) {
			ok = false;
			break;
		}
		memset(o, 0, 32 * 8);
		ok &= tg_launch(&gpu, &m, "sum", (uint32_t[3]){ 1, 1, 1 },
				(uint32_t[3]){ 32, 1, 1 }, 0, &out, 8, &f) == 0;
		for (uint64_t l = 0; l < 32; l++)
			ok &= o[l] == l * adds;
		usleep(1000u << n);
		tg_unload(&m);
	}
	gpu.both_tiers = true;
	/* the queue is in order: this one is native after the others */
	if (ok && !tg_load_vb(&gpu, sum_kernel(16), &m)) {
		/* up to about 60 s on a loaded machine */
		for (int i = 0; i < 6000 && !st.funcs_native; i++) {
			memset(o, 0, 32 * 8);
			ok &= tg_launch(&gpu, &m, "sum", (uint32_t[3]){ 1, 1, 1 },
					(uint32_t[3]){ 32, 1, 1 }, 0, &out, 8,
					&f) == 0 && o[31] == 31 * 16;
			vgpu_jit_module_stats(m.mod, &st);
			if (!st.funcs_native)
				usleep(10000);
		}
		tg_unload(&m);
	}
	vgpu_jit_set_async(false);
	tap_ok(&t, ok && st.funcs_native == 1,
	       "modules unloaded while the compile thread translates them");
}

/* A function too long to compile runs on the interpreter, and right. */
static void test_too_long(void)
{
	struct vgpu_jit_stats st;
	struct vgpu_core_fault f;
	struct tg_module m;
	uint64_t out = tg_alloc(&gpu, 32 * 8);
	uint64_t *o = tg_host(&gpu, out);
	bool ok = true;
	int r;

	if (!o || tg_load_vb(&gpu, sum_kernel(VGPU_JIT_MAX_INSNS), &m)) {
		tap_ok(&t, 0, "a function too long for the native tier");
		return;
	}
	r = tg_launch(&gpu, &m, "sum", (uint32_t[3]){ 1, 1, 1 },
		      (uint32_t[3]){ 32, 1, 1 }, 0, &out, 8, &f);
	for (uint64_t l = 0; l < 32; l++)
		ok &= o[l] == l * VGPU_JIT_MAX_INSNS;
	vgpu_jit_module_stats(m.mod, &st);
	tap_ok(&t, r == 0 && ok && st.funcs_interp == 1 && !st.funcs_native,
	       "a function of more than %d instructions runs on the "
	       "interpreter", VGPU_JIT_MAX_INSNS);
	tg_unload(&m);
}

/* The translator's choice (translate_alu.c; its header needs LLVM's). */
bool jit_inline_ok(const struct dinsn *in);

/*
 * Other work adds vISA opcodes at the end of the table
 * (include/vgpu_visa_ops.h) without touching the translator: every
 * opcode after the last one it was written for (ASSERTFAIL) must go to
 * the interpreter's handler, whatever its type and modifiers.  Then a
 * kernel whose f64 addition is such a helper instruction runs natively
 * around it, right.
 */
static void test_unknown_ops(void)
{
	struct vgpu_jit_stats st;
	struct vgpu_core_fault f;
	struct tg_module m;
	struct vb *b = vb_new();
	struct visa_insn *i;
	uint64_t out = tg_alloc(&gpu, 32 * 8);
	double *o = tg_host(&gpu, out);
	bool inline_new = false, ok = true;
	struct dinsn in;
	int r;

	for (unsigned int op = VISA_OP_ASSERTFAIL + 1;
	     op <= VISA_OP_ASSERTFAIL + 256; op++)
		for (unsigned int ty = 0; ty < 32; ty++)
			for (unsigned int mod = 0; mod < 4; mod++) {
				memset(&in, 0, sizeof(in));
				in.op = (uint16_t)op;
				in.type = (uint8_t)ty;
				in.mod = mod;
				in.d = in.a = in.b = in.c = in.e = 0;
				inline_new |= jit_inline_ok(&in);
			}
	tap_ok(&t, !inline_new, "opcodes after ASSERTFAIL (%u) are never "
	       "translated inline: they call the interpreter",
	       VISA_OP_ASSERTFAIL);

	vb_func(b, "f64", VISA_FUNC_KERNEL);
	vb_ld_param(b, VISA_T_U64, 0, 0);
	vb_sreg(b, 1, VISA_SREG_TID_X);
	vb_op3(b, VISA_OP_MOV, VISA_T_U64, 2, vb_lit(b, 0x3ff8000000000000ull),
	    NONE);					/* 1.5 */
	vb_op3(b, VISA_OP_ADD, VISA_T_F64, 2, 2, 2);	/* helper */
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 3, 1, vb_lit(b, 8));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 3, 0, 3);
	i = vb_op(b, VISA_OP_ST, VISA_T_U64);
	i->type2 = VISA_SPACE_GLOBAL;
	i->a = 3;
	i->b = 2;
	vb_exit(b);
	vb_end_func(b, 4, 0, 0);
	vb_kernel(b, "f64", 0, 8, 0);
	if (!o || tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "a helper instruction between native blocks");
		return;
	}
	r = tg_launch(&gpu, &m, "f64", (uint32_t[3]){ 1, 1, 1 },
		      (uint32_t[3]){ 32, 1, 1 }, 0, &out, 8, &f);
	for (int l = 0; l < 32; l++)
		ok &= o[l] == 3.0;
	vgpu_jit_module_stats(m.mod, &st);
	tap_ok(&t, r == 0 && ok && st.funcs_native == 1 &&
	       st.insns_helper >= 2,
	       "a helper instruction (f64 add) between native blocks: "
	       "right, %llu via the interpreter",
	       (unsigned long long)st.insns_helper);
	tg_unload(&m);
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Load sum_kernel(@adds), compile it, run it: its statistics. */
static bool cache_round(int adds, struct vgpu_jit_stats *st)
{
	struct vgpu_core_fault f;
	struct tg_module m;
	uint64_t out = tg_alloc(&gpu, 32 * 8);
	uint64_t *o = tg_host(&gpu, out);
	bool ok;

	memset(st, 0, sizeof(*st));
	if (!o || tg_load_vb(&gpu, sum_kernel(adds), &m))
		return false;
	ok = vgpu_jit_module_compile(m.mod, -1) == 1;
	ok &= tg_launch(&gpu, &m, "sum", (uint32_t[3]){ 1, 1, 1 },
			(uint32_t[3]){ 32, 1, 1 }, 0, &out, 8, &f) == 0;
	for (uint64_t l = 0; l < 32; l++)
		ok &= o[l] == l * (uint64_t)adds;
	vgpu_jit_module_stats(m.mod, st);
	tg_unload(&m);
	return ok;
}

/*
 * Native code is kept in the compute cache (CUDA_CACHE_PATH) keyed by
 * the image: the same image loaded again runs the kept code, right; an
 * image that differs compiles; CUDA_CACHE_DISABLE=1 and a size limit
 * smaller than the entry keep nothing.
 */
static void test_cache(void)
{
	char dir[] = "/tmp/vgpu-test-jit-cache-XXXXXX";
	struct vgpu_jit_stats a, b, c, d, e, g;
	bool ok;

	if (!mkdtemp(dir)) {
		tap_ok(&t, 0, "native code cache: a temporary directory");
		return;
	}
	setenv("CUDA_CACHE_PATH", dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	unsetenv("CUDA_CACHE_MAXSIZE");
	ok = cache_round(16, &a) && cache_round(16, &b);
	tap_ok(&t, ok && !a.funcs_cached && b.funcs_cached == 1 &&
	       b.insns_inline == a.insns_inline &&
	       b.insns_helper == a.insns_helper,
	       "native code cache: the second load of an image runs the "
	       "kept code, right (%.1f ms compiled, %.1f ms from the cache)",
	       a.compile_ms, b.compile_ms);
	ok = cache_round(17, &c);
	tap_ok(&t, ok && !c.funcs_cached && c.funcs_native == 1,
	       "native code cache: another image is compiled");
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	ok = cache_round(16, &d);
	tap_ok(&t, ok && !d.funcs_cached && d.funcs_native == 1,
	       "native code cache: CUDA_CACHE_DISABLE=1 loads nothing");
	unsetenv("CUDA_CACHE_DISABLE");
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	mkdir(dir, 0700);
	setenv("CUDA_CACHE_MAXSIZE", "1000", 1);	/* < one entry */
	ok = cache_round(16, &e) && cache_round(16, &g);
	tap_ok(&t, ok && !e.funcs_cached && !g.funcs_cached,
	       "native code cache: an entry over CUDA_CACHE_MAXSIZE is not "
	       "kept");
	unsetenv("CUDA_CACHE_MAXSIZE");
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	/* the other tests compile: they test the compiler */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	unsetenv("CUDA_CACHE_PATH");
}

int main(void)
{
	tap_plan(13);
	/* these tests are about compiling: no native code from the cache */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	if (tg_init(&gpu, 2)) {
		printf("Bail out! core\n");
		return 1;
	}
	test_tier_names();
	test_unknown_ops();
	test_cache();
	test_quantum();
	test_masks();
	test_async();
	test_unload_translating();
	test_too_long();
	tg_fini(&gpu);
	return tap_done(&t);
}
