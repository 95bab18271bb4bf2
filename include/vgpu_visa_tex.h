/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_visa_tex.h - the texture and surface instructions of the vISA
 * (TEX, TLD4, TXQ, SULD, SUST, SURED; firmware_sim/core/exec_tex.c runs
 * them, umd/ptx/isel_tex.c selects them from PTX).
 *
 * Operand a of each is the handle: the GPU VA of the struct vgpu_tex_desc
 * (include/vgpu_tex.h) that cuTexObjectCreate/cuSurfObjectCreate wrote.
 * A texture instruction has more operands than an instruction has slots
 * (up to four coordinates, a level or six gradients, offsets), so they
 * travel as the tensor-core operands do, through the warp's staging slots
 * (include/vgpu_mma.h): the compiler MMAPUTs them first, then issues the
 * instruction, which reads them for each lane:
 *
 *   slot  0..3   the coordinate vector as PTX writes it ({x}, {x, y},
 *                {x, y, z, _}; layered: {layer, x[, y, _]}), 32 bits each
 *   slot  4      tex.level: the level of detail (f32)
 *   slots 4..9   tex.grad: dPdx.x, .y, .z, dPdy.x, .y, .z (f32)
 *   slots 10..12 offsets (s32), VISA_TEX_OFFSETS
 *
 * TEX and TLD4 write the four results to d, b, c, e (32 bits each: f32,
 * or s32/u32 for element-type reads of integer textures).  SULD writes
 * the vector's elements to d, b, c, e; SUST reads them from d, b, c, e;
 * SURED reads its operand from b.  TXQ writes the queried value to d.
 *
 * The immediate field describes the instruction (the mod word's bits are
 * shared by every opcode; these fields are private to these ones):
 */
#ifndef VGPU_VISA_TEX_H
#define VGPU_VISA_TEX_H

/* Geometry, imm bits 0..3: PTX's .1d ... .a2dms. */
enum visa_tex_geom {
	VISA_TEX_1D = 0, VISA_TEX_2D, VISA_TEX_3D, VISA_TEX_A1D,
	VISA_TEX_A2D, VISA_TEX_CUBE, VISA_TEX_ACUBE,
	VISA_TEX_GEOM_COUNT
};

#define VISA_TEX_GEOM(imm)		((unsigned int)(imm) & 0xfu)
/* TEX: how the level is chosen, bits 4..5 (the values of enum
 * vgpu_tex_lod_kind, tex_sampler.h) */
enum visa_tex_lod { VISA_TEX_LOD_AUTO = 0, VISA_TEX_LOD_LEVEL,
		    VISA_TEX_LOD_GRAD };
#define VISA_TEX_LOD_SHIFT		4
#define VISA_TEX_LOD(imm)		(((unsigned int)(imm) >> 4) & 3u)
/* TEX, TLD4: the coordinates are s32 (texel indices), not f32 */
#define VISA_TEX_INT_COORDS		(1u << 6)
/* TEX, TLD4: offsets in slots 10..12 */
#define VISA_TEX_OFFSETS		(1u << 7)
/* TLD4: the component gathered (r, g, b, a = 0..3), bits 8..9 */
#define VISA_TEX_COMP_SHIFT		8
#define VISA_TEX_COMP(imm)		(((unsigned int)(imm) >> 8) & 3u)

/* SULD, SUST, SURED: log2 of the element's bytes (b8 .. b64), bits 12..13 */
#define VISA_SURF_ELEM_SHIFT		12
#define VISA_SURF_ELEM_LOG2(imm)	(((unsigned int)(imm) >> 12) & 3u)
/* log2 of the vector length (1, 2, 4), bits 16..17 */
#define VISA_SURF_VEC_SHIFT		16
#define VISA_SURF_VEC_LOG2(imm)		(((unsigned int)(imm) >> 16) & 3u)
/* boundary mode, bits 20..21 */
enum visa_surf_clamp { VISA_SURF_TRAP = 0, VISA_SURF_CLAMP,
		       VISA_SURF_ZERO };
#define VISA_SURF_CLAMP_SHIFT		20
#define VISA_SURF_CLAMP_MODE(imm)	(((unsigned int)(imm) >> 20) & 3u)
/* SUST: sust.p, the elements are converted to the surface's format */
#define VISA_SURF_FORMATTED		(1u << 24)

/* The first staging slot of each operand group. */
#define VISA_TEX_SLOT_COORD		0
#define VISA_TEX_SLOT_LOD		4
#define VISA_TEX_SLOT_GRAD		4
#define VISA_TEX_SLOT_OFFSET		10

/* TXQ's sub-operation: what is asked (txq, suq, istypep). */
enum visa_txq {
	VISA_TXQ_WIDTH = 0, VISA_TXQ_HEIGHT, VISA_TXQ_DEPTH,
	VISA_TXQ_CHANNEL_DATA_TYPE, VISA_TXQ_CHANNEL_ORDER,
	VISA_TXQ_NORMALIZED_COORDS, VISA_TXQ_FILTER_MODE,
	VISA_TXQ_ADDR_MODE_0, VISA_TXQ_ADDR_MODE_1, VISA_TXQ_ADDR_MODE_2,
	VISA_TXQ_NUM_MIPMAP_LEVELS, VISA_TXQ_NUM_SAMPLES,
	VISA_TXQ_ARRAY_SIZE, VISA_TXQ_MEMORY_LAYOUT,
	VISA_TXQ_IS_VALID,	/* istypep: 1 if a valid descriptor */
	VISA_TXQ_COUNT
};

#endif /* VGPU_VISA_TEX_H */
