// SPDX-License-Identifier: GPL-2.0
/*
 * timing_model.c - modelled GPU time (VGPU_TIMING=model).
 *
 * By default an event's timestamp is the firmware's host clock, so
 * cudaEventElapsedTime measures how fast the host interprets a kernel.
 * With VGPU_TIMING=model in the environment every kernel launch is
 * counted (as under vgpu-prof: the counters and the L2 model, launches
 * serialised), its GPU time is computed from the counters with the cost
 * model below, and the context's *model clock* advances by it; an event
 * records the model clock instead of the host's.  The curves of the
 * CUDA guide's experiments (bandwidth against stride and offset) then
 * have the hardware's shape on any host; the numbers are a model's
 * (Documentation/profiler.rst, "Modelled GPU time").
 *
 * The model, for an H100 SXM5 (its published figures):
 *
 *   t = launch + max(issue, shared, l2, dram) / share
 *   issue  = warp instructions       / (132 SMs x 4 schedulers x clock)
 *   shared = shared wavefronts       / (132 SMs x 1 per cycle x clock)
 *   l2     = L2 sectors x 32 B       / L2 bandwidth
 *   dram   = L2 missed sectors x 32 B / DRAM bandwidth
 *   share  = min(1, blocks / 132): a grid smaller than the GPU uses
 *            part of it
 *
 * Copies, memsets and the overlap of concurrent kernels are not modelled:
 * they take no model time (events around them see none).
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "vgpu_counters.h"

/* One place for the model's figures (H100 SXM5). */
#define MODEL_SMS		132
#define MODEL_CLOCK_HZ		1.755e9
#define MODEL_ISSUE_PER_SM	4.0	/* warp instructions per cycle */
#define MODEL_SHARED_PER_SM	1.0	/* wavefronts per cycle */
#define MODEL_L2_BYTES_S	5.5e12
#define MODEL_DRAM_BYTES_S	3.35e12
#define MODEL_LAUNCH_NS		2000.0	/* an empty kernel between events */

static pthread_once_t model_once = PTHREAD_ONCE_INIT;
static bool model_on;

static void model_init(void)
{
	const char *v = getenv("VGPU_TIMING");

	model_on = v && !strcmp(v, "model");
}

bool cu_timing_model(void)
{
	pthread_once(&model_once, model_init);
	return model_on;
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

uint64_t cu_timing_kernel_ns(const struct vgpu_launch_counters *c,
			     const unsigned int grid[3])
{
	double blocks = (double)grid[0] * grid[1] * grid[2];
	double share = blocks < MODEL_SMS ? blocks / MODEL_SMS : 1.0;
	double issue, shared, l2, dram, sectors;

	issue = (double)c->warp_insns /
		(MODEL_SMS * MODEL_ISSUE_PER_SM * MODEL_CLOCK_HZ);
	shared = (double)(c->sld_wavefronts + c->sst_wavefronts) /
		 (MODEL_SMS * MODEL_SHARED_PER_SM * MODEL_CLOCK_HZ);
	/* global and local sectors: both go through the L2 model */
	sectors = (double)(c->l2_hits + c->l2_misses);
	l2 = sectors * VGPU_L2_SECTOR_BYTES / MODEL_L2_BYTES_S;
	dram = (double)c->l2_misses * VGPU_L2_SECTOR_BYTES /
	       MODEL_DRAM_BYTES_S;
	if (share <= 0)
		share = 1;
	return (uint64_t)(MODEL_LAUNCH_NS +
			  max2(max2(issue, shared), max2(l2, dram)) / share *
			  1e9);
}

void cu_timing_advance(struct cu_ctx *ctx, uint64_t ns)
{
	__atomic_fetch_add(&ctx->model_clock_ns, ns, __ATOMIC_RELAXED);
}

uint64_t cu_timing_now(struct cu_ctx *ctx)
{
	/* a clock that does not start at 0, as a GPU's does not */
	return (1ull << 32) + __atomic_load_n(&ctx->model_clock_ns,
					       __ATOMIC_RELAXED);
}
