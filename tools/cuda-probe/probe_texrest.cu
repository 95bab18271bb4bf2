// SPDX-License-Identifier: GPL-2.0
//
// probe_texrest: the texture answers probe_texfid left open (issue #10's
// last fidelity gaps).  One line per answer:
//
//   remap A K -> BITS      tex2DLod at level of detail K/256 of a 3-level
//                          float texture (4x4, 2x2, 1x1) whose level L
//                          holds L everywhere, maxAnisotropy A: the
//                          level position the filter blends to
//   grad2 A DXX DXY DYX DYY -> BITS   the same texture, tex2DGrad with
//                          dPdx = (DXX, DXY), dPdy = (DYX, DYY) in texels
//                          of level 0 (bits of floats): the level of
//                          detail from two gradients, with and without
//                          anisotropy
//   moments A DXX DXY DYX DYY -> X Y XX YY   a 64x64 float4 texture of
//                          (x, y, x*x/64, y*y/64) at texel (x, y), read
//                          at texel (32.25, 32.375) with those gradients:
//                          the mean and spread of an anisotropic
//                          footprint's samples
//   s8pair A B W -> BITS   s8 texels A and B blended, weight W/256 on B
//   srgbpair A B W -> RGB ALPHA   u8x4 sRGB codes A and B (alpha 0 and
//                          255) blended, weight W/256 on B
//
// Build: nvcc -cudart shared -arch=sm_90 -o probe_texrest probe_texrest.cu
// tests/golden/probe_texrest.h100.txt holds a run on an H100.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

__global__ void fetch_lod(cudaTextureObject_t t, const float *l, float *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, 0.5f, 0.5f, l[i]);
}

__global__ void fetch_grad(cudaTextureObject_t t, const float4 *g, float *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

__global__ void fetch_grad4(cudaTextureObject_t t, float x, float y, const float4 *g, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float4>(t, x, y, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

__global__ void fetch1d(cudaTextureObject_t t, const float *x, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1D<float4>(t, x[i]);
}

__global__ void fetch1d_s(cudaTextureObject_t t, const float *x, float *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1D<float>(t, x[i]);
}

#define MAXN 8192
static float *dout, *din;
static float hout[4 * MAXN], hin[4 * MAXN];

static int sync_ok(const char *what)
{
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("%s sync error %d\n", what, (int)e); return 0; }
  return 1;
}

static const int anisos[] = { 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16 };

// The 3-level texture whose level L is L, maxAnisotropy a.
static cudaTextureObject_t levels_tex(cudaMipmappedArray_t m, int a)
{
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = m;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = 100;
  td.maxAnisotropy = a;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &rd, &td, NULL)) printf("levels texture error\n");
  return t;
}

static unsigned lcg = 12345;
static float rnd_eighths(int range)	// a multiple of 1/8 in [-range, range]
{
  lcg = lcg * 1103515245u + 12345u;
  return (float)((int)((lcg >> 8) % (unsigned)(16 * range + 1)) - 8 * range) / 8.0f;
}

static void lod_and_grads()
{
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(4, 4, 0), 3, 0);
  for (int lv = 0; lv < 3; lv++) {
    cudaArray_t l;
    cudaGetMipmappedArrayLevel(&l, m, lv);
    float v[16];
    for (int k = 0; k < 16; k++) v[k] = (float)lv;
    cudaMemcpy2DToArray(l, 0, 0, v, (4 >> lv) * 4, (4 >> lv) * 4, 4 >> lv, cudaMemcpyHostToDevice);
  }
  // remap: the level position at every level of detail 0..2 in 1/256
  int n = 513;
  for (int k = 0; k < n; k++) hin[k] = k / 256.0f;
  cudaMemcpy(din, hin, n * 4, cudaMemcpyHostToDevice);
  for (int a : anisos) {
    cudaTextureObject_t t = levels_tex(m, a);
    fetch_lod<<<(n + 255) / 256, 256>>>(t, din, dout, n);
    if (sync_ok("remap")) {
      cudaMemcpy(hout, dout, n * 4, cudaMemcpyDeviceToHost);
      for (int k = 0; k < n; k++) printf("remap %d %d -> %08x\n", a, k, bits(hout[k]));
    }
    cudaDestroyTextureObject(t);
  }
  // gradient pairs, in texels of level 0: random multiples of 1/8, then
  // rotated frames (major r at angle th, minor s perpendicular)
  static float4 g[MAXN];
  n = 0;
  for (int k = 0; k < 500; k++) {
    float a = rnd_eighths(3), b = rnd_eighths(3), c = rnd_eighths(3), d = rnd_eighths(3);
    g[n++] = make_float4(a, b, c, d);
  }
  static const float rs[] = { 1.0f, 1.5f, 2.0f, 3.0f };
  static const float ss[] = { 1.0f, 0.5f, 0.25f, 0.125f };
  for (int th = 0; th <= 90; th += 5)
    for (float r : rs)
      for (float s : ss) {
        float c = cosf(th * 3.14159265f / 180), sn = sinf(th * 3.14159265f / 180);
        g[n++] = make_float4(r * c, r * sn, -s * r * sn, s * r * c);
      }
  for (int k = 0; k < n; k++)
    ((float4 *)hin)[k] = make_float4(g[k].x / 4, g[k].y / 4, g[k].z / 4, g[k].w / 4);
  cudaMemcpy(din, hin, n * 16, cudaMemcpyHostToDevice);
  for (int a : { 0, 2, 4, 8, 16 }) {
    cudaTextureObject_t t = levels_tex(m, a);
    fetch_grad<<<(n + 255) / 256, 256>>>(t, (const float4 *)din, dout, n);
    if (sync_ok("grad2")) {
      cudaMemcpy(hout, dout, n * 4, cudaMemcpyDeviceToHost);
      for (int k = 0; k < n; k++)
        printf("grad2 %d %08x %08x %08x %08x -> %08x\n", a, bits(g[k].x), bits(g[k].y), bits(g[k].z), bits(g[k].w), bits(hout[k]));
    }
    cudaDestroyTextureObject(t);
  }
  cudaFreeMipmappedArray(m);
}

static void moments()
{
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
  cudaArray_t arr;
  static float4 host[64 * 64];
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 64; x++)
      host[y * 64 + x] = make_float4(x, y, x * x / 64.0f, y * y / 64.0f);
  cudaMallocArray(&arr, &cd, 64, 64);
  cudaMemcpy2DToArray(arr, 0, 0, host, 64 * 16, 64 * 16, 64, cudaMemcpyHostToDevice);
  static float4 g[256];
  int n = 0;
  static const float maj[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };
  for (float r : maj) {
    g[n++] = make_float4(r, 0, 0, 1);		// along x
    g[n++] = make_float4(0, 1, r, 0);		// along y, from dPdy
    g[n++] = make_float4(r * 0.6f, r * 0.8f, -0.8f, 0.6f);	// rotated
  }
  for (int k = 0; k < n; k++)
    ((float4 *)hin)[k] = make_float4(g[k].x / 64, g[k].y / 64, g[k].z / 64, g[k].w / 64);
  cudaMemcpy(din, hin, n * 16, cudaMemcpyHostToDevice);
  for (int a : { 0, 2, 4, 8, 16 }) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    td.maxAnisotropy = a;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, NULL);
    fetch_grad4<<<1, 256>>>(t, 32.75f / 64, 32.875f / 64, (const float4 *)din, (float4 *)dout, n);
    if (sync_ok("moments")) {
      cudaMemcpy(hout, dout, n * 16, cudaMemcpyDeviceToHost);
      for (int k = 0; k < n; k++)
        printf("moments %d %08x %08x %08x %08x -> %08x %08x %08x %08x\n", a, bits(g[k].x), bits(g[k].y), bits(g[k].z), bits(g[k].w),
               bits(hout[4 * k]), bits(hout[4 * k + 1]), bits(hout[4 * k + 2]), bits(hout[4 * k + 3]));
    }
    cudaDestroyTextureObject(t);
  }
  cudaFreeArray(arr);
}

// A 1D array of 512 texels of format cd from host, linear, clamp, normalized reads.
static cudaTextureObject_t pairs_tex(cudaArray_t *a, cudaChannelFormatDesc cd, const void *host, size_t elem, int srgb)
{
  cudaMallocArray(a, &cd, 512, 0);
  cudaMemcpy2DToArray(*a, 0, 0, host, 512 * elem, 512 * elem, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = *a;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.sRGB = srgb;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &rd, &td, NULL);
  return t;
}

static const int ws[] = { 1, 32, 77, 128, 179, 224, 255 };

static void s8pairs()
{
  static const int bs[] = { 1, -1, 2, -2, 64, -64, 127, -127, -128, 37, -91, 100 };
  for (int b : bs) {
    static signed char host[512];
    for (int k = 0; k < 256; k++) { host[2 * k] = (signed char)(k - 128); host[2 * k + 1] = (signed char)b; }
    cudaArray_t a;
    cudaTextureObject_t t = pairs_tex(&a, cudaCreateChannelDesc<signed char>(), host, 1, 0);
    int n = 0;
    for (int w : ws) for (int k = 0; k < 256; k++) hin[n++] = 2 * k + 0.5f + w / 256.0f;
    cudaMemcpy(din, hin, n * 4, cudaMemcpyHostToDevice);
    fetch1d_s<<<(n + 255) / 256, 256>>>(t, din, dout, n);
    if (sync_ok("s8pair")) {
      cudaMemcpy(hout, dout, n * 4, cudaMemcpyDeviceToHost);
      n = 0;
      for (int w : ws) for (int k = 0; k < 256; k++, n++)
        printf("s8pair %d %d %d -> %08x\n", k - 128, b, w, bits(hout[n]));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
}

static void srgbpairs()
{
  for (int kind = 0; kind < 5; kind++) {
    static unsigned char host[512 * 4];
    for (int k = 0; k < 256; k++) {
      int b = kind == 0 ? 0 : kind == 1 ? 128 : kind == 2 ? 255 : kind == 3 ? (k + 1) & 255 : k ^ 0x80;
      for (int c = 0; c < 3; c++) { host[8 * k + c] = (unsigned char)k; host[8 * k + 4 + c] = (unsigned char)b; }
      host[8 * k + 3] = 0;
      host[8 * k + 7] = 255;
    }
    cudaArray_t a;
    cudaTextureObject_t t = pairs_tex(&a, cudaCreateChannelDesc<uchar4>(), host, 4, 1);
    int n = 0;
    for (int w : ws) for (int k = 0; k < 256; k++) hin[n++] = 2 * k + 0.5f + w / 256.0f;
    cudaMemcpy(din, hin, n * 4, cudaMemcpyHostToDevice);
    fetch1d<<<(n + 255) / 256, 256>>>(t, din, (float4 *)dout, n);
    if (sync_ok("srgbpair")) {
      cudaMemcpy(hout, dout, n * 16, cudaMemcpyDeviceToHost);
      n = 0;
      for (int w : ws) for (int k = 0; k < 256; k++, n++)
        printf("srgbpair %d %d %d -> %08x %08x\n", k, host[8 * k + 4], w, bits(hout[4 * n]), bits(hout[4 * n + 3]));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
}

int main()
{
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("gpu %s\n", p.name);
  cudaMalloc(&dout, sizeof(hout));
  cudaMalloc(&din, sizeof(hin));
  lod_and_grads();
  moments();
  s8pairs();
  srgbpairs();
  return 0;
}
