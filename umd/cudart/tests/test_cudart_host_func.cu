// SPDX-License-Identifier: GPL-2.0
//
// Host functions through the runtime API (guest test): cudaLaunchHostFunc
// and cudaStreamAddCallback return at once, even behind a kernel that
// waits for the host; the function runs after the stream's earlier work
// and before its later work; the stream is not complete while it has not
// returned; a callback gets the fault of its stream as its status; runtime
// calls inside a host function answer cudaErrorNotPermitted (the H100's
// answers, tools/cuda-probe/golden/probe_hostfn.h100.txt); a graph's host
// node behaves the same.  Every wait for the host is bounded (WAIT_MS),
// far below the driver's 5 s watchdog.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_tap.h"

#define WAIT_MS 2000

// Spins until the host sets *flag, then says it ended: *done = 1.
__global__ void wait_flag(volatile int *flag, int *done)
{
	while (*flag == 0)
		;
	*done = 1;
}

// *dst = *src: what a host function wrote before, if it ran before.
__global__ void copy_int(int *dst, const volatile int *src)
{
	*dst = *src;
}

// A store 1 TiB past p: an illegal address.
__global__ void wild(int *p)
{
	*(volatile int *)((char *)p + 0x10000000000ll) = 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// Wait up to WAIT_MS for *v; whether it came.
static bool wait_for(volatile int *v)
{
	long long end = now_ms() + WAIT_MS;

	while (!__atomic_load_n(v, __ATOMIC_ACQUIRE)) {
		if (now_ms() > end)
			return false;
		usleep(1000);
	}
	return true;
}

static void set(volatile int *v)
{
	__atomic_store_n(v, 1, __ATOMIC_RELEASE);
}

// --- a callback after a fault (in a child: a fault ends the process's use)

static volatile int fault_cb_ran;
static cudaError_t fault_status = cudaSuccess;

static void CUDART_CB fault_cb(cudaStream_t s, cudaError_t status, void *arg)
{
	(void)s;
	(void)arg;
	fault_status = status;
	set(&fault_cb_ran);
}

static void test_fault_status(void)
{
	int *pinned;
	cudaStream_t s;

	if (!TAP(OK(cudaHostAlloc(&pinned, 4096, cudaHostAllocMapped)) &&
		 OK(cudaStreamCreate(&s)), "fault: set up"))
		return;
	pinned[0] = 0;
	// wait_flag holds the fault back until the callback is queued.
	wait_flag<<<1, 1, 0, s>>>(pinned, pinned + 1);
	wild<<<1, 1, 0, s>>>(pinned);
	TAP(OK(cudaStreamAddCallback(s, fault_cb, NULL, 0)),
	    "fault: cudaStreamAddCallback behind a faulting kernel");
	set(pinned);
	TAP(IS(cudaErrorIllegalAddress, cudaStreamSynchronize(s)),
	    "fault: cudaStreamSynchronize reports the fault");
	TAP(wait_for(&fault_cb_ran) &&
	    fault_status == cudaErrorIllegalAddress,
	    "fault: the callback ran with status %s",
	    cudaGetErrorName(fault_status));
}

// --- order behind a kernel that waits for the host

static struct {
	volatile int *pinned;
	pthread_t caller;
	volatile int ran;
	int saw_done;
	bool other_thread;
} behind;

static void CUDART_CB behind_fn(void *arg)
{
	(void)arg;
	behind.saw_done = behind.pinned[1];
	behind.pinned[2] = 7;
	behind.other_thread = !pthread_equal(pthread_self(), behind.caller);
	set(&behind.ran);
}

static void test_behind_waiting_kernel(int *pinned)
{
	cudaStream_t s;
	bool early;

	behind.pinned = pinned;
	behind.caller = pthread_self();
	TAP(OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)),
	    "cudaStreamCreateWithFlags");
	wait_flag<<<1, 1, 0, s>>>(pinned, pinned + 1);
	TAP(OK(cudaLaunchHostFunc(s, behind_fn, NULL)),
	    "cudaLaunchHostFunc behind a kernel waiting for the host returns");
	early = !behind.ran;
	copy_int<<<1, 1, 0, s>>>(pinned + 3, pinned + 2);
	TAP(IS(cudaErrorNotReady, cudaStreamQuery(s)),
	    "cudaStreamQuery: not ready");
	set(pinned);
	TAP(OK(cudaStreamSynchronize(s)), "cudaStreamSynchronize");
	TAP(early && behind.ran, "the function ran later, not in the call");
	TAP(behind.saw_done == 1 && pinned[3] == 7,
	    "after the kernel before it (%d), before the kernel after it (%d)",
	    behind.saw_done, pinned[3]);
	TAP(behind.other_thread, "on another thread");
	TAP(OK(cudaStreamDestroy(s)), "cudaStreamDestroy");
}

// --- callbacks and a function that blocks

static volatile int cb_ran, block_release, block_done;
static cudaError_t cb_status = cudaErrorUnknown;
static cudaStream_t cb_stream;

static void CUDART_CB status_cb(cudaStream_t s, cudaError_t status, void *arg)
{
	cb_stream = s;
	cb_status = status;
	*(int *)arg = 11;
	set(&cb_ran);
}

static void CUDART_CB block_fn(void *arg)
{
	*(int *)arg = wait_for(&block_release) ? 1 : 2;
	set(&block_done);
}

static void test_callback_and_blocking(int *pinned)
{
	cudaEvent_t after;
	cudaStream_t s;
	int result = 0, cb_arg = 0;

	TAP(OK(cudaStreamCreate(&s)) &&
	    OK(cudaEventCreateWithFlags(&after, cudaEventDisableTiming)),
	    "stream and event");
	TAP(IS(cudaErrorInvalidValue, cudaStreamAddCallback(s, status_cb,
							   NULL, 1)) &&
	    IS(cudaErrorInvalidValue, cudaLaunchHostFunc(s, NULL, NULL)),
	    "flags and NULL functions: cudaErrorInvalidValue");
	cudaGetLastError();
	TAP(OK(cudaLaunchHostFunc(s, block_fn, &result)) &&
	    OK(cudaStreamAddCallback(s, status_cb, &cb_arg, 0)) &&
	    OK(cudaEventRecord(after, s)), "queued behind a blocked function");
	// The legacy stream waits for the blocking stream's function.
	copy_int<<<1, 1>>>(pinned + 5, pinned + 4);
	TAP(IS(cudaErrorNotReady, cudaStreamQuery(s)) &&
	    IS(cudaErrorNotReady, cudaEventQuery(after)) && !cb_ran,
	    "while it blocks: stream and event not ready, callback not run");
	pinned[4] = 3;
	set(&block_release);
	TAP(OK(cudaDeviceSynchronize()), "cudaDeviceSynchronize");
	TAP(result == 1 && cb_ran && cb_arg == 11, "both ran, in order");
	TAP(cb_status == cudaSuccess && cb_stream == s,
	    "the callback's status (%s) and stream",
	    cudaGetErrorName(cb_status));
	TAP(pinned[5] == 3, "the legacy stream's kernel ran after it");
	TAP(OK(cudaStreamQuery(s)) && OK(cudaEventQuery(after)),
	    "complete afterwards");
	cudaEventDestroy(after);
	cudaStreamDestroy(s);
}

// --- runtime calls inside a host function

static struct {
	cudaError_t malloc_err, last, sync, query, get_device;
	cudaStream_t other;
	volatile int done;
} inside;

static void CUDART_CB inside_fn(void *arg)
{
	void *p;
	int dev;

	(void)arg;
	inside.malloc_err = cudaMalloc(&p, 64);
	inside.last = cudaGetLastError();
	inside.sync = cudaDeviceSynchronize();
	inside.query = cudaStreamQuery(inside.other);
	inside.get_device = cudaGetDevice(&dev);
	cudaGetLastError();
	set(&inside.done);
}

static void test_calls_inside(void)
{
	cudaStream_t s;

	TAP(OK(cudaStreamCreate(&s)) && OK(cudaStreamCreate(&inside.other)),
	    "streams");
	TAP(OK(cudaLaunchHostFunc(s, inside_fn, NULL)) &&
	    wait_for(&inside.done), "a host function that calls the runtime");
	TAP(inside.malloc_err == cudaErrorNotPermitted &&
	    inside.last == cudaErrorNotPermitted,
	    "cudaMalloc inside: %s, cudaGetLastError %s (golden: "
	    "cudaErrorNotPermitted twice)",
	    cudaGetErrorName(inside.malloc_err),
	    cudaGetErrorName(inside.last));
	TAP(inside.sync == cudaErrorNotPermitted &&
	    inside.query == cudaErrorNotPermitted &&
	    inside.get_device == cudaErrorNotPermitted,
	    "cudaDeviceSynchronize %s, cudaStreamQuery %s, cudaGetDevice %s "
	    "(golden: cudaErrorNotPermitted)", cudaGetErrorName(inside.sync),
	    cudaGetErrorName(inside.query),
	    cudaGetErrorName(inside.get_device));
	TAP(OK(cudaStreamSynchronize(s)) && OK(cudaGetLastError()),
	    "the calling thread is unaffected");
	cudaStreamDestroy(s);
	cudaStreamDestroy(inside.other);
}

// --- a graph's host node

static volatile int node_release, node_done;

static void CUDART_CB node_fn(void *arg)
{
	*(int *)arg = wait_for(&node_release) ? 99 : -1;
	set(&node_done);
}

static void test_graph_host_node(int *pinned)
{
	cudaGraphNode_t k1, host, k2;
	cudaKernelNodeParams kp = {};
	cudaHostNodeParams hp = {};
	cudaGraphExec_t ge;
	cudaGraph_t g;
	cudaStream_t s;
	int *a0 = pinned + 8, *a1 = pinned + 9, *b0 = pinned + 10;
	int *b1 = pinned + 11;
	void *args1[] = { &a0, &a1 }, *args2[] = { &b0, &b1 };
	bool returned_first;

	pinned[9] = 5;
	hp.fn = node_fn;
	hp.userData = pinned + 11;
	kp.func = (void *)copy_int;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(1);
	kp.kernelParams = args1;
	TAP(OK(cudaStreamCreate(&s)) && OK(cudaGraphCreate(&g, 0)) &&
	    OK(cudaGraphAddKernelNode(&k1, g, NULL, 0, &kp)) &&
	    OK(cudaGraphAddHostNode(&host, g, &k1, 1, &hp)) &&
	    ((kp.kernelParams = args2), true) &&
	    OK(cudaGraphAddKernelNode(&k2, g, &host, 1, &kp)) &&
	    OK(cudaGraphInstantiate(&ge, g, 0)),
	    "graph: kernel -> host node -> kernel");
	TAP(OK(cudaGraphLaunch(ge, s)), "cudaGraphLaunch");
	returned_first = !node_done;
	TAP(returned_first && IS(cudaErrorNotReady, cudaStreamQuery(s)),
	    "the launch returned with the host node waiting");
	set(&node_release);
	TAP(OK(cudaStreamSynchronize(s)), "cudaStreamSynchronize");
	TAP(pinned[8] == 5 && pinned[10] == 99,
	    "the host node ran between its kernels (%d, %d)", pinned[8],
	    pinned[10]);
	cudaGraphExecDestroy(ge);
	cudaGraphDestroy(g);
	cudaStreamDestroy(s);
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	int *pinned = NULL;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	// Before any CUDA call of the parent (see rt_test_in_child).
	rt_test_in_child("fault", test_fault_status);
	if (!TAP(OK(cudaHostAlloc(&pinned, 4096, cudaHostAllocMapped)),
		 "cudaHostAlloc"))
		return tap_finish();
	memset(pinned, 0, 4096);
	test_behind_waiting_kernel(pinned);
	test_callback_and_blocking(pinned);
	test_calls_inside();
	test_graph_host_node(pinned);
	cudaFreeHost(pinned);
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
