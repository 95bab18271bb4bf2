// SPDX-License-Identifier: GPL-2.0
/*
 * fp_formats.c - correctly rounded conversion between double and the
 * narrower binary formats (f32, f16, bf16).
 *
 * Any value of those formats is exactly representable as a double, so
 * widening is exact and one rounding step from double is exact rounding
 * of the double.  Narrowing scales the magnitude by a power of two so that
 * the target's last mantissa bit has weight 1, splits integer and fraction
 * (both exact in double), and rounds the integer by the fraction.
 */
#include "fp_formats.h"

uint32_t fp_narrow(double x, int ebits, int mbits, int rnd, uint32_t nan)
{
	int bias = (1 << (ebits - 1)) - 1;
	int emin = 1 - bias;
	uint32_t sign = signbit(x) ? 1u << (ebits + mbits) : 0;
	uint32_t inf = ((1u << ebits) - 1) << mbits;
	uint32_t maxf = inf - 1;
	double ax = fabs(x), q, n, frac;
	int e;
	bool neg = sign != 0;

	if (isnan(x))
		return nan;
	if (isinf(x))
		return sign | inf;
	if (ax == 0)
		return sign;
	frexp(ax, &e);
	e -= 1;			/* ax = 1.xxx * 2^e */
	if (e < emin)
		e = emin;	/* subnormal range: fixed quantum */
	q = ldexp(ax, mbits - e);	/* last mantissa bit has weight 1 */
	n = floor(q);
	frac = q - n;
	switch (rnd) {
	case RND_N:
		if (frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0))
			n += 1;
		break;
	case RND_Z:
		break;
	case RND_M:
		if (frac > 0 && neg)
			n += 1;
		break;
	case RND_P:
		if (frac > 0 && !neg)
			n += 1;
		break;
	}
	if (n >= ldexp(1.0, mbits + 1)) {	/* rounded up to next binade */
		n = ldexp(1.0, mbits);
		e += 1;
	}
	if (e > bias) {		/* overflow: infinity or the largest finite */
		bool to_inf = rnd == RND_N || (rnd == RND_M && neg) ||
			      (rnd == RND_P && !neg);

		return sign | (to_inf ? inf : maxf);
	}
	if (n < ldexp(1.0, mbits))	/* subnormal (or zero) */
		return sign | (uint32_t)n;
	return sign | ((uint32_t)(e + bias) << mbits) |
	       ((uint32_t)n - (1u << mbits));
}

double fp_widen(uint32_t bits, int ebits, int mbits)
{
	int bias = (1 << (ebits - 1)) - 1;
	uint32_t exp = (bits >> mbits) & ((1u << ebits) - 1);
	uint32_t man = bits & ((1u << mbits) - 1);
	bool neg = (bits >> (ebits + mbits)) & 1;
	double v;

	if (exp == (1u << ebits) - 1)
		v = man ? NAN : INFINITY;
	else if (!exp)
		v = ldexp((double)man, 1 - bias - mbits);
	else
		v = ldexp((double)(man | (1u << mbits)), (int)exp - bias - mbits);
	return neg ? -v : v;
}
