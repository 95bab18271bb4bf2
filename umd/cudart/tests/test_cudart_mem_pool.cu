// SPDX-License-Identifier: GPL-2.0
//
// The runtime's stream-ordered allocator (guest test), the way NVIDIA's
// streamOrderedAllocation sample uses it: cudaMallocAsync from the
// device's default pool with a release threshold, a kernel on the memory,
// cudaFreeAsync; then a pool of its own with cudaMallocFromPoolAsync,
// the statistics, trim, the current pool, and errors.  Results are
// checked against the CPU; the statistics and error codes against what
// an H100 answered (tools/cuda-probe/golden/probe_pools.h100.txt).
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "rt_tap.h"

#define N 4096
#define MiB (1ull << 20)

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

static uint64_t stat(cudaMemPool_t p, enum cudaMemPoolAttr a)
{
	uint64_t v = ~0ull;

	if (cudaMemPoolGetAttribute(p, a, &v) != cudaSuccess)
		return ~0ull;
	return v;
}

static void test_default_pool(void)
{
	static float ha[N], hb[N], hc[N];
	cudaMemPool_t pool, cur;
	cudaStream_t s;
	float *a, *b, *c;
	uint64_t thr = UINT64_MAX;
	int supported = 0;
	bool ok = true;

	for (int i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 0.25f * (float)(N - i);
	}
	TAP(OK(cudaDeviceGetAttribute(&supported,
				      cudaDevAttrMemoryPoolsSupported, 0)) &&
	    supported == 1, "cudaDevAttrMemoryPoolsSupported: %d", supported);
	TAP(OK(cudaDeviceGetDefaultMemPool(&pool, 0)) &&
	    OK(cudaDeviceGetMemPool(&cur, 0)) && pool == cur,
	    "the default pool is the current pool");
	TAP(OK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
				       &thr)),
	    "release threshold of the default pool");
	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	for (int round = 0; round < 3 && ok; round++) {
		ok = OK(cudaMallocAsync((void **)&a, sizeof(ha), s)) &&
		     OK(cudaMallocAsync((void **)&b, sizeof(hb), s)) &&
		     OK(cudaMallocAsync((void **)&c, sizeof(hc), s)) &&
		     OK(cudaMemcpyAsync(a, ha, sizeof(ha),
					cudaMemcpyHostToDevice, s)) &&
		     OK(cudaMemcpyAsync(b, hb, sizeof(hb),
					cudaMemcpyHostToDevice, s));
		if (!ok)
			break;
		vector_add<<<N / 256, 256, 0, s>>>(a, b, c, N);
		ok = OK(cudaGetLastError()) &&
		     OK(cudaMemcpyAsync(hc, c, sizeof(hc),
					cudaMemcpyDeviceToHost, s)) &&
		     OK(cudaFreeAsync(a, s)) && OK(cudaFreeAsync(b, s)) &&
		     OK(cudaFreeAsync(c, s)) && OK(cudaStreamSynchronize(s));
		for (int i = 0; ok && i < N; i++)
			ok = hc[i] == ha[i] + hb[i];
	}
	TAP(ok, "three rounds of cudaMallocAsync, a kernel, cudaFreeAsync");
	/* The threshold kept the memory: one 32 MiB chunk, nothing used. */
	TAP(stat(pool, cudaMemPoolAttrReservedMemCurrent) == 32 * MiB &&
	    stat(pool, cudaMemPoolAttrUsedMemCurrent) == 0 &&
	    stat(pool, cudaMemPoolAttrUsedMemHigh) == 3 * sizeof(ha),
	    "default pool: reserved %llu, used %llu, used high %llu",
	    (unsigned long long)stat(pool, cudaMemPoolAttrReservedMemCurrent),
	    (unsigned long long)stat(pool, cudaMemPoolAttrUsedMemCurrent),
	    (unsigned long long)stat(pool, cudaMemPoolAttrUsedMemHigh));
	TAP(OK(cudaMemPoolTrimTo(pool, 0)) &&
	    stat(pool, cudaMemPoolAttrReservedMemCurrent) == 0,
	    "cudaMemPoolTrimTo(0) gives the chunk back");
	thr = 0;
	cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
	cudaStreamDestroy(s);
}

static void test_own_pool(void)
{
	struct cudaMemPoolProps props;
	cudaMemPool_t pool, def, cur;
	cudaStream_t s;
	void *p, *q;
	int on = 0;

	memset(&props, 0, sizeof(props));
	props.allocType = cudaMemAllocationTypePinned;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	TAP(OK(cudaMemPoolCreate(&pool, &props)), "cudaMemPoolCreate");
	TAP(OK(cudaMemPoolGetAttribute(pool,
			cudaMemPoolReuseFollowEventDependencies, &on)) && on == 1,
	    "reuse policies on by default");
	TAP(OK(cudaMallocFromPoolAsync(&p, 1000, pool, s)) &&
	    stat(pool, cudaMemPoolAttrReservedMemCurrent) == 32 * MiB &&
	    stat(pool, cudaMemPoolAttrUsedMemCurrent) == 1000,
	    "cudaMallocFromPoolAsync: 32 MiB reserved, 1000 bytes used");
	TAP(OK(cudaFreeAsync(p, s)) && OK(cudaMallocFromPoolAsync(&q, 1000,
								  pool, s)) &&
	    p == q, "freed and allocated again on one stream: the same block");
	TAP(OK(cudaFreeAsync(q, s)) && OK(cudaStreamSynchronize(s)) &&
	    stat(pool, cudaMemPoolAttrReservedMemCurrent) == 0,
	    "threshold 0: a synchronize gives the memory back");
	TAP(OK(cudaDeviceSetMemPool(0, pool)) &&
	    OK(cudaDeviceGetMemPool(&cur, 0)) && cur == pool &&
	    OK(cudaMallocAsync(&p, 64, s)) &&
	    stat(pool, cudaMemPoolAttrUsedMemCurrent) == 64 &&
	    OK(cudaFreeAsync(p, s)) && OK(cudaStreamSynchronize(s)),
	    "cudaMallocAsync uses the current pool");
	TAP(IS(cudaErrorInvalidValue, cudaMallocFromPoolAsync(NULL, 16, pool, s)),
	    "cudaMallocFromPoolAsync without a pointer");
	TAP(IS(cudaErrorInvalidValue, cudaMemPoolSetAttribute(pool,
			cudaMemPoolAttrUsedMemCurrent, &on)),
	    "cudaMemPoolAttrUsedMemCurrent cannot be set");
	cudaGetLastError();
	TAP(OK(cudaMemPoolDestroy(pool)) && OK(cudaDeviceGetDefaultMemPool(&def, 0)) &&
	    OK(cudaDeviceGetMemPool(&cur, 0)) && cur == def,
	    "destroying the current pool makes the default current");
	TAP(IS(cudaErrorInvalidValue, cudaMemPoolDestroy(def)),
	    "the default pool cannot be destroyed");
	TAP(IS(cudaErrorInvalidDevice, cudaDeviceGetDefaultMemPool(&def, 99)),
	    "default pool of no device");
	cudaGetLastError();
	cudaStreamDestroy(s);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware");
	test_default_pool();
	test_own_pool();
	fw_launcher_stop(fw);
	return tap_finish();
}
