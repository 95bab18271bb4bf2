// SPDX-License-Identifier: GPL-2.0
/*
 * isel_coop.c - PTX of cooperative launches and thread-block clusters.
 *
 *   %envreg<n>                SREG ENVREG0 + n (grid.sync()'s workspace
 *                             address is %envreg1:%envreg2)
 *   %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid,
 *   %cluster_ctarank, %cluster_nctarank, %is_explicit_cluster
 *                             SREG of the same name (the last a
 *                             predicate: SREG, then SETP.NE 0)
 *   mapa[.shared::cluster].u32/.u64 d, a, rank
 *                             MAPA MAP: the address of a in the shared
 *                             memory of block rank of the cluster
 *   getctarank[.shared::cluster].u32/.u64 d, a
 *                             MAPA RANK: the rank whose shared memory a
 *                             is in
 *   barrier.cluster.arrive[.release|.relaxed][.aligned]
 *   barrier.cluster.wait[.acquire][.aligned]
 *                             BAR_CLUSTER ARRIVE / WAIT
 *
 * ld/st/atom/red .shared::cluster use the SHARED space (isel.c): the
 * addresses mapa makes carry the target block's rank
 * (VISA_SHARED_CLUSTER_BIT in include/vgpu_visa.h), plain shared offsets
 * are the block's own, as in PTX.  The .cluster scope of fences and
 * atomics is honoured as .gpu (isel.c), which is stronger.
 */
#include <string.h>

#include "isel.h"

static bool sreg_coop(const struct ptx_operand *o, uint32_t *idx)
{
	switch (o->sreg) {
	case SR_ENVREG:
		*idx = VISA_SREG_ENVREG0 + o->comp;
		return true;
	case SR_CLUSTERID:
		*idx = VISA_SREG_CLUSTERID_X + o->comp;
		return true;
	case SR_NCLUSTERID:
		*idx = VISA_SREG_NCLUSTERID_X + o->comp;
		return true;
	case SR_CLUSTER_CTAID:
		*idx = VISA_SREG_CLUSTER_CTAID_X + o->comp;
		return true;
	case SR_CLUSTER_NCTAID:
		*idx = VISA_SREG_CLUSTER_NCTAID_X + o->comp;
		return true;
	case SR_CLUSTER_CTARANK:
		*idx = VISA_SREG_CLUSTER_CTARANK;
		return true;
	case SR_CLUSTER_NCTARANK:
		*idx = VISA_SREG_CLUSTER_NCTARANK;
		return true;
	case SR_IS_EXPLICIT_CLUSTER:
		*idx = VISA_SREG_IS_EXPLICIT_CLUSTER;
		return true;
	default:
		return false;
	}
}

bool cg_sreg_coop(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		  uint16_t d, enum ptx_type t)
{
	struct visa_insn *in;
	uint32_t idx;

	(void)g;
	if (!sreg_coop(o, &idx))
		return false;
	in = cg_insn(fn, VISA_OP_SREG,
		     ptx_type_size(t) == 8 ? VISA_T_U64 : VISA_T_U32);
	in->d = d;
	in->imm = idx;
	return true;
}

/* The .u32/.u64 of mapa and getctarank, and that nothing else is there. */
static enum visa_type addr_type(struct cg *g, const struct ptx_insn *in,
				bool *shared)
{
	enum visa_type t = VISA_T_NONE;

	*shared = false;
	for (uint32_t i = 0; i < in->nmods; i++) {
		switch (in->mods[i]) {
		case MOD_SHARED_CLUSTER:
			*shared = true;
			break;
		case MOD_U32:
		case MOD_B32:
			t = VISA_T_U32;
			break;
		case MOD_U64:
		case MOD_B64:
			t = VISA_T_U64;
			break;
		default:
			cg_fail(g, &in->pos, "'%s' does not take .%s",
				ptx_op_name(in->op), ptx_mod_name(in->mods[i]));
		}
	}
	if (t == VISA_T_NONE)
		cg_fail(g, &in->pos, "'%s' needs .u32 or .u64", ptx_op_name(in->op));
	if (!*shared && t != VISA_T_U64)
		cg_fail(g, &in->pos, "'%s' on a generic address needs .u64",
			ptx_op_name(in->op));
	return t;
}

static void sel_mapa(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     bool rank)
{
	enum ptx_type pt;
	struct visa_insn *vi;
	uint16_t a, b = VISA_OPND_NONE, d;
	bool shared;
	enum visa_type t = addr_type(g, in, &shared);

	if (in->nops != (rank ? 2u : 3u))
		cg_fail(g, &in->pos, "'%s' takes %d operands", ptx_op_name(in->op),
			rank ? 2 : 3);
	/* shared::cluster addresses are 32-bit; generic ones 64 */
	pt = t == VISA_T_U64 ? PT_U64 : PT_U32;
	a = cg_src(g, fn, &in->ops[1], pt);
	if (!rank)
		b = cg_src(g, fn, &in->ops[2], PT_U32);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_MAPA, t);
	vi->d = d;
	vi->a = a;
	vi->b = b;
	vi->mod = VISA_MOD_MKSUB(rank ? VISA_MAPA_RANK : VISA_MAPA_MAP);
}

static void sel_bar_cluster(struct cg *g, struct cg_fn *fn,
			    const struct ptx_insn *in)
{
	struct visa_insn *vi;
	int op = -1;

	for (uint32_t i = 0; i < in->nmods; i++) {
		enum ptx_mod mod = in->mods[i];

		if (mod == MOD_CLUSTER || mod == MOD_ALIGNED ||
		    mod == MOD_RELEASE || mod == MOD_RELAXED ||
		    mod == MOD_ACQUIRE)
			continue;
		if (mod == MOD_ARRIVE && op < 0)
			op = VISA_BAR_CLUSTER_ARRIVE;
		else if (mod == MOD_WAIT && op < 0)
			op = VISA_BAR_CLUSTER_WAIT;
		else
			cg_fail(g, &in->pos, "'barrier.cluster' does not take .%s",
				ptx_mod_name(mod));
	}
	if (op < 0)
		cg_fail(g, &in->pos, "'barrier.cluster' needs .arrive or .wait");
	if (in->nops)
		cg_fail(g, &in->pos, "'barrier.cluster' takes no operands");
	vi = cg_insn(fn, VISA_OP_BAR_CLUSTER, VISA_T_NONE);
	vi->mod = VISA_MOD_MKSUB(op);
}

/* mov.pred p, %is_explicit_cluster: the one predicate special register. */
static bool sel_mov_pred_sreg(struct cg *g, struct cg_fn *fn,
			      const struct ptx_insn *in)
{
	struct visa_insn *vi;
	uint16_t t, pd;

	if (!insn_has(in, MOD_PRED) || in->nops != 2 ||
	    in->ops[1].kind != PO_SREG ||
	    in->ops[1].sreg != SR_IS_EXPLICIT_CLUSTER)
		return false;
	t = cg_temp(g, fn);
	vi = cg_insn(fn, VISA_OP_SREG, VISA_T_U32);
	vi->d = t;
	vi->imm = VISA_SREG_IS_EXPLICIT_CLUSTER;
	pd = cg_pdst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U32);
	vi->pd = pd;
	vi->a = t;
	vi->b = cg_lit(g, fn, 0);
	vi->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	return true;
}

bool cg_select_coop(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	switch (in->op) {
	case OP_MOV:
		return sel_mov_pred_sreg(g, fn, in);
	case OP_MAPA:
		sel_mapa(g, fn, in, false);
		return true;
	case OP_GETCTARANK:
		sel_mapa(g, fn, in, true);
		return true;
	case OP_BARRIER:
		if (!insn_has(in, MOD_CLUSTER))
			return false;
		sel_bar_cluster(g, fn, in);
		return true;
	default:
		return false;
	}
}
