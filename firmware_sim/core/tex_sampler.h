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
 * VGPU_FAULT_* kind (the fetch stops and returns it).
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

#endif /* VGPU_TEX_SAMPLER_H */
