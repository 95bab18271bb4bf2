// SPDX-License-Identifier: GPL-2.0
/*
 * exec_heap.c - the device heap: malloc() and free() in kernels (the
 * heap class of the opcode table: MALLOC, FREE).
 *
 * The heap is a range of the context's VRAM that the UMD allocates with
 * the size of cudaLimitMallocHeapSize when the first module that calls
 * malloc/free is loaded, and whose address and size it writes into that
 * module's descriptor (struct visa_heap_desc, operand b of MALLOC and
 * FREE).  The allocator is here, in the firmware, rather than in device
 * code: one host mutex makes it thread-safe across warps, SMs and the
 * grids of the context at once, where a vISA allocator would need a lock
 * built from atomics and spinning warps; and the firmware is what the
 * GPU is in vGPU.  All its state lives in the heap itself (in VRAM), so
 * the firmware keeps nothing per context:
 *
 *   heap VA                                               heap VA + size
 *   | header (64) | blk hdr | payload | blk hdr | payload ... | end hdr |
 *                   size|used, prev_size (16 bytes each)      size 0, used
 *
 * Blocks are contiguous: the next header is at hdr + size; prev_size
 * leads back, so free() merges a block with free neighbours on both
 * sides.  malloc is first fit from a roving pointer (the block after the
 * last allocation), which keeps a stream of allocations O(1) until the
 * heap wraps.  Payloads are 16-byte aligned, as CUDA's are.  The header
 * is formatted on first use (the UMD zeroes it).
 */
#include <pthread.h>

#include "core_internal.h"
#include "exec_heap.h"

#define HEAP_MAGIC	0x70616568u	/* "heap" */
#define HDR_SIZE	16u
#define HEAP_HDR	64u
#define USED		1ull

struct heap_header {
	uint32_t magic;
	uint32_t pad;
	uint64_t size;		/* bytes of the heap, header included */
	uint64_t rover;		/* offset of the block to try first */
	uint64_t reserved[5];
};

struct blk {
	uint64_t size_used;	/* size with header (multiple of 16) | USED */
	uint64_t prev_size;	/* size of the block before, 0: first */
};

/* One lock for every heap: allocations are short, contention is rare. */
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

struct heap {
	struct warp *w;
	uint32_t pc;
	int lane;
	uint64_t va, size;
	struct heap_header *h;
};

static struct blk *blk_at(struct heap *hp, uint64_t off)
{
	return mem_resolve(hp->w, hp->pc, hp->lane, VISA_SPACE_GLOBAL,
			   hp->va + off, HDR_SIZE, ACC_WRITE);
}

/* Read the descriptor and the heap header; format a zeroed heap. */
static int heap_open(struct heap *hp, uint64_t desc_va)
{
	const struct visa_heap_desc *d;
	struct blk *b;

	d = mem_resolve(hp->w, hp->pc, hp->lane, VISA_SPACE_GLOBAL, desc_va,
			sizeof(*d), ACC_READ);
	if (!d)
		return -1;
	hp->va = d->va;
	hp->size = d->size & ~15ull;
	if (!hp->va || hp->size < HEAP_HDR + 2 * HDR_SIZE)
		return 1;		/* no heap: every malloc fails */
	hp->h = mem_resolve(hp->w, hp->pc, hp->lane, VISA_SPACE_GLOBAL,
			    hp->va, sizeof(*hp->h), ACC_WRITE);
	if (!hp->h)
		return -1;
	if (hp->h->magic == HEAP_MAGIC && hp->h->size == hp->size)
		return 0;
	/* one free block, then the end marker */
	memset(hp->h, 0, sizeof(*hp->h));
	b = blk_at(hp, HEAP_HDR);
	if (!b)
		return -1;
	b->size_used = hp->size - HEAP_HDR - HDR_SIZE;
	b->prev_size = 0;
	b = blk_at(hp, hp->size - HDR_SIZE);
	if (!b)
		return -1;
	b->size_used = USED;
	b->prev_size = hp->size - HEAP_HDR - HDR_SIZE;
	hp->h->size = hp->size;
	hp->h->rover = HEAP_HDR;
	hp->h->magic = HEAP_MAGIC;
	return 0;
}

static int heap_corrupt(struct heap *hp, uint64_t off)
{
	core_record_fault(hp->w->blk->g, hp->w, hp->lane, hp->pc,
			  VISA_FAULT_OUT_OF_RANGE, hp->va + off,
			  "device heap corrupted (a write outside an allocation?)");
	return -1;
}

/* Offset of the payload of a new block of @want bytes, 0 if none fits. */
static int heap_alloc(struct heap *hp, uint64_t want, uint64_t *out)
{
	uint64_t need = ((want + 15) & ~15ull) + HDR_SIZE;
	uint64_t end = hp->size - HDR_SIZE, off = hp->h->rover;
	uint64_t walked = 0;

	*out = 0;
	if (want > hp->size)
		return 0;
	if (off < HEAP_HDR || off >= end || (off & 15))
		off = HEAP_HDR;
	while (walked < 2 * hp->size) {
		struct blk *b = blk_at(hp, off), *n;
		uint64_t size;

		if (!b)
			return -1;
		size = b->size_used & ~USED;
		if (off == end) {		/* the end marker: wrap */
			off = HEAP_HDR;
			walked += HDR_SIZE;
			continue;
		}
		if (size < HDR_SIZE || size & 15 || size > end - off)
			return heap_corrupt(hp, off);
		if (!(b->size_used & USED) && size >= need) {
			if (size - need >= 2 * HDR_SIZE) {	/* split */
				struct blk *r = blk_at(hp, off + need);

				if (!r)
					return -1;
				r->size_used = size - need;
				r->prev_size = need;
				n = blk_at(hp, off + size);
				if (!n)
					return -1;
				n->prev_size = size - need;
				size = need;
			}
			b = blk_at(hp, off);	/* the TLB may have moved */
			if (!b)
				return -1;
			b->size_used = size | USED;
			hp->h->rover = off + size;
			*out = off + HDR_SIZE;
			return 0;
		}
		off += size;
		walked += size;
	}
	return 0;
}

static int heap_free(struct heap *hp, uint64_t ptr)
{
	uint64_t off = ptr - hp->va - HDR_SIZE, end = hp->size - HDR_SIZE;
	uint64_t size, prev;
	struct blk *b, *n, *p;

	if (ptr < hp->va + HEAP_HDR + HDR_SIZE || ptr >= hp->va + end ||
	    (ptr & 15)) {
		core_record_fault(hp->w->blk->g, hp->w, hp->lane, hp->pc,
				  VISA_FAULT_OUT_OF_RANGE, ptr,
				  "free() of a pointer malloc() did not return");
		return -1;
	}
	b = blk_at(hp, off);
	if (!b)
		return -1;
	size = b->size_used & ~USED;
	if (!(b->size_used & USED) || size < HDR_SIZE || size & 15 ||
	    size > end - off) {
		core_record_fault(hp->w->blk->g, hp->w, hp->lane, hp->pc,
				  VISA_FAULT_OUT_OF_RANGE, ptr,
				  "free() of a pointer that is not allocated (double free?)");
		return -1;
	}
	prev = b->prev_size;
	/* merge with the next block when it is free */
	n = blk_at(hp, off + size);
	if (!n)
		return -1;
	if (!(n->size_used & USED)) {
		size += n->size_used;
		if (size > end - off)
			return heap_corrupt(hp, off);
	}
	/* and with the previous one */
	if (prev) {
		if (prev > off - HEAP_HDR || prev & 15)
			return heap_corrupt(hp, off);
		p = blk_at(hp, off - prev);
		if (!p)
			return -1;
		if (!(p->size_used & USED)) {
			off -= prev;
			size += prev;
		}
	}
	b = blk_at(hp, off);
	if (!b)
		return -1;
	b->size_used = size;
	n = blk_at(hp, off + size);
	if (!n)
		return -1;
	n->prev_size = size;
	if (hp->h->rover > off && hp->h->rover < off + size)
		hp->h->rover = off;
	return 0;
}

int exec_heap(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *a = src_row(w, in, 0, in->a);
	const uint64_t *b = src_row(w, in, 1, in->b);
	uint64_t *d = in->d != VISA_OPND_NONE ? reg_row(w, in->d) : NULL;
	int ret = EXEC_OK;

	pthread_mutex_lock(&heap_lock);
	for (int l = 0; l < WARP_SIZE && ret == EXEC_OK; l++) {
		struct heap hp = { .w = w, .pc = pc_of(w, in), .lane = l };
		uint64_t off = 0;
		int r;

		if (!((mask >> l) & 1))
			continue;
		if (in->op == VISA_OP_FREE && !a[l])
			continue;	/* free(NULL) does nothing */
		r = heap_open(&hp, b[l]);
		if (r < 0) {
			ret = EXEC_FAULT;
			break;
		}
		if (in->op == VISA_OP_MALLOC) {
			/* malloc(0) returns a block of its own, as an H100
			 * does (tools/cuda-probe/golden/probe_heap.h100.txt) */
			if (!r && heap_alloc(&hp, a[l] ? a[l] : 1, &off) < 0)
				ret = EXEC_FAULT;
			if (d)
				d[l] = off ? hp.va + off : 0;
		} else if (r) {
			core_record_fault(w->blk->g, w, l, hp.pc,
					  VISA_FAULT_OUT_OF_RANGE, a[l],
					  "free() without a device heap");
			ret = EXEC_FAULT;
		} else if (heap_free(&hp, a[l]) < 0) {
			ret = EXEC_FAULT;
		}
	}
	pthread_mutex_unlock(&heap_lock);
	return ret;
}
