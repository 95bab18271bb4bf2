// SPDX-License-Identifier: GPL-2.0
// Integer arithmetic of every width: each thread computes NOPS results
// from a[i], b[i] (b[i] != 0 for the divisions); the CPU reference in
// tests/test_corpus.c computes the same expressions.
#define NOPS 32

extern "C" __global__ void int_ops(const int *a, const int *b,
				   long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = a[i], y = b[i];
	unsigned ux = (unsigned)x, uy = (unsigned)y;
	long long lx = (long long)x * 0x10001, ly = y;
	unsigned long long ulx = (unsigned long long)lx, uly = (unsigned long long)ly;
	short sx = (short)x;
	signed char cx = (signed char)y;
	long long *o = out + (long long)i * NOPS;

	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = x / y;
	o[4] = x % y;
	o[5] = ux / uy;
	o[6] = ux % uy;
	o[7] = x << (y & 31);
	o[8] = x >> (y & 31);
	o[9] = ux >> (y & 31);
	o[10] = x & y;
	o[11] = x | y;
	o[12] = x ^ ~y;
	o[13] = min(x, y);
	o[14] = max(ux, uy);
	o[15] = abs(x);
	o[16] = __popc(ux);
	o[17] = __clz(x);
	o[18] = __brev(ux);
	o[19] = __ffs(x);
	o[20] = __mulhi(x, y);
	o[21] = __umulhi(ux, uy);
	o[22] = lx * ly;
	o[23] = lx / ly;
	o[24] = (long long)(ulx % uly);
	o[25] = lx >> (y & 63);
	o[26] = sx * 3 + cx;
	o[27] = (unsigned short)x + (unsigned char)y;
	o[28] = __mul64hi(lx, ly);
	o[29] = __popcll(ulx) + __clzll(lx);
	o[30] = x > y ? x - y : y * 2;
	o[31] = __sad(x, y, 7u);
}
