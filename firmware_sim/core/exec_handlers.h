/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec_handlers.h - the interpreter's dispatch: one handler per opcode,
 * generated in warp.c from the class column of the opcode table
 * (include/vgpu_visa_ops.h).  A second execution tier calls these for the
 * instructions it does not translate itself, so both run the same code.
 */
#ifndef VGPU_EXEC_HANDLERS_H
#define VGPU_EXEC_HANDLERS_H

#include "core_internal.h"

/* Execute @in for the lanes in @mask at @pc: returns an enum exec_status. */
typedef int (*exec_handler_fn)(struct warp *w, const struct dinsn *in,
			       uint32_t pc, uint32_t mask);

extern const exec_handler_fn exec_handlers[VISA_OP_COUNT];

#endif /* VGPU_EXEC_HANDLERS_H */
