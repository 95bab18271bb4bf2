// SPDX-License-Identifier: GPL-2.0
/*
 * sanitizer.c - vgpu-sanitizer's side of the GR engine.
 *
 * libcuda describes a sanitized launch in the launch's counters buffer
 * (struct vgpu_san_desc at VGPU_SAN_DESC_OFFSET, include/vgpu_sanitizer.h):
 * which checks, where its allocation table is and where the findings go.
 * Before the grid, the table is copied out of the client's memory and
 * checked (sorted, not overlapping), so that the core's lookups trust it,
 * with initcheck's bitmaps of the bytes written, which go back after it;
 * after the grid - also after a fault, since the finding often explains
 * the fault - the core's findings are written back with their count, before
 * the queue moves past the LAUNCH, so a client that sees a later fence
 * sees them.
 */
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "mmu.h"
#include "sanitizer.h"
#include "vgpu_counters.h"

struct fw_san {
	struct vgpu_core_sanitizer core;
	uint64_t reports_va;
};

static bool desc_ok(const struct vgpu_san_desc *d)
{
	return d->size >= sizeof(*d) && !(d->tools & ~VGPU_SAN_TOOLS_ALL) &&
	       d->nallocs <= VGPU_SAN_MAX_ALLOCS && !(d->allocs_va & 7) &&
	       (d->allocs_va || !d->nallocs) && d->report_cap &&
	       d->report_cap <= VGPU_SAN_MAX_REPORTS && d->reports_va &&
	       !(d->reports_va & 7);
}

/* Sorted by map_base, map ranges apart, bases inside their ranges. */
static bool table_ok(const struct vgpu_san_alloc *a, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (a[i].flags & ~VGPU_SAN_ALLOC_FREED || a[i].reserved ||
		    a[i].map_base + a[i].map_size < a[i].map_base ||
		    a[i].base < a[i].map_base ||
		    a[i].base - a[i].map_base > a[i].map_size ||
		    a[i].size > a[i].map_size - (a[i].base - a[i].map_base))
			return false;
		if (i && a[i].map_base < a[i - 1].map_base + a[i - 1].map_size)
			return false;
	}
	return true;
}

static uint64_t bitmap_bytes(const struct vgpu_san_alloc *a)
{
	return (a->size + 7) / 8;
}

/* initcheck: copy each entry's bitmap of bytes written out of the client. */
static int read_bitmaps(struct fw_queue *q, struct fw_san *s,
			uint64_t *fault_va)
{
	const struct vgpu_san_alloc *a = s->core.allocs;
	int kind = 0;

	s->core.init = calloc(s->core.nallocs ? s->core.nallocs : 1,
			      sizeof(*s->core.init));
	if (!s->core.init)
		return VGPU_FAULT_BAD_PACKET;
	for (uint32_t i = 0; i < s->core.nallocs && !kind; i++) {
		if (!a[i].init_va || (a[i].flags & VGPU_SAN_ALLOC_FREED))
			continue;
		s->core.init[i] = malloc(bitmap_bytes(&a[i]));
		if (!s->core.init[i])
			return VGPU_FAULT_BAD_PACKET;
		kind = fw_mem_read(q->ctx, a[i].init_va, s->core.init[i],
				   bitmap_bytes(&a[i]), fault_va);
	}
	return kind;
}

static void san_free(struct fw_san *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; s->core.init && i < s->core.nallocs; i++)
		free(s->core.init[i]);
	free(s->core.init);
	pthread_mutex_destroy(&s->core.lock);
	free((void *)s->core.allocs);
	free(s->core.reports);
	free(s);
}

int fw_san_begin(struct fw_queue *q, struct vgpu_core_launch *l,
		 struct vgpu_fault *fault)
{
	struct vgpu_san_desc d = { 0 };
	struct vgpu_san_alloc *t = NULL;
	struct fw_san *s;
	uint64_t fault_va = 0;
	int kind = 0;

	fw_san_abandon(q);
	if (q->counters_size < VGPU_SAN_DESC_OFFSET + sizeof(d))
		return 0;
	kind = fw_mem_read(q->ctx, q->counters_va + VGPU_SAN_DESC_OFFSET, &d,
			   sizeof(d), &fault_va);
	if (!kind && !d.size)
		return 0;
	if (!kind && !desc_ok(&d))
		kind = VGPU_FAULT_BAD_PACKET;
	if (!kind && d.nallocs) {
		t = malloc((size_t)d.nallocs * sizeof(*t));
		if (!t)
			kind = VGPU_FAULT_BAD_PACKET;
		else
			kind = fw_mem_read(q->ctx, d.allocs_va, t,
					   (uint64_t)d.nallocs * sizeof(*t),
					   &fault_va);
		if (!kind && !table_ok(t, d.nallocs))
			kind = VGPU_FAULT_BAD_PACKET;
	}
	s = kind ? NULL : calloc(1, sizeof(*s));
	if (s)
		s->core.reports = calloc(d.report_cap,
					 sizeof(*s->core.reports));
	if (!kind && (!s || !s->core.reports)) {
		free(s);
		kind = VGPU_FAULT_BAD_PACKET;	/* no host memory for it */
	}
	if (kind) {
		free(t);
		fault->kind = kind;
		fault->va = fault_va;
		return 1;
	}
	pthread_mutex_init(&s->core.lock, NULL);
	s->core.tools = d.tools;
	s->core.allocs = t;
	s->core.nallocs = d.nallocs;
	s->core.cap = d.report_cap;
	s->reports_va = d.reports_va;
	if (d.tools & VGPU_SAN_INITCHECK) {
		kind = read_bitmaps(q, s, &fault_va);
		if (kind) {
			san_free(s);
			fault->kind = kind;
			fault->va = fault_va;
			return 1;
		}
	}
	q->san = s;
	l->sanitizer = &s->core;
	return 0;
}

int fw_san_finish(struct fw_queue *q, struct vgpu_fault *fault)
{
	struct fw_san *s = q->san;
	struct vgpu_san_reports h;
	uint64_t fault_va = 0;
	int kind;

	if (!s)
		return 0;
	q->san = NULL;
	kind = 0;
	for (uint32_t i = 0; s->core.init && i < s->core.nallocs && !kind; i++)
		if (s->core.init[i])
			kind = fw_mem_write(q->ctx, s->core.allocs[i].init_va,
					    s->core.init[i],
					    bitmap_bytes(&s->core.allocs[i]),
					    &fault_va);
	h.count = s->core.count;
	h.dropped = s->core.dropped;
	if (!kind)
		kind = fw_mem_write(q->ctx, s->reports_va + sizeof(h),
				    s->core.reports,
				    (uint64_t)h.count *
				    sizeof(*s->core.reports), &fault_va);
	if (!kind)	/* the header last: the records are there when seen */
		kind = fw_mem_write(q->ctx, s->reports_va, &h, sizeof(h),
				    &fault_va);
	san_free(s);
	if (!kind)
		return 0;
	*fault = q->launch_fault;
	fault->kind = kind;
	fault->va = fault_va;
	return 1;
}

void fw_san_abandon(struct fw_queue *q)
{
	san_free(q->san);
	q->san = NULL;
}
