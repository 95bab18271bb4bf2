// SPDX-License-Identifier: GPL-2.0
/*
 * tex_sampler.c - the texture unit: address modes, point and linear
 * filtering, read-mode conversion, mipmap levels, gather, texel offsets
 * and cubemaps (seamless too), as an H100 does them (tests/golden/
 * probe_tex.h100.txt and probe_texfid.h100.txt; tests/test_tex_golden.c
 * and test_tex_fetch_golden.c compare bit for bit,
 * Documentation/textures.rst lists what matches).
 *
 * Per coordinate: normalized coordinates are scaled by the level's size;
 * wrap and mirror exist only for normalized coordinates (unnormalized
 * ones clamp, as on the H100).  Point sampling takes texel floor(u).
 * Linear sampling takes texels floor(u - 0.5) and the next, weighted by
 * the fraction quantized to 1/256 (round to nearest) - the hardware's
 * 8-bit fixed point weights.  Each texel index then goes through the
 * address mode: wrap (modulo), mirror (period 2n, reflected), clamp to
 * the edge, or border (outside: the border colour).  Float texels are
 * weighted as floats (halves rounded to a half, ties away), normalized
 * integers in 16-bit fixed point, sRGB codes decoded through the H100's
 * table and filtered in block floating point (srgb_sum()).  The level of
 * detail comes from the footprint of the gradients (footprint(),
 * aniso_lod()); with anisotropy on, the blend of two levels is narrowed
 * (aniso_blend()) but one sample is taken, at the centre.  Layered
 * textures clamp an unsigned layer index to a resource view's range;
 * layers past the array read zeros.
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
	uint64_t base = d->base;

	switch (d->layout) {
	case VGPU_TEX_PITCH:
		return d->base + (uint64_t)y * d->pitch + (uint64_t)x * elem;
	case VGPU_TEX_LINEAR:
		return d->base + (uint64_t)x * elem;
	default:
		/* a mipmapped array: the chain of vgpu_array.h */
		if (d->levels > 1)
			base += vgpu_mip_level(d->width, d->height, d->depth,
					       elem, d->layered || d->cubemap,
					       level, &l);
		return base + vgpu_bl_offset(&l, x * elem, y, z);
	}
}

/*
 * sRGB code b (0..255) decoded as an H100 does: its table, recorded
 * (tests/golden/probe_texfid.h100.txt, "srgb" lines: every code, point
 * and linear filtering alike; probe_tex.h100.txt's srgbtab agrees).  It is
 * no rounding of the sRGB curve: codes 0-12 lie on a line of slope
 * 5/16384, the others are the curve to 8 significant bits, 1 unit of the
 * last off in 17 codes.  test_tex_golden checks every entry.
 */
static const uint32_t srgb_tab[256] = {
	0x00000000, 0x39a00000, 0x3a200000, 0x3a700000, 0x3aa00000, 0x3ac80000,
	0x3af00000, 0x3b0c0000, 0x3b200000, 0x3b340000, 0x3b480000, 0x3b5c0000,
	0x3b700000, 0x3b840000, 0x3b900000, 0x3b9c0000, 0x3baa0000, 0x3bb80000,
	0x3bc60000, 0x3bd60000, 0x3be60000, 0x3bf60000, 0x3c030000, 0x3c0c0000,
	0x3c160000, 0x3c1f0000, 0x3c290000, 0x3c340000, 0x3c3e0000, 0x3c490000,
	0x3c550000, 0x3c600000, 0x3c6c0000, 0x3c7a0000, 0x3c830000, 0x3c8a0000,
	0x3c910000, 0x3c980000, 0x3c9f0000, 0x3ca60000, 0x3cae0000, 0x3cb60000,
	0x3cbe0000, 0x3cc60000, 0x3cce0000, 0x3cd70000, 0x3ce00000, 0x3ce90000,
	0x3cf20000, 0x3cfc0000, 0x3d030000, 0x3d080000, 0x3d0d0000, 0x3d120000,
	0x3d170000, 0x3d1c0000, 0x3d220000, 0x3d280000, 0x3d2d0000, 0x3d330000,
	0x3d390000, 0x3d3f0000, 0x3d450000, 0x3d4c0000, 0x3d520000, 0x3d580000,
	0x3d600000, 0x3d660000, 0x3d6c0000, 0x3d740000, 0x3d7a0000, 0x3d810000,
	0x3d850000, 0x3d880000, 0x3d8c0000, 0x3d900000, 0x3d940000, 0x3d980000,
	0x3d9c0000, 0x3da00000, 0x3da40000, 0x3da90000, 0x3dad0000, 0x3db10000,
	0x3db60000, 0x3dba0000, 0x3dbf0000, 0x3dc30000, 0x3dc80000, 0x3dcd0000,
	0x3dd10000, 0x3dd60000, 0x3ddb0000, 0x3de00000, 0x3de50000, 0x3dea0000,
	0x3df00000, 0x3df40000, 0x3dfa0000, 0x3e000000, 0x3e020000, 0x3e050000,
	0x3e080000, 0x3e0b0000, 0x3e0e0000, 0x3e110000, 0x3e140000, 0x3e170000,
	0x3e1a0000, 0x3e1d0000, 0x3e200000, 0x3e230000, 0x3e260000, 0x3e290000,
	0x3e2c0000, 0x3e300000, 0x3e330000, 0x3e360000, 0x3e3a0000, 0x3e3d0000,
	0x3e400000, 0x3e440000, 0x3e470000, 0x3e4b0000, 0x3e4e0000, 0x3e520000,
	0x3e560000, 0x3e590000, 0x3e5d0000, 0x3e610000, 0x3e650000, 0x3e680000,
	0x3e6c0000, 0x3e700000, 0x3e740000, 0x3e780000, 0x3e7c0000, 0x3e800000,
	0x3e820000, 0x3e840000, 0x3e860000, 0x3e880000, 0x3e8a0000, 0x3e8d0000,
	0x3e8f0000, 0x3e910000, 0x3e930000, 0x3e950000, 0x3e980000, 0x3e9a0000,
	0x3e9c0000, 0x3e9e0000, 0x3ea10000, 0x3ea30000, 0x3ea50000, 0x3ea80000,
	0x3eaa0000, 0x3ead0000, 0x3eaf0000, 0x3eb20000, 0x3eb40000, 0x3eb60000,
	0x3eb90000, 0x3ebc0000, 0x3ebe0000, 0x3ec10000, 0x3ec30000, 0x3ec60000,
	0x3ec80000, 0x3ecb0000, 0x3ece0000, 0x3ed10000, 0x3ed30000, 0x3ed60000,
	0x3ed90000, 0x3edb0000, 0x3ede0000, 0x3ee10000, 0x3ee40000, 0x3ee70000,
	0x3eea0000, 0x3eed0000, 0x3ef00000, 0x3ef20000, 0x3ef60000, 0x3ef80000,
	0x3efc0000, 0x3efe0000, 0x3f010000, 0x3f020000, 0x3f040000, 0x3f050000,
	0x3f070000, 0x3f090000, 0x3f0a0000, 0x3f0c0000, 0x3f0d0000, 0x3f0f0000,
	0x3f110000, 0x3f120000, 0x3f140000, 0x3f160000, 0x3f170000, 0x3f190000,
	0x3f1b0000, 0x3f1c0000, 0x3f1e0000, 0x3f200000, 0x3f210000, 0x3f230000,
	0x3f250000, 0x3f270000, 0x3f290000, 0x3f2a0000, 0x3f2c0000, 0x3f2e0000,
	0x3f300000, 0x3f320000, 0x3f330000, 0x3f350000, 0x3f370000, 0x3f390000,
	0x3f3b0000, 0x3f3d0000, 0x3f3f0000, 0x3f410000, 0x3f430000, 0x3f450000,
	0x3f470000, 0x3f490000, 0x3f4b0000, 0x3f4d0000, 0x3f4f0000, 0x3f510000,
	0x3f530000, 0x3f550000, 0x3f570000, 0x3f590000, 0x3f5b0000, 0x3f5d0000,
	0x3f5f0000, 0x3f610000, 0x3f630000, 0x3f650000, 0x3f680000, 0x3f6a0000,
	0x3f6c0000, 0x3f6e0000, 0x3f700000, 0x3f720000, 0x3f740000, 0x3f760000,
	0x3f7a0000, 0x3f7c0000, 0x3f7e0000, 0x3f800000,
};

static float srgb_decode(unsigned int b)
{
	float f;

	memcpy(&f, &srgb_tab[b & 255], 4);
	return f;
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

/* The address mode of dimension @dim as it applies (see address()). */
static unsigned int address_of(const struct vgpu_tex_desc *d, unsigned int dim)
{
	unsigned int mode = d->address[dim];

	if (!d->normalized && (mode == VGPU_TEX_WRAP || mode == VGPU_TEX_MIRROR))
		return VGPU_TEX_CLAMP;
	return mode;
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

/* The fraction bits an s8 texel keeps below its 16-bit fixed point. */
#define FIXED_S8_FRAC	3

/*
 * A texel as the 16-bit fixed point the filter of normalized integers
 * works in (s8: with FIXED_S8_FRAC more bits), and that fixed point's
 * one in *@one.
 */
static int32_t channel_fixed(unsigned int format, const uint8_t *p,
			     int32_t *one)
{
	int32_t v = (int32_t)channel_int(format, p);

	switch (format) {
	case VGPU_TEX_U8:
		*one = 65535;
		return v * 257;
	case VGPU_TEX_S8:
		*one = 32767;
		/*
		 * v * 258.0078125 (32767 / 127 cut to 7 fraction bits),
		 * floored to FIXED_S8_FRAC = 3 fraction bits and kept so
		 * until the filter's sum is rounded: every s8 value and 78
		 * of the H100's 80 s8 bilinear fetches agree (7 bits kept:
		 * 73).  -128 is not clamped to -127 before the filter (the
		 * H100's sums weigh it as -128 * 258.0078125), only the
		 * result is clamped to -1.
		 */
		return (int32_t)floor(v * 33025 / 16.0);
	case VGPU_TEX_U16:
		*one = 65535;
		return v;
	default:
		*one = 32767;
		return v < -32767 ? -32767 : v;
	}
}

/* The border colour as the raw bytes of a texel of @d's format. */
static void border_raw(const struct vgpu_tex_desc *d, uint8_t raw[16])
{
	unsigned int bytes = vgpu_tex_format_bytes(d->format);

	for (unsigned int c = 0; c < d->channels; c++) {
		float b = d->border[c];
		uint8_t *p = raw + c * bytes;
		uint16_t h;
		int32_t i;

		switch (d->format) {
		case VGPU_TEX_U8: case VGPU_TEX_U16:
			b = fminf(fmaxf(b, 0.0f), 1.0f);	/* NaN: 0 */
			/* halves round down: 0.5 is 127 in u8 on the H100 */
			i = (int32_t)ceilf(b * (d->format == VGPU_TEX_U8 ?
						 255.0f : 65535.0f) - 0.5f);
			memcpy(p, &i, bytes);	/* little endian */
			break;
		case VGPU_TEX_S8: case VGPU_TEX_S16:
			b = fminf(fmaxf(b, -1.0f), 1.0f);
			i = (int32_t)ceilf(b * (d->format == VGPU_TEX_S8 ?
						 127.0f : 32767.0f) - 0.5f);
			memcpy(p, &i, bytes);
			break;
		case VGPU_TEX_F16:
			h = f16_from_double(b, RND_N);
			memcpy(p, &h, 2);
			break;
		default:
			memcpy(p, &b, 4);
			break;
		}
	}
}

/*
 * Texel (x, y, z) of mipmap level @level (already addressed; -1 on a
 * border) as 4 floats, 4 ints (@ints) or, with @fixed, 4 channel_fixed()
 * values; 0 or a fault kind.
 */
static int fetch(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		 void *opaque, unsigned int level, const int64_t ix[3],
		 int layer, int ints, int fixed, uint32_t v[4])
{
	unsigned int bytes = vgpu_tex_format_bytes(d->format);
	uint8_t raw[16];
	int32_t one;
	uint32_t z;
	float f;
	int kind;

	memset(v, 0, 4 * sizeof(*v));
	/*
	 * The border colour, stored in the texture's format first (so a
	 * normalized integer texture returns it quantized): in the
	 * channels the format has (the others read 0); integer element
	 * reads get 0 (all as an H100 does).
	 */
	z = d->layered || d->cubemap ? (uint32_t)layer : (uint32_t)ix[2];
	if ((d->layered || d->cubemap) && z >= d->depth)
		return 0;	/* a layer past the array: zeros (H100) */
	if (ix[0] < 0 || ix[1] < 0 || ix[2] < 0) {
		if (ints)
			return 0;
		border_raw(d, raw);
	} else {
		kind = read(opaque, vgpu_tex_texel_va(d, level,
						      (uint32_t)ix[0],
						      (uint32_t)ix[1], z),
			    raw, bytes * d->channels);
		if (kind)
			return kind;
	}
	for (unsigned int c = 0; c < d->channels; c++) {
		if (ints) {
			v[c] = channel_int(d->format, raw + c * bytes);
		} else if (fixed) {
			v[c] = (uint32_t)channel_fixed(d->format,
						       raw + c * bytes, &one);
		} else {
			/* sRGB: the colour channels of 8-bit normalized reads */
			if (d->srgb && d->format == VGPU_TEX_U8 && c < 3 &&
			    d->read_mode == VGPU_TEX_NORMALIZED)
				f = srgb_decode(raw[c]);
			else
				f = channel_float(d, raw + c * bytes);
			memcpy(&v[c], &f, 4);
		}
	}
	return 0;
}

/* The size of level @level in dimension @dim. */
static uint32_t level_size(const struct vgpu_tex_desc *d, unsigned int level,
			   unsigned int dim)
{
	uint32_t n = dim == 0 ? d->width : dim == 1 ? d->height : d->depth;

	return n >> level ? n >> level : 1;
}

/*
 * The linear filter's corner weights in 1/256 (x is bit 0 of the
 * corner, y bit 1, z bit 2), as the H100's fixed-point unit splits its
 * 256 (probe_tex's one-hot w3d and wmip recordings, every weight):
 *
 *   a slice's share t:  3D: far slice c, near slice 256 - c, exactly;
 *                       one of two mipmap levels: @total (wl or 256 - wl)
 *   x:  far = round(a * t / 256), near = t - far           (ties up)
 *   y:  of the far piece, round(b * far / 256) is y-far    (ties up)
 *       of the near piece, round(b * near / 256) is y-far  (ties down)
 *
 * so the corners (0,0) and (1,1) of each slice round up and the others
 * take the rest; with t = 256 this is w11 = round(a * b / 256),
 * w10 = a - w11, w01 = b - w11, w00 the rest.
 */
static void corner_weights(unsigned int dims, const unsigned int w[3],
			   uint32_t total, uint32_t corner_w[8])
{
	for (unsigned int sl = 0; sl < (dims == 3 ? 2u : 1u); sl++) {
		uint32_t zf = dims == 3 ? (w[2] * total + 128) >> 8 : 0;
		uint32_t t = dims == 3 ? (sl ? zf : total - zf) : total;
		uint32_t xf = (w[0] * t + 128) >> 8, xn = t - xf;
		uint32_t *cw = corner_w + 4 * sl;

		if (dims == 1) {
			cw[0] = xn;
			cw[1] = xf;
			return;
		}
		cw[3] = (w[1] * xf + 128) >> 8;
		cw[2] = (w[1] * xn + 127) >> 8;
		cw[1] = xf - cw[3];
		cw[0] = xn - cw[2];
	}
}

/*
 * The filter's sum: texels times weights in 1/256 (all the weights of a
 * fetch, over one or two mipmap levels, sum to 256); normalized integers
 * in 16-bit fixed point (H100: u8, u16, s16 bit-identical this way).
 */
struct accum {
	float f[4];
	double h[4];	/* half texels: summed exactly */
	int64_t fx[4];
	int fixed;
	int srgb;	/* colour channels: sRGB decoded (srgb_sum()) */
	int32_t one;	/* the fixed point's 1.0 */
	/* sRGB: the decoded colour texels and their weights, up to 8 */
	unsigned int n;
	uint32_t srgb_w[8];
	float srgb_v[8][3];
};


/*
 * @x rounded to a half, to nearest, ties away from zero (IEEE's
 * roundTiesToAway, which fp_narrow() does not have): the half towards
 * zero or the next one out, whichever is nearer, the outer on a tie.
 */
static float half_ties_away(double x)
{
	uint16_t in = f16_from_double(x, RND_Z);
	double lo = f16_to_double(in), hi;

	if (lo == x || isnan(x) || (in & 0x7fff) >= 0x7c00)
		return (float)lo;
	hi = f16_to_double((uint16_t)(in + 1));	/* same sign, one out */
	return (float)(fabs(x - lo) < fabs(hi - x) ? lo : hi);
}

static void accum_init(const struct vgpu_tex_desc *d, struct accum *a)
{
	memset(a, 0, sizeof(*a));
	a->fixed = is_integer(d->format);
	a->srgb = d->srgb && d->format == VGPU_TEX_U8;
	a->one = 1;
	if (a->fixed)
		channel_fixed(d->format, (const uint8_t[4]){ 0 }, &a->one);
}

static void accum_add(struct accum *a, uint32_t weight, const uint32_t v[4])
{
	float f;

	for (unsigned int k = 0; k < 4; k++) {
		if (a->srgb && k < 3) {
			/* the fixed point of a u8 is b * 257 */
			if (a->n < 8)
				a->srgb_v[a->n][k] =
					srgb_decode((uint32_t)v[k] / 257);
		} else if (a->fixed) {
			a->fx[k] += (int64_t)weight * (int32_t)v[k];
		} else {
			memcpy(&f, &v[k], 4);
			a->f[k] += (float)weight * f;
			a->h[k] += (double)weight * f;
		}
	}
	if (a->srgb && a->n < 8)
		a->srgb_w[a->n++] = weight;
}

/*
 * The sum of colour channel @k of sRGB texels, in 1/256: the decoded
 * texels are aligned to the exponent of the footprint's largest (block
 * floating point), keeping 8 significant bits of it, the others cut
 * (towards zero) to the same step, then weighted exactly.  A largest
 * texel of 15/16 of its binade or more counts in the next binade (as if
 * its exponent were taken after rounding it to 3 significant bits).
 * The H100's sweeps show it: code 64 (0.05126953125, 52.5 steps of
 * 2^-10) filtered with code 128 (0.2158203125, exponent 2^-3) counts as
 * 52 steps, 0.05078125, at every weight but 0; code 128 with code 247
 * (0.9296875) counts 55 steps of 2^-8, with code 248 (0.9375) 27 steps
 * of 2^-7; two texels of one code filter to the code's own value
 * (probe_texfid, probe_texrest: 10 of 10 two-code sweeps, 8900 of 8960
 * blends, all 80 2D fetches of probe_tex).
 */
static double srgb_sum(const struct accum *a, unsigned int k)
{
	float mx = 0.0f;
	double step, sum = 0.0;
	int e;

	for (unsigned int i = 0; i < a->n; i++)
		if (a->srgb_w[i] && a->srgb_v[i][k] > mx)
			mx = a->srgb_v[i][k];
	if (mx == 0.0f)
		return 0.0;
	if (frexpf(mx, &e) >= 0.9375f)	/* mx in [2^(e-1), 2^e) */
		e++;	/* 15/16 of the binade or more: the next */
	step = ldexp(1.0, e - 8);
	for (unsigned int i = 0; i < a->n; i++)
		sum += (double)a->srgb_w[i] *
		       floor(a->srgb_v[i][k] / step) * step;
	return sum;
}

static void accum_result(const struct vgpu_tex_desc *d,
			 const struct accum *a, uint32_t out[4])
{
	float r[4];

	for (unsigned int k = 0; k < 4; k++) {
		if (a->srgb && k < 3) {
			/*
			 * The aligned texels' sum rounded to a half (11
			 * significant bits, ties away from zero): all of
			 * probe_texfid's 4 two-code sweeps bit-identical
			 * so, 8900 of probe_texrest's 8960 blends.
			 */
			r[k] = half_ties_away(srgb_sum(a, k) / 256.0);
		} else if (a->fixed) {
			/*
			 * Round to the fixed point (ties up), then to
			 * float; floor division, the sum may be negative.
			 */
			unsigned int sh = 8 + (d->format == VGPU_TEX_S8 ?
					       FIXED_S8_FRAC : 0);
			int64_t t = a->fx[k] + ((int64_t)1 << (sh - 1));
			int64_t q = t >= 0 ? t >> sh :
				    -((-t + ((int64_t)1 << sh) - 1) >> sh);

			if (q < -a->one)
				q = -a->one;	/* s8's -128 weighed unclamped */
			r[k] = k < d->channels ? (float)q / (float)a->one : 0.0f;
		} else {
			r[k] = a->f[k] / 256.0f;
			/*
			 * Half texels are filtered exactly and the sum
			 * rounded to a half, to nearest with ties away from
			 * zero (all 80 of the H100's half fetches; 13 of
			 * them are ties, either sign).
			 */
			if (d->format == VGPU_TEX_F16)
				r[k] = half_ties_away(a->h[k] / 256.0);
		}
	}
	memcpy(out, r, sizeof(r));
}

/*
 * One fetch from mipmap level @level: point (@a NULL: into @out),
 * linear (into @a with the weights summing to @total), or (@gather >= 0)
 * the 2x2 footprint's component @gather; @off: texel offsets.
 */
static int sample_level(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
			void *opaque, unsigned int level, const float c[3],
			int layer, const int32_t off[3], int gather,
			uint32_t total, struct accum *a, uint32_t out[4])
{
	int ints = d->read_mode == VGPU_TEX_ELEMENT && is_integer(d->format);
	int linear = d->filter == VGPU_TEX_LINEAR_FILTER && !ints;
	int64_t i0[3] = { 0, 0, 0 };
	unsigned int w[3] = { 0, 0, 0 };	/* weights of texel i0 + 1, /256 */
	unsigned int dim, corner, dims = d->dims;
	uint32_t size[3], corner_w[8], v[4];
	int kind;

	if (d->layered && !d->cubemap) {
		/*
		 * The layer index is unsigned, clamped to the texture's (the
		 * view's) last layer: -1 reads the last (H100,
		 * probe_texfid's view lines).
		 */
		uint32_t n = d->layers ? d->layers : d->depth;
		uint32_t u = (uint32_t)layer;

		layer = (int)(d->first_layer + (u < n ? u : n - 1));
	}
	for (dim = 0; dim < dims; dim++) {
		double u;

		size[dim] = level_size(d, level, dim);
		u = texel_space(c[dim], size[dim], d->normalized);
		if (!linear && gather < 0) {
			i0[dim] = (int64_t)floor(u);
		} else {
			double f;

			/*
			 * Filtering under clamp moves the point inside
			 * first, so that the weights are split as there
			 * (it changes the rounding of 3D and mip-linear
			 * weights; the H100 does it, gather does not).
			 */
			if (gather < 0 && address_of(d, dim) == VGPU_TEX_CLAMP) {
				u += off[dim];
				u = u < 0.5 ? 0.5 : u > size[dim] - 0.5 ?
				    size[dim] - 0.5 : u;
				u -= off[dim];
			}
			u -= 0.5;
			i0[dim] = (int64_t)floor(u);
			f = u - (double)i0[dim];
			w[dim] = (unsigned int)floor(f * 256.0 + 0.5);
			if (w[dim] == 256) {
				/* the position, quantized, is texel i0 + 1 */
				i0[dim]++;
				w[dim] = 0;
			}
		}
		i0[dim] += off[dim];
	}
	if (gather >= 0) {
		/* tld4: (0,1) (1,1) (1,0) (0,0), as D3D and GL order them */
		static const unsigned int order[4] = { 2, 3, 1, 0 };

		for (unsigned int k = 0; k < 4; k++) {
			int64_t ix[3] = { 0, 0, 0 };

			for (dim = 0; dim < dims && dim < 2; dim++)
				ix[dim] = address(i0[dim] + (order[k] >> dim & 1),
						  size[dim], d->address[dim],
						  d->normalized);
			kind = fetch(d, read, opaque, level, ix, layer, ints, 0,
				     v);
			if (kind)
				return kind;
			out[k] = v[gather & 3];
		}
		return 0;
	}
	if (!linear) {
		int64_t ix[3] = { 0, 0, 0 };

		for (dim = 0; dim < dims; dim++)
			ix[dim] = address(i0[dim], size[dim], d->address[dim],
					  d->normalized);
		if (!a)
			return fetch(d, read, opaque, level, ix, layer, ints,
				     0, out);
		kind = fetch(d, read, opaque, level, ix, layer, 0, a->fixed,
			     v);
		if (!kind)
			accum_add(a, total, v);
		return kind;
	}
	corner_weights(dims, w, total, corner_w);
	for (corner = 0; corner < (1u << dims); corner++) {
		int64_t ix[3] = { 0, 0, 0 };

		for (dim = 0; dim < dims; dim++)
			ix[dim] = address(i0[dim] + (corner >> dim & 1),
					  size[dim], d->address[dim],
					  d->normalized);
		kind = fetch(d, read, opaque, level, ix, layer, 0, a->fixed, v);
		if (kind)
			return kind;
		accum_add(a, corner_w[corner], v);
	}
	return 0;
}

/* A fetch from one level, point or linear. */
static int sample_one(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		      void *opaque, unsigned int level, const float c[3],
		      int layer, const int32_t off[3], uint32_t out[4])
{
	struct accum a;
	int kind;

	if (d->filter == VGPU_TEX_POINT ||
	    (d->read_mode == VGPU_TEX_ELEMENT && is_integer(d->format)))
		return sample_level(d, read, opaque, level, c, layer, off, -1,
				    256, NULL, out);
	accum_init(d, &a);
	kind = sample_level(d, read, opaque, level, c, layer, off, -1, 256,
			    &a, out);
	if (!kind)
		accum_result(d, &a, out);
	return kind;
}

int vgpu_tex_sample(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		    void *opaque, const float c[3], int layer, uint32_t out[4])
{
	static const int32_t none[3] = { 0, 0, 0 };

	return sample_one(d, read, opaque, 0, c, layer, none, out);
}

/*
 * log2 of a gradient length's mantissa 1 + k/256 in 1/256, as the H100's
 * texture unit has it: the weight of level 1 it gave a 2-level texture
 * for a gradient of 1 + k/256 texels (tests/golden/probe_texfid.h100.txt,
 * "grad" lines with aniso=0; test_tex_fetch_golden checks the table
 * against them).  Not the rounded log2: ceil(256 log2(m)) in 230 of the
 * 256, one less or more in the others (an approximation in hardware).
 */
static const uint8_t log2_tab[256] = {
	  0,   2,   4,   5,   6,   8,   9,  11,  12,  13,  15,  16,
	 18,  19,  20,  22,  23,  24,  26,  27,  28,  30,  31,  32,
	 34,  35,  36,  38,  39,  40,  42,  43,  44,  45,  47,  48,
	 49,  50,  52,  53,  54,  55,  57,  58,  59,  60,  62,  63,
	 64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,
	 78,  79,  81,  82,  83,  84,  85,  86,  88,  89,  90,  91,
	 92,  93,  94,  95,  97,  98,  99, 100, 101, 102, 103, 104,
	105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
	118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129,
	130, 131, 132, 133, 135, 136, 137, 137, 138, 139, 140, 141,
	142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153,
	154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
	165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175,
	176, 177, 178, 179, 180, 181, 181, 182, 183, 184, 185, 186,
	187, 188, 188, 189, 190, 191, 192, 193, 194, 195, 195, 196,
	197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
	207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216,
	217, 218, 218, 219, 220, 221, 222, 222, 223, 224, 225, 226,
	226, 227, 228, 229, 229, 230, 231, 232, 233, 233, 234, 235,
	236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
	245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253,
	253, 254, 255, 255,
};

/*
 * A vector's length in texels, as the H100 approximates it: the largest
 * component plus 11/32 of the others (probe_texfid's gradxy sweep: all
 * 136 vectors; (1, 1) is 1.34375, not sqrt 2).
 */
static double approx_length(const double v[3], unsigned int dims)
{
	double mx = 0.0, sum = 0.0;

	for (unsigned int i = 0; i < dims; i++) {
		mx = fmax(mx, fabs(v[i]));
		sum += fabs(v[i]);
	}
	return mx + 0.34375 * (sum - mx);
}

/* @x cut (towards zero) to 10 significant bits, as a gradient is taken. */
static double grad_bits(double x)
{
	int e;

	if (x == 0.0 || !isfinite(x))
		return x;
	frexp(x, &e);
	return trunc(ldexp(x, 10 - e)) * ldexp(1.0, e - 10);
}

/*
 * The footprint's size in texels from the two gradients dP/dx and dP/dy
 * (in texels of level 0, components cut to 10 significant bits): the
 * longer of the two, or 11/16 of the longer of their sum and difference
 * if that is more - an approximation of the major axis of the
 * parallelogram they span, which takes parallel gradients as their sum
 * and (1, 1) with (-1, 1) as 1.375 (probe_texrest's grad2 sweep with
 * maxAnisotropy 0: 783 of 804 pairs exact, the rest one step of 1/256
 * off in log2).
 */
static double footprint(const double dx[3], const double dy[3],
			unsigned int dims)
{
	double s[3] = { 0, 0, 0 }, t[3] = { 0, 0, 0 }, len;

	for (unsigned int i = 0; i < dims; i++) {
		s[i] = dx[i] + dy[i];
		t[i] = dx[i] - dy[i];
	}
	len = fmax(approx_length(dx, dims), approx_length(dy, dims));
	return fmax(len, 0.6875 * fmax(approx_length(s, dims),
					approx_length(t, dims)));
}

/* log2 of a gradient length @g as the H100 takes it (log2_tab). */
static float grad_log2(float g)
{
	int e;
	double m;

	if (!(g > 0.0f))
		return -INFINITY;	/* no gradient: level 0 after clamps */
	if (isinf(g))
		return INFINITY;
	m = frexp(g, &e) * 2.0;		/* [1, 2) */
	return (float)(e - 1) + log2_tab[(int)((m - 1.0) * 256.0)] / 256.0f;
}

/*
 * The level of detail under maxAnisotropy @aniso, from the footprint's
 * log2 @major and the area @det of the gradients' parallelogram: the
 * minor axis, area / major (log2s subtracted, both from the table, and
 * at most the major), or the major over @aniso if that is more - the
 * level the anisotropic samples are taken from (probe_texrest's grad2
 * sweep with maxAnisotropy 2, 4 and 16: 2342 of 2412 pairs exact, the
 * rest 1/256 off before the blend's remap).  Where the H100 places its
 * samples along the major axis is not modelled: vGPU takes one sample
 * at the centre, at this level.
 */
static float aniso_lod(float major, double det, uint32_t aniso)
{
	float minor = grad_log2((float)det) - major;

	if (aniso > 16)
		aniso = 16;
	if (minor > major)
		minor = major;
	return fmaxf(major - grad_log2((float)aniso), minor);
}

/*
 * The level of detail of @req: LEVEL's lod, GRAD's log2 of the
 * footprint(), AUTO's 0 (a compute kernel has no quads to take
 * derivatives from; the H100 samples level 0), then the bias and the
 * clamps.
 */
static float level_of_detail(const struct vgpu_tex_desc *d,
			     const struct vgpu_tex_request *req)
{
	float lod = 0.0f;

	if (req->lod_kind == VGPU_TEX_LOD_LEVEL) {
		lod = req->lod;
	} else if (req->lod_kind == VGPU_TEX_LOD_GRAD) {
		const uint32_t size[3] = { d->width, d->height, d->depth };
		double dx[3] = { 0, 0, 0 }, dy[3] = { 0, 0, 0 };

		for (unsigned int dim = 0; dim < d->dims; dim++) {
			dx[dim] = grad_bits((double)req->dpdx[dim] * size[dim]);
			dy[dim] = grad_bits((double)req->dpdy[dim] * size[dim]);
		}
		lod = grad_log2((float)footprint(dx, dy, d->dims));
		if (d->max_aniso >= 2 && d->dims == 2)
			lod = aniso_lod(lod, fabs(dx[0] * dy[1] - dx[1] * dy[0]),
					d->max_aniso);
	}
	lod += d->lod_bias;
	if (lod > d->max_lod)
		lod = d->max_lod;
	if (lod < d->min_lod)
		lod = d->min_lod;
	if (!(lod > 0.0f))
		lod = 0.0f;	/* NaN too */
	if (lod > (float)(d->levels - 1))
		lod = (float)(d->levels - 1);
	return lod;
}

/*
 * A cubemap direction as a face and the face's normalized coordinates
 * (the CUDA programming guide's table: the major axis picks the face,
 * s and t are the other two over its magnitude, mapped to [0, 1]).
 *
 *            +----+
 *            | +y |
 *       +----+----+----+----+
 *       | -x | +z | +x | -z |      face = 2 * axis + (negative)
 *       +----+----+----+----+
 *            | -y |
 *            +----+
 */
static int cube_face(const float dir[3], float st[2])
{
	float ax = fabsf(dir[0]), ay = fabsf(dir[1]), az = fabsf(dir[2]);
	float m, s, t;
	int face;

	/* ties go to z, then y (H100) */
	if (ax > ay && ax > az) {
		face = dir[0] >= 0 ? 0 : 1;
		m = ax;
		s = face ? dir[2] : -dir[2];
		t = -dir[1];
	} else if (ay > az) {
		face = dir[1] >= 0 ? 2 : 3;
		m = ay;
		s = dir[0];
		t = face == 2 ? dir[2] : -dir[2];
	} else {
		face = dir[2] >= 0 ? 4 : 5;
		m = az;
		s = face == 4 ? dir[0] : -dir[0];
		t = -dir[1];
	}
	if (!(m > 0.0f))
		m = 1.0f;	/* the zero direction: face +x's centre */
	st[0] = (s / m + 1.0f) * 0.5f;
	st[1] = (t / m + 1.0f) * 0.5f;
	return face;
}

/* The direction of point (s, t) in [-1, 1] of @face (cube_face()'s inverse). */
static void cube_dir(int face, float s, float t, float dir[3])
{
	switch (face) {
	case 0: dir[0] = 1; dir[1] = -t; dir[2] = -s; break;
	case 1: dir[0] = -1; dir[1] = -t; dir[2] = s; break;
	case 2: dir[0] = s; dir[1] = 1; dir[2] = t; break;
	case 3: dir[0] = s; dir[1] = -1; dir[2] = -t; break;
	case 4: dir[0] = s; dir[1] = -t; dir[2] = 1; break;
	default: dir[0] = -s; dir[1] = -t; dir[2] = -1; break;
	}
}

/*
 * Seamless bilinear filtering of a cubemap: the 2 x 2 footprint on
 * @face at (@st), weighted as on one face, but a texel off the face's
 * edge is the neighbouring face's texel its centre's direction falls on,
 * and off a corner (where three faces meet) there is no texel: its
 * weight is shared by the other three.
 */
static int cube_seamless(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
			 void *opaque, int face, const float st[2],
			 uint32_t base, uint32_t out[4])
{
	uint32_t n = d->width, corner_w[8], v[4][4];
	unsigned int w[3] = { 0, 0, 0 }, c, dim, off = 4;
	int64_t i0[2];
	struct accum a;
	int kind;

	for (dim = 0; dim < 2; dim++) {
		double u = texel_space(st[dim], n, 1) - 0.5, f;

		i0[dim] = (int64_t)floor(u);
		f = u - (double)i0[dim];
		w[dim] = (unsigned int)floor(f * 256.0 + 0.5);
		if (w[dim] == 256) {
			i0[dim]++;
			w[dim] = 0;
		}
	}
	for (c = 0; c < 4; c++) {
		int64_t ix[3] = { i0[0] + (c & 1), i0[1] + (c >> 1 & 1), 0 };
		int out0 = ix[0] < 0 || ix[0] >= n, out1 = ix[1] < 0 || ix[1] >= n;
		uint32_t layer = base + (uint32_t)face;

		if (out0 && out1) {
			off = c;	/* the corner: the others' mean */
			continue;
		}
		if (out0 || out1) {
			float dir[3], nst[2];
			int nf;

			cube_dir(face, (float)((ix[0] + 0.5) / n * 2 - 1),
				 (float)((ix[1] + 0.5) / n * 2 - 1), dir);
			nf = cube_face(dir, nst);
			for (dim = 0; dim < 2; dim++) {
				ix[dim] = (int64_t)floor((double)nst[dim] * n);
				ix[dim] = ix[dim] < 0 ? 0 : ix[dim] >= n ?
					  n - 1 : ix[dim];
			}
			layer = base + (uint32_t)nf;
		}
		kind = fetch(d, read, opaque, 0, ix, (int)layer, 0,
			     is_integer(d->format), v[c]);
		if (kind)
			return kind;
	}
	corner_weights(2, w, 256, corner_w);
	if (off < 4) {
		/*
		 * The corner's weight goes to the other three: a third,
		 * rounded, to each of its two neighbours, the rest to the
		 * texel diagonally opposite (H100: the recorded corners).
		 */
		uint32_t wc = corner_w[off], third = (wc + 1) / 3;

		corner_w[off ^ 1] += third;
		corner_w[off ^ 2] += third;
		corner_w[off ^ 3] += wc - 2 * third;
		corner_w[off] = 0;
		memset(v[off], 0, sizeof(v[off]));
	}
	accum_init(d, &a);
	for (c = 0; c < 4; c++)
		accum_add(&a, corner_w[c], v[c]);
	accum_result(d, &a, out);
	return 0;
}

/*
 * The weight of the next level (in 1/256) for a level-of-detail fraction
 * @f (in 1/256) under maxAnisotropy @aniso.  With anisotropy on, the
 * H100 narrows the band where two levels are blended (as drivers'
 * "trilinear optimization" does): the blend rises with slope s from
 * c = floor(128 (1 - 1/s)), floor(s (f - c)), clamped to [0, 256]:
 *
 *   aniso 0, 1: s = 1 (plain trilinear)        256 +        ____
 *   aniso 2, 3: s = 3/2, c = 42                    |       /
 *   aniso 4-7:  s = 7/4, c = 54                    |      / s
 *   aniso 8+:   s = 2,   c = 64                    |     /
 *                                                0 +____/
 *                                                  0    c     256 f
 *
 * (tests/golden/probe_texrest.h100.txt, "remap" lines: every fraction of
 * two levels, aniso 0-6 and 8-16 even, all 6156 bit-identical.)
 */
static unsigned int aniso_blend(uint32_t aniso, unsigned int f)
{
	unsigned int num = 1, den = 1, c;
	int w;

	if (aniso >= 8) {
		num = 2;
	} else if (aniso >= 4) {
		num = 7;
		den = 4;
	} else if (aniso >= 2) {
		num = 3;
		den = 2;
	}
	c = 128 * (num - den) / num;
	w = (int)num * ((int)f - (int)c);
	/* floor division: w may be negative */
	w = w >= 0 ? w / (int)den : -((-w + (int)den - 1) / (int)den);
	return w < 0 ? 0 : w > 256 ? 256 : (unsigned int)w;
}

int vgpu_tex_fetch(const struct vgpu_tex_desc *d, vgpu_tex_read_fn read,
		   void *opaque, const struct vgpu_tex_request *req,
		   uint32_t out[4])
{
	unsigned int levels = d->levels ? d->levels : 1, l0, wl;
	struct accum a;
	float lod;
	int kind;

	if (d->cubemap && d->dims == 3) {
		/*
		 * A face of it, as a normalized 2D texture under the
		 * texture's address modes (the H100 wraps 1.0 to texel 0
		 * under the default mode, wrap).
		 */
		struct vgpu_tex_desc f = *d;
		struct vgpu_tex_request r = *req;
		int face = cube_face(req->c, r.c);

		f.dims = 2;
		f.normalized = 1;
		r.c[2] = 0.0f;
		/*
		 * A cube index is not clamped: a cube past the array (or a
		 * negative one) reads zeros, a cube past a view's range
		 * but inside the array reads the array (H100).
		 */
		r.layer = (int32_t)(d->first_layer +
				    (d->layered ? (uint32_t)req->layer * 6u : 0u) +
				    (uint32_t)face);
		if (d->layered && req->layer < 0)
			r.layer = -1;
		f.layered = 0;
		if (d->seamless && d->filter == VGPU_TEX_LINEAR_FILTER &&
		    req->gather < 0 && levels == 1 &&
		    !(d->read_mode == VGPU_TEX_ELEMENT &&
		      is_integer(d->format)))
			return cube_seamless(&f, read, opaque, face, r.c,
					     (uint32_t)r.layer - (uint32_t)face,
					     out);
		return vgpu_tex_fetch(&f, read, opaque, &r, out);
	}
	if (req->gather >= 0)
		return sample_level(d, read, opaque, 0, req->c, req->layer,
				    req->offset, req->gather, 256, NULL, out);
	if (levels == 1)
		return sample_one(d, read, opaque, 0, req->c, req->layer,
				  req->offset, out);
	lod = level_of_detail(d, req);
	if (d->mip_filter == VGPU_TEX_POINT) {
		l0 = (unsigned int)floorf(lod + 0.5f);
		return sample_one(d, read, opaque, l0 < levels ? l0 : levels - 1,
				  req->c, req->layer, req->offset, out);
	}
	/*
	 * Between two levels: the fraction cut to 1/256 (not rounded)
	 * splits the weights, and the texels of both levels are summed
	 * as one filter's (as the third dimension of a 3D texture).
	 */
	l0 = (unsigned int)floorf(lod);
	wl = aniso_blend(d->max_aniso,
			 (unsigned int)floorf((lod - (float)l0) * 256.0f));
	if (wl == 256) {
		/* the remap ran into the next level: all of it */
		l0++;
		wl = 0;
	}
	if (!wl || l0 + 1 >= levels)
		return sample_one(d, read, opaque, l0, req->c, req->layer,
				  req->offset, out);
	accum_init(d, &a);
	kind = sample_level(d, read, opaque, l0, req->c, req->layer,
			    req->offset, -1, 256 - wl, &a, out);
	if (!kind)
		kind = sample_level(d, read, opaque, l0 + 1, req->c,
				    req->layer, req->offset, -1, wl, &a, out);
	if (!kind)
		accum_result(d, &a, out);
	return kind;
}
