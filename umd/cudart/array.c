// SPDX-License-Identifier: GPL-2.0
/*
 * CUDA arrays in the runtime: channel descriptors, cudaMallocArray,
 * cudaMalloc3DArray, cudaFreeArray, cudaArrayGetInfo and the copies that
 * name an array (cudaMemcpy2DToArray & co., the deprecated
 * cudaMemcpyToArray & co.).
 *
 * A cudaArray_t is the driver's CUarray (umd/cuda/array.c): the array
 * lives in VRAM in the block-linear layout and only the copy engines
 * convert to and from it.  The runtime speaks of elements described by a
 * cudaChannelFormatDesc (bits per channel and a kind); the driver of a
 * CUarray_format and a channel count: rt_formats[] is the one table
 * between the two.  Positions and widths of the 2D copies are in bytes,
 * as in CUDA.
 */
#include <stdint.h>

#include "cudart_internal.h"

/* The driver's formats and what the runtime calls them. */
static const struct {
	CUarray_format format;
	int bits;
	enum cudaChannelFormatKind kind;
} rt_formats[] = {
	{ CU_AD_FORMAT_UNSIGNED_INT8, 8, cudaChannelFormatKindUnsigned },
	{ CU_AD_FORMAT_UNSIGNED_INT16, 16, cudaChannelFormatKindUnsigned },
	{ CU_AD_FORMAT_UNSIGNED_INT32, 32, cudaChannelFormatKindUnsigned },
	{ CU_AD_FORMAT_SIGNED_INT8, 8, cudaChannelFormatKindSigned },
	{ CU_AD_FORMAT_SIGNED_INT16, 16, cudaChannelFormatKindSigned },
	{ CU_AD_FORMAT_SIGNED_INT32, 32, cudaChannelFormatKindSigned },
	{ CU_AD_FORMAT_HALF, 16, cudaChannelFormatKindFloat },
	{ CU_AD_FORMAT_FLOAT, 32, cudaChannelFormatKindFloat },
};

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
						   enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc d = { x, y, z, w, f };

	return d;
}

/*
 * The driver's format and channel count of @d: 1, 2 or 4 channels of
 * the same size, the first ones used.  False for what arrays cannot hold.
 */
bool rt_desc_format(const struct cudaChannelFormatDesc *d,
		    CUarray_format *format, unsigned int *channels)
{
	int bits[4] = { d->x, d->y, d->z, d->w };
	unsigned int n = 0, i;

	while (n < 4 && bits[n])
		n++;
	for (i = n; i < 4; i++)
		if (bits[i])
			return false;
	if (n != 1 && n != 2 && n != 4)
		return false;
	for (i = 1; i < n; i++)
		if (bits[i] != bits[0])
			return false;
	for (i = 0; i < sizeof(rt_formats) / sizeof(rt_formats[0]); i++) {
		if (rt_formats[i].bits == bits[0] &&
		    rt_formats[i].kind == d->f) {
			*format = rt_formats[i].format;
			*channels = n;
			return true;
		}
	}
	return false;
}

static cudaError_t rt_malloc_array(cudaArray_t *array,
				   const struct cudaChannelFormatDesc *desc,
				   size_t width, size_t height, size_t depth,
				   unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = {
		.Width = width, .Height = height, .Depth = depth,
		.Flags = flags,
	};
	CUarray a;
	int dev;
	cudaError_t err;

	if (!array || !desc)
		return cudaErrorInvalidValue;
	if (!rt_desc_format(desc, &d.Format, &d.NumChannels))
		return cudaErrorInvalidChannelDescriptor;
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return err;
	err = rt_error_from_cu(cuArray3DCreate(&a, &d));
	if (err == cudaSuccess)
		*array = (cudaArray_t)a;
	return err;
}

cudaError_t cudaMallocArray(cudaArray_t *array,
			    const struct cudaChannelFormatDesc *desc,
			    size_t width, size_t height, unsigned int flags)
{
	/* cudaMalloc3DArray's flags that only make sense in 3D */
	if (flags & (cudaArrayLayered | cudaArrayCubemap))
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_malloc_array(array, desc, width, height, 0, flags));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array,
			      const struct cudaChannelFormatDesc *desc,
			      struct cudaExtent extent, unsigned int flags)
{
	return rt_return(rt_malloc_array(array, desc, extent.width,
					 extent.height, extent.depth, flags));
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess || !array)
		return rt_return(err);
	return rt_return_cu(cuArrayDestroy((CUarray)array));
}

bool rt_format_desc(CUarray_format format, unsigned int channels,
		    struct cudaChannelFormatDesc *desc)
{
	size_t i;

	for (i = 0; i < sizeof(rt_formats) / sizeof(rt_formats[0]); i++) {
		int b = rt_formats[i].bits;

		if (rt_formats[i].format != format)
			continue;
		*desc = cudaCreateChannelDesc(b, channels > 1 ? b : 0,
					      channels > 2 ? b : 0,
					      channels > 2 ? b : 0,
					      rt_formats[i].kind);
		return true;
	}
	return false;
}

/* The driver's description of @array, and its element size in bytes. */
static cudaError_t rt_array_desc(cudaArray_const_t array,
				 CUDA_ARRAY3D_DESCRIPTOR *d, size_t *elem,
				 struct cudaChannelFormatDesc *desc)
{
	struct cudaChannelFormatDesc dd;
	CUresult r;

	if (!array)
		return cudaErrorInvalidResourceHandle;
	r = cuArray3DGetDescriptor(d, (CUarray)array);
	if (r != CUDA_SUCCESS)
		return rt_error_from_cu(r);
	if (!rt_format_desc(d->Format, d->NumChannels, &dd))
		return cudaErrorInvalidResourceHandle;
	*elem = (size_t)(dd.x + dd.y + dd.z + dd.w) / 8;
	if (desc)
		*desc = dd;
	return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
			     struct cudaExtent *extent, unsigned int *flags,
			     cudaArray_t array)
{
	struct cudaChannelFormatDesc dd;
	CUDA_ARRAY3D_DESCRIPTOR d;
	size_t elem;
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err == cudaSuccess)
		err = rt_array_desc(array, &d, &elem, &dd);
	if (err != cudaSuccess)
		return rt_return(err);
	if (desc)
		*desc = dd;
	if (extent)
		*extent = (struct cudaExtent) {
			.width = d.Width, .height = d.Height, .depth = d.Depth,
		};
	if (flags)
		*flags = d.Flags;
	return rt_return(cudaSuccess);
}

/* ---- copies ------------------------------------------------------------- */

/* One side of a 2D copy: an array at (x bytes, y), or linear memory. */
struct rt_side {
	cudaArray_const_t array;
	const void *ptr;
	size_t pitch, x, y;
};

static void rt_side_fill(CUDA_MEMCPY2D *c, const struct rt_side *sd, bool dst,
			 enum cudaMemcpyKind kind)
{
	CUmemorytype type = sd->array ? CU_MEMORYTYPE_ARRAY :
					rt_memory_type(kind, dst);

	if (dst) {
		c->dstMemoryType = type;
		c->dstArray = (CUarray)sd->array;
		c->dstHost = (void *)(uintptr_t)sd->ptr;
		c->dstDevice = (CUdeviceptr)(uintptr_t)sd->ptr;
		c->dstPitch = sd->pitch;
		c->dstXInBytes = sd->x;
		c->dstY = sd->y;
	} else {
		c->srcMemoryType = type;
		c->srcArray = (CUarray)sd->array;
		c->srcHost = sd->ptr;
		c->srcDevice = (CUdeviceptr)(uintptr_t)sd->ptr;
		c->srcPitch = sd->pitch;
		c->srcXInBytes = sd->x;
		c->srcY = sd->y;
	}
}

/*
 * A @width x @height box between two sides, at least one an array.
 * A linear side's pitch must hold a row (cudaErrorInvalidPitchValue).
 */
static cudaError_t rt_copy_2d(const struct rt_side *dst,
			      const struct rt_side *src, size_t width,
			      size_t height, enum cudaMemcpyKind kind,
			      CUstream stream, bool async)
{
	CUDA_MEMCPY2D c = { 0 };
	int dev;
	cudaError_t err;

	if (!rt_memcpy_kind_valid(kind))
		return cudaErrorInvalidMemcpyDirection;
	if ((!dst->array && width > dst->pitch) ||
	    (!src->array && width > src->pitch))
		return cudaErrorInvalidPitchValue;
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return err;
	if ((!dst->array && !dst->ptr) || (!src->array && !src->ptr))
		return cudaErrorInvalidValue;
	rt_side_fill(&c, dst, true, kind);
	rt_side_fill(&c, src, false, kind);
	c.WidthInBytes = width;
	c.Height = height;
	return rt_error_from_cu(async ? cuMemcpy2DAsync(&c, stream) :
					cuMemcpy2D(&c));
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
				size_t hOffset, const void *src, size_t spitch,
				size_t width, size_t height,
				enum cudaMemcpyKind kind)
{
	struct rt_side d = { .array = dst, .x = wOffset, .y = hOffset };
	struct rt_side s = { .ptr = src, .pitch = spitch };

	if (!dst)
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_copy_2d(&d, &s, width, height, kind, NULL, false));
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
				     size_t hOffset, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	struct rt_side d = { .array = dst, .x = wOffset, .y = hOffset };
	struct rt_side s = { .ptr = src, .pitch = spitch };

	if (!dst)
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_copy_2d(&d, &s, width, height, kind, stream,
				    true));
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
				  cudaArray_const_t src, size_t wOffset,
				  size_t hOffset, size_t width, size_t height,
				  enum cudaMemcpyKind kind)
{
	struct rt_side d = { .ptr = dst, .pitch = dpitch };
	struct rt_side s = { .array = src, .x = wOffset, .y = hOffset };

	if (!src)
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_copy_2d(&d, &s, width, height, kind, NULL, false));
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t wOffset,
				       size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       cudaStream_t stream)
{
	struct rt_side d = { .ptr = dst, .pitch = dpitch };
	struct rt_side s = { .array = src, .x = wOffset, .y = hOffset };

	if (!src)
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_copy_2d(&d, &s, width, height, kind, stream,
				    true));
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
				     size_t hOffsetDst, cudaArray_const_t src,
				     size_t wOffsetSrc, size_t hOffsetSrc,
				     size_t width, size_t height,
				     enum cudaMemcpyKind kind)
{
	struct rt_side d = { .array = dst, .x = wOffsetDst, .y = hOffsetDst };
	struct rt_side s = { .array = src, .x = wOffsetSrc, .y = hOffsetSrc };

	if (!dst || !src)
		return rt_return(cudaErrorInvalidValue);
	/* between two arrays only device to device (H100: 21 for HtoD) */
	if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
		return rt_return(cudaErrorInvalidMemcpyDirection);
	return rt_return(rt_copy_2d(&d, &s, width, height, kind, NULL, false));
}

/*
 * The deprecated 1D forms: @count bytes from (wOffset, hOffset) on,
 * filling rows of the array in turn.  A count within one row is one
 * copy; otherwise the rest of the first row, whole rows, and the start
 * of the last row, as CUDA does.
 */
static cudaError_t rt_copy_linear_array(cudaArray_const_t array, size_t x,
					size_t y, const void *ptr, size_t count,
					bool to_array, enum cudaMemcpyKind kind,
					CUstream stream, bool async)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	size_t elem, row, n;
	const char *p = ptr;
	cudaError_t err;
	int dev;

	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return err;
	if (rt_array_desc(array, &d, &elem, NULL) != cudaSuccess)
		return cudaErrorInvalidValue;
	row = d.Width * elem;
	while (count && err == cudaSuccess) {
		struct rt_side a = { .array = array, .x = x, .y = y };
		struct rt_side l = { .ptr = p };

		if (x >= row)
			return cudaErrorInvalidValue;
		n = row - x < count ? row - x : count;
		l.pitch = n;
		err = to_array ? rt_copy_2d(&a, &l, n, 1, kind, stream, async) :
				 rt_copy_2d(&l, &a, n, 1, kind, stream, async);
		p += n;
		count -= n;
		x = 0;
		y++;
	}
	return err;
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
			      const void *src, size_t count,
			      enum cudaMemcpyKind kind)
{
	return rt_return(rt_copy_linear_array(dst, wOffset, hOffset, src, count,
					      true, kind, NULL, false));
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset,
				   size_t hOffset, const void *src,
				   size_t count, enum cudaMemcpyKind kind,
				   cudaStream_t stream)
{
	return rt_return(rt_copy_linear_array(dst, wOffset, hOffset, src, count,
					      true, kind, stream, true));
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
				size_t wOffset, size_t hOffset, size_t count,
				enum cudaMemcpyKind kind)
{
	return rt_return(rt_copy_linear_array(src, wOffset, hOffset, dst, count,
					      false, kind, NULL, false));
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src,
				     size_t wOffset, size_t hOffset,
				     size_t count, enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	return rt_return(rt_copy_linear_array(src, wOffset, hOffset, dst, count,
					      false, kind, stream, true));
}

/*
 * cudaMemcpy3D's array sides (memory_3d.c): once an array takes part,
 * the extent's width and the x of both positions - a linear side's too -
 * count elements of the array (of the source array between two), as an
 * H100 does (test_cudart_array, run there).
 */
cudaError_t rt_memcpy3d_array(const struct cudaMemcpy3DParms *p,
			      CUstream stream, bool async)
{
	struct cudaPos srcpos = p->srcPos, dstpos = p->dstPos;
	CUDA_MEMCPY3D c = { 0 };
	CUDA_ARRAY3D_DESCRIPTOR d;
	size_t elem = 1, src_elem = 1, dst_elem = 1;
	cudaError_t err;
	int dev;

	/* an array and a pointer on one side exclude each other */
	if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
		return cudaErrorInvalidValue;
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return err;
	/* an array handle a copy cannot use: cudaErrorInvalidValue */
	if ((p->srcArray &&
	     rt_array_desc(p->srcArray, &d, &src_elem, NULL) != cudaSuccess) ||
	    (p->dstArray &&
	     rt_array_desc(p->dstArray, &d, &dst_elem, NULL) != cudaSuccess))
		return cudaErrorInvalidValue;
	elem = p->srcArray ? src_elem : dst_elem;
	srcpos.x *= elem;
	dstpos.x *= elem;
	if (p->srcArray) {
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = (CUarray)p->srcArray;
		c.srcXInBytes = srcpos.x;
		c.srcY = srcpos.y;
		c.srcZ = srcpos.z;
	} else {
		if (!p->srcPtr.ptr)
			return cudaErrorInvalidValue;
		RT_MEMCPY3D_SIDE(c, src, p->srcPtr, srcpos,
				 rt_memory_type(p->kind, false));
	}
	if (p->dstArray) {
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = (CUarray)p->dstArray;
		c.dstXInBytes = dstpos.x;
		c.dstY = dstpos.y;
		c.dstZ = dstpos.z;
	} else {
		if (!p->dstPtr.ptr)
			return cudaErrorInvalidValue;
		RT_MEMCPY3D_SIDE(c, dst, p->dstPtr, dstpos,
				 rt_memory_type(p->kind, true));
	}
	if (!p->extent.width || !p->extent.height || !p->extent.depth)
		return cudaSuccess;
	c.WidthInBytes = p->extent.width * elem;
	c.Height = p->extent.height;
	c.Depth = p->extent.depth;
	return rt_error_from_cu(async ? cuMemcpy3DAsync(&c, stream) :
					cuMemcpy3D(&c));
}
