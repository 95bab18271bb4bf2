// SPDX-License-Identifier: GPL-2.0
/*
 * isel_brx.c - brx.idx: the indirect branch of a switch through a table.
 *
 *   ts: .branchtargets L0, L1, L2;
 *   brx.idx %r1, ts;                  // jump to ts[%r1]
 *
 * vISA has no computed jump: the control-flow graph, and with it the
 * reconvergence point of every divergent branch (cfg.c), must be known
 * when the image is made.  So brx.idx becomes a chain of guarded
 * branches, one per target:
 *
 *   SETP.EQ p, %r1, 0;  @p BRA L0
 *   SETP.EQ p, %r1, 1;  @p BRA L1
 *   SETP.EQ p, %r1, 2;  @p BRA L2
 *   TRAP                              // out of range: undefined in PTX
 *
 * Lanes with different indices diverge as at any guarded branch and meet
 * again where the paths join.  The PTX ISA leaves an index past the list
 * undefined; here it traps (VISA_FAULT_TRAP), so the mistake is seen.
 * A guarded brx.idx is refused: the chain's own predicate takes the
 * guard slot (nvcc does not emit one).
 */
#include "isel.h"

bool cg_select_brx(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	const struct ptx_btlist *bt;
	uint16_t idx, p;

	if (in->op != OP_BRX)
		return false;
	if (!insn_has(in, MOD_IDX))
		cg_fail(g, &in->pos, "brx needs .idx");
	for (uint32_t i = 0; i < in->nmods; i++)
		if (in->mods[i] != MOD_IDX && in->mods[i] != MOD_UNI)
			cg_fail(g, &in->pos, "modifier '.%s' of 'brx' is not supported",
				ptx_mod_name(in->mods[i]));
	if (in->guard)
		cg_unsupported(g, &in->pos, "a guarded brx.idx is not supported");
	if (in->nops != 2 || in->ops[1].kind != PO_SYM)
		cg_fail(g, &in->pos, "brx.idx takes an index and a .branchtargets list");
	bt = ptx_map_get(&fn->f->btlists, in->ops[1].sym);
	if (!bt)
		cg_fail(g, &in->ops[1].pos, "'%s' is not a .branchtargets list",
			in->ops[1].sym);
	idx = cg_src(g, fn, &in->ops[0], PT_U32);
	p = cg_ptemp(g, fn);
	for (uint32_t i = 0; i < bt->labels.n; i++) {
		struct ptx_label *l = ptx_map_get(&fn->f->labels,
						  bt->labels.v[i]);
		struct visa_insn *vi;

		if (!l)
			cg_fail(g, &bt->lpos.v[i], "unknown label '%s'",
				bt->labels.v[i]);
		vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U32);
		vi->pd = p;
		vi->a = idx;
		vi->b = cg_lit(g, fn, i);
		vi->mod = VISA_MOD_MKSUB(VISA_CMP_EQ);
		vi = cg_insn(fn, VISA_OP_BRA, VISA_T_NONE);
		vi->guard = p;
		ptx_push(g->cx, &fn->fixups,
			 ((struct cg_fixup){ fn->code.n - 1, l }));
	}
	cg_insn(fn, VISA_OP_TRAP, VISA_T_NONE);
	return true;
}
