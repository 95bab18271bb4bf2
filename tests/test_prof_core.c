// SPDX-License-Identifier: GPL-2.0
/*
 * test_prof_core - the execution core's counters (firmware_sim/core/
 * counters.c) against the H100, without the firmware or a guest.
 *
 * Compiles tools/cuda-probe/probe_counters.cu's PTX, runs some of its
 * launches on the core with vgpu_core_launch.counters set, and compares
 * the address-determined counters with the same launch in the H100's
 * Nsight Compute recording (tests/golden/probe_counters.h100.csv, found
 * by launch ID).  Each launch runs twice: with the module on the
 * interpreter, and with its native tier selected, which a counting grid
 * must leave for the interpreter: the counts must be the same.  (The guest
 * test test_prof_counters compares all 89 launches, end to end.)  Last,
 * with the L2 model attached: every global and local sector of a launch
 * is an L2 lookup (local memory has an address of its own in the model).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_compiler.h"
#include "tap.h"
#include "test_gpu.h"
#include "vgpu_jit.h"
#include "../tools/prof/tests/ncu_csv.h"

#ifndef PROBE_PTX
#error "build with -DPROBE_PTX and -DGOLDEN_CSV"
#endif

static struct tap t;
static struct test_gpu gpu;
static struct tg_module mod;

/* The counters the H100 recording has, by metric name (vgpu_counters.h). */
enum {
#define IDX(f, metric, unit, desc) K_##f,
	VGPU_COUNTERS(IDX)
#undef IDX
	K_COUNT
};
static const char *const metric_names[K_COUNT] = {
#define NAME(f, metric, unit, desc) metric,
	VGPU_COUNTERS(NAME)
#undef NAME
};
/* Address-determined: the ones that must equal the H100's. */
static const int exact[] = {
	K_gld_requests, K_gld_sectors, K_gst_requests, K_gst_sectors,
	K_sld_requests, K_sld_wavefronts, K_sld_conflicts,
	K_sst_requests, K_sst_wavefronts, K_sst_conflicts,
};
#define NEXACT (sizeof(exact) / sizeof(exact[0]))

static long long h100[NCU_MAX_LAUNCHES][K_COUNT];
static char h100_kernel[NCU_MAX_LAUNCHES][64];

static void take(void *arg, int id, const char *kernel, const char *metric,
		 long long value)
{
	(void)arg;
	snprintf(h100_kernel[id], sizeof(h100_kernel[id]), "%s", kernel);
	for (int k = 0; k < K_COUNT; k++)
		if (!strcmp(metric, metric_names[k]))
			h100[id][k] = value;
}

static uint64_t field(const struct vgpu_core_counters *c, int k)
{
	const uint64_t *f = (const uint64_t *)c;	/* all uint64_t */

	return f[k];
}

struct probe_launch {
	int id;				/* in the recording */
	const char *kernel;
	uint32_t grid[3], block[3];
	int nint;			/* int parameters after the pointers */
	int npointers;
	int32_t ints[2];
};

static int run(const struct probe_launch *p, int tier,
	       struct vgpu_core_counters *c, uint64_t out, uint64_t in,
	       struct vgpu_l2 *l2)
{
	uint8_t params[32] = { 0 };
	uint32_t size = 0;
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;

	memcpy(params, &out, 8);
	size = 8;
	if (p->npointers == 2) {
		memcpy(params + 8, &in, 8);
		size = 16;
	}
	memcpy(params + size, p->ints, 4 * (size_t)p->nint);
	size += 4 * (uint32_t)p->nint;
	if (tg_launch_desc(&gpu, &mod, p->kernel, p->grid, p->block, 0,
			   params, size, &l) ||
	    vgpu_jit_module_select(mod.mod, tier))
		return -1;
	l.counters = c;
	l.l2 = l2;
	return vgpu_core_launch(gpu.core, &l, &f);
}

/*
 * local_array (32 floats a thread, indexed by data) and a transpose with
 * the L2 model: the lookups are the global and local sectors, and the
 * local loads find the lines the local stores wrote.
 */
static void check_l2_local(uint64_t out, uint64_t in)
{
	static const struct probe_launch loc = {
		88, "local_array", { 32, 1, 1 }, { 256, 1, 1 }, 0, 2, { 0, 0 }
	};
	static const struct probe_launch tr = {
		86, "transpose_tiled", { 8, 8, 1 }, { 32, 8, 1 }, 0, 2, { 0, 0 }
	};
	struct vgpu_l2 *l2 = vgpu_l2_create(VGPU_L2_BYTES);
	struct vgpu_core_counters c, d;
	uint64_t global, local;

	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	if (!l2 || run(&loc, VGPU_TIER_INTERP, &c, out, in, l2) ||
	    run(&tr, VGPU_TIER_INTERP, &d, out, in, l2)) {
		tap_ok(&t, 0, "local_array and transpose_tiled run with the L2");
		vgpu_l2_destroy(l2);
		return;
	}
	global = c.gld_sectors + c.gst_sectors;
	local = c.lld_sectors + c.lst_sectors;
	tap_ok(&t, c.lld_sectors && c.lst_sectors &&
	       c.l2_sectors == global + local &&
	       c.l2_hits + c.l2_misses == c.l2_sectors &&
	       c.l2_hits >= c.lld_sectors &&
	       d.l2_sectors == d.gld_sectors + d.gst_sectors,
	       "L2 lookups are the global and local sectors: local_array "
	       "%llu = %llu global + %llu local (%llu hits), transpose_tiled "
	       "%llu = %llu global", (unsigned long long)c.l2_sectors,
	       (unsigned long long)global, (unsigned long long)local,
	       (unsigned long long)c.l2_hits,
	       (unsigned long long)d.l2_sectors,
	       (unsigned long long)(d.gld_sectors + d.gst_sectors));
	vgpu_l2_destroy(l2);
}

static void check_launch(const struct probe_launch *p, uint64_t out,
			 uint64_t in, bool native)
{
	struct vgpu_core_counters ci, cn;
	int differ = 0;

	memset(&ci, 0, sizeof(ci));
	memset(&cn, 0, sizeof(cn));
	if (run(p, VGPU_TIER_INTERP, &ci, out, in, NULL)) {
		tap_ok(&t, 0, "launch %d %s runs", p->id, p->kernel);
		return;
	}
	for (size_t i = 0; i < NEXACT; i++) {
		int k = exact[i];

		if ((long long)field(&ci, k) == h100[p->id][k])
			continue;
		tap_diag("launch %d %s: %s = %llu, H100 %lld", p->id,
			 p->kernel, metric_names[k],
			 (unsigned long long)field(&ci, k), h100[p->id][k]);
		differ++;
	}
	tap_ok(&t, !strcmp(h100_kernel[p->id], p->kernel) && !differ,
	       "launch %d %s: sectors, requests, wavefronts, conflicts as "
	       "on the H100", p->id, p->kernel);
	if (!native)
		return;
	/* compiled now: the counting launch must still not use it */
	vgpu_jit_module_compile(mod.mod,
				vgpu_core_module_find_kernel(mod.mod, p->kernel));
	if (run(p, VGPU_TIER_NATIVE, &cn, out, in, NULL)) {
		tap_ok(&t, 0, "launch %d %s runs with the native tier", p->id,
		       p->kernel);
		return;
	}
	cn.duration_ns = ci.duration_ns;	/* the caller's, 0 here */
	tap_ok(&t, !memcmp(&ci, &cn, sizeof(ci)) && ci.warp_insns &&
	       ci.thread_insns,
	       "launch %d %s: the same counts with the native tier selected "
	       "(%llu warp instructions)", p->id, p->kernel,
	       (unsigned long long)cn.warp_insns);
}

int main(void)
{
	static const struct probe_launch launches[] = {
		{ 11, "copy_f32x4_stride", { 32, 1, 1 }, { 256, 1, 1 }, 1, 2,
		  { 2, 0 } },
		{ 24, "ld_f32_stride", { 32, 1, 1 }, { 256, 1, 1 }, 1, 2,
		  { 32, 0 } },
		{ 33, "copy_f32_offset", { 32, 1, 1 }, { 256, 1, 1 }, 2, 2,
		  { 1, 8192 - 3 } },
		{ 48, "copy_f32_offset", { 32, 1, 1 }, { 256, 1, 1 }, 2, 2,
		  { 32, 8192 - 3 } },
		{ 51, "ld_f32_bcast_perm", { 32, 1, 1 }, { 256, 1, 1 }, 0, 2,
		  { 0, 0 } },
		{ 58, "smem_f64_stride", { 4, 1, 1 }, { 64, 1, 1 }, 1, 1,
		  { 2, 0 } },
		{ 66, "smem_f32x4_stride", { 4, 1, 1 }, { 64, 1, 1 }, 1, 1,
		  { 3, 0 } },
		{ 81, "smem_u8_stride", { 4, 1, 1 }, { 64, 1, 1 }, 1, 1,
		  { 128, 0 } },
		{ 84, "smem_bcast", { 4, 1, 1 }, { 64, 1, 1 }, 0, 1, { 0, 0 } },
		{ 86, "transpose_tiled", { 8, 8, 1 }, { 32, 8, 1 }, 0, 2,
		  { 0, 0 } },
		{ 87, "transpose_padded", { 8, 8, 1 }, { 32, 8, 1 }, 0, 2,
		  { 0, 0 } },
	};
	struct vgpu_ptx_source src = { 0 };
	struct vgpu_ptx_diag diag;
	char err[512], *golden;
	uint64_t in, out;
	size_t size;
	bool native;
	void *img;
	int n;

	tap_plan(2 + 2 * (int)(sizeof(launches) / sizeof(launches[0])));
	golden = ncu_read_file(GOLDEN_CSV);
	n = golden ? ncu_rows(golden, take, NULL) : 0;
	free(golden);
	tap_ok(&t, n == 89, "the H100 recording has 89 launches (%d)", n);
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
		tap_diag("cannot set up the core: %s", err);
		return 1;
	}
	vgpu_ptx_free(img);
	gpu.both_tiers = false;
	native = !vgpu_jit_module_select(mod.mod, VGPU_TIER_NATIVE);
	if (!native)
		tap_diag("no native tier: the tier checks are skipped");
	in = tg_alloc(&gpu, 4u << 20);
	out = tg_alloc(&gpu, 4u << 20);
	for (size_t i = 0; i < sizeof(launches) / sizeof(launches[0]); i++) {
		check_launch(&launches[i], out, in, native);
		if (!native)
			tap_ok(&t, 1, "# SKIP no native tier");
	}
	check_l2_local(out, in);
	tg_unload(&mod);
	tg_fini(&gpu);
	return tap_done(&t);
}
