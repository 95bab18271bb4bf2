/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_mma.h - the tensor-core part of the vISA: what the warp-collective
 * matrix instructions (MMA, MMALD, MMAST, MMAPUT, MMAGET, LDMATRIX,
 * STMATRIX, MOVMATRIX in vgpu_visa_ops.h) mean, and where each element of
 * a matrix lives in the registers of a warp's lanes.
 *
 * The PTX compiler (umd/ptx/isel_mma.c) writes the descriptors, the
 * firmware (firmware_sim/core/exec_mma.c) executes them; both read the
 * fragment layouts from here.  The layouts are the H100's: recorded with
 * tools/cuda-probe/probe_mma.cu (golden/probe_mma.h100.txt) and checked
 * against that recording by the tests.  Documentation/tensor-cores.rst
 * explains them with figures.
 *
 * ## Staging
 *
 * A matrix instruction reads and writes more registers than a vISA
 * instruction names (an m16n16k16 multiply: 8 + 8 + 8 in, 8 out), so a
 * warp has a small register file of its own for them, the "staging
 * slots" (VISA_MMA_SLOTS per lane, 64 bits each, like the operand
 * collectors of a tensor core).  MMAPUT copies up to four GPRs (a, b, c,
 * e) of each active lane into slots imm.., MMAGET copies slots imm.. into
 * up to four GPRs (d, b, c, e).  The others work on slots only:
 *
 *   MMALD     slots of matrix VISA_MMA_MATRIX(imm) = fragment loaded from
 *             address a (each lane its own; type2 the space), row stride
 *             b elements (VISA_MMA_COLMAJOR: column stride)
 *   MMAST     memory = the fragment in the D slots, as MMALD
 *   MMA       D slots = A slots x B slots + C slots (imm: the shape and
 *             types, VISA_MMA_SATFINITE, VISA_MMA_BOP for b1)
 *   LDMATRIX  slots 0..n-1 = n 8x8 b16 matrices whose rows lane 8i + r
 *             addresses (a, type2 space); imm VISA_LDM_*
 *   STMATRIX  the reverse
 *   MOVMATRIX slot 0 = the 8x8 b16 matrix in slot 0, transposed
 *
 * A fragment's registers occupy consecutive slots from its matrix's base:
 * A at VISA_MMA_SLOT_A, B at VISA_MMA_SLOT_B, C and D at VISA_MMA_SLOT_C.
 * A register of 32 bits or less lives in the low bits of its slot.
 */
#ifndef VGPU_MMA_H
#define VGPU_MMA_H

#include <stdint.h>

#define VISA_MMA_SLOTS		24
#define VISA_MMA_SLOT_A		0
#define VISA_MMA_SLOT_B		8
#define VISA_MMA_SLOT_C		16

/* Shapes: WMMA's first, then mma.sync's.  M x N x K. */
#define VISA_MMA_SHAPES(X)						\
	X(M16N16K16, 16, 16, 16)	/* wmma */			\
	X(M32N8K16, 32, 8, 16)		/* wmma */			\
	X(M8N32K16, 8, 32, 16)		/* wmma */			\
	X(M16N16K8, 16, 16, 8)		/* wmma tf32 */			\
	X(M8N8K4, 8, 8, 4)		/* wmma, mma f64 */		\
	X(M8N8K32, 8, 8, 32)		/* wmma, mma s4/u4 */		\
	X(M8N8K128, 8, 8, 128)		/* wmma, mma b1 */		\
	X(M16N8K4, 16, 8, 4)		/* mma tf32, f64 */		\
	X(M16N8K8, 16, 8, 8)		/* mma f16, bf16, tf32, f64 */	\
	X(M16N8K16, 16, 8, 16)		/* mma f16, bf16, s8/u8, f64, fp8 */ \
	X(M16N8K32, 16, 8, 32)		/* mma s8/u8, s4/u4, fp8 */	\
	X(M8N8K16, 8, 8, 16)		/* mma s8/u8 */			\
	X(M16N8K64, 16, 8, 64)		/* mma s4/u4 */			\
	X(M16N8K128, 16, 8, 128)	/* mma b1 */			\
	X(M16N8K256, 16, 8, 256)	/* mma b1 */

enum visa_mma_shape {
#define X(name, m, n, k) VISA_MMA_##name,
	VISA_MMA_SHAPES(X)
#undef X
	VISA_MMA_SHAPE_COUNT
};

static inline void visa_mma_dims(unsigned int shape, unsigned int *m,
				 unsigned int *n, unsigned int *k)
{
	static const uint16_t dims[][3] = {
#define X(name, m, n, k) { m, n, k },
		VISA_MMA_SHAPES(X)
#undef X
	};

	*m = dims[shape][0];
	*n = dims[shape][1];
	*k = dims[shape][2];
}

/* Element types of fragments. */
enum visa_mma_type {
	VISA_MMA_F16 = 0, VISA_MMA_BF16, VISA_MMA_TF32, VISA_MMA_F32,
	VISA_MMA_F64, VISA_MMA_S8, VISA_MMA_U8, VISA_MMA_S4, VISA_MMA_U4,
	VISA_MMA_B1, VISA_MMA_S32,
	VISA_MMA_E4M3, VISA_MMA_E5M2,	/* fp8: mma.sync m16n8k16/k32 */
	VISA_MMA_TYPE_COUNT
};

static inline unsigned int visa_mma_type_bits(unsigned int t)
{
	static const uint8_t bits[VISA_MMA_TYPE_COUNT] = {
		16, 16, 32, 32, 64, 8, 8, 4, 4, 1, 32, 8, 8,
	};

	return t < VISA_MMA_TYPE_COUNT ? bits[t] : 0;
}

enum visa_mma_matrix { VISA_MMA_A = 0, VISA_MMA_B, VISA_MMA_C };

/* The descriptor in the immediate of MMA, MMALD, MMAST. */
#define VISA_MMA_SHAPE(d)	((unsigned int)(d) & 0xff)
#define VISA_MMA_ATYPE(d)	((unsigned int)((d) >> 8) & 0xf)	/* A, B */
#define VISA_MMA_CTYPE(d)	((unsigned int)((d) >> 12) & 0xf)
#define VISA_MMA_DTYPE(d)	((unsigned int)((d) >> 16) & 0xf)
#define VISA_MMA_MATRIX(d)	((unsigned int)((d) >> 20) & 0x3)	/* ld/st */
#define VISA_MMA_COLMAJOR	(1u << 22)	/* ld/st: memory by columns */
#define VISA_MMA_SATFINITE	(1u << 23)	/* integers: clamp to s32 */
#define VISA_MMA_BOP(d)		((unsigned int)((d) >> 24) & 0x3)
/*
 * B's type where it is not A's (mma.sync's .s8.u8, .e4m3.e5m2, ...):
 * VISA_MMA_BTYPE_GIVEN and the type in bits 28..31.
 */
#define VISA_MMA_BTYPE_GIVEN	(1u << 26)
#define VISA_MMA_BTYPE(d)	((d) & VISA_MMA_BTYPE_GIVEN ?		\
				 (unsigned int)((d) >> 28) & 0xf :	\
				 VISA_MMA_ATYPE(d))
#define VISA_MMA_MKBTYPE(t)	(VISA_MMA_BTYPE_GIVEN | (uint64_t)(t) << 28)
/*
 * mma.m8n8k4 with f16 inputs (Volta's quad pairs, visa_mma_qp_elem()):
 * A held by columns (.col), B by rows (.row); mma.sync's other shapes are
 * always .row.col.
 */
#define VISA_MMA_QP_ACOL	(1ull << 32)
#define VISA_MMA_QP_BROW	(1ull << 33)
/*
 * mma.sp (2:4 structured sparsity): A holds only the two kept elements of
 * every four of k (it is the A of the shape of half the k), slot
 * VISA_MMA_SLOT_META holds each lane's metadata register, the selector
 * says which lanes' metadata counts.  visa_mma_sp_meta() says where the
 * indices of row r's group j of four lie.
 */
#define VISA_MMA_SPARSE		(1ull << 34)
#define VISA_MMA_SP_SEL(d)	((unsigned int)((d) >> 35) & 3)
#define VISA_MMA_MKSPSEL(s)	((uint64_t)(s) << 35)
#define VISA_MMA_SLOT_META	23
#define VISA_MMA_BOP_XOR	1u		/* b1: popc(a ^ b) */
#define VISA_MMA_BOP_AND	2u		/* b1: popc(a & b) */
#define VISA_MMA_DESC(shape, at, ct, dt)				\
	((uint64_t)(shape) | (uint64_t)(at) << 8 | (uint64_t)(ct) << 12 | \
	 (uint64_t)(dt) << 16)
#define VISA_MMA_MKMATRIX(mx)	((uint64_t)(mx) << 20)
#define VISA_MMA_MKBOP(op)	((uint64_t)(op) << 24)

/* LDMATRIX / STMATRIX immediate: the number of matrices and .trans. */
#define VISA_LDM_NUM(imm)	((unsigned int)(imm) & 7)	/* 1, 2, 4 */
#define VISA_LDM_TRANS		(1u << 3)

/*
 * A fragment: how the elements of one matrix (A: M x K, B: K x N, C and
 * D: M x N) are spread over the lanes.  The matrix is cut into tiles of
 * 8 "groups" (g = lane / 4) by 4 "threads in the group" (t = lane % 4)
 * times @e elements: a lane holds element j (< e) of its tile at
 *   by rows (A, C):  (tile row + g,         tile col + e * t + j)
 *   by cols (B):     (tile row + e * t + j, tile col + g)
 * and the tiles follow each other in tile[] order: the lane's element
 * i is element i % e of tile i / e.  Elements are packed into registers
 * from bit 0 up (two f16 per 32-bit register, four s8, eight s4, 32 b1;
 * an f64 is one 64-bit register).
 *
 * m8n32k16 is computed as the transposed m32n8k16 (its A is that B
 * transposed, and so on): so its fragments are.  WMMA's f16 A and B
 * fragments always hold 16 halves, each element two or four times (copy
 * c is elements [c * unique, (c + 1) * unique)); the H100 multiplies with
 * the first copy.
 */
struct visa_mma_frag {
	uint16_t rows, cols;	/* of the matrix */
	uint8_t e;		/* elements per lane per tile */
	uint8_t by_cols;	/* 1: a lane's elements run down a column */
	uint8_t bits;		/* per element */
	uint8_t ntiles;		/* tiles, copies included */
	uint8_t unique;		/* elements per lane in the first copy */
	uint8_t nregs;		/* registers (slots) of the fragment */
	uint8_t quadpair;	/* m8n8k4 f16: visa_mma_qp_elem(), no tiles */
	uint16_t tile[16][2];	/* row, col of each tile's origin */
};

/* Which element types a shape takes for A and B (bit per type). */
static inline uint32_t visa_mma_shape_types(unsigned int shape)
{
#define T(x) (1u << VISA_MMA_##x)
	static const uint32_t types[VISA_MMA_SHAPE_COUNT] = {
		[VISA_MMA_M16N16K16] = T(F16) | T(BF16) | T(S8) | T(U8),
		[VISA_MMA_M32N8K16] = T(F16) | T(BF16) | T(S8) | T(U8),
		[VISA_MMA_M8N32K16] = T(F16) | T(BF16) | T(S8) | T(U8),
		[VISA_MMA_M16N16K8] = T(TF32),
		[VISA_MMA_M8N8K4] = T(F64) | T(F16),
		[VISA_MMA_M8N8K32] = T(S4) | T(U4),
		[VISA_MMA_M8N8K128] = T(B1),
		[VISA_MMA_M16N8K4] = T(TF32) | T(F64),
		[VISA_MMA_M16N8K8] = T(F16) | T(BF16) | T(TF32) | T(F64),
		[VISA_MMA_M16N8K16] = T(F16) | T(BF16) | T(S8) | T(U8) |
				      T(F64) | T(E4M3) | T(E5M2),
		[VISA_MMA_M16N8K32] = T(S8) | T(U8) | T(S4) | T(U4) |
				      T(E4M3) | T(E5M2),
		[VISA_MMA_M8N8K16] = T(S8) | T(U8),
		[VISA_MMA_M16N8K64] = T(S4) | T(U4),
		[VISA_MMA_M16N8K128] = T(B1),
		[VISA_MMA_M16N8K256] = T(B1),
	};
#undef T
	return shape < VISA_MMA_SHAPE_COUNT ? types[shape] : 0;
}

/*
 * The tiles of a fragment of an M x N x K problem that is not transposed:
 *   A: per 16-row block, per k chunk of 4e, per 8 rows: (rows, k)
 *   B: per 8 columns, per k chunk of 4e: (k, cols)
 *   C: per 8 columns, per 8 rows
 */
static inline void visa_mma_tiles(struct visa_mma_frag *f, unsigned int mx,
				  unsigned int m, unsigned int n,
				  unsigned int k)
{
	unsigned int kc = 4u * f->e, i = 0;

	if (mx == VISA_MMA_A) {
		unsigned int blocks = m > 16 ? m / 16 : 1;
		unsigned int r8s = (m < 16 ? m : 16) / 8;

		for (unsigned int rb = 0; rb < blocks; rb++)
			for (unsigned int c = 0; c < k / kc; c++)
				for (unsigned int r = 0; r < r8s; r++) {
					f->tile[i][0] = (uint16_t)(rb * 16 + r * 8);
					f->tile[i++][1] = (uint16_t)(c * kc);
				}
	} else if (mx == VISA_MMA_B) {
		for (unsigned int nb = 0; nb < n / 8; nb++)
			for (unsigned int c = 0; c < k / kc; c++) {
				f->tile[i][0] = (uint16_t)(c * kc);
				f->tile[i++][1] = (uint16_t)(nb * 8);
			}
	} else {
		for (unsigned int nb = 0; nb < n / 8; nb++)
			for (unsigned int r = 0; r < m / 8; r++) {
				f->tile[i][0] = (uint16_t)(r * 8);
				f->tile[i++][1] = (uint16_t)(nb * 8);
			}
	}
	f->ntiles = (uint8_t)i;
}

/*
 * mma.m8n8k4 with f16 inputs is four independent 8 x 8 x 4 products, one
 * per quad pair: lanes 4q..4q+3 and 4q+16..4q+19 form pair q (the Volta
 * tensor core's unit).  The firmware sees the four as one block-diagonal
 * 32 x 32 x 16 problem: pair q's A is rows 8q.., k 4q..; its B k 4q..,
 * columns 8q..; its C rows and columns 8q...  Every lane holds four f16
 * of A and of B, and eight elements of C (f16 or f32).
 */
static inline int visa_mma_qp_fragment(unsigned int mx,
				       struct visa_mma_frag *f)
{
	f->quadpair = 1;
	f->rows = (uint16_t)(mx == VISA_MMA_B ? 16 : 32);
	f->cols = (uint16_t)(mx == VISA_MMA_A ? 16 : 32);
	f->e = 1;
	f->unique = (uint8_t)(mx == VISA_MMA_C ? 8 : 4);
	f->ntiles = f->unique;
	f->nregs = (uint8_t)(f->unique * f->bits / 32);
	return 0;
}

/*
 * Element @i of @lane's m8n8k4 f16 fragment (the PTX ISA's figures for
 * one quad pair; r = lane % 4, h = 4 for lanes 16-31, else 0):
 *   A .row (r + h, i)        A .col (i + h, r)
 *   B .row (k, n) = (r, i + h)    B .col (i, r + h)
 *   C f16  (r + h, i)
 *   C f32  ((lane & 1) + (i & 2) + h, (i & 4) + (lane & 2) + (i & 1))
 * then moved to the pair's block of the 32 x 32 x 16 problem.  @desc
 * says A's and B's layouts (VISA_MMA_QP_*), @c32 whether C is f32.
 */
static inline void visa_mma_qp_elem(unsigned int mx, uint64_t desc,
				    int c32, unsigned int lane,
				    unsigned int i, unsigned int *row,
				    unsigned int *col)
{
	unsigned int q = (lane >> 2) & 3, r = lane & 3;
	unsigned int h = lane >= 16 ? 4 : 0;

	if (mx == VISA_MMA_A) {
		*row = (desc & VISA_MMA_QP_ACOL ? i + h : r + h) + 8 * q;
		*col = (desc & VISA_MMA_QP_ACOL ? r : i) + 4 * q;
	} else if (mx == VISA_MMA_B) {
		*row = (desc & VISA_MMA_QP_BROW ? r : i) + 4 * q;
		*col = (desc & VISA_MMA_QP_BROW ? i + h : r + h) + 8 * q;
	} else if (!c32) {
		*row = r + h + 8 * q;
		*col = i + 8 * q;
	} else {
		*row = (lane & 1) + (i & 2) + h + 8 * q;
		*col = (i & 4) + (lane & 2) + (i & 1) + 8 * q;
	}
}

/*
 * mma.sp's metadata (fitted to golden/probe_mma_qs.h100.txt, part S; the
 * PTX ISA's figures say the same): row r's group j of four (dense k
 * 4j..4j+3, compressed elements 2j and 2j+1) is one nibble, the dense
 * index of element 2j in bits 0-1 and of 2j+1 in bits 2-3.  It lies in
 *   16-bit types: lane 4 (r % 8) + sel * k / 16 + j / 4,
 *                 nibble 4 (r / 8) + j % 4
 *                 (rows r and r + 8 share a lane; k / 16 lanes a row)
 *   8-bit types:  lane 4 (r % 8) + 2 (sel + j / 8) + r / 8,
 *                 nibble j % 8
 *                 (a lane holds 8 groups of one row)
 * Returns the lane, sets *nibble.
 */
static inline unsigned int visa_mma_sp_meta(unsigned int k, unsigned int bits,
					    unsigned int sel, unsigned int r,
					    unsigned int j, unsigned int *nibble)
{
	if (bits == 8) {
		*nibble = j % 8;
		return (4 * (r % 8) + 2 * (sel + j / 8) + r / 8) & 31;
	}
	*nibble = 4 * (r / 8) + j % 4;
	return (4 * (r % 8) + sel * k / 16 + j / 4) & 31;
}

/* Which A and B types mma.sp takes at @shape (bit per type; done ones). */
static inline uint32_t visa_mma_sp_types(unsigned int shape)
{
	uint32_t h = 1u << VISA_MMA_F16 | 1u << VISA_MMA_BF16;
	uint32_t b = 1u << VISA_MMA_S8 | 1u << VISA_MMA_U8;

	return shape == VISA_MMA_M16N8K16 ? h :
	       shape == VISA_MMA_M16N8K32 ? h | b :
	       shape == VISA_MMA_M16N8K64 ? b : 0;
}

/* The shape of half the k (mma.sp's compressed A), or -1. */
static inline int visa_mma_sp_half(unsigned int shape)
{
	return shape == VISA_MMA_M16N8K16 ? VISA_MMA_M16N8K8 :
	       shape == VISA_MMA_M16N8K32 ? VISA_MMA_M16N8K16 :
	       shape == VISA_MMA_M16N8K64 ? VISA_MMA_M16N8K32 : -1;
}

/*
 * The fragment of matrix @mx (enum visa_mma_matrix) of @shape with
 * element type @type (for C: the accumulator's type).  Returns 0, or -1
 * when the shape does not take that type.
 */
static inline int visa_mma_fragment_of(unsigned int shape, unsigned int type,
				       unsigned int mx, uint32_t types,
				       struct visa_mma_frag *f)
{
	unsigned int m, n, k, bits = visa_mma_type_bits(type);
	int transposed = shape == VISA_MMA_M8N32K16;

	if (shape >= VISA_MMA_SHAPE_COUNT || !bits || mx > VISA_MMA_C)
		return -1;
	if (mx != VISA_MMA_C && !(types >> type & 1))
		return -1;
	if (mx == VISA_MMA_C && type != VISA_MMA_F16 &&
	    type != VISA_MMA_F32 && type != VISA_MMA_S32 &&
	    type != VISA_MMA_F64)
		return -1;
	visa_mma_dims(shape, &m, &n, &k);
	*f = (struct visa_mma_frag){ 0 };
	f->bits = (uint8_t)bits;
	if (shape == VISA_MMA_M8N8K4 && type != VISA_MMA_F64)
		return visa_mma_qp_fragment(mx, f);
	f->e = (uint8_t)(mx == VISA_MMA_C ? 2 : bits >= 32 ? 1 : 32 / bits);
	if (transposed) {
		/* m8n32k16: A = (B of m32n8k16)^T, B = (A of it)^T, C too */
		unsigned int tmx = mx == VISA_MMA_A ? VISA_MMA_B :
				   mx == VISA_MMA_B ? VISA_MMA_A : VISA_MMA_C;

		visa_mma_tiles(f, tmx, 32, 8, 16);
		for (unsigned int i = 0; i < f->ntiles; i++) {
			uint16_t r = f->tile[i][0];

			f->tile[i][0] = f->tile[i][1];
			f->tile[i][1] = r;
		}
		f->by_cols = tmx != VISA_MMA_B;
	} else {
		visa_mma_tiles(f, mx, m, n, k);
		f->by_cols = mx == VISA_MMA_B;
	}
	f->rows = (uint16_t)(mx == VISA_MMA_B ? k : m);
	f->cols = (uint16_t)(mx == VISA_MMA_A ? k : n);
	f->unique = (uint8_t)(f->ntiles * f->e);
	/* WMMA's f16 A and B: 16 halves, the unique ones repeated */
	if (type == VISA_MMA_F16 && mx != VISA_MMA_C &&
	    shape <= VISA_MMA_M8N32K16) {
		unsigned int u = f->ntiles;

		for (unsigned int i = u; i < 16u / f->e; i++) {
			f->tile[i][0] = f->tile[i % u][0];
			f->tile[i][1] = f->tile[i % u][1];
		}
		f->ntiles = (uint8_t)(16u / f->e);
	}
	f->nregs = (uint8_t)(bits == 64 ? f->ntiles * f->e :
			     f->ntiles * f->e * bits / 32);
	return 0;
}

static inline int visa_mma_fragment(unsigned int shape, unsigned int type,
				    unsigned int mx, struct visa_mma_frag *f)
{
	return visa_mma_fragment_of(shape, type, mx,
				    shape < VISA_MMA_SHAPE_COUNT ?
				    visa_mma_shape_types(shape) : 0, f);
}

/*
 * mma.sp's fragments: A is the dense A of half the k, B, C and D are the
 * dense shape's (by the same tile rule, for types the dense shape does
 * not take: f16 m16n8k32, s8 m16n8k64).
 */
static inline int visa_mma_sp_fragment(unsigned int shape, unsigned int type,
				       unsigned int mx, struct visa_mma_frag *f)
{
	int half = visa_mma_sp_half(shape);

	if (half < 0 || (mx != VISA_MMA_C &&
			 !(visa_mma_sp_types(shape) >> type & 1)))
		return -1;
	if (mx == VISA_MMA_A)
		return visa_mma_fragment((unsigned int)half, type, mx, f);
	return visa_mma_fragment_of(shape, type, mx, ~0u, f);
}

/* Where element @i of @lane's fragment lies in the matrix. */
static inline void visa_mma_elem(const struct visa_mma_frag *f,
				 unsigned int lane, unsigned int i,
				 unsigned int *row, unsigned int *col)
{
	unsigned int g = lane >> 2, t = lane & 3;
	unsigned int tile = i / f->e, j = i % f->e;

	if (f->by_cols) {
		*row = f->tile[tile][0] + f->e * t + j;
		*col = f->tile[tile][1] + g;
	} else {
		*row = f->tile[tile][0] + g;
		*col = f->tile[tile][1] + f->e * t + j;
	}
}

#endif /* VGPU_MMA_H */
