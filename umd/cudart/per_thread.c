// SPDX-License-Identifier: GPL-2.0
/*
 * Entry points of programs compiled with `nvcc --default-stream
 * per-thread`.
 *
 * That option defines CUDA_API_PER_THREAD_DEFAULT_STREAM, and the
 * toolkit's header then renames the calls that involve the default
 * stream: cudaMemcpyAsync becomes cudaMemcpyAsync_ptsz ("per-thread
 * stream zero"), cudaMemcpy becomes cudaMemcpy_ptds ("per-thread default
 * stream").  In those programs stream 0 means the calling thread's own
 * default stream, cudaStreamPerThread, instead of the legacy stream that
 * synchronizes with every other blocking stream.
 *
 * Each function here is the plain one with that substitution:
 *
 *   - _ptsz: the stream argument 0 becomes cudaStreamPerThread;
 *   - _ptds: the synchronous operation is queued on cudaStreamPerThread
 *     and waited for, which is what "synchronous on the per-thread
 *     stream" means.
 *
 * Each is declared with __typeof__ of its plain twin, so the compiler
 * checks that the signatures agree (the toolkit declares both with the
 * same parameters).
 */
#include "cudart_abi.h"
#include "cudart_internal.h"

static cudaStream_t rt_ptsz(cudaStream_t stream)
{
	return stream ? stream : cudaStreamPerThread;
}

static cudaError_t rt_ptds_wait(cudaError_t queued)
{
	if (queued != cudaSuccess)
		return queued;
	return cudaStreamSynchronize(cudaStreamPerThread);
}

#define RT_PER_THREAD(name, suffix) __typeof__(name) name##suffix

RT_PER_THREAD(cudaMemcpy, _ptds);
RT_PER_THREAD(cudaMemcpyToSymbol, _ptds);
RT_PER_THREAD(cudaMemcpyFromSymbol, _ptds);
RT_PER_THREAD(cudaMemcpy2D, _ptds);
RT_PER_THREAD(cudaMemset, _ptds);
RT_PER_THREAD(cudaMemset2D, _ptds);
RT_PER_THREAD(cudaMemcpyAsync, _ptsz);
RT_PER_THREAD(cudaMemcpyToSymbolAsync, _ptsz);
RT_PER_THREAD(cudaMemcpyFromSymbolAsync, _ptsz);
RT_PER_THREAD(cudaMemcpy2DAsync, _ptsz);
RT_PER_THREAD(cudaMemsetAsync, _ptsz);
RT_PER_THREAD(cudaMemset2DAsync, _ptsz);
RT_PER_THREAD(cudaStreamQuery, _ptsz);
RT_PER_THREAD(cudaStreamSynchronize, _ptsz);
RT_PER_THREAD(cudaStreamGetFlags, _ptsz);
RT_PER_THREAD(cudaStreamGetId, _ptsz);
RT_PER_THREAD(cudaStreamGetPriority, _ptsz);
RT_PER_THREAD(cudaStreamGetAttribute, _ptsz);
RT_PER_THREAD(cudaStreamSetAttribute, _ptsz);
RT_PER_THREAD(cudaStreamWaitEvent, _ptsz);
RT_PER_THREAD(cudaStreamAddCallback, _ptsz);
RT_PER_THREAD(cudaEventRecord, _ptsz);
RT_PER_THREAD(cudaEventRecordWithFlags, _ptsz);
RT_PER_THREAD(cudaLaunchKernel, _ptsz);
RT_PER_THREAD(cudaLaunchHostFunc, _ptsz);
RT_PER_THREAD(cudaMallocAsync, _ptsz);
RT_PER_THREAD(cudaFreeAsync, _ptsz);
RT_PER_THREAD(cudaMallocFromPoolAsync, _ptsz);
RT_PER_THREAD(cudaGetDriverEntryPointByVersion, _ptsz);

/* --- synchronous calls on the per-thread default stream ------------------- */

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(cudaMemcpyAsync(dst, src, count, kind,
					    cudaStreamPerThread));
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(cudaMemcpyToSymbolAsync(symbol, src, count, offset,
						    kind, cudaStreamPerThread));
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(cudaMemcpyFromSymbolAsync(dst, symbol, count,
						      offset, kind,
						      cudaStreamPerThread));
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind)
{
	return rt_ptds_wait(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width,
					      height, kind,
					      cudaStreamPerThread));
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return rt_ptds_wait(cudaMemsetAsync(devPtr, value, count,
					    cudaStreamPerThread));
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height)
{
	return rt_ptds_wait(cudaMemset2DAsync(devPtr, pitch, value, width,
					      height, cudaStreamPerThread));
}

/* --- stream 0 is the per-thread stream ------------------------------------ */

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyAsync(dst, src, count, kind, rt_ptsz(stream));
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
					 size_t count, size_t offset,
					 enum cudaMemcpyKind kind,
					 cudaStream_t stream)
{
	return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind,
				       rt_ptsz(stream));
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
					   size_t count, size_t offset,
					   enum cudaMemcpyKind kind,
					   cudaStream_t stream)
{
	return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind,
					 rt_ptsz(stream));
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
				   size_t spitch, size_t width, size_t height,
				   enum cudaMemcpyKind kind,
				   cudaStream_t stream)
{
	return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
				 rt_ptsz(stream));
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
				 cudaStream_t stream)
{
	return cudaMemsetAsync(devPtr, value, count, rt_ptsz(stream));
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
				   size_t width, size_t height,
				   cudaStream_t stream)
{
	return cudaMemset2DAsync(devPtr, pitch, value, width, height,
				 rt_ptsz(stream));
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return cudaStreamQuery(rt_ptsz(stream));
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return cudaStreamSynchronize(rt_ptsz(stream));
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
	return cudaStreamGetFlags(rt_ptsz(hStream), flags);
}

cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream,
				 unsigned long long *streamId)
{
	return cudaStreamGetId(rt_ptsz(hStream), streamId);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
	return cudaStreamGetPriority(rt_ptsz(hStream), priority);
}

cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream,
				       cudaStreamAttrID attr,
				       cudaStreamAttrValue *value)
{
	return cudaStreamGetAttribute(rt_ptsz(hStream), attr, value);
}

cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t hStream,
				       cudaStreamAttrID attr,
				       const cudaStreamAttrValue *value)
{
	return cudaStreamSetAttribute(rt_ptsz(hStream), attr, value);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
				     unsigned int flags)
{
	return cudaStreamWaitEvent(rt_ptsz(stream), event, flags);
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
				       cudaStreamCallback_t callback,
				       void *userData, unsigned int flags)
{
	return cudaStreamAddCallback(rt_ptsz(stream), callback, userData,
				     flags);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	return cudaEventRecord(event, rt_ptsz(stream));
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event,
					  cudaStream_t stream,
					  unsigned int flags)
{
	return cudaEventRecordWithFlags(event, rt_ptsz(stream), flags);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args, size_t sharedMem,
				  cudaStream_t stream)
{
	return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem,
				rt_ptsz(stream));
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
				    void *userData)
{
	return cudaLaunchHostFunc(rt_ptsz(stream), fn, userData);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size,
				 cudaStream_t hStream)
{
	return cudaMallocAsync(devPtr, size, rt_ptsz(hStream));
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	return cudaFreeAsync(devPtr, rt_ptsz(hStream));
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
					 cudaMemPool_t memPool,
					 cudaStream_t stream)
{
	return cudaMallocFromPoolAsync(ptr, size, memPool, rt_ptsz(stream));
}

/*
 * No stream involved: renamed by the header all the same.  The first is
 * deprecated, so it is declared here rather than by __typeof__ (which
 * would count as a use).
 */
cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
		unsigned long long flags,
		enum cudaDriverEntryPointQueryResult *driverStatus);

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
		unsigned long long flags,
		enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return cudaGetDriverEntryPointByVersion(symbol, funcPtr, CUDART_VERSION,
						flags, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol,
		void **funcPtr, unsigned int cudaVersion,
		unsigned long long flags,
		enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return cudaGetDriverEntryPointByVersion(symbol, funcPtr, cudaVersion,
						flags, driverStatus);
}

/* --- 3D memory and managed-memory hints ----------------------------------- */

RT_PER_THREAD(cudaMemcpy3D, _ptds);
RT_PER_THREAD(cudaMemcpy3DPeer, _ptds);
RT_PER_THREAD(cudaMemset3D, _ptds);
RT_PER_THREAD(cudaMemcpy3DAsync, _ptsz);
RT_PER_THREAD(cudaMemcpy3DPeerAsync, _ptsz);
RT_PER_THREAD(cudaMemset3DAsync, _ptsz);
RT_PER_THREAD(cudaStreamAttachMemAsync, _ptsz);
RT_PER_THREAD(cudaMemPrefetchAsync, _ptsz);

cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
	return rt_ptds_wait(cudaMemcpy3DAsync(p, cudaStreamPerThread));
}

cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
	return rt_ptds_wait(cudaMemcpy3DPeerAsync(p, cudaStreamPerThread));
}

cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
				       cudaStream_t stream)
{
	return cudaMemcpy3DPeerAsync(p, rt_ptsz(stream));
}

cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
			      struct cudaExtent extent)
{
	return rt_ptds_wait(cudaMemset3DAsync(pitchedDevPtr, value, extent,
					      cudaStreamPerThread));
}

cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
				   cudaStream_t stream)
{
	return cudaMemcpy3DAsync(p, rt_ptsz(stream));
}

cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr,
				   int value, struct cudaExtent extent,
				   cudaStream_t stream)
{
	return cudaMemset3DAsync(pitchedDevPtr, value, extent,
				 rt_ptsz(stream));
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
					  size_t length, unsigned int flags)
{
	return cudaStreamAttachMemAsync(rt_ptsz(stream), devPtr, length, flags);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
				      struct cudaMemLocation location,
				      unsigned int flags, cudaStream_t stream)
{
	return cudaMemPrefetchAsync(devPtr, count, location, flags,
				    rt_ptsz(stream));
}
