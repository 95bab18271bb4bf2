// SPDX-License-Identifier: GPL-2.0
/*
 * bench_cu.c - what the stack costs, measured in the guest, each number
 * next to an in-process baseline:
 *
 *   - latency: an empty kernel's cuLaunchKernel + cuCtxSynchronize round
 *     trip (and a printing kernel's, a memset's) against a null ioctl
 *     (VGPU_IOCTL_GET_INFO) round trip;
 *   - kernel throughput of the samples' kernels (vectorAdd, matrixMul's
 *     tiled product), results checked against the CPU, against the same
 *     computation done by this CPU core in plain C;
 *   - copy bandwidth host->device, device->host (pinned and pageable) and
 *     device->device against memcpy() in the same guest;
 *   - the scheduler: how soon the first block of a kernel launched
 *     behind a long grid of another stream runs, with a higher stream
 *     priority and with the same one, against the null ioctl.
 *
 * Not a test: it prints a table (make bench runs it in the VM, on both
 * kernels).  By hand:
 *   tools/vgpu-vm -- build/tests/cuda/bench_cu
 * With -t only the kernel throughput, for the block-scaling comparison
 * that make bench runs under vgpu-fw --sms 1 and --sms 2; with -l only
 * the launch latencies (to compare firmwares: VGPU_FW=...).
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_test_min.h"
#include "fw_launcher.h"
#include "libvgpu/libvgpu.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_) { \
	fprintf(stderr, "%s: %d\n", #x, r_); exit(1); } } while (0)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double bench_null_ioctl(void)
{
	struct vgpu_device *dev;
	struct vgpu_info info;
	const int n = 20000;
	double t;

	if (vgpu_device_open(0, &dev))
		return -1;
	t = now_s();
	for (int i = 0; i < n; i++)
		vgpu_device_query(dev, &info);
	t = now_s() - t;
	vgpu_device_close(dev);
	return t / n * 1e6;
}

static double bench_launch(CUfunction f, void **params, int n)
{
	double t;

	CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
	CHECK(cuCtxSynchronize());
	t = now_s();
	for (int i = 0; i < n; i++) {
		CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params,
				     NULL));
		CHECK(cuCtxSynchronize());
	}
	return (now_s() - t) / n * 1e6;
}

/*
 * Empty launch + synchronize in a context of its own, created with the
 * wait policy @sched (CU_CTX_SCHED_*): what cudaSetDeviceFlags() chooses.
 */
static double bench_sched(unsigned int sched, int n)
{
	CUcontext ctx, prev;
	CUfunction f;
	CUmodule m;
	double us;

	CHECK(cuCtxGetCurrent(&prev));
	CHECK(cuCtxCreate(&ctx, NULL, sched, 0));
	CHECK(cuModuleLoad(&m, DRV_PTX));
	CHECK(cuModuleGetFunction(&f, m, "empty"));
	us = bench_launch(f, NULL, n);
	CHECK(cuCtxDestroy(ctx));
	CHECK(cuCtxSetCurrent(prev));
	return us;
}

/* A one-byte memset on the copy engine + synchronize, in microseconds. */
static double bench_memset(CUdeviceptr d, int n)
{
	double t = now_s();

	for (int i = 0; i < n; i++) {
		CHECK(cuMemsetD8(d, (unsigned char)i, 1));
		CHECK(cuCtxSynchronize());
	}
	return (now_s() - t) / n * 1e6;
}

static void noop_host_fn(void *arg)
{
	(void)arg;
}

/*
 * A host function + synchronize: the copy engine's fence, the host
 * function thread's wake-up, the call, the word it writes and the
 * engine's next look at its stalled WAIT_MEM (umd-driver-api.rst).
 */
static double bench_host_fn(int n)
{
	double t = now_s();

	for (int i = 0; i < n; i++) {
		CHECK(cuLaunchHostFunc(NULL, noop_host_fn, NULL));
		CHECK(cuCtxSynchronize());
	}
	return (now_s() - t) / n * 1e6;
}

/* n x (empty launch, host function) queued, then one synchronize. */
static double bench_host_fn_queued(CUfunction f, int n)
{
	double t = now_s();

	for (int i = 0; i < n; i++) {
		CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		CHECK(cuLaunchHostFunc(NULL, noop_host_fn, NULL));
	}
	CHECK(cuCtxSynchronize());
	return (now_s() - t) / n * 1e6;
}

/* Submission alone: n launches queued, then one synchronize. */
static double bench_launch_queued(CUfunction f, int n)
{
	double t = now_s();

	for (int i = 0; i < n; i++)
		CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK(cuCtxSynchronize());
	return (now_s() - t) / n * 1e6;
}

/* GB/s of @what over @reps copies of @size bytes, and against memcpy. */
static void bw(const char *what, CUdeviceptr dst, CUdeviceptr src,
	       size_t size, int reps, double memcpy_gbs)
{
	double t, gbs;

	CHECK(cuMemcpy(dst, src, size));
	t = now_s();
	for (int i = 0; i < reps; i++)
		CHECK(cuMemcpy(dst, src, size));
	CHECK(cuCtxSynchronize());
	t = now_s() - t;
	gbs = (double)size * reps / t / 1e9;
	printf("  %-34s %9.2f GB/s %8.2fx memcpy\n", what, gbs,
	       gbs / memcpy_gbs);
}

static void row_us(const char *what, double us, double null_us)
{
	printf("  %-34s %9.1f us   %8.1fx null ioctl\n", what, us,
	       us / null_us);
}

#define SCHED_PTX	CUDA_TEST_DATA "/sched_kernels.ptx"

/*
 * Microseconds from launching one block of "ticket" on a stream of
 * priority @prio until it runs, while a long grid of 32 blocks (one per
 * SM at a time: 200 KiB of shared memory each) runs on a stream of the
 * lowest priority.  The tickets live in mapped host memory, so the
 * host sees the block start without a synchronize.
 */
static double bench_first_block(CUfunction ticket, int prio)
{
	unsigned int dyn = 200 << 10, work_low = 8000, work_fast = 10;
	volatile unsigned int *h;
	CUdeviceptr count, order_low, order_fast;
	CUstream slow, fast;
	void *pl[] = { &count, &order_low, &work_low };
	void *pf[] = { &count, &order_fast, &work_fast };
	double t;

	CHECK(cuStreamCreateWithPriority(&slow, CU_STREAM_NON_BLOCKING, 0));
	CHECK(cuStreamCreateWithPriority(&fast, CU_STREAM_NON_BLOCKING, prio));
	CHECK(cuMemHostAlloc((void **)&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP));
	h[0] = 0;		/* tickets drawn */
	h[64] = ~0u;		/* the fast block's ticket */
	CHECK(cuMemHostGetDevicePointer(&count, (void *)h, 0));
	order_fast = count + 64 * 4;
	CHECK(cuMemAlloc(&order_low, 32 * 4));
	CHECK(cuLaunchKernel(ticket, 32, 1, 1, 32, 1, 1, dyn, slow, pl, NULL));
	while (!__atomic_load_n(&h[0], __ATOMIC_ACQUIRE))
		sched_yield();	/* the SM threads need the CPUs */
	t = now_s();
	CHECK(cuLaunchKernel(ticket, 1, 1, 1, 32, 1, 1, dyn, fast, pf, NULL));
	while (__atomic_load_n(&h[64], __ATOMIC_ACQUIRE) == ~0u)
		sched_yield();
	t = now_s() - t;
	CHECK(cuCtxSynchronize());
	CHECK(cuMemFree(order_low));
	CHECK(cuMemFreeHost((void *)h));
	CHECK(cuStreamDestroy(slow));
	CHECK(cuStreamDestroy(fast));
	return t * 1e6;
}

static void bench_scheduler(double null_us)
{
	CUmodule m;
	CUfunction ticket;
	double hi[3], eq[3];

	CHECK(cuModuleLoad(&m, SCHED_PTX));
	CHECK(cuModuleGetFunction(&ticket, m, "ticket"));
	CHECK(cuFuncSetAttribute(ticket,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 << 10));
	for (int i = 0; i < 3; i++) {
		hi[i] = bench_first_block(ticket, -5);
		eq[i] = bench_first_block(ticket, 0);
	}
	/* the middle of three, by hand */
	for (int i = 0; i < 2; i++)
		for (int j = i + 1; j < 3; j++) {
			double x;

			if (hi[j] < hi[i]) {
				x = hi[i]; hi[i] = hi[j]; hi[j] = x;
			}
			if (eq[j] < eq[i]) {
				x = eq[i]; eq[i] = eq[j]; eq[j] = x;
			}
		}
	printf("scheduler (median of 3)\n");
	row_us("first block, high prio behind grid", hi[1], null_us);
	row_us("first block, same prio behind grid", eq[1], null_us);
	printf("  %-34s %9.1fx\n", "  priority speed-up", eq[1] / hi[1]);
	CHECK(cuModuleUnload(m));
}

/* vectorAdd over @n floats: device against the CPU, results checked. */
static void bench_vector_add(CUmodule m, int n)
{
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	CUdeviceptr da, db, dc;
	void *params[] = { &da, &db, &dc, &n };
	CUfunction f;
	double t, dev_s, cpu_s;
	const int reps = 5;
	int bad = 0;

	CHECK(cuModuleGetFunction(&f, m, "vec_add"));
	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i);
	}
	CHECK(cuMemAlloc(&da, bytes));
	CHECK(cuMemAlloc(&db, bytes));
	CHECK(cuMemAlloc(&dc, bytes));
	CHECK(cuMemcpyHtoD(da, a, bytes));
	CHECK(cuMemcpyHtoD(db, b, bytes));
	CHECK(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL,
			     params, NULL));
	CHECK(cuCtxSynchronize());
	t = now_s();
	for (int i = 0; i < reps; i++)
		CHECK(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0,
				     NULL, params, NULL));
	CHECK(cuCtxSynchronize());
	dev_s = (now_s() - t) / reps;
	CHECK(cuMemcpyDtoH(c, dc, bytes));
	for (int i = 0; i < n; i++)
		bad += c[i] != (float)(3 * i);
	t = now_s();
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < n; i++)
			c[i] = a[i] + b[i];
		__asm__ volatile("" ::: "memory");
	}
	cpu_s = (now_s() - t) / reps;
	printf("  %-34s %9.3f Gelem/s %5.2fx CPU loop%s\n", "vectorAdd (1M floats)",
	       n / dev_s / 1e9, cpu_s / dev_s, bad ? "  RESULT WRONG" : "");
	cuMemFree(da);
	cuMemFree(db);
	cuMemFree(dc);
	free(a);
	free(b);
	free(c);
}

/* matrixMul's tiled kernel on @n x @n floats, against a CPU product. */
static void bench_matrix_mul(CUmodule m, int n)
{
	size_t bytes = (size_t)n * n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	float *ref = malloc(bytes);
	CUdeviceptr da, db, dc;
	void *params[] = { &dc, &da, &db, &n };
	CUfunction f;
	double t, dev_s, cpu_s, flop = 2.0 * n * n * n;
	int bad = 0;

	CHECK(cuModuleGetFunction(&f, m, "matrix_mul_tiled"));
	for (int i = 0; i < n * n; i++) {
		a[i] = (float)(i % 7) * 0.5f;
		b[i] = (float)(i % 5) - 2.0f;
	}
	CHECK(cuMemAlloc(&da, bytes));
	CHECK(cuMemAlloc(&db, bytes));
	CHECK(cuMemAlloc(&dc, bytes));
	CHECK(cuMemcpyHtoD(da, a, bytes));
	CHECK(cuMemcpyHtoD(db, b, bytes));
	t = now_s();
	CHECK(cuLaunchKernel(f, n / 16, n / 16, 1, 16, 16, 1, 0, NULL, params,
			     NULL));
	CHECK(cuCtxSynchronize());
	dev_s = now_s() - t;
	CHECK(cuMemcpyDtoH(c, dc, bytes));
	t = now_s();
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float sum = 0.0f;

			for (int k = 0; k < n; k++)
				sum += a[i * n + k] * b[k * n + j];
			ref[i * n + j] = sum;
		}
	cpu_s = now_s() - t;
	for (int i = 0; i < n * n; i++)
		bad += fabsf(c[i] - ref[i]) > 1e-3f * (1.0f + fabsf(ref[i]));
	printf("  %-34s %9.3f GFLOP/s %5.2fx CPU loop%s\n",
	       "matrixMul (256x256, 16x16 tiles)", flop / dev_s / 1e9,
	       cpu_s / dev_s, bad ? "  RESULT WRONG" : "");
	cuMemFree(da);
	cuMemFree(db);
	cuMemFree(dc);
	free(a);
	free(b);
	free(c);
	free(ref);
}

int main(int argc, char **argv)
{
	int throughput_only = argc > 1 && !strcmp(argv[1], "-t");
	int latency_only = argc > 1 && !strcmp(argv[1], "-l");
	const size_t size = 64u << 20;
	const int reps = 4;
	CUcontext ctx;
	CUmodule m;
	CUfunction empty, print_if;
	CUdeviceptr d1, d2;
	void *p1, *p2, *h1, *h2;
	int quiet = 0;
	void *print_params[] = { &quiet };
	double t, mc, null_us;
	pid_t fw = fw_launcher_start();

	if (fw < 0) {
		fprintf(stderr, "cannot start vgpu-fw: %d\n", (int)fw);
		return 1;
	}
	CHECK(cuInit(0));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	CHECK(cuModuleLoad(&m, DRV_PTX));
	CHECK(cuModuleGetFunction(&empty, m, "empty"));
	CHECK(cuModuleGetFunction(&print_if, m, "print_if"));

	if (throughput_only) {
		printf("kernel throughput (the samples' kernels)\n");
		bench_vector_add(m, 1 << 20);
		bench_matrix_mul(m, 256);
		CHECK(cuDevicePrimaryCtxRelease(0));
		fw_launcher_stop(fw);
		return 0;
	}
	printf("latency (per round trip)\n");
	null_us = bench_null_ioctl();
	row_us("null ioctl (GET_INFO)", null_us, null_us);
	row_us("empty launch + synchronize", bench_launch(empty, NULL, 200),
	       null_us);
	row_us("  same, context SCHED_AUTO", bench_sched(CU_CTX_SCHED_AUTO,
	       200), null_us);
	row_us("  same, context SCHED_SPIN", bench_sched(CU_CTX_SCHED_SPIN,
	       200), null_us);
	row_us("  same, context SCHED_YIELD", bench_sched(CU_CTX_SCHED_YIELD,
	       200), null_us);
	row_us("  same, context BLOCKING_SYNC",
	       bench_sched(CU_CTX_SCHED_BLOCKING_SYNC, 200), null_us);
	row_us("printf kernel launch + sync", bench_launch(print_if,
	       print_params, 200), null_us);
	row_us("empty launch, 1000 queued", bench_launch_queued(empty, 1000),
	       null_us);
	CHECK(cuMemAlloc(&d1, size));
	row_us("1-byte memset + synchronize", bench_memset(d1, 200), null_us);
	row_us("host function + synchronize", bench_host_fn(200), null_us);
	row_us("launch + host function, 200 queued",
	       bench_host_fn_queued(empty, 200), null_us);
	if (latency_only) {
		CHECK(cuDevicePrimaryCtxRelease(0));
		fw_launcher_stop(fw);
		return 0;
	}
	bench_scheduler(null_us);

	printf("kernel throughput (the samples' kernels)\n");
	bench_vector_add(m, 1 << 20);
	bench_matrix_mul(m, 256);

	CHECK(cuMemAlloc(&d2, size));
	CHECK(cuMemAllocHost(&p1, size));
	CHECK(cuMemAllocHost(&p2, size));
	h1 = malloc(size);
	h2 = malloc(size);
	memset(h1, 1, size);
	memset(h2, 2, size);
	memset(p1, 1, size);
	memset(p2, 2, size);
	memcpy(h2, h1, size);
	t = now_s();
	for (int i = 0; i < reps; i++) {
		memcpy(h2, h1, size);
		__asm__ volatile("" ::: "memory");
	}
	mc = (double)size * reps / (now_s() - t) / 1e9;
	printf("copy bandwidth (%zu MiB copies)\n", size >> 20);
	printf("  %-34s %9.2f GB/s %8.2fx memcpy\n", "memcpy (guest CPU)", mc,
	       1.0);
	bw("pinned  host -> device", d1, (CUdeviceptr)p1, size, reps, mc);
	bw("pinned  device -> host", (CUdeviceptr)p2, d1, size, reps, mc);
	bw("pageable host -> device", d1, (CUdeviceptr)h1, size, reps, mc);
	bw("pageable device -> host", (CUdeviceptr)h2, d1, size, reps, mc);
	bw("device -> device", d2, d1, size, reps, mc);

	CHECK(cuDevicePrimaryCtxRelease(0));
	free(h1);
	free(h2);
	fw_launcher_stop(fw);
	return 0;
}
