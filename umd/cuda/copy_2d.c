// SPDX-License-Identifier: GPL-2.0
/*
 * copy_2d.c - cuMemcpy2D: a rectangle of rows between pitched buffers.
 *
 * A rectangle is a box one slice deep (copy_3d.c): one COPY packet per
 * row, all in one stream operation, where both sides are device-visible;
 * one copy when the rows are contiguous on both sides; an ordinary copy
 * per row (staged through the bounce buffers) where a side is pageable.
 * A side that is a CUDA array makes it a block-linear copy (copy_array.c).
 */
#include "array.h"
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
		return 0;	/* unknown memory types */
	}
	return base ? base + y * pitch + x : 0;
}

static CUresult cu_memcpy_2d(const CUDA_MEMCPY2D *c, CUstream h, bool async)
{
	struct cu_copy_box b = { .depth = 1 };
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_stream_resolve(ctx, h, &s);
	if (res != CUDA_SUCCESS)
		return res;
	if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
	    c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
		return cu_memcpy_2d_array(s, c, !async);
	if (!c->WidthInBytes || !c->Height)
		return CUDA_SUCCESS;
	if (c->Height > 1 && (c->srcPitch < c->WidthInBytes + c->srcXInBytes ||
			      c->dstPitch < c->WidthInBytes + c->dstXInBytes))
		return CUDA_ERROR_INVALID_VALUE;
	b.src = cu_2d_side(c->srcMemoryType, c->srcHost, c->srcDevice,
			   c->srcXInBytes, c->srcY, c->srcPitch);
	b.dst = cu_2d_side(c->dstMemoryType, c->dstHost, c->dstDevice,
			   c->dstXInBytes, c->dstY, c->dstPitch);
	if (!b.src || !b.dst)
		return CUDA_ERROR_INVALID_VALUE;
	b.src_pitch = c->srcPitch;
	b.dst_pitch = c->dstPitch;
	b.width = c->WidthInBytes;
	b.height = c->Height;
	return cu_copy_box(s, &b, !async);
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
