// SPDX-License-Identifier: GPL-2.0
/*
 * test_visa_optable.c - the opcode table (include/vgpu_visa_ops.h) and
 * what is generated from it agree, for every opcode:
 *
 *  - the numbers and names are those vISA images and the H100 golden
 *    tests were made with (pinned below by hand, not from the table);
 *  - every opcode has one unique name, and the disassembler's text of an
 *    instruction names its opcode again (round trip);
 *  - every opcode has a handler, and opcodes of one class share theirs;
 *  - the validator applies the table's rules: an instruction with every
 *    operand the table allows is accepted, and so is one with only the
 *    required ones; each required operand left out, a literal in a
 *    written slot, type PRED where the table refuses it, a bad second
 *    type or state space, a sub-operation past the table's maximum and
 *    each extra rule broken are refused.
 *
 * The validator cases are generated from the table, so a new opcode is
 * tested by adding its line; only its pin below is written by hand.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "visa_builder.h"
#include "visa_disasm.h"
#include "core_internal.h"
#include "exec_handlers.h"

/* The ABI: opcode numbers and disassembler names as released. */
struct pin {
	unsigned int value, pinned;
	const char *name;
};

#define PIN(op, num, text) { VISA_OP_##op, num, text }
static const struct pin pins[] = {
	PIN(NOP, 0, "nop"),
	PIN(MOV, 1, "mov"),
	PIN(SREG, 2, "sreg"),
	PIN(MOVA, 3, "mova"),
	PIN(CVT, 4, "cvt"),
	PIN(CVTA, 5, "cvta"),
	PIN(PACK, 6, "pack"),
	PIN(SELP, 7, "selp"),
	PIN(SLCT, 8, "slct"),
	PIN(ADD, 9, "add"),
	PIN(SUB, 10, "sub"),
	PIN(MUL, 11, "mul"),
	PIN(MULHI, 12, "mul.hi"),
	PIN(MULWIDE, 13, "mul.wide"),
	PIN(MAD, 14, "mad"),
	PIN(MADHI, 15, "mad.hi"),
	PIN(MADWIDE, 16, "mad.wide"),
	PIN(ADDC, 17, "addc"),
	PIN(SUBC, 18, "subc"),
	PIN(FMA, 19, "fma"),
	PIN(DIV, 20, "div"),
	PIN(REM, 21, "rem"),
	PIN(ABS, 22, "abs"),
	PIN(NEG, 23, "neg"),
	PIN(MIN, 24, "min"),
	PIN(MAX, 25, "max"),
	PIN(SAD, 26, "sad"),
	PIN(RCP, 27, "rcp"),
	PIN(SQRT, 28, "sqrt"),
	PIN(RSQRT, 29, "rsqrt"),
	PIN(SIN, 30, "sin"),
	PIN(COS, 31, "cos"),
	PIN(LG2, 32, "lg2"),
	PIN(EX2, 33, "ex2"),
	PIN(TANH, 34, "tanh"),
	PIN(COPYSIGN, 35, "copysign"),
	PIN(TESTP, 36, "testp"),
	PIN(DP4A, 37, "dp4a"),
	PIN(DP2A, 38, "dp2a"),
	PIN(AND, 39, "and"),
	PIN(OR, 40, "or"),
	PIN(XOR, 41, "xor"),
	PIN(NOT, 42, "not"),
	PIN(CNOT, 43, "cnot"),
	PIN(SHL, 44, "shl"),
	PIN(SHR, 45, "shr"),
	PIN(BFE, 46, "bfe"),
	PIN(BFI, 47, "bfi"),
	PIN(BREV, 48, "brev"),
	PIN(POPC, 49, "popc"),
	PIN(CLZ, 50, "clz"),
	PIN(BFIND, 51, "bfind"),
	PIN(FNS, 52, "fns"),
	PIN(PRMT, 53, "prmt"),
	PIN(SHF, 54, "shf"),
	PIN(LOP3, 55, "lop3"),
	PIN(SETP, 56, "setp"),
	PIN(SET, 57, "set"),
	PIN(LD, 58, "ld"),
	PIN(ST, 59, "st"),
	PIN(ATOM, 60, "atom"),
	PIN(RED, 61, "red"),
	PIN(MEMBAR, 62, "membar"),
	PIN(BAR, 63, "bar.sync"),
	PIN(BAR_ARRIVE, 64, "bar.arrive"),
	PIN(BAR_RED, 65, "bar.red"),
	PIN(SHFL, 66, "shfl"),
	PIN(VOTE, 67, "vote"),
	PIN(MATCH, 68, "match"),
	PIN(REDUX, 69, "redux"),
	PIN(ACTIVEMASK, 70, "activemask"),
	PIN(WARPSYNC, 71, "warpsync"),
	PIN(BRA, 72, "bra"),
	PIN(CALL, 73, "call"),
	PIN(RET, 74, "ret"),
	PIN(EXIT, 75, "exit"),
	PIN(TRAP, 76, "trap"),
	PIN(BRKPT, 77, "brkpt"),
	PIN(NANOSLEEP, 78, "nanosleep"),
	PIN(VPRINTF, 79, "vprintf"),
	PIN(ASSERTFAIL, 80, "assertfail"),
};
#undef PIN

/* The table's own columns, for the checks that need more than info. */
struct row {
	const char *op, *cls, *description;
};

static const struct row rows[VISA_OP_COUNT] = {
#define VISA_OP(op, name, cls, d, a, b, c, e, pd, pa, type2, pred, check, \
		max_sub, description)					\
	[VISA_OP_##op] = { #op, #cls, description },
#include "vgpu_visa_ops.h"
#undef VISA_OP
};

static struct tap t;
static int ncases;	/* validator cases run (expect() counts them) */

/* GPR (or predicate) each slot gets when it is filled. */
static const uint16_t slot_reg[VISA_SLOT_COUNT] = { 0, 1, 2, 3, 4, 0, 1 };
static uint16_t *slot_field(struct visa_insn *in, int slot)
{
	switch (slot) {
	case VISA_SLOT_D: return &in->d;
	case VISA_SLOT_A: return &in->a;
	case VISA_SLOT_B: return &in->b;
	case VISA_SLOT_C: return &in->c;
	case VISA_SLOT_E: return &in->e;
	case VISA_SLOT_PD: return &in->pd;
	default: return &in->pa;
	}
}

static const char *const slot_names[VISA_SLOT_COUNT] = {
	"d", "a", "b", "c", "e", "pd", "pa"
};

static unsigned int use_of(unsigned int op, int slot)
{
	return VISA_SLOT_USE(visa_op_info(op)->slots, slot);
}

/*
 * An instruction of @op that the table's rules accept: every slot with
 * one of the @want bits filled, and the extra rule satisfied.
 */
static struct visa_insn make_insn(unsigned int op, uint8_t type,
				  unsigned int want)
{
	const struct visa_op_info *oi = visa_op_info(op);
	struct visa_insn in;

	memset(&in, 0, sizeof(in));
	in.op = (uint16_t)op;
	in.type = type;
	in.guard = in.pd = in.pa = in.d = VISA_OPND_NONE;
	in.a = in.b = in.c = in.e = VISA_OPND_NONE;
	for (int s = 0; s < VISA_SLOT_COUNT; s++)
		if (use_of(op, s) & want)
			*slot_field(&in, s) = slot_reg[s];
	if (oi->type2 == VISA_TYPE2_TYPE)
		in.type2 = VISA_T_U32;
	else if (oi->type2 != VISA_TYPE2__)
		in.type2 = VISA_SPACE_GLOBAL;	/* allowed by every space kind */
	switch (oi->check) {
	case VISA_CHECK_BOOL:
		if (in.pa != VISA_OPND_NONE)
			in.mod |= VISA_BOOL_AND << VISA_MOD_BOOL_SHIFT;
		break;
	case VISA_CHECK_CARRY:
		if (in.pa != VISA_OPND_NONE)
			in.mod |= VISA_MOD_CC_IN;
		if (in.pd != VISA_OPND_NONE)
			in.mod |= VISA_MOD_CC_OUT;
		break;
	case VISA_CHECK_CALL:
		if (in.a != VISA_OPND_NONE)
			in.mod |= VISA_MOD_INDIRECT;
		break;
	case VISA_CHECK_BRA:
		in.imm = VISA_BRA_IMM(1, VISA_RECONV_EXIT);
		break;
	case VISA_CHECK_VOTE:	/* sub ALL writes pd */
		in.pd = slot_reg[VISA_SLOT_PD];
		break;
	case VISA_CHECK_BARRED:	/* the result goes somewhere */
		if (in.d == VISA_OPND_NONE && in.pd == VISA_OPND_NONE)
			in.d = slot_reg[VISA_SLOT_D];
		break;
	}
	return in;
}

/* Validate a kernel made of @in and EXIT; the message in @err. */
static int validate(const struct visa_insn *in, char *err, size_t errlen)
{
	struct vb *b = vb_new();
	struct visa_insn *p;
	uint16_t lit;
	void *img;
	size_t size;
	int ret;

	vb_func(b, "k", VISA_FUNC_KERNEL);
	lit = vb_lit(b, 1);
	(void)lit;
	p = vb_op(b, in->op, in->type);
	*p = *in;
	vb_exit(b);
	vb_end_func(b, 8, 4, 16);
	vb_kernel(b, "k", 0, 0, 0);
	img = vb_finish(b, &size);
	err[0] = 0;
	ret = visa_validate(img, size, err, errlen);
	free(img);
	vb_free(b);
	return ret;
}

/* One expectation: accepted, or refused with a message containing @why. */
static int expect(const struct visa_insn *in, const char *why,
		  const char *what)
{
	char err[256];
	int ret = validate(in, err, sizeof(err));
	bool ok;

	ncases++;
	ok = why ? ret != 0 && strstr(err, why) : ret == 0;
	if (!ok)
		tap_diag("%s %s: %s expected, got %d \"%s\"",
			 in->op < VISA_OP_COUNT ? rows[in->op].op : "?", what,
			 why ? why : "accepted", ret, err);
	return ok ? 0 : 1;
}

static const char *missing_msg(int slot)
{
	if (slot == VISA_SLOT_D)
		return "missing destination";
	if (slot == VISA_SLOT_PD || slot == VISA_SLOT_PA)
		return "missing predicate operand";
	return "missing source operand";
}

/* The extra rule of the check column, broken. */
static int check_rule_broken(unsigned int op, const struct visa_insn *full)
{
	struct visa_insn in = *full;
	int bad = 0;

	switch (visa_op_info(op)->check) {
	case VISA_CHECK_VEC_LD:
		in.mod |= 1u << VISA_MOD_VEC_SHIFT;	/* v2 needs b */
		in.b = VISA_OPND_NONE;
		bad += expect(&in, "vector element missing", "v2 without b");
		in = *full;
		in.mod |= 3u << VISA_MOD_VEC_SHIFT;
		bad += expect(&in, "bad vector length", "v8");
		break;
	case VISA_CHECK_VEC_ST:
		in.mod |= 1u << VISA_MOD_VEC_SHIFT;	/* v2 needs c */
		in.c = VISA_OPND_NONE;
		bad += expect(&in, "vector element missing", "v2 without c");
		in = *full;
		in.mod |= 3u << VISA_MOD_VEC_SHIFT;
		bad += expect(&in, "bad vector length", "v8");
		break;
	case VISA_CHECK_ATOM:
		in.mod |= 1u << VISA_MOD_VEC_SHIFT;
		bad += expect(&in, "bad vector length", "v2");
		in = *full;
		in.mod |= VISA_MOD_MKSUB(VISA_ATOM_CAS);
		in.c = VISA_OPND_NONE;
		bad += expect(&in, "bad atomic operation", "cas without c");
		break;
	case VISA_CHECK_SREG:
		in.imm = VISA_SREG_COUNT;
		bad += expect(&in, "unknown special register", "bad sreg");
		break;
	case VISA_CHECK_BOOL:
		in.pa = VISA_OPND_NONE;			/* bool op, no pa */
		bad += expect(&in, "bool op needs pa", "bool without pa");
		in = *full;
		in.mod &= ~VISA_MOD_BOOL_MASK;		/* pa, no bool op */
		bad += expect(&in, "bool op needs pa", "pa without bool");
		break;
	case VISA_CHECK_CARRY:
		in.pa = VISA_OPND_NONE;
		bad += expect(&in, "carry predicate missing", "CC_IN without pa");
		in = *full;
		in.pd = VISA_OPND_NONE;
		bad += expect(&in, "carry predicate missing", "CC_OUT without pd");
		break;
	case VISA_CHECK_BARRED:
		in.d = in.pd = VISA_OPND_NONE;
		bad += expect(&in, "needs a result", "no result");
		break;
	case VISA_CHECK_VOTE:
		in.mod |= VISA_MOD_MKSUB(VISA_VOTE_BALLOT);
		in.d = VISA_OPND_NONE;
		bad += expect(&in, "vote needs a result", "ballot without d");
		break;
	case VISA_CHECK_BRA:
		in.imm = VISA_BRA_IMM(2, VISA_RECONV_EXIT);
		bad += expect(&in, "outside the function", "target outside");
		in = *full;
		in.imm = VISA_BRA_IMM(1, 2);
		bad += expect(&in, "outside the function", "reconv outside");
		break;
	case VISA_CHECK_CALL:
		in.mod &= ~VISA_MOD_INDIRECT;
		in.imm = 1;
		bad += expect(&in, "does not exist", "call of function 1");
		in = *full;
		in.a = VISA_OPND_NONE;
		bad += expect(&in, "indirect call needs a", "indirect without a");
		break;
	}
	return bad;
}

/* Every rule of the table for @op; returns the number of failures. */
static int check_rules(unsigned int op)
{
	const struct visa_op_info *oi = visa_op_info(op);
	const unsigned int used = VISA_USE_USED, req = VISA_USE_REQUIRED;
	struct visa_insn full = make_insn(op, VISA_T_U32, used);
	struct visa_insn min = make_insn(op, VISA_T_U32, req), in;
	int bad = 0;

	bad += expect(&full, NULL, "with every operand");
	bad += expect(&min, NULL, "with the required operands");
	for (int s = 0; s < VISA_SLOT_COUNT; s++) {
		unsigned int use = use_of(op, s);
		char what[64];

		if (use & VISA_USE_REQUIRED) {
			in = full;
			*slot_field(&in, s) = VISA_OPND_NONE;
			snprintf(what, sizeof(what), "without %s", slot_names[s]);
			bad += expect(&in, missing_msg(s), what);
		}
		if (s <= VISA_SLOT_E && (use & VISA_USE_USED)) {
			bool written = use & VISA_USE_WRITTEN;

			in = full;
			*slot_field(&in, s) = VISA_OPND_LIT | 0;
			snprintf(what, sizeof(what), "with a literal %s",
				 slot_names[s]);
			bad += expect(&in, written ? "is a literal" : NULL, what);
		}
	}
	/* What type PRED means. */
	in = make_insn(op, VISA_T_PRED, used);
	bad += expect(&in, oi->pred == VISA_PRED_X ?
		      "type pred on a non-logic opcode" : NULL, "typed pred");
	/* The second type. */
	if (oi->type2 == VISA_TYPE2_TYPE) {
		in = full;
		in.type2 = VISA_T_NONE;
		bad += expect(&in, "bad second type", "type2 NONE");
		in.type2 = VISA_T_COUNT;
		bad += expect(&in, "bad second type", "type2 unknown");
		} else if (oi->type2 != VISA_TYPE2__) {
		static const unsigned int lo[] = {
			[VISA_TYPE2_SP_READ] = VISA_SPACE_GENERIC,
			[VISA_TYPE2_SP_WRITE] = VISA_SPACE_GENERIC,
			[VISA_TYPE2_SP_ATOM] = VISA_SPACE_GENERIC,
			[VISA_TYPE2_SP_NAMED] = VISA_SPACE_GLOBAL,
		};
		static const unsigned int hi[] = {
			[VISA_TYPE2_SP_READ] = VISA_SPACE_PARAM,
			[VISA_TYPE2_SP_WRITE] = VISA_SPACE_LOCAL,
			[VISA_TYPE2_SP_ATOM] = VISA_SPACE_SHARED,
			[VISA_TYPE2_SP_NAMED] = VISA_SPACE_PARAM,
		};

		for (unsigned int sp = 0; sp <= VISA_SPACE_COUNT; sp++) {
			char what[32];

			in = full;
			in.type2 = (uint8_t)sp;
			snprintf(what, sizeof(what), "in space %u", sp);
			bad += expect(&in, sp >= lo[oi->type2] &&
				      sp <= hi[oi->type2] ? NULL :
				      "not allowed", what);
		}
	}
	/* The sub-operation's range. */
	in = full;
	in.mod |= VISA_MOD_MKSUB(oi->max_sub);
	if (oi->check == VISA_CHECK_VOTE)	/* BALLOT writes d */
		in.d = slot_reg[VISA_SLOT_D];
	bad += expect(&in, NULL, "with the largest sub-operation");
	in.mod = (in.mod & ~VISA_MOD_SUB_MASK) |
		 VISA_MOD_MKSUB(oi->max_sub + 1u);
	bad += expect(&in, oi->check == VISA_CHECK_ATOM ? "bad atomic" :
		      "out of range", "with a sub-operation past it");
	/* The extra rule. */
	bad += check_rule_broken(op, &full);
	return bad;
}

/* The opcode named by the first word of a disassembly (longest match). */
static int op_of_text(const char *text)
{
	int best = -1;
	size_t best_len = 0;

	for (unsigned int op = 0; op < VISA_OP_COUNT; op++) {
		const char *n = visa_op_name(op);
		size_t len = strlen(n);

		if (!strncmp(text, n, len) &&
		    (text[len] == '.' || text[len] == ' ' || !text[len]) &&
		    len > best_len) {
			best = (int)op;
			best_len = len;
		}
	}
	return best;
}

int main(void)
{
	size_t npins = sizeof(pins) / sizeof(pins[0]);
	bool ok;

	tap_plan(7 + VISA_OP_COUNT);

	/*
	 * 1. numbers: the released opcodes keep theirs; opcodes added since
	 * follow them in the order their lines were merged, unpinned.
	 */
	ok = npins <= VISA_OP_COUNT;
	for (size_t i = 0; i < npins; i++) {
		if (pins[i].value != pins[i].pinned) {
			tap_diag("%s is %u, pinned %u", pins[i].name,
				 pins[i].value, pins[i].pinned);
			ok = false;
		}
	}
	tap_ok(&t, ok, "the %zu opcode numbers are the pinned ones "
	       "(VISA_OP_COUNT %u)", npins, VISA_OP_COUNT);

	/* 2. names: the pinned ones, unique, for every opcode */
	ok = visa_op_info(VISA_OP_COUNT) == NULL &&
	     !strcmp(visa_op_name(VISA_OP_COUNT), "?");
	for (size_t i = 0; i < npins; i++) {
		const struct visa_op_info *oi = visa_op_info(pins[i].value);

		if (!oi || strcmp(oi->name, pins[i].name) ||
		    strcmp(visa_op_name(pins[i].value), pins[i].name)) {
			tap_diag("opcode %u is not named %s", pins[i].value,
				 pins[i].name);
			ok = false;
		}
		for (size_t j = 0; j < i; j++)
			if (oi && !strcmp(oi->name, visa_op_info(j)->name)) {
				tap_diag("%s named twice", oi->name);
				ok = false;
			}
	}
	tap_ok(&t, ok, "every opcode has its pinned, unique name");

	/* 3. descriptions */
	ok = true;
	for (unsigned int op = 0; op < VISA_OP_COUNT; op++)
		if (!rows[op].description || strlen(rows[op].description) < 5) {
			tap_diag("%s has no description", rows[op].op);
			ok = false;
		}
	tap_ok(&t, ok, "every opcode has a description");

	/* 4. the disassembler names the opcode it was given */
	ok = true;
	for (unsigned int op = 0; op < VISA_OP_COUNT; op++) {
		struct visa_insn in = make_insn(op, VISA_T_U32, VISA_USE_USED);
		char text[256];

		visa_disasm(&in, NULL, 0, text, sizeof(text));
		if (op_of_text(text) != (int)op) {
			tap_diag("'%s' does not name %s", text, rows[op].op);
			ok = false;
		}
	}
	tap_ok(&t, ok, "disassembly of every opcode names it again");

	/* 5. handlers: present, one per class */
	ok = true;
	for (unsigned int op = 0; op < VISA_OP_COUNT; op++) {
		if (!exec_handlers[op]) {
			tap_diag("%s has no handler", rows[op].op);
			ok = false;
		}
		for (unsigned int j = 0; j < op; j++) {
			bool same_class = !strcmp(rows[op].cls, rows[j].cls);
			bool same_fn = exec_handlers[op] == exec_handlers[j];

			if (same_class != same_fn) {
				tap_diag("%s (%s) and %s (%s): %s handler",
					 rows[op].op, rows[op].cls, rows[j].op,
					 rows[j].cls, same_fn ? "same" :
					 "different");
				ok = false;
			}
		}
	}
	tap_ok(&t, ok, "every opcode has a handler, the one of its class");

	/* 6. an opcode past the table is refused */
	{
		struct visa_insn in = make_insn(VISA_OP_NOP, VISA_T_NONE, 0);

		in.op = VISA_OP_COUNT;
		tap_ok(&t, expect(&in, "unknown opcode", "past the table") == 0,
		       "opcode %u (VISA_OP_COUNT) is refused", VISA_OP_COUNT);
	}

	/*
	 * 7. Not from the table: set and setp read pa when a bool op is
	 * given (combine_pred()), so without pa they must be refused.  set
	 * once was accepted and the core read predicate 0xffff.
	 */
	{
		static const uint16_t ops[] = { VISA_OP_SETP, VISA_OP_SET };
		int bad = 0;

		for (int i = 0; i < 2; i++) {
			struct visa_insn in = make_insn(ops[i], VISA_T_U32,
							VISA_USE_REQUIRED);

			in.mod |= VISA_BOOL_OR << VISA_MOD_BOOL_SHIFT;
			bad += expect(&in, "bool op needs pa", "bool, no pa");
		}
		tap_ok(&t, !bad, "setp and set refuse a bool op without pa");
	}

	/* 8. the validator applies each opcode's rules */
	for (unsigned int op = 0; op < VISA_OP_COUNT; op++) {
		int before = ncases, bad = check_rules(op);
		int cases = ncases - before;

		tap_ok(&t, bad == 0, "%s: the validator applies the table's "
		       "rules (%d cases, %d wrong)", rows[op].op, cases, bad);
	}
	return tap_done(&t);
}
