// SPDX-License-Identifier: GPL-2.0
/*
 * memset.c - cuMemsetD8/D16/D32 and their 2D and Async forms: MEMSET
 * packets on the stream's copy queue.
 */
#include "cuda_internal.h"

/* A memset on a capturing stream becomes a memset node. */
static CUresult cu_memset_capture(struct cu_stream *s, CUdeviceptr dst,
				  size_t pitch, uint32_t value,
				  unsigned int elem, size_t width,
				  size_t height, bool *recorded)
{
	CUDA_MEMSET_NODE_PARAMS node = {
		.dst = dst, .pitch = pitch, .value = value,
		.elementSize = elem, .width = width, .height = height,
	};

	return cu_capture_op(s, CU_GRAPH_NODE_TYPE_MEMSET, &node,
			     (CUcontext)s->ctx, recorded);
}

/*
 * @height rows of @width elements of @elem bytes, rows @pitch bytes apart
 * (1D: height 1).  One operation, one packet per row.
 */
static CUresult cu_memset(CUdeviceptr dst, size_t pitch, uint32_t value,
			  unsigned int elem, size_t width, size_t height,
			  CUstream h)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_op op;
	bool in_range, recorded;
	size_t row, span;
	uint64_t start;
	CUresult res = cu_stream_current(h, &ctx, &s);
	int ret = 0;

	if (res != CUDA_SUCCESS)
		return res;
	if (!width || !height)
		return CUDA_SUCCESS;
	if (dst % elem || (height > 1 && (pitch % elem || pitch < width * elem)))
		return CUDA_ERROR_INVALID_VALUE;
	span = (height - 1) * pitch + width * elem;
	if (cu_classify(dst, span, &in_range) == CU_WHERE_PAGEABLE || !in_range)
		return CUDA_ERROR_INVALID_VALUE;
	cu_san_written(dst, span);	/* vgpu-sanitizer's initcheck */
	res = cu_memset_capture(s, dst, pitch, value, elem, width, height,
				&recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	start = cu_prof_copy_begin();	/* vgpu-prof (profile.c) */
	res = cu_op_begin(s, CU_ENGINE_COPY, NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	for (row = 0; row < height && !ret; row++)
		ret = vgpu_emit_memset(op.queue->vq, dst + row * pitch, value,
				       elem, width, op.deadline);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	return cu_prof_copy_end(s, "memset", width * elem * height, start,
				cu_op_end(&op, NULL));
}

CU_EXPORT CUresult CUDAAPI cuMemsetD8(CUdeviceptr dst, unsigned char uc,
				      size_t N)
{
	return cu_memset(dst, 0, uc, 1, N, 1, NULL);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD16(CUdeviceptr dst, unsigned short us,
				       size_t N)
{
	return cu_memset(dst, 0, us, 2, N, 1, NULL);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD32(CUdeviceptr dst, unsigned int ui,
				       size_t N)
{
	return cu_memset(dst, 0, ui, 4, N, 1, NULL);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dst, unsigned char uc,
					   size_t N, CUstream h)
{
	return cu_memset(dst, 0, uc, 1, N, 1, h);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dst,
					    unsigned short us, size_t N,
					    CUstream h)
{
	return cu_memset(dst, 0, us, 2, N, 1, h);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dst, unsigned int ui,
					    size_t N, CUstream h)
{
	return cu_memset(dst, 0, ui, 4, N, 1, h);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr dst, size_t pitch,
					unsigned char uc, size_t w, size_t h)
{
	return cu_memset(dst, pitch, uc, 1, w, h, NULL);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr dst, size_t pitch,
					 unsigned short us, size_t w, size_t h)
{
	return cu_memset(dst, pitch, us, 2, w, h, NULL);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr dst, size_t pitch,
					 unsigned int ui, size_t w, size_t h)
{
	return cu_memset(dst, pitch, ui, 4, w, h, NULL);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch,
					     unsigned char uc, size_t w,
					     size_t h, CUstream s)
{
	return cu_memset(dst, pitch, uc, 1, w, h, s);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch,
					      unsigned short us, size_t w,
					      size_t h, CUstream s)
{
	return cu_memset(dst, pitch, us, 2, w, h, s);
}

CU_EXPORT CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch,
					      unsigned int ui, size_t w,
					      size_t h, CUstream s)
{
	return cu_memset(dst, pitch, ui, 4, w, h, s);
}
