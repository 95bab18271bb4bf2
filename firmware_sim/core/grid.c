// SPDX-License-Identifier: GPL-2.0
/*
 * grid.c - a grid's life: checked and submitted (vgpu_core_submit(), or
 * vgpu_core_launch() which waits for it), stopped on request, completed
 * through its callback; and the core-wide services around grids: the TLB
 * shootdown, the progress counter, statistics.  Which block runs where is
 * dispatch.c's business.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core_internal.h"
#include "exec_cdp.h"
#include "vgpu_occupancy.h"

/* Tell the grid's owner; outside the lock.  Frees @g. */
void grid_complete(struct vgpu_core *core, struct grid *g)
{
	int stop = atomic_load(&g->stop);
	struct vgpu_core_fault *f = &g->fault;

	/* a failed assert is the fault unless another one stopped the grid */
	if (!atomic_load(&g->faulted) && atomic_load(&g->asserted)) {
		*f = g->assert_fault;
		atomic_store(&g->faulted, 1);
	}
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
	/* a grid that launched children completes after them */
	if (!cdp_grid_end(core, g, atomic_load(&g->faulted)))
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

/*
 * A cluster shape divides the grid; a gang (the whole cooperative grid,
 * or one cluster) must fit on this core's SMs at once, or it would wait
 * for room forever (dispatch.c, "gangs").
 */
static int check_gang(const struct vgpu_core *core,
		      const struct vgpu_core_launch *l,
		      const struct visa_kernel *k, uint64_t threads,
		      uint64_t blocks, struct vgpu_core_fault *fault)
{
	const uint32_t *c = l->cluster;
	uint64_t csize = (uint64_t)c[0] * c[1] * c[2], per_sm, gang;

	if (c[0] || c[1] || c[2]) {
		if (!csize || csize > VGPU_CORE_MAX_CLUSTER ||
		    l->grid[0] % c[0] || l->grid[1] % c[1] || l->grid[2] % c[2])
			return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
					    "invalid cluster shape");
	} else {
		csize = 1;
	}
	gang = l->cooperative ? blocks : csize;
	per_sm = vgpu_occupancy_blocks_per_sm((uint32_t)threads,
			vgpu_occupancy_block_shared(k, l->dynamic_shared));
	if (gang > per_sm * core->num_sms)
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    l->cooperative ?
				    "cooperative grid larger than the SMs hold at once" :
				    "cluster larger than the SMs hold at once");
	return 0;
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
	if (check_gang(core, l, k, threads, blocks, fault))
		return -EINVAL;
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
	size_t size;
	int ret;

	ret = check_launch(core, l, &k, &shared, &local, fault);
	if (ret)
		return ret;
	if (!done)
		return launch_error(fault, VISA_FAULT_INVALID_IMAGE,
				    "no completion callback");
	/* aligned: its fields are grouped by cache line (core_internal.h) */
	size = (sizeof(*g) + k->param_size + _Alignof(struct grid) - 1) /
	       _Alignof(struct grid) * _Alignof(struct grid);
	g = aligned_alloc(_Alignof(struct grid), size);
	if (g)
		memset(g, 0, size);
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
	g->csize = 1;
	for (int i = 0; i < 3; i++) {
		uint32_t c = l->cluster[0] ? l->cluster[i] : 1;

		g->csize *= c;
		g->ncl[i] = l->grid[i] / c;
	}
	g->gang = l->cooperative ? g->nblocks : g->csize;
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

uint32_t vgpu_core_running_ctx(struct vgpu_core *core)
{
	uint32_t ctx;

	pthread_mutex_lock(&core->lock);
	ctx = core->grids && core->have_ctx ? core->cur_ctx : 0;
	pthread_mutex_unlock(&core->lock);
	return ctx;
}

void vgpu_core_get_stats(struct vgpu_core *core, struct vgpu_core_stats *st)
{
	st->warp_insns = atomic_load(&core->warp_insns);
	st->thread_insns = atomic_load(&core->thread_insns);
	st->tlb_misses = atomic_load(&core->tlb_misses);
}
