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
};

/* A copy node: CUDA's 3D description, and the context it runs in. */
struct cu_memcpy_node {
	CUDA_MEMCPY3D p;
	CUcontext ctx;
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
	} u;
};

struct cu_graph {
	uint32_t magic;
	struct cu_graph_node **nodes;	/* in the order they were added */
	size_t num_nodes, nodes_cap;
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

/* ---- graph.c ----------------------------------------------------------- */

/* A new empty graph, registered as a live handle. */
CUresult cu_graph_new(struct cu_graph **out);
bool cu_graph_valid(const struct cu_graph *g);
bool cu_graph_node_valid(const struct cu_graph_node *n);
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
/* Copy node @src's parameters into @dst (a new node of the same type). */
CUresult cu_graph_node_copy_params(struct cu_graph_node *dst,
				   const struct cu_graph_node *src);
/* Free what a node's parameters own (not the node). */
void cu_graph_node_free_params(struct cu_graph_node *n);
/* Set a kernel node's launch, copying the arguments. */
CUresult cu_kernel_node_set(struct cu_kernel_node *k,
			    const CUDA_KERNEL_NODE_PARAMS *p);
/* Destroy a graph and its nodes. */
void cu_graph_free(struct cu_graph *g);

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
