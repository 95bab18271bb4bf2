// SPDX-License-Identifier: GPL-2.0
/*
 * graph_exec.c - executable graphs: cuGraphInstantiate, cuGraphLaunch.
 *
 * Instantiation snapshots the graph: every node is copied (with its own
 * copy of the kernel arguments), in a topological order found by Kahn's
 * algorithm, which is also where a cycle shows - no order exists and the
 * graph is refused.  Later changes to the graph do not affect the
 * executable graph, as CUDA promises.
 *
 * cuGraphLaunch (graph_launch.c) then submits the copies in that order.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "handles.h"

#define CU_INSTANTIATE_FLAGS_OK	(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | \
				 CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD | \
				 CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | \
				 CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)

/*
 * Kahn's algorithm: @order receives the nodes of @g, each after all of
 * its dependencies.  False if @g has a cycle.
 */
static bool cu_graph_topo_sort(const struct cu_graph *g,
			       struct cu_graph_node **order)
{
	size_t n = g->num_nodes, done = 0, i, j, k;
	size_t *missing = calloc(n ? n : 1, sizeof(*missing));
	bool ok;

	if (!missing)
		return false;
	/* missing[i]: dependencies of node i not yet placed. */
	for (i = 0; i < n; i++)
		missing[i] = g->nodes[i]->num_deps;
	for (i = 0; i < n; i++)
		if (!missing[i])
			order[done++] = g->nodes[i];
	/* Placing order[k] releases the nodes that wait for it. */
	for (k = 0; k < done; k++) {
		for (i = 0; i < n; i++) {
			const struct cu_graph_node *m = g->nodes[i];

			for (j = 0; j < m->num_deps; j++)
				if (m->deps[j] == order[k] && !--missing[i])
					order[done++] = g->nodes[i];
		}
	}
	ok = done == n;
	free(missing);
	return ok;
}

/*
 * The edges in terms of positions in the order, which is how a launch
 * looks them up: node i's dependencies are dep[dep_first[i]] to
 * dep[dep_first[i + 1] - 1].
 */
static CUresult cu_exec_edges(struct cu_graph_exec *e)
{
	size_t n = e->num_nodes, edges = 0, i, j;
	size_t *pos = malloc((n ? n : 1) * sizeof(*pos));
	size_t *fanout = calloc(n ? n : 1, sizeof(*fanout));

	for (i = 0; i < n; i++)
		edges += e->origin[i]->num_deps;
	e->dep_first = malloc((n + 1) * sizeof(*e->dep_first));
	e->dep = malloc((edges ? edges : 1) * sizeof(*e->dep));
	e->publish = calloc(n ? n : 1, sizeof(*e->publish));
	if (!pos || !fanout || !e->dep_first || !e->dep || !e->publish) {
		free(pos);
		free(fanout);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* pos[k]: where graph node k (g->nodes[k]) is in the order. */
	for (i = 0; i < n; i++)
		pos[e->origin[i]->index] = i;
	edges = 0;
	for (i = 0; i < n; i++) {
		e->dep_first[i] = edges;
		for (j = 0; j < e->origin[i]->num_deps; j++)
			e->dep[edges++] = pos[e->origin[i]->deps[j]->index];
	}
	e->dep_first[n] = edges;
	/*
	 * A launch may put a node's dependents on another lane when it forks
	 * (two or more dependents) or when a dependent joins branches (two
	 * or more dependencies): such nodes are published at once.
	 */
	for (i = 0; i < edges; i++)
		fanout[e->dep[i]]++;
	for (i = 0; i < n; i++) {
		if (fanout[i] > 1)
			e->publish[i] = true;
		if (e->dep_first[i + 1] - e->dep_first[i] > 1)
			for (j = e->dep_first[i]; j < e->dep_first[i + 1]; j++)
				e->publish[e->dep[j]] = true;
	}
	free(fanout);
	free(pos);
	return CUDA_SUCCESS;
}

void cu_graph_exec_free(struct cu_graph_exec *e)
{
	size_t i;

	for (i = 0; i < e->num_nodes; i++)
		cu_graph_node_free_params(&e->nodes[i]);
	for (i = 0; i < e->num_conds; i++)
		cu_cond_put(e->conds[i]);
	free(e->conds);
	cu_user_refs_drop(e->users, e->num_users);
	free(e->nodes);
	free(e->origin);
	free(e->dep_first);
	free(e->dep);
	free(e->publish);
	pthread_mutex_destroy(&e->launch_lock);
	e->magic = CU_DEAD_MAGIC;
	free(e);
}

/* Node types a conditional's body may hold (CUDA's rule, recursively). */
static bool cu_body_node_ok(CUgraphNodeType t)
{
	return t == CU_GRAPH_NODE_TYPE_KERNEL ||
	       t == CU_GRAPH_NODE_TYPE_EMPTY ||
	       t == CU_GRAPH_NODE_TYPE_GRAPH ||
	       t == CU_GRAPH_NODE_TYPE_MEMSET ||
	       t == CU_GRAPH_NODE_TYPE_MEMCPY ||
	       t == CU_GRAPH_NODE_TYPE_CONDITIONAL;
}

/* Whether @g is a conditional's body, or inside one. */
static bool cu_graph_in_body(const struct cu_graph *g)
{
	for (; g && g->owner; g = g->owner->graph)
		if (g->owner->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			return true;
	return false;
}

/*
 * What an executable node needs beyond its parameters: the executable
 * graphs of a child graph or of a conditional's bodies.  A child graph
 * may not allocate or free graph memory (its allocations would have no
 * owner to free them from), and a body may hold only the node types
 * CUDA allows there.
 */
static CUresult cu_exec_node_prepare(struct cu_graph_node *n,
				     const struct cu_graph *g,
				     struct cu_ctx *ctx,
				     unsigned long long flags)
{
	struct cu_graph **graphs;
	size_t count, i;
	CUresult res;

	if ((n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
	     n->type == CU_GRAPH_NODE_TYPE_MEM_FREE) && g->owner)
		return CUDA_ERROR_NOT_SUPPORTED;
	/* One executable graph at a time per allocation (H100). */
	if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
		res = cu_graph_alloc_exec(n->u.alloc.a, true);
		n->holds_alloc = res == CUDA_SUCCESS;
		return res;
	}
	if (cu_graph_in_body(g) && !cu_body_node_ok(n->type))
		return CUDA_ERROR_INVALID_VALUE;
	if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
		graphs = &n->u.child;
		count = 1;
	} else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
		graphs = n->u.cond.body;
		count = n->u.cond.size;
	} else {
		return CUDA_SUCCESS;
	}
	n->sub = calloc(count, sizeof(*n->sub));
	if (!n->sub)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->num_sub = count;
	for (i = 0; i < count; i++) {
		res = cu_graph_instantiate(&n->sub[i], graphs[i], ctx, flags,
					   false);
		if (res != CUDA_SUCCESS)
			return res;
	}
	return CUDA_SUCCESS;
}

/* The distinct conditional handles of @e's own conditional nodes. */
static CUresult cu_exec_conds(struct cu_graph_exec *e)
{
	size_t i, j;

	e->conds = calloc(e->num_nodes ? e->num_nodes : 1, sizeof(*e->conds));
	if (!e->conds)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < e->num_nodes; i++) {
		struct cu_graph_cond *c;

		if (e->nodes[i].type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
			continue;
		c = e->nodes[i].u.cond.cond;
		for (j = 0; j < e->num_conds && e->conds[j] != c; j++)
			;
		if (j == e->num_conds) {
			cu_cond_get(c);
			e->conds[e->num_conds++] = c;
		}
	}
	return CUDA_SUCCESS;
}

/*
 * A graph may be instantiated for device launch only if it is made of
 * kernel, copy, memset and empty nodes (and child graphs of them) and
 * does not ask for its memory to be freed on launch (CUDA's rules).
 */
static bool cu_device_launchable(const struct cu_graph *g)
{
	size_t i;

	for (i = 0; i < g->num_nodes; i++) {
		const struct cu_graph_node *n = g->nodes[i];

		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH &&
		    cu_device_launchable(n->u.child))
			continue;
		if (n->type != CU_GRAPH_NODE_TYPE_KERNEL &&
		    n->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
		    n->type != CU_GRAPH_NODE_TYPE_MEMSET &&
		    n->type != CU_GRAPH_NODE_TYPE_EMPTY)
			return false;
	}
	return true;
}

CUresult cu_graph_instantiate(struct cu_graph_exec **out,
			      struct cu_graph *g, struct cu_ctx *ctx,
			      unsigned long long flags, bool top)
{
	struct cu_graph_exec *e;
	CUresult res = CUDA_SUCCESS;
	size_t i, n;

	/* A node's own copy of a graph is no handle; the caller's is. */
	if (!out || !g || (top ? !cu_graph_valid(g) :
			   g->magic != CU_GRAPH_MAGIC))
		return CUDA_ERROR_INVALID_VALUE;
	if (top &&
	    (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) &&
	    ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) ||
	     !cu_device_launchable(g)))
		return CUDA_ERROR_INVALID_VALUE;
	n = g->num_nodes;
	e = calloc(1, sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->magic = CU_GRAPH_EXEC_MAGIC;
	e->ctx = ctx;
	e->flags = flags;
	pthread_mutex_init(&e->launch_lock, NULL);
	e->nodes = calloc(n ? n : 1, sizeof(*e->nodes));
	e->origin = calloc(n ? n : 1, sizeof(*e->origin));
	if (!e->nodes || !e->origin) {
		cu_graph_exec_free(e);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* A graph with a cycle has no order to run in. */
	if (!cu_graph_topo_sort(g, e->origin)) {
		cu_graph_exec_free(e);
		return CUDA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < n; i++) {
		e->nodes[i].magic = CU_GRAPH_NODE_MAGIC;
		e->nodes[i].index = e->origin[i]->index;
		/* While instantiating: the way up to a conditional body. */
		e->nodes[i].graph = g;
		res = cu_graph_node_copy_params(&e->nodes[i], e->origin[i]);
		e->num_nodes = i + 1;
		if (res == CUDA_SUCCESS)
			res = cu_exec_node_prepare(&e->nodes[i], g, ctx, flags);
		if (res != CUDA_SUCCESS)
			break;
	}
	for (i = 0; i < e->num_nodes; i++)
		e->nodes[i].graph = NULL;
	if (res == CUDA_SUCCESS)
		res = cu_exec_edges(e);
	if (res == CUDA_SUCCESS)
		res = cu_exec_conds(e);
	if (res == CUDA_SUCCESS)
		res = cu_user_refs_copy(&e->users, &e->num_users, g->users,
					g->num_users);
	/* Only the executable graph the caller gets is a handle. */
	if (res == CUDA_SUCCESS && top)
		res = cu_handle_add(e, CU_HANDLE_GRAPH_EXEC);
	if (res != CUDA_SUCCESS) {
		cu_graph_exec_free(e);
		return res;
	}
	*out = e;
	return CUDA_SUCCESS;
}

struct cu_graph_exec *cu_exec_of(CUgraphExec h)
{
	struct cu_graph_exec *e = (struct cu_graph_exec *)h;

	return cu_handle_valid(e, CU_HANDLE_GRAPH_EXEC) ? e : NULL;
}

CU_EXPORT CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
		CUgraph hGraph, unsigned long long flags)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* UPLOAD is a flag of cuGraphInstantiateWithParams only. */
	if (flags & ~(unsigned long long)CU_INSTANTIATE_FLAGS_OK ||
	    (flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_graph_instantiate((struct cu_graph_exec **)phGraphExec,
				    (struct cu_graph *)hGraph, ctx, flags, true);
}

/*
 * Instantiate, and with CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD upload into
 * the given stream.  The result code is also reported in the struct.
 */
CU_EXPORT CUresult CUDAAPI cuGraphInstantiateWithParams(
		CUgraphExec *phGraphExec, CUgraph hGraph,
		CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	CUDA_GRAPH_INSTANTIATE_PARAMS *p = instantiateParams;
	unsigned long long flags;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	flags = p->flags;
	if (flags & ~(unsigned long long)CU_INSTANTIATE_FLAGS_OK) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		res = cu_graph_instantiate((struct cu_graph_exec **)phGraphExec,
					   (struct cu_graph *)hGraph, ctx,
					   flags, true);
		if (res == CUDA_SUCCESS &&
		    (flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)) {
			res = cuGraphUpload(*phGraphExec, p->hUploadStream);
			if (res != CUDA_SUCCESS) {
				cuGraphExecDestroy(*phGraphExec);
				*phGraphExec = NULL;
			}
		}
	}
	p->result_out = res == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS :
			CUDA_GRAPH_INSTANTIATE_ERROR;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphExecGetFlags(CUgraphExec hGraphExec,
					       cuuint64_t *flags)
{
	struct cu_graph_exec *e = cu_exec_of(hGraphExec);
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!e || !flags)
		return CUDA_ERROR_INVALID_VALUE;
	/* An H100 does not report USE_NODE_PRIORITY here. */
	*flags = e->flags & ~(cuuint64_t)
		 CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
	return CUDA_SUCCESS;
}

/*
 * The entry checks of putting an executable graph into a stream (a
 * launch, an upload): the stream of the current context, the graph of
 * that context.  Doing so into a capture is refused (and invalidates
 * it), as on an H100 (probe_capture.h100.txt).
 */
static CUresult cu_exec_stream_args(CUgraphExec hGraphExec, CUstream hStream,
				    struct cu_graph_exec **e,
				    struct cu_stream **s)
{
	struct cu_ctx *ctx;
	CUresult res;

	*e = cu_exec_of(hGraphExec);
	res = cu_stream_query_args(hStream, *e, &ctx, s);
	if (res != CUDA_SUCCESS)
		return res;
	if ((*e)->ctx != ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	return cu_capture_forbid(*s);
}

/*
 * Uploading prepares a graph's device-side resources ahead of its first
 * launch.  A vGPU graph has none to prepare - every launch writes its
 * packets with the arguments inline - so an upload checks its arguments
 * and is ordered in the stream like any work: nothing is queued.
 */
CU_EXPORT CUresult CUDAAPI cuGraphUpload(CUgraphExec hGraphExec,
					 CUstream hStream)
{
	struct cu_graph_exec *e;
	struct cu_stream *s;

	return cu_exec_stream_args(hGraphExec, hStream, &e, &s);
}

CU_EXPORT CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec,
					 CUstream hStream)
{
	struct cu_graph_exec *e;
	struct cu_stream *s;
	CUresult res = cu_exec_stream_args(hGraphExec, hStream, &e, &s);

	if (res != CUDA_SUCCESS)
		return res;
	return cu_graph_exec_launch(e, s, hStream);
}

/* Whether @e or an executable graph inside it holds user objects. */
static bool cu_exec_has_users(const struct cu_graph_exec *e)
{
	size_t i, j;

	if (e->num_users)
		return true;
	for (i = 0; i < e->num_nodes; i++)
		for (j = 0; j < e->nodes[i].num_sub; j++)
			if (cu_exec_has_users(e->nodes[i].sub[j]))
				return true;
	return false;
}

CU_EXPORT CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec)
{
	struct cu_graph_exec *e = (struct cu_graph_exec *)hGraphExec;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_remove(e, CU_HANDLE_GRAPH_EXEC))
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * Submitted packets carry the arguments inline and host nodes have
	 * run by the time cuGraphLaunch returns: nothing in flight points
	 * into the executable graph, so it can go at once.  Its user
	 * objects are another matter: their destructors may free what the
	 * launches use, so they wait for the last launch to end.
	 */
	if (cu_exec_has_users(e))
		cu_point_wait(e->ctx, &e->last);
	cu_graph_exec_free(e);
	return CUDA_SUCCESS;
}

/*
 * Change the launch of one kernel node in the executable graph only;
 * the graph it came from keeps its parameters.
 */
CU_EXPORT CUresult CUDAAPI cuGraphExecKernelNodeSetParams(
		CUgraphExec hGraphExec, CUgraphNode hNode,
		const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	struct cu_graph_exec *e = cu_exec_of(hGraphExec);
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!e || !nodeParams)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < e->num_nodes; i++) {
		if (e->origin[i] != (struct cu_graph_node *)hNode)
			continue;
		if (e->nodes[i].type != CU_GRAPH_NODE_TYPE_KERNEL)
			return CUDA_ERROR_INVALID_VALUE;
		/* The function cannot change (CUDA: not updatable). */
		if (nodeParams->func != e->nodes[i].u.kernel.p.func)
			return CUDA_ERROR_INVALID_VALUE;
		return cu_kernel_node_set(&e->nodes[i].u.kernel, nodeParams);
	}
	return CUDA_ERROR_INVALID_VALUE;
}
