// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - every allocation the process made through the driver API,
 * sorted by address.
 *
 * With unified addressing, a pointer alone says what it is: the
 * registry answers "which allocation contains this address?" for copies
 * (direction and DMA eligibility), cuPointerGetAttribute, cuMemFree and
 * cuMemHostUnregister.  Entries never overlap: device memory comes from
 * the reserved VA range, host memory from the process's own address space.
 * A sorted array with binary search keeps lookups O(log n).
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

static pthread_rwlock_t cu_reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct cu_mem *cu_reg;
static size_t cu_reg_count, cu_reg_cap;
static unsigned long long cu_reg_next_id = 1;

/* Index of the first entry whose end is above @ptr. */
static size_t cu_reg_search(uint64_t ptr)
{
	size_t lo = 0, hi = cu_reg_count;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cu_reg[mid].base + cu_reg[mid].size <= ptr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

CUresult cu_registry_add(const struct cu_mem *m)
{
	size_t i;

	pthread_rwlock_wrlock(&cu_reg_lock);
	if (cu_reg_count == cu_reg_cap) {
		size_t cap = cu_reg_cap ? cu_reg_cap * 2 : 64;
		struct cu_mem *n = realloc(cu_reg, cap * sizeof(*n));

		if (!n) {
			pthread_rwlock_unlock(&cu_reg_lock);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		cu_reg = n;
		cu_reg_cap = cap;
	}
	i = cu_reg_search(m->base);
	memmove(&cu_reg[i + 1], &cu_reg[i], (cu_reg_count - i) * sizeof(*m));
	cu_reg[i] = *m;
	cu_reg[i].id = cu_reg_next_id++;
	cu_reg_count++;
	pthread_rwlock_unlock(&cu_reg_lock);
	return CUDA_SUCCESS;
}

/* Entry @i contains @ptr?  Zero-sized allocations contain their base. */
static bool cu_reg_contains(size_t i, uint64_t ptr)
{
	return i < cu_reg_count && cu_reg[i].base <= ptr &&
	       (ptr < cu_reg[i].base + cu_reg[i].size ||
		ptr == cu_reg[i].base);
}

bool cu_registry_find(uint64_t ptr, struct cu_mem *out)
{
	bool found;
	size_t i;

	pthread_rwlock_rdlock(&cu_reg_lock);
	i = cu_reg_search(ptr);
	found = cu_reg_contains(i, ptr);
	if (found && out)
		*out = cu_reg[i];
	pthread_rwlock_unlock(&cu_reg_lock);
	return found;
}

bool cu_registry_remove(uint64_t base, enum cu_mem_kind kind,
			struct cu_mem *out)
{
	bool found;
	size_t i;

	pthread_rwlock_wrlock(&cu_reg_lock);
	i = cu_reg_search(base);
	found = cu_reg_contains(i, base) && cu_reg[i].base == base &&
		cu_reg[i].kind == kind;
	if (found) {
		if (out)
			*out = cu_reg[i];
		memmove(&cu_reg[i], &cu_reg[i + 1],
			(cu_reg_count - i - 1) * sizeof(*cu_reg));
		cu_reg_count--;
	}
	pthread_rwlock_unlock(&cu_reg_lock);
	return found;
}

bool cu_registry_overlaps_host(uint64_t ptr, uint64_t size)
{
	bool hit = false;
	size_t i;

	/*
	 * Host entries are compared by the pages they pin, which may reach
	 * outside what the user asked for; there are few of them, so a plain
	 * scan is enough.
	 */
	pthread_rwlock_rdlock(&cu_reg_lock);
	for (i = 0; i < cu_reg_count && !hit; i++) {
		const struct cu_mem *m = &cu_reg[i];

		hit = m->kind != CU_MEM_DEVICE && m->map_base < ptr + size &&
		      ptr < m->map_base + m->map_size;
	}
	pthread_rwlock_unlock(&cu_reg_lock);
	return hit;
}

void cu_registry_each(void (*fn)(const struct cu_mem *, void *), void *arg)
{
	size_t i;

	pthread_rwlock_rdlock(&cu_reg_lock);
	for (i = 0; i < cu_reg_count; i++)
		fn(&cu_reg[i], arg);
	pthread_rwlock_unlock(&cu_reg_lock);
}

bool cu_registry_take_ctx(struct cu_ctx *ctx, struct cu_mem *out)
{
	bool found = false;
	size_t i;

	pthread_rwlock_wrlock(&cu_reg_lock);
	for (i = 0; i < cu_reg_count; i++) {
		if (cu_reg[i].kind == CU_MEM_DEVICE && cu_reg[i].ctx == ctx) {
			*out = cu_reg[i];
			memmove(&cu_reg[i], &cu_reg[i + 1],
				(cu_reg_count - i - 1) * sizeof(*cu_reg));
			cu_reg_count--;
			found = true;
			break;
		}
	}
	pthread_rwlock_unlock(&cu_reg_lock);
	return found;
}

bool cu_registry_set_export(uint64_t base, int fd, int *current)
{
	bool set = false;
	size_t i;

	pthread_rwlock_wrlock(&cu_reg_lock);
	i = cu_reg_search(base);
	if (cu_reg_contains(i, base) && cu_reg[i].base == base) {
		if (cu_reg[i].export_fd < 0) {
			cu_reg[i].export_fd = fd;
			set = true;
		}
		*current = cu_reg[i].export_fd;
	} else {
		*current = -1;
	}
	pthread_rwlock_unlock(&cu_reg_lock);
	return set;
}

bool cu_registry_set_managed(uint64_t base)
{
	bool found;
	size_t i;

	pthread_rwlock_wrlock(&cu_reg_lock);
	i = cu_reg_search(base);
	found = cu_reg_contains(i, base) && cu_reg[i].base == base &&
		cu_reg[i].kind == CU_MEM_HOST;
	if (found)
		cu_reg[i].managed = true;
	pthread_rwlock_unlock(&cu_reg_lock);
	return found;
}
