// SPDX-License-Identifier: GPL-2.0
/*
 * Peer access between two devices (num_devices=2, test_cu_peer.vmargs):
 * a kernel of device 1 loads, stores and atomically adds to memory of
 * device 0 through its own page tables once cuCtxEnablePeerAccess mapped
 * it (allocations made before and after the call), alongside device 0's
 * own atomics on the same word; peer copies (cuMemcpyPeer[Async],
 * cuMemcpy between devices, cuMemcpy3DPeer) with access enabled; the
 * mapping gone after cuCtxDisablePeerAccess (the kernel faults); contexts
 * destroyed in either order; and the errors CUDA documents and the H100
 * recorded (probe_peer.h100.txt).  Results are checked against host
 * arithmetic.
 */
#include <string.h>
#include <unistd.h>

#include "cuda_test.h"

#define N	1000u
#define BLOCK	128u

/* out[i] = 2 * in[i]; *cnt += 1 for each i < n. */
static const char *ptx =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry peer(.param .u64 in, .param .u64 out,"
	" .param .u64 cnt, .param .u32 n) {\n"
	" .reg .b32 %r<9>; .reg .b64 %rd<7>; .reg .pred %p1;\n"
	" ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];"
	" ld.param.u64 %rd6, [cnt]; ld.param.u32 %r1, [n];\n"
	" mov.u32 %r5, %ctaid.x; mov.u32 %r6, %ntid.x; mov.u32 %r7, %tid.x;\n"
	" mad.lo.u32 %r2, %r5, %r6, %r7;\n"
	" setp.ge.u32 %p1, %r2, %r1; @%p1 bra DONE;\n"
	" mul.wide.u32 %rd3, %r2, 4; add.u64 %rd4, %rd1, %rd3;"
	" add.u64 %rd5, %rd2, %rd3;\n"
	" ld.global.u32 %r3, [%rd4]; shl.b32 %r4, %r3, 1;"
	" st.global.u32 [%rd5], %r4;\n"
	" atom.global.add.u32 %r8, [%rd6], 1;\n"
	"DONE: ret;\n}\n";

static CUresult launch(CUfunction fn, CUdeviceptr in, CUdeviceptr out,
		       CUdeviceptr cnt, unsigned int n)
{
	void *args[] = { &in, &out, &cnt, &n };

	return cuLaunchKernel(fn, (n + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1,
			      0, NULL, args, NULL);
}

static CUresult load(CUcontext ctx, CUmodule *mod, CUfunction *fn)
{
	CUresult res = cuCtxSetCurrent(ctx);

	if (res == CUDA_SUCCESS)
		res = cuModuleLoadData(mod, ptx);
	if (res == CUDA_SUCCESS)
		res = cuModuleGetFunction(fn, *mod, "peer");
	return res;
}

TEST(kernel_of_device_1_uses_memory_of_device_0)
{
	unsigned int host[N], back[N], cnt = 0;
	CUdeviceptr in, out, count, later;
	CUcontext ctx0, ctx1;
	CUmodule mod0, mod1;
	CUfunction fn0, fn1;

	for (unsigned int i = 0; i < N; i++)
		host[i] = i * 7 + 3;
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx1, 1));
	ASSERT_EQ(CUDA_SUCCESS, load(ctx0, &mod0, &fn0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&in, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&out, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&count, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(in, host, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(out, 0, N));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(count, 0, 1));
	/* Device 1's kernel is not ordered with device 0's stream. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());

	ASSERT_EQ(CUDA_SUCCESS, load(ctx1, &mod1, &fn1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0, 0));
	/* Device 1 reads, writes and adds in device 0's VRAM... */
	ASSERT_EQ(CUDA_SUCCESS, launch(fn1, in, out, count, N));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	/* ...and device 0 adds to the same word: the sum of both. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, launch(fn0, in, out, count, N));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, out, sizeof(back)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&cnt, count, 4));
	for (unsigned int i = 0; i < N; i++)
		ASSERT_EQ(host[i] * 2, back[i]);
	ASSERT_EQ(2 * N, cnt);

	/* Memory of device 0 allocated after the enable is mapped too. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&later, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(later, 0, N));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, launch(fn1, in, later, count, N));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, later, sizeof(back)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&cnt, count, 4));
	for (unsigned int i = 0; i < N; i++)
		ASSERT_EQ(host[i] * 2, back[i]);
	ASSERT_EQ(3 * N, cnt);

	/* Freed on device 0 while mapped on device 1: gone from both. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(later));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&later, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(later));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(mod1));
}

TEST(peer_copies_with_access_enabled)
{
	unsigned char host[300000], back[300000];
	CUDA_MEMCPY3D_PEER p;
	CUcontext ctx0, ctx1;
	CUdeviceptr a, b;
	CUstream s;

	for (size_t i = 0; i < sizeof(host); i++)
		host[i] = (unsigned char)(i * 13 + (i >> 11));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(a, host, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0, 0));

	/* cuMemcpyPeer: device 0 -> device 1, by device 1's engine. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyPeer(b, ctx1, a, ctx0, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, b, sizeof(back)));
	ASSERT_EQ(0, memcmp(host, back, sizeof(host)));

	/* Async on a stream of device 1, and back with unified cuMemcpy. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(b, 0, sizeof(host)));
	/* A non-blocking stream does not wait for the legacy stream's memset. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyPeerAsync(b + 1, ctx1, a + 1, ctx0,
						  sizeof(host) - 2, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, b, sizeof(back)));
	ASSERT_EQ(0, back[0]);
	ASSERT_EQ(0, memcmp(host + 1, back + 1, sizeof(host) - 2));
	ASSERT_EQ(0, back[sizeof(back) - 1]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(b, host + 7, sizeof(host) - 7));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy(a, b, sizeof(host) - 7));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, a, sizeof(back)));
	ASSERT_EQ(0, memcmp(host + 7, back, sizeof(host) - 7));

	/* A 3D box from device 1 to device 0: 100 x 20 x 3 of pitch 1000. */
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = b;
	p.srcContext = ctx1;
	p.srcPitch = 1000;
	p.srcHeight = 20;
	p.dstDevice = a;
	p.dstContext = ctx0;
	p.dstPitch = 1000;
	p.dstHeight = 20;
	p.WidthInBytes = 100;
	p.Height = 20;
	p.Depth = 3;
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(a, 0xee, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3DPeer(&p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, a, sizeof(back)));
	for (size_t i = 0; i < 60000; i++) {
		int inside = i % 1000 < 100;

		ASSERT_EQ(inside ? host[7 + i] : 0xee, back[i]);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx0));
}

TEST(disabled_access_faults)
{
	CUcontext ctx0, ctx1b;
	CUdeviceptr in, count;
	CUmodule mod;
	CUfunction fn;
	CUdevice d1;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&in, 4 * N));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&count, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&d1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx1b, NULL, 0, d1));
	ASSERT_EQ(CUDA_SUCCESS, load(ctx1b, &mod, &fn));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, launch(fn, in, in, count, N));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx0));
	/* The PTEs are gone: device 1 touching device 0's memory faults. */
	ASSERT_EQ(CUDA_SUCCESS, launch(fn, in, in, count, N));
	ASSERT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx1b));
}

TEST(contexts_destroyed_in_either_order)
{
	CUcontext ctx0b, ctx1b, ctx1c;
	CUdevice d0, d1;
	CUdeviceptr a, b;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&d0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&d1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx0b, NULL, 0, d0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, 1 << 20));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx1b, NULL, 0, d1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, 1 << 20));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0b, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx1c, NULL, 0, d1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0b, 0));
	/* The importer first: its links and peer handles go with it. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx1b));
	/* Then the owner, while ctx1c still maps its memory. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx0b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1c));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxDisablePeerAccess(ctx0b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx1c));
}

TEST(peer_errors_and_attributes)
{
	CUcontext ctx0, ctx1, other1;
	CUdevice d1;
	int v = -1;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, 0, 1));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, 1, 0));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, 0, 0));
	ASSERT_EQ(0, v);
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&v, 0, 2));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(NULL, 0, 1));

	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v,
		  CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v,
		  CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, 1, 0));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v,
		  CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1));
	ASSERT_EQ(0, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v,
		  CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED, 0, 1));
	ASSERT_EQ(0, v);
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v,
		  CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 1, 1));

	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	/* Itself, or another context of its device: unsupported (217). */
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
		  cuCtxEnablePeerAccess(ctx1, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&d1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&other1, NULL, 0, d1));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
		  cuCtxEnablePeerAccess(ctx1, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(other1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxEnablePeerAccess(ctx0, 1));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT,
		  cuCtxEnablePeerAccess((CUcontext)(uintptr_t)0x42, 0));
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(NULL, 0));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
		  cuCtxDisablePeerAccess(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0, 0));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
		  cuCtxEnablePeerAccess(ctx0, 0));
	/* One way only: device 0 has not enabled access to device 1. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
		  cuCtxDisablePeerAccess(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx0));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
		  cuCtxDisablePeerAccess(ctx0));
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
