// SPDX-License-Identifier: GPL-2.0
//
// Page-locked host memory through the runtime API (guest test): every
// cudaHostRegister flag, memory that cannot be pinned, pointer attributes
// of each kind of pointer, cudaMemcpyDefault between every kind of memory,
// kernels on mapped memory, copies and kernels overlapping on streams, and
// portable memory used from a second device.  The API basics (cudaHostAlloc
// flags, cudaFreeHost errors) are in test_cudart_api.cu.
//
// Runs with two vgpu devices (test_cudart_host_memory.vmargs) and starts a
// firmware for each.  Expected values quoted "golden" were recorded on an
// H200 (tools/cuda-probe/golden/probe_errors.h200.txt).
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_tap.h"

static const size_t page = 4096;

__global__ void add_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

__global__ void scale(int *p, int factor, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = p[i] * factor + i;
}

static void clear_error(void)
{
	(void)cudaGetLastError();
}

static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 29 + seed + (i >> 12));
}

static bool is_pattern(const unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 29 + seed + (i >> 12)))
			return false;
	return true;
}

static char *map_pages(size_t n, int prot)
{
	void *p = mmap(NULL, n, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : (char *)p;
}

// cudaSetDeviceFlags(cudaDeviceMapHost) before anything else: accepted
// and reported back.
static void test_map_host_flag(void)
{
	unsigned int flags = 0;

	TAP(OK(cudaSetDeviceFlags(cudaDeviceMapHost)) &&
	    OK(cudaGetDeviceFlags(&flags)) && (flags & cudaDeviceMapHost),
	    "cudaSetDeviceFlags(cudaDeviceMapHost) first: flags %#x", flags);
}

// golden: flags 0-15; IoMemory (4) is refused, the others give Mapped
// plus Portable if asked, and the host address as device pointer.
static void test_register_flags(void)
{
	char *buf = map_pages(2 * page, PROT_READ | PROT_WRITE);
	bool all_ok = true;

	for (unsigned int f = 0; f < 16; f++) {
		cudaError_t e = cudaHostRegister(buf + 8, page, f);
		unsigned int got = 0;
		void *dp = NULL;

		if (f & cudaHostRegisterIoMemory) {
			all_ok &= e == cudaErrorInvalidValue;
			clear_error();
			continue;
		}
		all_ok &= e == cudaSuccess &&
			  OK(cudaHostGetFlags(&got, buf + 100)) &&
			  got == ((f & cudaHostRegisterPortable) |
				  cudaHostAllocMapped) &&
			  OK(cudaHostGetDevicePointer(&dp, buf + 8, 0)) &&
			  dp == buf + 8 && OK(cudaHostUnregister(buf + 8));
	}
	TAP(all_ok, "cudaHostRegister flags 0-15: IoMemory refused, the "
	    "rest report Mapped (+Portable), device pointer == host (golden)");
	TAP(IS(cudaErrorInvalidValue,
	       cudaHostRegister(buf, page, 0x80000000u)),
	    "cudaHostRegister unknown flag: cudaErrorInvalidValue (golden)");
	clear_error();
	munmap(buf, 2 * page);
}

// golden: what cannot be pinned is cudaErrorInvalidValue.
static void test_unpinnable(void)
{
	char *ro = map_pages(page, PROT_READ);
	char *none = map_pages(page, PROT_NONE);
	char *gone = map_pages(page, PROT_READ | PROT_WRITE);
	void *d = NULL, *pinned = NULL, *dp = NULL;
	unsigned int flags = 0;

	munmap(gone, page);
	cudaMalloc(&d, page);
	cudaMallocHost(&pinned, page);
	TAP(IS(cudaErrorInvalidValue, cudaHostRegister(ro, page, 0)) &&
	    OK(cudaHostRegister(ro, page, cudaHostRegisterReadOnly)) &&
	    OK(cudaHostUnregister(ro)),
	    "PROT_READ memory: refused by default, pinned with ReadOnly "
	    "(golden)");
	clear_error();
	TAP(IS(cudaErrorInvalidValue, cudaHostRegister(none, page, 0)) &&
	    IS(cudaErrorInvalidValue, cudaHostRegister(gone, page, 0)) &&
	    IS(cudaErrorInvalidValue, cudaHostRegister(d, page, 0)) &&
	    IS(cudaErrorInvalidValue, cudaHostRegister(pinned, page, 0)),
	    "PROT_NONE, unmapped, device and pinned memory cannot be "
	    "registered: cudaErrorInvalidValue (golden)");
	clear_error();
	TAP(IS(cudaErrorInvalidValue, cudaHostGetFlags(&flags, none)) &&
	    IS(cudaErrorInvalidValue, cudaHostGetDevicePointer(&dp, none, 0)),
	    "cudaHostGetFlags/GetDevicePointer of unregistered memory: "
	    "cudaErrorInvalidValue (golden)");
	clear_error();
	cudaFree(d);
	cudaFreeHost(pinned);
	munmap(ro, page);
	munmap(none, page);
}

static bool attrs_are(const void *p, cudaMemoryType type, int device,
		      const void *dev_ptr, const void *host_ptr)
{
	struct cudaPointerAttributes a;

	memset(&a, 0x5a, sizeof(a));
	return OK(cudaPointerGetAttributes(&a, p)) && a.type == type &&
	       a.device == device && a.devicePointer == dev_ptr &&
	       a.hostPointer == host_ptr;
}

// golden: registered memory (and inside it), one past the end of device
// memory, NULL and freed device memory.
static void test_pointer_attributes(void)
{
	char *buf = map_pages(3 * page, PROT_READ | PROT_WRITE);
	char *d = NULL;
	void *wc = NULL;

	cudaMalloc((void **)&d, page);
	cudaHostAlloc(&wc, page, cudaHostAllocWriteCombined);
	cudaHostRegister(buf, 3 * page, 0);
	TAP(attrs_are(buf, cudaMemoryTypeHost, 0, buf, buf) &&
	    attrs_are(buf + 5000, cudaMemoryTypeHost, 0, buf + 5000,
		      buf + 5000),
	    "pointer attributes of registered memory and inside it (golden)");
	TAP(attrs_are((char *)wc + 100, cudaMemoryTypeHost, 0,
		      (char *)wc + 100, (char *)wc + 100),
	    "pointer attributes of write-combined memory");
	TAP(attrs_are(d + page, cudaMemoryTypeUnregistered, -2, NULL,
		      d + page),
	    "pointer attributes one past device memory: unregistered "
	    "(golden)");
	TAP(attrs_are(NULL, cudaMemoryTypeUnregistered, -2, NULL, NULL),
	    "pointer attributes of NULL (golden)");
	cudaFree(d);
	TAP(attrs_are(d, cudaMemoryTypeUnregistered, -2, NULL, d),
	    "pointer attributes of freed device memory (golden)");
	cudaHostUnregister(buf);
	TAP(attrs_are(buf, cudaMemoryTypeUnregistered, -2, NULL, buf),
	    "pointer attributes of unregistered memory");
	clear_error();
	cudaFreeHost(wc);
	munmap(buf, 3 * page);
}

// cudaMemcpyDefault between every pair of pageable, pinned,
// write-combined, registered and device memory, sync and async, at sizes
// and offsets that are not page multiples.
static void test_memcpy_default(void)
{
	const size_t max = (3 << 20) + 3 * page;
	static const size_t sizes[] = { 1, 4095, 4097, 65543, (1 << 20) + 9,
					(3 << 20) + 1 };
	char *reg_map = map_pages(max + 2 * page, PROT_READ | PROT_WRITE);
	unsigned char *kinds[5], *out[5];
	const char *names[5] = { "pageable", "pinned", "write-combined",
				 "registered", "device" };
	unsigned char *check = (unsigned char *)malloc(max);
	cudaStream_t s;
	bool setup, all_ok = true;
	unsigned int seed = 3;

	kinds[0] = (unsigned char *)malloc(max);
	out[0] = (unsigned char *)malloc(max);
	kinds[3] = (unsigned char *)reg_map + 100;
	out[3] = (unsigned char *)map_pages(max, PROT_READ | PROT_WRITE) + 1;
	setup = OK(cudaStreamCreate(&s)) &&
		OK(cudaMallocHost((void **)&kinds[1], max)) &&
		OK(cudaMallocHost((void **)&out[1], max)) &&
		OK(cudaHostAlloc((void **)&kinds[2], max,
				 cudaHostAllocWriteCombined)) &&
		OK(cudaHostAlloc((void **)&out[2], max,
				 cudaHostAllocWriteCombined)) &&
		OK(cudaHostRegister(kinds[3], max - 100, 0)) &&
		OK(cudaHostRegister(out[3], max - 100, 0)) &&
		OK(cudaMalloc((void **)&kinds[4], max)) &&
		OK(cudaMalloc((void **)&out[4], max));
	TAP(setup, "memory of every kind for the copies");
	if (!setup)
		return;
	for (int a = 0; a < 5; a++) {
		for (int b = 0; b < 5; b++) {
			for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes);
			     i++) {
				size_t n = sizes[i], so = (i * 7 + a) % 3 * 2049,
				       dso = (i + b) % 3 * 1023;
				bool async = (i + a + b) & 1, ok;

				fill_pattern(check, n, seed);
				ok = OK(cudaMemcpy(kinds[a] + so, check, n,
						   cudaMemcpyDefault));
				if (async)
					ok = ok && OK(cudaMemcpyAsync(
						out[b] + dso, kinds[a] + so, n,
						cudaMemcpyDefault, s)) &&
					     OK(cudaStreamSynchronize(s));
				else
					ok = ok && OK(cudaMemcpy(
						out[b] + dso, kinds[a] + so, n,
						cudaMemcpyDefault));
				memset(check, 0, n);
				ok = ok && OK(cudaMemcpy(check, out[b] + dso,
							 n,
							 cudaMemcpyDefault)) &&
				     is_pattern(check, n, seed);
				if (!ok)
					tap_diag("%s -> %s, %zu bytes at "
						 "+%zu/+%zu %s: wrong",
						 names[a], names[b], n, so,
						 dso, async ? "async" : "sync");
				all_ok &= ok;
				seed++;
			}
		}
	}
	TAP(all_ok, "cudaMemcpyDefault between every pair of memory kinds, "
	    "6 sizes, mid-page offsets, sync and async");
	cudaHostUnregister(kinds[3]);
	cudaHostUnregister(out[3]);
	cudaFreeHost(kinds[1]);
	cudaFreeHost(out[1]);
	cudaFreeHost(kinds[2]);
	cudaFreeHost(out[2]);
	cudaFree(kinds[4]);
	cudaFree(out[4]);
	cudaStreamDestroy(s);
	free(kinds[0]);
	free(out[0]);
	free(check);
	munmap(reg_map, max + 2 * page);
	munmap(out[3] - 1, max);
}

// Zero copy through the runtime: host writes before the launch are read
// by the kernel, its writes are seen after synchronising.
static void test_mapped_kernels(void)
{
	const int n = 5000;
	const size_t bytes = n * sizeof(int);
	char *map = map_pages(bytes + 2 * page, PROT_READ | PROT_WRITE);
	int *hosts[3] = { NULL, NULL, (int *)(map + 12) };
	const char *what[3] = { "cudaHostAlloc(Mapped)",
				"cudaHostAlloc(Mapped|WriteCombined)",
				"cudaHostRegister(Mapped), mid-page" };

	cudaHostAlloc((void **)&hosts[0], bytes, cudaHostAllocMapped);
	cudaHostAlloc((void **)&hosts[1], bytes,
		      cudaHostAllocMapped | cudaHostAllocWriteCombined);
	cudaHostRegister(hosts[2], bytes, cudaHostRegisterMapped);
	for (int k = 0; k < 3; k++) {
		int *h = hosts[k], *dp = NULL;
		bool ok = h && OK(cudaHostGetDevicePointer((void **)&dp, h, 0));

		for (int round = 0; ok && round < 3; round++) {
			for (int i = 0; i < n; i++)
				h[i] = 10 * i + round;
			scale<<<(n + 255) / 256, 256>>>(dp, 2, n);
			ok = OK(cudaDeviceSynchronize());
			for (int i = 0; ok && i < n; i++)
				ok = h[i] == (10 * i + round) * 2 + i;
		}
		TAP(ok, "a kernel reads and writes %s memory, 3 rounds",
		    what[k]);
	}
	cudaFreeHost(hosts[0]);
	cudaFreeHost(hosts[1]);
	cudaHostUnregister(hosts[2]);
	munmap(map, bytes + 2 * page);
}

// Pinned copies and kernels on four streams (best practices 9.1.2): the
// result is that of running them one after another.
static void test_streams_pipeline(void)
{
	const int n = 1 << 20, nstreams = 4, chunk = n / nstreams;
	int *h = NULL, *d = NULL;
	cudaStream_t s[4];
	bool ok = OK(cudaMallocHost((void **)&h, n * sizeof(int))) &&
		  OK(cudaMalloc((void **)&d, n * sizeof(int)));

	for (int i = 0; ok && i < nstreams; i++)
		ok = OK(cudaStreamCreate(&s[i]));
	for (int i = 0; ok && i < n; i++)
		h[i] = i;
	for (int k = 0; ok && k < nstreams; k++) {
		int off = k * chunk;

		cudaMemcpyAsync(d + off, h + off, chunk * sizeof(int),
				cudaMemcpyHostToDevice, s[k]);
		add_one<<<chunk / 256, 256, 0, s[k]>>>(d + off, chunk);
		cudaMemcpyAsync(h + off, d + off, chunk * sizeof(int),
				cudaMemcpyDeviceToHost, s[k]);
	}
	ok = ok && OK(cudaDeviceSynchronize());
	for (int i = 0; ok && i < n; i++)
		ok = h[i] == i + 1;
	TAP(ok, "copy / kernel / copy on 4 streams with pinned memory");
	for (int i = 0; i < nstreams; i++)
		cudaStreamDestroy(s[i]);
	cudaFreeHost(h);
	cudaFree(d);
}

// Portable memory made while device 0 is current, used by device 1.
static void test_portable_second_device(void)
{
	const int n = 3000;
	const size_t bytes = n * sizeof(int);
	char *map = map_pages(bytes + 2 * page, PROT_READ | PROT_WRITE);
	int *alloc = NULL, *reg = (int *)(map + 40), *d = NULL, count = 0;
	int *back = (int *)malloc(bytes);
	bool ok;

	if (!OK(cudaGetDeviceCount(&count)) || count < 2) {
		TAP(false, "two devices (the .vmargs asks for them): %d", count);
		return;
	}
	ok = OK(cudaSetDevice(0)) &&
	     OK(cudaHostAlloc((void **)&alloc, bytes, cudaHostAllocPortable |
			      cudaHostAllocMapped)) &&
	     OK(cudaHostRegister(reg, bytes, cudaHostRegisterPortable |
				 cudaHostRegisterMapped)) &&
	     OK(cudaSetDevice(1));
	for (int i = 0; ok && i < n; i++)
		alloc[i] = reg[i] = i;
	if (ok) {
		add_one<<<(n + 255) / 256, 256>>>(alloc, n);
		add_one<<<(n + 255) / 256, 256>>>(reg, n);
		add_one<<<(n + 255) / 256, 256>>>(reg, n);
	}
	ok = ok && OK(cudaDeviceSynchronize());
	for (int i = 0; ok && i < n; i++)
		ok = alloc[i] == i + 1 && reg[i] == i + 2;
	TAP(ok, "kernels of device 1 read and write portable memory made on "
	    "device 0 (cudaHostAlloc and cudaHostRegister)");
	ok = OK(cudaMalloc((void **)&d, bytes)) &&
	     OK(cudaMemcpy(d, reg, bytes, cudaMemcpyDefault)) &&
	     OK(cudaMemcpy(alloc, d, bytes, cudaMemcpyDefault)) &&
	     OK(cudaMemcpy(back, alloc, bytes, cudaMemcpyDefault));
	for (int i = 0; ok && i < n; i++)
		ok = back[i] == i + 2;
	TAP(ok, "copies of device 1 to and from device 0's portable memory");
	cudaFree(d);
	cudaSetDevice(0);
	TAP(OK(cudaFreeHost(alloc)) && OK(cudaHostUnregister(reg)),
	    "portable memory freed and unregistered on device 0");
	munmap(map, bytes + 2 * page);
	free(back);
}

int main(void)
{
	pid_t fw = fw_launcher_start(), fw1;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %s", strerror((int)-fw));
	fw1 = rt_test_start_fw_vgpu1();
	test_map_host_flag();
	test_register_flags();
	test_unpinnable();
	test_pointer_attributes();
	test_memcpy_default();
	test_mapped_kernels();
	test_streams_pipeline();
	test_portable_second_device();
	cudaDeviceReset();
	fw_launcher_stop_on(fw1, 1);
	fw_launcher_stop(fw);
	return tap_finish();
}
