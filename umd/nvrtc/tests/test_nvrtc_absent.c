// SPDX-License-Identifier: GPL-2.0
/*
 * test_nvrtc_absent.c - the fronts without NVIDIA's libraries.
 *
 * Run in a guest that holds no CUDA toolkit (this test has no .vmargs
 * bringing NVIDIA's libraries in): every call answers the API's internal
 * error code instead of crashing, and nvrtcGetErrorString() still names
 * it.  (Where the search does find a toolkit, the test skips.)
 */
#include <stdio.h>
#include <unistd.h>

#include <nvJitLink.h>
#include <nvrtc.h>

#include "cuda_test.h"

static int toolkit_present(void)
{
	return !access("/usr/local/cuda/lib64/libnvrtc.so.13", F_OK) ||
	       !access("/usr/local/cuda-13/lib64/libnvrtc.so.13", F_OK) ||
	       getenv("VGPU_CUDA_LIBDIR") || getenv("CUDA_HOME") ||
	       getenv("CUDA_PATH");
}

TEST(nvrtc_calls_say_internal_error)
{
	const char *opts[] = { "-arch=sm_90" };
	nvrtcProgram prog = NULL;
	size_t size;
	int major, minor;

	if (toolkit_present())
		SKIP(return, "a CUDA toolkit is installed here");
	ASSERT_EQ(NVRTC_ERROR_INTERNAL_ERROR, nvrtcVersion(&major, &minor));
	ASSERT_EQ(NVRTC_ERROR_INTERNAL_ERROR,
		  nvrtcCreateProgram(&prog, "", "x.cu", 0, NULL, NULL));
	ASSERT_EQ(NVRTC_ERROR_INTERNAL_ERROR,
		  nvrtcCompileProgram(prog, 1, opts));
	ASSERT_EQ(NVRTC_ERROR_INTERNAL_ERROR, nvrtcGetCUBINSize(prog, &size));
	ASSERT_EQ(NVRTC_ERROR_INTERNAL_ERROR, nvrtcDestroyProgram(&prog));
	ASSERT_STREQ("NVRTC_ERROR_INTERNAL_ERROR",
		     nvrtcGetErrorString(NVRTC_ERROR_INTERNAL_ERROR));
}

TEST(nvjitlink_calls_say_internal_error)
{
	const char *opts[] = { "-arch=sm_90" };
	nvJitLinkHandle h = NULL;
	unsigned int major, minor;
	size_t size;

	if (toolkit_present())
		SKIP(return, "a CUDA toolkit is installed here");
	ASSERT_EQ(NVJITLINK_ERROR_INTERNAL, nvJitLinkVersion(&major, &minor));
	ASSERT_EQ(NVJITLINK_ERROR_INTERNAL, nvJitLinkCreate(&h, 1, opts));
	ASSERT_EQ(NVJITLINK_ERROR_INTERNAL,
		  nvJitLinkGetLinkedCubinSize(h, &size));
	ASSERT_EQ(NVJITLINK_ERROR_INTERNAL, nvJitLinkDestroy(&h));
}

CUDA_TEST_MAIN
