// SPDX-License-Identifier: GPL-2.0
// Compiled for several virtual architectures at once (see build.mk), so
// that one fatbin holds several PTX entries to choose from.

__global__ void fill(int *out, int value, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = value;
}
