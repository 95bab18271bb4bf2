// SPDX-License-Identifier: GPL-2.0
/*
 * managed_hints.c - what a program may tell the driver about managed
 * memory: cuStreamAttachMemAsync, cuMemPrefetchAsync, cuMemAdvise.
 *
 * Managed memory here is pinned host memory mapped at the same address in
 * every context (cu_mem_managed_alloc() in memory.c): it never migrates,
 * the device reaches it where it is, and it is coherent for host and
 * device at all times.  The device is therefore one *without* concurrent
 * managed access (CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS reads 0,
 * attributes.c), and these calls do what CUDA documents for such a
 * device:
 *
 *  - cuStreamAttachMemAsync: every association (GLOBAL, HOST, SINGLE) is
 *    accepted and changes nothing - the memory is already visible to the
 *    host and to every stream, whatever the association promises;
 *  - cuMemPrefetchAsync to the host: accepted, nothing to move; to a
 *    device: CUDA_ERROR_INVALID_DEVICE, as CUDA documents for a device
 *    without concurrent managed access;
 *  - cuMemAdvise: read-mostly and the "unset" advice are accepted and
 *    change nothing; a preferred location or accessed-by naming a device
 *    is CUDA_ERROR_INVALID_DEVICE, the host is accepted.
 *
 * Every argument is checked first: the range must lie in one managed
 * allocation (CUDA_ERROR_INVALID_VALUE otherwise).
 */
#include "cuda_internal.h"

/* [ptr, ptr + count) lies in one managed allocation (count 0: ptr in it). */
static bool cu_managed_range(CUdeviceptr ptr, size_t count,
			     struct cu_mem *m)
{
	return cu_registry_find(ptr, m) && m->managed &&
	       ptr + count >= ptr && ptr + count <= m->base + m->size;
}

/*
 * A location a hint may name.  The host (any of its forms) is where the
 * memory is; a device needs concurrent managed access, which none has.
 */
static CUresult cu_managed_location(const CUmemLocation *loc)
{
	switch (loc->type) {
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		/* One NUMA node: cuDeviceGetAttribute says none is closer. */
		return loc->id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return CUDA_ERROR_INVALID_DEVICE;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
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
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_mem m;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags || !count || !cu_managed_range(devPtr, count, &m))
		return CUDA_ERROR_INVALID_VALUE;
	if (location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    !cu_device_get(location.id))
		return CUDA_ERROR_INVALID_DEVICE;
	return cu_managed_location(&location);
}

CU_EXPORT CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count,
				       CUmem_advise advice,
				       CUmemLocation location)
{
	struct cu_ctx *ctx;
	struct cu_mem m;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!count || !cu_managed_range(devPtr, count, &m))
		return CUDA_ERROR_INVALID_VALUE;
	switch (advice) {
	case CU_MEM_ADVISE_SET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		return CUDA_SUCCESS;	/* the location is ignored */
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
	return cu_managed_location(&location);
}
