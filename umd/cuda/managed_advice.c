// SPDX-License-Identifier: GPL-2.0
/*
 * managed_advice.c - what a program advised, and where it last asked a
 * managed range to go: cuMemRangeGetAttribute(s).
 *
 * CUDA keeps advice per page and answers a query over a range with what
 * every page of it agrees on.  libcuda keeps it the same way: a table per
 * managed allocation, one entry per 4 KiB page (the host's page, the unit
 * in which the process maps the allocation), made on the first advice or
 * prefetch and freed with the allocation:
 *
 *     allocation  [ page 0 | page 1 | page 2 | page 3 | ... ]
 *     read-mostly    1        1        0        0
 *     preferred     dev 0    dev 0    -        host
 *     accessed-by   {0}      {0,cpu}  {}       {}
 *     last prefetch dev 0    dev 0    dev 0    -
 *
 *     query [page 0, page 1]:  READ_MOSTLY 1, PREFERRED_LOCATION 0,
 *                              ACCESSED_BY {0}, LAST_PREFETCH 0
 *     query [page 1, page 3]:  READ_MOSTLY 0, PREFERRED_LOCATION -2
 *                              (CU_DEVICE_INVALID: pages differ), ...
 *
 * The table records the advice; what each piece of advice does to where
 * the blocks live is managed_hints.c's and the driver's business.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#define ADVICE_PAGE	4096u
#define ACCESSED_CPU	(1u << 31)	/* accessed-by bit of the host */

/* A location as the page remembers it; type 0 (INVALID) when none. */
struct advice_loc {
	CUmemLocationType type;
	int id;
};

struct advice_page {
	bool read_mostly;
	struct advice_loc preferred;
	struct advice_loc prefetched;
	uint32_t accessed_by;	/* bit d: device d; ACCESSED_CPU: host */
};

/* The advice of one managed allocation (identified by base and id). */
struct advice_table {
	struct advice_table *next;
	uint64_t base;
	unsigned long long id;
	size_t npages;
	struct advice_page pages[];
};

static pthread_mutex_t advice_lock = PTHREAD_MUTEX_INITIALIZER;
static struct advice_table *advice_tables;

/* @m's table, or NULL; a stale one (same base, freed id) goes. */
static struct advice_table *advice_find(const struct cu_mem *m)
{
	struct advice_table **pp, *t;

	for (pp = &advice_tables; (t = *pp); pp = &t->next) {
		if (t->base != m->base)
			continue;
		if (t->id == m->id)
			return t;
		*pp = t->next;
		free(t);
		return NULL;
	}
	return NULL;
}

/* @m's table, made (no advice, never prefetched) when missing. */
static struct advice_table *advice_get(const struct cu_mem *m)
{
	struct advice_table *t = advice_find(m);
	size_t npages = (m->size + ADVICE_PAGE - 1) / ADVICE_PAGE;

	if (t)
		return t;
	t = calloc(1, sizeof(*t) + npages * sizeof(t->pages[0]));
	if (!t)
		return NULL;
	t->base = m->base;
	t->id = m->id;
	t->npages = npages;
	t->next = advice_tables;
	advice_tables = t;
	return t;
}

/* The pages [*first, *end) that [ptr, ptr + count) touches in @m. */
static void advice_pages(const struct cu_mem *m, CUdeviceptr ptr,
			 size_t count, size_t *first, size_t *end)
{
	*first = (ptr - m->base) / ADVICE_PAGE;
	*end = (ptr - m->base + (count ? count : 1) + ADVICE_PAGE - 1) /
	       ADVICE_PAGE;
}

/*
 * A location as a query reports it: the host's id means nothing, and the
 * current NUMA node is the one node there is (node 0).
 */
static struct advice_loc advice_loc(CUmemLocation loc)
{
	switch (loc.type) {
	case CU_MEM_LOCATION_TYPE_HOST:
		return (struct advice_loc){ CU_MEM_LOCATION_TYPE_HOST, 0 };
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return (struct advice_loc){ CU_MEM_LOCATION_TYPE_HOST_NUMA, 0 };
	default:
		return (struct advice_loc){ loc.type, loc.id };
	}
}

/* The accessed-by bit of a processor (managed_hints.c checked it). */
static uint32_t advice_bit(CUmemLocation loc)
{
	if (loc.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return ACCESSED_CPU;
	return loc.id >= 0 && loc.id < 31 ? 1u << loc.id : 0;
}

CUresult cu_advice_record(const struct cu_mem *m, CUdeviceptr ptr,
			  size_t count, CUmem_advise advice,
			  CUmemLocation loc)
{
	struct advice_table *t;
	size_t p, first, end;

	pthread_mutex_lock(&advice_lock);
	t = advice_get(m);
	if (!t) {
		pthread_mutex_unlock(&advice_lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	advice_pages(m, ptr, count, &first, &end);
	for (p = first; p < end && p < t->npages; p++) {
		struct advice_page *pg = &t->pages[p];

		switch (advice) {
		case CU_MEM_ADVISE_SET_READ_MOSTLY:
			pg->read_mostly = true;
			break;
		case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
			pg->read_mostly = false;
			break;
		case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
			pg->preferred = advice_loc(loc);
			break;
		case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
			pg->preferred = (struct advice_loc){ 0 };
			break;
		case CU_MEM_ADVISE_SET_ACCESSED_BY:
			pg->accessed_by |= advice_bit(loc);
			break;
		case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
			pg->accessed_by &= ~advice_bit(loc);
			break;
		default:
			break;
		}
	}
	pthread_mutex_unlock(&advice_lock);
	return CUDA_SUCCESS;
}

CUresult cu_advice_prefetched(const struct cu_mem *m, CUdeviceptr ptr,
			      size_t count, CUmemLocation loc)
{
	struct advice_table *t;
	size_t p, first, end;

	pthread_mutex_lock(&advice_lock);
	t = advice_get(m);
	if (!t) {
		pthread_mutex_unlock(&advice_lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	advice_pages(m, ptr, count, &first, &end);
	for (p = first; p < end && p < t->npages; p++)
		t->pages[p].prefetched = advice_loc(loc);
	pthread_mutex_unlock(&advice_lock);
	return CUDA_SUCCESS;
}

void cu_advice_forget(const struct cu_mem *m)
{
	struct advice_table **pp, *t;

	pthread_mutex_lock(&advice_lock);
	for (pp = &advice_tables; (t = *pp); pp = &t->next) {
		if (t->base == m->base) {
			*pp = t->next;
			free(t);
			break;
		}
	}
	pthread_mutex_unlock(&advice_lock);
}

/* --- the query ----------------------------------------------------------- */

/* What every page of a range agrees on. */
struct advice_summary {
	bool read_mostly;
	struct advice_loc preferred;	/* type 0 when pages differ or none */
	struct advice_loc prefetched;	/* likewise */
	uint32_t accessed_by;		/* set on every page */
};

static bool loc_eq(struct advice_loc a, struct advice_loc b)
{
	return a.type == b.type && (a.type == 0 || a.id == b.id);
}

static void advice_summarize(const struct cu_mem *m, CUdeviceptr ptr,
			     size_t count, struct advice_summary *s)
{
	struct advice_table *t;
	size_t p, first, end;

	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&advice_lock);
	t = advice_find(m);
	if (t) {
		advice_pages(m, ptr, count, &first, &end);
		s->read_mostly = true;
		s->preferred = t->pages[first].preferred;
		s->prefetched = t->pages[first].prefetched;
		s->accessed_by = ~0u;
		for (p = first; p < end && p < t->npages; p++) {
			const struct advice_page *pg = &t->pages[p];

			s->read_mostly &= pg->read_mostly;
			s->accessed_by &= pg->accessed_by;
			if (!loc_eq(s->preferred, pg->preferred))
				s->preferred = (struct advice_loc){ 0 };
			if (!loc_eq(s->prefetched, pg->prefetched))
				s->prefetched = (struct advice_loc){ 0 };
		}
	}
	pthread_mutex_unlock(&advice_lock);
}

/* The legacy form: a device ordinal, CU_DEVICE_CPU or CU_DEVICE_INVALID. */
static int legacy_device(struct advice_loc l)
{
	switch (l.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return l.id;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		return CU_DEVICE_CPU;
	default:
		return CU_DEVICE_INVALID;
	}
}

/* The id of the typed form: meaningful for a device or a NUMA node. */
static int location_id(struct advice_loc l)
{
	return l.type == CU_MEM_LOCATION_TYPE_DEVICE ||
	       l.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ? l.id : 0;
}

/*
 * Write @attr of @s into @data.  Every answer but ACCESSED_BY is one
 * 32-bit value; ACCESSED_BY is a list, the processors in ascending order
 * (the host, CU_DEVICE_CPU, first), padded with CU_DEVICE_INVALID.
 */
static CUresult advice_answer(const struct advice_summary *s,
			      CUmem_range_attribute attr, void *data,
			      size_t size)
{
	int32_t *out = data;
	size_t n = size / sizeof(*out), i = 0;

	if (!data || !size || size % sizeof(*out))
		return CUDA_ERROR_INVALID_VALUE;
	if (attr != CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY && n != 1)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
		*out = s->read_mostly;
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
		*out = legacy_device(s->preferred);
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
		*out = legacy_device(s->prefetched);
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
		*out = s->preferred.type;
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
		*out = location_id(s->preferred);
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		*out = s->prefetched.type;
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		*out = location_id(s->prefetched);
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
		if (s->accessed_by & ACCESSED_CPU && i < n)
			out[i++] = CU_DEVICE_CPU;
		for (int d = 0; d < 31 && i < n; d++)
			if (s->accessed_by & (1u << d))
				out[i++] = d;
		while (i < n)
			out[i++] = CU_DEVICE_INVALID;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* [ptr, ptr + count) lies in one managed allocation: its entry in @m. */
static CUresult advice_range(CUdeviceptr ptr, size_t count, struct cu_mem *m)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!count || !cu_registry_find(ptr, m) || !m->managed ||
	    ptr + count < ptr || ptr + count > m->base + m->size)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemRangeGetAttribute(void *data, size_t dataSize,
						  CUmem_range_attribute attribute,
						  CUdeviceptr devPtr,
						  size_t count)
{
	struct advice_summary s;
	struct cu_mem m;
	CUresult res = advice_range(devPtr, count, &m);

	if (res != CUDA_SUCCESS)
		return res;
	advice_summarize(&m, devPtr, count, &s);
	return advice_answer(&s, attribute, data, dataSize);
}

CU_EXPORT CUresult CUDAAPI cuMemRangeGetAttributes(void **data,
						   size_t *dataSizes,
						   CUmem_range_attribute *attributes,
						   size_t numAttributes,
						   CUdeviceptr devPtr,
						   size_t count)
{
	struct advice_summary s;
	struct cu_mem m;
	CUresult res = advice_range(devPtr, count, &m);

	if (res != CUDA_SUCCESS)
		return res;
	if (!data || !dataSizes || !attributes || !numAttributes)
		return CUDA_ERROR_INVALID_VALUE;
	advice_summarize(&m, devPtr, count, &s);
	for (size_t i = 0; i < numAttributes; i++) {
		res = advice_answer(&s, attributes[i], data[i], dataSizes[i]);
		if (res != CUDA_SUCCESS)
			return res;
	}
	return CUDA_SUCCESS;
}
