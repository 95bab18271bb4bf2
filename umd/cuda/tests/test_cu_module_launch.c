// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_module_launch.c - modules from PTX, fatbin and vISA, globals,
 * kernel launches with both parameter forms, launch-configuration errors,
 * function attributes, occupancy and device printf.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_test.h"
#include "vgpu_visa.h"

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* c = a + b for n floats with kernel @f; 0 when every element is right. */
static int run_vec_add(CUfunction f, int n, int use_extra)
{
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	CUdeviceptr da, db, dc;
	int bad = 0;

	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(n - i);
	}
	if (cuMemAlloc(&da, bytes) || cuMemAlloc(&db, bytes) ||
	    cuMemAlloc(&dc, bytes) || cuMemcpyHtoD(da, a, bytes) ||
	    cuMemcpyHtoD(db, b, bytes))
		return -1;
	if (use_extra) {
		struct { CUdeviceptr a, b, c; int n; } args = { da, db, dc, n };
		/* The PTX parameter list: 3 pointers and an int, no padding. */
		size_t size = 3 * sizeof(CUdeviceptr) + sizeof(int);
		void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &args,
				  CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
				  CU_LAUNCH_PARAM_END };

		if (cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
				   NULL, extra))
			return -1;
	} else {
		void *params[] = { &da, &db, &dc, &n };

		if (cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
				   params, NULL))
			return -1;
	}
	if (cuMemcpyDtoH(c, dc, bytes))
		return -1;
	for (int i = 0; i < n; i++)
		bad += c[i] != a[i] + b[i];
	cuMemFree(da);
	cuMemFree(db);
	cuMemFree(dc);
	free(a);
	free(b);
	free(c);
	return bad;
}

TEST(load_ptx_file_and_launch)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f, g;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "vec_add"));
	ASSERT_EQ(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&g, m, "nope"));
	ASSERT_EQ(0, run_vec_add(f, 1000, 0));
	ASSERT_EQ(0, run_vec_add(f, 4097, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(m));
}

TEST(load_fatbin_and_data)
{
	CUcontext ctx;
	CUmodule m1, m2, m3;
	CUfunction f;
	char *ptx, *fatbin, log[512] = "";
	CUjit_option opts[2] = { CU_JIT_ERROR_LOG_BUFFER,
				 CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[2] = { log, (void *)(uintptr_t)sizeof(log) };

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m1, DRV_FATBIN));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m1, "vec_add"));
	ASSERT_EQ(0, run_vec_add(f, 300, 0));
	ptx = read_text(DRV_PTX);
	ASSERT_NE(NULL, ptx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadData(&m2, ptx));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m2, "vec_add"));
	ASSERT_EQ(0, run_vec_add(f, 77, 0));
	fatbin = read_text(DRV_FATBIN);
	ASSERT_NE(NULL, fatbin);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadFatBinary(&m3, fatbin));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m3));
	/* Measured: text that is not PTX; a missing file. */
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m3,
		  "this is not PTX at all"));
	ASSERT_EQ(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&m3,
		  "/nonexistent/kernel.ptx"));
	/* Broken PTX: the log says where. */
	ASSERT_EQ(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&m3,
		  ".version 8.0\n.target sm_75\n.address_size 64\n"
		  ".visible .entry k() { bogus.instruction; }\n", 2, opts, vals));
	ASSERT_NE(0, strlen(log));
	/*
	 * Well-formed text that breaks a limit (4 GB of parameters; ptxas:
	 * "uses too much parameter space"): invalid PTX at load, not out
	 * of memory or a failure at launch.
	 */
	log[0] = '\0';
	ASSERT_EQ(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&m3,
		  ".version 8.0\n.target sm_75\n.address_size 64\n"
		  ".visible .entry k(.param .align 4 .b8 p[4000000000])\n"
		  "{ ret; }\n", 2, opts, vals));
	ASSERT_NE(NULL, strstr(log, "parameters"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m1));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m2));
	free(ptx);
	free(fatbin);
}

/* Read a whole file into *size bytes. */
static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return buf;
}

/* Write @size bytes to a new temporary file; its path in @path. */
static int write_temp(char *path, const void *data, size_t size)
{
	int fd = mkstemp(path);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, data, size) == (ssize_t)size;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * A vISA image made by vgpu-ptxas loads and runs.  Damaged copies of it
 * (every word of the header and section table changed in turn, loaded
 * from a file so that the library knows the real size) are refused as
 * invalid, or need more memory than there is, or load - but never crash
 * the library or hurt the context.
 */
TEST(visa_image_and_damaged_images)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	size_t size;
	uint32_t *img, *bad;
	CUresult res;

	CU_SETUP(&ctx);
	img = read_file(DRV_VISA, &size);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_VISA));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "vec_add"));
	ASSERT_EQ(0, run_vec_add(f, 500, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));

	bad = malloc(size);
	ASSERT_NE(NULL, bad);
	for (size_t i = 0; i < sizeof(struct visa_image_header) / 4; i++) {
		char path[] = "/tmp/cu_visa_XXXXXX";

		memcpy(bad, img, size);
		bad[i] ^= i & 1 ? 0x7fffffffu : 0x00010101u;
		ASSERT_EQ(0, write_temp(path, bad, size));
		res = cuModuleLoad(&m, path);
		unlink(path);
		if (res == CUDA_SUCCESS) {
			ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
		} else if (res != CUDA_ERROR_OUT_OF_MEMORY) {
			ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE, res);
		}
	}
	memcpy(bad, img, size);
	bad[2] = 8;	/* header_size smaller than the header */
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, bad));
	/* A fatbin header with garbage after it. */
	memset(bad, 0xab, size);
	bad[0] = 0xBA55ED50u;
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, bad));
	free(bad);
	free(img);
	/* The context is still healthy. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
}

TEST(globals_and_constants)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUdeviceptr g, d;
	size_t size = 0;
	float table[4];
	int counter = 0, data[64], n = 64;
	void *params[] = { &d, &n };

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetGlobal(&g, &size, m, "dev_table"));
	ASSERT_EQ(sizeof(table), size);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(table, g, sizeof(table)));
	ASSERT_EQ(1.5f, table[0]);
	ASSERT_EQ(4.5f, table[3]);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetGlobal(&g, &size, m, "dev_counter"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&counter, g, sizeof(counter)));
	ASSERT_EQ(7, counter);
	counter = 100;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(g, &counter, sizeof(counter)));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetGlobal(&g, &size, m, "const_scale"));
	ASSERT_EQ(sizeof(int), size);
	ASSERT_EQ(CUDA_ERROR_NOT_FOUND, cuModuleGetGlobal(&g, &size, m, "nah"));
	/* data[i] = i * const_scale + dev_counter */
	for (int i = 0; i < n; i++)
		data[i] = i;
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(data)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, data, sizeof(data)));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "scale_by_const"));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(data, d, sizeof(data)));
	for (int i = 0; i < n; i++)
		ASSERT_EQ(i * 3 + 100, data[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

TEST(parameter_layout_and_shared)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUdeviceptr d;
	int out[256];
	char c = -5;
	double dbl = 1234.75;
	short s = -300;
	long long ll = 0x123456789abcdefll;
	void *params[] = { &c, &dbl, &s, &ll, &d };
	void *params2[] = { &d };
	size_t off = 0, size = 0;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(out)));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "mixed_params"));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncGetParamInfo(f, 1, &off, &size));
	ASSERT_EQ(8, off);
	ASSERT_EQ(8, size);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(f, 5, &off, &size));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(out, d, 5 * sizeof(int)));
	ASSERT_EQ(-5, out[0]);
	ASSERT_EQ(1234, out[1]);
	ASSERT_EQ(-300, out[2]);
	ASSERT_EQ((int)(ll >> 32), out[3]);
	ASSERT_EQ((int)ll, out[4]);
	/* Dynamic shared memory. */
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "use_shared"));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 256, 1, 1,
					       256 * sizeof(int), NULL,
					       params2, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(out, d, sizeof(out)));
	for (int i = 0; i < 256; i++)
		ASSERT_EQ((255 - i) * 2, out[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

TEST(launch_configuration_errors)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f, fb;
	CUdeviceptr d = 0;
	int n = 1;
	void *params[] = { &d, &d, &d, &n };
	void *pb[] = { &d };
	char buf[8];
	size_t wrong = sizeof(buf);
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
			  CU_LAUNCH_PARAM_BUFFER_SIZE, &wrong,
			  CU_LAUNCH_PARAM_END };

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "vec_add"));
	/* Measured on CUDA 13: all INVALID_VALUE. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1025, 1,
		  1, 0, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 0, 1, 1,
		  0, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 0, 1, 1, 1, 1, 1,
		  0, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1, 1, 65,
		  0, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 65536, 1, 1, 1,
		  1, 0, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1u << 31, 1, 1, 1,
		  1, 1, 0, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1,
		  48 * 1024 + 1, NULL, params, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1,
		  300 * 1024, NULL, params, NULL));
	/* No parameters for a kernel that has some; both forms at once. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1,
		  0, NULL, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1,
		  0, NULL, params, extra));
	/*
	 * An extra buffer shorter than the parameters: refused here.
	 * NVIDIA's driver launched it on an H100 (tools/cuda-probe/README.md:
	 * what still differs), reading past the buffer.
	 */
	ASSERT_EQ(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cuLaunchKernel(f, 1, 1, 1,
		  1, 1, 1, 0, NULL, NULL, extra));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernel((CUfunction)buf, 1,
		  1, 1, 1, 1, 1, 0, NULL, params, NULL));
	/* __launch_bounds__(128) */
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fb, m, "bounded"));
	ASSERT_EQ(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cuLaunchKernel(fb, 1, 1,
		  1, 256, 1, 1, 0, NULL, pb, NULL));
	/* Opting in to more dynamic shared memory. */
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fb, m, "use_shared"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(fb, 1, 1, 1, 32, 1,
		  1, 64 * 1024, NULL, pb, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncSetAttribute(fb,
		  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(fb, 1, 1, 1, 32, 1, 1,
		  64 * 1024, NULL, pb, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(fb,
		  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 300 * 1024));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

TEST(function_attributes_and_occupancy)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f, fb;
	int v, blocks, min_grid, bs;
	const char *name;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "vec_add"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fb, m, "bounded"));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncGetAttribute(&v,
		  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
	ASSERT_EQ(1024, v);
	ASSERT_EQ(CUDA_SUCCESS, cuFuncGetAttribute(&v,
		  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fb));
	ASSERT_EQ(128, v);
	ASSERT_EQ(CUDA_SUCCESS, cuFuncGetAttribute(&v,
		  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
	ASSERT_EQ(0, v);
	ASSERT_EQ(CUDA_SUCCESS, cuFuncGetAttribute(&v,
		  CU_FUNC_ATTRIBUTE_NUM_REGS, f));
	ASSERT_GT(v, 0);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuFuncGetAttribute(&v,
		  (CUfunction_attribute)999, f));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncGetName(&name, f));
	ASSERT_STREQ("vec_add", name);
	/* Measured: 256 threads -> 8 blocks per SM. */
	ASSERT_EQ(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(
		  &blocks, f, 256, 0));
	ASSERT_EQ(8, blocks);
	ASSERT_EQ(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&min_grid,
		  &bs, fb, NULL, 0, 0));
	ASSERT_LE(bs, 128);
	ASSERT_GT(min_grid, 0);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

TEST(device_printf)
{
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	int v = 42, fd, saved;
	float x = 3.5f;
	void *params[] = { &v, &x };
	char path[] = "/tmp/cu_printf_XXXXXX", out[256] = "";

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "say_hello"));
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, NULL,
					       params, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	ASSERT_LT(0, pread(fd, out, sizeof(out) - 1, 0));
	close(fd);
	unlink(path);
	/* One line per block. */
	ASSERT_STREQ("hello 42 3.50 device\nhello 42 3.50 device\n", out);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

/* The pre-4.0 launch API: shape, shared size and parameters set apart. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(legacy_launch_api)
{
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdeviceptr da, db, dc;
	int n = 1000, bad = 0;
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&mod, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "vec_add"));
	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 0.25f * (float)(n - i);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&da, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&db, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&dc, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(da, a, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(db, b, bytes));
	/* vec_add(a, b, c, n): three pointers, then the int at 24. */
	ASSERT_EQ(CUDA_SUCCESS, cuParamSetv(f, 0, &da, sizeof(da)));
	ASSERT_EQ(CUDA_SUCCESS, cuParamSetv(f, 8, &db, sizeof(db)));
	ASSERT_EQ(CUDA_SUCCESS, cuParamSetv(f, 16, &dc, sizeof(dc)));
	ASSERT_EQ(CUDA_SUCCESS, cuParamSeti(f, 24, (unsigned int)n));
	/* A size that is not the kernel's: refused by the launch. */
	ASSERT_EQ(CUDA_SUCCESS, cuParamSetSize(f, 24));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncSetBlockShape(f, 128, 1, 1));
	ASSERT_EQ(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
		  cuLaunchGrid(f, (n + 127) / 128, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuParamSetSize(f, 28));
	ASSERT_EQ(CUDA_SUCCESS, cuFuncSetSharedSize(f, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchGrid(f, (n + 127) / 128, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(c, dc, bytes));
	for (int i = 0; i < n; i++)
		bad += c[i] != a[i] + b[i];
	ASSERT_EQ(0, bad);
	/* Bad values and handles. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(f, 0, 1, 1));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuParamSetv(f, 4094, &da, 8));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuParamSetv(f, -1, &da, 8));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuParamSetSize(f, 4097));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(f, 0, 1));
	ASSERT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuParamSetTexRef(f, 0, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuParamSeti(NULL, 0, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(mod));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLaunch(f));
	cuMemFree(da);
	cuMemFree(db);
	cuMemFree(dc);
	free(a);
	free(b);
	free(c);
}
#pragma GCC diagnostic pop

CUDA_TEST_MAIN
