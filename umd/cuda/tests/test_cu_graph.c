// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_graph.c - CUDA graphs through the driver API: graphs built
 * node by node and by stream capture, launched and checked against a
 * CPU reference, and the errors of both.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_test.h"

#define N	4096

struct graph_fixture_kernels {
	CUmodule m;
	CUfunction add;		/* vec_add(a, b, c, n): c = a + b */
	CUfunction scale;	/* scale_by_const(d, n): d = d * 3 + 7 */
};

static CUresult load_kernels(struct graph_fixture_kernels *k)
{
	CUresult r = cuModuleLoad(&k->m, DRV_PTX);

	if (r == CUDA_SUCCESS)
		r = cuModuleGetFunction(&k->add, k->m, "vec_add");
	if (r == CUDA_SUCCESS)
		r = cuModuleGetFunction(&k->scale, k->m, "scale_by_const");
	return r;
}

static CUDA_KERNEL_NODE_PARAMS add_params(CUfunction f, void **args)
{
	return (CUDA_KERNEL_NODE_PARAMS){
		.func = f,
		.gridDimX = (N + 255) / 256, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 256, .blockDimY = 1, .blockDimZ = 1,
		.kernelParams = args,
	};
}

/* A 1D copy as a graph memcpy node describes it. */
static CUDA_MEMCPY3D copy_1d(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
	return (CUDA_MEMCPY3D){
		.srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = src,
		.dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = dst,
		.WidthInBytes = bytes, .Height = 1, .Depth = 1,
	};
}

static void fill(float *v, float base)
{
	for (int i = 0; i < N; i++)
		v[i] = base + (float)(i % 97);
}

/*
 * The diamond of the programming guide, built with the graph API:
 *
 *   copy x in -> A: a = x + y -> B: b = a + x -> D: d = b + c -> copy out
 *                             \-> C: c = a + y -/
 *
 * The arguments are variables changed after the nodes were added: the
 * graph must use the values they had then (CUDA copies kernelParams).
 */
TEST(diamond_explicit)
{
	struct graph_fixture_kernels k;
	CUcontext ctx;
	CUgraph g;
	CUgraphExec ge;
	CUgraphNode in, na, nb, nc, nd, out, deps[2], roots[4], all[8];
	CUdeviceptr bufs[6], x, y, a, b, c, d;
	float *hx, *hy = malloc(N * sizeof(float));
	float *hd = malloc(N * sizeof(float));
	int n = N;
	void *pa[] = { &x, &y, &a, &n }, *pb[] = { &a, &x, &b, &n };
	void *pc[] = { &a, &y, &c, &n }, *pd[] = { &b, &c, &d, &n };
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMCPY3D cp;
	CUgraphNodeType type;
	size_t count;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, load_kernels(&k));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost((void **)&hx, N * sizeof(float)));
	for (int i = 0; i < 6; i++)
		ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&bufs[i], N * sizeof(float)));
	x = bufs[0];
	y = bufs[1];
	a = bufs[2];
	b = bufs[3];
	c = bufs[4];
	d = bufs[5];
	fill(hx, 1.0f);
	fill(hy, 0.5f);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(y, hy, N * sizeof(float)));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	cp = copy_1d(x, (CUdeviceptr)(uintptr_t)hx, N * sizeof(float));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemcpyNode(&in, g, NULL, 0, &cp, ctx));
	kp = add_params(k.add, pa);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&na, g, &in, 1, &kp));
	kp = add_params(k.add, pb);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&nb, g, NULL, 0, &kp));
	kp = add_params(k.add, pc);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&nc, g, NULL, 0, &kp));
	kp = add_params(k.add, pd);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&nd, g, NULL, 0, &kp));
	/* Edges added afterwards, as in the guide. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddDependencies(g, &na, &nb, NULL, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddDependencies(g, &na, &nc, NULL, 1));
	deps[0] = nb;
	deps[1] = nc;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddDependencies(g, deps,
			(CUgraphNode[]){ nd, nd }, NULL, 2));
	cp = copy_1d((CUdeviceptr)(uintptr_t)hd, d, N * sizeof(float));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemcpyNode(&out, g, &nd, 1, &cp, ctx));

	/* Structure queries. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetNodes(g, NULL, &count));
	ASSERT_EQ(6u, count);
	count = 8;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetNodes(g, all, &count));
	ASSERT_EQ(6u, count);
	ASSERT_EQ(in, all[0]);
	ASSERT_EQ(NULL, all[6]);
	count = 4;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetRootNodes(g, roots, &count));
	ASSERT_EQ(1u, count);
	ASSERT_EQ(in, roots[0]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetType(nd, &type));
	ASSERT_EQ(CU_GRAPH_NODE_TYPE_KERNEL, type);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetType(out, &type));
	ASSERT_EQ(CU_GRAPH_NODE_TYPE_MEMCPY, type);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphMemcpyNodeGetParams(out, &cp));
	ASSERT_EQ(d, cp.srcDevice);
	ASSERT_EQ(N * sizeof(float), cp.WidthInBytes);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetDependencies(nd, NULL, NULL,
							   &count));
	ASSERT_EQ(2u, count);

	/* The arguments were copied: clobbering them changes nothing. */
	x = y = a = b = c = d = 0;
	n = 0;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphKernelNodeGetParams(na, &kp));
	ASSERT_EQ(k.add, kp.func);
	ASSERT_EQ(N, *(int *)kp.kernelParams[3]);

	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	memset(hd, 0, N * sizeof(float));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(NULL));
	for (int i = 0; i < N; i++)
		ASSERT_EQ(3.0f * (hx[i] + hy[i]), hd[i]);

	/* The executable graph is a snapshot: destroying the graph is fine. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	fill(hx, 10.0f);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	for (int i = 0; i < N; i++)
		ASSERT_EQ(3.0f * (hx[i] + hy[i]), hd[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	for (int i = 0; i < 6; i++)
		ASSERT_EQ(CUDA_SUCCESS, cuMemFree(bufs[i]));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(hx));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(k.m));
	free(hy);
	free(hd);
}

/*
 * One graph launched many times, each launch building on the previous:
 * d = d * 3 + 7, launched 5 times, twice per graph (two kernel nodes in
 * a chain).  Launches are ordered in their stream like any other work,
 * and a memset before them in the same stream happens first.
 */
TEST(repeated_launches)
{
	struct graph_fixture_kernels k;
	CUcontext ctx;
	CUgraph g;
	CUgraphExec ge;
	CUgraphNode k1, k2;
	CUstream s;
	CUdeviceptr d;
	int n = N, *host = malloc(N * sizeof(int)), ref[N];
	void *args[] = { &d, &n };
	CUDA_KERNEL_NODE_PARAMS kp;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, load_kernels(&k));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	kp = add_params(k.scale, args);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&k1, g, NULL, 0, &kp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&k2, g, &k1, 1, &kp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiateWithFlags(&ge, g, 0));

	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 1, N, s));
	for (int i = 0; i < N; i++)
		ref[i] = 1;
	for (int l = 0; l < 5; l++) {
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, s));
		for (int i = 0; i < N; i++)
			ref[i] = (ref[i] * 3 + 7) * 3 + 7;
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(host, d, N * sizeof(int), s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(0, memcmp(ref, host, sizeof(ref)));

	/* Changing the executable graph's node: now only d = d * 3 + 7
	 * on the first n / 2 elements. */
	n = N / 2;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecKernelNodeSetParams(ge, k1, &kp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	for (int i = 0; i < N; i++)
		ref[i] = i < N / 2 ? ref[i] * 3 + 7 : ref[i];
	for (int i = 0; i < N; i++)
		ref[i] = ref[i] * 3 + 7;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(host, d, N * sizeof(int), s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(0, memcmp(ref, host, sizeof(ref)));
	/* Not a kernel node of this executable graph. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphExecKernelNodeSetParams(ge, NULL, &kp));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(k.m));
	free(host);
}

/* Host nodes: called in graph order, after the work they depend on. */
struct host_log {
	int calls[8];
	int seen[8];		/* what the pinned result held at the call */
	int n;
	volatile int *result;
};

static void CUDA_CB log_call(void *p)
{
	struct host_log *log = p;

	log->seen[log->n] = log->result[0];
	log->calls[log->n] = log->n;
	log->n++;
}

TEST(host_nodes_order)
{
	struct graph_fixture_kernels k;
	struct host_log log = { .n = 0 };
	CUcontext ctx;
	CUgraph g;
	CUgraphExec ge;
	CUgraphNode h1, set, k1, h2, e, h3;
	CUDA_HOST_NODE_PARAMS hp = { .fn = log_call, .userData = &log };
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_KERNEL_NODE_PARAMS kp;
	int *pinned, n = 1;
	CUdeviceptr dp;
	void *args[] = { &dp, &n };

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, load_kernels(&k));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost((void **)&pinned, 64));
	dp = (CUdeviceptr)(uintptr_t)pinned;
	pinned[0] = -1;
	log.result = pinned;
	mp = (CUDA_MEMSET_NODE_PARAMS){ .dst = dp, .value = 5,
		.elementSize = 4, .width = 1, .height = 1 };

	/* h1 -> memset(5) -> h2 -> kernel (5*3+7 = 22) -> empty -> h3 */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddHostNode(&h1, g, NULL, 0, &hp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&set, g, &h1, 1, &mp, ctx));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddHostNode(&h2, g, &set, 1, &hp));
	kp = add_params(k.scale, args);
	kp.gridDimX = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&k1, g, &h2, 1, &kp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&e, g, &k1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddHostNode(&h3, g, &e, 1, &hp));
	/* The parameters as the nodes hold them. */
	CUDA_MEMSET_NODE_PARAMS mq;
	CUDA_HOST_NODE_PARAMS hq;

	ASSERT_EQ(CUDA_SUCCESS, cuGraphMemsetNodeGetParams(set, &mq));
	ASSERT_EQ(0, memcmp(&mp, &mq, sizeof(mp)));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphHostNodeGetParams(h2, &hq));
	ASSERT_TRUE(hq.fn == log_call);
	ASSERT_EQ(&log, hq.userData);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphHostNodeGetParams(set, &hq));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	ASSERT_EQ(0, log.n);		/* nothing ran yet */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(3, log.n);
	ASSERT_EQ(-1, log.seen[0]);
	ASSERT_EQ(5, log.seen[1]);
	ASSERT_EQ(22, log.seen[2]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(pinned));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(k.m));
}

/*
 * The guide's capture: s1 forks into s2 through an event, both run
 * kernels, s2 joins back, then the result is copied out.  The captured
 * operations must not run during capture; the graph then runs on a
 * third stream, twice, with new input each time.
 */
TEST(capture_fork_join)
{
	struct graph_fixture_kernels k;
	CUcontext ctx;
	CUstream s1, s2, s3;
	CUevent fork, join;
	CUgraph g;
	CUgraphExec ge;
	CUdeviceptr x, b, c, d;
	float *hx, *hd;
	int n = N;
	void *pb[] = { &x, &x, &b, &n }, *pc[] = { &x, &c, &c, &n };
	void *pd[] = { &b, &c, &d, &n };
	CUstreamCaptureStatus st;
	cuuint64_t id;
	CUgraph cg;
	const CUgraphNode *leaves;
	size_t count;
	int grid = (N + 255) / 256;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, load_kernels(&k));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost((void **)&hx, N * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost((void **)&hd, N * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&x, N * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, N * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&c, N * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s1, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
	for (int i = 0; i < N; i++)
		hd[i] = -1.0f;

	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s1,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s1, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, st);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s2, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoDAsync(x, hx, N * sizeof(float), s1));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(fork, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(s2, fork, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s2, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, st);
	/* s1: b = x + x; s2: c = 2 (memset), then c = x + c. */
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(k.add, grid, 1, 1, 256, 1, 1, 0,
					       s1, pb, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(c, 0x40000000u /* 2.0f */,
						 N, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(k.add, grid, 1, 1, 256, 1, 1, 0,
					       s2, pc, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(join, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(s1, join, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(k.add, grid, 1, 1, 256, 1, 1, 0,
					       s1, pd, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetCaptureInfo(s1, &st, &id, &cg,
						       &leaves, NULL, &count));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, st);
	ASSERT_EQ(1u, count);		/* the last kernel */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(hd, d, N * sizeof(float), s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	ASSERT_NE(NULL, g);
	ASSERT_EQ(cg, g);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s2, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);
	/* Recorded, not executed. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(-1.0f, hd[0]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetNodes(g, NULL, &count));
	ASSERT_EQ(6u, count);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetRootNodes(g, NULL, &count));
	/* The copy in: the memset on s2 comes after the fork. */
	ASSERT_EQ(1u, count);

	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	for (int l = 0; l < 2; l++) {
		fill(hx, (float)l * 100.0f);
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, s3));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s3));
		for (int i = 0; i < N; i++)
			ASSERT_EQ(hx[i] + hx[i] + (hx[i] + 2.0f), hd[i]);
	}
	/* The streams work normally after the capture. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 0, N, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(hd, d, N * sizeof(float), s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s1));
	ASSERT_EQ(0.0f, hd[N - 1]);

	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(fork));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(join));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s2));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s3));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(hx));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(hd));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(k.m));
}

/* A host function launched into a capturing stream is a host node. */
static void CUDA_CB count_call(void *p)
{
	(*(int *)p)++;
}

TEST(capture_host_func)
{
	CUcontext ctx;
	CUstream s;
	CUgraph g;
	CUgraphExec ge;
	CUgraphNodeType type;
	CUgraphNode node;
	size_t count = 1;
	int calls = 0;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, count_call, &calls));
	ASSERT_EQ(0, calls);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetNodes(g, &node, &count));
	ASSERT_EQ(1u, count);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetType(node, &type));
	ASSERT_EQ(CU_GRAPH_NODE_TYPE_HOST, type);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	for (int l = 0; l < 3; l++)
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(3, calls);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/*
 * The per-thread default stream is a regular stream: it may capture
 * (the programming guide: any stream but the legacy one).
 */
TEST(capture_per_thread_stream)
{
	const unsigned int n = 4096;
	unsigned int *host = calloc(n, 4);
	CUstreamCaptureStatus st;
	CUcontext ctx;
	CUdeviceptr d;
	CUgraph g;
	CUgraphExec ge;

	ASSERT_NE(NULL, host);
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n * 4));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(CU_STREAM_PER_THREAD,
					CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(CU_STREAM_PER_THREAD, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, st);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 0x5a5a, n,
						 CU_STREAM_PER_THREAD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(CU_STREAM_PER_THREAD, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, CU_STREAM_PER_THREAD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, d, n * 4));
	for (unsigned int i = 0; i < n; i++)
		ASSERT_EQ(0x5a5au, host[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	free(host);
}

/* What may not happen while a stream captures, and what it does. */
TEST(capture_illegal_operations)
{
	CUcontext ctx;
	CUstream s, other, nb;
	CUgraph g = (CUgraph)1;
	CUstreamCaptureStatus st;
	CUdeviceptr d;
	int host[4];

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&other, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(host)));

	/* Ending a capture that never began; capturing the legacy stream. */
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
		  cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamBeginCapture(s, (CUstreamCaptureMode)7));

	/* A synchronous copy uses the legacy stream: implicit dependency. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_STATE,
		  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	/* Asking about the legacy stream is refused but harms nothing. */
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
		  cuStreamIsCapturing(NULL, &st));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, st);
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
		  cuMemcpyDtoH(host, d, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, st);
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuMemsetD32Async(d, 1, 4, s));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));
	ASSERT_EQ(NULL, g);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);

	/* Synchronising the capturing stream, or the context. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamSynchronize(s));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(s));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuCtxSynchronize());
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));

	/*
	 * A non-blocking stream does not synchronise with the legacy one:
	 * the legacy stream stays usable while it captures, and another
	 * stream takes work normally.  But waiting for (or querying)
	 * another stream is an unsafe call in a global capture: refused,
	 * and the capture is lost (as on an H100).
	 */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(nb,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 9, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 3, 2, nb));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, d, sizeof(host)));
	ASSERT_EQ(9, host[0]);		/* the captured memset did not run */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 4, 1, other));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
		  cuStreamSynchronize(other));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(nb, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, st);
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(nb, &g));
	ASSERT_EQ(NULL, g);
	/* The work of the other stream was not lost. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, d, sizeof(host)));
	ASSERT_EQ(4, host[0]);
	ASSERT_EQ(9, host[1]);

	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(other));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(nb));
}

/* Ending a capture from another thread: only relaxed captures allow it. */
struct end_capture_call {
	CUcontext ctx;
	CUstream s;
	CUgraph g;
	CUresult res;
};

static void *end_capture_thread(void *p)
{
	struct end_capture_call *c = p;

	cuCtxSetCurrent(c->ctx);
	c->res = cuStreamEndCapture(c->s, &c->g);
	return NULL;
}

TEST(capture_end_other_thread)
{
	struct end_capture_call c = { .g = (CUgraph)1 };
	CUstreamCaptureStatus st;
	pthread_t t;
	CUgraph g = NULL;

	CU_SETUP(&c.ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&c.s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(c.s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, pthread_create(&t, NULL, end_capture_thread, &c));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, c.res);
	ASSERT_EQ(NULL, c.g);
	/* The attempt ended the capture: nothing is left to end. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(c.s, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(c.s, &g));
	ASSERT_EQ(NULL, g);

	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(c.s,
					CU_STREAM_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(0, pthread_create(&t, NULL, end_capture_thread, &c));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(CUDA_SUCCESS, c.res);
	ASSERT_NE(NULL, c.g);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(c.g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(c.s));
}

/* Allocating memory in another thread while this one captures. */
struct alloc_call {
	CUcontext ctx;
	CUresult res;
};

static void *alloc_thread(void *p)
{
	struct alloc_call *c = p;
	CUdeviceptr d;

	cuCtxSetCurrent(c->ctx);
	c->res = cuMemAlloc(&d, 256);
	if (c->res == CUDA_SUCCESS)
		cuMemFree(d);
	return NULL;
}

/*
 * "Potentially unsafe" calls during a capture, by the capture modes: a
 * thread may not allocate while it captures (unless relaxed), nor while
 * any thread captures in the global mode (unless its own mode, set with
 * cuThreadExchangeStreamCaptureMode, is not global).
 */
TEST(capture_modes_unsafe_calls)
{
	struct alloc_call c;
	CUstreamCaptureMode mode;
	CUstream s;
	CUgraph g;
	CUdeviceptr d;
	pthread_t t;

	CU_SETUP(&c.ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuMemAlloc(&d, 256));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));

	/* Another thread, global capture: refused there too. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, pthread_create(&t, NULL, alloc_thread, &c));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, c.res);
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));

	/* A thread-local capture concerns its own thread only. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(0, pthread_create(&t, NULL, alloc_thread, &c));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(CUDA_SUCCESS, c.res);
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuMemAlloc(&d, 256));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s, &g));

	/* A relaxed capture forbids nothing. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 256));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));

	/* The thread's mode is stored unchecked (as NVIDIA's driver does). */
	mode = (CUstreamCaptureMode)9;
	ASSERT_EQ(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&mode));
	ASSERT_EQ(CU_STREAM_CAPTURE_MODE_GLOBAL, mode);
	ASSERT_EQ(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&mode));
	ASSERT_EQ(9, (int)mode);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuThreadExchangeStreamCaptureMode(NULL));

	/* A thread whose own mode is relaxed may make unsafe calls. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	mode = CU_STREAM_CAPTURE_MODE_RELAXED;
	ASSERT_EQ(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&mode));
	ASSERT_EQ(CU_STREAM_CAPTURE_MODE_GLOBAL, mode);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 256));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&mode));
	ASSERT_EQ(CU_STREAM_CAPTURE_MODE_RELAXED, mode);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* Waiting for a stream in another thread while this one captures. */
struct sync_call {
	CUcontext ctx;
	CUstream s;
	CUresult res;
};

static void *sync_thread(void *p)
{
	struct sync_call *c = p;

	cuCtxSetCurrent(c->ctx);
	c->res = cuStreamSynchronize(c->s);
	return NULL;
}

/*
 * Synchronising with or querying a stream that does not capture is an
 * unsafe call too (recorded on an H100 for this thread's captures): in
 * a global or thread-local capture it is refused and loses the capture,
 * in a relaxed one it works.  Another thread is held to the rules of
 * cuMemAlloc: refused while any thread captures in global mode.
 */
TEST(capture_modes_sync_other_stream)
{
	static const CUstreamCaptureMode strict[] = {
		CU_STREAM_CAPTURE_MODE_GLOBAL,
		CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
	};
	struct sync_call c;
	CUstreamCaptureStatus st;
	CUstream nb;
	CUgraph g;
	pthread_t t;

	CU_SETUP(&c.ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&c.s, 0));

	for (size_t i = 0; i < sizeof(strict) / sizeof(strict[0]); i++) {
		ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(nb, strict[i]));
		ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
			  cuStreamQuery(c.s));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(nb, &st));
		ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, st);
		ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
			  cuStreamSynchronize(c.s));
		g = (CUgraph)1;
		ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
			  cuStreamEndCapture(nb, &g));
		ASSERT_EQ(NULL, g);
	}

	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(nb,
					CU_STREAM_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(c.s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamQuery(c.s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(nb, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));

	/* Another thread: a thread-local capture is not its business... */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(nb,
					CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(0, pthread_create(&t, NULL, sync_thread, &c));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(CUDA_SUCCESS, c.res);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(nb, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	/* ...a global one is. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(nb,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, pthread_create(&t, NULL, sync_thread, &c));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, c.res);
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(nb, &g));

	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(c.s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(nb));
}

/* Cross-stream captures that do not fit together. */
TEST(capture_join_errors)
{
	CUcontext ctx;
	CUstream s1, s2, s3;
	CUevent ev, ev2, plain;
	CUgraph g = (CUgraph)1;
	CUstreamCaptureStatus st;
	CUdeviceptr d;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s1, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s3, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&plain, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 64));

	/* A forked stream that never joins back: unjoined. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s1,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, s1));
	/* A captured event stands for nodes: nothing to query or wait for. */
	ASSERT_EQ(CUDA_ERROR_CAPTURED_EVENT, cuEventQuery(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s1, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, st);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuEventSynchronize(ev));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s1, &g));

	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s1,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 1, 16, s2));
	/* Only the stream that began the capture ends it. */
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
		  cuStreamEndCapture(s2, &g));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s1, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s2, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);

	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s1,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 1, 16, s2));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
		  cuStreamEndCapture(s1, &g));
	ASSERT_EQ(NULL, g);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s2, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);

	/* Two separate captures cannot be merged, and an event recorded
	 * outside any capture cannot be waited for (isolation). */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s1,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s3,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev2, s3));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_MERGE,
		  cuStreamWaitEvent(s1, ev2, 0));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s1, &g));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s3, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(plain, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s1,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
		  cuStreamWaitEvent(s1, plain, 0));
	ASSERT_EQ(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
		  cuStreamEndCapture(s1, &g));

	/* Destroying a stream in the middle of its capture. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s3,
					CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 1, 16, s3));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s3));

	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev2));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(plain));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
}

/* Bad graphs, nodes and handles. */
TEST(graph_errors)
{
	CUcontext ctx;
	CUgraph g, g2, dead;
	CUgraphExec ge, dead_exec;
	CUgraphNode a, b, c, other, dead_node;
	CUgraphNodeType type;
	CUDA_HOST_NODE_PARAMS hp = { .fn = NULL };
	CUDA_MEMSET_NODE_PARAMS mp = { .dst = 0x1000, .elementSize = 3,
		.width = 1, .height = 1 };
	CUDA_KERNEL_NODE_PARAMS kp = { .func = NULL };
	size_t count;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(NULL, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(&g, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&a, g, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&b, g, &a, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&c, g, &b, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&other, g2, NULL, 0));

	/* Parameters a node cannot have. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddHostNode(&dead_node, g, NULL, 0, &hp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddMemsetNode(&dead_node, g, NULL, 0, &mp, ctx));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuGraphAddKernelNode(&dead_node, g, NULL, 0, &kp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddEmptyNode(NULL, g, NULL, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddEmptyNode(&dead_node, g, NULL, 1));
	/* Dependencies on a node of another graph. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddEmptyNode(&dead_node, g, &other, 1));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddDependencies(g, &other, &a, NULL, 1));
	/* An edge that exists, a node depending on itself. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddDependencies(g, &a, &b, NULL, 1));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddDependencies(g, &a, &a, NULL, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetNodes(g, NULL, &count));
	ASSERT_EQ(3u, count);		/* the failed adds added nothing */

	/* A cycle a -> b -> c -> a has no order: not instantiable. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddDependencies(g, &c, &a, NULL, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetRootNodes(g, NULL, &count));
	ASSERT_EQ(0u, count);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&ge, g, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&ge, g2, 1ull << 40));

	/* Handles that are gone. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&dead_exec, g2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(dead_exec));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(dead_exec));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(dead_exec, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&dead, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&dead_node, dead, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(dead));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(dead));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(dead, NULL, &count));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(dead_node, &type));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddEmptyNode(&dead_node, dead, NULL, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeGetParams(a, &kp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(g, NULL, NULL));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g2));
}

/* The driver API by name, as the runtime finds it. */
TEST(proc_address)
{
	void *fn = NULL;
	CUdriverProcAddressQueryResult q;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuGraphLaunch", &fn, 13000,
						 0, &q));
	ASSERT_EQ((void *)cuGraphLaunch, fn);
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuStreamBeginCapture", &fn,
						 13000, 0, &q));
	ASSERT_EQ((void *)cuStreamBeginCapture, fn);
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuGraphAddKernelNode", &fn,
						 13000, 0, &q));
	ASSERT_EQ((void *)cuGraphAddKernelNode, fn);
}

CUDA_TEST_MAIN
