// SPDX-License-Identifier: GPL-2.0
//
// Kernels of test_ptx_coop: a grid-wide barrier (cooperative groups'
// grid.sync(), %envreg1:%envreg2 and the arrival counter), and on sm_90
// thread-block clusters (the cluster registers, barrier.cluster, mapa and
// atomics in another block's shared memory).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Rounds of a[i] = a[i] + a[(i + 1) % n]: each needs the grid's last.
extern "C" __global__ void grid_rounds(int *a, int *b, int n, int rounds)
{
	cg::grid_group g = cg::this_grid();
	unsigned long long i = g.thread_rank();

	for (int r = 0; r < rounds; r++) {
		if (i < (unsigned)n)
			b[i] = a[i] + a[(i + 1) % n];
		g.sync();
		if (i < (unsigned)n)
			a[i] = b[i];
		g.sync();
	}
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// Every cluster register of block (x, y, z), 12 words per block.
extern "C" __global__ void cluster_regs(unsigned *o)
{
	cg::cluster_group c = cg::this_cluster();
	unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x +
		     blockIdx.x;
	unsigned *p = o + b * 12;
	unsigned v[12];

	asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[0]));
	asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[1]));
	asm("mov.u32 %0, %%clusterid.z;" : "=r"(v[2]));
	asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[3]));
	asm("mov.u32 %0, %%nclusterid.z;" : "=r"(v[4]));
	asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[5]));
	asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[6]));
	asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v[7]));
	asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[8]));
	asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[9]));
	asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; "
	    "selp.u32 %0, 1, 0, p; }" : "=r"(v[10]));
	v[11] = c.block_rank() == v[8] && c.num_blocks() == v[9];
	if (threadIdx.x == 0)
		for (int k = 0; k < 12; k++)
			p[k] = v[k];
}

#define BINS 64

// A histogram in distributed shared memory: bin k lives in the block of
// rank k / (BINS / cluster size).
extern "C" __global__ void cluster_hist(const int *in, int n, int *bins)
{
	__shared__ int smem[BINS];
	cg::cluster_group cl = cg::this_cluster();
	int per = BINS / (int)cl.num_blocks();

	for (int i = threadIdx.x; i < per; i += blockDim.x)
		smem[i] = 0;
	cl.sync();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		int k = in[i] % BINS;

		atomicAdd(cl.map_shared_rank(smem, k / per) + k % per, 1);
	}
	cl.sync();
	for (int i = threadIdx.x; i < per; i += blockDim.x)
		atomicAdd(&bins[(int)cl.block_rank() * per + i], smem[i]);
}

// Each block writes its rank into its right neighbour's shared memory
// through a 32-bit shared::cluster address (mapa.shared::cluster,
// st.shared::cluster), then reads back what its left neighbour wrote.
extern "C" __global__ void cluster_ring(unsigned *o)
{
	__shared__ unsigned slot;
	unsigned rank, n, mine, dst, got;

	asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
	asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
	asm("barrier.cluster.arrive; barrier.cluster.wait;");
	asm("mov.u32 %0, %1;" : "=r"(mine) : "r"((unsigned)__cvta_generic_to_shared(&slot)));
	asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(dst) : "r"(mine), "r"((rank + 1) % n));
	if (threadIdx.x == 0)
		asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(dst), "r"(rank + 100));
	asm volatile("barrier.cluster.arrive.release; barrier.cluster.wait.acquire;" ::: "memory");
	asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(got) : "r"(mine));
	asm("getctarank.shared::cluster.u32 %0, %1;" : "=r"(dst) : "r"(dst));
	if (threadIdx.x == 0)
		o[blockIdx.x] = got | dst << 16;
	asm volatile("barrier.cluster.arrive; barrier.cluster.wait;");
}
#endif
