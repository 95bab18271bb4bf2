// SPDX-License-Identifier: GPL-2.0
/*
 * Managed-memory hints: cudaStreamAttachMemAsync, cudaMemPrefetchAsync
 * and cudaMemAdvise (CUDA 13 forms, with a cudaMemLocation), and the
 * queries of what was advised, cudaMemRangeGetAttribute(s), on the
 * driver's calls of the same names: umd/cuda/managed_hints.c says what
 * each hint does to where the blocks live, managed_advice.c what a query
 * answers.
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

_Static_assert((int)cudaMemRangeAttributeReadMostly ==
	       CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY &&
	       (int)cudaMemRangeAttributeLastPrefetchLocationId ==
	       CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
	       "memory range attributes");

cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize,
				     enum cudaMemRangeAttribute attribute,
				     const void *devPtr, size_t count)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemRangeGetAttribute(data, dataSize,
						   (CUmem_range_attribute)attribute,
						   (CUdeviceptr)(uintptr_t)devPtr,
						   count));
}

cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
				      enum cudaMemRangeAttribute *attributes,
				      size_t numAttributes, const void *devPtr,
				      size_t count)
{
	/* The enums have the driver's values (checked above). */
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemRangeGetAttributes(data, dataSizes,
						    (CUmem_range_attribute *)attributes,
						    numAttributes,
						    (CUdeviceptr)(uintptr_t)devPtr,
						    count));
}
