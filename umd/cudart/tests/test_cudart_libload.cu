// SPDX-License-Identifier: GPL-2.0
//
// The runtime's library loading (guest test): cudaLibraryLoadFromFile of
// the fatbinary nvcc built for the driver-API tests
// (build/tests/cuda-data/drv_kernels.fatbin), its kernels launched with
// cudaLaunchKernel through their cudaKernel_t, its globals, kernel
// attributes per device, and cudaGetKernel of a kernel of this program.
// Results are checked against the CPU.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "rt_tap.h"

#define N 1024

__global__ void twice(int *p)
{
	p[threadIdx.x] *= 2;
}

static void test_library(void)
{
	static float ha[N], hb[N], hc[N];
	char path[512];
	cudaLibrary_t lib;
	cudaKernel_t add, shared, own;
	struct cudaFuncAttributes fa;
	unsigned int count = 0;
	float *a, *b, *c;
	int n = N, v = 0, *managed = NULL, *d;
	void *g = NULL;
	size_t bytes = 0;
	void *args[] = { &a, &b, &c, &n };
	bool ok = true;

	snprintf(path, sizeof(path), "%s/tests/cuda-data/drv_kernels.fatbin",
		 rt_test_build_dir());
	TAP(OK(cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL,
				       0)), "cudaLibraryLoadFromFile(%s)", path);
	TAP(OK(cudaLibraryGetKernelCount(&count, lib)) && count > 1,
	    "cudaLibraryGetKernelCount: %u", count);
	TAP(OK(cudaLibraryGetKernel(&add, lib, "vec_add")),
	    "cudaLibraryGetKernel(vec_add)");
	for (int i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 1.0f / (float)(i + 1);
	}
	ok = OK(cudaMalloc((void **)&a, sizeof(ha))) &&
	     OK(cudaMalloc((void **)&b, sizeof(hb))) &&
	     OK(cudaMalloc((void **)&c, sizeof(hc))) &&
	     OK(cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice)) &&
	     OK(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice)) &&
	     OK(cudaLaunchKernel((const void *)add, dim3(N / 128), dim3(128),
				 args, 0, 0)) &&
	     OK(cudaMemcpy(hc, c, sizeof(hc), cudaMemcpyDeviceToHost));
	for (int i = 0; ok && i < N; i++)
		ok = hc[i] == ha[i] + hb[i];
	TAP(ok, "cudaLaunchKernel of a library's cudaKernel_t");
	cudaFree(a);
	cudaFree(b);
	cudaFree(c);
	TAP(OK(cudaLibraryGetGlobal(&g, &bytes, lib, "dev_counter")) &&
	    bytes == sizeof(int) &&
	    OK(cudaMemcpy(&v, g, sizeof(v), cudaMemcpyDeviceToHost)) && v == 7,
	    "cudaLibraryGetGlobal: %zu bytes, value %d", bytes, v);
	TAP(OK(cudaLibraryGetManaged((void **)&managed, &bytes, lib,
				     "drv_managed")) &&
	    managed && *managed == 11,
	    "cudaLibraryGetManaged: the host reads it");
	TAP(IS(cudaErrorSymbolNotFound,
	       cudaLibraryGetGlobal(&g, &bytes, lib, "nope")),
	    "cudaLibraryGetGlobal of an unknown name");
	cudaGetLastError();
	TAP(OK(cudaLibraryGetKernel(&shared, lib, "use_shared")) &&
	    OK(cudaKernelSetAttributeForDevice(shared,
			cudaFuncAttributeMaxDynamicSharedMemorySize, 2048, 0)) &&
	    OK(cudaFuncGetAttributes(&fa, (const void *)shared)) &&
	    fa.maxDynamicSharedSizeBytes == 2048,
	    "cudaKernelSetAttributeForDevice on a library kernel");
	TAP(OK(cudaGetKernel(&own, (const void *)twice)) &&
	    OK(cudaKernelSetAttributeForDevice(own,
			cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0)) &&
	    OK(cudaFuncGetAttributes(&fa, (const void *)twice)) &&
	    fa.maxDynamicSharedSizeBytes == 1024,
	    "cudaKernelSetAttributeForDevice on this program's kernel");
	ok = OK(cudaMalloc((void **)&d, 32 * sizeof(int))) &&
	     OK(cudaMemset(d, 0, 32 * sizeof(int)));
	v = 0;
	if (ok) {
		int h[32];

		for (int i = 0; i < 32; i++)
			h[i] = i;
		void *targs[] = { &d };

		ok = OK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice)) &&
		     OK(cudaLaunchKernel((const void *)own, dim3(1), dim3(32),
					 targs, 0, 0)) &&
		     OK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
		for (int i = 0; ok && i < 32; i++)
			ok = h[i] == 2 * i;
		cudaFree(d);
	}
	TAP(ok, "cudaLaunchKernel of cudaGetKernel's handle");
	TAP(OK(cudaLibraryUnload(lib)), "cudaLibraryUnload");
	TAP(IS(cudaErrorInvalidResourceHandle,
	       cudaLibraryGetKernel(&add, NULL, "vec_add")),
	    "cudaLibraryGetKernel of no library");
	cudaGetLastError();
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware");
	test_library();
	fw_launcher_stop(fw);
	return tap_finish();
}
