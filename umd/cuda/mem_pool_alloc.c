// SPDX-License-Identifier: GPL-2.0
/*
 * mem_pool_alloc.c - blocks of pool memory, reused in stream order.
 *
 * A pool reserves VRAM in chunks of 32 MiB (larger requests: the next
 * multiple), as an H100's pools do.  A chunk is one VRAM object of the
 * driver, mapped once in the context that allocated it, exactly as
 * cuMemAlloc maps its objects (memory.c).  It is cut into blocks, kept in
 * address order: each block is in use or free, and a free block remembers
 * how it was freed:
 *
 *   chunk  |used 4K|free (A,3) 8K|used 1M|free: clear ............ |
 *
 * "clear" means every stream may take it (never used, or freed before a
 * synchronisation that the host waited for); (A,3) is the third free of
 * stream A (mem_pool_order.c).  An allocation on stream S takes the first
 * free block that is large enough and that S may use:
 *
 *   - clear;
 *   - freed on S itself: S's later work runs after the free;
 *   - with REUSE_FOLLOW_EVENT_DEPENDENCIES, freed before S waited on an
 *     event recorded after the free;
 *   - with REUSE_ALLOW_OPPORTUNISTIC, a free the device has completed.
 *
 * REUSE_ALLOW_INTERNAL_DEPENDENCIES would let the allocator make S wait
 * for another stream's free; vGPU keeps the attribute but never does so
 * (an H100 did not either, in the recorded case: the probe's "internal
 * dependencies" line).
 *
 * The user gets the block's start; its registry entry (registry.c) has
 * the requested size, so pointer queries and copies see the allocation
 * as they see one of cuMemAlloc.  cuMemFreeAsync removes the entry at
 * once (a second free, or a cuMemFree after it, is INVALID_VALUE, as
 * measured) and the block returns to the pool in stream order: it keeps
 * the point where the stream stood (what the device must finish before
 * the memory is really unused) and its stamp.
 *
 * At a synchronisation (cu_pool_synced) the frees the host waited for
 * become clear, neighbouring clear blocks merge, and a pool that reserves
 * more than its release threshold gives back chunks that hold nothing
 * but completed frees.  cuMemPoolTrimTo does the same down to its limit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem_pool.h"

static struct cu_pool_block *cu_block_new(uint64_t off, uint64_t size)
{
	struct cu_pool_block *b = calloc(1, sizeof(*b));

	if (b) {
		b->off = off;
		b->size = size;
		b->clear = true;
	}
	return b;
}

/* May an allocation on @s take the free block @b of pool @p? */
static bool cu_block_usable(const struct cu_mem_pool *p,
			    const struct cu_pool_block *b, struct cu_stream *s)
{
	if (b->clear)
		return true;
	/* Freed on @s itself: no policy needed, the stream is in order. */
	if (cu_pool_stream_is(s, &b->stamp))
		return true;
	/* Freed before an event @s waited on, or the legacy stream's order. */
	if (p->reuse_follow_events &&
	    (cu_pool_stream_after(s, &b->stamp) ||
	     cu_pool_stream_after_legacy(s, &b->stamp)))
		return true;
	return p->reuse_opportunistic && cu_point_done(&b->done);
}

/* A new chunk for @need bytes in @s's context (cu_pool_lock held). */
static CUresult cu_chunk_new(struct cu_mem_pool *p, struct cu_ctx *ctx,
			     uint64_t need, struct cu_pool_chunk **out)
{
	struct vgpu_device *vdev = ctx->dev->vdev;
	uint64_t size = cu_align_up(need, CU_POOL_CHUNK), alloc_size;
	struct cu_pool_chunk *c;
	int ret;

	if (size > vgpu_device_info(vdev)->vram_size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* maxSize counts whole chunks (measured: a 1 MiB pool gave 2 MiB). */
	if (p->props.maxSize &&
	    p->reserved + size > cu_align_up(p->props.maxSize, CU_POOL_CHUNK))
		return CUDA_ERROR_OUT_OF_MEMORY;
	c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->blocks = cu_block_new(0, size);
	if (!c->blocks)
		goto nomem;
	ret = vgpu_mem_alloc_vram(vdev, size, &c->handle, &alloc_size);
	if (ret)
		goto nomem;
	c->va = cu_va_alloc(alloc_size);
	if (!c->va)
		goto novram;
	ret = vgpu_mem_map(vdev, ctx->vctx, c->handle, c->va, 0, alloc_size, 0);
	if (ret) {
		cu_va_free(c->va, alloc_size);
		goto novram;
	}
	c->pool = p;
	c->ctx = ctx;
	c->size = size;
	c->map_size = alloc_size;
	c->export_fd = -1;
	c->next = p->chunks;
	p->chunks = c;
	p->reserved += size;
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
	*out = c;
	return CUDA_SUCCESS;
novram:
	vgpu_mem_free(vdev, c->handle, NULL, 0);
nomem:
	free(c->blocks);
	free(c);
	return CUDA_ERROR_OUT_OF_MEMORY;
}

/* Unlink and free chunk @c; @unmap: its context still exists. */
void cu_chunk_free(struct cu_pool_chunk *c, bool unmap)
{
	struct vgpu_device *vdev = c->ctx->dev->vdev;
	struct cu_mem_pool *p = c->pool;
	struct cu_pool_chunk **cp;
	struct cu_pool_block *b, *n;

	for (cp = &p->chunks; *cp; cp = &(*cp)->next) {
		if (*cp == c) {
			*cp = c->next;
			break;
		}
	}
	for (b = c->blocks; b; b = n) {
		n = b->next;
		if (b->used) {
			/* Only when its context goes: the entry goes too. */
			cu_registry_remove(c->va + b->off, CU_MEM_DEVICE, NULL);
			if (!c->imported)
				p->used -= b->req;
		}
		free(b);
	}
	if (unmap)
		vgpu_mem_unmap(vdev, c->ctx->vctx, c->va);
	if (c->export_fd >= 0)
		close(c->export_fd);
	vgpu_mem_free(vdev, c->handle, NULL, 0);
	cu_va_free(c->va, c->map_size);
	if (!c->imported)
		p->reserved -= c->size;
	free(c);
}

/* Take @need bytes of free block @b for a user's @req bytes. */
static CUresult cu_block_take(struct cu_pool_chunk *c, struct cu_pool_block *b,
			      uint64_t need, uint64_t req)
{
	struct cu_mem_pool *p = c->pool;
	struct cu_pool_block *rest;
	struct cu_mem m = { 0 };
	CUresult res;

	if (b->size > need) {
		rest = cu_block_new(b->off + need, b->size - need);
		if (!rest)
			return CUDA_ERROR_OUT_OF_MEMORY;
		/* The rest was freed the same way. */
		rest->clear = b->clear;
		rest->stamp = b->stamp;
		rest->done = b->done;
		rest->next = b->next;
		b->next = rest;
		b->size = need;
	}
	m.base = c->va + b->off;
	m.size = req;
	m.map_base = c->va;
	m.map_size = c->map_size;
	m.kind = CU_MEM_DEVICE;
	m.dev = c->ctx->dev;
	m.ctx = c->ctx;
	m.handle = c->handle;
	m.export_fd = -1;
	res = cu_registry_add(&m);
	if (res != CUDA_SUCCESS)
		return res;
	b->used = true;
	b->req = req;
	p->used += req;
	if (p->used > p->used_high)
		p->used_high = p->used;
	return CUDA_SUCCESS;
}

/* The first block of @p @s may take for @need bytes (cu_pool_lock held). */
static struct cu_pool_block *cu_pool_find(struct cu_mem_pool *p,
					  struct cu_stream *s, uint64_t need,
					  struct cu_pool_chunk **chunk)
{
	struct cu_pool_chunk *c;
	struct cu_pool_block *b;

	for (c = p->chunks; c; c = c->next) {
		if (c->ctx != s->ctx)
			continue;	/* mapped in another address space */
		for (b = c->blocks; b; b = b->next) {
			if (!b->used && b->size >= need &&
			    cu_block_usable(p, b, s)) {
				*chunk = c;
				return b;
			}
		}
	}
	return NULL;
}

CUresult cu_pool_alloc(struct cu_mem_pool *p, struct cu_stream *s,
		       size_t size, CUdeviceptr *out)
{
	uint64_t need = cu_align_up(size, CU_POOL_ALIGN);
	struct cu_pool_chunk *c = NULL;
	struct cu_pool_block *b;
	CUresult res = CUDA_SUCCESS;

	if (need < size)
		return CUDA_ERROR_OUT_OF_MEMORY;	/* wrapped */
	pthread_mutex_lock(&cu_pool_lock);
	b = cu_pool_find(p, s, need, &c);
	if (!b) {
		res = cu_chunk_new(p, s->ctx, need, &c);
		if (res == CUDA_ERROR_OUT_OF_MEMORY) {
			/* Give back what is unused, then try once more. */
			cu_pool_release(p, 0);
			res = cu_chunk_new(p, s->ctx, need, &c);
		}
		b = res == CUDA_SUCCESS ? c->blocks : NULL;
	}
	if (b)
		res = cu_block_take(c, b, need, size);
	if (res == CUDA_SUCCESS)
		*out = c->va + b->off;
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}

/* The block at @ptr (exactly), its chunk; cu_pool_lock held. */
struct cu_pool_block *cu_pool_block_at(CUdeviceptr ptr,
				       struct cu_pool_chunk **chunk,
				       bool *inside)
{
	struct cu_mem_pool *p;
	struct cu_pool_chunk *c;
	struct cu_pool_block *b;

	*inside = false;
	for (p = cu_pool_all(); p; p = p->next) {
		for (c = p->chunks; c; c = c->next) {
			if (ptr < c->va || ptr >= c->va + c->size)
				continue;
			*inside = true;
			*chunk = c;
			for (b = c->blocks; b; b = b->next)
				if (c->va + b->off == ptr)
					return b;
			return NULL;
		}
	}
	return NULL;
}

CUresult cu_pool_free(CUdeviceptr ptr, struct cu_stream *s)
{
	struct cu_pool_chunk *c = NULL;
	struct cu_pool_block *b;
	struct cu_mem_pool *p;
	bool inside;

	pthread_mutex_lock(&cu_pool_lock);
	b = cu_pool_block_at(ptr, &c, &inside);
	if (!inside) {
		pthread_mutex_unlock(&cu_pool_lock);
		return CUDA_ERROR_NOT_FOUND;
	}
	/* Inside a block, or freed already: measured INVALID_VALUE. */
	if (!b || !b->used) {
		pthread_mutex_unlock(&cu_pool_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	p = c->pool;
	if (c->imported) {
		/* Another process's memory: unmapped once no longer used. */
		pthread_mutex_unlock(&cu_pool_lock);
		if (s)
			cu_stream_sync(s);
		cu_pool_unimport(ptr);
		return CUDA_SUCCESS;
	}
	if (s && s->ctx != c->ctx) {
		/*
		 * Freed on another context's stream: its queues may go before
		 * the block is reused, so wait for the stream now and free the
		 * block as cuMemFree would.
		 */
		pthread_mutex_unlock(&cu_pool_lock);
		cu_stream_sync(s);
		return cu_pool_free(ptr, NULL);
	}
	cu_registry_remove(ptr, CU_MEM_DEVICE, NULL);
	b->used = false;
	p->used -= b->req;
	b->req = 0;
	if (s) {
		b->clear = false;
		b->stamp = cu_pool_stream_tick(s);
		pthread_mutex_lock(&s->ctx->lock);
		b->done = s->last;
		pthread_mutex_unlock(&s->ctx->lock);
	} else {
		b->clear = true;
		b->done.queue = NULL;
	}
	pthread_mutex_unlock(&cu_pool_lock);
	return CUDA_SUCCESS;
}

/* Whether every block of @c is free and no longer used by the device. */
static bool cu_chunk_idle(const struct cu_pool_chunk *c)
{
	const struct cu_pool_block *b;

	for (b = c->blocks; b; b = b->next)
		if (b->used || (!b->clear && !cu_point_done(&b->done)))
			return false;
	return true;
}

void cu_pool_release(struct cu_mem_pool *p, uint64_t keep)
{
	struct cu_pool_chunk *c, *n;

	for (c = p->chunks; c && p->reserved > keep; c = n) {
		n = c->next;
		if (!c->imported && cu_chunk_idle(c))
			cu_chunk_free(c, true);
	}
}

/* Merge neighbouring clear free blocks of @c. */
static void cu_chunk_merge(struct cu_pool_chunk *c)
{
	struct cu_pool_block *b, *n;

	for (b = c->blocks; b && b->next; ) {
		n = b->next;
		if (!b->used && !n->used && b->clear && n->clear) {
			b->size += n->size;
			b->next = n->next;
			free(n);
		} else {
			b = n;
		}
	}
}

/* Whether the host's wait (for @s, @ev, or the whole context) covers @b. */
static bool cu_block_waited(const struct cu_pool_block *b,
			    struct cu_stream *s, struct cu_event *ev)
{
	if (!cu_point_done(&b->done))
		return false;
	if (s)
		return cu_pool_stream_after(s, &b->stamp) ||
		       cu_pool_stream_after_legacy(s, &b->stamp);
	if (ev)
		return cu_pool_event_after(ev, &b->stamp);
	return true;
}

void cu_pool_synced(struct cu_ctx *ctx, struct cu_stream *s,
		    struct cu_event *ev)
{
	struct cu_mem_pool *p, *pn;
	struct cu_pool_chunk *c;
	struct cu_pool_block *b;

	pthread_mutex_lock(&cu_pool_lock);
	for (p = cu_pool_all(); p; p = pn) {
		pn = p->next;
		if (p->dev != ctx->dev)
			continue;
		for (c = p->chunks; c; c = c->next) {
			if (c->ctx != ctx)
				continue;
			for (b = c->blocks; b; b = b->next)
				if (!b->used && !b->clear &&
				    cu_block_waited(b, s, ev))
					b->clear = true;
			cu_chunk_merge(c);
		}
		if (p->reserved > p->release_threshold || p->destroyed)
			cu_pool_release(p, p->destroyed ? 0 :
					p->release_threshold);
		cu_pool_reap(p);
	}
	pthread_mutex_unlock(&cu_pool_lock);
}

void *cu_pool_of(uint64_t base)
{
	struct cu_pool_chunk *c = NULL;
	struct cu_pool_block *b;
	void *p = NULL;
	bool inside;

	pthread_mutex_lock(&cu_pool_lock);
	b = cu_pool_block_at(base, &c, &inside);
	if (b && b->used && !c->pool->destroyed)
		p = c->pool;
	pthread_mutex_unlock(&cu_pool_lock);
	return p;
}

CUresult cu_pool_free_now(CUdeviceptr ptr)
{
	struct cu_pool_chunk *c = NULL;
	struct cu_pool_block *b;
	struct cu_ctx *ctx;
	bool inside;

	pthread_mutex_lock(&cu_pool_lock);
	b = cu_pool_block_at(ptr, &c, &inside);
	ctx = inside ? c->ctx : NULL;
	pthread_mutex_unlock(&cu_pool_lock);
	if (!inside)
		return CUDA_ERROR_NOT_FOUND;
	if (!b)
		return CUDA_ERROR_INVALID_VALUE;
	/* cuMemFree waits for the device, then the block is free for all. */
	cu_ctx_sync(ctx);
	return cu_pool_free(ptr, NULL);
}

void cu_pool_forget_ctx(struct cu_ctx *ctx)
{
	struct cu_mem_pool *p, *pn;
	struct cu_pool_chunk *c, *n;

	pthread_mutex_lock(&cu_pool_lock);
	for (p = cu_pool_all(); p; p = pn) {
		pn = p->next;
		for (c = p->chunks; c; c = n) {
			n = c->next;
			if (c->ctx == ctx)
				cu_chunk_free(c, false);
		}
		cu_pool_reap(p);
	}
	pthread_mutex_unlock(&cu_pool_lock);
}
