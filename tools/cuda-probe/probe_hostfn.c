// SPDX-License-Identifier: GPL-2.0
/*
 * probe_hostfn.c - what NVIDIA's driver does with host functions
 * (cuLaunchHostFunc, cuStreamAddCallback, their runtime twins): whether
 * the call returns before the function runs, on which thread it runs,
 * what it sees, how the stream's order and queries treat it, the status
 * a callback gets after a fault, and what each CUDA call made from
 * inside a host function returns (CUDA documents such calls as not
 * allowed; some answer CUDA_ERROR_NOT_PERMITTED).  One line per answer.
 *
 * Every case runs in a child process of its own, so that a call that
 * hangs or a fault that poisons the process spoils only its own line;
 * the parent never touches CUDA (a CUDA process must not fork).
 *
 *   gcc -o probe_hostfn probe_hostfn.c -I/usr/local/cuda/include \
 *       -L/usr/local/cuda/lib64 -lcuda -lcudart -lpthread
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* nvcc -ptx -arch=compute_75 of three small kernels (see each). */
static const char ptx[] =
	".version 9.0\n"
	".target sm_75\n"
	".address_size 64\n"
	" // .globl hf_wait\n"
	".visible .entry hf_wait(\n"
	" .param .u64 hf_wait_param_0,\n"
	" .param .u64 hf_wait_param_1\n"
	")\n"
	"{\n"
	" .reg .pred %p<2>;\n"
	" .reg .b32 %r<3>;\n"
	" .reg .b64 %rd<5>;\n"
	" ld.param.u64 %rd3, [hf_wait_param_0];\n"
	" ld.param.u64 %rd4, [hf_wait_param_1];\n"
	" cvta.to.global.u64 %rd1, %rd4;\n"
	" cvta.to.global.u64 %rd2, %rd3;\n"
	"$L__BB0_1:\n"
	" ld.volatile.global.u32 %r1, [%rd2];\n"
	" setp.eq.s32 %p1, %r1, 0;\n"
	" @%p1 bra $L__BB0_1;\n"
	" mov.u32 %r2, 1;\n"
	" st.global.u32 [%rd1], %r2;\n"
	" ret;\n"
	"}\n"
	" // .globl hf_copy\n"
	".visible .entry hf_copy(\n"
	" .param .u64 hf_copy_param_0,\n"
	" .param .u64 hf_copy_param_1\n"
	")\n"
	"{\n"
	" .reg .b32 %r<2>;\n"
	" .reg .b64 %rd<5>;\n"
	" ld.param.u64 %rd1, [hf_copy_param_0];\n"
	" ld.param.u64 %rd2, [hf_copy_param_1];\n"
	" cvta.to.global.u64 %rd3, %rd1;\n"
	" cvta.to.global.u64 %rd4, %rd2;\n"
	" ld.volatile.global.u32 %r1, [%rd4];\n"
	" st.global.u32 [%rd3], %r1;\n"
	" ret;\n"
	"}\n"
	" // .globl hf_wild\n"
	".visible .entry hf_wild(\n"
	" .param .u64 hf_wild_param_0\n"
	")\n"
	"{\n"
	" .reg .b32 %r<2>;\n"
	" .reg .b64 %rd<4>;\n"
	" ld.param.u64 %rd1, [hf_wild_param_0];\n"
	" cvta.to.global.u64 %rd2, %rd1;\n"
	" add.s64 %rd3, %rd2, 1099511627776;\n"
	" mov.u32 %r1, 1;\n"
	" st.volatile.global.u32 [%rd3], %r1;\n"
	" ret;\n"
	"}\n";
/*
 * hf_wait(flag, done): spins until *flag, then *done = 1.
 * hf_copy(dst, src): *dst = *src.
 * hf_wild(p): a store 1 TiB past p - an illegal address.
 */

/* How long a host function or the main thread waits for the other. */
#define WAIT_MS		3000

static struct {
	CUcontext ctx;
	CUmodule mod;
	CUfunction wait, copy, wild;
	CUstream s;		/* where the host function runs */
	CUstream other;		/* idle: what calls from inside use */
	CUstream spare;		/* for cuStreamDestroy */
	CUevent ev;		/* recorded (complete) on @other */
	CUdeviceptr d, d_spare;	/* device memory; d_spare for cuMemFree */
	void *rt_spare;		/* for cudaFree */
	volatile int *pinned;	/* 64 ints of mapped pinned memory */
} E;

static const char *name(CUresult r)
{
	const char *n = NULL;

	if (cuGetErrorName(r, &n) != CUDA_SUCCESS || !n)
		return "?";
	return n;
}

static void line(const char *what, CUresult r)
{
	printf("%s %s\n", what, name(r));
	fflush(stdout);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait up to WAIT_MS for *@v to become non-zero. */
static bool wait_for(atomic_int *v)
{
	int64_t end = now_ms() + WAIT_MS;

	while (!atomic_load(v)) {
		if (now_ms() > end)
			return false;
		usleep(1000);
	}
	return true;
}

#define CHECK(call) do {						\
	CUresult r_ = (call);						\
	if (r_ != CUDA_SUCCESS) {					\
		printf("setup: %s %s\n", #call, name(r_));		\
		fflush(stdout);						\
		_exit(1);						\
	}								\
} while (0)

static void setup(void)
{
	CUdevice dev;
	void *p;
	int i;

	CHECK(cuInit(0));
	CHECK(cuDeviceGet(&dev, 0));
	CHECK(cuDevicePrimaryCtxRetain(&E.ctx, dev));
	CHECK(cuCtxSetCurrent(E.ctx));
	CHECK(cuModuleLoadData(&E.mod, ptx));
	CHECK(cuModuleGetFunction(&E.wait, E.mod, "hf_wait"));
	CHECK(cuModuleGetFunction(&E.copy, E.mod, "hf_copy"));
	CHECK(cuModuleGetFunction(&E.wild, E.mod, "hf_wild"));
	CHECK(cuStreamCreate(&E.s, CU_STREAM_NON_BLOCKING));
	CHECK(cuStreamCreate(&E.other, CU_STREAM_NON_BLOCKING));
	CHECK(cuStreamCreate(&E.spare, CU_STREAM_NON_BLOCKING));
	CHECK(cuEventCreate(&E.ev, CU_EVENT_DISABLE_TIMING));
	CHECK(cuEventRecord(E.ev, E.other));
	CHECK(cuMemAlloc(&E.d, 4096));
	CHECK(cuMemAlloc(&E.d_spare, 4096));
	if (cudaMalloc(&E.rt_spare, 4096) != cudaSuccess)
		CHECK(CUDA_ERROR_OUT_OF_MEMORY);
	CHECK(cuMemHostAlloc(&p, 4096, CU_MEMHOSTALLOC_DEVICEMAP));
	E.pinned = p;
	for (i = 0; i < 64; i++)
		E.pinned[i] = 0;
	CHECK(cuCtxSynchronize());
}

static CUresult launch(CUfunction f, CUstream s, void *a, void *b)
{
	void *args[] = { &a, &b };

	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

/* Run @body in a child process with CUDA set up; wait for it. */
static void in_child(const char *what, void (*body)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		alarm(30);	/* a hang that no wait below catches */
		setup();
		body();
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("%s: child ended abnormally\n", what);
		fflush(stdout);
	}
}

/* ---- order, thread, current context ------------------------------------ */

static struct {
	atomic_int ran;
	int saw_done;		/* hf_wait's *done when the function ran */
	bool other_thread;
	CUresult cur_r;
	CUcontext cur;
	pthread_t caller, runner;
} O;

static void CUDA_CB order_fn(void *arg)
{
	(void)arg;
	O.saw_done = E.pinned[1];
	E.pinned[2] = 7;		/* what the next kernel copies */
	O.runner = pthread_self();
	O.other_thread = !pthread_equal(O.runner, O.caller);
	O.cur_r = cuCtxGetCurrent(&O.cur);
	atomic_store(&O.ran, 1);
}

static void order(void)
{
	void *flag = (void *)&E.pinned[0], *done = (void *)&E.pinned[1];
	CUresult r;

	O.caller = pthread_self();
	line("order: hf_wait launch", launch(E.wait, E.s, flag, done));
	r = cuLaunchHostFunc(E.s, order_fn, NULL);
	line("order: cuLaunchHostFunc behind a waiting kernel", r);
	printf("order: returned before the function ran %s\n",
	       atomic_load(&O.ran) ? "no" : "yes");
	line("order: hf_copy launch after it",
	     launch(E.copy, E.s, (void *)&E.pinned[3], (void *)&E.pinned[2]));
	line("order: cuStreamQuery while the kernel waits", cuStreamQuery(E.s));
	E.pinned[0] = 1;	/* release the kernel */
	line("order: cuStreamSynchronize", cuStreamSynchronize(E.s));
	printf("order: function ran %s\n", atomic_load(&O.ran) ? "yes" : "no");
	printf("order: function saw the kernel before it done %d\n",
	       O.saw_done);
	printf("order: kernel after it saw %d\n", E.pinned[3]);
	printf("order: function on another thread %s\n",
	       O.other_thread ? "yes" : "no");
	printf("order: cuCtxGetCurrent in the function %s %s\n",
	       name(O.cur_r), O.cur == E.ctx ? "the context" :
	       O.cur ? "another context" : "none");
	fflush(stdout);
}

/* ---- a host function that blocks ---------------------------------------- */

static atomic_int block_release, block_ran;

static void CUDA_CB block_fn(void *arg)
{
	(void)arg;
	atomic_store(&block_ran, wait_for(&block_release) ? 1 : 2);
}

static void blocked(void)
{
	CUevent after;

	line("blocked: cuLaunchHostFunc", cuLaunchHostFunc(E.s, block_fn, NULL));
	CHECK(cuEventCreate(&after, CU_EVENT_DISABLE_TIMING));
	line("blocked: cuEventRecord after it", cuEventRecord(after, E.s));
	line("blocked: cuStreamQuery", cuStreamQuery(E.s));
	line("blocked: cuEventQuery", cuEventQuery(after));
	atomic_store(&block_release, 1);
	line("blocked: cuStreamSynchronize", cuStreamSynchronize(E.s));
	printf("blocked: function released %s\n",
	       atomic_load(&block_ran) == 1 ? "yes" : "no");
	line("blocked: cuStreamQuery after", cuStreamQuery(E.s));
	line("blocked: cuEventQuery after", cuEventQuery(after));
	line("blocked: cuCtxSynchronize", cuCtxSynchronize());
}

/* ---- two streams: are host functions serialised? ------------------------- */

static atomic_int two_b_ran, two_a_saw_b;
static pthread_t two_a_thread, two_b_thread;

static void CUDA_CB two_a(void *arg)
{
	(void)arg;
	two_a_thread = pthread_self();
	atomic_store(&two_a_saw_b, wait_for(&two_b_ran) ? 1 : 2);
}

static void CUDA_CB two_b(void *arg)
{
	(void)arg;
	two_b_thread = pthread_self();
	atomic_store(&two_b_ran, 1);
}

static void two_streams(void)
{
	line("two streams: cuLaunchHostFunc on the first",
	     cuLaunchHostFunc(E.s, two_a, NULL));
	line("two streams: cuLaunchHostFunc on the second",
	     cuLaunchHostFunc(E.other, two_b, NULL));
	line("two streams: cuCtxSynchronize", cuCtxSynchronize());
	printf("two streams: the second ran while the first blocked %s\n",
	       atomic_load(&two_a_saw_b) == 1 ? "yes" : "no");
	printf("two streams: same thread %s\n",
	       pthread_equal(two_a_thread, two_b_thread) ? "yes" : "no");
	fflush(stdout);
}

/* ---- callbacks' status --------------------------------------------------- */

static atomic_int cb_ran, fn_ran;
static CUresult cb_status;

static void CUDA_CB status_cb(CUstream s, CUresult status, void *arg)
{
	(void)s;
	(void)arg;
	cb_status = status;
	atomic_store(&cb_ran, 1);
}

static void CUDA_CB mark_fn(void *arg)
{
	(void)arg;
	atomic_store(&fn_ran, 1);
}

static void status_ok(void)
{
	line("status: cuStreamAddCallback", cuStreamAddCallback(E.s, status_cb,
								 NULL, 0));
	line("status: cuStreamSynchronize", cuStreamSynchronize(E.s));
	printf("status: callback ran %s\n", wait_for(&cb_ran) ? "yes" : "no");
	line("status: callback's status", cb_status);
	line("status: cuStreamAddCallback flags 1",
	     cuStreamAddCallback(E.s, status_cb, NULL, 1));
	line("status: cuStreamAddCallback NULL",
	     cuStreamAddCallback(E.s, NULL, NULL, 0));
	line("status: cuLaunchHostFunc NULL", cuLaunchHostFunc(E.s, NULL, NULL));
}

static void status_fault(void)
{
	void *flag = (void *)&E.pinned[0], *done = (void *)&E.pinned[1];

	/* The fault happens after both are queued: hf_wait holds it back. */
	line("fault: hf_wait launch", launch(E.wait, E.s, flag, done));
	line("fault: hf_wild launch", launch(E.wild, E.s, (void *)E.d, NULL));
	line("fault: cuStreamAddCallback",
	     cuStreamAddCallback(E.s, status_cb, NULL, 0));
	line("fault: cuLaunchHostFunc", cuLaunchHostFunc(E.s, mark_fn, NULL));
	E.pinned[0] = 1;
	line("fault: cuStreamSynchronize", cuStreamSynchronize(E.s));
	printf("fault: callback ran %s\n", wait_for(&cb_ran) ? "yes" : "no");
	line("fault: callback's status", cb_status);
	printf("fault: host function ran %s\n",
	       wait_for(&fn_ran) ? "yes" : "no");
	line("fault: cuStreamAddCallback after",
	     cuStreamAddCallback(E.s, status_cb, NULL, 0));
	line("fault: cuLaunchHostFunc after", cuLaunchHostFunc(E.s, mark_fn,
								NULL));
}

/* ---- CUDA calls from inside a host function ------------------------------ */

static void CUDA_CB noop_fn(void *arg)
{
	(void)arg;
}

static void CUDA_CB noop_cb(CUstream s, CUresult status, void *arg)
{
	(void)s;
	(void)status;
	(void)arg;
}

static int host_word;

static CUresult c_ctx_sync(void) { return cuCtxSynchronize(); }
static CUresult c_sync_own(void) { return cuStreamSynchronize(E.s); }
static CUresult c_sync_other(void) { return cuStreamSynchronize(E.other); }
static CUresult c_sync_null(void) { return cuStreamSynchronize(NULL); }
static CUresult c_query_own(void) { return cuStreamQuery(E.s); }
static CUresult c_query_other(void) { return cuStreamQuery(E.other); }
static CUresult c_ev_record(void) { return cuEventRecord(E.ev, E.other); }
static CUresult c_ev_query(void) { return cuEventQuery(E.ev); }
static CUresult c_ev_sync(void) { return cuEventSynchronize(E.ev); }
static CUresult c_wait_ev(void) { return cuStreamWaitEvent(E.other, E.ev, 0); }
static CUresult c_launch(void)
{
	return launch(E.copy, E.other, (void *)E.d, (void *)(E.d + 4));
}
static CUresult c_hostfn(void) { return cuLaunchHostFunc(E.other, noop_fn, NULL); }
static CUresult c_callback(void)
{
	return cuStreamAddCallback(E.other, noop_cb, NULL, 0);
}
static CUresult c_alloc(void)
{
	CUdeviceptr p;

	return cuMemAlloc(&p, 4096);
}
static CUresult c_free(void) { return cuMemFree(E.d_spare); }
static CUresult c_htod(void) { return cuMemcpyHtoD(E.d, &host_word, 4); }
static CUresult c_dtoh(void) { return cuMemcpyDtoH(&host_word, E.d, 4); }
static CUresult c_htod_async(void)
{
	return cuMemcpyHtoDAsync(E.d, (void *)&E.pinned[8], 4, E.other);
}
static CUresult c_memset(void) { return cuMemsetD8(E.d, 0, 4); }
static CUresult c_memset_async(void) { return cuMemsetD8Async(E.d, 0, 4, E.other); }
static CUresult c_alloc_host(void)
{
	void *p;

	return cuMemAllocHost(&p, 4096);
}
static CUresult c_stream_create(void)
{
	CUstream s;

	return cuStreamCreate(&s, 0);
}
static CUresult c_stream_destroy(void) { return cuStreamDestroy(E.spare); }
static CUresult c_event_create(void)
{
	CUevent ev;

	return cuEventCreate(&ev, 0);
}
static CUresult c_mem_info(void)
{
	size_t f, t;

	return cuMemGetInfo(&f, &t);
}
static CUresult c_attribute(void)
{
	int v;

	return cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0);
}
static CUresult c_pointer(void)
{
	CUcontext c;

	return cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, E.d);
}
static CUresult c_get_function(void)
{
	CUfunction f;

	return cuModuleGetFunction(&f, E.mod, "hf_copy");
}
static CUresult c_ctx_device(void)
{
	CUdevice d;

	return cuCtxGetDevice(&d);
}

/* The runtime's calls, as CUresult-sized numbers for the same table. */
static CUresult c_rt_dev_sync(void) { return (CUresult)cudaDeviceSynchronize(); }
static CUresult c_rt_sync(void)
{
	return (CUresult)cudaStreamSynchronize((cudaStream_t)E.other);
}
static CUresult c_rt_query(void) { return (CUresult)cudaStreamQuery((cudaStream_t)E.other); }
static CUresult c_rt_malloc(void)
{
	void *p;

	return (CUresult)cudaMalloc(&p, 4096);
}
static CUresult c_rt_free(void) { return (CUresult)cudaFree(E.rt_spare); }
static CUresult c_rt_memcpy(void)
{
	return (CUresult)cudaMemcpy((void *)E.d, &host_word, 4,
				    cudaMemcpyHostToDevice);
}
static CUresult c_rt_memcpy_async(void)
{
	return (CUresult)cudaMemcpyAsync((void *)E.d, (void *)&E.pinned[8], 4,
					 cudaMemcpyHostToDevice,
					 (cudaStream_t)E.other);
}
static CUresult c_rt_memset(void) { return (CUresult)cudaMemset((void *)E.d, 0, 4); }
static CUresult c_rt_record(void)
{
	return (CUresult)cudaEventRecord((cudaEvent_t)E.ev, (cudaStream_t)E.other);
}
static CUresult c_rt_hostfn(void)
{
	return (CUresult)cudaLaunchHostFunc((cudaStream_t)E.other, noop_fn, NULL);
}
static CUresult c_rt_get_device(void)
{
	int d;

	return (CUresult)cudaGetDevice(&d);
}
static CUresult c_rt_mem_info(void)
{
	size_t f, t;

	return (CUresult)cudaMemGetInfo(&f, &t);
}

struct call {
	const char *name;
	CUresult (*fn)(void);
	bool runtime;
};

static const struct call calls[] = {
	{ "cuCtxSynchronize", c_ctx_sync, false },
	{ "cuStreamSynchronize(own)", c_sync_own, false },
	{ "cuStreamSynchronize(other)", c_sync_other, false },
	{ "cuStreamSynchronize(NULL)", c_sync_null, false },
	{ "cuStreamQuery(own)", c_query_own, false },
	{ "cuStreamQuery(other)", c_query_other, false },
	{ "cuEventRecord", c_ev_record, false },
	{ "cuEventQuery", c_ev_query, false },
	{ "cuEventSynchronize", c_ev_sync, false },
	{ "cuStreamWaitEvent", c_wait_ev, false },
	{ "cuLaunchKernel", c_launch, false },
	{ "cuLaunchHostFunc", c_hostfn, false },
	{ "cuStreamAddCallback", c_callback, false },
	{ "cuMemAlloc", c_alloc, false },
	{ "cuMemFree", c_free, false },
	{ "cuMemcpyHtoD", c_htod, false },
	{ "cuMemcpyDtoH", c_dtoh, false },
	{ "cuMemcpyHtoDAsync", c_htod_async, false },
	{ "cuMemsetD8", c_memset, false },
	{ "cuMemsetD8Async", c_memset_async, false },
	{ "cuMemAllocHost", c_alloc_host, false },
	{ "cuStreamCreate", c_stream_create, false },
	{ "cuStreamDestroy", c_stream_destroy, false },
	{ "cuEventCreate", c_event_create, false },
	{ "cuMemGetInfo", c_mem_info, false },
	{ "cuDeviceGetAttribute", c_attribute, false },
	{ "cuPointerGetAttribute", c_pointer, false },
	{ "cuModuleGetFunction", c_get_function, false },
	{ "cuCtxGetDevice", c_ctx_device, false },
	{ "cudaDeviceSynchronize", c_rt_dev_sync, true },
	{ "cudaStreamSynchronize(other)", c_rt_sync, true },
	{ "cudaStreamQuery(other)", c_rt_query, true },
	{ "cudaMalloc", c_rt_malloc, true },
	{ "cudaFree", c_rt_free, true },
	{ "cudaMemcpy", c_rt_memcpy, true },
	{ "cudaMemcpyAsync", c_rt_memcpy_async, true },
	{ "cudaMemset", c_rt_memset, true },
	{ "cudaEventRecord", c_rt_record, true },
	{ "cudaLaunchHostFunc", c_rt_hostfn, true },
	{ "cudaGetDevice", c_rt_get_device, true },
	{ "cudaMemGetInfo", c_rt_mem_info, true },
};

static const struct call *the_call;
static atomic_int call_done;
static CUresult call_r, call_r_current, call_last;

static void CUDA_CB call_fn(void *arg)
{
	(void)arg;
	call_r = the_call->fn();
	if (the_call->runtime)
		call_last = (CUresult)cudaGetLastError();
	/* Again with the context made current: does that change it? */
	if (cuCtxSetCurrent(E.ctx) == CUDA_SUCCESS)
		call_r_current = the_call->fn();
	atomic_store(&call_done, 1);
}

static void call_case(void)
{
	CUresult r = cuLaunchHostFunc(E.s, call_fn, NULL);

	if (r != CUDA_SUCCESS || !wait_for(&call_done)) {
		printf("inside: %s %s\n", the_call->name,
		       r != CUDA_SUCCESS ? name(r) : "hangs");
		fflush(stdout);
		_exit(0);
	}
	if (the_call->runtime) {
		const char *n = cudaGetErrorName((cudaError_t)call_r);
		const char *l = cudaGetErrorName((cudaError_t)call_last);
		const char *c = cudaGetErrorName((cudaError_t)call_r_current);

		printf("inside: %s %s, then cudaGetLastError %s; current %s\n",
		       the_call->name, n, l, c);
	} else {
		printf("inside: %s %s; current %s\n", the_call->name,
		       name(call_r), name(call_r_current));
	}
	line("inside: then cuCtxSynchronize", cuCtxSynchronize());
	if (the_call->runtime)
		printf("inside: then cudaGetLastError %s\n",
		       cudaGetErrorName(cudaGetLastError()));
	fflush(stdout);
}

int main(void)
{
	size_t i;

	in_child("order", order);
	in_child("blocked", blocked);
	in_child("two streams", two_streams);
	in_child("status", status_ok);
	in_child("fault", status_fault);
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		the_call = &calls[i];
		in_child(calls[i].name, call_case);
	}
	return 0;
}
