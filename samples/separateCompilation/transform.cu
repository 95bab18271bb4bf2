// SPDX-License-Identifier: GPL-2.0
//
// The other half of the separately compiled sample: a device function and
// a device variable with an initializer, used from main.cu.
#include "transform.cuh"

__device__ float transform_offset = 1.5f;

__device__ float transform(float x)
{
	return 2.0f * x + transform_offset;
}
