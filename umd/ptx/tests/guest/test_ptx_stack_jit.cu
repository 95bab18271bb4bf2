// SPDX-License-Identifier: GPL-2.0
//
// test_ptx_stack_jit (guest test): two answers of issue #11 item 7 and
// #14 item 8 through the whole stack, built by nvcc with PTX only
// (compute_90) so that our libcuda compiles the kernels at load time.
//
// alloca: device alloca() in a kernel and in a function it calls (nvcc
// emits PTX alloca), a different size per thread, against the CPU; a
// callee's allocations are freed when it returns (it is called often
// enough to overflow the stack otherwise).
//
// assert: tools/cuda-probe/probe_assert_printf.cu, built from the same
// path as on the H100, run in its "assert" mode: every failing thread
// prints its line on stderr once, and those lines are the recorded ones
// (tools/cuda-probe/golden/probe_assert_printf.h100.txt) as a set (the
// H100 prints the warps in no fixed order); stdout's error codes are the
// recorded ones line for line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

#if !defined(PROBE_ASSERT_BIN) || !defined(PROBE_ASSERT_GOLDEN)
#error "the build names the probe and its recording"
#endif

#define THREADS 96
#define CALLS 40

__device__ __noinline__ int sumsq(int n)
{
	int *v = (int *)alloca(n * sizeof(int));
	int s = 0;

	for (int i = 0; i < n; i++)
		v[i] = i * i;
	for (int i = n - 1; i >= 0; i--)
		s += v[i];
	return s;
}

__global__ void stack(int *out, int n)
{
	int m = n + threadIdx.x % 7;
	int *buf = (int *)alloca(m * sizeof(int));
	int s = 0;

	for (int i = 0; i < m; i++)
		buf[i] = threadIdx.x * 3 + i;
	for (int c = 0; c < CALLS; c++)
		s = sumsq(m + c % 2);
	for (int i = 0; i < m; i++)
		s += buf[i];
	out[threadIdx.x] = s;
	out[THREADS + threadIdx.x] = (int)((size_t)buf & 15);
}

static int expect(int t, int n)
{
	int m = n + t % 7, s = 0;

	for (int i = 0; i < m + (CALLS - 1) % 2; i++)
		s += i * i;
	for (int i = 0; i < m; i++)
		s += t * 3 + i;
	return s;
}

static char *slurp(FILE *f, size_t cap)
{
	char *buf = (char *)malloc(cap);
	size_t n = 0;

	if (!buf)
		return NULL;
	if (f)
		n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	return buf;
}

/* The lines of the golden section that starts with @title, up to the next. */
static char *section(const char *golden, const char *title)
{
	const char *s = strstr(golden, title), *e;
	char *out;

	if (!s)
		return NULL;
	s = strchr(s, '\n');
	if (!s)
		return NULL;
	s++;
	e = strstr(s, "\n## ");
	e = e ? e + 1 : s + strlen(s);
	out = strndup(s, (size_t)(e - s));
	return out;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @text's lines, sorted, joined again: a set to compare. */
static char *sorted(char *text)
{
	char *lines[256], *save = NULL, *l, *out;
	size_t n = 0, len = 0;

	for (l = strtok_r(text, "\n", &save); l && n < 256;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	qsort(lines, n, sizeof(lines[0]), cmp_line);
	for (size_t i = 0; i < n; i++)
		len += strlen(lines[i]) + 1;
	out = (char *)calloc(1, len + 1);
	for (size_t i = 0; out && i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	return out;
}

static void check_assert(void)
{
	char cmd[1024], *golden, *out, *err, *want_out, *want_err;
	FILE *f, *p;

	snprintf(cmd, sizeof(cmd), "%s assert 2>/tmp/assert.err",
		 PROBE_ASSERT_BIN);
	p = popen(cmd, "r");
	out = slurp(p, 1 << 16);
	if (p)
		pclose(p);
	f = fopen("/tmp/assert.err", "r");
	err = slurp(f, 1 << 16);
	if (f)
		fclose(f);
	f = fopen(PROBE_ASSERT_GOLDEN, "r");
	golden = slurp(f, 1 << 20);
	if (f)
		fclose(f);
	if (!TAP(out && err && golden && golden[0], "the probe ran and the recording is there"))
		return;
	want_out = section(golden, "## assert (stdout)");
	want_err = section(golden, "## assert (stderr");
	if (!TAP(want_out && want_err, "the recording has the assert sections"))
		return;
	TAP(!strcmp(out, want_out),
	    "stdout: the error codes after a failed assert are the H100's");
	if (strcmp(out, want_out))
		tap_diag("ours:\n%swant:\n%s", out, want_out);
	{
		char *ours = sorted(err), *want = sorted(want_err);

		TAP(ours && want && !strcmp(ours, want),
		    "stderr: one line per failing thread (8), the H100's lines");
		if (ours && want && strcmp(ours, want))
			tap_diag("ours:\n%swant:\n%s", ours, want);
		free(ours);
		free(want);
	}
	free(out);
	free(err);
	free(golden);
	free(want_out);
	free(want_err);
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	int *o, bad = 0, align_bad = 0;
	const int n = 24;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	if (!TAP(OK(cudaMallocManaged(&o, 2 * THREADS * sizeof(int))),
		 "managed output"))
		return tap_finish();
	stack<<<1, THREADS>>>(o, n);
	if (TAP(OK(cudaDeviceSynchronize()),
		"alloca kernel runs (JIT from compute_90 PTX)")) {
		for (int t = 0; t < THREADS; t++) {
			bad += o[t] != expect(t, n);
			align_bad += o[THREADS + t] != 0;
		}
		TAP(!bad, "device alloca() of 24..30 ints per thread, in a kernel "
		    "and in a function called %d times: the CPU's sums (%d "
		    "wrong; thread 5: %d, want %d)", CALLS, bad, o[5],
		    expect(5, n));
		TAP(!align_bad, "alloca()'s memory is 16-byte aligned (%d wrong)",
		    align_bad);
	}
	cudaFree(o);
	check_assert();
	return tap_finish();
}
