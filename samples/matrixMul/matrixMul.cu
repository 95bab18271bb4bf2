// SPDX-License-Identifier: GPL-2.0
//
// matrixMul: C = A * B with the classic shared-memory tiling.  Each block
// computes one TILE x TILE square of C; it walks along A's rows and B's
// columns one tile at a time, every thread loading one element of each
// tile into shared memory, so each element read from global memory is
// used TILE times.  The kernel is timed with events over several runs
// and the throughput printed in GFLOP/s; the result is checked against a
// CPU product.
//
//   matrixMul [size]   (square matrices, a multiple of the tile, default 128)
#include <math.h>

#include "../common/sample_check.h"

#define TILE 16

__global__ void matrix_mul(float *c, const float *a, const float *b, int n)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float sum = 0.0f;

	for (int t = 0; t < n / TILE; t++) {
		as[ty][tx] = a[row * n + t * TILE + tx];
		bs[ty][tx] = b[(t * TILE + ty) * n + col];
		// The whole tile must be loaded before anyone reads it...
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			sum += as[ty][k] * bs[k][tx];
		// ...and read by everyone before the next one overwrites it.
		__syncthreads();
	}
	c[row * n + col] = sum;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 128;
	const int runs = 5;
	size_t bytes = (size_t)n * n * sizeof(float);
	float *a, *b, *c, *ref, *da, *db, *dc;
	cudaEvent_t start, stop;
	float ms;
	bool ok = true;

	if (n <= 0 || n % TILE) {
		fprintf(stderr, "matrixMul: size must be a positive multiple "
			"of %d\n", TILE);
		return sample_result(false);
	}
	a = (float *)malloc(bytes);
	b = (float *)malloc(bytes);
	c = (float *)malloc(bytes);
	ref = (float *)calloc((size_t)n * n, sizeof(float));
	if (!a || !b || !c || !ref) {
		fprintf(stderr, "matrixMul: out of memory\n");
		return sample_result(false);
	}
	printf("[Matrix multiply using CUDA] A(%d,%d) * B(%d,%d), tile %d\n",
	       n, n, n, n, TILE);
	for (int i = 0; i < n * n; i++) {
		a[i] = (float)(i % 7) * 0.25f;
		b[i] = (float)(i % 5) * 0.5f - 1.0f;
	}
	CHECK(cudaMalloc(&da, bytes));
	CHECK(cudaMalloc(&db, bytes));
	CHECK(cudaMalloc(&dc, bytes));
	CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));

	dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
	// One warm-up launch: the first one also compiles the kernel.
	matrix_mul<<<grid, block>>>(dc, da, db, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());

	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, 0));
	for (int r = 0; r < runs; r++)
		matrix_mul<<<grid, block>>>(dc, da, db, n);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(stop, 0));
	CHECK(cudaEventSynchronize(stop));
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	double per_run = ms / runs;
	double gflops = 2.0 * n * n * (double)n / (per_run * 1e6);
	printf("Performance= %.4f GFlop/s, Time= %.3f msec, Size= %.0f Ops, "
	       "WorkgroupSize= %d threads/block\n", gflops, per_run,
	       2.0 * n * n * (double)n, TILE * TILE);
	CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++)
			for (int j = 0; j < n; j++)
				ref[i * n + j] += a[i * n + k] * b[k * n + j];
	for (int i = 0; i < n * n; i++) {
		if (fabsf(c[i] - ref[i]) > 1e-3f * fmaxf(1.0f, fabsf(ref[i]))) {
			fprintf(stderr, "mismatch at (%d,%d): %f, expected %f\n",
				i / n, i % n, c[i], ref[i]);
			ok = false;
			break;
		}
	}
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	free(a);
	free(b);
	free(c);
	free(ref);
	return sample_result(ok);
}
