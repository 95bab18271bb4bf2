/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec_tex.h - the texture and surface instructions (exec_tex.c).
 */
#ifndef VGPU_EXEC_TEX_H
#define VGPU_EXEC_TEX_H

#include "core_internal.h"

int exec_tex(struct warp *w, const struct dinsn *in, uint32_t mask);

#endif /* VGPU_EXEC_TEX_H */
