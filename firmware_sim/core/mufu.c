// SPDX-License-Identifier: GPL-2.0
/*
 * mufu.c - the .approx functions as an H100 computes them, as far as the
 * recordings of tools/cuda-probe/probe_mufu.cu pin them down.
 *
 * sin and cos follow the hardware's data path (derived from the recorded
 * values; see Documentation/execution-core.rst):
 *
 *   x --FMUL.RZ by 1/(2 pi) (f32 0x3e22f983)--> t, in turns
 *     --|t| to fixed point, truncated: 2 quadrant bits . 23 bits--> q, F
 *     --odd quadrant: F = 2^23 - F (the other half of the arch)--
 *     --sin(pi/2 * F / 2^23), truncated toward zero--> magnitude
 *     --sign: quadrant bit 1, xor the sign of x for sin-->
 *
 * cos is the same with one quadrant added.  So large arguments keep only
 * the bits of t that an f32 holds (sin of x >= 2^26 / (2 pi)-ish is 0), and
 * small results are multiples of sin(pi/2 * 2^-23): the hardware's absolute
 * error.  The magnitude itself comes from the hardware's table and quadratic
 * interpolation, which libm here approximates (a few ulps off in places).
 *
 * ex2, lg2, rcp, rsqrt, sqrt and tanh are still computed in double and
 * rounded once: within 1 ulp of the H100 for rcp, rsqrt, sqrt and ex2, not
 * for lg2 and tanh (tools/cuda-probe/README.md has the figures).
 */
#include <math.h>
#include <string.h>

#include "fp_formats.h"
#include "mufu.h"
#include "visa_types.h"

static float bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* (float)r rounded toward zero, whatever the thread's rounding mode */
static float round_to_zero(double r)
{
	float y = (float)r;

	if (fabs((double)y) > fabs(r))
		y = nextafterf(y, 0.0f);
	return y;
}

#define TURN_FRAC_BITS	25	/* 2 quadrant bits + 23 */
#define QUARTER_BITS	23

static uint32_t sincos_f32(uint32_t x, bool cos_fn)
{
	float a = bits_f32(x), t, mag;
	double turns;
	uint32_t fixed, quadrant, frac;
	bool neg;

	if (isnan(a) || isinf(a))
		return CANON_NAN_F32;
	/* ptxas: FMUL.RZ by 1/(2 pi); the f32 product is exact in double */
	t = round_to_zero((double)fabsf(a) * (double)0.15915494f);
	turns = floor(ldexp((double)t, TURN_FRAC_BITS));
	fixed = (uint32_t)fmod(turns, (double)(1u << TURN_FRAC_BITS));
	quadrant = (fixed >> QUARTER_BITS) + (cos_fn ? 1 : 0);
	frac = fixed & ((1u << QUARTER_BITS) - 1);
	if (quadrant & 1)
		frac = (1u << QUARTER_BITS) - frac;
	mag = round_to_zero(sin(M_PI / 2 * ldexp((double)frac, -QUARTER_BITS)));
	neg = (quadrant >> 1) & 1;
	if (!cos_fn && signbit(a))
		neg = !neg;
	return f32_bits(neg ? -mag : mag);
}

/* the other functions: double precision, rounded once */
static float libm_f32(unsigned int op, float a)
{
	double x = a;

	switch (op) {
	case VISA_OP_RSQRT: return (float)(1.0 / sqrt(x));
	case VISA_OP_LG2: return (float)log2(x);
	case VISA_OP_EX2: return (float)exp2(x);
	case VISA_OP_TANH: return (float)tanh(x);
	case VISA_OP_RCP: return (float)(1.0 / x);
	case VISA_OP_SQRT: return (float)sqrt(x);
	}
	return NAN;
}

uint32_t mufu_f32(unsigned int op, uint32_t x, bool ftz)
{
	float a = bits_f32(x), r;

	if (ftz)
		a = ftz32(a);
	if (op == VISA_OP_SIN || op == VISA_OP_COS)
		return sincos_f32(f32_bits(a), op == VISA_OP_COS);
	r = libm_f32(op, a);
	if (ftz)
		r = ftz32(r);
	return r != r ? CANON_NAN_F32 : f32_bits(r);
}
