// SPDX-License-Identifier: GPL-2.0
/*
 * exec_warp.c - warp-level instructions: shfl, vote, match, redux,
 * activemask, warpsync.
 *
 * They act on the lanes of the executing path that are also in the
 * membermask.  A lane of another path named by the membermask cannot be
 * waited for (one path runs at a time, see "Reconvergence" in vgpu_visa.h):
 * SHFL reading from it gets the value its register holds now, which is
 * what a real GPU gives for an inactive source lane too (the PTX ISA calls
 * it undefined).
 */
#include "core_internal.h"

static int shfl(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	const uint64_t *C = src_row(w, in, 2, in->c);
	uint64_t *D = reg_row(w, in->d);
	uint64_t val[WARP_SIZE];
	uint32_t valid = 0;

	/* Read all sources before writing: d may be the same register as a. */
	memcpy(val, A, sizeof(val));
	for (int l = 0; l < WARP_SIZE; l++) {
		uint32_t c = (uint32_t)C[l];
		int64_t b = (int64_t)(int32_t)(uint32_t)B[l];
		int clamp = (int)(c & 0x1f), seg = (int)((c >> 8) & 0x1f);
		int max_lane = (l & seg) | (clamp & ~seg);
		int min_lane = l & seg;
		int64_t j;
		bool ok;

		if (!((mask >> l) & 1))
			continue;
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
		D[l] = (uint32_t)val[j];
		if (ok)
			valid |= 1u << l;
	}
	if (in->pd != VISA_OPND_NONE)
		pred_write(&w->preds[in->pd], mask, valid);
	return EXEC_OK;
}

static int vote(struct warp *w, const struct dinsn *in, uint32_t mask,
		uint32_t members)
{
	uint32_t p = w->preds[in->pa] & members;
	uint32_t r;

	switch (VISA_MOD_SUB(in->mod)) {
	case VISA_VOTE_ALL:
		r = p == members ? FULL_MASK : 0;
		break;
	case VISA_VOTE_ANY:
		r = p ? FULL_MASK : 0;
		break;
	case VISA_VOTE_UNI:
		r = (p == 0 || p == members) ? FULL_MASK : 0;
		break;
	default: {
		uint64_t *D = reg_row(w, in->d);

		FOR_LANES(mask, D[l] = p);
		return EXEC_OK;
	}
	}
	pred_write(&w->preds[in->pd], mask, r);
	return EXEC_OK;
}

static int match(struct warp *w, const struct dinsn *in, uint32_t mask,
		 uint32_t members)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	uint64_t *D = reg_row(w, in->d);
	bool wide = in->type == VISA_T_B64 || in->type == VISA_T_U64 ||
		    in->type == VISA_T_S64;
	uint64_t v[WARP_SIZE];
	uint32_t eq[WARP_SIZE];
	bool all = true;
	int first = __builtin_ctz(members);

	for (int l = 0; l < WARP_SIZE; l++)
		v[l] = wide ? A[l] : (uint32_t)A[l];
	for (int l = 0; l < WARP_SIZE; l++) {
		eq[l] = 0;
		for (int j = 0; j < WARP_SIZE; j++)
			if (((members >> j) & 1) && v[j] == v[l])
				eq[l] |= 1u << j;
		if (((members >> l) & 1) && v[l] != v[first])
			all = false;
	}
	if (VISA_MOD_SUB(in->mod) == VISA_MATCH_ANY) {
		FOR_LANES(mask, D[l] = eq[l]);
	} else {
		FOR_LANES(mask, D[l] = all ? members : 0);
		if (in->pd != VISA_OPND_NONE)
			pred_write(&w->preds[in->pd], mask, all ? FULL_MASK : 0);
	}
	return EXEC_OK;
}

static int redux(struct warp *w, const struct dinsn *in, uint32_t mask,
		 uint32_t members)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	uint64_t *D = reg_row(w, in->d);
	bool sgn = in->type == VISA_T_S32;
	unsigned int op = VISA_MOD_SUB(in->mod);
	uint32_t acc = 0;
	bool first = true;

	for (int l = 0; l < WARP_SIZE; l++) {
		uint32_t x = (uint32_t)A[l];

		if (!((members >> l) & 1))
			continue;
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
			return exec_bad(w, in, mask);
		}
	}
	FOR_LANES(mask, D[l] = sgn ? (uint64_t)(int64_t)(int32_t)acc : acc);
	return EXEC_OK;
}

/*
 * bar.warp.sync (__syncwarp).  Lanes of the membermask that are on the
 * executing path are in step already.  Lanes on a sibling path (the other
 * side of the same branch, not yet run) are waited for as on Volta: this
 * path parks at its WARPSYNC and the sibling runs until it reaches a
 * WARPSYNC of its own; there both are released.  Lanes that cannot be
 * waited for (exited, or parked at a reconvergence point) are not.
 */
static int warpsync(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *E = src_row(w, in, 3, in->e);
	struct rentry *top = &w->rs[w->rs_n - 1];
	uint32_t members = (uint32_t)E[__builtin_ctz(mask)] & w->live;
	uint32_t missing = members & ~mask, waiting = 0;
	uint32_t pc = pc_of(w, in);

	atomic_thread_fence(memory_order_seq_cst);
	top->sync_wait = 0;
	if (!missing)
		return EXEC_OK;
	/* Sibling paths already parked at a WARPSYNC: release them. */
	for (uint32_t i = w->rs_n - 1; i-- > 0 && !w->rs[i].is_call;) {
		if (w->rs[i].sync_wait && (w->rs[i].mask & missing)) {
			w->rs[i].sync_wait = 0;
			w->rs[i].pc++;
			waiting |= w->rs[i].mask;
		}
	}
	missing &= ~waiting;
	/* A sibling below with missing lanes: run it first, wait here. */
	if (missing && w->rs_n >= 2) {
		struct rentry *sib = &w->rs[w->rs_n - 2];

		if (!sib->is_call && !sib->sync_wait && sib->rpc == top->rpc &&
		    sib->pc != sib->rpc && (sib->mask & missing)) {
			struct rentry me = *top;

			me.pc = pc;
			me.sync_wait = 1;
			*top = *sib;
			*sib = me;
			return EXEC_CONTROL;
		}
	}
	return EXEC_OK;
}

int exec_warp_op(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint32_t members = mask;

	if (in->e != VISA_OPND_NONE) {
		const uint64_t *E = src_row(w, in, 3, in->e);

		/* the membermask is uniform: take the first lane's */
		members = mask & (uint32_t)E[__builtin_ctz(mask)];
		if (!members)
			members = mask;
	}
	switch (in->op) {
	case VISA_OP_SHFL:
		return shfl(w, in, mask);
	case VISA_OP_VOTE:
		return vote(w, in, mask, members);
	case VISA_OP_MATCH:
		return match(w, in, mask, members);
	case VISA_OP_REDUX:
		return redux(w, in, mask, members);
	case VISA_OP_ACTIVEMASK: {
		uint64_t *D = reg_row(w, in->d);

		FOR_LANES(mask, D[l] = mask);
		return EXEC_OK;
	}
	case VISA_OP_WARPSYNC:
		return warpsync(w, in, mask);
	}
	return exec_bad(w, in, mask);
}
