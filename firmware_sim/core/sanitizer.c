// SPDX-License-Identifier: GPL-2.0
/*
 * sanitizer.c - vgpu-sanitizer's checks, made by the interpreter as it runs
 * each access (Documentation/sanitizer.rst).
 *
 * A sanitized grid (vgpu_core_launch.sanitizer) is also a counted one, so
 * it runs on the interpreter and exec_mem.c hands every warp-level load
 * and store, with each active lane's address, to the counters; for a
 * sanitized grid it hands them here as well, before the access is made.
 *
 *  - memcheck: each lane's global bytes against the program's allocation
 *    table (include/vgpu_sanitizer.h): inside a live allocation is fine;
 *    in a freed one, use after free; in the mapped slack of an allocation
 *    (its 64 KiB granules) but outside its bytes, out of bounds - which
 *    the MMU cannot see.  Addresses that belong to no entry are left to
 *    the MMU.  Shared and local accesses beyond the block's window, and
 *    accesses not aligned to their size, in every space.
 *  - racecheck: a shadow word per 4-byte word of the block's shared
 *    memory remembers the last writer and the last reader since the last
 *    barrier; an access by another thread that conflicts with one of them
 *    is a hazard.  Findings are kept once per (kind, pair of
 *    instructions), with the hazard bytes counted, as compute-sanitizer's
 *    default report does.
 *  - synccheck: a warp that reaches bar.sync with fewer lanes than it has
 *    live threads (a __syncthreads() in divergent code).
 *  - initcheck: a bitmap per allocation of the bytes written so far (by
 *    copies and memsets, which libcuda marks, and by kernels' stores,
 *    marked here); a global load of a byte not marked is reported.
 *
 * Findings go to the launch's report array under its lock; the firmware
 * copies them to the client when the grid has ended.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core_internal.h"

/* The shadow of one shared word: thread index + 1 (0: none) and pc. */
struct san_word {
	uint32_t wtid, wpc;
	uint32_t rtid, rpc;
};

static uint32_t san_line(const struct grid *g, uint32_t pc, char *file,
			 size_t len)
{
	const struct visa_line *ln = core_find_line(g->mod, pc);

	if (!ln)
		return 0;
	if (file) {
		const char *f = vgpu_core_module_string(g->mod, ln->file);
		size_t n = f ? strlen(f) : 0;

		/* a long path keeps its end: the file's name */
		snprintf(file, len, "%s", n >= len ? f + n - (len - 1) :
			 f ? f : "");
	}
	return ln->line;
}

static void thread_of(const struct block *b, uint32_t flat, uint32_t t[3])
{
	const uint32_t *bd = b->g->l->block;

	t[0] = flat % bd[0];
	t[1] = flat / bd[0] % bd[1];
	t[2] = flat / (bd[0] * bd[1]);
}

/* A race's pair of instructions: (write, other), whichever came first. */
static void race_pair(const struct vgpu_san_report *r, uint32_t p[3])
{
	p[0] = r->kind == VGPU_SAN_RACE_WAW;
	p[1] = r->kind == VGPU_SAN_RACE_RAW ? r->pc2 : r->pc;
	p[2] = r->kind == VGPU_SAN_RACE_RAW ? r->pc : r->pc2;
	if (p[0] && p[1] > p[2]) {
		uint32_t t = p[1];

		p[1] = p[2];
		p[2] = t;
	}
}

/* Read after write and write after read of two instructions are one race
 * between them, as compute-sanitizer reports it. */
static bool same_race(const struct vgpu_san_report *a,
		      const struct vgpu_san_report *b)
{
	uint32_t x[3], y[3];

	if (a->kind < VGPU_SAN_RACE_RAW || a->kind > VGPU_SAN_RACE_WAW)
		return false;
	race_pair(a, x);
	race_pair(b, y);
	return !memcmp(x, y, sizeof(x));
}

/*
 * Record @r.  Races are kept once per pair of instructions (@count adds
 * up); everything else once per thread and instruction, as
 * compute-sanitizer prints them.
 */
static void san_record(struct grid *g, struct vgpu_san_report *r)
{
	struct vgpu_core_sanitizer *s = g->l->sanitizer;
	bool race = r->kind >= VGPU_SAN_RACE_RAW && r->kind <= VGPU_SAN_RACE_WAW;

	r->kernel = g->l->kernel;
	pthread_mutex_lock(&s->lock);
	for (uint32_t i = 0; race && i < s->count; i++) {
		if (same_race(&s->reports[i], r)) {
			s->reports[i].count += r->count;
			pthread_mutex_unlock(&s->lock);
			return;
		}
	}
	if (s->count < s->cap) {
		r->line = san_line(g, r->pc, r->file, sizeof(r->file));
		if (race)
			r->line2 = san_line(g, r->pc2, NULL, 0);
		s->reports[s->count++] = *r;
	} else {
		s->dropped++;
	}
	pthread_mutex_unlock(&s->lock);
}

static void san_lane_report(struct warp *w, uint32_t pc, int lane,
			    uint32_t kind, int space, bool store,
			    uint32_t bytes, uint64_t addr,
			    const struct vgpu_san_alloc *a)
{
	struct vgpu_san_report r = {
		.kind = kind, .space = (uint8_t)space, .is_write = store,
		.access_size = (uint16_t)bytes, .address = addr, .pc = pc,
		.count = 1,
	};

	memcpy(r.block, w->blk->idx, sizeof(r.block));
	warp_thread_idx(w, lane, r.thread);
	if (a) {
		r.alloc_base = a->base;
		r.alloc_size = a->size;
	}
	san_record(w->blk->g, &r);
}

/* The last entry whose map range starts at or below @addr, or NULL. */
static const struct vgpu_san_alloc *
san_find(const struct vgpu_core_sanitizer *s, uint64_t addr)
{
	uint32_t lo = 0, hi = s->nallocs;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (s->allocs[mid].map_base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &s->allocs[lo - 1] : NULL;
}

/*
 * initcheck: a store marks its bytes written; a load of a byte never
 * written is reported.  Bits of several SMs' warps share bytes: atomics.
 */
static void check_init(struct warp *w, uint32_t pc, int lane,
		       const struct vgpu_san_alloc *a, uint64_t addr,
		       uint32_t bytes, bool store)
{
	const struct vgpu_core_sanitizer *s = w->blk->g->l->sanitizer;
	uint8_t *bits = s->init ? s->init[a - s->allocs] : NULL;
	uint64_t off = addr - a->base;

	if (!bits)
		return;
	for (uint64_t i = off; i < off + bytes; i++) {
		uint8_t bit = (uint8_t)(1u << (i & 7));

		if (store) {
			__atomic_fetch_or(&bits[i >> 3], bit,
					  __ATOMIC_RELAXED);
		} else if (!(__atomic_load_n(&bits[i >> 3], __ATOMIC_RELAXED) &
			     bit)) {
			san_lane_report(w, pc, lane, VGPU_SAN_UNINIT_READ,
					VISA_SPACE_GLOBAL, store, bytes,
					addr, a);
			return;
		}
	}
}

static void check_global(struct warp *w, uint32_t pc, int lane,
			 uint64_t addr, uint32_t bytes, bool store)
{
	const struct vgpu_core_sanitizer *s = w->blk->g->l->sanitizer;
	const struct vgpu_san_alloc *a = san_find(s, addr);
	bool mis = addr & (bytes - 1);
	uint32_t kind;

	if (!(s->tools & VGPU_SAN_MEMCHECK)) {
		if (a && !(a->flags & VGPU_SAN_ALLOC_FREED) &&
		    addr >= a->base && addr - a->base <= a->size &&
		    a->size - (addr - a->base) >= bytes)
			check_init(w, pc, lane, a, addr, bytes, store);
		return;
	}

	if (!a || addr - a->map_base >= a->map_size) {
		/* no allocation of the program: the MMU's business */
		if (mis)
			san_lane_report(w, pc, lane, VGPU_SAN_MISALIGNED,
					VISA_SPACE_GLOBAL, store, bytes, addr,
					NULL);
		return;
	}
	if (a->flags & VGPU_SAN_ALLOC_FREED)
		kind = VGPU_SAN_USE_AFTER_FREE;
	else if (addr < a->base || addr - a->base > a->size ||
		 a->size - (addr - a->base) < bytes)
		kind = VGPU_SAN_OUT_OF_BOUNDS;
	else if (mis)
		kind = VGPU_SAN_MISALIGNED;
	else
		return;
	san_lane_report(w, pc, lane, kind, VISA_SPACE_GLOBAL, store, bytes,
			addr, a);
}

/* Shared memory's shadow for racecheck: since the last barrier. */
static void check_race(struct warp *w, uint32_t pc, int lane, uint64_t off,
		       uint32_t bytes, bool store)
{
	struct block *b = w->blk;
	uint32_t tid = w->warp_id * WARP_SIZE + (uint32_t)lane + 1;

	if (!b->san_shadow)
		return;
	for (uint64_t wd = off >> 2; wd <= (off + bytes - 1) >> 2; wd++) {
		struct san_word *sw = (struct san_word *)b->san_shadow + wd;
		uint32_t n = bytes < 4 ? bytes : 4;
		uint32_t kind = 0, other = 0, opc = 0;

		if (wd >= b->shared_size / 4)
			break;
		if (store && sw->wtid && sw->wtid != tid) {
			kind = VGPU_SAN_RACE_WAW;
			other = sw->wtid;
			opc = sw->wpc;
		} else if (store && sw->rtid && sw->rtid != tid) {
			kind = VGPU_SAN_RACE_WAR;
			other = sw->rtid;
			opc = sw->rpc;
		} else if (!store && sw->wtid && sw->wtid != tid) {
			kind = VGPU_SAN_RACE_RAW;
			other = sw->wtid;
			opc = sw->wpc;
		}
		if (store) {
			sw->wtid = tid;
			sw->wpc = pc;
		} else {
			sw->rtid = tid;
			sw->rpc = pc;
		}
		if (kind) {
			struct vgpu_san_report r = {
				.kind = kind, .space = VISA_SPACE_SHARED,
				.is_write = store, .access_size = (uint16_t)bytes,
				.address = wd * 4, .pc = pc, .pc2 = opc,
				.count = n,
			};

			memcpy(r.block, b->idx, sizeof(r.block));
			warp_thread_idx(w, lane, r.thread);
			thread_of(b, other - 1, r.thread2);
			san_record(b->g, &r);
		}
	}
}

static void check_window(struct warp *w, uint32_t pc, int lane, int space,
			 uint64_t off, uint32_t bytes, bool store)
{
	const struct vgpu_core_sanitizer *s = w->blk->g->l->sanitizer;
	uint64_t size = space == VISA_SPACE_SHARED ? w->blk->shared_size :
			w->blk->g->local_size;

	if (s->tools & VGPU_SAN_MEMCHECK) {
		if (off >= size || size - off < bytes) {
			san_lane_report(w, pc, lane, VGPU_SAN_OUT_OF_BOUNDS,
					space, store, bytes, off, NULL);
			return;
		}
		if (off & (bytes - 1)) {
			san_lane_report(w, pc, lane, VGPU_SAN_MISALIGNED,
					space, store, bytes, off, NULL);
			return;
		}
	}
	if ((s->tools & VGPU_SAN_RACECHECK) && space == VISA_SPACE_SHARED &&
	    off < size)
		check_race(w, pc, lane, off, bytes, store);
}

void san_access(struct warp *w, const struct dinsn *in, const uint64_t *addr,
		uint32_t mask, uint32_t bytes, bool store)
{
	const struct vgpu_core_sanitizer *s = w->blk->g->l->sanitizer;
	uint32_t pc = pc_of(w, in);
	int space = in->type2;

	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t a = addr[l];
		int sp = space;

		if (!((mask >> l) & 1))
			continue;
		if (sp == VISA_SPACE_GENERIC) {
			if (a - VISA_GENERIC_SHARED_BASE < VISA_GENERIC_WINDOW_SIZE) {
				sp = VISA_SPACE_SHARED;
				a -= VISA_GENERIC_SHARED_BASE;
			} else if (a - VISA_GENERIC_LOCAL_BASE <
				   VISA_GENERIC_WINDOW_SIZE) {
				sp = VISA_SPACE_LOCAL;
				a -= VISA_GENERIC_LOCAL_BASE;
			} else if (a - VISA_GENERIC_PARAM_BASE <
				   VISA_GENERIC_WINDOW_SIZE) {
				continue;
			} else {
				sp = VISA_SPACE_GLOBAL;
			}
		}
		if (sp == VISA_SPACE_GLOBAL) {
			if (s->tools & (VGPU_SAN_MEMCHECK | VGPU_SAN_INITCHECK))
				check_global(w, pc, l, a, bytes, store);
		} else if (sp == VISA_SPACE_SHARED || sp == VISA_SPACE_LOCAL) {
			check_window(w, pc, l, sp, a, bytes, store);
		}
	}
}

void san_barrier(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const struct vgpu_core_sanitizer *s = w->blk->g->l->sanitizer;
	uint32_t pc = pc_of(w, in);
	uint32_t missing = w->live & ~mask;

	if (!(s->tools & VGPU_SAN_SYNCCHECK) || !missing)
		return;
	/* compute-sanitizer names every thread that did arrive */
	for (int l = 0; l < WARP_SIZE; l++) {
		struct vgpu_san_report r = {
			.kind = VGPU_SAN_DIVERGENT_BARRIER, .pc = pc,
			.count = 1,
		};

		if (!((mask >> l) & 1))
			continue;
		memcpy(r.block, w->blk->idx, sizeof(r.block));
		warp_thread_idx(w, l, r.thread);
		san_record(w->blk->g, &r);
	}
}

void san_barrier_done(struct block *b)
{
	if (b->san_shadow)
		memset(b->san_shadow, 0,
		       (size_t)(b->shared_size / 4) * sizeof(struct san_word));
}

int san_block_setup(struct block *b)
{
	const struct vgpu_core_sanitizer *s = b->g->l->sanitizer;
	size_t need = (size_t)(b->shared_size / 4) * sizeof(struct san_word);

	if (!s || !(s->tools & VGPU_SAN_RACECHECK) || !need) {
		free(b->san_shadow);
		b->san_shadow = NULL;
		return 0;
	}
	free(b->san_shadow);
	b->san_shadow = calloc(1, need);
	return b->san_shadow ? 0 : -ENOMEM;
}
