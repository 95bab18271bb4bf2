// SPDX-License-Identifier: GPL-2.0
/*
 * simd_dispatch.c - exec_int, exec_float and exec_mem, at the host vector
 * level chosen when the program starts (see simd.h).
 *
 * The best level the CPU supports is taken; VGPU_CORE_SIMD=<name> asks
 * for another one (a lower one to compare, or "base" to rule the vector
 * units out when hunting a bug).  An unknown or unsupported name keeps
 * the automatic choice and says so on stderr.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "simd.h"

#define SIMD_PROTOTYPES(lv)						\
	int SIMD_CAT(exec_int, lv)(struct warp *, const struct dinsn *,	\
				   uint32_t);				\
	int SIMD_CAT(exec_float, lv)(struct warp *, const struct dinsn *, \
				     uint32_t);				\
	int SIMD_CAT(exec_mem, lv)(struct warp *, const struct dinsn *,	\
				   uint32_t)

SIMD_PROTOTYPES(base);
#ifdef CORE_SIMD_X86
SIMD_PROTOTYPES(v3);
SIMD_PROTOTYPES(v4);
#endif

typedef int exec_fn(struct warp *, const struct dinsn *, uint32_t);

struct simd_level {
	const char *name;
	const char *cpu;	/* __builtin_cpu_supports() name, or NULL */
	exec_fn *exec_int, *exec_float, *exec_mem;
};

/* Lowest first. */
static const struct simd_level levels[] = {
	{ "base", NULL, exec_int_base, exec_float_base, exec_mem_base },
#ifdef CORE_SIMD_X86
	{ "x86-64-v3", "x86-64-v3", exec_int_v3, exec_float_v3, exec_mem_v3 },
	{ "x86-64-v4", "x86-64-v4", exec_int_v4, exec_float_v4, exec_mem_v4 },
#endif
};
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static _Atomic(const struct simd_level *) active = &levels[0];
static const char *supported[NLEVELS + 1];

static bool cpu_has(const struct simd_level *lv)
{
	if (!lv->cpu)
		return true;
#ifdef CORE_SIMD_X86
	/* the names are literals for the builtin */
	if (!strcmp(lv->cpu, "x86-64-v3"))
		return __builtin_cpu_supports("x86-64-v3");
	if (!strcmp(lv->cpu, "x86-64-v4"))
		return __builtin_cpu_supports("x86-64-v4");
#endif
	return false;
}

int core_simd_select(const char *name)
{
	for (size_t i = 0; i < NLEVELS; i++) {
		if (!strcmp(levels[i].name, name) && cpu_has(&levels[i])) {
			atomic_store(&active, &levels[i]);
			return 0;
		}
	}
	return -1;
}

const char *core_simd_name(void)
{
	return atomic_load(&active)->name;
}

const char *const *core_simd_levels(void)
{
	return supported;
}

/* Before main() and before any SM thread exists. */
__attribute__((constructor)) static void simd_init(void)
{
	const char *want = getenv("VGPU_CORE_SIMD");
	size_t n = 0;

#ifdef CORE_SIMD_X86
	__builtin_cpu_init();
#endif
	for (size_t i = 0; i < NLEVELS; i++) {
		if (cpu_has(&levels[i])) {
			supported[n++] = levels[i].name;
			atomic_store(&active, &levels[i]);
		}
	}
	if (want && *want && core_simd_select(want))
		fprintf(stderr, "vgpu core: VGPU_CORE_SIMD=%s is not a level "
			"this CPU has; using %s\n", want, core_simd_name());
}

/* What warp.c calls: one indirect call per instruction. */
int exec_int(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	return atomic_load_explicit(&active, memory_order_relaxed)
		->exec_int(w, in, mask);
}

int exec_float(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	return atomic_load_explicit(&active, memory_order_relaxed)
		->exec_float(w, in, mask);
}

int exec_mem(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	return atomic_load_explicit(&active, memory_order_relaxed)
		->exec_mem(w, in, mask);
}
