/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_gpu.h - a native stand-in for the vGPU around the core: device
 * memory behind a simple page table (the translate callback the firmware's
 * MMU provides for real), module loading with segment allocation and
 * relocations (what the UMD does), launches, and a printf FIFO.
 */
#ifndef VGPU_TESTS_TEST_GPU_H
#define VGPU_TESTS_TEST_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "vgpu_core.h"

#define TG_MAX_MAPS	1024
/*
 * Functions a test process compiles with the native tier (the rest run
 * on the interpreter in both runs: compiling costs minutes for hundreds);
 * VGPU_TIER=native lifts the limit.
 */
#define TG_NATIVE_FUNCS		200

struct tg_map {
	uint64_t va;
	uint64_t size;
	uint64_t page;		/* 65536 (VRAM) or 4096 (GART) */
	uint32_t perm;
	uint8_t *host;
};

/*
 * A copy of all device memory (test_gpu.c's tier comparison).  The
 * buffers are kept from launch to launch: a fresh malloc() of megabytes
 * for every copy was an mmap(), page faults and a munmap() each time
 * (under ASan always), most of test_core_fastpath's time.
 */
#define TG_SNAPS	4	/* copies alive at once in one launch */
struct tg_snap {
	uint8_t *mem;		/* the maps' bytes, one after the other */
	size_t cap;
	uint8_t **at;		/* at[i]: map i's copy, in mem */
	unsigned int at_cap;
	bool busy;
};

struct test_gpu {
	struct vgpu_core *core;
	struct tg_map maps[TG_MAX_MAPS];
	unsigned int nmaps;
	uint64_t next_va;
	uint64_t printf_fifo;	/* VA of the FIFO */
	uint64_t translations;	/* translate calls (TLB misses) */
	/*
	 * Run every launch of a module that has a native tier on both
	 * tiers and require the same outcome (tg_launch); false runs the
	 * tier the module has selected, once (the benchmark).
	 */
	bool both_tiers;
	struct vgpu_core *ref_core;	/* one SM: where the tiers are compared */
	uint64_t tier_launches;		/* launches compared ... */
	uint64_t tier_nondet;		/* ... not comparable: the
					 * interpreter differs from itself */
	struct tg_snap snaps[TG_SNAPS];
};

struct tg_module {
	struct vgpu_module *mod;
	uint64_t global_base, const_base;
};

/*
 * Unless VGPU_TIER says otherwise, modules loaded after tg_init() get the
 * native tier and launches run on both tiers (see both_tiers), the first
 * TG_NATIVE_FUNCS functions compiled.  Native code is not taken from or
 * put into the compute cache unless CUDA_CACHE_DISABLE is set (to 0).
 */
int tg_init(struct test_gpu *g, unsigned int num_sms);
int tg_init_cfg(struct test_gpu *g, const struct vgpu_core_config *cfg);
void tg_fini(struct test_gpu *g);

/* Device memory: VRAM-like 64 KiB pages, or GART-like 4 KiB pages. */
uint64_t tg_alloc(struct test_gpu *g, size_t size);
uint64_t tg_alloc_perm(struct test_gpu *g, size_t size, uint64_t page,
		       uint32_t perm);
void *tg_host(struct test_gpu *g, uint64_t va);

/* Load an image: validate, allocate segments, copy, relocate. */
int tg_load(struct test_gpu *g, const void *image, size_t size,
	    struct tg_module *m, char *err, size_t errlen);
void tg_unload(struct tg_module *m);
/*
 * Finish the image @b built (visa_builder.h), load it as tg_load() does
 * and free @b; a load error is printed as a TAP diagnostic.
 */
struct vb;
int tg_load_vb(struct test_gpu *g, struct vb *b, struct tg_module *m);
/* VA of a module variable (cudaGetSymbolAddress). */
uint64_t tg_symbol(struct test_gpu *g, struct tg_module *m, const char *name);

/*
 * Launch kernel @name; returns vgpu_core_launch()'s result.  With
 * both_tiers the launch runs on the native tier, and (unless the
 * kernel's function stays on the interpreter: past the compile budget)
 * twice more from the same memory on a core of one SM, once per tier:
 * return value, fault record and every byte of device memory must be
 * identical there (a difference is printed and aborts the test).  The
 * caller sees the first run's memory and fault.
 */
int tg_launch(struct test_gpu *g, struct tg_module *m, const char *name,
	      const uint32_t grid[3], const uint32_t block[3],
	      uint32_t dyn_shared, const void *params, uint32_t param_size,
	      struct vgpu_core_fault *fault);

/* The launch tg_launch() would submit (for vgpu_core_submit()). */
int tg_launch_desc(struct test_gpu *g, struct tg_module *m, const char *name,
		   const uint32_t grid[3], const uint32_t block[3],
		   uint32_t dyn_shared, const void *params,
		   uint32_t param_size, struct vgpu_core_launch *l);

/* Unmap the allocation that contains @va (its host memory stays). */
void tg_unmap(struct test_gpu *g, uint64_t va);

/* A whole text file, NUL-terminated (malloc), or NULL. */
char *tg_read_text(const char *path);

/* Format and return everything printed since the last call (malloc). */
char *tg_printf_output(struct test_gpu *g, uint32_t *dropped);

#endif /* VGPU_TESTS_TEST_GPU_H */
