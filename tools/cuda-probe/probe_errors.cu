// SPDX-License-Identifier: GPL-2.0
//
// probe_errors: record what real CUDA returns for the calls the vGPU
// libraries must imitate - error codes of bad calls, flags reported back,
// pointer attributes.  Run on a machine with an NVIDIA GPU; its output is
// kept in golden/ and the UMD's API tests assert the same results.
//
// Build: nvcc -cudart shared -o probe_errors probe_errors.cu -lcuda
// Each line: "<name> <result>" where result is an error name (and values).
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void rt(const char *what, cudaError_t e)
{
	printf("%s %s\n", what, cudaGetErrorName(e));
	cudaGetLastError();
}

static void drv(const char *what, CUresult r)
{
	const char *n = "?";
	cuGetErrorName(r, &n);
	printf("%s %s\n", what, n);
}

__global__ void k_nop(int *p) { if (p) *p = 1; }
__global__ void k_bad(int *p) { *p = 1; }
__global__ void k_big_smem(int *p)
{
	extern __shared__ int s[];
	s[threadIdx.x] = 1;
	if (p) *p = s[0];
}

static void host_alloc_flags(void)
{
	for (unsigned f = 0; f < 16; f++) {
		void *p = NULL;
		char name[64];
		cudaError_t e = cudaHostAlloc(&p, 4096, f);
		snprintf(name, sizeof name, "cudaHostAlloc(flags=%u)", f);
		if (e == cudaSuccess) {
			unsigned got = 0;
			cudaError_t e2 = cudaHostGetFlags(&got, p);
			printf("%s %s getflags=%s:%u\n", name, cudaGetErrorName(e),
			       cudaGetErrorName(e2), got);
			void *d = NULL;
			e2 = cudaHostGetDevicePointer(&d, p, 0);
			printf("%s devptr %s same=%d\n", name,
			       cudaGetErrorName(e2), d == p);
			cudaFreeHost(p);
		} else {
			rt(name, e);
		}
	}
	void *p = NULL;
	rt("cudaHostAlloc(flags=0x80000000)", cudaHostAlloc(&p, 4096, 0x80000000u));
	rt("cudaHostAlloc(size=0)", cudaHostAlloc(&p, 0, 0));
	printf("cudaHostAlloc(size=0) ptr_null=%d\n", p == NULL);
	rt("cudaHostAlloc(NULL ptr)", cudaHostAlloc(NULL, 4096, 0));
	rt("cudaMallocHost(size=0)", cudaMallocHost(&p, 0));
	rt("cudaFreeHost(NULL)", cudaFreeHost(NULL));
	int stackv;
	rt("cudaFreeHost(stack)", cudaFreeHost(&stackv));
	void *m = malloc(100);
	rt("cudaFreeHost(malloc)", cudaFreeHost(m));
	void *dp;
	cudaMalloc(&dp, 4096);
	rt("cudaFreeHost(devptr)", cudaFreeHost(dp));
	cudaMallocHost(&p, 8192);
	rt("cudaFreeHost(pinned+16)", cudaFreeHost((char *)p + 16));
	rt("cudaFree(pinned)", cudaFree(p));
	rt("cudaFreeHost(pinned)", cudaFreeHost(p));
	rt("cudaFreeHost(pinned again)", cudaFreeHost(p));
	unsigned fl;
	rt("cudaHostGetFlags(malloc)", cudaHostGetFlags(&fl, m));
	rt("cudaHostGetFlags(devptr)", cudaHostGetFlags(&fl, dp));
	free(m);
	cudaFree(dp);
}

static void host_register(void)
{
	size_t sz = 1 << 20;
	char *m = (char *)aligned_alloc(4096, sz);
	memset(m, 0, sz);
	unsigned fl = 0;
	for (unsigned f = 0; f < 16; f++) {
		char name[64];
		snprintf(name, sizeof name, "cudaHostRegister(flags=%u)", f);
		cudaError_t e = cudaHostRegister(m, sz, f);
		if (e == cudaSuccess) {
			cudaError_t e2 = cudaHostGetFlags(&fl, m);
			void *d = NULL;
			cudaError_t e3 = cudaHostGetDevicePointer(&d, m + 100, 0);
			printf("%s %s getflags=%s:%u devptr=%s:%d\n", name,
			       cudaGetErrorName(e), cudaGetErrorName(e2), fl,
			       cudaGetErrorName(e3), d == m + 100);
			rt("  cudaHostUnregister", cudaHostUnregister(m));
		} else {
			rt(name, e);
		}
	}
	rt("cudaHostRegister(flags=0x80000000)", cudaHostRegister(m, sz, 0x80000000u));
	rt("cudaHostRegister(first)", cudaHostRegister(m, sz, 0));
	rt("cudaHostRegister(twice)", cudaHostRegister(m, sz, 0));
	rt("cudaHostRegister(overlap)", cudaHostRegister(m + 4096, 8192, 0));
	rt("cudaHostUnregister(mid)", cudaHostUnregister(m + 4096));
	rt("cudaHostGetFlags(mid of registered)", cudaHostGetFlags(&fl, m + 4096));
	printf("  flags %u\n", fl);
	rt("cudaHostUnregister(ok)", cudaHostUnregister(m));
	rt("cudaHostUnregister(again)", cudaHostUnregister(m));
	rt("cudaHostUnregister(NULL)", cudaHostUnregister(NULL));
	rt("cudaHostRegister(NULL)", cudaHostRegister(NULL, 4096, 0));
	rt("cudaHostRegister(size=0)", cudaHostRegister(m, 0, 0));
	rt("cudaHostRegister(unaligned)", cudaHostRegister(m + 100, 5000, 0));
	rt("cudaHostUnregister(unaligned)", cudaHostUnregister(m + 100));
	void *d = NULL;
	rt("cudaHostGetDevicePointer(not registered)", cudaHostGetDevicePointer(&d, m, 0));
	rt("cudaHostGetDevicePointer(flags=1)", cudaHostGetDevicePointer(&d, m, 1));
	void *ro = mmap(NULL, sz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rt("cudaHostRegister(PROT_READ, Default)", cudaHostRegister(ro, sz, 0));
	cudaHostUnregister(ro);
	rt("cudaHostRegister(PROT_READ, ReadOnly)", cudaHostRegister(ro, sz, cudaHostRegisterReadOnly));
	cudaHostUnregister(ro);
	munmap(ro, sz);
	void *none = mmap(NULL, sz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rt("cudaHostRegister(PROT_NONE)", cudaHostRegister(none, sz, 0));
	munmap(none, sz);
	rt("cudaHostRegister(unmapped)", cudaHostRegister((void *)0x1000, 4096, 0));
	void *dp;
	cudaMalloc(&dp, 4096);
	rt("cudaHostRegister(devptr)", cudaHostRegister(dp, 4096, 0));
	cudaFree(dp);
	char *hp;
	cudaHostAlloc((void **)&hp, 8192, 0);
	rt("cudaHostRegister(pinned)", cudaHostRegister(hp, 8192, 0));
	cudaFreeHost(hp);
	free(m);
}

static void ptr_attr(const char *what, const void *p)
{
	cudaPointerAttributes a;
	memset(&a, 0x5a, sizeof a);
	cudaError_t e = cudaPointerGetAttributes(&a, p);
	printf("cudaPointerGetAttributes(%s) %s type=%d device=%d dev_same=%d host_same=%d devnull=%d hostnull=%d\n",
	       what, cudaGetErrorName(e), (int)a.type, a.device,
	       a.devicePointer == p, a.hostPointer == p,
	       a.devicePointer == NULL, a.hostPointer == NULL);
	cudaGetLastError();
}

static void pointer_attributes(void)
{
	void *dp, *hp, *mp;
	int stackv;
	cudaMalloc(&dp, 4096);
	cudaHostAlloc(&hp, 4096, 0);
	cudaMallocManaged(&mp, 4096);
	char *reg = (char *)aligned_alloc(4096, 8192);
	cudaHostRegister(reg, 8192, 0);
	char *heap = (char *)malloc(64);
	ptr_attr("device", dp);
	ptr_attr("device+100", (char *)dp + 100);
	ptr_attr("device+4096(end)", (char *)dp + 4096);
	ptr_attr("pinned", hp);
	ptr_attr("pinned+8", (char *)hp + 8);
	ptr_attr("registered", reg);
	ptr_attr("registered+5000", reg + 5000);
	ptr_attr("managed", mp);
	ptr_attr("malloc", heap);
	ptr_attr("stack", &stackv);
	ptr_attr("NULL", NULL);
	cudaFree(dp);
	ptr_attr("freed device", dp);
	rt("cudaPointerGetAttributes(attr NULL)", cudaPointerGetAttributes(NULL, hp));

	CUdeviceptr cdp;
	cuMemAlloc(&cdp, 4096);
	unsigned mt = 0;
	drv("cuPointerGetAttribute(MEMORY_TYPE, device)",
	    cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, cdp));
	printf("  type %u\n", mt);
	mt = 0;
	drv("cuPointerGetAttribute(MEMORY_TYPE, pinned)",
	    cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)hp));
	printf("  type %u\n", mt);
	mt = 0;
	drv("cuPointerGetAttribute(MEMORY_TYPE, registered)",
	    cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)reg));
	printf("  type %u\n", mt);
	mt = 0;
	drv("cuPointerGetAttribute(MEMORY_TYPE, malloc)",
	    cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)heap));
	drv("cuPointerGetAttribute(bad attr)",
	    cuPointerGetAttribute(&mt, (CUpointer_attribute)999, cdp));
	void *hptr = NULL;
	drv("cuPointerGetAttribute(HOST_POINTER, device)",
	    cuPointerGetAttribute(&hptr, CU_POINTER_ATTRIBUTE_HOST_POINTER, cdp));
	drv("cuPointerGetAttribute(HOST_POINTER, pinned)",
	    cuPointerGetAttribute(&hptr, CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)hp));
	CUdeviceptr dptr = 0;
	drv("cuPointerGetAttribute(DEVICE_POINTER, pinned)",
	    cuPointerGetAttribute(&dptr, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)hp));
	printf("  same %d\n", dptr == (CUdeviceptr)hp);
	CUcontext ctx = NULL;
	drv("cuPointerGetAttribute(CONTEXT, malloc)",
	    cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)heap));
	int ordinal = -7;
	drv("cuPointerGetAttribute(DEVICE_ORDINAL, malloc)",
	    cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, (CUdeviceptr)heap));
	printf("  ordinal %d\n", ordinal);
	int mapped = -7;
	drv("cuPointerGetAttribute(MAPPED, device)",
	    cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, cdp));
	printf("  mapped %d\n", mapped);
	CUpointer_attribute as[3] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
				      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
				      CU_POINTER_ATTRIBUTE_IS_MANAGED };
	unsigned t = 77; int o = 77; int man = 77;
	void *vals[3] = { &t, &o, &man };
	drv("cuPointerGetAttributes(malloc)",
	    cuPointerGetAttributes(3, as, vals, (CUdeviceptr)heap));
	printf("  type %u ordinal %d managed %d\n", t, o, man);
	t = 77; o = 77; man = 77;
	drv("cuPointerGetAttributes(device)",
	    cuPointerGetAttributes(3, as, vals, cdp));
	printf("  type %u ordinal %d managed %d\n", t, o, man);
	unsigned fl = 0;
	drv("cuMemHostGetFlags(pinned)", cuMemHostGetFlags(&fl, hp));
	printf("  flags %u\n", fl);
	drv("cuMemHostGetFlags(malloc)", cuMemHostGetFlags(&fl, heap));
	drv("cuMemHostRegister(twice)", cuMemHostRegister(reg, 8192, 0));
	drv("cuMemHostUnregister(malloc)", cuMemHostUnregister(heap));
	void *p2 = NULL;
	drv("cuMemHostAlloc(flags=0x80)", cuMemHostAlloc(&p2, 4096, 0x80));
	drv("cuMemAllocHost(0)", cuMemAllocHost(&p2, 0));
	drv("cuMemFreeHost(malloc)", cuMemFreeHost(heap));
	cuMemFree(cdp);
	cudaHostUnregister(reg);
	cudaFreeHost(hp);
	cudaFree(mp);
	free(reg);
	free(heap);
}

static void memcpy_errors(void)
{
	void *d, *h;
	char buf[4096];
	cudaMalloc(&d, 4096);
	cudaMallocHost(&h, 4096);
	rt("cudaMemcpy(default, h2d)", cudaMemcpy(d, buf, 4096, cudaMemcpyDefault));
	rt("cudaMemcpy(default, d2h)", cudaMemcpy(buf, d, 4096, cudaMemcpyDefault));
	rt("cudaMemcpy(default, h2h)", cudaMemcpy(buf, h, 4096, cudaMemcpyDefault));
	rt("cudaMemcpy(H2D with dst=host)", cudaMemcpy(buf, h, 4096, cudaMemcpyHostToDevice));
	rt("cudaMemcpy(H2D with src=device)", cudaMemcpy(d, d, 4096, cudaMemcpyHostToDevice));
	rt("cudaMemcpy(D2H with src=host)", cudaMemcpy(buf, h, 4096, cudaMemcpyDeviceToHost));
	rt("cudaMemcpy(D2D with host ptrs)", cudaMemcpy(buf, h, 4096, cudaMemcpyDeviceToDevice));
	rt("cudaMemcpy(kind=17)", cudaMemcpy(d, buf, 16, (cudaMemcpyKind)17));
	rt("cudaMemcpy(size past end)", cudaMemcpy(d, buf, 8192, cudaMemcpyHostToDevice));
	rt("cudaMemcpy(wild device)", cudaMemcpy((void *)0x7000deadbeef, buf, 16, cudaMemcpyHostToDevice));
	rt("cudaMemcpy(size 0)", cudaMemcpy(d, buf, 0, cudaMemcpyHostToDevice));
	rt("cudaMemcpy(NULL src, size 0)", cudaMemcpy(d, NULL, 0, cudaMemcpyHostToDevice));
	rt("cudaMemcpy(NULL dst, size 16)", cudaMemcpy(NULL, buf, 16, cudaMemcpyHostToDevice));
	rt("cudaMemset(wild)", cudaMemset((void *)0x7000deadbeef, 0, 16));
	rt("cudaMemset(past end)", cudaMemset(d, 0, 8192));
	rt("cudaMemset(host ptr)", cudaMemset(buf, 0, 16));
	rt("cudaMemset(pinned ptr)", cudaMemset(h, 0, 16));
	rt("cudaMemcpyAsync(pageable, default stream)", cudaMemcpyAsync(d, buf, 4096, cudaMemcpyHostToDevice, 0));
	cudaFree(d);
	cudaFreeHost(h);
}

static void launch_errors(void)
{
	rt("launch(block=1025)", (k_nop<<<1, 1025>>>(NULL), cudaGetLastError()));
	rt("launch(block=0)", (k_nop<<<1, 0>>>(NULL), cudaGetLastError()));
	rt("launch(grid=0)", (k_nop<<<0, 1>>>(NULL), cudaGetLastError()));
	rt("launch(blockz=65)", (k_nop<<<1, dim3(1, 1, 65)>>>(NULL), cudaGetLastError()));
	rt("launch(gridy=65536)", (k_nop<<<dim3(1, 65536), 1>>>(NULL), cudaGetLastError()));
	rt("launch(gridx=2^31)", (k_nop<<<dim3(0x80000000u), 1>>>(NULL), cudaGetLastError()));
	rt("launch(smem=48K+1 dynamic)", (k_big_smem<<<1, 32, 48 * 1024 + 4>>>(NULL), cudaGetLastError()));
	rt("launch(smem=300K dynamic)", (k_big_smem<<<1, 32, 300 * 1024>>>(NULL), cudaGetLastError()));
	rt("launch(ok)", (k_nop<<<1, 1>>>(NULL), cudaGetLastError()));
	rt("cudaDeviceSynchronize(ok)", cudaDeviceSynchronize());
	cudaFuncAttributes fa;
	rt("cudaFuncGetAttributes(host fn)", cudaFuncGetAttributes(&fa, (const void *)&launch_errors));
	rt("cudaFuncGetAttributes(kernel)", cudaFuncGetAttributes(&fa, (const void *)&k_nop));
	printf("  maxThreadsPerBlock %d numRegs %d sharedSizeBytes %zu ptxVersion %d binaryVersion %d\n",
	       fa.maxThreadsPerBlock, fa.numRegs, fa.sharedSizeBytes, fa.ptxVersion, fa.binaryVersion);
	void *sa;
	rt("cudaGetSymbolAddress(not a symbol)", cudaGetSymbolAddress(&sa, (const void *)&fa));
	int n;
	rt("cudaOccupancyMaxActiveBlocksPerMultiprocessor(256)",
	   cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k_nop, 256, 0));
	printf("  blocks %d\n", n);
	cudaEvent_t e1, e2;
	cudaEventCreate(&e1);
	cudaEventCreate(&e2);
	float ms;
	rt("cudaEventElapsedTime(unrecorded)", cudaEventElapsedTime(&ms, e1, e2));
	rt("cudaEventQuery(unrecorded)", cudaEventQuery(e1));
	rt("cudaEventSynchronize(unrecorded)", cudaEventSynchronize(e1));
	cudaEventRecord(e1);
	rt("cudaEventElapsedTime(one recorded)", cudaEventElapsedTime(&ms, e1, e2));
	cudaEvent_t e3;
	cudaEventCreateWithFlags(&e3, cudaEventDisableTiming);
	cudaEventRecord(e3);
	cudaEventSynchronize(e3);
	rt("cudaEventElapsedTime(disable timing)", cudaEventElapsedTime(&ms, e1, e3));
	cudaEventDestroy(e3);
	rt("cudaEventDestroy(twice)", cudaEventDestroy(e3));
	int lo, hi;
	cudaDeviceGetStreamPriorityRange(&lo, &hi);
	printf("priority range %d %d\n", lo, hi);
	cudaDeviceProp p;
	rt("cudaGetDeviceProperties(99)", cudaGetDeviceProperties(&p, 99));
	rt("cudaSetDevice(99)", cudaSetDevice(99));
	rt("cudaSetDevice(-1)", cudaSetDevice(-1));
	int v;
	rt("cudaDeviceGetAttribute(attr 0)", cudaDeviceGetAttribute(&v, (cudaDeviceAttr)0, 0));
	rt("cudaDeviceGetAttribute(attr 9999)", cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0));
	void *big;
	rt("cudaMalloc(2^50)", cudaMalloc(&big, 1ull << 50));
	rt("cudaMalloc(NULL)", cudaMalloc(NULL, 16));
	rt("cudaSetDeviceFlags(MapHost, after init)", cudaSetDeviceFlags(cudaDeviceMapHost));
	unsigned df;
	cudaGetDeviceFlags(&df);
	printf("cudaGetDeviceFlags %u\n", df);
	rt("cudaSetDeviceFlags(0x100)", cudaSetDeviceFlags(0x100));
	int rv, dv;
	cudaRuntimeGetVersion(&rv);
	cudaDriverGetVersion(&dv);
	printf("versions runtime %d driver %d\n", rv, dv);
	rt("cudaStreamQuery(0)", cudaStreamQuery(0));
	cudaStream_t s;
	cudaStreamCreate(&s);
	cudaStreamDestroy(s);
}

static void sticky_fault(void)
{
	k_bad<<<1, 1>>>((int *)0x10);
	rt("launch(illegal address) launch", cudaGetLastError());
	rt("after fault: cudaDeviceSynchronize", cudaDeviceSynchronize());
	rt("after fault: cudaGetLastError", cudaGetLastError());
	rt("after fault: cudaGetLastError again", cudaGetLastError());
	void *p;
	rt("after fault: cudaMalloc", cudaMalloc(&p, 16));
	rt("after fault: cudaHostAlloc", cudaHostAlloc(&p, 16, 0));
	rt("after fault: cudaPeekAtLastError", cudaPeekAtLastError());
	rt("after fault: cudaDeviceReset", cudaDeviceReset());
	rt("after reset: cudaMalloc", cudaMalloc(&p, 16));
	cudaFree(p);
}

static void driver_basics(void)
{
	int n;
	drv("cuDeviceGetCount(before init)", cuDeviceGetCount(&n));
	drv("cuInit(1)", cuInit(1));
	drv("cuInit(0)", cuInit(0));
	CUdevice d;
	drv("cuDeviceGet(99)", cuDeviceGet(&d, 99));
	CUcontext c;
	drv("cuCtxGetCurrent(none)", cuCtxGetCurrent(&c));
	printf("  ctx null %d\n", c == NULL);
	CUdeviceptr p;
	drv("cuMemAlloc(no context)", cuMemAlloc(&p, 16));
	drv("cuCtxSynchronize(no context)", cuCtxSynchronize());
	drv("cuMemHostAlloc(no context)", cuMemHostAlloc((void **)&p, 16, 0));
	CUmodule m;
	drv("cuModuleLoadData(no context)", cuModuleLoadData(&m, "garbage"));
	const char *s;
	drv("cuGetErrorString(9999)", cuGetErrorString((CUresult)9999, &s));
	drv("cuGetErrorName(9999)", cuGetErrorName((CUresult)9999, &s));
	printf("cudaGetErrorString(9999) %s\n", cudaGetErrorString((cudaError_t)9999));
	printf("cudaGetErrorName(9999) %s\n", cudaGetErrorName((cudaError_t)9999));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	driver_basics();
	host_alloc_flags();
	host_register();
	pointer_attributes();
	memcpy_errors();
	launch_errors();
	sticky_fault();
	return 0;
}
