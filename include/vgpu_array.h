/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_array.h - the block-linear layout of CUDA arrays in VRAM.
 *
 * The one place that says where byte (x, y, z) of an array lives: the
 * UMD sizes arrays with it and the copy engines of the firmware convert
 * pitch-linear memory to and from it (VGPU_PKT_COPY_TILED, vgpu_hw.h).
 *
 * The layout is NVIDIA's "block linear" one, as the Tegra X1 TRM and
 * Mesa's nouveau/nvk describe it:
 *
 *   - a GOB (group of bytes) is 64 bytes x 8 rows = 512 bytes;
 *   - a block is 1 GOB wide, 2^bh GOBs high and 2^bd GOBs deep; its GOBs
 *     are stored column first (all the GOBs of one slice of the block
 *     top to bottom, then the next slice);
 *   - blocks are stored row-major: x fastest, then y, then z;
 *   - inside a GOB the bytes are swizzled in 16-byte pieces (2 rows of
 *     2 x 16 bytes make a 64-byte sector, see Documentation/textures.rst):
 *
 *       offset = (x % 64 / 32) * 256 + (y % 8 / 2) * 64
 *              + (x % 32 / 16) * 32 + (y % 2) * 16 + x % 16
 *
 * A layered array is the same with bd = 0 and one layer per slice.
 * Plain C99 with fixed-size types: included by user space only.
 */
#ifndef _VGPU_ARRAY_H
#define _VGPU_ARRAY_H

#include <stdint.h>

#define VGPU_GOB_WIDTH		64u	/* bytes */
#define VGPU_GOB_HEIGHT		8u	/* rows */
#define VGPU_GOB_SIZE		512u	/* bytes */
#define VGPU_BL_MAX_LOG2	5u	/* blocks are at most 32 GOBs high/deep */
#define VGPU_BL_PIECE		16u	/* bytes contiguous in a GOB */

/* The geometry of one block-linear surface. */
struct vgpu_bl_layout {
	uint32_t row_bytes;	/* width of a row, bytes */
	uint32_t height;	/* rows */
	uint32_t depth;		/* slices or layers */
	uint8_t bh;		/* log2 of the GOBs a block is high */
	uint8_t bd;		/* log2 of the GOBs a block is deep */
};

/* ceil(log2(@n)) for n >= 1, at most VGPU_BL_MAX_LOG2. */
static inline uint8_t vgpu_bl_log2_ceil(uint32_t n)
{
	uint8_t l = 0;

	while (l < VGPU_BL_MAX_LOG2 && (1u << l) < n)
		l++;
	return l;
}

/*
 * The block shape the driver chooses, as nouveau does: as high (deep) as
 * the surface's GOBs need, at most 32 GOBs; @layered surfaces keep each
 * layer in its own blocks (bd = 0).
 */
static inline void vgpu_bl_choose(struct vgpu_bl_layout *l, int layered)
{
	uint32_t gobs_y = (l->height + VGPU_GOB_HEIGHT - 1) / VGPU_GOB_HEIGHT;

	l->bh = vgpu_bl_log2_ceil(gobs_y ? gobs_y : 1);
	l->bd = layered ? 0 : vgpu_bl_log2_ceil(l->depth ? l->depth : 1);
}

/* Blocks across, down and deep. */
static inline uint64_t vgpu_bl_blocks_x(const struct vgpu_bl_layout *l)
{
	return (l->row_bytes + VGPU_GOB_WIDTH - 1) / VGPU_GOB_WIDTH;
}

static inline uint64_t vgpu_bl_blocks_y(const struct vgpu_bl_layout *l)
{
	uint64_t rows = (uint64_t)VGPU_GOB_HEIGHT << l->bh;

	return (l->height + rows - 1) / rows;
}

static inline uint64_t vgpu_bl_blocks_z(const struct vgpu_bl_layout *l)
{
	uint64_t slices = 1ull << l->bd;

	return (l->depth + slices - 1) / slices;
}

static inline uint64_t vgpu_bl_block_size(const struct vgpu_bl_layout *l)
{
	return (uint64_t)VGPU_GOB_SIZE << (l->bh + l->bd);
}

/* Bytes the whole surface occupies (whole blocks). */
static inline uint64_t vgpu_bl_size(const struct vgpu_bl_layout *l)
{
	return vgpu_bl_blocks_x(l) * vgpu_bl_blocks_y(l) *
	       vgpu_bl_blocks_z(l) * vgpu_bl_block_size(l);
}

/* The swizzle inside one GOB of byte @x (0..63) of row @y (0..7). */
static inline uint32_t vgpu_gob_offset(uint32_t x, uint32_t y)
{
	return (x % 64 / 32) * 256 + (y % 8 / 2) * 64 + (x % 32 / 16) * 32 +
	       (y % 2) * 16 + x % 16;
}

/* Where byte @x of row @y of slice @z lies, from the surface's start. */
static inline uint64_t vgpu_bl_offset(const struct vgpu_bl_layout *l,
				      uint32_t x, uint32_t y, uint32_t z)
{
	uint32_t gob_x = x / VGPU_GOB_WIDTH, gob_y = y / VGPU_GOB_HEIGHT;
	uint32_t bh_mask = (1u << l->bh) - 1, bd_mask = (1u << l->bd) - 1;
	uint64_t block, gob;

	block = ((uint64_t)(z >> l->bd) * vgpu_bl_blocks_y(l) +
		 (gob_y >> l->bh)) * vgpu_bl_blocks_x(l) + gob_x;
	gob = ((uint64_t)(z & bd_mask) << l->bh) + (gob_y & bh_mask);
	return block * vgpu_bl_block_size(l) + gob * VGPU_GOB_SIZE +
	       vgpu_gob_offset(x, y);
}

/*
 * A mipmap chain (and one level of it): level @level of a surface whose
 * level 0 is @width x @height x @depth elements of @elem bytes.  Each
 * level halves width and height (and depth, unless @layered: layers and
 * cubemap faces are never halved), at least 1; each level is a
 * block-linear surface of its own, with the block shape vgpu_bl_choose()
 * gives its size, and the levels follow one another in VRAM, level 0
 * first, each starting on a block boundary (whole blocks):
 *
 *   base
 *   | level 0 (W x H)        | level 1 (W/2 x H/2) | l2 | l3 |...
 *   +------------------------+---------------------+----+----+
 *
 * Returns the level's offset from the chain's start; *@out gets its
 * layout.  With @level = the number of levels, the offset is the size
 * of the whole chain.
 */
static inline uint64_t vgpu_mip_level(uint32_t width, uint32_t height,
				      uint32_t depth, uint32_t elem,
				      int layered, unsigned int level,
				      struct vgpu_bl_layout *out)
{
	uint64_t off = 0;

	for (unsigned int i = 0;; i++) {
		uint32_t w = width >> i ? width >> i : 1;
		struct vgpu_bl_layout l = {
			.row_bytes = w * elem,
			.height = height >> i ? height >> i : 1,
			.depth = layered ? depth : depth >> i ? depth >> i : 1,
		};

		vgpu_bl_choose(&l, layered);
		if (i == level) {
			if (out)
				*out = l;
			return off;
		}
		off += vgpu_bl_size(&l);
	}
}

#endif /* _VGPU_ARRAY_H */
