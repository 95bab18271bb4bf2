// SPDX-License-Identifier: GPL-2.0
//
// test_ptx_tex_jit (guest test): texture and surface objects used by
// kernels, through the runtime, in a program built by nvcc with PTX only
// (compute_90) so that our libcuda compiles tex/suld/sust at load.  Each
// result is checked against a CPU reference:
//
//  - tex1Dfetch on linear memory (int), tex2D on pitch-2D memory (float,
//    point sampling at texel centres and linear filtering halfway between
//    texels), tex2D<float4> of a uchar4 array read as normalized floats,
//    tex3D on a 3D array, tex1DLayered/tex2DLayered on layered arrays;
//  - surf2Dread/surf2Dwrite in place, the .clamp and .zero boundary
//    modes outside the surface, surf3D and surf2DLayered vectors;
//  - surf2Dwrite outside the surface with cudaBoundaryModeTrap is a
//    sticky cudaErrorIllegalAddress (last: it ends the context).
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tap.h"

__global__ void fetch1d(cudaTextureObject_t t, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = tex1Dfetch<int>(t, i);
}

__global__ void tex2d(cudaTextureObject_t t, float *out, int w, float dx)
{
	int x = threadIdx.x, y = blockIdx.x;

	out[y * w + x] = tex2D<float>(t, x + dx, y + 0.5f);
}

__global__ void tex2d4(cudaTextureObject_t t, float4 *out, int w)
{
	int x = threadIdx.x, y = blockIdx.x;

	out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

__global__ void tex3d(cudaTextureObject_t t, float *out, int w, int h)
{
	int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;

	out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void layered(cudaTextureObject_t t2, cudaTextureObject_t t1,
			float *o2, float *o1, int w, int h)
{
	int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;

	o2[(l * h + y) * w + x] = tex2DLayered<float>(t2, x + 0.5f, y + 0.5f, l);
	if (y == 0)
		o1[l * w + x] = tex1DLayered<float>(t1, x + 0.5f, l);
}

__global__ void surf_scale(cudaSurfaceObject_t s, int k)
{
	int x = threadIdx.x, y = blockIdx.x;

	surf2Dwrite(surf2Dread<int>(s, x * 4, y) * k, s, x * 4, y);
}

__global__ void surf_modes(cudaSurfaceObject_t s, int *o, int y)
{
	int i = threadIdx.x, x = i - 8;

	o[2 * i] = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeClamp);
	o[2 * i + 1] = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeZero);
	__syncthreads();
	surf2Dwrite(-1, s, x * 4, y + 1, cudaBoundaryModeZero);
}

__global__ void surf_vec(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl)
{
	int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
	uchar4 v = surf3Dread<uchar4>(s3, x * 4, y, z);
	short2 u = surf2DLayeredread<short2>(sl, x * 4, y, z);

	v.w = (unsigned char)(v.x + z);
	surf3Dwrite(v, s3, x * 4, y, z);
	u.y = (short)(u.x * 2 + z);
	surf2DLayeredwrite(u, sl, x * 4, y, z);
}

__global__ void surf_trap(cudaSurfaceObject_t s, int x)
{
	surf2Dwrite(7, s, x * 4, 0, cudaBoundaryModeTrap);
}

static cudaTextureObject_t tex_of(const cudaResourceDesc *r, bool linear,
				  bool norm_read)
{
	cudaTextureDesc td = {};
	cudaTextureObject_t t = 0;

	td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
	td.readMode = norm_read ? cudaReadModeNormalizedFloat :
				  cudaReadModeElementType;
	td.addressMode[0] = td.addressMode[1] = td.addressMode[2] =
		cudaAddressModeClamp;
	OK(cudaCreateTextureObject(&t, r, &td, NULL));
	return t;
}

static cudaResourceDesc array_res(cudaArray_t a)
{
	cudaResourceDesc r = {};

	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	return r;
}

static void test_linear_pitch(void)
{
	enum { N = 256, W = 16, H = 8 };
	int *lin, *out, host[N];
	float *pitch, *fo, hp[W * H];
	size_t pbytes;
	cudaResourceDesc r = {};
	cudaTextureObject_t t;
	int bad = 0;

	for (int i = 0; i < N; i++)
		host[i] = i * 13 - 1000;
	OK(cudaMalloc(&lin, N * 4));
	OK(cudaMalloc(&out, N * 4));
	OK(cudaMemcpy(lin, host, N * 4, cudaMemcpyHostToDevice));
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = lin;
	r.res.linear.desc = cudaCreateChannelDesc<int>();
	r.res.linear.sizeInBytes = N * 4;
	t = tex_of(&r, false, false);
	fetch1d<<<N / 64, 64>>>(t, out);
	OK(cudaMemcpy(host, out, N * 4, cudaMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		bad += host[i] != i * 13 - 1000;
	TAP(!bad, "tex1Dfetch<int> on linear memory (%d wrong)", bad);
	OK(cudaDestroyTextureObject(t));

	for (int i = 0; i < W * H; i++)
		hp[i] = (float)(i / W * 100 + i % W);
	OK(cudaMallocPitch(&pitch, &pbytes, W * 4, H));
	OK(cudaMemcpy2D(pitch, pbytes, hp, W * 4, W * 4, H, cudaMemcpyHostToDevice));
	OK(cudaMalloc(&fo, W * H * 4));
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypePitch2D;
	r.res.pitch2D.devPtr = pitch;
	r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
	r.res.pitch2D.width = W;
	r.res.pitch2D.height = H;
	r.res.pitch2D.pitchInBytes = pbytes;
	t = tex_of(&r, false, false);
	tex2d<<<H, W>>>(t, fo, W, 0.5f);
	OK(cudaMemcpy(hp, fo, W * H * 4, cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += hp[i] != (float)(i / W * 100 + i % W);
	TAP(!bad, "tex2D point sampling of pitch-2D memory (%d wrong)", bad);
	OK(cudaDestroyTextureObject(t));
	t = tex_of(&r, true, false);
	tex2d<<<H, W>>>(t, fo, W, 1.0f);
	OK(cudaMemcpy(hp, fo, W * H * 4, cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < W * H; i++) {
		int x = i % W, x1 = x + 1 < W ? x + 1 : W - 1;

		bad += hp[i] != (float)(i / W * 100) + (float)(x + x1) / 2;
	}
	TAP(!bad, "tex2D linear filtering halfway between texels (%d wrong)", bad);
	OK(cudaDestroyTextureObject(t));
	OK(cudaFree(lin));
	OK(cudaFree(out));
	OK(cudaFree(pitch));
	OK(cudaFree(fo));
}

static void test_arrays(void)
{
	enum { W = 8, H = 4, D = 3 };
	cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
	cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
	cudaArray_t a2, a3, al2, al1;
	uchar4 h4[W * H];
	float hf[W * H * D], *o, *o1, got[W * H * D], got1[W * D];
	float4 *o4, g4[W * H];
	cudaResourceDesc r;
	cudaTextureObject_t t, t1;
	cudaMemcpy3DParms p = {};
	int bad = 0;

	for (int i = 0; i < W * H; i++)
		h4[i] = make_uchar4((unsigned char)(i * 5), (unsigned char)(255 - i), 0, 255);
	OK(cudaMallocArray(&a2, &c4, W, H));
	OK(cudaMemcpy2DToArray(a2, 0, 0, h4, W * 4, W * 4, H, cudaMemcpyHostToDevice));
	OK(cudaMalloc(&o4, sizeof(g4)));
	r = array_res(a2);
	t = tex_of(&r, false, true);
	tex2d4<<<H, W>>>(t, o4, W);
	OK(cudaMemcpy(g4, o4, sizeof(g4), cudaMemcpyDeviceToHost));
	for (int i = 0; i < W * H; i++)
		bad += g4[i].x != (float)(i * 5) / 255.0f ||
		       g4[i].y != (float)(255 - i) / 255.0f || g4[i].z != 0.0f ||
		       g4[i].w != 1.0f;
	TAP(!bad, "tex2D<float4> of a uchar4 array as normalized floats (%d wrong)", bad);
	OK(cudaDestroyTextureObject(t));

	for (int i = 0; i < W * H * D; i++)
		hf[i] = (float)(i / (W * H) * 1000 + i / W % H * 10 + i % W);
	OK(cudaMalloc3DArray(&a3, &cf, make_cudaExtent(W, H, D)));
	OK(cudaMalloc3DArray(&al2, &cf, make_cudaExtent(W, H, D), cudaArrayLayered));
	OK(cudaMalloc3DArray(&al1, &cf, make_cudaExtent(W, 0, D), cudaArrayLayered));
	p.srcPtr = make_cudaPitchedPtr(hf, W * 4, W, H);
	p.extent = make_cudaExtent(W, H, D);
	p.kind = cudaMemcpyHostToDevice;
	p.dstArray = a3;
	OK(cudaMemcpy3D(&p));
	p.dstArray = al2;
	OK(cudaMemcpy3D(&p));
	p.dstArray = al1;
	p.srcPtr = make_cudaPitchedPtr(hf, W * 4, W, 1);
	p.extent = make_cudaExtent(W, 1, D);
	/* layer l of the 1D layered array = row 0 of slice l... */
	{
		float h1[W * D];

		for (int l = 0; l < D; l++)
			for (int x = 0; x < W; x++)
				h1[l * W + x] = hf[l * W * H + x];
		p.srcPtr = make_cudaPitchedPtr(h1, W * 4, W, 1);
		OK(cudaMemcpy3D(&p));
	}
	OK(cudaMalloc(&o, sizeof(got)));
	OK(cudaMalloc(&o1, sizeof(got1)));
	r = array_res(a3);
	t = tex_of(&r, false, false);
	tex3d<<<D, dim3(W, H)>>>(t, o, W, H);
	OK(cudaMemcpy(got, o, sizeof(got), cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < W * H * D; i++)
		bad += got[i] != hf[i];
	TAP(!bad, "tex3D on a 3D array (%d wrong)", bad);
	OK(cudaDestroyTextureObject(t));

	r = array_res(al2);
	t = tex_of(&r, false, false);
	r = array_res(al1);
	t1 = tex_of(&r, false, false);
	layered<<<D, dim3(W, H)>>>(t, t1, o, o1, W, H);
	OK(cudaMemcpy(got, o, sizeof(got), cudaMemcpyDeviceToHost));
	OK(cudaMemcpy(got1, o1, sizeof(got1), cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < W * H * D; i++)
		bad += got[i] != hf[i];
	TAP(!bad, "tex2DLayered on a layered 2D array (%d wrong)", bad);
	bad = 0;
	for (int l = 0; l < D; l++)
		for (int x = 0; x < W; x++)
			bad += got1[l * W + x] != hf[l * W * H + x];
	TAP(!bad, "tex1DLayered on a layered 1D array (%d wrong)", bad);
	OK(cudaDestroyTextureObject(t));
	OK(cudaDestroyTextureObject(t1));
	OK(cudaFreeArray(a2));
	OK(cudaFreeArray(a3));
	OK(cudaFreeArray(al2));
	OK(cudaFreeArray(al1));
	OK(cudaFree(o));
	OK(cudaFree(o1));
	OK(cudaFree(o4));
}

static void test_surfaces(void)
{
	enum { W = 16, H = 6, SW = 8, SH = 4, SD = 3 };
	cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
	cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
	cudaChannelFormatDesc c2 = cudaCreateChannelDesc<short2>();
	cudaArray_t a, a3, al;
	int h[W * H], *o, got[64];
	uchar4 h4[SW * SH * SD];
	short2 h2[SW * SH * SD];
	cudaResourceDesc r;
	cudaSurfaceObject_t s, s3, sl;
	cudaMemcpy3DParms p = {};
	int bad = 0;

	for (int i = 0; i < W * H; i++)
		h[i] = i;
	OK(cudaMallocArray(&a, &ci, W, H, cudaArraySurfaceLoadStore));
	OK(cudaMemcpy2DToArray(a, 0, 0, h, W * 4, W * 4, H, cudaMemcpyHostToDevice));
	r = array_res(a);
	OK(cudaCreateSurfaceObject(&s, &r));
	surf_scale<<<H, W>>>(s, 5);
	OK(cudaMemcpy2DFromArray(h, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
	for (int i = 0; i < W * H; i++)
		bad += h[i] != 5 * i;
	TAP(!bad, "surf2Dread/surf2Dwrite scale a surface in place (%d wrong)", bad);

	OK(cudaMalloc(&o, sizeof(got)));
	surf_modes<<<1, 32>>>(s, o, 2);
	OK(cudaMemcpy(got, o, sizeof(got), cudaMemcpyDeviceToHost));
	OK(cudaMemcpy2DFromArray(h, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < 32; i++) {
		int x = i - 8, cx = x < 0 ? 0 : x >= W ? W - 1 : x;
		bool in = x >= 0 && x < W;

		bad += got[2 * i] != 5 * (2 * W + cx);
		bad += got[2 * i + 1] != (in ? 5 * (2 * W + x) : 0);
	}
	for (int x = 0; x < W; x++)
		bad += h[3 * W + x] != -1 || h[4 * W + x] != 5 * (4 * W + x);
	TAP(!bad, "cudaBoundaryModeClamp/Zero outside a surface (%d wrong)", bad);

	for (int i = 0; i < SW * SH * SD; i++) {
		h4[i] = make_uchar4((unsigned char)i, 1, 2, 0);
		h2[i] = make_short2((short)(i - 50), 0);
	}
	OK(cudaMalloc3DArray(&a3, &c4, make_cudaExtent(SW, SH, SD), cudaArraySurfaceLoadStore));
	OK(cudaMalloc3DArray(&al, &c2, make_cudaExtent(SW, SH, SD),
			     cudaArraySurfaceLoadStore | cudaArrayLayered));
	p.extent = make_cudaExtent(SW, SH, SD);
	p.kind = cudaMemcpyHostToDevice;
	p.srcPtr = make_cudaPitchedPtr(h4, SW * 4, SW, SH);
	p.dstArray = a3;
	OK(cudaMemcpy3D(&p));
	p.srcPtr = make_cudaPitchedPtr(h2, SW * 4, SW, SH);
	p.dstArray = al;
	OK(cudaMemcpy3D(&p));
	r = array_res(a3);
	OK(cudaCreateSurfaceObject(&s3, &r));
	r = array_res(al);
	OK(cudaCreateSurfaceObject(&sl, &r));
	surf_vec<<<SD, dim3(SW, SH)>>>(s3, sl);
	memset(&p, 0, sizeof(p));
	p.extent = make_cudaExtent(SW, SH, SD);
	p.kind = cudaMemcpyDeviceToHost;
	p.srcArray = a3;
	p.dstPtr = make_cudaPitchedPtr(h4, SW * 4, SW, SH);
	OK(cudaMemcpy3D(&p));
	p.srcArray = al;
	p.dstPtr = make_cudaPitchedPtr(h2, SW * 4, SW, SH);
	OK(cudaMemcpy3D(&p));
	bad = 0;
	for (int i = 0; i < SW * SH * SD; i++) {
		int z = i / (SW * SH);

		bad += h4[i].x != (unsigned char)i || h4[i].y != 1 ||
		       h4[i].w != (unsigned char)(i + z);
		bad += h2[i].x != i - 50 || h2[i].y != (short)((i - 50) * 2 + z);
	}
	TAP(!bad, "surf3D uchar4 and surf2DLayered short2 read and write (%d wrong)", bad);
	OK(cudaDestroySurfaceObject(s3));
	OK(cudaDestroySurfaceObject(sl));
	OK(cudaFreeArray(a3));
	OK(cudaFreeArray(al));

	/* last: a trap ends the context */
	surf_trap<<<1, 1>>>(s, W - 1);
	TAP(cudaDeviceSynchronize() == cudaSuccess, "surf2Dwrite trap mode inside the surface runs");
	surf_trap<<<1, 1>>>(s, W);
	TAP(IS(cudaErrorIllegalAddress, cudaDeviceSynchronize()),
	    "surf2Dwrite outside the surface with cudaBoundaryModeTrap: illegal address");
	IS(cudaErrorIllegalAddress, cudaGetLastError());
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	test_linear_pitch();
	test_arrays();
	test_surfaces();
	fw_launcher_stop(fw);
	return tap_finish();
}
