/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_l2.h - the L2 model: a set-associative cache of the device's L2
 * size with persisting lines, run for grids that count.
 *
 * Owned by the firmware (one per device, as the L2 is), passed to the
 * execution core with each counted launch (vgpu_core_launch.l2); the
 * core's counting path (counters.c) looks up every 32-byte sector of a
 * global load or store.  Documentation/profiler.rst, "The L2 model",
 * says what it models and what it leaves out.
 */
#ifndef VGPU_L2_H
#define VGPU_L2_H

#include <stdbool.h>
#include <stdint.h>

struct vgpu_l2;

/* A launch's use of the L2: struct vgpu_l2_policy, checked. */
struct vgpu_l2_window {
	uint64_t base, bytes;		/* the access policy window; 0: none */
	uint32_t hit_ratio;		/* parts of 2^24 */
	uint8_t hit_prop, miss_prop;	/* VGPU_L2_PROP_* */
};

/* What one sector lookup found. */
enum vgpu_l2_result {
	VGPU_L2_MISS,
	VGPU_L2_HIT,
	VGPU_L2_HIT_PERSISTING,		/* a hit on a persisting line */
};

/* @bytes: a multiple of VGPU_L2_LINE_BYTES * VGPU_L2_WAYS; NULL: ENOMEM */
struct vgpu_l2 *vgpu_l2_create(uint64_t bytes);
void vgpu_l2_destroy(struct vgpu_l2 *l2);

/*
 * Before a counted grid: the set-aside for persisting lines (bytes, at
 * most the L2) and, with @reset, demote every persisting line to normal
 * (cuCtxResetPersistingL2Cache).
 */
void vgpu_l2_configure(struct vgpu_l2 *l2, uint64_t persist_limit,
		       bool reset);

/* Look up one 32-byte sector (its address / 32) and allocate it on a
 * miss; thread-safe. */
enum vgpu_l2_result vgpu_l2_access(struct vgpu_l2 *l2,
				   const struct vgpu_l2_window *w,
				   uint64_t sector);

#endif /* VGPU_L2_H */
