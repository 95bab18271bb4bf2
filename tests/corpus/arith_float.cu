// SPDX-License-Identifier: GPL-2.0
// Floating-point arithmetic with IEEE rounding: results must be bit-exact
// against the CPU reference (tests/test_corpus.c), which computes the same
// operations with fesetround() for the directed roundings.
#include <cuda_fp16.h>

#define NF 28

extern "C" __global__ void float_ops(const float *a, const float *b,
				     unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = a[i], y = b[i];
	double dx = x, dy = y;
	unsigned *o = out + i * NF;

	o[0] = __float_as_uint(x + y);
	o[1] = __float_as_uint(x - y);
	o[2] = __float_as_uint(x * y);
	o[3] = __float_as_uint(x / y);
	o[4] = __float_as_uint(fmaf(x, y, 1.5f));
	o[5] = __float_as_uint(sqrtf(fabsf(x)));
	o[6] = __float_as_uint(fminf(x, y));
	o[7] = __float_as_uint(fmaxf(x, y));
	o[8] = __float_as_uint(floorf(x));
	o[9] = __float_as_uint(ceilf(y));
	o[10] = __float_as_uint(truncf(x));
	o[11] = __float_as_uint(rintf(y));
	o[12] = (unsigned)(int)x;
	o[13] = __float_as_uint((float)(int)y);
	o[14] = __float_as_uint(__fadd_rz(x, y));
	o[15] = __float_as_uint(__fmul_ru(x, y));
	o[16] = __float_as_uint(__fdiv_rd(x, y));
	o[17] = __float_as_uint(__fsqrt_ru(fabsf(y)));
	o[18] = __float_as_uint(__fmaf_rz(x, y, -x));
	o[19] = __float_as_uint((float)(dx * dy + 0.25));
	o[20] = __float_as_uint((float)(dx / 3.0));
	o[21] = __float_as_uint((float)sqrt(fabs(dx * dy)));
	o[22] = (unsigned)(long long)(dx * 1e6);
	o[23] = __half_as_ushort(__float2half(x));
	o[24] = __half_as_ushort(__hadd(__float2half(x), __float2half(y)));
	o[25] = __float_as_uint(__half2float(__hmul(__float2half(x),
						    __float2half(y))));
	o[26] = __float_as_uint(copysignf(x, y));
	o[27] = x < y ? 1u : (x == y ? 2u : (x > y ? 3u : 4u));
}
