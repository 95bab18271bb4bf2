// SPDX-License-Identifier: GPL-2.0
/*
 * bench_cu.c - what the driver API costs, measured in the guest:
 *
 *   - a null ioctl (VGPU_IOCTL_GET_INFO) against an empty kernel's
 *     cuLaunchKernel + cuCtxSynchronize round trip;
 *   - copy bandwidth host->device, device->host (pinned and pageable)
 *     and device->device, against memcpy() in the same guest.
 *
 * Not a test: it prints a table.  Run it like the guest tests:
 *   tools/vgpu-vm -- build/tests/cuda/bench_cu
 */
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

static double bench_launch(CUfunction f, int n)
{
	double t;

	CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK(cuCtxSynchronize());
	t = now_s();
	for (int i = 0; i < n; i++) {
		CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		CHECK(cuCtxSynchronize());
	}
	return (now_s() - t) / n * 1e6;
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

/* Submission alone: n launches queued, then one synchronize. */
static double bench_launch_queued(CUfunction f, int n)
{
	double t = now_s();

	for (int i = 0; i < n; i++)
		CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK(cuCtxSynchronize());
	return (now_s() - t) / n * 1e6;
}

/* GB/s of @what over @reps copies of @size bytes. */
static double bw(const char *what, CUdeviceptr dst, CUdeviceptr src,
		 size_t size, int reps)
{
	double t;

	CHECK(cuMemcpy(dst, src, size));
	t = now_s();
	for (int i = 0; i < reps; i++)
		CHECK(cuMemcpy(dst, src, size));
	CHECK(cuCtxSynchronize());
	t = now_s() - t;
	printf("  %-28s %8.2f GB/s\n", what, (double)size * reps / t / 1e9);
	return (double)size * reps / t / 1e9;
}

int main(void)
{
	const size_t size = 64u << 20;
	const int reps = 4;
	CUcontext ctx;
	CUmodule m;
	CUfunction empty;
	CUdeviceptr d1, d2;
	void *p1, *p2, *h1, *h2;
	double t, mc;
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

	printf("latency\n");
	printf("  %-28s %8.1f us\n", "null ioctl (GET_INFO)",
	       bench_null_ioctl());
	printf("  %-28s %8.1f us\n", "empty launch + synchronize",
	       bench_launch(empty, 200));
	printf("  %-28s %8.1f us\n", "empty launch, 1000 queued",
	       bench_launch_queued(empty, 1000));
	CHECK(cuMemAlloc(&d1, size));
	printf("  %-28s %8.1f us\n", "1-byte memset + synchronize",
	       bench_memset(d1, 200));

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
	for (int i = 0; i < reps; i++)
		memcpy(h2, h1, size);
	mc = (double)size * reps / (now_s() - t) / 1e9;
	printf("bandwidth (%zu MiB copies)\n", size >> 20);
	printf("  %-28s %8.2f GB/s\n", "memcpy (guest CPU)", mc);
	bw("pinned  host -> device", d1, (CUdeviceptr)p1, size, reps);
	bw("pinned  device -> host", (CUdeviceptr)p2, d1, size, reps);
	bw("pageable host -> device", d1, (CUdeviceptr)h1, size, reps);
	bw("pageable device -> host", (CUdeviceptr)h2, d1, size, reps);
	bw("device -> device", d2, d1, size, reps);

	CHECK(cuDevicePrimaryCtxRelease(0));
	free(h1);
	free(h2);
	fw_launcher_stop(fw);
	return 0;
}
