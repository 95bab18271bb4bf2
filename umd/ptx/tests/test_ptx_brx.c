// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_brx - brx.idx (isel_brx.c): a warp whose lanes take four
 * different targets of one .branchtargets list, and meet again after
 * them, gives what a C switch gives (both tiers); brx.idx.uni with a
 * uniform index; an index past the list traps; malformed forms are
 * refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[t] = case (t % 4) of t, then + 1000 after the join; the second
 * kernel jumps with the uniform index n (past the list: a trap). */
static const char module[] = HDR
	".visible .entry sw(.param .u64 out)\n{\n"
	".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
	"and.b32 %r2, %r1, 3;\n"
	"ts: .branchtargets C0, C1, C2, C3;\n"
	"brx.idx %r2, ts;\n"
	"C0:\nmul.lo.u32 %r3, %r1, 3;\nbra J;\n"
	"C1:\nadd.u32 %r3, %r1, 77;\nbra J;\n"
	"C2:\nxor.b32 %r3, %r1, 21;\nbra J;\n"
	"C3:\nmov.u32 %r3, 5;\n"
	"J:\nadd.u32 %r3, %r3, 1000;\n"
	"mul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
	"st.global.u32 [%rd3], %r3;\nret;\n}\n"
	".visible .entry uni(.param .u64 out, .param .u32 n)\n{\n"
	".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\n"
	"t2: .branchtargets A, B;\n"
	"brx.idx.uni %r1, t2;\n"
	"A:\nst.global.u32 [%rd1], 10;\nret;\n"
	"B:\nst.global.u32 [%rd1], 20;\nret;\n}\n";

static void check_errors(void)
{
	static const struct { const char *body, *what; } bad[] = {
		{ "t: .branchtargets X, L;\nbrx.idx %r1, t;\nL:\n",
		  "an unknown label in the list" },
		{ "t: .branchtargets L;\nbrx %r1, t;\nL:\n",
		  "brx without .idx" },
		{ "t: .branchtargets L;\n@%p1 brx.idx %r1, t;\nL:\n",
		  "a guarded brx.idx" },
		{ "brx.idx %r1, L;\nL:\n", "a label that is not a list" },
		{ "t: .branchtargets ;\nL:\n", "an empty list" },
	};
	char text[1024], msg[256];
	size_t size;
	void *img;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), HDR
			 ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n"
			 ".reg .pred %%p<2>;\nmov.u32 %%r1, 0;\n"
			 "setp.eq.u32 %%p1, %%r1, 0;\n%sret;\n}\n", bad[i].body);
		if (!t_ok(t_compile("bad.ptx", text, &img, &size, msg,
				    sizeof(msg)) != 0 && msg[0],
			  "%s is refused: %s", bad[i].what, msg))
			free(img);
	}
}

int main(void)
{
	const uint32_t one[3] = { 1, 1, 1 }, b64[3] = { 64, 1, 1 };
	char msg[512], err[256] = "";
	struct vgpu_core_fault f;
	struct test_gpu g;
	struct tg_module m;
	struct { uint64_t out; uint32_t n, pad; } prm = { 0, 1, 0 };
	uint64_t out;
	uint32_t *o;
	size_t size;
	void *img;
	int bad = 0, r;

	t_start();
	check_errors();
	if (!t_ok(!t_compile("brx.ptx", module, &img, &size, msg, sizeof(msg)),
		  "the brx module compiles %s", msg))
		return t_done();
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		return t_done();
	if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		 "the core loads it %s", err)) {
		out = tg_alloc(&g, 4096);
		o = tg_host(&g, out);
		if (t_ok(!tg_launch(&g, &m, "sw", one, b64, 0, &out, 8, &f),
			 "sw runs %s", f.message)) {
			for (uint32_t t = 0; t < 64; t++) {
				uint32_t r;

				switch (t % 4) {
				case 0: r = t * 3; break;
				case 1: r = t + 77; break;
				case 2: r = t ^ 21; break;
				default: r = 5; break;
				}
				bad += o[t] != r + 1000;
			}
			t_ok(!bad, "64 lanes through 4 targets, joined after: as a C switch (%d wrong)",
			     bad);
		}
		prm.out = out;
		r = tg_launch(&g, &m, "uni", one, one, 0, &prm, 12, &f);
		t_ok(!r && o[0] == 20,
		     "brx.idx.uni 1 takes the second target (%d, %u)", r, o[0]);
		prm.n = 2;
		r = tg_launch(&g, &m, "uni", one, one, 0, &prm, 12, &f);
		t_ok(r == 1 && f.kind == VISA_FAULT_TRAP,
		     "an index past the list traps (%d, kind %u: %s)", r, f.kind,
		     f.message);
		tg_unload(&m);
	}
	free(img);
	tg_fini(&g);
	return t_done();
}
