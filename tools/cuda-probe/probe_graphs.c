// SPDX-License-Identifier: GPL-2.0
/*
 * probe_graphs: what the complete graph API answers: child-graph and
 * event nodes, clones, cuGraphExecUpdate's verdicts, instantiation flags
 * and upload, user objects, cuGraphDebugDotPrint, graph memory nodes and
 * the graph memory footprint, conditional nodes and their handles, and
 * the error codes of bad calls.  One line per question; addresses are
 * never printed, only whether two are equal or NULL.
 *
 * Build: gcc -o probe_graphs probe_graphs.c -I/usr/local/cuda/include -lcuda -lpthread
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
static CUcontext ctx;

static void show(const char *what, CUresult r)
{
	const char *n = "?";

	cuGetErrorName(r, &n);
	printf("%s: %s (%d)\n", what, n, (int)r);
}

static CUgraphNode kernel(CUgraph g, const CUgraphNode *deps, size_t n,
			  CUfunction f, CUdeviceptr *p, unsigned int *v,
			  CUresult *res)
{
	CUDA_KERNEL_NODE_PARAMS k;
	void *args[] = { p, v };
	CUgraphNode node = NULL;

	memset(&k, 0, sizeof(k));
	k.func = f;
	k.gridDimX = k.gridDimY = k.gridDimZ = 1;
	k.blockDimX = k.blockDimY = k.blockDimZ = 1;
	k.kernelParams = args;
	*res = cuGraphAddKernelNode(&node, g, deps, n, &k);
	return node;
}

static unsigned int read_value(CUdeviceptr p)
{
	unsigned int v = 0;

	cuMemcpyDtoH(&v, p, sizeof(v));
	return v;
}

/* Child graphs, event nodes, clones. */
static void structure(CUdeviceptr buf, CUstream s)
{
	CUgraph g, child, inner = NULL, clone = NULL, other;
	CUgraphNode a, c, rec, wait, found = NULL, x;
	CUevent ev, got = NULL;
	CUgraphNodeType t;
	unsigned int v = 5, w = 7;
	CUgraphExec e;
	CUresult r;

	cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
	cuGraphCreate(&g, 0);
	cuGraphCreate(&child, 0);
	kernel(child, NULL, 0, add_value, &buf, &w, &r);
	show("child kernel", r);
	a = kernel(g, NULL, 0, set_value, &buf, &v, &r);
	show("add child graph node", cuGraphAddChildGraphNode(&c, g, &a, 1, child));
	show("add child graph NULL", cuGraphAddChildGraphNode(&x, g, NULL, 0, NULL));
	show("child get graph", cuGraphChildGraphNodeGetGraph(c, &inner));
	printf("child graph is the caller's: %d\n", inner == child);
	cuGraphNodeGetType(c, &t);
	printf("child node type: %d\n", (int)t);
	show("add event record", cuGraphAddEventRecordNode(&rec, g, &c, 1, ev));
	show("add event record NULL", cuGraphAddEventRecordNode(&x, g, NULL, 0, NULL));
	show("add event wait NULL", cuGraphAddEventWaitNode(&x, g, NULL, 0, NULL));
	show("record get event", cuGraphEventRecordNodeGetEvent(rec, &got));
	printf("event is the same: %d\n", got == ev);
	show("record get event of kernel node",
	     cuGraphEventRecordNodeGetEvent(a, &got));
	show("instantiate", cuGraphInstantiate(&e, g, 0));
	show("launch", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	printf("value after set 5 and child add 7: %u\n", read_value(buf));
	show("event query after launch", cuEventQuery(ev));
	cuGraphExecDestroy(e);

	/* A wait node in another graph, launched after the first. */
	cuGraphCreate(&other, 0);
	show("add event wait", cuGraphAddEventWaitNode(&wait, other, NULL, 0, ev));
	show("instantiate wait graph", cuGraphInstantiate(&e, other, 0));
	show("launch wait graph", cuGraphLaunch(e, s));
	show("sync wait graph", cuStreamSynchronize(s));
	cuGraphExecDestroy(e);

	show("clone", cuGraphClone(&clone, g));
	show("clone NULL out", cuGraphClone(NULL, g));
	show("find in clone", cuGraphNodeFindInClone(&found, a, clone));
	printf("found node differs from original: %d\n", found && found != a);
	show("find in clone, node of another graph",
	     cuGraphNodeFindInClone(&found, wait, clone));
	show("find in clone, original graph as clone",
	     cuGraphNodeFindInClone(&found, a, g));
	show("instantiate clone", cuGraphInstantiate(&e, clone, 0));
	cuGraphExecDestroy(e);
	cuGraphDestroy(clone);
	cuGraphDestroy(other);
	cuGraphDestroy(child);
	cuGraphDestroy(g);
	cuEventDestroy(ev);
}

static void update_result(const char *what, CUresult r,
			  const CUgraphExecUpdateResultInfo *info,
			  CUgraphNode expect_node)
{
	show(what, r);
	printf("%s: result %d, error node %s, from node %s\n", what,
	       (int)info->result,
	       !info->errorNode ? "NULL" :
	       info->errorNode == expect_node ? "the node" : "another",
	       info->errorFromNode ? "set" : "NULL");
}

/* cuGraphExecUpdate's verdicts. */
static void update(CUdeviceptr buf, CUstream s)
{
	CUgraph g, h;
	CUgraphNode a, hb, ha, m, hm;
	CUgraphExec e;
	CUgraphExecUpdateResultInfo info;
	CUDA_MEMSET_NODE_PARAMS ms;
	unsigned int v = 11, v2 = 12, w = 1;
	CUresult r;

	cuGraphCreate(&g, 0);
	a = kernel(g, NULL, 0, set_value, &buf, &v, &r);
	kernel(g, &a, 1, add_value, &buf, &w, &r);
	cuGraphInstantiate(&e, g, 0);

	/* Same shape, new argument: succeeds and takes effect. */
	cuGraphCreate(&h, 0);
	ha = kernel(h, NULL, 0, set_value, &buf, &v2, &r);
	kernel(h, &ha, 1, add_value, &buf, &w, &r);
	memset(&info, 0x5a, sizeof(info));
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update same shape", r, &info, NULL);
	cuGraphLaunch(e, s);
	cuStreamSynchronize(s);
	printf("value after update: %u\n", read_value(buf));
	show("update NULL info", cuGraphExecUpdate(e, h, NULL));
	cuGraphDestroy(h);

	/* Another function in the same context: allowed since 11.2. */
	cuGraphCreate(&h, 0);
	ha = kernel(h, NULL, 0, add_value, &buf, &v, &r);
	kernel(h, &ha, 1, add_value, &buf, &w, &r);
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update function change", r, &info, ha);
	cuGraphDestroy(h);

	/* One node more. */
	cuGraphCreate(&h, 0);
	ha = kernel(h, NULL, 0, set_value, &buf, &v, &r);
	hb = kernel(h, &ha, 1, add_value, &buf, &w, &r);
	kernel(h, &hb, 1, add_value, &buf, &w, &r);
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update extra node", r, &info, NULL);
	cuGraphDestroy(h);

	/* The edge missing. */
	cuGraphCreate(&h, 0);
	kernel(h, NULL, 0, set_value, &buf, &v, &r);
	hb = kernel(h, NULL, 0, add_value, &buf, &w, &r);
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update missing edge", r, &info, hb);
	cuGraphDestroy(h);

	/* The second node of another type. */
	cuGraphCreate(&h, 0);
	ha = kernel(h, NULL, 0, set_value, &buf, &v, &r);
	cuGraphAddEmptyNode(&hb, h, &ha, 1);
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update type change", r, &info, hb);
	cuGraphDestroy(h);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);

	/* Memsets: the element size changes. */
	memset(&ms, 0, sizeof(ms));
	ms.dst = buf;
	ms.elementSize = 4;
	ms.width = 1;
	ms.height = 1;
	ms.value = 3;
	cuGraphCreate(&g, 0);
	show("add memset", cuGraphAddMemsetNode(&m, g, NULL, 0, &ms, ctx));
	cuGraphInstantiate(&e, g, 0);
	cuGraphCreate(&h, 0);
	ms.value = 9;
	cuGraphAddMemsetNode(&hm, h, NULL, 0, &ms, ctx);
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update memset value", r, &info, hm);
	cuGraphDestroy(h);
	cuGraphCreate(&h, 0);
	ms.elementSize = 1;
	ms.width = 4;
	cuGraphAddMemsetNode(&hm, h, NULL, 0, &ms, ctx);
	r = cuGraphExecUpdate(e, h, &info);
	update_result("update memset element size", r, &info, hm);
	cuGraphDestroy(h);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
}

/* Instantiation flags and upload. */
static void instantiate(CUdeviceptr buf, CUstream s)
{
	CUgraph g, hg;
	CUgraphNode a, hn;
	CUgraphExec e = NULL;
	CUDA_HOST_NODE_PARAMS hp;
	CUDA_GRAPH_INSTANTIATE_PARAMS ip;
	cuuint64_t flags = 99;
	unsigned int v = 1;
	CUresult r;
	char what[64];

	cuGraphCreate(&g, 0);
	a = kernel(g, NULL, 0, set_value, &buf, &v, &r);
	(void)a;
	for (unsigned long long f = 1; f <= 16; f <<= 1) {
		snprintf(what, sizeof(what), "instantiate flags %llu", f);
		r = cuGraphInstantiateWithFlags(&e, g, f);
		show(what, r);
		if (r == CUDA_SUCCESS) {
			cuGraphExecGetFlags(e, &flags);
			printf("%s: exec flags %llu\n", what,
			       (unsigned long long)flags);
			cuGraphExecDestroy(e);
		}
	}
	show("instantiate device launch + auto free",
	     cuGraphInstantiateWithFlags(&e, g, 5));
	r = cuGraphInstantiateWithFlags(&e, g, 4);
	if (r == CUDA_SUCCESS) {
		show("launch device-launch graph from host", cuGraphLaunch(e, s));
		cuStreamSynchronize(s);
		cuGraphExecDestroy(e);
	}

	memset(&ip, 0, sizeof(ip));
	ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
	ip.hUploadStream = s;
	r = cuGraphInstantiateWithParams(&e, g, &ip);
	show("instantiate with params upload", r);
	printf("instantiate with params result_out %d\n", (int)ip.result_out);
	if (r == CUDA_SUCCESS) {
		show("upload", cuGraphUpload(e, s));
		show("launch after upload", cuGraphLaunch(e, s));
		cuStreamSynchronize(s);
		show("upload NULL exec", cuGraphUpload(NULL, s));
		show("exec get flags NULL", cuGraphExecGetFlags(e, NULL));
		cuGraphExecDestroy(e);
	}

	/* Device launch needs a graph of kernels, copies and memsets. */
	cuGraphCreate(&hg, 0);
	memset(&hp, 0, sizeof(hp));
	hp.fn = (CUhostFn)(uintptr_t)puts;
	hp.userData = "";
	cuGraphAddHostNode(&hn, hg, NULL, 0, &hp);
	show("instantiate device launch with host node",
	     cuGraphInstantiateWithFlags(&e, hg, 4));
	cuGraphDestroy(hg);
	cuGraphDestroy(g);
}

static volatile int destroyed;

static void destroy_cb(void *p)
{
	(void)p;
	__atomic_add_fetch(&destroyed, 1, __ATOMIC_SEQ_CST);
}

static int wait_destroyed(int want)
{
	for (int i = 0; i < 200 && __atomic_load_n(&destroyed,
						   __ATOMIC_SEQ_CST) < want; i++)
		usleep(5000);
	return __atomic_load_n(&destroyed, __ATOMIC_SEQ_CST);
}

/* User objects. */
static void user_objects(CUdeviceptr buf, CUstream s)
{
	CUuserObject o = NULL;
	CUgraph g, c = NULL;
	CUgraphExec e;
	unsigned int v = 1;
	CUresult r;

	show("user object flags 0", cuUserObjectCreate(&o, NULL, destroy_cb, 1, 0));
	show("user object refcount 0", cuUserObjectCreate(&o, NULL, destroy_cb, 0,
				CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	show("user object no destructor", cuUserObjectCreate(&o, NULL, NULL, 1,
				CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	show("user object create", cuUserObjectCreate(&o, NULL, destroy_cb, 2,
				CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	show("user object retain 0", cuUserObjectRetain(o, 0));
	show("user object retain", cuUserObjectRetain(o, 1));
	show("user object release 1", cuUserObjectRelease(o, 1));
	cuGraphCreate(&g, 0);
	kernel(g, NULL, 0, set_value, &buf, &v, &r);
	show("graph retain flags 2", cuGraphRetainUserObject(g, o, 1, 2));
	show("graph retain move", cuGraphRetainUserObject(g, o, 1,
				CU_GRAPH_USER_OBJECT_MOVE));
	show("graph retain", cuGraphRetainUserObject(g, o, 1, 0));
	show("graph release 3", cuGraphReleaseUserObject(g, o, 3));
	show("graph release 1", cuGraphReleaseUserObject(g, o, 1));
	show("clone with user object", cuGraphClone(&c, g));
	show("instantiate with user object", cuGraphInstantiate(&e, g, 0));
	show("user object release caller's last", cuUserObjectRelease(o, 1));
	cuGraphDestroy(c);
	cuGraphDestroy(g);
	printf("destroyed with exec alive: %d\n", wait_destroyed(1));
	cuGraphLaunch(e, s);
	cuGraphExecDestroy(e);
	cuStreamSynchronize(s);
	printf("destroyed after exec destroyed: %d\n", wait_destroyed(1));
}

/* cuGraphDebugDotPrint. */
static void dot(CUdeviceptr buf)
{
	CUgraph g;
	unsigned int v = 1;
	CUresult r;
	char path[64], line[256];
	FILE *f;
	int digraph = 0;

	cuGraphCreate(&g, 0);
	kernel(g, NULL, 0, set_value, &buf, &v, &r);
	snprintf(path, sizeof(path), "/tmp/probe_graphs_%d.dot", (int)getpid());
	show("dot print", cuGraphDebugDotPrint(g, path, 0));
	f = fopen(path, "r");
	if (f) {
		if (fgets(line, sizeof(line), f))
			digraph = !strncmp(line, "digraph", 7);
		fclose(f);
	}
	printf("dot file starts with digraph: %d\n", digraph);
	unlink(path);
	show("dot print verbose", cuGraphDebugDotPrint(g, path,
				CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
	unlink(path);
	show("dot print unknown flag", cuGraphDebugDotPrint(g, path, 1u << 20));
	unlink(path);
	show("dot print bad path", cuGraphDebugDotPrint(g,
				"/nonexistent-dir/x.dot", 0));
	show("dot print NULL path", cuGraphDebugDotPrint(g, NULL, 0));
	cuGraphDestroy(g);
}

static void mem_attrs(const char *what, CUdevice d)
{
	cuuint64_t v[4];

	for (int a = 0; a < 4; a++) {
		v[a] = 12345;
		cuDeviceGetGraphMemAttribute(d, (CUgraphMem_attribute)a, &v[a]);
	}
	printf("%s: used %llu high %llu reserved %llu high %llu\n", what,
	       (unsigned long long)v[0], (unsigned long long)v[1],
	       (unsigned long long)v[2], (unsigned long long)v[3]);
}

static CUDA_MEM_ALLOC_NODE_PARAMS alloc_params(CUdevice d, size_t size)
{
	CUDA_MEM_ALLOC_NODE_PARAMS p;

	memset(&p, 0, sizeof(p));
	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.poolProps.location.id = d;
	p.bytesize = size;
	return p;
}

/* Graph memory: allocation and free nodes, the footprint, capture. */
static void graph_memory(CUdevice d, CUstream s)
{
	CUDA_MEM_ALLOC_NODE_PARAMS p;
	CUgraph g, g2, child, cap;
	CUgraphNode an, fn, x, k, cn;
	CUgraphExec e, e2;
	CUdeviceptr ptr, p2;
	cuuint64_t zero = 0, one = 1;
	unsigned int v = 77;
	CUgraphNodeType t;
	size_t n = 0;
	CUresult r;

	cuDeviceGraphMemTrim(d);
	mem_attrs("start", d);
	cuGraphCreate(&g, 0);
	p = alloc_params(d, 0);
	show("alloc node 0 bytes", cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(d, 1 << 20);
	p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	show("alloc node fd handle type", cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(d, 1 << 20);
	p.poolProps.location.id = 99;
	show("alloc node bad device", cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(d, 1 << 20);
	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
	show("alloc node invalid type", cuGraphAddMemAllocNode(&x, g, NULL, 0, &p));
	p = alloc_params(d, 1 << 20);
	show("alloc node 1 MiB", cuGraphAddMemAllocNode(&an, g, NULL, 0, &p));
	ptr = p.dptr;
	printf("alloc node address set: %d\n", ptr != 0);
	mem_attrs("after alloc node", d);
	k = kernel(g, &an, 1, set_value, &ptr, &v, &r);
	show("kernel on graph memory", r);
	show("free node unknown pointer", cuGraphAddMemFreeNode(&x, g, &k, 1, 4096));
	show("free node", cuGraphAddMemFreeNode(&fn, g, &k, 1, ptr));
	show("free node twice", cuGraphAddMemFreeNode(&x, g, &fn, 1, ptr));
	show("instantiate alloc+free", cuGraphInstantiate(&e, g, 0));
	mem_attrs("after instantiate", d);
	r = cuGraphInstantiate(&e2, g, 0);
	show("instantiate alloc+free again", r);
	if (r == CUDA_SUCCESS)
		cuGraphExecDestroy(e2);
	show("launch alloc+free", cuGraphLaunch(e, s));
	show("sync", cuStreamSynchronize(s));
	mem_attrs("after launch alloc+free", d);
	show("launch alloc+free again", cuGraphLaunch(e, s));
	cuStreamSynchronize(s);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
	mem_attrs("after destroy", d);
	show("trim", cuDeviceGraphMemTrim(d));
	mem_attrs("after trim", d);

	/* An allocation the graph does not free. */
	cuGraphCreate(&g2, 0);
	p = alloc_params(d, 3 << 20);
	cuGraphAddMemAllocNode(&an, g2, NULL, 0, &p);
	p2 = p.dptr;
	show("instantiate alloc only", cuGraphInstantiate(&e, g2, 0));
	show("launch alloc only", cuGraphLaunch(e, s));
	cuStreamSynchronize(s);
	mem_attrs("after launch alloc only", d);
	show("launch alloc only again", cuGraphLaunch(e, s));
	cuStreamSynchronize(s);
	show("free graph memory with cuMemFreeAsync", cuMemFreeAsync(p2, s));
	cuStreamSynchronize(s);
	mem_attrs("after cuMemFreeAsync", d);
	show("launch alloc only after free", cuGraphLaunch(e, s));
	cuStreamSynchronize(s);
	show("free graph memory with cuMemFree", cuMemFree(p2));
	cuGraphExecDestroy(e);
	show("instantiate alloc only, auto free",
	     cuGraphInstantiateWithFlags(&e, g2, 1));
	show("launch auto free", cuGraphLaunch(e, s));
	show("launch auto free again", cuGraphLaunch(e, s));
	cuStreamSynchronize(s);
	mem_attrs("after auto free launches", d);
	cuMemFreeAsync(p2, s);
	cuStreamSynchronize(s);
	cuGraphExecDestroy(e);

	/* A child graph with an allocation. */
	cuGraphCreate(&child, 0);
	p = alloc_params(d, 1 << 20);
	cuGraphAddMemAllocNode(&an, child, NULL, 0, &p);
	cuGraphAddMemFreeNode(&fn, child, &an, 1, p.dptr);
	show("child graph with memory nodes",
	     cuGraphAddChildGraphNode(&cn, g2, NULL, 0, child));
	cuGraphDestroy(child);
	cuGraphDestroy(g2);

	show("set used high 0", cuDeviceSetGraphMemAttribute(d,
			CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
	show("set reserved high 0", cuDeviceSetGraphMemAttribute(d,
			CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &zero));
	show("set used high 1", cuDeviceSetGraphMemAttribute(d,
			CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &one));
	show("set used current 0", cuDeviceSetGraphMemAttribute(d,
			CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &zero));
	show("get attribute 9", cuDeviceGetGraphMemAttribute(d,
			(CUgraphMem_attribute)9, &zero));
	show("get attribute NULL", cuDeviceGetGraphMemAttribute(d,
			CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, NULL));
	show("trim device 99", cuDeviceGraphMemTrim(99));
	cuDeviceGraphMemTrim(d);
	mem_attrs("end", d);

	/* Stream capture: cuMemAllocAsync and cuMemFreeAsync. */
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	show("capture cuMemAllocAsync", cuMemAllocAsync(&ptr, 4096, s));
	show("capture cuMemsetD32Async", cuMemsetD32Async(ptr, 1, 1024, s));
	show("capture cuMemFreeAsync", cuMemFreeAsync(ptr, s));
	show("end capture", cuStreamEndCapture(s, &cap));
	cuGraphGetNodes(cap, NULL, &n);
	printf("captured nodes: %zu\n", n);
	{
		CUgraphNode nodes[8];

		n = 8;
		cuGraphGetNodes(cap, nodes, &n);
		for (size_t i = 0; i < n; i++) {
			cuGraphNodeGetType(nodes[i], &t);
			printf("captured node %zu type %d\n", i, (int)t);
		}
	}
	show("instantiate captured", cuGraphInstantiate(&e, cap, 0));
	show("launch captured", cuGraphLaunch(e, s));
	show("sync captured", cuStreamSynchronize(s));
	cuGraphExecDestroy(e);
	cuGraphDestroy(cap);
}

/* Conditional handles and nodes. */
static void conditional(CUstream s)
{
	CUgraph g, g2;
	CUgraphConditionalHandle h = 0, h2 = 0;
	CUgraphNodeParams np;
	CUgraphNode c, x;
	CUgraphExec e;
	CUDA_HOST_NODE_PARAMS hp;
	CUresult r;

	cuGraphCreate(&g, 0);
	cuGraphCreate(&g2, 0);
	show("handle flags 2", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 2));
	show("handle NULL ctx", cuGraphConditionalHandleCreate(&h, g, NULL, 0, 0));
	show("handle NULL graph", cuGraphConditionalHandleCreate(&h, NULL, ctx, 0, 0));
	show("handle", cuGraphConditionalHandleCreate(&h, g, ctx, 1,
				CU_GRAPH_COND_ASSIGN_DEFAULT));
	show("handle of another graph", cuGraphConditionalHandleCreate(&h2, g2,
				ctx, 0, 0));

	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	np.conditional.handle = h;
	np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	np.conditional.size = 2;
	np.conditional.ctx = ctx;
	show("while size 2", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.type = CU_GRAPH_COND_TYPE_IF;
	np.conditional.size = 3;
	show("if size 3", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.type = CU_GRAPH_COND_TYPE_SWITCH;
	np.conditional.size = 0;
	show("switch size 0", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.type = (CUgraphConditionalNodeType)7;
	np.conditional.size = 1;
	show("type 7", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.type = CU_GRAPH_COND_TYPE_IF;
	np.conditional.handle = h2;
	show("handle of another graph", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.handle = 0;
	show("handle 0", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.handle = h;
	np.conditional.ctx = NULL;
	show("ctx NULL", cuGraphAddNode(&x, g, NULL, NULL, 0, &np));
	np.conditional.ctx = ctx;
	np.conditional.type = CU_GRAPH_COND_TYPE_SWITCH;
	np.conditional.size = 3;
	show("switch size 3", cuGraphAddNode(&c, g, NULL, NULL, 0, &np));
	printf("bodies given: %d\n", np.conditional.phGraph_out != NULL);
	show("instantiate empty switch", cuGraphInstantiate(&e, g, 0));
	if (r = cuGraphLaunch(e, s), r == CUDA_SUCCESS)
		r = cuStreamSynchronize(s);
	show("launch empty switch", r);
	cuGraphExecDestroy(e);

	/* A host node in a body. */
	if (!np.conditional.phGraph_out) {
		cuGraphDestroy(g2);
		cuGraphDestroy(g);
		return;
	}
	memset(&hp, 0, sizeof(hp));
	hp.fn = (CUhostFn)(uintptr_t)puts;
	hp.userData = "";
	show("host node in body", cuGraphAddHostNode(&x,
			np.conditional.phGraph_out[0], NULL, 0, &hp));
	show("instantiate body with host node", cuGraphInstantiate(&e, g, 0));
	cuGraphDestroy(g2);
	cuGraphDestroy(g);
}

int main(void)
{
	CUmodule mod;
	CUdeviceptr buf;
	CUstream s;
	CUdevice d;
	char name[128];

	cuInit(0);
	cuDeviceGet(&d, 0);
	cuDeviceGetName(name, sizeof(name), d);
	printf("device: %s\n", name);
	cuDevicePrimaryCtxRetain(&ctx, d);
	cuCtxSetCurrent(ctx);
	show("load module", cuModuleLoadData(&mod, ptx));
	cuModuleGetFunction(&set_value, mod, "set_value");
	cuModuleGetFunction(&add_value, mod, "add_value");
	cuMemAlloc(&buf, 4096);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	structure(buf, s);
	update(buf, s);
	instantiate(buf, s);
	user_objects(buf, s);
	dot(buf);
	graph_memory(d, s);
	conditional(s);
	cuStreamDestroy(s);
	cuMemFree(buf);
	return 0;
}
