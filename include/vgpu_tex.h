/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_tex.h - the texture descriptor: what the UMD writes for a texture
 * object and the texture unit of the firmware reads (texture header and
 * sampler state in one, as NVIDIA's TIC/TSC entries are two).
 *
 * The texels are at @base: block-linear (vgpu_array.h) for arrays, rows
 * @pitch bytes apart for pitch-2D resources, packed for linear ones.
 * Plain C with fixed-size types; included by user space only.
 */
#ifndef _VGPU_TEX_H
#define _VGPU_TEX_H

#include <stdint.h>

#include "vgpu_array.h"

enum vgpu_tex_format {
	VGPU_TEX_U8 = 1, VGPU_TEX_S8, VGPU_TEX_U16, VGPU_TEX_S16,
	VGPU_TEX_U32, VGPU_TEX_S32, VGPU_TEX_F16, VGPU_TEX_F32,
};

enum vgpu_tex_layout {
	VGPU_TEX_BLOCK_LINEAR = 0,	/* a CUDA array */
	VGPU_TEX_PITCH = 1,		/* pitch-2D memory */
	VGPU_TEX_LINEAR = 2,		/* 1D linear memory (tex1Dfetch) */
};

enum vgpu_tex_address {
	VGPU_TEX_WRAP = 0, VGPU_TEX_CLAMP = 1, VGPU_TEX_MIRROR = 2,
	VGPU_TEX_BORDER = 3,		/* cudaTextureAddressMode's values */
};

enum vgpu_tex_filter { VGPU_TEX_POINT = 0, VGPU_TEX_LINEAR_FILTER = 1 };

enum vgpu_tex_read { VGPU_TEX_ELEMENT = 0, VGPU_TEX_NORMALIZED = 1 };

/* The most mipmap levels (a 131072-texel 1D texture has 18). */
#define VGPU_TEX_MAX_LEVELS	18

struct vgpu_tex_desc {
	uint64_t base;		/* GPU VA of texel (0, 0, 0) */
	uint32_t width;		/* texels */
	uint32_t height;	/* rows (1 for 1D) */
	uint32_t depth;		/* slices or layers (1 for 1D/2D) */
	uint32_t pitch;		/* VGPU_TEX_PITCH: bytes between rows */
	uint8_t format;		/* enum vgpu_tex_format */
	uint8_t channels;	/* 1, 2 or 4 */
	uint8_t layout;		/* enum vgpu_tex_layout */
	uint8_t dims;		/* 1, 2 or 3 coordinates filtered */
	uint8_t layered;	/* the last coordinate is a layer index */
	uint8_t block_h_log2;	/* block-linear: block shape */
	uint8_t block_d_log2;
	uint8_t filter;		/* enum vgpu_tex_filter */
	uint8_t address[3];	/* enum vgpu_tex_address, per coordinate */
	uint8_t read_mode;	/* enum vgpu_tex_read */
	uint8_t normalized;	/* coordinates in [0, 1) */
	uint8_t srgb;		/* decode sRGB (8-bit normalized reads) */
	uint8_t levels;		/* mipmap levels (1: no mipmaps) */
	uint8_t mip_filter;	/* enum vgpu_tex_filter between levels */
	float border[4];	/* VGPU_TEX_BORDER's colour */
	uint8_t cubemap;	/* 6 faces (times layers if layered) */
	uint8_t seamless;	/* cubemap filtering across face edges */
	uint8_t pad2[2];
	uint32_t max_aniso;	/* cudaTextureDesc::maxAnisotropy */
	float lod_bias;		/* added to every level of detail */
	float min_lod;		/* level of detail clamps */
	float max_lod;
	/*
	 * A resource view's layer range (layered and cubemap textures):
	 * layer (or face) 0 of the texture is the array's first_layer,
	 * and a layered fetch's layer index is clamped to layers - 1
	 * (0: all of depth).  Layers past the array read as zeros.
	 */
	uint32_t first_layer;
	uint32_t layers;
};

/* Bytes of one channel of @format (0 for an unknown one). */
static inline unsigned int vgpu_tex_format_bytes(unsigned int format)
{
	switch (format) {
	case VGPU_TEX_U8: case VGPU_TEX_S8:
		return 1;
	case VGPU_TEX_U16: case VGPU_TEX_S16: case VGPU_TEX_F16:
		return 2;
	case VGPU_TEX_U32: case VGPU_TEX_S32: case VGPU_TEX_F32:
		return 4;
	default:
		return 0;
	}
}

/*
 * Whether the texture unit can use @d (formats, sizes, modes): the UMD
 * checks what it writes, the firmware what it reads.
 */
static inline int vgpu_tex_desc_ok(const struct vgpu_tex_desc *d)
{
	unsigned int bytes = vgpu_tex_format_bytes(d->format);

	if (!bytes || (d->channels != 1 && d->channels != 2 &&
		       d->channels != 4) || !d->width || !d->height ||
	    !d->depth || d->dims < 1 || d->dims > 3 || d->layout > 2 ||
	    d->filter > 1 || d->read_mode > 1 ||
	    d->block_h_log2 > VGPU_BL_MAX_LOG2 ||
	    d->block_d_log2 > VGPU_BL_MAX_LOG2 ||
	    d->levels > VGPU_TEX_MAX_LEVELS || d->mip_filter > 1 ||
	    (d->levels > 1 && d->layout != VGPU_TEX_BLOCK_LINEAR) ||
	    (d->cubemap && (d->dims != 3 || d->width != d->height ||
			    d->depth % 6 || d->layout != VGPU_TEX_BLOCK_LINEAR)))
		return 0;
	for (unsigned int i = 0; i < 3; i++)
		if (d->address[i] > VGPU_TEX_BORDER)
			return 0;
	return 1;
}

#endif /* _VGPU_TEX_H */
