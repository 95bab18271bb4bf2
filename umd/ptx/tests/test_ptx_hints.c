// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_hints - L2 cache hints (isel_hint.c): createpolicy and the
 * .L2::cache_hint forms of ld, ld.nc, st, red and atom compile and give
 * the results of the same accesses without the hint (a C reference over
 * the same input), on both tiers; two different policies differ; the
 * malformed forms are refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[t] = in[t] + in[t+64] (hinted loads), stored hinted; out[64] +=
 * t (red), out[65] = max (atom); out[68..71] = the two policies. */
static const char module[] = HDR
	".visible .entry hinted(.param .u64 out, .param .u64 in)\n{\n"
	".reg .b32 %r<10>;\n.reg .b64 %rd<12>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"createpolicy.fractional.L2::evict_last.b64 %rd3, 1.0;\n"
	"createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd4, 0.5;\n"
	"createpolicy.cvt.L2.b64 %rd5, %rd4;\n"
	"mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd6, %r1, 4;\n"
	"add.u64 %rd7, %rd2, %rd6;\nadd.u64 %rd8, %rd1, %rd6;\n"
	"ld.global.L2::cache_hint.u32 %r2, [%rd7], %rd3;\n"
	"ld.global.nc.L2::cache_hint.L2::128B.u32 %r3, [%rd7+256], %rd5;\n"
	"add.u32 %r4, %r2, %r3;\n"
	"st.global.L2::cache_hint.u32 [%rd8], %r4, %rd3;\n"
	"red.global.add.L2::cache_hint.u32 [%rd1+256], %r1, %rd3;\n"
	"atom.global.max.L2::cache_hint.u32 %r5, [%rd1+260], %r4, %rd4;\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"@%p1 st.global.v2.u64 [%rd1+272], {%rd3, %rd5};\n"
	"ret;\n}\n";

static void check_errors(void)
{
	static const struct { const char *body, *what; } bad[] = {
		{ "ld.global.L2::cache_hint.u32 %r1, [%rd1];\n",
		  "a hinted load without its policy" },
		{ "createpolicy.fractional.b64 %rd1, 1.0;\n",
		  "createpolicy without an eviction priority" },
		{ "createpolicy.L2::evict_last.b64 %rd1;\n",
		  "createpolicy without .fractional, .range or .cvt" },
	};
	char text[1024], msg[256];
	size_t size;
	void *img;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), HDR
			 ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n"
			 ".reg .b64 %%rd<4>;\n.reg .pred %%p<2>;\n%sret;\n}\n",
			 bad[i].body);
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
	uint32_t *in, *o, sum = 0, max = 0;
	uint64_t p[2], *pol;
	size_t size;
	void *img;
	int bad = 0;

	t_start();
	check_errors();
	if (!t_ok(!t_compile("hints.ptx", module, &img, &size, msg,
			     sizeof(msg)), "the hinted module compiles %s", msg))
		return t_done();
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		return t_done();
	if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		 "the core loads it %s", err)) {
		p[0] = tg_alloc(&g, 4096);
		p[1] = tg_alloc(&g, 4096);
		in = tg_host(&g, p[1]);
		o = tg_host(&g, p[0]);
		for (int i = 0; i < 128; i++)
			in[i] = (uint32_t)(i * 2654435761u) >> 7;
		memset(o, 0, 4096);
		if (t_ok(!tg_launch(&g, &m, "hinted", one, b64, 0, p, 16, &f),
			 "hinted runs %s", f.message)) {
			for (int i = 0; i < 64; i++) {
				uint32_t v = in[i] + in[i + 64];

				bad += o[i] != v;
				sum += (uint32_t)i;
				max = v > max ? v : max;
			}
			t_ok(!bad && o[64] == sum && o[65] == max,
			     "hinted ld, ld.nc, st, red and atom give the unhinted results (%d wrong, red %u/%u, max %u/%u)",
			     bad, o[64], sum, o[65], max);
			pol = (uint64_t *)(o + 68);
			t_ok(pol[0] != pol[1] && pol[0] && pol[1],
			     "evict_last and evict_first policies differ (%#llx, %#llx)",
			     (unsigned long long)pol[0],
			     (unsigned long long)pol[1]);
		}
		tg_unload(&m);
	}
	free(img);
	tg_fini(&g);
	return t_done();
}
