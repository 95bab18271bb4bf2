// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - writing a counted launch's counters for the client.
 *
 * The execution core adds each retiring block's counts into
 * fw_queue.grid_counters (firmware_sim/core/counters.c); when the grid
 * has completed, the engine copies them, in the layout of
 * include/vgpu_counters.h, to the GPU VA the packet named.  The copy is
 * made before the queue's read pointer moves past the LAUNCH, so a client
 * that sees a later fence sees the counters.
 */
#include <string.h>
#include <time.h>

#include "fw.h"
#include "mmu.h"
#include "counters.h"
#include "vgpu_counters.h"

uint64_t fw_counters_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int fw_counters_write(struct fw_queue *q, struct vgpu_fault *fault)
{
	const struct vgpu_core_counters *c = &q->grid_counters;
	struct vgpu_launch_counters out;
	uint64_t fault_va = 0;
	uint32_t len = sizeof(out);
	int kind;

	if (!q->counters_va)
		return 0;
	if (q->counters_size < len)
		len = q->counters_size & ~7u;	/* whole fields only */
	memset(&out, 0, sizeof(out));
	out.size = len;
#define COPY_COUNTER(f, metric, unit, desc) out.f = c->f;
	VGPU_COUNTERS(COPY_COUNTER)
#undef COPY_COUNTER
	kind = fw_mem_write(q->ctx, q->counters_va, &out, len, &fault_va);
	q->counters_va = 0;
	if (!kind)
		return 0;
	*fault = q->launch_fault;
	fault->kind = kind;
	fault->va = fault_va;
	return 1;
}
