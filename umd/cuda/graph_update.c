// SPDX-License-Identifier: GPL-2.0
/*
 * graph_update.c - cuGraphExecUpdate: give an executable graph the
 * parameters of another graph of the same shape, without instantiating
 * again.
 *
 * The nodes are paired by the order they were added in: the executable
 * graph's node copied from node k of the graph it was made from takes
 * the parameters of node k of the new graph (cuGraphClone keeps that
 * order, which is how a program usually gets its second graph).  The
 * update is refused, and the executable graph left as it was, when
 *
 *   the node count or an edge differs        TOPOLOGY_CHANGED
 *   a node's type differs                    NODE_TYPE_CHANGED
 *   a kernel's function is of another ctx    UNSUPPORTED_FUNCTION_CHANGE
 *   a copy's memory types or context, a 2D   PARAMETERS_CHANGED
 *   memset at all, a conditional's type or
 *   body count, an allocation's size or a
 *   free's address change
 *
 * (CUDA's documented rules), with the node in question in errorNode and,
 * for an edge, its other end in errorFromNode.  Everything is checked
 * before anything changes.  Child graphs and conditional bodies are
 * compared and updated node by node in the same way.
 */
#include <string.h>

#include "graph_internal.h"

/* The verdict and the nodes it names. */
struct cu_update_result {
	CUgraphExecUpdateResult result;
	CUgraphNode node, from;
};

static bool cu_update_fail(struct cu_update_result *r,
			   CUgraphExecUpdateResult why,
			   const struct cu_graph_node *node,
			   const struct cu_graph_node *from)
{
	r->result = why;
	r->node = (CUgraphNode)node;
	r->from = (CUgraphNode)from;
	return false;
}

/*
 * Node @m of @g has exactly the dependencies of executable node @i.  An
 * edge the new graph lacks is reported by the node it would come from
 * (what an H100 names: probe_graphs.h100.txt); an edge it has in excess,
 * by the same end.
 */
static bool cu_update_edges(const struct cu_graph_exec *e, size_t i,
			    const struct cu_graph *g,
			    const struct cu_graph_node *m,
			    struct cu_update_result *r)
{
	size_t k, j;

	for (k = e->dep_first[i]; k < e->dep_first[i + 1]; k++) {
		size_t want = e->nodes[e->dep[k]].index;

		for (j = 0; j < m->num_deps && m->deps[j]->index != want; j++)
			;
		if (j == m->num_deps)
			return cu_update_fail(r,
				CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED,
				g->nodes[want], NULL);
	}
	if (m->num_deps != e->dep_first[i + 1] - e->dep_first[i])
		return cu_update_fail(r,
				CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED,
				m->deps[m->num_deps - 1], NULL);
	return true;
}

static bool cu_update_check(const struct cu_graph_exec *e,
			    const struct cu_graph *g,
			    struct cu_update_result *r);

/* Whether executable node @x can take the parameters of node @m. */
static bool cu_update_node_ok(const struct cu_graph_node *x,
			      const struct cu_graph_node *m,
			      struct cu_update_result *r)
{
	const CUgraphExecUpdateResult changed =
		CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
	unsigned int b;

	switch (x->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		if (x->u.kernel.p.ctx != m->u.kernel.p.ctx)
			return cu_update_fail(r,
			CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE,
				m, NULL);
		return true;
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (x->u.memcpy.ctx != m->u.memcpy.ctx ||
		    x->u.memcpy.p.srcMemoryType != m->u.memcpy.p.srcMemoryType ||
		    x->u.memcpy.p.dstMemoryType != m->u.memcpy.p.dstMemoryType)
			return cu_update_fail(r, changed, m, NULL);
		return true;
	case CU_GRAPH_NODE_TYPE_MEMSET:
		/* Only 1D memsets may change (an H100 lets the element
		 * size change too). */
		if ((x->u.memset.height > 1 || m->u.memset.height > 1) &&
		    memcmp(&x->u.memset, &m->u.memset, sizeof(x->u.memset)))
			return cu_update_fail(r, changed, m, NULL);
		return true;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		if (x->u.alloc.p.bytesize != m->u.alloc.p.bytesize)
			return cu_update_fail(r, changed, m, NULL);
		return true;
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		if (x->u.free_ptr != m->u.free_ptr)
			return cu_update_fail(r, changed, m, NULL);
		return true;
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		/* As cuGraphExec*SetParams: the count stays (graph_extsem.c). */
		if (x->u.extsem.n != m->u.extsem.n)
			return cu_update_fail(r, changed, m, NULL);
		return true;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return cu_update_check(x->sub[0], m->u.child, r);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		if (x->u.cond.type != m->u.cond.type ||
		    x->u.cond.size != m->u.cond.size)
			return cu_update_fail(r, changed, m, NULL);
		for (b = 0; b < x->u.cond.size; b++)
			if (!cu_update_check(x->sub[b], m->u.cond.body[b], r))
				return false;
		return true;
	default:
		return true;
	}
}

static bool cu_update_check(const struct cu_graph_exec *e,
			    const struct cu_graph *g,
			    struct cu_update_result *r)
{
	size_t i;

	if (e->num_nodes != g->num_nodes)
		return cu_update_fail(r,
				CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED,
				NULL, NULL);
	for (i = 0; i < e->num_nodes; i++) {
		const struct cu_graph_node *x = &e->nodes[i];
		const struct cu_graph_node *m = g->nodes[x->index];

		if (x->type != m->type)
			return cu_update_fail(r,
				CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED,
				m, NULL);
		if (!cu_update_edges(e, i, g, m, r) ||
		    !cu_update_node_ok(x, m, r))
			return false;
	}
	return true;
}

/* Take over the parameters (all checked by cu_update_check). */
static CUresult cu_update_apply(struct cu_graph_exec *e,
				const struct cu_graph *g)
{
	CUresult res = CUDA_SUCCESS;
	unsigned int b;
	size_t i;

	for (i = 0; i < e->num_nodes && res == CUDA_SUCCESS; i++) {
		struct cu_graph_node *x = &e->nodes[i];
		const struct cu_graph_node *m = g->nodes[x->index];

		switch (x->type) {
		case CU_GRAPH_NODE_TYPE_KERNEL:
			res = cu_kernel_node_set(&x->u.kernel, &m->u.kernel.p);
			cu_kernel_node_copy_attrs(&x->u.kernel, &m->u.kernel);
			break;
		case CU_GRAPH_NODE_TYPE_MEMCPY:
		case CU_GRAPH_NODE_TYPE_MEMSET:
		case CU_GRAPH_NODE_TYPE_HOST:
		case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
			x->u = m->u;
			break;
		case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
		case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
			res = cu_extsem_node_update(x, m);
			break;
		case CU_GRAPH_NODE_TYPE_GRAPH:
			res = cu_update_apply(x->sub[0], m->u.child);
			break;
		case CU_GRAPH_NODE_TYPE_CONDITIONAL:
			for (b = 0; b < x->u.cond.size && res == CUDA_SUCCESS;
			     b++)
				res = cu_update_apply(x->sub[b],
						      m->u.cond.body[b]);
			break;
		default:
			break;	/* empty; memory nodes: nothing changed */
		}
	}
	return res;
}

CUresult cu_graph_exec_update_from(struct cu_graph_exec *e,
				   const struct cu_graph *g)
{
	struct cu_update_result r = { CU_GRAPH_EXEC_UPDATE_SUCCESS, 0, 0 };

	if (!cu_update_check(e, g, &r))
		return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
	return cu_update_apply(e, g);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec,
		CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
	struct cu_graph_exec *e = cu_exec_of(hGraphExec);
	struct cu_graph *g = (struct cu_graph *)hGraph;
	struct cu_update_result r = { CU_GRAPH_EXEC_UPDATE_SUCCESS, 0, 0 };
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!e || !cu_graph_valid(g))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&e->launch_lock);
	if (!cu_update_check(e, g, &r))
		res = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
	else
		res = cu_update_apply(e, g);
	pthread_mutex_unlock(&e->launch_lock);
	if (res != CUDA_SUCCESS && r.result == CU_GRAPH_EXEC_UPDATE_SUCCESS)
		r.result = CU_GRAPH_EXEC_UPDATE_ERROR;
	/* No result info is allowed (recorded on an H100). */
	if (resultInfo) {
		resultInfo->result = r.result;
		resultInfo->errorNode = r.node;
		resultInfo->errorFromNode = r.from;
	}
	return res;
}
