// SPDX-License-Identifier: GPL-2.0
/*
 * managed.c - managed memory objects (uAPI 1.4): blocks that migrate
 * between host pages and VRAM on faults (kmod/vgpu_managed.c).
 *
 * The process maps the object once, 64 KiB aligned, and every context
 * maps it at that same address: a managed pointer is one address valid on
 * both sides, as cudaMallocManaged promises.  VRAM mappings use 64 KiB
 * pages, so the host mapping is aligned to match: the driver's offset is
 * mapped over an over-sized reservation at its first 64 KiB boundary.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#include "libvgpu.h"
#include "libvgpu_internal.h"

int vgpu_mem_alloc_managed(struct vgpu_device *dev, uint64_t size,
			   uint32_t *handle, void **cpu, uint64_t *alloc_size)
{
	struct vgpu_managed_alloc args = { .size = size };
	struct vgpu_handle_arg free_args = { 0 };
	uint64_t align = VGPU_MANAGED_BLOCK_SIZE;
	uintptr_t start, aligned;
	void *res, *p;
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_MANAGED_ALLOC, &args);
	if (ret)
		return ret;
	res = mmap(NULL, args.alloc_size + align, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED) {
		ret = -errno;
		goto err_free;
	}
	start = (uintptr_t)res;
	aligned = (start + align - 1) & ~(uintptr_t)(align - 1);
	p = mmap((void *)aligned, args.alloc_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, dev->fd, (off_t)args.mmap_offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		munmap(res, args.alloc_size + align);
		goto err_free;
	}
	/* Give back the slack on both sides of the aligned mapping. */
	if (aligned > start)
		munmap(res, aligned - start);
	if (start + align > aligned)
		munmap((void *)(aligned + args.alloc_size),
		       start + align - aligned);
	*handle = args.handle;
	*cpu = p;
	*alloc_size = args.alloc_size;
	return 0;

err_free:
	free_args.handle = args.handle;
	vgpu_ioctl(dev->fd, VGPU_IOCTL_MEM_FREE, &free_args);
	return ret;
}

int vgpu_mem_migrate(struct vgpu_device *dev, uint32_t handle,
		     uint64_t offset, uint64_t size, uint32_t target)
{
	struct vgpu_managed_migrate args = {
		.handle = handle, .offset = offset, .size = size,
		.target = target,
	};

	return vgpu_ioctl(dev->fd, VGPU_IOCTL_MANAGED_MIGRATE, &args);
}

int vgpu_mem_advise(struct vgpu_device *dev, uint32_t handle,
		    uint64_t offset, uint64_t size, uint32_t advice)
{
	struct vgpu_managed_advise args = {
		.handle = handle, .offset = offset, .size = size,
		.advice = advice,
	};

	return vgpu_ioctl(dev->fd, VGPU_IOCTL_MANAGED_ADVISE, &args);
}

int vgpu_mem_location(struct vgpu_device *dev, uint32_t handle,
		      uint64_t offset, uint32_t *location)
{
	struct vgpu_managed_query args = { .handle = handle, .offset = offset };
	int ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_MANAGED_QUERY, &args);

	if (!ret)
		*location = args.location;
	return ret;
}
