// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_managed.c - managed memory that migrates between host pages and VRAM
 *
 * A managed object is host pages plus, for each 64 KiB block, at most one
 * VRAM copy.  A block lives in exactly one place at a time:
 *
 *   HOST    the process may map its host pages (filled on fault); its
 *           big-page PTEs in every context are invalid, so a device
 *           access raises a replayable fault;
 *   DEVICE  its VRAM copy is mapped by a valid big-page PTE in every
 *           context that maps the object; the process's mappings of it
 *           are zapped, so a process access faults here.
 *
 * Device access to a HOST block (nvidia-uvm's model, simplified):
 *
 *   SM thread (vgpu-fw)              driver
 *   translate: PTE invalid
 *   FW_MMU_FAULT(ctx, va) ---------> find the mapping, lock the object
 *   (the warp, and its SM, stall)    allocate VRAM, zap the process's
 *                                    PTEs, copy 16 pages in, write the
 *                                    big PTE of every mapping
 *   walk again, replay <------------ return 0
 *
 * Process access to a DEVICE block (vm_ops->fault):
 *
 *   lock; clear the block's PTEs in every context; post TLB_FLUSH;
 *   unlock; wait for the firmware's ack of that record (no engine holds
 *   a translation of the block any more); lock; if no device fault made
 *   the block valid again meanwhile (its generation did not move), copy
 *   VRAM back, free it; map the host page.
 *
 * The handshake is the one UNMAP uses (the firmware acknowledges a
 * TLB_FLUSH only once every SM crossed a quantum boundary and every copy
 * engine finished its packet, firmware_sim/fw/device.c), with one rule
 * added: the driver never waits for the firmware while holding the
 * object's lock, and FW_MMU_FAULT never waits for the firmware at all.
 * An SM stalled in FW_MMU_FAULT is inside a quantum, so the firmware
 * cannot acknowledge anything until it returns: were FW_MMU_FAULT to wait
 * for an ack, or for a lock held across one, engine and driver would wait
 * for each other.  A device fault on a block whose eviction is waiting
 * simply makes the VRAM copy valid again; the eviction sees the block's
 * generation moved and starts over.
 *
 * Why 64 KiB blocks: VRAM is allocated and mapped in big pages of 64 KiB
 * (vgpu_hw.h), so a smaller unit would need small PTEs into VRAM that the
 * page-table format reserves for host memory; a larger one (2 MiB) would
 * move 32 times the data on a process fault that touches one byte.  64
 * KiB is also what nvidia-uvm migrates on a fault of a GPU with 64 KiB
 * big pages, and a grid streaming through an array faults once per 64 KiB
 * instead of once per 4 KiB.
 *
 * Accessed-by (VGPU_IOCTL_MANAGED_ADVISE): a HOST block may also be
 * mapped in every context by 16 small PTEs through the GART, so that the
 * device reaches it in place; a prefetch into VRAM clears them and waits
 * for the ack first, and they are written again once the block is back.
 *
 * Eviction: when a VRAM allocation made by a process (VRAM_ALLOC, a
 * prefetch) finds VRAM full, the blocks that moved into VRAM longest ago
 * go back to their host pages first (vgpu_managed_make_room(), a block
 * at a time, each by the process-fault path above), and the allocation
 * is tried again.  A device fault never evicts: it may not wait for the
 * firmware, and an eviction must.
 *
 * Lock order: vgpu_ctx.lock -> vgpu_managed.lock -> vgpu_dev.lock ->
 * vram.lock; vgpu_managed_stats.lru_lock is innermost.  Eviction takes
 * no lock but the victim's (and drops it while waiting).  The host pages
 * are kept while the block is in VRAM (their contents are then stale and
 * unmapped), so moving back never allocates.
 */
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

#define VGPU_BLOCK_SIZE		((u64)VGPU_MANAGED_BLOCK_SIZE)
#define VGPU_BLOCK_PAGES	(VGPU_MANAGED_BLOCK_SIZE >> PAGE_SHIFT)
#define VGPU_NO_VRAM		U64_MAX

struct vgpu_managed;

/**
 * struct vgpu_managed_block - one 64 KiB block of a managed object
 * @vram: VRAM offset of its copy while it lives in VRAM, else VGPU_NO_VRAM.
 * @gen: bumped whenever its PTEs are made valid, so that an eviction
 *	waiting for the firmware learns that a device fault took the block
 *	back meanwhile.
 * @lru: entry in vgpu_managed_stats.lru while it lives in VRAM.
 * @mg: its object's state (the eviction finds the block from @lru).
 * @accessed_by: advised accessed-by: mapped through the GART while in
 *	host pages (VGPU_IOCTL_MANAGED_ADVISE).
 * @small_mapped: its host pages are mapped by small PTEs in every
 *	context now.
 * @unmapping: prefetches waiting for the firmware to drop those small
 *	PTEs' translations (a device fault meanwhile maps them again).
 */
struct vgpu_managed_block {
	u64 vram;
	u32 gen;
	struct list_head lru;
	struct vgpu_managed *mg;
	bool accessed_by;
	bool small_mapped;
	u8 unmapping;
};

/**
 * struct vgpu_managed - the migration state of a managed object
 * @lock: protects everything below and the PTEs of its mappings.
 * @mappings: struct vgpu_mapping.managed_node of every context mapping.
 * @cpu_inode: the inode whose address space holds the process mappings
 *	(a reference is held from the first mmap on), or NULL.
 * @mmap_offset: the mmap offset of byte 0 (set at the first mmap).
 * @exempt: the creator had CAP_SYS_RESOURCE: its blocks may take its user
 *	past its share of VRAM.  Decided at creation, because a block moves
 *	on a device fault in the firmware's thread, whose capabilities say
 *	nothing about the user.
 * @bo: the object (no reference: the object owns this state).
 * @gart_bound: its pages hold GART entries from bo->gart_base on (the
 *	first accessed-by advice binds them, the release unbinds them).
 * @nblocks: number of blocks.
 * @blocks: each block's state.
 */
struct vgpu_managed {
	struct mutex lock; /* see above */
	struct vgpu_bo *bo;
	struct list_head mappings;
	struct inode *cpu_inode;
	u64 mmap_offset;
	bool exempt;
	bool gart_bound;
	unsigned long nblocks;
	struct vgpu_managed_block blocks[];
};

/* --- page tables and process mappings of one block ----------------------- */

/* The PTE for byte @off of @m's object: valid only while in VRAM. */
u64 vgpu_managed_pte(const struct vgpu_mapping *m, u64 off)
{
	u64 vram = m->bo->managed->blocks[off / VGPU_BLOCK_SIZE].vram;

	if (vram == VGPU_NO_VRAM)
		return 0;
	return vgpu_mmu_pte_perm(m) | VGPU_PTE_APERTURE_VRAM | vram;
}

/* Write block @b's PTE (valid or not, per its state) in every mapping. */
static void vgpu_managed_set_ptes(struct vgpu_bo *bo, unsigned long b,
				  bool valid)
{
	struct vgpu_mapping *m;
	u64 off = (u64)b * VGPU_BLOCK_SIZE;

	list_for_each_entry(m, &bo->managed->mappings, managed_node) {
		if (off < m->offset || off - m->offset >= m->size)
			continue;
		vgpu_mmu_write_big_pte(m->ctx, m->va + (off - m->offset),
				       valid ? vgpu_managed_pte(m, off) : 0);
	}
}

/* Write the 16 small PTEs of block @b in mapping @m: host pages, or 0. */
static void vgpu_managed_small_ptes(struct vgpu_mapping *m, unsigned long b,
				    bool valid)
{
	struct vgpu_bo *bo = m->bo;
	u64 off = (u64)b * VGPU_BLOCK_SIZE;
	unsigned long i, page;

	if (off < m->offset || off - m->offset >= m->size)
		return;
	for (i = 0; i < VGPU_BLOCK_PAGES; i++) {
		page = b * VGPU_BLOCK_PAGES + i;
		vgpu_mmu_write_small_pte(m->ctx, m->va + (off - m->offset) +
					 i * PAGE_SIZE,
					 valid ? vgpu_mmu_pte_perm(m) |
						 VGPU_PTE_APERTURE_GART |
						 ((bo->gart_base + page) <<
						  VGPU_PTE_FRAME_SHIFT) : 0);
	}
}

/* Map (or unmap) block @b's host pages through the GART everywhere. */
static void vgpu_managed_set_small(struct vgpu_bo *bo, unsigned long b,
				   bool valid)
{
	struct vgpu_mapping *m;

	list_for_each_entry(m, &bo->managed->mappings, managed_node)
		vgpu_managed_small_ptes(m, b, valid);
	bo->managed->blocks[b].small_mapped = valid;
}

/* Take block @b away from the process: it faults on its next access. */
static void vgpu_managed_zap(struct vgpu_managed *mg, unsigned long b)
{
	if (mg->cpu_inode)
		unmap_mapping_range(mg->cpu_inode->i_mapping,
				    mg->mmap_offset + b * VGPU_BLOCK_SIZE,
				    VGPU_BLOCK_SIZE, 1);
}

/**
 * struct vgpu_managed_wait - waiting for the firmware to acknowledge
 * @d: released by the ack of its record (or at once without firmware).
 * @done: completed then.
 */
struct vgpu_managed_wait {
	struct vgpu_deferred d;
	struct completion done;
};

static void vgpu_managed_acked(struct vgpu_deferred *d)
{
	complete(&container_of(d, struct vgpu_managed_wait, d)->done);
}

/*
 * Post a TLB_FLUSH for every context mapping @bo, and arm @w to complete
 * once the firmware acknowledged it.  The flush is posted after the PTEs
 * were cleared, under the object's lock: the ack of the newest record
 * covers every earlier one (the firmware acknowledges in order), so every
 * PTE of the object cleared before is covered too.
 */
static void vgpu_managed_flush(struct vgpu_bo *bo, struct vgpu_managed_wait *w)
{
	struct vgpu_dev *dev = bo->dev;
	struct vgpu_mapping *m;

	init_completion(&w->done);
	w->d.release = vgpu_managed_acked;
	mutex_lock(&dev->lock);
	list_for_each_entry(m, &bo->managed->mappings, managed_node)
		if (m->ctx->published)
			vgpu_fw_post(dev, &m->ctx->flush_ev);
	vgpu_fw_defer(dev, &w->d, dev->post_seq);
	mutex_unlock(&dev->lock);
}

/* --- migration ----------------------------------------------------------- */

/*
 * Charge a block's VRAM to the object's user: the share is checked
 * against the creator's capability, not the caller's (see @exempt).
 */
static int vgpu_managed_charge(struct vgpu_bo *bo)
{
	struct vgpu_user *u = bo->user;
	int ret = vgpu_user_charge(u, VGPU_RES_VRAM, VGPU_BLOCK_PAGES);

	if (ret || bo->managed->exempt)
		return ret;
	if (atomic_long_read(&u->used[VGPU_RES_VRAM]) >
	    vgpu_user_limit(bo->dev, VGPU_RES_VRAM)) {
		vgpu_user_uncharge(u, VGPU_RES_VRAM, VGPU_BLOCK_PAGES);
		return vgpu_refuse(bo->dev, -EDQUOT,
				   "managed: uid %u: a block more would pass its share of VRAM",
				   u->uid);
	}
	return 0;
}

/*
 * Before block @b's host pages are copied into VRAM, no engine may still
 * write them through a small PTE: clear those, and wait for the firmware
 * to drop its translations (the object's lock is dropped meanwhile).  A
 * device fault in that window maps them again (it may not wait), and the
 * clearing starts over.
 */
static void vgpu_managed_unmap_small(struct vgpu_bo *bo, unsigned long b)
{
	struct vgpu_managed *mg = bo->managed;
	struct vgpu_managed_block *blk = &mg->blocks[b];
	struct vgpu_managed_wait w;
	u32 gen;

	while (blk->small_mapped && blk->vram == VGPU_NO_VRAM) {
		gen = blk->gen;
		vgpu_managed_set_small(bo, b, false);
		blk->unmapping++;
		vgpu_managed_flush(bo, &w);
		mutex_unlock(&mg->lock);
		wait_for_completion(&w.done);
		mutex_lock(&mg->lock);
		blk->unmapping--;
		if (blk->gen == gen)
			break;
	}
}

/*
 * Make block @b live in VRAM and map it in every context; the object's
 * lock is held.  A device fault (!@may_wait) never waits for the firmware
 * (see the top comment): on a block advised accessed-by (or one whose
 * small PTEs are still valid, or being cleared by a prefetch) it maps the
 * host pages through the GART instead of moving them.  A prefetch (@may_wait) first takes the
 * small PTEs away, dropping the lock while the firmware acknowledges.
 */
static int vgpu_managed_to_device(struct vgpu_bo *bo, unsigned long b,
				  bool may_wait)
{
	struct vgpu_managed_block *blk = &bo->managed->blocks[b];
	struct vgpu_dev *dev = bo->dev;
	unsigned long i;
	u64 vram;
	int ret;

	if (!may_wait && blk->vram == VGPU_NO_VRAM && bo->managed->gart_bound &&
	    (blk->accessed_by || blk->unmapping || blk->small_mapped)) {
		blk->gen++;
		vgpu_managed_set_small(bo, b, true);
		return 0;
	}
	if (may_wait)
		vgpu_managed_unmap_small(bo, b);
	if (blk->vram == VGPU_NO_VRAM) {
		ret = vgpu_managed_charge(bo);
		if (ret)
			return ret;
		ret = vgpu_vram_alloc(dev, VGPU_BLOCK_PAGES, VGPU_BLOCK_PAGES,
				      &vram);
		if (ret)
			goto err_uncharge;
		/* From now on the process must not change the host copy. */
		vgpu_managed_zap(bo->managed, b);
		for (i = 0; i < VGPU_BLOCK_PAGES; i++) {
			ret = vgpu_vram_copy_page(dev, vram + i * PAGE_SIZE,
						  bo->pages[b * VGPU_BLOCK_PAGES + i],
						  true);
			if (ret)
				goto err_free;
		}
		blk->vram = vram;
		atomic64_inc(&dev->managed.to_device);
		atomic64_inc(&dev->managed.resident);
		/* The newest migration goes last: evicted last. */
		spin_lock(&dev->managed.lru_lock);
		list_add_tail(&blk->lru, &dev->managed.lru);
		spin_unlock(&dev->managed.lru_lock);
	}
	blk->gen++;
	vgpu_managed_set_ptes(bo, b, true);
	return 0;

err_free:
	vgpu_vram_free(dev, vram, VGPU_BLOCK_PAGES);
err_uncharge:
	vgpu_user_uncharge(bo->user, VGPU_RES_VRAM, VGPU_BLOCK_PAGES);
	return ret;
}

/*
 * Make block @b live in host pages again; the object's lock is held, and
 * dropped while the firmware drops its translations.  Returns whether
 * the block moved.
 */
static bool vgpu_managed_to_host(struct vgpu_bo *bo, unsigned long b)
{
	struct vgpu_managed *mg = bo->managed;
	struct vgpu_managed_block *blk = &mg->blocks[b];
	struct vgpu_dev *dev = bo->dev;
	struct vgpu_managed_wait w;
	unsigned long i;
	u32 gen;

	for (;;) {
		if (blk->vram == VGPU_NO_VRAM)
			return false;
		gen = blk->gen;
		vgpu_managed_set_ptes(bo, b, false);
		vgpu_managed_flush(bo, &w);
		mutex_unlock(&mg->lock);
		wait_for_completion(&w.done);
		mutex_lock(&mg->lock);
		if (blk->vram == VGPU_NO_VRAM)
			return false;	/* another eviction finished it */
		if (blk->gen == gen)
			break;		/* no device fault mapped it again */
	}
	for (i = 0; i < VGPU_BLOCK_PAGES; i++)
		vgpu_vram_copy_page(dev, blk->vram + i * PAGE_SIZE,
				    bo->pages[b * VGPU_BLOCK_PAGES + i], false);
	spin_lock(&dev->managed.lru_lock);
	list_del_init(&blk->lru);
	spin_unlock(&dev->managed.lru_lock);
	vgpu_vram_free(dev, blk->vram, VGPU_BLOCK_PAGES);
	vgpu_user_uncharge(bo->user, VGPU_RES_VRAM, VGPU_BLOCK_PAGES);
	blk->vram = VGPU_NO_VRAM;
	atomic64_inc(&dev->managed.to_host);
	atomic64_dec(&dev->managed.resident);
	/* Accessed-by: the device keeps reaching it, now in host pages. */
	if (blk->accessed_by && mg->gart_bound)
		vgpu_managed_set_small(bo, b, true);
	return true;
}

/* --- eviction under VRAM pressure --------------------------------------- */

void vgpu_managed_dev_init(struct vgpu_dev *dev)
{
	spin_lock_init(&dev->managed.lru_lock);
	INIT_LIST_HEAD(&dev->managed.lru);
}

/**
 * vgpu_managed_make_room() - evict the oldest managed block in VRAM
 * @dev: the device whose VRAM is full.
 *
 * Moves the block that migrated into VRAM longest ago back to its host
 * pages (the eviction waits for the firmware to drop its translations,
 * as a process fault does), so that an allocation that found VRAM full
 * can be tried again.  The caller holds no lock of the driver's: it may
 * sleep until the firmware acknowledges.  Its next device access faults
 * the block in again, like any block in host pages.
 *
 * Return: true if a block left VRAM (or the process or another eviction
 * took it meanwhile), false if no managed block is left to evict.
 */
bool vgpu_managed_make_room(struct vgpu_dev *dev)
{
	struct vgpu_managed_block *blk;
	struct vgpu_managed *mg = NULL;
	struct vgpu_bo *bo = NULL;

	spin_lock(&dev->managed.lru_lock);
	list_for_each_entry(blk, &dev->managed.lru, lru) {
		/* An object whose last reference went frees its own. */
		if (kref_get_unless_zero(&blk->mg->bo->ref)) {
			mg = blk->mg;
			bo = mg->bo;
			break;
		}
	}
	spin_unlock(&dev->managed.lru_lock);
	if (!bo)
		return false;
	mutex_lock(&mg->lock);
	/* Else the process or another eviction took it meanwhile: room. */
	if (vgpu_managed_to_host(bo, blk - mg->blocks))
		atomic64_inc(&dev->managed.evictions);
	mutex_unlock(&mg->lock);
	vgpu_bo_put(bo);
	return true;
}

/* --- contexts mapping the object (vgpu_mmu.c calls these) ---------------- */

/* MAP of a managed object: ctx->lock held. */
int vgpu_managed_map(struct vgpu_ctx *ctx, struct vgpu_mapping *m)
{
	struct vgpu_managed *mg = m->bo->managed;
	int ret;

	unsigned long b;

	/*
	 * Fill and list at once: a migration sees all PTEs or none.  The
	 * small-page tables are made now too, so that accessed-by advice
	 * (now or later) writes small PTEs without allocating.
	 */
	mutex_lock(&mg->lock);
	ret = vgpu_mmu_fill(ctx, m);
	if (!ret) {
		ret = vgpu_mmu_make_small_tables(ctx, m->va, m->size);
		if (ret)
			vgpu_mmu_clear(ctx, m, m->size);
	}
	if (!ret) {
		list_add(&m->managed_node, &mg->mappings);
		for (b = 0; b < mg->nblocks; b++)
			if (mg->blocks[b].small_mapped)
				vgpu_managed_small_ptes(m, b, true);
	}
	mutex_unlock(&mg->lock);
	return ret;
}

/*
 * UNMAP of a managed object: ctx->lock held.  The PTEs are cleared under
 * the object's lock, so an eviction that follows posts its flush after
 * them and cannot free VRAM this mapping still translates to.
 */
void vgpu_managed_unmap(struct vgpu_ctx *ctx, struct vgpu_mapping *m)
{
	struct vgpu_managed *mg = m->bo->managed;

	unsigned long b;

	mutex_lock(&mg->lock);
	list_del_init(&m->managed_node);
	vgpu_mmu_clear(ctx, m, m->size);
	for (b = 0; b < mg->nblocks; b++)
		if (mg->blocks[b].small_mapped)
			vgpu_managed_small_ptes(m, b, false);
	mutex_unlock(&mg->lock);
}

/* The context is gone (its tables are freed next): forget the mapping. */
void vgpu_managed_detach(struct vgpu_mapping *m)
{
	struct vgpu_managed *mg = m->bo->managed;

	mutex_lock(&mg->lock);
	list_del_init(&m->managed_node);
	mutex_unlock(&mg->lock);
}

/* --- the process's view -------------------------------------------------- */

static void vgpu_managed_vm_open(struct vm_area_struct *vma)
{
	vgpu_bo_get(vma->vm_private_data);
}

static void vgpu_managed_vm_close(struct vm_area_struct *vma)
{
	vgpu_bo_put(vma->vm_private_data);
}

static vm_fault_t vgpu_managed_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vgpu_bo *bo = vma->vm_private_data;
	struct vgpu_managed *mg = bo->managed;
	unsigned long index = ((((u64)vma->vm_pgoff << PAGE_SHIFT) &
				VGPU_MMAP_OFF_MASK) >> PAGE_SHIFT) +
			      ((vmf->address - vma->vm_start) >> PAGE_SHIFT);
	vm_fault_t ret;

	if (index >= bo->npages)
		return VM_FAULT_SIGBUS;
	mutex_lock(&mg->lock);
	if (vgpu_managed_to_host(bo, index / VGPU_BLOCK_PAGES))
		atomic64_inc(&bo->dev->managed.cpu_faults);
	ret = vmf_insert_pfn(vma, vmf->address, page_to_pfn(bo->pages[index]));
	mutex_unlock(&mg->lock);
	return ret;
}

static const struct vm_operations_struct vgpu_managed_vm_ops = {
	.open = vgpu_managed_vm_open,
	.close = vgpu_managed_vm_close,
	.fault = vgpu_managed_vm_fault,
};

/**
 * vgpu_managed_mmap() - map a managed object in the process
 * @bo: the object, whose reference moves to the mapping on success.
 * @vma: the new mapping (checked: MAP_SHARED, flags set by vgpu_mmap()).
 * @first: index of the object's page at the start of @vma.
 *
 * A PFN mapping filled on fault, so that the driver can take a block away
 * (unmap_mapping_range()) when it moves to VRAM, and the next access
 * faults here and moves it back.
 *
 * Return: 0, or -EINVAL (consuming the reference) for a range past the
 * object.
 */
int vgpu_managed_mmap(struct vgpu_bo *bo, struct vm_area_struct *vma,
		      unsigned long first)
{
	struct vgpu_managed *mg = bo->managed;
	struct inode *inode = file_inode(vma->vm_file);

	if (first >= bo->npages || vma_pages(vma) > bo->npages - first) {
		vgpu_bo_put(bo);
		return vgpu_refuse(bo->dev, -EINVAL,
				   "mmap: pages [%lu, +%lu) past the managed object's %lu",
				   first, vma_pages(vma), bo->npages);
	}
	mutex_lock(&mg->lock);
	if (!mg->cpu_inode) {
		/* Every mapping comes through the owner's file: one inode. */
		ihold(inode);
		mg->cpu_inode = inode;
		mg->mmap_offset = ((u64)vma->vm_pgoff << PAGE_SHIFT) &
				  ~VGPU_MMAP_OFF_MASK;
	}
	mutex_unlock(&mg->lock);
#ifdef VGPU_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, VM_PFNMAP);
#else
	vma->vm_flags |= VM_PFNMAP;
#endif
	vma->vm_private_data = bo;
	vma->vm_ops = &vgpu_managed_vm_ops;
	return 0;
}

/* --- the object ---------------------------------------------------------- */

/* Free what a managed object holds; the last reference is gone. */
void vgpu_managed_release(struct vgpu_bo *bo)
{
	struct vgpu_managed *mg = bo->managed;
	unsigned long i;

	if (mg) {
		/* No mapping is left, and each waited for its flush's ack. */
		for (i = 0; i < mg->nblocks; i++) {
			if (mg->blocks[i].vram == VGPU_NO_VRAM)
				continue;
			spin_lock(&bo->dev->managed.lru_lock);
			list_del(&mg->blocks[i].lru);
			spin_unlock(&bo->dev->managed.lru_lock);
			vgpu_vram_free(bo->dev, mg->blocks[i].vram,
				       VGPU_BLOCK_PAGES);
			vgpu_user_uncharge(bo->user, VGPU_RES_VRAM,
					   VGPU_BLOCK_PAGES);
			atomic64_dec(&bo->dev->managed.resident);
		}
		/* Every mapping's small PTEs went with it (unmap, ctx). */
		if (mg->gart_bound)
			vgpu_gart_unbind(bo->dev, bo->gart_base, bo->npages);
		iput(mg->cpu_inode);
		mutex_destroy(&mg->lock);
		kvfree(mg);
	}
	for (i = 0; bo->pages && i < bo->npages; i++)
		if (bo->pages[i])
			__free_page(bo->pages[i]);
}

int vgpu_ioctl_managed_alloc(struct vgpu_file *vf, void *data)
{
	struct vgpu_managed_alloc *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_managed *mg;
	struct vgpu_bo *bo;
	unsigned long i, nblocks;
	int ret;

	if (args->flags)
		return vgpu_refuse(dev, -EINVAL,
				   "MANAGED_ALLOC: flags 0x%x: none defined",
				   args->flags);
	if (!args->size)
		return vgpu_refuse(dev, -EINVAL, "MANAGED_ALLOC: size 0");
	/* Its pages are counted like pinned memory: at most the GART. */
	if (args->size > ((u64)dev->gart.nentries << PAGE_SHIFT))
		return vgpu_refuse(dev, -ENOSPC,
				   "MANAGED_ALLOC: size %llu larger than the GART aperture",
				   args->size);
	nblocks = DIV_ROUND_UP(args->size, VGPU_BLOCK_SIZE);

	bo = vgpu_bo_new(dev, VGPU_BO_MANAGED, (u64)nblocks * VGPU_BLOCK_SIZE);
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	/* vgpu_bo_release() takes them off again, whatever failed below. */
	atomic_long_add(bo->npages, &dev->pinned_pages);
	mg = kvzalloc(struct_size(mg, blocks, nblocks), GFP_KERNEL_ACCOUNT);
	bo->pages = kvcalloc(bo->npages, sizeof(*bo->pages),
			     GFP_KERNEL_ACCOUNT);
	if (!mg || !bo->pages) {
		kvfree(mg);
		ret = -ENOMEM;
		goto out;
	}
	mutex_init(&mg->lock);
	INIT_LIST_HEAD(&mg->mappings);
	mg->bo = bo;
	mg->nblocks = nblocks;
	mg->exempt = capable(CAP_SYS_RESOURCE);
	for (i = 0; i < nblocks; i++) {
		mg->blocks[i].vram = VGPU_NO_VRAM;
		INIT_LIST_HEAD(&mg->blocks[i].lru);
		mg->blocks[i].mg = mg;
	}
	bo->managed = mg;
	for (i = 0; i < bo->npages; i++) {
		bo->pages[i] = alloc_page(VGPU_GFP_USER_PAGES);
		if (!bo->pages[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = vgpu_bo_publish(vf, bo, &args->handle);
	if (!ret) {
		args->mmap_offset = vgpu_mmap_offset(VGPU_MMAP_MANAGED,
						     args->handle);
		args->alloc_size = bo->size;
	}
out:
	vgpu_bo_put(bo);
	return ret;
}

/* The managed object @handle of @vf with a reference, or an ERR_PTR(). */
static struct vgpu_bo *vgpu_managed_lookup(struct vgpu_file *vf, u32 handle,
					   const char *ioctl)
{
	struct vgpu_bo *bo = vgpu_bo_lookup(vf, handle);

	if (!bo)
		return ERR_PTR(vgpu_refuse(vf->dev, -ENOENT,
					   "%s: handle %u: no such memory object",
					   ioctl, handle));
	if (bo->kind != VGPU_BO_MANAGED) {
		vgpu_bo_put(bo);
		return ERR_PTR(vgpu_refuse(vf->dev, -EINVAL,
					   "%s: handle %u is not managed memory",
					   ioctl, handle));
	}
	return bo;
}

int vgpu_ioctl_managed_migrate(struct vgpu_file *vf, void *data)
{
	struct vgpu_managed_migrate *args = data;
	struct vgpu_dev *dev = vf->dev;
	unsigned long b, last;
	struct vgpu_bo *bo;
	int ret = 0;

	if (args->flags || args->pad)
		return vgpu_refuse(dev, -EINVAL,
				   "MANAGED_MIGRATE: flags 0x%x or pad 0x%x not zero",
				   args->flags, args->pad);
	if (args->target != VGPU_MANAGED_LOC_HOST &&
	    args->target != VGPU_MANAGED_LOC_DEVICE)
		return vgpu_refuse(dev, -EINVAL,
				   "MANAGED_MIGRATE: target %u is neither host (0) nor device (1)",
				   args->target);
	bo = vgpu_managed_lookup(vf, args->handle, "MANAGED_MIGRATE");
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	if (!args->size || args->offset >= bo->size ||
	    args->size > bo->size - args->offset) {
		ret = vgpu_refuse(dev, -EINVAL,
				  "MANAGED_MIGRATE: [0x%llx, +0x%llx) empty or past the object's 0x%llx bytes",
				  args->offset, args->size, bo->size);
		goto out;
	}
	atomic64_inc(&dev->managed.prefetches);
	last = (args->offset + args->size - 1) / VGPU_BLOCK_SIZE;
	for (b = args->offset / VGPU_BLOCK_SIZE; b <= last && !ret; b++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		mutex_lock(&bo->managed->lock);
		if (args->target == VGPU_MANAGED_LOC_DEVICE)
			ret = vgpu_managed_to_device(bo, b, true);
		else
			vgpu_managed_to_host(bo, b);
		mutex_unlock(&bo->managed->lock);
		/* VRAM full: evict the oldest block, this one tries again. */
		if (ret == -ENOMEM && vgpu_managed_make_room(dev)) {
			ret = 0;
			b--;
		}
		cond_resched();
	}
out:
	vgpu_bo_put(bo);
	return ret;
}

int vgpu_ioctl_managed_query(struct vgpu_file *vf, void *data)
{
	struct vgpu_managed_query *args = data;
	struct vgpu_bo *bo;
	int ret = 0;

	if (args->flags || args->pad)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "MANAGED_QUERY: flags 0x%x or pad 0x%x not zero",
				   args->flags, args->pad);
	bo = vgpu_managed_lookup(vf, args->handle, "MANAGED_QUERY");
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	if (args->offset >= bo->size) {
		ret = vgpu_refuse(vf->dev, -EINVAL,
				  "MANAGED_QUERY: offset 0x%llx past the object's 0x%llx bytes",
				  args->offset, bo->size);
	} else {
		mutex_lock(&bo->managed->lock);
		args->location =
			bo->managed->blocks[args->offset / VGPU_BLOCK_SIZE].vram ==
			VGPU_NO_VRAM ? VGPU_MANAGED_LOC_HOST :
				       VGPU_MANAGED_LOC_DEVICE;
		mutex_unlock(&bo->managed->lock);
	}
	vgpu_bo_put(bo);
	return ret;
}

int vgpu_ioctl_managed_advise(struct vgpu_file *vf, void *data)
{
	struct vgpu_managed_advise *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_managed *mg;
	unsigned long b, last;
	struct vgpu_bo *bo;
	bool set;
	int ret = 0;

	if (args->flags || args->pad)
		return vgpu_refuse(dev, -EINVAL,
				   "MANAGED_ADVISE: flags 0x%x or pad 0x%x not zero",
				   args->flags, args->pad);
	if (args->advice != VGPU_MANAGED_ADVISE_SET_ACCESSED_BY &&
	    args->advice != VGPU_MANAGED_ADVISE_UNSET_ACCESSED_BY)
		return vgpu_refuse(dev, -EINVAL,
				   "MANAGED_ADVISE: advice %u unknown",
				   args->advice);
	set = args->advice == VGPU_MANAGED_ADVISE_SET_ACCESSED_BY;
	bo = vgpu_managed_lookup(vf, args->handle, "MANAGED_ADVISE");
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	mg = bo->managed;
	if (!args->size || args->offset >= bo->size ||
	    args->size > bo->size - args->offset) {
		ret = vgpu_refuse(dev, -EINVAL,
				  "MANAGED_ADVISE: [0x%llx, +0x%llx) empty or past the object's 0x%llx bytes",
				  args->offset, args->size, bo->size);
		goto out;
	}
	mutex_lock(&mg->lock);
	/* The device reaches host pages through the GART only. */
	if (set && !mg->gart_bound) {
		ret = vgpu_gart_bind(dev, bo->pages, bo->npages,
				     &bo->gart_base);
		mg->gart_bound = !ret;
	}
	last = (args->offset + args->size - 1) / VGPU_BLOCK_SIZE;
	for (b = args->offset / VGPU_BLOCK_SIZE; b <= last && !ret; b++) {
		mg->blocks[b].accessed_by = set;
		/* Mapped now if in host pages; else once it is back. */
		if (set && mg->blocks[b].vram == VGPU_NO_VRAM &&
		    !mg->blocks[b].small_mapped) {
			mg->blocks[b].gen++;
			vgpu_managed_set_small(bo, b, true);
		}
	}
	mutex_unlock(&mg->lock);
out:
	vgpu_bo_put(bo);
	return ret;
}

int vgpu_ioctl_fw_mmu_fault(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_mmu_fault *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_bo *bo = NULL;
	struct vgpu_mapping *m;
	struct vgpu_ctx *ctx;
	u64 off = 0;
	int ret;

	if (!READ_ONCE(vf->is_fw))
		return vgpu_refuse(dev, -EPERM,
				   "FW_MMU_FAULT: not the firmware's file");
	if (args->flags)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_MMU_FAULT: flags 0x%x: none defined",
				   args->flags);
	mutex_lock(&dev->lock);
	ctx = vgpu_fw_is_current(vf) ? xa_load(&dev->ctxs, args->ctx_id) : NULL;
	if (ctx)
		kref_get(&ctx->ref);
	mutex_unlock(&dev->lock);
	if (!ctx)
		return vgpu_refuse(dev, -ENOENT,
				   "FW_MMU_FAULT: ctx id %u: no such context, or this firmware was detached",
				   args->ctx_id);
	mutex_lock(&ctx->lock);
	m = mtree_load(&ctx->mappings, args->va);
	if (m && m->bo->kind == VGPU_BO_MANAGED) {
		bo = m->bo;
		vgpu_bo_get(bo);
		off = m->offset + (args->va - m->va);
	}
	mutex_unlock(&ctx->lock);
	vgpu_ctx_put(ctx);
	if (!bo)
		return vgpu_refuse(dev, -EFAULT,
				   "FW_MMU_FAULT: ctx %u va 0x%llx: not managed memory",
				   args->ctx_id, args->va);
	atomic64_inc(&dev->managed.gpu_faults);
	mutex_lock(&bo->managed->lock);
	ret = vgpu_managed_to_device(bo, off / VGPU_BLOCK_SIZE, false);
	mutex_unlock(&bo->managed->lock);
	vgpu_bo_put(bo);
	return ret;
}

/* --- sysfs: /sys/class/misc/vgpuN/managed/ ------------------------------- */

static struct vgpu_managed_stats *vgpu_managed_stats(struct device *d)
{
	struct miscdevice *misc = dev_get_drvdata(d);

	return &container_of(misc, struct vgpu_dev, misc)->managed;
}

#define VGPU_MANAGED_ATTR(_name, _expr)					\
static ssize_t _name##_show(struct device *d,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct vgpu_managed_stats *s = vgpu_managed_stats(d);		\
									\
	return sysfs_emit(buf, "%lld\n", (long long)(_expr));		\
}									\
static DEVICE_ATTR_RO(_name)

VGPU_MANAGED_ATTR(gpu_faults, atomic64_read(&s->gpu_faults));
VGPU_MANAGED_ATTR(cpu_faults, atomic64_read(&s->cpu_faults));
VGPU_MANAGED_ATTR(prefetches, atomic64_read(&s->prefetches));
VGPU_MANAGED_ATTR(to_device, atomic64_read(&s->to_device));
VGPU_MANAGED_ATTR(to_host, atomic64_read(&s->to_host));
VGPU_MANAGED_ATTR(to_device_bytes,
		  atomic64_read(&s->to_device) * VGPU_BLOCK_SIZE);
VGPU_MANAGED_ATTR(to_host_bytes, atomic64_read(&s->to_host) * VGPU_BLOCK_SIZE);
VGPU_MANAGED_ATTR(resident_bytes,
		  atomic64_read(&s->resident) * VGPU_BLOCK_SIZE);
VGPU_MANAGED_ATTR(evictions, atomic64_read(&s->evictions));
VGPU_MANAGED_ATTR(evicted_bytes,
		  atomic64_read(&s->evictions) * VGPU_BLOCK_SIZE);

static struct attribute *vgpu_managed_attrs[] = {
	&dev_attr_gpu_faults.attr,
	&dev_attr_cpu_faults.attr,
	&dev_attr_prefetches.attr,
	&dev_attr_to_device.attr,
	&dev_attr_to_host.attr,
	&dev_attr_to_device_bytes.attr,
	&dev_attr_to_host_bytes.attr,
	&dev_attr_resident_bytes.attr,
	&dev_attr_evictions.attr,
	&dev_attr_evicted_bytes.attr,
	NULL,
};

const struct attribute_group vgpu_managed_sysfs_group = {
	.name = "managed",
	.attrs = vgpu_managed_attrs,
};
