// SPDX-License-Identifier: GPL-2.0
/*
 * isel_async.c - asynchronous data movement: cp.async and its groups,
 * mbarrier, cp.async.bulk, fence.proxy.async, elect.sync and
 * griddepcontrol, lowered to
 * the async class of vISA (firmware_sim/core/exec_async.c says what each
 * does; Documentation/async-copies.rst explains the whole path).
 *
 * Every address becomes one register (base + offset added here), so the
 * instructions that take two or three addresses fit the operand slots.
 * Hints with no meaning on this machine are accepted and dropped: the
 * cache level (.ca/.cg), .L2::cache_hint with its policy operand,
 * .L2::64B/128B/256B prefetch sizes, the memory-order and scope qualifiers
 * of mbarrier (one SM thread runs a whole block, so every mbarrier
 * operation is already ordered with the block's other accesses).
 */
#include <string.h>

#include "isel.h"

static void want_ops(struct cg *g, const struct ptx_insn *in, uint32_t lo,
		     uint32_t hi)
{
	if (in->nops < lo || in->nops > hi)
		cg_fail(g, &in->pos, "'%s' takes %u to %u operands, not %u",
			ptx_op_name(in->op), lo, hi, in->nops);
}

/* [a + imm] as one register holding the whole address. */
static uint16_t whole_address(struct cg *g, struct cg_fn *fn,
			      const struct ptx_operand *o, enum ptx_space sp,
			      uint8_t *space)
{
	struct cg_addr ad;
	struct visa_insn *vi;
	uint16_t d;

	cg_address(g, fn, o, sp, &ad);
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

/* The state space of an mbarrier operand: shared, or generic. */
static enum ptx_space mbar_space(struct cg *g, const struct ptx_insn *in)
{
	if (insn_has(in, MOD_SHARED) || insn_has(in, MOD_SHARED_CTA) ||
	    insn_has(in, MOD_SHARED_CLUSTER))
		return PS_SHARED;
	if (insn_has(in, MOD_GLOBAL))
		cg_fail(g, &in->pos, "mbarrier objects live in shared memory");
	return PS_GENERIC;
}

/* ---- cp.async ------------------------------------------------------------ */

static void sel_cp_async_copy(struct cg *g, struct cg_fn *fn,
			      const struct ptx_insn *in)
{
	bool hint = insn_has(in, MOD_L2_CACHE_HINT);
	uint32_t n = in->nops - (hint ? 1u : 0u);
	struct visa_insn *vi;
	uint16_t dst, src, ssz;
	uint64_t size;

	ALLOW(g, in, MOD_ASYNC, MOD_CA, MOD_CG, MOD_SHARED, MOD_SHARED_CTA, MOD_GLOBAL,
	      HINTS);
	if (!insn_has(in, MOD_GLOBAL) ||
	    !(insn_has(in, MOD_SHARED) || insn_has(in, MOD_SHARED_CTA)))
		cg_fail(g, &in->pos, "'cp.async' copies .global to .shared");
	if (insn_has(in, MOD_CA) == insn_has(in, MOD_CG))
		cg_fail(g, &in->pos, "'cp.async' needs one of .ca and .cg");
	want_ops(g, in, 3 + (hint ? 1u : 0u), 4 + (hint ? 1u : 0u));
	if (in->ops[2].kind != PO_IMM)
		cg_fail(g, &in->ops[2].pos, "the copy size of 'cp.async' is a constant");
	size = in->ops[2].imm;
	if (size != 4 && size != 8 && size != 16)
		cg_fail(g, &in->ops[2].pos, "cp.async copies 4, 8 or 16 bytes");
	if (insn_has(in, MOD_CG) && size != 16)
		cg_fail(g, &in->ops[2].pos, "cp.async.cg copies 16 bytes");
	dst = whole_address(g, fn, &in->ops[0], PS_SHARED, NULL);
	src = whole_address(g, fn, &in->ops[1], PS_GLOBAL, NULL);
	if (n == 3) {
		ssz = cg_lit(g, fn, size);
	} else if (in->ops[3].kind == PO_REG && in->ops[3].reg->type == PT_PRED) {
		/* ignore-src: a true predicate reads nothing, fills zeros */
		ssz = cg_temp(g, fn);
		vi = cg_insn(fn, VISA_OP_SELP, VISA_T_U32);
		vi->d = ssz;
		vi->a = cg_lit(g, fn, 0);
		vi->b = cg_lit(g, fn, size);
		vi->pa = cg_psrc(g, fn, &in->ops[3]);
	} else {
		if (in->ops[3].kind == PO_IMM && in->ops[3].imm > size)
			cg_fail(g, &in->ops[3].pos,
				"the src-size of cp.async is at most its copy size");
		ssz = cg_src(g, fn, &in->ops[3], PT_U32);
	}
	vi = cg_insn(fn, VISA_OP_CP_ASYNC, VISA_T_B32);
	vi->a = dst;
	vi->b = src;
	vi->c = ssz;
	vi->imm = size;
}

static void sel_cp_async_arrive(struct cg *g, struct cg_fn *fn,
				const struct ptx_insn *in)
{
	struct visa_insn *vi;
	uint8_t space;
	uint16_t a;

	ALLOW(g, in, MOD_ASYNC, MOD_MBARRIER, MOD_ARRIVE, MOD_NOINC, MOD_SHARED,
	      MOD_SHARED_CTA, MOD_B64);
	if (!insn_has(in, MOD_B64))
		cg_fail(g, &in->pos, "'cp.async.mbarrier.arrive' needs .b64");
	want_ops(g, in, 1, 1);
	a = whole_address(g, fn, &in->ops[0], mbar_space(g, in), &space);
	vi = cg_insn(fn, VISA_OP_CP_ASYNC_ARRIVE, VISA_T_B64);
	vi->a = a;
	vi->type2 = space;
	if (insn_has(in, MOD_NOINC))
		vi->mod = VISA_MOD_MKSUB(VISA_CPA_ARRIVE_NOINC);
}

/*
 * cp.async.bulk: global -> shared with complete_tx on an mbarrier, or
 * shared -> global in a bulk group.  The copy is made when it is issued
 * (see exec_async.c), so the bulk groups' commit and waits need no code.
 */
static void sel_cp_bulk(struct cg *g, struct cg_fn *fn,
			const struct ptx_insn *in)
{
	bool hint = insn_has(in, MOD_L2_CACHE_HINT);
	bool to_shared = insn_has(in, MOD_SHARED_CLUSTER) ||
			 (insn_has(in, MOD_SHARED_CTA) && !insn_has(in, MOD_BULK_GROUP));
	struct visa_insn *vi;
	uint16_t dst, src, size, mbar = VISA_OPND_NONE;

	if (insn_has(in, MOD_COMMIT_GROUP) || insn_has(in, MOD_WAIT_GROUP) ||
	    insn_has(in, MOD_PREFETCH)) {
		ALLOW(g, in, MOD_ASYNC, MOD_BULK, MOD_COMMIT_GROUP, MOD_WAIT_GROUP,
		      MOD_READ, MOD_PREFETCH, MOD_GLOBAL, HINTS);
		return;		/* completed at issue / a hint */
	}
	if (insn_has(in, MOD_TENSOR))
		cg_unsupported(g, &in->pos,
			       "'cp.async.bulk.tensor' (the tensor memory accelerator) is not supported");
	if (insn_has(in, MOD_MULTICAST_CLUSTER))
		cg_unsupported(g, &in->pos,
			       "'cp.async.bulk' with .multicast::cluster is not supported");
	if (to_shared) {
		ALLOW(g, in, MOD_ASYNC, MOD_BULK, MOD_SHARED_CLUSTER, MOD_SHARED_CTA,
		      MOD_GLOBAL, MOD_MBARRIER_COMPLETE_TX_BYTES, HINTS);
		if (!insn_has(in, MOD_GLOBAL) ||
		    !insn_has(in, MOD_MBARRIER_COMPLETE_TX_BYTES))
			cg_unsupported(g, &in->pos,
				       "this form of 'cp.async.bulk' is not supported");
		want_ops(g, in, 4 + (hint ? 1u : 0u), 4 + (hint ? 1u : 0u));
		dst = whole_address(g, fn, &in->ops[0], PS_SHARED, NULL);
		src = whole_address(g, fn, &in->ops[1], PS_GLOBAL, NULL);
		mbar = whole_address(g, fn, &in->ops[3], PS_SHARED, NULL);
	} else {
		ALLOW(g, in, MOD_ASYNC, MOD_BULK, MOD_GLOBAL, MOD_SHARED_CTA,
		      MOD_BULK_GROUP, HINTS, MOD_CP_MASK);
		if (insn_has(in, MOD_CP_MASK))
			cg_unsupported(g, &in->pos,
				       "'cp.async.bulk' with .cp_mask is not supported");
		if (!insn_has(in, MOD_BULK_GROUP) || !insn_has(in, MOD_GLOBAL))
			cg_unsupported(g, &in->pos,
				       "this form of 'cp.async.bulk' is not supported");
		want_ops(g, in, 3 + (hint ? 1u : 0u), 3 + (hint ? 1u : 0u));
		dst = whole_address(g, fn, &in->ops[0], PS_GLOBAL, NULL);
		src = whole_address(g, fn, &in->ops[1], PS_SHARED, NULL);
	}
	size = cg_src(g, fn, &in->ops[2], PT_U32);
	vi = cg_insn(fn, VISA_OP_CP_BULK, VISA_T_B32);
	vi->a = dst;
	vi->b = src;
	vi->c = size;
	vi->e = mbar;
	vi->type2 = to_shared ? VISA_SPACE_SHARED : VISA_SPACE_GLOBAL;
}

static bool sel_cp(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct visa_insn *vi;

	if (!insn_has(in, MOD_ASYNC))
		cg_unsupported(g, &in->pos, "'cp' other than cp.async is not supported");
	if (insn_has(in, MOD_BULK)) {
		sel_cp_bulk(g, fn, in);
		return true;
	}
	if (insn_has(in, MOD_MBARRIER)) {
		sel_cp_async_arrive(g, fn, in);
		return true;
	}
	if (insn_has(in, MOD_COMMIT_GROUP)) {
		ALLOW(g, in, MOD_ASYNC, MOD_COMMIT_GROUP);
		want_ops(g, in, 0, 0);
		cg_insn(fn, VISA_OP_CP_ASYNC_COMMIT, VISA_T_NONE);
		return true;
	}
	if (insn_has(in, MOD_WAIT_ALL)) {
		/* wait_all is commit_group; wait_group 0 (PTX ISA) */
		ALLOW(g, in, MOD_ASYNC, MOD_WAIT_ALL);
		want_ops(g, in, 0, 0);
		cg_insn(fn, VISA_OP_CP_ASYNC_COMMIT, VISA_T_NONE);
		cg_insn(fn, VISA_OP_CP_ASYNC_WAIT, VISA_T_NONE);
		return true;
	}
	if (insn_has(in, MOD_WAIT_GROUP)) {
		ALLOW(g, in, MOD_ASYNC, MOD_WAIT_GROUP);
		want_ops(g, in, 1, 1);
		if (in->ops[0].kind != PO_IMM)
			cg_fail(g, &in->ops[0].pos,
				"the operand of 'cp.async.wait_group' is a constant");
		vi = cg_insn(fn, VISA_OP_CP_ASYNC_WAIT, VISA_T_NONE);
		vi->imm = in->ops[0].imm;
		return true;
	}
	sel_cp_async_copy(g, fn, in);
	return true;
}

/* ---- mbarrier ------------------------------------------------------------ */

static const struct {
	enum ptx_mod name;	/* the modifier after "mbarrier" */
	enum ptx_mod name2;	/* a second one, or MOD_NONE */
	enum visa_mbar sub;
	uint8_t ndst;		/* 0: none, 1: state/_, 2: predicate */
	bool has_b;		/* an operand after [addr] */
	bool b_optional;	/* arrive's count */
} mbar_ops[] = {
	/* the two-modifier forms first: arrive.expect_tx is not expect_tx */
	{ MOD_ARRIVE, MOD_EXPECT_TX, VISA_MBAR_ARRIVE_EXPECT_TX, 1, true, false },
	{ MOD_ARRIVE, MOD_NOCOMPLETE, VISA_MBAR_ARRIVE_NOCOMPLETE, 1, true, false },
	{ MOD_ARRIVE, MOD_NONE, VISA_MBAR_ARRIVE, 1, true, true },
	{ MOD_ARRIVE_DROP, MOD_NOCOMPLETE, VISA_MBAR_ARRIVE_DROP_NOCOMPLETE, 1,
	  true, false },
	{ MOD_ARRIVE_DROP, MOD_NONE, VISA_MBAR_ARRIVE_DROP, 1, true, true },
	{ MOD_TEST_WAIT, MOD_PARITY, VISA_MBAR_TEST_WAIT_PARITY, 2, true, false },
	{ MOD_TEST_WAIT, MOD_NONE, VISA_MBAR_TEST_WAIT, 2, true, false },
	{ MOD_TRY_WAIT, MOD_PARITY, VISA_MBAR_TRY_WAIT_PARITY, 2, true, false },
	{ MOD_TRY_WAIT, MOD_NONE, VISA_MBAR_TRY_WAIT, 2, true, false },
	{ MOD_INIT, MOD_NONE, VISA_MBAR_INIT, 0, true, false },
	{ MOD_INVAL, MOD_NONE, VISA_MBAR_INVAL, 0, false, false },
	{ MOD_EXPECT_TX, MOD_NONE, VISA_MBAR_EXPECT_TX, 0, true, false },
	{ MOD_COMPLETE_TX, MOD_NONE, VISA_MBAR_COMPLETE_TX, 0, true, false },
};

static void sel_mbarrier(struct cg *g, struct cg_fn *fn,
			 const struct ptx_insn *in)
{
	const struct ptx_operand *o = in->ops;
	struct visa_insn *vi;
	uint32_t i, first;
	uint16_t a, b = VISA_OPND_NONE;
	uint8_t space;

	if (insn_has(in, MOD_PENDING_COUNT)) {
		ALLOW(g, in, MOD_PENDING_COUNT, MOD_B64);
		want_ops(g, in, 2, 2);
		vi = cg_insn(fn, VISA_OP_MBAR, VISA_T_B64);
		vi->d = cg_dst(g, fn, &o[0]);
		vi->a = cg_src(g, fn, &o[1], PT_B64);
		vi->mod = VISA_MOD_MKSUB(VISA_MBAR_PENDING_COUNT);
		return;
	}
	for (i = 0; i < sizeof(mbar_ops) / sizeof(mbar_ops[0]); i++)
		if (insn_has(in, mbar_ops[i].name) &&
		    (!mbar_ops[i].name2 || insn_has(in, mbar_ops[i].name2)))
			break;
	if (i == sizeof(mbar_ops) / sizeof(mbar_ops[0]))
		cg_unsupported(g, &in->pos, "this form of 'mbarrier' is not supported");
	if (!insn_has(in, MOD_B64))
		cg_fail(g, &in->pos, "'mbarrier' needs .b64");
	{
		const enum ptx_mod ok[] = {
			mbar_ops[i].name,
			mbar_ops[i].name2 ? mbar_ops[i].name2 : MOD_B64, MOD_B64,
			MOD_SHARED, MOD_SHARED_CTA, MOD_SHARED_CLUSTER,
			MOD_ACQUIRE, MOD_RELEASE, MOD_RELAXED, MOD_CTA, MOD_CLUSTER,
		};

		cg_allow_only(g, in, ok, sizeof(ok) / sizeof(ok[0]));
	}
	first = mbar_ops[i].ndst ? 1 : 0;
	/* try_wait may carry a suspend-time hint: dropped */
	want_ops(g, in, first + 1 + (mbar_ops[i].has_b && !mbar_ops[i].b_optional),
		 first + 1 + mbar_ops[i].has_b +
		 (mbar_ops[i].sub == VISA_MBAR_TRY_WAIT ||
		  mbar_ops[i].sub == VISA_MBAR_TRY_WAIT_PARITY));
	a = whole_address(g, fn, &o[first], mbar_space(g, in), &space);
	if (in->nops > first + 1)
		b = cg_src(g, fn, &o[first + 1],
			   mbar_ops[i].sub == VISA_MBAR_TEST_WAIT ||
			   mbar_ops[i].sub == VISA_MBAR_TRY_WAIT ? PT_B64 : PT_U32);
	else if (mbar_ops[i].has_b)
		b = cg_lit(g, fn, 1);	/* arrive's count defaults to 1 */
	vi = cg_insn(fn, VISA_OP_MBAR, VISA_T_B64);
	vi->a = a;
	vi->b = b;
	vi->type2 = space;
	vi->mod = VISA_MOD_MKSUB(mbar_ops[i].sub);
	if (mbar_ops[i].ndst == 1 && o[0].kind != PO_SINK)
		vi->d = cg_dst(g, fn, &o[0]);
	else if (mbar_ops[i].ndst == 2)
		vi->pd = cg_pdst(g, fn, &o[0]);
}

/* ---- elect.sync, fence.proxy --------------------------------------------- */

static void sel_elect(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct visa_insn *vi;
	struct ptx_operand p;

	ALLOW(g, in, MOD_SYNC);
	if (!insn_has(in, MOD_SYNC))
		cg_fail(g, &in->pos, "'elect' needs .sync");
	want_ops(g, in, 2, 2);
	p = in->ops[0];		/* only now known to be there */
	if (!in->ops[0].pred2)
		cg_fail(g, &in->ops[0].pos, "'elect.sync' writes d|p");
	vi = cg_insn(fn, VISA_OP_ELECT, VISA_T_U32);
	vi->e = cg_src(g, fn, &in->ops[1], PT_B32);
	if (in->ops[0].kind != PO_SINK)
		vi->d = cg_dst(g, fn, &in->ops[0]);
	p.kind = PO_REG;
	p.reg = in->ops[0].pred2;
	vi->pd = cg_pdst(g, fn, &p);
}

bool cg_select_async(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct visa_insn *vi;

	switch (in->op) {
	case OP_CP:
		return sel_cp(g, fn, in);
	case OP_MBARRIER:
		sel_mbarrier(g, fn, in);
		return true;
	case OP_ELECT:
		sel_elect(g, fn, in);
		return true;
	case OP_GRIDDEPCONTROL:
		/*
		 * Programmatic dependent launch: a grid's dependents never
		 * start before it ends here (launches of a stream run in
		 * order), so launch_dependents has nothing to signal and
		 * wait has nothing left to wait for.
		 */
		ALLOW(g, in, MOD_LAUNCH_DEPENDENTS, MOD_WAIT);
		if (in->nmods != 1)
			cg_fail(g, &in->pos,
				"'griddepcontrol' takes .launch_dependents or .wait");
		want_ops(g, in, 0, 0);
		return true;
	case OP_FENCE:
		if (!insn_has(in, MOD_PROXY))
			return false;
		/*
		 * One memory, one proxy: the async proxy's copies are
		 * ordered with the generic accesses of the thread once they
		 * land, so a CTA fence is all fence.proxy.async needs.
		 */
		ALLOW(g, in, MOD_PROXY, MOD_ASYNC, MOD_ASYNC_GENERIC, MOD_ALIAS,
		      MOD_GLOBAL, MOD_SHARED_CTA, MOD_SHARED_CLUSTER, MOD_ACQUIRE,
		      MOD_RELEASE, MOD_CTA, MOD_CLUSTER, MOD_GPU, MOD_SYS);
		want_ops(g, in, 0, 0);
		vi = cg_insn(fn, VISA_OP_MEMBAR, VISA_T_NONE);
		vi->mod = VISA_MOD_MKSUB(VISA_SCOPE_CTA);
		return true;
	default:
		return false;
	}
}
