// SPDX-License-Identifier: GPL-2.0
/*
 * graph_launch.c - how a graph launch becomes queue submissions.
 *
 * Each node is submitted as an ordinary stream operation (a LAUNCH
 * packet, COPY or MEMSET packets, a host call), in the topological order
 * of the executable graph, on one of a few *lanes*: the launch stream
 * itself and up to CU_GRAPH_LANES streams that the context lends to graph
 * launches.  A chain of nodes stays on one lane, where the stream order
 * keeps it in sequence; a node that starts a new branch goes to another
 * lane, so independent branches reach different queues and the device
 * runs them at the same time.  An edge between two lanes becomes a wait:
 * an empty operation on the later lane that waits (WAIT_MEM on the sync
 * slot, stream_order.c) for the point where the earlier node ended -
 * exactly what cuStreamWaitEvent does between two streams.
 *
 *   launch stream:  [start] A ------------- [wait C] D [wait lanes]
 *   lane 1:                  [wait start] [wait A] C
 *
 * The launch is ordered in its stream like any other work: the first
 * operation on the launch stream ("start") waits for what came before it
 * and for the previous launch of the same executable graph, every lane's
 * first operation waits for "start", and the launch stream's last
 * operation waits for every lane's last one, so whatever is enqueued on
 * the launch stream next comes after the whole graph.  When the context
 * cannot lend a lane (no queue left), branches simply share the lanes
 * there are - serialised, still correct.
 */
#include <stdlib.h>

#include "graph_internal.h"
#include "handles.h"

/* How long publishing a point may wait for room in a full ring. */
#define CU_GRAPH_PUBLISH_NS	(120ll * 1000000000)

/* Creating a context's lanes (once per context). */
static pthread_mutex_t cu_lane_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The context's lane @i, created on first use: a non-blocking stream,
 * in the context's list (so that it is waited for and freed with the
 * context), registered as a handle (so that the stream API accepts it)
 * but never handed to the application.  NULL if it cannot be made.
 */
static struct cu_stream *cu_graph_lane(struct cu_ctx *ctx, unsigned int i)
{
	struct cu_stream *s;

	pthread_mutex_lock(&cu_lane_lock);
	s = ctx->graph_lanes[i];
	if (s)
		goto out;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto out;
	if (cu_stream_init(ctx, s, CU_STREAM_NON_BLOCKING, 0, false) !=
	    CUDA_SUCCESS || cu_handle_add(s, CU_HANDLE_STREAM) != CUDA_SUCCESS) {
		cu_stream_fini(s);
		free(s);
		s = NULL;
		goto out;
	}
	pthread_mutex_lock(&ctx->lock);
	s->next = ctx->streams;
	ctx->streams = s;
	pthread_mutex_unlock(&ctx->lock);
	ctx->graph_lanes[i] = s;
out:
	pthread_mutex_unlock(&cu_lane_lock);
	return s;
}

static struct cu_point cu_stream_last(struct cu_stream *s)
{
	struct cu_point p;

	pthread_mutex_lock(&s->ctx->lock);
	p = s->last;
	pthread_mutex_unlock(&s->ctx->lock);
	return p;
}

/*
 * Have @p written to its queue's sync slot now.  Points are published
 * lazily, by the first waiter - which appends the slot write to the
 * queue *after* what was queued there since, say the kernel that comes
 * next on the same lane.  A branch waiting for @p would then wait for
 * that kernel too, and the branches would no longer overlap.
 */
static CUresult cu_publish_now(const struct cu_point *p)
{
	int ret;

	if (!p->queue || cu_point_done(p))
		return CUDA_SUCCESS;
	ret = cu_point_publish(p, vgpu_now_ns() + CU_GRAPH_PUBLISH_NS);
	return ret ? cu_from_errno(ret) : CUDA_SUCCESS;
}

/*
 * An operation on @s, on the queue of @engine, that only waits for @p;
 * its end point in @done.
 */
static CUresult cu_lane_wait(struct cu_stream *s, unsigned int engine,
			     const struct cu_point *p, struct cu_point *done)
{
	struct cu_op op;
	CUresult res = cu_op_begin(s, engine, p, &op);

	if (res != CUDA_SUCCESS)
		return res;
	return cu_op_end(&op, done);
}

/*
 * One copy node: each 2D slice of the 3D copy as one cuMemcpy2DAsync;
 * with an array side, the whole box as one cuMemcpy3DAsync (the copy
 * engine's tiling path, copy_array.c).
 */
static CUresult cu_exec_memcpy(const CUDA_MEMCPY3D *c, CUstream h)
{
	CUresult res = CUDA_SUCCESS;
	size_t z;

	if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
	    c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
		return cuMemcpy3DAsync(c, h);

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

/* Submit one node on stream @s (whose handle is @h). */
static CUresult cu_exec_node(const struct cu_graph_exec *e,
			     const struct cu_graph_node *n,
			     struct cu_stream *s, CUstream h)
{
	bool auto_free = e->flags &
			 CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH;

	/* A disabled node orders its dependents like an empty one. */
	if (n->disabled)
		return CUDA_SUCCESS;
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_GRAPH:
		/* The child's executable graph, ordered in this lane. */
		return cu_graph_exec_launch(n->sub[0], s, h);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuEventRecord(n->u.event, h);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuStreamWaitEvent(h, n->u.event, 0);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		/* The memory is there already; it becomes the launch's. */
		return cu_graph_alloc_launch(n->u.alloc.a, auto_free);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		cu_graph_alloc_free_ptr(n->u.free_ptr);
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return cu_cond_launch(n, s, h);
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cu_kernel_node_launch(&n->u.kernel, h);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cu_exec_memcpy(&n->u.memcpy.p, h);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return cu_exec_memset(&n->u.memset, h);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuLaunchHostFunc(h, n->u.host.fn, n->u.host.userData);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cu_extsem_node_launch(n, h);
	default:
		return CUDA_SUCCESS;	/* empty */
	}
}

/*
 * The engine whose queue a node's waits go to: the one the node itself
 * uses.  The GR engine runs one packet at a time, kernels to the end, so
 * a wait queued there would also wait for whatever kernel GR is running;
 * a copy (or a host function, whose operation goes to the copy queue for
 * the same reason: host_func.c) waits on a copy queue instead and can
 * overlap a kernel of another branch.
 */
static unsigned int cu_node_engine(const struct cu_graph_node *n)
{
	return n->type == CU_GRAPH_NODE_TYPE_KERNEL ? CU_ENGINE_COMPUTE :
	       CU_ENGINE_COPY;
}

/* What one launch keeps about its lanes and its nodes. */
struct cu_launch_state {
	struct cu_stream *lane[CU_GRAPH_LANES + 1];	/* 0: launch stream */
	CUstream handle[CU_GRAPH_LANES + 1];	/* what the stream API takes */
	unsigned int num_lanes;
	bool used[CU_GRAPH_LANES + 1];
	size_t tail[CU_GRAPH_LANES + 1];	/* last node on it, or SIZE_MAX */
	unsigned int next;			/* round robin for new branches */
	struct cu_point start;			/* the launch's first operation */
	unsigned int *lane_of;			/* per node */
	struct cu_point *done;			/* per node: where it ended */
};

/*
 * The lane for node @i: the lane of a dependency that is still that
 * lane's last node (the chain goes on there), else a lane not used yet
 * in this launch, else the next one in turn.
 */
static unsigned int cu_pick_lane(const struct cu_graph_exec *e,
				 struct cu_launch_state *ls, size_t i)
{
	size_t k;
	unsigned int l;

	for (k = e->dep_first[i]; k < e->dep_first[i + 1]; k++) {
		l = ls->lane_of[e->dep[k]];
		if (ls->tail[l] == e->dep[k])
			return l;
	}
	for (l = 0; l < ls->num_lanes; l++)
		if (!ls->used[l])
			return l;
	ls->next = (ls->next + 1) % ls->num_lanes;
	return ls->next;
}

/* Submit node @i on its lane, after its dependencies on other lanes. */
static CUresult cu_launch_node(const struct cu_graph_exec *e,
			       struct cu_launch_state *ls, size_t i)
{
	unsigned int l = cu_pick_lane(e, ls, i);
	unsigned int engine = cu_node_engine(&e->nodes[i]);
	struct cu_stream *s = ls->lane[l];
	CUresult res = CUDA_SUCCESS;
	size_t k;

	/* A lane's first operation of this launch comes after the start. */
	if (!ls->used[l] && l != 0)
		res = cu_lane_wait(s, engine, &ls->start, NULL);
	ls->used[l] = true;
	for (k = e->dep_first[i]; k < e->dep_first[i + 1] &&
	     res == CUDA_SUCCESS; k++)
		if (ls->lane_of[e->dep[k]] != l)
			res = cu_lane_wait(s, engine, &ls->done[e->dep[k]],
					   NULL);
	if (res == CUDA_SUCCESS)
		res = cu_exec_node(e, &e->nodes[i], s, ls->handle[l]);
	ls->lane_of[i] = l;
	ls->tail[l] = i;
	ls->done[i] = cu_stream_last(s);
	if (res == CUDA_SUCCESS && e->publish[i])
		res = cu_publish_now(&ls->done[i]);
	return res;
}

/*
 * Whether every allocation of @e can be made: one still live from the
 * previous launch is an error (checked before anything is submitted)
 * unless the graph frees it on launch.
 */
static CUresult cu_launch_allocs_ok(const struct cu_graph_exec *e)
{
	size_t i;

	if (e->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
		return CUDA_SUCCESS;
	for (i = 0; i < e->num_nodes; i++)
		if (e->nodes[i].type == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
		    cu_graph_alloc_is_live(e->nodes[i].u.alloc.a))
			return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUresult cu_graph_exec_launch(struct cu_graph_exec *e, struct cu_stream *s,
			      CUstream h)
{
	struct cu_launch_state ls = { .num_lanes = 1 };
	struct cu_point lane_end;
	CUresult res = cu_launch_allocs_ok(e);
	unsigned int l;
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;

	ls.lane_of = calloc(e->num_nodes + 1, sizeof(*ls.lane_of));
	ls.done = calloc(e->num_nodes + 1, sizeof(*ls.done));
	if (!ls.lane_of || !ls.done) {
		free(ls.lane_of);
		free(ls.done);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	ls.lane[0] = s;
	ls.handle[0] = h;
	for (l = 0; l < CU_GRAPH_LANES; l++) {
		ls.lane[ls.num_lanes] = cu_graph_lane(s->ctx, l);
		ls.handle[ls.num_lanes] = (CUstream)ls.lane[ls.num_lanes];
		if (ls.lane[ls.num_lanes])
			ls.num_lanes++;
	}
	for (l = 0; l < ls.num_lanes; l++)
		ls.tail[l] = SIZE_MAX;

	pthread_mutex_lock(&e->launch_lock);
	/* After the stream's earlier work and the previous launch. */
	res = cu_lane_wait(s, CU_ENGINE_COMPUTE, &e->last, &ls.start);
	/* Conditional handles start at their defaults, before any node. */
	if (res == CUDA_SUCCESS && e->num_conds) {
		res = cu_cond_assign_defaults(e, h);
		ls.start = cu_stream_last(s);
	}
	if (res == CUDA_SUCCESS && ls.num_lanes > 1)
		res = cu_publish_now(&ls.start);
	for (i = 0; i < e->num_nodes && res == CUDA_SUCCESS; i++)
		res = cu_launch_node(e, &ls, i);
	/* The launch stream goes on once every lane is through. */
	for (l = 1; l < ls.num_lanes && res == CUDA_SUCCESS; l++) {
		if (!ls.used[l])
			continue;
		lane_end = cu_stream_last(ls.lane[l]);
		res = cu_lane_wait(s, CU_ENGINE_COMPUTE, &lane_end, NULL);
	}
	if (res == CUDA_SUCCESS)
		e->last = cu_stream_last(s);
	pthread_mutex_unlock(&e->launch_lock);
	free(ls.lane_of);
	free(ls.done);
	return res;
}
