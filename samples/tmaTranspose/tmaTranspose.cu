// SPDX-License-Identifier: GPL-2.0
//
// tmaTranspose: a matrix transpose whose tiles move with the tensor memory
// accelerator (sm_90).  The host describes the input and the output matrix
// with cuTensorMapEncodeTiled; in each block one thread asks the TMA for a
// TILE x TILE tile of the input (cp.async.bulk.tensor, 128-byte swizzle,
// completion counted by an mbarrier's transaction bytes), the block
// transposes it through shared memory, and one thread stores the
// transposed tile with a second TMA copy (shared -> global, bulk group).
//
// The 128-byte swizzle is why the tile is read with swz(): the TMA puts
// 16-byte chunk c of row r at chunk c ^ (r % 8), so that the threads
// reading a column hit eight different banks instead of one.  The result
// is checked against a CPU transpose, element for element.
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/sample_check.h"

#define TILE 32		/* 32 floats: one 128-byte row, the swizzle's span */
#define ROWS 384
#define COLS 512

#define CHECK_CU(call)							\
	do {								\
		CUresult r_ = (call);					\
		if (r_ != CUDA_SUCCESS) {				\
			const char *n_ = "?";				\
			cuGetErrorName(r_, &n_);			\
			fprintf(stderr, "%s failed: %s\n", #call, n_);	\
			printf("FAILED\n");				\
			exit(EXIT_FAILURE);				\
		}							\
	} while (0)

// Byte offset of element (r, c) of a tile the TMA wrote with the 128-byte
// swizzle (the tile starts 1024-byte aligned).
__device__ static unsigned swz(unsigned r, unsigned c)
{
	unsigned off = r * TILE * 4 + c * 4;

	return off ^ ((off >> 7) & 7) << 4;
}

__global__ void transpose(const __grid_constant__ CUtensorMap in_map,
			  const __grid_constant__ CUtensorMap out_map)
{
	__shared__ __align__(1024) float in_tile[TILE * TILE];
	__shared__ __align__(128) float out_tile[TILE * TILE];
	__shared__ __align__(8) unsigned long long bar;
	unsigned sin = (unsigned)__cvta_generic_to_shared(in_tile);
	unsigned sout = (unsigned)__cvta_generic_to_shared(out_tile);
	unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
	int x = blockIdx.x * TILE, y = blockIdx.y * TILE;

	if (threadIdx.x == 0) {
		asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(sbar));
		asm volatile("fence.proxy.async.shared::cta;");
		asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;"
			     :: "r"(sbar), "r"(TILE * TILE * 4));
		asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
			     " [%0], [%1, {%2, %3}], [%4];"
			     :: "r"(sin), "l"((uint64_t)&in_map), "r"(x), "r"(y),
				"r"(sbar) : "memory");
	}
	__syncthreads();	/* the barrier is initialised */
	asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0; @!p bra W; }"
		     :: "r"(sbar) : "memory");

	for (unsigned i = threadIdx.x; i < TILE * TILE; i += blockDim.x) {
		unsigned r = i / TILE, c = i % TILE;

		/* out_tile row c, column r = in_tile row r, column c */
		out_tile[c * TILE + r] =
			*(const float *)((const char *)in_tile + swz(r, c));
	}
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
	if (threadIdx.x == 0) {
		asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
			     " [%0, {%1, %2}], [%3];"
			     :: "l"((uint64_t)&out_map), "r"(y), "r"(x), "r"(sout)
			     : "memory");
		asm volatile("cp.async.bulk.commit_group;");
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

static CUtensorMap make_map(float *base, int rows, int cols,
			    CUtensorMapSwizzle swizzle)
{
	CUtensorMap m;
	cuuint64_t dim[2] = { (cuuint64_t)cols, (cuuint64_t)rows };
	cuuint64_t stride[1] = { (cuuint64_t)cols * sizeof(float) };
	cuuint32_t box[2] = { TILE, TILE }, estr[2] = { 1, 1 };

	CHECK_CU(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
					base, dim, stride, box, estr,
					CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
					CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
					CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return m;
}

int main(void)
{
	size_t n = (size_t)ROWS * COLS;
	float *h_in = (float *)malloc(n * sizeof(float));
	float *h_out = (float *)malloc(n * sizeof(float));
	float *d_in, *d_out, ms;
	cudaEvent_t t0, t1;
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		h_in[i] = (float)(i * 7 % 1000) - 500.0f + (float)(i % 13) / 16.0f;
	CHECK(cudaMalloc(&d_in, n * sizeof(float)));
	CHECK(cudaMalloc(&d_out, n * sizeof(float)));
	CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(d_out, 0, n * sizeof(float)));

	CUtensorMap in_map = make_map(d_in, ROWS, COLS, CU_TENSOR_MAP_SWIZZLE_128B);
	CUtensorMap out_map = make_map(d_out, COLS, ROWS, CU_TENSOR_MAP_SWIZZLE_NONE);

	CHECK(cudaEventCreate(&t0));
	CHECK(cudaEventCreate(&t1));
	CHECK(cudaEventRecord(t0));
	transpose<<<dim3(COLS / TILE, ROWS / TILE), 256>>>(in_map, out_map);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(t1));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaEventElapsedTime(&ms, t0, t1));
	CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++)
			bad += h_out[(size_t)c * ROWS + r] != h_in[(size_t)r * COLS + c];
	printf("tmaTranspose: %d x %d floats in %d x %d tiles, %.3f ms (%.2f GB/s), %zu wrong\n",
	       ROWS, COLS, TILE, TILE, ms, 2.0 * n * sizeof(float) / (ms * 1e6), bad);
	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_out));
	free(h_in);
	free(h_out);
	return sample_result(bad == 0);
}
