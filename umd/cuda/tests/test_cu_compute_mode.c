// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_compute_mode.c - compute modes as a CUDA program sees them
 *
 * The administrator sets the mode in sysfs (/sys/class/misc/vgpu0/
 * compute_mode, what `nvidia-smi -c` sets on NVIDIA's driver); the driver
 * enforces it when a context is created (kmod/vgpu_ctx.c).  The codes are
 * the documented ones - setting a compute mode on the shared H100 we
 * record on is not permitted, so they are not measured:
 *
 *  - CU_DEVICE_ATTRIBUTE_COMPUTE_MODE and the runtime's
 *    cudaDevAttrComputeMode follow the sysfs file at once;
 *  - PROHIBITED: cuCtxCreate and cuDevicePrimaryCtxRetain fail with
 *    CUDA_ERROR_UNKNOWN (cuda.h, at both functions), the runtime's first
 *    call with cudaErrorDevicesUnavailable (driver_types.h);
 *  - EXCLUSIVE_PROCESS, two processes: the first to create a context
 *    gets the device; the second gets CUDA_ERROR_DEVICE_UNAVAILABLE from
 *    the driver API (cuda.h) and cudaErrorDevicesUnavailable from the
 *    runtime, until the first has destroyed its contexts.
 *
 * Every test forks its processes before any CUDA call, as CUDA requires
 * of a program that forks, so the harness's main is used.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "cuda_test_min.h"
#include "fw_launcher.h"

#define COMPUTE_MODE_FILE	"/sys/class/misc/vgpu0/compute_mode"
/* The runtime of this build, next to libcuda. */
#define CUDART_LIB	CUDA_TEST_DATA "/../../lib/libcudart.so.13"

/* CUDA's runtime values (driver_types.h), without its headers. */
#define cudaErrorDevicesUnavailable	46
#define cudaDevAttrComputeMode		20

static int set_mode(const char *mode)
{
	FILE *f = fopen(COMPUTE_MODE_FILE, "w");
	int ok;

	if (!f)
		return -errno;
	ok = fputs(mode, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

static int mode_attr(void)
{
	int v = -1;

	if (cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, 0) !=
	    CUDA_SUCCESS)
		return -1;
	return v;
}

/* The runtime, loaded on demand: the test links only libcuda. */
struct rt {
	void *lib;
	int (*malloc_)(void **p, size_t size);
	int (*free_)(void *p);
	int (*get_attribute)(int *value, int attr, int device);
};

static int rt_load(struct rt *rt)
{
	rt->lib = dlopen(CUDART_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!rt->lib)
		return -1;
	*(void **)&rt->malloc_ = dlsym(rt->lib, "cudaMalloc");
	*(void **)&rt->free_ = dlsym(rt->lib, "cudaFree");
	*(void **)&rt->get_attribute = dlsym(rt->lib, "cudaDeviceGetAttribute");
	return rt->malloc_ && rt->free_ && rt->get_attribute ? 0 : -1;
}

FIXTURE(mode) {
	pid_t fw;
};

FIXTURE_SETUP(mode)
{
	self->fw = fw_launcher_start();
	ASSERT_LE(0, self->fw);
	ASSERT_EQ(0, set_mode("default"));
}

FIXTURE_TEARDOWN(mode)
{
	if (set_mode("default"))
		fprintf(stderr, "# cannot reset %s\n", COMPUTE_MODE_FILE);
	if (self->fw > 0)
		fw_launcher_stop(self->fw);
}

TEST_F_TIMEOUT(mode, attribute_follows_sysfs, 120)
{
	struct rt rt;
	int v = -1;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	EXPECT_EQ(CU_COMPUTEMODE_DEFAULT, mode_attr());
	ASSERT_EQ(0, set_mode("prohibited"));
	EXPECT_EQ(CU_COMPUTEMODE_PROHIBITED, mode_attr());
	ASSERT_EQ(0, set_mode("exclusive_process"));
	EXPECT_EQ(CU_COMPUTEMODE_EXCLUSIVE_PROCESS, mode_attr());
	ASSERT_EQ(0, rt_load(&rt)) TH_LOG("%s", dlerror());
	EXPECT_EQ(0, rt.get_attribute(&v, cudaDevAttrComputeMode, 0));
	EXPECT_EQ(CU_COMPUTEMODE_EXCLUSIVE_PROCESS, v);
	ASSERT_EQ(0, set_mode("0"));
	EXPECT_EQ(CU_COMPUTEMODE_DEFAULT, mode_attr());
	EXPECT_EQ(0, rt.get_attribute(&v, cudaDevAttrComputeMode, 0));
	EXPECT_EQ(CU_COMPUTEMODE_DEFAULT, v);
}

TEST_F_TIMEOUT(mode, prohibited_refuses_every_context, 120)
{
	CUcontext ctx = NULL;
	struct rt rt;
	void *p = NULL;

	ASSERT_EQ(0, set_mode("prohibited"));
	ASSERT_EQ(0, rt_load(&rt)) TH_LOG("%s", dlerror());
	EXPECT_EQ(cudaErrorDevicesUnavailable, rt.malloc_(&p, 256));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	EXPECT_EQ(CUDA_ERROR_UNKNOWN, cuCtxCreate(&ctx, NULL, 0, 0));
	EXPECT_EQ(CUDA_ERROR_UNKNOWN, cuDevicePrimaryCtxRetain(&ctx, 0));

	/* Allowed again, the same process gets its context. */
	ASSERT_EQ(0, set_mode("default"));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx));
}

/*
 * The other process: takes the device with a context, says so on @ready,
 * keeps it until a byte arrives on @release, then exits.
 */
static void holder(int ready, int release)
{
	CUcontext ctx;
	CUdeviceptr d;
	char c = 'n';

	if (cuInit(0) == CUDA_SUCCESS &&
	    cuCtxCreate(&ctx, NULL, 0, 0) == CUDA_SUCCESS &&
	    cuMemAlloc(&d, 4096) == CUDA_SUCCESS &&
	    cuMemsetD32(d, 7, 1024) == CUDA_SUCCESS &&
	    cuCtxSynchronize() == CUDA_SUCCESS)
		c = 'y';
	if (write(ready, &c, 1) != 1 || read(release, &c, 1) != 1)
		_exit(2);
	_exit(c == 'y' || c == 'x' ? 0 : 1);
}

TEST_F_TIMEOUT(mode, exclusive_process_two_processes, 180)
{
	int to_holder[2], from_holder[2], status;
	CUcontext ctx = NULL;
	CUdeviceptr d;
	struct rt rt;
	void *p = NULL;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, set_mode("exclusive_process"));
	ASSERT_EQ(0, pipe(to_holder));
	ASSERT_EQ(0, pipe(from_holder));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		holder(from_holder[1], to_holder[0]);
	ASSERT_EQ(1, read(from_holder[0], &c, 1));
	ASSERT_EQ('y', c) TH_LOG("the first process did not get the device");

	/* The device is the other process's: both APIs say unavailable. */
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	EXPECT_EQ(CU_COMPUTEMODE_EXCLUSIVE_PROCESS, mode_attr());
	EXPECT_EQ(CUDA_ERROR_DEVICE_UNAVAILABLE, cuCtxCreate(&ctx, NULL, 0, 0));
	EXPECT_EQ(CUDA_ERROR_DEVICE_UNAVAILABLE,
		  cuDevicePrimaryCtxRetain(&ctx, 0));
	ASSERT_EQ(0, rt_load(&rt)) TH_LOG("%s", dlerror());
	EXPECT_EQ(cudaErrorDevicesUnavailable, rt.malloc_(&p, 256));

	/* It lets go (exits): the device is ours. */
	ASSERT_EQ(1, write(to_holder[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	EXPECT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 1, 1024));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(d));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx));
	close(to_holder[0]);
	close(to_holder[1]);
	close(from_holder[0]);
	close(from_holder[1]);
}

TEST_HARNESS_MAIN
