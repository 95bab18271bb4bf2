// SPDX-License-Identifier: GPL-2.0
//
// Mipmapped arrays, cubemap arrays, resource views and array-to-array
// copies through the runtime and the driver API (guest test):
// cudaMallocMipmappedArray / cudaGetMipmappedArrayLevel /
// cudaFreeMipmappedArray and cuMipmappedArray*, each level's size, every
// level written and read back through the copy engines (the levels are
// one VRAM chain: none may overlap another), texture objects on
// mipmapped arrays with resource views, cubemap shapes, 2D array-to-array
// copies (also captured into a graph) checked against a CPU copy.
// Error codes are those an H100 returned (tools/cuda-probe/probe_tex.cu,
// tests/golden/probe_tex.h100.txt, the "err" lines).
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define T_IS(err, call) TAP(IS((err), (call)), "%s", #call)
#define T_OK(call) T_IS(cudaSuccess, call)
#define T_CU(err, call) TAP((call) == (err), "%s == %d", #call, (int)(err))

static void clear_error(void)
{
	(void)cudaGetLastError();
}

static float value(unsigned int level, size_t i)
{
	return (float)(level * 1000 + i) + 0.25f;
}

// Every level of a 16 x 8 float mipmapped array: sizes, round trip.
static void test_levels(void)
{
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaMipmappedArray_t mm = NULL;
	static float host[16 * 8], back[16 * 8];
	cudaArray_t l[5] = { 0 };
	bool sizes = true, data = true;

	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 8, 0), 5, 0));
	for (unsigned int i = 0; i < 5; i++) {
		cudaChannelFormatDesc g;
		cudaExtent ex;
		unsigned int fl = 99;

		if (cudaGetMipmappedArrayLevel(&l[i], mm, i) ||
		    cudaArrayGetInfo(&g, &ex, &fl, l[i]) ||
		    ex.width != (16u >> i ? 16u >> i : 1) ||
		    ex.height != (8u >> i ? 8u >> i : 1) || ex.depth ||
		    fl || g.x != 32 || g.f != cudaChannelFormatKindFloat) {
			tap_diag("level %u: %zu x %zu x %zu flags %u", i,
				 ex.width, ex.height, ex.depth, fl);
			sizes = false;
		}
	}
	TAP(sizes, "each level halves 16 x 8 down to 1 x 1 (H100: level 4 is 1 x 1, depth 0, flags 0)");
	// write all the levels, then read all: none overlaps another
	for (unsigned int i = 0; i < 5 && l[i]; i++) {
		size_t w = 16u >> i ? 16u >> i : 1, h = 8u >> i ? 8u >> i : 1;

		for (size_t k = 0; k < w * h; k++)
			host[k] = value(i, k);
		if (cudaMemcpy2DToArray(l[i], 0, 0, host, w * 4, w * 4, h,
					cudaMemcpyHostToDevice))
			data = false;
	}
	for (unsigned int i = 0; i < 5 && l[i]; i++) {
		size_t w = 16u >> i ? 16u >> i : 1, h = 8u >> i ? 8u >> i : 1;

		memset(back, 0, sizeof(back));
		if (cudaMemcpy2DFromArray(back, w * 4, l[i], 0, 0, w * 4, h,
					  cudaMemcpyDeviceToHost))
			data = false;
		for (size_t k = 0; k < w * h; k++)
			if (back[k] != value(i, k)) {
				tap_diag("level %u element %zu: %g, wrote %g",
					 i, k, back[k], value(i, k));
				data = false;
				break;
			}
	}
	TAP(data, "every level keeps what was copied into it");
	T_IS(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(&l[0], mm, 5));
	T_IS(cudaErrorInvalidResourceHandle, cudaGetMipmappedArrayLevel(&l[0], NULL, 0));
	T_IS(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(NULL, mm, 0));
	T_OK(cudaFreeArray(l[4]));	// a level: nothing happens (H100: 0)
	T_OK(cudaFreeMipmappedArray(mm));
	T_IS(cudaErrorContextIsDestroyed, cudaFreeMipmappedArray(mm));
	T_OK(cudaFreeMipmappedArray(NULL));
	clear_error();
}

static void test_shapes(void)
{
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaMipmappedArray_t mm = NULL;
	cudaArray_t a = NULL;
	cudaExtent ex;
	cudaChannelFormatDesc g;
	unsigned int fl = 0;

	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 8, 0), 0, 0));
	T_IS(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(&a, mm, 1));	// 0 levels: 1
	cudaFreeMipmappedArray(mm);
	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 8, 0), 6, 0));
	cudaFreeMipmappedArray(mm);
	T_IS(cudaErrorInvalidValue, cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(0, 8, 0), 2, 0));
	T_IS(cudaErrorInvalidValue, cudaMallocMipmappedArray(&mm, NULL, make_cudaExtent(16, 8, 0), 2, 0));
	T_IS(cudaErrorInvalidValue, cudaMallocMipmappedArray(NULL, &cd, make_cudaExtent(16, 8, 0), 2, 0));
	clear_error();
	// layered: layers are never halved
	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 8, 3), 3, cudaArrayLayered));
	TAP(!cudaGetMipmappedArrayLevel(&a, mm, 2) && !cudaArrayGetInfo(&g, &ex, &fl, a) &&
	    ex.width == 4 && ex.height == 2 && ex.depth == 3 && fl == cudaArrayLayered,
	    "level 2 of a 16 x 8 x 3-layer mipmapped array: 4 x 2, 3 layers (%zu %zu %zu, flags %u)",
	    ex.width, ex.height, ex.depth, fl);
	cudaFreeMipmappedArray(mm);
	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 16, 6), 5, cudaArrayCubemap));
	TAP(!cudaGetMipmappedArrayLevel(&a, mm, 3) && !cudaArrayGetInfo(&g, &ex, &fl, a) &&
	    ex.width == 2 && ex.height == 2 && ex.depth == 6,
	    "level 3 of a 16 x 16 cubemap: 2 x 2, 6 faces (%zu %zu %zu)",
	    ex.width, ex.height, ex.depth);
	cudaFreeMipmappedArray(mm);
	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 8, 4), 5, 0));
	TAP(!cudaGetMipmappedArrayLevel(&a, mm, 2) && !cudaArrayGetInfo(&g, &ex, &fl, a) &&
	    ex.width == 4 && ex.height == 2 && ex.depth == 1,
	    "level 2 of a 16 x 8 x 4 3D mipmapped array: 4 x 2 x 1 (%zu %zu %zu)",
	    ex.width, ex.height, ex.depth);
	cudaFreeMipmappedArray(mm);
	T_OK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 0, 0), 5, 0));
	cudaFreeMipmappedArray(mm);
	// cubemap arrays
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 4, 6), cudaArrayCubemap));
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 5), cudaArrayCubemap));
	T_IS(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 8), cudaArrayCubemap | cudaArrayLayered));
	clear_error();
	T_OK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 12), cudaArrayCubemap | cudaArrayLayered));
	cudaFreeArray(a);
	T_OK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
	TAP(!cudaArrayGetInfo(&g, &ex, &fl, a) && ex.width == 8 && ex.height == 8 &&
	    ex.depth == 6 && fl == cudaArrayCubemap,
	    "a cubemap's info: 8 8 6, flags 4 (%zu %zu %zu, %u)", ex.width, ex.height, ex.depth, fl);
	cudaFreeArray(a);
}

// Texture objects on a mipmapped array, with and without views.
static void test_objects(void)
{
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaMipmappedArray_t m2 = NULL;
	cudaArray_t x = NULL;
	cudaResourceDesc rd = {}, got = {};
	cudaTextureDesc td = {}, gt = {};
	cudaResourceViewDesc vd = {}, gv = {};
	cudaTextureObject_t t = 0;
	cudaSurfaceObject_t s = 0;

	cudaMallocMipmappedArray(&m2, &cd, make_cudaExtent(16, 16, 0), 5, 0);
	cudaMallocArray(&x, &cd, 8, 8);
	rd.resType = cudaResourceTypeMipmappedArray;
	rd.res.mipmap.mipmap = m2;
	td.normalizedCoords = 1;
	td.filterMode = cudaFilterModeLinear;
	td.mipmapFilterMode = cudaFilterModeLinear;
	td.maxMipmapLevelClamp = 4;
	td.maxAnisotropy = 17;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	TAP(!cudaGetTextureObjectResourceDesc(&got, t) &&
	    got.resType == cudaResourceTypeMipmappedArray && got.res.mipmap.mipmap == m2,
	    "the resource reads back as the mipmapped array");
	TAP(!cudaGetTextureObjectTextureDesc(&gt, t) && gt.maxAnisotropy == 17 &&
	    gt.mipmapFilterMode == cudaFilterModeLinear && gt.maxMipmapLevelClamp == 4,
	    "max anisotropy 17 is kept and read back, as on an H100 (%u)", gt.maxAnisotropy);
	T_OK(cudaDestroyTextureObject(t));
	td.maxAnisotropy = 0;
	td.minMipmapLevelClamp = 3;
	td.maxMipmapLevelClamp = 1;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));	// min > max: accepted
	cudaDestroyTextureObject(t);
	td.minMipmapLevelClamp = td.maxMipmapLevelClamp = 0;
	td.normalizedCoords = 0;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	cudaDestroyTextureObject(t);
	td.normalizedCoords = 1;
	vd.format = cudaResViewFormatFloat1;
	vd.width = 8;
	vd.height = 8;
	vd.firstMipmapLevel = 1;
	vd.lastMipmapLevel = 3;
	T_IS(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, &vd));
	vd.width = vd.height = 16;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, &vd));
	TAP(!cudaGetTextureObjectResourceViewDesc(&gv, t) && gv.firstMipmapLevel == 1 &&
	    gv.lastMipmapLevel == 3 && gv.width == 16 && gv.format == cudaResViewFormatFloat1,
	    "the view reads back (levels %u..%u)", gv.firstMipmapLevel, gv.lastMipmapLevel);
	cudaDestroyTextureObject(t);
	vd.lastMipmapLevel = 9;
	T_IS(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, &vd));
	vd.lastMipmapLevel = 3;
	vd.format = cudaResViewFormatUnsignedChar4;
	T_IS(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, &vd));
	vd.format = cudaResViewFormatFloat1;
	vd.firstMipmapLevel = 3;
	vd.lastMipmapLevel = 1;
	T_IS(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, &vd));
	clear_error();
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = x;
	vd = cudaResourceViewDesc{};
	vd.format = cudaResViewFormatFloat1;
	vd.width = vd.height = 8;
	T_OK(cudaCreateTextureObject(&t, &rd, &td, &vd));
	cudaDestroyTextureObject(t);
	rd.resType = cudaResourceTypeMipmappedArray;
	rd.res.mipmap.mipmap = m2;
	T_IS(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, &rd));
	cudaFreeMipmappedArray(m2);
	T_IS(cudaErrorContextIsDestroyed, cudaCreateTextureObject(&t, &rd, &td, NULL));
	clear_error();
	cudaFreeArray(x);
}

static void test_driver(void)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = {};
	CUmipmappedArray cm = NULL;
	CUarray ca = NULL;

	ad.Width = 16;
	ad.Height = 8;
	ad.Format = CU_AD_FORMAT_FLOAT;
	ad.NumChannels = 1;
	T_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&cm, &ad, 5));
	T_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&ca, cm, 5));
	T_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&ca, cm, 2));
	T_CU(CUDA_SUCCESS, cuArrayDestroy(ca));
	T_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(cm));
	T_CU(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMipmappedArrayDestroy(cm));
	T_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&cm, &ad, 6));
	T_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(cm));
}

// 2D array-to-array copies, direct and captured, against a CPU copy.
static void test_a2a(void)
{
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	static float in[8 * 8], out[8 * 8], want[8 * 8];
	cudaArray_t x = NULL, y = NULL;
	cudaStream_t st;
	cudaGraph_t g;
	cudaGraphExec_t ge;
	bool same = true;

	cudaMallocArray(&x, &cd, 8, 8);
	cudaMallocArray(&y, &cd, 8, 8);
	for (int i = 0; i < 64; i++)
		in[i] = (float)i;
	cudaMemcpy2DToArray(x, 0, 0, in, 32, 32, 8, cudaMemcpyHostToDevice);
	memset(out, 0, sizeof(out));
	cudaMemcpy2DToArray(y, 0, 0, out, 32, 32, 8, cudaMemcpyHostToDevice);
	// a 3 x 4 box from (1, 2) of x to (4, 3) of y
	T_OK(cudaMemcpy2DArrayToArray(y, 16, 3, x, 4, 2, 12, 4));
	memset(want, 0, sizeof(want));
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 3; c++)
			want[(3 + r) * 8 + 4 + c] = in[(2 + r) * 8 + 1 + c];
	cudaMemcpy2DFromArray(out, 32, y, 0, 0, 32, 8, cudaMemcpyDeviceToHost);
	TAP(!memcmp(out, want, sizeof(out)), "cudaMemcpy2DArrayToArray moves the box, tiled to tiled");
	T_IS(cudaErrorInvalidValue, cudaMemcpy2DArrayToArray(y, 4, 0, x, 0, 0, 32, 8));
	T_IS(cudaErrorInvalidValue, cudaMemcpy2DArrayToArray(y, 0, 1, x, 0, 0, 32, 8));
	T_IS(cudaErrorInvalidValue, cudaMemcpy2DArrayToArray(NULL, 0, 0, x, 0, 0, 32, 8));
	T_IS(cudaErrorInvalidMemcpyDirection, cudaMemcpy2DArrayToArray(y, 0, 0, x, 0, 0, 32, 8, cudaMemcpyHostToDevice));
	clear_error();
	// captured: graph memcpy nodes with array sides (linear -> array,
	// array -> linear), replayed after the sources changed
	cudaStreamCreate(&st);
	float *dsrc = NULL, *ddst = NULL;
	cudaMalloc(&dsrc, sizeof(in));
	cudaMalloc(&ddst, sizeof(in));
	memset(out, 0, sizeof(out));
	cudaMemcpy(ddst, out, sizeof(out), cudaMemcpyHostToDevice);
	cudaMemcpy2DToArray(y, 0, 0, out, 32, 32, 8, cudaMemcpyHostToDevice);
	T_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
	T_OK(cudaMemcpy2DToArrayAsync(y, 0, 4, dsrc, 32, 32, 4, cudaMemcpyDeviceToDevice, st));
	T_OK(cudaMemcpy2DFromArrayAsync(ddst, 32, y, 0, 4, 32, 4, cudaMemcpyDeviceToDevice, st));
	T_OK(cudaStreamEndCapture(st, &g));
	clear_error();
	cudaMemcpy(dsrc, in, sizeof(in), cudaMemcpyHostToDevice);	// after the capture
	T_OK(cudaGraphInstantiate(&ge, g, 0));
	T_OK(cudaGraphLaunch(ge, st));
	T_OK(cudaStreamSynchronize(st));
	memset(out, 0, sizeof(out));
	cudaMemcpy2DFromArray(out, 32, y, 0, 4, 32, 4, cudaMemcpyDeviceToHost);
	same = !memcmp(out, in, 32 * 4);
	memset(out, 0, sizeof(out));
	cudaMemcpy(out, ddst, 32 * 4, cudaMemcpyDeviceToHost);
	same = same && !memcmp(out, in, 32 * 4);
	TAP(same, "captured copies into and out of an array replay from the graph");
	cudaGraphExecDestroy(ge);
	cudaGraphDestroy(g);
	cudaStreamDestroy(st);
	cudaFree(dsrc);
	cudaFree(ddst);
	cudaFreeArray(x);
	cudaFreeArray(y);
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %s", strerror((int)-fw));
	test_levels();
	test_shapes();
	test_objects();
	test_driver();
	test_a2a();
	cudaDeviceReset();
	fw_launcher_stop(fw);
	return tap_finish();
}
