/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu.h - the ioctl ABI of the vGPU driver (/dev/vgpuN)
 *
 * Conventions (Documentation/process/botching-up-ioctls.rst):
 *
 * - Every struct has fixed-size members, naturally aligned, with explicit
 *   padding that must be zero (-EINVAL otherwise).  Pointers travel as __u64.
 * - Every flags field rejects unknown bits with -EINVAL.
 * - Unknown ioctl commands fail with -ENOTTY.
 * - Structs grow only at their end.  The size encoded in the ioctl number is
 *   the size user space was compiled with: the driver accepts an older,
 *   smaller struct (missing fields read as zero) and a newer, larger one as
 *   long as the bytes it does not know are zero (-E2BIG otherwise).
 * - Handles are per open file: a handle of another open file is invalid
 *   (-ENOENT), as is a freed one.
 * - Every user of a device has a share of its VRAM, GART and queue memory
 *   (module parameters user_vram_pct, user_gart_pct, user_queue_mb; the
 *   limits in sysfs as user_*_limit_*): an ioctl that would take the
 *   calling user (real uid) over its share fails with -EDQUOT, unless the
 *   caller has CAP_SYS_RESOURCE.  -ENOMEM/-ENOSPC mean the device itself,
 *   or a per-process limit, is exhausted.
 * - Errors a client sees on work it submitted: -ECANCELED when its context
 *   is dead (fault or watchdog; VGPU_IOCTL_CTX_STATUS says why) and -ENODEV
 *   when the device was lost (the firmware went away).
 *
 * read() of 8 bytes on a client file returns the number of interrupts
 * (fence signals and errors of the file's queues) since the previous read;
 * poll() reports POLLIN while it is not zero.  mmap() takes the offsets the
 * ioctls return, MAP_SHARED only; mappings are not inherited by fork().
 *
 * The formats the device reads (queue packets, doorbell and fence pages,
 * page tables) are described in include/vgpu_hw.h.
 */
#ifndef _UAPI_LINUX_VGPU_H
#define _UAPI_LINUX_VGPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define VGPU_UAPI_VERSION_MAJOR	1
#define VGPU_UAPI_VERSION_MINOR	6

#define VGPU_IOCTL_BASE		0xB7

/**
 * struct vgpu_info - device description (VGPU_IOCTL_GET_INFO)
 * @version_major: VGPU_UAPI_VERSION_MAJOR of the driver; a different major
 *	means an incompatible ABI.
 * @version_minor: VGPU_UAPI_VERSION_MINOR of the driver; new minors only add.
 * @device_index: N of /dev/vgpuN.
 * @flags: VGPU_INFO_* state bits at the time of the call.
 * @vram_size: bytes of device memory.
 * @vram_page_size: granule of VRAM allocations and mappings (64 KiB).
 * @host_page_size: granule of host memory mappings (4 KiB).
 * @gart_entries: number of GART entries (pages of host memory the device
 *	can reach at once).
 * @va_bits: width of a GPU virtual address.
 * @max_queues: queues allowed per open file.
 * @kernel_exec_timeout_ms: since 1.2: the per-kernel execution limit in
 *	ms (module parameter kernel_exec_timeout_ms; 0, the default, means
 *	none): a grid scheduled on GR for longer is stopped and its context
 *	gets VGPU_FAULT_WATCHDOG.  The firmware enforces it when
 *	VGPU_INFO_EXEC_LIMIT is set.  Until 1.1 this field was watchdog_ms,
 *	the time a queue could make no progress before its context was
 *	stopped; both answer "can a long kernel be stopped?" (CUDA's
 *	kernelExecTimeoutEnabled), so a 1.1 program reads it correctly.
 * @num_compute_engines: number of VGPU_ENGINE_COMPUTE engines.
 * @num_copy_engines: number of VGPU_ENGINE_COPY engines.
 * @hw_version: version of the hardware interface (VGPU_HW_VERSION of
 *	include/vgpu_hw.h) that the driver programs.
 * @pad: zero.
 * @hang_timeout_ms: since 1.2: the hang detection time in ms (module
 *	parameter hang_timeout_ms; 0 = off): a firmware attached with
 *	VGPU_FW_ATTACH_HEARTBEAT that sends no heartbeat for this long is
 *	detached (device lost), and the context running on an engine that
 *	has runnable work but makes no progress for this long is stopped
 *	with VGPU_FAULT_WATCHDOG.  A kernel that runs long, or a queue that
 *	waits, is never stopped by it.
 * @compute_mode: since 1.3: VGPU_COMPUTE_MODE_*, who may create contexts
 *	now (set by the administrator in sysfs, compute_mode); until 1.2
 *	this was padding, always zero, which reads as DEFAULT.
 */
struct vgpu_info {
	__u32 version_major;
	__u32 version_minor;
	__u32 device_index;
	__u32 flags;
	__u64 vram_size;
	__u32 vram_page_size;
	__u32 host_page_size;
	__u64 gart_entries;
	__u32 va_bits;
	__u32 max_queues;
	__u32 kernel_exec_timeout_ms;
	__u16 num_compute_engines;
	__u16 num_copy_engines;
	__u32 hw_version;
	__u32 pad;
	/* Since 1.2: */
	__u32 hang_timeout_ms;
	/* Since 1.3: */
	__u32 compute_mode;
};

/* struct vgpu_info.flags */
#define VGPU_INFO_FW_ATTACHED	(1U << 0)	/* a firmware serves the device */
/* Since 1.2: the firmware enforces kernel_exec_timeout_ms per grid. */
#define VGPU_INFO_EXEC_LIMIT	(1U << 1)

/*
 * struct vgpu_info.compute_mode, since 1.3: CUDA's compute modes, with
 * CUDA's numbers (CUcomputemode), enforced by VGPU_IOCTL_CTX_CREATE.
 */
#define VGPU_COMPUTE_MODE_DEFAULT		0	/* any process */
#define VGPU_COMPUTE_MODE_PROHIBITED		2	/* no one: -EACCES */
#define VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS	3	/* one process: -EBUSY */

/**
 * struct vgpu_ctx_create - create a context (VGPU_IOCTL_CTX_CREATE)
 * @flags: zero.
 * @handle: out: handle of the new context in this open file.
 * @ctx_id: out: device-wide id of the context, as firmware and debugfs
 *	name it.
 * @pad: zero.
 *
 * A context is one GPU virtual address space plus the queues that run in
 * it.  Faults and timeouts are sticky per context.  Its page tables are
 * VRAM of the calling user (-EDQUOT over the user's share).
 *
 * Since 1.2 a device with no firmware attached (VGPU_INFO_FW_ATTACHED
 * clear) refuses at once with -ENODEV: the device is present but cannot
 * run anything, and a context created then would only fail later.  The
 * check and the creation are atomic with respect to the firmware
 * attaching and detaching.  Once a firmware attaches, contexts can be
 * created again; the driver need not be reloaded.
 *
 * Since 1.3 the device's compute mode (vgpu_info.compute_mode) decides
 * who may create one: in VGPU_COMPUTE_MODE_PROHIBITED no one (-EACCES);
 * in VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS only the process (thread group)
 * that has contexts on the device already, or any process when there are
 * none (-EBUSY while another process has one).  Contexts that exist when
 * the mode changes are not affected.  The check and the creation are
 * atomic, so two processes racing for an exclusive device cannot both
 * win.
 */
struct vgpu_ctx_create {
	__u32 flags;
	__u32 handle;
	__u32 ctx_id;
	__u32 pad;
};

/**
 * struct vgpu_handle_arg - names one object (destroy and free ioctls)
 * @handle: the handle.
 * @flags: zero.
 */
struct vgpu_handle_arg {
	__u32 handle;
	__u32 flags;
};

/* Why a context stopped: struct vgpu_fault.kind */
enum vgpu_fault_kind {
	VGPU_FAULT_NONE = 0,
	VGPU_FAULT_MMU_UNMAPPED = 1,	/* no valid PTE for the address */
	VGPU_FAULT_MMU_PERMISSION = 2,	/* write to read-only, atomic... */
	VGPU_FAULT_MISALIGNED = 3,	/* misaligned access */
	VGPU_FAULT_ILLEGAL_INSTRUCTION = 4,
	VGPU_FAULT_TRAP = 5,		/* trap or breakpoint instruction */
	VGPU_FAULT_BARRIER = 6,		/* barrier deadlock */
	VGPU_FAULT_BAD_PACKET = 7,	/* malformed queue packet */
	VGPU_FAULT_WATCHDOG = 8,	/* exec limit, or its engine hung */
	/* Since 1.1: */
	VGPU_FAULT_ASSERT = 9,		/* device-side assert() failed */
	VGPU_FAULT_STACK_OVERFLOW = 10,	/* call stack / local memory exceeded */
	VGPU_FAULT_OUT_OF_RANGE = 11,	/* shared/local/const offset too big */
	VGPU_FAULT_KIND_MAX = 11,
};

/**
 * struct vgpu_fault - what stopped a context
 * @kind: enum vgpu_fault_kind.
 * @engine: enum vgpu_engine of the queue that faulted.
 * @queue_id: device-wide id of the queue that faulted.
 * @ptx_line: source line (PTX .loc) of the faulting instruction, 0 unknown.
 * @va: faulting GPU virtual address (memory faults), else 0.
 * @kernel_va: GPU VA of the kernel's code (launch faults), else 0.
 * @block: block index (x, y, z) of the faulting thread.
 * @thread: thread index (x, y, z) in its block.
 * @pc: instruction offset in the kernel's code.
 * @kernel_name: NUL-terminated (possibly truncated) name of the kernel.
 * @message: since 1.1: NUL-terminated human-readable detail, empty if none.
 *	For VGPU_FAULT_ASSERT it is the line CUDA prints for a failed
 *	assert: "file:line: function: block: [x,y,z], thread: [x,y,z]
 *	Assertion `expression` failed.".
 *
 * The firmware fills every field it knows and zeroes the others.  A
 * VGPU_FAULT_WATCHDOG is reported by the firmware for a grid that ran past
 * kernel_exec_timeout_ms (since 1.2), or made by the driver for the context
 * running on an engine that hung (then @queue_id is 0, @engine the hung
 * engine's enum vgpu_engine, and @message says which engine).
 *
 * The kinds tell user space which error to report; since 1.1 the firmware
 * reports the ASSERT, STACK_OVERFLOW and OUT_OF_RANGE kinds that 1.0 folded
 * into TRAP and MMU_UNMAPPED.  Programs built against 1.0 pass the 1.0
 * size of the structs that embed this one and get the record without
 * @message; they must treat a kind they do not know as a launch failure.
 */
struct vgpu_fault {
	__u32 kind;
	__u32 engine;
	__u32 queue_id;
	__u32 ptx_line;
	__u64 va;
	__u64 kernel_va;
	__u32 block[3];
	__u32 thread[3];
	__u64 pc;
	char kernel_name[64];
	char message[256];
};

/**
 * struct vgpu_ctx_status - sticky state of a context (VGPU_IOCTL_CTX_STATUS)
 * @handle: in: the context.
 * @flags: in: zero.
 * @state: out: VGPU_CTX_STATE_* bits.
 * @fault_count: out: faults reported for the context (the first is kept).
 * @fault: out: the first fault (kind VGPU_FAULT_NONE if none).
 */
struct vgpu_ctx_status {
	__u32 handle;
	__u32 flags;
	__u32 state;
	__u32 fault_count;
	struct vgpu_fault fault;
};

#define VGPU_CTX_STATE_FAULTED	(1U << 0)	/* a fault stopped the context */
#define VGPU_CTX_STATE_GUILTY	(1U << 1)	/* it ran on an engine that hung */
#define VGPU_CTX_STATE_LOST	(1U << 2)	/* the device was lost under it */

/**
 * struct vgpu_vram_alloc - allocate device memory (VGPU_IOCTL_VRAM_ALLOC)
 * @size: bytes; rounded up to vgpu_info.vram_page_size.
 * @flags: zero.
 * @handle: out: memory object handle.
 * @alloc_size: out: the rounded size.
 *
 * The memory is zeroed.  -ENOMEM when VRAM is exhausted, -EDQUOT over the
 * calling user's share of VRAM.
 */
struct vgpu_vram_alloc {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 alloc_size;
};

/**
 * struct vgpu_host_alloc - allocate pinned host memory (VGPU_IOCTL_HOST_ALLOC)
 * @size: bytes; rounded up to the host page size.
 * @flags: VGPU_HOST_ALLOC_* bits.
 * @handle: out: memory object handle.
 * @mmap_offset: out: pass to mmap(MAP_SHARED) on this fd to map the pages.
 * @alloc_size: out: the rounded size.
 *
 * The pages are zeroed, entered into the GART and counted against
 * RLIMIT_MEMLOCK (-ENOMEM beyond it; -ENOSPC when the GART is full;
 * -EDQUOT over the calling user's share of the GART).
 */
struct vgpu_host_alloc {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 mmap_offset;
	__u64 alloc_size;
};

/* Map the pages write-combined in the process (and in the direct map). */
#define VGPU_HOST_ALLOC_WC	(1U << 0)

/**
 * struct vgpu_host_register - pin existing user memory
 *	(VGPU_IOCTL_HOST_REGISTER)
 * @addr: page-aligned start address in the calling process.
 * @size: page-aligned size in bytes.
 * @flags: VGPU_HOST_REGISTER_* bits.
 * @handle: out: memory object handle.
 *
 * The pages are pinned (FOLL_LONGTERM), entered into the GART and counted
 * against RLIMIT_MEMLOCK (-ENOMEM beyond it; -ENOSPC when the GART is full;
 * -EDQUOT over the calling user's share of the GART).
 */
struct vgpu_host_register {
	__u64 addr;
	__u64 size;
	__u32 flags;
	__u32 handle;
};

/* The device may only read the memory; it may be a read-only mapping. */
#define VGPU_HOST_REGISTER_READONLY	(1U << 0)

/**
 * struct vgpu_map - map a memory object into a context (VGPU_IOCTL_MAP)
 * @ctx: context handle.
 * @handle: memory object handle (of the same open file: objects are usable
 *	by every context of their file, "portable").
 * @va: GPU virtual address; aligned to the object's page size (64 KiB for
 *	VRAM, 4 KiB for host memory), at least 64 KiB (the first 64 KiB stay
 *	unmapped so that NULL faults) and below 2^48.  By convention host
 *	memory is mapped at its host address (unified addressing).
 * @offset: offset into the object, aligned like @va.
 * @size: bytes, aligned like @va, non-zero, inside the object.
 * @flags: VGPU_MAP_* bits.
 * @pad: zero.
 *
 * -EINVAL for misalignment or a range outside the object or the VA space,
 * -EEXIST if the range overlaps another mapping of the context.
 */
struct vgpu_map {
	__u32 ctx;
	__u32 handle;
	__u64 va;
	__u64 offset;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

#define VGPU_MAP_READONLY	(1U << 0)	/* device may not write */
#define VGPU_MAP_NO_ATOMIC	(1U << 1)	/* device may not do atomics */

/**
 * struct vgpu_unmap - remove a mapping (VGPU_IOCTL_UNMAP)
 * @ctx: context handle.
 * @flags: zero.
 * @va: start address of a mapping made by VGPU_IOCTL_MAP (-ENOENT else).
 */
struct vgpu_unmap {
	__u32 ctx;
	__u32 flags;
	__u64 va;
};

/**
 * struct vgpu_mem_export - a memory object as a file descriptor
 *	(VGPU_IOCTL_MEM_EXPORT)
 * @handle: memory object handle.
 * @flags: VGPU_MEM_EXPORT_* bits.
 * @fd: out: a new file descriptor that holds the object.
 * @pad: zero.
 *
 * The descriptor can be passed to another process (SCM_RIGHTS, pidfd_getfd)
 * and imported there into any open file of the same device: CUDA IPC
 * memory handles.  The object lives as long as a handle, a mapping or an
 * exported descriptor holds it.
 */
struct vgpu_mem_export {
	__u32 handle;
	__u32 flags;
	__s32 fd;
	__u32 pad;
};

/* The new descriptor is close-on-exec. */
#define VGPU_MEM_EXPORT_CLOEXEC	(1U << 0)

/**
 * struct vgpu_mem_import - import an exported memory object
 *	(VGPU_IOCTL_MEM_IMPORT)
 * @fd: descriptor from VGPU_IOCTL_MEM_EXPORT (-EINVAL for any other file).
 *	Since 1.5, VRAM of another vgpu device imports as a *peer handle*:
 *	it holds the object (and so its VRAM) for as long as it lives, maps
 *	with VGPU_IOCTL_MAP as PEER PTEs (vgpu_hw.h) that this device's
 *	firmware follows into the peer's VRAM, and cannot be mmap()ed;
 *	host memory of another device is -EXDEV (register its mapping
 *	with VGPU_IOCTL_HOST_REGISTER instead).
 * @flags: VGPU_MEM_IMPORT_* (since 1.5; unknown bits -EINVAL).
 * @handle: out: handle of the object in this file.
 * @kind: out: VGPU_MEM_KIND_* of the object.
 * @size: out: size of the object in bytes.
 * @mmap_offset: out: for host memory, the offset to mmap() it on this
 *	file; else 0.
 */
struct vgpu_mem_import {
	__s32 fd;
	__u32 flags;
	__u32 handle;
	__u32 kind;
	__u64 size;
	__u64 mmap_offset;
};

/*
 * Refuse an object of another device (-EXDEV) instead of importing it as a
 * peer handle: "which device is this descriptor's?" (CUDA's VMM import).
 */
#define VGPU_MEM_IMPORT_OWN_DEVICE	(1U << 0)

#define VGPU_MEM_KIND_VRAM	0	/* VGPU_IOCTL_VRAM_ALLOC */
#define VGPU_MEM_KIND_HOST	1	/* VGPU_IOCTL_HOST_ALLOC */
#define VGPU_MEM_KIND_USERPTR	2	/* VGPU_IOCTL_HOST_REGISTER */
#define VGPU_MEM_KIND_MANAGED	3	/* VGPU_IOCTL_MANAGED_ALLOC, since 1.4 */

/**
 * struct vgpu_managed_alloc - allocate managed memory
 *	(VGPU_IOCTL_MANAGED_ALLOC, since 1.4)
 * @size: bytes; rounded up to VGPU_MANAGED_BLOCK_SIZE.
 * @flags: zero.
 * @handle: out: memory object handle.
 * @mmap_offset: out: pass to mmap(MAP_SHARED) on this fd to map the
 *	memory in the process.
 * @alloc_size: out: the rounded size.
 *
 * Managed memory migrates: each block of VGPU_MANAGED_BLOCK_SIZE bytes
 * lives either in host pages or in VRAM, never both.  It starts zeroed in
 * host pages.  A device access to a block that is not in VRAM is a
 * replayable fault: the firmware reports it (VGPU_IOCTL_FW_MMU_FAULT), the
 * driver moves the block into VRAM, maps it in every context that maps
 * the object, and the access replays.  A process access to a block in
 * VRAM faults in the driver, which moves the block back to host pages
 * once the firmware has dropped every translation of it.  The object is
 * mapped in contexts with VGPU_IOCTL_MAP (64 KiB aligned) and cannot be
 * exported (-EINVAL).  Its host pages are charged to the calling user's
 * share of the GART (as pinned memory was), and each block in VRAM to the
 * user's share of VRAM (a migration over it fails: the access faults
 * as VGPU_FAULT_MMU_UNMAPPED).
 */
struct vgpu_managed_alloc {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 mmap_offset;
	__u64 alloc_size;
};

/* The unit of migration: one big page, the granule of VRAM mappings. */
#define VGPU_MANAGED_BLOCK_SIZE	(64U << 10)

/* Where a block lives: struct vgpu_managed_migrate.target and query. */
#define VGPU_MANAGED_LOC_HOST	0
#define VGPU_MANAGED_LOC_DEVICE	1

/**
 * struct vgpu_managed_migrate - move managed memory now
 *	(VGPU_IOCTL_MANAGED_MIGRATE, since 1.4: prefetch)
 * @handle: a managed memory object (-EINVAL for another kind).
 * @flags: zero.
 * @offset: first byte of the range in the object.
 * @size: bytes, non-zero; the range is widened to whole blocks and must
 *	lie in the object (-EINVAL).
 * @target: VGPU_MANAGED_LOC_HOST or VGPU_MANAGED_LOC_DEVICE.
 * @pad: zero.
 *
 * Returns once every block of the range is at @target (-ENOMEM or
 * -EDQUOT when VRAM or the user's share of it runs out; the blocks moved
 * so far stay moved; -EINTR on a fatal signal).  User space orders it
 * with its queues (cudaMemPrefetchAsync runs it when the stream reaches
 * it).
 */
struct vgpu_managed_migrate {
	__u32 handle;
	__u32 flags;
	__u64 offset;
	__u64 size;
	__u32 target;
	__u32 pad;
};

/**
 * struct vgpu_managed_query - where managed memory lives
 *	(VGPU_IOCTL_MANAGED_QUERY, since 1.4)
 * @handle: a managed memory object (-EINVAL for another kind).
 * @flags: zero.
 * @offset: a byte in the object (-EINVAL past its end).
 * @location: out: VGPU_MANAGED_LOC_* of the block holding @offset.
 * @pad: zero.
 */
struct vgpu_managed_query {
	__u32 handle;
	__u32 flags;
	__u64 offset;
	__u32 location;
	__u32 pad;
};

/* Advice: struct vgpu_managed_advise.advice. */
#define VGPU_MANAGED_ADVISE_SET_ACCESSED_BY	1
#define VGPU_MANAGED_ADVISE_UNSET_ACCESSED_BY	2

/**
 * struct vgpu_managed_advise - advise how managed memory is used
 *	(VGPU_IOCTL_MANAGED_ADVISE, since 1.6)
 * @handle: a managed memory object (-EINVAL for another kind).
 * @flags: zero.
 * @offset: first byte of the range in the object.
 * @size: bytes, non-zero; the range is widened to whole blocks and must
 *	lie in the object (-EINVAL).
 * @advice: VGPU_MANAGED_ADVISE_* (-EINVAL for another value).
 * @pad: zero.
 *
 * SET_ACCESSED_BY: the device keeps the range mapped wherever its blocks
 * live: a block in host pages is mapped through the GART (small PTEs in
 * every context that maps the object), so a device access reaches it
 * without a fault and without moving it; a block moves into VRAM only by
 * a prefetch, and is mapped through the GART again once it is back.  The
 * object's pages take GART entries from then on (-ENOSPC when the GART
 * has no run left).  UNSET_ACCESSED_BY: blocks are no longer mapped
 * again after they move; a mapping in place stays until the block moves.
 */
struct vgpu_managed_advise {
	__u32 handle;
	__u32 flags;
	__u64 offset;
	__u64 size;
	__u32 advice;
	__u32 pad;
};

/* The engine a queue feeds. */
enum vgpu_engine {
	VGPU_ENGINE_COMPUTE = 0,	/* GR: kernels, and every packet */
	VGPU_ENGINE_COPY = 1,		/* CE: copy, memset, fences */
	VGPU_ENGINE_MAX = 1,
};

/**
 * struct vgpu_queue_create - create a user-mode queue
 *	(VGPU_IOCTL_QUEUE_CREATE)
 * @ctx: context handle the queue runs in.
 * @engine: enum vgpu_engine.
 * @ring_size: bytes, a power of two from 4 KiB to 1 MiB.
 * @flags: zero.
 * @handle: out: queue handle.
 * @queue_id: out: device-wide id of the queue.
 * @ring_offset: out: mmap offset of the ring (read-write, @ring_size bytes).
 * @doorbell_offset: out: mmap offset of the doorbell page (read-write,
 *	one page, struct vgpu_doorbell of include/vgpu_hw.h).
 * @fence_offset: out: mmap offset of the fence page (read-only, one page,
 *	struct vgpu_fence_page of include/vgpu_hw.h).
 *
 * The ring, doorbell and fence page count against the calling user's share
 * of queue memory (-EDQUOT over it); -ENOSPC beyond max_queues per file.
 */
struct vgpu_queue_create {
	__u32 ctx;
	__u32 engine;
	__u32 ring_size;
	__u32 flags;
	__u32 handle;
	__u32 queue_id;
	__u64 ring_offset;
	__u64 doorbell_offset;
	__u64 fence_offset;
};

/**
 * struct vgpu_wait - wait for a queue's fence (VGPU_IOCTL_WAIT)
 * @queue: queue handle.
 * @flags: zero.
 * @fence: wait until the queue's completed fence is >= this value.
 * @timeout_ns: ABSOLUTE CLOCK_MONOTONIC deadline in ns: a wait restarted
 *	after a signal keeps the same deadline.  0 polls once.
 *
 * Returns 0 once signalled, -ETIME at the deadline, -EINTR (or a restart)
 * on a signal, -ECANCELED if the context died, -ENODEV if the device was
 * lost.
 */
struct vgpu_wait {
	__u32 queue;
	__u32 flags;
	__u64 fence;
	__s64 timeout_ns;
};

/**
 * struct vgpu_queue_eventfd - notify an eventfd (VGPU_IOCTL_QUEUE_EVENTFD)
 * @queue: queue handle.
 * @fd: eventfd to signal on each fence signal or error; -1 removes it.
 *
 * The eventfd is counted up on every interrupt of the queue: fence signals,
 * faults, watchdog and device loss.
 */
struct vgpu_queue_eventfd {
	__u32 queue;
	__s32 fd;
};

/* ---- firmware channel (CAP_SYS_ADMIN) ------------------------------------ */

/**
 * struct vgpu_fw_attach - become the device's firmware (VGPU_IOCTL_FW_ATTACH)
 * @flags: VGPU_FW_ATTACH_* bits: what this firmware does (since 1.2;
 *	unknown bits -EINVAL).
 * @pad: zero.
 * @vram_size: out: bytes of VRAM.
 * @vram_offset: out: mmap offset of all of VRAM (read-write, shared).
 * @gart_entries: out: number of GART entries.
 * @gart_offset: out: mmap offset of the GART aperture, whose page i is
 *	GART entry i (SIGBUS while the entry is empty).
 *
 * Needs CAP_SYS_ADMIN (-EPERM) and a file with no client objects (-EBUSY);
 * one firmware per device (-EBUSY).  The firmware then read()s struct
 * vgpu_fw_event records from the file (poll for POLLIN) and detaches by
 * closing it; a dying firmware process marks the device lost.
 *
 * A firmware that attached with VGPU_FW_ATTACH_HEARTBEAT and then sends no
 * VGPU_IOCTL_FW_HEARTBEAT for vgpu_info.hang_timeout_ms is hung: the
 * driver detaches it as if it had died (device lost), revokes its
 * mappings of VRAM, the GART and the queues, and fails its read(), poll()
 * (EPOLLERR) and ioctls with -ENODEV, so that a firmware that wakes up
 * again learns that it no longer serves the device and exits.  A new
 * firmware can attach at once.
 */
struct vgpu_fw_attach {
	__u32 flags;
	__u32 pad;
	__u64 vram_size;
	__u64 vram_offset;
	__u64 gart_entries;
	__u64 gart_offset;
};

/* struct vgpu_fw_attach.flags, since 1.2 */
/* It sends VGPU_IOCTL_FW_HEARTBEAT; the driver may declare it hung. */
#define VGPU_FW_ATTACH_HEARTBEAT	(1U << 0)
/* It reads VGPU_FW_EV_CONFIG records. */
#define VGPU_FW_ATTACH_CONFIG		(1U << 1)
/* It stops a grid that ran past the exec limit (VGPU_INFO_EXEC_LIMIT). */
#define VGPU_FW_ATTACH_EXEC_LIMIT	(1U << 2)
#define VGPU_FW_ATTACH_FLAGS		(VGPU_FW_ATTACH_HEARTBEAT | \
					 VGPU_FW_ATTACH_CONFIG | \
					 VGPU_FW_ATTACH_EXEC_LIMIT)

/**
 * struct vgpu_fw_peer - reach another device's VRAM (VGPU_IOCTL_FW_PEER)
 * @index: N of the peer /dev/vgpuN.
 * @flags: zero.
 * @vram_size: out: bytes of the peer's VRAM.
 * @vram_offset: out: mmap offset, on this firmware's file, of all of the
 *	peer's VRAM (read-write, shared; SIGBUS where it is not allocated).
 *
 * Since 1.5.  A PEER PTE (vgpu_hw.h) names a byte of another device's
 * VRAM; the firmware follows it through this mapping, which shows the
 * same pages as the peer's own firmware sees, so both devices' loads,
 * stores and atomics meet in the same host memory.  The driver takes
 * pages away from it as from the VRAM aperture of FW_ATTACH.  -ENODEV:
 * no device @index, or it is this device.
 */
struct vgpu_fw_peer {
	__u32 index;
	__u32 flags;
	__u64 vram_size;
	__u64 vram_offset;
};

/**
 * struct vgpu_fw_signal - a queue's fence completed (VGPU_IOCTL_FW_SIGNAL)
 * @queue_id: device-wide queue id.
 * @flags: zero.
 * @fence: new completed fence value; must not go backwards (-EINVAL).
 *
 * The driver writes the value to the queue's fence page and wakes waiters,
 * poll()ers and the queue's eventfd: the "interrupt".
 */
struct vgpu_fw_signal {
	__u32 queue_id;
	__u32 flags;
	__u64 fence;
};

/**
 * struct vgpu_fw_fault - a queue faulted (VGPU_IOCTL_FW_FAULT)
 * @flags: zero.
 * @pad: zero.
 * @fault: the record; @fault.queue_id names the queue, @fault.kind must be
 *	a known kind other than NONE (WATCHDOG since 1.2: the grid ran past
 *	kernel_exec_timeout_ms).
 *
 * Stops the queue's context: its waits fail with -ECANCELED.
 */
struct vgpu_fw_fault {
	__u32 flags;
	__u32 pad;
	struct vgpu_fault fault;
};

/**
 * struct vgpu_fw_mmu_fault - a replayable fault (VGPU_IOCTL_FW_MMU_FAULT,
 *	since 1.4)
 * @ctx_id: the context whose access found no valid PTE.
 * @flags: zero.
 * @va: the faulting GPU virtual address.
 *
 * The firmware sends it, before declaring VGPU_FAULT_MMU_UNMAPPED, from
 * the engine thread that made the access, which stalls meanwhile.
 * Returns 0 once the driver made the page valid (a managed block moved
 * into VRAM and mapped in every context): the firmware walks the page
 * tables again and replays the access.  -EFAULT when @va is not in a
 * managed mapping of the context (the fault is fatal), -ENOMEM or
 * -EDQUOT when the block could not be moved (fatal too), -ENOENT for an
 * unknown context.  The driver never waits for the firmware in it, so
 * the engine cannot deadlock with the driver's own TLB_FLUSH records.
 */
struct vgpu_fw_mmu_fault {
	__u32 ctx_id;
	__u32 flags;
	__u64 va;
};

/* struct vgpu_fw_event.type */
enum vgpu_fw_event_type {
	VGPU_FW_EV_CTX_CREATE = 1,	/* ctx_id, arg0 = page directory */
	VGPU_FW_EV_CTX_DESTROY = 2,	/* ctx_id */
	VGPU_FW_EV_CTX_STOP = 3,	/* ctx_id: stop all its queues now */
	VGPU_FW_EV_TLB_FLUSH = 4,	/* ctx_id: PTEs were removed */
	VGPU_FW_EV_QUEUE_CREATE = 5,	/* see below */
	VGPU_FW_EV_QUEUE_DESTROY = 6,	/* queue_id, ctx_id */
	VGPU_FW_EV_QUEUE_KICK = 7,	/* queue_id, ctx_id: doorbell rang */
	/* Since 1.2, only to a firmware attached with VGPU_FW_ATTACH_CONFIG: */
	VGPU_FW_EV_CONFIG = 8,		/* arg0 = kernel_exec_timeout_ms */
};

/**
 * struct vgpu_fw_event - one record read() from the firmware file
 * @type: enum vgpu_fw_event_type.
 * @ctx_id: the context concerned.
 * @queue_id: the queue concerned (queue events), else 0.
 * @engine: QUEUE_CREATE: enum vgpu_engine.
 * @arg0: CTX_CREATE: VRAM offset of the page directory.
 *	QUEUE_CREATE: ring size in bytes.
 *	CONFIG: the per-kernel execution limit in ms, 0 = none (sent once
 *	right after attaching, before any other record, and again whenever
 *	the module parameter kernel_exec_timeout_ms changes).
 * @arg1: QUEUE_CREATE: mmap offset of the ring in the firmware file.
 * @arg2: QUEUE_CREATE: mmap offset of the doorbell page in the firmware
 *	file.
 * @seq: sequence number of the record, for VGPU_IOCTL_FW_ACK.
 *
 * Records are delivered in order; CREATE of an object always comes before
 * anything else about it.  A read() returns whole records only.  Records of
 * one kind about one object coalesce while unread (keeping the newest @seq),
 * so @seq grows but may skip values.
 */
struct vgpu_fw_event {
	__u32 type;
	__u32 ctx_id;
	__u32 queue_id;
	__u32 engine;
	__u64 arg0;
	__u64 arg1;
	__u64 arg2;
	__u64 seq;
};

/**
 * struct vgpu_fw_ack - the firmware is done with what records took away
 *	(VGPU_IOCTL_FW_ACK)
 * @seq: the highest vgpu_fw_event.seq read so far.
 * @flags: zero.
 * @pad: zero.
 *
 * TLB_FLUSH and CTX_DESTROY take memory away from the device.  The driver
 * keeps that memory (VRAM, GART entries, page tables) allocated until the
 * firmware acknowledges, with this ioctl, that it has handled every record
 * up to @seq: it dropped the cached translations, stopped the destroyed
 * context's work, and will not touch that memory again.  Until then a
 * stale translation cannot reach memory given to someone else.  -EINVAL if
 * @seq was never sent.
 */
struct vgpu_fw_ack {
	__u64 seq;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_fw_engine_status - one engine in a heartbeat
 * @progress: a counter that moves whenever the engine does work: for GR
 *	warp-instructions retired plus packets handled, for a copy engine
 *	packets handled.  Any change counts as progress.
 * @ctx_id: the context whose work runs on the engine now, 0 if none or
 *	unknown.
 * @flags: VGPU_FW_ENGINE_* bits; unknown bits -EINVAL.
 * @pad: zero.
 */
struct vgpu_fw_engine_status {
	__u64 progress;
	__u32 ctx_id;
	__u16 flags;
	__u16 pad;
};

/*
 * The engine has work it could run now.  Queues waiting in WAIT_MEM for
 * the host or another queue are legal waiting, not runnable work.
 */
#define VGPU_FW_ENGINE_RUNNABLE	(1U << 0)

/**
 * struct vgpu_fw_heartbeat - the firmware is alive (VGPU_IOCTL_FW_HEARTBEAT)
 * @flags: zero.
 * @num_engines: entries at @engines: must be vgpu_info.num_compute_engines
 *	+ num_copy_engines (-EINVAL otherwise).
 * @engines: user pointer to @num_engines struct vgpu_fw_engine_status,
 *	compute engines first, then copy engines.
 *
 * Since 1.2.  A firmware attached with VGPU_FW_ATTACH_HEARTBEAT sends one
 * at least every hang_timeout_ms / 4 (vgpu-fw: every 250 ms).  An engine
 * reported RUNNABLE whose @progress has not changed for hang_timeout_ms
 * is hung: the driver stops the context reported running on it
 * (VGPU_CTX_STATE_GUILTY, fault VGPU_FAULT_WATCHDOG) and no other; if no
 * context is reported, or the engine is still hung hang_timeout_ms after
 * its context was stopped, the firmware itself is declared hung.
 * -EPERM on a client file, -ENODEV on a firmware that was detached as
 * hung, -EFAULT for a bad @engines.
 */
struct vgpu_fw_heartbeat {
	__u32 flags;
	__u32 num_engines;
	__u64 engines;
};

#define VGPU_IOCTL_GET_INFO \
	_IOR(VGPU_IOCTL_BASE, 0x00, struct vgpu_info)
#define VGPU_IOCTL_CTX_CREATE \
	_IOWR(VGPU_IOCTL_BASE, 0x01, struct vgpu_ctx_create)
#define VGPU_IOCTL_CTX_DESTROY \
	_IOW(VGPU_IOCTL_BASE, 0x02, struct vgpu_handle_arg)
#define VGPU_IOCTL_CTX_STATUS \
	_IOWR(VGPU_IOCTL_BASE, 0x03, struct vgpu_ctx_status)
#define VGPU_IOCTL_VRAM_ALLOC \
	_IOWR(VGPU_IOCTL_BASE, 0x04, struct vgpu_vram_alloc)
#define VGPU_IOCTL_HOST_ALLOC \
	_IOWR(VGPU_IOCTL_BASE, 0x05, struct vgpu_host_alloc)
#define VGPU_IOCTL_HOST_REGISTER \
	_IOWR(VGPU_IOCTL_BASE, 0x06, struct vgpu_host_register)
#define VGPU_IOCTL_MEM_FREE \
	_IOW(VGPU_IOCTL_BASE, 0x07, struct vgpu_handle_arg)
#define VGPU_IOCTL_MAP \
	_IOW(VGPU_IOCTL_BASE, 0x08, struct vgpu_map)
#define VGPU_IOCTL_UNMAP \
	_IOW(VGPU_IOCTL_BASE, 0x09, struct vgpu_unmap)
#define VGPU_IOCTL_QUEUE_CREATE \
	_IOWR(VGPU_IOCTL_BASE, 0x0a, struct vgpu_queue_create)
#define VGPU_IOCTL_QUEUE_DESTROY \
	_IOW(VGPU_IOCTL_BASE, 0x0b, struct vgpu_handle_arg)
#define VGPU_IOCTL_QUEUE_KICK \
	_IOW(VGPU_IOCTL_BASE, 0x0c, struct vgpu_handle_arg)
#define VGPU_IOCTL_WAIT \
	_IOW(VGPU_IOCTL_BASE, 0x0d, struct vgpu_wait)
#define VGPU_IOCTL_QUEUE_EVENTFD \
	_IOW(VGPU_IOCTL_BASE, 0x0e, struct vgpu_queue_eventfd)
#define VGPU_IOCTL_MEM_EXPORT \
	_IOWR(VGPU_IOCTL_BASE, 0x0f, struct vgpu_mem_export)
#define VGPU_IOCTL_MEM_IMPORT \
	_IOWR(VGPU_IOCTL_BASE, 0x10, struct vgpu_mem_import)
#define VGPU_IOCTL_MANAGED_ALLOC \
	_IOWR(VGPU_IOCTL_BASE, 0x18, struct vgpu_managed_alloc)
#define VGPU_IOCTL_MANAGED_MIGRATE \
	_IOW(VGPU_IOCTL_BASE, 0x19, struct vgpu_managed_migrate)
#define VGPU_IOCTL_MANAGED_QUERY \
	_IOWR(VGPU_IOCTL_BASE, 0x1a, struct vgpu_managed_query)
#define VGPU_IOCTL_MANAGED_ADVISE \
	_IOW(VGPU_IOCTL_BASE, 0x1b, struct vgpu_managed_advise)
#define VGPU_IOCTL_FW_ATTACH \
	_IOWR(VGPU_IOCTL_BASE, 0x40, struct vgpu_fw_attach)
#define VGPU_IOCTL_FW_SIGNAL \
	_IOW(VGPU_IOCTL_BASE, 0x41, struct vgpu_fw_signal)
#define VGPU_IOCTL_FW_FAULT \
	_IOW(VGPU_IOCTL_BASE, 0x42, struct vgpu_fw_fault)
#define VGPU_IOCTL_FW_ACK \
	_IOW(VGPU_IOCTL_BASE, 0x43, struct vgpu_fw_ack)
#define VGPU_IOCTL_FW_HEARTBEAT \
	_IOW(VGPU_IOCTL_BASE, 0x44, struct vgpu_fw_heartbeat)
#define VGPU_IOCTL_FW_MMU_FAULT \
	_IOW(VGPU_IOCTL_BASE, 0x48, struct vgpu_fw_mmu_fault)
#define VGPU_IOCTL_FW_PEER \
	_IOWR(VGPU_IOCTL_BASE, 0x45, struct vgpu_fw_peer)

#endif /* _UAPI_LINUX_VGPU_H */
