// SPDX-License-Identifier: GPL-2.0
/*
 * graph.c - building graphs: cuGraphCreate, the cuGraphAdd*Node calls,
 * edges, and the queries on a graph's structure.
 *
 * A graph is only a description: adding a node submits nothing.  Each
 * node keeps a copy of its parameters (for a kernel node, of every
 * argument too, laid out by the kernel's metadata as a launch would lay
 * them out) and the list of nodes it depends on.  Graphs are not
 * thread-safe objects, in CUDA as here: one thread builds a graph at a
 * time.  cuGraphInstantiate (graph_exec.c) turns a graph into something
 * that can be launched.
 */
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "graph_internal.h"
#include "handles.h"

bool cu_graph_valid(const struct cu_graph *g)
{
	return cu_handle_valid(g, CU_HANDLE_GRAPH);
}

bool cu_graph_node_valid(const struct cu_graph_node *n)
{
	return cu_handle_valid(n, CU_HANDLE_GRAPH_NODE);
}

CUresult cu_graph_new(struct cu_graph **out)
{
	struct cu_graph *g = calloc(1, sizeof(*g));
	CUresult res;

	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	g->magic = CU_GRAPH_MAGIC;
	res = cu_handle_add(g, CU_HANDLE_GRAPH);
	if (res != CUDA_SUCCESS) {
		free(g);
		return res;
	}
	*out = g;
	return CUDA_SUCCESS;
}

CUresult cu_node_list_push(struct cu_graph_node ***v, size_t *n,
				  size_t *cap, struct cu_graph_node *p)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct cu_graph_node **nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv)
			return CUDA_ERROR_OUT_OF_MEMORY;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = p;
	return CUDA_SUCCESS;
}

/* ---- node parameters ------------------------------------------------------ */

void cu_graph_node_free_params(struct cu_graph_node *n)
{
	unsigned int i;

	if (n->holds_alloc)
		cu_graph_alloc_exec(n->u.alloc.a, false);
	n->holds_alloc = false;
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		free(n->u.kernel.arg_buf);
		free(n->u.kernel.args);
		n->u.kernel.arg_buf = NULL;
		n->u.kernel.args = NULL;
		break;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		if (n->u.child)
			cu_graph_free(n->u.child);
		n->u.child = NULL;
		break;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		if (n->u.alloc.a)
			cu_graph_alloc_put(n->u.alloc.a);
		n->u.alloc.a = NULL;
		break;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		for (i = 0; n->u.cond.body && i < n->u.cond.size; i++)
			if (n->u.cond.body[i])
				cu_graph_free(n->u.cond.body[i]);
		free(n->u.cond.body);
		n->u.cond.body = NULL;
		if (n->u.cond.cond)
			cu_cond_put(n->u.cond.cond);
		n->u.cond.cond = NULL;
		break;
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		cu_extsem_node_free(n);
		break;
	default:
		break;
	}
	for (i = 0; i < n->num_sub; i++)
		if (n->sub[i])
			cu_graph_exec_free(n->sub[i]);
	free(n->sub);
	n->sub = NULL;
	n->num_sub = 0;
}

const char *cu_graph_node_type_name(CUgraphNodeType t)
{
	static const char *const names[] = {
		[CU_GRAPH_NODE_TYPE_KERNEL] = "kernel",
		[CU_GRAPH_NODE_TYPE_MEMCPY] = "memcpy",
		[CU_GRAPH_NODE_TYPE_MEMSET] = "memset",
		[CU_GRAPH_NODE_TYPE_HOST] = "host",
		[CU_GRAPH_NODE_TYPE_GRAPH] = "child graph",
		[CU_GRAPH_NODE_TYPE_EMPTY] = "empty",
		[CU_GRAPH_NODE_TYPE_WAIT_EVENT] = "event wait",
		[CU_GRAPH_NODE_TYPE_EVENT_RECORD] = "event record",
		[CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL] = "semaphore signal",
		[CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT] = "semaphore wait",
		[CU_GRAPH_NODE_TYPE_MEM_ALLOC] = "mem alloc",
		[CU_GRAPH_NODE_TYPE_MEM_FREE] = "mem free",
		[CU_GRAPH_NODE_TYPE_BATCH_MEM_OP] = "batch mem op",
		[CU_GRAPH_NODE_TYPE_CONDITIONAL] = "conditional",
	};

	if ((unsigned int)t < sizeof(names) / sizeof(names[0]) && names[t])
		return names[t];
	return "unknown";
}

/*
 * The kernel's arguments, copied into a buffer of its own, with an
 * argument array pointing into it: what kernelParams would be.
 */
CUresult cu_kernel_node_set(struct cu_kernel_node *k,
			    const CUDA_KERNEL_NODE_PARAMS *p)
{
	const struct cu_function *f;
	uint32_t i, count, size;
	uint8_t *buf;
	void **args;
	CUresult res;

	/*
	 * No function, like a function that is not one, is a bad handle
	 * (recorded on an H100: probe_capture.h100.txt).  A CUkernel
	 * (library.c) stands for its function in the current context.
	 */
	f = cu_kernel_as_function(p->func);
	if (!f || !cu_function_valid(f))
		return CUDA_ERROR_INVALID_HANDLE;
	res = cu_launch_params(f, p->kernelParams, p->extra, NULL);
	if (res != CUDA_SUCCESS)
		return res;
	count = f->kernel->param_count;
	size = f->kernel->param_size;
	buf = calloc(1, size ? size : 1);
	args = calloc(count ? count : 1, sizeof(*args));
	if (!buf || !args) {
		free(buf);
		free(args);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cu_launch_params(f, p->kernelParams, p->extra, buf);
	for (i = 0; i < count; i++) {
		const struct visa_param *vp = (const void *)
			(f->params + (size_t)i * f->param_entsize);

		args[i] = buf + vp->offset;
	}
	free(k->arg_buf);
	free(k->args);
	k->p = *p;
	k->p.kernelParams = count ? args : NULL;
	k->p.extra = NULL;
	k->p.kern = NULL;
	k->p.ctx = (CUcontext)f->module->ctx;
	k->arg_buf = buf;
	k->args = args;
	return CUDA_SUCCESS;
}

/* A side of a memcpy node: memory, or a live CUDA array (copy_array.c). */
static bool cu_memcpy_side_ok(CUmemorytype t, CUarray a)
{
	return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE ||
	       t == CU_MEMORYTYPE_UNIFIED ||
	       (t == CU_MEMORYTYPE_ARRAY && cu_array_get(a));
}

/*
 * Whether @g allocates or frees graph memory: such a graph cannot be a
 * child graph (CUDA_ERROR_NOT_SUPPORTED on an H100), since nothing could
 * free its allocations in the right order.
 */
static bool cu_graph_has_memory_nodes(const struct cu_graph *g)
{
	size_t i;

	for (i = 0; i < g->num_nodes; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
		    g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
			return true;
	return false;
}

CUresult cu_graph_node_set_params(struct cu_graph_node *n,
				  const void *params, CUcontext ctx)
{
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cu_kernel_node_set(&n->u.kernel, params);
	case CU_GRAPH_NODE_TYPE_MEMCPY: {
		const CUDA_MEMCPY3D *c = params;

		if (!cu_memcpy_side_ok(c->srcMemoryType, c->srcArray) ||
		    !cu_memcpy_side_ok(c->dstMemoryType, c->dstArray) ||
		    !c->WidthInBytes || !c->Height || !c->Depth)
			return CUDA_ERROR_INVALID_VALUE;
		n->u.memcpy.p = *c;
		n->u.memcpy.ctx = ctx;
		return CUDA_SUCCESS;
	}
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		const CUDA_MEMSET_NODE_PARAMS *m = params;

		if (m->elementSize != 1 && m->elementSize != 2 &&
		    m->elementSize != 4)
			return CUDA_ERROR_INVALID_VALUE;
		if (!m->dst || !m->width || !m->height)
			return CUDA_ERROR_INVALID_VALUE;
		n->u.memset = *m;
		return CUDA_SUCCESS;
	}
	case CU_GRAPH_NODE_TYPE_HOST: {
		const CUDA_HOST_NODE_PARAMS *h = params;

		if (!h->fn)
			return CUDA_ERROR_INVALID_VALUE;
		n->u.host = *h;
		return CUDA_SUCCESS;
	}
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		/* The node owns a copy: the caller's graph stays its own. */
		if (!cu_graph_valid(params))
			return CUDA_ERROR_INVALID_VALUE;
		if (cu_graph_has_memory_nodes(params))
			return CUDA_ERROR_NOT_SUPPORTED;
		return cu_graph_clone(params, &n->u.child, false);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		if (!cu_handle_valid(params, CU_HANDLE_EVENT))
			return CUDA_ERROR_INVALID_VALUE;
		n->u.event = (CUevent)params;
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return cu_mem_alloc_node_set(n, (CUDA_MEM_ALLOC_NODE_PARAMS *)
					     params);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		n->u.free_ptr = *(const CUdeviceptr *)params;
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return cu_cond_node_set(n, params);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cu_extsem_node_set(n, params);
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

CUresult cu_graph_node_copy_params(struct cu_graph_node *dst,
				   const struct cu_graph_node *src)
{
	unsigned int i;
	CUresult res;

	dst->type = src->type;
	switch (src->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		memset(&dst->u.kernel, 0, sizeof(dst->u.kernel));
		cu_kernel_node_copy_attrs(&dst->u.kernel, &src->u.kernel);
		return cu_kernel_node_set(&dst->u.kernel, &src->u.kernel.p);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		dst->u.child = NULL;
		res = cu_graph_clone(src->u.child, &dst->u.child, false);
		if (res == CUDA_SUCCESS)
			dst->u.child->owner = dst;
		return res;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		/* The copy names the same memory, at the same address. */
		dst->u.alloc = src->u.alloc;
		cu_graph_alloc_get(dst->u.alloc.a);
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		dst->u.cond = src->u.cond;
		dst->u.cond.body = calloc(src->u.cond.size,
					  sizeof(*dst->u.cond.body));
		if (!dst->u.cond.body) {
			dst->u.cond.cond = NULL;
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		cu_cond_get(dst->u.cond.cond);
		for (i = 0; i < src->u.cond.size; i++) {
			res = cu_graph_clone(src->u.cond.body[i],
					     &dst->u.cond.body[i], false);
			if (res != CUDA_SUCCESS)
				return res;
			dst->u.cond.body[i]->owner = dst;
		}
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cu_extsem_node_copy(dst, src);
	default:
		dst->u = src->u;
		return CUDA_SUCCESS;
	}
}

/* ---- nodes and edges ------------------------------------------------------- */

/* @deps: nodes of @g, each named once. */
static CUresult cu_deps_check(const struct cu_graph *g,
			      struct cu_graph_node *const *deps, size_t n)
{
	size_t i, j;

	if (n && !deps)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < n; i++) {
		if (!cu_graph_node_valid(deps[i]) || deps[i]->graph != g)
			return CUDA_ERROR_INVALID_VALUE;
		for (j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

static void cu_node_destroy(struct cu_graph_node *n)
{
	cu_handle_remove(n, CU_HANDLE_GRAPH_NODE);
	cu_graph_node_free_params(n);
	free(n->deps);
	n->magic = CU_DEAD_MAGIC;
	free(n);
}

/*
 * Finish making node @n of @g, whose parameters and edges are set (@res:
 * how that went): give it its handle and append it to the graph's nodes,
 * or, on any failure, free it as if it never was.
 */
static CUresult cu_graph_node_publish(struct cu_graph *g,
				      struct cu_graph_node *n, CUresult res)
{
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(n, CU_HANDLE_GRAPH_NODE);
	if (res == CUDA_SUCCESS) {
		res = cu_node_list_push(&g->nodes, &g->num_nodes,
					&g->nodes_cap, n);
		if (res != CUDA_SUCCESS)
			cu_handle_remove(n, CU_HANDLE_GRAPH_NODE);
	}
	if (res != CUDA_SUCCESS) {
		cu_graph_node_free_params(n);
		free(n->deps);
		free(n);
	}
	return res;
}

CUresult cu_graph_add(struct cu_graph *g, CUgraphNodeType type,
		      const void *params, CUcontext ctx,
		      struct cu_graph_node *const *deps, size_t num_deps,
		      struct cu_graph_node **out)
{
	struct cu_graph_node *n;
	CUresult res;
	size_t i;

	if (!out || !cu_graph_valid(g))
		return CUDA_ERROR_INVALID_VALUE;
	if (type != CU_GRAPH_NODE_TYPE_EMPTY && !params)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_deps_check(g, deps, num_deps);
	if (res != CUDA_SUCCESS)
		return res;
	n = calloc(1, sizeof(*n));
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->magic = CU_GRAPH_NODE_MAGIC;
	n->graph = g;
	n->index = g->num_nodes;
	n->type = type;
	res = cu_graph_node_set_params(n, params, ctx);
	for (i = 0; i < num_deps && res == CUDA_SUCCESS; i++)
		res = cu_node_list_push(&n->deps, &n->num_deps, &n->deps_cap,
					deps[i]);
	res = cu_graph_node_publish(g, n, res);
	if (res != CUDA_SUCCESS)
		return res;
	*out = n;
	return CUDA_SUCCESS;
}

void cu_graph_free(struct cu_graph *g)
{
	size_t i;

	cu_handle_remove(g, CU_HANDLE_GRAPH);
	for (i = 0; i < g->num_nodes; i++)
		cu_node_destroy(g->nodes[i]);
	free(g->nodes);
	for (i = 0; i < g->num_conds; i++) {
		g->conds[i]->graph = NULL;
		cu_cond_put(g->conds[i]);
	}
	free(g->conds);
	cu_user_refs_drop(g->users, g->num_users);
	g->magic = CU_DEAD_MAGIC;
	free(g);
}

/*
 * A new graph with a copy of every node of @g (in the same order, so a
 * node's index is its original's), the same edges, and references to
 * the same user objects and conditional handles.  Child graphs are
 * cloned in turn; a clone's nodes remember their originals.  Only a
 * clone handed to the caller is a handle of its own (@register_handle).
 */
CUresult cu_graph_clone(const struct cu_graph *g, struct cu_graph **out,
			bool register_handle)
{
	struct cu_graph *c = calloc(1, sizeof(*c));
	CUresult res = CUDA_SUCCESS;
	size_t i, j;

	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->magic = CU_GRAPH_MAGIC;
	c->cloned_from = g;
	for (i = 0; i < g->num_nodes && res == CUDA_SUCCESS; i++) {
		const struct cu_graph_node *o = g->nodes[i];
		struct cu_graph_node *n = calloc(1, sizeof(*n));

		if (!n) {
			res = CUDA_ERROR_OUT_OF_MEMORY;
			break;
		}
		n->magic = CU_GRAPH_NODE_MAGIC;
		n->graph = c;
		n->index = i;
		n->cloned_from = o;
		res = cu_graph_node_copy_params(n, o);
		if (res == CUDA_SUCCESS && n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			n->u.child->owner = n;
		for (j = 0; j < o->num_deps && res == CUDA_SUCCESS; j++)
			res = cu_node_list_push(&n->deps, &n->num_deps,
						&n->deps_cap,
						c->nodes[o->deps[j]->index]);
		res = cu_graph_node_publish(c, n, res);
	}
	if (res == CUDA_SUCCESS)
		res = cu_user_refs_copy(&c->users, &c->num_users, g->users,
					g->num_users);
	if (res == CUDA_SUCCESS && register_handle)
		res = cu_handle_add(c, CU_HANDLE_GRAPH);
	if (res != CUDA_SUCCESS) {
		cu_graph_free(c);
		return res;
	}
	*out = c;
	return CUDA_SUCCESS;
}

/* ---- the API ------------------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!phGraph || flags)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_graph_new((struct cu_graph **)phGraph);
}

CU_EXPORT CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	/* A conditional's body belongs to its node (CUDA-owned). */
	if (!cu_graph_valid((struct cu_graph *)hGraph) ||
	    ((struct cu_graph *)hGraph)->owner)
		return CUDA_ERROR_INVALID_VALUE;
	cu_graph_free((struct cu_graph *)hGraph);
	return CUDA_SUCCESS;
}

/* The common shape of the cuGraphAdd*Node calls. */
static CUresult cu_graph_add_api(CUgraphNode *ph, CUgraph hGraph,
				 const CUgraphNode *deps, size_t num_deps,
				 CUgraphNodeType type, const void *params,
				 CUcontext ctx)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	return cu_graph_add((struct cu_graph *)hGraph, type, params, ctx,
			    (struct cu_graph_node *const *)deps, num_deps,
			    (struct cu_graph_node **)ph);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_KERNEL,
				nodeParams, NULL);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, const CUDA_MEMCPY3D *copyParams,
		CUcontext ctx)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_MEMCPY,
				copyParams, ctx);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies,
		const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_MEMSET,
				memsetParams, ctx);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_HOST,
				nodeParams, NULL);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_EMPTY,
				NULL, NULL);
}

static bool cu_node_depends_on(const struct cu_graph_node *n,
			       const struct cu_graph_node *d)
{
	size_t i;

	for (i = 0; i < n->num_deps; i++)
		if (n->deps[i] == d)
			return true;
	return false;
}

/*
 * Edges from[i] -> to[i]: to[i] runs after from[i].  Every edge is
 * checked before any is added, so a failed call adds none.  Edge data
 * (programmatic dependent launch) must be the default: all zero.
 */
CU_EXPORT CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph,
		const CUgraphNode *from, const CUgraphNode *to,
		const CUgraphEdgeData *edgeData, size_t numDependencies)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	static const CUgraphEdgeData none;
	size_t i, j;
	CUresult res = cu_initialized();

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
		    a->graph != g || b->graph != g || a == b)
			return CUDA_ERROR_INVALID_VALUE;
		/* An edge that exists already, or twice in this call. */
		if (cu_node_depends_on(b, a))
			return CUDA_ERROR_INVALID_VALUE;
		for (j = 0; j < i; j++)
			if (from[j] == from[i] && to[j] == to[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < numDependencies; i++) {
		struct cu_graph_node *b = (struct cu_graph_node *)to[i];

		res = cu_node_list_push(&b->deps, &b->num_deps, &b->deps_cap,
					(struct cu_graph_node *)from[i]);
		if (res != CUDA_SUCCESS)
			return res;
	}
	return CUDA_SUCCESS;
}

/*
 * The query convention of cuGraphGetNodes and friends: with @out NULL
 * report the count; otherwise fill up to *@num entries, and set *@num to
 * the number filled (the rest of @out, if larger, is NULLed).
 */
static CUresult cu_report_nodes(struct cu_graph_node *const *v, size_t n,
				CUgraphNode *out, size_t *num)
{
	size_t i;

	if (!num)
		return CUDA_ERROR_INVALID_VALUE;
	if (!out) {
		*num = n;
		return CUDA_SUCCESS;
	}
	for (i = 0; i < *num; i++)
		out[i] = i < n ? (CUgraphNode)v[i] : NULL;
	if (*num > n)
		*num = n;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes,
					   size_t *numNodes)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_report_nodes(g->nodes, g->num_nodes, nodes, numNodes);
}

CU_EXPORT CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph,
					       CUgraphNode *rootNodes,
					       size_t *numRootNodes)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	struct cu_graph_node **roots;
	size_t i, n = 0;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g))
		return CUDA_ERROR_INVALID_VALUE;
	roots = calloc(g->num_nodes ? g->num_nodes : 1, sizeof(*roots));
	if (!roots)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < g->num_nodes; i++)
		if (!g->nodes[i]->num_deps)
			roots[n++] = g->nodes[i];
	res = cu_report_nodes(roots, n, rootNodes, numRootNodes);
	free(roots);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode,
		CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
		size_t *numDependencies)
{
	struct cu_graph_node *n = (struct cu_graph_node *)hNode;
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_node_valid(n))
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_report_nodes(n->deps, n->num_deps, dependencies,
			      numDependencies);
	if (res == CUDA_SUCCESS && dependencies && edgeData)
		for (i = 0; i < *numDependencies; i++)
			memset(&edgeData[i], 0, sizeof(edgeData[i]));
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode,
					      CUgraphNodeType *type)
{
	struct cu_graph_node *n = (struct cu_graph_node *)hNode;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!type || !cu_graph_node_valid(n))
		return CUDA_ERROR_INVALID_VALUE;
	*type = n->type;
	return CUDA_SUCCESS;
}

CUresult cu_graph_node_of_type(CUgraphNode h, CUgraphNodeType type,
			       const void *arg, struct cu_graph_node **out)
{
	struct cu_graph_node *n = (struct cu_graph_node *)h;
	CUresult res = cu_initialized();

	*out = NULL;
	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_node_valid(n) || n->type != type || !arg)
		return CUDA_ERROR_INVALID_VALUE;
	*out = n;
	return CUDA_SUCCESS;
}

/* The CUDA parameter struct a node holds. */
static const void *cu_node_params(const struct cu_graph_node *n)
{
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return &n->u.kernel.p;
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return &n->u.memcpy.p;
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return &n->u.memset;
	default:
		return &n->u.host;
	}
}

/*
 * The cuGraph*NodeGetParams calls: copy node @h's parameters, @size bytes
 * of the struct of @type, to @out.  For a kernel node, kernelParams
 * points at the node's own copies of the arguments, valid while the node
 * lives.
 */
static CUresult cu_node_get_params(CUgraphNode h, CUgraphNodeType type,
				   void *out, size_t size)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, type, out, &n);

	if (res == CUDA_SUCCESS)
		memcpy(out, cu_node_params(n), size);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode,
		CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	return cu_node_get_params(hNode, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams,
				  sizeof(*nodeParams));
}

CU_EXPORT CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode,
		CUDA_MEMCPY3D *nodeParams)
{
	return cu_node_get_params(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams,
				  sizeof(*nodeParams));
}

CU_EXPORT CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode,
		CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
	return cu_node_get_params(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams,
				  sizeof(*nodeParams));
}

CU_EXPORT CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode,
		CUDA_HOST_NODE_PARAMS *nodeParams)
{
	return cu_node_get_params(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams,
				  sizeof(*nodeParams));
}

CU_EXPORT CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode,
		const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(hNode, CU_GRAPH_NODE_TYPE_KERNEL,
					     nodeParams, &n);

	if (res == CUDA_SUCCESS)
		res = cu_kernel_node_check(&n->u.kernel, nodeParams);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_kernel_node_set(&n->u.kernel, nodeParams);
}

/* ---- child graphs, events, clones ------------------------------------------ */

CU_EXPORT CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, CUgraph childGraph)
{
	CUresult res;

	if (!cu_graph_valid((struct cu_graph *)childGraph))
		return cu_initialized() != CUDA_SUCCESS ? cu_initialized() :
		       CUDA_ERROR_INVALID_VALUE;
	res = cu_graph_add_api(phGraphNode, hGraph, dependencies,
			       numDependencies, CU_GRAPH_NODE_TYPE_GRAPH,
			       childGraph, NULL);
	if (res == CUDA_SUCCESS) {
		struct cu_graph_node *n = (struct cu_graph_node *)*phGraphNode;

		n->u.child->owner = n;
	}
	return res;
}

/* The node's own copy of the graph: changing it changes the node. */
CU_EXPORT CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode,
							 CUgraph *phGraph)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(hNode, CU_GRAPH_NODE_TYPE_GRAPH,
					     phGraph, &n);

	if (res == CUDA_SUCCESS)
		*phGraph = (CUgraph)n->u.child;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, CUevent event)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
				event, NULL);
}

CU_EXPORT CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, CUevent event)
{
	return cu_graph_add_api(phGraphNode, hGraph, dependencies,
				numDependencies, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
				event, NULL);
}

static CUresult cu_event_node_get(CUgraphNode h, CUgraphNodeType type,
				  CUevent *out)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, type, out, &n);

	if (res == CUDA_SUCCESS)
		*out = n->u.event;
	return res;
}

static CUresult cu_event_node_set(CUgraphNode h, CUgraphNodeType type,
				  CUevent ev)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, type, ev, &n);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_valid(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_VALUE;
	n->u.event = ev;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode,
							  CUevent *event_out)
{
	return cu_event_node_get(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
				 event_out);
}

CU_EXPORT CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode hNode,
							  CUevent event)
{
	return cu_event_node_set(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
}

CU_EXPORT CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode,
							CUevent *event_out)
{
	return cu_event_node_get(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
				 event_out);
}

CU_EXPORT CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode hNode,
							CUevent event)
{
	return cu_event_node_set(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
}

CU_EXPORT CUresult CUDAAPI cuGraphClone(CUgraph *phGraphClone,
					CUgraph originalGraph)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!phGraphClone || !cu_graph_valid((struct cu_graph *)originalGraph))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_graph_clone((struct cu_graph *)originalGraph,
			      (struct cu_graph **)phGraphClone, true);
}

/*
 * The node of clone @hClonedGraph that was copied from @hOriginalNode:
 * a clone keeps its nodes in the original's order, and each remembers
 * the node it came from.
 */
CU_EXPORT CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode *phNode,
		CUgraphNode hOriginalNode, CUgraph hClonedGraph)
{
	struct cu_graph *c = (struct cu_graph *)hClonedGraph;
	struct cu_graph_node *o = (struct cu_graph_node *)hOriginalNode;
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!phNode || !cu_graph_valid(c) || !cu_graph_node_valid(o))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < c->num_nodes; i++) {
		if (c->nodes[i]->cloned_from == o &&
		    c->cloned_from == o->graph) {
			*phNode = (CUgraphNode)c->nodes[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* Every edge of the graph, as from[i] -> to[i]. */
CU_EXPORT CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from,
		CUgraphNode *to, CUgraphEdgeData *edgeData, size_t *numEdges)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	size_t i, j, k = 0, total = 0;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g) || !numEdges || (!from != !to))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < g->num_nodes; i++)
		total += g->nodes[i]->num_deps;
	if (!from) {
		*numEdges = total;
		return CUDA_SUCCESS;
	}
	for (i = 0; i < g->num_nodes; i++) {
		const struct cu_graph_node *n = g->nodes[i];

		for (j = 0; j < n->num_deps && k < *numEdges; j++, k++) {
			from[k] = (CUgraphNode)n->deps[j];
			to[k] = (CUgraphNode)n;
			if (edgeData)
				memset(&edgeData[k], 0, sizeof(edgeData[k]));
		}
	}
	for (i = k; i < *numEdges; i++)
		from[i] = to[i] = NULL;
	*numEdges = k;
	return CUDA_SUCCESS;
}

/*
 * The generic form of the cuGraphAdd*Node calls (CUDA 12.3): the node's
 * type and a union of the parameter structs.  Only the types this
 * library has; edge data must be the default.
 */
CU_EXPORT CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		const CUgraphEdgeData *dependencyData, size_t numDependencies,
		CUgraphNodeParams *nodeParams)
{
	static const CUgraphEdgeData none;
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!nodeParams)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; dependencyData && i < numDependencies; i++)
		if (memcmp(&dependencyData[i], &none, sizeof(none)))
			return CUDA_ERROR_NOT_SUPPORTED;
	switch (nodeParams->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		CUDA_KERNEL_NODE_PARAMS k;

		cu_kernel_params_of(nodeParams, &k);
		return cuGraphAddKernelNode(phGraphNode, hGraph, dependencies,
					    numDependencies, &k);
	}
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuGraphAddMemcpyNode(phGraphNode, hGraph, dependencies,
					    numDependencies,
					    &nodeParams->memcpy.copyParams,
					    nodeParams->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		CUDA_MEMSET_NODE_PARAMS m;

		cu_memset_params_of(nodeParams, &m);
		return cuGraphAddMemsetNode(phGraphNode, hGraph, dependencies,
					    numDependencies, &m,
					    nodeParams->memset.ctx);
	}
	case CU_GRAPH_NODE_TYPE_HOST: {
		CUDA_HOST_NODE_PARAMS h;

		cu_host_params_of(nodeParams, &h);
		return cuGraphAddHostNode(phGraphNode, hGraph, dependencies,
					  numDependencies, &h);
	}
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return cuGraphAddChildGraphNode(phGraphNode, hGraph,
						dependencies, numDependencies,
						nodeParams->graph.graph);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return cuGraphAddEmptyNode(phGraphNode, hGraph, dependencies,
					   numDependencies);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphAddEventWaitNode(phGraphNode, hGraph,
					       dependencies, numDependencies,
					       nodeParams->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphAddEventRecordNode(phGraphNode, hGraph,
						 dependencies, numDependencies,
						 nodeParams->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
		CUDA_MEM_ALLOC_NODE_PARAMS a = {
			.poolProps = nodeParams->alloc.poolProps,
			.accessDescs = nodeParams->alloc.accessDescs,
			.accessDescCount = nodeParams->alloc.accessDescCount,
			.bytesize = nodeParams->alloc.bytesize,
		};

		res = cuGraphAddMemAllocNode(phGraphNode, hGraph, dependencies,
					     numDependencies, &a);
		if (res == CUDA_SUCCESS)
			nodeParams->alloc.dptr = a.dptr;
		return res;
	}
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return cuGraphAddMemFreeNode(phGraphNode, hGraph, dependencies,
					     numDependencies,
					     nodeParams->free.dptr);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		res = cu_graph_add_api(phGraphNode, hGraph, dependencies,
				       numDependencies,
				       CU_GRAPH_NODE_TYPE_CONDITIONAL,
				       &nodeParams->conditional, NULL);
		if (res == CUDA_SUCCESS) {
			struct cu_graph_node *n =
				(struct cu_graph_node *)*phGraphNode;

			nodeParams->conditional.phGraph_out =
				(CUgraph *)n->u.cond.body;
		}
		return res;
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cu_extsem_generic(phGraphNode, hGraph, NULL, NULL,
					 dependencies, numDependencies,
					 nodeParams);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}
