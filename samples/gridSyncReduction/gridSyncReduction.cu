// SPDX-License-Identifier: GPL-2.0
//
// gridSyncReduction: a sum over a large array in ONE kernel launch, with
// a grid-wide barrier between its two phases (cooperative groups'
// grid.sync()).  Each block reduces a strided part of the input into
// partials[blockIdx.x]; after grid.sync() every block's partial is
// visible, and block 0 adds them up.  A grid-wide barrier is only safe
// when every block of the grid is resident at once, so the grid is sized
// with the occupancy API and launched with cudaLaunchCooperativeKernel,
// which refuses a grid that could not be resident
// (cudaErrorCooperativeLaunchTooLarge).  The result is checked against a
// CPU sum (integers: exact).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/sample_check.h"

namespace cg = cooperative_groups;

#define THREADS 256

__global__ void grid_sum(const int *in, size_t n, long long *partials,
			 long long *out)
{
	cg::grid_group grid = cg::this_grid();
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	__shared__ long long warp_sums[THREADS / 32];
	long long mine = 0;

	// Phase 1: each thread strides over the whole grid's range.
	for (size_t i = grid.thread_rank(); i < n; i += grid.num_threads())
		mine += in[i];
	mine = cg::reduce(warp, mine, cg::plus<long long>());
	if (warp.thread_rank() == 0)
		warp_sums[warp.meta_group_rank()] = mine;
	block.sync();
	if (block.thread_rank() == 0) {
		long long s = 0;

		for (unsigned w = 0; w < THREADS / 32; w++)
			s += warp_sums[w];
		partials[grid.block_rank()] = s;
	}

	grid.sync();	// every block's partial is written

	// Phase 2: block 0 adds the partials.
	if (grid.block_rank() == 0) {
		long long s = 0;

		for (unsigned long long b = block.thread_rank();
		     b < grid.num_blocks(); b += block.size())
			s += partials[b];
		s = cg::reduce(warp, s, cg::plus<long long>());
		if (warp.thread_rank() == 0)
			warp_sums[warp.meta_group_rank()] = s;
		block.sync();
		if (block.thread_rank() == 0) {
			long long t = 0;

			for (unsigned w = 0; w < THREADS / 32; w++)
				t += warp_sums[w];
			*out = t;
		}
	}
}

int main(void)
{
	const size_t n = 1 << 20;
	int *h_in = (int *)malloc(n * sizeof(int)), *d_in, coop = 0, sms = 0,
	    per_sm = 0;
	long long *d_partials, *d_out, got = 0, want = 0;

	CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
	if (!coop) {
		printf("the device does not support cooperative launches\n");
		return sample_result(false);
	}
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum,
							    THREADS, 0));
	unsigned blocks = (unsigned)(sms * per_sm);

	for (size_t i = 0; i < n; i++) {
		h_in[i] = (int)((i * 2654435761u) % 2001) - 1000;
		want += h_in[i];
	}
	CHECK(cudaMalloc(&d_in, n * sizeof(int)));
	CHECK(cudaMalloc(&d_partials, blocks * sizeof(long long)));
	CHECK(cudaMalloc(&d_out, sizeof(long long)));
	CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));

	size_t count = n;
	void *args[] = { &d_in, &count, &d_partials, &d_out };

	printf("%u blocks of %d threads (%d SMs x %d resident blocks)\n",
	       blocks, THREADS, sms, per_sm);
	CHECK(cudaLaunchCooperativeKernel((void *)grid_sum, dim3(blocks),
					  dim3(THREADS), args, 0, 0));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(&got, d_out, sizeof(got), cudaMemcpyDeviceToHost));
	printf("sum of %zu integers: GPU %lld, CPU %lld\n", n, got, want);

	// One block more than can be resident must be refused.
	cudaError_t too_large = cudaLaunchCooperativeKernel(
		(void *)grid_sum, dim3(blocks + 1), dim3(THREADS), args, 0, 0);
	printf("a grid of %u blocks: %s\n", blocks + 1,
	       cudaGetErrorName(too_large));
	cudaGetLastError();

	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_partials));
	CHECK(cudaFree(d_out));
	free(h_in);
	return sample_result(got == want &&
			     too_large == cudaErrorCooperativeLaunchTooLarge);
}
