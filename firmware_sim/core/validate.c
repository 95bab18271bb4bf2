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

/* Minimum entry size of each table section (what this reader uses). */
static const uint32_t min_entsize[VISA_SEC_COUNT] = {
	[VISA_SEC_STRTAB] = 1,
	[VISA_SEC_CODE] = sizeof(struct visa_insn),
	[VISA_SEC_FUNCS] = sizeof(struct visa_func),
	[VISA_SEC_KERNELS] = sizeof(struct visa_kernel),
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

/* Operand requirements per opcode. */
enum {
	R_D = 1 << 0, R_A = 1 << 1, R_B = 1 << 2, R_C = 1 << 3, R_E = 1 << 4,
	R_PD = 1 << 5, R_PA = 1 << 6,
};

static const uint8_t required[VISA_OP_COUNT] = {
	[VISA_OP_MOV] = R_D | R_A, [VISA_OP_SREG] = R_D, [VISA_OP_MOVA] = R_D,
	[VISA_OP_CVT] = R_D | R_A, [VISA_OP_CVTA] = R_D | R_A,
	[VISA_OP_PACK] = R_D | R_A | R_B,
	[VISA_OP_SELP] = R_D | R_A | R_B | R_PA,
	[VISA_OP_SLCT] = R_D | R_A | R_B | R_C,
	[VISA_OP_ADD] = R_D | R_A | R_B, [VISA_OP_SUB] = R_D | R_A | R_B,
	[VISA_OP_MUL] = R_D | R_A | R_B, [VISA_OP_MULHI] = R_D | R_A | R_B,
	[VISA_OP_MULWIDE] = R_D | R_A | R_B,
	[VISA_OP_MAD] = R_D | R_A | R_B | R_C,
	[VISA_OP_MADHI] = R_D | R_A | R_B | R_C,
	[VISA_OP_MADWIDE] = R_D | R_A | R_B | R_C,
	[VISA_OP_ADDC] = R_D | R_A | R_B, [VISA_OP_SUBC] = R_D | R_A | R_B,
	[VISA_OP_FMA] = R_D | R_A | R_B | R_C,
	[VISA_OP_DIV] = R_D | R_A | R_B, [VISA_OP_REM] = R_D | R_A | R_B,
	[VISA_OP_ABS] = R_D | R_A, [VISA_OP_NEG] = R_D | R_A,
	[VISA_OP_MIN] = R_D | R_A | R_B, [VISA_OP_MAX] = R_D | R_A | R_B,
	[VISA_OP_SAD] = R_D | R_A | R_B | R_C,
	[VISA_OP_RCP] = R_D | R_A, [VISA_OP_SQRT] = R_D | R_A,
	[VISA_OP_RSQRT] = R_D | R_A, [VISA_OP_SIN] = R_D | R_A,
	[VISA_OP_COS] = R_D | R_A, [VISA_OP_LG2] = R_D | R_A,
	[VISA_OP_EX2] = R_D | R_A, [VISA_OP_TANH] = R_D | R_A,
	[VISA_OP_COPYSIGN] = R_D | R_A | R_B, [VISA_OP_TESTP] = R_PD | R_A,
	[VISA_OP_DP4A] = R_D | R_A | R_B | R_C,
	[VISA_OP_DP2A] = R_D | R_A | R_B | R_C,
	[VISA_OP_AND] = R_D | R_A | R_B, [VISA_OP_OR] = R_D | R_A | R_B,
	[VISA_OP_XOR] = R_D | R_A | R_B, [VISA_OP_NOT] = R_D | R_A,
	[VISA_OP_CNOT] = R_D | R_A, [VISA_OP_SHL] = R_D | R_A | R_B,
	[VISA_OP_SHR] = R_D | R_A | R_B,
	[VISA_OP_BFE] = R_D | R_A | R_B | R_C,
	[VISA_OP_BFI] = R_D | R_A | R_B | R_C | R_E,
	[VISA_OP_BREV] = R_D | R_A, [VISA_OP_POPC] = R_D | R_A,
	[VISA_OP_CLZ] = R_D | R_A, [VISA_OP_BFIND] = R_D | R_A,
	[VISA_OP_FNS] = R_D | R_A | R_B | R_C,
	[VISA_OP_PRMT] = R_D | R_A | R_B | R_C,
	[VISA_OP_SHF] = R_D | R_A | R_B | R_C,
	[VISA_OP_LOP3] = R_D | R_A | R_B | R_C,
	[VISA_OP_SETP] = R_PD | R_A | R_B, [VISA_OP_SET] = R_D | R_A | R_B,
	[VISA_OP_LD] = R_D, [VISA_OP_ST] = R_B,
	[VISA_OP_ATOM] = R_D | R_B, [VISA_OP_RED] = R_B,
	[VISA_OP_BAR] = R_A, [VISA_OP_BAR_ARRIVE] = R_A,
	[VISA_OP_BAR_RED] = R_A | R_PA,
	[VISA_OP_SHFL] = R_D | R_A | R_B | R_C | R_E,
	[VISA_OP_VOTE] = R_PA | R_E, [VISA_OP_MATCH] = R_D | R_A | R_E,
	[VISA_OP_REDUX] = R_D | R_A | R_E, [VISA_OP_ACTIVEMASK] = R_D,
	[VISA_OP_WARPSYNC] = R_E, [VISA_OP_NANOSLEEP] = R_A,
	[VISA_OP_VPRINTF] = R_A | R_B,
	[VISA_OP_ASSERTFAIL] = R_A | R_B | R_C | R_E,
};

static bool is_mem_op(unsigned int op)
{
	return op == VISA_OP_LD || op == VISA_OP_ST || op == VISA_OP_ATOM ||
	       op == VISA_OP_RED;
}

/* Predicate-typed logic: d, a, b name predicates, not GPRs. */
static bool pred_logic(const struct visa_insn *in)
{
	return in->type == VISA_T_PRED &&
	       (in->op == VISA_OP_MOV || in->op == VISA_OP_AND ||
		in->op == VISA_OP_OR || in->op == VISA_OP_XOR ||
		in->op == VISA_OP_NOT);
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

static bool valid_space(unsigned int op, unsigned int sp)
{
	switch (op) {
	case VISA_OP_LD:
		return sp <= VISA_SPACE_PARAM;
	case VISA_OP_ST:
		return sp <= VISA_SPACE_LOCAL;
	case VISA_OP_ATOM:
	case VISA_OP_RED:
		return sp <= VISA_SPACE_SHARED;
	case VISA_OP_MOVA:
		return sp >= VISA_SPACE_GLOBAL && sp <= VISA_SPACE_PARAM;
	case VISA_OP_CVTA:
		return sp >= VISA_SPACE_GLOBAL && sp <= VISA_SPACE_PARAM;
	}
	return true;
}

static int check_insn(struct vctx *v, const struct visa_func *f, uint32_t pc,
		      uint32_t nfuncs)
{
	const struct visa_insn *in = sec_entry(v, VISA_SEC_CODE, pc);
	uint8_t req;
	uint32_t fend = f->code_start + f->code_count;
	int vec = 1 << ((in->mod & VISA_MOD_VEC_MASK) >> VISA_MOD_VEC_SHIFT);

	if (in->op >= VISA_OP_COUNT)
		return fail(v, "insn %u: unknown opcode %u", pc, in->op);
	if (in->type >= VISA_T_COUNT)
		return fail(v, "insn %u: unknown type %u", pc, in->type);
	req = required[in->op];
	/* On data and arithmetic opcodes PRED is the type of predicate logic
	 * only (elsewhere, e.g. vote.pred, it is informative). */
	if (in->type == VISA_T_PRED && !pred_logic(in) &&
	    in->op >= VISA_OP_PACK && in->op <= VISA_OP_LOP3)
		return fail(v, "insn %u: type pred on a non-logic opcode", pc);

	if ((req & R_D) && in->d == VISA_OPND_NONE &&
	    !(in->op == VISA_OP_ATOM))
		return fail(v, "insn %u: missing destination", pc);
	if (((req & R_A) && in->a == VISA_OPND_NONE) ||
	    ((req & R_B) && in->b == VISA_OPND_NONE) ||
	    ((req & R_C) && in->c == VISA_OPND_NONE) ||
	    ((req & R_E) && in->e == VISA_OPND_NONE))
		return fail(v, "insn %u: missing source operand", pc);
	if (((req & R_PD) && in->pd == VISA_OPND_NONE) ||
	    ((req & R_PA) && in->pa == VISA_OPND_NONE))
		return fail(v, "insn %u: missing predicate operand", pc);

	/* Operand ranges. */
	if (pred_logic(in)) {
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
	} else {
		bool st = in->op == VISA_OP_ST;

		if (check_gpr(v, f, pc, in->d, !st, "d") ||
		    check_gpr(v, f, pc, in->a, false, "a") ||
		    check_gpr(v, f, pc, in->b, in->op == VISA_OP_LD, "b") ||
		    check_gpr(v, f, pc, in->c, in->op == VISA_OP_LD, "c") ||
		    check_gpr(v, f, pc, in->e, in->op == VISA_OP_LD, "e"))
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

	/* Opcode-specific fields. */
	if (is_mem_op(in->op) || in->op == VISA_OP_MOVA ||
	    in->op == VISA_OP_CVTA) {
		if (!valid_space(in->op, in->type2))
			return fail(v, "insn %u: state space %u not allowed",
				    pc, in->type2);
	}
	if (is_mem_op(in->op)) {
		if (vec > 4 || (vec > 1 && in->op != VISA_OP_LD &&
				in->op != VISA_OP_ST))
			return fail(v, "insn %u: bad vector length", pc);
		if (in->op == VISA_OP_LD &&
		    ((vec >= 2 && in->b == VISA_OPND_NONE) ||
		     (vec == 4 && (in->c == VISA_OPND_NONE ||
				   in->e == VISA_OPND_NONE))))
			return fail(v, "insn %u: vector element missing", pc);
		if (in->op == VISA_OP_ST &&
		    ((vec >= 2 && in->c == VISA_OPND_NONE) ||
		     (vec == 4 && (in->d == VISA_OPND_NONE ||
				   in->e == VISA_OPND_NONE))))
			return fail(v, "insn %u: vector element missing", pc);
		if ((in->op == VISA_OP_ATOM || in->op == VISA_OP_RED) &&
		    (VISA_MOD_SUB(in->mod) >= VISA_ATOM_COUNT ||
		     (VISA_MOD_SUB(in->mod) == VISA_ATOM_CAS &&
		      in->c == VISA_OPND_NONE)))
			return fail(v, "insn %u: bad atomic operation", pc);
	}
	{
		/* Sub-operation ranges (the executors index by them). */
		static const uint8_t max_sub[VISA_OP_COUNT] = {
			[VISA_OP_SHFL] = VISA_SHFL_BFLY,
			[VISA_OP_VOTE] = VISA_VOTE_BALLOT,
			[VISA_OP_MATCH] = VISA_MATCH_ALL,
			[VISA_OP_REDUX] = VISA_RED_XOR,
			[VISA_OP_BAR_RED] = VISA_RED_OR,
			[VISA_OP_MEMBAR] = VISA_SCOPE_SYS,
			[VISA_OP_SHF] = VISA_SHF_R_CLAMP,
			[VISA_OP_PRMT] = 6,
			[VISA_OP_BFIND] = 1,
			[VISA_OP_TESTP] = VISA_TESTP_SUBNORMAL,
			[VISA_OP_SETP] = VISA_CMP_COUNT - 1,
			[VISA_OP_SET] = VISA_CMP_COUNT - 1,
			[VISA_OP_ATOM] = VISA_ATOM_COUNT - 1,
			[VISA_OP_RED] = VISA_ATOM_COUNT - 1,
		};

		if (VISA_MOD_SUB(in->mod) > max_sub[in->op])
			return fail(v, "insn %u: sub-operation %u out of range",
				    pc, VISA_MOD_SUB(in->mod));
		if ((in->mod & VISA_MOD_RND_MASK) > VISA_RND_RNA)
			return fail(v, "insn %u: unknown rounding mode", pc);
	}
	switch (in->op) {
	case VISA_OP_SREG:
		if (in->imm >= VISA_SREG_COUNT)
			return fail(v, "insn %u: unknown special register",
				    pc);
		break;
	case VISA_OP_CVT:
	case VISA_OP_SET:
	case VISA_OP_SLCT:
		if (in->type2 == VISA_T_NONE || in->type2 >= VISA_T_COUNT)
			return fail(v, "insn %u: bad second type", pc);
		break;
	case VISA_OP_SETP:
		if (VISA_MOD_SUB(in->mod) >= VISA_CMP_COUNT)
			return fail(v, "insn %u: bad comparison", pc);
		if (((in->mod & VISA_MOD_BOOL_MASK) != 0) !=
		    (in->pa != VISA_OPND_NONE))
			return fail(v, "insn %u: bool op needs pa", pc);
		break;
	case VISA_OP_ADDC:
	case VISA_OP_SUBC:
		if (((in->mod & VISA_MOD_CC_IN) && in->pa == VISA_OPND_NONE) ||
		    ((in->mod & VISA_MOD_CC_OUT) && in->pd == VISA_OPND_NONE))
			return fail(v, "insn %u: carry predicate missing", pc);
		break;
	case VISA_OP_BAR_RED:
		if (in->d == VISA_OPND_NONE && in->pd == VISA_OPND_NONE)
			return fail(v, "insn %u: bar.red needs a result", pc);
		break;
	case VISA_OP_VOTE:
		if (VISA_MOD_SUB(in->mod) == VISA_VOTE_BALLOT ?
		    in->d == VISA_OPND_NONE : in->pd == VISA_OPND_NONE)
			return fail(v, "insn %u: vote needs a result", pc);
		break;
	case VISA_OP_BRA: {
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
	case VISA_OP_CALL:
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
