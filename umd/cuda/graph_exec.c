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
 * A launch submits the nodes one after another, in that order, as
 * ordinary operations of the launch stream: a kernel node is one LAUNCH
 * packet on the stream's compute queue, a copy or memset node packets on
 * its copy queue, a host node a call on the launching thread once the
 * stream has reached it.  The stream's own ordering (stream_order.c)
 * then makes every node start after the one submitted before it, so all
 * edges hold, and the launch as a whole is ordered in its stream like
 * any other work.  The price of this simple design: independent branches
 * of the graph do not run concurrently.
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

static void cu_graph_exec_free(struct cu_graph_exec *e)
{
	size_t i;

	for (i = 0; i < e->num_nodes; i++)
		cu_graph_node_free_params(&e->nodes[i]);
	free(e->nodes);
	free(e->origin);
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
		res = cu_handle_add(e, CU_HANDLE_GRAPH_EXEC);
	if (res != CUDA_SUCCESS) {
		cu_graph_exec_free(e);
		return res;
	}
	*out = e;
	return CUDA_SUCCESS;
}

/* One copy node: each 2D slice of the 3D copy as one cuMemcpy2DAsync. */
static CUresult cu_exec_memcpy(const CUDA_MEMCPY3D *c, CUstream h)
{
	CUresult res = CUDA_SUCCESS;
	size_t z;

	for (z = 0; z < c->Depth && res == CUDA_SUCCESS; z++) {
		CUDA_MEMCPY2D s = {
			.srcXInBytes = c->srcXInBytes,
			.srcY = c->srcY + (c->srcZ + z) * c->srcHeight,
			.srcMemoryType = c->srcMemoryType,
			.srcHost = c->srcHost,
			.srcDevice = c->srcDevice,
			.srcPitch = c->srcPitch,
			.dstXInBytes = c->dstXInBytes,
			.dstY = c->dstY + (c->dstZ + z) * c->dstHeight,
			.dstMemoryType = c->dstMemoryType,
			.dstHost = c->dstHost,
			.dstDevice = c->dstDevice,
			.dstPitch = c->dstPitch,
			.WidthInBytes = c->WidthInBytes,
			.Height = c->Height,
		};

		res = cuMemcpy2DAsync(&s, h);
	}
	return res;
}

static CUresult cu_exec_memset(const CUDA_MEMSET_NODE_PARAMS *m, CUstream h)
{
	switch (m->elementSize) {
	case 1:
		return cuMemsetD2D8Async(m->dst, m->pitch, (unsigned char)m->value,
					 m->width, m->height, h);
	case 2:
		return cuMemsetD2D16Async(m->dst, m->pitch,
					  (unsigned short)m->value, m->width,
					  m->height, h);
	default:
		return cuMemsetD2D32Async(m->dst, m->pitch, m->value, m->width,
					  m->height, h);
	}
}

/* Submit one node on stream @h. */
static CUresult cu_exec_node(const struct cu_graph_node *n, CUstream h)
{
	const CUDA_KERNEL_NODE_PARAMS *k = &n->u.kernel.p;

	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cuLaunchKernel(k->func, k->gridDimX, k->gridDimY,
				      k->gridDimZ, k->blockDimX, k->blockDimY,
				      k->blockDimZ, k->sharedMemBytes, h,
				      k->kernelParams, NULL);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cu_exec_memcpy(&n->u.memcpy.p, h);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return cu_exec_memset(&n->u.memset, h);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuLaunchHostFunc(h, n->u.host.fn, n->u.host.userData);
	default:
		return CUDA_SUCCESS;	/* empty */
	}
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
	size_t i;

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
	for (i = 0; i < e->num_nodes && res == CUDA_SUCCESS; i++)
		res = cu_exec_node(&e->nodes[i], hStream);
	return res;
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
