// SPDX-License-Identifier: GPL-2.0
/*
 * regalloc.c - share GPRs between values that are never live together.
 *
 * Lowering gives every PTX register its own vISA register.  nvcc writes
 * PTX in nearly-SSA form, so a kernel easily declares a hundred registers
 * of which a dozen are live at any point.  The interpreter keeps a warp's
 * registers as rows of 32 lanes (8 bytes each) and clears a callee's
 * window on every call, so the number of registers is cache footprint and
 * call cost: this pass packs them.
 *
 * 1. Liveness: backward dataflow over the basic blocks of the function's
 *    vISA code (bitsets).  A guarded write does not end the previous
 *    value's life (when the guard is false the old value stays).
 * 2. Each register's live interval in the linear code order: the smallest
 *    [first, last] instruction range that covers every point where it is
 *    live.  An interval is a superset of the real live range, so two
 *    registers whose intervals are disjoint can share.
 * 3. Linear scan: intervals by start, each gets the lowest register free
 *    at its start.  Without spilling (the ISA has 16384 registers) this
 *    is optimal for interval graphs.  Intervals are closed, so a
 *    destination never shares with a source of the same instruction
 *    (SHFL reads other lanes' sources while writing its destination).
 *
 * Predicates are few and are left as they are.
 */
#include <string.h>

#include "codegen.h"

/* The GPR fields an instruction reads and writes. */
struct gpr_use {
	uint16_t src[6];
	uint32_t nsrc;
	uint16_t dst[4];
	uint32_t ndst;
};

static void add(uint16_t *v, uint32_t *n, uint16_t r)
{
	if (r != VISA_OPND_NONE && !(r & VISA_OPND_LIT))
		v[(*n)++] = r;
}

/*
 * Reads and writes as the opcode table (include/vgpu_visa_ops.h) says: a
 * slot is a destination when the table marks it written (ld's vector
 * elements b, c, e); d is one unless the opcode reads it (st's third
 * vector element).  Predicate logic names no GPRs at all.
 */
static void gpr_uses(const struct visa_insn *in, struct gpr_use *u)
{
	const struct visa_op_info *oi = visa_op_info(in->op);
	const uint16_t r[5] = { in->d, in->a, in->b, in->c, in->e };
	static const int slot[5] = { VISA_SLOT_D, VISA_SLOT_A, VISA_SLOT_B,
				     VISA_SLOT_C, VISA_SLOT_E };

	memset(u, 0, sizeof(*u));
	if (visa_insn_pred_logic(in))
		return;
	for (int i = 0; i < 5; i++) {
		unsigned int use = oi ? VISA_SLOT_USE(oi->slots, slot[i]) : 0;
		bool written = (use & VISA_USE_USED) ?
			       (use & VISA_USE_WRITTEN) != 0 :
			       slot[i] == VISA_SLOT_D;

		if (written)
			add(u->dst, &u->ndst, r[i]);
		else
			add(u->src, &u->nsrc, r[i]);
	}
}

#define BIT(set, r)	((set)[(r) / 64] >> ((r) % 64) & 1)
#define SETBIT(set, r)	((set)[(r) / 64] |= UINT64_C(1) << ((r) % 64))
#define CLRBIT(set, r)	((set)[(r) / 64] &= ~(UINT64_C(1) << ((r) % 64)))

/* live_in = use ∪ (live_out − def), iterated to a fixed point. */
static uint64_t *liveness(struct ptx_ctx *cx, const struct cg_fn *fn,
			  const struct cg_blocks *b, uint32_t words)
{
	uint64_t *in = ptx_alloc(cx, (size_t)b->n * words * 8);
	uint64_t *out = ptx_alloc(cx, (size_t)b->n * words * 8);
	uint64_t *cur = ptx_alloc(cx, (size_t)words * 8);
	bool changed = true;
	uint32_t k, w, s, i, j;

	while (changed) {
		changed = false;
		for (k = b->n; k-- > 0;) {
			uint64_t *o = out + (size_t)k * words;

			for (s = 0; s < 2; s++) {
				uint32_t t = b->succ[2 * k + s];

				if (t >= b->n)	/* none, or the exit */
					continue;
				for (w = 0; w < words; w++)
					o[w] |= in[(size_t)t * words + w];
			}
			memcpy(cur, o, (size_t)words * 8);
			for (i = b->start[k + 1]; i-- > b->start[k];) {
				const struct visa_insn *vi = &fn->code.v[i];
				struct gpr_use u;

				gpr_uses(vi, &u);
				if (vi->guard == VISA_OPND_NONE)
					for (j = 0; j < u.ndst; j++)
						CLRBIT(cur, u.dst[j]);
				for (j = 0; j < u.nsrc; j++)
					SETBIT(cur, u.src[j]);
			}
			if (memcmp(cur, in + (size_t)k * words, (size_t)words * 8)) {
				memcpy(in + (size_t)k * words, cur, (size_t)words * 8);
				changed = true;
			}
		}
	}
	/* Return live-out sets followed by live-in sets. */
	{
		uint64_t *both = ptx_alloc(cx, (size_t)2 * b->n * words * 8);

		memcpy(both, out, (size_t)b->n * words * 8);
		memcpy(both + (size_t)b->n * words, in, (size_t)b->n * words * 8);
		return both;
	}
}

struct interval {
	uint32_t start, end;
	bool used;
};

/* Grow register @r's live interval to cover instruction @pos. */
static void interval_cover(struct interval *iv, uint32_t r, uint32_t pos)
{
	if (!iv[r].used) {
		iv[r].start = iv[r].end = pos;
		iv[r].used = true;
		return;
	}
	if (pos < iv[r].start)
		iv[r].start = pos;
	if (pos > iv[r].end)
		iv[r].end = pos;
}

/* An unguarded GPR copy: MOV d, a with a a register, not a predicate. */
static bool is_copy(const struct visa_insn *in)
{
	return in->op == VISA_OP_MOV && in->type != VISA_T_PRED &&
	       in->guard == VISA_OPND_NONE && in->a != VISA_OPND_NONE &&
	       !(in->a & VISA_OPND_LIT);
}

/*
 * The register a copies into r at its first position pos (r = a), or -1.
 * When a's life ends at that copy and r's begins there, both can live in
 * one register and the copy disappears (register coalescing).
 */
static int copy_source(const struct cg_fn *fn, uint32_t r, uint32_t pos)
{
	const struct visa_insn *in = &fn->code.v[pos];

	return is_copy(in) && in->d == r ? in->a : -1;
}

/*
 * Remove the copies that coalescing turned into r = r, renumbering branch
 * targets, reconvergence points and the line table.  A copy is at most a
 * change of integer extension in bits no consumer of the copy reads (PTX
 * moves do not change register width).
 */
static void drop_self_moves(struct ptx_ctx *cx, struct cg_fn *fn)
{
	uint32_t n = fn->code.n, i, k = 0, l = 0;
	uint32_t *new_index = ptx_alloc(cx, (n + 1) * sizeof(uint32_t));

	for (i = 0; i < n; i++) {
		const struct visa_insn *in = &fn->code.v[i];

		new_index[i] = k;
		if (!(is_copy(in) && in->d == in->a))
			fn->code.v[k++] = *in;
	}
	new_index[n] = k;
	if (k == n)
		return;
	fn->code.n = k;
	for (i = 0; i < k; i++) {
		struct visa_insn *in = &fn->code.v[i];
		uint32_t r;

		if (in->op != VISA_OP_BRA)
			continue;
		r = VISA_BRA_RECONV(in->imm);
		in->imm = VISA_BRA_IMM(new_index[VISA_BRA_TARGET(in->imm)],
				       r == VISA_RECONV_EXIT ? r : new_index[r]);
	}
	/* Line entries: renumber; of two landing on one instruction keep
	 * the later, which describes that instruction. */
	for (i = 0; i < fn->lines.n; i++) {
		struct cg_line e = fn->lines.v[i];

		e.insn = new_index[e.insn];
		if (e.insn >= k)
			continue;
		if (l && fn->lines.v[l - 1].insn == e.insn)
			l--;
		fn->lines.v[l++] = e;
	}
	fn->lines.n = l;
}

static void rewrite(uint16_t *f, const uint16_t *map)
{
	if (*f != VISA_OPND_NONE && !(*f & VISA_OPND_LIT))
		*f = map[*f];
}

void cg_allocate_registers(struct cg *g, struct cg_fn *fn)
{
	struct ptx_ctx *cx = g->cx;
	uint32_t nregs = fn->num_regs, words = (nregs + 63) / 64;
	struct interval *iv;
	struct cg_blocks b;
	uint64_t *sets;
	uint16_t *map, *by_start;
	bool *assigned;
	uint32_t *free_at, k, i, j, r, nphys = 0;

	if (!nregs || !fn->code.n)
		return;
	cg_find_blocks(cx, fn, &b);
	sets = liveness(cx, fn, &b, words);
	iv = ptx_alloc(cx, nregs * sizeof(*iv));
	for (k = 0; k < b.n; k++) {
		const uint64_t *o = sets + (size_t)k * words;
		const uint64_t *in = sets + (size_t)(b.n + k) * words;

		for (r = 0; r < nregs; r++) {
			if (BIT(in, r))
				interval_cover(iv, r, b.start[k]);
			if (BIT(o, r))
				interval_cover(iv, r, b.start[k + 1] - 1);
		}
		for (i = b.start[k]; i < b.start[k + 1]; i++) {
			struct gpr_use u;

			gpr_uses(&fn->code.v[i], &u);
			for (j = 0; j < u.nsrc; j++)
				interval_cover(iv, u.src[j], i);
			for (j = 0; j < u.ndst; j++)
				interval_cover(iv, u.dst[j], i);
		}
	}
	/* Linear scan: by start (counting sort), lowest free register. */
	by_start = ptx_alloc(cx, nregs * sizeof(uint16_t));
	{
		uint32_t *count = ptx_alloc(cx, (fn->code.n + 1) * sizeof(uint32_t));
		uint32_t n = 0, pos;

		for (r = 0; r < nregs; r++)
			if (iv[r].used)
				count[iv[r].start]++;
		for (pos = 0; pos <= fn->code.n; pos++) {
			uint32_t c = count[pos];

			count[pos] = n;
			n += c;
		}
		for (r = 0; r < nregs; r++)
			if (iv[r].used)
				by_start[count[iv[r].start]++] = (uint16_t)r;
		nregs = n;	/* from here: number of used registers */
	}
	map = ptx_alloc(cx, fn->num_regs * sizeof(uint16_t));
	assigned = ptx_alloc(cx, fn->num_regs);
	free_at = ptx_alloc(cx, (fn->num_regs + 1) * sizeof(uint32_t));
	for (i = 0; i < nregs; i++) {
		const struct interval *v = &iv[by_start[i]];
		int src = copy_source(fn, by_start[i], v->start);
		uint32_t p;

		/* free_at[p]: first position after the interval p holds */
		if (src >= 0 && assigned[src] && iv[src].end == v->start &&
		    free_at[map[src]] == v->start + 1) {
			p = map[src];	/* coalesce: the MOV becomes r = r */
		} else {
			for (p = 0; p < nphys; p++)
				if (free_at[p] <= v->start)
					break;
			if (p == nphys)
				nphys++;
		}
		free_at[p] = v->end + 1;
		map[by_start[i]] = (uint16_t)p;
		assigned[by_start[i]] = true;
	}
	for (i = 0; i < fn->code.n; i++) {
		struct visa_insn *in = &fn->code.v[i];

		if (visa_insn_pred_logic(in))
			continue;
		rewrite(&in->d, map);
		rewrite(&in->a, map);
		rewrite(&in->b, map);
		rewrite(&in->c, map);
		rewrite(&in->e, map);
	}
	if (nphys > VISA_MAX_REGS)
		cg_unsupported(g, &fn->f->pos,
			       "function '%s' needs more than %u registers at once",
			       fn->f->name, VISA_MAX_REGS);
	fn->num_regs = nphys;
	drop_self_moves(cx, fn);
}
