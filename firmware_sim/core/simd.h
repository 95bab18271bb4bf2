/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simd.h - the hot instruction files built once per host vector level.
 *
 * exec_int.c, exec_float.c and exec_mem.c hold the 32-lane loops that
 * run for almost every warp instruction.  build.mk compiles each of them
 * once per level (the baseline x86-64, x86-64-v3 with AVX2 and FMA,
 * x86-64-v4 with AVX-512) with -DCORE_SIMD=<level>; this header, included
 * first, renames their external functions per level (exec_int becomes
 * exec_int_v3, ...), and simd_dispatch.c defines the real exec_int,
 * exec_float and exec_mem, which call the level chosen once, when the
 * program starts, from the CPU's features.  No -march=native: every
 * level is built on any machine, the binary runs on any x86-64.
 *
 * The levels compute bit-identical results: integer code trivially, and
 * floating point because the core is built with -ffp-contract=off (no
 * a * b + c becomes an fma in one level and not in another) and without
 * -ffast-math (no reassociation); fmaf() is the correctly rounded fma
 * whether it is a library call or one instruction.
 */
#ifndef VGPU_CORE_SIMD_H
#define VGPU_CORE_SIMD_H

#include <stdint.h>

#define SIMD_CAT_(a, b)	a##_##b
#define SIMD_CAT(a, b)	SIMD_CAT_(a, b)

#ifdef CORE_SIMD
#define exec_int	SIMD_CAT(exec_int, CORE_SIMD)
#define exec_float	SIMD_CAT(exec_float, CORE_SIMD)
#define exec_mem	SIMD_CAT(exec_mem, CORE_SIMD)
#define combine_pred	SIMD_CAT(combine_pred, CORE_SIMD)
#endif

/*
 * Choose the level by name ("base", "x86-64-v3", "x86-64-v4"): 0, or -1
 * when the CPU (or this build) does not have it.  For tests and for the
 * VGPU_CORE_SIMD environment variable; call it only while no grid runs.
 */
int core_simd_select(const char *name);
/* The level in use, and the names of those this CPU can run (NULL-ended). */
const char *core_simd_name(void);
const char *const *core_simd_levels(void);

#endif /* VGPU_CORE_SIMD_H */
