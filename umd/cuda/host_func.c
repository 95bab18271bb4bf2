// SPDX-License-Identifier: GPL-2.0
/*
 * host_func.c - host functions in stream order: cuLaunchHostFunc,
 * cuStreamAddCallback and graph host nodes.
 *
 * A host function is an operation of its stream like a kernel or a copy,
 * except that the CPU runs it.  The call that enqueues it returns at
 * once; the function runs later on the context's host-function thread,
 * once all earlier work of the stream is complete, and later work of the
 * stream starts only after the function has returned.  The queue carries
 * the order, as for every other operation (stream_order.c):
 *
 *   copy queue of the stream:
 *     [WAIT_MEM deps]  FENCE a  WAIT_MEM word >= a  FENCE a+1
 *          |              |            ^                 |
 *          |      thread: wait for a   |         the stream's last point:
 *          |      run fn(userData)     |         later work, events,
 *          |      word = a ------------+         queries, syncs wait here
 *   earlier work of the stream (other queues) is waited for as usual.
 *
 * "word" is a u64 of the context's sync page, one per queue (after the
 * queues' own slots), written only by the host-function thread.  Fence
 * values only grow and a queue's host functions run in its order, so
 * writing the fence value a (not a count) releases exactly that WAIT_MEM.
 * Because the stream's last point is an ordinary queue point, cuStreamQuery
 * says NOT_READY and every synchronisation waits while the function has
 * not returned, with no special case anywhere else.
 *
 * The operation goes to the stream's copy queue, not its compute queue:
 * the GR engine runs one packet at a time, a kernel to its end, so a
 * fence queued there would also wait for whatever kernel of another
 * stream GR is running - a kernel that may itself be waiting for this
 * very host function.  Copy engines finish each packet quickly.
 *
 * One thread per context, as NVIDIA's driver has (measured on an H100,
 * tools/cuda-probe/golden/probe_hostfn.h100.txt: host functions of two
 * streams run on the same thread, and one that blocks holds back the
 * other).  Programs rely on that serialisation; a pool would break it.
 * The thread runs whichever queued function became ready first, not the
 * oldest: a function of one stream must not wait for the earlier work of
 * another stream (which might be waiting for it).  There is no system
 * call that waits for any one of several fences, so while no function is
 * ready the thread waits for the oldest one's fence in short slices and
 * looks at all of them between slices.
 *
 * After a fault the context's queues stop and no fence comes: as on the
 * H100, queued callbacks still run and get the context's error as their
 * status, while queued host functions are dropped.
 *
 * The thread starts with the context's first host function and stops when
 * the context is destroyed, once it has drained what is queued (a destroy
 * first waits for all work; a dead context's functions are dropped and its
 * callbacks run with the error).  A child process after fork() has no
 * such thread: it is never joined there, and the child starts its own.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuda_internal.h"

_Static_assert(CU_SYNC_HOST_FUNC_FIRST + CU_MAX_QUEUES <= CU_SYNC_TS_FIRST,
	       "the host functions' words overlap the timestamps");

/* How long the thread waits for one fence before looking at all again. */
#define CU_HOST_FUNC_SLICE_NS	(2ll * 1000000)

struct cu_host_call {
	struct cu_host_call *next;
	CUhostFn fn;			/* a host function, or */
	CUstreamCallback callback;	/* a stream callback */
	CUstream handle;		/* the callback's stream argument */
	void *user_data;
	struct cu_point ready;		/* fence a: earlier work is done */
	volatile uint64_t *word;	/* set to ready.seq when it returned */
};

/* Set on the host-function thread while it runs a function. */
static _Thread_local bool cu_host_func_running;

bool cu_in_host_func(void)
{
	return cu_host_func_running;
}

CUresult cu_host_func_forbid(void)
{
	return cu_host_func_running ? CUDA_ERROR_NOT_PERMITTED : CUDA_SUCCESS;
}

void cu_host_func_init(struct cu_ctx *ctx)
{
	pthread_mutex_init(&ctx->host_lock, NULL);
	pthread_cond_init(&ctx->host_cond, NULL);
	ctx->host_calls = NULL;
	ctx->host_tail = &ctx->host_calls;
	ctx->host_started = false;
	ctx->host_stop = false;
}

/* Ready to run: its fence came, or it never will (the queue stopped). */
static bool cu_host_call_ready(const struct cu_host_call *c)
{
	return cu_point_done(&c->ready) ||
	       vgpu_queue_error(c->ready.queue->vq) != 0;
}

static void cu_host_call_run(struct cu_ctx *ctx, struct cu_host_call *c)
{
	CUresult status = cu_ctx_check(ctx);

	cu_host_func_running = true;
	if (c->callback)
		c->callback(c->handle, status, c->user_data);
	else if (status == CUDA_SUCCESS)
		c->fn(c->user_data);
	cu_host_func_running = false;
	/* The function's writes before the queue's later work reads them. */
	__atomic_store_n(c->word, c->ready.seq, __ATOMIC_RELEASE);
}

/*
 * Take the first ready call off the list (ctx->host_lock held), or NULL;
 * *@oldest: the call to wait for when none is ready.
 */
static struct cu_host_call *cu_host_call_take(struct cu_ctx *ctx,
					      struct cu_point *oldest)
{
	struct cu_host_call **pp, *c;

	for (pp = &ctx->host_calls; (c = *pp); pp = &c->next) {
		if (!cu_host_call_ready(c))
			continue;
		*pp = c->next;
		if (ctx->host_tail == &c->next)
			ctx->host_tail = pp;
		return c;
	}
	*oldest = ctx->host_calls->ready;
	return NULL;
}

static void *cu_host_func_thread(void *arg)
{
	struct cu_ctx *ctx = arg;
	struct cu_host_call *c;
	struct cu_point oldest;

	pthread_mutex_lock(&ctx->host_lock);
	for (;;) {
		if (!ctx->host_calls) {
			if (ctx->host_stop)
				break;
			pthread_cond_wait(&ctx->host_cond, &ctx->host_lock);
			continue;
		}
		c = cu_host_call_take(ctx, &oldest);
		pthread_mutex_unlock(&ctx->host_lock);
		if (c) {
			cu_host_call_run(ctx, c);
			free(c);
		} else {
			/* Returns early on the fence or a stopped queue. */
			vgpu_queue_wait(oldest.queue->vq, oldest.seq,
					vgpu_now_ns() + CU_HOST_FUNC_SLICE_NS);
		}
		pthread_mutex_lock(&ctx->host_lock);
	}
	pthread_mutex_unlock(&ctx->host_lock);
	return NULL;
}

/* Start the thread if this process has none yet (ctx->host_lock held). */
static CUresult cu_host_func_start(struct cu_ctx *ctx)
{
	sigset_t all, old;
	int ret;

	if (ctx->host_started && ctx->host_pid == getpid())
		return CUDA_SUCCESS;
	/* After fork(): the parent's thread and calls are not ours. */
	ctx->host_calls = NULL;
	ctx->host_tail = &ctx->host_calls;
	ctx->host_started = false;
	/* Signals go to the program's threads, not to ours. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&ctx->host_thread, NULL, cu_host_func_thread, ctx);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ctx->host_started = true;
	ctx->host_pid = getpid();
	return CUDA_SUCCESS;
}

void cu_host_func_fini(struct cu_ctx *ctx)
{
	bool join;

	pthread_mutex_lock(&ctx->host_lock);
	join = ctx->host_started && ctx->host_pid == getpid();
	ctx->host_stop = true;
	pthread_cond_signal(&ctx->host_cond);
	pthread_mutex_unlock(&ctx->host_lock);
	/* It drains the list first: the caller waited for the context. */
	if (join)
		pthread_join(ctx->host_thread, NULL);
	while (ctx->host_calls) {	/* only in a child after fork() */
		struct cu_host_call *c = ctx->host_calls;

		ctx->host_calls = c->next;
		free(c);
	}
	pthread_cond_destroy(&ctx->host_cond);
	pthread_mutex_destroy(&ctx->host_lock);
}

CUresult cu_host_func_enqueue(struct cu_stream *s, CUstream handle,
			      CUhostFn fn, CUstreamCallback callback,
			      void *user_data)
{
	struct cu_ctx *ctx = s->ctx;
	struct cu_host_call *c;
	struct cu_queue *q;
	struct cu_op op;
	CUresult res;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->fn = fn;
	c->callback = callback;
	c->handle = handle;
	c->user_data = user_data;
	pthread_mutex_lock(&ctx->host_lock);
	res = cu_host_func_start(ctx);
	pthread_mutex_unlock(&ctx->host_lock);
	if (res == CUDA_SUCCESS)
		res = cu_op_begin(s, CU_ENGINE_COPY, NULL, &op);
	if (res != CUDA_SUCCESS) {
		free(c);
		return res;
	}
	/* Fence a (the thread's signal), then the wait for the word. */
	q = op.queue;
	c->ready.queue = q;
	c->ready.seq = q->seq + 1;
	c->word = &ctx->sync[CU_SYNC_HOST_FUNC_FIRST + q->slot];
	ret = vgpu_emit_fence(q->vq, c->ready.seq, op.deadline);
	if (!ret) {
		q->seq = c->ready.seq;
		ret = vgpu_emit_wait_mem(q->vq, (uintptr_t)c->word,
					 c->ready.seq, op.deadline);
	}
	if (ret) {
		cu_op_abort(&op, ret);
		free(c);
		return cu_from_errno(ret);
	}
	res = cu_op_end(&op, NULL);
	if (res != CUDA_SUCCESS) {
		free(c);
		return res;
	}
	pthread_mutex_lock(&ctx->host_lock);
	c->next = NULL;
	*ctx->host_tail = c;
	ctx->host_tail = &c->next;
	pthread_cond_signal(&ctx->host_cond);
	pthread_mutex_unlock(&ctx->host_lock);
	return CUDA_SUCCESS;
}
