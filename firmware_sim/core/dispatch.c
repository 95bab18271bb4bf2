// SPDX-License-Identifier: GPL-2.0
/*
 * dispatch.c - which block an SM takes next, and which context has GR.
 *
 * The active grids (core->grids) are kept in dispatch order: by priority
 * (lower number first), then by submission.  An SM with room - by the
 * limits of include/vgpu_occupancy.h, counted over its resident blocks of
 * the running context - takes the next block of the first grid of the
 * running context that still has blocks to dispatch; when that block
 * does not fit, it takes nothing (a younger or lower-priority grid never
 * overtakes a waiting one).
 *
 * Contexts take turns: only core->cur_ctx's grids run.  When another
 * context has active grids, GR switches at the end of the slice (round
 * robin by context id); when the running one has none left, at once.  A
 * switch bumps core->ctx_gen; the SMs notice at their next warp-quantum
 * boundary and leave the old context's blocks where they are (a context
 * save) until it runs again.  The time a grid's context held GR is
 * counted per grid for exec_limit_us.
 *
 * Everything here runs under core->lock, except the two helpers at the
 * top (the clock, and whether a grid is stopping: a relaxed read the SMs
 * make between quanta).
 */
#include <stdlib.h>
#include <time.h>

#include "core_internal.h"
#include "vgpu_occupancy.h"

/* How often a running SM looks at the clock's decisions (ns). */
#define TICK_NS		1000000ull

uint64_t core_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool grid_stopping(const struct grid *g)
{
	return atomic_load_explicit(&g->faulted, memory_order_relaxed) ||
	       atomic_load_explicit(&g->stop, memory_order_relaxed);
}

/* ---- contexts and time slices -------------------------------------------- */

/* Fold the time @g's context held GR so far into g->sched_ns. */
static void grid_account(struct grid *g, uint64_t now)
{
	if (g->sched_mark) {
		g->sched_ns += now - g->sched_mark;
		g->sched_mark = now;
	}
}

static void switch_to(struct vgpu_core *core, uint32_t ctx, uint64_t now)
{
	for (struct grid *g = core->grids; g; g = g->next) {
		grid_account(g, now);
		if (g->lc.ctx_id == core->cur_ctx)
			g->sched_mark = 0;
		if (g->lc.ctx_id == ctx)
			g->sched_mark = now;
	}
	core->cur_ctx = ctx;
	core->have_ctx = true;
	core->slice_start = now;
	atomic_fetch_add(&core->ctx_gen, 1);
	pthread_cond_broadcast(&core->work_cv);
}

/*
 * The context after the running one (by id, wrapping) that has active
 * grids; false when no other has.
 */
static bool next_ctx(const struct vgpu_core *core, uint32_t *out)
{
	bool found = false, wrapped = false;
	uint32_t best = 0, low = 0;

	for (const struct grid *g = core->grids; g; g = g->next) {
		uint32_t c = g->lc.ctx_id;

		if (core->have_ctx && c == core->cur_ctx)
			continue;
		if (!core->have_ctx || c > core->cur_ctx) {
			if (!found || c < best)
				best = c;
			found = true;
		} else if (!wrapped || c < low) {
			low = c;
			wrapped = true;
		}
	}
	if (!found && !wrapped)
		return false;
	*out = found ? best : low;
	return true;
}

static bool ctx_has_grids(const struct vgpu_core *core, uint32_t ctx)
{
	for (const struct grid *g = core->grids; g; g = g->next)
		if (g->lc.ctx_id == ctx)
			return true;
	return false;
}

/*
 * The clock's decisions: stop grids past their execution limit, and give
 * GR to the next context when the slice is over or the running context
 * has nothing left to run.
 */
void sched_tick(struct vgpu_core *core, uint64_t now)
{
	uint32_t other;

	for (struct grid *g = core->grids; g; g = g->next) {
		grid_account(g, now);
		if (g->lc.exec_limit_us && !grid_stopping(g) &&
		    g->sched_ns / 1000 >= g->lc.exec_limit_us) {
			atomic_store(&g->stop, GRID_TIMEOUT);
			pthread_cond_broadcast(&core->work_cv);
		}
	}
	if (next_ctx(core, &other) &&
	    (!core->have_ctx || !ctx_has_grids(core, core->cur_ctx) ||
	     now - core->slice_start >= core->timeslice_ns))
		switch_to(core, other, now);
	atomic_store(&core->next_tick, now + (core->timeslice_ns < TICK_NS ?
					      core->timeslice_ns : TICK_NS));
}

/* ---- residency ----------------------------------------------------------- */

static bool fits(const struct sm_usage *u, const struct grid *g)
{
	return u->blocks + 1 <= VGPU_SM_MAX_BLOCKS &&
	       u->warps + g->warps <= VGPU_SM_MAX_WARPS &&
	       (u->warps + g->warps) * WARP_SIZE <= VGPU_SM_MAX_THREADS &&
	       u->shared + g->occ_shared <= VGPU_SM_SHARED_BYTES;
}

static void usage_add(struct sm_usage *u, const struct grid *g, int sign)
{
	u->blocks += (uint32_t)sign;
	u->warps += (uint32_t)sign * g->warps;
	u->shared += (uint64_t)(int64_t)sign * g->occ_shared;
}

/* What the running context's blocks on @sm (resident or in its inbox)
 * occupy, counted afresh. */
static void usage_count(const struct sm *sm, struct sm_usage *u)
{
	const struct vgpu_core *core = sm->core;

	memset(u, 0, sizeof(*u));
	for (uint32_t i = 0; i < sm->nres; i++)
		if (sm->res[i]->g->lc.ctx_id == core->cur_ctx)
			usage_add(u, sm->res[i]->g, 1);
	for (const struct block *b = sm->inbox; b; b = b->pool_next)
		if (b->g->lc.ctx_id == core->cur_ctx)
			usage_add(u, b->g, 1);
}

/* Count what the running context's blocks occupy on @sm (after a switch). */
void sm_recount(struct sm *sm)
{
	usage_count(sm, &sm->used);
	sm->ctx_gen = atomic_load(&sm->core->ctx_gen);
}

static struct block *block_get(struct sm *sm)
{
	struct block *b = sm->pool;

	if (b) {
		sm->pool = b->pool_next;
		return b;
	}
	return calloc(1, sizeof(*b));
}

/* Room for one more entry in @sm->res; false when out of memory. */
static bool res_reserve(struct sm *sm)
{
	uint32_t cap;
	struct block **p;

	if (sm->nres < sm->res_cap)
		return true;
	cap = sm->res_cap ? sm->res_cap * 2 : 64;
	p = realloc(sm->res, cap * sizeof(*p));
	if (!p)
		return false;
	sm->res = p;
	sm->res_cap = cap;
	return true;
}

/*
 * Make @b the next block of @g: blockIdx from the linear block number,
 * with the blocks of a cluster consecutive (rank x fastest), so that a
 * gang of csize blocks is exactly one cluster.  Without clusters a block
 * is a cluster of one, as on the H100 (%clusterid = %ctaid).
 */
static void block_next(struct block *b, struct grid *g, struct sm *sm)
{
	static const uint32_t one[3] = { 1, 1, 1 };
	const uint32_t *c = g->lc.cluster[0] ? g->lc.cluster : one;
	uint32_t n = g->next_block++, cl = n / g->csize, r = n % g->csize;

	b->g = g;
	b->sm = sm;
	b->ready = false;
	b->next_warp = 0;
	b->nthreads = 0;
	b->cl = NULL;
	b->cl_rank = r;
	b->cl_idx[0] = r % c[0];
	b->cl_idx[1] = r / c[0] % c[1];
	b->cl_idx[2] = r / (c[0] * c[1]);
	b->cl_id[0] = cl % g->ncl[0];
	b->cl_id[1] = cl / g->ncl[0] % g->ncl[1];
	b->cl_id[2] = cl / (g->ncl[0] * g->ncl[1]);
	for (int i = 0; i < 3; i++)
		b->idx[i] = b->cl_id[i] * c[i] + b->cl_idx[i];
	g->live_blocks++;
}

/* ---- gangs: cooperative grids and clusters ------------------------------- */

/*
 * A cooperative grid's blocks, or a cluster's, must be resident at once:
 * grid.sync() and the cluster barrier wait for all of them, and a block
 * that is not yet resident could never arrive.  So such a "gang" (g->gang
 * blocks) is admitted whole, by whichever SM finds it first in dispatch
 * order: it looks at the room of every SM (of the running context), and
 * only when the gang fits in their sum does it take the blocks, spread
 * over the SMs from itself on, and put each in its SM's inbox.  Each SM
 * moves its inbox into its resident list (which only it touches outside
 * the lock) at its next dispatch.  A gang that does not fit yet waits,
 * and like any waiting grid it keeps the grids behind it waiting; one
 * that can never fit was refused at submission (grid.c).  The whole core
 * stands for one GPC: a cluster may span all its SMs.
 */
static void usage_now(const struct sm *sm, struct sm_usage *u)
{
	if (sm->ctx_gen == atomic_load(&sm->core->ctx_gen))
		*u = sm->used;
	else
		usage_count(sm, u);
}

static bool gang_admit(struct sm *self, struct grid *g)
{
	struct vgpu_core *core = self->core;
	struct cluster *cl = NULL;
	uint32_t room = 0, need = g->gang, nsms = core->num_sms;
	struct sm_usage u;

	for (uint32_t k = 0; k < nsms && room < need; k++) {
		usage_now(&core->sms[(self->id + k) % nsms], &u);
		while (room < need && fits(&u, g)) {
			usage_add(&u, g, 1);
			room++;
		}
	}
	if (room < need)
		return false;
	for (uint32_t k = 0; k < nsms && need; k++) {
		struct sm *sm = &core->sms[(self->id + k) % nsms];
		bool counted = sm->ctx_gen == atomic_load(&core->ctx_gen);

		usage_now(sm, &u);
		while (need && fits(&u, g)) {
			struct block *b = block_get(self);

			if (!b || (g->csize > 1 && g->next_block % g->csize == 0 &&
				   !(cl = calloc(1, sizeof(*cl))))) {
				/* a part of a gang is resident: stop it all */
				if (b) {
					b->pool_next = self->pool;
					self->pool = b;
				}
				atomic_store(&g->stop, GRID_STOP);
				return true;
			}
			block_next(b, g, sm);
			if (g->csize > 1) {
				if (b->cl_rank == 0) {
					pthread_mutex_init(&cl->lock, NULL);
					cl->size = g->csize;
					cl->pending = cl->live = g->csize *
						g->lc.block[0] * g->lc.block[1] *
						g->lc.block[2];
				}
				cl->blocks[b->cl_rank] = b;
				cl->resident++;
				b->cl = cl;
			}
			usage_add(&u, g, 1);
			if (counted)
				usage_add(&sm->used, g, 1);
			b->pool_next = sm->inbox;
			sm->inbox = b;
			need--;
		}
	}
	pthread_cond_broadcast(&core->work_cv);
	return true;
}

/* Move the blocks other SMs admitted for @sm into its resident list. */
static bool inbox_drain(struct sm *sm)
{
	while (sm->inbox) {
		struct block *b = sm->inbox;

		if (!res_reserve(sm))
			return false;
		sm->inbox = b->pool_next;
		b->pool_next = NULL;
		sm->res[sm->nres++] = b;
	}
	return true;
}

/* Fill @sm's free room with blocks of the running context. */
void sched_dispatch(struct sm *sm)
{
	struct vgpu_core *core = sm->core;

	if (!inbox_drain(sm) || !core->have_ctx)
		return;
	for (struct grid *g = core->grids; g; g = g->next) {
		if (g->lc.ctx_id != core->cur_ctx || grid_stopping(g) ||
		    g->next_block >= g->nblocks)
			continue;
		if (g->gang > 1) {
			while (g->next_block < g->nblocks && !grid_stopping(g) &&
			       gang_admit(sm, g))
				;
			if (!inbox_drain(sm))
				return;
		}
		while (g->gang == 1 && g->next_block < g->nblocks &&
		       fits(&sm->used, g)) {
			struct block *b;

			if (!res_reserve(sm))
				return;
			b = block_get(sm);
			if (!b)
				return;
			block_next(b, g, sm);
			usage_add(&sm->used, g, 1);
			sm->res[sm->nres++] = b;
		}
		/* The first grid waiting for room blocks those behind it. */
		if (g->next_block < g->nblocks && !grid_stopping(g))
			return;
	}
}

/* Retire resident block @i of @sm (its warps ended, or its grid stops). */
static void block_retire(struct sm *sm, uint32_t i)
{
	struct block *b = sm->res[i];
	struct grid *g = b->g;

	uint64_t insns = 0, lane_insns = 0;

	for (uint32_t w = 0; w < b->nwarps && b->ready; w++) {
		insns += b->warps[w].insns;
		lane_insns += b->warps[w].lane_insns;
	}
	/* once per block: every SM adds to these two, and an atomic add
	 * per warp kept their cache line moving between the SM threads */
	atomic_fetch_add(&sm->core->warp_insns, insns);
	atomic_fetch_add(&sm->core->thread_insns, lane_insns);
	if (b->ready && b->counting)
		counters_retire(b);
	if (g->lc.ctx_id == sm->core->cur_ctx &&
	    sm->ctx_gen == atomic_load(&sm->core->ctx_gen))
		usage_add(&sm->used, g, -1);
	g->live_blocks--;
	if (b->cl && !--b->cl->resident) {
		pthread_mutex_destroy(&b->cl->lock);
		free(b->cl);
	}
	b->cl = NULL;
	sm->res[i] = sm->res[--sm->nres];
	if (sm->rr > sm->nres)
		sm->rr = 0;
	b->g = NULL;
	b->pool_next = sm->pool;
	sm->pool = b;
}

/* Retire @sm's finished blocks and those of stopping grids. */
void sched_retire(struct sm *sm)
{
	for (uint32_t i = 0; i < sm->nres;) {
		struct block *b = sm->res[i];

		if ((b->ready && !b->live_warps) || grid_stopping(b->g))
			block_retire(sm, i);
		else
			i++;
	}
}

/*
 * Unlink the grids that have ended (every dispatched block retired); they
 * are returned (linked through ->next) for grid_complete() outside the lock.
 */
struct grid *sched_reap(struct vgpu_core *core)
{
	struct grid *done = NULL, **link, *g;

	for (link = &core->grids; (g = *link);) {
		bool all = g->next_block >= g->nblocks || grid_stopping(g);

		if (all && !g->live_blocks) {
			*link = g->next;
			core->ngrids--;
			g->next = done;
			done = g;
		} else {
			link = &g->next;
		}
	}
	if (done) {
		sched_tick(core, core_now_ns());
		pthread_cond_broadcast(&core->done_cv);
	}
	return done;
}
