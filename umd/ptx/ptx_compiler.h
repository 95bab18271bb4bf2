/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptx_compiler.h - the PTX -> vISA compiler's public interface.
 *
 * The user-mode driver is the compiler, as on real GPUs: it receives PTX text
 * (from a fatbinary, from cuModuleLoadData, from a file) and turns it into a
 * vISA image (include/vgpu_visa.h) that the firmware validates and executes.
 *
 * One call compiles a whole program: every module given is parsed, the
 * modules are linked together (.extern functions and variables resolved
 * against .visible/.weak definitions of the other modules, as -rdc=true
 * programs need), and one image comes out.  On failure nothing is allocated
 * and a diagnostic names the file, line, column and what is wrong.
 *
 * The compiler keeps no global state: calls may run concurrently from any
 * number of threads.
 *
 * This interface only grows: fields are added at the end of the structures
 * (callers zero them), functions are added, nothing changes meaning.
 */
#ifndef VGPU_PTX_COMPILER_H
#define VGPU_PTX_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One PTX module: its text and the name used in diagnostics. */
struct vgpu_ptx_source {
	const char *name;	/* e.g. "kernel.ptx"; NULL means "<ptx>" */
	const char *text;	/* PTX text; need not be NUL-terminated */
	size_t len;		/* bytes of text (a NUL inside ends it early) */
};

/*
 * Compilation options.  Zero-initialise and set what you need; a NULL
 * options pointer means all defaults.  Limits of 0 mean "the default
 * target limit" (see ptx-compiler.rst).
 */
struct vgpu_ptx_options {
	uint32_t max_threads_per_block;	/* reject .maxntid/.reqntid above this */
	uint32_t max_shared_per_block;	/* reject larger static .shared (bytes) */
	uint32_t max_local_per_thread;	/* reject larger .local frames (bytes) */
	uint32_t flags;			/* VGPU_PTX_F_*, unknown bits rejected */
};

/* Omit the line table (fault reports then name no source line). */
#define VGPU_PTX_F_NO_LINE_INFO	(1u << 0)

/** Why a compilation failed, and where. */
struct vgpu_ptx_diag {
	char file[128];		/* name of the PTX module (vgpu_ptx_source) */
	uint32_t line;		/* 1-based; 0 when no position applies */
	uint32_t column;	/* 1-based; 0 when no position applies */
	char message[256];	/* what is wrong, one line, no trailing '\n' */
	char symbol[128];	/* VGPU_PTX_ERR_LINK: the name left unresolved
				 * ("" for other errors) */
};

/* Return values of vgpu_ptx_compile(). */
#define VGPU_PTX_OK		0
#define VGPU_PTX_ERR_SYNTAX	1	/* malformed PTX */
#define VGPU_PTX_ERR_UNSUPPORTED 2	/* valid PTX this compiler cannot do */
#define VGPU_PTX_ERR_LINK	3	/* unresolved or duplicate symbols */
#define VGPU_PTX_ERR_LIMIT	4	/* exceeds a target limit */
#define VGPU_PTX_ERR_NOMEM	5	/* out of memory */
#define VGPU_PTX_ERR_INVAL	6	/* bad arguments to this function */

/**
 * vgpu_ptx_compile() - compile and link PTX modules into one vISA image.
 * @srcs:   array of @nsrcs modules (at least one)
 * @nsrcs:  number of modules
 * @opts:   options, or NULL for defaults
 * @image:  on success, a malloc()ed image; release with vgpu_ptx_free()
 * @size:   on success, the image size in bytes
 * @diag:   on failure, filled with the first error (may be NULL)
 *
 * Return: VGPU_PTX_OK, or one of VGPU_PTX_ERR_*; on failure *image is NULL
 * and *size is 0.
 */
int vgpu_ptx_compile(const struct vgpu_ptx_source *srcs, unsigned int nsrcs,
		     const struct vgpu_ptx_options *opts,
		     void **image, size_t *size, struct vgpu_ptx_diag *diag);

/*
 * Version of the code generator: changes whenever the same PTX may compile
 * to a different image, so that compute caches can tell stale entries.
 */
#define VGPU_PTX_COMPILER_VERSION	3

/** vgpu_ptx_compiler_version() - VGPU_PTX_COMPILER_VERSION of the library. */
uint32_t vgpu_ptx_compiler_version(void);

/** vgpu_ptx_free() - release an image returned by vgpu_ptx_compile(). */
void vgpu_ptx_free(void *image);

/**
 * vgpu_ptx_format_diag() - "file:line:col: error: message" into @buf.
 * Returns the length that snprintf() would return.
 */
int vgpu_ptx_format_diag(const struct vgpu_ptx_diag *diag, char *buf,
			 size_t bufsz);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_PTX_COMPILER_H */
