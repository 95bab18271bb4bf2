// SPDX-License-Identifier: GPL-2.0
//
// CUDA graphs through the runtime API (guest test): the same computation
// built by stream capture of <<<>>> launches, async copies, memsets and
// host functions over two streams (fork and join through events), and
// built node by node; both launched several times and checked against a
// CPU reference.  Then the capture errors real CUDA reports, and graph
// errors.
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test_util.h"

#define TAP(cond, ...) ({ bool ok_ = (cond); tap_ok(ok_, __VA_ARGS__); })
#define OK(call) ((call) == cudaSuccess)
#define IS(err, call) ((call) == (err))

#define N 8192
#define THREADS 128
#define BLOCKS ((N + THREADS - 1) / THREADS)

// y = a * x + y
__global__ void axpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

// out = u * v
__global__ void mul(const float *u, const float *v, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = u[i] * v[i];
}

// Spins until *flag is set: only finishes if something else runs meanwhile.
__global__ void wait_for_flag(volatile int *flag)
{
	while (*flag == 0)
		;
}

struct buffers {
	float *hx, *hout, *hhalf;	// pinned (hhalf: N times 0.5)
	float *x, *u, *v, *out;		// device
};

// The host side of the computation, and what a host node records.
struct host_trace {
	int calls;
	float seen_first;		// hout[0] when the host node ran
	const float *hout;
};

static void CUDART_CB trace_host(void *p)
{
	struct host_trace *t = (struct host_trace *)p;

	t->calls++;
	t->seen_first = t->hout[0];
}

// The CPU reference: u = a * x (a zero memset, then axpy), v = 3 * x + 0.5
// (0.5 set by a memset or copied in, then axpy), out = u * v.  fmaf():
// nvcc contracts a * x + y into one fused multiply-add.
static bool check_a(const struct buffers *b, float a)
{
	for (int i = 0; i < N; i++) {
		float u = fmaf(a, b->hx[i], 0.0f);
		float v = fmaf(3.0f, b->hx[i], 0.5f);

		if (b->hout[i] != u * v) {
			tap_diag("out[%d] = %g, expected %g", i, b->hout[i],
				 u * v);
			return false;
		}
	}
	return true;
}

static bool check(const struct buffers *b)
{
	return check_a(b, 2.0f);
}

static void fill_input(struct buffers *b, float base)
{
	for (int i = 0; i < N; i++)
		b->hx[i] = base + (float)(i % 251) * 0.25f;
}

static bool alloc_buffers(struct buffers *b)
{
	return OK(cudaMallocHost(&b->hx, N * sizeof(float))) &&
	       OK(cudaMallocHost(&b->hout, N * sizeof(float))) &&
	       OK(cudaMallocHost(&b->hhalf, N * sizeof(float))) &&
	       OK(cudaMalloc(&b->x, N * sizeof(float))) &&
	       OK(cudaMalloc(&b->u, N * sizeof(float))) &&
	       OK(cudaMalloc(&b->v, N * sizeof(float))) &&
	       OK(cudaMalloc(&b->out, N * sizeof(float)));
}

static void free_buffers(struct buffers *b)
{
	cudaFreeHost(b->hx);
	cudaFreeHost(b->hout);
	cudaFreeHost(b->hhalf);
	cudaFree(b->x);
	cudaFree(b->u);
	cudaFree(b->v);
	cudaFree(b->out);
}

static const unsigned int half_f = 0x3f000000u;	// 0.5f

// Launch @exec @times with new input each time; every result checked.
static bool run_graph(cudaGraphExec_t exec, cudaStream_t s, struct buffers *b,
		      struct host_trace *t, int times)
{
	for (int l = 0; l < times; l++) {
		int calls = t->calls;

		fill_input(b, (float)l * 3.0f);
		memset(b->hout, 0, N * sizeof(float));
		if (!OK(cudaGraphLaunch(exec, s)) ||
		    !OK(cudaStreamSynchronize(s)) || !check(b))
			return false;
		// The host node ran once, after the copy out.
		if (t->calls != calls + 1 || t->seen_first != b->hout[0])
			return false;
	}
	return true;
}

// The guide's capture: s1 forks s2, each computes one operand, s2 joins.
static void test_capture(struct buffers *b)
{
	cudaStream_t s1, s2, s3;
	cudaEvent_t fork, join;
	cudaGraph_t g = NULL, info_graph = NULL;
	cudaGraphExec_t exec;
	enum cudaStreamCaptureStatus st;
	unsigned long long id = 0;
	struct host_trace t = { 0, 0.0f, b->hout };
	size_t count = 0;
	bool ok;

	ok = OK(cudaStreamCreate(&s1)) && OK(cudaStreamCreate(&s2)) &&
	     OK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking)) &&
	     OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming)) &&
	     OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
	TAP(ok, "capture: streams and events");
	fill_input(b, 0.0f);
	for (int i = 0; i < N; i++)
		b->hout[i] = -7.0f;

	TAP(OK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)),
	    "capture: cudaStreamBeginCapture");
	TAP(OK(cudaStreamIsCapturing(s1, &st)) &&
	    st == cudaStreamCaptureStatusActive, "capture: s1 is capturing");
	cudaMemcpyAsync(b->x, b->hx, N * sizeof(float),
			cudaMemcpyHostToDevice, s1);
	cudaEventRecord(fork, s1);
	cudaStreamWaitEvent(s2, fork, 0);
	TAP(OK(cudaStreamIsCapturing(s2, &st)) &&
	    st == cudaStreamCaptureStatusActive,
	    "capture: waiting for the event pulls s2 into the capture");
	// u on s1, v on s2: independent branches.
	cudaMemsetAsync(b->u, 0, N * sizeof(float), s1);
	axpy<<<BLOCKS, THREADS, 0, s1>>>(2.0f, b->x, b->u, N);
	cudaMemcpyAsync(b->v, b->hhalf, N * sizeof(float),
			cudaMemcpyHostToDevice, s2);
	axpy<<<BLOCKS, THREADS, 0, s2>>>(3.0f, b->x, b->v, N);
	cudaEventRecord(join, s2);
	cudaStreamWaitEvent(s1, join, 0);
	mul<<<BLOCKS, THREADS, 0, s1>>>(b->u, b->v, b->out, N);
	cudaMemcpyAsync(b->hout, b->out, N * sizeof(float),
			cudaMemcpyDeviceToHost, s1);
	cudaLaunchHostFunc(s1, trace_host, &t);
	TAP(cudaGetLastError() == cudaSuccess,
	    "capture: every captured call succeeded");
	TAP(OK(cudaStreamGetCaptureInfo(s1, &st, &id, &info_graph)) &&
	    st == cudaStreamCaptureStatusActive && id != 0 && info_graph,
	    "capture: cudaStreamGetCaptureInfo");
	TAP(OK(cudaStreamEndCapture(s1, &g)) && g == info_graph,
	    "capture: cudaStreamEndCapture returns the graph");
	TAP(OK(cudaStreamIsCapturing(s2, &st)) &&
	    st == cudaStreamCaptureStatusNone,
	    "capture: s2 left the capture with s1");
	TAP(OK(cudaDeviceSynchronize()) && b->hout[0] == -7.0f && t.calls == 0,
	    "capture: nothing captured ran");
	TAP(OK(cudaGraphGetNodes(g, NULL, &count)) && count == 8,
	    "capture: 8 nodes (%zu)", count);
	TAP(OK(cudaGraphInstantiate(&exec, g, 0)),
	    "capture: cudaGraphInstantiate");
	TAP(run_graph(exec, s3, b, &t, 3),
	    "capture: 3 launches match the CPU reference");
	TAP(OK(cudaGraphExecDestroy(exec)) && OK(cudaGraphDestroy(g)),
	    "capture: destroy");
	cudaEventDestroy(fork);
	cudaEventDestroy(join);
	cudaStreamDestroy(s1);
	cudaStreamDestroy(s2);
	cudaStreamDestroy(s3);
}

// The same computation with the graph API.
static void test_explicit(struct buffers *b)
{
	cudaGraph_t g;
	cudaGraphExec_t exec;
	cudaGraphNode_t in, set_u, set_v, ku, kv, km, outn, host;
	cudaGraphNode_t roots[8], deps[2], tos[2];
	struct host_trace t = { 0, 0.0f, b->hout };
	float two = 2.0f, three = 3.0f;
	int n = N;
	void *au[] = { &two, &b->x, &b->u, &n };
	void *av[] = { &three, &b->x, &b->v, &n };
	void *am[] = { &b->u, &b->v, &b->out, &n };
	struct cudaKernelNodeParams kp = {};
	struct cudaMemsetParams mp = {};
	struct cudaHostNodeParams hp = { trace_host, &t };
	enum cudaGraphNodeType type;
	size_t count = 8;
	bool ok;

	kp.gridDim = dim3(BLOCKS);
	kp.blockDim = dim3(THREADS);
	mp.elementSize = 4;
	mp.width = N;
	mp.height = 1;
	ok = OK(cudaGraphCreate(&g, 0)) &&
	     OK(cudaGraphAddMemcpyNode1D(&in, g, NULL, 0, b->x, b->hx,
					 N * sizeof(float),
					 cudaMemcpyHostToDevice));
	mp.dst = b->u;
	mp.value = 0;
	ok = ok && OK(cudaGraphAddMemsetNode(&set_u, g, NULL, 0, &mp));
	mp.dst = b->v;
	mp.value = half_f;
	ok = ok && OK(cudaGraphAddMemsetNode(&set_v, g, NULL, 0, &mp));
	kp.func = (void *)axpy;
	kp.kernelParams = au;
	deps[0] = in;
	deps[1] = set_u;
	ok = ok && OK(cudaGraphAddKernelNode(&ku, g, deps, 2, &kp));
	kp.kernelParams = av;
	deps[1] = set_v;
	ok = ok && OK(cudaGraphAddKernelNode(&kv, g, deps, 2, &kp));
	kp.func = (void *)mul;
	kp.kernelParams = am;
	ok = ok && OK(cudaGraphAddKernelNode(&km, g, NULL, 0, &kp));
	deps[0] = ku;
	deps[1] = kv;
	tos[0] = tos[1] = km;
	ok = ok && OK(cudaGraphAddDependencies(g, deps, tos, NULL, 2));
	ok = ok && OK(cudaGraphAddMemcpyNode1D(&outn, g, &km, 1, b->hout,
					       b->out, N * sizeof(float),
					       cudaMemcpyDeviceToHost));
	ok = ok && OK(cudaGraphAddHostNode(&host, g, &outn, 1, &hp));
	TAP(ok, "explicit: graph built");
	// The arguments were copied when the nodes were added.
	two = three = 0.0f;
	n = 0;
	TAP(OK(cudaGraphGetRootNodes(g, roots, &count)) && count == 3,
	    "explicit: 3 root nodes (%zu)", count);
	TAP(OK(cudaGraphNodeGetType(host, &type)) &&
	    type == cudaGraphNodeTypeHost &&
	    OK(cudaGraphNodeGetType(set_v, &type)) &&
	    type == cudaGraphNodeTypeMemset, "explicit: node types");
	TAP(OK(cudaGraphInstantiate(&exec, g, 0)),
	    "explicit: cudaGraphInstantiate");
	TAP(run_graph(exec, 0, b, &t, 3),
	    "explicit: 3 launches match the CPU reference");
	// Changed in the executable graph only: u = 5x now.
	float five = 5.0f;
	int nn = N;
	void *a5[] = { &five, &b->x, &b->u, &nn };

	kp.func = (void *)axpy;
	kp.kernelParams = a5;
	TAP(OK(cudaGraphExecKernelNodeSetParams(exec, ku, &kp)) &&
	    OK(cudaGraphLaunch(exec, 0)) && OK(cudaStreamSynchronize(0)) &&
	    check_a(b, 5.0f),
	    "explicit: cudaGraphExecKernelNodeSetParams");
	TAP(OK(cudaGraphExecDestroy(exec)) && OK(cudaGraphDestroy(g)),
	    "explicit: destroy");
}

// What may not happen while a stream captures.
static void test_capture_errors(struct buffers *b)
{
	cudaStream_t s, s2;
	cudaEvent_t ev;
	cudaGraph_t g = (cudaGraph_t)1;
	enum cudaStreamCaptureStatus st;

	cudaStreamCreate(&s);
	cudaStreamCreate(&s2);
	cudaEventCreate(&ev);
	TAP(IS(cudaErrorIllegalState, cudaStreamEndCapture(s, &g)),
	    "errors: ending a capture that never began");
	TAP(IS(cudaErrorStreamCaptureUnsupported,
	       cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)),
	    "errors: the legacy stream cannot capture");

	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	TAP(IS(cudaErrorStreamCaptureImplicit,
	       cudaMemcpy(b->hout, b->out, 64, cudaMemcpyDeviceToHost)),
	    "errors: synchronous cudaMemcpy while a blocking stream captures");
	TAP(OK(cudaStreamIsCapturing(s, &st)) &&
	    st == cudaStreamCaptureStatusInvalidated,
	    "errors: the capture is invalidated");
	mul<<<1, 32, 0, s>>>(b->u, b->v, b->out, 32);
	TAP(cudaGetLastError() == cudaErrorStreamCaptureInvalidated,
	    "errors: a launch into the invalidated capture");
	TAP(IS(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(s, &g)) &&
	    g == NULL, "errors: end capture reports it, no graph");

	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	TAP(IS(cudaErrorStreamCaptureUnsupported, cudaStreamSynchronize(s)),
	    "errors: cudaStreamSynchronize of a capturing stream");
	TAP(IS(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(s, &g)),
	    "errors: ... invalidates the capture");
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	TAP(IS(cudaErrorStreamCaptureUnsupported, cudaDeviceSynchronize()),
	    "errors: cudaDeviceSynchronize while capturing");
	TAP(IS(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(s, &g)),
	    "errors: ... invalidates the capture");

	void *tmp;

	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	TAP(IS(cudaErrorStreamCaptureUnsupported, cudaMalloc(&tmp, 64)),
	    "errors: cudaMalloc during a global capture");
	TAP(IS(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(s, &g)),
	    "errors: ... invalidates the capture");

	// The answers of an H100 (tools/cuda-probe/golden/probe_capture.h100.txt).
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	TAP(IS(cudaErrorStreamCaptureUnsupported, cudaStreamQuery(s2)),
	    "errors: cudaStreamQuery of another stream in a global capture");
	TAP(IS(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(s, &g)),
	    "errors: ... invalidates the capture");
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	TAP(OK(cudaStreamSynchronize(s2)) && OK(cudaStreamEndCapture(s, &g)) &&
	    OK(cudaGraphDestroy(g)),
	    "errors: ... allowed in a relaxed capture");
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaEventRecord(ev, s);
	TAP(IS(cudaErrorCapturedEvent, cudaEventQuery(ev)),
	    "errors: cudaEventQuery of a captured event");
	TAP(IS(cudaErrorInvalidValue, cudaEventSynchronize(ev)),
	    "errors: cudaEventSynchronize of it once the capture is invalid");
	TAP(IS(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(s, &g)),
	    "errors: ... the capture is invalidated");

	enum cudaStreamCaptureMode mode = (enum cudaStreamCaptureMode)9;

	TAP(OK(cudaThreadExchangeStreamCaptureMode(&mode)) &&
	    mode == cudaStreamCaptureModeGlobal &&
	    OK(cudaThreadExchangeStreamCaptureMode(&mode)) && (int)mode == 9,
	    "errors: cudaThreadExchangeStreamCaptureMode stores any mode");

	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaEventRecord(ev, s);
	cudaStreamWaitEvent(s2, ev, 0);
	mul<<<1, 32, 0, s2>>>(b->u, b->v, b->out, 32);
	TAP(IS(cudaErrorStreamCaptureUnjoined, cudaStreamEndCapture(s, &g)),
	    "errors: a forked stream that never joined");
	TAP(OK(cudaStreamIsCapturing(s2, &st)) &&
	    st == cudaStreamCaptureStatusNone, "errors: ... ends its capture too");
	cudaGetLastError();
	TAP(OK(cudaStreamSynchronize(s)) && OK(cudaDeviceSynchronize()),
	    "errors: the streams work again");
	cudaEventDestroy(ev);
	cudaStreamDestroy(s);
	cudaStreamDestroy(s2);
}

static void CUDART_CB set_flag(void *p)
{
	*(volatile int *)p = 1;
}

/*
 * Independent branches run at the same time: one branch is a kernel that
 * waits for a flag, the other a host node that sets it.  Run one after
 * the other (the kernel first, as it comes first in the graph), the
 * kernel would never end - the watchdog would stop it after 5 s and the
 * launch would fail.  CUDA allows but does not promise this concurrency;
 * this library gives each branch its own queue (graph_launch.c).
 */
static void test_parallel_branches(void)
{
	cudaGraph_t g;
	cudaGraphExec_t exec;
	cudaGraphNode_t k, h, join, deps[2];
	int *flag;
	void *args[] = { &flag };
	struct cudaKernelNodeParams kp = {};
	struct cudaHostNodeParams hp;
	bool ok;

	ok = OK(cudaMallocHost(&flag, sizeof(int)));
	kp.func = (void *)wait_for_flag;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(1);
	kp.kernelParams = args;
	hp.fn = set_flag;
	hp.userData = flag;
	ok = ok && OK(cudaGraphCreate(&g, 0)) &&
	     OK(cudaGraphAddKernelNode(&k, g, NULL, 0, &kp)) &&
	     OK(cudaGraphAddHostNode(&h, g, NULL, 0, &hp));
	deps[0] = k;
	deps[1] = h;
	ok = ok && OK(cudaGraphAddEmptyNode(&join, g, deps, 2)) &&
	     OK(cudaGraphInstantiate(&exec, g, 0));
	TAP(ok, "parallel: graph built");
	for (int l = 0; l < 2; l++) {
		*flag = 0;
		TAP(OK(cudaGraphLaunch(exec, 0)) && OK(cudaStreamSynchronize(0)) &&
		    *flag == 1, "parallel: the branches ran side by side (%d)", l);
	}
	cudaGraphExecDestroy(exec);
	cudaGraphDestroy(g);
	cudaFreeHost(flag);
}

static void test_graph_errors(void)
{
	cudaGraph_t g, g2;
	cudaGraphExec_t exec;
	cudaGraphNode_t a, b, other;

	cudaGraphCreate(&g, 0);
	cudaGraphCreate(&g2, 0);
	cudaGraphAddEmptyNode(&a, g, NULL, 0);
	cudaGraphAddEmptyNode(&b, g, &a, 1);
	cudaGraphAddEmptyNode(&other, g2, NULL, 0);
	TAP(IS(cudaErrorInvalidValue, cudaGraphAddEmptyNode(&a, g, &other, 1)),
	    "graph errors: a dependency on another graph's node");
	TAP(IS(cudaErrorInvalidValue,
	       cudaGraphAddDependencies(g, &a, &b, NULL, 1)),
	    "graph errors: an edge that exists");
	TAP(OK(cudaGraphAddDependencies(g, &b, &a, NULL, 1)) &&
	    IS(cudaErrorInvalidValue, cudaGraphInstantiate(&exec, g, 0)),
	    "graph errors: a cycle cannot be instantiated");
	TAP(OK(cudaGraphDestroy(g2)) &&
	    IS(cudaErrorInvalidValue, cudaGraphDestroy(g2)),
	    "graph errors: destroying a graph twice");
	cudaGraphDestroy(g);
	cudaGetLastError();
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	struct buffers b;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	if (!TAP(alloc_buffers(&b), "buffers"))
		return tap_finish();
	for (int i = 0; i < N; i++)
		b.hhalf[i] = 0.5f;
	// First: the kernels' module is loaded during the capture.
	test_capture(&b);
	test_explicit(&b);
	test_capture_errors(&b);
	test_parallel_branches();
	test_graph_errors();
	free_buffers(&b);
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
