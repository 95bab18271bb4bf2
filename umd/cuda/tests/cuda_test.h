/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cuda_test.h - what the driver-API guest tests share.
 *
 * Each test is a kselftest-harness TEST (run in its own child process, so
 * every test starts from cuInit); main() starts the firmware once.
 */
#ifndef VGPU_CUDA_TEST_H
#define VGPU_CUDA_TEST_H

#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
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

#define CUDA_TEST_MAIN							\
	int main(int argc, char **argv)					\
	{								\
		cuda_test_main_pid = getpid();				\
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
