// SPDX-License-Identifier: GPL-2.0
/*
 * api_rest.c - the rest of the driver API that NVIDIA's runtime asks
 * cuGetProcAddress for at start-up (it asks for the whole API; the list is
 * tools/cuda-probe/golden/trace-driver-programs.log): what vGPU can do is
 * implemented here on its existing functions; what needs hardware or a
 * graphics stack vGPU does not have answers CUDA_ERROR_NOT_SUPPORTED
 * (Documentation/export-tables.rst lists each).
 *
 * NVIDIA's driver finds every one of these names, so cuGetProcAddress
 * finds them too: a runtime that calls one gets an error it can report,
 * not a NULL pointer to jump to.
 */
#include <string.h>

#include "cuda_internal.h"

/* Deprecated (cuda.h still declares it): cuCtxDestroy with a use count. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CU_EXPORT CUresult CUDAAPI cuCtxDetach(CUcontext ctx)
{
	/* vGPU has no cuCtxAttach: every context has one user. */
	return cuCtxDestroy_v2(ctx);
}
#pragma GCC diagnostic pop

/*
 * GPUDirect RDMA writes from third-party devices: vGPU has none, so there
 * is never anything to flush; the arguments are checked as CUDA does.
 */
CU_EXPORT CUresult CUDAAPI cuFlushGPUDirectRDMAWrites(
		CUflushGPUDirectRDMAWritesTarget target,
		CUflushGPUDirectRDMAWritesScope scope)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ||
	    (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER &&
	     scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* The parameter layout of a kernel: that of its function in this context. */
CU_EXPORT CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel,
						size_t index, size_t *offset,
						size_t *size)
{
	CUfunction f;
	CUresult res = cuKernelGetFunction(&f, kernel);

	if (res != CUDA_SUCCESS)
		return res;
	return cuFuncGetParamInfo(f, index, offset, size);
}

/*
 * The attributes a stream can be given (l2_policy.c): the L2 access
 * policy window and the synchronisation policy.
 */
CU_EXPORT CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src)
{
	static const CUstreamAttrID ids[] = {
		CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW,
		CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY,
	};

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		CUstreamAttrValue v;
		CUresult res;

		memset(&v, 0, sizeof(v));
		res = cuStreamGetAttribute(src, ids[i], &v);
		if (res == CUDA_SUCCESS)
			res = cuStreamSetAttribute(dst, ids[i], &v);
		if (res != CUDA_SUCCESS)
			return res;
	}
	return CUDA_SUCCESS;
}

/*
 * CUDA 13's memory-pool calls by location: a device's pinned pool is the
 * device's pool of cuDeviceGetMemPool and friends; vGPU has no host or
 * managed pools.
 */
static CUresult pool_device(const CUmemLocation *loc, CUmemAllocationType type,
			    CUdevice *dev)
{
	if (!loc)
		return CUDA_ERROR_INVALID_VALUE;
	if (type != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    loc->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_NOT_SUPPORTED;
	*dev = loc->id;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool,
						  CUmemLocation *location,
						  CUmemAllocationType type)
{
	CUdevice dev;
	CUresult res = pool_device(location, type, &dev);

	return res == CUDA_SUCCESS ? cuDeviceGetDefaultMemPool(pool, dev) : res;
}

CU_EXPORT CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *pool,
					   CUmemLocation *location,
					   CUmemAllocationType type)
{
	CUdevice dev;
	CUresult res = pool_device(location, type, &dev);

	return res == CUDA_SUCCESS ? cuDeviceGetMemPool(pool, dev) : res;
}

CU_EXPORT CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *location,
					   CUmemAllocationType type,
					   CUmemoryPool pool)
{
	CUdevice dev;
	CUresult res = pool_device(location, type, &dev);

	return res == CUDA_SUCCESS ? cuDeviceSetMemPool(dev, pool) : res;
}

/*
 * Stream memory operations: a write is a memset of the value, ordered in
 * the stream like any other; waiting on a memory value needs the GPU's
 * front end to poll memory, which vGPU's does not do.
 */
CU_EXPORT CUresult CUDAAPI cuStreamWriteValue32(CUstream s, CUdeviceptr addr,
						cuuint32_t value,
						unsigned int flags)
{
	if (flags & ~(unsigned int)CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER)
		return CUDA_ERROR_INVALID_VALUE;
	if (addr & 3)
		return CUDA_ERROR_INVALID_VALUE;
	return cuMemsetD32Async(addr, value, 1, s);
}

CU_EXPORT CUresult CUDAAPI cuStreamWriteValue64(CUstream s, CUdeviceptr addr,
						cuuint64_t value,
						unsigned int flags)
{
	CUresult res;

	if (flags & ~(unsigned int)CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER)
		return CUDA_ERROR_INVALID_VALUE;
	if (addr & 7)
		return CUDA_ERROR_INVALID_VALUE;
	/* Little-endian: the low word first, then the high word. */
	res = cuMemsetD32Async(addr, (unsigned int)value, 1, s);
	if (res == CUDA_SUCCESS)
		res = cuMemsetD32Async(addr + 4, (unsigned int)(value >> 32), 1,
				       s);
	return res;
}

/* ---- found, and not supported ---------------------------------------------- */

static CUresult CUDAAPI not_supported(void)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

/*
 * Names NVIDIA's runtime asks for that need what vGPU does not have:
 * EGL, VDPAU and OpenGL-context interop (vGPU's GL interop is the buffer
 * and image registration of interop_gl.c), NvSciSync, the driver's log
 * API, sparse and planar arrays, texture and surface references (removed
 * from CUDA 12's runtime), waits on memory values, batched copies and
 * prefetches, device async notifications and the atomic-capability
 * queries of CUDA 13.  Sorted.
 */
static const char *const unsupported_names[] = {
	"cuArrayGetMemoryRequirements",
	"cuArrayGetPlane",
	"cuArrayGetSparseProperties",
	"cuDeviceGetHostAtomicCapabilities",
	"cuDeviceGetNvSciSyncAttributes",
	"cuDeviceGetP2PAtomicCapabilities",
	"cuDeviceGetTexture1DLinearMaxWidth",
	"cuDeviceRegisterAsyncNotification",
	"cuDeviceUnregisterAsyncNotification",
	"cuEGLStreamConsumerAcquireFrame",
	"cuEGLStreamConsumerConnect",
	"cuEGLStreamConsumerConnectWithFlags",
	"cuEGLStreamConsumerDisconnect",
	"cuEGLStreamConsumerReleaseFrame",
	"cuEGLStreamProducerConnect",
	"cuEGLStreamProducerDisconnect",
	"cuEGLStreamProducerPresentFrame",
	"cuEGLStreamProducerReturnFrame",
	"cuGLCtxCreate",
	"cuGLInit",
	"cuGLMapBufferObject",
	"cuGLMapBufferObjectAsync",
	"cuGLRegisterBufferObject",
	"cuGLSetBufferObjectMapFlags",
	"cuGLUnmapBufferObject",
	"cuGLUnmapBufferObjectAsync",
	"cuGLUnregisterBufferObject",
	"cuGraphicsEGLRegisterImage",
	"cuGraphicsResourceGetMappedEglFrame",
	"cuGraphicsVDPAURegisterOutputSurface",
	"cuGraphicsVDPAURegisterVideoSurface",
	"cuLogsCurrent",
	"cuLogsDumpToFile",
	"cuLogsDumpToMemory",
	"cuLogsRegisterCallback",
	"cuLogsUnregisterCallback",
	"cuMemDiscardAndPrefetchBatchAsync",
	"cuMemDiscardBatchAsync",
	"cuMemPrefetchBatchAsync",
	"cuMemRangeGetAttribute",
	"cuMemRangeGetAttributes",
	"cuMemcpy3DBatchAsync",
	"cuMemcpyBatchAsync",
	"cuMipmappedArrayGetMemoryRequirements",
	"cuMipmappedArrayGetSparseProperties",
	"cuModuleGetSurfRef",
	"cuModuleGetTexRef",
	"cuProfilerInitialize",
	"cuStreamBatchMemOp",
	"cuStreamWaitValue32",
	"cuStreamWaitValue64",
	"cuVDPAUCtxCreate",
	"cuVDPAUGetDevice",
};

/* The stand-in for @name if it is one of the names above, else NULL. */
void *cu_proc_unsupported(const char *name)
{
	size_t lo = 0, hi = sizeof(unsupported_names) /
			    sizeof(unsupported_names[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, unsupported_names[mid]);

		if (!c)
			return (void *)not_supported;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
