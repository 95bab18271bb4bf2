// SPDX-License-Identifier: GPL-2.0
/*
 * link_a.cu - one half of the -rdc=true pair the JIT link tests join
 * with cuLink*: the kernel, using a function and a variable that only
 * link_b.cu defines.  Alone it does not link ("affine" is unresolved).
 */
extern "C" __device__ int affine(int x);
extern "C" __device__ int bias;

extern "C" __global__ void apply_affine(int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = affine(i) + bias;
}
