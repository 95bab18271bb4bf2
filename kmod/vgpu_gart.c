// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_gart.c - the GART: the device's window on host memory
 *
 * The GART is an array of host pages.  A host memory object (pages the
 * driver allocated, or user pages it pinned) occupies a contiguous run of
 * entries for as long as it lives; a PTE with the GART aperture names an
 * entry, never a host address, so the device reaches exactly the pages the
 * driver entered here and nothing else.
 *
 * The firmware sees the GART through its "aperture" mapping
 * (VGPU_MMAP_FW_GART), page i being entry i.  As for VRAM, the mapping is
 * made of PFN PTEs installed on fault under gart->lock, and an entry is
 * emptied, then zapped from the firmware, before its page can go away.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

int vgpu_gart_init(struct vgpu_gart *gart, unsigned long nentries)
{
	mutex_init(&gart->lock);
	gart->nentries = nentries;
	gart->used = 0;
	gart->bitmap = bitmap_zalloc(nentries, GFP_KERNEL);
	gart->entries = kvcalloc(nentries, sizeof(*gart->entries), GFP_KERNEL);
	if (!gart->bitmap || !gart->entries) {
		vgpu_gart_fini(gart);
		return -ENOMEM;
	}
	return 0;
}

void vgpu_gart_fini(struct vgpu_gart *gart)
{
	WARN_ON(gart->used);
	kvfree(gart->entries);
	bitmap_free(gart->bitmap);
}

/**
 * vgpu_gart_bind() - enter host pages into the GART
 * @dev: the device.
 * @pages: the pages.
 * @npages: how many.
 * @base: out: the first entry; entry *@base + i holds @pages[i].
 *
 * Return: 0, or -ENOSPC when no run of @npages free entries exists.
 */
int vgpu_gart_bind(struct vgpu_dev *dev, struct page **pages,
		   unsigned long npages, unsigned long *base)
{
	struct vgpu_gart *gart = &dev->gart;
	unsigned long first, i;

	if (npages > gart->nentries)
		return vgpu_refuse(dev, -ENOSPC,
				   "GART: %lu entries, the GART has %lu", npages,
				   gart->nentries);
	mutex_lock(&gart->lock);
	first = bitmap_find_next_zero_area(gart->bitmap, gart->nentries, 0,
					   npages, 0);
	if (first >= gart->nentries) {
		mutex_unlock(&gart->lock);
		return vgpu_refuse(dev, -ENOSPC,
				   "GART: no free run of %lu entries (%lu of %lu used)",
				   npages, READ_ONCE(gart->used), gart->nentries);
	}
	bitmap_set(gart->bitmap, first, npages);
	for (i = 0; i < npages; i++)
		gart->entries[first + i] = pages[i];
	gart->used += npages;
	mutex_unlock(&gart->lock);
	*base = first;
	return 0;
}

/**
 * vgpu_gart_unbind() - remove pages from the GART
 * @dev: the device.
 * @base: first entry, as returned by vgpu_gart_bind().
 * @npages: number of entries.
 *
 * On return the firmware can no longer reach the pages.
 */
void vgpu_gart_unbind(struct vgpu_dev *dev, unsigned long base,
		      unsigned long npages)
{
	struct vgpu_gart *gart = &dev->gart;
	unsigned long i;

	mutex_lock(&gart->lock);
	for (i = base; i < base + npages; i++)
		gart->entries[i] = NULL;
	bitmap_clear(gart->bitmap, base, npages);
	gart->used -= npages;
	if (dev->fw_mapping)
		unmap_mapping_range(dev->fw_mapping,
				    vgpu_mmap_offset(VGPU_MMAP_FW_GART, 0) +
				    ((u64)base << PAGE_SHIFT),
				    (u64)npages << PAGE_SHIFT, 1);
	mutex_unlock(&gart->lock);
}

/**
 * vgpu_gart_fault() - serve a fault in the firmware's GART aperture
 * @dev: the device.
 * @vmf: the fault.
 * @index: GART entry.
 *
 * Return: VM_FAULT_NOPAGE with the entry's page mapped, or VM_FAULT_SIGBUS
 * for an empty entry or a firmware that was detached as hung.  On x86 the
 * PTE takes the page's cache attribute (write-combined pages stay
 * write-combined).
 */
vm_fault_t vgpu_gart_fault(struct vgpu_dev *dev, struct vm_fault *vmf,
			   unsigned long index)
{
	struct vgpu_gart *gart = &dev->gart;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	mutex_lock(&gart->lock);
	if (vmf->vma->vm_file == dev->fw_map_file &&
	    index < gart->nentries && gart->entries[index])
		ret = vmf_insert_pfn(vmf->vma, vmf->address,
				     page_to_pfn(gart->entries[index]));
	mutex_unlock(&gart->lock);
	return ret;
}
