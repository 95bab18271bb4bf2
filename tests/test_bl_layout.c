// SPDX-License-Identifier: GPL-2.0
/*
 * test_bl_layout.c - the block-linear layout of include/vgpu_array.h,
 * which the UMD sizes CUDA arrays with and the copy engines convert with,
 * against the layout as NVIDIA documents it (Tegra X1 TRM, "Block Linear
 * layout"), written out here by hand rather than by formula:
 *
 *  - the order of the 32 16-byte pieces of a GOB (64 bytes x 8 rows);
 *  - GOBs stacked in a block top to bottom, then front to back;
 *  - blocks row-major, x fastest;
 *  - the block heights a driver picks for a surface;
 *  - every byte of several awkward surfaces at its own offset inside the
 *    size the layout reserves (no two bytes share one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vgpu_array.h"

/* Piece p of a GOB (bytes 16p..16p+15) holds 16 bytes at (x16 * 16, y). */
static const struct { unsigned int x16, y; } gob_pieces[32] = {
	{ 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 },
	{ 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 },
	{ 0, 4 }, { 0, 5 }, { 1, 4 }, { 1, 5 },
	{ 0, 6 }, { 0, 7 }, { 1, 6 }, { 1, 7 },
	{ 2, 0 }, { 2, 1 }, { 3, 0 }, { 3, 1 },
	{ 2, 2 }, { 2, 3 }, { 3, 2 }, { 3, 3 },
	{ 2, 4 }, { 2, 5 }, { 3, 4 }, { 3, 5 },
	{ 2, 6 }, { 2, 7 }, { 3, 6 }, { 3, 7 },
};

static void test_gob(struct tap *t)
{
	unsigned int p, b, bad = 0;

	for (p = 0; p < 32; p++)
		for (b = 0; b < 16; b++)
			bad += vgpu_gob_offset(gob_pieces[p].x16 * 16 + b,
					       gob_pieces[p].y) != p * 16 + b;
	tap_ok(t, !bad, "the GOB's 16-byte pieces are in the TRM's order (%u bytes misplaced)",
	       bad);
}

static void test_blocks(struct tap *t)
{
	struct vgpu_bl_layout l = { .row_bytes = 130, .height = 20,
				    .depth = 3 };
	uint64_t bs;

	vgpu_bl_choose(&l, 0);
	tap_ok(t, l.bh == 2 && l.bd == 2,
	       "130 B x 20 rows x 3: blocks 4 GOBs high, 4 deep (%u, %u)",
	       l.bh, l.bd);
	bs = vgpu_bl_block_size(&l);
	tap_ok(t, bs == 512 * 16, "its block is 16 GOBs");
	tap_ok(t, vgpu_bl_offset(&l, 0, 8, 0) == 512 &&
	       vgpu_bl_offset(&l, 0, 16, 0) == 1024,
	       "GOBs of a block are stacked top to bottom");
	tap_ok(t, vgpu_bl_offset(&l, 0, 0, 1) == 4 * 512 &&
	       vgpu_bl_offset(&l, 0, 8, 2) == 9 * 512,
	       "then front to back");
	tap_ok(t, vgpu_bl_offset(&l, 64, 0, 0) == bs &&
	       vgpu_bl_offset(&l, 128, 0, 0) == 2 * bs,
	       "blocks follow each other along x");
	tap_ok(t, vgpu_bl_size(&l) == 3 * bs,
	       "three blocks across, one down, one deep: %llu bytes",
	       (unsigned long long)vgpu_bl_size(&l));

	l = (struct vgpu_bl_layout){ .row_bytes = 200, .height = 100,
				     .depth = 9 };
	vgpu_bl_choose(&l, 1);
	tap_ok(t, l.bh == 4 && l.bd == 0,
	       "200 B x 100 rows x 9 layers: 16 GOBs high, one deep (%u, %u)",
	       l.bh, l.bd);
	bs = vgpu_bl_block_size(&l);
	tap_ok(t, vgpu_bl_offset(&l, 0, 128, 0) == 4 * bs &&
	       vgpu_bl_offset(&l, 0, 0, 1) == 4 * 1 * bs,
	       "rows of blocks follow the row above; a layer follows the last row");
	l = (struct vgpu_bl_layout){ .row_bytes = 4, .height = 100000,
				     .depth = 100 };
	vgpu_bl_choose(&l, 0);
	tap_ok(t, l.bh == 5 && l.bd == 5,
	       "blocks are at most 32 GOBs high and deep");
}

/* Every byte of @l at its own offset below vgpu_bl_size(). */
static void test_bijective(struct tap *t, uint32_t row, uint32_t h,
			   uint32_t d, int layered)
{
	struct vgpu_bl_layout l = { .row_bytes = row, .height = h,
				    .depth = d };
	uint64_t size, off;
	unsigned char *seen;
	uint32_t x, y, z;
	unsigned long bad = 0;

	vgpu_bl_choose(&l, layered);
	size = vgpu_bl_size(&l);
	seen = calloc(size, 1);
	for (z = 0; z < d; z++)
		for (y = 0; y < h; y++)
			for (x = 0; x < row; x++) {
				off = vgpu_bl_offset(&l, x, y, z);
				if (off >= size || seen[off]++)
					bad++;
			}
	tap_ok(t, !bad, "%u B x %u x %u%s: every byte at its own offset in %llu bytes",
	       row, h, d, layered ? " layered" : "",
	       (unsigned long long)size);
	free(seen);
}

int main(void)
{
	struct tap t = { 0 };

	printf("TAP version 13\n");

	test_gob(&t);
	test_blocks(&t);
	test_bijective(&t, 1, 1, 1, 0);
	test_bijective(&t, 148, 19, 1, 0);
	test_bijective(&t, 560, 33, 9, 0);
	test_bijective(&t, 560, 33, 9, 1);
	test_bijective(&t, 4000, 1, 1, 0);
	test_bijective(&t, 64, 300, 40, 0);
	printf("1..%d\n", t.n);
	return tap_done(&t);
}
