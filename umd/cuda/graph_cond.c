// SPDX-License-Identifier: GPL-2.0
/*
 * graph_cond.c - conditional nodes: IF, WHILE and SWITCH over body
 * graphs, decided by a value that kernels set on the device.
 *
 * A conditional handle is a 32-bit cell.  Kernels set it with the device
 * runtime's cudaGraphSetConditional(handle, value), which in vGPU's
 * devrt.ptx is a single store: the handle's value *is* the cell's device
 * address.  The cell lives in mapped pinned memory, so the host reads the
 * same bytes without a copy.
 *
 *   graph:   [kernel A] ---> [WHILE h] ---> [kernel C]
 *                              |   ^
 *                        body: |   | cudaGraphSetConditional(h, v)
 *                              v   |
 *                            [kernel B]
 *
 * An H100 decides on the device.  vGPU decides on the host, in the
 * thread that launches the graph: when cuGraphLaunch reaches a
 * conditional node it waits until everything the node depends on is
 * done, reads the cell and submits the chosen body (an executable graph
 * of its own, made at instantiation) on the node's lane; a WHILE node
 * waits for the body and reads the cell again, as long as it is not 0.
 * The nodes after the conditional are submitted behind the last body, so
 * the order is CUDA's; the price is that cuGraphLaunch returns only once
 * the graph's last condition has been decided.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "handles.h"

/*
 * Handles' and conditional nodes' references (graph building is single-
 * threaded, but executable graphs may be destroyed on any thread), and
 * the live handles: a conditional node may use a handle made for another
 * graph (an H100 accepts it: probe_graphs.h100.txt).
 */
static pthread_mutex_t cu_cond_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_graph_cond **cu_conds;
static size_t cu_num_conds, cu_conds_cap;

void cu_cond_get(struct cu_graph_cond *c)
{
	pthread_mutex_lock(&cu_cond_lock);
	c->refs++;
	pthread_mutex_unlock(&cu_cond_lock);
}

void cu_cond_put(struct cu_graph_cond *c)
{
	unsigned int left;

	size_t i;

	pthread_mutex_lock(&cu_cond_lock);
	left = --c->refs;
	for (i = 0; !left && i < cu_num_conds; i++) {
		if (cu_conds[i] == c) {
			cu_conds[i] = cu_conds[--cu_num_conds];
			break;
		}
	}
	pthread_mutex_unlock(&cu_cond_lock);
	if (left)
		return;
	cuMemFreeHost(c->cell);
	free(c);
}

struct cu_graph_cond *cu_cond_lookup(CUgraphConditionalHandle h)
{
	struct cu_graph_cond *c = NULL;
	size_t i;

	pthread_mutex_lock(&cu_cond_lock);
	for (i = 0; i < cu_num_conds && !c; i++)
		if (cu_conds[i]->dptr == h)
			c = cu_conds[i];
	pthread_mutex_unlock(&cu_cond_lock);
	return c;
}

/* Enter @c in the list of live handles. */
static CUresult cu_cond_register(struct cu_graph_cond *c)
{
	struct cu_graph_cond **v;
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&cu_cond_lock);
	if (cu_num_conds == cu_conds_cap) {
		size_t cap = cu_conds_cap ? cu_conds_cap * 2 : 8;

		v = realloc(cu_conds, cap * sizeof(*v));
		if (v) {
			cu_conds = v;
			cu_conds_cap = cap;
		}
	}
	if (cu_num_conds < cu_conds_cap)
		cu_conds[cu_num_conds++] = c;
	else
		res = CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_unlock(&cu_cond_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphConditionalHandleCreate(
		CUgraphConditionalHandle *pHandle_out, CUgraph hGraph,
		CUcontext ctx, unsigned int defaultLaunchValue,
		unsigned int flags)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	struct cu_graph_cond *c, **v;
	CUcontext prev;
	void *cell;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pHandle_out || !cu_graph_valid(g) ||
	    (flags & ~(unsigned int)CU_GRAPH_COND_ASSIGN_DEFAULT))
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_ctx_valid((struct cu_ctx *)ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	c = calloc(1, sizeof(*c));
	v = realloc(g->conds, (g->num_conds + 1) * sizeof(*v));
	if (!c || !v) {
		free(c);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	g->conds = v;
	/* The cell is mapped into @ctx, which need not be current. */
	res = cuCtxPushCurrent(ctx);
	if (res != CUDA_SUCCESS) {
		free(c);
		return res;
	}
	res = cuMemHostAlloc(&cell, sizeof(uint32_t),
			     CU_MEMHOSTALLOC_DEVICEMAP |
			     CU_MEMHOSTALLOC_PORTABLE);
	if (res == CUDA_SUCCESS) {
		res = cuMemHostGetDevicePointer(&c->dptr, cell, 0);
		if (res != CUDA_SUCCESS)
			cuMemFreeHost(cell);
	}
	cuCtxPopCurrent(&prev);
	if (res != CUDA_SUCCESS) {
		free(c);
		return res;
	}
	c->cell = cell;
	/* Without ASSIGN_DEFAULT the value is the default until set. */
	*c->cell = defaultLaunchValue;
	c->default_value = defaultLaunchValue;
	c->flags = flags;
	c->graph = g;
	c->refs = 1;
	res = cu_cond_register(c);
	if (res != CUDA_SUCCESS) {
		cuMemFreeHost(cell);
		free(c);
		return res;
	}
	g->conds[g->num_conds++] = c;
	*pHandle_out = c->dptr;
	return CUDA_SUCCESS;
}

/*
 * A conditional node's parameters: a live handle, a type and a number of
 * bodies that fit it, a context; the node gets that many new, empty body
 * graphs.
 */
CUresult cu_cond_node_set(struct cu_graph_node *n,
			  const CUDA_CONDITIONAL_NODE_PARAMS *p)
{
	struct cu_graph_cond *c = cu_cond_lookup(p->handle);
	unsigned int i;
	CUresult res;

	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case CU_GRAPH_COND_TYPE_IF:
		if (p->size != 1 && p->size != 2)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_GRAPH_COND_TYPE_WHILE:
		if (p->size != 1)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_GRAPH_COND_TYPE_SWITCH:
		if (!p->size)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!cu_ctx_valid((struct cu_ctx *)p->ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	n->u.cond.type = p->type;
	n->u.cond.size = p->size;
	n->u.cond.ctx = p->ctx;
	n->u.cond.body = calloc(p->size, sizeof(*n->u.cond.body));
	if (!n->u.cond.body)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < p->size; i++) {
		res = cu_graph_new(&n->u.cond.body[i]);
		if (res != CUDA_SUCCESS)
			return res;	/* freed with the node */
		n->u.cond.body[i]->owner = n;
	}
	cu_cond_get(c);
	n->u.cond.cond = c;
	return CUDA_SUCCESS;
}

CUresult cu_cond_assign_defaults(const struct cu_graph_exec *e, CUstream h)
{
	CUresult res = CUDA_SUCCESS;
	size_t i;

	for (i = 0; i < e->num_conds && res == CUDA_SUCCESS; i++)
		if (e->conds[i]->flags & CU_GRAPH_COND_ASSIGN_DEFAULT)
			res = cuMemsetD32Async(e->conds[i]->dptr,
					       e->conds[i]->default_value, 1,
					       h);
	return res;
}

/* Wait until everything queued on @s so far is done. */
static CUresult cu_cond_wait(struct cu_stream *s)
{
	struct cu_point p;

	pthread_mutex_lock(&s->ctx->lock);
	p = s->last;
	pthread_mutex_unlock(&s->ctx->lock);
	return cu_point_wait(s->ctx, &p);
}

/* The body to run for @value, or -1 for none. */
static int cu_cond_pick(const struct cu_cond_node *c, uint32_t value)
{
	switch (c->type) {
	case CU_GRAPH_COND_TYPE_IF:
		return value ? 0 : c->size == 2 ? 1 : -1;
	case CU_GRAPH_COND_TYPE_SWITCH:
		return value < c->size ? (int)value : -1;
	default:	/* WHILE */
		return value ? 0 : -1;
	}
}

CUresult cu_cond_launch(const struct cu_graph_node *n, struct cu_stream *s,
			CUstream h)
{
	const struct cu_cond_node *c = &n->u.cond;
	CUresult res;
	uint32_t value;
	int body;

	for (;;) {
		/* The node's dependencies (or the last body) are done. */
		res = cu_cond_wait(s);
		if (res != CUDA_SUCCESS)
			return res;
		value = __atomic_load_n(c->cond->cell, __ATOMIC_ACQUIRE);
		body = cu_cond_pick(c, value);
		if (body < 0 || (size_t)body >= n->num_sub)
			return CUDA_SUCCESS;
		res = cu_graph_exec_launch(n->sub[body], s, h);
		if (res != CUDA_SUCCESS || c->type != CU_GRAPH_COND_TYPE_WHILE)
			return res;
	}
}
