/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtc_test.h - what the NVRTC and nvJitLink guest tests share: loading an
 * image made at run time and running an "a*f(x) + y" kernel on it.
 */
#ifndef VGPU_RTC_TEST_H
#define VGPU_RTC_TEST_H

#include <cuda.h>

#include "cuda_test.h"

/*
 * Load @image, run its kernel @name(float a, float *x, float *y, int n)
 * over @n elements with 128 threads a block, and compare y with @want.
 * @y holds y's initial values; on return, the kernel's.
 */
static void rtc_run_axpy(struct __test_metadata *_metadata,
			 const void *image, const char *name, float a,
			 const float *x, float *y, const float *want, int n)
{
	size_t bytes = (size_t)n * sizeof(float);
	CUdeviceptr dx, dy;
	CUmodule mod;
	CUfunction fn;
	CUcontext ctx;
	void *args[] = { &a, &dx, &dy, &n };

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadData(&mod, image));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, name));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&dx, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&dy, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(dx, x, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(dy, y, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(fn, (n + 127) / 128, 1, 1,
					       128, 1, 1, 0, NULL, args,
					       NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(y, dy, bytes));
	for (int i = 0; i < n; i++) {
		if (want[i] != y[i])
			TH_LOG("element %d: %g, want %g", i, y[i], want[i]);
		ASSERT_EQ(want[i], y[i]);
	}
	cuMemFree(dx);
	cuMemFree(dy);
	cuModuleUnload(mod);
}

#endif /* VGPU_RTC_TEST_H */
