// SPDX-License-Identifier: GPL-2.0
/*
 * Standalone .fatbin files made by the real nvcc at build time, in every
 * compression form and for several architectures: the PTX we extract
 * must be what `nvcc -ptx` prints for the same source, and the entry
 * chosen must be the one a driver should choose.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "fatbin_test_util.h"

/* Our PTX compiler's newest ISA in these tests; nvcc 13 writes 9.0. */
static const struct vgpu_fatbin_target sm75 = { 75, 9, 0 };

struct form {
	const char *file;
	enum vgpu_fatbin_compression ptx_compression;
	enum vgpu_fatbin_compression elf_compression;
};

/* What nvcc 13 does with each option (see build.mk for the options). */
static const struct form forms[] = {
	{ "kernels.default.fatbin", VGPU_FATBIN_COMPRESS_ZSTD, VGPU_FATBIN_COMPRESS_NONE },
	{ "kernels.nocompress.fatbin", VGPU_FATBIN_COMPRESS_NONE, VGPU_FATBIN_COMPRESS_NONE },
	{ "kernels.lz4.fatbin", VGPU_FATBIN_COMPRESS_LZ4, VGPU_FATBIN_COMPRESS_NONE },
	{ "kernels.size.fatbin", VGPU_FATBIN_COMPRESS_ZSTD, VGPU_FATBIN_COMPRESS_ZSTD },
	{ "kernels.all.fatbin", VGPU_FATBIN_COMPRESS_ZSTD, VGPU_FATBIN_COMPRESS_ZSTD },
};

/* Walk every entry; check kinds, compression and the PTX text. */
static void test_form(const struct form *form, const char *reference)
{
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;
	int ptx = 0, elf = 0, ok = 1, ret;
	size_t size, len;
	uint8_t *data;
	char *text;

	data = test_read_data(form->file, &size);
	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret && !(ret = vgpu_fatbin_iter_next(&it, &e))) {
		if (e.sm_arch != 75 || e.container != 0)
			ok = 0;
		if (e.kind == VGPU_FATBIN_KIND_ELF) {
			elf++;
			ok &= e.compression == form->elf_compression;
			ret = vgpu_fatbin_entry_extract(&e, &text, &len);
			/* a cubin is an ELF file of exactly the declared size */
			ok &= !ret && len == e.size && !memcmp(text, "\177ELF", 4);
			free(text);
			ret = 0;
			continue;
		}
		ptx++;
		ok &= e.kind == VGPU_FATBIN_KIND_PTX;
		ok &= e.compression == form->ptx_compression;
		ok &= e.isa_major == 9 && e.isa_minor == 0;
		ret = vgpu_fatbin_entry_extract(&e, &text, &len);
		if (ret)
			break;
		ok &= len == strlen(text) && test_same_ptx(text, reference);
		free(text);
	}
	ksft_test_result(ret == VGPU_FATBIN_END && ok && ptx == 1 && elf == 1,
			 "%s: one cubin, one PTX entry equal to nvcc -ptx\n",
			 form->file);
	free(data);
}

static void test_image_api(const char *reference)
{
	struct vgpu_fatbin_ptx_set set;
	size_t size;
	uint8_t *data = test_read_data("kernels.default.fatbin", &size);
	int ret = vgpu_fatbin_ptx_from_image(data, size, &sm75, &set);

	ksft_test_result(!ret && set.count == 1 &&
			 set.modules[0].sm_arch == 75 &&
			 set.modules[0].isa_major == 9 &&
			 test_same_ptx(set.modules[0].text, reference),
			 "ptx_from_image: the module of a .fatbin file\n");
	vgpu_fatbin_ptx_set_free(&set);
	free(data);
}

static void test_cubin_only(void)
{
	struct vgpu_fatbin_ptx_set set;
	size_t size;
	uint8_t *data = test_read_data("kernels.sm75only.fatbin", &size);
	int ret = vgpu_fatbin_ptx_from_image(data, size, &sm75, &set);

	ksft_test_result(ret == VGPU_FATBIN_ENOPTX && set.count == 0 &&
			 !set.modules,
			 "code=sm_75 only: no PTX to compile is an error\n");
	free(data);
}

struct selection {
	struct vgpu_fatbin_target target;
	int result;		/* 0 or the expected error */
	unsigned int arch;	/* of the entry expected */
	enum vgpu_fatbin_arch_scope scope;
	const char *reference;	/* nvcc -ptx for that architecture */
	const char *why;
};

/* multiarch.fatbin holds PTX for compute_75, 80, 90 and 90a. */
static const struct selection selections[] = {
	{ { 75, 9, 0 }, 0, 75, VGPU_FATBIN_SCOPE_FORWARD,
	  "multiarch.compute_75.ptx", "sm_75 takes compute_75" },
	{ { 86, 9, 0 }, 0, 80, VGPU_FATBIN_SCOPE_FORWARD,
	  "multiarch.compute_80.ptx", "sm_86 takes the newest not above it" },
	{ { 90, 9, 0 }, 0, 90, VGPU_FATBIN_SCOPE_EXACT,
	  "multiarch.compute_90a.ptx", "sm_90 prefers its own compute_90a" },
	{ { 100, 9, 0 }, 0, 90, VGPU_FATBIN_SCOPE_FORWARD,
	  "multiarch.compute_90.ptx", "sm_100 takes compute_90, not 90a" },
	{ { 70, 9, 0 }, VGPU_FATBIN_ENOPTX, 0, 0, NULL,
	  "sm_70 is older than every entry" },
	{ { 90, 8, 8 }, VGPU_FATBIN_ENOPTX, 0, 0, NULL,
	  "a compiler limited to ISA 8.8 cannot take ISA 9.0" },
};

static void test_selection(const uint8_t *data, size_t size,
			   const struct selection *s)
{
	struct vgpu_fatbin_ptx_set set;
	struct vgpu_fatbin_entry best;
	int ret, ok;

	ret = vgpu_fatbin_select_ptx(data, size, -1, &s->target, &best);
	ok = ret == s->result;
	if (!ret && ok)
		ok = best.sm_arch == s->arch && best.scope == s->scope;

	ret = vgpu_fatbin_ptx_from_image(data, size, &s->target, &set);
	ok &= ret == s->result;
	if (!ret && ok) {
		char *reference = test_reference_ptx(s->reference);

		ok = set.count == 1 && test_same_ptx(set.modules[0].text,
						     reference);
		free(reference);
	}
	vgpu_fatbin_ptx_set_free(&set);
	ksft_test_result(ok, "selection: %s\n", s->why);
}

/*
 * Two containers back to back, with linker padding between them, as in
 * the .nv_fatbin section of a program built from several .cu files.
 */
static void test_concatenated(void)
{
	size_t a_size, b_size, size;
	uint8_t *a = test_read_data("kernels.default.fatbin", &a_size);
	uint8_t *b = test_read_data("multiarch.fatbin", &b_size);
	struct vgpu_fatbin_ptx_set set;
	uint8_t *both;
	int ret;

	size = a_size + 16 + b_size;
	both = calloc(1, size);
	memcpy(both, a, a_size);
	memcpy(both + a_size + 16, b, b_size);
	ret = vgpu_fatbin_ptx_from_image(both, size, &sm75, &set);
	ksft_test_result(!ret && set.count == 2 &&
			 strstr(set.modules[0].text, ".entry _Z5saxpyifPKfPf") &&
			 strstr(set.modules[1].text, ".entry _Z4fillPiii"),
			 "two containers with padding: one module each\n");
	vgpu_fatbin_ptx_set_free(&set);
	free(both);
	free(a);
	free(b);
}

int main(void)
{
	char *reference = test_reference_ptx("kernels.compute_75.ptx");
	size_t size;
	uint8_t *multi;

	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(forms) + 3 + ARRAY_SIZE(selections));

	for (size_t i = 0; i < ARRAY_SIZE(forms); i++)
		test_form(&forms[i], reference);
	test_image_api(reference);
	test_cubin_only();
	test_concatenated();

	multi = test_read_data("multiarch.fatbin", &size);
	for (size_t i = 0; i < ARRAY_SIZE(selections); i++)
		test_selection(multi, size, &selections[i]);

	free(multi);
	free(reference);
	ksft_finished();
}
