// SPDX-License-Identifier: GPL-2.0
//
// probe_texfid: the texture answers probe_tex left open (issue #10's
// fidelity gaps).  One line per answer:
//
//   view ...      resource views with a layer range on layered arrays
//                 (create's code, the getter, the value fetched per layer)
//   dead ...      what the host API answers about destroyed texture and
//                 surface objects, and whether a handle comes back
//   srgb B pt=BITS lin=BITS   sRGB code B decoded through point and
//                 (all weight on one texel) linear filtering
//   srgbfilt B -> BITS ALPHA  two texels of code B blended half and half:
//                             code B as the filter decodes it
//   srgbmix A B W -> BITS     codes A and B blended with weight W/256 on B
//   s8mix A B W -> BITS       s8 values A and B blended, weight W/256 on B
//   grad GX GY aniso=N -> BITS  the weight of level 1 (in 1/256) of a
//                 2x2 + 1x1 texture whose level 1 is 1 and level 0 is 0,
//                 tex2DGrad with dPdx = (GX, 0), dPdy = (0, GY) texels
//   gradxy GX GY aniso=N -> BITS  the same with dPdx = (GX, GY), dPdy = 0
//
// Build: nvcc -cudart shared -arch=sm_90 -o probe_texfid probe_texfid.cu
// tests/golden/probe_texfid.h100.txt holds a run on an H100.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

__global__ void fetch_layered(cudaTextureObject_t t, float x, float y, int n, float *o)
{
  int l = threadIdx.x;
  if (l < n) o[l] = tex2DLayered<float>(t, x, y, l - 1);
}

__global__ void fetch_layered_lod(cudaTextureObject_t t, float x, float y, int n, float lod, float *o)
{
  int l = threadIdx.x;
  if (l < n) o[l] = tex2DLayeredLod<float>(t, x, y, l - 1, lod);
}

__global__ void fetch_cube_layered(cudaTextureObject_t t, int n, float *o)
{
  int l = threadIdx.x;
  if (l < n) o[l] = texCubemapLayered<float>(t, 1.0f, 0.1f, 0.2f, l - 1);
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

__global__ void fetch_grad(cudaTextureObject_t t, const float2 *g, float *o, int n, int n1)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n1) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, 0), make_float2(0, g[i].y));
  else if (i < n) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(0, 0));
}

static float *dout, *dx;
static float hout[4096];

static int sync_ok(const char *what)
{
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("%s sync error %d\n", what, (int)e); return 0; }
  return 1;
}

// A layered W x W float array of L layers, texel (x, y, l) = 100 l + W y + x.
static cudaArray_t layered(int w, int l, unsigned flags)
{
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  static float host[4096];
  if (cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, w, l), flags)) { printf("layered array error\n"); return 0; }
  for (int k = 0; k < l; k++) for (int y = 0; y < w; y++) for (int x = 0; x < w; x++)
    host[(k * w + y) * w + x] = 100.0f * k + w * y + x;
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, w * 4, w, w);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, w, l);
  p.kind = cudaMemcpyHostToDevice;
  if (cudaMemcpy3D(&p)) printf("layered copy error\n");
  return a;
}

static void views()
{
  cudaArray_t a = layered(4, 5, cudaArrayLayered);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  static const int ranges[][3] = { { 0, 4, 5 }, { 1, 3, 5 }, { 1, 3, 3 }, { 2, 2, 5 }, { 2, 2, 1 },
    { 4, 4, 5 }, { 0, 0, 5 }, { 3, 5, 5 }, { 3, 2, 5 }, { 1, 3, 0 }, { 0, 0, 0 } };
  for (auto &r : ranges) {
    cudaResourceViewDesc vd = {};
    vd.format = cudaResViewFormatFloat1; vd.width = 4; vd.height = 4; vd.depth = r[2];
    vd.firstLayer = r[0]; vd.lastLayer = r[1];
    cudaTextureObject_t t = 0;
    int rc = (int)cudaCreateTextureObject(&t, &rd, &td, &vd); cudaGetLastError();
    printf("view layered 4x4x5 first %d last %d depth %d -> %d", r[0], r[1], r[2], rc);
    if (!rc) {
      cudaResourceViewDesc g = {};
      int gr = (int)cudaGetTextureObjectResourceViewDesc(&g, t);
      printf(" get %d depth %zu first %u last %u", gr, g.depth, g.firstLayer, g.lastLayer);
      fetch_layered<<<1, 8>>>(t, 1.5f, 2.5f, 8, dout);
      if (sync_ok("view")) {
        cudaMemcpy(hout, dout, 8 * 4, cudaMemcpyDeviceToHost);
        printf(" layers -1..6:");
        for (int i = 0; i < 8; i++) printf(" %g", hout[i]);
      }
      cudaDestroyTextureObject(t);
    }
    printf("\n");
  }
  cudaFreeArray(a);
  // a cubemap array of 3 cubes viewed from its second cube
  a = layered(2, 18, cudaArrayCubemap | cudaArrayLayered);
  rd.res.array.array = a;
  static const int cr[][3] = { { 6, 11, 18 }, { 6, 17, 18 }, { 6, 11, 6 }, { 3, 8, 18 }, { 0, 17, 18 } };
  for (auto &r : cr) {
    cudaResourceViewDesc vd = {};
    vd.format = cudaResViewFormatFloat1; vd.width = 2; vd.height = 2; vd.depth = r[2];
    vd.firstLayer = r[0]; vd.lastLayer = r[1];
    cudaTextureObject_t t = 0;
    int rc = (int)cudaCreateTextureObject(&t, &rd, &td, &vd); cudaGetLastError();
    printf("view cubelayered 2x2x18 first %d last %d depth %d -> %d", r[0], r[1], r[2], rc);
    if (!rc) {
      fetch_cube_layered<<<1, 5>>>(t, 5, dout);
      if (sync_ok("cube view")) {
        cudaMemcpy(hout, dout, 5 * 4, cudaMemcpyDeviceToHost);
        printf(" +x face, cubes -1..3:");
        for (int i = 0; i < 5; i++) printf(" %g", hout[i]);
      }
      cudaDestroyTextureObject(t);
    }
    printf("\n");
  }
  cudaFreeArray(a);
  // a mipmapped layered array (8x8, 3 levels, 4 layers), viewed layers 1..2
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  if (cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(8, 8, 4), 3, cudaArrayLayered)) { printf("mip layered error\n"); return; }
  for (int lv = 0; lv < 3; lv++) {
    cudaArray_t l;
    cudaGetMipmappedArrayLevel(&l, m, lv);
    int w = 8 >> lv;
    static float host[1024];
    for (int k = 0; k < 4; k++) for (int i = 0; i < w * w; i++) host[k * w * w + i] = 1000.0f * lv + 100.0f * k + i;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, w * 4, w, w);
    p.dstArray = l;
    p.extent = make_cudaExtent(w, w, 4);
    p.kind = cudaMemcpyHostToDevice;
    if (cudaMemcpy3D(&p)) printf("mip layered copy error\n");
  }
  rd.resType = cudaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = m;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = 10;
  static const int mr[][5] = { { 1, 2, 4, 0, 2 }, { 1, 2, 4, 1, 2 }, { 1, 2, 2, 1, 2 }, { 0, 3, 4, 1, 1 } };
  for (auto &r : mr) {
    cudaResourceViewDesc vd = {};
    vd.format = cudaResViewFormatFloat1; vd.width = 8; vd.height = 8; vd.depth = r[2];
    vd.firstLayer = r[0]; vd.lastLayer = r[1]; vd.firstMipmapLevel = r[3]; vd.lastMipmapLevel = r[4];
    cudaTextureObject_t t = 0;
    int rc = (int)cudaCreateTextureObject(&t, &rd, &td, &vd); cudaGetLastError();
    printf("view miplayered 8x8x4 first %d last %d depth %d levels %d..%d -> %d", r[0], r[1], r[2], r[3], r[4], rc);
    if (!rc) {
      for (int lod = 0; lod < 2; lod++) {
        fetch_layered_lod<<<1, 6>>>(t, 0.3f, 0.6f, 6, (float)lod, dout);
        if (sync_ok("mip view")) {
          cudaMemcpy(hout, dout, 6 * 4, cudaMemcpyDeviceToHost);
          printf(" lod %d layers -1..4:", lod);
          for (int i = 0; i < 6; i++) printf(" %g", hout[i]);
        }
      }
      cudaDestroyTextureObject(t);
    }
    printf("\n");
  }
  cudaFreeMipmappedArray(m);
}

static void dead()
{
  cudaArray_t a = layered(4, 1, cudaArraySurfaceLoadStore);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  cudaTextureObject_t t1 = 0, t2 = 0, t3 = 0, t4 = 0;
  cudaSurfaceObject_t s1 = 0, s2 = 0;
  cudaCreateTextureObject(&t1, &rd, &td, NULL);
  cudaCreateTextureObject(&t2, &rd, &td, NULL);
  cudaCreateSurfaceObject(&s1, &rd);
  printf("dead handles t1 %llu t2 %llu s1 %llu\n", t1, t2, s1);
  printf("dead destroy t1 %d\n", (int)cudaDestroyTextureObject(t1)); cudaGetLastError();
  cudaResourceDesc gr; cudaTextureDesc gt; cudaResourceViewDesc gv;
  printf("dead get res t1 %d\n", (int)cudaGetTextureObjectResourceDesc(&gr, t1)); cudaGetLastError();
  printf("dead get tex t1 %d\n", (int)cudaGetTextureObjectTextureDesc(&gt, t1)); cudaGetLastError();
  printf("dead get view t1 %d\n", (int)cudaGetTextureObjectResourceViewDesc(&gv, t1)); cudaGetLastError();
  printf("dead destroy t1 again %d\n", (int)cudaDestroyTextureObject(t1)); cudaGetLastError();
  cudaCreateTextureObject(&t3, &rd, &td, NULL);
  cudaCreateTextureObject(&t4, &rd, &td, NULL);
  printf("dead handles after t3 %llu t4 %llu\n", t3, t4);
  printf("dead destroy t2 as surface %d\n", (int)cudaDestroySurfaceObject(t2)); cudaGetLastError();
  printf("dead destroy s1 as texture %d\n", (int)cudaDestroyTextureObject(s1)); cudaGetLastError();
  printf("dead destroy s1 %d\n", (int)cudaDestroySurfaceObject(s1)); cudaGetLastError();
  printf("dead get res s1 %d\n", (int)cudaGetSurfaceObjectResourceDesc(&gr, s1)); cudaGetLastError();
  printf("dead destroy s1 again %d\n", (int)cudaDestroySurfaceObject(s1)); cudaGetLastError();
  cudaCreateSurfaceObject(&s2, &rd);
  printf("dead handles after s2 %llu\n", s2);
  printf("dead destroy 12345 %d\n", (int)cudaDestroyTextureObject(12345)); cudaGetLastError();
  printf("dead get res 12345 %d\n", (int)cudaGetTextureObjectResourceDesc(&gr, 12345)); cudaGetLastError();
  cudaDestroyTextureObject(t2); cudaDestroyTextureObject(t3); cudaDestroyTextureObject(t4);
  cudaDestroySurfaceObject(s2);
  cudaFreeArray(a);
}

// A 1D texture of two texels (texel 0, texel 1); x[] places weight w/256 on texel 1.
static cudaTextureObject_t pair_tex(cudaArray_t *a, cudaChannelFormatDesc cd, const void *texels, size_t bytes, int srgb)
{
  cudaMallocArray(a, &cd, 2, 0);
  cudaMemcpy2DToArray(*a, 0, 0, texels, bytes, bytes, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = *a;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.sRGB = srgb;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &rd, &td, NULL)) printf("pair tex error\n");
  return t;
}

static float hx[256];

static void mixes()
{
  for (int w = 0; w < 256; w++) hx[w] = 0.5f + w / 256.0f;
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  // every sRGB code, point and linear (all weight on the texel)
  {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    static unsigned char host[256 * 4];
    for (int k = 0; k < 256 * 4; k++) host[k] = (unsigned char)(k / 4);
    cudaMallocArray(&a, &cd, 256, 0);
    cudaMemcpy2DToArray(a, 0, 0, host, 1024, 1024, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    unsigned pt[256];
    for (int lin = 0; lin < 2; lin++) {
      cudaTextureDesc td = {};
      td.addressMode[0] = cudaAddressModeClamp;
      td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
      td.readMode = cudaReadModeNormalizedFloat;
      td.sRGB = 1;
      cudaTextureObject_t t;
      cudaCreateTextureObject(&t, &rd, &td, NULL);
      for (int k = 0; k < 256; k++) hx[k] = k + 0.5f;
      cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
      fetch1d<<<1, 256>>>(t, dx, (float4 *)dout, 256);
      if (sync_ok("srgb")) {
        cudaMemcpy(hout, dout, 256 * 16, cudaMemcpyDeviceToHost);
        for (int k = 0; k < 256; k++) {
          if (!lin) pt[k] = bits(hout[4 * k]);
          else printf("srgb %d pt=%08x lin=%08x alpha=%08x\n", k, pt[k], bits(hout[4 * k]), bits(hout[4 * k + 3]));
        }
      }
      cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
  }
  // every sRGB code through the filter: texels 2c and 2c + 1 both code c
  // (alpha c), read halfway between them (weight 128 on each)
  {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    static unsigned char host[512 * 4];
    static float hx2[256];
    for (int k = 0; k < 512 * 4; k++) host[k] = (unsigned char)(k / 8);
    cudaMallocArray(&a, &cd, 512, 0);
    cudaMemcpy2DToArray(a, 0, 0, host, 2048, 2048, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeNormalizedFloat;
    td.sRGB = 1;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, NULL);
    for (int k = 0; k < 256; k++) hx2[k] = 2.0f * k + 1.0f;
    cudaMemcpy(dx, hx2, sizeof(hx2), cudaMemcpyHostToDevice);
    fetch1d<<<1, 256>>>(t, dx, (float4 *)dout, 256);
    if (sync_ok("srgbfilt")) {
      cudaMemcpy(hout, dout, 256 * 16, cudaMemcpyDeviceToHost);
      for (int k = 0; k < 256; k++)
        printf("srgbfilt %d -> %08x %08x\n", k, bits(hout[4 * k]), bits(hout[4 * k + 3]));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  for (int w = 0; w < 256; w++) hx[w] = 0.5f + w / 256.0f;
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  static const int sp[][2] = { { 0, 255 }, { 64, 128 }, { 12, 13 }, { 200, 201 } };
  for (auto &p : sp) {
    unsigned char tx[8] = { (unsigned char)p[0], (unsigned char)p[0], (unsigned char)p[0], 0,
                            (unsigned char)p[1], (unsigned char)p[1], (unsigned char)p[1], 255 };
    cudaArray_t a;
    cudaTextureObject_t t = pair_tex(&a, cudaCreateChannelDesc<uchar4>(), tx, 8, 1);
    fetch1d<<<1, 256>>>(t, dx, (float4 *)dout, 256);
    if (sync_ok("srgbmix")) {
      cudaMemcpy(hout, dout, 256 * 16, cudaMemcpyDeviceToHost);
      for (int w = 0; w < 256; w++)
        printf("srgbmix %d %d %d -> %08x %08x\n", p[0], p[1], w, bits(hout[4 * w]), bits(hout[4 * w + 3]));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // every s8 value v through the filter: texels 2k, 2k + 1 are v, 0, read
  // with weight 128 and 64 on the 0
  {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<signed char>();
    cudaArray_t a;
    static signed char host[512];
    static float hx2[512];
    for (int k = 0; k < 256; k++) { host[2 * k] = (signed char)(k - 128); host[2 * k + 1] = 0; }
    cudaMallocArray(&a, &cd, 512, 0);
    cudaMemcpy2DToArray(a, 0, 0, host, 512, 512, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, NULL);
    for (int k = 0; k < 256; k++) { hx2[k] = 2.0f * k + 1.0f; hx2[256 + k] = 2.0f * k + 0.75f; }
    cudaMemcpy(dx, hx2, sizeof(hx2), cudaMemcpyHostToDevice);
    fetch1d_s<<<2, 256>>>(t, dx, dout, 512);
    if (sync_ok("s8half")) {
      cudaMemcpy(hout, dout, 512 * 4, cudaMemcpyDeviceToHost);
      for (int k = 0; k < 512; k++)
        printf("s8mix %d 0 %d -> %08x\n", (k & 255) - 128, k < 256 ? 128 : 64, bits(hout[k]));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  for (int w = 0; w < 256; w++) hx[w] = 0.5f + w / 256.0f;
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  static const int s8p[][2] = { { -17, 97 }, { -97, -23 }, { -128, 127 }, { -1, 1 }, { -64, 0 } };
  for (auto &p : s8p) {
    signed char tx[2] = { (signed char)p[0], (signed char)p[1] };
    cudaArray_t a;
    cudaTextureObject_t t = pair_tex(&a, cudaCreateChannelDesc<signed char>(), tx, 2, 0);
    fetch1d_s<<<1, 256>>>(t, dx, dout, 256);
    if (sync_ok("s8mix")) {
      cudaMemcpy(hout, dout, 256 * 4, cudaMemcpyDeviceToHost);
      for (int w = 0; w < 256; w++)
        printf("s8mix %d %d %d -> %08x\n", p[0], p[1], w, bits(hout[w]));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
}

static void grads()
{
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(2, 2, 0), 2, 0);
  for (int lv = 0; lv < 2; lv++) {
    cudaArray_t l;
    cudaGetMipmappedArrayLevel(&l, m, lv);
    float v[4] = { (float)lv, (float)lv, (float)lv, (float)lv };
    cudaMemcpy2DToArray(l, 0, 0, v, (2 >> lv) * 4, (2 >> lv) * 4, 2 >> lv, cudaMemcpyHostToDevice);
  }
  static float2 hg[1024];
  int n = 0;
  for (int k = 0; k <= 256; k++) hg[n++] = make_float2((1.0f + k / 256.0f) / 2, 0);	// dx only
  for (int k = 0; k <= 64; k++) hg[n++] = make_float2(0, (1.0f + k / 64.0f) / 2);	// dy only
  for (int k = 0; k <= 64; k++) hg[n++] = make_float2((1.0f + k / 64.0f) / 2, (1.0f + k / 128.0f) / 2);
  for (int k = 0; k <= 64; k++) hg[n++] = make_float2((1.0f + k / 64.0f) / 2, 0.25f);
  int n1 = n;	// then dPdx = (A, B): A = 1 + i/8, B = A j/16 (texels)
  for (int i = 0; i < 8; i++)
    for (int j = 0; j <= 16; j++) {
      float A = 1.0f + i / 8.0f;
      hg[n++] = make_float2(A / 2, A * j / 16.0f / 2);
    }
  float2 *dg;
  cudaMalloc(&dg, sizeof(hg));
  cudaMemcpy(dg, hg, sizeof(hg), cudaMemcpyHostToDevice);
  for (int aniso = 0; aniso <= 16; aniso += 16) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = 100;
    td.maxAnisotropy = aniso;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, NULL);
    fetch_grad<<<(n + 255) / 256, 256>>>(t, dg, dout, n, n1);
    if (sync_ok("grad")) {
      cudaMemcpy(hout, dout, n * 4, cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; i++)
        printf("%s %08x %08x aniso=%d -> %08x\n", i < n1 ? "grad" : "gradxy", bits(hg[i].x * 2), bits(hg[i].y * 2), aniso, bits(hout[i]));
    }
    cudaDestroyTextureObject(t);
  }
  cudaFree(dg);
  cudaFreeMipmappedArray(m);
}

int main()
{
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("gpu %s\n", p.name);
  cudaMalloc(&dout, sizeof(hout));
  cudaMalloc(&dx, 4096);
  views();
  dead();
  mixes();
  grads();
  return 0;
}
