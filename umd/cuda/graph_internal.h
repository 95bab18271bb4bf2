/* SPDX-License-Identifier: GPL-2.0 */
/*
 * graph_internal.h - the objects behind CUgraph, CUgraphNode and
 * CUgraphExec, and what stream capture shares with them.
 *
 *   cu_graph       a set of nodes and the edges between them (graph.c)
 *   cu_graph_node  one operation with its parameters, copied when the
 *                  node is made, and the nodes it depends on
 *   cu_graph_exec  an instantiated graph: the nodes' copies in an order
 *                  that respects every edge (graph_exec.c)
 *   cu_capture     one capture sequence: the graph that stream capture
 *                  builds and the state of the capture (stream_capture.c)
 *
 * A node's parameters are copied in full (kernel arguments included), so
 * a graph never points into the caller's memory: the caller may reuse
 * its argument array as soon as the add call returns, as with CUDA.
 */
#ifndef VGPU_CUDA_GRAPH_INTERNAL_H
#define VGPU_CUDA_GRAPH_INTERNAL_H

#include "cuda_internal.h"

#define CU_GRAPH_MAGIC		0x48505247u	/* "GRPH" */
#define CU_GRAPH_NODE_MAGIC	0x45444f4eu	/* "NODE" */
#define CU_GRAPH_EXEC_MAGIC	0x43455847u	/* "GXEC" */

/* A kernel node: the launch and its own copy of the arguments. */
struct cu_kernel_node {
	CUDA_KERNEL_NODE_PARAMS p;	/* kernelParams = args, extra NULL */
	uint8_t *arg_buf;		/* the packed parameter buffer */
	void **args;			/* one pointer per parameter into it */
	/* launch attributes (graph_kernel_attr.c); cluster 0 0 0: none */
	bool cooperative;
	unsigned int cluster[3];
};

/* A copy node: CUDA's 3D description, and the context it runs in. */
struct cu_memcpy_node {
	CUDA_MEMCPY3D p;
	CUcontext ctx;
};

/*
 * A graph allocation (graph_mem.c): device memory whose address is fixed
 * when the allocation node is made and stays the same for every launch.
 * Shared by the node, its clones and the executable graphs made from
 * them; the memory goes back to the device's graph-memory cache when the
 * last of them goes.
 */
struct cu_graph_alloc {
	unsigned int refs;		/* cu_graph_mem_lock */
	struct cu_device *dev;
	struct cu_ctx *ctx;		/* whose address space holds it */
	CUdeviceptr dptr;
	size_t size;			/* asked for */
	size_t backing;			/* of the device memory behind it */
	bool live;			/* allocated by a launch, not yet freed */
	bool materialized;		/* launched once: in the footprint */
	unsigned int execs;		/* executable graphs that hold it */
	struct cu_graph_alloc *next;	/* in the list of all allocations */
};

/* An allocation node: CUDA's parameters (dptr filled in) and the memory. */
struct cu_mem_alloc_node {
	CUDA_MEM_ALLOC_NODE_PARAMS p;	/* accessDescs not kept: NULL */
	struct cu_graph_alloc *a;
};

/*
 * A conditional handle (graph_cond.c): a 32-bit cell in mapped pinned
 * memory.  The handle's value is the cell's device address, so that
 * cudaGraphSetConditional() on the device is one store (devrt.ptx); the
 * launching thread reads the cell through its host address.
 */
struct cu_graph_cond {
	unsigned int refs;		/* graph, nodes, executable graphs */
	uint32_t *cell;			/* host address */
	CUdeviceptr dptr;		/* = the CUgraphConditionalHandle */
	unsigned int default_value;
	unsigned int flags;		/* CU_GRAPH_COND_ASSIGN_DEFAULT */
	struct cu_graph *graph;		/* it was made for (NULL once gone) */
};

/* A conditional node: its type, its handle and its body graphs. */
struct cu_cond_node {
	CUgraphConditionalNodeType type;
	unsigned int size;		/* bodies */
	struct cu_graph_cond *cond;
	struct cu_graph **body;		/* owned, size of them */
	CUcontext ctx;
};

/*
 * An external-semaphore signal or wait node (graph_extsem.c): its own
 * copy of the handles and of their CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS
 * or _WAIT_PARAMS.
 */
struct cu_extsem_node {
	CUexternalSemaphore *sems;
	void *params;
	unsigned int n;
};

struct cu_graph_node {
	uint32_t magic;
	struct cu_graph *graph;
	size_t index;			/* in graph->nodes */
	CUgraphNodeType type;
	struct cu_graph_node **deps;	/* the nodes this one waits for */
	size_t num_deps, deps_cap;
	union {
		struct cu_kernel_node kernel;
		struct cu_memcpy_node memcpy;
		CUDA_MEMSET_NODE_PARAMS memset;
		CUDA_HOST_NODE_PARAMS host;
		struct cu_graph *child;		/* GRAPH: owned copy */
		CUevent event;			/* EVENT_RECORD, WAIT_EVENT */
		struct cu_mem_alloc_node alloc;
		CUdeviceptr free_ptr;		/* MEM_FREE */
		struct cu_cond_node cond;
		struct cu_extsem_node extsem;	/* EXT_SEMAS_SIGNAL, _WAIT */
	} u;
	/*
	 * In an executable graph only: the child graph's, or the
	 * conditional's bodies', executable graphs.
	 */
	struct cu_graph_exec **sub;
	size_t num_sub;
	/* In an executable graph: it holds its allocation (MEM_ALLOC). */
	bool holds_alloc;
	/* In an executable graph: cuGraphNodeSetEnabled turned it off, and
	 * a launch treats it as an empty node (graph_edit.c). */
	bool disabled;
	/* In a clone only: the node it was copied from. */
	const struct cu_graph_node *cloned_from;
};

/* A user object (graph_user_object.c): a destructor run at refcount 0. */
struct cu_user_object {
	uint32_t magic;
	unsigned int refs;		/* cu_user_object_lock */
	void *ptr;
	CUhostFn destroy;
};

/* References a graph or an executable graph holds to user objects. */
struct cu_user_ref {
	struct cu_user_object *obj;
	unsigned int count;
};

struct cu_graph {
	uint32_t magic;
	struct cu_graph_node **nodes;	/* in the order they were added */
	size_t num_nodes, nodes_cap;
	/* A clone: the graph it was copied from (cuGraphNodeFindInClone). */
	const struct cu_graph *cloned_from;
	/* A child graph or a conditional's body: the node that owns it. */
	struct cu_graph_node *owner;
	/* Conditional handles made for this graph (graph_cond.c). */
	struct cu_graph_cond **conds;
	size_t num_conds;
	/* User objects it holds references to (graph_user_object.c). */
	struct cu_user_ref *users;
	size_t num_users;
};

struct cu_graph_exec {
	uint32_t magic;
	struct cu_ctx *ctx;		/* current when instantiated */
	struct cu_graph_node *nodes;	/* copies, in topological order */
	struct cu_graph_node **origin;	/* the graph's node of each copy */
	size_t num_nodes;
	/* The edges by position: node i waits for nodes dep[dep_first[i]]
	 * up to dep[dep_first[i + 1]] (all earlier in the order). */
	size_t *dep_first, *dep;
	/* Nodes another lane may wait for: published as soon as submitted. */
	bool *publish;
	unsigned long long flags;	/* CUDA_GRAPH_INSTANTIATE_FLAG_* */
	/* The graph's conditional handles, set to their defaults per launch. */
	struct cu_graph_cond **conds;
	size_t num_conds;
	/* The user objects the graph held when instantiated. */
	struct cu_user_ref *users;
	size_t num_users;

	pthread_mutex_t launch_lock;	/* one launch at a time; @last */
	struct cu_point last;		/* where the previous launch ended */
};

/* ---- graph_launch.c ------------------------------------------------------ */

/*
 * Submit every node of @e, in order, on @s (the stream handle @h names)
 * and the context's lanes;
 * ordered after @s's earlier work, and @s's later work after it.
 */
CUresult cu_graph_exec_launch(struct cu_graph_exec *e, struct cu_stream *s,
			      CUstream h);

/* Run a conditional node (graph_cond.c): body launches on @s (@h). */
CUresult cu_cond_launch(const struct cu_graph_node *n, struct cu_stream *s,
			CUstream h);
/* Set every handle of @e with ASSIGN_DEFAULT to its default, on @h. */
CUresult cu_cond_assign_defaults(const struct cu_graph_exec *e, CUstream h);

/* ---- graph_exec.c ------------------------------------------------------ */

/*
 * Instantiate @g for context @ctx: the caller's graph (@top: a handle
 * comes back), or a node's child graph or body (not a handle).
 */
CUresult cu_graph_instantiate(struct cu_graph_exec **out,
			      struct cu_graph *g, struct cu_ctx *ctx,
			      unsigned long long flags, bool top);
void cu_graph_exec_free(struct cu_graph_exec *e);
/* A live executable-graph handle, or NULL. */
struct cu_graph_exec *cu_exec_of(CUgraphExec h);

/* ---- graph_update.c ---------------------------------------------------- */

/*
 * Give executable graph @e the parameters of @g, a graph of the same
 * shape (cuGraphExecUpdate's rules); CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE
 * and @e unchanged if the shapes differ.  The caller holds what keeps
 * launches of @e out.
 */
CUresult cu_graph_exec_update_from(struct cu_graph_exec *e,
				   const struct cu_graph *g);

/* ---- graph_edit.c ------------------------------------------------------ */

/* The kernel, memset and host parameters of a CUgraphNodeParams. */
void cu_kernel_params_of(const CUgraphNodeParams *p,
			 CUDA_KERNEL_NODE_PARAMS *k);
void cu_memset_params_of(const CUgraphNodeParams *p,
			 CUDA_MEMSET_NODE_PARAMS *m);
void cu_host_params_of(const CUgraphNodeParams *p, CUDA_HOST_NODE_PARAMS *h);

/*
 * The executable copy of graph node @h in @hExec, of type @type (any: -1),
 * with the executable graph's launch lock held on success.
 */
CUresult cu_exec_node_lock(CUgraphExec hExec, CUgraphNode h, int type,
			   const void *arg, struct cu_graph_exec **pe,
			   struct cu_graph_node **out);

/* ---- graph_extsem.c ------------------------------------------------------ */

/* Check and copy @p (CUDA_EXT_SEM_*_NODE_PARAMS of @n's type) into @n. */
CUresult cu_extsem_node_set(struct cu_graph_node *n, const void *p);
void cu_extsem_node_free(struct cu_graph_node *n);
CUresult cu_extsem_node_copy(struct cu_graph_node *dst,
			     const struct cu_graph_node *src);
/* Queue the node's signals or waits on stream @h. */
CUresult cu_extsem_node_launch(const struct cu_graph_node *n, CUstream h);
/* cuGraphExecUpdate: executable node @x takes @m's (same count). */
CUresult cu_extsem_node_update(struct cu_graph_node *x,
			       const struct cu_graph_node *m);
/*
 * The generic calls for these nodes: add (@ph set), set on an executable
 * graph's node (@e set) or on a graph's node.
 */
CUresult cu_extsem_generic(CUgraphNode *ph, CUgraph g, CUgraphExec e,
			   CUgraphNode h, const CUgraphNode *deps,
			   size_t num_deps, const CUgraphNodeParams *p);

/* ---- graph_cond.c --------------------------------------------------------- */

void cu_cond_get(struct cu_graph_cond *c);
void cu_cond_put(struct cu_graph_cond *c);
/* The live handle @h, or NULL. */
struct cu_graph_cond *cu_cond_lookup(CUgraphConditionalHandle h);
/* Check and copy conditional parameters into @n (bodies created). */
CUresult cu_cond_node_set(struct cu_graph_node *n,
			  const CUDA_CONDITIONAL_NODE_PARAMS *p);

/* ---- graph_mem.c ------------------------------------------------------ */

/* Make @n's allocation from @p (sets p->dptr). */
CUresult cu_mem_alloc_node_set(struct cu_graph_node *n,
			       CUDA_MEM_ALLOC_NODE_PARAMS *p);
void cu_graph_alloc_get(struct cu_graph_alloc *a);
void cu_graph_alloc_put(struct cu_graph_alloc *a);
/* A launch reached an allocation node / a free node. */
CUresult cu_graph_alloc_launch(struct cu_graph_alloc *a, bool auto_free);
/* An executable graph takes (@take) or drops an allocation; taking one
 * another executable graph holds is CUDA_ERROR_NOT_SUPPORTED. */
CUresult cu_graph_alloc_exec(struct cu_graph_alloc *a, bool take);
bool cu_graph_alloc_is_live(struct cu_graph_alloc *a);

/* ---- graph_user_object.c ------------------------------------------------ */

/* Add a copy of @n references in @from to @to (a clone, an instance). */
CUresult cu_user_refs_copy(struct cu_user_ref **to, size_t *num_to,
			   const struct cu_user_ref *from, size_t n);
/* Drop every reference of the array, and the array. */
void cu_user_refs_drop(struct cu_user_ref *refs, size_t n);

/* ---- graph.c ----------------------------------------------------------- */

/* A new empty graph, registered as a live handle. */
CUresult cu_graph_new(struct cu_graph **out);
bool cu_graph_valid(const struct cu_graph *g);
bool cu_graph_node_valid(const struct cu_graph_node *n);
/*
 * The entry checks of a call on one node of a given type: the driver
 * initialized, @h a node of @type, @arg (what the call reads or writes)
 * not NULL.  The node in *@out.
 */
CUresult cu_graph_node_of_type(CUgraphNode h, CUgraphNodeType type,
			       const void *arg, struct cu_graph_node **out);
/*
 * Add a node of @type with a copy of @params (the type's parameter
 * struct; NULL for an empty node) depending on @deps, which must be
 * nodes of @g.
 */
CUresult cu_graph_add(struct cu_graph *g, CUgraphNodeType type,
		      const void *params, CUcontext ctx,
		      struct cu_graph_node *const *deps, size_t num_deps,
		      struct cu_graph_node **out);
/* Append @p to a growing array of node pointers. */
CUresult cu_node_list_push(struct cu_graph_node ***v, size_t *n, size_t *cap,
			   struct cu_graph_node *p);
/*
 * Check @params (the struct of @n's type) and make them @n's; @n's old
 * parameters must own nothing (a new node, or a copy to be discarded).
 */
CUresult cu_graph_node_set_params(struct cu_graph_node *n,
				  const void *params, CUcontext ctx);
/* Copy node @src's parameters into @dst (a new node of the same type). */
CUresult cu_graph_node_copy_params(struct cu_graph_node *dst,
				   const struct cu_graph_node *src);
/* Free what a node's parameters own (not the node). */
void cu_graph_node_free_params(struct cu_graph_node *n);
/* Set a kernel node's launch, copying the arguments. */
/*
 * graph_kernel_attr.c: a kernel node's launch attributes (cooperative,
 * cluster shape) - copied with the node, set from a captured launch's
 * configuration, and honoured when the node is launched.
 */
void cu_kernel_node_copy_attrs(struct cu_kernel_node *dst,
			       const struct cu_kernel_node *src);
CUresult cu_kernel_node_capture_attrs(CUstream h,
				      const struct cu_launch_cfg *c);
CUresult cu_kernel_node_launch(const struct cu_kernel_node *k, CUstream h);
CUresult cu_kernel_node_check(const struct cu_kernel_node *k,
			      const CUDA_KERNEL_NODE_PARAMS *p);
CUresult cu_kernel_node_set(struct cu_kernel_node *k,
			    const CUDA_KERNEL_NODE_PARAMS *p);
/* Destroy a graph and its nodes. */
void cu_graph_free(struct cu_graph *g);
/* A copy of @g: every node, edge, child graph and user reference. */
CUresult cu_graph_clone(const struct cu_graph *g, struct cu_graph **out,
			bool register_handle);
/* The node's name of its type, for messages and DOT files. */
const char *cu_graph_node_type_name(CUgraphNodeType t);

/* ---- stream_capture.c --------------------------------------------------- */

/* One live capture sequence (the graph is handed over by EndCapture). */
struct cu_capture {
	struct cu_graph *graph;
	struct cu_stream *origin;
	unsigned long long id;
	CUstreamCaptureMode mode;
	pthread_t thread;		/* that began it */
	CUresult error;			/* CUDA_SUCCESS while valid */
	bool ended;
	bool user_graph;		/* cuStreamBeginCaptureToGraph's */
	unsigned int refs;		/* streams and events that name it */
	struct cu_capture *next;	/* in the list of live captures */
};

/* A stream's or a captured event's place in a capture: its leaf nodes. */
struct cu_capture_point {
	struct cu_capture *seq;
	struct cu_graph_node **deps;
	size_t num_deps;
};

#endif /* VGPU_CUDA_GRAPH_INTERNAL_H */
