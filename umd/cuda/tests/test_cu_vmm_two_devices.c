// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management with two devices (num_devices=2,
 * test_cu_vmm_two_devices.vmargs): memory created on device 1 and made
 * accessible there, used by a kernel of device 1 and by copies issued
 * from device 0's context; access for device 0 refused (VMM mappings
 * are not given to peers yet: CUDA_ERROR_INVALID_DEVICE,
 * Documentation/vmm-peer.rst); an exported descriptor imported on the
 * device it belongs to; and the peer answers for two devices.  Values are
 * checked against the host.
 */
#include <string.h>
#include <unistd.h>

#include "cuda_test.h"

#define GRAN	(2u << 20)

/* out[i] = in[i] + 1 for i < n. */
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
	"DONE: ret;\n}\n";

static CUmemAllocationProp prop_on(int dev, CUmemAllocationHandleType t)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	p.requestedHandleTypes = t;
	return p;
}

static CUmemAccessDesc rw_on(int dev)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof(d));
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	return d;
}

TEST(memory_of_the_second_device)
{
	CUmemAllocationProp p = prop_on(1, CU_MEM_HANDLE_TYPE_NONE);
	CUmemAccessDesc on1 = rw_on(1), on0 = rw_on(0);
	CUmemLocation loc0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemLocation loc1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
	unsigned int host[128], back[128];
	unsigned long long flags = 99;
	CUmemGenericAllocationHandle h;
	CUcontext ctx0, ctx1;
	CUdeviceptr va, other;
	CUmodule mod;
	CUfunction fn;
	unsigned int n = 128;
	void *args[] = { &va, &other, &n };
	int count = 0;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&count));
	ASSERT_EQ(2, count);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));

	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressReserve(&va, 2 * GRAN, 0, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&h, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemMap(va, GRAN, 0, h, 0));
	/* No peer link: device 0 may not be given access. */
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuMemSetAccess(va, GRAN, &on0, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemSetAccess(va, GRAN, &on1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc1, va));
	ASSERT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc0, va));
	ASSERT_EQ(0, flags);

	/* Copies from device 0's context reach it (through device 1). */
	for (unsigned int i = 0; i < n; i++)
		host[i] = 3 * i + 11;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(va, host, sizeof(host)));

	/* A kernel of device 1 reads and writes it. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&other, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "inc"));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, NULL, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoD(va + 4096, other, sizeof(host)));

	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	memset(back, 0, sizeof(back));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, va + 4096, sizeof(back)));
	for (unsigned int i = 0; i < n; i++)
		ASSERT_EQ(host[i] + 1, back[i]);

	ASSERT_EQ(CUDA_SUCCESS, cuMemUnmap(va, GRAN));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAddressFree(va, 2 * GRAN));
}

TEST(import_lands_on_the_owning_device)
{
	CUmemAllocationProp p = prop_on(1, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	CUmemAllocationProp got;
	CUmemGenericAllocationHandle h, imp;
	CUcontext ctx0;
	int fd = -1;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemCreate(&h, GRAN, &p, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemExportToShareableHandle(&fd, h,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemImportFromShareableHandle(&imp,
		(void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd);
	memset(&got, 0xff, sizeof(got));
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&got, imp));
	ASSERT_EQ(CU_MEM_LOCATION_TYPE_DEVICE, got.location.type);
	ASSERT_EQ(1, got.location.id);
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(imp));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRelease(h));
}

TEST(two_devices_are_peers)
{
	CUcontext ctx0, ctx1;
	int v = -1;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, 0, 1));
	ASSERT_EQ(1, v);
	v = -1;
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v,
		CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx1, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx1));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
		  cuCtxDisablePeerAccess(ctx1));
}

/* ---- main: a firmware for each of the two devices ---------------------- */

static pid_t fw1_pid;

static void stop_fw1(void)
{
	if (getpid() == cuda_test_main_pid)
		fw_launcher_stop_on(fw1_pid, 1);
}

int main(int argc, char **argv)
{
	cuda_test_main_pid = getpid();
	if (cuda_test_check_libcuda())
		return 1;
	cuda_test_fw = fw_launcher_start();
	if (cuda_test_fw < 0) {
		printf("Bail out! cannot start vgpu-fw: %d\n", (int)cuda_test_fw);
		return 1;
	}
	atexit(cuda_test_stop_fw);
	/* Without a second device the tests fail and say so. */
	fw1_pid = access("/dev/vgpu1", F_OK) ? 0 : fw_launcher_start_on(1);
	if (fw1_pid < 0) {
		printf("Bail out! cannot start vgpu-fw for vgpu1: %d\n",
		       (int)fw1_pid);
		return 1;
	}
	atexit(stop_fw1);
	return test_harness_run(argc, argv);
}
