/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fp_formats.h - bit-level helpers for the floating-point formats of the
 * vGPU: f16, bf16, f32, f64, canonical NaNs, flush-to-zero, and correctly
 * rounded narrowing from double in any of the four rounding modes.
 */
#ifndef VGPU_CORE_FP_FORMATS_H
#define VGPU_CORE_FP_FORMATS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The NaN an NVIDIA GPU produces for an invalid operation. */
#define CANON_NAN_F32	0x7fffffffu
#define CANON_NAN_F16	0x7fffu
#define CANON_NAN_BF16	0x7fffu

static inline float f32_of(uint64_t bits)
{
	uint32_t u = (uint32_t)bits;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* float -> its bits (f32_of() is the other way) */
static inline uint32_t f32_to_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline double f64_of(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static inline uint64_t f64_to_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

/* Result bits of an f32 operation: NaNs become the canonical NaN. */
static inline uint64_t res_f32(float f)
{
	return f != f ? CANON_NAN_F32 : f32_to_bits(f);
}

/*
 * f64 NaNs are not canonicalised by the GPU: a NaN operand comes back
 * quieted (sign and payload kept) and an invalid operation gives the
 * same default NaN as x86 (0xfff8...).  See nan_f64().
 */
static inline uint64_t res_f64(double d)
{
	return f64_to_bits(d);
}

/* The NaN an f64 operation with NaN operands returns: the first NaN
 * operand, quieted (as recorded on an H100). */
static inline uint64_t quiet_f64(uint64_t bits)
{
	return bits | 0x0008000000000000ull;
}

/* .ftz: subnormal f32 values become zero of the same sign. */
static inline float ftz32(float f)
{
	uint32_t u = f32_to_bits(f);

	if (!(u & 0x7f800000u) && (u & 0x007fffffu))
		return f32_of(u & 0x80000000u);
	return f;
}

/* Rounding modes for narrowing (match enum visa_rnd's RN..RP order). */
enum { RND_N = 0, RND_Z = 1, RND_M = 2, RND_P = 3 };

uint32_t fp_narrow(double x, int ebits, int mbits, int rnd, uint32_t nan);
double fp_widen(uint32_t bits, int ebits, int mbits);

static inline uint16_t f16_from_double(double x, int rnd)
{
	return (uint16_t)fp_narrow(x, 5, 10, rnd, CANON_NAN_F16);
}

static inline double f16_to_double(uint16_t h)
{
	return fp_widen(h, 5, 10);
}

static inline uint16_t bf16_from_double(double x, int rnd)
{
	return (uint16_t)fp_narrow(x, 8, 7, rnd, CANON_NAN_BF16);
}

static inline double bf16_to_double(uint16_t h)
{
	return fp_widen(h, 8, 7);
}

static inline float f32_from_double(double x, int rnd)
{
	return f32_of(fp_narrow(x, 8, 23, rnd, CANON_NAN_F32));
}

#endif /* VGPU_CORE_FP_FORMATS_H */
