// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_gaps - instructions of issue #11 item 7 that the compiler
 * used to refuse, run on the execution core against C references written
 * from the PTX ISA: mul24.hi and mad24.hi (bits 47..16 of the 48-bit
 * product of the low 24 bits, signed or unsigned, plus c, saturated with
 * .sat) over edge values (24-bit sign boundaries, bits above 24 that must
 * be ignored) and pseudo-random ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define N 1024

static const char module[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry m24(.param .u64 out, .param .u64 in)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
	"mad.lo.u32 %r1, %r2, 256, %r1;\n"
	"mul.wide.u32 %rd3, %r1, 12;\nadd.u64 %rd4, %rd2, %rd3;\n"
	"ld.global.u32 %r3, [%rd4];\nld.global.u32 %r4, [%rd4+4];\n"
	"ld.global.u32 %r5, [%rd4+8];\n"
	"mul24.hi.u32 %r6, %r3, %r4;\n"
	"mul24.hi.s32 %r7, %r3, %r4;\n"
	"mad24.hi.s32 %r8, %r3, %r4, %r5;\n"
	"mad24.hi.sat.s32 %r9, %r3, %r4, %r5;\n"
	"mul.wide.u32 %rd5, %r1, 16;\nadd.u64 %rd6, %rd1, %rd5;\n"
	"st.global.v4.u32 [%rd6], {%r6, %r7, %r8, %r9};\nret;\n}\n";

static int64_t s24(uint32_t v)
{
	v &= 0xffffff;
	return v & 0x800000 ? (int64_t)v - 0x1000000 : (int64_t)v;
}

static void reference(uint32_t a, uint32_t b, uint32_t c, uint32_t w[4])
{
	uint64_t u = (uint64_t)(a & 0xffffff) * (b & 0xffffff);
	int64_t s = s24(a) * s24(b);
	uint32_t hs = (uint32_t)((uint64_t)s >> 16);
	int64_t sat = (int64_t)(int32_t)hs + (int32_t)c;

	w[0] = (uint32_t)(u >> 16);
	w[1] = hs;
	w[2] = hs + c;
	w[3] = (uint32_t)(int32_t)(sat > INT32_MAX ? INT32_MAX :
				   sat < INT32_MIN ? INT32_MIN : sat);
}

int main(void)
{
	static const uint32_t edges[] = {
		0, 1, 0x7fffff, 0x800000, 0xffffff, 0x1000000, 0xff800000,
		0xffffffff, 0x12345678, 0x7fffffff, 0x80000000, 2,
	};
	const uint32_t grid[3] = { N / 256, 1, 1 }, block[3] = { 256, 1, 1 };
	char msg[512], err[256];
	struct vgpu_core_fault f;
	struct test_gpu g;
	struct tg_module m;
	uint64_t p[2], s = 0x9e3779b97f4a7c15ull;
	uint32_t *in, *o, ne = sizeof(edges) / sizeof(edges[0]);
	size_t size;
	void *img;
	int bad = 0;

	t_start();
	if (!t_ok(!t_compile("gaps.ptx", module, &img, &size, msg, sizeof(msg)),
		  "mul24.hi / mad24.hi compile %s", msg) ||
	    !t_ok(!tg_init(&g, 2), "native test GPU"))
		return t_done();
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)), "loads %s", err))
		return t_done();
	p[0] = tg_alloc(&g, N * 16);
	p[1] = tg_alloc(&g, N * 12);
	in = tg_host(&g, p[1]);
	for (uint32_t i = 0; i < N; i++) {
		for (int k = 0; k < 3; k++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			in[3 * i + k] = (uint32_t)s;
		}
		if (i < ne * ne) {	/* every pair of edge values */
			in[3 * i] = edges[i / ne];
			in[3 * i + 1] = edges[i % ne];
			in[3 * i + 2] = i & 1 ? 0x7fffff00 : 0x80000010;
		}
	}
	if (t_ok(!tg_launch(&g, &m, "m24", grid, block, 0, p, 16, &f),
		 "m24 runs %s", f.message)) {
		o = tg_host(&g, p[0]);
		for (uint32_t i = 0; i < N; i++) {
			uint32_t w[4];

			reference(in[3 * i], in[3 * i + 1], in[3 * i + 2], w);
			for (int k = 0; k < 4; k++)
				if (o[4 * i + k] != w[k] && bad++ < 8)
					t_diag("a %#x b %#x c %#x output %d: %#x, want %#x",
					       in[3 * i], in[3 * i + 1], in[3 * i + 2],
					       k, o[4 * i + k], w[k]);
		}
		t_ok(!bad, "mul24.hi.u32/.s32, mad24.hi.s32 and .sat over %d operand triples (%d wrong)",
		     N, bad);
	}
	tg_unload(&m);
	free(img);
	tg_fini(&g);
	return t_done();
}
