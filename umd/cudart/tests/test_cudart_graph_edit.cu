// SPDX-License-Identifier: GPL-2.0
//
// The runtime's calls that change a graph or an executable graph after
// it is made (guest test; umd/cudart/graph_edit.c): destroying a node and
// removing an edge, the memcpy/memset/host setters of graphs and of
// executable graphs (1D forms included), the generic setters, disabling
// nodes, child-graph and event setters of an executable graph, and
// capturing into a graph of the program's own with the dependencies
// changed by hand.  Results are checked against the CPU; the driver's
// answers are compared with an H100's by test_cu_probe_graph_edit.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test_util.h"

#define TAP(cond, ...) ({ bool ok_ = (cond); tap_ok(ok_, __VA_ARGS__); })
#define OK(call) ((call) == cudaSuccess)

#define N 256

// d = d * 2 + k
__global__ void twice_plus(int *d, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		d[i] = d[i] * 2 + k;
}

static cudaGraphNode_t add_twice_plus(cudaGraph_t g, cudaGraphNode_t *dep,
				      int **d, int *k)
{
	cudaKernelNodeParams p = {};
	void *args[] = { d, k };
	cudaGraphNode_t n = NULL;

	p.func = (void *)twice_plus;
	p.gridDim = dim3(N / 64);
	p.blockDim = dim3(64);
	p.kernelParams = args;
	cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &p);
	return n;
}

static cudaMemsetParams memset_of(int *d, int value)
{
	cudaMemsetParams m = {};

	m.dst = d;
	m.value = value;
	m.elementSize = 4;
	m.width = N;
	m.height = 1;
	return m;
}

static bool all_equal(const int *h, int want)
{
	for (int i = 0; i < N; i++)
		if (h[i] != want)
			return false;
	return true;
}

static int host_sum;

static void host_add(void *p)
{
	host_sum += *(int *)p;
}

// memset -> kernel -> copy to host -> host function
static void test_setters(void)
{
	cudaGraph_t g;
	cudaGraphNode_t ms, k, cp, h;
	cudaGraphExec_t e;
	cudaStream_t s;
	int *d, *d2, one = 1, ten = 10, kk = 3;
	static int out[N], out2[N];
	cudaMemsetParams m;
	cudaHostNodeParams hp = { host_add, &one };
	cudaGraphNodeParams gp = {};
	unsigned int en = 9;

	cudaStreamCreate(&s);
	cudaMalloc(&d, N * sizeof(int));
	cudaMalloc(&d2, N * sizeof(int));
	cudaGraphCreate(&g, 0);
	m = memset_of(d, 5);
	cudaGraphAddMemsetNode(&ms, g, NULL, 0, &m);
	k = add_twice_plus(g, &ms, &d, &kk);
	cudaGraphAddMemcpyNode1D(&cp, g, &k, 1, out, d, N * sizeof(int),
				 cudaMemcpyDeviceToHost);
	cudaGraphAddHostNode(&h, g, &cp, 1, &hp);

	m = memset_of(d, 7);
	TAP(OK(cudaGraphMemsetNodeSetParams(ms, &m)), "graph memset set");
	m.elementSize = 3;
	TAP(cudaGraphMemsetNodeSetParams(ms, &m) == cudaErrorInvalidValue,
	    "graph memset of element size 3 refused");
	TAP(cudaGraphMemsetNodeSetParams(k, &m) == cudaErrorInvalidValue,
	    "memset setter on a kernel node refused");
	hp.userData = &ten;
	TAP(OK(cudaGraphHostNodeSetParams(h, &hp)), "graph host set");
	TAP(OK(cudaGraphInstantiate(&e, g, 0)) && OK(cudaGraphLaunch(e, s)) &&
	    OK(cudaStreamSynchronize(s)), "launch");
	TAP(all_equal(out, 7 * 2 + 3) && host_sum == 10,
	    "memset 7, kernel, copy, host +10: %d %d", out[0], host_sum);

	// The executable graph only; the graph keeps its parameters.
	m = memset_of(d2, 1);
	TAP(OK(cudaGraphExecMemsetNodeSetParams(e, ms, &m)),
	    "exec memset set to another allocation");
	gp.type = cudaGraphNodeTypeKernel;
	gp.kernel.func = (void *)twice_plus;
	gp.kernel.gridDim = dim3(N / 64);
	gp.kernel.blockDim = dim3(64);
	{
		int four = 4;
		void *args[] = { &d2, &four };

		gp.kernel.kernelParams = args;
		TAP(OK(cudaGraphExecNodeSetParams(e, k, &gp)),
		    "exec generic kernel set");
	}
	TAP(OK(cudaGraphExecMemcpyNodeSetParams1D(e, cp, out2, d2,
						  N * sizeof(int),
						  cudaMemcpyDeviceToHost)),
	    "exec memcpy 1D set");
	gp.type = cudaGraphNodeTypeMemset;
	TAP(cudaGraphExecNodeSetParams(e, k, &gp) == cudaErrorInvalidValue,
	    "exec generic set of another type refused");
	TAP(OK(cudaGraphLaunch(e, s)) && OK(cudaStreamSynchronize(s)) &&
	    all_equal(out2, 1 * 2 + 4) && host_sum == 20,
	    "exec launch: memset 1, kernel +4 on the other allocation: %d",
	    out2[0]);
	TAP(OK(cudaGraphMemsetNodeGetParams(ms, &m)) && m.value == 7 &&
	    m.dst == d, "the graph's memset is still 7 on the first buffer");
	{
		cudaHostNodeParams got = {};

		TAP(OK(cudaGraphHostNodeGetParams(h, &got)) &&
		    got.fn == host_add && got.userData == &ten,
		    "the graph's host node is the one set");
	}

	// Disabled: the kernel does nothing, the order stays.
	TAP(OK(cudaGraphNodeSetEnabled(e, k, 0)) &&
	    OK(cudaGraphNodeGetEnabled(e, k, &en)) && en == 0,
	    "kernel disabled");
	TAP(cudaGraphNodeSetEnabled(e, h, 0) == cudaErrorInvalidValue,
	    "a host node cannot be disabled");
	TAP(OK(cudaGraphLaunch(e, s)) && OK(cudaStreamSynchronize(s)) &&
	    all_equal(out2, 1), "launch with the kernel disabled: %d",
	    out2[0]);
	TAP(OK(cudaGraphNodeSetEnabled(e, k, 1)) && OK(cudaGraphLaunch(e, s)) &&
	    OK(cudaStreamSynchronize(s)) && all_equal(out2, 6),
	    "enabled again");

	// Taking the copy away leaves host and kernel unordered.
	TAP(OK(cudaGraphRemoveDependencies(g, &k, &cp, NULL, 1)),
	    "remove the kernel -> copy edge");
	TAP(cudaGraphRemoveDependencies(g, &k, &cp, NULL, 1) ==
	    cudaErrorInvalidValue, "removing it again refused");
	TAP(OK(cudaGraphDestroyNode(cp)), "destroy the copy node");
	{
		size_t n = 0;

		cudaGraphGetNodes(g, NULL, &n);
		TAP(n == 3, "3 nodes left: %zu", n);
		n = 0;
		cudaGraphNodeGetDependencies(h, NULL, NULL, &n);
		TAP(n == 0, "the host node depends on nothing now");
	}
	cudaGraphExecDestroy(e);
	cudaGraphDestroy(g);
	cudaFree(d);
	cudaFree(d2);
	cudaStreamDestroy(s);
}

// A child graph and events of an executable graph.
static void test_child_event(void)
{
	cudaGraph_t g, child, child2, big;
	cudaGraphNode_t c, rec;
	cudaGraphExec_t e;
	cudaEvent_t ev, ev2;
	cudaStream_t s;
	int *d, k1 = 1, k2 = 2;
	static int out[N];

	cudaStreamCreate(&s);
	cudaEventCreate(&ev);
	cudaEventCreate(&ev2);
	cudaMalloc(&d, N * sizeof(int));
	cudaMemset(d, 0, N * sizeof(int));
	cudaGraphCreate(&g, 0);
	cudaGraphCreate(&child, 0);
	add_twice_plus(child, NULL, &d, &k1);
	cudaGraphAddChildGraphNode(&c, g, NULL, 0, child);
	cudaGraphAddEventRecordNode(&rec, g, &c, 1, ev);
	TAP(OK(cudaGraphInstantiate(&e, g, 0)), "instantiate");
	cudaGraphCreate(&child2, 0);
	add_twice_plus(child2, NULL, &d, &k2);
	cudaGraphCreate(&big, 0);
	add_twice_plus(big, NULL, &d, &k2);
	add_twice_plus(big, NULL, &d, &k2);
	TAP(OK(cudaGraphExecChildGraphNodeSetParams(e, c, child2)),
	    "exec child set, same shape");
	TAP(cudaGraphExecChildGraphNodeSetParams(e, c, big) ==
	    cudaErrorGraphExecUpdateFailure, "another shape refused");
	TAP(OK(cudaGraphExecEventRecordNodeSetEvent(e, rec, ev2)),
	    "exec record node records another event");
	TAP(OK(cudaGraphLaunch(e, s)) && OK(cudaEventSynchronize(ev2)) &&
	    OK(cudaStreamSynchronize(s)) &&
	    OK(cudaMemcpy(out, d, sizeof(out), cudaMemcpyDeviceToHost)) &&
	    all_equal(out, 2), "the new child ran (0 * 2 + 2): %d", out[0]);
	cudaGraphExecDestroy(e);
	cudaGraphDestroy(big);
	cudaGraphDestroy(child2);
	cudaGraphDestroy(child);
	cudaGraphDestroy(g);
	cudaEventDestroy(ev2);
	cudaEventDestroy(ev);
	cudaFree(d);
	cudaStreamDestroy(s);
}

// Capture into the program's graph, after one of its nodes.
static void test_capture_to_graph(void)
{
	cudaGraph_t g, out = NULL;
	cudaGraphNode_t ms, first;
	cudaGraphExec_t e;
	cudaStream_t s;
	cudaStreamCaptureStatus st;
	const cudaGraphNode_t *deps = NULL;
	size_t n = 0;
	int *d;
	static int h[N];
	cudaMemsetParams m;

	cudaStreamCreate(&s);
	cudaMalloc(&d, N * sizeof(int));
	cudaGraphCreate(&g, 0);
	m = memset_of(d, 1);
	cudaGraphAddMemsetNode(&ms, g, NULL, 0, &m);
	TAP(cudaStreamUpdateCaptureDependencies(s, &ms, NULL, 1, 0) ==
	    cudaErrorIllegalState, "update dependencies without a capture");
	TAP(OK(cudaStreamBeginCaptureToGraph(s, g, &ms, NULL, 1,
					     cudaStreamCaptureModeGlobal)),
	    "begin capture to the graph");
	twice_plus<<<N / 64, 64, 0, s>>>(d, 1);		// 1 -> 3
	TAP(OK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
					&n)) && n == 1,
	    "one leaf after the launch");
	first = deps[0];
	// The next kernel depends on the memset only, then on both.
	TAP(OK(cudaStreamUpdateCaptureDependencies(s, &ms, NULL, 1,
				cudaStreamSetCaptureDependencies)),
	    "set the dependencies to the memset");
	TAP(OK(cudaStreamUpdateCaptureDependencies(s, &first, NULL, 1,
				cudaStreamAddCaptureDependencies)) &&
	    OK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
					&n)) && n == 2,
	    "add the first kernel: two dependencies");
	twice_plus<<<N / 64, 64, 0, s>>>(d, 0);		// 3 -> 6
	TAP(OK(cudaStreamEndCapture(s, &out)) && out == g,
	    "end capture hands back the program's graph");
	n = 0;
	cudaGraphGetNodes(g, NULL, &n);
	TAP(n == 3, "memset and two kernels: %zu nodes", n);
	n = 0;
	cudaGraphGetEdges(g, NULL, NULL, NULL, &n);
	TAP(n == 3, "edges memset->k1, memset->k2, k1->k2: %zu", n);
	TAP(OK(cudaGraphInstantiate(&e, g, 0)) && OK(cudaGraphLaunch(e, s)) &&
	    OK(cudaStreamSynchronize(s)) &&
	    OK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost)) &&
	    all_equal(h, 6), "memset 1, *2+1, *2: %d", h[0]);
	cudaGraphExecDestroy(e);
	cudaGraphDestroy(g);
	cudaFree(d);
	cudaStreamDestroy(s);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	test_setters();
	test_child_event();
	test_capture_to_graph();
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
