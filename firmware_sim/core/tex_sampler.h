/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tex_sampler.h - the texture unit's sampler (tex_sampler.c): one fetch
 * of a texture described by a struct vgpu_tex_desc (include/vgpu_tex.h).
 */
#ifndef VGPU_TEX_SAMPLER_H
#define VGPU_TEX_SAMPLER_H

#include <stdint.h>

#include "vgpu_tex.h"

/*
 * Reads @len bytes of texel memory at GPU VA @va into @buf: 0, or a
 * VISA_FAULT_* kind (the fetch stops and returns it).
 */
typedef int (*vgpu_tex_read_fn)(void *opaque, uint64_t va, void *buf,
				unsigned int len);

/*
 * Sample @d at coordinates @c (x, y, z; for a layered texture the
 * coordinate after the filtered ones is the layer, in @layer).  @out gets
 * four 32-bit results: floats, or integers for element-type reads of
 * integer formats.  Returns 0 or the fault kind of @read.
 */
int vgpu_tex_sample(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		    void *opaque, const float c[3], int layer,
		    uint32_t out[4]);

/* How a fetch chooses its mipmap level. */
enum vgpu_tex_lod_kind {
	VGPU_TEX_LOD_AUTO = 0,	/* tex without .level/.grad */
	VGPU_TEX_LOD_LEVEL = 1,	/* tex.level: @lod given */
	VGPU_TEX_LOD_GRAD = 2,	/* tex.grad: @dpdx, @dpdy given */
};

/*
 * One texture instruction's question to the texture unit (the operands
 * of PTX tex/tld4 after instruction selection).
 */
struct vgpu_tex_request {
	float c[3];		/* filtered coordinates; a cubemap's direction */
	int32_t layer;		/* layered: the layer (cube arrays: the cube) */
	uint8_t lod_kind;	/* enum vgpu_tex_lod_kind */
	int8_t gather;		/* tld4: component 0..3; -1: a filtered fetch */
	uint8_t pad[2];
	float lod;		/* VGPU_TEX_LOD_LEVEL */
	float dpdx[3];		/* VGPU_TEX_LOD_GRAD */
	float dpdy[3];
	int32_t offset[3];	/* texel offsets (the offset operand of tex) */
};

/*
 * The texture unit's entry point: answer @req on @d into @out (four
 * 32-bit results, as vgpu_tex_sample()).  Returns 0 or the fault kind of
 * @read; VISA_FAULT_INVALID_IMAGE for a request @d cannot answer.
 */
int vgpu_tex_fetch(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		   void *opaque, const struct vgpu_tex_request *req,
		   uint32_t out[4]);

/*
 * Where texel (@x, @y, @z) of mipmap level @level starts (@z: slice or
 * layer); surfaces (suld/sust) address memory through it too.
 */
uint64_t vgpu_tex_texel_va(const struct vgpu_tex_desc *d, unsigned int level,
			   uint32_t x, uint32_t y, uint32_t z);

#endif /* VGPU_TEX_SAMPLER_H */
