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
	struct cg_blocks b;	/* node b.n is the virtual exit */
	uint32_t *pred_first, *pred_next, *pred_node;	/* reverse edges */
	uint32_t *po;		/* postorder number in the reversed graph */
	uint32_t *ipdom;
};

static bool ends_block(const struct visa_insn *in)
{
	return in->op == VISA_OP_BRA || in->op == VISA_OP_RET ||
	       in->op == VISA_OP_EXIT || in->op == VISA_OP_TRAP;
}

/*
 * Split a function's code into basic blocks.  A block ends at a branch,
 * RET, EXIT or TRAP, and before a branch target.  Successors: the branch
 * target and (when guarded) the next block; RET/EXIT/TRAP lead to the
 * virtual exit node b->n; UINT32_MAX means "none".
 */
void cg_find_blocks(struct ptx_ctx *cx, const struct cg_fn *fn,
		    struct cg_blocks *b)
{
	uint32_t n = fn->code.n, i, k;
	bool *leader = ptx_alloc(cx, n + 1);
	uint32_t *blk_of = ptx_alloc(cx, (n + 1) * sizeof(uint32_t));

	leader[0] = true;
	for (i = 0; i < n; i++) {
		const struct visa_insn *in = &fn->code.v[i];

		if (in->op == VISA_OP_BRA)
			leader[VISA_BRA_TARGET(in->imm)] = true;
		if (ends_block(in))
			leader[i + 1] = true;
	}
	b->start = ptx_alloc(cx, (n + 1) * sizeof(uint32_t));
	b->n = 0;
	for (i = 0; i < n; i++) {
		if (leader[i])
			b->start[b->n++] = i;
		blk_of[i] = b->n - 1;
	}
	b->start[b->n] = n;
	b->succ = ptx_alloc(cx, 2 * (b->n + 1) * sizeof(uint32_t));
	for (k = 0; k < b->n; k++) {
		uint32_t end = b->start[k + 1];
		const struct visa_insn *last = &fn->code.v[end - 1];
		bool guarded = last->guard != VISA_OPND_NONE;
		uint32_t fall = end < n ? blk_of[end] : b->n;

		b->succ[2 * k] = fall;
		b->succ[2 * k + 1] = UINT32_MAX;
		if (last->op == VISA_OP_BRA)
			b->succ[2 * k] = blk_of[VISA_BRA_TARGET(last->imm)];
		else if (ends_block(last))
			b->succ[2 * k] = b->n;
		if (guarded && ends_block(last))
			b->succ[2 * k + 1] = fall;
	}
}

/* The reverse edges, for walking the graph from the exit. */
static void build(struct ptx_ctx *cx, const struct cg_fn *fn, struct cfg *c)
{
	uint32_t nb, b, k, e = 0;

	cg_find_blocks(cx, fn, &c->b);
	nb = c->b.n;
	c->pred_first = ptx_alloc(cx, (nb + 1) * sizeof(uint32_t));
	c->pred_next = ptx_alloc(cx, 2 * (nb + 1) * sizeof(uint32_t));
	c->pred_node = ptx_alloc(cx, 2 * (nb + 1) * sizeof(uint32_t));
	for (b = 0; b <= nb; b++)
		c->pred_first[b] = UINT32_MAX;
	for (b = 0; b < nb; b++) {
		for (k = 0; k < 2; k++) {
			uint32_t s = c->b.succ[2 * b + k];

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
	uint32_t nn = c->b.n + 1, sp = 0, n = 0;
	uint32_t *stack = ptx_alloc(cx, nn * sizeof(uint32_t));
	uint32_t *edge = ptx_alloc(cx, nn * sizeof(uint32_t));
	uint32_t *order = ptx_alloc(cx, nn * sizeof(uint32_t));
	bool *seen = ptx_alloc(cx, nn);
	uint32_t i;

	c->po = ptx_alloc(cx, nn * sizeof(uint32_t));
	for (i = 0; i < nn; i++)
		c->po[i] = UINT32_MAX;
	stack[sp++] = c->b.n;
	edge[c->b.n] = c->pred_first[c->b.n];
	seen[c->b.n] = true;
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

	c->ipdom = ptx_alloc(cx, (c->b.n + 1) * sizeof(uint32_t));
	for (i = 0; i <= c->b.n; i++)
		c->ipdom[i] = UINT32_MAX;
	c->ipdom[c->b.n] = c->b.n;
	while (changed) {
		changed = false;
		/* reverse postorder, skipping the exit (last in postorder) */
		for (i = n - 1; i-- > 0;) {
			uint32_t b = order[i], nd = UINT32_MAX;

			for (k = 0; k < 2; k++) {
				uint32_t s = c->b.succ[2 * b + k];

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
	uint32_t b;

	build(g->cx, fn, &c);
	postdominators(g->cx, &c);
	for (b = 0; b < c.b.n; b++) {
		uint32_t end = c.b.start[b + 1];
		struct visa_insn *last = &fn->code.v[end - 1];
		uint32_t r = c.ipdom[b], reconv;

		if (last->op != VISA_OP_BRA)
			continue;
		reconv = r == UINT32_MAX || r == c.b.n ? VISA_RECONV_EXIT :
			 c.b.start[r];
		last->imm = VISA_BRA_IMM(VISA_BRA_TARGET(last->imm), reconv);
	}
}
