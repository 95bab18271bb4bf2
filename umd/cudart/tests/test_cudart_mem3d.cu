// SPDX-License-Identifier: GPL-2.0
//
// 3D memory, peer copies, IPC and managed-memory hints through the runtime
// API (guest test): cudaMalloc3D laid out as the programming guide's
// kernels index it, cudaMemset3D and cudaMemcpy3D with positions on every
// axis checked against a CPU reference, cudaMemcpy2D, cudaMemcpyPeer and
// cudaMemcpy between two devices, device memory and an event shared with
// a child process (cudaIpc*), and cudaStreamAttachMemAsync /
// cudaMemPrefetchAsync / cudaMemAdvise on managed memory, with their
// error codes, and cudaMemRangeGetAttribute(s) reporting the advice.
//
// Runs with two vgpu devices (test_cudart_mem3d.vmargs) and starts a
// firmware for each.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_tap.h"

static void clear_error(void)
{
	(void)cudaGetLastError();
}

static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 37 + seed + (i >> 10));
}

// The element (x, y, z) of a width x height x depth float volume.
static float element(int x, int y, int z)
{
	return (float)(x + 1000 * y + 1000000 * z);
}

// The programming guide's walk over a cudaMalloc3D allocation.
__global__ void fill_volume(cudaPitchedPtr p, int width, int height,
			    int depth)
{
	char *base = (char *)p.ptr;
	size_t slice_pitch = p.pitch * height;
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y;
	int z = blockIdx.z;

	if (x < width && y < height && z < depth) {
		float *row = (float *)(base + z * slice_pitch + y * p.pitch);

		row[x] = (float)(x + 1000 * y + 1000000 * z);
	}
}

__global__ void add_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

// --- the CPU reference of a 3D copy between pitched pointers --------------

static void ref_copy3d(const cudaMemcpy3DParms *p)
{
	for (size_t z = 0; z < p->extent.depth; z++)
		for (size_t y = 0; y < p->extent.height; y++)
			memcpy((char *)p->dstPtr.ptr +
			       ((p->dstPos.z + z) * p->dstPtr.ysize +
				p->dstPos.y + y) * p->dstPtr.pitch + p->dstPos.x,
			       (const char *)p->srcPtr.ptr +
			       ((p->srcPos.z + z) * p->srcPtr.ysize +
				p->srcPos.y + y) * p->srcPtr.pitch + p->srcPos.x,
			       p->extent.width);
}

// --- 3D memory ---------------------------------------------------------------

// A kernel writes the volume the programming guide's way; a 3D copy to a
// tightly packed host array reads it back.
static void test_malloc3d_layout(void)
{
	const int w = 70, h = 9, d = 5;
	cudaExtent e = make_cudaExtent(w * sizeof(float), h, d);
	cudaPitchedPtr p = {};
	float *host = (float *)calloc((size_t)w * h * d, sizeof(float));
	cudaMemcpy3DParms c = {};
	bool ok;

	ok = OK(cudaMalloc3D(&p, e));
	TAP(ok && p.ptr && p.pitch >= w * sizeof(float) && p.pitch % 32 == 0 &&
	    p.xsize == w * sizeof(float) && p.ysize == (size_t)h,
	    "cudaMalloc3D: pitch %zu for rows of %zu bytes, xsize %zu, ysize %zu",
	    p.pitch, w * sizeof(float), p.xsize, p.ysize);
	fill_volume<<<dim3((w + 31) / 32, h, d), 32>>>(p, w, h, d);
	c.srcPtr = p;
	c.dstPtr = make_cudaPitchedPtr(host, w * sizeof(float), w, h);
	c.extent = e;
	c.kind = cudaMemcpyDeviceToHost;
	ok = ok && OK(cudaGetLastError()) && OK(cudaMemcpy3D(&c));
	for (int z = 0; ok && z < d; z++)
		for (int y = 0; ok && y < h; y++)
			for (int x = 0; ok && x < w; x++)
				ok = host[(z * h + y) * w + x] == element(x, y, z);
	TAP(ok, "a kernel indexing cudaMalloc3D memory by pitch * height "
	    "slices, read back by cudaMemcpy3D");
	TAP(IS(cudaErrorInvalidValue, cudaMalloc3D(NULL, e)),
	    "cudaMalloc3D(NULL): cudaErrorInvalidValue");
	clear_error();
	cudaFree(p.ptr);
	free(host);
}

// cudaMemset3D of a whole volume, then of a box inside it.
static void test_memset3d(void)
{
	const size_t w = 100, h = 6, d = 4;
	cudaExtent e = make_cudaExtent(w, h, d);
	cudaPitchedPtr p = {}, inner;
	unsigned char *got = NULL, *want = NULL;
	cudaMemcpy3DParms c = {};
	size_t bytes = 0;
	bool ok = OK(cudaMalloc3D(&p, e));

	if (ok) {
		bytes = p.pitch * h * d;
		got = (unsigned char *)malloc(bytes);
		want = (unsigned char *)malloc(bytes);
		ok = got && want;
	}
	ok = ok && OK(cudaMemset(p.ptr, 0xee, bytes)) &&
	     OK(cudaMemset3D(p, 0x11, e));
	// A box 5 bytes, 2 rows and 1 slice in: ysize stays the volume's.
	inner = make_cudaPitchedPtr((char *)p.ptr + (1 * h + 2) * p.pitch + 5,
				    p.pitch, w - 5, h);
	ok = ok && OK(cudaMemset3D(inner, 0x77, make_cudaExtent(50, 3, 2)));
	c.srcPtr = p;
	c.dstPtr = make_cudaPitchedPtr(got, p.pitch, p.pitch, h);
	c.extent = make_cudaExtent(p.pitch, h, d);
	c.kind = cudaMemcpyDeviceToHost;
	ok = ok && OK(cudaMemcpy3D(&c));
	for (size_t z = 0; ok && z < d; z++)
		for (size_t y = 0; y < h; y++)
			for (size_t x = 0; x < p.pitch; x++) {
				unsigned char v = x >= w ? 0xee : 0x11;

				if (z >= 1 && z < 3 && y >= 2 && y < 5 &&
				    x >= 5 && x < 55)
					v = 0x77;
				want[(z * h + y) * p.pitch + x] = v;
			}
	TAP(ok && !memcmp(got, want, bytes),
	    "cudaMemset3D of a volume and of a box inside it; the padding "
	    "of each row is left alone");
	TAP(IS(cudaErrorInvalidValue,
	       cudaMemset3D(p, 0, make_cudaExtent(p.pitch + 1, h, d))),
	    "cudaMemset3D wider than the pitch: cudaErrorInvalidValue");
	TAP(IS(cudaErrorInvalidValue,
	       cudaMemset3D(p, 0, make_cudaExtent(w, h + 1, d))),
	    "cudaMemset3D taller than a slice: cudaErrorInvalidValue");
	TAP(OK(cudaMemset3D(p, 0, make_cudaExtent(0, h, d))),
	    "cudaMemset3D of an empty extent: a no-op");
	clear_error();
	cudaFree(p.ptr);
	free(got);
	free(want);
}

// Host -> device -> device -> host, positions on every axis, each kind.
static void test_memcpy3d_positions(void)
{
	const size_t w = 45, h = 7, d = 5;
	unsigned char *src = (unsigned char *)malloc(64 * 8 * 6);
	unsigned char *dst = (unsigned char *)malloc(80 * 9 * 7);
	unsigned char *want = (unsigned char *)malloc(80 * 9 * 7);
	unsigned char *tmp = (unsigned char *)malloc(80 * 9 * 7);
	cudaPitchedPtr a = {}, b = {};
	cudaMemcpy3DParms c = {}, r = {};
	cudaStream_t s = NULL;
	bool ok;

	fill_pattern(src, 64 * 8 * 6, 1);
	fill_pattern(dst, 80 * 9 * 7, 2);
	memcpy(want, dst, 80 * 9 * 7);
	ok = OK(cudaMalloc3D(&a, make_cudaExtent(64, 8, 6))) &&
	     OK(cudaMalloc3D(&b, make_cudaExtent(80, 9, 7))) &&
	     OK(cudaMemset(a.ptr, 0, a.pitch * 8 * 6)) &&
	     OK(cudaStreamCreate(&s));
	// 1. pageable host (64 x 8 x 6) -> a, at (3, 1, 1) -> (10, 0, 0).
	c.srcPtr = make_cudaPitchedPtr(src, 64, 64, 8);
	c.srcPos = make_cudaPos(3, 1, 1);
	c.dstPtr = a;
	c.dstPos = make_cudaPos(10, 0, 0);
	c.extent = make_cudaExtent(w, h, d);
	c.kind = cudaMemcpyHostToDevice;
	ok = ok && OK(cudaMemcpy3D(&c));
	// 2. b <- the whole host destination, then a -> b at (2, 1, 0) ->
	//    (30, 2, 2), asynchronously on a stream, kind Default.
	r.srcPtr = make_cudaPitchedPtr(dst, 80, 80, 9);
	r.dstPtr = b;
	r.extent = make_cudaExtent(80, 9, 7);
	r.kind = cudaMemcpyDefault;
	ok = ok && OK(cudaMemcpy3D(&r));
	c.srcPtr = a;
	c.srcPos = make_cudaPos(10, 0, 0);
	c.dstPtr = b;
	c.dstPos = make_cudaPos(30, 2, 2);
	c.kind = cudaMemcpyDefault;
	ok = ok && OK(cudaMemcpy3DAsync(&c, s)) && OK(cudaStreamSynchronize(s));
	// 3. b -> host, whole.
	r.srcPtr = b;
	r.dstPtr = make_cudaPitchedPtr(dst, 80, 80, 9);
	r.kind = cudaMemcpyDeviceToHost;
	ok = ok && OK(cudaMemcpy3D(&r));
	// The reference: host src -> (a's box, kept in tmp) -> want.
	{
		cudaMemcpy3DParms h1 = {}, h2 = {};

		memset(tmp, 0, 80 * 9 * 7);
		h1.srcPtr = make_cudaPitchedPtr(src, 64, 64, 8);
		h1.srcPos = make_cudaPos(3, 1, 1);
		h1.dstPtr = make_cudaPitchedPtr(tmp, 64, 64, 8);
		h1.dstPos = make_cudaPos(10, 0, 0);
		h1.extent = c.extent;
		ref_copy3d(&h1);
		h2.srcPtr = h1.dstPtr;
		h2.srcPos = h1.dstPos;
		h2.dstPtr = make_cudaPitchedPtr(want, 80, 80, 9);
		h2.dstPos = make_cudaPos(30, 2, 2);
		h2.extent = c.extent;
		ref_copy3d(&h2);
	}
	TAP(ok && !memcmp(dst, want, 80 * 9 * 7),
	    "cudaMemcpy3D host -> device -> device (async, Default) -> host "
	    "with positions on every axis matches the CPU reference");
	// 4. host to host, cudaMemcpyHostToHost.
	memset(tmp, 0, 80 * 9 * 7);
	r.srcPtr = make_cudaPitchedPtr(dst, 80, 80, 9);
	r.srcPos = make_cudaPos(1, 1, 1);
	r.dstPtr = make_cudaPitchedPtr(tmp, 80, 80, 9);
	r.dstPos = make_cudaPos(0, 0, 0);
	r.extent = make_cudaExtent(70, 5, 3);
	r.kind = cudaMemcpyHostToHost;
	memset(want, 0, 80 * 9 * 7);
	{
		cudaMemcpy3DParms h = r;

		h.dstPtr.ptr = want;
		ref_copy3d(&h);
	}
	TAP(OK(cudaMemcpy3D(&r)) && !memcmp(tmp, want, 80 * 9 * 7),
	    "cudaMemcpy3D host to host");
	if (s)
		cudaStreamDestroy(s);
	cudaFree(a.ptr);
	cudaFree(b.ptr);
	free(src);
	free(dst);
	free(want);
	free(tmp);
}

static void test_memcpy3d_errors(void)
{
	unsigned char host[64 * 8 * 2];
	cudaPitchedPtr p = {};
	cudaMemcpy3DParms c = {}, bad;

	if (!OK(cudaMalloc3D(&p, make_cudaExtent(64, 8, 2)))) {
		TAP(false, "cudaMalloc3D for the error cases");
		return;
	}
	c.srcPtr = make_cudaPitchedPtr(host, 64, 64, 8);
	c.dstPtr = p;
	c.extent = make_cudaExtent(64, 8, 2);
	c.kind = cudaMemcpyHostToDevice;
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy3D(NULL)),
	    "cudaMemcpy3D(NULL): cudaErrorInvalidValue");
	bad = c;
	bad.kind = (cudaMemcpyKind)17;
	TAP(IS(cudaErrorInvalidMemcpyDirection, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D kind 17: cudaErrorInvalidMemcpyDirection");
	bad = c;
	bad.dstArray = (cudaArray_t)(uintptr_t)0x1000;
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D naming a CUDA array and a pointer on one side: "
	    "cudaErrorInvalidValue");
	bad = c;
	bad.srcPtr.pitch = 63;
	TAP(IS(cudaErrorInvalidPitchValue, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D with a pitch narrower than the extent: "
	    "cudaErrorInvalidPitchValue");
	bad = c;
	bad.dstPos = make_cudaPos(1, 0, 0);
	TAP(IS(cudaErrorInvalidPitchValue, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D with x + width past the pitch: "
	    "cudaErrorInvalidPitchValue");
	bad = c;
	bad.srcPtr.ysize = 7;
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D with slices shorter than the extent: "
	    "cudaErrorInvalidValue");
	bad = c;
	bad.dstPos = make_cudaPos(0, 0, 1);
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D past the end of the allocation: "
	    "cudaErrorInvalidValue");
	bad = c;
	bad.kind = cudaMemcpyDeviceToHost;
	TAP(IS(cudaErrorInvalidValue, cudaMemcpy3D(&bad)),
	    "cudaMemcpy3D DeviceToHost from host memory: cudaErrorInvalidValue");
	bad = c;
	bad.extent.depth = 0;
	TAP(OK(cudaMemcpy3D(&bad)), "cudaMemcpy3D of an empty extent: a no-op");
	clear_error();
	cudaFree(p.ptr);
}

// cudaMemcpy2D is one cuMemcpy2D now: pitched rows both ways.
static void test_memcpy2d(void)
{
	const size_t w = 200, h = 33;
	unsigned char *src = (unsigned char *)malloc(256 * h);
	unsigned char *back = (unsigned char *)malloc(w * h);
	void *d = NULL;
	size_t pitch = 0;
	bool ok;

	fill_pattern(src, 256 * h, 9);
	ok = OK(cudaMallocPitch(&d, &pitch, w, h)) &&
	     OK(cudaMemcpy2D(d, pitch, src + 3, 256, w, h,
			     cudaMemcpyHostToDevice)) &&
	     OK(cudaMemcpy2D(back, w, d, pitch, w, h, cudaMemcpyDeviceToHost));
	for (size_t y = 0; ok && y < h; y++)
		ok = !memcmp(back + y * w, src + y * 256 + 3, w);
	TAP(ok, "cudaMemcpy2D pageable -> pitched device -> packed host");
	TAP(IS(cudaErrorInvalidPitchValue,
	       cudaMemcpy2D(d, pitch, src, w - 1, w, h, cudaMemcpyHostToDevice)),
	    "cudaMemcpy2D with spitch < width: cudaErrorInvalidPitchValue");
	clear_error();
	cudaFree(d);
	free(src);
	free(back);
}

// --- two devices ------------------------------------------------------------

static void test_peer(void)
{
	const int n = 300000;
	const size_t bytes = n * sizeof(int);
	int *d0 = NULL, *d1 = NULL, *back = (int *)malloc(bytes), count = 0;
	int can = -1;
	cudaStream_t s1 = NULL;
	bool ok;

	if (!OK(cudaGetDeviceCount(&count)) || count < 2) {
		TAP(false, "two devices (the .vmargs asks for them): %d", count);
		return;
	}
	TAP(OK(cudaDeviceCanAccessPeer(&can, 0, 1)) && can == 1,
	    "cudaDeviceCanAccessPeer(0, 1): 1 (vGPU devices are peers)");
	/* Enabled and disabled again: the copies below are the staged ones. */
	TAP(OK(cudaSetDevice(0)) && OK(cudaDeviceEnablePeerAccess(1, 0)) &&
	    IS(cudaErrorPeerAccessAlreadyEnabled,
	       cudaDeviceEnablePeerAccess(1, 0)) &&
	    OK(cudaDeviceDisablePeerAccess(1)) &&
	    IS(cudaErrorPeerAccessNotEnabled, cudaDeviceDisablePeerAccess(1)),
	    "cudaDeviceEnablePeerAccess/Disable, twice each");
	clear_error();
	for (int i = 0; i < n; i++)
		back[i] = i * 3;
	ok = OK(cudaSetDevice(0)) && OK(cudaMalloc((void **)&d0, bytes)) &&
	     OK(cudaMemcpy(d0, back, bytes, cudaMemcpyHostToDevice)) &&
	     OK(cudaSetDevice(1)) && OK(cudaMalloc((void **)&d1, bytes)) &&
	     OK(cudaStreamCreate(&s1));
	// Device 0 -> device 1, a kernel on device 1, back on a stream.
	ok = ok && OK(cudaMemcpyPeer(d1, 1, d0, 0, bytes));
	if (ok)
		add_one<<<(n + 255) / 256, 256, 0, s1>>>(d1, n);
	ok = ok && OK(cudaMemcpyPeerAsync(d0, 0, d1, 1, bytes, s1)) &&
	     OK(cudaStreamSynchronize(s1));
	memset(back, 0, bytes);
	ok = ok && OK(cudaSetDevice(0)) &&
	     OK(cudaMemcpy(back, d0, bytes, cudaMemcpyDeviceToHost));
	for (int i = 0; ok && i < n; i++)
		ok = back[i] == i * 3 + 1;
	TAP(ok, "cudaMemcpyPeer 0 -> 1, a kernel on 1, cudaMemcpyPeerAsync "
	    "1 -> 0 in the kernel's stream");
	// Unified addressing: plain cudaMemcpy between the two devices.
	if (ok)
		add_one<<<(n + 255) / 256, 256>>>(d0, n);
	ok = ok && OK(cudaMemcpy(d1, d0, bytes, cudaMemcpyDefault)) &&
	     OK(cudaSetDevice(1)) &&
	     OK(cudaMemcpy(d0, d1, 4096, cudaMemcpyDeviceToDevice));
	memset(back, 0, bytes);
	ok = ok && OK(cudaMemcpy(back, d1, bytes, cudaMemcpyDeviceToHost));
	for (int i = 0; ok && i < n; i++)
		ok = back[i] == i * 3 + 2;
	TAP(ok, "cudaMemcpy (Default, DeviceToDevice) between two devices' "
	    "allocations");
	// A box of device 0's 3D allocation into device 1's.
	{
		cudaPitchedPtr a = {}, b = {};
		cudaMemcpy3DPeerParms pp = {};
		cudaMemcpy3DParms r = {};
		unsigned char *h = (unsigned char *)malloc(96 * 6 * 4);
		unsigned char *g = (unsigned char *)malloc(96 * 6 * 4);
		unsigned char *want = (unsigned char *)malloc(96 * 6 * 4);

		fill_pattern(h, 96 * 6 * 4, 3);
		memset(want, 0, 96 * 6 * 4);
		ok = OK(cudaSetDevice(0)) &&
		     OK(cudaMalloc3D(&a, make_cudaExtent(96, 6, 4))) &&
		     OK(cudaMemcpy(a.ptr, h, a.pitch * 6 * 4,
				   cudaMemcpyHostToDevice)) &&
		     OK(cudaSetDevice(1)) &&
		     OK(cudaMalloc3D(&b, make_cudaExtent(96, 6, 4))) &&
		     OK(cudaMemset(b.ptr, 0, b.pitch * 6 * 4));
		pp.srcPtr = a;
		pp.srcPos = make_cudaPos(4, 1, 1);
		pp.srcDevice = 0;
		pp.dstPtr = b;
		pp.dstPos = make_cudaPos(0, 2, 0);
		pp.dstDevice = 1;
		pp.extent = make_cudaExtent(80, 4, 3);
		ok = ok && OK(cudaMemcpy3DPeer(&pp));
		r.srcPtr = b;
		r.dstPtr = make_cudaPitchedPtr(g, 96, 96, 6);
		r.extent = make_cudaExtent(96, 6, 4);
		r.kind = cudaMemcpyDeviceToHost;
		ok = ok && OK(cudaMemcpy3D(&r));
		// The reference: the same box between host copies of both.
		r.srcPtr = make_cudaPitchedPtr(h, a.pitch, 96, 6);
		r.srcPos = pp.srcPos;
		r.dstPtr = make_cudaPitchedPtr(want, 96, 96, 6);
		r.dstPos = pp.dstPos;
		r.extent = pp.extent;
		ref_copy3d(&r);
		TAP(ok && !memcmp(g, want, 96 * 6 * 4),
		    "cudaMemcpy3DPeer of a box, device 0 -> device 1");
		pp.dstDevice = 7;
		TAP(IS(cudaErrorInvalidDevice, cudaMemcpy3DPeer(&pp)),
		    "cudaMemcpy3DPeer to device 7: cudaErrorInvalidDevice");
		pp.dstDevice = 0;
		TAP(IS(cudaErrorInvalidValue, cudaMemcpy3DPeer(&pp)),
		    "cudaMemcpy3DPeer naming the wrong device of a pointer: "
		    "cudaErrorInvalidValue");
		clear_error();
		cudaFree(b.ptr);
		cudaSetDevice(0);
		cudaFree(a.ptr);
		cudaSetDevice(1);
		free(h);
		free(g);
		free(want);
	}
	TAP(IS(cudaErrorInvalidDevice, cudaMemcpyPeer(d1, 5, d0, 0, 64)),
	    "cudaMemcpyPeer to device 5: cudaErrorInvalidDevice");
	TAP(IS(cudaErrorInvalidValue, cudaMemcpyPeer(d1, 0, d0, 0, 64)),
	    "cudaMemcpyPeer naming the wrong device of a pointer: "
	    "cudaErrorInvalidValue");
	TAP(OK(cudaMemcpyPeer(d1, 1, d0, 0, 0)), "cudaMemcpyPeer of 0 bytes");
	clear_error();
	if (s1)
		cudaStreamDestroy(s1);
	cudaFree(d1);
	cudaSetDevice(0);
	cudaFree(d0);
	free(back);
}

// --- IPC: a child process exports, this one imports -------------------------

__global__ void spin(unsigned long long ns)
{
	unsigned long long start, now;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
	while (now - start < ns);
}

__global__ void twice(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] *= 2;
}

struct ipc_msg {
	cudaIpcMemHandle_t mem;
	cudaIpcEventHandle_t ev;
};

static const int ipc_n = 5000;

// The exporter: device memory and an interprocess event.
static int ipc_child(int to_parent, int from_parent)
{
	struct ipc_msg msg;
	int *d = NULL, *back = (int *)malloc(ipc_n * sizeof(int));
	cudaEvent_t ev;
	cudaStream_t s;
	char go;

	for (int i = 0; i < ipc_n; i++)
		back[i] = 7 * i;
	if (!OK(cudaMalloc((void **)&d, ipc_n * sizeof(int))) ||
	    !OK(cudaMemcpy(d, back, ipc_n * sizeof(int),
			   cudaMemcpyHostToDevice)) ||
	    !OK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess |
					 cudaEventDisableTiming)) ||
	    !OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) ||
	    !OK(cudaIpcGetMemHandle(&msg.mem, d)) ||
	    !OK(cudaIpcGetEventHandle(&msg.ev, ev)))
		return 1;
	if (write(to_parent, &msg, sizeof(msg)) != sizeof(msg))
		return 2;
	// The parent adds one to every element, then says go.
	if (read(from_parent, &go, 1) != 1)
		return 3;
	memset(back, 0, ipc_n * sizeof(int));
	if (!OK(cudaMemcpy(back, d, ipc_n * sizeof(int),
			   cudaMemcpyDeviceToHost)))
		return 4;
	for (int i = 0; i < ipc_n; i++)
		if (back[i] != 7 * i + 1)
			return 5;
	// Doubled after 200 ms of spinning: the parent must wait for it.
	spin<<<1, 1, 0, s>>>(200000000ull);
	twice<<<(ipc_n + 255) / 256, 256, 0, s>>>(d, ipc_n);
	if (!OK(cudaEventRecord(ev, s)) || write(to_parent, &go, 1) != 1)
		return 6;
	if (read(from_parent, &go, 1) != 1)
		return 7;
	return OK(cudaEventDestroy(ev)) && OK(cudaFree(d)) ? 0 : 8;
}

// Must run before this process uses CUDA: the child starts from scratch.
static void test_ipc(void)
{
	int to_parent[2], from_parent[2], status = -1;
	int *d = NULL, *own = NULL, *head = (int *)malloc(ipc_n * sizeof(int));
	cudaIpcMemHandle_t mine;
	cudaIpcEventHandle_t emine;
	cudaEvent_t ev = NULL, plain;
	cudaStream_t s = NULL;
	struct ipc_msg msg;
	char go = 1;
	bool ok;
	pid_t pid;

	if (pipe(to_parent) || pipe(from_parent)) {
		TAP(false, "pipes for the IPC child");
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(ipc_child(to_parent[1], from_parent[0]));
	ok = pid > 0 && read(to_parent[0], &msg, sizeof(msg)) == sizeof(msg) &&
	     OK(cudaIpcOpenMemHandle((void **)&d, msg.mem,
				     cudaIpcMemLazyEnablePeerAccess)) &&
	     OK(cudaMemcpy(head, d, ipc_n * sizeof(int),
			   cudaMemcpyDeviceToHost));
	for (int i = 0; ok && i < ipc_n; i++)
		ok = head[i] == 7 * i;
	TAP(ok, "cudaIpcOpenMemHandle: the child's device memory, read here");
	if (ok)
		add_one<<<(ipc_n + 255) / 256, 256>>>(d, ipc_n);
	ok = ok && OK(cudaDeviceSynchronize()) &&
	     OK(cudaIpcOpenEventHandle(&ev, msg.ev)) &&
	     OK(cudaEventQuery(ev)) &&
	     OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) &&
	     write(from_parent[1], &go, 1) == 1 &&
	     read(to_parent[0], &go, 1) == 1;
	// The child recorded its event after a kernel that doubles the data.
	ok = ok && OK(cudaStreamWaitEvent(s, ev, 0)) &&
	     OK(cudaMemcpyAsync(head, d, ipc_n * sizeof(int),
				cudaMemcpyDeviceToHost, s)) &&
	     OK(cudaStreamSynchronize(s));
	for (int i = 0; ok && i < ipc_n; i++)
		ok = head[i] == (7 * i + 1) * 2;
	TAP(ok, "a kernel here changes the child's memory; a stream here "
	    "waits for the child's event, then reads what the child's next "
	    "kernel made of it");
	TAP(OK(cudaEventSynchronize(ev)) && OK(cudaEventQuery(ev)) &&
	    OK(cudaEventDestroy(ev)),
	    "the opened event: synchronized, complete, destroyed");
	ok = IS(cudaErrorInvalidValue, cudaFree(d)) &&
	     OK(cudaIpcCloseMemHandle(d));
	clear_error();
	if (pid > 0 && write(from_parent[1], &go, 1) == 1)
		waitpid(pid, &status, 0);
	TAP(ok && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "the child saw this process's change and ended well (status %d); "
	    "the memory was closed, not freed", status);
	TAP(IS(cudaErrorInvalidValue, cudaIpcCloseMemHandle(d)),
	    "cudaIpcCloseMemHandle twice: cudaErrorInvalidValue");
	// Errors: one's own handle, a damaged one, not an allocation.
	ok = OK(cudaMalloc((void **)&own, 4096)) &&
	     OK(cudaIpcGetMemHandle(&mine, own));
	TAP(ok && IS(cudaErrorInvalidValue,
		     cudaIpcOpenMemHandle((void **)&d, mine, 0)),
	    "cudaIpcOpenMemHandle of one's own handle: cudaErrorInvalidValue "
	    "(measured on an H100)");
	memset(&mine, 0x5a, sizeof(mine));
	TAP(IS(cudaErrorInvalidValue, cudaIpcOpenMemHandle((void **)&d, mine, 0)),
	    "cudaIpcOpenMemHandle of a damaged handle: cudaErrorInvalidValue");
	TAP(OK(cudaIpcGetMemHandle(&mine, own + 16)),
	    "cudaIpcGetMemHandle inside an allocation: the allocation's handle "
	    "(measured on an H100)");
	TAP(IS(cudaErrorInvalidValue, cudaIpcGetMemHandle(NULL, own)),
	    "cudaIpcGetMemHandle(NULL): cudaErrorInvalidValue");
	TAP(OK(cudaEventCreateWithFlags(&plain, cudaEventDisableTiming)) &&
	    IS(cudaErrorInvalidResourceHandle,
	       cudaIpcGetEventHandle(&emine, plain)),
	    "cudaIpcGetEventHandle of an event without cudaEventInterprocess: "
	    "cudaErrorInvalidResourceHandle");
	memset(&emine, 0x5a, sizeof(emine));
	TAP(IS(cudaErrorInvalidValue, cudaIpcOpenEventHandle(&ev, emine)),
	    "cudaIpcOpenEventHandle of a damaged handle: cudaErrorInvalidValue");
	TAP(IS(cudaErrorInvalidValue,
	       cudaEventCreateWithFlags(&ev, cudaEventInterprocess)),
	    "cudaEventInterprocess without cudaEventDisableTiming: "
	    "cudaErrorInvalidValue");
	clear_error();
	cudaEventDestroy(plain);
	if (s)
		cudaStreamDestroy(s);
	cudaFree(own);
	for (int i = 0; i < 2; i++) {
		close(to_parent[i]);
		close(from_parent[i]);
	}
	free(head);
}

// --- managed-memory hints ---------------------------------------------------

static void test_managed_hints(void)
{
	const int n = 10000;
	cudaMemLocation host = {}, dev0 = {}, bad = {};
	int *m = NULL, *d = NULL, v = -1;
	cudaStream_t s = NULL;
	bool ok;

	host.type = cudaMemLocationTypeHost;
	dev0.type = cudaMemLocationTypeDevice;
	dev0.id = 0;
	bad.type = (cudaMemLocationType)42;
	TAP(OK(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0)) && v == 1,
	    "cudaDevAttrManagedMemory: 1");
	TAP(OK(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0)) &&
	    v == 1, "cudaDevAttrConcurrentManagedAccess: 1 (managed memory "
	    "migrates)");
	ok = OK(cudaMallocManaged((void **)&m, n * sizeof(int))) &&
	     OK(cudaMalloc((void **)&d, n * sizeof(int))) &&
	     OK(cudaStreamCreate(&s));
	for (int i = 0; ok && i < n; i++)
		m[i] = i;
	// Attached to one stream, used there by a kernel, read by the host.
	ok = ok && OK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
	if (ok)
		add_one<<<(n + 255) / 256, 256, 0, s>>>(m, n);
	ok = ok && OK(cudaStreamSynchronize(s));
	for (int i = 0; ok && i < n; i++)
		ok = m[i] == i + 1;
	TAP(ok, "cudaStreamAttachMemAsync(single), a kernel in that stream, "
	    "the host reads the result");
	TAP(OK(cudaStreamAttachMemAsync(s, m, n * sizeof(int),
					cudaMemAttachHost)) &&
	    OK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachGlobal)),
	    "cudaStreamAttachMemAsync host, global, whole length");
	TAP(IS(cudaErrorInvalidValue,
	       cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachSingle)),
	    "attach single to the NULL stream: cudaErrorInvalidValue");
	TAP(IS(cudaErrorInvalidValue,
	       cudaStreamAttachMemAsync(s, m, 64, cudaMemAttachGlobal)),
	    "attach part of an allocation: cudaErrorInvalidValue");
	TAP(IS(cudaErrorInvalidValue,
	       cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachGlobal)),
	    "attach device memory: cudaErrorInvalidValue");
	TAP(IS(cudaErrorInvalidValue, cudaStreamAttachMemAsync(s, m, 0, 8)),
	    "attach with flags 8: cudaErrorInvalidValue");
	TAP(OK(cudaMemPrefetchAsync(m, n * sizeof(int), host, 0, s)),
	    "cudaMemPrefetchAsync to the host: success, nothing moves");
	TAP(OK(cudaMemPrefetchAsync(m, n * sizeof(int), dev0, 0, s)),
	    "cudaMemPrefetchAsync to the device: success, the blocks move "
	    "(concurrent managed access)");
	TAP(IS(cudaErrorInvalidValue,
	       cudaMemPrefetchAsync(m, n * sizeof(int), bad, 0, s)) &&
	    IS(cudaErrorInvalidValue,
	       cudaMemPrefetchAsync(m, n * sizeof(int), host, 1, s)) &&
	    IS(cudaErrorInvalidValue,
	       cudaMemPrefetchAsync(d, n * sizeof(int), host, 0, s)),
	    "cudaMemPrefetchAsync with a bad location, flags or device "
	    "memory: cudaErrorInvalidValue");
	TAP(OK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly,
			     host)) &&
	    OK(cudaMemAdvise(m, n * sizeof(int),
			     cudaMemAdviseSetPreferredLocation, host)) &&
	    OK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetAccessedBy,
			     host)),
	    "cudaMemAdvise read-mostly, preferred location and accessed-by "
	    "the host");
	TAP(OK(cudaMemAdvise(m, n * sizeof(int),
			     cudaMemAdviseSetPreferredLocation, dev0)) &&
	    OK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetAccessedBy,
			     dev0)),
	    "cudaMemAdvise naming the device: accepted");
	TAP(IS(cudaErrorInvalidValue,
	       cudaMemAdvise(m, n * sizeof(int), (cudaMemoryAdvise)9, host)) &&
	    IS(cudaErrorInvalidValue,
	       cudaMemAdvise(d, n * sizeof(int), cudaMemAdviseSetReadMostly,
			     host)),
	    "cudaMemAdvise with a bad advice or device memory: "
	    "cudaErrorInvalidValue");
	clear_error();
	{
		// What every page of the range was advised, last call winning.
		int rm = -9, pref = -9, last = -9, by[3] = { -9, -9, -9 };
		void *data[2] = { &rm, &last };
		size_t sizes[2] = { sizeof(rm), sizeof(last) };
		cudaMemRangeAttribute attrs[2] = {
			cudaMemRangeAttributeReadMostly,
			cudaMemRangeAttributeLastPrefetchLocation,
		};

		TAP(OK(cudaMemRangeGetAttribute(&pref, sizeof(pref),
				cudaMemRangeAttributePreferredLocation, m,
				n * sizeof(int))) && pref == 0,
		    "cudaMemRangeGetAttribute: preferred location device 0 "
		    "(%d)", pref);
		TAP(OK(cudaMemRangeGetAttribute(by, sizeof(by),
				cudaMemRangeAttributeAccessedBy, m,
				n * sizeof(int))) &&
		    by[0] == cudaCpuDeviceId && by[1] == 0 &&
		    by[2] == cudaInvalidDeviceId,
		    "cudaMemRangeGetAttribute: accessed by the host and "
		    "device 0, then cudaInvalidDeviceId (%d %d %d)",
		    by[0], by[1], by[2]);
		TAP(OK(cudaMemRangeGetAttributes(data, sizes, attrs, 2, m,
						 sizeof(int))) &&
		    rm == 1 && last == 0,
		    "cudaMemRangeGetAttributes: read-mostly 1, last prefetch "
		    "device 0 (%d %d)", rm, last);
		TAP(IS(cudaErrorInvalidValue,
		       cudaMemRangeGetAttribute(&rm, sizeof(rm),
				cudaMemRangeAttributeReadMostly, d,
				sizeof(int))) &&
		    IS(cudaErrorInvalidValue,
		       cudaMemRangeGetAttribute(&rm, 2,
				cudaMemRangeAttributeReadMostly, m,
				sizeof(int))),
		    "cudaMemRangeGetAttribute on device memory, or with a "
		    "size of 2: cudaErrorInvalidValue");
		clear_error();
	}
	ok = OK(cudaMemcpy(d, m, n * sizeof(int), cudaMemcpyDefault)) &&
	     OK(cudaMemset(m, 0, n * sizeof(int))) &&
	     OK(cudaMemcpy(m, d, n * sizeof(int), cudaMemcpyDefault));
	for (int i = 0; ok && i < n; i++)
		ok = m[i] == i + 1;
	TAP(ok, "after the hints the data is where it was, for both sides");
	if (s)
		cudaStreamDestroy(s);
	cudaFree(m);
	cudaFree(d);
}

int main(void)
{
	pid_t fw = fw_launcher_start(), fw1;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %s", strerror((int)-fw));
	fw1 = rt_test_start_fw_vgpu1();
	test_ipc();
	test_malloc3d_layout();
	test_memset3d();
	test_memcpy3d_positions();
	test_memcpy3d_errors();
	test_memcpy2d();
	test_peer();
	test_managed_hints();
	cudaDeviceReset();
	fw_launcher_stop_on(fw1, 1);
	fw_launcher_stop(fw);
	return tap_finish();
}
