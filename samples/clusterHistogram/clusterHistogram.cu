// SPDX-License-Identifier: GPL-2.0
//
// clusterHistogram: a histogram whose bins are spread over the shared
// memory of the blocks of a thread-block cluster (sm_90's distributed
// shared memory).  With clusters of CLUSTER blocks, block r of a cluster
// holds bins [r * BINS / CLUSTER, (r + 1) * BINS / CLUSTER); every thread
// adds its items with atomicAdd into whichever block of its cluster holds
// the bin (cluster.map_shared_rank), so a cluster has BINS shared-memory
// counters without any block holding them all.  cluster.sync() makes
// sure every block has started (its shared memory exists) before the
// first remote access, and that all are done before the counts are
// added to the global histogram.  The cluster shape comes from the
// launch attribute (cudaLaunchKernelEx); the result is checked against a
// CPU histogram.
#include <cooperative_groups.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sample_check.h"

namespace cg = cooperative_groups;

#define BINS 256
#define CLUSTER 4
#define THREADS 128

__global__ void histogram(const unsigned char *in, size_t n, unsigned *bins)
{
	__shared__ unsigned part[BINS / CLUSTER];
	cg::cluster_group cluster = cg::this_cluster();
	const unsigned per = BINS / cluster.num_blocks();

	for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
		part[i] = 0;
	cluster.sync();

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		unsigned bin = in[i];
		unsigned *home = cluster.map_shared_rank(part, bin / per);

		atomicAdd(home + bin % per, 1u);
	}
	cluster.sync();

	for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
		atomicAdd(&bins[cluster.block_rank() * per + i], part[i]);
}

int main(void)
{
	const size_t n = 1 << 20;
	unsigned char *h_in = (unsigned char *)malloc(n), *d_in;
	unsigned want[BINS] = { 0 }, got[BINS], *d_bins;
	int supported = 0, max_clusters = 0;
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute attr;

	CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0));
	if (!supported) {
		printf("the device does not support thread-block clusters\n");
		return sample_result(false);
	}
	for (size_t i = 0; i < n; i++) {
		// a skewed distribution, so that some bins are hot
		unsigned x = (unsigned)(i * 2654435761u);

		h_in[i] = (unsigned char)((x >> 8) % 97 + (x >> 20) % 160);
		want[h_in[i]]++;
	}
	CHECK(cudaMalloc(&d_in, n));
	CHECK(cudaMalloc(&d_bins, sizeof(got)));
	CHECK(cudaMemcpy(d_in, h_in, n, cudaMemcpyHostToDevice));
	CHECK(cudaMemset(d_bins, 0, sizeof(got)));

	attr.id = cudaLaunchAttributeClusterDimension;
	attr.val.clusterDim.x = CLUSTER;
	attr.val.clusterDim.y = 1;
	attr.val.clusterDim.z = 1;
	cfg.gridDim = dim3(8 * CLUSTER);
	cfg.blockDim = dim3(THREADS);
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	CHECK(cudaOccupancyMaxActiveClusters(&max_clusters, (void *)histogram,
					     &cfg));
	printf("%u clusters of %d blocks (%d can be resident at once)\n",
	       cfg.gridDim.x / CLUSTER, CLUSTER, max_clusters);
	CHECK(cudaLaunchKernelEx(&cfg, histogram, (const unsigned char *)d_in,
				 n, d_bins));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(got, d_bins, sizeof(got), cudaMemcpyDeviceToHost));

	int bad = 0;

	for (int b = 0; b < BINS; b++)
		if (got[b] != want[b]) {
			if (bad++ < 5)
				printf("bin %d: GPU %u, CPU %u\n", b, got[b],
				       want[b]);
		}
	printf("%zu bytes into %d bins: %d bins differ from the CPU\n", n,
	       BINS, bad);
	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_bins));
	free(h_in);
	return sample_result(bad == 0 && max_clusters > 0);
}
