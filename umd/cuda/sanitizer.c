// SPDX-License-Identifier: GPL-2.0
/*
 * sanitizer.c - libcuda's part of vgpu-sanitizer (Documentation/sanitizer.rst).
 *
 * vgpu-sanitizer runs the program with
 *
 *   VGPU_SANITIZER=memcheck|racecheck|synccheck|initcheck   which checks
 *   VGPU_SANITIZER_OUT=FILE                       where findings go
 *   VGPU_SANITIZER_LEAKS=1                        --leak-check full
 *
 * and every kernel launch then becomes a counted launch (profile.c) whose
 * counters page also holds a struct vgpu_san_desc (include/vgpu_sanitizer.h)
 * naming two pinned buffers of the context: the allocation table, built
 * here from the registry of device memory before each launch (and the
 * allocations freed since the program began, for use after free), and
 * the room for the engine's findings.  When the launch has ended each
 * finding becomes one line of FILE:
 *
 *   vgpu-san 1 kind=K space=S write=W size=N addr=A block=X,Y,Z
 *     thread=X,Y,Z pc=P line=L alloc=BASE,SIZE pc2=P line2=L
 *     thread2=X,Y,Z count=C file=F kernel=NAME
 *
 * and, with VGPU_SANITIZER_LEAKS, the allocations of cuMemAlloc still live
 * at exit one line each ("vgpu-san-leak 1 size=N addr=A").  vgpu-sanitizer
 * formats them.  For initcheck each allocation of cuMemAlloc gets a
 * pinned bitmap of its bytes written: copies and memsets mark theirs here
 * when they are issued (cu_san_written()), kernels' stores are marked by
 * the firmware, which reads the bitmaps when a grid starts and writes
 * them back when it ends.
 * Without VGPU_SANITIZER nothing here runs but one
 * pthread_once check per launch (the one profile.c makes anyway).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "vgpu_counters.h"
#include "vgpu_sanitizer.h"

/* Freed allocations remembered for use after free (the latest ones). */
#define SAN_FREED_MAX	1024
/* The table's room: live and freed allocations of a context. */
#define SAN_TABLE_MAX	4096
#define SAN_REPORTS	1024

struct cu_san_ctx {
	uint32_t table_handle, report_handle;
	struct vgpu_san_alloc *table;	/* pinned: GPU VA == host address */
	struct vgpu_san_reports *reports;
	size_t table_bytes, report_bytes;
};

static pthread_once_t san_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t san_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t san_tools;
static int san_fd = -1;
static bool san_leaks;
/* cuMemAlloc's allocation, with initcheck's bitmap of bytes written */
struct san_user {
	uint64_t base, size;
	struct cu_ctx *ctx;
	uint8_t *bits;		/* pinned: GPU VA == host address; or NULL */
	uint32_t bits_handle;
	size_t bits_bytes;
};

/* under san_lock: freed ranges (a ring) and cuMemAlloc's live ones */
static struct vgpu_san_alloc san_freed[SAN_FREED_MAX];
static uint32_t san_nfreed;
static struct san_user *san_user;
static uint32_t san_nuser, san_user_cap;

static void san_init(void)
{
	const char *tool = getenv("VGPU_SANITIZER");
	const char *out = getenv("VGPU_SANITIZER_OUT");
	const char *leaks = getenv("VGPU_SANITIZER_LEAKS");

	if (!tool || !out || !*out)
		return;
	if (!strcmp(tool, "memcheck"))
		san_tools = VGPU_SAN_MEMCHECK;
	else if (!strcmp(tool, "racecheck"))
		san_tools = VGPU_SAN_RACECHECK;
	else if (!strcmp(tool, "synccheck"))
		san_tools = VGPU_SAN_SYNCCHECK;
	else if (!strcmp(tool, "initcheck"))
		san_tools = VGPU_SAN_INITCHECK;
	else
		return;
	san_fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (san_fd < 0)
		san_tools = 0;
	san_leaks = san_tools == VGPU_SAN_MEMCHECK && leaks && *leaks == '1';
}

bool cu_san_enabled(void)
{
	pthread_once(&san_once, san_init);
	return san_tools != 0;
}

static void san_out(const char *line, int n)
{
	/* one write(): lines of several threads (O_APPEND) do not mix */
	if (n > 0 && write(san_fd, line, (size_t)n) != n)
		return;	/* a full disk loses the line, not the program */
}

void cu_san_user_alloc(struct cu_ctx *ctx, uint64_t base, uint64_t size)
{
	struct san_user u = { .base = base, .size = size, .ctx = ctx };
	bool init;
	void *p;

	if (!cu_san_enabled())
		return;
	init = san_tools == VGPU_SAN_INITCHECK;
	if (!san_leaks && !init)
		return;
	if (init) {
		/* a pinned bitmap the firmware reads and writes back */
		u.bits_bytes = cu_align_up((size + 7) / 8,
					   VGPU_SMALL_PAGE_SIZE);
		if (cu_mem_internal_host(ctx, u.bits_bytes, &u.bits_handle,
					 &p) != CUDA_SUCCESS)
			return;	/* not tracked: no finding, no false one */
		u.bits = p;
		memset(u.bits, 0, u.bits_bytes);
	}
	pthread_mutex_lock(&san_lock);
	if (san_nuser == san_user_cap) {
		uint32_t cap = san_user_cap ? 2 * san_user_cap : 64;
		void *n = realloc(san_user, cap * sizeof(*san_user));

		if (!n) {
			pthread_mutex_unlock(&san_lock);
			if (u.bits)
				cu_mem_internal_free(ctx, u.bits_handle,
						     u.bits, u.bits_bytes);
			return;
		}
		san_user = n;
		san_user_cap = cap;
	}
	san_user[san_nuser++] = u;
	pthread_mutex_unlock(&san_lock);
}

static struct san_user *user_find(uint64_t addr)
{
	for (uint32_t i = 0; i < san_nuser; i++)
		if (addr - san_user[i].base < san_user[i].size)
			return &san_user[i];
	return NULL;
}

void cu_san_written(uint64_t dst, uint64_t size)
{
	struct san_user *u;

	if (!cu_san_enabled() || san_tools != VGPU_SAN_INITCHECK || !size)
		return;
	pthread_mutex_lock(&san_lock);
	u = user_find(dst);
	if (u && u->bits) {
		uint64_t off = dst - u->base;
		uint64_t end = size < u->size - off ? off + size : u->size;

		for (uint64_t i = off; i < end; i++)
			u->bits[i >> 3] |= (uint8_t)(1u << (i & 7));
	}
	pthread_mutex_unlock(&san_lock);
}

void cu_san_freed(const struct cu_mem *m)
{
	if (!cu_san_enabled())
		return;
	pthread_mutex_lock(&san_lock);
	for (uint32_t i = 0; i < san_nuser; i++) {
		if (san_user[i].base == m->base) {
			if (san_user[i].bits)
				cu_mem_internal_free(san_user[i].ctx,
						     san_user[i].bits_handle,
						     san_user[i].bits,
						     san_user[i].bits_bytes);
			san_user[i] = san_user[--san_nuser];
			break;
		}
	}
	san_freed[san_nfreed++ % SAN_FREED_MAX] = (struct vgpu_san_alloc){
		.base = m->base, .size = m->size, .map_base = m->map_base,
		.map_size = m->map_size, .flags = VGPU_SAN_ALLOC_FREED,
	};
	pthread_mutex_unlock(&san_lock);
}

struct table_fill {
	const struct cu_ctx *ctx;
	struct vgpu_san_alloc *t;
	uint32_t n;
};

static void add_live(const struct cu_mem *m, void *arg)
{
	struct table_fill *f = arg;

	if (m->kind != CU_MEM_DEVICE || m->ctx != f->ctx || m->vmm ||
	    f->n >= SAN_TABLE_MAX)
		return;
	f->t[f->n++] = (struct vgpu_san_alloc){
		.base = m->base, .size = m->size, .map_base = m->map_base,
		.map_size = m->map_size,
	};
}

static int by_map_base(const void *a, const void *b)
{
	const struct vgpu_san_alloc *x = a, *y = b;

	return x->map_base < y->map_base ? -1 : x->map_base > y->map_base;
}

/*
 * The table: the context's live device allocations, and the freed ranges
 * that no live one has taken over since, sorted, none overlapping.
 */
static uint32_t san_table(const struct cu_ctx *ctx, struct vgpu_san_alloc *t)
{
	struct table_fill f = { .ctx = ctx, .t = t };
	uint32_t live, n, k = 0;

	cu_registry_each(add_live, &f);
	live = f.n;
	pthread_mutex_lock(&san_lock);
	n = san_nfreed < SAN_FREED_MAX ? san_nfreed : SAN_FREED_MAX;
	for (uint32_t i = 0; i < n && f.n < SAN_TABLE_MAX; i++)
		t[f.n++] = san_freed[i];
	pthread_mutex_unlock(&san_lock);
	qsort(t, f.n, sizeof(*t), by_map_base);
	/* a freed range overlapped by a later entry (its VA reused) goes */
	for (uint32_t i = 0; i < f.n; i++) {
		bool overlaps = k && t[i].map_base <
				t[k - 1].map_base + t[k - 1].map_size;

		if (!overlaps) {
			t[k++] = t[i];
		} else if (!(t[i].flags & VGPU_SAN_ALLOC_FREED)) {
			/* the live one wins over a freed one */
			if (t[k - 1].flags & VGPU_SAN_ALLOC_FREED)
				t[k - 1] = t[i];
		}
	}
	(void)live;
	/* initcheck: each live allocation of cuMemAlloc names its bitmap */
	pthread_mutex_lock(&san_lock);
	for (uint32_t i = 0; i < k; i++) {
		struct san_user *u = (t[i].flags & VGPU_SAN_ALLOC_FREED) ?
				     NULL : user_find(t[i].base);

		if (u && u->base == t[i].base && u->bits)
			t[i].init_va = (uint64_t)(uintptr_t)u->bits;
	}
	pthread_mutex_unlock(&san_lock);
	return k;
}

static CUresult san_ctx_get(struct cu_ctx *ctx, struct cu_san_ctx **out)
{
	struct cu_san_ctx *s = ctx->san;
	void *p;
	CUresult res;

	if (s) {
		*out = s;
		return CUDA_SUCCESS;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->table_bytes = cu_align_up(SAN_TABLE_MAX * sizeof(*s->table),
				     VGPU_SMALL_PAGE_SIZE);
	s->report_bytes = cu_align_up(sizeof(struct vgpu_san_reports) +
				      SAN_REPORTS *
				      sizeof(struct vgpu_san_report),
				      VGPU_SMALL_PAGE_SIZE);
	res = cu_mem_internal_host(ctx, s->table_bytes, &s->table_handle, &p);
	if (res != CUDA_SUCCESS) {
		free(s);
		return res;
	}
	s->table = p;
	res = cu_mem_internal_host(ctx, s->report_bytes, &s->report_handle,
				   &p);
	if (res != CUDA_SUCCESS) {
		cu_mem_internal_free(ctx, s->table_handle, s->table,
				     s->table_bytes);
		free(s);
		return res;
	}
	s->reports = p;
	ctx->san = s;
	*out = s;
	return CUDA_SUCCESS;
}

CUresult cu_san_fill(struct cu_ctx *ctx, void *desc_at)
{
	struct vgpu_san_desc d = { 0 };
	struct cu_san_ctx *s;
	CUresult res;

	if (!cu_san_enabled()) {
		memcpy(desc_at, &d, sizeof(d));
		return CUDA_SUCCESS;
	}
	res = san_ctx_get(ctx, &s);
	if (res != CUDA_SUCCESS)
		return res;
	d.size = sizeof(d);
	d.tools = san_tools;
	d.nallocs = san_table(ctx, s->table);
	d.allocs_va = d.nallocs ? (uint64_t)(uintptr_t)s->table : 0;
	d.report_cap = SAN_REPORTS;
	d.reports_va = (uint64_t)(uintptr_t)s->reports;
	memset(s->reports, 0, sizeof(*s->reports));
	memcpy(desc_at, &d, sizeof(d));
	return CUDA_SUCCESS;
}

void cu_san_collect(struct cu_ctx *ctx, const struct cu_function *f)
{
	const struct cu_san_ctx *s = ctx->san;
	const struct vgpu_san_report *r;
	char line[1024];
	uint32_t n;
	int k;

	if (!s || !cu_san_enabled())
		return;
	n = s->reports->count;
	if (n > SAN_REPORTS)
		n = SAN_REPORTS;
	r = (const struct vgpu_san_report *)(s->reports + 1);
	for (uint32_t i = 0; i < n; i++, r++) {
		k = snprintf(line, sizeof(line),
			     "vgpu-san 1 kind=%u space=%u write=%u size=%u "
			     "addr=0x%" PRIx64 " block=%u,%u,%u thread=%u,%u,%u "
			     "pc=%u line=%u alloc=0x%" PRIx64 ",%" PRIu64
			     " pc2=%u line2=%u thread2=%u,%u,%u count=%u "
			     "file=%.*s kernel=%s\n",
			     r->kind, r->space, r->is_write, r->access_size,
			     (uint64_t)r->address, r->block[0], r->block[1],
			     r->block[2], r->thread[0], r->thread[1],
			     r->thread[2], r->pc, r->line,
			     (uint64_t)r->alloc_base, (uint64_t)r->alloc_size,
			     r->pc2, r->line2, r->thread2[0], r->thread2[1],
			     r->thread2[2], r->count,
			     (int)strnlen(r->file, sizeof(r->file)),
			     r->file[0] ? r->file : "?",
			     f->name ? f->name : "?");
		if (k > 0 && (size_t)k < sizeof(line))
			san_out(line, k);
	}
	if (s->reports->dropped) {
		k = snprintf(line, sizeof(line), "vgpu-san-dropped 1 %u\n",
			     s->reports->dropped);
		san_out(line, k);
	}
}

void cu_san_ctx_fini(struct cu_ctx *ctx)
{
	struct cu_san_ctx *s = ctx->san;

	/* the bitmaps go with the context (its allocations are kept for
	 * --leak-check) */
	pthread_mutex_lock(&san_lock);
	for (uint32_t i = 0; i < san_nuser; i++) {
		if (san_user[i].ctx == ctx && san_user[i].bits) {
			cu_mem_internal_free(ctx, san_user[i].bits_handle,
					     san_user[i].bits,
					     san_user[i].bits_bytes);
			san_user[i].bits = NULL;
		}
	}
	pthread_mutex_unlock(&san_lock);
	if (!s)
		return;
	cu_mem_internal_free(ctx, s->table_handle, s->table, s->table_bytes);
	cu_mem_internal_free(ctx, s->report_handle, s->reports,
			     s->report_bytes);
	free(s);
	ctx->san = NULL;
}

/* --leak-check full: cuMemAlloc's allocations never freed, at exit. */
__attribute__((destructor)) static void san_leak_check(void)
{
	char line[128];
	int k;

	if (san_fd < 0 || !san_leaks)
		return;
	pthread_mutex_lock(&san_lock);
	for (uint32_t i = 0; i < san_nuser; i++) {
		k = snprintf(line, sizeof(line),
			     "vgpu-san-leak 1 size=%" PRIu64 " addr=0x%" PRIx64
			     "\n", (uint64_t)san_user[i].size,
			     (uint64_t)san_user[i].base);
		san_out(line, k);
	}
	pthread_mutex_unlock(&san_lock);
}
