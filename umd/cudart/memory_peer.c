// SPDX-License-Identifier: GPL-2.0
/*
 * Copies between the memory of two devices: cudaMemcpyPeer and
 * cudaMemcpyPeerAsync, on the driver's cuMemcpyPeer between the two
 * devices' primary contexts.
 *
 * The devices of this stack cannot reach each other's memory (peer.c:
 * cudaDeviceCanAccessPeer answers 0), so the driver stages the bytes
 * through pinned host memory with both devices' copy engines
 * (umd/cuda/copy_peer.c).  A plain cudaMemcpy with cudaMemcpyDefault or
 * cudaMemcpyDeviceToDevice between the two devices' allocations takes the
 * same path: with unified addressing the pointers say where they are.
 */
#include <stdint.h>

#include "cudart_internal.h"

static cudaError_t rt_memcpy_peer(void *dst, int dstDevice, const void *src,
				  int srcDevice, size_t count,
				  CUstream stream, bool async)
{
	CUcontext dctx, sctx;
	int dev;
	cudaError_t err = rt_check_device(dstDevice);

	if (err == cudaSuccess)
		err = rt_check_device(srcDevice);
	if (err == cudaSuccess)
		err = rt_enter(&dev);
	if (err == cudaSuccess)
		err = rt_primary_context(dstDevice, &dctx);
	if (err == cudaSuccess)
		err = rt_primary_context(srcDevice, &sctx);
	if (err != cudaSuccess || count == 0)
		return err;
	return rt_error_from_cu(async ?
		cuMemcpyPeerAsync((CUdeviceptr)(uintptr_t)dst, dctx,
				  (CUdeviceptr)(uintptr_t)src, sctx, count,
				  stream) :
		cuMemcpyPeer((CUdeviceptr)(uintptr_t)dst, dctx,
			     (CUdeviceptr)(uintptr_t)src, sctx, count));
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
			   int srcDevice, size_t count)
{
	return rt_return(rt_memcpy_peer(dst, dstDevice, src, srcDevice, count,
					NULL, false));
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
				int srcDevice, size_t count,
				cudaStream_t stream)
{
	return rt_return(rt_memcpy_peer(dst, dstDevice, src, srcDevice, count,
					stream, true));
}
