// SPDX-License-Identifier: GPL-2.0
/*
 * exec_tma.c - the tensor memory accelerator: cp.async.bulk.tensor loads
 * (global -> shared, then complete_tx on an mbarrier), stores and
 * reducing stores (shared -> global), and prefetch.tensor, driven by a
 * tensor map in vGPU's layout (include/vgpu_tensor_map.h, written by
 * cuTensorMapEncodeTiled/Im2col in umd/cuda/tensor_map.c).
 *
 * Like cp.async.bulk (exec_async.c) a copy is made when it is issued: the
 * consumer still waits on its mbarrier, whose phase completes once the
 * producer's arrive.expect_tx and this complete_tx are both in.
 *
 * The box in shared memory is rows of its inner dimension, one after the
 * other; the outer dimensions are flattened into rows.  With a swizzle
 * each row takes a whole swizzle span (32, 64 or 128 bytes) and the
 * 16-byte chunk index within the span (address bits 4..) is XORed with
 * the row bits above it (bits 7..), of the absolute shared address:
 *
 *   128B swizzle, rows of 128 bytes (8 chunks c0..c7):
 *     row 0  c0 c1 c2 c3 c4 c5 c6 c7
 *     row 1  c1 c0 c3 c2 c5 c4 c7 c6      chunk ^= 1
 *     row 2  c2 c3 c0 c1 c6 c7 c4 c5      chunk ^= 2
 *     ...
 *     row 7  c7 c6 c5 c4 c3 c2 c1 c0      chunk ^= 7
 *
 * All of it is what an H100 does, recorded by tools/cuda-probe/probe_tma.cu
 * (golden/probe_tma.h100.txt): the layouts of the four swizzles also for
 * boxes narrower than the span, the out-of-bounds fill (zero, or 0x7ff7
 * in every 16-bit half with the NaN request), element strides (dimension
 * 0's is ignored), the im2col traversal, and that a box whose inner start
 * is not 16-byte aligned is an illegal instruction.
 */
#include <string.h>

#include "core_internal.h"
#include "exec_async.h"
#include "fp_formats.h"
#include "vgpu_tensor_map.h"

/* Where a box lies: the map, the start, the step and count per dim. */
struct tma_box {
	struct vgpu_tensor_map m;
	int64_t start[VGPU_TMAP_MAX_RANK];	/* coordinates */
	uint32_t step[VGPU_TMAP_MAX_RANK];	/* element strides */
	uint32_t n[VGPU_TMAP_MAX_RANK];		/* elements per dim */
	uint32_t rows;				/* product of n[1..] */
	uint32_t row_bytes, pitch, span;
	uint16_t offs[3];			/* im2col offsets */
};

static int fail(struct warp *w, const struct dinsn *in, int lane,
		uint32_t kind, uint64_t addr, const char *msg)
{
	core_record_fault(w->blk->g, w, lane, pc_of(w, in), kind, addr, msg);
	return EXEC_FAULT;
}

/* What an H100 reports for a malformed TMA operation. */
static int illegal(struct warp *w, const struct dinsn *in, int lane,
		   const char *msg)
{
	return fail(w, in, lane, VISA_FAULT_INVALID_IMAGE, 0, msg);
}

/* The 128-byte map at @va in the instruction's space, 8 bytes at a time. */
static int read_map(struct warp *w, const struct dinsn *in, int l,
		    uint64_t va, struct vgpu_tensor_map *m)
{
	uint64_t q[VGPU_TMAP_SIZE / 8];

	for (unsigned int i = 0; i < VGPU_TMAP_SIZE / 8; i++) {
		const uint64_t *p = mem_resolve(w, pc_of(w, in), l, in->type2,
						va + 8 * i, 8, ACC_READ);

		if (!p)
			return EXEC_FAULT;
		q[i] = *p;
	}
	memcpy(m, q, sizeof(*m));
	return EXEC_OK;
}

static bool map_sane(const struct vgpu_tensor_map *m)
{
	if (m->magic != VGPU_TMAP_MAGIC || m->rank < 1 ||
	    m->rank > VGPU_TMAP_MAX_RANK || m->swizzle > VGPU_TMAP_SWIZZLE_128B ||
	    (m->elem_size != 1 && m->elem_size != 2 && m->elem_size != 4 &&
	     m->elem_size != 8))
		return false;
	for (unsigned int i = 0; i < m->rank; i++)
		if (!m->dim[i] || !m->estride[i] || m->estride[i] > 8 ||
		    (m->kind == VGPU_TMAP_TILED && (!m->box[i] || m->box[i] > 256)))
			return false;
	if (m->kind == VGPU_TMAP_IM2COL)
		return m->rank >= 3 && m->channels && m->channels <= 256 &&
		       m->pixels && m->pixels <= 1024;
	return m->kind == VGPU_TMAP_TILED;
}

/* The staging slot @s of lane @l. */
static int64_t slot_s32(const struct warp *w, unsigned int s, int l)
{
	return (int32_t)(uint32_t)w->mma_stage[(size_t)s * WARP_SIZE + l];
}

/* Read the map of lane @l and work out its box: 0, or a fault. */
static int box_of(struct warp *w, const struct dinsn *in, int l,
		  struct tma_box *bx)
{
	uint32_t rank = VISA_TMA_IMM_RANK(in->imm);
	bool im2col = in->imm & VISA_TMA_IMM_IM2COL;
	struct vgpu_tensor_map *m = &bx->m;
	int st;

	st = read_map(w, in, l, src_row(w, in, 1, in->b)[l], m);
	if (st != EXEC_OK)
		return st;
	if (!map_sane(m))
		return illegal(w, in, l, "cp.async.bulk.tensor: not a tensor map");
	if (m->rank != rank)
		return illegal(w, in, l, "cp.async.bulk.tensor: the map's rank is not the instruction's");
	if (im2col != (m->kind == VGPU_TMAP_IM2COL) &&
	    VISA_MOD_SUB(in->mod) == VISA_TMA_LOAD)
		return illegal(w, in, l, "cp.async.bulk.tensor: the map's mode (tile/im2col) is not the instruction's");
	if (!w->mma_stage)
		return illegal(w, in, l, "cp.async.bulk.tensor: no coordinates staged");
	memset(bx->start, 0, sizeof(bx->start));
	for (uint32_t i = 0; i < rank; i++)
		bx->start[i] = slot_s32(w, VISA_TMA_SLOT_COORD + i, l);
	bx->span = m->swizzle ? 16u << m->swizzle : 0;
	for (uint32_t i = 0; i < VGPU_TMAP_MAX_RANK; i++) {
		bx->n[i] = 1;
		bx->step[i] = 1;
	}
	if (m->kind == VGPU_TMAP_IM2COL) {
		for (uint32_t i = 0; i + 2 < rank; i++)
			bx->offs[i] = (uint16_t)w->mma_stage[
				(size_t)(VISA_TMA_SLOT_OFFSET + i) * WARP_SIZE + l];
		bx->n[0] = m->channels;
		bx->rows = m->pixels;
	} else {
		bx->rows = 1;
		for (uint32_t i = 0; i < rank; i++) {
			/* dimension 0 steps only in interleaved layouts */
			bx->step[i] = i || m->interleave ? m->estride[i] : 1;
			bx->n[i] = (m->box[i] + bx->step[i] - 1) / bx->step[i];
			if (i)
				bx->rows *= bx->n[i];
		}
	}
	if (!m->interleave && (bx->start[0] * m->elem_size) % 16)
		return illegal(w, in, l, "cp.async.bulk.tensor: the box's inner start is not 16-byte aligned");
	bx->row_bytes = bx->n[0] * m->elem_size;
	bx->pitch = bx->span ? bx->span : bx->row_bytes;
	if (bx->span && bx->row_bytes > bx->span)
		return illegal(w, in, l, "cp.async.bulk.tensor: the box is wider than its swizzle");
	return EXEC_OK;
}

/*
 * Row @r of the box: the global address of its element 0 (which may lie
 * outside the tensor), and whether the row is inside the tensor in all
 * outer dimensions.  Im2col rows are pixels, walked through the box of
 * base pixels (lower .. dim - 1 + upper per spatial dimension, W first,
 * then N) from the instruction's coordinates; the read position is the
 * base plus the instruction's offsets.
 */
static bool row_at(const struct tma_box *bx, uint32_t r, uint64_t *base)
{
	const struct vgpu_tensor_map *m = &bx->m;
	int64_t g[VGPU_TMAP_MAX_RANK];
	bool in = true;

	g[0] = 0;
	if (m->kind == VGPU_TMAP_IM2COL) {
		uint32_t ns = m->rank - 2;
		int64_t pos[3], n = bx->start[m->rank - 1];

		for (uint32_t j = 0; j < ns; j++)
			pos[j] = bx->start[1 + j];
		for (uint32_t k = 0; k < r; k++) {
			uint32_t j = 0;

			while (j < ns && ++pos[j] > (int64_t)m->dim[1 + j] - 1 + m->upper[j]) {
				pos[j] = m->lower[j];
				j++;
			}
			if (j == ns)
				n++;
		}
		for (uint32_t j = 0; j < ns; j++)
			g[1 + j] = pos[j] + bx->offs[j];
		g[m->rank - 1] = n;
	} else {
		for (uint32_t i = 1; i < m->rank; i++) {
			g[i] = bx->start[i] + (int64_t)(r % bx->n[i]) * bx->step[i];
			r /= bx->n[i];
		}
	}
	*base = m->address;
	for (uint32_t i = 1; i < m->rank; i++) {
		/*
		 * Interleaved layouts: an H100 reads past the end of
		 * dimension 1 into the next slice of dimension 2 (both
		 * recordings), so dimension 1 is not bounds-checked there.
		 */
		if ((g[i] < 0 || g[i] >= (int64_t)m->dim[i]) &&
		    !(m->interleave && i == 1))
			in = false;
		*base += (uint64_t)g[i] * m->stride[i - 1];
	}
	return in;
}

/* Element @k of a row: its dimension-0 coordinate, if inside. */
static bool elem_at(const struct tma_box *bx, uint32_t k, int64_t *g0)
{
	*g0 = bx->start[0] + (int64_t)k * bx->step[0];
	return *g0 >= 0 && *g0 < (int64_t)bx->m.dim[0];
}

/* The shared offset of byte @k of row @r of a box at @dst. */
static uint32_t sh_off(const struct tma_box *bx, uint32_t dst, uint32_t r,
		       uint32_t k)
{
	uint32_t off = dst + r * bx->pitch + k;

	if (bx->span)
		off ^= ((off >> 7) & (bx->span / 16 - 1)) << 4;
	return off;
}

/* The shared window of the box at @dst: the block's memory, or NULL. */
static uint8_t *box_shared(struct warp *w, const struct dinsn *in, int l,
			   const struct tma_box *bx, uint64_t *dst)
{
	struct block *b = w->blk;
	uint64_t a = *dst;
	uint64_t extent = (uint64_t)bx->rows * bx->pitch;

	if (a & VISA_SHARED_CLUSTER_BIT) {
		if (VISA_SHARED_CLUSTER_RANK(a) != b->cl_rank) {
			fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, a,
			     "cp.async.bulk.tensor: another block's shared memory is not supported");
			return NULL;
		}
		a &= VISA_SHARED_CLUSTER_OFFSET;
	}
	if (a & 127) {
		fail(w, in, l, VISA_FAULT_MISALIGNED, a,
		     "cp.async.bulk.tensor: shared address not 128-byte aligned");
		return NULL;
	}
	if (a > b->shared_size || b->shared_size - a < extent) {
		fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, a,
		     "cp.async.bulk.tensor: the box does not fit the block's shared memory");
		return NULL;
	}
	*dst = a;
	return b->shared;
}

static int tma_load(struct warp *w, const struct dinsn *in, int l,
		    const struct tma_box *bx)
{
	uint64_t dst = src_row(w, in, 0, in->a)[l];
	uint32_t es = bx->m.elem_size;
	uint8_t *sh = box_shared(w, in, l, bx, &dst);
	uint8_t row[256 * 8], fill[8];

	if (!sh)
		return EXEC_FAULT;
	for (uint32_t i = 0; i < es; i += 2) {
		fill[i] = bx->m.oob_nan ? VGPU_TMAP_NAN_HALF & 0xff : 0;
		fill[i + 1] = bx->m.oob_nan ? VGPU_TMAP_NAN_HALF >> 8 : 0;
	}
	if (es == 1)
		fill[0] = 0;	/* no 8-bit floats: the NaN request is refused */
	for (uint32_t r = 0; r < bx->rows; r++) {
		uint64_t base;
		bool rin = row_at(bx, r, &base);

		for (uint32_t k = 0; k < bx->n[0]; k++) {
			int64_t g0;
			const uint8_t *p;

			if (!rin || !elem_at(bx, k, &g0)) {
				memcpy(row + k * es, fill, es);
				continue;
			}
			p = mem_resolve(w, pc_of(w, in), l, VISA_SPACE_GLOBAL,
					base + (uint64_t)g0 * es, es, ACC_READ);
			if (!p)
				return EXEC_FAULT;
			memcpy(row + k * es, p, es);
		}
		for (uint32_t k = 0; k < bx->row_bytes; k += 16) {
			uint32_t len = bx->row_bytes - k < 16 ? bx->row_bytes - k : 16;

			memcpy(sh + sh_off(bx, (uint32_t)dst, r, k), row + k, len);
		}
	}
	if (in->c == VISA_OPND_NONE && !in->lit[2])
		return EXEC_OK;
	return async_complete_tx(w, in, l, src_row(w, in, 2, in->c)[l],
				 bx->rows * bx->row_bytes);
}

/* ---- reducing stores ----------------------------------------------------- */

static bool red_int(uint32_t op, bool sgn, uint64_t mask, uint64_t old,
		    uint64_t v, uint64_t *out)
{
	int64_t so = (int64_t)old, sv = (int64_t)v;

	if (sgn && mask != UINT64_MAX) {	/* sign-extend 32-bit values */
		so = (int32_t)old;
		sv = (int32_t)v;
	}
	switch (op) {
	case VISA_TMA_RED_ADD: *out = old + v; break;
	case VISA_TMA_RED_MIN: *out = sgn ? (so < sv ? old : v) : (old < v ? old : v); break;
	case VISA_TMA_RED_MAX: *out = sgn ? (so > sv ? old : v) : (old > v ? old : v); break;
	case VISA_TMA_RED_INC: *out = old >= v ? 0 : old + 1; break;
	case VISA_TMA_RED_DEC: *out = !old || old > v ? v : old - 1; break;
	case VISA_TMA_RED_AND: *out = old & v; break;
	case VISA_TMA_RED_OR: *out = old | v; break;
	case VISA_TMA_RED_XOR: *out = old ^ v; break;
	default: return false;
	}
	*out &= mask;
	return true;
}

static bool red_float(uint32_t op, uint32_t dt, uint64_t old, uint64_t v,
		      uint64_t *out)
{
	double a, b, r;

	switch (dt) {
	case VGPU_TMAP_F16: a = f16_to_double((uint16_t)old); b = f16_to_double((uint16_t)v); break;
	case VGPU_TMAP_BF16: a = bf16_to_double((uint16_t)old); b = bf16_to_double((uint16_t)v); break;
	default: a = f32_of(old); b = f32_of(v); break;
	}
	switch (op) {
	case VISA_TMA_RED_ADD: r = a + b; break;
	case VISA_TMA_RED_MIN: r = a != a ? b : b != b ? a : a < b ? a : b; break;
	case VISA_TMA_RED_MAX: r = a != a ? b : b != b ? a : a > b ? a : b; break;
	default: return false;
	}
	switch (dt) {
	case VGPU_TMAP_F16: *out = f16_from_double(r, VISA_RND_RN); break;
	case VGPU_TMAP_BF16: *out = bf16_from_double(r, VISA_RND_RN); break;
	default: *out = f32_to_bits(op == VISA_TMA_RED_ADD ? (float)a + (float)b : (float)r); break;
	}
	return true;
}

/* One element of a .reduce store: global @p op= @v, atomically. */
static bool reduce_elem(uint32_t op, uint32_t dt, uint32_t es, void *p,
			uint64_t v)
{
	uint64_t mask = es == 8 ? UINT64_MAX : (1ull << (8 * es)) - 1;
	bool flt = dt == VGPU_TMAP_F16 || dt == VGPU_TMAP_F32 ||
		   dt == VGPU_TMAP_BF16 || dt == VGPU_TMAP_F32_FTZ;
	bool sgn = dt == VGPU_TMAP_S32 || dt == VGPU_TMAP_S64;
	uint64_t old = 0, nv;

	if (dt == VGPU_TMAP_U8 || dt == VGPU_TMAP_U16 || dt == VGPU_TMAP_F64 ||
	    dt >= VGPU_TMAP_TF32)
		return false;	/* no .reduce of u8, u16, f64, tf32 */
	for (;;) {
		bool ok;

		memcpy(&old, p, es);
		ok = flt ? red_float(op, dt, old, v, &nv) :
			   red_int(op, sgn, mask, old, v, &nv);
		if (!ok)
			return false;
		if (es == 2 ? __atomic_compare_exchange_n((uint16_t *)p,
				&(uint16_t){ (uint16_t)old }, (uint16_t)nv,
				false, __ATOMIC_RELAXED, __ATOMIC_RELAXED) :
		    es == 4 ? __atomic_compare_exchange_n((uint32_t *)p,
				&(uint32_t){ (uint32_t)old }, (uint32_t)nv,
				false, __ATOMIC_RELAXED, __ATOMIC_RELAXED) :
			      __atomic_compare_exchange_n((uint64_t *)p,
				&old, nv, false, __ATOMIC_RELAXED,
				__ATOMIC_RELAXED))
			return true;
	}
}

static int tma_store(struct warp *w, const struct dinsn *in, int l,
		     const struct tma_box *bx, bool reduce)
{
	uint64_t src = src_row(w, in, 0, in->a)[l];
	uint32_t es = bx->m.elem_size, op = VISA_TMA_IMM_OP(in->imm);
	uint8_t *sh = box_shared(w, in, l, bx, &src);
	uint8_t row[256 * 8];

	if (!sh)
		return EXEC_FAULT;
	for (uint32_t r = 0; r < bx->rows; r++) {
		uint64_t base;

		/* elements outside the tensor are not written */
		if (!row_at(bx, r, &base))
			continue;
		for (uint32_t k = 0; k < bx->row_bytes; k += 16) {
			uint32_t len = bx->row_bytes - k < 16 ? bx->row_bytes - k : 16;

			memcpy(row + k, sh + sh_off(bx, (uint32_t)src, r, k), len);
		}
		for (uint32_t k = 0; k < bx->n[0]; k++) {
			int64_t g0;
			uint64_t v = 0;
			void *p;

			if (!elem_at(bx, k, &g0))
				continue;
			p = mem_resolve(w, pc_of(w, in), l, VISA_SPACE_GLOBAL,
					base + (uint64_t)g0 * es, es,
					reduce ? ACC_ATOMIC : ACC_WRITE);
			if (!p)
				return EXEC_FAULT;
			if (!reduce) {
				memcpy(p, row + k * es, es);
				continue;
			}
			memcpy(&v, row + k * es, es);
			if (!reduce_elem(op, bx->m.dtype, es, p, v))
				return illegal(w, in, l, "cp.reduce.async.bulk.tensor: the operation does not apply to the map's type");
		}
	}
	return EXEC_OK;
}

int exec_tma(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint32_t sub = VISA_MOD_SUB(in->mod);

	for (int l = 0; l < WARP_SIZE; l++) {
		struct tma_box bx;
		int st;

		if (!((mask >> l) & 1))
			continue;
		st = box_of(w, in, l, &bx);
		if (st != EXEC_OK)
			return st;
		switch (sub) {
		case VISA_TMA_LOAD:
			st = tma_load(w, in, l, &bx);
			break;
		case VISA_TMA_STORE:
		case VISA_TMA_REDUCE:
			if (bx.m.kind != VGPU_TMAP_TILED)
				return illegal(w, in, l, "cp.async.bulk.tensor: stores of im2col maps are not supported");
			st = tma_store(w, in, l, &bx, sub == VISA_TMA_REDUCE);
			break;
		case VISA_TMA_PREFETCH:
			break;		/* a hint: the map was checked */
		default:
			return exec_bad(w, in, mask);
		}
		if (st != EXEC_OK)
			return st;
	}
	return EXEC_OK;
}
