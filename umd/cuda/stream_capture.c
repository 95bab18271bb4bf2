// SPDX-License-Identifier: GPL-2.0
/*
 * stream_capture.c - building a graph by recording what is enqueued on
 * streams (cuStreamBeginCapture ... cuStreamEndCapture).
 *
 * While a stream captures, each operation enqueued on it becomes a node
 * of the capture's graph instead of packets in a queue: every path that
 * enqueues (launch.c, copy.c, memset.c, stream.c, event.c) first calls
 * cu_capture_op(), which either records the node and tells the caller to
 * stop there, or lets the operation go to the device as usual.
 *
 * A capturing stream carries a capture point: the set of nodes the next
 * operation depends on (its "leaves").  Recording a node makes it depend
 * on the set, then the set becomes just that node - the stream's order,
 * turned into edges.  Events carry the order across streams: recording
 * an event in a capturing stream copies the stream's set into the event;
 * a stream that waits for such an event joins the capture (fork) or adds
 * the event's set to its own (join).  cuStreamEndCapture on the stream
 * that began the capture requires every other stream to have been joined
 * back, and hands the graph over.
 *
 * What cannot be captured - synchronising or querying a capturing stream,
 * the whole context, or the legacy stream while a blocking stream of its
 * context captures (it would depend on work that is not really queued) -
 * fails, and invalidates the capture as CUDA does: later operations of
 * the capture fail with CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, and
 * cuStreamEndCapture returns that error and no graph.
 *
 * One lock serialises all capture state; when no capture is active
 * anywhere in the process (the usual case) the hooks cost one atomic
 * load and take no lock.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "handles.h"

static pthread_mutex_t cu_capture_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int cu_captures_active;		/* atomic */
static unsigned long long cu_capture_next_id = 1;	/* cu_capture_lock */
static struct cu_capture *cu_captures;		/* live ones, cu_capture_lock */

/* The calling thread's capture interaction mode (cuThreadExchange...). */
static __thread CUstreamCaptureMode cu_thread_capture_mode =
	CU_STREAM_CAPTURE_MODE_GLOBAL;

static bool cu_capture_any(void)
{
	return __atomic_load_n(&cu_captures_active, __ATOMIC_ACQUIRE) != 0;
}

/* ---- capture points ---------------------------------------------------- */

static struct cu_capture_point *cu_point_new(struct cu_capture *seq,
					     struct cu_graph_node *const *deps,
					     size_t n)
{
	struct cu_capture_point *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (n) {
		p->deps = malloc(n * sizeof(*p->deps));
		if (!p->deps) {
			free(p);
			return NULL;
		}
		memcpy(p->deps, deps, n * sizeof(*p->deps));
	}
	p->num_deps = n;
	p->seq = seq;
	seq->refs++;
	return p;
}

static void cu_seq_put(struct cu_capture *seq)
{
	if (--seq->refs)
		return;
	if (seq->graph && !seq->user_graph)
		cu_graph_free(seq->graph);
	free(seq);
}

static void cu_point_free(struct cu_capture_point *p)
{
	if (!p)
		return;
	cu_seq_put(p->seq);
	free(p->deps);
	free(p);
}

/* Add @extra's nodes to @p's set (no duplicates). */
static CUresult cu_point_merge(struct cu_capture_point *p,
			       const struct cu_capture_point *extra)
{
	struct cu_graph_node **v;
	size_t i, j, n = p->num_deps;

	v = realloc(p->deps, (n + extra->num_deps + 1) * sizeof(*v));
	if (!v)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < extra->num_deps; i++) {
		for (j = 0; j < n && v[j] != extra->deps[i]; j++)
			;
		if (j == n)
			v[n++] = extra->deps[i];
	}
	p->deps = v;
	p->num_deps = n;
	return CUDA_SUCCESS;
}

/* ---- capture sequences -------------------------------------------------- */

static void cu_seq_invalidate(struct cu_capture *seq)
{
	if (seq->error == CUDA_SUCCESS)
		seq->error = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
}

/*
 * Take every stream of @seq out of capture mode; @seq is over (its graph
 * stays with it until handed over or freed with it).
 */
static void cu_seq_end(struct cu_capture *seq)
{
	struct cu_ctx *ctx = seq->origin->ctx;
	struct cu_capture_point *p;
	struct cu_capture **pp;
	struct cu_stream *t;

	pthread_mutex_lock(&ctx->lock);
	for (t = ctx->streams; t; t = t->next) {
		p = t->capture;
		if (p && p->seq == seq) {
			t->capture = NULL;
			/* refs > 1 here: the origin's point still holds one. */
			cu_point_free(p);
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	seq->ended = true;
	for (pp = &cu_captures; *pp; pp = &(*pp)->next) {
		if (*pp == seq) {
			*pp = seq->next;
			break;
		}
	}
	__atomic_fetch_sub(&cu_captures_active, 1, __ATOMIC_RELEASE);
}

/*
 * The legacy stream implicitly waits for every blocking stream of its
 * context: using it while one of them captures would make real work
 * depend on work that is not queued.  Such captures are invalidated
 * (unless @invalidate is false: asking for the legacy stream's capture
 * status is refused but harms no capture).
 */
static bool cu_legacy_conflict(struct cu_ctx *ctx, bool invalidate)
{
	struct cu_stream *t;
	bool conflict = false;

	pthread_mutex_lock(&ctx->lock);
	for (t = ctx->streams; t; t = t->next) {
		if (t->capture && !(t->flags & CU_STREAM_NON_BLOCKING)) {
			if (invalidate)
				cu_seq_invalidate(t->capture->seq);
			conflict = true;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return conflict;
}

/* ---- the hooks ------------------------------------------------------------ */

/* cu_capture_op() with the lock held; @params NULL: not capturable. */
static CUresult cu_capture_op_locked(struct cu_stream *s, CUgraphNodeType type,
				     const void *params, CUcontext ctx,
				     bool *recorded)
{
	struct cu_capture_point *p = s->capture;
	struct cu_graph_node *node;
	CUresult res;

	*recorded = false;
	if (!p) {
		if (s->is_null && cu_legacy_conflict(s->ctx, true))
			return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
		return CUDA_SUCCESS;
	}
	*recorded = true;
	if (p->seq->error != CUDA_SUCCESS)
		return p->seq->error;
	if (!params) {
		cu_seq_invalidate(p->seq);
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	res = cu_graph_add(p->seq->graph, type, params, ctx, p->deps,
			   p->num_deps, &node);
	if (res != CUDA_SUCCESS)
		return res;
	/* The new node is now the stream's only leaf. */
	if (!p->deps) {
		p->deps = malloc(sizeof(*p->deps));
		if (!p->deps) {
			cu_seq_invalidate(p->seq);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	p->deps[0] = node;
	p->num_deps = 1;
	return CUDA_SUCCESS;
}

CUresult cu_capture_op(struct cu_stream *s, CUgraphNodeType type,
		       const void *params, CUcontext ctx, bool *recorded)
{
	CUresult res;

	*recorded = false;
	if (!cu_capture_any())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_capture_lock);
	res = cu_capture_op_locked(s, type, params, ctx, recorded);
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

CUresult cu_capture_forbid(struct cu_stream *s)
{
	bool recorded;

	return cu_capture_op(s, CU_GRAPH_NODE_TYPE_EMPTY, NULL, NULL,
			     &recorded);
}

/*
 * Synchronising with or querying a stream that does not capture is
 * still a "potentially unsafe" call while captures are going on: the
 * capturing thread could be waiting for work that its own capture will
 * never queue.  An H100 refuses cuStreamSynchronize and cuStreamQuery of
 * another stream while the thread has a global or thread-local capture,
 * and lets them through during a relaxed one (probe_capture.h100.txt);
 * the same rules as for cuMemAlloc apply (cu_capture_unsafe_call), which
 * also covers the case not recorded: another thread's global capture.
 */
CUresult cu_capture_forbid_sync(struct cu_stream *s)
{
	/* A capturing stream itself is always refused here. */
	CUresult res = cu_capture_forbid(s);

	if (res != CUDA_SUCCESS)
		return res;
	return cu_capture_unsafe_call();
}

CUresult cu_capture_forbid_ctx(struct cu_ctx *ctx)
{
	struct cu_stream *t;
	bool capturing = false;

	if (!cu_capture_any())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_capture_lock);
	pthread_mutex_lock(&ctx->lock);
	for (t = ctx->streams; t; t = t->next) {
		if (t->capture) {
			cu_seq_invalidate(t->capture->seq);
			capturing = true;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	pthread_mutex_unlock(&cu_capture_lock);
	return capturing ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : CUDA_SUCCESS;
}

/*
 * "Potentially unsafe" calls (allocating or freeing memory) while
 * captures are going on, by the rules of the capture modes: a thread may
 * not make them while it has a capture of its own that is not relaxed,
 * nor - unless its own mode (cuThreadExchangeStreamCaptureMode) says
 * otherwise - while any thread has a global one.  The captures that
 * forbid the call are invalidated.
 */
CUresult cu_capture_unsafe_call(void)
{
	CUstreamCaptureMode mode = cu_thread_capture_mode;
	struct cu_capture *seq;
	bool forbidden = false;

	if (!cu_capture_any() || mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_capture_lock);
	for (seq = cu_captures; seq; seq = seq->next) {
		bool mine = pthread_equal(seq->thread, pthread_self()) &&
			    seq->mode != CU_STREAM_CAPTURE_MODE_RELAXED;
		bool global = mode == CU_STREAM_CAPTURE_MODE_GLOBAL &&
			      seq->mode == CU_STREAM_CAPTURE_MODE_GLOBAL;

		if (mine || global) {
			cu_seq_invalidate(seq);
			forbidden = true;
		}
	}
	pthread_mutex_unlock(&cu_capture_lock);
	return forbidden ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED :
	       CUDA_SUCCESS;
}

/* An event recorded in a capture that is still going on. */
static struct cu_capture_point *cu_event_capture(const struct cu_event *ev)
{
	struct cu_capture_point *p = ev->captured;

	return p && !p->seq->ended ? p : NULL;
}

CUresult cu_capture_event_record(struct cu_stream *s, struct cu_event *ev,
				 bool *recorded)
{
	struct cu_capture_point *p, *snap;
	CUresult res = CUDA_SUCCESS;

	*recorded = false;
	if (!cu_capture_any() &&
	    !__atomic_load_n(&ev->captured, __ATOMIC_ACQUIRE))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_capture_lock);
	p = s->capture;
	if (!p) {
		/* A real record: the event no longer stands for nodes. */
		cu_point_free(ev->captured);
		ev->captured = NULL;
		if (s->is_null && cu_legacy_conflict(s->ctx, true))
			res = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
	} else if (p->seq->error != CUDA_SUCCESS) {
		*recorded = true;
		res = p->seq->error;
	} else {
		*recorded = true;
		snap = cu_point_new(p->seq, p->deps, p->num_deps);
		if (!snap) {
			res = CUDA_ERROR_OUT_OF_MEMORY;
		} else {
			cu_point_free(ev->captured);
			ev->captured = snap;
		}
	}
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

static CUresult cu_capture_wait_locked(struct cu_stream *s,
				       struct cu_event *ev, bool *recorded)
{
	struct cu_capture_point *p = s->capture;
	struct cu_capture_point *snap = cu_event_capture(ev);

	*recorded = false;
	if (p) {
		*recorded = true;
		if (p->seq->error != CUDA_SUCCESS)
			return p->seq->error;
		/*
		 * An event of no capture would make the graph depend on
		 * work outside it (isolation); one of another capture would
		 * merge two separate captures.
		 */
		if (!snap) {
			cu_seq_invalidate(p->seq);
			return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
		}
		if (snap->seq != p->seq) {
			cu_seq_invalidate(p->seq);
			cu_seq_invalidate(snap->seq);
			return CUDA_ERROR_STREAM_CAPTURE_MERGE;
		}
		return cu_point_merge(p, snap);
	}
	if (!snap) {
		if (s->is_null && cu_legacy_conflict(s->ctx, true))
			return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
		return CUDA_SUCCESS;
	}
	/* Fork: the stream joins the event's capture. */
	*recorded = true;
	if (snap->seq->error != CUDA_SUCCESS)
		return snap->seq->error;
	if (s->is_null || s->ctx != snap->seq->origin->ctx) {
		cu_seq_invalidate(snap->seq);
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	p = cu_point_new(snap->seq, snap->deps, snap->num_deps);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->capture = p;
	return CUDA_SUCCESS;
}

CUresult cu_capture_wait_event(struct cu_stream *s, struct cu_event *ev,
			       bool *recorded)
{
	CUresult res;

	*recorded = false;
	if (!cu_capture_any())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_capture_lock);
	res = cu_capture_wait_locked(s, ev, recorded);
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

/*
 * An event recorded in a capture stands for graph nodes, not for work on
 * the device: there is nothing to query or wait for.  While the capture
 * is good, asking is CUDA_ERROR_CAPTURED_EVENT and spoils the capture;
 * once the capture is invalidated the event is simply not a valid thing
 * to ask about (both recorded on an H100: probe_capture.h100.txt).
 */
CUresult cu_capture_event_check(struct cu_event *ev)
{
	struct cu_capture_point *snap;
	CUresult res = CUDA_SUCCESS;

	if (!cu_capture_any())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_capture_lock);
	snap = cu_event_capture(ev);
	if (snap && snap->seq->error != CUDA_SUCCESS) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else if (snap) {
		cu_seq_invalidate(snap->seq);
		res = CUDA_ERROR_CAPTURED_EVENT;
	}
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

void cu_capture_event_release(struct cu_event *ev)
{
	if (!__atomic_load_n(&ev->captured, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&cu_capture_lock);
	cu_point_free(ev->captured);
	ev->captured = NULL;
	pthread_mutex_unlock(&cu_capture_lock);
}

/*
 * A stream is being destroyed: a capture it takes part in cannot be
 * completed correctly any more; if it began the capture, the capture
 * ends here (nobody can end it later).
 */
void cu_capture_stream_release(struct cu_stream *s)
{
	struct cu_capture_point *p;
	struct cu_capture *seq;

	if (!cu_capture_any())
		return;
	pthread_mutex_lock(&cu_capture_lock);
	p = s->capture;
	if (p) {
		seq = p->seq;
		cu_seq_invalidate(seq);
		if (seq->origin == s) {
			seq->refs++;
			cu_seq_end(seq);
			cu_seq_put(seq);
		}
		if (s->capture) {
			cu_point_free(s->capture);
			s->capture = NULL;
		}
	}
	pthread_mutex_unlock(&cu_capture_lock);
}

/* ---- the API --------------------------------------------------------------- */

/*
 * Swap the calling thread's capture mode (for unsafe calls) with *@mode.
 * NVIDIA's driver stores any value without a check and hands it back
 * next time (recorded: probe_capture.h100.txt); here a value that is no
 * mode is as strict as THREAD_LOCAL (cu_capture_unsafe_call).
 */
CU_EXPORT CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(
		CUstreamCaptureMode *mode)
{
	CUstreamCaptureMode old = cu_thread_capture_mode;

	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	cu_thread_capture_mode = *mode;
	*mode = old;
	return CUDA_SUCCESS;
}

/*
 * Begin a capture on @hStream into @g (NULL: a new graph of the
 * capture's own), its first operations depending on @deps, nodes of @g.
 */
static CUresult cu_begin_capture(CUstream hStream, struct cu_graph *g,
				 struct cu_graph_node *const *deps, size_t n,
				 CUstreamCaptureMode mode)
{
	struct cu_capture *seq;
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_current(hStream, &ctx, &s);
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
	    mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
	    mode != CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	/* The legacy stream cannot capture. */
	if (s->is_null)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	if (n && !deps)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < n; i++)
		if (!cu_graph_node_valid(deps[i]) || deps[i]->graph != g)
			return CUDA_ERROR_INVALID_VALUE;
	seq = calloc(1, sizeof(*seq));
	if (!seq)
		return CUDA_ERROR_OUT_OF_MEMORY;
	seq->graph = g;
	seq->user_graph = g != NULL;
	res = g ? CUDA_SUCCESS : cu_graph_new(&seq->graph);
	if (res != CUDA_SUCCESS) {
		free(seq);
		return res;
	}
	seq->origin = s;
	seq->mode = mode;
	seq->thread = pthread_self();
	pthread_mutex_lock(&cu_capture_lock);
	if (s->capture) {
		res = CUDA_ERROR_ILLEGAL_STATE;
	} else {
		s->capture = cu_point_new(seq, deps, n);
		if (!s->capture)
			res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (res == CUDA_SUCCESS) {
		seq->id = cu_capture_next_id++;
		seq->next = cu_captures;
		cu_captures = seq;
		__atomic_fetch_add(&cu_captures_active, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&cu_capture_lock);
	if (res != CUDA_SUCCESS) {
		if (!seq->user_graph)
			cu_graph_free(seq->graph);
		free(seq);
	}
	return res;
}

CU_EXPORT CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream,
						CUstreamCaptureMode mode)
{
	return cu_begin_capture(hStream, NULL, NULL, 0, mode);
}

/*
 * A capture into the program's own graph (CUDA 12.3): the captured
 * operations are added to @hGraph after @dependencies, and
 * cuStreamEndCapture hands back @hGraph itself.  The graph stays the
 * program's: a capture that fails leaves it with the nodes added so far.
 */
CU_EXPORT CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream hStream,
		CUgraph hGraph, const CUgraphNode *dependencies,
		const CUgraphEdgeData *dependencyData, size_t numDependencies,
		CUstreamCaptureMode mode)
{
	static const CUgraphEdgeData none;
	CUresult res = cu_initialized();
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid((struct cu_graph *)hGraph))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; dependencyData && i < numDependencies; i++)
		if (memcmp(&dependencyData[i], &none, sizeof(none)))
			return CUDA_ERROR_NOT_SUPPORTED;
	return cu_begin_capture(hStream, (struct cu_graph *)hGraph,
				(struct cu_graph_node *const *)dependencies,
				numDependencies, mode);
}

/*
 * Change the set of nodes the stream's next captured operation will
 * depend on: add @dependencies to it, or make it exactly them (the
 * empty set included).  They must be nodes of the capture's graph.  A
 * stream that does not capture is CUDA_ERROR_ILLEGAL_STATE (H100).
 */
CU_EXPORT CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream,
		CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData,
		size_t numDependencies, unsigned int flags)
{
	struct cu_graph_node *const *deps =
		(struct cu_graph_node *const *)dependencies;
	static const CUgraphEdgeData none;
	struct cu_capture_point *p, extra = { 0 };
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_current(hStream, &ctx, &s);
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if ((flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES &&
	     flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES) ||
	    (numDependencies && !dependencies))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; dependencyData && i < numDependencies; i++)
		if (memcmp(&dependencyData[i], &none, sizeof(none)))
			return CUDA_ERROR_NOT_SUPPORTED;
	pthread_mutex_lock(&cu_capture_lock);
	p = s->capture;
	if (!p) {
		res = CUDA_ERROR_ILLEGAL_STATE;
		goto out;
	}
	res = p->seq->error;
	for (i = 0; i < numDependencies && res == CUDA_SUCCESS; i++)
		if (!cu_graph_node_valid(deps[i]) ||
		    deps[i]->graph != p->seq->graph)
			res = CUDA_ERROR_INVALID_VALUE;
	if (res != CUDA_SUCCESS)
		goto out;
	if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES)
		p->num_deps = 0;
	extra.deps = (struct cu_graph_node **)deps;
	extra.num_deps = numDependencies;
	res = cu_point_merge(p, &extra);
out:
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

/* Whether @target is one of @from's nodes or an ancestor of one. */
static bool cu_reaches(struct cu_graph *g, struct cu_graph_node *const *from,
		       size_t n, const struct cu_graph_node *target)
{
	struct cu_graph_node **stack;
	bool *seen, found = false;
	size_t top = 0, i;

	stack = malloc((g->num_nodes + 1) * sizeof(*stack));
	seen = calloc(g->num_nodes + 1, sizeof(*seen));
	if (!stack || !seen)
		goto out;
	for (i = 0; i < n; i++) {
		if (!seen[from[i]->index]) {
			seen[from[i]->index] = true;
			stack[top++] = from[i];
		}
	}
	while (top && !found) {
		struct cu_graph_node *x = stack[--top];

		found = x == target;
		for (i = 0; i < x->num_deps; i++) {
			if (!seen[x->deps[i]->index]) {
				seen[x->deps[i]->index] = true;
				stack[top++] = x->deps[i];
			}
		}
	}
out:
	free(stack);
	free(seen);
	return found;
}

/* Every other stream of @seq must have been joined back into @origin. */
static bool cu_seq_joined(struct cu_capture *seq,
			  const struct cu_capture_point *origin)
{
	struct cu_ctx *ctx = seq->origin->ctx;
	struct cu_stream *t;
	bool ok = true;
	size_t i;

	pthread_mutex_lock(&ctx->lock);
	for (t = ctx->streams; t && ok; t = t->next) {
		if (!t->capture || t->capture == origin || t->capture->seq != seq)
			continue;
		for (i = 0; i < t->capture->num_deps && ok; i++)
			ok = cu_reaches(seq->graph, origin->deps,
					origin->num_deps, t->capture->deps[i]);
	}
	pthread_mutex_unlock(&ctx->lock);
	return ok;
}

CU_EXPORT CUresult CUDAAPI cuStreamEndCapture(CUstream hStream,
					      CUgraph *phGraph)
{
	struct cu_capture_point *p;
	struct cu_capture *seq;
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_query_args(hStream, phGraph, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_capture_lock);
	p = s->capture;
	if (!p) {
		pthread_mutex_unlock(&cu_capture_lock);
		return CUDA_ERROR_ILLEGAL_STATE;
	}
	seq = p->seq;
	if (seq->origin != s) {
		cu_seq_invalidate(seq);
		pthread_mutex_unlock(&cu_capture_lock);
		return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	}
	/*
	 * Only a relaxed capture may be ended by another thread.  Trying
	 * still ends the capture, without a graph: the owner's own
	 * cuStreamEndCapture then finds none (CUDA_ERROR_ILLEGAL_STATE), as
	 * recorded on an H100 for a global capture (a thread-local one is
	 * treated alike).
	 */
	res = seq->error;
	if (seq->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
	    !pthread_equal(seq->thread, pthread_self()))
		res = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
	else if (res == CUDA_SUCCESS && !cu_seq_joined(seq, p))
		res = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
	seq->refs++;		/* keep it past the streams' release */
	cu_seq_end(seq);
	*phGraph = NULL;
	if (res == CUDA_SUCCESS) {
		*phGraph = (CUgraph)seq->graph;
		seq->graph = NULL;
	}
	cu_seq_put(seq);
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

/*
 * The capture status of @s (cu_capture_lock held).  Asking about the
 * legacy stream while a blocking stream of its context captures is an
 * implicit dependency like any other use of it.
 */
static CUresult cu_capture_status(struct cu_stream *s,
				  CUstreamCaptureStatus *status)
{
	*status = CU_STREAM_CAPTURE_STATUS_NONE;
	if (s->capture)
		*status = s->capture->seq->error == CUDA_SUCCESS ?
			  CU_STREAM_CAPTURE_STATUS_ACTIVE :
			  CU_STREAM_CAPTURE_STATUS_INVALIDATED;
	else if (s->is_null && cu_capture_any() &&
		 cu_legacy_conflict(s->ctx, false))
		return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream,
					       CUstreamCaptureStatus *status)
{
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_query_args(hStream, status, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_capture_lock);
	res = cu_capture_status(s, status);
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

/*
 * The capture's id and graph and the stream's current leaves.  The leaf
 * array belongs to the stream and is valid until its next operation.
 */
CU_EXPORT CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream,
		CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
		CUgraph *graph_out, const CUgraphNode **dependencies_out,
		const CUgraphEdgeData **edgeData_out,
		size_t *numDependencies_out)
{
	struct cu_capture_point *p;
	struct cu_stream *s;
	struct cu_ctx *ctx;
	CUresult res = cu_stream_query_args(hStream, captureStatus_out, &ctx,
					    &s);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_capture_lock);
	res = cu_capture_status(s, captureStatus_out);
	p = s->capture;
	if (p) {
		if (id_out)
			*id_out = p->seq->id;
		if (graph_out)
			*graph_out = (CUgraph)p->seq->graph;
		if (dependencies_out)
			*dependencies_out = (const CUgraphNode *)p->deps;
		if (edgeData_out)
			*edgeData_out = NULL;	/* all edges are default */
		if (numDependencies_out)
			*numDependencies_out = p->num_deps;
	}
	pthread_mutex_unlock(&cu_capture_lock);
	return res;
}

/* ---- graph memory in a capture ------------------------------------------- */

/*
 * cuMemAllocAsync on a capturing stream: the allocation becomes an
 * allocation node of the capture's graph (pinned memory of the stream's
 * device), whose address is returned at once, as CUDA does.
 */
CUresult cu_capture_mem_alloc(struct cu_stream *s, size_t size,
			      CUdeviceptr *dptr, bool *recorded)
{
	CUDA_MEM_ALLOC_NODE_PARAMS p = {
		.poolProps = {
			.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
			.location = {
				.type = CU_MEM_LOCATION_TYPE_DEVICE,
				.id = (int)s->ctx->dev->ordinal,
			},
		},
		.bytesize = size,
	};
	CUresult res;

	*recorded = false;
	if (!cu_capture_any())
		return CUDA_SUCCESS;
	/* Zero bytes: nothing to allocate, and no node. */
	if (!size)
		return cu_capture_forbid(s);
	res = cu_capture_op(s, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &p, NULL,
			    recorded);
	if (res == CUDA_SUCCESS && *recorded)
		*dptr = p.dptr;
	return res;
}

/*
 * cuMemFreeAsync on a capturing stream: a free node, for a graph
 * allocation only (the memory of a launch, not of the pools: freeing
 * that in a capture is refused, as any operation a capture cannot take).
 */
CUresult cu_capture_mem_free(struct cu_stream *s, CUdeviceptr dptr,
			     bool *recorded)
{
	*recorded = false;
	if (!cu_capture_any())
		return CUDA_SUCCESS;
	if (cu_graph_alloc_known(dptr))
		return cu_capture_op(s, CU_GRAPH_NODE_TYPE_MEM_FREE, &dptr,
				     NULL, recorded);
	return cu_capture_forbid(s);
}
