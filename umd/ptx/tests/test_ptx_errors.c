// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_errors - malformed and unsupported PTX fails with the exact
 * "file:line:col: error: message" a user needs, and the right error code.
 *
 * Each case is a small module; H is the usual header (lines 1-3), so the
 * first line of a case body is line 4.
 */
#include <stdio.h>
#include <string.h>

#include "ptx_test.h"

#define H ".version 9.0\n.target sm_75\n.address_size 64\n"
#define K(body) H ".visible .entry k(.param .u64 p)\n{\n" \
	".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\n" body "}\n"
/* In K(), the body starts on line 9. */

struct error_case {
	const char *name;
	const char *text;
	int err;
	const char *expect;	/* the formatted diagnostic */
};

static const struct error_case cases[] = {
	{ "empty module", "", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:1:1: error: empty PTX module" },
	{ "no .version", ".target sm_75\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:1:1: error: a PTX module must start with .version" },
	{ "future version", ".version 9.1\n.target sm_75\n",
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:1:10: error: PTX ISA version 9.1 is not supported (1.0 to 9.0 are)" },
	{ "no .target", ".version 9.0\n.address_size 64\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:3:1: error: missing .target directive" },
	{ "32-bit addresses", ".version 9.0\n.target sm_75\n.address_size 32\n",
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:3:15: error: only .address_size 64 is supported" },
	{ "unknown directive", H ".frobnicate 3;\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:4:1: error: unknown directive '.frobnicate'" },
	{ "module texref", H ".texref tex;\n", VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:4:1: error: .texref is not supported" },
	{ "stray character", H "#include <x>\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:4:1: error: unexpected character '#'" },
	{ "binary garbage", H "\x01\x02", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:4:1: error: unexpected byte 0x01" },
	{ "unterminated comment", H "/* never closed\n\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:4:1: error: unterminated comment" },
	{ "bad hex literal", K("mov.u32 %r1, 0x;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:14: error: malformed integer literal" },
	{ "short float literal", K("mov.f32 %r1, 0f3F80;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:14: error: 0f floating-point literal needs 8 hex digits" },
	{ "unknown instruction", K("frob.u32 %r1, %r2;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:1: error: unknown or unsupported instruction 'frob'" },
	{ "unknown register", K("add.u32 %r1, %r9, 1;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:14: error: unknown register '%r9'" },
	{ "missing semicolon", K("add.u32 %r1, %r2, 1\nret;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:10:1: error: expected ';' but found 'ret'" },
	{ "operand count", K("add.u32 %r1, %r2;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'add' takes 3 operands, not 2" },
	{ "unknown modifier", K("add.wrap.u32 %r1, %r2, 1;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:1: error: modifier '.wrap' of 'add' is not supported" },
	{ "missing type", K("add %r1, %r2, 1;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'add' needs exactly one type" },
	{ "predicate as value", K("add.u32 %r1, %p1, 1;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:14: error: '%p1' is a predicate register here" },
	{ "value as guard", K("@%r1 bra L;\nL:\nret;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:2: error: guard '%r1' is not a predicate register" },
	{ "setp without comparison", K("setp.s32 %p1, %r1, %r2;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'setp' needs a comparison such as .eq or .lt" },
	{ "unordered integer compare", K("setp.ltu.s32 %p1, %r1, %r2;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: unordered comparisons are only for floating-point types" },
	{ "unknown label", K("bra NOWHERE;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:5: error: unknown label 'NOWHERE'" },
	{ "duplicate label", K("L1:\nL1:\nret;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:10:1: error: label 'L1' is already defined" },
	{ "duplicate register", K(".reg .b32 %r2;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:11: error: '%r2' is already declared in this scope" },
	{ "unknown symbol", K("mov.u64 %rd1, nothing;\n"), VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:15: error: unknown symbol 'nothing'" },
	{ "unresolved extern function",
	  H ".extern .func ext(.param .b32 a);\n"
	  ".visible .entry k()\n{\n.param .b32 x;\nst.param.b32 [x], 1;\n"
	  "call.uni ext, (x);\nret;\n}\n",
	  VGPU_PTX_ERR_LINK,
	  "e.ptx:9:10: error: unresolved external function 'ext'" },
	{ "unresolved extern variable",
	  H ".extern .global .u32 gv;\n.visible .entry k()\n{\n"
	  ".reg .b32 %r1;\nld.global.u32 %r1, [gv];\nret;\n}\n",
	  VGPU_PTX_ERR_LINK,
	  "e.ptx:8:20: error: unresolved external variable 'gv'" },
	{ "wrong argument count",
	  H ".func f(.param .b32 a, .param .b32 b)\n{\nret;\n}\n"
	  ".visible .entry k()\n{\n.param .b32 x;\nst.param.b32 [x], 1;\n"
	  "call.uni f, (x);\nret;\n}\n",
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:12:10: error: call to 'f' passes 1 argument(s) and 0 result(s); it takes 2 and 0" },
	{ "store to .const", H ".const .u32 c;\n"
	  ".visible .entry k()\n{\nst.const.u32 [c], 1;\nret;\n}\n",
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:7:1: error: kernel parameters and .const are read-only" },
	{ "space mismatch", H ".shared .u32 s;\n"
	  ".visible .entry k()\n{\n.reg .b32 %r1;\nld.global.u32 %r1, [s];\nret;\n}\n",
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:8:20: error: 's' is in .shared space, not .global" },
	{ "offset outside variable", H ".global .u32 g[4];\n"
	  ".visible .entry k()\n{\n.reg .b32 %r1;\nld.global.u32 %r1, [g+16];\nret;\n}\n",
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:8:20: error: offset 16 is outside 'g' (16 bytes)" },
	{ "too many threads", H ".visible .entry k() .maxntid 2048, 1, 1\n{\nret;\n}\n",
	  VGPU_PTX_ERR_LIMIT,
	  "e.ptx:4:17: error: kernel 'k' asks for more than 1024 threads per block" },
	{ "shared too large", H ".visible .entry k()\n{\n"
	  ".shared .align 4 .b8 big[65536];\n.reg .b32 %r<2>;\n"
	  "st.shared.u32 [big], %r1;\nret;\n}\n",
	  VGPU_PTX_ERR_LIMIT,
	  "e.ptx:6:22: error: static shared memory of kernel 'k' (65536 bytes with 'big') exceeds the 49152-byte limit" },
	{ "one kernel's shared variables too large", H
	  ".shared .align 4 .b8 s1[32768];\n.shared .align 4 .b8 s2[32768];\n"
	  ".visible .entry a()\n{\n.reg .b32 %r<2>;\n"
	  "st.shared.u32 [s1], %r1;\nst.shared.u32 [s2], %r1;\nret;\n}\n",
	  VGPU_PTX_ERR_LIMIT,
	  "e.ptx:5:22: error: static shared memory of kernel 'a' (65536 bytes with 's2') exceeds the 49152-byte limit" },
	{ "shared variables through a call", H
	  ".shared .align 4 .b8 s1[32768];\n.shared .align 4 .b8 s2[32768];\n"
	  ".func f()\n{\n.reg .b32 %r<2>;\nst.shared.u32 [s2], %r1;\nret;\n}\n"
	  ".visible .entry a()\n{\n.reg .b32 %r<2>;\n"
	  "st.shared.u32 [s1], %r1;\ncall.uni f, ();\nret;\n}\n",
	  VGPU_PTX_ERR_LIMIT,
	  "e.ptx:5:22: error: static shared memory of kernel 'a' (65536 bytes with 's2') exceeds the 49152-byte limit" },
	{ "video: selector elsewhere", K("add.u32 %r1, %r2.b0, %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:14: error: selector .b0 is only allowed on video instructions" },
	{ "video: bad SIMD selector", K("vadd4.u32.u32.u32 %r1, %r2.b98, %r3, %r1;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:27: error: expected ';' but found '.b98'" },
	{ "video: lane selector", K("vadd4.u32.u32.u32 %r1, %r2.b0, %r3, %r1;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:24: error: 'vadd4' takes a selector of 4 bytes from 0-7 (.b3210), not .b0" },
	{ "video: mask order", K("vadd2.u32.u32.u32 %r1.h01, %r2, %r3, %r1;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:19: error: 'vadd2' takes a mask of half-words (.h0, .h1, .h10), not .h01" },
	{ "video: scalar part", K("vadd.u32.u32.u32 %r1, %r2.b4, %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:23: error: 'vadd' takes .b0-.b3 or .h0/.h1, not .b4" },
	{ "video: .sat with .add", K("vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r1;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'vadd4' cannot saturate with .add" },
	{ "video: no vavrg", K("vavrg.u32.u32.u32 %r1, %r2, %r3;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:1: error: unknown or unsupported instruction 'vavrg'" },
	{ "video: three types", K("vadd.u32.u32 %r1, %r2, %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'vadd' needs three types (.dtype.atype.btype)" },
	{ "video: shift mode", K("vshl.u32.u32.u32 %r1, %r2, %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'vshl' needs .clamp or .wrap" },
	{ "video: merge needs c", K("vadd.u32.u32.u32 %r1.b1, %r2, %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'vadd' takes four operands" },
	{ "video: modifier", K("vmin4.u32.u32.u32.max %r1, %r2, %r3, %r1;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:1: error: modifier '.max' of 'vmin4' is not supported" },
	{ "video: vmad", K("vmad.u32.u32.u32 %r1, %r2, %r3, %r1;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:1: error: 'vmad' instructions are not supported" },
	{ "unclosed body", H ".visible .entry k()\n{\nret;\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:5:1: error: '{' is never closed" },
	{ "duplicate kernel", H ".visible .entry k()\n{\nret;\n}\n"
	  ".visible .entry k()\n{\nret;\n}\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:8:17: error: function 'k' is already defined" },
	{ "too many initializers", H ".global .u32 g[2] = {1, 2, 3};\n",
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:4:28: error: too many initializers for 'g'" },
	{ "cluster barrier without arrive or wait", K("barrier.cluster;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'barrier.cluster' needs .arrive or .wait" },
	{ "mapa of a generic address in 32 bits", K("mapa.u32 %r1, %r2, %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'mapa' on a generic address needs .u64" },
	{ "indirect call without prototype", K("call.uni %rd1, (%r1);\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:10: error: an indirect call needs a .callprototype" },
	{ "match without sync", K("match.any.b32 %r1, %r2;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:1: error: 'match' without .sync is not supported (use match.sync)" },
	{ "texture coordinates", K("tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r0}, [%rd1, {%r1, %r2}];\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:41: error: a .1d access takes 1 coordinate, not 2" },
	{ "independent sampler", K("tex.2d.v4.s32.f32 {%r1, %r2, %r3, %r0}, [%rd1, %rd2, {%r1, %r2}];\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:48: error: expected '{' of coordinates but found '%rd2'" },
	{ "depth compare", K("tex.2d.v4.f32.f32 {%r1, %r2, %r3, %r0}, [%rd1, {%r1, %r2}], %r3;\n"),
	  VGPU_PTX_ERR_UNSUPPORTED,
	  "e.ptx:9:61: error: depth comparison ('tex' with a reference value) is not supported" },
	{ "surface coordinates", K("suld.b.2d.v4.b32.trap {%r1, %r2, %r3, %r0}, [%rd1, {%r1}];\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:45: error: a .2d access takes 2 coordinates, not 1" },
	{ "sured inc", K("sured.b.inc.2d.u32.trap [%rd1, {%r1, %r2}], %r3;\n"),
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:9:1: error: 'sured' needs .add, .min, .max, .and or .or" },
	{ "version twice", ".version 9.0\n.version 9.0\n", VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:2:1: error: more than one .version directive" },
	{ "declaration before .target", ".version 9.0\n.global .u32 g;\n",
	  VGPU_PTX_ERR_SYNTAX,
	  "e.ptx:2:1: error: .target must come before the first declaration" },
};

/* An error in the second of two modules names the second file. */
static void test_second_module(void)
{
	struct vgpu_ptx_source s[2] = {
		{ "first.ptx", H, strlen(H) },
		{ "second.ptx", H "bogus\n", strlen(H "bogus\n") },
	};
	struct vgpu_ptx_diag d;
	void *img;
	size_t size;
	char msg[512];
	int err = vgpu_ptx_compile(s, 2, NULL, &img, &size, &d);

	vgpu_ptx_format_diag(&d, msg, sizeof(msg));
	t_ok(err == VGPU_PTX_ERR_SYNTAX &&
	     !strcmp(msg, "second.ptx:4:1: error: expected a directive but found 'bogus'"),
	     "error in the second module: %s", msg);
	t_ok(img == NULL && size == 0, "no image after a failure");
}

/* Bad arguments to the API itself. */
static void test_api_misuse(void)
{
	struct vgpu_ptx_source s = { "x.ptx", H, strlen(H) };
	struct vgpu_ptx_options o = { .flags = 0x80000000u };
	struct vgpu_ptx_diag d;
	void *img;
	size_t size;

	t_ok(vgpu_ptx_compile(NULL, 0, NULL, &img, &size, &d) == VGPU_PTX_ERR_INVAL,
	     "no modules: VGPU_PTX_ERR_INVAL (%s)", d.message);
	t_ok(vgpu_ptx_compile(&s, 1, &o, &img, &size, &d) == VGPU_PTX_ERR_INVAL,
	     "unknown option flags: VGPU_PTX_ERR_INVAL (%s)", d.message);
	t_ok(vgpu_ptx_compile(&s, 1, NULL, NULL, &size, NULL) == VGPU_PTX_ERR_INVAL,
	     "no image pointer: VGPU_PTX_ERR_INVAL");
}

int main(void)
{
	unsigned int i;

	t_start();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct error_case *c = &cases[i];
		void *img = NULL;
		size_t size = 0;
		char msg[512];
		int err = t_compile("e.ptx", c->text, &img, &size, msg, sizeof(msg));

		if (!t_ok(err == c->err && !strcmp(msg, c->expect), "%s", c->name)) {
			t_diag("expected (%d) %s", c->err, c->expect);
			t_diag("got      (%d) %s", err, msg);
		}
		vgpu_ptx_free(img);
	}
	test_second_module();
	test_api_misuse();
	return t_done();
}
