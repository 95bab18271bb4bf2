// SPDX-License-Identifier: GPL-2.0
/*
 * test_nvrtc.c - NVRTC programs run unmodified on vGPU.
 *
 * Built against the toolkit's nvrtc.h and linked with -lnvrtc as any
 * NVRTC program is; the library found first is vGPU's front
 * (umd/nvrtc/), which forwards to NVIDIA's.  Each kernel is compiled at
 * run time for a real architecture (sm_90), loaded from nvrtcGetCUBIN()
 * with cuModuleLoadData() and run; results are checked against the CPU.
 * Without NVIDIA's library (the toolkit absent) every case is skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <nvrtc.h>

#include "rtc_test.h"

#define N 1000

static const char saxpy_src[] =
	"extern \"C\" __global__ void saxpy(float a, const float *x,\n"
	"                                   float *y, int n)\n"
	"{\n"
	"#if __CUDA_ARCH__ != 900\n"
	"#error compiled for the wrong architecture\n"
	"#endif\n"
	"	int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"	if (i < n)\n"
	"		y[i] = a * x[i] + y[i];\n"
	"}\n";

/* A template: the program finds the kernel by its lowered name. */
static const char tmpl_src[] =
	"template <typename T, int K>\n"
	"__global__ void scale(T *v, int n)\n"
	"{\n"
	"	int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"	if (i < n)\n"
	"		v[i] = v[i] * K + (T)i;\n"
	"}\n";

/* NVIDIA's library is there (else the front answers INTERNAL_ERROR). */
static int have_nvrtc(void)
{
	int major, minor;

	return nvrtcVersion(&major, &minor) == NVRTC_SUCCESS;
}

#define NEED_NVRTC()							\
	do {								\
		if (!have_nvrtc())					\
			SKIP(return, "NVIDIA's libnvrtc.so.13 not found (CUDA toolkit absent)"); \
	} while (0)

static char *program_log(nvrtcProgram prog)
{
	size_t size = 0;
	char *log;

	if (nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS)
		return strdup("");
	log = calloc(1, size + 1);
	if (log && nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
		log[0] = '\0';
	return log;
}

/* Compile @src with @opts; the CUBIN (NULL on failure) and its size. */
static char *compile(const char *src, const char *const *opts, int nopts,
		     const char *name_expr, const char **lowered,
		     size_t *size, nvrtcResult *res, nvrtcProgram *progp)
{
	nvrtcProgram prog;
	char *cubin;

	*res = nvrtcCreateProgram(&prog, src, "test.cu", 0, NULL, NULL);
	if (*res != NVRTC_SUCCESS)
		return NULL;
	if (name_expr)
		nvrtcAddNameExpression(prog, name_expr);
	*res = nvrtcCompileProgram(prog, nopts, opts);
	*progp = prog;
	if (*res != NVRTC_SUCCESS)
		return NULL;
	if (name_expr && nvrtcGetLoweredName(prog, name_expr, lowered) !=
	    NVRTC_SUCCESS)
		return NULL;
	if (nvrtcGetCUBINSize(prog, size) != NVRTC_SUCCESS || !*size)
		return NULL;
	cubin = malloc(*size);
	if (cubin && nvrtcGetCUBIN(prog, cubin) != NVRTC_SUCCESS) {
		free(cubin);
		return NULL;
	}
	return cubin;
}

/* Load @image, run saxpy on N elements, compare with the CPU. */
static void run_saxpy(struct __test_metadata *_metadata, const void *image)
{
	float x[N], y[N], want[N], a = 2.5f;

	for (int i = 0; i < N; i++) {
		x[i] = (float)i * 0.5f;
		y[i] = 1000.0f - (float)i;
		want[i] = a * x[i] + y[i];
	}
	rtc_run_axpy(_metadata, image, "saxpy", a, x, y, want, N);
}

/* The NVRTC sample's way: -arch=sm_90, nvrtcGetCUBIN, cuModuleLoadData. */
TEST(sm90_cubin_loads_and_runs)
{
	const char *opts[] = { "-arch=sm_90", "-default-device" };
	nvrtcProgram prog = NULL;
	nvrtcResult res;
	size_t size = 0;
	char *cubin;

	NEED_NVRTC();
	cubin = compile(saxpy_src, opts, 2, NULL, NULL, &size, &res, &prog);
	ASSERT_EQ(NVRTC_SUCCESS, res);
	ASSERT_NE(NULL, cubin);
	run_saxpy(_metadata, cubin);
	free(cubin);
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcDestroyProgram(&prog));
	ASSERT_EQ(NULL, prog);
}

/*
 * The CUBIN is the program's PTX, whatever spelling named the real
 * architecture, and holds no SASS: PTX for sm_90 exactly as NVIDIA's
 * library gives it for that architecture.
 */
TEST(cubin_is_the_ptx_for_every_spelling)
{
	const char *spell[][2] = {
		{ "-arch=sm_90", NULL },
		{ "--gpu-architecture=sm_90", NULL },
		{ "-arch", "sm_90" },
	};

	NEED_NVRTC();
	for (size_t s = 0; s < sizeof(spell) / sizeof(spell[0]); s++) {
		nvrtcProgram prog = NULL;
		nvrtcResult res;
		size_t size = 0, ptx_size = 0;
		char *cubin, *ptx;
		int nopts = spell[s][1] ? 2 : 1;

		cubin = compile(saxpy_src, spell[s], nopts, NULL, NULL, &size,
				&res, &prog);
		ASSERT_EQ(NVRTC_SUCCESS, res) TH_LOG("%s", spell[s][0]);
		ASSERT_NE(NULL, cubin);
		ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetPTXSize(prog, &ptx_size));
		ASSERT_EQ(ptx_size, size);
		ptx = malloc(ptx_size);
		ASSERT_NE(NULL, ptx);
		ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetPTX(prog, ptx));
		ASSERT_EQ(0, memcmp(ptx, cubin, size));
		ASSERT_EQ('\0', cubin[size - 1]);
		ASSERT_NE(NULL, strstr(cubin, ".target sm_90"));
		free(ptx);
		free(cubin);
		nvrtcDestroyProgram(&prog);
	}
}

/* A C++ template kernel found by nvrtcGetLoweredName, as the samples do. */
TEST(lowered_name_of_template_kernel)
{
	const char *opts[] = { "--gpu-architecture=sm_90", "-std=c++17" };
	const char *lowered = NULL;
	nvrtcProgram prog = NULL;
	nvrtcResult res;
	size_t size = 0;
	char *cubin;
	CUcontext ctx;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr dv;
	int v[N], n = N;
	void *args[] = { &dv, &n };

	NEED_NVRTC();
	cubin = compile(tmpl_src, opts, 2, "scale<int, 3>", &lowered, &size,
			&res, &prog);
	ASSERT_EQ(NVRTC_SUCCESS, res);
	ASSERT_NE(NULL, cubin);
	ASSERT_NE(NULL, lowered);
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadData(&mod, cubin));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, lowered));
	for (int i = 0; i < N; i++)
		v[i] = i - 500;
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&dv, sizeof(v)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(dv, v, sizeof(v)));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1,
					       1, 0, NULL, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(v, dv, sizeof(v)));
	for (int i = 0; i < N; i++) {
		if ((i - 500) * 3 + i != v[i])
			TH_LOG("element %d: %d", i, v[i]);
		ASSERT_EQ((i - 500) * 3 + i, v[i]);
	}
	cuMemFree(dv);
	cuModuleUnload(mod);
	free(cubin);
	nvrtcDestroyProgram(&prog);
}

/*
 * A virtual architecture asked for: the program is NVIDIA's business
 * (no CUBIN: success and size 0, as the toolkit's library answers when
 * called directly); its PTX loads and runs.
 */
TEST(virtual_arch_ptx_runs)
{
	const char *opts[] = { "-arch=compute_90" };
	nvrtcProgram prog;
	size_t size = 77;
	char *ptx;

	NEED_NVRTC();
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcCreateProgram(&prog, saxpy_src, "v.cu",
						    0, NULL, NULL));
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcCompileProgram(prog, 1, opts));
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetCUBINSize(prog, &size));
	ASSERT_EQ(0, size);
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetPTXSize(prog, &size));
	ptx = malloc(size);
	ASSERT_NE(NULL, ptx);
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetPTX(prog, ptx));
	run_saxpy(_metadata, ptx);
	free(ptx);
	nvrtcDestroyProgram(&prog);
}

/* An unknown option: NVIDIA's code and log reach the program. */
TEST(bad_option_is_reported)
{
	const char *opts[] = { "-arch=sm_90", "--no-such-option" };
	nvrtcProgram prog = NULL;
	nvrtcResult res;
	size_t size;
	char *log;

	NEED_NVRTC();
	ASSERT_EQ(NULL, compile(saxpy_src, opts, 2, NULL, NULL, &size, &res,
				&prog));
	ASSERT_EQ(NVRTC_ERROR_INVALID_OPTION, res);
	ASSERT_STREQ("NVRTC_ERROR_INVALID_OPTION", nvrtcGetErrorString(res));
	log = program_log(prog);
	ASSERT_NE(NULL, strstr(log, "--no-such-option")) TH_LOG("log: %s", log);
	/* Nothing compiled: NVIDIA's library says success, size 0. */
	size = 77;
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetCUBINSize(prog, &size));
	ASSERT_EQ(0, size);
	free(log);
	nvrtcDestroyProgram(&prog);
}

/* A compile error: NVRTC_ERROR_COMPILATION and the compiler's log. */
TEST(compile_error_log_passes_through)
{
	static const char bad[] =
		"extern \"C\" __global__ void k(int *p)\n"
		"{\n"
		"	*p = undeclared_thing;\n"
		"}\n";
	const char *opts[] = { "-arch=sm_90" };
	nvrtcProgram prog = NULL;
	nvrtcResult res;
	size_t size;
	char *log;

	NEED_NVRTC();
	ASSERT_EQ(NULL, compile(bad, opts, 1, NULL, NULL, &size, &res, &prog));
	ASSERT_EQ(NVRTC_ERROR_COMPILATION, res);
	log = program_log(prog);
	ASSERT_NE(NULL, strstr(log, "undeclared_thing")) TH_LOG("log: %s", log);
	ASSERT_NE(NULL, strstr(log, "error")) TH_LOG("log: %s", log);
	size = 77;
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetCUBINSize(prog, &size));
	ASSERT_EQ(0, size);
	free(log);
	nvrtcDestroyProgram(&prog);
}

/* NVIDIA's answers to bad handles, unchanged by the front. */
TEST(bad_arguments)
{
	const char *opts[] = { "-arch=sm_90" };
	size_t size;

	NEED_NVRTC();
	ASSERT_EQ(NVRTC_ERROR_INVALID_PROGRAM,
		  nvrtcCompileProgram(NULL, 1, opts));
	ASSERT_EQ(NVRTC_ERROR_INVALID_PROGRAM, nvrtcGetCUBINSize(NULL, &size));
	ASSERT_EQ(NVRTC_ERROR_INVALID_PROGRAM, nvrtcDestroyProgram(NULL));
}

CUDA_TEST_MAIN
