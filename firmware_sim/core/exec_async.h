/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec_async.h - the async class (exec_async.c): cp.async, mbarrier,
 * cp.async.bulk, elect.sync; and the warp's queue of pending copies.
 */
#ifndef VGPU_EXEC_ASYNC_H
#define VGPU_EXEC_ASYNC_H

#include "core_internal.h"

int exec_async(struct warp *w, const struct dinsn *in, uint32_t mask);
/* A warp starts (again) with no pending copies; its queue is freed. */
void async_warp_reset(struct warp *w);
void async_warp_release(struct warp *w);
/* complete_tx(@bytes) on the mbarrier at shared offset @addr (lane @l). */
int async_complete_tx(struct warp *w, const struct dinsn *in, int l,
		      uint64_t addr, uint32_t bytes);
/* The tensor memory accelerator (exec_tma.c): VISA_OP_TMA. */
int exec_tma(struct warp *w, const struct dinsn *in, uint32_t mask);

#endif /* VGPU_EXEC_ASYNC_H */
