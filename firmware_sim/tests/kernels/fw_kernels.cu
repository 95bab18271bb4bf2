// SPDX-License-Identifier: GPL-2.0
// Kernels of the firmware's guest tests, compiled to PTX by nvcc at build
// time and to vISA by libvgpu-ptx when the tests run.
#include <cstdio>

extern "C" __global__ void vectorAdd(const float *a, const float *b, float *c,
				     int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

extern "C" __global__ void hello(int tag)
{
	printf("block %d thread %d tag %d\n", blockIdx.x, threadIdx.x, tag);
}

// Writes through a pointer the test chose to be unmapped.
extern "C" __global__ void badAddress(int *p)
{
	p[threadIdx.x] = 1;
}

// Stores, then adds atomically: the test maps @p without atomics.
extern "C" __global__ void storeThenAtomicAdd(int *p)
{
	p[threadIdx.x + 32] = 2;
	atomicAdd(p, 1);
}

// Spins until *flag becomes non-zero, which the test never does: only the
// watchdog (or the firmware's death) ends it.
extern "C" __global__ void spin(volatile int *flag)
{
	while (*flag == 0)
		;
}

// Does nothing: launch latency.
extern "C" __global__ void empty(void)
{
}
