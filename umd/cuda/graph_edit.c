// SPDX-License-Identifier: GPL-2.0
/*
 * graph_edit.c - changing a graph, or an executable graph, after it is
 * made: nodes and edges taken away, node parameters set again, nodes of
 * an executable graph turned off and on.
 *
 *   a graph                         an executable graph (its own copies)
 *   ---------------------------     ---------------------------------------
 *   cuGraphDestroyNode              cuGraphExec{Kernel,Memcpy,Memset,Host}-
 *   cuGraphRemoveDependencies         NodeSetParams
 *   cuGraph{Memcpy,Memset,Host}-    cuGraphExecChildGraphNodeSetParams
 *     NodeSetParams                 cuGraphExecEvent{Record,Wait}NodeSetEvent
 *   cuGraphNodeSetParams            cuGraphExecNodeSetParams
 *                                   cuGraphNodeSetEnabled / GetEnabled
 *
 * Every call checks all of its arguments before it changes anything, so
 * a refused call leaves the graph as it was.  The answers are an H100's
 * (tools/cuda-probe/probe_graph_edit.c, golden/probe_graph_edit.h100.txt):
 * an edge that does not exist, a node of another type, a NULL
 * parameter struct are CUDA_ERROR_INVALID_VALUE; an executable graph's
 * node is named by the graph node it was instantiated from, and one
 * added after instantiation is not there (INVALID_VALUE).  An executable
 * copy's memory types cannot change, its addresses, sizes and memset
 * value and element size can; a child graph of another shape is
 * CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, as from cuGraphExecUpdate.
 * Only kernel, memcpy and memset nodes can be disabled; a disabled node
 * keeps ordering its dependents, like an empty node (graph_launch.c).
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "handles.h"

/* ---- CUgraphNodeParams, shared with cuGraphAddNode (graph.c) ------------- */

void cu_kernel_params_of(const CUgraphNodeParams *p,
			 CUDA_KERNEL_NODE_PARAMS *k)
{
	memset(k, 0, sizeof(*k));
	k->func = p->kernel.func;
	k->gridDimX = p->kernel.gridDimX;
	k->gridDimY = p->kernel.gridDimY;
	k->gridDimZ = p->kernel.gridDimZ;
	k->blockDimX = p->kernel.blockDimX;
	k->blockDimY = p->kernel.blockDimY;
	k->blockDimZ = p->kernel.blockDimZ;
	k->sharedMemBytes = p->kernel.sharedMemBytes;
	k->kernelParams = p->kernel.kernelParams;
	k->extra = p->kernel.extra;
	k->kern = p->kernel.kern;
	k->ctx = p->kernel.ctx;
}

void cu_memset_params_of(const CUgraphNodeParams *p,
			 CUDA_MEMSET_NODE_PARAMS *m)
{
	memset(m, 0, sizeof(*m));
	m->dst = p->memset.dst;
	m->pitch = p->memset.pitch;
	m->value = p->memset.value;
	m->elementSize = p->memset.elementSize;
	m->width = p->memset.width;
	m->height = p->memset.height;
}

void cu_host_params_of(const CUgraphNodeParams *p, CUDA_HOST_NODE_PARAMS *h)
{
	h->fn = p->host.fn;
	h->userData = p->host.userData;
}

/* The reserved fields of a CUgraphNodeParams are zero (H100: else 1). */
static bool cu_node_params_reserved_ok(const CUgraphNodeParams *p)
{
	return !p->reserved0[0] && !p->reserved0[1] && !p->reserved0[2] &&
	       !p->reserved2;
}

/* ---- nodes and edges ------------------------------------------------------ */

/* Drop every edge from @d in @n's dependencies. */
static void cu_node_drop_dep(struct cu_graph_node *n,
			     const struct cu_graph_node *d)
{
	size_t i, k = 0;

	for (i = 0; i < n->num_deps; i++)
		if (n->deps[i] != d)
			n->deps[k++] = n->deps[i];
	n->num_deps = k;
}

/*
 * A node goes with its edges, both ways.  The nodes after it move up one
 * place: a node's index is its place in the graph, which clones and
 * cuGraphExecUpdate pair nodes by.
 */
CU_EXPORT CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode)
{
	struct cu_graph_node *n = (struct cu_graph_node *)hNode;
	struct cu_graph *g;
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_node_valid(n))
		return CUDA_ERROR_INVALID_VALUE;
	g = n->graph;
	for (i = n->index + 1; i < g->num_nodes; i++) {
		g->nodes[i - 1] = g->nodes[i];
		g->nodes[i - 1]->index = i - 1;
	}
	g->num_nodes--;
	for (i = 0; i < g->num_nodes; i++)
		cu_node_drop_dep(g->nodes[i], n);
	cu_handle_remove(n, CU_HANDLE_GRAPH_NODE);
	cu_graph_node_free_params(n);
	free(n->deps);
	n->magic = CU_DEAD_MAGIC;
	free(n);
	return CUDA_SUCCESS;
}

static bool cu_has_dep(const struct cu_graph_node *n,
		       const struct cu_graph_node *d)
{
	size_t i;

	for (i = 0; i < n->num_deps; i++)
		if (n->deps[i] == d)
			return true;
	return false;
}

/*
 * Take away the edges from[i] -> to[i], in order.  An edge that does not
 * exist is CUDA_ERROR_INVALID_VALUE, and the edges before it are gone
 * already: an H100 removed a present edge named before an absent one
 * although the call failed (probe_graph_edit.h100.txt).  Nodes that are
 * not of the graph and edge data other than the default (as for
 * cuGraphAddDependencies) are refused before anything changes.
 */
CU_EXPORT CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph,
		const CUgraphNode *from, const CUgraphNode *to,
		const CUgraphEdgeData *edgeData, size_t numDependencies)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	static const CUgraphEdgeData none;
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g) || (numDependencies && (!from || !to)))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < numDependencies; i++) {
		struct cu_graph_node *a = (struct cu_graph_node *)from[i];
		struct cu_graph_node *b = (struct cu_graph_node *)to[i];

		if (edgeData && memcmp(&edgeData[i], &none, sizeof(none)))
			return CUDA_ERROR_NOT_SUPPORTED;
		if (!cu_graph_node_valid(a) || !cu_graph_node_valid(b) ||
		    a->graph != g || b->graph != g)
			return CUDA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < numDependencies; i++) {
		struct cu_graph_node *a = (struct cu_graph_node *)from[i];
		struct cu_graph_node *b = (struct cu_graph_node *)to[i];

		if (!cu_has_dep(b, a))
			return CUDA_ERROR_INVALID_VALUE;
		cu_node_drop_dep(b, a);
	}
	return CUDA_SUCCESS;
}

/* ---- parameters of a graph's nodes ------------------------------------------ */

/*
 * Set the parameters of a memcpy, memset, host or event node @n: checked
 * in a scratch node first, so that a refusal changes nothing.  These
 * types own nothing, so the scratch node's parameters are taken as they
 * are.  A memcpy keeps its context.
 */
static CUresult cu_plain_node_set(struct cu_graph_node *n, const void *params)
{
	struct cu_graph_node t = { .type = n->type };
	CUresult res;

	res = cu_graph_node_set_params(&t, params, n->type ==
				       CU_GRAPH_NODE_TYPE_MEMCPY ?
				       n->u.memcpy.ctx : NULL);
	if (res == CUDA_SUCCESS)
		n->u = t.u;
	return res;
}

static CUresult cu_graph_node_set(CUgraphNode h, CUgraphNodeType type,
				  const void *params)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, type, params, &n);

	if (res != CUDA_SUCCESS)
		return res;
	return cu_plain_node_set(n, params);
}

CU_EXPORT CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode,
		const CUDA_MEMCPY3D *nodeParams)
{
	return cu_graph_node_set(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphMemsetNodeSetParams(CUgraphNode hNode,
		const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
	return cu_graph_node_set(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode,
		const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	return cu_graph_node_set(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams);
}

/*
 * A child graph node takes a copy of @child in place of its own (the
 * H100 accepts it; probe_graph_edit.h100.txt).  As when the node is
 * added, a graph with memory nodes cannot be a child.
 */
static CUresult cu_child_node_set(struct cu_graph_node *n,
				  struct cu_graph *child)
{
	struct cu_graph *copy;
	CUresult res;

	if (!cu_graph_valid(child))
		return CUDA_ERROR_INVALID_VALUE;
	if (child == n->u.child)
		return CUDA_SUCCESS;
	for (size_t i = 0; i < child->num_nodes; i++)
		if (child->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
		    child->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
			return CUDA_ERROR_NOT_SUPPORTED;
	res = cu_graph_clone(child, &copy, false);
	if (res != CUDA_SUCCESS)
		return res;
	copy->owner = n;
	cu_graph_free(n->u.child);
	n->u.child = copy;
	return CUDA_SUCCESS;
}

/*
 * The generic setter (CUDA 12.2): @nodeParams->type must be the node's.
 * Kernel, memcpy, memset, host, event, child graph and empty nodes; the
 * others' parameters cannot change (CUDA_ERROR_NOT_SUPPORTED, chosen:
 * not recorded).
 */
CU_EXPORT CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode,
		CUgraphNodeParams *nodeParams)
{
	struct cu_graph_node *n = (struct cu_graph_node *)hNode;
	CUDA_KERNEL_NODE_PARAMS k;
	CUDA_MEMSET_NODE_PARAMS m;
	CUDA_HOST_NODE_PARAMS h;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!nodeParams || !cu_graph_node_valid(n) ||
	    nodeParams->type != n->type ||
	    !cu_node_params_reserved_ok(nodeParams))
		return CUDA_ERROR_INVALID_VALUE;
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		cu_kernel_params_of(nodeParams, &k);
		return cuGraphKernelNodeSetParams(hNode, &k);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuGraphMemcpyNodeSetParams(hNode,
						  &nodeParams->memcpy.copyParams);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		cu_memset_params_of(nodeParams, &m);
		return cuGraphMemsetNodeSetParams(hNode, &m);
	case CU_GRAPH_NODE_TYPE_HOST:
		cu_host_params_of(nodeParams, &h);
		return cuGraphHostNodeSetParams(hNode, &h);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphEventRecordNodeSetEvent(hNode,
					nodeParams->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphEventWaitNodeSetEvent(hNode,
					nodeParams->eventWait.event);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return cu_child_node_set(n, (struct cu_graph *)
					 nodeParams->graph.graph);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cu_extsem_generic(NULL, NULL, NULL, hNode, NULL, 0,
					 nodeParams);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

/* ---- an executable graph's nodes ------------------------------------------------ */

/*
 * The executable copy of graph node @h in @hExec, of type @type (any
 * type: @type < 0), with @e's launch lock held on success: a launch in
 * another thread never sees half a change.  @arg: what the call reads,
 * which must not be NULL.
 */
CUresult cu_exec_node_lock(CUgraphExec hExec, CUgraphNode h, int type,
			   const void *arg, struct cu_graph_exec **pe,
			   struct cu_graph_node **out)
{
	struct cu_graph_exec *e = cu_exec_of(hExec);
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!e || !arg || !cu_graph_node_valid((struct cu_graph_node *)h))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < e->num_nodes; i++) {
		if (e->origin[i] != (struct cu_graph_node *)h)
			continue;
		if (type >= 0 && e->nodes[i].type != (CUgraphNodeType)type)
			return CUDA_ERROR_INVALID_VALUE;
		pthread_mutex_lock(&e->launch_lock);
		*pe = e;
		*out = &e->nodes[i];
		return CUDA_SUCCESS;
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/*
 * What may change in an executable memcpy or memset node (@x, to take
 * @params): a copy's memory types cannot (H100); a 2D memset cannot
 * change at all, as for cuGraphExecUpdate (graph_update.c; chosen from
 * CUDA's documentation).
 */
static bool cu_exec_change_ok(const struct cu_graph_node *x,
			      const struct cu_graph_node *t)
{
	switch (x->type) {
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return x->u.memcpy.p.srcMemoryType ==
			t->u.memcpy.p.srcMemoryType &&
		       x->u.memcpy.p.dstMemoryType ==
			t->u.memcpy.p.dstMemoryType;
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return (x->u.memset.height <= 1 && t->u.memset.height <= 1) ||
		       !memcmp(&x->u.memset, &t->u.memset,
			       sizeof(x->u.memset));
	default:
		return true;
	}
}

/* The memcpy, memset, host and event setters of an executable graph. */
static CUresult cu_exec_plain_set(CUgraphExec hExec, CUgraphNode h,
				  CUgraphNodeType type, const void *params)
{
	struct cu_graph_node *x, t = { .type = type };
	struct cu_graph_exec *e;
	CUresult res = cu_exec_node_lock(hExec, h, type, params, &e, &x);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_graph_node_set_params(&t, params, type ==
				       CU_GRAPH_NODE_TYPE_MEMCPY ?
				       x->u.memcpy.ctx : NULL);
	if (res == CUDA_SUCCESS && !cu_exec_change_ok(x, &t))
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS)
		x->u = t.u;
	pthread_mutex_unlock(&e->launch_lock);
	return res;
}

/* @hCtx: the context the copy runs in, which is the executable graph's. */
CU_EXPORT CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(
		CUgraphExec hGraphExec, CUgraphNode hNode,
		const CUDA_MEMCPY3D *copyParams, CUcontext hCtx)
{
	(void)hCtx;
	return cu_exec_plain_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
				 copyParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(
		CUgraphExec hGraphExec, CUgraphNode hNode,
		const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext hCtx)
{
	(void)hCtx;
	return cu_exec_plain_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET,
				 memsetParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecHostNodeSetParams(
		CUgraphExec hGraphExec, CUgraphNode hNode,
		const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	return cu_exec_plain_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST,
				 nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(
		CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
	return cu_exec_plain_set(hGraphExec, hNode,
				 CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(
		CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
	return cu_exec_plain_set(hGraphExec, hNode,
				 CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
}

/*
 * A child graph node of an executable graph takes the parameters of
 * @childGraph, which must have the shape of the child it was made with
 * (cuGraphExecUpdate's rules, applied to the node's executable child).
 */
CU_EXPORT CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(
		CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
	struct cu_graph *child = (struct cu_graph *)childGraph;
	struct cu_graph_exec *e;
	struct cu_graph_node *x;
	CUresult res;

	if (!cu_graph_valid(child))
		return cu_initialized() != CUDA_SUCCESS ? cu_initialized() :
		       CUDA_ERROR_INVALID_VALUE;
	res = cu_exec_node_lock(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_GRAPH,
				child, &e, &x);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_graph_exec_update_from(x->sub[0], child);
	pthread_mutex_unlock(&e->launch_lock);
	return res;
}

/* The generic setter of an executable graph's node (CUDA 12.2). */
CU_EXPORT CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec,
		CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
	CUDA_KERNEL_NODE_PARAMS k;
	CUDA_MEMSET_NODE_PARAMS m;
	CUDA_HOST_NODE_PARAMS h;
	CUgraphNodeType type;
	CUresult res;

	res = cuGraphNodeGetType(hNode, &type);
	if (res != CUDA_SUCCESS)
		return res;
	if (!nodeParams || !cu_exec_of(hGraphExec) ||
	    nodeParams->type != type ||
	    !cu_node_params_reserved_ok(nodeParams))
		return CUDA_ERROR_INVALID_VALUE;
	switch (type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		cu_kernel_params_of(nodeParams, &k);
		return cuGraphExecKernelNodeSetParams(hGraphExec, hNode, &k);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuGraphExecMemcpyNodeSetParams(hGraphExec, hNode,
				&nodeParams->memcpy.copyParams,
				nodeParams->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		cu_memset_params_of(nodeParams, &m);
		return cuGraphExecMemsetNodeSetParams(hGraphExec, hNode, &m,
						      nodeParams->memset.ctx);
	case CU_GRAPH_NODE_TYPE_HOST:
		cu_host_params_of(nodeParams, &h);
		return cuGraphExecHostNodeSetParams(hGraphExec, hNode, &h);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return cuGraphExecChildGraphNodeSetParams(hGraphExec, hNode,
						nodeParams->graph.graph);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode,
					nodeParams->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode,
					nodeParams->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cu_extsem_generic(NULL, NULL, hGraphExec, hNode, NULL,
					 0, nodeParams);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

/* ---- enabling and disabling -------------------------------------------------- */

static bool cu_can_disable(CUgraphNodeType t)
{
	return t == CU_GRAPH_NODE_TYPE_KERNEL ||
	       t == CU_GRAPH_NODE_TYPE_MEMCPY ||
	       t == CU_GRAPH_NODE_TYPE_MEMSET;
}

CU_EXPORT CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec hGraphExec,
		CUgraphNode hNode, unsigned int isEnabled)
{
	struct cu_graph_exec *e;
	struct cu_graph_node *x;
	CUresult res = cu_exec_node_lock(hGraphExec, hNode, -1, hNode, &e, &x);

	if (res != CUDA_SUCCESS)
		return res;
	if (cu_can_disable(x->type))
		x->disabled = !isEnabled;
	else
		res = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&e->launch_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphNodeGetEnabled(CUgraphExec hGraphExec,
		CUgraphNode hNode, unsigned int *isEnabled)
{
	struct cu_graph_exec *e;
	struct cu_graph_node *x;
	CUresult res = cu_exec_node_lock(hGraphExec, hNode, -1, isEnabled, &e,
					 &x);

	if (res != CUDA_SUCCESS)
		return res;
	if (cu_can_disable(x->type))
		*isEnabled = !x->disabled;
	else
		res = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&e->launch_lock);
	return res;
}
