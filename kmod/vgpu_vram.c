// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_vram.c - device memory ("VRAM")
 *
 * VRAM is an address range, 0 .. vram_size-1, handed out in 4 KiB pages by
 * a first-fit bitmap allocator.  A page of an allocated range gets a host
 * page behind it only when it is first touched (by the firmware, or by the
 * driver writing a page table); until then it reads as zeros.  So a large
 * VRAM, or a large allocation, costs nothing until used, and the pages go
 * back to the system when the range is freed.
 *
 * The firmware maps all of VRAM (VGPU_MMAP_FW_VRAM).  Its page faults are
 * served by vgpu_vram_fault() with PFN mappings, which hold no reference on
 * the page: so vgpu_vram_free() first removes the range from the bitmap,
 * then zaps the firmware's PTEs, and only then frees the pages.  The fault
 * handler looks the page up under the same lock, so it can never install a
 * PTE for a page that is about to be freed.
 */
#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

int vgpu_vram_init(struct vgpu_vram *vram, u64 size)
{
	mutex_init(&vram->lock);
	xa_init(&vram->pages);
	vram->npages = size >> PAGE_SHIFT;
	vram->used = 0;
	vram->bitmap = bitmap_zalloc(vram->npages, GFP_KERNEL);
	return vram->bitmap ? 0 : -ENOMEM;
}

void vgpu_vram_fini(struct vgpu_vram *vram)
{
	WARN_ON(vram->used);
	WARN_ON(!xa_empty(&vram->pages));
	xa_destroy(&vram->pages);
	bitmap_free(vram->bitmap);
}

/* Give back the pages of [first, first + npages): caller holds vram->lock. */
static void vgpu_vram_release_pages(struct vgpu_vram *vram,
				    unsigned long first, unsigned long npages)
{
	unsigned long i;

	for (i = first; i < first + npages; i++) {
		struct page *page = xa_erase(&vram->pages, i);

		if (page) {
			__free_page(page);
			vram->resident--;
		}
		cond_resched();
	}
}

/**
 * vgpu_vram_alloc() - allocate zeroed VRAM
 * @dev: the device.
 * @npages: number of 4 KiB pages.
 * @align_pages: alignment in pages, a power of two.
 * @offset: out: VRAM byte offset of the first page.
 *
 * Return: 0, or -ENOMEM when no free range is large enough.
 */
int vgpu_vram_alloc(struct vgpu_dev *dev, unsigned long npages,
		    unsigned long align_pages, u64 *offset)
{
	struct vgpu_vram *vram = &dev->vram;
	unsigned long first;

	if (!npages || npages > vram->npages)
		return vgpu_refuse(dev, -ENOMEM,
				   "VRAM: %lu pages, VRAM has %lu", npages,
				   vram->npages);

	mutex_lock(&vram->lock);
	first = bitmap_find_next_zero_area(vram->bitmap, vram->npages, 0,
					   npages, align_pages - 1);
	if (first >= vram->npages) {
		mutex_unlock(&vram->lock);
		return vgpu_refuse(dev, -ENOMEM,
				   "VRAM: no free run of %lu pages (%lu of %lu used)",
				   npages, READ_ONCE(vram->used), vram->npages);
	}
	bitmap_set(vram->bitmap, first, npages);
	vram->used += npages;
	mutex_unlock(&vram->lock);
	*offset = (u64)first << PAGE_SHIFT;
	return 0;
}

/**
 * vgpu_vram_free() - free VRAM allocated by vgpu_vram_alloc()
 * @dev: the device.
 * @offset: VRAM byte offset returned by vgpu_vram_alloc().
 * @npages: number of pages allocated.
 */
void vgpu_vram_free(struct vgpu_dev *dev, u64 offset, unsigned long npages)
{
	struct vgpu_vram *vram = &dev->vram;
	unsigned long first = offset >> PAGE_SHIFT;

	mutex_lock(&vram->lock);
	bitmap_clear(vram->bitmap, first, npages);
	vram->used -= npages;
	if (dev->fw_mapping)
		unmap_mapping_range(dev->fw_mapping,
				    vgpu_mmap_offset(VGPU_MMAP_FW_VRAM, 0) +
				    offset, (u64)npages << PAGE_SHIFT, 1);
	vgpu_vram_release_pages(vram, first, npages);
	mutex_unlock(&vram->lock);
}

/*
 * The page backing VRAM page @index, allocated (zeroed) on first use.
 * Caller holds vram->lock and checked that @index is allocated VRAM.
 */
static struct page *vgpu_vram_backing(struct vgpu_vram *vram,
				      unsigned long index)
{
	struct page *page = xa_load(&vram->pages, index);

	if (page)
		return page;
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!page)
		return NULL;
	if (xa_err(xa_store(&vram->pages, index, page, GFP_KERNEL))) {
		__free_page(page);
		return NULL;
	}
	vram->resident++;
	return page;
}

static bool vgpu_vram_allocated(struct vgpu_vram *vram, unsigned long index)
{
	return index < vram->npages && test_bit(index, vram->bitmap);
}

/**
 * vgpu_vram_write64() - store a u64 in VRAM (page-table updates)
 * @dev: the device.
 * @offset: 8-byte aligned VRAM offset inside an allocated range.
 * @val: the value.
 *
 * Return: 0, -ENOMEM if no backing page could be allocated, or -EFAULT if
 * @offset is not allocated (a driver bug).
 */
int vgpu_vram_write64(struct vgpu_dev *dev, u64 offset, u64 val)
{
	struct vgpu_vram *vram = &dev->vram;
	unsigned long index = offset >> PAGE_SHIFT;
	struct page *page;
	u64 *p;
	int ret = 0;

	mutex_lock(&vram->lock);
	if (WARN_ON_ONCE(!vgpu_vram_allocated(vram, index))) {
		ret = -EFAULT;
		goto out;
	}
	page = vgpu_vram_backing(vram, index);
	if (!page) {
		ret = -ENOMEM;
		goto out;
	}
	p = kmap_local_page(page);
	/*
	 * The firmware may be walking this table right now (load_entry() in
	 * firmware_sim/fw/mmu.c): one untorn store, so it sees the old entry
	 * or the new one.  No barrier orders it with the firmware: a new
	 * mapping is used only by work submitted after MAP returned (the
	 * doorbell's release/acquire pair orders it), and an entry taken
	 * away is followed by a TLB_FLUSH record, read under dev->lock.
	 */
	WRITE_ONCE(p[offset_in_page(offset) / sizeof(u64)], val);
	kunmap_local(p);
out:
	mutex_unlock(&vram->lock);
	return ret;
}

/**
 * vgpu_vram_read64() - load a u64 from VRAM
 * @dev: the device.
 * @offset: 8-byte aligned VRAM offset inside an allocated range.
 *
 * Return: the value; VRAM never touched reads as zero.
 */
u64 vgpu_vram_read64(struct vgpu_dev *dev, u64 offset)
{
	struct vgpu_vram *vram = &dev->vram;
	struct page *page;
	u64 *p, val = 0;

	mutex_lock(&vram->lock);
	page = xa_load(&vram->pages, offset >> PAGE_SHIFT);
	if (page) {
		p = kmap_local_page(page);
		val = READ_ONCE(p[offset_in_page(offset) / sizeof(u64)]);
		kunmap_local(p);
	}
	mutex_unlock(&vram->lock);
	return val;
}

/**
 * vgpu_vram_fault() - serve a fault in the firmware's VRAM mapping
 * @dev: the device.
 * @vmf: the fault.
 * @index: 4 KiB page index in VRAM.
 *
 * Return: VM_FAULT_NOPAGE with the page mapped (allocated now if it was
 * never touched), VM_FAULT_SIGBUS for VRAM that is not allocated (the
 * firmware touched memory nobody owns, or the mapping belongs to a
 * firmware that was detached as hung), or VM_FAULT_OOM.
 */
vm_fault_t vgpu_vram_fault(struct vgpu_dev *dev, struct vm_fault *vmf,
			   unsigned long index)
{
	struct vgpu_vram *vram = &dev->vram;
	struct page *page;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	mutex_lock(&vram->lock);
	/* A firmware detached as hung has no business here any more. */
	if (vmf->vma->vm_file == dev->fw_map_file &&
	    vgpu_vram_allocated(vram, index)) {
		page = vgpu_vram_backing(vram, index);
		ret = page ? vmf_insert_pfn(vmf->vma, vmf->address,
					    page_to_pfn(page)) : VM_FAULT_OOM;
	}
	mutex_unlock(&vram->lock);
	return ret;
}

/**
 * vgpu_vram_copy_page() - copy one 4 KiB page between VRAM and host memory
 * @dev: the device.
 * @offset: page-aligned VRAM offset inside an allocated range.
 * @host: the host page.
 * @to_vram: copy @host into VRAM, else VRAM into @host.
 *
 * The migration of managed memory (vgpu_managed.c) copies with the CPU:
 * VRAM is host memory here, so a copy engine would only add a round trip
 * through the firmware.  VRAM never touched reads as zeroes (and is not
 * made resident by reading it).
 *
 * Return: 0, -ENOMEM if no backing page could be allocated, or -EFAULT if
 * @offset is not allocated (a driver bug).
 */
int vgpu_vram_copy_page(struct vgpu_dev *dev, u64 offset, struct page *host,
			bool to_vram)
{
	struct vgpu_vram *vram = &dev->vram;
	unsigned long index = offset >> PAGE_SHIFT;
	struct page *page;
	int ret = 0;

	mutex_lock(&vram->lock);
	if (WARN_ON_ONCE(!vgpu_vram_allocated(vram, index))) {
		ret = -EFAULT;
		goto out;
	}
	page = to_vram ? vgpu_vram_backing(vram, index) :
			 xa_load(&vram->pages, index);
	if (to_vram && !page)
		ret = -ENOMEM;
	else if (to_vram)
		copy_highpage(page, host);
	else if (page)
		copy_highpage(host, page);
	else
		clear_highpage(host);
out:
	mutex_unlock(&vram->lock);
	return ret;
}
