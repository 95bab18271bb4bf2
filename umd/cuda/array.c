// SPDX-License-Identifier: GPL-2.0
/*
 * array.c - CUDA arrays: cuArrayCreate, cuArray3DCreate, their
 * descriptors and cuArrayDestroy.
 *
 * An array is an opaque object: VRAM of the current context holding the
 * elements in the block-linear layout of include/vgpu_array.h (64-byte x
 * 8-row GOBs in blocks as high and deep as the array needs, at most 32
 * GOBs), which keeps a 2D or 3D neighbourhood in few 512-byte GOBs - what
 * a texture unit's cache wants.  Nothing but the copy engines
 * (copy_array.c) and the texture unit read or write it.
 *
 *   Height 0, Depth 0        1D
 *   Height > 0, Depth 0      2D
 *   Depth > 0                3D; LAYERED: Depth layers of 1D (Height 0)
 *                            or 2D arrays; CUBEMAP: 6 faces (6 x n with
 *                            LAYERED) of a square 2D array
 *
 * Sizes are checked against the H100's limits (cu_array_limits), with the
 * codes an H100 returns for what it refuses: CUDA_ERROR_INVALID_VALUE.
 */
#include <stdlib.h>

#include "array.h"
#include "cuda_internal.h"
#include "handles.h"

/* The flags an array may carry (cuda.h: CUDA_ARRAY3D_*). */
#define CU_ARRAY_FLAGS (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | \
			CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER)

unsigned int cu_array_format_bytes(CUarray_format format)
{
	switch (format) {
	case CU_AD_FORMAT_UNSIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT8:
		return 1;
	case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
		return 2;
	case CU_AD_FORMAT_UNSIGNED_INT32:
	case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		return 4;
	default:
		return 0;
	}
}

/*
 * The largest array of each geometry (an H100's texture limits): width,
 * height, depth or layers.  cuDeviceGetAttribute reports them too.
 */
const struct cu_array_limit cu_array_limits[CU_ARRAY_KINDS] = {
	[CU_ARRAY_1D] = { 131072, 0, 0 },
	[CU_ARRAY_2D] = { 131072, 65536, 0 },
	[CU_ARRAY_3D] = { 16384, 16384, 16384 },
	[CU_ARRAY_1D_LAYERED] = { 32768, 0, 2048 },
	[CU_ARRAY_2D_LAYERED] = { 32768, 32768, 2048 },
	[CU_ARRAY_CUBEMAP] = { 32768, 32768, 6 },
	[CU_ARRAY_CUBEMAP_LAYERED] = { 32768, 32768, 2046 },
};

bool cu_array_desc_ok(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	unsigned int layered = d->Flags & CUDA_ARRAY3D_LAYERED;
	unsigned int cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
	enum cu_array_kind kind;

	if (!cu_array_format_bytes(d->Format) || !d->Width ||
	    (d->NumChannels != 1 && d->NumChannels != 2 &&
	     d->NumChannels != 4) || (d->Flags & ~CU_ARRAY_FLAGS))
		return false;
	if (cube) {
		if (d->Width != d->Height || !d->Depth ||
		    d->Depth % 6 || (!layered && d->Depth != 6))
			return false;
		kind = layered ? CU_ARRAY_CUBEMAP_LAYERED : CU_ARRAY_CUBEMAP;
	} else if (layered) {
		if (!d->Depth)
			return false;
		kind = d->Height ? CU_ARRAY_2D_LAYERED : CU_ARRAY_1D_LAYERED;
	} else if (d->Depth) {
		if (!d->Height)
			return false;
		kind = CU_ARRAY_3D;
	} else {
		kind = d->Height ? CU_ARRAY_2D : CU_ARRAY_1D;
	}
	/* Gather is a 2D texture operation. */
	if ((d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER) && kind != CU_ARRAY_2D)
		return false;
	return d->Width <= cu_array_limits[kind].w &&
	       d->Height <= cu_array_limits[kind].h &&
	       d->Depth <= cu_array_limits[kind].d;
}

/*
 * What an H100 answers for a handle that is not a live array: NULL is
 * not valid; anything else is taken for an array whose context is gone
 * (cudaFreeArray twice, cudaArrayGetInfo after it: 709,
 * tests/golden/probe_tex.h100.txt).
 */
static CUresult cu_array_bad(CUarray h)
{
	return h ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_ERROR_INVALID_HANDLE;
}

struct cu_array *cu_array_get(CUarray h)
{
	struct cu_array *a = (struct cu_array *)h;

	return a && cu_handle_valid(a, CU_HANDLE_ARRAY) ? a : NULL;
}

static CUresult cu_array_new(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	struct cu_array *a;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || !d || !cu_array_desc_ok(d))
		return CUDA_ERROR_INVALID_VALUE;
	a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a->ctx = ctx;
	a->desc = *d;
	a->elem_size = cu_array_format_bytes(d->Format) * d->NumChannels;
	a->layout.row_bytes = (uint32_t)(d->Width * a->elem_size);
	a->layout.height = d->Height ? (uint32_t)d->Height : 1;
	a->layout.depth = d->Depth ? (uint32_t)d->Depth : 1;
	vgpu_bl_choose(&a->layout, !!(d->Flags & (CUDA_ARRAY3D_LAYERED |
						  CUDA_ARRAY3D_CUBEMAP)));
	res = cu_mem_device_alloc(ctx, vgpu_bl_size(&a->layout), &a->va);
	if (res == CUDA_SUCCESS) {
		res = cu_handle_add(a, CU_HANDLE_ARRAY);
		if (res != CUDA_SUCCESS)
			cu_mem_device_free(ctx, a->va);
	}
	if (res != CUDA_SUCCESS) {
		free(a);
		return res;
	}
	*out = (CUarray)a;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle,
					   const CUDA_ARRAY3D_DESCRIPTOR *pDesc)
{
	return cu_array_new(pHandle, pDesc);
}

CU_EXPORT CUresult CUDAAPI cuArrayCreate(CUarray *pHandle,
					 const CUDA_ARRAY_DESCRIPTOR *pDesc)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	struct cu_ctx *ctx;
	CUresult res;

	if (!pDesc) {
		res = cu_ctx_get(&ctx);
		return res != CUDA_SUCCESS ? res : CUDA_ERROR_INVALID_VALUE;
	}
	d = (CUDA_ARRAY3D_DESCRIPTOR) {
		.Width = pDesc->Width, .Height = pDesc->Height,
		.Format = pDesc->Format, .NumChannels = pDesc->NumChannels,
	};
	return cu_array_new(pHandle, &d);
}

CU_EXPORT CUresult CUDAAPI cuArray3DGetDescriptor(
	CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
	struct cu_array *a = cu_array_get(hArray);

	if (!a)
		return cu_array_bad(hArray);
	if (!pArrayDescriptor)
		return CUDA_ERROR_INVALID_VALUE;
	*pArrayDescriptor = a->desc;
	return CUDA_SUCCESS;
}

/* Of a 3D array: its width, height, format and channels. */
CU_EXPORT CUresult CUDAAPI cuArrayGetDescriptor(
	CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
	struct cu_array *a = cu_array_get(hArray);

	if (!a)
		return cu_array_bad(hArray);
	if (!pArrayDescriptor)
		return CUDA_ERROR_INVALID_VALUE;
	pArrayDescriptor->Width = a->desc.Width;
	pArrayDescriptor->Height = a->desc.Height;
	pArrayDescriptor->Format = a->desc.Format;
	pArrayDescriptor->NumChannels = a->desc.NumChannels;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuArrayDestroy(CUarray hArray)
{
	struct cu_array *a = (struct cu_array *)hArray;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * A level of a mipmapped array lives as long as the mipmapped
	 * array: destroying it is a success that does nothing (an H100
	 * answers 0, tests/golden/probe_tex.h100.txt).
	 */
	if (a && a->parent && cu_handle_valid(a, CU_HANDLE_ARRAY))
		return CUDA_SUCCESS;
	if (!a || !cu_handle_remove(a, CU_HANDLE_ARRAY))
		return cu_array_bad(hArray);
	/* Copies queued before the destruction still read it: wait. */
	if (cu_ctx_valid(a->ctx)) {
		cu_ctx_sync(a->ctx);
		cu_mem_device_free(a->ctx, a->va);
	}
	free(a);
	return CUDA_SUCCESS;
}
