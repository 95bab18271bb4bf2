// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_exec_timeout.c - what a compute GPU does about time: no firmware
 * is an error at once, a kernel may run as long as it likes, and a
 * per-kernel limit exists only when the administrator sets one.
 *
 *  - no firmware: cuInit and device queries succeed, cuCtxCreate and the
 *    primary context fail at once with CUDA_ERROR_DEVICE_UNAVAILABLE (46)
 *    and the runtime's first call with cudaErrorDevicesUnavailable (46);
 *    a firmware started later makes the device usable in the same process;
 *  - a kernel that runs 30 s completes (the driver before uAPI 1.2
 *    stopped it after 5 s with CUDA_ERROR_LAUNCH_TIMEOUT);
 *  - CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT is 0 by default and 1 while
 *    the module parameter kernel_exec_timeout_ms is set;
 *  - with the limit set, an endless kernel gets CUDA_ERROR_LAUNCH_TIMEOUT
 *    (skipped unless the firmware enforces the limit, VGPU_INFO_EXEC_LIMIT).
 *
 * Each test starts (and stops) its own firmware - the first needs none at
 * first - so the harness's main is used, not cuda_test.h's CUDA_TEST_MAIN.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <uapi/linux/vgpu.h>	/* also without -Iinclude/uapi (cuda-probe) */

#include "kselftest_harness.h"
#include "cuda_test_min.h"
#include "fw_launcher.h"

/* cuInit, the primary context of device 0 made current (cuda_test.h). */
#define CU_SETUP(ctxp)							\
	do {								\
		ASSERT_EQ(CUDA_SUCCESS, cuInit(0));			\
		ASSERT_EQ(CUDA_SUCCESS,					\
			  cuDevicePrimaryCtxRetain((ctxp), 0));		\
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(*(ctxp)));	\
	} while (0)

#define EXEC_LIMIT_PARAM "/sys/module/vgpu/parameters/kernel_exec_timeout_ms"
/* The runtime of this build, next to libcuda. */
#define CUDART_LIB	CUDA_TEST_DATA "/../../lib/libcudart.so.13"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_param(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -errno;
	ok = fputs(value, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

static int exec_timeout_attr(void)
{
	int v = -1;

	if (cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT,
				 0) != CUDA_SUCCESS)
		return -1;
	return v;
}

/* The driver's description of /dev/vgpu0, or flags 0 if unreadable. */
static struct vgpu_info vgpu0_info(void)
{
	struct vgpu_info info = { 0 };
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
			info.flags = 0;
		close(fd);
	}
	return info;
}

/* No state: the fixture is there for the per-test time limits. */
FIXTURE(gpu) {
	int unused;
};

FIXTURE_SETUP(gpu)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(gpu)
{
}

TEST_F_TIMEOUT(gpu, no_firmware_is_device_unavailable_at_once, 120)
{
	int (*rt_malloc)(void **, size_t);
	void *rt, *p = NULL;
	CUcontext ctx = NULL;
	CUdevice dev;
	double t0, dt;
	int sms = 0;
	pid_t fw;

	if (fw_launcher_attached(0))
		SKIP(return, "a firmware is attached already (vgpu-vm --fw)");
	/* The GPU is present: init and queries work. */
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&sms,
		  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	EXPECT_LT(0, sms);
	/* It cannot run anything: say so now, not at the first launch. */
	t0 = now_s();
	EXPECT_EQ(CUDA_ERROR_DEVICE_UNAVAILABLE, cuCtxCreate(&ctx, NULL, 0,
							     dev));
	dt = now_s() - t0;
	TH_LOG("cuCtxCreate without a firmware: %d in %.3f ms",
	       CUDA_ERROR_DEVICE_UNAVAILABLE, dt * 1e3);
	EXPECT_EQ(CUDA_ERROR_DEVICE_UNAVAILABLE,
		  cuDevicePrimaryCtxRetain(&ctx, dev));
	/* The runtime's first call says the same. */
	rt = dlopen(CUDART_LIB, RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, rt) TH_LOG("%s", dlerror());
	*(void **)&rt_malloc = dlsym(rt, "cudaMalloc");
	ASSERT_NE(NULL, rt_malloc);
	t0 = now_s();
	EXPECT_EQ(46 /* cudaErrorDevicesUnavailable */, rt_malloc(&p, 256));
	TH_LOG("cudaMalloc without a firmware: in %.3f ms",
	       (now_s() - t0) * 1e3);

	/* A firmware that attaches later makes the device usable. */
	fw = fw_launcher_start();
	ASSERT_LT(0, fw);
	EXPECT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, dev));
	if (ctx) {
		CUdeviceptr d;

		EXPECT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
		EXPECT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 7, 1024));
		EXPECT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
		EXPECT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx));
	}
	fw_launcher_stop(fw);
}

/* Under TCG the JIT and the launch alone take seconds: room to spare. */
TEST_F_TIMEOUT(gpu, kernel_runs_30_s_without_being_stopped, 300)
{
	const unsigned long long ns = 30ull * 1000 * 1000 * 1000;
	void *params[] = { (void *)&ns };
	pid_t fw = fw_launcher_start();
	CUfunction spin;
	CUcontext ctx;
	CUmodule m;
	double t0, dt;

	ASSERT_LE(0, fw);
	CU_SETUP(&ctx);
	/* No limit by default: a headless compute GPU has none. */
	EXPECT_EQ(0, exec_timeout_attr());
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&spin, m, "spin"));
	t0 = now_s();
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0,
					       NULL, params, NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	dt = now_s() - t0;
	TH_LOG("a 30 s kernel completed in %.1f s", dt);
	EXPECT_LE(30.0, dt);
	EXPECT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	fw_launcher_stop(fw);
}

TEST_F_TIMEOUT(gpu, exec_timeout_attribute_follows_the_parameter, 120)
{
	pid_t fw = fw_launcher_start();
	CUcontext ctx;

	ASSERT_LE(0, fw);
	CU_SETUP(&ctx);
	EXPECT_EQ(0, exec_timeout_attr());
	ASSERT_EQ(0, write_param(EXEC_LIMIT_PARAM, "2000"));
	EXPECT_EQ(1, exec_timeout_attr());
	EXPECT_EQ(2000, vgpu0_info().kernel_exec_timeout_ms);
	ASSERT_EQ(0, write_param(EXEC_LIMIT_PARAM, "0"));
	EXPECT_EQ(0, exec_timeout_attr());
	fw_launcher_stop(fw);
}

TEST_F_TIMEOUT(gpu, exec_limit_stops_an_endless_kernel, 120)
{
	pid_t fw = fw_launcher_start();
	CUfunction wait_flag;
	CUdeviceptr dflag;
	volatile int *flag;
	void *params[] = { &dflag };
	CUcontext ctx;
	CUmodule m;
	double t0;

	ASSERT_LE(0, fw);
	if (!(vgpu0_info().flags & VGPU_INFO_EXEC_LIMIT)) {
		fw_launcher_stop(fw);
		SKIP(return, "needs per-grid limit: the firmware does not "
		     "enforce kernel_exec_timeout_ms (VGPU_INFO_EXEC_LIMIT)");
	}
	CU_SETUP(&ctx);
	ASSERT_EQ(0, write_param(EXEC_LIMIT_PARAM, "2000"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wait_flag, m,
						    "wait_flag"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&flag, 4096,
					       CU_MEMHOSTALLOC_DEVICEMAP));
	*flag = 0;
	ASSERT_EQ(CUDA_SUCCESS,
		  cuMemHostGetDevicePointer(&dflag, (void *)flag, 0));
	t0 = now_s();
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1,
					       0, NULL, params, NULL));
	EXPECT_EQ(CUDA_ERROR_LAUNCH_TIMEOUT, cuCtxSynchronize());
	TH_LOG("stopped after %.1f s", now_s() - t0);
	EXPECT_EQ(0, write_param(EXEC_LIMIT_PARAM, "0"));
	fw_launcher_stop(fw);
}

TEST_HARNESS_MAIN
