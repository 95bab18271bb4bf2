// SPDX-License-Identifier: GPL-2.0
/*
 * memory.c - memory objects and their GPU mappings.
 *
 * Three kinds of object (include/uapi/linux/vgpu.h): VRAM, which the
 * process never maps; pinned host pages allocated by the driver, which the
 * process maps with mmap() at the offset the driver returns; and the
 * process's own pages, pinned in place.  Any of them is made visible to
 * the device by mapping it at a GPU virtual address of a context.
 */
#include <errno.h>
#include <sys/mman.h>

#include "libvgpu.h"
#include "libvgpu_internal.h"

int vgpu_mem_alloc_vram(struct vgpu_device *dev, uint64_t size,
			uint32_t *handle, uint64_t *alloc_size)
{
	struct vgpu_vram_alloc args = { .size = size };
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_VRAM_ALLOC, &args);
	if (ret)
		return ret;
	*handle = args.handle;
	if (alloc_size)
		*alloc_size = args.alloc_size;
	return 0;
}

int vgpu_mem_alloc_host(struct vgpu_device *dev, uint64_t size,
			uint32_t flags, uint32_t *handle, void **cpu,
			uint64_t *alloc_size)
{
	struct vgpu_host_alloc args = { .size = size, .flags = flags };
	struct vgpu_handle_arg free_args = { 0 };
	void *p;
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_HOST_ALLOC, &args);
	if (ret)
		return ret;
	p = mmap(NULL, args.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 dev->fd, (off_t)args.mmap_offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		free_args.handle = args.handle;
		vgpu_ioctl(dev->fd, VGPU_IOCTL_MEM_FREE, &free_args);
		return ret;
	}
	*handle = args.handle;
	*cpu = p;
	if (alloc_size)
		*alloc_size = args.alloc_size;
	return 0;
}

int vgpu_mem_register(struct vgpu_device *dev, void *addr, uint64_t size,
		      uint32_t flags, uint32_t *handle)
{
	struct vgpu_host_register args = {
		.addr = (uintptr_t)addr,
		.size = size,
		.flags = flags,
	};
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_HOST_REGISTER, &args);
	if (ret)
		return ret;
	*handle = args.handle;
	return 0;
}

int vgpu_mem_free(struct vgpu_device *dev, uint32_t handle, void *cpu,
		  uint64_t size)
{
	struct vgpu_handle_arg args = { .handle = handle };

	/*
	 * The mapping holds its own reference on the pages, so the order
	 * does not matter to the driver; unmapping first means no window in
	 * which the process sees pages the device no longer reaches.
	 */
	if (cpu && size)
		munmap(cpu, size);
	return vgpu_ioctl(dev->fd, VGPU_IOCTL_MEM_FREE, &args);
}

int vgpu_mem_export(struct vgpu_device *dev, uint32_t handle, uint32_t flags,
		    int *fd)
{
	struct vgpu_mem_export args = { .handle = handle, .flags = flags };
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_MEM_EXPORT, &args);
	if (!ret)
		*fd = args.fd;
	return ret;
}

static int vgpu_mem_import_flags(struct vgpu_device *dev, int fd,
				 uint32_t flags, uint32_t *handle,
				 uint32_t *kind, uint64_t *size)
{
	struct vgpu_mem_import args = { .fd = fd, .flags = flags };
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_MEM_IMPORT, &args);
	if (ret)
		return ret;
	*handle = args.handle;
	if (kind)
		*kind = args.kind;
	if (size)
		*size = args.size;
	return 0;
}

int vgpu_mem_import(struct vgpu_device *dev, int fd, uint32_t *handle,
		    uint32_t *kind, uint64_t *size)
{
	return vgpu_mem_import_flags(dev, fd, 0, handle, kind, size);
}

int vgpu_mem_import_own(struct vgpu_device *dev, int fd, uint32_t *handle,
			uint32_t *kind, uint64_t *size)
{
	return vgpu_mem_import_flags(dev, fd, VGPU_MEM_IMPORT_OWN_DEVICE,
				     handle, kind, size);
}

int vgpu_mem_map(struct vgpu_device *dev, uint32_t ctx, uint32_t handle,
		 uint64_t va, uint64_t offset, uint64_t size, uint32_t flags)
{
	struct vgpu_map args = {
		.ctx = ctx,
		.handle = handle,
		.va = va,
		.offset = offset,
		.size = size,
		.flags = flags,
	};

	return vgpu_ioctl(dev->fd, VGPU_IOCTL_MAP, &args);
}

int vgpu_mem_unmap(struct vgpu_device *dev, uint32_t ctx, uint64_t va)
{
	struct vgpu_unmap args = { .ctx = ctx, .va = va };

	return vgpu_ioctl(dev->fd, VGPU_IOCTL_UNMAP, &args);
}
