// SPDX-License-Identifier: GPL-2.0
/*
 * probe_vmm: what virtual memory management (cuMemAddressReserve,
 * cuMemCreate, cuMemMap, cuMemSetAccess, ...) answers on one device: the
 * granularities, the properties of a handle, the error codes of bad
 * calls (unaligned sizes, mapping over a mapping, unmapping part of a
 * mapping, release while mapped, access before cuMemSetAccess), export
 * and import through a POSIX file descriptor, and what the peer-access
 * queries answer when there is one device.  One line per question;
 * addresses are never printed, only whether two are equal.
 *
 * Build: gcc -o probe_vmm probe_vmm.c -I/usr/local/cuda/include -lcuda
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *ptx =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry fill(.param .u64 p, .param .u32 n, .param .u32 v) {\n"
	" .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p1;\n"
	" ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n]; ld.param.u32 %r4, [v];\n"
	" mov.u32 %r2, %tid.x; setp.ge.u32 %p1, %r2, %r1; @%p1 bra DONE;\n"
	" mul.wide.u32 %rd2, %r2, 4; add.u64 %rd3, %rd1, %rd2;\n"
	" add.u32 %r3, %r4, %r2; st.global.u32 [%rd3], %r3;\n"
	" atom.global.add.u32 %r5, [%rd1], 0;\n"
	"DONE: ret;\n}\n";

static void show(const char *what, CUresult r)
{
	const char *n = "?";

	cuGetErrorName(r, &n);
	printf("%s: %s (%d)\n", what, n, (int)r);
}

static CUmemAllocationProp dev_prop(int dev, CUmemAllocationHandleType h)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	p.requestedHandleTypes = h;
	return p;
}

static CUmemAccessDesc access_desc(int dev, CUmemAccess_flags f)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof(d));
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = f;
	return d;
}

static void props(const char *what, CUmemGenericAllocationHandle h)
{
	CUmemAllocationProp p;
	CUresult r;

	memset(&p, 0xff, sizeof(p));
	r = cuMemGetAllocationPropertiesFromHandle(&p, h);
	printf("%s props: %d type %d loc %d id %d handles %d\n", what, (int)r,
	       (int)p.type, (int)p.location.type, p.location.id,
	       (int)p.requestedHandleTypes);
}

static void get_access(const char *what, CUdeviceptr va, int dev)
{
	CUmemLocation loc = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev };
	unsigned long long flags = 99;
	CUresult r = cuMemGetAccess(&flags, &loc, va);

	printf("%s get access: %d flags %llu\n", what, (int)r, flags);
}

static void attrs(CUdevice dev)
{
	static const struct { const char *name; CUdevice_attribute a; } t[] = {
		{ "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED",
		  CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED },
		{ "HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED",
		  CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED },
		{ "HANDLE_TYPE_FABRIC_SUPPORTED",
		  CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED },
		{ "GENERIC_COMPRESSION_SUPPORTED",
		  CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED },
		{ "GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED",
		  CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED },
		{ "UNIFIED_ADDRESSING", CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING },
	};

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int v = -1;
		CUresult r = cuDeviceGetAttribute(&v, t[i].a, dev);

		printf("%s %d (%d)\n", t[i].name, v, (int)r);
	}
}

static void peer(CUcontext ctx, int ndev)
{
	static const CUdevice_P2PAttribute p2p[] = {
		CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
		CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
		CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
		CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED,
	};
	char what[64];
	int v;
	CUresult r;

	v = -1;
	r = cuDeviceCanAccessPeer(&v, 0, 0);
	printf("can access peer 0 0: %d (%d)\n", (int)r, v);
	v = -1;
	r = cuDeviceCanAccessPeer(&v, 0, ndev);
	printf("can access peer 0 ndev: %d (%d)\n", (int)r, v);
	show("can access peer null", cuDeviceCanAccessPeer(NULL, 0, 0));
	show("enable peer self", cuCtxEnablePeerAccess(ctx, 0));
	show("enable peer null", cuCtxEnablePeerAccess(NULL, 0));
	show("enable peer flags", cuCtxEnablePeerAccess(ctx, 1));
	show("disable peer self", cuCtxDisablePeerAccess(ctx));
	show("disable peer null", cuCtxDisablePeerAccess(NULL));
	for (unsigned int i = 0; i < sizeof(p2p) / sizeof(p2p[0]); i++) {
		v = -1;
		r = cuDeviceGetP2PAttribute(&v, p2p[i], 0, 0);
		printf("p2p attr %d 0 0: %d (%d)\n", (int)p2p[i], (int)r, v);
		v = -1;
		r = cuDeviceGetP2PAttribute(&v, p2p[i], 0, ndev);
		printf("p2p attr %d 0 ndev: %d (%d)\n", (int)p2p[i], (int)r, v);
	}
	v = -1;
	r = cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)99, 0, 0);
	printf("p2p attr 99 0 0: %d (%d)\n", (int)r, v);
	snprintf(what, sizeof(what), "p2p attr null");
	show(what, cuDeviceGetP2PAttribute(NULL,
		CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0));
}

int main(void)
{
	CUmemGenericAllocationHandle h = 0, h2 = 0, h3 = 0, hfd = 0, himp = 0;
	CUmemAllocationProp p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	CUmemAccessDesc rw = access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemAccessDesc d;
	CUdeviceptr base = 0, other = 0, va;
	size_t gran = 0, rec = 0, g;
	unsigned int host[64];
	CUcontext ctx;
	CUmodule mod;
	CUfunction fn;
	CUdevice dev;
	char name[128];
	int ndev = 0, fd = -1, n;
	unsigned int val;
	void *args[3];
	CUresult r;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
	    cuCtxSetCurrent(ctx))
		return 1;
	cuDeviceGetName(name, sizeof(name), dev);
	printf("device: %s\n", name);
	cuDeviceGetCount(&ndev);
	attrs(dev);
	peer(ctx, ndev);

	/* Granularity. */
	r = cuMemGetAllocationGranularity(&gran, &p,
					  CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	printf("granularity minimum: %d (%zu)\n", (int)r, gran);
	r = cuMemGetAllocationGranularity(&rec, &p,
					  CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
	printf("granularity recommended: %d (%zu)\n", (int)r, rec);
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	g = 0;
	r = cuMemGetAllocationGranularity(&g, &p,
					  CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	printf("granularity posix fd: %d (%zu)\n", (int)r, g);
	show("granularity null prop", cuMemGetAllocationGranularity(&g, NULL,
		CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	show("granularity null out", cuMemGetAllocationGranularity(NULL, &p,
		CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	show("granularity bad option", cuMemGetAllocationGranularity(&g, &p,
		(CUmemAllocationGranularity_flags)5));
	p = dev_prop(ndev, CU_MEM_HANDLE_TYPE_NONE);
	show("granularity bad device", cuMemGetAllocationGranularity(&g, &p,
		CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	p.type = CU_MEM_ALLOCATION_TYPE_INVALID;
	show("granularity bad type", cuMemGetAllocationGranularity(&g, &p,
		CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	p.location.type = CU_MEM_LOCATION_TYPE_INVALID;
	show("granularity bad location", cuMemGetAllocationGranularity(&g, &p,
		CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	if (!gran)
		return 1;

	/* cuMemCreate. */
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	show("create size 0", cuMemCreate(&h, 0, &p, 0));
	show("create unaligned", cuMemCreate(&h, gran + 4096, &p, 0));
	show("create half granule", cuMemCreate(&h, gran / 2, &p, 0));
	show("create flags", cuMemCreate(&h, gran, &p, 1));
	show("create null prop", cuMemCreate(&h, gran, NULL, 0));
	show("create null handle", cuMemCreate(NULL, gran, &p, 0));
	p = dev_prop(ndev, CU_MEM_HANDLE_TYPE_NONE);
	show("create bad device", cuMemCreate(&h, gran, &p, 0));
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	p.type = CU_MEM_ALLOCATION_TYPE_INVALID;
	show("create bad type", cuMemCreate(&h, gran, &p, 0));
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	show("create 2 granules", cuMemCreate(&h, 2 * gran, &p, 0));
	props("created", h);
	show("props null", cuMemGetAllocationPropertiesFromHandle(NULL, h));
	props("bad handle", 0);

	/* cuMemAddressReserve. */
	show("reserve size 0", cuMemAddressReserve(&va, 0, 0, 0, 0));
	show("reserve unaligned", cuMemAddressReserve(&va, gran + 4096, 0, 0, 0));
	show("reserve alignment 3", cuMemAddressReserve(&va, gran, 3, 0, 0));
	show("reserve flags", cuMemAddressReserve(&va, gran, 0, 0, 1));
	show("reserve null", cuMemAddressReserve(NULL, gran, 0, 0, 0));
	show("reserve 8 granules", cuMemAddressReserve(&base, 8 * gran, 0, 0, 0));
	printf("reserve aligned to granule: %d\n", base % gran == 0);
	r = cuMemAddressReserve(&other, 4 * gran, 0, base + 8 * gran, 0);
	printf("reserve at fixed address: %d same %d\n", (int)r,
	       other == base + 8 * gran);
	va = 0;
	r = cuMemAddressReserve(&va, 2 * gran, 4 * gran, 0, 0);
	printf("reserve with alignment: %d aligned %d\n", (int)r,
	       va % (4 * gran) == 0);
	if (!r)
		show("address free aligned", cuMemAddressFree(va, 2 * gran));

	/* cuMemMap. */
	show("map unaligned size", cuMemMap(base, gran + 4096, 0, h, 0));
	show("map unaligned offset", cuMemMap(base, gran, 4096, h, 0));
	show("map unaligned va", cuMemMap(base + 4096, gran, 0, h, 0));
	show("map past object", cuMemMap(base, 2 * gran, gran, h, 0));
	show("map bigger than object", cuMemMap(base, 3 * gran, 0, h, 0));
	show("map flags", cuMemMap(base, 2 * gran, 0, h, 1));
	show("map bad handle", cuMemMap(base, 2 * gran, 0, 0, 0));
	show("map size 0", cuMemMap(base, 0, 0, h, 0));
	show("map", cuMemMap(base, 2 * gran, 0, h, 0));
	show("map over mapping", cuMemMap(base, 2 * gran, 0, h, 0));
	show("map overlapping", cuMemMap(base + gran, 2 * gran, 0, h, 0));
	show("map second half at end", cuMemMap(base + 6 * gran, gran, gran, h, 0));
	get_access("mapped, before set access", base, 0);
	show("memset before set access", cuMemsetD32(base, 7, 4));
	show("copy before set access", cuMemcpyHtoD(base, host, 16));

	/* cuMemSetAccess. */
	show("set access count 0", cuMemSetAccess(base, 2 * gran, &rw, 0));
	show("set access null", cuMemSetAccess(base, 2 * gran, NULL, 1));
	show("set access unmapped", cuMemSetAccess(base + 2 * gran, gran, &rw, 1));
	show("set access unaligned", cuMemSetAccess(base, 4096, &rw, 1));
	d = access_desc(ndev, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	show("set access bad device", cuMemSetAccess(base, 2 * gran, &d, 1));
	d = access_desc(0, (CUmemAccess_flags)7);
	show("set access bad flags", cuMemSetAccess(base, 2 * gran, &d, 1));
	show("set access part", cuMemSetAccess(base, gran, &rw, 1));
	get_access("part", base, 0);
	get_access("other part", base + gran, 0);
	show("set access", cuMemSetAccess(base, 2 * gran, &rw, 1));
	get_access("after set access", base, 0);
	get_access("after set access, inside", base + gran + 12345, 0);
	get_access("unmapped", base + 2 * gran, 0);
	get_access("not reserved", 0x1000, 0);
	get_access("bad device", base, ndev);
	show("set access across two mappings",
	     cuMemSetAccess(base, 7 * gran, &rw, 1));
	show("set access both mappings exactly", cuMemSetAccess(base, gran, &rw, 1));
	d = access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READ);
	show("set access read only", cuMemSetAccess(base, 2 * gran, &d, 1));
	get_access("read only", base, 0);
	d = access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
	show("set access none", cuMemSetAccess(base, 2 * gran, &d, 1));
	get_access("none", base, 0);
	show("set access again", cuMemSetAccess(base, 2 * gran, &rw, 1));

	/* Use it: a kernel writes, the host reads back. */
	if (cuModuleLoadData(&mod, ptx) || cuModuleGetFunction(&fn, mod, "fill"))
		return 1;
	n = 64;
	val = 1000;
	args[0] = &base;
	args[1] = &n;
	args[2] = &val;
	show("launch", cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, args, NULL));
	show("sync", cuCtxSynchronize());
	memset(host, 0, sizeof(host));
	show("read back", cuMemcpyDtoH(host, base, sizeof(host)));
	printf("values: %u %u %u\n", host[0], host[1], host[63]);
	/* The end mapping shows the second granule of the same object. */
	show("memset second granule", cuMemsetD32(base + gran, 0xabcd, 1));
	show("set access end", cuMemSetAccess(base + 6 * gran, gran, &rw, 1));
	val = 0;
	show("read alias", cuMemcpyDtoH(&val, base + 6 * gran, 4));
	printf("alias value: %x\n", val);
	show("copy across two mappings", cuMemcpyDtoH(host, base + 2 * gran - 16, 32));

	/* cuMemRetainAllocationHandle. */
	r = cuMemRetainAllocationHandle(&h2, (void *)(uintptr_t)(base + gran + 64));
	printf("retain inside: %d same %d\n", (int)r, h2 == h);
	props("retained", h2);
	show("release retained", cuMemRelease(h2));
	r = cuMemRetainAllocationHandle(&h2, (void *)(uintptr_t)(base + 3 * gran));
	printf("retain unmapped: %d\n", (int)r);
	r = cuMemRetainAllocationHandle(&h2, (void *)(uintptr_t)host);
	printf("retain host: %d\n", (int)r);

	/* cuMemUnmap. */
	show("unmap part", cuMemUnmap(base, gran));
	show("unmap tail part", cuMemUnmap(base + gran, gran));
	show("unmap unaligned", cuMemUnmap(base, gran + 4096));
	show("unmap unmapped", cuMemUnmap(base + 2 * gran, gran));
	show("unmap more than mapping", cuMemUnmap(base, 3 * gran));
	show("unmap size 0", cuMemUnmap(base, 0));
	show("address free while mapped", cuMemAddressFree(base, 8 * gran));
	show("address free part", cuMemAddressFree(base, gran));
	show("address free unreserved", cuMemAddressFree(0x10000, gran));

	/* Release while mapped: the memory stays until unmapped. */
	show("release while mapped", cuMemRelease(h));
	val = 0;
	show("read after release", cuMemcpyDtoH(&val, base + 4, 4));
	printf("value after release: %u\n", val);
	show("release again", cuMemRelease(h));
	show("unmap end", cuMemUnmap(base + 6 * gran, gran));
	show("unmap", cuMemUnmap(base, 2 * gran));
	show("unmap again", cuMemUnmap(base, 2 * gran));
	get_access("after unmap", base, 0);
	r = cuMemRetainAllocationHandle(&h2, (void *)(uintptr_t)base);
	printf("retain after unmap: %d\n", (int)r);

	/* Export and import through a POSIX file descriptor. */
	show("create no export type", cuMemCreate(&h3, gran, &p, 0));
	show("export without type", cuMemExportToShareableHandle(&fd, h3,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	show("release no export type", cuMemRelease(h3));
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	show("create posix fd", cuMemCreate(&hfd, gran, &p, 0));
	props("posix fd", hfd);
	show("export flags", cuMemExportToShareableHandle(&fd, hfd,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
	show("export other type", cuMemExportToShareableHandle(&fd, hfd,
		CU_MEM_HANDLE_TYPE_FABRIC, 0));
	show("export null", cuMemExportToShareableHandle(NULL, hfd,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	fd = -1;
	show("export", cuMemExportToShareableHandle(&fd, hfd,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	printf("export fd valid: %d\n", fd >= 0);
	show("import", cuMemImportFromShareableHandle(&himp,
		(void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	props("imported", himp);
	show("import bad fd", cuMemImportFromShareableHandle(&h2,
		(void *)(uintptr_t)12345, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	show("import stdin", cuMemImportFromShareableHandle(&h2,
		(void *)(uintptr_t)0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd);
	show("map exported", cuMemMap(base, gran, 0, hfd, 0));
	show("map imported", cuMemMap(base + gran, gran, 0, himp, 0));
	show("set access both", cuMemSetAccess(base, 2 * gran, &rw, 1));
	show("memset exported", cuMemsetD32(base + 8, 0x5151, 1));
	val = 0;
	show("read imported", cuMemcpyDtoH(&val, base + gran + 8, 4));
	printf("imported value: %x\n", val);
	show("unmap both", cuMemUnmap(base, 2 * gran));
	show("release exported", cuMemRelease(hfd));
	show("release imported", cuMemRelease(himp));
	show("address free other", cuMemAddressFree(other, 4 * gran));

	/* Access without cuMemSetAccess: the kernel faults. */
	p = dev_prop(0, CU_MEM_HANDLE_TYPE_NONE);
	show("create for fault", cuMemCreate(&h, gran, &p, 0));
	show("map for fault", cuMemMap(base, gran, 0, h, 0));
	n = 1;
	show("launch without access",
	     cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));
	show("sync without access", cuCtxSynchronize());
	show("unmap after fault", cuMemUnmap(base, gran));
	show("release after fault", cuMemRelease(h));
	show("address free after fault", cuMemAddressFree(base, 8 * gran));
	return 0;
}
