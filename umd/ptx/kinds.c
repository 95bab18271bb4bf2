// SPDX-License-Identifier: GPL-2.0
/*
 * kinds.c - opcode and modifier words -> their kinds, from the lists in
 * ptx_ops.h, ptx_types.h and ptx_mods.h.
 *
 * The parser decides the kind of each word once (OP_LD, MOD_GLOBAL); the
 * instruction selectors then switch on kinds and never compare text.  The
 * words are found by binary search in an index sorted on first use
 * (pthread_once: compilations may run in several threads at once).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"
#include "vgpu_visa.h"

#define OP_INFO(name, spelling, flags) [OP_##name] = { spelling, flags },
static const struct {
	const char *name;
	unsigned int flags;
} op_info[OP_COUNT_] = {
	[OP_NONE] = { "", 0 },
	PTX_OPS(OP_INFO)
};
#undef OP_INFO

struct mod_info {
	const char *name;
	enum ptx_mod_kind kind;
	uint32_t value;
};

#define MOD_TYPE(name, spelling, ...) \
	[MOD_##name] = { spelling, MK_TYPE, PT_##name },
#define MOD_SPACE(name, spelling) \
	[MOD_##name] = { spelling, MK_SPACE, PS_##name },
#define MOD_INFO(name, spelling, kind, value) \
	[MOD_##name] = { spelling, kind, value },
static const struct mod_info mod_info[MOD_COUNT_] = {
	[MOD_NONE] = { "?", MK_NONE, 0 },
	PTX_TYPES(MOD_TYPE)
	PTX_SPACES(MOD_SPACE)
	PTX_MODS(MOD_INFO)
};
#undef MOD_TYPE
#undef MOD_SPACE
#undef MOD_INFO

/* Indices of the words (1..count-1) in strcmp order. */
static uint16_t op_index[OP_COUNT_ - 1];
static uint16_t mod_index[MOD_COUNT_ - 1];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static int cmp_op(const void *a, const void *b)
{
	return strcmp(op_info[*(const uint16_t *)a].name,
		      op_info[*(const uint16_t *)b].name);
}

static int cmp_mod(const void *a, const void *b)
{
	return strcmp(mod_info[*(const uint16_t *)a].name,
		      mod_info[*(const uint16_t *)b].name);
}

static void build_index(void)
{
	unsigned int i;

	for (i = 1; i < OP_COUNT_; i++)
		op_index[i - 1] = (uint16_t)i;
	for (i = 1; i < MOD_COUNT_; i++)
		mod_index[i - 1] = (uint16_t)i;
	qsort(op_index, OP_COUNT_ - 1, sizeof(op_index[0]), cmp_op);
	qsort(mod_index, MOD_COUNT_ - 1, sizeof(mod_index[0]), cmp_mod);
}

/* The position of s in index (sorted by name()), or 0 if absent. */
static unsigned int search(const uint16_t *index, unsigned int n,
			   const char *(*name)(unsigned int), const char *s)
{
	unsigned int lo = 0, hi = n;

	pthread_once(&index_once, build_index);
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcmp(s, name(index[mid]));

		if (!c)
			return index[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

static const char *op_name_of(unsigned int i)
{
	return op_info[i].name;
}

static const char *mod_name_of(unsigned int i)
{
	return mod_info[i].name;
}

enum ptx_op ptx_op_lookup(const char *s)
{
	return (enum ptx_op)search(op_index, OP_COUNT_ - 1, op_name_of, s);
}

const char *ptx_op_name(enum ptx_op op)
{
	return op_info[op].name;
}

unsigned int ptx_op_flags(enum ptx_op op)
{
	return op_info[op].flags;
}

enum ptx_mod ptx_mod_lookup(const char *s)
{
	return (enum ptx_mod)search(mod_index, MOD_COUNT_ - 1, mod_name_of, s);
}

const char *ptx_mod_name(enum ptx_mod m)
{
	return mod_info[m].name;
}

enum ptx_mod_kind ptx_mod_kind(enum ptx_mod m)
{
	return mod_info[m].kind;
}

uint32_t ptx_mod_value(enum ptx_mod m)
{
	return mod_info[m].value;
}

enum ptx_type ptx_mod_type(enum ptx_mod m)
{
	return mod_info[m].kind == MK_TYPE ? (enum ptx_type)mod_info[m].value :
					     PT_NONE;
}

enum ptx_space ptx_mod_space(enum ptx_mod m)
{
	return mod_info[m].kind == MK_SPACE ?
	       (enum ptx_space)mod_info[m].value : PS_NONE;
}
