// SPDX-License-Identifier: GPL-2.0
/*
 * Separate compilation with an object that has no PTX: this program is
 * linked with rdc_a.cu built for compute_90 (PTX and an sm_90 cubin),
 * rdc_b.cu built for sm_90 only (a cubin, no PTX) and their device link.
 * That is the shape of every -rdc=true program that nvcc links with
 * NVIDIA's device runtime, whose only PTX is for newer GPUs: the object
 * without PTX must be skipped, not fail the program, and remembered so
 * that a reference to one of its names can be explained.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "fatbin_test_util.h"
#include "registration_stub.h"

static const struct vgpu_fatbin_target sm90 = { 90, 9, 0 };

static void test_skipped(void)
{
	const uint8_t *w = registration_log.wrapper[0];
	const struct vgpu_fatbin_skipped *s;
	struct vgpu_fatbin_ptx_set set;
	int ret;

	ksft_test_result(registration_log.wrappers == 1 &&
			 vgpu_fatbin_is_wrapper(w, 24) && w[4] == 2,
			 "device link registered one version-2 wrapper\n");
	ret = vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set);
	ksft_test_result(!ret && set.count == 1 &&
			 strstr(set.modules[0].text, "double_all") &&
			 strstr(set.modules[0].text, ".extern .func"),
			 "the object with PTX is returned\n");
	ksft_test_result(!ret && set.nskipped == 1 &&
			 set.skipped[0].object <= 1 &&
			 !strcmp(set.skipped[0].contents, "sm_90"),
			 "the cubin-only object is skipped and described: %s\n",
			 set.nskipped ? set.skipped[0].contents : "none");
	s = vgpu_fatbin_skipped_defining(&set, "_Z5twicef");
	ksft_test_result(s && s == &set.skipped[0],
			 "the skipped object defines twice(float)\n");
	ksft_test_result(!vgpu_fatbin_skipped_defining(&set, "_Z10double_allPfi") &&
			 !vgpu_fatbin_skipped_defining(&set, "no_such_name") &&
			 !vgpu_fatbin_skipped_defining(&set, "_Z5twice") &&
			 !vgpu_fatbin_skipped_defining(NULL, "_Z5twicef"),
			 "names it does not define are not found in it\n");
	vgpu_fatbin_ptx_set_free(&set);
	ksft_test_result(!set.nskipped && !set.skipped && !set.count,
			 "freeing the set releases the skipped objects\n");

	/* For a device older than compute_90 no object has PTX. */
	ret = vgpu_fatbin_ptx_from_wrapper(w, &(struct vgpu_fatbin_target){ 80, 9, 0 },
					   &set);
	ksft_test_result(ret == VGPU_FATBIN_ENOPTX && !set.count &&
			 !set.nskipped,
			 "no object with usable PTX: ENOPTX, nothing leaked\n");
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(7);
	test_skipped();
	ksft_finished();
}
