// SPDX-License-Identifier: GPL-2.0
/*
 * lower.c - the frame of instruction selection: registers, literals,
 * operands, addresses, calls and branches.  The per-opcode rules are in
 * isel.c; both use the helpers here.
 *
 * Registers.  Every PTX register of a function first gets its own vISA
 * register (GPR for values, predicate register for .pred), so lowering
 * never needs a move to join values; regalloc.c packs the GPRs afterwards.
 * A few scratch registers after them serve instructions that expand into
 * several vISA instructions; they never live across PTX instructions.
 *
 * Literals.  Any source operand may be a literal (vgpu_visa.h); each
 * function has a pool of distinct 64-bit values.
 *
 * Calls.  PTX passes arguments through call-site .param variables:
 *     .param .b32 param0;  st.param.b32 [param0+0], %r4;
 *     call.uni (retval0), _Z3fibi, (param0);  ld.param.b32 %r5, [retval0];
 * Before lowering a function, each such variable is bound to the slot of
 * the callee's parameter it feeds, so the st.param/ld.param around the call
 * become LOCAL accesses just past the caller's frame, where the callee's
 * frame begins.  Arguments of the runtime functions that are vISA system
 * calls (vprintf, __assertfail, malloc, free) are bound to GPRs instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codegen.h"
#include "isel.h"

void cg_fail(struct cg *g, const struct ptx_pos *pos, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ptx_fail(g->cx, VGPU_PTX_ERR_SYNTAX, pos, "%s", buf);
}

void cg_unsupported(struct cg *g, const struct ptx_pos *pos,
		    const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ptx_fail(g->cx, VGPU_PTX_ERR_UNSUPPORTED, pos, "%s", buf);
}

enum visa_type cg_vtype(enum ptx_type t)
{
	static const uint8_t map[] = {
		[PT_NONE] = VISA_T_NONE, [PT_PRED] = VISA_T_PRED,
		[PT_B8] = VISA_T_B8, [PT_B16] = VISA_T_B16,
		[PT_B32] = VISA_T_B32, [PT_B64] = VISA_T_B64,
		[PT_B128] = VISA_T_NONE,
		[PT_U8] = VISA_T_U8, [PT_U16] = VISA_T_U16,
		[PT_U32] = VISA_T_U32, [PT_U64] = VISA_T_U64,
		[PT_S8] = VISA_T_S8, [PT_S16] = VISA_T_S16,
		[PT_S32] = VISA_T_S32, [PT_S64] = VISA_T_S64,
		[PT_F16] = VISA_T_F16, [PT_F16X2] = VISA_T_F16X2,
		[PT_BF16] = VISA_T_BF16, [PT_BF16X2] = VISA_T_BF16X2,
		[PT_F32] = VISA_T_F32, [PT_F64] = VISA_T_F64,
	};
	return map[t];
}

struct visa_insn *cg_insn(struct cg_fn *fn, uint16_t op, uint8_t type)
{
	struct visa_insn in = {
		.op = op, .type = type, .guard = VISA_OPND_NONE,
		.pd = VISA_OPND_NONE, .pa = VISA_OPND_NONE,
		.d = VISA_OPND_NONE, .a = VISA_OPND_NONE,
		.b = VISA_OPND_NONE, .c = VISA_OPND_NONE,
		.e = VISA_OPND_NONE,
	};
	const struct ptx_insn *cur = fn->cur;

	/* Every vISA instruction of a guarded PTX instruction is guarded. */
	if (cur && cur->guard)
		in.guard = (uint16_t)(fn->gpr_of[cur->guard->id] |
				      (cur->guard_neg ? VISA_GUARD_NEG : 0));
	ptx_push(fn->cx, &fn->code, in);
	return &fn->code.v[fn->code.n - 1];
}

uint16_t cg_lit(struct cg *g, struct cg_fn *fn, uint64_t v)
{
	uint32_t h, i;

	if (2 * (fn->lits.n + 1) > fn->lit_hash_cap) {
		uint32_t cap = fn->lit_hash_cap ? fn->lit_hash_cap * 2 : 64;

		fn->lit_hash = ptx_alloc(g->cx, cap * sizeof(*fn->lit_hash));
		fn->lit_hash_cap = cap;
		for (i = 0; i < fn->lits.n; i++) {
			h = (uint32_t)((fn->lits.v[i] * UINT64_C(0x9e3779b97f4a7c15)) >> 40);
			while (fn->lit_hash[h & (cap - 1)])
				h++;
			fn->lit_hash[h & (cap - 1)] = i + 1;
		}
	}
	h = (uint32_t)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 40);
	for (;; h++) {
		uint32_t slot = fn->lit_hash[h & (fn->lit_hash_cap - 1)];

		if (!slot)
			break;
		if (fn->lits.v[slot - 1] == v)
			return (uint16_t)(VISA_OPND_LIT | (slot - 1));
	}
	if (fn->lits.n >= VISA_OPND_NONE - VISA_OPND_LIT)
		cg_unsupported(g, &fn->f->pos,
			       "function '%s' needs more than %u distinct literals",
			       fn->f->name, VISA_OPND_NONE - VISA_OPND_LIT);
	fn->lit_hash[h & (fn->lit_hash_cap - 1)] = fn->lits.n + 1;
	ptx_push(g->cx, &fn->lits, v);
	return (uint16_t)(VISA_OPND_LIT | (fn->lits.n - 1));
}

/*
 * Before register allocation a GPR operand may name any register below
 * VISA_OPND_LIT (the literal flag): twice what the image may use, since
 * regalloc.c packs them (and checks VISA_MAX_REGS).  Predicates are not
 * reallocated, so they must fit the image's limit from the start.
 */
#define MAX_VIRTUAL_REGS (VISA_OPND_LIT - 1u)

static void check_reg_limit(struct cg *g, struct cg_fn *fn)
{
	if (fn->num_regs > MAX_VIRTUAL_REGS)
		cg_unsupported(g, &fn->f->pos,
			       "function '%s' declares more than %u registers",
			       fn->f->name, MAX_VIRTUAL_REGS);
	if (fn->num_preds > VISA_MAX_PREDS)
		cg_unsupported(g, &fn->f->pos,
			       "function '%s' needs more than %u predicates",
			       fn->f->name, VISA_MAX_PREDS);
}

uint16_t cg_temp(struct cg *g, struct cg_fn *fn)
{
	uint16_t r = (uint16_t)fn->temp_next++;

	if (fn->temp_next > fn->num_regs) {
		fn->num_regs = fn->temp_next;
		check_reg_limit(g, fn);
	}
	return r;
}

uint16_t cg_ptemp(struct cg *g, struct cg_fn *fn)
{
	uint16_t r = (uint16_t)fn->ptemp_next++;

	if (fn->ptemp_next > fn->num_preds) {
		fn->num_preds = fn->ptemp_next;
		check_reg_limit(g, fn);
	}
	return r;
}

/* ---- operands ---------------------------------------------------------- */

static const uint8_t sreg_map[SR_COUNT_] = {
	[SR_LANEID] = VISA_SREG_LANEID, [SR_WARPID] = VISA_SREG_WARPID,
	[SR_NWARPID] = VISA_SREG_NWARPID, [SR_SMID] = VISA_SREG_SMID,
	[SR_NSMID] = VISA_SREG_NSMID, [SR_GRIDID] = VISA_SREG_GRIDID,
	[SR_CLOCK] = VISA_SREG_CLOCK, [SR_CLOCK_HI] = VISA_SREG_CLOCK_HI,
	[SR_CLOCK64] = VISA_SREG_CLOCK64,
	[SR_GLOBALTIMER] = VISA_SREG_GLOBALTIMER,
	[SR_GLOBALTIMER_LO] = VISA_SREG_GLOBALTIMER_LO,
	[SR_GLOBALTIMER_HI] = VISA_SREG_GLOBALTIMER_HI,
	[SR_LANEMASK_EQ] = VISA_SREG_LANEMASK_EQ,
	[SR_LANEMASK_LE] = VISA_SREG_LANEMASK_LE,
	[SR_LANEMASK_LT] = VISA_SREG_LANEMASK_LT,
	[SR_LANEMASK_GE] = VISA_SREG_LANEMASK_GE,
	[SR_LANEMASK_GT] = VISA_SREG_LANEMASK_GT,
	[SR_DYN_SMEM] = VISA_SREG_DYNAMIC_SMEM_SIZE,
	[SR_TOTAL_SMEM] = VISA_SREG_TOTAL_SMEM_SIZE,
};

/*
 * The reserved shared-memory registers are constants of the layout
 * (shared_layout.c).  Their values are an H100's (tools/cuda-probe/
 * golden/probe_smem.h100.txt): the region begins at the block's shared
 * offset 0, can hold cap = 1 KiB, and its used part ends after the 288
 * bytes that cooperative groups keeps its tile scratch in; _0 and _1
 * both point at its start.
 */
#define RESERVED_SMEM_END 288u
static void reserved_smem_sreg(struct cg *g, struct cg_fn *fn,
			       const struct ptx_operand *o, uint16_t d,
			       enum ptx_type t)
{
	const struct ptx_var *r = g->reserved_smem;
	struct visa_insn *in;
	uint64_t v;

	if (!r)
		cg_fail(g, &o->pos, "no reserved shared memory was laid out");
	switch (o->sreg) {
	case SR_RESERVED_SMEM_END:
		v = r->addr + RESERVED_SMEM_END;
		break;
	case SR_RESERVED_SMEM_CAP:
		v = r->size;
		break;
	default:	/* begin, _0, _1 */
		v = r->addr;
		break;
	}
	in = cg_insn(fn, VISA_OP_MOV,
		     ptx_type_size(t) == 8 ? VISA_T_U64 : VISA_T_U32);
	in->d = d;
	in->a = cg_lit(g, fn, v);
}

/* SREG of a special register operand into d. */
void cg_sreg(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
	     uint16_t d, enum ptx_type t)
{
	struct visa_insn *in;
	uint32_t idx;

	if (cg_sreg_coop(g, fn, o, d, t))	/* isel_coop.c */
		return;
	switch (o->sreg) {
	case SR_RESERVED_SMEM_BEGIN:
	case SR_RESERVED_SMEM_END:
	case SR_RESERVED_SMEM_CAP:
	case SR_RESERVED_SMEM_0:
	case SR_RESERVED_SMEM_1:
		reserved_smem_sreg(g, fn, o, d, t);
		return;
	case SR_TID:
		idx = VISA_SREG_TID_X + o->comp;
		break;
	case SR_NTID:
		idx = VISA_SREG_NTID_X + o->comp;
		break;
	case SR_CTAID:
		idx = VISA_SREG_CTAID_X + o->comp;
		break;
	case SR_NCTAID:
		idx = VISA_SREG_NCTAID_X + o->comp;
		break;
	default:
		idx = sreg_map[o->sreg];
		if (!idx && o->sreg != SR_LANEID)
			cg_unsupported(g, &o->pos,
				       "special register %s is not supported",
				       o->sym ? o->sym : "");
		break;
	}
	in = cg_insn(fn, VISA_OP_SREG,
		     ptx_type_size(t) == 8 ? VISA_T_U64 : VISA_T_U32);
	in->d = d;
	in->imm = idx;
}

struct ptx_symref cg_resolve(struct cg *g, struct cg_fn *fn,
			     const struct ptx_operand *o)
{
	struct ptx_symref r = { 0 };

	if (o->var) {
		r.var = o->var;
		return r;
	}
	return link_resolve(g->cx, fn->m, o->sym, &o->pos);
}

/* f32_bits(), f64_bits(): float to bits; f32_from_bits() ...: back. */
static uint32_t f32_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static float f32_from_bits(uint32_t b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static double f64_from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, 8);
	return d;
}

static uint64_t f64_bits(double d)
{
	uint64_t b;

	memcpy(&b, &d, 8);
	return b;
}

/* The bits of an immediate as an operand of type t reads them. */
static uint64_t imm_value(struct cg *g, const struct ptx_operand *o,
			  enum ptx_type t)
{
	if (o->kind == PO_IMM) {
		if (t == PT_F32)
			return f32_bits((float)(int64_t)o->imm);
		if (t == PT_F64)
			return f64_bits((double)(int64_t)o->imm);
		if (ptx_type_class(t) == TC_FLOAT)
			cg_unsupported(g, &o->pos,
				       "integer immediate for a .%s operand",
				       ptx_type_name(t));
		return o->imm;
	}
	/* PO_FIMM */
	if (t == PT_F32 || t == PT_B32 || t == PT_U32 || t == PT_S32)
		return o->is_f32 ? o->imm :
		       f32_bits((float)f64_from_bits(o->imm));
	if (t == PT_F64 || t == PT_B64 || t == PT_U64 || t == PT_S64)
		return o->is_f32 ?
		       f64_bits((double)f32_from_bits((uint32_t)o->imm)) :
		       o->imm;
	cg_unsupported(g, &o->pos, "floating-point immediate for a .%s operand",
		       ptx_type_name(t));
}

/* Address of a variable (its offset plus off) into a new register. */
uint16_t cg_var_address(struct cg *g, struct cg_fn *fn,
			const struct ptx_var *v, int64_t off,
			const struct ptx_pos *pos, enum ptx_type t)
{
	uint16_t d = cg_temp(g, fn);

	cg_var_address_to(g, fn, v, off, pos, t, d);
	return d;
}

void cg_var_address_to(struct cg *g, struct cg_fn *fn,
		       const struct ptx_var *v, int64_t off,
		       const struct ptx_pos *pos, enum ptx_type t, uint16_t d)
{
	struct visa_insn *in;
	uint8_t space;
	uint64_t base = v->addr;

	switch (v->space) {
	case PS_GLOBAL:
		space = VISA_SPACE_GLOBAL;
		break;
	case PS_CONST:
		space = VISA_SPACE_CONST;
		break;
	case PS_SHARED:
		space = VISA_SPACE_SHARED;
		break;
	case PS_LOCAL:
		space = VISA_SPACE_LOCAL;
		break;
	case PS_PARAM:
		if (v->callee || v->builtin_arg)
			cg_unsupported(g, pos,
				       "taking the address of call parameter '%s'",
				       v->name);
		space = fn->f->is_entry ? VISA_SPACE_PARAM : VISA_SPACE_LOCAL;
		break;
	default:
		cg_fail(g, pos, "'%s' has no address", v->name);
	}
	if (!v->laid_out)
		cg_fail(g, pos, "'%s' has no address", v->name);
	if (v->space == PS_SHARED && v->unsized)
		fn->uses_dyn_shared = true;
	in = cg_insn(fn, VISA_OP_MOVA,
		     ptx_type_size(t) == 4 ? VISA_T_U32 : VISA_T_U64);
	in->type2 = space;
	in->d = d;
	in->imm = base + (uint64_t)off;
}

uint16_t cg_src(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		enum ptx_type t)
{
	switch (o->kind) {
	case PO_REG:
		if (o->neg)
			cg_fail(g, &o->pos, "'!' is only allowed on predicate operands");
		if ((o->reg->type == PT_PRED) != (t == PT_PRED))
			cg_fail(g, &o->pos, "'%s' is %sa predicate register here",
				o->reg->name, t == PT_PRED ? "not " : "");
		return fn->gpr_of[o->reg->id];
	case PO_IMM:
	case PO_FIMM:
		if (t == PT_PRED)
			cg_fail(g, &o->pos, "expected a predicate register");
		return cg_lit(g, fn, imm_value(g, o, t));
	case PO_SREG: {
		uint16_t d = cg_temp(g, fn);

		cg_sreg(g, fn, o, d, t);
		return d;
	}
	case PO_SYM: {
		struct ptx_symref r;

		if (!strcmp(o->sym, "WARP_SZ"))
			return cg_lit(g, fn, 32);
		r = cg_resolve(g, fn, o);
		if (r.is_func) {
			if (!r.func->has_body)
				cg_unsupported(g, &o->pos,
					       "the address of runtime function '%s'",
					       o->sym);
			r.func->addr_taken = true;
			return cg_lit(g, fn, VISA_FUNCPTR_BASE + r.func->index);
		}
		return cg_var_address(g, fn, r.var, o->off, &o->pos, t);
	}
	default:
		cg_fail(g, &o->pos, "expected a register or an immediate");
	}
}

uint16_t cg_dst(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o)
{
	if (o->kind == PO_SINK)
		return cg_temp(g, fn);
	if (o->kind != PO_REG || o->neg)
		cg_fail(g, &o->pos, "the destination must be a register");
	if (o->reg->type == PT_PRED)
		cg_fail(g, &o->pos, "'%s' is a predicate register here",
			o->reg->name);
	return fn->gpr_of[o->reg->id];
}

uint16_t cg_pdst(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o)
{
	if (o->kind == PO_SINK)
		return cg_ptemp(g, fn);
	if (o->kind != PO_REG || o->reg->type != PT_PRED || o->neg)
		cg_fail(g, &o->pos, "the destination must be a predicate register");
	return fn->gpr_of[o->reg->id];
}

/* A predicate source; !%p becomes a NOT into a scratch predicate. */
uint16_t cg_psrc(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o)
{
	uint16_t p;
	struct visa_insn *in;

	if (o->kind == PO_IMM) {
		/* A constant predicate (nvcc writes -1 for true): SETP of
		 * two equal or unequal literals. */
		p = cg_ptemp(g, fn);
		in = cg_insn(fn, VISA_OP_SETP, VISA_T_U32);
		in->mod = VISA_MOD_MKSUB(o->imm ? VISA_CMP_EQ : VISA_CMP_NE);
		in->pd = p;
		in->a = in->b = cg_lit(g, fn, 0);
		return p;
	}
	if (o->kind != PO_REG || o->reg->type != PT_PRED)
		cg_fail(g, &o->pos, "expected a predicate register");
	p = fn->gpr_of[o->reg->id];
	if (!o->neg)
		return p;
	in = cg_insn(fn, VISA_OP_NOT, VISA_T_PRED);
	in->d = cg_ptemp(g, fn);
	in->a = p;
	return in->d;
}

/* ---- memory addresses ---------------------------------------------------- */

uint8_t cg_visa_space(enum ptx_space s)
{
	switch (s) {
	case PS_GLOBAL:
		return VISA_SPACE_GLOBAL;
	case PS_SHARED:
		return VISA_SPACE_SHARED;
	case PS_LOCAL:
		return VISA_SPACE_LOCAL;
	case PS_CONST:
		return VISA_SPACE_CONST;
	case PS_PARAM:
		return VISA_SPACE_PARAM;
	default:
		return VISA_SPACE_GENERIC;
	}
}

/*
 * Turn an address operand of an access in space sp into base register a,
 * immediate offset and vISA space.  Call-site .param variables bound to
 * system-call registers are reported through *argv (NULL otherwise).
 */
void cg_address(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		enum ptx_space sp, struct cg_addr *out)
{
	const struct ptx_var *v;
	struct ptx_symref r;

	memset(out, 0, sizeof(*out));
	out->a = VISA_OPND_NONE;
	out->space = cg_visa_space(sp);
	if (o->kind != PO_ADDR)
		cg_fail(g, &o->pos, "expected an address in [brackets]");
	out->imm = (uint64_t)o->off;
	if (o->reg) {
		if (o->reg->type == PT_PRED)
			cg_fail(g, &o->pos, "a predicate cannot be an address");
		out->a = fn->gpr_of[o->reg->id];
		if (sp == PS_PARAM && !fn->f->is_entry)
			cg_unsupported(g, &o->pos,
				       "ld.param through a register outside a kernel");
		return;
	}
	if (!o->sym) {
		if (sp == PS_PARAM)
			cg_fail(g, &o->pos, "a .param access needs a parameter name");
		return;
	}
	r = cg_resolve(g, fn, o);
	if (r.is_func)
		cg_fail(g, &o->pos, "'%s' is a function, not a variable", o->sym);
	v = r.var;
	if (sp != PS_GENERIC && sp != v->space)
		cg_fail(g, &o->pos, "'%s' is in .%s space, not .%s", v->name,
			ptx_space_name(v->space), ptx_space_name(sp));
	if (o->off < 0 || (uint64_t)o->off >= (v->size ? v->size : UINT64_MAX))
		cg_fail(g, &o->pos, "offset %lld is outside '%s' (%llu bytes)",
			(long long)o->off, v->name,
			(unsigned long long)v->size);
	out->var = v;
	switch (v->space) {
	case PS_PARAM:
		if (v->builtin_arg) {
			out->argreg = true;
			out->a = v->arg_reg;
			return;
		}
		if (v->callee) {	/* just past our frame: the callee's */
			out->space = VISA_SPACE_LOCAL;
			out->imm = fn->f->frame_size + v->slot + (uint64_t)o->off;
			return;
		}
		if (!v->laid_out)
			cg_fail(g, &o->pos, "parameter '%s' is not passed to any call",
				v->name);
		out->space = fn->f->is_entry ? VISA_SPACE_PARAM : VISA_SPACE_LOCAL;
		out->imm = v->addr + (uint64_t)o->off;
		return;
	case PS_GLOBAL:
		/* The global segment's VA is known only at load: MOVA it. */
		out->space = VISA_SPACE_GLOBAL;
		out->a = cg_var_address(g, fn, v, 0, &o->pos, PT_U64);
		return;
	default:
		if (!v->laid_out)
			cg_fail(g, &o->pos, "'%s' has no address", v->name);
		if (v->space == PS_SHARED && v->unsized)
			fn->uses_dyn_shared = true;
		out->space = cg_visa_space(v->space);
		out->imm = v->addr + (uint64_t)o->off;
		return;
	}
}

/* ---- calls ----------------------------------------------------------- */

struct call_parts {
	const struct ptx_operand *rets;		/* PO_LIST or NULL */
	const struct ptx_operand *target;	/* PO_SYM, or PO_REG: indirect */
	const struct ptx_operand *args;		/* PO_LIST or NULL */
	struct ptx_func *proto;			/* indirect: .callprototype */
};

/* call [(rets),] target [, (args)] [, prototype] */
static void split_call(struct cg *g, const struct cg_fn *fn,
		       const struct ptx_insn *in, struct call_parts *c)
{
	uint32_t i = 0;

	memset(c, 0, sizeof(*c));
	if (i < in->nops && in->ops[i].kind == PO_LIST)
		c->rets = &in->ops[i++];
	if (i >= in->nops)
		cg_fail(g, &in->pos, "call needs a target");
	c->target = &in->ops[i++];
	if (c->target->kind != PO_SYM && c->target->kind != PO_REG)
		cg_fail(g, &c->target->pos, "expected a function name or register");
	if (i < in->nops && in->ops[i].kind == PO_LIST)
		c->args = &in->ops[i++];
	if (i < in->nops && in->ops[i].kind == PO_SYM && c->target->kind == PO_REG) {
		c->proto = ptx_map_get(&fn->f->protos, in->ops[i].sym);
		if (!c->proto)
			cg_fail(g, &in->ops[i].pos, "'%s' is not a .callprototype",
				in->ops[i].sym);
		i++;
	}
	if (i < in->nops)
		cg_fail(g, &in->ops[i].pos, "unexpected operand after the call arguments");
	if (c->target->kind == PO_REG && !c->proto)
		cg_fail(g, &c->target->pos, "an indirect call needs a .callprototype");
	if (c->target->kind == PO_REG && c->target->reg->type == PT_PRED)
		cg_fail(g, &c->target->pos, "a predicate cannot be a call target");
}

/* The function (or prototype) a call's arguments are laid out for. */
static struct ptx_func *call_callee(struct cg *g, struct cg_fn *fn,
				    const struct call_parts *c)
{
	struct ptx_symref r;

	if (c->proto)
		return c->proto;
	r = cg_resolve(g, fn, c->target);
	if (!r.is_func)
		cg_fail(g, &c->target->pos, "'%s' is not a function",
			c->target->sym);
	return r.func;
}

static struct ptx_var *call_param(struct cg *g, const struct ptx_operand *o)
{
	if (o->kind != PO_SYM || !o->var || o->var->space != PS_PARAM)
		cg_fail(g, &o->pos,
			"call arguments must be .param variables declared in the calling function");
	if (o->var->callee || o->var->builtin_arg)
		cg_unsupported(g, &o->pos, "'%s' is passed to more than one call",
			       o->var->name);
	return o->var;
}

/* Bind every call-site parameter of fn to its callee slot (see top). */
static void bind_call_params(struct cg *g, struct cg_fn *fn)
{
	uint32_t s, i;

	for (s = 0; s < fn->f->stmts.n; s++) {
		const struct ptx_stmt *st = &fn->f->stmts.v[s];
		struct call_parts c;
		const struct ptx_func *callee;
		uint32_t nargs, nrets;

		if (st->kind != ST_INSN || st->insn->op != OP_CALL)
			continue;
		split_call(g, fn, st->insn, &c);
		callee = call_callee(g, fn, &c);
		nargs = c.args ? c.args->nelems : 0;
		nrets = c.rets ? c.rets->nelems : 0;
		if (nargs != callee->params.n || nrets != callee->rets.n)
			cg_fail(g, &c.target->pos,
				"call to '%s' passes %u argument(s) and %u result(s); it takes %u and %u",
				callee->name, nargs, nrets, callee->params.n,
				callee->rets.n);
		for (i = 0; i < nargs + nrets; i++) {
			bool is_ret = i >= nargs;
			const struct ptx_operand *o = is_ret ?
				&c.rets->elems[i - nargs] : &c.args->elems[i];
			struct ptx_var *v = call_param(g, o);
			const struct ptx_var *slot = is_ret ?
				callee->rets.v[i - nargs] : callee->params.v[i];

			if (v->size > slot->size)
				cg_fail(g, &o->pos, "'%s' (%llu bytes) does not fit parameter '%s' of '%s'",
					v->name, (unsigned long long)v->size,
					slot->name, callee->name);
			if (!callee->has_body && !callee->is_proto) {
				/* a vISA system call */
				v->builtin_arg = true;
				v->arg_reg = (uint16_t)fn->num_regs++;
			} else {
				v->callee = (struct ptx_func *)callee;
				v->slot = (uint32_t)slot->addr;
			}
		}
	}
	check_reg_limit(g, fn);
}

static uint16_t builtin_reg(struct cg *g, struct cg_fn *fn,
			    const struct ptx_operand *list, uint32_t i)
{
	if (!list || i >= list->nelems)
		return cg_lit(g, fn, 0);
	return list->elems[i].var->arg_reg;
}

void cg_lower_call(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		   bool uni)
{
	struct call_parts c;
	struct ptx_symref r = { 0 };
	struct visa_insn *vi;
	uint32_t i;

	split_call(g, fn, in, &c);
	if (c.proto) {
		/* The target is VISA_FUNCPTR_BASE + index, checked at run time. */
		uint16_t a = cg_src(g, fn, c.target, PT_U64);

		vi = cg_insn(fn, VISA_OP_CALL, VISA_T_NONE);
		vi->a = a;
		vi->mod = VISA_MOD_INDIRECT | (uni ? VISA_MOD_UNIFORM : 0);
		fn->has_indirect = true;
		return;
	}
	r.func = call_callee(g, fn, &c);
	if (r.func->has_body) {
		vi = cg_insn(fn, VISA_OP_CALL, VISA_T_NONE);
		vi->imm = r.func->index;
		vi->mod = uni ? VISA_MOD_UNIFORM : 0;
		for (i = 0; i < fn->callees.n; i++)
			if (fn->callees.v[i] == r.func)
				return;
		ptx_push(g->cx, &fn->callees, r.func);
		return;
	}
	if (!strcmp(r.func->name, "vprintf")) {
		vi = cg_insn(fn, VISA_OP_VPRINTF, VISA_T_U32);
		vi->d = c.rets ? c.rets->elems[0].var->arg_reg : cg_temp(g, fn);
		vi->a = builtin_reg(g, fn, c.args, 0);
		vi->b = builtin_reg(g, fn, c.args, 1);
		fn->uses_printf = true;
		return;
	}
	if (!strcmp(r.func->name, "__assertfail")) {
		vi = cg_insn(fn, VISA_OP_ASSERTFAIL, VISA_T_NONE);
		vi->a = builtin_reg(g, fn, c.args, 0);
		vi->b = builtin_reg(g, fn, c.args, 1);
		vi->c = builtin_reg(g, fn, c.args, 2);
		vi->e = builtin_reg(g, fn, c.args, 3);
		fn->uses_assert = true;
		return;
	}
	if (!strcmp(r.func->name, "malloc") || !strcmp(r.func->name, "free")) {
		/* the device heap: operand b is its descriptor (layout.c) */
		uint16_t desc = cg_var_address(g, fn, g->heap_desc, 0,
					       &c.target->pos, PT_U64);
		bool is_malloc = r.func->name[0] == 'm';

		vi = cg_insn(fn, is_malloc ? VISA_OP_MALLOC : VISA_OP_FREE,
			     VISA_T_U64);
		if (is_malloc)
			vi->d = c.rets ? c.rets->elems[0].var->arg_reg :
					 cg_temp(g, fn);
		vi->a = builtin_reg(g, fn, c.args, 0);
		vi->b = desc;
		fn->uses_heap = true;
		return;
	}
	if (cg_lower_cdp(g, fn, r.func->name,
			 c.rets ? c.rets->elems[0].var->arg_reg :
				  cg_temp(g, fn),
			 builtin_reg(g, fn, c.args, 0),
			 builtin_reg(g, fn, c.args, 1)))
		return;
	cg_unsupported(g, &c.target->pos,
		       "device-side %s() is not supported", r.func->name);
}

/* ---- branches ----------------------------------------------------------- */

void cg_lower_branch(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     bool uni)
{
	struct ptx_label *l;
	struct visa_insn *vi;

	if (in->nops != 1 || in->ops[0].kind != PO_SYM)
		cg_fail(g, &in->pos, "bra needs one label operand");
	l = ptx_map_get(&fn->f->labels, in->ops[0].sym);
	if (!l)
		cg_fail(g, &in->ops[0].pos, "unknown label '%s'", in->ops[0].sym);
	vi = cg_insn(fn, VISA_OP_BRA, VISA_T_NONE);
	vi->mod = uni ? VISA_MOD_UNIFORM : 0;
	ptx_push(g->cx, &fn->fixups,
		 ((struct cg_fixup){ fn->code.n - 1, l }));
}

/* ---- the function ------------------------------------------------------- */

static void add_line(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     uint32_t first)
{
	struct cg_line l = { .insn = first };
	const struct ptx_module *m = fn->m;

	if (g->cx->opts.flags & VGPU_PTX_F_NO_LINE_INFO)
		return;
	/* The CUDA source line from .loc, else the PTX line itself. */
	if (in->line_info) {
		l.file = in->file_info < m->files.n && m->files.v[in->file_info] ?
			 m->files.v[in->file_info] : "";
		l.line = in->line_info;
		l.column = in->col_info;
	} else {
		l.file = g->cx->srcs[in->pos.src].name ?
			 g->cx->srcs[in->pos.src].name : "<ptx>";
		l.line = in->pos.line;
		l.column = in->pos.col;
	}
	if (fn->lines.n) {
		const struct cg_line *last = &fn->lines.v[fn->lines.n - 1];

		if (last->line == l.line && last->file == l.file)
			return;
	}
	ptx_push(g->cx, &fn->lines, l);
}

static void assign_registers(struct cg *g, struct cg_fn *fn)
{
	uint32_t i;

	fn->gpr_of = ptx_alloc(g->cx, (fn->f->regs.n + 1) * sizeof(uint16_t));
	for (i = 0; i < fn->f->regs.n; i++) {
		const struct ptx_reg *r = fn->f->regs.v[i];

		if (r->type == PT_PRED)
			fn->gpr_of[i] = (uint16_t)fn->num_preds++;
		else
			fn->gpr_of[i] = (uint16_t)fn->num_regs++;
		check_reg_limit(g, fn);
	}
	fn->cc_pred = (uint16_t)fn->num_preds++;
}

void cg_lower_function(struct cg *g, struct cg_fn *fn)
{
	struct ptx_func *f = fn->f;
	uint32_t s, i;

	fn->m = &g->prog->mods[f->module];
	assign_registers(g, fn);
	bind_call_params(g, fn);
	fn->temp_base = fn->num_regs;
	fn->ptemp_base = fn->num_preds;
	for (s = 0; s < f->stmts.n; s++) {
		const struct ptx_stmt *st = &f->stmts.v[s];
		uint32_t first = fn->code.n;

		if (st->kind == ST_LABEL) {
			st->label->target = fn->code.n;
			continue;
		}
		fn->cur = st->insn;
		fn->temp_next = fn->temp_base;
		fn->ptemp_next = fn->ptemp_base;
		cg_select(g, fn, st->insn);
		if (fn->code.n > first)
			add_line(g, fn, st->insn, first);
	}
	fn->cur = NULL;
	/* Falling off the end of a function returns (kernels: exits). */
	cg_insn(fn, f->is_entry ? VISA_OP_EXIT : VISA_OP_RET, VISA_T_NONE);
	for (i = 0; i < fn->fixups.n; i++) {
		uint32_t t = fn->fixups.v[i].label->target;

		fn->code.v[fn->fixups.v[i].insn].imm =
			VISA_BRA_IMM(t, VISA_RECONV_EXIT);
	}
	cg_set_reconvergence(g, fn);
	cg_allocate_registers(g, fn);
}
