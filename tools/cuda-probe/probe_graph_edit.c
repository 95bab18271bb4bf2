// SPDX-License-Identifier: GPL-2.0
/*
 * probe_graph_edit: what CUDA answers when a program edits a graph or an
 * executable graph after making it: cuGraphDestroyNode,
 * cuGraphRemoveDependencies, the memcpy/memset/host node setters on a
 * graph and on an executable graph, cuGraphNodeSetParams and
 * cuGraphExecNodeSetParams, cuGraphNodeSetEnabled/GetEnabled,
 * cuGraphExecChildGraphNodeSetParams and the event node setters of an
 * executable graph.  One line per question; addresses are never
 * printed, only values the device computed.
 *
 * Build: gcc -o probe_graph_edit probe_graph_edit.c -I/usr/local/cuda/include -lcuda
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

static const char *ptx =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry set_value(.param .u64 p, .param .u32 v) {\n"
	" .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [v];\n"
	" st.global.u32 [%rd1], %r1; ret;\n}\n"
	".visible .entry add_value(.param .u64 p, .param .u32 v) {\n"
	" .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
	" ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [v];\n"
	" ld.global.u32 %r2, [%rd1]; add.u32 %r2, %r2, %r1;\n"
	" st.global.u32 [%rd1], %r2; ret;\n}\n";

static CUfunction set_value, add_value;

static void show(const char *what, CUresult r)
{
	const char *n = "?";

	cuGetErrorName(r, &n);
	printf("%s: %s (%d)\n", what, n, (int)r);
}

static CUgraphNode kernel(CUgraph g, const CUgraphNode *deps, size_t n,
			  CUfunction f, CUdeviceptr *p, unsigned int *v)
{
	CUDA_KERNEL_NODE_PARAMS k;
	void *args[] = { p, v };
	CUgraphNode node = NULL;

	memset(&k, 0, sizeof(k));
	k.func = f;
	k.gridDimX = k.gridDimY = k.gridDimZ = 1;
	k.blockDimX = k.blockDimY = k.blockDimZ = 1;
	k.kernelParams = args;
	show("add kernel node", cuGraphAddKernelNode(&node, g, deps, n, &k));
	return node;
}

static unsigned int read_value(CUdeviceptr p)
{
	unsigned int v = 0;

	cuMemcpyDtoH(&v, p, sizeof(v));
	return v;
}

static void memset_params(CUDA_MEMSET_NODE_PARAMS *m, CUdeviceptr dst,
			  unsigned int value)
{
	memset(m, 0, sizeof(*m));
	m->dst = dst;
	m->value = value;
	m->elementSize = 4;
	m->width = 1;
	m->height = 1;
}

static int host_calls;

static void CUDA_CB host_fn(void *data)
{
	host_calls += *(int *)data;
}

/* Nodes and edges taken away again. */
static void remove_edges(CUdeviceptr buf, CUstream s)
{
	CUgraph g, other;
	CUgraphNode a, b, c, x, deps[4], from[4], to[4];
	unsigned int v = 3, w = 4;
	size_t n;
	CUgraphExec e;

	cuGraphCreate(&g, 0);
	cuGraphCreate(&other, 0);
	a = kernel(g, NULL, 0, set_value, &buf, &v);
	b = kernel(g, &a, 1, add_value, &buf, &w);
	c = kernel(g, &b, 1, add_value, &buf, &w);
	show("remove dependency b->c",
	     cuGraphRemoveDependencies(g, &b, &c, NULL, 1));
	n = 4;
	show("c's dependencies", cuGraphNodeGetDependencies(c, deps, NULL, &n));
	printf("c has %zu dependencies\n", n);
	show("remove it again", cuGraphRemoveDependencies(g, &b, &c, NULL, 1));
	show("remove a->c (never an edge)",
	     cuGraphRemoveDependencies(g, &a, &c, NULL, 1));
	show("remove none", cuGraphRemoveDependencies(g, NULL, NULL, NULL, 0));
	show("remove with NULL from",
	     cuGraphRemoveDependencies(g, NULL, &c, NULL, 1));
	show("remove on NULL graph",
	     cuGraphRemoveDependencies(NULL, &a, &b, NULL, 1));
	show("remove edge of the other graph",
	     cuGraphRemoveDependencies(other, &a, &b, NULL, 1));
	show("add b->c back", cuGraphAddDependencies(g, &b, &c, NULL, 1));
	show("destroy node b", cuGraphDestroyNode(b));
	n = 4;
	show("c's dependencies after", cuGraphNodeGetDependencies(c, deps, NULL, &n));
	printf("c has %zu dependencies after b went\n", n);
	n = 4;
	show("edges", cuGraphGetEdges(g, from, to, NULL, &n));
	printf("graph has %zu edges\n", n);
	n = 0;
	cuGraphGetNodes(g, NULL, &n);
	printf("graph has %zu nodes\n", n);
	show("destroy node NULL", cuGraphDestroyNode(NULL));
	/* Without it a and c are unordered: either may run first. */
	show("add a->c", cuGraphAddDependencies(g, &a, &c, NULL, 1));
	show("instantiate after destroy", cuGraphInstantiate(&e, g, 0));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after set 3, add 4: %u\n", read_value(buf));
	cuGraphExecDestroy(e);
	x = kernel(g, NULL, 0, add_value, &buf, &w);
	show("add edge a->x, x->c", cuGraphAddDependencies(g, (CUgraphNode[]){ a, x },
		(CUgraphNode[]){ x, c }, NULL, 2));
	show("remove both in one call",
	     cuGraphRemoveDependencies(g, (CUgraphNode[]){ a, x },
				       (CUgraphNode[]){ x, c }, NULL, 2));
	n = 4;
	cuGraphGetEdges(g, NULL, NULL, NULL, &n);
	printf("graph has %zu edges after removing two (a->c stays)\n", n);
	show("remove a->c (present) and a->x (absent)",
	     cuGraphRemoveDependencies(g, (CUgraphNode[]){ a, a },
				       (CUgraphNode[]){ c, x }, NULL, 2));
	n = 4;
	cuGraphGetEdges(g, NULL, NULL, NULL, &n);
	printf("graph has %zu edges after the failed removal\n", n);
	cuGraphDestroy(other);
	cuGraphDestroy(g);
}

/* Memcpy, memset and host node parameters set on a graph. */
static void graph_setters(CUdeviceptr buf, CUstream s)
{
	CUgraph g;
	CUgraphNode ms, cp, h, k;
	CUDA_MEMSET_NODE_PARAMS m;
	CUDA_MEMCPY3D c;
	CUDA_HOST_NODE_PARAMS hp;
	CUcontext ctx;
	unsigned int v = 1, out = 0;
	int one = 1, two = 2;
	CUgraphExec e;

	cuCtxGetCurrent(&ctx);
	cuGraphCreate(&g, 0);
	memset_params(&m, buf, 10);
	show("add memset", cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, ctx));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = buf;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = &out;
	c.WidthInBytes = 4;
	c.Height = c.Depth = 1;
	show("add memcpy", cuGraphAddMemcpyNode(&cp, g, &ms, 1, &c, ctx));
	hp.fn = host_fn;
	hp.userData = &one;
	show("add host", cuGraphAddHostNode(&h, g, &cp, 1, &hp));
	k = kernel(g, NULL, 0, set_value, &buf, &v);

	memset_params(&m, buf, 20);
	show("memset set", cuGraphMemsetNodeSetParams(ms, &m));
	m.elementSize = 3;
	show("memset set element size 3", cuGraphMemsetNodeSetParams(ms, &m));
	memset_params(&m, buf, 20);
	m.width = 0;
	show("memset set width 0", cuGraphMemsetNodeSetParams(ms, &m));
	memset_params(&m, buf, 20);
	show("memset set NULL", cuGraphMemsetNodeSetParams(ms, NULL));
	show("memset set on kernel node", cuGraphMemsetNodeSetParams(k, &m));
	show("memset set on NULL node", cuGraphMemsetNodeSetParams(NULL, &m));
	show("memset get", cuGraphMemsetNodeGetParams(ms, &m));
	printf("memset value after failed sets: %u\n", m.value);

	show("memcpy set", cuGraphMemcpyNodeSetParams(cp, &c));
	c.WidthInBytes = 0;
	show("memcpy set width 0", cuGraphMemcpyNodeSetParams(cp, &c));
	c.WidthInBytes = 4;
	c.srcMemoryType = (CUmemorytype)9;
	show("memcpy set bad memory type", cuGraphMemcpyNodeSetParams(cp, &c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	show("memcpy set NULL", cuGraphMemcpyNodeSetParams(cp, NULL));
	show("memcpy set on memset node", cuGraphMemcpyNodeSetParams(ms, &c));

	hp.userData = &two;
	show("host set", cuGraphHostNodeSetParams(h, &hp));
	hp.fn = NULL;
	show("host set NULL fn", cuGraphHostNodeSetParams(h, &hp));
	hp.fn = host_fn;
	show("host set NULL", cuGraphHostNodeSetParams(h, NULL));
	show("host set on kernel node", cuGraphHostNodeSetParams(k, &hp));

	/* The kernel (set 1) runs first; the chain memset 20 -> copy -> host. */
	cuGraphDestroyNode(k);
	show("instantiate", cuGraphInstantiate(&e, g, 0));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("copied value %u, host calls %d\n", out, host_calls);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
}

/* cuGraphNodeSetParams and cuGraphExecNodeSetParams (CUDA 12.2+). */
static void generic_setters(CUdeviceptr buf, CUstream s)
{
	CUgraph g, cg;
	CUgraphNode ms, k, ch, em;
	CUgraphNodeParams p;
	CUDA_MEMSET_NODE_PARAMS m;
	CUcontext ctx;
	unsigned int v = 1;
	CUgraphExec e;

	cuCtxGetCurrent(&ctx);
	cuGraphCreate(&g, 0);
	memset_params(&m, buf, 30);
	show("add memset", cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, ctx));
	k = kernel(g, &ms, 1, add_value, &buf, &v);
	memset(&p, 0, sizeof(p));
	p.type = CU_GRAPH_NODE_TYPE_MEMSET;
	p.memset.dst = buf;
	p.memset.value = 40;
	p.memset.elementSize = 4;
	p.memset.width = 1;
	p.memset.height = 1;
	p.memset.ctx = ctx;
	show("node set params memset", cuGraphNodeSetParams(ms, &p));
	show("node set params memset on kernel node", cuGraphNodeSetParams(k, &p));
	show("node set params NULL", cuGraphNodeSetParams(ms, NULL));
	show("node set params NULL node", cuGraphNodeSetParams(NULL, &p));
	p.reserved0[0] = 1;
	show("node set params reserved0 set", cuGraphNodeSetParams(ms, &p));
	p.reserved0[0] = 0;
	show("instantiate", cuGraphInstantiate(&e, g, 0));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after memset 40, add 1: %u\n", read_value(buf));
	p.memset.value = 50;
	show("exec node set params memset", cuGraphExecNodeSetParams(e, ms, &p));
	show("exec node set params on kernel node",
	     cuGraphExecNodeSetParams(e, k, &p));
	show("exec node set params NULL exec",
	     cuGraphExecNodeSetParams(NULL, ms, &p));
	show("exec node set params NULL",
	     cuGraphExecNodeSetParams(e, ms, NULL));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after exec memset 50, add 1: %u\n", read_value(buf));
	cuGraphMemsetNodeGetParams(ms, &m);
	printf("graph's memset value stays %u\n", m.value);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);

	/* Types whose parameters may not change: a child graph, empty. */
	cuGraphCreate(&g, 0);
	cuGraphCreate(&cg, 0);
	cuGraphAddEmptyNode(&em, cg, NULL, 0);
	show("add child", cuGraphAddChildGraphNode(&ch, g, NULL, 0, cg));
	memset(&p, 0, sizeof(p));
	p.type = CU_GRAPH_NODE_TYPE_GRAPH;
	p.graph.graph = cg;
	show("node set params child graph", cuGraphNodeSetParams(ch, &p));
	cuGraphAddEmptyNode(&em, g, NULL, 0);
	memset(&p, 0, sizeof(p));
	p.type = CU_GRAPH_NODE_TYPE_EMPTY;
	show("node set params empty", cuGraphNodeSetParams(em, &p));
	cuGraphDestroy(cg);
	cuGraphDestroy(g);
}

/* Setters on an executable graph: memcpy, memset, host, enabled. */
static void exec_setters(CUdeviceptr buf, CUdeviceptr buf2, CUstream s)
{
	CUgraph g;
	CUgraphNode ms, cp, h, k, x;
	CUDA_MEMSET_NODE_PARAMS m;
	CUDA_MEMCPY3D c;
	CUDA_HOST_NODE_PARAMS hp;
	CUcontext ctx;
	unsigned int v = 100, out[2] = { 0, 0 }, en = 7;
	int three = 3, seven = 7;
	CUgraphExec e;

	cuCtxGetCurrent(&ctx);
	cuGraphCreate(&g, 0);
	memset_params(&m, buf, 60);
	show("add memset", cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, ctx));
	k = kernel(g, &ms, 1, add_value, &buf, &v);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = buf;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = out;	/* room for the 8-byte copy below */
	c.WidthInBytes = 4;
	c.Height = c.Depth = 1;
	show("add memcpy", cuGraphAddMemcpyNode(&cp, g, &k, 1, &c, ctx));
	hp.fn = host_fn;
	hp.userData = &three;
	show("add host", cuGraphAddHostNode(&h, g, &cp, 1, &hp));
	show("instantiate", cuGraphInstantiate(&e, g, 0));
	host_calls = 0;
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("copied %u, host calls %d\n", out[0], host_calls);

	memset_params(&m, buf, 70);
	show("exec memset set", cuGraphExecMemsetNodeSetParams(e, ms, &m, ctx));
	memset_params(&m, buf2, 70);
	show("exec memset set other allocation",
	     cuGraphExecMemsetNodeSetParams(e, ms, &m, ctx));
	memset_params(&m, buf, 70);
	m.elementSize = 2;
	show("exec memset set element size 2",
	     cuGraphExecMemsetNodeSetParams(e, ms, &m, ctx));
	memset_params(&m, buf, 70);
	show("exec memset set on kernel node",
	     cuGraphExecMemsetNodeSetParams(e, k, &m, ctx));
	show("exec memset set NULL",
	     cuGraphExecMemsetNodeSetParams(e, ms, NULL, ctx));
	show("exec memset set NULL exec",
	     cuGraphExecMemsetNodeSetParams(NULL, ms, &m, ctx));
	memset_params(&m, buf, 70);
	show("exec memset set again", cuGraphExecMemsetNodeSetParams(e, ms, &m, ctx));

	c.srcDevice = buf;
	show("exec memcpy set", cuGraphExecMemcpyNodeSetParams(e, cp, &c, ctx));
	c.WidthInBytes = 8;
	show("exec memcpy set wider", cuGraphExecMemcpyNodeSetParams(e, cp, &c, ctx));
	c.WidthInBytes = 4;
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = &en;
	show("exec memcpy set other memory type",
	     cuGraphExecMemcpyNodeSetParams(e, cp, &c, ctx));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = buf;
	show("exec memcpy set on memset node",
	     cuGraphExecMemcpyNodeSetParams(e, ms, &c, ctx));

	hp.userData = &seven;
	show("exec host set", cuGraphExecHostNodeSetParams(e, h, &hp));
	hp.fn = NULL;
	show("exec host set NULL fn", cuGraphExecHostNodeSetParams(e, h, &hp));
	hp.fn = host_fn;
	show("exec host set on kernel node",
	     cuGraphExecHostNodeSetParams(e, k, &hp));

	host_calls = 0;
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("copied %u, host calls %d\n", out[0], host_calls);

	show("get enabled", cuGraphNodeGetEnabled(e, k, &en));
	printf("kernel node enabled: %u\n", en);
	show("disable kernel", cuGraphNodeSetEnabled(e, k, 0));
	show("get enabled", cuGraphNodeGetEnabled(e, k, &en));
	printf("kernel node enabled: %u\n", en);
	show("disable memset", cuGraphNodeSetEnabled(e, ms, 0));
	show("disable memcpy", cuGraphNodeSetEnabled(e, cp, 0));
	show("enable memcpy with 5", cuGraphNodeSetEnabled(e, cp, 5));
	show("get enabled", cuGraphNodeGetEnabled(e, cp, &en));
	printf("memcpy node enabled: %u\n", en);
	show("disable host", cuGraphNodeSetEnabled(e, h, 0));
	show("get enabled host", cuGraphNodeGetEnabled(e, h, &en));
	printf("host node enabled: %u\n", en);
	show("get enabled NULL", cuGraphNodeGetEnabled(e, k, NULL));
	show("set enabled NULL exec", cuGraphNodeSetEnabled(NULL, k, 0));
	cuMemsetD32(buf, 5, 1);
	cuCtxSynchronize();
	host_calls = 0;
	out[0] = 0;
	show("launch with memset and kernel disabled", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("copied %u, host calls %d\n", out[0], host_calls);
	show("enable both", cuGraphNodeSetEnabled(e, k, 1));
	cuGraphNodeSetEnabled(e, ms, 1);
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("copied %u, host calls %d\n", out[0], host_calls);
	x = kernel(g, NULL, 0, add_value, &buf, &v);
	show("get enabled of a node added later", cuGraphNodeGetEnabled(e, x, &en));
	show("exec memset set of a node added later",
	     cuGraphExecMemsetNodeSetParams(e, x, &m, ctx));
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
}

/* Child graphs and events of an executable graph. */
static void exec_child_event(CUdeviceptr buf, CUstream s)
{
	CUgraph g, child, child2, child3;
	CUgraphNode c, rec, wait, k;
	CUevent ev, ev2;
	unsigned int v = 11, w = 22;
	CUgraphExec e;

	cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
	cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING);
	cuGraphCreate(&g, 0);
	cuGraphCreate(&child, 0);
	kernel(child, NULL, 0, set_value, &buf, &v);
	show("add child", cuGraphAddChildGraphNode(&c, g, NULL, 0, child));
	show("add record", cuGraphAddEventRecordNode(&rec, g, &c, 1, ev));
	show("add wait", cuGraphAddEventWaitNode(&wait, g, &rec, 1, ev));
	k = kernel(g, &wait, 1, add_value, &buf, &w);
	show("instantiate", cuGraphInstantiate(&e, g, 0));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after child set 11, add 22: %u\n", read_value(buf));

	cuGraphCreate(&child2, 0);
	kernel(child2, NULL, 0, set_value, &buf, &w);
	show("exec child set same shape",
	     cuGraphExecChildGraphNodeSetParams(e, c, child2));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after child set 22, add 22: %u\n", read_value(buf));
	cuGraphCreate(&child3, 0);
	kernel(child3, NULL, 0, set_value, &buf, &w);
	kernel(child3, NULL, 0, set_value, &buf, &w);
	show("exec child set other shape",
	     cuGraphExecChildGraphNodeSetParams(e, c, child3));
	show("exec child set NULL graph",
	     cuGraphExecChildGraphNodeSetParams(e, c, NULL));
	show("exec child set on kernel node",
	     cuGraphExecChildGraphNodeSetParams(e, k, child2));

	show("exec record set event", cuGraphExecEventRecordNodeSetEvent(e, rec, ev2));
	show("exec wait set event", cuGraphExecEventWaitNodeSetEvent(e, wait, ev2));
	show("exec record set on wait node",
	     cuGraphExecEventRecordNodeSetEvent(e, wait, ev2));
	show("exec wait set on record node",
	     cuGraphExecEventWaitNodeSetEvent(e, rec, ev2));
	show("exec record set NULL event",
	     cuGraphExecEventRecordNodeSetEvent(e, rec, NULL));
	show("exec record set NULL exec",
	     cuGraphExecEventRecordNodeSetEvent(NULL, rec, ev2));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	show("query the new event", cuEventQuery(ev2));
	show("graph record set event", cuGraphEventRecordNodeSetEvent(rec, ev2));
	show("graph record set on wait node",
	     cuGraphEventRecordNodeSetEvent(wait, ev2));
	show("graph wait set event NULL", cuGraphEventWaitNodeSetEvent(wait, NULL));
	cuGraphExecDestroy(e);
	cuGraphDestroy(child3);
	cuGraphDestroy(child2);
	cuGraphDestroy(child);
	cuGraphDestroy(g);
	cuEventDestroy(ev2);
	cuEventDestroy(ev);
}

/* cuStreamBeginCaptureToGraph and cuStreamUpdateCaptureDependencies. */
static void capture(CUdeviceptr buf, CUstream s)
{
	CUgraph g, out = NULL;
	CUgraphNode a, deps[4], x;
	const CUgraphNode *cur;
	CUstreamCaptureStatus st;
	unsigned int v = 1000, w = 1;
	size_t n = 0;
	CUgraphExec e;
	void *args[] = { &buf, &w };

	cuGraphCreate(&g, 0);
	a = kernel(g, NULL, 0, set_value, &buf, &v);
	show("update deps, no capture",
	     cuStreamUpdateCaptureDependencies(s, &a, NULL, 1,
					       CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
	show("begin capture to graph",
	     cuStreamBeginCaptureToGraph(s, g, &a, NULL, 1,
					 CU_STREAM_CAPTURE_MODE_GLOBAL));
	show("capture info", cuStreamGetCaptureInfo(s, &st, NULL, NULL, &cur,
						     NULL, &n));
	printf("status %d, %zu dependencies, the node: %d\n", (int)st, n,
	       n == 1 && cur[0] == a);
	show("launch in capture", cuLaunchKernel(add_value, 1, 1, 1, 1, 1, 1, 0,
						 s, args, NULL));
	show("capture info", cuStreamGetCaptureInfo(s, &st, NULL, NULL, &cur,
						     NULL, &n));
	printf("%zu dependencies after launch\n", n);
	x = cur[0];
	show("update deps set to a",
	     cuStreamUpdateCaptureDependencies(s, &a, NULL, 1,
					       CU_STREAM_SET_CAPTURE_DEPENDENCIES));
	cuStreamGetCaptureInfo(s, &st, NULL, NULL, &cur, NULL, &n);
	printf("%zu dependencies after set, the node: %d\n", n,
	       n == 1 && cur[0] == a);
	show("update deps add x",
	     cuStreamUpdateCaptureDependencies(s, &x, NULL, 1,
					       CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
	cuStreamGetCaptureInfo(s, &st, NULL, NULL, &cur, NULL, &n);
	printf("%zu dependencies after add\n", n);
	show("update deps bad flags",
	     cuStreamUpdateCaptureDependencies(s, &x, NULL, 1, 7));
	show("update deps NULL list",
	     cuStreamUpdateCaptureDependencies(s, NULL, NULL, 1,
					       CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
	show("update deps set none",
	     cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0,
					       CU_STREAM_SET_CAPTURE_DEPENDENCIES));
	cuStreamGetCaptureInfo(s, &st, NULL, NULL, &cur, NULL, &n);
	printf("%zu dependencies after setting none\n", n);
	deps[0] = x;
	cuStreamUpdateCaptureDependencies(s, deps, NULL, 1,
					  CU_STREAM_SET_CAPTURE_DEPENDENCIES);
	show("launch in capture", cuLaunchKernel(add_value, 1, 1, 1, 1, 1, 1, 0,
						 s, args, NULL));
	show("end capture", cuStreamEndCapture(s, &out));
	printf("end capture gives the graph: %d\n", out == g);
	n = 0;
	cuGraphGetNodes(g, NULL, &n);
	printf("graph has %zu nodes\n", n);
	show("instantiate", cuGraphInstantiate(&e, g, 0));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after set 1000, add 1, add 1: %u\n", read_value(buf));
	cuGraphExecDestroy(e);
	show("begin capture to NULL graph",
	     cuStreamBeginCaptureToGraph(s, NULL, NULL, NULL, 0,
					 CU_STREAM_CAPTURE_MODE_GLOBAL));
	show("begin capture to graph, NULL deps with count",
	     cuStreamBeginCaptureToGraph(s, g, NULL, NULL, 1,
					 CU_STREAM_CAPTURE_MODE_GLOBAL));
	show("begin capture to graph, legacy stream",
	     cuStreamBeginCaptureToGraph(NULL, g, NULL, NULL, 0,
					 CU_STREAM_CAPTURE_MODE_GLOBAL));
	cuGraphDestroy(g);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUdeviceptr buf, buf2;
	CUstream s;
	char name[256];

	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDeviceGetName(name, sizeof(name), dev);
	printf("device: %s\n", name);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	show("module", cuModuleLoadData(&mod, ptx));
	cuModuleGetFunction(&set_value, mod, "set_value");
	cuModuleGetFunction(&add_value, mod, "add_value");
	cuMemAlloc(&buf, 256);
	cuMemAlloc(&buf2, 256);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	remove_edges(buf, s);
	graph_setters(buf, s);
	generic_setters(buf, s);
	exec_setters(buf, buf2, s);
	exec_child_event(buf, s);
	capture(buf, s);
	show("context still good", cuCtxSynchronize());
	return 0;
}
