// SPDX-License-Identifier: GPL-2.0
//
// simpleZeroCopy: a kernel that works directly on host memory, with no
// cudaMemcpy at all.  The host memory is mapped into the device's address
// space ("zero copy"); the kernel's loads and stores go to the host pages
// while it runs.  Two ways to get such memory:
//
//   1. cudaHostAlloc(cudaHostAllocMapped): the driver allocates it;
//   2. cudaHostRegister(cudaHostRegisterMapped): memory the program already
//      has (here from malloc, so neither page aligned nor a page multiple)
//      is pinned and mapped in place.
//
// Either way cudaHostGetDevicePointer gives the address the kernel uses
// (with unified addressing, the same as the host's).  Host writes made
// before the launch are seen by the kernel; the kernel's writes are seen
// by the host after cudaDeviceSynchronize().
#include <math.h>

#include "../common/sample_check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

static void fill(float *a, float *b, float *c, int n)
{
	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(n - i) * 0.25f;
		c[i] = -1.0f;
	}
}

static bool check(const float *a, const float *b, const float *c, int n,
		  const char *how)
{
	for (int i = 0; i < n; i++) {
		if (fabsf(a[i] + b[i] - c[i]) > 1e-5f * fabsf(c[i]) + 1e-6f) {
			fprintf(stderr, "%s: c[%d] = %f, expected %f\n", how, i,
				c[i], a[i] + b[i]);
			return false;
		}
	}
	printf("  %s: %d sums correct\n", how, n);
	return true;
}

// Launch on the host arrays through their device addresses.
static void add_on_device(float *a, float *b, float *c, int n)
{
	float *da, *db, *dc;

	CHECK(cudaHostGetDevicePointer(&da, a, 0));
	CHECK(cudaHostGetDevicePointer(&db, b, 0));
	CHECK(cudaHostGetDevicePointer(&dc, c, 0));
	vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	// The kernel writes host memory; wait before the CPU reads it.
	CHECK(cudaDeviceSynchronize());
}

static bool with_host_alloc(int n)
{
	size_t bytes = (size_t)n * sizeof(float);
	float *a, *b, *c;
	unsigned int flags;
	bool ok;

	CHECK(cudaHostAlloc(&a, bytes, cudaHostAllocMapped));
	CHECK(cudaHostAlloc(&b, bytes, cudaHostAllocMapped));
	CHECK(cudaHostAlloc(&c, bytes, cudaHostAllocMapped));
	CHECK(cudaHostGetFlags(&flags, a));
	printf("  cudaHostAlloc flags reported back: 0x%x (Mapped %s)\n",
	       flags, flags & cudaHostAllocMapped ? "set" : "missing");
	fill(a, b, c, n);
	add_on_device(a, b, c, n);
	ok = check(a, b, c, n, "cudaHostAlloc(Mapped)") &&
	     (flags & cudaHostAllocMapped);
	CHECK(cudaFreeHost(a));
	CHECK(cudaFreeHost(b));
	CHECK(cudaFreeHost(c));
	return ok;
}

static bool with_host_register(int n)
{
	size_t bytes = (size_t)n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
	float *c = (float *)malloc(bytes);
	bool ok;

	if (!a || !b || !c) {
		fprintf(stderr, "out of host memory\n");
		return false;
	}
	fill(a, b, c, n);
	// Only a and b are read by the device: c must be writable.
	CHECK(cudaHostRegister(a, bytes, cudaHostRegisterMapped));
	CHECK(cudaHostRegister(b, bytes, cudaHostRegisterMapped));
	CHECK(cudaHostRegister(c, bytes, cudaHostRegisterMapped));
	add_on_device(a, b, c, n);
	ok = check(a, b, c, n, "cudaHostRegister(Mapped)");

	// Once more, with new host data: the kernel reads the pages as they
	// are now, not a copy taken at registration.
	fill(b, a, c, n);
	add_on_device(a, b, c, n);
	ok &= check(a, b, c, n, "cudaHostRegister(Mapped), rewritten");
	CHECK(cudaHostUnregister(a));
	CHECK(cudaHostUnregister(b));
	CHECK(cudaHostUnregister(c));
	free(a);
	free(b);
	free(c);
	return ok;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100003;
	cudaDeviceProp prop;
	bool ok;

	if (n <= 0) {
		fprintf(stderr, "simpleZeroCopy: bad size\n");
		return sample_result(false);
	}
	// Before anything creates the context: mapped host memory wanted.
	CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
	CHECK(cudaGetDeviceProperties(&prop, 0));
	if (!prop.canMapHostMemory) {
		fprintf(stderr, "%s cannot map host memory\n", prop.name);
		return sample_result(false);
	}
	printf("[simpleZeroCopy] %d floats on %s\n", n, prop.name);
	ok = with_host_alloc(n);
	ok &= with_host_register(n);
	return sample_result(ok);
}
