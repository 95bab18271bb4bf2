// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_async - asynchronous data movement on the execution core:
 * cp.async with its groups and waits, the zero-filling forms, mbarrier
 * phases (arrivals, tx-counts, noComplete, arrive_drop, test/try_wait
 * with state and with parity, pending_count), cp.async.mbarrier.arrive
 * with and without .noinc, cp.async.bulk in both directions,
 * elect.sync, and the faults of each misuse.  The kernels are written in
 * PTX here, so each instruction is exactly what is tested; the expected
 * values come from the PTX ISA (the mbarrier sequence is worked out in
 * the comments) or from C over the same input.  Then nvcc's own PTX for
 * __pipeline_memcpy_async, cuda::barrier and cuda::pipeline
 * (cu/async.cu) runs against C references.  Every launch also runs on
 * the native tier and must agree with the interpreter (tests/lib).
 *
 * The copies land only at the wait (exec_async.c), so the values read
 * before a wait are the old ones: that is what a real GPU may show and
 * what vGPU always shows, which makes the asynchrony testable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char module[] = HDR
	/* groups: A in group 0, B in group 1; reads before and between */
	".visible .entry cpa_groups(.param .u64 out, .param .u64 in)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
	".shared .align 16 .b8 sm[512];\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\n"
	"mov.u32 %r3, sm;\nadd.u32 %r4, %r3, %r2;\n"
	"st.shared.u32 [%r4], 57005;\nst.shared.u32 [%r4+256], 57005;\n"
	"bar.sync 0;\n"
	"cvt.u64.u32 %rd3, %r2;\nadd.u64 %rd4, %rd2, %rd3;\n"
	"cp.async.ca.shared.global [%r4], [%rd4], 4;\n"
	"cp.async.commit_group;\n"
	"cp.async.ca.shared.global.L2::128B [%r4+256], [%rd4+256], 4, 4;\n"
	"ld.shared.u32 %r6, [%r4];\n"
	"cp.async.commit_group;\n"
	"cp.async.wait_group 1;\n"
	"ld.shared.u32 %r7, [%r4];\nld.shared.u32 %r8, [%r4+256];\n"
	"cp.async.wait_group 0;\n"
	"ld.shared.u32 %r9, [%r4+256];\n"
	"mul.wide.u32 %rd5, %r1, 16;\nadd.u64 %rd6, %rd1, %rd5;\n"
	"st.global.v4.u32 [%rd6], {%r6, %r7, %r8, %r9};\nret;\n}\n"
	/* zero fill: src-size t % 17, ignore-src on odd t, src-size 0 of
	 * address 0, then wait_all (which also waits for the open group) */
	".visible .entry cpa_fill(.param .u64 out, .param .u64 in)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<10>;\n.reg .pred %p<2>;\n"
	".shared .align 16 .b8 sm[3072];\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 4;\n"
	"mov.u32 %r3, sm;\nadd.u32 %r4, %r3, %r2;\n"
	"st.shared.v4.u32 [%r4], {-1, -1, -1, -1};\n"
	"st.shared.v4.u32 [%r4+1024], {-1, -1, -1, -1};\n"
	"st.shared.v4.u32 [%r4+2048], {-1, -1, -1, -1};\n"
	"bar.sync 0;\n"
	"cvt.u64.u32 %rd3, %r2;\nadd.u64 %rd4, %rd2, %rd3;\n"
	"rem.u32 %r5, %r1, 17;\n"
	"cp.async.cg.shared.global [%r4], [%rd4], 16, %r5;\n"
	"and.b32 %r6, %r1, 1;\nsetp.ne.u32 %p1, %r6, 0;\n"
	"cp.async.ca.shared.global [%r4+1024], [%rd4], 16, %p1;\n"
	"mov.u64 %rd5, 0;\n"
	"cp.async.ca.shared.global [%r4+2048], [%rd5], 8, 0;\n"
	"cp.async.wait_all;\n"
	"mul.wide.u32 %rd6, %r1, 48;\nadd.u64 %rd7, %rd1, %rd6;\n"
	"ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%r4];\n"
	"st.global.v4.u32 [%rd7], {%r7, %r8, %r9, %r10};\n"
	"ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%r4+1024];\n"
	"st.global.v4.u32 [%rd7+16], {%r7, %r8, %r9, %r10};\n"
	"ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%r4+2048];\n"
	"st.global.v4.u32 [%rd7+32], {%r7, %r8, %r9, %r10};\nret;\n}\n"
	/* one thread issues 3000 copies without waiting: a full queue
	 * (1024) lands its older half; out = words landed before the
	 * wait, then after it */
	".visible .entry cpa_many(.param .u64 out, .param .u64 in)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
	".shared .align 16 .b8 sm[12000];\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"mov.u32 %r3, sm;\nmov.u32 %r1, 0;\n"
	"Z:\nshl.b32 %r2, %r1, 2;\nadd.u32 %r4, %r3, %r2;\n"
	"st.shared.u32 [%r4], 0;\nadd.u32 %r1, %r1, 1;\n"
	"setp.lt.u32 %p1, %r1, 3000;\n@%p1 bra Z;\n"
	"mov.u32 %r1, 0;\n"
	"L:\nshl.b32 %r2, %r1, 2;\nadd.u32 %r4, %r3, %r2;\n"
	"cvt.u64.u32 %rd3, %r2;\nadd.u64 %rd4, %rd2, %rd3;\n"
	"cp.async.ca.shared.global [%r4], [%rd4], 4;\n"
	"add.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 3000;\n@%p1 bra L;\n"
	"mov.u32 %r1, 0;\nmov.u32 %r5, 0;\n"
	"C:\nshl.b32 %r2, %r1, 2;\nadd.u32 %r4, %r3, %r2;\n"
	"ld.shared.u32 %r6, [%r4];\nsetp.ne.u32 %p2, %r6, 0;\n"
	"selp.u32 %r7, 1, 0, %p2;\nadd.u32 %r5, %r5, %r7;\n"
	"add.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 3000;\n@%p1 bra C;\n"
	"st.global.u32 [%rd1], %r5;\n"
	"cp.async.wait_all;\n"
	"mov.u32 %r1, 0;\nmov.u32 %r5, 0;\n"
	"D:\nshl.b32 %r2, %r1, 2;\nadd.u32 %r4, %r3, %r2;\n"
	"ld.shared.u32 %r6, [%r4];\nsetp.ne.u32 %p2, %r6, 0;\n"
	"selp.u32 %r7, 1, 0, %p2;\nadd.u32 %r5, %r5, %r7;\n"
	"add.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 3000;\n@%p1 bra D;\n"
	"st.global.u32 [%rd1+4], %r5;\nret;\n}\n"
	/* the mbarrier sequence of check_mbar_sequence(), one thread */
	".visible .entry mbar_seq(.param .u64 out)\n{\n"
	".reg .b32 %r<40>;\n.reg .b64 %rd<12>;\n.reg .pred %p<20>;\n"
	".shared .align 8 .b64 bar;\n"
	"ld.param.u64 %rd10, [out];\nmov.u32 %r1, bar;\n"
	"mbarrier.init.shared.b64 [%r1], 3;\n"
	"mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
	"mbarrier.pending_count.b64 %r10, %rd1;\n"
	"mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n"
	"selp.u32 %r11, 1, 0, %p1;\n"
	"mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [%r1], 2;\n"
	"mbarrier.pending_count.b64 %r12, %rd2;\n"
	"mbarrier.test_wait.shared.b64 %p2, [%r1], %rd1;\n"
	"selp.u32 %r13, 1, 0, %p2;\n"
	"mbarrier.test_wait.parity.shared.b64 %p3, [%r1], 0;\n"
	"selp.u32 %r14, 1, 0, %p3;\n"
	"mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 %p4, [%r1], 1;\n"
	"selp.u32 %r15, 1, 0, %p4;\n"
	"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 64;\n"
	"mbarrier.arrive.shared.b64 %rd3, [%r1], 3;\n"
	"mbarrier.test_wait.parity.shared.b64 %p5, [%r1], 1;\n"
	"selp.u32 %r16, 1, 0, %p5;\n"
	"mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 48;\n"
	"mbarrier.test_wait.parity.shared.b64 %p6, [%r1], 1;\n"
	"selp.u32 %r17, 1, 0, %p6;\n"
	"mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 16;\n"
	"mbarrier.test_wait.parity.shared.b64 %p7, [%r1], 1;\n"
	"selp.u32 %r18, 1, 0, %p7;\n"
	"mbarrier.arrive.noComplete.shared.b64 %rd4, [%r1], 2;\n"
	"mbarrier.pending_count.b64 %r19, %rd4;\n"
	"mbarrier.test_wait.parity.shared.b64 %p8, [%r1], 0;\n"
	"selp.u32 %r20, 1, 0, %p8;\n"
	"mbarrier.arrive.expect_tx.shared.b64 %rd5, [%r1], 32;\n"
	"mbarrier.test_wait.parity.shared.b64 %p9, [%r1], 0;\n"
	"selp.u32 %r21, 1, 0, %p9;\n"
	"mbarrier.complete_tx.shared::cta.b64 [%r1], 32;\n"
	"mbarrier.test_wait.parity.shared.b64 %p10, [%r1], 0;\n"
	"selp.u32 %r22, 1, 0, %p10;\n"
	"mbarrier.arrive_drop.shared.b64 %rd6, [%r1];\n"
	"mbarrier.arrive.shared.b64 %rd7, [%r1], 2;\n"
	"mbarrier.arrive.shared.b64 %rd8, [%r1];\n"
	"mbarrier.pending_count.b64 %r23, %rd8;\n"
	"mbarrier.try_wait.parity.shared.b64 %p11, [%r1], 1, 1000;\n"
	"selp.u32 %r24, 1, 0, %p11;\n"
	"mbarrier.arrive.shared.b64 _, [%r1];\n"
	"mbarrier.try_wait.parity.shared.b64 %p12, [%r1], 0;\n"
	"selp.u32 %r25, 1, 0, %p12;\n"
	"mbarrier.inval.shared.b64 [%r1];\n"
	"st.global.v4.u32 [%rd10], {%r10, %r11, %r12, %r13};\n"
	"st.global.v4.u32 [%rd10+16], {%r14, %r15, %r16, %r17};\n"
	"st.global.v4.u32 [%rd10+32], {%r18, %r19, %r20, %r21};\n"
	"st.global.v4.u32 [%rd10+48], {%r22, %r23, %r24, %r25};\nret;\n}\n"
	/* producer thread 0 fills buf by cp.async.bulk, 4 phases; 128
	 * consumers try_wait on the phase's parity; then bulk back out */
	".visible .entry mbar_bulk(.param .u64 out, .param .u64 in, .param .u64 out2)\n{\n"
	".reg .b32 %r<20>;\n.reg .b64 %rd<12>;\n.reg .pred %p<4>;\n"
	".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[512];\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"ld.param.u64 %rd3, [out2];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\nmov.u32 %r3, buf;\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\n"
	"bar.sync 0;\n"
	"mov.u32 %r4, 0;\nmov.u32 %r5, 0;\n"
	"shl.b32 %r6, %r1, 2;\nadd.u32 %r7, %r3, %r6;\n"
	"LOOP:\n"
	"@!%p1 bra WAIT;\n"
	"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 512;\n"
	"mul.wide.u32 %rd4, %r4, 512;\nadd.u64 %rd5, %rd2, %rd4;\n"
	"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd5], 512, [%r2];\n"
	"WAIT:\n"
	"and.b32 %r8, %r4, 1;\n"
	"mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r8;\n"
	"@!%p2 bra WAIT;\n"
	"ld.shared.u32 %r9, [%r7];\nadd.u32 %r5, %r5, %r9;\n"
	"bar.sync 0;\n"
	"add.u32 %r4, %r4, 1;\nsetp.lt.u32 %p3, %r4, 4;\n@%p3 bra LOOP;\n"
	"mul.wide.u32 %rd6, %r1, 4;\nadd.u64 %rd7, %rd1, %rd6;\n"
	"st.global.u32 [%rd7], %r5;\n"
	"@%p1 cp.async.bulk.global.shared::cta.bulk_group [%rd3], [%r3], 512;\n"
	"@%p1 cp.async.bulk.commit_group;\n"
	"@%p1 cp.async.bulk.wait_group.read 0;\n"
	"ret;\n}\n"
	/* cp.async tracked by an mbarrier: phase 0 with .noinc (count 64),
	 * phase 1 without it, where each thread also arrives itself */
	".visible .entry cpa_mbar(.param .u64 out, .param .u64 in)\n{\n"
	".reg .b32 %r<20>;\n.reg .b64 %rd<12>;\n.reg .pred %p<4>;\n"
	".shared .align 8 .b64 bar;\n.shared .align 16 .b8 sm[512];\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\nmov.u32 %r3, sm;\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"@%p1 mbarrier.init.shared.b64 [%r2], 64;\n"
	"shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r3, %r4;\n"
	"st.shared.u32 [%r5], 0;\nst.shared.u32 [%r5+256], 0;\n"
	"bar.sync 0;\n"
	"cvt.u64.u32 %rd3, %r4;\nadd.u64 %rd4, %rd2, %rd3;\n"
	"cp.async.ca.shared.global [%r5], [%rd4], 4;\n"
	"ld.shared.u32 %r10, [%r5];\n"
	"cp.async.mbarrier.arrive.noinc.shared.b64 [%r2];\n"
	"W0:\nmbarrier.try_wait.parity.shared.b64 %p2, [%r2], 0;\n@!%p2 bra W0;\n"
	"sub.u32 %r6, 252, %r4;\nadd.u32 %r7, %r3, %r6;\n"
	"ld.shared.u32 %r11, [%r7];\n"
	"cp.async.ca.shared.global [%r5+256], [%rd4+256], 4;\n"
	"cp.async.mbarrier.arrive.shared::cta.b64 [%r2];\n"
	"mbarrier.arrive.shared.b64 %rd5, [%r2];\n"
	"W1:\nmbarrier.try_wait.shared.b64 %p3, [%r2], %rd5;\n@!%p3 bra W1;\n"
	"ld.shared.u32 %r12, [%r7+256];\n"
	"mul.wide.u32 %rd6, %r1, 12;\nadd.u64 %rd7, %rd1, %rd6;\n"
	"st.global.u32 [%rd7], %r10;\nst.global.u32 [%rd7+4], %r11;\n"
	"st.global.u32 [%rd7+8], %r12;\nret;\n}\n"
	/* elect.sync over the full warp, then among the odd lanes only */
	".visible .entry elect(.param .u64 out)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
	"griddepcontrol.wait;\n"
	"ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
	"mul.wide.u32 %rd2, %r1, 8;\nadd.u64 %rd3, %rd1, %rd2;\n"
	"griddepcontrol.launch_dependents;\n"
	"elect.sync %r2|%p1, -1;\nselp.u32 %r3, 256, 0, %p1;\n"
	"or.b32 %r4, %r2, %r3;\nst.global.u32 [%rd3], %r4;\n"
	"mov.u32 %r5, 255;\n"
	"and.b32 %r6, %r1, 1;\nsetp.eq.u32 %p2, %r6, 0;\n@%p2 bra DONE;\n"
	"elect.sync %r7|%p3, 0xaaaaaaaa;\nselp.u32 %r8, 256, 0, %p3;\n"
	"or.b32 %r5, %r7, %r8;\n"
	"DONE:\nst.global.u32 [%rd3+4], %r5;\nret;\n}\n"
	/* misuses, one fault each */
	".visible .entry e_cpa_misaligned(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
	".shared .align 16 .b8 sm[64];\nmov.u32 %r1, sm;\nmov.u64 %rd1, 0;\n"
	"cp.async.cg.shared.global [%r1+4], [%rd1], 16, 0;\nret;\n}\n"
	".visible .entry e_cpa_range(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
	".shared .align 16 .b8 sm[64];\nmov.u32 %r1, sm;\nmov.u64 %rd1, 0;\n"
	"cp.async.ca.shared.global [%r1+8192], [%rd1], 4, 0;\nret;\n}\n"
	".visible .entry e_cpa_unmapped(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
	".shared .align 16 .b8 sm[64];\nmov.u32 %r1, sm;\nmov.u64 %rd1, 4096;\n"
	"cp.async.ca.shared.global [%r1], [%rd1], 4;\nret;\n}\n"
	".visible .entry e_mbar_uninit(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
	".shared .align 8 .b64 bar;\nmov.u32 %r1, bar;\n"
	"st.shared.u64 [%r1], 0;\nmbarrier.arrive.shared.b64 %rd1, [%r1];\nret;\n}\n"
	".visible .entry e_mbar_over(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
	".shared .align 8 .b64 bar;\nmov.u32 %r1, bar;\n"
	"mbarrier.init.shared.b64 [%r1], 1;\n"
	"mbarrier.arrive.shared.b64 %rd1, [%r1], 2;\nret;\n}\n"
	".visible .entry e_mbar_global(.param .u64 p)\n{\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [p];\nmbarrier.init.b64 [%rd1], 1;\nret;\n}\n"
	".visible .entry e_mbar_count(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
	".shared .align 8 .b64 bar;\nmov.u32 %r1, bar;\nmov.u32 %r2, 0;\n"
	"mbarrier.init.shared.b64 [%r1], %r2;\nret;\n}\n"
	".visible .entry e_bulk_size(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[64];\n"
	"ld.param.u64 %rd1, [p];\nmov.u32 %r1, bar;\nmov.u32 %r2, buf;\n"
	"mbarrier.init.shared.b64 [%r1], 1;\n"
	"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 24, [%r1];\nret;\n}\n";

/* The device heap: malloc/free as nvcc calls them. */
static const char heap_module[] = HDR
	".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
	".extern .func free(.param .b64 free_param_0);\n"
	/* every thread: malloc 40 + 16 * (id % 5) bytes, mark first and last
	 * word, record (ptr, size); even ids free at once and record 0 */
	".visible .entry heap_many(.param .u64 out)\n{\n"
	".reg .b32 %r<12>;\n.reg .b64 %rd<12>;\n.reg .pred %p<4>;\n"
	"ld.param.u64 %rd1, [out];\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
	"mad.lo.u32 %r4, %r2, %r3, %r1;\n"
	"rem.u32 %r5, %r4, 5;\nmad.lo.u32 %r7, %r5, 16, 40;\n"
	"cvt.u64.u32 %rd2, %r7;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd2;\n"
	".param .b64 retval0;\ncall.uni (retval0), malloc, (param0);\n"
	"ld.param.b64 %rd3, [retval0];\n}\n"
	"mul.wide.u32 %rd5, %r4, 16;\nadd.u64 %rd6, %rd1, %rd5;\n"
	"st.global.u64 [%rd6+8], %rd2;\n"
	"setp.eq.u64 %p2, %rd3, 0;\n@%p2 bra REC;\n"
	"st.u32 [%rd3], %r4;\nadd.u64 %rd4, %rd3, %rd2;\nsub.u64 %rd4, %rd4, 4;\n"
	"st.u32 [%rd4], %r4;\n"
	"and.b32 %r8, %r4, 1;\nsetp.eq.u32 %p1, %r8, 1;\n@%p1 bra REC;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd3;\n"
	"call.uni free, (param0);\n}\n"
	"mov.u64 %rd3, 1;\n"
	"REC:\nst.global.u64 [%rd6], %rd3;\nret;\n}\n"
	/* thread 0 takes blocks of `size` until NULL (at most 64):
	 * out[0] = count, out[1..] = the blocks */
	".visible .entry heap_fill(.param .u64 out, .param .u64 size)\n{\n"
	".reg .b32 %r<8>;\n.reg .b64 %rd<12>;\n.reg .pred %p<4>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [size];\n"
	"mov.u32 %r1, 0;\n"
	"L:\n{\n.param .b64 param0;\nst.param.b64 [param0], %rd2;\n"
	".param .b64 retval0;\ncall.uni (retval0), malloc, (param0);\n"
	"ld.param.b64 %rd3, [retval0];\n}\n"
	"setp.eq.u64 %p1, %rd3, 0;\n@%p1 bra END;\n"
	"add.u32 %r1, %r1, 1;\nmul.wide.u32 %rd4, %r1, 8;\n"
	"add.u64 %rd5, %rd1, %rd4;\nst.global.u64 [%rd5], %rd3;\n"
	"setp.lt.u32 %p2, %r1, 64;\n@%p2 bra L;\n"
	"END:\ncvt.u64.u32 %rd6, %r1;\nst.global.u64 [%rd1], %rd6;\nret;\n}\n"
	/* thread t < out[0] frees out[1 + t] */
	".visible .entry heap_free_list(.param .u64 out)\n{\n"
	".reg .b32 %r<8>;\n.reg .b64 %rd<12>;\n.reg .pred %p<4>;\n"
	"ld.param.u64 %rd1, [out];\nld.global.u64 %rd2, [%rd1];\n"
	"mov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd3, %r1;\n"
	"setp.ge.u64 %p1, %rd3, %rd2;\n@%p1 bra END;\n"
	"mul.wide.u32 %rd4, %r1, 8;\nadd.u64 %rd5, %rd1, %rd4;\n"
	"ld.global.u64 %rd6, [%rd5+8];\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd6;\n"
	"call.uni free, (param0);\n}\n"
	"END:\nret;\n}\n"
	/* out[0] = malloc(size), out[1] = malloc(0) (not NULL on an H100);
	 * free(NULL) */
	".visible .entry heap_one(.param .u64 out, .param .u64 size)\n{\n"
	".reg .b64 %rd<12>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [size];\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd2;\n"
	".param .b64 retval0;\ncall.uni (retval0), malloc, (param0);\n"
	"ld.param.b64 %rd3, [retval0];\n}\n"
	"st.global.u64 [%rd1], %rd3;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], 0;\n"
	".param .b64 retval0;\ncall.uni (retval0), malloc, (param0);\n"
	"ld.param.b64 %rd4, [retval0];\n}\n"
	"st.global.u64 [%rd1+8], %rd4;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], 0;\n"
	"call.uni free, (param0);\n}\nret;\n}\n"
	/* free(p) twice */
	".visible .entry heap_double_free(.param .u64 out)\n{\n"
	".reg .b64 %rd<12>;\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], 32;\n"
	".param .b64 retval0;\ncall.uni (retval0), malloc, (param0);\n"
	"ld.param.b64 %rd3, [retval0];\n}\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd3;\n"
	"call.uni free, (param0);\n}\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd3;\n"
	"call.uni free, (param0);\n}\nret;\n}\n"
	/* free() of an address malloc never returned */
	".visible .entry heap_bad_free(.param .u64 out)\n{\n"
	".reg .b64 %rd<4>;\nld.param.u64 %rd1, [out];\n"
	"{\n.param .b64 param0;\nst.param.b64 [param0], %rd1;\n"
	"call.uni free, (param0);\n}\nret;\n}\n";

static int launch(struct test_gpu *g, struct tg_module *m, const char *name,
		  uint32_t threads, const void *params, uint32_t psize,
		  struct vgpu_core_fault *f)
{
	const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { threads, 1, 1 };

	memset(f, 0, sizeof(*f));
	return tg_launch(g, m, name, grid, block, 0, params, psize, f);
}

static void check_groups(struct test_gpu *g, struct tg_module *m)
{
	uint64_t p[2] = { tg_alloc(g, 64 * 16), tg_alloc(g, 128 * 4) };
	uint32_t *in = tg_host(g, p[1]), *o;
	struct vgpu_core_fault f;
	int old = 0, a = 0, bnot = 0, b = 0;

	for (uint32_t i = 0; i < 128; i++)
		in[i] = 0x1000 + i * 7;
	if (!t_ok(!launch(g, m, "cpa_groups", 64, p, sizeof(p), &f),
		  "cpa_groups runs %s", f.message))
		return;
	o = tg_host(g, p[0]);
	for (uint32_t t = 0; t < 64; t++) {
		old += o[4 * t] != 0xdead;
		a += o[4 * t + 1] != in[t];
		bnot += o[4 * t + 2] != 0xdead;
		b += o[4 * t + 3] != in[64 + t];
	}
	t_ok(!old, "cp.async: before any wait the destination is old (%d wrong)", old);
	t_ok(!a, "cp.async.wait_group 1: the older group landed (%d wrong)", a);
	t_ok(!bnot, "cp.async.wait_group 1: the newest group did not (%d wrong)", bnot);
	t_ok(!b, "cp.async.wait_group 0: every group landed (%d wrong)", b);
}

/*
 * At most 1024 copies wait per warp; issuing the 1025th lands the oldest
 * 512.  3000 issues drain at 1025, 1537, 2049 and 2561: copies 0..2047
 * have landed, 2048..2999 wait.
 */
static void check_many(struct test_gpu *g, struct tg_module *m)
{
	uint64_t p[2] = { tg_alloc(g, 8), tg_alloc(g, 3000 * 4) };
	uint32_t *in = tg_host(g, p[1]), *o;
	struct vgpu_core_fault f;

	for (uint32_t i = 0; i < 3000; i++)
		in[i] = i + 1;
	if (!t_ok(!launch(g, m, "cpa_many", 1, p, sizeof(p), &f),
		  "cpa_many runs %s", f.message))
		return;
	o = tg_host(g, p[0]);
	t_ok(o[0] == 2048 && o[1] == 3000,
	     "a full copy queue lands its older half: %u landed before the wait (2048), %u after (3000)",
	     o[0], o[1]);
}

static void check_fill(struct test_gpu *g, struct tg_module *m)
{
	uint64_t p[2] = { tg_alloc(g, 64 * 48), tg_alloc(g, 64 * 16) };
	uint8_t *in = tg_host(g, p[1]), *o;
	struct vgpu_core_fault f;
	int bad[3] = { 0, 0, 0 };

	for (uint32_t i = 0; i < 64 * 16; i++)
		in[i] = (uint8_t)(i * 13 + 5);
	if (!t_ok(!launch(g, m, "cpa_fill", 64, p, sizeof(p), &f),
		  "cpa_fill runs %s", f.message))
		return;
	o = tg_host(g, p[0]);
	for (uint32_t t = 0; t < 64; t++) {
		for (uint32_t i = 0; i < 16; i++) {
			uint8_t want = i < t % 17 ? in[16 * t + i] : 0;

			bad[0] += o[48 * t + i] != want;
			want = t & 1 ? 0 : in[16 * t + i];
			bad[1] += o[48 * t + 16 + i] != want;
			want = i < 8 ? 0 : 0xff;
			bad[2] += o[48 * t + 32 + i] != want;
		}
	}
	t_ok(!bad[0], "cp.async.cg with src-size 0..16 zero-fills the rest (%d wrong)",
	     bad[0]);
	t_ok(!bad[1], "cp.async with ignore-src copies or zero-fills (%d wrong)", bad[1]);
	t_ok(!bad[2], "cp.async src-size 0 reads nothing, not even address 0 (%d wrong)",
	     bad[2]);
}

/*
 * The sequence of mbar_seq, worked out from the PTX ISA:
 *  init 3; arrive -> state of phase 0 with pending 3; test_wait false;
 *  arrive 2 -> pending 0: phase 0 completes (state had pending 2);
 *  test_wait(state 0) true; parity 0 complete, parity 1 not;
 *  phase 1: expect_tx 64, arrive 3: arrivals done, 64 bytes pending ->
 *  not complete; complete_tx 48 -> still not; complete_tx 16 -> done;
 *  phase 2: arrive.noComplete 2 (state pending 3) -> not complete;
 *  arrive.expect_tx 32: last arrival, 32 bytes pending -> not complete;
 *  complete_tx 32 -> done;
 *  phase 3: arrive_drop (expected 3 -> 2), arrive 2 -> done; phase 4
 *  expects 2: arrive (state pending 2); try_wait.parity 1 (phase 3)
 *  true; arrive _ -> phase 4 done: parity 0 true.
 */
static const uint32_t mbar_expected[16] = {
	3, 0, 2, 1, 1, 0, 0, 0, 1, 3, 0, 0, 1, 2, 1, 1,
};

static void check_mbar_sequence(struct test_gpu *g, struct tg_module *m)
{
	uint64_t out = tg_alloc(g, 64);
	struct vgpu_core_fault f;
	const uint32_t *o;
	int bad = 0;

	if (!t_ok(!launch(g, m, "mbar_seq", 1, &out, 8, &f), "mbar_seq runs %s",
		  f.message))
		return;
	o = tg_host(g, out);
	for (int i = 0; i < 16; i++)
		if (o[i] != mbar_expected[i]) {
			t_diag("mbar_seq[%d] = %u, want %u", i, o[i],
			       mbar_expected[i]);
			bad++;
		}
	t_ok(!bad, "mbarrier phases, tx-counts, noComplete, arrive_drop, waits (%d wrong)",
	     bad);
}

static void check_bulk(struct test_gpu *g, struct tg_module *m)
{
	uint64_t p[3] = { tg_alloc(g, 512), tg_alloc(g, 2048), tg_alloc(g, 512) };
	uint32_t *in = tg_host(g, p[1]), *o, *o2;
	struct vgpu_core_fault f;
	int bad = 0, bad2 = 0;

	for (uint32_t i = 0; i < 512; i++)
		in[i] = i * 2654435761u;
	if (!t_ok(!launch(g, m, "mbar_bulk", 128, p, sizeof(p), &f),
		  "mbar_bulk runs %s", f.message))
		return;
	o = tg_host(g, p[0]);
	o2 = tg_host(g, p[2]);
	for (uint32_t t = 0; t < 128; t++) {
		uint32_t want = 0;

		for (uint32_t k = 0; k < 4; k++)
			want += in[128 * k + t];
		bad += o[t] != want;
		bad2 += o2[t] != in[384 + t];
	}
	t_ok(!bad, "cp.async.bulk + expect_tx/complete_tx: 128 consumers, 4 phases (%d wrong)",
	     bad);
	t_ok(!bad2, "cp.async.bulk shared -> global in a bulk group (%d wrong)", bad2);
}

static void check_cpa_mbar(struct test_gpu *g, struct tg_module *m)
{
	uint64_t p[2] = { tg_alloc(g, 64 * 12), tg_alloc(g, 128 * 4) };
	uint32_t *in = tg_host(g, p[1]), *o;
	struct vgpu_core_fault f;
	int old = 0, b0 = 0, b1 = 0;

	for (uint32_t i = 0; i < 128; i++)
		in[i] = 0x5000 + i * 3;
	if (!t_ok(!launch(g, m, "cpa_mbar", 64, p, sizeof(p), &f),
		  "cpa_mbar runs %s", f.message))
		return;
	o = tg_host(g, p[0]);
	for (uint32_t t = 0; t < 64; t++) {
		old += o[3 * t] != 0;
		b0 += o[3 * t + 1] != in[63 - t];
		b1 += o[3 * t + 2] != in[64 + 63 - t];
	}
	t_ok(!old, "cp.async tracked by an mbarrier: old data before the arrive (%d wrong)",
	     old);
	t_ok(!b0, "cp.async.mbarrier.arrive.noinc: the phase completes with the copies (%d wrong)",
	     b0);
	t_ok(!b1, "cp.async.mbarrier.arrive without .noinc (%d wrong)", b1);
}

static void check_elect(struct test_gpu *g, struct tg_module *m)
{
	uint64_t out = tg_alloc(g, 64 * 8);
	struct vgpu_core_fault f;
	const uint32_t *o;
	int bad = 0;

	if (!t_ok(!launch(g, m, "elect", 64, &out, 8, &f), "elect runs %s",
		  f.message))
		return;
	o = tg_host(g, out);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t lane = t % 32;
		uint32_t want0 = 0 | (lane == 0 ? 256u : 0u);
		uint32_t want1 = t & 1 ? 1 | (lane == 1 ? 256u : 0u) : 255;

		bad += o[2 * t] != want0;
		bad += o[2 * t + 1] != want1;
	}
	t_ok(!bad, "elect.sync: the lowest member lane, full and divergent (%d wrong)",
	     bad);
}

static void check_faults(struct test_gpu *g, struct tg_module *m)
{
	static const struct {
		const char *kernel;
		uint32_t kind;
		const char *what;
	} cases[] = {
		{ "e_cpa_misaligned", VISA_FAULT_MISALIGNED,
		  "cp.async to a destination not aligned to its size" },
		{ "e_cpa_range", VISA_FAULT_OUT_OF_RANGE,
		  "cp.async past the block's shared memory" },
		{ "e_cpa_unmapped", VISA_FAULT_UNMAPPED,
		  "cp.async from an unmapped source" },
		{ "e_mbar_uninit", VISA_FAULT_TRAP,
		  "arrive on an object that is no mbarrier" },
		{ "e_mbar_over", VISA_FAULT_TRAP,
		  "more arrivals than the phase has pending" },
		{ "e_mbar_global", VISA_FAULT_OUT_OF_RANGE,
		  "an mbarrier at a global address" },
		{ "e_mbar_count", VISA_FAULT_OUT_OF_RANGE,
		  "mbarrier.init with count 0" },
		{ "e_bulk_size", VISA_FAULT_MISALIGNED,
		  "cp.async.bulk of 24 bytes" },
	};
	uint64_t buf = tg_alloc(g, 4096);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vgpu_core_fault f;
		int r = launch(g, m, cases[i].kernel, 1, &buf, 8, &f);

		t_ok(r == 1 && f.kind == cases[i].kind,
		     "fault: %s (result %d, kind %u, %s)", cases[i].what, r,
		     f.kind, f.message);
	}
}

/* Point the module's heap descriptor at a fresh heap of @size bytes. */
static uint64_t new_heap(struct test_gpu *g, struct tg_module *m,
			 uint64_t size)
{
	uint64_t sym = tg_symbol(g, m, VISA_HEAP_SYMBOL);
	uint64_t va = size ? tg_alloc(g, size) : 0;
	struct visa_heap_desc *d;

	if (!t_ok(sym != 0, "the module has a heap descriptor"))
		return 0;
	d = tg_host(g, sym);
	d->va = va;
	d->size = size;
	return va;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void check_heap(struct test_gpu *g)
{
	const uint32_t grid4[3] = { 4, 1, 1 }, b128[3] = { 128, 1, 1 };
	const uint32_t one[3] = { 1, 1, 1 }, b64[3] = { 64, 1, 1 };
	char msg[512], err[256];
	struct vgpu_core_fault f;
	struct tg_module m;
	uint64_t heap, out, p[2], *o, kept[512];
	int bad = 0, nkept = 0;
	size_t size;
	void *img;

	if (!t_ok(!t_compile("heap.ptx", heap_module, &img, &size, msg,
			     sizeof(msg)), "the heap module compiles %s", msg))
		return;
	if (!t_ok(!tg_load(g, img, size, &m, err, sizeof(err)),
		  "the core loads it %s", err) ||
	    !t_ok(tg_symbol(g, &m, VISA_HEAP_SYMBOL) != 0,
		  "the compiler added the heap descriptor %s", VISA_HEAP_SYMBOL)) {
		free(img);
		return;
	}
	t_ok(t_kernel(img, "heap_many") &&
	     (t_kernel(img, "heap_many")->flags & VISA_KERNEL_USES_HEAP),
	     "a kernel calling malloc is flagged USES_HEAP");

	/* 512 threads on 2 SMs allocate at once; odd ones keep theirs */
	heap = new_heap(g, &m, 256 << 10);
	out = tg_alloc(g, 512 * 16);
	if (t_ok(!tg_launch(g, &m, "heap_many", grid4, b128, 0, &out, 8, &f),
		 "heap_many runs %s", f.message)) {
		o = tg_host(g, out);
		for (uint32_t t = 0; t < 512; t++) {
			uint64_t ptr = o[2 * t], sz = o[2 * t + 1];

			if (sz != 40 + 16 * (t % 5) || !ptr) {
				bad++;
				continue;
			}
			if (!(t & 1)) {
				bad += ptr != 1;
				continue;
			}
			if (ptr & 15 || ptr < heap || ptr + sz > heap + (256 << 10) ||
			    *(uint32_t *)tg_host(g, ptr) != t ||
			    *(uint32_t *)tg_host(g, ptr + sz - 4) != t)
				bad++;
			kept[nkept++] = ptr;
		}
		qsort(kept, nkept, 8, cmp_u64);
		for (int i = 1; i < nkept; i++)
			bad += kept[i] < kept[i - 1] + 40;	/* overlap */
		t_ok(!bad && nkept == 256,
		     "512 threads malloc at once: aligned, in the heap, disjoint, intact (%d wrong)",
		     bad);
	}

	/* 64 KiB: header 64 + end 16, blocks of 8 KiB + 16: 7 fit */
	new_heap(g, &m, 64 << 10);
	p[0] = out;
	p[1] = 8192;
	if (t_ok(!tg_launch(g, &m, "heap_fill", one, one, 0, p, 16, &f),
		 "heap_fill runs %s", f.message)) {
		o = tg_host(g, out);
		t_ok(o[0] == 7, "exhaustion: 7 blocks of 8 KiB in 64 KiB, then NULL (%llu)",
		     (unsigned long long)o[0]);
	}
	t_ok(!tg_launch(g, &m, "heap_free_list", one, b64, 0, &out, 8, &f),
	     "64 threads free them at once %s", f.message);
	p[1] = 60000;
	if (t_ok(!tg_launch(g, &m, "heap_one", one, one, 0, p, 16, &f),
		 "heap_one runs %s", f.message)) {
		o = tg_host(g, out);
		t_ok(o[0] != 0, "freed blocks merge: 60000 bytes fit again");
		t_ok(o[1] != 0 && o[1] != o[0],
		     "malloc(0) is a block of its own, as on an H100; free(NULL) does nothing");
	}
	p[1] = 1 << 20;
	if (t_ok(!tg_launch(g, &m, "heap_one", one, one, 0, p, 16, &f),
		 "heap_one (too large) runs %s", f.message))
		t_ok(((uint64_t *)tg_host(g, out))[0] == 0,
		     "more than the heap: NULL");

	/* no heap: malloc answers NULL */
	new_heap(g, &m, 0);
	p[1] = 16;
	if (t_ok(!tg_launch(g, &m, "heap_one", one, one, 0, p, 16, &f),
		 "heap_one without a heap runs %s", f.message))
		t_ok(((uint64_t *)tg_host(g, out))[0] == 0,
		     "without a heap malloc is NULL");

	new_heap(g, &m, 64 << 10);
	t_ok(tg_launch(g, &m, "heap_double_free", one, one, 0, &out, 8, &f) == 1 &&
	     f.kind == VISA_FAULT_OUT_OF_RANGE && strstr(f.message, "double free"),
	     "fault: free() twice (%s)", f.message);
	new_heap(g, &m, 64 << 10);
	t_ok(tg_launch(g, &m, "heap_bad_free", one, one, 0, &out, 8, &f) == 1 &&
	     f.kind == VISA_FAULT_OUT_OF_RANGE && strstr(f.message, "did not return"),
	     "fault: free() of a pointer malloc did not return (%s)", f.message);
	tg_unload(&m);
	free(img);
}

/* Compile errors: each PTX line must be refused with the message. */
static void check_compile_errors(void)
{
	static const struct {
		const char *insn;
		const char *msg;
	} cases[] = {
		{ "cp.async.ca.shared.global [%r1], [%rd1], 12;",
		  "4, 8 or 16 bytes" },
		{ "cp.async.cg.shared.global [%r1], [%rd1], 8;", "copies 16 bytes" },
		{ "cp.async.ca.shared.global [%r1], [%rd1], 4, 8;", "at most its copy size" },
		{ "cp.async.shared.global [%r1], [%rd1], 4;", ".ca and .cg" },
		{ "cp.async.wait_group %r1;", "is a constant" },
		{ "mbarrier.init.shared.b32 [%r1], 1;", "needs .b64" },
		{ "mbarrier.init.global.b64 [%rd1], 1;", "not supported" },
		{ "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], [%r1];",
		  "expected [tensor-map, {coordinates}]" },
		{ "elect.sync %r1, -1;", "d|p" },
		{ "griddepcontrol;", ".launch_dependents or .wait" },
		{ "griddepcontrol.launch;", "not supported" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024], msg[512];
		void *img = NULL;
		size_t size;
		int r;

		snprintf(text, sizeof(text), HDR
			 ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n"
			 ".reg .b64 %%rd<4>;\n%s\nret;\n}\n", cases[i].insn);
		r = t_compile("err.ptx", text, &img, &size, msg, sizeof(msg));
		t_ok(r && strstr(msg, cases[i].msg),
		     "refused: %s (%s)", cases[i].insn, msg);
		free(img);
	}
}

/* nvcc's PTX for the CUDA APIs (cu/async.cu), against C. */
static void check_nvcc(struct test_gpu *g, const char *arch)
{
	char path[512], msg[512], err[256];
	struct vgpu_core_fault f;
	struct tg_module m;
	const uint32_t grid2[3] = { 2, 1, 1 }, b256[3] = { 256, 1, 1 };
	const uint32_t one[3] = { 1, 1, 1 }, b128[3] = { 128, 1, 1 };
	uint64_t p[2];
	int32_t *in, *o;
	size_t size;
	void *img;
	char *text;
	int bad;

	snprintf(path, sizeof(path), "%s/%s/async.ptx", PTX_TEST_DATA, arch);
	text = t_read_file(path, NULL);
	if (!t_ok(text != NULL, "%s: read %s", arch, path))
		return;
	if (!t_ok(!t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "%s: nvcc's async.ptx compiles %s", arch, msg)) {
		free(text);
		return;
	}
	free(text);
	if (!t_ok(!tg_load(g, img, size, &m, err, sizeof(err)),
		  "%s: the core loads async.ptx %s", arch, err)) {
		free(img);
		return;
	}
	p[0] = tg_alloc(g, 1024 * 4);
	p[1] = tg_alloc(g, 1024 * 4);
	in = tg_host(g, p[1]);
	for (int i = 0; i < 1024; i++)
		in[i] = i * 31 - 7000;

	/* __pipeline_memcpy_async: out[b*256+t] = in[b*256 + 255-t] */
	bad = !t_ok(!tg_launch(g, &m, "pipe_prim", grid2, b256, 0, p, 16, &f),
		    "%s: pipe_prim runs %s", arch, f.message);
	o = tg_host(g, p[0]);
	for (int i = 0; !bad && i < 512; i++)
		bad += o[i] != in[(i & ~255) + 255 - (i & 255)];
	t_ok(!bad, "%s: __pipeline_memcpy_async/commit/wait_prior (%d wrong)", arch, bad);

	/* cuda::memcpy_async with a cuda::barrier, 256 threads x 2 words */
	{
		bad = !t_ok(!tg_launch(g, &m, "bar_kernel", grid2, b256, 0, p,
				       sizeof(p), &f),
			    "%s: bar_kernel runs %s", arch, f.message);
	}
	for (int i = 0; !bad && i < 512; i++) {
		int b = i / 256, t = i % 256;

		bad += o[i] != in[b * 512 + 2 * t] + in[b * 512 + 2 * t + 1];
	}
	t_ok(!bad, "%s: cuda::memcpy_async + cuda::barrier arrive_and_wait (%d wrong)",
	     arch, bad);

	/* cuda::pipeline, 2 stages, 4 rounds of 128 words */
	bad = !t_ok(!tg_launch(g, &m, "pipe_kernel", one, b128, 0, p, 16, &f),
		    "%s: pipe_kernel runs %s", arch, f.message);
	for (int t = 0; !bad && t < 128; t++) {
		int want = 0;

		for (int k = 0; k < 4; k++)
			want += in[k * 128 + t];
		bad += o[t] != want;
	}
	t_ok(!bad, "%s: cuda::pipeline producer/consumer stages (%d wrong)", arch, bad);

	/* new[]/delete[] through the device heap */
	new_heap(g, &m, 1 << 20);
	bad = !t_ok(!tg_launch(g, &m, "heap_new", one, b128, 0, p, 16, &f),
		    "%s: heap_new runs %s", arch, f.message);
	for (int t = 0; !bad && t < 128; t++)
		bad += o[t] != 16 * t + 6;
	t_ok(!bad, "%s: new[]/delete[] in a kernel (%d wrong)", arch, bad);
	tg_unload(&m);
	free(img);
}

int main(void)
{
	char msg[512], err[256];
	struct test_gpu g;
	struct tg_module m;
	size_t size;
	void *img;

	t_start();
	check_compile_errors();
	if (!t_ok(!t_compile("async.ptx", module, &img, &size, msg, sizeof(msg)),
		  "the async module compiles %s", msg))
		return t_done();
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		return t_done();
	if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		 "the core loads it %s", err)) {
		check_groups(&g, &m);
		check_fill(&g, &m);
		check_many(&g, &m);
		check_mbar_sequence(&g, &m);
		check_bulk(&g, &m);
		check_cpa_mbar(&g, &m);
		check_elect(&g, &m);
		check_faults(&g, &m);
		tg_unload(&m);
	}
	free(img);
	check_heap(&g);
	check_nvcc(&g, "sm_90");
	check_nvcc(&g, "sm_75");
	tg_fini(&g);
	return t_done();
}
