/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem_span.h - one check for the bytes a whole warp access touches.
 *
 * The fast paths of exec_mem.c classify a warp's access as uniform (every
 * lane the same address) or contiguous (lane l at base + l * size).  Both
 * touch one span of at most 32 x 32 bytes, which memory.c checks once:
 * alignment, the generic window, bounds, and for global memory the TLB
 * and the permission of at most two pages.  A span that fails any check
 * records nothing: the caller then takes the per-lane path, which reports
 * the precise fault (first faulting lane, kind, address), so fault
 * reporting stays in one place, mem_resolve().
 */
#ifndef VGPU_CORE_MEM_SPAN_H
#define VGPU_CORE_MEM_SPAN_H

#include <stdbool.h>
#include <stdint.h>

struct warp;

/*
 * Host memory of a span [addr, addr + len): byte i is at host[0] + i for
 * i < split, at host[1] + (i - split) after (a span that crosses into the
 * next page).  For local memory, which is per thread, lane l's copy is
 * @stride bytes further per lane (stride is 0 for the other spaces).
 */
struct mem_span {
	uint8_t *host[2];
	uint64_t split;
	uint64_t stride;
};

/*
 * Check the span for @access (ACC_READ, ACC_WRITE) in @space (generic
 * included), @addr aligned to @align; true when every byte may be
 * accessed.  False records no fault.
 */
bool mem_span(struct warp *w, int space, uint64_t addr, uint32_t len,
	      uint32_t align, int access, struct mem_span *s);

#endif /* VGPU_CORE_MEM_SPAN_H */
