// SPDX-License-Identifier: GPL-2.0
//
// The device functions and variable that transform.cu defines and main.cu
// uses: with -rdc=true they are resolved by the device link, like
// ordinary functions by the host linker.
#ifndef TRANSFORM_CUH
#define TRANSFORM_CUH

extern __device__ float transform_offset;
__device__ float transform(float x);

#endif
