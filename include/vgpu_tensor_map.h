/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_tensor_map.h - vGPU's layout of the 128-byte CUtensorMap, the
 * descriptor of the tensor memory accelerator (TMA).
 *
 * CUDA keeps the object opaque: a program makes it with
 * cuTensorMapEncodeTiled/Im2col (umd/cuda/tensor_map.c writes this
 * layout) and hands it to cp.async.bulk.tensor in a kernel parameter,
 * constant or global memory (firmware_sim/core/exec_tma.c reads it).
 * Both sides use only this header, so the layout is one fact.
 * Documentation/async-copies.rst ("The tensor memory accelerator")
 * explains the fields.
 *
 *   byte  0      4    5     6    7     8    9   10   11     12     14
 *        +------+----+-----+----+-----+----+---+----+-----+------+------+
 *        |magic |kind|dtype|rank|inter|swz |l2 |oob |esize| chans|pixels|
 *        +------+----+-----+----+-----+----+---+----+-----+------+------+
 *   16   global address (u64)
 *   24   global dims, 5 x u64 (elements)
 *   64   global strides of dims 1..4, 4 x u64 (bytes; dim 0: esize)
 *   96   box dims, 5 x u16 (tile mode; im2col: unused)
 *   106  element strides, 5 x u8
 *   111  (zero)
 *   112  im2col lower corner, 3 x s16 {W, H, D}
 *   118  im2col upper corner, 3 x s16
 *   124  (zero up to 128)
 *
 * All little-endian (the host and the firmware are the same machine).
 */
#ifndef VGPU_TENSOR_MAP_H
#define VGPU_TENSOR_MAP_H

#include <stdint.h>

#define VGPU_TMAP_SIZE		128
#define VGPU_TMAP_ALIGN		64
#define VGPU_TMAP_MAGIC		0x50414d54u	/* "TMAP" */
#define VGPU_TMAP_MAX_RANK	5

enum vgpu_tmap_kind {
	VGPU_TMAP_TILED = 1,
	VGPU_TMAP_IM2COL = 2,
};

/* CUtensorMapSwizzle's first four values: the 16-byte chunk index
 * (address bits 4..) is XORed with the row bits (7..), within a span. */
enum vgpu_tmap_swizzle {
	VGPU_TMAP_SWIZZLE_NONE = 0,
	VGPU_TMAP_SWIZZLE_32B,
	VGPU_TMAP_SWIZZLE_64B,
	VGPU_TMAP_SWIZZLE_128B,
};

/* CUtensorMapDataType (the values the firmware needs to tell apart) */
enum vgpu_tmap_dtype {
	VGPU_TMAP_U8 = 0, VGPU_TMAP_U16, VGPU_TMAP_U32, VGPU_TMAP_S32,
	VGPU_TMAP_U64, VGPU_TMAP_S64, VGPU_TMAP_F16, VGPU_TMAP_F32,
	VGPU_TMAP_F64, VGPU_TMAP_BF16, VGPU_TMAP_F32_FTZ, VGPU_TMAP_TF32,
	VGPU_TMAP_TF32_FTZ,
};

/* CUtensorMapInterleave */
enum vgpu_tmap_interleave {
	VGPU_TMAP_INTERLEAVE_NONE = 0,
	VGPU_TMAP_INTERLEAVE_16B,
	VGPU_TMAP_INTERLEAVE_32B,
};

struct vgpu_tensor_map {
	uint32_t magic;			/* VGPU_TMAP_MAGIC: a map at all */
	uint8_t kind;			/* enum vgpu_tmap_kind */
	uint8_t dtype;			/* CUtensorMapDataType */
	uint8_t rank;			/* 1..5 */
	uint8_t interleave;		/* enum vgpu_tmap_interleave */
	uint8_t swizzle;		/* enum vgpu_tmap_swizzle */
	uint8_t l2_promotion;		/* a hint: kept, not used */
	uint8_t oob_nan;		/* fill out-of-bounds floats with NaN */
	uint8_t elem_size;		/* bytes of one element */
	uint16_t channels;		/* im2col: channelsPerPixel */
	uint16_t pixels;		/* im2col: pixelsPerColumn */
	uint64_t address;		/* global address of element 0 */
	uint64_t dim[VGPU_TMAP_MAX_RANK];
	uint64_t stride[VGPU_TMAP_MAX_RANK - 1];
	uint16_t box[VGPU_TMAP_MAX_RANK];
	uint8_t estride[VGPU_TMAP_MAX_RANK];
	uint8_t reserved0;
	int16_t lower[3];		/* im2col: {W, H, D} */
	int16_t upper[3];
	uint8_t reserved1[4];
};

_Static_assert(sizeof(struct vgpu_tensor_map) == VGPU_TMAP_SIZE,
	       "the tensor map is CUtensorMap's 128 bytes");

/*
 * The fill of an out-of-bounds element when oob_nan is set: every
 * 16-bit half of the element is 0x7ff7, a NaN in f16, bf16, f32
 * (0x7ff77ff7) and f64 alike (an H100 recording,
 * tools/cuda-probe/golden/probe_tma.h100.txt).
 */
#define VGPU_TMAP_NAN_HALF	0x7ff7u

#endif /* VGPU_TENSOR_MAP_H */
