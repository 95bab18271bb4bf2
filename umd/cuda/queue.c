// SPDX-License-Identifier: GPL-2.0
/*
 * queue.c - a context's vGPU queues and the points in them.
 *
 * Every operation submitted on a queue ends with a FENCE packet carrying
 * the queue's next sequence number, so "operation seq of queue Q" is a
 * point the host can wait for (the fence page, VGPU_IOCTL_WAIT).  For
 * another queue to wait for it, the point is published: a WRITE_MEM of a
 * sequence number >= seq into Q's u64 of the context's sync page, which
 * the other queue waits on with WAIT_MEM (see cu_point_publish).
 * Sequence numbers only grow, so a point stays meaningful for the life of
 * the context even when its queue passes to another stream: queues are
 * never destroyed before the context is.
 */
#include <errno.h>
#include <stdint.h>

#include "cuda_internal.h"

/*
 * How long one wait lasts before it is renewed.  Work may take as long as
 * it takes; the driver's hang detection ends waits on what really hangs.
 */
#define CU_WAIT_SLICE_NS	(10ll * 1000000000)

CUresult cu_queue_get(struct cu_ctx *ctx, unsigned int engine,
		      struct cu_queue **out)
{
	struct cu_queue *q = NULL;
	unsigned int i;
	int ret;

	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < ctx->num_queues; i++) {
		if (!ctx->queues[i].in_use && ctx->queues[i].engine == engine) {
			q = &ctx->queues[i];
			break;
		}
	}
	if (!q) {
		if (ctx->num_queues == CU_MAX_QUEUES) {
			pthread_mutex_unlock(&ctx->lock);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		q = &ctx->queues[ctx->num_queues];
		ret = vgpu_queue_create(ctx->dev->vdev, ctx->vctx,
					engine == CU_ENGINE_COPY ?
					VGPU_ENGINE_COPY : VGPU_ENGINE_COMPUTE,
					engine == CU_ENGINE_COPY ?
					CU_COPY_RING_SIZE : CU_COMPUTE_RING_SIZE,
					&q->vq);
		if (ret) {
			pthread_mutex_unlock(&ctx->lock);
			return ret == -ENOSPC || ret == -EMFILE ?
			       CUDA_ERROR_OUT_OF_MEMORY : cu_from_errno(ret);
		}
		q->ctx = ctx;
		q->engine = engine;
		q->slot = ctx->num_queues;
		q->slot_va = (uintptr_t)&ctx->sync[q->slot];
		q->seq = 0;
		q->written = 0;
		pthread_mutex_init(&q->lock, NULL);
		ctx->sync[q->slot] = 0;
		ctx->num_queues++;
	}
	q->in_use = true;
	pthread_mutex_unlock(&ctx->lock);
	*out = q;
	return CUDA_SUCCESS;
}

void cu_queue_put(struct cu_queue *q)
{
	pthread_mutex_lock(&q->ctx->lock);
	q->in_use = false;
	pthread_mutex_unlock(&q->ctx->lock);
}

bool cu_point_done(const struct cu_point *p)
{
	return !p->queue || vgpu_queue_completed(p->queue->vq) >= p->seq;
}

/*
 * Make sure point @p becomes visible in its queue's sync slot, so that
 * another queue can wait for it with WAIT_MEM (slot >= p->seq).  Slot
 * writes cost the firmware a trip through the GART, so operations do not
 * write it by default: only when another queue depends on one is a
 * WRITE_MEM (and the FENCE of its own sequence number) appended to the
 * queue, which runs it after everything before it, @p included.
 */
int cu_point_publish(const struct cu_point *p, int64_t deadline)
{
	struct cu_queue *q = p->queue;
	uint64_t seq;
	int ret = 0;

	pthread_mutex_lock(&q->lock);
	if (q->written >= p->seq)
		goto out;
	seq = q->seq + 1;
	ret = vgpu_emit_write_mem(q->vq, q->slot_va, seq, deadline);
	if (!ret)
		ret = vgpu_emit_fence(q->vq, seq, deadline);
	if (!ret)
		ret = vgpu_queue_submit(q->vq);
	if (!ret) {
		q->seq = seq;
		q->written = seq;
	}
out:
	pthread_mutex_unlock(&q->lock);
	return ret;
}

/*
 * How long a CU_CTX_SCHED_AUTO wait polls before it sleeps.  CUDA's own
 * heuristic spins while the process has no more contexts than CPUs; here
 * the GPU itself runs on those CPUs (the firmware's engine and SM
 * threads), so a waiter that spins takes a CPU from the very work it waits
 * for.  A waiter that polls with sched_yield() gives the CPU to any of them
 * that can run, yet never goes to sleep: it avoids the sleep, interrupt
 * and wake-up of a blocking wait, which on a guest (where waking an idle
 * virtual CPU is itself slow) is most of a short round trip.  After this
 * long the work is long enough for a sleep not to matter, and the thread
 * blocks in the driver rather than take CPU time from the GPU.
 */
#define CU_AUTO_SPIN_NS		(1000ll * 1000)

CUresult cu_point_wait_sched(struct cu_ctx *ctx, const struct cu_point *p,
			     unsigned int sched)
{
	struct vgpu_queue *vq;
	int ret;

	if (cu_point_done(p))
		return CUDA_SUCCESS;
	vq = p->queue->vq;
	switch (sched) {
	case CU_CTX_SCHED_SPIN:
		vgpu_queue_spin(vq, p->seq, INT64_MAX, false);
		break;
	case CU_CTX_SCHED_YIELD:
		vgpu_queue_spin(vq, p->seq, INT64_MAX, true);
		break;
	case CU_CTX_SCHED_BLOCKING_SYNC:
		break;
	default:
		vgpu_queue_spin(vq, p->seq, vgpu_now_ns() + CU_AUTO_SPIN_NS,
				true);
		break;
	}
	/* Done or stopped: returns at once, with the error if any. */
	do {
		ret = vgpu_queue_wait(vq, p->seq,
				      vgpu_now_ns() + CU_WAIT_SLICE_NS);
	} while (ret == -ETIME);
	if (!ret)
		return CUDA_SUCCESS;
	if (ret == -ECANCELED || ret == -ENODEV) {
		CUresult res = cu_ctx_check(ctx);

		return res != CUDA_SUCCESS ? res : CUDA_ERROR_LAUNCH_FAILED;
	}
	return cu_from_errno(ret);
}

CUresult cu_point_wait(struct cu_ctx *ctx, const struct cu_point *p)
{
	unsigned int flags = __atomic_load_n(&ctx->flags, __ATOMIC_RELAXED);

	return cu_point_wait_sched(ctx, p, flags & CU_CTX_SCHED_MASK);
}
