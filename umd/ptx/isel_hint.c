// SPDX-License-Identifier: GPL-2.0
/*
 * isel_hint.c - L2 cache-eviction hints: createpolicy and the
 * .L2::cache_hint forms of ld, st, red and atom.
 *
 * On sm_80 and later a program may make a 64-bit "cache policy" with
 * createpolicy (evict_first / evict_last / evict_normal / evict_unchanged
 * for a fraction of the accesses, or for an address range) and pass it as
 * one more, last, operand of a load, store or atomic marked
 * .L2::cache_hint; CUTLASS and cuda::annotated_ptr do.  It is a hint: the
 * results never depend on it.  vGPU's execution core has no L2 that could
 * honour it (the profiler's L2 model, tools/prof, sees only addresses), so
 * the policy is computed as an opaque value - the priorities in its low
 * bytes, so that two different policies differ - and the accesses are
 * selected exactly as without the hint, their last operand dropped.
 * (cp.async's hint is isel_async.c's.)
 *
 *   createpolicy.fractional.L2::evict_last.b64 %rd1, 0.5;  MOV %rd1, policy
 *   ld.global.L2::cache_hint.u32 %r1, [%rd2], %rd1;        ld.global.u32 %r1, [%rd2]
 */
#include "isel.h"

static const enum ptx_mod priorities[] = {
	MOD_L2_EVICT_NORMAL, MOD_L2_EVICT_LAST, MOD_L2_EVICT_FIRST,
	MOD_L2_EVICT_UNCHANGED,
};

/* The policy's value: primary priority + 1 in bits 0-3, secondary in
 * bits 4-7, bit 8 for the range form. */
static uint64_t policy_value(const struct ptx_insn *in)
{
	uint64_t v = 0;
	uint32_t n = 0;

	for (uint32_t i = 0; i < in->nmods; i++)
		for (uint32_t p = 0; p < 4; p++)
			if (in->mods[i] == priorities[p] && n < 2)
				v |= (uint64_t)(p + 1) << (4 * n++);
	if (insn_has(in, MOD_RANGE))
		v |= 1u << 8;
	return v;
}

static void sel_createpolicy(struct cg *g, struct cg_fn *fn,
			     const struct ptx_insn *in)
{
	bool cvt = insn_has(in, MOD_CVT);
	struct visa_insn *vi;
	uint16_t d, a;

	if (!insn_has(in, MOD_B64) || in->nops < 1 ||
	    (cvt && in->nops != 2) ||
	    (insn_has(in, MOD_RANGE) && in->nops != 4) ||
	    (insn_has(in, MOD_FRACTIONAL) && in->nops > 2) ||
	    (!cvt && !insn_has(in, MOD_RANGE) && !insn_has(in, MOD_FRACTIONAL)))
		cg_fail(g, &in->pos,
			"createpolicy needs .fractional, .range or .cvt.L2, .b64 and its operands");
	if (!cvt && !policy_value(in))
		cg_fail(g, &in->pos,
			"createpolicy needs an eviction priority such as .L2::evict_last");
	/* .cvt turns an access property (itself opaque) into a policy */
	a = cvt ? cg_src(g, fn, &in->ops[1], PT_B64) :
		  cg_lit(g, fn, policy_value(in));
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_MOV, VISA_T_B64);
	vi->d = d;
	vi->a = a;
}

bool cg_select_hint(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct ptx_insn plain;
	uint32_t j = 0;

	switch (in->op) {
	case OP_CREATEPOLICY:
		sel_createpolicy(g, fn, in);
		return true;
	case OP_LD:
	case OP_ST:
	case OP_RED:
	case OP_ATOM:
		if (!insn_has(in, MOD_L2_CACHE_HINT))
			return false;
		break;
	default:
		return false;
	}
	if (in->nops < 3)
		cg_fail(g, &in->pos,
			"'%s' with .L2::cache_hint needs the cache policy as its last operand",
			ptx_op_name(in->op));
	/* evaluated for its checks (a 64-bit register or a literal) */
	cg_src(g, fn, &in->ops[in->nops - 1], PT_B64);
	plain = *in;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (in->mods[i] != MOD_L2_CACHE_HINT)
			plain.mods[j++] = in->mods[i];
	plain.nmods = j;
	plain.nops--;
	cg_select(g, fn, &plain);
	return true;
}
