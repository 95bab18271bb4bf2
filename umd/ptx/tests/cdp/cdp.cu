// SPDX-License-Identifier: GPL-2.0
// Kernels that launch kernels (CUDA dynamic parallelism, CDP2), for
// test_ptx_cdp: nvcc -ptx -rdc=true -arch=sm_90 makes the PTX that the
// test links with vGPU's device runtime (umd/cuda/devrt.ptx) and runs on
// the execution core.  Each kernel writes what the test checks against a
// C reference.

// out[blockIdx.x * blockDim.x + threadIdx.x] = base + that index
extern "C" __global__ void fill(int *out, int base)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = base + i;
}

// Thread 0 of each block launches fill<<<2, 32>>> over its 64 ints;
// err[blockIdx.x] = the launch's error (cudaGetLastError).
extern "C" __global__ void parent(int *out, int *err)
{
	if (threadIdx.x == 0) {
		fill<<<2, 32>>>(out + 64 * blockIdx.x, 1000 * blockIdx.x);
		err[blockIdx.x] = cudaGetLastError();
	}
}

// Every thread of the block launches one child of one thread.
extern "C" __global__ void every_thread(int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	fill<<<1, 1>>>(out + i, 7 * i);
}

__device__ unsigned int stamp_counter;

extern "C" __global__ void stamp(unsigned int *slot)
{
	*slot = atomicAdd(&stamp_counter, 1);
}

// The order of a block's NULL stream, fire-and-forget and tail launches.
extern "C" __global__ void order(unsigned int *slots)
{
	stamp_counter = 0;
	stamp<<<1, 1, 0, cudaStreamTailLaunch>>>(&slots[0]);
	stamp<<<1, 1>>>(&slots[1]);
	stamp<<<1, 1>>>(&slots[2]);
	stamp<<<1, 1, 0, cudaStreamFireAndForget>>>(&slots[3]);
	stamp<<<1, 1>>>(&slots[4]);
	stamp<<<1, 1, 0, cudaStreamTailLaunch>>>(&slots[5]);
}

// Each level launches the next until a launch fails.
extern "C" __global__ void nest(int depth, int *deepest, int *err)
{
	*deepest = depth;
	nest<<<1, 1>>>(depth + 1, deepest, err);
	cudaError_t e = cudaGetLastError();

	if (e != cudaSuccess) {
		err[0] = e;
		err[1] = depth;
	}
}

extern "C" __global__ void empty(void) { }

// One thread launches n children: out = successes, first error, where.
extern "C" __global__ void pending(int n, int *out)
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

// The errors of bad launches, and the per-thread last error.
extern "C" __global__ void badcfg(int *out)
{
	out[0] = cudaGetLastError();
	empty<<<1, 2048>>>();
	out[1] = cudaGetLastError();
	empty<<<0, 1>>>();
	out[2] = cudaGetLastError();
	empty<<<dim3(1, 70000), 1>>>();
	out[3] = cudaPeekAtLastError();
	out[4] = cudaGetLastError();
	empty<<<1, 1, 0, (cudaStream_t)5>>>();
	out[5] = cudaGetLastError();
	empty<<<1, 1>>>();
	out[6] = cudaGetLastError();
	// another thread's error is its own
	if (threadIdx.x == 1)
		empty<<<1, 4096>>>();
	out[7 + threadIdx.x] = cudaGetLastError();
}

extern "C" __global__ void faulty(int *p) { *p = 1; }

// The child faults: so does the launch of the parent.
extern "C" __global__ void fault_parent(int *flag)
{
	faulty<<<1, 1>>>((int *)8);
	*flag = 1;
}

// Recursive quicksort of a[lo..hi] (inclusive): one thread partitions,
// the halves are sorted by children in two fire-and-forget launches;
// small ranges, and all below depth 16, are sorted in place (as NVIDIA's
// cdpSimpleQuicksort sample does, well inside the 24 levels CUDA allows).
extern "C" __global__ void quicksort(int *a, int lo, int hi, int depth)
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
