/* SPDX-License-Identifier: GPL-2.0 */
/*
 * array.h - CUDA arrays inside libcuda (array.c, copy_array.c).
 *
 * An array is an opaque VRAM object in the block-linear layout of
 * include/vgpu_array.h; only the copy engines (VGPU_PKT_COPY_TILED) and,
 * later, the texture unit know where its bytes are.
 */
#ifndef VGPU_CUDA_ARRAY_H
#define VGPU_CUDA_ARRAY_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>

#include "vgpu_array.h"
#include "vgpu_tex.h"

struct cu_ctx;
struct cu_stream;

struct cu_array {
	struct cu_ctx *ctx;		/* owner: the context current at creation */
	CUdeviceptr va;			/* block-linear storage */
	CUDA_ARRAY3D_DESCRIPTOR desc;	/* as created (Height 0: 1D, ...) */
	unsigned int elem_size;		/* bytes of one element, all channels */
	struct vgpu_bl_layout layout;	/* rows and slices never 0 here */
	struct cu_mipmap *parent;	/* a level of it (its VRAM), or NULL */
};

/* The most levels of a mipmapped array (a 131072-wide 1D one). */
#define CU_MIPMAP_MAX_LEVELS	VGPU_TEX_MAX_LEVELS

/*
 * A mipmapped array: its levels in one VRAM allocation, the chain of
 * vgpu_array.h, each level also a struct cu_array (for copies, surfaces
 * and cuMipmappedArrayGetLevel) that borrows its part of the chain.
 */
struct cu_mipmap {
	struct cu_ctx *ctx;
	CUdeviceptr va;
	CUDA_ARRAY3D_DESCRIPTOR desc;	/* level 0 */
	unsigned int levels;
	struct cu_array *level[CU_MIPMAP_MAX_LEVELS];
	bool borrowed;			/* @va is external memory's (not freed) */
};

/*
 * cuMipmappedArrayCreate with its storage at @storage (@storage_size
 * bytes: INVALID_VALUE if the chain needs more), or in new VRAM
 * (@storage 0).  External memory's arrays are made so (interop_ext.c).
 */
CUresult cu_mipmap_make(CUmipmappedArray *pHandle,
			const CUDA_ARRAY3D_DESCRIPTOR *d,
			unsigned int numMipmapLevels, CUdeviceptr storage,
			uint64_t storage_size);

/* @h as a live mipmapped array, or NULL. */
struct cu_mipmap *cu_mipmap_get(CUmipmappedArray h);

/* Whether @d describes an array this device can make (array.c). */
bool cu_array_desc_ok(const CUDA_ARRAY3D_DESCRIPTOR *d);

enum cu_array_kind {
	CU_ARRAY_1D, CU_ARRAY_2D, CU_ARRAY_3D, CU_ARRAY_1D_LAYERED,
	CU_ARRAY_2D_LAYERED, CU_ARRAY_CUBEMAP, CU_ARRAY_CUBEMAP_LAYERED,
	CU_ARRAY_KINDS
};

/* The largest width, height, depth (or layers) of each kind (array.c). */
struct cu_array_limit {
	size_t w, h, d;
};
extern const struct cu_array_limit cu_array_limits[CU_ARRAY_KINDS];

/* Bytes of one channel of @format, 0 for a format arrays cannot have. */
unsigned int cu_array_format_bytes(CUarray_format format);

/* @h as a live array, or NULL. */
struct cu_array *cu_array_get(CUarray h);

/* One side of a copy: an array, or pitch-linear memory at @ptr. */
struct cu_copy_side {
	struct cu_array *array;		/* NULL: linear */
	uint64_t ptr;			/* linear: the box's first byte */
	size_t pitch, slice;		/* linear: row and slice pitch */
	size_t x, y, z;			/* array: box origin (bytes, rows, slices) */
};

/*
 * Copy a box of @width bytes x @height rows x @depth slices on @s where at
 * least one side is an array; @sync: return once complete.
 */
CUresult cu_copy_array(struct cu_stream *s, const struct cu_copy_side *dst,
		       const struct cu_copy_side *src, size_t width,
		       size_t height, size_t depth, bool sync);

/*
 * The cuMemcpy3D / cuMemcpy2D of a copy with a side of
 * CU_MEMORYTYPE_ARRAY (copy_3d.c and copy_2d.c hand it over).
 */
CUresult cu_memcpy_3d_array(struct cu_stream *s, const CUDA_MEMCPY3D *c,
			    bool sync);
CUresult cu_memcpy_2d_array(struct cu_stream *s, const CUDA_MEMCPY2D *c,
			    bool sync);

#endif /* VGPU_CUDA_ARRAY_H */
