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
 *
 * Before the grid, fw_counters_policy() reads how the launch uses the L2
 * model (the persisting set-aside, the access policy window) from the
 * same buffer: the L2 is the device's, one model shared by the contexts'
 * counted grids, as the real L2 is shared by everything that runs.
 */
#include <stdbool.h>
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

/* Checks of a policy as the client wrote it: fixed sizes, no stray bits. */
static bool policy_ok(const struct vgpu_l2_policy *p)
{
	return p->size >= sizeof(*p) && !(p->flags & ~VGPU_L2_POLICY_F_ALL) &&
	       p->persist_limit <= VGPU_L2_PERSIST_MAX &&
	       p->window_bytes <= VGPU_L2_WINDOW_MAX &&
	       p->hit_ratio <= (1u << 24) &&
	       p->hit_prop <= VGPU_L2_PROP_PERSISTING &&
	       p->miss_prop <= VGPU_L2_PROP_STREAMING && !p->reserved;
}

int fw_counters_policy(struct fw_queue *q, struct vgpu_core_launch *l,
		       struct vgpu_fault *fault)
{
	struct fw_device *dev = q->ctx->dev;
	struct vgpu_l2_policy p = { 0 };
	uint64_t fault_va = 0;
	int kind;

	l->l2 = dev->l2;
	memset(&l->l2_window, 0, sizeof(l->l2_window));
	if (!dev->l2)
		return 0;
	if (q->counters_size >= VGPU_L2_POLICY_OFFSET + 8) {
		kind = fw_mem_read(q->ctx, q->counters_va +
				   VGPU_L2_POLICY_OFFSET, &p, 8, &fault_va);
		if (!kind && p.size)
			kind = q->counters_size < VGPU_L2_POLICY_OFFSET +
				sizeof(p) ? VGPU_FAULT_BAD_PACKET :
				fw_mem_read(q->ctx, q->counters_va +
					    VGPU_L2_POLICY_OFFSET, &p,
					    sizeof(p), &fault_va);
		if (!kind && p.size && !policy_ok(&p))
			kind = VGPU_FAULT_BAD_PACKET;
		if (kind) {
			fault->kind = kind;
			fault->va = fault_va;
			return 1;
		}
	}
	if (!p.size)
		p.persist_limit = VGPU_L2_PERSIST_DEFAULT;
	vgpu_l2_configure(dev->l2, p.persist_limit,
			  p.flags & VGPU_L2_POLICY_F_RESET);
	l->l2_window.base = p.window_base;
	l->l2_window.bytes = p.window_bytes;
	l->l2_window.hit_ratio = p.hit_ratio;
	l->l2_window.hit_prop = p.hit_prop;
	l->l2_window.miss_prop = p.miss_prop;
	return 0;
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
