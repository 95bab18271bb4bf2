// SPDX-License-Identifier: GPL-2.0
/*
 * stream_order.c - submitting one operation on a stream, in order.
 *
 * A stream is a sequence: each operation starts after the previous one
 * ended.  Kernels run on the stream's compute queue, copies and memsets
 * on its copy queue (a copy engine, so copies overlap kernels of other
 * streams).  When an operation must wait for one on another queue - the
 * stream's previous operation went to the other engine, an event, the
 * legacy stream's implicit synchronisation - that point is published in
 * its queue's sync slot (cu_point_publish) and the new operation's queue
 * first gets a WAIT_MEM on the slot: the device enforces the order, the
 * host never waits.
 *
 * The legacy default stream (stream 0) adds CUDA's implicit
 * synchronisation: an operation on it waits for the last operation of
 * every blocking stream of the context, and an operation on a blocking
 * stream waits for the last operation of stream 0.
 *
 * Locks: the stream's lock for the whole operation; a dependency's queue
 * lock only while publishing it; then the operation's own queue lock until
 * the end.  No thread holds two queue locks at once.
 */
#include "cuda_internal.h"

/* How long a full ring may block a submission before giving up. */
#define CU_SUBMIT_DEADLINE_NS	(120ll * 1000000000)

/* Most points one operation can depend on: one per queue, and @also. */
#define CU_MAX_DEPS		(CU_MAX_QUEUES + 2)

struct cu_deps {
	struct cu_point p[CU_MAX_DEPS];
	unsigned int n;
};

/* Add @p if it is on another queue than @q and not complete yet. */
static void cu_deps_add(struct cu_deps *d, const struct cu_queue *q,
			const struct cu_point *p)
{
	if (p->queue && p->queue != q && d->n < CU_MAX_DEPS &&
	    !cu_point_done(p))
		d->p[d->n++] = *p;
}

/* The stream's own order, and the legacy stream's implicit one. */
static void cu_deps_collect(struct cu_stream *s, const struct cu_queue *q,
			    struct cu_deps *d)
{
	struct cu_ctx *ctx = s->ctx;
	struct cu_stream *t;

	pthread_mutex_lock(&ctx->lock);
	cu_deps_add(d, q, &s->last);
	if (s->is_null) {
		for (t = ctx->streams; t; t = t->next)
			if (!(t->flags & CU_STREAM_NON_BLOCKING))
				cu_deps_add(d, q, &t->last);
	} else if (!(s->flags & CU_STREAM_NON_BLOCKING)) {
		cu_deps_add(d, q, &ctx->null_stream.last);
	}
	pthread_mutex_unlock(&ctx->lock);
}

CUresult cu_op_begin(struct cu_stream *s, unsigned int engine,
		     const struct cu_point *also, struct cu_op *op)
{
	struct cu_deps deps = { .n = 0 };
	struct cu_queue **qp;
	unsigned int i;
	CUresult res;
	int ret = 0;

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
	cu_deps_collect(s, op->queue, &deps);
	if (also)
		cu_deps_add(&deps, op->queue, also);
	/* Publish the points first: no queue lock is held yet. */
	for (i = 0; i < deps.n && !ret; i++)
		ret = cu_point_publish(&deps.p[i], op->deadline);
	pthread_mutex_lock(&op->queue->lock);
	for (i = 0; i < deps.n && !ret; i++)
		ret = vgpu_emit_wait_mem(op->queue->vq, deps.p[i].queue->slot_va,
					 deps.p[i].seq, op->deadline);
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

	ret = vgpu_emit_fence(q->vq, seq, op->deadline);
	if (!ret)
		ret = vgpu_queue_submit(q->vq);
	if (ret) {
		cu_op_abort(op, ret);
		return cu_from_errno(ret);
	}
	q->seq = seq;
	pthread_mutex_unlock(&q->lock);
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
	pthread_mutex_unlock(&op->queue->lock);
	pthread_mutex_unlock(&op->stream->lock);
}
