// SPDX-License-Identifier: GPL-2.0
/*
 * libcudart.so.13 as a library (native test): it loads against our
 * libcuda.so.1 with every reference resolved (RTLD_NOW fails on any cu*
 * function the driver does not export), exports what nvcc-built programs
 * import under the version node they import it from, keeps its internals
 * hidden, and without a vGPU device answers as CUDA does on a machine
 * without a GPU.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "kselftest.h"

/* What nvcc 13's host code and a typical program import. */
static const char *const abi_symbols[] = {
	"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd",
	"__cudaUnregisterFatBinary", "__cudaRegisterFunction",
	"__cudaRegisterVar", "__cudaRegisterManagedVar", "__cudaInitModule",
	"__cudaPushCallConfiguration", "__cudaPopCallConfiguration",
	"__cudaGetKernel", "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz",
	"cudaLaunchKernel", "cudaMalloc", "cudaFree", "cudaMemcpy",
	"cudaGetLastError", "cudaGetErrorString", "cudaDeviceSynchronize",
	"cudaGetDeviceProperties", "cudaEventElapsedTime",
	"cudaMemcpyToSymbol", "cudaHostAlloc", "cudaStreamCreate",
};

static void *open_runtime(char *why, size_t size)
{
	char lib[PATH_MAX];
	void *h;

	/*
	 * Load our libcuda.so.1 first, by path: the loader then satisfies
	 * libcudart's "NEEDED libcuda.so.1" with it, by its SONAME.
	 */
	snprintf(lib, sizeof(lib), "%s/libcuda.so.1", CUDART_TEST_LIB);
	if (!dlopen(lib, RTLD_NOW | RTLD_GLOBAL)) {
		snprintf(why, size, "%s", dlerror());
		return NULL;
	}
	snprintf(lib, sizeof(lib), "%s/libcudart.so.13", CUDART_TEST_LIB);
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		snprintf(why, size, "%s", dlerror());
	return h;
}

int main(void)
{
	char why[512] = "";
	void *h = open_runtime(why, sizeof(why));
	int missing = 0;

	ksft_print_header();
	ksft_set_plan(4);
	ksft_test_result(h != NULL, "loads with every driver call resolved%s%s\n",
			 h ? "" : ": ", why);
	if (!h)
		ksft_exit_fail();
	for (size_t i = 0; i < sizeof(abi_symbols) / sizeof(abi_symbols[0]);
	     i++) {
		if (!dlvsym(h, abi_symbols[i], "libcudart.so.13")) {
			ksft_print_msg("%s@libcudart.so.13 missing\n",
				       abi_symbols[i]);
			missing++;
		}
	}
	ksft_test_result(!missing, "exports nvcc's ABI in node libcudart.so.13\n");
	ksft_test_result(!dlsym(h, "rt_enter") && !dlsym(h, "rt_return") &&
			 !dlsym(h, "rt_function_lookup"),
			 "keeps its internals hidden\n");

	if (access("/dev/vgpu0", F_OK) == 0) {
		ksft_test_result_skip("no-device behaviour: a device is present\n");
	} else {
		cudaError_t (*count)(int *) = (cudaError_t (*)(int *))
			dlsym(h, "cudaGetDeviceCount");
		const char *(*name)(cudaError_t) = (const char *(*)(cudaError_t))
			dlsym(h, "cudaGetErrorName");
		cudaError_t (*malloc_fn)(void **, size_t) =
			(cudaError_t (*)(void **, size_t))dlsym(h, "cudaMalloc");
		cudaError_t (*last)(void) = (cudaError_t (*)(void))
			dlsym(h, "cudaGetLastError");
		int n = -1;
		void *p;
		cudaError_t e1 = count(&n), e2 = malloc_fn(&p, 16);
		cudaError_t e3 = last();

		ksft_print_msg("cudaGetDeviceCount: %s, count %d; cudaMalloc: "
			       "%s\n", name(e1), n, name(e2));
		ksft_test_result(e1 == cudaErrorNoDevice && n == 0 &&
				 e2 == cudaErrorNoDevice &&
				 e3 == cudaErrorNoDevice,
				 "without a device: cudaErrorNoDevice, count 0\n");
	}
	dlclose(h);
	ksft_finished();
}
