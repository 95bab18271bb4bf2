// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_memory.c - device memory, copies in every direction, memsets,
 * page-locked host memory and pointer attributes, with their error codes
 * as recorded on real CUDA 13.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda_test.h"

static void fill_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 31 + seed + (i >> 8));
}

TEST(alloc_free)
{
	CUdeviceptr p, q, base;
	size_t size, free0, total, free1;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&p, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(NULL, 16));
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&p, 1ull << 50));
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetInfo(&free0, &total));
	ASSERT_GE(total, free0);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&p, 1 << 20));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&q, 100));
	ASSERT_NE(p, q);
	ASSERT_EQ(0, p % 256);
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetInfo(&free1, &total));
	ASSERT_LT(free1, free0);
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, p + 100));
	ASSERT_EQ(p, base);
	ASSERT_EQ(1u << 20, size);
	ASSERT_EQ(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, 16));
	/* Measured: wild, interior and double frees. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(p + 8));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(p));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(0x1234000));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(q));
}

/* HtoD then DtoH at sizes and offsets that are not page multiples. */
TEST(copy_roundtrip_pageable)
{
	static const size_t sizes[] = { 1, 3, 4095, 4096, 4097, 65536 + 7,
					(1 << 20) + 3, (5 << 20) + 11 };
	CUcontext ctx;
	CUdeviceptr d;
	uint8_t *src, *dst;

	CU_SETUP(&ctx);
	src = malloc(6 << 20);
	dst = malloc(6 << 20);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 6 << 20));
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], off = i * 3;

		fill_pattern(src, n + off, (unsigned int)i);
		memset(dst, 0xee, n + off);
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d + off, src + off, n));
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst + off, d + off, n));
		ASSERT_EQ(0, memcmp(src + off, dst + off, n));
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	free(src);
	free(dst);
}

TEST(copy_pinned_and_device_to_device)
{
	const size_t n = (3 << 20) + 5;
	CUcontext ctx;
	CUdeviceptr a, b;
	uint8_t *h1, *h2;
	CUstream s;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost((void **)&h1, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&h2, n,
					       CU_MEMHOSTALLOC_WRITECOMBINED));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, n));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	fill_pattern(h1, n, 9);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoDAsync(a, h1, n, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoDAsync(b + 1, a, n - 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8Async(b, 0x5a, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(h2, b, n, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(0x5a, h2[0]);
	ASSERT_EQ(0, memcmp(h1, h2 + 1, n - 1));
	/* Unified: direction from the pointers. */
	memset(h1, 0, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy((CUdeviceptr)h1, b, n));
	ASSERT_EQ(0, memcmp(h1, h2, n));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(a));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(b));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(h1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(h2));
}

TEST(copy_errors)
{
	CUcontext ctx;
	CUdeviceptr d;
	char host[64];

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	/* Measured: size 0 is fine even with NULL; past the end is not. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, NULL, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0, host, 16));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d + 4090, host, 16));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemcpyHtoD((CUdeviceptr)host, host + 8, 16));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemcpyDtoD((CUdeviceptr)host, d, 16));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, d + 8192, 16));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuMemcpyHtoDAsync(d, host, 16, (CUstream)host));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
}

/* A 100 x 37 byte rectangle: host (pitch 128) -> device (pitch 512) -> host. */
TEST(copy_2d)
{
	uint8_t src[37][128], dst[37][100];
	CUDA_MEMCPY2D c = { 0 };
	CUcontext ctx;
	CUdeviceptr d;

	CU_SETUP(&ctx);
	fill_pattern(&src[0][0], sizeof(src), 3);
	memset(dst, 0, sizeof(dst));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 512 * 40));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = 128;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = d;
	c.dstPitch = 512;
	c.dstY = 2;
	c.WidthInBytes = 100;
	c.Height = 37;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = d;
	c.srcPitch = 512;
	c.srcY = 2;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = dst;
	c.dstPitch = 100;
	c.WidthInBytes = 100;
	c.Height = 37;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	for (int r = 0; r < 37; r++)
		ASSERT_EQ(0, memcmp(src[r], dst[r], 100));
	/* A pitch narrower than the row. */
	c.srcPitch = 50;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
}

TEST(memsets)
{
	const size_t n = 10000;
	uint32_t *h32 = malloc(n * 4);
	uint16_t *h16 = (uint16_t *)h32;
	uint8_t *h8 = (uint8_t *)h32;
	CUcontext ctx;
	CUdeviceptr d;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n * 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 0xdeadbeef, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(h32, d, n * 4));
	for (size_t i = 0; i < n; i++)
		ASSERT_EQ(0xdeadbeefu, h32[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD16(d + 2, 0x1234, 3));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(d + 9, 0x77, 2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(h32, d, 16));
	ASSERT_EQ(0xbeef, h16[0]);
	ASSERT_EQ(0x1234, h16[1]);
	ASSERT_EQ(0x1234, h16[3]);
	ASSERT_EQ(0xef, h8[8]);
	ASSERT_EQ(0x77, h8[9]);
	ASSERT_EQ(0x77, h8[10]);
	ASSERT_EQ(0xde, h8[11]);
	/* 2D: 3 rows of 5 words, pitch 64 bytes. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 0, 64));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD2D32(d, 64, 9, 5, 3));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(h32, d, 256));
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 16; c++)
			ASSERT_EQ(r < 3 && c < 5 ? 9u : 0u, h32[r * 16 + c]);
	/* Misaligned, host memory, past the end. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d + 2, 0, 4));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(d + 1, 0, 4));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemsetD8((CUdeviceptr)h8, 0, 4));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d, 0, n + 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	free(h32);
}

TEST(host_alloc_flags)
{
	CUcontext ctx;
	unsigned int flags;
	CUdeviceptr dp;
	void *p;

	CU_SETUP(&ctx);
	for (unsigned int f = 0; f < 8; f++) {
		ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&p, 1000, f));
		memset(p, 1, 1000);
		ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetFlags(&flags, p));
		/* Measured: DEVICEMAP is always reported (unified addressing). */
		ASSERT_EQ(f | CU_MEMHOSTALLOC_DEVICEMAP, flags);
		ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dp, p, 0));
		ASSERT_EQ((CUdeviceptr)p, dp);
		ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
			  cuMemHostGetDevicePointer(&dp, p, 1));
		ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost((char *)p + 16));
		ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(p));
		ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(p));
	}
	for (unsigned int f = 8; f < 16; f++)
		ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&p, 1000, f));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&p, 0, 0));
	ASSERT_EQ(NULL, p);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(&flags));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, &flags));
}

TEST(host_register)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = 5 * (size_t)page;
	unsigned int flags;
	CUcontext ctx;
	CUdeviceptr d, dp;
	char *buf, *ro;
	void *pinned;

	CU_SETUP(&ctx);
	buf = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	/* Unaligned start and length: the pages around are pinned. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(buf + 100, n - 300,
						  CU_MEMHOSTREGISTER_PORTABLE));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetFlags(&flags, buf + 2000));
	ASSERT_EQ(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dp, buf + 100, 0));
	ASSERT_EQ((CUdeviceptr)(buf + 100), dp);
	/* Measured: twice, overlapping, unregistering the middle. */
	ASSERT_EQ(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
		  cuMemHostRegister(buf + 100, 64, 0));
	ASSERT_EQ(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
		  cuMemHostRegister(buf + 4 * page, 64, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(buf + 200));
	/* The device reaches it: a DMA copy through the registration. */
	memset(buf + 100, 0x3c, 4096);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, buf + 100, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(d, 0x11, 16));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(buf + 100, d, 4096));
	ASSERT_EQ(0x11, buf[100]);
	ASSERT_EQ(0x3c, buf[100 + 16]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(buf + 100));
	ASSERT_EQ(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
		  cuMemHostUnregister(buf + 100));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(NULL, 64, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(buf, 0, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemHostRegister(buf, 64, CU_MEMHOSTREGISTER_IOMEMORY));
	/* Device memory and cuMemHostAlloc memory cannot be registered. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemHostRegister((void *)d, 4096, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost(&pinned, 4096));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(pinned, 64, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(pinned));
	/* Read-only pages need READ_ONLY; PROT_NONE never works. */
	ro = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(ro, 64, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(ro, 64,
		  CU_MEMHOSTREGISTER_READ_ONLY));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(ro));
	ASSERT_EQ(0, mprotect(ro, (size_t)page, PROT_NONE));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(ro, 64,
		  CU_MEMHOSTREGISTER_READ_ONLY));
	munmap(ro, (size_t)page);
	munmap(buf, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
}

TEST(pointer_attributes)
{
	CUpointer_attribute attrs[3] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					 CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
					 CU_POINTER_ATTRIBUTE_IS_MANAGED };
	unsigned int type = 99;
	int ordinal = 99, managed = 99, mapped = 0;
	void *data[3] = { &type, &ordinal, &managed };
	CUcontext ctx, owner;
	CUdeviceptr d, dp;
	void *pinned, *hp;
	int stack = 0;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost(&pinned, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 100));
	ASSERT_EQ(CU_MEMORYTYPE_DEVICE, type);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&owner,
		  CU_POINTER_ATTRIBUTE_CONTEXT, d));
	ASSERT_EQ(ctx, owner);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)pinned));
	ASSERT_EQ(CU_MEMORYTYPE_HOST, type);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&dp,
		  CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)pinned));
	ASSERT_EQ((CUdeviceptr)pinned, dp);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&hp,
		  CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)pinned));
	ASSERT_EQ(pinned, hp);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&mapped,
		  CU_POINTER_ATTRIBUTE_MAPPED, d));
	ASSERT_EQ(1, mapped);
	/* Measured error cases. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)&stack));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&hp,
		  CU_POINTER_ATTRIBUTE_HOST_POINTER, d));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type,
		  (CUpointer_attribute)999, d));
	/* The plural form reports unknown memory without failing. */
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttributes(3, attrs, data,
		  (CUdeviceptr)&stack));
	ASSERT_EQ(0, type);
	ASSERT_EQ(-2, ordinal);
	ASSERT_EQ(0, managed);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttributes(3, attrs, data, d));
	ASSERT_EQ(CU_MEMORYTYPE_DEVICE, type);
	ASSERT_EQ(0, ordinal);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	/* A freed pointer is unknown again. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

/*
 * Managed memory: one address for host and device, no copies; a module's
 * __managed__ variable is reached by the host at cuModuleGetGlobal's
 * address.
 */
TEST(managed_memory)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction bump;
	CUdeviceptr d, var;
	size_t size;
	int managed = 0, *p, *v;
	void *params[] = { &d };

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&d, 256, CU_MEM_ATTACH_GLOBAL));
	p = (int *)(uintptr_t)d;
	for (int i = 0; i < 64; i++)
		p[i] = i;
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&managed,
		  CU_POINTER_ATTRIBUTE_IS_MANAGED, d + 8));
	ASSERT_EQ(1, managed);

	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetGlobal(&var, &size, m, "drv_managed"));
	ASSERT_EQ(sizeof(int), size);
	v = (int *)(uintptr_t)var;
	ASSERT_EQ(11, *v);		/* its initializer, read by the host */
	*v = 100;
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&bump, m, "bump_managed"));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(101, *v);
	EXPECT_EQ(101, p[0]);
	EXPECT_EQ(1, p[1]);
	/* Device copies and memsets reach it too. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 7, 64));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(7, p[63]);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));

	/* Errors: no attach flag, both, zero bytes. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&var, 16, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&var, 16, 3));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAllocManaged(&var, 0, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAllocManaged(NULL, 16, CU_MEM_ATTACH_HOST));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(d));
}

/* The child of ipc_between_processes: export, then check the parent's write. */
static int ipc_child(int to_parent, int from_parent)
{
	const size_t n = 1 << 18;
	uint32_t *h = malloc(n * 4);
	CUipcMemHandle handle;
	CUcontext ctx;
	CUdeviceptr d;
	char go;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuMemAlloc(&d, n * 4) ||
	    cuMemsetD32(d, 0x12345678, n) || cuCtxSynchronize() ||
	    cuIpcGetMemHandle(&handle, d))
		return 2;
	if (write(to_parent, &handle, sizeof(handle)) != sizeof(handle) ||
	    read(from_parent, &go, 1) != 1)
		return 3;
	if (cuMemcpyDtoH(h, d, n * 4))
		return 4;
	for (size_t i = 0; i < n; i++)
		if (h[i] != (i < 16 ? 0xabcdef01u : 0x12345678u))
			return 5;
	return cuMemFree(d) ? 6 : 0;
}

/* A child shares device memory; the parent reads and writes it. */
TEST(ipc_between_processes)
{
	int to_parent[2], from_parent[2], status;
	CUipcMemHandle handle, bad;
	CUcontext ctx;
	CUdeviceptr d, own;
	uint32_t head[32];
	char go = 1;
	pid_t pid;

	ASSERT_EQ(0, pipe(to_parent));
	ASSERT_EQ(0, pipe(from_parent));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(ipc_child(to_parent[1], from_parent[0]));
	ASSERT_EQ(sizeof(handle), read(to_parent[0], &handle, sizeof(handle)));
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuIpcOpenMemHandle(&d, handle,
		  CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(head, d, sizeof(head)));
	for (int i = 0; i < 32; i++)
		ASSERT_EQ(0x12345678u, head[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(d, 0xabcdef01, 16));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	/* Another process's memory is closed, not freed. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuIpcCloseMemHandle(d));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuIpcCloseMemHandle(d));
	ASSERT_EQ(1, write(from_parent[1], &go, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* Errors: our own handle, a damaged one, host memory. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&own, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuIpcGetMemHandle(&handle, own));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuIpcOpenMemHandle(&d, handle, 0));
	memset(&bad, 0x5a, sizeof(bad));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuIpcOpenMemHandle(&d, bad, 0));
	/* Inside an allocation: the handle of the whole allocation. */
	ASSERT_EQ(CUDA_SUCCESS, cuIpcGetMemHandle(&bad, own + 64));
	ASSERT_EQ(0, memcmp(&bad, &handle, sizeof(bad)));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuIpcGetMemHandle(&handle, (CUdeviceptr)head));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(own));
}

CUDA_TEST_MAIN
