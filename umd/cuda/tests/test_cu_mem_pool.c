// SPDX-License-Identifier: GPL-2.0
/*
 * Stream-ordered memory pools: cuMemPool*, cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, the default and current pool.
 *
 * Expected values are those an H100 gave to tools/cuda-probe/probe_pools.c
 * (golden/probe_pools.h100.txt): 32 MiB chunks, exact used bytes, the
 * reuse rules, the error codes.  Where vGPU answers differently on
 * purpose (no shareable pools) the test says so.
 */
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "cuda_test.h"

#define MiB (1ull << 20)

static cuuint64_t pool_stat(CUmemoryPool p, CUmemPool_attribute a)
{
	cuuint64_t v = ~0ull;

	if (cuMemPoolGetAttribute(p, a, &v) != CUDA_SUCCESS)
		return ~0ull;
	return v;
}

static int pool_int(CUmemoryPool p, CUmemPool_attribute a)
{
	int v = -1;

	if (cuMemPoolGetAttribute(p, a, &v) != CUDA_SUCCESS)
		return -1;
	return v;
}

static void set_int(CUmemoryPool p, CUmemPool_attribute a, int v)
{
	cuMemPoolSetAttribute(p, a, &v);
}

static CUresult make_pool(CUmemoryPool *p, int dev)
{
	CUmemPoolProps props;

	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = dev;
	return cuMemPoolCreate(p, &props);
}

#define RESERVED(p)	pool_stat(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)
#define RESERVED_HI(p)	pool_stat(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)
#define USED(p)		pool_stat(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT)
#define USED_HI(p)	pool_stat(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH)

TEST(device_attributes_and_defaults)
{
	CUcontext ctx;
	CUmemoryPool def, cur, p;
	int v, i;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0));
	EXPECT_EQ(1, v);
	/* The H100 says 9 (POSIX fd | fabric); vGPU has no fabric. */
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 0));
	EXPECT_EQ(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetMemPool(&cur, 0));
	EXPECT_EQ(def, cur);
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	EXPECT_NE(def, p);
	/* Every reuse policy on, everything else 0, in both kinds of pool. */
	for (i = CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES;
	     i <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES; i++) {
		EXPECT_EQ(1, pool_int(def, (CUmemPool_attribute)i));
		EXPECT_EQ(1, pool_int(p, (CUmemPool_attribute)i));
	}
	for (i = CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
	     i <= CU_MEMPOOL_ATTR_USED_MEM_HIGH; i++) {
		EXPECT_EQ(0, pool_stat(def, (CUmemPool_attribute)i));
		EXPECT_EQ(0, pool_stat(p, (CUmemPool_attribute)i));
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
}

/* Reserved memory in 32 MiB chunks, used memory exact, release at sync. */
TEST(statistics_and_release_threshold)
{
	static const struct { size_t size; cuuint64_t reserved; } t[] = {
		{ 1, 32 * MiB }, { 1000, 32 * MiB }, { MiB, 32 * MiB },
		{ 3 * MiB, 32 * MiB }, { 33 * MiB, 64 * MiB },
	};
	CUcontext ctx;
	CUmemoryPool p;
	CUstream s;
	CUdeviceptr a;
	cuuint64_t max = UINT64_MAX;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ASSERT_EQ(CUDA_SUCCESS,
			  cuMemAllocFromPoolAsync(&a, t[i].size, p, s));
		EXPECT_EQ(t[i].reserved, RESERVED(p));
		EXPECT_EQ(t[i].size, USED(p));
		EXPECT_EQ(t[i].size, USED_HI(p));
		ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
		/* Freed, not yet given back: that waits for a synchronize. */
		EXPECT_EQ(t[i].reserved, RESERVED(p));
		EXPECT_EQ(0, USED(p));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
		/* Threshold 0: all of it goes back; the high marks stay. */
		EXPECT_EQ(0, RESERVED(p));
		EXPECT_LE(t[i].reserved, RESERVED_HI(p));
		EXPECT_EQ(t[i].size, USED_HI(p));
	}
	EXPECT_EQ(64 * MiB, RESERVED_HI(p));

	/* A threshold above what is reserved: kept over the synchronize. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &max));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 4096, p, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(32 * MiB, RESERVED(p));
	/* ... also over an event's and the context's synchronize. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(32 * MiB, RESERVED(p));

	/* Trim gives it back; resetting the high marks makes them current. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolTrimTo(p, 0));
	EXPECT_EQ(0, RESERVED(p));
	EXPECT_EQ(64 * MiB, RESERVED_HI(p));
	max = 0;
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &max));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_USED_MEM_HIGH, &max));
	EXPECT_EQ(0, RESERVED_HI(p));
	EXPECT_EQ(0, USED_HI(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* An event synchronize releases too, and trim keeps what it is asked to. */
TEST(event_sync_releases_and_trim_keeps)
{
	CUcontext ctx;
	CUmemoryPool p;
	CUstream s;
	CUevent ev;
	CUdeviceptr a, b;
	cuuint64_t thr = 40 * MiB;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	/* 33 MiB take a 64 MiB chunk; 31 MiB fit in the rest of it. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 33 * MiB, p, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 31 * MiB, p, s));
	EXPECT_EQ(64 * MiB, RESERVED(p));
	EXPECT_EQ(64 * MiB, USED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, s));
	EXPECT_EQ(64 * MiB, RESERVED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(ev));
	/* Reserved above 0, nothing in use: everything goes. */
	EXPECT_EQ(0, RESERVED(p));

	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr));
	/* Two chunks of 32 MiB. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 32 * MiB, p, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 32 * MiB, p, s));
	EXPECT_EQ(64 * MiB, RESERVED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	/* Chunks go until at most 40 MiB stay: one 32 MiB chunk. */
	EXPECT_EQ(32 * MiB, RESERVED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolTrimTo(p, 32 * MiB));
	EXPECT_EQ(32 * MiB, RESERVED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolTrimTo(p, 0));
	EXPECT_EQ(0, RESERVED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

TEST(same_stream_reuse)
{
	CUcontext ctx;
	CUmemoryPool p;
	CUstream s;
	CUdeviceptr a, b, c;
	int i;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	/* Even with every policy off: the stream's own order is enough. */
	for (i = CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES;
	     i <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES; i++)
		set_int(p, (CUmemPool_attribute)i, 0);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 4096, p, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 4096, p, s));
	EXPECT_EQ(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&c, 2048, p, s));
	EXPECT_EQ(b, c);
	EXPECT_EQ(2048, USED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(c, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/*
 * Across streams: no reuse without a dependency, reuse after an event
 * dependency when REUSE_FOLLOW_EVENT_DEPENDENCIES allows it, after a
 * synchronize, and of a completed free when REUSE_ALLOW_OPPORTUNISTIC
 * allows it.  The free is held back by a kernel waiting for a host flag,
 * so "not completed" does not depend on timing.
 */
TEST(cross_stream_reuse_policies)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction wait_flag;
	CUmemoryPool p;
	CUstream s1, s2, sb;
	CUevent ev, done;
	CUdeviceptr a, b, c, dflag;
	volatile int *flag;
	void *args[] = { &dflag };
	int i;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wait_flag, m, "wait_flag"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&flag, sizeof(int),
					       CU_MEMHOSTALLOC_DEVICEMAP));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dflag,
							  (void *)flag, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	for (i = CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES;
	     i <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES; i++)
		set_int(p, (CUmemPool_attribute)i, 0);

	/* No policy, no dependency: another block. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 4096, p, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 4096, p, s2));
	EXPECT_NE(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	/* After a synchronize every completed free is anyone's. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 4096, p, s2));
	EXPECT_EQ(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());

	/* An event dependency, the free still pending behind the kernel. */
	*flag = 0;
	set_int(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 8192, p, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1, 0,
					       s1, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s1));
	/* Without waiting on the event yet: not reusable. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 8192, p, s2));
	EXPECT_NE(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 8192, p, s2));
	EXPECT_EQ(a, b);
	/* A third stream that joined s2 after that is ordered too. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	*flag = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());

	/*
	 * The legacy stream's implicit order is a dependency too: a free on
	 * a blocking stream comes before the legacy stream's next work, and
	 * one on the legacy stream before a blocking stream's.
	 */
	*flag = 0;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&sb, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 4096, p, sb));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1, 0,
					       sb, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, sb));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 4096, p, s2));
	EXPECT_NE(a, b);	/* s2 does not block: no order */
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 4096, p, NULL));
	EXPECT_EQ(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&c, 4096, p, sb));
	EXPECT_EQ(b, c);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(c, sb));
	*flag = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(sb));

	/* Opportunistic: a completed free, no dependency, no synchronize. */
	*flag = 0;
	set_int(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, 0);
	set_int(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 16384, p, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1, 0,
					       s1, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(done, s1));
	/* Pending: even the opportunistic policy cannot take it. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 16384, p, s2));
	EXPECT_NE(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	*flag = 1;
	while (cuEventQuery(done) == CUDA_ERROR_NOT_READY)
		usleep(1000);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 16384, p, s2));
	EXPECT_EQ(a, b);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());

	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(done));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost((void *)flag));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

/* A kernel writes pool memory; the host checks it against the CPU. */
TEST(kernel_writes_pool_memory)
{
	const int n = 4096;
	CUcontext ctx;
	CUmodule m;
	CUfunction add;
	CUstream s;
	CUdeviceptr a, b, c;
	float *ha = malloc(n * sizeof(float)), *hb = malloc(n * sizeof(float));
	float *hc = malloc(n * sizeof(float));
	int nn = n;
	void *args[] = { &a, &b, &c, &nn };

	CU_SETUP(&ctx);
	ASSERT_NE(NULL, hc);
	for (int i = 0; i < n; i++) {
		ha[i] = (float)i * 0.5f;
		hb[i] = (float)(n - i);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&add, m, "vec_add"));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	/* The device's current pool: the default one. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&a, n * sizeof(float), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&b, n * sizeof(float), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&c, n * sizeof(float), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoDAsync(a, ha, n * sizeof(float), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoDAsync(b, hb, n * sizeof(float), s));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(add, n / 256, 1, 1, 256, 1, 1,
					       0, s, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(hc, c, n * sizeof(float), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(b, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(c, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	for (int i = 0; i < n; i++)
		ASSERT_EQ(ha[i] + hb[i], hc[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	free(ha);
	free(hb);
	free(hc);
}

/* The current pool, and pointers of a pool seen by the rest of the API. */
TEST(current_pool_and_pointers)
{
	CUcontext ctx;
	CUmemoryPool def, p, cur;
	CUstream s;
	CUdeviceptr a, base;
	size_t size;
	unsigned char bytes[256];

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, 0));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceSetMemPool(0, p));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetMemPool(&cur, 0));
	EXPECT_EQ(p, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&a, 256, s));
	EXPECT_EQ(256, USED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&cur,
			CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a));
	EXPECT_EQ(p, cur);
	/* The allocation's own range, not its chunk's (measured). */
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, a + 16));
	EXPECT_EQ(a, base);
	EXPECT_EQ(256, size);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8Async(a, 0x5a, 256, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(bytes, a, 256, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	for (int i = 0; i < 256; i++)
		ASSERT_EQ(0x5a, bytes[i]);
	/* cuMemFree takes pool memory back too; after it the range is gone. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(a));
	EXPECT_EQ(0, USED(p));
	EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, a));
	/* Destroying the current pool makes the default current again. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetMemPool(&cur, 0));
	EXPECT_EQ(def, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* The answers of the H100 to bad calls (probe_pools.h100.txt). */
TEST(error_codes)
{
	CUcontext ctx;
	CUmemoryPool def, p, q = NULL;
	CUmemPoolProps props;
	CUmemAccessDesc acc;
	CUmemLocation loc;
	CUmemAccess_flags fl;
	CUstream s;
	CUdeviceptr a, c;
	cuuint64_t v64;
	int v, fd = -1;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, 0));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));

	/* Attributes. */
	v64 = 5;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v64));
	v64 = 0;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v64));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v64));
	v = 2;
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &v));
	EXPECT_EQ(1, pool_int(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPoolSetAttribute(p, (CUmemPool_attribute)0, &v));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPoolSetAttribute(p, (CUmemPool_attribute)9, &v));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPoolGetAttribute(p, (CUmemPool_attribute)0, &v));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPoolGetAttribute(p, (CUmemPool_attribute)9, &v));
	/* NVIDIA's library dereferences these; ours refuses them. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(p,
			CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(NULL,
			CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v64));

	/* Allocation and free. */
	a = 1;
	EXPECT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 0, p, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAllocFromPoolAsync(NULL, 16, p, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAllocFromPoolAsync(&a, 16, NULL, s));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&a, 0, s));
	EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
		  cuMemAllocAsync(&a, (size_t)1 << 50, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&a, 256, s));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(a, s));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(a));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeAsync(0, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(0x1234, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&c, 4096));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeAsync(c, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 64, p, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(a + 8, s));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));

	/* Access. */
	memset(&acc, 0, sizeof(acc));
	acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	acc.location.id = 0;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(p, &acc, 1));
	acc.location.id = 7;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(p, &acc, 1));
	acc.location.id = 0;
	acc.flags = (CUmemAccess_flags)9;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	acc.location.type = CU_MEM_LOCATION_TYPE_HOST;
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(p, &acc, 1));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolSetAccess(p, &acc, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(p, NULL, 1));
	memset(&loc, 0, sizeof(loc));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolGetAccess(&fl, p, &loc));
	EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, fl);
	loc.id = 7;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(&fl, p, &loc));
	loc.type = CU_MEM_LOCATION_TYPE_HOST;
	loc.id = 0;
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolGetAccess(&fl, p, &loc));
	EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_NONE, fl);

	/* Creation. */
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = 7;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&q, &props));
	props.location.id = 0;
	props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&q, &props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_INVALID;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&q, &props));
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.handleTypes = (CUmemAllocationHandleType)0x40;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&q, &props));
	props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
	props.reserved[3] = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&q, &props));
	props.reserved[3] = 0;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&q, NULL));
	/* A maximum size counts whole chunks: 2 MiB fit in "1 MiB". */
	props.maxSize = MiB;
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolCreate(&q, &props));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 2 * MiB, q, s));
	EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
		  cuMemAllocFromPoolAsync(&c, 32 * MiB, q, s));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(q));
	/* Shareable by descriptor; a pool made without it is not. */
	props.maxSize = 0;
	props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolCreate(&q, &props));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(q));
	props.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolCreate(&q, &props));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportToShareableHandle(&fd,
			p, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));

	/* Current and default pools, destruction. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(7, p));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetDefaultMemPool(&q, 7));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(p));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(def));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPoolTrimTo(def, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* Send and receive a descriptor and some bytes over a Unix socket. */
static int send_fd(int sock, int fd, const void *data, size_t size)
{
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = size };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == (ssize_t)size ? 0 : -1;
}

static int recv_fd(int sock, void *data, size_t size)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = size };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_WAITALL) != (ssize_t)size)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

#define IPC_WORDS	4096

/*
 * The exporter (a child: pidfd_getfd lets a parent take its descendant's
 * descriptors): a shareable pool, an allocation filled with a pattern,
 * the pool's descriptor and the pointer's data to the parent; then,
 * once the parent is done, the parent's writes checked.
 */
static int pool_exporter(int sock)
{
	static uint32_t h[IPC_WORDS];
	CUmemPoolPtrExportData data;
	CUmemPoolProps props;
	CUmemoryPool pool;
	CUcontext ctx;
	CUstream s;
	CUdeviceptr d;
	int fd;
	char go;

	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuStreamCreate(&s, 0) ||
	    cuMemPoolCreate(&pool, &props) ||
	    cuMemAllocFromPoolAsync(&d, 1000, pool, s) || /* not first */
	    cuMemAllocFromPoolAsync(&d, IPC_WORDS * 4, pool, s) ||
	    cuMemsetD32Async(d, 0x12345678, IPC_WORDS, s) ||
	    cuStreamSynchronize(s))
		return 2;
	if (cuMemPoolExportToShareableHandle(&fd, pool,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) ||
	    cuMemPoolExportPointer(&data, d))
		return 3;
	if (send_fd(sock, fd, &data, sizeof(data)) ||
	    read(sock, &go, 1) != 1)
		return 4;
	close(fd);
	if (cuMemcpyDtoH(h, d, sizeof(h)))
		return 5;
	for (size_t i = 0; i < IPC_WORDS; i++)
		if (h[i] != (i < 16 ? 0xabcdef01u : 0x12345678u))
			return 6;
	if (cuMemFreeAsync(d, s) || cuStreamSynchronize(s) ||
	    cuMemPoolDestroy(pool))
		return 7;
	return 0;
}

/* A child shares pool memory; the parent imports, reads and writes it. */
TEST(ipc_pool_between_processes)
{
	CUmemPoolPtrExportData data, bad;
	uint32_t head[32];
	CUmemoryPool pool;
	CUcontext ctx;
	CUstream s;
	CUdeviceptr d, again;
	int sv[2], status, fd;
	char go = 1;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(pool_exporter(sv[1]));
	fd = recv_fd(sv[0], &data, sizeof(data));
	ASSERT_GE(fd, 0);
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolImportFromShareableHandle(&pool,
			(void *)(intptr_t)fd,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	close(fd);
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolImportPointer(&d, pool, &data));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolImportPointer(&again, pool, &data));
	EXPECT_EQ(d, again);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(head, d, sizeof(head)));
	for (int i = 0; i < 32; i++)
		ASSERT_EQ(0x12345678u, head[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 0xabcdef01, 16, s));
	/* An imported pool is only for pointers. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAllocFromPoolAsync(&again, 64, pool, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, pool));
	memset(&bad, 0x5a, sizeof(bad));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPoolImportPointer(&again, pool, &bad));
	/* The importer frees first; the exporter then checks and frees. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(d, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(1, write(sv[0], &go, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(pool));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* A pool destroyed with memory out: the memory stays usable until freed. */
TEST(destroy_with_outstanding_memory)
{
	CUcontext ctx;
	CUmemoryPool p;
	CUstream s;
	CUdeviceptr a;
	unsigned int host[1024];

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, sizeof(host), p, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(a, 0xc0ffee, 1024, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(host, a, sizeof(host), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(a, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	for (int i = 0; i < 1024; i++)
		ASSERT_EQ(0xc0ffeeu, host[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* Pool memory of a context that is destroyed goes with it. */
TEST(context_destroy_drops_its_chunks)
{
	CUcontext c1;
	CUmemoryPool p;
	CUstream s;
	CUdeviceptr a;
	cuuint64_t max = UINT64_MAX;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&c1, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, make_pool(&p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolSetAttribute(p,
			CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &max));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 4096, p, s));
	EXPECT_EQ(32 * MiB, RESERVED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(c1));
	EXPECT_EQ(0, RESERVED(p));
	EXPECT_EQ(0, USED(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPoolDestroy(p));
}

CUDA_TEST_MAIN
