// SPDX-License-Identifier: GPL-2.0
//
// Several host threads using the runtime at once, in a program compiled
// with --default-stream per-thread (guest test).  With that option the
// toolkit's header renames the default-stream calls (cudaMemcpy_ptds,
// cudaMemcpyAsync_ptsz, __cudaLaunchKernel_ptsz...) and stream 0 is each
// thread's own stream.  Every thread launches, copies, sets memory, uses
// a symbol and records an event on "stream 0", and checks its own data:
// the per-thread launch configuration stack and last error, and the
// shared primary context, are exercised concurrently.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rt_test_util.h"

#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "build this test with --default-stream per-thread"
#endif

#define THREADS 4
#define N 256
#define ROUNDS 3

__device__ int thread_base[THREADS];

__global__ void fill_from_symbol(int *p, int slot, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = thread_base[slot] + i;
}

struct worker {
	int slot;
	bool ok;
	char why[128];
};

static bool fail(struct worker *w, const char *what, cudaError_t e)
{
	snprintf(w->why, sizeof(w->why), "%s: %s", what, cudaGetErrorName(e));
	return false;
}

static bool one_round(struct worker *w, int *d, int round)
{
	int base = (w->slot + 1) * 1000 + round * 100000, host[N];
	cudaEvent_t ev;
	cudaError_t e;

	if ((e = cudaMemset(d, 0xff, N * sizeof(int))) != cudaSuccess)
		return fail(w, "cudaMemset", e);
	if ((e = cudaMemcpyToSymbol(thread_base, &base, sizeof(int),
				    w->slot * sizeof(int))) != cudaSuccess)
		return fail(w, "cudaMemcpyToSymbol", e);
	fill_from_symbol<<<N / 64, 64>>>(d, w->slot, N);
	if ((e = cudaGetLastError()) != cudaSuccess)
		return fail(w, "launch", e);
	if ((e = cudaEventCreate(&ev)) != cudaSuccess ||
	    (e = cudaEventRecord(ev, 0)) != cudaSuccess ||
	    (e = cudaEventSynchronize(ev)) != cudaSuccess ||
	    (e = cudaEventDestroy(ev)) != cudaSuccess)
		return fail(w, "event on stream 0", e);
	if ((e = cudaMemcpyAsync(host, d, sizeof(host), cudaMemcpyDeviceToHost,
				 0)) != cudaSuccess ||
	    (e = cudaStreamSynchronize(0)) != cudaSuccess)
		return fail(w, "cudaMemcpyAsync on stream 0", e);
	for (int i = 0; i < N; i++)
		if (host[i] != base + i) {
			snprintf(w->why, sizeof(w->why),
				 "round %d: element %d is %d, expected %d",
				 round, i, host[i], base + i);
			return false;
		}
	memset(host, 0, sizeof(host));
	if ((e = cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost)) !=
	    cudaSuccess)
		return fail(w, "cudaMemcpy", e);
	return host[N - 1] == base + N - 1 ||
	       (snprintf(w->why, sizeof(w->why), "synchronous copy"), false);
}

static void *work(void *arg)
{
	struct worker *w = (struct worker *)arg;
	int *d = NULL;
	cudaError_t e = cudaMalloc(&d, N * sizeof(int));

	w->ok = e == cudaSuccess || fail(w, "cudaMalloc", e);
	for (int r = 0; w->ok && r < ROUNDS; r++)
		w->ok = one_round(w, d, r);
	cudaFree(d);
	return NULL;
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	struct worker w[THREADS];
	pthread_t t[THREADS];

	tap_plan(THREADS + 1);
	if (fw < 0)
		tap_diag("cannot start the firmware");
	for (int i = 0; i < THREADS; i++) {
		w[i].slot = i;
		w[i].ok = false;
		strcpy(w[i].why, "thread did not run");
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		tap_ok(w[i].ok, "thread %d: %d rounds on its default stream%s%s",
		       i, ROUNDS, w[i].ok ? "" : ": ", w[i].ok ? "" : w[i].why);
	}
	tap_ok(cudaDeviceSynchronize() == cudaSuccess &&
	       cudaGetLastError() == cudaSuccess,
	       "the main thread's state is untouched");
	fw_launcher_stop(fw);
	return tap_finish();
}
