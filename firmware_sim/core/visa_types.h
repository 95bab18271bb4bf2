/* SPDX-License-Identifier: GPL-2.0 */
/*
 * visa_types.h - facts about vISA operation types shared by the executors:
 * widths, signedness, and how a result is extended into a 64-bit register.
 */
#ifndef VGPU_CORE_VISA_TYPES_H
#define VGPU_CORE_VISA_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "vgpu_visa.h"

/* Bits of a scalar of type @t (f16x2/bf16x2 count as 32). */
static inline unsigned int type_bits(unsigned int t)
{
	switch (t) {
	case VISA_T_U8: case VISA_T_S8: case VISA_T_B8:
		return 8;
	case VISA_T_U16: case VISA_T_S16: case VISA_T_B16: case VISA_T_F16:
	case VISA_T_BF16:
		return 16;
	case VISA_T_U64: case VISA_T_S64: case VISA_T_B64: case VISA_T_F64:
		return 64;
	}
	return 32;
}

static inline bool type_signed(unsigned int t)
{
	return t == VISA_T_S8 || t == VISA_T_S16 || t == VISA_T_S32 ||
	       t == VISA_T_S64;
}

static inline bool type_is_int(unsigned int t)
{
	return t >= VISA_T_U8 && t <= VISA_T_B64;
}

/* The register value of a result of type @t: the low bits of @v,
 * sign-extended for signed types, zero-extended otherwise. */
static inline uint64_t extend_to_reg(unsigned int t, uint64_t v)
{
	unsigned int bits = type_bits(t);

	if (bits == 64)
		return v;
	v &= (1ull << bits) - 1;
	if (type_signed(t) && (v >> (bits - 1)))
		v |= ~0ull << bits;
	return v;
}

#endif /* VGPU_CORE_VISA_TYPES_H */
