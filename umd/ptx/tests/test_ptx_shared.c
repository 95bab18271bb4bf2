// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_shared - static shared memory is laid out per kernel, and the
 * reserved shared-memory registers describe a region kernels can use.
 *
 * The module below is what nvcc -rdc=true makes of two kernels that each
 * use 32 KiB of __shared__ memory and share a device function with its
 * own __shared__ array: every variable at module scope, 65 KiB in all,
 * more than the 48 KiB one block may have.  Each kernel reaches only
 * 33 KiB of it, so the module compiles; both kernels run, every thread
 * writing its part of the arrays and reading another thread's back, so
 * any two variables one kernel uses that were given overlapping bytes
 * would show as wrong sums (checked against C).  A third kernel reads
 * %reserved_smem_offset_* and scribbles over the reserved region as
 * cooperative groups does, through generic addresses; its own __shared__
 * array must survive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define THREADS 256

/* A kernel: thread t stores into its 128-byte slot of arr and into
 * common[t] through f, then sums what thread 255 - t stored. */
#define BIG_KERNEL(name, arr, m1, c1, m2, c2)				\
	".visible .entry " name "(.param .u64 out)\n{\n"		\
	".reg .b32 %r<12>;\n.reg .b64 %rd<12>;\n"			\
	"ld.param.u64 %rd1, [out];\n"					\
	"mov.u32 %r1, %tid.x;\n"					\
	"mov.u64 %rd2, " arr ";\n"					\
	"mul.wide.u32 %rd3, %r1, 128;\n"				\
	"add.u64 %rd4, %rd2, %rd3;\n"					\
	"mad.lo.u32 %r2, %r1, " m1 ", " c1 ";\n"			\
	"st.shared.u32 [%rd4], %r2;\n"					\
	"mad.lo.u32 %r3, %r1, " m2 ", " c2 ";\n"			\
	"st.shared.u32 [%rd4+124], %r3;\n"				\
	"{\n.param .b32 a;\nst.param.b32 [a], %r1;\n"			\
	"call.uni f, (a);\n}\n"						\
	"bar.sync 0;\n"							\
	"sub.u32 %r4, 255, %r1;\n"					\
	"mul.wide.u32 %rd5, %r4, 128;\n"				\
	"add.u64 %rd6, %rd2, %rd5;\n"					\
	"ld.shared.u32 %r5, [%rd6];\n"					\
	"ld.shared.u32 %r6, [%rd6+124];\n"				\
	"mov.u64 %rd7, common;\n"					\
	"mul.wide.u32 %rd8, %r4, 4;\n"					\
	"add.u64 %rd9, %rd7, %rd8;\n"					\
	"ld.shared.u32 %r7, [%rd9];\n"					\
	"add.u32 %r8, %r5, %r6;\n"					\
	"add.u32 %r8, %r8, %r7;\n"					\
	"mul.wide.u32 %rd10, %r1, 4;\n"					\
	"add.u64 %rd11, %rd1, %rd10;\n"					\
	"st.global.u32 [%rd11], %r8;\n"					\
	"ret;\n}\n"

static const char module[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".shared .align 4 .b8 arr_a[32768];\n"
	".shared .align 4 .b8 arr_b[32768];\n"
	".shared .align 4 .b8 unused[40000];\n"
	".shared .align 4 .b8 common[1024];\n"
	".shared .align 4 .b8 own_r[1024];\n"
	/* f(t): common[t] = 7t + 1 */
	".func f(.param .b32 t)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u32 %r1, [t];\nmad.lo.u32 %r2, %r1, 7, 1;\n"
	"mov.u64 %rd1, common;\nmul.wide.u32 %rd2, %r1, 4;\n"
	"add.u64 %rd3, %rd1, %rd2;\nst.shared.u32 [%rd3], %r2;\nret;\n}\n"
	BIG_KERNEL("ka", "arr_a", "3", "1000", "5", "2000")
	BIG_KERNEL("kb", "arr_b", "11", "3000", "13", "4000")
	/*
	 * kr: own_r[t] = 13t + 5; then threads 0-127 write 0xdeadbeef over
	 * the 512 bytes at %reserved_smem_offset_0, threads 128-255 over the
	 * 512 at _1 (generic stores, as cooperative groups does; on an H100
	 * both point at the region's start, so these are the same bytes of
	 * its 1 KiB); own_r[t]
	 * is read back into out[t]; thread 0 puts the five registers in
	 * out[256..260].
	 */
	".visible .entry kr(.param .u64 out)\n{\n"
	".reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n.reg .pred %p<3>;\n"
	"ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
	"mov.u64 %rd2, own_r;\nmul.wide.u32 %rd3, %r1, 4;\n"
	"add.u64 %rd4, %rd2, %rd3;\nmad.lo.u32 %r2, %r1, 13, 5;\n"
	"st.shared.u32 [%rd4], %r2;\n"
	"setp.lt.u32 %p1, %r1, 128;\n"
	"mov.u32 %r3, %reserved_smem_offset_0;\n"
	"@!%p1 mov.u32 %r3, %reserved_smem_offset_1;\n"
	"cvt.u64.u32 %rd5, %r3;\ncvta.shared.u64 %rd5, %rd5;\n"
	"and.b32 %r4, %r1, 127;\nmul.wide.u32 %rd6, %r4, 4;\n"
	"add.u64 %rd7, %rd5, %rd6;\nmov.u32 %r5, -559038737;\n"
	"st.u32 [%rd7], %r5;\n"
	"bar.sync 0;\n"
	"ld.shared.u32 %r6, [%rd4];\nadd.u64 %rd8, %rd1, %rd3;\n"
	"st.global.u32 [%rd8], %r6;\n"
	"setp.ne.u32 %p2, %r1, 0;\n@%p2 bra DONE;\n"
	"mov.u32 %r7, %reserved_smem_offset_begin;\n"
	"mov.u32 %r8, %reserved_smem_offset_end;\n"
	"mov.u32 %r9, %reserved_smem_offset_cap;\n"
	"mov.u32 %r10, %reserved_smem_offset_0;\n"
	"mov.u32 %r11, %reserved_smem_offset_1;\n"
	"st.global.u32 [%rd1+1024], %r7;\nst.global.u32 [%rd1+1028], %r8;\n"
	"st.global.u32 [%rd1+1032], %r9;\nst.global.u32 [%rd1+1036], %r10;\n"
	"st.global.u32 [%rd1+1040], %r11;\n"
	"DONE:\nret;\n}\n";

static bool run(struct test_gpu *g, struct tg_module *m, const char *name,
		uint64_t out)
{
	const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { THREADS, 1, 1 };
	struct vgpu_core_fault f;
	int r = tg_launch(g, m, name, grid, block, 0, &out, 8, &f);

	if (r)
		t_diag("%s: launch %d: %s", name, r, f.message);
	return r == 0;
}

static void check_big(struct test_gpu *g, struct tg_module *m,
		      const char *name, uint32_t m1, uint32_t c1, uint32_t m2,
		      uint32_t c2)
{
	uint64_t out = tg_alloc(g, THREADS * 4);
	const uint32_t *o;
	int t, bad = 0;

	if (!t_ok(run(g, m, name, out), "%s runs", name))
		return;
	o = tg_host(g, out);
	for (t = 0; t < THREADS; t++) {
		uint32_t u = 255 - (uint32_t)t;
		uint32_t want = (u * m1 + c1) + (u * m2 + c2) + (u * 7 + 1);

		if (o[t] != want && bad++ < 3)
			t_diag("%s: thread %d read %u, want %u", name, t, o[t], want);
	}
	t_ok(!bad, "%s: its array and the common one do not overlap (%d wrong)",
	     name, bad);
}

int main(void)
{
	char msg[512], err[256];
	const struct visa_kernel *ka, *kb, *kr;
	struct test_gpu g;
	struct tg_module m;
	uint64_t out;
	const uint32_t *o;
	void *img = NULL;
	size_t size;
	int t, bad = 0;

	t_start();
	if (!t_ok(!t_compile("shared.ptx", module, &img, &size, msg, sizeof(msg)),
		  "two kernels of 33 KiB static shared each, 105 KiB declared, compile %s",
		  msg))
		return t_done();
	ka = t_kernel(img, "ka");
	kb = t_kernel(img, "kb");
	kr = t_kernel(img, "kr");
	/* arr_a or arr_b at 0, common after it; 'unused' costs nothing. */
	t_ok(ka && ka->shared_size == 32768 + 1024,
	     "ka: 33792 bytes of static shared (%u)", ka ? ka->shared_size : 0);
	t_ok(kb && kb->shared_size == 32768 + 1024,
	     "kb: 33792 bytes of static shared (%u)", kb ? kb->shared_size : 0);
	/* The reserved 1 KiB first, then own_r. */
	t_ok(kr && kr->shared_size == 1024 + 1024,
	     "kr: reserved region and its array, 2048 bytes (%u)",
	     kr ? kr->shared_size : 0);
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		goto out;
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		  "the core loads the image %s", err))
		goto fini;
	check_big(&g, &m, "ka", 3, 1000, 5, 2000);
	check_big(&g, &m, "kb", 11, 3000, 13, 4000);
	out = tg_alloc(&g, 2048);
	if (t_ok(run(&g, &m, "kr", out), "kr runs")) {
		o = tg_host(&g, out);
		for (t = 0; t < THREADS; t++)
			bad += o[t] != (uint32_t)t * 13 + 5;
		t_ok(!bad, "kr: writing the reserved region leaves its own shared array intact (%d wrong)",
		     bad);
		/* an H100's values: tools/cuda-probe/golden/probe_smem.h100.txt */
		t_ok(o[256] == 0 && o[257] == 288 && o[258] == 1024 &&
		     o[259] == 0 && o[260] == 0,
		     "reserved_smem_offset begin %u end %u cap %u _0 %u _1 %u (want 0 288 1024 0 0)",
		     o[256], o[257], o[258], o[259], o[260]);
	}
	tg_unload(&m);
fini:
	tg_fini(&g);
out:
	vgpu_ptx_free(img);
	return t_done();
}
