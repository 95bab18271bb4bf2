/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the GR engine's per-launch counters (VGPU_LAUNCH_F_COUNTERS
 * of include/vgpu_launch.h): the execution core counts, this part of the
 * firmware hands the result to the client.
 */
#ifndef VGPU_FW_COUNTERS_H
#define VGPU_FW_COUNTERS_H

#include <stdint.h>

struct fw_queue;
struct vgpu_fault;
struct vgpu_core_launch;

/* Host time for the grid's duration_ns. */
uint64_t fw_counters_now_ns(void);

/*
 * The counted grid of @q completed: write its struct vgpu_launch_counters
 * at the packet's counters_va.  Returns 0, or 1 with @fault filled when
 * that memory cannot be written (the launch faults the context, as any
 * bad address of a packet does).  A launch that does not count: 0.
 */
/*
 * A counted launch of @q starts: read the client's struct vgpu_l2_policy
 * (include/vgpu_counters.h) from its counters buffer, if the buffer has
 * room for one, configure the device's L2 model with it and give @l the
 * L2 and the window.  Returns 0, or 1 with @fault filled: the policy
 * cannot be read (its address's fault) or is invalid (a bad packet).
 */
int fw_counters_policy(struct fw_queue *q, struct vgpu_core_launch *l,
		       struct vgpu_fault *fault);

int fw_counters_write(struct fw_queue *q, struct vgpu_fault *fault);

#endif /* VGPU_FW_COUNTERS_H */
