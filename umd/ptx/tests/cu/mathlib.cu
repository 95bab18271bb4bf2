// Math-library, half/bfloat16, cooperative-groups and 64-bit integer code:
// large PTX with the instruction mix of real programs (compile-only).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void fmath(float *o, const float *a) {
  float x = a[threadIdx.x];
  o[0] = erff(x) + erfcf(x) + lgammaf(x) + tgammaf(x) + cbrtf(x) + hypotf(x, 2.f) + atan2f(x, 1.f);
  o[1] = asinf(x) + acosf(x) + atanf(x) + sinhf(x) + coshf(x) + asinhf(x) + acoshf(x) + atanhf(x);
  o[2] = expm1f(x) + log1pf(x) + log10f(x) + exp10f(x) + fmodf(x, 3.f) + remainderf(x, 2.f) + ldexpf(x, 3);
  int e; o[3] = frexpf(x, &e) + e + logbf(x) + ilogbf(x) + nextafterf(x, 1.f) + fdimf(x, 1.f) + scalbnf(x, 2);
  float s, c; sincosf(x, &s, &c); o[4] = s + c + sinpif(x) + cospif(x) + normcdff(x) + erfinvf(x) + rnormf(2, a);
  o[5] = j0f(x) + y1f(x) + rhypotf(x, 1.f) + norm3df(x, x, x) + fmaf(x, x, x);
}
__global__ void dmath(double *o, const double *a) {
  double x = a[threadIdx.x];
  o[0] = erf(x) + lgamma(x) + tgamma(x) + cbrt(x) + hypot(x, 2.) + atan2(x, 1.) + pow(x, 2.5);
  o[1] = asin(x) + acos(x) + atan(x) + sinh(x) + cosh(x) + tanh(x) + exp(x) + log(x);
  o[2] = fmod(x, 3.) + remainder(x, 2.) + sin(x) + cos(x) + tan(x) + sqrt(x) + rsqrt(x) + rcbrt(x);
  o[3] = __dadd_rz(x, 1.0) + __dmul_rn(x, x) + __drcp_ru(x) + __dsqrt_rd(x) + __fma_rz(x, x, x) + __ddiv_ru(x, 3.0);
  o[4] = (double)__double2ull_rz(x) + __ll2double_rn((long long)x) + (double)__float2half_rn((float)x);
}
__global__ void hmath(__half *o, const __half *a, __nv_bfloat16 *bo, const __nv_bfloat16 *ba) {
  __half x = a[threadIdx.x];
  __half2 h2 = __halves2half2(x, x);
  o[0] = __hadd(x, x) * __hmul(x, x) / x - hsqrt(x) + hexp(x) + hlog(x) + hsin(x) + hcos(x);
  h2 = h2 * h2 + h2; h2 = __hmax2(h2, h2); h2 = h2rcp(h2);
  o[1] = __low2half(h2) + __high2half(h2) + __hmin(x, x) + __habs(x) + __hneg(x);
  o[2] = __hgt(x, x) ? x : __float2half(1.f);
  __nv_bfloat16 b = ba[threadIdx.x];
  bo[0] = __hadd(b, b) * b + __float2bfloat16(__bfloat162float(b) * 2.f);
  bo[1] = __hmul(b, b);
  o[3] = __ushort_as_half(__half_as_ushort(x) ^ 1) + __int2half_rn(threadIdx.x) + __uint2half_rz(3);
  o[4] = __short2half_rn((short)threadIdx.x);
  atomicAdd(&o[5], x);
  atomicAdd((__half2*)&o[6], h2);
}
__global__ void coop(int *o, const int *a) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  int v = a[b.thread_rank()];
  int s = cg::reduce(w, v, cg::plus<int>());
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
  int m = cg::reduce(t8, v, cg::greater<int>());
  auto g = cg::coalesced_threads();
  o[b.thread_rank()] = s + m + g.size() + w.shfl(v, 3) + t8.any(v > 3) + w.ballot(v & 1);
  b.sync();
}
__global__ void ints(long long *o, const long long *a, const unsigned long long *u) {
  long long x = a[threadIdx.x]; unsigned long long y = u[threadIdx.x];
  o[0] = x / 7 + x % 13 + (long long)(y / 11) + (long long)(y % 17) + __ffsll(x) + __popcll(y) + __clzll(x);
  o[1] = __mul64hi(x, x) + __umul64hi(y, y) + (x >> 3) + (y >> 5) + llmin(x, 3) + llmax(x, 3) + ullmin(y, 5) + __brevll(y);
  o[2] = __vcmpeq2(x, y) + __vmaxs2(x, y);
  o[3] = __float2ll_rz(a[0]) + __double2ll_ru(a[1]) + (long long)__ll2float_rd(x) + __ull2float_ru(y);
}
