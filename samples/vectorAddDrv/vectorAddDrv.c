// SPDX-License-Identifier: GPL-2.0
/*
 * vectorAddDrv - vector addition with the CUDA driver API.
 *
 * Unlike a runtime-API program, nothing is linked into this one: it loads
 * the device code at run time, once as PTX text and once as a fatbinary
 * (both made by nvcc from vectorAdd_kernel.cu and installed next to the
 * executable), launches the kernel from each module and checks the
 * results against the CPU.  Prints PASSED or FAILED.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>

#define N		50000
#define THREADS		256

#define CHECK(call)							\
	do {								\
		CUresult r_ = (call);					\
		if (r_ != CUDA_SUCCESS) {				\
			const char *s_ = "?";				\
			cuGetErrorName(r_, &s_);			\
			fprintf(stderr, "%s:%d: %s failed: %s\n",	\
				__FILE__, __LINE__, #call, s_);		\
			printf("FAILED\n");				\
			exit(1);					\
		}							\
	} while (0)

/* The kernel files lie next to the executable. */
static void kernel_path(const char *ext, char *path, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0) {
		snprintf(path, len, "vectorAdd_kernel.%s", ext);
		return;
	}
	exe[n] = '\0';
	snprintf(path, len, "%s/vectorAdd_kernel.%s", dirname(exe), ext);
}

/* Load @file, run VecAdd_kernel on the inputs, compare with the CPU. */
static int run_module(const char *file, const float *a, const float *b)
{
	size_t bytes = N * sizeof(float);
	float *c = malloc(bytes);
	CUdeviceptr da, db, dc;
	CUmodule mod;
	CUfunction fn;
	int n = N, errors = 0;
	void *args[] = { &da, &db, &dc, &n };

	CHECK(cuModuleLoad(&mod, file));
	CHECK(cuModuleGetFunction(&fn, mod, "VecAdd_kernel"));
	CHECK(cuMemAlloc(&da, bytes));
	CHECK(cuMemAlloc(&db, bytes));
	CHECK(cuMemAlloc(&dc, bytes));
	CHECK(cuMemcpyHtoD(da, a, bytes));
	CHECK(cuMemcpyHtoD(db, b, bytes));
	CHECK(cuLaunchKernel(fn, (N + THREADS - 1) / THREADS, 1, 1,
			     THREADS, 1, 1, 0, NULL, args, NULL));
	CHECK(cuCtxSynchronize());
	CHECK(cuMemcpyDtoH(c, dc, bytes));
	for (int i = 0; i < N; i++)
		if (c[i] != a[i] + b[i] && errors++ < 5)
			fprintf(stderr, "c[%d] = %f, expected %f\n", i, c[i],
				a[i] + b[i]);
	printf("%s: %s\n", strrchr(file, '/') ? strrchr(file, '/') + 1 : file,
	       errors ? "mismatch" : "ok");
	CHECK(cuMemFree(da));
	CHECK(cuMemFree(db));
	CHECK(cuMemFree(dc));
	CHECK(cuModuleUnload(mod));
	free(c);
	return errors;
}

int main(void)
{
	float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
	char name[128], path[PATH_MAX + 32];
	CUcontext ctx;
	CUdevice dev;
	int errors;

	for (int i = 0; i < N; i++) {
		a[i] = (float)rand() / (float)RAND_MAX;
		b[i] = (float)rand() / (float)RAND_MAX;
	}
	CHECK(cuInit(0));
	CHECK(cuDeviceGet(&dev, 0));
	CHECK(cuDeviceGetName(name, sizeof(name), dev));
	printf("Vector addition of %d elements on \"%s\"\n", N, name);
	CHECK(cuCtxCreate(&ctx, NULL, 0, dev));

	kernel_path("ptx", path, sizeof(path));
	errors = run_module(path, a, b);
	kernel_path("fatbin", path, sizeof(path));
	errors += run_module(path, a, b);

	CHECK(cuCtxDestroy(ctx));
	free(a);
	free(b);
	printf("%s\n", errors ? "FAILED" : "PASSED");
	return errors ? 1 : 0;
}
