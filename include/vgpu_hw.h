/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu_hw.h - the vGPU "hardware manual": everything the device reads or
 * writes in memory, shared by the kernel driver, the user-mode driver and
 * the firmware.  All multi-byte values are little-endian; all structures
 * have fixed layouts.
 *
 * 1. Memory apertures
 *
 *   VRAM: device memory, byte offsets 0 .. vram_size-1.  The firmware maps
 *   all of it.  Applications never map it.
 *   GART: the device's window on system memory: entry i is one 4 KiB host
 *   page.  Only pages entered in the GART are reachable by the device.
 *
 * 2. MMU: one 48-bit GPU virtual address space per context
 *
 *   va bits  47..39   38..30   29..21   20..16        15..12   11..0
 *            L3 idx   L2 idx   L1 idx   big PTE idx   -        offset (64K)
 *                                       small PTE idx (20..12) offset (4K)
 *
 *   The page directory (PD3, the root named by VGPU_FW_EV_CTX_CREATE) and
 *   PD2 are 4 KiB tables of 512 u64 PDEs.  PD1 is an 8 KiB table of 512
 *   *dual* PDEs (two u64: the big-page table, then the small-page table of
 *   the same 2 MiB): a 2 MiB range may mix 64 KiB VRAM pages and 4 KiB host
 *   pages.  A big-page table holds 32 PTEs (one per 64 KiB), a small-page
 *   table 512 PTEs (one per 4 KiB); both occupy a 4 KiB VRAM page.  The
 *   walk tries the big-page PTE first and then the small-page PTE: the
 *   driver never lets both be valid for one address.
 *
 *   All tables live in VRAM and are written only by the driver.  After
 *   removing PTEs the driver sends VGPU_FW_EV_TLB_FLUSH; the firmware must
 *   drop cached translations of that context before it runs more work.
 */
#ifndef _VGPU_HW_H
#define _VGPU_HW_H

#include <linux/const.h>
#include <linux/types.h>

/* Version of this interface; reported in vgpu_info.hw_version. */
#define VGPU_HW_VERSION		1

#define VGPU_VA_BITS		48
#define VGPU_SMALL_PAGE_SHIFT	12		/* host memory, via GART */
#define VGPU_SMALL_PAGE_SIZE	_BITULL(VGPU_SMALL_PAGE_SHIFT)
#define VGPU_BIG_PAGE_SHIFT	16		/* VRAM */
#define VGPU_BIG_PAGE_SIZE	_BITULL(VGPU_BIG_PAGE_SHIFT)
#define VGPU_PDE_SHIFT		21		/* one PD1 entry covers 2 MiB */
#define VGPU_PD_ENTRIES		512
#define VGPU_BIG_PTES		32		/* per 2 MiB */
#define VGPU_SMALL_PTES		512		/* per 2 MiB */
#define VGPU_PT_SIZE		4096		/* every table but PD1 */
#define VGPU_PD1_SIZE		8192		/* 512 dual PDEs */

#define VGPU_PD3_INDEX(va)	(((va) >> 39) & 511)
#define VGPU_PD2_INDEX(va)	(((va) >> 30) & 511)
#define VGPU_PD1_INDEX(va)	(((va) >> 21) & 511)
#define VGPU_BIG_INDEX(va)	(((va) >> 16) & 31)
#define VGPU_SMALL_INDEX(va)	(((va) >> 12) & 511)

/* PDE: bit 0 valid; bits 51..12: VRAM byte offset of the next table. */
#define VGPU_PDE_VALID		_BITULL(0)

/*
 * PTE:
 *   bit 0       VALID
 *   bits 2..1   APERTURE: 0 VRAM, 1 GART, 2 PEER (3 reserved: faults)
 *   bit 3       WRITE    device may write
 *   bit 4       ATOMIC   device may do atomics (needs WRITE)
 *   bits 11..8  PEER: with APERTURE PEER, N of the /dev/vgpuN whose VRAM
 *               FRAME is in (a big page of another device); else zero
 *   bits 51..12 FRAME: VRAM byte offset (>> 12) or GART entry index
 *   others      zero
 * A read is allowed by VALID alone.
 */
#define VGPU_PTE_VALID		_BITULL(0)
#define VGPU_PTE_APERTURE_SHIFT	1
#define VGPU_PTE_APERTURE_MASK	(3ULL << VGPU_PTE_APERTURE_SHIFT)
#define VGPU_PTE_APERTURE_VRAM	(0ULL << VGPU_PTE_APERTURE_SHIFT)
#define VGPU_PTE_APERTURE_GART	_BITULL(VGPU_PTE_APERTURE_SHIFT)
#define VGPU_PTE_APERTURE_PEER	(2ULL << VGPU_PTE_APERTURE_SHIFT)
#define VGPU_PTE_PEER_SHIFT	8
#define VGPU_PTE_PEER_MAX	16	/* devices a PEER PTE can name */
#define VGPU_PTE_PEER_MASK	(0xfULL << VGPU_PTE_PEER_SHIFT)
#define VGPU_PTE_PEER(pte) \
	(((pte) & VGPU_PTE_PEER_MASK) >> VGPU_PTE_PEER_SHIFT)
#define VGPU_PTE_WRITE		_BITULL(3)
#define VGPU_PTE_ATOMIC		_BITULL(4)
#define VGPU_PTE_FRAME_SHIFT	12
#define VGPU_PTE_FRAME_MASK	(((1ULL << 40) - 1) << VGPU_PTE_FRAME_SHIFT)

#define VGPU_PTE_FRAME(pte) \
	(((pte) & VGPU_PTE_FRAME_MASK) >> VGPU_PTE_FRAME_SHIFT)
#define VGPU_PDE_ADDR(pde)	((pde) & VGPU_PTE_FRAME_MASK)

/*
 * 3. User-mode queues
 *
 * A queue is a ring of packets in host memory, plus two pages:
 *
 *  - the doorbell page (struct vgpu_doorbell), read-write for the
 *    application and the firmware;
 *  - the fence page (struct vgpu_fence_page), read-only for the
 *    application, written by the driver when the firmware signals.
 *
 * Submission: the application writes packets at ring[wptr % size], then
 * publishes the new @wptr with a release store and a full memory barrier,
 * and finally reads @fw_sleeping: only when it is set does it call
 * VGPU_IOCTL_QUEUE_KICK.  The firmware, before it sleeps, sets
 * @fw_sleeping, issues a full barrier and re-reads every @wptr (the
 * io_uring SQPOLL handshake), so a submission is never missed (each
 * side's barriers and their partners: vgpu_barrier.h).
 * The firmware advances @rptr past a packet once the packet completed; the
 * driver's watchdog kills a context whose queue has rptr != wptr with no
 * progress for watchdog_ms.
 */
struct vgpu_doorbell {
	__u64 wptr;		/* bytes written, monotonic (app) */
	__u64 pad0[7];		/* own cache line */
	__u64 rptr;		/* bytes completed, monotonic (firmware) */
	__u32 fw_sleeping;	/* non-zero: kick needed (firmware) */
	__u32 pad1;
	__u64 pad2[6];
};

struct vgpu_fence_page {
	__u64 completed;	/* last fence value signalled */
	__u32 error;		/* 0, or VGPU_QUEUE_ERROR_* once stopped */
	__u32 pad;
};

#define VGPU_QUEUE_ERROR_CTX_DEAD	1	/* fault or watchdog */
#define VGPU_QUEUE_ERROR_DEVICE_LOST	2

/*
 * 4. Packets
 *
 * Every packet starts with a header; sizes are multiples of 8 bytes, and a
 * packet never wraps around the end of the ring (pad with NOP instead).
 */
struct vgpu_pkt_header {
	__u16 opcode;		/* enum vgpu_pkt_opcode */
	__u16 flags;		/* VGPU_PKT_F_*, per opcode */
	__u32 size;		/* bytes of the whole packet, header included */
};

enum vgpu_pkt_opcode {
	VGPU_PKT_NOP = 0,		/* skip @size bytes */
	VGPU_PKT_FENCE = 1,		/* struct vgpu_pkt_fence */
	VGPU_PKT_WAIT_MEM = 2,		/* struct vgpu_pkt_wait_mem */
	VGPU_PKT_WRITE_MEM = 3,		/* struct vgpu_pkt_write_mem */
	VGPU_PKT_COPY = 4,		/* struct vgpu_pkt_copy */
	VGPU_PKT_MEMSET = 5,		/* struct vgpu_pkt_memset */
	VGPU_PKT_TIMESTAMP = 6,		/* struct vgpu_pkt_timestamp */
	VGPU_PKT_LAUNCH = 7,		/* struct vgpu_pkt_launch */
	VGPU_PKT_COPY_TILED = 8,	/* struct vgpu_pkt_copy_tiled */
};

/*
 * FENCE: once every earlier packet of the queue completed, signal @value
 * as the queue's completed fence (the firmware calls VGPU_IOCTL_FW_SIGNAL:
 * the driver updates the fence page and raises the interrupt).
 */
struct vgpu_pkt_fence {
	struct vgpu_pkt_header hdr;
	__u64 value;
};

/* WAIT_MEM: stall the queue until the u64 at GPU VA @va is >= @value. */
struct vgpu_pkt_wait_mem {
	struct vgpu_pkt_header hdr;
	__u64 va;
	__u64 value;
};

/* WRITE_MEM: after earlier packets complete, store u64 @value at @va. */
struct vgpu_pkt_write_mem {
	struct vgpu_pkt_header hdr;
	__u64 va;
	__u64 value;
};

/* COPY: copy @size bytes from GPU VA @src to GPU VA @dst. */
struct vgpu_pkt_copy {
	struct vgpu_pkt_header hdr;
	__u64 dst;
	__u64 src;
	__u64 size;
};

/*
 * COPY_TILED: a box between pitch-linear memory and a block-linear
 * surface (a CUDA array; layout in vgpu_array.h).  The pitch side's box
 * starts at @linear, rows @linear_pitch and slices @linear_slice bytes
 * apart.  The surface at @surface is @surf_row_bytes x @surf_height x
 * @surf_depth with blocks 2^@block_h_log2 GOBs high and 2^@block_d_log2
 * deep (each at most VGPU_BL_MAX_LOG2); the box is @width bytes x
 * @height rows x @depth slices at (@x bytes, @y, @z) in it and must lie
 * inside it.  @direction is VGPU_COPY_TILED_*; @pad is zero.
 */
struct vgpu_pkt_copy_tiled {
	struct vgpu_pkt_header hdr;
	__u64 linear;
	__u64 linear_pitch;
	__u64 linear_slice;
	__u64 surface;
	__u32 surf_row_bytes;
	__u32 surf_height;
	__u32 surf_depth;
	__u8 block_h_log2;
	__u8 block_d_log2;
	__u8 direction;
	__u8 pad;
	__u32 x, y, z;
	__u32 width, height, depth;
};

#define VGPU_COPY_TILED_TO_SURFACE	0	/* linear -> surface */
#define VGPU_COPY_TILED_FROM_SURFACE	1	/* surface -> linear */

/* MEMSET: fill @count elements of @elem_size (1, 2 or 4) bytes at @dst. */
struct vgpu_pkt_memset {
	struct vgpu_pkt_header hdr;
	__u64 dst;
	__u64 count;
	__u32 value;
	__u32 elem_size;
};

/* TIMESTAMP: after earlier packets complete, store device ns at @va. */
struct vgpu_pkt_timestamp {
	struct vgpu_pkt_header hdr;
	__u64 va;
};

/*
 * LAUNCH: run a kernel.  The fixed part names the code and the grid; the
 * payload that follows (@size - sizeof(struct vgpu_pkt_launch) bytes) is
 * defined by the ISA version @isa_version and is opaque to the driver.
 */
struct vgpu_pkt_launch {
	struct vgpu_pkt_header hdr;
	__u32 isa_version;
	__u32 shared_bytes;	/* dynamic shared memory per block */
	__u64 code_va;		/* GPU VA of the validated program image */
	__u64 params_va;	/* GPU VA of the parameter buffer */
	__u32 grid[3];
	__u32 block[3];
	__u64 reserved[4];	/* zero */
};

#endif /* _VGPU_HW_H */
