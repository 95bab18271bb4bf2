// SPDX-License-Identifier: GPL-2.0
// Separate compilation (-rdc=true): this object calls a device function
// defined in rdc_b.cu, so its PTX has an .extern declaration that the
// driver's PTX linker must resolve.

extern __device__ float twice(float x);

__global__ void double_all(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		v[i] = twice(v[i]);
}
