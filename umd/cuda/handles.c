// SPDX-License-Identifier: GPL-2.0
/*
 * handles.c - which handles are alive.
 *
 * An application may pass a handle it already destroyed (cuEventDestroy
 * twice is a classic).  Dereferencing it would be a use-after-free, so
 * every handle the library gives out is entered here with its type, and
 * checked before use.  A small open-addressing hash set of pointers.
 */
#include <stdlib.h>

#include "cuda_internal.h"
#include "handles.h"

struct cu_handle_slot {
	const void *ptr;	/* NULL: empty; CU_HANDLE_TOMBSTONE: removed */
	enum cu_handle_type type;
};

#define CU_HANDLE_TOMBSTONE	((const void *)1)

static pthread_mutex_t cu_handle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_handle_slot *cu_handles;
static size_t cu_handle_cap, cu_handle_used;	/* used counts tombstones */

static size_t cu_handle_hash(const void *p)
{
	uint64_t v = (uintptr_t)p;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (size_t)v;
}

/* Slot of @p, or of the first free slot on its probe path. */
static struct cu_handle_slot *cu_handle_probe(struct cu_handle_slot *tab,
					      size_t cap, const void *p,
					      bool for_insert)
{
	size_t i = cu_handle_hash(p) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		if (tab[i].ptr == p)
			return &tab[i];
		if (!tab[i].ptr)
			return for_insert ? &tab[i] : NULL;
		if (for_insert && tab[i].ptr == CU_HANDLE_TOMBSTONE)
			return &tab[i];
	}
}

static int cu_handle_grow(void)
{
	size_t cap = cu_handle_cap ? cu_handle_cap * 2 : 256, i;
	struct cu_handle_slot *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -1;
	cu_handle_used = 0;
	for (i = 0; i < cu_handle_cap; i++) {
		const void *p = cu_handles[i].ptr;

		if (p && p != CU_HANDLE_TOMBSTONE) {
			*cu_handle_probe(tab, cap, p, true) = cu_handles[i];
			cu_handle_used++;
		}
	}
	free(cu_handles);
	cu_handles = tab;
	cu_handle_cap = cap;
	return 0;
}

CUresult cu_handle_add(const void *p, enum cu_handle_type type)
{
	struct cu_handle_slot *s;

	pthread_mutex_lock(&cu_handle_lock);
	if ((cu_handle_used + 1) * 2 > cu_handle_cap && cu_handle_grow()) {
		pthread_mutex_unlock(&cu_handle_lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	s = cu_handle_probe(cu_handles, cu_handle_cap, p, true);
	if (!s->ptr)
		cu_handle_used++;
	s->ptr = p;
	s->type = type;
	pthread_mutex_unlock(&cu_handle_lock);
	return CUDA_SUCCESS;
}

bool cu_handle_remove(const void *p, enum cu_handle_type type)
{
	struct cu_handle_slot *s = NULL;
	bool ok = false;

	pthread_mutex_lock(&cu_handle_lock);
	if (cu_handle_cap && p)
		s = cu_handle_probe(cu_handles, cu_handle_cap, p, false);
	if (s && s->type == type) {
		s->ptr = CU_HANDLE_TOMBSTONE;
		ok = true;
	}
	pthread_mutex_unlock(&cu_handle_lock);
	return ok;
}

bool cu_handle_valid(const void *p, enum cu_handle_type type)
{
	struct cu_handle_slot *s = NULL;
	bool ok;

	pthread_mutex_lock(&cu_handle_lock);
	if (cu_handle_cap && p)
		s = cu_handle_probe(cu_handles, cu_handle_cap, p, false);
	ok = s && s->type == type;
	pthread_mutex_unlock(&cu_handle_lock);
	return ok;
}
