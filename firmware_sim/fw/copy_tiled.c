// SPDX-License-Identifier: GPL-2.0
/*
 * copy_tiled.c - the copy engines' pitch-linear <-> block-linear path
 * (VGPU_PKT_COPY_TILED): how CUDA arrays get their contents.
 *
 * A row of the box is contiguous on the pitch side; on the surface it is
 * cut into 16-byte pieces wherever the GOB swizzle moves on
 * (include/vgpu_array.h).  The engine moves a row in chunks through a
 * small buffer: one MMU access for the linear run, one per piece on the
 * surface side.  Every access goes through the context's MMU, so an
 * array freed under the copy faults like any other bad address.
 */
#include <string.h>

#include "fw.h"
#include "mmu.h"
#include "vgpu_array.h"

#define CHUNK	4096u	/* bytes of a row moved at once */

/* Whether the packet's geometry is one the engine can run. */
static bool tiled_ok(const struct vgpu_pkt_copy_tiled *p)
{
	if (p->pad || p->direction > VGPU_COPY_TILED_FROM_SURFACE ||
	    p->block_h_log2 > VGPU_BL_MAX_LOG2 ||
	    p->block_d_log2 > VGPU_BL_MAX_LOG2)
		return false;
	/* 64-bit sums: the box must lie inside the surface. */
	return (uint64_t)p->x + p->width <= p->surf_row_bytes &&
	       (uint64_t)p->y + p->height <= p->surf_height &&
	       (uint64_t)p->z + p->depth <= p->surf_depth;
}

/* Move @len bytes between @buf and the surface at (@x, @y, @z). */
static int tiled_pieces(struct fw_ctx *ctx, const struct vgpu_pkt_copy_tiled *p,
			const struct vgpu_bl_layout *l, uint8_t *buf,
			uint32_t len, uint32_t x, uint32_t y, uint32_t z,
			uint64_t *fault_va)
{
	uint32_t done = 0, n;
	uint64_t va;
	int kind;

	while (done < len) {
		/* up to the next 16-byte boundary of the surface */
		n = VGPU_BL_PIECE - (x + done) % VGPU_BL_PIECE;
		if (n > len - done)
			n = len - done;
		va = p->surface + vgpu_bl_offset(l, x + done, y, z);
		kind = p->direction == VGPU_COPY_TILED_TO_SURFACE ?
		       fw_mem_write(ctx, va, buf + done, n, fault_va) :
		       fw_mem_read(ctx, va, buf + done, n, fault_va);
		if (kind)
			return kind;
		done += n;
	}
	return 0;
}

int fw_copy_tiled(struct fw_ctx *ctx, const struct vgpu_pkt_copy_tiled *p,
		  uint64_t *fault_va)
{
	struct vgpu_bl_layout l = {
		.row_bytes = p->surf_row_bytes, .height = p->surf_height,
		.depth = p->surf_depth, .bh = p->block_h_log2,
		.bd = p->block_d_log2,
	};
	uint8_t buf[CHUNK];
	uint32_t y, z, x, n;
	uint64_t lin;
	int kind;

	if (!tiled_ok(p))
		return -1;
	for (z = 0; z < p->depth; z++) {
		for (y = 0; y < p->height; y++) {
			lin = p->linear + z * p->linear_slice +
			      y * p->linear_pitch;
			for (x = 0; x < p->width; x += n) {
				n = p->width - x < CHUNK ? p->width - x : CHUNK;
				if (p->direction == VGPU_COPY_TILED_TO_SURFACE) {
					kind = fw_mem_read(ctx, lin + x, buf, n,
							   fault_va);
					if (!kind)
						kind = tiled_pieces(ctx, p, &l,
							buf, n, p->x + x,
							p->y + y, p->z + z,
							fault_va);
				} else {
					kind = tiled_pieces(ctx, p, &l, buf, n,
							    p->x + x, p->y + y,
							    p->z + z, fault_va);
					if (!kind)
						kind = fw_mem_write(ctx, lin + x,
							buf, n, fault_va);
				}
				if (kind)
					return kind;
			}
		}
	}
	return 0;
}
