/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jit_internal.h - what the parts of the native tier share.
 *
 *  jit.c        the tier's state per module, lazy compilation, the LLVM
 *               ORC JIT, and jit_warp_run(): the loop that enters native
 *               code and hands over to the interpreter where it must
 *  translate.c  one vISA function -> one LLVM IR function
 */
#ifndef VGPU_JIT_INTERNAL_H
#define VGPU_JIT_INTERNAL_H

#include <stddef.h>

#include <llvm-c/Core.h>

#include "cache/compute_cache.h"
#include "core_internal.h"
#include "vgpu_jit.h"

/*
 * What translated code calls and reads that lives at addresses of this
 * process: passed at every entry, so that the machine code holds no
 * address and can be kept in the cache and loaded by another process
 * (jit_cache.c).  One per module.
 */
struct jit_env {
	const struct dinsn *code;	/* the module's instructions */
	void *exec_insn;		/* warp_exec_insn() */
	void *exec_mem;			/* exec_mem() */
	void *branch;			/* warp_branch() */
	void *mem_resolve;		/* mem_resolve() */
};

/* The order of struct jit_env's pointers (translate.c loads them). */
enum { JIT_ENV_CODE, JIT_ENV_EXEC_INSN, JIT_ENV_EXEC_MEM, JIT_ENV_BRANCH,
       JIT_ENV_MEM_RESOLVE, JIT_ENV_N };
_Static_assert(offsetof(struct jit_env, mem_resolve) ==
	       JIT_ENV_MEM_RESOLVE * sizeof(void *) &&
	       sizeof(struct jit_env) == JIT_ENV_N * sizeof(void *),
	       "struct jit_env and its enum agree");

/*
 * A translated function: int fn(struct warp *w, uint32_t *quantum,
 * const struct jit_env *env).  It
 * starts at the top reconvergence entry's pc (a leader, see below), runs
 * blocks while *quantum covers them, and returns one of these:
 *   EXEC_FAULT, EXEC_BARRIER, EXEC_CONTROL, EXEC_YIELD  an instruction
 *        run by the interpreter's code returned it (top->pc is past it)
 *   JIT_EXIT_SETTLE  top->pc reached a point where the interpreter
 *        settles the stack (the entry's reconvergence pc, or a branch
 *        that leaves the function's code)
 *   JIT_EXIT_INTERP  the next block is longer than the quantum left, or
 *        the pc is no leader: the interpreter runs the rest
 */
typedef int (*jit_entry_fn)(struct warp *w, uint32_t *quantum,
			   const struct jit_env *env);

enum { JIT_EXIT_SETTLE = 16, JIT_EXIT_INTERP = 17 };

/* Per-function state. */
enum { JF_NEW = 0, JF_NATIVE, JF_INTERP, JF_QUEUED };

struct jit_func {
	_Atomic int state;	/* JF_*: JF_NEW until first entered,
				 * JF_QUEUED while the compile thread has it */
	jit_entry_fn entry;
	/*
	 * leader[pc - code_start]: native code can start at pc.  Leaders
	 * are the function start, branch targets and reconvergence points,
	 * the instruction after a branch, and every instruction run by
	 * the interpreter's code and the one after it: every pc a stack
	 * entry can hold, except where the interpreter stopped for the
	 * quantum (jit_warp_run steps the interpreter to a leader).
	 */
	uint8_t *leader;
	uint32_t insns_inline, insns_branch, insns_helper;
	bool cached;		/* loaded from the cache, not compiled */
	double compile_ms;
};

struct jit_module {
	const struct vgpu_module *m;
	_Atomic int enabled;		/* 1: warps run the native tier */
	pthread_mutex_t lock;		/* compilation of this module */
	void *lljit;			/* LLVMOrcLLJITRef, made at first use */
	struct jit_func *funcs;		/* one per vISA function */
	uint32_t nfuncs;
	bool async;			/* compile in the background */
	struct jit_env env;		/* what its code calls and reads */
	bool cache_tried;		/* jit_cache_open() done (llvm_lock) */
	struct vgpu_cache *cache;	/* native code between runs, or NULL */
	struct vgpu_cache_key_builder cache_kb;	/* the key less the function */
	/* protected by jit.c's queue_lock: */
	unsigned int refs;		/* the module's + queued jobs' */
	bool translating;		/* the compile thread reads ->m */
	bool dead;			/* the module is being freed */
	bool free_module;		/* ... and the compile thread frees
					 * ->m once its translation is done */
};

/* Where translate.c writes its result. */
struct jit_translation {
	LLVMModuleRef mod;		/* owns the function */
	char name[32];			/* its symbol */
	uint8_t *leader;		/* malloc'd, see struct jit_func */
	uint32_t insns_inline, insns_branch, insns_helper;
};


/*
 * Translate function @fi of @m into a new LLVM module in @ctx.
 * Returns 0, or -1 with a reason in @why (the function then runs on the
 * interpreter).
 */
int jit_translate(LLVMContextRef ctx, const struct vgpu_module *m,
		  uint32_t fi, struct jit_translation *out, char *why,
		  size_t whylen);

/*
 * jit_cache.c: native code between runs.  jit_cache_open() opens the
 * compute cache for @jm from the environment (CUDA_CACHE_*) and hashes
 * @m's image; jit_cache_load() gives function @fi's leaders, statistics
 * and object (0) or misses (-1); jit_cache_store() keeps them.
 */
void jit_cache_open(struct jit_module *jm, const struct vgpu_module *m,
		    const char *passes);
void jit_cache_close(struct jit_module *jm);
int jit_cache_load(struct jit_module *jm, uint32_t fi, uint32_t code_count,
		   struct jit_translation *tr, LLVMMemoryBufferRef *obj);
void jit_cache_store(struct jit_module *jm, uint32_t fi, uint32_t code_count,
		     const struct jit_translation *tr, LLVMMemoryBufferRef obj);

/* VGPU_JIT_DEBUG=1: one line per translated function on stderr. */
bool jit_debug(void);

#endif /* VGPU_JIT_INTERNAL_H */
