// SPDX-License-Identifier: GPL-2.0
/*
 * types.c - PTX fundamental types and state spaces by name.
 */
#include <string.h>

#include "ptx_internal.h"

static const struct {
	const char *name;
	unsigned char size;
	unsigned char tclass;
} type_info[] = {
	[PT_NONE] = { "?", 0, TC_BITS },
	[PT_PRED] = { "pred", 1, TC_PRED },
	[PT_B8] = { "b8", 1, TC_BITS },   [PT_B16] = { "b16", 2, TC_BITS },
	[PT_B32] = { "b32", 4, TC_BITS }, [PT_B64] = { "b64", 8, TC_BITS },
	[PT_B128] = { "b128", 16, TC_BITS },
	[PT_U8] = { "u8", 1, TC_UINT },   [PT_U16] = { "u16", 2, TC_UINT },
	[PT_U32] = { "u32", 4, TC_UINT }, [PT_U64] = { "u64", 8, TC_UINT },
	[PT_S8] = { "s8", 1, TC_SINT },   [PT_S16] = { "s16", 2, TC_SINT },
	[PT_S32] = { "s32", 4, TC_SINT }, [PT_S64] = { "s64", 8, TC_SINT },
	[PT_F16] = { "f16", 2, TC_FLOAT },
	[PT_F16X2] = { "f16x2", 4, TC_FLOAT },
	[PT_BF16] = { "bf16", 2, TC_FLOAT },
	[PT_BF16X2] = { "bf16x2", 4, TC_FLOAT },
	[PT_F32] = { "f32", 4, TC_FLOAT }, [PT_F64] = { "f64", 8, TC_FLOAT },
};

unsigned int ptx_type_size(enum ptx_type t)
{
	return type_info[t].size;
}

enum ptx_tclass ptx_type_class(enum ptx_type t)
{
	return type_info[t].tclass;
}

const char *ptx_type_name(enum ptx_type t)
{
	return type_info[t].name;
}

enum ptx_type ptx_type_from_name(const char *s)
{
	unsigned int t;

	for (t = PT_PRED; t < sizeof(type_info) / sizeof(type_info[0]); t++)
		if (!strcmp(type_info[t].name, s))
			return t;
	return PT_NONE;
}

static const char *const space_names[] = {
	[PS_NONE] = "?", [PS_REG] = "reg", [PS_SREG] = "sreg",
	[PS_CONST] = "const", [PS_GLOBAL] = "global", [PS_LOCAL] = "local",
	[PS_PARAM] = "param", [PS_SHARED] = "shared", [PS_GENERIC] = "generic",
};

enum ptx_space ptx_space_from_name(const char *s)
{
	unsigned int i;

	for (i = PS_REG; i < sizeof(space_names) / sizeof(space_names[0]); i++)
		if (!strcmp(space_names[i], s))
			return i;
	return PS_NONE;
}

const char *ptx_space_name(enum ptx_space s)
{
	return space_names[s];
}

bool insn_has(const struct ptx_insn *in, const char *mod)
{
	uint32_t i;

	for (i = 0; i < in->nmods; i++)
		if (!strcmp(in->mods[i], mod))
			return true;
	return false;
}
