// SPDX-License-Identifier: GPL-2.0
//
// coalescing: the CUDA Best Practices Guide's experiment on global-memory
// coalescing (9.2.1.3 "A copy kernel that illustrates misaligned
// accesses", 9.2.1.4 "Strided accesses"): offsetCopy for offsets 0 to 32
// and strideCopy for strides 1 to 32, each launch timed, its result
// checked.  Run under vgpu-prof (coalescing-counters.sh) it shows why the
// bandwidth falls: the 32-byte sectors each warp's load needs.  With
// VGPU_TIMING=model its times are vGPU's modelled GPU time, and
// coalescing-chart.sh draws the curves (Documentation/profiler.rst).
//
// Arguments (optional): threads per launch (default 16384) and the
// largest offset and stride (default 32).
#include <cstdio>
#include <vector>

#include "../common/sample_check.h"

#include <cstdlib>

#define BLOCK 256

__global__ void offsetCopy(float *odata, float *idata, int offset)
{
	int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;

	odata[xid] = idata[xid];
}

__global__ void strideCopy(float *odata, float *idata, int stride)
{
	int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;

	odata[xid] = idata[xid];
}

int main(int argc, char **argv)
{
	const size_t threads = argc > 1 ? strtoul(argv[1], NULL, 0) : 1 << 14;
	const int max_step = argc > 2 ? atoi(argv[2]) : 32;
	const size_t n = threads * max_step + max_step;
	std::vector<float> h(n), back(n);
	float *in, *out, ms;
	cudaEvent_t t0, t1;
	int launch = 0;
	bool ok = true;

	for (size_t i = 0; i < n; i++)
		h[i] = (float)i;
	CHECK(cudaMalloc(&in, n * sizeof(float)));
	CHECK(cudaMalloc(&out, n * sizeof(float)));
	CHECK(cudaMemcpy(in, h.data(), n * sizeof(float),
			 cudaMemcpyHostToDevice));
	CHECK(cudaEventCreate(&t0));
	CHECK(cudaEventCreate(&t1));

	for (int pass = 0; pass < 2; pass++) {
		for (int k = pass ? 1 : 0; k <= max_step; k++) {
			CHECK(cudaMemset(out, 0, n * sizeof(float)));
			CHECK(cudaEventRecord(t0));
			if (pass)
				strideCopy<<<
					(unsigned int)(threads / BLOCK), BLOCK>>>(
					out, in, k);
			else
				offsetCopy<<<
					(unsigned int)(threads / BLOCK), BLOCK>>>(
					out, in, k);
			CHECK(cudaEventRecord(t1));
			CHECK(cudaEventSynchronize(t1));
			CHECK(cudaEventElapsedTime(&ms, t0, t1));
			CHECK(cudaMemcpy(back.data(), out, n * sizeof(float),
					 cudaMemcpyDeviceToHost));
			for (size_t t = 0; t < threads; t++) {
				size_t x = pass ? t * k : t + k;

				if (back[x] != h[x]) {
					printf("%s %d: element %zu is %g, not %g\n",
					       pass ? "stride" : "offset", k, x,
					       back[x], h[x]);
					ok = false;
					break;
				}
			}
			// bytes the kernel asked for, read and written
			printf("launch %d %s %d %.4f ms %.2f GB/s\n", launch++,
			       pass ? "stride" : "offset", k, ms,
			       2.0 * threads * sizeof(float) / (ms * 1e6));
		}
	}
	CHECK(cudaFree(in));
	CHECK(cudaFree(out));
	return sample_result(ok);
}
