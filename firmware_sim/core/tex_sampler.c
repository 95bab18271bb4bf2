// SPDX-License-Identifier: GPL-2.0
/*
 * tex_sampler.c - the texture unit: address modes, point and linear
 * filtering and read-mode conversion, as an H100 does them
 * (tests/golden/probe_tex.h100.txt; tests/test_tex_golden.c compares
 * bit for bit).
 *
 * Per coordinate: normalized coordinates are scaled by the size; wrap and
 * mirror exist only for normalized coordinates (unnormalized ones clamp,
 * as on the H100).  Point sampling takes texel floor(u).  Linear sampling
 * takes texels floor(u - 0.5) and the next, weighted by the fraction
 * quantized to 1/256 (round to nearest) - the hardware's 8-bit fixed
 * point weights.  Each texel index then goes through the address mode:
 * wrap (modulo), mirror (period 2n, reflected), clamp to the edge, or
 * border (outside: the border colour).  Texels are converted to floats
 * (element type, or integers normalized to [0, 1] / [-1, 1]) before they
 * are weighted.
 */
#include <math.h>
#include <string.h>

#include "fp_formats.h"
#include "tex_sampler.h"
#include "vgpu_array.h"
#include "vgpu_visa.h"

/* Fraction bits of a normalized coordinate (see texel_space()). */
#define COORD_FRAC_BITS	24

static int is_integer(unsigned int format)
{
	return format != VGPU_TEX_F16 && format != VGPU_TEX_F32;
}

uint64_t vgpu_tex_texel_va(const struct vgpu_tex_desc *d, unsigned int level,
			   uint32_t x, uint32_t y, uint32_t z)
{
	uint32_t elem = vgpu_tex_format_bytes(d->format) * d->channels;
	struct vgpu_bl_layout l = {
		.row_bytes = d->width * elem, .height = d->height,
		.depth = d->depth, .bh = d->block_h_log2,
		.bd = d->block_d_log2,
	};

	(void)level;	/* mipmapped arrays: not yet, see vgpu_tex_fetch() */
	switch (d->layout) {
	case VGPU_TEX_PITCH:
		return d->base + (uint64_t)y * d->pitch + (uint64_t)x * elem;
	case VGPU_TEX_LINEAR:
		return d->base + (uint64_t)x * elem;
	default:
		return d->base + vgpu_bl_offset(&l, x * elem, y, z);
	}
}

/* One channel of raw texel bytes @p as a float of the read mode. */
static float channel_float(const struct vgpu_tex_desc *d, const uint8_t *p)
{
	int norm = d->read_mode == VGPU_TEX_NORMALIZED;
	uint16_t h;
	int16_t s16;
	uint16_t u16;
	float f;

	switch (d->format) {
	case VGPU_TEX_U8:
		return norm ? (float)p[0] / 255.0f : (float)p[0];
	case VGPU_TEX_S8:
		return norm ? fmaxf((float)(int8_t)p[0] / 127.0f, -1.0f) :
			      (float)(int8_t)p[0];
	case VGPU_TEX_U16:
		memcpy(&u16, p, 2);
		return norm ? (float)u16 / 65535.0f : (float)u16;
	case VGPU_TEX_S16:
		memcpy(&s16, p, 2);
		return norm ? fmaxf((float)s16 / 32767.0f, -1.0f) : (float)s16;
	case VGPU_TEX_F16:
		memcpy(&h, p, 2);
		return (float)f16_to_double(h);
	case VGPU_TEX_F32:
		memcpy(&f, p, 4);
		return f;
	default:
		return 0.0f;	/* 32-bit integers: element reads only */
	}
}

/* One channel of raw bytes as the integer an element-type read returns. */
static uint32_t channel_int(unsigned int format, const uint8_t *p)
{
	int16_t s16;
	uint16_t u16;
	uint32_t u32;

	switch (format) {
	case VGPU_TEX_U8:
		return p[0];
	case VGPU_TEX_S8:
		return (uint32_t)(int32_t)(int8_t)p[0];
	case VGPU_TEX_U16:
		memcpy(&u16, p, 2);
		return u16;
	case VGPU_TEX_S16:
		memcpy(&s16, p, 2);
		return (uint32_t)(int32_t)s16;
	default:
		memcpy(&u32, p, 4);
		return u32;
	}
}

/*
 * The texel index @i of a dimension of @n texels under address mode
 * @mode; -1 when it falls on the border.
 */
static int64_t address(int64_t i, int64_t n, unsigned int mode, int normalized)
{
	int64_t m;

	if (!normalized && (mode == VGPU_TEX_WRAP || mode == VGPU_TEX_MIRROR))
		mode = VGPU_TEX_CLAMP;
	switch (mode) {
	case VGPU_TEX_WRAP:
		m = i % n;
		return m < 0 ? m + n : m;
	case VGPU_TEX_MIRROR:
		m = i % (2 * n);
		if (m < 0)
			m += 2 * n;
		return m < n ? m : 2 * n - 1 - m;
	case VGPU_TEX_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/* A coordinate as a texel-space float, guarded against huge values. */
static double texel_space(float c, uint32_t n, int normalized)
{
	double u = (double)c;

	/*
	 * A normalized coordinate is cut to fixed point before it is scaled:
	 * 0.2f (a hair above 1/5) samples texel 0 of a 5-texel row on the
	 * H100.  Its recordings agree with 11 to 24 fraction bits.
	 */
	if (normalized)
		u = floor(u * (double)(1u << COORD_FRAC_BITS)) /
		    (double)(1u << COORD_FRAC_BITS) * n;

	if (!(u > -1e9))
		return -1e9;	/* NaN and -inf too */
	return u < 1e9 ? u : 1e9;
}

/*
 * Texel (x, y, z) (already addressed; -1 on a border) as 4 floats or
 * ints; 0 or a fault kind.
 */
static int fetch(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		 void *opaque, const int64_t ix[3], int layer, int ints,
		 uint32_t v[4])
{
	unsigned int bytes = vgpu_tex_format_bytes(d->format);
	uint8_t raw[16];
	uint32_t z;
	float f;
	int kind;

	memset(v, 0, 4 * sizeof(*v));
	/*
	 * The border colour: in the channels the format has (the others
	 * read 0); integer element reads get 0 (both as an H100 does).
	 */
	if (ix[0] < 0 || ix[1] < 0 || ix[2] < 0) {
		for (unsigned int c = 0; c < d->channels && !ints; c++)
			memcpy(&v[c], &d->border[c], 4);
		return 0;
	}
	z = d->layered ? (uint32_t)layer : (uint32_t)ix[2];
	kind = read(opaque, vgpu_tex_texel_va(d, 0, (uint32_t)ix[0], (uint32_t)ix[1], z),
		    raw, bytes * d->channels);
	if (kind)
		return kind;
	for (unsigned int c = 0; c < d->channels; c++) {
		if (ints) {
			v[c] = channel_int(d->format, raw + c * bytes);
		} else {
			f = channel_float(d, raw + c * bytes);
			memcpy(&v[c], &f, 4);
		}
	}
	return 0;
}

int vgpu_tex_sample(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		    void *opaque, const float c[3], int layer, uint32_t out[4])
{
	const uint32_t size[3] = { d->width, d->height, d->depth };
	int ints = d->read_mode == VGPU_TEX_ELEMENT && is_integer(d->format);
	int64_t i0[3] = { 0, 0, 0 };
	unsigned int w[3] = { 0, 0, 0 };	/* weights of texel i0 + 1, /256 */
	unsigned int dim, corner, dims = d->dims;
	float acc[4] = { 0, 0, 0, 0 };
	uint32_t corner_w[8];
	int kind;

	if (d->layered) {
		layer = layer < 0 ? 0 : layer >= (int)d->depth ?
			(int)d->depth - 1 : layer;
	}
	for (dim = 0; dim < dims; dim++) {
		double u = texel_space(c[dim], size[dim], d->normalized);

		if (d->filter == VGPU_TEX_POINT || ints) {
			i0[dim] = (int64_t)floor(u);
		} else {
			double f;

			u -= 0.5;
			i0[dim] = (int64_t)floor(u);
			f = u - (double)i0[dim];
			w[dim] = (unsigned int)floor(f * 256.0 + 0.5);
		}
	}
	if (d->filter == VGPU_TEX_POINT || ints) {
		int64_t ix[3] = { 0, 0, 0 };

		for (dim = 0; dim < dims; dim++)
			ix[dim] = address(i0[dim], size[dim], d->address[dim],
					  d->normalized);
		return fetch(d, read, opaque, ix, layer, ints, out);
	}
	/*
	 * The corners' weights in 1/256, summing to 256, as the H100's
	 * fixed-point bilinear unit makes them (x is bit 0 of the corner,
	 * y bit 1, z bit 2): w11 = round(a * b) (ties up), w10 = a - w11,
	 * w01 = b - w11, w00 = the rest; a third dimension splits each of
	 * those the same way, round(w * c) to the far slice.
	 */
	if (dims == 1) {
		corner_w[0] = 256 - w[0];
		corner_w[1] = w[0];
	} else {
		for (unsigned int sl = 0; sl < (dims == 3 ? 2u : 1u); sl++) {
			uint32_t t = dims == 3 ? (sl ? w[2] : 256 - w[2]) : 256;
			uint32_t *cw = corner_w + 4 * sl;

			cw[3] = (w[0] * w[1] * t + (1u << 15)) >> 16;
			cw[2] = ((w[1] * t + 128) >> 8) - cw[3];
			cw[1] = ((w[0] * t + 128) >> 8) - cw[3];
			cw[0] = t - cw[1] - cw[2] - cw[3];
		}
	}
	for (corner = 0; corner < (1u << dims); corner++) {
		int64_t ix[3] = { 0, 0, 0 };
		uint32_t v[4];
		float f;

		for (dim = 0; dim < dims; dim++)
			ix[dim] = address(i0[dim] + (corner >> dim & 1),
					  size[dim], d->address[dim],
					  d->normalized);
		kind = fetch(d, read, opaque, ix, layer, 0, v);
		if (kind)
			return kind;
		for (unsigned int k = 0; k < 4; k++) {
			memcpy(&f, &v[k], 4);
			acc[k] += (float)corner_w[corner] * f;
		}
	}
	for (unsigned int k = 0; k < 4; k++)
		acc[k] /= 256.0f;
	memcpy(out, acc, sizeof(acc));
	return 0;
}

int vgpu_tex_fetch(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		   void *opaque, const struct vgpu_tex_request *req,
		   uint32_t out[4])
{
	/* Level 0 only, without offsets, gather or cubemaps, for now. */
	if (req->gather >= 0 || d->cubemap || d->levels > 1 ||
	    req->offset[0] || req->offset[1] || req->offset[2])
		return VISA_FAULT_INVALID_IMAGE;
	return vgpu_tex_sample(d, read, opaque, req->c, req->layer, out);
}
