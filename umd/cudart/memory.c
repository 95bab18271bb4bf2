// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory: allocation, copies and fills.
 *
 * Device pointers are GPU virtual addresses that the driver keeps apart
 * from host addresses (unified addressing), so a pointer alone tells
 * which side it is on.  An explicit cudaMemcpyKind picks the driver call
 * for that direction, and the driver checks that the pointers are what
 * the kind says; cudaMemcpyDefault (and HostToHost) leave the direction
 * to the driver's unified cuMemcpy.  Synchronous copies follow CUDA's
 * rules because the driver's do: cuMemcpy* return once the data has
 * arrived (or, from pageable memory, once it is staged).
 */
#include <stdint.h>

#include "cudart_internal.h"

static CUdeviceptr rt_dptr(const void *p)
{
	return (CUdeviceptr)(uintptr_t)p;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	CUdeviceptr d;
	int dev;
	cudaError_t err;

	if (!devPtr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	/* CUDA allows a zero-byte allocation: it succeeds with NULL. */
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	err = rt_return_cu(cuMemAlloc(&d, size));
	if (err == cudaSuccess)
		*devPtr = (void *)(uintptr_t)d;
	return err;
}

/*
 * Managed memory: one pointer for host and device code.  libcuda backs it
 * with pinned host memory mapped at the same GPU address (zero-copy; see
 * cu_mem_managed_alloc() in umd/cuda/memory.c); cudaFree releases it.
 */
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	CUdeviceptr d;
	int dev;
	cudaError_t err;

	if (!devPtr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	/*
	 * Measured on an H100: zero bytes succeed, as for cudaMalloc (the
	 * driver's cuMemAllocManaged refuses them).
	 */
	if (!size) {
		if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
			return rt_return(cudaErrorInvalidValue);
		*devPtr = NULL;
		return rt_return(cudaSuccess);
	}
	err = rt_return_cu(cuMemAllocManaged(&d, size, flags));
	if (err == cudaSuccess)
		*devPtr = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaFree(void *devPtr)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	if (!devPtr)
		return cudaSuccess;
	return rt_return_cu(cuMemFree(rt_dptr(devPtr)));
}

/* Stream-ordered allocation: usable by work queued after it on @hStream. */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	CUdeviceptr d;
	cudaError_t err;

	if (!devPtr)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuMemAllocAsync(&d, size, hStream));
	if (err == cudaSuccess)
		*devPtr = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuMemFreeAsync(rt_dptr(devPtr), hStream));
}

/*
 * Pitched allocations: each row starts at a multiple of the device's
 * pitch alignment so that row accesses stay aligned.
 */
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
			    size_t height)
{
	int dev, align;
	size_t row;
	cudaError_t err;

	if (!devPtr || !pitch)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err == cudaSuccess)
		err = rt_error_from_cu(cuDeviceGetAttribute(&align,
				CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT,
				(CUdevice)dev));
	if (err != cudaSuccess)
		return rt_return(err);
	if (align <= 0)
		align = 512;
	row = (width + (size_t)align - 1) / (size_t)align * (size_t)align;
	if (height && row > SIZE_MAX / height)
		return rt_return(cudaErrorMemoryAllocation);
	err = cudaMalloc(devPtr, row * height);
	if (err == cudaSuccess)
		*pitch = row;
	return err;
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuMemGetInfo(free, total));
}

/* One copy, synchronous when @async is false. */
static CUresult rt_copy(void *dst, const void *src, size_t count,
			enum cudaMemcpyKind kind, CUstream stream, bool async)
{
	switch (kind) {
	case cudaMemcpyHostToDevice:
		return async ? cuMemcpyHtoDAsync(rt_dptr(dst), src, count, stream)
			     : cuMemcpyHtoD(rt_dptr(dst), src, count);
	case cudaMemcpyDeviceToHost:
		return async ? cuMemcpyDtoHAsync(dst, rt_dptr(src), count, stream)
			     : cuMemcpyDtoH(dst, rt_dptr(src), count);
	case cudaMemcpyDeviceToDevice:
		return async ? cuMemcpyDtoDAsync(rt_dptr(dst), rt_dptr(src),
						 count, stream)
			     : cuMemcpyDtoD(rt_dptr(dst), rt_dptr(src), count);
	default:
		/* HostToHost and Default: the driver infers the direction. */
		return async ? cuMemcpyAsync(rt_dptr(dst), rt_dptr(src), count,
					     stream)
			     : cuMemcpy(rt_dptr(dst), rt_dptr(src), count);
	}
}

static cudaError_t rt_memcpy(void *dst, const void *src, size_t count,
			     enum cudaMemcpyKind kind, CUstream stream,
			     bool async)
{
	int dev;
	cudaError_t err;

	if (!rt_memcpy_kind_valid(kind))
		return cudaErrorInvalidMemcpyDirection;
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return err;
	if (count == 0)
		return cudaSuccess;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	return rt_error_from_cu(rt_copy(dst, src, count, kind, stream, async));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	return rt_return(rt_memcpy(dst, src, count, kind, NULL, false));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_return(rt_memcpy(dst, src, count, kind, stream, true));
}

/*
 * 2D copies: @height rows of @width bytes, each side with its own pitch:
 * one cuMemcpy2D, which the driver turns into one copy-engine operation
 * (umd/cuda/copy_3d.c).  The kind gives each side's memory type.
 */
static cudaError_t rt_memcpy2d(void *dst, size_t dpitch, const void *src,
			       size_t spitch, size_t width, size_t height,
			       enum cudaMemcpyKind kind, CUstream stream,
			       bool async)
{
	CUDA_MEMCPY2D c = { 0 };
	int dev;
	cudaError_t err;

	if (!rt_memcpy_kind_valid(kind))
		return cudaErrorInvalidMemcpyDirection;
	if (width > dpitch || width > spitch)
		return cudaErrorInvalidPitchValue;
	err = rt_enter(&dev);
	if (err != cudaSuccess || width == 0 || height == 0)
		return err;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	c.srcMemoryType = rt_memory_type(kind, false);
	c.srcHost = src;
	c.srcDevice = rt_dptr(src);
	c.srcPitch = spitch;
	c.dstMemoryType = rt_memory_type(kind, true);
	c.dstHost = dst;
	c.dstDevice = rt_dptr(dst);
	c.dstPitch = dpitch;
	c.WidthInBytes = width;
	c.Height = height;
	return rt_error_from_cu(async ? cuMemcpy2DAsync(&c, stream) :
					cuMemcpy2D(&c));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind)
{
	return rt_return(rt_memcpy2d(dst, dpitch, src, spitch, width, height,
				     kind, NULL, false));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_return(rt_memcpy2d(dst, dpitch, src, spitch, width, height,
				     kind, stream, true));
}

static cudaError_t rt_memset(void *devPtr, int value, size_t count,
			     CUstream stream, bool async)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess || count == 0)
		return err;
	return rt_error_from_cu(async ?
		cuMemsetD8Async(rt_dptr(devPtr), (unsigned char)value, count,
				stream) :
		cuMemsetD8(rt_dptr(devPtr), (unsigned char)value, count));
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return rt_return(rt_memset(devPtr, value, count, NULL, false));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
			    cudaStream_t stream)
{
	return rt_return(rt_memset(devPtr, value, count, stream, true));
}

static cudaError_t rt_memset2d(void *devPtr, size_t pitch, int value,
			       size_t width, size_t height, CUstream stream,
			       bool async)
{
	int dev;
	cudaError_t err;

	if (width > pitch && height > 1)
		return cudaErrorInvalidValue;
	err = rt_enter(&dev);
	if (err != cudaSuccess || width == 0 || height == 0)
		return err;
	return rt_error_from_cu(async ?
		cuMemsetD2D8Async(rt_dptr(devPtr), pitch, (unsigned char)value,
				  width, height, stream) :
		cuMemsetD2D8(rt_dptr(devPtr), pitch, (unsigned char)value,
			     width, height));
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
			 size_t height)
{
	return rt_return(rt_memset2d(devPtr, pitch, value, width, height, NULL,
				     false));
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height,
			      cudaStream_t stream)
{
	return rt_return(rt_memset2d(devPtr, pitch, value, width, height,
				     stream, true));
}

/* Pointers: what the driver knows about an address (unified addressing). */
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
				     const void *ptr)
{
	CUpointer_attribute which[] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
		CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
		CU_POINTER_ATTRIBUTE_HOST_POINTER,
		CU_POINTER_ATTRIBUTE_IS_MANAGED,
	};
	unsigned int type = 0;
	int ordinal = -2;
	CUdeviceptr dptr = 0;
	void *hptr = NULL;
	int managed = 0;
	void *data[] = { &type, &ordinal, &dptr, &hptr, &managed };
	int dev;
	CUresult r;
	cudaError_t err;

	if (!attributes)
		return rt_return(cudaErrorInvalidValue);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	r = cuPointerGetAttributes(sizeof(which) / sizeof(which[0]), which,
				   data, rt_dptr(ptr));
	if (r != CUDA_SUCCESS && r != CUDA_ERROR_INVALID_VALUE)
		return rt_return_cu(r);
	if (r != CUDA_SUCCESS || type == 0) {
		/* Memory CUDA does not know: ordinary host memory. */
		attributes->type = cudaMemoryTypeUnregistered;
		attributes->device = -2;
		attributes->devicePointer = NULL;
		attributes->hostPointer = (void *)ptr;
		return cudaSuccess;
	}
	if (managed)
		attributes->type = cudaMemoryTypeManaged;
	else if (type == CU_MEMORYTYPE_DEVICE)
		attributes->type = cudaMemoryTypeDevice;
	else
		attributes->type = cudaMemoryTypeHost;
	attributes->device = ordinal;
	attributes->devicePointer = (void *)(uintptr_t)dptr;
	attributes->hostPointer = hptr;
	return cudaSuccess;
}
