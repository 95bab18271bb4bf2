// SPDX-License-Identifier: GPL-2.0
/*
 * isel.c - instruction selection: one PTX instruction -> vISA.
 *
 * The modifiers of an instruction are first sorted into what every
 * instruction may have (types, rounding, .ftz/.sat/.approx, state space,
 * vector width, scope) and "extras" that only some opcodes understand
 * (.lo, .wide, .shiftamt, comparison names, ...).  A selector takes the
 * extras it knows; any extra left over is reported as unsupported, so
 * an instruction is never half-understood: either every modifier has a
 * meaning in the generated vISA, or compilation stops with a message
 * naming it.  Modifiers with no effect on a single-device, in-order
 * memory model (cache hints, .nc, memory-ordering qualifiers, .aligned)
 * are accepted and dropped.
 */
#include <string.h>

#include "isel.h"

struct mods {
	const struct ptx_insn *in;
	enum ptx_type t[3];
	uint32_t nt;
	enum ptx_space space;	/* PS_GENERIC when none is given */
	uint32_t rnd;		/* enum visa_rnd */
	uint32_t flags;		/* VISA_MOD_FTZ, SAT, APPROX, FULL, NAN, VOLATILE */
	bool uni, cc;
	uint32_t vec;
	int scope;		/* enum visa_scope, or -1 */
	enum ptx_mod extra[PTX_MAX_MODS];
	bool taken[PTX_MAX_MODS];
	uint32_t nextra;
};

/* Sort the modifiers by their kind (the kind column of ptx_mods.h). */
static void scan_mods(struct cg *g, const struct ptx_insn *in, struct mods *m)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->in = in;
	m->space = PS_GENERIC;
	m->vec = 1;
	m->scope = -1;
	for (i = 0; i < in->nmods; i++) {
		enum ptx_mod mod = in->mods[i];

		switch (ptx_mod_kind(mod)) {
		case MK_TYPE:
			if (m->nt == 3)
				cg_fail(g, &in->pos, "too many types on '%s'",
					ptx_op_name(in->op));
			m->t[m->nt++] = ptx_mod_type(mod);
			break;
		case MK_RND:
			if (m->rnd)
				cg_fail(g, &in->pos, "more than one rounding mode on '%s'",
					ptx_op_name(in->op));
			m->rnd = ptx_mod_value(mod);
			break;
		case MK_FLAG:
			m->flags |= ptx_mod_value(mod);
			break;
		case MK_UNI:
			m->uni = true;
			break;
		case MK_CC:
			m->cc = true;
			break;
		case MK_VEC:
			m->vec = ptx_mod_value(mod);
			break;
		case MK_SPACE:
			if (ptx_mod_space(mod) == PS_REG ||
			    ptx_mod_space(mod) == PS_SREG)
				m->extra[m->nextra++] = mod;
			else
				m->space = ptx_mod_space(mod);
			break;
		case MK_SCOPE:		/* .cluster: isel_coop.c */
			m->scope = (int)ptx_mod_value(mod);
			break;
		case MK_IGNORE:
			break;
		case MK_NONE:
		case MK_OTHER:
			m->extra[m->nextra++] = mod;
			break;
		}
	}
}

static bool take(struct mods *m, enum ptx_mod mod)
{
	uint32_t i;

	for (i = 0; i < m->nextra; i++) {
		if (!m->taken[i] && m->extra[i] == mod) {
			m->taken[i] = true;
			return true;
		}
	}
	return false;
}

/* Which of mods[] is present (index), or -1; at most one may be. */
static int take_one(struct cg *g, struct mods *m, const enum ptx_mod *mods,
		    int n)
{
	int i, found = -1;

	for (i = 0; i < n; i++) {
		if (mods[i] != MOD_NONE && take(m, mods[i])) {
			if (found >= 0)
				cg_fail(g, &m->in->pos, "'.%s' and '.%s' together on '%s'",
					ptx_mod_name(mods[found]),
					ptx_mod_name(mods[i]),
					ptx_op_name(m->in->op));
			found = i;
		}
	}
	return found;
}

static void finish(struct cg *g, const struct mods *m)
{
	uint32_t i;

	for (i = 0; i < m->nextra; i++)
		if (!m->taken[i])
			cg_unsupported(g, &m->in->pos,
				       "modifier '.%s' of '%s' is not supported",
				       ptx_mod_name(m->extra[i]),
				       ptx_op_name(m->in->op));
}

static enum ptx_type type1(struct cg *g, const struct mods *m)
{
	if (m->nt != 1)
		cg_fail(g, &m->in->pos, "'%s' needs exactly one type", ptx_op_name(m->in->op));
	return m->t[0];
}

static void nops(struct cg *g, const struct ptx_insn *in, uint32_t n)
{
	if (in->nops != n)
		cg_fail(g, &in->pos, "'%s' takes %u operands, not %u", ptx_op_name(in->op), n,
			in->nops);
}

static bool is_float(enum ptx_type t)
{
	return ptx_type_class(t) == TC_FLOAT;
}

static bool is_int(enum ptx_type t)
{
	enum ptx_tclass c = ptx_type_class(t);

	return c == TC_UINT || c == TC_SINT || c == TC_BITS;
}

static void no_float_mods(struct cg *g, const struct mods *m)
{
	if (m->rnd || (m->flags & (VISA_MOD_FTZ | VISA_MOD_APPROX |
				   VISA_MOD_FULL | VISA_MOD_NAN)))
		cg_fail(g, &m->in->pos,
			"floating-point modifier on integer instruction '%s'",
			ptx_op_name(m->in->op));
}

/* The integer type of the same width and given signedness. */
static enum ptx_type int_type(unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? PT_S8 : PT_U8;
	case 2:
		return is_signed ? PT_S16 : PT_U16;
	case 4:
		return is_signed ? PT_S32 : PT_U32;
	default:
		return is_signed ? PT_S64 : PT_U64;
	}
}

/*
 * d = op(srcs) with the operands in PTX order; srct[i] is the type each
 * source is read as (PT_NONE: the instruction type).
 */
static struct visa_insn *alu(struct cg *g, struct cg_fn *fn,
			     const struct ptx_insn *in, uint16_t op,
			     enum ptx_type t, uint32_t nsrc,
			     const enum ptx_type *srct, uint32_t mod)
{
	uint16_t s[4] = { VISA_OPND_NONE, VISA_OPND_NONE, VISA_OPND_NONE,
			  VISA_OPND_NONE };
	struct visa_insn *vi;
	uint16_t d;
	uint32_t i;

	nops(g, in, 1 + nsrc);
	for (i = 0; i < nsrc; i++)
		s[i] = cg_src(g, fn, &in->ops[1 + i],
			      srct && srct[i] != PT_NONE ? srct[i] : t);
	if (t == PT_PRED)
		d = cg_pdst(g, fn, &in->ops[0]);
	else
		d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, op, cg_vtype(t));
	vi->d = d;
	vi->a = s[0];
	vi->b = s[1];
	vi->c = s[2];
	vi->e = s[3];
	vi->mod = mod;
	return vi;
}

static uint32_t fmods(const struct mods *m)
{
	return m->rnd | m->flags;
}

/* ---- arithmetic --------------------------------------------------------- */

/* add, sub, with .cc and the carry-in forms addc, subc */
static void sel_addsub(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		       struct mods *m)
{
	bool sub = in->op == OP_SUB || in->op == OP_SUBC;
	bool carry_in = in->op == OP_ADDC || in->op == OP_SUBC;
	enum ptx_type t = type1(g, m);
	struct visa_insn *vi;

	finish(g, m);
	if (!m->cc && !carry_in) {
		if (is_int(t))
			no_float_mods(g, m);
		alu(g, fn, in, sub ? VISA_OP_SUB : VISA_OP_ADD, t, 2, NULL,
		    fmods(m));
		return;
	}
	if (t != PT_U32 && t != PT_S32 && t != PT_U64 && t != PT_S64 &&
	    t != PT_B32 && t != PT_B64)
		cg_fail(g, &in->pos, "carry arithmetic needs a 32- or 64-bit integer type");
	no_float_mods(g, m);
	vi = alu(g, fn, in, sub ? VISA_OP_SUBC : VISA_OP_ADDC, t, 2, NULL, 0);
	if (carry_in) {
		vi->mod |= VISA_MOD_CC_IN;
		vi->pa = fn->cc_pred;
	}
	if (m->cc) {
		vi->mod |= VISA_MOD_CC_OUT;
		vi->pd = fn->cc_pred;
	}
}

static const enum ptx_mod lohiwide[] = { MOD_LO, MOD_HI, MOD_WIDE };

static void sel_mul(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	enum ptx_type t = type1(g, m);
	int mode = take_one(g, m, lohiwide, 3);
	static const uint16_t ops[] = { VISA_OP_MUL, VISA_OP_MULHI,
					VISA_OP_MULWIDE };

	finish(g, m);
	if (is_float(t)) {
		if (mode >= 0)
			cg_fail(g, &in->pos, "'.%s' is for integer multiplication",
				ptx_mod_name(lohiwide[mode]));
		alu(g, fn, in, VISA_OP_MUL, t, 2, NULL, fmods(m));
		return;
	}
	no_float_mods(g, m);
	if (mode < 0)
		cg_fail(g, &in->pos, "integer '%s' needs .lo, .hi or .wide", ptx_op_name(in->op));
	if (mode == 2 && ptx_type_size(t) == 8)
		cg_fail(g, &in->pos, "'%s.wide' takes 16- or 32-bit operands", ptx_op_name(in->op));
	alu(g, fn, in, ops[mode], t, 2, NULL, m->flags & VISA_MOD_SAT);
}

/*
 * mad.lo.cc / madc.hi[.cc]: the multiply, then an add with carry (the
 * extended-precision multiplication sequences of the math library).
 */
static void mad_carry(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      const struct mods *m, enum ptx_type t, int mode)
{
	uint16_t a, b, c, d, prod;
	struct visa_insn *vi;

	if (mode != 0 && mode != 1)
		cg_fail(g, &in->pos, "'%s' with carry needs .lo or .hi", ptx_op_name(in->op));
	if (ptx_type_size(t) != 4 && ptx_type_size(t) != 8)
		cg_fail(g, &in->pos, "carry arithmetic needs a 32- or 64-bit integer type");
	nops(g, in, 4);
	a = cg_src(g, fn, &in->ops[1], t);
	b = cg_src(g, fn, &in->ops[2], t);
	c = cg_src(g, fn, &in->ops[3], t);
	d = cg_dst(g, fn, &in->ops[0]);
	prod = cg_temp(g, fn);
	vi = cg_insn(fn, mode ? VISA_OP_MULHI : VISA_OP_MUL, cg_vtype(t));
	vi->d = prod;
	vi->a = a;
	vi->b = b;
	vi = cg_insn(fn, VISA_OP_ADDC, cg_vtype(t));
	vi->d = d;
	vi->a = prod;
	vi->b = c;
	if (in->op == OP_MADC) {
		vi->mod |= VISA_MOD_CC_IN;
		vi->pa = fn->cc_pred;
	}
	if (m->cc) {
		vi->mod |= VISA_MOD_CC_OUT;
		vi->pd = fn->cc_pred;
	}
}

static void sel_mad(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	enum ptx_type t = type1(g, m);
	int mode = take_one(g, m, lohiwide, 3);
	static const uint16_t ops[] = { VISA_OP_MAD, VISA_OP_MADHI,
					VISA_OP_MADWIDE };
	enum ptx_type srct[3] = { PT_NONE, PT_NONE, PT_NONE };

	finish(g, m);
	if (is_float(t)) {
		if (mode >= 0)
			cg_fail(g, &in->pos, "'.%s' is for integer multiplication",
				ptx_mod_name(lohiwide[mode]));
		alu(g, fn, in, VISA_OP_FMA, t, 3, NULL, fmods(m));
		return;
	}
	no_float_mods(g, m);
	if (m->cc || in->op == OP_MADC)
		return mad_carry(g, fn, in, m, t, mode);
	if (mode < 0)
		cg_fail(g, &in->pos, "integer '%s' needs .lo, .hi or .wide", ptx_op_name(in->op));
	if (mode == 2) {
		if (ptx_type_size(t) == 8)
			cg_fail(g, &in->pos, "'mad.wide' takes 16- or 32-bit operands");
		srct[2] = int_type(2 * ptx_type_size(t),
				   ptx_type_class(t) == TC_SINT);
	}
	alu(g, fn, in, ops[mode], t, 3, srct, m->flags & VISA_MOD_SAT);
}

/* mul24/mad24 .lo: the low 32 bits of the product of the low 24 bits. */
static void sel_mul24(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      struct mods *m)
{
	enum ptx_type t = type1(g, m);
	bool mad = in->op == OP_MAD24;
	uint16_t x[2], d, c = VISA_OPND_NONE;
	struct visa_insn *vi;
	bool hi = take(m, MOD_HI);
	uint32_t i;

	if (!hi && !take(m, MOD_LO))
		cg_fail(g, &in->pos, "'%s' needs .lo or .hi", ptx_op_name(in->op));
	finish(g, m);
	no_float_mods(g, m);
	if (t != PT_U32 && t != PT_S32)
		cg_fail(g, &in->pos, "'%s' takes .u32 or .s32", ptx_op_name(in->op));
	nops(g, in, mad ? 4 : 3);
	for (i = 0; i < 2; i++) {
		uint16_t s = cg_src(g, fn, &in->ops[1 + i], t);

		x[i] = cg_temp(g, fn);
		vi = cg_insn(fn, VISA_OP_BFE, cg_vtype(t));
		vi->d = x[i];
		vi->a = s;
		vi->b = cg_lit(g, fn, 0);
		vi->c = cg_lit(g, fn, 24);
	}
	if (mad)
		c = cg_src(g, fn, &in->ops[3], t);
	d = cg_dst(g, fn, &in->ops[0]);
	if (hi) {
		/* .hi: bits 47..16 of the 48-bit product (then + c) */
		uint16_t w = cg_temp(g, fn), h = cg_temp(g, fn);

		vi = cg_insn(fn, VISA_OP_MULWIDE, cg_vtype(t));
		vi->d = w;
		vi->a = x[0];
		vi->b = x[1];
		vi = cg_insn(fn, VISA_OP_SHR, t == PT_S32 ? VISA_T_S64 : VISA_T_U64);
		vi->d = h;
		vi->a = w;
		vi->b = cg_lit(g, fn, 16);
		vi = cg_insn(fn, VISA_OP_ADD, cg_vtype(t));
		vi->d = d;
		vi->a = h;
		vi->b = mad ? c : cg_lit(g, fn, 0);
		vi->mod = m->flags & VISA_MOD_SAT;
		return;
	}
	vi = cg_insn(fn, mad ? VISA_OP_MAD : VISA_OP_MUL, cg_vtype(t));
	vi->d = d;
	vi->a = x[0];
	vi->b = x[1];
	vi->c = c;
	vi->mod = m->flags & VISA_MOD_SAT;
}

/* Simple n-source operations: the table below says which. */
struct simple_op {
	uint16_t op;
	uint8_t nsrc;
	uint8_t kinds;		/* OK_INT | OK_FLOAT | OK_PRED */
};

#define OK_INT 1
#define OK_FLOAT 2
#define OK_PRED 4

static const struct simple_op simple_ops[OP_COUNT_] = {
	[OP_DIV] = { VISA_OP_DIV, 2, OK_INT | OK_FLOAT },
	[OP_REM] = { VISA_OP_REM, 2, OK_INT },
	[OP_ABS] = { VISA_OP_ABS, 1, OK_INT | OK_FLOAT },
	[OP_NEG] = { VISA_OP_NEG, 1, OK_INT | OK_FLOAT },
	[OP_MIN] = { VISA_OP_MIN, 2, OK_INT | OK_FLOAT },
	[OP_MAX] = { VISA_OP_MAX, 2, OK_INT | OK_FLOAT },
	[OP_SAD] = { VISA_OP_SAD, 3, OK_INT },
	[OP_FMA] = { VISA_OP_FMA, 3, OK_FLOAT },
	[OP_RCP] = { VISA_OP_RCP, 1, OK_FLOAT },
	[OP_SQRT] = { VISA_OP_SQRT, 1, OK_FLOAT },
	[OP_RSQRT] = { VISA_OP_RSQRT, 1, OK_FLOAT },
	[OP_SIN] = { VISA_OP_SIN, 1, OK_FLOAT },
	[OP_COS] = { VISA_OP_COS, 1, OK_FLOAT },
	[OP_LG2] = { VISA_OP_LG2, 1, OK_FLOAT },
	[OP_EX2] = { VISA_OP_EX2, 1, OK_FLOAT },
	[OP_TANH] = { VISA_OP_TANH, 1, OK_FLOAT },
	[OP_COPYSIGN] = { VISA_OP_COPYSIGN, 2, OK_FLOAT },
	[OP_AND] = { VISA_OP_AND, 2, OK_INT | OK_PRED },
	[OP_OR] = { VISA_OP_OR, 2, OK_INT | OK_PRED },
	[OP_XOR] = { VISA_OP_XOR, 2, OK_INT | OK_PRED },
	[OP_NOT] = { VISA_OP_NOT, 1, OK_INT | OK_PRED },
	[OP_CNOT] = { VISA_OP_CNOT, 1, OK_INT },
	[OP_BREV] = { VISA_OP_BREV, 1, OK_INT },
};

static void sel_simple(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		       struct mods *m, const struct simple_op *s)
{
	enum ptx_type t = type1(g, m);
	bool ok = t == PT_PRED ? (s->kinds & OK_PRED) :
		  is_float(t) ? (s->kinds & OK_FLOAT) : (s->kinds & OK_INT);

	finish(g, m);
	if (!ok)
		cg_fail(g, &in->pos, "'%s' does not take .%s operands", ptx_op_name(in->op),
			ptx_type_name(t));
	if (!is_float(t))
		no_float_mods(g, m);
	alu(g, fn, in, s->op, t, s->nsrc, NULL, fmods(m));
}

static void sel_shift(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      struct mods *m)
{
	enum ptx_type t = type1(g, m);
	enum ptx_type srct[2] = { PT_NONE, PT_U32 };

	finish(g, m);
	no_float_mods(g, m);
	if (!is_int(t))
		cg_fail(g, &in->pos, "'%s' takes an integer type", ptx_op_name(in->op));
	alu(g, fn, in, in->op == OP_SHL ? VISA_OP_SHL : VISA_OP_SHR, t, 2,
	    srct, 0);
}

/* popc, clz, bfind: the result is .u32 whatever the operand width. */
static void sel_count(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      struct mods *m)
{
	enum ptx_type t = type1(g, m);
	uint32_t sub = 0;
	uint16_t op = in->op == OP_POPC ? VISA_OP_POPC :
		      in->op == OP_CLZ ? VISA_OP_CLZ : VISA_OP_BFIND;

	if (op == VISA_OP_BFIND && take(m, MOD_SHIFTAMT))
		sub = 1;
	finish(g, m);
	no_float_mods(g, m);
	if (!is_int(t) || ptx_type_size(t) < 4)
		cg_fail(g, &in->pos, "'%s' takes a 32- or 64-bit integer type",
			ptx_op_name(in->op));
	alu(g, fn, in, op, t, 1, NULL, VISA_MOD_MKSUB(sub));
}

static void sel_bitfield(struct cg *g, struct cg_fn *fn,
			 const struct ptx_insn *in, struct mods *m)
{
	enum ptx_type t = type1(g, m);
	enum ptx_type bfe_t[3] = { PT_NONE, PT_U32, PT_U32 };
	enum ptx_type bfi_t[4] = { PT_NONE, PT_NONE, PT_U32, PT_U32 };

	finish(g, m);
	no_float_mods(g, m);
	if (!is_int(t) || ptx_type_size(t) < 4)
		cg_fail(g, &in->pos, "'%s' takes a 32- or 64-bit integer type",
			ptx_op_name(in->op));
	if (in->op == OP_BFE)
		alu(g, fn, in, VISA_OP_BFE, t, 3, bfe_t, 0);
	else
		alu(g, fn, in, VISA_OP_BFI, t, 4, bfi_t, 0);
}

static void sel_fns(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	enum ptx_type srct[3] = { PT_B32, PT_U32, PT_S32 };

	finish(g, m);
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'fns' takes .b32");
	alu(g, fn, in, VISA_OP_FNS, PT_U32, 3, srct, 0);
}

/*
 * bmsk.mode.b32 d, a, b: a mask of b bits starting at bit a (CUB's radix
 * sort uses it).  That is a BFI of all-ones into zero, once the position
 * and width are clamped (.clamp: at most 32) or wrapped (.wrap: mod 32).
 */
static void sel_bmsk(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	static const enum ptx_mod modes[] = { MOD_CLAMP, MOD_WRAP };
	int mode = take_one(g, m, modes, 2);
	uint16_t x[2], d;
	struct visa_insn *vi;
	uint32_t i;

	finish(g, m);
	if (mode < 0)
		cg_fail(g, &in->pos, "'bmsk' needs .clamp or .wrap");
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'bmsk' takes .b32");
	nops(g, in, 3);
	for (i = 0; i < 2; i++) {
		uint16_t s = cg_src(g, fn, &in->ops[1 + i], PT_U32);

		x[i] = cg_temp(g, fn);
		vi = cg_insn(fn, mode == 0 ? VISA_OP_MIN : VISA_OP_AND, VISA_T_U32);
		vi->d = x[i];
		vi->a = s;
		vi->b = cg_lit(g, fn, mode == 0 ? 32 : 31);
	}
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_BFI, VISA_T_B32);
	vi->d = d;
	vi->a = cg_lit(g, fn, 0xffffffffu);
	vi->b = cg_lit(g, fn, 0);
	vi->c = x[0];
	vi->e = x[1];
}

static void sel_prmt(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	static const enum ptx_mod modes[] = { MOD_F4E, MOD_B4E, MOD_RC8, MOD_ECL,
					     MOD_ECR, MOD_RC16 };
	int mode = take_one(g, m, modes, 6);

	finish(g, m);
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'prmt' takes .b32");
	alu(g, fn, in, VISA_OP_PRMT, PT_B32, 3, NULL,
	    VISA_MOD_MKSUB(mode + 1));
}

static void sel_shf(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	static const enum ptx_mod dirs[] = { MOD_L, MOD_R };
	static const enum ptx_mod kinds[] = { MOD_WRAP, MOD_CLAMP };
	enum ptx_type srct[3] = { PT_B32, PT_B32, PT_U32 };
	int dir = take_one(g, m, dirs, 2), kind = take_one(g, m, kinds, 2);

	finish(g, m);
	if (dir < 0 || kind < 0)
		cg_fail(g, &in->pos, "'shf' needs .l or .r and .wrap or .clamp");
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'shf' takes .b32");
	alu(g, fn, in, VISA_OP_SHF, PT_B32, 3, srct,
	    VISA_MOD_MKSUB(dir * 2 + kind));
}

static void sel_lop3(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	struct visa_insn *vi;
	uint16_t s[3], d;
	uint32_t i;

	finish(g, m);
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'lop3' takes .b32");
	nops(g, in, 5);
	if (in->ops[4].kind != PO_IMM || in->ops[4].imm > 255)
		cg_fail(g, &in->ops[4].pos, "the lop3 lookup table must be an immediate 0..255");
	for (i = 0; i < 3; i++)
		s[i] = cg_src(g, fn, &in->ops[1 + i], PT_B32);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_LOP3, VISA_T_B32);
	vi->d = d;
	vi->a = s[0];
	vi->b = s[1];
	vi->c = s[2];
	vi->imm = in->ops[4].imm;
}

static void sel_dp(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		   struct mods *m)
{
	bool dp2 = in->op == OP_DP2A;
	uint32_t mod = 0;
	enum ptx_type srct[3];
	bool sa, sb;

	if (dp2) {
		if (take(m, MOD_HI))
			mod |= VISA_MOD_HI;
		else if (!take(m, MOD_LO))
			cg_fail(g, &in->pos, "'dp2a' needs .lo or .hi");
	}
	finish(g, m);
	if (m->nt != 2 || (m->t[0] != PT_U32 && m->t[0] != PT_S32) ||
	    (m->t[1] != PT_U32 && m->t[1] != PT_S32))
		cg_fail(g, &in->pos, "'%s' needs two types, each .u32 or .s32",
			ptx_op_name(in->op));
	sa = m->t[0] == PT_S32;
	sb = m->t[1] == PT_S32;
	mod |= (sa ? VISA_MOD_SIGNED_A : 0) | (sb ? VISA_MOD_SIGNED_B : 0);
	srct[0] = m->t[0];
	srct[1] = m->t[1];
	srct[2] = sa || sb ? PT_S32 : PT_U32;
	alu(g, fn, in, dp2 ? VISA_OP_DP2A : VISA_OP_DP4A, srct[2], 3, srct, mod);
}

static void sel_testp(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      struct mods *m)
{
	static const enum ptx_mod classes[] = {
		MOD_FINITE, MOD_INFINITE, MOD_NUMBER, MOD_NOTANUMBER, MOD_NORMAL,
		MOD_SUBNORMAL,
	};
	int c = take_one(g, m, classes, 6);
	enum ptx_type t = type1(g, m);
	struct visa_insn *vi;
	uint16_t a, pd;

	finish(g, m);
	if (c < 0 || (t != PT_F32 && t != PT_F64))
		cg_fail(g, &in->pos, "'testp' needs a class and .f32 or .f64");
	nops(g, in, 2);
	a = cg_src(g, fn, &in->ops[1], t);
	pd = cg_pdst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_TESTP, cg_vtype(t));
	vi->pd = pd;
	vi->a = a;
	vi->mod = VISA_MOD_MKSUB(c);
}

/* ---- comparison and selection ----------------------------------------- */

static const struct {
	enum ptx_mod mod;
	uint8_t cmp;
} cmp_names[] = {
	{ MOD_EQ, VISA_CMP_EQ }, { MOD_NE, VISA_CMP_NE }, { MOD_LT, VISA_CMP_LT },
	{ MOD_LE, VISA_CMP_LE }, { MOD_GT, VISA_CMP_GT }, { MOD_GE, VISA_CMP_GE },
	{ MOD_LO, VISA_CMP_LT }, { MOD_LS, VISA_CMP_LE }, { MOD_HI, VISA_CMP_GT },
	{ MOD_HS, VISA_CMP_GE }, { MOD_EQU, VISA_CMP_EQU }, { MOD_NEU, VISA_CMP_NEU },
	{ MOD_LTU, VISA_CMP_LTU }, { MOD_LEU, VISA_CMP_LEU },
	{ MOD_GTU, VISA_CMP_GTU }, { MOD_GEU, VISA_CMP_GEU },
	{ MOD_NUM, VISA_CMP_NUM }, { MOD_NAN, VISA_CMP_NAN },
};

/* !(a cmp b): for floats the complement includes the unordered case. */
static const uint8_t cmp_not[VISA_CMP_COUNT] = {
	[VISA_CMP_EQ] = VISA_CMP_NEU, [VISA_CMP_NE] = VISA_CMP_EQU,
	[VISA_CMP_LT] = VISA_CMP_GEU, [VISA_CMP_LE] = VISA_CMP_GTU,
	[VISA_CMP_GT] = VISA_CMP_LEU, [VISA_CMP_GE] = VISA_CMP_LTU,
	[VISA_CMP_EQU] = VISA_CMP_NE, [VISA_CMP_NEU] = VISA_CMP_EQ,
	[VISA_CMP_LTU] = VISA_CMP_GE, [VISA_CMP_LEU] = VISA_CMP_GT,
	[VISA_CMP_GTU] = VISA_CMP_LE, [VISA_CMP_GEU] = VISA_CMP_LT,
	[VISA_CMP_NUM] = VISA_CMP_NAN, [VISA_CMP_NAN] = VISA_CMP_NUM,
};

/* Integer complements (no unordered results). */
static const uint8_t cmp_not_int[] = {
	[VISA_CMP_EQ] = VISA_CMP_NE, [VISA_CMP_NE] = VISA_CMP_EQ,
	[VISA_CMP_LT] = VISA_CMP_GE, [VISA_CMP_LE] = VISA_CMP_GT,
	[VISA_CMP_GT] = VISA_CMP_LE, [VISA_CMP_GE] = VISA_CMP_LT,
};

static int take_cmp(struct cg *g, struct mods *m, enum ptx_type t)
{
	uint32_t i;
	int found = -1;

	for (i = 0; i < sizeof(cmp_names) / sizeof(cmp_names[0]); i++) {
		if (!take(m, cmp_names[i].mod))
			continue;
		if (found >= 0)
			cg_fail(g, &m->in->pos, "more than one comparison on '%s'",
				ptx_op_name(m->in->op));
		found = cmp_names[i].cmp;
	}
	if (found < 0)
		cg_fail(g, &m->in->pos, "'%s' needs a comparison such as .eq or .lt",
			ptx_op_name(m->in->op));
	if (!is_float(t) && found > VISA_CMP_GE)
		cg_fail(g, &m->in->pos,
			"unordered comparisons are only for floating-point types");
	return found;
}

static uint32_t take_bool(struct cg *g, struct mods *m)
{
	static const enum ptx_mod names[] = { MOD_AND, MOD_OR, MOD_XOR };

	return (uint32_t)(take_one(g, m, names, 3) + 1);
}

static void sel_setp(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	enum ptx_type t = type1(g, m);
	int cmp = take_cmp(g, m, t);
	uint32_t boolop = take_bool(g, m);
	uint16_t a, b, pa = VISA_OPND_NONE, pd, pd2 = VISA_OPND_NONE;
	struct visa_insn *vi;

	finish(g, m);
	if (t == PT_PRED)
		cg_unsupported(g, &in->pos, "'setp' on .pred operands is not supported");
	if (!is_float(t))
		no_float_mods(g, m);
	nops(g, in, boolop ? 4 : 3);
	a = cg_src(g, fn, &in->ops[1], t);
	b = cg_src(g, fn, &in->ops[2], t);
	if (boolop)
		pa = cg_psrc(g, fn, &in->ops[3]);
	pd = cg_pdst(g, fn, &in->ops[0]);
	if (in->ops[0].pred2) {
		if (in->ops[0].pred2->type != PT_PRED)
			cg_fail(g, &in->ops[0].pos, "the second destination must be a predicate");
		pd2 = fn->gpr_of[in->ops[0].pred2->id];
	}
	/* Write the second destination first: pd may be one of a/b/pa. */
	if (pd2 != VISA_OPND_NONE) {
		vi = cg_insn(fn, VISA_OP_SETP, cg_vtype(t));
		vi->pd = pd2;
		vi->a = a;
		vi->b = b;
		vi->pa = pa;
		vi->mod = VISA_MOD_MKSUB(is_float(t) ? cmp_not[cmp] :
					 cmp_not_int[cmp]) |
			  boolop << VISA_MOD_BOOL_SHIFT | (m->flags & VISA_MOD_FTZ);
		if (pd2 == pa || (in->ops[0].pred2 && pd2 == pd))
			cg_unsupported(g, &in->pos,
				       "setp writing a predicate it also reads");
	}
	vi = cg_insn(fn, VISA_OP_SETP, cg_vtype(t));
	vi->pd = pd;
	vi->a = a;
	vi->b = b;
	vi->pa = pa;
	vi->mod = VISA_MOD_MKSUB(cmp) | boolop << VISA_MOD_BOOL_SHIFT |
		  (m->flags & VISA_MOD_FTZ);
}

static void sel_set(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	enum ptx_type dt, st;
	int cmp;
	uint32_t boolop;
	uint16_t a, b, pa = VISA_OPND_NONE, d;
	struct visa_insn *vi;

	if (m->nt != 2)
		cg_fail(g, &in->pos, "'set' needs a destination and a source type");
	dt = m->t[0];
	st = m->t[1];
	cmp = take_cmp(g, m, st);
	boolop = take_bool(g, m);
	finish(g, m);
	nops(g, in, boolop ? 4 : 3);
	a = cg_src(g, fn, &in->ops[1], st);
	b = cg_src(g, fn, &in->ops[2], st);
	if (boolop)
		pa = cg_psrc(g, fn, &in->ops[3]);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_SET, cg_vtype(dt));
	vi->type2 = cg_vtype(st);
	vi->d = d;
	vi->a = a;
	vi->b = b;
	vi->pa = pa;
	vi->mod = VISA_MOD_MKSUB(cmp) | boolop << VISA_MOD_BOOL_SHIFT |
		  (m->flags & VISA_MOD_FTZ);
}

static void sel_selp(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	enum ptx_type t = type1(g, m);
	uint16_t a, b, p, d;
	struct visa_insn *vi;

	finish(g, m);
	nops(g, in, 4);
	a = cg_src(g, fn, &in->ops[1], t);
	b = cg_src(g, fn, &in->ops[2], t);
	p = cg_psrc(g, fn, &in->ops[3]);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_SELP, cg_vtype(t));
	vi->d = d;
	vi->a = a;
	vi->b = b;
	vi->pa = p;
}

static void sel_slct(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	struct visa_insn *vi;
	enum ptx_type srct[3];

	finish(g, m);
	if (m->nt != 2 || (m->t[1] != PT_S32 && m->t[1] != PT_F32))
		cg_fail(g, &in->pos, "'slct' needs a type and then .s32 or .f32");
	srct[0] = srct[1] = m->t[0];
	srct[2] = m->t[1];
	vi = alu(g, fn, in, VISA_OP_SLCT, m->t[0], 3, srct,
		 m->flags & VISA_MOD_FTZ);
	vi->type2 = cg_vtype(m->t[1]);
}

/* ---- data movement ----------------------------------------------------- */

/* mov.b64 {%r1, %r2}, %rd1: split a register into its parts. */
static void unpack(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		   enum ptx_type t)
{
	const struct ptx_operand *v = &in->ops[0];
	unsigned int size = ptx_type_size(t), w = size * 8 / v->nelems;
	uint16_t src = cg_src(g, fn, &in->ops[1], t);
	uint32_t i;

	if (v->nelems * 8 > size * 8 || w < 8)
		cg_fail(g, &v->pos, "cannot split .%s into %u parts",
			ptx_type_name(t), v->nelems);
	for (i = 0; i < v->nelems; i++) {
		struct visa_insn *vi;
		uint16_t d;

		if (v->elems[i].kind == PO_SINK)
			continue;
		d = cg_dst(g, fn, &v->elems[i]);
		vi = cg_insn(fn, VISA_OP_BFE, size == 8 ? VISA_T_U64 : VISA_T_U32);
		vi->d = d;
		vi->a = src;
		vi->b = cg_lit(g, fn, w * i);
		vi->c = cg_lit(g, fn, w);
	}
}

/* mov.b64 %rd1, {%r1, %r2}: join parts, element 0 in the low bits. */
static void pack(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		 enum ptx_type t)
{
	const struct ptx_operand *v = &in->ops[1];
	unsigned int size = ptx_type_size(t), w = size * 8 / v->nelems;
	enum ptx_type et = w == 32 ? PT_B32 : w == 16 ? PT_B16 : PT_B8;
	uint16_t e[4], lo, hi, d;
	struct visa_insn *vi;
	uint32_t i;

	if ((v->nelems != 2 && v->nelems != 4) || (w != 16 && w != 32))
		cg_unsupported(g, &v->pos, "packing %u parts into .%s",
			       v->nelems, ptx_type_name(t));
	for (i = 0; i < v->nelems; i++)
		e[i] = cg_src(g, fn, &v->elems[i], et);
	d = cg_dst(g, fn, &in->ops[0]);
	if (v->nelems == 2) {
		vi = cg_insn(fn, VISA_OP_PACK, cg_vtype(et));
		vi->d = d;
		vi->a = e[0];
		vi->b = e[1];
		return;
	}
	lo = cg_temp(g, fn);
	hi = cg_temp(g, fn);
	vi = cg_insn(fn, VISA_OP_PACK, VISA_T_B16);
	vi->d = lo;
	vi->a = e[0];
	vi->b = e[1];
	vi = cg_insn(fn, VISA_OP_PACK, VISA_T_B16);
	vi->d = hi;
	vi->a = e[2];
	vi->b = e[3];
	vi = cg_insn(fn, VISA_OP_PACK, VISA_T_B32);
	vi->d = d;
	vi->a = lo;
	vi->b = hi;
}

static void sel_mov(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	enum ptx_type t = type1(g, m);
	const struct ptx_operand *s;
	struct visa_insn *vi;
	uint16_t a, d;

	finish(g, m);
	nops(g, in, 2);
	s = &in->ops[1];
	if (t == PT_PRED) {
		a = cg_psrc(g, fn, s);
		d = cg_pdst(g, fn, &in->ops[0]);
		vi = cg_insn(fn, VISA_OP_MOV, VISA_T_PRED);
		vi->d = d;
		vi->a = a;
		return;
	}
	if (in->ops[0].kind == PO_VEC)
		return unpack(g, fn, in, t);
	if (s->kind == PO_VEC)
		return pack(g, fn, in, t);
	if (s->kind == PO_SREG) {
		d = cg_dst(g, fn, &in->ops[0]);
		cg_sreg(g, fn, s, d, t);
		return;
	}
	if (s->kind == PO_SYM && strcmp(s->sym, "WARP_SZ")) {
		struct ptx_symref r = cg_resolve(g, fn, s);

		if (!r.is_func) {
			d = cg_dst(g, fn, &in->ops[0]);
			cg_var_address_to(g, fn, r.var, s->off, &s->pos, t, d);
			return;
		}
	}
	a = cg_src(g, fn, s, t);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_MOV, cg_vtype(t));
	vi->d = d;
	vi->a = a;
}

static void sel_cvt(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	enum ptx_type dt, st;
	struct visa_insn *vi;
	uint16_t a, d;

	finish(g, m);
	if (m->nt != 2)
		cg_fail(g, &in->pos, "'cvt' needs a destination and a source type");
	dt = m->t[0];
	st = m->t[1];
	if (dt == PT_PRED || st == PT_PRED || dt == PT_B128 || st == PT_B128)
		cg_fail(g, &in->pos, "'cvt' cannot convert .%s to .%s",
			ptx_type_name(st), ptx_type_name(dt));
	if ((dt == PT_F16X2 || dt == PT_BF16X2) && in->nops == 3) {
		/* cvt.rn.f16x2.f32 d, a, b: a into the upper half, b lower */
		enum ptx_type half = dt == PT_F16X2 ? PT_F16 : PT_BF16;
		uint16_t h[2], s;
		uint32_t i;

		if (st != PT_F32)
			cg_fail(g, &in->pos, "'cvt.%s' converts from .f32",
				ptx_type_name(dt));
		for (i = 0; i < 2; i++) {
			s = cg_src(g, fn, &in->ops[1 + i], PT_F32);
			h[i] = cg_temp(g, fn);
			vi = cg_insn(fn, VISA_OP_CVT, cg_vtype(half));
			vi->type2 = VISA_T_F32;
			vi->d = h[i];
			vi->a = s;
			vi->mod = fmods(m);
		}
		d = cg_dst(g, fn, &in->ops[0]);
		vi = cg_insn(fn, VISA_OP_PACK, VISA_T_B16);
		vi->d = d;
		vi->a = h[1];
		vi->b = h[0];
		return;
	}
	nops(g, in, 2);
	a = cg_src(g, fn, &in->ops[1], st);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_CVT, cg_vtype(dt));
	vi->type2 = cg_vtype(st);
	vi->d = d;
	vi->a = a;
	vi->mod = fmods(m);
}

static uint8_t space_of(struct cg *g, const struct mods *m, bool allow_generic)
{
	uint8_t sp = cg_visa_space(m->space);

	if (sp == VISA_SPACE_GENERIC && !allow_generic)
		cg_fail(g, &m->in->pos, "'%s' needs a state space", ptx_op_name(m->in->op));
	return sp;
}

static void sel_cvta(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	bool to = take(m, MOD_TO);
	enum ptx_type t = type1(g, m);
	struct visa_insn *vi;
	uint16_t a, d;
	uint8_t sp;

	finish(g, m);
	sp = space_of(g, m, false);
	if (t != PT_U32 && t != PT_U64)
		cg_fail(g, &in->pos, "'cvta' takes .u32 or .u64");
	nops(g, in, 2);
	a = cg_src(g, fn, &in->ops[1], t);
	d = cg_dst(g, fn, &in->ops[0]);
	/* A global address is its own generic address (vgpu_visa.h): a copy,
	 * which register allocation usually makes disappear. */
	vi = cg_insn(fn, sp == VISA_SPACE_GLOBAL ? VISA_OP_MOV : VISA_OP_CVTA,
		     cg_vtype(t));
	vi->d = d;
	vi->a = a;
	if (sp != VISA_SPACE_GLOBAL) {
		vi->type2 = sp;
		vi->mod = to ? 0 : VISA_MOD_TO_GENERIC;
	}
}

/* isspacep.space p, a: range checks on the generic windows. */
static void sel_isspacep(struct cg *g, struct cg_fn *fn,
			 const struct ptx_insn *in, struct mods *m)
{
	uint64_t base;
	struct visa_insn *vi;
	uint16_t a, pd, lt;

	finish(g, m);
	nops(g, in, 2);
	a = cg_src(g, fn, &in->ops[1], PT_U64);
	pd = cg_pdst(g, fn, &in->ops[0]);
	if (m->space == PS_GLOBAL) {
		vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U64);
		vi->pd = pd;
		vi->a = a;
		vi->b = cg_lit(g, fn, VISA_GENERIC_SHARED_BASE);
		vi->mod = VISA_MOD_MKSUB(VISA_CMP_LT);
		return;
	}
	if (m->space == PS_SHARED)
		base = VISA_GENERIC_SHARED_BASE;
	else if (m->space == PS_LOCAL)
		base = VISA_GENERIC_LOCAL_BASE;
	else if (m->space == PS_PARAM)
		base = VISA_GENERIC_PARAM_BASE;
	else
		cg_unsupported(g, &in->pos, "'isspacep' of this state space");
	lt = cg_ptemp(g, fn);
	vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U64);
	vi->pd = lt;
	vi->a = a;
	vi->b = cg_lit(g, fn, base + VISA_GENERIC_WINDOW_SIZE);
	vi->mod = VISA_MOD_MKSUB(VISA_CMP_LT);
	vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U64);
	vi->pd = pd;
	vi->a = a;
	vi->b = cg_lit(g, fn, base);
	vi->pa = lt;
	vi->mod = VISA_MOD_MKSUB(VISA_CMP_GE) |
		  VISA_BOOL_AND << VISA_MOD_BOOL_SHIFT;
}

static uint32_t vec_log2(uint32_t n)
{
	return n == 4 ? 2 : n == 2 ? 1 : 0;
}

/* The value operands of ld/st: one register or a {vector}. */
static const struct ptx_operand *vec_elems(struct cg *g,
					   const struct ptx_operand *o,
					   uint32_t vec, uint32_t *n)
{
	if (vec == 1) {
		if (o->kind == PO_VEC)
			cg_fail(g, &o->pos, "a vector operand needs .v2 or .v4");
		*n = 1;
		return o;
	}
	if (o->kind != PO_VEC || o->nelems != vec)
		cg_fail(g, &o->pos, "expected a {vector} of %u elements", vec);
	*n = vec;
	return o->elems;
}

static void check_mem_type(struct cg *g, const struct ptx_insn *in,
			   enum ptx_type t)
{
	if (t == PT_PRED)
		cg_fail(g, &in->pos, "'%s' cannot move .pred values", ptx_op_name(in->op));
	if (t == PT_B128)
		cg_unsupported(g, &in->pos, "128-bit memory accesses are not supported");
}

static void sel_ld(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		   struct mods *m)
{
	enum ptx_type t = type1(g, m);
	const struct ptx_operand *el;
	struct cg_addr ad;
	struct visa_insn *vi;
	uint16_t d[4] = { VISA_OPND_NONE, VISA_OPND_NONE, VISA_OPND_NONE,
			  VISA_OPND_NONE };
	uint32_t n, i;

	finish(g, m);
	check_mem_type(g, in, t);
	nops(g, in, 2);
	el = vec_elems(g, &in->ops[0], m->vec, &n);
	cg_address(g, fn, &in->ops[1], m->space, &ad);
	for (i = 0; i < n; i++)
		d[i] = cg_dst(g, fn, &el[i]);
	if (ad.argreg) {
		if (n != 1)
			cg_unsupported(g, &in->pos, "vector access to a call parameter");
		vi = cg_insn(fn, VISA_OP_MOV, cg_vtype(t));
		vi->d = d[0];
		vi->a = ad.a;
		return;
	}
	vi = cg_insn(fn, VISA_OP_LD, cg_vtype(t));
	vi->type2 = ad.space;
	vi->a = ad.a;
	vi->imm = ad.imm;
	vi->mod = vec_log2(n) << VISA_MOD_VEC_SHIFT |
		  (m->flags & VISA_MOD_VOLATILE);
	vi->d = d[0];
	vi->b = n > 1 ? d[1] : VISA_OPND_NONE;
	vi->c = n > 2 ? d[2] : VISA_OPND_NONE;
	vi->e = n > 3 ? d[3] : VISA_OPND_NONE;
}

static void sel_st(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		   struct mods *m)
{
	enum ptx_type t = type1(g, m);
	const struct ptx_operand *el;
	struct cg_addr ad;
	struct visa_insn *vi;
	uint16_t s[4] = { VISA_OPND_NONE, VISA_OPND_NONE, VISA_OPND_NONE,
			  VISA_OPND_NONE };
	uint32_t n, i;

	finish(g, m);
	check_mem_type(g, in, t);
	nops(g, in, 2);
	el = vec_elems(g, &in->ops[1], m->vec, &n);
	cg_address(g, fn, &in->ops[0], m->space, &ad);
	for (i = 0; i < n; i++)
		s[i] = cg_src(g, fn, &el[i], t);
	if (ad.argreg) {
		if (n != 1)
			cg_unsupported(g, &in->pos, "vector access to a call parameter");
		vi = cg_insn(fn, VISA_OP_MOV, cg_vtype(t));
		vi->d = ad.a;
		vi->a = s[0];
		return;
	}
	if (ad.space == VISA_SPACE_PARAM || ad.space == VISA_SPACE_CONST)
		cg_fail(g, &in->pos, "kernel parameters and .const are read-only");
	/* The third element goes in the d field, which takes no literal. */
	if (n > 2 && (s[2] & VISA_OPND_LIT)) {
		uint16_t tmp = cg_temp(g, fn);

		vi = cg_insn(fn, VISA_OP_MOV, cg_vtype(t));
		vi->d = tmp;
		vi->a = s[2];
		s[2] = tmp;
	}
	vi = cg_insn(fn, VISA_OP_ST, cg_vtype(t));
	vi->type2 = ad.space;
	vi->a = ad.a;
	vi->imm = ad.imm;
	vi->mod = vec_log2(n) << VISA_MOD_VEC_SHIFT |
		  (m->flags & VISA_MOD_VOLATILE);
	vi->b = s[0];
	vi->c = n > 1 ? s[1] : VISA_OPND_NONE;
	vi->d = n > 2 ? s[2] : VISA_OPND_NONE;
	vi->e = n > 3 ? s[3] : VISA_OPND_NONE;
}

/*
 * atom/red.v2/.v4 (sm_90 atomicAdd on float2/float4): CUDA guarantees
 * atomicity per element only, so one atomic per element is exact.
 */
static void atom_vector(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
			const struct mods *m, uint16_t op, enum ptx_type t,
			bool red)
{
	uint32_t first = red ? 0 : 1, n, i, size = ptx_type_size(t);
	const struct ptx_operand *src, *dst = NULL;
	struct cg_addr ad;

	if (op == VISA_ATOM_CAS || !is_float(t))
		cg_unsupported(g, &in->pos, "vector atomics other than floating-point ones");
	if (m->space != PS_GLOBAL && m->space != PS_GENERIC)
		cg_fail(g, &in->pos, "vector atomics work on .global or generic addresses");
	nops(g, in, first + 2);
	src = vec_elems(g, &in->ops[first + 1], m->vec, &n);
	if (!red)
		dst = vec_elems(g, &in->ops[0], m->vec, &n);
	cg_address(g, fn, &in->ops[first], m->space, &ad);
	for (i = 0; i < n; i++) {
		uint16_t b = cg_src(g, fn, &src[i], t);
		uint16_t d = red ? VISA_OPND_NONE : cg_dst(g, fn, &dst[i]);
		struct visa_insn *vi = cg_insn(fn, red ? VISA_OP_RED : VISA_OP_ATOM,
					       cg_vtype(t));

		vi->type2 = ad.space;
		vi->a = ad.a;
		vi->imm = ad.imm + (uint64_t)i * size;
		vi->d = d;
		vi->b = b;
		vi->mod = VISA_MOD_MKSUB(op);
	}
}

static void sel_atom(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	static const enum ptx_mod ops[VISA_ATOM_COUNT] = {
		[VISA_ATOM_ADD] = MOD_ADD, [VISA_ATOM_MIN] = MOD_MIN,
		[VISA_ATOM_MAX] = MOD_MAX, [VISA_ATOM_INC] = MOD_INC,
		[VISA_ATOM_DEC] = MOD_DEC, [VISA_ATOM_AND] = MOD_AND,
		[VISA_ATOM_OR] = MOD_OR, [VISA_ATOM_XOR] = MOD_XOR,
		[VISA_ATOM_EXCH] = MOD_EXCH, [VISA_ATOM_CAS] = MOD_CAS,
	};
	bool red = in->op == OP_RED;
	int op = take_one(g, m, ops, VISA_ATOM_COUNT);
	enum ptx_type t = type1(g, m);
	uint32_t first = red ? 0 : 1, nsrc = op == VISA_ATOM_CAS ? 2 : 1;
	struct cg_addr ad;
	struct visa_insn *vi;
	uint16_t b, c = VISA_OPND_NONE, d = VISA_OPND_NONE;

	finish(g, m);
	if (op < 0)
		cg_fail(g, &in->pos, "'%s' needs an operation such as .add", ptx_op_name(in->op));
	if (m->vec != 1)
		return atom_vector(g, fn, in, m, (uint16_t)op, t, red);
	if (red && op == VISA_ATOM_CAS)
		cg_fail(g, &in->pos, "'red' has no .cas");
	if (m->space != PS_GLOBAL && m->space != PS_SHARED &&
	    m->space != PS_GENERIC)
		cg_fail(g, &in->pos, "atomics work on .global, .shared or generic addresses");
	if (ptx_type_size(t) != 4 && ptx_type_size(t) != 8 &&
	    !(is_float(t) && ptx_type_size(t) == 2))
		cg_unsupported(g, &in->pos, "%u-bit atomics are not supported",
			       ptx_type_size(t) * 8);
	nops(g, in, first + 1 + nsrc);
	cg_address(g, fn, &in->ops[first], m->space, &ad);
	if (ad.space != VISA_SPACE_GLOBAL && ad.space != VISA_SPACE_SHARED &&
	    ad.space != VISA_SPACE_GENERIC)
		cg_fail(g, &in->pos, "atomics work on .global, .shared or generic addresses");
	b = cg_src(g, fn, &in->ops[first + 1], t);
	if (nsrc == 2)
		c = cg_src(g, fn, &in->ops[first + 2], t);
	if (!red)
		d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, red ? VISA_OP_RED : VISA_OP_ATOM, cg_vtype(t));
	vi->type2 = ad.space;
	vi->a = ad.a;
	vi->imm = ad.imm;
	vi->d = d;
	vi->b = b;
	vi->c = c;
	vi->mod = VISA_MOD_MKSUB(op);
}

static void sel_membar(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		       struct mods *m)
{
	struct visa_insn *vi;

	if (in->op == OP_FENCE && take(m, MOD_PROXY))
		cg_unsupported(g, &in->pos, "'fence.proxy' is not supported");
	finish(g, m);
	nops(g, in, 0);
	if (m->scope < 0)
		cg_fail(g, &in->pos, "'%s' needs a scope (.cta, .gpu/.gl or .sys)",
			ptx_op_name(in->op));
	vi = cg_insn(fn, VISA_OP_MEMBAR, VISA_T_NONE);
	vi->mod = VISA_MOD_MKSUB(m->scope);
}

/* ---- block and warp synchronisation ------------------------------------ */

/* "sync" is dropped by scan_mods; bar.sync and the warp ops need it. */
static bool has_sync(const struct ptx_insn *in)
{
	return insn_has(in, MOD_SYNC);
}

static void sel_bar(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    struct mods *m)
{
	bool is_barrier = in->op == OP_BARRIER;
	struct visa_insn *vi;
	uint16_t a, b = VISA_OPND_NONE;

	if (!is_barrier && take(m, MOD_WARP)) {	/* bar.warp.sync mask */
		finish(g, m);
		nops(g, in, 1);
		a = cg_src(g, fn, &in->ops[0], PT_B32);
		vi = cg_insn(fn, VISA_OP_WARPSYNC, VISA_T_NONE);
		vi->e = a;
		return;
	}
	if (take(m, MOD_RED)) {
		static const enum ptx_mod ops[] = { MOD_POPC, MOD_AND, MOD_OR };
		int op = take_one(g, m, ops, 3);
		bool popc = op == 0;
		uint16_t pa, d;

		finish(g, m);
		if (op < 0)
			cg_fail(g, &in->pos, "'%s.red' needs .popc, .and or .or",
				ptx_op_name(in->op));
		if (in->nops != 3 && in->nops != 4)
			cg_fail(g, &in->pos, "'%s.red' takes 3 or 4 operands", ptx_op_name(in->op));
		a = cg_src(g, fn, &in->ops[1], PT_U32);
		if (in->nops == 4)
			b = cg_src(g, fn, &in->ops[2], PT_U32);
		pa = cg_psrc(g, fn, &in->ops[in->nops - 1]);
		vi = NULL;
		if (popc) {
			d = cg_dst(g, fn, &in->ops[0]);
			vi = cg_insn(fn, VISA_OP_BAR_RED, VISA_T_U32);
			vi->d = d;
		} else {
			d = cg_pdst(g, fn, &in->ops[0]);
			vi = cg_insn(fn, VISA_OP_BAR_RED, VISA_T_PRED);
			vi->pd = d;
		}
		vi->a = a;
		vi->b = b;
		vi->pa = pa;
		vi->mod = VISA_MOD_MKSUB(popc ? VISA_RED_POPC :
					 op == 1 ? VISA_RED_AND : VISA_RED_OR);
		return;
	}
	{
		bool arrive = take(m, MOD_ARRIVE);

		if (!arrive && !has_sync(in) && !is_barrier)
			cg_fail(g, &in->pos, "'bar' needs .sync, .arrive or .red");
		finish(g, m);
		if (in->nops != 1 && in->nops != 2)
			cg_fail(g, &in->pos, "'%s' takes a barrier and an optional thread count",
				ptx_op_name(in->op));
		if (arrive && in->nops != 2)
			cg_fail(g, &in->pos, "'%s.arrive' needs a thread count", ptx_op_name(in->op));
		a = cg_src(g, fn, &in->ops[0], PT_U32);
		if (in->nops == 2)
			b = cg_src(g, fn, &in->ops[1], PT_U32);
		vi = cg_insn(fn, arrive ? VISA_OP_BAR_ARRIVE : VISA_OP_BAR,
			     VISA_T_NONE);
		vi->a = a;
		vi->b = b;
	}
}

static void need_sync(struct cg *g, const struct ptx_insn *in)
{
	if (!has_sync(in))
		cg_unsupported(g, &in->pos,
			       "'%s' without .sync is not supported (use %s.sync)",
			       ptx_op_name(in->op), ptx_op_name(in->op));
}

/*
 * The member mask of a warp-level instruction: its last operand, or for
 * the pre-Volta forms without .sync (shfl.down, vote.any), the lanes that
 * are active, which is what those forms synchronised.
 */
static uint16_t member_mask(struct cg *g, struct cg_fn *fn,
			    const struct ptx_insn *in, uint32_t nsync_ops)
{
	struct visa_insn *vi;
	uint16_t e;

	if (has_sync(in)) {
		nops(g, in, nsync_ops);
		return cg_src(g, fn, &in->ops[nsync_ops - 1], PT_B32);
	}
	nops(g, in, nsync_ops - 1);
	e = cg_temp(g, fn);
	vi = cg_insn(fn, VISA_OP_ACTIVEMASK, VISA_T_B32);
	vi->d = e;
	return e;
}

static void sel_shfl(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	static const enum ptx_mod modes[] = { MOD_IDX, MOD_UP, MOD_DOWN, MOD_BFLY };
	int mode = take_one(g, m, modes, 4);
	uint16_t a, b, c, e, d, pd = VISA_OPND_NONE;
	struct visa_insn *vi;

	finish(g, m);
	if (mode < 0)
		cg_fail(g, &in->pos, "'shfl' needs .idx, .up, .down or .bfly");
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'shfl' takes .b32");
	e = member_mask(g, fn, in, 5);
	a = cg_src(g, fn, &in->ops[1], PT_B32);
	b = cg_src(g, fn, &in->ops[2], PT_U32);
	c = cg_src(g, fn, &in->ops[3], PT_U32);
	d = cg_dst(g, fn, &in->ops[0]);
	if (in->ops[0].pred2) {
		if (in->ops[0].pred2->type != PT_PRED)
			cg_fail(g, &in->ops[0].pos, "the second destination must be a predicate");
		pd = fn->gpr_of[in->ops[0].pred2->id];
	}
	vi = cg_insn(fn, VISA_OP_SHFL, VISA_T_B32);
	vi->d = d;
	vi->pd = pd;
	vi->a = a;
	vi->b = b;
	vi->c = c;
	vi->e = e;
	vi->mod = VISA_MOD_MKSUB(mode);
}

static void sel_vote(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     struct mods *m)
{
	static const enum ptx_mod modes[] = { MOD_ALL, MOD_ANY, MOD_UNI, MOD_BALLOT };
	int mode = take_one(g, m, modes, 4);
	enum ptx_type t = type1(g, m);
	struct visa_insn *vi;
	uint16_t pa, e, d;

	if (mode < 0 && m->uni)		/* scan_mods took ".uni" as bra.uni's */
		mode = VISA_VOTE_UNI;
	finish(g, m);
	if (mode < 0)
		cg_fail(g, &in->pos, "'vote' needs .all, .any, .uni or .ballot");
	if ((mode == VISA_VOTE_BALLOT) != (t == PT_B32))
		cg_fail(g, &in->pos, "'vote.%s' takes .%s", ptx_mod_name(modes[mode]),
			mode == VISA_VOTE_BALLOT ? "b32" : "pred");
	e = member_mask(g, fn, in, 3);
	pa = cg_psrc(g, fn, &in->ops[1]);
	vi = NULL;
	if (mode == VISA_VOTE_BALLOT) {
		d = cg_dst(g, fn, &in->ops[0]);
		vi = cg_insn(fn, VISA_OP_VOTE, VISA_T_B32);
		vi->d = d;
	} else {
		d = cg_pdst(g, fn, &in->ops[0]);
		vi = cg_insn(fn, VISA_OP_VOTE, VISA_T_PRED);
		vi->pd = d;
	}
	vi->pa = pa;
	vi->e = e;
	vi->mod = VISA_MOD_MKSUB(mode);
}

static void sel_match(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      struct mods *m)
{
	static const enum ptx_mod modes[] = { MOD_ANY, MOD_ALL };
	int mode = take_one(g, m, modes, 2);
	enum ptx_type t = type1(g, m);
	struct visa_insn *vi;
	uint16_t a, e, d, pd = VISA_OPND_NONE;

	need_sync(g, in);
	finish(g, m);
	if (mode < 0)
		cg_fail(g, &in->pos, "'match' needs .any or .all");
	if (t != PT_B32 && t != PT_B64)
		cg_fail(g, &in->pos, "'match' takes .b32 or .b64");
	nops(g, in, 3);
	a = cg_src(g, fn, &in->ops[1], t);
	e = cg_src(g, fn, &in->ops[2], PT_B32);
	d = cg_dst(g, fn, &in->ops[0]);
	if (in->ops[0].pred2) {
		if (mode != VISA_MATCH_ALL || in->ops[0].pred2->type != PT_PRED)
			cg_fail(g, &in->ops[0].pos,
				"only 'match.all' has a predicate destination");
		pd = fn->gpr_of[in->ops[0].pred2->id];
	}
	vi = cg_insn(fn, VISA_OP_MATCH, cg_vtype(t));
	vi->d = d;
	vi->pd = pd;
	vi->a = a;
	vi->e = e;
	vi->mod = VISA_MOD_MKSUB(mode);
}

static void sel_redux(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		      struct mods *m)
{
	static const enum ptx_mod ops[] = { MOD_ADD, MOD_MIN, MOD_MAX, MOD_AND, MOD_OR,
					   MOD_XOR };
	static const uint8_t redop[] = { VISA_RED_ADD, VISA_RED_MIN,
					 VISA_RED_MAX, VISA_RED_AND,
					 VISA_RED_OR, VISA_RED_XOR };
	int op = take_one(g, m, ops, 6);
	enum ptx_type t = type1(g, m);
	struct visa_insn *vi;

	need_sync(g, in);
	finish(g, m);
	if (op < 0)
		cg_fail(g, &in->pos, "'redux' needs an operation such as .add");
	if (t != PT_U32 && t != PT_S32 && t != PT_B32)
		cg_unsupported(g, &in->pos, "'redux' of .%s", ptx_type_name(t));
	{
		enum ptx_type srct[2] = { t, PT_B32 };

		vi = alu(g, fn, in, VISA_OP_REDUX, t, 2, srct, VISA_MOD_MKSUB(redop[op]));
		/* The membermask belongs in e. */
		vi->e = vi->b;
		vi->b = VISA_OPND_NONE;
	}
}

static void sel_activemask(struct cg *g, struct cg_fn *fn,
			   const struct ptx_insn *in, struct mods *m)
{
	struct visa_insn *vi;
	uint16_t d;

	finish(g, m);
	if (type1(g, m) != PT_B32)
		cg_fail(g, &in->pos, "'activemask' takes .b32");
	nops(g, in, 1);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_ACTIVEMASK, VISA_T_B32);
	vi->d = d;
}

/* ---- control ---------------------------------------------------------- */

static void sel_control(struct cg *g, struct cg_fn *fn,
			const struct ptx_insn *in, struct mods *m)
{
	struct visa_insn *vi;
	uint16_t vop, a;

	finish(g, m);
	switch (in->op) {
	case OP_BRA:
		return cg_lower_branch(g, fn, in, m->uni);
	case OP_CALL:
		return cg_lower_call(g, fn, in, m->uni);
	case OP_NANOSLEEP:
		nops(g, in, 1);
		a = cg_src(g, fn, &in->ops[0], PT_U32);
		vi = cg_insn(fn, VISA_OP_NANOSLEEP, VISA_T_U32);
		vi->a = a;
		return;
	case OP_RET:
		vop = fn->f->is_entry ? VISA_OP_EXIT : VISA_OP_RET;
		break;
	case OP_EXIT:
		vop = VISA_OP_EXIT;
		break;
	case OP_TRAP:
		vop = VISA_OP_TRAP;
		break;
	default:	/* brkpt */
		vop = VISA_OP_BRKPT;
		break;
	}
	nops(g, in, 0);
	cg_insn(fn, vop, VISA_T_NONE);
}

/*
 * add/sub/min/max on .u16x2 / .s16x2 (sm_90 SIMD; __vadd2 and friends):
 * each half separately, then packed again.
 */
static bool packed16(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	static const uint16_t ops[OP_COUNT_] = {
		[OP_ADD] = VISA_OP_ADD, [OP_SUB] = VISA_OP_SUB,
		[OP_MIN] = VISA_OP_MIN, [OP_MAX] = VISA_OP_MAX,
	};
	bool is_signed = insn_has(in, MOD_S16X2);
	uint16_t src[2], half[2][2], res[2], d;
	struct visa_insn *vi;
	uint32_t i, k, h, mods = 0;

	if (!is_signed && !insn_has(in, MOD_U16X2))
		return false;
	for (i = 0; i < in->nmods; i++)
		mods += in->mods[i] != (is_signed ? MOD_S16X2 : MOD_U16X2);
	if (!ops[in->op] || mods)
		cg_unsupported(g, &in->pos, "'%s' on packed 16-bit integers is not supported",
			       ptx_op_name(in->op));
	nops(g, in, 3);
	for (k = 0; k < 2; k++) {
		src[k] = cg_src(g, fn, &in->ops[1 + k], PT_B32);
		for (h = 0; h < 2; h++) {
			half[k][h] = cg_temp(g, fn);
			vi = cg_insn(fn, VISA_OP_BFE, is_signed ? VISA_T_S32 : VISA_T_U32);
			vi->d = half[k][h];
			vi->a = src[k];
			vi->b = cg_lit(g, fn, 16 * h);
			vi->c = cg_lit(g, fn, 16);
		}
	}
	for (h = 0; h < 2; h++) {
		res[h] = cg_temp(g, fn);
		vi = cg_insn(fn, ops[in->op], is_signed ? VISA_T_S16 : VISA_T_U16);
		vi->d = res[h];
		vi->a = half[0][h];
		vi->b = half[1][h];
	}
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_PACK, VISA_T_B16);
	vi->d = d;
	vi->a = res[0];
	vi->b = res[1];
	return true;
}

void cg_select(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct mods m;

	if (packed16(g, fn, in) || cg_select_video(g, fn, in) ||
	    cg_select_tex(g, fn, in) ||
	    cg_select_mma(g, fn, in) || cg_select_tma(g, fn, in) ||
	    cg_select_async(g, fn, in) ||
	    cg_select_coop(g, fn, in) || cg_select_hint(g, fn, in) ||
	    cg_select_brx(g, fn, in) || cg_select_stack(g, fn, in))
		return;
	scan_mods(g, in, &m);
	switch (in->op) {
	case OP_ADD: case OP_SUB: case OP_ADDC: case OP_SUBC:
		return sel_addsub(g, fn, in, &m);
	case OP_MUL:
		return sel_mul(g, fn, in, &m);
	case OP_MAD: case OP_MADC:
		return sel_mad(g, fn, in, &m);
	case OP_MUL24: case OP_MAD24:
		return sel_mul24(g, fn, in, &m);
	case OP_SHL: case OP_SHR:
		return sel_shift(g, fn, in, &m);
	case OP_POPC: case OP_CLZ: case OP_BFIND:
		return sel_count(g, fn, in, &m);
	case OP_BFE: case OP_BFI:
		return sel_bitfield(g, fn, in, &m);
	case OP_FNS:
		return sel_fns(g, fn, in, &m);
	case OP_PRMT:
		return sel_prmt(g, fn, in, &m);
	case OP_BMSK:
		return sel_bmsk(g, fn, in, &m);
	case OP_SHF:
		return sel_shf(g, fn, in, &m);
	case OP_LOP3:
		return sel_lop3(g, fn, in, &m);
	case OP_DP4A: case OP_DP2A:
		return sel_dp(g, fn, in, &m);
	case OP_TESTP:
		return sel_testp(g, fn, in, &m);
	case OP_SETP:
		return sel_setp(g, fn, in, &m);
	case OP_SET:
		return sel_set(g, fn, in, &m);
	case OP_SELP:
		return sel_selp(g, fn, in, &m);
	case OP_SLCT:
		return sel_slct(g, fn, in, &m);
	case OP_MOV:
		return sel_mov(g, fn, in, &m);
	case OP_CVT:
		return sel_cvt(g, fn, in, &m);
	case OP_CVTA:
		return sel_cvta(g, fn, in, &m);
	case OP_ISSPACEP:
		return sel_isspacep(g, fn, in, &m);
	case OP_LD: case OP_LDU:
		return sel_ld(g, fn, in, &m);
	case OP_ST:
		return sel_st(g, fn, in, &m);
	case OP_ATOM: case OP_RED:
		return sel_atom(g, fn, in, &m);
	case OP_MEMBAR: case OP_FENCE:
		return sel_membar(g, fn, in, &m);
	case OP_BAR: case OP_BARRIER:
		return sel_bar(g, fn, in, &m);
	case OP_SHFL:
		return sel_shfl(g, fn, in, &m);
	case OP_VOTE:
		return sel_vote(g, fn, in, &m);
	case OP_MATCH:
		return sel_match(g, fn, in, &m);
	case OP_REDUX:
		return sel_redux(g, fn, in, &m);
	case OP_ACTIVEMASK:
		return sel_activemask(g, fn, in, &m);
	case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT: case OP_TRAP:
	case OP_BRKPT: case OP_NANOSLEEP:
		return sel_control(g, fn, in, &m);
	case OP_PREFETCH: case OP_PREFETCHU: case OP_PMEVENT:
		return;		/* hints with no effect on this machine */
	default:
		if (simple_ops[in->op].nsrc)
			return sel_simple(g, fn, in, &m, &simple_ops[in->op]);
		cg_unsupported(g, &in->pos,
			       "unknown or unsupported instruction '%s'",
			       ptx_op_name(in->op));
	}
}

void cg_allow_only(struct cg *g, const struct ptx_insn *in,
		   const enum ptx_mod *ok, uint32_t nok)
{
	uint32_t i, j;

	for (i = 0; i < in->nmods; i++) {
		for (j = 0; j < nok; j++)
			if (in->mods[i] == ok[j])
				break;
		if (j == nok)
			cg_unsupported(g, &in->pos,
				       "modifier '.%s' of '%s' is not supported",
				       ptx_mod_name(in->mods[i]),
				       ptx_op_name(in->op));
	}
}
