// SPDX-License-Identifier: GPL-2.0
//
// probe_coop: what an H100 answers for cooperative launches and
// thread-block clusters: the size check of a cooperative launch, the
// errors of bad cluster shapes, the cluster occupancy API, the cluster
// function attributes, the envreg registers a plain and a cooperative
// launch see, and the cluster special registers.
//
// Build: nvcc -cudart shared -arch=sm_90 -o probe_coop probe_coop.cu
// golden/probe_coop.h100.txt is its output on an H100.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void envregs(unsigned *o)
{
	unsigned r1, r2, r0, r3;
	asm volatile("mov.u32 %0, %%envreg0;" : "=r"(r0));
	asm volatile("mov.u32 %0, %%envreg1;" : "=r"(r1));
	asm volatile("mov.u32 %0, %%envreg2;" : "=r"(r2));
	asm volatile("mov.u32 %0, %%envreg3;" : "=r"(r3));
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3;
	}
}

__global__ void gsync(int *o)
{
	cg::grid_group g = cg::this_grid();
	o[0] = g.is_valid();
	g.sync();
}

__global__ void __cluster_dims__(2, 1, 1) fixed2(unsigned *o)
{
	cg::cluster_group c = cg::this_cluster();
	unsigned v;
	asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v));
	if (threadIdx.x == 0)
		o[blockIdx.x] = c.block_rank() | v << 8;
}

__global__ void free_cl(unsigned *o)
{
	unsigned v, r, n, cx, ncx;
	asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v));
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
	asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cx));
	asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncx));
	if (threadIdx.x == 0)
		o[blockIdx.x] = v | r << 4 | n << 8 | cx << 16 | ncx << 24;
}

static void cl_launch(const char *what, void (*k)(unsigned *), unsigned grid,
		      unsigned block, unsigned cx, unsigned cy, unsigned *d)
{
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at[1];
	cudaError_t e, s;

	cfg.gridDim = dim3(grid, 1, 1);
	cfg.blockDim = dim3(block, 1, 1);
	cfg.numAttrs = 0;
	cfg.attrs = at;
	if (cx) {
		at[0].id = cudaLaunchAttributeClusterDimension;
		at[0].val.clusterDim.x = cx;
		at[0].val.clusterDim.y = cy;
		at[0].val.clusterDim.z = 1;
		cfg.numAttrs = 1;
	}
	e = cudaLaunchKernelEx(&cfg, k, d);
	s = cudaDeviceSynchronize();
	cudaGetLastError();
	printf("%s: launch %d sync %d\n", what, (int)e, (int)s);
}

int main()
{
	unsigned *d, h[64];
	int v, n, blocks;
	cudaMalloc(&d, 4096);

	cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, 0);
	printf("cooperativeLaunch %d\n", v);
	cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0);
	printf("clusterLaunch %d\n", v);
	cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0);

	envregs<<<2, 32>>>(d);
	cudaDeviceSynchronize();
	cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
	printf("plain envreg0 %u envreg1!=0 %d envreg2!=0 %d envreg3 %u\n",
	       h[0], h[1] != 0, h[2] != 0, h[3]);
	{
		void *args[] = { &d };
		cudaError_t e = cudaLaunchCooperativeKernel(
			(void *)envregs, dim3(2), dim3(32), args, 0, 0);
		cudaDeviceSynchronize();
		cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
		printf("coop %d envreg0 %u envreg1!=0 %d envreg2!=0 %d envreg3 %u aligned8 %d\n",
		       (int)e, h[0], h[1] != 0, h[2] != 0, h[3],
		       (int)((((unsigned long long)h[1] << 32 | h[2]) & 7) == 0));
	}
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gsync, 1024, 0);
	printf("gsync 1024 blocks/SM %d\n", blocks);
	for (int extra = 0; extra < 2; extra++) {
		void *args[] = { &d };
		cudaError_t e = cudaLaunchCooperativeKernel(
			(void *)gsync, dim3(blocks * n + extra), dim3(1024),
			args, 0, 0);
		cudaError_t s = cudaDeviceSynchronize();
		cudaGetLastError();
		printf("coop grid max+%d: launch %d sync %d\n", extra, (int)e,
		       (int)s);
	}
	{
		void *args[] = { &d };
		cudaError_t e = cudaLaunchCooperativeKernel(
			(void *)gsync, dim3(1), dim3(2048), args, 0, 0);
		cudaGetLastError();
		printf("coop block 2048: %d\n", (int)e);
		e = cudaLaunchCooperativeKernel((void *)gsync, dim3(0), dim3(32),
						args, 0, 0);
		cudaGetLastError();
		printf("coop grid 0: %d\n", (int)e);
	}
	gsync<<<1, 32>>>((int *)d);
	cudaDeviceSynchronize();
	cudaGetLastError();
	cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
	printf("plain launch of grid.sync kernel: is_valid %u sync %d\n", h[0],
	       (int)cudaGetLastError());

	cl_launch("fixed2 plain", fixed2, 4, 32, 0, 0, d);
	cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
	printf("fixed2 ranks %x %x %x %x\n", h[0], h[1], h[2], h[3]);
	cl_launch("fixed2 attr 2", fixed2, 4, 32, 2, 1, d);
	cl_launch("fixed2 attr 4", fixed2, 4, 32, 4, 1, d);
	cl_launch("fixed2 grid 3", fixed2, 3, 32, 0, 0, d);
	cl_launch("free none", free_cl, 4, 32, 0, 0, d);
	cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
	printf("free none regs %x %x %x %x\n", h[0], h[1], h[2], h[3]);
	cl_launch("free 2", free_cl, 4, 32, 2, 1, d);
	cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
	printf("free 2 regs %x %x %x %x\n", h[0], h[1], h[2], h[3]);
	cl_launch("free 3 grid 4", free_cl, 4, 32, 3, 1, d);
	cl_launch("free 8", free_cl, 8, 32, 8, 1, d);
	cl_launch("free 16", free_cl, 16, 32, 16, 1, d);
	cl_launch("free 32", free_cl, 32, 32, 32, 1, d);
	cl_launch("free 0x1", free_cl, 4, 32, 0, 1, d);
	cl_launch("free 2x2 grid 4", free_cl, 4, 32, 2, 2, d);
	cudaFuncSetAttribute(free_cl, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	cl_launch("free 16 nonportable", free_cl, 16, 32, 16, 1, d);
	cl_launch("free 16 nonportable 1024", free_cl, 16, 1024, 16, 1, d);
	{
		cudaFuncAttributes a;
		cudaFuncGetAttributes(&a, fixed2);
		printf("fixed2 attrs mustBeSet %d w %d h %d d %d nonportable %d\n",
		       a.clusterDimMustBeSet, a.requiredClusterWidth,
		       a.requiredClusterHeight, a.requiredClusterDepth,
		       a.nonPortableClusterSizeAllowed);
		cudaFuncGetAttributes(&a, free_cl);
		printf("free attrs mustBeSet %d w %d h %d d %d nonportable %d\n",
		       a.clusterDimMustBeSet, a.requiredClusterWidth,
		       a.requiredClusterHeight, a.requiredClusterDepth,
		       a.nonPortableClusterSizeAllowed);
	}
	{
		cudaLaunchConfig_t cfg = {};
		cudaLaunchAttribute at[1];
		int c = -1;
		cudaError_t e;
		unsigned sizes[] = { 1, 2, 4, 8, 16 };
		unsigned bs[] = { 32, 256, 1024 };

		cfg.attrs = at;
		for (unsigned b = 0; b < 3; b++) {
			cfg.gridDim = dim3(64);
			cfg.blockDim = dim3(bs[b]);
			cfg.numAttrs = 0;
			e = cudaOccupancyMaxPotentialClusterSize(&c, (void *)free_cl, &cfg);
			printf("maxPotentialClusterSize block %u: %d %d\n", bs[b], (int)e, c);
			for (unsigned i = 0; i < 5; i++) {
				at[0].id = cudaLaunchAttributeClusterDimension;
				at[0].val.clusterDim.x = sizes[i];
				at[0].val.clusterDim.y = 1;
				at[0].val.clusterDim.z = 1;
				cfg.numAttrs = 1;
				cfg.gridDim = dim3(16 * sizes[i]);
				c = -1;
				e = cudaOccupancyMaxActiveClusters(&c, (void *)free_cl, &cfg);
				cudaGetLastError();
				printf("maxActiveClusters block %u cluster %u: %d %d\n",
				       bs[b], sizes[i], (int)e, c);
			}
		}
		cfg.numAttrs = 0;
		cfg.blockDim = dim3(128);
		cfg.gridDim = dim3(64);
		e = cudaOccupancyMaxActiveClusters(&c, (void *)fixed2, &cfg);
		printf("maxActiveClusters fixed2 no attr: %d %d\n", (int)e, c);
		e = cudaOccupancyMaxActiveClusters(&c, (void *)free_cl, &cfg);
		printf("maxActiveClusters free no attr: %d %d\n", (int)e, c);
		e = cudaOccupancyMaxPotentialClusterSize(&c, (void *)fixed2, &cfg);
		printf("maxPotentialClusterSize fixed2: %d %d\n", (int)e, c);
	}
	return 0;
}
