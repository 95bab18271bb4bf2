// SPDX-License-Identifier: GPL-2.0
/*
 * External memory and semaphores in the runtime: cudaImportExternal*,
 * cudaExternalMemoryGetMapped*, cudaSignal/WaitExternalSemaphoresAsync,
 * cudaDestroyExternal*.
 *
 * The runtime's handles are the driver's, and libcuda does the work
 * (umd/cuda/interop_ext.c, interop_sem.c).  The memory descriptors have
 * the driver's fields but are declared apart, so each is copied field by
 * field; the runtime's mipmapped-array descriptor gives a channel format
 * and an extent where the driver's has an array descriptor.  The
 * semaphore parameters are the driver's structs, asserted field by field,
 * and pass through as they are.
 */
#include <stddef.h>
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

/* The handle types have the driver's values (1 = OPAQUE_FD, ...). */
_Static_assert((int)cudaExternalMemoryHandleTypeOpaqueFd ==
	       (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD &&
	       (int)cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd ==
	       (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD,
	       "the runtime's handle types are the driver's");

cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
	const struct cudaExternalMemoryHandleDesc *memHandleDesc)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;

	RT_ENTER_OR_RETURN();
	if (!memHandleDesc)
		return rt_return(cudaErrorInvalidValue);
	memset(&d, 0, sizeof(d));
	d.type = (CUexternalMemoryHandleType)memHandleDesc->type;
	d.handle.win32.handle = memHandleDesc->handle.win32.handle;
	d.handle.win32.name = memHandleDesc->handle.win32.name;
	d.handle.fd = memHandleDesc->handle.fd;	/* the union's first int */
	d.size = memHandleDesc->size;
	d.flags = memHandleDesc->flags;
	return rt_return_cu(cuImportExternalMemory(
		(CUexternalMemory *)extMem_out, &d));
}

cudaError_t cudaExternalMemoryGetMappedBuffer(void **devPtr,
	cudaExternalMemory_t extMem,
	const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC d;
	CUdeviceptr p = 0;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!bufferDesc)
		return rt_return(cudaErrorInvalidValue);
	memset(&d, 0, sizeof(d));
	d.offset = bufferDesc->offset;
	d.size = bufferDesc->size;
	d.flags = bufferDesc->flags;
	r = cuExternalMemoryGetMappedBuffer(devPtr ? &p : NULL,
					    (CUexternalMemory)extMem, &d);
	if (r == CUDA_SUCCESS)
		*devPtr = (void *)(uintptr_t)p;
	return rt_return_cu(r);
}

cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
	cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
	const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)
{
	CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;

	RT_ENTER_OR_RETURN();
	if (!mipmapDesc)
		return rt_return(cudaErrorInvalidValue);
	memset(&d, 0, sizeof(d));
	if (!rt_desc_format(&mipmapDesc->formatDesc, &d.arrayDesc.Format,
			    &d.arrayDesc.NumChannels))
		return rt_return(cudaErrorInvalidChannelDescriptor);
	d.offset = mipmapDesc->offset;
	d.arrayDesc.Width = mipmapDesc->extent.width;
	d.arrayDesc.Height = mipmapDesc->extent.height;
	d.arrayDesc.Depth = mipmapDesc->extent.depth;
	d.arrayDesc.Flags = mipmapDesc->flags;
	d.numLevels = mipmapDesc->numLevels;
	return rt_return_cu(cuExternalMemoryGetMappedMipmappedArray(
		(CUmipmappedArray *)mipmap, (CUexternalMemory)extMem, &d));
}

cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t extMem)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuDestroyExternalMemory((CUexternalMemory)extMem));
}

cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
	const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;

	RT_ENTER_OR_RETURN();
	if (!semHandleDesc)
		return rt_return(cudaErrorInvalidValue);
	memset(&d, 0, sizeof(d));
	d.type = (CUexternalSemaphoreHandleType)semHandleDesc->type;
	d.handle.win32.handle = semHandleDesc->handle.win32.handle;
	d.handle.win32.name = semHandleDesc->handle.win32.name;
	d.handle.fd = semHandleDesc->handle.fd;
	d.flags = semHandleDesc->flags;
	return rt_return_cu(cuImportExternalSemaphore(
		(CUexternalSemaphore *)extSem_out, &d));
}

/*
 * The runtime's semaphore parameters are the driver's, field for field
 * (asserted below, one line per field): both directions take one path,
 * the driver's (umd/cuda/interop_sem.c), with the caller's arrays as they
 * are, and the graph nodes (graph_extsem.c) hand the driver's arrays back
 * as the runtime's.
 */
#define RT_SAME_FIELD(rt, cu, f)					\
	_Static_assert(offsetof(rt, f) == offsetof(cu, f) &&		\
		       sizeof(((rt *)0)->f) == sizeof(((cu *)0)->f),	\
		       #rt "." #f " is the driver's")
#define RT_SAME_SIZE(rt, cu)						\
	_Static_assert(sizeof(rt) == sizeof(cu), #rt " is the driver's")

RT_SAME_SIZE(struct cudaExternalSemaphoreSignalParams,
	     CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS);
RT_SAME_FIELD(struct cudaExternalSemaphoreSignalParams,
	      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, params.fence.value);
RT_SAME_FIELD(struct cudaExternalSemaphoreSignalParams,
	      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, params.nvSciSync.fence);
RT_SAME_FIELD(struct cudaExternalSemaphoreSignalParams,
	      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, params.keyedMutex.key);
RT_SAME_FIELD(struct cudaExternalSemaphoreSignalParams,
	      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, flags);
RT_SAME_SIZE(struct cudaExternalSemaphoreWaitParams,
	     CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS);
RT_SAME_FIELD(struct cudaExternalSemaphoreWaitParams,
	      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, params.fence.value);
RT_SAME_FIELD(struct cudaExternalSemaphoreWaitParams,
	      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, params.nvSciSync.fence);
RT_SAME_FIELD(struct cudaExternalSemaphoreWaitParams,
	      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, params.keyedMutex.key);
RT_SAME_FIELD(struct cudaExternalSemaphoreWaitParams,
	      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
	      params.keyedMutex.timeoutMs);
RT_SAME_FIELD(struct cudaExternalSemaphoreWaitParams,
	      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, flags);

cudaError_t cudaSignalExternalSemaphoresAsync(
	const cudaExternalSemaphore_t *extSemArray,
	const struct cudaExternalSemaphoreSignalParams *paramsArray,
	unsigned int numExtSems, cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuSignalExternalSemaphoresAsync(
		(const CUexternalSemaphore *)extSemArray,
		(const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)paramsArray,
		numExtSems, (CUstream)stream));
}

cudaError_t cudaWaitExternalSemaphoresAsync(
	const cudaExternalSemaphore_t *extSemArray,
	const struct cudaExternalSemaphoreWaitParams *paramsArray,
	unsigned int numExtSems, cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuWaitExternalSemaphoresAsync(
		(const CUexternalSemaphore *)extSemArray,
		(const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)paramsArray,
		numExtSems, (CUstream)stream));
}

cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuDestroyExternalSemaphore(
		(CUexternalSemaphore)extSem));
}

/* nvcc --default-stream per-thread: stream 0 is the thread's own. */
__typeof__(cudaSignalExternalSemaphoresAsync)
	cudaSignalExternalSemaphoresAsync_ptsz;
__typeof__(cudaWaitExternalSemaphoresAsync)
	cudaWaitExternalSemaphoresAsync_ptsz;

cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(
	const cudaExternalSemaphore_t *extSemArray,
	const struct cudaExternalSemaphoreSignalParams *paramsArray,
	unsigned int numExtSems, cudaStream_t stream)
{
	return cudaSignalExternalSemaphoresAsync(extSemArray, paramsArray,
		numExtSems, stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(
	const cudaExternalSemaphore_t *extSemArray,
	const struct cudaExternalSemaphoreWaitParams *paramsArray,
	unsigned int numExtSems, cudaStream_t stream)
{
	return cudaWaitExternalSemaphoresAsync(extSemArray, paramsArray,
		numExtSems, stream ? stream : cudaStreamPerThread);
}
