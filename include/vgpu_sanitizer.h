/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu_sanitizer.h - what libcuda and the GR engine exchange for
 * vgpu-sanitizer (Documentation/sanitizer.rst).
 *
 * A sanitized launch is a counted launch (VGPU_LAUNCH_F_COUNTERS,
 * include/vgpu_launch.h): it runs on the interpreter, which sees every
 * access.  The client places a struct vgpu_san_desc at
 * VGPU_SAN_DESC_OFFSET in the counters buffer before the launch, as it
 * places the L2 policy (include/vgpu_counters.h); a zero @size there
 * means "not sanitized", so a counted launch of an old client is
 * unchanged.  The descriptor names two more buffers of the client:
 *
 *   allocs_va:  struct vgpu_san_alloc[nallocs], sorted by map_base,
 *               not overlapping: the allocations the program made and
 *               those it freed (memcheck's bounds), with initcheck's
 *               bitmaps of the bytes written
 *   reports_va: struct vgpu_san_reports, then report_cap records that
 *               the engine fills when the grid has ended (also when it
 *               faulted), before the queue moves past the LAUNCH
 *
 * A bad descriptor (stray bits, a table that cannot be read, an
 * unsorted table) is a bad packet, as a bad L2 policy is.
 */
#ifndef _VGPU_SANITIZER_H
#define _VGPU_SANITIZER_H

#include <linux/types.h>

/* Where struct vgpu_san_desc lies in the counters buffer. */
#define VGPU_SAN_DESC_OFFSET		3072

/* struct vgpu_san_desc.tools */
#define VGPU_SAN_MEMCHECK		(1U << 0)
#define VGPU_SAN_RACECHECK		(1U << 1)
#define VGPU_SAN_SYNCCHECK		(1U << 2)
#define VGPU_SAN_INITCHECK		(1U << 3)
#define VGPU_SAN_TOOLS_ALL		(VGPU_SAN_MEMCHECK | \
					 VGPU_SAN_RACECHECK | \
					 VGPU_SAN_SYNCCHECK | \
					 VGPU_SAN_INITCHECK)

/* The most table entries and report records one launch may name. */
#define VGPU_SAN_MAX_ALLOCS		65536
#define VGPU_SAN_MAX_REPORTS		4096

/**
 * struct vgpu_san_desc - a sanitized launch
 * @size: sizeof(struct vgpu_san_desc); 0: the launch is not sanitized.
 * @tools: VGPU_SAN_* bits; other bits make the packet bad.
 * @allocs_va: GPU VA of the allocation table (8-byte aligned), or 0.
 * @nallocs: its entries (<= VGPU_SAN_MAX_ALLOCS).
 * @report_cap: records at @reports_va (1 .. VGPU_SAN_MAX_REPORTS).
 * @reports_va: GPU VA (8-byte aligned, writable) of struct
 *	vgpu_san_reports and @report_cap records.
 */
struct vgpu_san_desc {
	__u32 size;
	__u32 tools;
	__u64 allocs_va;
	__u32 nallocs;
	__u32 report_cap;
	__u64 reports_va;
};

/* struct vgpu_san_alloc.flags */
#define VGPU_SAN_ALLOC_FREED		(1U << 0)	/* freed since */

/**
 * struct vgpu_san_alloc - one allocation of the program
 * @base: the address the program was given.
 * @size: the bytes it asked for.
 * @map_base: the start of the range the allocation occupies in the
 *	GPU's page tables (its 64 KiB granules): accesses in
 *	[@map_base, @map_base + @map_size) but outside [@base, @base +
 *	@size) reach mapped memory without a fault, and are what memcheck
 *	finds beyond the MMU.
 * @map_size: its bytes.
 * @flags: VGPU_SAN_ALLOC_*.
 * @reserved: zero.
 * @init_va: initcheck: the GPU VA of a bitmap of ceil(@size / 8) bytes,
 *	bit i (of byte i / 8, from the least significant) set when byte i
 *	of the allocation has been written (by a copy, a memset or a
 *	kernel); 0: not tracked.  The engine reads it when the grid starts,
 *	sets the bits of the grid's stores and writes it back when the grid
 *	has ended.
 */
struct vgpu_san_alloc {
	__u64 base;
	__u64 size;
	__u64 map_base;
	__u64 map_size;
	__u32 flags;
	__u32 reserved;
	__u64 init_va;
};

/* struct vgpu_san_report.kind */
enum vgpu_san_kind {
	VGPU_SAN_OUT_OF_BOUNDS = 1,	/* memcheck: outside the allocation */
	VGPU_SAN_MISALIGNED,		/* memcheck */
	VGPU_SAN_USE_AFTER_FREE,	/* memcheck: in a freed allocation */
	VGPU_SAN_RACE_RAW,		/* racecheck: read after write */
	VGPU_SAN_RACE_WAR,		/* write after read */
	VGPU_SAN_RACE_WAW,		/* write after write */
	VGPU_SAN_DIVERGENT_BARRIER,	/* synccheck: bar.sync in a
					 * divergent warp */
	VGPU_SAN_UNINIT_READ,		/* initcheck: a global read of bytes
					 * never written */
};

/* struct vgpu_san_report.space (the vISA state space of the access) */
#define VGPU_SAN_SPACE_GLOBAL		1
#define VGPU_SAN_SPACE_SHARED		2
#define VGPU_SAN_SPACE_LOCAL		3

/**
 * struct vgpu_san_report - one finding
 * @kind: enum vgpu_san_kind.
 * @space: VGPU_SAN_SPACE_* of the access.
 * @is_write: 1 for a store.
 * @access_size: bytes of the access (of each lane).
 * @address: the address accessed (shared and local: the offset in the
 *	window).
 * @block, @thread: blockIdx and threadIdx of the thread (for a race: the
 *	later access).
 * @pc: vISA instruction index of the access; @line its source line
 *	from the module's line table (0: unknown); @file the table's file.
 * @alloc_base, @alloc_size: the allocation the address is nearest to
 *	(memcheck), or 0.
 * @pc2, @line2, @thread2: a race's earlier access.
 * @count: how many times this finding was seen (races: hazard bytes).
 * @kernel: the kernel's index in its module.
 */
struct vgpu_san_report {
	__u32 kind;
	__u8 space;
	__u8 is_write;
	__u16 access_size;
	__u64 address;
	__u32 block[3];
	__u32 thread[3];
	__u32 pc;
	__u32 line;
	__u64 alloc_base;
	__u64 alloc_size;
	__u32 pc2;
	__u32 line2;
	__u32 thread2[3];
	__u32 count;
	__u32 kernel;
	__u32 reserved;
	char file[64];
};

/**
 * struct vgpu_san_reports - at reports_va, before the records
 * @count: records written after it (<= report_cap).
 * @dropped: findings that did not fit.
 */
struct vgpu_san_reports {
	__u32 count;
	__u32 dropped;
};

#endif /* _VGPU_SANITIZER_H */
