/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt_tap.h - the test-case macros of the runtime's nvcc-built guest tests.
 *
 *   TAP(cond, fmt, ...)   one test case: "ok N ..." when cond holds;
 *   OK(call)              call returned cudaSuccess;
 *   IS(err, call)         call returned err.
 *
 * OK and IS print a diagnostic line naming the call, what it returned and
 * what was expected when they do not hold, so that a failing case - here,
 * or when the test is built against NVIDIA's runtime and run on a real
 * GPU (tools/cuda-probe/run-tests-on-gpu) - says what the library answered.
 */
#ifndef RT_TAP_H
#define RT_TAP_H

#include <cuda_runtime_api.h>

#include "rt_test_util.h"

/*
 * The condition is evaluated before the message's arguments, which often
 * print what the condition's calls returned.
 */
#define TAP(cond, ...) ({ bool ok_ = (cond); tap_ok(ok_, __VA_ARGS__); })
#define IS(err, call) rt_tap_is((err), (call), #call, __FILE__, __LINE__)
#define OK(call) IS(cudaSuccess, call)

static inline bool rt_tap_is(cudaError_t want, cudaError_t got,
			     const char *call, const char *file, int line)
{
	if (got == want)
		return true;
	tap_diag("%s:%d: %s returned %s (%d), expected %s (%d)", file, line,
		 call, cudaGetErrorName(got), (int)got, cudaGetErrorName(want),
		 (int)want);
	return false;
}

#endif /* RT_TAP_H */
