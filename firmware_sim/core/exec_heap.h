/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec_heap.h - the heap class (exec_heap.c): device malloc and free.
 */
#ifndef VGPU_EXEC_HEAP_H
#define VGPU_EXEC_HEAP_H

#include "core_internal.h"

int exec_heap(struct warp *w, const struct dinsn *in, uint32_t mask);

#endif /* VGPU_EXEC_HEAP_H */
