// SPDX-License-Identifier: GPL-2.0
/*
 * Page-locked ("pinned") host memory.
 *
 * The driver does the work: it allocates or pins the pages, enters them
 * into the device's GART and maps them at a GPU address equal to their
 * host address (unified addressing), so cudaHostGetDevicePointer()
 * returns the host pointer itself.  The runtime's part is CUDA's
 * argument rules, which differ slightly from the driver's; each check
 * below is one measured on real CUDA 13 (tools/cuda-probe/golden).
 * The cudaHostAlloc and cudaHostRegister flags have the values of the
 * driver's CU_MEMHOSTALLOC_* and CU_MEMHOSTREGISTER_* flags.
 */
#include <stdint.h>

#include "cudart_internal.h"

#define RT_HOST_ALLOC_FLAGS (cudaHostAllocPortable | cudaHostAllocMapped | \
			     cudaHostAllocWriteCombined)
#define RT_HOST_REGISTER_FLAGS (cudaHostRegisterPortable | \
				cudaHostRegisterMapped | \
				cudaHostRegisterIoMemory | \
				cudaHostRegisterReadOnly)

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	int dev;
	cudaError_t err;

	if (!pHost || (flags & ~RT_HOST_ALLOC_FLAGS))
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	if (size == 0) {
		*pHost = NULL;
		return cudaSuccess;
	}
	return rt_return_cu(cuMemHostAlloc(pHost, size, flags));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *ptr)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	if (!ptr)
		return cudaSuccess;
	return rt_return_cu(cuMemFreeHost(ptr));
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	int dev;
	cudaError_t err;

	if (!ptr || size == 0 || (flags & ~RT_HOST_REGISTER_FLAGS))
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuMemHostRegister(ptr, size, flags));
}

cudaError_t cudaHostUnregister(void *ptr)
{
	int dev;
	cudaError_t err;

	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuMemHostUnregister(ptr));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
				     unsigned int flags)
{
	CUdeviceptr d;
	int dev;
	cudaError_t err;

	/* flags is reserved and must be 0. */
	if (!pDevice || !pHost || flags)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	err = rt_return_cu(cuMemHostGetDevicePointer(&d, pHost, 0));
	if (err == cudaSuccess)
		*pDevice = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
	int dev;
	cudaError_t err;

	if (!pFlags || !pHost)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuMemHostGetFlags(pFlags, pHost));
}
