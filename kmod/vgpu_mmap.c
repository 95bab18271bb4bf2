// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_mmap.c - what mmap() on /dev/vgpuN maps
 *
 * The file offset names the thing to map (its encoding, and the function
 * that makes one, are in vgpu_mmap_offset.h): a kind, the handle of the
 * object in this file or a device-wide id, and a byte offset inside it.
 *
 * Client mappings (host memory, ring, doorbell, fence page) insert the
 * driver's pages at mmap time; the VMA holds a reference on the object, so
 * the pages stay valid while mapped even after the handle is freed.  The
 * firmware's VRAM and GART mappings are PFN mappings filled on fault, so
 * that the driver can take pages away from the firmware (vgpu_vram.c,
 * vgpu_gart.c).
 *
 * The firmware's views of client rings and doorbells are PFN mappings as
 * well: pages mapped with vm_insert_page() count in the mapping process's
 * RSS, and the firmware would look to the OOM killer like the largest
 * process on the system, the sum of every client's rings, when the rings
 * are charged to the clients that asked for them.
 *
 * No mapping is inherited by fork() (VM_DONTCOPY): a child must not submit
 * work on its parent's queues or scribble over its memory.  VM_IO makes
 * that rule stick: madvise(MADV_DOFORK) refuses to clear VM_DONTCOPY on a
 * VM_IO mapping (-EINVAL).  VM_IO also keeps get_user_pages() away from
 * the pages (O_DIRECT into them, ptrace reads and pinning fail), so
 * registering a host object's mapping with another device
 * (VGPU_IOCTL_HOST_REGISTER, libcuda's portable memory) does not pin it:
 * vgpu_mmap_host_pages() finds the object behind the mapping and the new
 * object shares its pages.  Every mapping must be MAP_SHARED: the pages
 * belong to the device.
 */
#include <linux/fs.h>
#include <linux/mm.h>

#include "vgpu_drv.h"

static void vgpu_vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
#ifdef VGPU_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static void vgpu_vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
#ifdef VGPU_HAVE_VM_FLAGS_SET
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/* --- client and firmware mappings of driver pages ------------------------ */

static void vgpu_bo_vm_open(struct vm_area_struct *vma)
{
	vgpu_bo_get(vma->vm_private_data);
}

static void vgpu_bo_vm_close(struct vm_area_struct *vma)
{
	vgpu_bo_put(vma->vm_private_data);
}

static const struct vm_operations_struct vgpu_bo_vm_ops = {
	.open = vgpu_bo_vm_open,
	.close = vgpu_bo_vm_close,
};

static void vgpu_queue_vm_open(struct vm_area_struct *vma)
{
	vgpu_queue_get(vma->vm_private_data);
}

static void vgpu_queue_vm_close(struct vm_area_struct *vma)
{
	vgpu_queue_put(vma->vm_private_data);
}

static const struct vm_operations_struct vgpu_queue_vm_ops = {
	.open = vgpu_queue_vm_open,
	.close = vgpu_queue_vm_close,
};

/**
 * vgpu_mmap_host_pages() - the host object behind a process's mapping
 * @addr: start of a range in the calling process.
 * @size: its size in bytes.
 * @writable: the range must be mapped writable.
 * @first: out: index in the object's pages of the page at @addr.
 *
 * The device's mappings are VM_IO, which get_user_pages() refuses; a
 * registration of such a range (another device's pinned memory) takes the
 * pages from the object instead, which keeps them for as long as it lives.
 *
 * Return: the object with a new reference if all of the range lies in one
 * mapping of a host object of any vgpu device, else NULL.
 */
struct vgpu_bo *vgpu_mmap_host_pages(u64 addr, u64 size, bool writable,
				     unsigned long *first)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct vgpu_bo *bo = NULL;

	if (!mm)
		return NULL;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, addr);
	if (vma && vma->vm_ops == &vgpu_bo_vm_ops &&
	    size <= vma->vm_end - addr &&
	    (!writable || (vma->vm_flags & VM_WRITE))) {
		bo = vma->vm_private_data;
		*first = ((((u64)vma->vm_pgoff << PAGE_SHIFT) &
			   VGPU_MMAP_OFF_MASK) + (addr - vma->vm_start)) >>
			 PAGE_SHIFT;
		vgpu_bo_get(bo);
	}
	mmap_read_unlock(mm);
	return bo;
}

/* Page @index of the ring (or the doorbell) of @q, NULL if out of range. */
static struct page *vgpu_queue_page(struct vgpu_queue *q, unsigned int kind,
				    unsigned long index)
{
	if (kind == VGPU_MMAP_FW_DOORBELL)
		return index ? NULL : q->doorbell;
	return index < q->ring_size >> PAGE_SHIFT ? q->ring[index] : NULL;
}

/* The firmware's view of a client ring or doorbell: filled on fault. */
static vm_fault_t vgpu_fw_queue_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long index = ((off & VGPU_MMAP_OFF_MASK) >> PAGE_SHIFT) +
			      ((vmf->address - vma->vm_start) >> PAGE_SHIFT);
	struct vgpu_queue *q = vma->vm_private_data;
	struct page *page = vgpu_queue_page(q, off >> VGPU_MMAP_KIND_SHIFT,
					    index);

	/*
	 * Not for a firmware detached as hung.  A fault racing with that
	 * detach may still map the page: it stays the queue's (the VMA holds
	 * the queue), and the queue's context is lost.
	 */
	if (!page || vma->vm_file != READ_ONCE(q->dev->fw_file))
		return VM_FAULT_SIGBUS;
	return vmf_insert_pfn(vma, vmf->address, page_to_pfn(page));
}

static const struct vm_operations_struct vgpu_fw_queue_vm_ops = {
	.open = vgpu_queue_vm_open,
	.close = vgpu_queue_vm_close,
	.fault = vgpu_fw_queue_fault,
};

/*
 * Map @npages of @pages, starting at page @first, if the VMA fits inside
 * them exactly.
 */
static int vgpu_insert_pages(struct vgpu_dev *dev, struct vm_area_struct *vma,
			     struct page **pages, unsigned long npages,
			     unsigned long first)
{
	unsigned long i, n = vma_pages(vma);
	int ret;

	if (first >= npages || n > npages - first)
		return vgpu_refuse(dev, -EINVAL,
				   "mmap: pages [%lu, +%lu) past the object's %lu",
				   first, n, npages);
	for (i = 0; i < n; i++) {
		ret = vm_insert_page(vma, vma->vm_start + (i << PAGE_SHIFT),
				     pages[first + i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int vgpu_mmap_bo(struct vgpu_file *vf, struct vm_area_struct *vma,
			u32 handle, unsigned long first)
{
	struct vgpu_bo *bo = vgpu_bo_lookup(vf, handle);
	int ret;

	if (!bo)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "mmap: handle %u: no such memory object",
				   handle);
	if (bo->kind != VGPU_BO_HOST) {
		ret = vgpu_refuse(vf->dev, -EINVAL,
				  "mmap: handle %u is not host memory of the driver",
				  handle);
		goto err;
	}
	if (bo->flags & VGPU_HOST_ALLOC_WC)
		vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
	ret = vgpu_insert_pages(vf->dev, vma, bo->pages, bo->npages, first);
	if (ret)
		goto err;
	vma->vm_private_data = bo;
	vma->vm_ops = &vgpu_bo_vm_ops;
	return 0;
err:
	vgpu_bo_put(bo);
	return ret;
}

/* Map a ring, doorbell or fence page of @q (whose reference moves here). */
static int vgpu_mmap_queue_part(struct vgpu_queue *q,
				struct vm_area_struct *vma, unsigned int kind,
				unsigned long first)
{
	unsigned long npages = kind == VGPU_MMAP_FW_RING ?
		q->ring_size >> PAGE_SHIFT : 1;
	int ret;

	switch (kind) {
	case VGPU_MMAP_RING:
		ret = vgpu_insert_pages(q->dev, vma, q->ring,
					q->ring_size >> PAGE_SHIFT, first);
		break;
	case VGPU_MMAP_DOORBELL:
		ret = vgpu_insert_pages(q->dev, vma, &q->doorbell, 1, first);
		break;
	case VGPU_MMAP_FW_RING:
	case VGPU_MMAP_FW_DOORBELL:
		/* Not counted in the firmware's RSS: see the top comment. */
		ret = 0;
		if (first >= npages || vma_pages(vma) > npages - first)
			ret = vgpu_refuse(q->dev, -EINVAL,
					  "mmap: pages [%lu, +%lu) past queue %u's %lu",
					  first, vma_pages(vma), q->id, npages);
		else
			vgpu_vm_flags_set(vma, VM_PFNMAP);
		break;
	default:
		/* The fence page is written by the driver alone. */
		if (vma->vm_flags & VM_WRITE) {
			ret = vgpu_refuse(q->dev, -EPERM,
					  "mmap: the fence page is read-only");
			break;
		}
		vgpu_vm_flags_clear(vma, VM_MAYWRITE);
		ret = vgpu_insert_pages(q->dev, vma, &q->fence, 1, first);
		break;
	}
	if (ret) {
		vgpu_queue_put(q);
		return ret;
	}
	vma->vm_private_data = q;
	vma->vm_ops = kind == VGPU_MMAP_FW_RING || kind == VGPU_MMAP_FW_DOORBELL ?
		&vgpu_fw_queue_vm_ops : &vgpu_queue_vm_ops;
	return 0;
}

/* --- firmware apertures -------------------------------------------------- */

static vm_fault_t vgpu_fw_vram_fault(struct vm_fault *vmf)
{
	return vgpu_vram_fault(vmf->vma->vm_private_data, vmf,
			       vmf->pgoff & (VGPU_MMAP_OFF_MASK >> PAGE_SHIFT));
}

static vm_fault_t vgpu_fw_gart_fault(struct vm_fault *vmf)
{
	return vgpu_gart_fault(vmf->vma->vm_private_data, vmf,
			       vmf->pgoff & (VGPU_MMAP_OFF_MASK >> PAGE_SHIFT));
}

static const struct vm_operations_struct vgpu_fw_vram_vm_ops = {
	.fault = vgpu_fw_vram_fault,
};

static const struct vm_operations_struct vgpu_fw_gart_vm_ops = {
	.fault = vgpu_fw_gart_fault,
};

static int vgpu_mmap_aperture(struct vgpu_dev *dev, struct vm_area_struct *vma,
			      unsigned int kind, unsigned long first)
{
	unsigned long size = kind == VGPU_MMAP_FW_VRAM ? dev->vram.npages :
							 dev->gart.nentries;

	if (first >= size || vma_pages(vma) > size - first)
		return vgpu_refuse(dev, -EINVAL,
				   "mmap: pages [%lu, +%lu) past the aperture's %lu",
				   first, vma_pages(vma), size);
	vgpu_vm_flags_set(vma, VM_PFNMAP);
	vma->vm_private_data = dev;
	vma->vm_ops = kind == VGPU_MMAP_FW_VRAM ? &vgpu_fw_vram_vm_ops :
						  &vgpu_fw_gart_vm_ops;
	return 0;
}

/* --- the dispatcher ------------------------------------------------------ */

int vgpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct vgpu_file *vf = file->private_data;
	struct vgpu_dev *dev = vf->dev;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned int kind = off >> VGPU_MMAP_KIND_SHIFT;
	u32 id = (off >> VGPU_MMAP_ID_SHIFT) & VGPU_MMAP_ID_MASK;
	unsigned long first = (off & VGPU_MMAP_OFF_MASK) >> PAGE_SHIFT;
	bool is_fw = READ_ONCE(vf->is_fw);
	struct vgpu_queue *q;
	struct vgpu_bo *bo;

	if (!(vma->vm_flags & VM_SHARED))
		return vgpu_refuse(dev, -EINVAL, "mmap: not MAP_SHARED");
	vgpu_vm_flags_set(vma, VM_IO | VM_DONTCOPY | VM_DONTEXPAND |
			  VM_DONTDUMP);

	switch (kind) {
	case VGPU_MMAP_HOST_BO:
		if (is_fw)
			return vgpu_refuse(dev, -EINVAL,
					   "mmap: host memory on the firmware's file");
		return vgpu_mmap_bo(vf, vma, id, first);
	case VGPU_MMAP_MANAGED:
		bo = is_fw ? NULL : vgpu_bo_lookup(vf, id);
		if (bo && bo->kind != VGPU_BO_MANAGED) {
			vgpu_bo_put(bo);
			bo = NULL;
		}
		if (!bo)
			return vgpu_refuse(dev, -EINVAL,
					   "mmap: handle %u: no such managed memory",
					   id);
		return vgpu_managed_mmap(bo, vma, first);
	case VGPU_MMAP_RING:
	case VGPU_MMAP_DOORBELL:
	case VGPU_MMAP_FENCE:
		if (is_fw)
			return vgpu_refuse(dev, -EINVAL,
					   "mmap: a client's queue offset on the firmware's file");
		q = vgpu_queue_lookup(vf, id);
		if (!q)
			return vgpu_refuse(dev, -EINVAL,
					   "mmap: queue handle %u: no such queue", id);
		return vgpu_mmap_queue_part(q, vma, kind, first);
	case VGPU_MMAP_FW_VRAM:
	case VGPU_MMAP_FW_GART:
		if (!is_fw)
			return vgpu_refuse(dev, -EACCES,
					   "mmap: a firmware aperture on a client's file");
		if (!vgpu_fw_is_current(vf))
			return vgpu_refuse(dev, -ENODEV,
					   "mmap: this firmware was detached");
		if (id)
			return vgpu_refuse(dev, -EINVAL,
					   "mmap: aperture offset with id %u, not 0",
					   id);
		return vgpu_mmap_aperture(dev, vma, kind, first);
	case VGPU_MMAP_FW_RING:
	case VGPU_MMAP_FW_DOORBELL:
		if (!is_fw)
			return vgpu_refuse(dev, -EACCES,
					   "mmap: a firmware queue view on a client's file");
		mutex_lock(&dev->lock);
		q = vgpu_fw_is_current(vf) ? xa_load(&dev->queues, id) : NULL;
		if (q)
			vgpu_queue_get(q);
		mutex_unlock(&dev->lock);
		if (!q)
			return vgpu_refuse(dev, -EINVAL,
					   "mmap: queue id %u: none, or this firmware was detached",
					   id);
		return vgpu_mmap_queue_part(q, vma, kind, first);
	default:
		return vgpu_refuse(dev, -EINVAL,
				   "mmap: offset 0x%llx of unknown kind %u",
				   off, kind);
	}
}
