// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_concurrency.c - kernels of different streams and of different
 * processes run at the same time (Documentation/scheduler.rst):
 *
 *  - two streams of one program: a kernel waits for a flag that a kernel
 *    of the other stream sets (a GPU that runs one grid at a time never
 *    finishes the first);
 *  - stream priorities: a high-priority kernel launched behind a long
 *    low-priority grid gets its blocks before the rest of the low grid;
 *  - a process whose kernel spins and one that works: the working one
 *    completes with correct results meanwhile (time slices between
 *    contexts); the spinner is released by its host writing mapped
 *    memory.
 *
 * Kernels: tests/sched/sched_kernels.cu, shared with the native
 * scheduler test.  Every spin is kept well under the driver's watchdog.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda_test.h"

#define SCHED_PTX	CUDA_TEST_DATA "/sched_kernels.ptx"

static CUmodule load_sched(struct __test_metadata *_metadata)
{
	CUmodule m;

	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, SCHED_PTX));
	return m;
}

TEST(two_streams_handshake)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction wait_flag, set_flag;
	CUstream a, b;
	CUdeviceptr flag, out;
	unsigned int host[4];
	void *pw[] = { &flag, &out }, *ps[] = { &flag };

	CU_SETUP(&ctx);
	m = load_sched(_metadata);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wait_flag, m, "wait_flag"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&set_flag, m, "set_flag"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&flag, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&out, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(flag, 0, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(out, 0, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	/* four blocks wait on stream a; stream b sets the flag */
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(wait_flag, 4, 1, 1, 32, 1, 1, 0,
					       a, pw, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(set_flag, 1, 1, 1, 1, 1, 1, 0,
					       b, ps, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(a));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(b));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, out, sizeof(host)));
	/* 1: saw the flag; 2: gave up waiting */
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(1u, host[i]);
	cuStreamDestroy(a);
	cuStreamDestroy(b);
}

/*
 * The low grid's blocks hold their SMs (each fills one: 200 KiB of shared
 * memory) until the host opens the gate, after it launched the high
 * kernel.  In launch order the high blocks would draw the last tickets;
 * by priority they come as soon as SMs free, ahead of the low grid's
 * remaining blocks.
 *
 * The host cannot see when the firmware has taken the high launch (its
 * queue stays at the packet until the grid ends), so it waits before
 * opening the gate.  On a loaded host that wait may be too short, and the
 * high kernel then arrives after the low grid's blocks: the round is
 * repeated with a longer wait.  A scheduler that ignores priorities fails
 * every round; a slow machine only needs more of them.
 */
struct priority_round {
	unsigned int sms, min_high, max_high, low_after;
};

#define PRIO_NLOW	32u
#define PRIO_NHIGH	2u

static void priority_round(struct __test_metadata *_metadata,
			   CUfunction ticket, CUstream low, CUstream high,
			   unsigned int wait_ms, struct priority_round *r)
{
	CUdeviceptr counter, olow, ohigh, gate, open;
	volatile unsigned int *h;
	unsigned int work = 200, hlow[PRIO_NLOW], hhigh[PRIO_NHIGH];
	unsigned int dyn = 200 << 10;
	void *pl[] = { &counter, &olow, &work, &gate };
	void *ph[] = { &counter, &ohigh, &work, &open };

	r->min_high = ~0u;
	r->max_high = 0;
	r->low_after = 0;
	/* tickets and gates in mapped host memory: h[0] the counter,
	 * h[1] the low grid's gate, h[2] always open */
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&h, 4096,
					       CU_MEMHOSTALLOC_DEVICEMAP));
	h[0] = 0;
	h[1] = 0;
	h[2] = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetDevicePointer(&counter,
							  (void *)h, 0));
	gate = counter + 4;
	open = counter + 8;
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&olow, sizeof(hlow)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&ohigh, sizeof(hhigh)));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(ticket, PRIO_NLOW, 1, 1, 32, 1,
					       1, dyn, low, pl, NULL));
	/* every SM holds a waiting low block */
	while (__atomic_load_n(&h[0], __ATOMIC_ACQUIRE) < r->sms)
		usleep(1000);
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(ticket, PRIO_NHIGH, 1, 1, 32, 1,
					       1, dyn, high, ph, NULL));
	/* time for the firmware to take the launch; the low grid's 30
	 * remaining blocks are a further margin */
	usleep(wait_ms * 1000);
	__atomic_store_n(&h[1], 1u, __ATOMIC_RELEASE);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(hlow, olow, sizeof(hlow)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(hhigh, ohigh, sizeof(hhigh)));
	for (unsigned int i = 0; i < PRIO_NHIGH; i++) {
		if (hhigh[i] > r->max_high)
			r->max_high = hhigh[i];
		if (hhigh[i] < r->min_high)
			r->min_high = hhigh[i];
	}
	for (unsigned int i = 0; i < PRIO_NLOW; i++)
		r->low_after += hlow[i] > r->max_high;
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(olow));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(ohigh));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost((void *)h));
}

TEST(stream_priority)
{
	static const unsigned int waits_ms[] = { 300, 1000, 3000, 10000 };
	struct priority_round r = { 0 };
	CUcontext ctx;
	CUmodule m;
	CUfunction ticket;
	CUstream low, high;
	int lo, hi, nsm;

	CU_SETUP(&ctx);
	m = load_sched(_metadata);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&ticket, m,
						    "ticket_gated"));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncSetAttribute(ticket,
		  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 << 10));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&nsm,
		  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	r.sms = (unsigned int)nsm;
	ASSERT_LT(r.sms, PRIO_NLOW / 2);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&lo, &hi));
	ASSERT_EQ(0, lo);
	ASSERT_EQ(-5, hi);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreateWithPriority(&low,
		  CU_STREAM_NON_BLOCKING, lo));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreateWithPriority(&high,
		  CU_STREAM_NON_BLOCKING, hi));
	for (unsigned int i = 0; i < sizeof(waits_ms) / sizeof(*waits_ms);
	     i++) {
		priority_round(_metadata, ticket, low, high, waits_ms[i], &r);
		TH_LOG("wait %u ms, %u SMs: high blocks drew tickets %u..%u "
		       "of %u; %u low blocks after them", waits_ms[i], r.sms,
		       r.min_high, r.max_high, PRIO_NLOW + PRIO_NHIGH,
		       r.low_after);
		if (r.low_after >= 1)
			break;
	}
	/* in launch order no low block would come after them */
	EXPECT_GE(r.min_high, r.sms);
	EXPECT_GE(r.low_after, 1u);
	EXPECT_LT(r.max_high, PRIO_NLOW + PRIO_NHIGH - 1);
	cuStreamDestroy(low);
	cuStreamDestroy(high);
}

static void lcg_reference(unsigned int *out, unsigned int blocks,
			  unsigned int threads, unsigned int rounds)
{
	unsigned int x[256], s[256];

	for (unsigned int b = 0; b < blocks; b++) {
		for (unsigned int t = 0; t < threads; t++)
			x[t] = b * threads + t;
		for (unsigned int r = 0; r < rounds; r++) {
			for (unsigned int t = 0; t < threads; t++) {
				x[t] = x[t] * 1664525u + 1013904223u;
				s[t] = x[t];
			}
			for (unsigned int t = 0; t < threads; t++)
				x[t] ^= s[(t + 1) % threads] >> 3;
		}
		memcpy(out + b * threads, x, threads * sizeof(*x));
	}
}

/* The child: spin on a flag in its own mapped host memory until told. */
static int spinner_child(int ready_fd, int go_fd)
{
	volatile unsigned int *host;
	CUdeviceptr dflag, dspins;
	CUcontext ctx;
	CUmodule m;
	CUfunction spin;
	void *params[] = { &dflag, &dspins };
	char c = 0;
	CUresult res;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuModuleLoad(&m, SCHED_PTX) ||
	    cuModuleGetFunction(&spin, m, "spin_host") ||
	    cuMemHostAlloc((void **)&host, 4096, CU_MEMHOSTALLOC_DEVICEMAP))
		return 2;
	host[0] = 0;	/* the flag */
	host[1] = 0;	/* started */
	if (cuMemHostGetDevicePointer(&dflag, (void *)host, 0))
		return 2;
	dspins = dflag + 4;
	/* launch only once the parent is set up: the spin stays short */
	if (read(go_fd, &c, 1) != 1)
		return 4;
	if (cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL))
		return 3;
	/* running: tell the parent, wait for its word, release the kernel */
	while (!host[1])
		usleep(1000);
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
		return 4;
	__atomic_store_n(&host[0], 1u, __ATOMIC_RELEASE);
	res = cuCtxSynchronize();
	return res == CUDA_SUCCESS ? 0 : 10 + (int)res % 100;
}

TEST(spinning_process_and_working_process)
{
	const unsigned int blocks = 2, threads = 64, rounds = 20;
	int ready[2], go[2], status;
	unsigned int *ref, *got;
	CUcontext ctx;
	CUmodule m;
	CUfunction lcg;
	CUdeviceptr out;
	unsigned int r = rounds;
	void *params[] = { &out, &r };
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(spinner_child(ready[1], go[0]));
	ref = calloc(blocks * threads, sizeof(*ref));
	got = calloc(blocks * threads, sizeof(*got));
	ASSERT_NE(NULL, ref);
	ASSERT_NE(NULL, got);
	lcg_reference(ref, blocks, threads, rounds);
	CU_SETUP(&ctx);
	m = load_sched(_metadata);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&lcg, m, "lcg_mix"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&out, blocks * threads * 4));
	/* set up: the other process launches; its kernel spins from here */
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(lcg, blocks, 1, 1, threads, 1, 1,
					       0, NULL, params, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(got, out, blocks * threads * 4));
	EXPECT_EQ(0, memcmp(ref, got, blocks * threads * 4));
	/* the spinner has not ended: only its host releases it */
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	free(ref);
	free(got);
}

CUDA_TEST_MAIN
