// SPDX-License-Identifier: GPL-2.0
// The other half of the -rdc=true pair: defines what rdc_a.cu uses.

__device__ float twice(float x)
{
	return 2.0f * x;
}

__global__ void add_one(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		v[i] += 1.0f;
}
