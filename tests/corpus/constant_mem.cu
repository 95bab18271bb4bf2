// SPDX-License-Identifier: GPL-2.0
// Module variables: __constant__ tables (one written by the host through
// its symbol address), a __device__ array with an initializer, and a
// __device__ pointer initialised with the address of another variable
// (a relocation in the image).

__constant__ float coeffs[4] = { 1.0f, -2.0f, 0.5f, 4.0f };
__constant__ int host_table[8];
__device__ int counters[4] = { 10, 20, 30, 40 };
__device__ int *counter_ptr = &counters[2];

extern "C" __global__ void poly(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i], r = 0.0f;
	for (int k = 3; k >= 0; k--)
		r = r * v + coeffs[k];
	y[i] = r + (float)host_table[i % 8];
	if (i == 0)
		atomicAdd(counter_ptr, 5);
}
