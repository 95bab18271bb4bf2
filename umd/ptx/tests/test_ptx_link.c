// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_link - linking several modules into one image, as separately
 * compiled (-rdc=true) programs need: nvcc's own output (rdc/main.cu uses
 * a function and a variable of rdc/lib.cu through .extern) and
 * hand-written modules for the linkage rules (.visible, .weak, private
 * names, mismatched declarations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"

#define H ".version 9.0\n.target sm_75\n.address_size 64\n"

static int compile_n(const char *const *names, const char *const *texts,
		     unsigned int n, void **img, size_t *size, char *msg,
		     size_t msglen)
{
	struct vgpu_ptx_source s[4];
	struct vgpu_ptx_diag d;
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		s[i].name = names[i];
		s[i].text = texts[i];
		s[i].len = strlen(texts[i]);
	}
	err = vgpu_ptx_compile(s, n, NULL, img, size, &d);
	msg[0] = '\0';
	if (err)
		vgpu_ptx_format_diag(&d, msg, msglen);
	return err;
}

/* The value of a u32 module variable's initializer, by symbol name. */
static int symbol_u32(const void *img, const char *name, uint32_t *val)
{
	uint32_t n, ni, i;
	const struct visa_symbol *s = t_section(img, VISA_SEC_SYMBOLS, &n);
	const uint8_t *init = t_section(img, VISA_SEC_GLOBAL_INIT, &ni);

	for (i = 0; i < n; i++) {
		if (strcmp(t_str(img, s[i].name), name) || s[i].space != VISA_SPACE_GLOBAL)
			continue;
		if (s[i].offset + 4 > ni)
			return -1;
		memcpy(val, init + s[i].offset, 4);
		return 0;
	}
	return -1;
}

static void test_nvcc_rdc(void)
{
	const char *names[3] = { PTX_TEST_DATA "/rdc/main.ptx",
				 PTX_TEST_DATA "/rdc/lib.ptx",
				 PTX_TEST_DATA "/rdc/lib.ptx" };
	char *texts[3] = { t_read_file(names[0], NULL),
			   t_read_file(names[1], NULL), NULL };
	const struct visa_func *k, *callee;
	char msg[512], why[256];
	void *img = NULL;
	size_t size;
	uint32_t v;
	int call;

	texts[2] = texts[1];
	if (!t_ok(texts[0] && texts[1], "read the -rdc=true PTX of main.cu and lib.cu"))
		goto out;
	t_ok(compile_n(names, (const char *const *)texts, 1, &img, &size, msg,
		       sizeof(msg)) == VGPU_PTX_ERR_LINK &&
	     strstr(msg, "error: unresolved external function '_Z9lib_scalei'"),
	     "main.ptx alone: %s", msg);
	if (!t_ok(!compile_n(names, (const char *const *)texts, 2, &img, &size,
			     msg, sizeof(msg)), "main.ptx + lib.ptx link: %s", msg))
		goto out;
	t_ok(!t_check_image(img, size, why, sizeof(why)), "linked image is well-formed");
	k = t_func(img, "_Z7use_libPi");
	callee = t_func(img, "_Z9lib_scalei");
	call = k ? t_find_op(img, k, VISA_OP_CALL, 0) : -1;
	t_ok(k && callee && call >= 0 &&
	     t_code(img, k)[call].imm == (uint64_t)(callee - (const struct visa_func *)
						    t_section(img, VISA_SEC_FUNCS, NULL)),
	     "the kernel calls lib_scale of the other module");
	t_ok(!symbol_u32(img, "lib_counter", &v) && v == 7,
	     "lib_counter is defined once, initialized to 7");
	vgpu_ptx_free(img);
	img = NULL;
	t_ok(compile_n(names, (const char *const *)texts, 3, &img, &size, msg,
		       sizeof(msg)) == VGPU_PTX_ERR_LINK &&
	     strstr(msg, "is defined in more than one module"),
	     "lib.ptx twice: %s", msg);
out:
	vgpu_ptx_free(img);
	free(texts[0]);
	free(texts[1]);
}

static const char weak_mod[] = H
	".weak .global .u32 shared_val = 1;\n"
	".global .align 1 .b8 $str[3] = {65, 66, 0};\n"
	".weak .func (.param .b32 r) pick()\n{\nst.param.b32 [r], 1;\nret;\n}\n";
static const char strong_mod[] = H
	".visible .global .u32 shared_val = 2;\n"
	".global .align 1 .b8 $str[3] = {67, 68, 0};\n"
	".visible .func (.param .b32 r) pick()\n{\nst.param.b32 [r], 2;\nret;\n}\n";
static const char user_mod[] = H
	".extern .global .u32 shared_val;\n"
	".extern .func (.param .b32 r) pick();\n"
	".visible .entry k(.param .u64 out)\n{\n"
	".reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
	"ld.global.u32 %r1, [shared_val];\n"
	"{\n.param .b32 rv;\ncall.uni (rv), pick, ();\nld.param.b32 %r2, [rv];\n}\n"
	"ld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], %r2;\nret;\n}\n";

static void test_linkage_rules(void)
{
	const char *names[3] = { "weak.ptx", "strong.ptx", "user.ptx" };
	const char *texts[3] = { weak_mod, strong_mod, user_mod };
	const char *rev_n[3] = { "user.ptx", "weak.ptx", "weak2.ptx" };
	const char *rev_t[3] = { user_mod, weak_mod, weak_mod };
	char msg[512];
	void *img = NULL;
	size_t size;
	uint32_t v = 0, nsym, i, strs = 0;
	const struct visa_symbol *s;

	if (t_ok(!compile_n(names, texts, 3, &img, &size, msg, sizeof(msg)),
		 "weak + visible + user link: %s", msg)) {
		t_ok(!symbol_u32(img, "shared_val", &v) && v == 2,
		     "the .visible definition wins over the .weak one (%u)", v);
		s = t_section(img, VISA_SEC_SYMBOLS, &nsym);
		for (i = 0; i < nsym; i++)
			strs += !strcmp(t_str(img, s[i].name), "$str");
		t_ok(strs == 2, "each module keeps its private $str (%u)", strs);
	}
	vgpu_ptx_free(img);
	img = NULL;
	t_ok(!compile_n(rev_n, rev_t, 3, &img, &size, msg, sizeof(msg)) &&
	     !symbol_u32(img, "shared_val", &v) && v == 1,
	     "two .weak definitions: the first is used (%s)", msg);
	vgpu_ptx_free(img);
}

static void test_mismatches(void)
{
	static const char def_func[] = H
		".visible .func f(.param .b32 a)\n{\nret;\n}\n"
		".visible .global .u32 gv;\n";
	static const char bad_decl[] = H
		".extern .func f(.param .b64 a);\n"
		".visible .entry k()\n{\nret;\n}\n";
	static const char bad_space[] = H
		".extern .const .u32 gv;\n"
		".visible .entry k()\n{\nret;\n}\n";
	static const char func_as_var[] = H
		".visible .global .u32 f;\n";
	const char *n1[2] = { "def.ptx", "decl.ptx" };
	const char *t1[2] = { def_func, bad_decl };
	const char *t2[2] = { def_func, bad_space };
	const char *t3[2] = { def_func, func_as_var };
	char msg[512];
	void *img = NULL;
	size_t size;

	t_ok(compile_n(n1, t1, 2, &img, &size, msg, sizeof(msg)) == VGPU_PTX_ERR_LINK &&
	     !strcmp(msg, "decl.ptx:4:15: error: declaration of 'f' does not match its definition (parameter 0 size)"),
	     "mismatched parameter size: %s", msg);
	t_ok(compile_n(n1, t2, 2, &img, &size, msg, sizeof(msg)) == VGPU_PTX_ERR_LINK &&
	     !strcmp(msg, "decl.ptx:4:21: error: 'gv' is declared .const but defined .global"),
	     "mismatched state space: %s", msg);
	t_ok(compile_n(n1, t3, 2, &img, &size, msg, sizeof(msg)) == VGPU_PTX_ERR_LINK &&
	     !strcmp(msg, "decl.ptx:4:23: error: 'f' is a variable here but a function in def.ptx"),
	     "function and variable of one name: %s", msg);
}

/* The corpus's multi-module program (tests/corpus/link), all modules. */
static void test_corpus_link(void)
{
	char **names, msg[512], why[256];
	const char *texts[4] = { 0 };
	unsigned int n = t_list_dir(PTX_TEST_DATA "/corpus-link", ".ptx", &names), i;
	void *img = NULL;
	size_t size;

	if (n == 0 || n > 4) {
		t_diag("no multi-module program in tests/corpus/link (%u files)", n);
		t_free_list(names, n);
		return;
	}
	for (i = 0; i < n; i++)
		texts[i] = t_read_file(names[i], NULL);
	for (i = 0; i < n && texts[i]; i++)
		;
	if (t_ok(i == n && !compile_n((const char *const *)names, texts, n, &img,
				      &size, msg, sizeof(msg)),
		 "the %u modules of tests/corpus/link link %s", n, msg))
		t_ok(!t_check_image(img, size, why, sizeof(why)),
		     "the linked corpus program is well-formed");
	vgpu_ptx_free(img);
	for (i = 0; i < n; i++)
		free((void *)texts[i]);
	t_free_list(names, n);
}

int main(void)
{
	t_start();
	test_corpus_link();
	test_nvcc_rdc();
	test_linkage_rules();
	test_mismatches();
	return t_done();
}
