// SPDX-License-Identifier: GPL-2.0
//
// The runtime's graph calls beyond kernels, copies and host functions
// (guest test): child graphs and event nodes, clones, executable-graph
// update, user objects, DOT files, graph memory (explicit nodes and
// cudaMallocAsync in a capture, the footprint) and conditional nodes
// whose condition a kernel sets with cudaGraphSetConditional.  Results
// are checked against the CPU; the driver's tests (test_cu_graph_nodes)
// cover the error codes.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test_util.h"

#define TAP(cond, ...) ({ bool ok_ = (cond); tap_ok(ok_, __VA_ARGS__); })
#define OK(call) ((call) == cudaSuccess)

#define N 1024

// d = d * 2 + k
__global__ void twice_plus(int *d, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		d[i] = d[i] * 2 + k;
}

// Count down *n; the loop goes on while it is above 0.
__global__ void count_down(cudaGraphConditionalHandle h, int *n, int *runs)
{
	--*n;
	++*runs;
	cudaGraphSetConditional(h, *n > 0);
}

// Choose SWITCH body *sel.
__global__ void choose(cudaGraphConditionalHandle h, const int *sel)
{
	cudaGraphSetConditional(h, (unsigned int)*sel);
}

static cudaGraphNode_t add_twice_plus(cudaGraph_t g, cudaGraphNode_t *dep,
				      int **d, int *k)
{
	cudaKernelNodeParams p = {};
	void *args[] = { d, k };
	cudaGraphNode_t n = NULL;

	p.func = (void *)twice_plus;
	p.gridDim = dim3(N / 128);
	p.blockDim = dim3(128);
	p.kernelParams = args;
	cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &p);
	return n;
}

static bool all_equal(const int *d, int want)
{
	int *h = (int *)malloc(N * sizeof(int));
	bool ok = h && OK(cudaMemcpy(h, d, N * sizeof(int),
				     cudaMemcpyDeviceToHost));

	for (int i = 0; ok && i < N; i++)
		ok = h[i] == want;
	free(h);
	return ok;
}

static void test_child_event_clone_update(void)
{
	cudaGraph_t g, child, g2, c;
	cudaGraphNode_t k, cn, rec, wait, found;
	cudaGraphExec_t e, e2;
	cudaGraphExecUpdateResultInfo info;
	cudaStream_t s1, s2;
	cudaEvent_t ev;
	int *d, one = 1, two = 2, three = 3;

	cudaMalloc(&d, N * sizeof(int));
	cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
	cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
	cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
	cudaGraphCreate(&child, 0);
	add_twice_plus(child, NULL, &d, &one);
	cudaGraphCreate(&g, 0);
	k = add_twice_plus(g, NULL, &d, &two);
	TAP(OK(cudaGraphAddChildGraphNode(&cn, g, &k, 1, child)),
	    "child graph node");
	TAP(OK(cudaGraphAddEventRecordNode(&rec, g, &cn, 1, ev)),
	    "event record node");
	cudaGraphCreate(&g2, 0);
	TAP(OK(cudaGraphAddEventWaitNode(&wait, g2, NULL, 0, ev)),
	    "event wait node");
	add_twice_plus(g2, &wait, &d, &three);
	TAP(OK(cudaGraphInstantiate(&e, g, 0)) &&
	    OK(cudaGraphInstantiate(&e2, g2, 0)), "instantiate both");
	/*
	 * In s1's order: cudaMemset on the legacy stream would not order
	 * itself before work on a non-blocking stream.
	 */
	cudaMemsetAsync(d, 0, N * sizeof(int), s1);
	cudaGraphLaunch(e, s1);
	cudaGraphLaunch(e2, s2);
	cudaStreamSynchronize(s2);
	cudaStreamSynchronize(s1);
	// ((0 * 2 + 2) * 2 + 1) * 2 + 3 = 13
	TAP(all_equal(d, 13), "the second graph waited for the first's event");

	TAP(OK(cudaGraphClone(&c, g)), "clone");
	TAP(OK(cudaGraphNodeFindInClone(&found, k, c)) && found != k,
	    "find in clone");
	// The clone with the kernel's constant changed to 3: an update.
	cudaKernelNodeParams kp = {};
	void *args[] = { &d, &three };
	kp.func = (void *)twice_plus;
	kp.gridDim = dim3(N / 128);
	kp.blockDim = dim3(128);
	kp.kernelParams = args;
	TAP(OK(cudaGraphKernelNodeSetParams(found, &kp)), "set clone's params");
	TAP(OK(cudaGraphExecUpdate(e, c, &info)) &&
	    info.result == cudaGraphExecUpdateSuccess, "exec update");
	cudaMemsetAsync(d, 0, N * sizeof(int), s1);
	cudaGraphLaunch(e, s1);
	cudaStreamSynchronize(s1);
	// (0 * 2 + 3) * 2 + 1 = 7
	TAP(all_equal(d, 7), "the update took effect");
	cudaGraphAddEmptyNode(&found, c, NULL, 0);
	TAP(cudaGraphExecUpdate(e, c, &info) ==
	    cudaErrorGraphExecUpdateFailure &&
	    info.result == cudaGraphExecUpdateErrorTopologyChanged,
	    "exec update refused: topology changed");
	cudaGraphExecDestroy(e);
	cudaGraphExecDestroy(e2);
	cudaGraphDestroy(c);
	cudaGraphDestroy(g2);
	cudaGraphDestroy(g);
	cudaGraphDestroy(child);
	cudaEventDestroy(ev);
	cudaStreamDestroy(s1);
	cudaStreamDestroy(s2);
	cudaFree(d);
}

static int destroyed;

static void CUDART_CB destroy_cb(void *p)
{
	__atomic_add_fetch((int *)p, 1, __ATOMIC_SEQ_CST);
}

static void test_user_object_and_dot(void)
{
	cudaUserObject_t o;
	cudaGraph_t g;
	cudaGraphNode_t n;
	cudaGraphExec_t e;
	char path[64], line[64] = "";
	FILE *f;

	cudaGraphCreate(&g, 0);
	cudaGraphAddEmptyNode(&n, g, NULL, 0);
	TAP(OK(cudaUserObjectCreate(&o, &destroyed, destroy_cb, 1,
				    cudaUserObjectNoDestructorSync)),
	    "user object");
	TAP(OK(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove)),
	    "the graph takes the reference");
	cudaGraphInstantiate(&e, g, 0);
	cudaGraphDestroy(g);
	usleep(100000);
	TAP(__atomic_load_n(&destroyed, __ATOMIC_SEQ_CST) == 0,
	    "the executable graph keeps the object");
	cudaGraphExecDestroy(e);
	for (int i = 0; i < 400 && !__atomic_load_n(&destroyed,
						    __ATOMIC_SEQ_CST); i++)
		usleep(5000);
	TAP(__atomic_load_n(&destroyed, __ATOMIC_SEQ_CST) == 1,
	    "destroyed with the executable graph");

	cudaGraphCreate(&g, 0);
	cudaGraphAddEmptyNode(&n, g, NULL, 0);
	snprintf(path, sizeof(path), "/tmp/test_cudart_graph_nodes_%d.dot",
		 (int)getpid());
	TAP(OK(cudaGraphDebugDotPrint(g, path, 0)), "DOT file");
	f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	unlink(path);
	TAP(!strncmp(line, "digraph", 7), "it is a digraph");
	cudaGraphDestroy(g);
}

static void test_graph_memory(void)
{
	cudaMemAllocNodeParams ap = {};
	cudaGraph_t g;
	cudaGraphNode_t an, k, cpy, fn, nodes[8];
	cudaGraphExec_t e;
	cudaStream_t s;
	enum cudaGraphNodeType t;
	size_t count = 8;
	unsigned long long used = 0;
	int *d, *h = (int *)malloc(N * sizeof(int)), five = 5;
	bool ok = true;

	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	cudaGraphCreate(&g, 0);
	ap.poolProps.allocType = cudaMemAllocationTypePinned;
	ap.poolProps.location.type = cudaMemLocationTypeDevice;
	ap.poolProps.location.id = 0;
	ap.bytesize = N * sizeof(int);
	TAP(OK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap)) && ap.dptr,
	    "allocation node");
	d = (int *)ap.dptr;
	cudaGraphNode_t ms;
	cudaMemsetParams mp = {};
	mp.dst = d;
	mp.elementSize = 4;
	mp.width = N;
	mp.height = 1;
	cudaGraphAddMemsetNode(&ms, g, &an, 1, &mp);
	k = add_twice_plus(g, &ms, &d, &five);
	cudaGraphAddMemcpyNode1D(&cpy, g, &k, 1, h, d, N * sizeof(int),
				 cudaMemcpyDeviceToHost);
	TAP(OK(cudaGraphAddMemFreeNode(&fn, g, &cpy, 1, d)), "free node");
	TAP(OK(cudaGraphInstantiate(&e, g, 0)), "instantiate");
	for (int round = 0; round < 2 && ok; round++) {
		memset(h, 0, N * sizeof(int));
		ok = OK(cudaGraphLaunch(e, s)) && OK(cudaStreamSynchronize(s));
		for (int i = 0; ok && i < N; i++)
			ok = h[i] == 5;
	}
	TAP(ok, "two launches, same address, right results");
	TAP(OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
					      &used)) && used == 32 << 20,
	    "footprint: one 32 MiB chunk");
	cudaGraphExecDestroy(e);
	cudaGraphDestroy(g);
	TAP(OK(cudaDeviceGraphMemTrim(0)) &&
	    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
					      &used)) && used == 0,
	    "trimmed");

	// cudaMallocAsync / cudaFreeAsync in a capture.
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaMallocAsync((void **)&d, N * sizeof(int), s);
	cudaMemsetAsync(d, 0, N * sizeof(int), s);
	twice_plus<<<N / 128, 128, 0, s>>>(d, 9);
	cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
	cudaFreeAsync(d, s);
	TAP(OK(cudaStreamEndCapture(s, &g)), "capture with allocation");
	cudaGraphGetNodes(g, nodes, &count);
	cudaGraphNodeGetType(nodes[0], &t);
	ok = count == 5 && t == cudaGraphNodeTypeMemAlloc;
	cudaGraphNodeGetType(nodes[4], &t);
	TAP(ok && t == cudaGraphNodeTypeMemFree,
	    "captured: allocation node first, free node last");
	ok = OK(cudaGraphInstantiate(&e, g, 0)) && OK(cudaGraphLaunch(e, s)) &&
	     OK(cudaStreamSynchronize(s));
	for (int i = 0; ok && i < N; i++)
		ok = h[i] == 9;
	TAP(ok, "captured graph runs");
	cudaGraphExecDestroy(e);
	cudaGraphDestroy(g);
	cudaStreamDestroy(s);
	free(h);
}

// WHILE counting down from 5; then a SWITCH a kernel chooses.
static void test_conditionals(void)
{
	cudaGraphConditionalHandle hw, hs;
	cudaGraph_t g;
	cudaGraphNode_t loop, sel, sw, x;
	cudaGraphExec_t e;
	cudaGraphNodeParams cp = {};
	int *st, host[3];

	cudaMalloc(&st, 3 * sizeof(int));
	cudaGraphCreate(&g, 0);
	TAP(OK(cudaGraphConditionalHandleCreate(&hw, g, 1,
						cudaGraphCondAssignDefault)),
	    "WHILE handle");
	TAP(OK(cudaGraphConditionalHandleCreate(&hs, g, 0, 0)),
	    "SWITCH handle");
	cp.type = cudaGraphNodeTypeConditional;
	cp.conditional.handle = hw;
	cp.conditional.type = cudaGraphCondTypeWhile;
	cp.conditional.size = 1;
	TAP(OK(cudaGraphAddNode(&loop, g, NULL, NULL, 0, &cp)), "WHILE node");
	{
		cudaKernelNodeParams kp = {};
		int *runs = st + 1;
		void *args[] = { &hw, &st, &runs };

		kp.func = (void *)count_down;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(1);
		kp.kernelParams = args;
		cudaGraphAddKernelNode(&x, cp.conditional.phGraph_out[0], NULL,
				       0, &kp);
	}
	{
		cudaKernelNodeParams kp = {};
		void *args[] = { &hs, &st };

		kp.func = (void *)choose;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(1);
		kp.kernelParams = args;
		cudaGraphAddKernelNode(&sel, g, &loop, 1, &kp);
	}
	cp.conditional.handle = hs;
	cp.conditional.type = cudaGraphCondTypeSwitch;
	cp.conditional.size = 2;
	TAP(OK(cudaGraphAddNode(&sw, g, &sel, NULL, 1, &cp)), "SWITCH node");
	// Body 0 writes 100, body 1 writes 101 into st[2].
	for (int b = 0; b < 2; b++) {
		cudaMemsetParams mp = {};

		mp.dst = st + 2;
		mp.value = 100 + b;
		mp.elementSize = 4;
		mp.width = 1;
		mp.height = 1;
		cudaGraphAddMemsetNode(&x, cp.conditional.phGraph_out[b], NULL,
				       0, &mp);
	}
	TAP(OK(cudaGraphInstantiate(&e, g, 0)), "instantiate conditionals");
	for (int start = 1; start <= 5; start += 4) {
		int init[3] = { start, 0, 0 };

		cudaMemcpy(st, init, sizeof(init), cudaMemcpyHostToDevice);
		TAP(OK(cudaGraphLaunch(e, 0)) && OK(cudaDeviceSynchronize()),
		    "launch from %d", start);
		cudaMemcpy(host, st, sizeof(host), cudaMemcpyDeviceToHost);
		// The loop ran start times and left 0: SWITCH body 0.
		TAP(host[0] == 0 && host[1] == start && host[2] == 100,
		    "from %d: counter %d, %d iterations, switch wrote %d",
		    start, host[0], host[1], host[2]);
	}
	cudaGraphExecDestroy(e);
	cudaGraphDestroy(g);
	cudaFree(st);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	test_child_event_clone_update();
	test_user_object_and_dot();
	test_graph_memory();
	test_conditionals();
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
