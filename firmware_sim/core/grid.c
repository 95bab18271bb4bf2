// SPDX-License-Identifier: GPL-2.0
/*
 * grid.c - the GR engine's front end: the set of active grids, which
 * block an SM takes next, and which context has GR now.
 *
 * Submitted grids join core->grids, kept in dispatch order: by priority
 * (lower number first), then by submission.  An SM with room takes the
 * next block of the first grid of the running context that still has
 * blocks to dispatch; when that block does not fit, it takes nothing
 * (a younger or lower-priority grid never overtakes a waiting one).
 *
 * Contexts take turns: only core->cur_ctx's grids run.  When another
 * context has active grids, GR switches at the end of the slice (round
 * robin by context id); when the running one has none left, at once.  A
 * switch bumps core->ctx_gen; the SMs notice at their next warp-quantum
 * boundary and leave the old context's blocks where they are (a context
 * save) until it runs again.  The time a grid's context held GR is
 * counted per grid for exec_limit_us.
 *
 * Everything here runs under core->lock unless it says otherwise.
 */
#include <errno.h>
#include <stdio.h>
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

/* Count what the running context's blocks occupy on @sm (after a switch). */
void sm_recount(struct sm *sm)
{
	struct vgpu_core *core = sm->core;

	memset(&sm->used, 0, sizeof(sm->used));
	for (uint32_t i = 0; i < sm->nres; i++)
		if (sm->res[i]->g->lc.ctx_id == core->cur_ctx)
			usage_add(&sm->used, sm->res[i]->g, 1);
	sm->ctx_gen = atomic_load(&core->ctx_gen);
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

/* Fill @sm's free room with blocks of the running context. */
void sched_dispatch(struct sm *sm)
{
	struct vgpu_core *core = sm->core;

	if (!core->have_ctx)
		return;
	for (struct grid *g = core->grids; g; g = g->next) {
		if (g->lc.ctx_id != core->cur_ctx || grid_stopping(g) ||
		    g->next_block >= g->nblocks)
			continue;
		while (g->next_block < g->nblocks && fits(&sm->used, g)) {
			struct block *b;

			if (sm->nres == sm->res_cap) {
				uint32_t cap = sm->res_cap ? sm->res_cap * 2 : 64;
				struct block **p = realloc(sm->res,
							   cap * sizeof(*p));

				if (!p)
					return;
				sm->res = p;
				sm->res_cap = cap;
			}
			b = block_get(sm);
			if (!b)
				return;
			b->g = g;
			b->sm = sm;
			b->ready = false;
			b->next_warp = 0;
			b->nthreads = 0;
			{
				uint32_t idx = g->next_block++;
				const uint32_t *gd = g->lc.grid;

				b->idx[0] = idx % gd[0];
				b->idx[1] = (idx / gd[0]) % gd[1];
				b->idx[2] = idx / (gd[0] * gd[1]);
			}
			g->live_blocks++;
			usage_add(&sm->used, g, 1);
			sm->res[sm->nres++] = b;
		}
		/* The first grid waiting for room blocks those behind it. */
		if (g->next_block < g->nblocks)
			return;
	}
}

/* Retire resident block @i of @sm (its warps ended, or its grid stops). */
static void block_retire(struct sm *sm, uint32_t i)
{
	struct block *b = sm->res[i];
	struct grid *g = b->g;

	for (uint32_t w = 0; w < b->nwarps && b->ready; w++) {
		atomic_fetch_add(&sm->core->warp_insns, b->warps[w].insns);
		atomic_fetch_add(&sm->core->thread_insns,
				 b->warps[w].lane_insns);
	}
	if (g->lc.ctx_id == sm->core->cur_ctx &&
	    sm->ctx_gen == atomic_load(&sm->core->ctx_gen))
		usage_add(&sm->used, g, -1);
	g->live_blocks--;
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

/* Tell the grid's owner; outside the lock.  Frees @g. */
void grid_complete(struct vgpu_core *core, struct grid *g)
{
	int stop = atomic_load(&g->stop);
	struct vgpu_core_fault *f = &g->fault;

	if (!atomic_load(&g->faulted) && stop != GRID_RUN) {
		memset(f, 0, sizeof(*f));
		f->kind = stop == GRID_TIMEOUT ? VISA_FAULT_TIMEOUT :
						 VISA_FAULT_STOPPED;
		f->kernel = g->lc.kernel;
		snprintf(f->message, sizeof(f->message), "%s",
			 stop == GRID_TIMEOUT ?
			 "grid ran past its execution time limit" :
			 "grid stopped by request (watchdog)");
		atomic_store(&g->faulted, 1);
	}
	if (!atomic_load(&g->faulted))
		memset(f, 0, sizeof(*f));
	g->done(g->done_arg, atomic_load(&g->faulted) ? 1 : 0, f);
	free(g);
	pthread_mutex_lock(&core->lock);
	atomic_fetch_sub(&core->active, 1);
	pthread_cond_broadcast(&core->done_cv);
	pthread_mutex_unlock(&core->lock);
}

/* ---- submitting ---------------------------------------------------------- */

static int launch_error(struct vgpu_core_fault *fault, uint32_t kind,
			const char *msg)
{
	if (fault) {
		memset(fault, 0, sizeof(*fault));
		fault->kind = kind;
		snprintf(fault->message, sizeof(fault->message), "%s", msg);
	}
	return -EINVAL;
}

static int check_launch(struct vgpu_core *core, const struct vgpu_core_launch *l,
			const struct visa_kernel **kp, uint32_t *shared,
			uint32_t *local, struct vgpu_core_fault *fault)
{
	const struct visa_kernel *k;
	uint64_t threads, blocks, sh;
	uint32_t align;

	if (!l || !l->module)
		return launch_error(fault, VISA_FAULT_INVALID_IMAGE, "no module");
	k = vgpu_core_module_kernel(l->module, l->kernel);
	if (!k)
		return launch_error(fault, VISA_FAULT_INVALID_IMAGE,
				    "no such kernel");
	threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	if (!threads || threads > core->max_threads ||
	    (k->max_threads && threads > k->max_threads))
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "invalid number of threads per block");
	for (int i = 0; i < 3; i++)
		if (k->reqntid[0] && l->block[i] != (k->reqntid[i] ?
						      k->reqntid[i] : 1))
			return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
					    "block shape differs from .reqntid");
	if (!blocks || blocks > UINT32_MAX)
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "invalid grid size");
	/* like "too many resources requested for launch": the register
	 * files of a block must fit the SM */
	if ((threads + WARP_SIZE - 1) / WARP_SIZE *
	    l->module->funcs[k->func].num_regs * WARP_SIZE * 8 > (64u << 20))
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "too many registers for this block size");
	if (l->param_size != k->param_size || (k->param_size && !l->params))
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "parameter buffer size mismatch");
	align = k->shared_align ? k->shared_align : 16;
	sh = ((uint64_t)k->shared_size + align - 1) / align * align +
	     l->dynamic_shared;
	if (sh > core->max_shared ||
	    !vgpu_occupancy_blocks_per_sm((uint32_t)threads,
			vgpu_occupancy_block_shared(k, l->dynamic_shared)))
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "too much shared memory");
	*shared = sh ? (uint32_t)sh : 16;
	*local = l->local_size ? l->local_size : 1024;
	if (*local < k->local_size)
		*local = k->local_size;
	if (*local < l->module->funcs[k->func].frame_size)
		*local = l->module->funcs[k->func].frame_size;
	*local = (*local + 15) & ~15u;
	if (*local > (512u << 10) || threads * *local > (1ull << 31))
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "too much local memory");
	*kp = k;
	return 0;
}

/* Insert @g in dispatch order: priority, then submission. */
static void grid_insert(struct vgpu_core *core, struct grid *g)
{
	struct grid **link = &core->grids;

	while (*link && (*link)->lc.priority <= g->lc.priority)
		link = &(*link)->next;
	g->next = *link;
	*link = g;
	core->ngrids++;
}

int vgpu_core_submit(struct vgpu_core *core,
		     const struct vgpu_core_launch *l,
		     vgpu_core_done_fn done, void *arg,
		     struct vgpu_core_fault *fault)
{
	const struct visa_kernel *k = NULL;
	uint32_t shared = 0, local = 0, threads;
	struct grid *g;
	int ret;

	ret = check_launch(core, l, &k, &shared, &local, fault);
	if (ret)
		return ret;
	if (!done)
		return launch_error(fault, VISA_FAULT_INVALID_IMAGE,
				    "no completion callback");
	g = calloc(1, sizeof(*g) + k->param_size);
	if (!g) {
		launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
			     "out of host memory");
		return -ENOMEM;
	}
	g->lc = *l;
	g->l = &g->lc;
	g->mod = l->module;
	g->k = k;
	g->nblocks = l->grid[0] * l->grid[1] * l->grid[2];
	g->local_size = local;
	g->shared_size = shared;
	threads = l->block[0] * l->block[1] * l->block[2];
	g->warps = vgpu_occupancy_block_warps(threads);
	g->occ_shared = vgpu_occupancy_block_shared(k, l->dynamic_shared);
	if (g->lc.priority < VGPU_CORE_PRIO_HIGHEST)
		g->lc.priority = VGPU_CORE_PRIO_HIGHEST;
	if (g->lc.priority > VGPU_CORE_PRIO_LOWEST)
		g->lc.priority = VGPU_CORE_PRIO_LOWEST;
	g->done = done;
	g->done_arg = arg;
	if (k->param_size)
		memcpy(g->param_copy, l->params, k->param_size);
	g->lc.params = g->param_copy;

	pthread_mutex_lock(&core->lock);
	if (core->ngrids >= VGPU_CORE_MAX_GRIDS || core->quit) {
		pthread_mutex_unlock(&core->lock);
		free(g);
		if (fault)
			memset(fault, 0, sizeof(*fault));
		return -EAGAIN;
	}
	g->seq = ++core->seq;
	grid_insert(core, g);
	atomic_fetch_add(&core->active, 1);
	if (core->have_ctx && g->lc.ctx_id == core->cur_ctx)
		g->sched_mark = core_now_ns();
	sched_tick(core, core_now_ns());
	pthread_cond_broadcast(&core->work_cv);
	pthread_mutex_unlock(&core->lock);
	return 0;
}

struct sync_wait {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	bool done;
	int result;
	struct vgpu_core_fault *fault;
};

static void sync_done(void *arg, int result, const struct vgpu_core_fault *f)
{
	struct sync_wait *w = arg;

	pthread_mutex_lock(&w->lock);
	if (w->fault)
		*w->fault = *f;
	w->result = result;
	w->done = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->lock);
}

int vgpu_core_launch(struct vgpu_core *core,
		     const struct vgpu_core_launch *l,
		     struct vgpu_core_fault *fault)
{
	struct sync_wait w = { .fault = fault };
	int ret;

	atomic_store(&core->warp_insns, 0);
	atomic_store(&core->thread_insns, 0);
	atomic_store(&core->tlb_misses, 0);
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.cv, NULL);
	for (;;) {
		ret = vgpu_core_submit(core, l, sync_done, &w, fault);
		if (ret != -EAGAIN)
			break;
		/* the core is full: wait for a grid to end */
		pthread_mutex_lock(&core->lock);
		if (core->ngrids >= VGPU_CORE_MAX_GRIDS)
			pthread_cond_wait(&core->done_cv, &core->lock);
		pthread_mutex_unlock(&core->lock);
	}
	if (ret == -ENOMEM)
		ret = -EINVAL;
	if (!ret) {
		pthread_mutex_lock(&w.lock);
		while (!w.done)
			pthread_cond_wait(&w.cv, &w.lock);
		pthread_mutex_unlock(&w.lock);
		ret = w.result;
	}
	pthread_cond_destroy(&w.cv);
	pthread_mutex_destroy(&w.lock);
	return ret;
}

/* ---- stopping ------------------------------------------------------------ */

/* Stop the grids @match accepts; true if there was one. */
static bool stop_where(struct vgpu_core *core,
		       bool (*match)(const struct grid *g, uint32_t v),
		       uint32_t v)
{
	bool hit = false;

	pthread_mutex_lock(&core->lock);
	for (struct grid *g = core->grids; g; g = g->next) {
		if (!match(g, v))
			continue;
		if (!atomic_load(&g->stop))
			atomic_store(&g->stop, GRID_STOP);
		hit = true;
	}
	if (hit)
		pthread_cond_broadcast(&core->work_cv);
	pthread_mutex_unlock(&core->lock);
	return hit;
}

static bool match_all(const struct grid *g, uint32_t v)
{
	(void)g;
	(void)v;
	return true;
}

static bool match_grid(const struct grid *g, uint32_t v)
{
	return g->lc.grid_id == v;
}

static bool match_ctx(const struct grid *g, uint32_t v)
{
	return g->lc.ctx_id == v;
}

void vgpu_core_stop(struct vgpu_core *core)
{
	stop_where(core, match_all, 0);
}

bool vgpu_core_stop_grid(struct vgpu_core *core, uint32_t grid_id)
{
	return stop_where(core, match_grid, grid_id);
}

bool vgpu_core_stop_ctx(struct vgpu_core *core, uint32_t ctx_id)
{
	return stop_where(core, match_ctx, ctx_id);
}

/* ---- TLB shootdown, progress, statistics --------------------------------- */

uint64_t vgpu_core_tlb_invalidate(struct vgpu_core *core)
{
	return atomic_fetch_add(&core->tlb_gen, 1) + 1;
}

bool vgpu_core_tlb_synced(struct vgpu_core *core, uint64_t ticket)
{
	for (unsigned int i = 0; i < core->num_sms; i++) {
		uint64_t seen = atomic_load(&core->sms[i].tlb_seen);

		if (seen != UINT64_MAX && seen < ticket)
			return false;
	}
	return true;
}

uint64_t vgpu_core_progress(const struct vgpu_core *core)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < core->num_sms; i++)
		n += atomic_load_explicit(&core->sms[i].progress,
					  memory_order_relaxed);
	return n;
}

bool vgpu_core_busy(const struct vgpu_core *core)
{
	return atomic_load(&core->active) != 0;
}

void vgpu_core_get_stats(struct vgpu_core *core, struct vgpu_core_stats *st)
{
	st->warp_insns = atomic_load(&core->warp_insns);
	st->thread_insns = atomic_load(&core->thread_insns);
	st->tlb_misses = atomic_load(&core->tlb_misses);
}
