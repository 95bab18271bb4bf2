// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_codegen - what the compiler generates, checked field by field
 * on small hand-written modules: kernel metadata (parameter layout, shared
 * and local sizes, launch bounds, flags), the calling convention, the
 * reconvergence points of divergent branches, literals, initializers with
 * addresses, line information, and the lowering of a few instructions
 * that expand into several vISA instructions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"

#define H ".version 9.0\n.target sm_75\n.address_size 64\n"

static void *compile_ok(const char *what, const char *text, size_t *size)
{
	char msg[512], why[256];
	void *img = NULL;
	size_t sz = 0;

	if (!t_ok(!t_compile("cg.ptx", text, &img, &sz, msg, sizeof(msg)),
		  "%s compiles", what)) {
		t_diag("%s", msg);
		return NULL;
	}
	if (!t_ok(!t_check_image(img, sz, why, sizeof(why)), "%s: image well-formed", what)) {
		t_diag("%s", why);
	}
	if (size)
		*size = sz;
	return img;
}

static void test_params(void)
{
	static const char src[] = H
		".visible .entry k(.param .u8 a, .param .u64 b,\n"
		"  .param .align 16 .b8 c[20], .param .f32 d)\n"
		".reqntid 32, 4, 1\n.minnctapersm 3\n.maxnreg 40\n"
		"{\n.reg .b32 %r1;\nld.param.f32 %r1, [d];\nret;\n}\n";
	static const uint32_t off[] = { 0, 8, 16, 36 }, sz[] = { 1, 8, 20, 4 };
	static const uint32_t al[] = { 1, 8, 16, 4 };
	void *img = compile_ok("kernel with four parameters", src, NULL);
	const struct visa_kernel *k;
	const struct visa_param *p;
	const struct visa_func *f;
	uint32_t i;
	bool ok = true;

	if (!img)
		return;
	k = t_kernel(img, "k");
	p = t_section(img, VISA_SEC_PARAMS, NULL);
	t_ok(k && k->param_count == 4 && k->param_size == 40,
	     "4 parameters in a 40-byte buffer");
	for (i = 0; k && i < 4; i++)
		ok &= p[k->param_first + i].offset == off[i] &&
		      p[k->param_first + i].size == sz[i] &&
		      p[k->param_first + i].align == al[i];
	t_ok(ok, "parameter offsets 0/8/16/36, sizes and alignments as declared");

	t_ok(k && k->reqntid[0] == 32 && k->reqntid[1] == 4 && k->reqntid[2] == 1 &&
	     k->max_threads == 128 && k->minnctapersm == 3 && k->maxnreg == 40,
	     ".reqntid 32,4,1 gives max_threads 128; .minnctapersm and .maxnreg kept");
	f = t_func(img, "k");
	i = f ? (uint32_t)t_find_op(img, f, VISA_OP_LD, 0) : 0;
	t_ok(f && t_code(img, f)[i].type2 == VISA_SPACE_PARAM &&
	     t_code(img, f)[i].imm == 36 && t_code(img, f)[i].a == VISA_OPND_NONE,
	     "ld.param of d reads PARAM offset 36");
	vgpu_ptx_free(img);
}

/* .ptr's .align describes the pointee, not the parameter. */
static void test_ptr_params(void)
{
	void *img = compile_ok("kernel with .ptr parameters", H
			       ".visible .entry k(.param .u32 n,\n"
			       "  .param .u64 .ptr .global .align 16 p)\n{\nret;\n}\n",
			       NULL);
	const struct visa_kernel *k = img ? t_kernel(img, "k") : NULL;
	const struct visa_param *p = img ? t_section(img, VISA_SEC_PARAMS, NULL) : NULL;

	t_ok(k && k->param_size == 16 && p[k->param_first + 1].offset == 8 &&
	     p[k->param_first + 1].align == 8,
	     ".ptr .global .align 16 leaves the parameter at offset 8, align 8");
	vgpu_ptx_free(img);
}

static void test_memory_sizes(void)
{
	static const char src[] = H
		".shared .align 4 .u32 common_s;\n"
		".extern .shared .align 16 .b8 dyn[];\n"
		".func f()\n{\n.shared .align 8 .b8 fs[24];\n"
		".local .align 8 .b8 fl[40];\n.reg .b32 %r1;\n"
		"st.shared.u32 [fs], %r1;\nret;\n}\n"
		".visible .entry k1()\n{\n.shared .align 4 .b8 k1s[100];\n"
		".reg .b64 %rd1;\n.reg .b32 %r2;\n.local .align 4 .b8 depot[20];\n"
		"st.shared.u32 [k1s+96], %r2;\ncall.uni f, ();\nret;\n}\n"
		".visible .entry k2() .maxntid 64\n{\n.reg .b32 %r1;\n"
		".shared .align 4 .b8 k2s[8];\nst.shared.u32 [k2s], %r1;\n"
		"mov.u32 %r1, dyn;\nld.shared.u32 %r1, [dyn+4];\nret;\n}\n";
	void *img = compile_ok("kernels with shared and local memory", src, NULL);
	const struct visa_kernel *k1, *k2;
	const struct visa_func *f2;
	int mova;

	if (!img)
		return;
	k1 = t_kernel(img, "k1");
	k2 = t_kernel(img, "k2");
	/*
	 * Per kernel: no kernel names common_s, so it costs nothing; k1
	 * reaches fs (through f, 0..24) and k1s (24..124); k2 only k2s (0..8).
	 */
	t_ok(k1 && k1->shared_size == 124, "k1: 124 bytes of static shared (%u)",
	     k1 ? k1->shared_size : 0);
	/* k2 names dyn: its static part ends at 16 = align16(8) */
	t_ok(k2 && k2->shared_size == 16 && k2->shared_align == 16,
	     "k2 uses dynamic shared memory: it starts at 16 (%u)",
	     k2 ? k2->shared_size : 0);
	t_ok(k1 && k1->local_size == 32 + 48,
	     "k1: local = its frame (32) + f's frame (48) = %u",
	     k1 ? k1->local_size : 0);
	t_ok(k2 && k2->max_threads == 64 && k2->maxntid[0] == 64,
	     "k2: .maxntid 64 gives max_threads 64");
	f2 = t_func(img, "k2");
	mova = f2 ? t_find_op(img, f2, VISA_OP_MOVA, 0) : -1;
	t_ok(mova >= 0 && t_code(img, f2)[mova].type2 == VISA_SPACE_SHARED &&
	     t_code(img, f2)[mova].imm == 16 && t_code(img, f2)[mova].type == VISA_T_U32,
	     "mov.u32 %%r, dyn is MOVA.u32 SHARED 16");
	vgpu_ptx_free(img);
}

/*
 * Which shared variables a kernel reaches: k1 calls g only through a
 * function pointer taken from an initializer (a virtual-function table),
 * so g's array counts for k1 and must not overlap k1's own; k2 reaches
 * only its own; h is called by no kernel.
 */
static void test_shared_reach(void)
{
	static const char src[] = H
		".shared .align 4 .b8 sg[400];\n.shared .align 4 .b8 sk1[100];\n"
		".shared .align 4 .b8 sk2[200];\n.shared .align 4 .b8 sh[64];\n"
		".func (.param .b32 r) g(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
		"ld.param.b32 %r1, [x];\nst.shared.u32 [sg], %r1;\n"
		"st.param.b32 [r], %r1;\nret;\n}\n"
		".func h()\n{\n.reg .b32 %r1;\nst.shared.u32 [sh], %r1;\nret;\n}\n"
		".global .u64 table[1] = { g };\n"
		".visible .entry k1()\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
		"st.shared.u32 [sk1], %r1;\nld.global.u64 %rd2, [table];\n"
		"{\n.param .b32 p0;\nst.param.b32 [p0], 3;\n.param .b32 rv;\n"
		"proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"call (rv), %rd2, (p0), proto;\nld.param.b32 %r2, [rv];\n}\n"
		"ret;\n}\n"
		".visible .entry k2()\n{\n.reg .b32 %r1;\n"
		"st.shared.u32 [sk2], %r1;\nret;\n}\n";
	void *img = compile_ok("shared variables reached through calls", src, NULL);
	const struct visa_kernel *k1, *k2;
	const struct visa_func *f;
	int st;

	if (!img)
		return;
	k1 = t_kernel(img, "k1");
	k2 = t_kernel(img, "k2");
	/* sg 0..400 (k1, through the pointer), sk1 400..500, sk2 0..200 */
	t_ok(k1 && k1->shared_size == 500,
	     "k1 reaches g's array through an indirect call: 500 bytes (%u)",
	     k1 ? k1->shared_size : 0);
	t_ok(k2 && k2->shared_size == 200,
	     "k2 reaches only its own array: 200 bytes (%u)",
	     k2 ? k2->shared_size : 0);
	f = t_func(img, "k1");
	st = f ? t_find_op(img, f, VISA_OP_ST, 0) : -1;
	t_ok(st >= 0 && t_code(img, f)[st].type2 == VISA_SPACE_SHARED &&
	     t_code(img, f)[st].imm == 400,
	     "k1's own array starts after g's, at 400");
	f = t_func(img, "k2");
	st = f ? t_find_op(img, f, VISA_OP_ST, 0) : -1;
	t_ok(st >= 0 && t_code(img, f)[st].imm == 0,
	     "k2's array shares bytes with g's and k1's (offset 0)");
	vgpu_ptx_free(img);
}

static void test_calls(void)
{
	static const char src[] = H
		".func (.param .b64 r) add(.param .b32 x, .param .align 8 .b8 y[16])\n"
		"{\n.reg .b32 %r<3>;\n.reg .b64 %rd1;\n.local .align 4 .b8 tmp[4];\n"
		"ld.param.b32 %r1, [x];\nld.param.b32 %r2, [y+8];\n"
		"add.s32 %r1, %r1, %r2;\ncvt.u64.u32 %rd1, %r1;\n"
		"st.param.b64 [r], %rd1;\nret;\n}\n"
		".visible .entry k()\n{\n.reg .b64 %rd1;\n"
		".local .align 8 .b8 depot[8];\n"
		"{\n.param .b32 p0;\nst.param.b32 [p0], 5;\n"
		".param .align 8 .b8 p1[16];\nst.param.b32 [p1+8], 6;\n"
		".param .b64 rv;\ncall.uni (rv), add, (p0, p1);\n"
		"ld.param.b64 %rd1, [rv];\n}\nret;\n}\n";
	void *img = compile_ok("a call with a struct argument", src, NULL);
	const struct visa_func *k, *f;
	const struct visa_insn *c;
	int st0, st1, ld, call;

	if (!img)
		return;
	k = t_func(img, "k");
	f = t_func(img, "add");
	/* callee frame: x at 0, y at 8..24, r at 24..32, tmp at 32 -> 48 */
	t_ok(f && f->frame_size == 48, "callee frame: params, result, locals = 48 (%u)",
	     f ? f->frame_size : 0);
	t_ok(k && k->frame_size == 16, "caller frame 16 (%u)", k ? k->frame_size : 0);
	if (!k || !f)
		goto out;
	c = t_code(img, k);
	st0 = t_find_op(img, k, VISA_OP_ST, 0);
	st1 = t_find_op(img, k, VISA_OP_ST, st0 + 1);
	call = t_find_op(img, k, VISA_OP_CALL, 0);
	ld = t_find_op(img, k, VISA_OP_LD, call);
	t_ok(st0 >= 0 && c[st0].type2 == VISA_SPACE_LOCAL && c[st0].a == VISA_OPND_NONE &&
	     c[st0].imm == 16 && t_literal(img, k, c[st0].b) == 5,
	     "argument 0 is stored frame-relative at caller frame + 0 = 16");
	t_ok(st1 >= 0 && c[st1].imm == 16 + 8 + 8,
	     "argument 1 (+8) is stored at 16 + 8 + 8 = 32");
	t_ok(call >= 0 && ld > call && c[ld].imm == 16 + 24,
	     "the result is read from caller frame + 24 after the call");
	c = t_code(img, f);
	ld = t_find_op(img, f, VISA_OP_LD, 0);
	t_ok(ld >= 0 && c[ld].type2 == VISA_SPACE_LOCAL && c[ld].imm == 0,
	     "the callee reads x at frame offset 0");
	ld = t_find_op(img, f, VISA_OP_LD, ld + 1);
	t_ok(ld >= 0 && c[ld].imm == 16, "the callee reads y+8 at frame offset 16");
out:
	vgpu_ptx_free(img);
}

static void test_reconvergence(void)
{
	static const char src[] = H
		".visible .entry k(.param .u32 n)\n{\n"
		".reg .pred %p<3>;\n.reg .b32 %r<5>;\n"
		"ld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
		"setp.lt.u32 %p1, %r2, %r1;\n"
		"@%p1 bra ELSE;\n"		/* if/else diamond */
		"add.u32 %r3, %r2, 1;\nbra JOIN;\n"
		"ELSE:\nadd.u32 %r3, %r2, 2;\n"
		"JOIN:\nmov.u32 %r4, 0;\n"
		"LOOP:\nadd.u32 %r4, %r4, 1;\n"	/* loop with a break */
		"setp.eq.u32 %p2, %r4, %r2;\n@%p2 bra AFTER;\n"
		"setp.lt.u32 %p2, %r4, 10;\n@%p2 bra LOOP;\n"
		"AFTER:\nsetp.eq.u32 %p2, %r4, 3;\n@%p2 ret;\n"
		"@%p1 bra END;\nadd.u32 %r4, %r4, 1;\n"
		"END:\nret;\n}\n";
	void *img = compile_ok("if/else, loop with break, early return", src, NULL);
	const struct visa_func *f;
	const struct visa_insn *c;
	int b[5], i, join, after, movj;

	if (!img)
		return;
	f = t_func(img, "k");
	c = t_code(img, f);
	b[0] = t_find_op(img, f, VISA_OP_BRA, 0);
	for (i = 1; i < 5; i++)
		b[i] = t_find_op(img, f, VISA_OP_BRA, b[i - 1] + 1);
	/* JOIN is the MOV of 0 after the diamond */
	movj = b[1] + 2;	/* bra JOIN; ELSE: add; JOIN: mov */
	join = (int)f->code_start + movj;
	t_ok(c[b[0]].guard != VISA_OPND_NONE &&
	     VISA_BRA_RECONV(c[b[0]].imm) == (uint32_t)join,
	     "if/else: the branch reconverges at the join (%u, want %d)",
	     VISA_BRA_RECONV(c[b[0]].imm), join);
	after = (int)VISA_BRA_TARGET(c[b[2]].imm);
	t_ok(VISA_BRA_RECONV(c[b[2]].imm) == (uint32_t)after &&
	     VISA_BRA_RECONV(c[b[3]].imm) == (uint32_t)after,
	     "loop: break and back edge reconverge after the loop");
	t_ok(VISA_BRA_RECONV(c[b[4]].imm) == VISA_BRA_TARGET(c[b[4]].imm),
	     "skip-ahead branch reconverges at its target");
	t_ok(t_find_op(img, f, VISA_OP_EXIT, 0) >= 0 &&
	     c[t_find_op(img, f, VISA_OP_EXIT, 0)].guard != VISA_OPND_NONE,
	     "ret in a kernel is a guarded EXIT");
	vgpu_ptx_free(img);
}

static void test_instructions(void)
{
	static const char src[] = H
		".visible .entry k(.param .u64 o)\n{\n"
		".reg .pred %p<4>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
		".reg .f32 %f<3>;\n"
		"add.u32 %r1, %r2, 1234567;\n"
		"setp.lt.and.f32 %p1|%p2, %f1, %f2, %p3;\n"
		"mov.b64 %rd1, {%r1, %r2};\n"
		"mov.b64 {%r3, %r4}, %rd1;\n"
		"add.f32 %f1, %f2, 0f3F800000;\n"
		"add.cc.u32 %r1, %r1, %r2;\naddc.u32 %r2, %r3, %r4;\n"
		"@!%p1 st.global.v4.u32 [%rd2+16], {%r1, %r2, 7, %r4};\n"
		"ret;\n}\n";
	void *img = compile_ok("expanding instructions", src, NULL);
	const struct visa_func *f;
	const struct visa_insn *c;
	int i, s1, s2, pk, bfe, st, addc;

	if (!img)
		return;
	f = t_func(img, "k");
	c = t_code(img, f);
	i = t_find_op(img, f, VISA_OP_ADD, 0);
	t_ok(i >= 0 && (c[i].b & VISA_OPND_LIT) && t_literal(img, f, c[i].b) == 1234567,
	     "an immediate becomes a literal operand");
	s1 = t_find_op(img, f, VISA_OP_SETP, 0);
	s2 = t_find_op(img, f, VISA_OP_SETP, s1 + 1);
	t_ok(s2 == s1 + 1 && VISA_MOD_SUB(c[s1].mod) == VISA_CMP_GEU &&
	     VISA_MOD_SUB(c[s2].mod) == VISA_CMP_LT &&
	     ((c[s2].mod & VISA_MOD_BOOL_MASK) >> VISA_MOD_BOOL_SHIFT) == VISA_BOOL_AND &&
	     c[s1].pa == c[s2].pa && c[s1].pa != VISA_OPND_NONE,
	     "setp p|q: q gets the complement (GEU) and both combine with AND");
	pk = t_find_op(img, f, VISA_OP_PACK, 0);
	t_ok(pk >= 0 && c[pk].type == VISA_T_B32, "mov.b64 {r, r} is PACK.b32");
	bfe = t_find_op(img, f, VISA_OP_BFE, 0);
	t_ok(bfe >= 0 && c[bfe + 1].op == VISA_OP_BFE &&
	     t_literal(img, f, c[bfe + 1].b) == 32 && t_literal(img, f, c[bfe + 1].c) == 32,
	     "mov.b64 {r, r}, rd splits with two BFEs (second at bit 32)");
	i = t_find_op(img, f, VISA_OP_ADD, i + 1);
	t_ok(i >= 0 && c[i].type == VISA_T_F32 && t_literal(img, f, c[i].b) == 0x3F800000,
	     "0f3F800000 is the literal 1.0f");
	addc = t_find_op(img, f, VISA_OP_ADDC, 0);
	t_ok(addc >= 0 && (c[addc].mod & VISA_MOD_CC_OUT) &&
	     c[addc + 1].op == VISA_OP_ADDC && (c[addc + 1].mod & VISA_MOD_CC_IN) &&
	     c[addc].pd == c[addc + 1].pa,
	     "add.cc / addc pass the carry through one predicate");
	st = t_find_op(img, f, VISA_OP_ST, 0);
	t_ok(st > 0 && c[st - 1].op == VISA_OP_MOV && c[st].d == c[st - 1].d &&
	     ((c[st].mod & VISA_MOD_VEC_MASK) >> VISA_MOD_VEC_SHIFT) == 2 &&
	     c[st].imm == 16 && (c[st].guard & VISA_GUARD_NEG) &&
	     (c[st - 1].guard & VISA_GUARD_NEG),
	     "st.v4 with an immediate third element: guarded MOV to a scratch, then ST");
	vgpu_ptx_free(img);
}

static void test_initializers_and_lines(void)
{
	static const char src[] = H
		".file 1 \"/src/kern.cu\"\n"
		".global .align 4 .u32 target[4] = {1, 2, 3, 4};\n"
		".global .align 8 .u64 ptrs[2] = {generic(target), generic(target)+8};\n"
		".const .align 4 .f32 cf[2] = {0f3F800000, 2.5};\n"
		".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
		".global .align 1 .b8 fmt[3] = {104, 105, 0};\n"
		".visible .entry k()\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r1;\n"
		".loc 1 42 7\nmov.u64 %rd1, fmt;\ncvta.global.u64 %rd2, %rd1;\n"
		"{\n.param .b64 p0;\nst.param.b64 [p0], %rd2;\n.param .b64 p1;\n"
		"st.param.b64 [p1], 0;\n.param .b32 rv;\n"
		".loc 1 43 3\ncall.uni (rv), vprintf, (p0, p1);\n"
		"ld.param.b32 %r1, [rv];\n}\nret;\n}\n";
	void *img = compile_ok("initializers, printf and .loc", src, NULL);
	const struct visa_reloc *r;
	const struct visa_line *l;
	const struct visa_kernel *k;
	const struct visa_func *f;
	const uint8_t *cinit;
	uint32_t nr, nl, nc, i;
	int vp;
	float c0, c1;
	bool found42 = false, found43 = false;

	if (!img)
		return;
	r = t_section(img, VISA_SEC_RELOCS, &nr);
	t_ok(nr == 2 && r[0].space == VISA_SPACE_GLOBAL &&
	     r[0].target_space == VISA_SPACE_GLOBAL && r[0].width == 8 &&
	     r[0].offset == 16 && r[0].addend == 0 && r[1].offset == 24 &&
	     r[1].addend == 8,
	     "generic(target) and generic(target)+8 become two relocations");
	cinit = t_section(img, VISA_SEC_CONST_INIT, &nc);
	memcpy(&c0, cinit, 4);
	memcpy(&c1, cinit + 4, 4);
	t_ok(nc >= 8 && c0 == 1.0f && c1 == 2.5f, ".const floats initialized (%g, %g)",
	     c0, c1);
	k = t_kernel(img, "k");
	t_ok(k && (k->flags & VISA_KERNEL_USES_PRINTF), "the kernel is flagged as using printf");
	f = t_func(img, "k");
	vp = t_find_op(img, f, VISA_OP_VPRINTF, 0);
	t_ok(vp > 0 && t_code(img, f)[vp].a != VISA_OPND_NONE &&
	     t_code(img, f)[vp].b != VISA_OPND_NONE,
	     "vprintf is the VPRINTF system call with its two arguments");
	l = t_section(img, VISA_SEC_LINES, &nl);
	for (i = 0; i < nl; i++) {
		if (strcmp(t_str(img, l[i].file), "/src/kern.cu"))
			continue;
		found42 |= l[i].line == 42 && l[i].column == 7;
		found43 |= l[i].line == 43 && l[i].insn == f->code_start + (uint32_t)vp;
	}
	t_ok(found42 && found43, ".loc lines reach the line table (42:7, and 43 at VPRINTF)");
	vgpu_ptx_free(img);
}

/* Pre-Volta shfl/vote without .sync act on the active lanes. */
static void test_legacy_warp_ops(void)
{
	static const char src[] = ".version 6.0\n.target sm_60\n.address_size 64\n"
		".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .pred %p<3>;\n"
		"shfl.down.b32 %r1, %r2, 1, 31;\nvote.any.pred %p1, %p2;\nret;\n}\n";
	void *img = compile_ok("shfl and vote without .sync", src, NULL);
	const struct visa_func *f;
	const struct visa_insn *c;
	int am, sh;

	if (!img)
		return;
	f = t_func(img, "k");
	c = t_code(img, f);
	am = t_find_op(img, f, VISA_OP_ACTIVEMASK, 0);
	sh = t_find_op(img, f, VISA_OP_SHFL, 0);
	t_ok(am >= 0 && sh > am && c[sh].e == c[am].d,
	     "shfl without .sync uses the active mask as member mask");
	vgpu_ptx_free(img);
}

static void test_options(void)
{
	static const char src[] = H
		".visible .entry k() .maxntid 512\n{\n.local .align 4 .b8 d[64];\nret;\n}\n";
	struct vgpu_ptx_source s = { "opt.ptx", src, sizeof(src) - 1 };
	struct vgpu_ptx_options o = { .flags = VGPU_PTX_F_NO_LINE_INFO };
	struct vgpu_ptx_diag d;
	void *img = NULL;
	size_t size;
	uint32_t nl = 1;

	t_ok(!vgpu_ptx_compile(&s, 1, &o, &img, &size, &d) &&
	     (t_section(img, VISA_SEC_LINES, &nl), nl == 0),
	     "VGPU_PTX_F_NO_LINE_INFO leaves the line table empty");
	vgpu_ptx_free(img);
	img = NULL;
	o.flags = 0;
	o.max_threads_per_block = 256;
	t_ok(vgpu_ptx_compile(&s, 1, &o, &img, &size, &d) == VGPU_PTX_ERR_LIMIT &&
	     strstr(d.message, "more than 256 threads"),
	     "max_threads_per_block is enforced (%s)", d.message);
	o.max_threads_per_block = 0;
	o.max_local_per_thread = 32;
	t_ok(vgpu_ptx_compile(&s, 1, &o, &img, &size, &d) == VGPU_PTX_ERR_LIMIT &&
	     strstr(d.message, "exceeds the 32-byte limit"),
	     "max_local_per_thread is enforced (%s)", d.message);
	t_ok(vgpu_ptx_compiler_version() == VGPU_PTX_COMPILER_VERSION,
	     "the library reports its compiler version");
}

/*
 * A function may declare more PTX registers than the image may use, as
 * long as few are live at once (huge unrolled kernels): 20000 here.
 */
static void test_many_registers(void)
{
	size_t cap = 64 * 20000 + 512, n;
	char *src = malloc(cap);
	const struct visa_kernel *k;
	void *img;
	int i;

	if (!t_ok(src != NULL, "memory for a 20000-register kernel"))
		return;
	n = (size_t)snprintf(src, cap, H ".visible .entry big(.param .u64 o)\n{\n"
			     ".reg .b32 %%r<20001>;\n.reg .b64 %%rd1;\nmov.u32 %%r0, 1;\n");
	for (i = 1; i <= 20000; i++)
		n += (size_t)snprintf(src + n, cap - n, "add.u32 %%r%d, %%r%d, %d;\n",
				      i, i - 1, i);
	snprintf(src + n, cap - n, "ld.param.u64 %%rd1, [o];\n"
		 "st.global.u32 [%%rd1], %%r20000;\nret;\n}\n");
	img = compile_ok("a kernel declaring 20000 registers", src, NULL);
	k = img ? t_kernel(img, "big") : NULL;
	t_ok(k && k->num_regs <= 3, "register allocation packs them into %u",
	     k ? k->num_regs : 0);
	vgpu_ptx_free(img);
	free(src);
}

/* Copies whose source dies there vanish; branches are renumbered. */
static void test_coalescing(void)
{
	static const char src[] = H
		".visible .entry k(.param .u64 a, .param .u64 b)\n{\n"
		".reg .b64 %rd<6>;\n.reg .b32 %r<3>;\n.reg .pred %p1;\n"
		"ld.param.u64 %rd1, [a];\nld.param.u64 %rd3, [b];\n"
		"mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n"
		"@%p1 bra SKIP;\n"
		"cvta.to.global.u64 %rd2, %rd1;\n"	/* %rd1 dies: vanishes */
		"mov.b64 %rd4, %rd3;\n"		/* %rd3 lives on: kept */
		"st.global.u32 [%rd2], %r1;\nst.global.u64 [%rd4], %rd3;\n"
		"SKIP:\nret;\n}\n";
	void *img = compile_ok("copies and a branch over them", src, NULL);
	const struct visa_func *f;
	const struct visa_insn *c;
	int bra, movs = 0, st;
	uint32_t i;

	if (!img)
		return;
	f = t_func(img, "k");
	c = t_code(img, f);
	for (i = 0; i < f->code_count; i++)
		movs += c[i].op == VISA_OP_MOV || c[i].op == VISA_OP_CVTA;
	t_ok(movs == 1, "cvta.to.global of a dying register costs nothing; "
	     "the other copy stays (%d copies)", movs);
	bra = t_find_op(img, f, VISA_OP_BRA, 0);
	st = t_find_op(img, f, VISA_OP_ST, 0);
	st = t_find_op(img, f, VISA_OP_ST, st + 1);
	t_ok(bra >= 0 && st > bra &&
	     VISA_BRA_TARGET(c[bra].imm) == f->code_start + (uint32_t)st + 1 &&
	     VISA_BRA_RECONV(c[bra].imm) == VISA_BRA_TARGET(c[bra].imm),
	     "the branch still lands on (and reconverges at) the ret");
	vgpu_ptx_free(img);
}

int main(void)
{
	t_start();
	test_params();
	test_ptr_params();
	test_memory_sizes();
	test_shared_reach();
	test_calls();
	test_reconvergence();
	test_instructions();
	test_initializers_and_lines();
	test_legacy_warp_ops();
	test_options();
	test_many_registers();
	test_coalescing();
	return t_done();
}
