// SPDX-License-Identifier: GPL-2.0
//
// test_ptx_async_jit (guest test): asynchronous copies and the device
// heap through the runtime, in a program built by nvcc with PTX only
// (compute_90) so that our libcuda compiles it at load, as NVIDIA's
// samples are built.
//
// Async copies: NVIDIA's globalToShmemAsyncCopy pattern (a tiled matrix
// multiply whose tiles arrive by cuda::memcpy_async into a two-stage
// cuda::pipeline) and a cuda::barrier-completed copy, against CPU
// results.
//
// Device heap: the limit is 8 MiB by default and settable before any
// kernel that calls malloc has run; after one has, cudaDeviceSetLimit
// answers cudaErrorInvalidValue and the limit stays (CUDA's documented
// rule).  Many threads of many blocks malloc, fill, check and free at the
// same time; blocks live across launches (one kernel allocates, the next
// reads and frees); new[]/delete[]; malloc returns NULL when the heap is
// exhausted and succeeds again once memory is freed; malloc(0) is not NULL
// and free(NULL) does nothing.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_tap.h"

namespace cg = cooperative_groups;

#define TILE 16
#define MAT 64

// C = A * B, tiles of A and B staged through shared memory with
// cuda::memcpy_async into a 2-stage pipeline (the sample's structure).
__global__ void matmul_async(float *c, const float *a, const float *b)
{
	__shared__ alignas(16) float as[2][TILE][TILE];
	__shared__ alignas(16) float bs[2][TILE][TILE];
	__shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
	auto block = cg::this_thread_block();
	auto pipe = cuda::make_pipeline(block, &st);
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	const int steps = MAT / TILE;
	float acc = 0;

	for (int fetch = 0, k = 0; k < steps; k++) {
		for (; fetch < steps && fetch < k + 2; fetch++) {
			int s = fetch & 1;

			pipe.producer_acquire();
			// one row of each tile per thread of the first column
			if (tx == 0) {
				cuda::memcpy_async(&as[s][ty][0],
						   a + row * MAT + fetch * TILE,
						   cuda::aligned_size_t<16>(TILE * 4), pipe);
				cuda::memcpy_async(&bs[s][ty][0],
						   b + (fetch * TILE + ty) * MAT +
						   blockIdx.x * TILE,
						   cuda::aligned_size_t<16>(TILE * 4), pipe);
			}
			pipe.producer_commit();
		}
		pipe.consumer_wait();
		block.sync();
		for (int i = 0; i < TILE; i++)
			acc += as[k & 1][ty][i] * bs[k & 1][i][tx];
		block.sync();
		pipe.consumer_release();
	}
	c[row * MAT + col] = acc;
}

// out[b*256 + t] = in[b*512 + 2t] + in[b*512 + 2t + 1]
__global__ void barrier_copy(int *out, const int *in)
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
	out[blockIdx.x * 256 + threadIdx.x] =
		s[threadIdx.x * 2] + s[threadIdx.x * 2 + 1];
}

__global__ void plain(int *o)
{
	o[threadIdx.x] = threadIdx.x;
}

// Every thread: malloc n ints, fill, check after a barrier, free.
// bad[0] counts NULLs, bad[1] wrong contents, bad[2] misaligned pointers.
__global__ void heap_churn(int n, int rounds, unsigned *bad)
{
	unsigned me = blockIdx.x * blockDim.x + threadIdx.x;

	for (int r = 0; r < rounds; r++) {
		int *p = (int *)malloc((size_t)(n + (me + r) % 7) * sizeof(int));

		if (!p) {
			atomicAdd(&bad[0], 1);
			continue;
		}
		if ((uintptr_t)p & 15)
			atomicAdd(&bad[2], 1);
		for (int i = 0; i < n; i++)
			p[i] = (int)(me * 1000 + i + r);
		__syncwarp();
		for (int i = 0; i < n; i++)
			if (p[i] != (int)(me * 1000 + i + r))
				atomicAdd(&bad[1], 1);
		free(p);
	}
}

// One kernel allocates and keeps; the next reads and frees (heap memory
// lives until freed, across launches).
__global__ void heap_keep(int **slots)
{
	unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
	int *p = new int[8];

	if (p)
		for (int i = 0; i < 8; i++)
			p[i] = (int)me * 8 + i;
	slots[me] = p;
}

__global__ void heap_release(int **slots, unsigned *bad)
{
	unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
	int *p = slots[me];

	if (!p) {
		atomicAdd(&bad[0], 1);
		return;
	}
	for (int i = 0; i < 8; i++)
		if (p[i] != (int)me * 8 + i)
			atomicAdd(&bad[1], 1);
	delete[] p;
}

// One thread takes blocks of @size until malloc fails, frees them all,
// then takes one again.  out: count, the second allocation worked,
// malloc(0) was not NULL (as on an H100), free(NULL) returned.
__global__ void heap_exhaust(size_t size, unsigned long long *out)
{
	void *list[1024];
	unsigned n = 0;

	while (n < 1024 && (list[n] = malloc(size)) != NULL)
		n++;
	out[0] = n;
	for (unsigned i = 0; i < n; i++)
		free(list[i]);
	void *again = malloc(size);

	out[1] = again != NULL;
	free(again);
	void *zero = malloc(0);

	out[2] = zero != NULL;
	free(zero);
	free(NULL);
	out[3] = 1;
}

static void test_async(void)
{
	float *a, *b, *c;
	int *in, *out, bad = 0;

	if (!TAP(OK(cudaMallocManaged(&a, MAT * MAT * 4)) &&
		 OK(cudaMallocManaged(&b, MAT * MAT * 4)) &&
		 OK(cudaMallocManaged(&c, MAT * MAT * 4)) &&
		 OK(cudaMallocManaged(&in, 1024 * 4)) &&
		 OK(cudaMallocManaged(&out, 512 * 4)), "managed buffers"))
		return;
	for (int i = 0; i < MAT * MAT; i++) {
		a[i] = (float)(i % 13) - 6.0f;
		b[i] = (float)(i % 7) * 0.5f;
	}
	matmul_async<<<dim3(MAT / TILE, MAT / TILE), dim3(TILE, TILE)>>>(c, a, b);
	if (TAP(OK(cudaGetLastError()) && OK(cudaDeviceSynchronize()),
		"matmul_async runs")) {
		for (int i = 0; i < MAT && bad < 10; i++)
			for (int j = 0; j < MAT; j++) {
				float want = 0;

				for (int k = 0; k < MAT; k++)
					want += a[i * MAT + k] * b[k * MAT + j];
				if (c[i * MAT + j] != want && bad++ < 10)
					tap_diag("c[%d][%d] = %g, want %g", i, j,
						 c[i * MAT + j], want);
			}
		TAP(!bad, "tiled matmul through cuda::pipeline + memcpy_async (%d wrong)",
		    bad);
	}
	for (int i = 0; i < 1024; i++)
		in[i] = i * 37 - 5000;
	barrier_copy<<<2, 256>>>(out, in);
	bad = 0;
	if (TAP(OK(cudaGetLastError()) && OK(cudaDeviceSynchronize()),
		"barrier_copy runs")) {
		for (int i = 0; i < 512; i++)
			bad += out[i] != in[(i / 256) * 512 + 2 * (i % 256)] +
					 in[(i / 256) * 512 + 2 * (i % 256) + 1];
		TAP(!bad, "cuda::memcpy_async completed by a cuda::barrier (%d wrong)",
		    bad);
	}
	cudaFree(a);
	cudaFree(b);
	cudaFree(c);
	cudaFree(in);
	cudaFree(out);
}

static void test_heap(void)
{
	size_t v = 0;
	unsigned *bad;
	int **slots, *o;
	unsigned long long *ex;

	TAP(OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize)) && v == 8u << 20,
	    "the default heap limit is 8 MiB (%zu)", v);
	/* a kernel without malloc does not fix the limit */
	if (!TAP(OK(cudaMallocManaged(&o, 256 * 4)) &&
		 OK(cudaMallocManaged(&bad, 3 * 4)) &&
		 OK(cudaMallocManaged(&slots, 4096 * sizeof(int *))) &&
		 OK(cudaMallocManaged(&ex, 4 * 8)), "managed buffers"))
		return;
	plain<<<1, 256>>>(o);
	TAP(OK(cudaDeviceSynchronize()) &&
	    OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4u << 20)) &&
	    OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize)) && v == 4u << 20,
	    "settable before a kernel that calls malloc (%zu)", v);
	/* an H100 makes less than 4 MiB 4 MiB (probe_heap.h100.txt) */
	TAP(OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1000000)) &&
	    OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize)) && v == 4u << 20,
	    "1000000 bytes is raised to 4 MiB, as on an H100 (%zu)", v);

	memset(bad, 0, 12);
	heap_churn<<<16, 128>>>(24, 4, bad);
	TAP(OK(cudaGetLastError()) && OK(cudaDeviceSynchronize()) &&
	    !bad[0] && !bad[1] && !bad[2],
	    "2048 threads malloc/fill/free at once: %u NULL, %u wrong, %u misaligned",
	    bad[0], bad[1], bad[2]);

	TAP(IS(cudaErrorInvalidValue,
	       cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20)) &&
	    OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize)) && v == 4u << 20,
	    "fixed once a kernel that calls malloc ran (%zu)", v);
	/* a failed runtime call is also the last error, which this takes */
	TAP(IS(cudaErrorInvalidValue, cudaGetLastError()) &&
	    OK(cudaGetLastError()), "the refusal is the last error, once");

	memset(bad, 0, 12);
	heap_keep<<<16, 256>>>(slots);
	heap_release<<<16, 256>>>(slots, bad);
	TAP(OK(cudaDeviceSynchronize()) && !bad[0] && !bad[1],
	    "new[] in one kernel, read and delete[] in the next: %u NULL, %u wrong",
	    bad[0], bad[1]);

	/* 1 MiB blocks: fewer than 4 fit a 4 MiB heap with its headers */
	heap_exhaust<<<1, 1>>>(1u << 20, ex);
	TAP(OK(cudaDeviceSynchronize()) && ex[0] == 3 && ex[1] == 1 &&
	    ex[2] == 1 && ex[3] == 1,
	    "exhausted: %llu blocks of 1 MiB, then NULL; after free() again %llu; malloc(0) not NULL %llu",
	    ex[0], ex[1], ex[2]);
	heap_exhaust<<<1, 1>>>(64u << 20, ex);
	TAP(OK(cudaDeviceSynchronize()) && ex[0] == 0 && ex[1] == 0,
	    "larger than the heap: NULL (%llu)", ex[0]);
	cudaFree(o);
	cudaFree(bad);
	cudaFree(slots);
	cudaFree(ex);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	test_heap();
	test_async();
	fw_launcher_stop(fw);
	return tap_finish();
}
