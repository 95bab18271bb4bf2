// SPDX-License-Identifier: GPL-2.0
/*
 * cfg.c - reconvergence points for divergent branches.
 *
 * The engine runs the two sides of a divergent branch one after the other
 * and joins them where every path from the branch must pass: the branch's
 * immediate post-dominator (vgpu_visa.h, "Reconvergence").  This pass
 * builds the control-flow graph of one function's vISA code, with RET,
 * EXIT and TRAP leading to one virtual exit node, computes post-dominators
 * as dominators of the reversed graph (Cooper, Harvey and Kennedy, "A
 * Simple, Fast Dominance Algorithm"), and stores in every guarded BRA the
 * first instruction of its immediate post-dominator, or VISA_RECONV_EXIT
 * when the paths meet only at the exit.  Code that cannot reach the exit
 * (an endless loop) also gets VISA_RECONV_EXIT.
 */
#include "codegen.h"

struct cfg {
	uint32_t nb;		/* blocks; node nb is the virtual exit */
	uint32_t *start;	/* first instruction of each block */
	uint32_t *succ;		/* two successors per block (or UINT32_MAX) */
	uint32_t *pred_first, *pred_next, *pred_node;	/* reverse edges */
	uint32_t *po;		/* postorder number in the reversed graph */
	uint32_t *ipdom;
};

static bool ends_block(const struct visa_insn *in)
{
	return in->op == VISA_OP_BRA || in->op == VISA_OP_RET ||
	       in->op == VISA_OP_EXIT || in->op == VISA_OP_TRAP;
}

static void build(struct ptx_ctx *cx, const struct cg_fn *fn, struct cfg *c,
		  uint32_t *blk_of)
{
	uint32_t n = fn->code.n, i, b, e = 0;
	bool *leader = ptx_alloc(cx, n + 1);

	leader[0] = true;
	for (i = 0; i < n; i++) {
		const struct visa_insn *in = &fn->code.v[i];

		if (in->op == VISA_OP_BRA)
			leader[VISA_BRA_TARGET(in->imm)] = true;
		if (ends_block(in))
			leader[i + 1] = true;
	}
	c->start = ptx_alloc(cx, (n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		if (leader[i])
			c->start[c->nb++] = i;
		blk_of[i] = c->nb - 1;
	}
	c->succ = ptx_alloc(cx, 2 * (c->nb + 1) * sizeof(uint32_t));
	c->pred_first = ptx_alloc(cx, (c->nb + 1) * sizeof(uint32_t));
	c->pred_next = ptx_alloc(cx, 2 * (c->nb + 1) * sizeof(uint32_t));
	c->pred_node = ptx_alloc(cx, 2 * (c->nb + 1) * sizeof(uint32_t));
	for (b = 0; b <= c->nb; b++)
		c->pred_first[b] = UINT32_MAX;
	for (b = 0; b < c->nb; b++) {
		uint32_t end = b + 1 < c->nb ? c->start[b + 1] : n;
		const struct visa_insn *last = &fn->code.v[end - 1];
		bool guarded = last->guard != VISA_OPND_NONE;
		uint32_t s0 = UINT32_MAX, s1 = UINT32_MAX, k;
		uint32_t fall = end < n ? blk_of[end] : c->nb;

		if (last->op == VISA_OP_BRA) {
			s0 = blk_of[VISA_BRA_TARGET(last->imm)];
			if (guarded)
				s1 = fall;
		} else if (ends_block(last)) {
			s0 = c->nb;
			if (guarded)
				s1 = fall;
		} else {
			s0 = fall;
		}
		c->succ[2 * b] = s0;
		c->succ[2 * b + 1] = s1;
		for (k = 0; k < 2; k++) {
			uint32_t s = c->succ[2 * b + k];

			if (s == UINT32_MAX)
				continue;
			c->pred_node[e] = b;
			c->pred_next[e] = c->pred_first[s];
			c->pred_first[s] = e++;
		}
	}
}

/* Postorder of the reversed graph from the exit (iterative DFS). */
static uint32_t *reverse_postorder(struct ptx_ctx *cx, struct cfg *c,
				   uint32_t *count)
{
	uint32_t nn = c->nb + 1, sp = 0, n = 0;
	uint32_t *stack = ptx_alloc(cx, nn * sizeof(uint32_t));
	uint32_t *edge = ptx_alloc(cx, nn * sizeof(uint32_t));
	uint32_t *order = ptx_alloc(cx, nn * sizeof(uint32_t));
	bool *seen = ptx_alloc(cx, nn);
	uint32_t i;

	c->po = ptx_alloc(cx, nn * sizeof(uint32_t));
	for (i = 0; i < nn; i++)
		c->po[i] = UINT32_MAX;
	stack[sp++] = c->nb;
	edge[c->nb] = c->pred_first[c->nb];
	seen[c->nb] = true;
	while (sp) {
		uint32_t x = stack[sp - 1], e = edge[x];

		if (e != UINT32_MAX) {
			uint32_t y = c->pred_node[e];

			edge[x] = c->pred_next[e];
			if (!seen[y]) {
				seen[y] = true;
				edge[y] = c->pred_first[y];
				stack[sp++] = y;
			}
			continue;
		}
		c->po[x] = n;
		order[n++] = x;
		sp--;
	}
	*count = n;
	return order;	/* order[n - 1] is the exit */
}

static uint32_t intersect(const struct cfg *c, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (c->po[a] < c->po[b])
			a = c->ipdom[a];
		while (c->po[b] < c->po[a])
			b = c->ipdom[b];
	}
	return a;
}

static void postdominators(struct ptx_ctx *cx, struct cfg *c)
{
	uint32_t n, i, k, *order = reverse_postorder(cx, c, &n);
	bool changed = true;

	c->ipdom = ptx_alloc(cx, (c->nb + 1) * sizeof(uint32_t));
	for (i = 0; i <= c->nb; i++)
		c->ipdom[i] = UINT32_MAX;
	c->ipdom[c->nb] = c->nb;
	while (changed) {
		changed = false;
		/* reverse postorder, skipping the exit (last in postorder) */
		for (i = n - 1; i-- > 0;) {
			uint32_t b = order[i], nd = UINT32_MAX;

			for (k = 0; k < 2; k++) {
				uint32_t s = c->succ[2 * b + k];

				if (s == UINT32_MAX || c->ipdom[s] == UINT32_MAX)
					continue;
				nd = nd == UINT32_MAX ? s : intersect(c, s, nd);
			}
			if (nd != c->ipdom[b]) {
				c->ipdom[b] = nd;
				changed = true;
			}
		}
	}
}

void cg_set_reconvergence(struct cg *g, struct cg_fn *fn)
{
	struct cfg c = { 0 };
	uint32_t *blk_of = ptx_alloc(g->cx, (fn->code.n + 1) * sizeof(uint32_t));
	uint32_t b;

	build(g->cx, fn, &c, blk_of);
	postdominators(g->cx, &c);
	for (b = 0; b < c.nb; b++) {
		uint32_t end = b + 1 < c.nb ? c.start[b + 1] : fn->code.n;
		struct visa_insn *last = &fn->code.v[end - 1];
		uint32_t r = c.ipdom[b], reconv;

		if (last->op != VISA_OP_BRA)
			continue;
		reconv = r == UINT32_MAX || r == c.nb ? VISA_RECONV_EXIT :
			 c.start[r];
		last->imm = VISA_BRA_IMM(VISA_BRA_TARGET(last->imm), reconv);
	}
}
