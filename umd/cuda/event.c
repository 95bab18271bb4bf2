// SPDX-License-Identifier: GPL-2.0
/*
 * event.c - events: points in a stream, optionally with a timestamp.
 *
 * Recording an event is one operation on the stream's compute queue that
 * (unless timing is disabled) carries a TIMESTAMP packet: the device
 * writes its nanosecond clock into a u64 of the context's sync page when
 * every earlier operation of the stream has completed.  The event keeps
 * the operation's point (queue, sequence number), which is all that
 * query, synchronize and cuStreamWaitEvent need.
 */
#include <stdlib.h>

#include "cuda_internal.h"
#include "handles.h"

#define CU_EVENT_FLAGS_ALL	(CU_EVENT_BLOCKING_SYNC | \
				 CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS)

static int cu_ts_slot_get(struct cu_ctx *ctx)
{
	int i, slot = -1;

	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < (int)CU_SYNC_TS_SLOTS; i++) {
		if (!ctx->ts_used[i]) {
			ctx->ts_used[i] = 1;
			slot = i;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return slot;
}

static void cu_ts_slot_put(struct cu_ctx *ctx, int slot)
{
	if (slot < 0)
		return;
	pthread_mutex_lock(&ctx->lock);
	ctx->ts_used[slot] = 0;
	pthread_mutex_unlock(&ctx->lock);
}

static volatile uint64_t *cu_ts(const struct cu_event *ev)
{
	return &ev->ctx->sync[CU_SYNC_TS_FIRST + ev->ts_slot];
}

CU_EXPORT CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	struct cu_ctx *ctx;
	struct cu_event *ev;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!phEvent || (Flags & ~(unsigned int)CU_EVENT_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	/* Interprocess events must not time (as CUDA requires). */
	if ((Flags & CU_EVENT_INTERPROCESS) &&
	    !(Flags & CU_EVENT_DISABLE_TIMING))
		return CUDA_ERROR_INVALID_VALUE;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ev->magic = CU_EVENT_MAGIC;
	ev->ctx = ctx;
	ev->flags = Flags;
	ev->ts_slot = -1;
	if (!(Flags & CU_EVENT_DISABLE_TIMING)) {
		ev->ts_slot = cu_ts_slot_get(ctx);
		if (ev->ts_slot < 0) {
			free(ev);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	/* Shared with other processes through a page of its own. */
	if (Flags & CU_EVENT_INTERPROCESS) {
		res = cu_ipc_event_init(ev);
		if (res != CUDA_SUCCESS) {
			free(ev);
			return res;
		}
	}
	res = cu_handle_add(ev, CU_HANDLE_EVENT);
	if (res != CUDA_SUCCESS) {
		cu_ipc_event_release(ev);
		cu_ts_slot_put(ctx, ev->ts_slot);
		free(ev);
		return res;
	}
	*phEvent = (CUevent)ev;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent hEvent)
{
	struct cu_event *ev = (struct cu_event *)hEvent;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ev)
		return CUDA_ERROR_INVALID_HANDLE;
	/* Measured: destroying an event twice reports this. */
	if (!cu_handle_remove(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	/* A pending TIMESTAMP would write the slot: let it land first. */
	if (ev->ts_slot >= 0 && cu_ctx_valid(ev->ctx)) {
		cu_point_wait(ev->ctx, &ev->point);
		cu_ts_slot_put(ev->ctx, ev->ts_slot);
	}
	if (ev->ipc) {
		/* Its WRITE_MEM lands before the page goes. */
		if (ev->recorded && cu_ctx_valid(ev->ctx))
			cu_point_wait(ev->ctx, &ev->point);
		cu_ipc_event_release(ev);
	}
	cu_capture_event_release(ev);
	cu_pool_clock_free(&ev->pool_clock);
	ev->magic = CU_DEAD_MAGIC;
	free(ev);
	return CUDA_SUCCESS;
}

static CUresult cu_event_record(CUevent hEvent, CUstream hStream)
{
	struct cu_event *ev = (struct cu_event *)hEvent;
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_point done;
	struct cu_op op;
	bool recorded;
	CUresult res = cu_initialized();
	int ret;

	if (res != CUDA_SUCCESS)
		return res;
	/* Inside a host function the stream names the context (host_func.c). */
	if (!cu_in_host_func())
		res = cu_ctx_get(&ctx);
	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_valid(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	res = cu_stream_current(hStream, &ctx, &s);
	if (res != CUDA_SUCCESS)
		return res;
	if (s->ctx != ev->ctx)
		return CUDA_ERROR_INVALID_HANDLE;
	/* In a capture the event stands for the stream's current nodes. */
	res = cu_capture_event_record(s, ev, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	/* An interprocess event's records complete in order (ipc_event.c). */
	res = cu_op_begin(s, CU_ENGINE_COMPUTE,
			  ev->ipc && ev->recorded ? &ev->point : NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	ret = 0;
	if (ev->ts_slot >= 0)
		ret = vgpu_emit_timestamp(op.queue->vq, (uintptr_t)cu_ts(ev),
					  op.deadline);
	if (!ret && ev->ipc)
		ret = cu_ipc_event_emit(ev, op.queue->vq, op.deadline);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	res = cu_op_end(&op, &done);
	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * VGPU_TIMING=model: the model clock once the stream's earlier work
	 * is done (launches before it advanced the clock when they ended);
	 * the TIMESTAMP has landed then and is overwritten.
	 */
	if (ev->ts_slot >= 0 && cu_timing_model()) {
		res = cu_point_wait(ctx, &done);
		if (res != CUDA_SUCCESS)
			return res;
		*cu_ts(ev) = cu_timing_now(ctx);
	}
	ev->point = done;
	ev->recorded = true;
	cu_pool_note_record(ev, s);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream)
{
	return cu_event_record(hEvent, hStream);
}

CU_EXPORT CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent,
						  CUstream hStream,
						  unsigned int flags)
{
	if (flags & ~(unsigned int)CU_EVENT_RECORD_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_event_record(hEvent, hStream);
}

CU_EXPORT CUresult CUDAAPI cuEventQuery(CUevent hEvent)
{
	struct cu_event *ev = (struct cu_event *)hEvent;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_valid(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	res = cu_capture_event_check(ev);
	if (res != CUDA_SUCCESS)
		return res;
	/* Another process's event: its records are counted in the page. */
	if (cu_ipc_event_imported(ev))
		return cu_ipc_event_query(ev);
	/* An event never recorded counts as complete (measured). */
	if (!ev->recorded || cu_point_done(&ev->point))
		return CUDA_SUCCESS;
	res = cu_ctx_check(ev->ctx);
	return res != CUDA_SUCCESS ? res : CUDA_ERROR_NOT_READY;
}

CU_EXPORT CUresult CUDAAPI cuEventSynchronize(CUevent hEvent)
{
	struct cu_event *ev = (struct cu_event *)hEvent;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_valid(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	res = cu_capture_event_check(ev);
	if (res != CUDA_SUCCESS)
		return res;
	if (cu_ipc_event_imported(ev))
		return cu_ipc_event_sync(ev);
	if (!ev->recorded)
		return CUDA_SUCCESS;
	/* CU_EVENT_BLOCKING_SYNC: sleep, whatever the context's policy. */
	if (ev->flags & CU_EVENT_BLOCKING_SYNC)
		res = cu_point_wait_sched(ev->ctx, &ev->point,
					  CU_CTX_SCHED_BLOCKING_SYNC);
	else
		res = cu_point_wait(ev->ctx, &ev->point);
	cu_printf_flush(ev->ctx);
	if (res == CUDA_SUCCESS)
		cu_pool_synced(ev->ctx, NULL, ev);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuEventElapsedTime_v2(float *pMilliseconds,
						 CUevent hStart, CUevent hEnd)
{
	struct cu_event *a = (struct cu_event *)hStart;
	struct cu_event *b = (struct cu_event *)hEnd;
	CUresult res = cu_initialized();
	int64_t ns;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pMilliseconds)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_handle_valid(a, CU_HANDLE_EVENT) ||
	    !cu_handle_valid(b, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	/* Measured: unrecorded or untimed events give INVALID_HANDLE. */
	if (!a->recorded || !b->recorded || a->ts_slot < 0 || b->ts_slot < 0)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!cu_point_done(&a->point) || !cu_point_done(&b->point))
		return CUDA_ERROR_NOT_READY;
	ns = (int64_t)(*cu_ts(b) - *cu_ts(a));
	*pMilliseconds = (float)((double)ns / 1e6);
	return CUDA_SUCCESS;
}

/* The CUDA 12 name, still imported by binaries built against it. */
#undef cuEventElapsedTime
CU_EXPORT CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds,
					      CUevent hStart, CUevent hEnd);
CU_EXPORT CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds,
					      CUevent hStart, CUevent hEnd)
{
	return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

/* The CUDA 3.x name, still looked up by name by older programs. */
#undef cuEventDestroy
CU_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
CU_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent hEvent)
{
	return cuEventDestroy_v2(hEvent);
}
