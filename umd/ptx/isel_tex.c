// SPDX-License-Identifier: GPL-2.0
/*
 * isel_tex.c - PTX's texture and surface instructions: tex, tld4, txq,
 * suld, sust, sured, suq, istypep (include/vgpu_visa_tex.h describes the
 * vISA side).
 *
 *   tex.2d.v4.f32.f32 {d0..d3}, [h, {x, y}]
 *     -> MMAPUT x, y -> slots 0, 1;  TEX d0, h, d1, d2, d3 (imm: 2D)
 *   tex.level / tex.grad: the level / gradients are MMAPUT to slots 4..9
 *   tld4.g.2d ...        -> the same with TLD4 (imm: component 1)
 *   suld.b.2d.v4.b8.clamp {d0..d3}, [h, {x, y}]
 *     -> MMAPUT x, y;  SULD d0, h, d1, d2, d3 (imm: 8 bits, v4, clamp)
 *   sust.b.2d.b32.trap [h, {x, y}], {v}
 *     -> MMAPUT x, y -> slots 0, 1; MMAPUT v -> slot 4;  SUST h
 *   sured.b.add.2d.u32.trap [h, {x, y}], v -> MMAPUT x, y;  SURED h, v
 *   txq.width.b32 d, [h] / suq.width.b32 d, [h] -> TXQ.WIDTH d, h
 *   istypep.texref p, tr -> TXQ.IS_VALID t, tr; SETP.NE p, t, 0 (a register: false)
 *
 * The handle h is a register (a texture object, CUtexObject, passed as a
 * .u64 kernel parameter) or the name of a .texref/.surfref variable
 * (unified mode: the parser makes it a 64-bit variable and the host
 * stores the object's handle in it, cuModuleGetGlobal), loaded first.
 * Independent mode's separate sampler ([tex, sampler, {...}]) is not
 * supported: vGPU's descriptors hold the sampler state.
 */
#include <string.h>

#include "isel.h"

static const enum ptx_mod geom_mods[VISA_TEX_GEOM_COUNT] = {
	[VISA_TEX_1D] = MOD_1D, [VISA_TEX_2D] = MOD_2D, [VISA_TEX_3D] = MOD_3D,
	[VISA_TEX_A1D] = MOD_A1D, [VISA_TEX_A2D] = MOD_A2D,
	[VISA_TEX_CUBE] = MOD_CUBE, [VISA_TEX_ACUBE] = MOD_ACUBE,
};

/* Coordinate vector elements PTX writes per geometry. */
static const uint8_t geom_coords[VISA_TEX_GEOM_COUNT] = {
	[VISA_TEX_1D] = 1, [VISA_TEX_2D] = 2, [VISA_TEX_3D] = 4,
	[VISA_TEX_A1D] = 2, [VISA_TEX_A2D] = 4, [VISA_TEX_CUBE] = 4,
	[VISA_TEX_ACUBE] = 4,
};

/* The modifiers of one instruction, each taken once. */
struct tmods {
	const struct ptx_insn *in;
	bool taken[PTX_MAX_MODS];
};

static bool take(struct tmods *m, enum ptx_mod mod)
{
	for (uint32_t i = 0; i < m->in->nmods; i++)
		if (!m->taken[i] && m->in->mods[i] == mod)
			return m->taken[i] = true;
	return false;
}

/* The index of the one of @names present, or -1. */
static int take_of(struct tmods *m, const enum ptx_mod *names, int n)
{
	for (int i = 0; i < n; i++)
		if (names[i] != MOD_NONE && take(m, names[i]))
			return i;
	return -1;
}

/* The next type modifier not yet taken, or PT_NONE. */
static enum ptx_type take_type(struct tmods *m)
{
	for (uint32_t i = 0; i < m->in->nmods; i++) {
		enum ptx_type t = ptx_mod_type(m->in->mods[i]);

		if (!m->taken[i] && t != PT_NONE) {
			m->taken[i] = true;
			return t;
		}
	}
	return PT_NONE;
}

static void finish(struct cg *g, struct tmods *m)
{
	static const enum ptx_mod cache_ops[] = { MOD_CA, MOD_CG, MOD_CS, MOD_CV,
						 MOD_WB, MOD_WT };

	for (uint32_t i = 0; i < m->in->nmods; i++) {
		bool ignore = false;

		for (size_t j = 0; j < sizeof(cache_ops) / sizeof(*cache_ops); j++)
			ignore |= m->in->mods[i] == cache_ops[j];
		if (!m->taken[i] && !ignore)
			cg_unsupported(g, &m->in->pos,
				       "modifier '.%s' of '%s' is not supported",
				       ptx_mod_name(m->in->mods[i]),
				       ptx_op_name(m->in->op));
	}
}

static void want_ops(struct cg *g, const struct ptx_insn *in, uint32_t lo,
		     uint32_t hi)
{
	if (in->nops < lo || in->nops > hi)
		cg_fail(g, &in->pos, "'%s' takes %u to %u operands, not %u",
			ptx_op_name(in->op), lo, hi, in->nops);
}

static int geometry(struct cg *g, struct tmods *m)
{
	int geom = take_of(m, geom_mods, VISA_TEX_GEOM_COUNT);

	if (geom < 0)
		cg_fail(g, &m->in->pos, "'%s' needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)",
			ptx_op_name(m->in->op));
	return geom;
}

/* The handle of [h, ...] in a GPR. */
static uint16_t handle(struct cg *g, struct cg_fn *fn,
		       const struct ptx_operand *o)
{
	struct cg_addr ad;
	struct visa_insn *vi;
	uint16_t d;

	if (o->kind != PO_ADDR || (!o->reg && !o->sym))
		cg_fail(g, &o->pos, "expected [texture or surface, ...]");
	if (o->reg) {
		if (o->off)
			cg_fail(g, &o->pos, "a texture handle takes no offset");
		return cg_src(g, fn, &(struct ptx_operand){ .kind = PO_REG,
				      .pos = o->pos, .reg = o->reg }, PT_B64);
	}
	cg_address(g, fn, o, PS_GENERIC, &ad);
	if (ad.argreg)
		return ad.a;
	d = cg_temp(g, fn);
	vi = cg_insn(fn, VISA_OP_LD, VISA_T_B64);
	vi->type2 = ad.space;
	vi->a = ad.a;
	vi->imm = ad.imm;
	vi->d = d;
	return d;
}

/* MMAPUT @n sources (VISA_OPND_NONE allowed) into slots from @base. */
static void stage(struct cg_fn *fn, const uint16_t *src, uint32_t n,
		  unsigned int base)
{
	for (uint32_t i = 0; i < n; i += 4) {
		struct visa_insn *vi = cg_insn(fn, VISA_OP_MMAPUT, VISA_T_B64);

		vi->a = src[i];
		vi->b = i + 1 < n ? src[i + 1] : VISA_OPND_NONE;
		vi->c = i + 2 < n ? src[i + 2] : VISA_OPND_NONE;
		vi->e = i + 3 < n ? src[i + 3] : VISA_OPND_NONE;
		vi->imm = base + i;
	}
}

/* The elements of vector @o (or a scalar) as sources of type @t. */
static uint32_t vec_src(struct cg *g, struct cg_fn *fn,
			const struct ptx_operand *o, enum ptx_type t,
			uint16_t *src, uint32_t max)
{
	uint32_t n = o->kind == PO_VEC ? o->nelems : 1;

	if (n > max)
		cg_fail(g, &o->pos, "%u elements where at most %u are allowed",
			n, max);
	for (uint32_t i = 0; i < n; i++) {
		const struct ptx_operand *e = o->kind == PO_VEC ? &o->elems[i] : o;

		src[i] = e->kind == PO_SINK ? cg_lit(g, fn, 0) :
					      cg_src(g, fn, e, t);
	}
	return n;
}

/* Stage the coordinates of [h, {c...}] for geometry @geom. */
static void coords(struct cg *g, struct cg_fn *fn, const struct ptx_operand *a,
		   int geom, enum ptx_type ct)
{
	uint16_t src[4];
	uint32_t n = geom_coords[geom];

	if (a->nelems != n && !(n == 4 && a->nelems == 3))
		cg_fail(g, &a->pos, "a .%s access takes %u coordinate%s, not %u",
			ptx_mod_name(geom_mods[geom]), n, n == 1 ? "" : "s", a->nelems);
	for (uint32_t i = 0; i < a->nelems; i++) {
		const struct ptx_operand *e = &a->elems[i];
		/* the layer of a1d/a2d/acube is .s32 whatever ct is */
		enum ptx_type t = (i == 0 && (geom == VISA_TEX_A1D ||
					      geom == VISA_TEX_A2D ||
					      geom == VISA_TEX_ACUBE)) ?
				  PT_S32 : ct;

		src[i] = e->kind == PO_SINK ? cg_lit(g, fn, 0) :
					      cg_src(g, fn, e, t);
	}
	stage(fn, src, a->nelems, VISA_TEX_SLOT_COORD);
}

/* The destinations {d0, d1, d2, d3} (or fewer) into d, b, c, e. */
static void dests(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		  uint32_t want, struct visa_insn *vi)
{
	uint16_t d[4] = { VISA_OPND_NONE, VISA_OPND_NONE, VISA_OPND_NONE,
			  VISA_OPND_NONE };
	uint32_t n = o->kind == PO_VEC ? o->nelems : 1;

	if (n != want)
		cg_fail(g, &o->pos, "'%s' writes %u elements, not %u",
			ptx_op_name(fn->cur ? fn->cur->op : OP_NONE), want, n);
	if (o->pred2)
		cg_unsupported(g, &o->pos, "the predicate result of '%s'",
			       ptx_op_name(fn->cur ? fn->cur->op : OP_NONE));
	for (uint32_t i = 0; i < n; i++) {
		const struct ptx_operand *e = o->kind == PO_VEC ? &o->elems[i] : o;

		if (e->kind != PO_SINK)
			d[i] = cg_dst(g, fn, e);
	}
	if (d[0] == VISA_OPND_NONE)
		d[0] = cg_temp(g, fn);
	vi->d = d[0];
	vi->b = d[1];
	vi->c = d[2];
	vi->e = d[3];
}

/* tex and tld4 */
static void sel_tex(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    bool gather)
{
	static const enum ptx_mod comps[] = { MOD_R, MOD_G, MOD_B, MOD_A };
	static const enum ptx_mod lods[] = { MOD_NONE, MOD_LEVEL, MOD_GRAD };
	struct tmods m = { .in = in };
	int geom, comp = 0, lod = 0;
	enum ptx_type dt, ct;
	uint32_t i = 2, nops;
	uint16_t h, src[6];
	uint64_t imm;
	struct visa_insn *vi;

	if (gather) {
		comp = take_of(&m, comps, 4);
		if (comp < 0)
			cg_fail(g, &in->pos, "'tld4' needs a component (.r, .g, .b, .a)");
	} else {
		lod = take_of(&m, lods, 3);
		if (lod < 0)
			lod = 0;
		take(&m, MOD_BASE);
	}
	geom = geometry(g, &m);
	if (gather && geom != VISA_TEX_2D && geom != VISA_TEX_A2D &&
	    geom != VISA_TEX_CUBE && geom != VISA_TEX_ACUBE)
		cg_fail(g, &in->pos, "'tld4' takes .2d, .a2d, .cube or .acube");
	if (!take(&m, MOD_V4))
		cg_unsupported(g, &in->pos, "'%s' without .v4", ptx_op_name(in->op));
	dt = take_type(&m);
	ct = take_type(&m);
	if ((dt != PT_F32 && dt != PT_S32 && dt != PT_U32) ||
	    (ct != PT_F32 && ct != PT_S32))
		cg_unsupported(g, &in->pos, "'%s' types .%s.%s (.f32/.s32/.u32 results, .f32/.s32 coordinates)",
			       ptx_op_name(in->op), ptx_type_name(dt), ptx_type_name(ct));
	finish(g, &m);
	nops = 2 + (lod == VISA_TEX_LOD_LEVEL) + 2 * (lod == VISA_TEX_LOD_GRAD);
	want_ops(g, in, nops, nops + 2);
	if (in->ops[1].kind != PO_ADDR || !in->ops[1].nelems)
		cg_fail(g, &in->ops[1].pos, "expected [texture, {coordinates}]");
	h = handle(g, fn, &in->ops[1]);
	coords(g, fn, &in->ops[1], geom, ct);
	imm = (uint64_t)geom | (uint64_t)lod << VISA_TEX_LOD_SHIFT |
	      (uint64_t)comp << VISA_TEX_COMP_SHIFT |
	      (ct == PT_S32 ? VISA_TEX_INT_COORDS : 0);
	if (lod == VISA_TEX_LOD_LEVEL) {
		src[0] = cg_src(g, fn, &in->ops[i++], PT_F32);
		stage(fn, src, 1, VISA_TEX_SLOT_LOD);
	} else if (lod == VISA_TEX_LOD_GRAD) {
		uint16_t gx[4], gy[4];
		uint32_t nx = vec_src(g, fn, &in->ops[i++], PT_F32, gx, 4);
		uint32_t ny = vec_src(g, fn, &in->ops[i++], PT_F32, gy, 4);

		for (uint32_t k = 0; k < 3; k++) {
			src[k] = k < nx ? gx[k] : cg_lit(g, fn, 0);
			src[3 + k] = k < ny ? gy[k] : cg_lit(g, fn, 0);
		}
		stage(fn, src, 6, VISA_TEX_SLOT_GRAD);
	}
	if (i < in->nops && in->ops[i].kind == PO_VEC) {	/* offsets */
		uint32_t n = vec_src(g, fn, &in->ops[i++], PT_S32, src, 4);

		for (uint32_t k = n; k < 3; k++)
			src[k] = cg_lit(g, fn, 0);
		stage(fn, src, 3, VISA_TEX_SLOT_OFFSET);
		imm |= VISA_TEX_OFFSETS;
	}
	if (i < in->nops)
		cg_unsupported(g, &in->ops[i].pos,
			       "depth comparison ('%s' with a reference value) is not supported",
			       ptx_op_name(in->op));
	vi = cg_insn(fn, gather ? VISA_OP_TLD4 : VISA_OP_TEX, cg_vtype(dt));
	vi->a = h;
	vi->imm = imm;
	dests(g, fn, &in->ops[0], 4, vi);
}

/* suld, sust, sured: .b or .p, geometry, vector, type, boundary mode */
struct surf {
	int geom;
	uint32_t elem_log2, vec_log2;
	enum ptx_type t;
	uint64_t imm;
};

static void surf_mods(struct cg *g, struct tmods *m, struct surf *s,
		      bool formatted_ok, int *atom)
{
	static const enum ptx_mod clamps[] = { MOD_TRAP, MOD_CLAMP, MOD_ZERO };
	static const enum ptx_mod vecs[] = { MOD_NONE, MOD_V2, MOD_V4 };
	static const enum ptx_mod atoms[] = {
		[VISA_ATOM_ADD] = MOD_ADD, [VISA_ATOM_MIN] = MOD_MIN,
		[VISA_ATOM_MAX] = MOD_MAX, [VISA_ATOM_AND] = MOD_AND,
		[VISA_ATOM_OR] = MOD_OR,
	};
	const struct ptx_insn *in = m->in;
	bool formatted = take(m, MOD_P);
	int c, v;

	if (!formatted && !take(m, MOD_B))
		cg_fail(g, &in->pos, "'%s' needs .b or .p", ptx_op_name(in->op));
	if (formatted && !formatted_ok)
		cg_unsupported(g, &in->pos, "'%s.p' is not supported", ptx_op_name(in->op));
	if (atom) {
		*atom = take_of(m, atoms, VISA_ATOM_OR + 1);
		if (*atom < 0)
			cg_fail(g, &in->pos, "'sured' needs .add, .min, .max, .and or .or");
	}
	s->geom = geometry(g, m);
	if (s->geom > VISA_TEX_A2D)
		cg_fail(g, &in->pos, "'%s' takes .1d, .2d, .3d, .a1d or .a2d", ptx_op_name(in->op));
	v = take_of(m, vecs, 3);
	s->vec_log2 = v < 0 ? 0 : (uint32_t)v;
	s->t = take_type(m);
	switch (ptx_type_size(s->t)) {
	case 1: s->elem_log2 = 0; break;
	case 2: s->elem_log2 = 1; break;
	case 4: s->elem_log2 = 2; break;
	case 8: s->elem_log2 = 3; break;
	default:
		cg_fail(g, &in->pos, "'%s' needs an element type (.b8 ... .b64)", ptx_op_name(in->op));
	}
	if (s->elem_log2 == 3 && s->vec_log2 == 2)
		cg_fail(g, &in->pos, "'%s' cannot access .v4.b64", ptx_op_name(in->op));
	c = take_of(m, clamps, 3);
	finish(g, m);
	s->imm = (uint64_t)s->geom |
		 (uint64_t)s->elem_log2 << VISA_SURF_ELEM_SHIFT |
		 (uint64_t)s->vec_log2 << VISA_SURF_VEC_SHIFT |
		 (uint64_t)(c < 0 ? VISA_SURF_TRAP : c) << VISA_SURF_CLAMP_SHIFT |
		 (formatted ? VISA_SURF_FORMATTED : 0);
}

static void sel_surf(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct tmods m = { .in = in };
	bool load = in->op == OP_SULD, red = in->op == OP_SURED;
	const struct ptx_operand *addr = &in->ops[load ? 1 : 0];
	struct surf s;
	struct visa_insn *vi;
	int atom = 0;
	uint16_t h, src[4];

	surf_mods(g, &m, &s, !load && !red, red ? &atom : NULL);
	want_ops(g, in, 2, 2);
	if (addr->kind != PO_ADDR || !addr->nelems)
		cg_fail(g, &addr->pos, "expected [surface, {coordinates}]");
	h = handle(g, fn, addr);
	coords(g, fn, addr, s.geom, PT_S32);
	if (load) {
		vi = cg_insn(fn, VISA_OP_SULD, cg_vtype(s.t));
		vi->a = h;
		vi->imm = s.imm;
		dests(g, fn, &in->ops[0], 1u << s.vec_log2, vi);
		return;
	}
	if (red) {
		uint16_t v = cg_src(g, fn, &in->ops[1], s.t);

		vi = cg_insn(fn, VISA_OP_SURED, cg_vtype(s.t));
		vi->a = h;
		vi->b = v;
		vi->imm = s.imm;
		vi->mod = VISA_MOD_MKSUB(atom);
		return;
	}
	if (vec_src(g, fn, &in->ops[1], s.t, src, 4) != 1u << s.vec_log2)
		cg_fail(g, &in->ops[1].pos, "'sust' stores %u elements", 1u << s.vec_log2);
	stage(fn, src, 1u << s.vec_log2, VISA_TEX_SLOT_LOD);
	vi = cg_insn(fn, VISA_OP_SUST, cg_vtype(s.t));
	vi->a = h;
	vi->imm = s.imm;
}

/* txq, suq: one property into d */
static void sel_query(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	static const enum ptx_mod names[VISA_TXQ_COUNT] = {
		[VISA_TXQ_WIDTH] = MOD_WIDTH, [VISA_TXQ_HEIGHT] = MOD_HEIGHT,
		[VISA_TXQ_DEPTH] = MOD_DEPTH,
		[VISA_TXQ_CHANNEL_DATA_TYPE] = MOD_CHANNEL_DATA_TYPE,
		[VISA_TXQ_CHANNEL_ORDER] = MOD_CHANNEL_ORDER,
		[VISA_TXQ_NORMALIZED_COORDS] = MOD_NORMALIZED_COORDS,
		[VISA_TXQ_FILTER_MODE] = MOD_FILTER_MODE,
		[VISA_TXQ_ADDR_MODE_0] = MOD_ADDR_MODE_0,
		[VISA_TXQ_ADDR_MODE_1] = MOD_ADDR_MODE_1,
		[VISA_TXQ_ADDR_MODE_2] = MOD_ADDR_MODE_2,
		[VISA_TXQ_NUM_MIPMAP_LEVELS] = MOD_NUM_MIPMAP_LEVELS,
		[VISA_TXQ_NUM_SAMPLES] = MOD_NUM_SAMPLES,
		[VISA_TXQ_ARRAY_SIZE] = MOD_ARRAY_SIZE,
		[VISA_TXQ_MEMORY_LAYOUT] = MOD_MEMORY_LAYOUT,
	};
	struct tmods m = { .in = in };
	bool level = in->op == OP_TXQ && take(&m, MOD_LEVEL);
	int q = take_of(&m, names, VISA_TXQ_COUNT);
	enum ptx_type t = take_type(&m);
	struct visa_insn *vi;
	uint16_t h, lv = VISA_OPND_NONE;

	if (q < 0)
		cg_fail(g, &in->pos, "'%s' needs a property (.width, .height, ...)", ptx_op_name(in->op));
	if (t != PT_B32)
		cg_fail(g, &in->pos, "'%s' needs .b32", ptx_op_name(in->op));
	finish(g, &m);
	want_ops(g, in, 2 + level, 2 + level);
	if (in->ops[1].kind != PO_ADDR || in->ops[1].nelems)
		cg_fail(g, &in->ops[1].pos, "expected [texture or surface]");
	h = handle(g, fn, &in->ops[1]);
	if (level)
		lv = cg_src(g, fn, &in->ops[2], PT_S32);
	vi = cg_insn(fn, VISA_OP_TXQ, VISA_T_B32);
	vi->mod = VISA_MOD_MKSUB(q);
	vi->a = h;
	vi->b = lv;
	vi->d = cg_dst(g, fn, &in->ops[0]);
}

/*
 * istypep.texref p, h: whether the opaque variable h is of that type.
 * For a texture or surface object in a register an H100 answers false,
 * whatever it holds (tools/cuda-probe/golden/probe_texptx.h100.txt);
 * for the name of a unified-mode .texref/.surfref variable vGPU answers
 * whether the handle stored in it is a valid descriptor.
 */
static void sel_istypep(struct cg *g, struct cg_fn *fn,
			const struct ptx_insn *in)
{
	static const enum ptx_mod kinds[] = { MOD_TEXREF, MOD_SURFREF, MOD_SAMPLERREF };
	struct tmods m = { .in = in };
	int k = take_of(&m, kinds, 3);
	struct visa_insn *vi;
	uint16_t t = cg_temp(g, fn), h;

	if (k < 0)
		cg_fail(g, &in->pos, "'istypep' needs .texref, .surfref or .samplerref");
	finish(g, &m);
	want_ops(g, in, 2, 2);
	/* descriptors hold their sampler: no sampler handles */
	if (k == 2 || in->ops[1].kind != PO_SYM) {
		vi = cg_insn(fn, VISA_OP_MOV, VISA_T_B32);
		vi->d = t;
		vi->a = cg_lit(g, fn, 0);
	} else {
		/* the handle stored in the variable, as [tr, ...] reads it */
		struct ptx_operand var = in->ops[1];

		var.kind = PO_ADDR;
		h = handle(g, fn, &var);
		vi = cg_insn(fn, VISA_OP_TXQ, VISA_T_B32);
		vi->mod = VISA_MOD_MKSUB(VISA_TXQ_IS_VALID);
		vi->a = h;
		vi->d = t;
	}
	vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U32);
	vi->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	vi->pd = cg_pdst(g, fn, &in->ops[0]);
	vi->a = t;
	vi->b = cg_lit(g, fn, 0);
}

bool cg_select_tex(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	switch (in->op) {
	case OP_TEX:
		sel_tex(g, fn, in, false);
		return true;
	case OP_TLD4:
		sel_tex(g, fn, in, true);
		return true;
	case OP_SULD:
	case OP_SUST:
	case OP_SURED:
		sel_surf(g, fn, in);
		return true;
	case OP_TXQ:
	case OP_SUQ:
		sel_query(g, fn, in);
		return true;
	case OP_ISTYPEP:
		sel_istypep(g, fn, in);
		return true;
	default:
		return false;
	}
}
