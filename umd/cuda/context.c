// SPDX-License-Identifier: GPL-2.0
/*
 * context.c - CUDA contexts: created, primary, destroyed; sticky errors.
 *
 * A CUDA context is one vGPU context (its own GPU address space), plus
 * what the library keeps per context: a "sync page" of pinned memory that
 * the queues write their progress into (so that one queue can wait for
 * another with a WAIT_MEM packet) and events their timestamps into, the
 * legacy default stream, the printf FIFO and the bounce buffers of
 * pageable copies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "vgpu_counters.h"
#include "handles.h"

static pthread_mutex_t cu_ctx_id_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long cu_ctx_next_id = 1;

/*
 * The first device fault of the process (atomic; CUDA_SUCCESS until one).
 * A fault - an illegal address, a trap, a failed assert, a timeout -
 * leaves the whole process unable to use the device, as NVIDIA documents
 * ("the process must be terminated and relaunched").  Measured on an H100
 * with CUDA 13: after a fault, work in every other context of the process,
 * a new cuCtxCreate, and the first retain after cuDevicePrimaryCtxReset
 * all return the fault's error.  A lost device (the firmware died) is not
 * such a fault: vGPU's firmware can be restarted, and a new context then
 * works (Documentation/umd-driver-api.rst, "Sticky errors").
 */
static CUresult cu_process_fault = CUDA_SUCCESS;

static CUresult cu_process_fault_get(void)
{
	return __atomic_load_n(&cu_process_fault, __ATOMIC_ACQUIRE);
}

#define CU_CTX_FLAGS_ALL	(CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | \
				 CU_CTX_LMEM_RESIZE_TO_MAX | \
				 CU_CTX_COREDUMP_ENABLE | \
				 CU_CTX_USER_COREDUMP_ENABLE | \
				 CU_CTX_SYNC_MEMOPS)

static void cu_ctx_defaults(struct cu_ctx *ctx)
{
	ctx->limits[CU_LIMIT_STACK_SIZE] = 1024;
	ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE] = CU_PRINTF_FIFO_DEFAULT;
	ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE] = 8u << 20;
	/* what an H100 answers (tools/cuda-probe/golden/probe_cdp.h100.txt):
	 * CUDA 12+ has no device-side synchronisation to limit */
	ctx->limits[CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH] = 2048;
	ctx->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048;
	ctx->limits[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 32;
	ctx->limits[CU_LIMIT_PERSISTING_L2_CACHE_SIZE] =
		VGPU_L2_PERSIST_DEFAULT;
}

/*
 * The driver refuses a context for the device's compute mode (vgpu.h,
 * struct vgpu_ctx_create) with errnos of its own; CUDA documents the
 * answers (cuda.h; nvidia-smi -c cannot be run on the H100 we measure
 * on): in PROHIBITED, cuCtxCreate and cuDevicePrimaryCtxRetain "fail with
 * CUDA_ERROR_UNKNOWN"; in EXCLUSIVE_PROCESS taken by another process the
 * device is unavailable, CUDA_ERROR_DEVICE_UNAVAILABLE.  The runtime
 * makes both cudaErrorDevicesUnavailable (rt_primary_context()).
 */
static CUresult cu_from_ctx_create_errno(int err)
{
	switch (err) {
	case -EACCES:	/* VGPU_COMPUTE_MODE_PROHIBITED */
		return CUDA_ERROR_UNKNOWN;
	case -EBUSY:	/* VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS, taken */
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	default:
		return cu_from_errno(err);
	}
}

CUresult cu_ctx_new(struct cu_device *dev, unsigned int flags, bool primary,
		    struct cu_ctx **out)
{
	struct cu_ctx *ctx;
	CUresult res;
	void *sync;
	int ret;

	*out = NULL;
	res = cu_process_fault_get();
	if (res != CUDA_SUCCESS)
		return res;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ctx->magic = CU_CTX_MAGIC;
	ctx->dev = dev;
	ctx->flags = flags;
	ctx->is_primary = primary;
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_mutex_init(&ctx->stage_lock, NULL);
	pthread_mutex_init(&ctx->printf_lock, NULL);
	cu_host_func_init(ctx);
	cu_ctx_defaults(ctx);
	pthread_mutex_lock(&cu_ctx_id_lock);
	ctx->id = cu_ctx_next_id++;
	pthread_mutex_unlock(&cu_ctx_id_lock);

	ret = vgpu_ctx_create(dev->vdev, &ctx->vctx, NULL);
	if (ret) {
		free(ctx);
		return cu_from_ctx_create_errno(ret);
	}
	res = cu_mem_internal_host(ctx, CU_SYNC_PAGE_SIZE, &ctx->sync_handle,
				   &sync);
	if (res != CUDA_SUCCESS)
		goto fail_ctx;
	ctx->sync = sync;
	res = cu_printf_init(ctx, ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE]);
	if (res != CUDA_SUCCESS)
		goto fail_sync;
	res = cu_stream_init(ctx, &ctx->null_stream, 0, 0, true);
	if (res != CUDA_SUCCESS)
		goto fail_printf;
	/* Map the published host memory and join the device's list as one
	 * step: memory published meanwhile would reach neither. */
	cu_host_publish_begin();
	res = cu_mem_map_host_into(ctx);
	if (res == CUDA_SUCCESS)
		res = cu_vmm_map_into(ctx);
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(ctx, CU_HANDLE_CTX);
	if (res == CUDA_SUCCESS) {
		pthread_mutex_lock(&dev->lock);
		ctx->next = dev->contexts;
		dev->contexts = ctx;
		pthread_mutex_unlock(&dev->lock);
	}
	cu_host_publish_end();
	if (res != CUDA_SUCCESS)
		goto fail_stream;
	*out = ctx;
	return CUDA_SUCCESS;

fail_stream:
	cu_stream_fini(&ctx->null_stream);
fail_printf:
	cu_printf_fini(ctx);
fail_sync:
	cu_mem_internal_free(ctx, ctx->sync_handle, sync, CU_SYNC_PAGE_SIZE);
fail_ctx:
	vgpu_ctx_destroy(dev->vdev, ctx->vctx);
	free(ctx);
	return res;
}

/* Tear down everything of @ctx.  It is no longer in the handle set. */
void cu_ctx_free(struct cu_ctx *ctx)
{
	struct cu_device *dev = ctx->dev;
	struct cu_ctx **pp;
	unsigned int i;

	cu_export_ctx_gone(ctx);	/* the runtime's state in it first */
	cu_ctx_sync(ctx);	/* a dead context returns at once */
	/* Its host functions ran (or were dropped): stop their thread. */
	cu_host_func_fini(ctx);
	pthread_mutex_lock(&dev->lock);
	for (pp = &dev->contexts; *pp; pp = &(*pp)->next) {
		if (*pp == ctx) {
			*pp = ctx->next;
			break;
		}
	}
	pthread_mutex_unlock(&dev->lock);

	while (ctx->modules) {
		struct cu_module *m = ctx->modules;

		ctx->modules = m->next;
		cu_module_free(m);
	}
	while (ctx->streams) {
		struct cu_stream *s = ctx->streams;

		cu_capture_stream_release(s);	/* ends its capture, if any */
		ctx->streams = s->next;
		cu_handle_remove(s, CU_HANDLE_STREAM);
		cu_stream_fini(s);
		free(s);
	}
	cu_stream_fini(&ctx->null_stream);
	for (i = 0; i < ctx->num_queues; i++) {
		vgpu_queue_destroy(ctx->queues[i].vq);
		pthread_mutex_destroy(&ctx->queues[i].lock);
	}
	cu_peer_ctx_gone(ctx);	/* before its memory and address space go */
	cu_mem_free_ctx(ctx);
	if (ctx->stage)
		cu_mem_internal_free(ctx, ctx->stage_handle, ctx->stage,
				     (size_t)CU_STAGE_BUFFERS * CU_STAGE_SIZE);
	cu_printf_fini(ctx);
	cu_prof_ctx_fini(ctx);
	cu_mem_internal_free(ctx, ctx->sync_handle, (void *)ctx->sync,
			     CU_SYNC_PAGE_SIZE);
	vgpu_ctx_destroy(dev->vdev, ctx->vctx);
	pthread_mutex_destroy(&ctx->lock);
	pthread_mutex_destroy(&ctx->stage_lock);
	pthread_mutex_destroy(&ctx->printf_lock);
	ctx->magic = CU_DEAD_MAGIC;
	free(ctx);
}

/*
 * The sticky error: once the driver stopped the context (a fault, the
 * execution limit, a hung engine, the firmware gone), every call in it fails the same way, and
 * after a fault every call in every context of the process does.
 * Reading the fence pages' error words costs no system call; only a
 * stopped queue makes us ask the driver why.
 */
CUresult cu_ctx_check(struct cu_ctx *ctx)
{
	struct vgpu_ctx_status st;
	CUresult res;
	unsigned int i;
	bool dead = false;

	res = __atomic_load_n(&ctx->sticky, __ATOMIC_ACQUIRE);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_process_fault_get();
	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < ctx->num_queues && !dead; i++)
		dead = vgpu_queue_error(ctx->queues[i].vq) != 0;
	pthread_mutex_unlock(&ctx->lock);
	if (!dead)
		return CUDA_SUCCESS;
	if (vgpu_ctx_status(ctx->dev->vdev, ctx->vctx, &st))
		res = CUDA_ERROR_DEVICE_UNAVAILABLE;
	else if (!(st.state & (VGPU_CTX_STATE_FAULTED | VGPU_CTX_STATE_GUILTY |
			       VGPU_CTX_STATE_LOST)))
		res = CUDA_ERROR_LAUNCH_FAILED;
	else
		res = cu_from_fault(&st);
	/* The thread that makes the error sticky reports the fault, once. */
	if (__atomic_compare_exchange_n(&ctx->sticky, &(CUresult){ CUDA_SUCCESS },
					res, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		cu_report_fault(&st, cu_printf_flush_stopped(ctx));
	res = __atomic_load_n(&ctx->sticky, __ATOMIC_ACQUIRE);
	if (res != CUDA_ERROR_DEVICE_UNAVAILABLE)
		__atomic_compare_exchange_n(&cu_process_fault,
					    &(CUresult){ CUDA_SUCCESS }, res,
					    false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
	return res;
}

CUresult cu_ctx_sync(struct cu_ctx *ctx)
{
	struct cu_point pts[CU_MAX_QUEUES + 1];
	struct cu_stream *s;
	unsigned int n = 0, i;
	CUresult res, first = CUDA_SUCCESS;

	/* Each stream's last operation implies all its earlier ones. */
	pthread_mutex_lock(&ctx->lock);
	pts[n++] = ctx->null_stream.last;
	for (s = ctx->streams; s && n < CU_MAX_QUEUES + 1; s = s->next)
		pts[n++] = s->last;
	pthread_mutex_unlock(&ctx->lock);
	for (i = 0; i < n; i++) {
		res = cu_point_wait(ctx, &pts[i]);
		if (first == CUDA_SUCCESS)
			first = res;
	}
	cu_printf_flush(ctx);
	if (first == CUDA_SUCCESS)
		cu_pool_synced(ctx, NULL, NULL);
	return first;
}

/* ---- created contexts ---------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuCtxCreate(CUcontext *pctx,
				       CUctxCreateParams *params,
				       unsigned int flags, CUdevice dev)
{
	CUresult res = cu_initialized();
	struct cu_device *d;
	struct cu_ctx *ctx;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx || (flags & ~CU_CTX_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	if (params && (params->execAffinityParams || params->cigParams))
		return CUDA_ERROR_NOT_SUPPORTED;
	d = cu_device_get(dev);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	res = cu_ctx_new(d, flags | CU_CTX_MAP_HOST, false, &ctx);
	if (res != CUDA_SUCCESS)
		return res;
	res = cuCtxPushCurrent((CUcontext)ctx);
	if (res != CUDA_SUCCESS) {
		cu_handle_remove(ctx, CU_HANDLE_CTX);
		cu_ctx_free(ctx);
		return res;
	}
	*pctx = (CUcontext)ctx;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxDestroy(CUcontext h)
{
	struct cu_ctx *ctx = (struct cu_ctx *)h;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	/* Not from a host function: its thread cannot wait for itself. */
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx || !cu_ctx_valid(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (ctx->is_primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!cu_handle_remove(ctx, CU_HANDLE_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	cu_ctx_forget(ctx);
	cu_ctx_free(ctx);
	return CUDA_SUCCESS;
}

/* ---- primary contexts ---------------------------------------------------- */

static CUresult cu_primary_device(CUdevice dev, struct cu_device **out)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	/* Device calls are refused inside host functions (host_func.c). */
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	*out = cu_device_get(dev);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx,
						    CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_primary_device(dev, &d);
	struct cu_ctx *ctx;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&d->lock);
	if (!d->primary) {
		/* cu_ctx_new takes d->lock to link the context: drop it. */
		pthread_mutex_unlock(&d->lock);
		res = cu_ctx_new(d, d->primary_flags | CU_CTX_MAP_HOST, true,
				 &ctx);
		pthread_mutex_lock(&d->lock);
		if (res == CUDA_SUCCESS && d->primary) {
			/* Another thread won the race: keep its context. */
			pthread_mutex_unlock(&d->lock);
			cu_handle_remove(ctx, CU_HANDLE_CTX);
			cu_ctx_free(ctx);
			pthread_mutex_lock(&d->lock);
		} else if (res == CUDA_SUCCESS) {
			d->primary = ctx;
		}
	}
	if (d->primary) {
		d->primary_refs++;
		*pctx = (CUcontext)d->primary;
		res = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&d->lock);
	return res;
}

/* Detach the primary context from @d and destroy it. */
static void cu_primary_destroy(struct cu_device *d)
{
	struct cu_ctx *ctx;

	pthread_mutex_lock(&d->lock);
	ctx = d->primary;
	d->primary = NULL;
	d->primary_refs = 0;
	pthread_mutex_unlock(&d->lock);
	if (ctx && cu_handle_remove(ctx, CU_HANDLE_CTX)) {
		cu_ctx_forget(ctx);
		cu_ctx_free(ctx);
	}
}

CU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_primary_device(dev, &d);
	bool last;

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&d->lock);
	if (!d->primary || !d->primary_refs) {
		pthread_mutex_unlock(&d->lock);
		return CUDA_ERROR_INVALID_CONTEXT;
	}
	last = --d->primary_refs == 0;
	pthread_mutex_unlock(&d->lock);
	if (last)
		cu_primary_destroy(d);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_primary_device(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * Everything of the context goes.  The next retain creates a fresh
	 * context - unless the process saw a device fault, which no reset
	 * clears (cu_process_fault): then the retain returns that error.
	 */
	cu_primary_destroy(d);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev,
						      unsigned int flags)
{
	struct cu_device *d;
	CUresult res = cu_primary_device(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags & ~CU_CTX_FLAGS_ALL)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&d->lock);
	d->primary_flags = flags;
	/* Waiters read the policy without the lock (queue.c). */
	if (d->primary)
		__atomic_store_n(&d->primary->flags, flags | CU_CTX_MAP_HOST,
				 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&d->lock);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev,
						      unsigned int *flags,
						      int *active)
{
	struct cu_device *d;
	CUresult res = cu_primary_device(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&d->lock);
	*flags = d->primary_flags;
	*active = d->primary != NULL;
	pthread_mutex_unlock(&d->lock);
	return CUDA_SUCCESS;
}

/* ---- queries on the current context ------------------------------------- */

/* The current context, valid, sticky errors not considered. */
static CUresult cu_ctx_plain(struct cu_ctx **out)
{
	CUresult res = cu_ctx_get(out);

	if (res != CUDA_SUCCESS && *out)
		return CUDA_SUCCESS;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuCtxSynchronize(void)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_capture_forbid_ctx(ctx);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_ctx_sync(ctx);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_ctx_check(ctx);
}

CU_EXPORT CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	*device = (CUdevice)ctx->dev->ordinal;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	*flags = ctx->flags;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxSetFlags(unsigned int flags)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags & ~CU_CTX_FLAGS_ALL)
		return CUDA_ERROR_INVALID_VALUE;
	ctx->flags = flags | CU_CTX_MAP_HOST;
	return CUDA_SUCCESS;
}

/* @h, or the current context when @h is NULL. */
static CUresult cu_ctx_named(CUcontext h, struct cu_ctx **out)
{
	*out = (struct cu_ctx *)h;
	if (!h)
		return cu_ctx_plain(out);
	return cu_ctx_valid(*out) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* The CUDA 12.5 forms naming the context (NULL: the current one). */
CU_EXPORT CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext hctx)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_named(hctx, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_capture_forbid_ctx(ctx);
	if (res == CUDA_SUCCESS)
		res = cu_ctx_sync(ctx);
	if (res == CUDA_SUCCESS)
		res = cu_ctx_check(ctx);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext hctx)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_named(hctx, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	*device = (CUdevice)ctx->dev->ordinal;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetId(CUcontext h, unsigned long long *id)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_named(h, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	*id = ctx->id;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetApiVersion(CUcontext h, unsigned int *v)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_named(h, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	*v = 3020;	/* every context since CUDA 3.2 reports this */
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetLimit(size_t *value, CUlimit limit)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!value || (unsigned int)limit >= CU_LIMIT_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	*value = ctx->limits[limit];
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	switch (limit) {
	case CU_LIMIT_PRINTF_FIFO_SIZE:
		/*
		 * An H100 refuses a change once a kernel that prints has
		 * run, and makes a smaller FIFO its least size.
		 */
		if (__atomic_load_n(&ctx->printf_launched, __ATOMIC_RELAXED))
			return CUDA_ERROR_INVALID_VALUE;
		if (value < CU_PRINTF_FIFO_MIN)
			value = CU_PRINTF_FIFO_MIN;
		res = cu_ctx_sync(ctx);
		if (res != CUDA_SUCCESS)
			return res;
		cu_printf_fini(ctx);
		res = cu_printf_init(ctx, value);
		if (res != CUDA_SUCCESS) {
			cu_printf_init(ctx, ctx->limits[limit]);
			return res;
		}
		break;
	case CU_LIMIT_STACK_SIZE:
		if (value > (512u << 10))
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_LIMIT_MALLOC_HEAP_SIZE:
		/* fixed once a kernel that can call malloc has launched */
		if (cu_heap_in_use(ctx))
			return CUDA_ERROR_INVALID_VALUE;
		/* an H100 makes a smaller heap 4 MiB (probe_heap.h100.txt) */
		if (value < (4u << 20))
			value = 4u << 20;
		break;
	case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
		/* refused by CUDA 12+, which has no device-side sync */
		return CUDA_ERROR_UNSUPPORTED_LIMIT;
	case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
		/* an H100 raises a smaller count to 32 (probe_cdp.h100.txt) */
		if (value < 32)
			value = 32;
		break;
	case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
		break;
	case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
		/* sixteenths of the L2, rounded up, as an H100 keeps it */
		if (value > VGPU_L2_PERSIST_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		value = (value + VGPU_L2_PERSIST_UNIT - 1) /
			VGPU_L2_PERSIST_UNIT * VGPU_L2_PERSIST_UNIT;
		break;
	default:
		return CUDA_ERROR_UNSUPPORTED_LIMIT;
	}
	ctx->limits[limit] = value;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *config)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	*config = CU_FUNC_CACHE_PREFER_NONE;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Shared memory and L1 are not split on this device: accept, ignore. */
	if ((unsigned int)config > CU_FUNC_CACHE_PREFER_EQUAL)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *least,
						       int *greatest)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_plain(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Measured on an H100: least 0, greatest -5. */
	if (least)
		*least = 0;
	if (greatest)
		*greatest = -5;
	return CUDA_SUCCESS;
}

/*
 * The CUDA 3.x name, which binaries that look the driver up by name
 * (dlsym, as NVIDIA's matrixMulDynlinkJIT does) still ask for.
 */
#undef cuCtxDestroy
CU_EXPORT CUresult CUDAAPI cuCtxDestroy(CUcontext h);
CU_EXPORT CUresult CUDAAPI cuCtxDestroy(CUcontext h)
{
	return cuCtxDestroy_v2(h);
}
