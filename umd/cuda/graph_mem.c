// SPDX-License-Identifier: GPL-2.0
/*
 * graph_mem.c - graph memory: allocation and free nodes, the graph
 * memory footprint (cuDeviceGetGraphMemAttribute) and cuDeviceGraphMemTrim.
 *
 * CUDA fixes a graph allocation's address when the allocation node is
 * made, so that later nodes can name it in their parameters, and keeps
 * it for every launch.  Here the node gets device memory at once and
 * keeps it; its clones and the executable graphs made from it share the
 * same memory (struct cu_graph_alloc, counted).  A launch that reaches
 * the node makes the allocation *live*; a free node, cuMemFree or
 * cuMemFreeAsync of its address ends that.  A live allocation may not
 * be allocated again: the next launch of its executable graph fails,
 * unless the graph was instantiated with
 * CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH.  Only one executable
 * graph at a time may hold a graph's allocations.
 *
 *   node made        launch          free node / cuMemFree
 *   [address] -----> [live] -------> [not live] --...--> last node or
 *                      |                                 exec gone: cached
 *                  counted in the footprint     cuDeviceGraphMemTrim:
 *                  from the first launch on     cache -> VRAM, uncounted
 *
 * When the last node or executable graph naming an allocation goes, its
 * memory is not returned to the device but cached for the device's next
 * allocation node; cuDeviceGraphMemTrim gives the cache back.  The
 * footprint follows what an H100 reports (below).
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "handles.h"

/* Each allocation's own memory is rounded up to this. */
#define CU_GRAPH_MEM_GRAIN	(2ull << 20)
/*
 * The footprint is counted in the graph allocator's chunks: one 1 MiB or
 * 3 MiB allocation shows as 32 MiB used and reserved on an H100
 * (probe_graphs.h100.txt), like the chunks of the memory pools.
 */
#define CU_GRAPH_MEM_CHUNK	(32ull << 20)
/* Devices with a footprint of their own; the rest share the last. */
#define CU_GRAPH_MEM_DEVICES	64

static pthread_mutex_t cu_graph_mem_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every allocation that holds memory: in use (refs) or cached. */
static struct cu_graph_alloc *cu_graph_allocs;

/*
 * The footprint of one device (cu_graph_mem_lock): the memory of the
 * allocations that a launch has reached at least once and that a trim
 * has not given back.  An H100 reports "used" and "reserved" alike in
 * every state recorded (an allocation counts from its first launch, not
 * from its node, and stays counted after its free, its executable
 * graph's and its graph's destruction, until a trim), so both are that.
 */
struct cu_graph_mem_stats {
	uint64_t bytes;			/* of the allocations counted */
	uint64_t used_high, reserved_high;
};
static struct cu_graph_mem_stats cu_graph_mem_stats[CU_GRAPH_MEM_DEVICES];

static struct cu_graph_mem_stats *cu_stats(const struct cu_device *d)
{
	unsigned int i = d->ordinal;

	return &cu_graph_mem_stats[i < CU_GRAPH_MEM_DEVICES ? i :
				   CU_GRAPH_MEM_DEVICES - 1];
}

/* The footprint as reported: whole chunks. */
static uint64_t cu_stats_current(const struct cu_graph_mem_stats *st)
{
	return cu_align_up(st->bytes, CU_GRAPH_MEM_CHUNK);
}

static void cu_stats_add(struct cu_device *d, int64_t bytes)
{
	struct cu_graph_mem_stats *st = cu_stats(d);
	uint64_t now;

	st->bytes += bytes;
	now = cu_stats_current(st);
	if (now > st->used_high)
		st->used_high = now;
	if (now > st->reserved_high)
		st->reserved_high = now;
}

void cu_graph_alloc_get(struct cu_graph_alloc *a)
{
	pthread_mutex_lock(&cu_graph_mem_lock);
	a->refs++;
	pthread_mutex_unlock(&cu_graph_mem_lock);
}

/* Dropping the last reference leaves the memory in the cache. */
void cu_graph_alloc_put(struct cu_graph_alloc *a)
{
	pthread_mutex_lock(&cu_graph_mem_lock);
	a->refs--;
	pthread_mutex_unlock(&cu_graph_mem_lock);
}

/* A cached allocation of @ctx big enough for @size, or a new one. */
static CUresult cu_graph_alloc_new(struct cu_ctx *ctx, size_t size,
				   struct cu_graph_alloc **out)
{
	struct cu_graph_alloc *a;
	size_t backing = cu_align_up(size, CU_GRAPH_MEM_GRAIN);
	CUresult res;

	pthread_mutex_lock(&cu_graph_mem_lock);
	for (a = cu_graph_allocs; a; a = a->next) {
		if (!a->refs && a->ctx == ctx && a->backing >= size) {
			a->refs = 1;
			a->size = size;
			pthread_mutex_unlock(&cu_graph_mem_lock);
			*out = a;
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&cu_graph_mem_lock);
	a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = cu_mem_device_alloc(ctx, backing, &a->dptr);
	if (res != CUDA_SUCCESS) {
		free(a);
		return res;
	}
	a->refs = 1;
	a->ctx = ctx;
	a->dev = ctx->dev;
	a->size = size;
	a->backing = backing;
	pthread_mutex_lock(&cu_graph_mem_lock);
	a->next = cu_graph_allocs;
	cu_graph_allocs = a;
	pthread_mutex_unlock(&cu_graph_mem_lock);
	*out = a;
	return CUDA_SUCCESS;
}

/*
 * An allocation node's parameters: pinned device memory of the current
 * context's device, no IPC handle type, a size; access descriptors for
 * other devices are refused (one device has no peers here).
 */
CUresult cu_mem_alloc_node_set(struct cu_graph_node *n,
			       CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	const CUmemPoolProps *pp = &p->poolProps;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!p->bytesize || pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    pp->location.id != (int)ctx->dev->ordinal)
		return CUDA_ERROR_INVALID_VALUE;
	/* Graph memory cannot be shared with another process (H100). */
	if (pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (p->accessDescCount &&
	    (!p->accessDescs || p->accessDescCount > 1 ||
	     p->accessDescs[0].location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	     p->accessDescs[0].location.id != (int)ctx->dev->ordinal))
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_graph_alloc_new(ctx, p->bytesize, &n->u.alloc.a);
	if (res != CUDA_SUCCESS)
		return res;
	p->dptr = n->u.alloc.a->dptr;
	n->u.alloc.p = *p;
	n->u.alloc.p.accessDescs = NULL;
	n->u.alloc.p.accessDescCount = 0;
	return CUDA_SUCCESS;
}

/* The allocation that starts at @ptr and is still named by someone. */
static struct cu_graph_alloc *cu_graph_alloc_find(CUdeviceptr ptr)
{
	struct cu_graph_alloc *a;

	for (a = cu_graph_allocs; a; a = a->next)
		if (a->dptr == ptr && (a->refs || a->live))
			return a;
	return NULL;
}

bool cu_graph_alloc_known(CUdeviceptr ptr)
{
	bool known;

	if (!ptr)
		return false;
	pthread_mutex_lock(&cu_graph_mem_lock);
	known = cu_graph_alloc_find(ptr) != NULL;
	pthread_mutex_unlock(&cu_graph_mem_lock);
	return known;
}

/* End the allocation's life (cu_graph_mem_lock held). */
static void cu_graph_alloc_unlive(struct cu_graph_alloc *a)
{
	if (!a->live)
		return;
	a->live = false;
	a->refs--;		/* the launch's reference */
}

CUresult cu_graph_alloc_launch(struct cu_graph_alloc *a, bool auto_free)
{
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&cu_graph_mem_lock);
	if (a->live && auto_free)
		cu_graph_alloc_unlive(a);
	if (a->live) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		/* Live memory stays while its user holds the address. */
		a->live = true;
		a->refs++;
		if (!a->materialized)
			cu_stats_add(a->dev, (int64_t)a->backing);
		a->materialized = true;
	}
	pthread_mutex_unlock(&cu_graph_mem_lock);
	return res;
}

void cu_graph_alloc_free_ptr(CUdeviceptr ptr)
{
	struct cu_graph_alloc *a;

	pthread_mutex_lock(&cu_graph_mem_lock);
	a = cu_graph_alloc_find(ptr);
	if (a)
		cu_graph_alloc_unlive(a);
	pthread_mutex_unlock(&cu_graph_mem_lock);
}

CUresult cu_graph_alloc_exec(struct cu_graph_alloc *a, bool take)
{
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&cu_graph_mem_lock);
	if (!take)
		a->execs--;
	else if (a->execs)
		res = CUDA_ERROR_NOT_SUPPORTED;
	else
		a->execs++;
	pthread_mutex_unlock(&cu_graph_mem_lock);
	return res;
}

/* Whether a launch of @a now would find it still allocated. */
bool cu_graph_alloc_is_live(struct cu_graph_alloc *a)
{
	bool live;

	pthread_mutex_lock(&cu_graph_mem_lock);
	live = a->live;
	pthread_mutex_unlock(&cu_graph_mem_lock);
	return live;
}

/* ---- the API ---------------------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
	struct cu_graph_node *n;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!nodeParams)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_graph_add((struct cu_graph *)hGraph,
			   CU_GRAPH_NODE_TYPE_MEM_ALLOC, nodeParams, NULL,
			   (struct cu_graph_node *const *)dependencies,
			   numDependencies, &n);
	if (res == CUDA_SUCCESS)
		*phGraphNode = (CUgraphNode)n;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
		CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(hNode,
					     CU_GRAPH_NODE_TYPE_MEM_ALLOC,
					     params_out, &n);

	if (res == CUDA_SUCCESS)
		*params_out = n->u.alloc.p;
	return res;
}

/* A free node frees a graph allocation, once. */
CU_EXPORT CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode *phGraphNode,
		CUgraph hGraph, const CUgraphNode *dependencies,
		size_t numDependencies, CUdeviceptr dptr)
{
	struct cu_graph *g = (struct cu_graph *)hGraph;
	size_t i;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g) || !cu_graph_alloc_known(dptr))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < g->num_nodes; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_FREE &&
		    g->nodes[i]->u.free_ptr == dptr)
			return CUDA_ERROR_INVALID_VALUE;
	return cu_graph_add(g, CU_GRAPH_NODE_TYPE_MEM_FREE, &dptr, NULL,
			    (struct cu_graph_node *const *)dependencies,
			    numDependencies,
			    (struct cu_graph_node **)phGraphNode);
}

CU_EXPORT CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode hNode,
						       CUdeviceptr *dptr_out)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEM_FREE,
					     dptr_out, &n);

	if (res == CUDA_SUCCESS)
		*dptr_out = n->u.free_ptr;
	return res;
}

/*
 * The entry checks of the device's graph-memory calls: the driver
 * initialized, @device a device, then (with @has_value) @value, where
 * the call reads or writes, not NULL.
 */
static CUresult cu_graph_mem_args(CUdevice device, const void *value,
				  bool has_value, struct cu_device **out)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	*out = cu_device_get(device);
	if (!*out)
		return CUDA_ERROR_INVALID_DEVICE;
	return has_value && !value ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice device,
		CUgraphMem_attribute attr, void *value)
{
	struct cu_graph_mem_stats *st;
	struct cu_device *d;
	CUresult res = cu_graph_mem_args(device, value, true, &d);
	cuuint64_t v;

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_graph_mem_lock);
	st = cu_stats(d);
	switch (attr) {
	case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
		v = cu_stats_current(st);
		break;
	case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
		v = st->used_high;
		break;
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
		v = st->reserved_high;
		break;
	default:
		res = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&cu_graph_mem_lock);
	if (res == CUDA_SUCCESS)
		memcpy(value, &v, sizeof(v));
	return res;
}

/* Only the high watermarks can be set, and only to 0 (a reset). */
CU_EXPORT CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice device,
		CUgraphMem_attribute attr, void *value)
{
	struct cu_graph_mem_stats *st;
	struct cu_device *d;
	CUresult res = cu_graph_mem_args(device, value, true, &d);
	cuuint64_t v;

	if (res != CUDA_SUCCESS)
		return res;
	memcpy(&v, value, sizeof(v));
	if (v)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_graph_mem_lock);
	st = cu_stats(d);
	if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
		st->used_high = cu_stats_current(st);
	else if (attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
		st->reserved_high = cu_stats_current(st);
	else
		res = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&cu_graph_mem_lock);
	return res;
}

/*
 * Give the device's cached graph memory back: every allocation that no
 * node, executable graph or live use names any more.  One whose context
 * is gone was freed with the context; only the entry is dropped.
 */
CU_EXPORT CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice device)
{
	struct cu_graph_alloc **pp, *a, *dead = NULL;
	struct cu_device *d;
	CUresult res = cu_graph_mem_args(device, NULL, false, &d);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_graph_mem_lock);
	for (pp = &cu_graph_allocs; (a = *pp);) {
		if (a->dev != d || a->refs || a->live) {
			pp = &a->next;
			continue;
		}
		*pp = a->next;
		if (a->materialized)
			cu_stats_add(d, -(int64_t)a->backing);
		a->next = dead;
		dead = a;
	}
	pthread_mutex_unlock(&cu_graph_mem_lock);
	while ((a = dead)) {
		dead = a->next;
		if (cu_ctx_valid(a->ctx))
			cu_mem_device_free(a->ctx, a->dptr);
		free(a);
	}
	return CUDA_SUCCESS;
}
