// SPDX-License-Identifier: GPL-2.0
/*
 * sched.c - the GR engine's SMs: worker threads, resident blocks, barriers.
 *
 * Each SM worker thread holds as many blocks as its limits allow
 * (include/vgpu_occupancy.h; grid.c decides which) and interleaves their
 * warps: round robin over every runnable warp of every resident block of
 * the running context, WARP_QUANTUM instructions each, or until the warp
 * waits at a barrier.  When every live warp of a block waits and no
 * barrier can complete, the block is deadlocked and its grid faults.  A
 * grid's first fault (or a stop request) makes every SM retire the grid's
 * blocks at its next quantum boundary; so does a context switch for the
 * blocks of the old context, except that they stay resident, saved, and
 * resume where they were.
 *
 * Between two quanta the SM also checks its TLB: it drops its cached
 * translations when the next warp belongs to another address space or
 * the page tables changed (vgpu_core_tlb_invalidate()), and publishes in
 * sm->tlb_seen that it did, which is the unmap grace period's signal.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "core_internal.h"

/* ---- barriers ----------------------------------------------------------- */

static uint32_t warp_threads(const struct block *b, uint32_t warp_id)
{
	uint32_t n = b->nthreads - warp_id * WARP_SIZE;

	return n > WARP_SIZE ? WARP_SIZE : n;
}

static void barrier_complete(struct block *b, unsigned int id)
{
	struct barrier *bar = &b->bars[id];

	for (uint32_t i = 0; i < b->nwarps; i++) {
		struct warp *w = &b->warps[i];

		if (b->bar_wait[i] != id + 1)
			continue;
		b->bar_wait[i] = 0;
		w->state = WARP_RUNNABLE;
		if (w->red_d != VISA_OPND_NONE) {
			uint64_t *D = reg_row(w, w->red_d);

			FOR_LANES(w->red_mask, D[l] = bar->popc);
		}
		if (w->red_pd != VISA_OPND_NONE) {
			bool v = bar->red_op == VISA_RED_AND ? bar->red_and :
								bar->red_or;

			pred_write(&w->preds[w->red_pd], w->red_mask,
				   v ? FULL_MASK : 0);
		}
	}
	/* racecheck: accesses before a block-wide barrier cannot race with
	 * accesses after it */
	if (b->san_shadow && (!bar->expected || bar->expected >= b->nthreads))
		san_barrier_done(b);
	memset(bar, 0, sizeof(*bar));
	bar->red_and = true;
}

static bool barrier_done(const struct block *b, const struct barrier *bar)
{
	if (!bar->arrived_warps)
		return false;
	if (bar->expected)
		return bar->arrived_threads >= bar->expected;
	return bar->arrived_warps >= b->live_warps;
}

/* A warp finished: barriers waiting for "all warps" may now complete. */
static void barriers_recheck(struct block *b)
{
	for (unsigned int i = 0; i < NUM_BARRIERS; i++)
		if (barrier_done(b, &b->bars[i]))
			barrier_complete(b, i);
}

int block_barrier(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct block *b = w->blk;
	int first = __builtin_ctz(mask);
	uint32_t id = (uint32_t)src_row(w, in, 0, in->a)[first];
	uint32_t count = in->b != VISA_OPND_NONE ?
		(uint32_t)src_row(w, in, 1, in->b)[first] : 0;
	struct barrier *bar;
	bool wait = in->op != VISA_OP_BAR_ARRIVE;

	if (id >= NUM_BARRIERS || count % WARP_SIZE ||
	    count > b->nwarps * WARP_SIZE) {
		core_record_fault(b->g, w, first, pc_of(w, in),
				  VISA_FAULT_BARRIER_DEADLOCK, id,
				  "invalid barrier id or thread count");
		return EXEC_FAULT;
	}
	if (b->counting && b->g->l->sanitizer && wait)
		san_barrier(w, in, mask);
	bar = &b->bars[id];
	if (bar->arrived_warps && bar->expected != count) {
		core_record_fault(b->g, w, first, pc_of(w, in),
				  VISA_FAULT_BARRIER_DEADLOCK, id,
				  "barrier used with different thread counts");
		return EXEC_FAULT;
	}
	bar->expected = count;
	bar->arrived_warps++;
	bar->arrived_threads += warp_threads(b, w->warp_id);
	w->red_d = w->red_pd = VISA_OPND_NONE;
	if (in->op == VISA_OP_BAR_RED) {
		uint32_t p = w->preds[in->pa] & mask;

		bar->red_op = VISA_MOD_SUB(in->mod);
		bar->popc += (uint32_t)__builtin_popcount(p);
		bar->red_and = bar->red_and && p == mask;
		bar->red_or = bar->red_or || p != 0;
		w->red_d = in->d;
		w->red_pd = in->pd;
		w->red_mask = mask;
	}
	if (wait) {
		b->bar_wait[w->warp_id] = id + 1;
		w->state = WARP_AT_BARRIER;
	}
	if (barrier_done(b, bar)) {
		barrier_complete(b, id);
		return EXEC_OK;	/* this warp goes on at once */
	}
	return wait ? EXEC_BARRIER : EXEC_OK;
}

/* ---- blocks ------------------------------------------------------------- */

/* Give @b its warps, barriers and memory for grid b->g (pooled buffers). */
static int block_setup(struct block *b)
{
	struct grid *g = b->g;
	const uint32_t *bd = g->l->block;
	uint32_t nthreads = bd[0] * bd[1] * bd[2];
	uint32_t nwarps = (nthreads + WARP_SIZE - 1) / WARP_SIZE;
	size_t local = (size_t)nthreads * g->local_size;

	b->nthreads = nthreads;
	b->nwarps = nwarps;
	b->live_warps = nwarps;
	b->shared_size = g->shared_size;
	b->next_warp = 0;
	b->counting = g->l->counters != NULL;
	memset(&b->cnt, 0, sizeof(b->cnt));
	if (nwarps > b->warps_cap) {
		struct warp *p = realloc(b->warps, nwarps * sizeof(*p));
		uint32_t *q = realloc(b->bar_wait, nwarps * sizeof(*q));

		if (p)
			b->warps = p;
		if (q)
			b->bar_wait = q;
		if (!p || !q)
			return -ENOMEM;
		memset(p + b->warps_cap, 0,
		       (nwarps - b->warps_cap) * sizeof(*p));
		b->warps_cap = nwarps;
	}
	if (g->shared_size > b->shared_cap) {
		uint8_t *p = realloc(b->shared, g->shared_size);

		if (!p)
			return -ENOMEM;
		b->shared = p;
		b->shared_cap = g->shared_size;
	}
	if (local > b->local_cap) {
		uint8_t *p = realloc(b->local, local);

		if (!p)
			return -ENOMEM;
		b->local = p;
		b->local_cap = local;
	}
	memset(b->bars, 0, sizeof(b->bars));
	for (int i = 0; i < NUM_BARRIERS; i++)
		b->bars[i].red_and = true;
	memset(b->bar_wait, 0, nwarps * sizeof(*b->bar_wait));
	for (uint32_t i = 0; i < nwarps; i++)
		if (warp_init(&b->warps[i], b, i))
			return -ENOMEM;
	return b->counting || b->san_shadow ? san_block_setup(b) : 0;
}

static void block_free(struct block *b)
{
	for (uint32_t w = 0; w < b->warps_cap; w++)
		warp_release(&b->warps[w]);
	free(b->warps);
	free(b->bar_wait);
	free(b->shared);
	free(b->local);
	free(b->san_shadow);
	free(b);
}

/*
 * Before a quantum of a warp of grid @g: the TLB must hold only
 * translations of @g's address space made after the last invalidation.
 */
static void tlb_check(struct sm *sm, const struct grid *g)
{
	uint64_t gen = atomic_load_explicit(&sm->core->tlb_gen,
					    memory_order_acquire);

	if (gen == sm->tlb_gen && g->lc.translate == sm->tlb_fn &&
	    g->lc.translate_ctx == sm->tlb_ctx)
		return;
	tlb_flush(sm);
	sm->tlb_gen = gen;
	sm->tlb_fn = g->lc.translate;
	sm->tlb_ctx = g->lc.translate_ctx;
	atomic_store_explicit(&sm->tlb_seen, gen, memory_order_release);
}

/*
 * Has GR switched context since @ctx_gen?  Looks at the clock, too, but
 * not before every quantum: a warp of a short kernel (vectorAdd's run ten
 * instructions and end) is a quantum of its own, and one clock_gettime()
 * per warp was 13% of the native tier's time.  The clock is read once
 * @sm has run CLOCK_EVERY_INSNS warp-instructions or CLOCK_EVERY_QUANTA
 * quanta since the last reading, whichever comes first, so the scheduler's
 * decisions (time slices, exec_limit_us) are late by at most that much
 * work: a few microseconds on the native tier, against a 1 ms tick.
 */
static bool preempted(struct sm *sm, uint64_t ctx_gen)
{
	struct vgpu_core *core = sm->core;

	if (++sm->clock_quanta >= CLOCK_EVERY_QUANTA ||
	    sm->clock_insns >= CLOCK_EVERY_INSNS) {
		uint64_t now = core_now_ns();

		sm->clock_quanta = 0;
		sm->clock_insns = 0;
		if (now >= atomic_load_explicit(&core->next_tick,
						memory_order_relaxed)) {
			pthread_mutex_lock(&core->lock);
			if (now >= atomic_load(&core->next_tick))
				sched_tick(core, now);
			pthread_mutex_unlock(&core->lock);
		}
	}
	return atomic_load_explicit(&core->ctx_gen, memory_order_relaxed) !=
	       ctx_gen;
}

enum { BLOCK_RAN, BLOCK_PREEMPTED };

/*
 * One quantum for each runnable warp of @b, from where the last call
 * left off.  BLOCK_PREEMPTED when GR switched context in between.
 */
static int block_run(struct sm *sm, struct block *b, uint64_t ctx_gen)
{
	struct grid *g = b->g;

	for (; b->next_warp < b->nwarps; b->next_warp++) {
		struct warp *w = &b->warps[b->next_warp];
		uint64_t before;
		int r;

		if (w->state != WARP_RUNNABLE)
			continue;
		if (preempted(sm, ctx_gen))
			return BLOCK_PREEMPTED;
		/*
		 * The TLB first: a grid stopped before a TLB shootdown (its
		 * context destroyed) is seen stopped by an SM that has seen
		 * the shootdown, so it runs no quantum after the grace period.
		 */
		tlb_check(sm, g);
		if (grid_stopping(g))
			return BLOCK_RAN;
		before = w->insns;
		r = warp_run(w, WARP_QUANTUM);
		sm->clock_insns += w->insns - before;
		/* only this thread writes it: no locked add needed */
		atomic_store_explicit(&sm->progress,
				      atomic_load_explicit(&sm->progress,
							   memory_order_relaxed) +
				      (w->insns - before),
				      memory_order_relaxed);
		/* achieved occupancy: resident warps, weighted by work */
		if (b->counting)
			b->cnt.warps_resident += (uint64_t)sm->used.warps *
						 (w->insns - before);
		if (r == RUN_FAULT)
			return BLOCK_RAN;
		if (r == RUN_DONE) {
			w->state = WARP_DONE;
			b->live_warps--;
			barriers_recheck(b);
		}
	}
	b->next_warp = 0;
	if (b->live_warps) {
		/* barriers complete as the last warp arrives: if no warp can
		 * run now, none ever will */
		uint32_t i = 0;

		while (i < b->nwarps && b->warps[i].state != WARP_RUNNABLE)
			i++;
		if (i < b->nwarps)
			return BLOCK_RAN;
		i = 0;
		while (i < b->nwarps && b->warps[i].state != WARP_AT_BARRIER)
			i++;
		core_record_fault(g, &b->warps[i], 0,
				  b->warps[i].rs_n ?
				  b->warps[i].rs[b->warps[i].rs_n - 1].pc - 1 : 0,
				  VISA_FAULT_BARRIER_DEADLOCK, 0,
				  "not all threads of the block reach "
				  "the barrier");
	}
	return BLOCK_RAN;
}

/* Set up the blocks dispatched to @sm since its last round. */
static void sm_setup_blocks(struct sm *sm)
{
	for (uint32_t i = 0; i < sm->nres; i++) {
		struct block *b = sm->res[i];

		if (b->ready || grid_stopping(b->g))
			continue;
		if (block_setup(b)) {
			b->live_warps = 0;
			core_record_fault(b->g, NULL, 0, 0,
					  VISA_FAULT_OUT_OF_RESOURCES, 0,
					  "out of host memory for a block");
		}
		/* release: a block of its cluster may read its shared
		 * memory from another SM thread (exec_cluster.c) */
		__atomic_store_n(&b->ready, true, __ATOMIC_RELEASE);
	}
}

/*
 * One round: a quantum for every runnable warp of the resident blocks of
 * context @ctx, starting where the last round stopped so that a short
 * time slice still reaches every block in turn.
 */
static void sm_round(struct sm *sm, uint32_t ctx, uint64_t ctx_gen)
{
	uint32_t n = sm->nres;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = (sm->rr + k) % n;
		struct block *b = sm->res[i];

		if (b->g->lc.ctx_id != ctx || !b->ready || !b->live_warps ||
		    grid_stopping(b->g))
			continue;
		if (block_run(sm, b, ctx_gen) == BLOCK_PREEMPTED) {
			sm->rr = i;
			return;
		}
	}
	sm->rr = n ? (sm->rr + 1) % n : 0;
}

/* Does @sm hold blocks of the running context? */
static bool sm_has_work(const struct sm *sm)
{
	const struct vgpu_core *core = sm->core;

	if (!core->have_ctx)
		return false;
	for (uint32_t i = 0; i < sm->nres; i++)
		if (sm->res[i]->g->lc.ctx_id == core->cur_ctx)
			return true;
	return false;
}

/* Nothing to run: sleep until woken (or a while, to look at the clock). */
static void sm_idle(struct sm *sm)
{
	struct vgpu_core *core = sm->core;
	struct timespec ts;

	/* an idle SM holds no translations: the grace period skips it */
	tlb_flush(sm);
	sm->tlb_fn = NULL;
	sm->tlb_ctx = NULL;
	atomic_store(&sm->tlb_seen, UINT64_MAX);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 10 * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&core->work_cv, &core->lock, &ts);
	sm->tlb_gen = atomic_load(&core->tlb_gen);
	atomic_store(&sm->tlb_seen, sm->tlb_gen);
}

static void *sm_main(void *arg)
{
	struct sm *sm = arg;
	struct vgpu_core *core = sm->core;

	pthread_mutex_lock(&core->lock);
	for (;;) {
		uint64_t now = core_now_ns(), ctx_gen;
		struct grid *done;
		uint32_t ctx;
		bool work;

		if (now >= atomic_load(&core->next_tick))
			sched_tick(core, now);
		if (sm->ctx_gen != atomic_load(&core->ctx_gen))
			sm_recount(sm);
		sched_retire(sm);
		done = sched_reap(core);
		sched_dispatch(sm);
		work = sm_has_work(sm);
		ctx = core->cur_ctx;
		ctx_gen = sm->ctx_gen;
		if (!work && !done) {
			if (core->quit)
				break;
			sm_idle(sm);
			continue;
		}
		atomic_fetch_add(&core->tlb_misses, sm->tlb_misses);
		sm->tlb_misses = 0;
		pthread_mutex_unlock(&core->lock);

		while (done) {
			struct grid *g = done;

			done = g->next;
			grid_complete(core, g);
		}
		if (work) {
			sm_setup_blocks(sm);
			sm_round(sm, ctx, ctx_gen);
		}
		pthread_mutex_lock(&core->lock);
	}
	pthread_mutex_unlock(&core->lock);
	return NULL;
}

/* ---- the core ------------------------------------------------------------ */

struct vgpu_core *vgpu_core_create(const struct vgpu_core_config *cfg)
{
	struct vgpu_core *core;
	unsigned int n = cfg && cfg->num_sms ? cfg->num_sms : 1;
	pthread_condattr_t attr;

	if (n > 1024) {
		errno = EINVAL;
		return NULL;
	}
	/* aligned: its fields are grouped by cache line (core_internal.h) */
	core = aligned_alloc(_Alignof(struct vgpu_core), sizeof(*core));
	if (!core)
		return NULL;
	memset(core, 0, sizeof(*core));
	core->num_sms = n;
	core->max_shared = cfg && cfg->max_shared_per_block ?
			   cfg->max_shared_per_block : 228 * 1024;
	core->max_threads = cfg && cfg->max_threads_per_block ?
			    cfg->max_threads_per_block : 1024;
	if (core->max_threads > 1024)
		core->max_threads = 1024;
	core->timeslice_ns = 1000ull * (cfg && cfg->timeslice_us ?
					cfg->timeslice_us :
					VGPU_CORE_TIMESLICE_US);
	/* aligned: no two SMs share a cache line (struct sm) */
	core->sms = aligned_alloc(_Alignof(struct sm), n * sizeof(*core->sms));
	if (!core->sms) {
		free(core);
		return NULL;
	}
	memset(core->sms, 0, n * sizeof(*core->sms));
	pthread_mutex_init(&core->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&core->work_cv, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&core->done_cv, NULL);
	for (unsigned int i = 0; i < n; i++) {
		struct sm *sm = &core->sms[i];

		sm->core = core;
		sm->id = i;
		tlb_flush(sm);
		atomic_init(&sm->tlb_seen, UINT64_MAX);
		if (pthread_create(&sm->thread, NULL, sm_main, sm)) {
			core->num_sms = i;
			vgpu_core_destroy(core);
			errno = EAGAIN;
			return NULL;
		}
	}
	return core;
}

void vgpu_core_destroy(struct vgpu_core *core)
{
	if (!core)
		return;
	/* end every grid first: their owners hear of it */
	vgpu_core_stop(core);
	pthread_mutex_lock(&core->lock);
	while (core->num_sms && (core->grids || atomic_load(&core->active)))
		pthread_cond_wait(&core->done_cv, &core->lock);
	core->quit = true;
	pthread_cond_broadcast(&core->work_cv);
	pthread_mutex_unlock(&core->lock);
	for (unsigned int i = 0; i < core->num_sms; i++) {
		struct sm *sm = &core->sms[i];
		struct block *b;

		pthread_join(sm->thread, NULL);
		for (uint32_t j = 0; j < sm->nres; j++)
			block_free(sm->res[j]);
		free(sm->res);
		while ((b = sm->pool)) {
			sm->pool = b->pool_next;
			block_free(b);
		}
	}
	pthread_mutex_destroy(&core->lock);
	pthread_cond_destroy(&core->work_cv);
	pthread_cond_destroy(&core->done_cv);
	free(core->sms);
	free(core);
}

unsigned int vgpu_core_num_sms(const struct vgpu_core *core)
{
	return core->num_sms;
}
