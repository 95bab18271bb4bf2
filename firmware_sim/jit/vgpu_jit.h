/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_jit.h - the execution core's native tier: what its users (the
 * firmware, the tests, the benchmark) may set and read.
 *
 * Two tiers run vISA: the interpreter (firmware_sim/core/warp.c), which is
 * the reference, and the native tier, which translates each vISA function
 * into host code with LLVM the first time a warp enters it.  The tier is
 * chosen per module when it is loaded, from the process-wide setting
 * below (initially the environment variable VGPU_TIER=interp|native, then
 * vgpu_jit_set_tier(), e.g. from `vgpu-fw --tier`).  See
 * Documentation/native-tier.rst.
 */
#ifndef VGPU_JIT_H
#define VGPU_JIT_H

#include <stdbool.h>
#include <stdint.h>

struct vgpu_module;

enum vgpu_tier {
	VGPU_TIER_INTERP = 0,	/* the interpreter only */
	VGPU_TIER_NATIVE,	/* LLVM-compiled functions, interpreter
				 * for what they leave to it */
};

/*
 * Functions longer than this stay on the interpreter: LLVM's time grows
 * faster than the code (one block per leader in one function), and the
 * firmware must not spend seconds on one kernel.
 */
#define VGPU_JIT_MAX_INSNS	20000

/*
 * The default when neither VGPU_TIER nor vgpu_jit_set_tier() says: the
 * native tier, which falls back to the interpreter for a module when
 * LLVM cannot start (and per function when it refuses one).
 */
#define VGPU_TIER_DEFAULT	VGPU_TIER_NATIVE

/* "interp" or "native" -> tier; -1 for anything else. */
int vgpu_jit_parse_tier(const char *name);
const char *vgpu_jit_tier_name(enum vgpu_tier tier);

/* The tier of modules loaded from now on (VGPU_TIER read once first). */
void vgpu_jit_set_tier(enum vgpu_tier tier);
enum vgpu_tier vgpu_jit_get_tier(void);

/*
 * Start LLVM now rather than at the first module load (the firmware, so
 * that loading a module never waits for it).  0, or -1 when LLVM cannot
 * start (modules then get the interpreter).
 */
int vgpu_jit_init(void);

/*
 * Where functions are compiled, for modules loaded from now on.  false
 * (the default): by the SM thread that first enters the function, which
 * waits for it, so the function's first launch runs natively (the tests
 * and the benchmark rely on that).  true: by a background thread, while
 * warps go on in the interpreter until the code is ready, and the thread
 * runs at the idle priority (SCHED_IDLE); a launch never stalls on the
 * compiler (the firmware: the driver's watchdog stops a
 * context that makes no progress for watchdog_ms, and under TCG a
 * compilation can take seconds).  Both give the same results.
 */
void vgpu_jit_set_async(bool async);

/*
 * At most @n more functions are compiled by this process; later ones run
 * on the interpreter (negative: no limit, the default).  For test
 * programs, where compiling hundreds of functions costs minutes.
 */
void vgpu_jit_set_compile_budget(long n);

/*
 * Switch a loaded module between the tiers (between launches only).
 * Returns -1 when the module has no native tier (loaded under "interp"
 * or the JIT could not start).  Used by the tests that run every launch
 * on both tiers and compare.
 */
int vgpu_jit_module_select(struct vgpu_module *mod, enum vgpu_tier tier);

/* What the translator did with a module's functions so far. */
struct vgpu_jit_stats {
	uint32_t funcs_native;		/* functions running as host code */
	uint32_t funcs_interp;		/* functions left to the interpreter */
	uint32_t funcs_cached;		/* ... of the native ones, loaded
					 * from the compute cache */
	uint64_t insns_inline;		/* their instructions compiled inline */
	uint64_t insns_branch;		/* ... branches (inline unless the
					 * warp diverges) */
	uint64_t insns_helper;		/* ... that call the interpreter's
					 * implementation (calls, barriers,
					 * warp ops, rare ones) */
	double compile_ms;		/* translation + LLVM time, total */
};
void vgpu_jit_module_stats(const struct vgpu_module *mod,
			   struct vgpu_jit_stats *st);

/*
 * Translate the function of kernel @kernel of @mod now, or every function
 * when @kernel is negative (normally done lazily at first entry): the
 * benchmark measures compile time with it.  Returns the number of those
 * functions that run natively, or -1 without a native tier.
 */
int vgpu_jit_module_compile(struct vgpu_module *mod, int kernel);

/*
 * Where kernel @kernel's function runs: 1 natively, 0 not decided yet
 * (never entered, or waiting for the compile thread), -1 on the
 * interpreter for good (the compile budget was spent, the function is
 * too long or LLVM refused it; also without a native tier).
 */
int vgpu_jit_kernel_native(const struct vgpu_module *mod, int kernel);

#endif /* VGPU_JIT_H */
