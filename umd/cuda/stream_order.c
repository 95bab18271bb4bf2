// SPDX-License-Identifier: GPL-2.0
/*
 * stream_order.c - submitting one operation on a stream, in order.
 *
 * A stream is a sequence: each operation starts after the previous one
 * ended.  Kernels run on the stream's compute queue, copies and memsets
 * on its copy queue (a copy engine, so copies overlap kernels of other
 * streams).  When consecutive operations of a stream go to different
 * queues, the second queue first gets a WAIT_MEM on the first's progress
 * slot: the ordering is enforced by the device, the host never waits.
 *
 * The legacy default stream (stream 0) adds CUDA's implicit
 * synchronisation: an operation on it waits for the last operation of
 * every blocking stream of the context, and an operation on a blocking
 * stream waits for the last operation of stream 0.
 */
#include "cuda_internal.h"

/* How long a full ring may block a submission before giving up. */
#define CU_SUBMIT_DEADLINE_NS	(120ll * 1000000000)

/* Make @q wait for @p unless that is already true. */
static int cu_wait_point(struct cu_queue *q, const struct cu_point *p,
			 int64_t deadline)
{
	if (!p->queue || p->queue == q || cu_point_done(p))
		return 0;
	return vgpu_emit_wait_mem(q->vq, p->queue->slot_va, p->seq, deadline);
}

/* The implicit dependencies of the legacy default stream. */
static int cu_wait_legacy(struct cu_stream *s, struct cu_queue *q,
			  int64_t deadline)
{
	struct cu_ctx *ctx = s->ctx;
	struct cu_point pts[CU_MAX_QUEUES + 1];
	struct cu_stream *t;
	unsigned int n = 0, i;
	int ret;

	pthread_mutex_lock(&ctx->lock);
	if (s->is_null) {
		for (t = ctx->streams; t && n < CU_MAX_QUEUES; t = t->next)
			if (!(t->flags & CU_STREAM_NON_BLOCKING))
				pts[n++] = t->last;
	} else if (!(s->flags & CU_STREAM_NON_BLOCKING)) {
		pts[n++] = ctx->null_stream.last;
	}
	pthread_mutex_unlock(&ctx->lock);
	for (i = 0; i < n; i++) {
		ret = cu_wait_point(q, &pts[i], deadline);
		if (ret)
			return ret;
	}
	return 0;
}

CUresult cu_op_begin(struct cu_stream *s, unsigned int engine,
		     struct cu_op *op)
{
	struct cu_queue **qp;
	struct cu_point last;
	CUresult res;
	int ret;

	pthread_mutex_lock(&s->lock);
	qp = engine == CU_ENGINE_COPY ? &s->copy : &s->compute;
	if (!*qp) {
		res = cu_queue_get(s->ctx, engine, qp);
		if (res != CUDA_SUCCESS) {
			pthread_mutex_unlock(&s->lock);
			return res;
		}
	}
	op->stream = s;
	op->queue = *qp;
	op->deadline = vgpu_now_ns() + CU_SUBMIT_DEADLINE_NS;
	pthread_mutex_lock(&s->ctx->lock);
	last = s->last;
	pthread_mutex_unlock(&s->ctx->lock);
	ret = cu_wait_point(op->queue, &last, op->deadline);
	if (!ret)
		ret = cu_wait_legacy(s, op->queue, op->deadline);
	if (ret) {
		cu_op_abort(op, ret);
		return cu_from_errno(ret);
	}
	return CUDA_SUCCESS;
}

CUresult cu_op_end(struct cu_op *op, struct cu_point *done)
{
	struct cu_queue *q = op->queue;
	struct cu_stream *s = op->stream;
	uint64_t seq = q->seq + 1;
	int ret;

	ret = vgpu_emit_write_mem(q->vq, q->slot_va, seq, op->deadline);
	if (!ret)
		ret = vgpu_emit_fence(q->vq, seq, op->deadline);
	if (!ret)
		ret = vgpu_queue_submit(q->vq);
	if (ret) {
		cu_op_abort(op, ret);
		return cu_from_errno(ret);
	}
	q->seq = seq;
	pthread_mutex_lock(&s->ctx->lock);
	s->last.queue = q;
	s->last.seq = seq;
	pthread_mutex_unlock(&s->ctx->lock);
	if (done)
		*done = s->last;
	pthread_mutex_unlock(&s->lock);
	return CUDA_SUCCESS;
}

void cu_op_abort(struct cu_op *op, int err)
{
	(void)err;
	/*
	 * Packets already emitted stay in the ring: each is complete, so if
	 * the queue still works they run with the next submission, without
	 * a fence of their own.  The errors that get here (a dead context, a
	 * lost device, a ring full for minutes) make the next cu_ctx_check()
	 * report the context anyway.
	 */
	pthread_mutex_unlock(&op->stream->lock);
}
