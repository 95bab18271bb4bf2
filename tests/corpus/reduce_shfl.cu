// SPDX-License-Identifier: GPL-2.0
// Sum reduction: warp shuffles, then one value per warp through shared
// memory, then one atomicAdd per block.  Integers, so the result is exact.

__device__ __forceinline__ unsigned warp_sum(unsigned v)
{
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

extern "C" __global__ void reduce(const unsigned *in, unsigned long long *sum,
				  int n)
{
	__shared__ unsigned warp_sums[32];
	unsigned v = 0;

	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		v += in[i];
	v = warp_sum(v);
	if ((threadIdx.x & 31) == 0)
		warp_sums[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
		v = warp_sum(v);
		if (threadIdx.x == 0)
			atomicAdd(sum, (unsigned long long)v);
	}
}

// Every lane gets the warp's maximum through xor shuffles.
extern "C" __global__ void warp_max(const int *in, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[i];

	for (int m = 16; m > 0; m >>= 1)
		v = max(v, __shfl_xor_sync(0xffffffffu, v, m));
	out[i] = v;
}
