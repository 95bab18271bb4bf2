// SPDX-License-Identifier: GPL-2.0
// Kernels of the core benchmark (build/bin/vgpu-core-bench).  The same
// algorithms are written in plain C in core_bench.c.
#define TILE 16

extern "C" __global__ void vector_add(const float *a, const float *b,
				      float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

extern "C" __global__ void matmul(const float *A, const float *B, float *C,
				  int n)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;

	for (int t = 0; t < n / TILE; t++) {
		As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
		Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		__syncthreads();
	}
	C[row * n + col] = acc;
}

extern "C" __global__ void reduce(const unsigned *in, unsigned long long *sum,
				  int n)
{
	__shared__ unsigned ws[32];
	unsigned v = 0;

	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		v += in[i];
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_down_sync(0xffffffffu, v, off);
	if ((threadIdx.x & 31) == 0)
		ws[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < blockDim.x / 32 ? ws[threadIdx.x] : 0;
		for (int off = 16; off > 0; off /= 2)
			v += __shfl_down_sync(0xffffffffu, v, off);
		if (threadIdx.x == 0)
			atomicAdd(sum, (unsigned long long)v);
	}
}

// Data-dependent control flow: every lane takes its own path.
extern "C" __global__ void divergent(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i], acc = 0;

	for (int k = 0; k < (v & 31); k++) {
		if ((v + k) & 1)
			acc += k * v;
		else if ((v ^ k) & 2)
			acc ^= k << 2;
		else
			acc -= v >> 3;
	}
	out[i] = acc;
}

// Straight-line arithmetic: the interpreter's peak throughput.
extern "C" __global__ void alu(float *out, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = (float)i, y = 1.0f, z = 0.5f;
	unsigned u = i;

	for (int k = 0; k < iters; k++) {
#pragma unroll
		for (int j = 0; j < 8; j++) {
			x = x * 0.999f + y;
			y = y * z - x;
			u = (u ^ (u << 3)) + 0x9e3779b9u;
			z = z + 1e-7f;
		}
	}
	out[i] = x + y + (float)u;
}
