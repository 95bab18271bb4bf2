// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_device_context.c - initialisation, devices, contexts, errors
 * and cuGetProcAddress.  Expected error codes are those recorded on real
 * CUDA 13 (tools/cuda-probe/golden, /work/shared/notes).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "cuda_test.h"

/* cuDeviceGetProperties and cuFuncSetSharedMemConfig are deprecated. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

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
	/* The printf FIFO's size and least size, measured on an H100
	 * (tools/cuda-probe/golden/probe_assert_printf.h100.txt). */
	ASSERT_EQ(8650752u, v);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	ASSERT_EQ(524288u, v);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	ASSERT_EQ(524288u, v);
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

/* Each field of the deprecated CUdevprop is the attribute of that name. */
TEST(device_properties)
{
	CUdevprop p;
	int v;

	ASSERT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetProperties(&p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(NULL, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&p, 99));
	memset(&p, 0xff, sizeof(p));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetProperties(&p, 0));
	ASSERT_EQ(1024, p.maxThreadsPerBlock);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 0));
	ASSERT_EQ(v, p.maxThreadsDim[2]);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 0));
	ASSERT_EQ(v, p.maxGridSize[0]);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 0));
	ASSERT_EQ(v, p.sharedMemPerBlock);
	ASSERT_EQ(65536, p.totalConstantMemory);
	ASSERT_EQ(32, p.SIMDWidth);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MAX_PITCH, 0));
	ASSERT_EQ(v, p.memPitch);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 0));
	ASSERT_EQ(v, p.clockRate);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 0));
	ASSERT_EQ(v, p.textureAlign);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 0));
	ASSERT_EQ(v, p.regsPerBlock);
	/* One device: no peer link to describe. */
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v,
		  CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0));
}

/* The CUDA 12.x queries that name their context, stream or function. */
TEST(context_stream_function_queries)
{
	CUcontext ctx, mine, got;
	CUgreenCtx green = (CUgreenCtx)1;
	CUdevice dev = -1;
	CUstream s;
	CUmodule mod;
	CUfunction *fns, f;
	CUfunctionLoadingState state;
	CUsharedconfig cfg;
	unsigned int count, i;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&mine, NULL, 0, 0));
	/* @mine is current now; ask about the other one by name. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice_v2(&dev, ctx));
	ASSERT_EQ(0, dev);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize_v2(ctx));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize_v2(NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT,
		  cuCtxSynchronize_v2((CUcontext)&dev));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice_v2(NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetCtx_v2(s, &got, &green));
	ASSERT_EQ(mine, got);
	ASSERT_EQ(NULL, green);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetDevice(s, &dev));
	ASSERT_EQ(0, dev);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(s, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetSharedMemConfig(&cfg));
	ASSERT_EQ(CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, cfg);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetSharedMemConfig(
		  CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxSetSharedMemConfig(
		  (CUsharedconfig)7));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxResetPersistingL2Cache());

	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&mod, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunctionCount(&count, mod));
	ASSERT_TRUE(count > 1);
	fns = calloc(count, sizeof(*fns));
	ASSERT_NE(NULL, fns);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleEnumerateFunctions(fns, count, mod));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "vec_add"));
	for (i = 0; i < count && fns[i] != f; i++)
		;
	ASSERT_TRUE(i < count);		/* vec_add is among them */
	free(fns);
	ASSERT_EQ(CUDA_SUCCESS, cuFuncIsLoaded(&state, f));
	ASSERT_EQ(CU_FUNCTION_LOADING_STATE_LOADED, state);
	ASSERT_EQ(CUDA_SUCCESS, cuFuncLoad(f));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncSetSharedMemConfig(f,
		  CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(mod));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuFuncLoad(f));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(mine));
}

/*
 * The unversioned CUDA 3.x names, which programs that dlsym() the driver
 * still ask for (NVIDIA's matrixMulDynlinkJIT): the same functions.
 */
TEST(legacy_names_by_dlsym)
{
	CUresult (*destroy)(CUcontext) = (CUresult (*)(CUcontext))
		dlsym(RTLD_DEFAULT, "cuCtxDestroy");
	CUresult (*push)(CUcontext) = (CUresult (*)(CUcontext))
		dlsym(RTLD_DEFAULT, "cuCtxPushCurrent");
	CUresult (*pop)(CUcontext *) = (CUresult (*)(CUcontext *))
		dlsym(RTLD_DEFAULT, "cuCtxPopCurrent");
	CUresult (*sdestroy)(CUstream) = (CUresult (*)(CUstream))
		dlsym(RTLD_DEFAULT, "cuStreamDestroy");
	CUresult (*edestroy)(CUevent) = (CUresult (*)(CUevent))
		dlsym(RTLD_DEFAULT, "cuEventDestroy");
	CUcontext ctx, got = NULL;
	CUstream s;
	CUevent e;

	ASSERT_NE(NULL, destroy);
	ASSERT_NE(NULL, push);
	ASSERT_NE(NULL, pop);
	ASSERT_NE(NULL, sdestroy);
	ASSERT_NE(NULL, edestroy);
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, sdestroy(s));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, sdestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&e, 0));
	ASSERT_EQ(CUDA_SUCCESS, edestroy(e));
	ASSERT_EQ(CUDA_SUCCESS, pop(&got));
	ASSERT_EQ(ctx, got);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&got));
	ASSERT_EQ(NULL, got);
	ASSERT_EQ(CUDA_SUCCESS, push(ctx));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&got));
	ASSERT_EQ(ctx, got);
	ASSERT_EQ(CUDA_SUCCESS, destroy(ctx));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, destroy(ctx));
}

CUDA_TEST_MAIN
