// SPDX-License-Identifier: GPL-2.0
/*
 * va_space.c - GPU virtual addresses for device memory.
 *
 * Unified addressing: a device pointer must never equal a host pointer of
 * the process, because pinned host memory is mapped on the GPU at its
 * host address and because cuMemcpy(..., CU_MEMCPY_DEFAULT) tells the
 * direction from the pointers alone.  So device memory gets its GPU
 * virtual addresses from a range reserved in the process's own address
 * space (PROT_NONE, no backing): the kernel will never hand those
 * addresses to a host allocation, and touching a device pointer on the
 * CPU faults instead of corrupting memory - as with NVIDIA's driver.
 *
 * The range is carved with first fit over a sorted list of free extents,
 * in 64 KiB granules (the VRAM page size).
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "cuda_internal.h"

#define CU_VA_RESERVE	(256ull << 30)
#define CU_VA_GRANULE	VGPU_BIG_PAGE_SIZE

struct cu_va_extent {
	uint64_t start;
	uint64_t size;
	struct cu_va_extent *next;
};

static pthread_mutex_t cu_va_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_va_extent *cu_va_free_list;
static uint64_t cu_va_base, cu_va_end;

CUresult cu_va_init(void)
{
	struct cu_va_extent *e;
	void *p;

	p = mmap(NULL, CU_VA_RESERVE + CU_VA_GRANULE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e = malloc(sizeof(*e));
	if (!e) {
		munmap(p, CU_VA_RESERVE + CU_VA_GRANULE);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cu_va_base = cu_align_up((uintptr_t)p, CU_VA_GRANULE);
	cu_va_end = cu_va_base + CU_VA_RESERVE;
	e->start = cu_va_base;
	e->size = CU_VA_RESERVE;
	e->next = NULL;
	cu_va_free_list = e;
	return CUDA_SUCCESS;
}

/* Returns a 64 KiB aligned GPU VA for @size bytes, or 0. */
uint64_t cu_va_alloc(uint64_t size)
{
	struct cu_va_extent **pp, *e;
	uint64_t va = 0;

	size = cu_align_up(size ? size : 1, CU_VA_GRANULE);
	pthread_mutex_lock(&cu_va_lock);
	for (pp = &cu_va_free_list; (e = *pp); pp = &e->next) {
		if (e->size < size)
			continue;
		va = e->start;
		e->start += size;
		e->size -= size;
		if (!e->size) {
			*pp = e->next;
			free(e);
		}
		break;
	}
	pthread_mutex_unlock(&cu_va_lock);
	return va;
}

void cu_va_free(uint64_t va, uint64_t size)
{
	struct cu_va_extent *prev = NULL, *e, *n;

	size = cu_align_up(size ? size : 1, CU_VA_GRANULE);
	if (va < cu_va_base || va + size > cu_va_end)
		return;
	pthread_mutex_lock(&cu_va_lock);
	for (e = cu_va_free_list; e && e->start < va; e = e->next)
		prev = e;
	/* Merge with the following extent, or insert a new one. */
	if (e && va + size == e->start) {
		e->start = va;
		e->size += size;
		n = e;
	} else {
		n = malloc(sizeof(*n));
		if (!n)		/* leak the range rather than corrupt the list */
			goto out;
		n->start = va;
		n->size = size;
		n->next = e;
		if (prev)
			prev->next = n;
		else
			cu_va_free_list = n;
	}
	/* Then with the previous one. */
	if (prev && prev->start + prev->size == n->start) {
		prev->size += n->size;
		prev->next = n->next;
		free(n);
	}
out:
	pthread_mutex_unlock(&cu_va_lock);
}

/* Whether @ptr lies in the reserved range (device memory or a hole in it). */
bool cu_va_contains(uint64_t ptr)
{
	return ptr >= cu_va_base && ptr < cu_va_end;
}

/*
 * Take [@va, @va + @size) out of the free list if all of it is free
 * (cuMemAddressReserve with a wanted address); false if any is in use.
 */
bool cu_va_take(uint64_t va, uint64_t size)
{
	struct cu_va_extent **pp, *e, *tail;
	bool ok = false;

	if (!size || va % CU_VA_GRANULE || size % CU_VA_GRANULE ||
	    va < cu_va_base || va + size > cu_va_end || va + size < va)
		return false;
	pthread_mutex_lock(&cu_va_lock);
	for (pp = &cu_va_free_list; (e = *pp); pp = &e->next) {
		if (e->start > va || e->start + e->size < va + size)
			continue;
		/* Split @e into the part before and the part after. */
		if (e->start + e->size > va + size) {
			tail = malloc(sizeof(*tail));
			if (!tail)
				break;
			tail->start = va + size;
			tail->size = e->start + e->size - (va + size);
			tail->next = e->next;
			e->next = tail;
		}
		e->size = va - e->start;
		if (!e->size) {
			*pp = e->next;
			free(e);
		}
		ok = true;
		break;
	}
	pthread_mutex_unlock(&cu_va_lock);
	return ok;
}
