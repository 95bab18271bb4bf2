// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management beyond what the H100 recording covers
 * (test_cu_probe_vmm): data written through one mapping read through
 * another of the same memory, memory that outlives cuMemRelease while
 * mapped, a mapping seen by a context created after cuMemSetAccess,
 * read-only access, and a reservation at a wanted address.  Expected
 * values come from the host, never from the device.
 */
#include <string.h>
#include <unistd.h>

#include "cuda_test.h"

#define GRAN	(2u << 20)

/* inc: out[i] = in[i] + 1 for i < n; poke: in[0] = 7. */
static const char *ptx =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry inc(.param .u64 in, .param .u64 out, .param .u32 n)"
	" {\n"
	" .reg .b32 %r<5>; .reg .b64 %rd<6>; .reg .pred %p1;\n"
	" ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];"
	" ld.param.u32 %r1, [n];\n"
	" mov.u32 %r2, %tid.x; setp.ge.u32 %p1, %r2, %r1; @%p1 bra DONE;\n"
	" mul.wide.u32 %rd3, %r2, 4; add.u64 %rd4, %rd1, %rd3;"
	" add.u64 %rd5, %rd2, %rd3;\n"
	" ld.global.u32 %r3, [%rd4]; add.u32 %r4, %r3, 1;"
	" st.global.u32 [%rd5], %r4;\n"
	"DONE: ret;\n}\n"
	".visible .entry poke(.param .u64 in) {\n"
	" .reg .b32 %r1; .reg .b64 %rd1;\n"
	" ld.param.u64 %rd1, [in]; mov.u32 %r1, 7;"
	" st.global.u32 [%rd1], %r1; ret;\n}\n";

static CUmemAllocationProp prop(CUmemAllocationHandleType types)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.requestedHandleTypes = types;
	return p;
}

static CUmemAccessDesc access_desc(CUmemAccess_flags f)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof(d));
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 0;
	d.flags = f;
	return d;
}

/* Launch @name (one block of @n threads) and wait for it. */
static CUresult run(const char *name, void **args, unsigned int n)
{
	CUmodule mod;
	CUfunction fn;
	CUresult r = cuModuleLoadData(&mod, ptx);

	if (r == CUDA_SUCCESS)
		r = cuModuleGetFunction(&fn, mod, name);
	if (r == CUDA_SUCCESS)
		r = cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, NULL, args, NULL);
	if (r == CUDA_SUCCESS)
		r = cuCtxSynchronize();
	return r;
}

static CUresult run_inc(CUdeviceptr in, CUdeviceptr out, unsigned int n)
{
	void *args[] = { &in, &out, &n };

	return run("inc", args, n);
}

static CUresult run_poke(CUdeviceptr in)
{
	void *args[] = { &in };

	return run("poke", args, 1);
}

TEST(release_while_mapped_keeps_memory)
{
	CUmemAllocationProp p = prop(CU_MEM_HANDLE_TYPE_NONE);
	CUmemAccessDesc rw = access_desc(CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h;
	CUdeviceptr va;
	unsigned int v = 0;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&va, GRAN, 0, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&h, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va, GRAN, 0, h, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemSetAccess(va, GRAN, &rw, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(va + GRAN - 4, 0x600dcafe, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(h));
	/* The handle is gone, the memory is not. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRelease(h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, va + GRAN - 4, 4));
	ASSERT_EQ(0x600dcafeu, v);
	/* The address still leads to it: retain gives a handle back. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemRetainAllocationHandle(&h, (void *)va));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(h));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(va, GRAN));
	ASSERT_EQ(CUDA_SUCCESS, cuMemUnmap(va, GRAN));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(&v, va, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(va, GRAN));
}

TEST(exported_and_imported_are_one_memory)
{
	CUmemAllocationProp p = prop(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	CUmemAccessDesc rw = access_desc(CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h, imp;
	unsigned int host[256], back[256];
	CUdeviceptr va;
	CUcontext ctx;
	int fd = -1;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&va, 2 * GRAN, 0, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&h, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemExportToShareableHandle(&fd, h,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	ASSERT_LE(0, fd);
	ASSERT_EQ(CUDA_SUCCESS, cuMemImportFromShareableHandle(&imp,
		(void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd);
	ASSERT_NE(h, imp);
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va, GRAN, 0, h, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va + GRAN, GRAN, 0, imp, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemSetAccess(va, 2 * GRAN, &rw, 1));
	for (unsigned int i = 0; i < 256; i++)
		host[i] = i * 7919u;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(va + 4096, host, sizeof(host)));
	memset(back, 0, sizeof(back));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuMemcpyDtoH(back, va + GRAN + 4096, sizeof(back)));
	ASSERT_EQ(0, memcmp(host, back, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemUnmap(va, 2 * GRAN));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(imp));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(va, 2 * GRAN));
}

TEST(later_context_sees_the_mapping)
{
	CUmemAllocationProp p = prop(CU_MEM_HANDLE_TYPE_NONE);
	CUmemAccessDesc rw = access_desc(CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h;
	unsigned int host[64], back[64];
	CUcontext primary, other;
	CUdeviceptr va;

	CU_SETUP(&primary);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&va, GRAN, 0, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&h, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va, GRAN, 0, h, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemSetAccess(va, GRAN, &rw, 1));
	for (unsigned int i = 0; i < 64; i++)
		host[i] = 1000 + i;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(va, host, sizeof(host)));
	/* A context made afterwards: a kernel there reads and writes it. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&other, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, run_inc(va, va + 4096, 64));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(primary));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, va + 4096, sizeof(back)));
	for (unsigned int i = 0; i < 64; i++)
		ASSERT_EQ(host[i] + 1, back[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(other));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(primary));
	ASSERT_EQ(CUDA_SUCCESS, cuMemUnmap(va, GRAN));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(va, GRAN));
}

TEST(read_only_access_refuses_writes)
{
	CUmemAllocationProp p = prop(CU_MEM_HANDLE_TYPE_NONE);
	CUmemAccessDesc rw = access_desc(CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemAccessDesc ro = access_desc(CU_MEM_ACCESS_FLAGS_PROT_READ);
	CUmemGenericAllocationHandle h, hout;
	CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	unsigned long long flags = 0;
	unsigned int v = 0;
	CUdeviceptr va;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&va, 2 * GRAN, 0, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&h, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&hout, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va, GRAN, 0, h, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va + GRAN, GRAN, 0, hout, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemSetAccess(va, 2 * GRAN, &rw, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(va, 41, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemSetAccess(va, GRAN, &ro, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc, va));
	ASSERT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READ, flags);
	/* Reading through the read-only mapping works... */
	ASSERT_EQ(CUDA_SUCCESS, run_inc(va, va + GRAN, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, va + GRAN, 4));
	ASSERT_EQ(42u, v);
	/* ...writing through it is a fault of the kernel. */
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, run_poke(va));
}

TEST(reserve_at_a_wanted_address)
{
	CUdeviceptr a, b, c;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&a, 4 * GRAN, 0, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(a, 4 * GRAN));
	/* Free again: the wish is granted. */
	ASSERT_EQ(CUDA_SUCCESS,
		  cuMemAddressReserve(&b, 2 * GRAN, 0, a + 2 * GRAN, 0));
	ASSERT_EQ(a + 2 * GRAN, b);
	/* Taken: another range is given instead. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&c, 2 * GRAN, 0, b, 0));
	ASSERT_NE(b, c);
	ASSERT_EQ(0, c % GRAN);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(b, 2 * GRAN));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(c, 2 * GRAN));
}

CUDA_TEST_MAIN
