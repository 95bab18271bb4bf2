// SPDX-License-Identifier: GPL-2.0
// Inclusive prefix sums: a block-wide Hillis-Steele scan in shared memory
// (double-buffered, __syncthreads each step) and a warp scan with
// __shfl_up_sync.

extern "C" __global__ void block_scan(const int *in, int *out, int n)
{
	extern __shared__ int buf[];	/* 2 * blockDim.x ints */
	int t = threadIdx.x, pout = 0, pin = 1;
	int i = blockIdx.x * blockDim.x + t;

	buf[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (int off = 1; off < blockDim.x; off *= 2) {
		pout = 1 - pout;
		pin = 1 - pout;
		int v = buf[pin * blockDim.x + t];
		if (t >= off)
			v += buf[pin * blockDim.x + t - off];
		buf[pout * blockDim.x + t] = v;
		__syncthreads();
	}
	if (i < n)
		out[i] = buf[pout * blockDim.x + t];
}

extern "C" __global__ void warp_scan(const int *in, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31, v = in[i];

	for (int off = 1; off < 32; off *= 2) {
		int u = __shfl_up_sync(0xffffffffu, v, off);
		if (lane >= off)
			v += u;
	}
	out[i] = v;
}
