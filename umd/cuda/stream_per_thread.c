// SPDX-License-Identifier: GPL-2.0
/*
 * stream_per_thread.c - CU_STREAM_PER_THREAD: every host thread's own
 * default stream.
 *
 * A program built with nvcc --default-stream per-thread (or a driver-API
 * program that passes CU_STREAM_PER_THREAD) gets, in each host thread and
 * each context, a stream of its own: a regular blocking stream, so it
 * does not wait for the other threads' default streams, yet the legacy
 * stream still waits for it and it for the legacy stream (the rules of
 * "stream 0" in queue.c apply to it as to any stream made with
 * CU_STREAM_DEFAULT).
 *
 * The stream is made on the thread's first use in a context and lives in
 * the context's list of streams, marked with its owner, until the
 * context is destroyed: a thread that exits leaves it to the next thread
 * that gets the same pthread_t, so threads that come and go do not make
 * streams without bound.  The last one found is cached per thread, keyed
 * by the context's id (ids are never reused, so a destroyed context can
 * never be mistaken for a new one).
 */
#include <stdlib.h>

#include "cuda_internal.h"

static _Thread_local struct {
	unsigned long long ctx_id;
	struct cu_stream *stream;
} cu_ptds_cache;

/* ctx->lock held. */
static struct cu_stream *cu_ptds_find(struct cu_ctx *ctx, pthread_t self)
{
	for (struct cu_stream *s = ctx->streams; s; s = s->next)
		if (s->per_thread && pthread_equal(s->owner, self))
			return s;
	return NULL;
}

CUresult cu_stream_per_thread(struct cu_ctx *ctx, struct cu_stream **out)
{
	pthread_t self = pthread_self();
	struct cu_stream *s;
	CUresult res;

	if (cu_ptds_cache.ctx_id == ctx->id && cu_ptds_cache.stream) {
		*out = cu_ptds_cache.stream;
		return CUDA_SUCCESS;
	}
	pthread_mutex_lock(&ctx->lock);
	s = cu_ptds_find(ctx, self);
	pthread_mutex_unlock(&ctx->lock);
	/* Only this thread makes the streams it owns: no race to make one. */
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return CUDA_ERROR_OUT_OF_MEMORY;
		res = cu_stream_init(ctx, s, CU_STREAM_DEFAULT, 0, false);
		if (res != CUDA_SUCCESS) {
			cu_stream_fini(s);
			free(s);
			return res;
		}
		s->per_thread = true;
		s->owner = self;
		pthread_mutex_lock(&ctx->lock);
		s->next = ctx->streams;
		ctx->streams = s;
		pthread_mutex_unlock(&ctx->lock);
	}
	cu_ptds_cache.ctx_id = ctx->id;
	cu_ptds_cache.stream = s;
	*out = s;
	return CUDA_SUCCESS;
}
