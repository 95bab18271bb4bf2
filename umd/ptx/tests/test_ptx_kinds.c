// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_kinds - the lists of opcodes, modifiers, types and state spaces
 * (ptx_ops.h, ptx_mods.h, ptx_types.h) and the parser's decisions by them:
 * every spelling is found again as its own kind and no two kinds share
 * one; words are matched exactly; every listed opcode reaches a selector
 * (none is "unknown"); an unlisted opcode or modifier stops the parser at
 * its own line and column.
 */
#include <stdio.h>
#include <string.h>

#include "ptx_test.h"
#include "ptx/ptx_internal.h"

#define H ".version 9.0\n.target sm_90\n.address_size 64\n"
#define KHEAD H ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
#define K(body) KHEAD body "\n}\n"	/* the body is on line 7 */

static void test_spellings(void)
{
	unsigned int k, bad = 0;

	for (k = 1; k < OP_COUNT_; k++)
		if (ptx_op_lookup(ptx_op_name(k)) != (enum ptx_op)k) {
			t_diag("opcode '%s' is found as %u, not %u",
			       ptx_op_name(k), ptx_op_lookup(ptx_op_name(k)), k);
			bad++;
		}
	t_ok(!bad, "each of %u opcodes is found by its spelling", OP_COUNT_ - 1);
	bad = 0;
	for (k = 1; k < MOD_COUNT_; k++)
		if (ptx_mod_lookup(ptx_mod_name(k)) != (enum ptx_mod)k ||
		    ptx_mod_kind(k) == MK_NONE) {
			t_diag("modifier '%s' is found as %u, not %u",
			       ptx_mod_name(k), ptx_mod_lookup(ptx_mod_name(k)), k);
			bad++;
		}
	t_ok(!bad, "each of %u modifiers is found by its spelling, with a kind",
	     MOD_COUNT_ - 1);
	t_ok(ptx_op_lookup("frob") == OP_NONE && ptx_op_lookup("") == OP_NONE &&
	     ptx_op_lookup("Add") == OP_NONE && ptx_op_lookup("adds") == OP_NONE,
	     "unlisted opcodes are OP_NONE (matched exactly, case and all)");
	t_ok(ptx_mod_lookup("NaN") == MOD_NaN && ptx_mod_lookup("nan") == MOD_NAN &&
	     ptx_mod_kind(MOD_NaN) == MK_FLAG && ptx_mod_kind(MOD_NAN) == MK_OTHER &&
	     ptx_mod_lookup("U32") == MOD_NONE && ptx_mod_lookup("L2::") == MOD_NONE,
	     ".NaN (a flag) and .nan (a comparison) are two kinds; U32 is none");
}

static void test_types_and_spaces(void)
{
	unsigned int t, bad = 0;

	for (t = PT_PRED; t <= PT_F64; t++)
		if (ptx_type_from_name(ptx_type_name(t)) != (enum ptx_type)t ||
		    ptx_mod_type(ptx_mod_lookup(ptx_type_name(t))) != (enum ptx_type)t)
			bad++;
	t_ok(!bad && ptx_type_size(PT_F16X2) == 4 && ptx_type_size(PT_B128) == 16 &&
	     ptx_type_class(PT_BF16) == TC_FLOAT && ptx_type_from_name("tf32") == PT_NONE,
	     "types: name, modifier, size and class from one list");
	t_ok(ptx_space_from_name("global") == PS_GLOBAL &&
	     ptx_space_from_name("shared::cta") == PS_NONE &&
	     ptx_mod_space(MOD_SHARED_CTA) == PS_SHARED &&
	     ptx_mod_space(MOD_PARAM_ENTRY) == PS_PARAM &&
	     ptx_mod_space(MOD_U32) == PS_NONE && ptx_mod_type(MOD_GLOBAL) == PT_NONE,
	     "spaces: a declaration takes only plain ones; .shared::cta is .shared");
	t_ok(ptx_mod_kind(MOD_RN) == MK_RND && ptx_mod_value(MOD_RZI) == VISA_RND_RZI &&
	     ptx_mod_value(MOD_FTZ) == VISA_MOD_FTZ && ptx_mod_value(MOD_V4) == 4 &&
	     ptx_mod_value(MOD_SYS) == VISA_SCOPE_SYS && ptx_mod_kind(MOD_NC) == MK_IGNORE,
	     "the value column: rounding mode, flag bit, width, scope");
}

/* Every listed opcode has a selector: bare, it gets a selector's complaint. */
static void test_every_opcode_selected(void)
{
	unsigned int k, bad = 0;
	char text[512], msg[512];

	for (k = 1; k < OP_COUNT_; k++) {
		void *img = NULL;
		size_t size = 0;
		int err;

		snprintf(text, sizeof(text), "%s%s;\n}\n", KHEAD, ptx_op_name(k));
		err = t_compile("k.ptx", text, &img, &size, msg, sizeof(msg));
		if (strstr(msg, "unknown or unsupported instruction")) {
			t_diag("'%s': %s", ptx_op_name(k), msg);
			bad++;
		}
		(void)err;
		vgpu_ptx_free(img);
	}
	t_ok(!bad, "each listed opcode reaches its selector");
}

static void test_parser_refuses(void)
{
	char msg[512];
	void *img = NULL;
	size_t size = 0;
	int err;

	err = t_compile("k.ptx", K("add.frob.u32 %r1, %r2, 1;"), &img, &size,
			msg, sizeof(msg));
	t_ok(err == VGPU_PTX_ERR_UNSUPPORTED &&
	     !strcmp(msg, "k.ptx:7:4: error: modifier '.frob' of 'add' is not supported"),
	     "an unlisted modifier stops the parser at its column: %s", msg);
	err = t_compile("k.ptx", K("mov.u32 %r1, 1;\nfrob.u32 %r1, %r2;"), &img,
			&size, msg, sizeof(msg));
	t_ok(err == VGPU_PTX_ERR_UNSUPPORTED &&
	     !strcmp(msg, "k.ptx:8:1: error: unknown or unsupported instruction 'frob'"),
	     "an unlisted opcode stops the parser at its line: %s", msg);
	err = t_compile("k.ptx", K("add.u32.ftz.sat.rn.approx.full.NaN.volatile.uni.cc.v4.nc.ca %r1, %r2, 1;"),
			&img, &size, msg, sizeof(msg));
	t_ok(err == VGPU_PTX_ERR_SYNTAX &&
	     !strcmp(msg, "k.ptx:7:57: error: too many modifiers on 'add'"),
	     "more than %u modifiers: stops at the next one (.ca): %s",
	     PTX_MAX_MODS, msg);
}

int main(void)
{
	t_start();
	test_spellings();
	test_types_and_spaces();
	test_every_opcode_selected();
	test_parser_refuses();
	return t_done();
}
