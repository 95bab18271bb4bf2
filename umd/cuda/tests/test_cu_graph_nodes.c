// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_graph_nodes.c - the rest of the graph API through the driver:
 * child-graph and event nodes, clones, cuGraphExecUpdate, instantiation
 * flags and upload, user objects, cuGraphDebugDotPrint, graph memory
 * (allocation and free nodes, captured cuMemAllocAsync, the footprint,
 * trim) and conditional nodes decided by their handles' defaults.  Each
 * result is checked against a CPU computation; error codes are those an
 * H100 gives (tools/cuda-probe/golden/probe_graphs.h100.txt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_test.h"

#define N	1024

/* scale_by_const(d, n): d = d * 3 + 7 (drv_kernels.cu). */
static CUfunction load_scale(CUmodule *m)
{
	CUfunction f = NULL;

	if (cuModuleLoad(m, DRV_PTX) == CUDA_SUCCESS)
		cuModuleGetFunction(&f, *m, "scale_by_const");
	return f;
}

static int scale_cpu(int v, int times)
{
	while (times--)
		v = v * 3 + 7;
	return v;
}

static CUresult add_scale(CUgraphNode *node, CUgraph g, const CUgraphNode *deps,
			  size_t ndeps, CUfunction f, CUdeviceptr *p, int *n)
{
	void *args[] = { p, n };
	CUDA_KERNEL_NODE_PARAMS k = {
		.func = f,
		.gridDimX = (N + 127) / 128, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 128, .blockDimY = 1, .blockDimZ = 1,
		.kernelParams = args,
	};

	return cuGraphAddKernelNode(node, g, deps, ndeps, &k);
}

static CUDA_MEMSET_NODE_PARAMS memset_params(CUdeviceptr p, unsigned int v)
{
	return (CUDA_MEMSET_NODE_PARAMS){
		.dst = p, .value = v, .elementSize = 4, .width = N, .height = 1,
	};
}

static bool all_equal(CUdeviceptr p, int want)
{
	int *h = malloc(N * sizeof(int));
	bool ok = h && cuMemcpyDtoH(h, p, N * sizeof(int)) == CUDA_SUCCESS;

	for (int i = 0; ok && i < N; i++)
		ok = h[i] == want;
	free(h);
	return ok;
}

/*
 * A graph: memset 2 -> child graph (scale twice) -> record ev; a second
 * graph waits for ev, then scales once more.  Child graph nodes hold a
 * copy: changing the caller's child graph later changes nothing.
 */
TEST(child_graph_and_event_nodes)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g, child, g2, inner;
	CUgraphNode ms, c1, c2, cn, rec, wait, k;
	CUgraphExec e, e2;
	CUdeviceptr d;
	CUstream s1, s2;
	CUevent ev, got;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUgraphNodeType t;
	int n = N;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&child, 0));
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&c1, child, NULL, 0, f, &d, &n));
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&c2, child, &c1, 1, f, &d, &n));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	mp = memset_params(d, 2);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&ms, g, NULL, 0, &mp, ctx));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddChildGraphNode(&cn, g, &ms, 1, child));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddChildGraphNode(&k, g, NULL, 0, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetType(cn, &t));
	ASSERT_EQ(CU_GRAPH_NODE_TYPE_GRAPH, t);
	/* The node's graph is a copy of the caller's (H100: not the same). */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphChildGraphNodeGetGraph(cn, &inner));
	ASSERT_NE(child, inner);
	/* A third scale added to the caller's child graph later: not in g. */
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&k, child, &c2, 1, f, &d, &n));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEventRecordNode(&rec, g, &cn, 1, ev));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddEventRecordNode(&k, g, NULL, 0, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddEventWaitNode(&k, g, NULL, 0, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphEventRecordNodeGetEvent(rec, &got));
	ASSERT_EQ(ev, got);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphEventRecordNodeGetEvent(cn, &got));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEventWaitNode(&wait, g2, NULL, 0, ev));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphEventWaitNodeGetEvent(wait, &got));
	ASSERT_EQ(ev, got);
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&k, g2, &wait, 1, f, &d, &n));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e2, g2, 0));
	for (int round = 0; round < 3; round++) {
		/* On two streams: only the event orders them. */
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, s1));
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e2, s2));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s2));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s1));
		ASSERT_TRUE(all_equal(d, scale_cpu(2, 3)));
	}
	ASSERT_EQ(CUDA_SUCCESS, cuEventQuery(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(e2));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(e));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g2));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(child));
	cuEventDestroy(ev);
	cuStreamDestroy(s1);
	cuStreamDestroy(s2);
	cuMemFree(d);
	cuModuleUnload(m);
}

/* A clone is independent; cuGraphNodeFindInClone maps nodes into it. */
/*
 * A node call on a node of another type, or with a NULL argument, is
 * refused (the checks they share: cu_graph_node_of_type()); on the right
 * node it answers.
 */
TEST(node_calls_check_type_and_argument)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEM_ALLOC_NODE_PARAMS ap;
	CUDA_HOST_NODE_PARAMS hp;
	CUgraphNode empty, rec;
	CUcontext ctx;
	CUdeviceptr dp;
	CUgraph g, got;
	CUevent ev, ev_got;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&empty, g, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEventRecordNode(&rec, g, NULL, 0, ev));

	/* an empty node is none of these */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeGetParams(empty, &kp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeSetParams(empty, &kp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphHostNodeGetParams(empty, &hp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphChildGraphNodeGetGraph(empty, &got));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphEventRecordNodeGetEvent(empty, &ev_got));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphEventWaitNodeGetEvent(rec, &ev_got));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphMemAllocNodeGetParams(rec, &ap));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphMemFreeNodeGetParams(rec, &dp));
	/* the right node, no argument */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphEventRecordNodeGetEvent(rec, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphEventRecordNodeSetEvent(rec, NULL));
	/* the right node and an argument */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphEventRecordNodeGetEvent(rec, &ev_got));
	ASSERT_EQ(ev, ev_got);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphEventRecordNodeSetEvent(rec, ev));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));
}

TEST(clone_and_find_in_clone)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g, c, other;
	CUgraphNode ms, k, ck, cms, x, nodes[4];
	CUgraphExec e;
	CUdeviceptr d;
	CUDA_MEMSET_NODE_PARAMS mp;
	size_t count = 4;
	int n = N;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	mp = memset_params(d, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&ms, g, NULL, 0, &mp, ctx));
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&k, g, &ms, 1, f, &d, &n));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphClone(&c, g));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphClone(NULL, g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeFindInClone(&ck, k, c));
	ASSERT_NE(k, ck);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeFindInClone(&cms, ms, c));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetDependencies(ck, nodes, NULL,
							    &count));
	ASSERT_EQ(1, count);
	ASSERT_EQ(cms, nodes[0]);
	/* The original graph is no clone of itself; nor is another graph. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphNodeFindInClone(&x, k, g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&other, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphNodeFindInClone(&x, k, other));
	/* Change the clone's memset: the original keeps its own. */
	mp = memset_params(d, 5);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, c, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_TRUE(all_equal(d, scale_cpu(1, 1)));
	cuGraphExecDestroy(e);
	cuGraphDestroy(c);
	cuGraphDestroy(other);
	cuMemFree(d);
	cuModuleUnload(m);
}

/* A graph a -> b of two scale kernels over @p with a memset root. */
static void two_kernels(CUgraph *g, CUgraphNode *nodes, CUfunction f,
			CUdeviceptr *p, int *n, CUcontext ctx,
			unsigned int value)
{
	CUDA_MEMSET_NODE_PARAMS mp = memset_params(*p, value);

	cuGraphCreate(g, 0);
	cuGraphAddMemsetNode(&nodes[0], *g, NULL, 0, &mp, ctx);
	add_scale(&nodes[1], *g, &nodes[0], 1, f, p, n);
	add_scale(&nodes[2], *g, &nodes[1], 1, f, p, n);
}

TEST(exec_update)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g, h;
	CUgraphNode a[3], b[3], x;
	CUgraphExec e;
	CUgraphExecUpdateResultInfo info;
	CUdeviceptr d, d2;
	CUDA_MEMSET_NODE_PARAMS mp;
	int n = N, half = N / 2;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d2, N * sizeof(int)));
	two_kernels(&g, a, f, &d, &n, ctx, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));

	/* Same shape, another buffer and value: taken over. */
	two_kernels(&h, b, f, &d2, &n, ctx, 4);
	memset(&info, 0x5a, sizeof(info));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecUpdate(e, h, &info));
	ASSERT_EQ(CU_GRAPH_EXEC_UPDATE_SUCCESS, info.result);
	ASSERT_EQ(NULL, info.errorNode);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 0, N));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_TRUE(all_equal(d2, scale_cpu(4, 2)));
	ASSERT_TRUE(all_equal(d, 0));
	/* No result info: allowed (H100). */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecUpdate(e, h, NULL));
	cuGraphDestroy(h);

	/* One node more: the topology changed, no node named. */
	two_kernels(&h, b, f, &d, &n, ctx, 1);
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&x, h, &b[2], 1, f, &d, &n));
	ASSERT_EQ(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
		  cuGraphExecUpdate(e, h, &info));
	ASSERT_EQ(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, info.result);
	ASSERT_EQ(NULL, info.errorNode);
	cuGraphDestroy(h);

	/* A missing edge names the node it came from (as an H100 does). */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&h, 0));
	mp = memset_params(d, 1);
	cuGraphAddMemsetNode(&b[0], h, NULL, 0, &mp, ctx);
	add_scale(&b[1], h, &b[0], 1, f, &d, &n);
	add_scale(&b[2], h, NULL, 0, f, &d, &n);
	ASSERT_EQ(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
		  cuGraphExecUpdate(e, h, &info));
	ASSERT_EQ(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, info.result);
	ASSERT_EQ(b[1], info.errorNode);
	cuGraphDestroy(h);

	/* Another node type. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&h, 0));
	cuGraphAddMemsetNode(&b[0], h, NULL, 0, &mp, ctx);
	add_scale(&b[1], h, &b[0], 1, f, &d, &n);
	cuGraphAddEmptyNode(&b[2], h, &b[1], 1);
	ASSERT_EQ(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
		  cuGraphExecUpdate(e, h, &info));
	ASSERT_EQ(CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, info.result);
	ASSERT_EQ(b[2], info.errorNode);
	cuGraphDestroy(h);

	/* A refused update changed nothing: still d2, value 4. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d2, 0, N));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_TRUE(all_equal(d2, scale_cpu(4, 2)));

	/* A 1D memset may change its element size (H100): bytes of 1. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&h, 0));
	mp = memset_params(d, 1);
	mp.elementSize = 1;
	mp.width = 4 * N;
	cuGraphAddMemsetNode(&b[0], h, NULL, 0, &mp, ctx);
	add_scale(&b[1], h, &b[0], 1, f, &d, &half);
	add_scale(&b[2], h, &b[1], 1, f, &d, &n);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecUpdate(e, h, &info));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	{
		int *hd = malloc(N * sizeof(int));

		ASSERT_NE(NULL, hd);
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(hd, d, N * sizeof(int)));
		/* The first half scaled twice, the rest once. */
		for (int i = 0; i < N; i++)
			ASSERT_EQ(scale_cpu(0x01010101, i < half ? 2 : 1),
				  hd[i]);
		free(hd);
	}
	cuGraphDestroy(h);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
	cuMemFree(d);
	cuMemFree(d2);
	cuModuleUnload(m);
}

TEST(instantiate_flags_and_upload)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g, hg;
	CUgraphNode a[3], hn;
	CUgraphExec e;
	CUdeviceptr d;
	CUDA_GRAPH_INSTANTIATE_PARAMS ip = { 0 };
	CUDA_HOST_NODE_PARAMS hp = { .fn = (CUhostFn)free, .userData = NULL };
	cuuint64_t flags;
	CUstream s;
	int n = N;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	two_kernels(&g, a, f, &d, &n, ctx, 2);
	/* UPLOAD is for cuGraphInstantiateWithParams only; 16 is no flag. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphInstantiateWithFlags(&e, g,
				CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiateWithFlags(&e, g, 16));
	/* Device launch, but not with auto-free. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphInstantiateWithFlags(&e, g,
			CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
			CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiateWithFlags(&e, g,
			CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecGetFlags(e, &flags));
	ASSERT_EQ(CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH, flags);
	cuGraphExecDestroy(e);
	/* USE_NODE_PRIORITY is not reported back (H100). */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiateWithFlags(&e, g,
			CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecGetFlags(e, &flags));
	ASSERT_EQ(0, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_TRUE(all_equal(d, scale_cpu(2, 2)));
	cuGraphExecDestroy(e);

	ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
	ip.hUploadStream = s;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiateWithParams(&e, g, &ip));
	ASSERT_EQ(CUDA_GRAPH_INSTANTIATE_SUCCESS, ip.result_out);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphUpload(e, s));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphUpload(NULL, s));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphExecGetFlags(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_TRUE(all_equal(d, scale_cpu(2, 2)));
	cuGraphExecDestroy(e);

	/* A host node cannot run in a device-launched graph. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&hg, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddHostNode(&hn, hg, NULL, 0, &hp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiateWithFlags(&e, hg,
			CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH));
	cuGraphDestroy(hg);
	cuGraphDestroy(g);
	cuStreamDestroy(s);
	cuMemFree(d);
	cuModuleUnload(m);
}

static int destroyed;

static void destroy_cb(void *p)
{
	__atomic_add_fetch((int *)p, 1, __ATOMIC_SEQ_CST);
}

/* The destructor's count once it reached @want, or after 2 s. */
static int wait_destroyed(int want)
{
	for (int i = 0; i < 400 &&
	     __atomic_load_n(&destroyed, __ATOMIC_SEQ_CST) < want; i++)
		usleep(5000);
	return __atomic_load_n(&destroyed, __ATOMIC_SEQ_CST);
}

TEST(user_objects)
{
	CUcontext ctx;
	CUuserObject o;
	CUgraph g, c;
	CUgraphNode x;
	CUgraphExec e;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuUserObjectCreate(&o, &destroyed, destroy_cb, 1, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuUserObjectCreate(&o, &destroyed, destroy_cb, 0,
				     CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	ASSERT_EQ(CUDA_SUCCESS, cuUserObjectCreate(&o, &destroyed, destroy_cb,
				2, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuUserObjectRetain(o, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuUserObjectRetain(o, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuUserObjectRelease(o, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&x, g, NULL, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphRetainUserObject(g, o, 1, 2));
	/* One of the caller's two moves to the graph, one more is made. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphRetainUserObject(g, o, 1,
				CU_GRAPH_USER_OBJECT_MOVE));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphRetainUserObject(g, o, 1, 0));
	/* More than the graph holds: refused (an H100 takes them anyway). */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphReleaseUserObject(g, o, 3));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphReleaseUserObject(g, o, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphClone(&c, g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuUserObjectRelease(o, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(c));
	/* The executable graph still holds one: not destroyed (waited). */
	ASSERT_EQ(0, wait_destroyed(1));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(e));
	ASSERT_EQ(1, wait_destroyed(1));
}

/* The DOT file of a graph with a child graph and a conditional. */
TEST(dot_print)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g, child;
	CUgraphNode k, cn, x;
	CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_CONDITIONAL };
	CUgraphConditionalHandle h;
	CUdeviceptr d;
	char path[64], *text = malloc(1 << 16);
	size_t len;
	FILE *fp;
	int n = N;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&child, 0));
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&k, g, NULL, 0, f, &d, &n));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddEmptyNode(&x, child, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddChildGraphNode(&cn, g, &k, 1, child));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
	np.conditional.handle = h;
	np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	np.conditional.size = 1;
	np.conditional.ctx = ctx;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddNode(&x, g, &cn, NULL, 1, &np));
	snprintf(path, sizeof(path), "/tmp/test_cu_graph_nodes_%d.dot",
		 (int)getpid());
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDebugDotPrint(g, path,
			CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
	fp = fopen(path, "r");
	ASSERT_NE(NULL, fp);
	len = fread(text, 1, (1 << 16) - 1, fp);
	text[len] = '\0';
	fclose(fp);
	unlink(path);
	ASSERT_EQ(0, strncmp(text, "digraph", 7));
	ASSERT_NE(NULL, strstr(text, "scale_by_const"));
	ASSERT_NE(NULL, strstr(text, "<<<(8,1,1), (128,1,1), 0>>>"));
	ASSERT_NE(NULL, strstr(text, "g0_n0 -> g0_n1;"));
	ASSERT_NE(NULL, strstr(text, "g0_n1 -> g0_n2;"));
	ASSERT_NE(NULL, strstr(text, "subgraph cluster_1"));
	ASSERT_NE(NULL, strstr(text, "WHILE, 1 body"));
	/* Flags CUDA does not define are ignored (H100). */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDebugDotPrint(g, path, 1u << 20));
	unlink(path);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphDebugDotPrint(g, NULL, 0));
	ASSERT_EQ(CUDA_ERROR_OPERATING_SYSTEM,
		  cuGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0));
	cuGraphDestroy(child);
	cuGraphDestroy(g);
	cuMemFree(d);
	cuModuleUnload(m);
	free(text);
}

static cuuint64_t mem_attr(CUgraphMem_attribute a)
{
	cuuint64_t v = ~0ull;

	cuDeviceGetGraphMemAttribute(0, a, &v);
	return v;
}

static CUDA_MEM_ALLOC_NODE_PARAMS alloc_params(size_t size)
{
	CUDA_MEM_ALLOC_NODE_PARAMS p = { .bytesize = size };

	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.poolProps.location.id = 0;
	return p;
}

/*
 * alloc -> memset 3 -> scale -> copy out -> free, launched three times
 * at the same address; then an allocation the graph does not free.
 */
TEST(memory_nodes)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g, g2;
	CUgraphNode an, ms, k, out, fn, x;
	CUgraphExec e, x_exec;
	CUdeviceptr d, back;
	CUDA_MEM_ALLOC_NODE_PARAMS p;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_MEMCPY3D cp = { 0 };
	int *host = calloc(N, sizeof(int)), n = N;
	cuuint64_t zero = 0, one = 1;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, host);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGraphMemTrim(0));
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	p = alloc_params(0);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(N * sizeof(int));
	p.poolProps.location.id = 99;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(N * sizeof(int));
	p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	ASSERT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(N * sizeof(int));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemAllocNode(&an, g, NULL, 0, &p));
	d = p.dptr;
	ASSERT_NE(0, d);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphMemAllocNodeGetParams(an, &p));
	ASSERT_EQ(d, p.dptr);
	/* Counted from the first launch on, as on an H100. */
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT));
	mp = memset_params(d, 3);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&ms, g, &an, 1, &mp, ctx));
	ASSERT_EQ(CUDA_SUCCESS, add_scale(&k, g, &ms, 1, f, &d, &n));
	cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	cp.srcDevice = d;
	cp.dstMemoryType = CU_MEMORYTYPE_HOST;
	cp.dstHost = host;
	cp.WidthInBytes = N * sizeof(int);
	cp.Height = cp.Depth = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemcpyNode(&out, g, &k, 1, &cp, ctx));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddMemFreeNode(&x, g, &out, 1, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemFreeNode(&fn, g, &out, 1, d));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphMemFreeNodeGetParams(fn, &back));
	ASSERT_EQ(d, back);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemFreeNode(&x, g, &fn, 1, d));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	/* One executable graph at a time holds a graph's allocations. */
	ASSERT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuGraphInstantiate(&x_exec, g, 0));
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT));
	for (int round = 0; round < 3; round++) {
		memset(host, 0, N * sizeof(int));
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
		for (int i = 0; i < N; i++)
			ASSERT_EQ(scale_cpu(3, 1), host[i]);
	}
	/* One 32 MiB chunk, used and reserved, until trimmed (H100). */
	ASSERT_EQ(32 << 20, mem_attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT));
	ASSERT_EQ(32 << 20, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT));
	ASSERT_EQ(32 << 20, mem_attr(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH));
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
	ASSERT_EQ(32 << 20, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGraphMemTrim(0));
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT));
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT));

	/* Not freed by the graph: the next launch fails until freed. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	p = alloc_params(3 << 20);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemAllocNode(&an, g2, NULL, 0, &p));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g2, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(32 << 20, mem_attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(p.dptr, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p.dptr));
	cuGraphExecDestroy(e);
	/* Freed on each launch. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiateWithFlags(&e, g2,
			CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p.dptr));
	cuGraphExecDestroy(e);
	/* A graph with memory nodes cannot be a child graph (H100). */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuGraphAddChildGraphNode(&x, g, NULL, 0, g2));
	cuGraphDestroy(g);
	cuGraphDestroy(g2);

	/* A reset sets a high watermark to the current footprint. */
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceSetGraphMemAttribute(0,
			CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
	ASSERT_EQ(32 << 20, mem_attr(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGraphMemTrim(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceSetGraphMemAttribute(0,
			CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &zero));
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceSetGraphMemAttribute(0,
			CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &one));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceSetGraphMemAttribute(0,
			CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &zero));
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGraphMemTrim(99));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGraphMemTrim(0));
	ASSERT_EQ(0, mem_attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT));
	cuModuleUnload(m);
	free(host);
}

/* cuMemAllocAsync and cuMemFreeAsync in a capture become memory nodes. */
TEST(capture_memory_nodes)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUgraph g;
	CUgraphNode nodes[8];
	CUgraphNodeType t;
	CUgraphExec e;
	CUstream s;
	CUdeviceptr d;
	int *host = calloc(N, sizeof(int)), n = N;
	void *args[] = { &d, &n };
	size_t count = 8;
	static const CUgraphNodeType want[] = {
		CU_GRAPH_NODE_TYPE_MEM_ALLOC, CU_GRAPH_NODE_TYPE_MEMSET,
		CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_MEMCPY,
		CU_GRAPH_NODE_TYPE_MEM_FREE,
	};

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, host);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(s,
				CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&d, N * sizeof(int), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 5, N, s));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, N / 128, 1, 1, 128, 1, 1, 0,
					       s, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(host, d, N * sizeof(int), s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(d, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphGetNodes(g, nodes, &count));
	ASSERT_EQ(5, count);
	for (size_t i = 0; i < count; i++) {
		ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeGetType(nodes[i], &t));
		ASSERT_EQ(want[i], t);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	for (int round = 0; round < 2; round++) {
		memset(host, 0, N * sizeof(int));
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, s));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
		for (int i = 0; i < N; i++)
			ASSERT_EQ(scale_cpu(5, 1), host[i]);
	}
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
	cuStreamDestroy(s);
	cuModuleUnload(m);
	free(host);
}

/*
 * Conditional nodes decided by their handles' default values (kernels
 * that set them: samples/graphConditional): an IF/ELSE, a SWITCH, a
 * WHILE whose default is 0.  Each body writes its own value.
 */
TEST(conditional_nodes_by_default)
{
	CUcontext ctx;
	CUgraph g, g2;
	CUgraphNode c, x;
	CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_CONDITIONAL };
	CUgraphConditionalHandle h_if, h_sw, h_wh, h_other;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp = { .fn = (CUhostFn)free, .userData = NULL };
	CUgraphExec e;
	CUdeviceptr d[3];
	CUgraph *bodies;

	CU_SETUP(&ctx);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d[i], N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphConditionalHandleCreate(&h_if, g, ctx, 0, 2));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphConditionalHandleCreate(&h_if, NULL, ctx, 0, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT,
		  cuGraphConditionalHandleCreate(&h_if, g, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h_if, g, ctx, 0,
				CU_GRAPH_COND_ASSIGN_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h_sw, g, ctx, 2,
				CU_GRAPH_COND_ASSIGN_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h_wh, g, ctx, 0,
				CU_GRAPH_COND_ASSIGN_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuGraphConditionalHandleCreate(&h_other, g2, ctx, 0, 0));

	np.conditional.ctx = ctx;
	np.conditional.handle = h_wh;
	np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	np.conditional.size = 2;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.type = CU_GRAPH_COND_TYPE_IF;
	np.conditional.size = 3;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.type = CU_GRAPH_COND_TYPE_SWITCH;
	np.conditional.size = 0;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.size = 1;
	np.conditional.handle = 0;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.handle = h_wh;
	np.conditional.ctx = NULL;
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT,
		  cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.ctx = ctx;
	/* Another graph's handle is accepted (H100); not used here. */
	np.conditional.handle = h_other;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddNode(&x, g2, NULL, NULL, 0, &np));

	/* IF/ELSE on 0: the else body (1) writes 11 into d[0]. */
	np.conditional.handle = h_if;
	np.conditional.type = CU_GRAPH_COND_TYPE_IF;
	np.conditional.size = 2;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddNode(&c, g, NULL, NULL, 0, &np));
	bodies = np.conditional.phGraph_out;
	ASSERT_NE(NULL, bodies);
	mp = memset_params(d[0], 10);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&x, bodies[0], NULL, 0, &mp, ctx));
	mp = memset_params(d[0], 11);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&x, bodies[1], NULL, 0, &mp, ctx));
	/* SWITCH on 2 of 3: body 2 writes 22 into d[1]. */
	np.conditional.handle = h_sw;
	np.conditional.type = CU_GRAPH_COND_TYPE_SWITCH;
	np.conditional.size = 3;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddNode(&x, g, &c, NULL, 1, &np));
	bodies = np.conditional.phGraph_out;
	for (unsigned int b = 0; b < 3; b++) {
		mp = memset_params(d[1], 20 + b);
		ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&c, bodies[b], NULL,
							   0, &mp, ctx));
	}
	/* WHILE on 0: the body never runs. */
	np.conditional.handle = h_wh;
	np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	np.conditional.size = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	mp = memset_params(d[2], 30);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddMemsetNode(&c, np.conditional.phGraph_out[0],
						   NULL, 0, &mp, ctx));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d[2], 1, N));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	for (int round = 0; round < 2; round++) {
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
		ASSERT_TRUE(all_equal(d[0], 11));
		ASSERT_TRUE(all_equal(d[1], 22));
		ASSERT_TRUE(all_equal(d[2], 1));
	}
	cuGraphExecDestroy(e);

	/* A host node may not be in a body: refused at instantiation. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddHostNode(&x, np.conditional.phGraph_out[0],
						 NULL, 0, &hp));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&e, g, 0));
	cuGraphDestroy(g2);
	cuGraphDestroy(g);
	for (int i = 0; i < 3; i++)
		cuMemFree(d[i]);
}

CUDA_TEST_MAIN
