// SPDX-License-Identifier: GPL-2.0
/*
 * isel_video.c - PTX's video instructions, lowered to ordinary vISA.
 *
 * The scalar video instructions (vadd, vsub, vabsdiff, vmin, vmax, vshl,
 * vshr, vset) pick a byte, half-word or word of each source (.b0-.b3,
 * .h0/.h1, default the whole word), sign- or zero-extend it by its type,
 * compute in more than 32 bits, optionally clamp to the destination
 * type (or to the byte/half-word written), then either combine the
 * result with a third operand c (.add/.min/.max) or write it into one
 * byte or half-word of c (d.b1, d.h0: the merge).  Here the wide
 * intermediate is a 64-bit register: BFE.S64/U64 extracts and extends,
 * ADD/SUB/ABS/MIN/MAX.S64 compute, MIN/MAX with literals clamp, BFI
 * merges.
 *
 * The SIMD ones (vadd2 ... vset2 on two half-words, vadd4 ... vset4 on
 * four bytes) do the same per lane.  Lane i of each operand is chosen
 * among the lanes of the pair {b, a} (a is lanes 0..n-1, b lanes n..2n-1)
 * by .bxyzw / .hxy (the digit for the highest lane comes first; a
 * defaults to its own lanes, b to its own).  Each lane's result is
 * clamped with .sat, then either written into d where the mask (.b3210,
 * .h10, ... on d) says and taken from c elsewhere, or, with .add, summed
 * into c: vabsdiff4.u32.u32.u32.add is a sum of absolute differences.
 *
 * vmad is not here: its operands may be negated ({-}a), which the
 * parser does not read; it is reported as unsupported.
 *
 * How a selector reads an instruction (the pattern of every isel*.c): the
 * parser has decided the opcode and each modifier once, as kinds from the
 * lists ptx_ops.h and ptx_mods.h/ptx_types.h, so a selector switches on
 * in->op (OP_VADD4) and on in->mods[i] (MOD_SAT), and names them in
 * messages with ptx_op_name() and ptx_mod_name().  To convert a selector
 * written with strings: strcmp(in->op, "x") -> in->op == OP_X;
 * insn_has(in, "x") -> insn_has(in, MOD_X); a table of names -> a table
 * of MOD_X (or a switch); "%s", in->op -> ptx_op_name(in->op); and add
 * any new opcode or modifier word as one line of those lists.
 */
#include <string.h>

#include "isel.h"

enum vop { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_SHL, V_SHR,
	   V_SET };

struct video {
	const struct ptx_insn *in;
	enum vop op;
	uint32_t lanes;		/* 0: scalar; 2 or 4: SIMD */
	bool dsigned, asigned, bsigned, sat;
	int secop;		/* -1, or VISA_OP_ADD/MIN/MAX */
	int cmp;		/* vset: enum visa_cmp */
	int shift_mode;		/* vshl/vshr: 0 clamp, 1 wrap */
};

/* vadd4 -> V_ADD with 4 lanes; false if in is no video instruction. */
static bool identify(enum ptx_op op, struct video *v)
{
	switch (op) {
	case OP_VADD: case OP_VADD2: case OP_VADD4:
		v->op = V_ADD;
		break;
	case OP_VSUB: case OP_VSUB2: case OP_VSUB4:
		v->op = V_SUB;
		break;
	case OP_VAVRG2: case OP_VAVRG4:
		v->op = V_AVRG;
		break;
	case OP_VABSDIFF: case OP_VABSDIFF2: case OP_VABSDIFF4:
		v->op = V_ABSDIFF;
		break;
	case OP_VMIN: case OP_VMIN2: case OP_VMIN4:
		v->op = V_MIN;
		break;
	case OP_VMAX: case OP_VMAX2: case OP_VMAX4:
		v->op = V_MAX;
		break;
	case OP_VSHL:
		v->op = V_SHL;
		break;
	case OP_VSHR:
		v->op = V_SHR;
		break;
	case OP_VSET: case OP_VSET2: case OP_VSET4:
		v->op = V_SET;
		break;
	default:
		return false;
	}
	switch (op) {
	case OP_VADD2: case OP_VSUB2: case OP_VAVRG2: case OP_VABSDIFF2:
	case OP_VMIN2: case OP_VMAX2: case OP_VSET2:
		v->lanes = 2;
		break;
	case OP_VADD4: case OP_VSUB4: case OP_VAVRG4: case OP_VABSDIFF4:
	case OP_VMIN4: case OP_VMAX4: case OP_VSET4:
		v->lanes = 4;
		break;
	default:
		v->lanes = 0;
		break;
	}
	return true;
}

static void read_mods(struct cg *g, struct video *v)
{
	const struct ptx_insn *in = v->in;
	bool types[3] = { false };
	uint32_t i, nt = 0, want = v->op == V_SET ? 2 : 3;

	v->secop = -1;
	v->cmp = -1;
	v->shift_mode = -1;
	for (i = 0; i < in->nmods; i++) {
		enum ptx_mod mod = in->mods[i];
		enum ptx_type t = ptx_mod_type(mod);

		if (t == PT_U32 || t == PT_S32) {
			if (nt == 3)
				cg_fail(g, &in->pos, "too many types on '%s'",
					ptx_op_name(in->op));
			types[nt++] = t == PT_S32;
			continue;
		}
		if (t != PT_NONE)
			cg_fail(g, &in->pos, "'%s' takes only .u32 and .s32 types, not .%s",
				ptx_op_name(in->op), ptx_mod_name(mod));
		switch (mod) {
		case MOD_SAT:
			if (v->op == V_SET)
				break;
			v->sat = true;
			continue;
		case MOD_ADD:
		case MOD_MIN:
		case MOD_MAX:
			if (v->secop >= 0 || (v->lanes && mod != MOD_ADD))
				break;
			v->secop = mod == MOD_ADD ? VISA_OP_ADD :
				   mod == MOD_MIN ? VISA_OP_MIN : VISA_OP_MAX;
			continue;
		case MOD_CLAMP:
		case MOD_WRAP:
			if ((v->op != V_SHL && v->op != V_SHR) ||
			    v->shift_mode >= 0)
				break;
			v->shift_mode = mod == MOD_WRAP;
			continue;
		case MOD_EQ: case MOD_NE: case MOD_LT:
		case MOD_LE: case MOD_GT: case MOD_GE:
			if (v->op != V_SET || v->cmp >= 0)
				break;
			v->cmp = mod == MOD_EQ ? VISA_CMP_EQ :
				 mod == MOD_NE ? VISA_CMP_NE :
				 mod == MOD_LT ? VISA_CMP_LT :
				 mod == MOD_LE ? VISA_CMP_LE :
				 mod == MOD_GT ? VISA_CMP_GT : VISA_CMP_GE;
			continue;
		default:
			break;
		}
		cg_unsupported(g, &in->pos, "modifier '.%s' of '%s' is not supported",
			       ptx_mod_name(mod), ptx_op_name(in->op));
	}
	if (nt != want)
		cg_fail(g, &in->pos, "'%s' needs %s", ptx_op_name(in->op),
			want == 2 ? "two types (.atype.btype)" :
				    "three types (.dtype.atype.btype)");
	if (v->op == V_SET) {
		/* The comparison's result is unsigned (0 or 1). */
		v->asigned = types[0];
		v->bsigned = types[1];
		if (v->cmp < 0)
			cg_fail(g, &in->pos, "'%s' needs a comparison (.eq, .lt, ...)",
				ptx_op_name(in->op));
	} else {
		v->dsigned = types[0];
		v->asigned = types[1];
		v->bsigned = types[2];
	}
	if ((v->op == V_SHL || v->op == V_SHR) && v->bsigned)
		cg_fail(g, &in->pos, "the shift amount of '%s' is .u32",
			ptx_op_name(in->op));
	if ((v->op == V_SHL || v->op == V_SHR) && v->shift_mode < 0)
		cg_fail(g, &in->pos, "'%s' needs .clamp or .wrap",
			ptx_op_name(in->op));
	if (v->lanes && v->sat && v->secop >= 0)
		cg_fail(g, &in->pos, "'%s' cannot saturate with .add",
			ptx_op_name(in->op));
}

static uint16_t emit3(struct cg_fn *fn, uint16_t op, uint8_t type,
		      uint16_t d, uint16_t a, uint16_t b)
{
	struct visa_insn *vi = cg_insn(fn, op, type);

	vi->d = d;
	vi->a = a;
	vi->b = b;
	return d;
}

static uint16_t bfe(struct cg *g, struct cg_fn *fn, uint8_t type, uint16_t a,
		    uint32_t pos, uint32_t len)
{
	struct visa_insn *vi = cg_insn(fn, VISA_OP_BFE, type);
	uint16_t d = cg_temp(g, fn);

	vi->d = d;
	vi->a = a;
	vi->b = cg_lit(g, fn, pos);
	vi->c = cg_lit(g, fn, len);
	return d;
}

static uint16_t bfi(struct cg *g, struct cg_fn *fn, uint16_t field,
		    uint16_t into, uint32_t pos, uint32_t len)
{
	struct visa_insn *vi = cg_insn(fn, VISA_OP_BFI, VISA_T_B32);
	uint16_t d = cg_temp(g, fn);

	vi->d = d;
	vi->a = field;
	vi->b = into;
	vi->c = cg_lit(g, fn, pos);
	vi->e = cg_lit(g, fn, len);
	return d;
}

/* Clamp x (in a wide signed register) to [lo, hi]. */
static uint16_t clamp(struct cg *g, struct cg_fn *fn, uint8_t type,
		      uint16_t x, int64_t lo, int64_t hi)
{
	x = emit3(fn, VISA_OP_MIN, type, cg_temp(g, fn), x,
		  cg_lit(g, fn, (uint64_t)hi));
	return emit3(fn, VISA_OP_MAX, type, cg_temp(g, fn), x,
		     cg_lit(g, fn, (uint64_t)lo));
}

static void sat_range(bool sgn, uint32_t bits, int64_t *lo, int64_t *hi)
{
	*lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
	*hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
}

/* The primary operation on two extended values; type is S64 or S32. */
static uint16_t primary(struct cg *g, struct cg_fn *fn, const struct video *v,
			uint8_t type, uint16_t x, uint16_t y)
{
	struct visa_insn *vi;
	uint16_t t, s;

	switch (v->op) {
	case V_ADD:
		return emit3(fn, VISA_OP_ADD, type, cg_temp(g, fn), x, y);
	case V_SUB:
		return emit3(fn, VISA_OP_SUB, type, cg_temp(g, fn), x, y);
	case V_ABSDIFF:
		t = emit3(fn, VISA_OP_SUB, type, cg_temp(g, fn), x, y);
		return emit3(fn, VISA_OP_ABS, type, cg_temp(g, fn), t,
			     VISA_OPND_NONE);
	case V_MIN:
		return emit3(fn, VISA_OP_MIN, type, cg_temp(g, fn), x, y);
	case V_MAX:
		return emit3(fn, VISA_OP_MAX, type, cg_temp(g, fn), x, y);
	case V_AVRG:
		/* (s + 1) >> 1 when s >= 0, s >> 1 when not: add 1 + (s >> 31). */
		s = emit3(fn, VISA_OP_ADD, type, cg_temp(g, fn), x, y);
		t = emit3(fn, VISA_OP_SHR, type, cg_temp(g, fn), s,
			  cg_lit(g, fn, 31));
		t = emit3(fn, VISA_OP_ADD, type, cg_temp(g, fn), s, t);
		t = emit3(fn, VISA_OP_ADD, type, cg_temp(g, fn), t,
			  cg_lit(g, fn, 1));
		return emit3(fn, VISA_OP_SHR, type, cg_temp(g, fn), t,
			     cg_lit(g, fn, 1));
	case V_SET:
		vi = cg_insn(fn, VISA_OP_SET, VISA_T_U32);
		vi->type2 = type;
		vi->d = cg_temp(g, fn);
		vi->a = x;
		vi->b = y;
		vi->mod = VISA_MOD_MKSUB(v->cmp);
		return emit3(fn, VISA_OP_AND, VISA_T_B32, cg_temp(g, fn), vi->d,
			     cg_lit(g, fn, 1));
	case V_SHL:
	case V_SHR:
		/* .clamp: amounts above 32 shift by 32; .wrap: modulo 32. */
		if (v->shift_mode)
			y = emit3(fn, VISA_OP_AND, VISA_T_B64, cg_temp(g, fn), y,
				  cg_lit(g, fn, 31));
		else
			y = emit3(fn, VISA_OP_MIN, VISA_T_U64, cg_temp(g, fn), y,
				  cg_lit(g, fn, 32));
		return emit3(fn, v->op == V_SHL ? VISA_OP_SHL : VISA_OP_SHR,
			     VISA_T_S64, cg_temp(g, fn), x, y);
	}
	return VISA_OPND_NONE;
}

/* .b0-.b3 / .h0-.h1 of a scalar operand: bit position and width. */
static void scalar_part(struct cg *g, const struct video *v,
			const struct ptx_operand *o, uint32_t *pos,
			uint32_t *len)
{
	const char *s = o->vsel;

	*pos = 0;
	*len = 32;
	if (!s)
		return;
	if (s[1] && !s[2] && ((s[0] == 'b' && s[1] <= '3') ||
			      (s[0] == 'h' && s[1] <= '1'))) {
		*len = s[0] == 'b' ? 8 : 16;
		*pos = (uint32_t)(s[1] - '0') * *len;
		return;
	}
	cg_fail(g, &o->pos, "'%s' takes .b0-.b3 or .h0/.h1, not .%s",
		ptx_op_name(v->in->op), s);
}

static void lower_scalar(struct cg *g, struct cg_fn *fn, struct video *v)
{
	const struct ptx_insn *in = v->in;
	uint32_t apos, alen, bpos, blen, dpos, dlen;
	bool merge = in->ops[0].vsel != NULL;
	uint16_t a, b, c = VISA_OPND_NONE, x, y, t, d;
	bool rsigned = v->op == V_SET ? false : v->dsigned;

	if (in->nops != (merge || v->secop >= 0 ? 4u : 3u))
		cg_fail(g, &in->pos, "'%s' takes %s operands", ptx_op_name(in->op),
			merge || v->secop >= 0 ? "four" : "three");
	if (merge && v->secop >= 0)
		cg_fail(g, &in->pos, "'%s' cannot both merge into d.%s and use a secondary operation",
			ptx_op_name(in->op), in->ops[0].vsel);
	scalar_part(g, v, &in->ops[0], &dpos, &dlen);
	scalar_part(g, v, &in->ops[1], &apos, &alen);
	scalar_part(g, v, &in->ops[2], &bpos, &blen);
	a = cg_src(g, fn, &in->ops[1], PT_B32);
	b = cg_src(g, fn, &in->ops[2], PT_B32);
	if (in->nops == 4)
		c = cg_src(g, fn, &in->ops[3], PT_B32);
	x = bfe(g, fn, v->asigned ? VISA_T_S64 : VISA_T_U64, a, apos, alen);
	y = bfe(g, fn, v->bsigned ? VISA_T_S64 : VISA_T_U64, b, bpos, blen);
	t = primary(g, fn, v, VISA_T_S64, x, y);
	if (v->sat) {
		int64_t lo, hi;

		sat_range(v->dsigned, dlen, &lo, &hi);
		t = clamp(g, fn, VISA_T_S64, t, lo, hi);
	}
	if (v->secop >= 0) {
		/* c has the sign of the destination type. */
		uint16_t cx = bfe(g, fn, rsigned ? VISA_T_S64 : VISA_T_U64, c,
				  0, 32);

		t = emit3(fn, (uint16_t)v->secop, VISA_T_S64, cg_temp(g, fn),
			  t, cx);
	}
	if (merge)
		t = bfi(g, fn, t, c, dpos, dlen);
	d = cg_dst(g, fn, &in->ops[0]);
	emit3(fn, VISA_OP_AND, VISA_T_B32, d, t, cg_lit(g, fn, 0xffffffffu));
}

/*
 * The lane selector of a SIMD operand: sel[i] = which lane of {b, a}
 * feeds lane i.  .b3210 lists lane 3's source first.
 */
static void simd_select(struct cg *g, const struct video *v,
			const struct ptx_operand *o, uint32_t first,
			uint32_t *sel)
{
	const char *s = o->vsel;
	uint32_t n = v->lanes, i;

	for (i = 0; i < n; i++)
		sel[i] = first + i;
	if (!s)
		return;
	if (s[0] != (n == 4 ? 'b' : 'h') || strlen(s + 1) != n)
		goto bad;
	for (i = 0; i < n; i++) {
		uint32_t lane = (uint32_t)(s[1 + i] - '0');

		if (lane >= 2 * n)
			goto bad;
		sel[n - 1 - i] = lane;
	}
	return;
bad:
	cg_fail(g, &o->pos, "'%s' takes a selector of %u %s from %s, not .%s",
		ptx_op_name(v->in->op), n, n == 4 ? "bytes" : "half-words",
		n == 4 ? "0-7 (.b3210)" : "0-3 (.h10)", s);
}

/* The mask on d: which lanes the result goes to (all by default). */
static uint32_t simd_mask(struct cg *g, const struct video *v,
			  const struct ptx_operand *o)
{
	const char *s = o->vsel;
	uint32_t n = v->lanes, mask = 0, prev = n;

	if (!s)
		return (1u << n) - 1;
	if (s[0] != (n == 4 ? 'b' : 'h') || !s[1])
		goto bad;
	/* Lanes from highest to lowest, each once: .b31, .h10, .b3210. */
	for (s++; *s; s++) {
		uint32_t lane = (uint32_t)(*s - '0');

		if (lane >= prev)
			goto bad;
		mask |= 1u << lane;
		prev = lane;
	}
	return mask;
bad:
	cg_fail(g, &o->pos, "'%s' takes a mask of %s, not .%s", ptx_op_name(v->in->op),
		n == 4 ? "bytes (.b3210, .b20, ...)" : "half-words (.h0, .h1, .h10)",
		o->vsel);
}

static void lower_simd(struct cg *g, struct cg_fn *fn, struct video *v)
{
	const struct ptx_insn *in = v->in;
	uint32_t n = v->lanes, w = 32 / n, i, mask;
	uint32_t asel[4], bsel[4];
	uint16_t src[2], c, t[4], acc, d;

	if (in->nops != 4)
		cg_fail(g, &in->pos, "'%s' takes four operands", ptx_op_name(in->op));
	mask = simd_mask(g, v, &in->ops[0]);
	simd_select(g, v, &in->ops[1], 0, asel);
	simd_select(g, v, &in->ops[2], n, bsel);
	src[0] = cg_src(g, fn, &in->ops[1], PT_B32);
	src[1] = cg_src(g, fn, &in->ops[2], PT_B32);
	c = cg_src(g, fn, &in->ops[3], PT_B32);
	/* Every lane is computed before d is written: d may be a source. */
	for (i = 0; i < n; i++) {
		uint16_t x, y;

		if (!(mask >> i & 1))
			continue;
		x = bfe(g, fn, v->asigned ? VISA_T_S32 : VISA_T_U32,
			src[asel[i] / n], asel[i] % n * w, w);
		y = bfe(g, fn, v->bsigned ? VISA_T_S32 : VISA_T_U32,
			src[bsel[i] / n], bsel[i] % n * w, w);
		t[i] = primary(g, fn, v, VISA_T_S32, x, y);
		if (v->sat) {
			int64_t lo, hi;

			sat_range(v->dsigned, w, &lo, &hi);
			t[i] = clamp(g, fn, VISA_T_S32, t[i], lo, hi);
		}
	}
	acc = c;
	for (i = 0; i < n; i++) {
		if (!(mask >> i & 1))
			continue;
		if (v->secop >= 0)
			acc = emit3(fn, VISA_OP_ADD, VISA_T_U32, cg_temp(g, fn),
				    acc, t[i]);
		else
			acc = bfi(g, fn, t[i], acc, i * w, w);
	}
	d = cg_dst(g, fn, &in->ops[0]);
	emit3(fn, VISA_OP_MOV, VISA_T_B32, d, acc, VISA_OPND_NONE);
}

bool cg_select_video(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	struct video v = { .in = in };
	uint32_t i;

	if (!identify(in->op, &v))
		return false;
	read_mods(g, &v);
	for (i = 0; i < in->nops; i++)
		if (in->ops[i].kind != PO_REG && in->ops[i].kind != PO_IMM)
			cg_fail(g, &in->ops[i].pos,
				"operands of '%s' are registers or integers",
				ptx_op_name(in->op));
	if (in->ops[0].kind != PO_REG)
		cg_fail(g, &in->ops[0].pos, "the destination of '%s' is a register",
			ptx_op_name(in->op));
	if (v.lanes)
		lower_simd(g, fn, &v);
	else
		lower_scalar(g, fn, &v);
	return true;
}
