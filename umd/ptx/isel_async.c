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

/* The modifiers an instruction may carry; anything else is refused. */
static void allow_only(struct cg *g, const struct ptx_insn *in,
		       const char *const *ok, uint32_t nok)
{
	uint32_t i, j;

	for (i = 0; i < in->nmods; i++) {
		for (j = 0; j < nok; j++)
			if (!strcmp(in->mods[i], ok[j]))
				break;
		if (j == nok)
			cg_unsupported(g, &in->pos,
				       "modifier '.%s' of '%s' is not supported",
				       in->mods[i], in->op);
	}
}

#define ALLOW(g, in, ...)						\
	do {								\
		static const char *const ok_[] = { __VA_ARGS__ };	\
		allow_only(g, in, ok_, sizeof(ok_) / sizeof(ok_[0]));	\
	} while (0)

/* The hints every form may carry. */
#define HINTS "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B"

static void want_ops(struct cg *g, const struct ptx_insn *in, uint32_t lo,
		     uint32_t hi)
{
	if (in->nops < lo || in->nops > hi)
		cg_fail(g, &in->pos, "'%s' takes %u to %u operands, not %u",
			in->op, lo, hi, in->nops);
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
	if (insn_has(in, "shared") || insn_has(in, "shared::cta") ||
	    insn_has(in, "shared::cluster"))
		return PS_SHARED;
	if (insn_has(in, "global"))
		cg_fail(g, &in->pos, "mbarrier objects live in shared memory");
	return PS_GENERIC;
}

/* ---- cp.async ------------------------------------------------------------ */

static void sel_cp_async_copy(struct cg *g, struct cg_fn *fn,
			      const struct ptx_insn *in)
{
	bool hint = insn_has(in, "L2::cache_hint");
	uint32_t n = in->nops - (hint ? 1u : 0u);
	struct visa_insn *vi;
	uint16_t dst, src, ssz;
	uint64_t size;

	ALLOW(g, in, "async", "ca", "cg", "shared", "shared::cta", "global",
	      HINTS);
	if (!insn_has(in, "global") ||
	    !(insn_has(in, "shared") || insn_has(in, "shared::cta")))
		cg_fail(g, &in->pos, "'cp.async' copies .global to .shared");
	if (insn_has(in, "ca") == insn_has(in, "cg"))
		cg_fail(g, &in->pos, "'cp.async' needs one of .ca and .cg");
	want_ops(g, in, 3 + (hint ? 1u : 0u), 4 + (hint ? 1u : 0u));
	if (in->ops[2].kind != PO_IMM)
		cg_fail(g, &in->ops[2].pos, "the copy size of 'cp.async' is a constant");
	size = in->ops[2].imm;
	if (size != 4 && size != 8 && size != 16)
		cg_fail(g, &in->ops[2].pos, "cp.async copies 4, 8 or 16 bytes");
	if (insn_has(in, "cg") && size != 16)
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

	ALLOW(g, in, "async", "mbarrier", "arrive", "noinc", "shared",
	      "shared::cta", "b64");
	if (!insn_has(in, "b64"))
		cg_fail(g, &in->pos, "'cp.async.mbarrier.arrive' needs .b64");
	want_ops(g, in, 1, 1);
	a = whole_address(g, fn, &in->ops[0], mbar_space(g, in), &space);
	vi = cg_insn(fn, VISA_OP_CP_ASYNC_ARRIVE, VISA_T_B64);
	vi->a = a;
	vi->type2 = space;
	if (insn_has(in, "noinc"))
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
	bool hint = insn_has(in, "L2::cache_hint");
	bool to_shared = insn_has(in, "shared::cluster") ||
			 (insn_has(in, "shared::cta") && !insn_has(in, "bulk_group"));
	struct visa_insn *vi;
	uint16_t dst, src, size, mbar = VISA_OPND_NONE;

	if (insn_has(in, "commit_group") || insn_has(in, "wait_group") ||
	    insn_has(in, "prefetch")) {
		ALLOW(g, in, "async", "bulk", "commit_group", "wait_group",
		      "read", "prefetch", "global", HINTS);
		return;		/* completed at issue / a hint */
	}
	if (insn_has(in, "tensor"))
		cg_unsupported(g, &in->pos,
			       "'cp.async.bulk.tensor' (the tensor memory accelerator) is not supported");
	if (insn_has(in, "multicast::cluster"))
		cg_unsupported(g, &in->pos,
			       "'cp.async.bulk' with .multicast::cluster is not supported");
	if (to_shared) {
		ALLOW(g, in, "async", "bulk", "shared::cluster", "shared::cta",
		      "global", "mbarrier::complete_tx::bytes", HINTS);
		if (!insn_has(in, "global") ||
		    !insn_has(in, "mbarrier::complete_tx::bytes"))
			cg_unsupported(g, &in->pos,
				       "this form of 'cp.async.bulk' is not supported");
		want_ops(g, in, 4 + (hint ? 1u : 0u), 4 + (hint ? 1u : 0u));
		dst = whole_address(g, fn, &in->ops[0], PS_SHARED, NULL);
		src = whole_address(g, fn, &in->ops[1], PS_GLOBAL, NULL);
		mbar = whole_address(g, fn, &in->ops[3], PS_SHARED, NULL);
	} else {
		ALLOW(g, in, "async", "bulk", "global", "shared::cta",
		      "bulk_group", HINTS, "cp_mask");
		if (insn_has(in, "cp_mask"))
			cg_unsupported(g, &in->pos,
				       "'cp.async.bulk' with .cp_mask is not supported");
		if (!insn_has(in, "bulk_group") || !insn_has(in, "global"))
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

	if (!insn_has(in, "async"))
		cg_unsupported(g, &in->pos, "'cp' other than cp.async is not supported");
	if (insn_has(in, "bulk")) {
		sel_cp_bulk(g, fn, in);
		return true;
	}
	if (insn_has(in, "mbarrier")) {
		sel_cp_async_arrive(g, fn, in);
		return true;
	}
	if (insn_has(in, "commit_group")) {
		ALLOW(g, in, "async", "commit_group");
		want_ops(g, in, 0, 0);
		cg_insn(fn, VISA_OP_CP_ASYNC_COMMIT, VISA_T_NONE);
		return true;
	}
	if (insn_has(in, "wait_all")) {
		/* wait_all is commit_group; wait_group 0 (PTX ISA) */
		ALLOW(g, in, "async", "wait_all");
		want_ops(g, in, 0, 0);
		cg_insn(fn, VISA_OP_CP_ASYNC_COMMIT, VISA_T_NONE);
		cg_insn(fn, VISA_OP_CP_ASYNC_WAIT, VISA_T_NONE);
		return true;
	}
	if (insn_has(in, "wait_group")) {
		ALLOW(g, in, "async", "wait_group");
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
	const char *name;	/* the modifier after "mbarrier" */
	const char *name2;	/* a second one, or NULL */
	enum visa_mbar sub;
	uint8_t ndst;		/* 0: none, 1: state/_, 2: predicate */
	bool has_b;		/* an operand after [addr] */
	bool b_optional;	/* arrive's count */
} mbar_ops[] = {
	/* the two-modifier forms first: arrive.expect_tx is not expect_tx */
	{ "arrive", "expect_tx", VISA_MBAR_ARRIVE_EXPECT_TX, 1, true, false },
	{ "arrive", "noComplete", VISA_MBAR_ARRIVE_NOCOMPLETE, 1, true, false },
	{ "arrive", NULL, VISA_MBAR_ARRIVE, 1, true, true },
	{ "arrive_drop", "noComplete", VISA_MBAR_ARRIVE_DROP_NOCOMPLETE, 1,
	  true, false },
	{ "arrive_drop", NULL, VISA_MBAR_ARRIVE_DROP, 1, true, true },
	{ "test_wait", "parity", VISA_MBAR_TEST_WAIT_PARITY, 2, true, false },
	{ "test_wait", NULL, VISA_MBAR_TEST_WAIT, 2, true, false },
	{ "try_wait", "parity", VISA_MBAR_TRY_WAIT_PARITY, 2, true, false },
	{ "try_wait", NULL, VISA_MBAR_TRY_WAIT, 2, true, false },
	{ "init", NULL, VISA_MBAR_INIT, 0, true, false },
	{ "inval", NULL, VISA_MBAR_INVAL, 0, false, false },
	{ "expect_tx", NULL, VISA_MBAR_EXPECT_TX, 0, true, false },
	{ "complete_tx", NULL, VISA_MBAR_COMPLETE_TX, 0, true, false },
};

static void sel_mbarrier(struct cg *g, struct cg_fn *fn,
			 const struct ptx_insn *in)
{
	const struct ptx_operand *o = in->ops;
	struct visa_insn *vi;
	uint32_t i, first;
	uint16_t a, b = VISA_OPND_NONE;
	uint8_t space;

	if (insn_has(in, "pending_count")) {
		ALLOW(g, in, "pending_count", "b64");
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
	if (!insn_has(in, "b64"))
		cg_fail(g, &in->pos, "'mbarrier' needs .b64");
	{
		const char *ok[] = {
			mbar_ops[i].name,
			mbar_ops[i].name2 ? mbar_ops[i].name2 : "b64", "b64",
			"shared", "shared::cta", "shared::cluster",
			"acquire", "release", "relaxed", "cta", "cluster",
		};

		allow_only(g, in, ok, sizeof(ok) / sizeof(ok[0]));
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
	struct ptx_operand p = in->ops[0];

	ALLOW(g, in, "sync");
	if (!insn_has(in, "sync"))
		cg_fail(g, &in->pos, "'elect' needs .sync");
	want_ops(g, in, 2, 2);
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
	if (!strcmp(in->op, "cp"))
		return sel_cp(g, fn, in);
	if (!strcmp(in->op, "mbarrier")) {
		sel_mbarrier(g, fn, in);
		return true;
	}
	if (!strcmp(in->op, "elect")) {
		sel_elect(g, fn, in);
		return true;
	}
	if (!strcmp(in->op, "griddepcontrol")) {
		/*
		 * Programmatic dependent launch: a grid's dependents never
		 * start before it ends here (launches of a stream run in
		 * order), so launch_dependents has nothing to signal and
		 * wait has nothing left to wait for.
		 */
		ALLOW(g, in, "launch_dependents", "wait");
		if (in->nmods != 1)
			cg_fail(g, &in->pos,
				"'griddepcontrol' takes .launch_dependents or .wait");
		want_ops(g, in, 0, 0);
		return true;
	}
	if (!strcmp(in->op, "fence") && insn_has(in, "proxy")) {
		/*
		 * One memory, one proxy: the async proxy's copies are
		 * ordered with the generic accesses of the thread once they
		 * land, so a CTA fence is all fence.proxy.async needs.
		 */
		struct visa_insn *vi;

		ALLOW(g, in, "proxy", "async", "async::generic", "alias",
		      "global", "shared::cta", "shared::cluster", "acquire",
		      "release", "cta", "cluster", "gpu", "sys");
		want_ops(g, in, 0, 0);
		vi = cg_insn(fn, VISA_OP_MEMBAR, VISA_T_NONE);
		vi->mod = VISA_MOD_MKSUB(VISA_SCOPE_CTA);
		return true;
	}
	return false;
}
