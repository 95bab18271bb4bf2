// SPDX-License-Identifier: GPL-2.0
/*
 * Pitched 2D and 3D memory: cudaMalloc3D, cudaMemcpy3D, cudaMemcpy3DPeer,
 * cudaMemset3D (and their Async forms), and the translation of a cudaMemcpyKind into
 * the memory types of the driver's CUDA_MEMCPY2D / CUDA_MEMCPY3D, which
 * cudaMemcpy2D (memory.c) uses too.
 *
 * A 3D allocation is a pitched allocation of height * depth rows: rows
 * `pitch` bytes apart, slices `pitch * ysize` bytes apart (cudaPitchedPtr
 * carries both).  Copies go to cuMemcpy3D, which makes one copy-engine
 * operation of the whole box (umd/cuda/copy_3d.c).  A copy with a CUDA
 * array on a side is array.c's (rt_memcpy3d_array); peer copies of
 * arrays are refused with cudaErrorInvalidValue.
 */
#include <stdint.h>

#include "cudart_internal.h"

/*
 * The driver's memory type of one side of a copy of @kind: explicit kinds
 * name host or device memory, Default lets the driver find out (unified
 * addressing).
 */
CUmemorytype rt_memory_type(enum cudaMemcpyKind kind, bool dst)
{
	switch (kind) {
	case cudaMemcpyHostToHost:
		return CU_MEMORYTYPE_HOST;
	case cudaMemcpyHostToDevice:
		return dst ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	case cudaMemcpyDeviceToHost:
		return dst ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	case cudaMemcpyDeviceToDevice:
		return CU_MEMORYTYPE_DEVICE;
	default:
		return CU_MEMORYTYPE_UNIFIED;
	}
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
			 struct cudaExtent extent)
{
	size_t rows, pitch = 0;
	void *p = NULL;
	cudaError_t err;

	if (!pitchedDevPtr)
		return rt_return(cudaErrorInvalidValue);
	if (extent.depth && extent.height > SIZE_MAX / extent.depth)
		return rt_return(cudaErrorMemoryAllocation);
	rows = extent.height * extent.depth;
	/* Every row pitch-aligned: a pitched allocation of all the rows. */
	err = cudaMallocPitch(&p, &pitch, extent.width, rows);
	if (err != cudaSuccess)
		return err;
	pitchedDevPtr->ptr = p;
	pitchedDevPtr->pitch = pitch;
	pitchedDevPtr->xsize = extent.width;
	pitchedDevPtr->ysize = extent.height;
	return cudaSuccess;
}

/* The checks of a box's positions against the pitched pointers. */
static cudaError_t rt_3d_shape_check(const struct cudaPitchedPtr *src,
				     const struct cudaPos *spos,
				     const struct cudaPitchedPtr *dst,
				     const struct cudaPos *dpos,
				     const struct cudaExtent *e)
{
	if (e->width + spos->x > src->pitch || e->width + dpos->x > dst->pitch ||
	    e->width + spos->x < e->width || e->width + dpos->x < e->width)
		return cudaErrorInvalidPitchValue;
	if (e->depth > 1 && (e->height + spos->y > src->ysize ||
			     e->height + dpos->y > dst->ysize))
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p,
			       CUstream stream, bool async)
{
	CUDA_MEMCPY3D c = { 0 };
	const struct cudaExtent *e;
	int dev;
	cudaError_t err;

	if (!p)
		return cudaErrorInvalidValue;
	if (!rt_memcpy_kind_valid(p->kind))
		return cudaErrorInvalidMemcpyDirection;
	if (p->srcArray || p->dstArray)
		return rt_memcpy3d_array(p, stream, async);
	if (!p->srcPtr.ptr || !p->dstPtr.ptr)
		return cudaErrorInvalidValue;
	e = &p->extent;
	err = rt_3d_shape_check(&p->srcPtr, &p->srcPos, &p->dstPtr, &p->dstPos,
				e);
	if (err == cudaSuccess)
		err = rt_enter(&dev);
	if (err != cudaSuccess || !e->width || !e->height || !e->depth)
		return err;
	RT_MEMCPY3D_FILL(c, p, rt_memory_type(p->kind, false),
			 rt_memory_type(p->kind, true));
	return rt_error_from_cu(async ? cuMemcpy3DAsync(&c, stream) :
					cuMemcpy3D(&c));
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	return rt_return(rt_memcpy3d(p, NULL, false));
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
			      cudaStream_t stream)
{
	return rt_return(rt_memcpy3d(p, stream, true));
}

/*
 * A box between two devices' memory: cuMemcpy3DPeer between their primary
 * contexts, which the driver stages through host memory (copy_peer.c).
 */
static cudaError_t rt_memcpy3d_peer(const struct cudaMemcpy3DPeerParms *p,
				    CUstream stream, bool async)
{
	CUDA_MEMCPY3D_PEER c = { 0 };
	const struct cudaExtent *e;
	int dev;
	cudaError_t err;

	if (!p)
		return cudaErrorInvalidValue;
	err = rt_check_device(p->srcDevice);
	if (err == cudaSuccess)
		err = rt_check_device(p->dstDevice);
	if (err != cudaSuccess)
		return err;
	if (p->srcArray || p->dstArray || !p->srcPtr.ptr || !p->dstPtr.ptr)
		return cudaErrorInvalidValue;
	e = &p->extent;
	err = rt_3d_shape_check(&p->srcPtr, &p->srcPos, &p->dstPtr, &p->dstPos,
				e);
	if (err == cudaSuccess)
		err = rt_enter(&dev);
	if (err == cudaSuccess)
		err = rt_primary_context(p->srcDevice, &c.srcContext);
	if (err == cudaSuccess)
		err = rt_primary_context(p->dstDevice, &c.dstContext);
	if (err != cudaSuccess || !e->width || !e->height || !e->depth)
		return err;
	RT_MEMCPY3D_FILL(c, p, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE);
	return rt_error_from_cu(async ? cuMemcpy3DPeerAsync(&c, stream) :
					cuMemcpy3DPeer(&c));
}

cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
	return rt_return(rt_memcpy3d_peer(p, NULL, false));
}

cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
				  cudaStream_t stream)
{
	return rt_return(rt_memcpy3d_peer(p, stream, true));
}

/*
 * A box of bytes set to @value: when the slices follow each other without
 * a gap (ysize == height, or one slice) the box is one 2D memset of all
 * its rows; otherwise one per slice, queued in order on the same stream.
 */
static cudaError_t rt_memset3d(struct cudaPitchedPtr ptr, int value,
			       struct cudaExtent e, CUstream stream,
			       bool async)
{
	CUdeviceptr base = (CUdeviceptr)(uintptr_t)ptr.ptr;
	unsigned char v = (unsigned char)value;
	size_t rows = e.height, slices = 1, slice_pitch, z;
	int dev;
	cudaError_t err;
	CUresult r = CUDA_SUCCESS;

	if ((e.height > 1 || e.depth > 1) && e.width > ptr.pitch)
		return cudaErrorInvalidValue;
	if (e.depth > 1 && e.height > ptr.ysize)
		return cudaErrorInvalidValue;
	err = rt_enter(&dev);
	if (err != cudaSuccess || !e.width || !e.height || !e.depth)
		return err;
	if (__builtin_mul_overflow(ptr.pitch, ptr.ysize, &slice_pitch))
		return cudaErrorInvalidValue;
	if (e.depth == 1 || ptr.ysize == e.height) {
		if (__builtin_mul_overflow(e.height, e.depth, &rows))
			return cudaErrorInvalidValue;
	} else {
		slices = e.depth;
	}
	for (z = 0; z < slices && r == CUDA_SUCCESS; z++) {
		CUdeviceptr d = base + z * slice_pitch;

		r = async ? cuMemsetD2D8Async(d, ptr.pitch, v, e.width, rows,
					      stream) :
			    cuMemsetD2D8(d, ptr.pitch, v, e.width, rows);
	}
	return rt_error_from_cu(r);
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
			 struct cudaExtent extent)
{
	return rt_return(rt_memset3d(pitchedDevPtr, value, extent, NULL,
				     false));
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
			      struct cudaExtent extent, cudaStream_t stream)
{
	return rt_return(rt_memset3d(pitchedDevPtr, value, extent, stream,
				     true));
}
