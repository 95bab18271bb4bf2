/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmu.h - the device MMU: GPU virtual addresses of a context to host
 * pointers into the firmware's VRAM and GART apertures, by walking the
 * page tables the driver keeps in VRAM (format: include/vgpu_hw.h).
 *
 * The walk itself caches nothing: the execution core keeps a per-SM TLB
 * for the length of a grid, and a copy translates once per page and
 * keeps the leaf tables of its current 2 MiB region (struct
 * fw_walk_cache) for the length of its packet.  So a TLB_FLUSH from the
 * driver is honoured by construction before the next packet runs.
 */
#ifndef VGPU_FW_MMU_H
#define VGPU_FW_MMU_H

#include <stddef.h>
#include <stdint.h>

struct fw_ctx;

#define FW_MMU_READ	(1u << 0)
#define FW_MMU_WRITE	(1u << 1)
#define FW_MMU_ATOMIC	(1u << 2)	/* VGPU_PTE_ATOMIC */

/* A translated page. */
struct fw_mmu_page {
	uint64_t va;		/* GPU VA of the page start */
	uint64_t size;		/* 4 KiB (GART) or 64 KiB (VRAM) */
	uint8_t *host;		/* the page in the firmware's apertures */
	uint32_t perm;		/* FW_MMU_* */
};

/*
 * The leaf page tables of one 2 MiB region (VRAM offsets, or UINT64_MAX
 * for none), kept by a copy between pages.
 */
struct fw_walk_cache {
	uint64_t region;	/* va >> VGPU_PDE_SHIFT; UINT64_MAX: empty */
	uint64_t big_pt;
	uint64_t small_pt;
};

/* Translate @va; 0, or -1 when nothing valid maps it. */
int fw_mmu_translate(struct fw_ctx *ctx, uint64_t va,
		     struct fw_mmu_page *page);

/*
 * Device-side memory access for the engines, page by page.  They return
 * 0, or a VGPU_FAULT_* kind with the faulting address in *@fault_va.
 */
int fw_mem_read(struct fw_ctx *ctx, uint64_t va, void *buf, uint64_t len,
		uint64_t *fault_va);
int fw_mem_write(struct fw_ctx *ctx, uint64_t va, const void *buf,
		 uint64_t len, uint64_t *fault_va);
int fw_mem_copy(struct fw_ctx *ctx, uint64_t dst, uint64_t src, uint64_t len,
		uint64_t *fault_va);
int fw_mem_fill(struct fw_ctx *ctx, uint64_t dst, uint32_t value,
		unsigned int elem_size, uint64_t count, uint64_t *fault_va);

/* The execution core's translate callback; @opaque is a struct fw_ctx. */
struct vgpu_core_page;
int fw_mmu_core_translate(void *opaque, uint64_t va,
			  struct vgpu_core_page *page);

#endif /* VGPU_FW_MMU_H */
