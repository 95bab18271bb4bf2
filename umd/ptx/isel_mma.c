// SPDX-License-Identifier: GPL-2.0
/*
 * isel_mma.c - the tensor-core instructions: wmma.load/store/mma,
 * mma.sync, ldmatrix, stmatrix, movmatrix.
 *
 * Each becomes the vISA's warp-collective matrix instructions
 * (include/vgpu_mma.h), whose operands travel through the warp's staging
 * slots because a fragment is more registers than a vISA instruction
 * names:
 *
 *   wmma.load.a   MMALD (fragment A from memory), MMAGET x 2
 *   wmma.mma      MMAPUT A, B, C (four registers each), MMA, MMAGET D
 *   wmma.store.d  MMAPUT D, MMAST
 *   mma.sync      as wmma.mma
 *   ldmatrix      LDMATRIX, MMAGET;  stmatrix: MMAPUT, STMATRIX
 *   movmatrix     MMAPUT, MOVMATRIX, MMAGET
 *
 * and cvt.{rna,rn,rz}.tf32.f32 (the rounding WMMA's tf32 users apply to
 * their inputs: __float_to_tf32()), lowered to integer operations.
 *
 * How many registers a fragment has comes from visa_mma_fragment(), the
 * same function that tells the firmware where their elements lie.
 */
#include <string.h>

#include "isel.h"
#include "vgpu_mma.h"

/* The modifier of each vISA shape: MOD_M16N8K16 for VISA_MMA_M16N8K16. */
static const enum ptx_mod shape_mods[VISA_MMA_SHAPE_COUNT] = {
#define X(name, m, n, k) MOD_##name,
	VISA_MMA_SHAPES(X)
#undef X
};

static const enum ptx_mod type_mods[VISA_MMA_TYPE_COUNT] = {
	[VISA_MMA_F16] = MOD_F16, [VISA_MMA_BF16] = MOD_BF16,
	[VISA_MMA_TF32] = MOD_TF32, [VISA_MMA_F32] = MOD_F32,
	[VISA_MMA_F64] = MOD_F64, [VISA_MMA_S8] = MOD_S8, [VISA_MMA_U8] = MOD_U8,
	[VISA_MMA_S4] = MOD_S4, [VISA_MMA_U4] = MOD_U4, [VISA_MMA_B1] = MOD_B1,
	[VISA_MMA_S32] = MOD_S32, [VISA_MMA_E4M3] = MOD_E4M3,
	[VISA_MMA_E5M2] = MOD_E5M2,
};

static const unsigned int slot_base[3] = {
	VISA_MMA_SLOT_A, VISA_MMA_SLOT_B, VISA_MMA_SLOT_C,
};

/* The modifiers of one instruction, sorted into what they say. */
struct mma_mods {
	int shape;		/* enum visa_mma_shape, -1 none */
	int types[4];		/* enum visa_mma_type, in order */
	unsigned int ntypes;
	int layout[2];		/* row 0 / col 1, in order; -1 none */
	unsigned int nlayout;
	uint8_t space;		/* enum visa_space */
	bool sync, satfinite, trans, popc;
	unsigned int bop;	/* VISA_MMA_BOP_* */
	unsigned int num;	/* ldmatrix .x1/.x2/.x4 */
	char matrix;		/* wmma.load .a/.b/.c, wmma.store .d */
};

static void read_mods(struct cg *g, const struct ptx_insn *in, uint32_t first,
		      struct mma_mods *mm)
{
	memset(mm, 0, sizeof(*mm));
	mm->shape = -1;
	mm->layout[0] = mm->layout[1] = -1;
	mm->space = VISA_SPACE_GENERIC;
	for (uint32_t i = first; i < in->nmods; i++) {
		enum ptx_mod s = in->mods[i];
		unsigned int t;

		for (t = 0; t < VISA_MMA_SHAPE_COUNT; t++)
			if (s == shape_mods[t])
				break;
		if (t < VISA_MMA_SHAPE_COUNT) {
			mm->shape = (int)t;
			continue;
		}
		for (t = 0; t < VISA_MMA_TYPE_COUNT; t++)
			if (s == type_mods[t] && s != MOD_NONE)
				break;
		if (t < VISA_MMA_TYPE_COUNT && mm->ntypes < 4) {
			mm->types[mm->ntypes++] = (int)t;
			continue;
		}
		switch (s) {
		case MOD_ROW:
		case MOD_COL:
			if (mm->nlayout == 2)
				goto unsupported;
			mm->layout[mm->nlayout++] = s == MOD_COL;
			break;
		case MOD_GLOBAL:
			mm->space = VISA_SPACE_GLOBAL;
			break;
		case MOD_SHARED:
		case MOD_SHARED_CTA:
			mm->space = VISA_SPACE_SHARED;
			break;
		case MOD_SATFINITE:
			mm->satfinite = true;
			break;
		case MOD_TRANS:
			mm->trans = true;
			break;
		case MOD_POPC:
			mm->popc = true;
			break;
		case MOD_XOR:
			mm->bop = VISA_MMA_BOP_XOR;
			break;
		case MOD_AND:
			mm->bop = VISA_MMA_BOP_AND;
			break;
		case MOD_X1:
		case MOD_X2:
		case MOD_X4:
			mm->num = s == MOD_X1 ? 1 : s == MOD_X2 ? 2 : 4;
			break;
		case MOD_A:
		case MOD_B:
		case MOD_C:
		case MOD_D:
			if (mm->matrix)
				goto unsupported;
			mm->matrix = ptx_mod_name(s)[0];
			break;
		case MOD_SYNC:
			mm->sync = true;
			break;
		case MOD_ALIGNED:
		case MOD_RN:
		case MOD_M8N8:
		case MOD_B16:
			break;
		default:
unsupported:
			cg_unsupported(g, &in->pos, "'.%s' on '%s' is not supported",
				       ptx_mod_name(s), ptx_op_name(in->op));
		}
	}
	if (!mm->sync)
		cg_fail(g, &in->pos, "'%s' needs .sync", ptx_op_name(in->op));
}

/* The registers of a fragment operand: a {vector} or one register. */
static uint32_t frag_regs(struct cg *g, const struct ptx_operand *o,
			  uint32_t want, const struct ptx_operand **regs)
{
	uint32_t n = o->kind == PO_VEC ? o->nelems : 1;

	if (o->kind != PO_VEC && o->kind != PO_REG)
		cg_fail(g, &o->pos, "a fragment is a register or {registers}");
	if (n != want)
		cg_fail(g, &o->pos, "this fragment has %u registers, not %u",
			want, n);
	for (uint32_t i = 0; i < n; i++)
		regs[i] = o->kind == PO_VEC ? &o->elems[i] : o;
	return n;
}

static uint16_t reg_src(struct cg *g, struct cg_fn *fn,
			const struct ptx_operand *o)
{
	if (o->kind != PO_REG && o->kind != PO_IMM && o->kind != PO_FIMM)
		cg_fail(g, &o->pos, "a fragment element is a register");
	return cg_src(g, fn, o, PT_B64);
}

/* MMAPUT the registers of @o into the slots from @base. */
static void put(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		uint32_t want, unsigned int base)
{
	const struct ptx_operand *regs[16];
	uint32_t n = frag_regs(g, o, want, regs);

	for (uint32_t i = 0; i < n; i += 4) {
		struct visa_insn *vi;
		uint16_t r[4];

		for (uint32_t j = 0; j < 4; j++)
			r[j] = i + j < n ? reg_src(g, fn, regs[i + j]) :
					   VISA_OPND_NONE;
		vi = cg_insn(fn, VISA_OP_MMAPUT, VISA_T_B64);
		vi->a = r[0];
		vi->b = r[1];
		vi->c = r[2];
		vi->e = r[3];
		vi->imm = base + i;
	}
}

/* MMAGET the slots from @base into the registers of @o. */
static void get(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		uint32_t want, unsigned int base)
{
	const struct ptx_operand *regs[16];
	uint32_t n = frag_regs(g, o, want, regs);

	for (uint32_t i = 0; i < n; i += 4) {
		struct visa_insn *vi;
		uint16_t r[4];

		for (uint32_t j = 0; j < 4; j++)
			r[j] = i + j < n ? cg_dst(g, fn, regs[i + j]) :
					   VISA_OPND_NONE;
		vi = cg_insn(fn, VISA_OP_MMAGET, VISA_T_B64);
		vi->d = r[0];
		vi->b = r[1];
		vi->c = r[2];
		vi->e = r[3];
		vi->imm = base + i;
	}
}

/* The address of [operand] in one GPR (plus the space it is in). */
static uint16_t address(struct cg *g, struct cg_fn *fn,
			const struct ptx_operand *o, uint8_t *space)
{
	enum ptx_space sp = *space == VISA_SPACE_GLOBAL ? PS_GLOBAL :
			    *space == VISA_SPACE_SHARED ? PS_SHARED :
			    PS_GENERIC;
	struct cg_addr ad;
	struct visa_insn *vi;
	uint16_t t;

	cg_address(g, fn, o, sp, &ad);
	if (ad.argreg)
		cg_unsupported(g, &o->pos, "a matrix in a call's parameter");
	*space = ad.space;
	if (ad.a == VISA_OPND_NONE)
		return cg_lit(g, fn, ad.imm);
	if (!ad.imm)
		return ad.a;
	t = cg_temp(g, fn);
	vi = cg_insn(fn, VISA_OP_ADD, VISA_T_U64);
	vi->d = t;
	vi->a = ad.a;
	vi->b = cg_lit(g, fn, ad.imm);
	return t;
}

static struct visa_mma_frag fragment(struct cg *g, const struct ptx_insn *in,
				     int shape, int type, unsigned int mx)
{
	bool sp = in->op == OP_MMA && in->nmods &&
		  (in->mods[0] == MOD_SP ||
		   in->mods[0] == MOD_SP_ORDERED_METADATA);
	struct visa_mma_frag f;

	if (shape < 0 || type < 0 ||
	    (sp ? visa_mma_sp_fragment((unsigned int)shape, (unsigned int)type,
				       mx, &f) :
	     visa_mma_fragment((unsigned int)shape, (unsigned int)type, mx,
			       &f)) ||
	    (f.quadpair && in->op == OP_WMMA))	/* m8n8k4 f16: mma only */
		cg_unsupported(g, &in->pos,
			       "'%s' with this shape and type is not supported",
			       ptx_op_name(in->op));
	return f;
}

/* wmma.load.{a,b,c} and wmma.store.d */
static void sel_wmma_ldst(struct cg *g, struct cg_fn *fn,
			  const struct ptx_insn *in, bool store)
{
	struct mma_mods mm;
	const struct ptx_operand *addr, *frag, *stride;
	struct visa_mma_frag f;
	struct visa_insn *vi;
	unsigned int mx;
	uint64_t desc;
	uint16_t a, b;

	read_mods(g, in, 1, &mm);
	if (mm.ntypes != 1 || mm.nlayout != 1 || !mm.matrix ||
	    (store != (mm.matrix == 'd')) || in->nops < 2 || in->nops > 3)
		cg_fail(g, &in->pos, "malformed '%s.%s'", ptx_op_name(in->op),
			ptx_mod_name(in->mods[0]));
	mx = mm.matrix == 'a' ? VISA_MMA_A : mm.matrix == 'b' ? VISA_MMA_B :
	     VISA_MMA_C;
	f = fragment(g, in, mm.shape, mm.types[0], mx);
	addr = &in->ops[store ? 0 : 1];
	frag = &in->ops[store ? 1 : 0];
	stride = in->nops == 3 ? &in->ops[2] : NULL;
	if (mx == VISA_MMA_C)
		desc = VISA_MMA_DESC(mm.shape, 0, mm.types[0], mm.types[0]);
	else
		desc = VISA_MMA_DESC(mm.shape, mm.types[0], 0, 0);
	desc |= VISA_MMA_MKMATRIX(mx) | (mm.layout[0] ? VISA_MMA_COLMAJOR : 0);
	if (store)
		put(g, fn, frag, f.nregs, VISA_MMA_SLOT_C);
	a = address(g, fn, addr, &mm.space);
	/* no stride: the matrix is dense */
	b = stride ? cg_src(g, fn, stride, PT_U32) :
	    cg_lit(g, fn, mm.layout[0] ? f.rows : f.cols);
	vi = cg_insn(fn, store ? VISA_OP_MMAST : VISA_OP_MMALD, VISA_T_B64);
	vi->a = a;
	vi->b = b;
	vi->type2 = mm.space;
	vi->imm = desc;
	if (!store)
		get(g, fn, frag, f.nregs, slot_base[mx]);
}

/*
 * mma.sync's A and B may differ in what the hardware multiplies alike:
 * the signedness of 8- and 4-bit integers (.s8.u8, .u4.s4), or the two
 * fp8 formats (.e4m3.e5m2).
 */
static bool mixed_ok(int a, int b)
{
	static const int pairs[][2] = {
		{ VISA_MMA_S8, VISA_MMA_U8 }, { VISA_MMA_S4, VISA_MMA_U4 },
		{ VISA_MMA_E4M3, VISA_MMA_E5M2 },
	};

	for (unsigned int i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if ((a == pairs[i][0] && b == pairs[i][1]) ||
		    (a == pairs[i][1] && b == pairs[i][0]))
			return true;
	return false;
}

/*
 * mma.sp: the kinds done (f16 and bf16 m16n8k16/k32, s8/u8 m16n8k32/k64,
 * as recorded on the H100) and the sparsity selector, an immediate below
 * 64 / k (which lanes of a quad give the metadata).  Returns it.
 */
static uint64_t sp_check(struct cg *g, const struct ptx_insn *in,
			 const struct mma_mods *mm, int at)
{
	const struct ptx_operand *s = &in->ops[5];
	unsigned int m, n, k;

	if (mm->shape < 0 || at < 0 ||
	    !(visa_mma_sp_types((unsigned int)mm->shape) >> at & 1))
		cg_unsupported(g, &in->pos, "'mma.sp' of this shape and type "
			       "is not supported (f16, bf16 m16n8k16/k32; "
			       "s8, u8 m16n8k32/k64)");
	visa_mma_dims((unsigned int)mm->shape, &m, &n, &k);
	if (s->kind != PO_IMM || s->imm >= 64 / k)
		cg_fail(g, &s->pos, "the sparsity selector is a constant below "
			"%u here", 64 / k);
	return s->imm;
}

/*
 * wmma.mma (types: .dtype.ctype for f16/f32, else .dtype.atype.btype.ctype)
 * and mma.sync (always four types).
 */
static void sel_mma(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		    uint32_t first, bool sparse)
{
	struct mma_mods mm;
	struct visa_mma_frag fa, fb, fc, fd;
	struct visa_insn *vi;
	int at, bt = -1, ct, dt;
	uint64_t desc, sel = 0;

	read_mods(g, in, first, &mm);
	if (in->nops != (sparse ? 6 : 4))
		cg_fail(g, &in->pos, sparse ? "'mma.sp' takes d, a, b, c, e, "
			"selector" : "'%s' takes d, a, b, c",
			ptx_op_name(in->op));
	if (mm.ntypes == 2) {
		dt = mm.types[0];
		ct = mm.types[1];
		at = VISA_MMA_F16;
	} else if (mm.ntypes == 4 && (mm.types[1] == mm.types[2] ||
				      mixed_ok(mm.types[1], mm.types[2]))) {
		dt = mm.types[0];
		at = mm.types[1];
		bt = mm.types[2];
		ct = mm.types[3];
	} else {
		cg_unsupported(g, &in->pos, "'%s' with these types is not supported",
			       ptx_op_name(in->op));
	}
	if ((at == VISA_MMA_B1) != (mm.bop != 0) || (mm.bop && !mm.popc))
		cg_fail(g, &in->pos, "b1 '%s' needs .xor.popc or .and.popc",
			ptx_op_name(in->op));
	if (mm.satfinite && at != VISA_MMA_S8 && at != VISA_MMA_U8 &&
	    at != VISA_MMA_S4 && at != VISA_MMA_U4)
		cg_unsupported(g, &in->pos, "'.satfinite' on '%s' with %s inputs",
			       ptx_op_name(in->op), ptx_mod_name(type_mods[at]));
	if (sparse)
		sel = sp_check(g, in, &mm, at);
	/* mma.sp: A is the compressed one, of the shape of half the k */
	fa = fragment(g, in, mm.shape, at, VISA_MMA_A);
	if (bt < 0)
		bt = at;
	if (bt != at && first && !sparse)	/* wmma: never */
		cg_unsupported(g, &in->pos, "'%s' takes A and B of one type",
			       ptx_op_name(in->op));
	fb = fragment(g, in, mm.shape, bt, VISA_MMA_B);
	fc = fragment(g, in, mm.shape, ct, VISA_MMA_C);
	fd = fragment(g, in, mm.shape, dt, VISA_MMA_C);
	desc = VISA_MMA_DESC(mm.shape, at, ct, dt) | VISA_MMA_MKBOP(mm.bop) |
	       (mm.satfinite ? VISA_MMA_SATFINITE : 0) |
	       (bt != at ? VISA_MMA_MKBTYPE(bt) : 0);
	if (fa.quadpair) {
		/* m8n8k4 f16: any layouts; .f16 D with .f32 C is no mma */
		if (mm.nlayout != 2 || (dt == VISA_MMA_F16 &&
					ct == VISA_MMA_F32))
			cg_fail(g, &in->pos, "'mma.m8n8k4' with f16 inputs "
				"takes .alayout.blayout and no .f16 D with "
				".f32 C");
		desc |= (mm.layout[0] ? VISA_MMA_QP_ACOL : 0) |
			(mm.layout[1] ? 0 : VISA_MMA_QP_BROW);
	}
	put(g, fn, &in->ops[1], fa.nregs, VISA_MMA_SLOT_A);
	put(g, fn, &in->ops[2], fb.nregs, VISA_MMA_SLOT_B);
	put(g, fn, &in->ops[3], fc.nregs, VISA_MMA_SLOT_C);
	if (sparse) {
		put(g, fn, &in->ops[4], 1, VISA_MMA_SLOT_META);
		desc |= VISA_MMA_SPARSE | VISA_MMA_MKSPSEL(sel);
	}
	vi = cg_insn(fn, VISA_OP_MMA, VISA_T_B64);
	vi->imm = desc;
	get(g, fn, &in->ops[0], fd.nregs, VISA_MMA_SLOT_C);
}

/* ldmatrix / stmatrix .x1/.x2/.x4 {.trans} .b16, movmatrix.trans.b16 */
static void sel_matrix(struct cg *g, struct cg_fn *fn,
		       const struct ptx_insn *in)
{
	bool load = in->op == OP_LDMATRIX;
	bool move = in->op == OP_MOVMATRIX;
	struct mma_mods mm;
	struct visa_insn *vi;
	uint16_t a;

	read_mods(g, in, 0, &mm);
	if (in->nops != 2 || mm.ntypes || (move ? !mm.trans || mm.num :
					   !mm.num))
		cg_fail(g, &in->pos, "malformed '%s'", ptx_op_name(in->op));
	if (move) {
		put(g, fn, &in->ops[1], 1, 0);
		cg_insn(fn, VISA_OP_MOVMATRIX, VISA_T_B64);
		get(g, fn, &in->ops[0], 1, 0);
		return;
	}
	if (!load)
		put(g, fn, &in->ops[1], mm.num, 0);
	a = address(g, fn, &in->ops[load ? 1 : 0], &mm.space);
	vi = cg_insn(fn, load ? VISA_OP_LDMATRIX : VISA_OP_STMATRIX,
		     VISA_T_B64);
	vi->a = a;
	vi->type2 = mm.space;
	vi->imm = mm.num | (mm.trans ? VISA_LDM_TRANS : 0);
	if (load)
		get(g, fn, &in->ops[0], mm.num, 0);
}

static uint16_t op3(struct cg *g, struct cg_fn *fn, uint16_t op, uint8_t type,
		    uint16_t a, uint16_t b)
{
	struct visa_insn *vi = cg_insn(fn, op, type);

	vi->d = cg_temp(g, fn);
	vi->a = a;
	vi->b = b;
	return vi->d;
}

/*
 * cvt.{rna,rn,rz}.tf32.f32: an f32 rounded to tf32's 10 fraction bits
 * (the low 13 bits cleared), infinities and NaNs unchanged.  Integer
 * arithmetic on the bits: a carry out of the fraction raises the
 * exponent, and out of the largest finite value gives infinity.
 */
static void sel_cvt_tf32(struct cg *g, struct cg_fn *fn,
			 const struct ptx_insn *in)
{
	bool rna = insn_has(in, MOD_RNA), rn = insn_has(in, MOD_RN);
	uint16_t a, x, r, p, d;
	struct visa_insn *vi;

	if (!insn_has(in, MOD_F32) || in->nops != 2 || insn_has(in, MOD_RELU) ||
	    insn_has(in, MOD_SATFINITE) || (!rna && !rn && !insn_has(in, MOD_RZ)))
		cg_unsupported(g, &in->pos,
			       "only cvt.{rna,rn,rz}.tf32.f32 is supported");
	a = cg_src(g, fn, &in->ops[1], PT_B32);
	x = a;
	if (rna) {
		x = op3(g, fn, VISA_OP_ADD, VISA_T_U32, a, cg_lit(g, fn, 0x1000));
	} else if (rn) {	/* + 0xfff + the lowest kept bit: ties to even */
		uint16_t lsb = op3(g, fn, VISA_OP_SHR, VISA_T_U32, a,
				   cg_lit(g, fn, 13));

		lsb = op3(g, fn, VISA_OP_AND, VISA_T_B32, lsb, cg_lit(g, fn, 1));
		x = op3(g, fn, VISA_OP_ADD, VISA_T_U32, a, cg_lit(g, fn, 0xfff));
		x = op3(g, fn, VISA_OP_ADD, VISA_T_U32, x, lsb);
	}
	r = op3(g, fn, VISA_OP_AND, VISA_T_B32, x, cg_lit(g, fn, 0xffffe000u));
	/* exponent all ones: infinity or NaN stays as it is */
	x = op3(g, fn, VISA_OP_AND, VISA_T_B32, a, cg_lit(g, fn, 0x7f800000u));
	p = cg_ptemp(g, fn);
	vi = cg_insn(fn, VISA_OP_SETP, VISA_T_U32);
	vi->a = x;
	vi->b = cg_lit(g, fn, 0x7f800000u);
	vi->pd = p;
	vi->mod = VISA_MOD_MKSUB(VISA_CMP_EQ);
	d = cg_dst(g, fn, &in->ops[0]);
	vi = cg_insn(fn, VISA_OP_SELP, VISA_T_B32);
	vi->d = d;
	vi->a = a;
	vi->b = r;
	vi->pa = p;
}

bool cg_select_mma(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in)
{
	switch (in->op) {
	case OP_CVT:
		if (!insn_has(in, MOD_TF32))
			return false;
		sel_cvt_tf32(g, fn, in);
		return true;
	case OP_WMMA:
		if (!in->nmods)
			cg_fail(g, &in->pos, "'wmma' needs .load, .store or .mma");
		switch (in->mods[0]) {
		case MOD_LOAD:
			sel_wmma_ldst(g, fn, in, false);
			break;
		case MOD_STORE:
			sel_wmma_ldst(g, fn, in, true);
			break;
		case MOD_MMA:
			sel_mma(g, fn, in, 1, false);
			break;
		default:
			cg_unsupported(g, &in->pos, "'wmma.%s' is not supported",
				       ptx_mod_name(in->mods[0]));
		}
		return true;
	case OP_MMA:
		/* mma.sp and mma.sp::ordered_metadata: the same at sm_90 */
		if (in->nmods && (in->mods[0] == MOD_SP ||
				  in->mods[0] == MOD_SP_ORDERED_METADATA))
			sel_mma(g, fn, in, 1, true);
		else
			sel_mma(g, fn, in, 0, false);
		return true;
	case OP_LDMATRIX:
	case OP_STMATRIX:
	case OP_MOVMATRIX:
		sel_matrix(g, fn, in);
		return true;
	default:
		return false;
	}
}
