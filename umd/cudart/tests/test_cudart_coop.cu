// SPDX-License-Identifier: GPL-2.0
//
// Cooperative groups, cooperative launches and thread-block clusters
// through the runtime (guest test, built for sm_90 as users build them):
//
//  - the device attributes, and grid.sync() in a grid as large as the
//    occupancy API allows, launched with cudaLaunchCooperativeKernel and
//    with cudaLaunchKernelEx's cooperative attribute, one block more
//    refused with cudaErrorCooperativeLaunchTooLarge;
//  - every partition of the cooperative groups headers (static and
//    dynamic tiles, coalesced groups, labeled and binary partitions,
//    cg::reduce, inclusive and exclusive scans) against CPU references;
//  - clusters: the special registers with __cluster_dims__ and with the
//    launch attribute, a histogram in distributed shared memory (mapa,
//    atomics on another block's shared memory, barrier.cluster), the
//    errors and function attributes an H100 gives
//    (tools/cuda-probe/golden/probe_coop.h100.txt) and the cluster
//    occupancy API, which answers what our SMs hold.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

namespace cg = cooperative_groups;

// --- grid.sync() ----------------------------------------------------------

// Rounds of a[i] = a[i] + a[(i + 1) % n], each needing the whole grid's
// previous round: wrong without a working grid barrier.
__global__ void grid_rounds(int *a, int *b, int n, int rounds, int *valid)
{
	cg::grid_group g = cg::this_grid();
	unsigned long long i = g.thread_rank();

	if (i == 0)
		*valid = g.is_valid() + 2 * (g.num_threads() == (unsigned)n);
	for (int r = 0; r < rounds; r++) {
		if (i < (unsigned)n)
			b[i] = a[i] + a[(i + 1) % n];
		g.sync();
		if (i < (unsigned)n)
			a[i] = b[i];
		g.sync();
	}
}

static void cpu_rounds(int *a, int n, int rounds)
{
	int *b = (int *)malloc(n * sizeof(int));

	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < n; i++)
			b[i] = a[i] + a[(i + 1) % n];
		memcpy(a, b, n * sizeof(int));
	}
	free(b);
}

static void test_grid_sync(void)
{
	int v = 0, sms = 0, per_sm = 0, n, *a, *b, *valid, *host, *want;
	const int threads = 128, rounds = 5;
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg = {};

	TAP(OK(cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, 0)) &&
	    v == 1, "cudaDevAttrCooperativeLaunch is 1");
	TAP(OK(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0)) &&
	    v == 1, "cudaDevAttrClusterLaunch is 1");
	OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_rounds,
							 threads, 0));
	n = sms * per_sm * threads;
	tap_diag("%d SMs x %d blocks of %d threads", sms, per_sm, threads);
	host = (int *)malloc(n * sizeof(int));
	want = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		host[i] = want[i] = (i * 7919) % 1000 - 500;
	cpu_rounds(want, n, rounds);
	OK(cudaMalloc(&a, n * sizeof(int)));
	OK(cudaMalloc(&b, n * sizeof(int)));
	OK(cudaMalloc(&valid, sizeof(int)));

	for (int how = 0; how < 2; how++) {
		void *args[] = { &a, &b, &n, (void *)&rounds, &valid };
		int got_valid = 0;
		cudaError_t e;

		OK(cudaMemcpy(a, host, n * sizeof(int), cudaMemcpyHostToDevice));
		if (how == 0) {
			e = cudaLaunchCooperativeKernel((void *)grid_rounds,
							dim3(sms * per_sm),
							dim3(threads), args, 0,
							0);
		} else {
			attr.id = cudaLaunchAttributeCooperative;
			attr.val.cooperative = 1;
			cfg.gridDim = dim3(sms * per_sm);
			cfg.blockDim = dim3(threads);
			cfg.attrs = &attr;
			cfg.numAttrs = 1;
			e = cudaLaunchKernelEx(&cfg, grid_rounds, a, b, n,
					       rounds, valid);
		}
		TAP(e == cudaSuccess && OK(cudaDeviceSynchronize()),
		    "grid.sync kernel (%s): %s",
		    how ? "cudaLaunchKernelEx" : "cudaLaunchCooperativeKernel",
		    cudaGetErrorName(e));
		int *got = (int *)malloc(n * sizeof(int));

		OK(cudaMemcpy(got, a, n * sizeof(int), cudaMemcpyDeviceToHost));
		OK(cudaMemcpy(&got_valid, valid, sizeof(int),
			      cudaMemcpyDeviceToHost));
		TAP(!memcmp(got, want, n * sizeof(int)),
		    "%d rounds over %d threads match the CPU", rounds, n);
		TAP(got_valid == 3, "is_valid() and num_threads() in the grid");
		free(got);
	}
	{
		void *args[] = { &a, &b, &n, (void *)&rounds, &valid };

		TAP(IS(cudaErrorCooperativeLaunchTooLarge,
		       cudaLaunchCooperativeKernel((void *)grid_rounds,
						   dim3(sms * per_sm + 1),
						   dim3(threads), args, 0, 0)),
		    "one block more than resident: CooperativeLaunchTooLarge");
		cudaGetLastError();
		TAP(IS(cudaErrorInvalidValue,
		       cudaLaunchCooperativeKernel((void *)grid_rounds, dim3(1),
						   dim3(2048), args, 0, 0)),
		    "a block of 2048 threads: InvalidValue");
		cudaGetLastError();
	}
	cudaFree(a);
	cudaFree(b);
	cudaFree(valid);
	free(host);
	free(want);
}

// --- partitions -------------------------------------------------------------

#define PART_THREADS 128
#define PART_OUT 12	// results per thread

__device__ int value_of(unsigned t)
{
	return (int)((t * 37u + 11u) % 23u) - 7;
}

__global__ void partitions(int *out)
{
	cg::thread_block blk = cg::this_thread_block();
	unsigned t = blk.thread_rank();
	int v = value_of(t), *o = out + t * PART_OUT;
	cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(blk);
	cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(blk);
	cg::thread_group dyn = cg::tiled_partition(blk, 16);

	o[0] = cg::reduce(t8, v, cg::plus<int>());
	o[1] = cg::reduce(t32, v, cg::greater<int>());
	o[2] = cg::inclusive_scan(t8, v);
	o[3] = cg::exclusive_scan(t32, v);
	o[4] = (int)(dyn.thread_rank() | dyn.size() << 8);
	o[5] = t8.shfl(v, 7 - (int)t8.thread_rank());
	o[6] = (int)t32.ballot(v > 0);
	if (v & 1) {	// odd values: a coalesced group of those lanes
		cg::coalesced_group c = cg::coalesced_threads();

		o[7] = cg::reduce(c, v, cg::plus<int>());
		o[8] = (int)(c.thread_rank() | c.size() << 8);
	} else {
		o[7] = o[8] = -1;
	}
	{	// lanes with the same value mod 3 together
		cg::coalesced_group l = cg::labeled_partition(t32, v % 3 + 3);

		o[9] = cg::reduce(l, v, cg::plus<int>());
	}
	{
		cg::thread_block_tile<32> b32 = t32;
		cg::coalesced_group bp = cg::binary_partition(b32, v < 0);

		o[10] = cg::reduce(bp, 1, cg::plus<int>()) |
			(int)bp.thread_rank() << 8;
	}
	blk.sync();
	o[11] = (int)blk.size();
}

static int cpu_value(unsigned t)
{
	return (int)((t * 37u + 11u) % 23u) - 7;
}

// The references: each group's members computed from thread ranks.
static void cpu_partitions(int *o)
{
	for (unsigned t = 0; t < PART_THREADS; t++) {
		int *r = o + t * PART_OUT, v = cpu_value(t);
		unsigned b8 = t / 8 * 8, b32 = t / 32 * 32;
		int sum8 = 0, max32 = -1000, inc8 = 0, exc32 = 0;
		unsigned ballot = 0;

		for (unsigned i = b8; i < b8 + 8; i++) {
			sum8 += cpu_value(i);
			if (i <= t)
				inc8 += cpu_value(i);
		}
		for (unsigned i = b32; i < b32 + 32; i++) {
			if (cpu_value(i) > max32)
				max32 = cpu_value(i);
			if (i < t)
				exc32 += cpu_value(i);
			if (cpu_value(i) > 0)
				ballot |= 1u << (i - b32);
		}
		r[0] = sum8;
		r[1] = max32;
		r[2] = inc8;
		r[3] = exc32;
		r[4] = (int)(t % 16 | 16 << 8);
		r[5] = cpu_value(b8 + 7 - (t - b8));
		r[6] = (int)ballot;
		if (v & 1) {
			int sum = 0, rank = 0, size = 0;

			for (unsigned i = b32; i < b32 + 32; i++) {
				if (!(cpu_value(i) & 1))
					continue;
				sum += cpu_value(i);
				rank += i < t;
				size++;
			}
			r[7] = sum;
			r[8] = rank | size << 8;
		} else {
			r[7] = r[8] = -1;
		}
		{
			int sum = 0, cnt = 0, rank = 0;

			for (unsigned i = b32; i < b32 + 32; i++)
				if (cpu_value(i) % 3 == v % 3)
					sum += cpu_value(i);
			r[9] = sum;
			for (unsigned i = b32; i < b32 + 32; i++) {
				if ((cpu_value(i) < 0) != (v < 0))
					continue;
				cnt++;
				rank += i < t;
			}
			r[10] = cnt | rank << 8;
		}
		r[11] = PART_THREADS;
	}
}

static void test_partitions(void)
{
	static int got[PART_THREADS * PART_OUT], want[PART_THREADS * PART_OUT];
	static const char *const what[PART_OUT] = {
		"reduce plus, tile<8>", "reduce greater, tile<32>",
		"inclusive_scan, tile<8>", "exclusive_scan, tile<32>",
		"dynamic tiled_partition(16) rank and size", "tile<8> shfl",
		"tile<32> ballot", "coalesced_threads reduce",
		"coalesced_threads rank and size",
		"labeled_partition reduce", "binary_partition size and rank",
		"thread_block size",
	};
	int *d;

	OK(cudaMalloc(&d, sizeof(got)));
	OK(cudaMemset(d, 0x55, sizeof(got)));
	partitions<<<1, PART_THREADS>>>(d);
	TAP(OK(cudaDeviceSynchronize()), "the partitions kernel ran");
	OK(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
	cpu_partitions(want);
	for (int k = 0; k < PART_OUT; k++) {
		int bad = -1;

		for (int t = 0; t < PART_THREADS && bad < 0; t++)
			if (got[t * PART_OUT + k] != want[t * PART_OUT + k])
				bad = t;
		if (bad >= 0)
			tap_diag("thread %d: got %d, want %d", bad,
				 got[bad * PART_OUT + k],
				 want[bad * PART_OUT + k]);
		TAP(bad < 0, "%s matches the CPU", what[k]);
	}
	cudaFree(d);
}

// --- clusters ------------------------------------------------------------

#define BINS 64

// A histogram in distributed shared memory: bin b lives in the shared
// memory of the cluster's block b / (BINS / cluster size); every block
// counts its items into whichever block holds the bin.
__global__ void __cluster_dims__(2, 1, 1)
cluster_hist(const int *in, int n, int *bins)
{
	__shared__ int smem[BINS];
	cg::cluster_group cl = cg::this_cluster();
	int per = BINS / (int)cl.num_blocks();

	for (int i = threadIdx.x; i < per; i += blockDim.x)
		smem[i] = 0;
	cl.sync();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		int b = in[i] % BINS;
		int *dst = cl.map_shared_rank(smem, b / per);

		atomicAdd(dst + b % per, 1);
	}
	cl.sync();
	for (int i = threadIdx.x; i < per; i += blockDim.x)
		atomicAdd(&bins[(int)cl.block_rank() * per + i], smem[i]);
}

// The cluster registers of each block, packed as probe_coop packs them.
__global__ void cluster_regs(unsigned *o)
{
	unsigned v, r, n, cx, ncx;

	asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; "
		     "selp.u32 %0, 1, 0, p; }" : "=r"(v));
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
	asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cx));
	asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncx));
	if (threadIdx.x == 0)
		o[blockIdx.x] = v | r << 4 | n << 8 | cx << 16 | ncx << 24;
}

static cudaError_t launch_regs(unsigned grid, unsigned block, unsigned cx,
			       unsigned cy, unsigned *d)
{
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at;

	cfg.gridDim = dim3(grid);
	cfg.blockDim = dim3(block);
	at.id = cudaLaunchAttributeClusterDimension;
	at.val.clusterDim.x = cx;
	at.val.clusterDim.y = cy;
	at.val.clusterDim.z = 1;
	cfg.attrs = &at;
	cfg.numAttrs = cx ? 1 : 0;
	return cudaLaunchKernelEx(&cfg, cluster_regs, d);
}

static void test_cluster_regs(unsigned *d)
{
	unsigned h[4];

	// as recorded on the H100 (probe_coop.h100.txt "free none/2 regs")
	TAP(OK(launch_regs(4, 32, 0, 0, d)) && OK(cudaDeviceSynchronize()) &&
	    OK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost)) &&
	    h[0] == 0x4000100 && h[1] == 0x4010100 && h[2] == 0x4020100 &&
	    h[3] == 0x4030100, "no cluster: one block per cluster");
	TAP(OK(launch_regs(4, 32, 2, 1, d)) && OK(cudaDeviceSynchronize()) &&
	    OK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost)) &&
	    h[0] == 0x2000201 && h[1] == 0x2000211 && h[2] == 0x2010201 &&
	    h[3] == 0x2010211, "cluster attribute 2: ranks and ids");
	TAP(IS(cudaErrorInvalidClusterSize, launch_regs(4, 32, 3, 1, d)),
	    "cluster 3 in a grid of 4: InvalidClusterSize");
	TAP(IS(cudaErrorInvalidClusterSize, launch_regs(4, 32, 2, 2, d)),
	    "cluster 2x2 in a grid of 4x1: InvalidClusterSize");
	TAP(IS(cudaErrorInvalidClusterSize, launch_regs(16, 32, 16, 1, d)),
	    "cluster of 16 without non-portable sizes: InvalidClusterSize");
	TAP(OK(launch_regs(4, 32, 0, 1, d)) && OK(cudaDeviceSynchronize()),
	    "a cluster dimension of 0 is no cluster");
	OK(cudaFuncSetAttribute(cluster_regs,
				cudaFuncAttributeNonPortableClusterSizeAllowed,
				1));
	TAP(OK(launch_regs(16, 32, 16, 1, d)) && OK(cudaDeviceSynchronize()),
	    "cluster of 16 with non-portable sizes allowed");
	TAP(IS(cudaErrorInvalidClusterSize, launch_regs(32, 32, 32, 1, d)),
	    "cluster of 32: InvalidClusterSize");
	cudaGetLastError();
}

static void test_cluster_hist(void)
{
	const int n = 5000;
	int *in, *bins, host[n], got[BINS], want[BINS] = { 0 };
	cudaFuncAttributes a;
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at;

	for (int i = 0; i < n; i++) {
		host[i] = (i * 2654435761u) >> 7 & 0xffff;
		want[host[i] % BINS]++;
	}
	OK(cudaMalloc(&in, sizeof(host)));
	OK(cudaMalloc(&bins, sizeof(got)));
	OK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));
	OK(cudaMemset(bins, 0, sizeof(got)));
	cluster_hist<<<8, 128>>>(in, n, bins);
	TAP(OK(cudaDeviceSynchronize()), "the cluster histogram ran");
	OK(cudaMemcpy(got, bins, sizeof(got), cudaMemcpyDeviceToHost));
	TAP(!memcmp(got, want, sizeof(got)),
	    "DSMEM histogram of %d items matches the CPU", n);

	// the H100's function attributes and errors for __cluster_dims__(2)
	OK(cudaFuncGetAttributes(&a, cluster_hist));
	TAP(a.clusterDimMustBeSet == 1 && a.requiredClusterWidth == 2 &&
	    a.requiredClusterHeight == 1 && a.requiredClusterDepth == 1 &&
	    a.nonPortableClusterSizeAllowed == 0,
	    "__cluster_dims__(2,1,1) attributes");
	cfg.gridDim = dim3(8);
	cfg.blockDim = dim3(128);
	at.id = cudaLaunchAttributeClusterDimension;
	at.val.clusterDim.x = 4;
	at.val.clusterDim.y = 1;
	at.val.clusterDim.z = 1;
	cfg.attrs = &at;
	cfg.numAttrs = 1;
	TAP(IS(cudaErrorInvalidClusterSize,
	       cudaLaunchKernelEx(&cfg, cluster_hist, (const int *)in, n, bins)),
	    "a cluster attribute other than __cluster_dims__: InvalidClusterSize");
	cluster_hist<<<3, 128>>>(in, n, bins);
	TAP(IS(cudaErrorInvalidClusterSize, cudaGetLastError()),
	    "__cluster_dims__(2) in a grid of 3: InvalidClusterSize");
	cudaFree(in);
	cudaFree(bins);
}

// The occupancy API answers what our SMs hold (vgpu_occupancy.h).
static void test_cluster_occupancy(void)
{
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at;
	int sms = 0, per_sm = 0, c = -1;

	OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cluster_regs,
							 1024, 0));
	cfg.gridDim = dim3(64);
	cfg.blockDim = dim3(1024);
	cfg.attrs = &at;
	cfg.numAttrs = 0;
	TAP(OK(cudaOccupancyMaxActiveClusters(&c, (void *)cluster_regs, &cfg)) &&
	    c == 0, "no cluster shape: 0 active clusters (%d)", c);
	at.id = cudaLaunchAttributeClusterDimension;
	at.val.clusterDim.x = 2;
	at.val.clusterDim.y = 1;
	at.val.clusterDim.z = 1;
	cfg.numAttrs = 1;
	TAP(OK(cudaOccupancyMaxActiveClusters(&c, (void *)cluster_regs, &cfg)) &&
	    c == sms * per_sm / 2, "clusters of 2 x 1024 threads: %d (SMs %d x %d / 2)",
	    c, sms, per_sm);
	cfg.numAttrs = 0;
	TAP(OK(cudaOccupancyMaxActiveClusters(&c, (void *)cluster_hist, &cfg)) &&
	    c == sms * per_sm / 2, "__cluster_dims__(2): %d", c);
	OK(cudaFuncSetAttribute(cluster_regs,
				cudaFuncAttributeNonPortableClusterSizeAllowed,
				0));
	cfg.blockDim = dim3(32);
	TAP(OK(cudaOccupancyMaxPotentialClusterSize(&c, (void *)cluster_regs,
						    &cfg)) && c == 8,
	    "potential cluster size of small blocks: %d (8, as on the H100)", c);
	cfg.blockDim = dim3(1024);
	TAP(OK(cudaOccupancyMaxPotentialClusterSize(&c, (void *)cluster_regs,
						    &cfg)) &&
	    c == (sms * per_sm < 8 ? sms * per_sm : 8),
	    "potential cluster size of 1024-thread blocks: %d", c);
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	unsigned *d;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	test_grid_sync();
	test_partitions();
	if (TAP(OK(cudaMalloc(&d, 4096)), "cudaMalloc")) {
		test_cluster_regs(d);
		cudaFree(d);
	}
	test_cluster_hist();
	test_cluster_occupancy();
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
