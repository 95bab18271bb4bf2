// SPDX-License-Identifier: GPL-2.0
/*
 * types.c - PTX fundamental types and state spaces: sizes, classes and
 * names, from the lists in ptx_types.h.
 */
#include "ptx_internal.h"

#define TYPE_INFO(name, spelling, bytes, class) \
	[PT_##name] = { spelling, bytes, class },
static const struct {
	const char *name;
	unsigned char size;
	unsigned char tclass;
} type_info[] = {
	[PT_NONE] = { "?", 0, TC_BITS },
	PTX_TYPES(TYPE_INFO)
};
#undef TYPE_INFO

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
	return ptx_mod_type(ptx_mod_lookup(s));
}

#define SPACE_NAME(name, spelling) [PS_##name] = spelling,
static const char *const space_names[] = {
	[PS_NONE] = "?",
	PTX_SPACES(SPACE_NAME)
};
#undef SPACE_NAME

/* Only the plain spaces: a declaration cannot be .shared::cta. */
enum ptx_space ptx_space_from_name(const char *s)
{
	enum ptx_mod m = ptx_mod_lookup(s);

	return m >= MOD_REG && m <= MOD_GENERIC ? ptx_mod_space(m) : PS_NONE;
}

const char *ptx_space_name(enum ptx_space s)
{
	return space_names[s];
}

bool insn_has(const struct ptx_insn *in, enum ptx_mod mod)
{
	uint32_t i;

	for (i = 0; i < in->nmods; i++)
		if (in->mods[i] == mod)
			return true;
	return false;
}
