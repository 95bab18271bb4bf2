// SPDX-License-Identifier: GPL-2.0
/*
 * mipmap.c - mipmapped arrays: cuMipmappedArrayCreate, GetLevel and
 * Destroy.
 *
 * A mipmapped array is one VRAM allocation holding its levels one after
 * the other, each a block-linear surface of its own (the chain of
 * include/vgpu_array.h, vgpu_mip_level(): the one place that says where
 * a level lies, which the texture unit reads too).  Level n halves the
 * width and height (and depth of a 3D array; never layers or cubemap
 * faces) of level n - 1, down to 1.  Each level is also a struct
 * cu_array borrowing its part of the allocation, so that copies,
 * surfaces and cuMipmappedArrayGetLevel treat it as any array.
 *
 * What an H100 answers (tests/golden/probe_tex.h100.txt): 0 levels make
 * one; more levels than the chain has (6 for 16 x 8) are accepted, and
 * the array has the chain's (we keep the chain's: level 5 of 16 x 8
 * would be 1 x 1 again); a level past the last is CUDA_ERROR_INVALID_VALUE;
 * destroying a level is a success that does nothing; destroying the
 * mipmapped array twice is CUDA_ERROR_CONTEXT_IS_DESTROYED, as for
 * arrays.
 */
#include <stdlib.h>

#include "array.h"
#include "cuda_internal.h"
#include "handles.h"

struct cu_mipmap *cu_mipmap_get(CUmipmappedArray h)
{
	struct cu_mipmap *m = (struct cu_mipmap *)h;

	return m && cu_handle_valid(m, CU_HANDLE_MIPMAP) ? m : NULL;
}

/* The levels of a full chain from @d: 1 + log2 of the largest size. */
static unsigned int cu_mipmap_chain(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	size_t n = d->Width;
	unsigned int levels = 1;

	if (d->Height > n)
		n = d->Height;
	if (!(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) &&
	    d->Depth > n)
		n = d->Depth;
	while (n > 1 && levels < CU_MIPMAP_MAX_LEVELS) {
		n >>= 1;
		levels++;
	}
	return levels;
}

static void cu_mipmap_free(struct cu_mipmap *m)
{
	for (unsigned int i = 0; i < m->levels; i++) {
		if (!m->level[i])
			continue;
		cu_handle_remove(m->level[i], CU_HANDLE_ARRAY);
		free(m->level[i]);
	}
	free(m);
}

/* Level @i of @m as an array borrowing its part of @m's VRAM. */
static CUresult cu_mipmap_level_new(struct cu_mipmap *m, unsigned int i)
{
	const CUDA_ARRAY3D_DESCRIPTOR *d = &m->desc;
	int layered = !!(d->Flags & (CUDA_ARRAY3D_LAYERED |
				     CUDA_ARRAY3D_CUBEMAP));
	struct cu_array *a = calloc(1, sizeof(*a));
	uint64_t off;
	CUresult res;

	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a->ctx = m->ctx;
	a->parent = m;
	a->desc = *d;
	a->desc.Width = d->Width >> i ? d->Width >> i : 1;
	if (d->Height)
		a->desc.Height = d->Height >> i ? d->Height >> i : 1;
	if (d->Depth && !layered)
		a->desc.Depth = d->Depth >> i ? d->Depth >> i : 1;
	a->elem_size = cu_array_format_bytes(d->Format) * d->NumChannels;
	off = vgpu_mip_level((uint32_t)d->Width,
			     d->Height ? (uint32_t)d->Height : 1,
			     d->Depth ? (uint32_t)d->Depth : 1, a->elem_size,
			     layered, i, &a->layout);
	a->va = m->va + off;
	res = cu_handle_add(a, CU_HANDLE_ARRAY);
	if (res != CUDA_SUCCESS) {
		free(a);
		return res;
	}
	m->level[i] = a;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMipmappedArrayCreate(
	CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
	unsigned int numMipmapLevels)
{
	return cu_mipmap_make(pHandle, pMipmappedArrayDesc, numMipmapLevels,
			      0, 0);
}

CUresult cu_mipmap_make(CUmipmappedArray *pHandle,
			const CUDA_ARRAY3D_DESCRIPTOR *d,
			unsigned int numMipmapLevels, CUdeviceptr storage,
			uint64_t storage_size)
{
	struct cu_mipmap *m;
	struct cu_ctx *ctx;
	unsigned int chain;
	uint64_t size;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pHandle || !d || !cu_array_desc_ok(d) ||
	    (d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER))
		return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	chain = cu_mipmap_chain(d);
	m->ctx = ctx;
	m->desc = *d;
	m->levels = !numMipmapLevels ? 1 :
		    numMipmapLevels < chain ? numMipmapLevels : chain;
	size = vgpu_mip_level((uint32_t)d->Width,
			      d->Height ? (uint32_t)d->Height : 1,
			      d->Depth ? (uint32_t)d->Depth : 1,
			      cu_array_format_bytes(d->Format) * d->NumChannels,
			      !!(d->Flags & (CUDA_ARRAY3D_LAYERED |
					     CUDA_ARRAY3D_CUBEMAP)),
			      m->levels, NULL);
	if (storage && size > storage_size)
		res = CUDA_ERROR_INVALID_VALUE;
	else if (storage)
		m->va = storage;	/* borrowed: external memory's */
	else
		res = cu_mem_device_alloc(ctx, size, &m->va);
	m->borrowed = storage != 0;
	if (res != CUDA_SUCCESS) {
		free(m);
		return res;
	}
	for (unsigned int i = 0; i < m->levels && res == CUDA_SUCCESS; i++)
		res = cu_mipmap_level_new(m, i);
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(m, CU_HANDLE_MIPMAP);
	if (res != CUDA_SUCCESS) {
		if (!m->borrowed)
			cu_mem_device_free(ctx, m->va);
		cu_mipmap_free(m);
		return res;
	}
	*pHandle = (CUmipmappedArray)m;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMipmappedArrayGetLevel(
	CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
	unsigned int level)
{
	struct cu_mipmap *m = cu_mipmap_get(hMipmappedArray);
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!m)
		return hMipmappedArray ? CUDA_ERROR_CONTEXT_IS_DESTROYED :
					 CUDA_ERROR_INVALID_HANDLE;
	if (!pLevelArray || level >= m->levels)
		return CUDA_ERROR_INVALID_VALUE;
	*pLevelArray = (CUarray)m->level[level];
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMipmappedArrayDestroy(
	CUmipmappedArray hMipmappedArray)
{
	struct cu_mipmap *m = (struct cu_mipmap *)hMipmappedArray;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!m || !cu_handle_remove(m, CU_HANDLE_MIPMAP))
		return m ? CUDA_ERROR_CONTEXT_IS_DESTROYED :
			   CUDA_ERROR_INVALID_HANDLE;
	/* Copies and kernels queued before still read it: wait. */
	if (cu_ctx_valid(m->ctx)) {
		cu_ctx_sync(m->ctx);
		if (!m->borrowed)
			cu_mem_device_free(m->ctx, m->va);
	}
	cu_mipmap_free(m);
	return CUDA_SUCCESS;
}
