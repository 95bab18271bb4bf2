// SPDX-License-Identifier: GPL-2.0
// Texture and surface instructions for test_ptx_tex: texture and surface
// objects are kernel parameters (.param .u64 handles), as nvcc passes them.
#include <cuda_runtime.h>

// tex.2d: one texel per thread at (x + dx, y + dy)
extern "C" __global__ void tex2d(cudaTextureObject_t t, float *out, int w,
				 float dx, float dy)
{
	int x = threadIdx.x, y = blockIdx.x;

	out[y * w + x] = tex2D<float>(t, x + dx, y + dy);
}

extern "C" __global__ void tex2d4(cudaTextureObject_t t, float4 *out, int w)
{
	int x = threadIdx.x, y = blockIdx.x;

	out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

// tex.1d with .s32 coordinates (tex1Dfetch on linear memory)
extern "C" __global__ void fetch1d(cudaTextureObject_t t, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = tex1Dfetch<int>(t, i);
}

extern "C" __global__ void tex3d(cudaTextureObject_t t, float *out, int w,
				 int h)
{
	int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;

	out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

extern "C" __global__ void tex2dlayered(cudaTextureObject_t t, float *out,
					int w, int h)
{
	int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;

	out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

extern "C" __global__ void tex1dlayered(cudaTextureObject_t t, float *out,
					int w)
{
	int x = threadIdx.x, l = blockIdx.x;

	out[l * w + x] = tex1DLayered<float>(t, x + 0.5f, l);
}

// surfaces: read, transform, write (x in bytes)
extern "C" __global__ void surf2d_scale(cudaSurfaceObject_t s, int k)
{
	int x = threadIdx.x, y = blockIdx.x;
	int v = surf2Dread<int>(s, x * 4, y);

	surf2Dwrite(v * k, s, x * 4, y);
}

// surface reads at (x, y) under each boundary mode
extern "C" __global__ void surf2d_modes(cudaSurfaceObject_t s, int *out,
					int x0, int y0)
{
	int i = threadIdx.x, x = x0 + i, y = y0;

	out[3 * i] = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeClamp);
	out[3 * i + 1] = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeZero);
	surf2Dwrite(-1, s, x * 4, y, cudaBoundaryModeZero);
	out[3 * i + 2] = 0;
}

extern "C" __global__ void surf2d_trap(cudaSurfaceObject_t s, int x, int y)
{
	surf2Dwrite(7, s, x * 4, y, cudaBoundaryModeTrap);
}

extern "C" __global__ void surf3d_copy(cudaSurfaceObject_t s,
				       cudaSurfaceObject_t d)
{
	int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
	uchar4 v = surf3Dread<uchar4>(s, x * 4, y, z);

	v.x += 1; v.w = (unsigned char)z;
	surf3Dwrite(v, d, x * 4, y, z);
}

extern "C" __global__ void surf2dlayered_rw(cudaSurfaceObject_t s)
{
	int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
	short2 v = surf2DLayeredread<short2>(s, x * 4, y, l);

	v.y = (short)(v.x * 2 + l);
	surf2DLayeredwrite(v, s, x * 4, y, l);
}

// tex.level and tex.grad (mipmaps: the texture unit's; on a texture of
// one level they read level 0), tld4 (gather) and tex.cube
extern "C" __global__ void texlod(cudaTextureObject_t t, float *out)
{
	int x = threadIdx.x, y = blockIdx.x;
	float2 d = make_float2(0.5f, 0.25f);

	out[2 * (y * blockDim.x + x)] = tex2DLod<float>(t, x + 0.5f, y + 0.5f, 0.0f);
	out[2 * (y * blockDim.x + x) + 1] =
		tex2DGrad<float>(t, x + 0.5f, y + 0.5f, d, d);
}

extern "C" __global__ void gather(cudaTextureObject_t t, float4 *out)
{
	int x = threadIdx.x;

	out[x] = tex2Dgather<float4>(t, x + 1.0f, 1.0f, 1);
}

extern "C" __global__ void cube(cudaTextureObject_t t, float *out)
{
	int i = threadIdx.x;

	out[i] = texCubemap<float>(t, i & 1 ? 1.0f : -0.5f, i & 2 ? 0.25f : -1.0f,
				   i & 4 ? 0.3f : 0.1f);
}
