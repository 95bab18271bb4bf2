// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_device_context.c - initialisation, devices, contexts, errors
 * and cuGetProcAddress.  Expected error codes are those recorded on real
 * CUDA 13 (tools/cuda-probe/golden, /work/shared/notes).
 */
#include <pthread.h>
#include <string.h>

#include "cuda_test.h"

TEST(init_order)
{
	int n = -1, v = 0;
	CUdevice d;

	/* Measured: before cuInit. */
	ASSERT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&n));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuInit(1));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&n));
	ASSERT_GE(n, 1);
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&d, 99));
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&d, -1));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&d, 0));
	ASSERT_EQ(0, d);
	ASSERT_EQ(CUDA_SUCCESS, cuDriverGetVersion(&v));
	ASSERT_EQ(13000, v);
}

TEST(device_description)
{
	char name[128];
	size_t mem = 0;
	int major = 0, minor = 0, v;
	CUuuid a, b;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetName(name, sizeof(name), 0));
	ASSERT_NE(NULL, strstr(name, "vGPU"));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceTotalMem(&mem, 0));
	ASSERT_GT(mem, 0);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetUuid(&a, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetUuid(&b, 0));
	ASSERT_EQ(0, memcmp(&a, &b, sizeof(a)));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&major,
		  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&minor,
		  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
	ASSERT_GE(major * 10 + minor, 75);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	ASSERT_EQ(32, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
	ASSERT_EQ(1024, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	ASSERT_GE(v, 1);
	/* Every defined attribute answers; 0 and past the end do not. */
	for (int a2 = 1; a2 < CU_DEVICE_ATTRIBUTE_MAX; a2++)
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			  (CUdevice_attribute)a2, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v,
		  (CUdevice_attribute)0, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v,
		  (CUdevice_attribute)9999, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_WARP_SIZE, 5));
}

TEST(no_context)
{
	CUcontext c = (CUcontext)1;
	CUdeviceptr p;
	CUmodule m;
	void *h;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&c));
	ASSERT_EQ(NULL, c);
	/* Measured: every one of these without a context. */
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&p, 16));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemHostAlloc(&h, 16, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuModuleLoadData(&m, "x"));
}

TEST(primary_context)
{
	CUcontext a, b, cur;
	unsigned int flags;
	int active;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	ASSERT_EQ(0, active);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(0,
		  CU_CTX_SCHED_BLOCKING_SYNC));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&a, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&b, 0));
	ASSERT_EQ(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	ASSERT_EQ(1, active);
	ASSERT_EQ(CU_CTX_SCHED_BLOCKING_SYNC, flags);
	/* Retaining does not make it current. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	ASSERT_EQ(NULL, cur);
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(a));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	ASSERT_EQ(1, active);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
	ASSERT_EQ(0, active);
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(0));
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&a, 3));
}

static void *other_thread_current(void *arg)
{
	CUcontext c = (CUcontext)1;

	cuCtxGetCurrent(&c);
	*(CUcontext *)arg = c;
	return NULL;
}

TEST(created_contexts_and_stack)
{
	CUcontext a, b, cur, popped, seen = (CUcontext)1;
	CUdevice dev = -1;
	CUdeviceptr p;
	unsigned int v;
	pthread_t t;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&a, NULL, 0x10000, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&a, NULL, 0, 7));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	ASSERT_EQ(a, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	ASSERT_NE(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	ASSERT_EQ(b, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	ASSERT_EQ(0, dev);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetApiVersion(b, &v));
	ASSERT_GE(v, 3020);
	/* The current context is per thread. */
	ASSERT_EQ(0, pthread_create(&t, NULL, other_thread_current, &seen));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(NULL, seen);
	/* Work in both. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&p, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(p, 5, 1024));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
	ASSERT_EQ(b, popped);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	ASSERT_EQ(a, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(b));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(b));
	/* Destroying the current context pops it. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	ASSERT_EQ(a, cur);
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(b));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(a));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&popped));
}

TEST(limits_and_priorities)
{
	CUcontext ctx;
	size_t v = 0;
	int least = 1, greatest = 1;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	ASSERT_EQ(1u << 20, v);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE,
					      2u << 20));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	ASSERT_EQ(2u << 20, v);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&v, (CUlimit)99));
	/* Measured on an H100. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&least, &greatest));
	ASSERT_EQ(0, least);
	ASSERT_EQ(-5, greatest);
}

TEST(error_strings)
{
	const char *s = NULL;

	ASSERT_EQ(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
	ASSERT_STREQ("CUDA_ERROR_ILLEGAL_ADDRESS", s);
	ASSERT_EQ(CUDA_SUCCESS, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s));
	ASSERT_STREQ("invalid argument", s);
	ASSERT_EQ(CUDA_SUCCESS, cuGetErrorName(CUDA_SUCCESS, &s));
	ASSERT_STREQ("CUDA_SUCCESS", s);
	/* Measured: unknown codes. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetErrorString((CUresult)9999, &s));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)9999, &s));
}

TEST(proc_address)
{
	CUdriverProcAddressQueryResult st;
	void *fn = NULL;

	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuMemAlloc", &fn, 13000, 0,
						 &st));
	ASSERT_EQ((void *)cuMemAlloc_v2, fn);
	ASSERT_EQ(CU_GET_PROC_ADDRESS_SUCCESS, st);
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuCtxCreate", &fn, 13000, 0,
						 &st));
	ASSERT_EQ((void *)cuCtxCreate_v4, fn);
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuLaunchKernel", &fn, 13000,
		  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
	ASSERT_EQ((void *)cuLaunchKernel, fn);
	ASSERT_EQ(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuNoSuchThing", &fn,
							 13000, 0, &st));
	ASSERT_EQ(NULL, fn);
	ASSERT_EQ(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, st);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress(NULL, &fn, 13000,
							     0, &st));
}

CUDA_TEST_MAIN
