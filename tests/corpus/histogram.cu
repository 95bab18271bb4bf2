// SPDX-License-Identifier: GPL-2.0
// 256-bin histogram: per-block bins in shared memory with shared-memory
// atomics, merged into the global histogram with global atomics.

extern "C" __global__ void histogram(const unsigned char *data, int n,
				     unsigned *hist)
{
	__shared__ unsigned bins[256];

	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		bins[b] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		atomicAdd(&bins[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		if (bins[b])
			atomicAdd(&hist[b], bins[b]);
}
