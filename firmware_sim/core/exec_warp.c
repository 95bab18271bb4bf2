// SPDX-License-Identifier: GPL-2.0
/*
 * exec_warp.c - warp-level instructions: shfl, vote, match, redux,
 * activemask, warpsync.
 *
 * They act on the lanes of the membermask.  Lanes of the executing path
 * are in step already.  Lanes on the *sibling* path of the same branch
 * (the other side, not yet run) are waited for as on Volta: the executing
 * path parks at its instruction (its stack entry and the sibling's swap),
 * the sibling runs until it reaches a matching warp instruction of its
 * own, and then the instructions of both sides execute together, each lane
 * with the operands of its own instruction.  Lanes that cannot be waited
 * for (exited, or parked at a reconvergence point) do not take part; SHFL
 * from such a lane reads the value its register holds now, as a real GPU
 * gives for an inactive source lane too (the PTX ISA calls it undefined).
 */
#include "core_internal.h"

/* Which instruction each taking-part lane executes. */
struct group {
	const struct dinsn *in[WARP_SIZE];
	uint32_t all;		/* lanes taking part */
};

static void group_add(struct group *g, const struct dinsn *in, uint32_t lanes)
{
	for (int l = 0; l < WARP_SIZE; l++)
		if ((lanes >> l) & 1)
			g->in[l] = in;
	g->all |= lanes;
}

static inline uint64_t opnd(struct warp *w, const struct dinsn *in, int slot,
			    uint16_t r, int l)
{
	return src_row(w, in, slot, r)[l];
}

static void set_pred(struct warp *w, uint16_t p, int l, bool v)
{
	if (p != VISA_OPND_NONE)
		pred_write(&w->preds[p], 1u << l, v ? 1u << l : 0);
}

static void shfl(struct warp *w, const struct group *g)
{
	uint64_t val[WARP_SIZE] = { 0 };
	uint32_t out[WARP_SIZE] = { 0 }, valid = 0;

	/* Every source is read before any destination is written. */
	for (int l = 0; l < WARP_SIZE; l++) {
		const struct dinsn *in = (g->all >> l) & 1 ? g->in[l] : g->in[
			__builtin_ctz(g->all)];

		val[l] = opnd(w, in, 0, in->a, l);
	}
	for (int l = 0; l < WARP_SIZE; l++) {
		const struct dinsn *in = g->in[l];
		uint32_t c;
		int64_t b, j;
		int clamp, seg, max_lane, min_lane;
		bool ok;

		if (!((g->all >> l) & 1))
			continue;
		c = (uint32_t)opnd(w, in, 2, in->c, l);
		b = (int64_t)(int32_t)(uint32_t)opnd(w, in, 1, in->b, l);
		clamp = (int)(c & 0x1f);
		seg = (int)((c >> 8) & 0x1f);
		max_lane = (l & seg) | (clamp & ~seg);
		min_lane = l & seg;
		switch (VISA_MOD_SUB(in->mod)) {
		case VISA_SHFL_UP:
			j = l - b;
			ok = j >= max_lane;
			break;
		case VISA_SHFL_DOWN:
			j = l + b;
			ok = j <= max_lane;
			break;
		case VISA_SHFL_BFLY:
			j = l ^ (b & 0x1f);
			ok = j <= max_lane;
			break;
		default:
			j = min_lane | ((b & 0x1f) & ~seg);
			ok = j <= max_lane;
			break;
		}
		if (!ok || j < 0 || j >= WARP_SIZE)
			j = l;
		out[l] = (uint32_t)val[j];
		if (ok)
			valid |= 1u << l;
	}
	for (int l = 0; l < WARP_SIZE; l++) {
		if (!((g->all >> l) & 1))
			continue;
		reg_row(w, g->in[l]->d)[l] = out[l];
		set_pred(w, g->in[l]->pd, l, (valid >> l) & 1);
	}
}

static void vote(struct warp *w, const struct group *g)
{
	uint32_t p = 0, members = g->all;
	bool all, any, uni;

	for (int l = 0; l < WARP_SIZE; l++)
		if (((members >> l) & 1) && ((w->preds[g->in[l]->pa] >> l) & 1))
			p |= 1u << l;
	all = p == members;
	any = p != 0;
	uni = p == 0 || p == members;
	for (int l = 0; l < WARP_SIZE; l++) {
		const struct dinsn *in = g->in[l];

		if (!((members >> l) & 1))
			continue;
		switch (VISA_MOD_SUB(in->mod)) {
		case VISA_VOTE_ALL: set_pred(w, in->pd, l, all); break;
		case VISA_VOTE_ANY: set_pred(w, in->pd, l, any); break;
		case VISA_VOTE_UNI: set_pred(w, in->pd, l, uni); break;
		case VISA_VOTE_BALLOT: reg_row(w, in->d)[l] = p; break;
		}
	}
}

static void match(struct warp *w, const struct group *g)
{
	uint64_t v[WARP_SIZE] = { 0 };
	uint32_t members = g->all;
	int first = __builtin_ctz(members);
	bool all = true;

	for (int l = 0; l < WARP_SIZE; l++) {
		const struct dinsn *in = g->in[l];
		bool wide;

		if (!((members >> l) & 1))
			continue;
		wide = in->type == VISA_T_B64 || in->type == VISA_T_U64 ||
		       in->type == VISA_T_S64;
		v[l] = opnd(w, in, 0, in->a, l);
		if (!wide)
			v[l] = (uint32_t)v[l];
	}
	for (int l = 0; l < WARP_SIZE; l++)
		if (((members >> l) & 1) && v[l] != v[first])
			all = false;
	for (int l = 0; l < WARP_SIZE; l++) {
		const struct dinsn *in = g->in[l];
		uint32_t eq = 0;

		if (!((members >> l) & 1))
			continue;
		for (int j = 0; j < WARP_SIZE; j++)
			if (((members >> j) & 1) && v[j] == v[l])
				eq |= 1u << j;
		if (VISA_MOD_SUB(in->mod) == VISA_MATCH_ANY) {
			reg_row(w, in->d)[l] = eq;
		} else {
			reg_row(w, in->d)[l] = all ? members : 0;
			set_pred(w, in->pd, l, all);
		}
	}
}

static int redux(struct warp *w, const struct group *g)
{
	const struct dinsn *in0 = g->in[__builtin_ctz(g->all)];
	bool sgn = in0->type == VISA_T_S32;
	unsigned int op = VISA_MOD_SUB(in0->mod);
	uint32_t acc = 0;
	bool first = true;

	for (int l = 0; l < WARP_SIZE; l++) {
		uint32_t x;

		if (!((g->all >> l) & 1))
			continue;
		x = (uint32_t)opnd(w, g->in[l], 0, g->in[l]->a, l);
		if (first) {
			acc = x;
			first = false;
			continue;
		}
		switch (op) {
		case VISA_RED_ADD: acc += x; break;
		case VISA_RED_AND: acc &= x; break;
		case VISA_RED_OR: acc |= x; break;
		case VISA_RED_XOR: acc ^= x; break;
		case VISA_RED_MIN:
			acc = sgn ? ((int32_t)x < (int32_t)acc ? x : acc) :
				    (x < acc ? x : acc);
			break;
		case VISA_RED_MAX:
			acc = sgn ? ((int32_t)x > (int32_t)acc ? x : acc) :
				    (x > acc ? x : acc);
			break;
		default:
			return exec_bad(w, in0, g->all);
		}
	}
	for (int l = 0; l < WARP_SIZE; l++)
		if ((g->all >> l) & 1)
			reg_row(w, g->in[l]->d)[l] =
				sgn ? (uint64_t)(int64_t)(int32_t)acc : acc;
	return EXEC_OK;
}

/* The lanes of entry @e that execute its instruction (guard applied). */
static uint32_t entry_lanes(const struct warp *w, const struct rentry *e,
			    const struct dinsn *in)
{
	uint32_t p;

	if (in->guard == VISA_OPND_NONE)
		return e->mask;
	p = w->preds[VISA_GUARD_INDEX(in->guard)];
	return e->mask & ((in->guard & VISA_GUARD_NEG) ? ~p : p);
}

/*
 * Gather the lanes of the membermask: the executing ones, and those of
 * sibling paths parked at a matching instruction (which are released:
 * their instruction executes now, with these).  If lanes are still
 * missing and the sibling path below has some of them, park this path at
 * its instruction and run the sibling first: returns true.
 */
static bool gather(struct warp *w, const struct dinsn *in, uint32_t mask,
		   uint32_t members, struct group *g)
{
	const struct dinsn *code = warp_module(w)->code;
	struct rentry *top = &w->rs[w->rs_n - 1];
	uint32_t missing = members & ~mask;

	top->sync_wait = 0;
	group_add(g, in, mask);
	for (uint32_t i = w->rs_n - 1; missing && i-- > 0 && !w->rs[i].is_call;) {
		struct rentry *e = &w->rs[i];
		const struct dinsn *pin = &code[e->pc];
		uint32_t lanes;

		if (!e->sync_wait || !(e->mask & missing))
			continue;
		/* A different warp instruction (undefined in PTX) is left
		 * parked: it executes on its own when its path resumes. */
		if (pin->op != in->op || VISA_MOD_SUB(pin->mod) !=
		    VISA_MOD_SUB(in->mod))
			continue;
		e->sync_wait = 0;
		e->pc++;	/* its instruction executes now, with ours */
		lanes = entry_lanes(w, e, pin);
		group_add(g, pin, lanes);
		missing &= ~lanes;
	}
	if (missing && w->rs_n >= 2) {
		struct rentry *sib = &w->rs[w->rs_n - 2];

		if (!sib->is_call && !sib->sync_wait && sib->rpc == top->rpc &&
		    sib->pc != sib->rpc && (sib->mask & missing)) {
			struct rentry me = *top;

			if (g->all != mask)
				return false;	/* already joined others */
			me.pc = pc_of(w, in);
			me.sync_wait = 1;
			*top = *sib;
			*sib = me;
			return true;
		}
	}
	return false;
}

static int group_run(struct warp *w, const struct dinsn *in,
		     const struct group *g)
{
	switch (in->op) {
	case VISA_OP_SHFL:
		shfl(w, g);
		return EXEC_OK;
	case VISA_OP_VOTE:
		vote(w, g);
		return EXEC_OK;
	case VISA_OP_MATCH:
		match(w, g);
		return EXEC_OK;
	case VISA_OP_REDUX:
		return redux(w, g);
	case VISA_OP_WARPSYNC:
		/* everyone that can arrive has: order memory */
		atomic_thread_fence(memory_order_seq_cst);
		return EXEC_OK;
	}
	return exec_bad(w, in, g->all);
}

/*
 * Lanes of one path that name different membermasks: disjoint groups
 * executing the instruction side by side, as cooperative groups'
 * labeled_partition and binary_partition do (each lane's group is the
 * lanes with its label).  Each set of lanes with the same membermask
 * executes as a group of its own.
 */
static bool split_groups(struct warp *w, const struct dinsn *in,
			 uint32_t mask, int *st)
{
	const uint64_t *E = src_row(w, in, 3, in->e);
	uint32_t first = (uint32_t)E[__builtin_ctz(mask)], left = mask;
	bool uniform = true;

	FOR_LANES(mask, uniform &= (uint32_t)E[l] == first);
	if (uniform)
		return false;
	*st = EXEC_OK;
	while (left && *st == EXEC_OK) {
		uint32_t m = (uint32_t)E[__builtin_ctz(left)];
		struct group g = { .all = 0 };
		uint32_t same = 0;

		FOR_LANES(left, same |= ((uint32_t)E[l] == m) << l);
		group_add(&g, in, same);
		*st = group_run(w, in, &g);
		left &= ~same;
	}
	return true;
}

int exec_warp_op(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct group g = { .all = 0 };
	uint32_t members = mask;
	int st;

	if (in->op == VISA_OP_ACTIVEMASK) {
		uint64_t *D = reg_row(w, in->d);

		FOR_LANES(mask, D[l] = mask);
		return EXEC_OK;
	}
	if (in->e != VISA_OPND_NONE && split_groups(w, in, mask, &st))
		return st;
	if (in->e != VISA_OPND_NONE) {
		/* the membermask is uniform: take the first lane's */
		members = (uint32_t)src_row(w, in, 3, in->e)[__builtin_ctz(mask)] &
			  w->live;
		members |= mask;
	}
	if (gather(w, in, mask, members, &g))
		return EXEC_CONTROL;	/* parked; the sibling runs */
	return group_run(w, in, &g);
}
