// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_link.c - the JIT linker (cuLinkCreate ... cuLinkDestroy) and the
 * JIT options of cuLinkCreate and cuModuleLoadDataEx.
 *
 * The -rdc=true pair link_a.cu (a kernel using affine() and bias) and
 * link_b.cu (their definitions), built by nvcc in every form the linker
 * takes, is joined, loaded and run; out[i] = 3i + 7 + 5 is checked
 * against the same formula computed here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_test.h"
#include "vgpu_visa.h"

#define LINK_A_PTX	CUDA_TEST_DATA "/link_a.rdc.ptx"
#define LINK_B_PTX	CUDA_TEST_DATA "/link_b.rdc.ptx"
#define LINK_B_FATBIN	CUDA_TEST_DATA "/link_b.rdc.fatbin"
#define LINK_B_SASS_FATBIN CUDA_TEST_DATA "/link_b.sass.fatbin"
#define LINK_B_CUBIN	CUDA_TEST_DATA "/link_b.cubin"
#define LINK_A_OBJ	CUDA_TEST_DATA "/link_a.o"
#define LINK_B_LIB	CUDA_TEST_DATA "/liblink_b.a"

static void *read_all(const char *path, size_t *size)
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
	if (size)
		*size = (size_t)n;
	return buf;
}

/*
 * Load @image, run apply_affine over @n ints and compare with the CPU.
 * Returns the number of wrong elements, -1 if a call failed.
 */
static int run_linked(const void *image, int n)
{
	CUmodule mod;
	CUfunction f;
	CUdeviceptr d;
	int *out = calloc((size_t)n, sizeof(int));
	int bad = 0;
	void *params[] = { &d, &n };

	if (!out || cuModuleLoadData(&mod, image) ||
	    cuModuleGetFunction(&f, mod, "apply_affine") ||
	    cuMemAlloc(&d, (size_t)n * sizeof(int)) ||
	    cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
			   params, NULL) ||
	    cuMemcpyDtoH(out, d, (size_t)n * sizeof(int)))
		return -1;
	for (int i = 0; i < n; i++)
		bad += out[i] != 3 * i + 7 + 5;
	cuMemFree(d);
	cuModuleUnload(mod);
	free(out);
	return bad;
}

TEST(ptx_pair_links_and_runs)
{
	char info[4096] = "", error[4096] = "";
	CUjit_option opts[] = {
		CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER,
		CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
		CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE,
		CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_TARGET_FROM_CUCONTEXT,
		CU_JIT_GENERATE_LINE_INFO, CU_JIT_CACHE_MODE,
	};
	void *vals[] = {
		(void *)(uintptr_t)0xdeadbeef, info, (void *)sizeof(info),
		error, (void *)sizeof(error), (void *)1, (void *)3, NULL,
		(void *)1, (void *)CU_JIT_CACHE_OPTION_CA,
	};
	CUcontext ctx;
	CUlinkState st;
	char *b_ptx;
	void *image;
	size_t size = 0, b_size;
	float ms;
	const struct visa_image_header *h;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(10, opts, vals, &st));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_A_PTX,
					      0, NULL, NULL));
	b_ptx = read_all(LINK_B_PTX, &b_size);
	ASSERT_NE(NULL, b_ptx);
	/* The size counts the NUL, as NVIDIA's samples pass it. */
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddData(st, CU_JIT_INPUT_PTX, b_ptx,
					      b_size + 1, "link_b", 0, NULL,
					      NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, &size));
	h = image;
	ASSERT_EQ(VISA_MAGIC, h->magic);
	ASSERT_EQ(h->image_size, size);
	/* Out-values: the wall time as a float in the slot, log sizes. */
	memcpy(&ms, &vals[0], sizeof(ms));
	ASSERT_TRUE(ms >= 0.0f && ms < 600000.0f);
	ASSERT_NE(0, strlen(info));
	ASSERT_EQ(strlen(info), (size_t)(uintptr_t)vals[2]);
	ASSERT_NE(NULL, strstr(info, "apply_affine"));
	ASSERT_NE(NULL, strstr(info, "link_b"));
	ASSERT_EQ(0, strlen(error));
	ASSERT_EQ(0, (uintptr_t)vals[4]);
	/* The image is the link state's, usable until cuLinkDestroy. */
	ASSERT_EQ(0, run_linked(image, 1000));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(st));
	free(b_ptx);
}

TEST(fatbinary_object_and_library_inputs)
{
	CUcontext ctx;
	CUlinkState st;
	void *image, *fatbin;
	size_t size;

	CU_SETUP(&ctx);
	/* PTX + a fatbinary holding PTX and SASS (the PTX is taken). */
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(0, NULL, NULL, &st));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_A_PTX,
					      0, NULL, NULL));
	fatbin = read_all(LINK_B_FATBIN, &size);
	ASSERT_NE(NULL, fatbin);
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddData(st, CU_JIT_INPUT_FATBINARY,
					      fatbin, size, "link_b.fatbin",
					      0, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, &size));
	ASSERT_EQ(0, run_linked(image, 300));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
	free(fatbin);

	/* A host object of nvcc -dc and a library of one (nvcc -lib). */
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(0, NULL, NULL, &st));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_OBJECT,
					      LINK_A_OBJ, 0, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_LIBRARY,
					      LINK_B_LIB, 0, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, NULL));
	ASSERT_EQ(0, run_linked(image, 513));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
}

TEST(unresolved_symbol_named_in_error_log)
{
	char error[1024] = "";
	CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER,
				CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[] = { error, (void *)sizeof(error) };
	CUcontext ctx;
	CUlinkState st;
	void *image = NULL;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(2, opts, vals, &st));
	/* Alone, link_a compiles: only its .extern symbols are missing. */
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_A_PTX,
					      0, NULL, NULL));
	ASSERT_EQ(0, strlen(error));
	/* as an H100 answers (tools/cuda-probe/golden/probe_link.h100.txt) */
	ASSERT_EQ(CUDA_ERROR_INVALID_SOURCE, cuLinkComplete(st, &image, NULL));
	ASSERT_EQ(NULL, image);
	ASSERT_NE(NULL, strstr(error, "Undefined reference to '"));
	ASSERT_NE(NULL, strstr(error, "affine"));
	ASSERT_EQ(strlen(error), (size_t)(uintptr_t)vals[1]);
	/* Adding the missing half makes the same state link. */
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_B_PTX,
					      0, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, NULL));
	ASSERT_EQ(0, run_linked(image, 64));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
}

TEST(bad_states_options_and_inputs)
{
	char error[1024];
	CUjit_option log_opts[] = { CU_JIT_ERROR_LOG_BUFFER,
				    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *log_vals[] = { error, (void *)sizeof(error) };
	CUjit_option opt;
	void *val;
	CUcontext ctx;
	CUlinkState st;
	void *image, *data;
	size_t size;
	static char garbage[] = "not a fatbinary, not a cubin";
	static const char broken_ptx[] =
		".version 8.0\n.target sm_75\n.address_size 64\n"
		".visible .entry k() { bogus.instruction; }\n";

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	/* No current context. */
	ASSERT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuLinkCreate(0, NULL, NULL, &st));
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(0, NULL, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, NULL, NULL, &st));
	/* Unknown options, bad values. */
	opt = CU_JIT_NUM_OPTIONS;
	val = NULL;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &opt, &val, &st));
	opt = CU_JIT_OPTIMIZATION_LEVEL;
	val = (void *)5;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &opt, &val, &st));
	opt = CU_JIT_TARGET;
	val = (void *)(uintptr_t)74;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &opt, &val, &st));
	opt = CU_JIT_CACHE_MODE;
	val = (void *)3;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &opt, &val, &st));
	opt = CU_JIT_FALLBACK_STRATEGY;
	val = (void *)2;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &opt, &val, &st));
	opt = CU_JIT_THREADS_PER_BLOCK;
	val = (void *)0;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &opt, &val, &st));

	/* A NULL or destroyed state. */
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuLinkAddData(NULL, CU_JIT_INPUT_PTX, garbage,
				sizeof(garbage), NULL, 0, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(NULL, &image,
							    NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(NULL));

	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(2, log_opts, log_vals, &st));
	/* Nothing added yet: an image without code, as on an H100. */
	image = NULL;
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, NULL));
	ASSERT_NE(NULL, image);
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(st, NULL, NULL));
	/* Unknown input type; no data. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuLinkAddData(st, CU_JIT_NUM_INPUT_TYPES, garbage,
				sizeof(garbage), "x", 0, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuLinkAddData(st, CU_JIT_INPUT_PTX, NULL, 10, "x", 0, NULL,
				NULL));
	/* Linker options are refused for one input. */
	opt = CU_JIT_WALL_TIME;
	val = NULL;
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_B_PTX, 1, &opt, &val));
	/* Data that is not of its declared type. */
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE,
		  cuLinkAddData(st, CU_JIT_INPUT_FATBINARY, garbage,
				sizeof(garbage), "garbage", 0, NULL, NULL));
	ASSERT_NE(NULL, strstr(error, "garbage"));
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE,
		  cuLinkAddData(st, CU_JIT_INPUT_OBJECT, garbage,
				sizeof(garbage), "garbage", 0, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE,
		  cuLinkAddData(st, CU_JIT_INPUT_LIBRARY, garbage,
				sizeof(garbage), "garbage", 0, NULL, NULL));
	/* NVIDIA SASS: a cubin, a fatbinary without PTX. */
	ASSERT_EQ(CUDA_ERROR_NO_BINARY_FOR_GPU,
		  cuLinkAddFile(st, CU_JIT_INPUT_CUBIN, LINK_B_CUBIN, 0, NULL,
				NULL));
	ASSERT_NE(NULL, strstr(error, "link_b.cubin"));
	ASSERT_EQ(CUDA_ERROR_NO_BINARY_FOR_GPU,
		  cuLinkAddFile(st, CU_JIT_INPUT_FATBINARY, LINK_B_SASS_FATBIN,
				0, NULL, NULL));
	ASSERT_NE(NULL, strstr(error, "link_b.sass.fatbin"));
	ASSERT_EQ(CUDA_ERROR_INVALID_IMAGE,
		  cuLinkAddData(st, CU_JIT_INPUT_NVVM, garbage,
				sizeof(garbage), "ir", 0, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuLinkAddData(st, CU_JIT_INPUT_NVVM, (void *)"BC\xc0\xde\x35\x14",
				6, "bitcode", 0, NULL, NULL));
	/* Broken PTX is the adding call's error, the log says where. */
	ASSERT_EQ(CUDA_ERROR_INVALID_PTX,
		  cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)broken_ptx,
				sizeof(broken_ptx), "broken.ptx", 0, NULL,
				NULL));
	ASSERT_NE(NULL, strstr(error, "broken.ptx"));
	ASSERT_EQ(CUDA_ERROR_FILE_NOT_FOUND,
		  cuLinkAddFile(st, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0,
				NULL, NULL));
	/* None of the failed inputs was kept: the pair still links. */
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_A_PTX,
					      0, NULL, NULL));
	data = read_all(LINK_B_PTX, &size);
	ASSERT_NE(NULL, data);
	opt = CU_JIT_MAX_REGISTERS;	/* a compiler option: accepted */
	val = (void *)32;
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddData(st, CU_JIT_INPUT_PTX, data, size,
					      NULL, 1, &opt, &val));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, NULL));
	ASSERT_EQ(0, run_linked(image, 100));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_A_PTX, 0, NULL,
				NULL));
	free(data);
}

TEST(log_buffers_are_cut_to_fit)
{
	char error[16], info[24];
	CUjit_option opts[] = {
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_LOG_VERBOSE,
	};
	void *vals[] = { error, (void *)sizeof(error), info,
			 (void *)sizeof(info), (void *)1 };
	CUcontext ctx;
	CUlinkState st;
	void *image;

	CU_SETUP(&ctx);
	memset(error, 'x', sizeof(error));
	memset(info, 'x', sizeof(info));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(5, opts, vals, &st));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_A_PTX,
					      0, NULL, NULL));
	ASSERT_EQ(CUDA_ERROR_INVALID_SOURCE, cuLinkComplete(st, &image, NULL));
	/* 15 characters and the NUL; the out-size is what was kept. */
	ASSERT_EQ(15, strlen(error));
	ASSERT_EQ(0, strncmp(error, "error   : ", 10));
	ASSERT_EQ(15, (uintptr_t)vals[1]);
	ASSERT_EQ(23, strlen(info));
	ASSERT_EQ(23, (uintptr_t)vals[3]);
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
}

TEST(visa_image_as_cubin)
{
	CUcontext ctx;
	CUlinkState st;
	CUmodule mod;
	CUfunction f;
	void *visa, *image;
	size_t size, out_size;

	CU_SETUP(&ctx);
	visa = read_all(DRV_VISA, &size);
	ASSERT_NE(NULL, visa);
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(0, NULL, NULL, &st));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddData(st, CU_JIT_INPUT_CUBIN, visa,
					      size, "drv.visa", 0, NULL, NULL));
	/* Already linked: it cannot take more code. */
	ASSERT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuLinkAddFile(st, CU_JIT_INPUT_PTX, LINK_B_PTX, 0, NULL,
				NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(st, &image, &out_size));
	ASSERT_EQ(size, out_size);
	ASSERT_EQ(0, memcmp(image, visa, size));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadData(&mod, image));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "vec_add"));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(mod));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkDestroy(st));
	free(visa);
}

TEST(module_load_data_ex_options)
{
	char info[2048] = "", error[256] = "";
	CUjit_option opts[] = {
		CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_LOG_VERBOSE, CU_JIT_THREADS_PER_BLOCK,
		CU_JIT_WALL_TIME, CU_JIT_MAX_REGISTERS,
		CU_JIT_GENERATE_DEBUG_INFO, CU_JIT_FALLBACK_STRATEGY,
	};
	void *vals[] = {
		info, (void *)sizeof(info), error, (void *)sizeof(error),
		(void *)1, (void *)4096, NULL, (void *)40, (void *)0,
		(void *)CU_PREFER_PTX,
	};
	CUjit_option bad = CU_JIT_NUM_OPTIONS;
	void *bad_val = NULL;
	CUcontext ctx;
	CUmodule mod;
	char *ptx, *cubin;
	float ms;

	CU_SETUP(&ctx);
	ptx = read_all(DRV_PTX, NULL);
	ASSERT_NE(NULL, ptx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadDataEx(&mod, ptx, 10, opts, vals));
	ASSERT_NE(NULL, strstr(info, "vec_add"));
	ASSERT_EQ(strlen(info), (size_t)(uintptr_t)vals[1]);
	ASSERT_EQ(0, (uintptr_t)vals[3]);
	/* 4096 threads asked, the device's 1024 targeted. */
	ASSERT_EQ(1024, (uintptr_t)vals[5]);
	memcpy(&ms, &vals[6], sizeof(ms));
	ASSERT_TRUE(ms >= 0.0f && ms < 600000.0f);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(mod));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuModuleLoadDataEx(&mod, ptx, 1, &bad, &bad_val));
	free(ptx);
	/*
	 * An NVIDIA cubin: refused, and the error log says so.  The sizes
	 * are in/out: the last call left 0 in the error log's.
	 */
	vals[3] = (void *)sizeof(error);
	cubin = read_all(LINK_B_CUBIN, NULL);
	ASSERT_NE(NULL, cubin);
	ASSERT_EQ(CUDA_ERROR_NO_BINARY_FOR_GPU,
		  cuModuleLoadDataEx(&mod, cubin, 4, opts, vals));
	ASSERT_NE(0, strlen(error));
	ASSERT_EQ(strlen(error), (size_t)(uintptr_t)vals[3]);
	free(cubin);
}

TEST(proc_address_finds_link_functions)
{
	void *fn = NULL;
	CUdriverProcAddressQueryResult q;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuLinkCreate", &fn, 13000,
						 0, &q));
	ASSERT_EQ((void *)cuLinkCreate, fn);	/* cuLinkCreate_v2 */
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuLinkComplete", &fn, 13000,
						 0, &q));
	ASSERT_EQ((void *)cuLinkComplete, fn);
}

CUDA_TEST_MAIN
