// SPDX-License-Identifier: GPL-2.0
/*
 * mem_pool.c - memory pools (CUmemoryPool): creation, attributes, access,
 * trimming, and each device's default and current pool.
 *
 * A pool is a set of VRAM chunks from which cuMemAllocAsync and
 * cuMemAllocFromPoolAsync cut blocks (mem_pool_alloc.c).  Every device
 * has a default pool, made on first use, which cannot be destroyed; its
 * current pool - the one cuMemAllocAsync uses - is the default until
 * cuDeviceSetMemPool names another.  The answers to bad calls are those
 * an H100 gave (tools/cuda-probe/golden/probe_pools.h100.txt).
 *
 * A pool made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR can be shared
 * with other processes (mem_pool_ipc.c); other handle types are not
 * supported.
 */
#include <stdlib.h>
#include <string.h>

#include "handles.h"
#include "mem_pool.h"

pthread_mutex_t cu_pool_lock = PTHREAD_MUTEX_INITIALIZER;

/* Every pool (destroyed ones too, until their memory is back). */
static struct cu_mem_pool *cu_pools;

/* Indexed by device ordinal; NULL until first asked for. */
#define CU_POOL_MAX_DEVICES	64
static struct cu_mem_pool *cu_default_pool[CU_POOL_MAX_DEVICES];
static struct cu_mem_pool *cu_current_pool[CU_POOL_MAX_DEVICES];

struct cu_mem_pool *cu_pool_all(void)
{
	return cu_pools;
}

struct cu_mem_pool *cu_pool_lookup(CUmemoryPool h)
{
	struct cu_mem_pool *p = (struct cu_mem_pool *)h;

	if (!p || !cu_handle_valid(p, CU_HANDLE_MEMPOOL) ||
	    p->magic != CU_POOL_MAGIC || p->destroyed)
		return NULL;
	return p;
}

struct cu_mem_pool *cu_pool_new(struct cu_device *d,
				const CUmemPoolProps *props, bool is_default)
{
	static uint64_t next_ipc_id = 1;
	struct cu_mem_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (props->handleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		p->ipc_id = next_ipc_id++;
	p->magic = CU_POOL_MAGIC;
	p->dev = d;
	p->props = *props;
	p->is_default = is_default;
	/* Defaults as measured: every reuse policy on, threshold 0. */
	p->reuse_follow_events = 1;
	p->reuse_opportunistic = 1;
	p->reuse_internal_deps = 1;
	if (cu_handle_add(p, CU_HANDLE_MEMPOOL) != CUDA_SUCCESS) {
		free(p);
		return NULL;
	}
	p->next = cu_pools;
	cu_pools = p;
	return p;
}

void cu_pool_reap(struct cu_mem_pool *p)
{
	struct cu_mem_pool **pp;

	if (!p->destroyed || p->chunks)
		return;
	for (pp = &cu_pools; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	p->magic = CU_DEAD_MAGIC;
	free(p);
}

/* The default pool of @d (cu_pool_lock held). */
static struct cu_mem_pool *cu_pool_default(struct cu_device *d)
{
	CUmemPoolProps props;

	if (d->ordinal >= CU_POOL_MAX_DEVICES)
		return NULL;
	if (!cu_default_pool[d->ordinal]) {
		memset(&props, 0, sizeof(props));
		props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		props.location.id = (int)d->ordinal;
		cu_default_pool[d->ordinal] = cu_pool_new(d, &props, true);
	}
	return cu_default_pool[d->ordinal];
}

CUresult cu_pool_current(struct cu_device *d, struct cu_mem_pool **out)
{
	struct cu_mem_pool *p;

	pthread_mutex_lock(&cu_pool_lock);
	p = d->ordinal < CU_POOL_MAX_DEVICES ? cu_current_pool[d->ordinal] :
	    NULL;
	if (!p)
		p = cu_pool_default(d);
	pthread_mutex_unlock(&cu_pool_lock);
	*out = p;
	return p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* The handle types and usages cuda.h defines, and the one vGPU has. */
#define CU_POOL_HANDLE_POSIX	\
	((unsigned int)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
#define CU_POOL_HANDLE_TYPES	(CU_POOL_HANDLE_POSIX |			\
				 CU_MEM_HANDLE_TYPE_WIN32 |		\
				 CU_MEM_HANDLE_TYPE_WIN32_KMT |		\
				 CU_MEM_HANDLE_TYPE_FABRIC)
#define CU_POOL_USAGES		\
	((unsigned int)CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS)

/* Properties CUDA accepts (measured: each bad field is INVALID_VALUE). */
static CUresult cu_pool_props_check(const CUmemPoolProps *props)
{
	unsigned int i;

	if (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    props->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    !cu_device_get(props->location.id) ||
	    props->win32SecurityAttributes)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < sizeof(props->reserved); i++)
		if (props->reserved[i])
			return CUDA_ERROR_INVALID_VALUE;
	if ((props->usage & ~CU_POOL_USAGES) ||
	    (props->handleTypes & ~CU_POOL_HANDLE_TYPES))
		return CUDA_ERROR_INVALID_VALUE;
	/* Shared by file descriptor only; no decompression engine. */
	if ((props->handleTypes & ~CU_POOL_HANDLE_POSIX) || props->usage)
		return CUDA_ERROR_NOT_SUPPORTED;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool,
					   const CUmemPoolProps *poolProps)
{
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool || !poolProps)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_pool_props_check(poolProps);
	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_new(cu_device_get(poolProps->location.id), poolProps,
			false);
	pthread_mutex_unlock(&cu_pool_lock);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pool = (CUmemoryPool)p;
	return CUDA_SUCCESS;
}

/*
 * Destroying a pool whose memory is still out succeeds; the memory stays
 * usable and goes back to the device once freed (CUDA documents this).
 */
CU_EXPORT CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool)
{
	struct cu_mem_pool *p;
	unsigned int o;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (!p || p->is_default) {
		pthread_mutex_unlock(&cu_pool_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	cu_handle_remove(p, CU_HANDLE_MEMPOOL);
	p->destroyed = true;
	o = p->dev->ordinal;
	if (o < CU_POOL_MAX_DEVICES && cu_current_pool[o] == p)
		cu_current_pool[o] = NULL;
	cu_pool_release(p, 0);
	cu_pool_reap(p);
	pthread_mutex_unlock(&cu_pool_lock);
	return CUDA_SUCCESS;
}

static bool cu_pool_attr_is_int(CUmemPool_attribute attr)
{
	return attr == CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES ||
	       attr == CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC ||
	       attr == CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
}

/* The int attribute's field, or NULL. */
static int *cu_pool_int_attr(struct cu_mem_pool *p, CUmemPool_attribute attr)
{
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		return &p->reuse_follow_events;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		return &p->reuse_opportunistic;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		return &p->reuse_internal_deps;
	default:
		return NULL;
	}
}

CU_EXPORT CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool,
						 CUmemPool_attribute attr,
						 void *value)
{
	struct cu_mem_pool *p;
	cuuint64_t v = 0;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (!p) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else if (cu_pool_attr_is_int(attr)) {
		/* Any nonzero value reads back as 1 (measured). */
		*cu_pool_int_attr(p, attr) = *(const int *)value != 0;
	} else {
		/*
		 * Only the 64-bit attributes below read 8 bytes: an unknown
		 * attribute's value may be an int (reading 8 would overrun it).
		 */
		if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD ||
		    attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH ||
		    attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH)
			memcpy(&v, value, sizeof(v));
		switch (attr) {
		case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
			p->release_threshold = v;
			break;
		/* The high watermarks can only be reset, to the current. */
		case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
			if (v)
				res = CUDA_ERROR_INVALID_VALUE;
			else
				p->reserved_high = p->reserved;
			break;
		case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
			if (v)
				res = CUDA_ERROR_INVALID_VALUE;
			else
				p->used_high = p->used;
			break;
		default:	/* the current values, or no attribute */
			res = CUDA_ERROR_INVALID_VALUE;
		}
	}
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool,
						 CUmemPool_attribute attr,
						 void *value)
{
	struct cu_mem_pool *p;
	cuuint64_t v;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (!p) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else if (cu_pool_attr_is_int(attr)) {
		*(int *)value = *cu_pool_int_attr(p, attr);
	} else {
		switch (attr) {
		case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
			v = p->release_threshold;
			break;
		case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
			v = p->reserved;
			break;
		case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
			v = p->reserved_high;
			break;
		case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
			v = p->used;
			break;
		case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
			v = p->used_high;
			break;
		default:
			res = CUDA_ERROR_INVALID_VALUE;
		}
		if (res == CUDA_SUCCESS)
			memcpy(value, &v, sizeof(v));
	}
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool,
					   size_t minBytesToKeep)
{
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (p)
		cu_pool_release(p, minBytesToKeep);
	pthread_mutex_unlock(&cu_pool_lock);
	return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/*
 * Access: the pool's own device always reads and writes it; other devices
 * would need peer access, which vGPU devices do not have.  The answers
 * are the H100's: no access or read-only for the own device, a device
 * that does not exist, the host, each refused with its own code.
 */
static CUresult cu_pool_access_check(const struct cu_mem_pool *p,
				     const CUmemAccessDesc *d)
{
	if ((unsigned int)d->flags > CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
		return CUDA_ERROR_INVALID_VALUE;
	if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (!cu_device_get(d->location.id))
		return CUDA_ERROR_INVALID_DEVICE;
	if ((unsigned int)d->location.id == p->dev->ordinal) {
		if (d->flags == CU_MEM_ACCESS_FLAGS_PROT_NONE)
			return CUDA_ERROR_INVALID_DEVICE;
		if (d->flags == CU_MEM_ACCESS_FLAGS_PROT_READ)
			return CUDA_ERROR_NOT_SUPPORTED;
		return CUDA_SUCCESS;
	}
	/* Another device: reachable only by peer access, which is absent. */
	return d->flags == CU_MEM_ACCESS_FLAGS_PROT_NONE ?
	       CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool,
					      const CUmemAccessDesc *map,
					      size_t count)
{
	struct cu_mem_pool *p;
	size_t i;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!map && count)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (!p)
		res = CUDA_ERROR_INVALID_VALUE;
	for (i = 0; p && i < count && res == CUDA_SUCCESS; i++)
		res = cu_pool_access_check(p, &map[i]);
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags,
					      CUmemoryPool memPool,
					      CUmemLocation *location)
{
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags || !location)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(memPool);
	if (!p) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else if (location->type == CU_MEM_LOCATION_TYPE_HOST) {
		*flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;	/* measured */
	} else if (location->type != CU_MEM_LOCATION_TYPE_DEVICE ||
		   !cu_device_get(location->id)) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		*flags = (unsigned int)location->id == p->dev->ordinal ?
			 CU_MEM_ACCESS_FLAGS_PROT_READWRITE :
			 CU_MEM_ACCESS_FLAGS_PROT_NONE;
	}
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out,
						     CUdevice dev)
{
	struct cu_device *d;
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool_out)
		return CUDA_ERROR_INVALID_VALUE;
	d = cu_device_get(dev);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_default(d);
	pthread_mutex_unlock(&cu_pool_lock);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pool_out = (CUmemoryPool)p;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool,
					      CUdevice dev)
{
	struct cu_device *d;
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	d = cu_device_get(dev);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	res = cu_pool_current(d, &p);
	if (res == CUDA_SUCCESS)
		*pool = (CUmemoryPool)p;
	return res;
}

/* Measured: a bad device here is INVALID_VALUE, not INVALID_DEVICE. */
CU_EXPORT CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	struct cu_device *d;
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	d = cu_device_get(dev);
	if (!d || d->ordinal >= CU_POOL_MAX_DEVICES)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (!p || p->dev != d || p->imported)
		res = CUDA_ERROR_INVALID_VALUE;
	else
		cu_current_pool[d->ordinal] = p;
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}
