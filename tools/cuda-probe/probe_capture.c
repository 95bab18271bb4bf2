// SPDX-License-Identifier: GPL-2.0
/*
 * probe_capture.c - what NVIDIA's driver answers to stream-capture and
 * graph calls whose result the documentation leaves open, and to a few
 * 3D-copy and IPC-event errors.  One line per call: "what RESULT".
 *
 *   gcc -o probe_capture probe_capture.c -I/usr/local/cuda/include -lcuda -lpthread
 */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void drv(const char *what, CUresult r)
{
	const char *n = "?";

	cuGetErrorName(r, &n);
	printf("%s %s\n", what, n);
	fflush(stdout);
}

static const char *status_name(CUstreamCaptureStatus st)
{
	switch (st) {
	case CU_STREAM_CAPTURE_STATUS_NONE: return "NONE";
	case CU_STREAM_CAPTURE_STATUS_ACTIVE: return "ACTIVE";
	case CU_STREAM_CAPTURE_STATUS_INVALIDATED: return "INVALIDATED";
	default: return "?";
	}
}

static void status(const char *what, CUstream s)
{
	CUstreamCaptureStatus st = 99;
	CUresult r = cuStreamIsCapturing(s, &st);
	const char *n = "?";

	cuGetErrorName(r, &n);
	printf("%s %s %s\n", what, n, r == CUDA_SUCCESS ? status_name(st) : "-");
	fflush(stdout);
}

static void end(const char *what, CUstream s)
{
	CUgraph g = NULL;
	char line[160];

	snprintf(line, sizeof(line), "%s: cuStreamEndCapture", what);
	drv(line, cuStreamEndCapture(s, &g));
	printf("%s: graph %s\n", what, g ? "returned" : "NULL");
	if (g)
		cuGraphDestroy(g);
}

struct other_end {
	CUcontext ctx;
	CUstream s;
	CUresult r;
};

static void *end_in_thread(void *p)
{
	struct other_end *o = p;
	CUgraph g = NULL;

	cuCtxSetCurrent(o->ctx);
	o->r = cuStreamEndCapture(o->s, &g);
	return NULL;
}

int main(void)
{
	CUcontext ctx;
	CUstream s, other, nb;
	CUevent ev;
	CUdeviceptr d;
	CUgraph g;
	CUgraphExec ge;
	CUgraphNode a, b;
	CUstreamCaptureMode mode;
	struct other_end o;
	pthread_t t;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx))
		return 1;
	cuStreamCreate(&s, CU_STREAM_DEFAULT);
	cuStreamCreate(&other, CU_STREAM_DEFAULT);
	cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING);
	cuMemAlloc(&d, 1 << 20);

	/* Begin twice; end without a begin. */
	drv("begin(global)", cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	drv("begin again", cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	status("after begin again: isCapturing", s);
	end("begin twice", s);
	end("never began", s);

	/* Synchronising calls during a global capture of a blocking stream. */
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	drv("global capture: cuCtxSynchronize", cuCtxSynchronize());
	status("after cuCtxSynchronize: isCapturing", s);
	end("after cuCtxSynchronize", s);
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	drv("global capture: cuStreamSynchronize(NULL)", cuStreamSynchronize(NULL));
	status("after sync(NULL): isCapturing", s);
	end("after sync(NULL)", s);
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	drv("global capture: cuStreamQuery(NULL)", cuStreamQuery(NULL));
	end("after query(NULL)", s);

	/* Another stream, during a capture of a non-blocking one. */
	static const struct { const char *name; CUstreamCaptureMode m; } modes[] = {
		{ "global", CU_STREAM_CAPTURE_MODE_GLOBAL },
		{ "thread_local", CU_STREAM_CAPTURE_MODE_THREAD_LOCAL },
		{ "relaxed", CU_STREAM_CAPTURE_MODE_RELAXED },
	};
	for (int i = 0; i < 3; i++) {
		char what[160];

		cuStreamBeginCapture(nb, modes[i].m);
		snprintf(what, sizeof(what), "%s capture of nb: cuStreamSynchronize(other)", modes[i].name);
		drv(what, cuStreamSynchronize(other));
		snprintf(what, sizeof(what), "%s capture of nb: cuStreamQuery(other)", modes[i].name);
		drv(what, cuStreamQuery(other));
		snprintf(what, sizeof(what), "%s capture of nb: cuMemsetD32 (sync, legacy)", modes[i].name);
		drv(what, cuMemsetD32(d, 1, 4));
		snprintf(what, sizeof(what), "%s capture of nb: isCapturing(nb)", modes[i].name);
		status(what, nb);
		snprintf(what, sizeof(what), "%s capture of nb", modes[i].name);
		end(what, nb);
	}

	/* A captured event. */
	cuEventCreate(&ev, 0);
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	cuEventRecord(ev, s);
	drv("captured event: cuEventQuery", cuEventQuery(ev));
	status("after cuEventQuery: isCapturing", s);
	drv("captured event: cuEventSynchronize", cuEventSynchronize(ev));
	end("captured event", s);

	/* Ending from another thread, global and relaxed. */
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	o.ctx = ctx;
	o.s = s;
	pthread_create(&t, NULL, end_in_thread, &o);
	pthread_join(t, NULL);
	drv("global: end from another thread", o.r);
	status("after the other thread's end: isCapturing", s);
	end("global, then the owner ends", s);
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
	pthread_create(&t, NULL, end_in_thread, &o);
	pthread_join(t, NULL);
	drv("relaxed: end from another thread", o.r);
	status("after it: isCapturing", s);
	end("relaxed, then the owner ends", s);

	/* The thread's capture mode. */
	mode = (CUstreamCaptureMode)9;
	drv("cuThreadExchangeStreamCaptureMode(9)", cuThreadExchangeStreamCaptureMode(&mode));
	printf("  previous mode %d\n", (int)mode);
	drv("cuThreadExchangeStreamCaptureMode(back)", cuThreadExchangeStreamCaptureMode(&mode));
	printf("  previous mode %d\n", (int)mode);

	/* Graphs. */
	cuGraphCreate(&g, 0);
	cuGraphAddEmptyNode(&a, g, NULL, 0);
	cuGraphAddEmptyNode(&b, g, &a, 1);
	drv("cycle: cuGraphAddDependencies(b -> a)", cuGraphAddDependencies(g, &b, &a, NULL, 1));
	drv("cycle: cuGraphInstantiate", cuGraphInstantiate(&ge, g, 0));
	{
		CUDA_KERNEL_NODE_PARAMS kp;
		CUgraphNode n;

		memset(&kp, 0, sizeof(kp));
		kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
		kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
		drv("kernel node, func NULL", cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	}
	cuGraphDestroy(g);
	cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
	cuGraphCreate(&g, 0);
	cuGraphAddEmptyNode(&a, g, NULL, 0);
	cuGraphInstantiate(&ge, g, 0);
	drv("capture: cuGraphLaunch into the capturing stream", cuGraphLaunch(ge, s));
	end("after a graph launch", s);

	/* 3D copies. */
	{
		CUDA_MEMCPY3D c;
		char host[4096];

		memset(&c, 0, sizeof(c));
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = host;
		c.srcPitch = 64;
		c.srcHeight = 4;
		c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		c.dstDevice = d;
		c.dstPitch = 64;
		c.dstHeight = 4;
		c.WidthInBytes = 64;
		c.Height = 4;
		c.Depth = 2;
		drv("cuMemcpy3D ok", cuMemcpy3D(&c));
		c.WidthInBytes = 65;
		drv("cuMemcpy3D width > pitch", cuMemcpy3D(&c));
		c.WidthInBytes = 64;
		c.srcHeight = 3;
		drv("cuMemcpy3D height > srcHeight", cuMemcpy3D(&c));
		c.srcHeight = 4;
		c.srcLOD = 1;
		drv("cuMemcpy3D srcLOD 1", cuMemcpy3D(&c));
		c.srcLOD = 0;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		drv("cuMemcpy3D array NULL", cuMemcpy3D(&c));
	}
	/* IPC event without the flag. */
	{
		CUipcEventHandle h;

		drv("cuIpcGetEventHandle(no INTERPROCESS flag)", cuIpcGetEventHandle(&h, ev));
	}
	return 0;
}
