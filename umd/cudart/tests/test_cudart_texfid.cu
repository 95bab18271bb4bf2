// SPDX-License-Identifier: GPL-2.0
//
// test_cudart_texfid (guest test): what issue #10 left to match with an
// H100, end to end through the runtime, libcuda and the texture unit.
//
//  - tools/cuda-probe/probe_texfid.cu, built against vGPU, answers its
//    "view" lines (resource views with a layer range on layered, cubemap
//    layered and mipmapped layered arrays: create's code, the getter, the
//    texel fetched for each layer index) and its "dead" lines (the host
//    API on destroyed texture and surface objects) exactly as the H100
//    recording tests/golden/probe_texfid.h100.txt.  The handles' values
//    differ by design (vGPU's are descriptor VAs, the H100's small
//    integers); that a destroyed handle is the next one given is checked.
//  - A kernel fetching through a destroyed texture object, and storing
//    through a destroyed surface object, succeeds and reads the texel the
//    object showed (the H100: probe_texptx's tex_destroyed): the
//    descriptor heap keeps the stale descriptor.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_tap.h"

#if !defined(PROBE_TEXFID_BIN) || !defined(PROBE_TEXFID_GOLDEN)
#error "the build names the probe and its recording"
#endif

/* Run @bin; its stdout in @out, its exit status returned. */
static int run(const char *bin, char *out, size_t outsz)
{
	FILE *p = popen(bin, "r");
	size_t n;
	int status;

	if (!p)
		return -1;
	n = fread(out, 1, outsz - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The lines of @text that start with @prefix, in order, '\n'-joined. */
static void lines_of(const char *text, const char *prefix, char *out,
		     size_t outsz)
{
	const char *l = text;
	size_t n = 0, len;

	out[0] = '\0';
	while (l && *l) {
		const char *e = strchr(l, '\n');

		len = e ? (size_t)(e - l) : strlen(l);
		if (!strncmp(l, prefix, strlen(prefix)) &&
		    n + len + 2 < outsz) {
			memcpy(out + n, l, len);
			n += len;
			out[n++] = '\n';
			out[n] = '\0';
		}
		l = e ? e + 1 : NULL;
	}
}

/* The number after @key in the line starting with @line_prefix. */
static unsigned long long value_after(const char *text, const char *line_prefix,
				      const char *key)
{
	const char *l = strstr(text, line_prefix), *k;

	if (!l)
		return 0;
	k = strstr(l, key);
	return k ? strtoull(k + strlen(key), NULL, 10) : 0;
}

/* Lines of @prefix, ours against the H100's; "dead handles" left out. */
static void compare(const char *ours, const char *golden, const char *prefix,
		    const char *what)
{
	static char a[65536], b[65536];
	char *sa, *sb, *la, *lb;
	int n = 0, differ = 0;

	lines_of(ours, prefix, a, sizeof(a));
	lines_of(golden, prefix, b, sizeof(b));
	la = strtok_r(a, "\n", &sa);
	lb = strtok_r(b, "\n", &sb);
	while (la || lb) {
		if (!la || !lb || strncmp(la, "dead handles", 12) ||
		    strncmp(lb, "dead handles", 12)) {
			if (!la || !lb || strcmp(la, lb)) {
				tap_diag("ours \"%s\"", la ? la : "(none)");
				tap_diag("H100 \"%s\"", lb ? lb : "(none)");
				differ++;
			}
		}
		n++;
		la = la ? strtok_r(NULL, "\n", &sa) : NULL;
		lb = lb ? strtok_r(NULL, "\n", &sb) : NULL;
	}
	TAP(n > 1 && !differ, "%s as the H100 recording (%d lines, %d differ)",
	    what, n, differ);
}

static void test_probe(void)
{
	static char ours[1 << 20], golden[1 << 20];
	FILE *f = fopen(PROBE_TEXFID_GOLDEN, "r");
	size_t n = 0;
	int rc;

	if (f) {
		n = fread(golden, 1, sizeof(golden) - 1, f);
		fclose(f);
	}
	golden[n] = '\0';
	rc = run(PROBE_TEXFID_BIN, ours, sizeof(ours));
	TAP(rc == 0 && n, "probe_texfid runs (exit %d) and its recording is there", rc);
	compare(ours, golden, "view ", "resource views with layer ranges answer");
	compare(ours, golden, "dead ", "the host API on destroyed objects answers");
	/* the H100: 1, 2, 3; 1 destroyed; the next two are 1 and 4 */
	TAP(value_after(ours, "dead handles after t3", "t3 ") ==
	    value_after(ours, "dead handles t1", "t1 ") &&
	    value_after(ours, "dead handles after t3", "t4 ") !=
	    value_after(ours, "dead handles t1", "t2 "),
	    "a destroyed object's handle is the next one created (H100)");
	TAP(value_after(ours, "dead handles after s2", "s2 ") ==
	    value_after(ours, "dead handles t1", "s1 "),
	    "a destroyed surface's handle is the next one created (H100)");
}

__global__ void fetch(cudaTextureObject_t t, float *out)
{
	out[0] = tex2D<float>(t, 2.5f, 1.5f);
}

__global__ void store(cudaSurfaceObject_t s, float v)
{
	surf2Dwrite(v, s, 4 * 3, 2);
}

static void test_destroyed(void)
{
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaArray_t a;
	float host[4 * 4], *out, got = -1.0f;
	cudaResourceDesc rd = {};
	cudaTextureDesc td = {};
	cudaTextureObject_t t = 0;
	cudaSurfaceObject_t s = 0;

	for (int i = 0; i < 16; i++)
		host[i] = 10.0f + i;
	OK(cudaMallocArray(&a, &cd, 4, 4, cudaArraySurfaceLoadStore));
	OK(cudaMemcpy2DToArray(a, 0, 0, host, 16, 16, 4, cudaMemcpyHostToDevice));
	OK(cudaMalloc(&out, sizeof(float)));
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	OK(cudaCreateSurfaceObject(&s, &rd));
	OK(cudaDestroyTextureObject(t));
	fetch<<<1, 1>>>(t, out);
	TAP(IS(cudaSuccess, cudaGetLastError()) &&
	    IS(cudaSuccess, cudaDeviceSynchronize()),
	    "a fetch through a destroyed texture object succeeds (H100)");
	OK(cudaMemcpy(&got, out, sizeof(got), cudaMemcpyDeviceToHost));
	TAP(got == host[1 * 4 + 2], "it reads the texel the object showed: %g", got);
	OK(cudaDestroySurfaceObject(s));
	store<<<1, 1>>>(s, 99.0f);
	TAP(IS(cudaSuccess, cudaGetLastError()) &&
	    IS(cudaSuccess, cudaDeviceSynchronize()),
	    "a store through a destroyed surface object succeeds (H100)");
	OK(cudaMemcpy2DFromArray(host, 16, a, 0, 0, 16, 4, cudaMemcpyDeviceToHost));
	TAP(host[2 * 4 + 3] == 99.0f, "it reaches the array: %g", host[2 * 4 + 3]);
	TAP(IS(cudaSuccess, cudaDestroyTextureObject(t)) &&
	    IS(cudaSuccess, cudaDestroySurfaceObject(s)),
	    "destroying them again succeeds and does nothing (H100)");
	cudaFree(out);
	cudaFreeArray(a);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	tap_plan(-1);
	test_probe();
	test_destroyed();
	fw_launcher_stop(fw);
	return tap_finish();
}
