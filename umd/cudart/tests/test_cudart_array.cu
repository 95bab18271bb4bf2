// SPDX-License-Identifier: GPL-2.0
//
// CUDA arrays through the runtime and the driver API (guest test):
// cudaCreateChannelDesc, cudaMallocArray / cudaMalloc3DArray of every
// channel format and geometry, cudaArrayGetInfo, and every copy that names
// an array - 2D to/from/between arrays (sync and async), cudaMemcpy3D
// with array sides and positions, the deprecated cudaMemcpyToArray /
// FromArray, cuMemcpyHtoA / AtoH / DtoA / AtoD / AtoA - from pageable,
// pinned and device memory, each checked against a CPU model of the array
// as plain rows of bytes.  The array itself is opaque (block-linear in
// VRAM), so what is checked is that every box lands where CUDA says.
// Texture and surface objects on arrays, pitch-2D and linear memory,
// their getters and errors.
// Error codes are those an H100 returns (this test, built against
// NVIDIA's CUDA, passes on one: tools/cuda-probe/run-tests-on-gpu).
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

// The deprecated 1D copies are tested on purpose.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// A case of its own for each call whose result is checked.
#define T_IS(err, call) TAP(IS((err), (call)), "%s", #call)
#define T_OK(call) T_IS(cudaSuccess, call)

static void clear_error(void)
{
	(void)cudaGetLastError();
}

static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + seed + (i >> 9) * 7);
}

// A CPU model of an array: width_bytes x height x depth bytes, packed.
struct model {
	size_t row, height, depth;
	unsigned char *b;
};

static void model_init(struct model *m, size_t row, size_t h, size_t d)
{
	m->row = row;
	m->height = h ? h : 1;
	m->depth = d ? d : 1;
	m->b = (unsigned char *)calloc(m->row * m->height, m->depth);
}

// Copy a box from pitched @src into the model at (x bytes, y, z).
static void model_put(struct model *m, size_t x, size_t y, size_t z,
		      const unsigned char *src, size_t pitch, size_t rows,
		      size_t w, size_t h, size_t d)
{
	for (size_t k = 0; k < d; k++)
		for (size_t j = 0; j < h; j++)
			memcpy(m->b + ((z + k) * m->height + y + j) * m->row + x,
			       src + (k * rows + j) * pitch, w);
}

static size_t model_size(const struct model *m)
{
	return m->row * m->height * m->depth;
}

// The whole array back into pageable memory; compared with the model.
static bool array_matches(cudaArray_t a, const struct model *m)
{
	unsigned char *got = (unsigned char *)malloc(model_size(m));
	cudaMemcpy3DParms p = {};
	cudaChannelFormatDesc desc;
	cudaExtent e;
	unsigned int flags;
	size_t elem;
	bool ok;

	cudaArrayGetInfo(&desc, &e, &flags, a);
	elem = (size_t)(desc.x + desc.y + desc.z + desc.w) / 8;
	p.srcArray = a;
	p.dstPtr = make_cudaPitchedPtr(got, m->row, m->row / elem, m->height);
	p.extent = make_cudaExtent(m->row / elem, m->height, m->depth);
	p.kind = cudaMemcpyDeviceToHost;
	ok = cudaMemcpy3D(&p) == cudaSuccess &&
	     memcmp(got, m->b, model_size(m)) == 0;
	if (!ok) {
		for (size_t i = 0; i < model_size(m); i++)
			if (got[i] != m->b[i]) {
				tap_diag("first difference at byte %zu (x %zu, y %zu, z %zu): %02x, expected %02x",
					 i, i % m->row, i / m->row % m->height,
					 i / m->row / m->height, got[i], m->b[i]);
				break;
			}
	}
	free(got);
	return ok;
}

// --- channel descriptors ---------------------------------------------------

static void test_channel_desc(void)
{
	cudaChannelFormatDesc d = cudaCreateChannelDesc(8, 8, 0, 0,
		cudaChannelFormatKindUnsigned);
	cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
	cudaChannelFormatDesc h = cudaCreateChannelDescHalf();
	cudaChannelFormatDesc s2 = cudaCreateChannelDesc<short2>();

	TAP(d.x == 8 && d.y == 8 && d.z == 0 && d.w == 0 &&
	    d.f == cudaChannelFormatKindUnsigned, "cudaCreateChannelDesc(8, 8, 0, 0, unsigned)");
	TAP(f4.x == 32 && f4.y == 32 && f4.z == 32 && f4.w == 32 &&
	    f4.f == cudaChannelFormatKindFloat, "cudaCreateChannelDesc<float4>()");
	TAP(h.x == 16 && h.y == 0 && h.f == cudaChannelFormatKindFloat,
	    "cudaCreateChannelDescHalf()");
	TAP(s2.x == 16 && s2.y == 16 && s2.z == 0 &&
	    s2.f == cudaChannelFormatKindSigned, "cudaCreateChannelDesc<short2>()");
}

// --- every format, round trip and sub-rectangles ------------------------------

static const struct {
	int bits;
	cudaChannelFormatKind kind;
	const char *name;
} formats[] = {
	{ 8, cudaChannelFormatKindUnsigned, "u8" },
	{ 16, cudaChannelFormatKindUnsigned, "u16" },
	{ 32, cudaChannelFormatKindUnsigned, "u32" },
	{ 8, cudaChannelFormatKindSigned, "s8" },
	{ 16, cudaChannelFormatKindSigned, "s16" },
	{ 32, cudaChannelFormatKindSigned, "s32" },
	{ 16, cudaChannelFormatKindFloat, "half" },
	{ 32, cudaChannelFormatKindFloat, "float" },
};

static cudaChannelFormatDesc desc_of(int bits, cudaChannelFormatKind k, int n)
{
	return cudaCreateChannelDesc(bits, n > 1 ? bits : 0, n > 2 ? bits : 0,
				     n > 2 ? bits : 0, k);
}

static void test_formats_2d(void)
{
	const size_t w = 37, h = 19;

	for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		for (int n = 1; n <= 4; n *= 2) {
			cudaChannelFormatDesc d = desc_of(formats[f].bits,
							  formats[f].kind, n);
			size_t elem = (size_t)formats[f].bits / 8 * n;
			size_t row = w * elem;
			cudaChannelFormatDesc got;
			cudaExtent e;
			unsigned int flags = 99;
			cudaArray_t a = NULL;
			struct model m;
			unsigned char *src;

			if (!OK(cudaMallocArray(&a, &d, w, h,
						cudaArraySurfaceLoadStore))) {
				TAP(false, "cudaMallocArray %s x%d", formats[f].name, n);
				continue;
			}
			TAP(cudaArrayGetInfo(&got, &e, &flags, a) == cudaSuccess &&
			    got.x == d.x && got.y == d.y && got.z == d.z &&
			    got.w == d.w && got.f == d.f && e.width == w &&
			    e.height == h && e.depth == 0 &&
			    flags == cudaArraySurfaceLoadStore,
			    "cudaArrayGetInfo %s x%d: %d %d %d %d kind %d, %zux%zux%zu, flags %u",
			    formats[f].name, n, got.x, got.y, got.z, got.w,
			    (int)got.f, e.width, e.height, e.depth, flags);
			model_init(&m, row, h, 0);
			src = (unsigned char *)malloc(model_size(&m));
			fill_pattern(src, model_size(&m), (unsigned int)(f * 4 + n));
			model_put(&m, 0, 0, 0, src, row, h, row, h, 1);
			TAP(cudaMemcpy2DToArray(a, 0, 0, src, row, row, h,
						cudaMemcpyHostToDevice) == cudaSuccess &&
			    array_matches(a, &m),
			    "%s x%d: %zux%zu round trip through pageable memory",
			    formats[f].name, n, w, h);
			T_OK(cudaFreeArray(a));
			free(src);
			free(m.b);
		}
	}
}

// Sub-rectangles from device, pinned and pageable memory, and back.
static void test_subrects(void)
{
	cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
	const size_t w = 100, h = 70, row = w * 4;
	unsigned char *host = (unsigned char *)malloc(row * h), *pinned;
	unsigned char *out = (unsigned char *)malloc(row * h);
	cudaArray_t a, b;
	struct model m;
	void *dev;
	size_t dpitch;
	cudaStream_t s;

	T_OK(cudaMallocArray(&a, &d, w, h));
	T_OK(cudaMallocArray(&b, &d, w, h));
	T_OK(cudaStreamCreate(&s));
	model_init(&m, row, h, 0);
	fill_pattern(host, row * h, 1);
	T_OK(cudaMemcpy2DToArray(a, 0, 0, host, row, row, h,
			       cudaMemcpyHostToDevice));
	model_put(&m, 0, 0, 0, host, row, h, row, h, 1);

	// from device memory at (12 elements, 5): 33 x 41 elements
	T_OK(cudaMallocPitch(&dev, &dpitch, row, h));
	fill_pattern(host, row * h, 2);
	T_OK(cudaMemcpy2D(dev, dpitch, host, row, row, h,
			cudaMemcpyHostToDevice));
	TAP(cudaMemcpy2DToArray(a, 48, 5, (char *)dev + 3 * dpitch + 8, dpitch,
				132, 41, cudaMemcpyDeviceToDevice) == cudaSuccess,
	    "cudaMemcpy2DToArray from device memory at (48 B, 5)");
	model_put(&m, 48, 5, 0, host + 3 * row + 8, row, h, 132, 41, 1);
	TAP(array_matches(a, &m), "the array holds the device box where CUDA puts it");

	// from pinned memory, asynchronously, at the far corner
	T_OK(cudaMallocHost((void **)&pinned, row * h));
	fill_pattern(pinned, row * h, 3);
	TAP(cudaMemcpy2DToArrayAsync(a, row - 64, h - 9, pinned, 64, 64, 9,
				     cudaMemcpyHostToDevice, s) == cudaSuccess &&
	    cudaStreamSynchronize(s) == cudaSuccess,
	    "cudaMemcpy2DToArrayAsync from pinned memory into the far corner");
	model_put(&m, row - 64, h - 9, 0, pinned, 64, 9, 64, 9, 1);
	TAP(array_matches(a, &m), "the array holds the pinned box where CUDA puts it");

	// out again: a sub-rectangle to pageable memory, to device memory
	memset(out, 0xee, row * h);
	TAP(cudaMemcpy2DFromArray(out, 40, a, 20, 3, 40, 60,
				  cudaMemcpyDeviceToHost) == cudaSuccess,
	    "cudaMemcpy2DFromArray to pageable memory");
	{
		bool same = true;

		for (size_t y = 0; y < 60; y++)
			same &= !memcmp(out + y * 40, m.b + (3 + y) * row + 20, 40);
		TAP(same, "the pageable box is the array's (20 B, 3) 40 x 60");
	}
	T_OK(cudaMemset(dev, 0, dpitch * h));
	TAP(cudaMemcpy2DFromArrayAsync(dev, dpitch, a, 4, 1, row - 4, h - 1,
				       cudaMemcpyDeviceToDevice, s) == cudaSuccess &&
	    cudaMemcpy2D(out, row, dev, dpitch, row, h,
			 cudaMemcpyDeviceToHost) == cudaSuccess,
	    "cudaMemcpy2DFromArrayAsync to device memory");
	{
		bool same = true;

		for (size_t y = 0; y < h - 1; y++)
			same &= !memcmp(out + y * row, m.b + (1 + y) * row + 4,
					row - 4);
		TAP(same, "the device box is the array's (4 B, 1)");
	}

	// between arrays
	fill_pattern(host, row * h, 4);
	T_OK(cudaMemcpy2DToArray(b, 0, 0, host, row, row, h,
			       cudaMemcpyHostToDevice));
	TAP(cudaMemcpy2DArrayToArray(a, 64, 10, b, 8, 2, 200, 50,
				     cudaMemcpyDeviceToDevice) == cudaSuccess,
	    "cudaMemcpy2DArrayToArray");
	model_put(&m, 64, 10, 0, host + 2 * row + 8, row, h, 200, 50, 1);
	TAP(array_matches(a, &m), "the array holds the other array's box");

	// the deprecated 1D forms wrap onto the next rows
	fill_pattern(host, row * h, 5);
	TAP(cudaMemcpyToArray(a, 16, 7, host, 3 * row, cudaMemcpyHostToDevice) ==
	    cudaSuccess, "cudaMemcpyToArray of 3 rows' bytes from (16 B, 7)");
	model_put(&m, 16, 7, 0, host, row, 1, row - 16, 1, 1);
	model_put(&m, 0, 8, 0, host + row - 16, row, 2, row, 2, 1);
	model_put(&m, 0, 10, 0, host + 3 * row - 16, row, 1, 16, 1, 1);
	TAP(array_matches(a, &m), "cudaMemcpyToArray fills the rows in turn");
	memset(out, 0, row * h);
	TAP(cudaMemcpyFromArray(out, a, 4, 7, row, cudaMemcpyDeviceToHost) ==
	    cudaSuccess && !memcmp(out, m.b + 7 * row + 4, row),
	    "cudaMemcpyFromArray of one row's bytes from (4 B, 7)");

	T_OK(cudaFreeArray(a));
	T_OK(cudaFreeArray(b));
	T_OK(cudaFree(dev));
	T_OK(cudaFreeHost(pinned));
	T_OK(cudaStreamDestroy(s));
	free(host);
	free(out);
	free(m.b);
}

// --- 3D, layered, 1D and cudaMemcpy3D with positions ---------------------------

static void test_3d(unsigned int flags, const char *what)
{
	cudaChannelFormatDesc d = cudaCreateChannelDesc<float2>();
	const size_t w = 70, h = 33, depth = 9, elem = 8, row = w * elem;
	cudaExtent e = make_cudaExtent(w, h, depth);
	cudaPitchedPtr dev;
	cudaMemcpy3DParms p = {};
	unsigned char *host = (unsigned char *)malloc(row * h * depth);
	cudaArray_t a;
	struct model m;

	if (!OK(cudaMalloc3DArray(&a, &d, e, flags))) {
		TAP(false, "cudaMalloc3DArray %s", what);
		free(host);
		return;
	}
	model_init(&m, row, h, depth);
	fill_pattern(host, row * h * depth, 7);
	p.srcPtr = make_cudaPitchedPtr(host, row, w, h);
	p.dstArray = a;
	p.extent = e;
	p.kind = cudaMemcpyHostToDevice;
	TAP(cudaMemcpy3D(&p) == cudaSuccess, "%s: cudaMemcpy3D of the whole array", what);
	model_put(&m, 0, 0, 0, host, row, h, row, h, depth);
	TAP(array_matches(a, &m), "%s: whole array round trip", what);

	// a box from pitched device memory at array position (5, 6, 2)
	// rows wider than the array's: room for the box at x 16 elements
	T_OK(cudaMalloc3D(&dev, make_cudaExtent(row + 512, h, depth)));
	fill_pattern(host, row * h * depth, 8);
	memset(&p, 0, sizeof(p));
	p.srcPtr = make_cudaPitchedPtr(host, row, w, h);
	p.dstPtr = dev;
	p.extent = make_cudaExtent(row, h, depth);
	p.kind = cudaMemcpyHostToDevice;
	T_OK(cudaMemcpy3D(&p));
	memset(&p, 0, sizeof(p));
	p.srcPtr = dev;
	// x counts elements of the array, on the linear side too (an H100)
	p.srcPos = make_cudaPos(16, 1, 3);
	p.dstArray = a;
	p.dstPos = make_cudaPos(5, 6, 2);	// elements on an array side
	p.extent = make_cudaExtent(50, 25, 5);	// elements of the array
	p.kind = cudaMemcpyDeviceToDevice;
	TAP(cudaMemcpy3D(&p) == cudaSuccess, "%s: cudaMemcpy3D device -> array at (5, 6, 2)", what);
	model_put(&m, 5 * elem, 6, 2, host + (3 * h + 1) * row + 16 * elem, row, h,
		  50 * elem, 25, 5);
	TAP(array_matches(a, &m), "%s: the box lands at (5, 6, 2)", what);

	// and back out of the array into device memory at a position
	T_OK(cudaMemset3D(dev, 0, make_cudaExtent(row, h, depth)));
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.srcPos = make_cudaPos(1, 2, 3);
	p.dstPtr = dev;
	p.dstPos = make_cudaPos(8, 0, 1);
	p.extent = make_cudaExtent(40, 30, 6);
	p.kind = cudaMemcpyDeviceToDevice;
	TAP(cudaMemcpy3DAsync(&p, 0) == cudaSuccess &&
	    cudaDeviceSynchronize() == cudaSuccess,
	    "%s: cudaMemcpy3DAsync array -> device", what);
	memset(&p, 0, sizeof(p));
	p.srcPtr = dev;
	p.dstPtr = make_cudaPitchedPtr(host, row, w, h);
	p.extent = make_cudaExtent(row, h, depth);
	p.kind = cudaMemcpyDeviceToHost;
	T_OK(cudaMemcpy3D(&p));
	{
		bool same = true;

		for (size_t z = 0; z < 6; z++)
			for (size_t y = 0; y < 30; y++)
				same &= !memcmp(host + ((1 + z) * h + y) * row + 8 * elem,
						m.b + ((3 + z) * h + 2 + y) * row +
						1 * elem, 40 * elem);
		TAP(same, "%s: the device box is the array's (1, 2, 3)", what);
	}
	T_OK(cudaFree(dev.ptr));
	T_OK(cudaFreeArray(a));
	free(host);
	free(m.b);
}

// 1D arrays and the driver's HtoA / AtoH / DtoA / AtoD / AtoA.
static void test_1d_driver(void)
{
	CUDA_ARRAY_DESCRIPTOR ad = { 1000, 0, CU_AD_FORMAT_SIGNED_INT16, 2 };
	CUDA_ARRAY_DESCRIPTOR got;
	unsigned char in[4000], out[4000], ref[4000];
	CUarray a, b;
	CUdeviceptr dev;
	cudaArray_t ra;

	T_OK(cudaFree(0));	// the primary context, current
	TAP(cuArrayCreate(&a, &ad) == CUDA_SUCCESS &&
	    cuArrayCreate(&b, &ad) == CUDA_SUCCESS, "cuArrayCreate 1D s16 x2");
	TAP(cuArrayGetDescriptor(&got, a) == CUDA_SUCCESS && got.Width == 1000 &&
	    got.Height == 0 && got.Format == CU_AD_FORMAT_SIGNED_INT16 &&
	    got.NumChannels == 2, "cuArrayGetDescriptor");
	fill_pattern(in, sizeof(in), 9);
	memset(ref, 0, sizeof(ref));
	TAP(cuMemcpyHtoA(a, 0, in, sizeof(in)) == CUDA_SUCCESS, "cuMemcpyHtoA");
	memcpy(ref, in, sizeof(in));
	TAP(cuMemcpyAtoH(out, a, 0, sizeof(out)) == CUDA_SUCCESS &&
	    !memcmp(out, ref, sizeof(out)), "cuMemcpyAtoH");
	T_OK(cudaMalloc((void **)&dev, sizeof(in)));
	TAP(cuMemcpyAtoD(dev, a, 400, 1000) == CUDA_SUCCESS &&
	    cuMemcpyDtoA(b, 2000, dev, 1000) == CUDA_SUCCESS &&
	    cuMemcpyAtoA(a, 16, b, 2000, 1000) == CUDA_SUCCESS,
	    "cuMemcpyAtoD, DtoA, AtoA");
	memcpy(ref + 16, in + 400, 1000);
	TAP(cuMemcpyAtoH(out, a, 0, sizeof(out)) == CUDA_SUCCESS &&
	    !memcmp(out, ref, sizeof(out)), "the 1D array after AtoD, DtoA, AtoA");
	TAP(cuMemcpyHtoA(a, 3998, in, 4) == CUDA_ERROR_INVALID_VALUE,
	    "cuMemcpyHtoA past the end: CUDA_ERROR_INVALID_VALUE");
	T_OK(cudaFree((void *)dev));
	TAP(cuArrayDestroy(a) == CUDA_SUCCESS && cuArrayDestroy(b) == CUDA_SUCCESS,
	    "cuArrayDestroy");

	// a 1D array through the runtime: width only
	cudaChannelFormatDesc d = cudaCreateChannelDesc<int>();
	T_OK(cudaMallocArray(&ra, &d, 5000));
	{
		cudaExtent e;

		TAP(cudaArrayGetInfo(NULL, &e, NULL, ra) == cudaSuccess &&
		    e.width == 5000 && e.height == 0 && e.depth == 0,
		    "cudaArrayGetInfo of a 1D array: %zux%zux%zu", e.width,
		    e.height, e.depth);
	}
	T_OK(cudaFreeArray(ra));
}

// --- errors ------------------------------------------------------------------

static void test_errors(void)
{
	cudaChannelFormatDesc ok = cudaCreateChannelDesc<float>();
	cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0,
		cudaChannelFormatKindUnsigned);
	cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0,
		cudaChannelFormatKindUnsigned);
	cudaChannelFormatDesc f8 = cudaCreateChannelDesc(8, 0, 0, 0,
		cudaChannelFormatKindFloat);
	unsigned char buf[256] = { 0 };
	cudaArray_t a = NULL, b;

	T_IS(cudaErrorInvalidChannelDescriptor,
	   cudaMallocArray(&a, &three, 16, 16));
	clear_error();
	T_IS(cudaErrorInvalidChannelDescriptor,
	   cudaMallocArray(&a, &mixed, 16, 16));
	clear_error();
	T_IS(cudaErrorInvalidChannelDescriptor,
	   cudaMallocArray(&a, &f8, 16, 16));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMallocArray(&a, &ok, 0, 16));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMallocArray(NULL, &ok, 16, 16));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMallocArray(&a, &ok, 131073, 1));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &ok,
		make_cudaExtent(16, 0, 4), 0));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &ok,
		make_cudaExtent(16, 8, 6), cudaArrayCubemap));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &ok,
		make_cudaExtent(16, 16, 4), cudaArrayTextureGather));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &ok,
		make_cudaExtent(16384 + 1, 4, 4), 0));
	clear_error();
	TAP(cudaMalloc3DArray(&a, &ok, make_cudaExtent(16, 16, 6),
			      cudaArrayCubemap) == cudaSuccess &&
	    cudaFreeArray(a) == cudaSuccess, "a 16x16 cubemap array");
	TAP(cudaMalloc3DArray(&a, &ok, make_cudaExtent(64, 0, 5),
			      cudaArrayLayered) == cudaSuccess &&
	    cudaFreeArray(a) == cudaSuccess, "a 1D layered array");

	T_OK(cudaMallocArray(&a, &ok, 16, 4));
	T_OK(cudaMallocArray(&b, &ok, 16, 4));
	T_IS(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 4, 0, buf, 64, 64, 1,
		cudaMemcpyHostToDevice));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 0, 2, buf, 64, 64, 3,
		cudaMemcpyHostToDevice));
	clear_error();
	T_IS(cudaErrorInvalidPitchValue, cudaMemcpy2DToArray(a, 0, 0, buf, 32,
		64, 2, cudaMemcpyHostToDevice));
	clear_error();
	T_IS(cudaErrorInvalidMemcpyDirection, cudaMemcpy2DToArray(a, 0, 0, buf,
		64, 64, 1, (cudaMemcpyKind)7));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMemcpy2DArrayToArray(a, 0, 0, b, 8, 0,
		64, 1, cudaMemcpyDeviceToDevice));
	clear_error();
	T_IS(cudaErrorInvalidValue, cudaMemcpyToArray(a, 0, 3, buf, 128,
		cudaMemcpyHostToDevice));
	clear_error();
	T_OK(cudaMemcpy2DToArray(a, 0, 0, buf, 64, 0, 0, cudaMemcpyHostToDevice));
	T_OK(cudaFreeArray(b));
	T_OK(cudaFreeArray(a));
	T_OK(cudaFreeArray(NULL));
	// a freed array: an H100 says its context is gone
	T_IS(cudaErrorContextIsDestroyed, cudaFreeArray(a));
	clear_error();
	T_IS(cudaErrorContextIsDestroyed, cudaArrayGetInfo(NULL, NULL, NULL, a));
	clear_error();
}

// --- texture and surface objects ---------------------------------------------

static void test_objects(void)
{
	cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
	cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
	cudaChannelFormatDesc u2 = cudaCreateChannelDesc<uchar2>();
	cudaArray_t a, ai, al;
	cudaResourceDesc rd = {}, got = {};
	cudaTextureDesc td = {}, gt;
	cudaTextureObject_t t = 0;
	cudaSurfaceObject_t so = 0;
	void *lin;
	size_t pitch;

	T_OK(cudaMallocArray(&a, &f, 16, 8));
	T_OK(cudaMallocArray(&ai, &i1, 16, 8));
	T_OK(cudaMallocArray(&al, &f, 16, 8, cudaArraySurfaceLoadStore));
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	td.addressMode[0] = cudaAddressModeWrap;
	td.addressMode[1] = cudaAddressModeBorder;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	td.borderColor[2] = 3.5f;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	TAP(t != 0, "a texture object is a non-zero handle");
	TAP(cudaGetTextureObjectTextureDesc(&gt, t) == cudaSuccess &&
	    gt.filterMode == cudaFilterModeLinear &&
	    gt.addressMode[0] == cudaAddressModeWrap &&
	    gt.addressMode[1] == cudaAddressModeBorder &&
	    gt.readMode == cudaReadModeElementType && gt.normalizedCoords == 1 &&
	    gt.borderColor[2] == 3.5f,
	    "cudaGetTextureObjectTextureDesc gives the sampler state back");
	TAP(cudaGetTextureObjectResourceDesc(&got, t) == cudaSuccess &&
	    got.resType == cudaResourceTypeArray && got.res.array.array == a,
	    "cudaGetTextureObjectResourceDesc gives the array back");
	T_OK(cudaDestroyTextureObject(t));
	T_OK(cudaDestroyTextureObject(0));

	// a pitch-2D and a linear resource
	T_OK(cudaMallocPitch(&lin, &pitch, 64, 4));
	memset(&rd, 0, sizeof(rd));
	rd.resType = cudaResourceTypePitch2D;
	rd.res.pitch2D.devPtr = lin;
	rd.res.pitch2D.desc = u2;
	rd.res.pitch2D.width = 32;
	rd.res.pitch2D.height = 4;
	rd.res.pitch2D.pitchInBytes = pitch;
	td.readMode = cudaReadModeNormalizedFloat;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	TAP(cudaGetTextureObjectResourceDesc(&got, t) == cudaSuccess &&
	    got.resType == cudaResourceTypePitch2D &&
	    got.res.pitch2D.devPtr == lin && got.res.pitch2D.desc.x == 8 &&
	    got.res.pitch2D.desc.y == 8 && got.res.pitch2D.desc.z == 0 &&
	    got.res.pitch2D.width == 32 && got.res.pitch2D.pitchInBytes == pitch,
	    "a pitch-2D texture's resource comes back");
	T_OK(cudaDestroyTextureObject(t));
	memset(&rd, 0, sizeof(rd));
	rd.resType = cudaResourceTypeLinear;
	rd.res.linear.devPtr = lin;
	rd.res.linear.desc = f;
	rd.res.linear.sizeInBytes = 256;
	td.filterMode = cudaFilterModePoint;
	td.readMode = cudaReadModeElementType;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	T_OK(cudaDestroyTextureObject(t));

	// errors, as an H100 gives them (probe_tex.h100.txt)
	T_IS(cudaErrorInvalidValue, cudaCreateTextureObject(&t, NULL, &td, NULL));
	clear_error();
	memset(&rd, 0, sizeof(rd));
	rd.resType = cudaResourceTypeArray;
	T_IS(cudaErrorInvalidResourceHandle,
	     cudaCreateTextureObject(&t, &rd, &td, NULL));
	clear_error();
	rd.res.array.array = ai;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	T_IS(cudaErrorInvalidFilterSetting,
	     cudaCreateTextureObject(&t, &rd, &td, NULL));
	clear_error();
	td.filterMode = cudaFilterModePoint;
	td.readMode = cudaReadModeNormalizedFloat;
	T_IS(cudaErrorInvalidNormSetting,
	     cudaCreateTextureObject(&t, &rd, &td, NULL));
	clear_error();

	// surfaces: an H100 makes one also without the load/store flag
	rd.res.array.array = al;
	T_OK(cudaCreateSurfaceObject(&so, &rd));
	TAP(cudaGetSurfaceObjectResourceDesc(&got, so) == cudaSuccess &&
	    got.res.array.array == al, "cudaGetSurfaceObjectResourceDesc");
	T_OK(cudaDestroySurfaceObject(so));
	rd.res.array.array = a;
	T_OK(cudaCreateSurfaceObject(&so, &rd));
	T_OK(cudaDestroySurfaceObject(so));

	T_OK(cudaFree(lin));
	T_OK(cudaFreeArray(a));
	T_OK(cudaFreeArray(ai));
	T_OK(cudaFreeArray(al));
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %s", strerror((int)-fw));
	test_channel_desc();
	test_formats_2d();
	test_subrects();
	test_3d(0, "3D");
	test_3d(cudaArrayLayered, "2D layered");
	test_1d_driver();
	test_errors();
	test_objects();
	{
		cudaDeviceProp prop;

		TAP(cudaGetDeviceProperties(&prop, 0) == cudaSuccess &&
		    prop.maxTexture1D == 131072 && prop.maxTexture2D[0] == 131072 &&
		    prop.maxTexture2D[1] == 65536 && prop.maxTexture3D[2] == 16384 &&
		    prop.maxTexture2DLayered[2] == 2048 &&
		    prop.maxTextureCubemap == 32768,
		    "the texture limits are an H100's: %d, %dx%d, 3D depth %d, %d layers, cubemap %d",
		    prop.maxTexture1D, prop.maxTexture2D[0], prop.maxTexture2D[1],
		    prop.maxTexture3D[2], prop.maxTexture2DLayered[2],
		    prop.maxTextureCubemap);
	}
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
