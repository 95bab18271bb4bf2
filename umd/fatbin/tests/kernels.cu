// SPDX-License-Identifier: GPL-2.0
// Device code for the fatbin tests: compiled by nvcc at build time into
// standalone .fatbin files (every compression mode) and into a host object
// whose registration the tests capture.  The comments and indentation are
// deliberate: the fatbin form of PTX differs from `nvcc -ptx` in exactly
// these, and the tests normalise them away.

__constant__ float scale_factor[4];
__device__ int launch_count;

// y = a * x + y
__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

__global__ void scale(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		v[i] *= scale_factor[i & 3];
	if (i == 0)
		atomicAdd(&launch_count, 1);
}
