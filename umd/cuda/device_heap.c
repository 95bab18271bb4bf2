// SPDX-License-Identifier: GPL-2.0
/*
 * device_heap.c - the context's device heap, for malloc()/free() in
 * kernels (Documentation/async-copies.rst, "The device heap").
 *
 * The heap is one VRAM allocation of the context, of the size of
 * CU_LIMIT_MALLOC_HEAP_SIZE (8 MiB by default, as on the H100).  It is
 * made when the context first launches a kernel that can call malloc or
 * free (VISA_KERNEL_USES_HEAP); from then on the limit is fixed and
 * cuCtxSetLimit answers CUDA_ERROR_INVALID_VALUE, as CUDA documents.
 * Each module whose code calls malloc/free carries a descriptor variable
 * (VISA_HEAP_SYMBOL, struct visa_heap_desc) that is filled with the
 * heap's address and size before that module's first such launch.  The
 * allocator itself runs in the firmware (firmware_sim/core/exec_heap.c);
 * its state lives in the heap, whose first bytes are zeroed here so that
 * the firmware formats it on first use.
 */
#include <pthread.h>
#include <string.h>

#include "cuda_internal.h"

/* Heap creation is rare: one lock for all contexts keeps it simple. */
static pthread_mutex_t cu_heap_lock = PTHREAD_MUTEX_INITIALIZER;

/* The context's heap, made on first use; called with cu_heap_lock held. */
static CUresult cu_heap_make(struct cu_ctx *ctx)
{
	static const uint8_t zero[64];
	size_t size = ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE];
	CUdeviceptr va = 0;
	CUresult res;

	if (ctx->heap_made)
		return CUDA_SUCCESS;
	size = cu_align_up(size, 16);
	/* smaller than the allocator's own headers: no heap, malloc fails */
	if (size >= 4096) {
		res = cu_mem_device_alloc(ctx, size, &va);
		if (res == CUDA_SUCCESS)
			res = cu_copy_from_host(ctx, va, zero, sizeof(zero));
		if (res != CUDA_SUCCESS) {
			if (va)
				cu_mem_device_free(ctx, va);
			return res;
		}
	}
	ctx->heap_va = va;
	ctx->heap_size = va ? size : 0;
	ctx->heap_made = true;
	return CUDA_SUCCESS;
}

CUresult cu_heap_prepare(struct cu_module *m)
{
	struct cu_ctx *ctx = m->ctx;
	struct visa_heap_desc desc;
	const struct visa_symbol *s;
	CUresult res;

	if (__atomic_load_n(&m->heap_ready, __ATOMIC_ACQUIRE))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_heap_lock);
	res = cu_heap_make(ctx);
	if (res != CUDA_SUCCESS || m->heap_ready)
		goto out;
	s = cu_visa_data_symbol(m->hdr, VISA_HEAP_SYMBOL);
	if (!s || s->space != VISA_SPACE_GLOBAL || s->size < sizeof(desc) ||
	    s->offset > m->hdr->global_size - sizeof(desc)) {
		res = CUDA_ERROR_INVALID_IMAGE;
		goto out;
	}
	desc.va = ctx->heap_va;
	desc.size = ctx->heap_size;
	if (m->global_managed) {
		memcpy((void *)(uintptr_t)(m->global_va + s->offset), &desc,
		       sizeof(desc));	/* host-visible */
	} else {
		res = cu_copy_from_host(ctx, m->global_va + s->offset, &desc,
					sizeof(desc));
		if (res != CUDA_SUCCESS)
			goto out;
	}
	__atomic_store_n(&m->heap_ready, true, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&cu_heap_lock);
	return res;
}

bool cu_heap_in_use(struct cu_ctx *ctx)
{
	bool made;

	pthread_mutex_lock(&cu_heap_lock);
	made = ctx->heap_made;
	pthread_mutex_unlock(&cu_heap_lock);
	return made;
}
