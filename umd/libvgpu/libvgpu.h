/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libvgpu.h - the thin user-space layer over /dev/vgpuN.
 *
 * This library is to the vGPU what libdrm is to a DRM driver and liburing
 * to io_uring: small C wrappers around the ioctls and mmaps of the uAPI
 * (include/uapi/linux/vgpu.h) and around the memory formats of the
 * "hardware" (include/vgpu_hw.h), with no policy of its own.  libcuda.so.1
 * is built on it; tests and tools may use it directly.
 *
 *   vgpu_device_*   open a device, read its description
 *   vgpu_ctx_*      GPU address spaces (contexts) and their sticky status
 *   vgpu_mem_*      memory objects: VRAM, pinned host memory, registered
 *                   user memory; mapping them at GPU virtual addresses
 *   vgpu_queue_*    user-mode queues: writing packets into the ring,
 *                   ringing the doorbell (with a kick only when the
 *                   firmware sleeps), reading and waiting for fences
 *
 * Errors are negative errno values, exactly as the driver returned them.
 *
 * Thread safety: a device may be used from any number of threads (every
 * call is one ioctl or mmap on a shared file descriptor).  A queue is not
 * locked: its user serialises the calls on one queue, as with liburing.
 */
#ifndef VGPU_LIBVGPU_H
#define VGPU_LIBVGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/vgpu.h>
#include "vgpu_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- devices ------------------------------------------------------------ */

struct vgpu_device;

/* Number of /dev/vgpuN nodes present (N = 0, 1, ... without a gap). */
unsigned int vgpu_device_count(void);

/*
 * Open /dev/vgpu<index> and read its description.  Fails with -EPROTO when
 * the driver speaks another major version of the uAPI.
 */
int vgpu_device_open(unsigned int index, struct vgpu_device **out);
void vgpu_device_close(struct vgpu_device *dev);

int vgpu_device_fd(const struct vgpu_device *dev);
unsigned int vgpu_device_index(const struct vgpu_device *dev);

/* The description read at open time (static fields). */
const struct vgpu_info *vgpu_device_info(const struct vgpu_device *dev);

/* Read the description again (for the flags: is a firmware attached?). */
int vgpu_device_query(struct vgpu_device *dev, struct vgpu_info *info);

/* ---- contexts ----------------------------------------------------------- */

int vgpu_ctx_create(struct vgpu_device *dev, uint32_t *handle,
		    uint32_t *ctx_id);
int vgpu_ctx_destroy(struct vgpu_device *dev, uint32_t handle);
int vgpu_ctx_status(struct vgpu_device *dev, uint32_t handle,
		    struct vgpu_ctx_status *status);

/* ---- memory objects ----------------------------------------------------- */

/* Device memory: a handle; never mapped into the process. */
int vgpu_mem_alloc_vram(struct vgpu_device *dev, uint64_t size,
			uint32_t *handle, uint64_t *alloc_size);

/*
 * Pinned host memory allocated by the driver and mapped into the process
 * (write-combined with VGPU_HOST_ALLOC_WC).  *cpu receives the mapping,
 * which is also the GPU VA to map the object at (unified addressing).
 */
int vgpu_mem_alloc_host(struct vgpu_device *dev, uint64_t size,
			uint32_t flags, uint32_t *handle, void **cpu,
			uint64_t *alloc_size);

/*
 * Pin the pages of [addr, addr + size) of this process (both page
 * aligned).  VGPU_HOST_REGISTER_READONLY for memory the device only reads.
 */
int vgpu_mem_register(struct vgpu_device *dev, void *addr, uint64_t size,
		      uint32_t flags, uint32_t *handle);

/*
 * Release a memory object.  Host memory from vgpu_mem_alloc_host() is
 * unmapped from the process too (pass its cpu pointer and size; NULL/0 for
 * other objects).
 */
int vgpu_mem_free(struct vgpu_device *dev, uint32_t handle, void *cpu,
		  uint64_t size);

/*
 * Share a memory object with another process: @fd receives a new file
 * descriptor holding it (VGPU_MEM_EXPORT_* @flags), which the other
 * process turns into a handle of its own open file with
 * vgpu_mem_import().  @kind receives VGPU_MEM_KIND_*, @size its size.
 */
int vgpu_mem_export(struct vgpu_device *dev, uint32_t handle, uint32_t flags,
		    int *fd);
int vgpu_mem_import(struct vgpu_device *dev, int fd, uint32_t *handle,
		    uint32_t *kind, uint64_t *size);
/*
 * The same, for an object of @dev only (-EXDEV for another device's, which
 * vgpu_mem_import() takes as a peer handle: VRAM a peer may map).
 */
int vgpu_mem_import_own(struct vgpu_device *dev, int fd, uint32_t *handle,
			uint32_t *kind, uint64_t *size);

/*
 * Managed memory (uAPI 1.4, managed.c): blocks of VGPU_MANAGED_BLOCK_SIZE
 * that migrate between host pages and VRAM on faults.  *cpu receives the
 * process mapping, 64 KiB aligned, which is also the GPU VA to map the
 * object at; -ENOTTY from a driver without managed memory.  Free it with
 * vgpu_mem_free(dev, handle, cpu, alloc_size).
 */
int vgpu_mem_alloc_managed(struct vgpu_device *dev, uint64_t size,
			   uint32_t *handle, void **cpu, uint64_t *alloc_size);
/* Move [offset, offset + size) to VGPU_MANAGED_LOC_* @target now. */
int vgpu_mem_migrate(struct vgpu_device *dev, uint32_t handle,
		     uint64_t offset, uint64_t size, uint32_t target);
/*
 * VGPU_MANAGED_ADVISE_* over [offset, offset + size) (uAPI 1.6; -ENOTTY
 * from an older driver): accessed-by maps host blocks where they are.
 */
int vgpu_mem_advise(struct vgpu_device *dev, uint32_t handle,
		    uint64_t offset, uint64_t size, uint32_t advice);
/* Where the block holding byte @offset lives: VGPU_MANAGED_LOC_*. */
int vgpu_mem_location(struct vgpu_device *dev, uint32_t handle,
		      uint64_t offset, uint32_t *location);

/* Map [offset, offset + size) of an object at GPU VA @va of context @ctx. */
int vgpu_mem_map(struct vgpu_device *dev, uint32_t ctx, uint32_t handle,
		 uint64_t va, uint64_t offset, uint64_t size, uint32_t flags);
int vgpu_mem_unmap(struct vgpu_device *dev, uint32_t ctx, uint64_t va);

/* ---- queues ------------------------------------------------------------- */

struct vgpu_queue;

/*
 * Create a queue of @engine (enum vgpu_engine) in context @ctx, with a
 * ring of @ring_size bytes (a power of two, 4 KiB .. 1 MiB), and map its
 * ring, doorbell and fence pages.
 */
int vgpu_queue_create(struct vgpu_device *dev, uint32_t ctx,
		      unsigned int engine, uint32_t ring_size,
		      struct vgpu_queue **out);
void vgpu_queue_destroy(struct vgpu_queue *q);

uint32_t vgpu_queue_id(const struct vgpu_queue *q);
unsigned int vgpu_queue_engine(const struct vgpu_queue *q);

/*
 * Reserve @bytes (a multiple of 8, header included) for one packet at the
 * write position, padding the end of the ring with a NOP if the packet
 * would wrap.  When the ring is full this waits, until the absolute
 * CLOCK_MONOTONIC @deadline_ns, for the firmware to consume packets.
 * Returns the packet's memory in *pkt, to be filled completely; it becomes
 * visible to the device only at vgpu_queue_submit().
 * Errors: -EINVAL (bad size), -ETIME, -ECANCELED (context dead),
 * -ENODEV (device lost).
 */
int vgpu_queue_reserve(struct vgpu_queue *q, uint32_t bytes,
		       int64_t deadline_ns, void **pkt);

/*
 * Publish every packet reserved since the last submit: store the write
 * pointer (release), then a full barrier, then read fw_sleeping and kick
 * the firmware only if it said it sleeps (the SQPOLL handshake of
 * include/vgpu_hw.h).
 */
int vgpu_queue_submit(struct vgpu_queue *q);

/* The last fence value the queue signalled (from the fence page). */
uint64_t vgpu_queue_completed(const struct vgpu_queue *q);

/* 0, or VGPU_QUEUE_ERROR_* once the queue was stopped. */
uint32_t vgpu_queue_error(const struct vgpu_queue *q);

/*
 * Wait until the queue's completed fence is >= @fence or the absolute
 * CLOCK_MONOTONIC @deadline_ns passes.  Reads the fence page first, so a
 * completed fence costs no system call.  Returns 0, -ETIME, -ECANCELED
 * (context dead) or -ENODEV (device lost); signals are retried.
 */
int vgpu_queue_wait(struct vgpu_queue *q, uint64_t fence, int64_t deadline_ns);

/*
 * Watch the fence page, without any system call, until the queue's
 * completed fence is >= @fence, the queue stops (its error is set), or the
 * absolute CLOCK_MONOTONIC @deadline_ns passes.  Between looks the CPU
 * pauses (@yield false) or gives itself up with sched_yield() (@yield
 * true).  Returns true when a vgpu_queue_wait() would now return at once
 * (done, or stopped: the wait then tells which error), false on timeout.
 */
bool vgpu_queue_spin(const struct vgpu_queue *q, uint64_t fence,
		     int64_t deadline_ns, bool yield);

/* CLOCK_MONOTONIC now, in nanoseconds: to build deadlines. */
int64_t vgpu_now_ns(void);

/* ---- packets ------------------------------------------------------------ */

/*
 * Helpers that reserve and fill one packet each (vgpu_hw.h section 4),
 * one per opcode: the only writers of packets in the user-mode driver.
 * They return what vgpu_queue_reserve() returns.
 */
int vgpu_emit_nop(struct vgpu_queue *q, uint32_t bytes, int64_t deadline);
int vgpu_emit_fence(struct vgpu_queue *q, uint64_t value, int64_t deadline);
int vgpu_emit_write_mem(struct vgpu_queue *q, uint64_t va, uint64_t value,
			int64_t deadline);
int vgpu_emit_wait_mem(struct vgpu_queue *q, uint64_t va, uint64_t value,
		       int64_t deadline);
int vgpu_emit_copy(struct vgpu_queue *q, uint64_t dst, uint64_t src,
		   uint64_t size, int64_t deadline);
int vgpu_emit_memset(struct vgpu_queue *q, uint64_t dst, uint32_t value,
		     uint32_t elem_size, uint64_t count, int64_t deadline);
int vgpu_emit_timestamp(struct vgpu_queue *q, uint64_t va, int64_t deadline);
int vgpu_emit_copy_tiled(struct vgpu_queue *q,
			 const struct vgpu_pkt_copy_tiled *tmpl,
			 int64_t deadline);
int vgpu_emit_launch(struct vgpu_queue *q, const struct vgpu_pkt_launch *tmpl,
		     uint32_t payload_size, int64_t deadline, void **payload);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_LIBVGPU_H */
