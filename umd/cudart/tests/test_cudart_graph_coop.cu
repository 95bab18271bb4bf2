// SPDX-License-Identifier: GPL-2.0
//
// Cooperative and cluster launches as graph kernel nodes (guest test,
// built for sm_90 as programs that use clusters must be):
//
//  - cudaLaunchKernelEx with the cooperative attribute, captured: the
//    node reports the attribute, and the graph's launch runs grid.sync()
//    across the whole grid (checked against the CPU);
//  - cudaLaunchKernelEx with a cluster shape, captured: the node reports
//    it and its blocks see the cluster registers of that shape;
//  - cudaGraphKernelNodeSetAttribute on a node added by hand, its
//    getter, cudaGraphKernelNodeCopyAttributes and cudaGraphClone keeping
//    the attributes, and an executable graph keeping the attributes it
//    was instantiated with;
//  - the errors: a cluster that does not divide the grid, a cooperative
//    grid one block too large, the calls on a node that is not a kernel
//    node or with no value.
//
// Run against NVIDIA's runtime on an H100 with
// tools/cuda-probe/run-tests-on-gpu (recorded in
// tools/cuda-probe/golden/test_cudart_graph_coop.h100.txt: its first
// version, which reached the cooperative cases only; see the README).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

namespace cg = cooperative_groups;

// a[i] += a[(i + 1) % n] in rounds, each needing the whole grid's previous
// round: wrong without a working grid barrier.
__global__ void grid_rounds(int *a, int *b, int n, int rounds)
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

// The cluster registers of each block: explicit, rank, size, id, count.
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

// The only node of @g (which must have one).
static cudaGraphNode_t only_node(cudaGraph_t g)
{
	cudaGraphNode_t n = NULL;
	size_t count = 1;

	if (!OK(cudaGraphGetNodes(g, &n, &count)) || count != 1)
		return NULL;
	return n;
}

// Instantiate, launch, wait; the first error.
static cudaError_t run_graph(cudaGraph_t g, cudaStream_t s)
{
	cudaGraphExec_t e;
	cudaError_t err = cudaGraphInstantiate(&e, g, 0);

	if (err != cudaSuccess)
		return err;
	err = cudaGraphLaunch(e, s);
	if (err == cudaSuccess)
		err = cudaStreamSynchronize(s);
	cudaGraphExecDestroy(e);
	return err;
}

static void test_cooperative(cudaStream_t s)
{
	int sms = 0, per_sm = 0, n, *a, *b, *host, *want, *got;
	const int threads = 128, rounds = 4;
	cudaLaunchAttribute at;
	cudaLaunchAttributeValue v;
	cudaLaunchConfig_t cfg = {};
	cudaGraph_t g = NULL;
	cudaGraphNode_t node;

	OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_rounds,
							 threads, 0));
	n = sms * per_sm * threads;
	host = (int *)malloc(n * sizeof(int));
	want = (int *)malloc(n * sizeof(int));
	got = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		host[i] = want[i] = (i * 7919) % 1000 - 500;
	cpu_rounds(want, n, rounds);
	OK(cudaMalloc(&a, n * sizeof(int)));
	OK(cudaMalloc(&b, n * sizeof(int)));
	OK(cudaMemcpy(a, host, n * sizeof(int), cudaMemcpyHostToDevice));

	at.id = cudaLaunchAttributeCooperative;
	at.val.cooperative = 1;
	cfg.gridDim = dim3(sms * per_sm);
	cfg.blockDim = dim3(threads);
	cfg.stream = s;
	cfg.attrs = &at;
	cfg.numAttrs = 1;
	OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	TAP(OK(cudaLaunchKernelEx(&cfg, grid_rounds, a, b, n, rounds)),
	    "a cooperative cudaLaunchKernelEx is captured");
	OK(cudaStreamEndCapture(s, &g));
	node = g ? only_node(g) : NULL;
	memset(&v, 0xff, sizeof(v));
	TAP(node && OK(cudaGraphKernelNodeGetAttribute(node,
			cudaLaunchAttributeCooperative, &v)) &&
	    v.cooperative == 1, "the captured node is cooperative");
	TAP(node && OK(run_graph(g, s)), "the cooperative graph runs");
	OK(cudaMemcpy(got, a, n * sizeof(int), cudaMemcpyDeviceToHost));
	TAP(!memcmp(got, want, n * sizeof(int)),
	    "grid.sync in a graph: %d rounds over %d threads match the CPU",
	    rounds, n);

	// one block more than fits at once: refused when it is set, and the
	// node keeps what it had (as on the H100)
	if (node) {
		void *args[] = { &a, &b, &n, (void *)&rounds };
		int zero = 0;
		cudaKernelNodeParams p = {};

		p.func = (void *)grid_rounds;
		p.gridDim = dim3(sms * per_sm + 1);
		p.blockDim = dim3(threads);
		p.kernelParams = args;
		TAP(IS(cudaErrorCooperativeLaunchTooLarge,
		       cudaGraphKernelNodeSetParams(node, &p)),
		    "a cooperative node set one block too large");
		TAP(OK(run_graph(g, s)), "the node kept its parameters");
		// not cooperative any more: the larger grid is taken, and runs
		// (no grid.sync rounds, so nothing waits for absent blocks)
		v.cooperative = 0;
		args[3] = &zero;
		TAP(OK(cudaGraphKernelNodeSetAttribute(node,
				cudaLaunchAttributeCooperative, &v)) &&
		    OK(cudaGraphKernelNodeSetParams(node, &p)) &&
		    OK(run_graph(g, s)),
		    "the cooperative attribute cleared: the larger grid runs");
	}
	if (g)
		cudaGraphDestroy(g);
	cudaFree(a);
	cudaFree(b);
	free(host);
	free(want);
	free(got);
}

static bool regs_of_cluster2(unsigned *d)
{
	unsigned h[4];

	// probe_coop.h100.txt "free 2 regs": ranks 0 1 0 1, ids 0 0 1 1
	return OK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost)) &&
	       h[0] == 0x2000201 && h[1] == 0x2000211 &&
	       h[2] == 0x2010201 && h[3] == 0x2010211;
}

static void test_cluster(cudaStream_t s, unsigned *d)
{
	cudaLaunchAttribute at;
	cudaLaunchAttributeValue v;
	cudaLaunchConfig_t cfg = {};
	cudaGraph_t g = NULL, clone = NULL;
	cudaGraphNode_t node, other, cnode = NULL;
	cudaKernelNodeParams p = {};
	void *args[] = { &d };

	cfg.gridDim = dim3(4);
	cfg.blockDim = dim3(32);
	cfg.stream = s;
	at.id = cudaLaunchAttributeClusterDimension;
	at.val.clusterDim.x = 2;
	at.val.clusterDim.y = 1;
	at.val.clusterDim.z = 1;
	cfg.attrs = &at;
	cfg.numAttrs = 1;
	OK(cudaMemsetAsync(d, 0, 16, s));
	OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	TAP(OK(cudaLaunchKernelEx(&cfg, cluster_regs, d)),
	    "a cluster cudaLaunchKernelEx is captured");
	OK(cudaStreamEndCapture(s, &g));
	node = g ? only_node(g) : NULL;
	memset(&v, 0xff, sizeof(v));
	TAP(node && OK(cudaGraphKernelNodeGetAttribute(node,
			cudaLaunchAttributeClusterDimension, &v)) &&
	    v.clusterDim.x == 2 && v.clusterDim.y == 1 && v.clusterDim.z == 1,
	    "the captured node has cluster 2 1 1 (%u %u %u)", v.clusterDim.x,
	    v.clusterDim.y, v.clusterDim.z);
	TAP(node && OK(run_graph(g, s)) && regs_of_cluster2(d),
	    "the captured cluster node runs in clusters of 2");
	if (g)
		cudaGraphDestroy(g);

	// a node added by hand, then given the attribute
	OK(cudaGraphCreate(&g, 0));
	p.func = (void *)cluster_regs;
	p.gridDim = dim3(4);
	p.blockDim = dim3(32);
	p.kernelParams = args;
	OK(cudaGraphAddKernelNode(&node, g, NULL, 0, &p));
	memset(&v, 0xff, sizeof(v));
	TAP(OK(cudaGraphKernelNodeGetAttribute(node,
			cudaLaunchAttributeClusterDimension, &v)) &&
	    v.clusterDim.x == 0 && v.clusterDim.y == 0 && v.clusterDim.z == 0,
	    "a node without the attribute: cluster 0 0 0 (%u %u %u)",
	    v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);
	memset(&v, 0xff, sizeof(v));
	TAP(OK(cudaGraphKernelNodeGetAttribute(node,
			cudaLaunchAttributeCooperative, &v)) &&
	    v.cooperative == 0, "a node without the attribute: not cooperative");
	OK(cudaMemsetAsync(d, 0, 16, s));
	TAP(OK(cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeClusterDimension, &at.val)),
	    "cudaGraphKernelNodeSetAttribute: cluster 2 1 1");
	memset(&v, 0xff, sizeof(v));
	TAP(OK(cudaGraphKernelNodeGetAttribute(node,
			cudaLaunchAttributeClusterDimension, &v)) &&
	    v.clusterDim.x == 2 && v.clusterDim.y == 1 && v.clusterDim.z == 1,
	    "... and its getter");
	TAP(OK(run_graph(g, s)) && regs_of_cluster2(d),
	    "the node runs in clusters of 2");

	// a second node takes the first's attributes
	OK(cudaGraphAddKernelNode(&other, g, &node, 1, &p));
	TAP(OK(cudaGraphKernelNodeCopyAttributes(other, node)) &&
	    OK(cudaGraphKernelNodeGetAttribute(other,
			cudaLaunchAttributeClusterDimension, &v)) &&
	    v.clusterDim.x == 2,
	    "cudaGraphKernelNodeCopyAttributes copies the cluster shape");
	// a clone keeps them
	TAP(OK(cudaGraphClone(&clone, g)) &&
	    OK(cudaGraphNodeFindInClone(&cnode, node, clone)) &&
	    OK(cudaGraphKernelNodeGetAttribute(cnode,
			cudaLaunchAttributeClusterDimension, &v)) &&
	    v.clusterDim.x == 2, "a cloned node keeps its cluster shape");
	if (clone)
		cudaGraphDestroy(clone);

	// an executable graph keeps what it was instantiated with
	{
		cudaGraphExec_t e;
		cudaLaunchAttributeValue bad = at.val;

		OK(cudaGraphInstantiate(&e, g, 0));
		bad.clusterDim.x = 3;
		OK(cudaGraphKernelNodeSetAttribute(node,
				cudaLaunchAttributeClusterDimension, &bad));
		OK(cudaGraphKernelNodeSetAttribute(other,
				cudaLaunchAttributeClusterDimension, &bad));
		OK(cudaMemsetAsync(d, 0, 16, s));
		TAP(OK(cudaGraphLaunch(e, s)) &&
		    OK(cudaStreamSynchronize(s)) && regs_of_cluster2(d),
		    "the executable graph keeps cluster 2");
		cudaGraphExecDestroy(e);
		// cluster 3 does not divide a grid of 4
		cudaError_t err = run_graph(g, s);

		TAP(err == cudaErrorInvalidClusterSize,
		    "cluster 3 in a grid of 4: %s", cudaGetErrorName(err));
		cudaGetLastError();
	}

	// the errors of the calls themselves
	{
		cudaGraphNode_t empty;

		OK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
		TAP(IS(cudaErrorInvalidValue,
		       cudaGraphKernelNodeGetAttribute(empty,
				cudaLaunchAttributeClusterDimension, &v)),
		    "get on an empty node: cudaErrorInvalidValue");
		TAP(IS(cudaErrorInvalidValue,
		       cudaGraphKernelNodeSetAttribute(empty,
				cudaLaunchAttributeCooperative, &v)),
		    "set on an empty node: cudaErrorInvalidValue");
		TAP(IS(cudaErrorInvalidValue,
		       cudaGraphKernelNodeCopyAttributes(node, empty)),
		    "copy from an empty node: cudaErrorInvalidValue");
		TAP(IS(cudaErrorInvalidValue,
		       cudaGraphKernelNodeGetAttribute(node,
				cudaLaunchAttributeCooperative, NULL)),
		    "get with no value: cudaErrorInvalidValue");
		cudaGetLastError();
	}
	cudaGraphDestroy(g);
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	cudaStream_t s;
	unsigned *d;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	test_cooperative(s);
	if (TAP(OK(cudaMalloc(&d, 4096)), "cudaMalloc")) {
		test_cluster(s, d);
		cudaFree(d);
	}
	cudaStreamDestroy(s);
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
