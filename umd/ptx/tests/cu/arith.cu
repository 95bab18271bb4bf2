// Integer, bit-manipulation, floating-point and conversion instructions:
// every kernel here must compile; the instruction mix is what nvcc emits
// for these intrinsics.
#include <cuda_fp16.h>
#include <cstdint>

__global__ void int_ops(int *o, const int *a, const unsigned *u, long long *l)
{
	int i = threadIdx.x;
	int x = a[i], y = a[i + 1];
	unsigned p = u[i], q = u[i + 1];
	long long z = l[i];

	o[0] = x / y + x % y + (p / q) + (p % q);
	o[1] = __mulhi(x, y) + __umulhi(p, q) + __mul24(x, y) + __umul24(p, q);
	o[2] = __popc(p) + __clz(x) + __ffs(x) + __brev(p) + __popcll(z) + __clzll(z);
	o[3] = __byte_perm(p, q, 0x5140) + __funnelshift_l(p, q, x) + __funnelshift_r(p, q, y);
	o[4] = __sad(x, y, p) + __usad(p, q, 3) + __dp4a(x, y, 5) + __dp2a_lo(x, y, 1);
	o[5] = (p >> 3) ^ (x >> 5) ^ (p << (q & 31)) ^ ~p;
	o[6] = min(x, y) + max(p, q) + abs(x) + (int)llabs(z);
	o[7] = (int)(z * l[i + 1] / (l[i + 2] | 1)) + (int)(__mul64hi(z, z) >> 3) +
	       (int)(__umul64hi((unsigned long long)z, 7ull));
	o[8] = __fns(p, 3, 2) + (int)__brevll((unsigned long long)z);
	o[9] = __hadd(x, y) + __rhadd(x, y) + __uhadd(p, q);
	unsigned long long c = (unsigned long long)z + (unsigned long long)l[i + 3];
	o[10] = (int)(c >> 32) + (int)(c < (unsigned long long)z);
}

__global__ void float_ops(float *o, const float *a, double *d, const double *e)
{
	int i = threadIdx.x;
	float x = a[i], y = a[i + 1];
	double u = e[i], v = e[i + 1];

	o[0] = __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_rd(x, y) + __fadd_ru(x, y);
	o[1] = __fmul_rn(x, y) + __fmaf_rn(x, y, 1.f) + __fdiv_rn(x, y) + x / y;
	o[2] = sqrtf(x) + __fsqrt_rn(y) + rsqrtf(x) + __frcp_rn(y) + __fdividef(x, y);
	o[3] = __sinf(x) + __cosf(y) + __expf(x) + __logf(y) + exp2f(x) + log2f(y);
	o[4] = fminf(x, y) + fmaxf(x, y) + fabsf(x) + copysignf(x, y) + __saturatef(x);
	o[5] = floorf(x) + ceilf(y) + truncf(x) + rintf(y) + roundf(x);
	o[6] = tanhf(x) + sinf(y) + powf(x, y);
	o[7] = isnan(x) + isinf(y) + isfinite(x) + signbit(y);
	d[0] = __dadd_rn(u, v) + __dadd_rz(u, v) + __dmul_rd(u, v) + __dmul_ru(u, v);
	d[1] = __fma_rn(u, v, 1.0) + u / v + __ddiv_rz(u, v) + sqrt(u) + __dsqrt_ru(v);
	d[2] = __drcp_rn(u) + fmin(u, v) + fmax(u, v) + fabs(u) + floor(v) + rint(u);
	d[3] = exp(u) + log(v) + sin(u) + rsqrt(v);
	o[8] = (float)u + __double2float_rz(v) + __int2float_rd(i) + __uint2float_ru(i);
	o[9] = (float)(__float2int_rn(x) + __float2int_rz(y) + __float2uint_rd(x) +
		       __float2uint_ru(y) + __float2ll_rn(x) + __double2int_rn(u) +
		       (long long)v + (unsigned long long)u);
	o[10] = (float)(char)i + (float)(short)i + (float)(unsigned char)i + (float)(long long)i;
	d[4] = (double)x + (double)i + (double)(unsigned)i + __ll2double_rz(i) + __ull2double_ru(i);
	o[11] = __int_as_float(__float_as_int(x) ^ 1) + (float)__double_as_longlong(u);
	o[12] = __half2float(__float2half(x)) + __half2float(__float2half_rz(y));
	__half2 h = __floats2half2_rn(x, y);
	__half2 g = __hfma2(h, h, h);
	g = __hmul2(g, __hadd2(h, g));
	o[13] = __low2float(g) + __high2float(__hsub2(g, h));
	__half hx = __float2half(x);
	o[14] = __half2float(__hfma(hx, hx, __hneg(hx))) + (float)__hlt(hx, __float2half(y));
	o[15] = __int_as_float(__float2int_rn(x) < 0 ? 1 : 2) + __ll2float_rn(i) +
		(float)__float2half_rn(y);
}

__global__ void compare_ops(int *o, const float *a, const int *b)
{
	int i = threadIdx.x;
	float x = a[i], y = a[i + 1];
	int p = b[i], q = b[i + 1];

	o[0] = (x < y) + (x <= y) + (x > y) + (x >= y) + (x == y) + (x != y);
	o[1] = !(x < y) + !(x >= y) + (p < q && x < y) + (p == q || x != y);
	o[2] = (unsigned)p < (unsigned)q ? p : q;
	o[3] = x != x ? 7 : 9;
	o[4] = (p > 0) ^ (q > 0);
}
