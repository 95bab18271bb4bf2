// SPDX-License-Identifier: GPL-2.0
/*
 * memory.c - device memory: cuMemAlloc, cuMemFree and friends.
 *
 * An allocation is a VRAM memory object of the driver, mapped in the
 * allocating context at a GPU VA taken from the range reserved in the
 * process (va_space.c), and entered in the pointer registry.  Managed
 * memory is a managed object that migrates (see cu_mem_managed_alloc()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "interop.h"

CUresult cu_mem_internal_host(struct cu_ctx *ctx, size_t size,
			      uint32_t *handle, void **cpu)
{
	uint64_t alloc_size;
	int ret;

	ret = vgpu_mem_alloc_host(ctx->dev->vdev, size, 0, handle, cpu,
				  &alloc_size);
	if (ret)
		return cu_from_errno(ret);
	ret = vgpu_mem_map(ctx->dev->vdev, ctx->vctx, *handle,
			   (uintptr_t)*cpu, 0, alloc_size, 0);
	if (ret) {
		vgpu_mem_free(ctx->dev->vdev, *handle, *cpu, alloc_size);
		return cu_from_errno(ret);
	}
	return CUDA_SUCCESS;
}

void cu_mem_internal_free(struct cu_ctx *ctx, uint32_t handle, void *cpu,
			  size_t size)
{
	vgpu_mem_unmap(ctx->dev->vdev, ctx->vctx, (uintptr_t)cpu);
	vgpu_mem_free(ctx->dev->vdev, handle, cpu,
		      cu_align_up(size, VGPU_SMALL_PAGE_SIZE));
}

CUresult cu_mem_device_map(struct cu_ctx *ctx, uint32_t handle,
			   uint64_t size, uint64_t alloc_size, bool imported,
			   CUdeviceptr *out)
{
	struct vgpu_device *vdev = ctx->dev->vdev;
	struct cu_mem m = { 0 };
	uint64_t va;
	CUresult res;
	int ret;

	va = cu_va_alloc(alloc_size);
	if (!va)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ret = vgpu_mem_map(vdev, ctx->vctx, handle, va, 0, alloc_size, 0);
	if (ret) {
		cu_va_free(va, alloc_size);
		return cu_from_errno(ret);
	}
	m.base = va;
	m.size = size;
	m.map_base = va;
	m.map_size = alloc_size;
	m.kind = CU_MEM_DEVICE;
	m.dev = ctx->dev;
	m.ctx = ctx;
	m.handle = handle;
	m.imported = imported;
	m.export_fd = -1;
	res = cu_registry_add(&m);
	if (res != CUDA_SUCCESS) {
		vgpu_mem_unmap(vdev, ctx->vctx, va);
		cu_va_free(va, alloc_size);
		return res;
	}
	/* Contexts with peer access to @ctx see it too (peer.c). */
	res = cu_peer_added(&m);
	if (res != CUDA_SUCCESS) {
		cu_peer_removed(&m);
		cu_registry_remove(va, CU_MEM_DEVICE, NULL);
		vgpu_mem_unmap(vdev, ctx->vctx, va);
		cu_va_free(va, alloc_size);
		return res;
	}
	*out = va;
	return CUDA_SUCCESS;
}

CUresult cu_mem_device_alloc(struct cu_ctx *ctx, size_t size,
			     CUdeviceptr *out)
{
	struct vgpu_device *vdev = ctx->dev->vdev;
	uint64_t alloc_size;
	uint32_t handle;
	CUresult res;
	int ret;

	ret = vgpu_mem_alloc_vram(vdev, size, &handle, &alloc_size);
	if (ret)
		return ret == -EINVAL ? CUDA_ERROR_OUT_OF_MEMORY :
		       cu_from_errno(ret);
	res = cu_mem_device_map(ctx, handle, size, alloc_size, false, out);
	if (res != CUDA_SUCCESS)
		vgpu_mem_free(vdev, handle, NULL, 0);
	return res;
}

void cu_mem_device_release(const struct cu_mem *m, bool unmap)
{
	struct vgpu_device *vdev = m->dev->vdev;

	/* Out of the peers' address spaces first: the VA may be reused. */
	cu_peer_removed(m);
	if (unmap)
		vgpu_mem_unmap(vdev, m->ctx->vctx, m->map_base);
	if (m->export_fd >= 0)
		close(m->export_fd);
	vgpu_mem_free(vdev, m->handle, NULL, 0);
	/* vgpu-sanitizer keeps freed addresses out of reuse, so that a use
	 * after free is not an access to the next allocation */
	if (!cu_san_enabled())
		cu_va_free(m->map_base, m->map_size);
}

CUresult cu_mem_device_free(struct cu_ctx *ctx, CUdeviceptr p)
{
	struct cu_mem m;
	CUresult res = cu_pool_free_now(p);

	/* Memory of a pool goes back to it (mem_pool_alloc.c). */
	if (res != CUDA_ERROR_NOT_FOUND)
		return res;
	if (cu_registry_find(p, &m) && m.managed && m.base == p) {
		/* Work still queued may use it, as for device memory. */
		if (ctx)
			cu_ctx_sync(ctx);
		cu_advice_forget(&m);
		return cuMemFreeHost((void *)(uintptr_t)p);
	}
	/* Memory of another process is released by cuIpcCloseMemHandle. */
	if (!cu_registry_find(p, &m) || m.kind != CU_MEM_DEVICE ||
	    m.base != p || m.imported)
		return CUDA_ERROR_INVALID_VALUE;
	/* Work still queued may use it: cuMemFree waits, as CUDA's does. */
	cu_ctx_sync(m.ctx);
	if (!cu_registry_remove(p, CU_MEM_DEVICE, &m))
		return CUDA_ERROR_INVALID_VALUE;	/* lost a race */
	(void)ctx;
	cu_san_freed(&m);	/* vgpu-sanitizer: use after free */
	cu_mem_device_release(&m, true);
	return CUDA_SUCCESS;
}

void cu_mem_free_ctx(struct cu_ctx *ctx)
{
	struct cu_mem m;

	/* The context's address space goes with it: no unmapping needed. */
	cu_pool_forget_ctx(ctx);
	while (cu_registry_take_ctx(ctx, &m))
		cu_mem_device_release(&m, false);
}

CU_EXPORT CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_capture_unsafe_call();
	if (res != CUDA_SUCCESS)
		return res;
	if (bytesize > vgpu_device_info(ctx->dev->vdev)->vram_size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = cu_mem_device_alloc(ctx, bytesize, dptr);
	if (res == CUDA_SUCCESS)
		cu_san_user_alloc(ctx, *dptr, bytesize); /* leaks, initcheck */
	return res;
}

/*
 * Managed memory.  CUDA's managed memory is one address valid on the host
 * and on the device.  Here it is a managed object of the driver (uAPI
 * 1.4, kmod/vgpu_managed.c): its 64 KiB blocks live in host pages or in
 * VRAM and move on demand - a device access to a block in host pages is
 * a replayable fault that moves it into VRAM, a process access to a block
 * in VRAM faults it back - mapped at the same address in the process and
 * in every context (host_memory.c: cu_mem_managed_alloc_migrating()).
 * The registry marks the entry so that pointer attributes say "managed"
 * and cuMemFree releases it.
 *
 * With a driver older than 1.4 the pages are pinned host memory instead,
 * mapped into every context at GPU VA == host VA: zero-copy, coherent,
 * and never moving - CUDA without concurrentManagedAccess, minus the
 * migration (attributes.c reports which one this is).
 */
CUresult cu_mem_managed_alloc(size_t size, CUdeviceptr *out)
{
	struct cu_ctx *ctx;
	void *p;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_mem_managed_alloc_migrating(ctx, size, out);
	if (res != CUDA_ERROR_NOT_SUPPORTED)
		return res;
	res = cuMemHostAlloc(&p, size, CU_MEMHOSTALLOC_PORTABLE |
				       CU_MEMHOSTALLOC_DEVICEMAP);
	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_registry_set_managed((uintptr_t)p)) {
		cuMemFreeHost(p);
		return CUDA_ERROR_UNKNOWN;
	}
	*out = (uintptr_t)p;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr,
					     size_t bytesize,
					     unsigned int flags)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Exactly one of the attach flags; the memory is the same either way. */
	if (!dptr || !bytesize ||
	    (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_mem_managed_alloc(bytesize, dptr);
}

CU_EXPORT CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch,
					   size_t WidthInBytes, size_t Height,
					   unsigned int ElementSizeBytes)
{
	size_t pitch;

	if (!pPitch || !WidthInBytes || !Height ||
	    (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
	     ElementSizeBytes != 16))
		return CUDA_ERROR_INVALID_VALUE;
	/* Rows start 512-byte aligned, like CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT. */
	pitch = cu_align_up(WidthInBytes, 512);
	*pPitch = pitch;
	return cuMemAlloc(dptr, pitch * Height);
}

CU_EXPORT CUresult CUDAAPI cuMemFree(CUdeviceptr dptr)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr)
		return CUDA_SUCCESS;
	res = cu_capture_unsafe_call();
	if (res != CUDA_SUCCESS)
		return res;
	/* Graph memory stays with its graph (graph_mem.c). */
	if (cu_graph_alloc_known(dptr)) {
		cu_graph_alloc_free_ptr(dptr);
		return CUDA_SUCCESS;
	}
	/* A buffer of external memory stays with its object (interop_ext.c). */
	if (cu_ext_buffer_free(dptr))
		return CUDA_SUCCESS;
	return cu_mem_device_free(ctx, dptr);
}

CU_EXPORT CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *pbase,
						size_t *psize,
						CUdeviceptr dptr)
{
	struct cu_ctx *ctx;
	struct cu_mem m;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_registry_find(dptr, &m) || m.kind != CU_MEM_DEVICE)
		return CUDA_ERROR_NOT_FOUND;
	if (pbase)
		*pbase = m.base;
	if (psize)
		*psize = m.size;
	return CUDA_SUCCESS;
}

/* Bytes of VRAM in use, from the driver's sysfs counter. */
static int cu_vram_used(const struct cu_device *d, uint64_t *used)
{
	char path[96];
	unsigned long long v;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/misc/vgpu%u/vram_used_bytes",
		 vgpu_device_index(d->vdev));
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*used = v;
	return 0;
}

CU_EXPORT CUresult CUDAAPI cuMemGetInfo(size_t *free_bytes, size_t *total)
{
	struct cu_ctx *ctx;
	uint64_t size, used = 0;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!free_bytes || !total)
		return CUDA_ERROR_INVALID_VALUE;
	size = vgpu_device_info(ctx->dev->vdev)->vram_size;
	if (cu_vram_used(ctx->dev, &used) || used > size)
		used = 0;
	*total = size;
	*free_bytes = size - used;
	return CUDA_SUCCESS;
}
