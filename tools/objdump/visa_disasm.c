// SPDX-License-Identifier: GPL-2.0
/*
 * visa_disasm.c - one vISA instruction as text, in a PTX-like syntax:
 *
 *     @!p1 add.rn.f32  r3, r1, 0x3f800000
 *     ld.global.v4.u32 {r4, r5, r6, r7}, [r2+16]
 *     bra 17 (reconverge 21)
 *
 * Literal operands are printed as their values (from the function's
 * literal pool), registers as rN, predicates as pN.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "visa_disasm.h"

/* The opcode names: the name column of include/vgpu_visa_ops.h. */
static const char *const op_names[VISA_OP_COUNT] = {
#define VISA_OP(op, name, ...) [VISA_OP_##op] = name,
#include "vgpu_visa_ops.h"
#undef VISA_OP
};

static const char *const type_names[VISA_T_COUNT] = {
	"", "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
	"b8", "b16", "b32", "b64", "f16", "f16x2", "bf16", "bf16x2",
	"f32", "f64", "pred",
};

static const char *const space_names[VISA_SPACE_COUNT] = {
	"", "global", "shared", "local", "const", "param", "func",
};

static const char *const rnd_names[] = {
	"", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna",
};

static const char *const cmp_names[VISA_CMP_COUNT] = {
	"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu",
	"gtu", "geu", "num", "nan",
};

static const char *const atom_names[VISA_ATOM_COUNT] = {
	"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
};

static const char *const sreg_names[VISA_SREG_COUNT] = {
	"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
	"%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y",
	"%nctaid.z", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
	"%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt",
	"%lanemask_ge", "%lanemask_gt", "%clock", "%clock_hi", "%clock64",
	"%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
	"%dynamic_smem_size", "%total_smem_size", "WARP_SZ",
	"%envreg0", "%envreg1", "%envreg2", "%envreg3", "%envreg4",
	"%envreg5", "%envreg6", "%envreg7", "%envreg8", "%envreg9",
	"%envreg10", "%envreg11", "%envreg12", "%envreg13", "%envreg14",
	"%envreg15", "%envreg16", "%envreg17", "%envreg18", "%envreg19",
	"%envreg20", "%envreg21", "%envreg22", "%envreg23", "%envreg24",
	"%envreg25", "%envreg26", "%envreg27", "%envreg28", "%envreg29",
	"%envreg30", "%envreg31",
	"%clusterid.x", "%clusterid.y", "%clusterid.z",
	"%nclusterid.x", "%nclusterid.y", "%nclusterid.z",
	"%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z",
	"%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z",
	"%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
};

const char *visa_op_name(unsigned int op)
{
	return op < VISA_OP_COUNT && op_names[op] ? op_names[op] : "?";
}

struct out {
	char *buf;
	size_t size, len;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
	if (o->len >= o->size)
		o->len = o->size - 1;
}

static void opnd(struct out *o, uint16_t r, const uint64_t *lits,
		 uint32_t nlits)
{
	if (r == VISA_OPND_NONE) {
		put(o, "_");
	} else if (r & VISA_OPND_LIT) {
		uint32_t k = r & ~VISA_OPND_LIT;

		if (lits && k < nlits)
			put(o, "0x%" PRIx64, lits[k]);
		else
			put(o, "lit%u", k);
	} else {
		put(o, "r%u", r);
	}
}

static void sub_suffix(struct out *o, const struct visa_insn *in)
{
	unsigned int sub = VISA_MOD_SUB(in->mod);

	switch (in->op) {
	case VISA_OP_SETP:
	case VISA_OP_SET:
		put(o, ".%s", sub < VISA_CMP_COUNT ? cmp_names[sub] : "?");
		if (in->mod & VISA_MOD_BOOL_MASK) {
			static const char *const b[] = { "", ".and", ".or",
							 ".xor" };

			put(o, "%s", b[(in->mod & VISA_MOD_BOOL_MASK) >>
				       VISA_MOD_BOOL_SHIFT]);
		}
		break;
	case VISA_OP_ATOM:
	case VISA_OP_RED:
		put(o, ".%s", sub < VISA_ATOM_COUNT ? atom_names[sub] : "?");
		break;
	case VISA_OP_SHFL: {
		static const char *const m[] = { ".idx", ".up", ".down",
						 ".bfly" };
		put(o, "%s", m[sub & 3]);
		break;
	}
	case VISA_OP_VOTE: {
		static const char *const m[] = { ".all", ".any", ".uni",
						 ".ballot" };
		put(o, "%s", m[sub & 3]);
		break;
	}
	case VISA_OP_MATCH:
		put(o, "%s", sub ? ".all" : ".any");
		break;
	case VISA_OP_BAR_RED:
	case VISA_OP_REDUX: {
		static const char *const m[] = { ".popc", ".and", ".or", ".add",
						 ".min", ".max", ".xor" };
		put(o, "%s", sub < 7 ? m[sub] : ".?");
		break;
	}
	case VISA_OP_SHF: {
		static const char *const m[] = { ".l.wrap", ".l.clamp",
						 ".r.wrap", ".r.clamp" };
		put(o, "%s", m[sub & 3]);
		break;
	}
	case VISA_OP_MEMBAR: {
		static const char *const m[] = { ".cta", ".gl", ".sys" };
		put(o, "%s", sub < 3 ? m[sub] : ".?");
		break;
	}
	case VISA_OP_BFIND:
		if (sub == 1)
			put(o, ".shiftamt");
		break;
	}
}

static void mem_operand(struct out *o, const struct visa_insn *in,
			const uint64_t *lits, uint32_t nlits)
{
	int64_t off = (int64_t)in->imm;

	put(o, "[");
	if (in->a != VISA_OPND_NONE) {
		opnd(o, in->a, lits, nlits);
		if (off)
			put(o, "%+" PRId64, off);
	} else {
		put(o, "%s%" PRId64, in->type2 == VISA_SPACE_LOCAL ? "fp+" : "",
		    off);
	}
	put(o, "]");
}

int visa_disasm(const struct visa_insn *in, const uint64_t *lits,
		uint32_t nlits, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	const struct visa_op_info *oi = visa_op_info(in->op);
	int vec = 1 << ((in->mod & VISA_MOD_VEC_MASK) >> VISA_MOD_VEC_SHIFT);
	/* .v8 (invalid: the validator refuses it) has only four slots. */
	int nelem = vec > 4 ? 4 : vec;
	const char *comma = "";

	if (!size)
		return 0;
	buf[0] = 0;
	if (in->guard != VISA_OPND_NONE)
		put(&o, "@%sp%u ", (in->guard & VISA_GUARD_NEG) ? "!" : "",
		    VISA_GUARD_INDEX(in->guard));
	put(&o, "%s", visa_op_name(in->op));
	sub_suffix(&o, in);
	if (oi && oi->type2 >= VISA_TYPE2_SP_READ) {	/* type2 is a space */
		if (in->type2 < VISA_SPACE_COUNT && in->type2)
			put(&o, ".%s", space_names[in->type2]);
		if (in->op == VISA_OP_CVTA)
			put(&o, (in->mod & VISA_MOD_TO_GENERIC) ? ".to_generic" :
				".from_generic");
		if (vec > 1)
			put(&o, ".v%d", vec);
	}
	if ((in->mod & VISA_MOD_RND_MASK) < 10)
		put(&o, "%s", rnd_names[in->mod & VISA_MOD_RND_MASK]);
	if (in->mod & VISA_MOD_APPROX)
		put(&o, ".approx");
	if (in->mod & VISA_MOD_FULL)
		put(&o, ".full");
	if (in->mod & VISA_MOD_FTZ)
		put(&o, ".ftz");
	if (in->mod & VISA_MOD_SAT)
		put(&o, ".sat");
	if (in->mod & VISA_MOD_NAN)
		put(&o, ".NaN");
	if (in->mod & VISA_MOD_CC_OUT)
		put(&o, ".cc");
	if (in->type && in->type < VISA_T_COUNT)
		put(&o, ".%s", type_names[in->type]);
	if (oi && oi->type2 == VISA_TYPE2_TYPE && in->type2 < VISA_T_COUNT)
		put(&o, ".%s", type_names[in->type2]);
	put(&o, "%*s", o.len < 24 ? (int)(24 - o.len) : 1, "");

	switch (in->op) {
	case VISA_OP_BRA:
		put(&o, "%u", VISA_BRA_TARGET(in->imm));
		if (in->guard != VISA_OPND_NONE) {
			if (VISA_BRA_RECONV(in->imm) == VISA_RECONV_EXIT)
				put(&o, " (reconverge at exit)");
			else
				put(&o, " (reconverge %u)",
				    VISA_BRA_RECONV(in->imm));
		}
		return (int)o.len;
	case VISA_OP_CALL:
		if (in->mod & VISA_MOD_INDIRECT)
			opnd(&o, in->a, lits, nlits);
		else
			put(&o, "func%" PRIu64, in->imm);
		return (int)o.len;
	case VISA_OP_SREG:
		opnd(&o, in->d, lits, nlits);
		put(&o, ", %s", in->imm < VISA_SREG_COUNT ?
		    sreg_names[in->imm] : "?");
		return (int)o.len;
	case VISA_OP_MOVA:
		opnd(&o, in->d, lits, nlits);
		put(&o, ", %s+%" PRIu64, in->type2 < VISA_SPACE_COUNT ?
		    space_names[in->type2] : "?", in->imm);
		return (int)o.len;
	case VISA_OP_LD: {
		const uint16_t r[4] = { in->d, in->b, in->c, in->e };

		put(&o, vec > 1 ? "{" : "");
		for (int i = 0; i < nelem; i++) {
			put(&o, i ? ", " : "");
			opnd(&o, r[i], lits, nlits);
		}
		put(&o, vec > 1 ? "}, " : ", ");
		mem_operand(&o, in, lits, nlits);
		return (int)o.len;
	}
	case VISA_OP_ST: {
		const uint16_t r[4] = { in->b, in->c, in->d, in->e };

		mem_operand(&o, in, lits, nlits);
		put(&o, vec > 1 ? ", {" : ", ");
		for (int i = 0; i < nelem; i++) {
			put(&o, i ? ", " : "");
			opnd(&o, r[i], lits, nlits);
		}
		put(&o, vec > 1 ? "}" : "");
		return (int)o.len;
	}
	case VISA_OP_ATOM:
	case VISA_OP_RED:
		if (in->d != VISA_OPND_NONE) {
			opnd(&o, in->d, lits, nlits);
			put(&o, ", ");
		}
		mem_operand(&o, in, lits, nlits);
		put(&o, ", ");
		opnd(&o, in->b, lits, nlits);
		if (in->c != VISA_OPND_NONE) {
			put(&o, ", ");
			opnd(&o, in->c, lits, nlits);
		}
		return (int)o.len;
	}
	/* generic: destinations, then sources */
	if (in->pd != VISA_OPND_NONE) {
		put(&o, "p%u", in->pd);
		comma = ", ";
	}
	if (in->d != VISA_OPND_NONE) {
		put(&o, "%s", comma);
		if (in->type == VISA_T_PRED)
			put(&o, "p%u", in->d);
		else
			opnd(&o, in->d, lits, nlits);
		comma = ", ";
	}
	{
		const uint16_t s[4] = { in->a, in->b, in->c, in->e };

		for (int i = 0; i < 4; i++) {
			if (s[i] == VISA_OPND_NONE)
				continue;
			put(&o, "%s", comma);
			if (in->type == VISA_T_PRED && !(s[i] & VISA_OPND_LIT))
				put(&o, "p%u", s[i]);
			else
				opnd(&o, s[i], lits, nlits);
			comma = ", ";
		}
	}
	if (in->pa != VISA_OPND_NONE)
		put(&o, "%sp%u", comma, in->pa);
	if (in->op == VISA_OP_LOP3 || in->op == VISA_OP_NANOSLEEP)
		put(&o, ", 0x%" PRIx64, in->imm);
	return (int)o.len;
}
