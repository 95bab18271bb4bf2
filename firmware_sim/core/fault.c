// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - a grid's first fault: what, where, and which PTX line.
 *
 * Every part of the core that finds an error (the instruction handlers,
 * memory.c, the barriers and the call stack of warp.c, the scheduler's
 * deadlock check) records it here, and this file calls nothing above it:
 * the arrows point one way, from the instruction files down to the fault
 * record, as Lua keeps its errors in ldebug.c rather than in its
 * scheduler.  The grid's owner reads the record when the grid completes
 * (grid.c).
 */
#include <stdio.h>

#include "core_internal.h"

static const char *const fault_names[VISA_FAULT_COUNT] = {
	[VISA_FAULT_NONE] = "none",
	[VISA_FAULT_UNMAPPED] = "illegal address (unmapped)",
	[VISA_FAULT_PERMISSION] = "illegal address (permission)",
	[VISA_FAULT_MISALIGNED] = "misaligned address",
	[VISA_FAULT_OUT_OF_RANGE] = "address out of range",
	[VISA_FAULT_TRAP] = "trap",
	[VISA_FAULT_BREAKPOINT] = "breakpoint",
	[VISA_FAULT_ASSERT] = "device-side assert",
	[VISA_FAULT_BARRIER_DEADLOCK] = "barrier deadlock",
	[VISA_FAULT_STACK_OVERFLOW] = "stack overflow",
	[VISA_FAULT_INVALID_CALL] = "invalid call target",
	[VISA_FAULT_STOPPED] = "stopped",
	[VISA_FAULT_INVALID_IMAGE] = "invalid image or instruction",
	[VISA_FAULT_OUT_OF_RESOURCES] = "out of resources",
	[VISA_FAULT_TIMEOUT] = "execution time limit exceeded",
};

const char *vgpu_core_fault_name(uint32_t kind)
{
	return kind < VISA_FAULT_COUNT ? fault_names[kind] : "unknown";
}

const struct visa_line *core_find_line(const struct vgpu_module *m,
				       uint32_t pc)
{
	uint32_t lo = 0, hi = m->nlines;

	/* last entry with insn <= pc */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (m->lines[mid].insn <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &m->lines[lo - 1] : NULL;
}

static void fill_fault(struct vgpu_core_fault *f, struct grid *g,
		       const struct warp *w, int lane, uint32_t pc,
		       uint32_t kind, uint64_t addr, const char *msg)
{
	const struct visa_line *ln;

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->kernel = g->l->kernel;
	f->address = addr;
	f->pc = pc;
	if (w) {
		memcpy(f->block, w->blk->idx, sizeof(f->block));
		warp_thread_idx(w, lane, f->thread);
		ln = core_find_line(g->mod, pc);
		if (ln) {
			f->line = ln->line;
			f->column = ln->column;
			snprintf(f->file, sizeof(f->file), "%s",
				 vgpu_core_module_string(g->mod, ln->file));
		}
	}
	snprintf(f->message, sizeof(f->message), "%s", msg ? msg : "");
}

void core_record_fault(struct grid *g, const struct warp *w, int lane,
		       uint32_t pc, uint32_t kind, uint64_t addr,
		       const char *msg)
{
	int expected = 0;

	if (!atomic_compare_exchange_strong(&g->faulted, &expected, 1))
		return;		/* only the first fault is kept */
	fill_fault(&g->fault, g, w, lane, pc, kind, addr, msg);
}

bool core_record_assert(struct grid *g, const struct warp *w, int lane,
			uint32_t pc, const char *msg)
{
	int expected = 0;

	if (!atomic_compare_exchange_strong(&g->asserted, &expected, 1))
		return false;	/* only the first assert is kept */
	fill_fault(&g->assert_fault, g, w, lane, pc, VISA_FAULT_ASSERT, 0,
		   msg);
	return true;
}

int exec_bad(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "opcode %u with type %u is not supported",
		 in->op, in->type);
	core_record_fault(w->blk->g, w, __builtin_ctz(mask), pc_of(w, in),
			  VISA_FAULT_INVALID_IMAGE, 0, msg);
	return EXEC_FAULT;
}
