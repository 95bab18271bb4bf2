// SPDX-License-Identifier: GPL-2.0
/*
 * exec_cluster.c - what a cooperative launch and a thread-block cluster
 * give a kernel: the %envreg registers (where the cooperative groups
 * headers find the grid-sync workspace), the cluster special registers,
 * MAPA (addresses in another block's shared memory) and the cluster
 * barrier.  Which blocks form a cluster and how they become resident
 * together is dispatch.c's ("gangs"); Documentation/cooperative-groups.rst
 * tells the whole story.
 *
 * The cluster barrier counts threads, as barrier.cluster does: a phase
 * completes when every thread of the cluster that has not exited arrived
 * (threads that exit count as arrived from then on).  A warp that waits
 * for a phase to complete yields and tries again at its next turn: the
 * other blocks of its cluster run on other SM threads, so there is
 * nothing to sleep on within the SM.
 */
#include <stdlib.h>

#include "core_internal.h"

static uint32_t popc(uint32_t x)
{
	return (uint32_t)__builtin_popcount(x);
}

uint64_t cluster_sreg(const struct block *b, uint32_t id)
{
	static const uint32_t one[3] = { 1, 1, 1 };
	const struct grid *g = b->g;
	const struct vgpu_core_launch *l = g->l;
	const uint32_t *c = l->cluster[0] ? l->cluster : one;

	if (id >= VISA_SREG_ENVREG0 && id < VISA_SREG_ENVREG0 + 32) {
		if (id == VISA_SREG_ENVREG0 + 1)
			return l->grid_sync_va >> 32;
		if (id == VISA_SREG_ENVREG0 + 2)
			return (uint32_t)l->grid_sync_va;
		return 0;
	}
	switch (id) {
	case VISA_SREG_CLUSTERID_X:
	case VISA_SREG_CLUSTERID_Y:
	case VISA_SREG_CLUSTERID_Z:
		return b->cl_id[id - VISA_SREG_CLUSTERID_X];
	case VISA_SREG_NCLUSTERID_X:
	case VISA_SREG_NCLUSTERID_Y:
	case VISA_SREG_NCLUSTERID_Z:
		return g->ncl[id - VISA_SREG_NCLUSTERID_X];
	case VISA_SREG_CLUSTER_CTAID_X:
	case VISA_SREG_CLUSTER_CTAID_Y:
	case VISA_SREG_CLUSTER_CTAID_Z:
		return b->cl_idx[id - VISA_SREG_CLUSTER_CTAID_X];
	case VISA_SREG_CLUSTER_NCTAID_X:
	case VISA_SREG_CLUSTER_NCTAID_Y:
	case VISA_SREG_CLUSTER_NCTAID_Z:
		return c[id - VISA_SREG_CLUSTER_NCTAID_X];
	case VISA_SREG_CLUSTER_CTARANK:
		return b->cl_rank;
	case VISA_SREG_CLUSTER_NCTARANK:
		return g->csize;
	case VISA_SREG_IS_EXPLICIT_CLUSTER:
		return l->cluster[0] != 0;
	}
	return 0;
}

/*
 * Shared memory of block @rank of @w's cluster at SHARED-space address
 * @addr (VISA_SHARED_CLUSTER_BIT set), or NULL.  The program must have
 * synchronised the cluster before (all its blocks started) and must do
 * so before the target block exits, as CUDA requires; a block that is
 * not set up yet is refused rather than read.
 */
uint8_t *cluster_shared(struct warp *w, uint64_t addr, uint32_t size)
{
	const struct block *b = w->blk, *t;
	uint32_t rank = VISA_SHARED_CLUSTER_RANK(addr);
	uint64_t off = addr & VISA_SHARED_CLUSTER_OFFSET;

	if (addr > UINT32_MAX || rank >= b->g->csize)
		return NULL;
	t = b->cl ? b->cl->blocks[rank] : b;
	if (!t || !__atomic_load_n(&t->ready, __ATOMIC_ACQUIRE) ||
	    off + size > b->g->shared_size)
		return NULL;
	return t->shared + off;
}

/* A block that is a cluster of one gets its barrier state when it first
 * uses it (only its own SM thread can see it). */
static struct cluster *cluster_of(struct block *b)
{
	struct cluster *cl;
	uint32_t live = 0;

	if (b->cl)
		return b->cl;
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return NULL;
	for (uint32_t i = 0; i < b->nwarps; i++)
		live += popc(b->warps[i].live);
	pthread_mutex_init(&cl->lock, NULL);
	cl->blocks[0] = b;
	cl->size = 1;
	cl->resident = 1;
	cl->pending = cl->live = live;
	b->cl = cl;
	return cl;
}

/* Under cl->lock: the lanes of @w that arrived in the running phase. */
static uint32_t arrived_now(struct warp *w, struct cluster *cl)
{
	if (w->cl_phase != atomic_load(&cl->phase)) {
		w->cl_phase = atomic_load(&cl->phase);
		w->cl_arrived = 0;
	}
	return w->cl_arrived;
}

/* Under cl->lock: start the next phase once nobody is missing. */
static void phase_check(struct cluster *cl)
{
	if (cl->pending)
		return;
	cl->pending = cl->live;
	atomic_fetch_add(&cl->phase, 1);
}

void cluster_lanes_exit(struct warp *w, uint32_t mask)
{
	struct cluster *cl = w->blk->cl;
	uint32_t gone = mask & w->live;

	if (!cl || !gone)
		return;
	pthread_mutex_lock(&cl->lock);
	cl->live -= popc(gone);
	cl->pending -= popc(gone & ~arrived_now(w, cl));
	phase_check(cl);
	pthread_mutex_unlock(&cl->lock);
}

static int mapa_fault(struct warp *w, uint32_t pc, int lane, uint64_t a,
		      const char *msg)
{
	core_record_fault(w->blk->g, w, lane, pc, VISA_FAULT_OUT_OF_RANGE, a,
			  msg);
	return EXEC_FAULT;
}

static int exec_mapa(struct warp *w, const struct dinsn *in, uint32_t pc,
		     uint32_t mask)
{
	const uint64_t *a = src_row(w, in, 0, in->a);
	const uint64_t *r = in->b == VISA_OPND_NONE ? NULL :
			    src_row(w, in, 1, in->b);
	uint64_t *d = reg_row(w, in->d);
	bool generic = in->type == VISA_T_U64 || in->type == VISA_T_B64;
	uint32_t csize = w->blk->g->csize;

	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t addr = a[l];

		if (!((mask >> l) & 1))
			continue;
		if (generic) {
			addr -= VISA_GENERIC_SHARED_BASE;
			if (addr >= VISA_GENERIC_WINDOW_SIZE)
				return mapa_fault(w, pc, l, a[l],
						  "mapa: not a shared memory address");
		}
		addr = (uint32_t)addr;
		if (VISA_MOD_SUB(in->mod) == VISA_MAPA_RANK) {
			d[l] = addr & VISA_SHARED_CLUSTER_BIT ?
			       VISA_SHARED_CLUSTER_RANK(addr) :
			       w->blk->cl_rank;
			continue;
		}
		if (!r || r[l] >= csize)
			return mapa_fault(w, pc, l, a[l],
					  "mapa: rank outside the cluster");
		addr = VISA_SHARED_CLUSTER_ADDR(r[l], addr);
		d[l] = generic ? VISA_GENERIC_SHARED_BASE + addr : addr;
	}
	return EXEC_OK;
}

static int exec_bar_cluster(struct warp *w, const struct dinsn *in,
			    uint32_t pc, uint32_t mask)
{
	struct cluster *cl = cluster_of(w->blk);
	uint32_t fresh;

	if (!cl) {
		core_record_fault(w->blk->g, w, __builtin_ctz(mask), pc,
				  VISA_FAULT_OUT_OF_RESOURCES, 0,
				  "out of host memory for a cluster barrier");
		return EXEC_FAULT;
	}
	pthread_mutex_lock(&cl->lock);
	fresh = mask & ~arrived_now(w, cl);
	if (VISA_MOD_SUB(in->mod) == VISA_BAR_CLUSTER_ARRIVE) {
		w->cl_arrived |= fresh;
		cl->pending -= popc(fresh);
		phase_check(cl);
		pthread_mutex_unlock(&cl->lock);
		return EXEC_OK;
	}
	/* WAIT: done once the phase the lanes arrived in has completed */
	if (!(mask & w->cl_arrived)) {
		pthread_mutex_unlock(&cl->lock);
		return EXEC_OK;
	}
	pthread_mutex_unlock(&cl->lock);
	w->rs[w->rs_n - 1].pc = pc;	/* run the wait again next turn */
	return EXEC_YIELD;
}

int exec_cluster(struct warp *w, const struct dinsn *in, uint32_t pc,
		 uint32_t mask)
{
	if (in->op == VISA_OP_MAPA)
		return exec_mapa(w, in, pc, mask);
	return exec_bar_cluster(w, in, pc, mask);
}
