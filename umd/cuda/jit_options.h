/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jit_options.h - the CUjit_option arrays of cuModuleLoadDataEx and the
 * cuLink* calls, read in one place (see jit_options.c).
 */
#ifndef VGPU_CUDA_JIT_OPTIONS_H
#define VGPU_CUDA_JIT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

/* Which call the options were given to: each accepts a different set. */
enum cu_jit_scope {
	CU_JIT_SCOPE_MODULE,	/* cuModuleLoadDataEx */
	CU_JIT_SCOPE_LINK,	/* cuLinkCreate */
	CU_JIT_SCOPE_INPUT,	/* cuLinkAddData/File: compiler options only */
};

/* A log buffer of the caller's, and where its filled size goes back. */
struct cu_jit_log {
	char *buf;		/* NULL: no log wanted */
	size_t size;		/* bytes, the terminating NUL included */
	void **size_slot;	/* the caller's *_SIZE_BYTES value, or NULL */
};

/* Text that grows (the logs of a link, accumulated until destroyed). */
struct cu_jit_text {
	char *s;		/* NUL-terminated, or NULL while empty */
	size_t len;
};

struct cu_jit_options {
	struct cu_jit_log info, error;
	void **wall_time_slot;		/* CU_JIT_WALL_TIME's value, or NULL */
	void **threads_slot;		/* CU_JIT_THREADS_PER_BLOCK's value */
	unsigned int threads_per_block;	/* 0: not asked */
	unsigned int max_registers;	/* 0: not asked */
	unsigned int opt_level;		/* 0-4, 4 by default */
	unsigned int target;		/* CUjit_target, 0: the context's */
	unsigned int cache_mode;	/* CUjit_cacheMode */
	unsigned int fallback;		/* CUjit_fallback */
	bool verbose, debug_info, line_info;
};

/*
 * Read @n options of a call of @scope into @out (zeroed first).
 * CUDA_ERROR_INVALID_VALUE for an unknown option, one @scope does not
 * take, or a bad value; CUDA_ERROR_NOT_SUPPORTED for an option whose
 * meaning we cannot give (symbol addresses, link-time optimisation).
 * On an error @why says which option and why.
 */
CUresult cu_jit_options_parse(enum cu_jit_scope scope, unsigned int n,
			      const CUjit_option *options, void **values,
			      struct cu_jit_options *out, char *why,
			      size_t whylen);

/* Append a printf-formatted line (a '\n' is added) to @t; false: no memory. */
bool cu_jit_text_add(struct cu_jit_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cu_jit_text_free(struct cu_jit_text *t);

/*
 * Copy @t into the caller's log buffer, cut to fit with its NUL, and
 * write the number of bytes of text it now holds (NUL not counted) into
 * the *_SIZE_BYTES value.
 */
void cu_jit_log_publish(const struct cu_jit_log *log,
			const struct cu_jit_text *t);

/*
 * The verbose log's account of a compiled image: one line per kernel
 * with the resources it uses, as ptxas -v prints them.
 */
void cu_jit_describe_image(struct cu_jit_text *t, const void *image,
			   bool from_cache);

/* Write the wall time and the targeted block size back, if asked. */
void cu_jit_options_report(const struct cu_jit_options *o, double wall_ms);

/* Milliseconds on the monotonic clock, for CU_JIT_WALL_TIME. */
double cu_jit_now_ms(void);

#endif /* VGPU_CUDA_JIT_OPTIONS_H */
