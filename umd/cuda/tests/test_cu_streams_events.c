// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_streams_events.c - streams, events, timing, cross-stream
 * ordering and the legacy default stream.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_test.h"

/*
 * How long spin() keeps the device busy: long enough that work queued
 * behind it would visibly overtake it.
 */
#define SPIN_NS		(200ull * 1000 * 1000)

TEST(stream_lifecycle)
{
	CUcontext ctx, owner;
	CUstream s, s2;
	unsigned int flags;
	int prio;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&s, 0x10));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetFlags(s, &flags));
	ASSERT_EQ(CU_STREAM_NON_BLOCKING, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetCtx(s, &owner));
	ASSERT_EQ(ctx, owner);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreateWithPriority(&s2, 0, -3));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetPriority(s2, &prio));
	ASSERT_EQ(-3, prio);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamQuery(s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamQuery(NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s2));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s2));
}

/*
 * Every call that answers about a stream refuses a NULL answer pointer
 * (the checks they share: cu_stream_query_args()), and answers about the
 * stream it was given.
 */
TEST(stream_query_arguments)
{
	CUstreamCaptureStatus st;
	unsigned long long id;
	CUcontext ctx, owner;
	unsigned int flags;
	CUdevice dev;
	CUgraph g;
	CUstream s;
	int prio;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreateWithPriority(&s, 0, -2));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamGetPriority(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamGetFlags(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamGetCtx(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamGetId(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamIsCapturing(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamEndCapture(s, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamGetCaptureInfo(s, NULL, NULL, NULL, NULL, NULL,
					 NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetPriority(s, &prio));
	ASSERT_EQ(-2, prio);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetFlags(s, &flags));
	ASSERT_EQ(0u, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetCtx(s, &owner));
	ASSERT_EQ(ctx, owner);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetDevice(s, &dev));
	ASSERT_EQ(0, dev);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetId(s, &id));
	ASSERT_NE(0ull, id);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamIsCapturing(s, &st));
	ASSERT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);
	/* not capturing: the call is refused, and not for its arguments */
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(s, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

TEST(events_and_timing)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction spin;
	CUevent a, b, untimed, never;
	unsigned long long ns = SPIN_NS;
	void *params[] = { &ns };
	float ms = -1;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&spin, m, "spin"));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&a, CU_EVENT_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&b, CU_EVENT_BLOCKING_SYNC));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&untimed,
					      CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&never, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&never, 0x100));
	/* Measured: an event never recorded. */
	ASSERT_EQ(CUDA_SUCCESS, cuEventQuery(never));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(never));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, never, a));

	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(a, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(b, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(untimed, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(b));
	ASSERT_EQ(CUDA_SUCCESS, cuEventQuery(b));
	ASSERT_EQ(CUDA_SUCCESS, cuEventElapsedTime(&ms, a, b));
	ASSERT_GT(ms, 0.0f);
	ASSERT_LT(ms, 60000.0f);
	/* Measured: timing with an untimed event; one never recorded. */
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuEventElapsedTime(&ms, a, untimed));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(a));
	/* Measured: destroying twice. */
	ASSERT_EQ(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuEventDestroy(a));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(b));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(untimed));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(never));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

/*
 * A kernel on stream 1 writes a buffer; stream 2 waits for an event
 * recorded after it, then copies the buffer.  Without the wait the copy
 * engine (idle, on another queue) would copy before the kernel is done.
 */
TEST(cross_stream_event_wait)
{
	const int n = 1 << 16;
	CUcontext ctx;
	CUmodule m;
	CUfunction spin, add;
	CUstream s1, s2;
	CUevent ev;
	CUdeviceptr a, b, c, out;
	unsigned long long ns = SPIN_NS;
	void *sp[] = { &ns };
	void *ap[] = { &a, &b, &c, (void *)&n };
	float *host = malloc(n * sizeof(float));
	int nn = n;

	ap[3] = &nn;
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&spin, m, "spin"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&add, m, "vec_add"));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, n * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, n * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&c, n * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&out, n * sizeof(float)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(a, 0x3f800000, n));	/* 1.0f */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(b, 0x40000000, n));	/* 2.0f */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(c, 0, n));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());

	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, s1,
					       sp, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(add, n / 256, 1, 1, 256, 1, 1, 0,
					       s1, ap, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoDAsync(out, c, n * sizeof(float),
						  s2));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, out, n * sizeof(float)));
	for (int i = 0; i < n; i++)
		ASSERT_EQ(3.0f, host[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s2));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	free(host);
}

/* The legacy stream waits for blocking streams, and they for it. */
TEST(legacy_default_stream_ordering)
{
	const int n = 4096;
	CUcontext ctx;
	CUmodule m;
	CUfunction spin;
	CUstream s;
	CUdeviceptr d;
	unsigned long long ns = SPIN_NS;
	void *sp[] = { &ns };
	unsigned int *host = malloc(n * 4);

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&spin, m, "spin"));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n * 4));
	/* Blocking stream: slow kernel, then a memset. */
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, s,
					       sp, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 1, n, s));
	/* Stream 0 must run after them: its memset wins. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 2, n, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, d, n * 4));
	for (int i = 0; i < n; i++)
		ASSERT_EQ(2u, host[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	free(host);
}

/*
 * CU_STREAM_PER_THREAD is each host thread's own stream.  Thread A's
 * kernel waits for a flag in mapped host memory; meanwhile this thread's
 * per-thread stream runs and completes work (it does not wait for A's),
 * while the legacy stream does wait for A's per-thread stream, as for any
 * blocking stream.  Then the flag is set and everything completes.
 */
struct ptds_thread {
	CUcontext ctx;
	CUfunction wait_flag;
	CUdeviceptr flag;
	int launched[2];	/* pipe: A -> main, "launched" */
	CUresult res;
};

static void *ptds_thread_main(void *arg)
{
	struct ptds_thread *t = arg;
	void *params[] = { &t->flag };
	char c = 1;

	t->res = cuCtxSetCurrent(t->ctx);
	if (t->res == CUDA_SUCCESS)
		t->res = cuLaunchKernel(t->wait_flag, 1, 1, 1, 1, 1, 1, 0,
					CU_STREAM_PER_THREAD, params, NULL);
	if (write(t->launched[1], &c, 1) != 1 && t->res == CUDA_SUCCESS)
		t->res = CUDA_ERROR_UNKNOWN;
	if (t->res == CUDA_SUCCESS)
		t->res = cuStreamSynchronize(CU_STREAM_PER_THREAD);
	return NULL;
}

TEST(per_thread_default_streams)
{
	const unsigned int n = 1024;
	struct ptds_thread t = { 0 };
	unsigned int *host;
	volatile int *flag;
	CUdeviceptr d;
	pthread_t a;
	CUmodule m;
	char c;

	CU_SETUP(&t.ctx);
	/*
	 * A kernel waits on the host below, for as long as the host takes:
	 * nothing may stop it.  A compute GPU has no execution limit unless
	 * the administrator sets one (vgpu.ko: kernel_exec_timeout_ms).
	 */
	{
		CUdevice dev;
		int limited = -1;

		ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice(&dev));
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&limited,
			  CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT, dev));
		ASSERT_EQ(0, limited);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuModuleGetFunction(&t.wait_flag, m, "wait_flag"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&flag, 4096,
					       CU_MEMHOSTALLOC_DEVICEMAP));
	*flag = 0;
	ASSERT_EQ(CUDA_SUCCESS,
		  cuMemHostGetDevicePointer(&t.flag, (void *)flag, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n * 4));
	host = calloc(n, 4);
	ASSERT_NE(NULL, host);
	ASSERT_EQ(0, pipe(t.launched));
	ASSERT_EQ(0, pthread_create(&a, NULL, ptds_thread_main, &t));
	ASSERT_EQ(1, read(t.launched[0], &c, 1));
	ASSERT_EQ(CUDA_SUCCESS, t.res);

	/* This thread's own default stream is not behind A's kernel. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 5, n, CU_STREAM_PER_THREAD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamQuery(CU_STREAM_PER_THREAD));
	/* The legacy stream is: it waits for every blocking stream. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(d, 7, n, CU_STREAM_LEGACY));
	ASSERT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(CU_STREAM_LEGACY));

	*flag = 1;
	__sync_synchronize();
	ASSERT_EQ(0, pthread_join(a, NULL));
	ASSERT_EQ(CUDA_SUCCESS, t.res);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, d, n * 4));
	for (unsigned int i = 0; i < n; i++)
		ASSERT_EQ(7u, host[i]);
	free(host);
	close(t.launched[0]);
	close(t.launched[1]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost((void *)flag));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

static void host_fn(void *arg)
{
	*(int *)arg = 1;
}

TEST(host_functions)
{
	CUcontext ctx;
	CUstream s;
	int called = 0;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, host_fn, &called));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(1, called);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(s, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

struct worker {
	CUcontext ctx;
	CUfunction add;
	int id;
	int errors;
};

/*
 * One thread: its own stream; a few rounds of memset, kernel and copies
 * that only give the right answer if every step ran in order.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const int n = 4096;
	float *h = malloc(n * sizeof(float));
	CUdeviceptr a, b, c;
	CUstream s;
	int nn = n;
	void *params[] = { &a, &b, &c, &nn };

	if (cuCtxSetCurrent(w->ctx) || cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAlloc(&a, n * 4) || cuMemAlloc(&b, n * 4) ||
	    cuMemAlloc(&c, n * 4)) {
		w->errors = -1;
		return NULL;
	}
	for (int round = 0; round < 5; round++) {
		float va = (float)(w->id * 10 + round), vb = 0.5f;

		for (int i = 0; i < n; i++)
			h[i] = va;
		if (cuMemcpyHtoDAsync(a, h, n * 4, s) ||
		    cuMemsetD32Async(b, 0x3f000000, n, s) ||	/* 0.5f */
		    cuLaunchKernel(w->add, n / 128, 1, 1, 128, 1, 1, 0, s,
				   params, NULL) ||
		    cuMemcpyDtoHAsync(h, c, n * 4, s) ||
		    cuStreamSynchronize(s)) {
			w->errors++;
			continue;
		}
		for (int i = 0; i < n; i++)
			w->errors += h[i] != va + vb;
		if (w->errors)
			printf("# thread %d round %d: got %f, expected %f\n",
			       w->id, round, h[0], va + vb);
	}
	cuMemFree(a);
	cuMemFree(b);
	cuMemFree(c);
	cuStreamDestroy(s);
	free(h);
	return NULL;
}

TEST(threads_with_own_streams)
{
	struct worker w[4];
	pthread_t t[4];
	CUcontext ctx;
	CUmodule m;
	CUfunction add;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&add, m, "vec_add"));
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ .ctx = ctx, .add = add, .id = i };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker_main, &w[i]));
	}
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		ASSERT_EQ(0, w[i].errors);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

CUDA_TEST_MAIN
