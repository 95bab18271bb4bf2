// SPDX-License-Identifier: GPL-2.0
//
// managedMigration: where the pages of cudaMallocManaged memory live, and
// how they move.
//
// vGPU migrates managed memory in blocks of 64 KiB (Documentation/
// managed-memory.rst): a kernel touching a block that lives in host pages
// faults, the driver moves it into VRAM and the access replays; the CPU
// touching a block in VRAM faults in the kernel, which moves it back;
// cudaMemPrefetchAsync moves blocks ahead of time, in stream order.  The
// sample prints the driver's view after each step - bytes in VRAM and the
// faults and migrations counted in sysfs (/sys/class/misc/vgpu0/managed/)
// - and checks the data against a CPU reference at the end.  On a GPU
// without those files (a real one) it prints "n/a" and checks only the
// data.
#include <stdio.h>
#include <string.h>

#include "../common/sample_check.h"

static const size_t kBlock = 64 << 10;	// the unit of migration

// One counter of the driver's managed-memory statistics, or -1.
static long long counter(const char *name)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/vgpu0/managed/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

struct snapshot {
	long long vram, gpu_faults, cpu_faults, to_device, to_host;
};

static snapshot take(void)
{
	return { counter("resident_bytes"), counter("gpu_faults"),
		 counter("cpu_faults"), counter("to_device"),
		 counter("to_host") };
}

static bool have_counters;

// Print what changed since @before; returns the new snapshot.
static snapshot report(const char *step, const snapshot &before)
{
	snapshot now = take();

	if (!have_counters) {
		printf("%-44s n/a\n", step);
		return now;
	}
	printf("%-44s %6lld KiB in VRAM  +%lld device faults  "
	       "+%lld host faults  +%lld KiB to device  +%lld KiB to host\n",
	       step, now.vram >> 10, now.gpu_faults - before.gpu_faults,
	       now.cpu_faults - before.cpu_faults,
	       (now.to_device - before.to_device) * (long long)kBlock >> 10,
	       (now.to_host - before.to_host) * (long long)kBlock >> 10);
	return now;
}

__global__ void scale(float *x, size_t n, float a)
{
	for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		x[i] = x[i] * a + 1.0f;
}

int main(void)
{
	const size_t bytes = 16 * kBlock, n = bytes / sizeof(float);
	int concurrent = 0, pageable = 0;
	cudaStream_t stream;
	cudaMemLocation dev = {}, host = {};
	bool ok = true;
	float *x;

	CHECK(cudaDeviceGetAttribute(&concurrent,
				     cudaDevAttrConcurrentManagedAccess, 0));
	CHECK(cudaDeviceGetAttribute(&pageable,
				     cudaDevAttrPageableMemoryAccess, 0));
	printf("concurrentManagedAccess %d, pageableMemoryAccess %d\n",
	       concurrent, pageable);
	CHECK(cudaStreamCreate(&stream));
	CHECK(cudaMallocManaged(&x, bytes));
	have_counters = counter("resident_bytes") >= 0;
	dev.type = cudaMemLocationTypeDevice;
	dev.id = 0;
	host.type = cudaMemLocationTypeHost;

	snapshot s = take(), start = s;
	for (size_t i = 0; i < n; i++)
		x[i] = (float)(i % 1000);
	s = report("1. the CPU writes 1 MiB", s);
	long long vram_idle = s.vram;

	scale<<<64, 256, 0, stream>>>(x, n, 2.0f);
	CHECK(cudaStreamSynchronize(stream));
	s = report("2. a kernel touches it: device faults", s);
	if (have_counters && (s.vram - vram_idle != (long long)bytes ||
			      s.gpu_faults - start.gpu_faults < 1))
		ok = false;

	volatile float sink = 0;
	for (size_t i = 0; i < n / 2; i += kBlock / sizeof(float))
		sink = sink + x[i];
	s = report("3. the CPU reads the first half: host faults", s);
	if (have_counters && s.vram - vram_idle != (long long)bytes / 2)
		ok = false;

	long long faults = s.gpu_faults;
	CHECK(cudaMemPrefetchAsync(x, bytes, dev, 0, stream));
	CHECK(cudaStreamSynchronize(stream));
	s = report("4. cudaMemPrefetchAsync to the device", s);
	scale<<<64, 256, 0, stream>>>(x, n, 0.5f);
	CHECK(cudaStreamSynchronize(stream));
	s = report("5. the kernel again: no fault", s);
	if (have_counters && (s.vram - vram_idle != (long long)bytes ||
			      s.gpu_faults != faults))
		ok = false;

	CHECK(cudaMemPrefetchAsync(x, bytes, host, 0, stream));
	CHECK(cudaStreamSynchronize(stream));
	s = report("6. cudaMemPrefetchAsync to the host", s);
	if (have_counters && s.vram != vram_idle)
		ok = false;

	// The CPU reference: (v * 2 + 1) * 0.5 + 1.
	for (size_t i = 0; i < n && ok; i++) {
		float want = ((float)(i % 1000) * 2.0f + 1.0f) * 0.5f + 1.0f;

		if (x[i] != want) {
			printf("x[%zu] = %g, expected %g\n", i, x[i], want);
			ok = false;
		}
	}
	s = report("7. the CPU checks every value: no fault", s);
	CHECK(cudaFree(x));
	CHECK(cudaStreamDestroy(stream));
	return sample_result(ok);
}
