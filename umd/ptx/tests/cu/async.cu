// SPDX-License-Identifier: GPL-2.0
// Asynchronous copies as CUDA programs write them (test_ptx_async):
// the pipeline primitives, cuda::memcpy_async with a cuda::barrier (an
// mbarrier: arrive, try_wait, cp.async.mbarrier.arrive), and a two-stage
// cuda::pipeline (NVIDIA's globalToShmemAsyncCopy pattern).  On sm_75
// the same code compiles to plain copies.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

// out[b*256 + t] = in[b*256 + 255 - t]
extern "C" __global__ void pipe_prim(int *out, const int *in)
{
	__shared__ int s[256];
	int base = blockIdx.x * 256;

	__pipeline_memcpy_async(&s[threadIdx.x], &in[base + threadIdx.x],
				sizeof(int));
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[base + threadIdx.x] = s[255 - threadIdx.x];
}

// out[b*256 + t] = in[b*512 + 2t] + in[b*512 + 2t + 1]
extern "C" __global__ void bar_kernel(int *out, const int *in)
{
	__shared__ int s[512];
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	auto block = cg::this_thread_block();

	if (block.thread_rank() == 0)
		init(&bar, block.size());
	block.sync();
	cuda::memcpy_async(block, s, in + blockIdx.x * 512, sizeof(int) * 512,
			   bar);
	bar.arrive_and_wait();
	out[blockIdx.x * blockDim.x + threadIdx.x] =
		s[threadIdx.x * 2] + s[threadIdx.x * 2 + 1];
}

// out[t] = sum over k < 4 of in[128k + t], through 2 pipeline stages
extern "C" __global__ void pipe_kernel(int *out, const int *in)
{
	__shared__ alignas(16) int s[2][128];
	__shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
	auto block = cg::this_thread_block();
	auto pipe = cuda::make_pipeline(block, &st);
	int acc = 0, fetched = 0;

	for (int k = 0; k < 4; k++) {
		// keep one stage in flight ahead of the one consumed
		for (; fetched < 4 && fetched < k + 2; fetched++) {
			pipe.producer_acquire();
			cuda::memcpy_async(block, s[fetched & 1],
					   in + fetched * 128,
					   cuda::aligned_size_t<16>(sizeof(int) * 128),
					   pipe);
			pipe.producer_commit();
		}
		pipe.consumer_wait();
		acc += s[k & 1][threadIdx.x];
		pipe.consumer_release();
	}
	out[threadIdx.x] = acc;
}

// new[]/delete[] on the device heap: out[t] = 4t + 4t+1 + 4t+2 + 4t+3
extern "C" __global__ void heap_new(int *out, const int *in)
{
	int *p = new int[4];

	(void)in;
	for (int i = 0; i < 4; i++)
		p[i] = threadIdx.x * 4 + i;
	__syncthreads();
	out[threadIdx.x] = p[0] + p[1] + p[2] + p[3];
	delete[] p;
}
