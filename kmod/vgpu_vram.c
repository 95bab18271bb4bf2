// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_vram.c - device memory ("VRAM")
 *
 * VRAM is an address range, 0 .. vram_size-1, handed out in 4 KiB pages by
 * a first-fit bitmap allocator.  A range gets host pages behind it only
 * when it is allocated, so a large VRAM size costs nothing until used, and
 * the pages go back to the system when the range is freed.
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

		if (page)
			__free_page(page);
	}
}

/**
 * vgpu_vram_alloc() - allocate zeroed VRAM
 * @dev: the device.
 * @npages: number of 4 KiB pages.
 * @align_pages: alignment in pages, a power of two.
 * @offset: out: VRAM byte offset of the first page.
 *
 * Return: 0, or -ENOMEM when no free range is large enough or the host is
 * out of memory.
 */
int vgpu_vram_alloc(struct vgpu_dev *dev, unsigned long npages,
		    unsigned long align_pages, u64 *offset)
{
	struct vgpu_vram *vram = &dev->vram;
	unsigned long first, i;
	int ret = -ENOMEM;

	if (!npages || npages > vram->npages)
		return -ENOMEM;

	mutex_lock(&vram->lock);
	first = bitmap_find_next_zero_area(vram->bitmap, vram->npages, 0,
					   npages, align_pages - 1);
	if (first >= vram->npages)
		goto out;

	for (i = first; i < first + npages; i++) {
		struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

		if (!page)
			goto undo;
		if (xa_err(xa_store(&vram->pages, i, page, GFP_KERNEL))) {
			__free_page(page);
			goto undo;
		}
	}
	bitmap_set(vram->bitmap, first, npages);
	vram->used += npages;
	*offset = (u64)first << PAGE_SHIFT;
	ret = 0;
	goto out;
undo:
	vgpu_vram_release_pages(vram, first, i - first);
out:
	mutex_unlock(&vram->lock);
	return ret;
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

/* The page backing VRAM byte @offset, which must be allocated. */
static struct page *vgpu_vram_page(struct vgpu_dev *dev, u64 offset)
{
	return xa_load(&dev->vram.pages, offset >> PAGE_SHIFT);
}

/**
 * vgpu_vram_write64() - store a u64 in VRAM (page-table updates)
 * @dev: the device.
 * @offset: 8-byte aligned VRAM offset inside an allocated range.
 * @val: the value.
 *
 * Return: 0, or -EFAULT if @offset is not allocated (a driver bug).
 */
int vgpu_vram_write64(struct vgpu_dev *dev, u64 offset, u64 val)
{
	struct page *page = vgpu_vram_page(dev, offset);
	u64 *p;

	if (WARN_ON_ONCE(!page))
		return -EFAULT;
	p = kmap_local_page(page);
	/* The firmware may be walking this table right now. */
	WRITE_ONCE(p[offset_in_page(offset) / sizeof(u64)], val);
	kunmap_local(p);
	return 0;
}

/**
 * vgpu_vram_read64() - load a u64 from VRAM
 * @dev: the device.
 * @offset: 8-byte aligned VRAM offset inside an allocated range.
 *
 * Return: the value (0 if @offset is not allocated, a driver bug).
 */
u64 vgpu_vram_read64(struct vgpu_dev *dev, u64 offset)
{
	struct page *page = vgpu_vram_page(dev, offset);
	u64 *p, val;

	if (WARN_ON_ONCE(!page))
		return 0;
	p = kmap_local_page(page);
	val = READ_ONCE(p[offset_in_page(offset) / sizeof(u64)]);
	kunmap_local(p);
	return val;
}

/**
 * vgpu_vram_fault() - serve a fault in the firmware's VRAM mapping
 * @dev: the device.
 * @vmf: the fault.
 * @index: 4 KiB page index in VRAM.
 *
 * Return: VM_FAULT_NOPAGE with the page mapped, or VM_FAULT_SIGBUS for
 * VRAM that is not allocated (the firmware touched memory nobody owns).
 */
vm_fault_t vgpu_vram_fault(struct vgpu_dev *dev, struct vm_fault *vmf,
			   unsigned long index)
{
	struct vgpu_vram *vram = &dev->vram;
	struct page *page;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	mutex_lock(&vram->lock);
	page = index < vram->npages ? xa_load(&vram->pages, index) : NULL;
	if (page)
		ret = vmf_insert_pfn(vmf->vma, vmf->address, page_to_pfn(page));
	mutex_unlock(&vram->lock);
	return ret;
}
