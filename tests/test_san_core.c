// SPDX-License-Identifier: GPL-2.0
/*
 * test_san_core - the execution core's sanitizer checks
 * (firmware_sim/core/sanitizer.c), without the firmware or a guest.
 *
 * Compiles the planted bugs of tools/cuda-probe/probe_sanitizer.cu to PTX
 * (nvcc -lineinfo, so the line table holds the CUDA lines), runs them on
 * the core as sanitized grids with an allocation table made here, and
 * checks each finding field by field: kind, thread, address, allocation,
 * source line, and for a race its pair of lines and hazard bytes.  The
 * counts are the H100's (compute-sanitizer's report of the same bugs,
 * tools/cuda-probe/golden/probe_sanitizer.h100.txt): 1 out-of-bounds
 * write by thread 31 at line 21, 256 hazards between lines 44 and 46, 16
 * divergent threads at line 52, 32 uninitialised reads at line 67.  The
 * module gets the native tier, which a sanitized grid must leave for the
 * interpreter.  The guest test test_sanitizer checks the whole path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_compiler.h"
#include "tap.h"
#include "test_gpu.h"
#include "vgpu_jit.h"

#ifndef PROBE_PTX
#error "build with -DPROBE_PTX"
#endif

static struct tap t;
static struct test_gpu gpu;
static struct tg_module mod;
static struct vgpu_san_report reports[VGPU_SAN_MAX_REPORTS];

/* A sanitized launch of @kernel(@p0[, @p1]) on one block of @threads. */
static int run(const char *kernel, uint32_t threads, uint64_t p0,
	       uint64_t p1, int nparams, uint32_t tools,
	       const struct vgpu_san_alloc *table, uint32_t n,
	       uint8_t **init, struct vgpu_core_sanitizer *san)
{
	const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { threads, 1, 1 };
	const uint64_t params[2] = { p0, p1 };
	struct vgpu_core_counters c = { 0 };
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;

	memset(san, 0, sizeof(*san));
	san->tools = tools;
	san->allocs = table;
	san->nallocs = n;
	san->init = init;
	san->cap = VGPU_SAN_MAX_REPORTS;
	san->reports = reports;
	pthread_mutex_init(&san->lock, NULL);
	if (tg_launch_desc(&gpu, &mod, kernel, grid, block, 0, params,
			   8 * (uint32_t)nparams, &l))
		return -1;
	l.counters = &c;
	l.sanitizer = san;
	return vgpu_core_launch(gpu.core, &l, &f);
}

static bool file_is_probe(const struct vgpu_san_report *r)
{
	size_t n = strnlen(r->file, sizeof(r->file));

	return n >= 18 && !strcmp(r->file + n - 18, "probe_sanitizer.cu");
}

static struct vgpu_san_alloc entry(uint64_t base, uint64_t size,
				   uint32_t flags)
{
	return (struct vgpu_san_alloc){ .base = base, .size = size,
		.map_base = base, .map_size = 64 << 10, .flags = flags };
}

int main(void)
{
	struct vgpu_ptx_source src = { 0 };
	struct vgpu_core_sanitizer san;
	struct vgpu_san_alloc table[2];
	struct vgpu_ptx_diag diag;
	uint8_t bits[16], *init[2];
	const struct vgpu_san_report *r = reports;
	uint64_t a, b;
	char err[512];
	size_t size;
	void *img;
	int rc, ok;

	tap_plan(10);
	vgpu_jit_set_tier(VGPU_TIER_NATIVE);
	src.text = tg_read_text(PROBE_PTX);
	if (!src.text)
		return tap_done(&t) | 1;
	src.len = strlen(src.text);
	if (vgpu_ptx_compile(&src, 1, NULL, &img, &size, &diag)) {
		vgpu_ptx_format_diag(&diag, err, sizeof(err));
		tap_diag("%s", err);
		return 1;
	}
	free((void *)src.text);
	if (tg_init(&gpu, 2) ||
	    tg_load(&gpu, img, size, &mod, err, sizeof(err))) {
		tap_diag("%s", err);
		return 1;
	}
	vgpu_ptx_free(img);
	gpu.both_tiers = false;
	a = tg_alloc(&gpu, 64 << 10);	/* the probe's 128-byte buffer */
	b = tg_alloc(&gpu, 64 << 10);	/* and its 256-byte one */
	table[0] = entry(a < b ? a : b, a < b ? 128 : 256, 0);
	table[1] = entry(a < b ? b : a, a < b ? 256 : 128, 0);

	/* memcheck: a[32] of a 128-byte allocation, in mapped memory */
	rc = run("_Z9oob_writePi", 32, a, 0, 1, VGPU_SAN_MEMCHECK, table, 2,
		 NULL, &san);
	tap_ok(&t, rc == 0 && san.count == 1 &&
	       r->kind == VGPU_SAN_OUT_OF_BOUNDS && r->is_write &&
	       r->access_size == 4 && r->address == a + 128 &&
	       r->thread[0] == 31 && r->alloc_base == a &&
	       r->alloc_size == 128 && r->line == 21 && file_is_probe(r),
	       "memcheck: thread 31's write 1 byte after a's 128 bytes, "
	       "line 21 (%d findings)", (int)san.count);

	rc = run("_Z10misalignedPi", 32, a, 0, 1, VGPU_SAN_MEMCHECK, table,
		 2, NULL, &san);
	tap_ok(&t, rc == 1 && san.count == 1 &&
	       r->kind == VGPU_SAN_MISALIGNED && r->address == a + 2 &&
	       r->thread[0] == 3 && r->line == 32,
	       "memcheck: thread 3's misaligned write is found before the "
	       "fault it makes (%d findings)", (int)san.count);

	/* a freed: every thread's write is a use after free */
	table[a < b ? 0 : 1].flags = VGPU_SAN_ALLOC_FREED;
	rc = run("_Z14use_after_freePi", 32, a, 0, 1, VGPU_SAN_MEMCHECK,
		 table, 2, NULL, &san);
	ok = rc == 0 && san.count == 32;
	for (uint32_t i = 0; ok && i < san.count; i++)
		ok = reports[i].kind == VGPU_SAN_USE_AFTER_FREE &&
		     reports[i].line == 37;
	tap_ok(&t, ok, "memcheck: 32 writes into a freed allocation "
	       "(%d findings)", (int)san.count);
	table[a < b ? 0 : 1].flags = 0;

	rc = run("_Z5cleanPi", 32, a, 0, 1, VGPU_SAN_MEMCHECK, table, 2,
		 NULL, &san);
	tap_ok(&t, rc == 0 && san.count == 0, "memcheck: a clean kernel has "
	       "no finding (%d)", (int)san.count);

	/* racecheck: 64 threads read their neighbour's word, no barrier */
	rc = run("_Z9smem_racePi", 64, b, 0, 1, VGPU_SAN_RACECHECK, table, 2,
		 NULL, &san);
	ok = rc == 0 && san.count == 1 && r->count == 256;
	tap_ok(&t, ok && ((r->kind == VGPU_SAN_RACE_RAW && r->line == 46 &&
			   r->line2 == 44) ||
			  (r->kind == VGPU_SAN_RACE_WAR && r->line == 44 &&
			   r->line2 == 46)),
	       "racecheck: one race between lines 44 and 46, 256 hazard "
	       "bytes as on the H100 (%d findings, %u hazards)",
	       (int)san.count, san.count ? r->count : 0);

	/* synccheck: __syncthreads() by half a warp */
	rc = run("_Z17divergent_barrierPi", 32, b, 0, 1, VGPU_SAN_SYNCCHECK,
		 table, 2, NULL, &san);
	ok = san.count == 16;
	for (uint32_t i = 0; ok && i < san.count; i++)
		ok = reports[i].kind == VGPU_SAN_DIVERGENT_BARRIER &&
		     reports[i].thread[0] < 16 && reports[i].line == 52;
	tap_ok(&t, rc == 0 && ok, "synccheck: the 16 threads at the "
	       "divergent barrier, line 52 (%d findings)", (int)san.count);
	rc = run("_Z9smem_racePi", 64, b, 0, 1, VGPU_SAN_SYNCCHECK, table, 2,
		 NULL, &san);
	tap_ok(&t, rc == 0 && san.count == 0, "synccheck: no barrier, no "
	       "finding (%d)", (int)san.count);

	/* initcheck: a never written, b written; out = b */
	memset(bits, 0, sizeof(bits));
	init[0] = a < b ? bits : NULL;
	init[1] = a < b ? NULL : bits;
	rc = run("_Z11read_uninitPKiPi", 32, a, b, 2, VGPU_SAN_INITCHECK,
		 table, 2, init, &san);
	ok = rc == 0 && san.count == 32;
	for (uint32_t i = 0; ok && i < san.count; i++)
		ok = reports[i].kind == VGPU_SAN_UNINIT_READ &&
		     reports[i].address == a + 4 * reports[i].thread[0] &&
		     reports[i].line == 67;
	tap_ok(&t, ok, "initcheck: each of 32 threads reads an int never "
	       "written, line 67 (%d findings)", (int)san.count);
	rc = run("_Z5cleanPi", 32, a, 0, 1, VGPU_SAN_INITCHECK, table, 2,
		 init, &san);
	ok = rc == 0 && san.count == 0;
	for (int i = 0; i < 16; i++)
		ok = ok && bits[i] == 0xff;
	tap_ok(&t, ok, "initcheck: a kernel's stores mark all 128 bytes "
	       "written");
	rc = run("_Z11read_uninitPKiPi", 32, a, b, 2, VGPU_SAN_INITCHECK,
		 table, 2, init, &san);
	tap_ok(&t, rc == 0 && san.count == 0, "initcheck: reading them "
	       "afterwards is fine (%d findings)", (int)san.count);

	tg_unload(&mod);
	tg_fini(&gpu);
	return tap_done(&t);
}
