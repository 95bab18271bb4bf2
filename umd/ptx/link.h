/* SPDX-License-Identifier: GPL-2.0 */
/*
 * link.h - the linked program: all modules of one compilation.
 */
#ifndef VGPU_PTX_LINK_H
#define VGPU_PTX_LINK_H

#include "ptx_internal.h"

struct ptx_program {
	struct ptx_module *mods;
	uint32_t nmods;
	struct ptx_map exports;		/* external name -> ptx_symref */
};

/* Bind every declaration to its definition; fail on conflicts. */
void ptx_link(struct ptx_ctx *cx, struct ptx_program *prog);

/* The definition a name used in module m stands for (fails if none). */
struct ptx_symref link_resolve(struct ptx_ctx *cx, const struct ptx_module *m,
			       const char *name, const struct ptx_pos *pos);

/* vprintf, __assertfail, malloc, free: provided by the device runtime. */
bool link_is_builtin(const char *name);

#endif /* VGPU_PTX_LINK_H */
