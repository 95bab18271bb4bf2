// SPDX-License-Identifier: GPL-2.0
/*
 * mem_pool_api.c - stream-ordered allocation: cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync.
 *
 * The allocation itself happens at once, on the host: the block is
 * chosen so that no earlier user of it can still run after the stream's
 * next operation (mem_pool_alloc.c), so nothing is queued on the device.
 * The free is queued in the sense that matters: the block stays out of
 * reach of other streams until the device passes the point where the
 * stream stood when it was freed.
 *
 * Allocations and frees in a stream capture become graph memory nodes
 * (graph_mem.c, stream_capture.c).
 */
#include "mem_pool.h"

static CUresult cu_alloc_async(CUdeviceptr *dptr, size_t size,
			       CUmemoryPool pool, bool from_pool,
			       CUstream hStream)
{
	struct cu_mem_pool *p = NULL;
	struct cu_ctx *ctx;
	struct cu_stream *s;
	bool recorded;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	if (from_pool) {
		pthread_mutex_lock(&cu_pool_lock);
		p = cu_pool_lookup(pool);
		pthread_mutex_unlock(&cu_pool_lock);
		/*
		 * Another device's pool would need peer access; another
		 * process's pool is only for its pointers (CUDA's rule).
		 */
		if (!p || p->dev != ctx->dev || p->imported)
			return CUDA_ERROR_INVALID_VALUE;
	} else {
		res = cu_pool_current(ctx->dev, &p);
		if (res != CUDA_SUCCESS)
			return res;
	}
	/* In a capture: a graph allocation node (graph_mem.c). */
	res = cu_capture_mem_alloc(s, size, dptr, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	/* Measured: zero bytes succeed; the pointer is NULL here. */
	if (!size) {
		*dptr = 0;
		return CUDA_SUCCESS;
	}
	return cu_pool_alloc(p, s, size, dptr);
}

CU_EXPORT CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize,
					   CUstream hStream)
{
	return cu_alloc_async(dptr, bytesize, NULL, false, hStream);
}

CU_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr,
						   size_t bytesize,
						   CUmemoryPool pool,
						   CUstream hStream)
{
	return cu_alloc_async(dptr, bytesize, pool, true, hStream);
}

CU_EXPORT CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	bool recorded;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr)
		return CUDA_SUCCESS;
	/* In a capture: a graph free node (graph_mem.c). */
	res = cu_capture_mem_free(s, dptr, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	/* Graph memory goes back to its graph, not to a pool. */
	if (cu_graph_alloc_known(dptr)) {
		cu_graph_alloc_free_ptr(dptr);
		return CUDA_SUCCESS;
	}
	res = cu_pool_free(dptr, s);
	if (res != CUDA_ERROR_NOT_FOUND)
		return res;
	/*
	 * Not pool memory: an H100 frees cuMemAlloc's memory too.  Waiting
	 * for the stream first is a correct order for it.
	 */
	res = cu_stream_sync(s);
	if (res != CUDA_SUCCESS)
		return res;
	return cuMemFree(dptr);
}
