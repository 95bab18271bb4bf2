// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_stack - the dynamic stack (isel_stack.c, exec_stack.c):
 * alloca of a different size in every lane, in a kernel and in a
 * function it calls, read back through local and generic addresses,
 * against a CPU reference; what a callee allocates is freed when it
 * returns (50 calls of 80 bytes fit in a 1 KiB stack only so);
 * stacksave/stackrestore free a loop's allocations the same way; the
 * alignment asked for is kept; an alloca larger than the stack is a
 * stack overflow fault; malformed forms are refused with a message.
 * Run it with VGPU_TIER=interp too: both tiers must agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/*
 * sumsq(n): alloca n words (16-aligned), fill with i*i, sum them backwards.
 * k(out, n): lane t allocates m = n + t % 5 words (local), fills buf[i] =
 * t + i through the generic address, calls sumsq(m) 50 times, then loops
 * 50 times over stacksave / alloca 64 / stackrestore, and writes
 * out[t] = sum(buf) + sumsq(m) and out[64 + t] = (address & 15) | the
 * alignment of a 256-aligned alloca.
 * big(n): allocates n bytes.
 */
static const char module[] = HDR
	".visible .func (.param .b32 r) sumsq(.param .b32 n)\n{\n"
	".reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n.reg .pred %p<2>;\n"
	"ld.param.b32 %r1, [n];\nmul.wide.u32 %rd1, %r1, 4;\n"
	"alloca.u64 %rd2, %rd1, 16;\n"
	"mov.u32 %r2, 0;\n"
	"F1:\nsetp.ge.u32 %p1, %r2, %r1;\n@%p1 bra F2;\n"
	"mul.lo.u32 %r4, %r2, %r2;\nmul.wide.u32 %rd3, %r2, 4;\n"
	"add.u64 %rd4, %rd2, %rd3;\nst.local.u32 [%rd4], %r4;\n"
	"add.u32 %r2, %r2, 1;\nbra F1;\n"
	"F2:\nmov.u32 %r3, 0;\n"
	"F3:\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 bra F4;\n"
	"sub.u32 %r2, %r2, 1;\nmul.wide.u32 %rd3, %r2, 4;\n"
	"add.u64 %rd4, %rd2, %rd3;\nld.local.u32 %r4, [%rd4];\n"
	"add.u32 %r3, %r3, %r4;\nbra F3;\n"
	"F4:\nst.param.b32 [r], %r3;\nret;\n}\n"
	".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
	".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\n"
	"mov.u32 %r2, %tid.x;\nrem.u32 %r3, %r2, 5;\nadd.u32 %r4, %r1, %r3;\n"
	"mul.wide.u32 %rd2, %r4, 4;\nalloca.u64 %rd3, %rd2, 16;\n"
	"cvta.local.u64 %rd4, %rd3;\n"
	"mov.u32 %r5, 0;\n"
	"K1:\nsetp.ge.u32 %p1, %r5, %r4;\n@%p1 bra K2;\n"
	"add.u32 %r6, %r2, %r5;\nmul.wide.u32 %rd5, %r5, 4;\n"
	"add.u64 %rd6, %rd4, %rd5;\nst.u32 [%rd6], %r6;\n"
	"add.u32 %r5, %r5, 1;\nbra K1;\n"
	"K2:\nmov.u32 %r7, 0;\nmov.u32 %r8, 0;\n"
	"K3:\n{\n.param .b32 p0;\nst.param.b32 [p0], %r4;\n"
	".param .b32 r0;\ncall (r0), sumsq, (p0);\nld.param.b32 %r8, [r0];\n}\n"
	"add.u32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 50;\n@%p1 bra K3;\n"
	"mov.u32 %r7, 0;\n"
	"K4:\nstacksave.u64 %rd7;\nalloca.u64 %rd8, 64;\n"
	"st.local.u32 [%rd8], %r7;\nld.local.u32 %r9, [%rd8];\n"
	"stackrestore.u64 %rd7;\n"
	"add.u32 %r7, %r9, 1;\nsetp.lt.u32 %p1, %r7, 50;\n@%p1 bra K4;\n"
	"mov.u32 %r5, 0;\nmov.u32 %r10, 0;\n"
	"K5:\nsetp.ge.u32 %p1, %r5, %r4;\n@%p1 bra K6;\n"
	"mul.wide.u32 %rd5, %r5, 4;\nadd.u64 %rd6, %rd3, %rd5;\n"
	"ld.local.u32 %r6, [%rd6];\nadd.u32 %r10, %r10, %r6;\n"
	"add.u32 %r5, %r5, 1;\nbra K5;\n"
	"K6:\nadd.u32 %r10, %r10, %r8;\n"
	"mul.wide.u32 %rd9, %r2, 4;\nadd.u64 %rd10, %rd1, %rd9;\n"
	"st.global.u32 [%rd10], %r10;\n"
	"alloca.u64 %rd11, 4, 256;\nand.b64 %rd12, %rd11, 255;\n"
	"and.b64 %rd13, %rd3, 15;\nor.b64 %rd12, %rd12, %rd13;\n"
	"cvt.u32.u64 %r11, %rd12;\n"
	"st.global.u32 [%rd10+256], %r11;\nret;\n}\n"
	".visible .entry big(.param .u32 n)\n{\n"
	".reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
	"ld.param.u32 %r1, [n];\ncvt.u64.u32 %rd1, %r1;\n"
	"alloca.u64 %rd2, %rd1;\nst.local.u32 [%rd2], %r1;\nret;\n}\n";

static void check_errors(void)
{
	static const struct { const char *body, *what; } bad[] = {
		{ "alloca.u64 %rd1, 16, 3;\n", "an alignment not a power of 2" },
		{ "alloca.u64 %rd1, 16, 16777216;\n", "an alignment past 2^23" },
		{ "alloca.u64 %rd1, 16, %rd2;\n", "an alignment in a register" },
		{ "alloca.b64 %rd1, 16;\n", "alloca.b64" },
		{ "alloca.u64 %rd1;\n", "alloca without a size" },
		{ "stacksave.s64 %rd1;\n", "stacksave.s64" },
		{ "stackrestore.u64 %rd1, %rd2;\n", "stackrestore with two operands" },
	};
	char text[1024], msg[256];
	size_t size;
	void *img;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), HDR
			 ".visible .entry k()\n{\n.reg .b64 %%rd<4>;\n"
			 "mov.u64 %%rd2, 0;\n%sret;\n}\n", bad[i].body);
		if (!t_ok(t_compile("bad.ptx", text, &img, &size, msg,
				    sizeof(msg)) != 0 && msg[0],
			  "%s is refused: %s", bad[i].what, msg))
			free(img);
	}
}

/* What k() computes for lane t, in C. */
static uint32_t expect(uint32_t t, uint32_t n)
{
	uint32_t m = n + t % 5, s = 0;

	for (uint32_t i = 0; i < m; i++)
		s += t + i + i * i;
	return s;
}

int main(void)
{
	const uint32_t one[3] = { 1, 1, 1 }, b64[3] = { 64, 1, 1 };
	char msg[512], err[256] = "";
	struct vgpu_core_fault f;
	struct test_gpu g;
	struct tg_module m;
	struct { uint64_t out; uint32_t n, pad; } prm = { 0, 20, 0 };
	uint32_t *o, n;
	size_t size;
	void *img;
	int bad = 0, align_bad = 0, r;

	t_start();
	check_errors();
	if (!t_ok(!t_compile("stack.ptx", module, &img, &size, msg,
			     sizeof(msg)),
		  "the alloca module compiles %s", msg))
		return t_done();
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		return t_done();
	if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		 "the core loads it %s", err)) {
		prm.out = tg_alloc(&g, 4096);
		o = tg_host(&g, prm.out);
		if (t_ok(!tg_launch(&g, &m, "k", one, b64, 0, &prm, 12, &f),
			 "k runs %s", f.message)) {
			for (uint32_t t = 0; t < 64; t++) {
				bad += o[t] != expect(t, prm.n);
				align_bad += o[64 + t] != 0;
			}
			t_ok(!bad, "64 lanes allocate 20..24 words each, call a "
			     "function that allocates 50 times, and read back "
			     "what the CPU computes (%d wrong; lane 3: %u, "
			     "want %u)", bad, o[3], expect(3, prm.n));
			t_ok(!align_bad, "alloca keeps 16- and 256-byte "
			     "alignment (%d wrong)", align_bad);
		}
		n = 1u << 20;
		r = tg_launch(&g, &m, "big", one, one, 0, &n, 4, &f);
		t_ok(r == 1 && f.kind == VISA_FAULT_STACK_OVERFLOW,
		     "an alloca past the thread's stack is a stack overflow "
		     "(%d, kind %u: %s)", r, f.kind, f.message);
		n = 512;
		r = tg_launch(&g, &m, "big", one, b64, 0, &n, 4, &f);
		t_ok(!r, "half the default 1 KiB stack can be allocated (%d: %s)",
		     r, f.message);
		tg_unload(&m);
	}
	free(img);
	tg_fini(&g);
	return t_done();
}
