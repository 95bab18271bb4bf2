// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bo.c - memory objects
 *
 * Three kinds of memory a context can map:
 *
 *  - VRAM objects: a 64 KiB-aligned range of device memory;
 *  - host objects: pages the driver allocates, entered into the GART, that
 *    the process maps with mmap() (cached, or write-combined: then the
 *    kernel's own direct mapping of the pages is switched to WC as well, so
 *    that no page is ever mapped with two cache attributes);
 *  - user-pointer objects: existing process memory, pinned with
 *    FOLL_LONGTERM and entered into the GART; or, when the memory is a
 *    mapping of a host object (of this or another device), that object's
 *    pages, kept by a reference on it.
 *
 * Every object is charged to the calling user's share of the device
 * (vgpu_user.c): VRAM objects to its VRAM, host and user-pointer objects to
 * its GART entries.  Host pages the driver allocates, and the structs, are
 * charged to the caller's memory cgroup.
 *
 * Host and user-pointer pages are charged to RLIMIT_MEMLOCK of the creating
 * process, like mlock()ed memory: they cannot be swapped out or migrated
 * while the device can reach them.  The charge goes to mm->pinned_vm (the
 * "VmPin" of /proc/PID/status), with the lock-free check RDMA and VFIO use,
 * rather than account_locked_vm(): that one takes mmap_lock, which munmap()
 * already holds when it drops the last reference of a host object.
 *
 * An object is owned by its open file and usable by every context of that
 * file; mappings in contexts and mmaps hold references, so freeing the
 * handle frees the memory only when nothing uses it any more.
 */
#include <linux/mm.h>
#include <linux/capability.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/set_memory.h>
#endif

#include "vgpu_drv.h"

static const u32 vgpu_big_pages = VGPU_BIG_PAGE_SIZE >> PAGE_SHIFT;

void vgpu_bo_get(struct vgpu_bo *bo)
{
	kref_get(&bo->ref);
}

static void vgpu_bo_free_host_pages(struct vgpu_bo *bo)
{
	unsigned long i;

#ifdef CONFIG_X86
	if (bo->flags & VGPU_HOST_ALLOC_WC)
		set_pages_array_wb(bo->pages, bo->npages);
#endif
	for (i = 0; i < bo->npages; i++)
		__free_page(bo->pages[i]);
}

static void vgpu_bo_uncharge(struct vgpu_bo *bo)
{
	atomic64_sub(bo->npages, &bo->mm->pinned_vm);
	mmdrop(bo->mm);
	bo->mm = NULL;
}

/* VRAM objects count against the user's VRAM, host objects its GART. */
static enum vgpu_res vgpu_bo_res(const struct vgpu_bo *bo)
{
	return bo->kind == VGPU_BO_VRAM ? VGPU_RES_VRAM : VGPU_RES_GART;
}

/* Free the struct of an object that holds no memory any more. */
static void vgpu_bo_discard(struct vgpu_bo *bo)
{
	vgpu_user_uncharge(bo->user, vgpu_bo_res(bo), bo->npages);
	vgpu_user_put(bo->user);
	kfree(bo);
}

static void vgpu_bo_release(struct kref *ref)
{
	struct vgpu_bo *bo = container_of(ref, struct vgpu_bo, ref);
	struct vgpu_dev *dev = bo->dev;

	mutex_lock(&dev->bo_lock);
	list_del(&bo->node);
	mutex_unlock(&dev->bo_lock);

	switch (bo->kind) {
	case VGPU_BO_VRAM:
		vgpu_vram_free(dev, bo->vram_offset, bo->npages);
		break;
	case VGPU_BO_HOST:
		vgpu_gart_unbind(dev, bo->gart_base, bo->npages);
		vgpu_bo_free_host_pages(bo);
		break;
	case VGPU_BO_USERPTR:
		vgpu_gart_unbind(dev, bo->gart_base, bo->npages);
		if (bo->src)
			vgpu_bo_put(bo->src);
		else
			unpin_user_pages_dirty_lock(bo->pages, bo->npages,
						    !(bo->flags &
						      VGPU_HOST_REGISTER_READONLY));
		break;
	case VGPU_BO_MANAGED:
		vgpu_managed_release(bo);
		break;
	}
	if (bo->mm)
		vgpu_bo_uncharge(bo);
	if (bo->kind != VGPU_BO_VRAM)
		atomic_long_sub(bo->npages, &dev->pinned_pages);
	kvfree(bo->pages);
	vgpu_bo_discard(bo);
}

void vgpu_bo_put(struct vgpu_bo *bo)
{
	kref_put(&bo->ref, vgpu_bo_release);
}

/*
 * A new object of @size bytes, charged to the calling user; ERR_PTR() with
 * -ENOMEM, or -EDQUOT when the user is at its limit (vgpu_user.c).
 */
struct vgpu_bo *vgpu_bo_new(struct vgpu_dev *dev, enum vgpu_bo_kind kind,
			    u64 size)
{
	struct vgpu_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!bo)
		return ERR_PTR(-ENOMEM);
	kref_init(&bo->ref);
	bo->dev = dev;
	bo->kind = kind;
	bo->size = size;
	bo->npages = size >> PAGE_SHIFT;
	bo->owner_pid = task_tgid_nr(current);
	INIT_LIST_HEAD(&bo->node);
	bo->user = vgpu_user_get(dev);
	if (!bo->user) {
		kfree(bo);
		return ERR_PTR(-ENOMEM);
	}
	ret = vgpu_user_charge(bo->user, vgpu_bo_res(bo), bo->npages);
	if (ret) {
		vgpu_user_put(bo->user);
		kfree(bo);
		return ERR_PTR(ret);
	}
	return bo;
}

/**
 * vgpu_bo_add_handle() - give an open file a handle for an object
 * @vf: the file.
 * @bo: the object, fully built; the handle takes a reference of its own,
 *	the caller keeps its reference and drops it when done with @bo.
 * @handle: out: the new handle.
 *
 * The handle is the last step of creating or importing an object: from
 * the moment it is in the table, another thread of the process can free
 * it (MEM_FREE with a guessed handle), and only the caller's reference
 * keeps @bo alive.
 *
 * Return: 0, or -ENOSPC when the file has no handles left.
 */
int vgpu_bo_add_handle(struct vgpu_file *vf, struct vgpu_bo *bo, u32 *handle)
{
	int ret;

	vgpu_bo_get(bo);
	mutex_lock(&vf->lock);
	ret = xa_alloc(&vf->bos, handle, bo, VGPU_HANDLE_LIMIT,
		       GFP_KERNEL_ACCOUNT);
	mutex_unlock(&vf->lock);
	if (ret) {
		vgpu_bo_put(bo);
		if (ret == -EBUSY)
			return vgpu_refuse(vf->dev, -ENOSPC,
					   "the file has no memory object handles left");
		return ret;
	}
	return 0;
}

/*
 * Make a fully built object visible: in the device list (debugfs), then a
 * handle, last.  The caller still holds its reference on return.
 */
int vgpu_bo_publish(struct vgpu_file *vf, struct vgpu_bo *bo, u32 *handle)
{
	struct vgpu_dev *dev = vf->dev;

	mutex_lock(&dev->bo_lock);
	list_add_tail(&bo->node, &dev->bos);
	mutex_unlock(&dev->bo_lock);
	return vgpu_bo_add_handle(vf, bo, handle);
}

/*
 * Charge the object's pages against RLIMIT_MEMLOCK of the calling process
 * and keep its mm, which may be gone from current when the object is
 * released.  CAP_IPC_LOCK lifts the limit, as for mlock().
 */
static int vgpu_bo_charge(struct vgpu_bo *bo)
{
	struct mm_struct *mm = current->mm;
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	s64 pinned;

	if (!mm)
		return vgpu_refuse(bo->dev, -EINVAL,
				   "host memory: the caller has no address space");
	pinned = atomic64_add_return(bo->npages, &mm->pinned_vm);
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(bo->npages, &mm->pinned_vm);
		return vgpu_refuse(bo->dev, -ENOMEM,
				   "host memory: %lu pages would pass RLIMIT_MEMLOCK (%lu pages)",
				   bo->npages, limit);
	}
	bo->mm = mm;
	mmgrab(mm);
	return 0;
}

int vgpu_ioctl_vram_alloc(struct vgpu_file *vf, void *data)
{
	struct vgpu_vram_alloc *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_bo *bo;
	u64 size;
	int ret;

	if (args->flags)
		return vgpu_refuse(dev, -EINVAL,
				   "VRAM_ALLOC: flags 0x%x: none defined",
				   args->flags);
	if (!args->size)
		return vgpu_refuse(dev, -EINVAL, "VRAM_ALLOC: size 0");
	if (args->size > (dev->vram.npages << PAGE_SHIFT))
		return vgpu_refuse(dev, -ENOMEM,
				   "VRAM_ALLOC: size %llu larger than VRAM",
				   args->size);
	size = ALIGN(args->size, VGPU_BIG_PAGE_SIZE);

	bo = vgpu_bo_new(dev, VGPU_BO_VRAM, size);
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	/* VRAM full: managed blocks go back to host pages first. */
	do {
		ret = vgpu_vram_alloc(dev, bo->npages, vgpu_big_pages,
				      &bo->vram_offset);
	} while (ret == -ENOMEM && !fatal_signal_pending(current) &&
		 vgpu_managed_make_room(dev));
	if (ret) {
		vgpu_bo_discard(bo);
		return ret;
	}
	ret = vgpu_bo_publish(vf, bo, &args->handle);
	if (!ret)
		args->alloc_size = bo->size;
	vgpu_bo_put(bo);
	return ret;
}

/* Size checks shared by host allocations and registrations. */
static int vgpu_host_size_ok(struct vgpu_dev *dev, const char *ioctl,
			     u64 size)
{
	if (!size)
		return vgpu_refuse(dev, -EINVAL, "%s: size 0", ioctl);
	if (size > ((u64)dev->gart.nentries << PAGE_SHIFT))
		return vgpu_refuse(dev, -ENOSPC,
				   "%s: size %llu larger than the GART aperture",
				   ioctl, size);
	return 0;
}

int vgpu_ioctl_host_alloc(struct vgpu_file *vf, void *data)
{
	struct vgpu_host_alloc *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_bo *bo;
	unsigned long i;
	int ret;

	if (args->flags & ~VGPU_HOST_ALLOC_WC)
		return vgpu_refuse(dev, -EINVAL,
				   "HOST_ALLOC: unknown flags 0x%x",
				   args->flags & ~VGPU_HOST_ALLOC_WC);
#ifndef CONFIG_X86
	if (args->flags & VGPU_HOST_ALLOC_WC)
		return vgpu_refuse(dev, -EOPNOTSUPP,
				   "HOST_ALLOC: write-combined needs x86");
#endif
	ret = vgpu_host_size_ok(dev, "HOST_ALLOC", args->size);
	if (ret)
		return ret;

	bo = vgpu_bo_new(dev, VGPU_BO_HOST, PAGE_ALIGN(args->size));
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	bo->flags = args->flags;
	ret = vgpu_bo_charge(bo);
	if (ret)
		goto err_free;
	bo->pages = kvcalloc(bo->npages, sizeof(*bo->pages),
			     GFP_KERNEL_ACCOUNT);
	if (!bo->pages) {
		ret = -ENOMEM;
		goto err_uncharge;
	}
	for (i = 0; i < bo->npages; i++) {
		bo->pages[i] = alloc_page(VGPU_GFP_USER_PAGES);
		if (!bo->pages[i]) {
			ret = -ENOMEM;
			goto err_pages;
		}
	}
#ifdef CONFIG_X86
	if (bo->flags & VGPU_HOST_ALLOC_WC) {
		ret = set_pages_array_wc(bo->pages, bo->npages);
		if (ret)
			goto err_pages;
	}
#endif
	ret = vgpu_gart_bind(dev, bo->pages, bo->npages, &bo->gart_base);
	if (ret)
		goto err_wc;
	atomic_long_add(bo->npages, &dev->pinned_pages);

	ret = vgpu_bo_publish(vf, bo, &args->handle);
	if (!ret) {
		args->mmap_offset = vgpu_mmap_offset(VGPU_MMAP_HOST_BO,
						     args->handle);
		args->alloc_size = bo->size;
	}
	vgpu_bo_put(bo);
	return ret;

err_wc:
#ifdef CONFIG_X86
	if (bo->flags & VGPU_HOST_ALLOC_WC)
		set_pages_array_wb(bo->pages, bo->npages);
#endif
err_pages:
	while (i--)
		__free_page(bo->pages[i]);
	kvfree(bo->pages);
err_uncharge:
	vgpu_bo_uncharge(bo);
err_free:
	vgpu_bo_discard(bo);
	return ret;
}

/* Pin all of [addr, addr + npages pages) or nothing. */
static int vgpu_pin_user(struct vgpu_bo *bo, u64 addr, bool writable)
{
	unsigned int gup = FOLL_LONGTERM | (writable ? FOLL_WRITE : 0);
	unsigned long done = 0;

	while (done < bo->npages) {
		int n = pin_user_pages_fast(addr + (done << PAGE_SHIFT),
					    min_t(unsigned long,
						  bo->npages - done, INT_MAX),
					    gup, bo->pages + done);
		if (n <= 0) {
			unpin_user_pages(bo->pages, done);
			return vgpu_refuse(bo->dev, n ? n : -EFAULT,
					   "HOST_REGISTER: cannot pin page %lu of the range (%d)",
					   done, n);
		}
		done += n;
	}
	return 0;
}

/*
 * The pages of [addr, addr + npages pages): those of the host object
 * behind the mapping when the range is a mapping of one (device mappings
 * cannot be pinned: vgpu_mmap.c), else pinned user pages.
 */
static int vgpu_get_user_pages(struct vgpu_bo *bo, u64 addr, bool writable)
{
	unsigned long first;
	struct vgpu_bo *src = vgpu_mmap_host_pages(addr, bo->size, writable,
						   &first);

	if (!src)
		return vgpu_pin_user(bo, addr, writable);
	if (first > src->npages || bo->npages > src->npages - first) {
		vgpu_bo_put(src);
		return vgpu_refuse(bo->dev, -EFAULT,
				   "HOST_REGISTER: range runs past the end of the mapped host object");
	}
	memcpy(bo->pages, src->pages + first,
	       bo->npages * sizeof(*bo->pages));
	bo->src = src;
	return 0;
}

int vgpu_ioctl_host_register(struct vgpu_file *vf, void *data)
{
	struct vgpu_host_register *args = data;
	struct vgpu_dev *dev = vf->dev;
	bool writable = !(args->flags & VGPU_HOST_REGISTER_READONLY);
	struct vgpu_bo *bo;
	int ret;

	if (args->flags & ~VGPU_HOST_REGISTER_READONLY)
		return vgpu_refuse(dev, -EINVAL,
				   "HOST_REGISTER: unknown flags 0x%x",
				   args->flags & ~VGPU_HOST_REGISTER_READONLY);
	if (!PAGE_ALIGNED(args->addr) || !PAGE_ALIGNED(args->size))
		return vgpu_refuse(dev, -EINVAL,
				   "HOST_REGISTER: addr 0x%llx or size 0x%llx not page aligned",
				   args->addr, args->size);
	if (args->addr + args->size < args->addr ||
	    args->addr + args->size > TASK_SIZE)
		return vgpu_refuse(dev, -EFAULT,
				   "HOST_REGISTER: [0x%llx, +0x%llx) outside user space",
				   args->addr, args->size);
	ret = vgpu_host_size_ok(dev, "HOST_REGISTER", args->size);
	if (ret)
		return ret;

	bo = vgpu_bo_new(dev, VGPU_BO_USERPTR, args->size);
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	bo->flags = args->flags;
	bo->user_addr = args->addr;
	ret = vgpu_bo_charge(bo);
	if (ret)
		goto err_free;
	bo->pages = kvcalloc(bo->npages, sizeof(*bo->pages),
			     GFP_KERNEL_ACCOUNT);
	if (!bo->pages) {
		ret = -ENOMEM;
		goto err_uncharge;
	}
	ret = vgpu_get_user_pages(bo, args->addr, writable);
	if (ret)
		goto err_pages;
	ret = vgpu_gart_bind(dev, bo->pages, bo->npages, &bo->gart_base);
	if (ret)
		goto err_unpin;
	atomic_long_add(bo->npages, &dev->pinned_pages);

	ret = vgpu_bo_publish(vf, bo, &args->handle);
	vgpu_bo_put(bo);
	return ret;

err_unpin:
	if (bo->src)
		vgpu_bo_put(bo->src);
	else
		unpin_user_pages(bo->pages, bo->npages);
err_pages:
	kvfree(bo->pages);
err_uncharge:
	vgpu_bo_uncharge(bo);
err_free:
	vgpu_bo_discard(bo);
	return ret;
}

int vgpu_ioctl_mem_free(struct vgpu_file *vf, void *data)
{
	struct vgpu_handle_arg *args = data;
	struct vgpu_bo *bo;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "MEM_FREE: flags 0x%x: none defined",
				   args->flags);
	mutex_lock(&vf->lock);
	bo = xa_erase(&vf->bos, args->handle);
	mutex_unlock(&vf->lock);
	if (!bo)
		return vgpu_refuse(vf->dev, -ENOENT,
				   "MEM_FREE: handle %u: no such memory object",
				   args->handle);
	vgpu_bo_put(bo);
	return 0;
}

/**
 * vgpu_bo_lookup() - find a memory object of an open file
 * @vf: the file.
 * @handle: its handle.
 *
 * Return: the object with a new reference, or NULL.
 */
struct vgpu_bo *vgpu_bo_lookup(struct vgpu_file *vf, u32 handle)
{
	struct vgpu_bo *bo;

	mutex_lock(&vf->lock);
	bo = xa_load(&vf->bos, handle);
	if (bo)
		vgpu_bo_get(bo);
	mutex_unlock(&vf->lock);
	return bo;
}
