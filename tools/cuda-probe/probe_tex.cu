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
// Build: nvcc -cudart shared -arch=sm_90 -o probe_tex probe_tex.cu -lcuda
// golden/../../tests/golden/probe_tex.h100.txt holds a run on an H100.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cuda.h>
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
  // A 1D array (h = 0, n = 0 above): its texels are the bytes
  // texel_byte(k) read as the format's elements - what the recorded run
  // copied (it found them left in host[] by the sweep before).
  if (!h)
    for (size_t k = 0; k < (size_t)w * (f.bits / 8) * ch; k++) host[k] = texel_byte(k);
  cudaError_t e;
  if (dim == 2) e = cudaMallocArray(&a, &cd, w, h);
  else e = cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, h, d), dim == 4 ? cudaArrayLayered : 0);
  if (e) { printf("array %s %d error %d\n", f.name, ch, (int)e); cudaGetLastError(); return; }
  cudaMemcpy3DParms p = {};
  size_t elem = f.bits / 8 * ch;
  p.srcPtr = make_cudaPitchedPtr(host, w * elem, w, h ? h : 1);  // 1D: one row
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h ? h : 1, d ? d : 1);  // a 1D array is one row
  p.kind = cudaMemcpyHostToDevice;
  e = cudaMemcpy3D(&p);
  if (e) { printf("copy %s %d %d %d %d error %d\n", f.name, ch, w, h, d, (int)e); cudaGetLastError(); }
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


// ---- mipmaps, gather, cubemaps, offsets (lines: mip, gather, cube, offs) ----
//
//   mip FMT CH W H LEVELS filter=F mipfilter=F bias=B minlod=M maxlod=M
//       aniso=A kind=auto|lod|grad x= y= lod= dxx= dxy= dyx= dyy= -> 4 results
//   gather FMT CH W H addr=A read=R norm=N comp=C x= y= -> 4 results
//   cube FMT CH W layers=L filter=F seamless=S x= y= z= layer= -> 4 results
//   offs FMT CH W H filter=F addr=A norm=N ox= oy= x= y= -> 4 results
//
// Texels of these textures: texel_id(e) (element e, all levels / faces of
// one array counted on), distinct so that a result names its texels.
static float texel_id(size_t e) { return (float)(e % 4096); }

struct mipq { float x, y, lod, dxx, dxy, dyx, dyy; };

__global__ void fetch_mip(cudaTextureObject_t t, int kind, const mipq *q, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  mipq c = q[i];
  if (kind == 0) o[i] = tex2D<float4>(t, c.x, c.y);
  else if (kind == 1) o[i] = tex2DLod<float4>(t, c.x, c.y, c.lod);
  else o[i] = tex2DGrad<float4>(t, c.x, c.y, make_float2(c.dxx, c.dxy), make_float2(c.dyx, c.dyy));
}

__global__ void fetch_gather(cudaTextureObject_t t, int comp, const float4 *c, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, comp);
}

__global__ void fetch_gather_int(cudaTextureObject_t t, int comp, const float4 *c, int4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = tex2Dgather<int4>(t, c[i].x, c[i].y, comp);
}

__global__ void fetch_cube(cudaTextureObject_t t, int layered, const float4 *c, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (layered) o[i] = texCubemapLayered<float4>(t, c[i].x, c[i].y, c[i].z, (int)c[i].w);
  else o[i] = texCubemap<float4>(t, c[i].x, c[i].y, c[i].z);
}

// tex.2d with a texel offset: CUDA C has no form for it, PTX has.
__global__ void fetch_offs(cudaTextureObject_t t, int ox, int oy, const float4 *c, float4 *o, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 r;
  asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8};"
               : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
               : "l"(t), "f"(c[i].x), "f"(c[i].y), "r"(ox), "r"(oy));
  o[i] = r;
}

static mipq hq[4096];

static void print_out(const char *head, const char *tail, int i)
{
  printf("%s %s -> %08x %08x %08x %08x\n", head, tail, bits(hout[i].x),
         bits(hout[i].y), bits(hout[i].z), bits(hout[i].w));
}

static bool sync_ok(const char *head)
{
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("%s launch-error %d\n", head, (int)e); cudaGetLastError(); return false; }
  return true;
}

// A W x H mipmapped array of LEVELS levels: level L holds texel_id of
// the elements counted on over all the levels before it.
static void mip_sweep(const fmt &f, int ch, int w, int h, int levels, int filter,
                      int mipfilter, float bias, float minlod, float maxlod, int aniso)
{
  cudaChannelFormatDesc cd = desc_of(f, ch);
  cudaMipmappedArray_t mm;
  cudaError_t e = cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(w, h, 0), levels, 0);
  if (e) { printf("mip alloc error %d\n", (int)e); cudaGetLastError(); return; }
  size_t elem = f.bits / 8 * ch, base = 0;
  static unsigned char host[1 << 20];
  for (int l = 0; l < levels; l++) {
    int lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
    for (size_t k = 0; k < (size_t)lw * lh * ch; k++) {
      size_t g = base + k;
      if (f.kind == cudaChannelFormatKindFloat) ((float *)host)[k] = texel_id(g);
      else for (int b = 0; b < f.bits / 8; b++) host[k * (f.bits / 8) + b] = texel_byte(g * (f.bits / 8) + b);
    }
    base += (size_t)lw * lh * ch;
    cudaArray_t a;
    cudaGetMipmappedArrayLevel(&a, mm, l);
    cudaMemcpy2DToArray(a, 0, 0, host, lw * elem, lw * elem, lh, cudaMemcpyHostToDevice);
  }
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = mm;
  cudaTextureDesc td = {};
  for (int i = 0; i < 3; i++) td.addressMode[i] = cudaAddressModeClamp;
  td.filterMode = (cudaTextureFilterMode)filter;
  td.mipmapFilterMode = (cudaTextureFilterMode)mipfilter;
  td.readMode = f.kind == cudaChannelFormatKindFloat ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
  td.normalizedCoords = 1;
  td.mipmapLevelBias = bias;
  td.minMipmapLevelClamp = minlod;
  td.maxMipmapLevelClamp = maxlod;
  td.maxAnisotropy = aniso;
  cudaTextureObject_t t;
  char head[256];
  snprintf(head, sizeof(head), "mip %s %d %d %d %d filter=%s mipfilter=%s bias=%08x minlod=%08x maxlod=%08x aniso=%d",
           f.name, ch, w, h, levels, fname[filter], fname[mipfilter], bits(bias), bits(minlod), bits(maxlod), aniso);
  e = cudaCreateTextureObject(&t, &rd, &td, NULL);
  if (e) { printf("%s create-error %d\n", head, (int)e); cudaGetLastError(); cudaFreeMipmappedArray(mm); return; }
  static const float cx[] = { 0.3f, 0.53f, 0.0f, 0.91f }, cy[] = { 0.6f, 0.27f, 0.0f, 0.45f };
  static const float lods[] = { -1.0f, 0.0f, 0.125f, 0.25f, 0.5f, 0.7f, 1.0f, 1.5f, 1.999f, 2.3f, 3.0f, 3.99f, 4.0f, 7.0f };
  // gradients in texels of level 0: (dx.x, dx.y, dy.x, dy.y)
  static const float gr[][4] = { { 1, 0, 0, 1 }, { 2, 0, 0, 2 }, { 1.5f, 0, 0, 1.5f },
    { 3, 0, 0, 1 }, { 4, 0, 0, 4 }, { 0.5f, 0, 0, 0.5f }, { 1, 1, -1, 1 }, { 8, 0, 0, 2 },
    { 2.5f, 0.7f, 0.3f, 1.9f }, { 16, 0, 0, 16 }, { 0, 0, 0, 0 }, { 6, 0, 0, 0.5f },
    { 0, 3, 1, 0 }, { 1.2f, 0, 0, 5.0f }, { 2.9f, 0, 0, 2.9f }, { 3.1f, 0, 0, 3.1f } };
  for (int kind = 0; kind < 3; kind++) {
    int n = 0;
    for (int c = 0; c < 4; c++) {
      if (kind == 0) hq[n++] = { cx[c], cy[c], 0, 0, 0, 0, 0 };
      else if (kind == 1)
        for (unsigned l = 0; l < sizeof(lods) / 4; l++) hq[n++] = { cx[c], cy[c], lods[l], 0, 0, 0, 0 };
      else
        for (unsigned g = 0; g < sizeof(gr) / sizeof(gr[0]); g++)
          hq[n++] = { cx[c], cy[c], 0, gr[g][0] / w, gr[g][1] / h, gr[g][2] / w, gr[g][3] / h };
    }
    cudaMemcpy(dc, hq, n * sizeof(mipq), cudaMemcpyHostToDevice);
    fetch_mip<<<(n + 127) / 128, 128>>>(t, kind, (const mipq *)dc, dout, n);
    if (!sync_ok(head)) break;
    cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
    static const char *kn[] = { "auto", "lod", "grad" };
    for (int i = 0; i < n; i++) {
      char tail[200];
      snprintf(tail, sizeof(tail), "kind=%s x=%08x y=%08x lod=%08x dxx=%08x dxy=%08x dyx=%08x dyy=%08x",
               kn[kind], bits(hq[i].x), bits(hq[i].y), bits(hq[i].lod), bits(hq[i].dxx),
               bits(hq[i].dxy), bits(hq[i].dyx), bits(hq[i].dyy));
      print_out(head, tail, i);
    }
  }
  cudaDestroyTextureObject(t);
  cudaFreeMipmappedArray(mm);
}

// A 2D array for gather or offsets: texel_id (float) or texel_byte (ints).
static cudaArray_t plain_array(const fmt &f, int ch, int w, int h, unsigned flags)
{
  cudaChannelFormatDesc cd = desc_of(f, ch);
  cudaArray_t a;
  static unsigned char host[1 << 16];
  size_t elem = f.bits / 8 * ch;
  if (cudaMallocArray(&a, &cd, w, h, flags)) { cudaGetLastError(); return NULL; }
  for (size_t e = 0; e < (size_t)w * h * ch; e++)
    if (f.kind == cudaChannelFormatKindFloat) ((float *)host)[e] = texel_id(e);
  if (f.kind != cudaChannelFormatKindFloat)
    make_texels(f, ch, (size_t)w * h, host);
  cudaMemcpy2DToArray(a, 0, 0, host, w * elem, w * elem, h, cudaMemcpyHostToDevice);
  return a;
}

static cudaTextureObject_t plain_tex(cudaArray_t a, int filter, int addr, int read, int norm)
{
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  for (int i = 0; i < 3; i++) td.addressMode[i] = (cudaTextureAddressMode)addr;
  td.filterMode = (cudaTextureFilterMode)filter;
  td.readMode = (cudaTextureReadMode)read;
  td.normalizedCoords = norm;
  td.borderColor[0] = 0.25f; td.borderColor[1] = -1.5f; td.borderColor[2] = 7.0f; td.borderColor[3] = 0.5f;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, NULL);
  if (e) { printf("plain_tex create-error %d\n", (int)e); cudaGetLastError(); }
  return t;
}

static void gather_sweep(const fmt &f, int ch, int w, int h, int addr, int read, int norm)
{
  cudaArray_t a = plain_array(f, ch, w, h, cudaArrayTextureGather);
  if (!a) { printf("gather array error\n"); return; }
  cudaTextureObject_t t = plain_tex(a, 0, addr, read, norm);
  bool ints = read == 0 && f.kind != cudaChannelFormatKindFloat;
  for (int comp = 0; comp < 4; comp++) {
    char head[200];
    snprintf(head, sizeof(head), "gather %s %d %d %d addr=%s read=%s norm=%d comp=%d",
             f.name, ch, w, h, aname[addr], rname[read], norm, comp);
    int n = 0;
    for (unsigned iy = 0; iy < sizeof(ys) / 4; iy++)
      for (unsigned ix = 0; ix < sizeof(xs) / 4; ix++)
        hc[n++] = make_float4(norm ? xs[ix] / w : xs[ix], norm ? ys[iy] / h : ys[iy], 0, 0);
    cudaMemcpy(dc, hc, n * sizeof(float4), cudaMemcpyHostToDevice);
    if (ints) fetch_gather_int<<<(n + 127) / 128, 128>>>(t, comp, dc, (int4 *)dout, n);
    else fetch_gather<<<(n + 127) / 128, 128>>>(t, comp, dc, dout, n);
    if (!sync_ok(head)) break;
    cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
      char tail[64];
      snprintf(tail, sizeof(tail), "x=%08x y=%08x", bits(hc[i].x), bits(hc[i].y));
      print_out(head, tail, i);
    }
  }
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
}

static void cube_sweep(int w, int layers, int filter, int seamless)
{
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  int faces = 6 * (layers ? layers : 1);
  cudaError_t e = cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, w, faces),
                                    cudaArrayCubemap | (layers ? cudaArrayLayered : 0));
  if (e) { printf("cube alloc error %d\n", (int)e); cudaGetLastError(); return; }
  static float host[1 << 16];
  for (int k = 0; k < w * w * faces; k++) host[k] = texel_id(k);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, w * 4, w, w);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, w, faces);
  p.kind = cudaMemcpyHostToDevice;
  e = cudaMemcpy3D(&p);
  if (e) printf("cube copy error %d\n", (int)e);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.filterMode = (cudaTextureFilterMode)filter;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.seamlessCubemap = seamless;
  cudaTextureObject_t t;
  char head[200];
  snprintf(head, sizeof(head), "cube f32 1 %d layers=%d filter=%s seamless=%d", w, layers, fname[filter], seamless);
  e = cudaCreateTextureObject(&t, &rd, &td, NULL);
  if (e) { printf("%s create-error %d\n", head, (int)e); cudaGetLastError(); cudaFreeArray(a); return; }
  static const float st[] = { -1.0f, -0.95f, -0.5f, 0.0f, 0.3f, 0.875f, 1.0f };
  int n = 0;
  for (int face = 0; face < 6; face++)
    for (unsigned i = 0; i < 7; i++)
      for (unsigned j = 0; j < 7; j++) {
        float m = face & 1 ? -1.0f : 1.0f, v[3];
        v[face / 2] = m * (face == 3 ? 2.5f : 1.0f);
        v[(face / 2 + 1) % 3] = st[i];
        v[(face / 2 + 2) % 3] = st[j];
        hc[n++] = make_float4(v[0], v[1], v[2], layers ? 1.0f : 0.0f);
      }
  hc[n++] = make_float4(1, 1, 1, 0);
  hc[n++] = make_float4(-1, 1, -1, 0);
  hc[n++] = make_float4(0.5f, -0.5f, 0.5f, 0);
  hc[n++] = make_float4(0, 0, 0, 0);
  cudaMemcpy(dc, hc, n * sizeof(float4), cudaMemcpyHostToDevice);
  fetch_cube<<<(n + 127) / 128, 128>>>(t, layers ? 1 : 0, dc, dout, n);
  if (sync_ok(head)) {
    cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
      char tail[80];
      snprintf(tail, sizeof(tail), "x=%08x y=%08x z=%08x layer=%d", bits(hc[i].x), bits(hc[i].y),
               bits(hc[i].z), (int)hc[i].w);
      print_out(head, tail, i);
    }
  }
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
}

static void offs_sweep(int filter, int addr, int norm)
{
  const int w = 5, h = 4;
  cudaArray_t a = plain_array(F32, 1, w, h, 0);
  if (!a) { printf("offs array error\n"); return; }
  cudaTextureObject_t t = plain_tex(a, filter, addr, 0, norm);
  static const int off[][2] = { { 0, 0 }, { 1, 0 }, { -1, 2 }, { 3, -4 }, { 7, 7 }, { -8, -8 }, { 0, 1 } };
  static const float ox[] = { 0.5f, 1.25f, 3.7f, -0.3f }, oy[] = { 0.5f, 2.77f };
  for (unsigned o = 0; o < 7; o++) {
    char head[200];
    snprintf(head, sizeof(head), "offs f32 1 %d %d filter=%s addr=%s norm=%d ox=%d oy=%d",
             w, h, fname[filter], aname[addr], norm, off[o][0], off[o][1]);
    int n = 0;
    for (int j = 0; j < 2; j++)
      for (int i = 0; i < 4; i++)
        hc[n++] = make_float4(norm ? ox[i] / w : ox[i], norm ? oy[j] / h : oy[j], 0, 0);
    cudaMemcpy(dc, hc, n * sizeof(float4), cudaMemcpyHostToDevice);
    fetch_offs<<<1, 128>>>(t, off[o][0], off[o][1], dc, dout, n);
    if (!sync_ok(head)) break;
    cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
      char tail[64];
      snprintf(tail, sizeof(tail), "x=%08x y=%08x", bits(hc[i].x), bits(hc[i].y));
      print_out(head, tail, i);
    }
  }
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
}

// ---- tables and weights (lines: srgbtab, s8tab, w3d, wmip) ----
//
//   srgbtab B -> BITS          sRGB decode of byte B (point sampling)
//   s8tab V -> BITS            an s8 texel V read normalized through the
//                              linear filter, all weight on it
//   w3d K x= y= z= -> BITS     trilinear weight of corner K (bit 0 x, 1 y,
//                              2 z) of a 2x2x2 float texture that is 1 at
//                              K and 0 elsewhere (unnormalized, clamp)
//   wmip K lod= x= y= -> BITS  the same for a 2x2 + 1x1 mipmapped
//                              texture (K 0-3 level 0, 4 level 1),
//                              linear filter and mipmap filter
static void tables()
{
  static unsigned char host[256];
  // every byte once: x * 37 + 11 over 256 bytes is a permutation
  for (int mode = 0; mode < 2; mode++) {
    const fmt &f = mode ? S8 : U8;
    cudaChannelFormatDesc cd = desc_of(f, 4);
    cudaArray_t a;
    if (cudaMallocArray(&a, &cd, 64, 1)) { printf("table array error\n"); cudaGetLastError(); return; }
    for (int k = 0; k < 256; k++) host[k] = texel_byte(k);
    cudaMemcpy2DToArray(a, 0, 0, host, 256, 256, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = mode ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeNormalizedFloat;
    td.sRGB = !mode;
    cudaTextureObject_t t;
    if (cudaCreateTextureObject(&t, &rd, &td, NULL)) { printf("table tex error\n"); cudaGetLastError(); return; }
    for (int i = 0; i < 64; i++) hc[i] = make_float4(i + 0.5f, 0.5f, 0, 0);
    cudaMemcpy(dc, hc, 64 * sizeof(float4), cudaMemcpyHostToDevice);
    fetch<<<1, 64>>>(t, 2, dc, dout, 64);
    if (sync_ok("table")) {
      cudaMemcpy(hout, dout, 64 * sizeof(float4), cudaMemcpyDeviceToHost);
      for (int i = 0; i < 64; i++) {
        float r[4] = { hout[i].x, hout[i].y, hout[i].z, hout[i].w };
        for (int c = 0; c < (mode ? 4 : 3); c++)
          printf("%s %d -> %08x\n", mode ? "s8tab" : "srgbtab",
                 mode ? (int)(signed char)host[i * 4 + c] : host[i * 4 + c], bits(r[c]));
      }
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // trilinear corner weights
  static const float fr[] = { 0.0f, 0.1f, 0.25f, 0.3f, 0.5f, 0.6f, 0.75f, 0.9f, 0.99f };
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  for (int k = 0; k < 8; k++) {
    cudaArray_t a;
    if (cudaMalloc3DArray(&a, &cf, make_cudaExtent(2, 2, 2), 0)) { printf("w3d error\n"); cudaGetLastError(); return; }
    float v[8] = {};
    v[k] = 1.0f;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(v, 8, 2, 2);
    p.dstArray = a;
    p.extent = make_cudaExtent(2, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    for (int i = 0; i < 3; i++) td.addressMode[i] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, NULL);
    int n = 0;
    for (int i = 0; i < 9; i++)
      for (int j = 0; j < 9; j++)
        for (int l = 0; l < 9; l++)
          hc[n++] = make_float4(0.5f + fr[i], 0.5f + fr[j], 0.5f + fr[l], 0);
    cudaMemcpy(dc, hc, n * sizeof(float4), cudaMemcpyHostToDevice);
    fetch<<<(n + 127) / 128, 128>>>(t, 3, dc, dout, n);
    if (sync_ok("w3d")) {
      cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; i++)
        printf("w3d %d x=%08x y=%08x z=%08x -> %08x\n", k, bits(hc[i].x), bits(hc[i].y),
               bits(hc[i].z), bits(hout[i].x));
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // mip-linear weights: level 0 2x2, level 1 1x1
  static const float lods[] = { 0.0f, 0.1f, 0.25f, 0.3f, 0.5f, 0.6f, 0.75f, 0.9f, 0.99f };
  for (int k = 0; k < 5; k++) {
    cudaMipmappedArray_t mm;
    if (cudaMallocMipmappedArray(&mm, &cf, make_cudaExtent(2, 2, 0), 2, 0)) { printf("wmip error\n"); cudaGetLastError(); return; }
    cudaArray_t l0, l1;
    cudaGetMipmappedArrayLevel(&l0, mm, 0);
    cudaGetMipmappedArrayLevel(&l1, mm, 1);
    float v[5] = {};
    v[k] = 1.0f;
    cudaMemcpy2DToArray(l0, 0, 0, v, 8, 8, 2, cudaMemcpyHostToDevice);
    cudaMemcpy2DToArray(l1, 0, 0, v + 4, 4, 4, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = 100;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, NULL);
    int n = 0;
    for (int i = 0; i < 9; i++)
      for (int j = 0; j < 9; j++)
        for (int l = 0; l < 9; l++)
          hq[n++] = { (0.5f + fr[i]) / 2, (0.5f + fr[j]) / 2, lods[l], 0, 0, 0, 0 };
    cudaMemcpy(dc, hq, n * sizeof(mipq), cudaMemcpyHostToDevice);
    fetch_mip<<<(n + 127) / 128, 128>>>(t, 1, (const mipq *)dc, dout, n);
    if (sync_ok("wmip")) {
      cudaMemcpy(hout, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; i++)
        printf("wmip %d lod=%08x x=%08x y=%08x -> %08x\n", k, bits(hq[i].lod), bits(hq[i].x),
               bits(hq[i].y), bits(hout[i].x));
    }
    cudaDestroyTextureObject(t);
    cudaFreeMipmappedArray(mm);
  }
}

// The codes of the mipmapped-array, cubemap, view and array-copy calls.
static void new_errors()
{
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mm = NULL, mm2 = NULL;
  cudaArray_t a = NULL, l = NULL;
  printf("err mipalloc 16x8 levels=0 %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(16, 8, 0), 0, 0)); cudaGetLastError();
  if (mm2) { unsigned lv = 0; cudaArray_t x; for (lv = 0; lv < 40 && !cudaGetMipmappedArrayLevel(&x, mm2, lv); lv++) ; cudaGetLastError();
             printf("err mipalloc levels=0 has %u levels\n", lv); cudaFreeMipmappedArray(mm2); mm2 = NULL; }
  printf("err mipalloc 16x8 levels=6 %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(16, 8, 0), 6, 0)); cudaGetLastError();
  if (mm2) { cudaFreeMipmappedArray(mm2); mm2 = NULL; }
  printf("err mipalloc 16x8 levels=5 %d\n", (int)cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(16, 8, 0), 5, 0)); cudaGetLastError();
  printf("err mipalloc width0 %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(0, 8, 0), 2, 0)); cudaGetLastError();
  printf("err mipalloc NULL desc %d\n", (int)cudaMallocMipmappedArray(&mm2, NULL, make_cudaExtent(16, 8, 0), 2, 0)); cudaGetLastError();
  printf("err mipalloc NULL out %d\n", (int)cudaMallocMipmappedArray(NULL, &cd, make_cudaExtent(16, 8, 0), 2, 0)); cudaGetLastError();
  printf("err mipalloc layered %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(16, 8, 3), 3, cudaArrayLayered)); cudaGetLastError();
  if (mm2) { cudaFreeMipmappedArray(mm2); mm2 = NULL; }
  printf("err mipalloc cube %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(16, 16, 6), 5, cudaArrayCubemap)); cudaGetLastError();
  if (mm2) { cudaFreeMipmappedArray(mm2); mm2 = NULL; }
  printf("err mipalloc 3d %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(16, 8, 4), 5, 0)); cudaGetLastError();
  if (mm2) { cudaFreeMipmappedArray(mm2); mm2 = NULL; }
  printf("err mipalloc 1d %d\n", (int)cudaMallocMipmappedArray(&mm2, &cd, make_cudaExtent(16, 0, 0), 5, 0)); cudaGetLastError();
  if (mm2) { cudaFreeMipmappedArray(mm2); mm2 = NULL; }
  printf("err miplevel 4 %d\n", (int)cudaGetMipmappedArrayLevel(&l, mm, 4)); cudaGetLastError();
  if (l) { cudaExtent ex; cudaChannelFormatDesc g; unsigned fl = 99; cudaArrayGetInfo(&g, &ex, &fl, l);
           printf("err miplevel 4 info %zu %zu %zu flags %u\n", ex.width, ex.height, ex.depth, fl); }
  printf("err miplevel 5 %d\n", (int)cudaGetMipmappedArrayLevel(&l, mm, 5)); cudaGetLastError();
  printf("err miplevel NULL mm %d\n", (int)cudaGetMipmappedArrayLevel(&l, NULL, 0)); cudaGetLastError();
  printf("err miplevel NULL out %d\n", (int)cudaGetMipmappedArrayLevel(NULL, mm, 0)); cudaGetLastError();
  printf("err free level array %d\n", (int)cudaFreeArray(l)); cudaGetLastError();
  printf("err freemip %d\n", (int)cudaFreeMipmappedArray(mm)); cudaGetLastError();
  printf("err freemip twice %d\n", (int)cudaFreeMipmappedArray(mm)); cudaGetLastError();
  printf("err freemip NULL %d\n", (int)cudaFreeMipmappedArray(NULL)); cudaGetLastError();
  printf("err cube w!=h %d\n", (int)cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 4, 6), cudaArrayCubemap)); cudaGetLastError();
  printf("err cube depth 5 %d\n", (int)cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 5), cudaArrayCubemap)); cudaGetLastError();
  printf("err cube layered depth 8 %d\n", (int)cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 8), cudaArrayCubemap | cudaArrayLayered)); cudaGetLastError();
  printf("err cube layered depth 12 %d\n", (int)cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 12), cudaArrayCubemap | cudaArrayLayered)); cudaGetLastError();
  if (!cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 8, 6), cudaArrayCubemap)) {
    cudaExtent ex; cudaChannelFormatDesc g; unsigned fl = 99; cudaArrayGetInfo(&g, &ex, &fl, a);
    printf("err cube info %zu %zu %zu flags %u\n", ex.width, ex.height, ex.depth, fl); cudaFreeArray(a);
  }
  // array to array copies
  cudaArray_t x, y, z3;
  cudaMallocArray(&x, &cd, 8, 8);
  cudaMallocArray(&y, &cd, 8, 8);
  cudaChannelFormatDesc c2 = cudaCreateChannelDesc<short2>();
  cudaArray_t s2; cudaMallocArray(&s2, &c2, 8, 8);
  cudaMalloc3DArray(&z3, &cd, make_cudaExtent(8, 8, 2), 0);
  printf("err a2a ok %d\n", (int)cudaMemcpy2DArrayToArray(y, 0, 0, x, 0, 0, 32, 8)); cudaGetLastError();
  printf("err a2a too wide %d\n", (int)cudaMemcpy2DArrayToArray(y, 4, 0, x, 0, 0, 32, 8)); cudaGetLastError();
  printf("err a2a too high %d\n", (int)cudaMemcpy2DArrayToArray(y, 0, 1, x, 0, 0, 32, 8)); cudaGetLastError();
  printf("err a2a odd bytes %d\n", (int)cudaMemcpy2DArrayToArray(y, 0, 0, x, 0, 0, 6, 8)); cudaGetLastError();
  printf("err a2a odd offset %d\n", (int)cudaMemcpy2DArrayToArray(y, 2, 0, x, 0, 0, 8, 8)); cudaGetLastError();
  printf("err a2a other format %d\n", (int)cudaMemcpy2DArrayToArray(s2, 0, 0, x, 0, 0, 32, 8)); cudaGetLastError();
  printf("err a2a NULL dst %d\n", (int)cudaMemcpy2DArrayToArray(NULL, 0, 0, x, 0, 0, 32, 8)); cudaGetLastError();
  printf("err a2a kind h2d %d\n", (int)cudaMemcpy2DArrayToArray(y, 0, 0, x, 0, 0, 32, 8, cudaMemcpyHostToDevice)); cudaGetLastError();
  printf("err a2a 3d src %d\n", (int)cudaMemcpy2DArrayToArray(y, 0, 0, z3, 0, 0, 32, 8)); cudaGetLastError();
  printf("err a2a zero %d\n", (int)cudaMemcpy2DArrayToArray(y, 0, 0, x, 0, 0, 0, 8)); cudaGetLastError();
  printf("err a2a 1d ok %d\n", (int)cudaMemcpyArrayToArray(y, 4, 1, x, 0, 0, 16)); cudaGetLastError();
  printf("err a2a 1d past end %d\n", (int)cudaMemcpyArrayToArray(y, 4, 7, x, 0, 0, 16)); cudaGetLastError();
  {
    CUDA_MEMCPY2D m = {};
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY; m.srcArray = (CUarray)x;
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY; m.dstArray = (CUarray)y;
    m.WidthInBytes = 32; m.Height = 8;
    printf("err cuMemcpy2D a2a %d\n", (int)cuMemcpy2D(&m));
    printf("err cuMemcpyAtoA %d\n", (int)cuMemcpyAtoA((CUarray)y, 0, (CUarray)x, 0, 32));
    printf("err cuMemcpyAtoA odd %d\n", (int)cuMemcpyAtoA((CUarray)y, 2, (CUarray)x, 0, 32));
  }
  // texture descriptors on mipmapped arrays / views
  cudaMipmappedArray_t m2;
  cudaMallocMipmappedArray(&m2, &cd, make_cudaExtent(16, 16, 0), 5, 0);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m2;
  cudaTextureDesc td = {}; td.normalizedCoords = 1; td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t t = 0;
  td.maxAnisotropy = 17;
  printf("err tex aniso 17 %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
  if (t) { cudaTextureDesc g; cudaGetTextureObjectTextureDesc(&g, t); printf("err tex aniso 17 reads %u\n", g.maxAnisotropy); cudaDestroyTextureObject(t); t = 0; }
  td.maxAnisotropy = 0; td.minMipmapLevelClamp = 3; td.maxMipmapLevelClamp = 1;
  printf("err tex min>max lod %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  td.minMipmapLevelClamp = 0; td.maxMipmapLevelClamp = 0; td.normalizedCoords = 0;
  printf("err tex mip unnormalized %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  td.normalizedCoords = 1;
  cudaResourceViewDesc vd = {};
  vd.format = cudaResViewFormatFloat1; vd.width = 8; vd.height = 8; vd.firstMipmapLevel = 1; vd.lastMipmapLevel = 3;
  printf("err view level 1..3 %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, &vd)); cudaGetLastError();
  if (t) { cudaResourceViewDesc g = {}; cudaGetTextureObjectResourceViewDesc(&g, t);
           printf("err view reads fmt %d %zu %zu first %u last %u\n", (int)g.format, g.width, g.height, g.firstMipmapLevel, g.lastMipmapLevel);
           cudaDestroyTextureObject(t); t = 0; }
  vd.width = 16; vd.height = 16;
  printf("err view level 1 size 16 %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, &vd)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  vd.width = 8; vd.height = 8; vd.lastMipmapLevel = 9;
  printf("err view last 9 %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, &vd)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  vd.lastMipmapLevel = 3; vd.format = cudaResViewFormatUnsignedChar4;
  printf("err view other format %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, &vd)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  vd.format = cudaResViewFormatFloat1; vd.firstMipmapLevel = 3; vd.lastMipmapLevel = 1; vd.width = 2; vd.height = 2;
  printf("err view first>last %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, &vd)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  rd.resType = cudaResourceTypeArray; rd.res.array.array = x;
  vd = {}; vd.format = cudaResViewFormatFloat1; vd.width = 8; vd.height = 8;
  printf("err view on array %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, &vd)); cudaGetLastError();
  if (t) { cudaDestroyTextureObject(t); t = 0; }
  rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m2;
  cudaSurfaceObject_t s = 0;
  printf("err surface on mipmapped %d\n", (int)cudaCreateSurfaceObject(&s, &rd)); cudaGetLastError();
  cudaFreeMipmappedArray(m2);
  rd.res.mipmap.mipmap = m2;
  printf("err tex on freed mipmapped %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL)); cudaGetLastError();
  cudaFreeArray(x); cudaFreeArray(y); cudaFreeArray(s2); cudaFreeArray(z3);
  // driver API
  CUmipmappedArray cm = NULL;
  CUDA_ARRAY3D_DESCRIPTOR ad = {}; ad.Width = 16; ad.Height = 8; ad.Format = CU_AD_FORMAT_FLOAT; ad.NumChannels = 1;
  printf("err cuMipmappedArrayCreate %d\n", (int)cuMipmappedArrayCreate(&cm, &ad, 5));
  CUarray ca = NULL;
  printf("err cuMipmappedArrayGetLevel 5 %d\n", (int)cuMipmappedArrayGetLevel(&ca, cm, 5));
  printf("err cuMipmappedArrayGetLevel 2 %d\n", (int)cuMipmappedArrayGetLevel(&ca, cm, 2));
  printf("err cuArrayDestroy level %d\n", (int)cuArrayDestroy(ca));
  printf("err cuMipmappedArrayCreate levels 6 %d\n", (int)cuMipmappedArrayCreate(&cm, &ad, 6));
  printf("err cuMipmappedArrayDestroy %d\n", (int)cuMipmappedArrayDestroy(cm));
  printf("err cuMipmappedArrayDestroy twice %d\n", (int)cuMipmappedArrayDestroy(cm));
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
  // mipmaps: LOD and gradients, filters, bias and clamps, anisotropy
  mip_sweep(F32, 1, 16, 8, 5, 0, 0, 0, 0, 100, 0);
  mip_sweep(F32, 1, 16, 8, 5, 0, 1, 0, 0, 100, 0);
  mip_sweep(F32, 1, 16, 8, 5, 1, 0, 0, 0, 100, 0);
  mip_sweep(F32, 1, 16, 8, 5, 1, 1, 0, 0, 100, 0);
  mip_sweep(F32, 1, 16, 8, 5, 1, 1, 0.5f, 0.75f, 2.5f, 0);
  mip_sweep(F32, 1, 16, 8, 5, 1, 1, -0.25f, 0, 100, 4);
  mip_sweep(F32, 1, 16, 8, 5, 1, 1, 0, 0, 100, 16);
  mip_sweep(U8, 4, 16, 8, 5, 1, 1, 0, 0, 100, 0);
  // gather
  gather_sweep(F32, 4, 5, 4, 1, 0, 0);
  gather_sweep(F32, 1, 5, 4, 0, 0, 1);
  gather_sweep(U8, 4, 5, 4, 3, 1, 0);
  gather_sweep(S16, 2, 5, 4, 2, 0, 1);
  // cubemaps
  cube_sweep(4, 0, 0, 0);
  cube_sweep(4, 0, 1, 0);
  cube_sweep(4, 0, 1, 1);
  cube_sweep(4, 2, 1, 1);
  // texel offsets
  offs_sweep(0, 1, 0);
  offs_sweep(1, 1, 0);
  offs_sweep(1, 0, 1);
  offs_sweep(0, 3, 0);
  tables();
  new_errors();
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
