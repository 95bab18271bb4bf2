// SPDX-License-Identifier: GPL-2.0
/*
 * drv_kernels.cu - kernels for the driver-API guest tests, compiled by
 * nvcc to PTX and to a fatbinary at build time and loaded with cuModule*.
 */
#include <cassert>
#include <cstdio>

__device__ int dev_counter = 7;
__device__ float dev_table[4] = { 1.5f, 2.5f, 3.5f, 4.5f };
__constant__ int const_scale = 3;
/* Makes the module's global segment managed memory (host-visible). */
__managed__ int drv_managed = 11;

extern "C" __global__ void vec_add(const float *a, const float *b, float *c,
				   int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

/* Parameters of mixed sizes, to check the parameter layout. */
extern "C" __global__ void mixed_params(char c, double d, short s,
					long long ll, int *out)
{
	out[0] = c;
	out[1] = (int)d;
	out[2] = s;
	out[3] = (int)(ll >> 32);
	out[4] = (int)ll;
}

extern "C" __global__ void scale_by_const(int *data, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		data[i] = data[i] * const_scale + dev_counter;
}

extern "C" __global__ void use_shared(int *out)
{
	extern __shared__ int dyn[];

	dyn[threadIdx.x] = threadIdx.x * 2;
	__syncthreads();
	out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(128) bounded(int *out)
{
	out[threadIdx.x] = 1;
}

extern "C" __global__ void write_wild(int *p)
{
	*(volatile int *)((char *)p + 0x10000000000ll) = 1;
}

extern "C" __global__ void fails_assert(int v)
{
	assert(v == 0);
}

extern "C" __global__ void bump_managed(int *p)
{
	drv_managed += 1;
	p[threadIdx.x] += drv_managed;
}

/* The matrixMul sample's kernel (16 x 16 shared-memory tiles). */
#define MM_TILE 16
extern "C" __global__ void matrix_mul_tiled(float *c, const float *a,
					    const float *b, int n)
{
	__shared__ float as[MM_TILE][MM_TILE];
	__shared__ float bs[MM_TILE][MM_TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * MM_TILE + ty, col = blockIdx.x * MM_TILE + tx;
	float sum = 0.0f;

	for (int t = 0; t < n / MM_TILE; t++) {
		as[ty][tx] = a[row * n + t * MM_TILE + tx];
		bs[ty][tx] = b[(t * MM_TILE + ty) * n + col];
		__syncthreads();
		for (int k = 0; k < MM_TILE; k++)
			sum += as[ty][k] * bs[k][tx];
		__syncthreads();
	}
	c[row * n + col] = sum;
}

/* Uses printf (so launches name the FIFO) but prints only when told. */
extern "C" __global__ void print_if(int v)
{
	if (v)
		printf("print_if %d\n", v);
}

extern "C" __global__ void traps(int v)
{
	if (v)
		__trap();
}

extern "C" __global__ void say_hello(int v, float f)
{
	if (threadIdx.x == 0)
		printf("hello %d %.2f %s\n", v, f, "device");
}

/* Busy for @ns nanoseconds of the device's clock (%globaltimer). */
__device__ unsigned long long global_timer(void)
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

extern "C" __global__ void spin(unsigned long long ns)
{
	unsigned long long start = global_timer();

	while (global_timer() - start < ns)
		;
}

extern "C" __global__ void empty(void)
{
}

/* Spins until the host sets *flag (in mapped host memory). */
extern "C" __global__ void wait_flag(volatile int *flag)
{
	while (*flag == 0)
		;
}
