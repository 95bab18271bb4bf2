// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - the stream API.
 */
#include <stdlib.h>

#include "cuda_internal.h"
#include "handles.h"

CUresult cu_stream_init(struct cu_ctx *ctx, struct cu_stream *s,
			unsigned int flags, int priority, bool is_null)
{
	s->magic = CU_STREAM_MAGIC;
	s->ctx = ctx;
	s->flags = flags;
	s->priority = priority;
	s->is_null = is_null;
	s->last.queue = NULL;
	s->last.seq = 0;
	s->copy = NULL;
	s->capture = NULL;
	pthread_mutex_init(&s->lock, NULL);
	/* The compute queue now, so that a failure shows at creation. */
	return cu_queue_get(ctx, CU_ENGINE_COMPUTE, &s->compute);
}

/* Give the queues back to the context; the caller waited for them. */
void cu_stream_fini(struct cu_stream *s)
{
	if (s->compute)
		cu_queue_put(s->compute);
	if (s->copy)
		cu_queue_put(s->copy);
	s->compute = s->copy = NULL;
	cu_pool_clock_free(&s->pool_clock);
	s->magic = CU_DEAD_MAGIC;
	pthread_mutex_destroy(&s->lock);
}

CUresult cu_stream_resolve(struct cu_ctx *ctx, CUstream h,
			   struct cu_stream **out)
{
	struct cu_stream *s = (struct cu_stream *)h;

	if (h == CU_STREAM_PER_THREAD)
		return cu_stream_per_thread(ctx, out);
	if (!h || h == CU_STREAM_LEGACY) {
		*out = &ctx->null_stream;
		return CUDA_SUCCESS;
	}
	if (!cu_handle_valid(s, CU_HANDLE_STREAM))
		return CUDA_ERROR_INVALID_HANDLE;
	if (s->ctx != ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	*out = s;
	return CUDA_SUCCESS;
}

/*
 * Inside a host function the thread has no current context (an H100
 * answers CUDA_ERROR_NOT_PERMITTED to cuCtxGetCurrent there), yet calls
 * that name a stream of their own work on it: the stream says which
 * context.  The default streams need the current context: refused.
 */
static CUresult cu_stream_of_host_func(CUstream h, struct cu_ctx **ctx,
				       struct cu_stream **out)
{
	struct cu_stream *s = (struct cu_stream *)h;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!h || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD)
		return CUDA_ERROR_NOT_PERMITTED;
	if (!cu_handle_valid(s, CU_HANDLE_STREAM))
		return CUDA_ERROR_INVALID_HANDLE;
	*ctx = s->ctx;
	*out = s;
	return cu_ctx_check(s->ctx);
}

CUresult cu_stream_current(CUstream h, struct cu_ctx **ctx,
			   struct cu_stream **s)
{
	CUresult res;

	if (cu_in_host_func())
		return cu_stream_of_host_func(h, ctx, s);
	res = cu_ctx_get(ctx);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_stream_resolve(*ctx, h, s);
}

/*
 * The entry checks of a call that answers about a stream: the stream @h of
 * the current context (cu_stream_current(); @ctx may be NULL), then @out,
 * where the answer goes, not NULL: a bad stream is reported before a
 * missing pointer, as these calls always did here.
 */
CUresult cu_stream_query_args(CUstream h, const void *out,
			      struct cu_ctx **ctx, struct cu_stream **s)
{
	struct cu_ctx *c;
	CUresult res = cu_stream_current(h, &c, s);

	if (ctx)
		*ctx = c;
	if (res == CUDA_SUCCESS && !out)
		res = CUDA_ERROR_INVALID_VALUE;
	return res;
}

CUresult cu_stream_sync(struct cu_stream *s)
{
	struct cu_point p;
	CUresult res;

	pthread_mutex_lock(&s->ctx->lock);
	p = s->last;
	pthread_mutex_unlock(&s->ctx->lock);
	res = cu_point_wait(s->ctx, &p);
	cu_printf_flush(s->ctx);
	if (res == CUDA_SUCCESS)
		cu_pool_synced(s->ctx, s, NULL);
	return res;
}

static CUresult cu_stream_create(CUstream *ph, unsigned int flags,
				 int priority)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!ph || (flags & ~(unsigned int)CU_STREAM_NON_BLOCKING))
		return CUDA_ERROR_INVALID_VALUE;
	/* Priorities outside [-5, 0] are clamped, as CUDA does. */
	if (priority < -5)
		priority = -5;
	if (priority > 0)
		priority = 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = cu_stream_init(ctx, s, flags, priority, false);
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(s, CU_HANDLE_STREAM);
	if (res != CUDA_SUCCESS) {
		cu_stream_fini(s);
		free(s);
		return res;
	}
	pthread_mutex_lock(&ctx->lock);
	s->next = ctx->streams;
	ctx->streams = s;
	pthread_mutex_unlock(&ctx->lock);
	*ph = (CUstream)s;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuStreamCreate(CUstream *phStream,
					  unsigned int Flags)
{
	return cu_stream_create(phStream, Flags, 0);
}

CU_EXPORT CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream,
						      unsigned int flags,
						      int priority)
{
	return cu_stream_create(phStream, flags, priority);
}

CU_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream h)
{
	struct cu_stream *s = (struct cu_stream *)h, **pp;
	struct cu_ctx *ctx;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!h || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!cu_handle_remove(s, CU_HANDLE_STREAM))
		return CUDA_ERROR_INVALID_HANDLE;
	cu_capture_stream_release(s);
	ctx = s->ctx;
	pthread_mutex_lock(&ctx->lock);
	for (pp = &ctx->streams; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	/*
	 * CUDA lets queued work finish after the destroy; waiting here is
	 * the simple way to keep the queues until then.
	 */
	cu_stream_sync(s);
	cu_stream_fini(s);
	free(s);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuStreamSynchronize(CUstream h)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_capture_forbid_sync(s);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_stream_sync(s);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_ctx_check(ctx);
}

CU_EXPORT CUresult CUDAAPI cuStreamQuery(CUstream h)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_point p;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_capture_forbid_sync(s);
	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&ctx->lock);
	p = s->last;
	pthread_mutex_unlock(&ctx->lock);
	if (!cu_point_done(&p)) {
		res = cu_ctx_check(ctx);
		return res != CUDA_SUCCESS ? res : CUDA_ERROR_NOT_READY;
	}
	cu_printf_flush(ctx);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuStreamWaitEvent(CUstream h, CUevent hEvent,
					     unsigned int Flags)
{
	struct cu_event *ev = (struct cu_event *)hEvent;
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_point p;
	struct cu_op op;
	bool recorded;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_valid(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	if (Flags & ~(unsigned int)CU_EVENT_WAIT_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	/* Capture: a fork or a join of the capture, no packet. */
	res = cu_capture_wait_event(s, ev, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	/* Pool memory freed before the record may now come back to @s. */
	cu_pool_note_wait(s, ev);
	/* Another process's event: the device waits on its shared page. */
	if (cu_ipc_event_imported(ev))
		return cu_ipc_event_wait(s, ev);
	p = ev->point;
	/* Nothing to wait for: an event never recorded, or already done. */
	if (!ev->recorded || cu_point_done(&p))
		return CUDA_SUCCESS;
	if (ev->ctx != s->ctx) {
		/* Another context's queue cannot be waited for on-device. */
		return cu_point_wait(ev->ctx, &p);
	}
	/*
	 * An operation on the compute queue that only waits for the event;
	 * later operations of the stream wait for it in turn.
	 */
	res = cu_op_begin(s, CU_ENGINE_COMPUTE, &p, &op);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_op_end(&op, NULL);
}

CU_EXPORT CUresult CUDAAPI cuStreamGetPriority(CUstream h, int *priority)
{
	struct cu_stream *s;
	CUresult res = cu_stream_query_args(h, priority, NULL, &s);

	if (res == CUDA_SUCCESS)
		*priority = s->priority;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuStreamGetFlags(CUstream h, unsigned int *flags)
{
	struct cu_stream *s;
	CUresult res = cu_stream_query_args(h, flags, NULL, &s);

	if (res == CUDA_SUCCESS)
		*flags = s->flags;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuStreamGetCtx(CUstream h, CUcontext *pctx)
{
	struct cu_stream *s;
	CUresult res = cu_stream_query_args(h, pctx, NULL, &s);

	if (res == CUDA_SUCCESS)
		*pctx = (CUcontext)s->ctx;
	return res;
}

/* A stream of a regular context: never of a green one (there are none). */
CU_EXPORT CUresult CUDAAPI cuStreamGetCtx_v2(CUstream h, CUcontext *pctx,
					     CUgreenCtx *pGreenCtx)
{
	CUresult res;

	if (!pctx || !pGreenCtx)
		return CUDA_ERROR_INVALID_VALUE;
	res = cuStreamGetCtx(h, pctx);
	if (res == CUDA_SUCCESS)
		*pGreenCtx = NULL;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuStreamGetDevice(CUstream h, CUdevice *device)
{
	struct cu_stream *s;
	CUresult res = cu_stream_query_args(h, device, NULL, &s);

	if (res == CUDA_SUCCESS)
		*device = (CUdevice)s->ctx->dev->ordinal;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuStreamGetId(CUstream h,
					 unsigned long long *streamId)
{
	struct cu_stream *s;
	CUresult res = cu_stream_query_args(h, streamId, NULL, &s);

	if (res == CUDA_SUCCESS)
		*streamId = s->is_null ? 0 : (unsigned long long)(uintptr_t)s;
	return res;
}

/*
 * Host functions return at once and run later on the context's thread,
 * in stream order (host_func.c).  Captured, a host function becomes a
 * host node; a callback cannot be captured.
 */
CU_EXPORT CUresult CUDAAPI cuLaunchHostFunc(CUstream h, CUhostFn fn,
					    void *userData)
{
	CUDA_HOST_NODE_PARAMS node = { .fn = fn, .userData = userData };
	struct cu_ctx *ctx;
	struct cu_stream *s;
	bool recorded;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_capture_op(s, CU_GRAPH_NODE_TYPE_HOST, &node, NULL, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	return cu_host_func_enqueue(s, h, fn, NULL, userData);
}

CU_EXPORT CUresult CUDAAPI cuStreamAddCallback(CUstream h,
					       CUstreamCallback callback,
					       void *userData,
					       unsigned int flags)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!callback || flags)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_capture_forbid(s);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_host_func_enqueue(s, h, NULL, callback, userData);
}

/* The CUDA 3.x name, still looked up by name by older programs. */
#undef cuStreamDestroy
CU_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream h);
CU_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream h)
{
	return cuStreamDestroy_v2(h);
}
