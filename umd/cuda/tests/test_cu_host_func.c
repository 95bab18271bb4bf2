// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_host_func.c - host functions and stream callbacks: the call
 * returns at once, the function runs on another thread after the
 * stream's earlier work and before its later work, a stream whose
 * function has not returned is not complete, callbacks get the context's
 * error, graph host nodes behave the same, and the thread goes away with
 * the context.  (What each CUDA call answers inside a host function is
 * compared with an H100's answers by test_cu_probe_hostfn.)
 *
 * Until GR runs several grids at once, a kernel spinning on a flag holds
 * the whole engine: no test here needs two kernels running together.
 * Every wait for the host is bounded (WAIT_MS), far below the driver's
 * 5 s watchdog.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "cuda_test.h"

#define HF_PTX		CUDA_TEST_DATA "/host_func_kernels.ptx"

/* How long a host function or the test waits for the other. */
#define WAIT_MS		2000

struct hf {
	CUcontext ctx;
	CUmodule mod;
	CUfunction wait, copy, wild;
	volatile int *pinned;	/* 4096 ints, mapped (device VA == host VA) */
};

static void hf_setup(struct __test_metadata *_metadata, struct hf *h)
{
	void *p;

	CU_SETUP(&h->ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&h->mod, HF_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&h->wait, h->mod, "hf_wait"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&h->copy, h->mod, "hf_copy"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&h->wild, h->mod, "hf_wild"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&p, 4096 * sizeof(int),
					       CU_MEMHOSTALLOC_DEVICEMAP));
	memset(p, 0, 4096 * sizeof(int));
	h->pinned = p;
}

static CUresult launch2(CUfunction f, CUstream s, volatile void *a,
			volatile void *b)
{
	void *args[] = { &a, &b };

	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait up to WAIT_MS for *@v; whether it came. */
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

/* ---- the deadlock of a synchronous host function ------------------------ */

static struct {
	volatile int *pinned;
	pthread_t caller;
	atomic_int ran;
	int saw_done;
	bool other_thread;
} behind;

static void behind_fn(void *arg)
{
	(void)arg;
	behind.saw_done = behind.pinned[1];	/* the kernel before it ended */
	behind.pinned[2] = 7;			/* the kernel after it reads it */
	behind.other_thread = !pthread_equal(pthread_self(), behind.caller);
	atomic_store(&behind.ran, 1);
}

/*
 * The kernel waits for a flag the host sets only after cuLaunchHostFunc
 * returned: a call that waited for the kernel would never return.
 */
TEST(returns_while_a_kernel_waits_for_the_host)
{
	struct hf h;
	CUstream s;

	hf_setup(_metadata, &h);
	behind.pinned = h.pinned;
	behind.caller = pthread_self();
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, launch2(h.wait, s, &h.pinned[0], &h.pinned[1]));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, behind_fn, NULL));
	EXPECT_EQ(0, atomic_load(&behind.ran));
	ASSERT_EQ(CUDA_SUCCESS, launch2(h.copy, s, &h.pinned[3], &h.pinned[2]));
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
	h.pinned[0] = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(1, atomic_load(&behind.ran));
	EXPECT_EQ(1, behind.saw_done);
	EXPECT_EQ(7, h.pinned[3]);
	EXPECT_TRUE(behind.other_thread);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* ---- stream order, several streams --------------------------------------- */

#define ORDER_STREAMS	4
#define ORDER_ROUNDS	12

struct order_step {
	volatile int *slot;	/* what the next kernel copies */
	volatile int *prev_out;	/* what the previous kernel wrote, or NULL */
	int value, prev_value;
	atomic_int *next_round;	/* the stream's log: rounds in order */
	int round;
	atomic_int *errors;
};

static void order_fn(void *arg)
{
	struct order_step *st = arg;

	/* After the stream's previous kernel, before its next one. */
	if (st->prev_out && *st->prev_out != st->prev_value)
		atomic_fetch_add(st->errors, 1);
	if (atomic_load(st->next_round) != st->round)
		atomic_fetch_add(st->errors, 1);
	atomic_store(st->next_round, st->round + 1);
	*st->slot = st->value;
}

static atomic_int gate_open, gate_errors;

/* Holds its stream until the test has queued everything. */
static void gate_fn(void *arg)
{
	(void)arg;
	if (!wait_for(&gate_open))
		atomic_fetch_add(&gate_errors, 1);
}

/*
 * In each stream: a gate, then host function (writes X) -> kernel
 * (copies X) -> host function (checks the copy, writes the next X) ...;
 * one of the streams is the thread's per-thread default stream, one the
 * legacy stream.  Everything is queued while the gates hold the streams.
 */
TEST(stream_order_in_several_streams)
{
	static struct order_step steps[ORDER_STREAMS][ORDER_ROUNDS];
	static atomic_int next_round[ORDER_STREAMS], errors;
	CUstream s[ORDER_STREAMS];
	volatile int *out;
	struct hf h;
	int i, r;

	hf_setup(_metadata, &h);
	out = h.pinned + 64;
	s[0] = CU_STREAM_PER_THREAD;
	s[1] = NULL;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s[2], CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s[3], 0));
	for (i = 0; i < ORDER_STREAMS; i++)
		ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s[i], gate_fn, NULL));
	for (r = 0; r < ORDER_ROUNDS; r++) {
		for (i = 0; i < ORDER_STREAMS; i++) {
			struct order_step *st = &steps[i][r];

			st->slot = &h.pinned[i];
			st->value = 1000 * (i + 1) + r;
			st->prev_out = r ? &out[i * ORDER_ROUNDS + r - 1] : NULL;
			st->prev_value = st->value - 1;
			st->next_round = &next_round[i];
			st->round = r;
			st->errors = &errors;
			ASSERT_EQ(CUDA_SUCCESS,
				  cuLaunchHostFunc(s[i], order_fn, st));
			ASSERT_EQ(CUDA_SUCCESS,
				  launch2(h.copy, s[i], &out[i * ORDER_ROUNDS + r],
					  &h.pinned[i]));
		}
	}
	atomic_store(&gate_open, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(0, atomic_load(&gate_errors));
	EXPECT_EQ(0, atomic_load(&errors));
	for (i = 0; i < ORDER_STREAMS; i++) {
		EXPECT_EQ(ORDER_ROUNDS, atomic_load(&next_round[i]));
		for (r = 0; r < ORDER_ROUNDS; r++)
			EXPECT_EQ(1000 * (i + 1) + r, out[i * ORDER_ROUNDS + r]);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s[2]));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s[3]));
}

/* ---- a host function that blocks ----------------------------------------- */

static atomic_int block_release, block_result;
static volatile int *block_word;

static void block_fn(void *arg)
{
	(void)arg;
	atomic_store(&block_result, wait_for(&block_release) ? 1 : 2);
	*block_word = 42;
}

/*
 * While the function has not returned, its stream, an event recorded
 * after it and the context are not complete; the legacy stream's work
 * waits for it (implicit synchronisation with a blocking stream).
 */
TEST(not_complete_while_the_function_blocks)
{
	CUevent after;
	CUstream s;
	struct hf h;

	hf_setup(_metadata, &h);
	block_word = &h.pinned[0];
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&after, CU_EVENT_DISABLE_TIMING));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, block_fn, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(after, s));
	/* On the legacy stream: after the blocking stream's function. */
	ASSERT_EQ(CUDA_SUCCESS, launch2(h.copy, NULL, &h.pinned[1], &h.pinned[0]));
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuEventQuery(after));
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(NULL));
	EXPECT_EQ(0, atomic_load(&block_result));
	atomic_store(&block_release, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(NULL));
	EXPECT_EQ(1, atomic_load(&block_result));
	EXPECT_EQ(42, h.pinned[1]);
	EXPECT_EQ(CUDA_SUCCESS, cuStreamQuery(s));
	EXPECT_EQ(CUDA_SUCCESS, cuEventQuery(after));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(after));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* ---- callbacks' status ----------------------------------------------------- */

static atomic_int cb_ran, fn_ran;
static CUresult cb_status = (CUresult)-1;
static CUstream cb_stream;

static void status_cb(CUstream s, CUresult status, void *arg)
{
	(void)arg;
	cb_stream = s;
	cb_status = status;
	atomic_store(&cb_ran, 1);
}

static void mark_fn(void *arg)
{
	(void)arg;
	atomic_store(&fn_ran, 1);
}

TEST(callback_status_success)
{
	CUstream s;
	struct hf h;

	hf_setup(_metadata, &h);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(s, status_cb,
								 NULL, 1));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(s, NULL, NULL,
								 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(s, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamAddCallback(s, status_cb, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(1, atomic_load(&cb_ran));
	EXPECT_EQ(CUDA_SUCCESS, cb_status);
	EXPECT_EQ(s, cb_stream);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/*
 * As on the H100 (probe_hostfn): a callback queued behind a kernel that
 * faults runs, with the fault as its status; a host function does not.
 */
TEST(callback_status_after_a_fault)
{
	CUstream s;
	struct hf h;

	hf_setup(_metadata, &h);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	/* hf_wait holds the fault back until both are queued. */
	ASSERT_EQ(CUDA_SUCCESS, launch2(h.wait, s, &h.pinned[0], &h.pinned[1]));
	ASSERT_EQ(CUDA_SUCCESS, launch2(h.wild, s, h.pinned, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamAddCallback(s, status_cb, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, mark_fn, NULL));
	h.pinned[0] = 1;
	EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuStreamSynchronize(s));
	EXPECT_TRUE(wait_for(&cb_ran));
	EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cb_status);
	EXPECT_FALSE(wait_for(&fn_ran));
	EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS,
		  cuStreamAddCallback(s, status_cb, NULL, 0));
	EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuLaunchHostFunc(s, mark_fn, NULL));
}

/* ---- CUDA calls inside a host function ----------------------------------- */

static struct {
	CUstream other;
	CUevent ev;
	CUfunction copy;
	volatile int *pinned;
	CUresult get_current, ctx_sync, launch, alloc, query, record, sync_null;
	atomic_int done;
} inside;

static void inside_fn(void *arg)
{
	CUcontext cur;
	CUdeviceptr d;

	(void)arg;
	inside.get_current = cuCtxGetCurrent(&cur);
	inside.ctx_sync = cuCtxSynchronize();
	inside.sync_null = cuStreamSynchronize(NULL);
	inside.launch = launch2(inside.copy, inside.other, &inside.pinned[0],
				&inside.pinned[1]);
	inside.alloc = cuMemAlloc(&d, 64);
	inside.query = cuStreamQuery(inside.other);
	inside.record = cuEventRecord(inside.ev, inside.other);
	atomic_store(&inside.done, 1);
}

/* The H100's answers (tools/cuda-probe/golden/probe_hostfn.h100.txt). */
TEST(calls_inside_a_host_function)
{
	CUstream s;
	struct hf h;

	hf_setup(_metadata, &h);
	inside.copy = h.copy;
	inside.pinned = h.pinned;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&inside.other,
					       CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&inside.ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, inside_fn, NULL));
	ASSERT_TRUE(wait_for(&inside.done));
	EXPECT_EQ(CUDA_ERROR_NOT_PERMITTED, inside.get_current);
	EXPECT_EQ(CUDA_ERROR_NOT_PERMITTED, inside.ctx_sync);
	EXPECT_EQ(CUDA_ERROR_NOT_PERMITTED, inside.sync_null);
	EXPECT_EQ(CUDA_ERROR_NOT_PERMITTED, inside.launch);
	EXPECT_EQ(CUDA_ERROR_NOT_PERMITTED, inside.alloc);
	EXPECT_EQ(CUDA_SUCCESS, inside.query);
	EXPECT_EQ(CUDA_SUCCESS, inside.record);
	/* The caller's thread is unaffected. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(CUDA_SUCCESS, cuEventQuery(inside.ev));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(inside.other));
}

/* ---- graph host nodes ------------------------------------------------------ */

static atomic_int node_release, node_result;
static volatile int *node_slot;

static void node_fn(void *arg)
{
	(void)arg;
	atomic_store(&node_result, wait_for(&node_release) ? 1 : 2);
	*node_slot = 99;
}

/* kernel -> host node (blocks until released, writes X) -> kernel copies X */
TEST(graph_host_node)
{
	CUDA_KERNEL_NODE_PARAMS kp = { 0 };
	CUDA_HOST_NODE_PARAMS hp = { .fn = node_fn };
	CUgraphNode k1, host, k2;
	volatile int *a0, *a1, *b0, *b1;
	void *args1[2], *args2[2];
	CUgraphExec ge;
	CUgraph g;
	CUstream s;
	struct hf h;

	hf_setup(_metadata, &h);
	node_slot = &h.pinned[0];
	h.pinned[2] = 5;
	a0 = &h.pinned[1];	/* kernel 1: pinned[1] = pinned[2] */
	a1 = &h.pinned[2];
	b0 = &h.pinned[3];	/* kernel 2: pinned[3] = pinned[0] */
	b1 = &h.pinned[0];
	args1[0] = &a0;
	args1[1] = &a1;
	args2[0] = &b0;
	args2[1] = &b1;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	kp.func = h.copy;
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
	kp.kernelParams = args1;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&k1, g, NULL, 0, &kp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddHostNode(&host, g, &k1, 1, &hp));
	kp.kernelParams = args2;
	ASSERT_EQ(CUDA_SUCCESS, cuGraphAddKernelNode(&k2, g, &host, 1, &kp));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	/* The launch returned with the host node still waiting. */
	EXPECT_EQ(0, atomic_load(&node_result));
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
	atomic_store(&node_release, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(1, atomic_load(&node_result));
	EXPECT_EQ(5, h.pinned[1]);
	EXPECT_EQ(99, h.pinned[3]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* ---- many host threads ----------------------------------------------------- */

#define SUBMITTERS	4
#define SUBMISSIONS	32

static CUstream shared_stream;
static atomic_int shared_count, own_count[SUBMITTERS], submit_errors;

struct submitter {
	CUcontext ctx;
	int id;
};

static void shared_fn(void *arg)
{
	(void)arg;
	atomic_fetch_add(&shared_count, 1);
}

static void own_fn(void *arg)
{
	atomic_fetch_add(&own_count[(intptr_t)arg], 1);
}

static void *submit_main(void *arg)
{
	struct submitter *w = arg;
	CUstream s;
	int i;

	if (cuCtxSetCurrent(w->ctx) != CUDA_SUCCESS ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
		atomic_fetch_add(&submit_errors, 1);
		return NULL;
	}
	for (i = 0; i < SUBMISSIONS; i++) {
		if (cuLaunchHostFunc(shared_stream, shared_fn, NULL) ||
		    cuLaunchHostFunc(s, own_fn, (void *)(intptr_t)w->id))
			atomic_fetch_add(&submit_errors, 1);
	}
	if (cuStreamSynchronize(s) || cuStreamDestroy(s))
		atomic_fetch_add(&submit_errors, 1);
	return NULL;
}

TEST(submitted_from_several_threads)
{
	struct submitter w[SUBMITTERS];
	pthread_t t[SUBMITTERS];
	CUcontext ctx;
	int i;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&shared_stream, 0));
	for (i = 0; i < SUBMITTERS; i++) {
		w[i].ctx = ctx;
		w[i].id = i;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, submit_main, &w[i]));
	}
	for (i = 0; i < SUBMITTERS; i++)
		pthread_join(t[i], NULL);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(shared_stream));
	EXPECT_EQ(0, atomic_load(&submit_errors));
	EXPECT_EQ(SUBMITTERS * SUBMISSIONS, atomic_load(&shared_count));
	for (i = 0; i < SUBMITTERS; i++)
		EXPECT_EQ(SUBMISSIONS, atomic_load(&own_count[i]));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(shared_stream));
}

/* ---- lifetime --------------------------------------------------------------- */

static int thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static atomic_int drained;

static void drain_fn(void *arg)
{
	(void)arg;
	usleep(20 * 1000);
	atomic_fetch_add(&drained, 1);
}

/*
 * No thread before the first host function; destroying the context runs
 * what is queued, then the thread is gone.
 */
TEST(thread_lives_with_the_context)
{
	CUcontext ctx;
	CUstream s;
	int before, i;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	before = thread_count();
	ASSERT_LT(0, before);
	for (i = 0; i < 5; i++)
		ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, drain_fn, NULL));
	EXPECT_EQ(before + 1, thread_count());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx));
	EXPECT_EQ(5, atomic_load(&drained));
	EXPECT_EQ(before, thread_count());
}

static atomic_int dead_cb_ran;
static CUresult dead_cb_status = (CUresult)-1;

static void dead_cb(CUstream s, CUresult status, void *arg)
{
	(void)s;
	(void)arg;
	dead_cb_status = status;
	atomic_store(&dead_cb_ran, 1);
}

/*
 * A context that faulted with a callback still queued: destroying it
 * runs the callback, with the fault, before it returns.
 */
TEST(destroy_runs_a_dead_contexts_callbacks)
{
	volatile int *pinned;
	CUfunction wait, wild;
	CUcontext ctx;
	CUmodule mod;
	CUstream s;
	void *p;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&mod, HF_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wait, mod, "hf_wait"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&wild, mod, "hf_wild"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&p, 4096,
					       CU_MEMHOSTALLOC_DEVICEMAP));
	pinned = p;
	pinned[0] = 0;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, launch2(wait, s, &pinned[0], &pinned[1]));
	ASSERT_EQ(CUDA_SUCCESS, launch2(wild, s, pinned, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamAddCallback(s, dead_cb, NULL, 0));
	pinned[0] = 1;
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx));
	EXPECT_EQ(1, atomic_load(&dead_cb_ran));
	EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, dead_cb_status);
}

CUDA_TEST_MAIN
