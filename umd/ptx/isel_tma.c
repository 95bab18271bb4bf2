// SPDX-License-Identifier: GPL-2.0
/*
 * isel_tma.c - the tensor memory accelerator's PTX: cp.async.bulk.tensor
 * (loads with mbarrier complete_tx, stores in bulk groups),
 * cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor and
 * fence.proxy.tensormap::generic, lowered to the TMA opcode
 * (firmware_sim/core/exec_tma.c says what it does;
 * Documentation/async-copies.rst explains the whole path).
 *
 *   cp.async.bulk.tensor.2d.shared::cluster.global.tile
 *       .mbarrier::complete_tx::bytes [s], [map, {x, y}], [bar];
 *     -> MMAPUT x, y -> slots 0, 1;  TMA.LOAD s, map, bar (imm: rank 2)
 *   ... .im2col ... [s], [map, {c, w, h, n}], [bar], {ow, oh};
 *     -> MMAPUT c, w, h, n; MMAPUT ow, oh -> slots 5, 6; TMA.LOAD (im2col)
 *   cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [map, {x, y}], [s];
 *     -> TMA.STORE s, map
 *   cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group ...
 *     -> TMA.REDUCE s, map (imm: op add)
 *   cp.async.bulk.prefetch.tensor.2d.L2.global.tile [map, {x, y}];
 *     -> TMA.PREFETCH map (the map is checked, nothing moves)
 *
 * The map's address is one register (base + offset), in the space the
 * operand names: a kernel parameter (__grid_constant__ CUtensorMap),
 * constant or global memory, or a generic address of any of them.  The
 * copies are made at issue (as cp.async.bulk's), so the bulk groups'
 * commit and waits need no code (isel_async.c drops them).  Multicast to
 * a cluster and loads into another block's shared memory are refused.
 */
#include <string.h>

#include "isel.h"

static const enum ptx_mod red_mods[VISA_TMA_RED_COUNT] = {
	[VISA_TMA_RED_ADD] = MOD_ADD, [VISA_TMA_RED_MIN] = MOD_MIN,
	[VISA_TMA_RED_MAX] = MOD_MAX, [VISA_TMA_RED_INC] = MOD_INC,
	[VISA_TMA_RED_DEC] = MOD_DEC, [VISA_TMA_RED_AND] = MOD_AND,
	[VISA_TMA_RED_OR] = MOD_OR, [VISA_TMA_RED_XOR] = MOD_XOR,
};

static const enum ptx_mod rank_mods[] = { MOD_1D, MOD_2D, MOD_3D, MOD_4D, MOD_5D };

#define RANKS MOD_1D, MOD_2D, MOD_3D, MOD_4D, MOD_5D
/* [a + imm] as one register holding the whole address; its space. */
static uint16_t whole_address(struct cg *g, struct cg_fn *fn,
			      const struct ptx_operand *o, enum ptx_space sp,
			      uint8_t *space)
{
	struct ptx_operand base = *o;
	struct visa_insn *vi;
	struct cg_addr ad;
	uint16_t d;

	base.elems = NULL;
	base.nelems = 0;
	cg_address(g, fn, &base, sp, &ad);
	if (space)
		*space = ad.space;
	if (ad.a == VISA_OPND_NONE)
		return cg_lit(g, fn, ad.imm);
	if (!ad.imm)
		return ad.a;
	d = cg_temp(g, fn);
	vi = cg_insn(fn, VISA_OP_ADD, VISA_T_U64);
	vi->d = d;
	vi->a = ad.a;
	vi->b = cg_lit(g, fn, ad.imm);
	return d;
}

/* The rank of .Nd (1..5). */
static uint32_t rank_of(struct cg *g, const struct ptx_insn *in)
{
	for (uint32_t r = 0; r < 5; r++)
		if (insn_has(in, rank_mods[r]))
			return r + 1;
	cg_fail(g, &in->pos, "'%s' needs a dimension (.1d .. .5d)", ptx_op_name(in->op));
	return 0;
}

/* MMAPUT @n sources into the slots from @base, four at a time. */
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

/* Stage the @n elements of vector @o (type @t) from slot @base. */
static void stage_vec(struct cg *g, struct cg_fn *fn,
		      const struct ptx_operand *o, uint32_t n, enum ptx_type t,
		      unsigned int base, const char *what)
{
	const struct ptx_operand *e = o->kind == PO_VEC || o->kind == PO_ADDR ?
				      o->elems : o;
	uint32_t have = o->kind == PO_VEC || o->kind == PO_ADDR ? o->nelems : 1;
	uint16_t src[5];

	if (have != n)
		cg_fail(g, &o->pos, "%s: %u expected, not %u", what, n, have);
	for (uint32_t i = 0; i < n; i++)
		src[i] = cg_src(g, fn, &e[i], t);
	stage(fn, src, n, base);
}

/* [map, {coords}]: stage the coordinates; the map's address and space. */
static uint16_t map_operand(struct cg *g, struct cg_fn *fn,
			    const struct ptx_operand *o, uint32_t rank,
			    uint8_t *space)
{
	if (o->kind != PO_ADDR || !o->nelems)
		cg_fail(g, &o->pos, "expected [tensor-map, {coordinates}]");
	stage_vec(g, fn, o, rank, PT_S32, VISA_TMA_SLOT_COORD,
		  "tensor coordinates");
	return whole_address(g, fn, o, PS_GENERIC, space);
}

static struct visa_insn *tma_insn(struct cg_fn *fn, uint32_t sub,
				  uint32_t rank, bool im2col)
{
	struct visa_insn *vi = cg_insn(fn, VISA_OP_TMA, VISA_T_B32);

	vi->mod = VISA_MOD_MKSUB(sub);
	vi->imm = rank | (im2col ? VISA_TMA_IMM_IM2COL : 0);
	return vi;
}

static void want_ops(struct cg *g, const struct ptx_insn *in, uint32_t n)
{
	if (in->nops != n)
		cg_fail(g, &in->pos, "'%s' takes %u operands here, not %u",
			ptx_op_name(in->op), n, in->nops);
}

/* global -> shared::cluster, complete_tx on an mbarrier */
static void sel_load(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     uint32_t rank)
{
	bool hint = insn_has(in, MOD_L2_CACHE_HINT);
	bool im2col = insn_has(in, MOD_IM2COL);
	struct visa_insn *vi;
	uint16_t dst, map, bar;
	uint8_t space;

	ALLOW(g, in, MOD_ASYNC, MOD_BULK, MOD_TENSOR, RANKS, MOD_SHARED_CLUSTER,
	      MOD_GLOBAL, MOD_TILE, MOD_IM2COL, MOD_MBARRIER_COMPLETE_TX_BYTES,
	      MOD_MULTICAST_CLUSTER, HINTS);
	if (insn_has(in, MOD_MULTICAST_CLUSTER))
		cg_unsupported(g, &in->pos,
			       "'cp.async.bulk.tensor' with .multicast::cluster is not supported");
	if (!insn_has(in, MOD_MBARRIER_COMPLETE_TX_BYTES))
		cg_fail(g, &in->pos,
			"'cp.async.bulk.tensor' to shared memory needs .mbarrier::complete_tx::bytes");
	if (im2col && rank < 3)
		cg_fail(g, &in->pos, "im2col copies are .3d to .5d");
	want_ops(g, in, 3 + (im2col ? 1u : 0u) + (hint ? 1u : 0u));
	dst = whole_address(g, fn, &in->ops[0], PS_SHARED, NULL);
	map = map_operand(g, fn, &in->ops[1], rank, &space);
	bar = whole_address(g, fn, &in->ops[2], PS_SHARED, NULL);
	if (im2col)
		stage_vec(g, fn, &in->ops[3], rank - 2, PT_U16,
			  VISA_TMA_SLOT_OFFSET, "im2col offsets");
	vi = tma_insn(fn, VISA_TMA_LOAD, rank, im2col);
	vi->a = dst;
	vi->b = map;
	vi->c = bar;
	vi->type2 = space;
}

/* shared::cta -> global, plain or reducing, in a bulk group */
static void sel_store(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      uint32_t rank, bool reduce)
{
	bool hint = insn_has(in, MOD_L2_CACHE_HINT);
	uint32_t op = 0;
	struct visa_insn *vi;
	uint16_t src, map;
	uint8_t space;

	ALLOW(g, in, MOD_REDUCE, MOD_ASYNC, MOD_BULK, MOD_TENSOR, RANKS, MOD_GLOBAL,
	      MOD_SHARED_CTA, MOD_TILE, MOD_IM2COL_NO_OFFS, MOD_BULK_GROUP, MOD_ADD,
	      MOD_MIN, MOD_MAX, MOD_INC, MOD_DEC, MOD_AND, MOD_OR, MOD_XOR, HINTS);
	if (insn_has(in, MOD_IM2COL_NO_OFFS))
		cg_unsupported(g, &in->pos,
			       "'%s' of an im2col box to global memory is not supported",
			       ptx_op_name(in->op));
	if (!insn_has(in, MOD_BULK_GROUP))
		cg_fail(g, &in->pos, "'%s' to global memory needs .bulk_group",
			ptx_op_name(in->op));
	if (reduce) {
		for (op = 0; op < VISA_TMA_RED_COUNT; op++)
			if (insn_has(in, red_mods[op]))
				break;
		if (op == VISA_TMA_RED_COUNT)
			cg_fail(g, &in->pos,
				"'cp.reduce.async.bulk.tensor' needs an operation (.add, .min, .max, .inc, .dec, .and, .or, .xor)");
	}
	want_ops(g, in, 2 + (hint ? 1u : 0u));
	map = map_operand(g, fn, &in->ops[0], rank, &space);
	src = whole_address(g, fn, &in->ops[1], PS_SHARED, NULL);
	vi = tma_insn(fn, reduce ? VISA_TMA_REDUCE : VISA_TMA_STORE, rank,
		      false);
	vi->a = src;
	vi->b = map;
	vi->type2 = space;
	vi->imm |= (uint64_t)op << VISA_TMA_IMM_OP_SHIFT;
}

static void sel_prefetch(struct cg *g, struct cg_fn *fn,
			 const struct ptx_insn *in, uint32_t rank)
{
	bool hint = insn_has(in, MOD_L2_CACHE_HINT);
	bool im2col = insn_has(in, MOD_IM2COL);
	struct visa_insn *vi;
	uint16_t map;
	uint8_t space;

	ALLOW(g, in, MOD_ASYNC, MOD_BULK, MOD_PREFETCH, MOD_TENSOR, RANKS, MOD_L2,
	      MOD_GLOBAL, MOD_TILE, MOD_IM2COL, HINTS);
	want_ops(g, in, 1 + (im2col ? 1u : 0u) + (hint ? 1u : 0u));
	map = map_operand(g, fn, &in->ops[0], rank, &space);
	vi = tma_insn(fn, VISA_TMA_PREFETCH, rank, im2col);
	vi->a = cg_lit(g, fn, 0);
	vi->b = map;
	vi->type2 = space;
}

bool cg_select_tma(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	uint32_t rank;

	if (in->op == OP_FENCE && insn_has(in, MOD_PROXY) &&
	    (insn_has(in, MOD_TENSORMAP_GENERIC))) {
		struct visa_insn *vi;

		/*
		 * fence.proxy.tensormap::generic.{release,acquire}.scope
		 * [addr], 128: a map written with generic stores is seen by
		 * the next TMA operation, which reads it through the same
		 * memory here; a fence of the scope is all it needs.
		 */
		ALLOW(g, in, MOD_PROXY, MOD_TENSORMAP_GENERIC, MOD_RELEASE,
		      MOD_ACQUIRE, MOD_CTA, MOD_CLUSTER, MOD_GPU, MOD_SYS);
		if (in->nops != 0 && in->nops != 2)
			cg_fail(g, &in->pos,
				"'fence.proxy.tensormap::generic' takes [address], 128 or nothing");
		if (in->nops == 2 &&
		    (in->ops[1].kind != PO_IMM || in->ops[1].imm != 128))
			cg_fail(g, &in->ops[1].pos,
				"the size of 'fence.proxy.tensormap::generic' is 128");
		vi = cg_insn(fn, VISA_OP_MEMBAR, VISA_T_NONE);
		vi->mod = VISA_MOD_MKSUB(VISA_SCOPE_GPU);
		return true;
	}
	if (in->op != OP_CP || !insn_has(in, MOD_TENSOR))
		return false;
	rank = rank_of(g, in);
	if (insn_has(in, MOD_PREFETCH))
		sel_prefetch(g, fn, in, rank);
	else if (insn_has(in, MOD_REDUCE))
		sel_store(g, fn, in, rank, true);
	else if (insn_has(in, MOD_SHARED_CLUSTER))
		sel_load(g, fn, in, rank);
	else if (insn_has(in, MOD_SHARED_CTA) && insn_has(in, MOD_GLOBAL) &&
		 in->nops >= 1 && in->ops[0].kind == PO_ADDR &&
		 in->ops[0].nelems)
		sel_store(g, fn, in, rank, false);
	else
		cg_unsupported(g, &in->pos,
			       "this form of 'cp.async.bulk.tensor' is not supported");
	return true;
}
