/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_occupancy.h - what one SM holds at once, and how many blocks of a
 * kernel fit: the one formula that both the GR engine's block scheduler
 * (firmware_sim/core/sched.c) and the CUDA occupancy API
 * (umd/cuda/function.c) use, so that what cuOccupancy* promises is what
 * the engine does.
 *
 * An SM of the device we present (an H100) holds at most
 *
 *   VGPU_SM_MAX_THREADS  2048 threads          (warps are counted whole:
 *   VGPU_SM_MAX_WARPS      64 warps             a 33-thread block is 2)
 *   VGPU_SM_MAX_BLOCKS     32 blocks
 *   VGPU_SM_SHARED_BYTES  228 KiB shared memory, where every block takes
 *                              its static and dynamic shared memory plus
 *                              the 1 KiB the system reserves per block
 *                              (VISA_RESERVED_SMEM_BYTES)
 *
 * Registers do not limit residency: vISA registers live in the SM worker
 * thread's host memory, not in a fixed register file, so the "registers
 * per SM" term of NVIDIA's occupancy calculator is left out on purpose.
 *
 * A block is resident on an SM from its dispatch until its last warp
 * exits; the SM dispatches a new block only while the sums of the four
 * quantities over its resident blocks (of the running context) stay
 * within these limits.  For blocks of one kernel that is exactly
 * vgpu_occupancy_blocks_per_sm().
 */
#ifndef VGPU_OCCUPANCY_H
#define VGPU_OCCUPANCY_H

#include <stdint.h>

#include "vgpu_visa.h"

#define VGPU_SM_MAX_THREADS	2048u
#define VGPU_SM_MAX_WARPS	64u
#define VGPU_SM_MAX_BLOCKS	32u
#define VGPU_SM_SHARED_BYTES	(228u << 10)
#define VGPU_OCC_WARP_SIZE	32u

/*
 * Shared memory one block of kernel @k occupies on an SM: its static
 * variables (aligned up to where dynamic shared memory starts), @dynamic
 * bytes of dynamic shared memory, and the system's reserved region - part
 * of shared_size already when the kernel uses it
 * (VISA_KERNEL_RESERVED_SMEM), added otherwise, because the SM sets it
 * aside for every block either way.
 */
static inline uint64_t vgpu_occupancy_block_shared(const struct visa_kernel *k,
						   uint64_t dynamic)
{
	uint64_t align = k->shared_align ? k->shared_align : 16;
	uint64_t statics = ((uint64_t)k->shared_size + align - 1) / align *
			   align;

	if (!(k->flags & VISA_KERNEL_RESERVED_SMEM))
		statics += VISA_RESERVED_SMEM_BYTES;
	return statics + dynamic;
}

/* Warps a block of @threads threads occupies. */
static inline uint32_t vgpu_occupancy_block_warps(uint32_t threads)
{
	return (threads + VGPU_OCC_WARP_SIZE - 1) / VGPU_OCC_WARP_SIZE;
}

/*
 * Blocks of @threads threads that each occupy @shared bytes (from
 * vgpu_occupancy_block_shared()) one SM holds at once; 0 when not even
 * one fits.
 */
static inline uint32_t vgpu_occupancy_blocks_per_sm(uint32_t threads,
						    uint64_t shared)
{
	uint32_t warps = vgpu_occupancy_block_warps(threads);
	uint32_t n = VGPU_SM_MAX_BLOCKS;

	if (!warps || warps > VGPU_SM_MAX_WARPS)
		return 0;
	if (VGPU_SM_MAX_WARPS / warps < n)
		n = VGPU_SM_MAX_WARPS / warps;
	if (VGPU_SM_MAX_THREADS / (warps * VGPU_OCC_WARP_SIZE) < n)
		n = VGPU_SM_MAX_THREADS / (warps * VGPU_OCC_WARP_SIZE);
	if (shared && VGPU_SM_SHARED_BYTES / shared < n)
		n = (uint32_t)(VGPU_SM_SHARED_BYTES / shared);
	return n;
}

#endif /* VGPU_OCCUPANCY_H */
