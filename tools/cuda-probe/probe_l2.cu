// SPDX-License-Identifier: GPL-2.0
//
// probe_l2: the L2 hit rates of simple access patterns and of the CUDA
// Best Practices Guide's persisting-L2 experiment (hit ratio versus the
// size of the access policy window), with sizes in fractions of the L2
// the device reports, so that the same program compares an H100's L2
// with vGPU's model (Documentation/profiler.rst, "The L2 model").
// Recorded with Nsight Compute (--cache-control none, so that one
// launch's lines are still there for the next):
//   ncu --cache-control none --csv --metrics lts__t_sectors.sum,\
//     lts__t_sector_hit_rate.pct,lts__t_sectors_lookup_hit.sum,\
//     lts__t_sectors_lookup_miss.sum ./probe_l2
// tests/golden/probe_l2.h100.csv; the attribute and error lines it
// prints are in tools/cuda-probe/golden/probe_l2.h100.txt.
//
// Loads use __ldcg (cache in L2 only): what reaches the L2 is then every
// sector the warps ask for, as in vGPU's model, which has no L1.
//
// Build: nvcc -cudart shared -arch=sm_90 -gencode arch=compute_90,code=sm_90
//        -gencode arch=compute_90,code=compute_90 -o probe_l2 probe_l2.cu
#include <cstdio>
#include <cstdlib>

#define BLK 256

static int launch_no;

/* every thread loads one int; the sum is stored only if it is impossible */
extern "C" __global__ void l2_read(const int *in, size_t n, int *sink)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n && __ldcg(in + i) == 0x7eadbeef)
		sink[0] = 1;
}

/* every thread loads the same 32 ints of a warp: one sector per request */
extern "C" __global__ void l2_broadcast(const int *in, size_t n, int *sink)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n && __ldcg(in + (threadIdx.x & 7)) == 0x7eadbeef)
		sink[0] = 1;
}

/* the Best Practices Guide's kernel (section "L2 Access Management") */
extern "C" __global__ void l2_window(int *persistent, int *streaming,
				      size_t data_size, size_t freq_size)
{
	size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	persistent[tid % freq_size] = 2 * __ldcg(persistent + tid % freq_size);
	streaming[tid % data_size] = 2 * __ldcg(streaming + tid % data_size);
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("probe: %s -> %d %s\n", #x, (int)e_, cudaGetErrorName(e_)); \
	exit(1); } } while (0)

static unsigned int blocks(size_t n)
{
	return (unsigned int)((n + BLK - 1) / BLK);
}

static void read_twice(const char *what, const int *buf, size_t bytes,
		       int *sink)
{
	size_t n = bytes / 4;

	for (int pass = 0; pass < 2; pass++) {
		printf("probe: launch %d l2_read %s pass %d bytes %zu\n",
		       launch_no++, what, pass, bytes);
		l2_read<<<blocks(n), BLK>>>(buf, n, sink);
		CK(cudaDeviceSynchronize());
	}
}

int main(int argc, char **argv)
{
	/*
	 * argv[1], argv[2]: the largest and smallest persistent region of
	 * the experiment in 8ths of the L2 (12 and 1, as recorded; a guest
	 * test runs fewer)
	 */
	int max8 = argc > 1 ? atoi(argv[1]) : 12;
	int min8 = argc > 2 ? atoi(argv[2]) : 1;
	int l2, persist_max, window_max;
	size_t L, stream_bytes;
	int *a, *b, *p, *s, *sink;
	cudaStream_t st;
	cudaStreamAttrValue attr = {};
	size_t lim;

	CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	CK(cudaDeviceGetAttribute(&persist_max,
				  cudaDevAttrMaxPersistingL2CacheSize, 0));
	CK(cudaDeviceGetAttribute(&window_max,
				  cudaDevAttrMaxAccessPolicyWindowSize, 0));
	printf("probe: l2CacheSize %d persistingL2CacheMaxSize %d "
	       "accessPolicyMaxWindowSize %d\n", l2, persist_max, window_max);
	L = (size_t)l2;

	/* the limit: what is kept, and what is refused */
	CK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
	printf("probe: persisting limit default %zu\n", lim);
	printf("probe: set limit max+1 -> %d\n", (int)cudaDeviceSetLimit(
		cudaLimitPersistingL2CacheSize, (size_t)persist_max + 1));
	cudaGetLastError();
	CK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
	printf("probe: persisting limit after max+1 %zu\n", lim);
	printf("probe: set limit 1000 -> %d\n", (int)cudaDeviceSetLimit(
		cudaLimitPersistingL2CacheSize, 1000));
	CK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
	printf("probe: persisting limit after 1000 %zu\n", lim);
	CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));

	stream_bytes = 2 * L;
	CK(cudaMalloc(&a, L / 4));
	CK(cudaMalloc(&b, 2 * L));
	CK(cudaMalloc(&p, 2 * L));
	CK(cudaMalloc(&s, stream_bytes));
	CK(cudaMalloc(&sink, 4));
	CK(cudaMemset(a, 1, L / 4));
	CK(cudaMemset(b, 1, 2 * L));
	CK(cudaMemset(p, 1, 2 * L));
	CK(cudaMemset(s, 1, stream_bytes));
	CK(cudaStreamCreate(&st));

	/* window checks: too large, a bad hit ratio */
	attr.accessPolicyWindow.base_ptr = p;
	attr.accessPolicyWindow.num_bytes = (size_t)window_max + 1;
	attr.accessPolicyWindow.hitRatio = 1.0f;
	attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	printf("probe: window max+1 -> %d\n", (int)cudaStreamSetAttribute(
		st, cudaStreamAttributeAccessPolicyWindow, &attr));
	cudaGetLastError();
	attr.accessPolicyWindow.num_bytes = 4096;
	attr.accessPolicyWindow.hitRatio = 1.5f;
	printf("probe: window hitRatio 1.5 -> %d\n", (int)cudaStreamSetAttribute(
		st, cudaStreamAttributeAccessPolicyWindow, &attr));
	cudaGetLastError();
	attr.accessPolicyWindow.hitRatio = 1.0f;
	attr.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
	printf("probe: window missProp persisting -> %d\n",
	       (int)cudaStreamSetAttribute(
		st, cudaStreamAttributeAccessPolicyWindow, &attr));
	cudaGetLastError();

	/* simple patterns, flushed by a 2L read before each */
	read_twice("flush", b, 2 * L, sink);
	read_twice("quarter", a, L / 4, sink);
	read_twice("twice_l2", b, 2 * L, sink);
	printf("probe: launch %d l2_broadcast\n", launch_no++);
	l2_broadcast<<<blocks(1 << 20), BLK>>>(a, 1 << 20, sink);
	CK(cudaDeviceSynchronize());

	/*
	 * The guide's experiment: a persistent region of freq bytes read and
	 * written over and over while a 2L streaming array passes once; with
	 * and without a persisting window of the whole region (hitRatio: the
	 * set-aside over the window, at most 1, as the guide sets it).
	 */
	CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
			      (size_t)persist_max));
	CK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
	printf("probe: persisting limit set %zu\n", lim);
	for (int mode = 0; mode < 2; mode++) {
		for (int k = min8; k <= max8; k++) {
			size_t freq = L * k / 8 / 4, data = stream_bytes / 4;
			float ratio = (float)lim / (float)(freq * 4);

			if (ratio > 1.0f)
				ratio = 1.0f;
			attr.accessPolicyWindow.base_ptr = p;
			attr.accessPolicyWindow.num_bytes = freq * 4;
			attr.accessPolicyWindow.hitRatio = ratio;
			attr.accessPolicyWindow.hitProp =
				cudaAccessPropertyPersisting;
			attr.accessPolicyWindow.missProp =
				cudaAccessPropertyStreaming;
			if (mode)	/* mode 0 comes first: no window */
				CK(cudaStreamSetAttribute(
				    st, cudaStreamAttributeAccessPolicyWindow,
				    &attr));
			CK(cudaCtxResetPersistingL2Cache());
			read_twice("flush", b, 2 * L, sink);
			for (int pass = 0; pass < 2; pass++) {
				printf("probe: launch %d l2_window window %d "
				       "freq8 %d pass %d hitRatio %.4f\n",
				       launch_no++, mode, k, pass,
				       mode ? ratio : 0.0f);
				l2_window<<<blocks(data), BLK, 0, st>>>(
					p, s, data, freq);
				CK(cudaStreamSynchronize(st));
			}
		}
	}
	attr.accessPolicyWindow.num_bytes = 0;
	printf("probe: window 0 bytes -> %d\n", (int)cudaStreamSetAttribute(
		st, cudaStreamAttributeAccessPolicyWindow, &attr));
	cudaGetLastError();
	CK(cudaCtxResetPersistingL2Cache());
	CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
	printf("probe: done, %d launches\n", launch_no);
	return 0;
}
