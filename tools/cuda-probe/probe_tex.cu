// SPDX-License-Identifier: GPL-2.0
//
// probe_tex: what the texture unit returns, bit for bit, for each filter
// mode, address mode, read mode, format, sRGB and normalized coordinates,
// at awkward coordinates (texel centres, edges, just past a 1/256 step,
// outside the texture), and the error codes of texture/surface object
// calls.  One line per fetch, each saying everything needed to redo it:
//
//   tex FMT CH W H D filter=F addr=A read=R norm=N srgb=S dim=2
//       x=BITS y=BITS z=BITS -> BITS BITS BITS BITS
//
// (one line; coordinates and results as the hex bits of floats, or of
// ints for element-type integer reads).  The texels are made by the
// functions below (texel_byte, texel_float), which a test must repeat.
//
// Build: nvcc -cudart shared -arch=sm_90 -o probe_tex probe_tex.cu
// golden/../../tests/golden/probe_tex.h100.txt holds a run on an H100.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cuda_fp16.h>

// Byte k of an integer texture; element e of a float (or half) texture.
static unsigned char texel_byte(size_t k) { return (unsigned char)(k * 37 + 11); }
static float texel_float(size_t e) { return (float)((e * 7) % 13) * 0.375f - 2.0f; }

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

__global__ void fetch(cudaTextureObject_t t, int dim, const float4 *c, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 r;
  if (dim == 1) r = tex1D<float4>(t, c[i].x);
  else if (dim == 2) r = tex2D<float4>(t, c[i].x, c[i].y);
  else if (dim == 3) r = tex3D<float4>(t, c[i].x, c[i].y, c[i].z);
  else r = tex2DLayered<float4>(t, c[i].x, c[i].y, (int)c[i].z);
  o[i] = r;
}

__global__ void fetch_int(cudaTextureObject_t t, const float4 *c, int4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<int4>(t, c[i].x, c[i].y);
}

__global__ void fetch_lin(cudaTextureObject_t t, const float4 *c, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1Dfetch<float4>(t, (int)c[i].x);
}

struct fmt { const char *name; int bits; cudaChannelFormatKind kind; };
static const fmt U8 = { "u8", 8, cudaChannelFormatKindUnsigned };
static const fmt S8 = { "s8", 8, cudaChannelFormatKindSigned };
static const fmt U16 = { "u16", 16, cudaChannelFormatKindUnsigned };
static const fmt S16 = { "s16", 16, cudaChannelFormatKindSigned };
static const fmt S32 = { "s32", 32, cudaChannelFormatKindSigned };
static const fmt F16 = { "f16", 16, cudaChannelFormatKindFloat };
static const fmt F32 = { "f32", 32, cudaChannelFormatKindFloat };

static const char *fname[] = { "point", "linear" };
static const char *aname[] = { "wrap", "clamp", "mirror", "border" };
static const char *rname[] = { "elem", "normf" };

static const float xs[] = { -1.3f, -0.5f, 0.0f, 0.25f, 0.5f, 0.5f + 1.0f / 512,
  0.5f + 1.0f / 256 + 1.0f / 1024, 0.75f, 1.0f, 1.49f, 1.5f, 2.999f, 3.7f,
  4.5f, 5.0f, 6.3f };
static const float ys[] = { 0.5f, 1.2f, 2.77f, -0.3f, 4.6f };

// Fill host memory for W*H*D texels of CH channels of format F.
static void make_texels(const fmt &f, int ch, size_t n, void *p)
{
  size_t elems = n * ch;
  if (f.kind == cudaChannelFormatKindFloat && f.bits == 32)
    for (size_t e = 0; e < elems; e++) ((float *)p)[e] = texel_float(e);
  else if (f.kind == cudaChannelFormatKindFloat)
    for (size_t e = 0; e < elems; e++) ((__half *)p)[e] = __float2half(texel_float(e));
  else
    for (size_t k = 0; k < elems * f.bits / 8; k++) ((unsigned char *)p)[k] = texel_byte(k);
}

static cudaChannelFormatDesc desc_of(const fmt &f, int ch)
{
  return cudaCreateChannelDesc(f.bits, ch > 1 ? f.bits : 0, ch > 2 ? f.bits : 0,
                               ch > 2 ? f.bits : 0, f.kind);
}

static float4 *dc; static float4 *dout; static float4 hc[4096], hout[4096];

// Run the fetches of hc[0..n) on texture t and print them.
static void run(cudaTextureObject_t t, int dim, int n, const char *head, bool ints)
{
  cudaMemcpy(dc, hc, n * sizeof(float4), cudaMemcpyHostToDevice);
  if (ints) fetch_int<<<(n + 127) / 128, 128>>>(t, dc, (int4 *)dout, n);
  else if (dim == 0) fetch_lin<<<(n + 127) / 128, 128>>>(t, dc, dout, n);
  else fetch<<<(n + 127) / 128, 128>>>(t, dim, dc, dout, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("%s launch-error %d\n", head, (int)e); return; }
  cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%s x=%08x y=%08x z=%08x -> %08x %08x %08x %08x\n", head,
           bits(hc[i].x), bits(hc[i].y), bits(hc[i].z), bits(hout[i].x),
           bits(hout[i].y), bits(hout[i].z), bits(hout[i].w));
}

// A W x H (x D) array texture of format f, and a sweep of fetches.
static void sweep(const fmt &f, int ch, int w, int h, int d, int dim,
                  int filter, int addr, int read, int norm, int srgb)
{
  cudaChannelFormatDesc cd = desc_of(f, ch);
  cudaArray_t a;
  size_t n = (size_t)w * h * (d ? d : 1);
  static unsigned char host[1 << 20];
  make_texels(f, ch, n, host);
  cudaError_t e;
  if (dim == 2) e = cudaMallocArray(&a, &cd, w, h);
  else e = cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, h, d), dim == 4 ? cudaArrayLayered : 0);
  if (e) { printf("array %s %d error %d\n", f.name, ch, (int)e); cudaGetLastError(); return; }
  cudaMemcpy3DParms p = {};
  size_t elem = f.bits / 8 * ch;
  p.srcPtr = make_cudaPitchedPtr(host, w * elem, w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h ? h : 1, d ? d : 1);  // a 1D array is one row
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  for (int i = 0; i < 3; i++) td.addressMode[i] = (cudaTextureAddressMode)addr;
  td.filterMode = (cudaTextureFilterMode)filter;
  td.readMode = (cudaTextureReadMode)read;
  td.normalizedCoords = norm;
  td.sRGB = srgb;
  td.borderColor[0] = 0.25f; td.borderColor[1] = -1.5f; td.borderColor[2] = 7.0f; td.borderColor[3] = 0.5f;
  cudaTextureObject_t t;
  char head[256];
  snprintf(head, sizeof(head), "tex %s %d %d %d %d filter=%s addr=%s read=%s norm=%d srgb=%d dim=%d",
           f.name, ch, w, h, d, fname[filter], aname[addr], rname[read], norm, srgb, dim);
  e = cudaCreateTextureObject(&t, &rd, &td, NULL);
  if (e) { printf("%s create-error %d\n", head, (int)e); cudaGetLastError(); cudaFreeArray(a); return; }
  int k = 0;
  const int nz = dim >= 3 ? 3 : 1;
  const float zs[] = { 0.5f, 1.25f, 2.0f };
  for (int iz = 0; iz < nz; iz++)
    for (unsigned iy = 0; iy < (dim >= 2 ? sizeof(ys) / 4 : 1); iy++)
      for (unsigned ix = 0; ix < sizeof(xs) / 4; ix++) {
        float x = xs[ix], y = ys[iy], z = dim == 4 ? (float)iz : zs[iz];
        if (norm) { x /= w; if (h) y /= h; if (dim == 3) z /= d; }
        hc[k++] = make_float4(x, y, z, 0);
      }
  bool ints = read == 0 && f.kind != cudaChannelFormatKindFloat;
  run(t, dim, k, head, ints);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
}

int main()
{
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("gpu %s\n", prop.name);
  cudaMalloc(&dc, sizeof(hc));
  cudaMalloc(&dout, sizeof(hout));
  // float, every filter x address mode, both coordinate kinds
  for (int f = 0; f < 2; f++)
    for (int a = 0; a < 4; a++)
      for (int n = 0; n < 2; n++)
        sweep(F32, 1, 5, 4, 0, 2, f, a, 0, n, 0);
  sweep(F32, 4, 5, 4, 0, 2, 1, 1, 0, 0, 0);
  sweep(F32, 2, 5, 4, 0, 2, 0, 3, 0, 1, 0);
  // normalized-float reads of every integer size, point and linear
  const fmt *ints[] = { &U8, &S8, &U16, &S16 };
  for (int i = 0; i < 4; i++)
    for (int f = 0; f < 2; f++)
      sweep(*ints[i], i % 2 ? 2 : 4, 5, 4, 0, 2, f, 1, 1, 0, 0);
  // sRGB
  sweep(U8, 4, 5, 4, 0, 2, 0, 1, 1, 0, 1);
  sweep(U8, 4, 5, 4, 0, 2, 1, 1, 1, 1, 1);
  // half
  sweep(F16, 1, 5, 4, 0, 2, 1, 0, 0, 1, 0);
  sweep(F16, 4, 5, 4, 0, 2, 0, 1, 0, 0, 0);
  // element-type integer reads (point only; linear is refused)
  sweep(U8, 4, 5, 4, 0, 2, 0, 1, 0, 0, 0);
  sweep(S16, 2, 5, 4, 0, 2, 0, 3, 0, 0, 0);
  sweep(S32, 1, 5, 4, 0, 2, 0, 1, 0, 0, 0);
  sweep(S32, 1, 5, 4, 0, 2, 1, 1, 0, 0, 0);
  // 1D, 3D and 2D layered
  sweep(F32, 1, 7, 0, 0, 1, 1, 0, 0, 1, 0);
  sweep(F32, 1, 7, 0, 0, 1, 1, 2, 0, 1, 0);
  sweep(F32, 1, 5, 4, 3, 3, 1, 1, 0, 0, 0);
  sweep(F32, 1, 5, 4, 3, 3, 1, 0, 0, 1, 0);
  sweep(F32, 2, 5, 4, 3, 4, 1, 1, 0, 0, 0);
  // errors
  {
    cudaResourceDesc rd = {}; cudaTextureDesc td = {}; cudaTextureObject_t t = 0;
    printf("create NULL desc %d\n", (int)cudaCreateTextureObject(&t, NULL, &td, NULL)); cudaGetLastError();
    rd.resType = cudaResourceTypeArray; rd.res.array.array = NULL;
    printf("create NULL array %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    cudaMallocArray(&a, &cd, 8, 8);
    cudaMallocArray(&b, &cd, 8, 8, cudaArraySurfaceLoadStore);
    rd.res.array.array = a;
    td.filterMode = cudaFilterModeLinear;
    printf("create float linear %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
    cudaTextureDesc got;
    printf("get desc %d filter %d\n", (int)cudaGetTextureObjectTextureDesc(&got, t), (int)got.filterMode);
    printf("destroy %d\n", (int)cudaDestroyTextureObject(t)); cudaGetLastError();
    printf("destroy 0 %d\n", (int)cudaDestroyTextureObject(0)); cudaGetLastError();
    cudaSurfaceObject_t s = 0;
    printf("surface no ldst %d\n", (int)cudaCreateSurfaceObject(&s, &rd)); cudaGetLastError();
    rd.res.array.array = b;
    printf("surface ldst %d\n", (int)cudaCreateSurfaceObject(&s, &rd)); cudaGetLastError();
    printf("surface destroy %d\n", (int)cudaDestroySurfaceObject(s)); cudaGetLastError();
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t c;
    cudaMallocArray(&c, &ci, 8, 8);
    rd.res.array.array = c;
    td.readMode = cudaReadModeElementType;
    printf("create int linear %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
    td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeNormalizedFloat;
    printf("create int32 normf %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
    cudaFreeArray(a); cudaFreeArray(b); cudaFreeArray(c);
    int x;
    printf("freearray twice %d\n", (int)cudaFreeArray(a)); cudaGetLastError();
    printf("arraygetinfo freed %d\n", (int)cudaArrayGetInfo(NULL, NULL, NULL, a)); cudaGetLastError();
    cudaArray_t z;
    cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    printf("mallocarray 3ch %d\n", (int)cudaMallocArray(&z, &three, 4, 4)); cudaGetLastError();
    cudaChannelFormatDesc f8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
    printf("mallocarray f8 %d\n", (int)cudaMallocArray(&z, &f8, 4, 4)); cudaGetLastError();
    printf("mallocarray layered flag %d\n", (int)cudaMallocArray(&z, &cd, 4, 4, cudaArrayLayered)); cudaGetLastError();
    (void)x;
  }
  return 0;
}
