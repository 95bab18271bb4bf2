// SPDX-License-Identifier: GPL-2.0
/*
 * graph_extsem.c - graph nodes that signal and wait for external
 * semaphores: cuGraphAddExternalSemaphoresSignalNode / WaitNode, their
 * Get/SetParams, cuGraphExecExternalSemaphores*NodeSetParams, and what
 * the generic node calls, cloning, cuGraphExecUpdate, stream capture and
 * a launch ask of them.
 *
 * A node keeps its own copy of the semaphore handles and of their
 * parameters (the caller may reuse its arrays at once), and Get hands out
 * pointers to that copy: valid until the node's parameters change or the
 * node goes, as CUDA documents (the H100 returns arrays of its own too,
 * probe_extsem.h100.txt: "same_arrays: 0").  A launch queues the node's
 * signals or waits on the node's lane through the path that
 * cuSignal/WaitExternalSemaphoresAsync take (interop_sem.c), so a node
 * orders exactly as the call it was captured from.
 *
 * What is checked when: adding a node takes a count of 0, flags and
 * handles that are not semaphores, and so does a launch of such a node
 * (the H100 does both, probe_extsem.h100.txt): the flags are ignored and
 * what is not a live semaphore is skipped.  NULL arrays with a count are
 * INVALID_VALUE (the H100 crashes).  An executable graph's node keeps its count: a new
 * count is INVALID_VALUE (CUDA documents it as unsupported).
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "interop.h"

static enum cu_ext_sem_dir cu_extsem_dir(CUgraphNodeType t)
{
	return t == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL ? CU_EXT_SEM_SIGNAL :
							  CU_EXT_SEM_WAIT;
}

static bool cu_extsem_type(CUgraphNodeType t)
{
	return t == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL ||
	       t == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT;
}

/* The arrays and count of @p, the node-parameter struct of type @t. */
static void cu_extsem_fields(CUgraphNodeType t, const void *p,
			     const CUexternalSemaphore **sems,
			     const void **params, unsigned int *n)
{
	if (t == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL) {
		const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *s = p;

		*sems = s->extSemArray;
		*params = s->paramsArray;
		*n = s->numExtSems;
	} else {
		const CUDA_EXT_SEM_WAIT_NODE_PARAMS *w = p;

		*sems = w->extSemArray;
		*params = w->paramsArray;
		*n = w->numExtSems;
	}
}

/* Make @x a copy of @n semaphores and parameters of direction @d. */
static CUresult cu_extsem_copy_arrays(struct cu_extsem_node *x,
				      enum cu_ext_sem_dir d,
				      const CUexternalSemaphore *sems,
				      const void *params, unsigned int n)
{
	size_t psize = cu_ext_sem_ways[d].param_size;

	x->sems = malloc((n ? n : 1) * sizeof(*x->sems));
	x->params = malloc((n ? n : 1) * psize);
	if (!x->sems || !x->params) {
		free(x->sems);
		free(x->params);
		x->sems = NULL;
		x->params = NULL;
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (n) {
		memcpy(x->sems, sems, n * sizeof(*x->sems));
		memcpy(x->params, params, n * psize);
	}
	x->n = n;
	return CUDA_SUCCESS;
}

CUresult cu_extsem_node_set(struct cu_graph_node *n, const void *p)
{
	const CUexternalSemaphore *sems;
	const void *params;
	unsigned int count;

	cu_extsem_fields(n->type, p, &sems, &params, &count);
	if (count && (!sems || !params))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_extsem_copy_arrays(&n->u.extsem, cu_extsem_dir(n->type),
				     sems, params, count);
}

void cu_extsem_node_free(struct cu_graph_node *n)
{
	free(n->u.extsem.sems);
	free(n->u.extsem.params);
	n->u.extsem.sems = NULL;
	n->u.extsem.params = NULL;
	n->u.extsem.n = 0;
}

CUresult cu_extsem_node_copy(struct cu_graph_node *dst,
			     const struct cu_graph_node *src)
{
	const struct cu_extsem_node *s = &src->u.extsem;

	return cu_extsem_copy_arrays(&dst->u.extsem, cu_extsem_dir(src->type),
				     s->sems, s->params, s->n);
}

CUresult cu_extsem_node_launch(const struct cu_graph_node *n, CUstream h)
{
	const struct cu_extsem_node *x = &n->u.extsem;

	if (!x->n)
		return CUDA_SUCCESS;
	return cu_ext_sem_enqueue(cu_extsem_dir(n->type), x->sems, x->params,
				  x->n, h);
}

/* Give @x (of an executable graph) the parameters of @m: same count. */
CUresult cu_extsem_node_update(struct cu_graph_node *x,
			       const struct cu_graph_node *m)
{
	struct cu_graph_node t = { .type = x->type };
	CUresult res;

	if (m->u.extsem.n != x->u.extsem.n)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_extsem_node_copy(&t, m);
	if (res != CUDA_SUCCESS)
		return res;
	cu_extsem_node_free(x);
	x->u.extsem = t.u.extsem;
	return CUDA_SUCCESS;
}

/* ---- the API ------------------------------------------------------------- */

static CUresult cu_extsem_add(CUgraphNode *ph, CUgraph hGraph,
			      const CUgraphNode *deps, size_t num_deps,
			      CUgraphNodeType type, const void *params)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	return cu_graph_add((struct cu_graph *)hGraph, type, params, NULL,
			    (struct cu_graph_node *const *)deps, num_deps,
			    (struct cu_graph_node **)ph);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddExternalSemaphoresSignalNode(
	CUgraphNode *phGraphNode, CUgraph hGraph,
	const CUgraphNode *dependencies, size_t numDependencies,
	const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams)
{
	return cu_extsem_add(phGraphNode, hGraph, dependencies,
			     numDependencies,
			     CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddExternalSemaphoresWaitNode(
	CUgraphNode *phGraphNode, CUgraph hGraph,
	const CUgraphNode *dependencies, size_t numDependencies,
	const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams)
{
	return cu_extsem_add(phGraphNode, hGraph, dependencies,
			     numDependencies,
			     CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, nodeParams);
}

/* Get: the node's own arrays. */
static CUresult cu_extsem_get(CUgraphNode h, CUgraphNodeType type,
			      void *out)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, type, out, &n);
	const struct cu_extsem_node *x;

	if (res != CUDA_SUCCESS)
		return res;
	x = &n->u.extsem;
	if (type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL)
		*(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)out =
			(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS){
				x->sems, x->params, x->n };
	else
		*(CUDA_EXT_SEM_WAIT_NODE_PARAMS *)out =
			(CUDA_EXT_SEM_WAIT_NODE_PARAMS){
				x->sems, x->params, x->n };
	return CUDA_SUCCESS;
}

/* Set on node @n (of a graph, or of an executable graph: @exec). */
static CUresult cu_extsem_set_on(struct cu_graph_node *n, const void *p,
				 bool exec)
{
	struct cu_graph_node t = { .type = n->type };
	CUresult res = cu_extsem_node_set(&t, p);

	if (res != CUDA_SUCCESS)
		return res;
	if (exec && t.u.extsem.n != n->u.extsem.n) {
		cu_extsem_node_free(&t);
		return CUDA_ERROR_INVALID_VALUE;
	}
	cu_extsem_node_free(n);
	n->u.extsem = t.u.extsem;
	return CUDA_SUCCESS;
}

static CUresult cu_extsem_set(CUgraphNode h, CUgraphNodeType type,
			      const void *p)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, type, p, &n);

	if (res != CUDA_SUCCESS)
		return res;
	return cu_extsem_set_on(n, p, false);
}

static CUresult cu_extsem_exec_set(CUgraphExec hExec, CUgraphNode h,
				   CUgraphNodeType type, const void *p)
{
	struct cu_graph_exec *e;
	struct cu_graph_node *x;
	CUresult res = cu_exec_node_lock(hExec, h, (int)type, p, &e, &x);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_extsem_set_on(x, p, true);
	pthread_mutex_unlock(&e->launch_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphExternalSemaphoresSignalNodeGetParams(
	CUgraphNode hNode, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *params_out)
{
	return cu_extsem_get(hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
			     params_out);
}

CU_EXPORT CUresult CUDAAPI cuGraphExternalSemaphoresWaitNodeGetParams(
	CUgraphNode hNode, CUDA_EXT_SEM_WAIT_NODE_PARAMS *params_out)
{
	return cu_extsem_get(hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
			     params_out);
}

CU_EXPORT CUresult CUDAAPI cuGraphExternalSemaphoresSignalNodeSetParams(
	CUgraphNode hNode, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams)
{
	return cu_extsem_set(hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
			     nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphExternalSemaphoresWaitNodeSetParams(
	CUgraphNode hNode, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams)
{
	return cu_extsem_set(hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
			     nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecExternalSemaphoresSignalNodeSetParams(
	CUgraphExec hGraphExec, CUgraphNode hNode,
	const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams)
{
	return cu_extsem_exec_set(hGraphExec, hNode,
				  CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
				  nodeParams);
}

CU_EXPORT CUresult CUDAAPI cuGraphExecExternalSemaphoresWaitNodeSetParams(
	CUgraphExec hGraphExec, CUgraphNode hNode,
	const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams)
{
	return cu_extsem_exec_set(hGraphExec, hNode,
				  CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
				  nodeParams);
}

/*
 * The generic calls' part (graph.c, graph_edit.c): @p's extSemSignal or
 * extSemWait (the _v2 structs, the same fields as the ones above).
 */
static void cu_extsem_of_generic(const CUgraphNodeParams *p,
				 CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *s,
				 CUDA_EXT_SEM_WAIT_NODE_PARAMS *w)
{
	*s = (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS){ p->extSemSignal.extSemArray,
		p->extSemSignal.paramsArray, p->extSemSignal.numExtSems };
	*w = (CUDA_EXT_SEM_WAIT_NODE_PARAMS){ p->extSemWait.extSemArray,
		p->extSemWait.paramsArray, p->extSemWait.numExtSems };
}

CUresult cu_extsem_generic(CUgraphNode *ph, CUgraph g, CUgraphExec e,
			   CUgraphNode h, const CUgraphNode *deps,
			   size_t num_deps, const CUgraphNodeParams *p)
{
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS s;
	CUDA_EXT_SEM_WAIT_NODE_PARAMS w;
	const void *np;

	if (!cu_extsem_type(p->type))
		return CUDA_ERROR_INVALID_VALUE;
	cu_extsem_of_generic(p, &s, &w);
	np = p->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL ?
	     (const void *)&s : (const void *)&w;
	if (ph)
		return cu_extsem_add(ph, g, deps, num_deps, p->type, np);
	if (e)
		return cu_extsem_exec_set(e, h, p->type, np);
	return cu_extsem_set(h, p->type, np);
}
