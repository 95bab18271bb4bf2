// SPDX-License-Identifier: GPL-2.0
/*
 * sched.c - the GR engine's SMs: worker threads, grids, blocks, barriers.
 *
 * A launch publishes the grid to all SM worker threads; each takes block
 * indices from an atomic counter until none are left, so blocks spread
 * over the SMs as on a GPU.  Inside an SM thread a block's warps run
 * round-robin, each for up to WARP_QUANTUM instructions or until it waits
 * at a barrier; when every live warp waits and no barrier can complete,
 * the block is deadlocked and the grid faults.  The first fault (or a stop
 * request) makes every SM abandon the grid at its next quantum boundary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core_internal.h"

static const char *const fault_names[VISA_FAULT_COUNT] = {
	[VISA_FAULT_NONE] = "none",
	[VISA_FAULT_UNMAPPED] = "illegal address (unmapped)",
	[VISA_FAULT_PERMISSION] = "illegal address (permission)",
	[VISA_FAULT_MISALIGNED] = "misaligned address",
	[VISA_FAULT_OUT_OF_RANGE] = "address out of range",
	[VISA_FAULT_TRAP] = "trap",
	[VISA_FAULT_BREAKPOINT] = "breakpoint",
	[VISA_FAULT_ASSERT] = "device-side assert",
	[VISA_FAULT_BARRIER_DEADLOCK] = "barrier deadlock",
	[VISA_FAULT_STACK_OVERFLOW] = "stack overflow",
	[VISA_FAULT_INVALID_CALL] = "invalid call target",
	[VISA_FAULT_STOPPED] = "stopped",
	[VISA_FAULT_INVALID_IMAGE] = "invalid image or instruction",
	[VISA_FAULT_OUT_OF_RESOURCES] = "out of resources",
};

const char *vgpu_core_fault_name(uint32_t kind)
{
	return kind < VISA_FAULT_COUNT ? fault_names[kind] : "unknown";
}

static const struct visa_line *find_line(const struct vgpu_module *m,
					 uint32_t pc)
{
	uint32_t lo = 0, hi = m->nlines;

	/* last entry with insn <= pc */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (m->lines[mid].insn <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &m->lines[lo - 1] : NULL;
}

void core_record_fault(struct grid *g, const struct warp *w, int lane,
		       uint32_t pc, uint32_t kind, uint64_t addr,
		       const char *msg)
{
	struct vgpu_core_fault *f = &g->fault;
	const struct visa_line *ln;
	int expected = 0;

	if (!atomic_compare_exchange_strong(&g->faulted, &expected, 1))
		return;		/* only the first fault is kept */
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->kernel = g->l->kernel;
	f->address = addr;
	f->pc = pc;
	if (w) {
		memcpy(f->block, w->blk->idx, sizeof(f->block));
		warp_thread_idx(w, lane, f->thread);
		ln = find_line(g->mod, pc);
		if (ln) {
			f->line = ln->line;
			f->column = ln->column;
			snprintf(f->file, sizeof(f->file), "%s",
				 vgpu_core_module_string(g->mod, ln->file));
		}
	}
	snprintf(f->message, sizeof(f->message), "%s", msg ? msg : "");
}

int exec_bad(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "opcode %u with type %u is not supported",
		 in->op, in->type);
	core_record_fault(w->blk->g, w, __builtin_ctz(mask), pc_of(w, in),
			  VISA_FAULT_INVALID_IMAGE, 0, msg);
	return EXEC_FAULT;
}

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

static int block_setup(struct sm *sm, struct grid *g, uint32_t idx)
{
	struct block *b = &sm->blk;
	const uint32_t *bd = g->l->block;
	const uint32_t *gd = g->l->grid;
	uint32_t nthreads = bd[0] * bd[1] * bd[2];
	uint32_t nwarps = (nthreads + WARP_SIZE - 1) / WARP_SIZE;
	size_t local = (size_t)nthreads * g->local_size;

	b->g = g;
	b->sm = sm;
	b->idx[0] = idx % gd[0];
	b->idx[1] = (idx / gd[0]) % gd[1];
	b->idx[2] = idx / (gd[0] * gd[1]);
	b->nthreads = nthreads;
	b->nwarps = nwarps;
	b->live_warps = nwarps;
	b->shared_size = g->shared_size;
	if (nwarps > sm->warps_cap) {
		struct warp *p = realloc(b->warps, nwarps * sizeof(*p));
		uint32_t *q = realloc(b->bar_wait, nwarps * sizeof(*q));

		if (p)
			b->warps = p;
		if (q)
			b->bar_wait = q;
		if (!p || !q)
			return -ENOMEM;
		memset(p + sm->warps_cap, 0,
		       (nwarps - sm->warps_cap) * sizeof(*p));
		sm->warps_cap = nwarps;
	}
	if (g->shared_size > sm->shared_cap) {
		uint8_t *p = realloc(b->shared, g->shared_size);

		if (!p)
			return -ENOMEM;
		b->shared = p;
		sm->shared_cap = g->shared_size;
	}
	if (local > sm->local_cap) {
		uint8_t *p = realloc(b->local, local);

		if (!p)
			return -ENOMEM;
		b->local = p;
		sm->local_cap = local;
	}
	memset(b->bars, 0, sizeof(b->bars));
	for (int i = 0; i < NUM_BARRIERS; i++)
		b->bars[i].red_and = true;
	memset(b->bar_wait, 0, nwarps * sizeof(*b->bar_wait));
	for (uint32_t i = 0; i < nwarps; i++)
		if (warp_init(&b->warps[i], b, i))
			return -ENOMEM;
	return 0;
}

static bool grid_stopping(struct grid *g)
{
	return atomic_load_explicit(&g->faulted, memory_order_relaxed) ||
	       atomic_load_explicit(g->stop, memory_order_relaxed);
}

static void run_block(struct sm *sm, struct grid *g, uint32_t idx)
{
	struct block *b = &sm->blk;

	if (block_setup(sm, g, idx)) {
		core_record_fault(g, NULL, 0, 0, VISA_FAULT_OUT_OF_RESOURCES, 0,
				  "out of host memory for a block");
		return;
	}
	for (;;) {
		bool ran = false;

		for (uint32_t i = 0; i < b->nwarps; i++) {
			struct warp *w = &b->warps[i];
			uint64_t insns = w->insns;
			int r;

			if (w->state != WARP_RUNNABLE)
				continue;
			ran = true;
			r = warp_run(w, WARP_QUANTUM);
			/* Once per quantum: what the hang detector watches. */
			atomic_fetch_add_explicit(&sm->core->progress,
						  w->insns - insns,
						  memory_order_relaxed);
			if (r == RUN_FAULT)
				goto out;
			if (r == RUN_DONE) {
				w->state = WARP_DONE;
				b->live_warps--;
				barriers_recheck(b);
			}
		}
		if (grid_stopping(g))
			break;
		if (!b->live_warps)
			break;
		if (!ran) {
			uint32_t i = 0;

			while (i < b->nwarps && b->warps[i].state != WARP_AT_BARRIER)
				i++;
			core_record_fault(g, &b->warps[i], 0,
					  b->warps[i].rs_n ?
					  b->warps[i].rs[b->warps[i].rs_n - 1].pc - 1 : 0,
					  VISA_FAULT_BARRIER_DEADLOCK, 0,
					  "not all threads of the block reach "
					  "the barrier");
			break;
		}
	}
out:
	for (uint32_t i = 0; i < b->nwarps; i++) {
		sm->warp_insns += b->warps[i].insns;
		sm->thread_insns += b->warps[i].lane_insns;
	}
}

static void run_grid(struct sm *sm, struct grid *g)
{
	tlb_flush(sm);
	sm->tlb_misses = 0;
	sm->warp_insns = sm->thread_insns = 0;
	for (;;) {
		uint32_t idx;

		if (grid_stopping(g))
			break;
		idx = atomic_fetch_add(&g->next_block, 1);
		if (idx >= g->nblocks)
			break;
		run_block(sm, g, idx);
	}
	if (atomic_load(g->stop) && !atomic_load(&g->faulted))
		core_record_fault(g, NULL, 0, 0, VISA_FAULT_STOPPED, 0,
				  "grid stopped by request (watchdog)");
}

static void *sm_main(void *arg)
{
	struct sm *sm = arg;
	struct vgpu_core *core = sm->core;
	uint64_t seen = 0;

	pthread_mutex_lock(&core->lock);
	for (;;) {
		struct grid *g;

		while (!core->quit && (!core->grid || core->generation == seen))
			pthread_cond_wait(&core->work_cv, &core->lock);
		if (core->quit)
			break;
		seen = core->generation;
		g = core->grid;
		pthread_mutex_unlock(&core->lock);

		run_grid(sm, g);

		pthread_mutex_lock(&core->lock);
		atomic_fetch_add(&core->warp_insns, sm->warp_insns);
		atomic_fetch_add(&core->thread_insns, sm->thread_insns);
		atomic_fetch_add(&core->tlb_misses, sm->tlb_misses);
		if (--core->busy == 0)
			pthread_cond_signal(&core->done_cv);
	}
	pthread_mutex_unlock(&core->lock);
	return NULL;
}

/* ---- the core ------------------------------------------------------------ */

struct vgpu_core *vgpu_core_create(const struct vgpu_core_config *cfg)
{
	struct vgpu_core *core;
	unsigned int n = cfg && cfg->num_sms ? cfg->num_sms : 1;

	if (n > 1024) {
		errno = EINVAL;
		return NULL;
	}
	core = calloc(1, sizeof(*core));
	if (!core)
		return NULL;
	core->num_sms = n;
	core->max_shared = cfg && cfg->max_shared_per_block ?
			   cfg->max_shared_per_block : 228 * 1024;
	core->max_threads = cfg && cfg->max_threads_per_block ?
			    cfg->max_threads_per_block : 1024;
	if (core->max_threads > 1024)
		core->max_threads = 1024;
	core->sms = calloc(n, sizeof(*core->sms));
	if (!core->sms) {
		free(core);
		return NULL;
	}
	pthread_mutex_init(&core->launch_lock, NULL);
	pthread_mutex_init(&core->lock, NULL);
	pthread_cond_init(&core->work_cv, NULL);
	pthread_cond_init(&core->done_cv, NULL);
	for (unsigned int i = 0; i < n; i++) {
		struct sm *sm = &core->sms[i];

		sm->core = core;
		sm->id = i;
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
	pthread_mutex_lock(&core->lock);
	core->quit = true;
	pthread_cond_broadcast(&core->work_cv);
	pthread_mutex_unlock(&core->lock);
	for (unsigned int i = 0; i < core->num_sms; i++) {
		struct sm *sm = &core->sms[i];
		struct block *b = &sm->blk;

		pthread_join(sm->thread, NULL);
		for (uint32_t w = 0; w < sm->warps_cap; w++)
			warp_release(&b->warps[w]);
		free(b->warps);
		free(b->bar_wait);
		free(b->shared);
		free(b->local);
	}
	pthread_mutex_destroy(&core->launch_lock);
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

void vgpu_core_stop(struct vgpu_core *core)
{
	atomic_store(&core->stop, 1);
}

bool vgpu_core_stop_grid(struct vgpu_core *core, uint32_t grid_id)
{
	bool hit;

	/* core->grid changes under the lock, so the check and the stop see
	 * the same grid */
	pthread_mutex_lock(&core->lock);
	hit = core->grid && core->grid->l->grid_id == grid_id;
	if (hit)
		atomic_store(&core->stop, 1);
	pthread_mutex_unlock(&core->lock);
	return hit;
}

uint64_t vgpu_core_progress(const struct vgpu_core *core)
{
	return atomic_load(&core->progress);
}

bool vgpu_core_busy(const struct vgpu_core *core)
{
	return atomic_load(&core->active);
}

void vgpu_core_get_stats(struct vgpu_core *core, struct vgpu_core_stats *st)
{
	st->warp_insns = atomic_load(&core->warp_insns);
	st->thread_insns = atomic_load(&core->thread_insns);
	st->tlb_misses = atomic_load(&core->tlb_misses);
}

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
	if (sh > core->max_shared)
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

int vgpu_core_launch(struct vgpu_core *core,
		     const struct vgpu_core_launch *l,
		     struct vgpu_core_fault *fault)
{
	const struct visa_kernel *k = NULL;
	uint32_t shared = 0, local = 0;
	struct grid *g;
	int ret;

	ret = check_launch(core, l, &k, &shared, &local, fault);
	if (ret)
		return ret;
	g = calloc(1, sizeof(*g) + k->param_size);
	if (!g)
		return launch_error(fault, VISA_FAULT_OUT_OF_RESOURCES,
				    "out of host memory");
	g->l = l;
	g->mod = l->module;
	g->k = k;
	g->nblocks = l->grid[0] * l->grid[1] * l->grid[2];
	g->local_size = local;
	g->shared_size = shared;
	g->stop = &core->stop;
	if (k->param_size)
		memcpy(g->param_copy, l->params, k->param_size);

	pthread_mutex_lock(&core->launch_lock);
	atomic_store(&core->warp_insns, 0);
	atomic_store(&core->thread_insns, 0);
	atomic_store(&core->tlb_misses, 0);
	pthread_mutex_lock(&core->lock);
	atomic_store(&core->stop, 0);	/* a stop for an earlier grid */
	core->grid = g;
	core->generation++;
	core->busy = core->num_sms;
	atomic_store(&core->active, true);
	pthread_cond_broadcast(&core->work_cv);
	while (core->busy)
		pthread_cond_wait(&core->done_cv, &core->lock);
	atomic_store(&core->active, false);
	core->grid = NULL;
	pthread_mutex_unlock(&core->lock);
	pthread_mutex_unlock(&core->launch_lock);

	ret = atomic_load(&g->faulted) ? 1 : 0;
	if (fault) {
		if (ret)
			*fault = g->fault;
		else
			memset(fault, 0, sizeof(*fault));
	}
	free(g);
	return ret;
}
