// SPDX-License-Identifier: GPL-2.0
/*
 * memory.c - from (state space, address) to a host pointer, or a fault.
 *
 * This is the only place where addresses computed by a kernel become host
 * pointers.  Global addresses go through the per-SM TLB and, on a miss,
 * the user's translate callback (the MMU); shared, local, const and param
 * addresses are checked against the sizes of what the block, the thread
 * and the module own.  Every access is checked for alignment, range and
 * permission, and a failing check records a precise fault.
 */
#include <stdio.h>

#include "core_internal.h"
#include "mem_span.h"

void tlb_flush(struct sm *sm)
{
	/* size 0 makes the hit test (va - e->va < e->size) always fail */
	for (int i = 0; i < TLB_ENTRIES; i++) {
		sm->tlb[i].va = ~0ull;
		sm->tlb[i].size = 0;
	}
	for (int i = 0; i < TLB2_ENTRIES; i++) {
		sm->tlb2[i].va = ~0ull;
		sm->tlb2[i].size = 0;
	}
}

static inline bool tlb_hit(const struct tlb_entry *e, uint64_t va)
{
	return va - e->va < e->size;
}

/*
 * Find the page containing @va.  Returns NULL (and sets *kind) when the
 * address is not mapped.
 *
 * Two levels, as a GPU's MMU has them: the 64 entries of sm->tlb, which
 * the native tier's inlined fast path reads too, and behind them the
 * 1024 of sm->tlb2, looked at before the translate callback walks the
 * page tables.  Both are direct-mapped, each page size at its own index
 * ((va >> 16) for pages of 64 KiB and more, (va >> 12) for 4 KiB).  The
 * second level is what a warp streaming through more pages than the
 * first level holds hits: the reduction's warps each run a quantum across
 * some 200 pages of 64 KiB, then the next warp runs across the same ones
 * (28% of its time went to translating them again).  Both levels are
 * flushed together (tlb_flush()), so the invalidation rules are those of
 * one TLB.
 */
static struct tlb_entry *tlb_lookup(struct warp *w, uint64_t va,
				    uint32_t *kind)
{
	struct sm *sm = w->blk->sm;
	const struct vgpu_core_launch *l = w->blk->g->l;
	struct tlb_entry *e64 = &sm->tlb[(va >> 16) % TLB_ENTRIES];
	struct tlb_entry *e4 = &sm->tlb[(va >> 12) % TLB_ENTRIES];
	struct tlb_entry *f64 = &sm->tlb2[(va >> 16) % TLB2_ENTRIES];
	struct tlb_entry *f4 = &sm->tlb2[(va >> 12) % TLB2_ENTRIES];
	struct vgpu_core_page pg;
	struct tlb_entry *e;

	if (tlb_hit(e64, va))
		return e64;
	if (tlb_hit(e4, va))
		return e4;
	/* the second level: refill the first from it */
	if (tlb_hit(f64, va)) {
		*e64 = *f64;
		return e64;
	}
	if (tlb_hit(f4, va)) {
		e = f4->size >= 65536 ? e64 : e4;
		*e = *f4;
		return e;
	}
	sm->tlb_misses++;
	*kind = VISA_FAULT_UNMAPPED;
	if (!l->translate || l->translate(l->translate_ctx, va, &pg))
		return NULL;
	/* Distrust the callback's page a little: it must contain va. */
	if (pg.size < 4096 || (pg.size & (pg.size - 1)) || (pg.va & (pg.size - 1)) ||
	    va - pg.va >= pg.size || !pg.host)
		return NULL;
	e = pg.size >= 65536 ? e64 : e4;
	e->va = pg.va;
	e->size = pg.size;
	e->host = pg.host;
	e->perm = pg.perm;
	*(pg.size >= 65536 ? f64 : f4) = *e;
	return e;
}

/* The cached page containing a global @va, or NULL (no TLB lookup). */
const struct tlb_entry *tlb_peek(const struct sm *sm, uint64_t va)
{
	const struct tlb_entry *e64 = &sm->tlb[(va >> 16) % TLB_ENTRIES];
	const struct tlb_entry *e4 = &sm->tlb[(va >> 12) % TLB_ENTRIES];

	if (tlb_hit(e64, va))
		return e64;
	if (tlb_hit(e4, va))
		return e4;
	return NULL;
}

static void *fault(struct warp *w, uint32_t pc, int lane, uint32_t kind,
		   uint64_t addr, const char *what)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "%s access at 0x%llx", what,
		 (unsigned long long)addr);
	core_record_fault(w->blk->g, w, lane, pc, kind, addr, msg);
	return NULL;
}

/* The page permissions each kind of access needs. */
static const uint32_t access_perm[] = {
	[ACC_READ] = VGPU_CORE_PERM_READ,
	[ACC_WRITE] = VGPU_CORE_PERM_WRITE,
	[ACC_ATOMIC] = VGPU_CORE_PERM_READ | VGPU_CORE_PERM_WRITE |
		       VGPU_CORE_PERM_ATOMIC,
};

static void *global_ptr(struct warp *w, uint32_t pc, int lane, uint64_t addr,
			uint32_t size, int access, const char *what)
{
	uint32_t kind = VISA_FAULT_UNMAPPED;
	struct tlb_entry *e = tlb_lookup(w, addr, &kind);

	if (!e)
		return fault(w, pc, lane, kind, addr, what);
	/* An aligned access of <= 16 bytes never crosses a 4 KiB page. */
	if (addr - e->va > e->size - size)
		return fault(w, pc, lane, VISA_FAULT_UNMAPPED, addr, what);
	if ((e->perm & access_perm[access]) != access_perm[access])
		return fault(w, pc, lane, VISA_FAULT_PERMISSION, addr, what);
	return e->host + (addr - e->va);
}

static inline bool in_range(uint64_t addr, uint32_t size, uint64_t limit)
{
	return limit >= size && addr <= limit - size;
}

/*
 * The state space a generic address falls in; *addr becomes the address
 * within it (global addresses are generic addresses).
 */
static int generic_space(uint64_t *addr)
{
	static const struct {
		uint64_t base;
		int space;
	} windows[] = {
		{ VISA_GENERIC_SHARED_BASE, VISA_SPACE_SHARED },
		{ VISA_GENERIC_LOCAL_BASE, VISA_SPACE_LOCAL },
		{ VISA_GENERIC_PARAM_BASE, VISA_SPACE_PARAM },
	};

	for (size_t i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		if (*addr - windows[i].base < VISA_GENERIC_WINDOW_SIZE) {
			*addr -= windows[i].base;
			return windows[i].space;
		}
	}
	return VISA_SPACE_GLOBAL;
}

void *mem_resolve(struct warp *w, uint32_t pc, int lane, int space,
		  uint64_t addr, uint32_t size, int access)
{
	struct block *b = w->blk;
	struct grid *g = b->g;
	static const char *const names[] = {
		"generic", "global", "shared", "local", "const", "param",
	};
	const char *what = names[space < 6 ? space : 0];

	if (addr & (size - 1))
		return fault(w, pc, lane, VISA_FAULT_MISALIGNED, addr, what);
	if (space == VISA_SPACE_GENERIC)
		space = generic_space(&addr);
	switch (space) {
	case VISA_SPACE_GLOBAL:
		return global_ptr(w, pc, lane, addr, size, access, what);
	case VISA_SPACE_SHARED:
		if (addr & VISA_SHARED_CLUSTER_BIT) {	/* another block's */
			uint8_t *p = cluster_shared(w, addr, size);

			if (!p)
				break;
			return p;
		}
		if (!in_range(addr, size, b->shared_size))
			break;
		return b->shared + addr;
	case VISA_SPACE_LOCAL:
		if (!in_range(addr, size, g->local_size))
			break;
		return b->local + (size_t)(w->warp_id * WARP_SIZE + lane) *
				  g->local_size + addr;
	case VISA_SPACE_CONST:
		if (!in_range(addr, size, g->mod->hdr->const_size))
			break;
		if (access != ACC_READ)
			return fault(w, pc, lane, VISA_FAULT_PERMISSION, addr,
				     what);
		return global_ptr(w, pc, lane, g->l->const_base + addr, size,
				  ACC_READ, what);
	case VISA_SPACE_PARAM:
		if (!in_range(addr, size, g->k->param_size))
			break;
		if (access != ACC_READ)
			return fault(w, pc, lane, VISA_FAULT_PERMISSION, addr,
				     what);
		return (uint8_t *)g->param_copy + addr;
	}
	return fault(w, pc, lane, VISA_FAULT_OUT_OF_RANGE, addr, what);
}

/*
 * Global bytes [va, va + len) for @access, on one page or two adjacent
 * ones (len is at most a warp's 32 x 32 bytes; pages are 4 KiB or more).
 */
static bool global_span(struct warp *w, uint64_t va, uint32_t len,
			int access, struct mem_span *s)
{
	uint32_t need = access_perm[access], kind;
	const struct tlb_entry *e = tlb_lookup(w, va, &kind);
	uint64_t in_first;

	if (!e || (e->perm & need) != need || va + len < va)
		return false;
	in_first = e->va + e->size - va;	/* bytes up to the page end */
	s->host[0] = e->host + (va - e->va);
	s->split = len;
	if (in_first >= len)
		return true;
	/* e may be evicted by the second lookup: its fields are copied. */
	s->split = in_first;
	e = tlb_lookup(w, va + in_first, &kind);
	if (!e || (e->perm & need) != need || e->va != va + in_first ||
	    e->size < len - in_first)
		return false;
	s->host[1] = e->host;
	return true;
}

bool mem_span(struct warp *w, int space, uint64_t addr, uint32_t len,
	      uint32_t align, int access, struct mem_span *s)
{
	struct block *b = w->blk;
	struct grid *g = b->g;

	s->stride = 0;
	if ((addr & (align - 1)) || addr + len < addr)
		return false;
	if (space == VISA_SPACE_GENERIC) {
		uint64_t last = addr + len - 1;

		space = generic_space(&addr);
		/* both ends in the same window: windows are 4 GiB, so no
		 * other window lies between them */
		if (generic_space(&last) != space)
			return false;
	}
	s->split = len;
	switch (space) {
	case VISA_SPACE_GLOBAL:
		return global_span(w, addr, len, access, s);
	case VISA_SPACE_SHARED:
		if (!in_range(addr, len, b->shared_size))
			return false;
		s->host[0] = b->shared + addr;
		return true;
	case VISA_SPACE_LOCAL:
		/* lane l's bytes are at host[0] + l * stride */
		if (!in_range(addr, len, g->local_size))
			return false;
		s->stride = g->local_size;
		s->host[0] = b->local + (size_t)w->warp_id * WARP_SIZE *
					g->local_size + addr;
		return true;
	case VISA_SPACE_CONST:
		return access == ACC_READ &&
		       in_range(addr, len, g->mod->hdr->const_size) &&
		       global_span(w, g->l->const_base + addr, len, ACC_READ, s);
	case VISA_SPACE_PARAM:
		if (access != ACC_READ || !in_range(addr, len, g->k->param_size))
			return false;
		s->host[0] = (uint8_t *)g->param_copy + addr;
		return true;
	}
	return false;
}

/* Copy bytes from a generic address (vprintf arguments). */
int mem_read_bytes(struct warp *w, uint32_t pc, int lane, uint64_t gaddr,
		   void *dst, uint32_t len)
{
	uint8_t *out = dst;

	for (uint32_t i = 0; i < len; i++) {
		const uint8_t *p = mem_resolve(w, pc, lane, VISA_SPACE_GENERIC,
					       gaddr + i, 1, ACC_READ);

		if (!p)
			return -1;
		out[i] = *p;
	}
	return 0;
}

/* Copy bytes to a global address (the printf FIFO). */
int mem_write_bytes(struct warp *w, uint32_t pc, int lane, uint64_t va,
		    const void *src, uint32_t len)
{
	const uint8_t *in = src;

	for (uint32_t i = 0; i < len; i++) {
		uint8_t *p = mem_resolve(w, pc, lane, VISA_SPACE_GLOBAL, va + i,
					 1, ACC_WRITE);

		if (!p)
			return -1;
		*p = in[i];
	}
	return 0;
}

/* Copy a NUL-terminated string (at most cap - 1 bytes are kept). */
int mem_read_string(struct warp *w, uint32_t pc, int lane, uint64_t gaddr,
		    char *dst, uint32_t cap, uint32_t *len)
{
	uint32_t n = 0;

	for (;;) {
		const char *p = mem_resolve(w, pc, lane, VISA_SPACE_GENERIC,
					    gaddr + n, 1, ACC_READ);

		if (!p)
			return -1;
		if (!*p || n + 1 >= cap)
			break;
		dst[n++] = *p;
	}
	dst[n] = 0;
	if (len)
		*len = n;
	return 0;
}
