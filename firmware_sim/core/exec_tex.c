// SPDX-License-Identifier: GPL-2.0
/*
 * exec_tex.c - the texture and surface instructions (the tex class of the
 * opcode table: TEX, TLD4, TXQ, SULD, SUST, SURED; include/vgpu_visa_tex.h
 * describes their operands).
 *
 * Per lane: operand a is the GPU VA of a struct vgpu_tex_desc.  It is read
 * through the memory path like any load (an unmapped handle, e.g. of a
 * destroyed object whose VRAM was freed, faults as a load would) and
 * checked with vgpu_tex_desc_ok().  TEX and TLD4 then build a struct
 * vgpu_tex_request from the staged operands and ask the texture unit
 * (tex_sampler.c, vgpu_tex_fetch()); surfaces address their element with
 * vgpu_tex_texel_va() and move raw bytes, after the boundary mode:
 *
 *   .trap   a coordinate outside the surface faults (VISA_FAULT_OUT_OF_RANGE)
 *   .clamp  the coordinate is clamped to the nearest edge element
 *   .zero   loads return zero, stores and reductions do nothing
 *
 * The x coordinate of a surface is in bytes (PTX's rule for .b): the
 * element is x / (bytes of one element of the surface's format); sust.p
 * gives the element itself and converts its 32-bit values to the
 * format (f32 for float formats; integers are cut to the channel, as
 * CUDA's surfaces have no normalized integer formats).
 */
#include <math.h>
#include <string.h>

#include "core_internal.h"
#include "exec_tex.h"
#include "fp_formats.h"
#include "mem_span.h"
#include "tex_sampler.h"
#include "vgpu_mma.h"
#include "vgpu_tex.h"

/* One lane's access: what the texture unit's read callback needs. */
struct tex_lane {
	struct warp *w;
	uint32_t pc;
	int lane;
	uint64_t handle;	/* the descriptor's VA: the address of a fault */
	bool faulted;		/* the memory path recorded a fault */
};

static int tex_read(void *opaque, uint64_t va, void *buf, unsigned int len)
{
	struct tex_lane *t = opaque;
	const void *p = NULL;

	if (len && len <= 16 && !(len & (len - 1)) && !(va & (len - 1)))
		p = mem_resolve(t->w, t->pc, t->lane, VISA_SPACE_GLOBAL, va,
				len, ACC_READ);
	else if (!mem_read_bytes(t->w, t->pc, t->lane, va, buf, len))
		return 0;
	if (!p) {
		t->faulted = true;
		return VISA_FAULT_UNMAPPED;
	}
	memcpy(buf, p, len);
	return 0;
}

static int lane_fault(struct tex_lane *t, uint32_t kind, uint64_t addr,
		      const char *msg)
{
	core_record_fault(t->w->blk->g, t->w, t->lane, t->pc, kind, addr, msg);
	return EXEC_FAULT;
}

/*
 * The descriptor at @va into @d: 0, or EXEC_FAULT (recorded).  Read in
 * 8-byte words, as the texture unit's header fetch would.
 */
static int read_desc(struct tex_lane *t, uint64_t va,
		     struct vgpu_tex_desc *d)
{
	uint64_t words[(sizeof(*d) + 7) / 8];

	for (size_t i = 0; i < sizeof(words) / 8; i++) {
		const uint64_t *p = mem_resolve(t->w, t->pc, t->lane,
						VISA_SPACE_GLOBAL, va + 8 * i,
						8, ACC_READ);

		if (!p)
			return EXEC_FAULT;
		words[i] = *p;
	}
	memcpy(d, words, sizeof(*d));
	if (!vgpu_tex_desc_ok(d))
		return lane_fault(t, VISA_FAULT_OUT_OF_RANGE, va,
				  "invalid texture or surface descriptor");
	return 0;
}

/* The staging slots of the warp, NULL if nothing was ever staged. */
static const uint64_t *staged(const struct warp *w, unsigned int s)
{
	return w->mma_stage ? w->mma_stage + (size_t)s * WARP_SIZE : NULL;
}

static float slot_f32(const struct warp *w, unsigned int s, int l)
{
	return f32_of(staged(w, s)[l]);
}

static int32_t slot_s32(const struct warp *w, unsigned int s, int l)
{
	return (int32_t)(uint32_t)staged(w, s)[l];
}

/* Coordinates filtered per geometry, and whether the first is a layer. */
static const struct { uint8_t dims, layered; } geom_info[] = {
	[VISA_TEX_1D] = { 1, 0 }, [VISA_TEX_2D] = { 2, 0 },
	[VISA_TEX_3D] = { 3, 0 }, [VISA_TEX_A1D] = { 1, 1 },
	[VISA_TEX_A2D] = { 2, 1 }, [VISA_TEX_CUBE] = { 3, 0 },
	[VISA_TEX_ACUBE] = { 3, 1 },
};

/*
 * A texel index given as an integer coordinate (tex1Dfetch, tex with .s32
 * coordinates) as the float the sampler floors back to it: the texel's
 * centre while floats still have the half, else the index itself.
 */
static float int_coord(int32_t i)
{
	return i > -(1 << 22) && i < (1 << 22) ? (float)i + 0.5f : (float)i;
}

static int tex_lane(struct tex_lane *t, const struct dinsn *in,
		    const struct vgpu_tex_desc *desc, uint32_t out[4])
{
	struct vgpu_tex_desc d = *desc;
	struct vgpu_tex_request r = { .gather = -1 };
	unsigned int g = VISA_TEX_GEOM(in->imm), first, i;
	bool ints = in->imm & VISA_TEX_INT_COORDS;
	int l = t->lane, kind;

	first = geom_info[g].layered;
	if (first)
		r.layer = slot_s32(t->w, VISA_TEX_SLOT_COORD, l);
	for (i = 0; i < geom_info[g].dims; i++)
		r.c[i] = ints ? int_coord(slot_s32(t->w, first + i, l)) :
				slot_f32(t->w, first + i, l);
	if (ints) {	/* texel indices: no normalization, no filtering */
		d.normalized = 0;
		d.filter = VGPU_TEX_POINT;
	}
	if (in->op == VISA_OP_TLD4) {
		r.gather = (int8_t)VISA_TEX_COMP(in->imm);
	} else {
		r.lod_kind = (uint8_t)VISA_TEX_LOD(in->imm);
		if (r.lod_kind == VGPU_TEX_LOD_LEVEL)
			r.lod = slot_f32(t->w, VISA_TEX_SLOT_LOD, l);
		for (i = 0; r.lod_kind == VGPU_TEX_LOD_GRAD && i < 3; i++) {
			r.dpdx[i] = slot_f32(t->w, VISA_TEX_SLOT_GRAD + i, l);
			r.dpdy[i] = slot_f32(t->w, VISA_TEX_SLOT_GRAD + 3 + i, l);
		}
	}
	for (i = 0; (in->imm & VISA_TEX_OFFSETS) && i < 3; i++)
		r.offset[i] = slot_s32(t->w, VISA_TEX_SLOT_OFFSET + i, l);
	/*
	 * The instruction's geometry must be the texture's; a cubemap's
	 * faces (and cubes) are the sampler's business.
	 */
	if ((g == VISA_TEX_CUBE || g == VISA_TEX_ACUBE) ? !d.cubemap :
	    d.cubemap || geom_info[g].dims != d.dims ||
	    geom_info[g].layered != d.layered)
		return lane_fault(t, VISA_FAULT_OUT_OF_RANGE, t->handle,
				  "texture instruction's geometry is not the texture's");
	kind = vgpu_tex_fetch(&d, tex_read, t, &r, out);
	if (kind && !t->faulted)
		return lane_fault(t, (uint32_t)kind, t->handle,
				  "texture request the texture unit cannot answer");
	return kind ? EXEC_FAULT : 0;
}

/* ---- surfaces ---------------------------------------------------------- */

/*
 * The element (@x, @y, @z) of a surface instruction after its boundary
 * mode: 1 in range (or clamped), 0 outside with .zero, or EXEC_FAULT.
 */
static int surf_address(struct tex_lane *t, const struct dinsn *in,
			const struct vgpu_tex_desc *d, uint64_t *va)
{
	unsigned int g = VISA_TEX_GEOM(in->imm), first = geom_info[g].layered;
	uint32_t elem = vgpu_tex_format_bytes(d->format) * d->channels;
	int64_t c[3] = { 0, 0, 0 };
	const uint32_t lim[3] = { d->width, d->height, d->depth };
	unsigned int i, n = geom_info[g].dims;

	if (g > VISA_TEX_A2D || n != d->dims || first != d->layered)
		return lane_fault(t, VISA_FAULT_OUT_OF_RANGE, t->handle,
				  "surface instruction's geometry is not the surface's");
	for (i = 0; i < n; i++)
		c[i] = slot_s32(t->w, first + i, t->lane);
	/* .b: x is a byte offset; sust.p: an element (a sample) */
	if (!(in->op == VISA_OP_SUST && (in->imm & VISA_SURF_FORMATTED)))
		c[0] = c[0] < 0 ? -1 : c[0] / elem;
	if (first)
		c[2] = slot_s32(t->w, VISA_TEX_SLOT_COORD, t->lane);
	for (i = 0; i < 3; i++) {
		if (c[i] >= 0 && c[i] < lim[i])
			continue;
		switch (VISA_SURF_CLAMP_MODE(in->imm)) {
		case VISA_SURF_CLAMP:
			c[i] = c[i] < 0 ? 0 : lim[i] - 1;
			break;
		case VISA_SURF_ZERO:
			return 0;
		default:
			return lane_fault(t, VISA_FAULT_OUT_OF_RANGE, t->handle,
					  "surface coordinate out of range (.trap)");
		}
	}
	*va = vgpu_tex_texel_va(d, 0, (uint32_t)c[0], (uint32_t)c[1],
				(uint32_t)c[2]);
	return 1;
}

/* Bytes of memory at @va for @access: a host pointer, or NULL (fault). */
static void *surf_mem(struct tex_lane *t, uint64_t va, uint32_t len,
		      int access)
{
	void *p = mem_resolve(t->w, t->pc, t->lane, VISA_SPACE_GLOBAL, va, len,
			      access);

	t->faulted = !p;
	return p;
}

/* sust.p: element @v (32 bits) in the surface's format. */
static void format_channel(const struct vgpu_tex_desc *d, uint32_t v,
			   uint8_t *dst)
{
	uint16_t h;

	switch (d->format) {
	case VGPU_TEX_F16:
		h = f16_from_double(f32_of(v), VISA_RND_RN);
		memcpy(dst, &h, 2);
		break;
	default:	/* f32 bits, or the integer's low bytes */
		memcpy(dst, &v, vgpu_tex_format_bytes(d->format));
		break;
	}
}

static int suld_sust(struct tex_lane *t, const struct dinsn *in,
		     const struct vgpu_tex_desc *d, uint64_t *res[4])
{
	uint32_t eb = 1u << VISA_SURF_ELEM_LOG2(in->imm);
	uint32_t n = 1u << VISA_SURF_VEC_LOG2(in->imm), len = eb * n, i;
	bool formatted = in->op == VISA_OP_SUST &&
			 (in->imm & VISA_SURF_FORMATTED);
	uint64_t va = 0;
	uint8_t buf[32] = { 0 };
	uint8_t *p;
	int r = surf_address(t, in, d, &va);

	if (r != 1) {
		for (i = 0; in->op == VISA_OP_SULD && !r && i < n; i++)
			if (res[i])
				res[i][t->lane] = 0;
		return r == 0 ? 0 : r;
	}
	if (formatted) {
		n = d->channels;
		len = vgpu_tex_format_bytes(d->format) * n;
	}
	p = surf_mem(t, va, len, in->op == VISA_OP_SUST ? ACC_WRITE : ACC_READ);
	if (!p)
		return EXEC_FAULT;
	if (in->op == VISA_OP_SULD) {
		memcpy(buf, p, len);
		for (i = 0; i < n; i++) {
			uint64_t v = 0;

			memcpy(&v, buf + i * eb, eb);
			if (res[i])
				res[i][t->lane] = v;
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		uint64_t v = staged(t->w, VISA_TEX_SLOT_LOD + i)[t->lane];

		if (formatted)
			format_channel(d, (uint32_t)v,
				       buf + i * vgpu_tex_format_bytes(d->format));
		else
			memcpy(buf + i * eb, &v, eb);
	}
	memcpy(p, buf, len);
	return 0;
}

#define RED_LOOP(T, combine)						\
	do {								\
		T o_ = __atomic_load_n((T *)p, __ATOMIC_RELAXED), n_;	\
		do {							\
			n_ = (combine);					\
		} while (!__atomic_compare_exchange_n((T *)p, &o_, n_,	\
			false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));	\
	} while (0)

static int sured(struct tex_lane *t, const struct dinsn *in,
		 const struct vgpu_tex_desc *d, uint64_t b)
{
	bool wide = in->type == VISA_T_U64 || in->type == VISA_T_S64 ||
		    in->type == VISA_T_B64;
	bool sgn = in->type == VISA_T_S32 || in->type == VISA_T_S64;
	unsigned int op = VISA_MOD_SUB(in->mod);
	uint64_t va = 0;
	void *p;
	int r = surf_address(t, in, d, &va);

	if (r != 1)
		return r == 0 ? 0 : r;
	p = surf_mem(t, va, wide ? 8 : 4, ACC_ATOMIC);
	if (!p)
		return EXEC_FAULT;
#define RED_OPS(T, v)							\
	switch (op) {							\
	case VISA_ATOM_ADD: RED_LOOP(T, (T)(o_ + (v))); break;		\
	case VISA_ATOM_MIN: RED_LOOP(T, o_ < (v) ? o_ : (v)); break;	\
	case VISA_ATOM_MAX: RED_LOOP(T, o_ > (v) ? o_ : (v)); break;	\
	case VISA_ATOM_AND: RED_LOOP(T, o_ & (v)); break;		\
	case VISA_ATOM_OR: RED_LOOP(T, o_ | (v)); break;		\
	}
	if (wide && sgn)
		RED_OPS(int64_t, (int64_t)b)
	else if (wide)
		RED_OPS(uint64_t, b)
	else if (sgn)
		RED_OPS(int32_t, (int32_t)b)
	else
		RED_OPS(uint32_t, (uint32_t)b)
#undef RED_OPS
	return 0;
}

/* ---- queries ----------------------------------------------------------- */

/* OpenCL's channel data types and orders, which PTX's txq/suq return. */
enum {
	CL_SNORM_INT8 = 0x10D0, CL_SNORM_INT16 = 0x10D1,
	CL_UNORM_INT8 = 0x10D2, CL_UNORM_INT16 = 0x10D3,
	CL_SIGNED_INT8 = 0x10D7, CL_SIGNED_INT16 = 0x10D8,
	CL_SIGNED_INT32 = 0x10D9, CL_UNSIGNED_INT8 = 0x10DA,
	CL_UNSIGNED_INT16 = 0x10DB, CL_UNSIGNED_INT32 = 0x10DC,
	CL_HALF_FLOAT = 0x10DD, CL_FLOAT = 0x10DE,
	CL_R = 0x10B0, CL_RG = 0x10B2, CL_RGBA = 0x10B5,
};

static uint32_t channel_data_type(const struct vgpu_tex_desc *d)
{
	bool norm = d->read_mode == VGPU_TEX_NORMALIZED;

	switch (d->format) {
	case VGPU_TEX_U8: return norm ? CL_UNORM_INT8 : CL_UNSIGNED_INT8;
	case VGPU_TEX_S8: return norm ? CL_SNORM_INT8 : CL_SIGNED_INT8;
	case VGPU_TEX_U16: return norm ? CL_UNORM_INT16 : CL_UNSIGNED_INT16;
	case VGPU_TEX_S16: return norm ? CL_SNORM_INT16 : CL_SIGNED_INT16;
	case VGPU_TEX_U32: return CL_UNSIGNED_INT32;
	case VGPU_TEX_S32: return CL_SIGNED_INT32;
	case VGPU_TEX_F16: return CL_HALF_FLOAT;
	default: return CL_FLOAT;
	}
}

static uint64_t query(const struct vgpu_tex_desc *d, unsigned int what,
		      uint64_t level)
{
	unsigned int sh = level < 32 ? (unsigned int)level : 31;
	/* a resource view's layer range, or all of them */
	uint32_t layers = d->layered ? (d->layers ? d->layers : d->depth) /
				       (d->cubemap ? 6 : 1) : 1;

	switch (what) {
	case VISA_TXQ_WIDTH:
		return d->width >> sh ? d->width >> sh : 1;
	case VISA_TXQ_HEIGHT:
		return d->height >> sh ? d->height >> sh : 1;
	case VISA_TXQ_DEPTH:
		if (d->layered)
			return 1;
		return d->depth >> sh ? d->depth >> sh : 1;
	case VISA_TXQ_CHANNEL_DATA_TYPE:
		return channel_data_type(d);
	case VISA_TXQ_CHANNEL_ORDER:
		return d->channels == 1 ? CL_R : d->channels == 2 ? CL_RG :
							    CL_RGBA;
	case VISA_TXQ_NORMALIZED_COORDS:
		return d->normalized;
	case VISA_TXQ_FILTER_MODE:
		return d->filter;
	case VISA_TXQ_ADDR_MODE_0:
	case VISA_TXQ_ADDR_MODE_1:
	case VISA_TXQ_ADDR_MODE_2:
		return d->address[what - VISA_TXQ_ADDR_MODE_0];
	case VISA_TXQ_NUM_MIPMAP_LEVELS:
		return d->levels ? d->levels : 1;
	case VISA_TXQ_NUM_SAMPLES:
		return 0;	/* no multisample textures */
	case VISA_TXQ_ARRAY_SIZE:
		return layers;
	case VISA_TXQ_MEMORY_LAYOUT:	/* 1: pitch-linear */
		return d->layout != VGPU_TEX_BLOCK_LINEAR;
	default:
		return 0;
	}
}

/*
 * istypep: whether the handle is a valid descriptor.  Read without
 * faulting (an invalid handle is the question, not an error):
 * mem_span() checks the bytes and records nothing.
 */
static uint64_t is_valid(struct tex_lane *t, uint64_t va)
{
	struct vgpu_tex_desc d;
	struct mem_span s;

	if (!va || !mem_span(t->w, VISA_SPACE_GLOBAL, va, sizeof(d), 8,
			     ACC_READ, &s))
		return 0;
	memcpy(&d, s.host[0], s.split);
	if (s.split < sizeof(d))
		memcpy((uint8_t *)&d + s.split, s.host[1],
		       sizeof(d) - s.split);
	return vgpu_tex_desc_ok(&d);
}

int exec_tex(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *a = src_row(w, in, 0, in->a);
	const uint64_t *b = in->b != VISA_OPND_NONE ? src_row(w, in, 1, in->b) :
						      NULL;
	uint64_t *res[4] = { NULL, NULL, NULL, NULL };
	const uint16_t dst[4] = { in->d, in->b, in->c, in->e };
	struct vgpu_tex_desc d;
	uint64_t cached = 0;
	bool have = false;

	if (in->op != VISA_OP_TXQ && in->op != VISA_OP_SURED)
		for (int i = 0; i < 4; i++)
			if (dst[i] != VISA_OPND_NONE &&
			    !(dst[i] & VISA_OPND_LIT) && in->op != VISA_OP_SUST)
				res[i] = reg_row(w, dst[i]);
	if (in->op == VISA_OP_TXQ)
		res[0] = reg_row(w, in->d);
	if (in->op != VISA_OP_TXQ && (!w->mma_stage ||
	    VISA_TEX_GEOM(in->imm) >= VISA_TEX_GEOM_COUNT))
		return exec_bad(w, in, mask);
	if (in->op == VISA_OP_SURED &&
	    (VISA_MOD_SUB(in->mod) == VISA_ATOM_INC ||
	     VISA_MOD_SUB(in->mod) == VISA_ATOM_DEC ||
	     VISA_MOD_SUB(in->mod) > VISA_ATOM_OR))
		return exec_bad(w, in, mask);

	for (int l = 0; l < WARP_SIZE; l++) {
		struct tex_lane t = { .w = w, .pc = pc_of(w, in), .lane = l,
				      .handle = a[l] };
		uint32_t out[4];
		int r = 0;

		if (!((mask >> l) & 1))
			continue;
		if (in->op == VISA_OP_TXQ &&
		    VISA_MOD_SUB(in->mod) == VISA_TXQ_IS_VALID) {
			res[0][l] = is_valid(&t, a[l]);
			continue;
		}
		/* lanes mostly share a handle: read its descriptor once */
		if (!have || cached != a[l]) {
			if (read_desc(&t, a[l], &d))
				return EXEC_FAULT;
			cached = a[l];
			have = true;
		}
		switch (in->op) {
		case VISA_OP_TEX:
		case VISA_OP_TLD4:
			r = tex_lane(&t, in, &d, out);
			for (int i = 0; !r && i < 4; i++)
				if (res[i])
					res[i][l] = out[i];
			break;
		case VISA_OP_TXQ:
			res[0][l] = query(&d, VISA_MOD_SUB(in->mod),
					  b ? b[l] : 0);
			break;
		case VISA_OP_SULD:
		case VISA_OP_SUST:
			r = suld_sust(&t, in, &d, res);
			break;
		case VISA_OP_SURED:
			r = sured(&t, in, &d, b[l]);
			break;
		default:
			return exec_bad(w, in, mask);
		}
		if (r)
			return EXEC_FAULT;
	}
	return EXEC_OK;
}
