// SPDX-License-Identifier: GPL-2.0
/*
 * exec_cdp.c - dynamic parallelism (CUDA's CDP2): kernels that launch
 * kernels.  The cdp class of the opcode table (VISA_OP_CDP,
 * include/vgpu_visa_cdp.h) and what happens to a grid that launched
 * children when its own blocks are done.
 *
 * A device-side launch is recorded, not run: CDP LAUNCH copies the
 * descriptor and the parameters the thread wrote (umd/cuda/devrt.ptx
 * builds them in the device heap) into a host-side list of the launching
 * grid.  When the grid's last block retires, grid_complete() hands the
 * grid to cdp_grid_end() instead of telling its owner: the children run
 * one after the other, each with all of its own descendants, the tail
 * launches last, and only then does the parent's completion callback run
 * (with the first fault of any of them).  So "a parent grid completes only
 * after its children", as CUDA defines it:
 *
 *   parent blocks ... last retires
 *        |
 *        v   cdp_grid_end(): queue = NULL-stream and fire-and-forget
 *        |   launches in launch order, then the tail launches
 *   child 1 (and its children) -> child 2 ... -> tail 1 ... -> parent done
 *
 * Running them in sequence is one of the orders CUDA allows: CDP2 has no
 * device-side wait, so a parent can never observe whether its children
 * ran alongside it; launches of one block's NULL stream must run in
 * order, and do; fire-and-forget grids may run in any order, tail
 * launches after the parent and all its other work, as here.
 *
 * The depth of a grid is known from its completion callback: a child's
 * is cdp_child_done() with the continuation of its parent as argument.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "exec_cdp.h"

struct cdp_child {
	struct cdp_child *next;
	struct vgpu_core_launch l;
	uint8_t params[];
};

/* A grid's recorded launches (struct grid's @cdp), under cdp_lock. */
struct cdp_grid {
	struct cdp_child *head, **tail;		/* NULL stream, fire-and-forget */
	struct cdp_child *thead, **ttail;	/* tail launches */
	uint32_t pending;
};

/* A finished parent waiting for its children: the argument of their
 * completion callbacks. */
struct cdp_run {
	struct vgpu_core *core;
	vgpu_core_done_fn done;		/* the parent's owner */
	void *arg;
	uint32_t depth;			/* of the parent */
	struct cdp_child *queue;	/* still to run */
	struct cdp_child *running;
};

/* Recording is short and rare next to the work of a grid. */
static pthread_mutex_t cdp_lock = PTHREAD_MUTEX_INITIALIZER;

static void cdp_child_done(void *arg, int result,
			   const struct vgpu_core_fault *fault);

static uint32_t grid_depth(const struct grid *g)
{
	if (g->done == cdp_child_done)
		return ((const struct cdp_run *)g->done_arg)->depth + 1;
	return 0;
}

static void free_list(struct cdp_child *c)
{
	while (c) {
		struct cdp_child *n = c->next;

		free(c);
		c = n;
	}
}

/* Finish @run: tell the parent's owner, free what is left. */
static void run_finish(struct cdp_run *run, int result,
		       const struct vgpu_core_fault *fault)
{
	struct vgpu_core_fault ok;

	if (!fault) {
		memset(&ok, 0, sizeof(ok));
		fault = &ok;
	}
	free_list(run->queue);
	run->done(run->arg, result, fault);
	free(run);
}

/* Start the next child of @run, or finish it when none is left. */
static void run_next(struct cdp_run *run)
{
	struct vgpu_core_fault fault;
	struct cdp_child *c;
	int ret;

	free(run->running);
	run->running = NULL;
	c = run->queue;
	if (!c) {
		run_finish(run, 0, NULL);
		return;
	}
	run->queue = c->next;
	run->running = c;
	ret = vgpu_core_submit(run->core, &c->l, cdp_child_done, run, &fault);
	if (!ret)
		return;
	if (ret == -EAGAIN || ret == -ENOMEM) {
		memset(&fault, 0, sizeof(fault));
		fault.kind = VISA_FAULT_OUT_OF_RESOURCES;
		fault.kernel = c->l.kernel;
		snprintf(fault.message, sizeof(fault.message),
			 "device-side launch: %s",
			 ret == -EAGAIN ? "too many grids active" :
					  "out of host memory");
	}
	free(c);
	run->running = NULL;
	run_finish(run, 1, &fault);
}

static void cdp_child_done(void *arg, int result,
			   const struct vgpu_core_fault *fault)
{
	struct cdp_run *run = arg;

	if (result) {
		free(run->running);
		run->running = NULL;
		run_finish(run, result, fault);
		return;
	}
	run_next(run);
}

bool cdp_grid_end(struct vgpu_core *core, struct grid *g, bool faulted)
{
	struct cdp_grid *cg;
	struct cdp_run *run;

	pthread_mutex_lock(&cdp_lock);
	cg = g->cdp;
	g->cdp = NULL;
	pthread_mutex_unlock(&cdp_lock);
	if (!cg)
		return false;
	/* the tail launches follow everything else */
	*cg->tail = cg->thead;
	run = faulted ? NULL : calloc(1, sizeof(*run));
	if (!run) {
		/* a faulted parent's children never run, as on a GPU whose
		 * context the fault ends */
		free_list(cg->head);
		free(cg);
		return false;
	}
	run->core = core;
	run->done = g->done;
	run->arg = g->done_arg;
	run->depth = grid_depth(g);
	run->queue = cg->head;
	free(cg);
	run_next(run);
	return true;
}


/* ---- the instructions ---------------------------------------------------- */

static int kernel_of(const struct vgpu_module *m, uint64_t fp)
{
	if (fp < VISA_FUNCPTR_BASE || fp - VISA_FUNCPTR_BASE >= m->nfuncs)
		return -1;
	for (uint32_t i = 0; i < m->nkernels; i++) {
		const struct visa_kernel *k = vgpu_core_module_kernel(m, i);

		if (k && k->func == fp - VISA_FUNCPTR_BASE)
			return (int)i;
	}
	return -1;
}

static bool config_ok(const struct visa_cdp_desc *d, uint32_t max_threads)
{
	static const uint32_t gmax[3] = { 0x7fffffffu, 65535, 65535 };
	static const uint32_t bmax[3] = { 1024, 1024, 64 };
	uint64_t threads = 1;

	for (int i = 0; i < 3; i++) {
		if (!d->grid[i] || d->grid[i] > gmax[i] || !d->block[i] ||
		    d->block[i] > bmax[i])
			return false;
		threads *= d->block[i];
	}
	return threads <= max_threads;
}

/*
 * Record lane @l's launch of the descriptor at @va into @stream.
 * Returns a cudaError_t, or -1 after a fault (unreadable memory).
 */
static int cdp_launch(struct warp *w, uint32_t pc, int l, uint64_t va,
		      uint64_t stream)
{
	struct grid *g = w->blk->g;
	const struct vgpu_module *m = g->mod;
	const struct visa_kernel *k;
	struct visa_cdp_desc d;
	struct cdp_child *c;
	bool tail;
	int ki;

	if (mem_read_bytes(w, pc, l, va, &d, sizeof(d)))
		return -1;
	ki = kernel_of(m, d.func);
	if (ki < 0)
		return VISA_CDP_ERR_INVALID_DEVICE_FUNCTION;
	k = vgpu_core_module_kernel(m, (unsigned int)ki);
	if (d.param_size != k->param_size)
		return VISA_CDP_ERR_INVALID_DEVICE_FUNCTION;
	if (!config_ok(&d, k->max_threads ? k->max_threads : 1024))
		return VISA_CDP_ERR_INVALID_CONFIGURATION;
	if (stream == VISA_CDP_STREAM_TAIL)
		tail = true;
	else if (stream == VISA_CDP_STREAM_NULL ||
		 stream == VISA_CDP_STREAM_PER_THREAD ||
		 stream == VISA_CDP_STREAM_FIRE_AND_FORGET)
		tail = false;
	else
		return VISA_CDP_ERR_INVALID_RESOURCE_HANDLE;
	if (grid_depth(g) + 1 > VISA_CDP_MAX_DEPTH)
		return VISA_CDP_ERR_LAUNCH_MAX_DEPTH;

	c = calloc(1, sizeof(*c) + k->param_size);
	if (!c)
		return VISA_CDP_ERR_MEMORY_ALLOCATION;
	if (k->param_size &&
	    mem_read_bytes(w, pc, l, va + VISA_CDP_DESC_SIZE, c->params,
			   k->param_size)) {
		free(c);
		return -1;
	}
	/* the child runs in the parent's context, module and address space */
	c->l = g->lc;
	c->l.kernel = (uint32_t)ki;
	memcpy(c->l.grid, d.grid, sizeof(d.grid));
	memcpy(c->l.block, d.block, sizeof(d.block));
	c->l.dynamic_shared = d.shared;
	c->l.params = c->params;
	c->l.param_size = k->param_size;
	c->l.local_size = 0;
	c->l.cooperative = false;
	c->l.grid_sync_va = 0;
	memset(c->l.cluster, 0, sizeof(c->l.cluster));

	pthread_mutex_lock(&cdp_lock);
	if (!g->cdp) {
		g->cdp = calloc(1, sizeof(*g->cdp));
		if (g->cdp) {
			g->cdp->tail = &g->cdp->head;
			g->cdp->ttail = &g->cdp->thead;
		}
	}
	if (!g->cdp || (d.pending_limit &&
			g->cdp->pending >= d.pending_limit)) {
		int err = g->cdp ? VISA_CDP_ERR_LAUNCH_PENDING_COUNT :
				   VISA_CDP_ERR_MEMORY_ALLOCATION;

		pthread_mutex_unlock(&cdp_lock);
		free(c);
		return err;
	}
	if (tail) {
		*g->cdp->ttail = c;
		g->cdp->ttail = &c->next;
	} else {
		*g->cdp->tail = c;
		g->cdp->tail = &c->next;
	}
	g->cdp->pending++;
	pthread_mutex_unlock(&cdp_lock);
	return 0;
}

int exec_cdp(struct warp *w, const struct dinsn *in, uint32_t pc,
	     uint32_t mask)
{
	/*
	 * Every operand is optional in the table (GET_ERROR has no source,
	 * SET_ERROR no destination): an absent one reads 0 and an absent
	 * destination is dropped, never a register row out of range.
	 */
	static const uint64_t zero[WARP_SIZE];
	uint64_t sink[WARP_SIZE];
	const uint64_t *a = in->a != VISA_OPND_NONE || in->lit[0] ?
			    src_row(w, in, 0, in->a) : zero;
	const uint64_t *b = in->b != VISA_OPND_NONE || in->lit[1] ?
			    src_row(w, in, 1, in->b) : zero;
	uint64_t *d = in->d != VISA_OPND_NONE ? reg_row(w, in->d) : sink;
	uint32_t sub = VISA_MOD_SUB(in->mod);

	for (int l = 0; l < WARP_SIZE; l++) {
		int k, err;

		if (!((mask >> l) & 1))
			continue;
		switch (sub) {
		case VISA_CDP_PSIZE:
			k = kernel_of(w->blk->g->mod, a[l]);
			if (k < 0) {
				w->cdp_err[l] = VISA_CDP_ERR_INVALID_DEVICE_FUNCTION;
				d[l] = ~0ull;
			} else {
				d[l] = vgpu_core_module_kernel(w->blk->g->mod,
						(unsigned int)k)->param_size;
			}
			break;
		case VISA_CDP_LAUNCH:
			err = cdp_launch(w, pc, l, a[l], b[l]);
			if (err < 0)
				return EXEC_FAULT;
			if (err)
				w->cdp_err[l] = (uint32_t)err;
			d[l] = (uint64_t)err;
			break;
		case VISA_CDP_GET_ERROR:
			d[l] = w->cdp_err[l];
			w->cdp_err[l] = 0;
			break;
		case VISA_CDP_PEEK_ERROR:
			d[l] = w->cdp_err[l];
			break;
		default:	/* SET_ERROR: the validator allows no other */
			if (a[l])
				w->cdp_err[l] = (uint32_t)a[l];
			d[l] = a[l];
			break;
		}
	}
	return EXEC_OK;
}
