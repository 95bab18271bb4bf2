// SPDX-License-Identifier: GPL-2.0
/*
 * Context-independent code: cuLibrary*, cuKernel*, a CUkernel launched
 * through cuLaunchKernel, one library in two contexts, and the loading
 * modes (CUDA_MODULE_LOADING).  The code is tests/kernels/drv_kernels.cu,
 * built by nvcc as a fatbinary and as PTX; results are checked against
 * the CPU, error codes against what an H100 answered
 * (tools/cuda-probe/golden/probe_pools.h100.txt).
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"

/* The whole file, NUL-terminated. */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf)
			buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

/* Launch vec_add through @f on n floats and check it against the CPU. */
static int vec_add_ok(CUfunction f)
{
	enum { n = 1024 };
	static float ha[n], hb[n], hc[n];
	CUdeviceptr a, b, c;
	int nn = n, ok = 1;
	void *args[] = { &a, &b, &c, &nn };

	for (int i = 0; i < n; i++) {
		ha[i] = (float)i;
		hb[i] = 3.0f * (float)i + 0.5f;
	}
	if (cuMemAlloc(&a, sizeof(ha)) || cuMemAlloc(&b, sizeof(hb)) ||
	    cuMemAlloc(&c, sizeof(hc)) || cuMemcpyHtoD(a, ha, sizeof(ha)) ||
	    cuMemcpyHtoD(b, hb, sizeof(hb)) ||
	    cuLaunchKernel(f, n / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL) ||
	    cuMemcpyDtoH(hc, c, sizeof(hc)))
		return 0;
	for (int i = 0; i < n; i++)
		ok &= hc[i] == ha[i] + hb[i];
	cuMemFree(a);
	cuMemFree(b);
	cuMemFree(c);
	return ok;
}

TEST(fatbinary_file_enumerate_and_launch)
{
	CUcontext ctx;
	CUlibrary lib, owner;
	CUkernel k, ks[64];
	CUmodule m;
	CUfunction f, mf;
	unsigned int n = 0, i, fn = 0;
	const char *name;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryLoadFromFile(&lib, DRV_FATBIN, NULL,
						      NULL, 0, NULL, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernelCount(&n, lib));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetModule(&m, lib));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunctionCount(&fn, m));
	EXPECT_EQ(fn, n);
	ASSERT_LE(n, 64);
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryEnumerateKernels(ks, n, lib));
	/* Every kernel by its name: the same handle, the module's function. */
	for (i = 0; i < n; i++) {
		ASSERT_EQ(CUDA_SUCCESS, cuKernelGetName(&name, ks[i]));
		ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, name));
		EXPECT_EQ(ks[i], k);
		ASSERT_EQ(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
		ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&mf, m, name));
		EXPECT_EQ(mf, f);
		ASSERT_EQ(CUDA_SUCCESS, cuKernelGetLibrary(&owner, k));
		EXPECT_EQ(lib, owner);
	}
	/* Fewer slots than kernels, and none: both succeed (measured). */
	EXPECT_EQ(CUDA_SUCCESS, cuLibraryEnumerateKernels(ks, 1, lib));
	EXPECT_EQ(CUDA_SUCCESS, cuLibraryEnumerateKernels(ks, 0, lib));
	EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&k, lib, "nope"));
	/* cuLaunchKernel takes the CUkernel itself. */
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "vec_add"));
	EXPECT_TRUE(vec_add_ok((CUfunction)k));
	ASSERT_EQ(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	EXPECT_TRUE(vec_add_ok(f));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryUnload(lib));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(lib));
}

TEST(ptx_data_globals_and_attributes)
{
	CUcontext ctx;
	CUlibrary lib;
	CUkernel k;
	CUdeviceptr g;
	size_t bytes = 0;
	int v = 0, *managed;
	char *ptx = read_all(DRV_PTX);

	CU_SETUP(&ctx);
	ASSERT_NE(NULL, ptx);
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryLoadData(&lib, ptx, NULL, NULL, 0,
						  NULL, NULL, 0));
	free(ptx);	/* the library keeps what it needs */
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetGlobal(&g, &bytes, lib,
						   "dev_counter"));
	EXPECT_EQ(sizeof(int), bytes);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, g, sizeof(v)));
	EXPECT_EQ(7, v);
	EXPECT_EQ(CUDA_ERROR_NOT_FOUND,
		  cuLibraryGetGlobal(&g, &bytes, lib, "nope"));
	/* A __managed__ variable: host and device share it. */
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetManaged(&g, &bytes, lib,
						    "drv_managed"));
	managed = (int *)(uintptr_t)g;
	EXPECT_EQ(11, *managed);
	EXPECT_EQ(CUDA_ERROR_NOT_FOUND,
		  cuLibraryGetManaged(&g, &bytes, lib, "dev_counter"));
	/* Attributes per device: __launch_bounds__(128). */
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "bounded"));
	ASSERT_EQ(CUDA_SUCCESS, cuKernelGetAttribute(&v,
			CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 0));
	EXPECT_EQ(128, v);
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuKernelGetAttribute(&v,
			CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 7));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "use_shared"));
	EXPECT_EQ(CUDA_SUCCESS, cuKernelSetAttribute(
			CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, k, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuKernelGetAttribute(&v,
			CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0));
	EXPECT_EQ(1024, v);
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryUnload(lib));
}

/* One library, two contexts: each its own function and its own globals. */
TEST(two_contexts)
{
	CUcontext c1, c2;
	CUlibrary lib;
	CUkernel k;
	CUfunction f1, f2;
	CUdeviceptr g1, g2;
	size_t bytes;
	int v = 42;

	CU_SETUP(&c1);
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryLoadFromFile(&lib, DRV_FATBIN, NULL,
						      NULL, 0, NULL, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "vec_add"));
	ASSERT_EQ(CUDA_SUCCESS, cuKernelGetFunction(&f1, k));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetGlobal(&g1, &bytes, lib,
						   "dev_counter"));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&c2, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuKernelGetFunction(&f2, k));
	EXPECT_NE(f1, f2);
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetGlobal(&g2, &bytes, lib,
						   "dev_counter"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(g2, &v, sizeof(v)));
	EXPECT_TRUE(vec_add_ok((CUfunction)k));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, g2, sizeof(v)));
	EXPECT_EQ(42, v);
	/* The first context's copy is untouched. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, g1, sizeof(v)));
	EXPECT_EQ(7, v);
	EXPECT_TRUE(vec_add_ok((CUfunction)k));
	/* A destroyed context's module goes with it; the library lives on. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(c2));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	EXPECT_TRUE(vec_add_ok((CUfunction)k));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryUnload(lib));
}

TEST(loading_modes_and_errors)
{
	CUcontext ctx;
	CUlibrary lib;
	CUkernel k;
	CUmoduleLoadingMode mode;
	CUlibraryOption o = CU_LIBRARY_BINARY_IS_PRESERVED;
	void *ov = NULL;
	unsigned int n;
	static const char garbage[] = "hello world, not code";

	CU_SETUP(&ctx);
	unsetenv("CUDA_MODULE_LOADING");
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetLoadingMode(&mode));
	EXPECT_EQ(CU_MODULE_LAZY_LOADING, mode);
	/* Lazily, code that does not compile fails at its first use. */
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryLoadData(&lib, garbage, NULL, NULL,
						  0, NULL, NULL, 0));
	EXPECT_NE(CUDA_SUCCESS, cuLibraryGetKernelCount(&n, lib));
	EXPECT_EQ(CUDA_SUCCESS, cuLibraryUnload(lib));
	setenv("CUDA_MODULE_LOADING", "EAGER", 1);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetLoadingMode(&mode));
	EXPECT_EQ(CU_MODULE_EAGER_LOADING, mode);
	EXPECT_NE(CUDA_SUCCESS, cuLibraryLoadData(&lib, garbage, NULL, NULL,
						  0, NULL, NULL, 0));
	/* Eagerly, the library is in the current context at once. */
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryLoadFromFile(&lib, DRV_FATBIN, NULL,
						      NULL, 0, NULL, NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "vec_add"));
	EXPECT_TRUE(vec_add_ok((CUfunction)k));
	ASSERT_EQ(CUDA_SUCCESS, cuLibraryUnload(lib));
	unsetenv("CUDA_MODULE_LOADING");

	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuLibraryLoadData(&lib, NULL,
			NULL, NULL, 0, NULL, NULL, 0));
	EXPECT_EQ(CUDA_ERROR_FILE_NOT_FOUND, cuLibraryLoadFromFile(&lib,
			"/nonexistent.fatbin", NULL, NULL, 0, NULL, NULL, 0));
	EXPECT_EQ(CUDA_ERROR_FILE_NOT_FOUND, cuLibraryLoadFromFile(&lib,
			"/nonexistent.fatbin", NULL, NULL, 0, &o, &ov, 1));
	/* Preserving a file's binary means nothing: refused. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuLibraryLoadFromFile(&lib,
			DRV_FATBIN, NULL, NULL, 0, &o, &ov, 1));
	o = (CUlibraryOption)9;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuLibraryLoadData(&lib, garbage,
			NULL, NULL, 0, &o, &ov, 1));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuLibraryGetKernel(&k, NULL, "vec_add"));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuKernelGetFunction(NULL, (CUkernel)&ctx));
}

CUDA_TEST_MAIN
