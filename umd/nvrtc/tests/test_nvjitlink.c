// SPDX-License-Identifier: GPL-2.0
/*
 * test_nvjitlink.c - nvJitLink programs run unmodified on vGPU.
 *
 * Built against the toolkit's nvJitLink.h and nvrtc.h, linked with
 * -lnvJitLink -lnvrtc; the libraries found first are vGPU's fronts
 * (umd/nvrtc/).  Device code is compiled at run time by NVRTC for sm_90
 * (-rdc=true: PTX; -dlto: LTO-IR), linked by nvJitLink for sm_90, and
 * the linked cubin is loaded with cuModuleLoadData() and run; results
 * are checked against the CPU.  Without NVIDIA's libraries every case
 * is skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include "rtc_test.h"
#include "vgpu_visa.h"

#define N 777

/* Two translation units: the kernel calls a function of the other. */
static const char kernel_src[] =
	"extern __device__ float twice(float x);\n"
	"extern \"C\" __global__ void apply(float a, const float *x,\n"
	"                                   float *y, int n)\n"
	"{\n"
	"	int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"	if (i < n)\n"
	"		y[i] = a * twice(x[i]) + y[i];\n"
	"}\n";
static const char twice_src[] =
	"__device__ float twice(float x) { return 2.0f * x + 1.0f; }\n";

static int have_libs(void)
{
	unsigned int jl_major, jl_minor;
	int major, minor;

	return nvrtcVersion(&major, &minor) == NVRTC_SUCCESS &&
	       nvJitLinkVersion(&jl_major, &jl_minor) == NVJITLINK_SUCCESS;
}

#define NEED_LIBS()							\
	do {								\
		if (!have_libs())					\
			SKIP(return, "NVIDIA's libnvrtc.so.13/libnvJitLink.so.13 not found (CUDA toolkit absent)"); \
	} while (0)

/* NVRTC's PTX (@lto 0) or LTO-IR (@lto 1) of @src for sm_90. */
static char *rtc(const char *src, int lto, size_t *size)
{
	const char *ptx_opts[] = { "-arch=sm_90", "-rdc=true" };
	const char *lto_opts[] = { "-arch=sm_90", "-rdc=true", "-dlto" };
	nvrtcProgram prog;
	char *out = NULL;

	if (nvrtcCreateProgram(&prog, src, "tu.cu", 0, NULL, NULL))
		return NULL;
	if (nvrtcCompileProgram(prog, lto ? 3 : 2, lto ? lto_opts : ptx_opts))
		goto out;
	if (lto ? nvrtcGetLTOIRSize(prog, size) : nvrtcGetPTXSize(prog, size))
		goto out;
	out = malloc(*size);
	if (out && (lto ? nvrtcGetLTOIR(prog, out) : nvrtcGetPTX(prog, out))) {
		free(out);
		out = NULL;
	}
out:
	nvrtcDestroyProgram(&prog);
	return out;
}

static char *error_log(nvJitLinkHandle h)
{
	size_t size = 0;
	char *log;

	if (nvJitLinkGetErrorLogSize(h, &size) != NVJITLINK_SUCCESS)
		return strdup("");
	log = calloc(1, size + 1);
	if (log && size && nvJitLinkGetErrorLog(h, log) != NVJITLINK_SUCCESS)
		log[0] = '\0';
	return log;
}

/* Link both units (as @type), return the linked cubin and its size. */
static char *link_both(struct __test_metadata *_metadata, int lto,
		       size_t *size)
{
	const char *opts[] = { "-arch=sm_90", "-lto" };
	nvJitLinkInputType type = lto ? NVJITLINK_INPUT_LTOIR :
					NVJITLINK_INPUT_PTX;
	size_t ksize = 0, tsize = 0;
	char *k = rtc(kernel_src, lto, &ksize);
	char *t = rtc(twice_src, lto, &tsize);
	nvJitLinkHandle h = NULL;
	char *cubin, *log;

	EXPECT_NE(NULL, k);
	EXPECT_NE(NULL, t);
	if (!k || !t)
		return NULL;
	EXPECT_EQ(NVJITLINK_SUCCESS, nvJitLinkCreate(&h, lto ? 2 : 1, opts));
	EXPECT_EQ(NVJITLINK_SUCCESS,
		  nvJitLinkAddData(h, type, k, ksize, "kernel"));
	/* The second as "any": the front must still see PTX in it. */
	EXPECT_EQ(NVJITLINK_SUCCESS,
		  nvJitLinkAddData(h, NVJITLINK_INPUT_ANY, t, tsize, "twice"));
	EXPECT_EQ(NVJITLINK_SUCCESS, nvJitLinkComplete(h)) {
		log = error_log(h);
		TH_LOG("log: %s", log);
		free(log);
	}
	*size = 0;
	EXPECT_EQ(NVJITLINK_SUCCESS, nvJitLinkGetLinkedCubinSize(h, size));
	cubin = *size ? malloc(*size) : NULL;
	EXPECT_NE(NULL, cubin);
	if (cubin)
		EXPECT_EQ(NVJITLINK_SUCCESS,
			  nvJitLinkGetLinkedCubin(h, cubin));
	EXPECT_EQ(NVJITLINK_SUCCESS, nvJitLinkDestroy(&h));
	EXPECT_EQ(NULL, h);
	free(k);
	free(t);
	return cubin;
}

/* Load @image; run apply(); compare with the CPU. */
static void run_apply(struct __test_metadata *_metadata, const void *image)
{
	float x[N], y[N], want[N], a = -1.5f;

	for (int i = 0; i < N; i++) {
		x[i] = (float)(i % 100) * 0.25f;
		y[i] = (float)i;
		want[i] = a * (2.0f * x[i] + 1.0f) + y[i];
	}
	rtc_run_axpy(_metadata, image, "apply", a, x, y, want, N);
}

/* -rdc=true PTX of two units, linked for sm_90: a vISA image that runs. */
TEST(ptx_inputs_link_and_run)
{
	size_t size;
	char *cubin;
	uint32_t magic;

	NEED_LIBS();
	cubin = link_both(_metadata, 0, &size);
	ASSERT_NE(NULL, cubin);
	ASSERT_LE(sizeof(magic), size);
	memcpy(&magic, cubin, sizeof(magic));
	ASSERT_EQ(VISA_MAGIC, magic);
	run_apply(_metadata, cubin);
	free(cubin);
}

/* LTO-IR of two units, linked with -lto for sm_90, runs too. */
TEST(lto_inputs_link_and_run)
{
	size_t size;
	char *cubin;

	NEED_LIBS();
	cubin = link_both(_metadata, 1, &size);
	ASSERT_NE(NULL, cubin);
	run_apply(_metadata, cubin);
	free(cubin);
}

/*
 * NVRTC's "cubin" for sm_90 given to nvJitLink as a cubin (what a program
 * that compiled for a real architecture does): linked and run.
 */
TEST(nvrtc_cubin_as_cubin_input)
{
	const char *rtc_opts[] = { "-arch=sm_90", "-rdc=true" };
	const char *opts[] = { "-arch=sm_90" };
	nvrtcProgram prog;
	nvJitLinkHandle h;
	size_t ksize = 0, tsize = 0, size = 0;
	char *k, *t, *cubin;

	NEED_LIBS();
	k = rtc(kernel_src, 0, &ksize);
	ASSERT_NE(NULL, k);
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcCreateProgram(&prog, twice_src, "t.cu", 0,
						    NULL, NULL));
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcCompileProgram(prog, 2, rtc_opts));
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetCUBINSize(prog, &tsize));
	t = malloc(tsize);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(NVRTC_SUCCESS, nvrtcGetCUBIN(prog, t));
	nvrtcDestroyProgram(&prog);
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkCreate(&h, 1, opts));
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkAddData(h, NVJITLINK_INPUT_CUBIN,
						      t, tsize, "twice"));
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkAddData(h, NVJITLINK_INPUT_PTX,
						      k, ksize, "kernel"));
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkComplete(h));
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkGetLinkedCubinSize(h, &size));
	cubin = malloc(size);
	ASSERT_NE(NULL, cubin);
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkGetLinkedCubin(h, cubin));
	nvJitLinkDestroy(&h);
	run_apply(_metadata, cubin);
	free(cubin);
	free(k);
	free(t);
}

/* The linked cubin is also a CU_JIT_INPUT_CUBIN for the driver's linker. */
TEST(linked_cubin_feeds_cuLink)
{
	CUlinkState state;
	CUcontext ctx;
	CUmodule mod;
	CUfunction fn;
	void *out;
	size_t size, out_size;
	char *cubin;

	NEED_LIBS();
	cubin = link_both(_metadata, 0, &size);
	ASSERT_NE(NULL, cubin);
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuLinkCreate(0, NULL, NULL, &state));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_CUBIN, cubin,
					      size, "linked", 0, NULL, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuLinkComplete(state, &out, &out_size));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoadData(&mod, out));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "apply"));
	cuModuleUnload(mod);
	cuLinkDestroy(state);
	free(cubin);
}

/*
 * An undefined function: NVIDIA's code (NVJITLINK_ERROR_INTERNAL, as the
 * toolkit's library called directly answers) and log reach the program.
 */
TEST(undefined_reference_is_reported)
{
	const char *opts[] = { "-arch=sm_90" };
	nvJitLinkHandle h;
	size_t ksize;
	char *k, *log;

	NEED_LIBS();
	k = rtc(kernel_src, 0, &ksize);
	ASSERT_NE(NULL, k);
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkCreate(&h, 1, opts));
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkAddData(h, NVJITLINK_INPUT_PTX,
						      k, ksize, "kernel"));
	ASSERT_EQ(NVJITLINK_ERROR_INTERNAL, nvJitLinkComplete(h));
	log = error_log(h);
	ASSERT_NE(NULL, strstr(log, "Undefined reference")) TH_LOG("%s", log);
	ASSERT_NE(NULL, strstr(log, "twice")) TH_LOG("%s", log);
	free(log);
	nvJitLinkDestroy(&h);
	free(k);
}

/*
 * NVIDIA's answers to bad options (measured on the toolkit's library
 * called directly): no -arch, no options at all, an unknown option.
 */
TEST(bad_options)
{
	const char *no_arch[] = { "-O3" };
	const char *unknown[] = { "-arch=sm_90", "-no-such-option" };
	nvJitLinkHandle h = NULL;

	NEED_LIBS();
	ASSERT_EQ(NVJITLINK_ERROR_MISSING_ARCH, nvJitLinkCreate(&h, 1, no_arch));
	ASSERT_EQ(NVJITLINK_ERROR_NULL_INPUT, nvJitLinkCreate(&h, 0, NULL));
	ASSERT_EQ(NVJITLINK_ERROR_UNRECOGNIZED_OPTION,
		  nvJitLinkCreate(&h, 2, unknown));
}

/* An input with no PTX text (SASS) cannot run here: said so, clearly. */
TEST(sass_input_is_refused_with_a_reason)
{
	const char *opts[] = { "-arch=sm_90" };
	nvJitLinkHandle h;
	char *log;

	NEED_LIBS();
	ASSERT_EQ(NVJITLINK_SUCCESS, nvJitLinkCreate(&h, 1, opts));
	ASSERT_EQ(NVJITLINK_SUCCESS,
		  nvJitLinkAddFile(h, NVJITLINK_INPUT_CUBIN, SASS_CUBIN));
	ASSERT_EQ(NVJITLINK_ERROR_INVALID_INPUT, nvJitLinkComplete(h));
	log = error_log(h);
	ASSERT_NE(NULL, strstr(log, "holds no PTX text")) TH_LOG("%s", log);
	ASSERT_NE(NULL, strstr(log, SASS_CUBIN)) TH_LOG("%s", log);
	free(log);
	nvJitLinkDestroy(&h);
}

CUDA_TEST_MAIN
