// SPDX-License-Identifier: GPL-2.0
/*
 * mmu.c - page-table walk and the engines' memory accesses.
 *
 * The walk goes PD3 -> PD2 -> PD1 (dual entries) -> big- or small-page
 * table, as include/vgpu_hw.h describes.  Everything read from VRAM is
 * distrusted: a table address outside VRAM, a misaligned one, a PTE with
 * unknown bits or an aperture the walk cannot honour all make the address
 * invalid, so a corrupt table faults its context instead of reaching
 * memory the context does not own.
 */
#include <pthread.h>
#include <string.h>

#include "fw.h"
#include "mmu.h"
#include "replay.h"
#include "vgpu_core.h"

#define FW_PTE_KNOWN_BITS (VGPU_PTE_VALID | VGPU_PTE_APERTURE_MASK | \
			   VGPU_PTE_WRITE | VGPU_PTE_ATOMIC | VGPU_PTE_FRAME_MASK)

/* Read the u64 entry @index of the table at VRAM offset @table. */
static int load_entry(struct fw_device *dev, uint64_t table, uint64_t index,
		      uint64_t *out)
{
	uint64_t off = table + index * 8;

	if (table & (VGPU_PT_SIZE - 1) || off + 8 > dev->vram.size ||
	    off < table)
		return -1;
	fw_aperture_revalidate(&dev->vram, off, 8);
	*out = atomic_load_explicit((_Atomic uint64_t *)(dev->vram.base + off),
				    memory_order_acquire);
	return 0;
}

/* Follow a PDE: the next table's VRAM offset, or -1. */
static int next_table(struct fw_device *dev, uint64_t table, uint64_t index,
		      uint64_t *next)
{
	uint64_t pde;

	if (load_entry(dev, table, index, &pde) || !(pde & VGPU_PDE_VALID))
		return -1;
	*next = VGPU_PDE_ADDR(pde);
	return 0;
}

/* Turn a valid PTE for a page of @size bytes into a host pointer. */
static int pte_to_page(struct fw_device *dev, uint64_t pte, uint64_t size,
		       struct fw_mmu_page *page)
{
	uint64_t frame = VGPU_PTE_FRAME(pte);

	if (pte & ~FW_PTE_KNOWN_BITS)
		return -1;
	switch (pte & VGPU_PTE_APERTURE_MASK) {
	case VGPU_PTE_APERTURE_VRAM: {
		uint64_t off = frame << VGPU_PTE_FRAME_SHIFT;

		if (off & (size - 1) || off + size > dev->vram.size)
			return -1;
		fw_aperture_revalidate(&dev->vram, off, size);
		page->host = dev->vram.base + off;
		break;
	}
	case VGPU_PTE_APERTURE_GART:
		/* A GART entry is one 4 KiB page: no big GART pages. */
		if (size != VGPU_SMALL_PAGE_SIZE ||
		    frame >= dev->gart.size / VGPU_SMALL_PAGE_SIZE)
			return -1;
		fw_aperture_revalidate(&dev->gart, frame * size, size);
		page->host = dev->gart.base + frame * size;
		break;
	default:
		return -1;
	}
	page->size = size;
	page->perm = FW_MMU_READ | (pte & VGPU_PTE_WRITE ? FW_MMU_WRITE : 0) |
		     (pte & VGPU_PTE_ATOMIC ? FW_MMU_ATOMIC : 0);
	return 0;
}

#define FW_NO_TABLE	UINT64_MAX

/*
 * The two leaf tables (big and small pages) of the 2 MiB region of @va:
 * PD3 -> PD2 -> PD1.  Either may be FW_NO_TABLE.
 */
static int leaf_tables(struct fw_ctx *ctx, uint64_t va,
		       struct fw_walk_cache *wc)
{
	struct fw_device *dev = ctx->dev;
	uint64_t pd2, pd1;

	if (va >> VGPU_VA_BITS)
		return -1;
	if (next_table(dev, ctx->pd, VGPU_PD3_INDEX(va), &pd2) ||
	    next_table(dev, pd2, VGPU_PD2_INDEX(va), &pd1))
		return -1;
	/* PD1 entries are pairs: the big-page table, then the small one. */
	if (next_table(dev, pd1, 2 * VGPU_PD1_INDEX(va), &wc->big_pt))
		wc->big_pt = FW_NO_TABLE;
	if (next_table(dev, pd1, 2 * VGPU_PD1_INDEX(va) + 1, &wc->small_pt))
		wc->small_pt = FW_NO_TABLE;
	wc->region = va >> VGPU_PDE_SHIFT;
	return 0;
}

/* Look @va up in the leaf tables @wc: big page first, then small. */
static int leaf_lookup(struct fw_device *dev, uint64_t va,
		       const struct fw_walk_cache *wc,
		       struct fw_mmu_page *page)
{
	uint64_t pte;

	if (wc->big_pt != FW_NO_TABLE &&
	    !load_entry(dev, wc->big_pt, VGPU_BIG_INDEX(va), &pte) &&
	    (pte & VGPU_PTE_VALID)) {
		page->va = va & ~(VGPU_BIG_PAGE_SIZE - 1);
		return pte_to_page(dev, pte, VGPU_BIG_PAGE_SIZE, page);
	}
	if (wc->small_pt != FW_NO_TABLE &&
	    !load_entry(dev, wc->small_pt, VGPU_SMALL_INDEX(va), &pte) &&
	    (pte & VGPU_PTE_VALID)) {
		page->va = va & ~(VGPU_SMALL_PAGE_SIZE - 1);
		return pte_to_page(dev, pte, VGPU_SMALL_PAGE_SIZE, page);
	}
	return -1;
}

int fw_mmu_translate(struct fw_ctx *ctx, uint64_t va, struct fw_mmu_page *page)
{
	struct fw_walk_cache wc;

	if (leaf_tables(ctx, va, &wc))
		return -1;
	return leaf_lookup(ctx->dev, va, &wc, page);
}

/*
 * Translate @va reusing the leaf tables in @wc when @va is in the same
 * 2 MiB region.  Page tables live as long as their context (the driver
 * never frees or moves one before: kmod/vgpu_mmu.c), so a table seen once
 * stays valid; only the PTE is read afresh.  A miss walks again from PD3,
 * so a table created meanwhile is found.
 */
static int translate_cached(struct fw_ctx *ctx, uint64_t va,
			    struct fw_walk_cache *wc, struct fw_mmu_page *page)
{
	if (wc->region == va >> VGPU_PDE_SHIFT &&
	    !leaf_lookup(ctx->dev, va, wc, page))
		return 0;
	if (leaf_tables(ctx, va, wc))
		return -1;
	return leaf_lookup(ctx->dev, va, wc, page);
}

/*
 * Translate @va (through @wc when not NULL); a miss is reported to the
 * driver as a replayable fault (replay.c) and the walk replayed while the
 * driver resolves it.
 */
static int translate_replay(struct fw_ctx *ctx, uint64_t va,
			    struct fw_walk_cache *wc, struct fw_mmu_page *page)
{
	for (int tries = 0;; tries++) {
		int ret = wc ? translate_cached(ctx, va, wc, page) :
			       fw_mmu_translate(ctx, va, page);

		if (!ret || tries == FW_REPLAY_TRIES ||
		    !fw_mmu_replay(ctx, va))
			return ret;
	}
}

int fw_mmu_core_translate(void *opaque, uint64_t va,
			  struct vgpu_core_page *out)
{
	struct fw_mmu_page page;

	if (translate_replay(opaque, va, NULL, &page))
		return -1;
	out->va = page.va;
	out->size = page.size;
	out->host = page.host;
	out->perm = VGPU_CORE_PERM_READ |
		    (page.perm & FW_MMU_WRITE ? VGPU_CORE_PERM_WRITE : 0) |
		    (page.perm & FW_MMU_ATOMIC ? VGPU_CORE_PERM_ATOMIC : 0);
	return 0;
}

/*
 * Translate @va for an access that needs @perm; on success *@host points
 * at @va and *@avail is the number of bytes to the end of its page.
 * @wc, if not NULL, caches the walk between calls.
 */
static int access_page(struct fw_ctx *ctx, uint64_t va, uint32_t perm,
		       struct fw_walk_cache *wc, uint8_t **host,
		       uint64_t *avail, uint64_t *fault_va)
{
	struct fw_mmu_page page;
	int ret = translate_replay(ctx, va, wc, &page);

	if (ret) {
		*fault_va = va;
		return VGPU_FAULT_MMU_UNMAPPED;
	}
	if ((page.perm & perm) != perm) {
		*fault_va = va;
		return VGPU_FAULT_MMU_PERMISSION;
	}
	*host = page.host + (va - page.va);
	*avail = page.size - (va - page.va);
	return 0;
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Copy between @buf and the device's [va, va + len), page by page. */
static int mem_transfer(struct fw_ctx *ctx, uint64_t va, uint8_t *buf,
			uint64_t len, bool to_device, uint64_t *fault_va)
{
	uint32_t perm = to_device ? FW_MMU_WRITE : FW_MMU_READ;
	uint64_t avail;
	uint8_t *host;
	int ret;

	while (len) {
		ret = access_page(ctx, va, perm, NULL, &host, &avail, fault_va);
		if (ret)
			return ret;
		avail = avail < len ? avail : len;
		if (to_device)
			memcpy(host, buf, avail);
		else
			memcpy(buf, host, avail);
		buf += avail;
		va += avail;
		len -= avail;
	}
	return 0;
}

int fw_mem_read(struct fw_ctx *ctx, uint64_t va, void *buf, uint64_t len,
		uint64_t *fault_va)
{
	return mem_transfer(ctx, va, buf, len, false, fault_va);
}

int fw_mem_write(struct fw_ctx *ctx, uint64_t va, const void *buf,
		 uint64_t len, uint64_t *fault_va)
{
	/* Only read from: mem_transfer() writes to the device. */
	return mem_transfer(ctx, va, (uint8_t *)buf, len, true, fault_va);
}

/*
 * The most a copy moves with one memmove().  glibc's memmove() uses
 * "rep movsb" for blocks of roughly 8 KiB to 512 KiB, which QEMU's TCG
 * (our CI guest) emulates several times slower than the vector loop it
 * uses for a page or less; moving a page at a time costs nothing on real
 * hardware and keeps the copy engine at memcpy() speed in the emulator.
 */
#define FW_COPY_BURST	VGPU_SMALL_PAGE_SIZE

/*
 * Each side's page is translated once, when the copy enters it, and kept
 * until the copy leaves it - the copy engine's one-entry TLB per side -
 * and each side walks PD3 -> PD1 once per 2 MiB (translate_cached()).
 * A fault stops the copy at the first byte of the page that faulted.
 */
/*
 * Count @bytes moved in fw_device.bytes_moved, the heartbeat's proof that a
 * long copy is progressing (heartbeat.c); batched, so that the two halves
 * of a big copy do not fight over the counter's cache line.  Returns 0.
 */
#define FW_PROGRESS_BYTES	(1u << 20)

static uint64_t report_progress(struct fw_ctx *ctx, uint64_t bytes)
{
	atomic_fetch_add_explicit(&ctx->dev->bytes_moved, bytes,
				  memory_order_relaxed);
	return 0;
}

static int copy_range(struct fw_ctx *ctx, uint64_t dst, uint64_t src,
		      uint64_t len, uint64_t *fault_va)
{
	struct fw_walk_cache src_wc = { .region = FW_NO_TABLE };
	struct fw_walk_cache dst_wc = { .region = FW_NO_TABLE };
	uint8_t *from = NULL, *to = NULL;
	uint64_t src_avail = 0, dst_avail = 0, n, moved = 0;
	int ret;

	while (len) {
		if (!src_avail) {
			ret = access_page(ctx, src, FW_MMU_READ, &src_wc,
					  &from, &src_avail, fault_va);
			if (ret)
				return ret;
		}
		if (!dst_avail) {
			ret = access_page(ctx, dst, FW_MMU_WRITE, &dst_wc,
					  &to, &dst_avail, fault_va);
			if (ret)
				return ret;
		}
		n = min3(len, src_avail, dst_avail);
		n = n < FW_COPY_BURST ? n : FW_COPY_BURST;
		memmove(to, from, n);
		moved += n;
		if (moved >= FW_PROGRESS_BYTES)
			moved = report_progress(ctx, moved);
		from += n;
		to += n;
		src += n;
		dst += n;
		src_avail -= n;
		dst_avail -= n;
		len -= n;
	}
	report_progress(ctx, moved);
	return 0;
}

/*
 * A copy engine has more than one DMA channel: a large copy is split in
 * two halves that move at once.  Here a channel is a host thread, so a big
 * copy keeps two CPUs busy instead of one - the application thread only
 * sleeps on the fence meanwhile.  Below this size the thread costs more
 * than it saves.
 */
#define FW_COPY_SPLIT_MIN	(4ull << 20)

struct copy_half {
	struct fw_ctx *ctx;
	uint64_t dst, src, len, fault_va;
	int ret;
};

static void *copy_half_thread(void *arg)
{
	struct copy_half *h = arg;

	h->ret = copy_range(h->ctx, h->dst, h->src, h->len, &h->fault_va);
	return NULL;
}

/*
 * Both halves run to their end, so a fault in the first half may leave the
 * second copied (as two DMA channels would); the fault reported is the
 * lowest one.
 */
int fw_mem_copy(struct fw_ctx *ctx, uint64_t dst, uint64_t src, uint64_t len,
		uint64_t *fault_va)
{
	bool overlap = dst < src + len && src < dst + len;
	struct copy_half h;
	uint64_t half;
	pthread_t t;
	int ret;

	if (len < FW_COPY_SPLIT_MIN || overlap)
		return copy_range(ctx, dst, src, len, fault_va);
	half = (len / 2) & ~(FW_COPY_BURST - 1);
	h = (struct copy_half){ .ctx = ctx, .dst = dst + half,
				.src = src + half, .len = len - half };
	if (pthread_create(&t, NULL, copy_half_thread, &h))
		return copy_range(ctx, dst, src, len, fault_va);
	ret = copy_range(ctx, dst, src, half, fault_va);
	pthread_join(t, NULL);
	if (!ret && h.ret) {
		*fault_va = h.fault_va;
		ret = h.ret;
	}
	return ret;
}

int fw_mem_fill(struct fw_ctx *ctx, uint64_t dst, uint32_t value,
		unsigned int elem_size, uint64_t count, uint64_t *fault_va)
{
	uint64_t len = count * elem_size, avail, i, moved = 0;
	uint8_t *to;
	int ret;

	/* dst is aligned to elem_size, so no element straddles two pages. */
	while (len) {
		ret = access_page(ctx, dst, FW_MMU_WRITE, NULL, &to, &avail,
				  fault_va);
		if (ret)
			return ret;
		avail = avail < len ? avail : len;
		if (elem_size == 1) {
			memset(to, (int)(value & 0xff), avail);
		} else if (elem_size == 2) {
			uint16_t v = (uint16_t)value;

			for (i = 0; i < avail; i += 2)
				memcpy(to + i, &v, 2);
		} else {
			for (i = 0; i < avail; i += 4)
				memcpy(to + i, &value, 4);
		}
		moved += avail;
		if (moved >= FW_PROGRESS_BYTES)
			moved = report_progress(ctx, moved);
		dst += avail;
		len -= avail;
	}
	report_progress(ctx, moved);
	return 0;
}
