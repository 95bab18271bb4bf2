// SPDX-License-Identifier: GPL-2.0
// Multi-module linking (-rdc=true): the kernel calls a function and reads a
// variable defined in link_lib.cu.
extern __device__ int scale_by(int v);
extern __device__ int lib_offset;

extern "C" __global__ void linked(int *out)
{
	int t = threadIdx.x;
	out[t] = scale_by(t) + lib_offset;
}
