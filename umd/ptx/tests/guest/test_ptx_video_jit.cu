// SPDX-License-Identifier: GPL-2.0
//
// test_ptx_video_jit (guest test): a CUDA program built by nvcc with PTX
// only (compute_90), so that our libcuda compiles its kernels at load
// time, as NVIDIA's samples are built.  Its kernels use the SIMD
// intrinsics nvcc turns into video instructions (__vabsdiffu4, __vsadu4,
// ...), the inline vabsdiff4.add of the stereoDisparity sample and a
// cooperative-groups tile of 64 threads (scratch in the reserved shared
// memory); results are checked against byte-by-byte computations on the
// CPU.  cudaFuncGetAttributes reports each kernel's static shared size.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_tap.h"

namespace cg = cooperative_groups;

#define N 4096
#define THREADS 128
#define OUTS 6

__global__ void simd(unsigned *o, const unsigned *a, const unsigned *b,
		     const unsigned *c)
{
	unsigned t = threadIdx.x + blockIdx.x * blockDim.x, x = a[t], y = b[t], r;

	o[OUTS * t + 0] = __vabsdiffu4(x, y);
	o[OUTS * t + 1] = __vsadu4(x, y);
	o[OUTS * t + 2] = __vsadu2(x, y);
	o[OUTS * t + 3] = __vcmpgtu4(x, y);
	o[OUTS * t + 4] = __vabsdiffs4(x, y);
	asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
	    : "=r"(r) : "r"(x), "r"(y), "r"(c[t]));
	o[OUTS * t + 5] = r;
}

__global__ void tile64(int *o)
{
	__shared__ int mine[256];
	cg::thread_block b = cg::this_thread_block();

	mine[threadIdx.x] = threadIdx.x * 3 + 1;
	auto tile = cg::tiled_partition<64>(b);
	int s = cg::reduce(tile, (int)threadIdx.x, cg::plus<int>());

	b.sync();
	o[threadIdx.x] = s + mine[255 - threadIdx.x];
}

// Two arrays of its own: 8 KiB + 4 KiB of static shared memory.
__global__ void two_arrays(int *o)
{
	__shared__ int x[2048];
	__shared__ int y[1024];

	x[threadIdx.x * 8] = threadIdx.x;
	y[threadIdx.x * 4] = 2 * threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = x[(255 - threadIdx.x) * 8] + y[(255 - threadIdx.x) * 4];
}

static unsigned byte(unsigned v, int i) { return v >> (8 * i) & 0xff; }
static int sbyte(unsigned v, int i) { return (int8_t)(v >> (8 * i)); }

static void reference(unsigned x, unsigned y, unsigned z, unsigned *w)
{
	unsigned absd = 0, sad4 = 0, sad2 = 0, gt = 0, sabs = 0;

	for (int i = 0; i < 4; i++) {
		int d = (int)byte(x, i) - (int)byte(y, i);
		int sd = sbyte(x, i) - sbyte(y, i);

		absd |= (unsigned)abs(d) << (8 * i);
		sad4 += (unsigned)abs(d);
		gt |= (byte(x, i) > byte(y, i) ? 0xffu : 0) << (8 * i);
		sabs |= ((unsigned)abs(sd) & 0xff) << (8 * i);
	}
	for (int i = 0; i < 2; i++)
		sad2 += (unsigned)abs((int)(x >> (16 * i) & 0xffff) -
				      (int)(y >> (16 * i) & 0xffff));
	w[0] = absd;
	w[1] = sad4;
	w[2] = sad2;
	w[3] = gt;
	w[4] = sabs;
	w[5] = z + sad4;
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	unsigned *a, *b, *c, *o;
	int *io, bad = 0;
	uint64_t s = 0x243f6a8885a308d3ull;
	cudaFuncAttributes attr;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	if (!TAP(OK(cudaMallocManaged(&a, N * 4)) && OK(cudaMallocManaged(&b, N * 4)) &&
		 OK(cudaMallocManaged(&c, N * 4)) &&
		 OK(cudaMallocManaged(&o, N * 4 * OUTS)) &&
		 OK(cudaMallocManaged(&io, 256 * 4)), "managed buffers"))
		return tap_finish();
	for (int i = 0; i < N; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		a[i] = i < 256 ? (i & 15) * 0x11111111u : (unsigned)s;
		b[i] = i < 256 ? (i >> 4) * 0x10101010u : (unsigned)(s >> 32);
		c[i] = (unsigned)(s >> 16);
	}
	simd<<<N / THREADS, THREADS>>>(o, a, b, c);
	if (TAP(OK(cudaDeviceSynchronize()), "SIMD intrinsics kernel runs (JIT from compute_90 PTX)")) {
		for (int i = 0; i < N; i++) {
			unsigned w[OUTS];

			reference(a[i], b[i], c[i], w);
			for (int j = 0; j < OUTS; j++)
				if (o[OUTS * i + j] != w[j] && bad++ < 4)
					tap_diag("a %#x b %#x c %#x output %d: %#x, want %#x",
						 a[i], b[i], c[i], j, o[OUTS * i + j], w[j]);
		}
		TAP(!bad, "__vabsdiffu4, __vsadu4, __vsadu2, __vcmpgtu4, __vabsdiffs4, vabsdiff4.add (%d wrong)",
		    bad);
	}
	tile64<<<1, 256>>>(io);
	if (TAP(OK(cudaDeviceSynchronize()), "cooperative-groups tile of 64 runs")) {
		bad = 0;
		for (int t = 0; t < 256; t++)
			bad += io[t] != 64 * (t / 64 * 64) + 63 * 32 + (255 - t) * 3 + 1;
		TAP(!bad, "tile reductions right and the block's own shared array intact (%d wrong)",
		    bad);
	}
	two_arrays<<<1, 256>>>(io);
	if (TAP(OK(cudaDeviceSynchronize()), "two_arrays runs")) {
		bad = 0;
		for (int t = 0; t < 256; t++)
			bad += io[t] != 3 * (255 - t);
		TAP(!bad, "two_arrays: two shared arrays (%d wrong)", bad);
	}
	TAP(OK(cudaFuncGetAttributes(&attr, two_arrays)) &&
	    attr.sharedSizeBytes == 12288,
	    "two_arrays: sharedSizeBytes 12288 (%zu)", attr.sharedSizeBytes);
	// Its own 1 KiB, without the reserved region (as an H100 reports).
	TAP(OK(cudaFuncGetAttributes(&attr, tile64)) &&
	    attr.sharedSizeBytes == 1024,
	    "tile64: sharedSizeBytes 1024, the reserved region left out (%zu)",
	    attr.sharedSizeBytes);
	cudaFree(a);
	cudaFree(b);
	cudaFree(c);
	cudaFree(o);
	cudaFree(io);
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
