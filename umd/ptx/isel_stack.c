// SPDX-License-Identifier: GPL-2.0
/*
 * isel_stack.c - the dynamic stack: alloca, stacksave, stackrestore.
 *
 * nvcc 13 compiles a device alloca() (and clang a variable-length array)
 * to
 *
 *   alloca.u64        %rd2, %rd1, 16;   // %rd1 bytes, 16-byte aligned
 *   cvta.local.u64    %rd3, %rd2;       // a local address: make it generic
 *   stacksave.u64     %rd4;             // around a VLA's scope (clang)
 *   stackrestore.u64  %rd4;
 *
 * Each is one VISA_OP_STACK with its sub-operation (enum visa_stack); the
 * alignment (a power of 2 up to 2^23, 8 when absent: the ISA's minimum)
 * goes in imm.  The engine keeps the stack pointer per lane
 * (firmware_sim/core/exec_stack.c): the memory is local, above the call
 * frames, and freed when the function returns.
 */
#include "isel.h"

#define ALLOCA_MAX_ALIGN	(1u << 23)

static void check_type(struct cg *g, const struct ptx_insn *in)
{
	if (!insn_has(in, MOD_U32) && !insn_has(in, MOD_U64))
		cg_fail(g, &in->pos, "'%s' needs .u32 or .u64",
			ptx_op_name(in->op));
	ALLOW(g, in, MOD_U32, MOD_U64);
}

bool cg_select_stack(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	enum ptx_type t;
	struct visa_insn *vi;
	uint64_t align = 8;
	uint16_t a = VISA_OPND_NONE, d = VISA_OPND_NONE;
	uint32_t sub;

	switch (in->op) {
	case OP_ALLOCA:
		sub = VISA_STACK_ALLOCA;
		if (in->nops != 2 && in->nops != 3)
			cg_fail(g, &in->pos,
				"alloca takes a destination, a size and an optional alignment");
		break;
	case OP_STACKSAVE:
		sub = VISA_STACK_SAVE;
		if (in->nops != 1)
			cg_fail(g, &in->pos, "stacksave takes one destination");
		break;
	case OP_STACKRESTORE:
		sub = VISA_STACK_RESTORE;
		if (in->nops != 1)
			cg_fail(g, &in->pos, "stackrestore takes one source");
		break;
	default:
		return false;
	}
	check_type(g, in);
	t = insn_has(in, MOD_U64) ? PT_U64 : PT_U32;
	if (in->nops == 3) {
		if (in->ops[2].kind != PO_IMM)
			cg_fail(g, &in->ops[2].pos,
				"alloca's alignment must be an integer constant");
		align = in->ops[2].imm;
		if (!align || (align & (align - 1)) ||
		    align > ALLOCA_MAX_ALIGN)
			cg_fail(g, &in->ops[2].pos,
				"alloca's alignment must be a power of 2 up to 2^23, not %llu",
				(unsigned long long)align);
	}
	if (sub == VISA_STACK_RESTORE)
		a = cg_src(g, fn, &in->ops[0], t);
	else if (sub == VISA_STACK_ALLOCA)
		a = cg_src(g, fn, &in->ops[1], t);
	if (sub != VISA_STACK_RESTORE)
		d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_STACK, t == PT_U64 ? VISA_T_U64 : VISA_T_U32);
	vi->a = a;
	vi->d = d;
	vi->imm = sub == VISA_STACK_ALLOCA ? (uint32_t)align : 0;
	vi->mod = VISA_MOD_MKSUB(sub);
	return true;
}
