// SPDX-License-Identifier: GPL-2.0
//
// transpose: the CUDA guide's shared-memory lesson on a matrix transpose
// (the Best Practices Guide's 9.2.3 "Shared Memory" and "Shared Memory
// and Memory Banks"; the kernels are those of NVIDIA's "An Efficient
// Matrix Transpose in CUDA C/C++"): 32 x 32 tiles, blocks of 32 x 8
// threads, each thread moving 4 elements.
//
//   copy     a tile through shared memory row by row: the baseline, every
//            access coalesced and conflict-free;
//   naive    reads rows, writes columns: each warp's store touches 32
//            sectors for 128 bytes;
//   tiled    reads a row into a shared tile, writes a row of the transpose
//            from a column of the tile: global accesses coalesced, but the
//            column's 32 words lie in one bank (32-way bank conflicts);
//   padded   the same with one column of padding (tile[32][33]): the
//            column's words fall into 32 different banks.
//
// Each variant runs twice (the first launch warms the L2, as the blog's
// timing loop does); the second is timed and its result checked against
// the CPU.  With
// VGPU_TIMING=model the times are vGPU's modelled GPU time; under
// vgpu-prof the counters show why (transpose-chart.sh draws both,
// Documentation/profiler.rst, "The seeds' experiments").
//
// Argument (optional): the matrix's side, a multiple of 32 (default 512).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/sample_check.h"

#define TILE 32
#define ROWS 8

extern "C" __global__ void copy_shared(float *out, const float *in, int n)
{
	__shared__ float tile[TILE][TILE];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * n + x] = tile[threadIdx.y + j][threadIdx.x];
}

extern "C" __global__ void transpose_naive(float *out, const float *in, int n)
{
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		out[x * n + (y + j)] = in[(y + j) * n + x];
}

extern "C" __global__ void transpose_tiled(float *out, const float *in, int n)
{
	__shared__ float tile[TILE][TILE];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(float *out, const float *in,
					    int n)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

typedef void (*kernel_fn)(float *, const float *, int);

static const struct variant {
	const char *name;
	kernel_fn fn;
	bool transposes;
} variants[] = {
	{ "copy", copy_shared, false },
	{ "naive", transpose_naive, true },
	{ "tiled", transpose_tiled, true },
	{ "padded", transpose_padded, true },
};

int main(int argc, char **argv)
{
	const int n = argc > 1 ? atoi(argv[1]) : 512;
	const size_t bytes = (size_t)n * n * sizeof(float);
	std::vector<float> h((size_t)n * n), back((size_t)n * n);
	dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
	float *in, *out, ms;
	cudaEvent_t t0, t1;
	bool ok = true;

	if (n <= 0 || n % TILE) {
		fprintf(stderr, "transpose: the side must be a positive "
			"multiple of %d\n", TILE);
		return sample_result(false);
	}
	for (size_t i = 0; i < h.size(); i++)
		h[i] = (float)i;
	CHECK(cudaMalloc(&in, bytes));
	CHECK(cudaMalloc(&out, bytes));
	CHECK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
	CHECK(cudaEventCreate(&t0));
	CHECK(cudaEventCreate(&t1));
	printf("transpose of %d x %d floats, %d x %d tiles, %d x %d threads "
	       "a block\n", n, n, TILE, TILE, TILE, ROWS);
	for (unsigned v = 0; v < sizeof(variants) / sizeof(variants[0]);
	     v++) {
		const struct variant *k = &variants[v];

		// a first launch warms the L2 (as the blog's timing loop
		// does); the second is timed
		k->fn<<<grid, block>>>(out, in, n);
		CHECK(cudaGetLastError());
		CHECK(cudaMemset(out, 0, bytes));
		CHECK(cudaEventRecord(t0));
		k->fn<<<grid, block>>>(out, in, n);
		CHECK(cudaGetLastError());
		CHECK(cudaEventRecord(t1));
		CHECK(cudaEventSynchronize(t1));
		CHECK(cudaEventElapsedTime(&ms, t0, t1));
		CHECK(cudaMemcpy(back.data(), out, bytes,
				 cudaMemcpyDeviceToHost));
		// the CPU reference: out[x][y] = in[y][x], or a copy
		for (int y = 0; y < n && ok; y++) {
			for (int x = 0; x < n; x++) {
				float want = k->transposes ?
					h[(size_t)x * n + y] :
					h[(size_t)y * n + x];

				if (back[(size_t)y * n + x] != want) {
					printf("%s: element (%d, %d) is %g, not "
					       "%g\n", k->name, y, x,
					       back[(size_t)y * n + x], want);
					ok = false;
					break;
				}
			}
		}
		// bytes read and written over the time, as the blog counts
		printf("launch %u %s %.4f ms %.2f GB/s\n", 2 * v + 1, k->name, ms,
		       2.0 * bytes / (ms * 1e6));
	}
	CHECK(cudaFree(in));
	CHECK(cudaFree(out));
	return sample_result(ok);
}
