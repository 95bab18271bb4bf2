// SPDX-License-Identifier: GPL-2.0
/*
 * host_memory.c - page-locked host memory: cuMemHostAlloc and
 * cuMemHostRegister.
 *
 * Both kinds end up as pinned pages in the device's GART, mapped on the
 * GPU at the same address as in the process (unified addressing), in
 * every context of the device: what CUDA calls "mapped" holds for all of
 * it, which is why cuMemHostGetFlags reports DEVICEMAP even when it was
 * not asked for (as real CUDA does on a unified-addressing device).
 * Allocations, and registrations asked to be portable, are also pinned
 * for every other device (see "portable memory" below).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuda_internal.h"

#define CU_HOSTALLOC_FLAGS_ALL	(CU_MEMHOSTALLOC_PORTABLE | \
				 CU_MEMHOSTALLOC_DEVICEMAP | \
				 CU_MEMHOSTALLOC_WRITECOMBINED)
#define CU_HOSTREGISTER_FLAGS_ALL (CU_MEMHOSTREGISTER_PORTABLE | \
				   CU_MEMHOSTREGISTER_DEVICEMAP | \
				   CU_MEMHOSTREGISTER_READ_ONLY)

static uint32_t cu_host_map_flags(const struct cu_mem *m)
{
	return m->kind == CU_MEM_REGISTERED &&
	       (m->flags & CU_MEMHOSTREGISTER_READ_ONLY) ?
	       VGPU_MAP_READONLY : 0;
}

/* Map handle @h of @d (which holds @m's pages) in every context of @d. */
static CUresult cu_host_map_all(struct cu_device *d, uint32_t h,
				const struct cu_mem *m)
{
	struct cu_ctx *c, *failed = NULL;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	for (c = d->contexts; c; c = c->next) {
		ret = vgpu_mem_map(d->vdev, c->vctx, h, m->map_base, 0,
				   m->map_size, cu_host_map_flags(m));
		if (ret) {
			failed = c;
			break;
		}
	}
	if (failed)
		for (c = d->contexts; c != failed; c = c->next)
			vgpu_mem_unmap(d->vdev, c->vctx, m->map_base);
	pthread_mutex_unlock(&d->lock);
	return cu_from_errno(ret);
}

/* Wait for every context of @d, then unmap @m from them. */
static void cu_host_unmap_all(struct cu_device *d, const struct cu_mem *m)
{
	struct cu_ctx *c;

	pthread_mutex_lock(&d->lock);
	for (c = d->contexts; c; c = c->next) {
		cu_ctx_sync(c);
		vgpu_mem_unmap(d->vdev, c->vctx, m->map_base);
	}
	pthread_mutex_unlock(&d->lock);
}

/*
 * ---- portable memory --------------------------------------------------------
 *
 * A memory object of the driver belongs to one device (one open
 * /dev/vgpuN), and the driver refuses to share it with another device
 * (MEM_IMPORT gives -EXDEV): each device has its own GART.  Yet with
 * unified addressing CUDA makes every cuMemHostAlloc allocation, and every
 * registration with CU_MEMHOSTREGISTER_PORTABLE, reachable from every
 * device.  So the same pages are pinned once more for each other device:
 * HOST_REGISTER of the range as the process sees it pins exactly the
 * physical pages behind it - the process's own pages for a registration,
 * the driver's pages (mapped into the process by mmap) for an allocation,
 * write-combined or not - and the new object is mapped at the same
 * address in all that device's contexts.  The pages are then counted once
 * per device against RLIMIT_MEMLOCK and in each device's pinned_pages.
 *
 * The other devices' handles live in a list of their own, keyed by the
 * start of the mapped range (the registry's entries are copied out by
 * value and know only their own device).
 */
struct cu_host_peers {
	struct cu_host_peers *next;
	struct cu_mem mem;		/* a copy of the registry entry */
	uint32_t handle[];		/* by device ordinal; 0: none */
};

static pthread_mutex_t cu_host_peers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_host_peers *cu_host_peers_list;

/* Whether @m's pages are pinned for every device, not only its own. */
static bool cu_host_portable(const struct cu_mem *m)
{
	/* Migrating managed memory lives on its own device (no export). */
	return (m->kind == CU_MEM_HOST && !m->migrates) ||
	       (m->kind == CU_MEM_REGISTERED &&
		(m->flags & CU_MEMHOSTREGISTER_PORTABLE));
}

bool cu_host_reachable(const struct cu_mem *m, const struct cu_device *d)
{
	return m->dev == d || cu_host_portable(m);
}

/* Release the other devices' pins of @p (unmapped from their contexts). */
static void cu_host_peers_release(struct cu_host_peers *p)
{
	int i;

	for (i = 0; i < cu_device_count(); i++) {
		struct cu_device *d = cu_device_get(i);

		if (!p->handle[i])
			continue;
		cu_host_unmap_all(d, &p->mem);
		vgpu_mem_free(d->vdev, p->handle[i], NULL, 0);
	}
	free(p);
}

/* Pin @m's pages for every other device that must reach them. */
static CUresult cu_host_peers_add(const struct cu_mem *m)
{
	int i, n = cu_device_count();
	struct cu_host_peers *p;
	CUresult res = CUDA_SUCCESS;

	if (n < 2 || !cu_host_portable(m))
		return CUDA_SUCCESS;
	p = calloc(1, sizeof(*p) + (size_t)n * sizeof(p->handle[0]));
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	p->mem = *m;
	for (i = 0; i < n && res == CUDA_SUCCESS; i++) {
		struct cu_device *d = cu_device_get(i);
		int ret;

		if (d == m->dev)
			continue;
		ret = vgpu_mem_register(d->vdev, (void *)(uintptr_t)m->map_base,
					m->map_size, cu_host_map_flags(m) ?
					VGPU_HOST_REGISTER_READONLY : 0,
					&p->handle[i]);
		if (ret) {
			res = cu_from_errno(ret);
			break;
		}
		res = cu_host_map_all(d, p->handle[i], m);
		if (res != CUDA_SUCCESS) {
			vgpu_mem_free(d->vdev, p->handle[i], NULL, 0);
			p->handle[i] = 0;
		}
	}
	if (res != CUDA_SUCCESS) {
		cu_host_peers_release(p);
		return res;
	}
	pthread_mutex_lock(&cu_host_peers_lock);
	p->next = cu_host_peers_list;
	cu_host_peers_list = p;
	pthread_mutex_unlock(&cu_host_peers_lock);
	return CUDA_SUCCESS;
}

/* Undo cu_host_peers_add() for the range mapped at @map_base. */
static void cu_host_peers_remove(uint64_t map_base)
{
	struct cu_host_peers **pp, *p = NULL;

	pthread_mutex_lock(&cu_host_peers_lock);
	for (pp = &cu_host_peers_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->mem.map_base == map_base) {
			p = *pp;
			*pp = p->next;
			break;
		}
	}
	pthread_mutex_unlock(&cu_host_peers_lock);
	if (p)
		cu_host_peers_release(p);
}

/*
 * Publishing host memory (mapping it into every context of the device,
 * pinning it for the peers, entering it in the registry) and publishing a
 * new context (mapping what the registry holds, then joining the device's
 * list of contexts) are each two steps.  Interleaved, an allocation
 * published between a context's two steps would be missed by both and
 * never mapped in that context.  This lock, taken before any other of the
 * library's, puts them in order.
 */
static pthread_mutex_t cu_host_publish_lock = PTHREAD_MUTEX_INITIALIZER;

void cu_host_publish_begin(void)
{
	pthread_mutex_lock(&cu_host_publish_lock);
}

void cu_host_publish_end(void)
{
	pthread_mutex_unlock(&cu_host_publish_lock);
}

/* Map @m on its own device and pin it for the others; all or nothing. */
static CUresult cu_host_publish(const struct cu_mem *m)
{
	CUresult res;

	cu_host_publish_begin();
	res = cu_host_map_all(m->dev, m->handle, m);
	if (res != CUDA_SUCCESS)
		goto out;
	res = cu_host_peers_add(m);
	if (res == CUDA_SUCCESS) {
		res = cu_registry_add(m);
		if (res != CUDA_SUCCESS)
			cu_host_peers_remove(m->map_base);
	}
	if (res != CUDA_SUCCESS)
		cu_host_unmap_all(m->dev, m);
out:
	cu_host_publish_end();
	return res;
}

/* Unmap @m (removed from the registry) everywhere and drop the peers. */
static void cu_host_unpublish(const struct cu_mem *m)
{
	cu_host_peers_remove(m->map_base);
	cu_host_unmap_all(m->dev, m);
}

struct cu_map_into {
	struct cu_ctx *ctx;
	int ret;
};

static void cu_map_into_one(const struct cu_mem *m, void *arg)
{
	struct cu_map_into *mi = arg;
	int ret;

	if (m->kind == CU_MEM_DEVICE || m->dev != mi->ctx->dev || mi->ret)
		return;
	ret = vgpu_mem_map(m->dev->vdev, mi->ctx->vctx, m->handle,
			   m->map_base, 0, m->map_size, cu_host_map_flags(m));
	if (ret)
		mi->ret = ret;
}

CUresult cu_mem_map_host_into(struct cu_ctx *ctx)
{
	struct cu_map_into mi = { .ctx = ctx };
	unsigned int i = ctx->dev->ordinal;
	struct cu_host_peers *p;

	cu_registry_each(cu_map_into_one, &mi);
	/* And what other devices' allocations pinned for this one. */
	pthread_mutex_lock(&cu_host_peers_lock);
	for (p = cu_host_peers_list; p && !mi.ret; p = p->next)
		if (p->handle[i])
			mi.ret = vgpu_mem_map(ctx->dev->vdev, ctx->vctx,
					      p->handle[i], p->mem.map_base, 0,
					      p->mem.map_size,
					      cu_host_map_flags(&p->mem));
	pthread_mutex_unlock(&cu_host_peers_lock);
	return cu_from_errno(mi.ret);
}

CU_EXPORT CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize,
					  unsigned int Flags)
{
	struct cu_mem m = { 0 };
	struct cu_ctx *ctx;
	uint64_t alloc_size;
	void *cpu;
	CUresult res = cu_ctx_get(&ctx);
	int ret;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pp || (Flags & ~(unsigned int)CU_HOSTALLOC_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	if (!bytesize) {
		*pp = NULL;
		return CUDA_SUCCESS;
	}
	ret = vgpu_mem_alloc_host(ctx->dev->vdev, bytesize,
				  Flags & CU_MEMHOSTALLOC_WRITECOMBINED ?
				  VGPU_HOST_ALLOC_WC : 0,
				  &m.handle, &cpu, &alloc_size);
	if (ret)
		return ret == -EINVAL ? CUDA_ERROR_OUT_OF_MEMORY :
		       cu_from_errno(ret);
	m.base = m.map_base = (uintptr_t)cpu;
	m.size = bytesize;
	m.map_size = alloc_size;
	m.kind = CU_MEM_HOST;
	m.dev = ctx->dev;
	m.flags = Flags;
	m.export_fd = -1;
	res = cu_host_publish(&m);
	if (res != CUDA_SUCCESS) {
		vgpu_mem_free(ctx->dev->vdev, m.handle, cpu, alloc_size);
		return res;
	}
	*pp = cpu;
	return CUDA_SUCCESS;
}

CUresult cu_mem_managed_alloc_migrating(struct cu_ctx *ctx, size_t size,
					CUdeviceptr *out)
{
	struct cu_mem m = { 0 };
	uint64_t alloc_size;
	CUresult res;
	void *cpu;
	int ret;

	ret = vgpu_mem_alloc_managed(ctx->dev->vdev, size, &m.handle, &cpu,
				     &alloc_size);
	if (ret == -ENOTTY)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (ret)
		return ret == -EINVAL || ret == -ENOSPC ?
		       CUDA_ERROR_OUT_OF_MEMORY : cu_from_errno(ret);
	/* Published like pinned memory: every context, same address. */
	m.base = m.map_base = (uintptr_t)cpu;
	m.size = size;
	m.map_size = alloc_size;
	m.kind = CU_MEM_HOST;
	m.dev = ctx->dev;
	m.flags = CU_MEMHOSTALLOC_DEVICEMAP;
	m.managed = true;
	m.migrates = true;
	m.export_fd = -1;
	res = cu_host_publish(&m);
	if (res != CUDA_SUCCESS) {
		vgpu_mem_free(ctx->dev->vdev, m.handle, cpu, alloc_size);
		return res;
	}
	*out = (uintptr_t)cpu;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize)
{
	return cuMemHostAlloc(pp, bytesize, 0);
}

CU_EXPORT CUresult CUDAAPI cuMemFreeHost(void *p)
{
	struct cu_mem m;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!p)
		return CUDA_SUCCESS;
	if (!cu_registry_remove((uintptr_t)p, CU_MEM_HOST, &m))
		return CUDA_ERROR_INVALID_VALUE;
	cu_host_unpublish(&m);
	vgpu_mem_free(m.dev->vdev, m.handle, p, m.map_size);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize,
					     unsigned int Flags)
{
	struct cu_mem m = { 0 }, other;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);
	int ret;

	if (res != CUDA_SUCCESS)
		return res;
	if (!p || !bytesize || (Flags & ~(unsigned int)CU_HOSTREGISTER_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	m.base = (uintptr_t)p;
	m.size = bytesize;
	m.map_base = cu_align_down(m.base, VGPU_SMALL_PAGE_SIZE);
	m.map_size = cu_align_up(m.base + bytesize, VGPU_SMALL_PAGE_SIZE) -
		     m.map_base;
	/* Device memory and memory from cuMemHostAlloc cannot be registered. */
	if (cu_va_contains(m.base))
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_registry_find(m.base, &other) && other.kind == CU_MEM_HOST)
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_registry_overlaps_host(m.map_base, m.map_size))
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	ret = vgpu_mem_register(ctx->dev->vdev, (void *)(uintptr_t)m.map_base,
				m.map_size,
				Flags & CU_MEMHOSTREGISTER_READ_ONLY ?
				VGPU_HOST_REGISTER_READONLY : 0, &m.handle);
	if (ret)
		/*
		 * GART full, over RLIMIT_MEMLOCK or the user's GART share:
		 * out of memory, as CUDA says; anything else is the range
		 * (unmapped, PROT_NONE, or read-only without READ_ONLY).
		 */
		return cu_from_errno(ret) == CUDA_ERROR_OUT_OF_MEMORY ?
		       CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
	m.kind = CU_MEM_REGISTERED;
	m.dev = ctx->dev;
	m.flags = Flags;
	m.export_fd = -1;
	res = cu_host_publish(&m);
	if (res != CUDA_SUCCESS) {
		vgpu_mem_free(ctx->dev->vdev, m.handle, NULL, 0);
		return res;
	}
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostUnregister(void *p)
{
	struct cu_mem m;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_registry_remove((uintptr_t)p, CU_MEM_REGISTERED, &m)) {
		/* Inside a registration but not its start: measured. */
		if (cu_registry_find((uintptr_t)p, &m) &&
		    m.kind == CU_MEM_REGISTERED)
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	}
	cu_host_unpublish(&m);
	vgpu_mem_free(m.dev->vdev, m.handle, NULL, 0);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	struct cu_mem m;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pFlags || !cu_registry_find((uintptr_t)p, &m) ||
	    m.kind == CU_MEM_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	*pFlags = (m.flags & CU_MEMHOSTALLOC_PORTABLE) |
		  CU_MEMHOSTALLOC_DEVICEMAP;
	if (m.kind == CU_MEM_HOST)
		*pFlags |= m.flags & CU_MEMHOSTALLOC_WRITECOMBINED;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr,
						     void *p,
						     unsigned int Flags)
{
	struct cu_ctx *ctx;
	struct cu_mem m;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pdptr || Flags || !cu_registry_find((uintptr_t)p, &m) ||
	    m.kind == CU_MEM_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	/* Unified addressing: the GPU sees the pages at the host address. */
	*pdptr = (uintptr_t)p;
	return CUDA_SUCCESS;
}
