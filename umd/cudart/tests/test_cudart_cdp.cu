// SPDX-License-Identifier: GPL-2.0
//
// Dynamic parallelism, CUDA 12+ (CDP2), guest test.  Built as NVIDIA's
// CDP samples build themselves: -rdc=true (nvcc links libcudadevrt, which
// vGPU replaces by its own device runtime, umd/cuda/devrt.ptx), PTX for
// compute_90 only.  Kernels launch kernels with <<<>>> into the NULL
// stream, cudaStreamFireAndForget and cudaStreamTailLaunch; the host
// checks that the parent's launch completes only after its children, the
// order CUDA promises, the nesting limit, the pending-launch limit set
// with cudaDeviceSetLimit, the device-side errors, a child's fault seen
// by the host, and the device-runtime limits the host answers as an H100
// does (tools/cuda-probe/golden/probe_cdp.h100.txt).  A CDP quicksort is
// compared with qsort().
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

__global__ void fill(int *out, int base)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = base + i;
}

__global__ void parent(int *out, int *err)
{
	if (threadIdx.x == 0) {
		fill<<<2, 32>>>(out + 64 * blockIdx.x, 1000 * blockIdx.x);
		err[blockIdx.x] = cudaGetLastError();
	}
}

__device__ unsigned int stamp_counter;

__global__ void stamp(unsigned int *slot)
{
	*slot = atomicAdd(&stamp_counter, 1);
}

__global__ void order(unsigned int *slots)
{
	stamp_counter = 0;
	stamp<<<1, 1, 0, cudaStreamTailLaunch>>>(&slots[0]);
	stamp<<<1, 1>>>(&slots[1]);
	stamp<<<1, 1>>>(&slots[2]);
	stamp<<<1, 1, 0, cudaStreamFireAndForget>>>(&slots[3]);
	stamp<<<1, 1>>>(&slots[4]);
}

__global__ void nest(int depth, int *deepest, int *err)
{
	*deepest = depth;
	nest<<<1, 1>>>(depth + 1, deepest, err);
	cudaError_t e = cudaGetLastError();

	if (e != cudaSuccess) {
		err[0] = e;
		err[1] = depth;
	}
}

__global__ void empty(void) { }

__global__ void pending(int n, int *out)
{
	int ok = 0, first = 0, at = -1;

	for (int i = 0; i < n; i++) {
		empty<<<1, 1>>>();
		cudaError_t e = cudaGetLastError();

		if (e == cudaSuccess)
			ok++;
		else if (!first)
			first = e, at = i;
	}
	out[0] = ok;
	out[1] = first;
	out[2] = at;
}

__global__ void badcfg(int *out)
{
	empty<<<1, 2048>>>();
	out[0] = cudaPeekAtLastError();
	out[1] = cudaGetLastError();
	out[2] = cudaGetLastError();
}

__global__ void faulty(int *p) { *p = 1; }
__global__ void fault_parent(void) { faulty<<<1, 1>>>((int *)8); }

__global__ void quicksort(int *a, int lo, int hi, int depth)
{
	if (hi - lo < 16 || depth >= 16) {
		for (int i = lo + 1; i <= hi; i++) {
			int v = a[i], j = i - 1;

			while (j >= lo && a[j] > v) {
				a[j + 1] = a[j];
				j--;
			}
			a[j + 1] = v;
		}
		return;
	}
	int pivot = a[(lo + hi) / 2], i = lo, j = hi;

	while (i <= j) {
		while (a[i] < pivot)
			i++;
		while (a[j] > pivot)
			j--;
		if (i <= j) {
			int t = a[i];

			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
	}
	if (lo < j)
		quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, lo, j,
								depth + 1);
	if (i < hi)
		quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, i, hi,
								depth + 1);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void test_limits(void)
{
	size_t v = 0;

	TAP(OK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount)) &&
	    v == 2048, "default pending launch count 2048, as an H100 (%zu)", v);
	TAP(OK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth)) &&
	    v == 2048, "sync depth reads 2048, as an H100 (%zu)", v);
	TAP(IS(cudaErrorUnsupportedLimit,
	       cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 30)),
	    "setting the sync depth is refused: CUDA 12 has no device sync");
	cudaGetLastError();
	TAP(OK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 0)) &&
	    OK(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount)) &&
	    v == 32, "a pending count of 0 becomes 32, as on an H100 (%zu)", v);
	/*
	 * vGPU's device runtime reads the limit when a module is loaded
	 * (lazily, at its first launch): set before any launch, it holds
	 * for every kernel of this program.
	 */
	TAP(OK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 40)),
	    "pending launch count 40, before the first launch");
}

static void test_launches(void)
{
	int *out, *err, *deep;
	unsigned int *slots;
	int bad = 0;

	if (!TAP(OK(cudaMallocManaged(&out, 256 * 4)) &&
		 OK(cudaMallocManaged(&err, 16 * 4)) &&
		 OK(cudaMallocManaged(&deep, 4)) &&
		 OK(cudaMallocManaged(&slots, 8 * 4)), "managed buffers"))
		return;
	memset(out, 0xff, 256 * 4);
	memset(err, 0xff, 16 * 4);
	parent<<<3, 64>>>(out, err);
	TAP(OK(cudaGetLastError()) && OK(cudaDeviceSynchronize()),
	    "parent<<<3, 64>>> with children runs");
	for (int i = 0; i < 192; i++)
		bad += out[i] != 1000 * (i / 64) + i % 64;
	TAP(!bad && !err[0] && !err[1] && !err[2],
	    "its children wrote all 192 ints before it completed (%d wrong)",
	    bad);

	memset(slots, 0xff, 8 * 4);
	order<<<1, 1>>>(slots);
	TAP(OK(cudaDeviceSynchronize()) && slots[1] < slots[2] &&
	    slots[2] < slots[4] && slots[0] > slots[1] && slots[0] > slots[2] &&
	    slots[0] > slots[3] && slots[0] > slots[4] && slots[0] <= 4,
	    "NULL stream in order, tail launch last (%u %u %u %u %u)",
	    slots[0], slots[1], slots[2], slots[3], slots[4]);

	err[0] = err[1] = -1;
	*deep = -1;
	nest<<<1, 1>>>(0, deep, err);
	TAP(OK(cudaDeviceSynchronize()) && *deep == 24 &&
	    err[0] == cudaErrorLaunchMaxDepthExceeded && err[1] == 24,
	    "nesting ends at depth 24 with cudaErrorLaunchMaxDepthExceeded (%d, %d from %d)",
	    *deep, err[0], err[1]);

	pending<<<1, 1>>>(50, err);
	TAP(OK(cudaDeviceSynchronize()) && err[0] == 40 &&
	    err[1] == cudaErrorLaunchPendingCountExceeded && err[2] == 40,
	    "50 launches of one grid under a limit of 40: %d succeed, then error %d at %d",
	    err[0], err[1], err[2]);

	badcfg<<<1, 1>>>(err);
	TAP(OK(cudaDeviceSynchronize()) &&
	    err[0] == cudaErrorInvalidConfiguration &&
	    err[1] == cudaErrorInvalidConfiguration && err[2] == cudaSuccess,
	    "<<<1, 2048>>> on the device: peek and get see cudaErrorInvalidConfiguration, then it is cleared (%d %d %d)",
	    err[0], err[1], err[2]);
	cudaFree(slots);
	cudaFree(deep);
	cudaFree(err);
	cudaFree(out);
}

static void test_quicksort(void)
{
	enum { N = 20000 };
	int *a, *ref = (int *)malloc(N * sizeof(int));
	unsigned int seed = 7;
	int bad = 0;

	if (!ref || !TAP(OK(cudaMallocManaged(&a, N * sizeof(int))),
			 "quicksort buffer")) {
		free(ref);
		return;
	}
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		ref[i] = a[i] = (int)(seed >> 8) % 100000 - 50000;
	}
	qsort(ref, N, sizeof(int), cmp_int);
	quicksort<<<1, 1>>>(a, 0, N - 1, 0);
	TAP(OK(cudaGetLastError()) && OK(cudaDeviceSynchronize()),
	    "CDP quicksort of %d ints runs", N);
	for (int i = 0; i < N; i++)
		bad += a[i] != ref[i];
	TAP(!bad, "and equals qsort (%d wrong)", bad);
	cudaFree(a);
	free(ref);
}

/* Last: the fault ends the context. */
static void test_child_fault(void)
{
	fault_parent<<<1, 1>>>();
	TAP(IS(cudaErrorIllegalAddress, cudaDeviceSynchronize()),
	    "a child's illegal address is the parent's launch error, as on an H100 (700)");
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	tap_plan(-1);
	test_limits();
	test_launches();
	test_quicksort();
	test_child_fault();
	fw_launcher_stop(fw);
	return tap_finish();
}
