// SPDX-License-Identifier: GPL-2.0
/*
 * managed_hints.c - what a program may tell the driver about managed
 * memory: cuStreamAttachMemAsync, cuMemPrefetchAsync, cuMemAdvise.
 *
 * Managed memory migrates (uAPI 1.4: memory.c, kmod/vgpu_managed.c): its
 * 64 KiB blocks move into VRAM on the device's first access and back on
 * the process's, so the device has concurrent managed access
 * (CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS reads 1) and:
 *
 *  - cuMemPrefetchAsync moves the blocks of the range to the device that
 *    owns the allocation, or to the host, in stream order: a host function
 *    of the stream (host_func.c) asks the driver (MANAGED_MIGRATE) once
 *    the stream's earlier work is complete, and later work waits for it.
 *    Another device is CUDA_ERROR_INVALID_DEVICE: the allocation lives on
 *    one device (its blocks cannot move to another's VRAM);
 *  - cuMemAdvise: a preferred location moves the range there at once
 *    (later faults still move blocks where they are used); accessed-by
 *    the device makes the driver map the blocks wherever they live (host
 *    pages through the GART: no fault, no migration on device access);
 *    read-mostly is accepted and recorded but not acted on yet (no
 *    duplication: Documentation/managed-memory.rst says what is missing).
 *    Every piece of advice is recorded for cuMemRangeGetAttribute
 *    (managed_advice.c);
 *  - cuStreamAttachMemAsync: every association (GLOBAL, HOST, SINGLE) is
 *    accepted and changes nothing: the memory is visible to the host and
 *    to every stream whatever the association promises.
 *
 * With a driver older than 1.4, managed memory is pinned host memory that
 * never moves: a prefetch to the host or advice naming the host is
 * accepted and moves nothing, a device is CUDA_ERROR_INVALID_DEVICE, as
 * CUDA documents for a device without concurrent managed access.
 *
 * Every argument is checked first: the range must lie in one managed
 * allocation (CUDA_ERROR_INVALID_VALUE otherwise).
 */
#include <stdlib.h>

#include "cuda_internal.h"

/* [ptr, ptr + count) lies in one managed allocation (count 0: ptr in it). */
static bool cu_managed_range(CUdeviceptr ptr, size_t count,
			     struct cu_mem *m)
{
	return cu_registry_find(ptr, m) && m->managed &&
	       ptr + count >= ptr && ptr + count <= m->base + m->size;
}

/*
 * A location a hint may name.  The host (any of its forms) always; the
 * device of a migrating allocation (*@to_device set); nothing else.
 */
static CUresult cu_managed_location(const CUmemLocation *loc,
				    const struct cu_mem *m, bool *to_device)
{
	*to_device = false;
	switch (loc->type) {
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		/* One NUMA node: cuDeviceGetAttribute says none is closer. */
		return loc->id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (!m->migrates || cu_device_get(loc->id) != m->dev)
			return CUDA_ERROR_INVALID_DEVICE;
		*to_device = true;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* A migration the stream runs when it gets there (a host function). */
struct cu_managed_move {
	struct vgpu_device *vdev;
	uint32_t handle;
	uint64_t offset, size;
	uint32_t target;
};

/*
 * Move the blocks now.  A failure (VRAM exhausted) is not an error of the
 * stream: the blocks stay where they are and move on their next access,
 * as a prefetch that could not be honoured is only a lost hint.
 */
static void cu_managed_move_run(const struct cu_managed_move *mv)
{
	vgpu_mem_migrate(mv->vdev, mv->handle, mv->offset, mv->size,
			 mv->target);
}

static void CUDA_CB cu_managed_move_fn(void *arg)
{
	cu_managed_move_run(arg);
	free(arg);
}

static struct cu_managed_move *cu_managed_move_new(const struct cu_mem *m,
						   CUdeviceptr ptr,
						   size_t count,
						   bool to_device)
{
	struct cu_managed_move *mv = malloc(sizeof(*mv));

	if (mv)
		*mv = (struct cu_managed_move){
			.vdev = m->dev->vdev, .handle = m->handle,
			.offset = ptr - m->map_base, .size = count ? count : 1,
			.target = to_device ? VGPU_MANAGED_LOC_DEVICE :
					      VGPU_MANAGED_LOC_HOST,
		};
	return mv;
}

CU_EXPORT CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream,
						  CUdeviceptr dptr,
						  size_t length,
						  unsigned int flags)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_mem m;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
	    flags != CU_MEM_ATTACH_SINGLE)
		return CUDA_ERROR_INVALID_VALUE;
	/* The NULL stream is every stream: no single one to attach to. */
	if (flags == CU_MEM_ATTACH_SINGLE && s->is_null)
		return CUDA_ERROR_INVALID_VALUE;
	/* Only whole allocations change association. */
	if (!cu_managed_range(dptr, length, &m) ||
	    (length && (dptr != m.base || length != m.size)))
		return CUDA_ERROR_INVALID_VALUE;
	/* Not an operation a graph can hold (CUDA refuses it too). */
	return cu_capture_forbid(s);
}

CU_EXPORT CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
					      CUmemLocation location,
					      unsigned int flags,
					      CUstream hStream)
{
	struct cu_managed_move *mv;
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_mem m;
	bool to_device;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags || !count || !cu_managed_range(devPtr, count, &m))
		return CUDA_ERROR_INVALID_VALUE;
	if (location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    !cu_device_get(location.id))
		return CUDA_ERROR_INVALID_DEVICE;
	res = cu_managed_location(&location, &m, &to_device);
	if (res == CUDA_SUCCESS)
		/* What the program asked for, done or not yet (a query's). */
		res = cu_advice_prefetched(&m, devPtr, count, location);
	if (res != CUDA_SUCCESS || !m.migrates)
		return res;
	mv = cu_managed_move_new(&m, devPtr, count, to_device);
	if (!mv)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = cu_host_func_enqueue(s, hStream, cu_managed_move_fn, NULL, mv);
	if (res != CUDA_SUCCESS)
		free(mv);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count,
				       CUmem_advise advice,
				       CUmemLocation location)
{
	struct cu_managed_move *mv;
	struct cu_ctx *ctx;
	struct cu_mem m;
	bool to_device;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!count || !cu_managed_range(devPtr, count, &m))
		return CUDA_ERROR_INVALID_VALUE;
	switch (advice) {
	case CU_MEM_ADVISE_SET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		/* The location is ignored. */
		return cu_advice_record(&m, devPtr, count, advice, location);
	case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
		break;
	case CU_MEM_ADVISE_SET_ACCESSED_BY:
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
		/* A processor: a device or the host, nothing else. */
		if (location.type != CU_MEM_LOCATION_TYPE_DEVICE &&
		    location.type != CU_MEM_LOCATION_TYPE_HOST)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    !cu_device_get(location.id))
		return CUDA_ERROR_INVALID_DEVICE;
	res = cu_managed_location(&location, &m, &to_device);
	if (res == CUDA_SUCCESS)
		res = cu_advice_record(&m, devPtr, count, advice, location);
	if (res != CUDA_SUCCESS || !m.migrates)
		return res;
	if (to_device && (advice == CU_MEM_ADVISE_SET_ACCESSED_BY ||
			  advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY)) {
		/*
		 * The device maps the blocks where they live (uAPI 1.6).  A
		 * driver that cannot (older, or the GART full) loses the
		 * hint: the blocks still migrate on access.
		 */
		vgpu_mem_advise(m.dev->vdev, m.handle, devPtr - m.map_base,
				count,
				advice == CU_MEM_ADVISE_SET_ACCESSED_BY ?
				VGPU_MANAGED_ADVISE_SET_ACCESSED_BY :
				VGPU_MANAGED_ADVISE_UNSET_ACCESSED_BY);
		return CUDA_SUCCESS;
	}
	if (advice != CU_MEM_ADVISE_SET_PREFERRED_LOCATION)
		return res;
	/* The preferred location: the range goes there now. */
	mv = cu_managed_move_new(&m, devPtr, count, to_device);
	if (!mv)
		return CUDA_ERROR_OUT_OF_MEMORY;
	cu_managed_move_run(mv);
	free(mv);
	return CUDA_SUCCESS;
}
