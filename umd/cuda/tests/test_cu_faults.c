// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_faults.c - sticky errors after device faults, which end the
 * process's use of the device as on NVIDIA hardware (no reset clears
 * them); processes that share the device: one faults while the other
 * keeps working.  The harness runs each TEST in a process of its own.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda_test.h"

static CUresult vec_add_check(CUmodule m, int n)
{
	CUfunction f;
	CUdeviceptr a, b, c;
	float *h = malloc(n * sizeof(float));
	void *params[] = { &a, &b, &c, &n };
	CUresult res;

	if ((res = cuModuleGetFunction(&f, m, "vec_add")) ||
	    (res = cuMemAlloc(&a, n * 4)) || (res = cuMemAlloc(&b, n * 4)) ||
	    (res = cuMemAlloc(&c, n * 4)) ||
	    (res = cuMemsetD32(a, 0x3f800000, n)) ||
	    (res = cuMemsetD32(b, 0x3f800000, n)) ||
	    (res = cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL,
				  params, NULL)) ||
	    (res = cuMemcpyDtoH(h, c, n * 4)))
		goto out;
	for (int i = 0; i < n; i++)
		if (h[i] != 2.0f)
			res = CUDA_ERROR_UNKNOWN;
	cuMemFree(a);
	cuMemFree(b);
	cuMemFree(c);
out:
	free(h);
	return res;
}

/*
 * Measured on an H100 (CUDA 13, tools/cuda-probe/run-tests-on-gpu): after
 * an illegal address the error is sticky, cuDevicePrimaryCtxReset succeeds
 * but does not clear it, and no new context can be made in the process.
 */
TEST(illegal_address_poisons_the_process)
{
	CUcontext ctx, other;
	CUmodule m;
	CUfunction wild;
	CUdeviceptr d, p;
	void *params[] = { &d };
	void *h;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wild, m, "write_wild"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	/* Measured: the launch itself succeeds; the fault shows later. */
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wild, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemAlloc(&p, 16));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemHostAlloc(&h, 16, 0));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS,
		  cuDevicePrimaryCtxRetain(&ctx, 0));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxCreate(&other, NULL, 0, 0));
}

/*
 * Each wait policy of cuCtxCreate (cudaSetDeviceFlags' cudaDeviceSchedule*)
 * sees results, and sees a fault instead of waiting forever: a spinning
 * waiter reads the queue's error from the fence page, not only the fence.
 * An event made with CU_EVENT_BLOCKING_SYNC sleeps whatever the policy.
 * One policy per test: the fault ends the process's use of the device.
 */
static void wait_policy_check(struct __test_metadata *_metadata,
			      unsigned int policy)
{
	CUfunction wild;
	CUdeviceptr d;
	void *params[] = { &d };
	unsigned int flags;
	CUcontext ctx;
	CUevent ev;
	CUmodule m;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, policy, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetFlags(&flags));
	ASSERT_EQ(policy, flags & CU_CTX_SCHED_MASK);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, vec_add_check(m, 1000));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_BLOCKING_SYNC));
	ASSERT_EQ(CUDA_SUCCESS, vec_add_check(m, 4000));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));

	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wild, m, "write_wild"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wild, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx));
}

TEST(wait_policy_auto)
{
	wait_policy_check(_metadata, CU_CTX_SCHED_AUTO);
}

TEST(wait_policy_spin)
{
	wait_policy_check(_metadata, CU_CTX_SCHED_SPIN);
}

TEST(wait_policy_yield)
{
	wait_policy_check(_metadata, CU_CTX_SCHED_YIELD);
}

TEST(wait_policy_blocking_sync)
{
	wait_policy_check(_metadata, CU_CTX_SCHED_BLOCKING_SYNC);
}

/* How many times @needle occurs in @text. */
static int count_of(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * As recorded on the H100 (tests/golden/probe_assert_printf.h100.txt):
 * every failing thread prints its own line, once, on stderr.
 */
TEST(assert_reports_assert)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	int v = 1, saved;
	void *params[] = { &v };
	FILE *log = tmpfile();
	char text[4096], line[128];

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "fails_assert"));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, 2, 1, 1, 3, 1, 1, 0, NULL,
					       params, NULL));
	/* The message goes to stderr: catch it in a file. */
	ASSERT_NE(NULL, log);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	ASSERT_EQ(STDERR_FILENO, dup2(fileno(log), STDERR_FILENO));
	ASSERT_EQ(CUDA_ERROR_ASSERT, cuCtxSynchronize());
	ASSERT_EQ(CUDA_ERROR_ASSERT, cuCtxSynchronize());	/* sticky */
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	rewind(log);
	text[fread(text, 1, sizeof(text) - 1, log)] = '\0';
	fclose(log);
	/* CUDA's format, one line per failing thread of both blocks */
	ASSERT_NE(NULL, strstr(text, "drv_kernels.cu:"));
	ASSERT_NE(NULL, strstr(text, "fails_assert")) TH_LOG("%s", text);
	for (int b = 0; b < 2; b++)
		for (int t = 0; t < 3; t++) {
			snprintf(line, sizeof(line),
				 ": block: [%d,0,0], thread: [%d,0,0] "
				 "Assertion `v == 0` failed.\n", b, t);
			ASSERT_EQ(1, count_of(text, line)) TH_LOG("%s", text);
		}
	/* Printed once, by the call that found the fault. */
	ASSERT_EQ(6, count_of(text, "Assertion")) TH_LOG("%s", text);
}

/* As on NVIDIA hardware (not measured here): __trap() is a launch failure. */
TEST(trap_reports_launch_failed)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	int v = 1;
	void *params[] = { &v };
	const char *name;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "traps"));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_LAUNCH_FAILED, &name));
	ASSERT_STREQ("CUDA_ERROR_LAUNCH_FAILED", name);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
}

/*
 * A created context faults: the other context of the process fails too.
 * Measured on an H100: NVIDIA's driver isolates faults between processes,
 * not between the contexts of one process (two_processes_one_faults).
 */
TEST(fault_reaches_every_context_of_the_process)
{
	CUcontext good, bad;
	CUmodule mg, mb;
	CUfunction wild;
	CUdeviceptr d;
	void *params[] = { &d };

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&good, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&mg, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&bad, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&mb, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wild, mb, "write_wild"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wild, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(good));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, vec_add_check(mg, 5000));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(bad));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(good));
}

/*
 * Two processes at once: a child runs correct work in a loop while the
 * parent launches a faulting kernel; the child must see no error.
 */
TEST(two_processes_one_faults)
{
	int to_child[2], from_child[2], status;
	char go = 0, done = 0;
	CUcontext ctx;
	CUmodule m;
	CUfunction wild;
	CUdeviceptr d;
	void *params[] = { &d };
	pid_t pid;

	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(from_child));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		CUresult res = CUDA_SUCCESS;
		CUmodule cm;

		if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
		    cuCtxSetCurrent(ctx) || cuModuleLoad(&cm, DRV_PTX))
			_exit(2);
		res = vec_add_check(cm, 2000);
		if (write(from_child[1], &go, 1) != 1)	/* ready */
			_exit(3);
		if (read(to_child[0], &go, 1) != 1)	/* parent faulted */
			_exit(3);
		for (int i = 0; i < 3 && res == CUDA_SUCCESS; i++)
			res = vec_add_check(cm, 3000);
		_exit(res == CUDA_SUCCESS ? 0 : 10 + (int)res % 100);
	}
	ASSERT_EQ(1, read(from_child[0], &done, 1));
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wild, m, "write_wild"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wild, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(1, write(to_child[1], &go, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

/*
 * The firmware dies under a running kernel: the context reports the
 * device unavailable, and once a firmware is back, a fresh context works.
 * It kills the run's firmware, so it must stay the last test.
 */
TEST(firmware_lost_and_back)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction spin;
	CUdeviceptr p;
	unsigned long long ns = 2000ull * 1000 * 1000;
	void *params[] = { &ns };
	pid_t fw;

	if (cuda_test_fw <= 0)
		SKIP(return, "the firmware was not started by this test");
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&spin, m, "spin"));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, NULL,
					       params, NULL));
	fw_launcher_kill(cuda_test_fw);
	ASSERT_EQ(CUDA_ERROR_DEVICE_UNAVAILABLE, cuCtxSynchronize());
	ASSERT_EQ(CUDA_ERROR_DEVICE_UNAVAILABLE, cuMemAlloc(&p, 16));
	/* A new firmware; this child's exit stops it (PDEATHSIG). */
	fw = fw_launcher_start();
	ASSERT_GT(fw, 0);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, vec_add_check(m, 1000));
	fw_launcher_stop(fw);
}

CUDA_TEST_MAIN
