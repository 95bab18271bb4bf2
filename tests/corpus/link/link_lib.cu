// SPDX-License-Identifier: GPL-2.0
// The library half of the multi-module test.
__device__ int lib_offset = 1000;

__device__ int scale_by(int v)
{
	return v * 3 + 1;
}
