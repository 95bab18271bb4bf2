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

static void cu_graph_exec_free(struct cu_graph_exec *e)
{
	size_t i;

	for (i = 0; i < e->num_nodes; i++)
		cu_graph_node_free_params(&e->nodes[i]);
	free(e->nodes);
	free(e->origin);
	free(e->dep_first);
	free(e->dep);
	free(e->publish);
	pthread_mutex_destroy(&e->launch_lock);
	e->magic = CU_DEAD_MAGIC;
	free(e);
}

static CUresult cu_graph_instantiate(struct cu_graph_exec **out,
				     struct cu_graph *g)
{
	struct cu_graph_exec *e;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);
	size_t i, n;

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || !cu_graph_valid(g))
		return CUDA_ERROR_INVALID_VALUE;
	n = g->num_nodes;
	e = calloc(1, sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->magic = CU_GRAPH_EXEC_MAGIC;
	e->ctx = ctx;
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
		res = cu_graph_node_copy_params(&e->nodes[i], e->origin[i]);
		if (res != CUDA_SUCCESS)
			break;
		e->num_nodes = i + 1;
	}
	if (res == CUDA_SUCCESS)
		res = cu_exec_edges(e);
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(e, CU_HANDLE_GRAPH_EXEC);
	if (res != CUDA_SUCCESS) {
		cu_graph_exec_free(e);
		return res;
	}
	*out = e;
	return CUDA_SUCCESS;
}

static struct cu_graph_exec *cu_exec_of(CUgraphExec h)
{
	struct cu_graph_exec *e = (struct cu_graph_exec *)h;

	return cu_handle_valid(e, CU_HANDLE_GRAPH_EXEC) ? e : NULL;
}

CU_EXPORT CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec,
		CUgraph hGraph, unsigned long long flags)
{
	if (flags & ~(unsigned long long)CU_INSTANTIATE_FLAGS_OK)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_graph_instantiate((struct cu_graph_exec **)phGraphExec,
				    (struct cu_graph *)hGraph);
}

CU_EXPORT CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec,
					 CUstream hStream)
{
	struct cu_graph_exec *e = cu_exec_of(hGraphExec);
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	if (e->ctx != ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	/* Child graphs are not implemented: launching into a capture is
	 * refused (and invalidates the capture). */
	res = cu_capture_forbid(s);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_graph_exec_launch(e, s, hStream);
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
	 * into the executable graph, so it can go at once.
	 */
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
