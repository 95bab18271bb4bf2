// SPDX-License-Identifier: GPL-2.0
//
// L2 access policy windows on graph kernel nodes (guest test):
//
//  - cudaGraphKernelNodeSetAttribute / GetAttribute with
//    cudaLaunchAttributeAccessPolicyWindow on a node added by hand: a node
//    has none at first (all zero), keeps what it is given, refuses what a
//    stream refuses (a window over accessPolicyMaxWindowSize, a hitRatio
//    over 1, a persisting missProp: cudaErrorInvalidValue, the window
//    unchanged), and cudaGraphKernelNodeCopyAttributes and cudaGraphClone
//    carry it;
//  - capture: a launch captured from a stream with a window gives a node
//    with that window, and cudaLaunchKernelEx's own window wins over the
//    stream's;
//  - the window reaches the launch: the program profiles itself
//    (VGPU_PROF_OUT, as vgpu-prof runs it, Documentation/profiler.rst) and
//    reads the firmware's L2 model's count of hits on persisting lines.
//    A region of an eighth of the L2, read twice by a graph whose node has
//    a persisting window, hits persisting lines on the second read (all
//    but the few lines of sets the hash fills past their share); the
//    same graph without the window, and the node's window reset away, hits
//    none.  Those cases are vGPU's (marked "vGPU:"): NVIDIA's driver
//    writes no such file.
//
// Run against NVIDIA's runtime on an H100 with
// tools/cuda-probe/run-tests-on-gpu (tools/cuda-probe/golden/
// test_cudart_graph_l2.h100.txt).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_tap.h"

static char prof_path[] = "/tmp/test_cudart_graph_l2.XXXXXX";

extern "C" __global__ void l2_touch(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i & 31] = __ldcg(in + i);
}

static bool same_window(const cudaAccessPolicyWindow &a,
			const cudaAccessPolicyWindow &b)
{
	return a.base_ptr == b.base_ptr && a.num_bytes == b.num_bytes &&
	       a.hitRatio == b.hitRatio && a.hitProp == b.hitProp &&
	       a.missProp == b.missProp;
}

static cudaAccessPolicyWindow node_window(cudaGraphNode_t n)
{
	cudaLaunchAttributeValue v;

	memset(&v, 0x5a, sizeof(v));
	if (!OK(cudaGraphKernelNodeGetAttribute(n,
			cudaLaunchAttributeAccessPolicyWindow, &v)))
		memset(&v, 0x5a, sizeof(v));
	return v.accessPolicyWindow;
}

/* The kernel node of a graph of one node. */
static cudaGraphNode_t only_node(cudaGraph_t g)
{
	cudaGraphNode_t n = NULL;
	size_t num = 1;

	if (!OK(cudaGraphGetNodes(g, &n, &num)) || num != 1)
		return NULL;
	return n;
}

static void test_set_get(const float *in, float *out, int n)
{
	cudaKernelNodeParams p = {};
	cudaLaunchAttributeValue v = {}, bad;
	cudaAccessPolicyWindow zero = {}, w = {};
	cudaGraphNode_t node, other, cn;
	cudaGraph_t g, clone;
	void *args[] = { &in, &out, &n };
	int max_window = 0;

	OK(cudaDeviceGetAttribute(&max_window,
				  cudaDevAttrMaxAccessPolicyWindowSize, 0));
	p.func = (void *)l2_touch;
	p.gridDim = dim3((n + 255) / 256);
	p.blockDim = dim3(256);
	p.kernelParams = args;
	if (!TAP(OK(cudaGraphCreate(&g, 0)) &&
		 OK(cudaGraphAddKernelNode(&node, g, NULL, 0, &p)) &&
		 OK(cudaGraphAddKernelNode(&other, g, NULL, 0, &p)),
		 "a graph with two kernel nodes"))
		return;
	TAP(same_window(node_window(node), zero),
	    "a new node has no window (all zero)");

	w.base_ptr = (void *)in;
	w.num_bytes = (size_t)n * sizeof(float);
	w.hitRatio = 0.6f;
	w.hitProp = cudaAccessPropertyPersisting;
	w.missProp = cudaAccessPropertyStreaming;
	v.accessPolicyWindow = w;
	TAP(OK(cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &v)) &&
	    same_window(node_window(node), w),
	    "set, then get: the same window");

	bad = v;
	bad.accessPolicyWindow.num_bytes = (size_t)max_window + 1;
	TAP(IS(cudaErrorInvalidValue, cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &bad)),
	    "a window over accessPolicyMaxWindowSize: cudaErrorInvalidValue");
	cudaGetLastError();
	bad = v;
	bad.accessPolicyWindow.hitRatio = 1.5f;
	TAP(IS(cudaErrorInvalidValue, cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &bad)),
	    "hitRatio 1.5: cudaErrorInvalidValue");
	cudaGetLastError();
	bad = v;
	bad.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
	TAP(IS(cudaErrorInvalidValue, cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &bad)),
	    "a persisting missProp: cudaErrorInvalidValue");
	cudaGetLastError();
	TAP(same_window(node_window(node), w),
	    "the refused windows left the node's as it was");

	TAP(OK(cudaGraphKernelNodeCopyAttributes(other, node)) &&
	    same_window(node_window(other), w),
	    "cudaGraphKernelNodeCopyAttributes copies the window");
	if (TAP(OK(cudaGraphClone(&clone, g)), "cudaGraphClone")) {
		TAP(OK(cudaGraphNodeFindInClone(&cn, node, clone)) &&
		    same_window(node_window(cn), w),
		    "a clone's node keeps the window");
		cudaGraphDestroy(clone);
	}
	v.accessPolicyWindow = zero;
	TAP(OK(cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &v)) &&
	    same_window(node_window(node), zero),
	    "a zero window takes the node's away");
	cudaGraphDestroy(g);
}

static void test_capture(cudaStream_t s, const float *in, float *out, int n)
{
	cudaStreamAttrValue sa = {};
	cudaAccessPolicyWindow none = {}, ex;
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg = {};
	cudaGraph_t g;
	cudaGraphNode_t node;

	sa.accessPolicyWindow.base_ptr = (void *)in;
	sa.accessPolicyWindow.num_bytes = (size_t)n * sizeof(float);
	sa.accessPolicyWindow.hitRatio = 1.0f;
	sa.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	sa.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	OK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
				  &sa));

	OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	l2_touch<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
	if (TAP(OK(cudaStreamEndCapture(s, &g)), "capture a launch")) {
		node = only_node(g);
		TAP(node && same_window(node_window(node),
					sa.accessPolicyWindow),
		    "the captured node has the stream's window");
		cudaGraphDestroy(g);
	}

	ex = sa.accessPolicyWindow;
	ex.num_bytes /= 2;
	ex.hitRatio = 0.5f;
	attr.id = cudaLaunchAttributeAccessPolicyWindow;
	attr.val.accessPolicyWindow = ex;
	cfg.gridDim = dim3((n + 255) / 256);
	cfg.blockDim = dim3(256);
	cfg.stream = s;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	OK(cudaLaunchKernelEx(&cfg, l2_touch, in, out, n));
	if (TAP(OK(cudaStreamEndCapture(s, &g)),
		"capture a cudaLaunchKernelEx with a window")) {
		node = only_node(g);
		TAP(node && same_window(node_window(node), ex),
		    "the launch's window wins over the stream's");
		cudaGraphDestroy(g);
	}

	sa.accessPolicyWindow = none;
	OK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
				  &sa));
	OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	l2_touch<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
	if (TAP(OK(cudaStreamEndCapture(s, &g)),
		"capture from a stream without a window")) {
		node = only_node(g);
		TAP(node && same_window(node_window(node), none),
		    "the captured node has no window");
		cudaGraphDestroy(g);
	}
}

/*
 * The hits on persisting lines of the last @count launches of l2_touch
 * in the profile file, summed; -1 when there are fewer.
 */
static long long persisting_hits(int count)
{
	FILE *f = fopen(prof_path, "r");
	long long hits[64];
	char line[4096];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, " l2_persisting_hits=");

		if (!strstr(line, " l2_touch ") || !p)
			continue;
		hits[n++ % 64] = atoll(p + strlen(" l2_persisting_hits="));
	}
	fclose(f);
	if (n < count || count > 64)
		return -1;
	long long sum = 0;
	for (int i = n - count; i < n; i++)
		sum += hits[i % 64];
	return sum;
}

/* Launch @ge twice into @s; the persisting hits of the second launch. */
static long long run_twice(cudaGraphExec_t ge, cudaStream_t s)
{
	if (!OK(cudaGraphLaunch(ge, s)) || !OK(cudaGraphLaunch(ge, s)) ||
	    !OK(cudaStreamSynchronize(s)))
		return -1;
	return persisting_hits(1);
}

static void test_reaches_launch(cudaStream_t s, const float *in, float *out,
				int n)
{
	cudaKernelNodeParams p = {};
	cudaLaunchAttributeValue v = {};
	void *args[] = { &in, &out, &n };
	cudaGraphExec_t ge;
	cudaGraphNode_t node;
	cudaGraph_t g;
	long long h;

	p.func = (void *)l2_touch;
	p.gridDim = dim3((n + 255) / 256);
	p.blockDim = dim3(256);
	p.kernelParams = args;
	if (!TAP(OK(cudaGraphCreate(&g, 0)) &&
		 OK(cudaGraphAddKernelNode(&node, g, NULL, 0, &p)) &&
		 OK(cudaGraphInstantiate(&ge, g, 0)),
		 "a graph of one node, instantiated without a window"))
		return;
	OK(cudaCtxResetPersistingL2Cache());
	h = run_twice(ge, s);
	TAP(h == 0, "vGPU: without a window, no persisting hits (%lld)", h);
	cudaGraphExecDestroy(ge);

	v.accessPolicyWindow.base_ptr = (void *)in;
	v.accessPolicyWindow.num_bytes = (size_t)n * sizeof(float);
	v.accessPolicyWindow.hitRatio = 1.0f;
	v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	OK(cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &v));
	if (TAP(OK(cudaGraphInstantiate(&ge, g, 0)),
		"instantiated with the node's window")) {
		OK(cudaCtxResetPersistingL2Cache());
		h = run_twice(ge, s);
		// every sector of the region is read once a launch
		long long sectors = (long long)n * 4 / 32;

		TAP(h >= sectors * 99 / 100 && h <= sectors,
		    "vGPU: the node's window: the second read hits persisting "
		    "lines (%lld of %lld sectors)", h, sectors);
		cudaGraphExecDestroy(ge);
	}

	v.accessPolicyWindow.num_bytes = 0;
	OK(cudaGraphKernelNodeSetAttribute(node,
			cudaLaunchAttributeAccessPolicyWindow, &v));
	if (TAP(OK(cudaGraphInstantiate(&ge, g, 0)),
		"instantiated with the window taken away")) {
		OK(cudaCtxResetPersistingL2Cache());
		h = run_twice(ge, s);
		TAP(h == 0, "vGPU: window taken away: no persisting hits "
		    "(%lld)", h);
		cudaGraphExecDestroy(ge);
	}
	cudaGraphDestroy(g);
}

int main(void)
{
	pid_t fw;
	cudaStream_t s;
	float *in, *out;
	int l2 = 0, max_persist = 0, n, fd;

	// before the first launch: libcuda opens it once (profile.c)
	fd = mkstemp(prof_path);
	if (fd >= 0) {
		close(fd);
		setenv("VGPU_PROF_OUT", prof_path, 1);
	}
	fw = fw_launcher_start();
	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	OK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	OK(cudaDeviceGetAttribute(&max_persist,
				  cudaDevAttrMaxPersistingL2CacheSize, 0));
	// the guide's set-aside: as much as allowed
	OK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_persist));
	n = l2 / 8 / (int)sizeof(float);	// an eighth of the L2
	if (!TAP(n > 0 && OK(cudaMalloc(&in, (size_t)n * sizeof(float))) &&
		 OK(cudaMalloc(&out, 32 * sizeof(float))),
		 "buffers of an eighth of the L2 (%d floats)", n))
		return tap_finish();
	OK(cudaMemset(in, 0, (size_t)n * sizeof(float)));
	OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	test_set_get(in, out, n);
	test_capture(s, in, out, n);
	test_reaches_launch(s, in, out, n);
	cudaStreamDestroy(s);
	cudaFree(in);
	cudaFree(out);
	cudaDeviceReset();
	fw_launcher_stop(fw);
	unlink(prof_path);
	return tap_finish();
}
