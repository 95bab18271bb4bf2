// SPDX-License-Identifier: GPL-2.0
//
// The runtime API on the real stack (guest test): the sticky errors of
// faulting kernels, then devices, memory, host memory, symbols, launches,
// streams, events, printf and errors.  A fault ends the process's use of
// the device (no reset clears it, as on NVIDIA hardware), so each fault
// runs first, in a child process of its own (rt_test_in_child()).
//
// Built by nvcc -cudart shared, like any CUDA program; run with our
// build/lib first on the library path.  Where real CUDA's answer was
// measured, the expected value is the one recorded on an H200
// (tools/cuda-probe/golden/probe_errors.h200.txt), quoted as "golden".
#include <assert.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_tap.h"

// --- device code ------------------------------------------------------------

__constant__ int init_const[4] = { 1, 2, 3, 4 };
__device__ int dev_var = 42;
__device__ float dev_table[8];

__global__ void read_symbols(int *out)
{
	int i = threadIdx.x;

	if (i < 4)
		out[i] = init_const[i];
	if (i == 4)
		out[4] = dev_var;
}

__global__ void fill(int *p, int value, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = value + i;
}

__global__ void add_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

__global__ void with_dynamic_smem(int *p)
{
	extern __shared__ int s[];

	s[threadIdx.x] = (int)threadIdx.x * 2;
	__syncthreads();
	p[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void say(int value)
{
	printf("thread %d says %d\n", threadIdx.x, value);
}

__global__ void write_through(int *p)
{
	*p = 1;
}

static void not_a_kernel(void)
{
}

// --- helpers ------------------------------------------------------------------

static void clear_error(void)
{
	cudaGetLastError();
}

static bool device_ints_equal(const int *d, const int *want, int n)
{
	int host[64];

	if (n > 64 || !OK(cudaMemcpy(host, d, n * sizeof(int),
				     cudaMemcpyDeviceToHost)))
		return false;
	return memcmp(host, want, n * sizeof(int)) == 0;
}

// --- tests ------------------------------------------------------------------------

static void test_library(void)
{
	Dl_info info;
	bool ours = dladdr((void *)cudaGetErrorName, &info) && info.dli_fname &&
		    strstr(info.dli_fname, "build/lib/libcudart.so.13");

	TAP(ours, "the runtime loaded is vGPU's (%s)",
	       ours ? info.dli_fname : "not build/lib");
}

static void test_devices(void)
{
	int n = 0, v = 0, rt = 0, drv = 0, least = 1, greatest = 1, dev = -1;
	unsigned int flags = 0;
	struct cudaDeviceProp p;

	TAP(OK(cudaGetDeviceCount(&n)) && n >= 1, "cudaGetDeviceCount: %d",
	       n);
	TAP(OK(cudaGetDevice(&dev)) && dev == 0, "current device is 0");
	TAP(IS(cudaErrorInvalidDevice, cudaGetDeviceProperties(&p, 99)) &&
	       IS(cudaErrorInvalidDevice, cudaSetDevice(99)) &&
	       IS(cudaErrorInvalidDevice, cudaSetDevice(-1)),
	       "bad device ordinals: cudaErrorInvalidDevice (golden)");
	TAP(IS(cudaErrorInvalidValue,
		  cudaDeviceGetAttribute(&v, (cudaDeviceAttr)0, 0)) &&
	       IS(cudaErrorInvalidValue,
		  cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0)),
	       "unknown attributes: cudaErrorInvalidValue (golden)");
	clear_error();
	TAP(OK(cudaSetDevice(0)) && OK(cudaGetDeviceProperties(&p, 0)) &&
	       OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock,
					 0)) &&
	       v == p.maxThreadsPerBlock && p.warpSize == 32 &&
	       p.unifiedAddressing == 1,
	       "properties agree with attributes (\"%s\", %d.%d)", p.name,
	       p.major, p.minor);
	TAP(OK(cudaRuntimeGetVersion(&rt)) && rt == 13000 &&
	       OK(cudaDriverGetVersion(&drv)) && drv >= 13000,
	       "versions: runtime %d, driver %d", rt, drv);
	TAP(OK(cudaSetDeviceFlags(cudaDeviceMapHost)) &&
	       OK(cudaGetDeviceFlags(&flags)) && (flags & cudaDeviceMapHost),
	       "cudaSetDeviceFlags(MapHost) after init, flags %#x (golden)",
	       flags);
	TAP(IS(cudaErrorInvalidValue, cudaSetDeviceFlags(0x100)) &&
	       IS(cudaErrorInvalidValue,
		  cudaSetDeviceFlags(cudaDeviceScheduleSpin |
				     cudaDeviceScheduleYield)),
	       "unknown or contradictory device flags: cudaErrorInvalidValue");
	TAP(OK(cudaDeviceGetStreamPriorityRange(&least, &greatest)) &&
	       least >= greatest, "stream priorities %d..%d", least,
	       greatest);
	clear_error();
}

static void test_memory(void)
{
	void *p = (void *)1, *big = NULL, *pinned = NULL;
	static char big_host[64 * sizeof(int) + 4096];
	void *wild = (void *)0x7000deadbeefull;
	int *d = NULL, *d2 = NULL, host[64], want[64];
	size_t free_b = 0, total = 0, pitch = 0;

	TAP(OK(cudaMalloc(&p, 0)) && p == NULL,
	       "cudaMalloc(0): success, NULL (golden)");
	TAP(IS(cudaErrorInvalidValue, cudaMalloc(NULL, 16)),
	       "cudaMalloc(NULL): cudaErrorInvalidValue (golden)");
	TAP(IS(cudaErrorMemoryAllocation, cudaMalloc(&big, 1ull << 50)),
	       "cudaMalloc(2^50): cudaErrorMemoryAllocation (golden)");
	TAP(OK(cudaFree(NULL)) &&
	       IS(cudaErrorInvalidValue, cudaFree((void *)0x1234000)),
	       "cudaFree(NULL) succeeds, wild pointer cudaErrorInvalidValue "
	       "(golden)");
	clear_error();
	if (!TAP(OK(cudaMalloc(&d, sizeof(host))) &&
		    OK(cudaMalloc(&d2, sizeof(host))), "cudaMalloc"))
		return;
	for (int i = 0; i < 64; i++)
		host[i] = i * 3 + 1;
	TAP(OK(cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice)) &&
	       OK(cudaMemcpy(d2, d, sizeof(host),
			     cudaMemcpyDeviceToDevice)) &&
	       device_ints_equal(d2, host, 64),
	       "H2D, D2D, D2H copies round-trip");
	memset(want, 0, sizeof(want));
	TAP(OK(cudaMemcpy(d2, want, sizeof(want), cudaMemcpyDefault)) &&
	       device_ints_equal(d2, want, 64) &&
	       OK(cudaMemcpy(want, d, sizeof(want), cudaMemcpyDefault)) &&
	       memcmp(want, host, sizeof(host)) == 0,
	       "cudaMemcpyDefault infers both directions (golden)");
	TAP(IS(cudaErrorInvalidMemcpyDirection,
		  cudaMemcpy(d, host, 16, (cudaMemcpyKind)17)),
	       "kind 17: cudaErrorInvalidMemcpyDirection (golden)");
	TAP(OK(cudaMemcpy(d, host, 0, cudaMemcpyHostToDevice)) &&
	       OK(cudaMemcpy(d, NULL, 0, cudaMemcpyHostToDevice)),
	       "size 0 copies succeed, even from NULL (golden)");
	TAP(IS(cudaErrorInvalidValue,
		  cudaMemcpy(NULL, host, 16, cudaMemcpyHostToDevice)),
	       "NULL destination: cudaErrorInvalidValue (golden)");
	TAP(IS(cudaErrorInvalidValue,
	       cudaMemcpy(d, big_host, sizeof(host) + 4096,
			  cudaMemcpyHostToDevice)),
	    "copy past the allocation's end: cudaErrorInvalidValue (golden)");
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy(wild, host, 16,
						 cudaMemcpyHostToDevice)),
	    "wild device pointer: cudaErrorInvalidValue (golden)");
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy(want, host, 16,
						 cudaMemcpyHostToDevice)) &&
	    IS(cudaErrorInvalidValue, cudaMemcpy(want, host, 16,
						 cudaMemcpyDeviceToDevice)),
	    "host pointers where the kind says device: cudaErrorInvalidValue "
	    "(golden)");
	clear_error();
	TAP(OK(cudaMemcpy(d2, d, 16, cudaMemcpyHostToDevice)) &&
	    (pinned = NULL, OK(cudaMallocHost(&pinned, 16))) &&
	    OK(cudaMemcpy(want, pinned, 16, cudaMemcpyDeviceToHost)) &&
	    OK(cudaFreeHost(pinned)),
	    "a device source for HostToDevice and a pinned source for "
	    "DeviceToHost are accepted, as with unified addressing (golden)");
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy(want, host, 16,
						 cudaMemcpyDeviceToHost)),
	    "a pageable source for DeviceToHost: cudaErrorInvalidValue "
	    "(measured on an H100)");
	clear_error();
	clear_error();
	for (int i = 0; i < 64; i++)
		want[i] = 0x5a5a5a5a;
	TAP(OK(cudaMemset(d, 0x5a, sizeof(host))) &&
	       device_ints_equal(d, want, 64), "cudaMemset fills bytes");
	TAP(IS(cudaErrorInvalidValue, cudaMemset(host, 0, 16)) &&
	    IS(cudaErrorInvalidValue, cudaMemset(wild, 0, 16)) &&
	    IS(cudaErrorInvalidValue, cudaMemset(d, 0, sizeof(host) + 4096)),
	    "cudaMemset of host memory, a wild pointer or past the end: "
	    "cudaErrorInvalidValue (golden)");
	clear_error();
	TAP(OK(cudaMemGetInfo(&free_b, &total)) && total > 0 &&
	       free_b <= total, "cudaMemGetInfo: %zu of %zu bytes free",
	       free_b, total);

	char *pitched = NULL, rows[4][24], back[4][24];

	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 24; c++)
			rows[r][c] = (char)(r * 24 + c);
	memset(back, 0, sizeof(back));
	TAP(OK(cudaMallocPitch((void **)&pitched, &pitch, 24, 4)) &&
	       pitch >= 24 &&
	       OK(cudaMemcpy2D(pitched, pitch, rows, 24, 24, 4,
			       cudaMemcpyHostToDevice)) &&
	       OK(cudaMemcpy2D(back, 24, pitched, pitch, 24, 4,
			       cudaMemcpyDeviceToHost)) &&
	       memcmp(rows, back, sizeof(rows)) == 0,
	       "cudaMallocPitch (pitch %zu) and cudaMemcpy2D round-trip",
	       pitch);
	clear_error();
	cudaFree(pitched);
	cudaFree(d);
	cudaFree(d2);
}

static void test_host_memory(void)
{
	bool flags_ok = true, bad_ok = true;
	void *p = NULL, *dp = NULL;
	unsigned int got = 0;
	int stack_var;

	// golden: flags 0-7 accepted, Mapped always reported, device
	// pointer equal to the host pointer; 8-15 refused.
	for (unsigned int f = 0; f < 16; f++) {
		cudaError_t e = cudaHostAlloc(&p, 4096, f);

		if (f >= 8) {
			bad_ok &= e == cudaErrorInvalidValue;
			continue;
		}
		flags_ok &= e == cudaSuccess &&
			    OK(cudaHostGetFlags(&got, p)) &&
			    got == (f | cudaHostAllocMapped) &&
			    OK(cudaHostGetDevicePointer(&dp, p, 0)) && dp == p;
		if (e == cudaSuccess) {
			memset(p, 0xab, 4096);	// host-writable
			cudaFreeHost(p);
		}
	}
	clear_error();
	TAP(flags_ok, "cudaHostAlloc flags 0-7: flags reported with "
	       "Mapped, device pointer == host pointer (golden)");
	TAP(bad_ok, "cudaHostAlloc flags 8-15: cudaErrorInvalidValue "
	       "(golden)");
	TAP(OK(cudaHostAlloc(&p, 0, 0)) && p == NULL &&
	       IS(cudaErrorInvalidValue, cudaHostAlloc(NULL, 4096, 0)),
	       "cudaHostAlloc size 0 gives NULL, NULL result pointer refused "
	       "(golden)");
	clear_error();

	void *m = malloc(100), *pinned = NULL;

	TAP(OK(cudaFreeHost(NULL)) &&
	       IS(cudaErrorInvalidValue, cudaFreeHost(&stack_var)) &&
	       IS(cudaErrorInvalidValue, cudaFreeHost(m)),
	       "cudaFreeHost of NULL succeeds, of stack or malloc memory "
	       "cudaErrorInvalidValue (golden)");
	clear_error();
	TAP(OK(cudaMallocHost(&pinned, 8192)) &&
	       IS(cudaErrorInvalidValue, cudaFreeHost((char *)pinned + 16)) &&
	       OK(cudaFreeHost(pinned)) &&
	       IS(cudaErrorInvalidValue, cudaFreeHost(pinned)),
	       "cudaFreeHost of an interior pointer or twice: "
	       "cudaErrorInvalidValue (golden)");
	clear_error();

	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *buf = (char *)aligned_alloc(page, 4 * page);

	TAP(OK(cudaHostRegister(buf, 2 * page, cudaHostRegisterMapped)) &&
	       OK(cudaHostGetFlags(&got, buf)) && got == cudaHostAllocMapped &&
	       IS(cudaErrorHostMemoryAlreadyRegistered,
		  cudaHostRegister(buf, 2 * page, 0)) &&
	       IS(cudaErrorHostMemoryAlreadyRegistered,
		  cudaHostRegister(buf + page, 2 * page, 0)) &&
	       IS(cudaErrorInvalidValue, cudaHostUnregister(buf + page)) &&
	       OK(cudaHostUnregister(buf)) &&
	       IS(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(buf)),
	       "cudaHostRegister: registered twice, overlapping, unregistered "
	       "from the middle and twice (golden)");
	clear_error();
	TAP(IS(cudaErrorInvalidValue, cudaHostRegister(NULL, page, 0)) &&
	       IS(cudaErrorInvalidValue, cudaHostRegister(buf, 0, 0)) &&
	       IS(cudaErrorInvalidValue, cudaHostRegister(buf, page, 4)) &&
	       IS(cudaErrorInvalidValue, cudaHostUnregister(NULL)),
	       "cudaHostRegister bad arguments: cudaErrorInvalidValue "
	       "(golden)");
	clear_error();

	struct cudaPointerAttributes a;
	int *d = NULL;

	cudaMalloc(&d, 4096);
	cudaMallocHost(&pinned, 4096);
	TAP(OK(cudaPointerGetAttributes(&a, d)) &&
	       a.type == cudaMemoryTypeDevice && a.device == 0 &&
	       a.devicePointer == d && a.hostPointer == NULL,
	       "pointer attributes of device memory (golden)");
	TAP(OK(cudaPointerGetAttributes(&a, (char *)pinned + 8)) &&
	       a.type == cudaMemoryTypeHost && a.device == 0 &&
	       a.devicePointer == (char *)pinned + 8 &&
	       a.hostPointer == (char *)pinned + 8,
	       "pointer attributes of pinned memory (golden)");
	TAP(OK(cudaPointerGetAttributes(&a, m)) &&
	       a.type == cudaMemoryTypeUnregistered && a.device == -2 &&
	       a.devicePointer == NULL && a.hostPointer == m &&
	       OK(cudaPointerGetAttributes(&a, &stack_var)) &&
	       a.type == cudaMemoryTypeUnregistered,
	       "pointer attributes of malloc and stack memory (golden)");
	memset(pinned, 0xff, 32);
	TAP(OK(cudaMemset(pinned, 0, 16)) && OK(cudaDeviceSynchronize()) &&
	    ((unsigned char *)pinned)[0] == 0 &&
	    ((unsigned char *)pinned)[15] == 0 &&
	    ((unsigned char *)pinned)[16] != 0,
	    "cudaMemset of pinned host memory (golden)");
	TAP(IS(cudaErrorInvalidValue, cudaPointerGetAttributes(NULL, d)),
	       "cudaPointerGetAttributes(NULL): cudaErrorInvalidValue "
	       "(golden)");
	clear_error();
	cudaFree(d);
	cudaFreeHost(pinned);
	free(buf);
	free(m);
}

static void test_symbols(void)
{
	int *out = NULL, v = 0, want[5] = { 1, 2, 3, 4, 42 };
	size_t size = 0;
	void *addr = NULL;
	float table[8];

	cudaMalloc(&out, 5 * sizeof(int));
	read_symbols<<<1, 5>>>(out);
	TAP(OK(cudaGetLastError()) && device_ints_equal(out, want, 5),
	       "__constant__ and __device__ variables start with their "
	       "initializers");
	TAP(OK(cudaMemcpyFromSymbol(&v, dev_var, sizeof(v))) && v == 42,
	       "cudaMemcpyFromSymbol reads the initializer");
	v = 7;
	want[4] = 7;
	want[0] = 9;
	TAP(OK(cudaMemcpyToSymbol(dev_var, &v, sizeof(v))) &&
	       OK(cudaMemcpyToSymbol(init_const, &want[0], sizeof(int))) &&
	       (read_symbols<<<1, 5>>>(out), OK(cudaGetLastError())) &&
	       device_ints_equal(out, want, 5),
	       "cudaMemcpyToSymbol is seen by the next launch");
	TAP(OK(cudaGetSymbolSize(&size, init_const)) && size == 16 &&
	       OK(cudaGetSymbolAddress(&addr, dev_table)) && addr != NULL,
	       "cudaGetSymbolSize %zu, cudaGetSymbolAddress", size);
	for (int i = 0; i < 8; i++)
		table[i] = (float)i / 2;
	TAP(OK(cudaMemcpyToSymbolAsync(dev_table, table + 2,
					  2 * sizeof(float), 2 * sizeof(float),
					  cudaMemcpyHostToDevice, 0)) &&
	       OK(cudaMemcpyFromSymbolAsync(table, dev_table, 2 * sizeof(float),
					    2 * sizeof(float),
					    cudaMemcpyDeviceToHost, 0)) &&
	       OK(cudaStreamSynchronize(0)) && table[0] == 1.0f &&
	       table[1] == 1.5f, "symbol copies with an offset, async");
	TAP(IS(cudaErrorInvalidSymbol, cudaGetSymbolAddress(&addr, &v)),
	       "cudaGetSymbolAddress of a non-symbol: cudaErrorInvalidSymbol "
	       "(golden)");
	TAP(IS(cudaErrorInvalidValue,
		  cudaMemcpyToSymbol(init_const, table, 8, 12)),
	       "symbol copy past its end: cudaErrorInvalidValue");
	TAP(IS(cudaErrorInvalidMemcpyDirection,
		  cudaMemcpyToSymbol(dev_var, &v, sizeof(v), 0,
				     cudaMemcpyDeviceToHost)),
	       "cudaMemcpyToSymbol with DeviceToHost: "
	       "cudaErrorInvalidMemcpyDirection");
	clear_error();
	cudaFree(out);
}

static void test_launches(void)
{
	int *d = NULL, *d2 = NULL, want[64], n = 64, value = 100;
	struct cudaFuncAttributes fa;
	int blocks = 0;

	cudaMalloc(&d, 64 * sizeof(int));
	cudaMalloc(&d2, 64 * sizeof(int));
	for (int i = 0; i < 64; i++)
		want[i] = 100 + i;
	fill<<<2, 32>>>(d, 100, 64);
	TAP(OK(cudaGetLastError()) && device_ints_equal(d, want, 64),
	       "<<<>>> launch");

	void *args[] = { &d2, &value, &n };

	TAP(OK(cudaLaunchKernel((const void *)fill, dim3(4), dim3(16), args,
				   0, 0)) && device_ints_equal(d2, want, 64),
	       "cudaLaunchKernel by host stub address");

	// The second launch is in the first one's arguments: it is pushed,
	// launched and popped while the first configuration waits.
	cudaMemset(d2, 0, 64 * sizeof(int));
	add_one<<<1, 64>>>(d2, (fill<<<1, 64>>>(d2, 10, 64), 64));
	for (int i = 0; i < 64; i++)
		want[i] = 11 + i;
	TAP(OK(cudaGetLastError()) && device_ints_equal(d2, want, 64),
	       "a launch inside another launch's arguments");

	for (int i = 0; i < 32; i++)
		want[i] = (31 - i) * 2;
	with_dynamic_smem<<<1, 32, 32 * sizeof(int)>>>(d);
	TAP(OK(cudaGetLastError()) && device_ints_equal(d, want, 32),
	       "dynamic shared memory");

	// golden: every bad configuration is cudaErrorInvalidValue, reported
	// by cudaGetLastError.
	struct { const char *what; dim3 grid, block; size_t smem; } bad[] = {
		{ "block 1025", dim3(1), dim3(1025), 0 },
		{ "block 0", dim3(1), dim3(0), 0 },
		{ "grid 0", dim3(0), dim3(1), 0 },
		{ "block z 65", dim3(1), dim3(1, 1, 65), 0 },
		{ "grid y 65536", dim3(1, 65536), dim3(1), 0 },
		{ "300 KiB dynamic shared memory", dim3(1), dim3(32),
		  300 << 10 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		clear_error();
		with_dynamic_smem<<<bad[i].grid, bad[i].block, bad[i].smem>>>(d);
		cudaError_t e = cudaGetLastError();

		TAP(e == cudaErrorInvalidValue,
		       "launch with %s: %s (golden cudaErrorInvalidValue)",
		       bad[i].what, cudaGetErrorName(e));
	}
	TAP(OK(cudaGetLastError()), "cudaGetLastError cleared the error");
	TAP(OK(cudaFuncGetAttributes(&fa, (const void *)fill)) &&
	       fa.maxThreadsPerBlock >= 64 && fa.numRegs >= 0,
	       "cudaFuncGetAttributes: maxThreadsPerBlock %d, %d registers, "
	       "PTX %d", fa.maxThreadsPerBlock, fa.numRegs, fa.ptxVersion);
	TAP(IS(cudaErrorInvalidResourceHandle,
		  cudaFuncGetAttributes(&fa, (const void *)not_a_kernel)),
	       "cudaFuncGetAttributes of a host function: "
	       "cudaErrorInvalidResourceHandle (golden)");
	clear_error();
	TAP(OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill,
								256, 0)) &&
	       blocks >= 1, "occupancy: %d blocks of 256 threads per SM",
	       blocks);
	TAP(OK(cudaFuncSetAttribute((const void *)with_dynamic_smem,
				       cudaFuncAttributeMaxDynamicSharedMemorySize,
				       16 << 10)),
	       "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
	clear_error();
	cudaFree(d);
	cudaFree(d2);
}

static void CUDART_CB host_fn(void *arg)
{
	*(int *)arg += 1;
}

static void CUDART_CB stream_cb(cudaStream_t s, cudaError_t status, void *arg)
{
	(void)s;
	*(int *)arg = status == cudaSuccess ? 10 : -1;
}

static void test_streams_events(void)
{
	cudaStream_t s1 = NULL, s2 = NULL, sp = NULL;
	cudaEvent_t e1 = NULL, e2 = NULL, never = NULL, untimed = NULL;
	unsigned int sflags = 0;
	int *d = NULL, want[64], prio = 1, called = 0, cb = 0;
	float ms = -1.0f;

	cudaMalloc(&d, 64 * sizeof(int));
	TAP(OK(cudaStreamCreate(&s1)) &&
	       OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking)) &&
	       OK(cudaStreamGetFlags(s2, &sflags)) &&
	       sflags == cudaStreamNonBlocking,
	       "cudaStreamCreate, with flags");
	int least, greatest;

	cudaDeviceGetStreamPriorityRange(&least, &greatest);
	TAP(OK(cudaStreamCreateWithPriority(&sp, 0, greatest)) &&
	       OK(cudaStreamGetPriority(sp, &prio)) && prio == greatest,
	       "cudaStreamCreateWithPriority(%d)", greatest);
	TAP(OK(cudaStreamQuery(0)), "cudaStreamQuery(0) (golden)");
	TAP(OK(cudaEventCreate(&e1)) && OK(cudaEventCreate(&e2)) &&
	       OK(cudaEventCreate(&never)) &&
	       OK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming)),
	       "cudaEventCreate, with flags");

	// s1 fills, s2 waits for s1's event and adds one: the order holds
	// even though s2 does not synchronize with s1 otherwise.
	fill<<<1, 64, 0, s1>>>(d, 5, 64);
	cudaEventRecord(e1, s1);
	cudaStreamWaitEvent(s2, e1, 0);
	add_one<<<1, 64, 0, s2>>>(d, 64);
	cudaEventRecord(e2, s2);
	TAP(OK(cudaEventSynchronize(e2)) && OK(cudaEventQuery(e2)) &&
	       OK(cudaStreamQuery(s2)), "events and streams complete");
	for (int i = 0; i < 64; i++)
		want[i] = 6 + i;
	TAP(device_ints_equal(d, want, 64),
	       "cudaStreamWaitEvent orders work across streams");
	TAP(OK(cudaEventElapsedTime(&ms, e1, e2)) && ms >= 0.0f,
	       "cudaEventElapsedTime %.3f ms", ms);
	TAP(IS(cudaErrorInvalidResourceHandle,
		  cudaEventElapsedTime(&ms, never, e2)) &&
	       OK(cudaEventQuery(never)) && OK(cudaEventSynchronize(never)),
	       "an event never recorded: query and synchronize succeed, "
	       "elapsed time cudaErrorInvalidResourceHandle (golden)");
	cudaEventRecord(untimed, 0);
	cudaEventSynchronize(untimed);
	TAP(IS(cudaErrorInvalidResourceHandle,
		  cudaEventElapsedTime(&ms, e1, untimed)),
	       "elapsed time with a DisableTiming event: "
	       "cudaErrorInvalidResourceHandle (golden)");
	clear_error();
	fill<<<1, 64, 0, s1>>>(d, 0, 64);
	TAP(OK(cudaLaunchHostFunc(s1, host_fn, &called)) &&
	       OK(cudaStreamAddCallback(s1, stream_cb, &cb, 0)) &&
	       OK(cudaStreamSynchronize(s1)) && called == 1 && cb == 10,
	       "cudaLaunchHostFunc and cudaStreamAddCallback run in order");
	TAP(OK(cudaEventDestroy(never)) &&
	       IS(cudaErrorContextIsDestroyed, cudaEventDestroy(never)),
	       "cudaEventDestroy twice: cudaErrorContextIsDestroyed (golden)");
	clear_error();
	TAP(OK(cudaEventDestroy(e1)) && OK(cudaEventDestroy(e2)) &&
	       OK(cudaEventDestroy(untimed)) && OK(cudaStreamDestroy(s1)) &&
	       OK(cudaStreamDestroy(s2)) && OK(cudaStreamDestroy(sp)),
	       "cudaEventDestroy, cudaStreamDestroy");
	clear_error();
	cudaFree(d);
}

// The less common entry points: each round-trips through the driver.
static void test_more_entry_points(void)
{
	char bus[32] = "";
	int dev = -1, can = -1, *d = NULL, want[4] = { 1, 2, 3, 4 };
	const char *name = NULL;
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult status;
	unsigned long long id1 = 0, id2 = 0;
	cudaStream_t s1, s2;
	struct cudaDeviceProp prop;

	TAP(OK(cudaDeviceGetPCIBusId(bus, sizeof(bus), 0)) &&
	    OK(cudaDeviceGetByPCIBusId(&dev, bus)) && dev == 0,
	    "PCI bus id %s maps back to device %d", bus, dev);
	memset(&prop, 0, sizeof(prop));
	prop.major = 99;
	TAP(OK(cudaChooseDevice(&dev, &prop)) && dev == 0,
	    "cudaChooseDevice");
	TAP(OK(cudaDeviceCanAccessPeer(&can, 0, 0)) &&
	    IS(cudaErrorInvalidDevice, cudaDeviceCanAccessPeer(&can, 0, 99)),
	    "cudaDeviceCanAccessPeer (%d), bad peer cudaErrorInvalidDevice",
	    can);
	clear_error();
	TAP(OK(cudaFuncGetName(&name, (const void *)fill)) && name &&
	    strstr(name, "fill"), "cudaFuncGetName: %s", name ? name : "-");
	TAP(OK(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 13000,
						cudaEnableDefault, &status)) &&
	    fn &&
	    status == cudaDriverEntryPointSuccess,
	    "cudaGetDriverEntryPointByVersion(cuMemAlloc)");
	cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000,
					 cudaEnableDefault, &status);
	TAP(status == cudaDriverEntryPointSymbolNotFound,
	    "cudaGetDriverEntryPoint of an unknown name: not found");
	clear_error();
	cudaStreamCreate(&s1);
	cudaStreamCreate(&s2);
	TAP(OK(cudaStreamGetId(s1, &id1)) && OK(cudaStreamGetId(s2, &id2)) &&
	    id1 != id2, "cudaStreamGetId: %llu, %llu", id1, id2);
	TAP(OK(cudaMallocAsync((void **)&d, sizeof(want), s1)) &&
	    OK(cudaMemcpyAsync(d, want, sizeof(want), cudaMemcpyHostToDevice,
			       s1)) &&
	    OK(cudaStreamSynchronize(s1)) && device_ints_equal(d, want, 4) &&
	    OK(cudaFreeAsync(d, s1)) && OK(cudaStreamSynchronize(s1)),
	    "cudaMallocAsync and cudaFreeAsync");
	clear_error();
	cudaStreamDestroy(s1);
	cudaStreamDestroy(s2);
}

// Device printf reaches stdout when the host synchronizes.
static void test_printf(void)
{
	char text[1024];
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t len = 0;
	bool all = true;

	if (!tmp || saved < 0) {
		TAP(false, "device printf (no temporary file)");
		return;
	}
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	say<<<1, 4>>>(77);
	cudaError_t e = cudaDeviceSynchronize();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	len = fread(text, 1, sizeof(text) - 1, tmp);
	text[len] = '\0';
	fclose(tmp);
	for (int t = 0; t < 4; t++) {
		char line[64];

		snprintf(line, sizeof(line), "thread %d says 77\n", t);
		all &= strstr(text, line) != NULL;
	}
	TAP(e == cudaSuccess && all,
	       "device printf is flushed by cudaDeviceSynchronize");
}

// golden: after an illegal address, synchronizing and allocating calls
// return cudaErrorIllegalAddress; cudaGetLastError reports it once;
// cudaDeviceReset succeeds but the device stays unusable: the next
// cudaMalloc is cudaErrorDevicesUnavailable.
static void test_sticky_fault(void)
{
	void *p = NULL;

	clear_error();
	write_through<<<1, 1>>>((int *)0x10);
	TAP(OK(cudaGetLastError()), "faulting launch itself succeeds "
	       "(golden)");
	TAP(IS(cudaErrorIllegalAddress, cudaDeviceSynchronize()),
	       "cudaDeviceSynchronize: cudaErrorIllegalAddress (golden)");
	TAP(IS(cudaErrorIllegalAddress, cudaGetLastError()) &&
	       OK(cudaGetLastError()),
	       "cudaGetLastError reports the fault once");
	TAP(IS(cudaErrorIllegalAddress, cudaMalloc(&p, 16)) &&
	       IS(cudaErrorIllegalAddress, cudaHostAlloc(&p, 16, 0)) &&
	       IS(cudaErrorIllegalAddress, cudaDeviceSynchronize()),
	       "the error is sticky: cudaMalloc, cudaHostAlloc, "
	       "cudaDeviceSynchronize (golden)");
	TAP(OK(cudaDeviceReset()), "cudaDeviceReset (golden)");
	clear_error();
	TAP(IS(cudaErrorDevicesUnavailable, cudaMalloc(&p, 16)),
	    "after cudaDeviceReset: cudaMalloc is "
	    "cudaErrorDevicesUnavailable (golden)");
}

// --- managed memory -----------------------------------------------------------

__managed__ int managed_counter = 5;
__managed__ int managed_table[4] = { 1, 2, 3, 4 };

__global__ void managed_bump(int *data, int n)
{
	int i = threadIdx.x;

	if (i < n)
		data[i] = data[i] * 2 + managed_table[i % 4];
	if (i == 0)
		atomicAdd(&managed_counter, 10);
}

// Host writes, the kernel reads and writes, the host reads after the
// synchronization, through the same pointers, with no copy.
static void test_managed(void)
{
	cudaPointerAttributes attr;
	int *data = NULL, n = 64, ok = 1;

	clear_error();
	TAP(managed_counter == 5 && managed_table[3] == 4,
	    "__managed__ variables hold their initializers on the host");
	managed_counter = 100;
	managed_table[0] = 50;
	TAP(OK(cudaMallocManaged((void **)&data, n * sizeof(int))) && data,
	    "cudaMallocManaged");
	if (!data)
		return;
	for (int i = 0; i < n; i++)
		data[i] = i;
	managed_bump<<<1, n>>>(data, n);
	TAP(OK(cudaDeviceSynchronize()), "kernel on managed memory");
	for (int i = 0; i < n; i++)
		ok &= data[i] == i * 2 + (i % 4 ? i % 4 + 1 : 50);
	TAP(ok, "the host reads what the kernel wrote (and it read the "
	    "host's writes)");
	TAP(managed_counter == 110, "the kernel's atomicAdd on a __managed__ "
	    "variable is seen by the host: %d", managed_counter);
	TAP(OK(cudaPointerGetAttributes(&attr, data)) &&
	    attr.type == cudaMemoryTypeManaged &&
	    attr.devicePointer == data && attr.hostPointer == data,
	    "cudaPointerGetAttributes: managed, one address");
	TAP(OK(cudaMemset(data, 0, n * sizeof(int))) &&
	    OK(cudaDeviceSynchronize()) && data[n - 1] == 0,
	    "cudaMemset on managed memory");
	TAP(OK(cudaFree(data)), "cudaFree of managed memory");
	TAP(IS(cudaErrorInvalidValue,
	       cudaMallocManaged((void **)&data, 16, 0)),
	    "cudaMallocManaged without an attach flag: cudaErrorInvalidValue");
	// Success measured on an H100 (against the documentation's
	// "refused"); the pointer was not recorded: NULL, as cudaMalloc(0).
	data = (int *)&data;
	TAP(OK(cudaMallocManaged((void **)&data, 0, cudaMemAttachGlobal)) &&
	    data == NULL, "cudaMallocManaged of 0 bytes: cudaSuccess, NULL");
	// Not measured: the flags are checked before the size, as above.
	TAP(IS(cudaErrorInvalidValue, cudaMallocManaged((void **)&data, 0, 0)),
	    "cudaMallocManaged of 0 bytes without an attach flag: "
	    "cudaErrorInvalidValue");
	clear_error();
}

__global__ void trap_if(int v)
{
	if (v)
		__trap();
}

__global__ void assert_zero(int v)
{
	assert(v == 0);
}

// As NVIDIA's runtime (not measured here): __trap() ends the grid with
// cudaErrorLaunchFailure, a failed assert() with cudaErrorAssert; both
// are sticky.  Each runs in a process of its own.
static void test_trap(void)
{
	clear_error();
	trap_if<<<1, 1>>>(1);
	TAP(OK(cudaGetLastError()) &&
	       IS(cudaErrorLaunchFailure, cudaDeviceSynchronize()) &&
	       IS(cudaErrorLaunchFailure, cudaDeviceSynchronize()),
	       "__trap(): cudaErrorLaunchFailure, sticky");
}

static void test_assert(void)
{
	void *p = NULL;

	clear_error();
	assert_zero<<<1, 1>>>(0);
	TAP(OK(cudaDeviceSynchronize()), "assert(true) passes");
	assert_zero<<<2, 3>>>(7);
	TAP(IS(cudaErrorAssert, cudaDeviceSynchronize()) &&
	       IS(cudaErrorAssert, cudaGetLastError()) &&
	       IS(cudaErrorAssert, cudaMalloc(&p, 16)),
	       "failed assert(): cudaErrorAssert, sticky");
}

// A context the program creates with the driver API and makes current is
// the one runtime calls act on (NVIDIA's runtime documents this): streams,
// allocations and <<<>>> launches of registered kernels all land in it.
// The driver functions come through the runtime (cudaGetDriverEntryPoint),
// so that the test needs no libcuda of its own.
static cudaError_t driver_fn(const char *name, void **fn)
{
	cudaDriverEntryPointQueryResult q;

	return cudaGetDriverEntryPointByVersion(name, fn, 13000,
						cudaEnableDefault, &q);
}

static void test_driver_context(void)
{
	CUresult (*ctx_create)(CUcontext *, CUctxCreateParams *, unsigned int,
			       CUdevice) = NULL;
	CUresult (*ctx_destroy)(CUcontext) = NULL;
	CUresult (*ctx_get_current)(CUcontext *) = NULL;
	CUresult (*ctx_get_id)(CUcontext, unsigned long long *) = NULL;
	unsigned long long mine_id = 0, id = 0;
	CUresult (*stream_get_ctx)(CUstream, CUcontext *) = NULL;
	CUresult (*pointer_attr)(void *, CUpointer_attribute,
				 CUdeviceptr) = NULL;
	CUcontext mine = NULL, cur = NULL, sctx = NULL, pctx = NULL;
	cudaStream_t s = NULL;
	int *d = NULL, host[256], n = 256, dev = -1, ok = 1;
	void *p = NULL;

	clear_error();
	if (!TAP(OK(driver_fn("cuCtxCreate", (void **)&ctx_create)) &&
		 OK(driver_fn("cuCtxDestroy", (void **)&ctx_destroy)) &&
		 OK(driver_fn("cuCtxGetCurrent", (void **)&ctx_get_current)) &&
		 OK(driver_fn("cuStreamGetCtx", (void **)&stream_get_ctx)) &&
		 OK(driver_fn("cuCtxGetId", (void **)&ctx_get_id)) &&
		 OK(driver_fn("cuPointerGetAttribute", (void **)&pointer_attr)),
		 "driver entry points for the context test"))
		return;
	TAP(ctx_create(&mine, NULL, 0, 0) == CUDA_SUCCESS && mine,
	    "cuCtxCreate: the program's own context, made current");
	TAP(OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) &&
	    stream_get_ctx((CUstream)s, &sctx) == CUDA_SUCCESS && sctx == mine,
	    "cudaStreamCreate makes the stream in that context");
	TAP(OK(cudaMalloc((void **)&d, n * sizeof(int))) &&
	    pointer_attr(&pctx, CU_POINTER_ATTRIBUTE_CONTEXT,
			 (CUdeviceptr)d) == CUDA_SUCCESS && pctx == mine,
	    "cudaMalloc allocates in that context");
	fill<<<(n + 63) / 64, 64, 0, s>>>(d, 5, n);
	add_one<<<(n + 63) / 64, 64, 0, s>>>(d, n);
	TAP(OK(cudaGetLastError()) &&
	    OK(cudaMemcpyAsync(host, d, n * sizeof(int),
			       cudaMemcpyDeviceToHost, s)) &&
	    OK(cudaStreamSynchronize(s)),
	    "<<<>>> launches and a copy on the runtime stream");
	for (int i = 0; i < n; i++)
		ok &= host[i] == 5 + i + 1;
	TAP(ok, "registered kernels ran in the program's context");
	TAP(ctx_get_current(&cur) == CUDA_SUCCESS && cur == mine &&
	    OK(cudaGetDevice(&dev)) && dev == 0,
	    "the program's context stays current; cudaGetDevice is its device");
	TAP(OK(cudaStreamDestroy(s)) && OK(cudaFree(d)) &&
	    OK(cudaDeviceSynchronize()), "cleanup in that context");
	// By id: a new context may reuse the address of a destroyed one.
	TAP(ctx_get_id(mine, &mine_id) == CUDA_SUCCESS &&
	    ctx_destroy(mine) == CUDA_SUCCESS, "cuCtxDestroy");
	TAP(OK(cudaMalloc(&p, 16)) &&
	    pointer_attr(&pctx, CU_POINTER_ATTRIBUTE_CONTEXT,
			 (CUdeviceptr)p) == CUDA_SUCCESS &&
	    ctx_get_id(pctx, &id) == CUDA_SUCCESS && id != mine_id &&
	    OK(cudaFree(p)),
	    "once it is destroyed the runtime is back on the primary context");
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %s", strerror((int)-fw));
	rt_test_in_child("illegal address", test_sticky_fault);
	rt_test_in_child("__trap()", test_trap);
	rt_test_in_child("assert()", test_assert);
	rt_test_in_child("driver API context", test_driver_context);
	test_library();
	test_devices();
	test_memory();
	test_host_memory();
	test_symbols();
	test_launches();
	test_streams_events();
	test_more_entry_points();
	test_printf();
	test_managed();
	fw_launcher_stop(fw);
	return tap_finish();
}
