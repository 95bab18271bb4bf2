// SPDX-License-Identifier: GPL-2.0
/*
 * probe_pools: what stream-ordered allocation (cuMemPool*, cuMemAllocAsync)
 * and CUDA 12 library loading (cuLibrary*, cuKernel*) answer: default
 * attributes, reuse on one stream and across streams by policy, the
 * release threshold at a synchronize, trim, the statistics, watermark
 * resets, and the error codes of bad calls.  One line per question;
 * addresses are never printed, only whether two are equal.
 *
 * Build: gcc -o probe_pools probe_pools.c -I/usr/local/cuda/include -lcuda
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *ptx =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .global .align 4 .u32 counter = 7;\n"
	".visible .global .align 8 .u64 table[4];\n"
	".visible .entry add_one(.param .u64 p, .param .u32 n) {\n"
	" .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
	" ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];\n"
	" mov.u32 %r2, %tid.x; setp.ge.u32 %p1, %r2, %r1; @%p1 bra DONE;\n"
	" mul.wide.u32 %rd2, %r2, 4; add.u64 %rd3, %rd1, %rd2;\n"
	" ld.global.u32 %r3, [%rd3]; add.u32 %r3, %r3, 1; st.global.u32 [%rd3], %r3;\n"
	"DONE: ret;\n}\n"
	".visible .entry set_counter(.param .u32 v) {\n"
	" .reg .b32 %r<2>; ld.param.u32 %r1, [v]; st.global.u32 [counter], %r1; ret;\n}\n";

static void show(const char *what, CUresult r)
{
	const char *n = "?";

	cuGetErrorName(r, &n);
	printf("%s: %s (%d)\n", what, n, (int)r);
}

static void attr(const char *what, CUmemoryPool p, CUmemPool_attribute a)
{
	cuuint64_t v64 = 0;
	int v32 = -1;
	CUresult r;

	if (a <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
		r = cuMemPoolGetAttribute(p, a, &v32);
		printf("%s attr %d: %d (%d)\n", what, (int)a, (int)r, v32);
	} else {
		r = cuMemPoolGetAttribute(p, a, &v64);
		printf("%s attr %d: %d (%llu)\n", what, (int)a, (int)r,
		       (unsigned long long)v64);
	}
}

static void stats(const char *what, CUmemoryPool p)
{
	for (int a = CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT;
	     a <= CU_MEMPOOL_ATTR_USED_MEM_HIGH; a++)
		attr(what, p, (CUmemPool_attribute)a);
}

static void set_int(CUmemoryPool p, CUmemPool_attribute a, int v)
{
	cuMemPoolSetAttribute(p, a, &v);
}

static CUmemoryPool make_pool(int dev)
{
	CUmemPoolProps props;
	CUmemoryPool p = NULL;

	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = dev;
	show("create pool", cuMemPoolCreate(&p, &props));
	return p;
}

static void pools(CUdevice d)
{
	CUmemoryPool def = NULL, cur = NULL, p, q = NULL;
	CUmemPoolProps props;
	CUstream s1, s2;
	CUevent ev;
	CUdeviceptr a = 0, b = 0, c = 0;
	CUmemAccessDesc acc;
	CUmemLocation loc;
	CUmemAccess_flags fl;
	cuuint64_t v64;
	int v, i;
	size_t sizes[] = { 1, 1000, 1 << 20, 3 << 20, 33 << 20 };

	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, d);
	printf("MEMORY_POOLS_SUPPORTED %d\n", v);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, d);
	printf("MEMPOOL_SUPPORTED_HANDLE_TYPES %d\n", v);
	show("get default pool", cuDeviceGetDefaultMemPool(&def, d));
	show("get current pool", cuDeviceGetMemPool(&cur, d));
	printf("current is default: %d\n", cur == def);
	for (i = 1; i <= 8; i++)
		attr("default", def, (CUmemPool_attribute)i);
	cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);

	p = make_pool(d);
	for (i = 1; i <= 8; i++)
		attr("created", p, (CUmemPool_attribute)i);

	/* Sizes: what reserved and used become. */
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		char what[64];

		snprintf(what, sizeof(what), "alloc %zu", sizes[i]);
		show(what, cuMemAllocFromPoolAsync(&a, sizes[i], p, s1));
		stats(what, p);
		show("free", cuMemFreeAsync(a, s1));
		stats("after free, before sync", p);
		show("sync", cuStreamSynchronize(s1));
		stats("after sync (threshold 0)", p);
	}

	/* Same-stream reuse, without a synchronize between. */
	v64 = UINT64_MAX;
	cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v64);
	cuMemAllocFromPoolAsync(&a, 4096, p, s1);
	cuMemFreeAsync(a, s1);
	cuMemAllocFromPoolAsync(&b, 4096, p, s1);
	printf("same stream reuse: %d\n", a == b);
	cuMemFreeAsync(b, s1);
	cuMemAllocFromPoolAsync(&c, 2048, p, s1);
	printf("same stream smaller reuse: %d\n", c == b);
	cuMemFreeAsync(c, s1);
	stats("threshold max, freed", p);
	cuStreamSynchronize(s1);
	stats("threshold max, after sync", p);

	/* Across streams: policies off, the free still running. */
	for (i = 1; i <= 3; i++)
		set_int(p, (CUmemPool_attribute)i, 0);
	cuMemAllocFromPoolAsync(&a, 4096, p, s1);
	cuMemFreeAsync(a, s1);
	cuMemAllocFromPoolAsync(&b, 4096, p, s2);
	printf("other stream no policy: %d\n", a == b);
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	cuMemAllocFromPoolAsync(&b, 4096, p, s2);
	printf("other stream no policy, after sync: %d\n", a == b);
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	/* Event dependency. */
	set_int(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, 1);
	cuMemAllocFromPoolAsync(&a, 8192, p, s1);
	cuMemFreeAsync(a, s1);
	cuEventRecord(ev, s1);
	cuStreamWaitEvent(s2, ev, 0);
	cuMemAllocFromPoolAsync(&b, 8192, p, s2);
	printf("other stream event dependency: %d\n", a == b);
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	/* Opportunistic. */
	set_int(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, 0);
	set_int(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, 1);
	cuMemAllocFromPoolAsync(&a, 16384, p, s1);
	cuMemFreeAsync(a, s1);
	cuStreamSynchronize(s1);
	cuMemAllocFromPoolAsync(&b, 16384, p, s2);
	printf("other stream opportunistic after sync: %d\n", a == b);
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	/* Internal dependencies. */
	set_int(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, 0);
	set_int(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 1);
	cuMemAllocFromPoolAsync(&a, 32768, p, s1);
	cuMemFreeAsync(a, s1);
	cuMemAllocFromPoolAsync(&b, 32768, p, s2);
	printf("other stream internal dependencies: %d\n", a == b);
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	stats("before trim", p);
	show("trim to 0", cuMemPoolTrimTo(p, 0));
	stats("after trim", p);

	/* Watermarks. */
	cuMemAllocFromPoolAsync(&a, 3 << 20, p, s1);
	cuMemFreeAsync(a, s1);
	cuStreamSynchronize(s1);
	cuMemPoolTrimTo(p, 0);
	stats("high before reset", p);
	v64 = 0;
	show("reset reserved high",
	     cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v64));
	show("reset used high",
	     cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v64));
	stats("high after reset", p);
	v64 = 5;
	show("set reserved high 5",
	     cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v64));
	v64 = 0;
	show("set reserved current",
	     cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v64));
	show("set used current",
	     cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v64));
	v = 2;
	show("set reuse 2",
	     cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &v));
	attr("after reuse 2", p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC);
	show("set attr 0", cuMemPoolSetAttribute(p, (CUmemPool_attribute)0, &v));
	show("set attr 9", cuMemPoolSetAttribute(p, (CUmemPool_attribute)9, &v));
	show("get attr 0", cuMemPoolGetAttribute(p, (CUmemPool_attribute)0, &v));
	show("get attr 9", cuMemPoolGetAttribute(p, (CUmemPool_attribute)9, &v));

	/* Errors of allocation and free. */
	show("alloc 0 from pool", cuMemAllocFromPoolAsync(&a, 0, p, s1));
	show("alloc NULL ptr", cuMemAllocFromPoolAsync(NULL, 16, p, s1));
	show("alloc NULL pool", cuMemAllocFromPoolAsync(&a, 16, NULL, s1));
	show("cuMemAllocAsync 0", cuMemAllocAsync(&a, 0, s1));
	show("cuMemAllocAsync huge", cuMemAllocAsync(&a, (size_t)1 << 50, s1));
	a = 0;
	show("cuMemAllocAsync 256", cuMemAllocAsync(&a, 256, s1));
	{
		CUmemoryPool owner = NULL;

		show("pointer attr mempool",
		     cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a));
		printf("pointer attr pool is default: %d\n", owner == def);
	}
	{
		CUdeviceptr base = 0;
		size_t sz = 0;

		show("address range", cuMemGetAddressRange(&base, &sz, a + 16));
		printf("address range base ok %d size %zu\n", base == a, sz);
	}
	show("cuMemFree of live pool pointer", cuMemFree(a));
	show("sync after cuMemFree", cuCtxSynchronize());
	cuMemAllocAsync(&a, 256, s1);
	show("free async", cuMemFreeAsync(a, s1));
	show("free async again", cuMemFreeAsync(a, s1));
	show("sync", cuStreamSynchronize(s1));
	show("cuMemFree after free async", cuMemFree(a));
	show("free async 0", cuMemFreeAsync(0, s1));
	show("free async bogus", cuMemFreeAsync(0x1234, s1));
	cuMemAlloc(&c, 4096);
	show("free async of cuMemAlloc pointer", cuMemFreeAsync(c, s1));
	show("sync", cuStreamSynchronize(s1));
	cuMemAllocFromPoolAsync(&a, 64, p, s1);
	show("free async inside", cuMemFreeAsync(a + 8, s1));
	cuMemFreeAsync(a, s1);
	cuStreamSynchronize(s1);

	/* Access. */
	memset(&acc, 0, sizeof(acc));
	acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	acc.location.id = d;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	show("set access own rw", cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	show("set access own none", cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	show("set access own read", cuMemPoolSetAccess(p, &acc, 1));
	acc.location.id = 7;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	show("set access device 7", cuMemPoolSetAccess(p, &acc, 1));
	acc.location.id = d;
	acc.flags = (CUmemAccess_flags)9;
	show("set access flags 9", cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	acc.location.type = CU_MEM_LOCATION_TYPE_HOST;
	show("set access host", cuMemPoolSetAccess(p, &acc, 1));
	show("set access count 0", cuMemPoolSetAccess(p, &acc, 0));
	show("set access NULL", cuMemPoolSetAccess(p, NULL, 1));
	memset(&loc, 0, sizeof(loc));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	loc.id = d;
	fl = (CUmemAccess_flags)77;
	show("get access own", cuMemPoolGetAccess(&fl, p, &loc));
	printf("own access flags %d\n", (int)fl);
	loc.id = 7;
	fl = (CUmemAccess_flags)77;
	show("get access device 7", cuMemPoolGetAccess(&fl, p, &loc));
	printf("device 7 access flags %d\n", (int)fl);
	loc.type = CU_MEM_LOCATION_TYPE_HOST;
	loc.id = 0;
	show("get access host", cuMemPoolGetAccess(&fl, p, &loc));
	printf("host access flags %d\n", (int)fl);

	/* Creation errors. */
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = 7;
	show("create device 7", cuMemPoolCreate(&q, &props));
	props.location.id = d;
	props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
	show("create alloc type invalid", cuMemPoolCreate(&q, &props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_INVALID;
	show("create location invalid", cuMemPoolCreate(&q, &props));
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.handleTypes = (CUmemAllocationHandleType)0x40;
	show("create handle type 0x40", cuMemPoolCreate(&q, &props));
	props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
	props.reserved[3] = 1;
	show("create reserved nonzero", cuMemPoolCreate(&q, &props));
	if (q)
		cuMemPoolDestroy(q);
	props.reserved[3] = 0;
	props.maxSize = 1 << 20;
	q = NULL;
	show("create maxSize 1M", cuMemPoolCreate(&q, &props));
	show("alloc 2M from maxSize 1M", cuMemAllocFromPoolAsync(&a, 2 << 20, q, s1));
	if (q)
		cuMemPoolDestroy(q);
	props.maxSize = 0;
	q = NULL;
	props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	show("create posix fd", cuMemPoolCreate(&q, &props));
	if (q)
		cuMemPoolDestroy(q);
	{
		int fd = -1;

		show("export non-ipc pool",
		     cuMemPoolExportToShareableHandle(&fd, p, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	}

	/* Current pool. */
	show("set current", cuDeviceSetMemPool(d, p));
	cuDeviceGetMemPool(&cur, d);
	printf("current is created: %d\n", cur == p);
	cuMemAllocAsync(&a, 100, s1);
	v64 = 0;
	cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v64);
	printf("cuMemAllocAsync used the current pool: %d\n", v64 != 0);
	cuMemFreeAsync(a, s1);
	cuStreamSynchronize(s1);
	show("set current NULL", cuDeviceSetMemPool(d, NULL));
	show("set current device 7", cuDeviceSetMemPool(7, p));
	show("get default device 7", cuDeviceGetDefaultMemPool(&cur, 7));
	show("destroy current", cuMemPoolDestroy(p));
	cuDeviceGetMemPool(&cur, d);
	printf("current after destroy is default: %d\n", cur == def);
	show("destroy again", cuMemPoolDestroy(p));
	show("destroy default", cuMemPoolDestroy(def));
	show("destroy NULL", cuMemPoolDestroy(NULL));
	show("trim default", cuMemPoolTrimTo(def, 0));

	/* A pool destroyed with an allocation outstanding. */
	p = make_pool(d);
	cuMemAllocFromPoolAsync(&a, 4096, p, s1);
	show("destroy with outstanding", cuMemPoolDestroy(p));
	show("memset outstanding", cuMemsetD8Async(a, 1, 4096, s1));
	show("free outstanding", cuMemFreeAsync(a, s1));
	show("sync", cuStreamSynchronize(s1));

	cuEventDestroy(ev);
	cuStreamDestroy(s1);
	cuStreamDestroy(s2);
}

static void libraries(CUdevice d, CUcontext c1)
{
	CUlibrary lib, bad;
	CUkernel ks[4], k;
	CUfunction f;
	CUmodule m;
	CUcontext c2;
	CUdeviceptr g, buf;
	size_t bytes;
	unsigned int n = 0, i, u = 0;
	const char *name;
	CUmoduleLoadingMode mode;
	int v;

	show("loading mode", cuModuleGetLoadingMode(&mode));
	printf("loading mode %d\n", (int)mode);
	show("load ptx", cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
	show("kernel count", cuLibraryGetKernelCount(&n, lib));
	printf("kernels %u\n", n);
	show("enumerate", cuLibraryEnumerateKernels(ks, n, lib));
	for (i = 0; i < n; i++) {
		cuKernelGetName(&name, ks[i]);
		printf("kernel %u %s\n", i, name);
	}
	show("enumerate too few", cuLibraryEnumerateKernels(ks, 1, lib));
	show("enumerate 0", cuLibraryEnumerateKernels(ks, 0, lib));
	show("get kernel missing", cuLibraryGetKernel(&k, lib, "nope"));
	show("get kernel", cuLibraryGetKernel(&k, lib, "add_one"));
	printf("same handle as enumerated: %d\n", k == ks[0] || k == ks[1]);
	show("get global", cuLibraryGetGlobal(&g, &bytes, lib, "counter"));
	printf("global bytes %zu\n", bytes);
	cuMemcpyDtoH(&u, g, 4);
	printf("global value %u\n", u);
	show("get global missing", cuLibraryGetGlobal(&g, &bytes, lib, "nope"));
	show("get managed (not managed)", cuLibraryGetManaged(&g, &bytes, lib, "counter"));
	show("get module", cuLibraryGetModule(&m, lib));
	show("kernel get function", cuKernelGetFunction(&f, k));
	show("kernel attribute", cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, d));
	printf("max threads %d\n", v);
	show("kernel attribute device 7", cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 7));
	show("kernel set attribute", cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, k, d));
	{
		CUlibrary owner = NULL;

		show("kernel get library", cuKernelGetLibrary(&owner, k));
		printf("owner is lib: %d\n", owner == lib);
	}
	/* Launch through the CUkernel. */
	{
		unsigned int host[32], cnt = 32;
		void *args[] = { &buf, &cnt };

		for (i = 0; i < 32; i++)
			host[i] = i;
		cuMemAlloc(&buf, sizeof(host));
		cuMemcpyHtoD(buf, host, sizeof(host));
		show("launch CUkernel", cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
		cuMemcpyDtoH(host, buf, sizeof(host));
		printf("result %u %u\n", host[0], host[31]);
		cuMemFree(buf);
	}
	/* A second context: the same library, its own global. */
	cuCtxCreate(&c2, NULL, 0, d);
	{
		CUfunction f2;
		CUdeviceptr g2;
		unsigned int val = 42;
		void *args[] = { &val };

		show("ctx2 get function", cuKernelGetFunction(&f2, k));
		printf("ctx2 function differs: %d\n", f2 != f);
		show("ctx2 get global", cuLibraryGetGlobal(&g2, &bytes, lib, "counter"));
		printf("ctx2 global differs: %d\n", g2 != g);
		cuLibraryGetKernel(&k, lib, "set_counter");
		show("ctx2 launch", cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		cuCtxSynchronize();
		cuMemcpyDtoH(&u, g2, 4);
		printf("ctx2 global after launch %u\n", u);
	}
	cuCtxDestroy(c2);
	cuCtxSetCurrent(c1);
	cuMemcpyDtoH(&u, g, 4);
	printf("ctx1 global still %u\n", u);

	show("load garbage", cuLibraryLoadData(&bad, "hello world, not code", NULL, NULL, 0, NULL, NULL, 0));
	show("load NULL", cuLibraryLoadData(&bad, NULL, NULL, NULL, 0, NULL, NULL, 0));
	show("load file missing", cuLibraryLoadFromFile(&bad, "/nonexistent.fatbin", NULL, NULL, 0, NULL, NULL, 0));
	{
		CUlibraryOption o = CU_LIBRARY_BINARY_IS_PRESERVED;
		void *ov = NULL;

		show("load file preserved", cuLibraryLoadFromFile(&bad, "/nonexistent.fatbin", NULL, NULL, 0, &o, &ov, 1));
		o = (CUlibraryOption)9;
		show("load option 9", cuLibraryLoadData(&bad, ptx, NULL, NULL, 0, &o, &ov, 1));
	}
	show("unload", cuLibraryUnload(lib));
	show("unload NULL", cuLibraryUnload(NULL));
	show("get kernel NULL lib", cuLibraryGetKernel(&k, NULL, "add_one"));
}

int main(void)
{
	CUdevice d;
	CUcontext c;
	char name[128];

	cuInit(0);
	cuDeviceGet(&d, 0);
	cuDeviceGetName(name, sizeof(name), d);
	printf("device: %s\n", name);
	cuDevicePrimaryCtxRetain(&c, d);
	cuCtxSetCurrent(c);
	pools(d);
	libraries(d, c);
	return 0;
}
