/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu_launch.h - the payload of a LAUNCH packet, ISA version 1.
 *
 * A LAUNCH packet (struct vgpu_pkt_launch of include/vgpu_hw.h) is
 *
 *   +---------------------------+  struct vgpu_pkt_launch: header, grid,
 *   | fixed part                |  block, shared_bytes, code_va, params_va,
 *   +---------------------------+  isa_version = VGPU_LAUNCH_ISA_V1
 *   | struct vgpu_launch_v1     |  this header
 *   +---------------------------+
 *   | inline parameters         |  only with VGPU_LAUNCH_F_INLINE_PARAMS:
 *   | (param_size bytes, zero-  |  the kernel's parameter buffer, then zero
 *   |  padded to 8)             |  bytes up to the packet's 8-byte size
 *   +---------------------------+
 *
 * and hdr.size covers all of it.  What the firmware does with it:
 *
 * 1. The code.  code_va is the GPU VA of a vISA image (include/vgpu_visa.h)
 *    of image_size bytes that the UMD uploaded.  The firmware copies the
 *    image out of device memory, validates it with the execution core's
 *    validator, and caches the validated copy per context under the key
 *    (code_va, image_size, image_id).  Later launches with the same key
 *    reuse it without reading device memory again, so the UMD must give
 *    every image it places at a code_va a new image_id (a per-context
 *    counter is enough): reusing a key for different bytes runs the old
 *    code.  A TLB_FLUSH of the context (an unmap) drops its whole cache.
 *    Because the firmware runs its own validated copy, changing the bytes
 *    in device memory afterwards cannot make it run unvalidated code.
 *
 * 2. The kernel.  kernel_index selects the entry of the image's KERNELS
 *    table.  param_size must equal that kernel's visa_kernel.param_size.
 *
 * 3. The parameters.  Either params_va is the GPU VA of param_size bytes
 *    (read when the launch starts, not when it is queued), or the flag
 *    VGPU_LAUNCH_F_INLINE_PARAMS is set, params_va is 0 and the bytes
 *    follow this header in the packet (read when the packet is fetched, so
 *    the UMD may reuse its copy as soon as it has written the packet).
 *
 * 4. The module's segments.  global_base and const_base are the GPU VAs
 *    of the module's global and const segments (visa_image_header
 *    global_size / const_size), allocated, initialised and relocated by
 *    the UMD.  Either may be 0 when the image's segment size is 0.
 *
 * 5. Device printf.  printf_fifo_va is the GPU VA of the context's printf
 *    FIFO (struct visa_printf_fifo, initialised by the UMD with
 *    magic = VISA_PRINTF_MAGIC and capacity = printf_fifo_size - 24), and
 *    printf_fifo_size its total size in bytes.  The execution core appends
 *    records; the UMD formats them once a later fence shows the launch
 *    complete, and resets @used.  0 and 0 mean "no FIFO": printf then
 *    writes nothing.
 *
 * 6. Local memory.  local_bytes is the local memory (stack) per thread;
 *    0 means the kernel's own visa_kernel.local_size (at least 1 KiB).
 *    Local memory belongs to the SM, not to the context's address space.
 *
 * 7. Scheduling.  priority is the CUDA stream's priority, from
 *    VGPU_LAUNCH_PRIO_HIGHEST (-5) to VGPU_LAUNCH_PRIO_LOWEST (0, the
 *    default): a lower number is a higher priority.  When an SM has room
 *    for a block, it takes the next block of the highest-priority grid
 *    that is active in the running context, the oldest first among
 *    equals.  Blocks already running are not preempted for priority.
 *    Launches of different queues of one context run concurrently;
 *    launches of one queue run in queue order, each after the previous
 *    one completed.  Contexts share GR in time slices (vgpu-fw
 *    --timeslice-us); see Documentation/scheduler.rst.
 *
 * 8. Cooperative grids and clusters.  With VGPU_LAUNCH_F_COOPERATIVE
 *    all blocks of the grid become resident together or not at all, and
 *    grid_sync_va (8-byte aligned, non-zero) is the GPU VA of the grid's
 *    8-byte sync workspace; the kernel reads it from %envreg1 (high half)
 *    and %envreg2 (low half), and grid.sync() counts arrivals in its
 *    second word.  Grids that may run at the same time need different
 *    workspaces.  Without the flag grid_sync_va is 0.  cluster_dim, when
 *    not all zero, groups the blocks into clusters of cluster_dim[0] x
 *    [1] x [2] blocks (each dividing the grid's dimension, at most
 *    VGPU_LAUNCH_MAX_CLUSTER in all) whose blocks are resident together
 *    and share their shared memory (Documentation/cooperative-groups.rst).
 *
 * 9. Counters.  With VGPU_LAUNCH_F_COUNTERS the GR engine counts what the
 *    grid does (include/vgpu_counters.h) and, once it completed and
 *    before the queue moves past the packet, writes a struct
 *    vgpu_launch_counters of at most counters_size bytes at the GPU VA
 *    counters_va (8-byte aligned, writable).  A counted grid runs on the
 *    interpreter.  Without the flag both fields must be 0; with it
 *    counters_size must be at least 8 (the struct's size and flags).
 *    A firmware older than the flag refuses the packet (unknown flag).
 *
 * Every field is checked when the packet is fetched; a violation faults
 * the context with VGPU_FAULT_BAD_PACKET (wrong sizes, unknown flags,
 * non-zero reserved bytes) or VGPU_FAULT_ILLEGAL_INSTRUCTION (an image
 * that fails validation, a kernel_index out of range, a launch that does
 * not fit the SM).
 */
#ifndef _VGPU_LAUNCH_H
#define _VGPU_LAUNCH_H

#include <linux/types.h>

/* struct vgpu_pkt_launch.isa_version for this payload format. */
#define VGPU_LAUNCH_ISA_V1		1

/* The parameter buffer follows struct vgpu_launch_v1 in the packet. */
#define VGPU_LAUNCH_F_INLINE_PARAMS	(1U << 0)
/*
 * A cooperative launch: every block of the grid is resident at once (the
 * firmware admits the grid whole or waits), and grid_sync_va names the
 * grid-sync workspace.  See "Cooperative grids and clusters".
 */
#define VGPU_LAUNCH_F_COOPERATIVE	(1U << 1)
/* Count the grid and write struct vgpu_launch_counters at counters_va. */
#define VGPU_LAUNCH_F_COUNTERS		(1U << 2)
#define VGPU_LAUNCH_F_ALL		(VGPU_LAUNCH_F_INLINE_PARAMS | \
					 VGPU_LAUNCH_F_COOPERATIVE | \
					 VGPU_LAUNCH_F_COUNTERS)

/* The most blocks a cluster may have (an H100's non-portable limit). */
#define VGPU_LAUNCH_MAX_CLUSTER		16

/* The largest parameter buffer a launch may carry (CUDA 12.1+ limit). */
#define VGPU_LAUNCH_MAX_PARAMS		32764

/* struct vgpu_launch_v1.priority: lower numbers run first. */
#define VGPU_LAUNCH_PRIO_HIGHEST	(-5)
#define VGPU_LAUNCH_PRIO_LOWEST		0

/* The largest image the firmware accepts. */
#define VGPU_LAUNCH_MAX_IMAGE		(64U << 20)

/**
 * struct vgpu_launch_v1 - what follows struct vgpu_pkt_launch (ISA v1)
 * @kernel_index: entry in the image's KERNELS table.
 * @flags: VGPU_LAUNCH_F_* bits.
 * @image_size: bytes of the vISA image at code_va (its header's
 *	image_size); at most VGPU_LAUNCH_MAX_IMAGE.
 * @image_id: non-zero name of the image at code_va; see "The code".
 * @global_base: GPU VA of the module's global segment, or 0.
 * @const_base: GPU VA of the module's const segment, or 0.
 * @printf_fifo_va: GPU VA of the context's printf FIFO, or 0.
 * @printf_fifo_size: bytes of the FIFO including its header, or 0.
 * @param_size: bytes of the parameter buffer (<= VGPU_LAUNCH_MAX_PARAMS).
 * @local_bytes: local memory per thread in bytes; 0: the kernel's.
 * @priority: stream priority, VGPU_LAUNCH_PRIO_HIGHEST (-5, highest) to
 *	VGPU_LAUNCH_PRIO_LOWEST (0); other values are a bad packet.  See
 *	"Scheduling".
 * @cluster_dim: blocks per cluster in x, y, z; all 0: no clusters.
 * @reserved0: zero.
 * @grid_sync_va: with VGPU_LAUNCH_F_COOPERATIVE, the grid-sync workspace;
 *	else 0.  See "Cooperative grids and clusters".
 * @counters_size: with VGPU_LAUNCH_F_COUNTERS, bytes available at
 *	@counters_va (>= 8); otherwise 0.  See "Counters".
 * @reserved1: zero.
 * @counters_va: with VGPU_LAUNCH_F_COUNTERS, the GPU VA (8-byte aligned)
 *	where the counters are written; otherwise 0.
 */
struct vgpu_launch_v1 {
	__u32 kernel_index;
	__u32 flags;
	__u64 image_size;
	__u64 image_id;
	__u64 global_base;
	__u64 const_base;
	__u64 printf_fifo_va;
	__u64 printf_fifo_size;
	__u32 param_size;
	__u32 local_bytes;
	__s32 priority;
	__u8 cluster_dim[3];
	__u8 reserved0;
	__u64 grid_sync_va;
	__u32 counters_size;
	__u32 reserved1;
	__u64 counters_va;
};

#endif /* _VGPU_LAUNCH_H */
