// SPDX-License-Identifier: GPL-2.0
/*
 * The in-memory path: this program is linked with host objects made by
 * nvcc (kernels.cu with default options, multiarch.cu for four virtual
 * architectures with LZ4), and with registration_stub.c in place of the
 * CUDA runtime.  Before main() their constructors have handed us the
 * wrapper pointers, exactly as libcudart would receive them.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "fatbin/elf_sections.h"
#include "fatbin_test_util.h"
#include "registration_stub.h"

static const struct vgpu_fatbin_target sm75 = { 75, 9, 0 };
static const struct vgpu_fatbin_target sm90 = { 90, 9, 0 };

/* The wrapper whose PTX declares kernel @entry. */
static const void *wrapper_with(const char *entry)
{
	for (int i = 0; i < registration_log.wrappers; i++) {
		struct vgpu_fatbin_ptx_set set;
		int found;

		if (vgpu_fatbin_ptx_from_wrapper(registration_log.wrapper[i],
						 &sm75, &set))
			continue;
		found = set.count == 1 && strstr(set.modules[0].text, entry);
		vgpu_fatbin_ptx_set_free(&set);
		if (found)
			return registration_log.wrapper[i];
	}
	return NULL;
}

static void test_registration_seen(void)
{
	const uint8_t *w0 = registration_log.wrapper[0];
	const uint8_t *w1 = registration_log.wrapper[1];

	ksft_test_result(registration_log.wrappers == 2 &&
			 registration_log.ends == 2 &&
			 vgpu_fatbin_is_wrapper(w0, 24) &&
			 vgpu_fatbin_is_wrapper(w1, 24) &&
			 w0[4] == 1 && w1[4] == 1,
			 "constructors registered two version-1 wrappers\n");
}

static void test_wrapper_ptx(const void *w, const struct vgpu_fatbin_target *t,
			     const char *reference_name, const char *what)
{
	char *reference = test_reference_ptx(reference_name);
	struct vgpu_fatbin_ptx_set set;
	int ret;

	ret = vgpu_fatbin_ptx_from_wrapper(w, t, &set);
	ksft_test_result(w && !ret && set.count == 1 &&
			 test_same_ptx(set.modules[0].text, reference),
			 "%s\n", what);
	vgpu_fatbin_ptx_set_free(&set);
	free(reference);
}

/* Every registered kernel name appears as an .entry of the PTX. */
static void test_functions_in_ptx(const void *w)
{
	struct vgpu_fatbin_ptx_set set;
	int ok = registration_log.functions == 3;
	char entry[256];

	ok &= !vgpu_fatbin_ptx_from_wrapper(w, &sm75, &set);
	for (int i = 0; ok && i < registration_log.functions; i++) {
		if (!strcmp(registration_log.function[i], "_Z4fillPiii"))
			continue;	/* multiarch.cu's kernel */
		snprintf(entry, sizeof(entry), ".entry %s(",
			 registration_log.function[i]);
		ok = strstr(set.modules[0].text, entry) != NULL;
	}
	vgpu_fatbin_ptx_set_free(&set);
	ksft_test_result(ok, "registered kernels are .entry points of the PTX\n");
}

/* The wrappers point into this executable's .nv_fatbin section. */
static void test_elf_sections(void)
{
	struct vgpu_elf_section fatbin, segment;
	struct vgpu_elf elf;
	size_t exe_size;
	uint8_t *exe = test_read_file("/proc/self/exe", &exe_size);
	int ok;

	ok = !vgpu_elf_open(&elf, exe, exe_size) &&
	     !vgpu_elf_find_section(&elf, ".nv_fatbin", &fatbin) &&
	     !vgpu_elf_find_section(&elf, ".nvFatBinSegment", &segment) &&
	     segment.size == 2 * 24;
	for (int i = 0; ok && i < registration_log.wrappers; i++) {
		const uint8_t *w = registration_log.wrapper[i];
		const uint8_t *container;
		size_t size;

		memcpy(&container, w + 8, sizeof(container));
		ok = !vgpu_fatbin_container_size(container, VGPU_FATBIN_MAX_SIZE,
						 &size) &&
		     memmem(fatbin.data, fatbin.size, container, size);
	}
	ksft_test_result(ok, "ELF reader: wrappers' containers are in .nv_fatbin\n");
	ksft_test_result(ok && vgpu_elf_find_section(&elf, "__nv_relfatbin",
						     &segment) ==
				       VGPU_FATBIN_ENOSECTION,
			 "ELF reader: a missing section is ENOSECTION\n");
	free(exe);
}

static void test_bad_wrappers(void)
{
	uint8_t w[24];
	struct vgpu_fatbin_ptx_set set;

	memcpy(w, registration_log.wrapper[0], sizeof(w));
	w[4] = 3;
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm75, &set) ==
				 VGPU_FATBIN_EVERSION && !set.count,
			 "wrapper version 3 is rejected\n");
	w[0] ^= 1;
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm75, &set) ==
				 VGPU_FATBIN_EMAGIC,
			 "wrapper with a bad magic is rejected\n");
	memset(w + 8, 0, 8);
	w[0] ^= 1;
	w[4] = 1;
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm75, &set) ==
				 VGPU_FATBIN_EHEADER &&
			 vgpu_fatbin_ptx_from_wrapper(NULL, &sm75, &set) ==
				 VGPU_FATBIN_EINVAL,
			 "NULL wrapper or container pointer is rejected\n");
}

int main(void)
{
	const void *kernels, *multi;

	ksft_print_header();
	ksft_set_plan(11);
	test_registration_seen();

	kernels = wrapper_with(".entry _Z5saxpyifPKfPf");
	multi = wrapper_with(".entry _Z4fillPiii");
	test_wrapper_ptx(kernels, &sm75, "kernels.compute_75.ptx",
			 "default build (zstd): PTX equals nvcc -ptx");
	test_wrapper_ptx(multi, &sm75, "multiarch.compute_75.ptx",
			 "four arches (LZ4), sm_75 device: compute_75 PTX");
	test_wrapper_ptx(multi, &sm90, "multiarch.compute_90a.ptx",
			 "four arches (LZ4), sm_90 device: compute_90a PTX");
	test_wrapper_ptx(multi, &(struct vgpu_fatbin_target){ 89, 9, 0 },
			 "multiarch.compute_80.ptx",
			 "four arches (LZ4), sm_89 device: compute_80 PTX");
	test_functions_in_ptx(kernels);
	test_elf_sections();
	test_bad_wrappers();
	ksft_finished();
}
