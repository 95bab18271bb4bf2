// SPDX-License-Identifier: GPL-2.0
/*
 * copy_2d.c - cuMemcpy2D: a rectangle of rows between pitched buffers.
 *
 * Each row is an ordinary copy (copy.c) on the same stream, so rows go
 * by DMA where both sides are device-visible and through the bounce
 * buffers where one side is pageable.  Rectangles whose rows are
 * contiguous on both sides are one copy.  CUDA arrays do not exist on
 * this device.
 */
#include "cuda_internal.h"

/* The address of byte (x, y) of one side, or 0 for an unusable side. */
static uint64_t cu_2d_side(CUmemorytype type, const void *host,
			   CUdeviceptr dev, size_t x, size_t y, size_t pitch)
{
	uint64_t base;

	switch (type) {
	case CU_MEMORYTYPE_HOST:
		base = (uintptr_t)host;
		break;
	case CU_MEMORYTYPE_DEVICE:
	case CU_MEMORYTYPE_UNIFIED:
		base = dev;
		break;
	default:
		return 0;	/* arrays */
	}
	return base ? base + y * pitch + x : 0;
}

static CUresult cu_memcpy_2d(const CUDA_MEMCPY2D *c, CUstream h, bool async)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	uint64_t src, dst;
	CUresult res = cu_ctx_get(&ctx);
	size_t row;

	if (res != CUDA_SUCCESS)
		return res;
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_stream_resolve(ctx, h, &s);
	if (res != CUDA_SUCCESS)
		return res;
	if (!c->WidthInBytes || !c->Height)
		return CUDA_SUCCESS;
	if (c->Height > 1 && (c->srcPitch < c->WidthInBytes + c->srcXInBytes ||
			      c->dstPitch < c->WidthInBytes + c->dstXInBytes))
		return CUDA_ERROR_INVALID_VALUE;
	src = cu_2d_side(c->srcMemoryType, c->srcHost, c->srcDevice,
			 c->srcXInBytes, c->srcY, c->srcPitch);
	dst = cu_2d_side(c->dstMemoryType, c->dstHost, c->dstDevice,
			 c->dstXInBytes, c->dstY, c->dstPitch);
	if (!src || !dst)
		return CUDA_ERROR_INVALID_VALUE;
	if (c->srcPitch == c->WidthInBytes && c->dstPitch == c->WidthInBytes)
		return cu_copy(s, dst, src, c->WidthInBytes * c->Height, !async);
	for (row = 0; row < c->Height && res == CUDA_SUCCESS; row++)
		res = cu_copy(s, dst + row * c->dstPitch, src + row * c->srcPitch,
			      c->WidthInBytes, false);
	if (res == CUDA_SUCCESS && !async)
		res = cu_stream_sync(s);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D *pCopy)
{
	return cu_memcpy_2d(pCopy, NULL, false);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy)
{
	return cu_memcpy_2d(pCopy, NULL, false);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy,
					   CUstream hStream)
{
	return cu_memcpy_2d(pCopy, hStream, true);
}
