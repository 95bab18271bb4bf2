/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptx_types.h - PTX's fundamental types and state spaces: the one list.
 *
 * X(NAME, "spelling", bytes, class) makes PT_NAME of enum ptx_type, its
 * size and class (types.c) and, because a type is also an instruction
 * modifier (add.u32), MOD_NAME of enum ptx_mod; the spelling serves the
 * declarations (.reg .u32) and the instructions alike.  The order is the
 * order of enum ptx_type after PT_NONE.
 */
#ifndef VGPU_PTX_TYPES_H
#define VGPU_PTX_TYPES_H

#define PTX_TYPES(X) \
	X(PRED, "pred", 1, TC_PRED) \
	X(B8, "b8", 1, TC_BITS) \
	X(B16, "b16", 2, TC_BITS) \
	X(B32, "b32", 4, TC_BITS) \
	X(B64, "b64", 8, TC_BITS) \
	X(B128, "b128", 16, TC_BITS) \
	X(U8, "u8", 1, TC_UINT) \
	X(U16, "u16", 2, TC_UINT) \
	X(U32, "u32", 4, TC_UINT) \
	X(U64, "u64", 8, TC_UINT) \
	X(S8, "s8", 1, TC_SINT) \
	X(S16, "s16", 2, TC_SINT) \
	X(S32, "s32", 4, TC_SINT) \
	X(S64, "s64", 8, TC_SINT) \
	X(F16, "f16", 2, TC_FLOAT) \
	X(F16X2, "f16x2", 4, TC_FLOAT) \
	X(BF16, "bf16", 2, TC_FLOAT) \
	X(BF16X2, "bf16x2", 4, TC_FLOAT) \
	X(F32, "f32", 4, TC_FLOAT) \
	X(F64, "f64", 8, TC_FLOAT)

/*
 * X(NAME, "spelling") makes PS_NAME of enum ptx_space and MOD_NAME (ld.global).
 * Sub-spaces (.shared::cta, .param::entry) are in ptx_mods.h.
 */
#define PTX_SPACES(X) \
	X(REG, "reg") \
	X(SREG, "sreg") \
	X(CONST, "const") \
	X(GLOBAL, "global") \
	X(LOCAL, "local") \
	X(PARAM, "param") \
	X(SHARED, "shared") \
	X(GENERIC, "generic")

#endif /* VGPU_PTX_TYPES_H */
