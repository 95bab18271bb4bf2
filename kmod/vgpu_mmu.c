// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_mmu.c - GPU page tables and the MAP/UNMAP ioctls
 *
 * Each context owns a four-level page table in VRAM (format: vgpu_hw.h):
 * PD3 -> PD2 -> PD1 (dual entries) -> big-page (64 KiB, VRAM) or
 * small-page (4 KiB, GART) table.  The driver is the only writer; the
 * firmware walks the tables through its VRAM mapping.  Tables are created
 * on first use and kept until the context dies: an address space that was
 * used once is likely to be used again, and it keeps unmap simple.
 *
 * The context's mappings are also kept in a maple tree keyed by VA range,
 * which gives the overlap check (insertion of an overlapping range fails)
 * and the lookup for unmap.
 */
#include <linux/bits.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

/**
 * struct vgpu_pt_alloc - VRAM holding page tables of a context
 * @node: entry in vgpu_ctx.tables.
 * @offset: VRAM offset.
 * @npages: 4 KiB pages.
 */
struct vgpu_pt_alloc {
	struct list_head node;
	u64 offset;
	unsigned long npages;
};

#define VGPU_VA_LIMIT	BIT_ULL(VGPU_VA_BITS)

/* Page tables count against the VRAM of the context's user. */
static int vgpu_pt_alloc(struct vgpu_ctx *ctx, unsigned long npages,
			 u64 *offset)
{
	struct vgpu_pt_alloc *pt = kmalloc(sizeof(*pt), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!pt)
		return -ENOMEM;
	ret = vgpu_user_charge(ctx->user, VGPU_RES_VRAM, npages);
	if (ret) {
		kfree(pt);
		return ret;
	}
	ret = vgpu_vram_alloc(ctx->dev, npages, npages, &pt->offset);
	if (ret) {
		vgpu_user_uncharge(ctx->user, VGPU_RES_VRAM, npages);
		kfree(pt);
		return ret;
	}
	pt->npages = npages;
	list_add(&pt->node, &ctx->tables);
	*offset = pt->offset;
	return 0;
}

/*
 * The table a directory entry at VRAM offset @pde points to; with @create,
 * a missing table of @npages pages is allocated (zeroed: all invalid).
 * Returns 0 and sets *@table, -ENOENT (missing, !@create) or -ENOMEM.
 */
static int vgpu_pt_next(struct vgpu_ctx *ctx, u64 pde, unsigned long npages,
			bool create, u64 *table)
{
	u64 val = vgpu_vram_read64(ctx->dev, pde);
	int ret;

	if (val & VGPU_PDE_VALID) {
		*table = VGPU_PDE_ADDR(val);
		return 0;
	}
	if (!create)
		return -ENOENT;
	ret = vgpu_pt_alloc(ctx, npages, table);
	if (ret)
		return ret;
	return vgpu_vram_write64(ctx->dev, pde, *table | VGPU_PDE_VALID);
}

/* VRAM offset of the PTE for @va in a big-page (@big) or small-page table. */
static int vgpu_pte_addr(struct vgpu_ctx *ctx, u64 va, bool big, bool create,
			 u64 *pte)
{
	u64 pd2, pd1, pt;
	int ret;

	ret = vgpu_pt_next(ctx, ctx->pd3 + VGPU_PD3_INDEX(va) * 8, 1, create,
			   &pd2);
	if (ret)
		return ret;
	ret = vgpu_pt_next(ctx, pd2 + VGPU_PD2_INDEX(va) * 8,
			   VGPU_PD1_SIZE / VGPU_PT_SIZE, create, &pd1);
	if (ret)
		return ret;
	/* Dual PDE: the big-page table, then the small-page table. */
	ret = vgpu_pt_next(ctx, pd1 + VGPU_PD1_INDEX(va) * 16 + (big ? 0 : 8),
			   1, create, &pt);
	if (ret)
		return ret;
	*pte = pt + (big ? VGPU_BIG_INDEX(va) : VGPU_SMALL_INDEX(va)) * 8;
	return 0;
}

/* The root table of a new context; its lists are initialised already. */
int vgpu_mmu_init(struct vgpu_ctx *ctx)
{
	return vgpu_pt_alloc(ctx, 1, &ctx->pd3);
}

/* VRAM, and managed memory (which moves into VRAM), use big pages. */
static bool vgpu_kind_is_big(enum vgpu_bo_kind kind)
{
	return kind == VGPU_BO_VRAM || kind == VGPU_BO_MANAGED;
}

static bool vgpu_mapping_is_big(const struct vgpu_mapping *m)
{
	return vgpu_kind_is_big(m->bo->kind);
}

/* Invalidate the PTEs of the first @size bytes of @m. */
void vgpu_mmu_clear(struct vgpu_ctx *ctx, struct vgpu_mapping *m, u64 size)
{
	bool big = vgpu_mapping_is_big(m);
	u64 step = big ? VGPU_BIG_PAGE_SIZE : VGPU_SMALL_PAGE_SIZE;
	u64 done, pte;

	for (done = 0; done < size; done += step) {
		if (!vgpu_pte_addr(ctx, m->va + done, big, false, &pte))
			vgpu_vram_write64(ctx->dev, pte, 0);
		cond_resched();	/* a mapping may have millions of pages */
	}
}

/* The permission bits (with VALID) of the PTEs of @m. */
u64 vgpu_mmu_pte_perm(const struct vgpu_mapping *m)
{
	u64 pte = VGPU_PTE_VALID;

	if (!(m->flags & VGPU_MAP_READONLY)) {
		pte |= VGPU_PTE_WRITE;
		if (!(m->flags & VGPU_MAP_NO_ATOMIC))
			pte |= VGPU_PTE_ATOMIC;
	}
	return pte;
}

/**
 * vgpu_mmu_write_big_pte() - set the big-page PTE of a mapped address
 * @ctx: the context.
 * @va: a 64 KiB aligned address inside a mapping, whose tables exist.
 * @pte: the new entry (0: invalid).
 *
 * For managed memory (vgpu_managed.c), whose blocks move while mapped:
 * the tables were made when the range was mapped, so no allocation.
 *
 * Return: 0, or -ENOENT if a table is missing (a driver bug).
 */
int vgpu_mmu_write_big_pte(struct vgpu_ctx *ctx, u64 va, u64 pte)
{
	u64 addr;
	int ret = vgpu_pte_addr(ctx, va, true, false, &addr);

	if (WARN_ON_ONCE(ret))
		return ret;
	return vgpu_vram_write64(ctx->dev, addr, pte);
}

/**
 * vgpu_mmu_write_small_pte() - set a small-page PTE of a mapped address
 * @ctx: the context.
 * @va: a 4 KiB aligned address inside a mapping whose small-page table
 *	vgpu_mmu_make_small_tables() made.
 * @pte: the new entry (0: invalid).
 *
 * For managed memory advised accessed-by: its blocks in host pages are
 * mapped through the GART by small PTEs beside the (invalid) big one.
 *
 * Return: 0, or -ENOENT if the table is missing (a driver bug).
 */
int vgpu_mmu_write_small_pte(struct vgpu_ctx *ctx, u64 va, u64 pte)
{
	u64 addr;
	int ret = vgpu_pte_addr(ctx, va, false, false, &addr);

	if (WARN_ON_ONCE(ret))
		return ret;
	return vgpu_vram_write64(ctx->dev, addr, pte);
}

/**
 * vgpu_mmu_make_small_tables() - make the small-page tables of a range
 * @ctx: the context (its lock held).
 * @va: first byte.
 * @size: bytes.
 *
 * So that vgpu_mmu_write_small_pte() never allocates: it runs where a
 * migration runs, which may not.
 *
 * Return: 0, or a negative errno (VRAM for the tables exhausted).
 */
int vgpu_mmu_make_small_tables(struct vgpu_ctx *ctx, u64 va, u64 size)
{
	u64 end = va + size, pte;
	int ret;

	/* One table per 2 MiB region: its first byte, then each boundary. */
	for (; va < end; va = ALIGN(va + 1, 1ull << VGPU_PDE_SHIFT)) {
		ret = vgpu_pte_addr(ctx, va, false, true, &pte);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The PTE that maps byte @off of the mapping's object in @ctx: the object
 * of a peer device (a peer handle, vgpu_share.c) is named by a PEER PTE.
 */
static u64 vgpu_pte_value(const struct vgpu_ctx *ctx,
			  const struct vgpu_mapping *m, u64 off)
{
	u64 pte = vgpu_mmu_pte_perm(m);

	if (m->bo->kind == VGPU_BO_MANAGED)
		return vgpu_managed_pte(m, off);
	if (m->bo->kind == VGPU_BO_VRAM && m->bo->dev != ctx->dev)
		return pte | VGPU_PTE_APERTURE_PEER |
		       (u64)m->bo->dev->index << VGPU_PTE_PEER_SHIFT |
		       (m->bo->vram_offset + off);
	if (m->bo->kind == VGPU_BO_VRAM)
		return pte | VGPU_PTE_APERTURE_VRAM | (m->bo->vram_offset + off);
	return pte | VGPU_PTE_APERTURE_GART |
	       ((m->bo->gart_base + (off >> PAGE_SHIFT)) <<
		VGPU_PTE_FRAME_SHIFT);
}

/* Write every PTE of @m; on failure nothing stays written. */
int vgpu_mmu_fill(struct vgpu_ctx *ctx, struct vgpu_mapping *m)
{
	bool big = vgpu_mapping_is_big(m);
	u64 step = big ? VGPU_BIG_PAGE_SIZE : VGPU_SMALL_PAGE_SIZE;
	u64 done, pte;
	int ret;

	for (done = 0; done < m->size; done += step) {
		ret = vgpu_pte_addr(ctx, m->va + done, big, true, &pte);
		if (!ret)
			ret = vgpu_vram_write64(ctx->dev, pte,
						vgpu_pte_value(ctx, m, m->offset + done));
		if (ret) {
			vgpu_mmu_clear(ctx, m, done);
			return ret;
		}
		cond_resched();
	}
	return 0;
}

void vgpu_mmu_fini(struct vgpu_ctx *ctx)
{
	struct vgpu_pt_alloc *pt, *tmp;
	struct vgpu_mapping *m;
	unsigned long index = 0;

	mt_for_each(&ctx->mappings, m, index, ULONG_MAX) {
		if (m->bo->kind == VGPU_BO_MANAGED)
			vgpu_managed_detach(m);
		vgpu_bo_put(m->bo);
		kfree(m);
	}
	mtree_destroy(&ctx->mappings);
	list_for_each_entry_safe(pt, tmp, &ctx->tables, node) {
		vgpu_vram_free(ctx->dev, pt->offset, pt->npages);
		vgpu_user_uncharge(ctx->user, VGPU_RES_VRAM, pt->npages);
		kfree(pt);
	}
}

/* Validate a MAP request against its object; 0 or a negative errno. */
static int vgpu_map_check(const struct vgpu_map *args,
			  const struct vgpu_bo *bo)
{
	u64 align = vgpu_kind_is_big(bo->kind) ? VGPU_BIG_PAGE_SIZE :
						 VGPU_SMALL_PAGE_SIZE;

	if (!args->size || !IS_ALIGNED(args->size, align) ||
	    !IS_ALIGNED(args->va, align) || !IS_ALIGNED(args->offset, align))
		return vgpu_refuse(bo->dev, -EINVAL,
				   "MAP: size 0x%llx, va 0x%llx or offset 0x%llx zero or not %llu KiB aligned",
				   args->size, args->va, args->offset,
				   align >> 10);
	if (args->offset >= bo->size || args->size > bo->size - args->offset)
		return vgpu_refuse(bo->dev, -EINVAL,
				   "MAP: offset 0x%llx + size 0x%llx past the object's 0x%llx bytes",
				   args->offset, args->size, bo->size);
	/* The first 64 KiB stay unmapped so that NULL faults on the GPU. */
	if (args->va < VGPU_BIG_PAGE_SIZE || args->va >= VGPU_VA_LIMIT ||
	    args->size > VGPU_VA_LIMIT - args->va)
		return vgpu_refuse(bo->dev, -EINVAL,
				   "MAP: [va 0x%llx, +0x%llx) outside [64 KiB, 2^%u)",
				   args->va, args->size, VGPU_VA_BITS);
	if (bo->kind == VGPU_BO_USERPTR &&
	    (bo->flags & VGPU_HOST_REGISTER_READONLY) &&
	    !(args->flags & VGPU_MAP_READONLY))
		return vgpu_refuse(bo->dev, -EACCES,
				   "MAP: read-only registered memory mapped without VGPU_MAP_READONLY");
	return 0;
}

int vgpu_ioctl_map(struct vgpu_file *vf, void *data)
{
	struct vgpu_map *args = data;
	struct vgpu_mapping *m;
	struct vgpu_ctx *ctx;
	struct vgpu_bo *bo;
	int ret;

	if (args->flags & ~(VGPU_MAP_READONLY | VGPU_MAP_NO_ATOMIC) ||
	    args->pad)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "MAP: unknown flags 0x%x or pad 0x%x not zero",
				   args->flags &
				   ~(VGPU_MAP_READONLY | VGPU_MAP_NO_ATOMIC),
				   args->pad);
	ctx = vgpu_ctx_lookup(vf, args->ctx);
	if (!ctx)
		return vgpu_refuse(vf->dev, -ENOENT,
				   "MAP: ctx %u: no such context", args->ctx);
	bo = vgpu_bo_lookup(vf, args->handle);
	if (!bo) {
		ret = vgpu_refuse(vf->dev, -ENOENT,
				  "MAP: handle %u: no such memory object",
				  args->handle);
		goto out_ctx;
	}
	ret = vgpu_map_check(args, bo);
	if (ret)
		goto out_bo;
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m) {
		ret = -ENOMEM;
		goto out_bo;
	}
	m->va = args->va;
	m->size = args->size;
	m->bo = bo;
	m->offset = args->offset;
	m->flags = args->flags;
	m->ctx = ctx;
	INIT_LIST_HEAD(&m->managed_node);

	mutex_lock(&ctx->lock);
	ret = mtree_insert_range(&ctx->mappings, m->va, m->va + m->size - 1,
				 m, GFP_KERNEL_ACCOUNT);
	if (ret == -EEXIST)
		vgpu_refuse(vf->dev, ret,
			    "MAP: [va 0x%llx, +0x%llx) overlaps a mapping",
			    m->va, m->size);
	if (!ret) {
		ret = bo->kind == VGPU_BO_MANAGED ? vgpu_managed_map(ctx, m) :
						    vgpu_mmu_fill(ctx, m);
		if (ret)
			mtree_erase(&ctx->mappings, m->va);
	}
	mutex_unlock(&ctx->lock);
	if (ret) {
		kfree(m);
		goto out_bo;
	}
	/* The mapping keeps the object's reference. */
	vgpu_ctx_put(ctx);
	return 0;

out_bo:
	vgpu_bo_put(bo);
out_ctx:
	vgpu_ctx_put(ctx);
	return ret;
}

static void vgpu_mapping_release(struct vgpu_deferred *d)
{
	struct vgpu_mapping *m = container_of(d, struct vgpu_mapping, unmapped);

	vgpu_bo_put(m->bo);
	kfree(m);
}

int vgpu_ioctl_unmap(struct vgpu_file *vf, void *data)
{
	struct vgpu_unmap *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_mapping *m;
	struct vgpu_ctx *ctx;
	u64 seq;

	if (args->flags)
		return vgpu_refuse(dev, -EINVAL,
				   "UNMAP: flags 0x%x: none defined", args->flags);
	ctx = vgpu_ctx_lookup(vf, args->ctx);
	if (!ctx)
		return vgpu_refuse(dev, -ENOENT,
				   "UNMAP: ctx %u: no such context", args->ctx);

	mutex_lock(&ctx->lock);
	m = mtree_load(&ctx->mappings, args->va);
	if (!m || m->va != args->va) {
		mutex_unlock(&ctx->lock);
		vgpu_ctx_put(ctx);
		return vgpu_refuse(dev, -ENOENT,
				   "UNMAP: va 0x%llx: no mapping starts there",
				   args->va);
	}
	mtree_erase(&ctx->mappings, m->va);
	if (m->bo->kind == VGPU_BO_MANAGED)
		vgpu_managed_unmap(ctx, m);
	else
		vgpu_mmu_clear(ctx, m, m->size);
	/*
	 * Cached translations must go before the memory can be reused: the
	 * mapping keeps its object until the firmware acknowledged the flush.
	 */
	m->unmapped.release = vgpu_mapping_release;
	mutex_lock(&dev->lock);
	if (ctx->published)
		seq = vgpu_fw_post(dev, &ctx->flush_ev);
	else	/* destroyed meanwhile: the firmware drops it at CTX_DESTROY */
		seq = ctx->destroy_seq;
	vgpu_fw_defer(dev, &m->unmapped, seq);
	mutex_unlock(&dev->lock);
	mutex_unlock(&ctx->lock);
	vgpu_ctx_put(ctx);
	return 0;
}
