// SPDX-License-Identifier: GPL-2.0
/*
 * Memory pools and stream-ordered allocation from a pool: the runtime's
 * cudaMemPool*, cudaMallocFromPoolAsync and the device's default and
 * current pool, each a thin layer over the driver's cuMemPool* (whose
 * handles, properties and access descriptors have the same layout as the
 * runtime's).  cudaMallocAsync and cudaFreeAsync are in memory.c.
 */
#include <stdint.h>

#include "cudart_internal.h"

static CUmemoryPool rt_pool(cudaMemPool_t p)
{
	return (CUmemoryPool)p;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
			      const struct cudaMemPoolProps *poolProps)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolCreate((CUmemoryPool *)memPool,
					    (const CUmemPoolProps *)poolProps));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolDestroy(rt_pool(memPool)));
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
				    enum cudaMemPoolAttr attr, void *value)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolSetAttribute(rt_pool(memPool),
						  (CUmemPool_attribute)attr,
						  value));
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
				    enum cudaMemPoolAttr attr, void *value)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolGetAttribute(rt_pool(memPool),
						  (CUmemPool_attribute)attr,
						  value));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolTrimTo(rt_pool(memPool), minBytesToKeep));
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
				 const struct cudaMemAccessDesc *descList,
				 size_t count)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolSetAccess(rt_pool(memPool),
					       (const CUmemAccessDesc *)descList,
					       count));
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
				 cudaMemPool_t memPool,
				 struct cudaMemLocation *location)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolGetAccess((CUmemAccess_flags *)flags,
					       rt_pool(memPool),
					       (CUmemLocation *)location));
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
				    cudaMemPool_t memPool, cudaStream_t stream)
{
	CUdeviceptr d;
	cudaError_t err;

	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuMemAllocFromPoolAsync(&d, size, rt_pool(memPool),
						   (CUstream)stream));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	return rt_return_cu(cuDeviceGetDefaultMemPool((CUmemoryPool *)memPool,
						      (CUdevice)device));
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	return rt_return_cu(cuDeviceGetMemPool((CUmemoryPool *)memPool,
					       (CUdevice)device));
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	return rt_return_cu(cuDeviceSetMemPool((CUdevice)device,
					       rt_pool(memPool)));
}

/* No pool can be shared with another process (libcuda's mem_pool.c). */
cudaError_t cudaMemPoolExportToShareableHandle(
	void *shareableHandle, cudaMemPool_t memPool,
	enum cudaMemAllocationHandleType handleType, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolExportToShareableHandle(shareableHandle,
			rt_pool(memPool), (CUmemAllocationHandleType)handleType,
			flags));
}

cudaError_t cudaMemPoolImportFromShareableHandle(
	cudaMemPool_t *memPool, void *shareableHandle,
	enum cudaMemAllocationHandleType handleType, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolImportFromShareableHandle(
			(CUmemoryPool *)memPool, shareableHandle,
			(CUmemAllocationHandleType)handleType, flags));
}

cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData,
				     void *ptr)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemPoolExportPointer(
			(CUmemPoolPtrExportData *)exportData,
			(CUdeviceptr)(uintptr_t)ptr));
}

cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
				     struct cudaMemPoolPtrExportData *exportData)
{
	CUdeviceptr d;
	cudaError_t err;

	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuMemPoolImportPointer(&d, rt_pool(memPool),
			(CUmemPoolPtrExportData *)exportData));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)d;
	return err;
}
