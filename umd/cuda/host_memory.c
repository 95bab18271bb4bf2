// SPDX-License-Identifier: GPL-2.0
/*
 * host_memory.c - page-locked host memory: cuMemHostAlloc and
 * cuMemHostRegister.
 *
 * Both kinds end up as pinned pages in the device's GART, mapped on the
 * GPU at the same address as in the process (unified addressing), in
 * every context of the device: what CUDA calls "portable" and "mapped"
 * holds for all of it, which is why cuMemHostGetFlags reports
 * DEVICEMAP even when it was not asked for (as real CUDA does on a
 * unified-addressing device).
 */
#include <errno.h>
#include <stdint.h>

#include "cuda_internal.h"

#define CU_HOSTALLOC_FLAGS_ALL	(CU_MEMHOSTALLOC_PORTABLE | \
				 CU_MEMHOSTALLOC_DEVICEMAP | \
				 CU_MEMHOSTALLOC_WRITECOMBINED)
#define CU_HOSTREGISTER_FLAGS_ALL (CU_MEMHOSTREGISTER_PORTABLE | \
				   CU_MEMHOSTREGISTER_DEVICEMAP | \
				   CU_MEMHOSTREGISTER_READ_ONLY)

static uint32_t cu_host_map_flags(const struct cu_mem *m)
{
	return m->kind == CU_MEM_REGISTERED &&
	       (m->flags & CU_MEMHOSTREGISTER_READ_ONLY) ?
	       VGPU_MAP_READONLY : 0;
}

/* Map @m in every context of its device; undo everything on failure. */
static CUresult cu_host_map_all(const struct cu_mem *m)
{
	struct cu_device *d = m->dev;
	struct cu_ctx *c, *failed = NULL;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	for (c = d->contexts; c; c = c->next) {
		ret = vgpu_mem_map(d->vdev, c->vctx, m->handle, m->map_base, 0,
				   m->map_size, cu_host_map_flags(m));
		if (ret) {
			failed = c;
			break;
		}
	}
	if (failed)
		for (c = d->contexts; c != failed; c = c->next)
			vgpu_mem_unmap(d->vdev, c->vctx, m->map_base);
	pthread_mutex_unlock(&d->lock);
	return cu_from_errno(ret);
}

/* Wait for every context of the device, then unmap @m from them. */
static void cu_host_unmap_all(const struct cu_mem *m)
{
	struct cu_device *d = m->dev;
	struct cu_ctx *c;

	pthread_mutex_lock(&d->lock);
	for (c = d->contexts; c; c = c->next) {
		cu_ctx_sync(c);
		vgpu_mem_unmap(d->vdev, c->vctx, m->map_base);
	}
	pthread_mutex_unlock(&d->lock);
}

struct cu_map_into {
	struct cu_ctx *ctx;
	int ret;
};

static void cu_map_into_one(const struct cu_mem *m, void *arg)
{
	struct cu_map_into *mi = arg;
	int ret;

	if (m->kind == CU_MEM_DEVICE || m->dev != mi->ctx->dev || mi->ret)
		return;
	ret = vgpu_mem_map(m->dev->vdev, mi->ctx->vctx, m->handle,
			   m->map_base, 0, m->map_size, cu_host_map_flags(m));
	if (ret)
		mi->ret = ret;
}

CUresult cu_mem_map_host_into(struct cu_ctx *ctx)
{
	struct cu_map_into mi = { .ctx = ctx };

	cu_registry_each(cu_map_into_one, &mi);
	return cu_from_errno(mi.ret);
}

CU_EXPORT CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize,
					  unsigned int Flags)
{
	struct cu_mem m = { 0 };
	struct cu_ctx *ctx;
	uint64_t alloc_size;
	void *cpu;
	CUresult res = cu_ctx_get(&ctx);
	int ret;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pp || (Flags & ~(unsigned int)CU_HOSTALLOC_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	if (!bytesize) {
		*pp = NULL;
		return CUDA_SUCCESS;
	}
	ret = vgpu_mem_alloc_host(ctx->dev->vdev, bytesize,
				  Flags & CU_MEMHOSTALLOC_WRITECOMBINED ?
				  VGPU_HOST_ALLOC_WC : 0,
				  &m.handle, &cpu, &alloc_size);
	if (ret)
		return ret == -EINVAL ? CUDA_ERROR_OUT_OF_MEMORY :
		       cu_from_errno(ret);
	m.base = m.map_base = (uintptr_t)cpu;
	m.size = bytesize;
	m.map_size = alloc_size;
	m.kind = CU_MEM_HOST;
	m.dev = ctx->dev;
	m.flags = Flags;
	m.export_fd = -1;
	res = cu_host_map_all(&m);
	if (res == CUDA_SUCCESS) {
		res = cu_registry_add(&m);
		if (res != CUDA_SUCCESS)
			cu_host_unmap_all(&m);
	}
	if (res != CUDA_SUCCESS) {
		vgpu_mem_free(ctx->dev->vdev, m.handle, cpu, alloc_size);
		return res;
	}
	*pp = cpu;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize)
{
	return cuMemHostAlloc(pp, bytesize, 0);
}

CU_EXPORT CUresult CUDAAPI cuMemFreeHost(void *p)
{
	struct cu_mem m;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!p)
		return CUDA_SUCCESS;
	if (!cu_registry_remove((uintptr_t)p, CU_MEM_HOST, &m))
		return CUDA_ERROR_INVALID_VALUE;
	cu_host_unmap_all(&m);
	vgpu_mem_free(m.dev->vdev, m.handle, p, m.map_size);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize,
					     unsigned int Flags)
{
	struct cu_mem m = { 0 }, other;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);
	int ret;

	if (res != CUDA_SUCCESS)
		return res;
	if (!p || !bytesize || (Flags & ~(unsigned int)CU_HOSTREGISTER_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	m.base = (uintptr_t)p;
	m.size = bytesize;
	m.map_base = cu_align_down(m.base, VGPU_SMALL_PAGE_SIZE);
	m.map_size = cu_align_up(m.base + bytesize, VGPU_SMALL_PAGE_SIZE) -
		     m.map_base;
	/* Device memory and memory from cuMemHostAlloc cannot be registered. */
	if (cu_va_contains(m.base))
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_registry_find(m.base, &other) && other.kind == CU_MEM_HOST)
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_registry_overlaps_host(m.map_base, m.map_size))
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	ret = vgpu_mem_register(ctx->dev->vdev, (void *)(uintptr_t)m.map_base,
				m.map_size,
				Flags & CU_MEMHOSTREGISTER_READ_ONLY ?
				VGPU_HOST_REGISTER_READONLY : 0, &m.handle);
	if (ret)
		/* Unmapped, PROT_NONE, or read-only without READ_ONLY. */
		return ret == -ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
		       CUDA_ERROR_INVALID_VALUE;
	m.kind = CU_MEM_REGISTERED;
	m.dev = ctx->dev;
	m.flags = Flags;
	m.export_fd = -1;
	res = cu_host_map_all(&m);
	if (res == CUDA_SUCCESS) {
		res = cu_registry_add(&m);
		if (res != CUDA_SUCCESS)
			cu_host_unmap_all(&m);
	}
	if (res != CUDA_SUCCESS) {
		vgpu_mem_free(ctx->dev->vdev, m.handle, NULL, 0);
		return res;
	}
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostUnregister(void *p)
{
	struct cu_mem m;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_registry_remove((uintptr_t)p, CU_MEM_REGISTERED, &m)) {
		/* Inside a registration but not its start: measured. */
		if (cu_registry_find((uintptr_t)p, &m) &&
		    m.kind == CU_MEM_REGISTERED)
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	}
	cu_host_unmap_all(&m);
	vgpu_mem_free(m.dev->vdev, m.handle, NULL, 0);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	struct cu_mem m;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pFlags || !cu_registry_find((uintptr_t)p, &m) ||
	    m.kind == CU_MEM_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	*pFlags = (m.flags & CU_MEMHOSTALLOC_PORTABLE) |
		  CU_MEMHOSTALLOC_DEVICEMAP;
	if (m.kind == CU_MEM_HOST)
		*pFlags |= m.flags & CU_MEMHOSTALLOC_WRITECOMBINED;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr,
						     void *p,
						     unsigned int Flags)
{
	struct cu_ctx *ctx;
	struct cu_mem m;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pdptr || Flags || !cu_registry_find((uintptr_t)p, &m) ||
	    m.kind == CU_MEM_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	/* Unified addressing: the GPU sees the pages at the host address. */
	*pdptr = (uintptr_t)p;
	return CUDA_SUCCESS;
}
