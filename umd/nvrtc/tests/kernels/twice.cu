// SPDX-License-Identifier: GPL-2.0
/* A device function as SASS (nvcc -cubin -arch=sm_90), for test_nvjitlink. */
__device__ float twice(float x) { return 2.0f * x + 1.0f; }
