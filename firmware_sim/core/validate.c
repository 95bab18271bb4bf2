// SPDX-License-Identifier: GPL-2.0
/*
 * validate.c - the vISA validator.
 *
 * Every image is checked before the core decodes it, like the kernel's BPF
 * verifier checks programs: the header and every section lie inside the
 * image, every table entry refers to things that exist, and every
 * instruction names only registers, predicates and literals of its own
 * function, branches only inside its function and calls only existing
 * functions.  After this, the interpreter can index register files and
 * tables without checks; memory addresses are data and are checked when
 * used (memory.c), so no image can make the engine touch anything outside
 * what its context owns.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "core_internal.h"

struct vctx {
	const uint8_t *img;
	size_t size;
	const struct visa_image_header *h;
	char *err;
	size_t errlen;
};

static int fail(struct vctx *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct vctx *v, const char *fmt, ...)
{
	va_list ap;

	if (v->err && v->errlen) {
		va_start(ap, fmt);
		vsnprintf(v->err, v->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

_Static_assert(offsetof(struct visa_kernel, cluster_dim) ==
	       VISA_KERNEL_SIZE_MIN, "KERNELS entries grow at their end");

/* Minimum entry size of each table section (what this reader uses). */
static const uint32_t min_entsize[VISA_SEC_COUNT] = {
	[VISA_SEC_STRTAB] = 1,
	[VISA_SEC_CODE] = sizeof(struct visa_insn),
	[VISA_SEC_FUNCS] = sizeof(struct visa_func),
	[VISA_SEC_KERNELS] = VISA_KERNEL_SIZE_MIN,
	[VISA_SEC_PARAMS] = sizeof(struct visa_param),
	[VISA_SEC_LITERALS] = sizeof(uint64_t),
	[VISA_SEC_GLOBAL_INIT] = 1,
	[VISA_SEC_CONST_INIT] = 1,
	[VISA_SEC_RELOCS] = sizeof(struct visa_reloc),
	[VISA_SEC_SYMBOLS] = sizeof(struct visa_symbol),
	[VISA_SEC_LINES] = sizeof(struct visa_line),
};

static const char *const sec_names[VISA_SEC_COUNT] = {
	"STRTAB", "CODE", "FUNCS", "KERNELS", "PARAMS", "LITERALS",
	"GLOBAL_INIT", "CONST_INIT", "RELOCS", "SYMBOLS", "LINES",
};

static uint32_t sec_count(const struct vctx *v, int id)
{
	const struct visa_section *s = &v->h->sections[id];

	return s->size ? s->size / s->entsize : 0;
}

static const void *sec_entry(const struct vctx *v, int id, uint32_t i)
{
	const struct visa_section *s = &v->h->sections[id];

	return v->img + s->offset + (size_t)i * s->entsize;
}

static int check_sections(struct vctx *v)
{
	for (int i = 0; i < VISA_SEC_MAX; i++) {
		const struct visa_section *s = &v->h->sections[i];
		uint64_t end = (uint64_t)s->offset + s->size;

		if (!s->size && !s->offset)
			continue;
		if (end > v->size || s->offset < v->h->header_size)
			return fail(v, "section %d lies outside the image", i);
		if (s->offset % 8)
			return fail(v, "section %d is not 8-byte aligned", i);
		if (i >= VISA_SEC_COUNT)
			continue;	/* newer section: ignored */
		/* Entries keep their fields naturally aligned. */
		if (s->entsize < min_entsize[i] || s->size % s->entsize ||
		    (min_entsize[i] > 1 &&
		     s->entsize % (min_entsize[i] % 8 ? 4 : 8)))
			return fail(v, "section %s: bad entry size %u",
				    sec_names[i], s->entsize);
		if (s->reserved)
			return fail(v, "section %s: reserved field set",
				    sec_names[i]);
	}
	/* Sections must not overlap (a table must not alias the code). */
	for (int i = 0; i < VISA_SEC_COUNT; i++) {
		const struct visa_section *a = &v->h->sections[i];

		for (int j = i + 1; j < VISA_SEC_COUNT; j++) {
			const struct visa_section *b = &v->h->sections[j];

			if (!a->size || !b->size)
				continue;
			if (a->offset < b->offset + b->size &&
			    b->offset < a->offset + a->size)
				return fail(v, "sections %s and %s overlap",
					    sec_names[i], sec_names[j]);
		}
	}
	return 0;
}

static int check_string(struct vctx *v, uint32_t off, const char *what)
{
	const struct visa_section *s = &v->h->sections[VISA_SEC_STRTAB];

	if (off == 0 && s->size == 0)
		return 0;
	if (off >= s->size)
		return fail(v, "%s: string offset %u outside STRTAB", what,
			    off);
	return 0;
}

static int check_strtab(struct vctx *v)
{
	const struct visa_section *s = &v->h->sections[VISA_SEC_STRTAB];

	if (s->size && v->img[s->offset + s->size - 1] != 0)
		return fail(v, "STRTAB does not end with a NUL");
	return 0;
}

static int check_funcs(struct vctx *v)
{
	uint32_t ncode = sec_count(v, VISA_SEC_CODE);
	uint32_t nlit = sec_count(v, VISA_SEC_LITERALS);
	uint32_t n = sec_count(v, VISA_SEC_FUNCS);
	uint64_t covered_end = 0;

	if (!n)
		return fail(v, "image has no functions");
	for (uint32_t i = 0; i < n; i++) {
		const struct visa_func *f = sec_entry(v, VISA_SEC_FUNCS, i);

		if (check_string(v, f->name, "function name"))
			return -EINVAL;
		if (!f->code_count ||
		    (uint64_t)f->code_start + f->code_count > ncode)
			return fail(v, "function %u: code range outside CODE",
				    i);
		/* Functions are laid out in order and do not overlap. */
		if (f->code_start < covered_end)
			return fail(v, "function %u overlaps the previous one",
				    i);
		covered_end = (uint64_t)f->code_start + f->code_count;
		if ((uint64_t)f->lit_start + f->lit_count > nlit ||
		    f->lit_count > VISA_OPND_LIT)
			return fail(v, "function %u: literal range invalid", i);
		if (f->num_regs > VISA_MAX_REGS ||
		    f->num_preds > VISA_MAX_PREDS)
			return fail(v, "function %u: too many registers", i);
		if (f->frame_size > (1u << 24) || f->frame_size % 8)
			return fail(v, "function %u: bad frame size %u", i,
				    f->frame_size);
		if (f->flags & ~(VISA_FUNC_KERNEL | VISA_FUNC_RECURSIVE))
			return fail(v, "function %u: unknown flags", i);
	}
	return 0;
}

static int check_kernels(struct vctx *v)
{
	uint32_t nf = sec_count(v, VISA_SEC_FUNCS);
	uint32_t np = sec_count(v, VISA_SEC_PARAMS);
	uint32_t n = sec_count(v, VISA_SEC_KERNELS);

	for (uint32_t i = 0; i < n; i++) {
		const struct visa_kernel *k = sec_entry(v, VISA_SEC_KERNELS, i);

		if (check_string(v, k->name, "kernel name"))
			return -EINVAL;
		if (k->func >= nf)
			return fail(v, "kernel %u: function %u does not exist",
				    i, k->func);
		if ((uint64_t)k->param_first + k->param_count > np)
			return fail(v, "kernel %u: parameter range invalid", i);
		if (k->param_size > 32768)
			return fail(v, "kernel %u: parameters exceed 32 KiB", i);
		for (uint32_t p = 0; p < k->param_count; p++) {
			const struct visa_param *pr =
				sec_entry(v, VISA_SEC_PARAMS, k->param_first + p);

			if ((uint64_t)pr->offset + pr->size > k->param_size)
				return fail(v, "kernel %u: parameter %u outside"
					    " the buffer", i, p);
		}
		if (k->shared_align & (k->shared_align - 1))
			return fail(v, "kernel %u: shared_align not a power "
				    "of two", i);
	}
	return 0;
}

static int check_data(struct vctx *v)
{
	const struct visa_image_header *h = v->h;
	uint32_t n = sec_count(v, VISA_SEC_RELOCS);

	if (h->sections[VISA_SEC_GLOBAL_INIT].size > h->global_size ||
	    h->sections[VISA_SEC_CONST_INIT].size > h->const_size)
		return fail(v, "initial data larger than its segment");
	for (uint32_t i = 0; i < n; i++) {
		const struct visa_reloc *r = sec_entry(v, VISA_SEC_RELOCS, i);
		uint64_t seg = r->space == VISA_SPACE_GLOBAL ? h->global_size :
			       r->space == VISA_SPACE_CONST ? h->const_size : 0;

		if (!seg || (r->width != 4 && r->width != 8) ||
		    r->offset > seg || seg - r->offset < r->width)
			return fail(v, "relocation %u is invalid", i);
		if (r->target_space != VISA_SPACE_GLOBAL &&
		    r->target_space != VISA_SPACE_CONST &&
		    r->target_space != VISA_SPACE_FUNC)
			return fail(v, "relocation %u: bad target space", i);
	}
	n = sec_count(v, VISA_SEC_SYMBOLS);
	for (uint32_t i = 0; i < n; i++) {
		const struct visa_symbol *s = sec_entry(v, VISA_SEC_SYMBOLS, i);
		uint64_t seg = s->space == VISA_SPACE_GLOBAL ? h->global_size :
			       s->space == VISA_SPACE_CONST ? h->const_size : 0;

		if (check_string(v, s->name, "symbol name"))
			return -EINVAL;
		if (s->offset > seg || seg - s->offset < s->size)
			return fail(v, "symbol %u lies outside its segment", i);
	}
	n = sec_count(v, VISA_SEC_LINES);
	for (uint32_t i = 0; i < n; i++) {
		const struct visa_line *l = sec_entry(v, VISA_SEC_LINES, i);

		if (check_string(v, l->file, "line table file"))
			return -EINVAL;
	}
	return 0;
}

/*
 * The per-opcode rules come from the opcode table (include/vgpu_visa_ops.h)
 * through visa_op_info(): which operand slots must be present, which are
 * written, what type2 holds, what type PRED means, the largest
 * sub-operation and one extra rule (enum visa_op_check).  This file only
 * knows what each kind of rule means.
 */
static bool slot_required(const struct visa_op_info *oi, int slot)
{
	return VISA_SLOT_USE(oi->slots, slot) & VISA_USE_REQUIRED;
}

/*
 * Is a GPR slot a destination (so it cannot be a literal)?  A slot the
 * opcode does not use is checked in its usual role: d as a destination,
 * the sources as sources.
 */
static bool slot_is_dest(const struct visa_op_info *oi, int slot)
{
	unsigned int use = VISA_SLOT_USE(oi->slots, slot);

	if (!(use & VISA_USE_USED))
		return slot == VISA_SLOT_D;
	return use & VISA_USE_WRITTEN;
}

static int check_gpr(struct vctx *v, const struct visa_func *f, uint32_t pc,
		     uint16_t r, bool is_dest, const char *slot)
{
	if (r == VISA_OPND_NONE)
		return 0;
	if (r & VISA_OPND_LIT) {
		if (is_dest)
			return fail(v, "insn %u: destination %s is a literal",
				    pc, slot);
		if ((uint32_t)(r & ~VISA_OPND_LIT) >= f->lit_count)
			return fail(v, "insn %u: literal %u of %s out of range",
				    pc, r & ~VISA_OPND_LIT, slot);
		return 0;
	}
	if (r >= f->num_regs)
		return fail(v, "insn %u: register %u of %s >= %u", pc, r, slot,
			    f->num_regs);
	return 0;
}

static int check_pred(struct vctx *v, const struct visa_func *f, uint32_t pc,
		      uint16_t p, const char *slot)
{
	if (p != VISA_OPND_NONE && p >= f->num_preds)
		return fail(v, "insn %u: predicate %u of %s >= %u", pc, p, slot,
			    f->num_preds);
	return 0;
}

/* The state spaces a type2 column value allows. */
static bool valid_space(unsigned int type2, unsigned int sp)
{
	switch (type2) {
	case VISA_TYPE2_SP_READ:
		return sp <= VISA_SPACE_PARAM;
	case VISA_TYPE2_SP_WRITE:
		return sp <= VISA_SPACE_LOCAL;
	case VISA_TYPE2_SP_ATOM:
		return sp <= VISA_SPACE_SHARED;
	case VISA_TYPE2_SP_NAMED:
		return sp >= VISA_SPACE_GLOBAL && sp <= VISA_SPACE_PARAM;
	}
	return true;
}

/* Operands the table says must be there. */
static int check_required(struct vctx *v, const struct visa_op_info *oi,
			  const struct visa_insn *in, uint32_t pc)
{
	if (slot_required(oi, VISA_SLOT_D) && in->d == VISA_OPND_NONE)
		return fail(v, "insn %u: missing destination", pc);
	if ((slot_required(oi, VISA_SLOT_A) && in->a == VISA_OPND_NONE) ||
	    (slot_required(oi, VISA_SLOT_B) && in->b == VISA_OPND_NONE) ||
	    (slot_required(oi, VISA_SLOT_C) && in->c == VISA_OPND_NONE) ||
	    (slot_required(oi, VISA_SLOT_E) && in->e == VISA_OPND_NONE))
		return fail(v, "insn %u: missing source operand", pc);
	if ((slot_required(oi, VISA_SLOT_PD) && in->pd == VISA_OPND_NONE) ||
	    (slot_required(oi, VISA_SLOT_PA) && in->pa == VISA_OPND_NONE))
		return fail(v, "insn %u: missing predicate operand", pc);
	return 0;
}

/* Every operand names a register, predicate or literal of @f. */
static int check_ranges(struct vctx *v, const struct visa_op_info *oi,
			const struct visa_func *f, const struct visa_insn *in,
			uint32_t pc)
{
	if (visa_insn_pred_logic(in)) {
		bool lit_a = in->a != VISA_OPND_NONE &&
			     (in->a & VISA_OPND_LIT);

		if (check_pred(v, f, pc, in->d, "d"))
			return -EINVAL;
		/* Only mov.pred may take a literal (0 or non-zero). */
		if (lit_a && in->op != VISA_OP_MOV)
			return fail(v, "insn %u: literal predicate", pc);
		if (lit_a ? check_gpr(v, f, pc, in->a, false, "a") :
			    check_pred(v, f, pc, in->a, "a"))
			return -EINVAL;
		if (check_pred(v, f, pc, in->b, "b") ||
		    check_pred(v, f, pc, in->c, "c"))
			return -EINVAL;
	} else if (check_gpr(v, f, pc, in->d, slot_is_dest(oi, VISA_SLOT_D),
			     "d") ||
		   check_gpr(v, f, pc, in->a, slot_is_dest(oi, VISA_SLOT_A),
			     "a") ||
		   check_gpr(v, f, pc, in->b, slot_is_dest(oi, VISA_SLOT_B),
			     "b") ||
		   check_gpr(v, f, pc, in->c, slot_is_dest(oi, VISA_SLOT_C),
			     "c") ||
		   check_gpr(v, f, pc, in->e, slot_is_dest(oi, VISA_SLOT_E),
			     "e")) {
		return -EINVAL;
	}
	if (check_pred(v, f, pc, in->pd, "pd") ||
	    check_pred(v, f, pc, in->pa, "pa"))
		return -EINVAL;
	if (in->guard != VISA_OPND_NONE) {
		if ((in->guard & ~(VISA_GUARD_NEG | 0x3fffu)) ||
		    VISA_GUARD_INDEX(in->guard) >= f->num_preds)
			return fail(v, "insn %u: bad guard predicate", pc);
	}
	return 0;
}

/* Vector length and elements of LD/ST, the operation of ATOM/RED. */
static int check_memory(struct vctx *v, const struct visa_op_info *oi,
			const struct visa_insn *in, uint32_t pc)
{
	int vec = 1 << ((in->mod & VISA_MOD_VEC_MASK) >> VISA_MOD_VEC_SHIFT);
	bool is_vec_op = oi->check == VISA_CHECK_VEC_LD ||
			 oi->check == VISA_CHECK_VEC_ST;

	if (vec > 4 || (vec > 1 && !is_vec_op))
		return fail(v, "insn %u: bad vector length", pc);
	if (oi->check == VISA_CHECK_VEC_LD &&
	    ((vec >= 2 && in->b == VISA_OPND_NONE) ||
	     (vec == 4 && (in->c == VISA_OPND_NONE ||
			   in->e == VISA_OPND_NONE))))
		return fail(v, "insn %u: vector element missing", pc);
	if (oi->check == VISA_CHECK_VEC_ST &&
	    ((vec >= 2 && in->c == VISA_OPND_NONE) ||
	     (vec == 4 && (in->d == VISA_OPND_NONE ||
			   in->e == VISA_OPND_NONE))))
		return fail(v, "insn %u: vector element missing", pc);
	if (oi->check == VISA_CHECK_ATOM &&
	    (VISA_MOD_SUB(in->mod) >= VISA_ATOM_COUNT ||
	     (VISA_MOD_SUB(in->mod) == VISA_ATOM_CAS &&
	      in->c == VISA_OPND_NONE)))
		return fail(v, "insn %u: bad atomic operation", pc);
	return 0;
}

/* The rules of the table's check column that are not about memory. */
static int check_special(struct vctx *v, const struct visa_op_info *oi,
			 const struct visa_func *f, const struct visa_insn *in,
			 uint32_t pc, uint32_t nfuncs)
{
	uint32_t fend = f->code_start + f->code_count;

	if (oi->type2 == VISA_TYPE2_TYPE &&
	    (in->type2 == VISA_T_NONE || in->type2 >= VISA_T_COUNT))
		return fail(v, "insn %u: bad second type", pc);
	switch (oi->check) {
	case VISA_CHECK_SREG:
		if (in->imm >= VISA_SREG_COUNT)
			return fail(v, "insn %u: unknown special register",
				    pc);
		break;
	case VISA_CHECK_BOOL:
		if (((in->mod & VISA_MOD_BOOL_MASK) != 0) !=
		    (in->pa != VISA_OPND_NONE))
			return fail(v, "insn %u: bool op needs pa", pc);
		break;
	case VISA_CHECK_CARRY:
		if (((in->mod & VISA_MOD_CC_IN) && in->pa == VISA_OPND_NONE) ||
		    ((in->mod & VISA_MOD_CC_OUT) && in->pd == VISA_OPND_NONE))
			return fail(v, "insn %u: carry predicate missing", pc);
		break;
	case VISA_CHECK_BARRED:
		if (in->d == VISA_OPND_NONE && in->pd == VISA_OPND_NONE)
			return fail(v, "insn %u: bar.red needs a result", pc);
		break;
	case VISA_CHECK_VOTE:
		if (VISA_MOD_SUB(in->mod) == VISA_VOTE_BALLOT ?
		    in->d == VISA_OPND_NONE : in->pd == VISA_OPND_NONE)
			return fail(v, "insn %u: vote needs a result", pc);
		break;
	case VISA_CHECK_BRA: {
		uint32_t t = VISA_BRA_TARGET(in->imm);
		uint32_t r = VISA_BRA_RECONV(in->imm);

		if (t < f->code_start || t >= fend)
			return fail(v, "insn %u: branch target %u outside the "
				    "function", pc, t);
		if (r != VISA_RECONV_EXIT && (r < f->code_start || r >= fend))
			return fail(v, "insn %u: reconvergence point %u outside"
				    " the function", pc, r);
		break;
	}
	case VISA_CHECK_CALL:
		if (in->mod & VISA_MOD_INDIRECT) {
			if (in->a == VISA_OPND_NONE)
				return fail(v, "insn %u: indirect call needs a",
					    pc);
		} else if (in->imm >= nfuncs) {
			return fail(v, "insn %u: call of function %llu which "
				    "does not exist", pc,
				    (unsigned long long)in->imm);
		}
		break;
	}
	return 0;
}

static int check_insn(struct vctx *v, const struct visa_func *f, uint32_t pc,
		      uint32_t nfuncs)
{
	const struct visa_insn *in = sec_entry(v, VISA_SEC_CODE, pc);
	const struct visa_op_info *oi = visa_op_info(in->op);

	if (!oi)
		return fail(v, "insn %u: unknown opcode %u", pc, in->op);
	if (in->type >= VISA_T_COUNT)
		return fail(v, "insn %u: unknown type %u", pc, in->type);
	/* On data and arithmetic opcodes PRED is the type of predicate logic
	 * only (elsewhere, e.g. vote.pred, it is informative). */
	if (in->type == VISA_T_PRED && oi->pred == VISA_PRED_X)
		return fail(v, "insn %u: type pred on a non-logic opcode", pc);
	if (check_required(v, oi, in, pc) || check_ranges(v, oi, f, in, pc))
		return -EINVAL;

	if (oi->type2 >= VISA_TYPE2_SP_READ &&
	    !valid_space(oi->type2, in->type2))
		return fail(v, "insn %u: state space %u not allowed", pc,
			    in->type2);
	if ((oi->check == VISA_CHECK_VEC_LD || oi->check == VISA_CHECK_VEC_ST ||
	     oi->check == VISA_CHECK_ATOM) && check_memory(v, oi, in, pc))
		return -EINVAL;
	/* Sub-operation ranges (the executors index by them). */
	if (VISA_MOD_SUB(in->mod) > oi->max_sub)
		return fail(v, "insn %u: sub-operation %u out of range", pc,
			    VISA_MOD_SUB(in->mod));
	if ((in->mod & VISA_MOD_RND_MASK) > VISA_RND_RNA)
		return fail(v, "insn %u: unknown rounding mode", pc);
	return check_special(v, oi, f, in, pc, nfuncs);
}

int visa_validate(const void *image, size_t size, char *err, size_t errlen)
{
	struct vctx v = { .img = image, .size = size, .err = err,
			  .errlen = errlen };
	uint32_t nfuncs;
	int ret;

	if (!image || size < sizeof(struct visa_image_header))
		return fail(&v, "image too small for a header");
	if ((uintptr_t)image % 8)
		return fail(&v, "image buffer not 8-byte aligned");
	v.h = image;
	if (v.h->magic != VISA_MAGIC)
		return fail(&v, "bad magic 0x%08x", v.h->magic);
	if (v.h->version_major != VISA_VERSION_MAJOR)
		return fail(&v, "unsupported vISA version %u.%u",
			    v.h->version_major, v.h->version_minor);
	if (v.h->header_size < sizeof(struct visa_image_header) ||
	    v.h->header_size > size)
		return fail(&v, "bad header size %u", v.h->header_size);
	if (v.h->image_size != size)
		return fail(&v, "image size %llu does not match buffer %zu",
			    (unsigned long long)v.h->image_size, size);
	if (v.h->flags || v.h->reserved[0] || v.h->reserved[1])
		return fail(&v, "reserved header fields set");
	if (v.h->global_size > (1ull << 40) || v.h->const_size > (1ull << 32))
		return fail(&v, "segments too large");

	ret = check_sections(&v);
	if (!ret)
		ret = check_strtab(&v);
	if (!ret)
		ret = check_funcs(&v);
	if (!ret)
		ret = check_kernels(&v);
	if (!ret)
		ret = check_data(&v);
	if (ret)
		return ret;

	nfuncs = sec_count(&v, VISA_SEC_FUNCS);
	for (uint32_t i = 0; i < nfuncs; i++) {
		const struct visa_func *f = sec_entry(&v, VISA_SEC_FUNCS, i);
		const struct visa_insn *last = sec_entry(&v, VISA_SEC_CODE,
					f->code_start + f->code_count - 1);

		/* Execution can never run off the end of a function. */
		if (last->guard != VISA_OPND_NONE ||
		    (last->op != VISA_OP_BRA && last->op != VISA_OP_RET &&
		     last->op != VISA_OP_EXIT && last->op != VISA_OP_TRAP))
			return fail(&v, "function %u does not end with an "
				    "unconditional bra/ret/exit/trap", i);
		for (uint32_t pc = f->code_start;
		     pc < f->code_start + f->code_count; pc++) {
			ret = check_insn(&v, f, pc, nfuncs);
			if (ret)
				return ret;
		}
	}
	return 0;
}
