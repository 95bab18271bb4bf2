// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_corpus - the compiler accepts every PTX file nvcc made at build
 * time (the kernel corpus of tests/corpus and the compiler's own cases in
 * umd/ptx/tests/cu, for sm_75 and sm_90, with -lineinfo and with -G), in
 * both forms the driver meets:
 *
 *   - as `nvcc -ptx` writes it;
 *   - as a fatbinary stores it (comments removed, leading tabs stripped),
 *     which must give exactly the same code.
 *
 * Every image must pass the structural checks of t_check_image() and have
 * one kernel per .entry of the source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"

static unsigned int count_entries(const char *text)
{
	unsigned int n = 0;
	const char *p = text;

	while ((p = strstr(p, ".entry ")))
		n++, p++;
	return n;
}

static void test_file(const char *path)
{
	char msg[512], why[256];
	void *img = NULL, *img2 = NULL;
	size_t size, size2;
	char *text = t_read_file(path, NULL), *fat;
	const char *bad;
	uint32_t nk = 0, nc1, nc2;
	const void *c1, *c2;

	if (!t_ok(text != NULL, "read %s", path))
		return;
	if (!t_ok(!t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "compile %s", path)) {
		t_diag("%s", msg);
		free(text);
		return;
	}
	bad = t_check_image(img, size, why, sizeof(why));
	t_ok(!bad, "image of %s is well-formed%s%s", path, bad ? ": " : "",
	     bad ? bad : "");
	t_section(img, VISA_SEC_KERNELS, &nk);
	t_ok(nk == count_entries(text), "%s: %u kernels for %u .entry", path,
	     nk, count_entries(text));

	fat = t_fatbin_form(text);
	if (t_ok(fat && !t_compile(path, fat, &img2, &size2, msg, sizeof(msg)),
		 "compile the fatbinary form of %s", path)) {
		c1 = t_section(img, VISA_SEC_CODE, &nc1);
		c2 = t_section(img2, VISA_SEC_CODE, &nc2);
		t_ok(nc1 == nc2 && !memcmp(c1, c2, nc1 * sizeof(struct visa_insn)),
		     "fatbinary form of %s gives the same code", path);
	} else {
		t_diag("%s", msg);
	}
	vgpu_ptx_free(img);
	vgpu_ptx_free(img2);
	free(fat);
	free(text);
}

int main(void)
{
	static const char *const dirs[] = { PTX_TEST_DATA "/sm_75",
					    PTX_TEST_DATA "/sm_90",
					    PTX_TEST_DATA "/lineinfo",
					    PTX_TEST_DATA "/debug" };
	unsigned int d, i, total = 0;

	t_start();
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char **names;
		unsigned int n = t_list_dir(dirs[d], ".ptx", &names);

		for (i = 0; i < n; i++)
			test_file(names[i]);
		total += n;
		t_free_list(names, n);
	}
	t_ok(total >= 6, "found %u PTX files made by nvcc", total);
	return t_done();
}
