/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec_cdp.h - the cdp class (exec_cdp.c): device-side kernel launches.
 */
#ifndef VGPU_EXEC_CDP_H
#define VGPU_EXEC_CDP_H

#include "core_internal.h"

int exec_cdp(struct warp *w, const struct dinsn *in, uint32_t pc,
	     uint32_t mask);
/*
 * The blocks of @g are done.  When it launched children (and did not
 * fault), run them and then tell @g's owner: true, and the caller must
 * not call @g->done.  False: nothing to wait for (what was recorded is
 * dropped).
 */
bool cdp_grid_end(struct vgpu_core *core, struct grid *g, bool faulted);

#endif /* VGPU_EXEC_CDP_H */
