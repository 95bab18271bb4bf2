// SPDX-License-Identifier: GPL-2.0
/*
 * Separate compilation: this program is linked with rdc_a.o and rdc_b.o
 * (nvcc -rdc=true) and their device-link object.  Only the device-link
 * object registers a fatbin, through a version-2 wrapper; the PTX of the
 * two objects is reached through its array of relocatable fatbins.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "fatbin/elf_sections.h"
#include "fatbin_test_util.h"
#include "registration_stub.h"

static const struct vgpu_fatbin_target sm75 = { 75, 9, 0 };

/* Which module is which does not matter to a linker; check both ways. */
static int modules_match(const struct vgpu_fatbin_ptx_set *set)
{
	char *a = test_reference_ptx("rdc_a.compute_75.ptx");
	char *b = test_reference_ptx("rdc_b.compute_75.ptx");
	int ok = 0;

	if (set->count == 2) {
		int a_first = strstr(set->modules[0].text, "double_all") != NULL;

		ok = test_same_ptx(set->modules[a_first ? 0 : 1].text, a) &&
		     test_same_ptx(set->modules[a_first ? 1 : 0].text, b);
	}
	free(a);
	free(b);
	return ok;
}

static void test_wrapper(void)
{
	const uint8_t *w = registration_log.wrapper[0];
	struct vgpu_fatbin_ptx_set set;
	int ret;

	ksft_test_result(registration_log.wrappers == 1 &&
			 vgpu_fatbin_is_wrapper(w, 24) && w[4] == 2,
			 "device link registered one version-2 wrapper\n");
	ret = vgpu_fatbin_ptx_from_wrapper(w, &sm75, &set);
	ksft_test_result(!ret && modules_match(&set),
			 "version 2: both objects' PTX, equal to nvcc -ptx -rdc=true\n");
	ksft_test_result(!ret && set.count == 2 &&
			 (strstr(set.modules[0].text, ".extern .func") ||
			  strstr(set.modules[1].text, ".extern .func")),
			 "the caller's module declares the callee .extern\n");
	vgpu_fatbin_ptx_set_free(&set);

	ret = vgpu_fatbin_ptx_from_wrapper(w, &(struct vgpu_fatbin_target){ 70, 9, 0 },
					   &set);
	ksft_test_result(ret == VGPU_FATBIN_ENOPTX && !set.count,
			 "version 2 on a too-old device: ENOPTX, nothing leaked\n");
}

/* The linked executable also carries the relfatbins in a section. */
static void test_relfatbin_section(void)
{
	struct vgpu_fatbin_ptx_set set = { 0 };
	struct vgpu_elf_section sec;
	struct vgpu_elf elf;
	size_t exe_size;
	uint8_t *exe = test_read_file("/proc/self/exe", &exe_size);
	int ok;

	ok = !vgpu_elf_open(&elf, exe, exe_size) &&
	     !vgpu_elf_find_section(&elf, "__nv_relfatbin", &sec) &&
	     !vgpu_fatbin_ptx_from_image(sec.data, sec.size, &sm75, &set) &&
	     modules_match(&set);
	ksft_test_result(ok, "__nv_relfatbin section: two containers, same PTX\n");
	vgpu_fatbin_ptx_set_free(&set);
	free(exe);
}

static void test_relocatable_object(void)
{
	struct vgpu_fatbin_ptx_set set = { 0 };
	struct vgpu_elf_section sec;
	struct vgpu_elf elf;
	size_t size;
	uint8_t *obj = test_read_data("rdc_a.o", &size);
	char *reference = test_reference_ptx("rdc_a.compute_75.ptx");
	int ok;

	ok = !vgpu_elf_open(&elf, obj, size) &&
	     !vgpu_elf_find_section(&elf, "__nv_relfatbin", &sec) &&
	     sec.addr == 0 &&
	     !vgpu_fatbin_ptx_from_image(sec.data, sec.size, &sm75, &set) &&
	     set.count == 1 && test_same_ptx(set.modules[0].text, reference);
	ksft_test_result(ok, "relocatable object rdc_a.o: its PTX\n");
	vgpu_fatbin_ptx_set_free(&set);
	free(reference);
	free(obj);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(6);
	test_wrapper();
	test_relfatbin_section();
	test_relocatable_object();
	ksft_finished();
}
