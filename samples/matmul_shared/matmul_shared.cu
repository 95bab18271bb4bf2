// SPDX-License-Identifier: GPL-2.0
//
// matmul_shared: the programming guide's shared-memory lesson (3.2.4
// "Shared Memory": MatMulKernel without and with shared memory, 16 x 16
// blocks) as an experiment, C = A x B for square matrices:
//
//   naive        the guide's first kernel: each thread reads a row of A
//                and a column of B from global memory (A is read N times,
//                B N times);
//   tiled        the guide's second kernel: 16 x 16 sub-matrices of A and
//                B staged in shared memory, each element of A and B read
//                from global memory N / 16 times; As[ty][e] is a broadcast
//                and Bs[e][tx] a row, so no bank conflicts;
//   tiled_bt     the same with B's tile stored transposed (Bs[tx][ty],
//                read as Bs[tx][e]): the 16 words a warp reads lie 16
//                apart, in two banks (8 wavefronts a request);
//   tiled_bt_pad tiled_bt with one column of padding (Bs[16][17]): the 16
//                words fall into 16 banks, one wavefront.
//
// Each variant runs twice (the first launch warms the L2); the second is
// timed and its product checked against the CPU's (the same float operations
// in the same order, so the results are equal).  With VGPU_TIMING=model
// the times are vGPU's modelled GPU time; matmul-chart.sh runs it under
// vgpu-prof and draws time, global sectors and bank conflicts
// (Documentation/profiler.rst, "The seeds' experiments").
//
// Argument (optional): the matrices' side, a multiple of 16 (default 256).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/sample_check.h"

#define BLOCK_SIZE 16

extern "C" __global__ void mm_naive(const float *a, const float *b, float *c,
				    int n)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	float v = 0;

	for (int e = 0; e < n; ++e)
		v += a[row * n + e] * b[e * n + col];
	c[row * n + col] = v;
}

extern "C" __global__ void mm_tiled(const float *a, const float *b, float *c,
				    int n)
{
	__shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float bs[BLOCK_SIZE][BLOCK_SIZE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BLOCK_SIZE + ty;
	int col = blockIdx.x * BLOCK_SIZE + tx;
	float v = 0;

	for (int m = 0; m < n / BLOCK_SIZE; ++m) {
		as[ty][tx] = a[row * n + m * BLOCK_SIZE + tx];
		bs[ty][tx] = b[(m * BLOCK_SIZE + ty) * n + col];
		__syncthreads();
		for (int e = 0; e < BLOCK_SIZE; ++e)
			v += as[ty][e] * bs[e][tx];
		__syncthreads();
	}
	c[row * n + col] = v;
}

extern "C" __global__ void mm_tiled_bt(const float *a, const float *b,
				       float *c, int n)
{
	__shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float bs[BLOCK_SIZE][BLOCK_SIZE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BLOCK_SIZE + ty;
	int col = blockIdx.x * BLOCK_SIZE + tx;
	float v = 0;

	for (int m = 0; m < n / BLOCK_SIZE; ++m) {
		as[ty][tx] = a[row * n + m * BLOCK_SIZE + tx];
		bs[tx][ty] = b[(m * BLOCK_SIZE + ty) * n + col];
		__syncthreads();
		for (int e = 0; e < BLOCK_SIZE; ++e)
			v += as[ty][e] * bs[tx][e];
		__syncthreads();
	}
	c[row * n + col] = v;
}

extern "C" __global__ void mm_tiled_bt_pad(const float *a, const float *b,
					   float *c, int n)
{
	__shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float bs[BLOCK_SIZE][BLOCK_SIZE + 1];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BLOCK_SIZE + ty;
	int col = blockIdx.x * BLOCK_SIZE + tx;
	float v = 0;

	for (int m = 0; m < n / BLOCK_SIZE; ++m) {
		as[ty][tx] = a[row * n + m * BLOCK_SIZE + tx];
		bs[tx][ty] = b[(m * BLOCK_SIZE + ty) * n + col];
		__syncthreads();
		for (int e = 0; e < BLOCK_SIZE; ++e)
			v += as[ty][e] * bs[tx][e];
		__syncthreads();
	}
	c[row * n + col] = v;
}

typedef void (*kernel_fn)(const float *, const float *, float *, int);

static const struct variant {
	const char *name;
	kernel_fn fn;
} variants[] = {
	{ "naive", mm_naive },
	{ "tiled", mm_tiled },
	{ "tiled_bt", mm_tiled_bt },
	{ "tiled_bt_pad", mm_tiled_bt_pad },
};

int main(int argc, char **argv)
{
	const int n = argc > 1 ? atoi(argv[1]) : 256;
	const size_t bytes = (size_t)n * n * sizeof(float);
	std::vector<float> ha((size_t)n * n), hb((size_t)n * n);
	std::vector<float> ref((size_t)n * n), back((size_t)n * n);
	dim3 grid(n / BLOCK_SIZE, n / BLOCK_SIZE), block(BLOCK_SIZE, BLOCK_SIZE);
	float *a, *b, *c, ms;
	cudaEvent_t t0, t1;
	bool ok = true;

	if (n <= 0 || n % BLOCK_SIZE) {
		fprintf(stderr, "matmul_shared: the side must be a positive "
			"multiple of %d\n", BLOCK_SIZE);
		return sample_result(false);
	}
	// small integers: every product and sum is exact in float, so the
	// order of the additions does not change the result
	for (size_t i = 0; i < ha.size(); i++) {
		ha[i] = (float)((i * 7) % 13) - 6.0f;
		hb[i] = (float)((i * 5) % 11) - 5.0f;
	}
	for (int r = 0; r < n; r++)
		for (int col = 0; col < n; col++) {
			float v = 0;

			for (int e = 0; e < n; e++)
				v += ha[(size_t)r * n + e] *
				     hb[(size_t)e * n + col];
			ref[(size_t)r * n + col] = v;
		}
	CHECK(cudaMalloc(&a, bytes));
	CHECK(cudaMalloc(&b, bytes));
	CHECK(cudaMalloc(&c, bytes));
	CHECK(cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice));
	CHECK(cudaEventCreate(&t0));
	CHECK(cudaEventCreate(&t1));
	printf("C = A x B, %d x %d floats, %d x %d threads a block\n", n, n,
	       BLOCK_SIZE, BLOCK_SIZE);
	for (unsigned v = 0; v < sizeof(variants) / sizeof(variants[0]);
	     v++) {
		const struct variant *k = &variants[v];

		// a first launch warms the L2 (as the blog's timing loop
		// does); the second is timed
		k->fn<<<grid, block>>>(a, b, c, n);
		CHECK(cudaGetLastError());
		CHECK(cudaMemset(c, 0, bytes));
		CHECK(cudaEventRecord(t0));
		k->fn<<<grid, block>>>(a, b, c, n);
		CHECK(cudaGetLastError());
		CHECK(cudaEventRecord(t1));
		CHECK(cudaEventSynchronize(t1));
		CHECK(cudaEventElapsedTime(&ms, t0, t1));
		CHECK(cudaMemcpy(back.data(), c, bytes,
				 cudaMemcpyDeviceToHost));
		for (size_t i = 0; i < ref.size(); i++) {
			if (back[i] != ref[i]) {
				printf("%s: C[%zu][%zu] is %g, not %g\n",
				       k->name, i / n, i % n, back[i], ref[i]);
				ok = false;
				break;
			}
		}
		// 2 n^3 floating-point operations
		printf("launch %u %s %.4f ms %.2f GFLOP/s\n", 2 * v + 1,
		       k->name, ms,
		       2.0 * n * n * (double)n / (ms * 1e6));
	}
	CHECK(cudaFree(a));
	CHECK(cudaFree(b));
	CHECK(cudaFree(c));
	return sample_result(ok);
}
