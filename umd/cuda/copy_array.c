// SPDX-License-Identifier: GPL-2.0
/*
 * copy_array.c - copies with a CUDA array on one side or both: the array
 * sides of cuMemcpy2D/3D and cuMemcpyAtoH, HtoA, AtoD, DtoA, AtoA.
 *
 * Only the copy engine knows the block-linear layout: each box between
 * an array and pitch-linear memory it reaches (VRAM of the stream's
 * context, pinned host memory) is one VGPU_PKT_COPY_TILED, which
 * converts as it copies.  The other cases go through a linear VRAM
 * buffer of the box, and wait for the copy (as CUDA's copies with
 * pageable memory do):
 *
 *   pageable host -> array   host --(ordinary copy)--> tmp --TILED--> array
 *   array -> pageable host   array --TILED--> tmp --(ordinary copy)--> host
 *   array -> array           src --TILED--> tmp --TILED--> dst  (one op)
 *
 * Arrays are used by the context that made them: a copy on a stream of
 * another context, or with linear memory of another context, is refused
 * with CUDA_ERROR_INVALID_VALUE.  During stream capture an asynchronous
 * copy becomes a memcpy node with its array sides (cu_array_capture);
 * the graph replays it with cuMemcpy3DAsync (graph_launch.c).
 */
#include <string.h>

#include "array.h"
#include "cuda_internal.h"

/* Whether the array box of side @sd lies inside its array, in elements. */
static bool cu_array_box_ok(const struct cu_copy_side *sd, size_t w, size_t h,
			    size_t d)
{
	const struct cu_array *a = sd->array;
	const struct vgpu_bl_layout *l = &a->layout;

	return sd->x % a->elem_size == 0 && w % a->elem_size == 0 &&
	       sd->x <= l->row_bytes && w <= l->row_bytes - sd->x &&
	       sd->y <= l->height && h <= l->height - sd->y &&
	       sd->z <= l->depth && d <= l->depth - sd->z;
}

/* Bytes from a linear side's first byte to its last, plus one; 0: overflow. */
static size_t cu_linear_span(const struct cu_copy_side *sd, size_t w,
			     size_t h, size_t d)
{
	size_t rows, slices, span;

	if (__builtin_mul_overflow(h - 1, sd->pitch, &rows) ||
	    __builtin_mul_overflow(d - 1, sd->slice, &slices) ||
	    __builtin_add_overflow(rows, slices, &span) ||
	    __builtin_add_overflow(span, w, &span))
		return 0;
	return span;
}

/* One COPY_TILED between array side @arr and linear memory at @lin. */
static int cu_emit_tiled(struct cu_op *op, const struct cu_copy_side *arr,
			 uint64_t lin, size_t pitch, size_t slice, size_t w,
			 size_t h, size_t d, unsigned int direction)
{
	const struct cu_array *a = arr->array;
	struct vgpu_pkt_copy_tiled p = {
		.linear = lin, .linear_pitch = pitch, .linear_slice = slice,
		.surface = a->va, .surf_row_bytes = a->layout.row_bytes,
		.surf_height = a->layout.height, .surf_depth = a->layout.depth,
		.block_h_log2 = a->layout.bh, .block_d_log2 = a->layout.bd,
		.direction = (uint8_t)direction,
		.x = (uint32_t)arr->x, .y = (uint32_t)arr->y,
		.z = (uint32_t)arr->z, .width = (uint32_t)w,
		.height = (uint32_t)h, .depth = (uint32_t)d,
	};

	return vgpu_emit_copy_tiled(op->queue->vq, &p, op->deadline);
}

/*
 * Up to two tiled copies in one operation on @s: @first, then @second
 * (its .array NULL: none), each between an array side and the linear
 * box at @lin; then wait if @sync.
 */
static CUresult cu_tiled_op(struct cu_stream *s, const struct cu_copy_side *first,
			    unsigned int first_dir,
			    const struct cu_copy_side *second,
			    unsigned int second_dir, uint64_t lin, size_t pitch,
			    size_t slice, size_t w, size_t h, size_t d,
			    bool sync)
{
	struct cu_point done;
	struct cu_op op;
	CUresult res;
	int ret;

	res = cu_op_begin(s, CU_ENGINE_COPY, NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	ret = cu_emit_tiled(&op, first, lin, pitch, slice, w, h, d, first_dir);
	if (!ret && second->array)
		ret = cu_emit_tiled(&op, second, lin, pitch, slice, w, h, d,
				    second_dir);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	res = cu_op_end(&op, &done);
	if (res == CUDA_SUCCESS && sync)
		res = cu_point_wait(s->ctx, &done);
	return res;
}

/* Array <-> linear memory the engine does not reach: through VRAM. */
static CUresult cu_copy_array_staged(struct cu_stream *s,
				     const struct cu_copy_side *dst,
				     const struct cu_copy_side *src, size_t w,
				     size_t h, size_t d)
{
	const struct cu_copy_side none = { 0 };
	struct cu_copy_box b = {
		.width = w, .height = h, .depth = d,
	};
	CUdeviceptr tmp;
	size_t size;
	CUresult res;

	if (__builtin_mul_overflow(w, h, &size) ||
	    __builtin_mul_overflow(size, d, &size))
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_mem_device_alloc(s->ctx, size, &tmp);
	if (res != CUDA_SUCCESS)
		return res;
	if (dst->array && src->array) {
		res = cu_tiled_op(s, src, VGPU_COPY_TILED_FROM_SURFACE, dst,
				  VGPU_COPY_TILED_TO_SURFACE, tmp, w, w * h,
				  w, h, d, true);
	} else if (dst->array) {
		b.src = src->ptr;
		b.src_pitch = src->pitch;
		b.src_slice = src->slice;
		b.dst = tmp;
		b.dst_pitch = w;
		b.dst_slice = w * h;
		res = cu_copy_box(s, &b, true);
		if (res == CUDA_SUCCESS)
			res = cu_tiled_op(s, dst, VGPU_COPY_TILED_TO_SURFACE,
					  &none, 0, tmp, w, w * h, w, h, d,
					  true);
	} else {
		res = cu_tiled_op(s, src, VGPU_COPY_TILED_FROM_SURFACE, &none,
				  0, tmp, w, w * h, w, h, d, true);
		b.src = tmp;
		b.src_pitch = w;
		b.src_slice = w * h;
		b.dst = dst->ptr;
		b.dst_pitch = dst->pitch;
		b.dst_slice = dst->slice;
		if (res == CUDA_SUCCESS)
			res = cu_copy_box(s, &b, true);
	}
	cu_mem_device_free(s->ctx, tmp);
	return res;
}

/* One side of a copy as the CUDA_MEMCPY3D fields of a memcpy node. */
static void cu_array_node_side(const struct cu_copy_side *c,
			       CUmemorytype *type, CUarray *array,
			       CUdeviceptr *dev, size_t *x, size_t *y,
			       size_t *z, size_t *pitch, size_t *height)
{
	if (c->array) {
		*type = CU_MEMORYTYPE_ARRAY;
		*array = (CUarray)c->array;
		*x = c->x;
		*y = c->y;
		*z = c->z;
		return;
	}
	*type = CU_MEMORYTYPE_UNIFIED;
	*dev = c->ptr;
	*pitch = c->pitch;
	*height = c->pitch ? c->slice / c->pitch : 0;
}

/* On a capturing stream: the copy as one memcpy node (*@recorded). */
static CUresult cu_array_capture(struct cu_stream *s,
				 const struct cu_copy_side *dst,
				 const struct cu_copy_side *src, size_t width,
				 size_t height, size_t depth, bool *recorded)
{
	CUDA_MEMCPY3D n = {
		.WidthInBytes = width, .Height = height, .Depth = depth,
	};

	cu_array_node_side(src, &n.srcMemoryType, &n.srcArray, &n.srcDevice,
			   &n.srcXInBytes, &n.srcY, &n.srcZ, &n.srcPitch,
			   &n.srcHeight);
	cu_array_node_side(dst, &n.dstMemoryType, &n.dstArray, &n.dstDevice,
			   &n.dstXInBytes, &n.dstY, &n.dstZ, &n.dstPitch,
			   &n.dstHeight);
	return cu_capture_op(s, CU_GRAPH_NODE_TYPE_MEMCPY, &n,
			     (CUcontext)s->ctx, recorded);
}

CUresult cu_copy_array(struct cu_stream *s, const struct cu_copy_side *dst,
		       const struct cu_copy_side *src, size_t width,
		       size_t height, size_t depth, bool sync)
{
	const struct cu_copy_side *lin = dst->array ? src : dst;
	const struct cu_copy_side *arr = dst->array ? dst : src;
	const struct cu_copy_side none = { 0 };
	struct cu_ctx *owner;
	enum cu_where where;
	size_t span;
	bool ok;
	CUresult res;

	if ((dst->array && (dst->array->ctx != s->ctx ||
			    !cu_array_box_ok(dst, width, height, depth))) ||
	    (src->array && (src->array->ctx != s->ctx ||
			    !cu_array_box_ok(src, width, height, depth))))
		return CUDA_ERROR_INVALID_VALUE;
	if (!width || !height || !depth)
		return CUDA_SUCCESS;
	if (sync) {
		res = cu_capture_forbid(s);
	} else {
		bool recorded = false;

		res = cu_array_capture(s, dst, src, width, height, depth,
				       &recorded);
		if (recorded)
			return res;
	}
	if (res != CUDA_SUCCESS)
		return res;
	if (dst->array && src->array)
		return cu_copy_array_staged(s, dst, src, width, height, depth);
	span = cu_linear_span(lin, width, height, depth);
	if (!lin->ptr || !span || lin->ptr + span < lin->ptr)
		return CUDA_ERROR_INVALID_VALUE;
	where = cu_classify_for(s->ctx->dev, lin->ptr, span, &ok);
	owner = cu_copy_owner(lin->ptr);
	if (!ok || (owner && owner != s->ctx))
		return CUDA_ERROR_INVALID_VALUE;
	if (where == CU_WHERE_PAGEABLE)
		return cu_copy_array_staged(s, dst, src, width, height, depth);
	return cu_tiled_op(s, arr, dst->array ? VGPU_COPY_TILED_TO_SURFACE :
			   VGPU_COPY_TILED_FROM_SURFACE, &none, 0, lin->ptr,
			   lin->pitch, lin->slice, width, height, depth, sync);
}

/*
 * One side of a CUDA_MEMCPY2D/3D with an array somewhere: an array side
 * names a live array; a linear side has its box's first byte and pitches,
 * and a pitch that holds a row (and a slice pitch that holds the rows)
 * when the box has more than one.  False for a side CUDA refuses.
 */
static bool cu_side_from(struct cu_copy_side *sd, CUmemorytype type,
			 const void *host, CUdeviceptr dev, CUarray array,
			 size_t x, size_t y, size_t z, size_t pitch,
			 size_t rows, const CUDA_MEMCPY3D *c)
{
	uint64_t base, off;

	memset(sd, 0, sizeof(*sd));
	switch (type) {
	case CU_MEMORYTYPE_ARRAY:
		sd->array = cu_array_get(array);
		sd->x = x;
		sd->y = y;
		sd->z = z;
		return sd->array != NULL;
	case CU_MEMORYTYPE_HOST:
		base = (uintptr_t)host;
		break;
	case CU_MEMORYTYPE_DEVICE:
	case CU_MEMORYTYPE_UNIFIED:
		base = dev;
		break;
	default:
		return false;
	}
	if ((c->Height > 1 || c->Depth > 1) &&
	    (pitch < c->WidthInBytes || pitch - c->WidthInBytes < x))
		return false;
	if (c->Depth > 1 && (rows < c->Height || rows - c->Height < y))
		return false;
	if (__builtin_mul_overflow(pitch, rows, &sd->slice) ||
	    __builtin_mul_overflow(z, sd->slice, &off) ||
	    __builtin_add_overflow(off, y * pitch + x, &off) ||
	    __builtin_add_overflow(base, off, &sd->ptr))
		return false;
	sd->pitch = pitch;
	return base != 0;
}

CUresult cu_memcpy_3d_array(struct cu_stream *s, const CUDA_MEMCPY3D *c,
			    bool sync)
{
	struct cu_copy_side src, dst;

	/* no mipmapped arrays yet: every array has level 0 only */
	if (c->reserved0 || c->reserved1 ||
	    (c->srcMemoryType == CU_MEMORYTYPE_ARRAY && c->srcLOD) ||
	    (c->dstMemoryType == CU_MEMORYTYPE_ARRAY && c->dstLOD))
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_side_from(&src, c->srcMemoryType, c->srcHost, c->srcDevice,
			  c->srcArray, c->srcXInBytes, c->srcY, c->srcZ,
			  c->srcPitch, c->srcHeight, c) ||
	    !cu_side_from(&dst, c->dstMemoryType, c->dstHost, c->dstDevice,
			  c->dstArray, c->dstXInBytes, c->dstY, c->dstZ,
			  c->dstPitch, c->dstHeight, c))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_copy_array(s, &dst, &src, c->WidthInBytes, c->Height,
			     c->Depth, sync);
}

CUresult cu_memcpy_2d_array(struct cu_stream *s, const CUDA_MEMCPY2D *c,
			    bool sync)
{
	const CUDA_MEMCPY3D c3 = {
		.srcXInBytes = c->srcXInBytes, .srcY = c->srcY,
		.srcMemoryType = c->srcMemoryType, .srcHost = c->srcHost,
		.srcDevice = c->srcDevice, .srcArray = c->srcArray,
		.srcPitch = c->srcPitch, .srcHeight = c->Height,
		.dstXInBytes = c->dstXInBytes, .dstY = c->dstY,
		.dstMemoryType = c->dstMemoryType, .dstHost = c->dstHost,
		.dstDevice = c->dstDevice, .dstArray = c->dstArray,
		.dstPitch = c->dstPitch, .dstHeight = c->Height,
		.WidthInBytes = c->WidthInBytes, .Height = c->Height,
		.Depth = 1,
	};

	return cu_memcpy_3d_array(s, &c3, sync);
}

/* ---- the one-dimensional forms ------------------------------------------ */

/*
 * @bytes of row 0 of an array from byte @offset, to or from linear
 * memory; CUDA's AtoH & co. treat the array as 1D (or its first row).
 */
static CUresult cu_memcpy_1d_array(CUarray dst_a, size_t dst_off,
				   uint64_t dst, CUarray src_a, size_t src_off,
				   uint64_t src, size_t bytes, CUstream h,
				   bool sync)
{
	CUDA_MEMCPY3D c = {
		.srcMemoryType = src_a ? CU_MEMORYTYPE_ARRAY :
					 CU_MEMORYTYPE_UNIFIED,
		.srcArray = src_a, .srcDevice = src, .srcXInBytes = src_off,
		.dstMemoryType = dst_a ? CU_MEMORYTYPE_ARRAY :
					 CU_MEMORYTYPE_UNIFIED,
		.dstArray = dst_a, .dstDevice = dst, .dstXInBytes = dst_off,
		.WidthInBytes = bytes, .Height = 1, .Depth = 1,
	};
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	/* a linear side's offset is already in its pointer */
	if (!src_a)
		c.srcXInBytes = 0;
	if (!dst_a)
		c.dstXInBytes = 0;
	return cu_memcpy_3d_array(s, &c, sync);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray,
					size_t srcOffset, size_t ByteCount)
{
	return cu_memcpy_1d_array(NULL, 0, (uintptr_t)dstHost, srcArray,
				  srcOffset, 0, ByteCount, NULL, true);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, size_t dstOffset,
					const void *srcHost, size_t ByteCount)
{
	return cu_memcpy_1d_array(dstArray, dstOffset, 0, NULL, 0,
				  (uintptr_t)srcHost, ByteCount, NULL, true);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyAtoD(CUdeviceptr dstDevice,
					CUarray srcArray, size_t srcOffset,
					size_t ByteCount)
{
	return cu_memcpy_1d_array(NULL, 0, dstDevice, srcArray, srcOffset, 0,
				  ByteCount, NULL, true);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyDtoA(CUarray dstArray, size_t dstOffset,
					CUdeviceptr srcDevice,
					size_t ByteCount)
{
	return cu_memcpy_1d_array(dstArray, dstOffset, 0, NULL, 0, srcDevice,
				  ByteCount, NULL, true);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, size_t dstOffset,
					CUarray srcArray, size_t srcOffset,
					size_t ByteCount)
{
	return cu_memcpy_1d_array(dstArray, dstOffset, 0, srcArray, srcOffset,
				  0, ByteCount, NULL, true);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray,
					     size_t srcOffset, size_t ByteCount,
					     CUstream hStream)
{
	return cu_memcpy_1d_array(NULL, 0, (uintptr_t)dstHost, srcArray,
				  srcOffset, 0, ByteCount, hStream, false);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray,
					     size_t dstOffset,
					     const void *srcHost,
					     size_t ByteCount, CUstream hStream)
{
	return cu_memcpy_1d_array(dstArray, dstOffset, 0, NULL, 0,
				  (uintptr_t)srcHost, ByteCount, hStream,
				  false);
}
