/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cuda_test.h - what the driver-API guest tests share.
 *
 * Each test is a kselftest-harness TEST (run in its own child process, so
 * every test starts from cuInit); main() starts the firmware once.
 */
#ifndef VGPU_CUDA_TEST_H
#define VGPU_CUDA_TEST_H

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

/*
 * The harness gives each TEST 30 s.  A copy test under ASan in a TCG guest
 * on a host loaded with builds took longer than that and was killed while
 * still making progress; the guest runner's own limit (tools/check: 900 s
 * per test program) is what catches a hang.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#include "cuda_test_min.h"	/* DRV_PTX, DRV_FATBIN: the kernels */
#include "fw_launcher.h"

/* cuInit, the primary context of device 0 made current. */
#define CU_SETUP(ctxp)							\
	do {								\
		ASSERT_EQ(CUDA_SUCCESS, cuInit(0));			\
		ASSERT_EQ(CUDA_SUCCESS,					\
			  cuDevicePrimaryCtxRetain((ctxp), 0));		\
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(*(ctxp)));	\
	} while (0)

/*
 * main(): the firmware around the whole run.  The harness ends the
 * process with exit(), so the firmware is stopped by an atexit handler,
 * in the main process only (test children must not stop it).
 */
static pid_t cuda_test_fw, cuda_test_main_pid;

static void cuda_test_stop_fw(void)
{
	if (getpid() == cuda_test_main_pid)
		fw_launcher_stop(cuda_test_fw);
}

/*
 * A test built with the sanitizers is there to run the sanitizer build of
 * libcuda (build/lib/san, named by its RPATH).  A library path that wins
 * over the RPATH would quietly give it the plain one, and the -san run
 * would prove nothing: refuse to run then.
 */
static inline int cuda_test_check_libcuda(void)
{
#ifdef __SANITIZE_ADDRESS__
	Dl_info info;

	if (!dladdr((void *)cuInit, &info) || !info.dli_fname ||
	    !strstr(info.dli_fname, "/lib/san/")) {
		printf("Bail out! a sanitizer test loaded %s, not the sanitizer build of libcuda\n",
		       info.dli_fname ? info.dli_fname : "(unknown)");
		return -1;
	}
#endif
	return 0;
}

#define CUDA_TEST_MAIN							\
	int main(int argc, char **argv)					\
	{								\
		cuda_test_main_pid = getpid();				\
		if (cuda_test_check_libcuda())				\
			return 1;					\
		cuda_test_fw = fw_launcher_start();			\
		if (cuda_test_fw < 0) {					\
			printf("Bail out! cannot start vgpu-fw: %d\n",	\
			       (int)cuda_test_fw);			\
			return 1;					\
		}							\
		atexit(cuda_test_stop_fw);				\
		return test_harness_run(argc, argv);			\
	}

#endif /* VGPU_CUDA_TEST_H */
