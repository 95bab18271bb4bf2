// SPDX-License-Identifier: GPL-2.0
/*
 * graph_dot.c - cuGraphDebugDotPrint: a graph as a Graphviz DOT file.
 *
 * `dot -Tsvg graph.dot -o graph.svg` draws it: one box per node, labelled
 * with its type and what it does (the kernel's name and launch shape, a
 * copy's extent, a memset's value...), one arrow per edge, pointing from
 * a node to the nodes that wait for it.  A child graph and the bodies of
 * a conditional node are drawn as boxed clusters of their own, with a
 * dashed arrow from the node that owns them.  With
 * CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE or _HANDLES the labels also give the
 * handles, so that a learner can match a box with what the program
 * printed.
 */
#include <stdio.h>

#include "graph_internal.h"

struct cu_dot {
	FILE *f;
	unsigned int flags;
	unsigned int next_id;		/* for cluster names */
};

static bool cu_dot_want(const struct cu_dot *d, unsigned int flag)
{
	return d->flags & (CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE | flag);
}

static const char *cu_dot_cond_type(CUgraphConditionalNodeType t)
{
	switch (t) {
	case CU_GRAPH_COND_TYPE_IF:
		return "IF";
	case CU_GRAPH_COND_TYPE_WHILE:
		return "WHILE";
	default:
		return "SWITCH";
	}
}

/* The label of one node: its type on the first line, details below. */
static void cu_dot_label(const struct cu_dot *d, const struct cu_graph_node *n)
{
	FILE *f = d->f;

	fprintf(f, "%s", cu_graph_node_type_name(n->type));
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		const CUDA_KERNEL_NODE_PARAMS *k = &n->u.kernel.p;
		const struct cu_function *fn = cu_kernel_as_function(k->func);

		fprintf(f, "\\n%s\\n<<<(%u,%u,%u), (%u,%u,%u), %u>>>",
			fn && fn->name ? fn->name : "?", k->gridDimX,
			k->gridDimY, k->gridDimZ, k->blockDimX, k->blockDimY,
			k->blockDimZ, k->sharedMemBytes);
		break;
	}
	case CU_GRAPH_NODE_TYPE_MEMCPY: {
		const CUDA_MEMCPY3D *c = &n->u.memcpy.p;

		fprintf(f, "\\n%zu x %zu x %zu bytes", c->WidthInBytes,
			c->Height, c->Depth);
		if (cu_dot_want(d, CU_GRAPH_DEBUG_DOT_FLAGS_MEMCPY_NODE_PARAMS))
			fprintf(f, "\\nsrc 0x%llx -> dst 0x%llx",
				(unsigned long long)(c->srcDevice ? c->srcDevice :
				(uintptr_t)c->srcHost),
				(unsigned long long)(c->dstDevice ? c->dstDevice :
				(uintptr_t)c->dstHost));
		break;
	}
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		const CUDA_MEMSET_NODE_PARAMS *m = &n->u.memset;

		fprintf(f, "\\nvalue 0x%x, %u-byte elements\\n%zu x %zu",
			m->value, m->elementSize, m->width, m->height);
		if (cu_dot_want(d, CU_GRAPH_DEBUG_DOT_FLAGS_MEMSET_NODE_PARAMS))
			fprintf(f, "\\ndst 0x%llx pitch %zu",
				(unsigned long long)m->dst, m->pitch);
		break;
	}
	case CU_GRAPH_NODE_TYPE_HOST:
		if (cu_dot_want(d, CU_GRAPH_DEBUG_DOT_FLAGS_HOST_NODE_PARAMS))
			fprintf(f, "\\nfn %p", (void *)(uintptr_t)n->u.host.fn);
		break;
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		if (cu_dot_want(d, CU_GRAPH_DEBUG_DOT_FLAGS_EVENT_NODE_PARAMS))
			fprintf(f, "\\nevent %p", (void *)n->u.event);
		break;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		fprintf(f, "\\n%zu bytes at 0x%llx", n->u.alloc.p.bytesize,
			(unsigned long long)n->u.alloc.p.dptr);
		break;
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		fprintf(f, "\\n0x%llx", (unsigned long long)n->u.free_ptr);
		break;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		fprintf(f, "\\n%s, %u bod%s\\nhandle 0x%llx, default %u",
			cu_dot_cond_type(n->u.cond.type), n->u.cond.size,
			n->u.cond.size == 1 ? "y" : "ies",
			(unsigned long long)n->u.cond.cond->dptr,
			n->u.cond.cond->default_value);
		break;
	default:
		break;
	}
	if (cu_dot_want(d, CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES))
		fprintf(f, "\\nnode %p", (const void *)n);
}

static void cu_dot_graph(struct cu_dot *d, const struct cu_graph *g,
			 unsigned int id, const char *indent);

/* A child graph or a body, as a cluster; a dashed arrow from @owner. */
static void cu_dot_cluster(struct cu_dot *d, const struct cu_graph *g,
			   unsigned int owner_id, size_t owner_index,
			   const char *title, const char *indent)
{
	unsigned int id = ++d->next_id;

	fprintf(d->f, "%ssubgraph cluster_%u {\n", indent, id);
	fprintf(d->f, "%s\tlabel=\"%s\"; style=rounded;\n", indent, title);
	/* An empty body still gets a box the arrow can point at. */
	fprintf(d->f, "%s\tg%u_begin [label=\"begin\" shape=point];\n",
		indent, id);
	cu_dot_graph(d, g, id, "\t\t");
	fprintf(d->f, "%s}\n", indent);
	fprintf(d->f, "%sg%u_n%zu -> g%u_begin [style=dashed];\n", indent,
		owner_id, owner_index, id);
}

static void cu_dot_graph(struct cu_dot *d, const struct cu_graph *g,
			 unsigned int id, const char *indent)
{
	char title[32];
	size_t i, j;
	unsigned int b;

	for (i = 0; i < g->num_nodes; i++) {
		const struct cu_graph_node *n = g->nodes[i];

		fprintf(d->f, "%sg%u_n%zu [shape=box label=\"", indent, id, i);
		cu_dot_label(d, n);
		fprintf(d->f, "\"];\n");
	}
	for (i = 0; i < g->num_nodes; i++)
		for (j = 0; j < g->nodes[i]->num_deps; j++)
			fprintf(d->f, "%sg%u_n%zu -> g%u_n%zu;\n", indent, id,
				g->nodes[i]->deps[j]->index, id, i);
	for (i = 0; i < g->num_nodes; i++) {
		const struct cu_graph_node *n = g->nodes[i];

		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			cu_dot_cluster(d, n->u.child, id, i, "child graph",
				       indent);
		if (n->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
			continue;
		for (b = 0; b < n->u.cond.size; b++) {
			snprintf(title, sizeof(title), "body %u", b);
			cu_dot_cluster(d, n->u.cond.body[b], id, i, title,
				       indent);
		}
	}
}

CU_EXPORT CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph hGraph,
						const char *path,
						unsigned int flags)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	struct cu_dot d = { .flags = flags };
	CUresult res = cu_initialized();
	int err;

	if (res != CUDA_SUCCESS)
		return res;
	/* Flags CUDA does not define are ignored, as on an H100. */
	if (!cu_graph_valid(g) || !path)
		return CUDA_ERROR_INVALID_VALUE;
	d.f = fopen(path, "w");
	if (!d.f)
		return CUDA_ERROR_OPERATING_SYSTEM;
	fprintf(d.f, "digraph vgpu_graph {\n");
	fprintf(d.f, "\tlabel=\"graph %p\"; compound=true;\n", (void *)g);
	cu_dot_graph(&d, g, 0, "\t");
	fprintf(d.f, "}\n");
	err = ferror(d.f);
	if (fclose(d.f) || err)
		return CUDA_ERROR_OPERATING_SYSTEM;
	return CUDA_SUCCESS;
}
