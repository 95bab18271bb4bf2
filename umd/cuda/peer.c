// SPDX-License-Identifier: GPL-2.0
/*
 * peer.c - peer access: a context reaching the memory of a context of
 * another device (cuCtxEnablePeerAccess), as the seeds' multi-device
 * chapter describes: after cudaDeviceEnablePeerAccess(1) on device 0,
 * device 0's kernels may dereference pointers to device 1's memory, and
 * with unified addressing a pointer needs no translation.
 *
 * How: every vGPU device is a peer of every other (their VRAM is memory
 * of one kernel, and each firmware maps its peers' VRAM: vgpu_peer.c,
 * firmware_sim/fw/peer.c).  Enabling access from context C to context P
 * of another device makes a *link* C -> P; each device allocation of P
 * is exported from P's device file and imported into C's (a peer handle)
 * and mapped in C at the same address it has in P - the process's one VA
 * range keeps addresses unique across devices.  The driver writes PEER
 * PTEs for it, and C's loads, stores and atomics go to P's VRAM.
 *
 *     cuCtxEnablePeerAccess(P) in C
 *       for each allocation A of P:            later cuMemAlloc in P:
 *         MEM_EXPORT(A) on dev(P) -> fd          the same, for that one
 *         MEM_IMPORT(fd) on dev(C) -> peer h     allocation (cu_peer_added)
 *         MAP(C, h, va(A))      -> PEER PTEs   cuMemFree in P: unmapped
 *                                              from C first (cu_peer_removed)
 *
 * A copy whose two sides are reachable from one context - its own memory,
 * host memory, and memory of the contexts it has links to - is one
 * copy-engine packet in that context (cu_peer_reaches(), copy.c,
 * copy_3d.c): no staging through the host, and in stream order without
 * the host waiting.
 *
 * Lock order: cu_peer_lock, then the registry's (cu_registry_each).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuda_internal.h"

/* An allocation of the peer, mapped in the link's context. */
struct cu_peer_map {
	uint64_t va;
	uint32_t handle;		/* the peer handle in ctx's file */
	struct cu_peer_map *next;
};

/* Context @ctx reaches the device allocations of context @peer. */
struct cu_peer_link {
	struct cu_ctx *ctx;
	struct cu_ctx *peer;
	struct cu_peer_map *maps;
	struct cu_peer_link *next;
};

static pthread_mutex_t cu_peer_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_peer_link *cu_peer_links;

static struct cu_peer_link **cu_peer_find(struct cu_ctx *ctx,
					  struct cu_ctx *peer)
{
	struct cu_peer_link **pl;

	for (pl = &cu_peer_links; *pl; pl = &(*pl)->next)
		if ((*pl)->ctx == ctx && (*pl)->peer == peer)
			return pl;
	return NULL;
}

/* Allocations of a context that a link maps: plain device allocations. */
static bool cu_peer_mappable(const struct cu_mem *m, struct cu_ctx *peer)
{
	return m->kind == CU_MEM_DEVICE && m->ctx == peer && !m->vmm;
}

/* Map allocation @m of l->peer into l->ctx; caller holds cu_peer_lock. */
static CUresult cu_peer_map_one(struct cu_peer_link *l, const struct cu_mem *m)
{
	struct vgpu_device *vdev = l->ctx->dev->vdev;
	struct cu_peer_map *pm;
	uint32_t handle, kind;
	uint64_t size;
	int fd, ret;

	for (pm = l->maps; pm; pm = pm->next)
		if (pm->va == m->map_base)
			return CUDA_SUCCESS;	/* raced with the allocation */
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ret = vgpu_mem_export(m->dev->vdev, m->handle,
			      VGPU_MEM_EXPORT_CLOEXEC, &fd);
	if (ret)
		goto err;
	ret = vgpu_mem_import(vdev, fd, &handle, &kind, &size);
	close(fd);
	if (ret)
		goto err;
	ret = vgpu_mem_map(vdev, l->ctx->vctx, handle, m->map_base, 0,
			   m->map_size, 0);
	if (ret) {
		vgpu_mem_free(vdev, handle, NULL, 0);
		goto err;
	}
	pm->va = m->map_base;
	pm->handle = handle;
	pm->next = l->maps;
	l->maps = pm;
	return CUDA_SUCCESS;
err:
	free(pm);
	return ret == -ENOMEM || ret == -ENOSPC ? CUDA_ERROR_TOO_MANY_PEERS :
						   cu_from_errno(ret);
}

static void cu_peer_unmap_one(struct cu_peer_link *l, struct cu_peer_map *pm)
{
	struct vgpu_device *vdev = l->ctx->dev->vdev;

	vgpu_mem_unmap(vdev, l->ctx->vctx, pm->va);
	vgpu_mem_free(vdev, pm->handle, NULL, 0);
	free(pm);
}

/* Undo a link's mappings and free it; caller holds cu_peer_lock. */
static void cu_peer_unlink(struct cu_peer_link **pl)
{
	struct cu_peer_link *l = *pl;

	*pl = l->next;
	while (l->maps) {
		struct cu_peer_map *pm = l->maps;

		l->maps = pm->next;
		cu_peer_unmap_one(l, pm);
	}
	free(l);
}

struct cu_peer_collect {
	struct cu_ctx *peer;
	struct cu_mem *mems;
	size_t n, cap;
	bool nomem;
};

static void cu_peer_collect_one(const struct cu_mem *m, void *arg)
{
	struct cu_peer_collect *c = arg;

	if (!cu_peer_mappable(m, c->peer) || c->nomem)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct cu_mem *n = realloc(c->mems, cap * sizeof(*n));

		if (!n) {
			c->nomem = true;
			return;
		}
		c->mems = n;
		c->cap = cap;
	}
	c->mems[c->n++] = *m;
}

CUresult cu_peer_added(const struct cu_mem *m)
{
	CUresult res = CUDA_SUCCESS;
	struct cu_peer_link *l;

	pthread_mutex_lock(&cu_peer_lock);
	for (l = cu_peer_links; l && res == CUDA_SUCCESS; l = l->next)
		if (cu_peer_mappable(m, l->peer))
			res = cu_peer_map_one(l, m);
	pthread_mutex_unlock(&cu_peer_lock);
	return res;
}

void cu_peer_removed(const struct cu_mem *m)
{
	struct cu_peer_link *l;

	pthread_mutex_lock(&cu_peer_lock);
	for (l = cu_peer_links; l; l = l->next) {
		struct cu_peer_map **pp;

		if (l->peer != m->ctx)
			continue;
		for (pp = &l->maps; *pp; pp = &(*pp)->next) {
			if ((*pp)->va == m->map_base) {
				struct cu_peer_map *pm = *pp;

				*pp = pm->next;
				cu_peer_unmap_one(l, pm);
				break;
			}
		}
	}
	pthread_mutex_unlock(&cu_peer_lock);
}

void cu_peer_ctx_gone(struct cu_ctx *ctx)
{
	struct cu_peer_link **pl;

	pthread_mutex_lock(&cu_peer_lock);
	for (pl = &cu_peer_links; *pl;) {
		if ((*pl)->ctx == ctx || (*pl)->peer == ctx)
			cu_peer_unlink(pl);
		else
			pl = &(*pl)->next;
	}
	pthread_mutex_unlock(&cu_peer_lock);
}

bool cu_peer_linked(struct cu_ctx *ctx, struct cu_ctx *peer)
{
	bool linked;

	pthread_mutex_lock(&cu_peer_lock);
	linked = cu_peer_find(ctx, peer) != NULL;
	pthread_mutex_unlock(&cu_peer_lock);
	return linked;
}

bool cu_peer_reaches(struct cu_ctx *ctx, struct cu_ctx *owner)
{
	return !owner || owner == ctx || cu_peer_linked(ctx, owner);
}

CUresult cu_peer_order(struct cu_stream *s, struct cu_ctx *a,
		       struct cu_ctx *b)
{
	struct cu_ctx *c[2] = { a, b };
	CUresult res = CUDA_SUCCESS;

	for (int i = 0; i < 2 && res == CUDA_SUCCESS; i++) {
		if (!c[i] || c[i] == s->ctx || (i && c[1] == c[0]))
			continue;
		res = cu_ctx_check(c[i]);
		if (res == CUDA_SUCCESS)
			res = cu_stream_sync(&c[i]->null_stream);
	}
	return res;
}

/* ---- the API --------------------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer,
						 CUdevice dev,
						 CUdevice peerDev)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!canAccessPeer)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_device_get(dev) || !cu_device_get(peerDev))
		return CUDA_ERROR_INVALID_DEVICE;
	/* A device and itself: 0, as the H100 recorded (probe_peer). */
	*canAccessPeer = dev != peerDev;
	return CUDA_SUCCESS;
}

/* In the order an H100 checks (tools/cuda-probe/golden/probe_vmm.h100.txt). */
CU_EXPORT CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peer,
						 unsigned int Flags)
{
	struct cu_ctx *ctx, *p = (struct cu_ctx *)peer;
	struct cu_peer_collect c = { .peer = p };
	struct cu_peer_link *l, **pl;
	CUresult res = cu_ctx_get(&ctx);
	size_t i;

	if (res != CUDA_SUCCESS)
		return res;
	if (!p || !cu_ctx_valid(p))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (Flags)
		return CUDA_ERROR_INVALID_VALUE;
	/* A context of the same device (itself included): recorded 217. */
	if (p->dev == ctx->dev)
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	l = calloc(1, sizeof(*l));
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->ctx = ctx;
	l->peer = p;
	pthread_mutex_lock(&cu_peer_lock);
	if (cu_peer_find(ctx, p)) {
		pthread_mutex_unlock(&cu_peer_lock);
		free(l);
		return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	}
	/* Linked first: an allocation made from now on maps itself. */
	l->next = cu_peer_links;
	cu_peer_links = l;
	cu_registry_each(cu_peer_collect_one, &c);
	res = c.nomem ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
	for (i = 0; i < c.n && res == CUDA_SUCCESS; i++)
		res = cu_peer_map_one(l, &c.mems[i]);
	if (res != CUDA_SUCCESS) {
		pl = cu_peer_find(ctx, p);
		cu_peer_unlink(pl);
	}
	pthread_mutex_unlock(&cu_peer_lock);
	free(c.mems);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peer)
{
	struct cu_ctx *ctx, *p = (struct cu_ctx *)peer;
	struct cu_peer_link **pl;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!p || !cu_ctx_valid(p))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!cu_peer_linked(ctx, p))
		return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	/* Work queued in this context may still use the peer's memory. */
	res = cu_ctx_sync(ctx);
	pthread_mutex_lock(&cu_peer_lock);
	pl = cu_peer_find(ctx, p);
	if (pl)
		cu_peer_unlink(pl);
	pthread_mutex_unlock(&cu_peer_lock);
	return pl ? res : CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}
