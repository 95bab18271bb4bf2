// SPDX-License-Identifier: GPL-2.0
/* link_b.cu - the other half of the pair: what link_a.cu uses. */
extern "C" __device__ int bias = 5;

extern "C" __device__ int affine(int x)
{
	return 3 * x + 7;
}
