// SPDX-License-Identifier: GPL-2.0
//
// l2_window: the Best Practices Guide's sliding-window experiment on
// persisting L2 accesses (9.2.2 "L2 Cache", "L2 Cache Access Window"):
// the guide's kernel reads and writes a small persistent region over and
// over while a large streaming array passes once, and the persistent
// region's size is swept through the L2's set-aside.  Three settings of
// the stream's access policy window for each size:
//
//   none    no window;
//   hit1    a persisting window over the whole region, hitRatio 1.0 (the
//           guide's first figure: once the region outgrows the set-aside,
//           its persisting lines thrash);
//   tuned   the same window with hitRatio = set-aside / region, at most 1
//           (the guide's second figure: only as much of the region as
//           fits persists, the rest streams).
//
// Sizes are in eighths of the L2 the device reports (the guide's A100 has
// 40 MB, vGPU 4 MiB, an H100 50 MB), the set-aside is the largest allowed
// (persistingL2CacheMaxSize), the streaming array twice the L2.  Each
// setting runs twice after cudaCtxResetPersistingL2Cache; the second
// launch is timed, and both are checked against the CPU (the kernel
// doubles each element it touches: every streaming element is doubled
// twice).  With
// VGPU_TIMING=model the times are vGPU's modelled GPU time; under
// vgpu-prof lts__t_sector_hit_rate.pct is the L2's hit rate
// (l2-window-chart.sh draws both, Documentation/profiler.rst).
//
// Arguments (optional): the region sizes in eighths of the L2 (default
// 1 2 3 4 5 6 8 12).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/sample_check.h"

#define BLOCK 256

// the guide's kernel, its loads through the L2 only (__ldcg): vGPU has no
// L1 model, and on an H100 the L1 would serve some re-reads
extern "C" __global__ void l2_window(int *data_persistent,
				     int *data_streaming, int data_size,
				     int freq_size)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;

	data_persistent[tid % freq_size] =
		2 * __ldcg(data_persistent + tid % freq_size);
	data_streaming[tid % data_size] =
		2 * __ldcg(data_streaming + tid % data_size);
}

static const char *const modes[] = { "none", "hit1", "tuned" };

int main(int argc, char **argv)
{
	std::vector<int> eighths;
	int l2 = 0, persist_max = 0, launch = 0;
	size_t set_aside;
	cudaStream_t st;
	cudaEvent_t t0, t1;
	int *pers, *strm;
	bool ok = true;
	float ms;

	for (int i = 1; i < argc; i++)
		eighths.push_back(atoi(argv[i]));
	if (eighths.empty())
		eighths = { 1, 2, 3, 4, 5, 6, 8, 12 };
	CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	CHECK(cudaDeviceGetAttribute(&persist_max,
				     cudaDevAttrMaxPersistingL2CacheSize, 0));
	CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
				 (size_t)persist_max));
	CHECK(cudaDeviceGetLimit(&set_aside, cudaLimitPersistingL2CacheSize));
	const int data = 2 * l2 / 4;	// ints of the streaming array
	int max8 = 0;
	for (int k : eighths) {
		if (k <= 0 || k > 16) {
			fprintf(stderr, "l2_window: sizes are 1 to 16 eighths "
				"of the L2\n");
			return sample_result(false);
		}
		max8 = k > max8 ? k : max8;
	}
	std::vector<int> hp((size_t)l2 * max8 / 8 / 4), hs(data);
	std::vector<int> back(data);
	CHECK(cudaMalloc(&pers, hp.size() * sizeof(int)));
	CHECK(cudaMalloc(&strm, hs.size() * sizeof(int)));
	CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
	CHECK(cudaEventCreate(&t0));
	CHECK(cudaEventCreate(&t1));
	printf("L2 %d bytes, set-aside %zu bytes, streaming array %d bytes, "
	       "%d threads a launch\n", l2, set_aside, data * 4, data);
	for (int m = 0; m < 3; m++) {
		for (int k : eighths) {
			const int freq = l2 / 4 * k / 8;
			cudaStreamAttrValue attr = {};
			float ratio = (float)set_aside / ((float)freq * 4);

			for (size_t i = 0; i < hp.size(); i++)
				hp[i] = 1;
			for (int i = 0; i < data; i++)
				hs[i] = i % 1000;
			CHECK(cudaMemcpy(pers, hp.data(),
					 hp.size() * sizeof(int),
					 cudaMemcpyHostToDevice));
			CHECK(cudaMemcpy(strm, hs.data(), hs.size() * sizeof(int),
					 cudaMemcpyHostToDevice));
			if (m) {
				attr.accessPolicyWindow.base_ptr = pers;
				attr.accessPolicyWindow.num_bytes =
					(size_t)freq * 4;
				attr.accessPolicyWindow.hitRatio =
					m == 1 || ratio > 1.0f ? 1.0f : ratio;
				attr.accessPolicyWindow.hitProp =
					cudaAccessPropertyPersisting;
				attr.accessPolicyWindow.missProp =
					cudaAccessPropertyStreaming;
			}
			CHECK(cudaStreamSetAttribute(st,
				cudaStreamAttributeAccessPolicyWindow, &attr));
			CHECK(cudaCtxResetPersistingL2Cache());
			l2_window<<<data / BLOCK, BLOCK, 0, st>>>(pers, strm,
								 data, freq);
			CHECK(cudaGetLastError());
			launch++;
			CHECK(cudaEventRecord(t0, st));
			l2_window<<<data / BLOCK, BLOCK, 0, st>>>(pers, strm,
								 data, freq);
			CHECK(cudaEventRecord(t1, st));
			CHECK(cudaEventSynchronize(t1));
			CHECK(cudaEventElapsedTime(&ms, t0, t1));
			// the CPU: the streaming array is touched once per
			// element and launch, so it is exactly 4 times what it
			// was.  The guide's kernel races on the persistent
			// region (threads tid and tid + freq double the same
			// element), so there each element, 1 at first, is 2 to
			// the power of at most twice its touches (0 once 2^32
			// wraps around)
			CHECK(cudaMemcpy(back.data(), pers,
					 (size_t)freq * sizeof(int),
					 cudaMemcpyDeviceToHost));
			for (int i = 0; i < freq && ok; i++) {
				unsigned v = (unsigned)back[i];
				int touches = 2 * ((data - 1 - i) / freq + 1);
				int j = 0;

				while (j < 32 && v != 1u << j)
					j++;
				if (v ? j < 1 || j >= 32 || j > touches :
					touches < 32) {
					printf("%s %d/8: persistent[%d] is %u, "
					       "not a power of 2 up to 2^%d\n",
					       modes[m], k, i, v, touches);
					ok = false;
				}
			}
			CHECK(cudaMemcpy(back.data(), strm,
					 hs.size() * sizeof(int),
					 cudaMemcpyDeviceToHost));
			for (int i = 0; i < data && ok; i++) {
				if (back[i] != 4 * hs[i]) {
					printf("%s %d/8: streaming[%d] is %d, "
					       "not %d\n", modes[m], k, i,
					       back[i], 4 * hs[i]);
					ok = false;
				}
			}
			// bytes the threads read and wrote over the time
			printf("launch %d %s %d %.4f ms %.2f GB/s hitRatio "
			       "%.4f\n", launch++, modes[m], k, ms,
			       4.0 * data * 4 / (ms * 1e6),
			       attr.accessPolicyWindow.hitRatio);
		}
	}
	CHECK(cudaFree(pers));
	CHECK(cudaFree(strm));
	CHECK(cudaStreamDestroy(st));
	return sample_result(ok);
}
