/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem_pool.h - stream-ordered memory pools (mem_pool*.c), and the hooks
 * by which the rest of libcuda tells them about streams, events and
 * synchronisations.
 *
 *   mem_pool.c        the CUmemoryPool objects: creation, attributes,
 *                     access, the default and current pool of a device
 *   mem_pool_alloc.c  chunks of VRAM cut into blocks, the reuse rules,
 *                     giving memory back at a synchronize or a trim
 *   mem_pool_order.c  which frees a stream is ordered after (the clocks)
 *   mem_pool_api.c    cuMemAllocAsync, cuMemFreeAsync, cuMemAllocFromPoolAsync
 *
 * Locks: cu_pool_lock (mem_pool.c) guards every pool, chunk and block;
 * the clocks have their own lock, taken inside it.  Inside cu_pool_lock a
 * context's lock is taken only to read a stream's last point, and the
 * registry's and the VA allocator's; no path calls into the pools with a
 * stream's, a context's or a queue's lock held.
 */
#ifndef VGPU_CUDA_MEM_POOL_H
#define VGPU_CUDA_MEM_POOL_H

#include "cuda_internal.h"

/* Pools reserve VRAM in chunks of this many bytes (what an H100 reports). */
#define CU_POOL_CHUNK		(32ull << 20)
/* Blocks inside a chunk start at multiples of this. */
#define CU_POOL_ALIGN		512ull
/* A pool's handle: "MPOL" for a debugger. */
#define CU_POOL_MAGIC		0x4c4f504du

/* One free: which stream made it, and its count of frees then. */
struct cu_pool_stamp {
	uint64_t uid;			/* 0: ordered before everything */
	uint64_t epoch;
	bool legacy;			/* freed on the legacy stream */
	bool blocking;			/* ... on a stream that syncs with it */
};

/* A piece of a chunk (mem_pool_alloc.c). */
struct cu_pool_block {
	uint64_t off, size;
	bool used;
	uint64_t req;			/* bytes asked for (used blocks) */
	/* How it was freed (free blocks). */
	bool clear;
	struct cu_pool_stamp stamp;
	struct cu_point done;		/* the free's place in its stream */
	struct cu_pool_block *next;	/* by address */
};

/* One VRAM object of a pool, mapped in one context. */
struct cu_pool_chunk {
	struct cu_mem_pool *pool;
	struct cu_ctx *ctx;		/* where it is mapped */
	uint32_t handle;		/* the VRAM object */
	uint64_t va, size;
	uint64_t map_size;		/* of the VRAM object (>= size) */
	int export_fd;			/* MEM_EXPORT's, or -1 */
	bool imported;			/* another process's (mem_pool_ipc.c) */
	int32_t owner_fd;		/* imported: the exporter's export_fd */
	struct cu_pool_block *blocks;
	struct cu_pool_chunk *next;
};

struct cu_mem_pool {
	uint32_t magic;
	struct cu_device *dev;
	CUmemPoolProps props;
	bool is_default;
	bool destroyed;			/* handle gone, memory still out */
	/* Shareable (POSIX_FD): its name for other processes. */
	uint64_t ipc_id;
	/* Imported from another process: whose pool it is. */
	bool imported;
	int32_t owner_pid;
	uint64_t owner_id;
	/* Attributes (CUmemPool_attribute). */
	int reuse_follow_events;
	int reuse_opportunistic;
	int reuse_internal_deps;
	uint64_t release_threshold;
	uint64_t reserved, reserved_high;
	uint64_t used, used_high;
	struct cu_pool_chunk *chunks;
	struct cu_mem_pool *next;	/* in the list of all pools */
};

extern pthread_mutex_t cu_pool_lock;

/* ---- pools (mem_pool.c) ---------------------------------------------- */

/* A new pool of @d, in the list of all pools (cu_pool_lock held). */
struct cu_mem_pool *cu_pool_new(struct cu_device *d,
				const CUmemPoolProps *props, bool is_default);
/* A live pool handle, or NULL; call with cu_pool_lock held. */
struct cu_mem_pool *cu_pool_lookup(CUmemoryPool h);
/* The device's current pool (created on first use). */
CUresult cu_pool_current(struct cu_device *d, struct cu_mem_pool **out);
/* Free a destroyed pool once it holds no chunk (cu_pool_lock held). */
void cu_pool_reap(struct cu_mem_pool *p);
/* Every pool, live or destroyed (cu_pool_lock held). */
struct cu_mem_pool *cu_pool_all(void);

/* ---- blocks (mem_pool_alloc.c) ---------------------------------------- */

CUresult cu_pool_alloc(struct cu_mem_pool *p, struct cu_stream *s,
		       size_t size, CUdeviceptr *out);
/*
 * Give @ptr back to its pool in the order of @s (NULL: at once, the
 * caller has waited for the device).  CUDA_ERROR_NOT_FOUND: @ptr lies in
 * no pool.
 */
CUresult cu_pool_free(CUdeviceptr ptr, struct cu_stream *s);
/* Unlink and free chunk @c; @unmap: its context still exists. */
void cu_chunk_free(struct cu_pool_chunk *c, bool unmap);
/*
 * The block that starts at @ptr and its chunk (NULL if none starts there);
 * *@inside: @ptr lies in some chunk.  cu_pool_lock held.
 */
struct cu_pool_block *cu_pool_block_at(CUdeviceptr ptr,
				       struct cu_pool_chunk **chunk,
				       bool *inside);
/* Release unused chunks until @p reserves at most @keep bytes. */
void cu_pool_release(struct cu_mem_pool *p, uint64_t keep);

/* ---- sharing with other processes (mem_pool_ipc.c) -------------------- */

/* Drop the imported pointer @ptr (the caller waited for its users). */
void cu_pool_unimport(CUdeviceptr ptr);

/* ---- stream order (mem_pool_order.c) ---------------------------------- */

/* Count one more free on @s; its stamp. */
struct cu_pool_stamp cu_pool_stream_tick(struct cu_stream *s);
/* Whether @s synchronises with the legacy stream (is not it). */
bool cu_pool_stream_blocking(const struct cu_stream *s);
/* Whether the legacy stream's implicit order puts @t before @s's work. */
bool cu_pool_stream_after_legacy(struct cu_stream *s,
				 const struct cu_pool_stamp *t);
/* Whether @t is a free made on @s. */
bool cu_pool_stream_is(struct cu_stream *s, const struct cu_pool_stamp *t);
/* Whether everything @s runs from now on comes after the free @t. */
bool cu_pool_stream_after(struct cu_stream *s, const struct cu_pool_stamp *t);
/* Whether an event's record came after the free @t. */
bool cu_pool_event_after(struct cu_event *ev, const struct cu_pool_stamp *t);

#endif /* VGPU_CUDA_MEM_POOL_H */
