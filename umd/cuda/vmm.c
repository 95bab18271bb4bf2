// SPDX-License-Identifier: GPL-2.0
/*
 * vmm.c - virtual memory management: cuMemAddressReserve, cuMemCreate,
 * cuMemMap, cuMemSetAccess and friends.
 *
 * The API hands the program the three things cuMemAlloc does in one step,
 * one at a time, and each is one thing of the driver:
 *
 *   cuMemAddressReserve  a range of GPU VA (va_space.c's reserved range:
 *                        no driver call, the process owns its VA space)
 *   cuMemCreate          a VRAM memory object (VGPU_IOCTL_VRAM_ALLOC)
 *   cuMemMap             "this object backs that VA" - bookkeeping only:
 *                        the device may not touch it yet
 *   cuMemSetAccess       page-table entries (VGPU_IOCTL_MAP, read-only or
 *                        read-write) in every context of the device
 *
 * A mapping is per device, not per context (as in CUDA): SetAccess maps
 * into each live context of the device, and a context created later gets
 * the accessible mappings (cu_vmm_map_into(), from context creation).
 * The answers to bad calls are those an H100 gives
 * (tools/cuda-probe/golden/probe_vmm.h100.txt): misalignment in cuMemMap
 * is CUDA_ERROR_NOT_SUPPORTED, everything else CUDA_ERROR_INVALID_VALUE.
 *
 * An allocation handle is the address of its struct cu_vmm_alloc, checked
 * against the list of live ones.  The program's references (cuMemCreate,
 * each cuMemRetainAllocationHandle) and the mappings are counted apart:
 * once cuMemRelease drops the last of the first, the handle is invalid
 * (as on an H100) but the memory stays until the last mapping goes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_internal.h"

/* What an H100 reports for device memory, minimum and recommended. */
#define CU_VMM_GRANULARITY	(2ull << 20)

struct cu_vmm_alloc {
	struct cu_vmm_alloc *next;
	unsigned int handle_refs;	/* the program's */
	unsigned int map_refs;		/* mappings */
	struct cu_device *dev;
	uint32_t handle;		/* memory object of dev->vdev */
	uint64_t size;
	CUmemAllocationHandleType handle_types;
};

struct cu_vmm_reserve {
	struct cu_vmm_reserve *next;
	uint64_t va, size;
};

struct cu_vmm_map {
	struct cu_vmm_map *next;
	uint64_t va, size;
	struct cu_vmm_alloc *alloc;
	CUmemAccess_flags access;	/* of alloc->dev */
};

/* Lock order: cu_host_publish_begin(), cu_vmm_lock, dev->lock. */
static pthread_mutex_t cu_vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_vmm_alloc *cu_vmm_allocs;
static struct cu_vmm_reserve *cu_vmm_reserves;
static struct cu_vmm_map *cu_vmm_maps;

static struct cu_vmm_alloc *cu_vmm_alloc_find(CUmemGenericAllocationHandle h)
{
	struct cu_vmm_alloc *a;

	for (a = cu_vmm_allocs; a; a = a->next)
		if ((uintptr_t)a == h && a->handle_refs)
			return a;
	return NULL;
}

/* Free @a once neither the program nor a mapping holds it. */
static void cu_vmm_alloc_maybe_free(struct cu_vmm_alloc *a)
{
	struct cu_vmm_alloc **pp;

	if (a->handle_refs || a->map_refs)
		return;
	for (pp = &cu_vmm_allocs; *pp != a; pp = &(*pp)->next)
		;
	*pp = a->next;
	vgpu_mem_free(a->dev->vdev, a->handle, NULL, 0);
	free(a);
}

static struct cu_vmm_reserve *cu_vmm_reserve_of(uint64_t va, uint64_t size)
{
	struct cu_vmm_reserve *r;

	for (r = cu_vmm_reserves; r; r = r->next)
		if (va >= r->va && va + size <= r->va + r->size &&
		    va + size >= va)
			return r;
	return NULL;
}

static struct cu_vmm_map *cu_vmm_map_at(uint64_t ptr)
{
	struct cu_vmm_map *m;

	for (m = cu_vmm_maps; m; m = m->next)
		if (ptr >= m->va && ptr < m->va + m->size)
			return m;
	return NULL;
}

static bool cu_vmm_location_ok(const CUmemLocation *loc)
{
	return loc->type == CU_MEM_LOCATION_TYPE_DEVICE &&
	       cu_device_get(loc->id);
}

/* ---- granularity, objects ---------------------------------------------- */

CU_EXPORT CUresult CUDAAPI
cuMemGetAllocationGranularity(size_t *granularity,
			      const CUmemAllocationProp *prop,
			      CUmemAllocationGranularity_flags option)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	/* An H100 answers any property, even a device it does not have. */
	if (!granularity || !prop ||
	    (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	     option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
		return CUDA_ERROR_INVALID_VALUE;
	*granularity = CU_VMM_GRANULARITY;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *handle,
				       size_t size,
				       const CUmemAllocationProp *prop,
				       unsigned long long flags)
{
	CUresult res = cu_initialized();
	struct cu_vmm_alloc *a;
	struct cu_device *d;
	uint64_t alloc_size;
	int ret;

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || !prop || flags ||
	    prop->type != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    (prop->requestedHandleTypes &
	     ~(unsigned int)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
		return CUDA_ERROR_INVALID_VALUE;
	d = cu_device_get(prop->location.id);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!size || size % CU_VMM_GRANULARITY)
		return CUDA_ERROR_INVALID_VALUE;
	a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ret = vgpu_mem_alloc_vram(d->vdev, size, &a->handle, &alloc_size);
	if (ret) {
		free(a);
		return ret == -EINVAL ? CUDA_ERROR_OUT_OF_MEMORY :
		       cu_from_errno(ret);
	}
	a->handle_refs = 1;
	a->dev = d;
	a->size = size;
	a->handle_types = prop->requestedHandleTypes;
	pthread_mutex_lock(&cu_vmm_lock);
	a->next = cu_vmm_allocs;
	cu_vmm_allocs = a;
	pthread_mutex_unlock(&cu_vmm_lock);
	*handle = (uintptr_t)a;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle)
{
	CUresult res = cu_initialized();
	struct cu_vmm_alloc *a;

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_vmm_lock);
	a = cu_vmm_alloc_find(handle);
	if (a) {
		a->handle_refs--;
		cu_vmm_alloc_maybe_free(a);
	}
	pthread_mutex_unlock(&cu_vmm_lock);
	return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult CUDAAPI
cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
				       CUmemGenericAllocationHandle handle)
{
	CUresult res = cu_initialized();
	struct cu_vmm_alloc *a;

	if (res != CUDA_SUCCESS)
		return res;
	if (!prop)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_vmm_lock);
	a = cu_vmm_alloc_find(handle);
	if (a) {
		memset(prop, 0, sizeof(*prop));
		prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
		prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		prop->location.id = (int)a->dev->ordinal;
		prop->requestedHandleTypes = a->handle_types;
	}
	pthread_mutex_unlock(&cu_vmm_lock);
	return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult CUDAAPI
cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
	CUresult res = cu_initialized();
	struct cu_vmm_map *m;

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_vmm_lock);
	m = cu_vmm_map_at((uintptr_t)addr);
	if (m) {
		m->alloc->handle_refs++;
		*handle = (uintptr_t)m->alloc;
	}
	pthread_mutex_unlock(&cu_vmm_lock);
	return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- sharing by file descriptor ---------------------------------------- */

CU_EXPORT CUresult CUDAAPI
cuMemExportToShareableHandle(void *shareableHandle,
			     CUmemGenericAllocationHandle handle,
			     CUmemAllocationHandleType handleType,
			     unsigned long long flags)
{
	CUresult res = cu_initialized();
	struct cu_vmm_alloc *a;
	int fd = -1, ret = -EINVAL;

	if (res != CUDA_SUCCESS)
		return res;
	if (!shareableHandle || flags ||
	    handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_vmm_lock);
	a = cu_vmm_alloc_find(handle);
	/* Only an allocation created for this kind of handle exports. */
	if (a && (a->handle_types & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
		ret = vgpu_mem_export(a->dev->vdev, a->handle, 0, &fd);
	pthread_mutex_unlock(&cu_vmm_lock);
	if (ret)
		return cu_from_errno(ret);
	*(int *)shareableHandle = fd;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI
cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
			       void *osHandle,
			       CUmemAllocationHandleType shHandleType)
{
	CUresult res = cu_initialized();
	int fd = (int)(intptr_t)osHandle, ret = -EXDEV, i;
	struct cu_vmm_alloc *a;
	struct cu_device *d = NULL;
	uint32_t kind;
	uint64_t size;

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* The descriptor knows its device: each other device says EXDEV. */
	for (i = 0; i < cu_device_count() && ret == -EXDEV; i++) {
		d = cu_device_get(i);
		ret = vgpu_mem_import_own(d->vdev, fd, &a->handle, &kind, &size);
	}
	if (!ret && kind != VGPU_MEM_KIND_VRAM) {
		vgpu_mem_free(d->vdev, a->handle, NULL, 0);
		ret = -EINVAL;
	}
	if (ret) {
		free(a);
		/* An H100 answers a descriptor that is not open with UNKNOWN. */
		return ret == -EBADF ? CUDA_ERROR_UNKNOWN :
		       ret == -EXDEV ? CUDA_ERROR_INVALID_VALUE :
		       cu_from_errno(ret);
	}
	a->handle_refs = 1;
	a->dev = d;
	a->size = size;
	/* An H100 reports no handle types for an imported allocation. */
	pthread_mutex_lock(&cu_vmm_lock);
	a->next = cu_vmm_allocs;
	cu_vmm_allocs = a;
	pthread_mutex_unlock(&cu_vmm_lock);
	*handle = (uintptr_t)a;
	return CUDA_SUCCESS;
}

/* ---- address ranges ---------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *ptr, size_t size,
					       size_t alignment,
					       CUdeviceptr addr,
					       unsigned long long flags)
{
	CUresult res = cu_initialized();
	struct cu_vmm_reserve *r;
	uint64_t va = 0, got, span;

	if (res != CUDA_SUCCESS)
		return res;
	if (!ptr || flags || !size || size % CU_VMM_GRANULARITY ||
	    (alignment & (alignment - 1)))
		return CUDA_ERROR_INVALID_VALUE;
	if (alignment < CU_VMM_GRANULARITY)
		alignment = CU_VMM_GRANULARITY;
	r = malloc(sizeof(*r));
	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* @addr is a wish: taken when free and aligned, else ignored. */
	if (addr && !(addr % alignment) && cu_va_take(addr, size))
		va = addr;
	if (!va) {
		/* Over-allocate, then give back the unaligned head and tail. */
		span = size + alignment;
		got = cu_va_alloc(span);
		if (!got) {
			free(r);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		va = cu_align_up(got, alignment);
		if (va > got)
			cu_va_free(got, va - got);
		if (got + span > va + size)
			cu_va_free(va + size, got + span - (va + size));
	}
	r->va = va;
	r->size = size;
	pthread_mutex_lock(&cu_vmm_lock);
	r->next = cu_vmm_reserves;
	cu_vmm_reserves = r;
	pthread_mutex_unlock(&cu_vmm_lock);
	*ptr = va;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	CUresult res = cu_initialized();
	struct cu_vmm_reserve **pp, *r;
	struct cu_vmm_map *m;

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_vmm_lock);
	for (pp = &cu_vmm_reserves; (r = *pp); pp = &r->next)
		if (r->va == ptr && r->size == size)
			break;
	/* Only a whole reservation, and only once nothing is mapped in it. */
	for (m = cu_vmm_maps; r && m; m = m->next)
		if (m->va >= r->va && m->va < r->va + r->size)
			r = NULL;
	if (r)
		*pp = r->next;
	pthread_mutex_unlock(&cu_vmm_lock);
	if (!r)
		return CUDA_ERROR_INVALID_VALUE;
	cu_va_free(r->va, r->size);
	free(r);
	return CUDA_SUCCESS;
}

/* ---- mappings ---------------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size,
				    size_t offset,
				    CUmemGenericAllocationHandle handle,
				    unsigned long long flags)
{
	CUresult res = cu_initialized();
	struct cu_vmm_alloc *a;
	struct cu_vmm_map *m, *n;

	if (res != CUDA_SUCCESS)
		return res;
	if (flags || !size)
		return CUDA_ERROR_INVALID_VALUE;
	n = calloc(1, sizeof(*n));
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&cu_vmm_lock);
	a = cu_vmm_alloc_find(handle);
	if (!a) {
		res = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	/* An H100 maps whole granules from the start of the object only. */
	if (size % CU_VMM_GRANULARITY || ptr % CU_VMM_GRANULARITY || offset ||
	    size > a->size) {
		res = CUDA_ERROR_NOT_SUPPORTED;
		goto out;
	}
	if (!cu_vmm_reserve_of(ptr, size)) {
		res = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	for (m = cu_vmm_maps; m; m = m->next)
		if (ptr < m->va + m->size && m->va < ptr + size) {
			res = CUDA_ERROR_INVALID_VALUE;
			goto out;
		}
	n->va = ptr;
	n->size = size;
	n->alloc = a;
	n->access = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	a->map_refs++;
	n->next = cu_vmm_maps;
	cu_vmm_maps = n;
	n = NULL;
out:
	pthread_mutex_unlock(&cu_vmm_lock);
	free(n);
	return res;
}

/* The registry entry that lets copies, memsets and attributes find @m. */
static CUresult cu_vmm_register(const struct cu_vmm_map *m)
{
	struct cu_mem e = { 0 };

	e.base = m->va;
	e.size = m->size;
	e.map_base = m->va;
	e.map_size = m->size;
	e.kind = CU_MEM_DEVICE;
	e.dev = m->alloc->dev;
	e.ctx = NULL;		/* every context of the device */
	e.handle = m->alloc->handle;
	e.imported = true;	/* not cuMemFree's to release */
	e.export_fd = -1;
	e.vmm = true;
	return cu_registry_add(&e);
}

bool cu_vmm_covers(uint64_t ptr, uint64_t size)
{
	struct cu_vmm_map *m, *first;
	uint64_t at = ptr;
	bool ok = ptr + size >= ptr;

	pthread_mutex_lock(&cu_vmm_lock);
	first = cu_vmm_map_at(ptr);
	while (ok && at < ptr + size) {
		m = cu_vmm_map_at(at);
		ok = m && first && m->alloc->dev == first->alloc->dev &&
		     m->access != CU_MEM_ACCESS_FLAGS_PROT_NONE;
		if (ok)
			at = m->va + m->size;
	}
	pthread_mutex_unlock(&cu_vmm_lock);
	return ok;
}

struct cu_ctx *cu_vmm_owner(struct cu_device *d)
{
	struct cu_ctx *cur = cu_ctx_current(), *c;

	if (!cur || cur->dev == d)
		return NULL;
	pthread_mutex_lock(&d->lock);
	c = d->primary ? d->primary : d->contexts;
	pthread_mutex_unlock(&d->lock);
	return c;
}

/* Page-table entries for @m in @ctx, as its access flags say. */
static int cu_vmm_map_ctx(const struct cu_vmm_map *m, struct cu_ctx *ctx)
{
	uint32_t flags = m->access == CU_MEM_ACCESS_FLAGS_PROT_READ ?
			 VGPU_MAP_READONLY : 0;

	return vgpu_mem_map(ctx->dev->vdev, ctx->vctx, m->alloc->handle,
			    m->va, 0, m->size, flags);
}

/*
 * Wait for the work of every context of @d, as cuMemFree does for its
 * context: the PTEs must not go under a kernel or copy still queued.
 * Contexts leave the list under d->lock before they are torn down, so
 * none goes away while we hold it.
 */
static void cu_vmm_sync_device(struct cu_device *d)
{
	struct cu_ctx *c;

	pthread_mutex_lock(&d->lock);
	for (c = d->contexts; c; c = c->next)
		cu_ctx_sync(c);
	pthread_mutex_unlock(&d->lock);
}

/*
 * Give @m the access @flags in every context of its device: remove the
 * old entries, then write new ones.  Called under cu_vmm_lock with the
 * host-publish lock held, so no context is being created meanwhile.
 */
static CUresult cu_vmm_apply(struct cu_vmm_map *m, CUmemAccess_flags flags)
{
	struct cu_device *d = m->alloc->dev;
	struct cu_mem old;
	struct cu_ctx *c;
	CUresult res = CUDA_SUCCESS;
	int ret = 0;

	if (m->access == flags)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&d->lock);
	if (m->access != CU_MEM_ACCESS_FLAGS_PROT_NONE)
		for (c = d->contexts; c; c = c->next)
			vgpu_mem_unmap(d->vdev, c->vctx, m->va);
	m->access = flags;
	if (flags != CU_MEM_ACCESS_FLAGS_PROT_NONE)
		for (c = d->contexts; c && !ret; c = c->next)
			ret = cu_vmm_map_ctx(m, c);
	if (ret) {
		for (c = d->contexts; c; c = c->next)
			vgpu_mem_unmap(d->vdev, c->vctx, m->va);
		m->access = CU_MEM_ACCESS_FLAGS_PROT_NONE;
		res = cu_from_errno(ret);
	}
	pthread_mutex_unlock(&d->lock);
	/* Reachable by copies exactly while the device may access it. */
	if (m->access == CU_MEM_ACCESS_FLAGS_PROT_NONE)
		cu_registry_remove(m->va, CU_MEM_DEVICE, &old);
	else if (!cu_registry_find(m->va, &old))
		res = cu_vmm_register(m);
	return res;
}

CUresult cu_vmm_map_into(struct cu_ctx *ctx)
{
	struct cu_vmm_map *m;
	int ret = 0;

	pthread_mutex_lock(&cu_vmm_lock);
	for (m = cu_vmm_maps; m && !ret; m = m->next)
		if (m->alloc->dev == ctx->dev &&
		    m->access != CU_MEM_ACCESS_FLAGS_PROT_NONE)
			ret = cu_vmm_map_ctx(m, ctx);
	pthread_mutex_unlock(&cu_vmm_lock);
	return cu_from_errno(ret);
}

/*
 * The mappings that tile [ptr, ptr + size) exactly, without a hole and
 * without cutting one (an H100 refuses anything else): true if they do.
 */
static bool cu_vmm_tiled(uint64_t ptr, uint64_t size)
{
	struct cu_vmm_map *m;
	uint64_t at = ptr;

	while (at < ptr + size) {
		m = cu_vmm_map_at(at);
		if (!m || m->va != at || m->va + m->size > ptr + size)
			return false;
		at += m->size;
	}
	return true;
}

static bool cu_vmm_access_ok(const CUmemAccessDesc *desc, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (!cu_vmm_location_ok(&desc[i].location))
			return false;
		if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
		    desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
		    desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			return false;
	}
	return true;
}

CU_EXPORT CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size,
					  const CUmemAccessDesc *desc,
					  size_t count)
{
	CUresult res = cu_initialized();
	struct cu_vmm_map *m;
	uint64_t at;

	if (res != CUDA_SUCCESS)
		return res;
	if (!desc || !count || !size || !cu_vmm_access_ok(desc, count))
		return CUDA_ERROR_INVALID_VALUE;
	cu_host_publish_begin();
	pthread_mutex_lock(&cu_vmm_lock);
	if (!cu_vmm_tiled(ptr, size)) {
		res = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	/*
	 * A device other than the memory's own would reach it over a peer
	 * link; peer access (peer.c) maps cuMemAlloc memory only, not VMM
	 * mappings yet.
	 */
	for (at = ptr; at < ptr + size; at += m->size) {
		m = cu_vmm_map_at(at);
		for (size_t i = 0; i < count; i++)
			if (desc[i].location.id != (int)m->alloc->dev->ordinal) {
				res = CUDA_ERROR_INVALID_DEVICE;
				goto out;
			}
	}
	/* Taking access away under queued work would fault it: wait. */
	for (at = ptr; at < ptr + size; at += m->size) {
		m = cu_vmm_map_at(at);
		if (m->access != CU_MEM_ACCESS_FLAGS_PROT_NONE) {
			cu_vmm_sync_device(m->alloc->dev);
			break;
		}
	}
	for (at = ptr; at < ptr + size && res == CUDA_SUCCESS; at += m->size) {
		m = cu_vmm_map_at(at);
		for (size_t i = 0; i < count && res == CUDA_SUCCESS; i++)
			res = cu_vmm_apply(m, desc[i].flags);
	}
out:
	pthread_mutex_unlock(&cu_vmm_lock);
	cu_host_publish_end();
	return res;
}

CU_EXPORT CUresult CUDAAPI cuMemGetAccess(unsigned long long *flags,
					  const CUmemLocation *location,
					  CUdeviceptr ptr)
{
	CUresult res = cu_initialized();
	struct cu_vmm_map *m;

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags || !location)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_vmm_location_ok(location))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&cu_vmm_lock);
	m = cu_vmm_map_at(ptr);
	/* An H100 writes 0 for an address that is not mapped, too. */
	*flags = m && location->id == (int)m->alloc->dev->ordinal ?
		 m->access : CU_MEM_ACCESS_FLAGS_PROT_NONE;
	pthread_mutex_unlock(&cu_vmm_lock);
	return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	CUresult res = cu_initialized();
	struct cu_vmm_map **pp, *m;

	if (res != CUDA_SUCCESS)
		return res;
	if (!size || size % CU_VMM_GRANULARITY || ptr % CU_VMM_GRANULARITY)
		return CUDA_ERROR_INVALID_VALUE;
	cu_host_publish_begin();
	pthread_mutex_lock(&cu_vmm_lock);
	/* Holes are fine; cutting a mapping is not. */
	if (!cu_vmm_reserve_of(ptr, size))
		res = CUDA_ERROR_INVALID_VALUE;
	for (m = cu_vmm_maps; m && res == CUDA_SUCCESS; m = m->next)
		if (ptr < m->va + m->size && m->va < ptr + size &&
		    (m->va < ptr || m->va + m->size > ptr + size))
			res = CUDA_ERROR_INVALID_VALUE;
	/* Work already queued may use the range: it finishes first. */
	for (m = cu_vmm_maps; m && res == CUDA_SUCCESS; m = m->next)
		if (m->va >= ptr && m->va < ptr + size &&
		    m->access != CU_MEM_ACCESS_FLAGS_PROT_NONE)
			cu_vmm_sync_device(m->alloc->dev);
	for (pp = &cu_vmm_maps; res == CUDA_SUCCESS && (m = *pp);) {
		if (m->va < ptr || m->va >= ptr + size) {
			pp = &m->next;
			continue;
		}
		*pp = m->next;
		cu_vmm_apply(m, CU_MEM_ACCESS_FLAGS_PROT_NONE);
		m->alloc->map_refs--;
		cu_vmm_alloc_maybe_free(m->alloc);
		free(m);
	}
	pthread_mutex_unlock(&cu_vmm_lock);
	cu_host_publish_end();
	return res;
}
