// SPDX-License-Identifier: GPL-2.0
//
// The device runtime (guest test).  Built as NVIDIA's samples build
// themselves: -rdc=true, PTX only (compute_90), so that nvcc device-links
// NVIDIA's libcudadevrt into the program and our driver must skip it and
// link its own (umd/cuda/devrt.ptx).  The kernel's device-side runtime
// calls are checked against what the host API answers.
//
// devrt_missing.cu, built the same way, calls a device-runtime function
// that vGPU does not provide yet: its load must fail with
// cudaErrorInvalidPtx and a message on stderr that names the function.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_tap.h"

#if !defined(DEVRT_MISSING_BIN) || !defined(PROBE_DEVRT_BIN)
#error "the build names the programs this test runs"
#endif

struct devrt_answers {
	int err_device, device;
	int err_count, count;
	int err_version, version;
	int err_attr[4], attr[4];
	int err_bad_device, bad_device_value;
	int err_bad_attr, bad_attr_value;
	int err_negative_attr;
	int err_attr_zero, attr_zero;
};

/* The attributes compared, asked for by the kernel and by the host. */
#define PROBE_ATTRS { cudaDevAttrMaxThreadsPerBlock, \
	cudaDevAttrMultiProcessorCount, cudaDevAttrComputeCapabilityMajor, \
	cudaDevAttrWarpSize }
static const cudaDeviceAttr probe_attrs[4] = PROBE_ATTRS;

__global__ void ask_device_runtime(struct devrt_answers *a, int ndev)
{
	const cudaDeviceAttr probe_attrs[4] = PROBE_ATTRS;

	a->err_device = cudaGetDevice(&a->device);
	a->err_count = cudaGetDeviceCount(&a->count);
	a->err_version = cudaRuntimeGetVersion(&a->version);
	for (int i = 0; i < 4; i++)
		a->err_attr[i] = cudaDeviceGetAttribute(&a->attr[i],
							probe_attrs[i],
							a->device);
	a->bad_device_value = -7;
	a->err_bad_device = cudaDeviceGetAttribute(&a->bad_device_value,
						   cudaDevAttrWarpSize, ndev + 1);
	a->bad_attr_value = -7;
	a->err_bad_attr = cudaDeviceGetAttribute(&a->bad_attr_value,
						 (cudaDeviceAttr)100000, 0);
	a->err_negative_attr = cudaDeviceGetAttribute(&a->bad_attr_value,
						      (cudaDeviceAttr)-1, 0);
	a->attr_zero = -7;
	a->err_attr_zero = cudaDeviceGetAttribute(&a->attr_zero,
						  (cudaDeviceAttr)0, 0);
}

/* Error codes whose device-side names and strings are compared. */
#define ERROR_PROBES { cudaSuccess, cudaErrorInvalidValue, \
	cudaErrorInvalidDevice, cudaErrorInvalidPtx, cudaErrorUnknown, \
	(cudaError_t)12345 }
#define NPROBES 6
#define STRLEN 96

struct devrt_strings {
	char name[NPROBES][STRLEN];
	char text[NPROBES][STRLEN];
};

__device__ static void copy_string(char *dst, const char *src)
{
	int i = 0;

	for (; src && src[i] && i < STRLEN - 1; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

__global__ void ask_error_strings(struct devrt_strings *s)
{
	const cudaError_t probes[NPROBES] = ERROR_PROBES;

	for (int i = 0; i < NPROBES; i++) {
		copy_string(s->name[i], cudaGetErrorName(probes[i]));
		copy_string(s->text[i], cudaGetErrorString(probes[i]));
	}
}

static void test_error_strings(void)
{
	const cudaError_t probes[NPROBES] = ERROR_PROBES;
	struct devrt_strings *d, s;
	bool same = true;

	if (!OK(cudaMalloc(&d, sizeof(*d))))
		return;
	ask_error_strings<<<1, 1>>>(d);
	OK(cudaDeviceSynchronize());
	memset(&s, 0, sizeof(s));
	OK(cudaMemcpy(&s, d, sizeof(s), cudaMemcpyDeviceToHost));
	for (int i = 0; i < NPROBES; i++)
		if (strcmp(s.name[i], cudaGetErrorName(probes[i])) ||
		    strcmp(s.text[i], cudaGetErrorString(probes[i]))) {
			tap_diag("code %d: device \"%s\" / \"%s\", host \"%s\" / \"%s\"",
				 (int)probes[i], s.name[i], s.text[i],
				 cudaGetErrorName(probes[i]),
				 cudaGetErrorString(probes[i]));
			same = false;
		}
	TAP(same, "device cudaGetErrorName/String answer as the host's, unknown codes too");
	cudaFree(d);
}

static void test_answers(void)
{
	struct devrt_answers *d, a;
	int dev = -1, count = 0, version = 0;
	bool same = true;

	OK(cudaGetDevice(&dev));
	OK(cudaGetDeviceCount(&count));
	OK(cudaRuntimeGetVersion(&version));
	if (!OK(cudaMalloc(&d, sizeof(*d))))
		return;
	ask_device_runtime<<<1, 1>>>(d, count);
	TAP(OK(cudaGetLastError()) && OK(cudaDeviceSynchronize()),
	    "a -rdc=true, PTX-only program loads and runs");
	memset(&a, 0, sizeof(a));
	OK(cudaMemcpy(&a, d, sizeof(a), cudaMemcpyDeviceToHost));
	TAP(a.err_device == cudaSuccess && a.device == dev,
	    "device cudaGetDevice: %d (host %d)", a.device, dev);
	TAP(a.err_count == cudaSuccess && a.count == count,
	    "device cudaGetDeviceCount: %d (host %d)", a.count, count);
	/* the device runtime's own version, as an H100 answers */
	TAP(a.err_version == cudaSuccess && a.version == 6000,
	    "device cudaRuntimeGetVersion: %d (host %d)", a.version, version);
	for (int i = 0; i < 4; i++) {
		int host = -1;

		OK(cudaDeviceGetAttribute(&host, probe_attrs[i], dev));
		if (a.err_attr[i] != cudaSuccess || a.attr[i] != host) {
			tap_diag("attribute %d: device %d (error %d), host %d",
				 (int)probe_attrs[i], a.attr[i], a.err_attr[i],
				 host);
			same = false;
		}
	}
	TAP(same, "device cudaDeviceGetAttribute answers as the host API");
	TAP(a.err_bad_device == cudaErrorInvalidDevice &&
	    a.bad_device_value == -7,
	    "device cudaDeviceGetAttribute of device %d: invalid device, value untouched",
	    count + 1);
	TAP(a.err_bad_attr == cudaErrorInvalidValue &&
	    a.err_negative_attr == cudaErrorInvalidValue &&
	    a.bad_attr_value == -7,
	    "device cudaDeviceGetAttribute of an unknown attribute: invalid value");
	/* the host refuses attribute 0; an H100's device runtime answers 0 */
	TAP(a.err_attr_zero == cudaSuccess && a.attr_zero == 0,
	    "device cudaDeviceGetAttribute of attribute 0: 0, as on an H100");
	cudaFree(d);
}

/* Run @bin; its stdout and stderr in @out, its exit status returned. */
static int run(const char *bin, char *out, size_t outsz)
{
	char cmd[512];
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "%s 2>&1", bin);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, outsz - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_missing_function(void)
{
	char out[4096];
	int rc = run(DEVRT_MISSING_BIN, out, sizeof(out));

	tap_diag("%s", out);
	TAP(rc == cudaErrorInvalidPtx,
	    "a program needing device-side cudaMalloc fails to load: exit %d", rc);
	TAP(strstr(out, "__cudaCDP2Malloc") &&
	    strstr(out, "vGPU's does not provide yet"),
	    "the message names the missing device-runtime function");
}

/*
 * probe_devrt's answers, line by line, against those an H100 gave
 * (tools/cuda-probe/golden/probe_devrt.h100.txt); the first line names
 * the GPU and is not compared.
 */
static void test_probe_recording(void)
{
	static char ours[32768], golden[32768];
	char *o, *g, *so, *sg;
	FILE *f = fopen(PROBE_DEVRT_GOLDEN, "r");
	int line = 1, differ = 0;
	size_t n = 0;

	if (f) {
		n = fread(golden, 1, sizeof(golden) - 1, f);
		fclose(f);
	}
	golden[n] = '\0';
	run(PROBE_DEVRT_BIN, ours, sizeof(ours));
	o = strtok_r(ours, "\n", &so);
	g = strtok_r(golden, "\n", &sg);
	while (o || g) {
		if (line > 1 && (!o || !g || strcmp(o, g))) {
			tap_diag("probe line %d: ours \"%s\", H100 \"%s\"", line,
				 o ? o : "(none)", g ? g : "(none)");
			differ++;
		}
		o = o ? strtok_r(NULL, "\n", &so) : NULL;
		g = g ? strtok_r(NULL, "\n", &sg) : NULL;
		line++;
	}
	TAP(n && !differ, "probe_devrt answers as the H100 recording (%d lines, %d differ)",
	    line - 1, differ);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	tap_plan(-1);
	test_answers();
	test_error_strings();
	test_probe_recording();
	test_missing_function();
	fw_launcher_stop(fw);
	return tap_finish();
}
