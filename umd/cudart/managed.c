// SPDX-License-Identifier: GPL-2.0
/*
 * Managed-memory hints: cudaStreamAttachMemAsync, cudaMemPrefetchAsync
 * and cudaMemAdvise (CUDA 13 forms, with a cudaMemLocation), on the
 * driver's calls of the same names.
 *
 * Managed memory here is pinned host memory that every device reaches
 * where it is (cudaMallocManaged, memory.c): it never migrates.  The
 * device reports no concurrent managed access
 * (cudaDevAttrConcurrentManagedAccess 0), and the hints behave as CUDA
 * documents for such a device - see umd/cuda/managed_hints.c: arguments
 * are checked, attachments and host prefetches succeed without moving
 * anything, a prefetch to or advice naming a device is
 * cudaErrorInvalidDevice.
 */
#include <stdint.h>

#include "cudart_internal.h"

/* The runtime's location is the driver's: same fields, same values. */
static CUmemLocation rt_location(struct cudaMemLocation loc)
{
	CUmemLocation l = {
		.type = (CUmemLocationType)loc.type,
		.id = loc.id,
	};

	return l;
}

_Static_assert((int)cudaMemLocationTypeDevice == CU_MEM_LOCATION_TYPE_DEVICE &&
	       (int)cudaMemLocationTypeHost == CU_MEM_LOCATION_TYPE_HOST &&
	       (int)cudaMemLocationTypeHostNuma == CU_MEM_LOCATION_TYPE_HOST_NUMA &&
	       (int)cudaMemLocationTypeHostNumaCurrent ==
	       CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT,
	       "memory location types");
_Static_assert((int)cudaMemAdviseSetReadMostly == CU_MEM_ADVISE_SET_READ_MOSTLY &&
	       (int)cudaMemAdviseUnsetAccessedBy == CU_MEM_ADVISE_UNSET_ACCESSED_BY,
	       "memory advice values");
_Static_assert(cudaMemAttachGlobal == CU_MEM_ATTACH_GLOBAL &&
	       cudaMemAttachHost == CU_MEM_ATTACH_HOST &&
	       cudaMemAttachSingle == CU_MEM_ATTACH_SINGLE,
	       "attach flags");

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
				     size_t length, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamAttachMemAsync(stream,
						   (CUdeviceptr)(uintptr_t)devPtr,
						   length, flags));
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
				 struct cudaMemLocation location,
				 unsigned int flags, cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPrefetchAsync((CUdeviceptr)(uintptr_t)devPtr,
					       count, rt_location(location),
					       flags, stream));
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
			  enum cudaMemoryAdvise advice,
			  struct cudaMemLocation location)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemAdvise((CUdeviceptr)(uintptr_t)devPtr, count,
					(CUmem_advise)advice,
					rt_location(location)));
}
