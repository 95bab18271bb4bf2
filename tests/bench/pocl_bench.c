// SPDX-License-Identifier: GPL-2.0
/*
 * pocl_bench.c - the benchmark's kernels (bench_kernels.cu) in OpenCL C
 * on a CPU device: POCL, which compiles work-groups with LLVM and
 * vectorises across work-items, is what the native tier is measured
 * against besides plain C.
 *
 * libOpenCL.so.1 (the ICD loader) is opened with dlopen() and the dozen
 * entry points the benchmark needs are declared here, so that building
 * needs no OpenCL headers and running needs no OpenCL: without it, or
 * without a CPU device, pocl_open() says why and the benchmark leaves
 * the column out.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pocl_bench.h"

/* The OpenCL 1.2 ABI, as much as used (Khronos' cl.h). */
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_bitfield;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;

#define CL_SUCCESS		0
#define CL_DEVICE_TYPE_CPU	(1 << 1)
#define CL_DEVICE_NAME		0x102B
#define CL_PROGRAM_BUILD_LOG	0x1183
#define CL_MEM_READ_WRITE	(1 << 0)

static struct {
	cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
	cl_int (*GetDeviceIDs)(cl_platform_id, cl_bitfield, cl_uint,
			       cl_device_id *, cl_uint *);
	cl_int (*GetDeviceInfo)(cl_device_id, cl_uint, size_t, void *,
				size_t *);
	cl_context (*CreateContext)(const intptr_t *, cl_uint,
				    const cl_device_id *, void *, void *,
				    cl_int *);
	cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id,
					       cl_bitfield, cl_int *);
	cl_program (*CreateProgramWithSource)(cl_context, cl_uint,
					      const char **, const size_t *,
					      cl_int *);
	cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id *,
			       const char *, void *, void *);
	cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id, cl_uint,
				      size_t, void *, size_t *);
	cl_kernel (*CreateKernel)(cl_program, const char *, cl_int *);
	cl_mem (*CreateBuffer)(cl_context, cl_bitfield, size_t, void *,
			       cl_int *);
	cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
	cl_int (*EnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_uint, size_t,
				     size_t, const void *, cl_uint,
				     const cl_event *, cl_event *);
	cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_uint, size_t,
				    size_t, void *, cl_uint, const cl_event *,
				    cl_event *);
	cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint,
				       const size_t *, const size_t *,
				       const size_t *, cl_uint,
				       const cl_event *, cl_event *);
	cl_int (*Finish)(cl_command_queue);
	cl_int (*ReleaseMemObject)(cl_mem);
	cl_int (*ReleaseKernel)(cl_kernel);
	cl_int (*ReleaseProgram)(cl_program);
	cl_int (*ReleaseCommandQueue)(cl_command_queue);
	cl_int (*ReleaseContext)(cl_context);
} cl;

static void *lib;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;
static cl_program prog;

/* bench_kernels.cu, in OpenCL C: the same algorithms, the same sizes. */
static const char kernels[] =
"#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
"#define TILE 16\n"
"__kernel void vector_add(__global const float *a, __global const float *b,\n"
"			 __global float *c, int n)\n"
"{\n"
"	int i = get_global_id(0);\n"
"	if (i < n)\n"
"		c[i] = a[i] + b[i];\n"
"}\n"
"__kernel void matmul(__global const float *A, __global const float *B,\n"
"		     __global float *C, int n)\n"
"{\n"
"	__local float As[TILE][TILE], Bs[TILE][TILE];\n"
"	int tx = get_local_id(0), ty = get_local_id(1);\n"
"	int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;\n"
"	float acc = 0.0f;\n"
"	for (int t = 0; t < n / TILE; t++) {\n"
"		As[ty][tx] = A[row * n + t * TILE + tx];\n"
"		Bs[ty][tx] = B[(t * TILE + ty) * n + col];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"		for (int k = 0; k < TILE; k++)\n"
"			acc += As[ty][k] * Bs[k][tx];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"	}\n"
"	C[row * n + col] = acc;\n"
"}\n"
/* no warp shuffles in OpenCL 1.2: a tree in local memory */
"__kernel void reduce(__global const uint *in, __global ulong *sum, int n)\n"
"{\n"
"	__local uint part[256];\n"
"	int l = get_local_id(0);\n"
"	uint v = 0;\n"
"	for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
"		v += in[i];\n"
"	part[l] = v;\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	for (int s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
"		if (l < s)\n"
"			part[l] += part[l + s];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"	}\n"
"	if (l == 0)\n"
"		atom_add(sum, (ulong)part[0]);\n"
"}\n"
"__kernel void divergent(__global const int *in, __global int *out, int n)\n"
"{\n"
"	int i = get_global_id(0);\n"
"	if (i >= n)\n"
"		return;\n"
"	int v = in[i], acc = 0;\n"
"	for (int k = 0; k < (v & 31); k++) {\n"
"		if ((v + k) & 1)\n"
"			acc += k * v;\n"
"		else if ((v ^ k) & 2)\n"
"			acc ^= k << 2;\n"
"		else\n"
"			acc -= v >> 3;\n"
"	}\n"
"	out[i] = acc;\n"
"}\n"
"__kernel void alu(__global float *out, int iters)\n"
"{\n"
"	int i = get_global_id(0);\n"
"	float x = (float)i, y = 1.0f, z = 0.5f;\n"
"	uint u = i;\n"
"	for (int k = 0; k < iters; k++) {\n"
"		for (int j = 0; j < 8; j++) {\n"
"			x = x * 0.999f + y;\n"
"			y = y * z - x;\n"
"			u = (u ^ (u << 3)) + 0x9e3779b9u;\n"
"			z = z + 1e-7f;\n"
"		}\n"
"	}\n"
"	out[i] = x + y + (float)u;\n"
"}\n";

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load_symbols(void)
{
#define SYM(f) \
	do { \
		*(void **)&cl.f = dlsym(lib, "cl" #f); \
		if (!cl.f) \
			return -1; \
	} while (0)
	SYM(GetPlatformIDs);
	SYM(GetDeviceIDs);
	SYM(GetDeviceInfo);
	SYM(CreateContext);
	SYM(CreateCommandQueue);
	SYM(CreateProgramWithSource);
	SYM(BuildProgram);
	SYM(GetProgramBuildInfo);
	SYM(CreateKernel);
	SYM(CreateBuffer);
	SYM(SetKernelArg);
	SYM(EnqueueWriteBuffer);
	SYM(EnqueueReadBuffer);
	SYM(EnqueueNDRangeKernel);
	SYM(Finish);
	SYM(ReleaseMemObject);
	SYM(ReleaseKernel);
	SYM(ReleaseProgram);
	SYM(ReleaseCommandQueue);
	SYM(ReleaseContext);
#undef SYM
	return 0;
}

int pocl_open(char *device, size_t dlen, char *why, size_t wlen)
{
	cl_platform_id plats[8];
	const char *src = kernels;
	cl_uint np = 0;
	cl_int err;

	lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, wlen, "no OpenCL (libOpenCL.so.1: install "
			 "pocl-opencl-icd)");
		return -1;
	}
	if (load_symbols()) {
		snprintf(why, wlen, "libOpenCL.so.1 lacks OpenCL 1.2");
		goto fail;
	}
	if (cl.GetPlatformIDs(8, plats, &np) != CL_SUCCESS)
		np = 0;
	dev = NULL;
	for (cl_uint i = 0; i < np && i < 8 && !dev; i++)
		if (cl.GetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &dev,
				    NULL) != CL_SUCCESS)
			dev = NULL;
	if (!dev) {
		snprintf(why, wlen, "no OpenCL CPU device (install "
			 "pocl-opencl-icd)");
		goto fail;
	}
	if (cl.GetDeviceInfo(dev, CL_DEVICE_NAME, dlen, device, NULL))
		snprintf(device, dlen, "?");
	ctx = cl.CreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (!ctx)
		goto fail_cl;
	queue = cl.CreateCommandQueue(ctx, dev, 0, &err);
	if (!queue)
		goto fail_cl;
	prog = cl.CreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (!prog)
		goto fail_cl;
	err = cl.BuildProgram(prog, 1, &dev, "", NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[2048] = "";

		cl.GetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG,
				       sizeof(log) - 1, log, NULL);
		snprintf(why, wlen, "OpenCL build failed: %.200s", log);
		goto fail;
	}
	return 0;
fail_cl:
	snprintf(why, wlen, "OpenCL error %d", err);
fail:
	pocl_close();
	return -1;
}

int pocl_run(const char *name, unsigned int dims, const size_t *global,
	     const size_t *local, struct pocl_arg *args, unsigned int nargs,
	     int reps, double *cpu_s, double *wall_s)
{
	cl_mem bufs[8] = { 0 };
	cl_kernel k;
	cl_int err;
	int ret = -1;

	if (nargs > 8)
		return -1;
	k = cl.CreateKernel(prog, name, &err);
	if (!k)
		goto out;
	for (unsigned int i = 0; i < nargs; i++) {
		if (args[i].buffer) {
			bufs[i] = cl.CreateBuffer(ctx, CL_MEM_READ_WRITE,
						  args[i].size, NULL, &err);
			if (!bufs[i])
				goto out;
			err = cl.SetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
		} else {
			err = cl.SetKernelArg(k, i, args[i].size, args[i].host);
		}
		if (err != CL_SUCCESS)
			goto out;
	}
	*cpu_s = *wall_s = 1e30;
	for (int rep = -1; rep < reps; rep++) {
		double c0, w0;

		for (unsigned int i = 0; i < nargs; i++) {
			if (!args[i].buffer)
				continue;
			err = cl.EnqueueWriteBuffer(queue, bufs[i], 1, 0,
						    args[i].size, args[i].host,
						    0, NULL, NULL);
			if (err != CL_SUCCESS)
				goto out;
		}
		c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		w0 = clock_s(CLOCK_MONOTONIC);
		err = cl.EnqueueNDRangeKernel(queue, k, dims, NULL, global,
					      local, 0, NULL, NULL);
		if (err == CL_SUCCESS)
			err = cl.Finish(queue);
		if (err != CL_SUCCESS)
			goto out;
		c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		w0 = clock_s(CLOCK_MONOTONIC) - w0;
		if (rep < 0)
			continue;	/* the warm-up: compiles, faults in */
		*cpu_s = c0 < *cpu_s ? c0 : *cpu_s;
		*wall_s = w0 < *wall_s ? w0 : *wall_s;
	}
	for (unsigned int i = 0; i < nargs; i++) {
		if (!args[i].buffer || !args[i].out)
			continue;
		err = cl.EnqueueReadBuffer(queue, bufs[i], 1, 0, args[i].size,
					   args[i].host, 0, NULL, NULL);
		if (err != CL_SUCCESS)
			goto out;
	}
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "pocl: %s: OpenCL error %d\n", name, err);
	for (unsigned int i = 0; i < nargs; i++)
		if (bufs[i])
			cl.ReleaseMemObject(bufs[i]);
	if (k)
		cl.ReleaseKernel(k);
	return ret;
}

void pocl_close(void)
{
	if (prog)
		cl.ReleaseProgram(prog);
	if (queue)
		cl.ReleaseCommandQueue(queue);
	if (ctx)
		cl.ReleaseContext(ctx);
	prog = NULL;
	queue = NULL;
	ctx = NULL;
	if (lib)
		dlclose(lib);
	lib = NULL;
}
